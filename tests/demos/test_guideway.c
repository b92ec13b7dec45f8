/*
 * The guideway scene (demos/scene_guideway.c, Tasora & Anitescu 2013
 * section 6.2, flat raceways; the seal friction S in test_seal_friction):
 * a carriage of weight F_y
 * driven at 1 cm/s on 4 rows of 9 steel balls (R_b = 3.2 mm) with rolling
 * friction rho = zeta R_b must need the force zeta F_y.  Run through
 * demo_run with the cone solver, both models, 300 steps of 1 ms each;
 * stock Bullet's numbers are printed beside, never asserted.
 *
 * Solver settings: APGD, at most 1000 iterations; tol 1e-6 for the
 * associated model (the scene's own default: its residual stalls near
 * 2e-7 on this statically indeterminate pack) and 1e-5 for De Saxce (its
 * fixed point on the shift stalls near 1e-5), so that the steps converge
 * instead of all running to the cap; against tol 1e-8 the force changes
 * by 3e-5 (associated) and 2.5e-4 (De Saxce) relative.
 */
#include "demo.h"

#include "../test_util.h"

#include <string.h>

extern const demo_scene demo_guideway;

#define ZETA 0.005

/* Runs the guideway (quick: 300 steps) with the solver and model (cone
   only), tolerance tol, load F_y and zeta.  0 on success. */
static int run(plSolver solver, rf_model model, double tol, double load,
               double zeta, demo_result *r)
{
    demo_opts o;
    rf_config cfg;
    demo_opts_default(&o);
    o.solver = solver;
    o.quick = 1;
    rf_config_default(&cfg);
    cfg.model = model;
    cfg.tol = tol;
    o.config = &cfg;
    if (demo_opts_set(&o, "load", load) != 0 ||
        demo_opts_set(&o, "zeta", zeta) != 0) {
        fprintf(stderr, "demo_opts_set failed\n");
        return -1;
    }
    if (demo_run(&demo_guideway, &o, r) != 0) {
        fprintf(stderr, "guideway failed: %s\n", r->error);
        return -1;
    }
    printf("  %-16s F_y = %5.0f N: F_x = %.6f N (zeta F_y = %.6f, %+.3e; "
           "with the balls' weight %.6f), F_y measured %.3f N, slip %.2e "
           "m/s, drift %.2e m, dy %.2e m\n  ",
           solver == PL_SOLVER_STOCK   ? "stock"
           : model == RF_MODEL_DESAXCE ? "cone/desaxce"
                                       : "cone/associated",
           load, demo_get_metric(r, "fx_mean"), zeta * load,
           demo_get_metric(r, "fx_rel_err"), demo_get_metric(r, "fx_ref_balls"),
           demo_get_metric(r, "fy_mean"), demo_get_metric(r, "ball_slip"),
           demo_get_metric(r, "ball_drift_z"),
           demo_get_metric(r, "carriage_dy"));
    demo_print(stdout, r, 1);
    return 0;
}

/* The cone solver's checks for one load and model. */
static int check_cone(rf_model model, double tol, double load)
{
    demo_result r;
    ENSURE(run(PL_SOLVER_CONE, model, tol, load, ZETA, &r) == 0);
    const double fx = demo_get_metric(&r, "fx_mean");
    const double fx_balls = demo_get_metric(&r, "fx_ref_balls");
    const double fy = demo_get_metric(&r, "fy_mean");
    const double slip = demo_get_metric(&r, "ball_slip");
    const double ratio = demo_get_metric(&r, "ball_speed_ratio");
    const double drift = demo_get_metric(&r, "ball_drift_z");
    const double dy = demo_get_metric(&r, "carriage_dy");
    const double base = demo_get_metric(&r, "base_contacts");
    demo_result_free(&r);
    /* Tasora & Anitescu 6.2 without the seal term: F_x = zeta F_y (each
       ball rolling between the plates holds the carriage back with
       rho N / R_b, rho = zeta R_b); tolerance 5%. */
    ENSURE_SMALL(fx - ZETA * load, 0.05 * ZETA * load);
    /* The same balance with the balls' own weight (the bottom contacts
       carry N + m_b g): zeta (F_y + n m_b g / 2); tolerance 0.1% (the
       solver tolerances above; measured within 3e-4). */
    ENSURE_SMALL(fx - fx_balls, 1e-3 * fx_balls);
    /* The load reaches the carriage through the balls only: the mean
       vertical contact force is its weight F_y, to 0.1%. */
    ENSURE_SMALL(fy - load, 1e-3 * load);
    ENSURE(base == 0);
    /* Rolling without slip: ball centres at half the carriage's speed, to
       0.1%, and no contact point sliding faster than 1e-5 m/s (0.2% of
       the balls' 5 mm/s). */
    ENSURE_SMALL(ratio - 1, 1e-3);
    ENSURE_LE(slip, 1e-5);
    /* No sideways wandering (no side walls): below 1 um. */
    ENSURE_LE(drift, 1e-6);
    /* The carriage stays on the balls: its height error (penetration or
       the associated model's lift 2 h rho |omega| = 5e-8 m) below 1 um,
       3e-4 R_b. */
    ENSURE_SMALL(dy, 1e-6);
    return 0;
}

static int check_load(double load)
{
    demo_result r;
    ENSURE(check_cone(RF_MODEL_ASSOCIATED, 1e-6, load) == 0);
    ENSURE(check_cone(RF_MODEL_DESAXCE, 1e-5, load) == 0);
    /* stock: printed only */
    ENSURE(run(PL_SOLVER_STOCK, RF_MODEL_ASSOCIATED, 1e-6, load, ZETA, &r) ==
           0);
    demo_result_free(&r);
    return 0;
}

/* F_y = 490 N, the paper's load: F_x = zeta F_y = 2.45 N. */
static int test_load_490(void)
{
    return check_load(490);
}

/* F_y = 245 N: F_x = zeta F_y = 1.225 N, the force scales with the load. */
static int test_load_245(void)
{
    return check_load(245);
}

/* zeta = 0: no rolling friction, the balls roll freely and the carriage
   needs no force; bound 0.01 N (0.4% of the 2.45 N with zeta = 0.005). */
static int test_no_rolling_friction(void)
{
    demo_result r;
    ENSURE(run(PL_SOLVER_CONE, RF_MODEL_ASSOCIATED, 1e-6, 490, 0, &r) == 0);
    const double fx = demo_get_metric(&r, "fx_mean");
    demo_result_free(&r);
    ENSURE_SMALL(fx, 0.01);
    return 0;
}

/* The seal friction (a box-bounded row -S h <= lambda <=
   S h on the carriage): the paper's full formula F_x = zeta F_y + S, S =
   5.3 N, F_y = 490 N: 7.75 N.  The row saturates while the carriage
   moves, so it adds exactly S; tolerance as check_cone's (0.1% of the
   reference with the balls' weight, zeta (F_y + n m_b g / 2) + S). */
static int test_seal_friction(void)
{
    for (int model = 0; model < 2; ++model) {
        demo_opts o;
        rf_config cfg;
        demo_result r;
        demo_opts_default(&o);
        o.quick = 1;
        rf_config_default(&cfg);
        cfg.model = (rf_model)model;
        cfg.tol = model == RF_MODEL_DESAXCE ? 1e-5 : 1e-6;
        o.config = &cfg;
        ENSURE(demo_opts_set(&o, "seal", 5.3) == 0);
        ENSURE(demo_run(&demo_guideway, &o, &r) == 0);
        const double fx = demo_get_metric(&r, "fx_mean"),
                     ref = demo_get_reference(&r, "fx_mean"),
                     fx_balls = demo_get_metric(&r, "fx_ref_balls");
        printf("  seal 5.3 N, model %d: F_x = %.6f N (zeta F_y + S = %.6f; "
               "with the balls' weight %.6f)\n",
               model, fx, ref, fx_balls);
        ENSURE_SMALL(ref - (ZETA * 490 + 5.3), 1e-9);
        ENSURE_SMALL(fx - fx_balls, 1e-3 * fx_balls);
        demo_result_free(&r);
    }
    return 0;
}

/* Bad parameters are refused with a message; nothing leaks. */
static int test_bad_parameters(void)
{
    static const char *const keys[] = {"speed", "balls", "load", "rows",
                                       "seal"};
    static const double values[] = {0, 2.5, -1, 9, -1};
    for (int i = 0; i < 5; ++i) {
        demo_opts o;
        demo_result r;
        demo_opts_default(&o);
        ENSURE(demo_opts_set(&o, keys[i], values[i]) == 0);
        ENSURE(demo_run(&demo_guideway, &o, &r) == -1);
        ENSURE(strstr(r.error, keys[i]) != NULL);
        ENSURE(r.bodies == NULL);
    }
    return 0;
}

int main(void)
{
    RUN_TEST(test_bad_parameters);
    RUN_TEST(test_load_490);
    RUN_TEST(test_seal_friction);
    RUN_TEST(test_load_245);
    RUN_TEST(test_no_rolling_friction);
    return TEST_SUMMARY();
}
