/*
 * Lemke's complementary pivoting method for the LCP
 *     w = M z + q,  w >= 0,  z >= 0,  w . z = 0
 * (Cottle, Pang & Stone, "The Linear Complementarity Problem", 4.4; the
 * method Pang & Trinkle name for their Theorem 1 LCP).  Dense tableau,
 * covering vector e = 1: the artificial z0 enters first at the most
 * negative q_i, then each leaving variable's complement enters; the
 * minimum-ratio test picks who leaves (z0 first on a tie, then the
 * smallest row).  It ends when z0 leaves (a solution), on a ray (the
 * entering column has no positive entry: the method cannot go on, the
 * LCP may have no solution) or at the pivot cap.  For the small problems
 * of the pyramid model (rf_solve with RF_MODEL_PYRAMID): O(n^2) memory and
 * per pivot.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

rf_status rf_lcp_lemke(int n, const double *M, const double *q, double *z,
                       int max_pivots, int *pivots, rf_error *err)
{
    static const char fn[] = "rf_lcp_lemke";
    if (M == NULL || q == NULL || z == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: %s is NULL", fn,
                        M == NULL ? "M" : (q == NULL ? "q" : "z"));
    }
    if (n < 1 || n > 20000 || max_pivots < 1) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: n = %d (1 .. 20000) or max_pivots = %d (>= 1)", fn,
                        n, max_pivots);
    }
    if (!rf__all_finite(M, (size_t)n * n) || !rf__all_finite(q, (size_t)n)) {
        return rf__fail(err, RF_ERR_NONFINITE, "%s: M or q is not finite", fn);
    }
    if (pivots != NULL) {
        *pivots = 0;
    }
    int neg = -1;
    for (int i = 0; i < n; ++i) {
        if (q[i] < 0.0 && (neg < 0 || q[i] < q[neg])) {
            neg = i;
        }
    }
    memset(z, 0, (size_t)n * sizeof(double));
    if (neg < 0) { /* q >= 0: z = 0, w = q */
        rf__ok(err);
        return RF_OK;
    }
    /* Tableau rows: basic variable = b_i - sum over nonbasic of T_ij x_j,
       kept as the full (n x (2n + 1)) matrix of the equations
       I w - M z - e z0 = q: column j < n is w_j, n + j is z_j, 2n is z0. */
    const int nc = 2 * n + 1;
    double *T = malloc((size_t)n * nc * sizeof(double));
    double *b = malloc((size_t)n * sizeof(double));
    int *basis = malloc((size_t)n * sizeof(int));
    if (T == NULL || b == NULL || basis == NULL) {
        free(T);
        free(b);
        free(basis);
        return rf__fail(err, RF_ERR_NOMEM, "%s: out of memory for n = %d", fn,
                        n);
    }
    double scale = 0.0; /* for the pivot tolerance */
    for (int i = 0; i < n; ++i) {
        double *row = T + (size_t)i * nc;
        memset(row, 0, (size_t)nc * sizeof(double));
        row[i] = 1.0;
        for (int j = 0; j < n; ++j) {
            row[n + j] = -M[(size_t)i * n + j];
            scale = fmax(scale, fabs(M[(size_t)i * n + j]));
        }
        row[2 * n] = -1.0;
        b[i] = q[i];
        basis[i] = i; /* w_i */
    }
    const double tol = 1e-12 * (scale > 1.0 ? scale : 1.0);
    rf_status st = RF_OK;
    int entering = 2 * n, leave_row = neg, count = 0;
    for (;;) {
        /* pivot on (leave_row, entering) */
        double *pr = T + (size_t)leave_row * nc;
        const double piv = pr[entering];
        for (int j = 0; j < nc; ++j) {
            pr[j] /= piv;
        }
        b[leave_row] /= piv;
        for (int i = 0; i < n; ++i) {
            if (i == leave_row) {
                continue;
            }
            double *ri = T + (size_t)i * nc;
            const double f = ri[entering];
            if (f != 0.0) {
                for (int j = 0; j < nc; ++j) {
                    ri[j] -= f * pr[j];
                }
                b[i] -= f * b[leave_row];
            }
        }
        const int left = basis[leave_row];
        basis[leave_row] = entering;
        ++count;
        if (left == 2 * n) { /* z0 left: a complementary solution */
            break;
        }
        if (count >= max_pivots) {
            st = rf__fail(err, RF_ERR_LCP,
                          "%s: no solution after %d pivots (the cap)", fn,
                          count);
            break;
        }
        entering = left < n ? n + left : left - n; /* the complement */
        /* minimum ratio over rows with a positive entry; ties broken by
           z0 first, then lexicographically on the rows of B^-1 (the w
           columns) over the pivot entry, which rules out cycling on a
           degenerate (zero) basic value (Cottle-Pang-Stone 4.9) */
        leave_row = -1;
        double best = 0.0;
        for (int i = 0; i < n; ++i) {
            const double a = T[(size_t)i * nc + entering];
            if (!(a > tol)) {
                continue;
            }
            const double r = b[i] / a;
            const double slack = 1e-12 * (fabs(best) > 1.0 ? fabs(best) : 1.0);
            int take = leave_row < 0 || r < best - slack;
            if (!take && r <= best + slack) { /* a tie */
                if (basis[leave_row] == 2 * n) {
                    take = 0;
                } else if (basis[i] == 2 * n) {
                    take = 1;
                } else {
                    const double al = T[(size_t)leave_row * nc + entering];
                    for (int j = 0; j < n; ++j) {
                        const double x = T[(size_t)i * nc + j] / a;
                        const double y = T[(size_t)leave_row * nc + j] / al;
                        if (x < y - 1e-13) {
                            take = 1;
                            break;
                        }
                        if (x > y + 1e-13) {
                            break;
                        }
                    }
                }
            }
            if (take) {
                best = r;
                leave_row = i;
            }
        }
        if (leave_row < 0) {
            st = rf__fail(err, RF_ERR_LCP,
                          "%s: ray termination after %d pivots (variable %s_%d "
                          "can grow without bound): Lemke's method finds no "
                          "solution",
                          fn, count, entering < n ? "w" : "z",
                          entering < n ? entering : entering - n);
            break;
        }
    }
    if (st == RF_OK) {
        for (int i = 0; i < n; ++i) {
            if (basis[i] >= n && basis[i] < 2 * n) {
                z[basis[i] - n] = b[i] > 0.0 ? b[i] : 0.0;
            }
        }
        rf__ok(err);
    }
    if (pivots != NULL) {
        *pivots = count;
    }
    free(T);
    free(b);
    free(basis);
    return st;
}
