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
 * min(cfg->local_iter, RF__SI_ROUNDS) rounds, until a round changes nothing
 * at rounding level): sliding and rolling are coupled through the lever
 * arm (a ball's: 0.85 of the scaled block).  Two rounds, measured with the
 * Bullet defaults: a ball held by rolling friction on an incline below
 * its threshold creeps 34 um in 5 s (one round 1.0 mm, the seed test's
 * limit; three 3.1 um, four 2.2 um; stock 2.1 mm), and RollingFrictionDemo
 * costs 1.38x stock's step (four rounds 1.59-1.67x, three 1.53-1.59x); a
 * cylinder on a line contact veers 0.66-0.68 deg at any count.
 *
 * Normal rounds: a group of two or more contacts (a manifold's points on
 * one pair of bodies) repeats its normal rows within a visit until a round
 * changes them by at most RF__SI_NROUND_TOL (1%) of their size
 * (W-weighted squares), at most min(local_iter, RF__SI_NROUNDS) = 4
 * rounds.  With one round a few sweeps leave each manifold's load uneven:
 * the point visited first takes more than its share of the weight at
 * every sweep, a torque from nowhere that tilts a box onto an edge, and a
 * column of ten boxes dropped as in Bullet's MultipleBoxes tutorial rocks
 * on its edges to the end of a 15 s run in five of eight copies
 * (test_box_column_sleeps; with the rounds it sleeps at stock's step).  Two
 * rounds leave one of sixteen copies toppled, four none.  The rounds read
 * no other body: the pair's velocities stay in registers, and a round
 * costs a dot product and an update per point.
 *
 * Why not the block step of solver_si.c: with the whole 6D step per
 * contact a corner's friction and normal fight within one contact, and a
 * ten-box column rocked at ten sweeps; staggered, a sweep costs what a
 * stock iteration costs and stacks behave as stock's.
 *
 * Records (built once per solve, in parallel; the wide form builds its
 * bundled contacts' in its bundles, to the same bits, and runs them four
 * manifolds at a time, with or without spin and rolling friction,
 * solver_si_wide.c),
 * per contact, in doubles,
 * each 3-vector padded to four lanes (the fourth 0) so that a row's dot
 * product and its update are a few operations on two SSE2 registers
 * (rf_v4, GCC's and Clang's vector extension), as Bullet's
 * btSolverConstraint keeps its rows in SIMD vectors:
 *   normal   (RF__SI_NREC) n, r_a x n, r_b x n, I_a^-1 (r_a x n),
 *            I_b^-1 (r_b x n), b_n, W_nn, 1 / W_nn, nmax, c_n
 *   friction (RF__SI_FREC) t1, t2, r_a x t_k, r_b x t_k, I_a^-1 (r_a x
 *            t_k), I_b^-1 (r_b x t_k), b_u, b_w, W_tt (3), mu, c_u, c_w,
 *            1 / lambda_max(W_tt), W_tt^-1 (3)
 *   angular  (RF__SI_AREC, contacts with spin or rolling friction only)
 *            I_a^-1 e_k, I_b^-1 e_k (k = n, t1, t2), W_spin, W_roll (3),
 *            b_spin, b_roll (2), sigma, rho, c (3), 1 / lambda_max(W_roll),
 *            W_roll^-1 (3)
 * The linear responses M^-1 e_k are the body's inverse masses times the
 * direction, formed where they are applied (a group's bodies' inverse
 * masses are read once).  A side that is not dynamic has zero responses
 * (its velocity is still read: a kinematic body moves).
 */
#include "internal.h"

#include <stdint.h>
#include <string.h>

#if !defined(__GNUC__)
#error "solver_si_rows.c needs the GCC/Clang vector extension (vector_size)"
#endif

/* A 3-vector in four lanes (the fourth 0) as two SSE2 registers of two
   doubles (the GCC/Clang vector extension, native width on every x86-64:
   4-lane vector types lowered to SSE2 cost more than scalar code). */
typedef double rf_v2 __attribute__((vector_size(2 * sizeof(double))));
typedef struct rf_v4 {
    rf_v2 lo, hi; /* (x, y), (z, 0) */
} rf_v4;

static RF__ALWAYS_INLINE rf_v4 v4_load(const double *x)
{
    rf_v4 v;
    memcpy(&v.lo, x, sizeof v.lo);
    memcpy(&v.hi, x + 2, sizeof v.hi);
    return v;
}

/* (x0, x1, x2, 0) from three doubles */
static RF__ALWAYS_INLINE rf_v4 v4_of3(const double *x)
{
    rf_v4 v;
    memcpy(&v.lo, x, sizeof v.lo);
    v.hi = (rf_v2){x[2], 0.0};
    return v;
}

/* its three lanes back to x[0..2] */
static RF__ALWAYS_INLINE void v4_store3(double *x, rf_v4 v)
{
    memcpy(x, &v.lo, sizeof v.lo);
    x[2] = v.hi[0];
}

static RF__ALWAYS_INLINE rf_v4 v4_add(rf_v4 a, rf_v4 b)
{
    return (rf_v4){a.lo + b.lo, a.hi + b.hi};
}

static RF__ALWAYS_INLINE rf_v4 v4_sub(rf_v4 a, rf_v4 b)
{
    return (rf_v4){a.lo - b.lo, a.hi - b.hi};
}

static RF__ALWAYS_INLINE rf_v4 v4_mul(rf_v4 a, rf_v4 b)
{
    return (rf_v4){a.lo * b.lo, a.hi * b.hi};
}

static RF__ALWAYS_INLINE rf_v4 v4_scale(double s, rf_v4 a)
{
    return (rf_v4){s * a.lo, s * a.hi};
}

/* the sum of the lanes of a b + c d - e f: a row's dot product with the
   bodies' linear and angular velocities */
static RF__ALWAYS_INLINE double v4_dot3(rf_v4 a, rf_v4 b, rf_v4 c, rf_v4 d,
                                        rf_v4 e, rf_v4 f)
{
    const rf_v2 t = a.lo * b.lo + c.lo * d.lo - e.lo * f.lo +
                    (a.hi * b.hi + c.hi * d.hi - e.hi * f.hi);
    return t[0] + t[1];
}

static RF__ALWAYS_INLINE double v4_dot(rf_v4 a, rf_v4 b)
{
    const rf_v2 t = a.lo * b.lo + a.hi * b.hi;
    return t[0] + t[1];
}

/* normal record: 4-lane vectors, then scalars */
enum {
    N_N = 0,
    N_RA = 4,
    N_RB = 8,
    N_IA = 12,
    N_IB = 16,
    N_BIAS = 20,
    N_W = 21,
    N_INV = 22,
    N_NMAX = 23,
    N_CFM = 24
};
/* friction record */
enum {
    F_T = 0,     /* t1, t2 */
    F_RA = 8,    /* r_a x t1, r_a x t2 */
    F_RB = 16,   /* r_b x t1, r_b x t2 */
    F_IA = 24,   /* I_a^-1 (r_a x t1), (r_a x t2) */
    F_IB = 32,   /* I_b^-1 (r_b x t1), (r_b x t2) */
    F_BIAS = 40, /* b_u, b_w */
    F_W = 42,    /* W_uu, W_uw, W_ww */
    F_MU = 45,
    F_CFM = 46, /* c_u, c_w */
    F_STEP = 48,
    F_INV = 49 /* W_tt^-1: uu, uw, ww (0 when singular) */
};
/* angular record */
enum {
    A_IA = 0,    /* I_a^-1 n, t1, t2 */
    A_IB = 12,   /* I_b^-1 n, t1, t2 */
    A_WS = 24,   /* W_spin */
    A_WR = 25,   /* W_roll: uu, uw, ww */
    A_BIAS = 28, /* b_spin, b_roll_u, b_roll_w */
    A_SIGMA = 31,
    A_RHO = 32,
    A_CFM = 33, /* c_spin, c_roll_u, c_roll_w */
    A_STEP = 36,
    A_INV = 37, /* W_roll^-1: uu, uw, ww (0 when singular) */
    A_TINV = 40 /* r_u / s_u, r_w / s_w: the rolling rows' velocities from
                   the friction record's tangents, which carry the sliding
                   scales (r_k t_k = (r_k / s_k) s_k t_k) */
};

static inline double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* joint row record: J (linear and angular per side), the responses
   M^-1 J^T (zero on a side that is not dynamic), then scalars */
enum {
    J_LA = 0,
    J_AA = 4,
    J_LB = 8,
    J_AB = 12,
    J_MA = 16, /* M_a^-1 J_la, I_a^-1 J_aa */
    J_IA = 20,
    J_MB = 24,
    J_IB = 28,
    J_BIAS = 32,
    J_CFM = 33,
    J_STEP = 34 /* 1 / (J M^-1 J^T + cfm), 0 when empty */
};

/* 1 / lambda_max of the 2x2 SPD block (a b; b c), 0 when empty. */
static double inv_lambda_max(double a, double b, double c)
{
    const double lam = 0.5 * (a + c + sqrt((a - c) * (a - c) + 4.0 * b * b));
    return lam > RF_MINVAL ? 1.0 / lam : 0.0;
}

/* The inverse of the 2x2 block (a b; b c) into inv[3], left 0 when it is
   singular to rounding. */
static void inv2(double a, double b, double c, double *inv)
{
    const double det = a * c - b * b;
    if (det > 1e-12 * (a * c) && det > RF_MINVAL) {
        inv[0] = c / det;
        inv[1] = -b / det;
        inv[2] = a / det;
    }
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
    memcpy(fr + F_T, e + 3, 3 * sizeof(double));
    memcpy(fr + F_T + 4, e + 6, 3 * sizeof(double));
    /* the sliding rows act along s_u t1 and s_w t2, the rolling rows
       about r_u t1 and r_w t2 (all 1 but for rf_problem_set_sliding_scales
       and _rolling_scales) */
    static const double unit[4] = {1.0, 1.0, 1.0, 1.0};
    const double *ax = p->axis_on ? p->con_axis + 4 * i : unit;
    const double su = ax[0], sw = ax[1];
    double rt_axis[6]; /* r_u t1, r_w t2 */
    for (int c = 0; c < 3; ++c) {
        rt_axis[c] = e[3 + c];
        rt_axis[3 + c] = e[6 + c];
    }
    if (p->axis_on) {
        for (int c = 0; c < 3; ++c) {
            fr[F_T + c] *= su;
            fr[F_T + 4 + c] *= sw;
            rt_axis[c] *= ax[2];
            rt_axis[3 + c] *= ax[3];
        }
    }
    const int ang = rf__contact_angular(p, i);
    if (ang) {
        memset(ar, 0, RF__SI_AREC * sizeof(double));
    }
    /* diagonal blocks: sum over the dynamic sides of lin M^-1 lin +
       ang I^-1 ang (the side's sign squares away) */
    double wnn = 0.0, wuu = 0.0, wuw = 0.0, www = 0.0;
    double ws = 0.0, wru = 0.0, wrx = 0.0, wrw = 0.0;
    for (int s = 0; s < 2; ++s) {
        const double *r = arm + 3 * s;
        double *rn = nr + (s == 0 ? N_RA : N_RB);
        double *rt = fr + (s == 0 ? F_RA : F_RB);
        rf__cross3(r, e, rn);
        rf__cross3(r, fr + F_T, rt);
        rf__cross3(r, fr + F_T + 4, rt + 4);
        const int b = side[s];
        if (!rf__dynamic_body(p, b)) {
            continue;
        }
        flags |= s == 0 ? RF__SI_DYN_A : RF__SI_DYN_B;
        const double *I = p->body_inv_inertia + 9 * b;
        const double *im = p->body_inv_mass + 3 * b;
        double *in = nr + (s == 0 ? N_IA : N_IB);
        double *it = fr + (s == 0 ? F_IA : F_IB);
        rf__mat3_vec(I, rn, in);
        rf__mat3_vec(I, rt, it);
        rf__mat3_vec(I, rt + 4, it + 4);
        double ln = 0.0, luu = 0.0, luw = 0.0, lww = 0.0;
        const double *t = fr + F_T;
        for (int c = 0; c < 3; ++c) {
            ln += im[c] * e[c] * e[c];
            luu += im[c] * t[c] * t[c];
            luw += im[c] * t[c] * t[4 + c];
            lww += im[c] * t[4 + c] * t[4 + c];
        }
        wnn += ln + dot3(rn, in);
        wuu += luu + dot3(rt, it);
        wuw += luw + dot3(rt, it + 4);
        www += lww + dot3(rt + 4, it + 4);
        if (ang) {
            double *ie = ar + (s == 0 ? A_IA : A_IB);
            rf__mat3_vec(I, e, ie);
            rf__mat3_vec(I, rt_axis, ie + 4);
            rf__mat3_vec(I, rt_axis + 3, ie + 8);
            ws += dot3(e, ie);
            wru += dot3(rt_axis, ie + 4);
            wrx += dot3(rt_axis, ie + 8);
            wrw += dot3(rt_axis + 3, ie + 8);
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
    inv2(fr[F_W], fr[F_W + 1], fr[F_W + 2], fr + F_INV);
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
        ar[A_TINV] = ax[2] / su;
        ar[A_TINV + 1] = ax[3] / sw;
        ar[A_STEP] = inv_lambda_max(ar[A_WR], ar[A_WR + 1],
                                    cone.roll_t1 ? 0.0 : ar[A_WR + 2]);
        if (cone.roll_t1) {
            flags |= RF__SI_T1;
        } else {
            inv2(ar[A_WR], ar[A_WR + 1], ar[A_WR + 2], ar + A_INV);
        }
    }
    return flags;
}

/* One part step of 1 or 2 components under the energy guard.  g (in/out)
   the part's impulses, u its velocities (bias and compliance included),
   W its block (a, b, c; b = c = 0 for one component), step 1 / lambda_max,
   rad the disc's radius, b its biases.  Returns the applied change in d
   and its guard terms (d.W d in *q). */
static RF__ALWAYS_INLINE void part_step(int n, double *g, const double *u,
                                        const double *W, const double *inv,
                                        double step, double rad,
                                        const double *bias, rf_si_guard *gd,
                                        double d[2], double *q)
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

/* A pair of bodies' velocities as 4-lane vectors, for one group: linear
   and angular of each side, and the sides' inverse masses per axis (0
   for a side that is not dynamic, whose velocity is read only). */
typedef struct si_pair {
    rf_v4 la, aa, lb, ab; /* v_a, w_a, v_b, w_b */
    rf_v4 ma, mb;         /* M_a^-1, M_b^-1 (diagonal) */
} si_pair;

static const double si_zero[6] = {0, 0, 0, 0, 0, 0};

/* The velocities of bodies a and b (RF_WORLD: zero) into v. */
static RF__ALWAYS_INLINE void sides_load(const double *vel, int a, int b,
                                         si_pair *v)
{
    const double *xa = a == RF_WORLD ? si_zero : vel + 6 * a;
    const double *xb = b == RF_WORLD ? si_zero : vel + 6 * b;
    v->la = v4_of3(xa);
    v->aa = v4_of3(xa + 3);
    v->lb = v4_of3(xb);
    v->ab = v4_of3(xb + 3);
}

static RF__ALWAYS_INLINE void
pair_load(const rf_problem *p, int i, const double *vel, int flags, si_pair *v)
{
    const int a = p->con_body[2 * i], b = p->con_body[2 * i + 1];
    sides_load(vel, a, b, v);
    v->ma = (flags & RF__SI_DYN_A) ? v4_of3(p->body_inv_mass + 3 * a)
                                   : v4_of3(si_zero);
    v->mb = (flags & RF__SI_DYN_B) ? v4_of3(p->body_inv_mass + 3 * b)
                                   : v4_of3(si_zero);
}

/* Write the velocities of bodies a (da: dynamic) and b (db) back. */
static RF__ALWAYS_INLINE void sides_store(double *vel, int a, int b, int da,
                                          int db, const si_pair *v)
{
    if (da) {
        v4_store3(vel + 6 * a, v->la);
        v4_store3(vel + 6 * a + 3, v->aa);
    }
    if (db) {
        v4_store3(vel + 6 * b, v->lb);
        v4_store3(vel + 6 * b + 3, v->ab);
    }
}

/* Write contact i's dynamic sides' velocities back. */
static RF__ALWAYS_INLINE void
pair_store(const rf_problem *p, int i, double *vel, int flags, const si_pair *v)
{
    sides_store(vel, p->con_body[2 * i], p->con_body[2 * i + 1],
                flags & RF__SI_DYN_A, flags & RF__SI_DYN_B, v);
}

/* The sliding pair of a contact (friction record fr): its two rows'
   velocities, the part step on the disc mu gn, both rows' impulse applied
   together.  da, db: the sides are dynamic (constants where inlined).
   Returns the change's d.W d. */
static RF__ALWAYS_INLINE double sliding_step(const double *fr, double *gi,
                                             si_pair *v, int da, int db,
                                             rf_si_guard *gd)
{
    const rf_v4 t1 = v4_load(fr + F_T), t2 = v4_load(fr + F_T + 4);
    const rf_v4 dv = v4_sub(v->la, v->lb);
    const double u[2] = {
        v4_dot3(t1, dv, v4_load(fr + F_RA), v->aa, v4_load(fr + F_RB), v->ab) +
            fr[F_BIAS] + fr[F_CFM] * gi[1],
        v4_dot3(t2, dv, v4_load(fr + F_RA + 4), v->aa, v4_load(fr + F_RB + 4),
                v->ab) +
            fr[F_BIAS + 1] + fr[F_CFM + 1] * gi[2]};
    double d[2], q;
    part_step(2, gi + 1, u, fr + F_W, fr + F_INV, fr[F_STEP], fr[F_MU] * gi[0],
              fr + F_BIAS, gd, d, &q);
    /* the linear impulse */
    const rf_v4 P = v4_add(v4_scale(d[0], t1), v4_scale(d[1], t2));
    if (da) {
        v->la = v4_add(v->la, v4_mul(v->ma, P));
        v->aa = v4_add(v->aa, v4_add(v4_scale(d[0], v4_load(fr + F_IA)),
                                     v4_scale(d[1], v4_load(fr + F_IA + 4))));
    }
    if (db) {
        v->lb = v4_sub(v->lb, v4_mul(v->mb, P));
        v->ab = v4_sub(v->ab, v4_add(v4_scale(d[0], v4_load(fr + F_IB)),
                                     v4_scale(d[1], v4_load(fr + F_IB + 4))));
    }
    return q;
}

/* The spin and rolling parts of contact i (normal record nr, friction
   fr, angular ar) against its normal impulse, velocities in v.  Returns
   their d.W d. */
static double angular_step(const double *nr, const double *fr, const double *ar,
                           int flags, double *gi, si_pair *v, rf_si_guard *gd)
{
    const int da = (flags & RF__SI_DYN_A) != 0;
    const int db = (flags & RF__SI_DYN_B) != 0;
    const double gn = gi[0];
    double ch = 0.0, d[2], q;
    if (ar[A_SIGMA] > 0.0) { /* spin about n */
        const rf_v4 dw = v4_sub(v->aa, v->ab);
        const double u[2] = {v4_dot(v4_load(nr + N_N), dw) + ar[A_BIAS] +
                                 ar[A_CFM] * gi[3],
                             0.0};
        const double W[3] = {ar[A_WS], 0.0, 0.0};
        part_step(1, gi + 3, u, W, NULL, 0.0, ar[A_SIGMA] * gn, ar + A_BIAS, gd,
                  d, &q);
        if (da) {
            v->aa = v4_add(v->aa, v4_scale(d[0], v4_load(ar + A_IA)));
        }
        if (db) {
            v->ab = v4_sub(v->ab, v4_scale(d[0], v4_load(ar + A_IB)));
        }
        ch += q;
    }
    if (ar[A_RHO] > 0.0) { /* rolling about t1 (and t2) */
        const int n = (flags & RF__SI_T1) ? 1 : 2;
        const rf_v4 dw = v4_sub(v->aa, v->ab);
        /* r_k t_k . dw from the friction record's s_k t_k (x 1 exactly
           without axis scales) */
        const double u[2] = {v4_dot(v4_load(fr + F_T), dw) * ar[A_TINV] +
                                 ar[A_BIAS + 1] + ar[A_CFM + 1] * gi[4],
                             n == 2 ? v4_dot(v4_load(fr + F_T + 4), dw) *
                                              ar[A_TINV + 1] +
                                          ar[A_BIAS + 2] + ar[A_CFM + 2] * gi[5]
                                    : 0.0};
        part_step(n, gi + 4, u, ar + A_WR, ar + A_INV, ar[A_STEP],
                  ar[A_RHO] * gn, ar + A_BIAS + 1, gd, d, &q);
        if (da) {
            v->aa =
                v4_add(v->aa, v4_add(v4_scale(d[0], v4_load(ar + A_IA + 4)),
                                     v4_scale(d[1], v4_load(ar + A_IA + 8))));
        }
        if (db) {
            v->ab =
                v4_sub(v->ab, v4_add(v4_scale(d[0], v4_load(ar + A_IB + 4)),
                                     v4_scale(d[1], v4_load(ar + A_IB + 8))));
        }
        ch += q;
    }
    return ch;
}

/* The normal pass over a group's contacts [lo, hi) (one pair of bodies,
   their velocities in v for the whole group: a manifold's four points
   chain through them), in rounds: a group of two or more contacts repeats
   its normal rows until a round changes them by at most
   RF__SI_NROUND_TOL of their size (W-weighted squares), at most
   rf__si_normal_rounds(cfg) rounds (the file comment says why).  da, db:
   the sides are dynamic (constants where inlined, so the common pairs
   compile without a branch per row).  Returns the changes' W-weighted
   square summed over the rounds; adds the impulses' to *gn2. */
static RF__ALWAYS_INLINE double normal_group(const rf_problem *p,
                                             const rf_config *cfg, int lo,
                                             int hi, double *gamma, si_pair *v,
                                             int da, int db, double *gn2,
                                             rf_si_guard *gd)
{
    const double *nrec = p->work.si_nrec;
    const int rounds = hi - lo > 1 ? rf__si_normal_rounds(cfg) : 1;
    double d2 = 0.0, g2 = 0.0;
    for (int r = 0; r < rounds; ++r) {
        double rd2 = 0.0;
        g2 = 0.0;
        for (int i = lo; i < hi; ++i) {
            const double *nr = nrec + (size_t)RF__SI_NREC * i;
            const rf_v4 n = v4_load(nr + N_N);
            double *gi = gamma + 6 * i;
            const double gn = gi[0];
            const double u =
                v4_dot3(n, v4_sub(v->la, v->lb), v4_load(nr + N_RA), v->aa,
                        v4_load(nr + N_RB), v->ab) +
                nr[N_BIAS] + nr[N_CFM] * gn;
            double d = rf__clamp(gn - u * nr[N_INV], 0.0, nr[N_NMAX]) - gn;
            d *= rf__si_guard_apply(gd, d * u, d * nr[N_BIAS], nr[N_W] * d * d);
            const double g = gn + d;
            gi[0] = g;
            if (da) {
                v->la = v4_add(v->la, v4_scale(d, v4_mul(v->ma, n)));
                v->aa = v4_add(v->aa, v4_scale(d, v4_load(nr + N_IA)));
            }
            if (db) {
                v->lb = v4_sub(v->lb, v4_scale(d, v4_mul(v->mb, n)));
                v->ab = v4_sub(v->ab, v4_scale(d, v4_load(nr + N_IB)));
            }
            g2 += nr[N_W] * g * g;
            rd2 += nr[N_W] * d * d;
        }
        d2 += rd2;
        if (!(rd2 > RF__SI_NROUND_TOL * RF__SI_NROUND_TOL * g2)) {
            break;
        }
    }
    *gn2 += g2;
    return d2;
}

/* The friction pass over a group's contacts: each contact's sliding pair;
   a contact with spin or rolling friction repeats its sliding, spin and
   rolling parts up to min(local_iter, RF__SI_ROUNDS) rounds, until a round
   changes nothing at rounding level (the file comment). */
static RF__ALWAYS_INLINE double friction_group(const rf_problem *p,
                                               const rf_config *cfg, int lo,
                                               int hi, double *gamma,
                                               si_pair *v, int da, int db,
                                               double *gn2, rf_si_guard *gd)
{
    const rf_work *w = &p->work;
    const int rounds = rf__si_rounds(cfg);
    double d2 = 0.0, g2 = 0.0;
    for (int i = lo; i < hi; ++i) {
        const double *fr = w->si_frec + (size_t)RF__SI_FREC * i;
        double *gi = gamma + 6 * i;
        const int sliding = fr[F_MU] > 0.0;
        const int flags = w->si_flags[i];
        if (gi[0] == 0.0 && gi[1] == 0.0 && gi[2] == 0.0 && gi[3] == 0.0 &&
            gi[4] == 0.0 && gi[5] == 0.0) {
            /* no normal impulse: every friction disc has radius 0 and the
               parts are at 0 already, so each step would change nothing
               (a separated, speculative point) */
            continue;
        }
        if (!(flags & RF__SI_ANG)) { /* the common contact (boxes): once */
            d2 += sliding ? sliding_step(fr, gi, v, da, db, gd) : 0.0;
        } else {
            const double *nr = w->si_nrec + (size_t)RF__SI_NREC * i;
            const double *ar = w->si_arec + (size_t)RF__SI_AREC * i;
            for (int r = 0; r < rounds; ++r) {
                double ch = sliding ? sliding_step(fr, gi, v, da, db, gd) : 0.0;
                ch += angular_step(nr, fr, ar, flags, gi, v, gd);
                d2 += ch;
                if (ch <= 1e-24 * (fr[F_W] * gi[1] * gi[1] +
                                   fr[F_W + 2] * gi[2] * gi[2] + RF_MINVAL)) {
                    break;
                }
            }
        }
        g2 += fr[F_W] * gi[1] * gi[1] + fr[F_W + 2] * gi[2] * gi[2];
    }
    *gn2 += g2;
    return d2;
}

/* One pass over a group with the sides' dynamic flags as constants. */
static RF__ALWAYS_INLINE double
group_pass(const rf_problem *p, const rf_config *cfg, int pass_friction, int lo,
           int hi, double *gamma, double *vel, int flags, int da, int db,
           double *gn2, rf_si_guard *gd)
{
    si_pair v;
    pair_load(p, lo, vel, flags, &v);
    const double d2 =
        pass_friction
            ? friction_group(p, cfg, lo, hi, gamma, &v, da, db, gn2, gd)
            : normal_group(p, cfg, lo, hi, gamma, &v, da, db, gn2, gd);
    pair_store(p, lo, vel, flags, &v);
    return d2;
}

/* every line of [a, a + bytes) */
static RF__ALWAYS_INLINE void prefetch_span(const void *a, size_t bytes)
{
    rf__prefetch_bytes((uintptr_t)a, (uintptr_t)a + bytes);
}

void rf__si_rows_prefetch(const rf_problem *p, int pass_friction, int lo,
                          int hi, const double *gamma, const double *vel)
{
    const rf_work *w = &p->work;
    const size_t d = sizeof(double), n = (size_t)(hi - lo);
    if (lo >= p->ncon) { /* joint rows: visited in the normal pass */
        if (!pass_friction) {
            prefetch_span(w->si_jrec + (size_t)RF__SI_JREC * (lo - p->ncon),
                          RF__SI_JREC * n * d);
            prefetch_span(gamma + 6 * (size_t)p->ncon + (lo - p->ncon), n * d);
        }
        return;
    }
    if (!pass_friction) {
        prefetch_span(w->si_nrec + (size_t)RF__SI_NREC * lo,
                      RF__SI_NREC * n * d);
    } else {
        prefetch_span(w->si_frec + (size_t)RF__SI_FREC * lo,
                      RF__SI_FREC * n * d);
        if (w->si_flags[lo] & RF__SI_ANG) {
            prefetch_span(w->si_arec + (size_t)RF__SI_AREC * lo,
                          RF__SI_AREC * n * d);
            for (int i = lo; i < hi; ++i) { /* the normal (spin axis) */
                prefetch_span(w->si_nrec + (size_t)RF__SI_NREC * i + N_N,
                              3 * d);
            }
        }
    }
    prefetch_span(gamma + 6 * (size_t)lo, 6 * n * d);
    for (int s = 0; s < 2; ++s) {
        const int b = p->con_body[2 * lo + s];
        if (b != RF_WORLD) {
            prefetch_span(vel + 6 * (size_t)b, 6 * d);
        }
    }
}

double rf__si_rows_group(const rf_problem *p, const rf_config *cfg,
                         int pass_friction, int lo, int hi, double *gamma,
                         double *vel, double *gn2, rf_si_guard *gd)
{
    const int flags = p->work.si_flags[lo];
    const int f = pass_friction;
    switch (flags & (RF__SI_DYN_A | RF__SI_DYN_B)) {
    case RF__SI_DYN_A | RF__SI_DYN_B:
        return group_pass(p, cfg, f, lo, hi, gamma, vel, flags, 1, 1, gn2, gd);
    case RF__SI_DYN_A:
        return group_pass(p, cfg, f, lo, hi, gamma, vel, flags, 1, 0, gn2, gd);
    case RF__SI_DYN_B:
        return group_pass(p, cfg, f, lo, hi, gamma, vel, flags, 0, 1, gn2, gd);
    default:
        return group_pass(p, cfg, f, lo, hi, gamma, vel, flags, 0, 0, gn2, gd);
    }
}

/* Joint rows.  Bullet's btSolverConstraint keeps M^-1 J^T beside J for
   the same reason: a visit is two dot products and two updates, not an
   inertia product per side (quick ragdolls, about 300 rows beside 23
   contacts: the rows took 30% of the cone step through rf__row_velocity
   and rf__row_apply). */
void rf__si_joint_build(rf_problem *p, int j)
{
    double *r = p->work.si_jrec + (size_t)RF__SI_JREC * j;
    double d = 0.0;
    for (int s = 0; s < 2; ++s) {
        const int b = p->row_body[2 * j + s];
        const double *J = p->row_jac + 12 * j + 6 * s;
        double *lin = r + (s == 0 ? J_LA : J_LB);
        double *ang = r + (s == 0 ? J_AA : J_AB);
        double *m = r + (s == 0 ? J_MA : J_MB);
        double *ia = r + (s == 0 ? J_IA : J_IB);
        /* every 3-vector's fourth lane 0 (no memset: its start-up cost
           was a third of the build) */
        for (int c = 0; c < 3; ++c) {
            lin[c] = J[c];
            ang[c] = J[3 + c];
        }
        lin[3] = ang[3] = m[3] = ia[3] = 0.0;
        if (!rf__dynamic_body(p, b)) {
            m[0] = m[1] = m[2] = ia[0] = ia[1] = ia[2] = 0.0;
            continue;
        }
        const double *im = p->body_inv_mass + 3 * b;
        rf__mat3_vec(p->body_inv_inertia + 9 * b, J + 3, ia);
        for (int c = 0; c < 3; ++c) {
            m[c] = im[c] * J[c];
        }
        d += dot3(J, m) + dot3(J + 3, ia);
    }
    const double dj = d + p->row_cfm[j];
    r[J_BIAS] = p->row_bias[j];
    r[J_CFM] = p->row_cfm[j];
    r[J_STEP] = dj > RF_MINVAL ? 1.0 / dj : 0.0;
    r[J_STEP + 1] = 0.0;
}

/* One row's step on the velocities in registers (rf__si_joint_run). */
static RF__ALWAYS_INLINE double joint_step(const rf_problem *p, double omega,
                                           int j, double *gamma, si_pair *v,
                                           int da, int db, double *gn2,
                                           rf_si_guard *gd)
{
    const double *r = p->work.si_jrec + (size_t)RF__SI_JREC * j;
    double *lam = gamma + 6 * p->ncon + j;
    const rf_v4 t = v4_add(v4_add(v4_mul(v4_load(r + J_LA), v->la),
                                  v4_mul(v4_load(r + J_AA), v->aa)),
                           v4_add(v4_mul(v4_load(r + J_LB), v->lb),
                                  v4_mul(v4_load(r + J_AB), v->ab)));
    const rf_v2 t2 = t.lo + t.hi;
    const double u = (t2[0] + t2[1]) + r[J_BIAS] + r[J_CFM] * *lam;
    double lo, hi;
    rf__row_bounds(p, NULL, j, gamma, &lo, &hi);
    const double step = r[J_STEP];
    double dl = rf__clamp(*lam - omega * step * u, lo, hi) - *lam;
    const double q = step > 0.0 ? dl * dl / step : 0.0;
    dl *= rf__si_guard_apply(gd, dl * u, dl * r[J_BIAS], q);
    const double ln = *lam + dl;
    *lam = ln;
    if (da) {
        v->la = v4_add(v->la, v4_scale(dl, v4_load(r + J_MA)));
        v->aa = v4_add(v->aa, v4_scale(dl, v4_load(r + J_IA)));
    }
    if (db) {
        v->lb = v4_add(v->lb, v4_scale(dl, v4_load(r + J_MB)));
        v->ab = v4_add(v->ab, v4_scale(dl, v4_load(r + J_IB)));
    }
    /* scaled by sqrt(diag) = 1 / sqrt(step) */
    *gn2 += ln * ln * step;
    return dl * dl * step;
}

void rf__si_joint_run(const rf_problem *p, double omega, int lo, int hi,
                      double *gamma, double *vel, double *d2, double *gn2,
                      rf_si_guard *gd, double *E, double *B)
{
    const rf_v4 z = v4_of3(si_zero);
    si_pair v = {z, z, z, z, z, z}; /* loaded at the first row */
    int a = RF_WORLD - 1, b = RF_WORLD - 1, da = 0, db = 0;
    /* the sums in registers: through the pointers, which may alias gamma
       and vel as far as the compiler knows, every row reloaded and stored
       them */
    double d2s = *d2, gn2s = *gn2, Es = E != NULL ? *E : 0.0,
           Bs = B != NULL ? *B : 0.0;
    for (int j = lo; j < hi; ++j) {
        const int ja = p->row_body[2 * j], jb = p->row_body[2 * j + 1];
        if (ja != a || jb != b) { /* another pair: the last one's back */
            sides_store(vel, a, b, da, db, &v);
            a = ja;
            b = jb;
            da = rf__dynamic_body(p, a);
            db = rf__dynamic_body(p, b);
            sides_load(vel, a, b, &v);
        }
        if (E != NULL) { /* each row with the whole slack left */
            rf_si_guard en = {0.0, 0.0, 0.0};
            en.share = rf__si_guard_slack(Es, Bs);
            d2s += joint_step(p, omega, j, gamma, &v, da, db, &gn2s, &en);
            Es += en.d_e;
            Bs += en.d_b;
        } else {
            d2s += joint_step(p, omega, j, gamma, &v, da, db, &gn2s, gd);
        }
    }
    sides_store(vel, a, b, da, db, &v);
    *d2 = d2s;
    *gn2 = gn2s;
    if (E != NULL) {
        *E = Es;
        *B = Bs;
    }
}
