// Small helpers the shim's stage files share (cone_solver.cpp, bodies.cpp,
// contacts.cpp, joints.cpp, write_back.cpp): vector conversions, finiteness
// checks, prefetch hints, object classification.  Internal to the shim.
#ifndef ROLLFRIC_SHIM_SHIM_UTIL_HPP
#define ROLLFRIC_SHIM_SHIM_UTIL_HPP

#include "ptr_index.hpp" // prefetch_read, prefetch_write
#include "rollfric/rollfric.h"

#include <btBulletDynamicsCommon.h>

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstring>

namespace rfshim {

inline double wall_now()
{
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double>(clock::now().time_since_epoch())
        .count();
}

inline void to3(const btVector3 &v, double out[3])
{
    out[0] = v.x();
    out[1] = v.y();
    out[2] = v.z();
}

inline double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

inline void cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

inline bool normalize3(double v[3])
{
    double l = std::sqrt(dot3(v, v));
    if (!(l > 1e-12) || !std::isfinite(l)) {
        return false;
    }
    v[0] /= l;
    v[1] /= l;
    v[2] /= l;
    return true;
}

// t1 = d with its n component removed, normalised; false if d is (nearly)
// along n or not a direction at all.
inline bool tangent_from(const btVector3 &d, const double n[3], double t1[3])
{
    double v[3];
    to3(d, v);
    double dn = dot3(v, n);
    for (int k = 0; k < 3; ++k) {
        v[k] -= dn * n[k];
    }
    if (!(dot3(v, v) > 0.25)) { // |d| ~ 1 and at most 60 deg off the plane
        return false;
    }
    std::memcpy(t1, v, sizeof v);
    return normalize3(t1);
}

// A friction coefficient from Bullet's combine callbacks, as the core
// accepts it: non-negative and finite.  Anything else is treated as 0 and
// reported (the core would reject the whole step).
inline double coefficient(btScalar c, int *bad)
{
    double v = c;
    if (std::isfinite(v) && v >= 0.0) {
        return v;
    }
    ++*bad;
    return 0.0;
}

// How many items ahead the loops over Bullet's objects fetch (below): far
// enough for a memory access to finish while the items in between are
// translated, near enough that the lines are still in cache.
constexpr size_t kPrefetchAhead = 8;
// The write-back's distance (a few stores a point: it runs farther ahead).
constexpr size_t kWriteAhead = 4 * kPrefetchAhead;

// Every cache line of [p, p + size), inside one object.  Bodies and
// manifolds lie scattered in Bullet's pools, and touching one that is not
// in cache stalls the loop; cone_step's loops fetch the object they will
// reach kPrefetchAhead items later.  Hints only: nothing depends on them.
inline void prefetch_object(const void *p, size_t size)
{
    const char *c = static_cast<const char *>(p);
    for (size_t off = 0; off < size; off += 64) {
        prefetch_read(c + off);
    }
    prefetch_read(c + size - 1); // the last line when p is not aligned
}

// The lines of a point's three impulses (m_appliedImpulse ..
// m_appliedImpulseLateral2, which may straddle two), fetched for the
// write-back's stores: their misses filled the store buffer, and the
// pass waited on one point at a time (write_points, 2.5% of the full
// pyramid's step, three quarters on its first store).
inline void prefetch_point_impulses(const btManifoldPoint *cp)
{
    prefetch_write(&cp->m_appliedImpulse);
    prefetch_write(&cp->m_appliedImpulseLateral2);
}

// The sum of f(i) over i in [0, n), on `threads` threads in contiguous
// ranges (schedule static), or in a plain loop on one: no OpenMP region
// then, since libgomp ends even a team of one with a system call (the
// core's rf__team, plugin/internal.h).  f must be safe to run
// concurrently for different i.
template <class F> int sum_over(int n, int threads, const F &f)
{
    int sum = 0;
    if (threads > 1) {
#pragma omp parallel for schedule(static) num_threads(threads) \
    reduction(+ : sum)
        for (int i = 0; i < n; ++i) {
            sum += f(i);
        }
    } else {
        for (int i = 0; i < n; ++i) {
            sum += f(i);
        }
    }
    return sum;
}

// Contact c's sliding directions into its point, for Bullet's readers
// and the next step's warm start.
inline void write_point_frame(btManifoldPoint &cp, const double t1[3],
                              const double t2[3])
{
    cp.m_lateralFrictionDir1.setValue((btScalar)t1[0], (btScalar)t1[1],
                                      (btScalar)t1[2]);
    cp.m_lateralFrictionDir2.setValue((btScalar)t2[0], (btScalar)t2[1],
                                      (btScalar)t2[2]);
}

// A manifold's first touch was the largest stall of cone_step's manifold
// loop.  Fetch the lines the loop reads: the bodies, point count and
// thresholds, which Bullet keeps after the point cache at the end of the
// object, and the n points it holds at the start.  The addresses lie
// inside the object whatever its layout.
inline void prefetch_manifold(const btPersistentManifold *m, int n)
{
    const char *p = reinterpret_cast<const char *>(m);
    const size_t size = sizeof(btPersistentManifold);
    static_assert(sizeof(btPersistentManifold) >
                      MANIFOLD_CACHE_SIZE * sizeof(btManifoldPoint),
                  "a point cache and a tail");
    prefetch_object(p + size - 48, 48);
    prefetch_object(p, (size_t)n * sizeof(btManifoldPoint) + 16);
}

// The first manifold pass (sides and point count) reads only the tail:
// fetching the whole manifold there too cost more than it saved the
// second pass (5k pile: 1 ms more per step at 1 thread), and it runs
// farther ahead (4 kPrefetchAhead) because a tail line is all it waits for.
inline void prefetch_manifold_tail(const btPersistentManifold *m)
{
    const char *p = reinterpret_cast<const char *>(m);
    const size_t size = sizeof(btPersistentManifold);
    prefetch_object(p + size - 48, 48);
}

// What an object is to the solver.  A dynamic object (not static, not
// kinematic) with a negative or non-finite inverse mass cannot be solved
// (a negative mass gains energy from every impulse) and is held out
// (ConeSolver::hold_body); one with inverse mass 0 is as heavy as the
// world, as in stock.
enum class Kind { kDynamic, kFixed, kBad };

inline Kind classify(const btCollisionObject *obj, btRigidBody **rb_out)
{
    btRigidBody *rb = btRigidBody::upcast(const_cast<btCollisionObject *>(obj));
    *rb_out = rb;
    if (rb == nullptr || obj->isStaticOrKinematicObject()) {
        return Kind::kFixed;
    }
    const double im = rb->getInvMass();
    if (im > 0.0 && std::isfinite(im)) {
        return Kind::kDynamic;
    }
    return im == 0.0 ? Kind::kFixed : Kind::kBad;
}

// The object's broadphase proxy m_uniqueId (a fresh one for every
// addition to a world), or -1 while it is in none: with the object's
// address, what tells a body from a later one at the same address.
inline int proxy_id_of(const btCollisionObject *obj)
{
    const btBroadphaseProxy *h = obj->getBroadphaseHandle();
    return h != nullptr ? h->m_uniqueId : -1;
}

inline bool finite3(const double v[3])
{
    return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]);
}

inline bool finite_vec(const btVector3 &v)
{
    return std::isfinite((double)v.x()) && std::isfinite((double)v.y()) &&
           std::isfinite((double)v.z());
}

inline bool finite_transform(const btTransform &t)
{
    const btMatrix3x3 &b = t.getBasis();
    return finite_vec(t.getOrigin()) && finite_vec(b[0]) && finite_vec(b[1]) &&
           finite_vec(b[2]);
}

// Every number of a contact the core reads is finite (the core rejects
// the whole problem otherwise).
inline bool finite_contact(const rf_contact_desc &c)
{
    bool ok = finite3(c.n) && finite3(c.t1) && finite3(c.t2) &&
              finite3(c.r_a) && finite3(c.r_b);
    for (double b : c.bias) {
        ok = ok && std::isfinite(b);
    }
    return ok;
}

inline btVector3 finite_or_zero(const btVector3 &v)
{
    return finite_vec(v) ? v : btVector3(0, 0, 0);
}

// Below this many manifold points the contact slots are filled (and the
// impulses written back) on one thread: a parallel region costs a few
// microseconds, a point 0.1-0.5.  The core's own threshold is 512 items.
constexpr size_t kParallelPoints = 512;

} // namespace rfshim

#endif // ROLLFRIC_SHIM_SHIM_UTIL_HPP
