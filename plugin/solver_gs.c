/*
 * Projected block Gauss-Seidel (Tasora (46) with the K term: each contact
 * sees the impulses already updated in the same sweep; Acary §5.2 block
 * splitting (66)-(67)).
 *
 * Visiting contact i with current local velocity u_i (which includes its
 * own impulse gamma_i), the one-contact problem is
 *
 *   find g in Y_i:  u_i + W_ii (g - gamma_i) = u'  with  u'_hat in Y_i*,
 *                   <g, u'_hat> = 0,
 *
 * solved as follows (the "local solve"), in scaled variables:
 *   0. scaling: forces and torques have different units, and W_ii mixes
 *      1/m with 1/I, so plain projected steps crawl along the badly
 *      scaled directions.  A scaling that is uniform within each part
 *      (normal; sliding pair; spin; rolling pair), g = S g', keeps the
 *      cone family: mu gn >= |g_t| becomes (mu s_n / s_t) g'n >= |g'_t|,
 *      and likewise for rho, sigma and the De Saxce shift.  We take
 *      s = 1/sqrt(mean diagonal of W_ii) per part, so S W_ii S has a unit
 *      diagonal and the projection stays exact;
 *   1. stick test: g' = gamma'_i - W'^-1 u'_i (Cholesky of W', once per
 *      solve); if g' lies in the scaled cone it is the exact answer for
 *      both models (u' = 0, so u'_hat = 0).  A cone with a zero
 *      coefficient or a roll_t1 cone (tw = 0) holds g' only in the rare
 *      case that those components of g' vanish; otherwise step 2 runs;
 *   2. otherwise projected fixed-point steps g' <- Proj(g' - t u'_hat)
 *      with t = omega / lambda_max(W') (Acary (64) on one contact), at
 *      most cfg->local_iter of them, stopping when the step stalls.
 * Inexact local solves are fine: every visit is a descent step of block
 * coordinate descent on the QP (42), which converges to its solution.
 *
 * State: body form keeps body velocities vel = v* + M^-1 D gamma (work.bv1)
 * and updates the two bodies of a contact after its visit (O(1) per
 * contact); local form computes u_i = W_i gamma + q_i by row products.
 *
 * The coloured variant (RF_SOLVER_GS_COLORED) sweeps colour by colour;
 * contacts of one colour share no dynamic body (body form) or W block
 * (local form), so they run in parallel without races, and the result is
 * independent of the thread count.
 *
 * Rows (joints) are solved exactly one at a time (a scalar projection on
 * [lo, hi]); a sequential sweep visits them before the contacts, as
 * Bullet's SI does, and the coloured sweep colours contacts and rows
 * together (items sharing a dynamic body never share a colour; a
 * friction-bounded row shares its bodies with its bounding row, so the
 * bound it reads is never written in the same colour).
 *
 * Work: wscale = s, wblk = S W_ii S, wchol = its Cholesky factor,
 * step = 1 / lambda_max(S W_ii S), bv1 = vel,
 * u0 = N gamma + r after each sweep, best.
 */
#include "internal.h"

#include <string.h>

int rf__cholesky(const double *A, int d, double L[36])
{
    double scale = 0.0;
    for (int k = 0; k < d; ++k) {
        scale = fmax(scale, A[7 * k]);
    }
    if (!(scale > 0.0)) {
        return 0;
    }
    memset(L, 0, 36 * sizeof(double));
    for (int j = 0; j < d; ++j) {
        double s = A[7 * j];
        for (int k = 0; k < j; ++k) {
            s -= L[6 * j + k] * L[6 * j + k];
        }
        if (!(s > 1e-12 * scale)) {
            return 0;
        }
        L[7 * j] = sqrt(s);
        for (int i = j + 1; i < d; ++i) {
            double t = A[6 * i + j];
            for (int k = 0; k < j; ++k) {
                t -= L[6 * i + k] * L[6 * j + k];
            }
            L[6 * i + j] = t / L[7 * j];
        }
    }
    return 1;
}

/* Lower Cholesky factor of a 6x6 SPD block; 0 if not positive definite
   (relative to its scale). */
static int cholesky6(const double A[36], double L[36])
{
    return rf__cholesky(A, 6, L);
}

/* Solve L L^T x = b. */
static void cholesky6_solve(const double L[36], const double b[6], double x[6])
{
    double y[6];
    for (int i = 0; i < 6; ++i) {
        double s = b[i];
        for (int k = 0; k < i; ++k) {
            s -= L[6 * i + k] * y[k];
        }
        y[i] = s / L[7 * i];
    }
    for (int i = 5; i >= 0; --i) {
        double s = y[i];
        for (int k = i + 1; k < 6; ++k) {
            s -= L[6 * k + i] * x[k];
        }
        x[i] = s / L[7 * i];
    }
}

/* Largest eigenvalue of a symmetric PSD 6x6 block by power iteration,
   bounded above by its Gershgorin radius (a safe step bound). */
static double block_lambda_max(const double A[36])
{
    double x[6] = {1.0, 0.9, 0.8, 0.7, 0.6, 0.5}, lam = 0.0;
    for (int it = 0; it < 30; ++it) {
        double y[6], n2 = 0.0;
        for (int i = 0; i < 6; ++i) {
            y[i] = 0.0;
            for (int k = 0; k < 6; ++k) {
                y[i] += A[6 * i + k] * x[k];
            }
            n2 += y[i] * y[i];
        }
        double n = sqrt(n2);
        if (!(n > RF_MINVAL)) {
            break;
        }
        lam = n;
        for (int i = 0; i < 6; ++i) {
            x[i] = y[i] / n;
        }
    }
    double gersh = 0.0;
    for (int i = 0; i < 6; ++i) {
        double s = 0.0;
        for (int k = 0; k < 6; ++k) {
            s += fabs(A[6 * i + k]);
        }
        gersh = fmax(gersh, s);
    }
    /* Power iteration converges from below; 1.02 covers its last digits
       without exceeding the Gershgorin bound. */
    return fmin(1.02 * lam, gersh);
}

static void prepare_blocks(rf_problem *p, int threads)
{
    rf_work *w = &p->work;
    const int ncon = p->ncon;
#pragma omp parallel for schedule(static) num_threads(threads) if (ncon > 512)
    for (int i = 0; i < ncon; ++i) {
        double *A = w->wblk + 36 * i;
        const double *s = w->wscale + 4 * i;
        rf__diag_block(p, i, A);
        for (int r = 0; r < 6; ++r) {
            for (int c = 0; c < 6; ++c) {
                A[6 * r + c] *= s[RF_PART[r]] * s[RF_PART[c]];
            }
        }
        w->chol_ok[i] = (unsigned char)cholesky6(A, w->wchol + 36 * i);
        double lm = block_lambda_max(A);
        w->step[i] = lm > RF_MINVAL ? 1.0 / lm : 0.0;
    }
    for (int j = 0; j < p->nrow; ++j) { /* rows: 1 / (J M^-1 J^T + cfm) */
        double d = rf__row_diag(p, j) + p->row_cfm[j];
        w->step[ncon + j] = d > RF_MINVAL ? 1.0 / d : 0.0;
    }
}

static void matvec6(const double A[36], const double x[6], double y[6])
{
    for (int i = 0; i < 6; ++i) {
        y[i] = A[6 * i] * x[0] + A[6 * i + 1] * x[1] + A[6 * i + 2] * x[2] +
               A[6 * i + 3] * x[3] + A[6 * i + 4] * x[4] + A[6 * i + 5] * x[5];
    }
}

static int in_cone(const double g[6], const rf__cone *c)
{
    return g[0] >= 0.0 && sqrt(g[1] * g[1] + g[2] * g[2]) <= c->mu * g[0] &&
           rf__roll_norm(g, c) <= c->rho * g[0] &&
           (!c->roll_t1 || g[5] == 0.0) && fabs(g[3]) <= c->sigma * g[0] &&
           g[0] <= c->nmax;
}

/* The local solve of contact i: gi (in/out) and its velocity ui (in). */
static void local_solve(const rf_problem *p, const rf_config *cfg, double omega,
                        int i, double gi[6], const double ui[6])
{
    const rf_work *w = &p->work;
    const double *s = w->wscale + 4 * i;
    /* mu' = mu s_n / s_t, ... (rf__part_scaling, solve.c) */
    const rf__cone cone = rf__scaled_cone(p, i);
    const double *A = w->wblk + 36 * i;
    double u[6], g[6];
    for (int k = 0; k < 6; ++k) {
        u[k] = ui[k] * s[RF_PART[k]];
        g[k] = gi[k] / s[RF_PART[k]];
    }
    int done = 0;
    if (w->chol_ok[i]) {
        double d[6], gs[6];
        cholesky6_solve(w->wchol + 36 * i, u, d);
        for (int k = 0; k < 6; ++k) {
            gs[k] = g[k] - d[k];
        }
        if (in_cone(gs, &cone)) {
            memcpy(g, gs, sizeof g);
            done = 1;
        }
    }
    const double t = omega * w->step[i];
    const int desaxce = cfg->model == RF_MODEL_DESAXCE;
    for (int it = 0; !done && it < cfg->local_iter; ++it) {
        double z[6], pz[6], d[6], Ad[6];
        double shift = desaxce ? rf__desaxce_shift(u, &cone) : 0.0;
        for (int k = 0; k < 6; ++k) {
            z[k] = g[k] - t * u[k];
        }
        z[0] -= t * shift;
        rf__project6(z, &cone, pz);
        double dn = 0.0, gn = 0.0;
        for (int k = 0; k < 6; ++k) {
            d[k] = pz[k] - g[k];
            dn += d[k] * d[k];
            gn += pz[k] * pz[k];
        }
        matvec6(A, d, Ad);
        for (int k = 0; k < 6; ++k) {
            u[k] += Ad[k];
        }
        memcpy(g, pz, sizeof g);
        done = dn <= 1e-30 * gn; /* stalled at rounding level */
    }
    for (int k = 0; k < 6; ++k) {
        gi[k] = g[k] * s[RF_PART[k]];
    }
}

/* Preclik's maximally dissipative impact as contact i's local step
   (cfg->local_mdp; rf_mdp_contact): A the unscaled (n, t, o) block of
   W_ii, b = -(u_i - A g_i) the velocity of everything but contact i,
   negated.  Only for rho = sigma = 0 and no cap (0 returned otherwise, or
   when the block is unusable). */
static int mdp_step(const rf_problem *p, int i, double gi[6],
                    const double ui[6])
{
    if (p->con_rho[i] != 0.0 || p->con_sigma[i] != 0.0 ||
        p->con_nmax[i] > 0.0) {
        return 0;
    }
    const rf_work *w = &p->work;
    const double *S = w->wblk + 36 * i, *s = w->wscale + 4 * i;
    double A[9], b[3], x[3];
    for (int k = 0; k < 3; ++k) {
        for (int l = 0; l < 3; ++l) { /* S W S back to W */
            A[3 * k + l] = S[6 * k + l] / (s[RF_PART[k]] * s[RF_PART[l]]);
        }
    }
    for (int k = 0; k < 3; ++k) {
        double own = 0.0;
        for (int l = 0; l < 3; ++l) {
            own += A[3 * k + l] * gi[l];
        }
        b[k] = -(ui[k] - own);
    }
    if (rf_mdp_contact(A, b, p->con_mu[i], x, NULL) != RF_OK) {
        return 0;
    }
    gi[0] = x[0];
    gi[1] = x[1];
    gi[2] = x[2];
    gi[3] = gi[4] = gi[5] = 0.0;
    return 1;
}

/* Visit contact i: local velocity, local solve, state update. */
static void visit(rf_problem *p, const rf_config *cfg, double omega, int i,
                  double *gamma, double *vel)
{
    double ui[6], gi[6], dg[6];
    if (p->kind == RF_KIND_LOCAL) {
        const rf_csr *W = &p->W;
        for (int k = 0; k < 6; ++k) {
            int r = 6 * i + k;
            double s = p->q[r];
            for (int e = W->row_ptr[r]; e < W->row_ptr[r + 1]; ++e) {
                s += W->val[e] * gamma[W->col[e]];
            }
            ui[k] = s;
        }
    } else {
        rf__contact_velocity(p, i, vel, ui);
        for (int k = 0; p->cfm_on && k < 6; ++k) { /* compliance */
            ui[k] += p->con_cfm[6 * i + k] * gamma[6 * i + k];
        }
    }
    memcpy(gi, gamma + 6 * i, sizeof gi);
    if (!(cfg->local_mdp && mdp_step(p, i, gi, ui))) {
        local_solve(p, cfg, omega, i, gi, ui);
    }
    for (int k = 0; k < 6; ++k) {
        dg[k] = gi[k] - gamma[6 * i + k];
        gamma[6 * i + k] = gi[k];
    }
    if (p->kind == RF_KIND_BODY) {
        rf__contact_apply(p, i, dg, vel);
    }
}

/* Visit row j: the exact one-row solve, lambda <- clamp(lambda - omega u /
   (J M^-1 J^T + cfm), lo, hi) (Bullet's resolveSingleConstraintRowGeneric
   with the compliance on the diagonal), then the body update. */
static void visit_row(rf_problem *p, double omega, int j, double *gamma,
                      double *vel)
{
    const int m6 = 6 * p->ncon;
    const double lam = gamma[m6 + j];
    const double u = rf__row_velocity(p, j, vel) + p->row_cfm[j] * lam;
    double lo, hi;
    rf__row_bounds(p, NULL, j, gamma, &lo, &hi);
    const double ln =
        rf__clamp(lam - omega * p->work.step[p->ncon + j] * u, lo, hi);
    gamma[m6 + j] = ln;
    rf__row_apply(p, j, ln - lam, vel);
}

/* Visit item it (contact or row). */
static void visit_item(rf_problem *p, const rf_config *cfg, double omega,
                       int it, double *gamma, double *vel)
{
    if (it < p->ncon) {
        visit(p, cfg, omega, it, gamma, vel);
    } else {
        visit_row(p, omega, it - p->ncon, gamma, vel);
    }
}

/* Greedy colouring: each item takes the smallest colour unused by the
   already coloured items it is coupled to. */
void rf__color_items(rf_problem *p)
{
    rf_work *w = &p->work;
    const int nitem = rf__nitem(p);
    int *mark = w->color_mark, *nb = w->color_con; /* scratch */
    int *used = w->color_ptr;                      /* scratch */
    int ncolor = 0;
    for (int i = 0; i < nitem; ++i) {
        mark[i] = -1;
        w->color_of[i] = -1;
    }
    for (int c = 0; c <= nitem; ++c) {
        used[c] = -1;
    }
    for (int i = 0; i < nitem; ++i) {
        int n = rf__neighbours(p, i, mark, nb);
        for (int a = 0; a < n; ++a) {
            int c = w->color_of[nb[a]];
            if (c >= 0) {
                used[c] = i;
            }
        }
        int c = 0;
        while (used[c] == i) {
            ++c;
        }
        w->color_of[i] = c;
        if (c + 1 > ncolor) {
            ncolor = c + 1;
        }
    }
    rf__color_buckets(w, nitem, ncolor);
}

void rf__color_buckets(rf_work *w, int n, int ncolor)
{
    int *ptr = w->color_ptr;
    memset(ptr, 0, (size_t)(ncolor + 1) * sizeof(int));
    for (int i = 0; i < n; ++i) {
        ptr[w->color_of[i] + 1] += w->color_of[i] >= 0;
    }
    for (int c = 0; c < ncolor; ++c) {
        ptr[c + 1] += ptr[c];
    }
    for (int i = 0; i < n; ++i) {
        if (w->color_of[i] >= 0) {
            w->color_con[ptr[w->color_of[i]]++] = i;
        }
    }
    for (int c = ncolor; c > 0; --c) {
        ptr[c] = ptr[c - 1];
    }
    ptr[0] = 0;
    w->ncolor = ncolor;
}

void rf__solve_gs(rf_problem *p, const rf_config *cfg, int threads,
                  double *gamma, rf_solve_out *out)
{
    rf_work *w = &p->work;
    const int ncon = p->ncon;
    const int colored = cfg->solver == RF_SOLVER_GS_COLORED;
    const double omega = cfg->omega == 0.0 ? 1.0 : cfg->omega;
    double *g = w->g0, *u = w->u0, *vel = w->bv1;

    rf__part_scaling(p, w->wscale, NULL, threads);
    prepare_blocks(p, threads);
    if (colored) {
        rf__color_items(p);
    }
    memcpy(g, gamma, (size_t)rf__ndof(p) * sizeof(double));
    if (p->kind == RF_KIND_BODY) {
        rf__body_velocity(p, g, vel, threads);
    }
    rf_tracker tr;
    rf__tracker_init(&tr, cfg, NULL, w->r, threads);

    int it = 0;
    while (it < cfg->max_iter && !tr.converged) {
        if (colored) {
            /* One region per sweep, a worksharing loop per colour (its
               barrier keeps the colours in order): a region per colour
               cost a fork and a join each, and colours of a few hundred
               items ran on one thread to avoid them (900 contacts: no
               gain from a second thread at all). */
#pragma omp parallel num_threads(threads) if (rf__nitem(p) > 512)
            for (int c = 0; c < w->ncolor; ++c) {
                const int lo = w->color_ptr[c], hi = w->color_ptr[c + 1];
#pragma omp for schedule(static)
                for (int k = lo; k < hi; ++k) {
                    visit_item(p, cfg, omega, w->color_con[k], g, vel);
                }
            }
        } else {
            /* rows (joints) first, then contacts, as Bullet's SI does */
            for (int j = 0; j < p->nrow; ++j) {
                visit_row(p, omega, j, g, vel);
            }
            for (int i = 0; i < ncon; ++i) {
                visit(p, cfg, omega, i, g, vel);
            }
        }
        ++it;
        if (!tr.track) {
            continue; /* fixed iteration count: u is formed at the end */
        }
        if (p->kind == RF_KIND_BODY) {
            /* u from the maintained velocities: no N product needed. */
            rf__item_velocity(p, g, vel, u, threads);
        } else {
            rf__apply_N(p, g, u, 1, threads);
        }
        rf__tracker_update(&tr, p, g, u);
    }
    rf__tracker_finish(&tr, p, gamma, g, NULL, it, out);
    out->colors = colored ? w->ncolor : 0;
}
