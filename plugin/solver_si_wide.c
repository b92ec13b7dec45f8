/*
 * The sequential impulse solver's wide form (RF_SOLVER_SI, De Saxce model,
 * coloured sweeps): the row form of solver_si_rows.c run on a bundle of
 * manifolds at once (8 with AVX-512, else 4: work.si_lanes), one manifold
 * per SIMD lane, as Box2D v3's contact_solver.c runs its wide contact
 * constraints over the colours of its constraint graph.
 *
 * Why: one manifold's points chain through its two bodies' velocities, so
 * the row form's group kernel is a chain of dependent dot products and
 * updates (latency-bound: an AVX2 build of it, half the instructions, was
 * 0-8% faster).  The groups of one colour share no dynamic body, so the
 * lanes are independent chains that run side by side; a 3-vector costs
 * three full-width operations for four manifolds instead of two half-used
 * ones per manifold, and a dot product needs no horizontal sum.  On
 * BasicDemo's 5x5x5 boxes (300 steps, 1 thread) the sweeps went from 1.09
 * G instructions to 0.54 G (AVX), and the kernel's time by 40% (perf).
 *
 * Kernels (solver_si_wide_kernel.h, one source), chosen at run time:
 * eight lanes in one AVX-512 register, on bundles of eight, where the
 * processor and the system have AVX-512F and AVX-512VL (x86-64 builds
 * with GCC: the AVX copies need its target pragma); else four lanes in one AVX
 * register, on bundles of four, where they have AVX (no FMA in either: it
 * would change the rounding); else two lanes (SSE2, or the generic
 * vector extension), run on a bundle of four as two halves.
 *
 * Why eight lanes where the processor has them: a lane's points are a
 * chain of dependent steps, so the four-lane kernel waited on latency,
 * not on the processor's arithmetic units (perf spread its samples over
 * the chain's instructions, not over loads).  Eight independent chains
 * in one register do twice the work per link: on AMD Zen 4, which runs a
 * 512-bit operation as two 256-bit halves, the kernel's samples on the
 * full falling boxes fell by 20% (3,736 to 3,007 over 600 steps) and the
 * solve phase by 7.5% (rfbench_ab, one thread, the same state hashes).
 * The four-lane AVX kernel run on bundles of eight as two halves lost
 * 3-13% on the same scenes (twice the padding, no longer chains), so
 * processors without AVX-512 keep bundles of four.  Both kernels load
 * their lanes' body velocities and the build's contact data by rows and
 * transpose them (8 x 8, or 4 x 4): building a vector lane by lane was
 * over a third of the eight-lane kernel's samples, and the transposes
 * took 8% off the four-lane kernel's solve phase on the falling boxes.
 *
 * Exactness: every lane does the row form's arithmetic on its manifold in
 * the row form's order (the same products, sums and selections, no
 * contraction to FMA), so a bundle gives the bits the group kernel gives,
 * up to the sign of zeros: the solve's result depends neither on which
 * groups were bundled nor on the kernel (tests/test_si_wide.c).  A lane
 * with fewer points than its bundle's longest is padded with zero
 * records, whose steps are exact zeros.
 *
 * Bundles (rf__si_wide_pack, once per solve after the colouring, before
 * the records): in each colour that may run in parallel, the contact
 * groups of at most RF__SI_WMAX points, si_lanes at a time, longest first,
 * in two kinds that never share a bundle: plain (no point with spin or
 * rolling friction: the common box and hull manifold) and angular (some
 * point with spin or rolling friction: RollingFrictionDemo's, a sphere
 * pile's); the colour's other groups stay with the group kernel.  The
 * pack gives each bundled contact a slot and lane (work.si_wpos), and
 * rf__si_wide_build writes its records there: the row form's normal and
 * friction records, field by field, si_lanes lanes each, and for an angular
 * bundle the angular record at its angular slots (numbered apart, so
 * that plain bundles leave no gap in them).  Its impulses (normal and the
 * two sliding components; spin and rolling at the angular slots) live in
 * si_wg and si_wga for the whole solve (rf__si_wide_gamma moves them in
 * and out).
 *
 * An angular bundle's friction pass runs the row form's rounds lane by
 * lane: each point's sliding, spin and rolling steps (the one-component
 * step for a roll_t1 cone, selected per lane), repeated while the lane's
 * round changed something above rounding level, each lane stopping on its
 * own (a zero step on a lane that stopped, whose guard terms and updates
 * are exact zeros).  RollingFrictionDemo (about 240 contacts, all with
 * spin and rolling friction, 600 steps, 1 thread): 0.80x the group
 * kernel's step (1.65x stock's -> 1.31x; rfbench_ab, the fifteenth
 * benchmark round); the full pyramid with rolling friction 0.01 m on
 * every box 0.60x (1.76x -> 1.05x).
 */
#include "internal.h"

#include <string.h>

#if !defined(__GNUC__)
#error "solver_si_wide.c needs the GCC/Clang vector extension (vector_size)"
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
/* The AVX copy of the kernel: x86-64 with GCC (its target pragma), chosen
   at run time where the processor and the system have AVX. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define RF__WIDE_AVX 1
#include <immintrin.h>
#endif

/* wide normal record (RF__SI_WN fields of si_lanes doubles; no M^-1 n: the
   kernel forms it from the bundle's masses, si_wm, as the row form does) */
enum {
    WN_N = 0,   /* n (3) */
    WN_RA = 3,  /* r_a x n */
    WN_RB = 6,  /* r_b x n */
    WN_IA = 9,  /* I_a^-1 (r_a x n) */
    WN_IB = 12, /* I_b^-1 (r_b x n) */
    WN_BIAS = 15,
    WN_CFM = 16,
    WN_W = 17,
    WN_INV = 18,
    WN_NMAX = 19
};
/* wide friction record (RF__SI_WF fields) */
enum {
    WF_T1 = 0,
    WF_T2 = 3,
    WF_RA1 = 6,
    WF_RA2 = 9,
    WF_RB1 = 12,
    WF_RB2 = 15,
    WF_IA1 = 18,
    WF_IA2 = 21,
    WF_IB1 = 24,
    WF_IB2 = 27,
    WF_BIAS = 30, /* b_u, b_w */
    WF_CFM = 32,  /* c_u, c_w */
    WF_W = 34,    /* W_uu, W_uw, W_ww */
    WF_MU = 37,
    WF_STEP = 38,
    WF_INV = 39 /* W_tt^-1 (3) */
};

/* wide angular record (RF__SI_WA fields; bundles of contacts with spin
   or rolling friction, at their angular slots) */
enum {
    WA_IAN = 0,   /* I_a^-1 n (3) */
    WA_IAT1 = 3,  /* I_a^-1 t1 */
    WA_IAT2 = 6,  /* I_a^-1 t2 */
    WA_IBN = 9,   /* I_b^-1 n */
    WA_IBT1 = 12, /* I_b^-1 t1 */
    WA_IBT2 = 15, /* I_b^-1 t2 */
    WA_WS = 18,   /* W_spin */
    WA_WR = 19,   /* W_roll: uu, uw, ww */
    WA_BIAS = 22, /* b_spin, b_roll_u, b_roll_w */
    WA_CFM = 25,  /* c_spin, c_roll_u, c_roll_w */
    WA_SIGMA = 28,
    WA_RHO = 29,
    WA_STEP = 30, /* 1 / lambda_max(W_roll) */
    WA_INV = 31,  /* W_roll^-1 (3; 0 when singular or roll_t1) */
    WA_T1 = 34    /* 1: a roll_t1 cone (rolling about t1 only), else 0 */
};

/* bundle metadata (internal.h) */
enum {
    BM_SLOT0 = RF__SI_BM_SLOT0,
    BM_NPT = RF__SI_BM_NPT,
    BM_ASLOT0 = RF__SI_BM_ASLOT0,
    BM_K = RF__SI_BM_K,
    BM_LO = RF__SI_BM_LO,
    BM_LEN = RF__SI_BM_LEN,
    BM_BODY = RF__SI_BM_BODY,
    BM_DYN = RF__SI_BM_DYN
};

/* The kernels: two lanes per vector (SSE2, or generic), run on a bundle
   of four as two halves; four (AVX), a bundle of four at once; eight
   (AVX-512), a bundle of eight at once.  The same arithmetic lane by
   lane, so the same bits. */
#define WK_LANES 2
#define WK_BUNDLE 4
#define WK(name) wk2_##name
#include "solver_si_wide_kernel.h"
#undef WK
#undef WK_BUNDLE
#undef WK_LANES

#if defined(RF__WIDE_AVX)
#pragma GCC push_options
#pragma GCC target("avx")
#define WK_LANES 4
#define WK_BUNDLE 4
#define WK(name) wk4_##name
#include "solver_si_wide_kernel.h"
#undef WK
#undef WK_BUNDLE
#undef WK_LANES
#pragma GCC pop_options

/* Eight lanes in AVX-512's 512-bit registers, 32 of them, so the two
   bodies' velocities, a row and its responses mostly stay in registers.
   No FMA (-ffp-contract=off), so the same bits. */
#pragma GCC push_options
#pragma GCC target("avx,avx2,avx512f,avx512vl")
#define WK_LANES 8
#define WK_BUNDLE 8
#define WK(name) wk8_##name
#include "solver_si_wide_kernel.h"
#undef WK
#undef WK_BUNDLE
#undef WK_LANES
#pragma GCC pop_options
#endif

void rf__si_wide_bundle(const rf_problem *p, int pass_friction, int rounds,
                        int bundle, double *vel, const double *run, double *sum)
{
    const int f = pass_friction;
#if defined(RF__WIDE_AVX)
    if (p->work.si_kernel == RF__SI_KERNEL_AVX512) {
        wk8_bundle(p, f, rounds, bundle, 0, vel, run, sum);
        return;
    }
    if (p->work.si_kernel == RF__SI_KERNEL_AVX) {
        wk4_bundle(p, f, rounds, bundle, 0, vel, run, sum);
        return;
    }
#endif
    for (int h = 0; h < p->work.si_lanes; h += 2) { /* 4: rf__si_kernel_lanes */
        wk2_bundle(p, f, rounds, bundle, h, vel, run, sum);
    }
}

void rf__si_wide_build(rf_problem *p, int bundle)
{
#if defined(RF__WIDE_AVX)
    if (p->work.si_kernel == RF__SI_KERNEL_AVX512) {
        wk8_build(p, bundle, 0);
        return;
    }
    if (p->work.si_kernel == RF__SI_KERNEL_AVX) {
        wk4_build(p, bundle, 0);
        return;
    }
#endif
    for (int h = 0; h < p->work.si_lanes; h += 2) {
        wk2_build(p, bundle, h);
    }
}

/* The bundle kind of group grp: 0 none (joint rows, or more than
   RF__SI_WMAX points), BUNDLE_PLAIN (no point with spin or rolling
   friction: the common box and hull manifold), BUNDLE_ANG (some). */
enum { BUNDLE_PLAIN = 1, BUNDLE_ANG = 2 };
static int bundle_kind(const rf_problem *p, int grp)
{
    const rf_work *w = &p->work;
    const int lo = w->si_group[grp], hi = w->si_group[grp + 1];
    if (lo >= p->ncon || hi - lo > RF__SI_WMAX) {
        return 0;
    }
    /* the lanes read unit tangents: a group with axis scales
       (rf_problem_set_sliding_scales, _rolling_scales) is left to the
       group kernel */
    if (p->axis_on) {
        for (int i = lo; i < hi; ++i) {
            const double *a = p->con_axis + 4 * i;
            if (a[0] != 1.0 || a[1] != 1.0 || a[2] != 1.0 || a[3] != 1.0) {
                return 0;
            }
        }
    }
    for (int i = lo; i < hi; ++i) {
        if (rf__contact_angular(p, i)) {
            return BUNDLE_ANG; /* rf__si_rows_build's RF__SI_ANG */
        }
    }
    return BUNDLE_PLAIN;
}

/* Bundle the groups at colour positions kk[0 .. n) (longest first) from
   slot *slot on (and, ang, angular slot *aslot on); returns the bundle
   count made. */
static int make_bundles(rf_problem *p, const int *kk, int n, int ang,
                        int *nbundle, int *slot, int *aslot)
{
    rf_work *w = &p->work;
    const int lanes = w->si_lanes;
    int made = 0;
    for (int f = 0; f < n; f += lanes) {
        int *meta = w->si_bundle + (size_t)RF__SI_BMETA * (*nbundle);
        const int first = w->color_con[kk[f]];
        const int npt = w->si_group[first + 1] - w->si_group[first];
        meta[BM_SLOT0] = *slot;
        meta[BM_NPT] = npt;
        meta[BM_ASLOT0] = ang ? *aslot : -1;
        *aslot += ang ? npt : 0;
        meta[BM_DYN] = 0;
        double *m = w->si_wm + (size_t)6 * lanes * (*nbundle);
        for (int l = 0; l < lanes; ++l) {
            meta[BM_K + l] = -1;
            meta[BM_LO + l] = 0;
            meta[BM_LEN + l] = 0;
            meta[BM_BODY + 2 * l] = meta[BM_BODY + 2 * l + 1] = RF_WORLD;
            for (int c = 0; c < 6; ++c) {
                m[c * lanes + l] = 0.0;
            }
            if (f + l >= n) {
                continue;
            }
            const int grp = w->color_con[kk[f + l]];
            const int lo = w->si_group[grp], hi = w->si_group[grp + 1];
            meta[BM_K + l] = kk[f + l];
            meta[BM_LO + l] = lo;
            meta[BM_LEN + l] = hi - lo;
            for (int sd = 0; sd < 2; ++sd) { /* the group's sides */
                const int b = p->con_body[2 * lo + sd];
                meta[BM_BODY + 2 * l + sd] = b;
                if (rf__dynamic_body(p, b)) {
                    meta[BM_DYN] |= 1 << (2 * l + sd);
                    for (int c = 0; c < 3; ++c) {
                        m[(3 * sd + c) * lanes + l] =
                            p->body_inv_mass[3 * b + c];
                    }
                }
            }
            for (int i = lo; i < hi; ++i) { /* rf__si_wide_build's */
                w->si_wpos[i] = (*slot + (i - lo)) * lanes + l;
            }
        }
        *slot += npt;
        ++*nbundle;
        ++made;
    }
    return made;
}

/* libgcc's check: CPUID and the register state the system saves, YMM
   for AVX, ZMM and the mask registers for AVX-512. */
int rf__si_wide_kernel(int mode)
{
#if defined(RF__WIDE_AVX)
    if (mode != RF__SI_WIDE_AUTO && mode != RF__SI_WIDE_AVX) {
        return RF__SI_KERNEL_TWO;
    }
    __builtin_cpu_init();
    if (mode == RF__SI_WIDE_AUTO && __builtin_cpu_supports("avx512f") &&
        __builtin_cpu_supports("avx512vl")) {
        return RF__SI_KERNEL_AVX512;
    }
    return __builtin_cpu_supports("avx") ? RF__SI_KERNEL_AVX
                                         : RF__SI_KERNEL_TWO;
#else
    (void)mode;
    return RF__SI_KERNEL_TWO;
#endif
}

int rf__si_kernel_lanes(int kernel)
{
    return kernel == RF__SI_KERNEL_AVX512 ? 8 : 4;
}

void rf__si_wide_clear(rf_problem *p)
{
    p->work.si_nbundle = 0;
    for (int i = 0; i < p->ncon; ++i) {
        p->work.si_wpos[i] = -1; /* the row form's own records */
    }
}

/* Of the groups at colour positions kk[0 .. n) of one kind (longest
   first), bundle those the slots reserved hold (rf__si_slot_bound), the
   rest single units; the units to si_unit from *nunit on. */
static void bundle_kind_run(rf_problem *p, const int *kk, int n, int ang,
                            int *nunit, int *nbundle, int *slot, int *aslot)
{
    rf_work *w = &p->work;
    const int lanes = w->si_lanes;
    int fit = 0, need = 0;
    for (int f = 0; f < n; f += lanes) {
        const int first = w->color_con[kk[f]];
        need += w->si_group[first + 1] - w->si_group[first];
        /* the capacities count lane slots */
        if ((long)(*slot + need) * lanes > w->cap_si_slot ||
            (ang && (long)(*aslot + need) * lanes > w->cap_si_aslot)) {
            break;
        }
        fit = f + lanes < n ? f + lanes : n;
    }
    for (int f = fit; f < n; ++f) { /* not bundled after all */
        w->si_unit[(*nunit)++] = kk[f];
    }
    const int b0 = *nbundle;
    const int made = make_bundles(p, kk, fit, ang, nbundle, slot, aslot);
    for (int b = 0; b < made; ++b) {
        w->si_unit[(*nunit)++] = -(b0 + b) - 1;
    }
}

void rf__si_wide_pack(rf_problem *p, int wide)
{
    rf_work *w = &p->work;
    int nunit = 0, nbundle = 0, slot = 0, aslot = 0;
    wide = wide && w->si_wide_mode != RF__SI_WIDE_OFF;
    rf__si_wide_clear(p); /* si_kernel and si_lanes: rf__work_reserve_si */
    enum { NKEY = 2 * RF__SI_WMAX }; /* (kind, length) keys */
    for (int c = 0; c < w->ncolor; ++c) {
        const int lo = w->color_ptr[c], hi = w->color_ptr[c + 1];
        w->si_unit_ptr[c] = nunit;
        const int serial =
            c == w->si_serial_color[0] || c == w->si_serial_color[1];
        if (!wide || serial) {
            for (int k = lo; k < hi; ++k) {
                w->si_unit[nunit++] = k;
            }
            continue;
        }
        /* the bundled groups by kind (plain, then angular: a bundle holds
           one kind), each kind by length, longest first (less padding),
           each length in colour order (a counting sort: one look at each
           group); the rest stay single units */
        int *kk = w->si_wk, *key = w->si_wlen + lo; /* NKEY: not bundled */
        int at[NKEY + 2] = {0};
        for (int k = lo; k < hi; ++k) {
            const int grp = w->color_con[k];
            const int kind = bundle_kind(p, grp);
            const int len = w->si_group[grp + 1] - w->si_group[grp];
            key[k - lo] = kind == 0
                              ? NKEY
                              : (kind - 1) * RF__SI_WMAX + (RF__SI_WMAX - len);
            ++at[key[k - lo] + 1];
        }
        for (int q = 1; q <= NKEY + 1; ++q) {
            at[q] += at[q - 1];
        }
        const int nplain = at[RF__SI_WMAX], n = at[NKEY];
        for (int k = lo; k < hi; ++k) {
            if (key[k - lo] < NKEY) {
                kk[at[key[k - lo]]++] = k;
            }
        }
        bundle_kind_run(p, kk, nplain, 0, &nunit, &nbundle, &slot, &aslot);
        bundle_kind_run(p, kk + nplain, n - nplain, 1, &nunit, &nbundle, &slot,
                        &aslot);
        for (int k = lo; k < hi; ++k) {
            if (key[k - lo] == NKEY) {
                w->si_unit[nunit++] = k;
            }
        }
    }
    w->si_unit_ptr[w->ncolor] = nunit;
    w->si_nbundle = nbundle;
}

/* Three impulse components per point of a bundle between g (component
   off of each contact's six) and the fields at G0 (out: to g; else from
   g, the padding zeroed).  out and off are constants where inlined. */
static RF__ALWAYS_INLINE void move3(const int *meta, int lanes, double *G0,
                                    double *g, int off, int out)
{
    const int npt = meta[BM_NPT];
    for (int l = 0; l < lanes; ++l) {
        const int lo = meta[BM_LO + l], len = meta[BM_LEN + l];
        for (int j = 0; j < npt; ++j) {
            double *G = G0 + (size_t)j * 3 * lanes + l;
            double *x = j < len ? g + 6 * (size_t)(lo + j) + off : NULL;
            if (x != NULL && out) {
                x[0] = G[0];
                x[1] = G[lanes];
                x[2] = G[2 * lanes];
            } else if (x != NULL) {
                G[0] = x[0];
                G[lanes] = x[1];
                G[2 * lanes] = x[2];
            } else if (!out) { /* padding */
                G[0] = G[lanes] = G[2 * lanes] = 0.0;
            }
        }
    }
}

/* The bundles' impulses between g and their slots (worksharing: in a
   region or called alone). */
static void gamma_bundles(rf_work *w, double *g, int out)
{
    const int nbundle = w->si_nbundle, lanes = w->si_lanes;
#pragma omp for schedule(static)
    for (int b = 0; b < nbundle; ++b) {
        const int *meta = w->si_bundle + (size_t)RF__SI_BMETA * b;
        /* the normal and sliding impulses at the slots, the spin and
           rolling ones at the angular slots */
        double *G = w->si_wg + (size_t)meta[BM_SLOT0] * 3 * lanes;
        double *GA = meta[BM_ASLOT0] >= 0
                         ? w->si_wga + (size_t)meta[BM_ASLOT0] * 3 * lanes
                         : NULL;
        if (out) {
            move3(meta, lanes, G, g, 0, 1);
            if (GA != NULL) {
                move3(meta, lanes, GA, g, 3, 1);
            }
        } else {
            move3(meta, lanes, G, g, 0, 0);
            if (GA != NULL) {
                move3(meta, lanes, GA, g, 3, 0);
            }
        }
    }
}

void rf__si_wide_gamma(rf_problem *p, double *g, int out, int threads)
{
    /* bundles apart: each its own slots and contacts (on the solve's
       threads: serial, it was 2% of a two-thread step of the full
       pyramid) */
    RF__PASS(threads, p->work.si_nbundle > 128,
             gamma_bundles(&p->work, g, out));
}
