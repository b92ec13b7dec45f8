/*
 * The pl* C API (include/rollfric/bullet_c_api.h), compiled as C against
 * librollfric.so: every function group, the analytic rolling distance
 * through pl* calls only, and every bad-input case (error status, a
 * message naming the argument, nothing changed).
 */
#include <rollfric/bullet_c_api.h>

#include "../test_util.h"

#include <string.h>

#define PI 3.14159265358979323846

/* The last error mentions `what`. */
static int error_says(const char *what)
{
    const char *e = plGetLastError();
    if (strstr(e, what) == NULL) {
        fprintf(stderr, "last error \"%s\" does not mention \"%s\"\n", e, what);
        return 0;
    }
    return 1;
}

/* Before any SDK, creation is refused; an SDK of the wrong precision is
   refused with the library to use. */
static int test_precision_and_order(void)
{
    ENSURE(plNewSphereShape(1) == NULL);
    ENSURE(error_says("plNewBulletSdk"));
    ENSURE(plNewBulletSdkChecked(sizeof(plReal) == 4 ? 8 : 4) == NULL);
    ENSURE(error_says(sizeof(plReal) == 4 ? "librollfric-float64.so"
                                          : "librollfric.so"));
    plPhysicsSdkHandle sdk = plNewBulletSdk();
    ENSURE(sdk != NULL);
    ENSURE(plDeletePhysicsSdk(sdk) == PL_OK);
    ENSURE(plDeletePhysicsSdk(sdk) == PL_ERR_HANDLE); /* stale */
    ENSURE(plNewSphereShape(1) == NULL); /* no SDK left */
    return 0;
}

typedef struct scene {
    plPhysicsSdkHandle sdk;
    plDynamicsWorldHandle world;
    plCollisionShapeHandle plane, ball;
    plRigidBodyHandle ground, body;
} scene;

/* Ground plane y = 0 (friction 1) and a ball R = 0.5, m = 1 at rest on it
   (friction 0.9, rolling 0.036 m), sleeping off. */
static int scene_make(scene *s, int solver)
{
    const plVector3 up = {0, 1, 0}, at = {0, 0.5f, 0};
    s->sdk = plNewBulletSdk();
    ENSURE(s->sdk != NULL);
    s->world = plCreateDynamicsWorld(s->sdk);
    ENSURE(s->world != NULL);
    ENSURE(plSetContactSolver(s->world, (plSolver)solver) == PL_OK);
    s->plane = plNewStaticPlaneShape(up, 0);
    s->ball = plNewSphereShape(0.5f);
    ENSURE(s->plane != NULL && s->ball != NULL);
    s->ground = plCreateRigidBody(NULL, 0, s->plane);
    s->body = plCreateRigidBody((void *)s, 1, s->ball);
    ENSURE(s->ground != NULL && s->body != NULL);
    ENSURE(plSetFriction(s->ground, 1) == PL_OK);
    ENSURE(plSetFriction(s->body, 0.9f) == PL_OK);
    ENSURE(plSetRollingFriction(s->body, 0.036f) == PL_OK);
    ENSURE(plSetSleeping(s->body, 0) == PL_OK);
    ENSURE(plSetPosition(s->body, at) == PL_OK);
    ENSURE(plAddRigidBody(s->world, s->ground) == PL_OK);
    ENSURE(plAddRigidBody(s->world, s->body) == PL_OK);
    return 0;
}

static void scene_free(scene *s)
{
    plDeleteRigidBody(s->body);
    plDeleteRigidBody(s->ground);
    plDeleteShape(s->ball);
    plDeleteShape(s->plane);
    plDeleteDynamicsWorld(s->world);
    plDeletePhysicsSdk(s->sdk);
}

/* A ball rolled at 45 deg without slip at 2 m/s stops after v^2 / (2 a),
   a = rho g / (R (1 + 2/5)) (Tasora-Anitescu §6.1): combined rolling
   friction 0.036 x ground friction 1 = 0.036 m, so d = 3.964 m; semi-
   implicit Euler at 1/60 s is short by ~v h / 2 (0.4%), bound 1%. */
static int test_rolling_distance(void)
{
    const double R = 0.5, v0 = 2.0, g = 9.81, rho = 0.036;
    const double d_ref = v0 * v0 / (2 * rho * g / (R * 1.4));
    for (int solver = 0; solver < 2; ++solver) {
        scene s;
        if (scene_make(&s, solver)) {
            return 1;
        }
        const double c = v0 / sqrt(2.0);
        const plVector3 v = {(plReal)c, 0, (plReal)c};
        const plVector3 w = {(plReal)(c / R), 0, (plReal)(-c / R)};
        ENSURE(plSetLinearVelocity(s.body, v) == PL_OK);
        ENSURE(plSetAngularVelocity(s.body, w) == PL_OK);
        for (int i = 0; i < 360; ++i) {
            ENSURE(plStepSimulationFixed(s.world, 1.0f / 60, 1, 1.0f / 60) ==
                   PL_OK);
        }
        plVector3 p, vel;
        ENSURE(plGetPosition(s.body, p) == PL_OK);
        ENSURE(plGetLinearVelocity(s.body, vel) == PL_OK);
        const double d = sqrt((double)p[0] * p[0] + (double)p[2] * p[2]);
        rf_stats st;
        ENSURE(plGetSolverStats(s.world, &st) == PL_OK);
        printf("  %s: distance %.4f m (analytic %.4f, %+.2f%%), final speed "
               "%.2e, heading %.3f deg\n",
               solver ? "cone " : "stock", d, d_ref, 100 * (d / d_ref - 1),
               sqrt((double)vel[0] * vel[0] + (double)vel[2] * vel[2]),
               atan2(p[2], p[0]) * 180 / PI);
        if (solver == PL_SOLVER_CONE) {
            ENSURE_SMALL(d / d_ref - 1, 0.01);
            ENSURE_SMALL(atan2(p[2], p[0]) * 180 / PI - 45, 0.1);
            ENSURE(st.contacts >= 1 && st.rows == 6 * st.contacts);
        }
        scene_free(&s);
    }
    return 0;
}

/* Bad input: every call fails with the right status, says which argument,
   and leaves the body as it was. */
static int test_bad_input(void)
{
    scene s;
    if (scene_make(&s, PL_SOLVER_CONE)) {
        return 1;
    }
    plVector3 p0, v0, p1, v1;
    ENSURE(plGetPosition(s.body, p0) == PL_OK);
    ENSURE(plGetLinearVelocity(s.body, v0) == PL_OK);
    const plVector3 nan3 = {NAN, 0, 0}, ok3 = {1, 2, 3};
    const plQuaternion zero_q = {0, 0, 0, 0};

    ENSURE(plStepSimulation(NULL, 0.01f) == PL_ERR_NULL);
    ENSURE(error_says("world"));
    ENSURE(plStepSimulation(s.world, 0) == PL_ERR_INVALID);
    ENSURE(error_says("dt"));
    ENSURE(plStepSimulation(s.world, NAN) == PL_ERR_NONFINITE);
    ENSURE(plStepSimulationFixed(s.world, 0.1f, 0, 0.01f) == PL_ERR_INVALID);
    ENSURE(error_says("max_substeps"));
    /* wrong kind of handle, a forged one */
    ENSURE(plStepSimulation((plDynamicsWorldHandle)s.body, 0.01f) ==
           PL_ERR_HANDLE);
    ENSURE(error_says("rigid body"));
    ENSURE(plStepSimulation((plDynamicsWorldHandle)(uintptr_t)0xdead, 0.01f) ==
           PL_ERR_HANDLE);
    ENSURE(plSetLinearVelocity(s.body, nan3) == PL_ERR_NONFINITE);
    ENSURE(plSetLinearVelocity(s.body, NULL) == PL_ERR_NULL);
    ENSURE(plSetPosition(s.body, nan3) == PL_ERR_NONFINITE);
    ENSURE(error_says("position"));
    ENSURE(plSetOrientation(s.body, zero_q) == PL_ERR_INVALID);
    ENSURE(plSetFriction(s.body, -1) == PL_ERR_INVALID);
    ENSURE(plSetRollingFriction(s.body, INFINITY) == PL_ERR_NONFINITE);
    ENSURE(plSetDamping(s.body, 2, 0) == PL_ERR_INVALID);
    ENSURE(plSetSleeping(s.body, 7) == PL_ERR_INVALID);
    ENSURE(plSetGravity(s.world, nan3) == PL_ERR_NONFINITE);
    ENSURE(plSetContactSolver(s.world, (plSolver)9) == PL_ERR_INVALID);
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.max_iter = 0;
    ENSURE(plSetSolverConfig(s.world, &cfg) == PL_ERR_INVALID);
    ENSURE(error_says("max_iter"));
    ENSURE(plCreateRigidBody(NULL, -1, s.ball) == NULL);
    ENSURE(error_says("mass"));
    ENSURE(plCreateRigidBody(NULL, NAN, s.ball) == NULL);
    ENSURE(plCreateRigidBody(NULL, 1, s.plane) == NULL); /* dynamic plane */
    ENSURE(plCreateRigidBody(NULL, 1, NULL) == NULL);
    ENSURE(plNewSphereShape(-1) == NULL);
    ENSURE(error_says("radius"));
    ENSURE(plNewBoxShape(1, 0, 1) == NULL);
    ENSURE(plNewCapsuleShape(1, NAN) == NULL);
    ENSURE(plAddRigidBody(s.world, s.body) == PL_ERR_STATE); /* twice */
    ENSURE(plDeleteShape(s.ball) == PL_ERR_STATE);          /* in use */
    ENSURE(error_says("used by 1"));
    ENSURE(plSetScaling(s.ball, ok3) == PL_ERR_STATE);
    ENSURE(plGetPosition(s.body, NULL) == PL_ERR_NULL);

    ENSURE(plGetPosition(s.body, p1) == PL_OK);
    ENSURE(plGetLinearVelocity(s.body, v1) == PL_OK);
    ENSURE(memcmp(p0, p1, sizeof p0) == 0 && memcmp(v0, v1, sizeof v0) == 0);

    /* stale handles after delete */
    plRigidBodyHandle b = plCreateRigidBody(NULL, 2, s.ball);
    ENSURE(b != NULL);
    ENSURE(plAddRigidBody(s.world, b) == PL_OK);
    ENSURE(plDeleteRigidBody(b) == PL_OK); /* removed from the world too */
    ENSURE(plGetPosition(b, p1) == PL_ERR_HANDLE);
    ENSURE(error_says("not a live handle"));
    ENSURE(plDeleteRigidBody(b) == PL_ERR_HANDLE);
    /* a new body may reuse the slot: the old handle still fails */
    plRigidBodyHandle b2 = plCreateRigidBody(NULL, 2, s.ball);
    ENSURE(b2 != NULL && b2 != b);
    ENSURE(plGetPosition(b, p1) == PL_ERR_HANDLE);
    ENSURE(plDeleteRigidBody(b2) == PL_OK);
    ENSURE(plStepSimulationFixed(s.world, 1.0f / 60, 1, 1.0f / 60) == PL_OK);
    scene_free(&s);
    return 0;
}

/* Shapes, transforms, queries, solver switch, deletion order. */
static int test_groups(void)
{
    plPhysicsSdkHandle sdk = plNewBulletSdk();
    plDynamicsWorldHandle world = plCreateDynamicsWorld(sdk);
    ENSURE(world != NULL);
    const plVector3 zero = {0, 0, 0}, g0 = {0, 0, 0};
    ENSURE(plSetGravity(world, g0) == PL_OK);
    plCollisionShapeHandle sh[6] = {
        plNewBoxShape(0.5f, 0.5f, 0.5f), plNewCapsuleShape(0.2f, 0.5f),
        plNewConeShape(0.3f, 1), plNewCylinderShape(0.3f, 0.5f),
        plNewCompoundShape(), plNewConvexHullShape()};
    for (int k = 0; k < 6; ++k) {
        ENSURE(sh[k] != NULL);
    }
    const plQuaternion id = {0, 0, 0, 1};
    const plVector3 off = {0, 1, 0};
    ENSURE(plAddChildShape(sh[4], sh[0], zero, id) == PL_OK);
    ENSURE(plAddChildShape(sh[4], sh[1], off, id) == PL_OK);
    ENSURE(plAddChildShape(sh[0], sh[1], off, id) == PL_ERR_INVALID);
    ENSURE(plAddChildShape(sh[4], sh[4], off, id) == PL_ERR_INVALID);
    ENSURE(plDeleteShape(sh[0]) == PL_ERR_STATE); /* child of a compound */
    for (int k = 0; k < 8; ++k) {
        ENSURE(plAddVertex(sh[5], (plReal)(k & 1), (plReal)((k >> 1) & 1),
                           (plReal)(k >> 2)) == PL_OK);
    }
    ENSURE(plAddVertex(sh[0], 0, 0, 0) == PL_ERR_INVALID);
    const plVector3 two = {2, 2, 2};
    ENSURE(plSetScaling(sh[3], two) == PL_OK);

    /* a box at (3, 0, 0): the ray from the origin along +x hits its face
       x = 2.5 with normal -x (box half extent 0.5) */
    plRigidBodyHandle box = plCreateRigidBody((void *)world, 0, sh[0]);
    ENSURE(plGetUserData(box) == (void *)world);
    const plVector3 at = {3, 0, 0};
    ENSURE(plSetPosition(box, at) == PL_OK);
    ENSURE(plAddRigidBody(world, box) == PL_OK);
    plRayCastResult hit;
    const plVector3 from = {0, 0, 0}, to = {10, 0, 0}, miss = {0, 10, 0};
    ENSURE(plRayCast(world, from, to, &hit) == 1);
    ENSURE(hit.m_body == box && hit.m_shape == sh[0]);
    ENSURE_SMALL(hit.m_positionWorld[0] - 2.5, 1e-4);
    ENSURE_SMALL(hit.m_normalWorld[0] + 1, 1e-4);
    ENSURE(plRayCast(world, from, miss, &hit) == 0);
    ENSURE(plRayCast(world, from, miss, NULL) == -1);

    /* transforms: Euler -> quaternion -> body -> OpenGL matrix */
    plQuaternion q;
    ENSURE(plSetEuler((plReal)(PI / 2), 0, 0, q) == PL_OK); /* yaw 90 */
    ENSURE(plSetOrientation(box, q) == PL_OK);
    plReal m[16];
    ENSURE(plGetOpenGLMatrix(box, m) == PL_OK);
    /* column 0 = image of x: yaw 90 about y maps x to -z */
    ENSURE_SMALL(m[0], 1e-6);
    ENSURE_SMALL(m[2] + 1, 1e-6);
    ENSURE_SMALL(m[12] - 3, 1e-6);
    ENSURE_SMALL(m[15] - 1, 1e-6);
    m[12] = 5;
    ENSURE(plSetOpenGLMatrix(box, m) == PL_OK);
    plVector3 p;
    plQuaternion q2;
    ENSURE(plGetPosition(box, p) == PL_OK);
    ENSURE(plGetOrientation(box, q2) == PL_OK);
    ENSURE_SMALL(p[0] - 5, 1e-6);
    ENSURE_SMALL(fabs(q2[1]) - sqrt(0.5), 1e-6);

    /* dynamic bodies of every shape, free flight: no gravity, so the
       momentum stays exactly (no contacts) */
    plRigidBodyHandle bodies[5];
    const int dyn[5] = {1, 2, 3, 4, 5};
    for (int k = 0; k < 5; ++k) {
        bodies[k] = plCreateRigidBody(NULL, 1, sh[dyn[k]]);
        ENSURE(bodies[k] != NULL);
        const plVector3 pos = {(plReal)(-3 * k - 3), 0, 0},
                        v = {0, (plReal)k, 0};
        ENSURE(plSetPosition(bodies[k], pos) == PL_OK);
        ENSURE(plSetLinearVelocity(bodies[k], v) == PL_OK);
        ENSURE(plAddRigidBody(world, bodies[k]) == PL_OK);
    }
    ENSURE(plSetContactSolver(world, PL_SOLVER_STOCK) == PL_OK);
    ENSURE(plStepSimulation(world, 1.0f / 60) == PL_OK);
    ENSURE(plSetContactSolver(world, PL_SOLVER_CONE) == PL_OK);
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.solver = RF_SOLVER_GS;
    ENSURE(plSetSolverConfig(world, &cfg) == PL_OK);
    for (int i = 0; i < 30; ++i) {
        ENSURE(plStepSimulationFixed(world, 1.0f / 60, 1, 1.0f / 60) == PL_OK);
    }
    for (int k = 0; k < 5; ++k) {
        plVector3 v;
        ENSURE(plGetLinearVelocity(bodies[k], v) == PL_OK);
        ENSURE_SMALL(v[1] - k, 1e-5);
        ENSURE(plIsActive(bodies[k]));
    }
    ENSURE(plSetDamping(bodies[0], 0.5f, 0.5f) == PL_OK);
    ENSURE(plRemoveRigidBody(world, bodies[0]) == PL_OK);
    ENSURE(plRemoveRigidBody(world, bodies[0]) == PL_ERR_STATE);

    /* deleting the world removes its bodies, which stay valid */
    ENSURE(plDeleteDynamicsWorld(world) == PL_OK);
    ENSURE(plGetPosition(box, p) == PL_OK);
    ENSURE(plStepSimulation(world, 0.01f) == PL_ERR_HANDLE);
    for (int k = 0; k < 5; ++k) {
        ENSURE(plDeleteRigidBody(bodies[k]) == PL_OK);
    }
    ENSURE(plDeleteRigidBody(box) == PL_OK);
    ENSURE(plDeleteShape(sh[4]) == PL_OK); /* compound first, */
    for (int k = 0; k < 6; ++k) {
        if (k != 4) {
            ENSURE(plDeleteShape(sh[k]) == PL_OK); /* then its children */
        }
    }
    /* the SDK deletes the worlds it still has */
    ENSURE(plCreateDynamicsWorld(sdk) != NULL);
    ENSURE(plDeletePhysicsSdk(sdk) == PL_OK);
    return 0;
}

int main(void)
{
    RUN_TEST(test_precision_and_order);
    RUN_TEST(test_rolling_distance);
    RUN_TEST(test_bad_input);
    RUN_TEST(test_groups);
    return TEST_SUMMARY();
}
