/*
 * Split impulse: penetration recovery on pseudo-velocities (Bullet's
 * m_splitImpulse, solveGroupCacheFriendlySplitImpulseIterations; Catto's
 * "pseudo-velocities").  The position error of deep contacts is solved as
 * a frictionless normal problem of its own,
 *
 *   lambda_i >= 0,  u_i = n_i . (pseudo velocity of A's point - B's)
 *                       + c_i lambda_i + b_i >= 0,  lambda_i u_i = 0,
 *
 * for the contacts with b_i < 0 (the others take no part), at zero free
 * pseudo-velocity.  The pseudo-velocities M^-1 D_n lambda move positions
 * and are then dropped, so the recovery adds no kinetic energy: a box
 * pushed into the ground comes out without upward speed, and a recovering
 * stack can fall asleep.  Projected Gauss-Seidel with the exact scalar
 * step (as Bullet's resolveSplitPenetrationImpulse), no warm start (as
 * Bullet: push impulses start at 0 every step).
 *
 * Work: bv0 holds the pseudo-velocities (nbody x 6), wscale[4 i] the
 * impulse of contact i and wscale[4 i + 1] 1 / (W_nn + c) (free between
 * solves: every solve rebuilds its scaling).
 */
#include "internal.h"

#include <string.h>

/* The normal row of contact i: lin (n on A; -n on B), ang_s = +-(r_s x n). */
static double normal_velocity(const rf_problem *p, int i, const double *pv)
{
    const double *n = p->con_frame + 9 * i;
    double u = 0.0;
    for (int s = 0; s < 2; ++s) {
        const int b = p->con_body[2 * i + s];
        if (b == RF_WORLD) {
            continue;
        }
        const double *v = pv + 6 * b;
        double rn[3];
        rf__cross3(p->con_arm + 6 * i + 3 * s, n, rn);
        const double vs = n[0] * v[0] + n[1] * v[1] + n[2] * v[2] +
                          rn[0] * v[3] + rn[1] * v[4] + rn[2] * v[5];
        u += s == 0 ? vs : -vs;
    }
    return u;
}

static void apply_normal(const rf_problem *p, int i, double dl, double *pv)
{
    double dg[6] = {dl, 0.0, 0.0, 0.0, 0.0, 0.0};
    rf__contact_apply(p, i, dg, pv);
}

rf_status rf_solve_split_sized(rf_problem *p, const rf_config *cfg_in,
                               size_t cfg_size, const double *bias,
                               double *gamma_n, double *v, double *w,
                               rf_stats *stats_out, size_t stats_size,
                               rf_error *err)
{
    static const char fn[] = "rf_solve_split";
    if (p == NULL || bias == NULL || v == NULL || w == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: %s is NULL", fn,
                        p == NULL      ? "p"
                        : bias == NULL ? "bias"
                        : v == NULL    ? "v"
                                       : "w");
    }
    rf_config full;
    rf_status st =
        rf__sized_in(cfg_in, cfg_size, stats_out, stats_size, &full, fn, err);
    if (st != RF_OK) {
        return st;
    }
    const rf_config *cfg = &full;
    rf_stats stats_full;
    rf_stats *stats = stats_out != NULL ? &stats_full : NULL;
    st = rf_config_validate(cfg, err);
    if (st == RF_OK) {
        st = rf__check_complete(p, fn, err);
    }
    if (st != RF_OK) {
        return st;
    }
    if (p->kind != RF_KIND_BODY) {
        return rf__fail(err, RF_ERR_STATE,
                        "%s: pseudo-velocities need a body-form problem", fn);
    }
    for (int i = 0; i < p->ncon; ++i) {
        if (!isfinite(bias[i])) {
            return rf__fail(err, RF_ERR_NONFINITE, "%s: bias[%d] = %g", fn, i,
                            bias[i]);
        }
    }
    st = rf__work_reserve(p, 0, err);
    if (st != RF_OK) {
        return st;
    }
    rf__refresh_cfm(p);
    rf_work *wk = &p->work;
    double *pv = wk->bv0, *lam = wk->wscale;
    const int ncon = p->ncon, nbody = p->nbody;
    memset(pv, 0, (size_t)(6 * nbody) * sizeof(double));
    int active = 0;
    for (int i = 0; i < ncon; ++i) {
        lam[4 * i] = 0.0;
        lam[4 * i + 1] = 0.0;
        if (bias[i] < 0.0) {
            double d[6];
            rf__diag_entries(p, i, d); /* W_nn + c */
            lam[4 * i + 1] = d[0] > RF_MINVAL ? 1.0 / d[0] : 0.0;
            active += lam[4 * i + 1] > 0.0;
        }
    }
    int it = 0, converged = active == 0;
    while (it < cfg->max_iter && !converged) {
        double d2 = 0.0, n2 = 0.0;
        for (int i = 0; i < ncon; ++i) {
            const double inv = lam[4 * i + 1];
            if (inv == 0.0) {
                continue;
            }
            const double l = lam[4 * i];
            double u = normal_velocity(p, i, pv) + bias[i];
            if (p->cfm_on) {
                u += p->con_cfm[6 * i] * l;
            }
            const double ln = fmax(0.0, l - u * inv); /* exact scalar step */
            lam[4 * i] = ln;
            apply_normal(p, i, ln - l, pv);
            d2 += (ln - l) * (ln - l) / inv;
            n2 += ln * ln / inv;
        }
        ++it;
        converged =
            cfg->tol > 0.0 && sqrt(d2) <= cfg->tol * fmax(sqrt(n2), 1e-300);
    }
    /* Natural-map residual of the normal rows, Siconos-style relative */
    double res2 = 0.0, l2 = 0.0, u2 = 0.0, b2 = 0.0;
    for (int i = 0; i < ncon; ++i) {
        if (lam[4 * i + 1] == 0.0) {
            continue;
        }
        const double l = lam[4 * i];
        double u = normal_velocity(p, i, pv) + bias[i];
        if (p->cfm_on) {
            u += p->con_cfm[6 * i] * l;
        }
        const double r = l - fmax(0.0, l - u);
        res2 += r * r;
        l2 += l * l;
        u2 += u * u;
        b2 += bias[i] * bias[i];
    }
    const double den = fmax(fmax(sqrt(l2), sqrt(u2)), sqrt(b2));
    for (int b = 0; b < nbody; ++b) {
        for (int c = 0; c < 3; ++c) {
            v[3 * b + c] = pv[6 * b + c];
            w[3 * b + c] = pv[6 * b + 3 + c];
        }
    }
    if (gamma_n != NULL) {
        for (int i = 0; i < ncon; ++i) {
            gamma_n[i] = lam[4 * i];
        }
    }
    if (stats != NULL) {
        memset(stats, 0, sizeof *stats);
        stats->contacts = active;
        stats->rows = active;
        stats->iterations = it;
        stats->residual = den > 0.0 ? sqrt(res2) / den : 0.0;
        stats->converged = converged;
        stats->energy_scale = 1.0;
        memcpy(stats_out, stats, stats_size);
    }
    rf__ok(err);
    return RF_OK;
}
