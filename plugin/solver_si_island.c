/*
 * The islands of a sequential impulse solve (RF_SOLVER_SI): sets of items
 * joined through dynamic bodies, as Bullet's btSimulationIslandManager
 * builds them (a static or kinematic body joins nothing).
 *
 * Why: Bullet solves its islands apart, so a body's motion does not
 * depend on an unrelated object elsewhere in the world.  The cone solves
 * a step as one problem (one colouring, one set of bundles, one parallel
 * sweep), and any choice that looked at the whole problem would couple
 * the islands: the energy guard's slack and its start and end scales, the
 * sweep order (Bullet's below a size, colours above), the stopping test;
 * a column amplifies such a difference over a few seconds.  So each of
 * those choices is made per island (solver_si.c):
 *   - the guard's E and B, its start scale (scale_excess) and end scale;
 *   - the order: an island is swept by colours when it alone would be
 *     (its own size against the thresholds), else in Bullet's order,
 *     rows then contacts, as a unit that no other island's visits touch;
 *   - a colour's guard share: the island's slack over the island's
 *     groups in that colour (the colouring itself is island-local: a
 *     group's colour depends only on the groups before it on its bodies);
 *   - the stopping test: an island that meets it is visited no more.
 * An island's impulses are then the same bits whatever else the problem
 * holds (tests/test_si_island.c; tests/test_bullet_island_api.cpp on
 * Bullet scenes), for any thread count.
 */
#include "internal.h"

#include <string.h>

/* The root of body b in the union-find forest par (path halving). */
static int find_root(int *par, int b)
{
    while (par[b] != b) {
        par[b] = par[par[b]];
        b = par[b];
    }
    return b;
}

/* An island's counts while the islands are found, in its isl_run slot
   (scratch until the guard's start). */
enum { CNT_CON, CNT_ROW, CNT_ANG, CNT_GROUP };

/* The dynamic body of item it's side s, or -1. */
static int dynamic_side(const rf_problem *p, int it, int s)
{
    const int b = rf__item_body(p, it, s);
    return rf__dynamic_body(p, b) ? b : -1;
}

/* The sweep's order for one island of ncon contacts (nang of them with
   spin or rolling friction) and nrow rows: colours from 513 items on (or,
   De Saxce model, 129 contacts with joint rows, 21 contacts with spin or
   rolling friction on at most 20, else 5), whatever the thread count, so
   that one thread and two give the same bits; below, Bullet's order
   (rows, then contacts) on one thread.  The contacts' thresholds are the
   wide form's: its bundles pay for the colouring even on one thread
   (quick falling boxes, 282 contacts: 1.86x stock's step -> 1.41x), and
   without joints from two manifolds on (boxes resting on the ground: 2
   boxes 2.08x stock's step -> 1.64x, 5 boxes 2.06x -> 1.35x, 20 boxes
   1.95x -> 1.08x; one box, 4 contacts, is faster uncoloured); joint rows
   gain nothing from it, so a ragdoll keeps Bullet's order until its
   island is large enough for threads.  With spin or rolling friction the
   angular bundles cost more than they gain up to about 20 contacts (one
   thread, per step: a box and a rolling sphere on the ground, 5
   contacts, 13.8 us coloured against 6.1 us; five boxes and a sphere, 21
   contacts, 17.5 against 16.9; docs/performance.md, "Small scenes"). */
static int colored_rule(int ncon, int nrow, int nang, int staggered)
{
    const int small = nrow > 0 ? 128 : (ncon <= 20 && nang > 0 ? 20 : 4);
    return ncon + nrow > 512 || (staggered && ncon > small);
}

int rf__si_islands(rf_problem *p, int staggered)
{
    rf_work *w = &p->work;
    const int nitem = rf__nitem(p), ncon = p->ncon;
    /* par: the forest, then isl_body; id: each root's island (scratch in
       the colouring's masks, free until the colouring) */
    int *par = w->isl_body;
    uint64_t *id = w->si_mask;
    for (int b = 0; b < p->nbody; ++b) {
        par[b] = b;
    }
    for (int it = 0; it < nitem; ++it) {
        const int a = dynamic_side(p, it, 0), b = dynamic_side(p, it, 1);
        if (a >= 0 && b >= 0) {
            const int ra = find_root(par, a), rb = find_root(par, b);
            if (ra != rb) { /* the smaller index the root: deterministic */
                par[ra > rb ? ra : rb] = ra < rb ? ra : rb;
            }
        }
    }
    /* islands numbered by their first item (an item with no dynamic side
       is an island of its own), and per island its counts (CNT_: contact
       groups are runs of consecutive contacts on the same two bodies) */
    for (int b = 0; b < p->nbody; ++b) {
        id[b] = UINT64_MAX;
    }
    double *run = w->isl_run;
    int nisl = 0;
    for (int it = 0; it < nitem; ++it) {
        int b = dynamic_side(p, it, 0);
        b = b >= 0 ? b : dynamic_side(p, it, 1);
        int i;
        if (b < 0) {
            i = -1;
        } else {
            const int r = find_root(par, b);
            if (id[r] == UINT64_MAX) {
                id[r] = (uint64_t)nisl;
                i = -1;
            } else {
                i = (int)id[r];
            }
        }
        if (i < 0) { /* a new island */
            i = nisl++;
            double *r = run + (size_t)RF__RUN_COUNT * i;
            r[CNT_CON] = r[CNT_ROW] = r[CNT_ANG] = r[CNT_GROUP] = 0.0;
        }
        w->isl_item[it] = i;
        double *r = run + (size_t)RF__RUN_COUNT * i;
        if (it >= ncon) {
            r[CNT_ROW] += 1.0;
            continue;
        }
        r[CNT_CON] += 1.0;
        r[CNT_ANG] += rf__contact_angular(p, it) ? 1.0 : 0.0;
        const int *cb = p->con_body + 2 * it;
        r[CNT_GROUP] +=
            it == 0 || cb[0] != cb[-2] || cb[1] != cb[-1] ? 1.0 : 0.0;
    }
    for (int b = 0; b < p->nbody; ++b) { /* every body to its root */
        par[b] = find_root(par, b);
    }
    for (int b = 0; b < p->nbody; ++b) { /* then par becomes isl_body */
        const uint64_t i = id[par[b]];
        par[b] = rf__dynamic_body(p, b) && i != UINT64_MAX ? (int)i : -1;
    }
    /* the order per island; one contact group and no rows: either */
    int any = 0;
    for (int i = 0; i < nisl; ++i) {
        const double *r = run + (size_t)RF__RUN_COUNT * i;
        const int col = colored_rule((int)r[CNT_CON], (int)r[CNT_ROW],
                                     (int)r[CNT_ANG], staggered);
        w->isl_flag[i] = col ? RF__ISL_COLORED : 0;
        any |= col;
    }
    int nseq = 0;
    for (int i = 0; i < nisl; ++i) {
        const double *r = run + (size_t)RF__RUN_COUNT * i;
        if (any && r[CNT_ROW] == 0.0 && r[CNT_GROUP] == 1.0) {
            w->isl_flag[i] = RF__ISL_COLORED;
        }
        if (!(w->isl_flag[i] & RF__ISL_COLORED)) {
            w->isl_seq[nseq++] = i;
        }
    }
    /* the sequential islands' items, rows first, each kind in index order
       (a counting sort in two rounds over the items; coloured islands'
       items need no list) */
    int *ptr = w->isl_ptr, at = 0;
    for (int i = 0; i < nisl; ++i) {
        const double *r = run + (size_t)RF__RUN_COUNT * i;
        ptr[i] = at;
        at += w->isl_flag[i] & RF__ISL_COLORED ? 0
                                               : (int)(r[CNT_CON] + r[CNT_ROW]);
    }
    ptr[nisl] = at;
    if (nseq > 0) {
        int *next = w->si_kisl; /* scratch until the colouring */
        memcpy(next, ptr, (size_t)nisl * sizeof(int));
        for (int it = ncon; it < nitem; ++it) {
            const int i = w->isl_item[it];
            if (!(w->isl_flag[i] & RF__ISL_COLORED)) {
                w->isl_list[next[i]++] = it;
            }
        }
        for (int it = 0; it < ncon; ++it) {
            const int i = w->isl_item[it];
            if (!(w->isl_flag[i] & RF__ISL_COLORED)) {
                w->isl_list[next[i]++] = it;
            }
        }
    }
    w->nisl = nisl;
    w->nseq = nseq;
    return nisl;
}

void rf__si_island_colors(rf_problem *p)
{
    rf_work *w = &p->work;
    double *cnt = w->isl_tmp; /* scratch until the guard's start */
    for (int c = 0; c < w->ncolor; ++c) {
        const int lo = w->color_ptr[c], hi = w->color_ptr[c + 1];
        for (int k = lo; k < hi; ++k) {
            const int i = w->isl_item[w->si_group[w->color_con[k]]];
            w->si_kisl[k] = i;
            cnt[(size_t)RF__TMP_COUNT * i] = 0.0;
        }
        for (int k = lo; k < hi; ++k) {
            cnt[(size_t)RF__TMP_COUNT * w->si_kisl[k]] += 1.0;
        }
        for (int k = lo; k < hi; ++k) {
            w->si_kdiv[k] = cnt[(size_t)RF__TMP_COUNT * w->si_kisl[k]];
        }
    }
}

void rf__si_island_bundles(rf_problem *p)
{
    rf_work *w = &p->work;
    const int lanes = w->si_lanes;
    for (int b = 0; b < w->si_nbundle; ++b) {
        const int *meta = w->si_bundle + (size_t)RF__SI_BMETA * b;
        int isl = w->si_kisl[meta[RF__SI_BM_K]]; /* lane 0 is never empty */
        for (int l = 1; l < lanes; ++l) {
            const int k = meta[RF__SI_BM_K + l];
            if (k >= 0 && w->si_kisl[k] != isl) {
                isl = -1;
                break;
            }
        }
        w->si_bisl[b] = isl;
    }
}
