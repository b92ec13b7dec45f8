// Per-point state that outlives a step, carried by the manifold point
// itself.  Internal to the shim.
//
// What a contact point carries from one cone step to the next beyond the
// fields Bullet keeps on it (normal and sliding impulses, the sliding
// directions): the spin and rolling impulses (the next warm start) and the
// permanent indentation of a yielding point (physical state).  It hangs on
// btManifoldPoint::m_userPersistentData, the slot Bullet provides for
// exactly this: Bullet moves the pointer with the point when it reorders
// or replaces points (btPersistentManifold::removeContactPoint,
// replaceContactPoint keeps it for the point that takes the place), and
// hands it to gContactDestroyedCallback when the point goes
// (clearUserCache: a point dropped, a manifold cleared or released).  So
// the state has the point's identity: a stock step writing the impulses
// leaves it alone, a manifold allocated at a freed address starts with
// null pointers, and a sleeping island keeps its points' state until it
// wakes.
//
// Bullet's callback is one process-wide function pointer, so the pools
// register in one process-wide list (under a lock: Bullet may clear points
// on several threads): the callback returns a state to the pool whose
// chunks hold it, and hands any other pointer to the callback that was
// installed before the first pool (the application's, which keeps working
// unchanged).  The application must install its own callback before
// attaching, or chain to the previous one when it installs its own later.
// A point that carries the application's own data is left alone (its
// extras are not kept; PointStatePool::attach says so).
#ifndef ROLLFRIC_SHIM_POINT_STATE_HPP
#define ROLLFRIC_SHIM_POINT_STATE_HPP

#include <btBulletDynamicsCommon.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace rfshim {

struct PointState {
    double spin;           // spin impulse tn of the last cone step, N m s
    double roll[3];        // rolling impulse tu t1 + tw t2, world frame, N m s
    double plastic;        // permanent indentation of a yielding point, m
    PointState *next_free; // the pool's free list (nullptr while in use)
};

class PointStatePool {
  public:
    PointStatePool();  // registers (installs Bullet's callback if first)
    ~PointStatePool(); // unregisters; strip() the world's points first
    PointStatePool(const PointStatePool &) = delete;
    PointStatePool &operator=(const PointStatePool &) = delete;

    // The state point cp carries if it is one of this pool's, else
    // nullptr.  Reads only: safe on several threads at once while no
    // attach() runs.
    PointState *of(const btManifoldPoint &cp) const
    {
        const void *d = cp.m_userPersistentData;
        return d != nullptr && owns(d) ? (PointState *)d : nullptr;
    }
    // True when the point carries a pointer that is not this pool's (the
    // application's data, or another plugin's).
    bool foreign(const btManifoldPoint &cp) const
    {
        const void *d = cp.m_userPersistentData;
        return d != nullptr && !owns(d);
    }
    // A zeroed state hung on cp, which must carry no pointer; nullptr if
    // out of memory.  One thread at a time.
    PointState *attach(btManifoldPoint &cp);
    // Every point of d's manifolds that carries one of this pool's states
    // is cleared and the state returned: before the pool goes (detach,
    // the world deleted).
    void strip(btDispatcher *d);
    // States in use.
    size_t live() const
    {
        return live_;
    }
    // Whether Bullet's callback is still the pools' (false: the
    // application replaced it after attaching; its callback now receives
    // the pools' states).
    static bool callback_installed();

    bool owns(const void *d) const;
    // under the registry's lock
    void release_locked(void *d);

  private:
    struct Chunk {
        std::unique_ptr<PointState[]> states;
        size_t count;
    };
    std::vector<Chunk> chunks_; // sizes double: few chunks to search
    PointState *free_ = nullptr;
    size_t live_ = 0;
};

} // namespace rfshim

#endif // ROLLFRIC_SHIM_POINT_STATE_HPP
