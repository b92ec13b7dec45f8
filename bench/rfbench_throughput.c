/*
 * rfbench, section "results": throughput at a fixed iteration count
 * per size, solver and thread count.
 */
#include "rfbench.h"

#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* Throughput at fixed iterations (the original section)               */
/* ------------------------------------------------------------------ */

int run_size(const options *o, int size, result *res, int *nres)
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
