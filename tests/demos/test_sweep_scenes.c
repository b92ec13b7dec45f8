/*
 * The sweep scenes (demos/scene_sweeps.c) with the cone solver (world
 * defaults), stock printed beside.  References (Tasora-Anitescu §6.1):
 * stop distance v0^2 / (2 a), a = rho g / (1.4 R) = 3.964 m for v0 = 2 m/s,
 * R = 0.5 m, rho = 0.036 m; semi-implicit Euler stops short of it by
 * about v0 h / 2 (0.42% at h = 1/60): the tolerances below are that
 * discretisation error plus a small margin, never more.
 */
#include "demo.h"

#include "../test_util.h"

static int run(const demo_scene *scene, plSolver solver, demo_result *r)
{
    demo_opts o;
    demo_opts_default(&o);
    o.solver = solver;
    return demo_run_logged(scene, &o, r);
}

/* Isotropy: every heading stops at the same distance (spread <= 1e-4 of
   it), within v0 h / 2 + 0.1% of the analytic one, heading kept to
   0.01 deg. */
static int test_roll_direction(void)
{
    demo_result r, s;
    ENSURE(run(&demo_roll_direction, PL_SOLVER_STOCK, &s) == 0);
    ENSURE(run(&demo_roll_direction, PL_SOLVER_CONE, &r) == 0);
    const double d_ref = demo_get_reference(&r, "distance_min");
    const double h = 1.0 / 60, v0 = 2.0;
    ENSURE_SMALL(d_ref - 3.96420886, 1e-6); /* 4 / (2 * 0.036 * 9.81 / 0.7) */
    ENSURE(r.series.nrows == 13);
    ENSURE_LE(demo_get_metric(&r, "spread"), 1e-4);
    ENSURE_LE(demo_get_metric(&r, "worst_rel_error"),
              v0 * h / 2 / d_ref + 1e-3);
    ENSURE_LE(demo_get_metric(&r, "worst_heading_error_deg"), 0.01);
    printf("  stock spread %.1f%% of the reference\n",
           100 * demo_get_metric(&s, "spread"));
    demo_result_free(&r);
    demo_result_free(&s);
    return 0;
}

/* Mass and step: at every h the three masses stop at the same place, and
   each distance is the analytic one less v0 h / 2 (semi-implicit Euler)
   to 0.2% of the reference. */
static int test_roll_mass_dt(void)
{
    demo_result r, s;
    ENSURE(run(&demo_roll_mass_dt, PL_SOLVER_STOCK, &s) == 0);
    ENSURE(run(&demo_roll_mass_dt, PL_SOLVER_CONE, &r) == 0);
    const demo_series *t = &r.series;
    ENSURE(t->nrows == 4);
    const int cdt = demo_series_column(t, "dt"),
              cref = demo_series_column(t, "d_m1_ref");
    const char *cols[3] = {"d_m1", "d_m10", "d_m100"};
    for (int k = 0; k < t->nrows; ++k) {
        const double h = demo_series_at(t, k, cdt),
                     d_ref = demo_series_at(t, k, cref);
        for (int j = 0; j < 3; ++j) {
            const double d =
                demo_series_at(t, k, demo_series_column(t, cols[j]));
            ENSURE_SMALL((d - (d_ref - 2.0 * h / 2)) / d_ref, 2e-3);
        }
    }
    printf("  stock at h = 1/60: 1 kg %.3f m, 100 kg %.3f m\n",
           demo_get_metric(&s, "distance_m1_h60"),
           demo_get_metric(&s, "distance_m100_h60"));
    demo_result_free(&r);
    demo_result_free(&s);
    return 0;
}

/* Spin-down: stops at I w0 / (sigma m g) = 2.039 s to within one step. */
static int test_spin_down(void)
{
    demo_result r, s;
    ENSURE(run(&demo_spin_down, PL_SOLVER_STOCK, &s) == 0);
    ENSURE(run(&demo_spin_down, PL_SOLVER_CONE, &r) == 0);
    const double t_ref = 0.4 * 0.25 * 10 / (0.05 * 9.81);
    ENSURE_SMALL(demo_get_reference(&r, "stop_time") - t_ref, 1e-9);
    ENSURE_SMALL(demo_get_metric(&r, "stop_time") - t_ref, 1.0 / 60);
    demo_result_free(&r);
    demo_result_free(&s);
    return 0;
}

/* Incline: below the threshold tan(theta) <= rho / R the ball creeps
   < 1 mm in 5 s; above it rolls a t^2 / 2 within 2%. */
static int test_incline_threshold(void)
{
    demo_result r, s;
    ENSURE(run(&demo_incline_threshold, PL_SOLVER_STOCK, &s) == 0);
    ENSURE(run(&demo_incline_threshold, PL_SOLVER_CONE, &r) == 0);
    ENSURE(r.series.nrows == 8);
    ENSURE_LE(demo_get_metric(&r, "max_creep_below"), 1e-3);
    ENSURE_LE(demo_get_metric(&r, "worst_rel_error_above"), 0.02);
    demo_result_free(&r);
    demo_result_free(&s);
    return 0;
}

/* The pyramid model (Pang-Trinkle's LCP by Lemke's
   method) through the Bullet shim: on one contact rolling along the fall
   line the rolling box |tau_u| <= rho c_n is the cone's limit on that
   axis, so the incline threshold and the rolling acceleration are the
   cone's: the same bounds as test_incline_threshold. */
static int test_incline_threshold_pyramid(void)
{
    demo_result r;
    demo_opts o;
    demo_opts_default(&o);
    o.solver = PL_SOLVER_CONE;
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.model = RF_MODEL_PYRAMID;
    o.config = &cfg;
    ENSURE(demo_run_logged(&demo_incline_threshold, &o, &r) == 0);
    ENSURE(r.series.nrows == 8);
    ENSURE(r.model == RF_MODEL_PYRAMID);
    ENSURE_LE(demo_get_metric(&r, "max_creep_below"), 1e-3);
    ENSURE_LE(demo_get_metric(&r, "worst_rel_error_above"), 0.02);
    demo_result_free(&r);
    return 0;
}

int main(void)
{
    RUN_TEST(test_roll_direction);
    RUN_TEST(test_roll_mass_dt);
    RUN_TEST(test_spin_down);
    RUN_TEST(test_incline_threshold);
    RUN_TEST(test_incline_threshold_pyramid);
    return TEST_SUMMARY();
}
