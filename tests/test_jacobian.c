/*
 * Contact Jacobian tests (DESIGN §1): the assembled D blocks reproduce the
 * 6D relative velocity computed directly from body velocities, impulses
 * act on the bodies as forces and torques at the contact point, N =
 * D^T M^-1 D is symmetric and matches the matrix-free product, and bad
 * body-form input is rejected.
 */
#include "problem_gen.h"

#include <stdio.h>

#define NB 6
#define NC 10

typedef struct scene {
    rf_body_desc body[NB];
    double inertia[NB][9];
    rf_contact_desc con[NC];
} scene;

/* Bodies 0..NB-2 dynamic, NB-1 fixed but moving (kinematic); contacts
   between random pairs and with the world. */
static int build_scene(rf_rng *r, scene *s, rf_problem *p)
{
    ENSURE(rf_problem_begin_bodies(p, NB, NC, NULL) == RF_OK);
    for (int b = 0; b < NB; ++b) {
        gen_body(r, &s->body[b], s->inertia[b]);
        if (b == NB - 1) {
            s->body[b].flags = RF_BODY_FIXED;
        }
        if (b == 1) {
            /* per-axis inverse mass, one axis locked (Bullet's linear
               factor (1, 0.5, 0)) */
            s->body[b].flags = RF_BODY_DYNAMIC | RF_BODY_AXIS_MASS;
            s->body[b].inv_mass_axis[0] = s->body[b].inv_mass;
            s->body[b].inv_mass_axis[1] = 0.5 * s->body[b].inv_mass;
            s->body[b].inv_mass_axis[2] = 0.0;
            s->body[b].inv_mass = NAN; /* must not be read */
        }
        ENSURE(rf_problem_set_body(p, b, &s->body[b], NULL) == RF_OK);
    }
    for (int i = 0; i < NC; ++i) {
        int a = i % (NB - 1);
        int b = (i % 4 == 0) ? RF_WORLD : (a + 1 + i) % NB;
        if (b == a) {
            b = RF_WORLD;
        }
        gen_contact(r, a, b, &s->con[i]);
        for (int k = 0; k < 6; ++k) {
            s->con[i].bias[k] = rf_rng_range(r, -0.1, 0.1);
        }
        ENSURE(rf_problem_set_contact(p, i, &s->con[i], NULL) == RF_OK);
    }
    return 0;
}

/* Inverse mass of body bd along world axis k. */
static double body_im(const rf_body_desc *bd, int k)
{
    return (bd->flags & RF_BODY_AXIS_MASS) ? bd->inv_mass_axis[k]
                                           : bd->inv_mass;
}

static void body_state(const scene *s, int b, double v[3], double w[3])
{
    for (int k = 0; k < 3; ++k) {
        v[k] = b == RF_WORLD ? 0.0 : s->body[b].v[k];
        w[k] = b == RF_WORLD ? 0.0 : s->body[b].w[k];
    }
}

/* DESIGN §1: v_rel = (v_A + w_A x r_A) - (v_B + w_B x r_B), w_rel = w_A -
   w_B, u = (n.v_rel, t1.v_rel, t2.v_rel, n.w_rel, t1.w_rel, t2.w_rel) +
   bias. */
static void direct_velocity(const scene *s, const rf_contact_desc *c,
                            double u[6])
{
    double va[3], wa[3], vb[3], wb[3], xa[3], xb[3], vr[3], wr[3];
    body_state(s, c->body_a, va, wa);
    body_state(s, c->body_b, vb, wb);
    xa[0] = wa[1] * c->r_a[2] - wa[2] * c->r_a[1];
    xa[1] = wa[2] * c->r_a[0] - wa[0] * c->r_a[2];
    xa[2] = wa[0] * c->r_a[1] - wa[1] * c->r_a[0];
    xb[0] = wb[1] * c->r_b[2] - wb[2] * c->r_b[1];
    xb[1] = wb[2] * c->r_b[0] - wb[0] * c->r_b[2];
    xb[2] = wb[0] * c->r_b[1] - wb[1] * c->r_b[0];
    for (int k = 0; k < 3; ++k) {
        vr[k] = va[k] + xa[k] - vb[k] - xb[k];
        wr[k] = wa[k] - wb[k];
    }
    const double *e[3] = {c->n, c->t1, c->t2};
    for (int k = 0; k < 3; ++k) {
        u[k] = gen_dot(e[k], vr, 3) + c->bias[k];
        u[3 + k] = gen_dot(e[k], wr, 3) + c->bias[3 + k];
    }
}

static int test_velocity_matches_direct(void)
{
    rf_rng r = {1};
    for (int trial = 0; trial < 50; ++trial) {
        scene s;
        rf_problem *p;
        ENSURE(rf_problem_create(&p, NULL) == RF_OK);
        if (build_scene(&r, &s, p)) {
            return 1;
        }
        double zero[6 * NC] = {0}, u[6 * NC];
        ENSURE(rf_problem_local_velocity(p, zero, u, NULL) == RF_OK);
        for (int i = 0; i < NC; ++i) {
            double ud[6];
            direct_velocity(&s, &s.con[i], ud);
            for (int k = 0; k < 6; ++k) {
                ENSURE_SMALL(u[6 * i + k] - ud[k], 1e-12 * (1.0 + fabs(ud[k])));
            }
        }
        rf_problem_destroy(p);
    }
    return 0;
}

/* gamma_i applies to A the force F = gn n + gu t1 + gw t2 at the contact
   point (torque r_A x F) plus the torque tn n + tu t1 + tw t2; B gets the
   opposite.  Then v+ = v + F / m and w+ = w + J^-1 T per body. */
static int test_impulses_match_direct(void)
{
    rf_rng r = {2};
    for (int trial = 0; trial < 50; ++trial) {
        scene s;
        rf_problem *p;
        ENSURE(rf_problem_create(&p, NULL) == RF_OK);
        if (build_scene(&r, &s, p)) {
            return 1;
        }
        double g[6 * NC], P[NB][3] = {{0}}, L[NB][3] = {{0}};
        for (int k = 0; k < 6 * NC; ++k) {
            g[k] = rf_rng_range(&r, -1.0, 1.0);
        }
        for (int i = 0; i < NC; ++i) {
            const rf_contact_desc *c = &s.con[i];
            const double *gi = g + 6 * i;
            double F[3], T[3], rxF[3];
            for (int k = 0; k < 3; ++k) {
                F[k] = gi[0] * c->n[k] + gi[1] * c->t1[k] + gi[2] * c->t2[k];
                T[k] = gi[3] * c->n[k] + gi[4] * c->t1[k] + gi[5] * c->t2[k];
            }
            const int bodies[2] = {c->body_a, c->body_b};
            const double *arms[2] = {c->r_a, c->r_b};
            for (int side = 0; side < 2; ++side) {
                int b = bodies[side];
                if (b == RF_WORLD) {
                    continue;
                }
                double sg = side == 0 ? 1.0 : -1.0;
                const double *ra = arms[side];
                rxF[0] = ra[1] * F[2] - ra[2] * F[1];
                rxF[1] = ra[2] * F[0] - ra[0] * F[2];
                rxF[2] = ra[0] * F[1] - ra[1] * F[0];
                for (int k = 0; k < 3; ++k) {
                    P[b][k] += sg * F[k];
                    L[b][k] += sg * (rxF[k] + T[k]);
                }
            }
        }
        double v[3 * NB], w[3 * NB];
        ENSURE(rf_problem_body_velocity(p, g, v, w, NULL) == RF_OK);
        for (int b = 0; b < NB; ++b) {
            const rf_body_desc *bd = &s.body[b];
            int fixed = bd->flags == RF_BODY_FIXED;
            for (int k = 0; k < 3; ++k) {
                double dv = fixed ? 0.0 : body_im(bd, k) * P[b][k];
                double dw =
                    fixed ? 0.0 : gen_dot(bd->inv_inertia + 3 * k, L[b], 3);
                ENSURE_SMALL(v[3 * b + k] - (bd->v[k] + dv), 1e-12);
                ENSURE_SMALL(w[3 * b + k] - (bd->w[k] + dw), 1e-12);
            }
        }
        rf_problem_destroy(p);
    }
    return 0;
}

/* W from rf_problem_to_local equals the matrix-free N (W g + q = u(g)),
   is symmetric, and g^T N g = sum_b dp_b^T M_b^-1 dp_b, the kinetic
   energy identity (adjointness of D and D^T). */
static int test_assembled_W(void)
{
    rf_rng r = {3};
    for (int trial = 0; trial < 20; ++trial) {
        scene s;
        rf_problem *p, *l;
        ENSURE(rf_problem_create(&p, NULL) == RF_OK);
        ENSURE(rf_problem_create(&l, NULL) == RF_OK);
        if (build_scene(&r, &s, p)) {
            return 1;
        }
        ENSURE(rf_problem_to_local(p, l, NULL) == RF_OK);
        double g[6 * NC], ub[6 * NC], ul[6 * NC], u0[6 * NC],
            zero[6 * NC] = {0};
        for (int k = 0; k < 6 * NC; ++k) {
            g[k] = rf_rng_range(&r, -1.0, 1.0);
        }
        ENSURE(rf_problem_local_velocity(p, g, ub, NULL) == RF_OK);
        ENSURE(rf_problem_local_velocity(l, g, ul, NULL) == RF_OK);
        ENSURE(rf_problem_local_velocity(p, zero, u0, NULL) == RF_OK);
        for (int k = 0; k < 6 * NC; ++k) {
            ENSURE_SMALL(ub[k] - ul[k], 1e-12 * (1.0 + fabs(ub[k])));
        }
        /* g^T N g from u(g) - u(0) vs the kinetic energy of the impulse */
        double gNg = 0.0;
        for (int k = 0; k < 6 * NC; ++k) {
            gNg += g[k] * (ub[k] - u0[k]);
        }
        double v[3 * NB], w[3 * NB], ke2 = 0.0;
        ENSURE(rf_problem_body_velocity(p, g, v, w, NULL) == RF_OK);
        for (int b = 0; b < NB; ++b) {
            const rf_body_desc *bd = &s.body[b];
            if (bd->flags == RF_BODY_FIXED) {
                continue;
            }
            double dv[3], dw[3], Jdw[3];
            for (int k = 0; k < 3; ++k) {
                dv[k] = v[3 * b + k] - bd->v[k];
                dw[k] = w[3 * b + k] - bd->w[k];
            }
            for (int k = 0; k < 3; ++k) {
                Jdw[k] = gen_dot(s.inertia[b] + 3 * k, dw, 3);
            }
            for (int k = 0; k < 3; ++k) {
                /* a locked axis (inverse mass 0) must not move at all */
                if (body_im(bd, k) == 0.0) {
                    ENSURE(dv[k] == 0.0);
                } else {
                    ke2 += dv[k] * dv[k] / body_im(bd, k);
                }
            }
            ke2 += gen_dot(dw, Jdw, 3);
        }
        ENSURE_SMALL(gNg - ke2, 1e-10 * (1.0 + ke2));
        ENSURE(gNg >= 0.0);
        rf_problem_destroy(p);
        rf_problem_destroy(l);
    }
    return 0;
}

static int test_bad_body_input(void)
{
    rf_problem *p;
    rf_error err;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(rf_problem_begin_bodies(NULL, 1, 1, &err) == RF_ERR_NULL);
    ENSURE(rf_problem_begin_bodies(p, -1, 1, &err) == RF_ERR_INVALID);
    ENSURE(rf_problem_begin_bodies(p, 2, 2, &err) == RF_OK);
    rf_rng r = {4};
    rf_body_desc b;
    gen_body(&r, &b, NULL);
    ENSURE(rf_problem_set_body(p, 2, &b, &err) == RF_ERR_RANGE);
    ENSURE(strstr(err.message, "body 2") != NULL);
    ENSURE(rf_problem_set_body(p, 0, NULL, &err) == RF_ERR_NULL);
    rf_body_desc bad = b;
    bad.inv_mass = -1.0;
    ENSURE(rf_problem_set_body(p, 0, &bad, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "negative inverse mass") != NULL);
    bad = b;
    bad.flags = RF_BODY_DYNAMIC | RF_BODY_AXIS_MASS;
    bad.inv_mass_axis[0] = bad.inv_mass_axis[1] = 1.0;
    bad.inv_mass_axis[2] = -0.5;
    ENSURE(rf_problem_set_body(p, 0, &bad, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "inv_mass_axis") != NULL);
    bad.flags = RF_BODY_FIXED | RF_BODY_AXIS_MASS;
    ENSURE(rf_problem_set_body(p, 0, &bad, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "unknown flags") != NULL);
    bad = b;
    bad.v[1] = NAN;
    ENSURE(rf_problem_set_body(p, 0, &bad, &err) == RF_ERR_NONFINITE);
    bad = b;
    bad.inv_inertia[1] += 1.0;
    ENSURE(rf_problem_set_body(p, 0, &bad, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "symmetric") != NULL);
    ENSURE(rf_problem_set_body(p, 0, &b, &err) == RF_OK);
    ENSURE(rf_problem_set_body(p, 1, &b, &err) == RF_OK);

    rf_contact_desc c;
    gen_contact(&r, 0, 1, &c);
    rf_contact_desc bc = c;
    bc.body_b = 5;
    ENSURE(rf_problem_set_contact(p, 0, &bc, &err) == RF_ERR_RANGE);
    ENSURE(strstr(err.message, "body_b = 5") != NULL);
    bc = c;
    bc.body_b = 0;
    ENSURE(rf_problem_set_contact(p, 0, &bc, &err) == RF_ERR_INVALID);
    bc = c;
    bc.rho = -0.1;
    ENSURE(rf_problem_set_contact(p, 0, &bc, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "rho") != NULL);
    bc = c;
    bc.n[0] += 0.01; /* no longer unit */
    ENSURE(rf_problem_set_contact(p, 0, &bc, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "orthonormal") != NULL);
    bc = c;
    bc.r_a[2] = INFINITY;
    ENSURE(rf_problem_set_contact(p, 0, &bc, &err) == RF_ERR_NONFINITE);
    ENSURE(rf_problem_set_contact(p, 7, &c, &err) == RF_ERR_RANGE);
    ENSURE(rf_problem_set_contact(p, 0, &c, &err) == RF_OK);
    ENSURE(rf_problem_set_contact(p, 1, &c, &err) == RF_OK);

    /* two fixed bodies in one contact: rejected at solve time */
    b.flags = RF_BODY_FIXED;
    ENSURE(rf_problem_set_body(p, 0, &b, &err) == RF_OK);
    ENSURE(rf_problem_set_body(p, 1, &b, &err) == RF_OK);
    double g[12] = {0};
    ENSURE(rf_solve(p, NULL, g, NULL, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "two fixed bodies") != NULL);

    /* body-form calls on a local problem */
    rf_problem *l;
    ENSURE(rf_problem_create(&l, NULL) == RF_OK);
    double gstar[6];
    ENSURE(gen_local_planted(&r, 1, 0, l, gstar) == RF_OK);
    ENSURE(rf_problem_set_body(l, 0, &b, &err) == RF_ERR_STATE);
    double v[3], w[3];
    ENSURE(rf_problem_body_velocity(l, gstar, v, w, &err) == RF_ERR_STATE);
    ENSURE(rf_problem_to_local(l, p, &err) == RF_ERR_STATE);
    rf_problem_destroy(l);
    rf_problem_destroy(p);
    rf_problem_destroy(NULL); /* accepted */
    return 0;
}

/* Bad local-form input: asymmetric W, NaN, negative coefficient, bad CSR;
   the problem keeps its previous content. */
static int test_bad_local_input(void)
{
    rf_problem *p;
    rf_error err;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    double W[36] = {0}, q[6] = {1, 0, 0, 0, 0, 0};
    for (int k = 0; k < 6; ++k) {
        W[7 * k] = 1.0;
    }
    double mu = 0.5, rho = 0.1, sigma = 0.1, neg = -0.5;
    ENSURE(rf_problem_set_local_dense(p, 1, W, q, &mu, &rho, &sigma, &err) ==
           RF_OK);
    W[1] = 0.5; /* asymmetric */
    ENSURE(rf_problem_set_local_dense(p, 1, W, q, &mu, &rho, &sigma, &err) ==
           RF_ERR_INVALID);
    ENSURE(strstr(err.message, "symmetric") != NULL);
    W[1] = 0.0;
    W[8] = NAN;
    ENSURE(rf_problem_set_local_dense(p, 1, W, q, &mu, &rho, &sigma, &err) ==
           RF_ERR_NONFINITE);
    W[8] = 1.0;
    ENSURE(rf_problem_set_local_dense(p, 1, W, q, &neg, &rho, &sigma, &err) ==
           RF_ERR_INVALID);
    ENSURE(strstr(err.message, "mu[0]") != NULL);
    ENSURE(rf_problem_set_local_dense(p, 1, NULL, q, &mu, &rho, &sigma, &err) ==
           RF_ERR_NULL);
    int rp[7] = {0, 1, 2, 3, 4, 5, 6}, col[6] = {0, 1, 2, 3, 4, 9};
    double val[6] = {1, 1, 1, 1, 1, 1};
    ENSURE(rf_problem_set_local_csr(p, 1, rp, col, val, q, &mu, &rho, &sigma,
                                    &err) == RF_ERR_RANGE);
    col[5] = 4; /* duplicate column in row 5? no: row 5 has col 4 only */
    rp[6] = 6;
    int rp_bad[7] = {0, 2, 1, 3, 4, 5, 6};
    ENSURE(rf_problem_set_local_csr(p, 1, rp_bad, col, val, q, &mu, &rho,
                                    &sigma, &err) == RF_ERR_INVALID);
    /* still the first problem: u(0) = q */
    double zero[6] = {0}, u[6];
    ENSURE(rf_problem_local_velocity(p, zero, u, NULL) == RF_OK);
    ENSURE(u[0] == 1.0 && u[1] == 0.0);
    ENSURE(rf_problem_num_contacts(p) == 1);
    rf_problem_destroy(p);
    return 0;
}

/* Evaluation functions on bad input: error code, message, and the output
   arrays left exactly as they were. */
static int test_eval_bad_input(void)
{
    rf_rng r = {5};
    scene s;
    rf_problem *p;
    rf_error err;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    if (build_scene(&r, &s, p)) {
        return 1;
    }
    double g[6 * NC] = {0}, u[6 * NC], v[3 * NB], w[3 * NB], res = -3.0;
    for (int k = 0; k < 6 * NC; ++k) {
        u[k] = 42.0;
    }
    for (int k = 0; k < 3 * NB; ++k) {
        v[k] = w[k] = 42.0;
    }
    g[7] = NAN;
    ENSURE(rf_problem_local_velocity(p, g, u, &err) == RF_ERR_NONFINITE);
    ENSURE(strstr(err.message, "gamma") != NULL);
    ENSURE(rf_problem_body_velocity(p, g, v, w, &err) == RF_ERR_NONFINITE);
    ENSURE(rf_residual(p, RF_MODEL_ASSOCIATED, g, &res, &err) ==
           RF_ERR_NONFINITE);
    g[7] = 0.0;
    ENSURE(rf_residual(p, (rf_model)9, g, &res, &err) == RF_ERR_INVALID);
    ENSURE(rf_problem_local_velocity(p, NULL, u, &err) == RF_ERR_NULL);
    ENSURE(rf_problem_local_velocity(p, g, NULL, &err) == RF_ERR_NULL);
    ENSURE(rf_problem_body_velocity(p, g, v, NULL, &err) == RF_ERR_NULL);
    for (int k = 0; k < 6 * NC; ++k) {
        ENSURE(u[k] == 42.0);
    }
    for (int k = 0; k < 3 * NB; ++k) {
        ENSURE(v[k] == 42.0 && w[k] == 42.0);
    }
    ENSURE(res == -3.0);
    /* an incomplete problem: contact 1 never set */
    ENSURE(rf_problem_begin_bodies(p, NB, NC, NULL) == RF_OK);
    ENSURE(rf_problem_set_contact(p, 0, &s.con[0], NULL) == RF_OK);
    ENSURE(rf_problem_local_velocity(p, g, u, &err) == RF_ERR_STATE);
    ENSURE(strstr(err.message, "contact 1") != NULL);
    ENSURE(u[0] == 42.0);
    rf_problem_destroy(p);
    return 0;
}

int main(void)
{
    RUN_TEST(test_velocity_matches_direct);
    RUN_TEST(test_impulses_match_direct);
    RUN_TEST(test_assembled_W);
    RUN_TEST(test_bad_body_input);
    RUN_TEST(test_bad_local_input);
    RUN_TEST(test_eval_bad_input);
    return TEST_SUMMARY();
}
