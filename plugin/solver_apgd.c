/*
 * APGD: Nesterov's accelerated projected gradient descent with step
 * estimation, backtracking and adaptive restart, on the QP (Tasora (42))
 *
 *   min 1/2 gamma^T N gamma + r^T gamma,  gamma in Y,
 *
 * after Mazhar, Heyn, Negrut & Tasora (2015), "Using Nesterov's method to
 * accelerate multibody dynamics with friction and contact", Alg. 2:
 *
 *   x_{k+1} = Proj(y_k - t_k (N y_k + r))        backtrack: L <- 2L until
 *             f(x_{k+1}) <= f(y_k) + g^T d + L/2 |d|^2,  d = x_{k+1} - y_k
 *   theta_{k+1} = (-theta_k^2 + theta_k sqrt(theta_k^2 + 4)) / 2
 *   beta = theta_k (1 - theta_k) / (theta_k^2 + theta_{k+1})
 *   y_{k+1} = x_{k+1} + beta (x_{k+1} - x_k)
 *   restart (y = x, theta = 1) when g^T (x_{k+1} - x_k) > 0
 *   L <- 0.9 L after each iteration; keep the iterate of least residual
 *   (with tol > 0; a fixed iteration count keeps the iterate of least
 *   gradient mapping: apgd()).  A solve iterates at least once and
 *   never returns its start, which a loose tol may accept as it is.
 *
 * The first L is rf_config.apgd_lipschitz when given (the previous time
 * step's rf_stats.apgd_lipschitz, 0.9 x its largest accepted L), else Mazhar's
 * estimate |N (x0 - 1)| / |x0 - 1|, one product more.  A given start
 * is taken as at least 1: part scaling gives every normal diagonal entry
 * of N' the value 1, so L_max(N') >= 1, and a start far below (it comes
 * down by 0.9 per iterating solve while the solves are easy) would need
 * more doublings than backtracking allows.
 *
 * One iteration costs one N product (plus one per backtracking step): we
 * keep U_x = N x + r, and N y + r follows from U_x by the same linear
 * combination as y.
 *
 * The iteration runs in part-scaled variables (internal.h, "part
 * scaling"): gamma' = S^-1 gamma, N' = S N S, r' = S r, cone coefficients
 * mu s_n / s_t, ...  With a unit diagonal, forces and torques weigh alike
 * and the Lipschitz constant no longer comes from the 1/I terms alone
 * (8x fewer iterations on a rolling pack).  Residuals are measured in the
 * original variables.
 *
 * The De Saxce model is not a QP.  It is solved as a fixed point on the
 * shift s_i = mu|u_t| + rho|w_r| + sigma|w_n| (Acary §3 / the "Cadoux"
 * fixed point): with s frozen, the problem is the associated CCP with
 * r_n + s, solved by APGD warm-started from the last iterate; s is then
 * re-evaluated until the De Saxce residual meets the tolerance.
 *
 * Rows (joints) are part of the same QP, with the interval [lo, hi] as
 * their set (a friction-bounded row takes its bound from the point being
 * projected) and no De Saxce shift.
 *
 * Work: g0 = x_k, g1 = x_{k+1}, g2 = y, u0 = U_x, u1 = U_{x_{k+1}},
 * u2 = U_y, u3 = shifted r, rs = S r, sx = scratch, wscale = S, step =
 * the De Saxce shift, r, best.  All sums use the
 * block-ordered partials, so the iterates do not depend on the thread
 * count.
 */
#include "internal.h"

#include <string.h>

typedef struct apgd_run {
    rf_problem *p;
    const double *scale; /* part scaling: the iteration runs on gamma' */
    const double *rr;    /* the r of the QP being solved (scaled) */
    double tol;          /* on the associated residual of (N, rr) */
    int max_iter;
    int threads;
    int must_iterate; /* 1: at least one iteration, and the start is not
                         a candidate for the result (it may be zero, or
                         a warm start that already meets a loose tol:
                         returning it would apply no impulse) */
    double L0;        /* the step constant to start from; 0: estimate it */
    double Lmax;      /* out: the largest step constant accepted so far */
} apgd_run;

/* out = S N S x + rr (rr may be NULL). */
static void apply_op(const apgd_run *run, const double *x, const double *rr,
                     double *out)
{
    rf__apply_scaled(run->p, run->scale, x, rr, out, run->threads);
}

/* xn = Proj(y - t Uy), per contact, on the scaled cones. */
static void project_step(const apgd_run *run, const double *y, const double *Uy,
                         double t, double *xn)
{
    const rf_problem *p = run->p;
    const int ncon = p->ncon;
#pragma omp parallel for schedule(static)                                      \
    num_threads(run->threads) if (ncon > 512)
    for (int i = 0; i < ncon; ++i) {
        double z[6];
        const rf__cone cone = rf__scaled_cone(p, i);
        for (int k = 0; k < 6; ++k) {
            z[k] = y[6 * i + k] - t * Uy[6 * i + k];
        }
        rf__project6(z, &cone, xn + 6 * i);
    }
    const int nrow = p->nrow, m6 = 6 * ncon;
    for (int j = 0; j < nrow; ++j) { /* rows: clamp on [lo, hi] */
        double lo, hi;
        rf__row_bounds(p, run->scale, j, y, &lo, &hi);
        xn[m6 + j] = rf__clamp(y[m6 + j] - t * Uy[m6 + j], lo, hi);
    }
}

/* The extrapolation and the next iteration's first trial in one sweep
   (apgd()): with x = x_{k+1} and xo = x_k,
     y = x + beta (x - xo), Uy = Ux + beta (Ux - Uxo)   (written),
     xo <- Proj(y - t Uy)                              (the trial xn),
   each contact's entries of xo read before they are written; returns
   f(y) = 1/2 y.(Uy + rr), summed per fixed block of contacts, then the
   rows (whose bounds may read any contact's y: done after them). */
static double extrapolate_project(const apgd_run *run, const double *x,
                                  double *xo, const double *Ux,
                                  const double *Uxo, double beta, double t,
                                  double *y, double *Uy)
{
    const rf_problem *p = run->p;
    const double *rr = run->rr;
    double *part = p->work.partial;
    const int ncon = p->ncon, nrow = p->nrow, m6 = 6 * ncon;
    const int nblk = rf__num_blocks(ncon);
#pragma omp parallel for schedule(static)                                      \
    num_threads(run->threads) if (nblk > 2)
    for (int b = 0; b < nblk; ++b) {
        int lo, hi;
        rf__block_range(b, ncon, &lo, &hi);
        double f = 0.0;
        for (int i = lo; i < hi; ++i) {
            double z[6];
            for (int k = 0; k < 6; ++k) {
                const int e = 6 * i + k;
                const double yk = x[e] + beta * (x[e] - xo[e]);
                const double uk = Ux[e] + beta * (Ux[e] - Uxo[e]);
                y[e] = yk;
                Uy[e] = uk;
                f += yk * (uk + rr[e]);
                z[k] = yk - t * uk;
            }
            const rf__cone cone = rf__scaled_cone(p, i);
            rf__project6(z, &cone, xo + 6 * i);
        }
        part[b] = f;
    }
    double f;
    rf__sum_partials(part, nblk, 1, &f);
    for (int j = 0; j < nrow; ++j) {
        const int e = m6 + j;
        y[e] = x[e] + beta * (x[e] - xo[e]);
        Uy[e] = Ux[e] + beta * (Ux[e] - Uxo[e]);
        f += y[e] * (Uy[e] + rr[e]);
    }
    for (int j = 0; j < nrow; ++j) { /* rows: clamp on [lo, hi] */
        double lo, hi;
        rf__row_bounds(p, run->scale, j, y, &lo, &hi);
        xo[m6 + j] = rf__clamp(y[m6 + j] - t * Uy[m6 + j], lo, hi);
    }
    return 0.5 * f;
}

/* Initial Lipschitz estimate |N (x0 - 1)| / |x0 - 1| (Mazhar Alg. 2).
   Scratch: g1, u1 (free before the first iteration). */
static double initial_L(const apgd_run *run, const double *x0)
{
    rf_problem *p = run->p;
    rf_work *w = &p->work;
    const int m = rf__ndof(p);
    for (int j = 0; j < m; ++j) {
        w->g1[j] = x0[j] - 1.0;
    }
    apply_op(run, w->g1, NULL, w->u1);
    double num = rf__dot(p, w->u1, w->u1, run->threads);
    double den = rf__dot(p, w->g1, w->g1, run->threads);
    double L = sqrt(num / fmax(den, RF_MINVAL));
    return (isfinite(L) && L > RF_MINVAL) ? L : 1.0;
}

/* One APGD solve of (N, run->rr) from gamma (in Y).  Returns iterations;
   gamma receives the kept iterate (least residual when tol > 0; least
   gradient mapping, or the start, when tol = 0; never the start when
   run->must_iterate), *res its associated residual, *u_kept the work
   array holding its S N S gamma + rr, or NULL where that was not kept
   (tol > 0, or the start returned). */
static int apgd(apgd_run *run, double *gamma, double *res,
                const double **u_kept)
{
    rf_problem *p = run->p;
    rf_work *w = &p->work;
    const size_t bytes = (size_t)rf__ndof(p) * sizeof(double);
    const double *rr = run->rr;
    double *x = w->g0, *xn = w->g1, *y = w->g2;
    double *Ux = w->u0, *Uxn = w->u1, *Uy = w->u2;

    /* APGD is not monotone, so an iterate is kept.  With a tolerance it
       is the one of least residual (one more cone projection per contact
       per iteration).  With tol = 0 (a fixed iteration count) it is the
       x_{k+1} of least gradient mapping |y_k - x_{k+1}| / t_k, the
       natural-map defect at y_k with step t_k (Mazhar et al. 2015, §3.2,
       use it as APGD's own residual): the trial sums already have it, so the
       choice is free; the kept iterate's true residual is computed once at
       the end and compared with the start's, and the better of the two is
       returned.  (Returning the last iterate instead left a residual 3x
       larger after 10 warm-started iterations on a settled pile.) */
    const int track = run->tol > 0.0;
    double best_gm = INFINITY;
    /* the kept iterate is the current x (Ux valid), else it is in
       w->best */
    int best_is_x = 1;
    /* a start from the previous solve (rf_config.apgd_lipschitz) saves
       initial_L's product; on a settled pile Mazhar's estimate was 4x
       too small and cost three backtracking products per solve */
    double L = run->L0 > 0.0 ? fmax(run->L0, 1.0) : initial_L(run, gamma);
    run->Lmax = L > run->Lmax ? L : run->Lmax;
    memcpy(x, gamma, bytes);
    apply_op(run, x, rr, Ux);
    /* the start's residual: with tol > 0 the first kept iterate; with tol
       = 0 the start stays a candidate (gamma holds it until the end).
       Neither when the run must iterate: the first iterate is then kept
       whatever its residual. */
    const int start_counts = !run->must_iterate;
    double best = start_counts ? rf__residual(p, RF_MODEL_ASSOCIATED, x, Ux, rr,
                                              run->scale, run->threads)
                               : INFINITY;
    const double start_res = best;
    if (track && start_counts) {
        memcpy(w->best, x, bytes);
    }
    memcpy(y, x, bytes);
    memcpy(Uy, Ux, bytes);
    double fy = 0.5 * rf__dot(p, y, Uy, run->threads) +
                0.5 * rf__dot(p, y, rr, run->threads);
    double theta = 1.0, beta = 0.0;
    int it = 0;
    /* Per iteration: extrapolate_project (y, Uy and the first trial x+),
       then the product of x+ with the trial sums (rf__apply_scaled_trial;
       body form takes the sums in the product's own contact pass).  The
       extrapolation is pending until the next iteration's first trial,
       and skipped after the last. */
    int pending = 0;
    while (it < run->max_iter && !(track && best <= run->tol)) {
        /* best is infinite until an iterate is kept (must_iterate) */
        double s[4];
        for (int bt = 0; bt < 60; ++bt) {
            if (pending) { /* y, Uy and the first trial in one sweep */
                fy = extrapolate_project(run, x, xn, Ux, Uxn, beta, 1.0 / L, y,
                                         Uy);
                pending = 0;
            } else {
                project_step(run, y, Uy, 1.0 / L, xn);
            }
            /* Uxn and the sums for the backtracking and restart tests */
            rf__apply_scaled_trial(p, run->scale, xn, rr, Uxn, x, y, Uy, s,
                                   run->threads);
            double fx = 0.5 * s[0];
            double bound = fy + s[1] + 0.5 * L * s[2];
            /* slack for rounding in f near the optimum */
            if (fx <= bound + 1e-14 * (fabs(fx) + fabs(fy))) {
                break;
            }
            L *= 2.0;
        }
        ++it;
        run->Lmax = L > run->Lmax ? L : run->Lmax;
        double theta_n =
            0.5 * (-theta * theta + theta * sqrt(theta * theta + 4.0));
        beta = theta * (1.0 - theta) / (theta * theta + theta_n);
        if (s[3] > 0.0) { /* adaptive restart: momentum points uphill */
            beta = 0.0;
            theta_n = 1.0;
        }
        pending = 1; /* y from x and xn after the swap below */
        if (track) {
            double r = rf__residual(p, RF_MODEL_ASSOCIATED, xn, Uxn, rr,
                                    run->scale, run->threads);
            if (r < best || (it == 1 && !start_counts)) {
                best = r;
                memcpy(w->best, xn, bytes);
            }
        } else {
            /* gradient mapping at y, squared, times t^-2 = L^2 */
            const double gm = s[2] * L * L;
            if (gm < best_gm) { /* a NaN mapping is never kept */
                best_gm = gm;
                best_is_x = 1; /* xn, which becomes x below */
            } else if (best_is_x) {
                /* the kept iterate is x, whose array the next iteration
                   overwrites: copied only now (an improving iteration,
                   the usual case, copies nothing) */
                memcpy(w->best, x, bytes);
                best_is_x = 0;
            }
        }
        double *t = x; /* x <- xn */
        x = xn;
        xn = t;
        t = Ux;
        Ux = Uxn;
        Uxn = t;
        theta = theta_n;
        L *= 0.9;
    }
    *u_kept = NULL;
    if (track) {
        memcpy(gamma, w->best, bytes);
    } else if (it == 0) {
        *u_kept = Ux; /* gamma is x, unchanged */
    } else {
        const double *kept = best_is_x ? x : w->best;
        if (!best_is_x) {
            apply_op(run, kept, rr, Ux); /* Ux is free now */
        }
        best = rf__residual(p, RF_MODEL_ASSOCIATED, kept, Ux, rr, run->scale,
                            run->threads);
        if (best < start_res || !start_counts) {
            memcpy(gamma, kept, bytes);
            *u_kept = Ux;
        } else {
            best = start_res; /* the iterations did not improve the start */
        }
    }
    *res = best;
    return it;
}

/* De Saxce: shifted r (u3) from u' = S N S gamma' + S r; returns the De
   Saxce residual of gamma (in the original variables).  The shift is
   relaxed, s <- s + theta (shift(u) - s) (work.step holds s): theta = 1
   while the De Saxce residual contracts, 1/2 once it stops doing so (a
   plain fixed point can cycle on strongly coupled sliding contacts). */
static double shift_r(const apgd_run *run, const double *gamma, double theta)
{
    rf_problem *p = run->p;
    rf_work *w = &p->work;
    double *u = w->u0, *rs = w->u3;
    const int ncon = p->ncon;
    apply_op(run, gamma, w->rs, u);
#pragma omp parallel for schedule(static)                                      \
    num_threads(run->threads) if (ncon > 512)
    for (int i = 0; i < ncon; ++i) {
        const rf__cone cone = rf__scaled_cone(p, i);
        for (int k = 0; k < 6; ++k) {
            rs[6 * i + k] = w->rs[6 * i + k];
        }
        double target = rf__desaxce_shift(u + 6 * i, &cone);
        w->step[i] += theta * (target - w->step[i]);
        rs[6 * i] += w->step[i];
    }
    const int m6 = 6 * ncon; /* rows have no shift */
    memcpy(rs + m6, w->rs + m6, (size_t)p->nrow * sizeof(double));
    return rf__residual(p, RF_MODEL_DESAXCE, gamma, u, w->rs, run->scale,
                        run->threads);
}

void rf__solve_apgd(rf_problem *p, const rf_config *cfg, int threads,
                    double *gamma, rf_solve_out *out)
{
    rf_work *w = &p->work;
    /* Work in part-scaled variables (internal.h): gamma' = S^-1 gamma,
       r' = S r. */
    rf__part_scaling(p, w->wscale, NULL, threads);
    rf__scale_vec(p, w->wscale, 1, w->r, w->rs, threads);
    rf__scale_vec(p, w->wscale, -1, gamma, gamma, threads);
    apgd_run run = {p,        w->wscale,           w->rs,
                    cfg->tol, cfg->max_iter,       threads,
                    1,        cfg->apgd_lipschitz, 0.0};
    double res = 0.0;
    const double *u_kept = NULL;
    if (cfg->model == RF_MODEL_ASSOCIATED) {
        out->iterations = apgd(&run, gamma, &res, &u_kept);
        if (u_kept != NULL) { /* u = S^-1 u' for the energy check */
            rf__scale_vec(p, w->wscale, -1, u_kept, w->u3, threads);
            out->u_valid = 1;
        }
    } else {
        /* Outer fixed point on the De Saxce shift.  Inner solves are
           inexact early (10% of the current defect, at least tol/2) and
           tightened when an inner solve has nothing left to do. */
        int total = 0, stalls = 0;
        double scale = 0.1, theta = 1.0;
        memset(w->step, 0, (size_t)p->ncon * sizeof(double));
        double dres = shift_r(&run, gamma, 1.0);
        /* The first inner solve always runs and iterates (the shifted
           start may meet a loose tol: it would return the start); later
           ones may keep their start, an earlier solve's iterate.  A start
           that meets tol gets that one iteration and no more. */
        const int start_met = cfg->tol > 0.0 && dres <= cfg->tol;
        while (total < cfg->max_iter &&
               !(total > 0 && cfg->tol > 0.0 && dres <= cfg->tol)) {
            run.rr = w->u3;
            run.tol = cfg->tol > 0.0 ? fmax(0.5 * cfg->tol, scale * dres) : 0.0;
            run.max_iter = cfg->max_iter - total;
            if (cfg->tol == 0.0 && run.max_iter > 25) {
                run.max_iter = 25; /* fixed budget: re-shift regularly */
            }
            if (start_met && total == 0) {
                run.max_iter = 1;
            }
            int n = apgd(&run, gamma, &res, &u_kept);
            run.must_iterate = 0;
            if (run.Lmax > 0.0) { /* the next inner solve starts here */
                run.L0 = 0.9 * run.Lmax;
            }
            total += n;
            double prev = dres;
            dres = shift_r(&run, gamma, theta);
            if (dres > 0.9 * prev) {
                theta = 0.5; /* not contracting: relax from now on */
            }
            if (n == 0) {
                scale *= 0.1;
                if (++stalls >= 8) {
                    break; /* the shift no longer moves */
                }
            }
        }
        out->iterations = total;
        res = dres;
    }
    rf__scale_vec(p, w->wscale, 1, gamma, gamma, threads);
    /* the next solve's start: 0.9 of the largest accepted L, or the start
       unchanged when nothing was learnt (no iteration; the given start
       when no inner solve ran); 0 (estimate again) if it overflowed */
    double Lnext = out->iterations > 0 ? 0.9 * run.Lmax : run.Lmax;
    if (run.Lmax == 0.0) { /* no APGD run at all (De Saxce, met at once) */
        Lnext = cfg->apgd_lipschitz;
    }
    out->lipschitz = isfinite(Lnext) ? Lnext : 0.0;
    out->residual = res;
    out->converged = cfg->tol > 0.0 && res <= cfg->tol;
}
