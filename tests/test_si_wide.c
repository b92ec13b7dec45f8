/*
 * The sequential impulse solver's wide form (plugin/solver_si_wide.c):
 * its bundles run the row form's arithmetic lane by lane, so a solve must
 * return the same impulses whichever kernel ran the bundled manifolds.
 *
 * A random coloured problem (over 512 items, so the sweep is coloured and
 * bundled) with every case the bundles meet: manifolds of 1 to 4 points
 * (bundled) and of 5 (too long: the group kernel), manifolds with rolling
 * and spinning friction, rolling only (about t1 alone on a roll_t1 cone,
 * or a disc), spin only, and with points with and without (the angular
 * bundles: up to two rounds of sliding, spin and rolling per point, each
 * lane stopping on its own), frictionless ones (mu = 0: no sliding step,
 * with and without rolling), points with compliance (every component)
 * and with a yield cap, the world
 * and a fixed body that moves (read only) as the second side, penetrating
 * and separating biases, and a warm start with normal impulses well above
 * what the biases ask for, so that the energy guard has work to do.
 * Solved with SI, De Saxce model, 12 sweeps, no tolerance:
 *   - the group kernel alone (RF__SI_WIDE_OFF), the two-lane kernel
 *     (RF__SI_WIDE_NARROW), the AVX kernel (RF__SI_WIDE_AVX, where this
 *     processor has AVX), both on bundles of four, and the automatic
 *     choice (AVX-512 on bundles of eight where it has that) give equal
 *     impulses, component by component (==:
 *     the lanes may differ from the group kernel in the sign of a zero
 *     only), equal energy changes, and at 2 threads the same as at 1;
 *   - the wide solves bundled over half the manifolds (the test would
 *     prove nothing otherwise), and the energy check left every solve
 *     alone (energy_scale 1: the guard kept the iterate's energy change
 *     within the biases' work, rf_solve's energy check).
 */
#include "internal.h"
#include "problem_gen.h"
#include "rollfric/rollfric.h"
#include "test_util.h"

#include <stdio.h>
#include <string.h>

enum { NB = 240, NMAN = 260, MAXC = 5 * NMAN };

typedef struct wide_case {
    rf_problem *p;
    int ncon;
    double g0[6 * MAXC]; /* the warm start */
} wide_case;

static int build_case(uint64_t seed, wide_case *wc)
{
    rf_rng r = {seed};
    int npt[NMAN], pair[NMAN][2], ncon = 0;
    for (int m = 0; m < NMAN; ++m) {
        const double x = rf_rng_uniform(&r);
        npt[m] = x < 0.08 ? 5 : 1 + (int)(rf_rng_uniform(&r) * 4.0);
        pair[m][0] = (int)(rf_rng_uniform(&r) * (NB - 1));
        const double y = rf_rng_uniform(&r);
        pair[m][1] =
            y < 0.25 ? RF_WORLD
            : y < 0.35
                ? NB - 1 /* the moving fixed body */
                : (pair[m][0] + 1 + (int)(rf_rng_uniform(&r) * (NB - 3))) %
                      (NB - 1);
        if (pair[m][1] == pair[m][0]) {
            pair[m][1] = RF_WORLD;
        }
        ncon += npt[m];
    }
    ENSURE(rf_problem_create(&wc->p, NULL) == RF_OK);
    ENSURE(rf_problem_begin_bodies(wc->p, NB, ncon, NULL) == RF_OK);
    for (int b = 0; b < NB; ++b) {
        rf_body_desc bd;
        gen_body(&r, &bd, NULL);
        if (b == NB - 1) {
            bd.flags = RF_BODY_FIXED; /* keeps its velocity, read only */
        }
        ENSURE(rf_problem_set_body(wc->p, b, &bd, NULL) == RF_OK);
    }
    int i = 0;
    for (int m = 0; m < NMAN; ++m) {
        const double kind = rf_rng_uniform(&r);
        for (int k = 0; k < npt[m]; ++k, ++i) {
            rf_contact_desc c;
            gen_contact(&r, pair[m][0], pair[m][1], &c);
            c.rho = c.sigma = 0.0;
            c.flags = 0;
            if (kind < 0.06) { /* rolling and spinning */
                c.rho = 0.05;
                c.sigma = 0.02;
            } else if (kind < 0.1) { /* rolling only, about t1 alone on
                                        every other manifold */
                c.rho = 0.04;
                c.flags = m % 2 ? RF_CONTACT_ROLL_T1 : 0;
            } else if (kind < 0.13) { /* spin only */
                c.sigma = 0.03;
            } else if (kind < 0.16) { /* points with and without */
                c.rho = k % 2 ? 0.0 : 0.05;
                c.sigma = k % 2 ? 0.0 : 0.02;
            } else if (kind < 0.23) {
                c.mu = 0.0;
            }
            if (kind < 0.16 && m % 5 == 0) { /* rolling, no sliding */
                c.mu = 0.0;
            }
            if (rf_rng_uniform(&r) < 0.05) {
                c.compliance[0] = 1e-3;
                c.compliance[1] = c.compliance[2] = 2e-3;
                c.compliance[3] = c.compliance[4] = c.compliance[5] = 1e-3;
            }
            if (rf_rng_uniform(&r) < 0.05) {
                c.normal_max = 0.4;
            }
            /* pushed apart where the warm start pushes (the biases' work
               g.b > 0: the guard's bound is then E <= 0, and the
               penetrating points' steps, which the biases pay for, are
               shortened), penetrating where it does not */
            double *g = wc->g0 + 6 * i;
            memset(g, 0, 6 * sizeof(double));
            g[0] = rf_rng_uniform(&r) < 0.3 ? 0.0 : rf_rng_range(&r, 0.0, 3.0);
            c.bias[0] = g[0] > 0.0 ? rf_rng_range(&r, 0.0, 0.5)
                                   : rf_rng_range(&r, -0.5, 0.0);
            ENSURE(rf_problem_set_contact(wc->p, i, &c, NULL) == RF_OK);
            g[1] = 0.3 * c.mu * g[0];
            g[2] = -0.2 * c.mu * g[0];
            g[3] = 0.5 * c.sigma * g[0];
            g[4] = 0.4 * c.rho * g[0];
            g[5] = c.flags ? 0.0 : -0.3 * c.rho * g[0];
        }
    }
    wc->ncon = ncon;
    return 0;
}

/* SI, De Saxce model, 12 sweeps, no tolerance, the Bullet defaults'
   residual 0. */
static void si_config(rf_config *cfg, int threads)
{
    gen_si_config(cfg, RF_MODEL_DESAXCE, 12);
    cfg->threads = threads;
}

static int solve_mode(wide_case *wc, int mode, int threads, double *g,
                      rf_stats *st)
{
    rf_config cfg;
    si_config(&cfg, threads);
    cfg.warm_start = 1;
    memcpy(g, wc->g0, (size_t)6 * wc->ncon * sizeof(double));
    wc->p->work.si_wide_mode = mode;
    ENSURE(rf_solve(wc->p, &cfg, g, st, NULL) == RF_OK);
    ENSURE(st->iterations == 12 && st->colors > 0);
    return 0;
}

static int same_impulses(const double *a, const double *b, int n)
{
    for (int k = 0; k < n; ++k) {
        if (!(a[k] == b[k])) {
            printf("  component %d (contact %d): %.17g against %.17g\n", k,
                   k / 6, a[k], b[k]);
            return 0;
        }
    }
    return 1;
}

static int test_kernels_agree(void)
{
    static wide_case wc;
    static double ref[6 * MAXC], g[6 * MAXC];
    for (uint64_t seed = 1; seed <= 3; ++seed) {
        ENSURE(build_case(seed, &wc) == 0);
        const int n = 6 * wc.ncon;
        rf_stats s_ref, st;
        ENSURE(solve_mode(&wc, RF__SI_WIDE_OFF, 1, ref, &s_ref) == 0);
        ENSURE(wc.p->work.si_nbundle == 0);
        static const int modes[] = {RF__SI_WIDE_NARROW, RF__SI_WIDE_AVX,
                                    RF__SI_WIDE_AUTO};
        static const char *const kernel_name[] = {"two-lane", "AVX", "AVX-512"};
        for (int mi = 0; mi < 3; ++mi) {
            for (int threads = 1; threads <= 2; ++threads) {
                ENSURE(solve_mode(&wc, modes[mi], threads, g, &st) == 0);
                const rf_work *w = &wc.p->work;
                int bundled = 0, angular = 0;
                for (int b = 0; b < w->si_nbundle; ++b) {
                    const int *meta = w->si_bundle + RF__SI_BMETA * b;
                    for (int l = 0; l < w->si_lanes; ++l) {
                        const int in = meta[RF__SI_BM_LEN + l] > 0;
                        bundled += in;
                        angular += in && meta[RF__SI_BM_ASLOT0] >= 0;
                    }
                }
                printf("  seed %d, %s kernel, %d thread(s): %d contacts, %d "
                       "of %d manifolds bundled (%d with spin or rolling "
                       "friction), %d colours, energy change %+.6e (group "
                       "kernel %+.6e)\n",
                       (int)seed, kernel_name[w->si_kernel], threads, wc.ncon,
                       bundled, NMAN, angular, st.colors, st.energy_change,
                       s_ref.energy_change);
                /* over 80% of the manifolds have 1-4 points, about 16%
                   spin or rolling friction */
                ENSURE(bundled > NMAN / 2);
                ENSURE(angular > NMAN / 20);
                ENSURE(mi != 0 || w->si_kernel == RF__SI_KERNEL_TWO);
                ENSURE(mi != 1 || w->si_kernel != RF__SI_KERNEL_AVX512);
                /* bundles of eight for the AVX-512 kernel, else four */
                ENSURE(w->si_lanes ==
                       (w->si_kernel == RF__SI_KERNEL_AVX512 ? 8 : 4));
                ENSURE(same_impulses(ref, g, n));
                ENSURE(st.energy_change == s_ref.energy_change);
                ENSURE(st.energy_scale == 1.0);
            }
        }
        rf_problem_destroy(wc.p);
    }
    return 0;
}

/* A small problem (40 contacts on 14 bodies, every third compliant, and
   one joint row: below the colouring's thresholds, 129 contacts or 513
   items with joint rows; without rows SI colours from 5 contacts) into
   p. */
static int build_small(rf_problem *p)
{
    rf_rng r = {99};
    enum { SB = 14, SC = 40 };
    ENSURE(rf_problem_begin_bodies(p, SB, SC, NULL) == RF_OK);
    for (int b = 0; b < SB; ++b) {
        rf_body_desc bd;
        gen_body(&r, &bd, NULL);
        ENSURE(rf_problem_set_body(p, b, &bd, NULL) == RF_OK);
    }
    for (int i = 0; i < SC; ++i) {
        rf_contact_desc c;
        gen_pile_contact(&r, i, SB, &c);
        c.rho = c.sigma = 0.0;
        c.bias[0] = -0.1;
        if (i % 3 == 0) {
            c.compliance[0] = 1e-3;
        }
        ENSURE(rf_problem_set_contact(p, i, &c, NULL) == RF_OK);
    }
    /* a bilateral row between bodies 0 and 1 along x */
    rf_row_desc row;
    memset(&row, 0, sizeof row);
    row.body_a = 0;
    row.body_b = 1;
    row.lin_a[0] = 1.0;
    row.lin_b[0] = -1.0;
    row.lo = -INFINITY;
    row.hi = INFINITY;
    row.bound_row = -1;
    ENSURE(rf_problem_begin_rows(p, 1, NULL) == RF_OK);
    ENSURE(rf_problem_set_row(p, 0, &row, NULL) == RF_OK);
    return 0;
}

/* A problem reused for a smaller, uncoloured solve after a coloured one
   (as the Bullet shim reuses one every step) keeps no bundle of the
   earlier solve: the small solve gives what a fresh problem gives, bit
   for bit, and under ASan reads nothing out of bounds (the old bundles'
   contacts were read through the small problem's compliance array). */
static int test_no_stale_bundles(void)
{
    static wide_case wc;
    static double g[6 * MAXC];
    ENSURE(build_case(1, &wc) == 0);
    rf_stats st;
    ENSURE(solve_mode(&wc, RF__SI_WIDE_AUTO, 1, g, &st) == 0);
    ENSURE(wc.p->work.si_nbundle > 0);
    rf_problem *fresh;
    ENSURE(rf_problem_create(&fresh, NULL) == RF_OK);
    ENSURE(build_small(wc.p) == 0 && build_small(fresh) == 0);
    rf_config cfg;
    si_config(&cfg, 1);
    double g1[6 * 40 + 1] = {0}, g2[6 * 40 + 1] = {0};
    ENSURE(rf_solve(wc.p, &cfg, g1, &st, NULL) == RF_OK);
    ENSURE(st.colors == 0 && wc.p->work.si_nbundle == 0);
    ENSURE(rf_solve(fresh, &cfg, g2, NULL, NULL) == RF_OK);
    ENSURE(memcmp(g1, g2, sizeof g1) == 0);
    rf_problem_destroy(fresh);
    rf_problem_destroy(wc.p);
    return 0;
}

int main(void)
{
    RUN_TEST(test_kernels_agree);
    RUN_TEST(test_no_stale_bundles);
    return TEST_SUMMARY();
}
