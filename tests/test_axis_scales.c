/*
 * Anisotropic friction (rf_problem_set_sliding_scales,
 * rf_problem_set_rolling_scales): contact i's sliding rows act along s_u
 * t1 and s_w t2, so its friction limit is the ellipse { S g : |g| <= mu
 * gn }, S = diag(s_u, s_w) in (t1, t2) (how Bullet scales a friction
 * row's direction by CF_ANISOTROPIC_FRICTION); its rolling rows likewise
 * about r_u t1 and r_w t2 (CF_ANISOTROPIC_ROLLING_FRICTION).
 *
 * A puck (contact at its centre of mass, so friction gives no torque)
 * rests on the ground with gn = m g h under the De Saxce model (no
 * dilatancy), in the frame n = y, t1 = x, t2 = n x t1 = -z:
 * 1. Sliding fast, friction takes the point of the ellipse of maximum
 *    dissipation for the velocity at the end of the step: F = argmax_{F
 *    in ellipse} -F.v+ = -mu gn S^2 v+ / |S v+|, v+ = v_t + F / m (v_t
 *    the free tangential velocity in (t1, t2)); sliding_velocity solves
 *    it.  Every solver (Jacobi, GS, coloured GS, APGD, SI), to 1e-9 m/s.
 * 2. Slow, it sticks where the impulse that stops it, m v_t, lies inside
 *    the ellipse (along t1 with s_u = 1: |m v| = mu gn / 2) and slides
 *    where it does not (the same speed along t2 with s_w = 1/4 needs
 *    2 mu gn): v+ = 0 against v+ = v - s_w mu gn / m.
 * 3. Equal scales (a, a) are the round cone of mu a: the same velocities.
 * 4. The solution meets the natural-map residual of its variables
 *    (Moreau's conditions, DESIGN §3), and rf_problem_to_local carries the
 *    scales into W (the same impulses in local form).
 * 5. 200 pucks (past the SI solver's wide-kernel threshold, 128 contacts
 *    with the De Saxce model), every other one with scales: the scaled
 *    ones (left to the group kernel) and the round ones (bundled) both
 *    meet item 1's formula.
 * 6. The rolling ellipse on a spinning puck (no lever arm): item 1's law
 *    for the spin with rho gn / I, and the stick test about either axis.
 * 7. Both kinds on one contact are kept apart.
 * 8. Bad input: a scale <= 0, a NaN, NULL, a local-form problem, and SI's
 *    associated block step, which refuses scales with a message.
 */
#include "rollfric/rollfric.h"
#include "test_util.h"

#include <stdio.h>
#include <string.h>

static const double M = 2.0, H = 1.0 / 60.0, G = 9.81, MU = 0.5;

static const rf_solver_kind SOLVERS[] = {RF_SOLVER_JACOBI, RF_SOLVER_GS,
                                         RF_SOLVER_GS_COLORED, RF_SOLVER_APGD,
                                         RF_SOLVER_SI};
static const char *const NAMES[] = {"jacobi", "gs", "gs_colored", "apgd", "si"};

/* n pucks, puck k with free tangential velocity (vx[k], vz[k]); scales
   (su[k], sw[k]) unless su is NULL. */
static int make_pucks(rf_problem *p, int n, const double *vx, const double *vz,
                      const double *su, const double *sw, double mu)
{
    ENSURE(rf_problem_begin_bodies(p, n, n, NULL) == RF_OK);
    for (int k = 0; k < n; ++k) {
        rf_body_desc b;
        memset(&b, 0, sizeof b);
        b.flags = RF_BODY_DYNAMIC;
        b.inv_mass = 1.0 / M;
        b.inv_inertia[0] = b.inv_inertia[4] = b.inv_inertia[8] = 3.0;
        b.v[0] = vx[k];
        b.v[1] = -G * H;
        b.v[2] = vz[k];
        ENSURE(rf_problem_set_body(p, k, &b, NULL) == RF_OK);
        rf_contact_desc c;
        memset(&c, 0, sizeof c);
        c.body_a = k;
        c.body_b = RF_WORLD;
        c.n[1] = 1.0;
        c.t1[0] = 1.0;
        c.t2[2] = -1.0; /* n x t1 */
        c.mu = mu;
        ENSURE(rf_problem_set_contact(p, k, &c, NULL) == RF_OK);
    }
    if (su != NULL) {
        double s[400];
        for (int k = 0; k < n; ++k) {
            s[2 * k] = su[k];
            s[2 * k + 1] = sw[k];
        }
        ENSURE(rf_problem_set_sliding_scales(p, s, NULL) == RF_OK);
    }
    return 0;
}

static void converged_config(rf_config *cfg, rf_solver_kind solver)
{
    rf_config_default(cfg);
    cfg->solver = solver;
    cfg->model = RF_MODEL_DESAXCE;
    cfg->tol = 1e-13;
    cfg->max_iter = 20000;
}

/* Item 1's velocity after the step.  Friction is the point of the
   ellipse of maximum dissipation for the velocity at the end of the step
   (the CCP's optimality conditions, Tasora (40)): F = -mu gn S^2 v+ /
   |S v+| in (t1, t2), and v+ = v_t + F / m.  With lam = mu gn / (m |S
   v+|), v+_k = v_k / (1 + lam s_k^2), and lam solves the scalar equation
   lam |S v+(lam)| = mu gn / m, increasing in lam: bisection to rounding.
   Back to world x, z. */
static void ellipse_step(double vx, double vz, double su, double sw, double c,
                         double out[2]);

static void sliding_velocity(double vx, double vz, double su, double sw,
                             double mu, double out[2])
{
    ellipse_step(vx, vz, su, sw, mu * M * G * H / M, out);
}

/* v+ = v - c S^2 v+ / |S v+| (x, z world; t1 = x, t2 = -z), or 0 when
   |S^-1 v| <= c (sticks) */
static void ellipse_step(double vx, double vz, double su, double sw, double c,
                         double out[2])
{
    const double vu = vx, vw = -vz; /* t1 = x, t2 = -z */
    const double s2[2] = {su * su, sw * sw}, v[2] = {vu, vw};
    if (hypot(vu / su, vw / sw) <= c) { /* stopped inside the ellipse */
        out[0] = out[1] = 0.0;
        return;
    }
    double lo = 0.0, hi = 1.0;
    const double ssq[2] = {s2[0], s2[1]};
    for (;;) { /* bracket */
        const double a = v[0] / (1 + hi * ssq[0]), b = v[1] / (1 + hi * ssq[1]);
        if (hi * sqrt(ssq[0] * a * a + ssq[1] * b * b) >= c) {
            break;
        }
        hi *= 2.0;
    }
    for (int it = 0; it < 200; ++it) {
        const double mid = 0.5 * (lo + hi);
        const double a = v[0] / (1 + mid * ssq[0]),
                     b = v[1] / (1 + mid * ssq[1]);
        if (mid * sqrt(ssq[0] * a * a + ssq[1] * b * b) < c) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    const double lam = 0.5 * (lo + hi);
    out[0] = vu / (1 + lam * s2[0]);
    out[1] = -(vw / (1 + lam * s2[1]));
}

static int test_sliding_ellipse(void)
{
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    const double vx = 3.0 * cos(0.6), vz = 3.0 * sin(0.6);
    const double su = 1.0, sw = 0.25;
    double want[2];
    sliding_velocity(vx, vz, su, sw, MU, want);
    for (int s = 0; s < 5; ++s) {
        if (make_pucks(p, 1, &vx, &vz, &su, &sw, MU)) {
            return 1;
        }
        rf_config cfg;
        converged_config(&cfg, SOLVERS[s]);
        double gam[6] = {0}, v[3], w[3], res;
        rf_stats st;
        ENSURE(rf_solve(p, &cfg, gam, &st, NULL) == RF_OK);
        ENSURE(rf_problem_body_velocity(p, gam, v, w, NULL) == RF_OK);
        ENSURE_SMALL(gam[RF_N] - M * G * H, 1e-10);
        ENSURE_SMALL(v[1], 1e-10); /* no hop */
        ENSURE_SMALL(v[0] - want[0], 1e-9);
        ENSURE_SMALL(v[2] - want[1], 1e-9);
        /* on the ellipse's boundary: |(gu, gw)| = mu gn */
        ENSURE_SMALL(hypot(gam[RF_U], gam[RF_W]) - MU * gam[RF_N], 1e-10);
        ENSURE(rf_residual(p, cfg.model, gam, &res, NULL) == RF_OK);
        ENSURE_LE(res, 1e-10);
        printf("  %-10s v = (%.9f, %.9f), analytic (%.9f, %.9f), residual "
               "%.1e\n",
               NAMES[s], v[0], v[2], want[0], want[1], res);
    }
    /* the round cone slides along -v_t instead: the scales do something */
    double round[2];
    sliding_velocity(vx, vz, 1.0, 1.0, MU, round);
    ENSURE(fabs(round[1] - want[1]) > 1e-3);
    rf_problem_destroy(p);
    return 0;
}

static int test_stick_depends_on_direction(void)
{
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    const double gn = M * G * H;
    const double speed = 0.5 * MU * gn / M; /* m v = mu gn / 2 */
    const double su = 1.0, sw = 0.25;
    for (int s = 0; s < 5; ++s) {
        rf_config cfg;
        converged_config(&cfg, SOLVERS[s]);
        /* along t1 (x): inside the ellipse, sticks */
        const double x1 = speed, z1 = 0.0;
        if (make_pucks(p, 1, &x1, &z1, &su, &sw, MU)) {
            return 1;
        }
        double gam[6] = {0}, v[3], w[3];
        ENSURE(rf_solve(p, &cfg, gam, NULL, NULL) == RF_OK);
        ENSURE(rf_problem_body_velocity(p, gam, v, w, NULL) == RF_OK);
        ENSURE_SMALL(v[0], 1e-10);
        ENSURE_SMALL(v[2], 1e-10);
        /* along t2 (-z): the impulse that stops it is outside, slides */
        const double x2 = 0.0, z2 = -speed;
        if (make_pucks(p, 1, &x2, &z2, &su, &sw, MU)) {
            return 1;
        }
        memset(gam, 0, sizeof gam);
        ENSURE(rf_solve(p, &cfg, gam, NULL, NULL) == RF_OK);
        ENSURE(rf_problem_body_velocity(p, gam, v, w, NULL) == RF_OK);
        ENSURE_SMALL(v[0], 1e-10);
        ENSURE_SMALL(v[2] - (z2 + sw * MU * gn / M), 1e-10);
        ENSURE(v[2] < -0.25 * speed); /* still sliding, at half speed */
    }
    rf_problem_destroy(p);
    return 0;
}

static int test_equal_scales_are_round(void)
{
    rf_problem *p, *q;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(rf_problem_create(&q, NULL) == RF_OK);
    const double a = 0.3;
    /* a speed at which friction mu a stops it within the step, and one at
       which it does not */
    const double speeds[2] = {0.2 * MU * a * G * H, 2.0};
    for (int c = 0; c < 2; ++c) {
        const double vx = speeds[c] * cos(1.1), vz = speeds[c] * sin(1.1);
        if (make_pucks(p, 1, &vx, &vz, &a, &a, MU) ||
            make_pucks(q, 1, &vx, &vz, NULL, NULL, MU * a)) {
            return 1;
        }
        for (int s = 0; s < 5; ++s) {
            rf_config cfg;
            converged_config(&cfg, SOLVERS[s]);
            double gp[6] = {0}, gq[6] = {0}, vp[3], vq[3], w[3];
            ENSURE(rf_solve(p, &cfg, gp, NULL, NULL) == RF_OK);
            ENSURE(rf_solve(q, &cfg, gq, NULL, NULL) == RF_OK);
            ENSURE(rf_problem_body_velocity(p, gp, vp, w, NULL) == RF_OK);
            ENSURE(rf_problem_body_velocity(q, gq, vq, w, NULL) == RF_OK);
            for (int k = 0; k < 3; ++k) {
                ENSURE_SMALL(vp[k] - vq[k], 1e-10);
            }
            /* the impulses are the round one's over a */
            ENSURE_SMALL(gp[RF_U] * a - gq[RF_U], 1e-11);
            ENSURE_SMALL(gp[RF_W] * a - gq[RF_W], 1e-11);
        }
    }
    rf_problem_destroy(p);
    rf_problem_destroy(q);
    return 0;
}

static int test_local_form_carries_scales(void)
{
    rf_problem *p, *loc;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(rf_problem_create(&loc, NULL) == RF_OK);
    const double vx = 1.0, vz = 2.0, su = 0.4, sw = 1.7;
    if (make_pucks(p, 1, &vx, &vz, &su, &sw, MU)) {
        return 1;
    }
    ENSURE(rf_problem_to_local(p, loc, NULL) == RF_OK);
    rf_config cfg;
    converged_config(&cfg, RF_SOLVER_GS);
    double gb[6] = {0}, gl[6] = {0};
    ENSURE(rf_solve(p, &cfg, gb, NULL, NULL) == RF_OK);
    ENSURE(rf_solve(loc, &cfg, gl, NULL, NULL) == RF_OK);
    for (int k = 0; k < 6; ++k) {
        ENSURE_SMALL(gb[k] - gl[k], 1e-10);
    }
    /* and they are the ellipse's, not the round cone's */
    double v[3], w[3], want[2];
    ENSURE(rf_problem_body_velocity(p, gb, v, w, NULL) == RF_OK);
    sliding_velocity(vx, vz, su, sw, MU, want);
    ENSURE_SMALL(v[0] - want[0], 1e-9);
    ENSURE_SMALL(v[2] - want[1], 1e-9);
    rf_problem_destroy(loc);
    rf_problem_destroy(p);
    return 0;
}

static int test_many_pucks_si(void)
{
    enum { N = 200 };
    static double vx[N], vz[N], su[N], sw[N];
    for (int k = 0; k < N; ++k) {
        const double a = 0.031 * k;
        vx[k] = 2.0 * cos(a);
        vz[k] = 2.0 * sin(a);
        su[k] = k % 2 ? 0.2 + 0.01 * k : 1.0; /* every other one round */
        sw[k] = k % 2 ? 1.3 : 1.0;
    }
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    if (make_pucks(p, N, vx, vz, su, sw, MU)) {
        return 1;
    }
    rf_config cfg;
    converged_config(&cfg, RF_SOLVER_SI);
    cfg.threads = 2;
    static double gam[6 * N], v[3 * N], w[3 * N];
    memset(gam, 0, sizeof gam);
    ENSURE(rf_solve(p, &cfg, gam, NULL, NULL) == RF_OK);
    ENSURE(rf_problem_body_velocity(p, gam, v, w, NULL) == RF_OK);
    double worst = 0.0;
    for (int k = 0; k < N; ++k) {
        double want[2];
        sliding_velocity(vx[k], vz[k], su[k], sw[k], MU, want);
        worst = fmax(worst, fmax(fabs(v[3 * k] - want[0]),
                                 fabs(v[3 * k + 2] - want[1])));
    }
    printf("  200 pucks, SI: worst velocity error %.1e m/s\n", worst);
    ENSURE_LE(worst, 1e-9);
    rf_problem_destroy(p);
    return 0;
}

/* A puck spinning about a horizontal axis (no lever arm: rolling
   friction alone acts on its spin, sliding friction never), rolling
   scales (1, 1/4): its spin after the step is item 1's ellipse law for
   the rolling part, w+ = w - (rho gn / I) R^2 w+ / |R w+| (R = diag(r_u,
   r_w), I its isotropic inertia), and it stops where R^-1 w fits (about
   t1: w I = rho gn / 2) but not across (the same spin about t2). */
static int test_rolling_ellipse(void)
{
    const double I = 1.0 / 3.0, rho = 0.05, gn = M * G * H;
    const double c = rho * gn / I;
    const double ru = 1.0, rw = 0.25;
    const double spins[3][2] = {
        {9.0 * cos(0.4), 9.0 * sin(0.4)}, {0.5 * c, 0.0}, {0.0, -0.5 * c}};
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    for (int k = 0; k < 3; ++k) {
        double want[2];
        ellipse_step(spins[k][0], spins[k][1], ru, rw, c, want);
        for (int sv = 0; sv < 5; ++sv) {
            const double zero = 0.0;
            if (make_pucks(p, 1, &zero, &zero, NULL, NULL, MU)) {
                return 1;
            }
            /* the same puck, spinning, with rho and the rolling scales */
            rf_body_desc b;
            memset(&b, 0, sizeof b);
            b.flags = RF_BODY_DYNAMIC;
            b.inv_mass = 1.0 / M;
            b.inv_inertia[0] = b.inv_inertia[4] = b.inv_inertia[8] = 1.0 / I;
            b.v[1] = -G * H;
            b.w[0] = spins[k][0];
            b.w[2] = spins[k][1];
            ENSURE(rf_problem_set_body(p, 0, &b, NULL) == RF_OK);
            rf_contact_desc cd;
            memset(&cd, 0, sizeof cd);
            cd.body_a = 0;
            cd.body_b = RF_WORLD;
            cd.n[1] = cd.t1[0] = 1.0;
            cd.t2[2] = -1.0;
            cd.mu = MU;
            cd.rho = rho;
            ENSURE(rf_problem_set_contact(p, 0, &cd, NULL) == RF_OK);
            const double sc[2] = {ru, rw};
            ENSURE(rf_problem_set_rolling_scales(p, sc, NULL) == RF_OK);
            rf_config cfg;
            converged_config(&cfg, SOLVERS[sv]);
            double gam[6] = {0}, v[3], w[3], res;
            ENSURE(rf_solve(p, &cfg, gam, NULL, NULL) == RF_OK);
            ENSURE(rf_problem_body_velocity(p, gam, v, w, NULL) == RF_OK);
            ENSURE(rf_residual(p, cfg.model, gam, &res, NULL) == RF_OK);
            ENSURE_SMALL(w[0] - want[0], 1e-9);
            ENSURE_SMALL(w[2] - want[1], 1e-9);
            ENSURE_SMALL(v[0], 1e-12); /* sliding friction never acts */
            ENSURE_LE(res, 1e-10);
            if (k == 0 && sv == 4) {
                printf("  spinning puck, si: w = (%.9f, %.9f), analytic "
                       "(%.9f, %.9f)\n",
                       w[0], w[2], want[0], want[1]);
            }
        }
        if (k == 1) {
            ENSURE(want[0] == 0.0); /* about t1: stops */
        }
        if (k == 2) {
            ENSURE(want[1] < -0.1 * c); /* about t2: spins on */
        }
    }
    rf_problem_destroy(p);
    return 0;
}

/* Both kinds on one contact, set in either order, each keeps the other. */
static int test_both_kinds(void)
{
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    const double vx = 2.0, vz = 1.0, su = 0.5, sw = 1.0;
    if (make_pucks(p, 1, &vx, &vz, &su, &sw, MU)) {
        return 1;
    }
    const double r[2] = {1.0, 1.0}; /* rolling scales of 1 change nothing */
    ENSURE(rf_problem_set_rolling_scales(p, r, NULL) == RF_OK);
    rf_config cfg;
    converged_config(&cfg, RF_SOLVER_SI);
    double gam[6] = {0}, v[3], w[3], want[2];
    ENSURE(rf_solve(p, &cfg, gam, NULL, NULL) == RF_OK);
    ENSURE(rf_problem_body_velocity(p, gam, v, w, NULL) == RF_OK);
    sliding_velocity(vx, vz, su, sw, MU, want);
    ENSURE_SMALL(v[0] - want[0], 1e-9);
    ENSURE_SMALL(v[2] - want[1], 1e-9);
    /* removing the rolling ones keeps the sliding ones */
    ENSURE(rf_problem_set_rolling_scales(p, NULL, NULL) == RF_OK);
    memset(gam, 0, sizeof gam);
    ENSURE(rf_solve(p, &cfg, gam, NULL, NULL) == RF_OK);
    ENSURE(rf_problem_body_velocity(p, gam, v, w, NULL) == RF_OK);
    ENSURE_SMALL(v[0] - want[0], 1e-9);
    rf_problem_destroy(p);
    return 0;
}

static int test_bad_input(void)
{
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    rf_error err;
    const double one = 1.0, zero = 0.0, vx = 1.0, vz = 0.0;
    if (make_pucks(p, 1, &vx, &vz, NULL, NULL, MU)) {
        return 1;
    }
    double s[2] = {1.0, 0.0};
    ENSURE(rf_problem_set_sliding_scales(p, s, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "scales[1] (contact 0) = 0") != NULL);
    s[1] = NAN;
    ENSURE(rf_problem_set_sliding_scales(p, s, &err) == RF_ERR_NONFINITE);
    ENSURE(rf_problem_set_sliding_scales(NULL, s, &err) == RF_ERR_NULL);
    /* SI's associated block step refuses them, with a message */
    if (make_pucks(p, 1, &vx, &vz, &one, &one, MU)) {
        return 1;
    }
    rf_config cfg;
    converged_config(&cfg, RF_SOLVER_SI);
    cfg.model = RF_MODEL_ASSOCIATED;
    double gam[6] = {0};
    ENSURE(rf_solve(p, &cfg, gam, NULL, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "axis scales") != NULL);
    /* NULL removes them; begin clears them */
    ENSURE(rf_problem_set_sliding_scales(p, NULL, NULL) == RF_OK);
    ENSURE(rf_solve(p, &cfg, gam, NULL, NULL) == RF_OK);
    if (make_pucks(p, 1, &vx, &vz, &one, &one, MU) ||
        make_pucks(p, 1, &vx, &vz, NULL, NULL, MU)) {
        return 1;
    }
    ENSURE(rf_solve(p, &cfg, gam, NULL, NULL) == RF_OK);
    /* a local-form problem has none of its own */
    rf_problem *loc;
    ENSURE(rf_problem_create(&loc, NULL) == RF_OK);
    ENSURE(rf_problem_to_local(p, loc, NULL) == RF_OK);
    ENSURE(rf_problem_set_sliding_scales(loc, s, &err) == RF_ERR_STATE);
    (void)zero;
    rf_problem_destroy(loc);
    rf_problem_destroy(p);
    return 0;
}

int main(void)
{
    RUN_TEST(test_sliding_ellipse);
    RUN_TEST(test_stick_depends_on_direction);
    RUN_TEST(test_equal_scales_are_round);
    RUN_TEST(test_local_form_carries_scales);
    RUN_TEST(test_many_pucks_si);
    RUN_TEST(test_rolling_ellipse);
    RUN_TEST(test_both_kinds);
    RUN_TEST(test_bad_input);
    return TEST_SUMMARY();
}
