/*
 * Cohesion (Tasora-Anitescu slides, section 3: the
 * normal yield set shifted to gamma_n >= -c h and the friction cones
 * shifted with it).  One block under a static ceiling, gravity pulling it
 * away; analytic answers for every solver:
 *   - m g <= c: the block stays (gamma_n = -m g h, velocity 0);
 *   - m g > c: it leaves with the cohesion impulse alone (gamma_n = -c h,
 *     v = -(g - c / m) h), tested at m g = 0.95 c and 1.05 c;
 *   - friction on a cohesive contact: with c = 2 m g and mu = 0.5 the
 *     friction limit is mu (gamma_n + c h) = 0.5 m g h, so a lateral
 *     force 0.4 m g is held and 0.6 m g slides at (0.6 - 0.5) g;
 *   - local form (rf_problem_to_local) gives the same impulses; the
 *     warm start from the solution is converged at once; rf_residual
 *     agrees with rf_solve's residual; bad cohesion values are refused,
 *     and so is writing a cohesive problem to a file.
 * The tolerances are the solvers' (tol 1e-12 on the residual): 1e-9
 * relative on impulses and velocities.
 */
#include "problem_gen.h"

#include <stdio.h>

static const rf_solver_kind SOLVERS[] = {RF_SOLVER_JACOBI, RF_SOLVER_GS,
                                         RF_SOLVER_GS_COLORED, RF_SOLVER_APGD};
static const char *SOLVER_NAMES[] = {"jacobi", "gs", "gs-colored", "apgd"};

enum { M_KG = 1 };
static const double G = 9.81, H = 1.0 / 60.0, HALF = 0.1;

/* The block (mass m, no rotation: inverse inertia 0, so a friction force
   at its top face moves it without turning it) hanging under a static
   ceiling: contact at its top face, n = -y (from the ceiling, B, to the
   block, A: a positive normal impulse pushes the block down, away).
   Free velocity: gravity, and a lateral force fx (N) along x, over h. */
static rf_status make_block(rf_problem *p, double m, double fx, double mu,
                            double cohesion_force, double compliance)
{
    rf_error err;
    rf_status st = rf_problem_begin_bodies(p, 1, 1, &err);
    rf_body_desc b;
    memset(&b, 0, sizeof b);
    b.flags = RF_BODY_DYNAMIC;
    b.inv_mass = 1.0 / m;
    b.v[0] = fx / m * H;
    b.v[1] = -G * H;
    if (st == RF_OK) {
        st = rf_problem_set_body(p, 0, &b, &err);
    }
    rf_contact_desc c;
    memset(&c, 0, sizeof c);
    c.body_a = 0;
    c.body_b = RF_WORLD;
    c.n[1] = -1.0;
    if (st == RF_OK) {
        st = rf_contact_frame(c.n, c.t1, c.t2);
    }
    c.r_a[1] = HALF;
    c.mu = mu;
    c.cohesion = cohesion_force * H;
    c.compliance[0] = compliance;
    if (st == RF_OK) {
        st = rf_problem_set_contact(p, 0, &c, &err);
    }
    return st;
}

/* The solves of these tests: to residual 1e-12. */
static rf_config block_config(rf_solver_kind solver, rf_model model)
{
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.solver = solver;
    cfg.model = model;
    cfg.tol = 1e-12;
    cfg.max_iter = 20000;
    return cfg;
}

static int solve_block(rf_problem *p, rf_solver_kind solver, rf_model model,
                       double gam[6], double v[3])
{
    const rf_config cfg = block_config(solver, model);
    rf_stats st;
    memset(gam, 0, 6 * sizeof(double));
    ENSURE(rf_solve(p, &cfg, gam, &st, NULL) == RF_OK);
    ENSURE(st.converged);
    double w[3];
    ENSURE(rf_problem_body_velocity(p, gam, v, w, NULL) == RF_OK);
    double res;
    ENSURE(rf_residual(p, model, gam, &res, NULL) == RF_OK);
    ENSURE_SMALL(res - st.residual, 1e-14);
    return 0;
}

/* Held when m g <= c, leaves with -c h when m g > c. */
static int test_hang(void)
{
    const double m = M_KG;
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    const double ratios[2] = {0.95, 1.05}; /* m g / c */
    for (int k = 0; k < 2; ++k) {
        const double c = m * G / ratios[k];
        ENSURE(make_block(p, m, 0.0, 0.5, c, 0.0) == RF_OK);
        for (int s = 0; s < 4; ++s) {
            for (int model = 0; model < 2; ++model) {
                double gam[6], v[3];
                ENSURE(solve_block(p, SOLVERS[s], (rf_model)model, gam, v) ==
                       0);
                const int held = ratios[k] <= 1.0;
                const double gn = held ? -m * G * H : -c * H;
                const double vy = held ? 0.0 : -(G - c / m) * H;
                printf("  m g = %.2f c  %-10s model %d: gamma_n %.9f (%.9f), "
                       "v_y %.3e (%.3e)\n",
                       ratios[k], SOLVER_NAMES[s], model, gam[RF_N], gn, v[1],
                       vy);
                ENSURE_SMALL(gam[RF_N] - gn, 1e-9 * m * G * H);
                ENSURE_SMALL(v[1] - vy, 1e-9 * G * H);
                ENSURE_SMALL(v[0], 1e-9 * G * H);
            }
        }
        /* without cohesion the same block simply falls: gamma = 0 */
        ENSURE(make_block(p, m, 0.0, 0.5, 0.0, 0.0) == RF_OK);
        double gam[6], v[3];
        ENSURE(solve_block(p, RF_SOLVER_APGD, RF_MODEL_DESAXCE, gam, v) == 0);
        ENSURE_SMALL(gam[RF_N], 1e-12);
        ENSURE_SMALL(v[1] + G * H, 1e-12);
    }
    rf_problem_destroy(p);
    return 0;
}

/* Friction still acts on a cohesive contact, with the limit
   mu (gamma_n + c h) of the shifted cone.  De Saxce model for the
   sliding case (the associated one adds normal dilatancy). */
static int test_friction(void)
{
    const double m = M_KG, mu = 0.5, c = 2.0 * m * G;
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    const double f_over_mg[2] = {0.4, 0.6};
    for (int k = 0; k < 2; ++k) {
        const double fx = f_over_mg[k] * m * G;
        ENSURE(make_block(p, m, fx, mu, c, 0.0) == RF_OK);
        for (int s = 0; s < 4; ++s) {
            double gam[6], v[3];
            ENSURE(solve_block(p, SOLVERS[s], RF_MODEL_DESAXCE, gam, v) == 0);
            const double limit = mu * (-m * G * H + c * H); /* 0.5 m g h */
            const int sticks = fx * H <= limit;
            const double vx = sticks ? 0.0 : (fx * H - limit) / m;
            /* the friction impulse along x: t1 or t2 carry it */
            double t1[3], t2[3], n[3] = {0.0, -1.0, 0.0};
            ENSURE(rf_contact_frame(n, t1, t2) == RF_OK);
            const double fric_x = gam[RF_U] * t1[0] + gam[RF_W] * t2[0];
            printf("  F = %.1f m g  %-10s: friction %.9f (limit %.9f), v_x "
                   "%.6e (%.6e), gamma_n %.9f\n",
                   f_over_mg[k], SOLVER_NAMES[s], fric_x, limit, v[0], vx,
                   gam[RF_N]);
            ENSURE_SMALL(gam[RF_N] + m * G * H, 1e-9 * m * G * H);
            ENSURE_SMALL(v[0] - vx, 1e-9 * G * H);
            ENSURE_SMALL(v[1], 1e-9 * G * H);
            ENSURE_SMALL(fric_x + (sticks ? fx * H : limit), 1e-9 * m * G * H);
        }
    }
    rf_problem_destroy(p);
    return 0;
}

/* Cohesion on a compliant contact (Tasora 6.2's soft contact, normal
   compliance k, m/s per N s): the block held by c = 2 m g stretches the
   contact instead of staying put.  u_n = G h + gamma_n / m + k gamma_n =
   0 with gamma_n inside the shifted cone gives gamma_n = -m g h / (1 + m
   k) and v_y = -g h m k / (1 + m k); at m k = 1: gamma_n = -m g h / 2,
   v_y = -g h / 2.  The local form (rf_problem_to_local: W holds k) gives
   the same impulse.  (The shift once left C s out of the body form's free
   velocity: gamma_n came out -1.5 m g h, found by fuzz_body_solve.) */
static int test_compliant_cohesion(void)
{
    const double m = M_KG, k = 1.0 / M_KG, c = 2.0 * m * G;
    const double gn = -m * G * H / (1.0 + m * k);
    const double vy = -G * H * m * k / (1.0 + m * k);
    rf_problem *p, *loc;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(rf_problem_create(&loc, NULL) == RF_OK);
    ENSURE(make_block(p, m, 0.0, 0.5, c, k) == RF_OK);
    ENSURE(rf_problem_to_local(p, loc, NULL) == RF_OK);
    ENSURE(rf_problem_set_cohesion(loc, (const double[]){c * H}, NULL) ==
           RF_OK);
    for (int s = 0; s < 4; ++s) {
        for (int model = 0; model < 2; ++model) {
            double gam[6], v[3];
            ENSURE(solve_block(p, SOLVERS[s], (rf_model)model, gam, v) == 0);
            printf("  compliant, %-10s model %d: gamma_n %.9f (%.9f), v_y "
                   "%.6f (%.6f)\n",
                   SOLVER_NAMES[s], model, gam[RF_N], gn, v[1], vy);
            ENSURE_SMALL(gam[RF_N] - gn, 1e-9 * m * G * H);
            ENSURE_SMALL(v[1] - vy, 1e-9 * G * H);
            const rf_config cfg = block_config(SOLVERS[s], (rf_model)model);
            double gl[6] = {0};
            ENSURE(rf_solve(loc, &cfg, gl, NULL, NULL) == RF_OK);
            ENSURE_SMALL(gl[RF_N] - gn, 1e-9 * m * G * H);
        }
    }
    rf_problem_destroy(loc);
    rf_problem_destroy(p);
    return 0;
}

/* A pile with random cohesion: the local form (W from rf_problem_to_local,
   cohesion copied) gives the impulses of the body form; a warm start from
   the solution is converged before the first iteration; every returned
   contact satisfies gamma + s in Y. */
static int test_forms_and_warm_start(void)
{
    rf_rng r = {808};
    const int nb = 12, nc = 3 * nb;
    rf_problem *p, *loc;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(rf_problem_create(&loc, NULL) == RF_OK);
    ENSURE(rf_problem_begin_bodies(p, nb, nc, NULL) == RF_OK);
    for (int b = 0; b < nb; ++b) {
        rf_body_desc bd;
        gen_body(&r, &bd, NULL);
        ENSURE(rf_problem_set_body(p, b, &bd, NULL) == RF_OK);
    }
    double coh[3 * 12 * 3];
    double coef[3 * 3 * 12];
    for (int i = 0; i < nc; ++i) {
        rf_contact_desc c;
        gen_pile_contact(&r, i, nb, &c);
        c.cohesion =
            rf_rng_uniform(&r) < 0.3 ? 0.0 : rf_rng_range(&r, 0.0, 0.2);
        coh[i] = c.cohesion;
        coef[3 * i] = c.mu;
        coef[3 * i + 1] = c.rho;
        coef[3 * i + 2] = c.sigma;
        ENSURE(rf_problem_set_contact(p, i, &c, NULL) == RF_OK);
    }
    ENSURE(rf_problem_to_local(p, loc, NULL) == RF_OK);
    for (int model = 0; model < 2; ++model) {
        rf_config cfg;
        rf_config_default(&cfg);
        cfg.solver = RF_SOLVER_APGD;
        cfg.model = (rf_model)model;
        cfg.tol = 1e-9;
        cfg.max_iter = 50000;
        double gb[6 * 36] = {0}, gl[6 * 36] = {0};
        rf_stats st;
        ENSURE(rf_solve(p, &cfg, gb, &st, NULL) == RF_OK);
        printf("  model %d body: %d iterations, residual %.3e\n", model,
               st.iterations, st.residual);
        ENSURE(st.converged);
        ENSURE(rf_solve(loc, &cfg, gl, &st, NULL) == RF_OK);
        ENSURE(st.converged);
        double scale = 0.0, diff = 0.0;
        int pulling = 0;
        for (int k = 0; k < 6 * nc; ++k) {
            scale = fmax(scale, fabs(gb[k]));
            diff = fmax(diff, fabs(gb[k] - gl[k]));
        }
        for (int i = 0; i < nc; ++i) {
            double sh[6];
            memcpy(sh, gb + 6 * i, sizeof sh);
            sh[RF_N] += coh[i];
            ENSURE_LE(rf_cone_violation(sh, coef[3 * i], coef[3 * i + 1],
                                        coef[3 * i + 2]),
                      1e-12 * (1.0 + scale));
            pulling += gb[6 * i] < -1e-9;
        }
        printf("  model %d: body vs local max |diff| %.2e (scale %.2e), %d "
               "of %d contacts pulling\n",
               model, diff, scale, pulling, nc);
        /* two points with residual 1e-9 each differ by about cond(W)
           1e-9 relative: 1e-6 allows cond(W) up to 1e3 (random masses in
           [0.5, 2], inertias in [0.05, 0.5], lever arms ~0.5) */
        ENSURE_LE(diff, 1e-6 * scale);
        ENSURE(pulling > 0); /* the cohesion is used, or nothing is tested */
        cfg.warm_start = 1;
        ENSURE(rf_solve(p, &cfg, gb, &st, NULL) == RF_OK);
        printf("  warm start: %d iterations, residual %.3e, scale %g\n",
               st.iterations, st.residual, st.energy_scale);
        ENSURE(st.iterations == 1); /* one sweep, from the solution */
        ENSURE(st.converged);
    }
    rf_problem_destroy(loc);
    rf_problem_destroy(p);
    return 0;
}

/* Bad cohesion values are refused with a message naming the contact; a
   cohesive problem cannot be written to the Siconos format. */
static int test_bad_cohesion(void)
{
    rf_problem *p;
    rf_error err;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    double c1[1] = {0.5};
    ENSURE(rf_problem_set_cohesion(p, c1, &err) == RF_ERR_STATE);
    ENSURE(make_block(p, 1.0, 0.0, 0.5, 1.0, 0.0) == RF_OK);
    rf_contact_desc c;
    memset(&c, 0, sizeof c);
    c.body_a = 0;
    c.body_b = RF_WORLD;
    c.n[1] = -1.0;
    ENSURE(rf_contact_frame(c.n, c.t1, c.t2) == RF_OK);
    c.cohesion = -1.0;
    ENSURE(rf_problem_set_contact(p, 0, &c, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "cohesion") != NULL);
    c.cohesion = NAN;
    ENSURE(rf_problem_set_contact(p, 0, &c, &err) == RF_ERR_NONFINITE);
    c1[0] = -0.1;
    ENSURE(rf_problem_set_cohesion(p, c1, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "cohesion[0]") != NULL);
    c1[0] = INFINITY;
    ENSURE(rf_problem_set_cohesion(p, c1, &err) == RF_ERR_NONFINITE);
    ENSURE(rf_problem_set_cohesion(NULL, c1, &err) == RF_ERR_NULL);
    /* the refused values left the contact's cohesion as it was: c = 1 N
       < m g, so the block leaves with gamma_n = -c h */
    double gam[6], v[3];
    ENSURE(solve_block(p, RF_SOLVER_APGD, RF_MODEL_DESAXCE, gam, v) == 0);
    ENSURE_SMALL(gam[RF_N] + 1.0 * H, 1e-12);
    /* local form: the file format has no cohesion */
    rf_problem *loc;
    ENSURE(rf_problem_create(&loc, NULL) == RF_OK);
    ENSURE(rf_problem_to_local(p, loc, NULL) == RF_OK);
    ENSURE(rf_problem_write(loc, "test_cohesion_refused.dat", 6, &err) ==
           RF_ERR_INVALID);
    ENSURE(strstr(err.message, "cohesion") != NULL);
    ENSURE(rf_problem_set_cohesion(loc, NULL, &err) == RF_OK); /* none */
    ENSURE(rf_problem_write(loc, "test_cohesion_refused.dat", 6, &err) ==
           RF_OK);
    remove("test_cohesion_refused.dat");
    rf_problem_destroy(loc);
    rf_problem_destroy(p);
    return 0;
}

int main(void)
{
    RUN_TEST(test_hang);
    RUN_TEST(test_friction);
    RUN_TEST(test_compliant_cohesion);
    RUN_TEST(test_forms_and_warm_start);
    RUN_TEST(test_bad_cohesion);
    return TEST_SUMMARY();
}
