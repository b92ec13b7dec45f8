/*
 * The sequential impulse solver's row form (RF_SOLVER_SI with the De Saxce
 * model, the Bullet default): Bullet's sweep with the cone's parts.  Each
 * sweep visits every contact's normal row, then every contact's friction
 * parts against the normal impulses just found (btSequentialImpulse-
 * ConstraintSolver's order: non-contact rows, normals, frictions):
 *
 *   normal   the exact scalar step onto [0, nmax] (Bullet's contact row);
 *   sliding  the pair's exact unconstrained step (its 2x2 block W_tt) when
 *            that lies in the disc |g_t| <= mu gn, else a projected step
 *            g_t <- Proj_disc(g_t - u_t / lambda_max(W_tt));
 *   spin     the exact scalar step clamped to |tn| <= sigma gn;
 *   rolling  as sliding, on the disc rho gn (a segment for a roll_t1 cone).
 *
 * Each part reads its velocity from the two bodies and applies its impulse
 * change at once (velocity form, as Bullet's rows).  The fixed point is the
 * De Saxce law (Acary Prop. 3.1, with spin): gn un = 0, un >= 0, and each
 * part sticks (u_k = 0 inside its disc) or slides on its disc against its
 * velocity, which is what <gamma, u^> = 0 with gamma in Y and u^ in Y*
 * says; every step uses one scalar step length per part, so the metric of
 * a disc projection is Euclidean within the part and the fixed point is
 * exact.  No part scaling is needed: no step mixes forces and torques.  A
 * contact with spin or rolling friction repeats its friction parts (up to
 * min(cfg->local_iter, 4) rounds, until a round changes nothing at rounding
 * level; 20 rounds cost RollingFrictionDemo 3.4x stock's step and gave the
 * seed cases nothing more):
 * sliding and rolling are coupled through the lever arm (a ball's: 0.85 of
 * the scaled block), and one round left a cylinder on a line contact
 * veering 0.65 deg at ten sweeps.
 *
 * Why not the block step of solver_si.c: with the whole 6D step per
 * contact a corner's friction and normal fight within one contact, and a
 * ten-box column rocked at ten sweeps; staggered, a sweep costs what a
 * stock iteration costs and stacks behave as stock's.
 *
 * Records (built once per solve, in parallel), per contact, in doubles:
 *   normal   (RF__SI_NREC) n, r_a x n, r_b x n, M_a^-1 n, M_b^-1 n,
 *            I_a^-1 (r_a x n), I_b^-1 (r_b x n), b_n, W_nn, 1 / W_nn,
 *            nmax, c_n
 *   friction (RF__SI_FREC) t1, t2, r_a x t_k, r_b x t_k, M^-1 t_k,
 *            I^-1 (r x t_k) for both sides, b_u, b_w, W_tt (3), mu,
 *            c_u, c_w, 1 / lambda_max(W_tt)
 *   angular  (RF__SI_AREC, contacts with spin or rolling friction only)
 *            I_a^-1 e_k, I_b^-1 e_k (k = n, t1, t2), W_spin, W_roll (3),
 *            b_spin, b_roll (2), sigma, rho, c (3), 1 / lambda_max(W_roll)
 * A side that is not dynamic has zero responses (its velocity is still
 * read: a kinematic body moves).
 */
#include "internal.h"

#include <string.h>

/* normal record */
enum {
    N_N = 0,
    N_RA = 3,
    N_RB = 6,
    N_MA = 9,
    N_MB = 12,
    N_IA = 15,
    N_IB = 18,
    N_BIAS = 21,
    N_W = 22,
    N_INV = 23,
    N_NMAX = 24,
    N_CFM = 25
};
/* friction record */
enum {
    F_T = 0,     /* t1, t2 */
    F_RA = 6,    /* r_a x t1, r_a x t2 */
    F_RB = 12,   /* r_b x t1, r_b x t2 */
    F_MA = 18,   /* M_a^-1 t1, t2 */
    F_MB = 24,   /* M_b^-1 t1, t2 */
    F_IA = 30,   /* I_a^-1 (r_a x t1), (r_a x t2) */
    F_IB = 36,   /* I_b^-1 (r_b x t1), (r_b x t2) */
    F_BIAS = 42, /* b_u, b_w */
    F_W = 44,    /* W_uu, W_uw, W_ww */
    F_MU = 47,
    F_CFM = 48, /* c_u, c_w */
    F_STEP = 50,
    F_INV = 51 /* W_tt^-1: uu, uw, ww (0 when singular) */
};
/* angular record */
enum {
    A_IA = 0,    /* I_a^-1 n, t1, t2 */
    A_IB = 9,    /* I_b^-1 n, t1, t2 */
    A_WS = 18,   /* W_spin */
    A_WR = 19,   /* W_roll: uu, uw, ww */
    A_BIAS = 22, /* b_spin, b_roll_u, b_roll_w */
    A_SIGMA = 25,
    A_RHO = 26,
    A_CFM = 27, /* c_spin, c_roll_u, c_roll_w */
    A_STEP = 30,
    A_INV = 31 /* W_roll^-1: uu, uw, ww (0 when singular) */
};

static inline double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void mat3_vec(const double *M, const double *x, double *y)
{
    y[0] = M[0] * x[0] + M[1] * x[1] + M[2] * x[2];
    y[1] = M[3] * x[0] + M[4] * x[1] + M[5] * x[2];
    y[2] = M[6] * x[0] + M[7] * x[1] + M[8] * x[2];
}

/* a.M b for a side: the linear part a_l . (m ⊙ b_l) + a_a . I b_a, given
   the precomputed responses (rl = m ⊙ b_l, ra = I b_a). */
static inline double pair_term(const double *al, const double *rl,
                               const double *aa, const double *ra)
{
    return (al ? dot3(al, rl) : 0.0) + dot3(aa, ra);
}

/* 1 / lambda_max of the 2x2 SPD block (a b; b c), 0 when empty. */
static double inv_lambda_max(double a, double b, double c)
{
    const double lam = 0.5 * (a + c + sqrt((a - c) * (a - c) + 4.0 * b * b));
    return lam > RF_MINVAL ? 1.0 / lam : 0.0;
}

int rf__si_rows_build(rf_problem *p, int i)
{
    rf_work *w = &p->work;
    double *nr = w->si_nrec + (size_t)RF__SI_NREC * i;
    double *fr = w->si_frec + (size_t)RF__SI_FREC * i;
    double *ar = w->si_arec + (size_t)RF__SI_AREC * i;
    const double *e = p->con_frame + 9 * i;
    const double *arm = p->con_arm + 6 * i;
    const int side[2] = {p->con_body[2 * i], p->con_body[2 * i + 1]};
    int flags = 0;
    memset(nr, 0, RF__SI_NREC * sizeof(double));
    memset(fr, 0, RF__SI_FREC * sizeof(double));
    memcpy(nr + N_N, e, 3 * sizeof(double));
    memcpy(fr + F_T, e + 3, 6 * sizeof(double));
    const int ang = p->con_rho[i] > 0.0 || p->con_sigma[i] > 0.0;
    if (ang) {
        memset(ar, 0, RF__SI_AREC * sizeof(double));
    }
    for (int s = 0; s < 2; ++s) {
        const double *r = arm + 3 * s;
        double *rn = nr + (s == 0 ? N_RA : N_RB);
        double *rt = fr + (s == 0 ? F_RA : F_RB);
        rf__cross3(r, e, rn);
        rf__cross3(r, e + 3, rt);
        rf__cross3(r, e + 6, rt + 3);
        const int b = side[s];
        if (b == RF_WORLD || p->body_flags[b] != RF_BODY_DYNAMIC) {
            continue;
        }
        flags |= s == 0 ? RF__SI_DYN_A : RF__SI_DYN_B;
        const double *I = p->body_inv_inertia + 9 * b;
        const double *im = p->body_inv_mass + 3 * b;
        double *mn = nr + (s == 0 ? N_MA : N_MB);
        double *in = nr + (s == 0 ? N_IA : N_IB);
        double *mt = fr + (s == 0 ? F_MA : F_MB);
        double *it = fr + (s == 0 ? F_IA : F_IB);
        for (int c = 0; c < 3; ++c) {
            mn[c] = im[c] * e[c];
            mt[c] = im[c] * e[3 + c];
            mt[3 + c] = im[c] * e[6 + c];
        }
        mat3_vec(I, rn, in);
        mat3_vec(I, rt, it);
        mat3_vec(I, rt + 3, it + 3);
        if (ang) {
            double *ie = ar + (s == 0 ? A_IA : A_IB);
            for (int k = 0; k < 3; ++k) {
                mat3_vec(I, e + 3 * k, ie + 3 * k);
            }
        }
    }
    /* diagonal blocks: sum over the dynamic sides of lin M^-1 lin +
       ang I^-1 ang (the side's sign squares away) */
    double wnn = 0.0, wuu = 0.0, wuw = 0.0, www = 0.0;
    double ws = 0.0, wru = 0.0, wrx = 0.0, wrw = 0.0;
    for (int s = 0; s < 2; ++s) {
        if (!(flags & (s == 0 ? RF__SI_DYN_A : RF__SI_DYN_B))) {
            continue;
        }
        const double *rn = nr + (s == 0 ? N_RA : N_RB);
        const double *rt = fr + (s == 0 ? F_RA : F_RB);
        wnn += pair_term(e, nr + (s == 0 ? N_MA : N_MB), rn,
                         nr + (s == 0 ? N_IA : N_IB));
        const double *mt = fr + (s == 0 ? F_MA : F_MB);
        const double *it = fr + (s == 0 ? F_IA : F_IB);
        wuu += pair_term(e + 3, mt, rt, it);
        wuw += pair_term(e + 3, mt + 3, rt, it + 3);
        www += pair_term(e + 6, mt + 3, rt + 3, it + 3);
        if (ang) {
            const double *ie = ar + (s == 0 ? A_IA : A_IB);
            ws += dot3(e, ie);
            wru += dot3(e + 3, ie + 3);
            wrx += dot3(e + 3, ie + 6);
            wrw += dot3(e + 6, ie + 6);
        }
    }
    const double *cfm = p->cfm_on ? p->con_cfm + 6 * i : NULL;
    const rf__cone cone = rf__contact_cone(p, i);
    const double *bias = p->con_bias + 6 * i;
    nr[N_BIAS] = bias[0];
    nr[N_CFM] = cfm ? cfm[0] : 0.0;
    nr[N_W] = wnn + nr[N_CFM];
    nr[N_INV] = nr[N_W] > RF_MINVAL ? 1.0 / nr[N_W] : 0.0;
    nr[N_NMAX] = cone.nmax;
    fr[F_BIAS] = bias[1];
    fr[F_BIAS + 1] = bias[2];
    fr[F_CFM] = cfm ? cfm[1] : 0.0;
    fr[F_CFM + 1] = cfm ? cfm[2] : 0.0;
    fr[F_W] = wuu + fr[F_CFM];
    fr[F_W + 1] = wuw;
    fr[F_W + 2] = www + fr[F_CFM + 1];
    fr[F_MU] = cone.mu;
    fr[F_STEP] = inv_lambda_max(fr[F_W], fr[F_W + 1], fr[F_W + 2]);
    {
        const double a = fr[F_W], b = fr[F_W + 1], c = fr[F_W + 2];
        const double det = a * c - b * b;
        if (det > 1e-12 * (a * c) && det > RF_MINVAL) {
            fr[F_INV] = c / det;
            fr[F_INV + 1] = -b / det;
            fr[F_INV + 2] = a / det;
        }
    }
    if (ang) {
        flags |= RF__SI_ANG;
        ar[A_CFM] = cfm ? cfm[3] : 0.0;
        ar[A_CFM + 1] = cfm ? cfm[4] : 0.0;
        ar[A_CFM + 2] = cfm ? cfm[5] : 0.0;
        ar[A_WS] = ws + ar[A_CFM];
        ar[A_WR] = wru + ar[A_CFM + 1];
        ar[A_WR + 1] = cone.roll_t1 ? 0.0 : wrx;
        ar[A_WR + 2] = wrw + ar[A_CFM + 2];
        ar[A_BIAS] = bias[3];
        ar[A_BIAS + 1] = bias[4];
        ar[A_BIAS + 2] = bias[5];
        ar[A_SIGMA] = cone.sigma;
        ar[A_RHO] = cone.rho;
        ar[A_STEP] = inv_lambda_max(ar[A_WR], ar[A_WR + 1],
                                    cone.roll_t1 ? 0.0 : ar[A_WR + 2]);
        const double a = ar[A_WR], b = ar[A_WR + 1], c = ar[A_WR + 2];
        const double det = a * c - b * b;
        if (!cone.roll_t1 && det > 1e-12 * (a * c) && det > RF_MINVAL) {
            ar[A_INV] = c / det;
            ar[A_INV + 1] = -b / det;
            ar[A_INV + 2] = a / det;
        }
        if (cone.roll_t1) {
            flags |= RF__SI_T1;
        }
    }
    return flags;
}

/* Velocity of one row of contact i against the bodies: lin (NULL for an
   angular row) . (v_a - v_b) + aa . w_a - ab . w_b. */
static inline double row_vel(const double *lin, const double *aa,
                             const double *ab, const double *xa,
                             const double *xb)
{
    double u = dot3(aa, xa + 3) - dot3(ab, xb + 3);
    if (lin != NULL) {
        u += lin[0] * (xa[0] - xb[0]) + lin[1] * (xa[1] - xb[1]) +
             lin[2] * (xa[2] - xb[2]);
    }
    return u;
}

/* vel += d (ml, ia) on A and -= d (ml, ib) on B (ml NULL: angular row). */
static inline void row_apply(int flags, double d, const double *mla,
                             const double *ia, const double *mlb,
                             const double *ib, double *va, double *vb)
{
    if (flags & RF__SI_DYN_A) {
        for (int c = 0; c < 3; ++c) {
            if (mla != NULL) {
                va[c] += d * mla[c];
            }
            va[3 + c] += d * ia[c];
        }
    }
    if (flags & RF__SI_DYN_B) {
        for (int c = 0; c < 3; ++c) {
            if (mlb != NULL) {
                vb[c] -= d * mlb[c];
            }
            vb[3 + c] -= d * ib[c];
        }
    }
}

/* One part step of 1 or 2 components under the energy guard.  g (in/out)
   the part's impulses, u its velocities (bias and compliance included),
   W its block (a, b, c; b = c = 0 for one component), step 1 / lambda_max,
   rad the disc's radius, b its biases.  Returns the applied change in d
   and its guard terms (d.W d in *q). */
static inline void part_step(int n, double *g, const double *u, const double *W,
                             const double *inv, double step, double rad,
                             const double *bias, rf_si_guard *gd, double d[2],
                             double *q)
{
    d[0] = d[1] = 0.0;
    if (n == 1) {
        const double a = W[0];
        const double z = a > RF_MINVAL ? g[0] - u[0] / a : g[0];
        d[0] = rf__clamp(z, -rad, rad) - g[0];
    } else {
        double z0 = g[0], z1 = g[1];
        int stick = 0;
        if (inv[0] > 0.0) { /* W_tt^-1 (precomputed; 0: singular) */
            z0 = g[0] - (inv[0] * u[0] + inv[1] * u[1]);
            z1 = g[1] - (inv[1] * u[0] + inv[2] * u[1]);
            stick = z0 * z0 + z1 * z1 <= rad * rad;
        }
        if (!stick) {
            z0 = g[0] - step * u[0];
            z1 = g[1] - step * u[1];
            const double nz = sqrt(z0 * z0 + z1 * z1);
            if (nz > rad) {
                const double f = nz > RF_MINVAL ? rad / nz : 0.0;
                z0 *= f;
                z1 *= f;
            }
        }
        d[0] = z0 - g[0];
        d[1] = z1 - g[1];
    }
    double du = d[0] * u[0] + d[1] * u[1];
    double db = d[0] * bias[0] + (n == 2 ? d[1] * bias[1] : 0.0);
    double qq = W[0] * d[0] * d[0] +
                (n == 2 ? 2.0 * W[1] * d[0] * d[1] + W[2] * d[1] * d[1] : 0.0);
    const double al = rf__si_guard_apply(gd, du, db, qq);
    d[0] *= al;
    d[1] *= al;
    g[0] += d[0];
    g[1] += d[1];
    *q = al * al * qq;
}

double rf__si_visit_normal(const rf_problem *p, int i, double *gamma,
                           double *vel, double *gn2, rf_si_guard *gd)
{
    static const double zero[6] = {0, 0, 0, 0, 0, 0};
    const double *nr = p->work.si_nrec + (size_t)RF__SI_NREC * i;
    const int flags = p->work.si_flags[i];
    const int a = p->con_body[2 * i], b = p->con_body[2 * i + 1];
    double *va = a == RF_WORLD ? NULL : vel + 6 * a;
    double *vb = b == RF_WORLD ? NULL : vel + 6 * b;
    double *gi = gamma + 6 * i;
    const double gn = gi[0];
    const double u = row_vel(nr + N_N, nr + N_RA, nr + N_RB, va ? va : zero,
                             vb ? vb : zero) +
                     nr[N_BIAS] + nr[N_CFM] * gn;
    double d = rf__clamp(gn - u * nr[N_INV], 0.0, nr[N_NMAX]) - gn;
    const double al =
        rf__si_guard_apply(gd, d * u, d * nr[N_BIAS], nr[N_W] * d * d);
    d *= al;
    gi[0] = gn + d;
    row_apply(flags, d, nr + N_MA, nr + N_IA, nr + N_MB, nr + N_IB, va, vb);
    *gn2 += nr[N_W] * gi[0] * gi[0];
    return nr[N_W] * d * d;
}

/* The sliding pair of a contact (friction record fr): its two rows'
   velocities, the part step on the disc mu gn, both rows' impulse applied
   together.  Returns the change's d.W d. */
static double sliding_step(const double *fr, int flags, double *gi, double gn,
                           double *va, double *vb, rf_si_guard *gd)
{
    static const double zero[6] = {0, 0, 0, 0, 0, 0};
    const double *xa = va ? va : zero, *xb = vb ? vb : zero;
    const double dv[3] = {xa[0] - xb[0], xa[1] - xb[1], xa[2] - xb[2]};
    const double *t = fr + F_T, *ra = fr + F_RA, *rb = fr + F_RB;
    const double u[2] = {dot3(t, dv) + dot3(ra, xa + 3) - dot3(rb, xb + 3) +
                             fr[F_BIAS] + fr[F_CFM] * gi[1],
                         dot3(t + 3, dv) + dot3(ra + 3, xa + 3) -
                             dot3(rb + 3, xb + 3) + fr[F_BIAS + 1] +
                             fr[F_CFM + 1] * gi[2]};
    double d[2], q;
    part_step(2, gi + 1, u, fr + F_W, fr + F_INV, fr[F_STEP], fr[F_MU] * gn,
              fr + F_BIAS, gd, d, &q);
    const double *ma = fr + F_MA, *ia = fr + F_IA;
    const double *mb = fr + F_MB, *ib = fr + F_IB;
    if (flags & RF__SI_DYN_A) {
        for (int c = 0; c < 3; ++c) {
            va[c] += d[0] * ma[c] + d[1] * ma[3 + c];
            va[3 + c] += d[0] * ia[c] + d[1] * ia[3 + c];
        }
    }
    if (flags & RF__SI_DYN_B) {
        for (int c = 0; c < 3; ++c) {
            vb[c] -= d[0] * mb[c] + d[1] * mb[3 + c];
            vb[3 + c] -= d[0] * ib[c] + d[1] * ib[3 + c];
        }
    }
    return q;
}

double rf__si_visit_friction(const rf_problem *p, const rf_config *cfg, int i,
                             double *gamma, double *vel, double *gn2,
                             rf_si_guard *gd)
{
    static const double zero[6] = {0, 0, 0, 0, 0, 0};
    const rf_work *w = &p->work;
    const double *nr = w->si_nrec + (size_t)RF__SI_NREC * i;
    const double *fr = w->si_frec + (size_t)RF__SI_FREC * i;
    const int flags = w->si_flags[i];
    const int a = p->con_body[2 * i], b = p->con_body[2 * i + 1];
    double *va = a == RF_WORLD ? NULL : vel + 6 * a;
    double *vb = b == RF_WORLD ? NULL : vel + 6 * b;
    double *gi = gamma + 6 * i;
    const double gn = gi[0];
    const int sliding = fr[F_MU] > 0.0;
    double d2 = 0.0;
    if (!(flags & RF__SI_ANG)) { /* the common contact (boxes): once */
        d2 = sliding ? sliding_step(fr, flags, gi, gn, va, vb, gd) : 0.0;
        *gn2 += fr[F_W] * gi[1] * gi[1] + fr[F_W + 2] * gi[2] * gi[2];
        return d2;
    }
    const double *ar = w->si_arec + (size_t)RF__SI_AREC * i;
    const double *e = nr + N_N;
    const int rounds = cfg->local_iter < 4 ? cfg->local_iter : 4;
    for (int r = 0; r < rounds; ++r) {
        double ch = sliding ? sliding_step(fr, flags, gi, gn, va, vb, gd) : 0.0;
        const double *xa = va ? va : zero, *xb = vb ? vb : zero;
        double d[2], q;
        if (ar[A_SIGMA] > 0.0) { /* spin about n */
            const double u[2] = {row_vel(NULL, e, e, xa, xb) + ar[A_BIAS] +
                                     ar[A_CFM] * gi[3],
                                 0.0};
            const double W[3] = {ar[A_WS], 0.0, 0.0};
            part_step(1, gi + 3, u, W, NULL, 0.0, ar[A_SIGMA] * gn, ar + A_BIAS,
                      gd, d, &q);
            row_apply(flags, d[0], NULL, ar + A_IA, NULL, ar + A_IB, va, vb);
            ch += q;
        }
        if (ar[A_RHO] > 0.0) { /* rolling about t1 (and t2) */
            const int n = (flags & RF__SI_T1) ? 1 : 2;
            const double *t = fr + F_T;
            const double u[2] = {row_vel(NULL, t, t, xa, xb) + ar[A_BIAS + 1] +
                                     ar[A_CFM + 1] * gi[4],
                                 n == 2 ? row_vel(NULL, t + 3, t + 3, xa, xb) +
                                              ar[A_BIAS + 2] +
                                              ar[A_CFM + 2] * gi[5]
                                        : 0.0};
            part_step(n, gi + 4, u, ar + A_WR, ar + A_INV, ar[A_STEP],
                      ar[A_RHO] * gn, ar + A_BIAS + 1, gd, d, &q);
            row_apply(flags, d[0], NULL, ar + A_IA + 3, NULL, ar + A_IB + 3, va,
                      vb);
            if (n == 2) {
                row_apply(flags, d[1], NULL, ar + A_IA + 6, NULL, ar + A_IB + 6,
                          va, vb);
            }
            ch += q;
        }
        d2 += ch;
        if (ch <= 1e-24 * (fr[F_W] * gi[1] * gi[1] +
                           fr[F_W + 2] * gi[2] * gi[2] + RF_MINVAL)) {
            break;
        }
    }
    *gn2 += fr[F_W] * gi[1] * gi[1] + fr[F_W + 2] * gi[2] * gi[2];
    return d2;
}
