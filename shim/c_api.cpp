// The pl* C API (include/rollfric/bullet_c_api.h) over Bullet 3.24 and the
// cone solver.  Translation only: Bullet objects behind generation-checked
// handles, arguments validated before anything changes.
#include "rollfric/bullet_c_api.h"
#include "rollfric/rollfric_bullet.h"

#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

namespace {

// ---- errors ----------------------------------------------------------------

thread_local char g_error[512] = "";

plStatus fail(plStatus st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
plStatus fail(plStatus st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(g_error, sizeof g_error, fmt, ap);
    va_end(ap);
    return st;
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

enum Kind { K_NONE = 0, K_SDK, K_WORLD, K_BODY, K_SHAPE, K_CONSTRAINT };
const char *kind_name(int k)
{
    static const char *n[] = {"nothing",    "SDK",   "world",
                              "rigid body", "shape", "constraint"};
    return n[k];
}

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
};

// Registry: slot index + generation, packed into the handle value
// (index + 1 in the low 32 bits, generation in the high ones).  A deleted
// slot bumps its generation, so old handles no longer match.
struct Slot {
    int kind = K_NONE;
    uint32_t gen = 1;
    void *obj = nullptr;
};
std::recursive_mutex g_mutex; // registry: lookups and create/delete
std::vector<Slot> g_slots;
std::vector<uint32_t> g_free;
int g_sdks = 0; // live SDKs created with the right precision

void *make_handle(int kind, void *obj)
{
    uint32_t i;
    if (!g_free.empty()) {
        i = g_free.back();
        g_free.pop_back();
    } else {
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

plStatus need_sdk(const char *fn)
{
    if (g_sdks == 0) {
        return fail(PL_ERR_STATE,
                    "%s: no physics SDK: call plNewBulletSdk() first (it also "
                    "checks that plReal matches this library)",
                    fn);
    }
    return PL_OK;
}

using Lock = std::lock_guard<std::recursive_mutex>;

// Register a new shape; static_only names it when only static bodies may
// use it ("a static plane").
plCollisionShapeHandle new_shape(btCollisionShape *shape,
                                 const char *static_only = nullptr)
{
    auto *s = new Shape;
    s->shape.reset(shape);
    s->static_only = static_only;
    return (plCollisionShapeHandle)make_handle(K_SHAPE, s);
}

// Two positive finite sizes, or an error for fn.
plStatus check_sizes(const char *fn, plReal a, const char *na, plReal b,
                     const char *nb)
{
    if (!is_finite(a) || !is_finite(b)) {
        return fail(PL_ERR_NONFINITE, "%s: %s or %s is not finite", fn, na, nb);
    }
    if (!(a > 0) || !(b > 0)) {
        return fail(PL_ERR_INVALID, "%s: %s = %g and %s = %g must be > 0", fn,
                    na, (double)a, nb, (double)b);
    }
    return PL_OK;
}

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

void delete_world(void *wh, World *w)
{
    // constraints first: Bullet must never see one whose body is gone
    for (void *ch : std::vector<void *>(w->constraints)) {
        plStatus st;
        Constraint *c = lookup<Constraint>(ch, K_CONSTRAINT, "", "", &st);
        if (c != nullptr) {
            remove_constraint_from_world(c);
        }
    }
    for (void *bh : w->bodies) {
        plStatus st;
        Body *b = lookup<Body>(bh, K_BODY, "", "", &st);
        if (b != nullptr) {
            w->world.removeRigidBody(b->rb.get());
            b->world_handle = nullptr;
        }
    }
    w->bodies.clear();
    delete w;
    drop_handle(wh);
}

// Helpers that return Bullet types stay out of the extern "C" block below
// (a C-linkage function cannot return btVector3; clang says so).
btVector3 vec(const plVector3 v)
{
    return btVector3(v[0], v[1], v[2]);
}

// A unit tangent orthogonal to n: dir if it is one, else Bullet's plane
// space of n.
btVector3 tangent_of(const btVector3 &n, const btVector3 &dir)
{
    btVector3 t = dir - n * n.dot(dir);
    if (t.length2() > (btScalar)1e-6) {
        return t.normalized();
    }
    btVector3 t1, t2;
    btPlaneSpace1(n, t1, t2);
    return t1.normalized();
}

} // namespace

// Body and world lookups in every entry point below.
#define LOOKUP(T, var, h, k, fn, arg)                                          \
    plStatus var##_st;                                                         \
    T *var = lookup<T>(h, k, fn, arg, &var##_st);                              \
    if (var == nullptr) {                                                      \
        return var##_st;                                                       \
    }

extern "C" {

const char *plGetLastError(void)
{
    return g_error;
}

// ---- SDK and worlds
// ----------------------------------------------------------

plPhysicsSdkHandle plNewBulletSdkChecked(int real_size)
{
    if (real_size != (int)sizeof(btScalar)) {
        fail(PL_ERR_PRECISION,
             "plNewBulletSdk: the program uses a %d-byte plReal but this "
             "library is built for %d-byte Bullet; link %s instead",
             real_size, (int)sizeof(btScalar),
             real_size == 8 ? "librollfric-float64.so (pkg-config "
                              "rollfric-float64)"
                            : "librollfric.so (pkg-config rollfric)");
        return nullptr;
    }
    Lock lock(g_mutex);
    ++g_sdks;
    return (plPhysicsSdkHandle)make_handle(K_SDK, new Sdk);
}

plStatus plDeletePhysicsSdk(plPhysicsSdkHandle sdk)
{
    Lock lock(g_mutex);
    LOOKUP(Sdk, s, sdk, K_SDK, "plDeletePhysicsSdk", "sdk");
    for (void *wh : s->worlds) {
        plStatus st;
        World *w = lookup<World>(wh, K_WORLD, "", "", &st);
        if (w != nullptr) {
            delete_world(wh, w);
        }
    }
    delete s;
    drop_handle(sdk);
    --g_sdks;
    return PL_OK;
}

plDynamicsWorldHandle plCreateDynamicsWorld(plPhysicsSdkHandle sdk)
{
    Lock lock(g_mutex);
    plStatus st;
    Sdk *s = lookup<Sdk>(sdk, K_SDK, "plCreateDynamicsWorld", "sdk", &st);
    if (s == nullptr) {
        return nullptr;
    }
    auto *w = new World;
    w->world.setGravity(btVector3(0, (btScalar)-9.81, 0));
    rf_error err;
    w->plugin = rf_bullet_attach(&w->world, nullptr, &err);
    if (w->plugin == nullptr) {
        delete w;
        fail(PL_ERR_STATE, "plCreateDynamicsWorld: %s", err.message);
        return nullptr;
    }
    void *h = make_handle(K_WORLD, w);
    w->sdk_handle = sdk;
    s->worlds.push_back(h);
    return (plDynamicsWorldHandle)h;
}

plStatus plDeleteDynamicsWorld(plDynamicsWorldHandle world)
{
    Lock lock(g_mutex);
    LOOKUP(World, w, world, K_WORLD, "plDeleteDynamicsWorld", "world");
    plStatus st;
    Sdk *s = lookup<Sdk>(w->sdk_handle, K_SDK, "", "", &st);
    if (s != nullptr) {
        auto &v = s->worlds;
        v.erase(std::find(v.begin(), v.end(), (void *)world));
    }
    delete_world(world, w);
    return PL_OK;
}

plStatus plStepSimulationFixed(plDynamicsWorldHandle world, plReal dt,
                               int max_substeps, plReal fixed_step)
{
    static const char fn[] = "plStepSimulationFixed";
    LOOKUP(World, w, world, K_WORLD, fn, "world");
    if (!is_finite(dt) || !is_finite(fixed_step)) {
        return fail(PL_ERR_NONFINITE, "%s: dt or fixed_step is not finite", fn);
    }
    if (!(dt > 0) || !(fixed_step > 0) || max_substeps < 1) {
        return fail(PL_ERR_INVALID,
                    "%s: dt = %g and fixed_step = %g must be > 0, "
                    "max_substeps = %d >= 1",
                    fn, (double)dt, (double)fixed_step, max_substeps);
    }
    w->world.stepSimulation((btScalar)dt, max_substeps, (btScalar)fixed_step);
    return PL_OK;
}

plStatus plStepSimulation(plDynamicsWorldHandle world, plReal dt)
{
    static const char fn[] = "plStepSimulation";
    LOOKUP(World, w, world, K_WORLD, fn, "world");
    if (!is_finite(dt)) {
        return fail(PL_ERR_NONFINITE, "%s: dt is not finite", fn);
    }
    if (!(dt > 0)) {
        return fail(PL_ERR_INVALID, "%s: dt = %g must be > 0", fn, (double)dt);
    }
    // the classic call: stepSimulation(dt), i.e. at most one fixed step
    // of 1/60 s with interpolation
    w->world.stepSimulation((btScalar)dt);
    return PL_OK;
}

plStatus plSetGravity(plDynamicsWorldHandle world, const plVector3 g)
{
    LOOKUP(World, w, world, K_WORLD, "plSetGravity", "world");
    if (plStatus st = check_reals("plSetGravity", "g", g, 3)) {
        return st;
    }
    w->world.setGravity(btVector3(g[0], g[1], g[2]));
    return PL_OK;
}

plStatus plSetSplitImpulse(plDynamicsWorldHandle world, int on)
{
    LOOKUP(World, w, world, K_WORLD, "plSetSplitImpulse", "world");
    if (on != 0 && on != 1) {
        return fail(PL_ERR_INVALID, "plSetSplitImpulse: on = %d, not 0 or 1",
                    on);
    }
    w->world.getSolverInfo().m_splitImpulse = on;
    return PL_OK;
}

plStatus plAddRigidBody(plDynamicsWorldHandle world, plRigidBodyHandle body)
{
    Lock lock(g_mutex);
    LOOKUP(World, w, world, K_WORLD, "plAddRigidBody", "world");
    LOOKUP(Body, b, body, K_BODY, "plAddRigidBody", "body");
    if (b->world_handle != nullptr) {
        return fail(PL_ERR_STATE, "plAddRigidBody: the body is already in a "
                                  "world");
    }
    w->world.addRigidBody(b->rb.get());
    w->bodies.push_back(body);
    b->world_handle = world;
    if (b->cohesion > 0.0) {
        rf_bullet_set_cohesion(w->plugin, b->rb.get(), b->cohesion);
    }
    if (b->yield > 0.0) {
        rf_bullet_set_yield(w->plugin, b->rb.get(), b->yield);
    }
    return PL_OK;
}

plStatus plRemoveRigidBody(plDynamicsWorldHandle world, plRigidBodyHandle body)
{
    Lock lock(g_mutex);
    LOOKUP(World, w, world, K_WORLD, "plRemoveRigidBody", "world");
    LOOKUP(Body, b, body, K_BODY, "plRemoveRigidBody", "body");
    if (b->world_handle != (void *)world) {
        return fail(PL_ERR_STATE,
                    "plRemoveRigidBody: the body is not in this world");
    }
    for (void *ch : b->constraints) {
        plStatus st;
        Constraint *c = lookup<Constraint>(ch, K_CONSTRAINT, "", "", &st);
        if (c != nullptr && c->world_handle != nullptr) {
            return fail(PL_ERR_STATE,
                        "plRemoveRigidBody: a constraint in the world uses "
                        "the body; remove it first");
        }
    }
    (void)w;
    remove_from_world(b);
    return PL_OK;
}

// ---- contact solver
// ------------------------------------------------------------

plStatus plSetContactSolver(plDynamicsWorldHandle world, plSolver solver)
{
    LOOKUP(World, w, world, K_WORLD, "plSetContactSolver", "world");
    if (solver != PL_SOLVER_STOCK && solver != PL_SOLVER_CONE) {
        return fail(PL_ERR_INVALID, "plSetContactSolver: unknown solver %d",
                    (int)solver);
    }
    rf_bullet_set_mode(w->plugin, solver == PL_SOLVER_CONE ? RF_BULLET_CONE
                                                           : RF_BULLET_STOCK);
    return PL_OK;
}

plStatus plSetSolverConfigSized(plDynamicsWorldHandle world,
                                const rf_config *cfg, size_t size)
{
    LOOKUP(World, w, world, K_WORLD, "plSetSolverConfig", "world");
    if (cfg == nullptr) {
        return fail(PL_ERR_NULL, "plSetSolverConfig: cfg is NULL");
    }
    rf_error err;
    rf_status st = rf_bullet_set_config_sized(w->plugin, cfg, size, &err);
    if (st != RF_OK) {
        return fail(st == RF_ERR_NONFINITE ? PL_ERR_NONFINITE : PL_ERR_INVALID,
                    "plSetSolverConfig: %s", err.message);
    }
    return PL_OK;
}

void plGetDefaultSolverConfigSized(rf_config *cfg, size_t size)
{
    (void)rf_bullet_config_default_sized(cfg, size);
}

plStatus plGetSolverConfigSized(plDynamicsWorldHandle world, rf_config *out,
                                size_t size)
{
    LOOKUP(World, w, world, K_WORLD, "plGetSolverConfig", "world");
    if (out == nullptr) {
        return fail(PL_ERR_NULL, "plGetSolverConfig: out is NULL");
    }
    if (rf_bullet_get_config_sized(w->plugin, out, size) != RF_OK) {
        return fail(PL_ERR_INVALID,
                    "plGetSolverConfig: the caller's rf_config has %zu "
                    "bytes, this library's %zu",
                    size, sizeof(rf_config));
    }
    return PL_OK;
}

plStatus plGetSolverStatsSized(plDynamicsWorldHandle world, rf_stats *out,
                               size_t size)
{
    LOOKUP(World, w, world, K_WORLD, "plGetSolverStats", "world");
    if (out == nullptr) {
        return fail(PL_ERR_NULL, "plGetSolverStats: out is NULL");
    }
    if (rf_bullet_stats_sized(w->plugin, out, size) != RF_OK) {
        return fail(PL_ERR_INVALID,
                    "plGetSolverStats: the caller's rf_stats has %zu bytes, "
                    "this library's %zu",
                    size, sizeof(rf_stats));
    }
    return PL_OK;
}

// ---- shapes
// --------------------------------------------------------------------

plCollisionShapeHandle plNewSphereShape(plReal radius)
{
    static const char fn[] = "plNewSphereShape";
    Lock lock(g_mutex);
    if (need_sdk(fn) != PL_OK ||
        check_sizes(fn, radius, "radius", radius, "radius") != PL_OK) {
        return nullptr;
    }
    return new_shape(new btSphereShape(radius));
}

plCollisionShapeHandle plNewBoxShape(plReal x, plReal y, plReal z)
{
    static const char fn[] = "plNewBoxShape";
    Lock lock(g_mutex);
    if (need_sdk(fn) != PL_OK || check_sizes(fn, x, "x", y, "y") != PL_OK ||
        check_sizes(fn, z, "z", z, "z") != PL_OK) {
        return nullptr;
    }
    return new_shape(new btBoxShape(btVector3(x, y, z)));
}

namespace {
enum AxisShape { CAPSULE, CONE, CYLINDER };
// A capsule, cone or cylinder along axis (0 x, 1 y, 2 z) with the classic
// pl* meaning of height (capsule: half the straight part; cone: full
// height; cylinder: half height), or NULL with the error set.
plCollisionShapeHandle new_axis_shape(const char *fn, AxisShape kind,
                                      plReal radius, plReal height, int axis)
{
    Lock lock(g_mutex);
    if (need_sdk(fn) != PL_OK ||
        check_sizes(fn, radius, "radius", height, "height") != PL_OK) {
        return nullptr;
    }
    if (axis < 0 || axis > 2) {
        fail(PL_ERR_INVALID, "%s: axis = %d must be 0 (x), 1 (y) or 2 (z)", fn,
             axis);
        return nullptr;
    }
    btCollisionShape *shape = nullptr;
    switch (kind) {
    case CAPSULE: // sphere centres at +-height
        shape =
            axis == 0
                ? (btCollisionShape *)new btCapsuleShapeX(radius, 2 * height)
            : axis == 1
                ? (btCollisionShape *)new btCapsuleShape(radius, 2 * height)
                : (btCollisionShape *)new btCapsuleShapeZ(radius, 2 * height);
        break;
    case CONE:
        shape = axis == 0 ? (btCollisionShape *)new btConeShapeX(radius, height)
                : axis == 1
                    ? (btCollisionShape *)new btConeShape(radius, height)
                    : (btCollisionShape *)new btConeShapeZ(radius, height);
        break;
    case CYLINDER: { // half extents: height along the axis, radius across
        btVector3 half(radius, radius, radius);
        half[axis] = height;
        shape = axis == 0   ? (btCollisionShape *)new btCylinderShapeX(half)
                : axis == 1 ? (btCollisionShape *)new btCylinderShape(half)
                            : (btCollisionShape *)new btCylinderShapeZ(half);
        break;
    }
    }
    return new_shape(shape);
}
} // namespace

plCollisionShapeHandle plNewCapsuleShape(plReal radius, plReal height)
{
    return new_axis_shape("plNewCapsuleShape", CAPSULE, radius, height, 1);
}
plCollisionShapeHandle plNewConeShape(plReal radius, plReal height)
{
    return new_axis_shape("plNewConeShape", CONE, radius, height, 1);
}
plCollisionShapeHandle plNewCylinderShape(plReal radius, plReal height)
{
    return new_axis_shape("plNewCylinderShape", CYLINDER, radius, height, 1);
}
plCollisionShapeHandle plNewCapsuleShapeAxis(plReal radius, plReal height,
                                             int axis)
{
    return new_axis_shape("plNewCapsuleShapeAxis", CAPSULE, radius, height,
                          axis);
}
plCollisionShapeHandle plNewConeShapeAxis(plReal radius, plReal height,
                                          int axis)
{
    return new_axis_shape("plNewConeShapeAxis", CONE, radius, height, axis);
}
plCollisionShapeHandle plNewCylinderShapeAxis(plReal radius, plReal height,
                                              int axis)
{
    return new_axis_shape("plNewCylinderShapeAxis", CYLINDER, radius, height,
                          axis);
}

plCollisionShapeHandle plNewStaticPlaneShape(const plVector3 normal,
                                             plReal constant)
{
    static const char fn[] = "plNewStaticPlaneShape";
    Lock lock(g_mutex);
    if (need_sdk(fn) != PL_OK) {
        return nullptr;
    }
    if (check_reals(fn, "normal", normal, 3) != PL_OK ||
        check_reals(fn, "constant", &constant, 1) != PL_OK) {
        return nullptr;
    }
    btVector3 n(normal[0], normal[1], normal[2]);
    if (!(n.length() > (btScalar)1e-6)) {
        fail(PL_ERR_INVALID, "%s: the normal has zero length", fn);
        return nullptr;
    }
    return new_shape(new btStaticPlaneShape(n.normalized(), constant),
                     "a static plane");
}

plCollisionShapeHandle plNewStaticTriangleMeshShape(const plReal *vertices,
                                                    int num_vertices,
                                                    const int *indices,
                                                    int num_triangles)
{
    static const char fn[] = "plNewStaticTriangleMeshShape";
    Lock lock(g_mutex);
    if (need_sdk(fn) != PL_OK) {
        return nullptr;
    }
    if (vertices == nullptr || indices == nullptr) {
        fail(PL_ERR_NULL, "%s: %s is NULL", fn,
             vertices == nullptr ? "vertices" : "indices");
        return nullptr;
    }
    if (num_vertices < 3 || num_triangles < 1) {
        fail(PL_ERR_INVALID,
             "%s: num_vertices = %d must be >= 3 and num_triangles = %d >= 1",
             fn, num_vertices, num_triangles);
        return nullptr;
    }
    if (check_reals(fn, "vertices", vertices, 3 * num_vertices) != PL_OK) {
        return nullptr;
    }
    for (int t = 0; t < num_triangles; ++t) {
        const int *tri = indices + 3 * t;
        for (int k = 0; k < 3; ++k) {
            if (tri[k] < 0 || tri[k] >= num_vertices) {
                fail(PL_ERR_INVALID,
                     "%s: indices[%d] = %d is not a vertex (0..%d)", fn,
                     3 * t + k, tri[k], num_vertices - 1);
                return nullptr;
            }
        }
        if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2]) {
            fail(PL_ERR_INVALID, "%s: triangle %d repeats a vertex index", fn,
                 t);
            return nullptr;
        }
    }
    auto *s = new Shape;
    s->mesh_vertices.assign(vertices, vertices + 3 * num_vertices);
    s->mesh_indices.assign(indices, indices + 3 * num_triangles);
    s->mesh.reset(new btTriangleIndexVertexArray(
        num_triangles, s->mesh_indices.data(), 3 * (int)sizeof(int),
        num_vertices, s->mesh_vertices.data(), 3 * (int)sizeof(btScalar)));
    s->shape.reset(new btBvhTriangleMeshShape(s->mesh.get(), true));
    s->static_only = "a triangle mesh";
    return (plCollisionShapeHandle)make_handle(K_SHAPE, s);
}

plStatus plGetAnisotropicRollingFrictionDirection(plCollisionShapeHandle shape,
                                                  plVector3 direction)
{
    static const char fn[] = "plGetAnisotropicRollingFrictionDirection";
    LOOKUP(Shape, s, shape, K_SHAPE, fn, "shape");
    if (direction == nullptr) {
        return fail(PL_ERR_NULL, "%s: direction is NULL", fn);
    }
    const btVector3 d = s->shape->getAnisotropicRollingFrictionDirection();
    for (int k = 0; k < 3; ++k) {
        direction[k] = d[k];
    }
    return PL_OK;
}

plCollisionShapeHandle plNewCompoundShape(void)
{
    Lock lock(g_mutex);
    if (need_sdk("plNewCompoundShape") != PL_OK) {
        return nullptr;
    }
    return new_shape(new btCompoundShape());
}

plStatus plAddChildShape(plCollisionShapeHandle compound,
                         plCollisionShapeHandle child, const plVector3 pos,
                         const plQuaternion orn)
{
    static const char fn[] = "plAddChildShape";
    Lock lock(g_mutex);
    LOOKUP(Shape, c, compound, K_SHAPE, fn, "compound");
    LOOKUP(Shape, ch, child, K_SHAPE, fn, "child");
    auto *cs = dynamic_cast<btCompoundShape *>(c->shape.get());
    if (cs == nullptr) {
        return fail(PL_ERR_INVALID, "%s: compound is not a compound shape", fn);
    }
    if (c == ch || ch->static_only != nullptr) {
        return fail(PL_ERR_INVALID, "%s: child cannot be %s", fn,
                    c == ch ? "the compound itself" : ch->static_only);
    }
    if (c->users > 0) {
        return fail(PL_ERR_STATE, "%s: the compound is in use by a body", fn);
    }
    if (plStatus st = check_reals(fn, "pos", pos, 3)) {
        return st;
    }
    if (plStatus st = check_reals(fn, "orn", orn, 4)) {
        return st;
    }
    btQuaternion q(orn[0], orn[1], orn[2], orn[3]);
    if (!(q.length() > (btScalar)1e-6)) {
        return fail(PL_ERR_INVALID, "%s: orn has zero length", fn);
    }
    cs->addChildShape(
        btTransform(q.normalized(), btVector3(pos[0], pos[1], pos[2])),
        ch->shape.get());
    ch->users++;
    c->children.push_back(child);
    return PL_OK;
}

plCollisionShapeHandle plNewConvexHullShape(void)
{
    Lock lock(g_mutex);
    if (need_sdk("plNewConvexHullShape") != PL_OK) {
        return nullptr;
    }
    return new_shape(new btConvexHullShape());
}

plStatus plAddVertex(plCollisionShapeHandle hull, plReal x, plReal y, plReal z)
{
    static const char fn[] = "plAddVertex";
    Lock lock(g_mutex);
    LOOKUP(Shape, s, hull, K_SHAPE, fn, "hull");
    auto *h = dynamic_cast<btConvexHullShape *>(s->shape.get());
    if (h == nullptr) {
        return fail(PL_ERR_INVALID, "%s: hull is not a convex hull shape", fn);
    }
    if (!is_finite(x) || !is_finite(y) || !is_finite(z)) {
        return fail(PL_ERR_NONFINITE, "%s: the vertex is not finite", fn);
    }
    if (s->users > 0) {
        return fail(PL_ERR_STATE, "%s: the hull is in use", fn);
    }
    h->addPoint(btVector3(x, y, z));
    return PL_OK;
}

plStatus plSetScaling(plCollisionShapeHandle shape, const plVector3 scaling)
{
    static const char fn[] = "plSetScaling";
    Lock lock(g_mutex);
    LOOKUP(Shape, s, shape, K_SHAPE, fn, "shape");
    if (plStatus st = check_reals(fn, "scaling", scaling, 3)) {
        return st;
    }
    if (!(scaling[0] > 0 && scaling[1] > 0 && scaling[2] > 0)) {
        return fail(PL_ERR_INVALID, "%s: scaling must be > 0 on every axis",
                    fn);
    }
    if (s->users > 0) {
        return fail(PL_ERR_STATE, "%s: the shape is in use", fn);
    }
    s->shape->setLocalScaling(btVector3(scaling[0], scaling[1], scaling[2]));
    return PL_OK;
}

plStatus plDeleteShape(plCollisionShapeHandle shape)
{
    Lock lock(g_mutex);
    LOOKUP(Shape, s, shape, K_SHAPE, "plDeleteShape", "shape");
    if (s->users > 0) {
        return fail(PL_ERR_STATE,
                    "plDeleteShape: the shape is used by %d bodies or "
                    "compounds; delete them first",
                    s->users);
    }
    for (void *ch : s->children) {
        plStatus st;
        Shape *c = lookup<Shape>(ch, K_SHAPE, "", "", &st);
        if (c != nullptr) {
            c->users--;
        }
    }
    delete s;
    drop_handle(shape);
    return PL_OK;
}

// ---- rigid bodies
// ----------------------------------------------------------------

plRigidBodyHandle plCreateRigidBody(void *user_data, plReal mass,
                                    plCollisionShapeHandle shape)
{
    static const char fn[] = "plCreateRigidBody";
    Lock lock(g_mutex);
    plStatus st;
    Shape *s = lookup<Shape>(shape, K_SHAPE, fn, "shape", &st);
    if (s == nullptr) {
        return nullptr;
    }
    if (!is_finite(mass)) {
        fail(PL_ERR_NONFINITE, "%s: mass is not finite", fn);
        return nullptr;
    }
    if (mass < 0) {
        fail(PL_ERR_INVALID, "%s: mass = %g < 0 (0 makes a static body)", fn,
             (double)mass);
        return nullptr;
    }
    if (mass > 0 && s->static_only != nullptr) {
        fail(PL_ERR_INVALID, "%s: %s needs mass 0", fn, s->static_only);
        return nullptr;
    }
    btVector3 inertia(0, 0, 0);
    if (mass > 0) {
        s->shape->calculateLocalInertia(mass, inertia);
    }
    auto *b = new Body;
    btTransform xf;
    xf.setIdentity();
    b->state.reset(new btDefaultMotionState(xf));
    btRigidBody::btRigidBodyConstructionInfo ci(mass, b->state.get(),
                                                s->shape.get(), inertia);
    b->rb.reset(new btRigidBody(ci));
    b->shape_handle = shape;
    b->user_data = user_data;
    s->users++;
    b->handle = make_handle(K_BODY, b);
    b->rb->setUserPointer(b->handle); // contacts and ray hits name it
    return (plRigidBodyHandle)b->handle;
}

plStatus plSetMassProps(plRigidBodyHandle body, plReal mass,
                        const plVector3 inertia)
{
    static const char fn[] = "plSetMassProps";
    LOOKUP(Body, b, body, K_BODY, fn, "body");
    if (plStatus st = check_reals(fn, "inertia", inertia, 3)) {
        return st;
    }
    if (!is_finite(mass)) {
        return fail(PL_ERR_NONFINITE, "%s: mass is not finite", fn);
    }
    if (b->rb->getInvMass() == 0) {
        return fail(PL_ERR_INVALID, "%s: the body is static (mass 0)", fn);
    }
    if (!(mass > 0) || !(inertia[0] > 0 && inertia[1] > 0 && inertia[2] > 0)) {
        return fail(PL_ERR_INVALID,
                    "%s: mass = %g and inertia (%g, %g, %g) must be > 0", fn,
                    (double)mass, (double)inertia[0], (double)inertia[1],
                    (double)inertia[2]);
    }
    b->rb->setMassProps(mass, btVector3(inertia[0], inertia[1], inertia[2]));
    b->rb->updateInertiaTensor();
    return PL_OK;
}

plStatus plDeleteRigidBody(plRigidBodyHandle body)
{
    Lock lock(g_mutex);
    LOOKUP(Body, b, body, K_BODY, "plDeleteRigidBody", "body");
    if (!b->constraints.empty()) {
        return fail(PL_ERR_STATE,
                    "plDeleteRigidBody: %d constraints use the body; delete "
                    "them first",
                    (int)b->constraints.size());
    }
    remove_from_world(b);
    plStatus st;
    Shape *s = lookup<Shape>(b->shape_handle, K_SHAPE, "", "", &st);
    if (s != nullptr) {
        s->users--;
    }
    delete b;
    drop_handle(body);
    return PL_OK;
}

void *plGetUserData(plRigidBodyHandle body)
{
    plStatus st;
    Body *b = lookup<Body>(body, K_BODY, "plGetUserData", "body", &st);
    return b ? b->user_data : nullptr;
}

plStatus plGetPosition(plRigidBodyHandle body, plVector3 position)
{
    LOOKUP(Body, b, body, K_BODY, "plGetPosition", "body");
    if (position == nullptr) {
        return fail(PL_ERR_NULL, "plGetPosition: position is NULL");
    }
    const btVector3 &p = b->rb->getCenterOfMassPosition();
    for (int k = 0; k < 3; ++k) {
        position[k] = p[k];
    }
    return PL_OK;
}

plStatus plGetOrientation(plRigidBodyHandle body, plQuaternion orientation)
{
    LOOKUP(Body, b, body, K_BODY, "plGetOrientation", "body");
    if (orientation == nullptr) {
        return fail(PL_ERR_NULL, "plGetOrientation: orientation is NULL");
    }
    btQuaternion q = b->rb->getOrientation();
    orientation[0] = q.x();
    orientation[1] = q.y();
    orientation[2] = q.z();
    orientation[3] = q.w();
    return PL_OK;
}

namespace {
// Move a body to xf (and its motion state and interpolation transform),
// as an application teleporting it expects.
void set_transform(Body *b, const btTransform &xf)
{
    b->rb->setWorldTransform(xf);
    b->rb->setInterpolationWorldTransform(xf);
    b->state->setWorldTransform(xf);
    b->rb->activate(true);
}
} // namespace

plStatus plSetPosition(plRigidBodyHandle body, const plVector3 position)
{
    LOOKUP(Body, b, body, K_BODY, "plSetPosition", "body");
    if (plStatus st = check_reals("plSetPosition", "position", position, 3)) {
        return st;
    }
    btTransform xf = b->rb->getWorldTransform();
    xf.setOrigin(btVector3(position[0], position[1], position[2]));
    set_transform(b, xf);
    return PL_OK;
}

plStatus plSetOrientation(plRigidBodyHandle body,
                          const plQuaternion orientation)
{
    LOOKUP(Body, b, body, K_BODY, "plSetOrientation", "body");
    if (plStatus st =
            check_reals("plSetOrientation", "orientation", orientation, 4)) {
        return st;
    }
    btQuaternion q(orientation[0], orientation[1], orientation[2],
                   orientation[3]);
    if (!(q.length() > (btScalar)1e-6)) {
        return fail(PL_ERR_INVALID,
                    "plSetOrientation: orientation has zero length");
    }
    btTransform xf = b->rb->getWorldTransform();
    xf.setRotation(q.normalized());
    set_transform(b, xf);
    return PL_OK;
}

plStatus plSetEuler(plReal yaw, plReal pitch, plReal roll, plQuaternion orient)
{
    if (orient == nullptr) {
        return fail(PL_ERR_NULL, "plSetEuler: orient is NULL");
    }
    if (!is_finite(yaw) || !is_finite(pitch) || !is_finite(roll)) {
        return fail(PL_ERR_NONFINITE, "plSetEuler: an angle is not finite");
    }
    btQuaternion q;
    q.setEuler(yaw, pitch, roll);
    orient[0] = q.x();
    orient[1] = q.y();
    orient[2] = q.z();
    orient[3] = q.w();
    return PL_OK;
}

plStatus plGetOpenGLMatrix(plRigidBodyHandle body, plReal *matrix)
{
    LOOKUP(Body, b, body, K_BODY, "plGetOpenGLMatrix", "body");
    if (matrix == nullptr) {
        return fail(PL_ERR_NULL, "plGetOpenGLMatrix: matrix is NULL");
    }
    b->rb->getWorldTransform().getOpenGLMatrix(matrix);
    return PL_OK;
}

plStatus plSetOpenGLMatrix(plRigidBodyHandle body, const plReal *matrix)
{
    LOOKUP(Body, b, body, K_BODY, "plSetOpenGLMatrix", "body");
    if (plStatus st = check_reals("plSetOpenGLMatrix", "matrix", matrix, 16)) {
        return st;
    }
    btTransform xf;
    xf.setFromOpenGLMatrix(matrix);
    set_transform(b, xf);
    return PL_OK;
}

namespace {
plStatus set_vec(plRigidBodyHandle body, const plVector3 v, bool angular,
                 const char *fn)
{
    LOOKUP(Body, b, body, K_BODY, fn, "body");
    if (plStatus st = check_reals(fn, angular ? "w" : "v", v, 3)) {
        return st;
    }
    btVector3 x(v[0], v[1], v[2]);
    if (angular) {
        b->rb->setAngularVelocity(x);
    } else {
        b->rb->setLinearVelocity(x);
    }
    b->rb->activate(true);
    return PL_OK;
}
plStatus get_vec(plRigidBodyHandle body, plVector3 v, bool angular,
                 const char *fn)
{
    LOOKUP(Body, b, body, K_BODY, fn, "body");
    if (v == nullptr) {
        return fail(PL_ERR_NULL, "%s: the vector is NULL", fn);
    }
    const btVector3 &x =
        angular ? b->rb->getAngularVelocity() : b->rb->getLinearVelocity();
    for (int k = 0; k < 3; ++k) {
        v[k] = x[k];
    }
    return PL_OK;
}
// A coefficient >= 0 for one of the body's setters.
plStatus set_coef(plRigidBodyHandle body, plReal c, const char *fn,
                  void (*apply)(btRigidBody *, btScalar))
{
    LOOKUP(Body, b, body, K_BODY, fn, "body");
    if (!is_finite(c)) {
        return fail(PL_ERR_NONFINITE, "%s: the coefficient is not finite", fn);
    }
    if (c < 0) {
        return fail(PL_ERR_INVALID, "%s: the coefficient %g is negative", fn,
                    (double)c);
    }
    apply(b->rb.get(), c);
    return PL_OK;
}
} // namespace

plStatus plSetLinearVelocity(plRigidBodyHandle body, const plVector3 v)
{
    return set_vec(body, v, false, "plSetLinearVelocity");
}
plStatus plGetLinearVelocity(plRigidBodyHandle body, plVector3 v)
{
    return get_vec(body, v, false, "plGetLinearVelocity");
}
plStatus plSetAngularVelocity(plRigidBodyHandle body, const plVector3 w)
{
    return set_vec(body, w, true, "plSetAngularVelocity");
}
plStatus plGetAngularVelocity(plRigidBodyHandle body, plVector3 w)
{
    return get_vec(body, w, true, "plGetAngularVelocity");
}

plStatus plSetFriction(plRigidBodyHandle body, plReal mu)
{
    return set_coef(body, mu, "plSetFriction",
                    [](btRigidBody *r, btScalar c) { r->setFriction(c); });
}
plStatus plSetRollingFriction(plRigidBodyHandle body, plReal rho)
{
    return set_coef(
        body, rho, "plSetRollingFriction",
        [](btRigidBody *r, btScalar c) { r->setRollingFriction(c); });
}
plStatus plSetSpinningFriction(plRigidBodyHandle body, plReal sigma)
{
    return set_coef(
        body, sigma, "plSetSpinningFriction",
        [](btRigidBody *r, btScalar c) { r->setSpinningFriction(c); });
}
plStatus plSetRestitution(plRigidBodyHandle body, plReal e)
{
    return set_coef(body, e, "plSetRestitution",
                    [](btRigidBody *r, btScalar c) { r->setRestitution(c); });
}

namespace {
// A per-body force in N kept with the body (Body::*member) and handed to
// the plugin of the world it is in (setter: rf_bullet_set_cohesion or
// rf_bullet_set_yield).
plStatus set_body_force(plRigidBodyHandle body, plReal force, const char *fn,
                        double Body::*member,
                        rf_status (*setter)(rf_plugin *,
                                            const btCollisionObject *, double))
{
    Lock lock(g_mutex);
    LOOKUP(Body, b, body, K_BODY, fn, "body");
    if (!is_finite(force)) {
        return fail(PL_ERR_NONFINITE, "%s: the force is not finite", fn);
    }
    if (force < 0) {
        return fail(PL_ERR_INVALID, "%s: the force %g is negative", fn,
                    (double)force);
    }
    b->*member = (double)force;
    if (b->world_handle != nullptr) {
        plStatus st;
        World *w = lookup<World>(b->world_handle, K_WORLD, "", "", &st);
        if (w != nullptr) {
            setter(w->plugin, b->rb.get(), b->*member);
        }
    }
    return PL_OK;
}
} // namespace

plStatus plSetCohesion(plRigidBodyHandle body, plReal force)
{
    return set_body_force(body, force, "plSetCohesion", &Body::cohesion,
                          rf_bullet_set_cohesion);
}

plStatus plSetYield(plRigidBodyHandle body, plReal force)
{
    return set_body_force(body, force, "plSetYield", &Body::yield,
                          rf_bullet_set_yield);
}

plStatus plSetContactStiffnessAndDamping(plRigidBodyHandle body,
                                         plReal stiffness, plReal damping)
{
    static const char fn[] = "plSetContactStiffnessAndDamping";
    LOOKUP(Body, b, body, K_BODY, fn, "body");
    if (!is_finite(stiffness) || !is_finite(damping)) {
        return fail(PL_ERR_NONFINITE, "%s: stiffness or damping is not finite",
                    fn);
    }
    if (!(stiffness > 0) || damping < 0) {
        return fail(PL_ERR_INVALID,
                    "%s: stiffness = %g must be > 0 and damping = %g >= 0", fn,
                    (double)stiffness, (double)damping);
    }
    b->rb->setContactStiffnessAndDamping(stiffness, damping);
    return PL_OK;
}

plStatus plGetCohesion(plRigidBodyHandle body, plReal *force)
{
    static const char fn[] = "plGetCohesion";
    Lock lock(g_mutex);
    LOOKUP(Body, b, body, K_BODY, fn, "body");
    if (force == nullptr) {
        return fail(PL_ERR_NULL, "%s: force is NULL", fn);
    }
    *force = (plReal)b->cohesion;
    return PL_OK;
}

plStatus plSetAnisotropicFriction(plRigidBodyHandle body,
                                  const plVector3 scaling, int mode)
{
    static const char fn[] = "plSetAnisotropicFriction";
    LOOKUP(Body, b, body, K_BODY, fn, "body");
    if (plStatus st = check_reals(fn, "scaling", scaling, 3)) {
        return st;
    }
    if (!(scaling[0] >= 0 && scaling[1] >= 0 && scaling[2] >= 0)) {
        return fail(PL_ERR_INVALID, "%s: scaling must be >= 0 on every axis",
                    fn);
    }
    const int all = PL_ANISOTROPIC_FRICTION | PL_ANISOTROPIC_ROLLING_FRICTION;
    if (mode < 0 || (mode & ~all) != 0) {
        return fail(PL_ERR_INVALID,
                    "%s: mode = %d is not 0, PL_ANISOTROPIC_FRICTION or "
                    "PL_ANISOTROPIC_ROLLING_FRICTION",
                    fn, mode);
    }
    // Bullet's CF_ANISOTROPIC_* have the same values (checked below)
    b->rb->setAnisotropicFriction(btVector3(scaling[0], scaling[1], scaling[2]),
                                  mode);
    return PL_OK;
}
static_assert(PL_ANISOTROPIC_FRICTION ==
                      btCollisionObject::CF_ANISOTROPIC_FRICTION &&
                  PL_ANISOTROPIC_ROLLING_FRICTION ==
                      btCollisionObject::CF_ANISOTROPIC_ROLLING_FRICTION,
              "pl* anisotropic modes must match Bullet's");

plStatus plSetDamping(plRigidBodyHandle body, plReal linear, plReal angular)
{
    LOOKUP(Body, b, body, K_BODY, "plSetDamping", "body");
    if (!is_finite(linear) || !is_finite(angular)) {
        return fail(PL_ERR_NONFINITE, "plSetDamping: a damping is not finite");
    }
    if (linear < 0 || linear > 1 || angular < 0 || angular > 1) {
        return fail(PL_ERR_INVALID,
                    "plSetDamping: linear = %g and angular = %g must be in "
                    "[0, 1]",
                    (double)linear, (double)angular);
    }
    b->rb->setDamping(linear, angular);
    return PL_OK;
}

plStatus plSetSleeping(plRigidBodyHandle body, int allowed)
{
    LOOKUP(Body, b, body, K_BODY, "plSetSleeping", "body");
    if (allowed != 0 && allowed != 1) {
        return fail(PL_ERR_INVALID, "plSetSleeping: allowed = %d not 0 or 1",
                    allowed);
    }
    if (allowed) {
        b->rb->forceActivationState(ACTIVE_TAG);
    } else {
        b->rb->setActivationState(DISABLE_DEACTIVATION);
    }
    return PL_OK;
}

int plIsActive(plRigidBodyHandle body)
{
    plStatus st;
    Body *b = lookup<Body>(body, K_BODY, "plIsActive", "body", &st);
    return b == nullptr ? -1 : (b->rb->isActive() ? 1 : 0);
}

// ---- constraints
// -----------------------------------------------------------------

namespace {
// The bodies of a new constraint: a dynamic, b NULL or another body.
plStatus constraint_bodies(const char *fn, plRigidBodyHandle a,
                           plRigidBodyHandle b, Body **ba, Body **bb)
{
    LOOKUP(Body, x, a, K_BODY, fn, "a");
    *ba = x;
    *bb = nullptr;
    if (b != nullptr) {
        LOOKUP(Body, y, b, K_BODY, fn, "b");
        if (x == y) {
            return fail(PL_ERR_INVALID, "%s: a and b are the same body", fn);
        }
        *bb = y;
    }
    if (x->rb->getInvMass() == 0) {
        return fail(PL_ERR_INVALID, "%s: a must be a dynamic body (mass > 0)",
                    fn);
    }
    return PL_OK;
}

plConstraintHandle register_constraint(btTypedConstraint *tc, Body *a, Body *b)
{
    auto *c = new Constraint;
    c->c.reset(tc);
    c->body_a = a->handle;
    c->body_b = b != nullptr ? b->handle : nullptr;
    c->handle = make_handle(K_CONSTRAINT, c);
    a->constraints.push_back(c->handle);
    if (b != nullptr) {
        b->constraints.push_back(c->handle);
    }
    return (plConstraintHandle)c->handle;
}

btHingeConstraint *hinge_of(plConstraintHandle h, const char *fn, plStatus *st)
{
    Constraint *c = lookup<Constraint>(h, K_CONSTRAINT, fn, "hinge", st);
    if (c == nullptr) {
        return nullptr;
    }
    auto *hc = dynamic_cast<btHingeConstraint *>(c->c.get());
    if (hc == nullptr) {
        *st = fail(PL_ERR_HANDLE, "%s: hinge is not a hinge constraint", fn);
    }
    return hc;
}
} // namespace

plConstraintHandle plNewPoint2PointConstraint(plRigidBodyHandle a,
                                              plRigidBodyHandle b,
                                              const plVector3 pivot_a,
                                              const plVector3 pivot_b)
{
    static const char fn[] = "plNewPoint2PointConstraint";
    Lock lock(g_mutex);
    Body *ba, *bb;
    if (constraint_bodies(fn, a, b, &ba, &bb) != PL_OK ||
        check_reals(fn, "pivot_a", pivot_a, 3) != PL_OK ||
        (bb != nullptr && check_reals(fn, "pivot_b", pivot_b, 3) != PL_OK)) {
        return nullptr;
    }
    btTypedConstraint *tc =
        bb != nullptr ? new btPoint2PointConstraint(*ba->rb, *bb->rb,
                                                    vec(pivot_a), vec(pivot_b))
                      : new btPoint2PointConstraint(*ba->rb, vec(pivot_a));
    return register_constraint(tc, ba, bb);
}

plConstraintHandle
plNewHingeConstraint(plRigidBodyHandle a, plRigidBodyHandle b,
                     const plVector3 pivot_a, const plVector3 pivot_b,
                     const plVector3 axis_a, const plVector3 axis_b)
{
    static const char fn[] = "plNewHingeConstraint";
    Lock lock(g_mutex);
    Body *ba, *bb;
    if (constraint_bodies(fn, a, b, &ba, &bb) != PL_OK ||
        check_reals(fn, "pivot_a", pivot_a, 3) != PL_OK ||
        check_reals(fn, "axis_a", axis_a, 3) != PL_OK ||
        (bb != nullptr && (check_reals(fn, "pivot_b", pivot_b, 3) != PL_OK ||
                           check_reals(fn, "axis_b", axis_b, 3) != PL_OK))) {
        return nullptr;
    }
    if (!(vec(axis_a).length() > (btScalar)1e-6) ||
        (bb != nullptr && !(vec(axis_b).length() > (btScalar)1e-6))) {
        fail(PL_ERR_INVALID, "%s: a hinge axis has zero length", fn);
        return nullptr;
    }
    btTypedConstraint *tc =
        bb != nullptr
            ? new btHingeConstraint(*ba->rb, *bb->rb, vec(pivot_a),
                                    vec(pivot_b), vec(axis_a).normalized(),
                                    vec(axis_b).normalized())
            : new btHingeConstraint(*ba->rb, vec(pivot_a),
                                    vec(axis_a).normalized());
    return register_constraint(tc, ba, bb);
}

namespace {
btGeneric6DofSpring2Constraint *linear_friction_of(plConstraintHandle h,
                                                   const char *fn, plStatus *st)
{
    Constraint *c = lookup<Constraint>(h, K_CONSTRAINT, fn, "c", st);
    if (c == nullptr) {
        return nullptr;
    }
    auto *g = dynamic_cast<btGeneric6DofSpring2Constraint *>(c->c.get());
    if (g == nullptr) {
        *st = fail(PL_ERR_HANDLE, "%s: c is not a linear friction", fn);
    }
    return g;
}
} // namespace

plConstraintHandle plNewLinearFriction(plRigidBodyHandle a, plRigidBodyHandle b,
                                       const plVector3 axis, plReal max_force)
{
    static const char fn[] = "plNewLinearFriction";
    Lock lock(g_mutex);
    Body *ba, *bb;
    if (constraint_bodies(fn, a, b, &ba, &bb) != PL_OK ||
        check_reals(fn, "axis", axis, 3) != PL_OK) {
        return nullptr;
    }
    if (!is_finite(max_force)) {
        fail(PL_ERR_NONFINITE, "%s: max_force is not finite", fn);
        return nullptr;
    }
    if (max_force < 0) {
        fail(PL_ERR_INVALID, "%s: max_force = %g is negative", fn,
             (double)max_force);
        return nullptr;
    }
    const btVector3 ax = vec(axis);
    if (!(ax.length() > (btScalar)1e-6)) {
        fail(PL_ERR_INVALID, "%s: axis has zero length", fn);
        return nullptr;
    }
    // The constraint frame: x along axis (world), at a's centre of mass;
    // in a's frame (so the axis turns with a) and in b's (or the fixed
    // body's, which is the world frame) the same world frame.
    btVector3 ex = ax.normalized(), ey, ez;
    btPlaneSpace1(ex, ey, ez);
    btMatrix3x3 world_basis(ex.x(), ey.x(), ez.x(), ex.y(), ey.y(), ez.y(),
                            ex.z(), ey.z(), ez.z());
    const btTransform world_frame(world_basis,
                                  ba->rb->getCenterOfMassPosition());
    btRigidBody &rb_b =
        bb != nullptr ? *bb->rb : btTypedConstraint::getFixedBody();
    const btTransform frame_a =
        ba->rb->getCenterOfMassTransform().inverse() * world_frame;
    const btTransform frame_b =
        rb_b.getCenterOfMassTransform().inverse() * world_frame;
    auto *g =
        new btGeneric6DofSpring2Constraint(*ba->rb, rb_b, frame_a, frame_b);
    // every axis free (lower > upper), a motor on the linear x axis with
    // target velocity 0 and force up to max_force: the row -F h <= lambda
    // <= F h (btGeneric6DofSpring2Constraint::get_limit_motor_info2)
    g->setLinearLowerLimit(btVector3(1, 1, 1));
    g->setLinearUpperLimit(btVector3(-1, -1, -1));
    g->setAngularLowerLimit(btVector3(1, 1, 1));
    g->setAngularUpperLimit(btVector3(-1, -1, -1));
    g->enableMotor(0, true);
    g->setTargetVelocity(0, 0);
    g->setMaxMotorForce(0, max_force);
    return register_constraint(g, ba, bb);
}

plStatus plSetLinearFrictionForce(plConstraintHandle c, plReal max_force)
{
    static const char fn[] = "plSetLinearFrictionForce";
    Lock lock(g_mutex);
    plStatus st;
    btGeneric6DofSpring2Constraint *g = linear_friction_of(c, fn, &st);
    if (g == nullptr) {
        return st;
    }
    if (!is_finite(max_force)) {
        return fail(PL_ERR_NONFINITE, "%s: max_force is not finite", fn);
    }
    if (max_force < 0) {
        return fail(PL_ERR_INVALID, "%s: max_force = %g is negative", fn,
                    (double)max_force);
    }
    g->setMaxMotorForce(0, max_force);
    return PL_OK;
}

plStatus plSetHingeLimit(plConstraintHandle hinge, plReal low, plReal high)
{
    static const char fn[] = "plSetHingeLimit";
    plStatus st;
    btHingeConstraint *h = hinge_of(hinge, fn, &st);
    if (h == nullptr) {
        return st;
    }
    if (!is_finite(low) || !is_finite(high)) {
        return fail(PL_ERR_NONFINITE, "%s: low or high is not finite", fn);
    }
    h->setLimit(low, high);
    return PL_OK;
}

plStatus plEnableHingeMotor(plConstraintHandle hinge, int enable,
                            plReal target_velocity, plReal max_impulse)
{
    static const char fn[] = "plEnableHingeMotor";
    plStatus st;
    btHingeConstraint *h = hinge_of(hinge, fn, &st);
    if (h == nullptr) {
        return st;
    }
    if (!is_finite(target_velocity) || !is_finite(max_impulse)) {
        return fail(PL_ERR_NONFINITE,
                    "%s: target_velocity or max_impulse is not finite", fn);
    }
    if (max_impulse < 0 || (enable != 0 && enable != 1)) {
        return fail(PL_ERR_INVALID,
                    "%s: max_impulse = %g must be >= 0 and enable = %d 0 or 1",
                    fn, (double)max_impulse, enable);
    }
    h->enableAngularMotor(enable != 0, target_velocity, max_impulse);
    return PL_OK;
}

plStatus plGetHingeAngle(plConstraintHandle hinge, plReal *angle)
{
    static const char fn[] = "plGetHingeAngle";
    plStatus st;
    btHingeConstraint *h = hinge_of(hinge, fn, &st);
    if (h == nullptr) {
        return st;
    }
    if (angle == nullptr) {
        return fail(PL_ERR_NULL, "%s: angle is NULL", fn);
    }
    *angle = h->getHingeAngle();
    return PL_OK;
}

plStatus plSetBreakingImpulse(plConstraintHandle c, plReal threshold)
{
    static const char fn[] = "plSetBreakingImpulse";
    LOOKUP(Constraint, x, c, K_CONSTRAINT, fn, "c");
    if (!is_finite(threshold)) {
        return fail(PL_ERR_NONFINITE, "%s: threshold is not finite", fn);
    }
    if (!(threshold > 0)) {
        return fail(PL_ERR_INVALID, "%s: threshold = %g must be > 0", fn,
                    (double)threshold);
    }
    x->c->setBreakingImpulseThreshold(threshold);
    return PL_OK;
}

int plIsConstraintEnabled(plConstraintHandle c)
{
    plStatus st;
    Constraint *x =
        lookup<Constraint>(c, K_CONSTRAINT, "plIsConstraintEnabled", "c", &st);
    return x == nullptr ? -1 : (x->c->isEnabled() ? 1 : 0);
}

plStatus plGetConstraintImpulse(plConstraintHandle c, plReal *impulse)
{
    static const char fn[] = "plGetConstraintImpulse";
    LOOKUP(Constraint, x, c, K_CONSTRAINT, fn, "c");
    if (impulse == nullptr) {
        return fail(PL_ERR_NULL, "%s: impulse is NULL", fn);
    }
    *impulse = x->c->getAppliedImpulse();
    return PL_OK;
}

plStatus plAddConstraint(plDynamicsWorldHandle world, plConstraintHandle c,
                         int disable_collisions)
{
    static const char fn[] = "plAddConstraint";
    Lock lock(g_mutex);
    LOOKUP(World, w, world, K_WORLD, fn, "world");
    LOOKUP(Constraint, x, c, K_CONSTRAINT, fn, "c");
    if (disable_collisions != 0 && disable_collisions != 1) {
        return fail(PL_ERR_INVALID, "%s: disable_collisions = %d not 0 or 1",
                    fn, disable_collisions);
    }
    if (x->world_handle != nullptr) {
        return fail(PL_ERR_STATE, "%s: the constraint is already in a world",
                    fn);
    }
    for (void *bh : {x->body_a, x->body_b}) {
        plStatus st;
        Body *b = bh ? lookup<Body>(bh, K_BODY, "", "", &st) : nullptr;
        if (b != nullptr && b->world_handle != (void *)world) {
            return fail(PL_ERR_STATE,
                        "%s: body %s of the constraint is not in this world",
                        fn, bh == x->body_a ? "a" : "b");
        }
    }
    w->world.addConstraint(x->c.get(), disable_collisions != 0);
    w->constraints.push_back(c);
    x->world_handle = world;
    return PL_OK;
}

plStatus plRemoveConstraint(plDynamicsWorldHandle world, plConstraintHandle c)
{
    static const char fn[] = "plRemoveConstraint";
    Lock lock(g_mutex);
    LOOKUP(World, w, world, K_WORLD, fn, "world");
    LOOKUP(Constraint, x, c, K_CONSTRAINT, fn, "c");
    if (x->world_handle != (void *)world) {
        return fail(PL_ERR_STATE, "%s: the constraint is not in this world",
                    fn);
    }
    (void)w;
    remove_constraint_from_world(x);
    return PL_OK;
}

plStatus plDeleteConstraint(plConstraintHandle c)
{
    Lock lock(g_mutex);
    LOOKUP(Constraint, x, c, K_CONSTRAINT, "plDeleteConstraint", "c");
    remove_constraint_from_world(x);
    for (void *bh : {x->body_a, x->body_b}) {
        plStatus st;
        Body *b = bh ? lookup<Body>(bh, K_BODY, "", "", &st) : nullptr;
        if (b != nullptr) {
            auto &v = b->constraints;
            v.erase(std::find(v.begin(), v.end(), (void *)c));
        }
    }
    delete x;
    drop_handle(c);
    return PL_OK;
}

// ---- contacts
// --------------------------------------------------------------------

namespace {
// One manifold point seen from `self` (body 0 or body 1 of its manifold).
void fill_contact(const rf_plugin *plugin, const btManifoldPoint &pt,
                  bool self_is_a, plContactInfo *out)
{
    const btVector3 &n = pt.m_normalWorldOnB; // from B towards A
    // impulse on A: force F and torque T (world); B gets -F, -T
    btVector3 F, T(0, 0, 0);
    double g[6];
    const bool cone = rf_bullet_point_impulse(plugin, &pt, g) == RF_OK;
    if (cone) {
        const btVector3 &u = pt.m_lateralFrictionDir1,
                        &w = pt.m_lateralFrictionDir2;
        F = n * (btScalar)g[0] + u * (btScalar)g[1] + w * (btScalar)g[2];
        T = n * (btScalar)g[3] + u * (btScalar)g[4] + w * (btScalar)g[5];
    } else {
        F = n * pt.m_appliedImpulse +
            pt.m_lateralFrictionDir1 * pt.m_appliedImpulseLateral1 +
            pt.m_lateralFrictionDir2 * pt.m_appliedImpulseLateral2;
    }
    const btScalar sign = self_is_a ? 1 : -1;
    F *= sign;
    T *= sign;
    // the frame: normal towards self, tangents right-handed
    const btVector3 N = n * sign;
    const btVector3 T1 = tangent_of(N, pt.m_lateralFrictionDir1);
    const btVector3 T2 = N.cross(T1);
    const btVector3 &p =
        self_is_a ? pt.m_positionWorldOnA : pt.m_positionWorldOnB;
    const btVector3 axes[3] = {N, T1, T2};
    for (int k = 0; k < 3; ++k) {
        out->m_position[k] = p[k];
        out->m_normal[k] = N[k];
        out->m_tangent1[k] = T1[k];
        out->m_tangent2[k] = T2[k];
        out->m_impulse[k] = F.dot(axes[k]);
        out->m_impulse[3 + k] = T.dot(axes[k]);
    }
    out->m_distance = pt.getDistance();
    out->m_has_torques = cone ? 1 : 0;
    out->m_friction = pt.m_combinedFriction;
    out->m_rolling_friction = pt.m_combinedRollingFriction;
    out->m_spinning_friction = pt.m_combinedSpinningFriction;
}
} // namespace

int plGetContacts(plRigidBodyHandle body, plContactInfo *out, int max)
{
    static const char fn[] = "plGetContacts";
    Lock lock(g_mutex);
    plStatus st;
    Body *b = lookup<Body>(body, K_BODY, fn, "body", &st);
    if (b == nullptr) {
        return -1;
    }
    if (max < 0 || (out == nullptr && max > 0)) {
        fail(max < 0 ? PL_ERR_INVALID : PL_ERR_NULL,
             "%s: max = %d must be >= 0, and out non-NULL when max > 0", fn,
             max);
        return -1;
    }
    World *w = b->world_handle != nullptr
                   ? lookup<World>(b->world_handle, K_WORLD, "", "", &st)
                   : nullptr;
    if (w == nullptr) {
        return 0;
    }
    btDispatcher *d = w->world.getDispatcher();
    int n = 0;
    for (int i = 0; i < d->getNumManifolds(); ++i) {
        const btPersistentManifold *m = d->getManifoldByIndexInternal(i);
        const bool is_a = m->getBody0() == b->rb.get();
        if (!is_a && m->getBody1() != b->rb.get()) {
            continue;
        }
        const btCollisionObject *other = is_a ? m->getBody1() : m->getBody0();
        for (int j = 0; j < m->getNumContacts(); ++j, ++n) {
            if (n >= max) {
                continue;
            }
            fill_contact(w->plugin, m->getContactPoint(j), is_a, &out[n]);
            out[n].m_other = (plRigidBodyHandle)other->getUserPointer();
        }
    }
    return n;
}

// ---- queries
// -------------------------------------------------------------------

int plRayCast(plDynamicsWorldHandle world, const plVector3 ray_start,
              const plVector3 ray_end, plRayCastResult *res)
{
    static const char fn[] = "plRayCast";
    Lock lock(g_mutex);
    plStatus st;
    World *w = lookup<World>(world, K_WORLD, fn, "world", &st);
    if (w == nullptr) {
        return -1;
    }
    if (check_reals(fn, "ray_start", ray_start, 3) != PL_OK ||
        check_reals(fn, "ray_end", ray_end, 3) != PL_OK) {
        return -1;
    }
    if (res == nullptr) {
        fail(PL_ERR_NULL, "%s: res is NULL", fn);
        return -1;
    }
    btVector3 a(ray_start[0], ray_start[1], ray_start[2]);
    btVector3 b(ray_end[0], ray_end[1], ray_end[2]);
    btCollisionWorld::ClosestRayResultCallback cb(a, b);
    w->world.rayTest(a, b, cb);
    std::memset(res, 0, sizeof *res);
    if (!cb.hasHit()) {
        return 0;
    }
    void *bh = cb.m_collisionObject->getUserPointer();
    if (Body *body = lookup<Body>(bh, K_BODY, "", "", &st)) {
        res->m_body = (plRigidBodyHandle)bh;
        res->m_shape = (plCollisionShapeHandle)body->shape_handle;
    }
    for (int k = 0; k < 3; ++k) {
        res->m_positionWorld[k] = cb.m_hitPointWorld[k];
        res->m_normalWorld[k] = cb.m_hitNormalWorld[k];
    }
    return 1;
}

} // extern "C"
