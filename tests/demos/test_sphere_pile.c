/*
 * The spheres piles of Acary et al. section 6.2 (demos/scene_sphere_pile.c)
 * in the quick size (60 spheres of phi = 0.02 m dropped from 10 phi at
 * 15/s, 5 s, h = 1e-3 s; mu in {0.3, 1.0} x mu_r in {1e-5, 3e-4, 0.1} m),
 * cone solver with the scene's model (De Saxce, Gauss-Seidel at most
 * 100 iterations, tol 1e-6; one thread, ctest's OMP_NUM_THREADS=1).  The
 * paper's section 6.2 states, and the test asserts:
 *  - first regime, small mu_r: "the ratio between the height and the
 *    diameter is equal to one, meaning that there is no superposition of
 *    spheres": H / phi = 1 within 1% at mu_r = 1e-5 (a sphere resting on
 *    others stands at least 0.5 phi higher; the 1% is contact
 *    penetration, ~1e-4 here);
 *  - third regime: the spheres stack: H / phi at mu_r = 0.1 exceeds the
 *    one-layer value by more than one diameter;
 *  - "the height of the pile is higher when the friction coefficient
 *    increases": H / phi at mu_r = 0.1 larger for mu = 1 than for 0.3;
 *  - "the mean radius of the bottom of the pile quickly decreases": the
 *    mean base radius strictly decreases along mu_r = 1e-5, 3e-4, 0.1 for
 *    both mu;
 *  - with mu_r = 0.1 m nothing rolls away: every sphere of the last run
 *    (mu = 1, mu_r = 0.1) ends on the plane.  (Its fastest sphere is
 *    printed, not asserted: the model has no spinning friction, and a
 *    sphere may keep spinning about a contact normal.)
 * Stock Bullet's numbers are printed beside them (test_regimes_stock),
 * never asserted.
 *
 * ctest runs it as two entries (demos/CMakeLists.txt, times in
 * tests/demos/README.md): test_sphere_pile.quick (bad parameters),
 * .cone (the asserted sweep) and .stock (stock's sweep, printed).  The sweep
 * keeps its size in every build: fewer spheres do not stack at mu = 0.3
 * (measured: 30 spheres in 3 s give H / phi = 1.74 at mu_r = 0.1, not
 * above 2), and the 60 spheres need the 5 s (15/s is close to the
 * fastest release without overlap, 15.6/s), so .cone stays over 60 s
 * under ASan (about 300 s) and runs in the Release pass only (label
 * sweep; tests/demos/README.md).
 */
#include "demo.h"

#include "test_cases.h"

#include <string.h>

extern const demo_scene demo_sphere_pile;

#define SPP_TEST_PHI 0.02

/* Runs the quick sweep with the solver and prints its series. */
static int run_quick(plSolver solver, demo_result *r)
{
    demo_opts o;
    demo_opts_default(&o);
    o.solver = solver;
    o.quick = 1;
    if (demo_run(&demo_sphere_pile, &o, r) != 0) {
        fprintf(stderr, "sphere_pile (%s) failed: %s\n",
                demo_solver_name(solver), r->error);
        return -1;
    }
    const demo_series *s = &r->series;
    printf("  %s:\n", demo_solver_name(solver));
    for (int k = 0; k < s->nrows; ++k) {
        printf("    mu_r %-7g H/phi (mu 0.3) %.4f (mu 1) %.4f   radius/phi "
               "(mu 0.3) %.3f (mu 1) %.3f\n",
               demo_series_at(s, k, 0),
               demo_series_at(s, k, demo_series_column(s, "height_mu03")),
               demo_series_at(s, k, demo_series_column(s, "height_mu1")),
               demo_series_at(s, k, demo_series_column(s, "radius_mu03")),
               demo_series_at(s, k, demo_series_column(s, "radius_mu1")));
    }
    printf("    ");
    demo_print(stdout, r, 1);
    return 0;
}

static int test_regimes(void)
{
    demo_result cone;
    ENSURE(run_quick(PL_SOLVER_CONE, &cone) == 0);
    const demo_series *s = &cone.series;
    double h[2][3], rad[2][3], murs[3];
    const char *hcol[2] = {"height_mu03", "height_mu1"};
    const char *rcol[2] = {"radius_mu03", "radius_mu1"};
    const int nrows = s->nrows;
    for (int k = 0; k < 3 && k < nrows; ++k) {
        murs[k] = demo_series_at(s, k, demo_series_column(s, "mur"));
        for (int i = 0; i < 2; ++i) {
            h[i][k] = demo_series_at(s, k, demo_series_column(s, hcol[i]));
            rad[i][k] = demo_series_at(s, k, demo_series_column(s, rcol[i]));
        }
    }
    /* the last run's spheres at the end: on the plane, at rest */
    double vmax = 0;
    int on_plane = 0;
    for (int b = 0; b < cone.nbodies; ++b) {
        const demo_body_state *st = &cone.bodies[b];
        if (st->pos[1] > 0 && fabs(st->pos[0]) < 30 * SPP_TEST_PHI &&
            fabs(st->pos[2]) < 30 * SPP_TEST_PHI) {
            vmax = fmax(vmax, demo_speed(st));
            on_plane++;
        }
    }
    const int nbodies = cone.nbodies;
    demo_result_free(&cone);
    ENSURE(nrows == 3);
    ENSURE(murs[0] == 1e-5 && murs[1] == 3e-4 && murs[2] == 0.1);
    for (int i = 0; i < 2; ++i) {
        ENSURE_SMALL(h[i][0] - 1, 0.01); /* first regime: one layer */
        ENSURE_LE(h[i][0] + 1, h[i][2]); /* third: stacked */
        ENSURE_LE(rad[i][1], rad[i][0]); /* the base narrows */
        ENSURE_LE(rad[i][2], rad[i][1]);
        ENSURE(rad[i][1] < rad[i][0] && rad[i][2] < rad[i][1]);
    }
    ENSURE(h[1][2] > h[0][2]); /* a higher plateau with a higher mu */
    printf("  last run (mu 1, mu_r 0.1): %d of %d spheres on the plane, "
           "fastest %.3g m/s\n",
           on_plane, nbodies, vmax);
    ENSURE(nbodies == 60 && on_plane == 60);
    return 0;
}

/* Stock Bullet's sweep, printed beside the cone's (never asserted; its
   own case, and its own ctest entry). */
static int test_regimes_stock(void)
{
    demo_result stock;
    if (run_quick(PL_SOLVER_STOCK, &stock) == 0) {
        demo_result_free(&stock);
    }
    return 0;
}

/* Bad parameters are refused with the value named. */
static int test_bad_parameters(void)
{
    static const struct {
        const char *key;
        double value;
        const char *message;
    } bad[] = {
        {"mu", 0, "mu = 0 must be > 0"},
        {"mur", -0.5, "mur = -0.5 must be >= 0"},
        {"spheres", 2.5, "spheres = 2.5 must be 1..100000"},
        {"rate", 0, "rate = 0 must be in (0, 1e4]"},
        {"sleeping", 2, "sleeping = 2 must be 0 or 1"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        demo_opts o;
        demo_result r;
        demo_opts_default(&o);
        ENSURE(demo_opts_set(&o, bad[k].key, bad[k].value) == 0);
        ENSURE(demo_run(&demo_sphere_pile, &o, &r) != 0);
        ENSURE(strstr(r.error, bad[k].message) != NULL);
        demo_result_free(&r);
    }
    return 0;
}

/* No argument: every case.  Case names as arguments: those only (ctest
   runs one entry per group of cases, demos/CMakeLists.txt). */
int main(int argc, char **argv)
{
    rf_cases cases = rf_cases_init(argc, argv);
    RUN_CASE(&cases, test_bad_parameters);
    RUN_CASE(&cases, test_regimes);
    RUN_CASE(&cases, test_regimes_stock);
    return rf_cases_summary(&cases);
}
