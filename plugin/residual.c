/*
 * Deterministic reductions and the natural-map residual.
 *
 * Sums over contacts are formed per fixed block of RF_REDUCE_BLOCK
 * contacts (in parallel) and the block partials are then added in block
 * order on one thread: the result is the same bit for bit whatever the
 * number of threads (STYLE: "combine per-thread partial sums in a fixed
 * order instead of reduction clauses").
 *
 * Residual (Siconos' measure):
 *   sqrt(sum_i |gamma_i - Proj_Y(gamma_i - u_hat_i)|^2)
 *     / max(|r|, |gamma|, |u|)
 * with u_hat = u for the associated model and u_hat = u + (mu|u_t| +
 * rho|w_r| + sigma|w_n|, 0, ...) for De Saxce (Acary Prop. 3.1, (61)).
 */
#include "internal.h"

#include <math.h>

#include <string.h>

/* rf__dot's blocks' sums, worksharing (in its region or called alone). */
static void dot_blocks(const double *a, const double *b, int ndof, int nblk,
                       double *part)
{
#pragma omp for schedule(static)
    for (int k = 0; k < nblk; ++k) {
        int lo, hi;
        rf__dof_block_range(k, ndof, &lo, &hi);
        double s = 0.0;
        for (int j = lo; j < hi; ++j) {
            s += a[j] * b[j];
        }
        part[k] = s;
    }
}

double rf__dot(const rf_problem *p, const double *a, const double *b,
               int threads)
{
    double *part = p->work.partial;
    const int ndof = rf__ndof(p), nblk = rf__dof_blocks(ndof);
    RF__PASS(threads, nblk > 2, dot_blocks(a, b, ndof, nblk, part));
    double s;
    rf__sum_partials(part, nblk, 1, &s);
    return s;
}

/* Natural-map defect of one contact: |gamma - Proj(gamma - u_hat)|^2. */
static double contact_defect2(const rf_problem *p, rf_model model, int i,
                              const double *g, const double *u)
{
    const rf__cone cone = rf__contact_cone(p, i);
    double z[6], pz[6];
    double shift =
        model == RF_MODEL_DESAXCE ? rf__desaxce_shift(u, &cone) : 0.0;
    for (int k = 0; k < 6; ++k) {
        z[k] = g[k] - u[k];
    }
    z[0] -= shift;
    rf__project6(z, &cone, pz);
    double d2 = 0.0;
    for (int k = 0; k < 6; ++k) {
        double d = g[k] - pz[k];
        d2 += d * d;
    }
    return d2;
}

double rf__residual(const rf_problem *p, rf_model model, const double *gamma,
                    const double *u, const double *r, const double *scale,
                    int threads)
{
    double *part = p->work.partial;
    const int ncon = p->ncon, nitem = rf__nitem(p), m6 = 6 * ncon;
    const int nblk = rf__num_blocks(nitem);
#pragma omp parallel for schedule(static) num_threads(threads) if (nblk > 2)
    for (int k = 0; k < nblk; ++k) {
        int lo, hi;
        rf__block_range(k, nitem, &lo, &hi);
        double s[4] = {0.0, 0.0, 0.0, 0.0};
        for (int i = lo < ncon ? ncon : lo; i < hi; ++i) {
            /* row j: lambda - clamp(lambda - u, lo, hi), back in the
               original variables (the bounds follow the iterate) */
            const int j = i - ncon;
            const double sc = scale ? scale[4 * ncon + j] : 1.0;
            const double g = gamma[m6 + j] * sc, ui = u[m6 + j] / sc,
                         ri = r[m6 + j] / sc;
            double blo, bhi;
            rf__row_bounds(p, scale, j, gamma, &blo, &bhi);
            blo *= sc;
            bhi *= sc;
            const double d = g - rf__clamp(g - ui, blo, bhi);
            s[0] += d * d;
            s[1] += ri * ri;
            s[2] += g * g;
            s[3] += ui * ui;
        }
        if (hi > ncon) {
            hi = ncon;
        }
        for (int i = lo; i < hi; ++i) {
            double g[6], ui[6], ri[6], inv[4] = {1.0, 1.0, 1.0, 1.0};
            if (scale) { /* one division per part, not per component */
                for (int c = 0; c < 4; ++c) {
                    inv[c] = 1.0 / scale[4 * i + c];
                }
            }
            for (int c = 0; c < 6; ++c) { /* back to the original variables */
                double sc = scale ? scale[4 * i + RF_PART[c]] : 1.0;
                g[c] = gamma[6 * i + c] * sc;
                ui[c] = u[6 * i + c] * inv[RF_PART[c]];
                ri[c] = r[6 * i + c] * inv[RF_PART[c]];
            }
            s[0] += contact_defect2(p, model, i, g, ui);
            for (int c = 0; c < 6; ++c) {
                s[1] += ri[c] * ri[c];
                s[2] += g[c] * g[c];
                s[3] += ui[c] * ui[c];
            }
        }
        memcpy(part + 4 * k, s, sizeof s);
    }
    double s[4];
    rf__sum_partials(part, nblk, 4, s);
    double den = sqrt(fmax(s[1], fmax(s[2], s[3])));
    if (!(den > RF_MINVAL)) {
        den = 1.0; /* all zero: report the absolute defect */
    }
    return sqrt(s[0]) / den;
}

/* Shared entry checks of the functions below: p ready, gamma finite, and
   the body index / work memory in place. */
static rf_status prepare_eval(rf_problem *p, const double *gamma,
                              const void *out, const char *fn, rf_error *err)
{
    if (p == NULL || gamma == NULL || out == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: %s is NULL", fn,
                        p == NULL       ? "p"
                        : gamma == NULL ? "gamma"
                                        : "output");
    }
    rf_status st = rf__check_complete(p, fn, err);
    if (st != RF_OK) {
        return st;
    }
    if (!rf__all_finite(gamma, (size_t)rf__ndof(p))) {
        return rf__fail(err, RF_ERR_NONFINITE,
                        "%s: gamma has a non-finite entry", fn);
    }
    st = rf__work_reserve(p, RF__VEC_U0 | RF__VEC_U1, err); /* rf_residual */
    if (st == RF_OK && p->kind == RF_KIND_BODY) {
        st = rf__build_body_index(p, err);
    }
    rf__refresh_cfm(p);
    return st;
}

rf_status rf_problem_local_velocity(rf_problem *p, const double *gamma,
                                    double *u, rf_error *err)
{
    rf_status st = prepare_eval(p, gamma, u, "rf_problem_local_velocity", err);
    if (st != RF_OK) {
        return st;
    }
    rf__apply_N(p, gamma, u, 1, rf__threads(p->threads));
    rf__ok(err);
    return RF_OK;
}

/* Body velocities, 6 per body (linear, angular), into v and w (3 each). */
static void split_body_velocity(const rf_problem *p, const double *vel,
                                double *v, double *w)
{
    for (int b = 0; b < p->nbody; ++b) {
        memcpy(v + 3 * b, vel + 6 * b, 3 * sizeof(double));
        memcpy(w + 3 * b, vel + 6 * b + 3, 3 * sizeof(double));
    }
}

rf_status rf_problem_body_velocity(rf_problem *p, const double *gamma,
                                   double *v, double *w, rf_error *err)
{
    static const char fn[] = "rf_problem_body_velocity";
    if (v == NULL || w == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: %s is NULL", fn,
                        v == NULL ? "v" : "w");
    }
    rf_status st = prepare_eval(p, gamma, v, fn, err);
    if (st == RF_OK && p->kind != RF_KIND_BODY) {
        st =
            rf__fail(err, RF_ERR_STATE, "%s: the problem is in local form", fn);
    }
    if (st != RF_OK) {
        return st;
    }
    double *vel = p->work.bv1;
    rf__body_velocity(p, gamma, vel, rf__threads(p->threads));
    split_body_velocity(p, vel, v, w);
    rf__ok(err);
    return RF_OK;
}

rf_status rf_problem_solved_velocity(rf_problem *p, double *v, double *w,
                                     rf_error *err)
{
    static const char fn[] = "rf_problem_solved_velocity";
    if (p == NULL || v == NULL || w == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: %s is NULL", fn,
                        p == NULL   ? "p"
                        : v == NULL ? "v"
                                    : "w");
    }
    rf_work *wk = &p->work;
    if (p->kind != RF_KIND_BODY) {
        return rf__fail(err, RF_ERR_STATE,
                        "%s: the problem is not in body form", fn);
    }
    if (wk->solved == 0 || wk->solved_rev != p->revision) {
        return rf__fail(err, RF_ERR_STATE,
                        "%s: no rf_solve since the problem last changed", fn);
    }
    if (wk->solved == 1) { /* the body index is the solve's: same revision */
        rf__body_velocity(p, wk->solved_g, wk->solved_vel,
                          rf__threads(p->threads));
        wk->solved = 2;
    }
    split_body_velocity(p, wk->solved_vel, v, w);
    rf__ok(err);
    return RF_OK;
}

rf_status rf_problem_plastic_flow(rf_problem *p, const double *gamma, double h,
                                  double *flow, rf_error *err)
{
    static const char fn[] = "rf_problem_plastic_flow";
    rf_status st = prepare_eval(p, gamma, flow, fn, err);
    if (st == RF_OK && p->kind != RF_KIND_BODY) {
        st =
            rf__fail(err, RF_ERR_STATE, "%s: the problem is in local form", fn);
    }
    if (st == RF_OK && !(isfinite(h) && h > 0.0)) {
        st = rf__fail(err, isfinite(h) ? RF_ERR_INVALID : RF_ERR_NONFINITE,
                      "%s: h = %g is not positive and finite", fn, h);
    }
    if (st != RF_OK) {
        return st;
    }
    int capped = 0;
    for (int i = 0; i < p->ncon && !capped; ++i) {
        capped = p->con_nmax[i] > 0.0;
    }
    memset(flow, 0, (size_t)p->ncon * sizeof(double));
    if (!capped) {
        rf__ok(err);
        return RF_OK;
    }
    double *vel = p->work.bv1;
    rf__body_velocity(p, gamma, vel, rf__threads(p->threads));
    for (int i = 0; i < p->ncon; ++i) {
        const double cap = p->con_nmax[i], gn = gamma[6 * i];
        /* at the cap to the solver's accuracy (a tolerance-driven solve
           leaves the impulse ~1e-8 relative below the exact cap) */
        if (!(cap > 0.0 && gn >= cap * (1.0 - 1e-6))) {
            continue;
        }
        /* u_n = n . (v_A + w_A x r_A - v_B - w_B x r_B) + c_n gn + b_n */
        const double *n = p->con_frame + 9 * i;
        double un = p->con_bias[6 * i];
        if (p->cfm_on) {
            un += p->con_cfm[6 * i] * gn;
        }
        for (int s = 0; s < 2; ++s) {
            const int b = p->con_body[2 * i + s];
            if (b == RF_WORLD) {
                continue;
            }
            const double *v = vel + 6 * b, *w = v + 3;
            const double *r = p->con_arm + 6 * i + 3 * s;
            double wr[3];
            rf__cross3(w, r, wr);
            const double vn = n[0] * (v[0] + wr[0]) + n[1] * (v[1] + wr[1]) +
                              n[2] * (v[2] + wr[2]);
            un += s == 0 ? vn : -vn;
        }
        /* slides section 3: at the yield cap the velocity defect -u_n is
           the plastic flow rate, y_P += h ydot_P */
        flow[i] = un < 0.0 ? -h * un : 0.0;
    }
    rf__ok(err);
    return RF_OK;
}

rf_status rf_residual(rf_problem *p, rf_model model, const double *gamma,
                      double *residual, rf_error *err)
{
    static const char fn[] = "rf_residual";
    if (model != RF_MODEL_ASSOCIATED && model != RF_MODEL_DESAXCE) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: model %d has no cone residual (the pyramid "
                        "model reports its LCP residual in rf_stats)",
                        fn, (int)model);
    }
    rf_status st = prepare_eval(p, gamma, residual, fn, err);
    if (st != RF_OK) {
        return st;
    }
    double *u = p->work.u0, *r = p->work.u1;
    const int threads = rf__threads(p->threads);
    const int cohesive = rf__has_cohesion(p);
    const double *g = gamma;
    if (cohesive) {
        /* the shifted problem's residual, as rf_solve reports it: gamma~
           = gamma + s (in work.best, free here) and r - N s; u is the
           same */
        st = rf__work_reserve(p, RF__VEC_BEST, err);
        if (st == RF_OK) {
            st = rf__work_reserve_cohesion(p, err);
        }
        if (st != RF_OK) {
            return st;
        }
        double *gt = p->work.best;
        memcpy(gt, gamma, (size_t)rf__ndof(p) * sizeof(double));
        rf__cohesion_shift(p, gt, 1.0);
        rf__cohesion_begin(p, threads);
        g = gt;
    }
    rf__apply_N(p, g, u, 1, threads);
    rf__free_velocity(p, r, threads);
    *residual = rf__residual(p, model, g, u, r, NULL, threads);
    if (cohesive) {
        rf__cohesion_end(p);
    }
    rf__ok(err);
    return RF_OK;
}
