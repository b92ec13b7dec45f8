/*
 * rfbench, section "memory": rf_problem_memory per solver, itemised, and
 * the heap growth glibc reports.
 */
#include "rfbench.h"

#include <math.h>
#include <stdlib.h>
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
#include <malloc.h>
#define RFBENCH_HEAP 1
#endif

/* ------------------------------------------------------------------ */
/* Solver state memory                                                 */
/* ------------------------------------------------------------------ */

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
int run_memory(const options *o, int size, mem_out *mo)
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

int memory_items(const pack_info *pk, int solver, mem_item *it)
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
