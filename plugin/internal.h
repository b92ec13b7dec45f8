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
 * and reused across solves. */
typedef struct rf_work {
    int cap_con, cap_body, cap_blocks;
    /* per contact, 6 ncon each */
    double *g0, *g1, *g2, *g3; /* gamma iterates / scratch */
    double *u0, *u1, *u2;      /* N gamma (+ r) products / scratch */
    double *best;              /* best iterate so far */
    double *step;              /* per contact step length (ncon) */
    double *wblk;              /* per contact W_ii, 36 ncon (GS only) */
    /* per body, 6 nbody each (linear then angular) */
    double *bv0, *bv1;
    /* body -> contacts index: bc_ptr (nbody + 1), bc_ent (2 ncon) with
       entry = 2 * contact + side (side 0 = A, 1 = B) */
    int *bc_ptr, *bc_ent;
    int cap_ent;
    /* colouring (GS coloured): color_ptr (ncolor + 1), color_con (ncon) */
    int *color_ptr, *color_con, *color_of;
    int ncolor;
    /* per-thread-count-independent reduction partials */
    double *partial; /* (cap_blocks * 4) */
} rf_work;

struct rf_problem {
    int kind;
    int ncon, nbody;
    int cap_con, cap_body;

    /* bodies (body form), SoA */
    int *body_flags;          /* (nbody) */
    double *body_inv_mass;    /* (nbody) */
    double *body_inv_inertia; /* (nbody x 9) row-major */
    double *body_vel;         /* (nbody x 6): v then w, free velocity */
    unsigned char *body_set;  /* (nbody) */

    /* contacts, SoA.  Body form uses all of these; local form uses the
       coefficients only. */
    int *con_body;        /* (ncon x 2): A, B; RF_WORLD = -1 */
    double *con_frame;    /* (ncon x 9): n, t1, t2 */
    double *con_jac_a;    /* (ncon x 9): r_a x n, r_a x t1, r_a x t2 */
    double *con_jac_b;    /* (ncon x 9): r_b x n, r_b x t1, r_b x t2 */
    double *con_bias;     /* (ncon x 6) */
    double *con_mu, *con_rho, *con_sigma; /* (ncon) */
    unsigned char *con_set; /* (ncon) */

    /* local form */
    rf_csr W;  /* (6 ncon x 6 ncon) */
    double *q; /* (6 ncon) */
    int cap_q;

    rf_work work;
};

/* --- errors (problem.c) --- */
rf_status rf__fail(rf_error *err, rf_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void rf__ok(rf_error *err);
int rf__all_finite(const double *x, size_t n);

/* --- growable arrays (work.c) --- */
/* Grow *ptr to hold at least n elements of size elem (contents kept). */
int rf__grow(void **ptr, int *cap, int n, size_t elem);
rf_status rf__work_reserve(rf_problem *p, rf_error *err);
void rf__work_free(rf_work *w);
void rf__csr_free(rf_csr *m);
rf_status rf__csr_reserve(rf_csr *m, int n, int nnz, rf_error *err);

/* --- cone (cone.c) --- */
/* Unchecked kernel behind rf_project_contact: coefficients >= 0, finite. */
void rf__project6(const double x[6], double mu, double rho, double sigma,
                  double out[6]);
/* De Saxce shift added to the normal component: mu|u_t| + rho|w_r| +
   sigma|w_n| (Acary (32), generalised with spin). */
static inline double rf__desaxce_shift(const double u[6], double mu,
                                       double rho, double sigma)
{
    return mu * sqrt(u[1] * u[1] + u[2] * u[2]) +
           rho * sqrt(u[4] * u[4] + u[5] * u[5]) + sigma * fabs(u[3]);
}

/* --- operators (jacobian.c) --- */
/* Body index built once per solve: body -> contacts. */
rf_status rf__build_body_index(rf_problem *p, rf_error *err);
/* out = N gamma (+ r when add_r): matrix-free in body form, CSR in local
   form.  Uses work.bv0 in body form.  Parallel, deterministic. */
void rf__apply_N(rf_problem *p, const double *gamma, double *out, int add_r,
                 int threads);
/* The 6x6 diagonal block W_ii into blk (row-major). */
void rf__diag_block(const rf_problem *p, int i, double blk[36]);
/* r (6 ncon): D^T v* + bias in body form, q in local form. */
void rf__free_velocity(const rf_problem *p, double *r, int threads);
/* Body velocity deltas M^-1 D gamma into bv (6 nbody). */
void rf__body_impulse(const rf_problem *p, const double *gamma, double *bv,
                      int threads);
/* u_i = D_i^T (v + dv) + bias_i for one contact with body velocity deltas
   dv (6 nbody, may be NULL). */
void rf__contact_velocity(const rf_problem *p, int i, const double *dv,
                          double u[6]);

/* --- reductions (residual.c) --- */
/* Sum of f over blocks, deterministic: partial per RF_REDUCE_BLOCK
   contacts, then added in order. */
double rf__dot(const rf_problem *p, const double *a, const double *b,
               int threads);
/* Residual of gamma given u = N gamma + r and r. */
double rf__residual(const rf_problem *p, rf_model model, const double *gamma,
                    const double *u, const double *r, int threads);

/* --- solvers --- */
typedef struct rf_solve_out {
    int iterations;
    double residual;
    int converged;
    int colors;
} rf_solve_out;

void rf__solve_jacobi(rf_problem *p, const rf_config *cfg, double *gamma,
                      rf_solve_out *out);
void rf__solve_gs(rf_problem *p, const rf_config *cfg, double *gamma,
                  rf_solve_out *out);
void rf__solve_apgd(rf_problem *p, const rf_config *cfg, double *gamma,
                    rf_solve_out *out);

#endif /* ROLLFRIC_INTERNAL_H */
