// The pl* C API (include/rollfric/bullet_c_api.h) over Bullet 3.24 and the
// cone solver.  Translation only: Bullet objects behind generation-checked
// handles, arguments validated before anything changes.
//
// One file per part of the API, each one of the banners of the old
// c_api.cpp: c_api_handles.cpp (errors and the handle registry),
// c_api_worlds.cpp (SDK, worlds, contact solver), c_api_shapes.cpp,
// c_api_bodies.cpp, c_api_constraints.cpp and c_api_queries.cpp (contacts,
// ray cast).  This header declares what the parts share: the error setter
// and argument checks, the exception boundary of every entry point
// (guarded: out of memory is PL_ERR_NOMEM, never an abort), the objects
// behind the handles, the registry's lock and handle functions, and the
// LOOKUP macro of the entry points.  Internal
// to the shim: rfshim::capi is hidden like the rest of the shim (only rf_*
// and pl* leave the library, shim/exports.map); helpers one part uses stay
// in that part's anonymous namespace.
#ifndef ROLLFRIC_SHIM_C_API_INTERNAL_HPP
#define ROLLFRIC_SHIM_C_API_INTERNAL_HPP

#include "rollfric/bullet_c_api.h"
#include "rollfric/rollfric_bullet.h"

#include <BulletCollision/BroadphaseCollision/btAxisSweep3.h>
#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace rfshim {
namespace capi {

// ---- errors (c_api_handles.cpp) ------------------------------------------

// Set plGetLastError's message (this thread's) from fmt; returns st.
plStatus fail(plStatus st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

// Set plGetLastError's message from the exception being handled (call it
// only inside a catch block) and return its status: std::bad_alloc is
// PL_ERR_NOMEM ("fn: out of memory"), anything else PL_ERR_INVALID ("fn:
// internal error: what()").  A thread's cancellation (glibc's forced
// unwind) is not an error: it is rethrown.
plStatus fail_exception(const char *fn);

// The boundary of every extern "C" pl* function: its whole body runs as
// `body`, and no C++ exception leaves it (one would reach the C caller as
// std::terminate).  The body's own lock (Lock lock(g_mutex)) is released
// by the unwinding before fail_exception records the error, which takes
// no lock (the message is per thread).  Two forms:
//   plStatus f(...)  { return guarded(fn, [&] { ...; return PL_OK; }); }
//   handle / int / double / void * f(...)
//                    { return guarded(fn, nullptr, [&]() -> R { ... }); }
// the first returns the exception's status, the second on_fail (NULL,
// -1: what the header documents as the function's failure value).
// Bodies are written so that an exception leaves nothing half done
// (reserve_more before a change that must not fail, own_handle).
template <class F> plStatus guarded(const char *fn, F &&body)
{
    try {
        return body();
    } catch (...) {
        return fail_exception(fn);
    }
}
template <class V, class F>
auto guarded(const char *fn, V on_fail, F &&body) -> decltype(body())
{
    try {
        return body();
    } catch (...) {
        fail_exception(fn);
        return on_fail;
    }
}

// Room in v for n more elements (growing geometrically, as push_back
// does), so that the push_back or insert after it cannot throw: called
// before the first change of an entry point that must not stop halfway.
template <class T> void reserve_more(std::vector<T> &v, size_t n)
{
    if (v.capacity() - v.size() < n) {
        v.reserve(std::max(v.size() + n, 2 * v.capacity()));
    }
}

// x (a plReal of either precision) is finite.
bool is_finite(plReal x);
// n reals of argument `name` of fn: present and finite, or the error.
plStatus check_reals(const char *fn, const char *name, const plReal *v, int n);

// ---- objects (c_api_handles.cpp) -----------------------------------------

enum Kind {
    K_NONE = 0,
    K_SDK,
    K_WORLD,
    K_BODY,
    K_SHAPE,
    K_CONSTRAINT,
    K_MESH,       // plMeshInterfaceHandle
    K_BROADPHASE, // plCollisionBroadphaseHandle
    K_PROXY,      // plBroadphaseProxyHandle
    K_COLLISION_WORLD
};

struct World;
struct Shape {
    // a triangle mesh's copied arrays and interface: declared before
    // `shape`, so they outlive the shape that points to them
    std::vector<btScalar> mesh_vertices;
    std::vector<int> mesh_indices;
    std::unique_ptr<btTriangleIndexVertexArray> mesh;
    std::unique_ptr<btCollisionShape> shape;
    int users = 0;                     // bodies and compounds holding it
    const char *static_only = nullptr; // "a static plane", "a triangle
                                       // mesh": static bodies only
    std::vector<void *> children;      // compound: child handles (kept alive)
};
struct Body {
    std::unique_ptr<btDefaultMotionState> state;
    std::unique_ptr<btRigidBody> rb;
    void *handle = nullptr; // its own handle
    void *shape_handle = nullptr;
    void *world_handle = nullptr; // the world it is in, or null
    void *user_data = nullptr;
    std::vector<void *> constraints; // constraint handles using it
    double cohesion = 0.0; // N (plSetCohesion), given to each world's plugin
    double yield = 0.0;    // N (plSetYield), likewise
    std::string name;      // plSetBodyName's, likewise (for recordings)
};
struct Constraint {
    std::unique_ptr<btTypedConstraint> c;
    void *handle = nullptr;
    void *body_a = nullptr, *body_b = nullptr; // handles; b may be null
    void *world_handle = nullptr;
};
struct World {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
    rf_plugin *plugin = nullptr;
    void *sdk_handle = nullptr;
    std::vector<void *> bodies;      // body handles in this world
    std::vector<void *> constraints; // constraint handles in this world
    ~World()
    {
        rf_bullet_detach(plugin);
    }
};
struct Sdk {
    std::vector<void *> worlds;
    std::vector<void *> collision_worlds; // plCreateCollisionWorld's
};
// The classic mesh interface: triangles, 9 reals each (c_api_collision.cpp).
struct MeshInterface {
    std::vector<btScalar> triangles;
};
// A classic SAP broadphase and the callbacks it reports pairs to.
struct Broadphase;
struct PairReporter : btOverlappingPairCallback {
    Broadphase *owner = nullptr;
    btBroadphasePair *addOverlappingPair(btBroadphaseProxy *p0,
                                         btBroadphaseProxy *p1) override;
    void *removeOverlappingPair(btBroadphaseProxy *p0, btBroadphaseProxy *p1,
                                btDispatcher *dispatcher) override;
    void removeOverlappingPairsContainingProxy(btBroadphaseProxy *,
                                               btDispatcher *) override
    {
    }
};
struct Broadphase {
    btAxisSweep3 sap{btVector3(-1000, -1000, -1000),
                     btVector3(1000, 1000, 1000)};
    PairReporter reporter;
    btBroadphaseCallback begin = nullptr, end = nullptr;
    void *handle = nullptr;
    std::vector<void *> proxies; // proxy handles
    // the first exception a (C++) pair callback threw during the current
    // call, rethrown once Bullet's sweep has returned (c_api_collision.cpp)
    std::exception_ptr callback_error;
};
struct Proxy {
    btBroadphaseProxy *proxy = nullptr;
    void *bp_handle = nullptr;
};
struct CollisionWorld {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btCollisionWorld world{&dispatcher, &broadphase, &config};
    void *sdk_handle = nullptr;
};

extern std::recursive_mutex g_mutex; // registry: lookups and create/delete
using Lock = std::lock_guard<std::recursive_mutex>;

// A new handle for obj of kind k; the caller holds g_mutex.  Only this
// can throw (std::bad_alloc, before anything changed); drop_handle
// cannot, so deleting needs no memory.
void *make_handle(int kind, void *obj);
// A new handle for obj, which the registry then owns (the entry point's
// delete frees it); obj is freed if no handle can be made.
template <class T> void *own_handle(int kind, std::unique_ptr<T> obj)
{
    void *h = make_handle(kind, obj.get());
    obj.release();
    return h;
}
// The object behind h of kind k, or nullptr with the error set.
template <class T>
T *lookup(const void *h, int k, const char *fn, const char *arg, plStatus *st);
// instantiated once, in c_api_handles.cpp
extern template Sdk *lookup<Sdk>(const void *, int, const char *, const char *,
                                 plStatus *);
extern template World *lookup<World>(const void *, int, const char *,
                                     const char *, plStatus *);
extern template Body *lookup<Body>(const void *, int, const char *,
                                   const char *, plStatus *);
extern template Shape *lookup<Shape>(const void *, int, const char *,
                                     const char *, plStatus *);
extern template Constraint *lookup<Constraint>(const void *, int, const char *,
                                               const char *, plStatus *);
extern template MeshInterface *lookup<MeshInterface>(const void *, int,
                                                     const char *, const char *,
                                                     plStatus *);
extern template Broadphase *lookup<Broadphase>(const void *, int, const char *,
                                               const char *, plStatus *);
extern template Proxy *lookup<Proxy>(const void *, int, const char *,
                                     const char *, plStatus *);
extern template CollisionWorld *lookup<CollisionWorld>(const void *, int,
                                                       const char *,
                                                       const char *,
                                                       plStatus *);
// Free live handle h's slot: h stops matching; the caller holds g_mutex.
void drop_handle(const void *h);

// Take a body or constraint out of its world, if any (it stays valid).
void remove_from_world(Body *b);
void remove_constraint_from_world(Constraint *c);

// ---- SDK (c_api_worlds.cpp) ----------------------------------------------

// PL_OK if an SDK of the right precision is live, else the error for fn.
plStatus need_sdk(const char *fn);

// ---- the classic collision-only part (c_api_collision.cpp) ---------------

// Delete a collision world (its SDK's list is the caller's).
void delete_collision_world(void *h, CollisionWorld *w);
// Delete every mesh interface still live (the last SDK is going).
void release_mesh_interfaces();

} // namespace capi
} // namespace rfshim

// Body and world lookups in every entry point (the parts' extern "C"
// functions, after `using namespace rfshim::capi`).
#define LOOKUP(T, var, h, k, fn, arg)                                          \
    plStatus var##_st;                                                         \
    T *var = lookup<T>(h, k, fn, arg, &var##_st);                              \
    if (var == nullptr) {                                                      \
        return var##_st;                                                       \
    }

#endif // ROLLFRIC_SHIM_C_API_INTERNAL_HPP
