/*
 * rfbench: solver throughput on a synthetic granular pack (not a test).
 *
 * Scene: spheres of radius 0.1 m and density 2500 kg/m^3 in a square
 * column of layers; every sphere touches the one below it (or the ground,
 * RF_WORLD) and its +x and +z grid neighbours, about 3 contacts per
 * sphere.  Free velocities carry one gravity step (h = 1/60 s) and a small
 * deterministic perturbation; mu = 0.5, rho = sigma = 0.01 m.
 *
 * For each size, solver and thread count the solve runs a fixed number of
 * iterations (tol = 0) from zero, repeated R times with the
 * configurations interleaved (repeat loop outermost) so machine noise
 * hits all of them alike; the median time is reported as
 * contact-iterations per second, plus the 2-over-1-thread ratio from the
 * same run.  JSON goes to --out, a table to stdout.
 */
#include "rollfric/rollfric.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define MAX_LIST 16

static const char *SOLVER_NAMES[] = {"jacobi", "gs", "gs-colored", "apgd"};

typedef struct options {
    int sizes[MAX_LIST], nsizes;
    int threads[MAX_LIST], nthreads;
    int iters, repeats;
    rf_model model;
    const char *out;
} options;

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

/* Build a pack of about `target` contacts into p. */
static int build_pack(rf_problem *p, long target, int *nbody_out)
{
    const int layers = 4;
    int side = 2;
    while (pack_contacts(side + 1, layers) <= target) {
        ++side;
    }
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
    int i = 0;
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
                    if (rf_problem_set_contact(p, i++, &c, &err) != RF_OK) {
                        return die(&err);
                    }
                }
            }
        }
    }
    *nbody_out = nb;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
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
    int quick = 0, repeats_set = 0, sizes_set = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
        int ok = 1;
        if (strcmp(a, "--quick") == 0) {
            quick = 1;
            continue;
        } else if (strcmp(a, "--help") == 0) {
            printf("usage: rfbench [--quick] [--sizes N,N,...] "
                   "[--threads T,T,...] [--iters K] [--repeats R]\n"
                   "               [--model associated|desaxce] [--out FILE]\n"
                   "defaults: sizes 10000,100000 (quick 2000,10000), threads "
                   "1,2, iters 50, repeats 5 (quick 3)\n");
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
        } else {
            ok = 0;
        }
        if (!ok) {
            fprintf(stderr, "rfbench: bad argument %s %s (see --help)\n", a, v);
            return 0;
        }
        ++i;
    }
    if (quick) {
        if (!sizes_set) {
            o->sizes[0] = 2000;
            o->sizes[1] = 10000;
        }
        if (!repeats_set) {
            o->repeats = 3;
        }
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
    int nb = 0;
    if (build_pack(p, size, &nb)) {
        return 2;
    }
    const int nc = rf_problem_num_contacts(p);
    const int ncfg = 4 * o->nthreads;
    double *times = malloc(sizeof(double) * ncfg * o->repeats);
    double *resid = malloc(sizeof(double) * ncfg);
    double *g = malloc(sizeof(double) * 6 * nc);
    for (int r = 0; r < o->repeats; ++r) {
        for (int c = 0; c < ncfg; ++c) {
            rf_config cfg;
            rf_config_default(&cfg);
            cfg.solver = (rf_solver_kind)(c / o->nthreads);
            cfg.threads = o->threads[c % o->nthreads];
            cfg.model = o->model;
            cfg.tol = 0.0;
            cfg.max_iter = o->iters;
            cfg.warm_start = 0;
            rf_stats st;
            if (rf_solve(p, &cfg, g, &st, &err) != RF_OK) {
                return die(&err);
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

static void write_json(FILE *f, const options *o, const result *res, int n)
{
    int omp_max = 1;
#ifdef _OPENMP
    omp_max = omp_get_max_threads();
#endif
    fprintf(f, "{\"benchmark\":\"rfbench\",\"version\":\"%s\",\n",
            rf_version());
    fprintf(f, " \"machine\":{\"omp_max_threads\":%d},\n", omp_max);
    fprintf(f, " \"model\":\"%s\",\"iterations\":%d,\"repeats\":%d,\n",
            o->model == RF_MODEL_DESAXCE ? "desaxce" : "associated", o->iters,
            o->repeats);
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
    fprintf(f, "\n ]}\n");
}

int main(int argc, char **argv)
{
    options o;
    if (!parse_args(argc, argv, &o)) {
        return 2;
    }
    result *res = malloc(sizeof(result) * 4 * MAX_LIST * MAX_LIST);
    int n = 0;
    printf("%9s %8s  %-10s %7s %12s %14s %11s\n", "contacts", "bodies",
           "solver", "threads", "median ms", "contact-it/s", "residual");
    for (int s = 0; s < o.nsizes; ++s) {
        if (run_size(&o, o.sizes[s], res, &n)) {
            return 2;
        }
    }
    make_parents(o.out);
    FILE *f = fopen(o.out, "w");
    if (f == NULL) {
        fprintf(stderr, "rfbench: cannot write %s\n", o.out);
        return 2;
    }
    write_json(f, &o, res, n);
    fclose(f);
    free(res);
    printf("wrote %s\n", o.out);
    return 0;
}
