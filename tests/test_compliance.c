/*
 * Contact compliance (Tasora-Anitescu section 6.2,
 * Tikhonov regularisation N - E; slides section 3 "Damping and VI": E =
 * -diag(1 / (h^2 K + h R))): component k of a contact gets u_k += c_k
 * gamma_k.  A sphere (m = 2 kg, R = 0.5 m, I = 2/5 m R^2) on the static
 * ground, one step h = 1/100 s, every solver, both models; analytic
 * answers (rf_solve's tolerance 1e-13: 1e-9 relative):
 *   - spring K, damper R on the normal (c = 1 / (h (h K + R)), bias
 *     -(h K / (h K + R)) depth / h): at depth = m g / K with v* = -g h
 *     the sphere is at rest, gamma_n = m g h (the static deflection);
 *   - touching (depth 0): u_n = 0 gives gamma_n = g h / (1/m + c);
 *   - tangential compliance c_t on a sliding-free velocity v_t*: gamma_t
 *     = -v_t* / (W_tt + c_t), W_tt = 1/m + R^2 / I = 3.5 / m, while
 *     inside the cone; and capped at mu gamma_n when c_t is small;
 *   - the body form and rf_problem_to_local's local form agree on a
 *     random compliant pile, and the energy check leaves converged
 *     solves alone (compliance energy is not kinetic);
 *   - negative or non-finite compliance is refused.
 */
#include "problem_gen.h"

#include <stdio.h>

static const rf_solver_kind SOLVERS[] = {RF_SOLVER_JACOBI, RF_SOLVER_GS,
                                         RF_SOLVER_GS_COLORED, RF_SOLVER_APGD};

static const double M = 2.0, RAD = 0.5, G = 9.81, H = 0.01;

/* The sphere on the ground with free velocity v* = (vx, -g h, 0), at rest
   otherwise; contact with the given compliance and normal bias. */
static rf_status make_sphere(rf_problem *p, double vx, double mu,
                             const double c[6], double bias_n)
{
    const double I = 0.4 * M * RAD * RAD;
    rf_status st = rf_problem_begin_bodies(p, 1, 1, NULL);
    rf_body_desc b;
    memset(&b, 0, sizeof b);
    b.flags = RF_BODY_DYNAMIC;
    b.inv_mass = 1.0 / M;
    b.inv_inertia[0] = b.inv_inertia[4] = b.inv_inertia[8] = 1.0 / I;
    b.v[0] = vx;
    b.v[1] = -G * H;
    if (st == RF_OK) {
        st = rf_problem_set_body(p, 0, &b, NULL);
    }
    rf_contact_desc cd;
    memset(&cd, 0, sizeof cd);
    cd.body_a = 0;
    cd.body_b = RF_WORLD;
    cd.n[1] = 1.0;
    cd.t1[0] = 1.0; /* t1 = x, t2 = n x t1 = -z */
    cd.t2[2] = -1.0;
    cd.r_a[1] = -RAD;
    cd.mu = mu;
    cd.bias[0] = bias_n;
    memcpy(cd.compliance, c, sizeof cd.compliance);
    if (st == RF_OK) {
        st = rf_problem_set_contact(p, 0, &cd, NULL);
    }
    return st;
}

/* models: bit 0 associated, bit 1 De Saxce */
static int solve_all(rf_problem *p, double expect_n, double expect_t,
                     int models)
{
    for (int s = 0; s < 4; ++s) {
        for (int model = 0; model < 2; ++model) {
            if (!(models & (1 << model))) {
                continue;
            }
            rf_config cfg;
            rf_config_default(&cfg);
            cfg.solver = SOLVERS[s];
            cfg.model = (rf_model)model;
            cfg.tol = 1e-13;
            cfg.max_iter = 100000;
            double g[6] = {0};
            rf_stats st;
            ENSURE(rf_solve(p, &cfg, g, &st, NULL) == RF_OK);
            ENSURE(st.converged);
            ENSURE(st.energy_scale == 1.0);
            ENSURE_SMALL(g[RF_N] - expect_n, 1e-9 * fabs(expect_n));
            ENSURE_SMALL(g[RF_U] - expect_t, 1e-9 * fabs(expect_n));
            double res;
            ENSURE(rf_residual(p, cfg.model, g, &res, NULL) == RF_OK);
            ENSURE_SMALL(res - st.residual, 1e-14);
        }
    }
    return 0;
}

static int test_spring_normal(void)
{
    const double K = 2.0e4, R = 50.0;
    const double c_n = 1.0 / (H * (H * K + R));
    const double erp = H * K / (H * K + R);
    const double c[6] = {c_n, 0, 0, 0, 0, 0};
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    /* at the static deflection: at rest, gamma_n = m g h */
    const double depth = M * G / K;
    ENSURE(make_sphere(p, 0.0, 0.5, c, -erp * depth / H) == RF_OK);
    printf("  static deflection %.4e m: gamma_n = m g h = %.6f\n", depth,
           M * G * H);
    ENSURE(solve_all(p, M * G * H, 0.0, 3) == 0);
    double g[6] = {0}, v[3], w[3];
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.tol = 1e-13;
    ENSURE(rf_solve(p, &cfg, g, NULL, NULL) == RF_OK);
    ENSURE(rf_problem_body_velocity(p, g, v, w, NULL) == RF_OK);
    ENSURE_SMALL(v[1], 1e-10);
    /* touching: gamma_n = g h / (1/m + c) */
    ENSURE(make_sphere(p, 0.0, 0.5, c, 0.0) == RF_OK);
    ENSURE(solve_all(p, G * H / (1.0 / M + c_n), 0.0, 3) == 0);
    rf_problem_destroy(p);
    return 0;
}

static int test_tangential(void)
{
    const double W_tt = 3.5 / M, vx = 0.2;
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    /* rigid normal, soft tangential: inside the cone (mu = 1: |gamma_t| =
       0.2 / (1.75 + 2) = 0.053 < m g h = 0.196) */
    const double c_t = 2.0;
    double c[6] = {0, c_t, c_t, 0, 0, 0};
    ENSURE(make_sphere(p, vx, 1.0, c, 0.0) == RF_OK);
    ENSURE(solve_all(p, M * G * H, -vx / (W_tt + c_t), 3) == 0);
    /* small c_t and mu = 0.1: the cone caps it at mu gamma_n; sliding, so
       De Saxce only (the associated model's dilatancy lifts the normal) */
    c[1] = c[2] = 0.01;
    ENSURE(make_sphere(p, vx, 0.1, c, 0.0) == RF_OK);
    ENSURE(-vx / (W_tt + 0.01) < -0.1 * M * G * H); /* really capped */
    ENSURE(solve_all(p, M * G * H, -0.1 * M * G * H, 2) == 0);
    rf_problem_destroy(p);
    return 0;
}

/* A random compliant pile: body form = local form (rf_problem_to_local
   puts c on W's diagonal); residual 1e-10, 1e-6 relative (cond(W) up to
   1e3, as test_cohesion's pile). */
static int test_forms(void)
{
    rf_rng r = {4242};
    const int nb = 10, nc = 30;
    double cfm[6 * 30];
    rf_problem *p, *loc, *rigid, *loc2;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(rf_problem_create(&loc, NULL) == RF_OK);
    ENSURE(rf_problem_create(&rigid, NULL) == RF_OK);
    ENSURE(rf_problem_create(&loc2, NULL) == RF_OK);
    ENSURE(rf_problem_begin_bodies(p, nb, nc, NULL) == RF_OK);
    ENSURE(rf_problem_begin_bodies(rigid, nb, nc, NULL) == RF_OK);
    for (int b = 0; b < nb; ++b) {
        rf_body_desc bd;
        gen_body(&r, &bd, NULL);
        ENSURE(rf_problem_set_body(p, b, &bd, NULL) == RF_OK);
        ENSURE(rf_problem_set_body(rigid, b, &bd, NULL) == RF_OK);
    }
    for (int i = 0; i < nc; ++i) {
        rf_contact_desc c;
        gen_pile_contact(&r, i, nb, &c);
        ENSURE(rf_problem_set_contact(rigid, i, &c, NULL) == RF_OK);
        for (int k = 0; k < 6; ++k) {
            c.compliance[k] = i % 2 ? rf_rng_range(&r, 0.0, 0.5) : 0.0;
            cfm[6 * i + k] = c.compliance[k];
        }
        ENSURE(rf_problem_set_contact(p, i, &c, NULL) == RF_OK);
    }
    ENSURE(rf_problem_to_local(p, loc, NULL) == RF_OK);
    /* the same compliance added afterwards: to the rigid problem's local
       form (W's diagonal), then to the rigid body form itself */
    ENSURE(rf_problem_to_local(rigid, loc2, NULL) == RF_OK);
    ENSURE(rf_problem_add_compliance(loc2, cfm, NULL) == RF_OK);
    ENSURE(rf_problem_add_compliance(rigid, cfm, NULL) == RF_OK);
    for (int s = 0; s < 4; ++s) {
        rf_config cfg;
        rf_config_default(&cfg);
        cfg.solver = SOLVERS[s];
        cfg.tol = 1e-10;
        cfg.max_iter = 100000;
        double gb[6 * 30] = {0}, gl[6 * 30] = {0}, gl2[6 * 30] = {0},
                      gr[6 * 30] = {0};
        rf_stats st;
        ENSURE(rf_solve(p, &cfg, gb, &st, NULL) == RF_OK);
        ENSURE(st.converged);
        ENSURE(rf_solve(loc, &cfg, gl, &st, NULL) == RF_OK);
        ENSURE(st.converged);
        ENSURE(rf_solve(loc2, &cfg, gl2, &st, NULL) == RF_OK);
        ENSURE(st.converged);
        ENSURE(rf_solve(rigid, &cfg, gr, &st, NULL) == RF_OK);
        /* added to zeros: the very same numbers */
        ENSURE(memcmp(gr, gb, sizeof gb) == 0);
        double scale = 0.0, diff = 0.0;
        for (int k = 0; k < 6 * nc; ++k) {
            scale = fmax(scale, fabs(gb[k]));
            diff = fmax(diff, fabs(gb[k] - gl[k]));
            diff = fmax(diff, fabs(gb[k] - gl2[k]));
        }
        printf("  solver %d: body vs local %.2e (scale %.2e)\n", (int)s, diff,
               scale);
        ENSURE_LE(diff, 1e-6 * scale);
    }
    /* bad input: all or nothing */
    cfm[7] = -1.0;
    rf_error err;
    ENSURE(rf_problem_add_compliance(loc2, cfm, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "c[7]") != NULL);
    cfm[7] = NAN;
    ENSURE(rf_problem_add_compliance(rigid, cfm, &err) == RF_ERR_NONFINITE);
    ENSURE(rf_problem_add_compliance(rigid, NULL, &err) == RF_ERR_NULL);
    rf_problem_destroy(loc2);
    rf_problem_destroy(rigid);
    rf_problem_destroy(loc);
    rf_problem_destroy(p);
    return 0;
}

static int test_bad(void)
{
    rf_problem *p;
    rf_error err;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    double c[6] = {0, 0, -1, 0, 0, 0};
    ENSURE(make_sphere(p, 0, 0.5, c, 0) == RF_ERR_INVALID);
    rf_contact_desc cd;
    memset(&cd, 0, sizeof cd);
    cd.body_b = RF_WORLD;
    cd.n[1] = 1;
    ENSURE(rf_contact_frame(cd.n, cd.t1, cd.t2) == RF_OK);
    cd.compliance[4] = -0.5;
    ENSURE(rf_problem_set_contact(p, 0, &cd, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "compliance[4]") != NULL);
    cd.compliance[4] = NAN;
    ENSURE(rf_problem_set_contact(p, 0, &cd, &err) == RF_ERR_NONFINITE);
    rf_problem_destroy(p);
    return 0;
}

int main(void)
{
    RUN_TEST(test_spring_normal);
    RUN_TEST(test_tangential);
    RUN_TEST(test_forms);
    RUN_TEST(test_bad);
    return TEST_SUMMARY();
}
