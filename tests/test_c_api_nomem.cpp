// Out of memory in the pl* C API (include/rollfric/bullet_c_api.h): no C++
// exception may leave an extern "C" function (it would reach the C caller
// as std::terminate).  This program replaces the global operator new and
// delete (every form) with malloc/free and a countdown: armed only during
// a pl* call of the scenario below, the allocation that brings the
// countdown to 0 fails (std::bad_alloc, or NULL for the nothrow forms).
// The library's allocations (std::vector, std::string, new, the maps of
// the plugin) reach this operator new by symbol interposition: the
// counts below are made inside pl* calls only, where the test itself
// allocates nothing.  Bullet's own allocations go through btAlignedAlloc
// (malloc), not operator new, so failures there are not simulated.
//
// The scenario (every kind of shape, bodies, constraints, recording,
// steps with both solvers, ray cast, contacts, body names, the classic
// broadphase) runs once per countdown value 1, 2, 3, ... until a run sees
// no allocation fail.  In each run:
//   - the call whose allocation failed must report it: its documented
//     failure value (PL_ERR_NOMEM, NULL, -1) and plGetLastError
//     "<function>: out of memory"; a call that fails without an injected
//     failure, or a delete that fails at all, is an error;
//   - the same call, repeated with memory back, must succeed (the failure
//     left the library consistent), and the scenario goes on;
//   - at the end, everything is deleted with every allocation failing:
//     deleting needs no memory.  LeakSanitizer (the ASan pass, label unit)
//     then checks at exit that the failed calls leaked nothing.
// A failure the library absorbs on purpose (a step's carried contact
// state, which the shim drops when it cannot allocate it) is counted
// apart; only the steps may absorb one.
//
// Last, the one exception that is not memory: a C++ pair callback of the
// classic broadphase that throws (PL_ERR_INVALID, "internal error").
//
// Under ASan the replaced operators take precedence over ASan's (the
// executable comes first in symbol lookup) and allocate with malloc/free,
// which ASan intercepts: new and delete stay paired, so ASan's checks
// (and leak detection) still see every block.
#include <rollfric/bullet_c_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

// ---- the allocator -----------------------------------------------------

namespace {

thread_local bool t_armed = false; // inside a pl* call of the scenario
// the rest is touched only by the armed (test's) thread
long g_countdown = 0;           // > 0: the allocation that makes it 0 fails
bool g_fail_all = false;        // every armed allocation fails (the cleanup)
long g_allocations = 0;         // armed allocations, all runs
long g_injected = 0;            // failures injected, all runs
long g_cleanup_allocations = 0; // armed allocations of the deletes

// Whether this allocation (an armed one) fails.
bool inject()
{
    if (!t_armed) {
        return false;
    }
    ++g_allocations;
    if (g_fail_all || (g_countdown > 0 && --g_countdown == 0)) {
        ++g_injected;
        return true;
    }
    return false;
}

void *allocate(std::size_t n)
{
    if (inject()) {
        throw std::bad_alloc();
    }
    void *p = std::malloc(n != 0 ? n : 1);
    if (p == nullptr) {
        throw std::bad_alloc();
    }
    return p;
}

void *allocate_nothrow(std::size_t n) noexcept
{
    return inject() ? nullptr : std::malloc(n != 0 ? n : 1);
}

void *allocate_aligned(std::size_t n, std::align_val_t al, bool throwing)
{
    if (inject()) {
        if (throwing) {
            throw std::bad_alloc();
        }
        return nullptr;
    }
    std::size_t a = (std::size_t)al;
    if (a < sizeof(void *)) {
        a = sizeof(void *);
    }
    void *p = nullptr;
    if (posix_memalign(&p, a, n != 0 ? n : 1) != 0) {
        if (throwing) {
            throw std::bad_alloc();
        }
        return nullptr;
    }
    return p;
}

} // namespace

void *operator new(std::size_t n)
{
    return allocate(n);
}
void *operator new[](std::size_t n)
{
    return allocate(n);
}
void *operator new(std::size_t n, const std::nothrow_t &) noexcept
{
    return allocate_nothrow(n);
}
void *operator new[](std::size_t n, const std::nothrow_t &) noexcept
{
    return allocate_nothrow(n);
}
void *operator new(std::size_t n, std::align_val_t a)
{
    return allocate_aligned(n, a, true);
}
void *operator new[](std::size_t n, std::align_val_t a)
{
    return allocate_aligned(n, a, true);
}
void *operator new(std::size_t n, std::align_val_t a,
                   const std::nothrow_t &) noexcept
{
    return allocate_aligned(n, a, false);
}
void *operator new[](std::size_t n, std::align_val_t a,
                     const std::nothrow_t &) noexcept
{
    return allocate_aligned(n, a, false);
}
void operator delete(void *p) noexcept
{
    std::free(p);
}
void operator delete[](void *p) noexcept
{
    std::free(p);
}
void operator delete(void *p, std::size_t) noexcept
{
    std::free(p);
}
void operator delete[](void *p, std::size_t) noexcept
{
    std::free(p);
}
void operator delete(void *p, const std::nothrow_t &) noexcept
{
    std::free(p);
}
void operator delete[](void *p, const std::nothrow_t &) noexcept
{
    std::free(p);
}
void operator delete(void *p, std::align_val_t) noexcept
{
    std::free(p);
}
void operator delete[](void *p, std::align_val_t) noexcept
{
    std::free(p);
}
void operator delete(void *p, std::size_t, std::align_val_t) noexcept
{
    std::free(p);
}
void operator delete[](void *p, std::size_t, std::align_val_t) noexcept
{
    std::free(p);
}
void operator delete(void *p, std::align_val_t, const std::nothrow_t &) noexcept
{
    std::free(p);
}
void operator delete[](void *p, std::align_val_t,
                       const std::nothrow_t &) noexcept
{
    std::free(p);
}

// ---- judging one call ----------------------------------------------------

namespace {

// What happened to the calls, over all runs.
struct Tally {
    int nomem_runs = 0;                  // runs where a call gave NOMEM
    std::map<std::string, int> nomem;    // ... by function
    std::map<std::string, int> absorbed; // injected, yet the call succeeded
    int errors = 0;                      // test failures
};
Tally g_tally;

bool is_delete(const char *fn)
{
    return std::strncmp(fn, "plDelete", 8) == 0 ||
           std::strncmp(fn, "plDestroy", 9) == 0;
}

int error(const char *fn, const char *what)
{
    std::fprintf(stderr, "%s: %s (last error \"%s\")\n", fn, what,
                 plGetLastError());
    ++g_tally.errors;
    return -1;
}

// The outcome of one call to fn: ok, its status (PL_ERR_NOMEM when the
// failure value carries no status), the failures injected during it.
// 0: succeeded; 1: failed as it must for want of memory; -1: an error.
int judge(const char *fn, bool ok, plStatus st, long injected)
{
    if (ok) {
        if (injected > 0) {
            if (std::strncmp(fn, "plStep", 6) != 0) {
                return error(fn, "an allocation failed, yet it succeeded");
            }
            ++g_tally.absorbed[fn];
        }
        return 0;
    }
    if (injected == 0) {
        return error(fn, "failed with all the memory it asked for");
    }
    if (is_delete(fn)) {
        return error(fn, "a delete failed for want of memory");
    }
    if (st != PL_ERR_NOMEM) {
        return error(fn, "failed, not with PL_ERR_NOMEM");
    }
    const char *e = plGetLastError();
    const size_t n = std::strlen(fn);
    if (std::strncmp(e, fn, n) != 0 || e[n] != ':' ||
        std::strstr(e, "out of memory") == nullptr) {
        return error(fn, "the message is not \"<function>: out of memory\"");
    }
    return 1;
}

// Run f (one pl* call) armed; count the failures injected into it.
template <class F> auto armed(F &&f, long *injected) -> decltype(f())
{
    const long before = g_injected;
    t_armed = true;
    auto r = f();
    t_armed = false;
    *injected = g_injected - before;
    return r;
}

// A call returning plStatus.
template <class F> int status_call(const char *fn, F &&f)
{
    long injected;
    const plStatus st = armed(f, &injected);
    return judge(fn, st == PL_OK, st, injected);
}

// A call returning a handle (NULL on failure), kept in *out.
template <class H, class F> int handle_call(const char *fn, H *out, F &&f)
{
    long injected;
    const H h = armed(f, &injected);
    if (h != nullptr) {
        *out = h;
    }
    return judge(fn, h != nullptr, PL_ERR_NOMEM, injected);
}

// A call returning int or double (-1 on failure).
template <class F> int value_call(const char *fn, F &&f)
{
    long injected;
    const double v = (double)armed(f, &injected);
    return judge(fn, v != -1.0, PL_ERR_NOMEM, injected);
}

// ---- the scenario ----------------------------------------------------------

int g_pairs_begun = 0, g_pairs_ended = 0; // the broadphase's callbacks

void pair_begins(void *, void *, void *)
{
    ++g_pairs_begun;
}
void pair_ends(void *, void *, void *)
{
    ++g_pairs_ended;
}

struct Scene {
    plPhysicsSdkHandle sdk = nullptr;
    plDynamicsWorldHandle world = nullptr, world2 = nullptr;
    plCollisionShapeHandle box = nullptr, ball = nullptr, capsule = nullptr,
                           cone = nullptr, cylinder = nullptr, plane = nullptr,
                           hull = nullptr, compound = nullptr, mesh = nullptr,
                           mesh2 = nullptr;
    plMeshInterfaceHandle mesh_if = nullptr;
    plRigidBodyHandle ground = nullptr, floor = nullptr, terrain = nullptr,
                      terrain2 = nullptr, ball_b = nullptr, capsule_b = nullptr,
                      cone_b = nullptr, cylinder_b = nullptr, hull_b = nullptr,
                      compound_b = nullptr, spare_b = nullptr;
    plConstraintHandle p2p = nullptr, hinge = nullptr, friction = nullptr,
                       spare_c = nullptr;
    plCollisionBroadphaseHandle bp = nullptr;
    plBroadphaseProxyHandle proxy[3] = {nullptr, nullptr, nullptr};
    plCollisionWorldHandle cw = nullptr;
};

// the recordings: world's (stopped in the scenario) and world2's (left
// open: deleting the SDK closes it, with no memory)
char g_path[64], g_path2[64];

// One step of the scenario: a single pl* call, judged (0, 1 or -1).
using Step = std::function<int(Scene &)>;

std::vector<Step> scenario(const rf_config &one_thread)
{
    std::vector<Step> s;
    auto add = [&s](Step f) { s.push_back(std::move(f)); };
    // SDK, worlds, solver
    add([](Scene &c) {
        return handle_call("plNewBulletSdk", &c.sdk,
                           [] { return plNewBulletSdk(); });
    });
    add([](Scene &c) {
        return handle_call("plCreateDynamicsWorld", &c.world,
                           [&] { return plCreateDynamicsWorld(c.sdk); });
    });
    add([](Scene &c) {
        return handle_call("plCreateDynamicsWorld", &c.world2,
                           [&] { return plCreateDynamicsWorld(c.sdk); });
    });
    add([one_thread](Scene &c) {
        return status_call("plSetSolverConfig", [&] {
            return plSetSolverConfig(c.world, &one_thread);
        });
    });
    // shapes of every kind
    add([](Scene &c) {
        return handle_call("plNewBoxShape", &c.box,
                           [] { return plNewBoxShape(5, 0.5f, 5); });
    });
    add([](Scene &c) {
        return handle_call("plNewSphereShape", &c.ball,
                           [] { return plNewSphereShape(0.5f); });
    });
    add([](Scene &c) {
        return handle_call("plNewCapsuleShapeAxis", &c.capsule,
                           [] { return plNewCapsuleShapeAxis(0.2f, 0.3f, 0); });
    });
    add([](Scene &c) {
        return handle_call("plNewConeShape", &c.cone,
                           [] { return plNewConeShape(0.3f, 0.6f); });
    });
    add([](Scene &c) {
        return handle_call("plNewCylinderShapeAxis", &c.cylinder, [] {
            return plNewCylinderShapeAxis(0.3f, 0.2f, 2);
        });
    });
    add([](Scene &c) {
        static const plVector3 up = {0, 1, 0};
        return handle_call("plNewStaticPlaneShape", &c.plane,
                           [] { return plNewStaticPlaneShape(up, -3); });
    });
    add([](Scene &c) {
        return handle_call("plNewConvexHullShape", &c.hull,
                           [] { return plNewConvexHullShape(); });
    });
    for (int k = 0; k < 8; ++k) { // a cube's corners
        add([k](Scene &c) {
            const plReal x = (k & 1) ? 0.3f : -0.3f, y = (k & 2) ? 0.3f : -0.3f,
                         z = (k & 4) ? 0.3f : -0.3f;
            return status_call("plAddVertex",
                               [&] { return plAddVertex(c.hull, x, y, z); });
        });
    }
    add([](Scene &c) {
        return handle_call("plNewCompoundShape", &c.compound,
                           [] { return plNewCompoundShape(); });
    });
    for (int k = 0; k < 2; ++k) {
        add([k](Scene &c) {
            const plVector3 pos = {k ? 0.6f : -0.6f, 0, 0};
            const plQuaternion orn = {0, 0, 0, 1};
            return status_call("plAddChildShape", [&] {
                return plAddChildShape(c.compound, k ? c.ball : c.cone, pos,
                                       orn);
            });
        });
    }
    add([](Scene &c) {
        static const plVector3 s = {1, 1, 2};
        return status_call("plSetScaling",
                           [&] { return plSetScaling(c.cylinder, s); });
    });
    add([](Scene &c) {
        static const plReal v[12] = {-2, 0, -2, 2, 0, -2, 2, 0, 2, -2, 0, 2};
        static const int idx[6] = {0, 1, 2, 0, 2, 3};
        return handle_call("plNewStaticTriangleMeshShapeIndexed", &c.mesh, [] {
            return plNewStaticTriangleMeshShapeIndexed(v, 4, idx, 2);
        });
    });
    add([](Scene &c) {
        return handle_call("plNewMeshInterface", &c.mesh_if,
                           [] { return plNewMeshInterface(); });
    });
    for (int k = 0; k < 2; ++k) {
        add([k](Scene &c) {
            const plVector3 a = {-2, 0, -2}, b = {2, 0, (plReal)(k ? 2 : -2)},
                            d = {(plReal)(k ? -2 : 2), 0, 2};
            return status_call("plAddTriangle", [&] {
                return k ? plAddTriangle(c.mesh_if, a, b, d)
                         : plAddTriangle(c.mesh_if, a, d, b);
            });
        });
    }
    add([](Scene &c) {
        return handle_call("plNewStaticTriangleMeshShape", &c.mesh2, [&] {
            return plNewStaticTriangleMeshShape(c.mesh_if);
        });
    });
    add([](Scene &c) {
        return status_call("plDeleteMeshInterface", [&] {
            plStatus st = plDeleteMeshInterface(c.mesh_if);
            if (st == PL_OK) {
                c.mesh_if = nullptr;
            }
            return st;
        });
    });
    // bodies
    struct BodyDesc {
        plRigidBodyHandle Scene::*body;
        plCollisionShapeHandle Scene::*shape;
        float mass;
        plReal x, y, z;
    };
    static const BodyDesc bodies[] = {
        {&Scene::ground, &Scene::box, 0, 0, -0.5f, 0},
        {&Scene::floor, &Scene::plane, 0, 0, 0, 0},
        {&Scene::terrain, &Scene::mesh, 0, 20, 0, 0},
        {&Scene::terrain2, &Scene::mesh2, 0, -20, 0, 0},
        {&Scene::ball_b, &Scene::ball, 1, 0, 0.5f, 0},
        {&Scene::capsule_b, &Scene::capsule, 1, 2, 0.25f, 0},
        {&Scene::cone_b, &Scene::cone, 1, 2, 1.5f, 0},
        {&Scene::cylinder_b, &Scene::cylinder, 1, -2, 1, 0},
        {&Scene::hull_b, &Scene::hull, 2, 0, 0.35f, 2},
        {&Scene::compound_b, &Scene::compound, 1, 0, 1, -2},
        {&Scene::spare_b, &Scene::ball, 1, 3, 0.5f, 3},
    };
    for (const BodyDesc &d : bodies) {
        add([d](Scene &c) {
            return handle_call("plCreateRigidBody", &(c.*d.body), [&] {
                return plCreateRigidBody(nullptr, d.mass, c.*d.shape);
            });
        });
        add([d](Scene &c) {
            const plVector3 p = {d.x, d.y, d.z};
            return status_call("plSetPosition",
                               [&] { return plSetPosition(c.*d.body, p); });
        });
    }
    add([](Scene &c) { // before the body is in a world: kept with it
        return status_call("plSetBodyName",
                           [&] { return plSetBodyName(c.ball_b, "ball"); });
    });
    add([](Scene &c) {
        return status_call("plSetCohesion",
                           [&] { return plSetCohesion(c.ball_b, 2); });
    });
    add([](Scene &c) {
        return status_call("plSetYield",
                           [&] { return plSetYield(c.cone_b, 500); });
    });
    add([](Scene &c) {
        return status_call("plSetRollingFriction", [&] {
            return plSetRollingFriction(c.ball_b, 0.05f);
        });
    });
    for (const BodyDesc &d : bodies) {
        add([d](Scene &c) {
            plDynamicsWorldHandle w =
                d.body == &Scene::spare_b ? c.world2 : c.world;
            return status_call("plAddRigidBody",
                               [&] { return plAddRigidBody(w, c.*d.body); });
        });
    }
    add([](Scene &c) { // in a world: the plugin gets it now
        return status_call("plSetBodyName", [&] {
            return plSetBodyName(c.hull_b, "a convex hull, named at length");
        });
    });
    add([](Scene &c) {
        return status_call("plSetCohesion",
                           [&] { return plSetCohesion(c.hull_b, 1); });
    });
    // constraints
    add([](Scene &c) {
        static const plVector3 pa = {0, 0.5f, 0}, pb = {0, -0.5f, 0};
        return handle_call("plNewPoint2PointConstraint", &c.p2p, [&] {
            return plNewPoint2PointConstraint(c.capsule_b, c.cone_b, pa, pb);
        });
    });
    add([](Scene &c) {
        static const plVector3 pa = {0, 0.5f, 0}, ax = {0, 0, 1};
        return handle_call("plNewHingeConstraint", &c.hinge, [&] {
            return plNewHingeConstraint(c.cylinder_b, nullptr, pa, nullptr, ax,
                                        nullptr);
        });
    });
    add([](Scene &c) {
        static const plVector3 ax = {1, 0, 0};
        return handle_call("plNewLinearFriction", &c.friction, [&] {
            return plNewLinearFriction(c.hull_b, nullptr, ax, 1);
        });
    });
    add([](Scene &c) {
        static const plVector3 pa = {0, 0.5f, 0};
        return handle_call("plNewPoint2PointConstraint", &c.spare_c, [&] {
            return plNewPoint2PointConstraint(c.ball_b, nullptr, pa, nullptr);
        });
    });
    for (plConstraintHandle Scene::*k :
         {&Scene::p2p, &Scene::hinge, &Scene::friction, &Scene::spare_c}) {
        add([k](Scene &c) {
            return status_call("plAddConstraint", [&] {
                return plAddConstraint(c.world, c.*k, 0);
            });
        });
    }
    add([](Scene &c) {
        return status_call("plEnableHingeMotor", [&] {
            return plEnableHingeMotor(c.hinge, 1, 1, 10);
        });
    });
    add([](Scene &c) {
        return status_call("plSetHingeLimit",
                           [&] { return plSetHingeLimit(c.hinge, -1, 1); });
    });
    // a recording, steps with both solvers
    add([](Scene &c) {
        return status_call("plStartRecording", [&] {
            return plStartRecording(c.world, g_path, 1.0f / 60, 1);
        });
    });
    auto step = [](Scene &c) {
        return status_call("plStepSimulationFixed", [&] {
            return plStepSimulationFixed(c.world, 1.0f / 60, 1, 1.0f / 60);
        });
    };
    add([](Scene &c) {
        return status_call("plStartRecording", [&] {
            return plStartRecording(c.world2, g_path2, 0, 0);
        });
    });
    for (int k = 0; k < 4; ++k) {
        add(step);
    }
    add([](Scene &c) { // named again during the recording
        return status_call("plSetBodyName",
                           [&] { return plSetBodyName(c.ball_b, "ball 2"); });
    });
    add([](Scene &c) {
        return status_call("plSetContactSolver", [&] {
            return plSetContactSolver(c.world, PL_SOLVER_STOCK);
        });
    });
    add(step);
    add([](Scene &c) {
        return status_call("plSetContactSolver", [&] {
            return plSetContactSolver(c.world, PL_SOLVER_CONE);
        });
    });
    add(step);
    add([](Scene &c) {
        return status_call("plStepSimulation",
                           [&] { return plStepSimulation(c.world2, 0.02f); });
    });
    // what the world tells
    add([](Scene &c) {
        static const plVector3 from = {0, 5, 0}, to = {0, -5, 0};
        plRayCastResult res;
        return value_call("plRayCast",
                          [&] { return plRayCast(c.world, from, to, &res); });
    });
    add([](Scene &c) {
        plContactInfo out[16];
        return value_call("plGetContacts",
                          [&] { return plGetContacts(c.ball_b, out, 16); });
    });
    add([](Scene &c) {
        rf_stats st;
        return status_call("plGetSolverStats",
                           [&] { return plGetSolverStats(c.world, &st); });
    });
    add([](Scene &c) {
        plVector3 p;
        return status_call("plGetPosition",
                           [&] { return plGetPosition(c.ball_b, p); });
    });
    add([](Scene &c) {
        return status_call("plStopRecording",
                           [&] { return plStopRecording(c.world); });
    });
    // a constraint out again, deleted
    add([](Scene &c) {
        return status_call("plRemoveConstraint", [&] {
            return plRemoveConstraint(c.world, c.spare_c);
        });
    });
    add([](Scene &c) {
        return status_call("plDeleteConstraint", [&] {
            plStatus st = plDeleteConstraint(c.spare_c);
            if (st == PL_OK) {
                c.spare_c = nullptr;
            }
            return st;
        });
    });
    // the classic collision-only part
    add([](Scene &c) {
        return handle_call("plCreateSapBroadphase", &c.bp, [] {
            return plCreateSapBroadphase(pair_begins, pair_ends);
        });
    });
    for (int k = 0; k < 3; ++k) {
        add([k](Scene &c) {
            const plReal x = (plReal)k;
            return handle_call("plCreateProxy", &c.proxy[k], [&] {
                return plCreateProxy(c.bp, &c.proxy[k], x, 0, 0, x + 1.5f, 1,
                                     1);
            });
        });
    }
    add([](Scene &c) {
        return status_call("plSetBoundingBox", [&] {
            return plSetBoundingBox(c.proxy[0], 5, 0, 0, 6, 1, 1);
        });
    });
    add([](Scene &c) {
        return status_call("plDestroyProxy", [&] {
            plStatus st = plDestroyProxy(c.bp, c.proxy[1]);
            if (st == PL_OK) {
                c.proxy[1] = nullptr;
            }
            return st;
        });
    });
    add([](Scene &c) {
        return handle_call("plCreateCollisionWorld", &c.cw,
                           [&] { return plCreateCollisionWorld(c.sdk); });
    });
    add([](Scene &) {
        float p1[3] = {0, 0, 0}, p2[3] = {1, 0, 0}, p3[3] = {0, 1, 0};
        float q1[3] = {0, 0, 1}, q2[3] = {1, 0, 1}, q3[3] = {0, 1, 1};
        float pa[3], pb[3], n[3];
        return value_call("plNearestPoints", [&] {
            return plNearestPoints(p1, p2, p3, q1, q2, q3, pa, pb, n);
        });
    });
    return s;
}

// Delete everything in c (every allocation failing meanwhile): each
// delete must succeed.  0, or -1 with the error counted.
int cleanup(Scene &c)
{
    int rc = 0;
    auto del = [&rc](const char *fn, auto f) {
        long injected;
        const plStatus st = armed(f, &injected);
        if (st != PL_OK && error(fn, "a delete failed") < 0) {
            rc = -1;
        }
    };
    for (plConstraintHandle h : {c.p2p, c.hinge, c.friction, c.spare_c}) {
        if (h != nullptr) {
            del("plDeleteConstraint", [&] { return plDeleteConstraint(h); });
        }
    }
    for (plRigidBodyHandle h :
         {c.ground, c.floor, c.terrain, c.terrain2, c.ball_b, c.capsule_b,
          c.cone_b, c.cylinder_b, c.hull_b, c.compound_b, c.spare_b}) {
        if (h != nullptr) {
            del("plDeleteRigidBody", [&] { return plDeleteRigidBody(h); });
        }
    }
    // the compound before its children
    for (plCollisionShapeHandle h :
         {c.compound, c.box, c.ball, c.capsule, c.cone, c.cylinder, c.plane,
          c.hull, c.mesh, c.mesh2}) {
        if (h != nullptr) {
            del("plDeleteShape", [&] { return plDeleteShape(h); });
        }
    }
    if (c.mesh_if != nullptr) {
        del("plDeleteMeshInterface",
            [&] { return plDeleteMeshInterface(c.mesh_if); });
    }
    if (c.bp != nullptr) {
        if (c.proxy[2] != nullptr) {
            del("plDestroyProxy",
                [&] { return plDestroyProxy(c.bp, c.proxy[2]); });
        }
        del("plDestroyBroadphase", [&] { return plDestroyBroadphase(c.bp); });
    }
    if (c.cw != nullptr) {
        del("plDeleteCollisionWorld",
            [&] { return plDeleteCollisionWorld(c.cw); });
    }
    if (c.world != nullptr) { // world2 goes with the SDK
        del("plDeleteDynamicsWorld",
            [&] { return plDeleteDynamicsWorld(c.world); });
    }
    if (c.sdk != nullptr) {
        del("plDeletePhysicsSdk", [&] { return plDeletePhysicsSdk(c.sdk); });
    }
    return rc;
}

// One run of the scenario with the countdown at k (0: no failure).
// Returns the number of failures injected, or -1 on an error.
long run(const std::vector<Step> &steps, long k, std::string *failed_in)
{
    Scene c;
    g_countdown = k;
    const long injected0 = g_injected;
    failed_in->clear();
    for (const Step &st : steps) {
        const int r = st(c);
        if (r < 0) {
            return -1;
        }
        if (r == 1) { // failed for want of memory: again, with memory back
            if (!failed_in->empty()) {
                error(failed_in->c_str(), "a second call failed in one run");
                return -1;
            }
            *failed_in = plGetLastError();
            *failed_in = failed_in->substr(0, failed_in->find(':'));
            if (st(c) != 0) {
                error(failed_in->c_str(), "failed again with memory back");
                return -1;
            }
        }
    }
    const long injected = g_injected - injected0;
    g_countdown = 0;
    g_fail_all = true;
    const long before = g_allocations;
    const int rc = cleanup(c);
    g_cleanup_allocations += g_allocations - before;
    g_fail_all = false;
    std::remove(g_path);
    std::remove(g_path2);
    return rc < 0 ? -1 : injected;
}

// Not memory: an exception a C++ pair callback throws is not allocation
// failure but an "internal error" (PL_ERR_INVALID); Bullet's sweep
// finishes before it is reported, so the broadphase stays whole.
void throwing_pair(void *, void *, void *)
{
    throw std::runtime_error("the callback threw");
}

int test_throwing_callbacks()
{
    plPhysicsSdkHandle sdk = plNewBulletSdk();
    plCollisionBroadphaseHandle bp =
        plCreateSapBroadphase(throwing_pair, throwing_pair);
    int bad = sdk == nullptr || bp == nullptr;
    plBroadphaseProxyHandle a = plCreateProxy(bp, nullptr, 0, 0, 0, 1, 1, 1);
    bad |= a == nullptr;
    // b overlaps a: the begin callback throws inside createProxy
    plBroadphaseProxyHandle b = plCreateProxy(bp, nullptr, 0, 0, 0, 1, 1, 1);
    bad |=
        b != nullptr ||
        std::strcmp(plGetLastError(),
                    "plCreateProxy: internal error: the callback threw") != 0;
    plBroadphaseProxyHandle c = plCreateProxy(bp, nullptr, 5, 5, 5, 6, 6, 6);
    bad |= c == nullptr;
    // c moves onto a and away again: begin, then end throw
    bad |= plSetBoundingBox(c, 0, 0, 0, 1, 1, 1) != PL_ERR_INVALID;
    bad |= plSetBoundingBox(c, 5, 5, 5, 6, 6, 6) != PL_ERR_INVALID;
    bad |= plSetBoundingBox(c, 7, 7, 7, 8, 8, 8) != PL_OK; // nothing met
    bad |= plDestroyProxy(bp, c) != PL_OK;
    bad |= plDestroyBroadphase(bp) != PL_OK; // b's proxy with it
    bad |= plDeletePhysicsSdk(sdk) != PL_OK;
    if (bad) {
        std::fprintf(stderr,
                     "throwing callbacks: wrong outcome (last error "
                     "\"%s\")\n",
                     plGetLastError());
        return 1;
    }
    std::printf("throwing pair callbacks: PL_ERR_INVALID, internal error\n");
    return 0;
}

} // namespace

int main()
{
    std::snprintf(g_path, sizeof g_path, "test_c_api_nomem_%d.rec",
                  (int)(8 * sizeof(plReal)));
    std::snprintf(g_path2, sizeof g_path2, "test_c_api_nomem_%d_2.rec",
                  (int)(8 * sizeof(plReal)));
    rf_config one_thread; // no OpenMP team: a failure stays on this thread
    plGetDefaultSolverConfig(&one_thread);
    one_thread.threads = 1;
    const std::vector<Step> steps = scenario(one_thread);

    // the scenario without failures, twice (the first run also makes the
    // library's one-time allocations), counting the second's allocations
    std::string failed_in;
    long per_run = 0;
    for (int pass = 0; pass < 2; ++pass) {
        const long before = g_allocations;
        if (run(steps, 0, &failed_in) != 0) {
            std::fprintf(stderr,
                         "the scenario fails without injected failures\n");
            return 1;
        }
        per_run = g_allocations - before;
    }
    std::printf("the scenario: %zu pl* calls, %ld allocations through "
                "operator new inside them\n",
                steps.size(), per_run);

    long k = 1, points = 0;
    for (; k < 100000; ++k) {
        const long injected = run(steps, k, &failed_in);
        if (injected < 0) {
            std::fprintf(stderr, "run with countdown %ld failed\n", k);
            return 1;
        }
        if (injected == 0) {
            break; // the countdown outlasted the scenario
        }
        ++points;
        if (!failed_in.empty()) {
            ++g_tally.nomem_runs;
            ++g_tally.nomem[failed_in];
        }
    }
    std::printf("PL_ERR_NOMEM by function:");
    for (const auto &kv : g_tally.nomem) {
        std::printf(" %s %d", kv.first.c_str(), kv.second);
    }
    std::printf("\nabsorbed by function:");
    for (const auto &kv : g_tally.absorbed) {
        std::printf(" %s %d", kv.first.c_str(), kv.second);
    }
    int absorbed = 0;
    for (const auto &kv : g_tally.absorbed) {
        absorbed += kv.second;
    }
    std::printf("\ntest_c_api_nomem: %ld injection points, %d gave "
                "PL_ERR_NOMEM (%zu functions), %d absorbed by a step, "
                "%d errors; every delete succeeded with no memory (%ld "
                "allocations tried)\n",
                points, g_tally.nomem_runs, g_tally.nomem.size(), absorbed,
                g_tally.errors, g_cleanup_allocations);
    const bool ok = test_throwing_callbacks() == 0 && g_tally.errors == 0 &&
                    per_run >= 50 && g_tally.nomem_runs >= 50 &&
                    points == per_run &&
                    g_tally.nomem_runs + absorbed == points;
    std::printf("%s\n", ok ? "passed" : "FAILED");
    return ok ? 0 : 1;
}
