/*
 * rfbench's private declarations, shared by its parts (bench/, not
 * installed).  rfbench.c has the overview; the parts:
 *   rfbench.c              main, argument parsing, the sections in order
 *   rfbench_util.c         clock, median, errors, the fixed-iteration solve
 *   rfbench_scene.c        the synthetic sphere packs
 *   rfbench_throughput.c   section "results": throughput at fixed iterations
 *   rfbench_triad.c        the STREAM-like triad probe (section "stream")
 *   rfbench_traffic.c      the bytes-per-contact-iteration model (roofline)
 *   rfbench_periter.c      sections "per_iteration" and "scaling"; the
 *                          roofline and scaling tables on stdout
 *   rfbench_convergence.c  section "convergence"
 *   rfbench_memory.c       section "memory"
 *   rfbench_json.c         the JSON writer and the CSVs
 */
#ifndef ROLLFRIC_BENCH_RFBENCH_H
#define ROLLFRIC_BENCH_RFBENCH_H

#include "rollfric/rollfric.h"

#include <stddef.h>
#include <stdio.h>

#define MAX_LIST 16
#define NSOLVER 4
#define NSCALE 3    /* sizes of the per-iteration / scaling section */
#define MAX_CONV 64 /* grid points per solver */

/* "jacobi", "gs", "gs-colored", "apgd": by rf_solver_kind (rfbench_util.c) */
extern const char *SOLVER_NAMES[];

/* Convergence: Jacobi, Gauss-Seidel and APGD. */
extern const int CONV_SOLVERS[];
#define NCONV 3
/* The convergence mark, and the residual below which a solver's
   grid stops (the curve has reached rounding level). */
#define CONV_TARGET 1e-6
#define CONV_STOP 1e-10

typedef struct options {
    int sizes[MAX_LIST], nsizes;
    int threads[MAX_LIST], nthreads;
    int iters, repeats;
    rf_model model;
    const char *out;
    int quick;
    int stream_mib;   /* per triad array */
    int pile_spheres; /* convergence pile */
    int conv_cap;     /* largest iteration count of the grid */
} options;

typedef struct pack_info {
    int side, layers;
    int bodies, contacts;
    int world;   /* contacts with the ground (one dynamic side) */
    int entries; /* body -> contacts index entries: dynamic sides */
} pack_info;

typedef struct result {
    int contacts, bodies, solver, threads;
    double median, residual;
} result;

/* --- triad (rfbench_triad.c) --- */

/* Counted per element: read b[i], read c[i], write a[i], 8 bytes each
   (STREAM's convention).  The write-allocate read of a[i] that a cache
   without streaming stores also does is not counted; with it the traffic
   is 32 bytes per element, reported beside. */
#define TRIAD_BYTES 24.0
#define TRIAD_BYTES_WA 32.0

typedef struct stream_out {
    size_t n; /* elements per array */
    int repeats, nres;
    int threads[MAX_LIST];
    double median[MAX_LIST], best[MAX_LIST]; /* seconds per triad */
    double checksum;
    long llc_bytes; /* as the C library reports it (0: unknown) */
} stream_out;

/* The triad's three arrays of o->stream_mib MiB each. */
typedef struct triad_arrays {
    double *a, *b, *c;
    size_t n; /* elements per array */
} triad_arrays;

/* --- byte-count model (rfbench_traffic.c) --- */

/* One array touched by one pass of an iteration.  Each array element a
   pass touches is counted once per pass (compulsory traffic: a contact's
   frame read by the body pass for both of its bodies counts once), reads
   and writes alike, and a write's write-allocate read is not counted (the
   triad's convention).  Per body entries are amortised with the pack's
   bodies / contacts, per index entry with its (2 contacts - ground
   contacts) / contacts. */
enum { PER_CONTACT = 0, PER_BODY = 1, PER_ENTRY = 2 };
/* "contact", "body", "index entry" */
extern const char *PER_NAMES[];

typedef struct traffic {
    const char *pass, *array;
    int per;   /* PER_* */
    int bytes; /* per contact, body or entry */
    int write; /* 0 read, 1 write */
} traffic;

typedef struct traffic_table {
    const traffic *t;
    int n;
    const char *not_counted;
} traffic_table;

/* per solver, by rf_solver_kind */
extern const traffic_table TRAFFIC[NSOLVER];

/* --- time per iteration (rfbench_periter.c) --- */

typedef struct periter {
    int solver, threads, k_lo, k_hi;
    double t_lo, t_hi; /* median seconds of the k_lo and k_hi solves */
    double per_iter;   /* (t_hi - t_lo) / (k_hi - k_lo) */
    int fallback;      /* the difference was not positive: t_hi / k_hi */
    /* paired with a triad (the roofline size only, else NAN / 0): per
       repeat, a triad at this thread count just before the k_lo and k_hi
       solves; cit_per_triad_byte = median over the repeats of that
       repeat's contact-iterations per second over its triad bytes per
       second (repeats whose difference was not positive left out), and
       triad_bps the median of those triads' bytes per second */
    double cit_per_triad_byte, triad_bps;
    int npaired;
} periter;

typedef struct periter_size {
    pack_info pk;
    periter r[NSOLVER * MAX_LIST];
    int nr;
} periter_size;

/* --- convergence (rfbench_convergence.c) --- */

typedef struct conv_point {
    int k;
    double seconds, residual;
} conv_point;

typedef struct conv_out {
    pack_info pk;
    int threads, cap;
    conv_point pts[NCONV][MAX_CONV];
    int npts[NCONV];
    /* iterations to CONV_TARGET from a solve with tol = CONV_TARGET, or
       -1 when no grid point reached it within cap */
    int reach_iters[NCONV];
    double reach_seconds[NCONV], reach_residual[NCONV];
    /* Target 4 (APGD <= 1/5 of Jacobi's iterations to CONV_TARGET): when
       APGD reached the target in a iterations and Jacobi did not within
       cap, Jacobi is run once more with tol = CONV_TARGET and max_iter =
       5 a.  Not reaching it there bounds the ratio: a / (5 a) = 1/5 is
       then an upper bound, met.  t4_cap = 0: not run. */
    int t4_cap, t4_reached, t4_iters;
    double t4_residual, t4_seconds;
} conv_out;

/* --- memory (rfbench_memory.c) --- */

typedef struct mem_out {
    pack_info pk;
    size_t reported[NSOLVER]; /* rf_problem_memory */
    long heap[NSOLVER];       /* heap growth, -1 when unknown */
} mem_out;

/* The itemised count of rf_problem_memory's documentation for a body-form
   problem without rows (rollfric.h), per category. */
typedef struct mem_item {
    const char *what;
    double bytes; /* total */
} mem_item;

/* --- output (rfbench_json.c) --- */

typedef struct report {
    const options *o;
    const result *res;
    int nres;
    const stream_out *so;
    const periter_size *ps;
    int nps;
    const conv_out *co;
    const mem_out *mo;
    const char *csv;
    double wall_seconds; /* of the measurements, start to report */
} report;

/* rfbench_util.c */
double now_seconds(void);
int die(const rf_error *err);
int cmp_double(const void *a, const void *b);
double median(double *v, int n);
int max_threads(const options *o);
int solve_fixed(rf_problem *p, int solver, int threads, rf_model model,
                int iters, double *g, rf_stats *st);

/* rfbench_scene.c */
long pack_contacts(int side, int layers);
int pack_side(long target);
int build_pack(rf_problem *p, long target, pack_info *info);
int build_pile(rf_problem *p, int spheres, pack_info *info);

/* rfbench_throughput.c */
int run_size(const options *o, int size, result *res, int *nres);

/* rfbench_triad.c */
void triad_free(triad_arrays *t);
int triad_alloc(const options *o, triad_arrays *t);
int run_stream(const options *o, stream_out *so);
double stream_rate(const stream_out *so, int threads);
double paired_triad(const triad_arrays *tri, int threads);

/* rfbench_traffic.c */
double traffic_bytes(int s, const pack_info *pk, double *per_contact,
                     double *per_body, double *per_entry);

/* rfbench_periter.c */
int run_periter(const options *o, const int *sizes, int nsize, periter_size *ps,
                const triad_arrays *tri);
const periter *find_periter(const periter_size *ps, int solver, int threads);
double scaling_slope(const periter_size *ps, int nsize, int solver,
                     int threads);
void print_roofline(const report *rp);

/* rfbench_convergence.c */
int run_convergence(const options *o, conv_out *co);

/* rfbench_memory.c */
int run_memory(const options *o, int size, mem_out *mo);
int memory_items(const pack_info *pk, int solver, mem_item *it);

/* rfbench_json.c */
void write_json(FILE *f, const report *rp);
int write_csv(const char *path, const conv_out *co);
int write_scaling_csv(const char *path, const report *rp);
void csv_path(const char *out, const char *what, char *buf, size_t size);

#endif /* ROLLFRIC_BENCH_RFBENCH_H */
