/*
 * The impacts scene (demos/scene_impacts.c) with
 * the cone solver, stock beside:
 *   - restitution e = 0.25, 0.5, 0.75: the balls rise again to e^2 H
 *     within 1% (the bound; h = 1e-4 s keeps the step's share
 *     near 0.4% for the lowest rise);
 *   - the ball on yielding ground leaves it at the 1D spring-slider
 *     model's permanent dent within 2% (as test_plastic_indentation);
 *   - stock: printed (it takes the gap off the rebound and has no yield).
 */
#include "demo.h"

#include "../test_util.h"

static int test_impacts_scene(void)
{
    demo_result r, s;
    demo_opts o;
    demo_opts_default(&o);
    o.solver = PL_SOLVER_STOCK;
    ENSURE(demo_run_logged(&demo_impacts, &o, &s) == 0);
    o.solver = PL_SOLVER_CONE;
    ENSURE(demo_run_logged(&demo_impacts, &o, &r) == 0);
    ENSURE(r.series.nrows == 3);
    const double rise = demo_get_metric(&r, "worst_rise_rel_error"),
                 dent = demo_get_metric(&r, "permanent_dent"),
                 dent_ref = demo_get_reference(&r, "permanent_dent");
    printf("  cone: worst rise error %.2e, dent %.5f m (1D model %.5f)\n", rise,
           dent, dent_ref);
    printf("  stock: worst rise error %.2f\n",
           demo_get_metric(&s, "worst_rise_rel_error"));
    ENSURE_LE(rise, 0.01);
    ENSURE_SMALL(dent / dent_ref - 1.0, 0.02);
    demo_result_free(&r);
    demo_result_free(&s);
    return 0;
}

int main(void)
{
    RUN_TEST(test_impacts_scene);
    return TEST_SUMMARY();
}
