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
 * Work: bv0 holds the pseudo-velocities (nbody x 6, and a seventh body
 * of zeros standing for every side that is not dynamic), split_rec one
 * record per deep contact (below) and split_con its contact index.
 *
 * Why records: the sweeps visit only the deep contacts and read each one's
 * row and responses from one place, as Bullet's split iterations read the
 * rows its contact set-up made.  Forming r x n, M^-1 n and I^-1 (r x n)
 * again at every visit, through the general 6D product, cost the full
 * falling boxes (BenchmarkDemo 1, up to 8,600 contacts) about 1 ms a step,
 * 9% of the cone's step.
 */
#include "internal.h"

#include <string.h>

/* a deep contact's record: its normal row and responses (a side that is
   not dynamic has zero responses and reads the zero body), bias, inverse
   diagonal, compliance and impulse */
enum {
    SR_N = 0,   /* n */
    SR_RA = 3,  /* r_a x n */
    SR_RB = 6,  /* r_b x n */
    SR_MA = 9,  /* M_a^-1 n */
    SR_IA = 12, /* I_a^-1 (r_a x n) */
    SR_MB = 15, /* M_b^-1 n */
    SR_IB = 18, /* I_b^-1 (r_b x n) */
    SR_BIAS = 21,
    SR_INV = 22, /* 1 / (W_nn + c) */
    SR_CFM = 23,
    SR_LAMBDA = 24,
    RF__SPLIT_REC = 25
};

/* The record of contact i, with bias b; its side bodies into side[2]
   (nbody for a side that is not dynamic).  Returns 1 / (W_nn + c), 0
   where W_nn + c vanishes. */
static double split_record(const rf_problem *p, int i, double b, double *r,
                           int side[2])
{
    const double *n = p->con_frame + 9 * i;
    const double cfm = p->cfm_on ? p->con_cfm[6 * i] : 0.0;
    double W = 0.0;
    for (int c = 0; c < 3; ++c) {
        r[SR_N + c] = n[c];
    }
    for (int s = 0; s < 2; ++s) {
        const int bd = p->con_body[2 * i + s];
        double *rn = r + (s == 0 ? SR_RA : SR_RB);
        double *mn = r + (s == 0 ? SR_MA : SR_MB);
        double *in = r + (s == 0 ? SR_IA : SR_IB);
        rf__cross3(p->con_arm + 6 * i + 3 * s, n, rn);
        if (!rf__dynamic_body(p, bd)) {
            side[s] = p->nbody;
            for (int c = 0; c < 3; ++c) {
                mn[c] = in[c] = 0.0;
            }
            continue;
        }
        side[s] = bd;
        const double *im = p->body_inv_mass + 3 * bd;
        const double *I = p->body_inv_inertia + 9 * bd;
        for (int c = 0; c < 3; ++c) {
            mn[c] = im[c] * n[c];
        }
        rf__mat3_vec(I, rn, in);
        /* W_nn's side term: n M^-1 n + (r x n) I^-1 (r x n) */
        W += mn[0] * n[0] + mn[1] * n[1] + mn[2] * n[2] + rn[0] * in[0] +
             rn[1] * in[1] + rn[2] * in[2];
    }
    W += cfm;
    r[SR_BIAS] = b;
    r[SR_CFM] = cfm;
    r[SR_LAMBDA] = 0.0;
    r[SR_INV] = W > RF_MINVAL ? 1.0 / W : 0.0;
    return r[SR_INV];
}

/* u = n . (v_a + w_a x r_a - v_b - w_b x r_b) + b + c lambda: the normal
   row's velocity of record r over the pseudo-velocities va, vb. */
static inline double split_velocity(const double *r, const double *va,
                                    const double *vb)
{
    double u = 0.0;
    for (int c = 0; c < 3; ++c) {
        u += r[SR_N + c] * (va[c] - vb[c]) + r[SR_RA + c] * va[3 + c] -
             r[SR_RB + c] * vb[3 + c];
    }
    return u + r[SR_BIAS] + r[SR_CFM] * r[SR_LAMBDA];
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
    const int ncon = p->ncon, nbody = p->nbody;
    if (!rf__grow((void **)&wk->split_rec, &wk->cap_split, ncon + 1,
                  RF__SPLIT_REC * sizeof(double)) ||
        !rf__grow((void **)&wk->split_con, &wk->cap_split_con, 3 * ncon + 1,
                  sizeof(int))) {
        return rf__fail(err, RF_ERR_NOMEM,
                        "%s: out of memory for %d contacts' records", fn, ncon);
    }
    /* bv0 holds nbody + 1 bodies (rf__work_reserve): the last one stays
       zero for the sides that are not dynamic */
    double *pv = wk->bv0;
    memset(pv, 0, (size_t)(6 * (nbody + 1)) * sizeof(double));
    int *con = wk->split_con, *side = wk->split_con + ncon;
    int active = 0;
    for (int i = 0; i < ncon; ++i) {
        if (bias[i] < 0.0 &&
            split_record(p, i, bias[i],
                         wk->split_rec + (size_t)RF__SPLIT_REC * active,
                         side + 2 * active) > 0.0) {
            con[active++] = i;
        }
    }
    int it = 0, converged = active == 0;
    while (it < cfg->max_iter && !converged) {
        double d2 = 0.0, n2 = 0.0;
        for (int k = 0; k < active; ++k) {
            double *r = wk->split_rec + (size_t)RF__SPLIT_REC * k;
            double *va = pv + 6 * side[2 * k], *vb = pv + 6 * side[2 * k + 1];
            const double inv = r[SR_INV], l = r[SR_LAMBDA];
            const double u = split_velocity(r, va, vb);
            /* the exact scalar step; max(0, .) as a comparison, not
               fmax, which is a call into libm at -O2 (8 of the 142
               samples of the full falling boxes' split solve); the same
               value (+0 for a -0 or NaN argument, as fmax(0, .)) */
            const double t = l - u * inv;
            const double ln = t > 0.0 ? t : 0.0;
            const double dl = ln - l;
            r[SR_LAMBDA] = ln;
            for (int c = 0; c < 3; ++c) {
                va[c] += dl * r[SR_MA + c];
                va[3 + c] += dl * r[SR_IA + c];
                vb[c] -= dl * r[SR_MB + c];
                vb[3 + c] -= dl * r[SR_IB + c];
            }
            d2 += dl * dl / inv;
            n2 += ln * ln / inv;
        }
        ++it;
        converged =
            cfg->tol > 0.0 && sqrt(d2) <= cfg->tol * fmax(sqrt(n2), 1e-300);
    }
    /* Natural-map residual of the normal rows, Siconos-style relative;
       only when the stats are wanted (the Bullet shim asks for none) */
    double res2 = 0.0, l2 = 0.0, u2 = 0.0, b2 = 0.0;
    for (int k = 0; stats != NULL && k < active; ++k) {
        const double *r = wk->split_rec + (size_t)RF__SPLIT_REC * k;
        const double l = r[SR_LAMBDA];
        const double u =
            split_velocity(r, pv + 6 * side[2 * k], pv + 6 * side[2 * k + 1]);
        const double res = l - fmax(0.0, l - u);
        res2 += res * res;
        l2 += l * l;
        u2 += u * u;
        b2 += r[SR_BIAS] * r[SR_BIAS];
    }
    const double den = fmax(fmax(sqrt(l2), sqrt(u2)), sqrt(b2));
    for (int b = 0; b < nbody; ++b) {
        for (int c = 0; c < 3; ++c) {
            v[3 * b + c] = pv[6 * b + c];
            w[3 * b + c] = pv[6 * b + 3 + c];
        }
    }
    if (gamma_n != NULL) {
        memset(gamma_n, 0, (size_t)ncon * sizeof(double));
        for (int k = 0; k < active; ++k) {
            gamma_n[con[k]] =
                wk->split_rec[(size_t)RF__SPLIT_REC * k + SR_LAMBDA];
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
