/*
 * Problem generators shared by the tests: random bodies and contacts, and
 * problems with planted solutions.
 *
 * Planting: pick z, set gamma* = Proj_Y(z) and u_hat* =
 * gamma* - z.  By Moreau's decomposition gamma* in Y, u_hat* in Y* and
 * <gamma*, u_hat*> = 0, so gamma* solves the CCP whose velocity at gamma*
 * is u*: u* = u_hat* for the associated model, and for De Saxce u* has
 * the same tangential and angular parts and u*_n = u_hat*_n - (mu|u_t| +
 * rho|w_r| + sigma|w_n|).  Then q (or the contact bias) is set so that
 * W gamma* + q = u*.
 */
#ifndef ROLLFRIC_PROBLEM_GEN_H
#define ROLLFRIC_PROBLEM_GEN_H

#include "rollfric/rollfric.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* SI (the Bullet defaults' solver) for exactly `sweeps` sweeps: no
   tolerance, no residual (rf_config.residual 0, as the Bullet defaults). */
static inline void gen_si_config(rf_config *cfg, rf_model model, int sweeps)
{
    rf_config_default(cfg);
    cfg->solver = RF_SOLVER_SI;
    cfg->model = model;
    cfg->max_iter = sweeps;
    cfg->tol = 0.0;
    cfg->residual = 0;
}

static inline double gen_dot(const double *a, const double *b, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; ++i) {
        s += a[i] * b[i];
    }
    return s;
}

static inline void gen_unit(rf_rng *r, double v[3])
{
    double l;
    do {
        for (int k = 0; k < 3; ++k) {
            v[k] = rf_rng_range(r, -1.0, 1.0);
        }
        l = sqrt(gen_dot(v, v, 3));
    } while (l < 0.1 || l > 1.0);
    for (int k = 0; k < 3; ++k) {
        v[k] /= l;
    }
}

/* Random rotation matrix (row-major) from a random unit quaternion. */
static inline void gen_rotation(rf_rng *r, double R[9])
{
    double q[4], l;
    do {
        for (int k = 0; k < 4; ++k) {
            q[k] = rf_rng_range(r, -1.0, 1.0);
        }
        l = sqrt(gen_dot(q, q, 4));
    } while (l < 0.1 || l > 1.0);
    double w = q[0] / l, x = q[1] / l, y = q[2] / l, z = q[3] / l;
    double M[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),
                   2 * (x * z + w * y),     2 * (x * y + w * z),
                   1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                   2 * (x * z - w * y),     2 * (y * z + w * x),
                   1 - 2 * (x * x + y * y)};
    memcpy(R, M, sizeof M);
}

/* Random dynamic body: mass in [0.5, 2] kg, principal inertia in
   [0.05, 0.5] kg m^2 in a random orientation; velocities ~ 1. */
static inline void gen_body(rf_rng *r, rf_body_desc *b, double inertia[9])
{
    memset(b, 0, sizeof *b);
    b->flags = RF_BODY_DYNAMIC;
    b->inv_mass = 1.0 / rf_rng_range(r, 0.5, 2.0);
    double R[9], d[3];
    gen_rotation(r, R);
    for (int k = 0; k < 3; ++k) {
        d[k] = rf_rng_range(r, 0.05, 0.5);
    }
    /* J^-1 = R diag(1/d) R^T, J = R diag(d) R^T */
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            double si = 0.0, s = 0.0;
            for (int k = 0; k < 3; ++k) {
                si += R[3 * i + k] * R[3 * j + k] / d[k];
                s += R[3 * i + k] * R[3 * j + k] * d[k];
            }
            b->inv_inertia[3 * i + j] = si;
            if (inertia) {
                inertia[3 * i + j] = s;
            }
        }
    }
    /* exact symmetry */
    for (int i = 0; i < 3; ++i) {
        for (int j = i + 1; j < 3; ++j) {
            b->inv_inertia[3 * j + i] = b->inv_inertia[3 * i + j];
        }
    }
    for (int k = 0; k < 3; ++k) {
        b->v[k] = rf_rng_range(r, -1.0, 1.0);
        b->w[k] = rf_rng_range(r, -1.0, 1.0);
    }
}

/* Random contact between a and b: random frame, lever arms ~0.5 m,
   mu in [0.1, 1], rho, sigma in [0.01, 0.2] m (or zero with some odds). */
static inline void gen_contact(rf_rng *r, int a, int b, rf_contact_desc *c)
{
    memset(c, 0, sizeof *c);
    c->body_a = a;
    c->body_b = b;
    gen_unit(r, c->n);
    rf_contact_frame(c->n, c->t1, c->t2);
    for (int k = 0; k < 3; ++k) {
        c->r_a[k] = rf_rng_range(r, -0.5, 0.5);
        c->r_b[k] = rf_rng_range(r, -0.5, 0.5);
    }
    c->mu = rf_rng_range(r, 0.1, 1.0);
    c->rho = rf_rng_uniform(r) < 0.15 ? 0.0 : rf_rng_range(r, 0.01, 0.2);
    c->sigma = rf_rng_uniform(r) < 0.15 ? 0.0 : rf_rng_range(r, 0.01, 0.2);
}

/* Contact i of a random pile of nb bodies: body i / 3 against the world
   (every third) or against a random other body; gen_contact's frame,
   lever arms and coefficients. */
static inline void gen_pile_contact(rf_rng *r, int i, int nb,
                                    rf_contact_desc *c)
{
    const int a = i / 3;
    const int b = i % 3 == 0
                      ? RF_WORLD
                      : (a + 1 + (int)(rf_rng_uniform(r) * (nb - 1))) % nb;
    gen_contact(r, a, b, c);
}

/* Planted point of one contact in a chosen regime: 0 stick (interior),
   1 separate (gamma = 0), 2 anything (random z). */
static inline void gen_plant_z(rf_rng *r, int regime, double mu, double rho,
                               double sigma, double z[6])
{
    for (int k = 0; k < 6; ++k) {
        z[k] = rf_rng_range(r, -1.0, 1.0);
    }
    if (regime == 0) { /* strictly inside Y: z = gamma*, u_hat* = 0 */
        z[0] = rf_rng_range(r, 0.5, 1.5);
        double s[3] = {0.9 * mu * z[0], 0.9 * rho * z[0], 0.9 * sigma * z[0]};
        double t = sqrt(z[1] * z[1] + z[2] * z[2]) + 1e-300;
        z[1] *= s[0] * rf_rng_uniform(r) / t;
        z[2] *= s[0] * rf_rng_uniform(r) / t;
        t = sqrt(z[4] * z[4] + z[5] * z[5]) + 1e-300;
        z[4] *= s[1] * rf_rng_uniform(r) / t;
        z[5] *= s[1] * rf_rng_uniform(r) / t;
        z[3] = s[2] * rf_rng_range(r, -1.0, 1.0);
    } else if (regime == 1) { /* -z in the interior of Y*: gamma* = 0 */
        double need = mu * sqrt(z[1] * z[1] + z[2] * z[2]) +
                      rho * sqrt(z[4] * z[4] + z[5] * z[5]) +
                      sigma * fabs(z[3]);
        z[0] = -(need + rf_rng_range(r, 0.1, 1.0));
    }
}

/* u* from gamma* and z for a model (see the file comment). */
static inline void gen_planted_u(const double z[6], double mu, double rho,
                                 double sigma, int desaxce, double g[6],
                                 double u[6])
{
    rf_project_contact(z, mu, rho, sigma, g);
    for (int k = 0; k < 6; ++k) {
        u[k] = g[k] - z[k];
    }
    if (desaxce) {
        u[0] -= mu * sqrt(u[1] * u[1] + u[2] * u[2]) +
                rho * sqrt(u[4] * u[4] + u[5] * u[5]) + sigma * fabs(u[3]);
    }
}

/* Local-form planted problem with nc contacts: W = 0.5 A^T A / m + 0.5 I
   (eigenvalues in [0.5, ~2.5]).  Fills p and gstar (6 nc). */
static inline rf_status gen_local_planted(rf_rng *r, int nc, int desaxce,
                                          rf_problem *p, double *gstar)
{
    const int m = 6 * nc;
    double *A = malloc(sizeof(double) * m * m);
    double *W = malloc(sizeof(double) * m * m);
    double *q = malloc(sizeof(double) * m);
    double *mu = malloc(sizeof(double) * nc),
           *rho = malloc(sizeof(double) * nc),
           *sigma = malloc(sizeof(double) * nc);
    for (int k = 0; k < m * m; ++k) {
        A[k] = rf_rng_range(r, -1.0, 1.0);
    }
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j <= i; ++j) {
            double s = 0.0;
            for (int k = 0; k < m; ++k) {
                s += A[k * m + i] * A[k * m + j];
            }
            W[i * m + j] = W[j * m + i] = 0.5 * s / m + (i == j ? 0.5 : 0.0);
        }
    }
    for (int i = 0; i < nc; ++i) {
        mu[i] = rf_rng_range(r, 0.1, 1.0);
        rho[i] = rf_rng_uniform(r) < 0.15 ? 0.0 : rf_rng_range(r, 0.05, 0.5);
        sigma[i] = rf_rng_uniform(r) < 0.15 ? 0.0 : rf_rng_range(r, 0.05, 0.5);
        double z[6];
        gen_plant_z(r, i % 3, mu[i], rho[i], sigma[i], z);
        gen_planted_u(z, mu[i], rho[i], sigma[i], desaxce, gstar + 6 * i,
                      q + 6 * i);
    }
    /* q = u* - W gamma* */
    for (int i = 0; i < m; ++i) {
        q[i] -= gen_dot(W + (size_t)i * m, gstar, m);
    }
    rf_error err;
    rf_status st =
        rf_problem_set_local_dense(p, nc, W, q, mu, rho, sigma, &err);
    free(A);
    free(W);
    free(q);
    free(mu);
    free(rho);
    free(sigma);
    return st;
}

/* Body-form planted problem: a chain of nb dynamic bodies, contact 0
   between body 0 and the world and contact i between bodies i-1 and i
   (nc = nb, so D is square and generically invertible: N is SPD and the
   solution unique).  The contact biases carry the planted velocity. */
static inline rf_status gen_body_planted(rf_rng *r, int nb, int desaxce,
                                         rf_problem *p, double *gstar)
{
    rf_error err;
    rf_status st = rf_problem_begin_bodies(p, nb, nb, &err);
    rf_contact_desc *cs = malloc(sizeof(rf_contact_desc) * nb);
    double *u0 = malloc(sizeof(double) * 6 * nb);
    double *ustar = malloc(sizeof(double) * 6 * nb);
    for (int b = 0; st == RF_OK && b < nb; ++b) {
        rf_body_desc bd;
        gen_body(r, &bd, NULL);
        st = rf_problem_set_body(p, b, &bd, &err);
    }
    for (int i = 0; st == RF_OK && i < nb; ++i) {
        gen_contact(r, i, i == 0 ? RF_WORLD : i - 1, &cs[i]);
        st = rf_problem_set_contact(p, i, &cs[i], &err);
        double z[6];
        gen_plant_z(r, i % 3, cs[i].mu, cs[i].rho, cs[i].sigma, z);
        gen_planted_u(z, cs[i].mu, cs[i].rho, cs[i].sigma, desaxce,
                      gstar + 6 * i, ustar + 6 * i);
    }
    /* u0 = N gamma* + D^T v* with zero bias; bias = u* - u0. */
    if (st == RF_OK) {
        st = rf_problem_local_velocity(p, gstar, u0, &err);
    }
    for (int i = 0; st == RF_OK && i < nb; ++i) {
        for (int k = 0; k < 6; ++k) {
            cs[i].bias[k] = ustar[6 * i + k] - u0[6 * i + k];
        }
        st = rf_problem_set_contact(p, i, &cs[i], &err);
    }
    free(cs);
    free(u0);
    free(ustar);
    return st;
}

#endif /* ROLLFRIC_PROBLEM_GEN_H */
