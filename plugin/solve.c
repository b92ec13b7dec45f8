/*
 * rf_solve: validates the problem and the configuration, prepares work
 * memory and the start point, dispatches to a solver, and reports stats.
 * Also the pieces the solvers share: the convergence tracker (best
 * iterate, residual), per-contact step lengths and the spectral estimate
 * used for the automatic Jacobi step.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static void config_defaults(rf_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->solver = RF_SOLVER_APGD;
    cfg->model = RF_MODEL_ASSOCIATED;
    cfg->max_iter = 1000;
    cfg->tol = 1e-8;
    cfg->warm_start = 1;
    cfg->threads = 0;
    cfg->omega = 0.0;
    cfg->lambda = 1.0;
    cfg->local_iter = 20;
    cfg->residual = 1;
}

rf_status rf_config_default_sized(rf_config *cfg, size_t size)
{
    if (cfg == NULL) {
        return RF_ERR_NULL;
    }
    if (size == 0 || size > sizeof *cfg) {
        return RF_ERR_INVALID;
    }
    rf_config d;
    config_defaults(&d);
    memcpy(cfg, &d, size);
    return RF_OK;
}

/* RF_ERR_INVALID, naming the struct and both sizes, unless 0 < size <=
   own (the library's sizeof) */
static rf_status check_size(const char *what, size_t size, size_t own,
                            const char *fn, rf_error *err)
{
    if (size == 0 || size > own) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: the caller's %s has %zu bytes, this library's "
                        "%zu (built against a later rollfric header?)",
                        fn, what, size, own);
    }
    return RF_OK;
}

rf_status rf__sized_in(const rf_config *cfg, size_t cfg_size,
                       const rf_stats *stats, size_t stats_size,
                       rf_config *full, const char *fn, rf_error *err)
{
    rf_status st = RF_OK;
    if (cfg != NULL) {
        st = check_size("rf_config", cfg_size, sizeof *full, fn, err);
    }
    if (st == RF_OK && stats != NULL) {
        st = check_size("rf_stats", stats_size, sizeof *stats, fn, err);
    }
    if (st == RF_OK) {
        config_defaults(full);
        if (cfg != NULL) {
            memcpy(full, cfg, cfg_size);
        }
    }
    return st;
}

static rf_status validate(const rf_config *cfg, rf_error *err)
{
    static const char fn[] = "rf_config_validate";
    if (cfg->solver < RF_SOLVER_JACOBI || cfg->solver > RF_SOLVER_SI) {
        return rf__fail(err, RF_ERR_INVALID, "%s: unknown solver %d", fn,
                        (int)cfg->solver);
    }
    if (cfg->model != RF_MODEL_ASSOCIATED && cfg->model != RF_MODEL_DESAXCE &&
        cfg->model != RF_MODEL_PYRAMID) {
        return rf__fail(err, RF_ERR_INVALID, "%s: unknown model %d", fn,
                        (int)cfg->model);
    }
    if (!isfinite(cfg->tol) || !isfinite(cfg->omega) ||
        !isfinite(cfg->lambda) || !isfinite(cfg->apgd_lipschitz) ||
        !isfinite(cfg->jacobi_lambda_max)) {
        return rf__fail(err, RF_ERR_NONFINITE,
                        "%s: tol, omega, lambda, apgd_lipschitz or "
                        "jacobi_lambda_max is not finite",
                        fn);
    }
    if (cfg->apgd_lipschitz < 0.0 || cfg->jacobi_lambda_max < 0.0) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: apgd_lipschitz = %g or jacobi_lambda_max = %g "
                        "< 0",
                        fn, cfg->apgd_lipschitz, cfg->jacobi_lambda_max);
    }
    if (cfg->max_iter < 1) {
        return rf__fail(err, RF_ERR_INVALID, "%s: max_iter = %d < 1", fn,
                        cfg->max_iter);
    }
    if (cfg->tol < 0.0) {
        return rf__fail(err, RF_ERR_INVALID, "%s: tol = %g < 0", fn, cfg->tol);
    }
    if (cfg->tol >= 1.0) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: tol = %g >= 1 ends no solve sooner than one "
                        "sweep (the residual and SI's sweep change are "
                        "relative: zero impulses meet 1); use tol = 0 for a "
                        "fixed iteration count",
                        fn, cfg->tol);
    }
    if (cfg->omega < 0.0) {
        return rf__fail(err, RF_ERR_INVALID, "%s: omega = %g < 0", fn,
                        cfg->omega);
    }
    if (!(cfg->lambda > 0.0 && cfg->lambda <= 1.0)) {
        return rf__fail(err, RF_ERR_INVALID, "%s: lambda = %g not in (0, 1]",
                        fn, cfg->lambda);
    }
    if (cfg->local_mdp != 0 && cfg->local_mdp != 1) {
        return rf__fail(err, RF_ERR_INVALID, "%s: local_mdp = %d, not 0 or 1",
                        fn, cfg->local_mdp);
    }
    if (cfg->local_iter < 1) {
        return rf__fail(err, RF_ERR_INVALID, "%s: local_iter = %d < 1", fn,
                        cfg->local_iter);
    }
    if (cfg->residual != 0 && cfg->residual != 1) {
        return rf__fail(err, RF_ERR_INVALID, "%s: residual = %d, not 0 or 1",
                        fn, cfg->residual);
    }
    if (cfg->threads < 0) {
        return rf__fail(err, RF_ERR_INVALID, "%s: threads = %d < 0", fn,
                        cfg->threads);
    }
    /* libgomp ends the process when it cannot create the threads it was
       asked for (at 50,000 here), or crashes: a count past any machine's
       is refused before it reaches OpenMP */
    if (cfg->threads > RF_MAX_THREADS) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: threads = %d > RF_MAX_THREADS (%d)", fn,
                        cfg->threads, RF_MAX_THREADS);
    }
    if (cfg->warm_start != 0 && cfg->warm_start != 1) {
        return rf__fail(err, RF_ERR_INVALID, "%s: warm_start = %d not 0 or 1",
                        fn, cfg->warm_start);
    }
    rf__ok(err);
    return RF_OK;
}

rf_status rf_config_validate_sized(const rf_config *cfg, size_t size,
                                   rf_error *err)
{
    if (cfg == NULL) {
        return rf__fail(err, RF_ERR_NULL, "rf_config_validate: cfg is NULL");
    }
    rf_config full;
    rf_status st =
        rf__sized_in(cfg, size, NULL, 0, &full, "rf_config_validate", err);
    return st == RF_OK ? validate(&full, err) : st;
}

/* ------------------------------------------------------------------ */
/* Shared solver pieces                                                */
/* ------------------------------------------------------------------ */

void rf__tracker_init(rf_tracker *tr, const rf_config *cfg, const double *scale,
                      const double *r, int threads)
{
    tr->scale = scale;
    tr->r = r;
    tr->model = cfg->model;
    tr->tol = cfg->tol;
    tr->threads = threads;
    tr->track = cfg->tol > 0.0;
    tr->converged = 0;
    tr->kept = 0;
    tr->best_res = INFINITY;
}

void rf__tracker_update(rf_tracker *tr, rf_problem *p, const double *g,
                        const double *u)
{
    if (!tr->track) {
        return;
    }
    double res =
        rf__residual(p, tr->model, g, u, tr->r, tr->scale, tr->threads);
    if (!tr->kept || res < tr->best_res || !isfinite(tr->best_res)) {
        tr->best_res = res;
        tr->kept = 1;
        memcpy(p->work.best, g, (size_t)rf__ndof(p) * sizeof(double));
    }
    tr->converged = res <= tr->tol;
}

void rf__tracker_finish(rf_tracker *tr, rf_problem *p, double *gamma,
                        const double *g, const double *u_g, int it,
                        rf_solve_out *out)
{
    const size_t bytes = (size_t)rf__ndof(p) * sizeof(double);
    if (tr->kept) {
        memcpy(gamma, p->work.best, bytes);
        out->residual = tr->best_res;
    } else {
        /* A fixed iteration count (or no sweep accepted): the last
           iterate, its residual once. */
        memcpy(gamma, g, bytes);
        double *u = p->work.u3;
        if (u_g == NULL) {
            if (tr->scale) {
                rf__apply_scaled(p, tr->scale, gamma, tr->r, u, tr->threads);
            } else {
                rf__apply_N(p, gamma, u, 1, tr->threads);
            }
            u_g = u;
        }
        out->residual = rf__residual(p, tr->model, gamma, u_g, tr->r, tr->scale,
                                     tr->threads);
        /* u for the energy check, in the original variables */
        if (tr->scale) {
            rf__scale_vec(p, tr->scale, -1, u_g, u, tr->threads);
        } else if (u_g != u) {
            memcpy(u, u_g, bytes);
        }
        out->u_valid = 1;
    }
    out->iterations = it;
    out->converged = tr->tol > 0.0 && out->residual <= tr->tol;
}

double rf__estimate_lambda(rf_problem *p, const double *scale,
                           const double *step, double *x, double *y,
                           int threads)
{
    /* Power iteration on B^1/2 N B^1/2 from a fixed, generic start, until
       the estimate settles to 1% (at least 4, at most 16 rounds: each costs
       one N product, as much as a Jacobi iteration).  It approaches
       lambda_max from below; Jacobi needs omega < 2 / lambda_max, and
       omega = 1 / estimate leaves a factor of 2 for what is missing. */
    const int m = rf__ndof(p);
    for (int j = 0; j < m; ++j) {
        x[j] = 1.0 + 0.1 * (double)(j % 7);
    }
    double lam = 0.0, prev = 0.0;
    for (int it = 0; it < 16; ++it) {
        double nx = sqrt(rf__dot(p, x, x, threads));
        if (!(nx > RF_MINVAL)) {
            break;
        }
        for (int j = 0; j < m; ++j) {
            x[j] *= sqrt(rf__dof_item_value(p, step, j)) / nx;
        }
        if (scale) {
            rf__apply_scaled(p, scale, x, NULL, y, threads);
        } else {
            rf__apply_N(p, x, y, 0, threads);
        }
        for (int j = 0; j < m; ++j) {
            y[j] *= sqrt(rf__dof_item_value(p, step, j));
        }
        /* |A x| for the unit x of this round estimates lambda_max */
        double *t = x;
        x = y;
        y = t;
        prev = lam;
        lam = sqrt(rf__dot(p, x, x, threads));
        if (it >= 3 && fabs(lam - prev) <= 0.01 * lam) {
            break;
        }
    }
    return lam > RF_MINVAL ? lam : 1.0;
}

void rf__part_scaling(rf_problem *p, double *scale, double *step, int threads)
{
    const int ncon = p->ncon;
#pragma omp parallel for schedule(static) num_threads(threads) if (ncon > 512)
    for (int i = 0; i < ncon; ++i) {
        double A[6], d[4] = {0.0, 0.0, 0.0, 0.0};
        const double cnt[4] = {1.0, 2.0, 1.0, 2.0};
        rf__diag_entries(p, i, A);
        for (int k = 0; k < 6; ++k) {
            d[RF_PART[k]] += A[k];
        }
        double tr = 0.0; /* tr(S W_ii S): 1 per component of a live part */
        for (int q = 0; q < 4; ++q) {
            double m = d[q] / cnt[q];
            scale[4 * i + q] = m > RF_MINVAL ? 1.0 / sqrt(m) : 1.0;
            tr += m > RF_MINVAL ? cnt[q] : d[q];
        }
        if (step != NULL) {
            step[i] = tr > RF_MINVAL ? 6.0 / tr : 0.0;
        }
        /* the cone in scaled variables: (c s0) / s_part, gamma_n = s0 x_n */
        const double *s = scale + 4 * i;
        const rf__cone c = rf__contact_cone(p, i);
        double *k = p->work.wcone + 4 * i;
        k[0] = c.mu * s[0] / s[1];
        k[1] = c.rho * s[0] / s[3];
        k[2] = c.sigma * s[0] / s[2];
        k[3] = c.nmax / s[0];
    }
    const int nrow = p->nrow;
    for (int j = 0; j < nrow; ++j) { /* rows: unit diagonal of S (N+C) S */
        double d = rf__row_diag(p, j) + p->row_cfm[j];
        scale[4 * ncon + j] = d > RF_MINVAL ? 1.0 / sqrt(d) : 1.0;
        if (step != NULL) {
            step[ncon + j] = d > RF_MINVAL ? 1.0 : 0.0;
        }
    }
}

void rf__scale_vec(const rf_problem *p, const double *scale, int dir,
                   const double *x, double *out, int threads)
{
    const int ncon = p->ncon;
#pragma omp parallel for schedule(static) num_threads(threads) if (ncon > 512)
    for (int i = 0; i < ncon; ++i) {
        for (int k = 0; k < 6; ++k) {
            double s = scale[4 * i + RF_PART[k]];
            out[6 * i + k] = dir > 0 ? x[6 * i + k] * s : x[6 * i + k] / s;
        }
    }
    const int m6 = 6 * ncon, nrow = p->nrow;
    for (int j = 0; j < nrow; ++j) {
        double s = scale[4 * ncon + j];
        out[m6 + j] = dir > 0 ? x[m6 + j] * s : x[m6 + j] / s;
    }
}

void rf__apply_scaled(rf_problem *p, const double *scale, const double *x,
                      const double *rr, double *out, int threads)
{
    if (p->kind == RF_KIND_BODY) {
        rf__apply_scaled_body(p, scale, x, rr, out, threads);
        return;
    }
    const int ncon = p->ncon;
    double *sx = p->work.sx;
    rf__scale_vec(p, scale, 1, x, sx, threads);
    rf__apply_N(p, sx, out, 0, threads);
#pragma omp parallel for schedule(static) num_threads(threads) if (ncon > 512)
    for (int i = 0; i < ncon; ++i) {
        for (int k = 0; k < 6; ++k) {
            int j = 6 * i + k;
            out[j] = out[j] * scale[4 * i + RF_PART[k]] + (rr ? rr[j] : 0.0);
        }
    }
    const int m6 = 6 * ncon, nrow = p->nrow;
    for (int j = 0; j < nrow; ++j) {
        out[m6 + j] =
            out[m6 + j] * scale[4 * ncon + j] + (rr ? rr[m6 + j] : 0.0);
    }
}

void rf__apply_scaled_trial(rf_problem *p, const double *scale, const double *x,
                            const double *rr, double *out, const double *xp,
                            const double *y, const double *uy, double s[4],
                            int threads)
{
    if (p->kind == RF_KIND_BODY) {
        rf__apply_scaled_trial_body(p, scale, x, rr, out, xp, y, uy, s,
                                    threads);
        return;
    }
    rf__apply_scaled(p, scale, x, rr, out, threads);
    double *part = p->work.partial;
    const int ncon = p->ncon, ndof = rf__ndof(p);
    const int nblk = rf__num_blocks(ncon);
#pragma omp parallel for schedule(static) num_threads(threads) if (nblk > 2)
    for (int b = 0; b < nblk; ++b) {
        int lo, hi;
        rf__block_range(b, ncon, &lo, &hi);
        double a[4] = {0.0, 0.0, 0.0, 0.0};
        for (int e = 6 * lo; e < 6 * hi; ++e) {
            rf__trial_terms(x[e], out[e], rr[e], xp[e], y[e], uy[e], a);
        }
        memcpy(part + 4 * b, a, sizeof a);
    }
    double a[4];
    rf__sum_partials(part, nblk, 4, a);
    for (int e = 6 * ncon; e < ndof; ++e) { /* rows, in order */
        rf__trial_terms(x[e], out[e], rr[e], xp[e], y[e], uy[e], a);
    }
    memcpy(s, a, sizeof a);
}

/* ------------------------------------------------------------------ */
/* rf_solve                                                            */
/* ------------------------------------------------------------------ */

static double wall_seconds(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The contacts' start, gamma projected on Y into g0 (worksharing: in a
   region or called alone). */
static void start_contacts(const rf_problem *p, const double *gamma, double *g0)
{
    const int ncon = p->ncon;
#pragma omp for schedule(static)
    for (int i = 0; i < ncon; ++i) {
        const rf__cone cone = rf__contact_cone(p, i);
        rf__project6(gamma + 6 * i, &cone, g0 + 6 * i);
    }
}

/* Start point: the warm start projected on Y and the rows' intervals, or
   zero projected the same way.  Zero is in every cone and in every
   friction-bounded row's interval [-b, b], but not in a fixed interval
   that excludes it (a motor row with lo > 0): such a row starts at its
   nearest bound, so even a solve that stops at once (tol reached by the
   start) returns a feasible point.  g0 may be gamma itself. */
static void start_point(rf_problem *p, const rf_config *cfg, int threads,
                        const double *gamma, double *g0)
{
    if (!cfg->warm_start) {
        const int m6 = 6 * p->ncon;
        memset(g0, 0, (size_t)rf__ndof(p) * sizeof(double));
        for (int j = 0; j < p->nrow; ++j) {
            if (p->row_bound[j] < 0) {
                g0[m6 + j] = rf__clamp(0.0, p->row_lo[j], p->row_hi[j]);
            }
        }
        return;
    }
    /* each contact on its own: on the solve's threads (serial, it was 2%
       of a two-thread step of the full pyramid) */
    RF__PASS(threads, p->ncon > 512, start_contacts(p, gamma, g0));
    const int m6 = 6 * p->ncon;
    /* in place (SI, solve_full): a friction-bounded row's bound reads
       another row's start as it came, not as clamped here */
    const double *rows = gamma;
    if (gamma == g0 && p->nrow > 0) {
        memcpy(p->work.g2 + m6, gamma + m6, (size_t)p->nrow * sizeof(double));
        rows = p->work.g2;
    }
    for (int j = 0; j < p->nrow; ++j) {
        double lo, hi;
        rf__row_bounds(p, NULL, j, rows, &lo, &hi);
        g0[m6 + j] = rf__clamp(rows[m6 + j], lo, hi);
    }
}

/* Cohesion ("Cohesion" in rollfric.h; slides section 3): with the shift
   s (s_i = cohesion_i e_n), gamma + s in Y is a standard CCP in
   gamma~ = gamma + s whose free velocity is that of the impulses -s:
   u = (N + C) gamma + r = (N + C) gamma~ + (r - (N + C) s), C the
   compliance (Tasora 6.2).  begin writes -s to work.coh_shift and puts
   the shifted free velocity in place (body form: v* - M^-1 D s in
   body_vel, and with compliance the normal biases b_n - c_n s_n, since
   C is applied with the products, not through the bodies; local form:
   q - W s in q, W holding C), keeping the caller's in work.coh_saved
   and work.coh_bias; end restores them bit for bit.  Needs
   rf__work_reserve_cohesion, rf__refresh_cfm and the evaluation work
   (bv0). */
/* The array the shift changes: the bodies' free velocities (body form) or
   q (local form), and its length in *n. */
static double *shifted_free_velocity(rf_problem *p, size_t *n)
{
    const int body = p->kind == RF_KIND_BODY;
    *n = (size_t)(body ? 6 * p->nbody : 6 * p->ncon);
    return body ? p->body_vel : p->q;
}

void rf__cohesion_begin(rf_problem *p, int threads)
{
    rf_work *w = &p->work;
    const int ndof = rf__ndof(p), ncon = p->ncon;
    double *shift = w->coh_shift;
    memset(shift, 0, (size_t)ndof * sizeof(double));
    for (int i = 0; i < ncon; ++i) {
        shift[6 * i] = -p->con_cohesion[i];
    }
    size_t n;
    double *free_vel = shifted_free_velocity(p, &n);
    if (p->kind == RF_KIND_BODY) {
        rf__body_velocity(p, shift, w->coh_tmp, threads);
    } else {
        rf__apply_N(p, shift, w->coh_tmp, 1, threads);
    }
    memcpy(w->coh_saved, free_vel, n * sizeof(double));
    memcpy(free_vel, w->coh_tmp, n * sizeof(double));
    if (p->cfm_on) { /* body form only: C s, normal components */
        for (int i = 0; i < ncon; ++i) {
            w->coh_bias[i] = p->con_bias[6 * i];
            p->con_bias[6 * i] += p->con_cfm[6 * i] * shift[6 * i];
        }
    }
}

void rf__cohesion_end(rf_problem *p)
{
    size_t n;
    double *free_vel = shifted_free_velocity(p, &n);
    memcpy(free_vel, p->work.coh_saved, n * sizeof(double));
    if (p->cfm_on) {
        for (int i = 0; i < p->ncon; ++i) {
            p->con_bias[6 * i] = p->work.coh_bias[i];
        }
    }
}

/* gamma~ = gamma + sign s over the contacts' normal components (sign
   +1 from gamma to gamma~, -1 back). */
void rf__cohesion_shift(const rf_problem *p, double *g, double sign)
{
    for (int i = 0; i < p->ncon; ++i) {
        g[6 * i] += sign * p->con_cohesion[i];
    }
}

/* The energy check (rf_stats.energy_change / energy_scale).  With
   u = (N + C) gamma + r and r = D^T v* + b (b: the biases), the impulses
   change the kinetic energy by
     dE(gamma) = gamma . D^T v* + 1/2 gamma . N gamma = a + c / 2,
     a = gamma . (r - b),  c = gamma . (u - r) - sum_j cfm_j lambda_j^2.
   At a solution gamma . u <= 0 (complementarity: gamma in Y, u in its
   dual, or the De Saxce shift's u^ with gamma . u = -gn shift <= 0; rows:
   lambda u = 0 inside the interval, <= 0 at a bound), so dE <= -gamma . b:
   the contact solve only adds the energy its biases ask for
   (penetration recovery, restitution, conveyors, motors).  An iterate
   that adds more is scaled by alpha: dE(alpha gamma) = alpha a +
   alpha^2 c / 2 <= alpha allowed holds for alpha <= 2 (allowed - a) / c,
   and alpha gamma stays in every cone (cones are closed under positive
   scaling) and in every row interval that contains 0.  Scaling is skipped
   when a row's interval excludes 0 (it would leave its set): energy
   change still reported.  Body form only. */
static void energy_check(rf_problem *p, const rf_config *cfg, double *g,
                         int threads, rf_solve_out *out)
{
    if (out->energy_known) {
        return; /* SI without a residual: its guard's figures */
    }
    out->energy_change = 0.0;
    if (p->kind != RF_KIND_BODY) {
        return;
    }
    rf_work *w = &p->work;
    const int ncon = p->ncon, nrow = p->nrow, m6 = 6 * ncon;
    double *u = w->u3;
    if (!out->u_valid) {
        rf__apply_N(p, g, u, 1, threads);
    }
    const double gr = rf__dot(p, g, w->r, threads);
    const double gu = rf__dot(p, g, u, threads);
    double gb = 0.0, cl2 = 0.0;
    int rows_hold_zero = 1;
    for (int i = 0; i < m6; ++i) {
        gb += g[i] * p->con_bias[i];
        if (p->cfm_on) { /* compliance: not kinetic energy */
            cl2 += p->con_cfm[i] * g[i] * g[i];
        }
    }
    for (int j = 0; j < nrow; ++j) {
        const double l = g[m6 + j];
        gb += l * p->row_bias[j];
        cl2 += p->row_cfm[j] * l * l;
        rows_hold_zero &= p->row_bound[j] >= 0 ||
                          (p->row_lo[j] <= 0.0 && p->row_hi[j] >= 0.0);
    }
    const double a = gr - gb;
    const double c = (gu - gr) - cl2;
    const double allowed = gb < 0.0 ? -gb : 0.0;
    const double de = a + 0.5 * c;
    out->energy_change = de;
    /* rounding of the sums: a few ulps of the terms' size */
    const double slack =
        1e-12 * (fabs(a) + 0.5 * fabs(c) + allowed) + RF_MINVAL;
    if (!(de > allowed + slack) || !rows_hold_zero) {
        return;
    }
    double alpha = c > RF_MINVAL ? 2.0 * (allowed - a) / c : 0.0;
    if (!(alpha > 0.0)) {
        alpha = 0.0; /* even a tiny multiple adds energy: no impulse */
    } else if (alpha > 1.0) {
        alpha = 1.0; /* not reached: de > allowed means alpha < 1 */
    }
    const int m = rf__ndof(p);
    for (int j = 0; j < m; ++j) {
        g[j] *= alpha;
        u[j] = alpha * (u[j] - w->r[j]) + w->r[j]; /* u of alpha gamma */
    }
    out->energy_scale *= alpha; /* after SI's own end scaling, if any */
    out->vel_valid = 0;         /* the solver's velocities are gamma's */
    out->energy_change = alpha * a + 0.5 * alpha * alpha * c;
    if (cfg->model == RF_MODEL_PYRAMID) {
        /* the LCP's residual lives in its own variables (pyramid.c), and
           a cone residual means nothing for an impulse in the box: keep
           the LCP solution's, and say the scaled one is not converged */
        out->converged = 0;
        return;
    }
    out->residual = rf__residual(p, cfg->model, g, u, w->r, NULL, threads);
    out->converged = cfg->tol > 0.0 && out->residual <= cfg->tol;
}

/* SI on one thread (or a problem too small for its body passes to take
   threads), without a residual, the pyramid model or cohesion, uses the
   body index only in its guard's body passes (start_work: the start,
   after scale_excess, and an iterate in excess at the end), which then
   sum item by item (jacobian.c, body_pass_scatter; the same bits): the
   index is not built. */
static int skip_body_index(const rf_problem *p, const rf_config *cfg)
{
    return cfg->solver == RF_SOLVER_SI && !cfg->residual &&
           cfg->model != RF_MODEL_PYRAMID && !rf__has_cohesion(p) &&
           (rf__threads(cfg->threads) == 1 || !rf__product_parallel(p));
}

static rf_status check_solve_input(rf_problem *p, const rf_config *cfg,
                                   const double *gamma, rf_error *err)
{
    static const char fn[] = "rf_solve";
    if (p == NULL || gamma == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: %s is NULL", fn,
                        p == NULL ? "p" : "gamma");
    }
    rf_status st = validate(cfg, err);
    if (st == RF_OK) {
        st = rf__check_complete(p, fn, err);
    }
    if (st != RF_OK) {
        return st;
    }
    if (cfg->solver == RF_SOLVER_SI && p->kind != RF_KIND_BODY &&
        cfg->model != RF_MODEL_PYRAMID) {
        return rf__fail(err, RF_ERR_STATE,
                        "%s: RF_SOLVER_SI works on body velocities and needs "
                        "a body-form problem; use RF_SOLVER_GS for a "
                        "local-form one",
                        fn);
    }
    if (p->kind == RF_KIND_BODY && p->axis_on && cfg->solver == RF_SOLVER_SI &&
        cfg->model == RF_MODEL_ASSOCIATED) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: RF_SOLVER_SI with RF_MODEL_ASSOCIATED (its block "
                        "step) does not take axis scales "
                        "(rf_problem_set_sliding_scales, "
                        "rf_problem_set_rolling_scales); use RF_MODEL_DESAXCE "
                        "or another solver",
                        fn);
    }
    if (cfg->warm_start && !rf__all_finite(gamma, (size_t)rf__ndof(p))) {
        return rf__fail(err, RF_ERR_NONFINITE,
                        "%s: the warm start gamma has a non-finite entry", fn);
    }
    st = rf__work_reserve(p, rf__solver_vecs(p, cfg->solver), err);
    if (st == RF_OK && p->kind == RF_KIND_BODY) {
        if (skip_body_index(p, cfg)) {
            p->work.bc_valid = 0;
        } else {
            st = rf__build_body_index(p, err);
        }
    }
    rf__refresh_cfm(p);
    if (st == RF_OK &&
        (cfg->solver == RF_SOLVER_GS || cfg->solver == RF_SOLVER_GS_COLORED)) {
        st = rf__work_reserve_blocks(p, err);
    }
    if (st == RF_OK &&
        (cfg->solver == RF_SOLVER_GS_COLORED || cfg->solver == RF_SOLVER_SI)) {
        st = rf__work_reserve_colors(p, err);
    }
    if (st == RF_OK && cfg->solver == RF_SOLVER_SI) {
        st = rf__work_reserve_si(p, cfg->model, rf__threads(cfg->threads), err);
    }
    if (st == RF_OK && p->kind == RF_KIND_BODY) {
        st = rf__work_reserve_solved(p, err);
    }
    if (st == RF_OK && cfg->model == RF_MODEL_PYRAMID) {
        st = rf__check_pyramid(p, err);
    }
    return st;
}

/* rf_solve on full-size structs (cfg NULL: the defaults) */
static rf_status solve_full(rf_problem *p, const rf_config *cfg_in,
                            double *gamma, rf_stats *stats, rf_error *err)
{
    rf_config defaults;
    config_defaults(&defaults);
    const rf_config *cfg = cfg_in ? cfg_in : &defaults;
    rf_status st = check_solve_input(p, cfg, gamma, err);
    if (st != RF_OK) {
        return st;
    }
    const double t0 = wall_seconds();
    const int threads = rf__threads(cfg->threads);
    p->threads = threads;
    rf_work *w = &p->work;
    rf_solve_out out;
    memset(&out, 0, sizeof out);
    out.energy_scale = 1.0;

    const int cohesive = rf__has_cohesion(p);
    if (cohesive) {
        st = rf__work_reserve_cohesion(p, err);
        if (st != RF_OK) {
            return st;
        }
        rf__cohesion_begin(p, threads);
    }
    const size_t ndof = (size_t)rf__ndof(p);
    /* The solvers' gamma argument: an array none of them uses inside
       (Jacobi and GS use g0, g1, g3; APGD uses g0..g2).  The start goes
       in work (g), so the caller's array stays untouched until success;
       but SI (outside the pyramid model) cannot fail once the input
       passed its checks, so it iterates in the caller's array itself
       (the start projected in place), and the copy back is saved (a
       contact's six impulses: 550 kB on the full pyramid, 0.7% of its
       step). */
    const int in_place =
        cfg->solver == RF_SOLVER_SI && cfg->model != RF_MODEL_PYRAMID;
    double *g = in_place                        ? gamma
                : cfg->solver == RF_SOLVER_APGD ? w->g3
                                                : w->g2;
    if (cohesive && cfg->warm_start) { /* the warm start in gamma~ */
        double *shifted = w->best;     /* free until a solver's start */
        memcpy(shifted, gamma, ndof * sizeof(double));
        rf__cohesion_shift(p, shifted, 1.0);
        start_point(p, cfg, threads, shifted, g);
    } else {
        start_point(p, cfg, threads, gamma, g);
    }
    /* r = D^T v* + b: SI without a residual needs none (its start's work
       comes from the bodies, its energy from its guard) */
    if (cfg->solver != RF_SOLVER_SI || cfg->residual ||
        cfg->model == RF_MODEL_PYRAMID) {
        rf__free_velocity(p, w->r, threads);
    }
    if (ndof == 0) {
        /* nothing touches: no sweep, residual 0; the carried step
           constants stay what they were */
        out.converged = cfg->tol > 0.0;
        out.lipschitz = cfg->solver == RF_SOLVER_APGD ? cfg->apgd_lipschitz
                        : cfg->omega == 0.0           ? cfg->jacobi_lambda_max
                                                      : 0.0;
    } else if (cfg->model == RF_MODEL_PYRAMID) {
        rf__solve_pyramid(p, cfg, threads, g, &out, err, &st);
        if (st != RF_OK) {
            if (cohesive) {
                rf__cohesion_end(p);
            }
            return st; /* gamma untouched */
        }
    } else {
        switch (cfg->solver) {
        case RF_SOLVER_JACOBI:
            rf__solve_jacobi(p, cfg, threads, g, &out);
            break;
        case RF_SOLVER_GS:
        case RF_SOLVER_GS_COLORED:
            rf__solve_gs(p, cfg, threads, g, &out);
            break;
        case RF_SOLVER_APGD: rf__solve_apgd(p, cfg, threads, g, &out); break;
        case RF_SOLVER_SI: rf__solve_si(p, cfg, threads, g, &out); break;
        }
    }
    energy_check(p, cfg, g, threads, &out);
    if (cohesive) {
        rf__cohesion_shift(p, g, -1.0);
        rf__cohesion_end(p);
    }
    if (g != gamma) {
        memcpy(gamma, g, ndof * sizeof(double));
    }
    if (p->kind == RF_KIND_BODY) { /* rf_problem_solved_velocity */
        w->solved_rev = p->revision;
        if (out.vel_valid) {
            memcpy(w->solved_vel, w->bv1,
                   (size_t)6 * p->nbody * sizeof(double));
            w->solved = 2;
        } else { /* computed from gamma when asked */
            memcpy(w->solved_g, g, ndof * sizeof(double));
            w->solved = 1;
        }
    }
    if (stats != NULL) {
        stats->contacts = p->ncon;
        stats->rows = rf__ndof(p);
        stats->iterations = out.iterations;
        stats->residual = out.residual;
        stats->converged = out.converged;
        stats->colors = out.colors;
        stats->energy_change = out.energy_change;
        stats->energy_scale = out.energy_scale;
        /* the solver's own step constant (rf_solve_out.lipschitz) */
        stats->apgd_lipschitz =
            cfg->solver == RF_SOLVER_APGD ? out.lipschitz : 0.0;
        stats->jacobi_lambda_max =
            cfg->solver == RF_SOLVER_JACOBI ? out.lipschitz : 0.0;
        stats->skipped_bodies = 0;
        stats->skipped_contacts = 0;
        stats->skipped_rows = 0;
        stats->seconds = wall_seconds() - t0;
    }
    rf__ok(err);
    return RF_OK;
}

rf_status rf_solve_sized(rf_problem *p, const rf_config *cfg, size_t cfg_size,
                         double *gamma, rf_stats *stats, size_t stats_size,
                         rf_error *err)
{
    rf_config full;
    rf_stats out;
    rf_status st =
        rf__sized_in(cfg, cfg_size, stats, stats_size, &full, "rf_solve", err);
    if (st == RF_OK) {
        st = solve_full(p, &full, gamma, stats != NULL ? &out : NULL, err);
    }
    if (st == RF_OK && stats != NULL) {
        memcpy(stats, &out, stats_size);
    }
    return st;
}

/* What a sequence of solves carries (rf_carry_create): APGD's and
   Jacobi's step constants (rf_stats' of their last solve; 0: none yet)
   and the count of Jacobi solves with automatic omega. */
struct rf_carry {
    double apgd_lipschitz, jacobi_lambda_max;
    unsigned jacobi_solves;
};

rf_status rf_carry_create(rf_carry **out, rf_error *err)
{
    if (out == NULL) {
        return rf__fail(err, RF_ERR_NULL, "rf_carry_create: out is NULL");
    }
    *out = calloc(1, sizeof **out);
    if (*out == NULL) {
        return rf__fail(err, RF_ERR_NOMEM, "rf_carry_create: out of memory");
    }
    rf__ok(err);
    return RF_OK;
}

void rf_carry_destroy(rf_carry *c)
{
    free(c);
}

void rf_carry_reset(rf_carry *c)
{
    if (c != NULL) {
        memset(c, 0, sizeof *c);
    }
}

rf_status rf_solve_carried_sized(rf_problem *p, const rf_config *cfg_in,
                                 size_t cfg_size, rf_carry *carry,
                                 double *gamma, rf_stats *stats,
                                 size_t stats_size, rf_error *err)
{
    rf_config cfg;
    rf_status status = rf__sized_in(cfg_in, cfg_size, stats, stats_size, &cfg,
                                    "rf_solve_carried", err);
    if (status != RF_OK) {
        return status;
    }
    rf_stats out;
    rf_stats *full = stats != NULL ? &out : NULL;
    if (carry == NULL || cfg.solver < RF_SOLVER_JACOBI ||
        cfg.solver > RF_SOLVER_SI) {
        status = solve_full(p, &cfg, gamma, full, err); /* its checks */
    } else {
        /* The application's start wins; else the carried one: APGD saves
           one N product and most backtracking per solve; Jacobi with
           automatic omega its power iteration (4-16 products) on all but
           one solve in RF_CARRY_JACOBI_ESTIMATE_EVERY: the solve only
           raises lambda (on an iteration that proves omega too long,
           solver_jacobi.c), so a scene that grew softer would otherwise
           keep a short step. */
        if (cfg.solver == RF_SOLVER_APGD && cfg.apgd_lipschitz == 0.0) {
            cfg.apgd_lipschitz = carry->apgd_lipschitz;
        } else if (cfg.solver == RF_SOLVER_JACOBI && cfg.omega == 0.0 &&
                   cfg.jacobi_lambda_max == 0.0 &&
                   carry->jacobi_solves++ % RF_CARRY_JACOBI_ESTIMATE_EVERY !=
                       0) {
            cfg.jacobi_lambda_max = carry->jacobi_lambda_max;
        }
        full = &out; /* the constants are read back even without stats */
        status = solve_full(p, &cfg, gamma, full, err);
        if (status == RF_OK && cfg.solver == RF_SOLVER_APGD) {
            carry->apgd_lipschitz = out.apgd_lipschitz;
        } else if (status == RF_OK && cfg.solver == RF_SOLVER_JACOBI) {
            carry->jacobi_lambda_max = out.jacobi_lambda_max;
        }
    }
    if (status == RF_OK && stats != NULL) {
        memcpy(stats, &out, stats_size);
    }
    return status;
}
