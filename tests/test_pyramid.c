/*
 * The pyramid model (Pang & Trinkle Theorem 1, eq. (30),
 * velocity level) and Lemke's method (rf_lcp_lemke).
 *   - Lemke on small LCPs with known answers: M = [[2, 1], [1, 2]] with
 *     q = (-5, -6) gives z = (4/3, 7/3), w = 0; with q = (-1, 3) z =
 *     (1/2, 0), w = (0, 3.5); M = [[-1]], q = (-1) has no solution and
 *     ends on a ray (RF_ERR_LCP, said so).
 *   - A box on the ground (4 corner contacts, mu 0.5) pushed with v_x =
 *     0.03 m/s < mu g h = 0.049 m/s: it sticks in both models; the velocities
 * agree (the box stops: 1e-9) and so do the totals (normal m g h, friction m
 * v_x), while the corner impulses of the statically indeterminate contact
 * differ between the LCP's vertex and the CCP's solution.
 *   - Sliding on one contact (unit mass at the contact, W = I on the
 *     linear part): along an axis both models brake with mu g h; at 45
 *     deg the pyramid's box brakes each axis with mu g h (sqrt(2) mu g h
 *     in all) where the cone gives mu g h.
 * 1e-9 (exact pivots; the CCP at tol 1e-13).
 */
#include "problem_gen.h"

#include <stdio.h>

static int test_lemke(void)
{
    const double M[4] = {2, 1, 1, 2};
    double z[2], q[2] = {-5, -6};
    int piv = 0;
    rf_error err;
    ENSURE(rf_lcp_lemke(2, M, q, z, 100, &piv, &err) == RF_OK);
    ENSURE_SMALL(z[0] - 4.0 / 3.0, 1e-12);
    ENSURE_SMALL(z[1] - 7.0 / 3.0, 1e-12);
    q[0] = -1;
    q[1] = 3;
    ENSURE(rf_lcp_lemke(2, M, q, z, 100, &piv, &err) == RF_OK);
    ENSURE_SMALL(z[0] - 0.5, 1e-12);
    ENSURE_SMALL(z[1], 1e-12);
    const double Mr[1] = {-1}, qr[1] = {-1};
    ENSURE(rf_lcp_lemke(1, Mr, qr, z, 100, &piv, &err) == RF_ERR_LCP);
    ENSURE(strstr(err.message, "ray") != NULL);
    printf("  ray: %s\n", err.message);
    ENSURE(rf_lcp_lemke(0, M, q, z, 100, NULL, &err) == RF_ERR_INVALID);
    const double Mn[1] = {NAN};
    ENSURE(rf_lcp_lemke(1, Mn, qr, z, 100, NULL, &err) == RF_ERR_NONFINITE);
    ENSURE(rf_lcp_lemke(2, NULL, q, z, 100, NULL, &err) == RF_ERR_NULL);
    return 0;
}

static const double G = 9.81, H = 0.01;

/* A contact of body 0 with the ground y = 0: n = y, t1 = x, t2 = -z. */
static void ground_contact(rf_contact_desc *c)
{
    memset(c, 0, sizeof *c);
    c->body_b = RF_WORLD;
    c->n[1] = 1.0;
    c->t1[0] = 1.0;
    c->t2[2] = -1.0;
}

/* A 1 kg box (half size 0.2 m) on the ground, 4 corner contacts, free
   velocity (vx, -g h, 0). */
static rf_status make_box(rf_problem *p, double vx)
{
    const double m = 1.0, a = 0.2, I = m * (2 * a) * (2 * a) / 6.0;
    rf_status st = rf_problem_begin_bodies(p, 1, 4, NULL);
    rf_body_desc b;
    memset(&b, 0, sizeof b);
    b.inv_mass = 1.0 / m;
    b.inv_inertia[0] = b.inv_inertia[4] = b.inv_inertia[8] = 1.0 / I;
    b.v[0] = vx;
    b.v[1] = -G * H;
    if (st == RF_OK) {
        st = rf_problem_set_body(p, 0, &b, NULL);
    }
    for (int k = 0; st == RF_OK && k < 4; ++k) {
        rf_contact_desc c;
        ground_contact(&c);
        c.r_a[0] = k & 1 ? a : -a;
        c.r_a[1] = -a;
        c.r_a[2] = k & 2 ? a : -a;
        c.mu = 0.5;
        st = rf_problem_set_contact(p, k, &c, NULL);
    }
    return st;
}

static int solve(rf_problem *p, rf_model model, double *g, double v[3],
                 double w[3])
{
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.model = model;
    cfg.tol = 1e-13;
    cfg.max_iter = 200000;
    rf_stats st;
    memset(g, 0, 24 * sizeof(double));
    ENSURE(rf_solve(p, &cfg, g, &st, NULL) == RF_OK);
    ENSURE(st.converged);
    ENSURE(st.energy_scale == 1.0);
    ENSURE(rf_problem_body_velocity(p, g, v, w, NULL) == RF_OK);
    return 0;
}

static int test_box_sticks(void)
{
    const double vx = 0.03; /* < mu g h = 0.049 */
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(make_box(p, vx) == RF_OK);
    double gl[24], gc[24], vl[3], wl[3], vc[3], wc[3];
    ENSURE(solve(p, RF_MODEL_PYRAMID, gl, vl, wl) == 0);
    ENSURE(solve(p, RF_MODEL_DESAXCE, gc, vc, wc) == 0);
    double nl = 0, nc = 0, fl = 0, fc = 0, corner = 0;
    for (int k = 0; k < 4; ++k) {
        nl += gl[6 * k];
        nc += gc[6 * k];
        fl += gl[6 * k + 1];
        fc += gc[6 * k + 1];
        corner = fmax(corner, fabs(gl[6 * k] - gc[6 * k]));
    }
    printf("  box: pyramid v (%.2e %.2e %.2e), cone v (%.2e %.2e %.2e); "
           "normal %.6f / %.6f, friction %.6f / %.6f; corners differ by "
           "up to %.4f N s\n",
           vl[0], vl[1], vl[2], vc[0], vc[1], vc[2], nl, nc, fl, fc, corner);
    for (int k = 0; k < 3; ++k) {
        ENSURE_SMALL(vl[k] - vc[k], 1e-9);
        ENSURE_SMALL(wl[k] - wc[k], 1e-9);
        ENSURE_SMALL(vl[k], 1e-9);
    }
    ENSURE_SMALL(nl - G * H, 1e-9);
    ENSURE_SMALL(nc - G * H, 1e-9);
    ENSURE_SMALL(fl + vx, 1e-9);
    ENSURE_SMALL(fc + vx, 1e-9);
    ENSURE(corner > 1e-3); /* the same motion from other corner impulses */
    rf_problem_destroy(p);
    return 0;
}

/* one contact at the centre of a unit body sliding at (vx, vz) */
static int slide(double vx, double vz, rf_model model, double g[6])
{
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(rf_problem_begin_bodies(p, 1, 1, NULL) == RF_OK);
    rf_body_desc b;
    memset(&b, 0, sizeof b);
    b.inv_mass = 1.0;
    b.inv_inertia[0] = b.inv_inertia[4] = b.inv_inertia[8] = 1.0;
    b.v[0] = vx;
    b.v[1] = -G * H;
    b.v[2] = vz;
    ENSURE(rf_problem_set_body(p, 0, &b, NULL) == RF_OK);
    rf_contact_desc c;
    ground_contact(&c);
    c.mu = 0.5;
    ENSURE(rf_problem_set_contact(p, 0, &c, NULL) == RF_OK);
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.model = model;
    cfg.tol = 1e-13;
    cfg.max_iter = 200000;
    memset(g, 0, 6 * sizeof(double));
    ENSURE(rf_solve(p, &cfg, g, NULL, NULL) == RF_OK);
    rf_problem_destroy(p);
    return 0;
}

static int test_sliding(void)
{
    const double lim = 0.5 * G * H, V = 2.0;
    double gp[6], gc[6];
    /* along t1 = x: both brake with mu g h */
    ENSURE(slide(V, 0, RF_MODEL_PYRAMID, gp) == 0);
    ENSURE(slide(V, 0, RF_MODEL_DESAXCE, gc) == 0);
    ENSURE_SMALL(gp[RF_N] - G * H, 1e-9);
    ENSURE_SMALL(gp[RF_U] + lim, 1e-9);
    ENSURE_SMALL(gc[RF_U] + lim, 1e-9);
    /* at 45 deg: the box brakes each axis with mu g h; the cone mu g h in
       all (t2 = -z) */
    const double s = V / sqrt(2.0);
    ENSURE(slide(s, s, RF_MODEL_PYRAMID, gp) == 0);
    ENSURE(slide(s, s, RF_MODEL_DESAXCE, gc) == 0);
    printf("  45 deg: pyramid (%.6f, %.6f), cone (%.6f, %.6f), mu g h = "
           "%.6f\n",
           gp[RF_U], gp[RF_W], gc[RF_U], gc[RF_W], lim);
    ENSURE_SMALL(gp[RF_U] + lim, 1e-9);
    ENSURE_SMALL(gp[RF_W] - lim, 1e-9);
    ENSURE_SMALL(hypot(gc[RF_U], gc[RF_W]) - lim, 1e-9);
    return 0;
}

/* What the pyramid model refuses: rows, a yield cap, rf_residual. */
static int test_refused(void)
{
    rf_problem *p;
    rf_error err;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(make_box(p, 0.0) == RF_OK);
    double g[24] = {0}, res;
    ENSURE(rf_residual(p, RF_MODEL_PYRAMID, g, &res, &err) == RF_ERR_INVALID);
    rf_contact_desc c;
    ground_contact(&c);
    c.normal_max = 1.0;
    ENSURE(rf_problem_set_contact(p, 0, &c, NULL) == RF_OK);
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.model = RF_MODEL_PYRAMID;
    g[0] = 42.0;
    ENSURE(rf_solve(p, &cfg, g, NULL, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "normal_max") != NULL);
    ENSURE(g[0] == 42.0); /* untouched */
    rf_problem_destroy(p);
    return 0;
}

int main(void)
{
    RUN_TEST(test_lemke);
    RUN_TEST(test_box_sticks);
    RUN_TEST(test_sliding);
    RUN_TEST(test_refused);
    return TEST_SUMMARY();
}
