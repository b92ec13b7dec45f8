// The per-point state pools and Bullet's contact-destroyed callback
// (point_state.hpp).
#include "point_state.hpp"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <new>

namespace rfshim {

namespace {

// The process-wide registry: Bullet's gContactDestroyedCallback is one
// global function pointer, so whatever answers it must be found from it.
// Guarded by registry_lock: points are cleared during collision detection,
// which Bullet may run on several threads, and several worlds may step at
// once.
std::mutex registry_lock;
std::vector<PointStatePool *> registry;
ContactDestroyedCallback chained = nullptr; // installed before the pools

bool point_destroyed(void *data)
{
    ContactDestroyedCallback next;
    {
        std::lock_guard<std::mutex> hold(registry_lock);
        for (PointStatePool *pool : registry) {
            if (pool->owns(data)) {
                pool->release_locked(data);
                return true;
            }
        }
        next = chained;
    }
    return next != nullptr ? next(data) : false;
}

} // namespace

PointStatePool::PointStatePool()
{
    std::lock_guard<std::mutex> hold(registry_lock);
    if (registry.empty() && gContactDestroyedCallback != point_destroyed) {
        chained = gContactDestroyedCallback;
        gContactDestroyedCallback = point_destroyed;
    }
    registry.push_back(this);
}

PointStatePool::~PointStatePool()
{
    std::lock_guard<std::mutex> hold(registry_lock);
    registry.erase(std::find(registry.begin(), registry.end(), this));
    if (registry.empty()) {
        // the application's callback back in place, unless it replaced
        // ours meanwhile (then its own stays)
        if (gContactDestroyedCallback == point_destroyed) {
            gContactDestroyedCallback = chained;
        }
        chained = nullptr;
    }
}

bool PointStatePool::callback_installed()
{
    std::lock_guard<std::mutex> hold(registry_lock);
    return gContactDestroyedCallback == point_destroyed;
}

bool PointStatePool::owns(const void *d) const
{
    // compared as integers (the pointer may be anything the application
    // stored, and relational comparison of unrelated pointers is not
    // defined; unsigned x - lo wraps for x < lo); the largest (last)
    // chunk holds most states, so it comes first
    const uintptr_t x = (uintptr_t)d;
    for (size_t k = chunks_.size(); k-- > 0;) {
        const uintptr_t lo = (uintptr_t)chunks_[k].states.get();
        if (x - lo < chunks_[k].count * sizeof(PointState)) { // lo <= x < hi
            return true;
        }
    }
    return false;
}

void PointStatePool::release_locked(void *d)
{
    PointState *s = (PointState *)d;
    s->next_free = free_;
    free_ = s;
    --live_;
}

PointState *PointStatePool::attach(btManifoldPoint &cp)
{
    std::lock_guard<std::mutex> hold(registry_lock);
    if (free_ == nullptr) {
        const size_t n = chunks_.empty() ? 256 : 2 * chunks_.back().count;
        PointState *block = new (std::nothrow) PointState[n];
        if (block == nullptr) {
            return nullptr;
        }
        try { // the Chunk owns block: freed with it if push_back throws
            chunks_.push_back(Chunk{std::unique_ptr<PointState[]>(block), n});
        } catch (const std::bad_alloc &) {
            return nullptr;
        }
        for (size_t k = n; k-- > 0;) {
            block[k].next_free = free_;
            free_ = &block[k];
        }
    }
    PointState *s = free_;
    free_ = s->next_free;
    *s = PointState{0.0, {0.0, 0.0, 0.0}, 0.0, nullptr};
    ++live_;
    cp.m_userPersistentData = s;
    return s;
}

void PointStatePool::strip(btDispatcher *d)
{
    if (d == nullptr || live_ == 0) {
        return;
    }
    std::lock_guard<std::mutex> hold(registry_lock);
    const int nm = d->getNumManifolds();
    for (int k = 0; k < nm; ++k) {
        btPersistentManifold *m = d->getManifoldByIndexInternal(k);
        for (int j = 0; j < m->getNumContacts(); ++j) {
            btManifoldPoint &cp = m->getContactPoint(j);
            if (cp.m_userPersistentData != nullptr &&
                owns(cp.m_userPersistentData)) {
                release_locked(cp.m_userPersistentData);
                cp.m_userPersistentData = nullptr;
            }
        }
    }
}

} // namespace rfshim
