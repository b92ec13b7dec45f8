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
 * Work: g0 = gamma', g1 = next gamma', u0 = N' gamma' + r', rs = r',
 * wscale = S, sx, r, best, step.
 */
#include "internal.h"

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
    double omega = cfg->omega;
    if (omega == 0.0) {
        omega = 1.0 / rf__estimate_lambda(p, scale, w->step, threads);
    }

    rf__scale_vec(p, scale, -1, gamma, g, threads);
    rf__apply_scaled(p, scale, g, rs, u, threads);
    rf_tracker tr;
    rf__tracker_init(&tr, p, cfg, scale, rs, g, u, threads);

    /* Body form: the sweep and the product in one parallel region per
       iteration (one fork instead of three; the product's first pass
       reads all of gn, so the sweep's barrier stays). */
    const int body = p->kind == RF_KIND_BODY;
    int it = 0;
    while (it < cfg->max_iter && !tr.converged) {
        if (body) {
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
        ++it;
        rf__tracker_update(&tr, p, g, u);
    }
    rf__tracker_finish(&tr, p, gamma, g, u, it, out); /* u = N' g + r' */
    rf__scale_vec(p, scale, 1, gamma, gamma, threads);
}
