/*
 * Fuzz target: the problem-file reader (Siconos rolling-friction format,
 * plugin/problem_io.c), then the solvers on whatever it accepts.
 *
 * The bytes are the file; rf__problem_read_mem runs the reader of
 * rf_problem_read on them without the file system.  Oracle:
 *   - a status comes back, and rf_error agrees with it (same status, a
 *     NUL-terminated message, non-empty on failure);
 *   - a failed read leaves the problem as it was (it holds a known
 *     one-contact problem before the read) and *dim untouched;
 *   - an accepted file gives a local-form problem of dimension 5 or 6 that
 *     survives rf_problem_write + rf_problem_read (through a real file, so
 *     the path entry is covered too) bit for bit;
 *   - each solver (a few iterations, both models) returns RF_OK with
 *     stats that fit the problem, and the contacts of gamma that are
 *     finite lie in their cones; when W is symmetric positive
 *     semi-definite, as documented (is_psd: the reader cannot check it),
 *     and the numbers are moderate (is_moderate: below 1e50), gamma is
 *     finite and rf_residual reproduces the solver's residual.
 * Any violation traps (__builtin_trap).
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include "internal.h"

#include "fuzz_util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The known problem a failed read must leave alone: one contact, W = 2 I,
   q = (-1, 0.5, 0, 0, 0, 0), mu 0.5, rho 0.1, sigma 0.05. */
static void set_known(rf_problem *p)
{
    double W[36] = {0}, q[6] = {-1.0, 0.5, 0.0, 0.0, 0.0, 0.0};
    for (int k = 0; k < 6; ++k) {
        W[7 * k] = 2.0;
    }
    const double mu = 0.5, rho = 0.1, sigma = 0.05;
    FUZZ_CHECK(rf_problem_set_local_dense(p, 1, W, q, &mu, &rho, &sigma,
                                          NULL) == RF_OK);
}

static void check_known(const rf_problem *p)
{
    FUZZ_CHECK(rf_problem_is_local(p) && rf_problem_num_contacts(p) == 1);
    FUZZ_CHECK(p->W.n == 6 && p->W.nnz == 6);
    FUZZ_CHECK(p->q[0] == -1.0 && p->q[1] == 0.5);
    FUZZ_CHECK(p->con_mu[0] == 0.5 && p->con_rho[0] == 0.1 &&
               p->con_sigma[0] == 0.05);
}

static void check_error(const rf_error *err, rf_status st)
{
    FUZZ_CHECK(err->status == st);
    FUZZ_CHECK(memchr(err->message, '\0', sizeof err->message) != NULL);
    FUZZ_CHECK((st == RF_OK) == (err->message[0] == '\0'));
}

/* a and b hold the same local problem, bit for bit. */
static void check_same(const rf_problem *a, const rf_problem *b)
{
    const int nc = a->ncon, M = 6 * nc;
    FUZZ_CHECK(b->kind == RF_KIND_LOCAL && b->ncon == nc);
    FUZZ_CHECK(a->W.n == b->W.n && a->W.nnz == b->W.nnz);
    FUZZ_CHECK(
        memcmp(a->W.row_ptr, b->W.row_ptr, (size_t)(M + 1) * sizeof(int)) == 0);
    if (a->W.nnz > 0) {
        FUZZ_CHECK(memcmp(a->W.col, b->W.col, (size_t)a->W.nnz * sizeof(int)) ==
                   0);
        FUZZ_CHECK(
            memcmp(a->W.val, b->W.val, (size_t)a->W.nnz * sizeof(double)) == 0);
    }
    if (nc > 0) {
        const size_t c = (size_t)nc * sizeof(double);
        FUZZ_CHECK(memcmp(a->q, b->q, (size_t)M * sizeof(double)) == 0);
        FUZZ_CHECK(memcmp(a->con_mu, b->con_mu, c) == 0);
        FUZZ_CHECK(memcmp(a->con_rho, b->con_rho, c) == 0);
        FUZZ_CHECK(memcmp(a->con_sigma, b->con_sigma, c) == 0);
    }
}

static void round_trip(const rf_problem *p, int dim)
{
    const char *path = fuzz_scratch_path();
    rf_error err;
    rf_status st = rf_problem_write(p, path, dim, &err);
    check_error(&err, st);
    FUZZ_CHECK(st == RF_OK);
    rf_problem *back = NULL;
    FUZZ_CHECK(rf_problem_create(&back, NULL) == RF_OK);
    int dim2 = 0;
    st = rf_problem_read(back, path, &dim2, &err);
    check_error(&err, st);
    FUZZ_CHECK(st == RF_OK && dim2 == dim);
    check_same(p, back);
    rf_problem_destroy(back);
}

/* Whether p's W is what the API documents: symmetric positive
   semi-definite.  The reader checks symmetry only relative to the largest
   entry and definiteness not at all (rf_problem_set_local_csr), so a file
   may hold any matrix; on one that is not, the iterations may diverge,
   and only the status and the absence of a crash are checked.  Test:
   with d = diag W, every zero-diagonal row is zero, and the unit-diagonal
   D^-1/2 W D^-1/2 is symmetric to 1e-9 and has a Cholesky factorisation
   whose pivots are not below -1e-9 (a pivot near 0 needs its column near
   0: a semi-definite direction). */
static int is_psd(const rf_problem *p)
{
    const int M = 6 * p->ncon;
    double *A = calloc((size_t)M * M + 1, sizeof(double));
    FUZZ_CHECK(A != NULL);
    for (int r = 0; r < M; ++r) {
        for (int e = p->W.row_ptr[r]; e < p->W.row_ptr[r + 1]; ++e) {
            A[(size_t)r * M + p->W.col[e]] = p->W.val[e];
        }
    }
    int ok = 1;
    double *d = malloc(((size_t)M + 1) * sizeof(double));
    FUZZ_CHECK(d != NULL);
    for (int i = 0; i < M; ++i) {
        d[i] = A[(size_t)i * M + i];
        ok &= d[i] >= 0.0;
    }
    for (int i = 0; ok && i < M; ++i) {
        for (int j = 0; ok && j < M; ++j) {
            double *a = &A[(size_t)i * M + j];
            if (d[i] == 0.0 || d[j] == 0.0) {
                ok = *a == 0.0;
            } else {
                *a = *a / sqrt(d[i]) / sqrt(d[j]);
            }
        }
    }
    for (int i = 0; ok && i < M; ++i) {
        for (int j = 0; ok && j < i; ++j) {
            ok = fabs(A[(size_t)i * M + j] - A[(size_t)j * M + i]) <= 1e-9;
        }
    }
    /* in-place Cholesky of the lower triangle, skipping zero pivots */
    for (int k = 0; ok && k < M; ++k) {
        double pk = A[(size_t)k * M + k];
        for (int s = 0; s < k; ++s) {
            pk -= A[(size_t)k * M + s] * A[(size_t)k * M + s];
        }
        ok = pk >= -1e-9;
        const double lk = pk > 1e-12 ? sqrt(pk) : 0.0;
        for (int i = k + 1; ok && i < M; ++i) {
            double v = A[(size_t)i * M + k];
            for (int s = 0; s < k; ++s) {
                v -= A[(size_t)i * M + s] * A[(size_t)k * M + s];
            }
            if (lk > 0.0) {
                A[(size_t)i * M + k] = v / lk;
            } else {
                ok = fabs(v) <= 1e-6;
                A[(size_t)i * M + k] = 0.0;
            }
        }
        A[(size_t)k * M + k] = lk;
    }
    free(d);
    free(A);
    return ok;
}

/* Whether every number of p is moderate: each non-zero entry of W and q
   and each non-zero coefficient between 1e-50 and 1e50 in magnitude.  The
   solvers form sums of squares (norms, the residual) without scaling, so
   with entries near 1e154 (or impulses q / W as large) they overflow; a
   file may hold such numbers, but the finiteness oracle stops at this
   documented limit of double arithmetic (an impulse of 1e100 N s is far
   beyond any simulation). */
static int in_range(double v)
{
    const double a = fabs(v);
    return a == 0.0 || (a >= 1e-50 && a <= 1e50);
}

static int is_moderate(const rf_problem *p)
{
    for (int e = 0; e < p->W.nnz; ++e) {
        if (!in_range(p->W.val[e])) {
            return 0;
        }
    }
    for (int j = 0; j < 6 * p->ncon; ++j) {
        if (!in_range(p->q[j])) {
            return 0;
        }
    }
    for (int i = 0; i < p->ncon; ++i) {
        if (!in_range(p->con_mu[i]) || !in_range(p->con_rho[i]) ||
            !in_range(p->con_sigma[i])) {
            return 0;
        }
    }
    return 1;
}

/* Every solver, a few iterations: RF_OK, and the contacts of gamma that
   are finite in their cones; when W is symmetric positive semi-definite
   (is_psd) and the numbers moderate (is_moderate), a finite gamma and
   consistent stats and residual. */
static void solve_all(rf_problem *p, size_t size)
{
    const int psd = is_psd(p) && is_moderate(p);
    const int nc = rf_problem_num_contacts(p), m = 6 * nc;
    double *gamma = malloc(((size_t)m + 1) * sizeof(double));
    FUZZ_CHECK(gamma != NULL);
    for (int s = RF_SOLVER_JACOBI; s <= RF_SOLVER_APGD; ++s) {
        rf_config cfg;
        rf_config_default(&cfg);
        cfg.solver = (rf_solver_kind)s;
        cfg.model =
            ((size_t)s + size) & 1 ? RF_MODEL_DESAXCE : RF_MODEL_ASSOCIATED;
        cfg.max_iter = 1 + (int)(size % 5);
        cfg.tol = (size >> 1) & 1 ? 0.0 : 1e-8;
        cfg.threads = 1;
        /* a warm start that is not in Y, to exercise its projection */
        for (int j = 0; j < m; ++j) {
            gamma[j] = (double)((j * 7 + s) % 5) - 2.0;
        }
        rf_stats stats;
        rf_error err;
        const rf_status st = rf_solve(p, &cfg, gamma, &stats, &err);
        check_error(&err, st);
        FUZZ_CHECK(st == RF_OK);
        FUZZ_CHECK(!psd || fuzz_all_finite(gamma, (size_t)m));
        for (int i = 0; i < nc; ++i) {
            const double *g = gamma + 6 * i;
            if (fuzz_all_finite(g, 6)) {
                /* relative, and for a normal impulse in the subnormals
                   (mu = 3e158 puts it at 4e-319 for a sliding part of
                   1e-160) its last digits times the coefficients */
                const double c =
                    1.0 + p->con_mu[i] + p->con_rho[i] + p->con_sigma[i];
                FUZZ_CHECK(rf_cone_violation(g, p->con_mu[i], p->con_rho[i],
                                             p->con_sigma[i]) <=
                           1e-9 * fuzz_norm(g, 6) + 1e-318 * c);
            }
        }
        FUZZ_CHECK(stats.contacts == nc && stats.rows == m);
        FUZZ_CHECK(stats.iterations >= 0 && stats.iterations <= cfg.max_iter);
        FUZZ_CHECK(stats.converged ==
                   (cfg.tol > 0.0 && stats.residual <= cfg.tol));
        if (!psd) {
            continue;
        }
        double res = -1.0;
        const rf_status rst = rf_residual(p, cfg.model, gamma, &res, &err);
        check_error(&err, rst);
        FUZZ_CHECK(rst == RF_OK);
        FUZZ_CHECK(res >= 0.0 && isfinite(res));
        /* the solver measures in scaled variables, rf_residual in the
           original ones: the same up to rounding */
        FUZZ_CHECK(fabs(stats.residual - res) <=
                   1e-6 * fmax(res, stats.residual) + 1e-12);
    }
    free(gamma);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rf_problem *p = NULL;
    FUZZ_CHECK(rf_problem_create(&p, NULL) == RF_OK);
    set_known(p);
    rf_error err;
    int dim = -1;
    const rf_status st = rf__problem_read_mem(p, (const char *)data, size,
                                              "fuzz.dat", &dim, &err);
    check_error(&err, st);
    if (st != RF_OK) {
        FUZZ_CHECK(st == RF_ERR_FORMAT || st == RF_ERR_NONFINITE ||
                   st == RF_ERR_INVALID || st == RF_ERR_NOMEM);
        FUZZ_CHECK(dim == -1);
        check_known(p);
        rf_problem_destroy(p);
        return 0;
    }
    FUZZ_CHECK(dim == 5 || dim == 6);
    FUZZ_CHECK(rf_problem_is_local(p) && rf_problem_num_bodies(p) == 0);
    for (int i = 0; i < p->ncon; ++i) {
        FUZZ_CHECK(p->con_mu[i] >= 0.0 && p->con_rho[i] >= 0.0 &&
                   p->con_sigma[i] >= 0.0);
        FUZZ_CHECK(dim == 6 || p->con_sigma[i] == 0.0);
    }
    round_trip(p, dim);
    solve_all(p, size);
    rf_problem_destroy(p);
    return 0;
}
