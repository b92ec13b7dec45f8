/*
 * rf_problem_memory: the bytes a problem and its solver work hold.
 *
 * The expected counts are derived here from the layout documented in
 * rollfric.h (221 bytes per contact, 149 per body and per row, the dof
 * vectors each solver uses (APGD 11, Jacobi 9, Gauss-Seidel 6, one more
 * for APGD and Jacobi in local form), 72 per item, 100 per body, the body ->
 * items index, the reduction partials, 577 per contact for Gauss-Seidel,
 * 16 per item for coloured Gauss-Seidel's colouring, in body form 6 ncon +
 * 1 doubles of world impulses),
 * written as literal numbers so that a change in the code or in the
 * documentation shows up.  Where glibc's mallinfo2 is available (and not
 * replaced by a sanitizer's allocator) the count is also compared with the heap
 * growth of a fresh problem built and solved once.
 */
#include "problem_gen.h"

#include <stdio.h>
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
#include <malloc.h>
#define RF_TEST_HEAP 1
#endif

#define RF_TEST_BLOCK 256 /* RF_REDUCE_BLOCK, the reduction block */

/* Work memory of a solver that uses nvec dof vectors, for ncon contacts,
   nrow rows, nbody bodies (documented layout). */
static size_t expected_work(size_t nvec, size_t ncon, size_t nrow, size_t nbody)
{
    const size_t ndof = 6 * ncon + nrow, nitem = ncon + nrow;
    const size_t nblk = (nitem + RF_TEST_BLOCK - 1) / RF_TEST_BLOCK;
    return nvec * 8 * (ndof + 1) + 72 * (nitem + 1) + 100 * (nbody + 1) +
           4 * (2 * nitem + 1) + 8 * (4 * nblk + 4);
}

/* A body-form problem: nb bodies (body 0 fixed), contacts between
   neighbours and with the world, nrow bilateral rows; with `compliant`
   every other contact has a normal compliance. */
static int build_body_c(rf_problem *p, int nb, int nc, int nrow, int compliant)
{
    rf_rng r = {7};
    ENSURE(rf_problem_begin_bodies(p, nb, nc, NULL) == RF_OK);
    for (int b = 0; b < nb; ++b) {
        rf_body_desc bd;
        gen_body(&r, &bd, NULL);
        if (b == 0) {
            bd.flags = RF_BODY_FIXED;
        }
        ENSURE(rf_problem_set_body(p, b, &bd, NULL) == RF_OK);
    }
    for (int i = 0; i < nc; ++i) {
        rf_contact_desc c;
        const int a = 1 + i % (nb - 1);
        gen_contact(&r, a, i % 3 == 0 ? RF_WORLD : (a + 1) % nb, &c);
        c.compliance[0] = compliant && i % 2 ? 1e-3 : 0.0;
        ENSURE(rf_problem_set_contact(p, i, &c, NULL) == RF_OK);
    }
    if (nrow > 0) {
        ENSURE(rf_problem_begin_rows(p, nrow, NULL) == RF_OK);
        for (int j = 0; j < nrow; ++j) {
            rf_row_desc row;
            memset(&row, 0, sizeof row);
            row.body_a = 1 + j % (nb - 1);
            row.body_b = RF_WORLD;
            row.lin_a[j % 3] = 1.0;
            row.lo = -INFINITY;
            row.hi = INFINITY;
            row.cfm = 1e-3;
            row.bound_row = -1;
            ENSURE(rf_problem_set_row(p, j, &row, NULL) == RF_OK);
        }
    }
    return 0;
}

static int build_body(rf_problem *p, int nb, int nc, int nrow)
{
    return build_body_c(p, nb, nc, nrow, 0);
}

static int test_null_and_empty(void)
{
    ENSURE(rf_problem_memory(NULL, NULL) == 0);
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    const size_t empty = rf_problem_memory(p, NULL);
    printf("  empty problem: %zu bytes\n", empty);
    /* the struct only: more than a few pointers, less than a page */
    ENSURE(empty >= 64 && empty < 4096);
    rf_problem_destroy(p);
    return 0;
}

static int test_body_form(void)
{
    const int nb = 6, nc = 40, nrow = 3;
    for (int with_rows = 0; with_rows < 2; ++with_rows) {
        rf_problem *p;
        ENSURE(rf_problem_create(&p, NULL) == RF_OK);
        const size_t base = rf_problem_memory(p, NULL);
        const int nr = with_rows ? nrow : 0;
        if (build_body(p, nb, nc, nr)) {
            return 1;
        }
        const size_t problem =
            221 * (size_t)nc + 149 * (size_t)nb + 149 * (size_t)nr;
        /* + the body form's world impulses, 6 ncon + 1 doubles, and
           rf_problem_solved_velocity's copies of gamma and the bodies'
           velocities, ndof + 1 and 6 nbody + 1 doubles */
        const size_t work =
            expected_work(11, nc, nr, nb) + 8 * (size_t)(6 * nc + 1) +
            8 * (size_t)(6 * nc + nr + 1) + 8 * (size_t)(6 * nb + 1);
        rf_config cfg;
        rf_config_default(&cfg);
        const size_t apgd = rf_problem_memory(p, &cfg);
        ENSURE(rf_problem_memory(p, NULL) == apgd);
        cfg.solver = RF_SOLVER_JACOBI;
        const size_t jacobi = rf_problem_memory(p, &cfg);
        cfg.solver = RF_SOLVER_GS;
        const size_t gs = rf_problem_memory(p, &cfg);
        cfg.solver = RF_SOLVER_GS_COLORED;
        const size_t gsc = rf_problem_memory(p, &cfg);
        printf("  body form, %d contacts, %d rows, %d bodies: apgd %zu, gs "
               "%zu bytes (%.1f, %.1f per contact)\n",
               nc, nr, nb, apgd, gs, (double)apgd / nc, (double)gs / nc);
        const size_t vec = 8 * (size_t)(6 * nc + nr + 1); /* one vector */
        ENSURE(apgd == base + problem + work);
        ENSURE(jacobi == apgd - 2 * vec);
        ENSURE(gs == apgd - 5 * vec + 577 * (size_t)(nc + 1));
        /* + the colouring, 4 ints per item + 1 */
        ENSURE(gsc == gs + 16 * (size_t)(nc + nr + 1));
        rf_problem_destroy(p);
    }
    return 0;
}

/* Local form: W with the 6x6 identity blocks on the diagonal and one
   off-diagonal pair coupling contact 0 and 1 (nnz 6 ncon + 2). */
static int test_local_form(void)
{
    const int nc = 3, m = 6 * nc, nnz = m + 2;
    int row_ptr[6 * 3 + 1], col[6 * 3 + 2];
    double val[6 * 3 + 2], q[6 * 3], mu[3] = {0.5, 0.5, 0.5};
    double rho[3] = {0.1, 0.1, 0.1}, sigma[3] = {0.1, 0.1, 0.1};
    int k = 0;
    for (int r = 0; r < m; ++r) {
        row_ptr[r] = k;
        if (r == 6) { /* (6, 0) before the diagonal, columns sorted */
            col[k] = 0;
            val[k++] = 0.1;
        }
        col[k] = r;
        val[k++] = 1.0;
        if (r == 0) {
            col[k] = 6;
            val[k++] = 0.1;
        }
        q[r] = r % 6 == 0 ? -1.0 : 0.1;
    }
    row_ptr[m] = k;
    ENSURE(k == nnz);
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    const size_t base = rf_problem_memory(p, NULL);
    ENSURE(rf_problem_set_local_csr(p, nc, row_ptr, col, val, q, mu, rho, sigma,
                                    NULL) == RF_OK);
    const size_t expect = base + 221 * (size_t)nc + 4 * (size_t)(m + 1) +
                          12 * (size_t)nnz + 8 * (size_t)m +
                          expected_work(12, nc, 0, 0);
    const size_t got = rf_problem_memory(p, NULL);
    printf("  local form, %d contacts, nnz %d: %zu bytes\n", nc, nnz, got);
    ENSURE(got == expect);
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.solver = RF_SOLVER_GS;
    /* Gauss-Seidel: 6 vectors where APGD in local form holds 12 */
    ENSURE(rf_problem_memory(p, &cfg) ==
           expect - 6 * 8 * (size_t)(m + 1) + 577 * (size_t)(nc + 1));
    cfg.solver = RF_SOLVER_JACOBI;
    ENSURE(rf_problem_memory(p, &cfg) == expect - 2 * 8 * (size_t)(m + 1));
    rf_problem_destroy(p);
    return 0;
}

#ifdef RF_TEST_HEAP
static size_t heap_in_use(void)
{
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}
#endif

/* The count against the heap: a fresh problem built and solved once grows
   the heap by the count plus the allocator's headers (about 16 bytes for
   each of the ~45 arrays).  The warm-up problem stays alive so that no
   freed chunk of a matching size is handed back (glibc counts chunks in
   its thread cache as in use). */
static int test_heap(void)
{
#ifdef RF_TEST_HEAP
    /* then APGD with cohesive contacts (the shift's buffers), APGD with
       compliant ones (48 bytes per contact), coloured GS (its colouring,
       reserved for it alone), and SI with each model (the associated
       model's block records; the De Saxce model's row form and wide
       slots) */
    enum { NS = 8 };
    /* glibc may map a chunk of 128 KB or more on its own (when the heap
       has no room for it), in whole pages: up to 4 KB more per block than
       asked for, which rf_problem_memory leaves to the allocator (SI's
       slots for 60 contacts in bundles of eight are such blocks).  Kept on
       the heap (32 MB is glibc's largest threshold), every block costs its
       header and alignment only. */
    const int on_heap = mallopt(M_MMAP_THRESHOLD, 32 << 20) == 1;
    const rf_solver_kind solvers[NS] = {
        RF_SOLVER_APGD, RF_SOLVER_JACOBI,     RF_SOLVER_GS, RF_SOLVER_APGD,
        RF_SOLVER_APGD, RF_SOLVER_GS_COLORED, RF_SOLVER_SI, RF_SOLVER_SI};
    const int nb = 12, nc = 60;
    rf_problem *warm;
    ENSURE(rf_problem_create(&warm, NULL) == RF_OK);
    if (build_body(warm, nb, nc, 0)) {
        return 1;
    }
    double *g = calloc((size_t)6 * nc, sizeof(double));
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.max_iter = 2;
    cfg.threads = 2;
    ENSURE(rf_solve(warm, &cfg, g, NULL, NULL) == RF_OK);
    printf("  heap check:\n");
    rf_problem *keep[NS] = {NULL};
    double cohesion[60];
    for (int i = 0; i < nc; ++i) {
        cohesion[i] = 0.01 * (i % 2);
    }
    for (int s = 0; s < NS; ++s) {
        cfg.solver = solvers[s];
        cfg.model = s == 7 ? RF_MODEL_DESAXCE : RF_MODEL_ASSOCIATED;
        const size_t h0 = heap_in_use();
        rf_problem *p;
        ENSURE(rf_problem_create(&p, NULL) == RF_OK);
        keep[s] = p; /* destroyed at the end: nothing freed in between */
        if (build_body_c(p, nb, nc, 0, s == 4)) {
            return 1;
        }
        if (s == 3) {
            ENSURE(rf_problem_set_cohesion(p, cohesion, NULL) == RF_OK);
        }
        ENSURE(rf_solve(p, &cfg, g, NULL, NULL) == RF_OK);
        const size_t h1 = heap_in_use();
        const size_t mem = rf_problem_memory(p, &cfg);
        if (h1 <= h0 || !on_heap) {
            printf("  mallinfo2 sees no growth or mallopt was refused "
                   "(another allocator, e.g. a sanitizer's): heap check "
                   "skipped\n");
            break;
        }
        printf("    solver %d%s: heap grew %zu bytes, rf_problem_memory "
               "%zu\n",
               (int)solvers[s],
               s == 3   ? " (cohesion)"
               : s == 4 ? " (compliance)"
                        : "",
               h1 - h0, mem);
        ENSURE(h1 - h0 >= mem);
        ENSURE_LE((double)(h1 - h0 - mem), 64.0 * 32.0);
    }
    free(g);
    for (int s = 0; s < NS; ++s) {
        rf_problem_destroy(keep[s]); /* NULL after a skipped check */
    }
    rf_problem_destroy(warm);
#else
    printf("  no mallinfo2: heap check skipped\n");
#endif
    return 0;
}

int main(void)
{
    /* first: no chunk freed by the other tests for malloc to reuse */
    RUN_TEST(test_heap);
    RUN_TEST(test_null_and_empty);
    RUN_TEST(test_body_form);
    RUN_TEST(test_local_form);
    return TEST_SUMMARY();
}
