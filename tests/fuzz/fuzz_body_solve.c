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
   gamma) + b + C gamma, however they are evaluated: the same sums with
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
    double *ub = malloc(((size_t)m + 1) * sizeof(double));
    double *ul = malloc(((size_t)m + 1) * sizeof(double));
    FUZZ_CHECK(ub != NULL && ul != NULL);
    FUZZ_CHECK(rf_problem_local_velocity(p, gamma, ub, NULL) == RF_OK);
    FUZZ_CHECK(rf_problem_local_velocity(loc, gamma, ul, NULL) == RF_OK);
    double *bound = malloc(((size_t)m + 1) * sizeof(double));
    FUZZ_CHECK(bound != NULL);
    abs_velocity_bound(p, gamma, bound);
    for (int r = 0; r < m; ++r) {
        FUZZ_CHECK(fabs(ub[r] - ul[r]) <= 1e-12 * bound[r] + 1e-300);
    }
    free(bound);
    free(ub);
    free(ul);
    rf_problem_destroy(loc);
}

/* Oracle on a successful solve; full = tame, documented problem. */
static void check_solution(rf_problem *p, const rf_config *cfg,
                           const double *gamma, const rf_stats *stats, int full)
{
    const int nc = p->ncon, nr = p->nrow, m = 6 * nc + nr;
    if (full) {
        FUZZ_CHECK(fuzz_all_finite(gamma, (size_t)m));
    }
    for (int i = 0; i < nc; ++i) {
        const double *gi = gamma + 6 * i;
        if (!fuzz_all_finite(gi, 6)) {
            continue;
        }
        const double tol = 1e-9 * fuzz_norm(gi, 6) + 1e-300;
        FUZZ_CHECK(rf_cone_violation(gi, p->con_mu[i], p->con_rho[i],
                                     p->con_sigma[i]) <= tol);
        if (p->con_flags[i] & RF_CONTACT_ROLL_T1) {
            FUZZ_CHECK(gi[RF_ROLL_W] == 0.0);
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
    FUZZ_CHECK(stats->iterations >= 0 && stats->iterations <= cfg->max_iter);
    FUZZ_CHECK(stats->colors >= 0);
    if (!full) {
        return;
    }
    FUZZ_CHECK(stats->residual >= 0.0 && isfinite(stats->residual));
    double res = -1.0;
    FUZZ_CHECK(rf_residual(p, cfg->model, gamma, &res, NULL) == RF_OK);
    FUZZ_CHECK(res >= 0.0 && isfinite(res));
    double *u = malloc(((size_t)m + 1) * sizeof(double));
    double *v = malloc(((size_t)p->nbody * 3 + 1) * sizeof(double));
    double *w = malloc(((size_t)p->nbody * 3 + 1) * sizeof(double));
    FUZZ_CHECK(u != NULL && v != NULL && w != NULL);
    FUZZ_CHECK(rf_problem_local_velocity(p, gamma, u, NULL) == RF_OK);
    FUZZ_CHECK(fuzz_all_finite(u, (size_t)m));
    {
        /* The solver forms u its own way (scaled products, body
           velocities maintained over a sweep's updates, u of a rescaled
           gamma), rf_residual by one plain product: both round within
           d = 1e-10 |bound| (abs_velocity_bound, with room for the
           updates' accumulation), and the residual moves by at most
           3 d / max(|r|, |gamma|, |u|) for such a change of u (the
           projection is non-expansive; the denominator moves by d too).
           Below 1e-9 the residuals are noise next to any tolerance.
           Not for Gauss-Seidel with tol > 0: it measures the residual on
           body velocities kept up to date over every sweep, whose
           rounding follows the iterates' history (large impulses that
           cancel), not the returned gamma (seen: a row velocity 31 off
           for a row diagonal J M^-1 J^T of 3.5e17, an ulp of it). */
        double *r = malloc(((size_t)m + 1) * sizeof(double));
        double *zero = calloc((size_t)m + 1, sizeof(double));
        double *bound = malloc(((size_t)m + 1) * sizeof(double));
        FUZZ_CHECK(r != NULL && zero != NULL && bound != NULL);
        FUZZ_CHECK(rf_problem_local_velocity(p, zero, r, NULL) == RF_OK);
        abs_velocity_bound(p, gamma, bound);
        const double den =
            fmax(fuzz_norm(r, (size_t)m),
                 fmax(fuzz_norm(gamma, (size_t)m), fuzz_norm(u, (size_t)m)));
        const double d = 1e-10 * fuzz_norm(bound, (size_t)m);
        const double tol = den > 0.0 ? 3.0 * d / den * (1.0 + res) : 0.0;
        const int maintained =
            cfg->tol > 0.0 && (cfg->solver == RF_SOLVER_GS ||
                               cfg->solver == RF_SOLVER_GS_COLORED);
        FUZZ_CHECK(maintained ||
                   fabs(stats->residual - res) <=
                       1e-9 * fmax(res, stats->residual) + tol + 1e-9);
        free(r);
        free(zero);
        free(bound);
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
    int psd = 1, all_set = 1;
    int dynamic[MAX_BODY] = {0};
    for (int i = 0; i < nbody; ++i) {
        rf_body_desc d;
        make_body(&g, &d, &psd);
        st = rf_problem_set_body(p, i, &d, &err);
        FUZZ_CHECK(err.status == st);
        check_set_status(st, g.wild);
        dynamic[i] = st == RF_OK && d.flags != RF_BODY_FIXED;
    }
    for (int i = 0; i < ncon; ++i) {
        rf_contact_desc c;
        make_contact(&g, nbody, &c);
        st = rf_problem_set_contact(p, i, &c, &err);
        FUZZ_CHECK(err.status == st);
        check_set_status(st, g.wild);
        all_set &= st == RF_OK;
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
            all_set &= st == RF_OK;
        }
    }

    /* Which problems rf_solve must accept: complete, no item between two
       fixed bodies, bounded rows on the same bodies as their bound. */
    int solvable = all_set;
    for (int i = 0; solvable && i < ncon; ++i) {
        const int a = p->con_body[2 * i], b = p->con_body[2 * i + 1];
        solvable = (a >= 0 && dynamic[a]) || (b >= 0 && dynamic[b]);
    }
    for (int j = 0; solvable && j < nrow; ++j) {
        const int a = p->row_body[2 * j], b = p->row_body[2 * j + 1];
        solvable = (a >= 0 && dynamic[a]) || (b >= 0 && dynamic[b]);
        const int k = p->row_bound[j];
        if (solvable && k >= 0) {
            const int ka = p->row_body[2 * k], kb = p->row_body[2 * k + 1];
            solvable = (ka == a && kb == b) || (ka == b && kb == a);
        }
    }

    const int m = 6 * ncon + nrow;
    double *gamma = malloc(((size_t)m + 1) * sizeof(double));
    FUZZ_CHECK(gamma != NULL);
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
            cfg.lipschitz = isfinite(L) ? L : 0.0;
        }
        /* the warm start: part of the bytes, or a fixed pattern */
        for (int j = 0; j < m; ++j) {
            gamma[j] = g.b.n > 0 ? num(&g, 0) : (double)(j % 3) - 1.0;
        }
        const int warm_ok =
            !cfg.warm_start || fuzz_all_finite(gamma, (size_t)m);
        rf_stats stats;
        st = rf_solve(p, &cfg, gamma, &stats, &err);
        FUZZ_CHECK(err.status == st);
        if (!solvable) {
            FUZZ_CHECK(st == RF_ERR_STATE || st == RF_ERR_INVALID ||
                       (st == RF_ERR_NONFINITE && !warm_ok));
            continue;
        }
        if (!warm_ok) {
            FUZZ_CHECK(st == RF_ERR_NONFINITE);
            continue;
        }
        FUZZ_CHECK(st == RF_OK);
        /* the next solve's start is a valid configuration */
        FUZZ_CHECK(isfinite(stats.lipschitz) && stats.lipschitz >= 0.0);
        FUZZ_CHECK(s == RF_SOLVER_APGD
                       ? stats.iterations == 0 || stats.lipschitz > 0.0
                       : stats.lipschitz == 0.0);
        check_solution(p, &cfg, gamma, &stats, !g.wild && psd);
    }
    free(gamma);
    rf_problem_destroy(p);
    return 0;
}
