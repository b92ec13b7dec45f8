/*
 * rfbench: shared helpers (rfbench.h): the solver names, the clock,
 * the median, error reports and the fixed-iteration solve.
 */
#include "rfbench.h"

#include <stdlib.h>
#include <time.h>

const char *SOLVER_NAMES[] = {"jacobi", "gs", "gs-colored", "apgd"};

/* Convergence: Jacobi, Gauss-Seidel and APGD. */
const int CONV_SOLVERS[] = {RF_SOLVER_JACOBI, RF_SOLVER_GS, RF_SOLVER_APGD};

double now_seconds(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int die(const rf_error *err)
{
    fprintf(stderr, "rfbench: %s\n", err->message);
    return 2;
}

int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n values (sorts them). */
double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int max_threads(const options *o)
{
    int t = 1;
    for (int k = 0; k < o->nthreads; ++k) {
        t = o->threads[k] > t ? o->threads[k] : t;
    }
    return t;
}

/* A solve from zero with tol = 0 (exactly max_iter iterations). */
int solve_fixed(rf_problem *p, int solver, int threads, rf_model model,
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
