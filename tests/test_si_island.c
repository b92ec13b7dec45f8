/*
 * The sequential impulse solver's islands (plugin/solver_si_island.c):
 * an island's impulses are the same bits whatever else the problem holds,
 * and whatever the thread count.
 *
 * Islands here are columns of unit cubes (inverse inertia 6 I) on the
 * ground, each pair of touching faces a manifold of four corner points,
 * with random lateral velocities, penetration biases and warm starts
 * drawn from the island's own seed (so an island's data is the same
 * wherever it sits in a problem), some starts in excess (10 N s under the
 * bottom box: the energy guard scales them), some islands with joint rows
 * between their boxes:
 *   A  one box (one contact group: swept the same by colours or in
 *      Bullet's order, and it is swept by colours only beside an island
 *      that is);
 *   B  three boxes (coloured with the De Saxce model, Bullet's order with
 *      the associated one);
 *   C  two boxes held by two rows (Bullet's order: rows and few contacts);
 *   D  130 boxes with rolling and spinning friction (520 contacts:
 *      coloured with either model; the wide kernel's angular bundles);
 *   E  two boxes and a row whose interval excludes 0 (never scaled);
 *   F  two boxes on one point each (its stopping test met in a few
 *      sweeps, while the others sweep on).
 * Each island solved alone and in one problem with all the others (and
 * 150 more jointed pairs, so that the islands swept in Bullet's order run
 * on several threads), both models, 1 and 3 threads, tolerance 0 and
 * 0.01 (each island stops on its own test), at most 10 sweeps: every impulse of
 * the island equal (==).  Solved as one problem (one guard, one order, one
 * stopping test for all), islands A, B and F differ in 12 of the 48
 * cases, by up to 0.013 N s.
 */
#include "test_util.h"

#include <rollfric/rollfric.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct island_spec {
    int nbox;      /* boxes in the column */
    int nrow;      /* rows between box 0 and box 1 (0, 1 or 2) */
    int open_row;  /* the rows' interval excludes 0 */
    int angular;   /* rolling and spinning friction */
    unsigned seed; /* its data */
    int points;    /* per face: 4 (the corners) or 1 (the centre) */
} island_spec;

enum { NSPEC = 6, NPAIR = 150 };
static const island_spec SPECS[NSPEC] = {
    {1, 0, 0, 0, 11, 4},   /* A */
    {3, 0, 0, 0, 12, 4},   /* B */
    {2, 2, 0, 0, 13, 4},   /* C */
    {130, 0, 0, 1, 14, 4}, /* D */
    {2, 1, 1, 0, 15, 4},   /* E */
    {2, 0, 0, 0, 17, 1},   /* F */
};

/* Island sizes: contacts (four per face) and rows. */
static int spec_contacts(const island_spec *sp)
{
    return sp->points * sp->nbox;
}

/* Island sp's bodies from b0, contacts from c0, rows from r0 into p, and
   its warm start into g (the problem's layout: 6 per contact, then one per
   row, ncon contacts in all). */
static int put_island(rf_problem *p, const island_spec *sp, int b0, int c0,
                      int r0, int ncon, double *g)
{
    rf_rng s = {sp->seed};
    for (int k = 0; k < sp->nbox; ++k) {
        rf_body_desc bd;
        memset(&bd, 0, sizeof bd);
        bd.flags = RF_BODY_DYNAMIC;
        bd.inv_mass = 1.0;
        bd.inv_inertia[0] = bd.inv_inertia[4] = bd.inv_inertia[8] = 6.0;
        bd.v[0] = rf_rng_range(&s, -0.1, 0.1);
        bd.v[1] = -0.1;
        bd.v[2] = rf_rng_range(&s, -0.1, 0.1);
        bd.w[1] = rf_rng_range(&s, -0.25, 0.25);
        ENSURE(rf_problem_set_body(p, b0 + k, &bd, NULL) == RF_OK);
    }
    for (int k = 0; k < sp->nbox; ++k) { /* box k on box k - 1 or the ground */
        for (int q = 0; q < sp->points; ++q) {
            const int i = c0 + sp->points * k + q;
            rf_contact_desc c;
            memset(&c, 0, sizeof c);
            c.body_a = b0 + k;
            c.body_b = k == 0 ? RF_WORLD : b0 + k - 1;
            c.n[1] = 1.0;
            c.t1[0] = 1.0;
            c.t2[2] = -1.0; /* t1 x t2 = n */
            const double side = sp->points == 1 ? 0.0 : 0.5;
            const double x = q & 1 ? side : -side, z = q & 2 ? side : -side;
            c.r_a[0] = x;
            c.r_a[1] = -0.5;
            c.r_a[2] = z;
            if (k > 0) {
                c.r_b[0] = x;
                c.r_b[1] = 0.5;
                c.r_b[2] = z;
            }
            c.mu = 0.5;
            c.rho = sp->angular ? 0.02 : 0.0;
            c.sigma = sp->angular ? 0.01 : 0.0;
            c.bias[0] = -0.05 * rf_rng_uniform(&s);
            ENSURE(rf_problem_set_contact(p, i, &c, NULL) == RF_OK);
            g[6 * i] = k == 0 && q == 0 && sp->seed % 2 == 0
                           ? 10.0 /* in excess */
                           : 0.1 * rf_rng_uniform(&s);
            g[6 * i + 1] = rf_rng_range(&s, -0.005, 0.005);
        }
    }
    for (int j = 0; j < sp->nrow; ++j) {
        rf_row_desc row;
        memset(&row, 0, sizeof row);
        row.body_a = b0;
        row.body_b = b0 + 1;
        row.lin_a[j == 0 ? 0 : 2] = 1.0;
        row.lin_b[j == 0 ? 0 : 2] = -1.0;
        row.lo = sp->open_row ? 0.001 : -INFINITY;
        row.hi = INFINITY;
        row.bias = rf_rng_range(&s, -0.005, 0.005);
        row.bound_row = -1;
        ENSURE(rf_problem_set_row(p, r0 + j, &row, NULL) == RF_OK);
        g[6 * ncon + r0 + j] = sp->open_row ? 0.001 : 0.0;
    }
    return 0;
}

/* A problem of the islands specs[0 .. n) in that order; its warm start
   into *g (allocated), the first body, contact and row of each island
   into b0, c0, r0. */
static int make_problem(const island_spec *specs, int n, rf_problem **pp,
                        double **g, int *b0, int *c0, int *r0)
{
    int nb = 0, nc = 0, nr = 0;
    for (int k = 0; k < n; ++k) {
        b0[k] = nb;
        c0[k] = nc;
        r0[k] = nr;
        nb += specs[k].nbox;
        nc += spec_contacts(&specs[k]);
        nr += specs[k].nrow;
    }
    *g = calloc((size_t)(6 * nc + nr), sizeof(double));
    ENSURE(*g != NULL);
    ENSURE(rf_problem_create(pp, NULL) == RF_OK);
    ENSURE(rf_problem_begin_bodies(*pp, nb, nc, NULL) == RF_OK);
    if (nr > 0) {
        ENSURE(rf_problem_begin_rows(*pp, nr, NULL) == RF_OK);
    }
    for (int k = 0; k < n; ++k) {
        ENSURE(put_island(*pp, &specs[k], b0[k], c0[k], r0[k], nc, *g) == 0);
    }
    return 0;
}

static void si_config(rf_config *cfg, rf_model model, int threads, double tol)
{
    rf_config_default(cfg);
    cfg->solver = RF_SOLVER_SI;
    cfg->model = model;
    cfg->threads = threads;
    cfg->tol = tol;
    cfg->max_iter = 10;
    cfg->residual = 0;
}

/* How far a is from b, counting any difference of bits but the sign of
   zero (at least 1e-300: a difference below what fabs shows counts). */
static double bit_difference(double a, double b)
{
    return a == b ? 0.0 : fmax(fabs(a - b), 1e-300);
}

/* Island k of the big problem (impulses g, ncon contacts) against the
   same island alone (ga): the largest difference. */
static double island_difference(const island_spec *sp, const double *g,
                                int ncon, int c0, int r0, const double *ga,
                                int ncon_a)
{
    double worst = 0.0;
    for (int i = 0; i < 6 * spec_contacts(sp); ++i) {
        worst = fmax(worst, bit_difference(g[6 * c0 + i], ga[i]));
    }
    for (int j = 0; j < sp->nrow; ++j) {
        worst = fmax(worst,
                     bit_difference(g[6 * ncon + r0 + j], ga[6 * ncon_a + j]));
    }
    return worst;
}

static int test_islands_apart(void)
{
    /* the big problem: the six islands in the middle of 150 jointed
       pairs (2 boxes, 1 row each: islands in Bullet's order, enough for
       that sweep to share out over threads) */
    enum { NBIG = NSPEC + NPAIR };
    island_spec big[NBIG];
    int where[NSPEC];
    for (int k = 0, s = 0; k < NBIG; ++k) {
        if (k >= NPAIR / 2 && s < NSPEC) {
            where[s] = k;
            big[k] = SPECS[s++];
        } else {
            const island_spec pair = {2, 1, 0, 0, 100u + (unsigned)k, 4};
            big[k] = pair;
        }
    }
    int b0[NBIG], c0[NBIG], r0[NBIG];
    int failures = 0;
    for (int m = 0; m < 2; ++m) {
        const rf_model model = m ? RF_MODEL_DESAXCE : RF_MODEL_ASSOCIATED;
        for (int threads = 1; threads <= 3; threads += 2) {
            for (int t = 0; t < 2; ++t) {
                rf_config cfg;
                si_config(&cfg, model, threads, t ? 1e-2 : 0.0);
                rf_problem *pb;
                double *gb;
                ENSURE(make_problem(big, NBIG, &pb, &gb, b0, c0, r0) == 0);
                const int ncon = c0[NBIG - 1] + spec_contacts(&big[NBIG - 1]);
                rf_stats sb;
                ENSURE(rf_solve(pb, &cfg, gb, &sb, NULL) == RF_OK);
                for (int s = 0; s < NSPEC; ++s) {
                    rf_problem *pa;
                    double *ga;
                    int a0, ac0, ar0;
                    ENSURE(make_problem(&SPECS[s], 1, &pa, &ga, &a0, &ac0,
                                        &ar0) == 0);
                    rf_stats sa;
                    ENSURE(rf_solve(pa, &cfg, ga, &sa, NULL) == RF_OK);
                    const int k = where[s];
                    const double d =
                        island_difference(&SPECS[s], gb, ncon, c0[k], r0[k], ga,
                                          spec_contacts(&SPECS[s]));
                    printf("  %-10s %d thread%s tol %-5g island %c (%d "
                           "sweeps, %d colours alone; %d colours together): "
                           "largest difference %.3g\n",
                           m ? "desaxce" : "associated", threads,
                           threads > 1 ? "s" : " ", cfg.tol, 'A' + s,
                           sa.iterations, sa.colors, sb.colors, d);
                    failures += d != 0.0;
                    free(ga);
                    rf_problem_destroy(pa);
                }
                free(gb);
                rf_problem_destroy(pb);
            }
        }
    }
    ENSURE(failures == 0);
    return 0;
}

int main(void)
{
    RUN_TEST(test_islands_apart);
    return TEST_SUMMARY();
}
