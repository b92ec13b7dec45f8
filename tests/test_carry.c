/*
 * rf_carry: what a sequence of solves carries from one
 * to the next is the core's, so every caller of rf_solve_carried gets it.
 * The rule (rollfric.h, rf_carry): APGD starts from the rf_stats.apgd_lipschitz
 * of the last solve of the carry, Jacobi with automatic omega from its
 * last lambda except on the first solve and every 16th after it, and an
 * explicit cfg->apgd_lipschitz / jacobi_lambda_max wins.  Checked exactly: each
 * carried solve gives the same bits as rf_solve with the start the rule names,
 * on a planted body-form problem (problem_gen.h) with a fixed iteration count,
 * short enough that the start shows in the result (checked too: the carried
 * start and a fresh estimate give different bits).
 */
#include "problem_gen.h"

#include <stdio.h>

enum { NB = 24 };

/* one solve from gamma = 0 on one thread (bits independent of timing) */
static int solve(rf_problem *p, rf_config cfg, rf_carry *carry, double lip,
                 double *g, rf_stats *st)
{
    if (cfg.solver == RF_SOLVER_APGD) {
        cfg.apgd_lipschitz = lip;
    } else {
        cfg.jacobi_lambda_max = lip;
    }
    memset(g, 0, 6 * NB * sizeof(double));
    const rf_status s = carry != NULL
                            ? rf_solve_carried(p, &cfg, carry, g, st, NULL)
                            : rf_solve(p, &cfg, g, st, NULL);
    ENSURE(s == RF_OK);
    return 0;
}

static int same(const double *a, const double *b)
{
    return memcmp(a, b, 6 * NB * sizeof(double)) == 0;
}

/* the planted problem of seed, a fixed-count configuration of solver on
   one thread, and a fresh carry */
static int setup(unsigned seed, rf_solver_kind solver, int max_iter,
                 rf_problem **p, rf_config *cfg, rf_carry **carry)
{
    rf_rng r = {seed};
    double gstar[6 * NB];
    ENSURE(rf_problem_create(p, NULL) == RF_OK);
    ENSURE(gen_body_planted(&r, NB, 0, *p, gstar) == RF_OK);
    rf_config_default(cfg);
    cfg->solver = solver;
    cfg->max_iter = max_iter;
    cfg->tol = 0.0;
    cfg->threads = 1;
    ENSURE(rf_carry_create(carry, NULL) == RF_OK);
    return 0;
}

static int test_apgd_carries_its_step(void)
{
    rf_problem *p;
    rf_config cfg;
    rf_carry *carry;
    double g[6 * NB], ref[6 * NB];
    ENSURE(setup(11, RF_SOLVER_APGD, 12, &p, &cfg, &carry) == 0);
    rf_stats st, sr;
    /* the first solve estimates, as rf_solve */
    ENSURE(solve(p, cfg, carry, 0.0, g, &st) == 0);
    ENSURE(solve(p, cfg, NULL, 0.0, ref, &sr) == 0);
    ENSURE(same(g, ref));
    ENSURE(st.apgd_lipschitz > 0.0 && st.apgd_lipschitz == sr.apgd_lipschitz);
    ENSURE(st.jacobi_lambda_max == 0.0);
    /* the next starts from what it ended with */
    const double l1 = st.apgd_lipschitz;
    ENSURE(solve(p, cfg, carry, 0.0, g, &st) == 0);
    ENSURE(solve(p, cfg, NULL, l1, ref, &sr) == 0);
    ENSURE(same(g, ref));
    double fresh[6 * NB];
    ENSURE(solve(p, cfg, NULL, 0.0, fresh, &sr) == 0);
    ENSURE(!same(g, fresh)); /* the carried start matters */
    /* an explicit start wins over the carried one */
    ENSURE(solve(p, cfg, carry, 3.0 * l1, g, &st) == 0);
    ENSURE(solve(p, cfg, NULL, 3.0 * l1, ref, &sr) == 0);
    ENSURE(same(g, ref));
    /* reset forgets */
    rf_carry_reset(carry);
    ENSURE(solve(p, cfg, carry, 0.0, g, &st) == 0);
    ENSURE(same(g, fresh));
    printf("  APGD: the second solve started from the carried L = %.4g\n", l1);
    rf_carry_destroy(carry);
    rf_problem_destroy(p);
    return 0;
}

static int test_jacobi_reestimates(void)
{
    rf_problem *p;
    rf_config cfg;
    rf_carry *carry;
    double g[6 * NB], ref[6 * NB];
    ENSURE(setup(12, RF_SOLVER_JACOBI, 6, &p, &cfg, &carry) == 0);
    double last = 0.0;
    int carried = 0;
    for (int k = 0; k < 2 * RF_CARRY_JACOBI_ESTIMATE_EVERY + 1; ++k) {
        rf_stats st, sr;
        ENSURE(solve(p, cfg, carry, 0.0, g, &st) == 0);
        const int estimate = k % RF_CARRY_JACOBI_ESTIMATE_EVERY == 0;
        ENSURE(solve(p, cfg, NULL, estimate ? 0.0 : last, ref, &sr) == 0);
        ENSURE(same(g, ref));
        ENSURE(st.jacobi_lambda_max > 0.0 && st.apgd_lipschitz == 0.0);
        carried += !estimate;
        last = st.jacobi_lambda_max;
    }
    printf("  Jacobi: %d of %d solves on the carried lambda %.4g\n", carried,
           2 * RF_CARRY_JACOBI_ESTIMATE_EVERY + 1, last);
    /* an explicit omega: nothing carried, nothing used */
    cfg.omega = 0.3;
    rf_stats st, sr;
    ENSURE(solve(p, cfg, carry, 0.0, g, &st) == 0);
    ENSURE(solve(p, cfg, NULL, 0.0, ref, &sr) == 0);
    ENSURE(same(g, ref));
    rf_carry_destroy(carry);
    rf_problem_destroy(p);
    return 0;
}

static int test_bad(void)
{
    rf_error err;
    ENSURE(rf_carry_create(NULL, &err) == RF_ERR_NULL);
    ENSURE(strstr(err.message, "out") != NULL);
    rf_carry_destroy(NULL);
    rf_carry_reset(NULL);
    rf_carry *carry;
    ENSURE(rf_carry_create(&carry, NULL) == RF_OK);
    double g[6] = {0};
    ENSURE(rf_solve_carried(NULL, NULL, carry, g, NULL, &err) == RF_ERR_NULL);
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.max_iter = 0;
    ENSURE(rf_solve_carried(p, &cfg, carry, g, NULL, &err) == RF_ERR_INVALID);
    rf_problem_destroy(p);
    rf_carry_destroy(carry);
    return 0;
}

int main(void)
{
    RUN_TEST(test_apgd_carries_its_step);
    RUN_TEST(test_jacobi_reestimates);
    RUN_TEST(test_bad);
    return TEST_SUMMARY();
}
