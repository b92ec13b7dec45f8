/*
 * The contact Jacobian D and the products built on it (DESIGN §1, §4;
 * Tasora App. B written with world-frame angular velocities).
 *
 * Contact i between bodies A and B with frame (e0, e1, e2) = (n, t1, t2)
 * and lever arms r_A, r_B.  The rows of D_i^T acting on body A are
 *
 *   k = 0..2 (forces):   (e_k, r_A x e_k)
 *   k = 3..5 (torques):  (0,   e_{k-3})
 *
 * and their negatives on body B, so that
 *
 *   u_k     = e_k . (v_A - v_B) + (r_A x e_k) . w_A - (r_B x e_k) . w_B
 *   u_{3+k} = e_k . (w_A - w_B)
 *
 * and gamma_i applies to A the force F = sum_k g_k e_k and the torque
 * sum_k g_k (r_A x e_k) + sum_k g_{3+k} e_k (the opposite to B).
 *
 * N gamma = D^T M^-1 D gamma is computed in two passes, never formed:
 *   1. per body: sum the impulses of its contacts (in contact order, from
 *      the body -> contacts index) and apply M^-1; where rf_solve built
 *      no index (SI on one thread: solve.c, skip_body_index), item by
 *      item into the bodies' sums, in the same order (body_pass_scatter);
 *   2. per contact: read the two bodies' velocity changes through D_i^T.
 * Each pass writes only its own slots: no races, no atomics, and the
 * result does not depend on the number of threads.
 *
 * Rows (rf_row_desc) carry their Jacobian as given, signs included:
 *   u_j = lin_a . v_A + ang_a . w_A + lin_b . v_B + ang_b . w_B + bias
 *         + cfm lambda_j,
 * and lambda_j applies (lambda_j lin_s, lambda_j ang_s) to side s.  They
 * share the passes above: the body index lists contacts and rows (items).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

rf_status rf__build_body_index(rf_problem *p, rf_error *err)
{
    rf_work *w = &p->work;
    rf_status st = rf__work_reserve(p, 0, err);
    if (st != RF_OK) {
        return st;
    }
    const int nitem = rf__nitem(p);
    int *ptr = w->bc_ptr;
    memset(ptr, 0, (size_t)(p->nbody + 1) * sizeof(int));
    for (int i = 0; i < nitem; ++i) {
        for (int s = 0; s < 2; ++s) {
            int b = rf__item_body(p, i, s);
            if (rf__dynamic_body(p, b)) {
                ptr[b + 1]++;
            }
        }
    }
    for (int b = 0; b < p->nbody; ++b) {
        ptr[b + 1] += ptr[b];
    }
    /* Fill in item order, advancing ptr[b] as a cursor, then shift ptr
       back by one body. */
    for (int i = 0; i < nitem; ++i) {
        for (int s = 0; s < 2; ++s) {
            int b = rf__item_body(p, i, s);
            if (rf__dynamic_body(p, b)) {
                w->bc_ent[ptr[b]++] = 2 * i + s;
            }
        }
    }
    for (int b = p->nbody; b > 0; --b) {
        ptr[b] = ptr[b - 1];
    }
    ptr[0] = 0;
    w->bc_valid = 1;
    return RF_OK;
}

/* The world impulse of contact i, force then torque without the lever
   arm: f[0:3] = E^T g_{0:3}, f[3:6] = E^T g_{3:6} (Tasora (20)-(21)). */
static inline void contact_world_impulse(const rf_problem *p, int i,
                                         const double *g, double f[6])
{
    const double *e = p->con_frame + 9 * i;
    double gu = g[1], gw = g[2], ru = g[4], rw = g[5];
    if (p->axis_on) { /* the rows along s_u t1, s_w t2, r_u t1, r_w t2 */
        const double *a = p->con_axis + 4 * i;
        gu *= a[0];
        gw *= a[1];
        ru *= a[2];
        rw *= a[3];
    }
    for (int c = 0; c < 3; ++c) {
        f[c] = g[0] * e[c] + gu * e[3 + c] + gw * e[6 + c];
        f[3 + c] = g[3] * e[c] + ru * e[3 + c] + rw * e[6 + c];
    }
}

/* Impulse (force F, torque T) that the world impulse f of contact i
   applies to its side s, sign included (+ for A, - for B): F = sg f_{0:3},
   T = r_s x F + sg f_{3:6} (Tasora (20)-(21): the sliding rows' angular
   parts r x e_k summed are one cross product with the lever arm, 6
   multiplies instead of 9 stored entries). */
static inline void side_impulse(const rf_problem *p, int i, int s,
                                const double f[6], double F[3], double T[3])
{
    const double *r = p->con_arm + 6 * i + 3 * s;
    const double sg = s == 0 ? 1.0 : -1.0;
    for (int c = 0; c < 3; ++c) {
        F[c] = sg * f[c];
    }
    rf__cross3(r, F, T);
    for (int c = 0; c < 3; ++c) {
        T[c] += sg * f[3 + c];
    }
}

/* Impulse (force F, torque T) that gamma_i applies to side s of contact i. */
static inline void contact_impulse(const rf_problem *p, int i, int s,
                                   const double *g, double F[3], double T[3])
{
    double f[6];
    contact_world_impulse(p, i, g, f);
    side_impulse(p, i, s, f, F, T);
}

/* Impulse (force F, torque T) that row j's lambda applies to side s. */
static inline void row_impulse(const rf_problem *p, int j, int s, double lam,
                               double F[3], double T[3])
{
    const double *J = p->row_jac + 12 * j + 6 * s;
    for (int c = 0; c < 3; ++c) {
        F[c] = lam * J[c];
        T[c] = lam * J[3 + c];
    }
}

double rf__row_velocity(const rf_problem *p, int j, const double *vel)
{
    const double *J = p->row_jac + 12 * j;
    double u = p->row_bias[j];
    for (int s = 0; s < 2; ++s) {
        int b = p->row_body[2 * j + s];
        if (b == RF_WORLD) {
            continue;
        }
        const double *v = vel + 6 * b, *Js = J + 6 * s;
        u += Js[0] * v[0] + Js[1] * v[1] + Js[2] * v[2] + Js[3] * v[3] +
             Js[4] * v[4] + Js[5] * v[5];
    }
    return u;
}

/* The world impulse of contact i (contact_world_impulse) of S gamma: the
   part scaling applied when scale is set (body_pass_ws). */
static inline void scaled_world_impulse(const rf_problem *p, int i,
                                        const double *gamma,
                                        const double *scale, double f[6])
{
    const double *gi = gamma + 6 * i;
    if (scale != NULL) {
        const double *s = scale + 4 * i;
        const double g[6] = {gi[0] * s[0], gi[1] * s[1], gi[2] * s[1],
                             gi[3] * s[2], gi[4] * s[3], gi[5] * s[3]};
        contact_world_impulse(p, i, g, f);
    } else {
        contact_world_impulse(p, i, gi, f);
    }
}

/* The impulse (F, T) that item i applies to its side s: a contact's from
   its world impulse f, a row's from its (scaled) lambda (f unused). */
static inline void item_side_impulse(const rf_problem *p, int i, int s,
                                     const double *f, const double *gamma,
                                     const double *scale, double F[3],
                                     double T[3])
{
    const int ncon = p->ncon;
    if (i < ncon) {
        side_impulse(p, i, s, f, F, T);
    } else {
        const int j = i - ncon;
        const double sj = scale != NULL ? scale[4 * ncon + j] : 1.0;
        row_impulse(p, j, s, gamma[6 * ncon + j] * sj, F, T);
    }
}

/* Body b's result from its summed impulse (P, L): imp[b] = (P, L) unless
   imp is NULL, bv[b] = base[b] + M_b^-1 (P, L) (base NULL: zero). */
static inline void body_result(const rf_problem *p, int b, const double P[3],
                               const double L[3], const double *base,
                               double *bv, double *imp)
{
    if (imp != NULL) { /* the body's impulse, (P, L) */
        for (int c = 0; c < 3; ++c) {
            imp[6 * b + c] = P[c];
            imp[6 * b + 3 + c] = L[c];
        }
    }
    double dw[3];
    rf__mat3_vec(p->body_inv_inertia + 9 * b, L, dw);
    const double *im = p->body_inv_mass + 3 * b;
    double *out = bv + 6 * b;
    for (int c = 0; c < 3; ++c) {
        const double b0 = base ? base[6 * b + c] : 0.0;
        const double b1 = base ? base[6 * b + 3 + c] : 0.0;
        out[c] = b0 + im[c] * P[c];
        out[3 + c] = b1 + dw[c];
    }
}

/* body_pass_ws on one thread without the body index: each item's side
   impulses added to its bodies' sums (in bv, then turned into the
   velocities in place), items in order.  A body's sum takes its terms in
   the index's order (items in order, side 0 before side 1), so the bits
   are body_pass_ws's; and it needs neither the index (rebuilt at every
   solve: a pass over the items with two scattered counts each) nor the
   index's indirect reads.  bv must not alias base (it is cleared first;
   every caller passes the bodies' own velocities or NULL as base). */
static void body_pass_scatter(const rf_problem *p, const double *gamma,
                              const double *scale, const double *base,
                              double *bv, double *imp)
{
    const int nbody = p->nbody, ncon = p->ncon, nitem = rf__nitem(p);
    memset(bv, 0, (size_t)6 * nbody * sizeof(double));
    for (int i = 0; i < nitem; ++i) {
        double f[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0}; /* rows: unused */
        if (i < ncon) {
            scaled_world_impulse(p, i, gamma, scale, f);
        }
        for (int s = 0; s < 2; ++s) {
            const int b = rf__item_body(p, i, s);
            if (!rf__dynamic_body(p, b)) {
                continue;
            }
            double F[3], T[3];
            item_side_impulse(p, i, s, f, gamma, scale, F, T);
            double *acc = bv + 6 * b;
            for (int c = 0; c < 3; ++c) {
                acc[c] += F[c];
                acc[3 + c] += T[c];
            }
        }
    }
    for (int b = 0; b < nbody; ++b) {
        const double *sum = bv + 6 * b; /* read before body_result writes */
        const double P[3] = {sum[0], sum[1], sum[2]};
        const double L[3] = {sum[3], sum[4], sum[5]};
        body_result(p, b, P, L, base, bv, imp);
    }
}

/* bv[b] = base[b] + M_b^-1 (sum of impulses of S gamma on b); base may
   be NULL (zero), scale may be NULL (S = I; else the part scaling, so the
   caller's gamma is gamma' and no scaled copy is formed); bv must not alias
   base.  Fixed bodies get
   base (their own velocity) only.

   Two phases: each contact's world impulse is formed once, in contact
   order (a streaming pass over the frames), into work.cimp; the bodies
   then gather it with their lever arms.  Forming it per visit instead
   read the frame, gamma and the scaling at random twice per contact (one
   visit per dynamic side): the gather touched 5 to 6 cache lines per visit,
   now 2 to 3.

   Worksharing loops only, no region of its own: every thread of the
   calling region must call it (or one thread outside any region), so that
   a product is one parallel region, not one per pass.  A region costs a
   fork and a join, about 2.5 us on 2 threads of the 2-core box; a Jacobi
   iteration on 900 contacts went from 39 to 29 us (2 threads) when its
   three regions became one. */
static void body_pass_ws(const rf_problem *p, const double *gamma,
                         const double *scale, const double *base, double *bv,
                         double *imp)
{
    const rf_work *w = &p->work;
    if (!w->bc_valid) { /* no index this solve (solve.c, skip_body_index) */
#pragma omp single
        body_pass_scatter(p, gamma, scale, base, bv, imp);
        return;
    }
    double *cimp = w->cimp;
    const int nbody = p->nbody, ncon = p->ncon;
#pragma omp for schedule(static)
    for (int i = 0; i < ncon; ++i) {
        scaled_world_impulse(p, i, gamma, scale, cimp + 6 * i);
    }
#pragma omp for schedule(static)
    for (int b = 0; b < nbody; ++b) {
        double P[3] = {0.0, 0.0, 0.0}, L[3] = {0.0, 0.0, 0.0};
        for (int k = w->bc_ptr[b]; k < w->bc_ptr[b + 1]; ++k) {
            const int e = w->bc_ent[k], i = e >> 1;
            double F[3], T[3];
            item_side_impulse(p, i, e & 1, i < ncon ? cimp + 6 * i : NULL,
                              gamma, scale, F, T);
            for (int c = 0; c < 3; ++c) {
                P[c] += F[c];
                L[c] += T[c];
            }
        }
        body_result(p, b, P, L, base, bv, imp);
    }
}

/* One rule for every pass of a product, since they share one region. */
int rf__product_parallel(const rf_problem *p)
{
    return p->nbody > 512 || p->ncon > 512;
}

static void body_pass(const rf_problem *p, const double *gamma,
                      const double *scale, const double *base, double *bv,
                      int threads)
{
    RF__PASS(threads, rf__product_parallel(p),
             body_pass_ws(p, gamma, scale, base, bv, NULL));
}

/* u = D_i^T vel (no bias) for one contact: the sliding rows read the
   relative velocity of the contact point, (v_a + w_a x r_a) - (v_b + w_b x
   r_b), since (r x e_k) . w = e_k . (w x r) (Tasora (20)); the spin and
   rolling rows the relative angular velocity. */
static const double zero_velocity[6] = {0, 0, 0, 0, 0, 0};

/* The relative velocity of contact i's two points, A's less B's (v_a + w_a
   x r_a - v_b - w_b x r_b), into dv; its sides' velocities into *va, *vb
   (a zero velocity for the world). */
static inline void contact_point_velocity(const rf_problem *p, int i,
                                          const double *vel, double dv[3],
                                          const double **va_out,
                                          const double **vb_out)
{
    const double *ra = p->con_arm + 6 * i, *rb = ra + 3;
    const int a = p->con_body[2 * i], b = p->con_body[2 * i + 1];
    const double *va = a == RF_WORLD ? zero_velocity : vel + 6 * a;
    const double *vb = b == RF_WORLD ? zero_velocity : vel + 6 * b;
    double pa[3], pb[3];
    rf__cross3(va + 3, ra, pa);
    rf__cross3(vb + 3, rb, pb);
    for (int c = 0; c < 3; ++c) {
        dv[c] = va[c] + pa[c] - vb[c] - pb[c];
    }
    *va_out = va;
    *vb_out = vb;
}

static inline void contact_velocity_nobias(const rf_problem *p, int i,
                                           const double *vel, double u[6])
{
    const double *e = p->con_frame + 9 * i;
    const double *va, *vb;
    double dv[3];
    contact_point_velocity(p, i, vel, dv, &va, &vb);
    const double dw[3] = {va[3] - vb[3], va[4] - vb[4], va[5] - vb[5]};
    for (int k = 0; k < 3; ++k) {
        const double *ek = e + 3 * k;
        u[k] = ek[0] * dv[0] + ek[1] * dv[1] + ek[2] * dv[2];
        u[3 + k] = ek[0] * dw[0] + ek[1] * dw[1] + ek[2] * dw[2];
    }
    if (p->axis_on) {
        const double *a = p->con_axis + 4 * i;
        u[1] *= a[0];
        u[2] *= a[1];
        u[4] *= a[2];
        u[5] *= a[3];
    }
}

void rf__contact_velocity(const rf_problem *p, int i, const double *vel,
                          double u[6])
{
    contact_velocity_nobias(p, i, vel, u);
    const double *bias = p->con_bias + 6 * i;
    for (int k = 0; k < 6; ++k) {
        u[k] += bias[k];
    }
}

double rf__contact_normal_velocity(const rf_problem *p, int i,
                                   const double *vel)
{
    const double *n = p->con_frame + 9 * i;
    const double *va, *vb;
    double dv[3];
    contact_point_velocity(p, i, vel, dv, &va, &vb);
    return (n[0] * dv[0] + n[1] * dv[1] + n[2] * dv[2]) + p->con_bias[6 * i];
}

void rf__item_velocity(const rf_problem *p, const double *g, const double *vel,
                       double *u, int threads)
{
    const int ncon = p->ncon;
#pragma omp parallel for schedule(static) num_threads(threads) if (ncon > 512)
    for (int i = 0; i < ncon; ++i) {
        rf__contact_velocity(p, i, vel, u + 6 * i);
        for (int k = 0; p->cfm_on && k < 6; ++k) {
            u[6 * i + k] += p->con_cfm[6 * i + k] * g[6 * i + k];
        }
    }
    for (int j = 0; j < p->nrow; ++j) {
        u[6 * ncon + j] =
            rf__row_velocity(p, j, vel) + p->row_cfm[j] * g[6 * ncon + j];
    }
}

/* vel[b] += M_b^-1 (F, T) for dynamic body b. */
static void add_impulse(const rf_problem *p, int b, const double F[3],
                        const double T[3], double *vel)
{
    double dw[3];
    rf__mat3_vec(p->body_inv_inertia + 9 * b, T, dw);
    const double *im = p->body_inv_mass + 3 * b;
    double *v = vel + 6 * b;
    for (int c = 0; c < 3; ++c) {
        v[c] += im[c] * F[c];
        v[3 + c] += dw[c];
    }
}

void rf__contact_apply(const rf_problem *p, int i, const double dg[6],
                       double *vel)
{
    for (int s = 0; s < 2; ++s) {
        int b = p->con_body[2 * i + s];
        if (rf__dynamic_body(p, b)) {
            double F[3], T[3];
            contact_impulse(p, i, s, dg, F, T);
            add_impulse(p, b, F, T, vel);
        }
    }
}

void rf__row_apply(const rf_problem *p, int j, double dl, double *vel)
{
    for (int s = 0; s < 2; ++s) {
        int b = p->row_body[2 * j + s];
        if (rf__dynamic_body(p, b)) {
            double F[3], T[3];
            row_impulse(p, j, s, dl, F, T);
            add_impulse(p, b, F, T, vel);
        }
    }
}

double rf__row_diag(const rf_problem *p, int j)
{
    double d = 0.0;
    for (int s = 0; s < 2; ++s) {
        int b = p->row_body[2 * j + s];
        if (!rf__dynamic_body(p, b)) {
            continue;
        }
        const double *J = p->row_jac + 12 * j + 6 * s;
        const double *im = p->body_inv_mass + 3 * b;
        double Ia[3];
        rf__mat3_vec(p->body_inv_inertia + 9 * b, J + 3, Ia);
        d += im[0] * J[0] * J[0] + im[1] * J[1] * J[1] + im[2] * J[2] * J[2] +
             J[3] * Ia[0] + J[4] * Ia[1] + J[5] * Ia[2];
    }
    return d;
}

/* CSR product out = W x (+ q). */
static void csr_pass(const rf_problem *p, const double *x, int add_q,
                     double *out, int threads)
{
    const rf_csr *W = &p->W;
    const int m = W->n;
#pragma omp parallel for schedule(static) num_threads(threads) if (m > 3072)
    for (int r = 0; r < m; ++r) {
        double s = add_q ? p->q[r] : 0.0;
        for (int k = W->row_ptr[r]; k < W->row_ptr[r + 1]; ++k) {
            s += W->val[k] * x[W->col[k]];
        }
        out[r] = s;
    }
}

/* Rows' part of apply_N: out_j = J_j bv (+ bias when add_r) + cfm g_j.
   Worksharing, no barrier at its end (the contacts' pass after it writes
   other entries of out). */
static void rows_pass_ws(const rf_problem *p, const double *gamma,
                         const double *bv, int add_r, double *out)
{
    const int nrow = p->nrow, m6 = 6 * p->ncon;
#pragma omp for schedule(static) nowait
    for (int j = 0; j < nrow; ++j) {
        double u = rf__row_velocity(p, j, bv);
        if (!add_r) {
            u -= p->row_bias[j];
        }
        out[m6 + j] = u + p->row_cfm[j] * gamma[m6 + j];
    }
}

/* rf__apply_N's passes, worksharing (in its region or called alone). */
static void apply_N_ws(rf_problem *p, const double *gamma, double *out,
                       int add_r)
{
    double *bv = p->work.bv0;
    const int ncon = p->ncon;
    /* compliance: u += c gamma per component (Tasora 6.2: N - E) */
    const double *cfm = p->cfm_on ? p->con_cfm : NULL;
    body_pass_ws(p, gamma, NULL, add_r ? p->body_vel : NULL, bv, NULL);
    rows_pass_ws(p, gamma, bv, add_r, out);
    /* Without r: no bias and fixed bodies contribute nothing. */
#pragma omp for schedule(static)
    for (int i = 0; i < ncon; ++i) {
        if (add_r) {
            rf__contact_velocity(p, i, bv, out + 6 * i);
        } else {
            contact_velocity_nobias(p, i, bv, out + 6 * i);
        }
        for (int k = 0; cfm != NULL && k < 6; ++k) {
            out[6 * i + k] += cfm[6 * i + k] * gamma[6 * i + k];
        }
    }
}

void rf__apply_N(rf_problem *p, const double *gamma, double *out, int add_r,
                 int threads)
{
    if (p->kind == RF_KIND_LOCAL) {
        csr_pass(p, gamma, add_r, out, threads);
        return;
    }
    RF__PASS(threads, rf__product_parallel(p),
             apply_N_ws(p, gamma, out, add_r));
}

/* Contact i's part of the scaled product: o = S (D_i^T bv + C S x) + rr. */
static inline void scaled_contact_out(const rf_problem *p, const double *scale,
                                      const double *bv, const double *x,
                                      const double *rr, int i, double o[6])
{
    double u[6];
    contact_velocity_nobias(p, i, bv, u);
    const double *s = scale + 4 * i;
    if (p->cfm_on) { /* c gamma, gamma = S x */
        const double *cfm = p->con_cfm + 6 * i;
        for (int k = 0; k < 6; ++k) {
            u[k] += cfm[k] * x[6 * i + k] * s[RF_PART[k]];
        }
    }
    for (int k = 0; k < 6; ++k) {
        o[k] = u[k] * s[RF_PART[k]] + (rr ? rr[6 * i + k] : 0.0);
    }
}

/* Row j's part of the scaled product. */
static inline double scaled_row_out(const rf_problem *p, const double *scale,
                                    const double *bv, const double *x,
                                    const double *rr, int j)
{
    const int ncon = p->ncon, m6 = 6 * ncon;
    const double sj = scale[4 * ncon + j];
    const double u = rf__row_velocity(p, j, bv) - p->row_bias[j] +
                     p->row_cfm[j] * x[m6 + j] * sj;
    return u * sj + (rr ? rr[m6 + j] : 0.0);
}

void rf__apply_scaled_body_ws(rf_problem *p, const double *scale,
                              const double *x, const double *rr, double *out)
{
    /* Two passes, as rf__apply_N, with S folded into both: the body pass
       reads S x' on the fly and the contact pass writes S u + rr, so no
       scaled copy of x and no extra sweep over out (one read of x, one
       write of out per product: the solvers' bandwidth budget). */
    double *bv = p->work.bv0;
    body_pass_ws(p, x, scale, NULL, bv, NULL);
    const int ncon = p->ncon, nrow = p->nrow, m6 = 6 * ncon;
#pragma omp for schedule(static) nowait
    for (int j = 0; j < nrow; ++j) {
        out[m6 + j] = scaled_row_out(p, scale, bv, x, rr, j);
    }
#pragma omp for schedule(static)
    for (int i = 0; i < ncon; ++i) {
        scaled_contact_out(p, scale, bv, x, rr, i, out + 6 * i);
    }
}

void rf__apply_scaled_body(rf_problem *p, const double *scale, const double *x,
                           const double *rr, double *out, int threads)
{
    RF__PASS(threads, rf__product_parallel(p),
             rf__apply_scaled_body_ws(p, scale, x, rr, out));
}

void rf__apply_scaled_trial_body(rf_problem *p, const double *scale,
                                 const double *x, const double *rr, double *out,
                                 const double *xp, const double *y,
                                 const double *uy, double s[4], int threads)
{
    double *bv = p->work.bv0, *part = p->work.partial;
    const int ncon = p->ncon, nrow = p->nrow, m6 = 6 * ncon;
    const int nblk = rf__num_blocks(ncon);
#pragma omp parallel num_threads(threads) if (rf__product_parallel(p))
    {
        body_pass_ws(p, x, scale, NULL, bv, NULL);
        /* The contact pass by fixed blocks of contacts, each with its
           partial sums: the sums do not depend on the thread count. */
#pragma omp for schedule(static)
        for (int b = 0; b < nblk; ++b) {
            int lo, hi;
            rf__block_range(b, ncon, &lo, &hi);
            double a[4] = {0.0, 0.0, 0.0, 0.0};
            for (int i = lo; i < hi; ++i) {
                double *o = out + 6 * i;
                scaled_contact_out(p, scale, bv, x, rr, i, o);
                for (int k = 6 * i; k < 6 * i + 6; ++k) {
                    rf__trial_terms(x[k], out[k], rr[k], xp[k], y[k], uy[k], a);
                }
            }
            memcpy(part + 4 * b, a, sizeof a);
        }
    }
    double a[4];
    rf__sum_partials(part, nblk, 4, a);
    for (int j = 0; j < nrow; ++j) { /* rows: after the contacts, in order */
        const int k = m6 + j;
        out[k] = scaled_row_out(p, scale, bv, x, rr, j);
        rf__trial_terms(x[k], out[k], rr[k], xp[k], y[k], uy[k], a);
    }
    memcpy(s, a, sizeof a);
}

void rf__free_velocity(rf_problem *p, double *r, int threads)
{
    if (p->kind == RF_KIND_LOCAL) {
        memcpy(r, p->q, (size_t)6 * p->ncon * sizeof(double));
        return;
    }
    const int ncon = p->ncon, nrow = p->nrow;
#pragma omp parallel for schedule(static) num_threads(threads) if (ncon > 512)
    for (int i = 0; i < ncon; ++i) {
        rf__contact_velocity(p, i, p->body_vel, r + 6 * i);
    }
#pragma omp parallel for schedule(static) num_threads(threads) if (nrow > 2048)
    for (int j = 0; j < nrow; ++j) {
        r[6 * ncon + j] = rf__row_velocity(p, j, p->body_vel);
    }
}

void rf__body_velocity(rf_problem *p, const double *gamma, double *vel,
                       int threads)
{
    body_pass(p, gamma, NULL, p->body_vel, vel, threads);
}

void rf__body_velocity_impulse(rf_problem *p, const double *gamma, double *vel,
                               double *imp, int threads)
{
    RF__PASS(threads, rf__product_parallel(p),
             body_pass_ws(p, gamma, NULL, p->body_vel, vel, imp));
}

double rf__item_side_work(const rf_problem *p, int it, int s, const double *v,
                          const double *g)
{
    if (it >= p->ncon) { /* a row: lambda J_s v_s */
        const int j = it - p->ncon;
        const double *J = p->row_jac + 12 * j + 6 * s;
        return g[6 * p->ncon + j] * (J[0] * v[0] + J[1] * v[1] + J[2] * v[2] +
                                     J[3] * v[3] + J[4] * v[4] + J[5] * v[5]);
    }
    /* a contact: side a enters u with +, side b with - (Tasora (20)) */
    const double *e = p->con_frame + 9 * it;
    const double *r = p->con_arm + 6 * it + 3 * s;
    double pv[3];
    rf__cross3(v + 3, r, pv);
    const double dv[3] = {v[0] + pv[0], v[1] + pv[1], v[2] + pv[2]};
    const double *gi = g + 6 * it;
    double gl[6] = {gi[0], gi[1], gi[2], gi[3], gi[4], gi[5]};
    if (p->axis_on) { /* the rows along s_u t1, s_w t2, r_u t1, r_w t2 */
        const double *a = p->con_axis + 4 * it;
        gl[1] *= a[0];
        gl[2] *= a[1];
        gl[4] *= a[2];
        gl[5] *= a[3];
    }
    double work = 0.0;
    for (int k = 0; k < 3; ++k) {
        const double *ek = e + 3 * k;
        work += gl[k] * (ek[0] * dv[0] + ek[1] * dv[1] + ek[2] * dv[2]) +
                gl[3 + k] * (ek[0] * v[3] + ek[1] * v[4] + ek[2] * v[5]);
    }
    return s == 0 ? work : -work;
}

/* The sliding rows' angular parts of contact i on side s, without the
   side's sign: j[3 k ..] = r_s x e_k (the problem keeps r_s only). */
static inline void sliding_angular_rows(const rf_problem *p, int i, int s,
                                        double j[9])
{
    const double *e = p->con_frame + 9 * i;
    const double *r = p->con_arm + 6 * i + 3 * s;
    for (int k = 0; k < 3; ++k) {
        rf__cross3(r, e + 3 * k, j + 3 * k);
    }
}

/* Jacobian rows of contact i on side s with the side's sign: lin[k] and
   ang[k] (k = 0..5) such that u_k gets lin[k].v_s + ang[k].w_s. */
static void jacobian_rows(const rf_problem *p, int i, int s, double lin[6][3],
                          double ang[6][3])
{
    const double *e = p->con_frame + 9 * i;
    const double sg = s == 0 ? 1.0 : -1.0;
    double j[9];
    sliding_angular_rows(p, i, s, j);
    for (int k = 0; k < 3; ++k) {
        for (int c = 0; c < 3; ++c) {
            lin[k][c] = sg * e[3 * k + c];
            ang[k][c] = sg * j[3 * k + c];
            lin[3 + k][c] = 0.0;
            ang[3 + k][c] = sg * e[3 * k + c];
        }
    }
    for (int k = 1; p->axis_on && k < 3; ++k) {
        const double sk = p->con_axis[4 * i + k - 1]; /* sliding */
        const double rk = p->con_axis[4 * i + k + 1]; /* rolling */
        for (int c = 0; c < 3; ++c) {
            lin[k][c] *= sk;
            ang[k][c] *= sk;
            ang[3 + k][c] *= rk;
        }
    }
}

/* blk += J_{i,si} M_b^-1 J_{j,sj}^T for body b shared by contacts i, j. */
static void add_coupling(const rf_problem *p, int b, int i, int si, int j,
                         int sj, double *blk)
{
    double li[6][3], ai[6][3], lj[6][3], aj[6][3];
    jacobian_rows(p, i, si, li, ai);
    jacobian_rows(p, j, sj, lj, aj);
    const double *im = p->body_inv_mass + 3 * b;
    const double *I = p->body_inv_inertia + 9 * b;
    for (int l = 0; l < 6; ++l) {
        double Ia[3];
        rf__mat3_vec(I, aj[l], Ia);
        for (int k = 0; k < 6; ++k) {
            blk[6 * k + l] += im[0] * li[k][0] * lj[l][0] +
                              im[1] * li[k][1] * lj[l][1] +
                              im[2] * li[k][2] * lj[l][2] + ai[k][0] * Ia[0] +
                              ai[k][1] * Ia[1] + ai[k][2] * Ia[2];
        }
    }
}

/* Side s of item i (contact or row) is a dynamic body. */
static int side_dynamic(const rf_problem *p, int i, int s)
{
    return rf__dynamic_body(p, rf__item_body(p, i, s));
}

/* Block W_ij = D_i^T M^-1 D_j (row-major 6x6), zero if no shared body. */
static void coupling_block(const rf_problem *p, int i, int j, double blk[36])
{
    memset(blk, 0, 36 * sizeof(double));
    for (int si = 0; si < 2; ++si) {
        if (!side_dynamic(p, i, si)) {
            continue;
        }
        for (int sj = 0; sj < 2; ++sj) {
            int b = p->con_body[2 * i + si];
            if (side_dynamic(p, j, sj) && p->con_body[2 * j + sj] == b) {
                add_coupling(p, b, i, si, j, sj, blk);
            }
        }
    }
}

void rf__diag_block(const rf_problem *p, int i, double blk[36])
{
    if (p->kind == RF_KIND_LOCAL) {
        const rf_csr *W = &p->W;
        memset(blk, 0, 36 * sizeof(double));
        for (int k = 0; k < 6; ++k) {
            int r = 6 * i + k;
            for (int e = W->row_ptr[r]; e < W->row_ptr[r + 1]; ++e) {
                int c = W->col[e] - 6 * i;
                if (c >= 0 && c < 6) {
                    blk[6 * k + c] = W->val[e];
                }
            }
        }
        return;
    }
    coupling_block(p, i, i, blk);
    for (int k = 0; p->cfm_on && k < 6; ++k) {
        blk[7 * k] += p->con_cfm[6 * i + k];
    }
}

void rf__diag_entries(const rf_problem *p, int i, double d[6])
{
    if (p->kind == RF_KIND_LOCAL) {
        double blk[36];
        rf__diag_block(p, i, blk);
        for (int k = 0; k < 6; ++k) {
            d[k] = blk[7 * k];
        }
        return;
    }
    /* (W_ii)_kk = sum over dynamic sides of lin_k M^-1 lin_k + ang_k I^-1
       ang_k; the side's sign squares away.  Six quadratic forms instead of
       the 36 entries of rf__diag_block. */
    for (int k = 0; k < 6; ++k) {
        d[k] = 0.0;
    }
    const double *e = p->con_frame + 9 * i;
    for (int s = 0; s < 2; ++s) {
        const int b = p->con_body[2 * i + s];
        if (!rf__dynamic_body(p, b)) {
            continue;
        }
        double j[9]; /* as jacobian_rows forms them */
        sliding_angular_rows(p, i, s, j);
        const double *im = p->body_inv_mass + 3 * b;
        const double *I = p->body_inv_inertia + 9 * b;
        /* summed in add_coupling's order, so the scaling is bit for bit
           the one computed from the full block */
        for (int k = 0; k < 3; ++k) {
            const double *ek = e + 3 * k, *jk = j + 3 * k;
            /* the linear row s_k e_k, s_k (r x e_k) and the rolling row
               r_k e_k for scaled rows, scaled first as jacobian_rows
               does */
            const double *lk = ek, *rk = ek;
            double ls[3], js[3], rs[3];
            if (p->axis_on && k > 0) {
                const double sk = p->con_axis[4 * i + k - 1];
                const double qk = p->con_axis[4 * i + k + 1];
                for (int c = 0; c < 3; ++c) {
                    ls[c] = sk * ek[c];
                    js[c] = sk * jk[c];
                    rs[c] = qk * ek[c];
                }
                lk = ls;
                jk = js;
                rk = rs;
            }
            double Ij[3], Ie[3];
            rf__mat3_vec(I, jk, Ij);
            rf__mat3_vec(I, rk, Ie);
            d[k] += im[0] * lk[0] * lk[0] + im[1] * lk[1] * lk[1] +
                    im[2] * lk[2] * lk[2] + jk[0] * Ij[0] + jk[1] * Ij[1] +
                    jk[2] * Ij[2];
            d[3 + k] += rk[0] * Ie[0] + rk[1] * Ie[1] + rk[2] * Ie[2];
        }
    }
    for (int k = 0; p->cfm_on && k < 6; ++k) {
        d[k] += p->con_cfm[6 * i + k];
    }
}

static void sort_ints(int *v, int n)
{
    /* insertion sort: neighbour lists are short */
    for (int a = 1; a < n; ++a) {
        int x = v[a], c = a - 1;
        while (c >= 0 && v[c] > x) {
            v[c + 1] = v[c];
            --c;
        }
        v[c + 1] = x;
    }
}

int rf__neighbours(const rf_problem *p, int i, int *mark, int *nb)
{
    int n = 0;
    if (p->kind == RF_KIND_LOCAL) {
        const rf_csr *W = &p->W;
        for (int e = W->row_ptr[6 * i]; e < W->row_ptr[6 * i + 6]; ++e) {
            int j = W->col[e] / 6;
            if (mark[j] != i) {
                mark[j] = i;
                nb[n++] = j;
            }
        }
        if (mark[i] != i) { /* an all-zero diagonal block */
            mark[i] = i;
            nb[n++] = i;
        }
        sort_ints(nb, n);
        return n;
    }
    const rf_work *w = &p->work;
    for (int s = 0; s < 2; ++s) {
        if (!side_dynamic(p, i, s)) {
            continue;
        }
        int b = rf__item_body(p, i, s);
        for (int k = w->bc_ptr[b]; k < w->bc_ptr[b + 1]; ++k) {
            int j = w->bc_ent[k] >> 1;
            if (mark[j] != i) {
                mark[j] = i;
                nb[n++] = j;
            }
        }
    }
    if (mark[i] != i) { /* no dynamic body: only itself */
        mark[i] = i;
        nb[n++] = i;
    }
    sort_ints(nb, n);
    return n;
}

rf_status rf_problem_to_local(const rf_problem *src_c, rf_problem *dst,
                              rf_error *err)
{
    static const char fn[] = "rf_problem_to_local";
    if (src_c == NULL || dst == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: %s is NULL", fn,
                        src_c == NULL ? "src" : "dst");
    }
    if (src_c == dst) {
        return rf__fail(err, RF_ERR_INVALID, "%s: src and dst are the same",
                        fn);
    }
    if (src_c->kind != RF_KIND_BODY) {
        return rf__fail(err, RF_ERR_STATE, "%s: src is not in body form", fn);
    }
    if (src_c->nrow > 0) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: src has %d rows; the local form holds 6D "
                        "contacts only",
                        fn, src_c->nrow);
    }
    rf_status st = rf__check_complete(src_c, fn, err);
    if (st != RF_OK) {
        return st;
    }
    /* The body index lives in src's work memory (not its data). */
    rf_problem *src = (rf_problem *)src_c;
    st = rf__build_body_index(src, err);
    rf__refresh_cfm(src);
    if (st != RF_OK) {
        return st;
    }
    const int ncon = src->ncon, m = 6 * ncon;
    int *mark = malloc((size_t)(ncon > 0 ? ncon : 1) * sizeof(int));
    int *nb = malloc((size_t)(ncon > 0 ? ncon : 1) * sizeof(int));
    int *row_ptr = malloc((size_t)(m + 1) * sizeof(int));
    double *q = malloc((size_t)(m > 0 ? m : 1) * sizeof(double));
    int *col = NULL;
    double *val = NULL;
    st = RF_ERR_NOMEM;
    if (!mark || !nb || !row_ptr || !q) {
        goto done;
    }
    /* Count, then fill. */
    for (int i = 0; i < ncon; ++i) {
        mark[i] = -1;
    }
    size_t nnz = 0;
    for (int i = 0; i < ncon; ++i) {
        nnz += 36 * (size_t)rf__neighbours(src, i, mark, nb);
    }
    if (nnz > (size_t)1 << 30) {
        st = rf__fail(err, RF_ERR_INVALID, "%s: W too large", fn);
        goto done;
    }
    col = malloc((nnz > 0 ? nnz : 1) * sizeof(int));
    val = malloc((nnz > 0 ? nnz : 1) * sizeof(double));
    if (!col || !val) {
        goto done;
    }
    for (int i = 0; i < ncon; ++i) {
        mark[i] = -1;
    }
    int k = 0;
    for (int i = 0; i < ncon; ++i) {
        int n = rf__neighbours(src, i, mark, nb);
        for (int r = 0; r < 6; ++r) {
            row_ptr[6 * i + r] = k + r * 6 * n;
        }
        for (int a = 0; a < n; ++a) {
            double blk[36];
            coupling_block(src, i, nb[a], blk);
            for (int k = 0; nb[a] == i && src->cfm_on && k < 6; ++k) {
                blk[7 * k] += src->con_cfm[6 * i + k]; /* W + E */
            }
            for (int r = 0; r < 6; ++r) {
                for (int c = 0; c < 6; ++c) {
                    int at = k + r * 6 * n + 6 * a + c;
                    col[at] = 6 * nb[a] + c;
                    val[at] = blk[6 * r + c];
                }
            }
        }
        k += 36 * n;
    }
    row_ptr[m] = k;
    /* W is symmetric in exact arithmetic, but blocks (i, j) and (j, i)
       computed apart differ by rounding, which for a near-singular
       inertia can exceed rf_problem_set_local_csr's symmetry check: keep
       the upper triangle (column >= row) and mirror it below. */
    for (int i = 0; i < ncon; ++i) {
        const int n = (row_ptr[6 * i + 1] - row_ptr[6 * i]) / 6;
        for (int a = 0; a < n; ++a) {
            const int j = col[row_ptr[6 * i] + 6 * a] / 6;
            if (j > i) {
                continue;
            }
            /* position b of block (j, i) in block row j */
            const int nj = (row_ptr[6 * j + 1] - row_ptr[6 * j]) / 6;
            int b = 0;
            while (b < nj && col[row_ptr[6 * j] + 6 * b] != 6 * i) {
                ++b;
            }
            for (int r = 0; r < 6; ++r) {
                for (int c = 0; c < 6; ++c) {
                    if (j == i && c >= r) {
                        continue;
                    }
                    val[row_ptr[6 * i + r] + 6 * a + c] =
                        val[row_ptr[6 * j + c] + 6 * b + r];
                }
            }
        }
    }
    rf__free_velocity(src, q, 1);
    st = rf_problem_set_local_csr(dst, ncon, row_ptr, col, val, q, src->con_mu,
                                  src->con_rho, src->con_sigma, err);
    if (st == RF_OK) { /* the cones' shapes go with them */
        memcpy(dst->con_flags, src->con_flags, (size_t)ncon * sizeof(int));
        memcpy(dst->con_cohesion, src->con_cohesion,
               (size_t)ncon * sizeof(double));
        memcpy(dst->con_nmax, src->con_nmax, (size_t)ncon * sizeof(double));
    }
done:
    if (st == RF_ERR_NOMEM) {
        rf__fail(err, st, "%s: out of memory", fn);
    }
    free(mark);
    free(nb);
    free(row_ptr);
    free(q);
    free(col);
    free(val);
    return st;
}
