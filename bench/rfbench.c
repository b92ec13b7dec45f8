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
 *                solver's iteration reads and writes (a model, not a
 *                measurement: the tables of rfbench_traffic.c),
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
 *
 * This file has main and the argument parsing; the scene, the triad, the
 * byte-count model, the sections and the JSON writer are in the other
 * rfbench_*.c files (rfbench.h lists them).
 */
#include "rfbench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
