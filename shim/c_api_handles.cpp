// The pl* C API, part 1: errors (plGetLastError and the message setter,
// argument checks) and the handle registry (generation-checked handles,
// lookup, world membership), which every other part uses
// (c_api_internal.hpp describes the whole layer).
#include "c_api_internal.hpp"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <new>
#if defined(__GLIBCXX__)
#include <cxxabi.h> // abi::__forced_unwind
#endif

namespace rfshim {
namespace capi {

// ---- errors ----------------------------------------------------------------

namespace {
thread_local char g_error[512] = "";
} // namespace

plStatus fail(plStatus st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(g_error, sizeof g_error, fmt, ap);
    va_end(ap);
    return st;
}

plStatus fail_exception(const char *fn)
{
    try {
        throw;
#if defined(__GLIBCXX__)
    } catch (abi::__forced_unwind &) { // pthread_cancel: must go on
        throw;
#endif
    } catch (const std::bad_alloc &) {
        return fail(PL_ERR_NOMEM, "%s: out of memory", fn);
    } catch (const std::exception &e) {
        return fail(PL_ERR_INVALID, "%s: internal error: %s", fn, e.what());
    } catch (...) {
        return fail(PL_ERR_INVALID, "%s: internal error: unknown exception",
                    fn);
    }
}

bool is_finite(plReal x)
{
    return std::isfinite((double)x);
}
// n reals of argument `name` of fn: present and finite, or the error.
plStatus check_reals(const char *fn, const char *name, const plReal *v, int n)
{
    if (v == nullptr) {
        return fail(PL_ERR_NULL, "%s: %s is NULL", fn, name);
    }
    for (int k = 0; k < n; ++k) {
        if (!is_finite(v[k])) {
            return fail(PL_ERR_NONFINITE, "%s: %s[%d] is not finite", fn, name,
                        k);
        }
    }
    return PL_OK;
}

// ---- objects ---------------------------------------------------------------

namespace {
const char *kind_name(int k)
{
    static const char *n[] = {
        "nothing",        "SDK",        "world",
        "rigid body",     "shape",      "constraint",
        "mesh interface", "broadphase", "broadphase proxy",
        "collision world"};
    return n[k];
}

// Registry: slot index + generation, packed into the handle value
// (index + 1 in the low 32 bits, generation in the high ones).  A deleted
// slot bumps its generation, so old handles no longer match.
struct Slot {
    int kind = K_NONE;
    uint32_t gen = 1;
    void *obj = nullptr;
};
} // namespace

std::recursive_mutex g_mutex; // registry: lookups and create/delete

namespace {
std::vector<Slot> g_slots;
std::vector<uint32_t> g_free;

// At exit, the recordings of the worlds the program never deleted are
// ended (rf_bullet_record_end: the end mark, nothing read from the world),
// so that they read as complete.  Defined after g_slots, so destroyed
// before it.
struct EndRecordingsAtExit {
    ~EndRecordingsAtExit()
    {
        for (const Slot &s : g_slots) {
            if (s.kind == K_WORLD && s.obj != nullptr) {
                rf_bullet_record_end(static_cast<World *>(s.obj)->plugin,
                                     nullptr);
            }
        }
    }
} g_end_recordings;
} // namespace

void *make_handle(int kind, void *obj)
{
    uint32_t i;
    if (!g_free.empty()) {
        i = g_free.back();
        g_free.pop_back();
    } else {
        // g_free has room for every slot, so drop_handle's push_back
        // cannot throw: a delete never needs memory
        reserve_more(g_free, g_slots.size() + 1 - g_free.size());
        i = (uint32_t)g_slots.size();
        g_slots.emplace_back();
    }
    Slot &s = g_slots[i];
    s.kind = kind;
    s.obj = obj;
    uintptr_t h = ((uintptr_t)s.gen << 32) | (uintptr_t)(i + 1);
    return (void *)h;
}

// The object behind h of kind k, or nullptr with the error set.
template <class T>
T *lookup(const void *h, int k, const char *fn, const char *arg, plStatus *st)
{
    std::lock_guard<std::recursive_mutex> lock(g_mutex);
    if (h == nullptr) {
        *st = fail(PL_ERR_NULL, "%s: %s is NULL", fn, arg);
        return nullptr;
    }
    uintptr_t v = (uintptr_t)h;
    uint32_t i = (uint32_t)(v & 0xffffffffu);
    uint32_t gen = (uint32_t)(v >> 32);
    if (i == 0 || i > g_slots.size() || g_slots[i - 1].gen != gen ||
        g_slots[i - 1].kind == K_NONE) {
        *st = fail(PL_ERR_HANDLE,
                   "%s: %s is not a live handle (deleted or "
                   "never created)",
                   fn, arg);
        return nullptr;
    }
    const Slot &s = g_slots[i - 1];
    if (s.kind != k) {
        *st = fail(PL_ERR_HANDLE, "%s: %s is a %s handle, not a %s", fn, arg,
                   kind_name(s.kind), kind_name(k));
        return nullptr;
    }
    *st = PL_OK;
    return static_cast<T *>(s.obj);
}

template Sdk *lookup<Sdk>(const void *, int, const char *, const char *,
                          plStatus *);
template World *lookup<World>(const void *, int, const char *, const char *,
                              plStatus *);
template Body *lookup<Body>(const void *, int, const char *, const char *,
                            plStatus *);
template Shape *lookup<Shape>(const void *, int, const char *, const char *,
                              plStatus *);
template Constraint *lookup<Constraint>(const void *, int, const char *,
                                        const char *, plStatus *);
template MeshInterface *lookup<MeshInterface>(const void *, int, const char *,
                                              const char *, plStatus *);
template Broadphase *lookup<Broadphase>(const void *, int, const char *,
                                        const char *, plStatus *);
template Proxy *lookup<Proxy>(const void *, int, const char *, const char *,
                              plStatus *);
template CollisionWorld *lookup<CollisionWorld>(const void *, int, const char *,
                                                const char *, plStatus *);

void drop_handle(const void *h)
{
    uintptr_t v = (uintptr_t)h;
    uint32_t i = (uint32_t)(v & 0xffffffffu) - 1;
    Slot &s = g_slots[i];
    s.kind = K_NONE;
    s.obj = nullptr;
    ++s.gen;
    if (s.gen == 0) {
        s.gen = 1;
    }
    g_free.push_back(i);
}

namespace {
// Take a body or constraint out of its world, if any: out of Bullet
// (remove_from_bullet) and out of the world's handle list; it stays valid.
template <class T, class Remove>
void leave_world(T *obj, std::vector<void *> World::*list,
                 Remove remove_from_bullet)
{
    if (obj->world_handle == nullptr) {
        return;
    }
    plStatus st;
    World *w = lookup<World>(obj->world_handle, K_WORLD, "", "", &st);
    if (w != nullptr) {
        remove_from_bullet(w->world);
        auto &v = w->*list;
        v.erase(std::find(v.begin(), v.end(), obj->handle));
    }
    obj->world_handle = nullptr;
}
} // namespace

void remove_from_world(Body *b)
{
    leave_world(b, &World::bodies, [b](btDiscreteDynamicsWorld &dw) {
        dw.removeRigidBody(b->rb.get());
    });
}

void remove_constraint_from_world(Constraint *c)
{
    leave_world(c, &World::constraints, [c](btDiscreteDynamicsWorld &dw) {
        dw.removeConstraint(c->c.get());
    });
}

} // namespace capi
} // namespace rfshim

using namespace rfshim::capi;

extern "C" {

// Cannot throw: not guarded.
const char *plGetLastError(void)
{
    return g_error;
}

} // extern "C"
