/*
 * The gravel pile of Tasora & Anitescu section 6.3 (demos/scene_gravel_pile.c)
 * in its quick size (500 spheres poured at 200/s from 1 m, 4 s, h = 0.005
 * s), with the cone solver (the scene's solver budget: APGD, at most 100
 * iterations, tol 1e-6; here on one thread): the angle of repose must grow
 * with the rolling = spinning friction rho at every step of the sweep 0,
 * 0.0025, 0.005, 0.01 m, and rho = 0 must give an almost flat stack (the
 * paper's Fig. 10): without rolling friction nothing stops a sphere that
 * rolls off the heap, so the pour spreads into one layer over the
 * container's floor.  Stock Bullet's numbers are printed beside them
 * (test_angle_stock_rho*), never asserted.
 *
 * ctest runs it as five entries (demos/CMakeLists.txt, times in
 * tests/demos/README.md): test_gravel_pile.quick (bad parameters,
 * determinism), .cone (the asserted sweep), .stock_low (rho = 0 and
 * 0.0025 m), .stock_rho005 and .stock_rho01 (stock's heaps, printed).  The
 * sweep keeps its size in every build: smaller pours do not hold the assertions
 * (measured: 200 or 250 spheres leave no heap at rho = 0.0025 m; 500 spheres at
 * the paper's 800/s in 400 steps give 15.5 deg at rho = 0.0025 m against 13.9
 * at 0.005), so .cone stays over 60 s under ASan (about 200 s, 66 s natively)
 * and runs in the Release pass only (label sweep; tests/demos/README.md).
 */
#include "demo.h"

#include "test_cases.h"

#include <string.h>
#include <time.h>

extern const demo_scene demo_gravel_pile;

#define GP_TEST_D 0.045 /* sphere diameter, m */

static const char *const gp_angles[] = {"angle_rho0", "angle_rho0025",
                                        "angle_rho005", "angle_rho01"};

static double now(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* The scene's cone solver budget (used when demo_opts.config is NULL:
   APGD, associated, 100 iterations, tol 1e-6) on one thread. */
static void budget_one_thread(rf_config *cfg)
{
    rf_config_default(cfg);
    cfg->max_iter = 100;
    cfg->tol = 1e-6;
    cfg->threads = 1;
}

/* The quick sweep with that solver (rho < 0; else that rho's heap
   only); prints the series.  0 on success.
   The cone solver runs on one thread: its result is the same, bit for
   bit, on any number (test_deterministic), and on a loaded machine its
   OpenMP threads can wait on each other many times longer than they work
   (measured: one quick heap 8.5 s on 1 thread, 299 s on 2 threads beside
   other jobs). */
static int run_sweep(plSolver solver, double rho, demo_result *r)
{
    demo_opts o;
    rf_config cfg;
    demo_opts_default(&o);
    budget_one_thread(&cfg);
    o.solver = solver;
    o.config = solver == PL_SOLVER_CONE ? &cfg : NULL;
    o.quick = 1;
    if (rho >= 0 && demo_opts_set(&o, "rho", rho) != 0) {
        return -1;
    }
    const double t0 = now();
    if (demo_run(&demo_gravel_pile, &o, r) != 0) {
        fprintf(stderr, "gravel_pile (%s) failed: %s\n",
                demo_solver_name(solver), r->error);
        return -1;
    }
    printf("  %s, %.1f s:\n", demo_solver_name(solver), now() - t0);
    const demo_series *s = &r->series;
    for (int k = 0; k < s->nrows; ++k) {
        printf("    rho %.4f m: angle %5.2f deg, height %.4f m, base radius "
               "%.4f m, %g spheres\n",
               demo_series_at(s, k, demo_series_column(s, "rho")),
               demo_series_at(s, k, demo_series_column(s, "angle")),
               demo_series_at(s, k, demo_series_column(s, "height")),
               demo_series_at(s, k, demo_series_column(s, "radius")),
               demo_series_at(s, k, demo_series_column(s, "spheres")));
    }
    printf("    ");
    demo_print(stdout, r, 1);
    return 0;
}

/* The angle of repose strictly increases along the sweep (cone); rho = 0
   is a flat stack: below 5 deg, and nothing higher than two layers (2 D
   = 0.09 m).  The measurement calls it 0 when fewer than about 16 spheres
   stand on the first layer, so the height bound is the physical check:
   with rho = 0 every sphere that rolls off the heap keeps rolling. */
static int test_angle_grows_with_rho(void)
{
    demo_result cone;
    ENSURE(run_sweep(PL_SOLVER_CONE, -1, &cone) == 0);
    const demo_series *s = &cone.series;
    const double angle0 = demo_get_metric(&cone, "angle_rho0");
    const double height0 = demo_get_metric(&cone, "height_rho0");
    const double lost = demo_get_metric(&cone, "lost");
    const int nrows = s->nrows, nbodies = cone.nbodies;
    double angle[4];
    for (int k = 0; k < 4; ++k) {
        angle[k] = demo_get_metric(&cone, gp_angles[k]);
    }
    const double mono = demo_get_metric(&cone, "angle_monotonic");
    demo_result_free(&cone);
    ENSURE(nrows == 4);
    ENSURE(nbodies == 500); /* the last world's spheres */
    ENSURE(lost == 0);      /* every sphere ends in the container */
    for (int k = 1; k < 4; ++k) {
        ENSURE_LE(angle[k - 1] + 1e-9, angle[k]);
    }
    ENSURE(mono == 1);
    ENSURE_LE(angle0, 5.0);
    ENSURE_LE(height0, 2 * GP_TEST_D);
    return 0;
}

/* Stock Bullet's sweep, printed beside the cone's, never asserted: one
   heap per case (the scene with rho set builds the same world as the
   sweep's), so that the heaps can be ctest entries of their own. */
static void print_stock(double rho)
{
    demo_result stock;
    if (run_sweep(PL_SOLVER_STOCK, rho, &stock) == 0) {
        demo_result_free(&stock);
    }
}

static int test_angle_stock_rho0(void)
{
    print_stock(0);
    return 0;
}

static int test_angle_stock_rho0025(void)
{
    print_stock(0.0025);
    return 0;
}

static int test_angle_stock_rho005(void)
{
    print_stock(0.005);
    return 0;
}

static int test_angle_stock_rho01(void)
{
    print_stock(0.01);
    return 0;
}

/* The scene's own solver budget (no config given: OpenMP's thread count,
   2 under ctest) and the same budget on one thread give the same spheres,
   bit for bit: the default path uses the documented budget, and the
   result does not depend on the thread count (seeded source,
   deterministic solver). */
static int test_deterministic(void)
{
    demo_result r[2];
    rf_config cfg;
    budget_one_thread(&cfg);
    for (int t = 0; t < 2; ++t) {
        demo_opts o;
        demo_opts_default(&o);
        o.config = t == 0 ? NULL : &cfg;
        o.quick = 1;
        o.steps = 200;
        ENSURE(demo_opts_set(&o, "rho", 0.005) == 0);
        if (demo_run(&demo_gravel_pile, &o, &r[t]) != 0) {
            fprintf(stderr, "gravel_pile failed: %s\n", r[t].error);
            if (t == 1) {
                demo_result_free(&r[0]);
            }
            ENSURE(0);
        }
    }
    int same = r[0].nbodies == r[1].nbodies && r[0].nbodies > 0;
    for (int i = 0; same && i < r[0].nbodies; ++i) {
        const demo_body_state *a = &r[0].bodies[i], *b = &r[1].bodies[i];
        same = memcmp(a->pos, b->pos, sizeof a->pos) == 0 &&
               memcmp(a->orn, b->orn, sizeof a->orn) == 0 &&
               memcmp(a->vel, b->vel, sizeof a->vel) == 0 &&
               memcmp(a->omega, b->omega, sizeof a->omega) == 0;
    }
    const double i0 = demo_get_metric(&r[0], "solver_iterations");
    const double i1 = demo_get_metric(&r[1], "solver_iterations");
    printf("  200 steps, rho = 0.005, default / 1 thread: %d / %d spheres, "
           "%.0f / %.0f solver iterations, %s\n",
           r[0].nbodies, r[1].nbodies, i0, i1, same ? "identical" : "DIFFER");
    demo_result_free(&r[0]);
    demo_result_free(&r[1]);
    ENSURE(same);
    ENSURE(i0 == i1);
    return 0;
}

/* Bad parameters are refused with a message naming them. */
static int test_bad_parameters(void)
{
    static const char *const keys[] = {"rho", "spheres", "rate", "sleeping"};
    static const double bad[] = {-0.5, 0, -1, 2};
    for (int k = 0; k < 4; ++k) {
        demo_opts o;
        demo_result r;
        demo_opts_default(&o);
        ENSURE(demo_opts_set(&o, keys[k], bad[k]) == 0);
        ENSURE(demo_run(&demo_gravel_pile, &o, &r) == -1);
        ENSURE(strstr(r.error, keys[k]) != NULL);
        ENSURE(r.bodies == NULL);
    }
    return 0;
}

/* No argument: every case.  Case names as arguments: those only (ctest
   runs one entry per group of cases, demos/CMakeLists.txt). */
int main(int argc, char **argv)
{
    rf_cases cases = rf_cases_init(argc, argv);
    RUN_CASE(&cases, test_bad_parameters);
    RUN_CASE(&cases, test_deterministic);
    RUN_CASE(&cases, test_angle_grows_with_rho);
    RUN_CASE(&cases, test_angle_stock_rho0);
    RUN_CASE(&cases, test_angle_stock_rho0025);
    RUN_CASE(&cases, test_angle_stock_rho005);
    RUN_CASE(&cases, test_angle_stock_rho01);
    return rf_cases_summary(&cases);
}
