/*
 * The yield cap gamma_n <= normal_max (slides section 3,
 * "Modeling plasticity": no infinite reaction, crushing).  The set is Y
 * cut by the plane gamma_n = normal_max.
 *   - Projection: a free body with unit mass and inertia and the contact
 *     at its centre, frame = world axes, has W = I; with r = -x the
 *     solution is the projection of x on the set (min 1/2 |g - x|^2).
 *     For x = (10, 3, 0, 0.5, 1, 0), mu 0.5, rho 0.2, sigma 0.4, cap 2 the
 *     projection on Y has gamma_n > 2, so it is the projection on the
 *     cap's slice: (2, min(3, mu 2) = 1, 0, clamp(0.5, sigma 2) = 0.5,
 *     rho 2 = 0.4, 0) (each part of x on its own disc or interval).
 *     Without a cap: the projection on Y itself, gamma_n > 2.
 *   - Crushing: a sphere of mass m approaching the ground at V stops
 *     (gamma_n = m V) when m V <= cap, and keeps -V + cap / m otherwise;
 *     then the ground flows (rf_problem_plastic_flow) by h (V - cap / m),
 *     the velocity defect over the step, and not at all below the cap.
 * Every solver, associated model (De Saxce's shift is 0 here: no tangential
 * velocity at the solution of the crushing case).  1e-9.
 */
#include "problem_gen.h"

#include <stdio.h>

static const rf_solver_kind SOLVERS[] = {RF_SOLVER_JACOBI, RF_SOLVER_GS,
                                         RF_SOLVER_GS_COLORED, RF_SOLVER_APGD};

/* body 0: m = 1, I = 1, free velocity so that r = -x in the world-axes
   frame; contact at the centre */
static rf_status make_unit(rf_problem *p, const double x[6], double cap)
{
    rf_status st = rf_problem_begin_bodies(p, 1, 1, NULL);
    rf_body_desc b;
    memset(&b, 0, sizeof b);
    b.flags = RF_BODY_DYNAMIC;
    b.inv_mass = 1.0;
    b.inv_inertia[0] = b.inv_inertia[4] = b.inv_inertia[8] = 1.0;
    /* u = (n.v, t1.v, t2.v, n.w, t1.w, t2.w) with n = x, t1 = y, t2 = z */
    for (int k = 0; k < 3; ++k) {
        b.v[k] = -x[k];
        b.w[k] = -x[3 + k];
    }
    if (st == RF_OK) {
        st = rf_problem_set_body(p, 0, &b, NULL);
    }
    rf_contact_desc c;
    memset(&c, 0, sizeof c);
    c.body_b = RF_WORLD;
    c.n[0] = c.t1[1] = c.t2[2] = 1.0;
    c.mu = 0.5;
    c.rho = 0.2;
    c.sigma = 0.4;
    c.normal_max = cap;
    if (st == RF_OK) {
        st = rf_problem_set_contact(p, 0, &c, NULL);
    }
    return st;
}

static int solve(rf_problem *p, rf_solver_kind s, double g[6])
{
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.solver = s;
    cfg.tol = 1e-13;
    cfg.max_iter = 100000;
    rf_stats st;
    memset(g, 0, 6 * sizeof(double));
    ENSURE(rf_solve(p, &cfg, g, &st, NULL) == RF_OK);
    if (!st.converged) {
        printf("  solver %d: %d iterations, residual %.3e\n", (int)s,
               st.iterations, st.residual);
    }
    ENSURE(st.converged);
    return 0;
}

static int test_projection(void)
{
    const double x[6] = {10, 3, 0, 0.5, 1, 0};
    const double expect[6] = {2, 1, 0, 0.5, 0.4, 0};
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    for (int s = 0; s < 4; ++s) {
        double g[6], y[6];
        ENSURE(make_unit(p, x, 2.0) == RF_OK);
        ENSURE(solve(p, SOLVERS[s], g) == 0);
        printf("  solver %d capped: (%.6f %.6f %.6f %.6f %.6f %.6f)\n", s, g[0],
               g[1], g[2], g[3], g[4], g[5]);
        for (int k = 0; k < 6; ++k) {
            ENSURE_SMALL(g[k] - expect[k], 1e-9);
        }
        /* no cap: the projection on Y, which rf_project_contact gives */
        ENSURE(make_unit(p, x, 0.0) == RF_OK);
        ENSURE(solve(p, SOLVERS[s], g) == 0);
        ENSURE(rf_project_contact(x, 0.5, 0.2, 0.4, y) == RF_OK);
        ENSURE(y[RF_N] > 2.0);
        for (int k = 0; k < 6; ++k) {
            ENSURE_SMALL(g[k] - y[k], 1e-9);
        }
    }
    rf_problem_destroy(p);
    return 0;
}

static int test_crushing(void)
{
    const double m = 3.0, V = 2.0;
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    const double caps[2] = {8.0, 4.5}; /* m V = 6: above, below */
    for (int k = 0; k < 2; ++k) {
        ENSURE(rf_problem_begin_bodies(p, 1, 1, NULL) == RF_OK);
        rf_body_desc b;
        memset(&b, 0, sizeof b);
        b.inv_mass = 1.0 / m;
        b.inv_inertia[0] = b.inv_inertia[4] = b.inv_inertia[8] = 1.0;
        b.v[1] = -V;
        ENSURE(rf_problem_set_body(p, 0, &b, NULL) == RF_OK);
        rf_contact_desc c;
        memset(&c, 0, sizeof c);
        c.body_b = RF_WORLD;
        c.n[1] = 1.0;
        ENSURE(rf_contact_frame(c.n, c.t1, c.t2) == RF_OK);
        c.r_a[1] = -0.5;
        c.mu = 0.5;
        c.normal_max = caps[k];
        ENSURE(rf_problem_set_contact(p, 0, &c, NULL) == RF_OK);
        for (int s = 0; s < 4; ++s) {
            double g[6], v[3], w[3];
            ENSURE(solve(p, SOLVERS[s], g) == 0);
            ENSURE(rf_problem_body_velocity(p, g, v, w, NULL) == RF_OK);
            const double gn = fmin(m * V, caps[k]);
            ENSURE_SMALL(g[RF_N] - gn, 1e-9);
            ENSURE_SMALL(v[1] - (-V + gn / m), 1e-9);
            /* the flow: at the cap the velocity defect V - cap / m is the
               indentation rate (slides section 3); below it, none */
            const double h = 0.01;
            double flow[1] = {-1.0};
            ENSURE(rf_problem_plastic_flow(p, g, h, flow, NULL) == RF_OK);
            ENSURE_SMALL(flow[0] -
                             (caps[k] < m * V ? h * (V - caps[k] / m) : 0.0),
                         1e-9);
        }
    }
    rf_problem_destroy(p);
    return 0;
}

static int test_bad(void)
{
    rf_problem *p;
    rf_error err;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    const double x[6] = {1, 0, 0, 0, 0, 0};
    ENSURE(make_unit(p, x, -1.0) == RF_ERR_INVALID);
    ENSURE(make_unit(p, x, INFINITY) == RF_ERR_NONFINITE);
    rf_contact_desc c;
    memset(&c, 0, sizeof c);
    c.body_b = RF_WORLD;
    c.n[0] = c.t1[1] = c.t2[2] = 1.0;
    c.normal_max = -2.0;
    ENSURE(rf_problem_set_contact(p, 0, &c, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "normal_max") != NULL);
    double cap[1] = {-1.0};
    ENSURE(make_unit(p, x, 0.0) == RF_OK);
    ENSURE(rf_problem_set_normal_max(p, cap, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "cap[0]") != NULL);
    cap[0] = NAN;
    ENSURE(rf_problem_set_normal_max(p, cap, &err) == RF_ERR_NONFINITE);
    ENSURE(rf_problem_set_normal_max(NULL, cap, &err) == RF_ERR_NULL);
    /* set afterwards: the same cap as in the contact (crushing case) */
    cap[0] = 0.5;
    ENSURE(rf_problem_set_normal_max(p, cap, &err) == RF_OK);
    double g[6];
    ENSURE(solve(p, RF_SOLVER_APGD, g) == 0);
    ENSURE_SMALL(g[RF_N] - 0.5, 1e-9); /* x_n = 1 > cap */
    /* rf_problem_plastic_flow's arguments */
    double flow[1];
    ENSURE(rf_problem_plastic_flow(p, g, 0.0, flow, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "h = 0") != NULL);
    ENSURE(rf_problem_plastic_flow(p, g, NAN, flow, &err) == RF_ERR_NONFINITE);
    ENSURE(rf_problem_plastic_flow(p, g, 0.01, NULL, &err) == RF_ERR_NULL);
    ENSURE(rf_problem_plastic_flow(NULL, g, 0.01, flow, &err) == RF_ERR_NULL);
    ENSURE(rf_problem_plastic_flow(p, g, 0.01, flow, &err) == RF_OK);
    ENSURE_SMALL(flow[0] - 0.01 * 0.5, 1e-9); /* u_n = -1 + 0.5 */
    rf_problem_destroy(p);
    return 0;
}

int main(void)
{
    RUN_TEST(test_projection);
    RUN_TEST(test_crushing);
    RUN_TEST(test_bad);
    return TEST_SUMMARY();
}
