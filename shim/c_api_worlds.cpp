// The pl* C API, part 2: the physics SDK, dynamics worlds (create, delete,
// step, gravity, bodies in and out) and each world's contact solver (stock
// or cone, its configuration and statistics).
#include "c_api_internal.hpp"

#include <algorithm>
#include <cmath>

namespace rfshim {
namespace capi {

namespace {
int g_sdks = 0; // live SDKs created with the right precision

// The world's rf_config or rf_stats into the first size bytes of *out
// (get: rf_bullet_get_config_sized or rf_bullet_stats_sized); fn names
// the call in messages, type the struct.
template <typename T, typename Get>
plStatus get_sized(plDynamicsWorldHandle world, T *out, size_t size,
                   const char *fn, const char *type, Get get)
{
    return guarded(fn, [&] {
        LOOKUP(World, w, world, K_WORLD, fn, "world");
        if (out == nullptr) {
            return fail(PL_ERR_NULL, "%s: out is NULL", fn);
        }
        if (get(w->plugin, out, size) != RF_OK) {
            return fail(PL_ERR_INVALID,
                        "%s: the caller's %s has %zu bytes, this library's "
                        "%zu",
                        fn, type, size, sizeof(T));
        }
        return PL_OK;
    });
}

} // namespace

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

} // namespace capi
} // namespace rfshim

using namespace rfshim::capi;

namespace {

// Delete the world; needs no memory (so deleting cannot fail): its
// recording, if any, is closed in ~World after the bodies have left, and
// the last frame of an empty world allocates nothing.
void delete_world(void *wh, World *w)
{
    // constraints first: Bullet must never see one whose body is gone;
    // each removal takes its handle out of w->constraints (from the back:
    // no copy of the list, so no allocation)
    while (!w->constraints.empty()) {
        plStatus st;
        Constraint *c = lookup<Constraint>(w->constraints.back(), K_CONSTRAINT,
                                           "", "", &st);
        if (c != nullptr && c->world_handle == wh) {
            remove_constraint_from_world(c);
        } else {
            w->constraints.pop_back();
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

} // namespace

extern "C" {

// ---- SDK and worlds
// ----------------------------------------------------------

plPhysicsSdkHandle plNewBulletSdkChecked(int real_size)
{
    return guarded(
        "plNewBulletSdkChecked", nullptr, [&]() -> plPhysicsSdkHandle {
            if (real_size != (int)sizeof(btScalar)) {
                fail(PL_ERR_PRECISION,
                     "plNewBulletSdk: the program uses a %d-byte plReal but "
                     "this library is built for %d-byte Bullet; link %s "
                     "instead",
                     real_size, (int)sizeof(btScalar),
                     real_size == 8 ? "librollfric-float64.so (pkg-config "
                                      "rollfric-float64)"
                                    : "librollfric.so (pkg-config rollfric)");
                return nullptr;
            }
            return plNewBulletSdk();
        });
}

// The header's plNewBulletSdk is this library's precision's name
// (plNewBulletSdk_float32 or _float64): a program of the other precision
// fails to link.
plPhysicsSdkHandle plNewBulletSdk(void)
{
    return guarded("plNewBulletSdk", nullptr, [&]() -> plPhysicsSdkHandle {
        Lock lock(g_mutex);
        void *h = own_handle(K_SDK, std::make_unique<Sdk>());
        ++g_sdks;
        return (plPhysicsSdkHandle)h;
    });
}

// ... and under its plain name, for bindings that load it by name (dlsym,
// FFI): such a caller has no compiled plReal to check.  (Not guarded
// itself: it only calls the guarded one.)
#undef plNewBulletSdk
RF_API plPhysicsSdkHandle plNewBulletSdk(void)
{
#ifdef BT_USE_DOUBLE_PRECISION
    return plNewBulletSdk_float64();
#else
    return plNewBulletSdk_float32();
#endif
}

plStatus plDeletePhysicsSdk(plPhysicsSdkHandle sdk)
{
    return guarded("plDeletePhysicsSdk", [&] {
        Lock lock(g_mutex);
        LOOKUP(Sdk, s, sdk, K_SDK, "plDeletePhysicsSdk", "sdk");
        for (void *wh : s->worlds) {
            plStatus st;
            World *w = lookup<World>(wh, K_WORLD, "", "", &st);
            if (w != nullptr) {
                delete_world(wh, w);
            }
        }
        for (void *ch : s->collision_worlds) {
            plStatus st;
            CollisionWorld *cw =
                lookup<CollisionWorld>(ch, K_COLLISION_WORLD, "", "", &st);
            if (cw != nullptr) {
                delete_collision_world(ch, cw);
            }
        }
        delete s;
        drop_handle(sdk);
        if (--g_sdks == 0) {
            release_mesh_interfaces(); // they have no classic delete
        }
        return PL_OK;
    });
}

plDynamicsWorldHandle plCreateDynamicsWorld(plPhysicsSdkHandle sdk)
{
    static const char fn[] = "plCreateDynamicsWorld";
    return guarded(fn, nullptr, [&]() -> plDynamicsWorldHandle {
        Lock lock(g_mutex);
        plStatus st;
        Sdk *s = lookup<Sdk>(sdk, K_SDK, fn, "sdk", &st);
        if (s == nullptr) {
            return nullptr;
        }
        auto w = std::make_unique<World>();
        // btDiscreteDynamicsWorld's own default, as the classic worlds had
        w->world.setGravity(btVector3(0, -10, 0));
        rf_error err;
        w->plugin = rf_bullet_attach(&w->world, nullptr, &err);
        if (w->plugin == nullptr) {
            fail(err.status == RF_ERR_NOMEM ? PL_ERR_NOMEM : PL_ERR_STATE,
                 "%s: %s", fn, err.message);
            return nullptr;
        }
        reserve_more(s->worlds, 1);
        World *raw = w.get();
        void *h = own_handle(K_WORLD, std::move(w));
        raw->sdk_handle = sdk;
        s->worlds.push_back(h);
        return (plDynamicsWorldHandle)h;
    });
}

plStatus plDeleteDynamicsWorld(plDynamicsWorldHandle world)
{
    return guarded("plDeleteDynamicsWorld", [&] {
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
    });
}

// Bullet counts a step's substeps as int(local time / fixed step): past
// INT_MAX the count overflows, and the world then never steps again.  A
// dt of more than kMaxSubsteps fixed steps is refused (true, with the
// error set).
constexpr double kMaxSubsteps = 1e9;
static bool too_many_substeps(const char *fn, double dt, double fixed_step)
{
    if (dt / fixed_step <= kMaxSubsteps) {
        return false;
    }
    fail(PL_ERR_INVALID,
         "%s: dt = %g is %g steps of %g s, more than Bullet counts (%g)", fn,
         dt, dt / fixed_step, fixed_step, kMaxSubsteps);
    return true;
}

plStatus plStepSimulationFixed(plDynamicsWorldHandle world, plReal dt,
                               int max_substeps, plReal fixed_step)
{
    static const char fn[] = "plStepSimulationFixed";
    return guarded(fn, [&] {
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
        if (too_many_substeps(fn, (double)dt, (double)fixed_step)) {
            return PL_ERR_INVALID;
        }
        w->world.stepSimulation((btScalar)dt, max_substeps,
                                (btScalar)fixed_step);
        return PL_OK;
    });
}

plStatus plStepSimulation(plDynamicsWorldHandle world, plReal dt)
{
    static const char fn[] = "plStepSimulation";
    return guarded(fn, [&] {
        LOOKUP(World, w, world, K_WORLD, fn, "world");
        if (!is_finite(dt)) {
            return fail(PL_ERR_NONFINITE, "%s: dt is not finite", fn);
        }
        if (!(dt > 0)) {
            return fail(PL_ERR_INVALID, "%s: dt = %g must be > 0", fn,
                        (double)dt);
        }
        if (too_many_substeps(fn, (double)dt, 1.0 / 60)) {
            return PL_ERR_INVALID;
        }
        // the classic call: stepSimulation(dt), i.e. at most one fixed step
        // of 1/60 s with interpolation
        w->world.stepSimulation((btScalar)dt);
        return PL_OK;
    });
}

plStatus plSetGravity(plDynamicsWorldHandle world, const plVector3 g)
{
    return guarded("plSetGravity", [&] {
        LOOKUP(World, w, world, K_WORLD, "plSetGravity", "world");
        if (plStatus st = check_reals("plSetGravity", "g", g, 3)) {
            return st;
        }
        w->world.setGravity(btVector3(g[0], g[1], g[2]));
        return PL_OK;
    });
}

plStatus plStartRecording(plDynamicsWorldHandle world, const char *path,
                          plReal frame_interval, int contacts)
{
    static const char fn[] = "plStartRecording";
    return guarded(fn, [&] {
        LOOKUP(World, w, world, K_WORLD, fn, "world");
        if (path == nullptr) {
            return fail(PL_ERR_NULL, "%s: path is NULL", fn);
        }
        if (!is_finite(frame_interval)) {
            return fail(PL_ERR_NONFINITE, "%s: frame_interval is not finite",
                        fn);
        }
        rf_error err;
        switch (rf_bullet_record_start(w->plugin, path, (double)frame_interval,
                                       contacts, &err)) {
        case RF_OK: return PL_OK;
        case RF_ERR_STATE: return fail(PL_ERR_STATE, "%s: %s", fn, err.message);
        case RF_ERR_IO: return fail(PL_ERR_IO, "%s: %s", fn, err.message);
        case RF_ERR_NOMEM: return fail(PL_ERR_NOMEM, "%s: out of memory", fn);
        default: return fail(PL_ERR_INVALID, "%s: %s", fn, err.message);
        }
    });
}

plStatus plStopRecording(plDynamicsWorldHandle world)
{
    return guarded("plStopRecording", [&] {
        LOOKUP(World, w, world, K_WORLD, "plStopRecording", "world");
        rf_error err;
        if (rf_bullet_record_stop(w->plugin, &err) != RF_OK) {
            return fail(PL_ERR_IO, "plStopRecording: %s", err.message);
        }
        return PL_OK;
    });
}

plStatus plSetSplitImpulse(plDynamicsWorldHandle world, int on)
{
    return guarded("plSetSplitImpulse", [&] {
        LOOKUP(World, w, world, K_WORLD, "plSetSplitImpulse", "world");
        if (on != 0 && on != 1) {
            return fail(PL_ERR_INVALID,
                        "plSetSplitImpulse: on = %d, not 0 or 1", on);
        }
        w->world.getSolverInfo().m_splitImpulse = on;
        return PL_OK;
    });
}

plStatus plSetSolverIterations(plDynamicsWorldHandle world, int n)
{
    static const char fn[] = "plSetSolverIterations";
    return guarded(fn, [&] {
        LOOKUP(World, w, world, K_WORLD, fn, "world");
        if (n < 1) {
            return fail(PL_ERR_INVALID, "%s: n = %d, not >= 1", fn, n);
        }
        w->world.getSolverInfo().m_numIterations = n;
        return PL_OK;
    });
}

plStatus plSetContactErp(plDynamicsWorldHandle world, plReal erp)
{
    static const char fn[] = "plSetContactErp";
    return guarded(fn, [&] {
        LOOKUP(World, w, world, K_WORLD, fn, "world");
        if (!std::isfinite((double)erp)) {
            return fail(PL_ERR_NONFINITE, "%s: erp is not finite", fn);
        }
        if (!(erp >= 0 && erp <= 1)) {
            return fail(PL_ERR_INVALID, "%s: erp = %g, not in [0, 1]", fn,
                        (double)erp);
        }
        w->world.getSolverInfo().m_erp2 = erp;
        return PL_OK;
    });
}

plStatus plSetDefaultFriction(plDynamicsWorldHandle world, plReal rolling,
                              plReal spinning)
{
    static const char fn[] = "plSetDefaultFriction";
    return guarded(fn, [&] {
        LOOKUP(World, w, world, K_WORLD, fn, "world");
        const rf_status st = rf_bullet_set_default_friction(
            w->plugin, (double)rolling, (double)spinning);
        if (st == RF_ERR_NONFINITE) {
            return fail(PL_ERR_NONFINITE, "%s: %s is not finite", fn,
                        std::isfinite((double)rolling) ? "spinning"
                                                       : "rolling");
        }
        if (st != RF_OK) {
            return fail(PL_ERR_INVALID,
                        "%s: rolling = %g, spinning = %g: both must be >= 0 "
                        "(lengths, m)",
                        fn, (double)rolling, (double)spinning);
        }
        return PL_OK;
    });
}

plStatus plLoadMaterials(plDynamicsWorldHandle world, const char *path)
{
    static const char fn[] = "plLoadMaterials";
    return guarded(fn, [&] {
        LOOKUP(World, w, world, K_WORLD, fn, "world");
        if (path == nullptr) {
            return fail(PL_ERR_NULL, "%s: path is NULL", fn);
        }
        rf_error err;
        const rf_status st = rf_bullet_load_materials(w->plugin, path, &err);
        if (st == RF_OK) {
            return PL_OK;
        }
        return fail(st == RF_ERR_IO      ? PL_ERR_IO
                    : st == RF_ERR_NOMEM ? PL_ERR_NOMEM
                                         : PL_ERR_INVALID,
                    "%s: %s", fn, err.message);
    });
}

plStatus plAddRigidBody(plDynamicsWorldHandle world, plRigidBodyHandle body)
{
    static const char fn[] = "plAddRigidBody";
    return guarded(fn, [&] {
        Lock lock(g_mutex);
        LOOKUP(World, w, world, K_WORLD, fn, "world");
        LOOKUP(Body, b, body, K_BODY, fn, "body");
        if (b->world_handle != nullptr) {
            return fail(PL_ERR_STATE, "plAddRigidBody: the body is already in "
                                      "a world");
        }
        reserve_more(w->bodies, 1);
        w->world.addRigidBody(b->rb.get());
        w->bodies.push_back(body);
        b->world_handle = world;
        // the body's forces and name for the plugin: out of memory, the
        // body leaves the world again
        try {
            if (b->cohesion > 0.0) {
                rf_bullet_set_cohesion(w->plugin, b->rb.get(), b->cohesion);
            }
            if (b->yield > 0.0) {
                rf_bullet_set_yield(w->plugin, b->rb.get(), b->yield);
            }
            rf_error err; // (no message on stderr)
            if (!b->name.empty() &&
                rf_bullet_record_name(w->plugin, b->rb.get(), b->name.c_str(),
                                      &err) == RF_ERR_NOMEM) {
                throw std::bad_alloc();
            }
        } catch (...) {
            remove_from_world(b);
            throw;
        }
        return PL_OK;
    });
}

plStatus plRemoveRigidBody(plDynamicsWorldHandle world, plRigidBodyHandle body)
{
    return guarded("plRemoveRigidBody", [&] {
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
    });
}

// ---- contact solver
// ------------------------------------------------------------

plStatus plSetContactSolver(plDynamicsWorldHandle world, plSolver solver)
{
    // as an int: the lambda reads it through a reference, and a value
    // outside the enum read as a plSolver is undefined (UBSan: enum)
    const int which = (int)solver;
    return guarded("plSetContactSolver", [&] {
        LOOKUP(World, w, world, K_WORLD, "plSetContactSolver", "world");
        if (which != PL_SOLVER_STOCK && which != PL_SOLVER_CONE) {
            return fail(PL_ERR_INVALID, "plSetContactSolver: unknown solver %d",
                        which);
        }
        rf_bullet_set_mode(w->plugin, which == PL_SOLVER_CONE
                                          ? RF_BULLET_CONE
                                          : RF_BULLET_STOCK);
        return PL_OK;
    });
}

plStatus plSetSolverConfigSized(plDynamicsWorldHandle world,
                                const rf_config *cfg, size_t size)
{
    return guarded("plSetSolverConfig", [&] {
        LOOKUP(World, w, world, K_WORLD, "plSetSolverConfig", "world");
        if (cfg == nullptr) {
            return fail(PL_ERR_NULL, "plSetSolverConfig: cfg is NULL");
        }
        rf_error err;
        rf_status st = rf_bullet_set_config_sized(w->plugin, cfg, size, &err);
        if (st != RF_OK) {
            return fail(st == RF_ERR_NONFINITE ? PL_ERR_NONFINITE
                                               : PL_ERR_INVALID,
                        "plSetSolverConfig: %s", err.message);
        }
        return PL_OK;
    });
}

void plGetDefaultSolverConfigSized(rf_config *cfg, size_t size)
{
    (void)guarded("plGetDefaultSolverConfig", [&] {
        (void)rf_bullet_config_default_sized(cfg, size);
        return PL_OK;
    });
}

plStatus plGetSolverConfigSized(plDynamicsWorldHandle world, rf_config *out,
                                size_t size)
{
    return get_sized(world, out, size, "plGetSolverConfig", "rf_config",
                     rf_bullet_get_config_sized);
}

plStatus plGetSolverStatsSized(plDynamicsWorldHandle world, rf_stats *out,
                               size_t size)
{
    return get_sized(world, out, size, "plGetSolverStats", "rf_stats",
                     rf_bullet_stats_sized);
}

} // extern "C"
