/*
 * Memory.  Problems and their work arrays grow between solves and never
 * shrink; nothing is allocated inside an iteration loop or an OpenMP
 * region (MuJoCo's "allocate once, reuse" discipline).
 */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE under -std=c11 */
#endif
#include "internal.h"

#include <limits.h>

#include <stdint.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* Blocks of RF__HUGE_MIN bytes or more go on huge pages where the system
   offers them (Linux transparent huge pages; most distributions, Debian
   12 among them, leave them to madvise): 2 MiB-aligned, rounded up to
   whole 2 MiB pages, marked MADV_HUGEPAGE.  Why: a large scene's passes
   stream some forty arrays of 0.1-7 MB (on the full falling boxes the
   bundles' slots alone over 10 MB) beside Bullet's manifolds, more pages
   than the TLB's 3,072 entries map at 4 KiB, so that every pass paid
   page walks that stock's smaller working set does not (twenty-first
   round, see docs/performance.md, "Memory").  The arrays that share a
   capacity share a block (rf__grow_all), so that the smaller ones ride
   on huge pages too, and the rounding is paid once per group, not per
   array.  A hint only: where it is refused or unknown the block is an
   ordinary aligned one. */
#define RF__HUGE_PAGE ((size_t)2 << 20)
#define RF__HUGE_MIN ((size_t)1 << 20)
/* a cache line: each array of a group starts on one */
#define RF__ALIGN ((size_t)64)

/* AddressSanitizer builds keep a poisoned gap of a cache line between a
   group's arrays, so that a write past one array's end is reported as it
   was when each array was an allocation of its own (in one block it
   would land in the next array unseen). */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RF__ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define RF__ASAN 1
#endif
#ifdef RF__ASAN
#include <sanitizer/asan_interface.h>
#define RF__GAP RF__ALIGN
#define RF__POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#else
#define RF__GAP ((size_t)0)
#define RF__POISON(p, n) ((void)(p), (void)(n))
#endif

static size_t round_up(size_t n, size_t a)
{
    return (n + a - 1) / a * a;
}

/* Where a group's array i starts when the one before it ends at end
   (bytes into the block): on a cache line, after the gap. */
static size_t array_start(size_t end, int i)
{
    return round_up(end + (i > 0 ? RF__GAP : 0), RF__ALIGN);
}

/* A huge-page block of at least bytes (>= RF__HUGE_MIN), or NULL where
   there are none (not Linux) or aligned_alloc failed. */
static void *huge_block(size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const size_t size = round_up(bytes, RF__HUGE_PAGE);
    void *q = aligned_alloc(RF__HUGE_PAGE, size);
    if (q != NULL) {
        (void)madvise(q, size, MADV_HUGEPAGE); /* a hint */
    }
    return q;
#else
    (void)bytes;
    return NULL;
#endif
}

/* Scratch.  Most work arrays are scratch: every solve writes what it
   reads (the dof vectors, the per-item scaling, the colouring, the
   sequential impulse's records, groups, units, bundles and slots; the
   reserve functions below say which).  Growing them kept their contents
   until the twenty-fourth round, and copying a whole old capacity
   touches every page of it in the new block, pages the solve never uses
   (the slots are reserved for up to eight times the lanes a small scene
   fills).  In a virtual machine a fresh page's first touch cost 12 us:
   on the first solve that coloured the quick pyramid's 1,300 contacts
   those copies made 700 page faults, a 10-34 ms step where stock took
   0.6 ms.  The scratch growers allocate the new block and free the old
   one without copying, so that only pages in use are touched. */

/* RF_SCRATCH_CHECK (the sanitizer build, CMake's RF_SANITIZE): every
   call of a scratch grower fills the whole array with bytes 0x7f, grown or
   not, so that a solve that reads scratch it did not write this time reads
   1.4e306 for a double and 2,139,062,143 for an int (an index that
   AddressSanitizer reports) and the unit tests fail: the check that these
   arrays are scratch. */
static void scratch_fill(void *q, size_t bytes)
{
#ifdef RF_SCRATCH_CHECK
    if (q != NULL) {
        memset(q, 0x7f, bytes);
    }
#else
    (void)q;
    (void)bytes;
#endif
}

/* old (holding old_bytes, or NULL) grown to bytes, contents kept (keep)
   or not; NULL on failure, old then untouched (as realloc). */
static void *grow_block(void *old, size_t old_bytes, size_t bytes, int keep)
{
    void *q = bytes >= RF__HUGE_MIN ? huge_block(bytes) : NULL;
    if (q == NULL) {
        if (keep) {
            return realloc(old, bytes);
        }
        q = malloc(bytes);
        if (q == NULL) {
            return NULL;
        }
    }
    if (old != NULL) {
        if (keep) {
            memcpy(q, old, old_bytes < bytes ? old_bytes : bytes);
        }
        free(old);
    }
    return q;
}

static int grow(void **ptr, int *cap, int n, size_t elem, int keep)
{
    if (n <= *cap && *ptr != NULL) {
        if (!keep) {
            scratch_fill(*ptr, (size_t)*cap * elem);
        }
        return 1;
    }
    int want = n > 0 ? n : 1;
    if (*cap > 0 && want < 2 * *cap) {
        want = 2 * *cap; /* amortised growth */
    }
    void *q = grow_block(*ptr, *ptr != NULL ? (size_t)*cap * elem : 0,
                         (size_t)want * elem, keep);
    if (q == NULL) {
        return 0;
    }
    *ptr = q;
    *cap = want;
    if (!keep) {
        scratch_fill(q, (size_t)want * elem);
    }
    return 1;
}

int rf__grow(void **ptr, int *cap, int n, size_t elem)
{
    return grow(ptr, cap, n, elem, 1);
}

int rf__grow_scratch(void **ptr, int *cap, int n, size_t elem)
{
    return grow(ptr, cap, n, elem, 0);
}

static int grow_all(void **block, const rf_grow_item *items, int count,
                    int *cap, int n, int keep)
{
    if (n <= *cap && *block != NULL) {
        for (int i = 0; i < count && !keep; ++i) {
            scratch_fill(*items[i].ptr, (size_t)*cap * items[i].elem);
        }
        return 1;
    }
    int want = n > 2 * *cap ? n : 2 * *cap;
    if (want < 1) {
        want = 1;
    }
    /* the arrays' places (array_start), the same in both loops */
    size_t total = 0;
    for (int i = 0; i < count; ++i) {
        const size_t start = array_start(total, i);
        if (items[i].elem > 0 &&
            (size_t)want >
                (SIZE_MAX - start - RF__ALIGN - RF__GAP) / items[i].elem) {
            return 0; /* beyond the address space */
        }
        total = start + (size_t)want * items[i].elem;
    }
    total = round_up(total + RF__GAP, RF__ALIGN);
    if (total == 0) {
        total = RF__ALIGN;
    }
    void *q = total >= RF__HUGE_MIN ? huge_block(total) : NULL;
    if (q == NULL) {
        q = aligned_alloc(RF__ALIGN, total);
    }
    if (q == NULL) {
        return 0;
    }
    size_t off = 0;
    for (int i = 0; i < count; ++i) {
        const size_t start = array_start(off, i);
        RF__POISON((unsigned char *)q + off, start - off);
        unsigned char *a = (unsigned char *)q + start;
        if (*block != NULL && keep) {
            memcpy(a, *items[i].ptr, (size_t)*cap * items[i].elem);
        } else if (!keep) {
            scratch_fill(a, (size_t)want * items[i].elem);
        }
        *items[i].ptr = a;
        off = start + (size_t)want * items[i].elem;
    }
    RF__POISON((unsigned char *)q + off, total - off);
    free(*block); /* its poisoned gaps go with it */
    *block = q;
    *cap = want;
    return 1;
}

int rf__grow_all(void **block, const rf_grow_item *items, int count, int *cap,
                 int n)
{
    return grow_all(block, items, count, cap, n, 1);
}

int rf__grow_all_scratch(void **block, const rf_grow_item *items, int count,
                         int *cap, int n)
{
    return grow_all(block, items, count, cap, n, 0);
}

unsigned rf__solver_vecs(const rf_problem *p, rf_solver_kind solver)
{
    /* every solver: r, the start / best iterate, its gamma argument (g2
       or g3, solve.c) and u3 for the final residual of a fixed count */
    const unsigned common = RF__VEC_R | RF__VEC_BEST | RF__VEC_U3;
    unsigned v = common;
    switch (solver) {
    case RF_SOLVER_JACOBI: /* g0 g1 u0 rs; g3 u3 in rf__estimate_lambda,
                              g3 the next u with a carried lambda */
        v |= RF__VEC_G0 | RF__VEC_G1 | RF__VEC_G2 | RF__VEC_G3 | RF__VEC_U0 |
             RF__VEC_RS;
        break;
    case RF_SOLVER_GS:
    case RF_SOLVER_GS_COLORED: /* g0 u0 (unscaled: no rs, no sx) */
        return v | RF__VEC_G0 | RF__VEC_G2 | RF__VEC_U0;
    case RF_SOLVER_SI: /* g0; u3 gets the final u */
        return v | RF__VEC_G0 | RF__VEC_G2;
    case RF_SOLVER_APGD: /* x xn y, their products, rs */
    default:
        v |= RF__VEC_G0 | RF__VEC_G1 | RF__VEC_G2 | RF__VEC_G3 | RF__VEC_U0 |
             RF__VEC_U1 | RF__VEC_U2 | RF__VEC_RS;
        break;
    }
    return p->kind == RF_KIND_LOCAL ? v | RF__VEC_SX : v;
}

static double **dof_vec_slot(rf_work *w, int k)
{
    double **slot[RF__NVEC] = {&w->g0, &w->g1,   &w->g2, &w->g3,
                               &w->u0, &w->u1,   &w->u2, &w->u3,
                               &w->r,  &w->best, &w->rs, &w->sx};
    return slot[k];
}

rf_status rf__work_reserve(rf_problem *p, unsigned vecs, rf_error *err)
{
    rf_work *w = &p->work;
    const size_t d = sizeof(double);
    int vec_ok = 1;
    for (int k = 0; k < RF__NVEC && vec_ok; ++k) {
        if (vecs & (1u << k)) {
            vec_ok = rf__grow_scratch((void **)dof_vec_slot(w, k),
                                      &w->cap_vec[k], rf__ndof(p) + 1, d);
        }
    }
    const rf_grow_item item[] = {
        {(void **)&w->wscale, 4 * d},
        {(void **)&w->wcone, 4 * d},
        {(void **)&w->step, d},
    };
    /* all scratch (grown without their contents) but the body group and
       bc_ent, which hold the body index that bc_valid may declare current
       from an earlier call */
    const rf_grow_item body[] = {
        {(void **)&w->bv0, 6 * d},
        {(void **)&w->bv1, 6 * d},
        {(void **)&w->bc_ptr, sizeof(int)},
    };
    const int nitem = rf__nitem(p);
    const int nblocks = rf__num_blocks(nitem);
    if (!vec_ok ||
        !rf__grow_all_scratch(&w->group[RF__WG_ITEM], item,
                              (int)(sizeof item / sizeof item[0]), &w->cap_item,
                              nitem + 1) ||
        !rf__grow_all(&w->group[RF__WG_BODY], body,
                      (int)(sizeof body / sizeof body[0]), &w->cap_body,
                      p->nbody + 1) ||
        !rf__grow((void **)&w->bc_ent, &w->cap_ent, 2 * nitem + 1,
                  sizeof(int)) ||
        (p->kind == RF_KIND_BODY &&
         !rf__grow_scratch((void **)&w->cimp, &w->cap_cimp, 6 * p->ncon + 1,
                           d)) ||
        !rf__grow_scratch((void **)&w->partial, &w->cap_partial,
                          4 * nblocks + 4, sizeof(double))) {
        return rf__fail(err, RF_ERR_NOMEM,
                        "out of memory reserving work for %d contacts, %d "
                        "rows and %d bodies",
                        p->ncon, p->nrow, p->nbody);
    }
    return RF_OK;
}

rf_status rf__work_reserve_colors(rf_problem *p, rf_error *err)
{
    rf_work *w = &p->work;
    /* color_ptr needs ncolor + 1 <= nitem + 1 entries. */
    const rf_grow_item col[] = {
        {(void **)&w->color_con, sizeof(int)},
        {(void **)&w->color_of, sizeof(int)},
        {(void **)&w->color_ptr, sizeof(int)},
        {(void **)&w->color_mark, sizeof(int)},
    };
    if (!rf__grow_all_scratch(&w->group[RF__WG_COLOR], col, 4, &w->cap_color,
                              rf__nitem(p) + 1)) {
        return rf__fail(err, RF_ERR_NOMEM,
                        "out of memory for the colouring of %d items",
                        rf__nitem(p));
    }
    return RF_OK;
}

int rf__si_slot_bound(int n, int kinds, int lanes)
{
    /* Within a colour the groups of each kind are bundled longest first,
       lanes at a time: a bundle's slots are its first lane's points, at
       most the fewest points of the bundle before it, so at most 1 /
       lanes of that one's points; each kind's first bundle has
       RF__SI_WMAX.  Summed over the (at most 63) bundled colours of the
       contacts' range: n / lanes + 63 kinds RF__SI_WMAX, and never more
       than n. */
    const long b = (long)n / lanes + 63L * kinds * RF__SI_WMAX;
    return (int)(b < n ? b : n);
}

/* The islands' arrays (at most one island per item) and the coloured
   sweep's copies of their sums, one per thread but the first. */
static int reserve_islands(rf_problem *p, int threads)
{
    rf_work *w = &p->work;
    const rf_grow_item isl[] = {
        {(void **)&w->isl_item, sizeof(int)},
        {(void **)&w->isl_list, sizeof(int)},
        {(void **)&w->isl_ptr, sizeof(int)},
        {(void **)&w->isl_seq, sizeof(int)},
        {(void **)&w->si_kisl, sizeof(int)},
        {(void **)&w->si_bisl, sizeof(int)},
        {(void **)&w->si_kdiv, sizeof(double)},
        {(void **)&w->isl_run, RF__RUN_COUNT * sizeof(double)},
        {(void **)&w->isl_tmp, RF__TMP_COUNT * sizeof(double)},
        {(void **)&w->isl_flag, 1},
    };
    const int ncopy = threads > 1 ? threads - 1 : 0;
    if (!rf__grow_all_scratch(&w->group[RF__WG_ISL], isl, 10, &w->cap_isl,
                              rf__nitem(p) + 2) ||
        (long)ncopy * RF__RUN_COUNT * w->cap_isl >= INT_MAX ||
        !rf__grow_scratch((void **)&w->isl_body, &w->cap_isl_body, p->nbody + 1,
                          sizeof(int)) ||
        !rf__grow_scratch((void **)&w->isl_copy, &w->cap_isl_copy,
                          ncopy * RF__RUN_COUNT * w->cap_isl + 1,
                          sizeof(double))) {
        return 0;
    }
    w->isl_ncopy = ncopy;
    return 1;
}

int rf__si_angular_count(const rf_problem *p)
{
    int n = 0;
    for (int i = 0; i < p->ncon; ++i) {
        n += rf__contact_angular(p, i);
    }
    return n;
}

rf_status rf__work_reserve_si(rf_problem *p, rf_model model, int threads,
                              rf_error *err)
{
    rf_work *w = &p->work;
    const int desaxce = model == RF_MODEL_DESAXCE;
    const rf_grow_item any[] = {
        {(void **)&w->si_flags, sizeof(int)},
        {(void **)&w->si_wpos, sizeof(int)},
    };
    /* the associated model's block records, the De Saxce model's row
       form and its bundles' slots */
    const rf_grow_item block[] = {
        {(void **)&w->si_rec, RF__SI_STRIDE * sizeof(double)},
        {(void **)&w->si_int, 5 * sizeof(int)},
    };
    const rf_grow_item rows[] = {
        {(void **)&w->si_nrec, RF__SI_NREC * sizeof(double)},
        {(void **)&w->si_frec, RF__SI_FREC * sizeof(double)},
        {(void **)&w->si_arec, RF__SI_AREC * sizeof(double)},
    };
    /* bundles and units: at most one per group */
    const rf_grow_item unit[] = {
        {(void **)&w->si_unit, sizeof(int)},
        {(void **)&w->si_unit_ptr, sizeof(int)},
        {(void **)&w->si_wk, sizeof(int)},
        {(void **)&w->si_wlen, sizeof(int)},
        {(void **)&w->si_bundle, RF__SI_BMETA * sizeof(int)},
        {(void **)&w->si_wm, 6 * RF__SI_LANES * sizeof(double)},
    };
    /* the bundles' records per lane slot, for this solve's kernel */
    const rf_grow_item slot[] = {
        {(void **)&w->si_wn, RF__SI_WN * sizeof(double)},
        {(void **)&w->si_wf, RF__SI_WF * sizeof(double)},
        {(void **)&w->si_wg, 3 * sizeof(double)},
    };
    const rf_grow_item aslot[] = {
        {(void **)&w->si_wa, RF__SI_WA * sizeof(double)},
        {(void **)&w->si_wga, 3 * sizeof(double)},
    };
    w->si_kernel = rf__si_wide_kernel(w->si_wide_mode);
    w->si_lanes = rf__si_kernel_lanes(w->si_kernel);
    const int lanes = w->si_lanes;
    if (!rf__grow_all_scratch(&w->group[RF__WG_SI], any, 2, &w->cap_si,
                              p->ncon + 1) ||
        (!desaxce && !rf__grow_all_scratch(&w->group[RF__WG_SI_BLOCK], block, 2,
                                           &w->cap_si_block, p->ncon + 1)) ||
        (desaxce && !rf__grow_all_scratch(&w->group[RF__WG_SI_ROWS], rows, 3,
                                          &w->cap_si_rows, p->ncon + 1)) ||
        (desaxce && !rf__grow_all_scratch(
                        &w->group[RF__WG_SI_SLOT], slot, 3, &w->cap_si_slot,
                        (rf__si_slot_bound(p->ncon, 2, lanes) + 1) * lanes)) ||
        (desaxce &&
         !rf__grow_all_scratch(
             &w->group[RF__WG_SI_ASLOT], aslot, 2, &w->cap_si_aslot,
             (rf__si_slot_bound(rf__si_angular_count(p), 1, lanes) + 1) *
                 lanes)) ||
        !rf__grow_scratch((void **)&w->si_jrec, &w->cap_si_joint, p->nrow + 1,
                          RF__SI_JREC * sizeof(double)) ||
        !rf__grow_scratch((void **)&w->si_mask, &w->cap_si_mask, p->nbody + 1,
                          sizeof(uint64_t)) ||
        !rf__grow_scratch((void **)&w->si_group, &w->cap_si_group,
                          rf__nitem(p) + 1, sizeof(int)) ||
        !rf__grow_scratch((void **)&w->si_sum, &w->cap_si_sum,
                          4 * rf__nitem(p) + 4, sizeof(double)) ||
        !rf__grow_all_scratch(&w->group[RF__WG_SI_UNIT], unit, 6,
                              &w->cap_si_unit, rf__nitem(p) + 2) ||
        !reserve_islands(p, threads)) {
        return rf__fail(err, RF_ERR_NOMEM,
                        "out of memory for the sequential impulse records of "
                        "%d contacts",
                        p->ncon);
    }
    return RF_OK;
}

rf_status rf__work_reserve_solved(rf_problem *p, rf_error *err)
{
    rf_work *w = &p->work;
    if (!rf__grow((void **)&w->solved_g, &w->cap_solved_g, rf__ndof(p) + 1,
                  sizeof(double)) ||
        !rf__grow((void **)&w->solved_vel, &w->cap_solved_vel, 6 * p->nbody + 1,
                  sizeof(double))) {
        return rf__fail(err, RF_ERR_NOMEM,
                        "out of memory for the solved velocities of %d bodies",
                        p->nbody);
    }
    return RF_OK;
}

rf_status rf__work_reserve_blocks(rf_problem *p, rf_error *err)
{
    rf_work *w = &p->work;
    const rf_grow_item blk[] = {
        {(void **)&w->wblk, 36 * sizeof(double)},
        {(void **)&w->wchol, 36 * sizeof(double)},
        {(void **)&w->chol_ok, 1},
    };
    if (!rf__grow_all(&w->group[RF__WG_BLK], blk, 3, &w->cap_blk,
                      p->ncon + 1)) {
        return rf__fail(err, RF_ERR_NOMEM,
                        "out of memory for %d diagonal blocks", p->ncon);
    }
    return RF_OK;
}

rf_status rf__work_reserve_cohesion(rf_problem *p, rf_error *err)
{
    rf_work *w = &p->work;
    const int nvel = 6 * (p->nbody > p->ncon ? p->nbody : p->ncon) + 1;
    const rf_grow_item vel[] = {
        {(void **)&w->coh_saved, sizeof(double)},
        {(void **)&w->coh_tmp, sizeof(double)},
    };
    if (!rf__grow((void **)&w->coh_shift, &w->cap_coh_shift, rf__ndof(p) + 1,
                  sizeof(double)) ||
        !rf__grow((void **)&w->coh_bias, &w->cap_coh_bias, p->ncon + 1,
                  sizeof(double)) ||
        !rf__grow_all(&w->group[RF__WG_COH_VEL], vel, 2, &w->cap_coh_vel,
                      nvel)) {
        return rf__fail(err, RF_ERR_NOMEM,
                        "out of memory for the cohesion shift of %d contacts",
                        p->ncon);
    }
    return RF_OK;
}

int rf__threads(int requested)
{
    if (requested > 0) {
        return requested;
    }
#ifdef _OPENMP
    int n = omp_get_max_threads();
    return n > 0 ? n : 1;
#else
    return 1;
#endif
}

int rf__team(int threads, int large)
{
#ifdef _OPENMP
    return (threads > 1 && large) || omp_get_level() > 0;
#else
    (void)threads;
    (void)large;
    return 0;
#endif
}

void rf__work_free(rf_work *w)
{
    free(w->g0);
    free(w->g1);
    free(w->g2);
    free(w->g3);
    free(w->u0);
    free(w->u1);
    free(w->u2);
    free(w->best);
    free(w->u3);
    free(w->r);
    free(w->rs);
    free(w->sx);
    free(w->cimp);
    free(w->split_rec);
    free(w->split_con);
    free(w->bc_ent);
    free(w->partial);
    free(w->coh_shift);
    free(w->coh_bias);
    free(w->si_sum);
    free(w->si_jrec);
    free(w->si_mask);
    free(w->si_group);
    free(w->isl_body);
    free(w->isl_copy);
    free(w->solved_g);
    free(w->solved_vel);
    for (int k = 0; k < RF__WG_COUNT; ++k) {
        free(w->group[k]); /* the grouped arrays (rf__grow_all) */
    }
    memset(w, 0, sizeof *w);
}

void rf__csr_free(rf_csr *m)
{
    free(m->row_ptr);
    free(m->col);
    free(m->val);
    memset(m, 0, sizeof *m);
}

rf_status rf__csr_reserve(rf_csr *m, int n, int nnz, rf_error *err)
{
    if (!rf__grow((void **)&m->row_ptr, &m->cap_rows, n + 1, sizeof(int))) {
        return rf__fail(err, RF_ERR_NOMEM, "out of memory (W rows: %d)", n);
    }
    /* col and val share cap_nnz: keep the smaller capacity on failure. */
    int cap_col = m->cap_nnz, cap_val = m->cap_nnz;
    int ok = rf__grow((void **)&m->col, &cap_col, nnz, sizeof(int)) &&
             rf__grow((void **)&m->val, &cap_val, nnz, sizeof(double));
    m->cap_nnz = cap_col < cap_val ? cap_col : cap_val;
    if (!ok) {
        return rf__fail(err, RF_ERR_NOMEM, "out of memory (W entries: %d)",
                        nnz);
    }
    return RF_OK;
}
