/*
 * Projected Jacobi: Tasora & Anitescu (46) with K = 0,
 *
 *   gamma <- lambda Proj_Y(gamma - omega B (N gamma + r)) + (1 - lambda) gamma
 *
 * run in part-scaled variables (internal.h: gamma' = S^-1 gamma, N' =
 * S N S, cone coefficients mu s_n / s_t, ...), with B block-diagonal,
 * B_i = eta_i I_6 and eta_i = 6 / tr(S W_ii S) (a scalar per contact in
 * scaled variables keeps the metric Euclidean inside each scaled cone, so
 * the projection stays exact; in the original variables this is the
 * block-diagonal B = eta S^2 of (46)).  This is projected gradient descent on
 * the QP (42) in the metric B^-1; it converges for omega < 2 / lambda_max(B^1/2
 * N B^1/2).  omega = 0 in the configuration means "automatic": 1 / the power
 * iteration estimate of that eigenvalue (rf__estimate_lambda).
 *
 * De Saxce model: the same iteration on u_hat (Acary (64), fixed point on
 * the modified velocity).
 *
 * One iteration = one per-contact projection pass + one N product; the
 * product also yields u = N gamma + r for the residual, so checking
 * convergence is free.  All passes are per contact or per body, so the
 * iterates are bitwise identical for any thread count.
 *
 * Rows (joints) take the same step with their own B_j = 1 (unit scaled
 * diagonal) and are clamped on [lo, hi].
 *
 * A carried estimate (rf_config.jacobi_lambda_max > 0, automatic omega):
 * the
 * power iteration costs 4-16 N products, more than 10 iterations (70 ms
 * at 74k contacts against 40 for ten iterations), and lambda_max barely
 * moves from one time step to the next, so omega = 1 / the carried
 * lambda, safeguarded by the steps themselves.  With B >= I on the
 * entries that move (B_i = 6 / tr(S W_ii S) = 1 where all four parts
 * live, more where one is dead, 0 for a contact that cannot move), a
 * step d = gamma+ - gamma has
 *   d.N' d <= lambda_max |d|^2_(B^-1) <= lambda_max |d|^2,
 * so d.N' d > 1.5 lambda |d|^2 proves lambda_max > 1.5 lambda, i.e.
 * omega > 1.5 / lambda_max: near the stability limit 2 / lambda_max,
 * where the stiffest modes contract by less than half per iteration.  No
 * lambda >= lambda_max / 1.5 can show it: the exact carry of an estimate
 * is never raised (the power iteration approaches lambda_max from below,
 * within a few percent on the piles).  The stiff modes a too long step
 * excites contract slowest or grow, so d turns towards them and shows
 * it.  Such a step is rejected, lambda raised (at least doubled, and to
 * R / 1.5 with R = d.N' d / |d|^2 <= lambda_max, so one rejection lifts
 * a lambda far too small; a step that overflowed shows no R: then lambda
 * is estimated after all, once) and the iteration redone from the kept
 * iterate (the rejected one counts against max_iter).  d.N' d comes from
 * sums that ride in the product's contact pass (rf__apply_scaled_trial
 * with x = gamma+, y = gamma):
 * 1/2 d.N' d = f(gamma+) - f(gamma) - u.d with f the QP objective (42),
 * f(x) = 1/2 x.N' x + r'.x = 1/2 x.(u_x + r'); a rounding margin of
 * 2^-30 of the sums keeps a converged iteration (d at rounding level)
 * from being rejected.  The De Saxce model and friction-bounded rows
 * always estimate: fixed points whose convergence the bound on omega
 * does not settle.
 *
 * Work: g0 = gamma', g1 = next gamma', u0 = N' gamma' + r' (and g3, the
 * next one, when carried), rs = r', wscale = S, sx, r, best, step.
 */
#include "internal.h"

#include <math.h>
#include <string.h>

/* One Jacobi sweep, gn from g and u = N' g + r': the contacts' projected
   steps, then the rows' clamped ones (bounds of a friction-bounded row
   from the current iterate g).  Worksharing loops: every thread of the
   calling region calls it; gn is complete when it returns (the rows' loop
   ends in a barrier). */
static void jacobi_sweep_ws(rf_problem *p, double omega, double lam,
                            int desaxce, const double *g, const double *u,
                            double *gn)
{
    const rf_work *w = &p->work;
    const double *scale = w->wscale;
    const int ncon = p->ncon, nrow = p->nrow, m6 = 6 * p->ncon;
#pragma omp for schedule(static) nowait
    for (int i = 0; i < ncon; ++i) {
        const double *gi = g + 6 * i, *ui = u + 6 * i;
        const rf__cone cone = rf__scaled_cone(p, i);
        const double t = omega * w->step[i];
        double z[6], pz[6];
        double shift = desaxce ? rf__desaxce_shift(ui, &cone) : 0.0;
        for (int k = 0; k < 6; ++k) {
            z[k] = gi[k] - t * ui[k];
        }
        z[0] -= t * shift;
        rf__project6(z, &cone, pz);
        for (int k = 0; k < 6; ++k) {
            gn[6 * i + k] = lam * pz[k] + (1.0 - lam) * gi[k];
        }
    }
#pragma omp for schedule(static)
    for (int j = 0; j < nrow; ++j) {
        const double t = omega * w->step[ncon + j];
        double lo, hi;
        rf__row_bounds(p, scale, j, g, &lo, &hi);
        const double gj = g[m6 + j];
        gn[m6 + j] =
            lam * rf__clamp(gj - t * u[m6 + j], lo, hi) + (1.0 - lam) * gj;
    }
}

/* Friction-bounded rows (row_bound >= 0): their interval follows the
   iterate, so the carried-estimate safeguard does not apply. */
static int has_bounded_rows(const rf_problem *p)
{
    for (int j = 0; j < p->nrow; ++j) {
        if (p->row_bound[j] >= 0) {
            return 1;
        }
    }
    return 0;
}

/* The lambda that step d = x+ - x asks for: lmax when d shows nothing
   against omega = 1 / lmax, else (lambda_max > 1.5 lmax proved, header)
   the larger of 2 lmax and R / 1.5, R = d.N'd / |d|^2 <= lambda_max the
   witness (so the same step would pass).  From the sums of
   rf__apply_scaled_trial (s[0] = 2 f(x+), s[1] = u_x.d, s[2] = |d|^2) and
   f2 = 2 f(x): 1/2 d.N'd = (s[0] - f2) / 2 - s[1], compared with
   0.75 lmax |d|^2 beyond a rounding margin of 2^-30 of the sums (far
   above the rounding of a sum of 6 ncon products, far below the excess
   of a step that is too long while d is not at rounding level).  NaN
   when a sum is not finite (a carried lambda so small that the step
   overflowed). */
static double step_lambda(const double s[4], double f2, double lmax)
{
    const double half_dnd = 0.5 * (s[0] - f2) - s[1];
    const double margin = 0x1p-30 * (fabs(s[0]) + fabs(f2) + 2.0 * fabs(s[1]));
    if (!isfinite(s[0]) || !isfinite(s[1]) || !isfinite(s[2])) {
        return NAN; /* the step overflowed: no witness */
    }
    if (half_dnd <= 0.75 * lmax * s[2] + margin) {
        return lmax;
    }
    const double want = 2.0 * half_dnd / s[2] / 1.5;
    return isfinite(want) && want > 2.0 * lmax ? want : 2.0 * lmax;
}

void rf__solve_jacobi(rf_problem *p, const rf_config *cfg, int threads,
                      double *gamma, rf_solve_out *out)
{
    rf_work *w = &p->work;
    double *g = w->g0, *gn = w->g1, *u = w->u0;
    const double *scale = w->wscale, *rs = w->rs;
    const double lam = cfg->lambda;
    const int desaxce = cfg->model == RF_MODEL_DESAXCE;

    /* part-scaled variables: gamma' = S^-1 gamma, N' = S N S, r' = S r */
    rf__part_scaling(p, w->wscale, w->step, threads);
    rf__scale_vec(p, scale, 1, w->r, w->rs, threads);
    /* automatic omega = 1 / lmax: lmax carried (guarded) or estimated */
    double omega = cfg->omega, lmax = 0.0;
    const int guarded = omega == 0.0 && cfg->jacobi_lambda_max > 0.0 &&
                        !desaxce && !has_bounded_rows(p);
    if (omega == 0.0) {
        lmax = guarded ? cfg->jacobi_lambda_max
                       : rf__estimate_lambda(p, scale, w->step, w->g3, w->u3,
                                             threads);
        omega = 1.0 / lmax;
    }
    int estimated = !guarded;

    rf__scale_vec(p, scale, -1, gamma, g, threads);
    /* carried: 2 f(g) of the kept iterate (the first of the trial sums,
       y = xp = g: the others vanish), the next u in g3 */
    double f2 = 0.0, *un = w->g3;
    if (guarded) {
        double s[4];
        rf__apply_scaled_trial(p, scale, g, rs, u, g, g, u, s, threads);
        f2 = s[0];
    } else {
        rf__apply_scaled(p, scale, g, rs, u, threads);
    }
    rf_tracker tr;
    rf__tracker_init(&tr, cfg, scale, rs, threads);

    /* Body form: the sweep and the product in one parallel region per
       iteration (one fork instead of three; the product's first pass
       reads all of gn, so the sweep's barrier stays). */
    const int body = p->kind == RF_KIND_BODY;
    int it = 0;
    while (it < cfg->max_iter && !tr.converged) {
        ++it; /* a rejected iteration counts too */
        if (guarded) {
#pragma omp parallel num_threads(threads) if (rf__product_parallel(p))
            jacobi_sweep_ws(p, omega, lam, desaxce, g, u, gn);
            double s[4];
            rf__apply_scaled_trial(p, scale, gn, rs, un, gn, g, u, s, threads);
            double want = step_lambda(s, f2, lmax);
            if (want != lmax) {
                /* gn rejected: redo from g (u is still its) */
                if (isnan(want)) { /* no witness: estimate, once */
                    want = estimated ? 2.0 * lmax
                                     : rf__estimate_lambda(p, scale, w->step,
                                                           un, w->u3, threads);
                    estimated = 1;
                }
                lmax = want;
                omega = 1.0 / lmax;
                continue;
            }
            f2 = s[0];
            double *t = u;
            u = un;
            un = t;
        } else if (body) {
#pragma omp parallel num_threads(threads) if (rf__product_parallel(p))
            {
                jacobi_sweep_ws(p, omega, lam, desaxce, g, u, gn);
                rf__apply_scaled_body_ws(p, scale, gn, rs, u);
            }
        } else {
#pragma omp parallel num_threads(threads) if (p->ncon > 512)
            jacobi_sweep_ws(p, omega, lam, desaxce, g, u, gn);
            rf__apply_scaled(p, scale, gn, rs, u, threads);
        }
        double *tmp = g;
        g = gn;
        gn = tmp;
        rf__tracker_update(&tr, p, g, u);
    }
    /* automatic omega: the lambda it ended with, the next solve's start */
    out->lipschitz = isfinite(lmax) ? lmax : 0.0;
    rf__tracker_finish(&tr, p, gamma, g, u, it, out); /* u = N' g + r' */
    rf__scale_vec(p, scale, 1, gamma, gamma, threads);
}
