/*
 * The pyramid model (RF_MODEL_PYRAMID): Pang & Trinkle's friction pyramid
 * LCP (Theorem 1, eq. (30)-(31)), at the velocity level and with every
 * contact in their rolling set R (a time-stepping scheme has no separate
 * sliding set: each step decides).  The cone of each friction component
 * k of contact i (sliding u, w with mu; spin with sigma; rolling u, w
 * with rho) becomes the box |c_k| <= kappa_k c_n (their (18): the
 * four-sided pyramid for sliding), with Lemma 1's split
 *     s_k+ = kappa c_n + c_k,  s_k- = kappa c_n - c_k,
 *     a_k+ = max(0, a_k),      a_k- = max(0, -a_k),
 * so that with a = W c + r (the local velocities; c the 6D impulse):
 *     a_n            >= 0  _|_  c_n  >= 0
 *     a_k + a_k-     >= 0  _|_  s_k+ >= 0     (= a_k+)
 *     2 kappa c_n - s_k+ >= 0  _|_  a_k- >= 0  (= s_k-)
 * z = (c_n, s+, a-), solved by Lemke's method (lemke.c).  A component
 * with kappa = 0 (or tw of an RF_CONTACT_ROLL_T1 contact) has c_k = 0 and
 * no variables.  Unlike the cones, the box pyramid contains Y (a 45 deg
 * slide meets sqrt(2) mu c_n): an A/B model, not an approximation from
 * inside.  Small problems only (dense W and tableau).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* kappa of component k (1..5) of contact i, or 0 when it has none */
static double pyramid_coef(const rf_problem *p, int i, int k)
{
    switch (k) {
    case RF_U:
    case RF_W: return p->con_mu[i];
    case RF_SPIN: return p->con_sigma[i];
    case RF_ROLL_U: return p->con_rho[i];
    case RF_ROLL_W:
        return (p->con_flags[i] & RF_CONTACT_ROLL_T1) ? 0.0 : p->con_rho[i];
    }
    return 0.0;
}

/* Adds to row (over z) the coefficients of local velocity d: c_n(j)
   enters with W_{d,n_j} - sum_k kappa_jk W_{d,f_jk}, s+_jk with
   W_{d,f_jk} (c_k = s+ - kappa c_n). */
static void velocity_row(const rf_problem *p, const double *W, const int *comp,
                         int d, double *row)
{
    const int nc = p->ncon, m = 6 * nc;
    for (int j = 0; j < nc; ++j) {
        double v = W[(size_t)d * m + 6 * j];
        for (int k = 1; k < 6; ++k) {
            const int f = comp[6 * j + k];
            if (f >= 0) {
                const double wk = W[(size_t)d * m + 6 * j + k];
                v -= pyramid_coef(p, j, k) * wk;
                row[nc + f] += wk;
            }
        }
        row[j] += v;
    }
}

rf_status rf__check_pyramid(const rf_problem *p, rf_error *err)
{
    static const char fn[] = "rf_solve (pyramid model)";
    if (p->nrow > 0) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: %d joint rows; the pyramid LCP holds contacts "
                        "only",
                        fn, p->nrow);
    }
    if (p->ncon > RF_PYRAMID_MAX_CONTACTS) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: %d contacts; the dense LCP takes at most %d", fn,
                        p->ncon, RF_PYRAMID_MAX_CONTACTS);
    }
    for (int i = 0; i < p->ncon; ++i) {
        if (p->con_nmax[i] > 0.0) {
            return rf__fail(err, RF_ERR_INVALID,
                            "%s: contact %d has a yield cap (normal_max), "
                            "which the LCP does not model",
                            fn, i);
        }
    }
    return RF_OK;
}

void rf__solve_pyramid(rf_problem *p, const rf_config *cfg, int threads,
                       double *gamma, rf_solve_out *out, rf_error *err,
                       rf_status *status)
{
    const int m = 6 * p->ncon;
    *status = RF_OK;
    out->iterations = 0;
    out->residual = 0.0;
    out->converged = 1;
    if (p->ncon == 0) {
        return;
    }
    /* variable layout: c_n of every contact, then per active component
       its s+ and a- */
    int *comp = malloc((size_t)m * sizeof(int)); /* dof -> s+ index or -1 */
    double *W = malloc((size_t)m * m * sizeof(double));
    double *e = calloc((size_t)m, sizeof(double));
    double *r = malloc((size_t)m * sizeof(double));
    double *col = malloc((size_t)m * sizeof(double));
    int nf = 0;
    if (comp == NULL || W == NULL || e == NULL || r == NULL || col == NULL) {
        *status = rf__fail(err, RF_ERR_NOMEM,
                           "rf_solve (pyramid model): out of memory");
        goto done;
    }
    for (int i = 0; i < p->ncon; ++i) {
        comp[6 * i] = -1;
        for (int k = 1; k < 6; ++k) {
            comp[6 * i + k] = pyramid_coef(p, i, k) > 0.0 ? nf++ : -1;
        }
    }
    /* W column by column (N e_j), and r */
    for (int j = 0; j < m; ++j) {
        e[j] = 1.0;
        rf__apply_N(p, e, col, 0, threads);
        e[j] = 0.0;
        for (int d = 0; d < m; ++d) {
            W[(size_t)d * m + j] = col[d];
        }
    }
    rf__free_velocity(p, r, threads);
    {
        const int nc = p->ncon, n = nc + 2 * nf;
        double *M = calloc((size_t)n * n, sizeof(double));
        double *q = calloc((size_t)n, sizeof(double));
        double *z = calloc((size_t)n, sizeof(double));
        if (M == NULL || q == NULL || z == NULL) {
            free(M);
            free(q);
            free(z);
            *status = rf__fail(err, RF_ERR_NOMEM,
                               "rf_solve (pyramid model): out of memory for "
                               "an LCP of %d variables",
                               n);
            goto done;
        }
        for (int i = 0; i < nc; ++i) { /* a_n(i) */
            double *row = M + (size_t)i * n;
            velocity_row(p, W, comp, 6 * i, row);
            q[i] = r[6 * i];
        }
        for (int i = 0; i < nc; ++i) {
            for (int k = 1; k < 6; ++k) {
                const int f = comp[6 * i + k];
                if (f < 0) {
                    continue;
                }
                double *row = M + (size_t)(nc + f) * n; /* a_k + a_k- */
                velocity_row(p, W, comp, 6 * i + k, row);
                row[nc + nf + f] += 1.0;
                q[nc + f] = r[6 * i + k];
                double *row2 = M + (size_t)(nc + nf + f) * n; /* s_k- */
                row2[i] = 2.0 * pyramid_coef(p, i, k);
                row2[nc + f] = -1.0;
            }
        }
        int pivots = 0;
        *status = rf_lcp_lemke(
            n, M, q, z, cfg->max_iter > 100 * n ? cfg->max_iter : 100 * n,
            &pivots, err);
        out->iterations = pivots;
        if (*status == RF_OK) {
            /* impulses from z */
            for (int i = 0; i < nc; ++i) {
                gamma[6 * i] = z[i];
                for (int k = 1; k < 6; ++k) {
                    const int f = comp[6 * i + k];
                    gamma[6 * i + k] =
                        f < 0 ? 0.0 : z[nc + f] - pyramid_coef(p, i, k) * z[i];
                }
            }
            /* the natural-map residual |min(z, Mz + q)| / max(1, |q|) */
            double res2 = 0.0, qn2 = 0.0;
            for (int a = 0; a < n; ++a) {
                double w = q[a];
                for (int b = 0; b < n; ++b) {
                    w += M[(size_t)a * n + b] * z[b];
                }
                const double mn = z[a] < w ? z[a] : w;
                res2 += mn * mn;
                qn2 += q[a] * q[a];
            }
            out->residual = sqrt(res2) / (qn2 > 1.0 ? sqrt(qn2) : 1.0);
            out->converged = cfg->tol == 0.0 || out->residual <= cfg->tol;
        }
        free(M);
        free(q);
        free(z);
    }
done:
    free(comp);
    free(W);
    free(e);
    free(r);
    free(col);
}
