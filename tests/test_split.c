/*
 * Split impulse (rf_solve_split): penetration recovery
 * on pseudo-velocities, a frictionless normal problem of the deep contacts
 * (bias < 0) at zero free velocity.  Checked against what the header
 * promises, from the outputs alone:
 *   - a two-body stack on the ground, one contact each at the centre of
 *     mass: the exact pseudo-velocities v1 = -b1, v2 = -b1 - b2 and
 *     impulses lambda2 = m2 v2, lambda1 = m1 v1 + lambda2 (u = 0 at both
 *     contacts), to 1e-12;
 *   - random bodies (rotated inertia, one fixed) and contacts: the
 *     velocities are M^-1 D_n lambda of the impulses returned (1e-12), a
 *     contact with bias >= 0 gets no impulse, a fixed body no velocity, and
 *     at convergence the Moreau conditions hold for the deep contacts,
 *     lambda >= 0, u + c lambda >= 0, lambda (u + c lambda) = 0, with u
 *     recomputed here from the pseudo-velocities (DESIGN section 1's
 *     relative velocity), compliance included; stats count the deep
 *     contacts and report the residual.
 */
#include "problem_gen.h"

#include <math.h>
#include <stdio.h>

enum { NB = 8, NC = 24 };

/* u = n . ((v_a + w_a x r_a) - (v_b + w_b x r_b)) + bias */
static double normal_velocity(const rf_contact_desc *c, const double *v,
                              const double *w, double bias)
{
    double u = bias;
    for (int s = 0; s < 2; ++s) {
        const int b = s == 0 ? c->body_a : c->body_b;
        if (b == RF_WORLD) {
            continue;
        }
        const double *r = s == 0 ? c->r_a : c->r_b;
        const double *vb = v + 3 * b, *wb = w + 3 * b;
        double wr[3];
        wr[0] = wb[1] * r[2] - wb[2] * r[1];
        wr[1] = wb[2] * r[0] - wb[0] * r[2];
        wr[2] = wb[0] * r[1] - wb[1] * r[0];
        const double sg = s == 0 ? 1.0 : -1.0;
        for (int k = 0; k < 3; ++k) {
            u += sg * c->n[k] * (vb[k] + wr[k]);
        }
    }
    return u;
}

static void up_contact(int a, int b, double ra_y, double rb_y,
                       rf_contact_desc *c)
{
    memset(c, 0, sizeof *c);
    c->body_a = a;
    c->body_b = b;
    const double n[3] = {0, 1, 0}, t1[3] = {0, 0, 1}, t2[3] = {1, 0, 0};
    memcpy(c->n, n, sizeof n);
    memcpy(c->t1, t1, sizeof t1);
    memcpy(c->t2, t2, sizeof t2);
    c->r_a[1] = ra_y;
    c->r_b[1] = rb_y;
    c->mu = 0.5;
}

/* Body 0 (2 kg) on the ground, body 1 (0.5 kg) on body 0, each contact
   below its body's centre (arms along the normal: no turning).  The
   exact solution makes both contacts' u zero: pushed apart by exactly
   their biases. */
static int test_stack_exact(void)
{
    rf_problem *p = NULL;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(rf_problem_begin_bodies(p, 2, 3, NULL) == RF_OK);
    const double mass[2] = {2.0, 0.5};
    for (int b = 0; b < 2; ++b) {
        rf_body_desc bd;
        memset(&bd, 0, sizeof bd);
        bd.flags = RF_BODY_DYNAMIC;
        bd.inv_mass = 1.0 / mass[b];
        bd.inv_inertia[0] = bd.inv_inertia[4] = bd.inv_inertia[8] = 3.0;
        ENSURE(rf_problem_set_body(p, b, &bd, NULL) == RF_OK);
    }
    rf_contact_desc c[3];
    up_contact(0, RF_WORLD, -0.5, 0.0, &c[0]);
    up_contact(1, 0, -0.25, 0.5, &c[1]);
    up_contact(1, RF_WORLD, -0.25, 0.0, &c[2]); /* touching, not deep */
    for (int i = 0; i < 3; ++i) {
        ENSURE(rf_problem_set_contact(p, i, &c[i], NULL) == RF_OK);
    }
    const double b1 = -0.03, b2 = -0.05;
    const double bias[3] = {b1, b2, 0.0};
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.max_iter = 200;
    cfg.tol = 0.0;
    double gamma[3] = {-1, -1, -1}, v[6], w[6];
    rf_stats st;
    ENSURE(rf_solve_split(p, &cfg, bias, gamma, v, w, &st, NULL) == RF_OK);
    const double v1 = -b1, v2 = -b1 - b2;
    const double l2 = mass[1] * v2, l1 = mass[0] * v1 + l2;
    printf("  stack: v %.15g %.15g (exact %.15g %.15g), lambda %.15g "
           "%.15g (exact %.15g %.15g), residual %.3g\n",
           v[1], v[4], v1, v2, gamma[0], gamma[1], l1, l2, st.residual);
    ENSURE_SMALL(v[1] - v1, 1e-12);
    ENSURE_SMALL(v[4] - v2, 1e-12);
    ENSURE_SMALL(gamma[0] - l1, 1e-12);
    ENSURE_SMALL(gamma[1] - l2, 1e-12);
    ENSURE(gamma[2] == 0.0); /* bias >= 0: takes no part */
    for (int k = 0; k < 6; ++k) {
        ENSURE_SMALL(w[k], 1e-14);
        if (k != 1 && k != 4) {
            ENSURE_SMALL(v[k], 1e-14);
        }
    }
    ENSURE(st.contacts == 2);
    ENSURE(st.converged == 0); /* tol 0: every sweep runs */
    ENSURE(st.iterations == 200);
    ENSURE_LE(st.residual, 1e-12);
    rf_problem_destroy(p);
    return 0;
}

/* Random bodies (body NB-1 fixed) and contacts, biases in [-0.1, 0.05],
   compliance on a third of the contacts. */
static int test_random_moreau(void)
{
    rf_rng r = {20261128u};
    rf_problem *p = NULL;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(rf_problem_begin_bodies(p, NB, NC, NULL) == RF_OK);
    rf_body_desc body[NB];
    for (int b = 0; b < NB; ++b) {
        gen_body(&r, &body[b], NULL);
        if (b == NB - 1) {
            body[b].flags = RF_BODY_FIXED;
        }
        ENSURE(rf_problem_set_body(p, b, &body[b], NULL) == RF_OK);
    }
    rf_contact_desc con[NC];
    double bias[NC], comp[6 * NC];
    memset(comp, 0, sizeof comp);
    for (int i = 0; i < NC; ++i) {
        const int a = i % (NB - 1);
        int b = i % 5 == 0 ? RF_WORLD : (a + 1 + i) % NB;
        if (b == a) {
            b = RF_WORLD;
        }
        gen_contact(&r, a, b, &con[i]);
        bias[i] = rf_rng_range(&r, -0.1, 0.05);
        if (i % 3 == 0) {
            comp[6 * i] = rf_rng_range(&r, 0.0, 0.5);
        }
        ENSURE(rf_problem_set_contact(p, i, &con[i], NULL) == RF_OK);
    }
    ENSURE(rf_problem_add_compliance(p, comp, NULL) == RF_OK);
    int deep = 0;
    for (int i = 0; i < NC; ++i) {
        deep += bias[i] < 0.0;
    }
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.max_iter = 20000;
    cfg.tol = 1e-14;
    double gamma[NC], v[3 * NB], w[3 * NB];
    rf_stats st;
    ENSURE(rf_solve_split(p, &cfg, bias, gamma, v, w, &st, NULL) == RF_OK);
    printf("  random: %d deep of %d, %d sweeps, converged %d, residual "
           "%.3g\n",
           st.contacts, NC, st.iterations, st.converged, st.residual);
    ENSURE(st.contacts == deep);
    ENSURE(st.converged == 1);
    ENSURE_LE(st.residual, 1e-10);
    /* the velocities are M^-1 D_n lambda of the impulses returned */
    double P[3 * NB], L[3 * NB];
    memset(P, 0, sizeof P);
    memset(L, 0, sizeof L);
    for (int i = 0; i < NC; ++i) {
        for (int s = 0; s < 2; ++s) {
            const int b = s == 0 ? con[i].body_a : con[i].body_b;
            if (b == RF_WORLD) {
                continue;
            }
            const double *rr = s == 0 ? con[i].r_a : con[i].r_b;
            const double sg = s == 0 ? 1.0 : -1.0, *n = con[i].n;
            const double f[3] = {sg * gamma[i] * n[0], sg * gamma[i] * n[1],
                                 sg * gamma[i] * n[2]};
            P[3 * b] += f[0];
            P[3 * b + 1] += f[1];
            P[3 * b + 2] += f[2];
            L[3 * b] += rr[1] * f[2] - rr[2] * f[1];
            L[3 * b + 1] += rr[2] * f[0] - rr[0] * f[2];
            L[3 * b + 2] += rr[0] * f[1] - rr[1] * f[0];
        }
    }
    for (int b = 0; b < NB; ++b) {
        const int fixed = body[b].flags == RF_BODY_FIXED;
        for (int k = 0; k < 3; ++k) {
            double dw = 0.0;
            for (int c = 0; c < 3; ++c) {
                dw += body[b].inv_inertia[3 * k + c] * L[3 * b + c];
            }
            const double vk = fixed ? 0.0 : body[b].inv_mass * P[3 * b + k];
            ENSURE_SMALL(v[3 * b + k] - vk, 1e-12);
            ENSURE_SMALL(w[3 * b + k] - (fixed ? 0.0 : dw), 1e-12);
        }
    }
    /* Moreau conditions of the deep contacts; the others get nothing */
    double worst = 0.0;
    for (int i = 0; i < NC; ++i) {
        if (bias[i] >= 0.0) {
            ENSURE(gamma[i] == 0.0);
            continue;
        }
        const double u =
            normal_velocity(&con[i], v, w, bias[i]) + comp[6 * i] * gamma[i];
        ENSURE(gamma[i] >= 0.0);
        ENSURE(u >= -1e-10);
        const double c = fabs(gamma[i] * u);
        worst = c > worst ? c : worst;
    }
    printf("  random: largest |lambda u| %.3g\n", worst);
    ENSURE_LE(worst, 1e-10);
    rf_problem_destroy(p);
    return 0;
}

int main(void)
{
    RUN_TEST(test_stack_exact);
    RUN_TEST(test_random_moreau);
    return TEST_SUMMARY();
}
