/*
 * The example problems from Siconos' test data (tests/data/RFC3D_*.dat,
 * copied from numerics/src/RollingFrictionContact/test/data) are solved
 * to Siconos' residual <= 1e-10 with the De Saxce model, by
 * every solver, and the solution satisfies the model's conditions
 * contact by contact (Acary Prop. 3.1): gamma in Y, u_hat in Y*,
 * <gamma, u_hat> ~ 0.  Siconos' other test problems carry round-off
 * asymmetry in W (up to 1e-4 relative): the same files with
 * their upper triangle perturbed that way are read, hold the symmetric
 * part, report the figure and are solved as well; a gross asymmetry is
 * refused with its figure.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "rollfric/rollfric.h"
#include "local_form.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *FILES[] = {"RFC3D_sphere_1.dat", "RFC3D_cube_1.dat"};

static char tmpdir[256];

/* name: a file in tests/data, or a path (with a '/') */
static int solve_file(const char *name, rf_solver_kind solver)
{
    char path[1024];
    if (strchr(name, '/') != NULL) {
        snprintf(path, sizeof path, "%s", name);
    } else {
        snprintf(path, sizeof path, "%s/%s", RF_TEST_DATA_DIR, name);
    }
    rf_problem *p;
    rf_error err;
    ENSURE(rf_problem_create(&p, &err) == RF_OK);
    int dim = 0;
    if (rf_problem_read(p, path, &dim, &err) != RF_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    ENSURE(dim == 5);
    const int nc = rf_problem_num_contacts(p);
    double *g = calloc((size_t)6 * nc, sizeof(double));
    double *u = calloc((size_t)6 * nc, sizeof(double));
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.solver = solver;
    cfg.model = RF_MODEL_DESAXCE;
    cfg.tol = 1e-10;
    cfg.max_iter = 100000;
    cfg.warm_start = 0;
    rf_stats st;
    ENSURE(rf_solve(p, &cfg, g, &st, &err) == RF_OK);
    printf("  %-20s solver %d: %d iterations, residual %.3e\n", name,
           (int)solver, st.iterations, st.residual);
    ENSURE(st.converged);
    ENSURE_LE(st.residual, 1e-10);
    /* Independent check of the conditions per contact, from u = W g + q.
       The file's coefficients: sphere mu = 0.6, mu_r = 0.5; cube 0.3, 0.1. */
    ENSURE(rf_problem_local_velocity(p, g, u, &err) == RF_OK);
    double scale = 0.0;
    for (int k = 0; k < 6 * nc; ++k) {
        scale = fmax(scale, fmax(fabs(g[k]), fabs(u[k])));
    }
    const double mu = strstr(name, "sphere") ? 0.6 : 0.3;
    const double rho = strstr(name, "sphere") ? 0.5 : 0.1;
    for (int i = 0; i < nc; ++i) {
        double *gi = g + 6 * i, uh[6];
        memcpy(uh, u + 6 * i, sizeof uh);
        uh[0] += mu * hypot(uh[1], uh[2]) + rho * hypot(uh[4], uh[5]);
        ENSURE(gi[RF_SPIN] == 0.0); /* dimension 5: no spin impulse */
        ENSURE_LE(rf_cone_violation(gi, mu, rho, 0.0), 1e-8 * scale);
        ENSURE_LE(rf_dual_cone_violation(uh, mu, rho, 0.0), 1e-8 * scale);
        double comp = 0.0;
        for (int k = 0; k < 6; ++k) {
            comp += gi[k] * uh[k];
        }
        ENSURE_SMALL(comp, 1e-8 * scale * scale);
    }
    free(g);
    free(u);
    rf_problem_destroy(p);
    return 0;
}

static int test_examples_desaxce(void)
{
    const rf_solver_kind solvers[] = {RF_SOLVER_JACOBI, RF_SOLVER_GS,
                                      RF_SOLVER_GS_COLORED, RF_SOLVER_APGD};
    for (int f = 0; f < 2; ++f) {
        for (int s = 0; s < 4; ++s) {
            if (solve_file(FILES[f], solvers[s])) {
                return 1;
            }
        }
    }
    return 0;
}

/* The numbers of a dimension-5 dense file (header included, as doubles):
   d, nc, 0, m, m, m, m, then W (m x m), q (m), mu (nc), mu_r (nc). */
static double *read_numbers(const char *path, int *count)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return NULL;
    }
    int cap = 1024, n = 0;
    double *x = malloc((size_t)cap * sizeof(double)), v;
    while (x != NULL && fscanf(f, "%lf", &v) == 1) {
        if (n == cap) {
            double *y = realloc(x, (size_t)(cap *= 2) * sizeof(double));
            if (y == NULL) {
                free(x);
                x = NULL;
                break;
            }
            x = y;
        }
        x[n++] = v;
    }
    fclose(f);
    *count = n;
    return x;
}

/* The example file `name` with W_ij += e_ij and W_ji -= e_ij (i < j), e_ij
   = eps s_ij |W_ij|, s_ij in {-1, -1/2, 0, 1/2, 1} by position: noise of
   relative size eps in W's antisymmetric part, so that the symmetric W
   the file stands for is known exactly.  Written to out; *asym gets max
   |W_ij - W_ji| / max |W| of the written W. */
static int write_perturbed(const char *name, double eps, const char *out,
                           double *asym)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", RF_TEST_DATA_DIR, name);
    int n = 0;
    double *x = read_numbers(path, &n);
    ENSURE(x != NULL && n > 7 && x[0] == 5.0 && x[2] == 0.0);
    const int nc = (int)x[1], m = (int)x[3];
    ENSURE(n == 7 + m * m + m + 2 * nc);
    double *W = x + 7, scale = 0.0, d = 0.0;
    for (int i = 0; i < m; ++i) {
        for (int j = i + 1; j < m; ++j) {
            const double e =
                eps * 0.5 * ((i * 7 + j * 3) % 5 - 2) * fabs(W[i * m + j]);
            W[i * m + j] += e;
            W[j * m + i] -= e;
        }
    }
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < m; ++j) {
            scale = fmax(scale, fabs(W[i * m + j]));
            d = fmax(d, fabs(W[i * m + j] - W[j * m + i]));
        }
    }
    *asym = d / scale;
    FILE *f = fopen(out, "w");
    ENSURE(f != NULL);
    fprintf(f, "5\n%d\n0\n%d\n%d\n%d\t%d\n", nc, m, m, m, m);
    for (int i = 0; i < m + 1; ++i) { /* W's rows, then q */
        for (int j = 0; j < m; ++j) {
            fprintf(f, "%s%.17g", j ? " " : "", W[i * m + j]);
        }
        fprintf(f, "\n");
    }
    for (int k = 0; k < 2 * nc; ++k) { /* mu, then mu_r */
        fprintf(f, "%.17g\n", W[m * m + m + k]);
    }
    ENSURE(fclose(f) == 0);
    free(x);
    return 0;
}

/* W of a local problem (6 ncon square, allocated; NULL on failure). */
static double *dense_w(rf_problem *p)
{
    const int m = 6 * rf_problem_num_contacts(p);
    double *W = calloc((size_t)m * m + 1, sizeof(double));
    double *q = calloc((size_t)m + 1, sizeof(double));
    if (W == NULL || q == NULL || dense_of(p, W, q) != 0) {
        free(W);
        W = NULL;
    }
    free(q);
    return W;
}

/* Round-off asymmetry: accepted, the symmetric part
   held (the unperturbed file's W to rounding: probed through u = W g + q,
   so to q's rounding), the figure reported to the rounding of the written
   file, and every solver meets the residual of the unperturbed files. */
static int test_round_off_asymmetry(void)
{
    const rf_solver_kind solvers[] = {RF_SOLVER_JACOBI, RF_SOLVER_GS,
                                      RF_SOLVER_GS_COLORED, RF_SOLVER_APGD};
    for (int f = 0; f < 2; ++f) {
        char out[512];
        snprintf(out, sizeof out, "%s/asym_%s", tmpdir, FILES[f]);
        double asym = 0.0;
        ENSURE(write_perturbed(FILES[f], 5e-5, out, &asym) == 0);
        ENSURE(asym > 1e-6 && asym <= 1e-4);
        rf_problem *p, *ref;
        rf_error err;
        int dim;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", RF_TEST_DATA_DIR, FILES[f]);
        ENSURE(rf_problem_create(&p, NULL) == RF_OK);
        ENSURE(rf_problem_create(&ref, NULL) == RF_OK);
        if (rf_problem_read(p, out, &dim, &err) != RF_OK) {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
        ENSURE(rf_problem_read(ref, path, &dim, &err) == RF_OK);
        /* the files as published are symmetric to 1e-9 (the check they
           passed before round-off was accepted) */
        ENSURE_LE(rf_problem_w_asymmetry(ref), 1e-9);
        printf("  %s perturbed: W asymmetry %.3e (written %.3e)\n", FILES[f],
               rf_problem_w_asymmetry(p), asym);
        ENSURE_SMALL(rf_problem_w_asymmetry(p) - asym, 1e-9 * asym);
        const int m = 6 * rf_problem_num_contacts(p);
        double *W = dense_w(p), *W0 = dense_w(ref), scale = 0.0, dev = 0.0;
        ENSURE(W != NULL && W0 != NULL);
        for (int i = 0; i < m; ++i) {
            for (int j = 0; j < m; ++j) {
                ENSURE_SMALL(W[i * m + j] - W[j * m + i], 1e-14);
                scale = fmax(scale, fabs(W0[i * m + j]));
                dev = fmax(dev, fabs(W[i * m + j] - W0[i * m + j]));
            }
        }
        /* the file's own asymmetry (<= 1e-9) and q's rounding */
        ENSURE_LE(dev, 1e-9 * scale);
        free(W);
        free(W0);
        rf_problem_destroy(p);
        rf_problem_destroy(ref);
        for (int s = 0; s < 4; ++s) {
            if (solve_file(out, solvers[s])) {
                return 1;
            }
        }
        unlink(out);
    }
    return 0;
}

/* Gross asymmetry: refused with the figure, the problem left as it was. */
static int test_gross_asymmetry(void)
{
    char out[512];
    snprintf(out, sizeof out, "%s/asym_gross_%s", tmpdir, FILES[1]);
    double asym = 0.0;
    ENSURE(write_perturbed(FILES[1], 1e-1, out, &asym) == 0);
    ENSURE(asym > RF_W_ASYMMETRY_MAX);
    rf_problem *p;
    rf_error err;
    int dim = -1;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(rf_problem_read(p, out, &dim, &err) == RF_ERR_INVALID);
    printf("  refused: %s\n", err.message);
    char figure[32];
    snprintf(figure, sizeof figure, "%.3g of its largest entry", asym);
    ENSURE(strstr(err.message, "not symmetric") != NULL);
    ENSURE(strstr(err.message, figure) != NULL);
    ENSURE(rf_problem_num_contacts(p) == 0 && !rf_problem_is_local(p));
    rf_problem_destroy(p);
    unlink(out);
    return 0;
}

/* Through the API: an entry whose mirror is absent from the CSR pattern
   (or 0 in the dense W) is asymmetry against 0; the symmetric part has
   both entries at half its value. */
static int test_one_sided_entry(void)
{
    double W[36] = {0}, q[6] = {-1, 0, 0, 0, 0, 0};
    const double mu = 0.5, rho = 0.0, sigma = 0.0;
    for (int k = 0; k < 6; ++k) {
        W[7 * k] = 2.0;
    }
    W[1] = 2e-4; /* W(0, 1); W(1, 0) = 0 */
    int row_ptr[7], col[7];
    double val[7];
    for (int r = 0, k = 0; r < 6; ++r) {
        row_ptr[r] = k;
        col[k] = r;
        val[k++] = 2.0;
        if (r == 0) {
            col[k] = 1;
            val[k++] = 2e-4;
        }
        row_ptr[r + 1] = k;
    }
    for (int form = 0; form < 2; ++form) {
        rf_problem *p;
        ENSURE(rf_problem_create(&p, NULL) == RF_OK);
        rf_error err;
        const rf_status st =
            form == 0 ? rf_problem_set_local_dense(p, 1, W, q, &mu, &rho,
                                                   &sigma, &err)
                      : rf_problem_set_local_csr(p, 1, row_ptr, col, val, q,
                                                 &mu, &rho, &sigma, &err);
        ENSURE(st == RF_OK);
        /* |2e-4 - 0| / 2 */
        ENSURE_SMALL(rf_problem_w_asymmetry(p) - 1e-4, 1e-18);
        double *H = dense_w(p);
        ENSURE(H != NULL);
        /* probed as (W e_j + q) - q, q_0 = -1: to its rounding */
        ENSURE_SMALL(H[1] - 1e-4, 1e-15);
        ENSURE_SMALL(H[6] - 1e-4, 1e-15);
        ENSURE_SMALL(H[0] - 2.0, 1e-15);
        free(H);
        rf_problem_destroy(p);
    }
    return 0;
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/rf_examples_XXXXXX");
    if (mkdtemp(tmpdir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    RUN_TEST(test_examples_desaxce);
    RUN_TEST(test_round_off_asymmetry);
    RUN_TEST(test_gross_asymmetry);
    RUN_TEST(test_one_sided_entry);
    rmdir(tmpdir);
    return TEST_SUMMARY();
}
