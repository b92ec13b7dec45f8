/*
 * Scalar rows (rf_row_desc: joints, motors, limits, friction-bounded
 * rows) beside the 6D contacts: analytic one-body cases for every solver,
 * a dense reference solve of bilateral compliant rows, the KKT conditions
 * of mixed problems checked independently of the solvers' own residual,
 * thread-count determinism and bad input.
 */
#include "problem_gen.h"

#include <stdio.h>

static const rf_solver_kind SOLVERS[] = {RF_SOLVER_JACOBI, RF_SOLVER_GS,
                                         RF_SOLVER_GS_COLORED, RF_SOLVER_APGD};
static const char *SOLVER_NAMES[] = {"jacobi", "gs", "gs-colored", "apgd"};

static void row_zero(rf_row_desc *r, int a, int b)
{
    memset(r, 0, sizeof *r);
    r->body_a = a;
    r->body_b = b;
    r->lo = -INFINITY;
    r->hi = INFINITY;
    r->bound_row = -1;
}

/* One dynamic body: mass m, inertia diag(I), free velocity v, w. */
static void one_body(rf_problem *p, int nrow, double m, const double I[3],
                     const double v[3], const double w[3])
{
    rf_body_desc b;
    memset(&b, 0, sizeof b);
    b.flags = RF_BODY_DYNAMIC;
    b.inv_mass = 1.0 / m;
    for (int k = 0; k < 3; ++k) {
        b.inv_inertia[4 * k] = 1.0 / I[k];
        b.v[k] = v[k];
        b.w[k] = w[k];
    }
    rf_problem_begin_bodies(p, 1, 0, NULL);
    rf_problem_set_body(p, 0, &b, NULL);
    rf_problem_begin_rows(p, nrow, NULL);
}

static rf_status solve_with(rf_problem *p, rf_solver_kind s, double tol,
                            double *g, rf_stats *st)
{
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.solver = s;
    cfg.tol = tol;
    cfg.max_iter = 20000;
    cfg.warm_start = 0;
    cfg.threads = 1;
    rf_error err;
    rf_status rc = rf_solve(p, &cfg, g, st, &err);
    if (rc != RF_OK) {
        fprintf(stderr, "rf_solve: %s\n", err.message);
    }
    return rc;
}

/* Three bilateral rows hold a point mass still: lambda_k = -m v*_k and
   v+ = 0 (momentum balance, exact); the angular velocity is untouched. */
static int test_bilateral_point(void)
{
    const double m = 2.0, I[3] = {0.3, 0.4, 0.5}, v[3] = {1.5, -0.7, 0.2},
                 w[3] = {0.1, 0.2, -0.3};
    rf_problem *p = NULL;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    for (int s = 0; s < 4; ++s) {
        one_body(p, 3, m, I, v, w);
        for (int k = 0; k < 3; ++k) {
            rf_row_desc r;
            row_zero(&r, 0, RF_WORLD);
            r.lin_a[k] = 1.0;
            ENSURE(rf_problem_set_row(p, k, &r, NULL) == RF_OK);
        }
        ENSURE(rf_problem_num_rows(p) == 3);
        double g[3] = {0, 0, 0}, vo[3], wo[3];
        rf_stats st;
        ENSURE(solve_with(p, SOLVERS[s], 1e-12, g, &st) == RF_OK);
        ENSURE(st.rows == 3);
        ENSURE(rf_problem_body_velocity(p, g, vo, wo, NULL) == RF_OK);
        printf("  %-10s it=%d lambda=(%.6f %.6f %.6f)\n", SOLVER_NAMES[s],
               st.iterations, g[0], g[1], g[2]);
        for (int k = 0; k < 3; ++k) {
            ENSURE_SMALL(g[k] + m * v[k], 1e-9);
            ENSURE_SMALL(vo[k], 1e-9);
            ENSURE_SMALL(wo[k] - w[k], 1e-15);
        }
    }
    rf_problem_destroy(p);
    return 0;
}

/* A velocity motor about z with maximum impulse F: it needs
   I (target - w*) and gets min(that, F) (Bullet's motor rows). */
static int test_motor_bound(void)
{
    const double m = 1.0, I[3] = {0.2, 0.2, 0.25}, v[3] = {0, 0, 0},
                 w[3] = {0, 0, 1.0}, target = 5.0;
    const double need = I[2] * (target - w[2]); /* 1.0 N m s */
    rf_problem *p = NULL;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    for (int s = 0; s < 4; ++s) {
        for (int capped = 0; capped < 2; ++capped) {
            one_body(p, 1, m, I, v, w);
            rf_row_desc r;
            row_zero(&r, 0, RF_WORLD);
            r.ang_a[2] = 1.0;
            r.bias = -target;
            r.hi = capped ? 0.5 * need : 2.0 * need;
            r.lo = -r.hi;
            ENSURE(rf_problem_set_row(p, 0, &r, NULL) == RF_OK);
            double g[1] = {0}, vo[3], wo[3];
            rf_stats st;
            ENSURE(solve_with(p, SOLVERS[s], 1e-12, g, &st) == RF_OK);
            ENSURE(rf_problem_body_velocity(p, g, vo, wo, NULL) == RF_OK);
            double want = capped ? 0.5 * need : need;
            ENSURE_SMALL(g[0] - want, 1e-9);
            ENSURE_SMALL(wo[2] - (w[2] + want / I[2]), 1e-9);
        }
    }
    rf_problem_destroy(p);
    return 0;
}

/* Compliance: u = v*_x + lambda/m + cfm lambda = 0, so
   lambda = -v*_x / (1/m + cfm) (ODE's CFM). */
static int test_cfm(void)
{
    const double m = 4.0, I[3] = {1, 1, 1}, v[3] = {2.0, 0, 0},
                 w[3] = {0, 0, 0}, cfm = 0.15;
    rf_problem *p = NULL;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    for (int s = 0; s < 4; ++s) {
        one_body(p, 1, m, I, v, w);
        rf_row_desc r;
        row_zero(&r, 0, RF_WORLD);
        r.lin_a[0] = 1.0;
        r.cfm = cfm;
        ENSURE(rf_problem_set_row(p, 0, &r, NULL) == RF_OK);
        double g[1] = {0}, u[1];
        rf_stats st;
        ENSURE(solve_with(p, SOLVERS[s], 1e-13, g, &st) == RF_OK);
        ENSURE_SMALL(g[0] + v[0] / (1.0 / m + cfm), 1e-10);
        ENSURE(rf_problem_local_velocity(p, g, u, NULL) == RF_OK);
        ENSURE_SMALL(u[0], 1e-10);
    }
    rf_problem_destroy(p);
    return 0;
}

/* A one-sided limit [0, inf): moving away it does nothing, moving in it
   stops the body (lambda = -m v*). */
static int test_limit(void)
{
    const double m = 3.0, I[3] = {1, 1, 1}, w[3] = {0, 0, 0};
    rf_problem *p = NULL;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    for (int s = 0; s < 4; ++s) {
        for (int in = 0; in < 2; ++in) {
            const double v[3] = {0, in ? -0.8 : 0.8, 0};
            one_body(p, 1, m, I, v, w);
            rf_row_desc r;
            row_zero(&r, 0, RF_WORLD);
            r.lin_a[1] = 1.0;
            r.lo = 0.0;
            ENSURE(rf_problem_set_row(p, 0, &r, NULL) == RF_OK);
            double g[1] = {0};
            rf_stats st;
            ENSURE(solve_with(p, SOLVERS[s], 1e-13, g, &st) == RF_OK);
            ENSURE_SMALL(g[0] - (in ? 0.8 * m : 0.0), 1e-10);
        }
    }
    rf_problem_destroy(p);
    return 0;
}

/* A friction-bounded row: row 0 stops the fall (lambda_0 = m v_fall),
   row 1 resists sliding with |lambda_1| <= c lambda_0.  Fast slide: it
   saturates at -c lambda_0; slow slide: it sticks (lambda_1 = -m v_x). */
static int test_friction_bounded(void)
{
    const double m = 2.0, I[3] = {1, 1, 1}, w[3] = {0, 0, 0}, c = 0.5;
    rf_problem *p = NULL;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    for (int s = 0; s < 4; ++s) {
        for (int fast = 0; fast < 2; ++fast) {
            const double v[3] = {fast ? 3.0 : 0.1, -1.0, 0};
            one_body(p, 2, m, I, v, w);
            rf_row_desc r;
            row_zero(&r, 0, RF_WORLD);
            r.lin_a[1] = 1.0;
            r.lo = 0.0;
            ENSURE(rf_problem_set_row(p, 0, &r, NULL) == RF_OK);
            row_zero(&r, RF_WORLD, 0); /* the same pair, either order */
            r.lin_b[0] = 1.0;
            r.bound_row = 0;
            r.bound_coef = c;
            ENSURE(rf_problem_set_row(p, 1, &r, NULL) == RF_OK);
            double g[2] = {0, 0};
            rf_stats st;
            ENSURE(solve_with(p, SOLVERS[s], 1e-13, g, &st) == RF_OK);
            ENSURE_SMALL(g[0] - m * 1.0, 1e-9);
            double want = fast ? -c * m : -m * v[0];
            ENSURE_SMALL(g[1] - want, 1e-9);
        }
    }
    rf_problem_destroy(p);
    return 0;
}

/* Random bodies joined by random compliant bilateral rows: the solution
   solves (N + C) lambda = -r, checked against a dense Gaussian
   elimination on N + C assembled column by column from
   rf_problem_local_velocity. */
static int gauss_solve(double *A, double *b, int n)
{
    for (int c = 0; c < n; ++c) {
        int piv = c;
        for (int r = c + 1; r < n; ++r) {
            if (fabs(A[r * n + c]) > fabs(A[piv * n + c])) {
                piv = r;
            }
        }
        if (fabs(A[piv * n + c]) < 1e-14) {
            return 0;
        }
        for (int k = 0; k < n; ++k) {
            double t = A[c * n + k];
            A[c * n + k] = A[piv * n + k];
            A[piv * n + k] = t;
        }
        double t = b[c];
        b[c] = b[piv];
        b[piv] = t;
        for (int r = c + 1; r < n; ++r) {
            double f = A[r * n + c] / A[c * n + c];
            for (int k = c; k < n; ++k) {
                A[r * n + k] -= f * A[c * n + k];
            }
            b[r] -= f * b[c];
        }
    }
    for (int r = n - 1; r >= 0; --r) {
        double s = b[r];
        for (int k = r + 1; k < n; ++k) {
            s -= A[r * n + k] * b[k];
        }
        b[r] = s / A[r * n + r];
    }
    return 1;
}

static void gen_row(rf_rng *rng, int a, int b, rf_row_desc *r)
{
    row_zero(r, a, b);
    for (int k = 0; k < 3; ++k) {
        r->lin_a[k] = rf_rng_range(rng, -1, 1);
        r->ang_a[k] = rf_rng_range(rng, -0.5, 0.5);
        r->lin_b[k] = -r->lin_a[k];
        r->ang_b[k] = rf_rng_range(rng, -0.5, 0.5);
    }
    r->bias = rf_rng_range(rng, -0.2, 0.2);
    r->cfm = rf_rng_range(rng, 1e-3, 1e-2);
}

static int test_dense_reference(void)
{
    enum { NB = 4, NR = 14 };
    rf_rng rng = {7};
    rf_problem *p = NULL;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(rf_problem_begin_bodies(p, NB, 0, NULL) == RF_OK);
    for (int b = 0; b < NB; ++b) {
        rf_body_desc bd;
        gen_body(&rng, &bd, NULL);
        ENSURE(rf_problem_set_body(p, b, &bd, NULL) == RF_OK);
    }
    ENSURE(rf_problem_begin_rows(p, NR, NULL) == RF_OK);
    for (int j = 0; j < NR; ++j) {
        int a = j % NB, b = (j % 3 == 0) ? RF_WORLD : (j + 1) % NB;
        rf_row_desc r;
        gen_row(&rng, a, b, &r);
        ENSURE(rf_problem_set_row(p, j, &r, NULL) == RF_OK);
    }
    /* columns of N + C and r */
    double A[NR * NR], rhs[NR], e[NR], u[NR], u0[NR];
    memset(e, 0, sizeof e);
    ENSURE(rf_problem_local_velocity(p, e, u0, NULL) == RF_OK);
    for (int c = 0; c < NR; ++c) {
        e[c] = 1.0;
        ENSURE(rf_problem_local_velocity(p, e, u, NULL) == RF_OK);
        e[c] = 0.0;
        for (int r = 0; r < NR; ++r) {
            A[r * NR + c] = u[r] - u0[r];
        }
    }
    for (int r = 0; r < NR; ++r) {
        rhs[r] = -u0[r];
    }
    ENSURE(gauss_solve(A, rhs, NR));
    double scale = 0.0;
    for (int r = 0; r < NR; ++r) {
        scale = fmax(scale, fabs(rhs[r]));
    }
    for (int s = 0; s < 4; ++s) {
        double g[NR];
        rf_stats st;
        ENSURE(solve_with(p, SOLVERS[s], 1e-11, g, &st) == RF_OK);
        double d = 0.0;
        for (int r = 0; r < NR; ++r) {
            d = fmax(d, fabs(g[r] - rhs[r]));
        }
        printf("  %-10s it=%-5d residual=%.2e max|lambda-ref|/max|ref|=%.2e\n",
               SOLVER_NAMES[s], st.iterations, st.residual, d / scale);
        ENSURE(st.converged);
        ENSURE_LE(d, 1e-6 * scale);
    }
    rf_problem_destroy(p);
    return 0;
}

/* Mixed problem: contacts and box-bounded rows on a few bodies.  Each
   solver must reach the tolerance, and the KKT conditions are checked
   directly from u = N gamma + r: contacts gamma in Y, u_hat in Y*,
   <gamma, u_hat> = 0 (Tasora (40) / Acary Prop. 3.1); rows
   lo <= lambda <= hi, u <= 0 where lambda > lo, u >= 0 where
   lambda < hi. */
/* The contacts' coefficients, kept by test_mixed_kkt for check_kkt. */
static double kkt_mu[64], kkt_rho[64], kkt_sigma[64];

static int check_kkt(rf_problem *p, rf_model model, const double *g, int nc,
                     int nr, const double *lo, const double *hi, double tol)
{
    double *u = malloc((size_t)(6 * nc + nr) * sizeof(double));
    ENSURE(rf_problem_local_velocity(p, g, u, NULL) == RF_OK);
    double scale = 0.0;
    for (int k = 0; k < 6 * nc + nr; ++k) {
        scale = fmax(scale, fmax(fabs(g[k]), fabs(u[k])));
    }
    const double eps = tol * fmax(scale, 1.0);
    for (int i = 0; i < nc; ++i) {
        const double *gi = g + 6 * i;
        double uh[6];
        memcpy(uh, u + 6 * i, sizeof uh);
        if (model == RF_MODEL_DESAXCE) {
            uh[0] += kkt_mu[i] * hypot(uh[1], uh[2]) +
                     kkt_rho[i] * hypot(uh[4], uh[5]) +
                     kkt_sigma[i] * fabs(uh[3]);
        }
        ENSURE_LE(rf_cone_violation(gi, kkt_mu[i], kkt_rho[i], kkt_sigma[i]),
                  eps);
        ENSURE_LE(
            rf_dual_cone_violation(uh, kkt_mu[i], kkt_rho[i], kkt_sigma[i]),
            eps);
        double dot = 0.0;
        for (int k = 0; k < 6; ++k) {
            dot += gi[k] * uh[k];
        }
        ENSURE_SMALL(dot, eps * fmax(scale, 1.0));
    }
    for (int j = 0; j < nr; ++j) {
        const double l = g[6 * nc + j], uj = u[6 * nc + j];
        ENSURE(l >= lo[j] - eps && l <= hi[j] + eps);
        if (l > lo[j] + eps) {
            ENSURE_LE(uj, eps);
        }
        if (l < hi[j] - eps) {
            ENSURE_LE(-uj, eps);
        }
    }
    free(u);
    return 0;
}

static int test_mixed_kkt(void)
{
    enum { NB = 5, NC = 6, NR = 12 };
    static const char *MODEL_NAMES[] = {"associated", "desaxce"};
    rf_rng rng = {11};
    rf_problem *p = NULL;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(rf_problem_begin_bodies(p, NB, NC, NULL) == RF_OK);
    for (int b = 0; b < NB; ++b) {
        rf_body_desc bd;
        gen_body(&rng, &bd, NULL);
        ENSURE(rf_problem_set_body(p, b, &bd, NULL) == RF_OK);
    }
    for (int i = 0; i < NC; ++i) {
        rf_contact_desc c;
        gen_contact(&rng, i % NB, i % 2 ? RF_WORLD : (i + 2) % NB, &c);
        /* approaching: a normal free velocity that makes contact work */
        c.bias[0] = -rf_rng_range(&rng, 0.5, 1.5);
        kkt_mu[i] = c.mu;
        kkt_rho[i] = c.rho;
        kkt_sigma[i] = c.sigma;
        ENSURE(rf_problem_set_contact(p, i, &c, NULL) == RF_OK);
    }
    double lo[NR], hi[NR];
    ENSURE(rf_problem_begin_rows(p, NR, NULL) == RF_OK);
    for (int j = 0; j < NR; ++j) {
        rf_row_desc r;
        gen_row(&rng, (j + 1) % NB, j % 4 == 0 ? RF_WORLD : (j + 3) % NB, &r);
        switch (j % 3) {
        case 0: break; /* bilateral */
        case 1:
            r.lo = 0.0; /* a limit */
            break;
        default: /* a motor with a small budget */
            r.hi = rf_rng_range(&rng, 0.01, 0.1);
            r.lo = -r.hi;
            r.bias = rf_rng_range(&rng, -3, 3);
            break;
        }
        lo[j] = r.lo;
        hi[j] = r.hi;
        ENSURE(rf_problem_set_row(p, j, &r, NULL) == RF_OK);
    }
    for (int model = 0; model < 2; ++model) {
        for (int s = 0; s < 4; ++s) {
            rf_config cfg;
            rf_config_default(&cfg);
            cfg.solver = SOLVERS[s];
            cfg.model = (rf_model)model;
            cfg.tol = 1e-10;
            cfg.max_iter = 100000;
            cfg.warm_start = 0;
            double g[6 * NC + NR];
            rf_stats st;
            rf_error err;
            ENSURE(rf_solve(p, &cfg, g, &st, &err) == RF_OK);
            int pressed = 0, at_bound = 0; /* the regimes exercised */
            for (int i = 0; i < NC; ++i) {
                pressed += g[6 * i] > 1e-6;
            }
            for (int j = 0; j < NR; ++j) {
                double l = g[6 * NC + j];
                at_bound += fabs(l - lo[j]) < 1e-9 || fabs(l - hi[j]) < 1e-9;
            }
            printf("  %-10s %-10s it=%-6d residual=%.2e contacts pressed "
                   "%d/%d, rows at a bound %d/%d\n",
                   SOLVER_NAMES[s], MODEL_NAMES[model], st.iterations,
                   st.residual, pressed, NC, at_bound, NR);
            ENSURE(pressed >= NC / 2 && at_bound >= 2);
            ENSURE(st.converged);
            ENSURE(st.rows == 6 * NC + NR);
            if (check_kkt(p, (rf_model)model, g, NC, NR, lo, hi, 1e-7)) {
                return 1;
            }
        }
    }
    rf_problem_destroy(p);
    return 0;
}

/* A long chain (enough items for the parallel passes): Jacobi and APGD
   iterates are bitwise identical for 1 and 3 threads; coloured GS too. */
static int test_threads_bitwise(void)
{
    enum { NB = 1200 };
    rf_rng rng = {5};
    rf_problem *p = NULL;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(rf_problem_begin_bodies(p, NB, NB - 1, NULL) == RF_OK);
    for (int b = 0; b < NB; ++b) {
        rf_body_desc bd;
        gen_body(&rng, &bd, NULL);
        ENSURE(rf_problem_set_body(p, b, &bd, NULL) == RF_OK);
    }
    for (int i = 0; i < NB - 1; ++i) {
        rf_contact_desc c;
        gen_contact(&rng, i, i + 1, &c);
        c.bias[0] = -0.5;
        ENSURE(rf_problem_set_contact(p, i, &c, NULL) == RF_OK);
    }
    const int nr = 3 * NB;
    ENSURE(rf_problem_begin_rows(p, nr, NULL) == RF_OK);
    for (int j = 0; j < nr; ++j) {
        rf_row_desc r;
        int a = j / 3, b = a + 1 < NB ? a + 1 : RF_WORLD;
        gen_row(&rng, a, b, &r);
        if (j % 3 == 2) {
            r.bound_row = j - 1;
            r.bound_coef = 0.4;
        }
        ENSURE(rf_problem_set_row(p, j, &r, NULL) == RF_OK);
    }
    const int m = 6 * (NB - 1) + nr;
    double *g1 = calloc((size_t)m, sizeof(double));
    double *g3 = calloc((size_t)m, sizeof(double));
    const rf_solver_kind kinds[3] = {RF_SOLVER_JACOBI, RF_SOLVER_APGD,
                                     RF_SOLVER_GS_COLORED};
    for (int s = 0; s < 3; ++s) {
        rf_config cfg;
        rf_config_default(&cfg);
        cfg.solver = kinds[s];
        cfg.tol = 0.0;
        cfg.max_iter = 15;
        cfg.warm_start = 0;
        cfg.threads = 1;
        rf_stats st1, st3;
        ENSURE(rf_solve(p, &cfg, g1, &st1, NULL) == RF_OK);
        cfg.threads = 3;
        ENSURE(rf_solve(p, &cfg, g3, &st3, NULL) == RF_OK);
        ENSURE(memcmp(g1, g3, (size_t)m * sizeof(double)) == 0);
        ENSURE(st1.residual == st3.residual);
        ENSURE(isfinite(st1.residual));
    }
    free(g1);
    free(g3);
    rf_problem_destroy(p);
    return 0;
}

static int test_errors(void)
{
    rf_problem *p = NULL;
    rf_error err;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(rf_problem_begin_rows(p, 1, &err) == RF_ERR_STATE);
    ENSURE(rf_problem_begin_rows(NULL, 1, &err) == RF_ERR_NULL);
    ENSURE(rf_problem_begin_bodies(p, 2, 0, NULL) == RF_OK);
    rf_body_desc b;
    memset(&b, 0, sizeof b);
    b.flags = RF_BODY_DYNAMIC;
    b.inv_mass = 1.0;
    b.inv_inertia[0] = b.inv_inertia[4] = b.inv_inertia[8] = 1.0;
    ENSURE(rf_problem_set_body(p, 0, &b, NULL) == RF_OK);
    ENSURE(rf_problem_begin_rows(p, -1, &err) == RF_ERR_INVALID);
    ENSURE(rf_problem_begin_rows(p, 3, &err) == RF_OK);
    rf_row_desc r;
    row_zero(&r, 0, RF_WORLD);
    r.lin_a[0] = 1.0;
    ENSURE(rf_problem_set_row(p, 3, &r, &err) == RF_ERR_RANGE);
    ENSURE(rf_problem_set_row(p, 0, NULL, &err) == RF_ERR_NULL);
    rf_row_desc bad = r;
    bad.body_b = 0;
    ENSURE(rf_problem_set_row(p, 0, &bad, &err) == RF_ERR_INVALID);
    bad = r;
    bad.body_a = 5;
    ENSURE(rf_problem_set_row(p, 0, &bad, &err) == RF_ERR_RANGE);
    bad = r;
    bad.lo = 1.0;
    bad.hi = 0.0;
    ENSURE(rf_problem_set_row(p, 0, &bad, &err) == RF_ERR_INVALID);
    printf("  %s\n", err.message);
    bad = r;
    bad.lo = NAN;
    ENSURE(rf_problem_set_row(p, 0, &bad, &err) == RF_ERR_NONFINITE);
    bad = r;
    bad.lo = INFINITY;
    ENSURE(rf_problem_set_row(p, 0, &bad, &err) == RF_ERR_INVALID);
    bad = r;
    bad.ang_b[1] = INFINITY;
    ENSURE(rf_problem_set_row(p, 0, &bad, &err) == RF_ERR_NONFINITE);
    bad = r;
    bad.cfm = -1e-3;
    ENSURE(rf_problem_set_row(p, 0, &bad, &err) == RF_ERR_INVALID);
    bad = r;
    bad.bound_row = 0;
    ENSURE(rf_problem_set_row(p, 0, &bad, &err) == RF_ERR_INVALID);
    bad.bound_row = 7;
    ENSURE(rf_problem_set_row(p, 0, &bad, &err) == RF_ERR_RANGE);
    /* incomplete: rows 1, 2 never set */
    ENSURE(rf_problem_set_row(p, 0, &r, &err) == RF_OK);
    double g[3] = {0, 0, 0};
    ENSURE(rf_solve(p, NULL, g, NULL, &err) == RF_ERR_STATE);
    printf("  %s\n", err.message);
    /* a row between two fixed bodies (body 1 was never set: fixed) */
    rf_row_desc fx = r;
    fx.body_a = 1;
    ENSURE(rf_problem_set_row(p, 1, &fx, &err) == RF_OK);
    ENSURE(rf_problem_set_row(p, 2, &r, &err) == RF_OK);
    ENSURE(rf_solve(p, NULL, g, NULL, &err) == RF_ERR_INVALID);
    printf("  %s\n", err.message);
    /* bounded by a row on other bodies */
    ENSURE(rf_problem_set_body(p, 1, &b, NULL) == RF_OK);
    rf_row_desc bd = r;
    bd.body_a = 1;
    bd.bound_row = 0; /* row 0 acts on (0, world) */
    ENSURE(rf_problem_set_row(p, 1, &bd, &err) == RF_OK);
    ENSURE(rf_solve(p, NULL, g, NULL, &err) == RF_ERR_INVALID);
    printf("  %s\n", err.message);
    bd.bound_row = -1;
    ENSURE(rf_problem_set_row(p, 1, &bd, &err) == RF_OK);
    /* a non-finite warm start in the rows' part */
    g[2] = NAN;
    ENSURE(rf_solve(p, NULL, g, NULL, &err) == RF_ERR_NONFINITE);
    g[2] = 0.0;
    ENSURE(rf_solve(p, NULL, g, NULL, &err) == RF_OK);
    /* no local form with rows */
    rf_problem *q = NULL;
    ENSURE(rf_problem_create(&q, NULL) == RF_OK);
    ENSURE(rf_problem_to_local(p, q, &err) == RF_ERR_INVALID);
    printf("  %s\n", err.message);
    /* begin_bodies resets the rows */
    ENSURE(rf_problem_begin_bodies(p, 1, 0, NULL) == RF_OK);
    ENSURE(rf_problem_num_rows(p) == 0);
    ENSURE(rf_problem_num_rows(NULL) == 0);
    rf_problem_destroy(q);
    rf_problem_destroy(p);
    return 0;
}

int main(void)
{
    RUN_TEST(test_bilateral_point);
    RUN_TEST(test_motor_bound);
    RUN_TEST(test_cfm);
    RUN_TEST(test_limit);
    RUN_TEST(test_friction_bounded);
    RUN_TEST(test_dense_reference);
    RUN_TEST(test_mixed_kkt);
    RUN_TEST(test_threads_bitwise);
    RUN_TEST(test_errors);
    return TEST_SUMMARY();
}
