/*
 * rfbench: solver throughput on a synthetic granular pack (not a test).
 *
 * Scene: spheres of radius 0.1 m and density 2500 kg/m^3 in a square
 * column of layers; every sphere touches the one below it (or the ground,
 * RF_WORLD) and its +x and +z grid neighbours, about 3 contacts per
 * sphere.  Free velocities carry one gravity step (h = 1/60 s) and a small
 * deterministic perturbation; mu = 0.5, rho = sigma = 0.01 m.
 *
 * Sections, all measured in one run and written to one JSON (--out) with
 * a table on stdout; every ratio below is formed from numbers of the same
 * run:
 *   results      for each size (--sizes), solver and thread count the
 *                solve runs a fixed number of iterations (tol = 0) from
 *                zero, repeated R times with the configurations
 *                interleaved (repeat loop outermost) so machine noise hits
 *                all of them alike; the median time is reported as
 *                contact-iterations per second, plus the 2-over-1-thread
 *                ratio.
 *   stream       memory bandwidth: a STREAM triad a = b + s c over arrays
 *                far larger than the last-level cache, per thread count.
 *   per_iteration  time per iteration at 1e3, 1e4, 1e5 contacts: the
 *                difference of the median times of k_hi and k_lo
 *                iterations over k_hi - k_lo, so the set-up every solve
 *                pays (scaling, step estimate, GS blocks, colouring) drops
 *                out; the repeat loop outermost, over the sizes and the
 *                configurations, so that load on the machine falls on
 *                every size alike.
 *   scaling      least-squares slope of log(time per iteration) against
 *                log(contacts), per solver and thread count.
 *   roofline     bytes per contact-iteration counted from the arrays each
 *                solver's iteration reads and writes (the tables below),
 *                times contact-iterations per second, over the triad's
 *                bytes per second at the same thread count; and paired:
 *                a triad before each repeat's solves at the largest size,
 *                the median of the per-repeat ratios (fraction_paired).
 *   convergence  the residual rf_solve reports after k iterations (tol = 0,
 *                cold start) for k on a Fibonacci grid, and the seconds
 *                that solve took, on the "20k pile"; also a CSV
 *                (<out stem>-convergence.csv) for plotting.
 *   memory       rf_problem_memory per solver on the roofline pack, per
 *                contact, itemised, and the heap growth glibc reports.
 */
#include "rollfric/rollfric.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
#include <malloc.h>
#define RFBENCH_HEAP 1
#endif

#define MAX_LIST 16
#define NSOLVER 4
#define NSCALE 3    /* sizes of the per-iteration / scaling section */
#define MAX_CONV 64 /* grid points per solver */

static const char *SOLVER_NAMES[] = {"jacobi", "gs", "gs-colored", "apgd"};

/* Convergence: Jacobi, Gauss-Seidel and APGD (issue #6). */
static const int CONV_SOLVERS[] = {RF_SOLVER_JACOBI, RF_SOLVER_GS,
                                   RF_SOLVER_APGD};
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

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double uniform(uint64_t *s, double lo, double hi)
{
    return lo +
           (hi - lo) * (double)(splitmix(s) >> 11) * (1.0 / 9007199254740992.0);
}

static double now_seconds(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Contacts of a pack with side x side spheres per layer and `layers`
   layers: per sphere 1 (below) + 2 (grid neighbours) minus the edges. */
static long pack_contacts(int side, int layers)
{
    return (long)layers * ((long)side * side + 2L * side * (side - 1));
}

static int die(const rf_error *err)
{
    fprintf(stderr, "rfbench: %s\n", err->message);
    return 2;
}

/* Build the pack with side x side spheres per layer into p. */
static int build_side(rf_problem *p, int side, pack_info *info)
{
    const int layers = 4;
    const int nb = layers * side * side;
    const long nc = pack_contacts(side, layers);
    const double R = 0.1, rho_mat = 2500.0, h = 1.0 / 60.0;
    const double m = rho_mat * 4.0 / 3.0 * 3.14159265358979323846 * R * R * R;
    const double inv_I = 1.0 / (0.4 * m * R * R);
    rf_error err;
    if (rf_problem_begin_bodies(p, nb, (int)nc, &err) != RF_OK) {
        return die(&err);
    }
    uint64_t seed = 12345;
    for (int b = 0; b < nb; ++b) {
        rf_body_desc bd = {.flags = RF_BODY_DYNAMIC, .inv_mass = 1.0 / m};
        bd.inv_inertia[0] = bd.inv_inertia[4] = bd.inv_inertia[8] = inv_I;
        for (int k = 0; k < 3; ++k) {
            bd.v[k] = uniform(&seed, -0.01, 0.01);
            bd.w[k] = uniform(&seed, -0.1, 0.1);
        }
        bd.v[1] -= 9.81 * h;
        if (rf_problem_set_body(p, b, &bd, &err) != RF_OK) {
            return die(&err);
        }
    }
    int i = 0, world = 0;
    for (int l = 0; l < layers; ++l) {
        for (int x = 0; x < side; ++x) {
            for (int z = 0; z < side; ++z) {
                int b = (l * side + x) * side + z;
                /* below (normal +Y from B to A), then +x and +z neighbours */
                const int other[3] = {l == 0 ? RF_WORLD : b - side * side,
                                      x + 1 < side ? b + side : -2,
                                      z + 1 < side ? b + 1 : -2};
                const double dir[3][3] = {{0, 1, 0}, {-1, 0, 0}, {0, 0, -1}};
                for (int k = 0; k < 3; ++k) {
                    if (other[k] == -2) {
                        continue;
                    }
                    rf_contact_desc c = {.body_a = b,
                                         .body_b = other[k],
                                         .mu = 0.5,
                                         .rho = 0.01,
                                         .sigma = 0.01};
                    memcpy(c.n, dir[k], sizeof c.n);
                    rf_contact_frame(c.n, c.t1, c.t2);
                    for (int d = 0; d < 3; ++d) {
                        c.r_a[d] = -R * c.n[d];
                        c.r_b[d] =
                            other[k] == RF_WORLD ? -R * c.n[d] : R * c.n[d];
                    }
                    if (i % 7 == 0) {
                        c.bias[0] = -0.001 / h; /* slight penetration */
                    }
                    world += other[k] == RF_WORLD;
                    if (rf_problem_set_contact(p, i++, &c, &err) != RF_OK) {
                        return die(&err);
                    }
                }
            }
        }
    }
    info->side = side;
    info->layers = layers;
    info->bodies = nb;
    info->contacts = (int)nc;
    info->world = world;
    info->entries = 2 * (int)nc - world;
    return 0;
}

/* Side of the largest pack with at most `target` contacts (at least 2). */
static int pack_side(long target)
{
    int side = 2;
    while (pack_contacts(side + 1, 4) <= target) {
        ++side;
    }
    return side;
}

static int build_pack(rf_problem *p, long target, pack_info *info)
{
    return build_side(p, pack_side(target), info);
}

/* The pack closest to `spheres` spheres (4 layers of side^2). */
static int build_pile(rf_problem *p, int spheres, pack_info *info)
{
    int side = (int)lround(sqrt((double)spheres / 4.0));
    return build_side(p, side < 2 ? 2 : side, info);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n values (sorts them). */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int parse_list(const char *s, int *out, int *n)
{
    *n = 0;
    while (*s && *n < MAX_LIST) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s || v < 1 || v > 100000000) {
            return 0;
        }
        out[(*n)++] = (int)v;
        s = *end == ',' ? end + 1 : end;
        if (*end != ',' && *end != '\0') {
            return 0;
        }
    }
    return *n > 0;
}

static int parse_args(int argc, char **argv, options *o)
{
    o->sizes[0] = 10000;
    o->sizes[1] = 100000;
    o->nsizes = 2;
    o->threads[0] = 1;
    o->threads[1] = 2;
    o->nthreads = 2;
    o->iters = 50;
    o->repeats = 5;
    o->model = RF_MODEL_ASSOCIATED;
    o->out = "bench/results/rfbench.json";
    o->quick = 0;
    o->stream_mib = 0;
    o->pile_spheres = 0;
    o->conv_cap = 0;
    int repeats_set = 0, sizes_set = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
        int ok = 1;
        if (strcmp(a, "--quick") == 0) {
            o->quick = 1;
            continue;
        } else if (strcmp(a, "--help") == 0) {
            printf("usage: rfbench [--quick] [--sizes N,N,...] "
                   "[--threads T,T,...] [--iters K] [--repeats R]\n"
                   "               [--model associated|desaxce] [--out FILE]\n"
                   "               [--stream-mib M] [--pile SPHERES] "
                   "[--conv-cap K]\n"
                   "defaults: sizes 10000,100000 (quick 2000,10000), threads "
                   "1,2, iters 50, repeats 5 (quick 3)\n"
                   "          triad arrays 64 MiB each (quick 32), pile 20000 "
                   "spheres (quick 1000), convergence cap 5000 (quick 500)\n"
                   "          per-iteration/scaling/roofline sizes "
                   "1000,10000,100000 (quick 1000,10000,30000)\n"
                   "writes FILE and FILE's stem + -convergence.csv\n");
            exit(0);
        } else if (strcmp(a, "--sizes") == 0) {
            ok = parse_list(v, o->sizes, &o->nsizes);
            sizes_set = 1;
        } else if (strcmp(a, "--threads") == 0) {
            ok = parse_list(v, o->threads, &o->nthreads);
        } else if (strcmp(a, "--iters") == 0) {
            ok = (o->iters = atoi(v)) > 0;
        } else if (strcmp(a, "--repeats") == 0) {
            ok = (o->repeats = atoi(v)) > 0;
            repeats_set = 1;
        } else if (strcmp(a, "--model") == 0) {
            ok = strcmp(v, "associated") == 0 || strcmp(v, "desaxce") == 0;
            o->model = strcmp(v, "desaxce") == 0 ? RF_MODEL_DESAXCE
                                                 : RF_MODEL_ASSOCIATED;
        } else if (strcmp(a, "--out") == 0) {
            o->out = v;
            ok = *v != '\0';
        } else if (strcmp(a, "--stream-mib") == 0) {
            ok = (o->stream_mib = atoi(v)) > 0 && o->stream_mib <= 4096;
        } else if (strcmp(a, "--pile") == 0) {
            ok = (o->pile_spheres = atoi(v)) >= 16;
        } else if (strcmp(a, "--conv-cap") == 0) {
            ok = (o->conv_cap = atoi(v)) > 0;
        } else {
            ok = 0;
        }
        if (!ok) {
            fprintf(stderr, "rfbench: bad argument %s %s (see --help)\n", a, v);
            return 0;
        }
        ++i;
    }
    if (o->quick) {
        if (!sizes_set) {
            o->sizes[0] = 2000;
            o->sizes[1] = 10000;
        }
        if (!repeats_set) {
            o->repeats = 3;
        }
    }
    if (o->stream_mib == 0) {
        o->stream_mib = o->quick ? 32 : 64;
    }
    if (o->pile_spheres == 0) {
        o->pile_spheres = o->quick ? 1000 : 20000;
    }
    if (o->conv_cap == 0) {
        o->conv_cap = o->quick ? 500 : 5000;
    }
    return 1;
}

/* Make the parent directories of path (best effort). */
static void make_parents(const char *path)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *s = buf + 1; *s; ++s) {
        if (*s == '/') {
            *s = '\0';
            mkdir(buf, 0755);
            *s = '/';
        }
    }
}

static int max_threads(const options *o)
{
    int t = 1;
    for (int k = 0; k < o->nthreads; ++k) {
        t = o->threads[k] > t ? o->threads[k] : t;
    }
    return t;
}

/* A solve from zero with tol = 0 (exactly max_iter iterations). */
static int solve_fixed(rf_problem *p, int solver, int threads, rf_model model,
                       int iters, double *g, rf_stats *st)
{
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.solver = (rf_solver_kind)solver;
    cfg.threads = threads;
    cfg.model = model;
    cfg.tol = 0.0;
    cfg.max_iter = iters;
    cfg.warm_start = 0;
    rf_error err;
    if (rf_solve(p, &cfg, g, st, &err) != RF_OK) {
        return die(&err);
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Throughput at fixed iterations (the original section)               */
/* ------------------------------------------------------------------ */

typedef struct result {
    int contacts, bodies, solver, threads;
    double median, residual;
} result;

static int run_size(const options *o, int size, result *res, int *nres)
{
    rf_problem *p;
    rf_error err;
    if (rf_problem_create(&p, &err) != RF_OK) {
        return die(&err);
    }
    pack_info pk;
    if (build_pack(p, size, &pk)) {
        return 2;
    }
    const int nc = pk.contacts, nb = pk.bodies;
    const int ncfg = NSOLVER * o->nthreads;
    double *times = malloc(sizeof(double) * ncfg * o->repeats);
    double *resid = malloc(sizeof(double) * ncfg);
    double *g = malloc(sizeof(double) * 6 * nc);
    for (int r = 0; r < o->repeats; ++r) {
        for (int c = 0; c < ncfg; ++c) {
            rf_stats st;
            if (solve_fixed(p, c / o->nthreads, o->threads[c % o->nthreads],
                            o->model, o->iters, g, &st)) {
                return 2;
            }
            times[c * o->repeats + r] = st.seconds;
            resid[c] = st.residual;
        }
    }
    for (int c = 0; c < ncfg; ++c) {
        double *t = times + c * o->repeats;
        qsort(t, (size_t)o->repeats, sizeof(double), cmp_double);
        result *x = &res[(*nres)++];
        x->contacts = nc;
        x->bodies = nb;
        x->solver = c / o->nthreads;
        x->threads = o->threads[c % o->nthreads];
        x->median = t[o->repeats / 2];
        x->residual = resid[c];
        printf("%9d %8d  %-10s %7d %12.3f %14.3e %11.2e\n", nc, nb,
               SOLVER_NAMES[x->solver], x->threads, 1e3 * x->median,
               (double)nc * o->iters / x->median, x->residual);
    }
    free(times);
    free(resid);
    free(g);
    rf_problem_destroy(p);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Memory bandwidth: STREAM triad                                      */
/* ------------------------------------------------------------------ */

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

static void triad(double *a, const double *b, const double *c, size_t n,
                  double s, int threads)
{
    const long nn = (long)n;
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long i = 0; i < nn; ++i) {
        a[i] = b[i] + s * c[i];
    }
}

/* The triad's three arrays of o->stream_mib MiB each. */
typedef struct triad_arrays {
    double *a, *b, *c;
    size_t n; /* elements per array */
} triad_arrays;

static void triad_free(triad_arrays *t)
{
    free(t->a);
    free(t->b);
    free(t->c);
    t->a = t->b = t->c = NULL;
}

static int triad_alloc(const options *o, triad_arrays *t)
{
    const size_t n = (size_t)o->stream_mib * 1024 * 1024 / sizeof(double);
    t->n = n;
    t->a = malloc(n * sizeof(double));
    t->b = malloc(n * sizeof(double));
    t->c = malloc(n * sizeof(double));
    if (t->a == NULL || t->b == NULL || t->c == NULL) {
        fprintf(stderr, "rfbench: out of memory for the triad arrays\n");
        triad_free(t);
        return 2;
    }
    double *a = t->a, *b = t->b, *c = t->c;
    const long nn = (long)n;
    /* first touch with all the threads the probe uses, in the same static
       partition as the triad */
#pragma omp parallel for schedule(static) num_threads(max_threads(o))
    for (long i = 0; i < nn; ++i) {
        a[i] = 0.0;
        b[i] = 1.0 + 1e-9 * (double)(i % 1000);
        c[i] = 2.0;
    }
    return 0;
}

static int run_stream(const options *o, stream_out *so)
{
    triad_arrays ta;
    if (triad_alloc(o, &ta)) {
        return 2;
    }
    double *a = ta.a, *b = ta.b, *c = ta.c;
    const size_t n = ta.n;
    so->n = n;
    so->repeats = o->repeats * 2 > 5 ? o->repeats * 2 : 5;
    so->nres = o->nthreads;
    double *t = malloc(sizeof(double) * o->nthreads * so->repeats);
    for (int k = 0; k < o->nthreads; ++k) { /* warm-up */
        triad(a, b, c, n, 3.0, o->threads[k]);
    }
    for (int r = 0; r < so->repeats; ++r) {
        for (int k = 0; k < o->nthreads; ++k) {
            const double t0 = now_seconds();
            triad(a, b, c, n, 3.0, o->threads[k]);
            t[k * so->repeats + r] = now_seconds() - t0;
        }
    }
    for (int k = 0; k < o->nthreads; ++k) {
        double *tk = t + k * so->repeats;
        so->threads[k] = o->threads[k];
        so->median[k] = median(tk, so->repeats);
        so->best[k] = tk[0];
    }
    /* a = b + 3 c: a checksum the compiler cannot drop */
    so->checksum = a[0] + a[n / 2] + a[n - 1];
    so->llc_bytes = 0;
#ifdef _SC_LEVEL3_CACHE_SIZE
    so->llc_bytes = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
    free(t);
    triad_free(&ta);
    return 0;
}

static double stream_rate(const stream_out *so, int threads)
{
    for (int k = 0; k < so->nres; ++k) {
        if (so->threads[k] == threads) {
            return TRIAD_BYTES * (double)so->n / so->median[k];
        }
    }
    return NAN;
}

/* ------------------------------------------------------------------ */
/* Bytes per contact-iteration, counted from the solvers' inner loops  */
/* ------------------------------------------------------------------ */

/* One array touched by one pass of an iteration.  Each array element a
   pass touches is counted once per pass (compulsory traffic: a contact's
   frame read by the body pass for both of its bodies counts once), reads
   and writes alike, and a write's write-allocate read is not counted (the
   triad's convention).  Per body entries are amortised with the pack's
   bodies / contacts, per index entry with its (2 contacts - ground
   contacts) / contacts. */
enum { PER_CONTACT = 0, PER_BODY = 1, PER_ENTRY = 2 };
static const char *PER_NAMES[] = {"contact", "body", "index entry"};

typedef struct traffic {
    const char *pass, *array;
    int per;   /* PER_* */
    int bytes; /* per contact, body or entry */
    int write; /* 0 read, 1 write */
} traffic;

/* rf__apply_scaled in body form (rf__apply_scaled_body, jacobian.c): the
   part scaling S is applied inside the passes.  Impulse pass (per contact,
   in order: the frame, x and S give the world impulse, written to cimp);
   body pass (per body over its index entries: cimp and the lever arms;
   apply M^-1); contact pass (frame, lever arms, both bodies' velocities,
   no bias: out = S D^T bv + r'). */
#define N_PRODUCT(x, out, rr)                                                  \
    {"N: impulse pass", "con_frame", PER_CONTACT, 72, 0},                      \
        {"N: impulse pass", x, PER_CONTACT, 48, 0},                            \
        {"N: impulse pass", "wscale", PER_CONTACT, 32, 0},                     \
        {"N: impulse pass", "cimp", PER_CONTACT, 48, 1},                       \
        {"N: body pass", "bc_ptr", PER_BODY, 4, 0},                            \
        {"N: body pass", "bc_ent", PER_ENTRY, 4, 0},                           \
        {"N: body pass", "cimp", PER_CONTACT, 48, 0},                          \
        {"N: body pass", "con_arm", PER_CONTACT, 48, 0},                       \
        {"N: body pass", "body_inv_mass", PER_BODY, 24, 0},                    \
        {"N: body pass", "body_inv_inertia", PER_BODY, 72, 0},                 \
        {"N: body pass", "bv0", PER_BODY, 48, 1},                              \
        {"N: contact pass", "con_body", PER_CONTACT, 8, 0},                    \
        {"N: contact pass", "con_frame", PER_CONTACT, 72, 0},                  \
        {"N: contact pass", "con_arm", PER_CONTACT, 48, 0},                    \
        {"N: contact pass", "bv0", PER_BODY, 48, 0},                           \
        {"N: contact pass", "wscale", PER_CONTACT, 32, 0},                     \
        {"N: contact pass", rr, PER_CONTACT, 48, 0},                           \
    {                                                                          \
        "N: contact pass", out, PER_CONTACT, 48, 1                             \
    }

/* The cone of a contact in scaled variables (rf__scaled_cone): the scaled
   coefficients and cap rf__part_scaling left in wcone, and the flags. */
#define CONE(pass)                                                             \
    {pass, "wcone", PER_CONTACT, 32, 0},                                       \
    {                                                                          \
        pass, "con_flags", PER_CONTACT, 4, 0                                   \
    }

/* solver_jacobi.c, one pass of the while loop (body form, no rows,
   tol = 0 so no tracker residual). */
static const traffic JACOBI_TRAFFIC[] = {
    {"project", "g0 (gamma')", PER_CONTACT, 48, 0},
    {"project", "u0 (u')", PER_CONTACT, 48, 0},
    {"project", "step", PER_CONTACT, 8, 0},
    CONE("project"),
    {"project", "g1 (next gamma')", PER_CONTACT, 48, 1},
    N_PRODUCT("g1", "u0", "rs"),
};

/* solver_apgd.c, one outer iteration without backtracking, tol = 0 (no
   residual per iteration), body form: extrapolate_project (y, Uy and the
   first trial x+ in one sweep), then the N product of x+ with the trial
   sums in its contact pass (rf__apply_scaled_trial).  Names as at the
   start of an iteration: g0 = x, g1 = the previous x (overwritten by
   x+), u0, u1 their products, g2 = y, u2 = Uy. */
static const traffic APGD_TRAFFIC[] = {
    {"extrapolate_project", "g0, g1, u0, u1, rs", PER_CONTACT, 240, 0},
    CONE("extrapolate_project"),
    {"extrapolate_project", "g2 (y), u2 (Uy)", PER_CONTACT, 96, 1},
    {"extrapolate_project", "g1 (x+)", PER_CONTACT, 48, 1},
    N_PRODUCT("g1", "u1", "rs"),
    {"N: contact pass (trial sums)", "g1, g0, g2, u2", PER_CONTACT, 192, 0},
};

/* solver_gs.c, one sequential sweep, visit() on the stick-test path. */
#define GS_VISIT                                                               \
    {"visit: contact velocity", "con_body", PER_CONTACT, 8, 0},                \
        {"visit: contact velocity", "con_frame", PER_CONTACT, 72, 0},          \
        {"visit: contact velocity", "con_arm", PER_CONTACT, 48, 0},            \
        {"visit: contact velocity", "con_bias", PER_CONTACT, 48, 0},           \
        {"visit: contact velocity", "bv1 (vel)", PER_BODY, 48, 0},             \
        {"visit: local solve", "g0 (gamma)", PER_CONTACT, 48, 0},              \
        {"visit: local solve", "wscale", PER_CONTACT, 32, 0},                  \
        CONE("visit: local solve"),                                            \
        {"visit: local solve", "chol_ok", PER_CONTACT, 1, 0},                  \
        {"visit: local solve", "step", PER_CONTACT, 8, 0},                     \
        {"visit: local solve", "wchol", PER_CONTACT, 288, 0},                  \
        {"visit: update", "g0 (gamma)", PER_CONTACT, 48, 1},                   \
        {"visit: body update", "body_flags", PER_BODY, 4, 0},                  \
        {"visit: body update", "body_inv_mass", PER_BODY, 24, 0},              \
        {"visit: body update", "body_inv_inertia", PER_BODY, 72, 0},           \
    {                                                                          \
        "visit: body update", "bv1 (vel)", PER_BODY, 48, 1                     \
    }

static const traffic GS_TRAFFIC[] = {GS_VISIT};
static const traffic GSC_TRAFFIC[] = {
    {"colour loop", "color_con", PER_CONTACT, 4, 0},
    GS_VISIT,
};

typedef struct traffic_table {
    const traffic *t;
    int n;
    const char *not_counted;
} traffic_table;

static const traffic_table TRAFFIC[NSOLVER] = {
    {JACOBI_TRAFFIC, (int)(sizeof JACOBI_TRAFFIC / sizeof JACOBI_TRAFFIC[0]),
     "reduction partials (under 1 byte per contact)"},
    {GS_TRAFFIC, (int)(sizeof GS_TRAFFIC / sizeof GS_TRAFFIC[0]),
     "the projected-step path of a contact that fails the stick test (wblk "
     "288 bytes per inner step); re-reads of a body's velocity "
     "by its other contacts"},
    {GSC_TRAFFIC, (int)(sizeof GSC_TRAFFIC / sizeof GSC_TRAFFIC[0]),
     "as gs; and a body's data is counted once per sweep though each "
     "colour is a pass of its own"},
    {APGD_TRAFFIC, (int)(sizeof APGD_TRAFFIC / sizeof APGD_TRAFFIC[0]),
     "backtracking steps (each a project_step - y, Uy read, x+ written - "
     "and another N product with the sums); the copy of the kept "
     "iterate after an iteration that does not improve the gradient "
     "mapping (96 bytes per contact); reduction partials"},
};

/* Bytes per contact-iteration of solver s on pack pk, and its parts. */
static double traffic_bytes(int s, const pack_info *pk, double *per_contact,
                            double *per_body, double *per_entry)
{
    double sum[3] = {0.0, 0.0, 0.0};
    for (int k = 0; k < TRAFFIC[s].n; ++k) {
        sum[TRAFFIC[s].t[k].per] += TRAFFIC[s].t[k].bytes;
    }
    *per_contact = sum[PER_CONTACT];
    *per_body = sum[PER_BODY];
    *per_entry = sum[PER_ENTRY];
    return sum[PER_CONTACT] +
           sum[PER_BODY] * (double)pk->bodies / pk->contacts +
           sum[PER_ENTRY] * (double)pk->entries / pk->contacts;
}

/* ------------------------------------------------------------------ */
/* Time per iteration (scaling, roofline)                              */
/* ------------------------------------------------------------------ */

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

/* Iteration counts for `contacts`: k_hi such that a solve has at least
   target contact-iterations (and at least min_iters), k_lo = k_hi / 5. */
static void iteration_pair(const options *o, int contacts, int *k_lo, int *k_hi)
{
    const double target = o->quick ? 1e5 : 1e6;
    const int min_iters = o->quick ? 10 : o->iters;
    int k = (int)ceil(target / contacts);
    *k_hi = k > min_iters ? k : min_iters;
    *k_lo = *k_hi / 5 > 1 ? *k_hi / 5 : 1;
}

/* Seconds of one triad at `threads`, taken as the stream section takes
   them: warm (triads back to back for 0.1 s first: after a one-thread
   solve an idle core needs that long to come up to speed; a 2-thread
   triad right after one ran at a third of its rate), the median of 3. */
static double paired_triad(const triad_arrays *tri, int threads)
{
    const double t_warm = now_seconds();
    do {
        triad(tri->a, tri->b, tri->c, tri->n, 3.0, threads);
    } while (now_seconds() - t_warm < 0.1);
    double t[3];
    for (int k = 0; k < 3; ++k) {
        const double t0 = now_seconds();
        triad(tri->a, tri->b, tri->c, tri->n, 3.0, threads);
        t[k] = now_seconds() - t0;
    }
    return median(t, 3);
}

/* One size's measurements (run_periter): its pack, iteration pair and
   raw times, t[(2 c + h) R + r] for configuration c, h = 0 (k_lo) or 1
   (k_hi), repeat r, and tt[c R + r] the paired triads. */
typedef struct periter_run {
    rf_problem *p;
    double *g, *t, *tt;
    int k_lo, k_hi;
} periter_run;

/* Time per iteration at each of the nsize sizes, every solver and thread
   count.  The repeat loop is outermost, over the sizes and then the
   configurations, so that the machine's load, which moves over minutes,
   falls on every size alike (measured one size after the other, four
   runs on one busy day gave single-run slopes from 0.88 to 1.10 for the
   same code); with tri (not NULL) each solve pair at the largest size is
   preceded by a triad at its thread count, so that the roofline fraction
   can be taken as a ratio of two measurements made moments apart. */
static int run_periter(const options *o, const int *sizes, int nsize,
                       periter_size *ps, const triad_arrays *tri)
{
    const int ncfg = NSOLVER * o->nthreads, R = o->repeats;
    periter_run run[NSCALE];
    rf_error err;
    for (int s = 0; s < nsize; ++s) {
        periter_run *u = &run[s];
        if (rf_problem_create(&u->p, &err) != RF_OK) {
            return die(&err);
        }
        if (build_pack(u->p, sizes[s], &ps[s].pk)) {
            return 2;
        }
        const int nc = ps[s].pk.contacts;
        iteration_pair(o, nc, &u->k_lo, &u->k_hi);
        u->g = malloc(sizeof(double) * 6 * nc);
        u->t = malloc(sizeof(double) * 2 * ncfg * R);
        u->tt = malloc(sizeof(double) * ncfg * R);
        if (u->g == NULL || u->t == NULL || u->tt == NULL) {
            fprintf(stderr, "rfbench: out of memory at %d contacts\n", nc);
            return 2;
        }
        rf_stats st;
        /* untimed: the work memory (GS blocks included) is allocated and
           touched once, so no timed solve pays for it */
        if (solve_fixed(u->p, RF_SOLVER_GS, o->threads[0], o->model, 1, u->g,
                        &st)) {
            return 2;
        }
    }
    for (int r = 0; r < R; ++r) {
        for (int s = 0; s < nsize; ++s) {
            periter_run *u = &run[s];
            const int paired = tri != NULL && s == nsize - 1;
            for (int c = 0; c < ncfg; ++c) {
                const int threads = o->threads[c % o->nthreads];
                if (paired) {
                    u->tt[c * R + r] = paired_triad(tri, threads);
                }
                for (int h = 0; h < 2; ++h) {
                    rf_stats st;
                    if (solve_fixed(u->p, c / o->nthreads, threads, o->model,
                                    h ? u->k_hi : u->k_lo, u->g, &st)) {
                        return 2;
                    }
                    u->t[(2 * c + h) * R + r] = st.seconds;
                }
            }
        }
    }
    double *ratio = malloc(sizeof(double) * R);
    double *bps = malloc(sizeof(double) * R);
    for (int s = 0; s < nsize; ++s) {
        periter_run *u = &run[s];
        const int nc = ps[s].pk.contacts,
                  paired = tri != NULL && s == nsize - 1;
        double *t = u->t;
        ps[s].nr = ncfg;
        for (int c = 0; c < ncfg; ++c) {
            periter *x = &ps[s].r[c];
            /* paired ratios first: the medians below sort t in place */
            x->npaired = 0;
            for (int r = 0; paired && r < R; ++r) {
                const double d = t[(2 * c + 1) * R + r] - t[2 * c * R + r];
                if (d > 0.0) {
                    const double cis = (double)nc * (u->k_hi - u->k_lo) / d;
                    const double tb =
                        TRIAD_BYTES * (double)tri->n / u->tt[c * R + r];
                    ratio[x->npaired] = cis / tb;
                    bps[x->npaired++] = tb;
                }
            }
            x->cit_per_triad_byte =
                x->npaired > 0 ? median(ratio, x->npaired) : NAN;
            x->triad_bps = x->npaired > 0 ? median(bps, x->npaired) : NAN;
            x->solver = c / o->nthreads;
            x->threads = o->threads[c % o->nthreads];
            x->k_lo = u->k_lo;
            x->k_hi = u->k_hi;
            x->t_lo = median(t + 2 * c * R, R);
            x->t_hi = median(t + (2 * c + 1) * R, R);
            x->per_iter = (x->t_hi - x->t_lo) / (u->k_hi - u->k_lo);
            x->fallback = !(x->per_iter > 0.0);
            if (x->fallback) {
                x->per_iter = x->t_hi / u->k_hi;
            }
            printf("%9d %8d  %-10s %7d %5d %5d %12.4f %14.3e%s\n", nc,
                   ps[s].pk.bodies, SOLVER_NAMES[x->solver], x->threads,
                   u->k_lo, u->k_hi, 1e3 * x->per_iter, nc / x->per_iter,
                   x->fallback ? "  (t_hi/k_hi)" : "");
        }
        free(u->g);
        free(u->t);
        free(u->tt);
        rf_problem_destroy(u->p);
    }
    free(ratio);
    free(bps);
    return 0;
}

static const periter *find_periter(const periter_size *ps, int solver,
                                   int threads)
{
    for (int k = 0; k < ps->nr; ++k) {
        if (ps->r[k].solver == solver && ps->r[k].threads == threads) {
            return &ps->r[k];
        }
    }
    return NULL;
}

/* Least-squares slope of log(time per iteration) on log(contacts). */
static double scaling_slope(const periter_size *ps, int nsize, int solver,
                            int threads)
{
    double x[NSCALE], y[NSCALE], mx = 0.0, my = 0.0;
    for (int s = 0; s < nsize; ++s) {
        const periter *q = find_periter(&ps[s], solver, threads);
        x[s] = log((double)ps[s].pk.contacts);
        y[s] = log(q->per_iter);
        mx += x[s] / nsize;
        my += y[s] / nsize;
    }
    double sxy = 0.0, sxx = 0.0;
    for (int s = 0; s < nsize; ++s) {
        sxy += (x[s] - mx) * (y[s] - my);
        sxx += (x[s] - mx) * (x[s] - mx);
    }
    return sxx > 0.0 ? sxy / sxx : NAN;
}

/* ------------------------------------------------------------------ */
/* Convergence on the pile                                             */
/* ------------------------------------------------------------------ */

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

/* 1, 2, 3, 5, 8, ... (Fibonacci) below cap, then cap. */
static int conv_grid(int cap, int *k)
{
    int n = 0, a = 1, b = 2;
    while (a < cap && n < MAX_CONV - 1) {
        k[n++] = a;
        int c = a + b;
        a = b;
        b = c;
    }
    k[n++] = cap;
    return n;
}

static int run_convergence(const options *o, conv_out *co)
{
    rf_problem *p;
    rf_error err;
    if (rf_problem_create(&p, &err) != RF_OK) {
        return die(&err);
    }
    if (build_pile(p, o->pile_spheres, &co->pk)) {
        return 2;
    }
    const int nc = co->pk.contacts;
    co->threads = max_threads(o);
    co->cap = o->conv_cap;
    int grid[MAX_CONV];
    const int ngrid = conv_grid(o->conv_cap, grid);
    double *g = malloc(sizeof(double) * 6 * nc);
    rf_stats st;
    if (solve_fixed(p, RF_SOLVER_GS, co->threads, o->model, 1, g, &st)) {
        return 2; /* untimed: allocate the work memory */
    }
    for (int s = 0; s < NCONV; ++s) {
        const int solver = CONV_SOLVERS[s];
        int reached = 0;
        co->npts[s] = 0;
        for (int j = 0; j < ngrid; ++j) {
            if (solve_fixed(p, solver, co->threads, o->model, grid[j], g,
                            &st)) {
                return 2;
            }
            conv_point *pt = &co->pts[s][co->npts[s]++];
            pt->k = grid[j];
            pt->seconds = st.seconds;
            pt->residual = st.residual;
            reached |= st.residual <= CONV_TARGET;
            if (st.residual <= CONV_STOP) {
                break;
            }
        }
        co->reach_iters[s] = -1;
        co->reach_seconds[s] = NAN;
        co->reach_residual[s] = NAN;
        if (reached) {
            /* the first iteration at CONV_TARGET, as the solver's own
               tracker sees it (a residual every iteration) */
            rf_config cfg;
            rf_config_default(&cfg);
            cfg.solver = (rf_solver_kind)solver;
            cfg.threads = co->threads;
            cfg.model = o->model;
            cfg.tol = CONV_TARGET;
            cfg.max_iter = o->conv_cap;
            cfg.warm_start = 0;
            if (rf_solve(p, &cfg, g, &st, &err) != RF_OK) {
                return die(&err);
            }
            if (st.converged) {
                co->reach_iters[s] = st.iterations;
                co->reach_seconds[s] = st.seconds;
                co->reach_residual[s] = st.residual;
            }
        }
        const conv_point *last = &co->pts[s][co->npts[s] - 1];
        printf("  %-10s %3d points, last k %5d  %9.3f s  residual %.3e;  "
               "to %.0e: ",
               SOLVER_NAMES[solver], co->npts[s], last->k, last->seconds,
               last->residual, CONV_TARGET);
        if (co->reach_iters[s] >= 0) {
            printf("%d iterations, %.3f s\n", co->reach_iters[s],
                   co->reach_seconds[s]);
        } else {
            printf("not reached within %d\n", o->conv_cap);
        }
    }
    co->t4_cap = 0;
    const int apgd_iters = co->reach_iters[NCONV - 1];
    if (apgd_iters > 0 && co->reach_iters[0] < 0 &&
        5 * apgd_iters > o->conv_cap) {
        rf_config cfg;
        rf_config_default(&cfg);
        cfg.solver = RF_SOLVER_JACOBI;
        cfg.threads = co->threads;
        cfg.model = o->model;
        cfg.tol = CONV_TARGET;
        cfg.max_iter = 5 * apgd_iters;
        cfg.warm_start = 0;
        if (rf_solve(p, &cfg, g, &st, &err) != RF_OK) {
            return die(&err);
        }
        co->t4_cap = cfg.max_iter;
        co->t4_reached = st.converged;
        co->t4_iters = st.iterations;
        co->t4_residual = st.residual;
        co->t4_seconds = st.seconds;
        printf("  target 4: jacobi with cap 5 x %d = %d: %s, best residual "
               "%.3e, %.1f s\n",
               apgd_iters, co->t4_cap, st.converged ? "reached" : "not reached",
               st.residual, st.seconds);
    }
    free(g);
    rf_problem_destroy(p);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Solver state memory                                                 */
/* ------------------------------------------------------------------ */

typedef struct mem_out {
    pack_info pk;
    size_t reported[NSOLVER]; /* rf_problem_memory */
    long heap[NSOLVER];       /* heap growth, -1 when unknown */
} mem_out;

static long heap_in_use(void)
{
#ifdef RFBENCH_HEAP
    struct mallinfo2 mi = mallinfo2();
    return (long)(mi.uordblks + mi.hblkhd);
#else
    return -1;
#endif
}

/* Per solver: a fresh problem, built and solved for one iteration, then
   rf_problem_memory and the heap growth around it.  The problems stay
   alive until all are measured, so no freed chunk is reused (glibc counts
   chunks in its thread cache as in use). */
static int run_memory(const options *o, int size, mem_out *mo)
{
    rf_problem *ps[NSOLVER];
    /* gamma is the caller's: allocated before the first measurement */
    double *g = malloc(sizeof(double) * 6 * pack_contacts(pack_side(size), 4));
    for (int s = 0; s < NSOLVER; ++s) {
        rf_error err;
        const long h0 = heap_in_use();
        if (rf_problem_create(&ps[s], &err) != RF_OK) {
            return die(&err);
        }
        if (build_pack(ps[s], size, &mo->pk)) {
            return 2;
        }
        rf_stats st;
        if (solve_fixed(ps[s], s, max_threads(o), o->model, 1, g, &st)) {
            return 2;
        }
        const long h1 = heap_in_use();
        rf_config cfg;
        rf_config_default(&cfg);
        cfg.solver = (rf_solver_kind)s;
        mo->reported[s] = rf_problem_memory(ps[s], &cfg);
        /* no growth seen: another allocator (a sanitizer's) serves malloc */
        mo->heap[s] = h0 >= 0 && h1 > h0 ? h1 - h0 : -1;
        const double nc = mo->pk.contacts;
        printf("  %-10s %12zu bytes  %8.1f per contact", SOLVER_NAMES[s],
               mo->reported[s], (double)mo->reported[s] / nc);
        if (mo->heap[s] >= 0) {
            printf("  (heap grew %ld, %.1f per contact)", mo->heap[s],
                   (double)mo->heap[s] / nc);
        }
        printf("\n");
    }
    free(g);
    for (int s = 0; s < NSOLVER; ++s) {
        rf_problem_destroy(ps[s]);
    }
    return 0;
}

/* The itemised count of rf_problem_memory's documentation for a body-form
   problem without rows (rollfric.h), per category. */
typedef struct mem_item {
    const char *what;
    double bytes; /* total */
} mem_item;

static int memory_items(const pack_info *pk, int solver, mem_item *it)
{
    /* the dof vectors each solver reserves in body form (rollfric.h):
       Jacobi, GS, coloured GS, APGD */
    static const int NVEC[NSOLVER] = {9, 6, 6, 11};
    static const char *VEC_NAMES[NSOLVER] = {
        "work: 9 dof vectors (g0-g3, u0, u3, r, rs, best)",
        "work: 6 dof vectors (g0, g2, u0, u3, r, best)",
        "work: 6 dof vectors (g0, g2, u0, u3, r, best)",
        "work: 11 dof vectors (g0-g3, u0-u3, r, rs, best)"};
    const int gs = solver == 1 || solver == 2;
    const double nc = pk->contacts, nb = pk->bodies;
    const double nblk = ceil(nc / 256.0);
    int n = 0;
    it[n++] = (mem_item){"problem, per contact: con_body 2 int, con_frame 9 "
                         "double, con_arm 6, con_bias 6, mu/rho/sigma 3, "
                         "cohesion, normal_max, con_flags 1 int, con_set 1 "
                         "byte (221 B)",
                         221.0 * nc};
    it[n++] = (mem_item){"problem, per body: flags 1 int, inv_mass 3 double, "
                         "inv_inertia 9, free velocity 6, set 1 byte (149 B)",
                         149.0 * nb};
    it[n++] = (mem_item){VEC_NAMES[solver], /* 48 B per contact each */
                         8.0 * NVEC[solver] * (6.0 * nc + 1.0)};
    it[n++] = (mem_item){"work: world impulses cimp, 6 ncon + 1 double "
                         "(48 B per contact)",
                         8.0 * (6.0 * nc + 1.0)};
    it[n++] = (mem_item){"work, per contact + 1: wscale 4 double, wcone 4, "
                         "step 1 (72 B)",
                         72.0 * (nc + 1.0)};
    it[n++] = (mem_item){"work, per body + 1: bv0, bv1 6 double each, bc_ptr "
                         "1 int (100 B)",
                         100.0 * (nb + 1.0)};
    it[n++] = (mem_item){"work: body -> contacts index bc_ent, 2 ncon + 1 "
                         "int",
                         4.0 * (2.0 * nc + 1.0)};
    it[n++] = (mem_item){"work: reduction partials, 4 double per 256 "
                         "contacts + 4",
                         8.0 * (4.0 * nblk + 4.0)};
    if (gs) {
        it[n++] = (mem_item){"GS work, per contact + 1: wblk, wchol 36 double "
                             "each, chol_ok 1 byte (577 B)",
                             577.0 * (nc + 1.0)};
    }
    if (solver == 2) {
        it[n++] = (mem_item){"coloured GS work, per contact + 1: colouring 4 "
                             "int (16 B)",
                             16.0 * (nc + 1.0)};
    }
    return n;
}

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

/* A JSON number, null when not finite. */
static void json_num(FILE *f, double x)
{
    if (isfinite(x)) {
        fprintf(f, "%.6e", x);
    } else {
        fprintf(f, "null");
    }
}

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

static void write_results(FILE *f, const report *rp)
{
    const options *o = rp->o;
    const result *res = rp->res;
    const int n = rp->nres;
    fprintf(f, " \"results\":[\n");
    for (int i = 0; i < n; ++i) {
        const result *x = &res[i];
        fprintf(f,
                "  {\"contacts\":%d,\"bodies\":%d,\"solver\":\"%s\","
                "\"threads\":%d,\"median_seconds\":%.6e,"
                "\"contact_iterations_per_second\":%.6e,\"residual\":%.6e}%s\n",
                x->contacts, x->bodies, SOLVER_NAMES[x->solver], x->threads,
                x->median, (double)x->contacts * o->iters / x->median,
                x->residual, i + 1 < n ? "," : "");
    }
    fprintf(f, " ],\n \"speedup_over_1_thread\":[\n");
    int first = 1;
    for (int i = 0; i < n; ++i) {
        if (res[i].threads == 1) {
            continue;
        }
        for (int j = 0; j < n; ++j) {
            if (res[j].threads == 1 && res[j].contacts == res[i].contacts &&
                res[j].solver == res[i].solver) {
                fprintf(f,
                        "%s  {\"contacts\":%d,\"solver\":\"%s\","
                        "\"threads\":%d,\"ratio\":%.4f}",
                        first ? "" : ",\n", res[i].contacts,
                        SOLVER_NAMES[res[i].solver], res[i].threads,
                        res[j].median / res[i].median);
                first = 0;
            }
        }
    }
    fprintf(f, "\n ],\n");
}

static void write_stream(FILE *f, const stream_out *so)
{
    fprintf(f, " \"stream\":{\"kernel\":\"triad a[i] = b[i] + s*c[i], doubles, "
               "OpenMP static schedule, arrays first touched in the same "
               "partition\",\n"
               "  \"note\":\"bytes counted per element: 3 x 8 = 24 (read b, "
               "read c, write a; STREAM's convention). Write-allocate is NOT "
               "counted in bytes_per_second; "
               "bytes_per_second_with_write_allocate counts 4 x 8 = 32 (the "
               "read of a's line before the write). The roofline fractions "
               "use the 24-byte count, like the solvers' byte counts, which do "
               "not count write-allocate either.\",\n");
    fprintf(f,
            "  \"array_bytes\":%zu,\"arrays\":3,\"elements\":%zu,"
            "\"bytes_per_element_counted\":%.0f,"
            "\"write_allocate_counted\":false,\"repeats\":%d,"
            "\"last_level_cache_bytes_reported\":%ld,"
            "\"total_over_reported_llc\":",
            so->n * sizeof(double), so->n, TRIAD_BYTES, so->repeats,
            so->llc_bytes);
    json_num(f, so->llc_bytes > 0
                    ? 3.0 * (double)(so->n * sizeof(double)) / so->llc_bytes
                    : NAN);
    fprintf(f,
            ",\"llc_note\":\"the C library's L3 size (sysconf); a virtual "
            "machine may report the host's total, and one core reaches only "
            "its own slice\",\"checksum\":%.6e,\n  \"results\":[\n",
            so->checksum);
    for (int k = 0; k < so->nres; ++k) {
        const double n = (double)so->n;
        fprintf(f,
                "   {\"threads\":%d,\"median_seconds\":%.6e,"
                "\"best_seconds\":%.6e,\"bytes_per_second\":%.6e,"
                "\"bytes_per_second_with_write_allocate\":%.6e}%s\n",
                so->threads[k], so->median[k], so->best[k],
                TRIAD_BYTES * n / so->median[k],
                TRIAD_BYTES_WA * n / so->median[k],
                k + 1 < so->nres ? "," : "");
    }
    fprintf(f, "  ]},\n");
}

static void write_periter(FILE *f, const report *rp)
{
    fprintf(f, " \"per_iteration\":{\"note\":\"seconds per iteration = "
               "(median time of k_hi iterations - median time of k_lo) / "
               "(k_hi - k_lo), tol = 0, from zero, associated or --model; "
               "the set-up of a solve cancels. fallback: the difference "
               "was not positive (noise) and t_hi/k_hi is reported\",\n"
               "  \"results\":[\n");
    int first = 1;
    for (int s = 0; s < rp->nps; ++s) {
        const periter_size *ps = &rp->ps[s];
        for (int k = 0; k < ps->nr; ++k) {
            const periter *x = &ps->r[k];
            fprintf(f,
                    "%s   {\"contacts\":%d,\"bodies\":%d,\"solver\":\"%s\","
                    "\"threads\":%d,\"k_lo\":%d,\"k_hi\":%d,"
                    "\"median_seconds_k_lo\":%.6e,"
                    "\"median_seconds_k_hi\":%.6e,"
                    "\"seconds_per_iteration\":%.6e,"
                    "\"contact_iterations_per_second\":%.6e,"
                    "\"fallback\":%s}",
                    first ? "" : ",\n", ps->pk.contacts, ps->pk.bodies,
                    SOLVER_NAMES[x->solver], x->threads, x->k_lo, x->k_hi,
                    x->t_lo, x->t_hi, x->per_iter,
                    ps->pk.contacts / x->per_iter,
                    x->fallback ? "true" : "false");
            first = 0;
        }
    }
    fprintf(f, "\n  ]},\n");
}

static void write_scaling(FILE *f, const report *rp)
{
    const options *o = rp->o;
    fprintf(f, " \"scaling\":{\"target_slope\":1.0,\"tolerance\":0.1,");
    fprintf(f, "\"contacts\":[");
    for (int s = 0; s < rp->nps; ++s) {
        fprintf(f, "%s%d", s ? "," : "", rp->ps[s].pk.contacts);
    }
    fprintf(f,
            "],\n  \"note\":\"least-squares slope of log(seconds per "
            "iteration) on log(contacts) over the per_iteration "
            "sizes%s\",\n  \"results\":[\n",
            o->quick ? "; --quick: 3e4 instead of 1e5 contacts" : "");
    for (int sv = 0; sv < NSOLVER; ++sv) {
        for (int t = 0; t < o->nthreads; ++t) {
            const double slope =
                scaling_slope(rp->ps, rp->nps, sv, o->threads[t]);
            fprintf(f,
                    "   {\"solver\":\"%s\",\"threads\":%d,"
                    "\"seconds_per_iteration\":[",
                    SOLVER_NAMES[sv], o->threads[t]);
            for (int s = 0; s < rp->nps; ++s) {
                fprintf(f, "%s", s ? "," : "");
                json_num(f,
                         find_periter(&rp->ps[s], sv, o->threads[t])->per_iter);
            }
            fprintf(f, "],\"slope\":");
            json_num(f, slope);
            fprintf(f, ",\"within_target\":%s}%s\n",
                    fabs(slope - 1.0) <= 0.1 ? "true" : "false",
                    sv + 1 < NSOLVER || t + 1 < o->nthreads ? "," : "");
        }
    }
    fprintf(f, "  ]},\n");
}

static void write_roofline(FILE *f, const report *rp)
{
    const options *o = rp->o;
    const periter_size *ps = &rp->ps[rp->nps - 1];
    const pack_info *pk = &ps->pk;
    fprintf(f,
            " \"roofline\":{\"contacts\":%d,\"bodies\":%d,"
            "\"bodies_per_contact\":%.6f,"
            "\"index_entries_per_contact\":%.6f,\"target_fraction\":0.5,\n"
            "  \"size_note\":\"%s\",\n"
            "  \"note\":\"bytes_per_contact_iteration: the arrays one "
            "iteration of the solver reads and writes (plugin/ inner loops, "
            "body form, tol = 0), each element a pass touches counted once "
            "per pass, reads and writes alike, write-allocate not counted; "
            "per body bytes times bodies/contacts, per index entry bytes "
            "times entries/contacts. achieved = contact-iterations/s "
            "(per_iteration, largest size) x bytes_per_contact_iteration; "
            "fraction = achieved / stream bytes_per_second at the same "
            "thread count. fraction_paired: per repeat of the "
            "per_iteration solves, a triad at the same thread count runs "
            "just before them (warm: triads back to back for 0.1 s, then the "
            "median of 3); the repeat's achieved bytes/s over that "
            "triad's, median over the repeats (paired_repeats; a repeat "
            "whose k_hi - k_lo difference is not positive is left out): "
            "the machine's load moves both sides of the ratio. Items left "
            "out make the count, and so the fractions, a lower bound.\",\n"
            "  \"solvers\":[\n",
            pk->contacts, pk->bodies, (double)pk->bodies / pk->contacts,
            (double)pk->entries / pk->contacts,
            o->quick ? "--quick: the 3e4-contact pack, not the issue's 1e5"
                     : "the 1e5-contact pack (the issue's target size)");
    for (int s = 0; s < NSOLVER; ++s) {
        double pc, pb, pe;
        const double bytes = traffic_bytes(s, pk, &pc, &pb, &pe);
        fprintf(f,
                "   {\"solver\":\"%s\",\"bytes_per_contact_iteration\":%.3f,"
                "\"bytes_per_contact\":%.0f,\"bytes_per_body\":%.0f,"
                "\"bytes_per_index_entry\":%.0f,\n"
                "    \"not_counted\":\"%s\",\n    \"arrays\":[\n",
                SOLVER_NAMES[s], bytes, pc, pb, pe, TRAFFIC[s].not_counted);
        for (int k = 0; k < TRAFFIC[s].n; ++k) {
            const traffic *t = &TRAFFIC[s].t[k];
            fprintf(f,
                    "     {\"pass\":\"%s\",\"array\":\"%s\",\"per\":\"%s\","
                    "\"bytes\":%d,\"access\":\"%s\"}%s\n",
                    t->pass, t->array, PER_NAMES[t->per], t->bytes,
                    t->write ? "write" : "read",
                    k + 1 < TRAFFIC[s].n ? "," : "");
        }
        fprintf(f, "    ],\n    \"results\":[\n");
        for (int t = 0; t < o->nthreads; ++t) {
            const periter *x = find_periter(ps, s, o->threads[t]);
            const double cis = pk->contacts / x->per_iter;
            const double probe = stream_rate(rp->so, o->threads[t]);
            fprintf(f,
                    "     {\"threads\":%d,"
                    "\"contact_iterations_per_second\":%.6e,"
                    "\"achieved_bytes_per_second\":%.6e,"
                    "\"probe_bytes_per_second\":",
                    o->threads[t], cis, cis * bytes);
            json_num(f, probe);
            fprintf(f, ",\"fraction\":");
            json_num(f, cis * bytes / probe);
            fprintf(f,
                    ",\"paired_repeats\":%d,\"paired_probe_bytes_per_"
                    "second\":",
                    x->npaired);
            json_num(f, x->triad_bps);
            fprintf(f, ",\"fraction_paired\":");
            json_num(f, bytes * x->cit_per_triad_byte);
            fprintf(f, "}%s\n", t + 1 < o->nthreads ? "," : "");
        }
        fprintf(f, "    ]}%s\n", s + 1 < NSOLVER ? "," : "");
    }
    fprintf(f, "  ]},\n");
}

static void write_convergence(FILE *f, const report *rp)
{
    const options *o = rp->o;
    const conv_out *co = rp->co;
    fprintf(f,
            " \"convergence\":{\"pile\":{\"spheres\":%d,\"contacts\":%d,"
            "\"layers\":%d,\"side\":%d},\n"
            "  \"pile_note\":\"%s\",\n"
            "  \"note\":\"residual = what rf_solve reports (rf_residual's "
            "measure) after exactly k iterations (tol = 0, cold start, one "
            "solve per point: Jacobi and GS return the last iterate, APGD "
            "its best); seconds = that solve's wall time, set-up included. "
            "k on a Fibonacci grid up to cap; a solver's grid stops at the "
            "first residual <= %.0e. iterations_to_target: a solve with tol "
            "= %.0e (a residual every iteration), run when some grid point "
            "reached the target; null when none did within cap.\",\n"
            "  \"model\":\"%s\",\"threads\":%d,\"cap\":%d,\"target\":%.1e,"
            "\"csv\":\"%s\",\n  \"curves\":[\n",
            co->pk.bodies, co->pk.contacts, co->pk.layers, co->pk.side,
            o->quick ? "--quick: a smaller pack than the issue's 20k pile"
                     : "the 20k pile (nearest 4 x side^2 to 20000 spheres)",
            CONV_STOP, CONV_TARGET,
            o->model == RF_MODEL_DESAXCE ? "desaxce" : "associated",
            co->threads, co->cap, CONV_TARGET, rp->csv);
    for (int s = 0; s < NCONV; ++s) {
        fprintf(f,
                "   {\"solver\":\"%s\",\"columns\":[\"iterations\","
                "\"seconds\",\"residual\"],\"points\":[",
                SOLVER_NAMES[CONV_SOLVERS[s]]);
        for (int j = 0; j < co->npts[s]; ++j) {
            const conv_point *pt = &co->pts[s][j];
            fprintf(f, "%s[%d,%.6e,", j ? "," : "", pt->k, pt->seconds);
            json_num(f, pt->residual);
            fprintf(f, "]");
        }
        fprintf(f, "],\n    \"iterations_to_target\":");
        if (co->reach_iters[s] >= 0) {
            fprintf(f, "%d,\"seconds_to_target\":%.6e,\"reached\":true}",
                    co->reach_iters[s], co->reach_seconds[s]);
        } else {
            fprintf(f, "null,\"seconds_to_target\":null,\"reached\":false,"
                       "\"reason\":\"not reached within cap\"}");
        }
        fprintf(f, "%s\n", s + 1 < NCONV ? "," : "");
    }
    /* APGD over Jacobi (CONV_SOLVERS: 0 Jacobi, 2 APGD).  When Jacobi
       does not reach the target within its cap (the grid's, or the
       target-4 run's 5 x APGD's count), its count exceeds that cap and
       APGD / cap bounds the ratio from above. */
    int ja = co->reach_iters[0];
    const int ap = co->reach_iters[2];
    int jcap = co->cap;
    if (co->t4_cap > 0) {
        jcap = co->t4_cap;
        ja = co->t4_reached ? co->t4_iters : -1;
    }
    fprintf(f, "  ],\n  \"apgd_over_jacobi\":{\"target\":0.2,\"ratio\":");
    if (ja > 0 && ap >= 0) {
        fprintf(f, "%.6f,\"upper_bound\":null,\"target_met\":%s",
                (double)ap / ja, ap * 5 <= ja ? "true" : "false");
    } else if (ap >= 0) {
        fprintf(f,
                "null,\"upper_bound\":%.6f,\"target_met\":%s,\"note\":"
                "\"Jacobi did not reach the target within %d iterations\"",
                (double)ap / jcap, ap * 5 <= jcap ? "true" : "null", jcap);
    } else {
        fprintf(f, "null,\"upper_bound\":null,\"target_met\":null,"
                   "\"note\":\"APGD did not reach the target within cap\"");
    }
    if (co->t4_cap > 0) {
        fprintf(f,
                ",\n   \"jacobi_long_run\":{\"max_iter\":%d,\"tol\":%.0e,"
                "\"reached\":%s,\"iterations\":%d,\"best_residual\":",
                co->t4_cap, CONV_TARGET, co->t4_reached ? "true" : "false",
                co->t4_iters);
        json_num(f, co->t4_residual);
        fprintf(f, ",\"seconds\":%.3f}", co->t4_seconds);
    }
    fprintf(f, "}},\n");
}

static void write_memory(FILE *f, const report *rp)
{
    const mem_out *mo = rp->mo;
    const double nc = mo->pk.contacts;
    fprintf(f,
            " \"memory\":{\"function\":\"rf_problem_memory\","
            "\"contacts\":%d,\"bodies\":%d,\"target_bytes_per_contact\":512,"
            "\n  \"note\":\"bytes the problem's arrays and the work memory "
            "of rf_solve with that solver hold at this size (a fresh "
            "problem after one solve), over the contacts: bodies and "
            "constants amortised. heap_growth: glibc mallinfo2 (uordblks + "
            "hblkhd) before create and after build + solve, allocator "
            "headers and page rounding included; null when unavailable. "
            "Not counted: the caller's gamma (48 B per contact), the "
            "OpenMP runtime.\",\n  \"results\":[\n",
            mo->pk.contacts, mo->pk.bodies);
    for (int s = 0; s < NSOLVER; ++s) {
        mem_item it[16];
        const int n = memory_items(&mo->pk, s, it);
        double sum = 0.0;
        for (int k = 0; k < n; ++k) {
            sum += it[k].bytes;
        }
        fprintf(f,
                "   {\"solver\":\"%s\",\"bytes\":%zu,"
                "\"bytes_per_contact\":%.3f,\"within_target\":%s,"
                "\"heap_growth_bytes\":",
                SOLVER_NAMES[s], mo->reported[s], mo->reported[s] / nc,
                mo->reported[s] / nc <= 512.0 ? "true" : "false");
        if (mo->heap[s] >= 0) {
            fprintf(f, "%ld", mo->heap[s]);
        } else {
            fprintf(f, "null");
        }
        /* the itemised layout leaves out only the rf_problem struct */
        fprintf(f,
                ",\"itemised_bytes\":%.0f,\"struct_and_rest_bytes\":%.0f,"
                "\n    \"counted\":[\n",
                sum, (double)mo->reported[s] - sum);
        for (int k = 0; k < n; ++k) {
            fprintf(f,
                    "     {\"what\":\"%s\",\"bytes\":%.0f,"
                    "\"bytes_per_contact\":%.3f}%s\n",
                    it[k].what, it[k].bytes, it[k].bytes / nc,
                    k + 1 < n ? "," : "");
        }
        fprintf(f, "    ]}%s\n", s + 1 < NSOLVER ? "," : "");
    }
    fprintf(f, "  ]}\n");
}

static void write_json(FILE *f, const report *rp)
{
    const options *o = rp->o;
    int omp_max = 1;
#ifdef _OPENMP
    omp_max = omp_get_max_threads();
#endif
    fprintf(f, "{\"benchmark\":\"rfbench\",\"version\":\"%s\",\n",
            rf_version());
    fprintf(f, " \"machine\":{\"omp_max_threads\":%d},\n", omp_max);
    fprintf(f,
            " \"model\":\"%s\",\"iterations\":%d,\"repeats\":%d,"
            "\"quick\":%s,\"wall_seconds\":%.3f,\n",
            o->model == RF_MODEL_DESAXCE ? "desaxce" : "associated", o->iters,
            o->repeats, o->quick ? "true" : "false", rp->wall_seconds);
    write_results(f, rp);
    write_stream(f, rp->so);
    write_periter(f, rp);
    write_scaling(f, rp);
    write_roofline(f, rp);
    write_convergence(f, rp);
    write_memory(f, rp);
    fprintf(f, "}\n");
}

static int write_csv(const char *path, const conv_out *co)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "rfbench: cannot write %s\n", path);
        return 2;
    }
    fprintf(f, "solver,iterations,seconds,residual\n");
    for (int s = 0; s < NCONV; ++s) {
        for (int j = 0; j < co->npts[s]; ++j) {
            const conv_point *pt = &co->pts[s][j];
            fprintf(f, "%s,%d,%.6e,%.6e\n", SOLVER_NAMES[CONV_SOLVERS[s]],
                    pt->k, pt->seconds, pt->residual);
        }
    }
    fclose(f);
    return 0;
}

/* The per-iteration times as CSV (solver,threads,contacts,
   seconds_per_iteration): the scaling plot of scripts/bench.sh. */
static int write_scaling_csv(const char *path, const report *rp)
{
    const options *o = rp->o;
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "rfbench: cannot write %s\n", path);
        return 2;
    }
    fprintf(f, "solver,threads,contacts,seconds_per_iteration\n");
    for (int sv = 0; sv < NSOLVER; ++sv) {
        for (int t = 0; t < o->nthreads; ++t) {
            for (int s = 0; s < rp->nps; ++s) {
                fprintf(f, "%s,%d,%d,%.6e\n", SOLVER_NAMES[sv], o->threads[t],
                        rp->ps[s].pk.contacts,
                        find_periter(&rp->ps[s], sv, o->threads[t])->per_iter);
            }
        }
    }
    fclose(f);
    return 0;
}

/* out's stem (without a trailing .json) + "-<what>.csv". */
static void csv_path(const char *out, const char *what, char *buf, size_t size)
{
    size_t n = strlen(out);
    if (n >= 5 && strcmp(out + n - 5, ".json") == 0) {
        n -= 5;
    }
    snprintf(buf, size, "%.*s-%s.csv", (int)n, out, what);
}

static void print_roofline(const report *rp)
{
    const options *o = rp->o;
    const periter_size *ps = &rp->ps[rp->nps - 1];
    printf("\nroofline at %d contacts%s (bytes/contact-iteration from the "
           "solvers' arrays, triad bytes/s; target >= 0.5)\n",
           ps->pk.contacts, o->quick ? " (--quick: not the issue's 1e5)" : "");
    printf("  %-10s %7s %10s %14s %14s %14s %8s %8s\n", "solver", "threads",
           "B/c-it", "contact-it/s", "achieved B/s", "triad B/s", "fraction",
           "paired");
    for (int s = 0; s < NSOLVER; ++s) {
        double pc, pb, pe;
        const double bytes = traffic_bytes(s, &ps->pk, &pc, &pb, &pe);
        for (int t = 0; t < o->nthreads; ++t) {
            const periter *x = find_periter(ps, s, o->threads[t]);
            const double cis = ps->pk.contacts / x->per_iter;
            const double probe = stream_rate(rp->so, o->threads[t]);
            printf("  %-10s %7d %10.1f %14.3e %14.3e %14.3e %8.3f %8.3f\n",
                   SOLVER_NAMES[s], o->threads[t], bytes, cis, cis * bytes,
                   probe, cis * bytes / probe, bytes * x->cit_per_triad_byte);
        }
    }
    printf("  (paired: the median over repeats of each repeat's fraction, "
           "with a triad run just before its solves)\n");
    printf("\nscaling: slope of log(s/iteration) on log(contacts) over");
    for (int s = 0; s < rp->nps; ++s) {
        printf(" %d", rp->ps[s].pk.contacts);
    }
    printf(" (target 1.0 +- 0.1)\n");
    for (int sv = 0; sv < NSOLVER; ++sv) {
        printf("  %-10s", SOLVER_NAMES[sv]);
        for (int t = 0; t < o->nthreads; ++t) {
            printf("  %d thread%s %6.3f", o->threads[t],
                   o->threads[t] > 1 ? "s" : " ",
                   scaling_slope(rp->ps, rp->nps, sv, o->threads[t]));
        }
        printf("\n");
    }
}

/* Print the wall time since *t and restart it. */
static void section_done(double *t)
{
    const double now = now_seconds();
    printf("  (%.1f s)\n", now - *t);
    fflush(stdout); /* progress shows in a log or under ctest */
    *t = now;
}

int main(int argc, char **argv)
{
    options o;
    if (!parse_args(argc, argv, &o)) {
        return 2;
    }
    const double t_start = now_seconds();
    double t_sec = t_start;
    result *res = malloc(sizeof(result) * NSOLVER * MAX_LIST * MAX_LIST);
    int n = 0;
    printf("%9s %8s  %-10s %7s %12s %14s %11s\n", "contacts", "bodies",
           "solver", "threads", "median ms", "contact-it/s", "residual");
    for (int s = 0; s < o.nsizes; ++s) {
        if (run_size(&o, o.sizes[s], res, &n)) {
            return 2;
        }
    }
    section_done(&t_sec);

    stream_out so;
    if (run_stream(&o, &so)) {
        return 2;
    }
    printf("\ntriad a = b + s c, 3 arrays of %zu MiB (24 B per element "
           "counted, write-allocate not counted)\n",
           so.n * sizeof(double) >> 20);
    for (int k = 0; k < so.nres; ++k) {
        printf("  %d thread%s  %.3e B/s (median of %d; %.3e with "
               "write-allocate)\n",
               so.threads[k], so.threads[k] > 1 ? "s" : " ",
               stream_rate(&so, so.threads[k]), so.repeats,
               TRIAD_BYTES_WA * (double)so.n / so.median[k]);
    }
    section_done(&t_sec);

    const int scale_sizes[NSCALE] = {1000, 10000, o.quick ? 30000 : 100000};
    static periter_size ps[NSCALE];
    printf("\nper iteration (median over %d; (t(k_hi) - t(k_lo)) / (k_hi - "
           "k_lo))\n",
           o.repeats);
    printf("%9s %8s  %-10s %7s %5s %5s %12s %14s\n", "contacts", "bodies",
           "solver", "threads", "k_lo", "k_hi", "ms/iter", "contact-it/s");
    triad_arrays tri; /* paired triads at the roofline size */
    if (triad_alloc(&o, &tri)) {
        return 2;
    }
    if (run_periter(&o, scale_sizes, NSCALE, ps, &tri)) {
        return 2;
    }
    triad_free(&tri);
    section_done(&t_sec);

    static conv_out co;
    printf("\nconvergence on the pile (%d spheres asked; cap %d; cold start, "
           "%d threads)\n",
           o.pile_spheres, o.conv_cap, max_threads(&o));
    if (run_convergence(&o, &co)) {
        return 2;
    }
    section_done(&t_sec);

    mem_out mo;
    printf("\nsolver state (rf_problem_memory) on the %d-contact pack "
           "(target <= 512 B per contact)\n",
           ps[NSCALE - 1].pk.contacts);
    if (run_memory(&o, scale_sizes[NSCALE - 1], &mo)) {
        return 2;
    }
    section_done(&t_sec);

    char csv[1100];
    csv_path(o.out, "convergence", csv, sizeof csv);
    report rp = {&o,     res, n,   &so, ps,
                 NSCALE, &co, &mo, csv, now_seconds() - t_start};
    print_roofline(&rp);
    {
        const int ja = co.reach_iters[0], ap = co.reach_iters[2];
        printf("\nAPGD / Jacobi iterations to %.0e (target <= 0.2): ",
               CONV_TARGET);
        if (ja > 0 && ap >= 0) {
            printf("%d / %d = %.3f\n", ap, ja, (double)ap / ja);
        } else if (ap >= 0) {
            printf("%d / (> %d) < %.3f (Jacobi did not reach it)\n", ap, co.cap,
                   (double)ap / co.cap);
        } else {
            printf("APGD did not reach it within %d\n", co.cap);
        }
    }

    make_parents(o.out);
    FILE *f = fopen(o.out, "w");
    if (f == NULL) {
        fprintf(stderr, "rfbench: cannot write %s\n", o.out);
        return 2;
    }
    write_json(f, &rp);
    fclose(f);
    char scsv[1024];
    csv_path(o.out, "scaling", scsv, sizeof scsv);
    if (write_csv(csv, &co) || write_scaling_csv(scsv, &rp)) {
        return 2;
    }
    free(res);
    printf("wrote %s, %s and %s\n", o.out, csv, scsv);
    return 0;
}
