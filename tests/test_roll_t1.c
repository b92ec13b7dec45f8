/*
 * Contacts with RF_CONTACT_ROLL_T1: the rolling torque acts about t1 only
 * (anisotropic rolling friction).  Their cone is
 *
 *   Y' = Y(mu, rho, sigma) with tw = 0 = { mu gn >= |(gu, gw)|,
 *          rho gn >= |tu|, sigma gn >= |tn|, tw = 0 }
 *   Y'* = { un >= mu |(uu, uw)| + rho |wu| + sigma |wn| }   (ww free)
 *
 * 1. The projection onto Y' satisfies Moreau's decomposition (p in Y',
 *    p - x in Y'*, <p, p - x> = 0; DESIGN §3), is idempotent and never
 *    lengthens x, on random inputs over 16 decades (tolerance 1e-12
 *    relative to |x|, as tests/test_cone.c).
 * 2. A sphere rolling diagonally on the ground with t1 = x: rolling about
 *    x (motion along z) is resisted, a = rho g / (R (1 + I / (m R^2)))
 *    (Tasora §6.1), rolling about z (motion along x) is free, so after one
 *    step v_x is unchanged; tw = 0 and |tu| = rho gn.  Every solver, De
 *    Saxce model (no dilatancy), 1e-10; the associated model keeps the
 *    cone shape and converges.
 * 3. rf_problem_to_local keeps the flag (same solution in local form);
 *    rf_problem_write refuses it; unknown flags are refused.
 */
#include "internal.h"
#include "rollfric/rollfric.h"
#include "test_util.h"

#include <stdio.h>
#include <string.h>

#define TOL 1e-12

static const rf_solver_kind SOLVERS[] = {RF_SOLVER_JACOBI, RF_SOLVER_GS,
                                         RF_SOLVER_GS_COLORED, RF_SOLVER_APGD};

static double dot6(const double a[6], const double b[6])
{
    double s = 0.0;
    for (int k = 0; k < 6; ++k) {
        s += a[k] * b[k];
    }
    return s;
}

/* How far d is outside Y'* (0 inside); components with a zero coefficient
   are free, and so is d[5]. */
static double dual_violation(const double d[6], const rf__cone *c)
{
    return fmax(0.0, c->mu * hypot(d[1], d[2]) + c->rho * fabs(d[4]) +
                         c->sigma * fabs(d[3]) - d[0]);
}

/* How far p is outside Y' (0 inside; zero coefficients force zeros). */
static double primal_violation(const double p[6], const rf__cone *c)
{
    double v = fmax(0.0, -p[0]);
    v = fmax(v, hypot(p[1], p[2]) - c->mu * p[0]);
    v = fmax(v, fabs(p[4]) - c->rho * p[0]);
    v = fmax(v, fabs(p[3]) - c->sigma * p[0]);
    return fmax(v, fabs(p[5])); /* tw = 0 exactly is checked apart */
}

static int test_projection_moreau(void)
{
    rf_rng r = {11};
    double worst[4] = {0, 0, 0, 0};
    for (int n = 0; n < 400000; ++n) {
        rf__cone c = {0.0, 0.0, 0.0, 1, INFINITY};
        double *coef[3] = {&c.mu, &c.rho, &c.sigma};
        for (int k = 0; k < 3; ++k) { /* 0 or 1e-3 .. 1e3 */
            *coef[k] = (rf_rng_next(&r) % 5 == 0)
                           ? 0.0
                           : pow(10.0, rf_rng_range(&r, -3.0, 3.0));
        }
        const double scale = pow(10.0, rf_rng_range(&r, -8.0, 8.0));
        double x[6], p[6], pp[6], d[6];
        for (int k = 0; k < 6; ++k) {
            x[k] = scale * rf_rng_range(&r, -1.0, 1.0);
        }
        rf__project6(x, &c, p);
        const double nx = sqrt(dot6(x, x));
        ENSURE(p[5] == 0.0);
        if (c.rho == 0.0) {
            ENSURE(p[4] == 0.0);
        }
        for (int k = 0; k < 6; ++k) {
            d[k] = p[k] - x[k];
        }
        const double e[4] = {primal_violation(p, &c) / nx,
                             dual_violation(d, &c) /
                                 (nx * (1.0 + c.mu + c.rho + c.sigma)),
                             fabs(dot6(p, d)) / (nx * nx), 0.0};
        rf__project6(p, &c, pp);
        double id = 0.0;
        for (int k = 0; k < 6; ++k) {
            id = fmax(id, fabs(pp[k] - p[k]));
        }
        const double err[4] = {e[0], e[1], e[2], id / nx};
        for (int k = 0; k < 4; ++k) {
            worst[k] = fmax(worst[k], err[k]);
            if (!(err[k] <= TOL)) {
                fprintf(stderr,
                        "input %d: check %d = %g; x = %a %a %a %a %a %a, "
                        "mu %a rho %a sigma %a\n",
                        n, k, err[k], x[0], x[1], x[2], x[3], x[4], x[5], c.mu,
                        c.rho, c.sigma);
                return 1;
            }
        }
        ENSURE_LE(sqrt(dot6(p, p)), nx * (1.0 + TOL));
    }
    printf("  400000 inputs: worst primal %.1e, dual %.1e, <p, p - x> %.1e, "
           "idempotence %.1e\n",
           worst[0], worst[1], worst[2], worst[3]);
    return 0;
}

/* The sphere of item 2 above as a one-contact body problem. */
static int make_sphere(rf_problem *p, double vx, double vz, int flags)
{
    const double m = 1.0, R = 0.5, I = 0.4 * m * R * R, h = 1.0 / 60.0;
    ENSURE(rf_problem_begin_bodies(p, 1, 1, NULL) == RF_OK);
    rf_body_desc b = {0};
    b.flags = RF_BODY_DYNAMIC;
    b.inv_mass = 1.0 / m;
    b.inv_inertia[0] = b.inv_inertia[4] = b.inv_inertia[8] = 1.0 / I;
    b.v[0] = vx;
    b.v[1] = -9.81 * h;
    b.v[2] = vz;
    b.w[0] = vz / R; /* rolling without slip: v = -w x r, r = (0, -R, 0) */
    b.w[2] = -vx / R;
    ENSURE(rf_problem_set_body(p, 0, &b, NULL) == RF_OK);
    rf_contact_desc c = {0};
    c.body_a = 0;
    c.body_b = RF_WORLD;
    c.n[1] = 1.0;
    c.t1[0] = 1.0;  /* rolling resisted about x only */
    c.t2[2] = -1.0; /* n x t1 */
    c.r_a[1] = -R;
    c.mu = 0.9;
    c.rho = 0.036;
    c.sigma = 0.01;
    c.flags = flags;
    ENSURE(rf_problem_set_contact(p, 0, &c, NULL) == RF_OK);
    return 0;
}

static int test_rolling_about_t1_only(void)
{
    const double m = 1.0, R = 0.5, I = 0.4 * m * R * R, h = 1.0 / 60.0;
    const double g = 9.81, rho = 0.036, vx = 1.5, vz = 2.0;
    const double a = rho * g / (R * (1.0 + I / (m * R * R)));
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    if (make_sphere(p, vx, vz, RF_CONTACT_ROLL_T1)) {
        return 1;
    }
    double vz_meas = 0.0;
    for (int model = 0; model < 2; ++model) {
        for (int s = 0; s < 4; ++s) {
            rf_config cfg;
            rf_config_default(&cfg);
            cfg.solver = SOLVERS[s];
            cfg.model = (rf_model)model;
            cfg.tol = 1e-13;
            cfg.max_iter = 20000;
            double gam[6] = {0}, v[3], w[3], res;
            rf_stats st;
            ENSURE(rf_solve(p, &cfg, gam, &st, NULL) == RF_OK);
            ENSURE(st.converged);
            ENSURE(rf_residual(p, cfg.model, gam, &res, NULL) == RF_OK);
            ENSURE_LE(res, 1e-12);
            ENSURE(gam[RF_ROLL_W] == 0.0);
            ENSURE(rf_problem_body_velocity(p, gam, v, w, NULL) == RF_OK);
            if (model == RF_MODEL_DESAXCE) {
                ENSURE_SMALL(gam[RF_N] - m * g * h, 1e-10);
                ENSURE_SMALL(v[0] - vx, 1e-10);           /* free */
                ENSURE_SMALL(v[2] - (vz - a * h), 1e-10); /* resisted */
                ENSURE_SMALL(fabs(gam[RF_ROLL_U]) - rho * gam[RF_N], 1e-12);
                ENSURE_SMALL(w[2] + v[0] / R, 1e-9); /* still no slip */
                vz_meas = v[2];
            }
        }
    }
    printf("  De Saxce: v_x %.6f kept, v_z %.6f (analytic %.6f)\n", vx, vz_meas,
           vz - a * h);

    /* local form keeps the flag: the same impulses */
    rf_problem *loc;
    ENSURE(rf_problem_create(&loc, NULL) == RF_OK);
    ENSURE(rf_problem_to_local(p, loc, NULL) == RF_OK);
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.model = RF_MODEL_DESAXCE;
    cfg.tol = 1e-13;
    double gb[6] = {0}, gl[6] = {0};
    ENSURE(rf_solve(p, &cfg, gb, NULL, NULL) == RF_OK);
    ENSURE(rf_solve(loc, &cfg, gl, NULL, NULL) == RF_OK);
    for (int k = 0; k < 6; ++k) {
        ENSURE_SMALL(gb[k] - gl[k], 1e-10);
    }
    rf_error err;
    ENSURE(rf_problem_write(loc, "/nonexistent-dir/x.dat", 6, &err) ==
           RF_ERR_INVALID);
    ENSURE(strstr(err.message, "contact 0") != NULL);
    rf_problem_destroy(loc);

    /* without the flag the same sphere also loses speed along x */
    if (make_sphere(p, vx, vz, 0)) {
        return 1;
    }
    double gi[6] = {0}, v[3], w[3];
    ENSURE(rf_solve(p, &cfg, gi, NULL, NULL) == RF_OK);
    ENSURE(rf_problem_body_velocity(p, gi, v, w, NULL) == RF_OK);
    const double c = 1.0 / hypot(vx, vz); /* isotropic: along (vx, vz) */
    ENSURE_SMALL(v[0] - (vx - a * h * vx * c), 1e-10);
    ENSURE_SMALL(v[2] - (vz - a * h * vz * c), 1e-10);

    /* unknown flags */
    rf_contact_desc bad = {0};
    bad.body_a = 0;
    bad.body_b = RF_WORLD;
    bad.n[1] = bad.t1[0] = 1.0;
    bad.t2[2] = -1.0;
    bad.flags = 2;
    ENSURE(rf_problem_set_contact(p, 0, &bad, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "flags") != NULL);
    rf_problem_destroy(p);
    return 0;
}

int main(void)
{
    RUN_TEST(test_projection_moreau);
    RUN_TEST(test_rolling_about_t1_only);
    return TEST_SUMMARY();
}
