/*
 * Sequential impulse (RF_SOLVER_SI): projected block Gauss-Seidel in
 * velocity form, laid out like Bullet's btSequentialImpulseConstraintSolver
 * so that a sweep costs what a stock iteration costs (Tasora (46) with the
 * K term; Acary §5.2 block splitting (66)-(67)).
 *
 * State: the body velocities vel = v* + M^-1 D gamma (work.bv1), updated
 * after every visit.  Visiting contact i:
 *   1. u_i = D_i^T vel + b_i (+ C_i gamma_i): six dot products with the
 *      record's rows (DESIGN §1);
 *   2. in the part-scaled variables (g = S g', unit mean diagonal per part,
 *      so the cone family and the projection stay exact: rf__part_scaling)
 *      the stick step g' - W'^-1 u' with W' = S W_ii S restricted to the
 *      contact's live components (zero coefficients force theirs to 0): if
 *      it lies in the scaled cone it is the exact one-contact answer for
 *      both models (the contact's velocity becomes 0);
 *   3. otherwise one projected step g' <- Proj_Y'(g' - t (u' + shift e_n)),
 *      t = omega min(1, 1.9 / Gershgorin(W')) so that t lambda_max < 2 (a
 *      descent step of block coordinate descent on the QP (42) for the
 *      associated model; shift = the De Saxce term for RF_MODEL_DESAXCE);
 *   4. the impulse change goes to both bodies: vel += M^-1 D_i dg.
 * Steps 2-3 are the exact local law's fixed point for either model: the
 * iteration stops where no contact moves.
 *
 * This file holds the associated model's block step (above, steps 1-4),
 * the sweep and the energy guard's start and end; the De Saxce model (the
 * Bullet default) visits every contact's normal row, then its friction parts,
 * in the row form of solver_si_rows.c.  The block step reads one record per
 * contact (si_rec, built once per solve in parallel): the frame, the
 * sliding rows' angular parts r x e_k of both sides, their responses
 * I^-1 (r x e_k) and I^-1 e_k, the inverse masses, biases, part scales,
 * scaled cone, step and W' with its inverse.  Rows (joints) are visited
 * before the contacts, as Bullet does, with their exact scalar step.
 *
 * Stopping: with tol > 0 the sweep stops once the impulses changed by at
 * most tol relative to their size in one sweep, sqrt(sum |dg|^2) <= tol
 * max(sqrt(sum |g|^2), tiny), the block step's in part-scaled variables,
 * the row form's W-weighted (Bullet's m_leastSquaresResidualThreshold,
 * made relative); the residual reported is always the natural-map
 * residual of the returned gamma.
 *
 * Parallel: from 513 items (De Saxce: or 129 contacts) on, groups (consecutive
 * items on the same two bodies: a manifold's points, a joint's rows) are
 * coloured so that groups of a colour share no dynamic body (color_sweep), and
 * swept colour after colour, the groups of a colour in parallel: the result is
 * independent of the thread count (the colouring and each group's arithmetic
 * are).  Below, rows then contacts in order on one thread.  With the De Saxce
 * model the manifolds of a colour of at most four points run eight at a time
 * (AVX-512) or four at a time in SIMD lanes (solver_si_wide.c; those with spin
 * or rolling friction in bundles of their own), to the same bits.
 */
#include "internal.h"

#include <omp.h>
#include <string.h>

/* Record layout (doubles), see the file comment. */
enum {
    SI_E = 0,      /* n, t1, t2 (9) */
    SI_RA = 9,     /* r_a x e_k (9) */
    SI_RB = 18,    /* r_b x e_k (9) */
    SI_IA = 27,    /* I_a^-1 (r_a x e_k) (9) */
    SI_IB = 36,    /* I_b^-1 (r_b x e_k) (9) */
    SI_MA = 45,    /* inverse mass of a per axis (3) */
    SI_MB = 48,    /* of b (3) */
    SI_BIAS = 51,  /* b_i (6) */
    SI_SCALE = 57, /* s per part (4) */
    SI_CONE = 61,  /* mu', rho', sigma', nmax' (4) */
    SI_STEP = 65,  /* t of the fallback step (1) */
    SI_INV = 66,   /* W'^-1 on the live components, d x d, then W'
                      itself, d x d (72 at most) */
    SI_JA = 138,   /* I_a^-1 e_k (9): spin and rolling rows */
    SI_JB = 147    /* I_b^-1 e_k (9); RF__SI_STRIDE = 156 in all */
};

/* si_int per contact: a, b (body or RF_WORLD), flags, live count. */
enum {
    SI_DYN_A = 1,
    SI_DYN_B = 2,
    SI_ANG = 4,   /* spin or rolling live: the angular rows are read */
    SI_STICK = 8, /* W' positive definite: the stick step is tried */
    SI_T1 = 16    /* roll_t1 cone */
};

static inline double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The live components of contact i (normal always; a part whose
   coefficient is 0 is forced to 0 and left out) into live[], count
   returned. */
static int live_components(const rf_problem *p, int i, int live[6])
{
    int d = 0;
    live[d++] = RF_N;
    if (p->con_mu[i] > 0.0) {
        live[d++] = RF_U;
        live[d++] = RF_W;
    }
    if (p->con_sigma[i] > 0.0) {
        live[d++] = RF_SPIN;
    }
    if (p->con_rho[i] > 0.0) {
        live[d++] = RF_ROLL_U;
        if (!(p->con_flags[i] & RF_CONTACT_ROLL_T1)) {
            live[d++] = RF_ROLL_W;
        }
    }
    return d;
}

/* In-place inverse of the d x d SPD matrix A (row-major, stride 6) by
   Cholesky; 0 if not positive definite relative to its scale. */
static int spd_inverse(double A[36], int d)
{
    double L[36];
    if (!rf__cholesky(A, d, L)) {
        return 0;
    }
    /* columns of A^-1 = L^-T L^-1 e_c */
    for (int c = 0; c < d; ++c) {
        double y[6], x[6];
        for (int i = 0; i < d; ++i) {
            double s = i == c ? 1.0 : 0.0;
            for (int k = 0; k < i; ++k) {
                s -= L[6 * i + k] * y[k];
            }
            y[i] = s / L[7 * i];
        }
        for (int i = d - 1; i >= 0; --i) {
            double s = y[i];
            for (int k = i + 1; k < d; ++k) {
                s -= L[6 * k + i] * x[k];
            }
            x[i] = s / L[7 * i];
        }
        for (int i = 0; i < d; ++i) {
            A[6 * i + c] = x[i];
        }
    }
    return 1;
}

/* Build contact i's record and flags (after rf__part_scaling). */
static void build_record(rf_problem *p, int i, double *rec, int *ri)
{
    const double *e = p->con_frame + 9 * i;
    const double *arm = p->con_arm + 6 * i;
    const int side[2] = {p->con_body[2 * i], p->con_body[2 * i + 1]};
    int flags = 0;
    memcpy(rec + SI_E, e, 9 * sizeof(double));
    for (int s = 0; s < 2; ++s) {
        double *rx = rec + (s == 0 ? SI_RA : SI_RB);
        double *ir = rec + (s == 0 ? SI_IA : SI_IB);
        double *ie = rec + (s == 0 ? SI_JA : SI_JB);
        double *im = rec + (s == 0 ? SI_MA : SI_MB);
        for (int k = 0; k < 3; ++k) {
            rf__cross3(arm + 3 * s, e + 3 * k, rx + 3 * k);
        }
        const int b = side[s];
        if (rf__dynamic_body(p, b)) {
            flags |= s == 0 ? SI_DYN_A : SI_DYN_B;
            const double *I = p->body_inv_inertia + 9 * b;
            for (int k = 0; k < 3; ++k) {
                rf__mat3_vec(I, rx + 3 * k, ir + 3 * k);
                rf__mat3_vec(I, e + 3 * k, ie + 3 * k);
            }
            memcpy(im, p->body_inv_mass + 3 * b, 3 * sizeof(double));
        } else {
            memset(ir, 0, 9 * sizeof(double));
            memset(ie, 0, 9 * sizeof(double));
            memset(im, 0, 3 * sizeof(double));
        }
    }
    memcpy(rec + SI_BIAS, p->con_bias + 6 * i, 6 * sizeof(double));
    const double *sc = p->work.wscale + 4 * i;
    memcpy(rec + SI_SCALE, sc, 4 * sizeof(double));
    memcpy(rec + SI_CONE, p->work.wcone + 4 * i, 4 * sizeof(double));

    /* W_ii entries on the live components: rows lin_k = e_k (k < 3, 0
       else), ang_k = r x e_k (k < 3) or e_{k-3}; the sign of side B
       squares away */
    int live[6];
    const int d = live_components(p, i, live);
    double W[36];
    for (int x = 0; x < d; ++x) {
        for (int y = 0; y <= x; ++y) {
            const int k = live[x], l = live[y];
            double w = 0.0;
            for (int s = 0; s < 2; ++s) {
                if (!(flags & (s == 0 ? SI_DYN_A : SI_DYN_B))) {
                    continue;
                }
                const double *rx = rec + (s == 0 ? SI_RA : SI_RB);
                const double *ir = rec + (s == 0 ? SI_IA : SI_IB);
                const double *ie = rec + (s == 0 ? SI_JA : SI_JB);
                const double *im = rec + (s == 0 ? SI_MA : SI_MB);
                const double *ak = k < 3 ? rx + 3 * k : e + 3 * (k - 3);
                const double *rl = l < 3 ? ir + 3 * l : ie + 3 * (l - 3);
                w += dot3(ak, rl); /* ang_k . I^-1 ang_l */
                if (k < 3 && l < 3) {
                    const double *ek = e + 3 * k, *el = e + 3 * l;
                    w += im[0] * ek[0] * el[0] + im[1] * ek[1] * el[1] +
                         im[2] * ek[2] * el[2];
                }
            }
            if (x == y && p->cfm_on) {
                w += p->con_cfm[6 * i + k];
            }
            w *= sc[RF_PART[k]] * sc[RF_PART[l]];
            W[6 * x + y] = W[6 * y + x] = w;
        }
    }
    double gersh = 0.0;
    for (int x = 0; x < d; ++x) {
        double s = 0.0;
        for (int y = 0; y < d; ++y) {
            s += fabs(W[6 * x + y]);
        }
        gersh = fmax(gersh, s);
    }
    rec[SI_STEP] = gersh > 1.9 ? 1.9 / gersh : 1.0;
    for (int x = 0; x < d; ++x) { /* W' for the energy guard */
        memcpy(rec + SI_INV + d * d + d * x, W + 6 * x,
               (size_t)d * sizeof(double));
    }
    if (spd_inverse(W, d)) {
        flags |= SI_STICK;
        for (int x = 0; x < d; ++x) {
            memcpy(rec + SI_INV + d * x, W + 6 * x, (size_t)d * sizeof(double));
        }
    }
    if (rf__contact_angular(p, i)) {
        flags |= SI_ANG;
    }
    if (p->con_flags[i] & RF_CONTACT_ROLL_T1) {
        flags |= SI_T1;
    }
    ri[0] = side[0];
    ri[1] = side[1];
    ri[2] = flags;
    ri[3] = d;
    /* the live list, packed 4 bits per entry */
    int packed = 0;
    for (int x = d - 1; x >= 0; --x) {
        packed = 16 * packed + live[x];
    }
    ri[4] = packed;
}

static int in_scaled_cone(const double g[6], const rf__cone *c)
{
    return g[0] >= 0.0 && g[0] <= c->nmax &&
           g[1] * g[1] + g[2] * g[2] <= c->mu * c->mu * g[0] * g[0] &&
           rf__roll_norm(g, c) <= c->rho * g[0] &&
           fabs(g[3]) <= c->sigma * g[0];
}

/* The energy guard (no energy from nowhere at any budget).
   With F(g) = 1/2 g.(N + C) g + r.g and B(g) = g.b (b the biases), the
   impulses change the kinetic energy by at most E = F - B (rf_solve's
   energy check, solve.c), which may not exceed A = max(0, -B): the work
   the biases ask for (recovery, restitution, motors).  The solve returns
   E <= A: a start in excess is scaled where the excess is, the sweeps
   keep F <= 0 (E <= -B <= A), and an iterate still above A at the end is
   scaled back as a whole.  F <= 0 is F's value at g = 0 and at every
   solution whose set holds 0 (the associated model's minimises F; the De
   Saxce law's has g.u <= 0, so F = g.u - g.N g / 2 <= 0), and every exact
   Gauss-Seidel step lowers F, whatever happens to B: a visit's change dg
   changes F by exactly a dg.u + a^2/2 dg.W dg for a step a dg (u: the
   velocity it saw, W: its diagonal block, C included), and may spend S of
   the slack -F = -B - E when
       a dg.u + a^2/2 dg.W dg <= S.
   A visit that would spend more is shortened to the largest such a in
   [0, 1] (Y is convex and holds both ends).  A sequential sweep gives
   each visit the whole slack; a colour gives each of its items an equal
   share (they are uncoupled, so their changes add).  So the guard acts
   only on steps that raise F (the De Saxce shift far from its fixed
   point) and on a start above F = 0.  (Bounding E by A itself while B >
   0, E <= 0, is F <= B: it would shorten a Gauss-Seidel step that lowers
   F but lowers B more, a stretched joint or a speculative contact letting
   go, and the Bridge tutorial would keep swinging: test_bridge_sleeps.) */
/* Visit contact i (the block step); returns |dg'|^2 and adds |g'|^2 to
 *gn2. */
static double visit_contact(const rf_problem *p, const rf_config *cfg,
                            double omega, int i, double *gamma, double *vel,
                            double *gn2, rf_si_guard *en)
{
    static const double zero[6] = {0, 0, 0, 0, 0, 0};
    const double *rec = p->work.si_rec + (size_t)RF__SI_STRIDE * i;
    const int *ri = p->work.si_int + 5 * i;
    const int a = ri[0], b = ri[1], flags = ri[2], d = ri[3];
    double *va = a == RF_WORLD ? NULL : vel + 6 * a;
    double *vb = b == RF_WORLD ? NULL : vel + 6 * b;
    const double *xa = va ? va : zero, *xb = vb ? vb : zero;
    const double *e = rec + SI_E, *ra = rec + SI_RA, *rb = rec + SI_RB;
    const double dv[3] = {xa[0] - xb[0], xa[1] - xb[1], xa[2] - xb[2]};
    double u[6];
    for (int k = 0; k < 3; ++k) { /* e_k . dv + (r_a x e_k) . w_a - ... */
        u[k] = dot3(e + 3 * k, dv) + dot3(ra + 3 * k, xa + 3) -
               dot3(rb + 3 * k, xb + 3);
    }
    if (flags & SI_ANG) {
        const double dw[3] = {xa[3] - xb[3], xa[4] - xb[4], xa[5] - xb[5]};
        for (int k = 0; k < 3; ++k) {
            u[3 + k] = dot3(e + 3 * k, dw);
        }
    } else {
        u[3] = u[4] = u[5] = 0.0;
    }
    double *gi = gamma + 6 * i;
    const double *bias = rec + SI_BIAS, *s = rec + SI_SCALE;
    double us[6], g[6], gnew[6];
    for (int k = 0; k < 6; ++k) {
        double uk = u[k] + bias[k];
        if (p->cfm_on) {
            uk += p->con_cfm[6 * i + k] * gi[k];
        }
        us[k] = uk * s[RF_PART[k]];
        g[k] = gi[k] / s[RF_PART[k]];
    }
    const rf__cone cone = {rec[SI_CONE], rec[SI_CONE + 1], rec[SI_CONE + 2],
                           (flags & SI_T1) != 0, rec[SI_CONE + 3]};
    int live[6];
    for (int x = 0, q = ri[4]; x < d; ++x, q /= 16) {
        live[x] = q % 16;
    }
    int done = 0;
    if (flags & SI_STICK) { /* 2. the stick step */
        const double *inv = rec + SI_INV;
        memset(gnew, 0, sizeof gnew);
        for (int x = 0; x < d; ++x) {
            double t = 0.0;
            for (int y = 0; y < d; ++y) {
                t += inv[d * x + y] * us[live[y]];
            }
            gnew[live[x]] = g[live[x]] - t;
        }
        done = in_scaled_cone(gnew, &cone);
    }
    if (!done) { /* 3. one projected step */
        const double t = omega * rec[SI_STEP];
        const double shift =
            cfg->model == RF_MODEL_DESAXCE ? rf__desaxce_shift(us, &cone) : 0.0;
        double z[6];
        for (int k = 0; k < 6; ++k) {
            z[k] = g[k] - t * us[k];
        }
        z[0] -= t * shift;
        rf__project6(z, &cone, gnew);
    }
    double dgs[6], du = 0.0, db = 0.0;
    for (int k = 0; k < 6; ++k) {
        dgs[k] = gnew[k] - g[k];
        du += dgs[k] * us[k];
        db += dgs[k] * s[RF_PART[k]] * bias[k];
    }
    /* the energy guard: dg'.W' dg' on the live components */
    const double *Wl = rec + SI_INV + d * d;
    double q = 0.0;
    for (int x = 0; x < d; ++x) {
        double t = 0.0;
        for (int y = 0; y < d; ++y) {
            t += Wl[d * x + y] * dgs[live[y]];
        }
        q += dgs[live[x]] * t;
    }
    const double al = rf__si_guard_apply(en, du, db, q);
    double dg[6], d2 = 0.0;
    for (int k = 0; k < 6; ++k) {
        const double dk = al * dgs[k];
        const double gk = g[k] + dk;
        d2 += dk * dk;
        *gn2 += gk * gk;
        dg[k] = dk * s[RF_PART[k]];
        gi[k] += dg[k];
    }
    /* 4. vel += M^-1 D_i dg on the dynamic sides */
    const double F[3] = {e[0] * dg[0] + e[3] * dg[1] + e[6] * dg[2],
                         e[1] * dg[0] + e[4] * dg[1] + e[7] * dg[2],
                         e[2] * dg[0] + e[5] * dg[1] + e[8] * dg[2]};
    for (int sd = 0; sd < 2; ++sd) {
        if (!(flags & (sd == 0 ? SI_DYN_A : SI_DYN_B))) {
            continue;
        }
        double *v = sd == 0 ? va : vb;
        const double sg = sd == 0 ? 1.0 : -1.0;
        const double *im = rec + (sd == 0 ? SI_MA : SI_MB);
        const double *ir = rec + (sd == 0 ? SI_IA : SI_IB);
        for (int c = 0; c < 3; ++c) {
            v[c] += sg * im[c] * F[c];
            v[3 + c] +=
                sg * (ir[c] * dg[0] + ir[3 + c] * dg[1] + ir[6 + c] * dg[2]);
        }
        if (flags & SI_ANG) {
            const double *ie = rec + (sd == 0 ? SI_JA : SI_JB);
            for (int c = 0; c < 3; ++c) {
                v[3 + c] += sg * (ie[c] * dg[3] + ie[3 + c] * dg[4] +
                                  ie[6 + c] * dg[5]);
            }
        }
    }
    return d2;
}

/* The passes of a sweep: the block step (associated model), or the
   row form's normal and friction passes (De Saxce, solver_si_rows.c). */
enum { PASS_BLOCK = 0, PASS_NORMAL = 1, PASS_FRICTION = 2 };

/* g.b per island (the biases' work) into isl_tmp's RF__TMP_GB, in item
   order.  A contact whose five other biases are 0 adds only its normal
   term: for a finite g the others are +-0, which leave a sum that
   started at +0 as it was (round to nearest), so the sum is the same to
   the bit, and its chain of dependent additions a sixth as long (it was
   1% of the full pyramid's step).  The start is finite (rf_solve checks
   the warm start); a non-finite iterate would make the guard's E
   non-finite with or without these terms, which leaves alpha at 1
   either way. */
static void bias_work(rf_problem *p, const double *g)
{
    const rf_work *w = &p->work;
    const int ncon = p->ncon, m6 = 6 * ncon;
    double *t = w->isl_tmp;
    for (int i = 0; i < ncon; ++i) {
        const double *b = p->con_bias + 6 * i, *gi = g + 6 * i;
        double *gb = t + (size_t)RF__TMP_COUNT * w->isl_item[i] + RF__TMP_GB;
        *gb += gi[0] * b[0];
        if (b[1] != 0.0 || b[2] != 0.0 || b[3] != 0.0 || b[4] != 0.0 ||
            b[5] != 0.0) {
            for (int k = 1; k < 6; ++k) {
                *gb += gi[k] * b[k];
            }
        }
    }
    for (int j = 0; j < p->nrow; ++j) {
        t[(size_t)RF__TMP_COUNT * w->isl_item[ncon + j] + RF__TMP_GB] +=
            g[m6 + j] * p->row_bias[j];
    }
}

/* g.C g over contacts and rows (the compliance's term of the guard's E),
   per island into isl_tmp's RF__TMP_C when per_island, else summed over
   the problem and returned. */
static double compliance_work(const rf_problem *p, const double *g,
                              int per_island)
{
    const rf_work *w = &p->work;
    const int m6 = 6 * p->ncon;
    double s = 0.0, *t = w->isl_tmp;
    for (int k = 0; p->cfm_on && k < m6; ++k) {
        const double x = p->con_cfm[k] * g[k] * g[k];
        if (per_island) {
            t[(size_t)RF__TMP_COUNT * w->isl_item[k / 6] + RF__TMP_C] += x;
        } else {
            s += x;
        }
    }
    for (int j = 0; j < p->nrow; ++j) {
        const double x = p->row_cfm[j] * g[m6 + j] * g[m6 + j];
        if (per_island) {
            t[(size_t)RF__TMP_COUNT * w->isl_item[p->ncon + j] + RF__TMP_C] +=
                x;
        } else {
            s += x;
        }
    }
    return s;
}

/* The start's velocities into vel, and per island its work terms from
   the bodies, not the items (no item velocity pass, no free velocity r):
   with P_b = (D g)_b, g.D^T v* = sum_b P_b.v*_b and g.N g = sum_b
   P_b.(M_b^-1 P_b).  A body that is not dynamic has no P_b in the body
   index: one that moves (kinematic) adds its items' share item by item.
   Into isl_tmp: RF__TMP_GV = g.D^T v*, RF__TMP_C = g.(N + C) g. */
static void start_work(rf_problem *p, const double *g, double *vel, int threads)
{
    rf_work *w = &p->work;
    const double *vs = p->body_vel, *imp = w->bv0;
    double *t = w->isl_tmp;
    rf__body_velocity_impulse(p, g, vel, w->bv0, threads);
    int moving = 0;
    for (int b = 0; b < p->nbody; ++b) {
        const double *P = imp + 6 * b, *v0 = vs + 6 * b, *v1 = vel + 6 * b;
        if (!rf__dynamic_body(p, b)) {
            for (int k = 0; k < 6; ++k) {
                moving |= v0[k] != 0.0;
            }
            continue;
        }
        if (w->isl_body[b] < 0) {
            continue; /* no item: P_b = 0 */
        }
        double *ti = t + (size_t)RF__TMP_COUNT * w->isl_body[b];
        for (int k = 0; k < 6; ++k) {
            ti[RF__TMP_GV] += P[k] * v0[k];
            ti[RF__TMP_C] += P[k] * (v1[k] - v0[k]);
        }
    }
    for (int it = 0; moving && it < rf__nitem(p); ++it) {
        for (int s = 0; s < 2; ++s) {
            const int b = rf__item_body(p, it, s);
            if (b != RF_WORLD && !rf__dynamic_body(p, b)) {
                t[(size_t)RF__TMP_COUNT * w->isl_item[it] + RF__TMP_GV] +=
                    rf__item_side_work(p, it, s, vs + 6 * b, g);
            }
        }
    }
    compliance_work(p, g, 1);
}

/* Row j of the problem's interval holds 0 (scaling keeps it in). */
static int row_holds_zero(const rf_problem *p, int j)
{
    return p->row_bound[j] >= 0 || (p->row_lo[j] <= 0.0 && p->row_hi[j] >= 0.0);
}

/* The guard's energy of g per island (the start, or an iterate still in
   excess after the sweeps): E(g) = g.D^T v* + g.(N + C) g / 2 from the
   bodies (start_work, which forms vel), B(g) = g.b, and the largest
   alpha in [0, 1] that makes E <= A = max(0, -B) (rf_solve's energy
   check; cones and the rows' intervals that hold 0 are closed under it;
   1 for an island with a row whose interval excludes 0), into isl_tmp's
   RF__TMP_ALPHA.  At the start (end 0) each island's E and B go to
   isl_run, and the return is 1 when some alpha is below 1.  At the end
   (end 1) only the islands flagged RF__ISL_CHECK take theirs, scaled by
   alpha (g and vel following), and the return is their smallest alpha. */
static double guard_energy(rf_problem *p, double *g, double *vel, int threads,
                           int end)
{
    rf_work *w = &p->work;
    const int nisl = w->nisl;
    double *t = w->isl_tmp;
    for (int i = 0; i < nisl; ++i) {
        double *ti = t + (size_t)RF__TMP_COUNT * i;
        ti[RF__TMP_GV] = ti[RF__TMP_C] = ti[RF__TMP_GB] = 0.0;
    }
    start_work(p, g, vel, threads);
    bias_work(p, g);
    int scaled = 0;
    double lowest = 1.0;
    for (int i = 0; i < nisl; ++i) {
        double *ti = t + (size_t)RF__TMP_COUNT * i;
        const double gv = ti[RF__TMP_GV], c = ti[RF__TMP_C],
                     gb = ti[RF__TMP_GB];
        const double E = gv + 0.5 * c;
        const double A = gb < 0.0 ? -gb : 0.0;
        double alpha = 1.0;
        /* rounding of the sums: a few ulps of the terms' size (an iterate
           "in excess" by 1e-20 J is not scaled) */
        if (E > A + 1e-12 * (fabs(gv) + 0.5 * fabs(c) + A) &&
            !(w->isl_flag[i] & RF__ISL_OPEN)) {
            /* alpha (g.r - g.b) + alpha^2 c / 2 <= alpha A */
            alpha = c > RF_MINVAL ? -2.0 * (gv - A) / c : 0.0;
            alpha = fmax(0.0, fmin(1.0, alpha));
        }
        double *r = w->isl_run + (size_t)RF__RUN_COUNT * i;
        if (!end) {
            ti[RF__TMP_ALPHA] = alpha;
            r[RF__RUN_E] = E;
            r[RF__RUN_B] = gb;
            scaled |= alpha < 1.0;
            continue;
        }
        if (!(w->isl_flag[i] & RF__ISL_CHECK)) {
            ti[RF__TMP_ALPHA] = 1.0;
            continue;
        }
        ti[RF__TMP_ALPHA] = alpha;
        lowest = fmin(lowest, alpha);
        scaled |= alpha < 1.0;
        r[RF__RUN_E] = alpha < 1.0 ? alpha * gv + 0.5 * alpha * alpha * c : E;
        r[RF__RUN_B] = alpha < 1.0 ? alpha * gb : gb;
    }
    if (!end || !scaled) {
        return end ? lowest : (double)scaled;
    }
    for (int it = 0; it < rf__nitem(p); ++it) {
        const double a =
            t[(size_t)RF__TMP_COUNT * w->isl_item[it] + RF__TMP_ALPHA];
        if (a < 1.0) {
            const int off = it < p->ncon ? 6 * it : 5 * p->ncon + it;
            for (int k = 0, d = it < p->ncon ? 6 : 1; k < d; ++k) {
                g[off + k] *= a;
            }
        }
    }
    const double *vs = p->body_vel;
    for (int b = 0; b < p->nbody; ++b) {
        const int i = w->isl_body[b];
        const double a =
            i >= 0 ? t[(size_t)RF__TMP_COUNT * i + RF__TMP_ALPHA] : 1.0;
        if (a < 1.0) {
            for (int k = 6 * b; k < 6 * b + 6; ++k) {
                vel[k] = vs[k] + a * (vel[k] - vs[k]);
            }
        }
    }
    return lowest;
}

/* scale_excess's contacts: those whose free normal velocity separates
   and that touch no body a joint row holds (held: per body non-zero when
   a row holds it, or NULL when there are no rows), scaled by their
   island's alpha (worksharing: in a region or called alone). */
static void scale_separating(const rf_problem *p, double *g,
                             const uint64_t *held)
{
    const rf_work *w = &p->work;
    const int ncon = p->ncon;
#pragma omp for schedule(static)
    for (int i = 0; i < ncon; ++i) {
        const double alpha =
            w->isl_tmp[(size_t)RF__TMP_COUNT * w->isl_item[i] + RF__TMP_ALPHA];
        if (alpha == 1.0) {
            continue;
        }
        if (held != NULL) {
            const int a = p->con_body[2 * i], b = p->con_body[2 * i + 1];
            if ((a >= 0 && held[a]) || (b >= 0 && held[b])) {
                continue;
            }
        }
        /* the normal component alone (a third of the 6D velocity's work;
           scaling runs in most steps of a pile that is still landing) */
        if (rf__contact_normal_velocity(p, i, p->body_vel) > 0.0) {
            for (int k = 0; k < 6; ++k) {
                g[6 * i + k] *= alpha;
            }
        }
    }
}

/* A start in excess (E > A in some island): in each such island the
   impulses that carry the excess scaled by the island's alpha (the
   guard's scale of its whole start, guard_energy), the rest kept.  They
   are
   - a contact whose free normal velocity separates (u_n = D_n^T v* + b_n
     > 0: it needs no impulse, so its start only pushes; last step's
     impact impulses, which now throw bodies apart), unless it touches a
     body that a joint row holds;
   - the joint rows.
   Joint rows start cold, as Bullet's, and contacts warm, so a jointed
   body's contacts carry their joints' share of last step's impulse and
   the start measures as in excess though the rows' first visit takes it
   back: a 350 kg load on a 5 kg fork that a slider motor lifts was "in
   excess" by 100-800 J in 117 steps of 120, and scaling its separating
   points by alpha (about 0.02) let the load sink 0.23 m where stock
   lifts it 0.62 m (rfbench_tutorials, forklift).  So contacts on held
   bodies are kept whole, as the other contacts are.  Scaling every
   contact instead took the warm start off the whole island whenever one
   part was in excess (the full pyramid's lower layers sank twice as deep
   as stock's); keeping the separating contacts' starts too let more
   dropped columns topple after landing (docs/bullet-scenes.md). */
static void scale_excess(rf_problem *p, double *g, int threads)
{
    rf_work *w = &p->work;
    const int ncon = p->ncon, m6 = 6 * ncon;
    uint64_t *held = NULL;
    if (p->nrow > 0) { /* the colouring's masks are free again */
        held = w->si_mask;
        memset(held, 0, (size_t)p->nbody * sizeof(uint64_t));
    }
    for (int j = 0; j < p->nrow; ++j) {
        /* alpha < 1: every row of the island holds 0 (guard_energy) */
        g[m6 + j] *= w->isl_tmp[(size_t)RF__TMP_COUNT * w->isl_item[ncon + j] +
                                RF__TMP_ALPHA];
        for (int s = 0; s < 2; ++s) {
            const int b = p->row_body[2 * j + s];
            if (b >= 0) {
                held[b] = 1;
            }
        }
    }
    /* each contact on its own (the full falling boxes scale in 7 steps of
       10: serial, it was 1% of a two-thread step) */
    RF__PASS(threads, ncon > 512, scale_separating(p, g, held));
}

/* The coloured sweep's unit, a group: a run of consecutive items on the
   same two bodies (a manifold's points, a joint's rows), visited in order
   by one thread, so that a manifold costs one colour, not four, and its
   bodies are read and written once per pass (rf__si_rows_group) and stay
   in cache.  Contacts and rows never share a group.  Fills work.si_group
   (ngroup + 1 starts) and returns ngroup. */
static int build_groups(rf_problem *p)
{
    rf_work *w = &p->work;
    const int nitem = rf__nitem(p);
    int *start = w->si_group, ngroup = 0;
    for (int it = 0; it < nitem; ++it) {
        if (it == 0 || rf__item_body(p, it, 0) != rf__item_body(p, it - 1, 0) ||
            rf__item_body(p, it, 1) != rf__item_body(p, it - 1, 1) ||
            it == p->ncon) {
            start[ngroup++] = it;
        }
    }
    start[ngroup] = nitem;
    return ngroup;
}

/* The colours of groups [g0, g1) from colour base on: each the lowest
   colour that none of its dynamic bodies' groups in the range took (a
   64-bit mask per body, O(1) per group, as Box2D v3's graph colouring;
   rf__color_items' general neighbour search cost 15% of a BasicDemo
   step).  Groups that find all 63 colours taken go to colour base + 63,
   which runs on one thread (*serial).  Returns the colours used. */
static int color_range(rf_problem *p, int g0, int g1, int base, int *serial)
{
    rf_work *w = &p->work;
    const int *start = w->si_group;
    memset(w->si_mask, 0, (size_t)p->nbody * sizeof(uint64_t));
    int ncolor = 0;
    *serial = -1;
    for (int k = g0; k < g1; ++k) {
        if (!(w->isl_flag[w->isl_item[start[k]]] & RF__ISL_COLORED)) {
            w->color_of[k] = -1; /* its island goes in Bullet's order */
            continue;
        }
        uint64_t used = 0;
        int dyn[2];
        for (int s = 0; s < 2; ++s) {
            const int b = rf__item_body(p, start[k], s);
            dyn[s] = rf__dynamic_body(p, b) ? b : -1;
            if (dyn[s] >= 0) {
                used |= w->si_mask[dyn[s]];
            }
        }
        int c = 63;
        const uint64_t free_bits = ~used & ((UINT64_C(1) << 63) - 1);
        if (free_bits != 0) {
            c = __builtin_ctzll(free_bits);
        } else {
            *serial = base + 63;
        }
        for (int s = 0; s < 2; ++s) {
            if (dyn[s] >= 0) {
                w->si_mask[dyn[s]] |= UINT64_C(1) << c;
            }
        }
        w->color_of[k] = base + c;
        ncolor = c + 1 > ncolor ? c + 1 : ncolor;
    }
    return ncolor;
}

/* The colouring of the sweep: the joint rows' groups first, then the
   contacts' (Bullet's order within an iteration: non-contact rows, then
   contacts, so that a sweep ends on the contacts and a body that a joint
   pulls into the ground leaves the solve at u_n >= 0; with rows and
   contacts in shared colours, quick ragdolls at five sweeps came to rest
   with capsules 7 cm in the ground, stock 0.4 mm).  Deterministic: the
   same colours for any thread count. */
static void color_sweep(rf_problem *p)
{
    rf_work *w = &p->work;
    const int ngroup = build_groups(p);
    int first_row = 0; /* groups [0, first_row) are contacts (build_groups) */
    while (first_row < ngroup && w->si_group[first_row] < p->ncon) {
        ++first_row;
    }
    /* colour c <= group index within each range, so the two ranges' sum
       stays <= ngroup <= nitem */
    const int nrowc =
        color_range(p, first_row, ngroup, 0, &w->si_serial_color[0]);
    const int ncon_c =
        color_range(p, 0, first_row, nrowc, &w->si_serial_color[1]);
    rf__color_buckets(w, ngroup, nrowc + ncon_c);
}

/* Visit items [lo, hi) of one group in the pass (a whole group, or one
   item): contacts in the row form's passes at once (rf__si_rows_group),
   else item by item. */
static double visit_items(const rf_problem *p, const rf_config *cfg,
                          double omega, int lo, int hi, double *g, double *vel,
                          double *gn2, rf_si_guard *en, int pass)
{
    double d2 = 0.0;
    if (lo >= p->ncon) { /* rows: the block and normal passes */
        if (pass != PASS_FRICTION) {
            rf__si_joint_run(p, omega, lo - p->ncon, hi - p->ncon, g, vel, &d2,
                             gn2, en, NULL, NULL);
        }
        return d2;
    }
    if (pass != PASS_BLOCK) {
        return rf__si_rows_group(p, cfg, pass == PASS_FRICTION, lo, hi, g, vel,
                                 gn2, en);
    }
    for (int i = lo; i < hi; ++i) {
        d2 += visit_contact(p, cfg, omega, i, g, vel, gn2, en);
    }
    return d2;
}

/* Thread t's copy of the islands' running sums in a coloured sweep: the
   sums themselves for t = 0, else its copy (only E and B are read). */
static double *thread_run(const rf_work *w, int t)
{
    return t == 0 ? w->isl_run
                  : w->isl_copy +
                        (size_t)(t - 1) * RF__RUN_COUNT * (size_t)w->cap_isl;
}

/* One pass over island isl in Bullet's order: its rows (not in the
   friction pass), each with the slack its island has left, then its
   contacts, a group (consecutive contacts on the same two bodies) at a
   time under one guard of the island's slack, as a coloured sweep visits
   a group, so that an island of one group is swept to the same bits
   either way (rf__si_islands).  Its sums into isl_run. */
static void island_pass(const rf_problem *p, const rf_config *cfg, double omega,
                        int pass, int isl, double *g, double *vel)
{
    const rf_work *w = &p->work;
    const int ncon = p->ncon, *list = w->isl_list, end = w->isl_ptr[isl + 1];
    double *r = w->isl_run + (size_t)RF__RUN_COUNT * isl;
    int k = w->isl_ptr[isl];
    while (k < end && list[k] >= ncon) { /* runs of consecutive rows */
        const int j0 = list[k++] - ncon;
        int j1 = j0 + 1;
        while (k < end && list[k] - ncon == j1) {
            ++j1;
            ++k;
        }
        if (pass != PASS_FRICTION) {
            rf__si_joint_run(p, omega, j0, j1, g, vel, &r[RF__RUN_D2],
                             &r[RF__RUN_GN2], NULL, &r[RF__RUN_E],
                             &r[RF__RUN_B]);
        }
    }
    while (k < end) {
        const int lo = list[k++];
        int hi = lo + 1;
        while (k < end && list[k] == hi &&
               rf__item_body(p, hi, 0) == rf__item_body(p, lo, 0) &&
               rf__item_body(p, hi, 1) == rf__item_body(p, lo, 1)) {
            ++hi;
            ++k;
        }
        rf_si_guard en = {0.0, 0.0, 0.0};
        en.share = rf__si_guard_slack(r[RF__RUN_E], r[RF__RUN_B]);
        r[RF__RUN_D2] += visit_items(p, cfg, omega, lo, hi, g, vel,
                                     &r[RF__RUN_GN2], &en, pass);
        r[RF__RUN_E] += en.d_e;
        r[RF__RUN_B] += en.d_b;
    }
}

/* The islands swept in Bullet's order that are not done, one pass
   each, an island to a thread (worksharing: in a region or called alone;
   they share no dynamic body, so any thread may take any island and the
   bits stay the same).  A static schedule, in chunks of eight islands
   dealt round: called alone, a dynamic one still calls into libgomp,
   which allocates its work share on every pass. */
static void sequential_islands(const rf_problem *p, const rf_config *cfg,
                               double omega, int pass, double *g, double *vel)
{
    const rf_work *w = &p->work;
    const int nseq = w->nseq;
#pragma omp for schedule(static, 8)
    for (int s = 0; s < nseq; ++s) {
        const int isl = w->isl_seq[s];
        if (!(w->isl_flag[isl] & RF__ISL_DONE)) {
            island_pass(p, cfg, omega, pass, isl, g, vel);
        }
    }
}

/* Unit un of a colour in the pass (a bundle, or one group), each group
   with its island's share of the guard's slack (rf__si_island_share,
   from run); its group's (or groups') four sums into sum. */
static void visit_unit(const rf_problem *p, const rf_config *cfg, double omega,
                       int pass, int un, double *g, double *vel,
                       const double *run, double *sum)
{
    const rf_work *w = &p->work;
    const int k = w->si_unit[un];
    if (k < 0) { /* a bundle: its groups' sums at their k */
        const int friction = pass == PASS_FRICTION;
        rf__si_wide_bundle(p, friction,
                           friction ? rf__si_rounds(cfg)
                                    : rf__si_normal_rounds(cfg),
                           -k - 1, vel, run, sum);
        return;
    }
    rf_si_guard en = {0.0, 0.0, 0.0};
    en.share = rf__si_island_share(w, run, k);
    if (en.share < 0.0) { /* its island is done */
        return;
    }
    double gq = 0.0;
    const int grp = w->color_con[k];
    sum[4 * k] = visit_items(p, cfg, omega, w->si_group[grp],
                             w->si_group[grp + 1], g, vel, &gq, &en, pass);
    sum[4 * k + 1] = gq;
    sum[4 * k + 2] = en.d_e;
    sum[4 * k + 3] = en.d_b;
}

/* Ask for what unit un (-1: none) of the pass reads, when it is a group
   (a bundle's kernel asks for its own records, slot by slot). */
static RF__ALWAYS_INLINE void prefetch_unit(const rf_problem *p, int pass,
                                            int un, const double *g,
                                            const double *vel)
{
    /* below a couple of MB of records (about 2,000 contacts at 1 KB)
       the caches hold them and the hints only cost: quick
       RollingFrictionDemo and sphere pile 2% slower with them, the full
       pyramid with rolling friction on every box 12% faster */
    if (un < 0 || pass == PASS_BLOCK || p->ncon + p->nrow < 2048) {
        return;
    }
    const rf_work *w = &p->work;
    const int k = w->si_unit[un];
    if (k >= 0) {
        const int grp = w->color_con[k];
        rf__si_rows_prefetch(p, pass == PASS_FRICTION, w->si_group[grp],
                             w->si_group[grp + 1], g, vel);
    }
}

/* Colour c's units in the pass, on this thread or shared out over the
   enclosing region's threads (shared), then its groups' sums added to
   their islands' in the colour's order: in a region into this thread's
   copy run (thread_run; E and B only, but for the first thread's, which
   is isl_run itself), alone into isl_run and every copy.  So every copy
   of an island's E and B agrees bit for bit with isl_run, each thread
   reads its shares from its own, and no thread waits on another to add. */
static void colored_color(rf_problem *p, const rf_config *cfg, double omega,
                          int pass, int c, int shared, double *g, double *vel,
                          double *run)
{
    rf_work *w = &p->work;
    double *sum = w->si_sum; /* per group: d2, gn2, dE, dB */
    const int lo = w->color_ptr[c], hi = w->color_ptr[c + 1];
    const int ulo = w->si_unit_ptr[c], uhi = w->si_unit_ptr[c + 1];
    if (shared) {
#pragma omp for schedule(static)
        for (int un = ulo; un < uhi; ++un) {
            prefetch_unit(p, pass, un + 1 < uhi ? un + 1 : -1, g, vel);
            visit_unit(p, cfg, omega, pass, un, g, vel, run, sum);
        }
    } else {
        for (int un = ulo; un < uhi; ++un) {
            prefetch_unit(p, pass, un + 1 < uhi ? un + 1 : -1, g, vel);
            visit_unit(p, cfg, omega, pass, un, g, vel, run, sum);
        }
    }
    const int full = run == w->isl_run;
    const int ncopy = shared ? 0 : w->isl_ncopy;
    /* a run of groups of one island adds in locals (through memory every
       sum waited on the store before it: a colour of one island is the
       common case), stored when the island changes */
    int isl = -1;
    double E = 0.0, B = 0.0, d2 = 0.0, gn2 = 0.0;
    for (int k = lo; k <= hi; ++k) {
        const int next = k < hi ? w->si_kisl[k] : -1;
        if (next != isl) {
            if (isl >= 0) {
                const size_t at = (size_t)RF__RUN_COUNT * isl;
                double *r = run + at;
                r[RF__RUN_E] = E;
                r[RF__RUN_B] = B;
                if (full) {
                    r[RF__RUN_D2] = d2;
                    r[RF__RUN_GN2] = gn2;
                }
                for (int t = 1; t <= ncopy; ++t) {
                    double *q = thread_run(w, t) + at;
                    q[RF__RUN_E] = E;
                    q[RF__RUN_B] = B;
                }
            }
            isl = next >= 0 && !(w->isl_flag[next] & RF__ISL_DONE) ? next : -1;
            if (isl >= 0) {
                const double *r = run + (size_t)RF__RUN_COUNT * isl;
                E = r[RF__RUN_E];
                B = r[RF__RUN_B];
                d2 = r[RF__RUN_D2];
                gn2 = r[RF__RUN_GN2];
            }
        }
        if (isl >= 0) {
            E += sum[4 * k + 2];
            B += sum[4 * k + 3];
            d2 += sum[4 * k];
            gn2 += sum[4 * k + 1];
        }
    }
}

/* One pass of the coloured sweep, colour by colour.  A run of colours
   that pay for threads (over 64 groups, and not a colour whose items may
   share bodies) shares one parallel region, each colour ending at a
   barrier: one fork and join per run instead of per colour (each cost a
   futex wake under the passive wait policy, and a large scene has a few
   dozen such colours per sweep).  The other colours run on this thread
   with no synchronisation at all. */
static void colored_pass(rf_problem *p, const rf_config *cfg, double omega,
                         int pass, int threads, double *g, double *vel)
{
    rf_work *w = &p->work;
    for (int c = 0; c < w->ncolor;) {
        int c2 = c;
        while (threads > 1 && c2 < w->ncolor &&
               w->color_ptr[c2 + 1] - w->color_ptr[c2] > 64 &&
               c2 != w->si_serial_color[0] && c2 != w->si_serial_color[1]) {
            ++c2;
        }
        if (c2 == c) {
            colored_color(p, cfg, omega, pass, c, 0, g, vel, w->isl_run);
            ++c;
            continue;
        }
#pragma omp parallel num_threads(threads)
        {
            double *run = thread_run(w, omp_get_thread_num());
            for (int k = c; k < c2; ++k) {
                colored_color(p, cfg, omega, pass, k, 1, g, vel, run);
            }
        }
        c = c2;
    }
}

/* The row form's records: the bundles' lane-wide, the other contacts'
   one by one (worksharing: in a region or called alone). */
static void build_row_form(rf_problem *p)
{
    rf_work *w = &p->work;
    const int nbundle = w->si_nbundle, ncon = p->ncon;
#pragma omp for schedule(static) nowait
    for (int b = 0; b < nbundle; ++b) {
        rf__si_wide_build(p, b);
    }
#pragma omp for schedule(static)
    for (int i = 0; i < ncon; ++i) {
        if (w->si_wpos[i] < 0) {
            w->si_flags[i] = rf__si_rows_build(p, i);
        }
    }
}

void rf__solve_si(rf_problem *p, const rf_config *cfg, int threads,
                  double *gamma, rf_solve_out *out)
{
    rf_work *w = &p->work;
    const int ncon = p->ncon, nrow = p->nrow;
    const double omega = cfg->omega == 0.0 ? 1.0 : cfg->omega;
    /* the iterate: gamma itself when no residual is wanted (the caller's
       work array; a copy cost 1% of a large scene's step), else a copy */
    double *g = cfg->residual ? w->g0 : gamma, *vel = w->bv1;
    /* one copy of the islands' sums per thread (rf__work_reserve_si) */
    threads = threads > w->isl_ncopy + 1 ? w->isl_ncopy + 1 : threads;

    const int staggered = cfg->model == RF_MODEL_DESAXCE;
    /* the islands, each swept in the order its own size asks for
       (rf__si_islands) */
    const int nisl = rf__si_islands(p, staggered);
    const int colored = w->nseq < nisl;
    for (int j = 0; j < nrow; ++j) {
        if (!row_holds_zero(p, j)) {
            w->isl_flag[w->isl_item[ncon + j]] |= RF__ISL_OPEN;
        }
    }
    if (colored) {
        color_sweep(p);
        rf__si_island_colors(p);
        rf__si_wide_pack(p, staggered);
        rf__si_island_bundles(p);
    } else { /* no bundles (none left from an earlier, larger solve) */
        rf__si_wide_clear(p);
    }
    if (staggered) { /* the row form: no scaling, its own records, the
                        bundles' built lane-wide */
        RF__PASS(threads, ncon > 512, build_row_form(p));
    } else {
        rf__part_scaling(p, w->wscale, NULL, threads);
#pragma omp parallel for schedule(static) num_threads(threads) if (ncon > 512)
        for (int i = 0; i < ncon; ++i) {
            build_record(p, i, w->si_rec + (size_t)RF__SI_STRIDE * i,
                         w->si_int + 5 * i);
        }
    }
    for (int j = 0; j < nrow; ++j) {
        rf__si_joint_build(p, j);
    }
    if (g != gamma) {
        memcpy(g, gamma, (size_t)rf__ndof(p) * sizeof(double));
    }
    /* the start under the guard, island by island: kept whole even when
       it adds more energy than the biases' work (E > A), but for the
       impulses that carry the excess (scale_excess).  The guard's slack
       is then 0, so the sweeps take only steps that add no energy, which
       is what GS's steps do to an excess; an iterate still in excess at
       the end is scaled.  guard_energy forms vel. */
    if (guard_energy(p, g, vel, threads, 0) > 0.0) {
        scale_excess(p, g, threads);
        guard_energy(p, g, vel, threads, 0);
    }
    if (colored) {
        rf__si_wide_gamma(p, g, 0, threads);
        for (int t = 1; t < threads; ++t) { /* the threads' copies */
            memcpy(thread_run(w, t), w->isl_run,
                   (size_t)RF__RUN_COUNT * nisl * sizeof(double));
        }
    }

    /* the sweeps: an island that meets the stopping test is visited no
       more, so that its sweeps do not depend on the other islands' */
    int it = 0, ndone = 0;
    while (it < cfg->max_iter && ndone < nisl) {
        for (int i = 0; i < nisl; ++i) {
            double *r = w->isl_run + (size_t)RF__RUN_COUNT * i;
            r[RF__RUN_D2] = r[RF__RUN_GN2] = 0.0;
        }
        const int first = staggered ? PASS_NORMAL : PASS_BLOCK;
        for (int pass = first; pass <= (staggered ? PASS_FRICTION : first);
             ++pass) {
            if (colored) {
                colored_pass(p, cfg, omega, pass, threads, g, vel);
            }
            RF__PASS(threads, w->nseq > 16 && ncon + nrow > 512,
                     sequential_islands(p, cfg, omega, pass, g, vel));
        }
        ++it;
        for (int i = 0; cfg->tol > 0.0 && i < nisl; ++i) {
            const double *r = w->isl_run + (size_t)RF__RUN_COUNT * i;
            if (!(w->isl_flag[i] & RF__ISL_DONE) &&
                sqrt(r[RF__RUN_D2]) <=
                    cfg->tol * fmax(sqrt(r[RF__RUN_GN2]), 1e-300)) {
                w->isl_flag[i] |= RF__ISL_DONE;
                ++ndone;
            }
        }
    }
    const int converged = cfg->tol > 0.0 && ndone == nisl;
    if (colored) {
        rf__si_wide_gamma(p, g, 1, threads);
    }
    /* at or near the bound (the running sums' rounding): E afresh, and
       scaled back if it is above by more than rf_solve's energy check
       allows, so that residual 0 and 1 return the same bits; island by
       island, each on its own running sums */
    int check = 0;
    double E = 0.0;
    for (int i = 0; i < nisl; ++i) {
        const double *r = w->isl_run + (size_t)RF__RUN_COUNT * i;
        const double Ei = r[RF__RUN_E], Bi = r[RF__RUN_B];
        if (Ei > (Bi < 0.0 ? -Bi : 0.0) - 1e-9 * (fabs(Ei) + fabs(Bi))) {
            w->isl_flag[i] |= RF__ISL_CHECK;
            check = 1;
        }
    }
    out->energy_scale = check ? guard_energy(p, g, vel, threads, 1) : 1.0;
    for (int i = 0; i < nisl; ++i) {
        E += w->isl_run[(size_t)RF__RUN_COUNT * i + RF__RUN_E];
    }
    if (!cfg->residual) {
        /* no residual wanted: the last iterate; its energy change is the
           guard's E less the compliance's share (E bounds the impulses'
           work including g.C g / 2, kinetic energy excluding it) */
        out->iterations = it; /* gamma: the iterate itself */
        out->residual = NAN;
        out->converged = converged;
        out->colors = colored ? w->ncolor : 0;
        out->energy_change = E - 0.5 * compliance_work(p, g, 0);
        out->energy_known = 1;
        out->vel_valid = 1; /* vel: the sweeps' velocities of g */
        return;
    }
    rf__item_velocity(p, g, vel, w->u3, threads);
    rf_config fixed = *cfg;
    fixed.tol = 0.0; /* finish: the last iterate, its residual once */
    rf_tracker tr;
    rf__tracker_init(&tr, &fixed, NULL, w->r, threads);
    rf__tracker_finish(&tr, p, gamma, g, w->u3, it, out);
    out->converged = converged;
    out->colors = colored ? w->ncolor : 0;
}
