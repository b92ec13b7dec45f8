/*
 * rf_config and rf_stats can grow (rollfric.h, "Binary
 * compatibility"): the library reads and writes only the sizes the caller
 * was compiled with.  A program built against an older header is
 * simulated by sizes that end before the last fields (rf_config before
 * `residual`, rf_stats before `skipped_bodies`):
 *   - a configuration read at the older size ignores what lies beyond it
 *     (here an invalid residual = 7, which the full size refuses) and the
 *     field keeps its default;
 *   - statistics written at the older size leave the bytes beyond it as
 *     the caller had them;
 *   - a size larger than the library's (a later header) is refused with
 *     RF_ERR_INVALID and both sizes in the message, nothing written.
 */
#include "problem_gen.h"

#include <stddef.h>
#include <stdio.h>

enum { NB = 6 };

/* a planted body-form problem of seed */
static int planted(unsigned seed, rf_problem **p)
{
    rf_rng r = {seed};
    double gstar[6 * NB];
    ENSURE(rf_problem_create(p, NULL) == RF_OK);
    ENSURE(gen_body_planted(&r, NB, 0, *p, gstar) == RF_OK);
    return 0;
}

static int test_older_caller(void)
{
    rf_problem *p;
    double g[6 * NB] = {0};
    ENSURE(planted(5, &p) == 0);
    const size_t cfg_old = offsetof(rf_config, residual);
    const size_t stats_old = offsetof(rf_stats, skipped_bodies);

    rf_config cfg;
    memset(&cfg, 0x5A, sizeof cfg);
    ENSURE(rf_config_default_sized(&cfg, cfg_old) == RF_OK);
    ENSURE(cfg.solver == RF_SOLVER_APGD && cfg.max_iter == 1000);
    cfg.residual = 7; /* beyond the old size: garbage to the library */
    rf_error err;
    ENSURE(rf_config_validate(&cfg, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "residual = 7") != NULL);
    ENSURE(rf_config_validate_sized(&cfg, cfg_old, &err) == RF_OK);

    rf_stats st;
    memset(&st, 0xAB, sizeof st);
    cfg.tol = 1e-10;
    ENSURE(rf_solve_sized(p, &cfg, cfg_old, g, &st, stats_old, &err) == RF_OK);
    ENSURE(st.contacts == NB && st.converged == 1);
    const unsigned char *tail = (const unsigned char *)&st + stats_old;
    for (size_t k = 0; k < sizeof st - stats_old; ++k) {
        ENSURE(tail[k] == 0xAB);
    }
    /* the same through the carried solve and the split impulse */
    rf_carry *carry;
    ENSURE(rf_carry_create(&carry, NULL) == RF_OK);
    memset(&st, 0xAB, sizeof st);
    ENSURE(rf_solve_carried_sized(p, &cfg, cfg_old, carry, g, &st, stats_old,
                                  &err) == RF_OK);
    ENSURE(st.contacts == NB && tail[0] == 0xAB);
    rf_carry_destroy(carry);
    double bias[NB], v[3 * NB], w[3 * NB];
    for (int i = 0; i < NB; ++i) {
        bias[i] = -0.01;
    }
    memset(&st, 0xAB, sizeof st);
    ENSURE(rf_solve_split_sized(p, &cfg, cfg_old, bias, NULL, v, w, &st,
                                stats_old, &err) == RF_OK);
    ENSURE(st.contacts == NB && tail[0] == 0xAB);
    ENSURE(rf_problem_memory_sized(p, &cfg, cfg_old) ==
           rf_problem_memory(p, &cfg));
    rf_problem_destroy(p);
    return 0;
}

static int test_newer_caller(void)
{
    rf_problem *p;
    double g[6 * NB] = {0};
    ENSURE(planted(6, &p) == 0);
    struct {
        rf_config cfg;
        double later[2];
    } big;
    const size_t cfg_big = sizeof big;
    memset(&big, 0x5A, sizeof big);
    ENSURE(rf_config_default_sized(&big.cfg, cfg_big) == RF_ERR_INVALID);
    ENSURE(rf_config_default_sized(&big.cfg, 0) == RF_ERR_INVALID);
    ENSURE(rf_config_default_sized(NULL, sizeof big.cfg) == RF_ERR_NULL);
    const unsigned char *raw = (const unsigned char *)&big;
    ENSURE(raw[0] == 0x5A); /* nothing written */
    rf_config_default(&big.cfg);
    rf_error err;
    char expect[64];
    snprintf(expect, sizeof expect, "has %zu bytes, this library's %zu",
             cfg_big, sizeof(rf_config));
    ENSURE(rf_solve_sized(p, &big.cfg, cfg_big, g, NULL, 0, &err) ==
           RF_ERR_INVALID);
    ENSURE(strstr(err.message, expect) != NULL);
    ENSURE(rf_config_validate_sized(&big.cfg, cfg_big, &err) == RF_ERR_INVALID);
    struct {
        rf_stats st;
        double later[2];
    } bigst;
    ENSURE(rf_solve_sized(p, &big.cfg, sizeof big.cfg, g, &bigst.st,
                          sizeof bigst, &err) == RF_ERR_INVALID);
    snprintf(expect, sizeof expect, "has %zu bytes, this library's %zu",
             sizeof bigst, sizeof(rf_stats));
    ENSURE(strstr(err.message, expect) != NULL);
    ENSURE(rf_problem_memory_sized(p, &big.cfg, cfg_big) == 0);
    rf_problem_destroy(p);
    return 0;
}

int main(void)
{
    RUN_TEST(test_older_caller);
    RUN_TEST(test_newer_caller);
    return TEST_SUMMARY();
}
