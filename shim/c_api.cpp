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

bool is_finite(plReal x) { return std::isfinite((double)x); }
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

enum Kind { K_NONE = 0, K_SDK, K_WORLD, K_BODY, K_SHAPE };
const char *kind_name(int k)
{
    static const char *n[] = {"nothing", "SDK", "world", "rigid body",
                              "shape"};
    return n[k];
}

struct World;
struct Shape {
    std::unique_ptr<btCollisionShape> shape;
    int users = 0; // bodies and compounds holding it
    bool is_plane = false;
    std::vector<void *> children; // compound: child handles (kept alive)
};
struct Body {
    std::unique_ptr<btDefaultMotionState> state;
    std::unique_ptr<btRigidBody> rb;
    void *handle = nullptr;       // its own handle
    void *shape_handle = nullptr;
    void *world_handle = nullptr; // the world it is in, or null
    void *user_data = nullptr;
};
struct World {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
    rf_plugin *plugin = nullptr;
    void *sdk_handle = nullptr;
    std::vector<void *> bodies; // body handles in this world
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
T *lookup(const void *h, int k, const char *fn, const char *arg,
          plStatus *st)
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
        *st = fail(PL_ERR_HANDLE, "%s: %s is not a live handle (deleted or "
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

plCollisionShapeHandle new_shape(btCollisionShape *shape, bool plane = false)
{
    auto *s = new Shape;
    s->shape.reset(shape);
    s->is_plane = plane;
    return (plCollisionShapeHandle)make_handle(K_SHAPE, s);
}

// Two positive finite sizes, or an error for fn.
plStatus check_sizes(const char *fn, plReal a, const char *na, plReal b,
                     const char *nb)
{
    if (!is_finite(a) || !is_finite(b)) {
        return fail(PL_ERR_NONFINITE, "%s: %s or %s is not finite", fn, na,
                    nb);
    }
    if (!(a > 0) || !(b > 0)) {
        return fail(PL_ERR_INVALID, "%s: %s = %g and %s = %g must be > 0", fn,
                    na, (double)a, nb, (double)b);
    }
    return PL_OK;
}

void remove_from_world(Body *b)
{
    if (b->world_handle == nullptr) {
        return;
    }
    plStatus st;
    World *w = lookup<World>(b->world_handle, K_WORLD, "", "", &st);
    if (w != nullptr) {
        w->world.removeRigidBody(b->rb.get());
        auto &v = w->bodies;
        v.erase(std::find(v.begin(), v.end(), b->handle));
    }
    b->world_handle = nullptr;
}

void delete_world(void *wh, World *w)
{
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

} // namespace

// Body and world lookups in every entry point below.
#define LOOKUP(T, var, h, k, fn, arg)                                          \
    plStatus var##_st;                                                         \
    T *var = lookup<T>(h, k, fn, arg, &var##_st);                              \
    if (var == nullptr) {                                                      \
        return var##_st;                                                       \
    }

extern "C" {

const char *plGetLastError(void) { return g_error; }

// ---- SDK and worlds ----------------------------------------------------------

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
        return fail(PL_ERR_NONFINITE, "%s: dt or fixed_step is not finite",
                    fn);
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
    (void)w;
    remove_from_world(b);
    return PL_OK;
}

// ---- contact solver ------------------------------------------------------------

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

plStatus plSetSolverConfig(plDynamicsWorldHandle world, const rf_config *cfg)
{
    LOOKUP(World, w, world, K_WORLD, "plSetSolverConfig", "world");
    if (cfg == nullptr) {
        return fail(PL_ERR_NULL, "plSetSolverConfig: cfg is NULL");
    }
    rf_error err;
    rf_status st = rf_bullet_set_config(w->plugin, cfg, &err);
    if (st != RF_OK) {
        return fail(st == RF_ERR_NONFINITE ? PL_ERR_NONFINITE : PL_ERR_INVALID,
                    "plSetSolverConfig: %s", err.message);
    }
    return PL_OK;
}

plStatus plGetSolverStats(plDynamicsWorldHandle world, rf_stats *out)
{
    LOOKUP(World, w, world, K_WORLD, "plGetSolverStats", "world");
    if (out == nullptr) {
        return fail(PL_ERR_NULL, "plGetSolverStats: out is NULL");
    }
    rf_bullet_stats(w->plugin, out);
    return PL_OK;
}

// ---- shapes --------------------------------------------------------------------

plCollisionShapeHandle plNewSphereShape(plReal radius)
{
    static const char fn[] = "plNewSphereShape";
    Lock lock(g_mutex);
    if (need_sdk(fn) != PL_OK || check_sizes(fn, radius, "radius", radius,
                                             "radius") != PL_OK) {
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

plCollisionShapeHandle plNewCapsuleShape(plReal radius, plReal height)
{
    static const char fn[] = "plNewCapsuleShape";
    Lock lock(g_mutex);
    if (need_sdk(fn) != PL_OK ||
        check_sizes(fn, radius, "radius", height, "height") != PL_OK) {
        return nullptr;
    }
    // classic meaning: sphere centres at +-height
    return new_shape(new btCapsuleShape(radius, 2 * height));
}

plCollisionShapeHandle plNewConeShape(plReal radius, plReal height)
{
    static const char fn[] = "plNewConeShape";
    Lock lock(g_mutex);
    if (need_sdk(fn) != PL_OK ||
        check_sizes(fn, radius, "radius", height, "height") != PL_OK) {
        return nullptr;
    }
    return new_shape(new btConeShape(radius, height));
}

plCollisionShapeHandle plNewCylinderShape(plReal radius, plReal height)
{
    static const char fn[] = "plNewCylinderShape";
    Lock lock(g_mutex);
    if (need_sdk(fn) != PL_OK ||
        check_sizes(fn, radius, "radius", height, "height") != PL_OK) {
        return nullptr;
    }
    // classic meaning: half extents (radius, height, radius)
    return new_shape(new btCylinderShape(btVector3(radius, height, radius)));
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
    return new_shape(new btStaticPlaneShape(n.normalized(), constant), true);
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
        return fail(PL_ERR_INVALID, "%s: compound is not a compound shape",
                    fn);
    }
    if (c == ch || ch->is_plane) {
        return fail(PL_ERR_INVALID, "%s: child cannot be %s", fn,
                    c == ch ? "the compound itself" : "a static plane");
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
    cs->addChildShape(btTransform(q.normalized(), btVector3(pos[0], pos[1], pos[2])),
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

// ---- rigid bodies ----------------------------------------------------------------

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
    if (mass > 0 && s->is_plane) {
        fail(PL_ERR_INVALID, "%s: a static plane needs mass 0", fn);
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
    return (plRigidBodyHandle)b->handle;
}

plStatus plDeleteRigidBody(plRigidBodyHandle body)
{
    Lock lock(g_mutex);
    LOOKUP(Body, b, body, K_BODY, "plDeleteRigidBody", "body");
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
    if (plStatus st = check_reals("plSetOrientation", "orientation",
                                  orientation, 4)) {
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
    return set_coef(body, rho, "plSetRollingFriction",
                    [](btRigidBody *r, btScalar c) { r->setRollingFriction(c); });
}
plStatus plSetSpinningFriction(plRigidBodyHandle body, plReal sigma)
{
    return set_coef(body, sigma, "plSetSpinningFriction",
                    [](btRigidBody *r, btScalar c) {
                        r->setSpinningFriction(c);
                    });
}
plStatus plSetRestitution(plRigidBodyHandle body, plReal e)
{
    return set_coef(body, e, "plSetRestitution",
                    [](btRigidBody *r, btScalar c) { r->setRestitution(c); });
}

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
    return b != nullptr && b->rb->isActive();
}

// ---- queries -------------------------------------------------------------------

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
    for (void *bh : w->bodies) {
        Body *body = lookup<Body>(bh, K_BODY, "", "", &st);
        if (body != nullptr && body->rb.get() == cb.m_collisionObject) {
            res->m_body = (plRigidBodyHandle)bh;
            res->m_shape = (plCollisionShapeHandle)body->shape_handle;
            break;
        }
    }
    for (int k = 0; k < 3; ++k) {
        res->m_positionWorld[k] = cb.m_hitPointWorld[k];
        res->m_normalWorld[k] = cb.m_hitNormalWorld[k];
    }
    return 1;
}

} // extern "C"
