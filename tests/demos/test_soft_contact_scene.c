/*
 * The soft_contact scene (demos/scene_soft_contact.c;
 * Tasora-Anitescu 6.2's Tikhonov term) with the cone solver, stock beside:
 *   - damped spheres on K = 250 .. 16000 N/m rest m g / K deep within 1%
 *     (the bound; the implicit spring has no error at rest);
 *   - the undamped sphere on K = 100 N/m oscillates with the period
 *     2 pi sqrt(m / K) within 2% (the bound), and within 0.2% of
 *     the implicit step's own period 2 pi / (atan(h omega) / h), h = 1/60
 *     (its exact discrete frequency; the rest is the crossing
 *     interpolation over three periods).
 */
#include "demo.h"

#include "../test_util.h"

static int test_soft_contact_scene(void)
{
    demo_result r, s;
    demo_opts o;
    demo_opts_default(&o);
    o.solver = PL_SOLVER_STOCK;
    ENSURE(demo_run_logged(&demo_soft_contact, &o, &s) == 0);
    o.solver = PL_SOLVER_CONE;
    ENSURE(demo_run_logged(&demo_soft_contact, &o, &r) == 0);
    ENSURE(r.series.nrows == 4);
    const double worst = demo_get_metric(&r, "worst_deflection_rel_error");
    const double period = demo_get_metric(&r, "period"),
                 ref = demo_get_reference(&r, "period");
    const double h = 1.0 / 60, omega = 10.0; /* sqrt(100 / 1) */
    const double discrete = 2.0 * DEMO_PI * h / atan(h * omega);
    printf("  cone: deflection error %.2e, period %.5f s (2 pi sqrt(m/K) = "
           "%.5f, implicit step %.5f), %g periods\n",
           worst, period, ref, discrete, demo_get_metric(&r, "periods_seen"));
    printf("  stock: deflection error %.2f, periods seen %g\n",
           demo_get_metric(&s, "worst_deflection_rel_error"),
           demo_get_metric(&s, "periods_seen"));
    ENSURE_SMALL(ref - 2.0 * DEMO_PI / omega, 1e-12);
    ENSURE_LE(worst, 0.01);
    ENSURE(demo_get_metric(&r, "periods_seen") >= 2);
    ENSURE_SMALL(period / ref - 1.0, 0.02);
    ENSURE_SMALL(period / discrete - 1.0, 0.002);
    demo_result_free(&r);
    demo_result_free(&s);
    return 0;
}

int main(void)
{
    RUN_TEST(test_soft_contact_scene);
    return TEST_SUMMARY();
}
