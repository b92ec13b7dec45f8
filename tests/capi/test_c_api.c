/*
 * The pl* C API (include/rollfric/bullet_c_api.h), compiled as C against
 * librollfric.so: every function group, the analytic rolling distance
 * through pl* calls only, body names in recordings, and every bad-input
 * case (error status, a message naming the argument, nothing changed).
 */
#include <rollfric/bullet_c_api.h>
#include <rollfric/record.h>

#include "../test_util.h"

#include <stdio.h>
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
    ENSURE(plNewSphereShape(1) == NULL);              /* no SDK left */
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
    { /* the tests below take g = 9.81 (the default is the classic -10) */
        const plVector3 g981 = {0, (plReal)-9.81, 0};
        plSetGravity(s->world, g981);
    }
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

/* The scene's ball launched at v, turning at w, stepped 6 s (360 steps of
   1/60 s); where it is and how fast it goes into p and vel. */
static int roll_6s(scene *s, const plVector3 v, const plVector3 w, plVector3 p,
                   plVector3 vel)
{
    ENSURE(plSetLinearVelocity(s->body, v) == PL_OK);
    ENSURE(plSetAngularVelocity(s->body, w) == PL_OK);
    for (int i = 0; i < 360; ++i) {
        ENSURE(plStepSimulationFixed(s->world, 1.0f / 60, 1, 1.0f / 60) ==
               PL_OK);
    }
    ENSURE(plGetPosition(s->body, p) == PL_OK);
    ENSURE(plGetLinearVelocity(s->body, vel) == PL_OK);
    return 0;
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
        plVector3 p, vel;
        ENSURE(roll_6s(&s, v, w, p, vel) == 0);
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
            /* a caller built against a later header (larger structs) is
               refused (rollfric.h, "Binary compatibility") */
            ENSURE(plGetSolverStatsSized(s.world, &st, sizeof st + 8) ==
                   PL_ERR_INVALID);
            ENSURE(strstr(plGetLastError(), "rf_stats has") != NULL);
            rf_config cfg;
            ENSURE(plGetSolverConfigSized(s.world, &cfg, sizeof cfg + 8) ==
                   PL_ERR_INVALID);
            ENSURE(plGetSolverConfig(s.world, &cfg) == PL_OK);
            ENSURE(plSetSolverConfigSized(s.world, &cfg, sizeof cfg + 8) ==
                   PL_ERR_INVALID);
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
    ENSURE(plSetFrictionAnchor(s.body, 2) == PL_ERR_INVALID);
    ENSURE(error_says("on = 2"));
    ENSURE(plSetFrictionAnchor(NULL, 1) == PL_ERR_NULL);
    ENSURE(plSetFrictionAnchor((plRigidBodyHandle)s.world, 1) == PL_ERR_HANDLE);
    ENSURE(plSetGravity(s.world, nan3) == PL_ERR_NONFINITE);
    ENSURE(plSetContactSolver(s.world, (plSolver)9) == PL_ERR_INVALID);
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.max_iter = -1; /* 0 is RF_BULLET_WORLD_ITERATIONS */
    ENSURE(plSetSolverConfig(s.world, &cfg) == PL_ERR_INVALID);
    ENSURE(error_says("max_iter"));
    /* a thread count past any machine's never reaches OpenMP */
    rf_config_default(&cfg);
    cfg.threads = 100000;
    ENSURE(plSetSolverConfig(s.world, &cfg) == PL_ERR_INVALID);
    ENSURE(error_says("threads = 100000 > RF_MAX_THREADS (1024)"));
    cfg.threads = RF_MAX_THREADS;
    ENSURE(plSetSolverConfig(s.world, &cfg) == PL_OK);
    ENSURE(plCreateRigidBody(NULL, -1, s.ball) == NULL);
    ENSURE(error_says("mass"));
    ENSURE(plCreateRigidBody(NULL, NAN, s.ball) == NULL);
    ENSURE(plCreateRigidBody(NULL, 1, s.plane) == NULL); /* dynamic plane */
    ENSURE(plCreateRigidBody(NULL, 1, NULL) == NULL);
    ENSURE(plNewSphereShape(-1) == NULL);
    ENSURE(error_says("plNewSphereShape: radius = -1 must be > 0"));
    ENSURE(plNewBoxShape(1, -1, 1) == NULL);
    ENSURE(plNewBoxShape(0, 0, 0) == NULL);
    plCollisionShapeHandle flat =
        plNewBoxShape(1, 0, 1); /* classic: a flat box */
    ENSURE(flat != NULL);
    ENSURE(plDeleteShape(flat) == PL_OK);
    ENSURE(plNewCapsuleShape(1, NAN) == NULL);
    ENSURE(plAddRigidBody(s.world, s.body) == PL_ERR_STATE); /* twice */
    ENSURE(plDeleteShape(s.ball) == PL_ERR_STATE);           /* in use */
    ENSURE(error_says("used by 1"));
    ENSURE(plSetScaling(s.ball, ok3) == PL_ERR_STATE);
    ENSURE(plGetPosition(s.body, NULL) == PL_ERR_NULL);
    ENSURE(plIsActive(NULL) == -1); /* not "asleep" */
    ENSURE(plIsActive((plRigidBodyHandle)s.world) == -1);
    ENSURE(error_says("world handle"));

    ENSURE(plGetPosition(s.body, p1) == PL_OK);
    ENSURE(plGetLinearVelocity(s.body, v1) == PL_OK);
    ENSURE(memcmp(p0, p1, sizeof p0) == 0 && memcmp(v0, v1, sizeof v0) == 0);

    /* a time step whose substep count overflows Bullet's int is refused,
       and the world steps on afterwards */
    ENSURE(plStepSimulationFixed(s.world, 3.6e7f, 1, 1.0f / 60) ==
           PL_ERR_INVALID);
    ENSURE(error_says("more than Bullet counts"));
    ENSURE(plStepSimulation(s.world, 3.6e7f) == PL_ERR_INVALID);
    {
        plVector3 y0, y1;
        const plVector3 up = {0, 2, 0};
        ENSURE(plSetPosition(s.body, up) == PL_OK);
        ENSURE(plGetPosition(s.body, y0) == PL_OK);
        ENSURE(plStepSimulationFixed(s.world, 1.0f / 60, 1, 1.0f / 60) ==
               PL_OK);
        ENSURE(plGetPosition(s.body, y1) == PL_OK);
        ENSURE(y1[1] < y0[1]); /* it still falls */
    }

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

/* A world of BasicDemo's ground (a static box of half extent 50, top at
   y = 0) and a column of n <= 3 boxes of 0.2 m (1 kg), the lowest placed
   `depth` into the ground, each 0.2 m above the one below; all added. */
typedef struct box_column {
    plPhysicsSdkHandle sdk;
    plDynamicsWorldHandle world;
    plCollisionShapeHandle ground_shape, box;
    plRigidBodyHandle ground, b[3];
    int n;
} box_column;

static int box_column_make(box_column *s, int n, double depth)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->sdk = plNewBulletSdk();
    s->world = plCreateDynamicsWorld(s->sdk);
    s->ground_shape = plNewBoxShape(50, 50, 50);
    s->box = plNewBoxShape(0.1f, 0.1f, 0.1f);
    s->ground = plCreateRigidBody(NULL, 0, s->ground_shape);
    const plVector3 below = {0, -50, 0};
    ENSURE(s->world != NULL && s->ground != NULL && s->box != NULL);
    ENSURE(plSetPosition(s->ground, below) == PL_OK);
    ENSURE(plAddRigidBody(s->world, s->ground) == PL_OK);
    for (int i = 0; i < n; ++i) {
        const plVector3 at = {0, 0.1f + 0.2f * (float)i - (float)depth, 0};
        s->b[i] = plCreateRigidBody(NULL, 1, s->box);
        ENSURE(s->b[i] != NULL);
        ENSURE(plSetPosition(s->b[i], at) == PL_OK);
        ENSURE(plAddRigidBody(s->world, s->b[i]) == PL_OK);
    }
    return 0;
}

static void box_column_free(box_column *s)
{
    for (int i = 0; i < s->n; ++i) {
        plDeleteRigidBody(s->b[i]);
    }
    plDeleteRigidBody(s->ground);
    plDeleteShape(s->box);
    plDeleteShape(s->ground_shape);
    plDeleteDynamicsWorld(s->world);
    plDeletePhysicsSdk(s->sdk);
}

/* One step (1/60 s) of one box placed `depth` into the ground
   (box_column), in a world with the given solver, split impulse, m_erp2
   and iteration budget: the box's vertical speed and height after it,
   and the cone solver's sweeps (0 under stock).  Nonzero on a failed
   call. */
static int push_out(int solver, int split, double erp, int iterations,
                    double depth, double *vy, double *y, int *sweeps)
{
    box_column s;
    ENSURE(box_column_make(&s, 1, depth) == 0);
    ENSURE(plSetContactSolver(s.world, (plSolver)solver) == PL_OK);
    ENSURE(plSetSplitImpulse(s.world, split) == PL_OK);
    ENSURE(plSetContactErp(s.world, (plReal)erp) == PL_OK);
    ENSURE(plSetSolverIterations(s.world, iterations) == PL_OK);
    ENSURE(plStepSimulationFixed(s.world, 1.0f / 60, 1, 1.0f / 60) == PL_OK);
    plVector3 v, p;
    ENSURE(plGetLinearVelocity(s.b[0], v) == PL_OK);
    ENSURE(plGetPosition(s.b[0], p) == PL_OK);
    rf_stats st;
    ENSURE(plGetSolverStats(s.world, &st) == PL_OK);
    *vy = v[1];
    *y = p[1];
    *sweeps = solver == PL_SOLVER_CONE ? st.iterations : 0;
    box_column_free(&s);
    return 0;
}

/* Rolling friction for a program that sets none: the scene's ball with
   its rolling friction taken away gets 0.036 m from plSetDefaultFriction,
   or from a materials file (plLoadMaterials, 0.072 r at R = 0.5), and
   stops at v^2 / 2a (Tasora-Anitescu §6.1, 3.964 m, 1%) as
   test_rolling_distance's; without either it rolls on.  Bad input: a
   negative or NaN default, a bad file (its line and key in the error),
   a NULL path. */
/* text into a file in the working directory (the build directory under
   ctest), named per precision so that both test programs may run at once;
   its name into path. */
static int write_materials(const char *text, char path[64])
{
    snprintf(path, 64, "rf_capi_materials_%d.ini", (int)sizeof(plReal));
    FILE *f = fopen(path, "w");
    ENSURE(f != NULL);
    fputs(text, f);
    ENSURE(fclose(f) == 0);
    return 0;
}

static int roll_default(int how, double *d, double *speed)
{
    scene s;
    if (scene_make(&s, PL_SOLVER_CONE)) {
        return 1;
    }
    ENSURE(plSetRollingFriction(s.body, 0) == PL_OK);
    if (how == 1) {
        ENSURE(plSetDefaultFriction(s.world, 0.036f, 0) == PL_OK);
    } else if (how == 2) {
        char path[64];
        ENSURE(write_materials("[ball]\nshape = sphere\nrolling = 0.072 r\n",
                               path) == 0);
        ENSURE(plLoadMaterials(s.world, path) == PL_OK);
        remove(path);
    }
    const plVector3 v = {2, 0, 0}, w = {0, 0, -4};
    plVector3 p, vel;
    ENSURE(roll_6s(&s, v, w, p, vel) == 0);
    *d = p[0];
    *speed = sqrt((double)vel[0] * vel[0] + (double)vel[2] * vel[2]);
    scene_free(&s);
    return 0;
}

static int test_default_friction(void)
{
    const double d_ref = 4.0 / (2 * 0.036 * 9.81 / (0.5 * 1.4));
    double d[3], v[3];
    for (int how = 0; how < 3; ++how) {
        ENSURE(roll_default(how, &d[how], &v[how]) == 0);
    }
    printf("  none: %.4f m at %.2f m/s | plSetDefaultFriction: %.4f m | "
           "plLoadMaterials: %.4f m (analytic %.4f)\n",
           d[0], v[0], d[1], d[2], d_ref);
    ENSURE(v[0] > 1.9);
    for (int how = 1; how < 3; ++how) {
        ENSURE_LE(fabs(d[how] / d_ref - 1), 0.01);
        ENSURE_LE(v[how], 1e-3);
    }
    scene s;
    if (scene_make(&s, PL_SOLVER_CONE)) {
        return 1;
    }
    ENSURE(plSetDefaultFriction(s.world, -1, 0) == PL_ERR_INVALID);
    ENSURE(error_says("rolling = -1"));
    ENSURE(plSetDefaultFriction(s.world, 0, NAN) == PL_ERR_NONFINITE);
    ENSURE(error_says("spinning is not finite"));
    ENSURE(plLoadMaterials(s.world, NULL) == PL_ERR_NULL);
    ENSURE(plLoadMaterials(s.world, "/nonexistent/m.ini") == PL_ERR_IO);
    char path[64];
    ENSURE(write_materials("[ball]\nshape = sphere\nfriction = lots\n", path) ==
           0);
    ENSURE(plLoadMaterials(s.world, path) == PL_ERR_INVALID);
    ENSURE(error_says("line 3: [ball] friction = 'lots'"));
    remove(path);
    scene_free(&s);
    return 0;
}

/* The world's solver settings: plSetContactErp (m_erp2),
   plSetSolverIterations (m_numIterations) and plSetSplitImpulse reach
   both solvers.  Reference (Bullet's contact row, setupContactConstraint;
   docs/bullet.md): a point penetrating d and not split off leaves the
   step separating at erp d / h, so a box 1 cm deep rises at 0.12 m/s
   with erp 0.2, 0.06 with 0.1 and 0 with 0 (its four points alike; 1%
   and 1e-4 m/s, what ten sweeps leave of gravity's 0.167 m/s); 5 cm deep,
   deeper than the split threshold
   (-0.04 m) with split impulse on, it rises erp d = 1 cm in the step on
   pseudo-velocities and keeps no upward speed (below 1 mm/s); with it off
   it leaves at 0.6 m/s.  The cone solver sweeps exactly the budget given
   when its tolerance is not met (this box needs 18 sweeps). */
static int test_world_solver_info(void)
{
    scene s;
    if (scene_make(&s, PL_SOLVER_CONE)) {
        return 1;
    }
    ENSURE(plSetSolverIterations(s.world, 0) == PL_ERR_INVALID);
    ENSURE(error_says("n = 0"));
    ENSURE(plSetSolverIterations(NULL, 10) == PL_ERR_NULL);
    ENSURE(plSetContactErp(s.world, NAN) == PL_ERR_NONFINITE);
    ENSURE(plSetContactErp(s.world, 1.5f) == PL_ERR_INVALID);
    ENSURE(error_says("erp = 1.5"));
    ENSURE(plSetContactErp((plDynamicsWorldHandle)s.body, 0.2f) ==
           PL_ERR_HANDLE);
    ENSURE(plSetSplitImpulse(s.world, 2) == PL_ERR_INVALID);
    scene_free(&s);

    const double h = 1.0 / 60;
    for (int solver = 0; solver < 2; ++solver) {
        const double erps[3] = {0.2, 0.1, 0.0};
        double vy, y;
        int sweeps;
        for (int k = 0; k < 3; ++k) {
            ENSURE(push_out(solver, 0, erps[k], 10, 0.01, &vy, &y, &sweeps) ==
                   0);
            printf("  %s, 1 cm deep, erp %.1f: rises at %.5f m/s (erp d / h "
                   "%.5f)\n",
                   solver ? "cone" : "stock", erps[k], vy, erps[k] * 0.01 / h);
            ENSURE_SMALL(vy - erps[k] * 0.01 / h,
                         0.01 * erps[k] * 0.01 / h + 1e-4);
        }
        ENSURE(push_out(solver, 1, 0.2, 10, 0.05, &vy, &y, &sweeps) == 0);
        ENSURE_SMALL(vy, 1e-3);
        ENSURE_SMALL(y - (0.05 + 0.2 * 0.05), 1e-4);
        ENSURE(push_out(solver, 0, 0.2, 10, 0.05, &vy, &y, &sweeps) == 0);
        ENSURE_SMALL(vy - 0.2 * 0.05 / h, 0.01 * 0.2 * 0.05 / h);
    }
    for (int budget = 1; budget <= 3; budget += 2) {
        double vy, y;
        int sweeps;
        ENSURE(push_out(PL_SOLVER_CONE, 0, 0.2, budget, 0.01, &vy, &y,
                        &sweeps) == 0);
        printf("  cone, budget %d: %d sweeps\n", budget, sweeps);
        ENSURE(sweeps == budget);
    }
    return 0;
}

/* A column of three boxes (box_column) under gravity 10 m/s^2 tilted
   10 deg towards +x (the ground a 10 deg slope), kept awake (plSetSleeping
   0), with or without friction anchors on every box: the mean distance (m)
   the boxes move down the slope from step 60 (settled) to step 1200 (1/60
   s); negative on a failed call. */
static double slope_creep(int anchored)
{
    const double tilt = 10.0 * PI / 180.0;
    const plVector3 g = {(plReal)(10.0 * sin(tilt)),
                         (plReal)(-10.0 * cos(tilt)), 0};
    box_column s;
    if (box_column_make(&s, 3, 0.0) != 0) {
        return -1.0;
    }
    int bad = plSetGravity(s.world, g) != PL_OK;
    for (int i = 0; i < s.n && !bad; ++i) {
        bad = plSetSleeping(s.b[i], 0) != PL_OK ||
              plSetFrictionAnchor(s.b[i], anchored) != PL_OK;
    }
    double x0[3] = {0};
    for (int step = 1; step <= 1200 && !bad; ++step) {
        bad = plStepSimulationFixed(s.world, 1.0f / 60, 1, 1.0f / 60) != PL_OK;
        for (int i = 0; i < s.n && step == 60 && !bad; ++i) {
            plVector3 p;
            bad = plGetPosition(s.b[i], p) != PL_OK;
            x0[i] = p[0];
        }
    }
    double sum = 0.0;
    for (int i = 0; i < s.n && !bad; ++i) {
        plVector3 p;
        bad = plGetPosition(s.b[i], p) != PL_OK;
        sum += fabs(p[0] - x0[i]);
    }
    box_column_free(&s);
    return bad ? -1.0 : sum / s.n;
}

/* plSetFrictionAnchor reaches Bullet's CF_HAS_FRICTION_ANCHOR (cone
   solver).  Reference: the combined friction is 0.5 x 0.5 = 0.25 (Bullet
   multiplies the bodies' 0.5) and tan 10 deg = 0.176 < 0.25, so by
   Coulomb's law the column sticks and an exact solve leaves it where it
   is; whatever moves is what ten sweeps leave of each step's sticking
   friction.  Measured: without anchors the boxes creep 9.9 mm (float
   Bullet) / 13.5 mm (double) down the slope in 19 s; with anchors 0.4 /
   1.8 um.  At other tilts anchors hold less well (5-12 deg, both
   precisions: at most 1.16 mm, at 8 deg in double), so the bound is
   2 mm (1% of a box); without anchors over 1 mm and over four times
   the creep with (the difference the flag makes). */
static int test_friction_anchor(void)
{
    const double without = slope_creep(0), with = slope_creep(1);
    printf("  column on a 10 deg slope, kept awake: creep %.4f mm without "
           "anchors, %.4f mm with\n",
           1e3 * without, 1e3 * with);
    ENSURE(without >= 0.0 && with >= 0.0);
    ENSURE_LE(with, 2e-3);
    ENSURE_LE(1e-3, without);
    ENSURE_LE(4.0 * with, without);
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
    plCollisionShapeHandle sh[6] = {plNewBoxShape(0.5f, 0.5f, 0.5f),
                                    plNewCapsuleShape(0.2f, 0.5f),
                                    plNewConeShape(0.3f, 1),
                                    plNewCylinderShape(0.3f, 0.5f),
                                    plNewCompoundShape(),
                                    plNewConvexHullShape()};
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
        ENSURE(plIsActive(bodies[k]) == 1);
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

/* Axis shapes: a ray from outside along each axis hits the surface at the
   analytic distance (capsule: half straight part + radius; cone: half its
   height at the apex, Bullet centres the cone; cylinder: half height
   along the axis, radius across) to within Bullet's collision margin
   (0.04 m, which its convex ray cast adds on cones and cylinders; the
   along/across distances differ by >= 0.25 m, so a wrong axis fails),
   and the anisotropic rolling direction is the shape's axis, (1, 1, 1)
   for a sphere. */
static int test_axis_shapes(void)
{
    plPhysicsSdkHandle sdk = plNewBulletSdk();
    plDynamicsWorldHandle world = plCreateDynamicsWorld(sdk);
    ENSURE(world != NULL);
    const double r = 0.25, hh = 0.5;
    for (int axis = 0; axis < 3; ++axis) {
        plCollisionShapeHandle sh[3] = {
            plNewCapsuleShapeAxis((plReal)r, (plReal)hh, axis),
            plNewConeShapeAxis((plReal)r, (plReal)(2 * hh), axis),
            plNewCylinderShapeAxis((plReal)r, (plReal)hh, axis)};
        /* along the axis: capsule cap at hh + r, cone apex and cylinder
           face at hh; across it: the radius (cone: at its centre plane
           the cone's radius is r / 2) */
        const double along[3] = {hh + r, hh, hh};
        const double across[3] = {r, r / 2, r};
        for (int k = 0; k < 3; ++k) {
            ENSURE(sh[k] != NULL);
            plVector3 dir;
            ENSURE(plGetAnisotropicRollingFrictionDirection(sh[k], dir) ==
                   PL_OK);
            for (int c = 0; c < 3; ++c) {
                ENSURE(dir[c] == (c == axis ? 1 : 0));
            }
            plRigidBodyHandle b = plCreateRigidBody(NULL, 0, sh[k]);
            ENSURE(b != NULL && plAddRigidBody(world, b) == PL_OK);
            plVector3 from = {0, 0, 0}, to = {0, 0, 0};
            from[axis] = 5; /* along +axis, towards the origin */
            plRayCastResult hit;
            ENSURE(plRayCast(world, from, to, &hit) == 1);
            ENSURE(hit.m_body == b);
            ENSURE_SMALL(hit.m_positionWorld[axis] - along[k], 0.05);
            const int other = (axis + 1) % 3;
            plVector3 from2 = {0, 0, 0};
            from2[other] = 5;
            ENSURE(plRayCast(world, from2, to, &hit) == 1);
            ENSURE_SMALL(hit.m_positionWorld[other] - across[k], 0.05);
            ENSURE(plDeleteRigidBody(b) == PL_OK);
            ENSURE(plDeleteShape(sh[k]) == PL_OK);
        }
    }
    plCollisionShapeHandle ball = plNewSphereShape(1);
    plVector3 dir;
    ENSURE(plGetAnisotropicRollingFrictionDirection(ball, dir) == PL_OK);
    ENSURE(dir[0] == 1 && dir[1] == 1 && dir[2] == 1);
    ENSURE(plNewCylinderShapeAxis(1, 1, 3) == NULL);
    ENSURE(error_says("axis"));
    ENSURE(plNewConeShapeAxis(-1, 1, 0) == NULL);
    ENSURE(plGetAnisotropicRollingFrictionDirection(ball, NULL) == PL_ERR_NULL);
    plRigidBodyHandle b = plCreateRigidBody(NULL, 1, ball);
    const plVector3 neg = {1, -1, 1}, ok = {0, 1, 0};
    ENSURE(plSetAnisotropicFriction(b, neg, PL_ANISOTROPIC_FRICTION) ==
           PL_ERR_INVALID);
    ENSURE(plSetAnisotropicFriction(b, ok, 4) == PL_ERR_INVALID);
    ENSURE(error_says("mode"));
    ENSURE(plSetAnisotropicFriction(b, ok, PL_ANISOTROPIC_ROLLING_FRICTION) ==
           PL_OK);
    ENSURE(plDeleteRigidBody(b) == PL_OK);
    ENSURE(plDeleteShape(ball) == PL_OK);
    ENSURE(plDeletePhysicsSdk(sdk) == PL_OK);
    return 0;
}

/* Roll the ball of test_rolling_distance along x across a static triangle
   mesh ground (a 40 m square, two triangles, y = 0) with the given model;
   returns the distance travelled, or -1 on a failed call. */
static const plReal mesh_verts[12] = {-20, 0, -20, 20,  0, -20,
                                      20,  0, 20,  -20, 0, 20};
static const int mesh_tris[6] = {0, 2, 1, 0, 3, 2}; /* normals +y */

static double mesh_roll(plPhysicsSdkHandle sdk, rf_model model)
{
    const plReal *verts = mesh_verts;
    const int *tris = mesh_tris;
    plDynamicsWorldHandle world = plCreateDynamicsWorld(sdk);
    { /* the tests below take g = 9.81 (the default is the classic -10) */
        const plVector3 g981 = {0, (plReal)-9.81, 0};
        plSetGravity(world, g981);
    }
    plCollisionShapeHandle mesh =
        plNewStaticTriangleMeshShapeIndexed(verts, 4, tris, 2);
    plCollisionShapeHandle ball = plNewSphereShape(0.5f);
    plRigidBodyHandle ground = plCreateRigidBody(NULL, 0, mesh);
    plRigidBodyHandle b = plCreateRigidBody(NULL, 1, ball);
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.model = model;
    const plVector3 at = {-2, 0.5f, 5}, v = {2, 0, 0}, w = {0, 0, -4};
    if (ground == NULL || b == NULL ||
        plSetSolverConfig(world, &cfg) != PL_OK ||
        plSetFriction(ground, 1) != PL_OK || plSetFriction(b, 0.9f) != PL_OK ||
        plSetRollingFriction(b, 0.036f) != PL_OK ||
        plSetSleeping(b, 0) != PL_OK || plSetPosition(b, at) != PL_OK ||
        plSetLinearVelocity(b, v) != PL_OK ||
        plSetAngularVelocity(b, w) != PL_OK ||
        plAddRigidBody(world, ground) != PL_OK ||
        plAddRigidBody(world, b) != PL_OK) {
        return -1;
    }
    for (int i = 0; i < 360; ++i) {
        if (plStepSimulationFixed(world, 1.0f / 60, 1, 1.0f / 60) != PL_OK) {
            return -1;
        }
    }
    plVector3 p;
    if (plGetPosition(b, p) != PL_OK || fabs(p[2] - 5) > 1e-3) {
        return -1;
    }
    plDeleteRigidBody(b);
    plDeleteRigidBody(ground);
    plDeleteShape(ball);
    plDeleteShape(mesh);
    plDeleteDynamicsWorld(world);
    return p[0] + 2.0;
}

/* A static triangle mesh ground behaves as the plane: with the De Saxce
   model the ball stops at the analytic v^2 / (2 a), a = rho g / (1.4 R),
   within 1% (as on the plane).  With the associated model the contact's
   dilatancy (Tasora §4: it separates at rho |w| = 0.14 m/s here) lifts
   the ball, Bullet's mesh algorithm (triangles found inside the ball's
   bounding box, mesh margin 0) adds no point while it is in the air, and
   the manifold's old point (a point of the ball that has rolled away)
   reports a growing gap, so rolling friction misses steps: printed, not
   asserted (docs/c-api.md).  Bad meshes are refused. */
static int test_triangle_mesh(void)
{
    const double d_ref = 4.0 / (2 * 0.036 * 9.81 / (0.5 * 1.4));
    plPhysicsSdkHandle sdk = plNewBulletSdk();
    const double d_assoc = mesh_roll(sdk, RF_MODEL_ASSOCIATED);
    const double d = mesh_roll(sdk, RF_MODEL_DESAXCE);
    ENSURE(d_assoc > 0 && d > 0);
    printf("  mesh ground: De Saxce %.4f m (analytic %.4f, %+.2f%%); "
           "associated %.4f m (%+.2f%%)\n",
           d, d_ref, 100 * (d / d_ref - 1), d_assoc,
           100 * (d_assoc / d_ref - 1));
    ENSURE_SMALL(d / d_ref - 1, 0.01);
    /* bad meshes */
    const plReal *verts = mesh_verts;
    const int *tris = mesh_tris, out_of_range[3] = {0, 1, 4},
              repeated[3] = {0, 1, 1};
    plCollisionShapeHandle mesh =
        plNewStaticTriangleMeshShapeIndexed(verts, 4, tris, 2);
    ENSURE(mesh != NULL);
    const plReal nan_verts[9] = {0, 0, 0, 1, 0, 0, 0, NAN, 1};
    ENSURE(plNewStaticTriangleMeshShapeIndexed(verts, 4, out_of_range, 1) ==
           NULL);
    ENSURE(error_says("indices[2]"));
    ENSURE(plNewStaticTriangleMeshShapeIndexed(verts, 4, repeated, 1) == NULL);
    ENSURE(error_says("repeats"));
    ENSURE(plNewStaticTriangleMeshShapeIndexed(nan_verts, 3, tris, 1) == NULL);
    ENSURE(error_says("vertices[7]"));
    ENSURE(plNewStaticTriangleMeshShapeIndexed(verts, 2, tris, 1) == NULL);
    ENSURE(plNewStaticTriangleMeshShapeIndexed(NULL, 4, tris, 1) == NULL);
    ENSURE(plCreateRigidBody(NULL, 1, mesh) == NULL); /* dynamic mesh */
    ENSURE(error_says("triangle mesh"));
    ENSURE(plDeleteShape(mesh) == PL_OK);
    ENSURE(plDeletePhysicsSdk(sdk) == PL_OK);
    return 0;
}

/* Constraints through pl* calls only (cone solver):
   - hinge pendulum: a sphere R = 0.1, m = 1 on a massless arm d = 1 m,
     released at 3 deg; period 2 pi sqrt(I / (m g d)), I = 2/5 m R^2 +
     m d^2, lengthened by theta0^2 / 16 (0.017%) for the amplitude; 0.5%;
   - point-to-point under gravity along -z: the z row (the last, Bullet's
     getAppliedImpulse) carries m g h each step (statics, 1e-3 relative),
     and the body stays at its pivot (1 mm);
   - a hinge motor with max impulse F reaches w = n F / I after n steps
     (momentum; 1e-4); a limit [-0.3, 0.3] holds a thrown pendulum to one
     step of travel beyond it (h w = 0.1 rad);
   - breaking: a threshold below m g h disables the joint on its first
     step. */
static int test_constraints(void)
{
    plPhysicsSdkHandle sdk = plNewBulletSdk();
    plDynamicsWorldHandle world = plCreateDynamicsWorld(sdk);
    { /* the tests below take g = 9.81 (the default is the classic -10) */
        const plVector3 g981 = {0, (plReal)-9.81, 0};
        plSetGravity(world, g981);
    }
    plCollisionShapeHandle ball = plNewSphereShape(0.1f);
    ENSURE(world != NULL && ball != NULL);
    const double g = 9.81, d = 1.0, R = 0.1, th = 3 * PI / 180, h = 1.0 / 60;

    /* hinge pendulum about z through (0, 2, 0) */
    plRigidBodyHandle bob = plCreateRigidBody(NULL, 1, ball);
    const plVector3 bob_at = {(plReal)(d * sin(th)), (plReal)(2 - d * cos(th)),
                              0};
    ENSURE(plSetPosition(bob, bob_at) == PL_OK);
    ENSURE(plSetSleeping(bob, 0) == PL_OK);
    ENSURE(plAddRigidBody(world, bob) == PL_OK);
    /* the pivot in the bob's frame: from its centre to (0, 2, 0) */
    const plVector3 piv = {(plReal)(-d * sin(th)), (plReal)(d * cos(th)), 0},
                    zaxis = {0, 0, 1};
    plConstraintHandle hinge =
        plNewHingeConstraint(bob, NULL, piv, NULL, zaxis, NULL);
    ENSURE(hinge != NULL);
    ENSURE(plAddConstraint(world, hinge, 0) == PL_OK);
    double prev = bob_at[0], first = -1, last = -1;
    int ups = 0;
    for (int i = 1; i <= 720; ++i) {
        ENSURE(plStepSimulationFixed(world, (plReal)h, 1, (plReal)h) == PL_OK);
        plVector3 p;
        ENSURE(plGetPosition(bob, p) == PL_OK);
        if (prev < 0 && p[0] >= 0) {
            last = h * (i - 1 + prev / (prev - p[0]));
            if (ups++ == 0) {
                first = last;
            }
        }
        prev = p[0];
    }
    const double I = 0.4 * R * R + d * d;
    const double T = 2 * PI * sqrt(I / (g * d)) * (1 + th * th / 16);
    const double T_meas = (last - first) / (ups - 1);
    plReal angle;
    ENSURE(plGetHingeAngle(hinge, &angle) == PL_OK);
    printf("  hinge pendulum: period %.5f s (analytic %.5f, %+.3f%%), "
           "angle now %.4f rad\n",
           T_meas, T, 100 * (T_meas / T - 1), angle);
    ENSURE(ups >= 4);
    ENSURE_SMALL(T_meas / T - 1, 0.005);
    ENSURE_SMALL(angle, th * 1.01);

    /* bad input */
    const plVector3 nan3 = {0, NAN, 0}, zero = {0, 0, 0};
    ENSURE(plNewHingeConstraint(bob, bob, piv, piv, zaxis, zaxis) == NULL);
    ENSURE(error_says("same body"));
    ENSURE(plNewHingeConstraint(bob, NULL, piv, NULL, zero, NULL) == NULL);
    ENSURE(error_says("axis"));
    ENSURE(plNewPoint2PointConstraint(bob, NULL, nan3, NULL) == NULL);
    ENSURE(error_says("pivot_a"));
    ENSURE(plNewPoint2PointConstraint(NULL, bob, piv, piv) == NULL);
    ENSURE(plSetHingeLimit(hinge, NAN, 1) == PL_ERR_NONFINITE);
    ENSURE(plEnableHingeMotor(hinge, 1, 1, -1) == PL_ERR_INVALID);
    ENSURE(plSetBreakingImpulse(hinge, 0) == PL_ERR_INVALID);
    ENSURE(plAddConstraint(world, hinge, 0) == PL_ERR_STATE); /* twice */
    ENSURE(plRemoveRigidBody(world, bob) == PL_ERR_STATE);    /* in use */
    ENSURE(plDeleteRigidBody(bob) == PL_ERR_STATE);
    ENSURE(error_says("constraints use the body"));
    ENSURE(plRemoveConstraint(world, hinge) == PL_OK);
    ENSURE(plRemoveConstraint(world, hinge) == PL_ERR_STATE);
    ENSURE(plDeleteConstraint(hinge) == PL_OK);
    ENSURE(plDeleteConstraint(hinge) == PL_ERR_HANDLE);
    ENSURE(plIsConstraintEnabled(hinge) == -1);
    ENSURE(plDeleteRigidBody(bob) == PL_OK);

    /* point-to-point, gravity along -z: the z row holds m g h */
    const plVector3 gz = {0, 0, (plReal)-g};
    ENSURE(plSetGravity(world, gz) == PL_OK);
    plRigidBodyHandle hang = plCreateRigidBody(NULL, 2, ball);
    const plVector3 hang_at = {0, 0, 3}, up = {0, 0, 1};
    ENSURE(plSetPosition(hang, hang_at) == PL_OK);
    ENSURE(plSetSleeping(hang, 0) == PL_OK);
    plConstraintHandle p2p = plNewPoint2PointConstraint(hang, NULL, up, NULL);
    ENSURE(p2p != NULL);
    ENSURE(plAddConstraint(world, p2p, 0) == PL_ERR_STATE); /* body not in */
    ENSURE(error_says("not in this world"));
    ENSURE(plAddRigidBody(world, hang) == PL_OK);
    ENSURE(plAddConstraint(world, p2p, 0) == PL_OK);
    for (int i = 0; i < 120; ++i) {
        ENSURE(plStepSimulationFixed(world, (plReal)h, 1, (plReal)h) == PL_OK);
    }
    plReal imp;
    plVector3 p;
    ENSURE(plGetConstraintImpulse(p2p, &imp) == PL_OK);
    ENSURE(plGetPosition(hang, p) == PL_OK);
    printf("  point2point: impulse %.6f N s (m g h = %.6f), drift %.2e m\n",
           imp, 2 * g * h, fabs(p[2] - 3));
    ENSURE_SMALL(imp / (2 * g * h) - 1, 1e-3);
    ENSURE_SMALL(p[2] - 3, 1e-3);
    ENSURE(plIsConstraintEnabled(p2p) == 1);
    ENSURE(plSetHingeLimit((plConstraintHandle)p2p, 0, 1) == PL_ERR_HANDLE);
    ENSURE(error_says("not a hinge"));
    /* breaking below the load: disabled on the next step, body falls */
    ENSURE(plSetBreakingImpulse(p2p, (plReal)(g * h)) == PL_OK);
    ENSURE(plStepSimulationFixed(world, (plReal)h, 1, (plReal)h) == PL_OK);
    ENSURE(plIsConstraintEnabled(p2p) == 0);
    /* deleting the world takes the constraint out; it stays valid */
    ENSURE(plDeleteDynamicsWorld(world) == PL_OK);
    ENSURE(plIsConstraintEnabled(p2p) == 0);
    ENSURE(plDeleteConstraint(p2p) == PL_OK);
    ENSURE(plDeleteRigidBody(hang) == PL_OK);

    /* motor and limit, no gravity / gravity */
    world = plCreateDynamicsWorld(sdk);
    const plVector3 g0 = {0, 0, 0};
    ENSURE(plSetGravity(world, g0) == PL_OK);
    plCollisionShapeHandle disc = plNewCylinderShapeAxis(0.5f, 0.05f, 2);
    plRigidBodyHandle wheel = plCreateRigidBody(NULL, 2, disc);
    ENSURE(plSetSleeping(wheel, 0) == PL_OK);
    ENSURE(plAddRigidBody(world, wheel) == PL_OK);
    plConstraintHandle axle =
        plNewHingeConstraint(wheel, NULL, zero, NULL, zaxis, NULL);
    ENSURE(plAddConstraint(world, axle, 0) == PL_OK);
    const double F = 0.01, Izz = 0.5 * 2 * 0.5 * 0.5; /* solid cylinder */
    ENSURE(plEnableHingeMotor(axle, 1, 3, (plReal)F) == PL_OK);
    for (int i = 0; i < 20; ++i) {
        ENSURE(plStepSimulationFixed(world, (plReal)h, 1, (plReal)h) == PL_OK);
    }
    plVector3 wv;
    ENSURE(plGetAngularVelocity(wheel, wv) == PL_OK);
    printf("  hinge motor: w = %.6f rad/s after 20 steps (analytic %.6f)\n",
           wv[2], 20 * F / Izz);
    ENSURE_SMALL(wv[2] / (20 * F / Izz) - 1, 1e-4);
    ENSURE(plDeleteConstraint(axle) == PL_OK);
    ENSURE(plDeleteRigidBody(wheel) == PL_OK);
    ENSURE(plDeleteShape(disc) == PL_OK);

    const plVector3 gy = {0, (plReal)-g, 0};
    ENSURE(plSetGravity(world, gy) == PL_OK);
    plRigidBodyHandle arm = plCreateRigidBody(NULL, 1, ball);
    const plVector3 arm_at = {0, 1, 0}, arm_piv = {0, 1, 0}, v6 = {6, 0, 0},
                    w6 = {0, 0, 6};
    ENSURE(plSetPosition(arm, arm_at) == PL_OK);
    ENSURE(plSetSleeping(arm, 0) == PL_OK);
    ENSURE(plSetLinearVelocity(arm, v6) == PL_OK);
    ENSURE(plSetAngularVelocity(arm, w6) == PL_OK);
    ENSURE(plAddRigidBody(world, arm) == PL_OK);
    plConstraintHandle lim =
        plNewHingeConstraint(arm, NULL, arm_piv, NULL, zaxis, NULL);
    ENSURE(plSetHingeLimit(lim, -0.3f, 0.3f) == PL_OK);
    ENSURE(plAddConstraint(world, lim, 0) == PL_OK);
    double worst = 0;
    for (int i = 0; i < 300; ++i) {
        ENSURE(plStepSimulationFixed(world, (plReal)h, 1, (plReal)h) == PL_OK);
        ENSURE(plGetHingeAngle(lim, &angle) == PL_OK);
        worst = fmax(worst, fabs(angle));
    }
    printf("  hinge limit 0.3 rad: max |angle| %.4f\n", worst);
    ENSURE_LE(worst, 0.3 + 0.1);
    ENSURE_LE(fabs(angle), 0.3 + 0.01);
    ENSURE(plDeletePhysicsSdk(sdk) == PL_OK); /* the world goes with it */
    ENSURE(plDeleteConstraint(lim) == PL_OK);
    ENSURE(plDeleteRigidBody(arm) == PL_OK);
    ENSURE(plDeleteShape(ball) == PL_OK);
    return 0;
}

/* Anisotropic rolling friction along one body axis (Bullet's
   CF_ANISOTROPIC_ROLLING_FRICTION as its capsules, cones and cylinders
   declare it): the ball of test_rolling_distance with scaling (1, 0, 0)
   (its own x axis).  Rolled along z it turns about x, which is resisted:
   it stops at the analytic v^2 / (2 a), a = rho g / (1.4 R) (Tasora
   §6.1), within 1% (cone).  Rolled along x it turns about z, which is
   free: after 6 s its speed is still 2 m/s (1e-3; the cone's rolling
   torque acts about the axis' projection on the plane only).  Stock is
   printed. */
static int test_anisotropic_rolling(void)
{
    const double d_ref = 4.0 / (2 * 0.036 * 9.81 / (0.5 * 1.4));
    const plVector3 x_only = {1, 0, 0};
    for (int solver = 0; solver < 2; ++solver) {
        double result[2];
        for (int dir = 0; dir < 2; ++dir) {
            scene s;
            if (scene_make(&s, solver)) {
                return 1;
            }
            ENSURE(plSetAnisotropicFriction(s.body, x_only,
                                            PL_ANISOTROPIC_ROLLING_FRICTION) ==
                   PL_OK);
            /* dir 0: along z (about x); dir 1: along x (about z) */
            const plVector3 v0[2] = {{0, 0, 2}, {2, 0, 0}};
            const plVector3 w0[2] = {{4, 0, 0}, {0, 0, -4}};
            ENSURE(plSetLinearVelocity(s.body, v0[dir]) == PL_OK);
            ENSURE(plSetAngularVelocity(s.body, w0[dir]) == PL_OK);
            for (int i = 0; i < 360; ++i) {
                ENSURE(plStepSimulationFixed(s.world, 1.0f / 60, 1,
                                             1.0f / 60) == PL_OK);
            }
            plVector3 p, v;
            ENSURE(plGetPosition(s.body, p) == PL_OK);
            ENSURE(plGetLinearVelocity(s.body, v) == PL_OK);
            result[dir] = dir == 0
                              ? p[2]
                              : sqrt((double)v[0] * v[0] + (double)v[2] * v[2]);
            scene_free(&s);
        }
        printf("  %s: about the axis: distance %.4f m (analytic %.4f, "
               "%+.2f%%); about another axis: speed %.4f m/s after 6 s "
               "(free: 2)\n",
               solver ? "cone " : "stock", result[0], d_ref,
               100 * (result[0] / d_ref - 1), result[1]);
        if (solver == PL_SOLVER_CONE) {
            ENSURE_SMALL(result[0] / d_ref - 1, 0.01);
            ENSURE_SMALL(result[1] - 2, 1e-3);
        }
    }
    return 0;
}

/* plSetMassProps: the test ball given the inertia of a hollow sphere,
   I = 2/3 m R^2, rolls to v^2 / (2 a) with a = rho g / (R (1 + I /
   (m R^2))) = rho g / (5/3 R) (Tasora §6.1 with that inertia), 1% (cone):
   19% farther than the solid ball, so the inertia is the one used. */
static int test_mass_props(void)
{
    const double R = 0.5, rho = 0.036, g = 9.81, I = 2.0 / 3.0 * R * R;
    const double d_ref = 4.0 / (2 * rho * g / (R * (1 + I / (R * R))));
    scene s;
    if (scene_make(&s, PL_SOLVER_CONE)) {
        return 1;
    }
    const plVector3 inertia = {(plReal)I, (plReal)I, (plReal)I},
                    bad = {(plReal)I, 0, (plReal)I}, v = {2, 0, 0},
                    w = {0, 0, -4};
    ENSURE(plSetMassProps(s.body, 1, bad) == PL_ERR_INVALID);
    ENSURE(error_says("inertia"));
    ENSURE(plSetMassProps(s.body, NAN, inertia) == PL_ERR_NONFINITE);
    ENSURE(plSetMassProps(s.ground, 1, inertia) == PL_ERR_INVALID);
    ENSURE(error_says("static"));
    ENSURE(plSetMassProps(s.body, 1, inertia) == PL_OK);
    ENSURE(plSetLinearVelocity(s.body, v) == PL_OK);
    ENSURE(plSetAngularVelocity(s.body, w) == PL_OK);
    for (int i = 0; i < 420; ++i) {
        ENSURE(plStepSimulationFixed(s.world, 1.0f / 60, 1, 1.0f / 60) ==
               PL_OK);
    }
    plVector3 p;
    ENSURE(plGetPosition(s.body, p) == PL_OK);
    printf("  hollow ball: distance %.4f m (analytic %.4f, %+.2f%%)\n", p[0],
           d_ref, 100 * (p[0] / d_ref - 1));
    ENSURE_SMALL(p[0] / d_ref - 1, 0.01);
    scene_free(&s);
    return 0;
}

/* Cohesion through the C API: a 1 kg box (0.4 m) under
   a static box ceiling, both cohesive (the ceiling's force large, the
   pair holds with the smaller).  m g = 0.95 c, set before the block is
   added to the world: held, it has not moved after 1 s (1 mm); then set
   to m g = 1.05 c while in the world: it falls (more than 0.5 m after
   1 s; free fall gives 4.9 m).  Bad values refused. */
static int test_cohesion(void)
{
    const double m = 1.0, g = 9.81;
    plPhysicsSdkHandle sdk = plNewBulletSdk();
    plDynamicsWorldHandle world = plCreateDynamicsWorld(sdk);
    ENSURE(world != NULL);
    const plVector3 grav = {0, (plReal)-g, 0}, up = {0, 1.5f, 0},
                    at = {0, 0.8f, 0};
    ENSURE(plSetGravity(world, grav) == PL_OK);
    plCollisionShapeHandle slab = plNewBoxShape(3, 0.5f, 3);
    plCollisionShapeHandle cube = plNewBoxShape(0.2f, 0.2f, 0.2f);
    plRigidBodyHandle ceiling = plCreateRigidBody(NULL, 0, slab);
    plRigidBodyHandle block = plCreateRigidBody(NULL, (plReal)m, cube);
    ENSURE(ceiling != NULL && block != NULL);
    ENSURE(plSetPosition(ceiling, up) == PL_OK);
    ENSURE(plSetPosition(block, at) == PL_OK);
    ENSURE(plSetSleeping(block, 0) == PL_OK);
    ENSURE(plSetCohesion(block, -1) == PL_ERR_INVALID);
    ENSURE(error_says("negative"));
    ENSURE(plSetCohesion(block, NAN) == PL_ERR_NONFINITE);
    ENSURE(plSetCohesion(NULL, 1) == PL_ERR_NULL);
    ENSURE(plSetCohesion(ceiling, 1e6f) == PL_OK);
    ENSURE(plSetCohesion(block, (plReal)(m * g / 0.95)) == PL_OK);
    plReal c = 0;
    ENSURE(plGetCohesion(block, &c) == PL_OK);
    ENSURE_SMALL(c - m * g / 0.95, 1e-5);
    ENSURE(plAddRigidBody(world, ceiling) == PL_OK);
    ENSURE(plAddRigidBody(world, block) == PL_OK);
    for (int i = 0; i < 240; ++i) {
        ENSURE(plStepSimulationFixed(world, 1.0f / 240, 1, 1.0f / 240) ==
               PL_OK);
    }
    plVector3 p;
    ENSURE(plGetPosition(block, p) == PL_OK);
    printf("  m g = 0.95 c: moved %.2e m in 1 s\n", p[1] - 0.8);
    ENSURE_SMALL(p[1] - 0.8, 1e-3);
    ENSURE(plSetCohesion(block, (plReal)(m * g / 1.05)) == PL_OK);
    for (int i = 0; i < 240; ++i) {
        ENSURE(plStepSimulationFixed(world, 1.0f / 240, 1, 1.0f / 240) ==
               PL_OK);
    }
    ENSURE(plGetPosition(block, p) == PL_OK);
    printf("  m g = 1.05 c: moved %.3f m in 1 s\n", p[1] - 0.8);
    ENSURE(p[1] - 0.8 < -0.5);
    ENSURE(plRemoveRigidBody(world, block) == PL_OK);
    ENSURE(plRemoveRigidBody(world, ceiling) == PL_OK);
    plDeleteRigidBody(block);
    plDeleteRigidBody(ceiling);
    plDeleteShape(cube);
    plDeleteShape(slab);
    plDeleteDynamicsWorld(world);
    plDeletePhysicsSdk(sdk);
    return 0;
}

/* A box-bounded row (plNewLinearFriction; Tasora 6.2's
   seal friction): a 1 kg box on a frictionless plane, S = 2 N along x.
   Launched at 1 m/s along x it decelerates at S / m = 2 m/s^2 and stops
   after v0^2 / (2 a) - v0 h / 2 = 0.241667 m (semi-implicit Euler at h =
   1/60: the sum of h (v0 - a h n) over n = 1..30; 1e-4 m for float);
   the row's impulse while sliding is -S h; launched along z it is not
   resisted (1 m in 1 s, to 1e-4 m).  Bad values refused. */
static int test_linear_friction(void)
{
    const double S = 2.0, h = 1.0 / 60;
    for (int dir = 0; dir < 2; ++dir) {
        scene s;
        if (scene_make(&s, PL_SOLVER_CONE)) {
            return 1;
        }
        plCollisionShapeHandle cube = plNewBoxShape(0.2f, 0.2f, 0.2f);
        plRigidBodyHandle box = plCreateRigidBody(NULL, 1, cube);
        const plVector3 at = {5, 0.2f, 0}, x = {1, 0, 0}, zero = {0, 0, 0};
        const plVector3 v0 = {dir == 0 ? 1.0f : 0.0f, 0, dir == 0 ? 0 : 1.0f};
        ENSURE(box != NULL);
        ENSURE(plSetPosition(box, at) == PL_OK);
        ENSURE(plSetFriction(box, 0) == PL_OK);
        ENSURE(plSetFriction(s.ground, 0) == PL_OK);
        ENSURE(plSetSleeping(box, 0) == PL_OK);
        ENSURE(plAddRigidBody(s.world, box) == PL_OK);
        ENSURE(plNewLinearFriction(box, NULL, zero, 1) == NULL);
        ENSURE(error_says("axis"));
        ENSURE(plNewLinearFriction(box, NULL, x, -1) == NULL);
        ENSURE(plNewLinearFriction(box, NULL, x, NAN) == NULL);
        ENSURE(plNewLinearFriction(s.ground, NULL, x, 1) == NULL);
        plConstraintHandle seal = plNewLinearFriction(box, NULL, x, 0.5f);
        ENSURE(seal != NULL);
        ENSURE(plSetLinearFrictionForce(seal, -1) == PL_ERR_INVALID);
        ENSURE(plSetLinearFrictionForce(seal, (plReal)S) == PL_OK);
        ENSURE(plAddConstraint(s.world, seal, 1) == PL_OK);
        for (int i = 0; i < 10; ++i) { /* settle on the plane */
            ENSURE(plStepSimulationFixed(s.world, (plReal)h, 1, (plReal)h) ==
                   PL_OK);
        }
        plVector3 p0, p1;
        ENSURE(plGetPosition(box, p0) == PL_OK);
        ENSURE(plSetLinearVelocity(box, v0) == PL_OK);
        plReal lambda = 0;
        for (int i = 0; i < 30; ++i) {
            ENSURE(plStepSimulationFixed(s.world, (plReal)h, 1, (plReal)h) ==
                   PL_OK);
            if (i == 0) {
                ENSURE(plGetConstraintImpulse(seal, &lambda) == PL_OK);
            }
        }
        for (int i = 0; i < 30; ++i) { /* at rest: nothing more */
            ENSURE(plStepSimulationFixed(s.world, (plReal)h, 1, (plReal)h) ==
                   PL_OK);
        }
        ENSURE(plGetPosition(box, p1) == PL_OK);
        if (dir == 0) {
            const double d_ref = 1.0 / (2 * S) - 1.0 * h / 2;
            printf("  along the axis: stopped after %.5f m (%.5f), impulse "
                   "%.5f N s (%.5f)\n",
                   p1[0] - p0[0], d_ref, lambda, -S * h);
            ENSURE_SMALL(p1[0] - p0[0] - d_ref, 1e-4);
            ENSURE_SMALL(lambda + S * h, 1e-5);
        } else {
            printf("  across the axis: %.5f m in 1 s (1 m), impulse %.2e\n",
                   p1[2] - p0[2], lambda);
            ENSURE_SMALL(p1[2] - p0[2] - 1.0, 1e-4);
            /* not sliding along the axis: far inside the bound S h (the
               row only holds the x velocity the settling contacts
               leave, ~1e-6 m/s) */
            ENSURE_LE(fabs(lambda), 1e-3 * S * h);
        }
        ENSURE(plDeleteConstraint(seal) == PL_OK);
        ENSURE(plRemoveRigidBody(s.world, box) == PL_OK);
        plDeleteRigidBody(box);
        plDeleteShape(cube);
        scene_free(&s);
    }
    return 0;
}

/* Compliant and yielding contacts through the C API:
   the test ball
   (m = 1 kg on the plane) with plSetContactStiffnessAndDamping(K = 1000
   N/m, D = 20 N s/m), the ground nearly rigid (1e12 N/m, 0): after 3 s at
   h = 1/240 it rests m g / K = 9.81 mm deep, within 1%.  Bad values
   refused. */
static int test_contact_stiffness(void)
{
    scene s;
    if (scene_make(&s, PL_SOLVER_CONE)) {
        return 1;
    }
    ENSURE(plSetContactStiffnessAndDamping(s.body, 0, 1) == PL_ERR_INVALID);
    ENSURE(plSetContactStiffnessAndDamping(s.body, 1, -1) == PL_ERR_INVALID);
    ENSURE(plSetContactStiffnessAndDamping(s.body, NAN, 1) == PL_ERR_NONFINITE);
    ENSURE(plSetContactStiffnessAndDamping(s.body, 1000, 20) == PL_OK);
    ENSURE(plSetYield(s.body, -1) == PL_ERR_INVALID);
    ENSURE(plSetYield(s.body, NAN) == PL_ERR_NONFINITE);
    /* a yield force far above the load: no plastic flow, the same rest */
    ENSURE(plSetYield(s.ground, 1e6f) == PL_OK);
    ENSURE(plSetContactStiffnessAndDamping(s.ground, 1e12f, 0) == PL_OK);
    for (int i = 0; i < 720; ++i) {
        ENSURE(plStepSimulationFixed(s.world, 1.0f / 240, 1, 1.0f / 240) ==
               PL_OK);
    }
    plVector3 p;
    ENSURE(plGetPosition(s.body, p) == PL_OK);
    const double d = 0.5 - p[1], d_ref = 9.81 / 1000;
    printf("  deflection %.5f m (m g / K = %.5f)\n", d, d_ref);
    ENSURE_SMALL(d / d_ref - 1, 0.01);
    /* ground that yields at 5 N < m g cannot hold the ball: it sinks at
       (m g - 5) / m = 4.81 m/s^2, 0.6 m in 0.5 s (bound 0.5 m) */
    ENSURE(plSetYield(s.ground, 5) == PL_OK);
    for (int i = 0; i < 120; ++i) {
        ENSURE(plStepSimulationFixed(s.world, 1.0f / 240, 1, 1.0f / 240) ==
               PL_OK);
    }
    plVector3 q;
    ENSURE(plGetPosition(s.body, q) == PL_OK);
    printf("  yielding ground: sank %.3f m in 0.5 s\n", p[1] - q[1]);
    ENSURE(p[1] - q[1] > 0.5);
    scene_free(&s);
    return 0;
}

/* Contacts with their six impulses, seen from each body:
   - a ball (m = 1) at rest on the plane: the normal impulses sum to
     m g h (statics; 1e-3 relative), the normal points from the other
     body to the one asked about, and the two views are opposite;
   - rolling (cone): the rolling impulse lies on the rolling cone's
     boundary, |(tu, tw)| = rho gn (associated model, Tasora App. C
     projection; 1e-3 relative), and opposes the angular velocity;
   - stock: the torques are not known (m_has_torques 0). */
static int test_contacts(void)
{
    const double h = 1.0 / 60, g = 9.81, rho = 0.036;
    scene s;
    if (scene_make(&s, PL_SOLVER_CONE)) {
        return 1;
    }
    for (int i = 0; i < 60; ++i) {
        ENSURE(plStepSimulationFixed(s.world, (plReal)h, 1, (plReal)h) ==
               PL_OK);
    }
    plContactInfo c[8], cg[8];
    const int n = plGetContacts(s.body, c, 8);
    ENSURE(n >= 1 && n <= 8);
    ENSURE(plGetContacts(s.body, NULL, 0) == n); /* count only */
    ENSURE(plGetContacts(s.ground, cg, 8) == n);
    double gn = 0;
    for (int k = 0; k < n; ++k) {
        ENSURE(c[k].m_other == s.ground && cg[k].m_other == s.body);
        ENSURE_SMALL(c[k].m_normal[1] - 1, 1e-5);
        ENSURE_SMALL(cg[k].m_normal[1] + 1, 1e-5);
        ENSURE(c[k].m_has_torques == 1);
        for (int j = 0; j < 6; ++j) {
            ENSURE_SMALL(c[k].m_impulse[j] - cg[k].m_impulse[j],
                         1e-6 + 1e-5 * fabs(c[k].m_impulse[j]));
        }
        /* right-handed frames */
        const plReal *N = c[k].m_normal, *t1 = c[k].m_tangent1,
                     *t2 = c[k].m_tangent2;
        ENSURE_SMALL(N[1] * t1[2] - N[2] * t1[1] - t2[0], 1e-5);
        ENSURE_SMALL(N[2] * t1[0] - N[0] * t1[2] - t2[1], 1e-5);
        ENSURE_SMALL(N[0] * t1[1] - N[1] * t1[0] - t2[2], 1e-5);
        ENSURE_SMALL(c[k].m_rolling_friction - rho, 1e-6);
        gn += c[k].m_impulse[0];
    }
    printf("  resting ball: %d point(s), normal impulse %.6f (m g h = "
           "%.6f)\n",
           n, gn, g * h);
    ENSURE_SMALL(gn / (g * h) - 1, 1e-3);

    /* roll along x: the rolling impulse saturates and opposes w */
    const plVector3 v = {2, 0, 0}, w = {0, 0, -4};
    ENSURE(plSetLinearVelocity(s.body, v) == PL_OK);
    ENSURE(plSetAngularVelocity(s.body, w) == PL_OK);
    for (int i = 0; i < 30; ++i) {
        ENSURE(plStepSimulationFixed(s.world, (plReal)h, 1, (plReal)h) ==
               PL_OK);
    }
    ENSURE(plGetContacts(s.body, c, 8) >= 1);
    double tw[3] = {0, 0, 0}, tr = 0, gnr = 0;
    for (int k = 0; k < plGetContacts(s.body, c, 8); ++k) {
        if (c[k].m_impulse[0] <= 0) {
            continue;
        }
        const double r = sqrt((double)c[k].m_impulse[4] * c[k].m_impulse[4] +
                              (double)c[k].m_impulse[5] * c[k].m_impulse[5]);
        ENSURE_SMALL(r / (rho * c[k].m_impulse[0]) - 1, 1e-3);
        tr += r;
        gnr += c[k].m_impulse[0];
        for (int j = 0; j < 3; ++j) {
            tw[j] += c[k].m_impulse[4] * c[k].m_tangent1[j] +
                     c[k].m_impulse[5] * c[k].m_tangent2[j];
        }
    }
    plVector3 wn;
    ENSURE(plGetAngularVelocity(s.body, wn) == PL_OK);
    const double cosang = (tw[0] * wn[0] + tw[1] * wn[1] + tw[2] * wn[2]) /
                          (sqrt(tw[0] * tw[0] + tw[1] * tw[1] + tw[2] * tw[2]) *
                           sqrt((double)wn[0] * wn[0] + (double)wn[1] * wn[1] +
                                (double)wn[2] * wn[2]));
    printf("  rolling ball: |tau_r| %.3e = rho gn %.3e, cos(tau, w) %.5f\n", tr,
           rho * gnr, cosang);
    ENSURE(gnr > 0);
    ENSURE_SMALL(cosang + 1, 1e-3);

    /* stock: no torques known */
    ENSURE(plSetContactSolver(s.world, PL_SOLVER_STOCK) == PL_OK);
    ENSURE(plStepSimulationFixed(s.world, (plReal)h, 1, (plReal)h) == PL_OK);
    const int ns = plGetContacts(s.body, c, 8);
    ENSURE(ns >= 1);
    gn = 0;
    for (int k = 0; k < ns; ++k) {
        ENSURE(c[k].m_has_torques == 0);
        ENSURE(c[k].m_impulse[3] == 0 && c[k].m_impulse[4] == 0);
        gn += c[k].m_impulse[0];
    }
    ENSURE(gn > 0);

    /* errors */
    ENSURE(plGetContacts(s.body, NULL, 1) == -1);
    ENSURE(plGetContacts(s.body, c, -1) == -1);
    ENSURE(plGetContacts(NULL, c, 8) == -1);
    ENSURE(error_says("body"));
    ENSURE(plRemoveRigidBody(s.world, s.body) == PL_OK);
    ENSURE(plGetContacts(s.body, c, 8) == 0); /* in no world */
    scene_free(&s);
    return 0;
}

/* plSetBodyName: the names in the recording (read back with the C
   reader), given before the recording and, for a body in no world yet,
   before plAddRigidBody; the longest name (63 bytes) whole; a longer one
   refused, not cut; a NULL or stale body and a NULL name refused, each
   with its status. */
static int test_body_names(void)
{
    scene s;
    if (scene_make(&s, PL_SOLVER_CONE)) {
        return 1;
    }
    char path[64], longest[64], too_long[65];
    snprintf(path, sizeof path, "test_c_api_names_%d.rec",
             (int)(8 * sizeof(plReal)));
    memset(longest, 'n', 63);
    longest[63] = '\0';
    memset(too_long, 'n', 64);
    too_long[64] = '\0';
    ENSURE(plSetBodyName(s.body, "ball") == PL_OK); /* not recording yet */
    plRigidBodyHandle loose = plCreateRigidBody(NULL, 1, s.ball);
    ENSURE(loose != NULL);
    ENSURE(plSetBodyName(loose, "loose") == PL_OK); /* in no world yet */
    ENSURE(plAddRigidBody(s.world, loose) == PL_OK);
    ENSURE(plStartRecording(s.world, path, 0, 0) == PL_OK);
    ENSURE(plSetBodyName(NULL, "x") == PL_ERR_NULL);
    ENSURE(plSetBodyName(s.body, NULL) == PL_ERR_NULL);
    ENSURE(error_says("name is NULL"));
    ENSURE(plSetBodyName(s.body, too_long) == PL_ERR_INVALID);
    ENSURE(error_says("64 bytes"));
    ENSURE(plSetBodyName(s.ground, longest) == PL_OK);
    ENSURE(plSetBodyName(s.body, "ball") == PL_OK);
    for (int i = 0; i < 3; ++i) {
        ENSURE(plStepSimulationFixed(s.world, 1.0f / 60, 1, 1.0f / 60) ==
               PL_OK);
    }
    ENSURE(plStopRecording(s.world) == PL_OK);
    ENSURE(plRemoveRigidBody(s.world, loose) == PL_OK);
    ENSURE(plDeleteRigidBody(loose) == PL_OK);
    ENSURE(plSetBodyName(loose, "x") == PL_ERR_HANDLE); /* deleted */
    scene_free(&s);
    rf_recording *r = NULL;
    rf_error err;
    ENSURE(rf_recording_read(path, &r, &err) == RF_OK);
    const int ok = r->nbody == 3 && r->nframe == 4 &&
                   strcmp(r->bodies[0].name, longest) == 0 &&
                   strcmp(r->bodies[1].name, "ball") == 0 &&
                   strcmp(r->bodies[2].name, "loose") == 0;
    rf_recording_free(r);
    remove(path);
    ENSURE(ok);
    return 0;
}

int main(void)
{
    RUN_TEST(test_precision_and_order);
    RUN_TEST(test_rolling_distance);
    RUN_TEST(test_bad_input);
    RUN_TEST(test_groups);
    RUN_TEST(test_axis_shapes);
    RUN_TEST(test_triangle_mesh);
    RUN_TEST(test_constraints);
    RUN_TEST(test_contacts);
    RUN_TEST(test_anisotropic_rolling);
    RUN_TEST(test_mass_props);
    RUN_TEST(test_cohesion);
    RUN_TEST(test_linear_friction);
    RUN_TEST(test_contact_stiffness);
    RUN_TEST(test_body_names);
    RUN_TEST(test_friction_anchor);
    RUN_TEST(test_world_solver_info);
    RUN_TEST(test_default_friction);
    return TEST_SUMMARY();
}
