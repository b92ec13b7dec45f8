/*
 * rfbench, sections "per_iteration" and "scaling" (time per
 * iteration at three sizes, the slope over them), and the roofline
 * and scaling tables on stdout.
 */
#include "rfbench.h"

#include <math.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* Time per iteration (scaling, roofline)                              */
/* ------------------------------------------------------------------ */

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
int run_periter(const options *o, const int *sizes, int nsize, periter_size *ps,
                const triad_arrays *tri)
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

const periter *find_periter(const periter_size *ps, int solver, int threads)
{
    for (int k = 0; k < ps->nr; ++k) {
        if (ps->r[k].solver == solver && ps->r[k].threads == threads) {
            return &ps->r[k];
        }
    }
    return NULL;
}

/* Least-squares slope of log(time per iteration) on log(contacts). */
double scaling_slope(const periter_size *ps, int nsize, int solver, int threads)
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

void print_roofline(const report *rp)
{
    const options *o = rp->o;
    const periter_size *ps = &rp->ps[rp->nps - 1];
    printf("\nroofline at %d contacts%s (bytes/contact-iteration from the "
           "solvers' arrays, triad bytes/s; target >= 0.5)\n",
           ps->pk.contacts, o->quick ? " (--quick: not the issue's 1e5)" : "");
    printf("  (bytes per contact-iteration: a model, counted from the arrays "
           "each pass reads and writes (rfbench_traffic.c), not measured)\n");
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
