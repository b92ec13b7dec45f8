/*
 * Fuzz target: a small body-form problem (1 to 4 bodies, up to 7 contacts,
 * up to 3 scalar rows) built from the bytes through the public setters,
 * then every solver for a few iterations.
 *
 * Two regimes, chosen by the first byte:
 *   - tame: every number is finite and moderate (fuzz_moderate), indices
 *     are valid and frames orthonormal, so every setter must accept its
 *     input and every solve of a complete problem must succeed.  With
 *     positive semi-definite inverse inertias (all but one shape the bytes
 *     may pick), the full oracle: gamma finite; every contact's 6-vector
 *     in its cone (the segment |tu| <= rho gn, tw = 0 for
 *     RF_CONTACT_ROLL_T1); every plain row's impulse within [lo, hi];
 *     stats that fit the problem; the reported residual equal to
 *     rf_residual's within a rounding bound; the local and body
 *     velocities finite; without rows, the assembled local form
 *     (rf_problem_to_local) gives the local velocities of the
 *     matrix-free body form to rounding (abs_velocity_bound);
 *   - wild: numbers of any shape (NaN, infinities, negative, huge),
 *     out-of-range indices, arbitrary flags and frames, symmetric but
 *     indefinite inertias.  Oracle: every call returns a documented
 *     status and nothing crashes (the sanitizers watch memory and
 *     undefined behaviour); a solve that succeeds still returns the
 *     contacts whose gamma is finite in their cones, and plain rows
 *     within their intervals.
 * Any violation traps (__builtin_trap).
 *
 * Bytes left over after those four solves drive a second round on the
 * same problem (old inputs keep their first round unchanged): each
 * contact is set again, now perhaps with a cohesion, a compliance per
 * component and a yield cap (normal_max), tame inputs first trying an
 * invalid value of one of them (negative, NaN, infinite: refused with the
 * documented status); then four more solves whose models may be De Saxce
 * or the pyramid LCP (RF_MODEL_PYRAMID, at most once per input: Lemke's
 * method ignores the solver) and whose rf_config.local_mdp may be set.
 * The oracle then also asserts what rollfric.h promises for those:
 * gamma + cohesion e_n in Y (so gamma_n >= -cohesion), gamma_n <=
 * normal_max, the pyramid's box |c_k| <= kappa_k c_n, the pyramid model
 * refused with rows or a yield cap, RF_ERR_LCP leaving gamma untouched,
 * and rf_residual equal to Siconos' formula of the shifted problem
 * evaluated here from rf_problem_local_velocity's u (which includes the
 * compliance).
 */
#include "internal.h"

#include "fuzz_util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_BODY 4
#define MAX_CON 7
#define MAX_ROW 3

typedef struct gen {
    fuzz_bytes b;
    int wild;
} gen;

/* n doubles (one more, so that n = 0 gives an array too); an allocation
   failure stops the run (the oracle cannot go on without the array). */
static double *doubles(size_t n)
{
    double *x = malloc((n + 1) * sizeof(double));
    FUZZ_CHECK(x != NULL);
    return x;
}

/* A number: moderate when tame (non-negative on request), anything when
   wild. */
static double num(gen *g, int nonneg)
{
    return g->wild ? fuzz_any(&g->b) : fuzz_moderate(&g->b, nonneg);
}

/* A body index for a contact or row: valid (RF_WORLD or 0..nbody-1) when
   tame, anything from -3 to nbody + 1 when wild. */
static int body_index(gen *g, int nbody)
{
    const uint8_t v = fuzz_u8(&g->b);
    if (g->wild) {
        return (int)(v % (unsigned)(nbody + 5)) - 3;
    }
    return (int)(v % (unsigned)(nbody + 1)) - 1;
}

/* Two distinct valid bodies (tame); at least one of them is a body, not
   the world. */
static void body_pair(gen *g, int nbody, int *a, int *b)
{
    *a = body_index(g, nbody);
    *b = body_index(g, nbody);
    if (!g->wild && *a == *b) {
        *b = *a + 1 < nbody ? *a + 1 : RF_WORLD;
        if (*a == *b) { /* both the world */
            *a = 0;
        }
    }
}

static void make_body(gen *g, rf_body_desc *d, int *psd)
{
    memset(d, 0, sizeof *d);
    const uint8_t kind = fuzz_u8(&g->b);
    switch (kind & 7) {
    case 0:
    case 1:
    case 2:
    case 3: d->flags = RF_BODY_DYNAMIC; break;
    case 4: d->flags = RF_BODY_FIXED; break;
    case 5:
    case 6: d->flags = RF_BODY_DYNAMIC | RF_BODY_AXIS_MASS; break;
    default: d->flags = g->wild ? (int)(kind >> 3) : RF_BODY_DYNAMIC; break;
    }
    d->inv_mass = num(g, 1);
    for (int k = 0; k < 3; ++k) {
        d->inv_mass_axis[k] = num(g, 1);
    }
    /* inverse inertia: diagonal, L L^T (full, positive semi-definite), or
       symmetric with a non-negative diagonal (accepted by the setter,
       possibly indefinite: then the problem is no longer the documented
       one and only the no-crash oracle applies) */
    switch ((kind >> 3) & 3) {
    case 0:
    case 1:
        for (int k = 0; k < 3; ++k) {
            d->inv_inertia[4 * k] = num(g, 1);
        }
        break;
    case 2: {
        double L[9] = {0};
        for (int r = 0; r < 3; ++r) {
            for (int c = 0; c <= r; ++c) {
                L[3 * r + c] = num(g, 0);
            }
        }
        for (int r = 0; r < 3; ++r) {
            for (int c = 0; c < 3; ++c) {
                double s = 0.0;
                for (int k = 0; k < 3; ++k) {
                    s += L[3 * r + k] * L[3 * c + k];
                }
                d->inv_inertia[3 * r + c] = s;
            }
        }
        /* the two halves add up in different orders: make them equal */
        for (int r = 0; r < 3; ++r) {
            for (int c = r + 1; c < 3; ++c) {
                d->inv_inertia[3 * c + r] = d->inv_inertia[3 * r + c];
            }
        }
        break;
    }
    default:
        for (int r = 0; r < 3; ++r) {
            d->inv_inertia[4 * r] = num(g, 1);
            for (int c = r + 1; c < 3; ++c) {
                d->inv_inertia[3 * r + c] = d->inv_inertia[3 * c + r] =
                    num(g, 0);
            }
        }
        *psd = 0;
        break;
    }
    for (int k = 0; k < 3; ++k) {
        d->v[k] = num(g, 0);
        d->w[k] = num(g, 0);
    }
}

static void make_contact(gen *g, int nbody, rf_contact_desc *c)
{
    memset(c, 0, sizeof *c);
    body_pair(g, nbody, &c->body_a, &c->body_b);
    const uint8_t kind = fuzz_u8(&g->b);
    double n[3] = {num(g, 0), num(g, 0), num(g, 0)};
    if (g->wild && (kind & 1)) { /* any frame at all */
        memcpy(c->n, n, sizeof n);
        for (int k = 0; k < 3; ++k) {
            c->t1[k] = num(g, 0);
            c->t2[k] = num(g, 0);
        }
    } else {
        double t1[3], t2[3];
        if (rf_contact_frame(n, t1, t2) != RF_OK) {
            n[0] = n[1] = 0.0;
            n[2] = 1.0;
            FUZZ_CHECK(rf_contact_frame(n, t1, t2) == RF_OK);
        }
        /* turn (t1, t2) about n by one of 16 angles */
        const double a = 0.39269908169872414 * (double)(kind >> 4);
        const double ca = cos(a), sa = sin(a);
        for (int k = 0; k < 3; ++k) {
            c->n[k] = n[k];
            c->t1[k] = ca * t1[k] + sa * t2[k];
            c->t2[k] = -sa * t1[k] + ca * t2[k];
        }
    }
    for (int k = 0; k < 3; ++k) {
        c->r_a[k] = num(g, 0);
        c->r_b[k] = num(g, 0);
    }
    c->mu = num(g, 1);
    c->rho = num(g, 1);
    c->sigma = num(g, 1);
    /* some exact zeros: a zero coefficient pins its components */
    if (kind & 2) {
        c->rho = 0.0;
    }
    if (kind & 4) {
        c->sigma = 0.0;
    }
    for (int k = 0; k < 6; ++k) {
        c->bias[k] = num(g, 0);
    }
    c->flags = (kind & 8) ? RF_CONTACT_ROLL_T1 : 0;
    if (g->wild && (kind & 1)) {
        c->flags = (int)fuzz_u8(&g->b) - 8;
    }
}

static void make_row(gen *g, int nbody, int i, int nrow, rf_row_desc *r)
{
    memset(r, 0, sizeof *r);
    body_pair(g, nbody, &r->body_a, &r->body_b);
    for (int k = 0; k < 3; ++k) {
        r->lin_a[k] = num(g, 0);
        r->ang_a[k] = num(g, 0);
        r->lin_b[k] = num(g, 0);
        r->ang_b[k] = num(g, 0);
    }
    r->bias = num(g, 0);
    const uint8_t kind = fuzz_u8(&g->b);
    const double f = num(g, 1);
    switch (kind & 7) {
    case 0:
        r->lo = -INFINITY;
        r->hi = INFINITY;
        break; /* bilateral */
    case 1:
        r->lo = 0.0;
        r->hi = INFINITY;
        break; /* limit */
    case 2:
        r->lo = -INFINITY;
        r->hi = 0.0;
        break; /* mirror limit */
    case 3:
        r->lo = -f;
        r->hi = f;
        break; /* motor */
    case 4:
        r->lo = f;
        r->hi = f;
        break; /* a single point */
    default: {
        double lo = num(g, 0), hi = num(g, 0);
        r->lo = g->wild ? lo : fmin(lo, hi);
        r->hi = g->wild ? hi : fmax(lo, hi);
        break;
    }
    }
    r->cfm = (kind & 8) ? num(g, 1) : 0.0;
    r->bound_row = -1;
    r->bound_coef = 0.0;
    if ((kind & 0x30) == 0x30 && nrow > 1) { /* friction-bounded */
        r->bound_row = (i + 1 + (int)(kind >> 6) % (nrow - 1)) % nrow;
        r->bound_coef = num(g, 1);
    }
    if (g->wild && (kind & 0x40)) {
        r->bound_row = (int)fuzz_u8(&g->b) - 2;
    }
}

/* The documented statuses of a setter. */
static void check_set_status(rf_status st, int wild)
{
    if (wild) {
        FUZZ_CHECK(st == RF_OK || st == RF_ERR_RANGE ||
                   st == RF_ERR_NONFINITE || st == RF_ERR_INVALID);
    } else {
        FUZZ_CHECK(st == RF_OK);
    }
}

/* |a| x |b| with every product taken positive: a bound on the terms of
   a x b. */
static void abs_cross(const double a[3], const double b[3], double c[3])
{
    c[0] = fabs(a[1] * b[2]) + fabs(a[2] * b[1]);
    c[1] = fabs(a[2] * b[0]) + fabs(a[0] * b[2]);
    c[2] = fabs(a[0] * b[1]) + fabs(a[1] * b[0]);
}

/* A bound on the rounding of the local velocities u = D^T (v* + M^-1 D
   gamma) + b + C gamma (C: the rows' cfm and the contacts' compliance),
   however they are evaluated: the same sums with
   every term made non-negative, bound (6 ncon + nrow).  The matrix-free
   product, the assembled W gamma + q and a rescaled u all round within a
   few dozen ulps of this, not of |u|, which cancellation can make far
   smaller (lever arms and inverse inertias up to 4e6 give body
   velocities 1e14 times the impulses' effect). */
static void abs_velocity_bound(const rf_problem *p, const double *gamma,
                               double *bound)
{
    const int nb = p->nbody, nc = p->ncon, m6 = 6 * nc;
    double lin[MAX_BODY][3] = {{0}}, ang[MAX_BODY][3] = {{0}};
    double V[MAX_BODY][6];
    for (int j = 0; j < nc; ++j) { /* |D|^T |gamma| per body */
        for (int t = 0; t < 2; ++t) {
            const int b = p->con_body[2 * j + t];
            if (b < 0) {
                continue;
            }
            const double *f = p->con_frame + 9 * j;
            const double *g = gamma + 6 * j;
            double F[3] = {0.0, 0.0, 0.0}, T[3];
            for (int k = 0; k < 3; ++k) {
                for (int c = 0; c < 3; ++c) {
                    F[c] += fabs(f[3 * k + c] * g[k]);
                    ang[b][c] += fabs(f[3 * k + c] * g[3 + k]);
                }
            }
            /* the torque of the sliding impulse is r x F: its terms
               are bounded by |r| x |F| componentwise */
            abs_cross(p->con_arm + 6 * j + 3 * t, F, T);
            for (int c = 0; c < 3; ++c) {
                lin[b][c] += F[c];
                ang[b][c] += T[c];
            }
        }
    }
    for (int j = 0; j < p->nrow; ++j) {
        for (int t = 0; t < 2; ++t) {
            const int b = p->row_body[2 * j + t];
            if (b < 0) {
                continue;
            }
            const double *J = p->row_jac + 12 * j + 6 * t;
            for (int c = 0; c < 3; ++c) {
                lin[b][c] += fabs(J[c] * gamma[m6 + j]);
                ang[b][c] += fabs(J[3 + c] * gamma[m6 + j]);
            }
        }
    }
    for (int b = 0; b < nb; ++b) { /* |v*| + |M^-1| (...) */
        const double *im = p->body_inv_mass + 3 * b;
        const double *Iinv = p->body_inv_inertia + 9 * b;
        const double *v = p->body_vel + 6 * b;
        for (int c = 0; c < 3; ++c) {
            V[b][c] = fabs(v[c]) + im[c] * lin[b][c];
            V[b][3 + c] = fabs(v[3 + c]);
            for (int e = 0; e < 3; ++e) {
                V[b][3 + c] += fabs(Iinv[3 * c + e]) * ang[b][e];
            }
        }
    }
    for (int i = 0; i < nc; ++i) { /* |D_i|^T V + |b_i| */
        const double *f = p->con_frame + 9 * i;
        for (int k = 0; k < 6; ++k) {
            double s = fabs(p->con_bias[6 * i + k]);
            for (int t = 0; t < 2; ++t) {
                const int b = p->con_body[2 * i + t];
                if (b < 0) {
                    continue;
                }
                /* sliding rows: e_k . (v + w x r), terms bounded by
                   |e_k| . (|v| + |w| x |r|) */
                double wr[3];
                abs_cross(V[b] + 3, p->con_arm + 6 * i + 3 * t, wr);
                for (int c = 0; c < 3; ++c) {
                    s += k < 3 ? fabs(f[3 * k + c]) * (V[b][c] + wr[c])
                               : fabs(f[3 * (k - 3) + c]) * V[b][3 + c];
                }
            }
            /* compliance: u_k += c_k gamma_k ("Compliance" in
               rollfric.h) */
            if (p->con_cfm != NULL) {
                s += fabs(p->con_cfm[6 * i + k] * gamma[6 * i + k]);
            }
            bound[6 * i + k] = s;
        }
    }
    for (int j = 0; j < p->nrow; ++j) {
        double s = fabs(p->row_bias[j]) + fabs(p->row_cfm[j] * gamma[m6 + j]);
        for (int t = 0; t < 2; ++t) {
            const int b = p->row_body[2 * j + t];
            if (b < 0) {
                continue;
            }
            const double *J = p->row_jac + 12 * j + 6 * t;
            for (int c = 0; c < 6; ++c) {
                s += fabs(J[c]) * V[b][c];
            }
        }
        bound[m6 + j] = s;
    }
}

/* Local velocities of the body form and of its assembled local form
   agree (tame problems without rows). */
static void check_local_form(rf_problem *p, const double *gamma)
{
    rf_problem *loc = NULL;
    FUZZ_CHECK(rf_problem_create(&loc, NULL) == RF_OK);
    rf_error err;
    FUZZ_CHECK(rf_problem_to_local(p, loc, &err) == RF_OK);
    const int m = 6 * p->ncon;
    double *ub = doubles((size_t)m);
    double *ul = doubles((size_t)m);
    FUZZ_CHECK(rf_problem_local_velocity(p, gamma, ub, NULL) == RF_OK);
    FUZZ_CHECK(rf_problem_local_velocity(loc, gamma, ul, NULL) == RF_OK);
    double *bound = doubles((size_t)m);
    abs_velocity_bound(p, gamma, bound);
    for (int r = 0; r < m; ++r) {
        FUZZ_CHECK(fabs(ub[r] - ul[r]) <= 1e-12 * bound[r] + 1e-300);
    }
    free(bound);
    free(ub);
    free(ul);
    rf_problem_destroy(loc);
}

/* The cohesion shift ("Cohesion" in rollfric.h: gamma + s in Y with
   s_i = cohesion_i e_n): gt = gamma + s, ga = |gamma| + s (every entry
   non-negative: the rounding bound of a product that the solver forms on
   gamma + s and -s apart), ms = -s (whose local velocity is the shifted
   problem's free velocity: "the free velocity of the impulses -s already
   applied").  Rows are not shifted. */
static void cohesion_vectors(const rf_problem *p, const double *gamma,
                             double *gt, double *ga, double *ms)
{
    const int m = 6 * p->ncon + p->nrow;
    for (int j = 0; j < m; ++j) {
        gt[j] = gamma[j];
        ga[j] = fabs(gamma[j]);
        ms[j] = 0.0;
    }
    for (int i = 0; i < p->ncon; ++i) {
        const double s = p->con_cohesion[i];
        gt[6 * i] += s;
        ga[6 * i] += s;
        ms[6 * i] = -s;
    }
}

/* Contact i's impulse gi (finite) in its set.  rollfric.h:
     - "Cohesion": gamma_i + s_i e_n in Y_i, "so the normal impulse may
       reach -c h, and the friction limits grow with it";
     - rf_contact_desc.normal_max: "the yield cap gamma_n <= normal_max
       ... The set becomes Y cut by that plane";
     - RF_CONTACT_ROLL_T1: tw = 0;
     - RF_MODEL_PYRAMID: "each friction component's cone becomes the box
       |c_k| <= kappa_k c_n" (kappa: mu for the two sliding components,
       sigma for spin, rho for rolling; 0 for tw of a ROLL_T1 contact).
   Tolerances: 1e-9 |gamma~| as before (the solvers' part scaling rounds
   the cones' coefficients), and for cohesion two roundings of size
   ulp(s) in c_n (the solvers return gamma~ - s, this adds s back),
   which a coefficient carries into the friction limits.  The cap: the
   solvers clamp the scaled gamma~_n to (normal_max + s) / scale and
   scale back, then subtract s: a few ulps of normal_max + s; 1e-12 of it
   is thousands of ulps.  slack: how far the pyramid's box may be missed
   (pyramid_slack).  mdp: Gauss-Seidel with rf_config.local_mdp, which
   solves "a contact without rolling and spinning friction (rho = sigma =
   0, no normal_max)" by rf_mdp_contact: its impulse lies on the cone's
   boundary at a root of a quartic, found to a relative accuracy of |x|
   (not of x_n alone), so |x_t| - mu x_n carries that error times mu
   (seen: mu = 3.1e6, x_n = 2.95e-7, |x_t| = 0.92: 8.9e-4 over, a
   distance of 3e-10 |x| from the cone); the tolerance grows with mu. */
static void check_contact_set(const rf_problem *p, int pyramid, double slack,
                              int mdp, int i, const double *gi)
{
    const double coh = p->con_cohesion[i], cap = p->con_nmax[i];
    const double mu = p->con_mu[i], rho = p->con_rho[i],
                 sigma = p->con_sigma[i];
    const int roll_t1 = (p->con_flags[i] & RF_CONTACT_ROLL_T1) != 0;
    double c[6];
    memcpy(c, gi, sizeof c);
    c[RF_N] += coh;
    const int by_mdp = mdp && rho == 0.0 && sigma == 0.0 && cap == 0.0;
    const double tol = 1e-9 * fuzz_norm(c, 6) * (by_mdp ? 1.0 + mu : 1.0) +
                       1e-12 * coh * (1.0 + mu + rho + sigma) + 1e-300;
    if (pyramid) {
        const double kappa[6] = {0.0, mu, mu, sigma, rho, roll_t1 ? 0.0 : rho};
        FUZZ_CHECK(c[RF_N] >= -tol - slack);
        for (int k = 1; k < 6; ++k) {
            FUZZ_CHECK(fabs(c[k]) <= kappa[k] * c[RF_N] + tol + slack);
        }
    } else {
        FUZZ_CHECK(rf_cone_violation(c, mu, rho, sigma) <= tol);
    }
    FUZZ_CHECK(gi[RF_N] >= -coh - tol - slack);
    if (roll_t1) {
        FUZZ_CHECK(gi[RF_ROLL_W] == 0.0);
    }
    if (cap > 0.0) {
        FUZZ_CHECK(gi[RF_N] <= cap + 1e-12 * (cap + coh) + 1e-300);
    }
}

/* The pyramid model: how far a returned impulse may lie outside its box.
   Lemke's pivots round, and in an ill-conditioned tableau a basic
   variable that should end at 0 ends a rounding off it (seen: W entries
   of 1e20 beside 1e9, a tangential impulse 2.6e-15 above a zero normal
   one, the natural size of the impulses there).  rollfric.h bounds this
   by the residual it reports: "residual is the LCP's |min(z, M z + q)| /
   max(1, |q|)", and an impulse outside the box has some z < 0 (c_n, or
   s+ = kappa c_n + c_k) or w < 0 (s- = kappa c_n - c_k) by as much, so
   the slack is residual max(1, |q|), with q the contacts' free
   velocities (r~ under cohesion; |q| <= |r~| + |C s|, with or without
   the compliance's share of the impulses -s).  Only while energy_scale =
   1: the energy check's scaling replaces the residual ("the residual is
   that of the scaled gamma"), and then no slack is known (INFINITY). */
static double pyramid_slack(rf_problem *p, const rf_stats *stats)
{
    if (stats->energy_scale != 1.0 || !isfinite(stats->residual)) {
        return INFINITY;
    }
    const int m = 6 * p->ncon + p->nrow;
    double *zero = calloc((size_t)m + 1, sizeof(double));
    double *gt = doubles((size_t)m);
    double *ga = doubles((size_t)m);
    double *ms = doubles((size_t)m);
    double *rt = doubles((size_t)m);
    FUZZ_CHECK(zero != NULL);
    cohesion_vectors(p, zero, gt, ga, ms);
    double slack = INFINITY;
    if (rf_problem_local_velocity(p, ms, rt, NULL) == RF_OK) {
        double cs = 0.0; /* |C s| */
        for (int i = 0; p->con_cfm != NULL && i < p->ncon; ++i) {
            const double t = p->con_cfm[6 * i] * ms[6 * i];
            cs += t * t;
        }
        const double q = fuzz_norm(rt, (size_t)m) + sqrt(cs);
        slack = stats->residual * fmax(1.0, q) * (1.0 + 1e-9);
    }
    free(zero);
    free(gt);
    free(ga);
    free(ms);
    free(rt);
    return isfinite(slack) ? slack : INFINITY;
}

/* rf_residual's documented formula, evaluated here: Siconos'
     sqrt(sum_i |g~_i - Proj_Y(g~_i - u_hat_i)|^2
          + sum_j (lambda_j - clamp(lambda_j - u_j, lo_j, hi_j))^2)
       / max(|r~|, |g~|, |u|)
   of the shifted problem ("the residual ... and rf_residual refer to
   that shifted problem (the velocities u are the same in both)"): g~ =
   gamma + s, r~ its free velocity (u at gamma = -s), u = N gamma + r
   from rf_problem_local_velocity (with the compliance, "u_k += c_k
   gamma_k").  Y_i is cut by the yield cap (normal_max + s in g~), u_hat
   = u + (mu|u_t| + rho|w_r| + sigma|w_n|) e_n for De Saxce (|wu| for a
   ROLL_T1 contact: "The dual cone and the De Saxce shift use rho |wu|"),
   and a friction-bounded row's interval is [-coef |lambda_k|, coef
   |lambda_k|].  Returns the residual, or -1 where the sums are not
   finite; *xn: |(g~ - u_hat, lambda - u)| (the size the projections
   round at), *kmax: the largest mu + rho + sigma for De Saxce (how far
   the shift carries an error of u). */
static double doc_residual(const rf_problem *p, rf_model model,
                           const double *gamma, const double *gt,
                           const double *u, const double *rt, double *xn,
                           double *kmax)
{
    const int nc = p->ncon, nr = p->nrow, m6 = 6 * nc, m = m6 + nr;
    double d2 = 0.0, x2 = 0.0;
    *kmax = 0.0;
    for (int i = 0; i < nc; ++i) {
        const rf__cone cone = rf__contact_cone(p, i);
        const double *g = gt + 6 * i, *ui = u + 6 * i;
        double z[6], pz[6];
        double sh = 0.0;
        if (model == RF_MODEL_DESAXCE) {
            const double wr = cone.roll_t1
                                  ? fabs(ui[RF_ROLL_U])
                                  : hypot(ui[RF_ROLL_U], ui[RF_ROLL_W]);
            sh = cone.mu * hypot(ui[RF_U], ui[RF_W]) + cone.rho * wr +
                 cone.sigma * fabs(ui[RF_SPIN]);
            *kmax = fmax(*kmax, cone.mu + cone.rho + cone.sigma);
        }
        for (int k = 0; k < 6; ++k) {
            z[k] = g[k] - ui[k];
        }
        z[RF_N] -= sh;
        rf__project6(z, &cone, pz);
        for (int k = 0; k < 6; ++k) {
            x2 += z[k] * z[k];
            d2 += (g[k] - pz[k]) * (g[k] - pz[k]);
        }
    }
    for (int j = 0; j < nr; ++j) {
        const double l = gamma[m6 + j];
        double lo = p->row_lo[j], hi = p->row_hi[j];
        const int k = p->row_bound[j];
        if (k >= 0) {
            hi = p->row_coef[j] * fabs(gamma[m6 + k]);
            lo = -hi;
        }
        const double z = l - u[m6 + j];
        x2 += z * z;
        d2 += (l - fmin(fmax(z, lo), hi)) * (l - fmin(fmax(z, lo), hi));
    }
    double r2 = 0.0, g2 = 0.0, u2 = 0.0;
    for (int j = 0; j < m; ++j) {
        r2 += rt[j] * rt[j];
        g2 += gt[j] * gt[j];
        u2 += u[j] * u[j];
    }
    double den = sqrt(fmax(r2, fmax(g2, u2)));
    *xn = sqrt(x2);
    if (!isfinite(d2) || !isfinite(x2) || !isfinite(den)) {
        return -1.0;
    }
    return sqrt(d2) / (den > 0.0 ? den : 1.0); /* "1 if all are 0" */
}

/* The residuals of a cone model (not the pyramid's): stats->residual,
   rf_residual and the documented formula agree to rounding (full
   oracle).  u: the local velocities of gamma. */
static void check_residuals(rf_problem *p, const rf_config *cfg,
                            const double *gamma, const double *u,
                            const rf_stats *stats)
{
    const int m = 6 * p->ncon + p->nrow;
    double res = -1.0;
    FUZZ_CHECK(rf_residual(p, cfg->model, gamma, &res, NULL) == RF_OK);
    FUZZ_CHECK(res >= 0.0 && isfinite(res));
    double *gt = doubles((size_t)m);
    double *ga = doubles((size_t)m);
    double *ms = doubles((size_t)m);
    double *rt = doubles((size_t)m);
    double *bound = doubles((size_t)m);
    cohesion_vectors(p, gamma, gt, ga, ms);
    FUZZ_CHECK(rf_problem_local_velocity(p, ms, rt, NULL) == RF_OK);
    /* The solver forms u its own way (scaled products, body
       velocities maintained over a sweep's updates, u of a rescaled
       gamma, gamma + s and -s apart under cohesion), rf_residual by one
       plain product: both round within d = 1e-10 |bound|
       (abs_velocity_bound of |gamma| + s, with room for the updates'
       accumulation), and the residual moves by at most
       3 d / max(|r~|, |g~|, |u|) for such a change of u (the
       projection is non-expansive; the denominator moves by d too).
       Below 1e-9 the residuals are noise next to any tolerance.
       Not for Gauss-Seidel with tol > 0: it measures the residual on
       body velocities kept up to date over every sweep, whose
       rounding follows the iterates' history (large impulses that
       cancel), not the returned gamma (seen: a row velocity 31 off
       for a row diagonal J M^-1 J^T of 3.5e17, an ulp of it). */
    abs_velocity_bound(p, ga, bound);
    const double den =
        fmax(fuzz_norm(rt, (size_t)m),
             fmax(fuzz_norm(gt, (size_t)m), fuzz_norm(u, (size_t)m)));
    const double d = 1e-10 * fuzz_norm(bound, (size_t)m);
    const double tol = den > 0.0 ? 3.0 * d / den * (1.0 + res) : 0.0;
    const int maintained =
        cfg->tol > 0.0 &&
        (cfg->solver == RF_SOLVER_GS || cfg->solver == RF_SOLVER_GS_COLORED);
    FUZZ_CHECK(maintained ||
               fabs(stats->residual - res) <=
                   1e-9 * fmax(res, stats->residual) + tol + 1e-9);
    /* rf_residual against its documented formula, on the same gamma (no
       solver history: every solver).  Same rounding argument, the De
       Saxce shift carrying an error of u times mu + rho + sigma, plus a
       few ulps of the projected vectors.  Not where the denominator is
       tiny but not 0: the library squares its entries, which underflow
       below 1e-154 (tame problems sit far above). */
    double xn, kmax;
    const double rd = doc_residual(p, cfg->model, gamma, gt, u, rt, &xn, &kmax);
    if (rd >= 0.0 && !(den > 0.0 && den < 1e-100)) {
        const double dd = den > 0.0 ? den : 1.0;
        const double tol2 = 3.0 * (1.0 + kmax) * d / dd * (1.0 + res) +
                            1e-12 * xn / dd + 1e-9 * fmax(res, rd) + 1e-9;
        FUZZ_CHECK(fabs(rd - res) <= tol2);
    }
    free(gt);
    free(ga);
    free(ms);
    free(rt);
    free(bound);
}

/* Oracle on a successful solve; full = tame, documented problem. */
static void check_solution(rf_problem *p, const rf_config *cfg,
                           const double *gamma, const rf_stats *stats, int full)
{
    const int nc = p->ncon, nr = p->nrow, m = 6 * nc + nr;
    const int pyramid = cfg->model == RF_MODEL_PYRAMID;
    if (full) {
        FUZZ_CHECK(fuzz_all_finite(gamma, (size_t)m));
    }
    const double slack = pyramid ? pyramid_slack(p, stats) : 0.0;
    const int mdp =
        !pyramid && cfg->local_mdp &&
        (cfg->solver == RF_SOLVER_GS || cfg->solver == RF_SOLVER_GS_COLORED);
    for (int i = 0; i < nc; ++i) {
        const double *gi = gamma + 6 * i;
        if (fuzz_all_finite(gi, 6)) {
            check_contact_set(p, pyramid, slack, mdp, i, gi);
        }
    }
    for (int j = 0; j < nr; ++j) {
        const double l = gamma[6 * nc + j];
        if (p->row_bound[j] >= 0 || !isfinite(l)) {
            continue; /* the bound follows the other row's iterate */
        }
        const double lo = p->row_lo[j], hi = p->row_hi[j];
        const double s = 1e-12 * (fabs(l) + (isfinite(lo) ? fabs(lo) : 0.0) +
                                  (isfinite(hi) ? fabs(hi) : 0.0));
        FUZZ_CHECK(l >= lo - s && l <= hi + s);
    }
    FUZZ_CHECK(stats->contacts == nc && stats->rows == m);
    /* the pyramid model's iterations count Lemke's pivots, whose cap is
       not documented as max_iter */
    FUZZ_CHECK(stats->iterations >= 0 &&
               (pyramid || stats->iterations <= cfg->max_iter));
    FUZZ_CHECK(stats->colors >= 0);
    if (!full) {
        return;
    }
    FUZZ_CHECK(stats->residual >= 0.0 && isfinite(stats->residual));
    double *u = doubles((size_t)m);
    double *v = doubles((size_t)p->nbody * 3);
    double *w = doubles((size_t)p->nbody * 3);
    FUZZ_CHECK(rf_problem_local_velocity(p, gamma, u, NULL) == RF_OK);
    FUZZ_CHECK(fuzz_all_finite(u, (size_t)m));
    if (pyramid) {
        /* "rf_residual refuses this model" (and on error writes
           nothing) */
        double res = -1.0;
        FUZZ_CHECK(rf_residual(p, cfg->model, gamma, &res, NULL) != RF_OK &&
                   res == -1.0);
    } else {
        check_residuals(p, cfg, gamma, u, stats);
    }
    FUZZ_CHECK(rf_problem_body_velocity(p, gamma, v, w, NULL) == RF_OK);
    FUZZ_CHECK(fuzz_all_finite(v, (size_t)p->nbody * 3));
    FUZZ_CHECK(fuzz_all_finite(w, (size_t)p->nbody * 3));
    free(u);
    free(v);
    free(w);
    if (nr == 0) {
        check_local_form(p, gamma);
    } else {
        rf_problem *loc = NULL;
        FUZZ_CHECK(rf_problem_create(&loc, NULL) == RF_OK);
        FUZZ_CHECK(rf_problem_to_local(p, loc, NULL) == RF_ERR_INVALID);
        rf_problem_destroy(loc);
    }
}

/* What a solve of the problem as set must give. */
typedef struct expect {
    int known;    /* the problem's state follows from the documentation
                     (not after a refused re-set of a contact) */
    int solvable; /* rf_solve must accept it */
    int pyr_bad;  /* rows or a yield cap: the pyramid model refuses it */
    int full;     /* tame, positive semi-definite: the full oracle */
} expect;

/* Which problems rf_solve must accept: complete, no item between two
   fixed bodies, bounded rows on the same bodies as their bound. */
static int problem_solvable(const rf_problem *p, int complete,
                            const int *dynamic)
{
    int solvable = complete;
    for (int i = 0; solvable && i < p->ncon; ++i) {
        const int a = p->con_body[2 * i], b = p->con_body[2 * i + 1];
        solvable = (a >= 0 && dynamic[a]) || (b >= 0 && dynamic[b]);
    }
    for (int j = 0; solvable && j < p->nrow; ++j) {
        const int a = p->row_body[2 * j], b = p->row_body[2 * j + 1];
        solvable = (a >= 0 && dynamic[a]) || (b >= 0 && dynamic[b]);
        const int k = p->row_bound[j];
        if (solvable && k >= 0) {
            const int ka = p->row_body[2 * k], kb = p->row_body[2 * k + 1];
            solvable = (ka == a && kb == b) || (ka == b && kb == a);
        }
    }
    return solvable;
}

/* One rf_solve from gamma (the warm start) and its oracle; gamma0:
   scratch of m entries. */
static void solve_and_check(rf_problem *p, const rf_config *cfg, double *gamma,
                            double *gamma0, int m, const expect *ex)
{
    const int pyramid = cfg->model == RF_MODEL_PYRAMID;
    const int warm_ok = !cfg->warm_start || fuzz_all_finite(gamma, (size_t)m);
    memcpy(gamma0, gamma, (size_t)m * sizeof(double));
    rf_stats stats;
    rf_error err;
    const rf_status st = rf_solve(p, cfg, gamma, &stats, &err);
    FUZZ_CHECK(err.status == st);
    if (st != RF_OK) { /* "gamma is left untouched on error" */
        FUZZ_CHECK(memcmp(gamma, gamma0, (size_t)m * sizeof(double)) == 0);
    }
    if (!ex->known) {
        FUZZ_CHECK(st == RF_OK || st == RF_ERR_STATE || st == RF_ERR_INVALID ||
                   st == RF_ERR_NONFINITE || (pyramid && st == RF_ERR_LCP));
        if (st == RF_OK) {
            check_solution(p, cfg, gamma, &stats, 0);
        }
        return;
    }
    if (!ex->solvable) {
        FUZZ_CHECK(st == RF_ERR_STATE || st == RF_ERR_INVALID ||
                   (st == RF_ERR_NONFINITE && !warm_ok));
        return;
    }
    if (!warm_ok) { /* two faults: either may be reported */
        FUZZ_CHECK(st == RF_ERR_NONFINITE ||
                   (pyramid && ex->pyr_bad && st == RF_ERR_INVALID));
        return;
    }
    if (pyramid && ex->pyr_bad) {
        /* RF_MODEL_PYRAMID: "no joint rows, no normal_max"; rf_solve:
           RF_ERR_INVALID (cfg) */
        FUZZ_CHECK(st == RF_ERR_INVALID);
        return;
    }
    if (pyramid) { /* "Ray termination: rf_solve returns RF_ERR_LCP" */
        FUZZ_CHECK(st == RF_OK || st == RF_ERR_LCP);
        if (st != RF_OK) {
            return;
        }
    }
    FUZZ_CHECK(st == RF_OK);
    /* the next solve's start is a valid configuration */
    FUZZ_CHECK(isfinite(stats.apgd_lipschitz) && stats.apgd_lipschitz >= 0.0);
    FUZZ_CHECK(isfinite(stats.jacobi_lambda_max) &&
               stats.jacobi_lambda_max >= 0.0);
    if (!pyramid && stats.rows == 0) {
        /* nothing to solve: no sweep, and the carried constants stay */
        FUZZ_CHECK(stats.iterations == 0);
        FUZZ_CHECK(stats.apgd_lipschitz ==
                   (cfg->solver == RF_SOLVER_APGD ? cfg->apgd_lipschitz : 0.0));
        FUZZ_CHECK(stats.jacobi_lambda_max ==
                   (cfg->solver == RF_SOLVER_JACOBI && cfg->omega == 0.0
                        ? cfg->jacobi_lambda_max
                        : 0.0));
    } else if (!pyramid) { /* (Lemke's method is none of the solvers) */
        /* APGD: its step constant once it iterated; Jacobi with
           automatic omega: its lambda (0 only where a carried one
           overflowed on raising); else 0 */
        if (cfg->solver == RF_SOLVER_APGD) {
            FUZZ_CHECK(stats.iterations == 0 || stats.apgd_lipschitz > 0.0);
            FUZZ_CHECK(stats.jacobi_lambda_max == 0.0);
        } else if (cfg->solver == RF_SOLVER_JACOBI && cfg->omega == 0.0) {
            FUZZ_CHECK(stats.jacobi_lambda_max > 0.0 ||
                       cfg->jacobi_lambda_max > 0.0);
            FUZZ_CHECK(stats.apgd_lipschitz == 0.0);
        } else {
            FUZZ_CHECK(stats.apgd_lipschitz == 0.0 &&
                       stats.jacobi_lambda_max == 0.0);
        }
    }
    check_solution(p, cfg, gamma, &stats, ex->full);
}

/* The solves' warm start: part of the bytes, or a fixed pattern. */
static void warm_start(gen *g, double *gamma, int m)
{
    for (int j = 0; j < m; ++j) {
        gamma[j] = g->b.n > 0 ? num(g, 0) : (double)(j % 3) - 1.0;
    }
}

/* A tame contact c made invalid in one of the fields the second round
   adds (f: the contact's byte): rf_problem_set_contact must refuse it
   with the documented status, RF_ERR_NONFINITE for a NaN or an infinity,
   RF_ERR_INVALID for a negative cohesion or compliance ("RF_ERR_INVALID
   (negative coefficient, cohesion or compliance, ...)") or normal_max
   (rf_contact_desc: ">= 0"; RF_ERR_INVALID: "an argument is out of its
   domain"); -INFINITY is both, either status. */
static void try_invalid(gen *g, rf_problem *p, int i, const rf_contact_desc *c,
                        uint8_t f)
{
    rf_contact_desc bad = *c;
    const int kind = f >> 6;
    double v;
    switch (kind) {
    case 0:
        v = -fabs(num(g, 0));
        if (v == 0.0) {
            v = -4.9e-324; /* the smallest negative */
        }
        break;
    case 1: v = NAN; break;
    case 2: v = INFINITY; break;
    default: v = -INFINITY; break;
    }
    switch ((f >> 4) & 3) {
    case 0: bad.cohesion = v; break;
    case 1: bad.normal_max = v; break;
    default: bad.compliance[fuzz_u8(&g->b) % 6] = v; break;
    }
    rf_error err;
    const rf_status st = rf_problem_set_contact(p, i, &bad, &err);
    FUZZ_CHECK(err.status == st);
    if (kind == 0) {
        FUZZ_CHECK(st == RF_ERR_INVALID);
    } else if (kind == 3) {
        FUZZ_CHECK(st == RF_ERR_INVALID || st == RF_ERR_NONFINITE);
    } else {
        FUZZ_CHECK(st == RF_ERR_NONFINITE);
    }
}

/* The second round (bytes after the first round's): every contact set
   again from its first-round description, now perhaps with a cohesion,
   a compliance and a yield cap, then four solves whose model may be De
   Saxce or the pyramid and whose local_mdp may be on. */
static void second_round(gen *g, rf_problem *p, const rf_contact_desc *cons,
                         int rows_set, const int *dynamic, int psd,
                         uint8_t head, double *gamma, double *gamma0)
{
    const int ncon = p->ncon, m = 6 * ncon + p->nrow;
    const uint8_t models = fuzz_u8(&g->b), bits = fuzz_u8(&g->b);
    int sets_ok = 1, capped = 0;
    for (int i = 0; i < ncon; ++i) {
        rf_contact_desc c = cons[i];
        const uint8_t f = fuzz_u8(&g->b);
        if (f & 1) {
            c.cohesion = num(g, 1);
        }
        if (f & 2) {
            const uint8_t mask = fuzz_u8(&g->b);
            for (int k = 0; k < 6; ++k) {
                if ((mask >> k) & 1) {
                    c.compliance[k] = num(g, 1);
                }
            }
        }
        if (f & 4) {
            c.normal_max = num(g, 1);
        }
        if ((f & 8) && !g->wild) {
            try_invalid(g, p, i, &c, f);
        }
        rf_error err;
        const rf_status st = rf_problem_set_contact(p, i, &c, &err);
        FUZZ_CHECK(err.status == st);
        check_set_status(st, g->wild);
        sets_ok &= st == RF_OK;
        capped |= c.normal_max > 0.0;
    }
    /* a refused re-set leaves the contact as the documentation does not
       say: then only documented statuses and the weak oracle */
    const expect ex = {sets_ok,
                       sets_ok && rows_set && problem_solvable(p, 1, dynamic),
                       p->nrow > 0 || capped, !g->wild && psd};
    int pyramid_done = 0;
    for (int s = RF_SOLVER_JACOBI; s <= RF_SOLVER_APGD; ++s) {
        rf_config cfg;
        rf_config_default(&cfg);
        cfg.solver = (rf_solver_kind)s;
        const int code = (models >> (2 * s)) & 3;
        /* the pyramid ignores the solver: once per input is enough */
        cfg.model = code == 1                    ? RF_MODEL_DESAXCE
                    : code == 2 && !pyramid_done ? RF_MODEL_PYRAMID
                                                 : RF_MODEL_ASSOCIATED;
        pyramid_done |= cfg.model == RF_MODEL_PYRAMID;
        cfg.local_mdp = (bits >> s) & 1; /* read by Gauss-Seidel only */
        cfg.max_iter = 1 + ((bits >> 4) & 7);
        cfg.tol = (bits & 0x80) ? 0.0 : 1e-8;
        cfg.threads = 1;
        cfg.warm_start = (head >> 5) & 1;
        if ((head >> 6) & 1) {
            const double L = g->b.n > 0 ? fabs(num(g, 1)) : 1e-300;
            cfg.apgd_lipschitz = isfinite(L) ? L : 0.0;
            cfg.jacobi_lambda_max = cfg.apgd_lipschitz;
        }
        warm_start(g, gamma, m);
        solve_and_check(p, &cfg, gamma, gamma0, m, &ex);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gen g = {{data, size}, 0};
    const uint8_t head = fuzz_u8(&g.b);
    g.wild = (head & 0x80) != 0;
    const int nbody = 1 + (head & 3);
    const int ncon = ((head >> 2) & 7) % (MAX_CON + 1);
    const int nrow = (int)((fuzz_u8(&g.b) & 3) % (MAX_ROW + 1));
    const uint8_t opts = fuzz_u8(&g.b);

    rf_problem *p = NULL;
    FUZZ_CHECK(rf_problem_create(&p, NULL) == RF_OK);
    rf_error err;
    rf_status st = rf_problem_begin_bodies(p, nbody, ncon, &err);
    FUZZ_CHECK(st == RF_OK && err.status == RF_OK);
    int psd = 1, cons_set = 1, rows_set = 1;
    int dynamic[MAX_BODY] = {0};
    rf_contact_desc cons[MAX_CON];
    for (int i = 0; i < nbody; ++i) {
        rf_body_desc d;
        make_body(&g, &d, &psd);
        st = rf_problem_set_body(p, i, &d, &err);
        FUZZ_CHECK(err.status == st);
        check_set_status(st, g.wild);
        dynamic[i] = st == RF_OK && d.flags != RF_BODY_FIXED;
    }
    for (int i = 0; i < ncon; ++i) {
        make_contact(&g, nbody, &cons[i]);
        st = rf_problem_set_contact(p, i, &cons[i], &err);
        FUZZ_CHECK(err.status == st);
        check_set_status(st, g.wild);
        cons_set &= st == RF_OK;
    }
    if (nrow > 0) {
        st = rf_problem_begin_rows(p, nrow, &err);
        FUZZ_CHECK(st == RF_OK);
        for (int i = 0; i < nrow; ++i) {
            rf_row_desc r;
            make_row(&g, nbody, i, nrow, &r);
            st = rf_problem_set_row(p, i, &r, &err);
            FUZZ_CHECK(err.status == st);
            check_set_status(st, g.wild);
            rows_set &= st == RF_OK;
        }
    }

    const expect ex = {1, problem_solvable(p, cons_set && rows_set, dynamic),
                       nrow > 0, !g.wild && psd};
    const int m = 6 * ncon + nrow;
    double *gamma = doubles((size_t)m);
    double *gamma0 = doubles((size_t)m);
    for (int s = RF_SOLVER_JACOBI; s <= RF_SOLVER_APGD; ++s) {
        rf_config cfg;
        rf_config_default(&cfg);
        cfg.solver = (rf_solver_kind)s;
        cfg.model = (opts >> s) & 1 ? RF_MODEL_DESAXCE : RF_MODEL_ASSOCIATED;
        cfg.max_iter = 1 + ((opts >> 4) & 7);
        cfg.tol = (opts & 0x80) ? 0.0 : 1e-8;
        cfg.threads = 1;
        cfg.warm_start = (head >> 5) & 1;
        if ((head >> 6) & 1) { /* APGD's start step constant, any size */
            const double L = g.b.n > 0 ? fabs(num(&g, 1)) : 1e-300;
            cfg.apgd_lipschitz = isfinite(L) ? L : 0.0;
            cfg.jacobi_lambda_max = cfg.apgd_lipschitz;
        }
        warm_start(&g, gamma, m);
        solve_and_check(p, &cfg, gamma, gamma0, m, &ex);
    }
    if (g.b.n > 0) { /* bytes left: the second round */
        second_round(&g, p, cons, rows_set, dynamic, psd, head, gamma, gamma0);
    }
    free(gamma);
    free(gamma0);
    rf_problem_destroy(p);
    return 0;
}
