/*
 * rfbench, section "convergence": residual against iterations on the
 * pile.
 */
#include "rfbench.h"

#include <math.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* Convergence on the pile                                             */
/* ------------------------------------------------------------------ */

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

int run_convergence(const options *o, conv_out *co)
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
