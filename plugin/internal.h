/*
 * Internal layout of the solver core.  Not installed.
 *
 * Data flow of one solve (plugin/solve.c):
 *   problem.c     bodies + contacts (SoA) or local W, q; validation
 *   jacobian.c    D and D^T products: N gamma = D^T M^-1 D gamma, matrix-free
 *   cone.c        exact projection on Y_i (Tasora App. C)
 *   work.c        work memory, grown between solves, never inside loops
 *   residual.c    natural-map residual (Siconos' measure), both models
 *   solver_jacobi.c, solver_gs.c, solver_apgd.c   the iterations
 *   solve.c       rf_solve: validate, prepare, dispatch, stats
 *   problem_io.c  Siconos rolling-friction files
 *
 * Items: the unknowns come in two families, the 6D contacts and the
 * scalar rows (joints, motors, limits: rf_row_desc).  Items are numbered
 * contacts first (0 .. ncon-1), then rows (ncon .. ncon+nrow-1); a
 * vector over the unknowns ("dof vector", 6 ncon + nrow entries) holds
 * the contacts' six components each and then one entry per row.  Both
 * families go through the same two-pass N product (their impulses summed
 * per body through one body -> items index), so every solver sees one
 * vector gamma and projects each item on its own set (the cone Y_i, or
 * the interval [lo, hi]).  A row's compliance cfm adds to the diagonal of
 * N (N + C).  Per-item arrays (step, colours) have ncon + nrow entries;
 * the part scaling has 4 entries per contact then 1 per row.
 *
 * Threading: every parallel pass is either per contact (reads bodies,
 * writes its own contact's slots) or per body (reads the contacts listed
 * for that body in a fixed order, writes the body's slots), so there are
 * no races and no atomics, and sums are formed in an order independent of
 * the thread count.  Global sums (norms, dot products) are accumulated per
 * fixed block of RF_REDUCE_BLOCK items and the block partials are added in
 * block order (rf__sum_blocks), which makes Jacobi and APGD bitwise
 * identical for any OMP_NUM_THREADS.
 */
#ifndef ROLLFRIC_INTERNAL_H
#define ROLLFRIC_INTERNAL_H

#include "rollfric/rollfric.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* For kernels whose flags must fold to constants where they are called
   (minimise_psi_impl in cone.c, the SI row form's group kernel). */
#if defined(__GNUC__)
#define RF__ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define RF__ALWAYS_INLINE inline
#endif

#define RF_REDUCE_BLOCK 256
/* Guard for divisions (MuJoCo's mjMINVAL). */
#define RF_MINVAL 1e-300
/* Frame orthonormality tolerance accepted by rf_problem_set_contact. */
#define RF_FRAME_TOL 1e-6

enum { RF_KIND_EMPTY = 0, RF_KIND_BODY = 1, RF_KIND_LOCAL = 2 };

/* Compressed sparse rows, n x n. */
typedef struct rf_csr {
    int n;
    int nnz;
    int cap_rows; /* capacity of row_ptr (rows + 1) */
    int cap_nnz;  /* capacity of col / val */
    int *row_ptr; /* (n + 1) */
    int *col;     /* (nnz) */
    double *val;  /* (nnz) */
} rf_csr;

/* Work memory owned by a problem; sized by rf__work_reserve before a solve
 * and reused across solves (grown only).  Roles per solver are documented
 * in each solver file. */
/* The blocks that rf_work's grouped arrays are carved from (rf__grow_all:
   the arrays of a group share one capacity and one allocation). */
enum {
    RF__WG_ITEM = 0, /* wscale, wcone, step */
    RF__WG_BODY,     /* bv0, bv1, bc_ptr */
    RF__WG_COLOR,    /* color_con, color_of, color_ptr, color_mark */
    RF__WG_SI,       /* si_flags, si_wpos */
    RF__WG_SI_BLOCK, /* si_rec, si_int */
    RF__WG_SI_ROWS,  /* si_nrec, si_frec, si_arec */
    RF__WG_SI_SLOT,  /* si_wn, si_wf, si_wg */
    RF__WG_SI_ASLOT, /* si_wa, si_wga */
    RF__WG_SI_UNIT,  /* si_unit, si_unit_ptr, si_wk, si_wlen, si_bundle,
                        si_wm */
    RF__WG_ISL,      /* isl_item, isl_list, isl_ptr, isl_seq, si_kisl,
                        si_bisl, si_kdiv, isl_run, isl_tmp, isl_flag */
    RF__WG_BLK,      /* wblk, wchol, chol_ok */
    RF__WG_COH_VEL,  /* coh_saved, coh_tmp */
    RF__WG_COUNT
};
typedef struct rf_work {
    void *group[RF__WG_COUNT]; /* freed alone, never their arrays */
    int cap_item, cap_body, cap_ent, cap_blk, cap_partial, cap_color;
    int cap_vec[12]; /* per dof vector, in the order of the RF__VEC_ bits */
    /* dof vectors, (6 ncon + nrow) each; each is reserved only for the
       solvers that use it (rf__solver_vecs) */
    double *g0, *g1, *g2, *g3; /* gamma iterates / scratch */
    double *u0, *u1, *u2, *u3; /* local velocities N gamma + r / scratch */
    double *r;                 /* free local velocity r (q in local form) */
    double *rs, *sx;           /* scaled r and a scaled-product scratch */
    double *best;              /* best iterate so far */
    /* per item, (ncon + nrow) each (wscale: 4 per item reserved) */
    double *wscale; /* part scaling, rf__part_scaling */
    double *wcone;  /* per item 4: contact i's cone in the scaled variables,
                       mu', rho', sigma', nmax' (rf__part_scaling) */
    double *step;   /* per item step length */
    /* GS only: the scaled block S W_ii S and its Cholesky factor (ncon x
       36 each, row-major, lower; ok flag in chol_ok (ncon)) */
    double *wblk, *wchol;
    unsigned char *chol_ok;
    /* per body, (nbody x 6) each: linear then angular velocity */
    double *bv0, *bv1;
    /* per contact (ncon x 6, body form): the world impulse of the body
       pass's input, force then torque without lever arm (jacobian.c) */
    double *cimp;
    int cap_cimp;
    /* split impulse (split.c): one record of RF__SPLIT_REC doubles per
       deep contact and its contact index; reserved by rf_solve_split */
    double *split_rec;
    int *split_con; /* deep contacts' indices, then their 2 side bodies */
    int cap_split, cap_split_con;
    /* body -> items index over dynamic bodies: bc_ptr (nbody + 1),
       bc_ent (2 nitem), entry = 2 * item + side (0 = A, 1 = B), in
       increasing item order */
    int *bc_ptr, *bc_ent;
    /* 1: bc_ptr / bc_ent hold the index of the problem as it was at the
       last rf__build_body_index, which every path that reads them calls
       first (rf_solve, the evaluations, rf_problem_to_local); 0: the last
       rf_solve skipped it (solve.c, skip_body_index: SI on one thread or
       on a problem too small for threaded products), and the body passes
       sum item by item (jacobian.c, body_pass_scatter) */
    int bc_valid;
    /* colouring (coloured GS): items of colour c are
       color_con[color_ptr[c] .. color_ptr[c+1]) */
    int *color_ptr, *color_con, *color_of, *color_mark;
    int ncolor;
    double *partial; /* reduction partials, 4 per block */
    /* cohesion (solve.c): the shift -s (ndof + 1), the caller's free
       velocities while shifted and a scratch (max(6 nbody, 6 ncon) + 1
       each), the caller's normal biases while shifted (ncon + 1, body
       form with compliance); reserved only when some contact is cohesive */
    double *coh_shift, *coh_saved, *coh_tmp, *coh_bias;
    int cap_coh_shift, cap_coh_vel, cap_coh_bias;
    /* sequential impulse (solver_si.c): per contact a record of
       RF__SI_STRIDE doubles and 5 ints (cap_si); per item its sweep
       sums, added in colour order: the two stopping sums and the energy
       guard's two changes (4 doubles, cap_si_sum) */
    double *si_rec;
    int *si_int;
    int cap_si, cap_si_block, cap_si_rows;
    double *si_sum;
    int cap_si_sum;
    /* its row form (De Saxce, solver_si_rows.c): per contact the normal,
       friction and angular records (RF__SI_NREC, _FREC, _AREC doubles)
       and flags (cap_si) */
    double *si_nrec, *si_frec, *si_arec;
    int *si_flags;
    /* per joint row its record (RF__SI_JREC doubles, solver_si_rows.c;
       cap_si_joint, both models) */
    double *si_jrec;
    int cap_si_joint;
    /* per body: its root's island while the islands are found
       (rf__si_islands); the colours its items took (a bit each, the
       colouring); after it, scale_excess's flags of the bodies a joint
       row holds */
    uint64_t *si_mask;
    int cap_si_mask;
    /* the groups it colours: runs of items on the same bodies, group k
       is items [si_group[k], si_group[k + 1]) (nitem + 1 ints) */
    int *si_group;
    int cap_si_group;
    int si_serial_color[2]; /* the colours whose items may share bodies
                               (rows', contacts'), or -1 */
    /* its wide form (solver_si_wide.c): per colour c the units
       si_unit[si_unit_ptr[c] .. si_unit_ptr[c + 1]), each a colour
       position k (one group) or -(b + 1) (bundle b); per bundle
       RF__SI_BMETA ints; per slot (a point index across the lanes) the
       transposed normal and friction records and the three impulses
       (RF__SI_WN, _WF, 3 fields of si_lanes doubles); per angular
       slot (the slots of the bundles of contacts with spin or rolling
       friction, numbered apart) the angular record and the spin and
       rolling impulses (RF__SI_WA, 3 fields); si_wk scratch (nitem + 1) */
    int *si_unit, *si_unit_ptr, *si_bundle, *si_wk, *si_wlen;
    int *si_wpos; /* per contact its slot * si_lanes + lane, or -1 */
    int cap_si_unit;
    /* cap_si_slot and cap_si_aslot count lane slots (si_lanes of them
       to a slot) */
    double *si_wn, *si_wf, *si_wg;
    double *si_wm; /* per bundle the lanes' M_a^-1, M_b^-1 (6 fields) */
    int cap_si_slot;
    double *si_wa, *si_wga;
    int cap_si_aslot;
    int si_nbundle;
    /* the bundles' kernel this solve (RF__SI_KERNEL_*) and its lanes per
       bundle (rf__si_kernel_lanes), set where the records are reserved */
    int si_kernel, si_lanes;
    /* which kernels run (RF__SI_WIDE_*; 0, automatic, unless a test
       compares them): automatic (AVX-512 where the processor has it,
       else AVX, else SSE2), the two-lane kernel only, no bundles (the row
       form's group kernel only), or at most AVX */
    int si_wide_mode;
    /* its islands (solver_si_island.c): per item its island (isl_item);
       per body its island, or -1 when it is not dynamic or has no item
       (isl_body, nbody + 1); island i's items isl_list[isl_ptr[i] ..
       isl_ptr[i + 1]), rows then contacts, each in index order; per
       island its RF__ISL_ flags, its running sums (isl_run,
       RF__RUN_COUNT doubles: the guard's E and B, the stopping sums) and
       the guard's terms (isl_tmp, RF__TMP_COUNT doubles); the islands
       swept in Bullet's order (isl_seq, nseq of them); per colour
       position k the island of its group (si_kisl) and that island's
       group count in the colour (si_kdiv); per thread of a coloured
       sweep but the first, its copy of isl_run (isl_copy, isl_ncopy
       copies of cap_isl * RF__RUN_COUNT doubles) */
    int *isl_item, *isl_body, *isl_list, *isl_ptr, *isl_seq, *si_kisl;
    int *si_bisl; /* per bundle the island of all its lanes, or -1 */
    double *si_kdiv, *isl_run, *isl_tmp, *isl_copy;
    unsigned char *isl_flag;
    int nisl, nseq, isl_ncopy;
    int cap_isl, cap_isl_body, cap_isl_copy;
    /* the last successful rf_solve (body form), for
       rf_problem_solved_velocity: solved 0 none, 1 its gamma in solved_g
       (ndof), 2 its velocities in solved_vel (6 nbody) as well; valid
       while the problem's revision is solved_rev */
    double *solved_g, *solved_vel;
    int cap_solved_g, cap_solved_vel;
    int solved;
    unsigned long solved_rev;
} rf_work;

#define RF__SI_STRIDE 156
#define RF__SI_NREC 28
#define RF__SI_FREC 52
#define RF__SI_AREC 42
#define RF__SI_JREC 36
/* SI's De Saxce rounds of a rolling or spinning contact's friction parts
   per visit, at most (with cfg->local_iter; solver_si_rows.c says why 2) */
#define RF__SI_ROUNDS 2
/* those rounds for cfg: min(local_iter, RF__SI_ROUNDS) (the row form's
   group kernel and the wide form's angular bundles alike) */
static inline int rf__si_rounds(const rf_config *cfg)
{
    return cfg->local_iter < RF__SI_ROUNDS ? cfg->local_iter : RF__SI_ROUNDS;
}
/* The row form's normal rounds per visit of a group of two or more
   contacts (a manifold's points) at most, with cfg->local_iter, and the
   change relative to the group's normal impulses (W-weighted) at which
   they stop (solver_si_rows.c says why) */
#define RF__SI_NROUNDS 4
#define RF__SI_NROUND_TOL 1e-2
static inline int rf__si_normal_rounds(const rf_config *cfg)
{
    return cfg->local_iter < RF__SI_NROUNDS ? cfg->local_iter : RF__SI_NROUNDS;
}
/* The wide form: manifolds per bundle at most (SIMD lanes: work.si_lanes
   per bundle, 8 with the AVX-512 kernel, else 4), points per lane at
   most, fields of its normal, friction and angular records, and a
   bundle's metadata (RF__SI_BMETA ints: first slot, points, first
   angular slot (-1: a bundle without spin or rolling friction), then per
   lane its colour position (-1: empty), first contact and points, then
   per lane its group's two bodies (RF_WORLD for the world or an empty
   lane), and the dynamic sides' bits (lane l: bit 2 l side a, 2 l + 1
   side b)). */
#define RF__SI_LANES 8
#define RF__SI_WMAX 4
#define RF__SI_WN 20
#define RF__SI_WF 42
#define RF__SI_WA 35
enum {
    RF__SI_BM_SLOT0 = 0,
    RF__SI_BM_NPT = 1,
    RF__SI_BM_ASLOT0 = 2,
    RF__SI_BM_K = 3,
    RF__SI_BM_LO = 3 + RF__SI_LANES,
    RF__SI_BM_LEN = 3 + 2 * RF__SI_LANES,
    RF__SI_BM_BODY = 3 + 3 * RF__SI_LANES,
    RF__SI_BM_DYN = 3 + 5 * RF__SI_LANES,
    RF__SI_BMETA = 4 + 5 * RF__SI_LANES
};
enum {
    RF__SI_WIDE_AUTO = 0,
    RF__SI_WIDE_NARROW = 1,
    RF__SI_WIDE_OFF = 2,
    RF__SI_WIDE_AVX = 3
};
/* the wide kernels: two lanes (SSE2 or generic) and four (AVX), on
   bundles of four; eight (AVX-512), on bundles of eight
   (solver_si_wide.c) */
enum { RF__SI_KERNEL_TWO = 0, RF__SI_KERNEL_AVX = 1, RF__SI_KERNEL_AVX512 = 2 };
/* rf__si_rows_build's flags */
enum { RF__SI_DYN_A = 1, RF__SI_DYN_B = 2, RF__SI_ANG = 4, RF__SI_T1 = 8 };

/* The blocks that rf_problem's grouped arrays are carved from. */
enum {
    RF__PG_CON = 0, /* con_body .. con_set but con_cfm */
    RF__PG_ROW,     /* row_body .. row_set */
    RF__PG_BODY,    /* body_flags .. body_set */
    RF__PG_COUNT
};

struct rf_problem {
    int kind;
    int ncon, nbody;
    int cap_con, cap_body;
    void *group[RF__PG_COUNT]; /* freed alone, never their arrays */

    /* bodies (body form), SoA */
    int *body_flags;          /* (nbody) */
    double *body_inv_mass;    /* (nbody x 3): per world axis */
    double *body_inv_inertia; /* (nbody x 9) row-major */
    double *body_vel;         /* (nbody x 6): v then w, free velocity */
    unsigned char *body_set;  /* (nbody) */

    /* contacts, SoA.  Body form uses all of these; local form uses the
       coefficients only. */
    int *con_body;     /* (ncon x 2): A, B; RF_WORLD = -1 */
    double *con_frame; /* (ncon x 9): n, t1, t2 */
    double *con_arm;   /* (ncon x 6): lever arms r_a, r_b (m); the sliding
                          rows' angular parts r x e_k are formed on the fly */
    double *con_bias;  /* (ncon x 6) */
    double *con_mu, *con_rho, *con_sigma; /* (ncon) */
    int *con_flags;                       /* (ncon): RF_CONTACT_* */
    double *con_cohesion;                 /* (ncon): N s, >= 0 */
    double *con_nmax; /* (ncon): the normal impulse's cap, N s; 0 = none */
    /* compliance (ncon x 6), allocated when a contact first has one
       (cap_cfm contacts); cfm_on: some contact's is non-zero, refreshed
       by rf__refresh_cfm before every solve or evaluation (the N product
       reads the array only then) */
    double *con_cfm;
    int cap_cfm, cfm_on;
    /* axis scales (ncon x 4: s_u, s_w, r_u, r_w > 0), read only while
       axis_on (rf_problem_set_sliding_scales / _rolling_scales since the
       last begin; the ones not given are 1): the sliding rows act along
       s_u t1 and s_w t2, the rolling rows about r_u t1 and r_w t2
       (cap_axis contacts allocated) */
    double *con_axis;
    int cap_axis, axis_on;
    unsigned char *con_set; /* (ncon) */

    /* rows (body form only), SoA */
    int nrow, cap_row;
    int *row_body;   /* (nrow x 2): A, B; RF_WORLD = -1 */
    double *row_jac; /* (nrow x 12): lin_a, ang_a, lin_b, ang_b */
    double *row_bias, *row_lo, *row_hi, *row_cfm, *row_coef; /* (nrow) */
    int *row_bound;         /* (nrow): -1 or the bounding row */
    unsigned char *row_set; /* (nrow) */

    /* local form */
    rf_csr W;  /* (6 ncon x 6 ncon): the symmetric part of the W given */
    double *q; /* (6 ncon) */
    int cap_q;
    /* max |W_rc - W_cr| / max |W| of the W given (0: symmetric, or body
       form); at most RF_W_ASYMMETRY_MAX */
    double w_asymmetry;

    rf_work work;
    /* threads of the last rf_solve (0 before one): the evaluations
       (rf_residual, rf_problem_*_velocity) use as many, so a caller that
       solves on T threads does not make OpenMP re-create its team for
       them every step */
    int threads;
    /* bumped by every call that changes the problem (rf_problem_begin_*,
       _set_*, _add_*): rf_problem_solved_velocity's results belong to the
       revision their solve saw.  rf_problem_set_contacts, which threads
       may call at once, writes it with relaxed atomics (problem.c, touch):
       a plain ++ running beside it would be a data race. */
    unsigned long revision;
};

/* --- items and dof vectors --- */
static inline int rf__nitem(const rf_problem *p)
{
    return p->ncon + p->nrow;
}
static inline int rf__ndof(const rf_problem *p)
{
    return 6 * p->ncon + p->nrow;
}
/* b is a body that takes impulses (not RF_WORLD, not fixed). */
static inline int rf__dynamic_body(const rf_problem *p, int b)
{
    return b != RF_WORLD && p->body_flags[b] == RF_BODY_DYNAMIC;
}
/* Body on side s (0 = A, 1 = B) of item it. */
static inline int rf__item_body(const rf_problem *p, int it, int s)
{
    return it < p->ncon ? p->con_body[2 * it + s]
                        : p->row_body[2 * (it - p->ncon) + s];
}
/* Step length of dof entry j from a per-item array. */
static inline double rf__dof_item_value(const rf_problem *p, const double *v,
                                        int j)
{
    const int m6 = 6 * p->ncon;
    return j < m6 ? v[j / 6] : v[p->ncon + (j - m6)];
}
/* Row j's interval [lo, hi] in the iterate variables (scale: the part
   scaling or NULL; g: the current iterate, a dof vector in the same
   variables, read for a friction-bounded row). */
static inline void rf__row_bounds(const rf_problem *p, const double *scale,
                                  int j, const double *g, double *lo,
                                  double *hi)
{
    const double *srow = scale ? scale + 4 * p->ncon : NULL;
    const double sj = srow ? srow[j] : 1.0;
    const int k = p->row_bound[j];
    if (k >= 0) { /* ODE's findex: |lambda_j| <= coef |lambda_k| */
        const double sk = srow ? srow[k] : 1.0;
        const double b = p->row_coef[j] * fabs(sk * g[6 * p->ncon + k]);
        *lo = -b / sj;
        *hi = b / sj;
    } else {
        *lo = p->row_lo[j] / sj;
        *hi = p->row_hi[j] / sj;
    }
}

/* c = a x b */
static inline void rf__cross3(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* y = M x for a row-major 3x3 M (a body's inverse inertia) */
static inline void rf__mat3_vec(const double *M, const double x[3], double y[3])
{
    y[0] = M[0] * x[0] + M[1] * x[1] + M[2] * x[2];
    y[1] = M[3] * x[0] + M[4] * x[1] + M[5] * x[2];
    y[2] = M[6] * x[0] + M[7] * x[1] + M[8] * x[2];
}

/* Ask for the cache lines holding bytes [a, e): a hint only (no fault
   past an array's end, no change to any bit). */
static RF__ALWAYS_INLINE void rf__prefetch_bytes(uintptr_t a, uintptr_t e)
{
#if defined(__GNUC__)
    for (uintptr_t q = a & ~(uintptr_t)63; q < e; q += 64) {
        __builtin_prefetch((const void *)q);
    }
#else
    (void)a;
    (void)e;
#endif
}

static inline double rf__clamp(double x, double lo, double hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

/* --- errors (problem.c) --- */
/* A path as messages show it: whole up to RF__SHOWN_PATH - 4 bytes,
   else "..." and its tail, so that the reason after it still fits the
   256 bytes of rf_error.message (problem.c). */
#define RF__SHOWN_PATH 100
void rf__shown_path(const char *path, char out[RF__SHOWN_PATH]);
rf_status rf__fail(rf_error *err, rf_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void rf__ok(rf_error *err);
/* x[0 .. n) all finite.  x - x is 0 for a finite x and NaN for an
   infinity or a NaN, so one sum and one test replace a branch per element
   (rf_problem_set_contact checks 21 values of every contact every step).
   Four partial sums: one was a chain of dependent additions, four cycles
   an element (rf_solve's check of a warm start of 69,000 impulses, full
   pyramid: 1% of the step). */
static inline int rf__all_finite(const double *x, size_t n)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += x[i] - x[i];
        s1 += x[i + 1] - x[i + 1];
        s2 += x[i + 2] - x[i + 2];
        s3 += x[i + 3] - x[i + 3];
    }
    for (; i < n; ++i) {
        s0 += x[i] - x[i];
    }
    return (s0 + s1) + (s2 + s3) == 0.0;
}

/* --- growable arrays (work.c) --- */
/* Grow *ptr to hold at least n elements of size elem (contents kept). */
int rf__grow(void **ptr, int *cap, int n, size_t elem);
/* As rf__grow, but the contents are not kept: for scratch that every solve
   writes before it reads.  The old block is freed after the new one is
   allocated (0 on failure, nothing changed).  Why: copying a scratch
   array's whole old capacity touches pages the solve never uses (a
   fresh page's first touch cost 12 us in a virtual machine), and was most
   of the first large solve's time (work.c, "Scratch"). */
int rf__grow_scratch(void **ptr, int *cap, int n, size_t elem);
/* Grow several arrays that share one capacity counter *cap to hold at
   least n items (amortised: at least twice the old capacity); each array
   has its own bytes per item.  The arrays are carved out of one block,
   *block (each at a 64-byte boundary, in the order given), which owns
   them: free(*block) alone frees the group; never free, grow or swap one
   of its arrays on its own.  Contents are kept.  0 on failure (nothing
   changed). */
typedef struct rf_grow_item {
    void **ptr;
    size_t elem; /* bytes per item (already times the multiplicity) */
} rf_grow_item;
int rf__grow_all(void **block, const rf_grow_item *items, int count, int *cap,
                 int n);
/* As rf__grow_all, contents not kept (rf__grow_scratch). */
int rf__grow_all_scratch(void **block, const rf_grow_item *items, int count,
                         int *cap, int n);
/* The dof vectors of rf_work, one bit each (order of rf_work.cap_vec). */
enum {
    RF__VEC_G0 = 1u << 0,
    RF__VEC_G1 = 1u << 1,
    RF__VEC_G2 = 1u << 2,
    RF__VEC_G3 = 1u << 3,
    RF__VEC_U0 = 1u << 4,
    RF__VEC_U1 = 1u << 5,
    RF__VEC_U2 = 1u << 6,
    RF__VEC_U3 = 1u << 7,
    RF__VEC_R = 1u << 8,
    RF__VEC_BEST = 1u << 9,
    RF__VEC_RS = 1u << 10,
    RF__VEC_SX = 1u << 11,
    RF__NVEC = 12
};
/* The dof vectors rf_solve with that solver uses on p (its form decides
   sx: only a local-form product with the part scaling needs the scaled
   copy). */
unsigned rf__solver_vecs(const rf_problem *p, rf_solver_kind solver);
/* The per-item, per-body and reduction arrays every solve and evaluation
   needs, and the dof vectors in vecs (RF__VEC_ bits; grown only). */
rf_status rf__work_reserve(rf_problem *p, unsigned vecs, rf_error *err);
/* The GS arrays (wblk, wchol, chol_ok). */
rf_status rf__work_reserve_blocks(rf_problem *p, rf_error *err);
/* The colouring arrays (color_*: 4 ints per item + 1), coloured GS and
   the sequential impulse solver. */
rf_status rf__work_reserve_colors(rf_problem *p, rf_error *err);
/* The sequential impulse solver's records (si_rec, si_int, si_sum), its
   islands' arrays, and their copies for a sweep on threads threads. */
rf_status rf__work_reserve_si(rf_problem *p, rf_model model, int threads,
                              rf_error *err);
/* The wide form's slots that n contacts may need at most, bundled in
   kinds kinds per colour (the slots: 2, plain and angular bundles; the
   angular slots: 1), lanes to a bundle. */
int rf__si_slot_bound(int n, int kinds, int lanes);
/* The contacts with spin or rolling friction (rho > 0 or sigma > 0). */
int rf__si_angular_count(const rf_problem *p);
/* rf_problem_solved_velocity's copies (solved_g, solved_vel). */
rf_status rf__work_reserve_solved(rf_problem *p, rf_error *err);
/* Resolved OpenMP thread count: requested if > 0, else OpenMP's default. */
/* Cohesion's shift (solve.c): begin puts the shifted free velocity in
   place, end restores the caller's; shift adds sign * cohesion to every
   contact's normal component of g. */
void rf__cohesion_begin(rf_problem *p, int threads);
void rf__cohesion_end(rf_problem *p);
void rf__cohesion_shift(const rf_problem *p, double *g, double sign);
/* p->cfm_on from the contacts' compliance (problem.c). */
void rf__refresh_cfm(rf_problem *p);
/* Some contact has cohesion > 0 (problem.c). */
int rf__has_cohesion(const rf_problem *p);
/* The cohesion buffers (work.coh_*), for rf_solve and rf_residual. */
rf_status rf__work_reserve_cohesion(rf_problem *p, rf_error *err);
int rf__threads(int requested);
void rf__work_free(rf_work *w);
void rf__csr_free(rf_csr *m);
rf_status rf__csr_reserve(rf_csr *m, int n, int nnz, rf_error *err);

/* --- cone (cone.c) --- */
/* The cone Y_i of one contact: coefficients (>= 0, finite) and shape
   (roll_t1: the rolling part is the segment |tu| <= rho gn, tw = 0,
   RF_CONTACT_ROLL_T1). */
/* nmax: the yield cap gamma_n <= nmax (slides section 3, "Modeling
   plasticity": no infinite reaction, crushing), INFINITY for none; in the
   solvers' variables (shifted by a contact's cohesion, scaled by
   rf__scaled_cone). */
typedef struct rf__cone {
    double mu, rho, sigma;
    int roll_t1;
    double nmax;
} rf__cone;
static inline rf__cone rf__contact_cone(const rf_problem *p, int i)
{
    const double cap = p->con_nmax[i];
    rf__cone c = {p->con_mu[i], p->con_rho[i], p->con_sigma[i],
                  (p->con_flags[i] & RF_CONTACT_ROLL_T1) != 0,
                  cap > 0.0 ? cap + p->con_cohesion[i] : INFINITY};
    return c;
}
/* Contact i has spin or rolling friction (rho > 0 or sigma > 0): the
   sequential impulse solver gives it angular parts (its records, the
   wide form's angular bundles and slots). */
static inline int rf__contact_angular(const rf_problem *p, int i)
{
    return p->con_rho[i] > 0.0 || p->con_sigma[i] > 0.0;
}
/* Unchecked kernel behind rf_project_contact; out may alias x. */
void rf__project6(const double x[6], const rf__cone *c, double out[6]);
/* The norm of the rolling part of a 6-vector in cone c: |(x4, x5)|, or
   |x4| for a roll_t1 cone (whose rolling part is x4 alone). */
static inline double rf__roll_norm(const double x[6], const rf__cone *c)
{
    return c->roll_t1 ? fabs(x[4]) : sqrt(x[4] * x[4] + x[5] * x[5]);
}
/* De Saxce shift added to the normal component: mu|u_t| + rho|w_r| +
   sigma|w_n| (Acary (32), generalised with spin; |w_r| = |wu| for a
   roll_t1 cone, whose dual leaves wr free). */
static inline double rf__desaxce_shift(const double u[6], const rf__cone *c)
{
    return c->mu * sqrt(u[1] * u[1] + u[2] * u[2]) +
           c->rho * rf__roll_norm(u, c) + c->sigma * fabs(u[3]);
}

/* --- operators (jacobian.c) --- */
/* Body -> contacts index (work.bc_ptr / bc_ent); needs rf__work_reserve. */
rf_status rf__build_body_index(rf_problem *p, rf_error *err);
/* out = N gamma, plus r when add_r (so out = u): matrix-free in body form
   (uses work.bv0), CSR in local form.  Parallel, deterministic. */
void rf__apply_N(rf_problem *p, const double *gamma, double *out, int add_r,
                 int threads);
/* Body form of rf__apply_scaled: out = S N S x + rr (rr may be NULL),
   with S applied inside the two passes (no scaled copy of x). */
void rf__apply_scaled_body(rf_problem *p, const double *scale, const double *x,
                           const double *rr, double *out, int threads);
/* rf__apply_scaled_body as worksharing loops inside the caller's parallel
   region: every thread of the region calls it (or one thread outside any
   region); out is complete for every thread when it returns (its last loop
   ends in a barrier).  Lets a solver run a whole iteration in one region
   (solver_jacobi.c). */
void rf__apply_scaled_body_ws(rf_problem *p, const double *scale,
                              const double *x, const double *rr, double *out);
/* Whether a body-form product runs on the team: the if clause of its
   region, and of a solver's region around one (nonzero past 512 bodies or
   contacts; below, the fork costs more than the pass). */
int rf__product_parallel(const rf_problem *p);
/* Whether a pass enters its parallel region (num_threads(threads)
   if (large)): when more than one thread is asked and the pass is large
   enough for them, or when the caller is inside a parallel region
   already.  Otherwise the pass calls its worksharing body directly, whose
   orphaned "omp for" runs the whole loop on the caller: a region is not
   free on one thread either (libgomp ends every team, a team of one
   included, with a futex wake, a system call: 0.3 us here, and the Bullet
   shim's default step entered 8 or 9 a step, 1-2% of a small scene's
   step).  Inside a caller's region an orphaned "omp for" would share the
   loop out over the caller's team, so there the region stays (a team of
   one, as before). */
int rf__team(int threads, int large);
/* Run the worksharing body `call` as rf__team says: in a parallel region
   of `threads` threads (if (large), so that a small pass inside a
   caller's region runs on a team of one), or directly on the caller.
   The one place where the passes decide, so that no site writes its
   threshold twice. */
#define RF__PASS(threads, large, call)                                         \
    do {                                                                       \
        const int rf_pt_ = (threads), rf_pl_ = (large);                        \
        if (rf__team(rf_pt_, rf_pl_)) {                                        \
            _Pragma("omp parallel num_threads(rf_pt_) if (rf_pl_)") call;      \
        } else {                                                               \
            call;                                                              \
        }                                                                      \
    } while (0)
/* APGD's product with its trial sums (solver_apgd.c): out = S N S x + rr
   (rr not NULL) and
     s[0] = x.(out + rr), s[1] = uy.(x - y), s[2] = |x - y|^2,
     s[3] = uy.(x - xp),
   added per fixed block of contacts, then the rows: the same for any
   thread count.  Body form takes the sums in the product's contact pass
   (rf__apply_scaled_trial_body, no separate sweep). */
void rf__apply_scaled_trial(rf_problem *p, const double *scale, const double *x,
                            const double *rr, double *out, const double *xp,
                            const double *y, const double *uy, double s[4],
                            int threads);
void rf__apply_scaled_trial_body(rf_problem *p, const double *scale,
                                 const double *x, const double *rr, double *out,
                                 const double *xp, const double *y,
                                 const double *uy, double s[4], int threads);
/* One entry's terms of the trial sums above, added to a[4]. */
static inline void rf__trial_terms(double x, double o, double rr, double xp,
                                   double y, double uy, double a[4])
{
    const double d = x - y;
    a[0] += x * (o + rr);
    a[1] += uy * d;
    a[2] += d * d;
    a[3] += uy * (x - xp);
}
/* The 6x6 diagonal block W_ii = D_i^T M^-1 D_i (row-major). */
void rf__diag_block(const rf_problem *p, int i, double blk[36]);
/* The diagonal of W_ii alone (what the part scaling needs). */
void rf__diag_entries(const rf_problem *p, int i, double d[6]);
/* r (6 ncon): D^T v* + bias in body form, q in local form. */
void rf__free_velocity(rf_problem *p, double *r, int threads);
/* Body velocities v* + M^-1 D gamma into vel (nbody x 6). */
void rf__body_velocity(rf_problem *p, const double *gamma, double *vel,
                       int threads);
/* rf__body_velocity, and each body's impulse (D gamma)_b, force then
   torque, into imp (nbody x 6; 0 for a body that is not dynamic, whose
   items the body index does not list). */
void rf__body_velocity_impulse(rf_problem *p, const double *gamma, double *vel,
                               double *imp, int threads);
/* g_it . (D_it,s^T v): item it's impulse (g, a dof vector) against the
   velocity side s's body velocity v (6) alone gives it, no bias. */
double rf__item_side_work(const rf_problem *p, int it, int s, const double *v,
                          const double *g);
/* u_i = D_i^T vel + bias_i for one contact, vel (nbody x 6). */
void rf__contact_velocity(const rf_problem *p, int i, const double *vel,
                          double u[6]);
/* u_i's normal component alone, to the bit rf__contact_velocity's u[0]. */
double rf__contact_normal_velocity(const rf_problem *p, int i,
                                   const double *vel);
/* u = (N + C) g + r of every contact and row from the body velocities
   vel = v* + M^-1 D g (what the velocity-form solvers maintain): no N
   product needed. */
void rf__item_velocity(const rf_problem *p, const double *g, const double *vel,
                       double *u, int threads);
/* vel += M^-1 D_i dg for the dynamic bodies of contact i. */
void rf__contact_apply(const rf_problem *p, int i, const double dg[6],
                       double *vel);
/* Row j: velocity J_j vel + bias (no cfm term), vel (nbody x 6). */
double rf__row_velocity(const rf_problem *p, int j, const double *vel);
/* vel += M^-1 J_j^T dl for the dynamic bodies of row j. */
void rf__row_apply(const rf_problem *p, int j, double dl, double *vel);
/* J_j M^-1 J_j^T (no cfm). */
double rf__row_diag(const rf_problem *p, int j);
/* Items coupled to item i (sharing a dynamic body in body form, a
   non-zero W block in local form), i included, sorted ascending, into nb;
   mark (nitem) must hold values != i on entry for every item.  Returns
   the count. */
int rf__neighbours(const rf_problem *p, int i, int *mark, int *nb);
/* rf_problem_read from memory: the file's bytes, name for the messages
   (problem_io.c; lets the fuzz target skip the file system). */
rf_status rf__problem_read_mem(rf_problem *p, const char *data, size_t size,
                               const char *name, int *dim, rf_error *err);
/* Problem complete and solvable (problem.c). */
rf_status rf__check_complete(const rf_problem *p, const char *fn,
                             rf_error *err);

/* --- reductions (residual.c) --- */
/* sum[c] = sum over blocks b, in block order, of part[width b + c]
   (c < width): the fixed-order second stage of every deterministic
   reduction. */
static inline void rf__sum_partials(const double *part, int nblk, int width,
                                    double *sum)
{
    for (int c = 0; c < width; ++c) {
        sum[c] = 0.0;
    }
    for (int b = 0; b < nblk; ++b) {
        for (int c = 0; c < width; ++c) {
            sum[c] += part[width * b + c];
        }
    }
}
/* Number of reduction blocks for n items (RF_REDUCE_BLOCK per block). */
static inline int rf__num_blocks(int n)
{
    return (n + RF_REDUCE_BLOCK - 1) / RF_REDUCE_BLOCK;
}
/* Items [*lo, *hi) of reduction block k. */
static inline void rf__block_range(int k, int n, int *lo, int *hi)
{
    *lo = k * RF_REDUCE_BLOCK;
    *hi = *lo + RF_REDUCE_BLOCK < n ? *lo + RF_REDUCE_BLOCK : n;
}
/* Sums over dof vectors use blocks of 6 RF_REDUCE_BLOCK entries (the
   entries of RF_REDUCE_BLOCK contacts), never more blocks than
   rf__num_blocks(nitem). */
static inline int rf__dof_blocks(int ndof)
{
    return (ndof + 6 * RF_REDUCE_BLOCK - 1) / (6 * RF_REDUCE_BLOCK);
}
static inline void rf__dof_block_range(int k, int ndof, int *lo, int *hi)
{
    *lo = k * 6 * RF_REDUCE_BLOCK;
    *hi = *lo + 6 * RF_REDUCE_BLOCK < ndof ? *lo + 6 * RF_REDUCE_BLOCK : ndof;
}
/* a . b over the dof vectors, deterministic: one partial per block, added
   in block order. */
double rf__dot(const rf_problem *p, const double *a, const double *b,
               int threads);
/* Residual of gamma given u = N gamma + r and r.  With scale != NULL the
   arguments are part-scaled (gamma = S gamma', u' = S u, r' = S r) and
   the residual is measured in the original variables. */
double rf__residual(const rf_problem *p, rf_model model, const double *gamma,
                    const double *u, const double *r, const double *scale,
                    int threads);

/* --- part scaling (solve.c) ---
   A scaling uniform within each part of a contact (normal; sliding pair;
   spin; rolling pair), gamma = S gamma', maps the cone family onto itself:
   mu gn >= |g_t| becomes (mu s_n / s_t) g'n >= |g'_t|, likewise for rho
   and sigma, and the De Saxce shift keeps its form with the same scaled
   coefficients.  With s = 1/sqrt(mean diagonal of W_ii per part), the
   scaled problem (S N S, S r) has a unit diagonal: forces and torques are
   put on one footing and first-order methods stop crawling along the
   badly scaled directions, while the projection stays exact. */
/* Component -> part: 0 normal, 1 sliding, 2 spin, 3 rolling. */
static const int RF_PART[6] = {0, 1, 1, 2, 3, 3};
/* scale (4 per contact, then 1 per row: 1/sqrt(J M^-1 J^T + cfm)) from
   the diagonal blocks; step (per item, may be NULL) gets
   6 / tr(S W_ii S), Jacobi's B_i (0 for an empty block), and 1 for a row
   (0 for a row with an empty diagonal); work.wcone gets each contact's
   scaled cone (the divisions once per solve, not once per projection). */
void rf__part_scaling(rf_problem *p, double *scale, double *step, int threads);
/* The cone of contact i in scaled variables (same shape), as the last
   rf__part_scaling left it in work.wcone. */
static inline rf__cone rf__scaled_cone(const rf_problem *p, int i)
{
    const double *k = p->work.wcone + 4 * i; /* rf__part_scaling */
    rf__cone c = {k[0], k[1], k[2], (p->con_flags[i] & RF_CONTACT_ROLL_T1) != 0,
                  k[3]};
    return c;
}
/* out = S x (dir > 0) or S^-1 x (dir < 0), per item; out may be x. */
void rf__scale_vec(const rf_problem *p, const double *scale, int dir,
                   const double *x, double *out, int threads);

/* --- solvers --- */
/* What a solver reports back to rf_solve. */
typedef struct rf_solve_out {
    int iterations;
    double residual; /* of the returned gamma, for cfg->model */
    int converged;
    int colors;
    double energy_change, energy_scale; /* rf_stats' energy check */
    /* work.u3 holds u = (N + C) gamma + r of the returned gamma (original
       variables): the energy check then reads it instead of forming the
       product again.  Set by a solver that has it at no cost. */
    int u_valid;
    /* energy_change already set by the solver, within the energy check's
       bound (SI's guard, when cfg->residual = 0): no check afterwards */
    int energy_known;
    /* work.bv1 holds v* + M^-1 D gamma of the returned gamma, to rounding
       (SI's sweep velocities): rf_problem_solved_velocity takes them */
    int vel_valid;
    double lipschitz; /* APGD: rf_stats.apgd_lipschitz; Jacobi:
                         rf_stats.jacobi_lambda_max */
} rf_solve_out;

/* Convergence tracking shared by the solvers: keeps the iterate of least
   residual in work.best when tol > 0; with tol == 0 (a fixed iteration
   count) it keeps nothing and rf__tracker_finish returns the last
   iterate.  Only iterates after a sweep are measured, never the start:
   the start (zero, or a warm start) may already meet a loose tolerance,
   and returning it would apply no contact impulse at all, so every solve
   sweeps at least once. */
typedef struct rf_tracker {
    const double *scale; /* part scaling of the iterates, or NULL */
    const double *r;     /* r in the iterates' variables */
    rf_model model;
    double tol;
    int threads;
    int track;     /* tol > 0 */
    int converged; /* last residual <= tol */
    int kept;      /* an iterate is in work.best */
    double best_res;
} rf_tracker;

/* scale: the iterates' part scaling (NULL: original variables); r: the r
   of the iterates' problem.  Residuals are measured in the original
   variables either way. */
void rf__tracker_init(rf_tracker *tr, const rf_config *cfg, const double *scale,
                      const double *r, int threads);
/* g the iterate after a sweep, u = N g + r (in the iterates' variables). */
void rf__tracker_update(rf_tracker *tr, rf_problem *p, const double *g,
                        const double *u);
/* Copy the result to gamma and fill out (residual, iterations, converged).
   u_g: N g + r of the last iterate g (iterates' variables) where the
   solver has it, else NULL (formed here).  When no iterate was kept
   (tol == 0) work.u3 receives u of the returned gamma in the original
   variables (out->u_valid). */
void rf__tracker_finish(rf_tracker *tr, rf_problem *p, double *gamma,
                        const double *g, const double *u_g, int it,
                        rf_solve_out *out);
/* Power-iteration estimate of lambda_max(B^1/2 S N S B^1/2), B =
   diag(step); x and y (dof vectors) are its work (and work.sx when
   scaled), overwritten. */
double rf__estimate_lambda(rf_problem *p, const double *scale,
                           const double *step, double *x, double *y,
                           int threads);
/* out = S N S x + rr (rr may be NULL): N in part-scaled variables; uses
   work.sx. */
void rf__apply_scaled(rf_problem *p, const double *scale, const double *x,
                      const double *rr, double *out, int threads);

/* Solver kernels.  On entry: the problem is complete and validated, work
   memory is reserved, the body index is built (body form), work.r holds
   r (not for SI without a residual, which needs none: solve.c), gamma
   holds a start point in Y.  On return gamma holds the best iterate.
   threads > 0. */
void rf__solve_jacobi(rf_problem *p, const rf_config *cfg, int threads,
                      double *gamma, rf_solve_out *out);
void rf__solve_gs(rf_problem *p, const rf_config *cfg, int threads,
                  double *gamma, rf_solve_out *out);
void rf__solve_apgd(rf_problem *p, const rf_config *cfg, int threads,
                    double *gamma, rf_solve_out *out);
/* Body form only (rf_solve refuses the local form for it). */
void rf__solve_si(rf_problem *p, const rf_config *cfg, int threads,
                  double *gamma, rf_solve_out *out);
/* The sequential impulse solver's energy guard (solver_si.c): with F the
   QP's objective and B = g.b the biases' work, E = F - B bounds the
   kinetic energy the impulses add; the sweeps keep F <= 0 (E <= -B), the
   value F has at g = 0 and at every solution.  A visit may spend share of
   the slack -F; a step whose velocity term is du = dg.u (bias included),
   bias term db = dg.b and curvature q = dg.W dg changes F by du + q / 2
   and is shortened to the largest a in [0, 1] that fits, and the changes
   of E and B add up in d_e, d_b. */
typedef struct rf_si_guard {
    double share;
    double d_e, d_b;
} rf_si_guard;
static inline double rf__si_guard_apply(rf_si_guard *g, double du, double db,
                                        double q)
{
    const double whole = du + 0.5 * q;
    if (whole <= g->share) { /* the common case: the whole step fits */
        g->share -= whole;
        g->d_e += du - db + 0.5 * q;
        g->d_b += db;
        return 1.0;
    }
    /* the largest a in [0, 1] with a du + a^2 q / 2 <= share */
    double a;
    if (q > RF_MINVAL) {
        a = (-du + sqrt(du * du + 2.0 * q * g->share)) / q;
    } else {
        a = du > 0.0 ? g->share / du : 1.0;
    }
    a = a > 1.0 ? 1.0 : (a > 0.0 ? a : 0.0);
    const double spent = a * du + 0.5 * a * a * q;
    g->share = g->share > spent ? g->share - spent : 0.0;
    g->d_e += a * (du - db) + 0.5 * a * a * q;
    g->d_b += a * db;
    return a;
}
/* The slack a visit may spend, -F = -B - E, less a margin for the
   rounding of the running sums. */
static inline double rf__si_guard_slack(double E, double B)
{
    const double S = -B - E;
    const double m = S - 1e-9 * (fabs(B) + fabs(E));
    return m > 0.0 ? m : 0.0;
}
/* The islands of a sequential impulse solve (solver_si_island.c).  An
   island is a set of items joined through dynamic bodies (Bullet's
   simulation islands: static and kinematic bodies join none); the solve
   keeps every island's arithmetic to itself, so that an island's
   impulses do not depend on what else the problem holds. */
enum {
    RF__ISL_COLORED = 1, /* swept by colours, else in Bullet's order */
    RF__ISL_DONE = 2,    /* met the stopping test: no more visits */
    RF__ISL_CHECK = 4,   /* the end's energy check applies */
    RF__ISL_OPEN = 8     /* a row's interval excludes 0: never scaled */
};
/* isl_run's fields per island, and isl_tmp's (the guard's terms: g.D^T
   v*, g.(N + C) g, g.b, its scale) */
enum { RF__RUN_E, RF__RUN_B, RF__RUN_D2, RF__RUN_GN2, RF__RUN_COUNT };
enum { RF__TMP_GV, RF__TMP_C, RF__TMP_GB, RF__TMP_ALPHA, RF__TMP_COUNT };
/* The islands of p into work.isl_* (after rf__work_reserve_si), each
   flagged RF__ISL_COLORED by its own size (staggered: the De Saxce
   model's rule), and returns their count.  An island of one contact
   group and no rows is swept the same either way, and is coloured when
   another island is. */
int rf__si_islands(rf_problem *p, int staggered);
/* After the colouring: si_kisl and si_kdiv of every colour position. */
void rf__si_island_colors(rf_problem *p);
/* After the pack: si_bisl of every bundle. */
void rf__si_island_bundles(rf_problem *p);
/* The guard's share of colour position k from run (an isl_run or a copy
   of it): the island's slack over its groups in the colour; -1.0 when the
   island is done. */
static inline double rf__si_island_share(const rf_work *w, const double *run,
                                         int k)
{
    const int isl = w->si_kisl[k];
    if (w->isl_flag[isl] & RF__ISL_DONE) {
        return -1.0;
    }
    const double *r = run + (size_t)RF__RUN_COUNT * isl;
    return rf__si_guard_slack(r[RF__RUN_E], r[RF__RUN_B]) / w->si_kdiv[k];
}
/* The row form (solver_si_rows.c): contact i's records (after
   rf__work_reserve_si), its flags returned. */
int rf__si_rows_build(rf_problem *p, int i);
/* Row j's record (joint rows, both models; after rf__work_reserve_si). */
void rf__si_joint_build(rf_problem *p, int j);
/* Rows [lo, hi) in order, each lambda <- clamp(lambda - omega u /
   (J M^-1 J^T + cfm)) (Bullet's resolveSingleConstraintRowGeneric) from
   its record, under the energy guard: gd for all of them (E NULL), or
   each row with a fresh guard of the slack E and B leave (both updated).
   A run of rows on the same two bodies keeps their velocities in
   registers.  Adds each |d lambda'|^2 (the row's scaled variable) to *d2
   and lambda'^2 to *gn2, row by row. */
void rf__si_joint_run(const rf_problem *p, double omega, int lo, int hi,
                      double *gamma, double *vel, double *d2, double *gn2,
                      rf_si_guard *gd, double *E, double *B);
/* A group's contacts [lo, hi) (consecutive, on the same two bodies) in
   the normal pass (pass_friction 0) or the friction pass, in order, the
   bodies' velocities read and written once.  Returns the changes'
   W-weighted square and adds the impulses' to *gn2. */
double rf__si_rows_group(const rf_problem *p, const rf_config *cfg,
                         int pass_friction, int lo, int hi, double *gamma,
                         double *vel, double *gn2, rf_si_guard *gd);
/* A hint (no effect on any result): ask for what the pass will read of
   group [lo, hi) (contacts or joint rows): its records, impulses and
   bodies' velocities.  The coloured sweep visits groups in colour order,
   scattered in memory, so the hardware's prefetch does not see them; the
   row form's records are about 1 KB per contact with rolling or spin. */
void rf__si_rows_prefetch(const rf_problem *p, int pass_friction, int lo,
                          int hi, const double *gamma, const double *vel);
/* The wide form (solver_si_wide.c).  Pack: after the colouring and
   before the row form's records (which rf__si_rows_build then puts in
   the bundles), each colour's units (bundles when wide, else one
   per group; serial colours always single groups) and the bundles'
   records.  Bundle: one pass (normal or friction; rounds, the row
   form's rounds of a contact with spin or rolling friction) of bundle b,
   each lane's guard share from run (rf__si_island_share; a
   lane whose island is done takes zero steps), each lane's group's four
   sums into sum[4 k ..] as rf__si_rows_group's caller stores them.
   Gamma: the bundled contacts' impulses from g into the bundles (out 0,
   after the start) or back to g (out 1), on up to threads threads. */
void rf__si_wide_pack(rf_problem *p, int wide);
/* The fastest kernel (RF__SI_KERNEL_*) the processor and the system run,
   at most the one wide mode mode (RF__SI_WIDE_*) allows; and the lanes
   of a kernel's bundles (8 for AVX-512, else 4). */
int rf__si_wide_kernel(int mode);
int rf__si_kernel_lanes(int kernel);
/* No bundles: every contact keeps the row form's own records (the
   uncoloured sweep, and the start of a pack). */
void rf__si_wide_clear(rf_problem *p);
/* One pass of a bundle: rounds are the normal pass's
   (rf__si_normal_rounds) or the friction pass's (rf__si_rounds). */
void rf__si_wide_bundle(const rf_problem *p, int pass_friction, int rounds,
                        int bundle, double *vel, const double *run,
                        double *sum);
void rf__si_wide_gamma(rf_problem *p, double *g, int out, int threads);
/* Bundle b's records, every lane and slot: the row form's normal,
   friction and (a bundle with spin or rolling friction) angular records
   of its contacts, as rf__si_rows_build makes them (the same bits), zero
   where a lane has no point (no si_flags: the group kernel alone reads
   them, and it never visits a bundled contact). */
void rf__si_wide_build(rf_problem *p, int bundle);
/* Greedy colouring of the items (solver_gs.c): items sharing a dynamic
   body (body form) or a W block (local form) get different colours;
   work.color_ptr / color_con list the items of each colour in item
   order, work.ncolor the count.  Needs rf__work_reserve_colors. */
void rf__color_items(rf_problem *p);
/* color_ptr / color_con / ncolor from color_of[0 .. n) (colours below
   ncolor; -1: in no colour): a counting sort, each colour's members in
   index order. */
void rf__color_buckets(rf_work *w, int n, int ncolor);
/* Lower Cholesky factor L (stride 6, zero above the diagonal) of the
   leading d x d block of the SPD matrix A (stride 6, d <= 6); 0 when not
   positive definite relative to its largest diagonal entry (solver_gs.c;
   GS's stick test, SI's block inverse). */
int rf__cholesky(const double *A, int d, double L[36]);
/* The pyramid model (pyramid.c): what it cannot take, and its solve
   (gamma: out; status: RF_OK or the error, message in err). */
rf_status rf__check_pyramid(const rf_problem *p, rf_error *err);
void rf__solve_pyramid(rf_problem *p, const rf_config *cfg, int threads,
                       double *gamma, rf_solve_out *out, rf_error *err,
                       rf_status *status);

/* The arguments of a *_sized entry point (rollfric.h, "Binary
   compatibility"): the caller's rf_config of cfg_size bytes (as it was
   compiled) over the defaults into full (the defaults alone for cfg
   NULL), so that fields of a later version than the caller's keep their
   defaults; and, for stats not NULL, the size of the caller's rf_stats,
   which gets the first stats_size bytes.  RF_ERR_INVALID, with fn, for
   a size 0 or larger than this library's struct (a caller built against
   a later header). */
rf_status rf__sized_in(const rf_config *cfg, size_t cfg_size,
                       const rf_stats *stats, size_t stats_size,
                       rf_config *full, const char *fn, rf_error *err);

#endif /* ROLLFRIC_INTERNAL_H */
