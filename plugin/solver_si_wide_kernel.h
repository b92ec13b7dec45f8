/*
 * The wide form's bundle kernel (solver_si_wide.c), written once for any
 * lane count: solver_si_wide.c includes this file once per instruction
 * set, with
 *   WK_LANES   the lanes one vector holds (2: SSE2 or generic, 4: AVX,
 *              8: AVX-512),
 *   WK_BUNDLE  the lanes of the bundles it runs (work.si_lanes: 4 or 8),
 *   WK(name)   the name of this copy's function or type name.
 * A copy runs lanes [h, h + WK_LANES) of a bundle (WK_BUNDLE lanes,
 * records laid out field by field with WK_BUNDLE doubles each), so the
 * two-lane copy runs a four-lane bundle as two halves.  No include guard:
 * it is meant to be included more than once.
 */

#define VL WK(vl)
#define VM WK(vm)

typedef double VL __attribute__((vector_size(WK_LANES * sizeof(double))));
typedef long long VM __attribute__((vector_size(WK_LANES * sizeof(long long))));

static RF__ALWAYS_INLINE VL WK(load)(const double *x)
{
    VL v;
    memcpy(&v, x, sizeof v);
    return v;
}

static RF__ALWAYS_INLINE void WK(store)(double *x, VL v)
{
    memcpy(x, &v, sizeof v);
}

static RF__ALWAYS_INLINE VL WK(set1)(double s)
{
    const VL z = {0};
    return z + s;
}

/* m ? a : b lane by lane (m from a vector comparison: all ones or 0) */
static RF__ALWAYS_INLINE VL WK(sel)(VM m, VL a, VL b)
{
    return (VL)(((VM)a & m) | ((VM)b & ~m));
}

/* the lanes of m set, one bit each (lane l: bit l) */
static RF__ALWAYS_INLINE int WK(bits)(VM m)
{
#if WK_LANES == 8 && defined(RF__WIDE_AVX)
    __m512i v;
    memcpy(&v, &m, sizeof v);
    return (int)_mm512_test_epi64_mask(v, v);
#elif WK_LANES == 4 && defined(RF__WIDE_AVX)
    __m256d v;
    memcpy(&v, &m, sizeof v);
    return _mm256_movemask_pd(v);
#elif WK_LANES == 2 && defined(__SSE2__)
    __m128d v;
    memcpy(&v, &m, sizeof v);
    return _mm_movemask_pd(v);
#else
    int bits = 0;
    for (int l = 0; l < WK_LANES; ++l) {
        bits |= (m[l] != 0) << l;
    }
    return bits;
#endif
}

/* every lane of m is set */
static RF__ALWAYS_INLINE int WK(all)(VM m)
{
    return WK(bits)(m) == (1 << WK_LANES) - 1;
}

/* no lane of m is set */
static RF__ALWAYS_INLINE int WK(none)(VM m)
{
    return WK(bits)(m) == 0;
}

static RF__ALWAYS_INLINE VL WK(sqrt)(VL x)
{
    VL r;
#if WK_LANES == 8 && defined(RF__WIDE_AVX)
    __m512d v;
    memcpy(&v, &x, sizeof v);
    v = _mm512_sqrt_pd(v);
    memcpy(&r, &v, sizeof r);
#elif WK_LANES == 4 && defined(RF__WIDE_AVX)
    __m256d v;
    memcpy(&v, &x, sizeof v);
    v = _mm256_sqrt_pd(v);
    memcpy(&r, &v, sizeof r);
#elif WK_LANES == 2 && defined(__SSE2__)
    __m128d v;
    memcpy(&v, &x, sizeof v);
    v = _mm_sqrt_pd(v);
    memcpy(&r, &v, sizeof r);
#else
    for (int l = 0; l < WK_LANES; ++l) {
        r[l] = sqrt(x[l]);
    }
#endif
    return r;
}

/* rf__clamp lane by lane: x < lo ? lo : (x > hi ? hi : x) */
static RF__ALWAYS_INLINE VL WK(clamp)(VL x, VL lo, VL hi)
{
    return WK(sel)(x < lo, lo, WK(sel)(x > hi, hi, x));
}

/* The one-component part step (part_step of solver_si_rows.c with n =
   1, lane by lane): clamp(g - u / a, -rad, rad) - g, or clamp(g, ..) - g
   where a is not positive. */
static RF__ALWAYS_INLINE VL WK(step1)(VL g, VL u, VL a, VL rad)
{
    const VM apos = a > RF_MINVAL;
    const VL z = WK(sel)(apos, g - u / WK(sel)(apos, a, WK(set1)(1.0)), g);
    return WK(clamp)(z, -rad, rad) - g;
}

/* The row form's three-lane dot product a.b + c.d - e.f, summed as its
   v4_dot3 sums it: (x + z) + y (its fourth lane is an exact 0). */
static RF__ALWAYS_INLINE VL WK(dot3)(const VL *a, const VL *b, const VL *c,
                                     const VL *d, const VL *e, const VL *f)
{
    const VL x = a[0] * b[0] + c[0] * d[0] - e[0] * f[0];
    const VL y = a[1] * b[1] + c[1] * d[1] - e[1] * f[1];
    const VL z = a[2] * b[2] + c[2] * d[2] - e[2] * f[2];
    return (x + z) + y;
}

/* The energy guard, rf__si_guard_apply lane by lane (internal.h): the
   fraction of the step to take; S the lanes' slack, de and db their
   running changes. */
typedef struct WK(guard) {
    VL S, de, db;
    VM live;   /* per lane: its island is not done (else every step is 0) */
    int mixed; /* some lane is done */
} WK(guard);

static RF__ALWAYS_INLINE VL WK(guard_apply)(WK(guard) * g, VL du, VL db, VL q)
{
    /* the common case, every lane live (a scalar branch, which the
       predictor takes for free, not a select on every step) */
    const VL whole = du + 0.5 * q;
    const VM fits = !g->mixed ? whole <= g->S : (whole <= g->S) & g->live;
    if (WK(all)(fits)) { /* the common case */
        g->S = g->S - whole;
        g->de = g->de + (du - db + 0.5 * q);
        g->db = g->db + db;
        return WK(set1)(1.0);
    }
    const VL one = WK(set1)(1.0), zero = WK(set1)(0.0);
    const VM qpos = q > RF_MINVAL, cpos = du > zero;
    const VL qs = WK(sel)(qpos, q, one), cs = WK(sel)(cpos, du, one);
    VL a = WK(sel)(qpos, (-du + WK(sqrt)(du * du + 2.0 * q * g->S)) / qs,
                   WK(sel)(cpos, g->S / cs, one));
    a = WK(sel)(a > one, one, WK(sel)(a > zero, a, zero));
    a = WK(sel)(g->live, a, zero);
    const VL spent = a * du + 0.5 * a * a * q;
    const VL S_rare = WK(sel)(g->S > spent, g->S - spent, zero);
    const VL de_rare = g->de + (a * (du - db) + 0.5 * a * a * q);
    const VL db_rare = g->db + a * db;
    g->S = WK(sel)(fits, g->S - whole, S_rare);
    g->de = WK(sel)(fits, g->de + (du - db + 0.5 * q), de_rare);
    g->db = WK(sel)(fits, g->db + db, db_rare);
    return WK(sel)(fits, one, a);
}

/* The lanes' bodies: the two sides' velocities, linear and angular, a
   component per vector (a side that is not dynamic is read only).  The
   inverse masses stay in memory (si_wm, read where M^-1 n or M^-1 t is
   applied): AVX's sixteen registers hold the velocities and a row, not
   the masses too. */
typedef struct WK(bodies) {
    VL la[3], aa[3], lb[3], ab[3];
} WK(bodies);

#if WK_LANES == 8 && defined(RF__WIDE_AVX)
/* An 8 x 8 transpose (out[c][l] = in[l][c]): pairs unpacked, then
   128-bit blocks taken twice, 24 shuffles. */
static RF__ALWAYS_INLINE void WK(transpose)(const __m512d in[8], __m512d out[8])
{
    __m512d t[8], a[8];
    for (int k = 0; k < 4; ++k) { /* t[2k]: even columns, t[2k+1]: odd */
        t[2 * k] = _mm512_unpacklo_pd(in[2 * k], in[2 * k + 1]);
        t[2 * k + 1] = _mm512_unpackhi_pd(in[2 * k], in[2 * k + 1]);
    }
    for (int k = 0; k < 2; ++k) {     /* rows 4k .. 4k + 3 */
        for (int o = 0; o < 2; ++o) { /* even, odd columns */
            const __m512d x = t[4 * k + o], y = t[4 * k + 2 + o];
            a[4 * k + o] = _mm512_shuffle_f64x2(x, y, 0x88);
            a[4 * k + 2 + o] = _mm512_shuffle_f64x2(x, y, 0xDD);
        }
    }
    /* a[0]: columns 0 and 4 of rows 0-3, a[1]: 1 and 5, a[2]: 2 and 6,
       a[3]: 3 and 7; a[4 ..]: the same of rows 4-7 */
    for (int c = 0; c < 4; ++c) {
        out[c] = _mm512_shuffle_f64x2(a[c], a[4 + c], 0x88);
        out[c + 4] = _mm512_shuffle_f64x2(a[c], a[4 + c], 0xDD);
    }
}
#elif WK_LANES == 4 && defined(RF__WIDE_AVX)
/* A 4 x 4 transpose (out[c][l] = in[l][c]): pairs unpacked, then 128-bit
   halves exchanged, 8 shuffles. */
static RF__ALWAYS_INLINE void WK(transpose)(const __m256d in[4], __m256d out[4])
{
    const __m256d t0 = _mm256_unpacklo_pd(in[0], in[1]);
    const __m256d t1 = _mm256_unpackhi_pd(in[0], in[1]);
    const __m256d t2 = _mm256_unpacklo_pd(in[2], in[3]);
    const __m256d t3 = _mm256_unpackhi_pd(in[2], in[3]);
    out[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
    out[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    out[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
    out[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
}
#endif

/* lane vectors of n doubles from each lane's source (zero for none) */
static RF__ALWAYS_INLINE void WK(gather)(const double *const *src, int n,
                                         VL *out)
{
    int k = 0;
#if WK_LANES == 8 && defined(RF__WIDE_AVX)
    /* the first eight of each lane's n in one masked load, transposed:
       building each vector lane by lane was over a third of the bundle
       kernel's samples (the velocities) and a quarter of the build's */
    if (n > 1) {
        const int m = n < 8 ? n : 8;
        __m512d row[8], col[8];
        for (int l = 0; l < 8; ++l) {
            row[l] = _mm512_maskz_loadu_pd((__mmask8)((1u << m) - 1), src[l]);
        }
        WK(transpose)(row, col);
        for (; k < m; ++k) {
            out[k] = (VL)col[k];
        }
    }
#elif WK_LANES == 4 && defined(RF__WIDE_AVX)
    /* four of each lane's n at a time, transposed (the sources hold n) */
    for (; k + 4 <= n; k += 4) {
        __m256d row[4], col[4];
        for (int l = 0; l < 4; ++l) {
            row[l] = _mm256_loadu_pd(src[l] + k);
        }
        WK(transpose)(row, col);
        for (int c = 0; c < 4; ++c) {
            out[k + c] = (VL)col[c];
        }
    }
    if (k + 2 <= n) { /* two more by pairs: lanes 0 and 2 in u, 1 and 3 in w */
        const __m256d u = _mm256_set_m128d(_mm_loadu_pd(src[2] + k),
                                           _mm_loadu_pd(src[0] + k));
        const __m256d w = _mm256_set_m128d(_mm_loadu_pd(src[3] + k),
                                           _mm_loadu_pd(src[1] + k));
        out[k] = (VL)_mm256_unpacklo_pd(u, w);
        out[k + 1] = (VL)_mm256_unpackhi_pd(u, w);
        k += 2;
    }
#endif
    for (; k < n; ++k) {
        VL v = {0};
        for (int l = 0; l < WK_LANES; ++l) {
            v[l] = src[l][k];
        }
        out[k] = v;
    }
}

static RF__ALWAYS_INLINE void WK(bodies_load)(const int *meta, int h,
                                              const double *vel, WK(bodies) * v)
{
    static const double zero[6] = {0, 0, 0, 0, 0, 0};
    const double *x[2][WK_LANES];
    for (int l = 0; l < WK_LANES; ++l) {
        for (int s = 0; s < 2; ++s) { /* RF_WORLD too for an empty lane */
            const int b = meta[BM_BODY + 2 * (h + l) + s];
            x[s][l] = b != RF_WORLD ? vel + 6 * b : zero;
        }
    }
    /* each lane's six components by rows, transposed (WK(gather)) */
    for (int s = 0; s < 2; ++s) {
        VL col[6];
        WK(gather)(x[s], 6, col);
        for (int c = 0; c < 3; ++c) {
            (s == 0 ? v->la : v->lb)[c] = col[c];
            (s == 0 ? v->aa : v->ab)[c] = col[3 + c];
        }
    }
}

static RF__ALWAYS_INLINE void
WK(bodies_store)(const int *meta, int h, double *vel, const WK(bodies) * v)
{
#if WK_LANES == 8 && defined(RF__WIDE_AVX)
    /* transposed back, then one masked store per lane and dynamic side */
    __m512d row[2][8];
    for (int s = 0; s < 2; ++s) {
        __m512d col[8];
        for (int c = 0; c < 3; ++c) {
            col[c] = (__m512d)(s == 0 ? v->la : v->lb)[c];
            col[3 + c] = (__m512d)(s == 0 ? v->aa : v->ab)[c];
        }
        col[6] = col[7] = _mm512_setzero_pd();
        WK(transpose)(col, row[s]);
    }
#elif WK_LANES == 4 && defined(RF__WIDE_AVX)
    /* components 0-3 of each lane by a 4 x 4 transpose, 4 and 5 by pairs
       (lane 0 and 2 in u's halves, 1 and 3 in w's) */
    __m256d row[2][4];
    __m128d hi[2][4];
    for (int s = 0; s < 2; ++s) {
        const VL *lin = s == 0 ? v->la : v->lb, *ang = s == 0 ? v->aa : v->ab;
        const __m256d col[4] = {(__m256d)lin[0], (__m256d)lin[1],
                                (__m256d)lin[2], (__m256d)ang[0]};
        WK(transpose)(col, row[s]);
        const __m256d u = _mm256_unpacklo_pd((__m256d)ang[1], (__m256d)ang[2]);
        const __m256d w = _mm256_unpackhi_pd((__m256d)ang[1], (__m256d)ang[2]);
        hi[s][0] = _mm256_castpd256_pd128(u);
        hi[s][1] = _mm256_castpd256_pd128(w);
        hi[s][2] = _mm256_extractf128_pd(u, 1);
        hi[s][3] = _mm256_extractf128_pd(w, 1);
    }
#endif
    const int *body = meta + BM_BODY + 2 * h;
    const int dyn = meta[BM_DYN] >> (2 * h);
    for (int l = 0; l < WK_LANES; ++l) {
        for (int s = 0; s < 2; ++s) {
            if (!((dyn >> (2 * l + s)) & 1)) {
                continue;
            }
            double *x = vel + 6 * body[2 * l + s];
#if WK_LANES == 8 && defined(RF__WIDE_AVX)
            _mm512_mask_storeu_pd(x, 0x3F, row[s][l]);
#elif WK_LANES == 4 && defined(RF__WIDE_AVX)
            _mm256_storeu_pd(x, row[s][l]);
            _mm_storeu_pd(x + 4, hi[s][l]);
#else
            const VL *lin = s == 0 ? v->la : v->lb;
            const VL *ang = s == 0 ? v->aa : v->ab;
            for (int c = 0; c < 3; ++c) {
                x[c] = lin[c][l];
                x[3 + c] = ang[c][l];
            }
#endif
        }
    }
}

/* Ask for the record of the slot RF__SI_WPF ahead: the records stream
   from the last-level cache (a 31,680-contact wall of boxes holds 15 MB
   of them), a point's record in a bundle of four spans 10 (normal) or 21
   (friction) cache lines (640 and 1,344 bytes; the arrays start on a
   line; twice that in a bundle of eight), and the loads
   of each slot's first fields stalled (a quarter of the kernel's
   samples).  With the hint that wall's solve (SI, 5 sweeps) takes 10%
   less time, a 1,560-contact wall 2% less (rfbench_ab --wall, median of
   20 rounds), the full pyramid's first 140 steps 2-4% less (rfbench_ab,
   one thread); asking for every line of the record, its last one
   included, took another 4.6% off the 31,680-contact wall and 3.4% off an
   11,060-contact one.  Two or more slots ahead gained less; a hint on the
   records the build writes cost 1%. */
#ifndef RF__SI_WPF
#define RF__SI_WPF 1
#endif
static RF__ALWAYS_INLINE void WK(prefetch)(const double *base, size_t slot,
                                           size_t fields)
{
    const size_t bytes = fields * WK_BUNDLE * sizeof(double);
    const uintptr_t a = (uintptr_t)base + (slot + RF__SI_WPF) * bytes;
    rf__prefetch_bytes(a, a + bytes);
}
/* Ask for n doubles from x on (the build's sources of the next bundle:
   its lanes' manifolds lie anywhere in the contact arrays). */
static RF__ALWAYS_INLINE void WK(prefetch_span)(const double *x, int n)
{
    rf__prefetch_bytes((uintptr_t)x, (uintptr_t)(x + n));
}
/* field f of a record's slot (r already offset to lane h) */
#define WFIELD(r, f) WK(load)((r) + (size_t)(f)*WK_BUNDLE)

static RF__ALWAYS_INLINE void WK(field3)(const double *r, int f, VL out[3])
{
    for (int c = 0; c < 3; ++c) {
        out[c] = WFIELD(r, f + c);
    }
}

/* The normal pass over npt slots (normal_group of solver_si_rows.c, lane
   by lane, its rounds too: a lane of two or more points (multi) repeats
   its rows while its last round changed them by more than
   RF__SI_NROUND_TOL of their size, at most rounds rounds; a lane that
   stopped takes exact zero steps, which leave its impulses, velocities,
   guard and sums as they were, so each lane gets normal_group's bits). */
static RF__ALWAYS_INLINE void WK(normal)(const rf_work *w, int slot0, int npt,
                                         int rounds, VM multi, int h,
                                         const double *m, WK(bodies) * v,
                                         WK(guard) * gd, VL *d2, VL *g2)
{
    const VL tol2 = WK(set1)(RF__SI_NROUND_TOL * RF__SI_NROUND_TOL);
    const VL zero = WK(set1)(0.0);
    VM on = ~(VM){0}; /* the lanes still at work */
    VL gsq = zero;
    for (int round = 0; round < rounds; ++round) {
        VL rd2 = zero;
        gsq = zero;
        for (int j = 0; j < npt; ++j) {
            const double *r =
                w->si_wn + (size_t)(slot0 + j) * RF__SI_WN * WK_BUNDLE + h;
            if (h == 0) {
                WK(prefetch)(w->si_wn, (size_t)(slot0 + j), RF__SI_WN);
            }
            double *G = w->si_wg + (size_t)(slot0 + j) * 3 * WK_BUNDLE + h;
            VL n[3], ra[3], rb[3], dv[3];
            WK(field3)(r, WN_N, n);
            WK(field3)(r, WN_RA, ra);
            WK(field3)(r, WN_RB, rb);
            for (int c = 0; c < 3; ++c) {
                dv[c] = v->la[c] - v->lb[c];
            }
            const VL gn = WK(load)(G);
            const VL bias = WFIELD(r, WN_BIAS), W = WFIELD(r, WN_W);
            const VL u = WK(dot3)(n, dv, ra, v->aa, rb, v->ab) + bias +
                         WFIELD(r, WN_CFM) * gn;
            VL d = WK(clamp)(gn - u * WFIELD(r, WN_INV), zero,
                             WFIELD(r, WN_NMAX)) -
                   gn;
            if (round > 0) {
                d = WK(sel)(on, d, zero);
            }
            d *= WK(guard_apply)(gd, d * u, d * bias, W * d * d);
            const VL g = gn + d;
            WK(store)(G, g);
            for (int c = 0; c < 3; ++c) { /* M^-1 n formed here, as the
                                              row form does (the same
                                              bits) */
                v->la[c] += d * (WFIELD(m, c) * n[c]);
                v->aa[c] += d * WFIELD(r, WN_IA + c);
                v->lb[c] -= d * (WFIELD(m, 3 + c) * n[c]);
                v->ab[c] -= d * WFIELD(r, WN_IB + c);
            }
            gsq += W * g * g;
            rd2 += W * d * d;
        }
        *d2 += rd2;
        on &= multi & (rd2 > tol2 * gsq);
        if (WK(none)(on)) {
            break;
        }
    }
    *g2 += gsq;
}

/* The row form's v4_dot, lane by lane: a.b summed as (x + z) + y. */
static RF__ALWAYS_INLINE VL WK(dotv)(const VL *a, const VL *b)
{
    return (a[0] * b[0] + a[2] * b[2]) + a[1] * b[1];
}

/* The two-component part step's target (part_step of solver_si_rows.c
   with n = 2, lane by lane): the exact step z = g - W^-1 u where W^-1
   exists (inv0 > 0) and z lies in the disc of radius rad, else the
   projected step Proj_disc(g - step u).  Returns z in z0, z1. */
static RF__ALWAYS_INLINE void WK(disc_step)(VL g0, VL g1, VL u0, VL u1, VL i0,
                                            VL i1, VL i2, VL step, VL rad,
                                            VL *z0, VL *z1)
{
    const VL zero = WK(set1)(0.0);
    const VM has_inv = i0 > zero;
    const VL s0 = g0 - (i0 * u0 + i1 * u1);
    const VL s1 = g1 - (i1 * u0 + i2 * u1);
    const VM stick = has_inv & (s0 * s0 + s1 * s1 <= rad * rad);
    VL p0 = g0 - step * u0, p1 = g1 - step * u1;
    if (!WK(all)(stick)) {
        const VL nz = WK(sqrt)(p0 * p0 + p1 * p1);
        const VM big = nz > RF_MINVAL;
        const VL f = WK(sel)(big, rad / WK(sel)(big, nz, WK(set1)(1.0)), zero);
        const VM out = nz > rad;
        p0 = WK(sel)(out, p0 * f, p0);
        p1 = WK(sel)(out, p1 * f, p1);
    }
    *z0 = WK(sel)(stick, s0, p0);
    *z1 = WK(sel)(stick, s1, p1);
}

/* One point's sliding step on the lanes on (sliding_step of
   solver_si_rows.c, lane by lane; a lane off takes a zero step, whose
   guard terms and updates are exact zeros): friction record r, the
   bundle's masses m, normal impulse gn, sliding impulses g1, g2 (in and
   out), velocities v.  Returns its d.W d. */
static RF__ALWAYS_INLINE VL WK(slide)(const double *r, const double *m, VL gn,
                                      VL *g1, VL *g2, VM on, WK(bodies) * v,
                                      WK(guard) * gd)
{
    const VL zero = WK(set1)(0.0);
    VL t1[3], t2[3], ra1[3], ra2[3], rb1[3], rb2[3], dv[3];
    WK(field3)(r, WF_T1, t1);
    WK(field3)(r, WF_T2, t2);
    WK(field3)(r, WF_RA1, ra1);
    WK(field3)(r, WF_RA2, ra2);
    WK(field3)(r, WF_RB1, rb1);
    WK(field3)(r, WF_RB2, rb2);
    for (int c = 0; c < 3; ++c) {
        dv[c] = v->la[c] - v->lb[c];
    }
    const VL b0 = WFIELD(r, WF_BIAS), b1 = WFIELD(r, WF_BIAS + 1);
    const VL u0 =
        WK(dot3)(t1, dv, ra1, v->aa, rb1, v->ab) + b0 + WFIELD(r, WF_CFM) * *g1;
    const VL u1 = WK(dot3)(t2, dv, ra2, v->aa, rb2, v->ab) + b1 +
                  WFIELD(r, WF_CFM + 1) * *g2;
    VL z0, z1;
    WK(disc_step)
    (*g1, *g2, u0, u1, WFIELD(r, WF_INV), WFIELD(r, WF_INV + 1),
     WFIELD(r, WF_INV + 2), WFIELD(r, WF_STEP), WFIELD(r, WF_MU) * gn, &z0,
     &z1);
    VL e0 = WK(sel)(on, z0 - *g1, zero);
    VL e1 = WK(sel)(on, z1 - *g2, zero);
    const VL W0 = WFIELD(r, WF_W), W1 = WFIELD(r, WF_W + 1),
             W2 = WFIELD(r, WF_W + 2);
    const VL du = e0 * u0 + e1 * u1;
    const VL db = e0 * b0 + e1 * b1;
    const VL qq = W0 * e0 * e0 + (2.0 * W1 * e0 * e1 + W2 * e1 * e1);
    const VL al = WK(guard_apply)(gd, du, db, qq);
    e0 *= al;
    e1 *= al;
    *g1 += e0;
    *g2 += e1;
    for (int c = 0; c < 3; ++c) {
        const VL P = e0 * t1[c] + e1 * t2[c];
        v->la[c] += WFIELD(m, c) * P;
        v->aa[c] += e0 * WFIELD(r, WF_IA1 + c) + e1 * WFIELD(r, WF_IA2 + c);
        v->lb[c] -= WFIELD(m, 3 + c) * P;
        v->ab[c] -= e0 * WFIELD(r, WF_IB1 + c) + e1 * WFIELD(r, WF_IB2 + c);
    }
    return al * al * qq;
}

/* The friction pass: each point's sliding pair (a lane whose mu is 0, or
   whose impulses are all zero, takes no step, as the row form skips
   it). */
static RF__ALWAYS_INLINE void WK(friction)(const rf_work *w, int slot0, int npt,
                                           int h, const double *m,
                                           WK(bodies) * v, WK(guard) * gd,
                                           VL *d2, VL *g2)
{
    const VL zero = WK(set1)(0.0);
    for (int j = 0; j < npt; ++j) {
        const double *r =
            w->si_wf + (size_t)(slot0 + j) * RF__SI_WF * WK_BUNDLE + h;
        if (h == 0) {
            WK(prefetch)(w->si_wf, (size_t)(slot0 + j), RF__SI_WF);
        }
        double *G = w->si_wg + (size_t)(slot0 + j) * 3 * WK_BUNDLE + h;
        const VL gn = WK(load)(G);
        VL n1 = WK(load)(G + WK_BUNDLE);
        VL n2 = WK(load)(G + 2 * WK_BUNDLE);
        /* the row form skips a contact whose impulses are all zero (its
           discs have radius 0 and it stays at 0; here, with no spin or
           rolling friction, the three in the bundle) */
        const VM idle = (gn == zero) & (n1 == zero) & (n2 == zero);
        const VM sliding = (WFIELD(r, WF_MU) > zero) & ~idle;
        *d2 += WK(slide)(r, m, gn, &n1, &n2, sliding, v, gd);
        WK(store)(G + WK_BUNDLE, n1);
        WK(store)(G + 2 * WK_BUNDLE, n2);
        *g2 += WFIELD(r, WF_W) * n1 * n1 + WFIELD(r, WF_W + 2) * n2 * n2;
    }
}

/* The friction pass of a bundle with spin or rolling friction
   (friction_group and angular_step of solver_si_rows.c, lane by lane):
   each point's sliding, spin and rolling parts, repeated up to rounds
   rounds while a lane's round changes something above rounding level; a
   point without spin or rolling friction takes one sliding step.  Each
   part's step is the row form's on the lanes that take it and a zero
   step on the others, so each lane's sums and impulses are the row
   form's.  Out of line, so that the plain bundles' passes keep their
   code as it was: inlined, RollingFrictionDemo ran the same (0.975x and
   1.008x in the two orders of rfbench_ab). */
static __attribute__((noinline)) void
WK(friction_ang)(const rf_work *w, int slot0, int aslot0, int npt, int rounds,
                 int h, const double *m, WK(bodies) * v, WK(guard) * gd, VL *d2,
                 VL *g2)
{
    const VL zero = WK(set1)(0.0);
    for (int j = 0; j < npt; ++j) {
        const double *r =
            w->si_wf + (size_t)(slot0 + j) * RF__SI_WF * WK_BUNDLE + h;
        const double *a =
            w->si_wa + (size_t)(aslot0 + j) * RF__SI_WA * WK_BUNDLE + h;
        const double *nr =
            w->si_wn + (size_t)(slot0 + j) * RF__SI_WN * WK_BUNDLE + h;
        if (h == 0) {
            WK(prefetch)(w->si_wf, (size_t)(slot0 + j), RF__SI_WF);
            WK(prefetch)(w->si_wa, (size_t)(aslot0 + j), RF__SI_WA);
        }
        double *G = w->si_wg + (size_t)(slot0 + j) * 3 * WK_BUNDLE + h;
        double *GA = w->si_wga + (size_t)(aslot0 + j) * 3 * WK_BUNDLE + h;
        const VL gn = WK(load)(G);
        VL g1 = WK(load)(G + WK_BUNDLE), g2v = WK(load)(G + 2 * WK_BUNDLE);
        VL gs = WK(load)(GA), gr0 = WK(load)(GA + WK_BUNDLE),
           gr1 = WK(load)(GA + 2 * WK_BUNDLE);
        const VL sigma = WFIELD(a, WA_SIGMA), rho = WFIELD(a, WA_RHO);
        const VM spin = sigma > zero, roll = rho > zero;
        const VM t1 = WFIELD(a, WA_T1) > zero;
        const VM sliding = WFIELD(r, WF_MU) > zero;
        /* the row form's skip: every impulse zero */
        VM on = ~((gn == zero) & (g1 == zero) & (g2v == zero) & (gs == zero) &
                  (gr0 == zero) & (gr1 == zero));
        const VL W0 = WFIELD(r, WF_W), W2 = WFIELD(r, WF_W + 2);
        for (int round = 0; round < rounds && !WK(none)(on); ++round) {
            const VL qs = WK(slide)(r, m, gn, &g1, &g2v, sliding & on, v, gd);
            VL dw[3], nv[3];
            /* spin about n: part_step with one component (no lane
               spinning: nothing to do, the zero step changes no bit) */
            VL qsp = zero;
            if (!WK(none)(spin & on)) {
                for (int c = 0; c < 3; ++c) {
                    dw[c] = v->aa[c] - v->ab[c];
                    nv[c] = WFIELD(nr, WN_N + c);
                }
                const VL b = WFIELD(a, WA_BIAS), Ws = WFIELD(a, WA_WS);
                const VL u = WK(dotv)(nv, dw) + b + WFIELD(a, WA_CFM) * gs;
                VL e =
                    WK(sel)(spin & on, WK(step1)(gs, u, Ws, sigma * gn), zero);
                const VL du = e * u + zero * zero;
                const VL db = e * b + zero;
                const VL qq = Ws * e * e + zero;
                const VL al = WK(guard_apply)(gd, du, db, qq);
                e *= al;
                gs += e;
                qsp = al * al * qq;
                for (int c = 0; c < 3; ++c) {
                    v->aa[c] += e * WFIELD(a, WA_IAN + c);
                    v->ab[c] -= e * WFIELD(a, WA_IBN + c);
                }
            }
            /* rolling about t1 and t2 (t1 alone for a roll_t1 cone) */
            VL qr = zero;
            const VM go = roll & on;
            if (!WK(none)(go)) {
                VL t1v[3], t2v[3];
                for (int c = 0; c < 3; ++c) {
                    dw[c] = v->aa[c] - v->ab[c];
                    t1v[c] = WFIELD(r, WF_T1 + c);
                    t2v[c] = WFIELD(r, WF_T2 + c);
                }
                const VL b0 = WFIELD(a, WA_BIAS + 1),
                         b1 = WFIELD(a, WA_BIAS + 2);
                const VL u0 =
                    WK(dotv)(t1v, dw) + b0 + WFIELD(a, WA_CFM + 1) * gr0;
                const VL u1 = WK(sel)(t1, zero,
                                      WK(dotv)(t2v, dw) + b1 +
                                          WFIELD(a, WA_CFM + 2) * gr1);
                const VL rad = rho * gn;
                const VL W0r = WFIELD(a, WA_WR), W1r = WFIELD(a, WA_WR + 1),
                         W2r = WFIELD(a, WA_WR + 2);
                /* the disc's step where a lane has one, the segment's
                   (one component) where a lane has a roll_t1 cone */
                VL z0 = gr0, z1 = gr1, s0 = zero;
                if (!WK(all)(t1 | ~go)) {
                    WK(disc_step)
                    (gr0, gr1, u0, u1, WFIELD(a, WA_INV), WFIELD(a, WA_INV + 1),
                     WFIELD(a, WA_INV + 2), WFIELD(a, WA_STEP), rad, &z0, &z1);
                }
                if (!WK(none)(t1 & go)) {
                    s0 = WK(step1)(gr0, u0, W0r, rad);
                }
                VL e0 = WK(sel)(go, WK(sel)(t1, s0, z0 - gr0), zero);
                VL e1 = WK(sel)(go & ~t1, z1 - gr1, zero);
                const VL du = e0 * u0 + e1 * u1;
                const VL db = e0 * b0 + WK(sel)(t1, zero, e1 * b1);
                const VL qq =
                    W0r * e0 * e0 +
                    WK(sel)(t1, zero, 2.0 * W1r * e0 * e1 + W2r * e1 * e1);
                const VL al = WK(guard_apply)(gd, du, db, qq);
                e0 *= al;
                e1 *= al;
                gr0 += e0;
                gr1 += e1;
                qr = al * al * qq;
                for (int c = 0; c < 3; ++c) {
                    v->aa[c] += e0 * WFIELD(a, WA_IAT1 + c) +
                                e1 * WFIELD(a, WA_IAT2 + c);
                    v->ab[c] -= e0 * WFIELD(a, WA_IBT1 + c) +
                                e1 * WFIELD(a, WA_IBT2 + c);
                }
            }
            /* the row form's sum: sliding + ((0 + spin) + rolling) */
            const VL ch = qs + ((zero + qsp) + qr);
            *d2 += ch;
            /* a lane stops after a round that changed nothing above
               rounding level, and a point without spin or rolling
               friction after one */
            const VM quiet =
                ch <= 1e-24 * (W0 * g1 * g1 + W2 * g2v * g2v + RF_MINVAL);
            on = on & ~quiet & (spin | roll);
        }
        WK(store)(G + WK_BUNDLE, g1);
        WK(store)(G + 2 * WK_BUNDLE, g2v);
        WK(store)(GA, gs);
        WK(store)(GA + WK_BUNDLE, gr0);
        WK(store)(GA + 2 * WK_BUNDLE, gr1);
        *g2 += W0 * g1 * g1 + W2 * g2v * g2v;
    }
}

/* One pass of bundle b over its lanes [h, h + WK_LANES): the velocities
   in, the points, the velocities out, each lane's group's sums to
   sum[4 k ..]. */
static void WK(bundle)(const rf_problem *p, int pass_friction, int rounds,
                       int b, int h, double *vel, const double *run,
                       double *sum)
{
    const rf_work *w = &p->work;
    const int *meta = w->si_bundle + (size_t)RF__SI_BMETA * b;
    int npt = 0; /* these lanes' longest (of those at work) */
    WK(guard) gd;
    const VL zero = WK(set1)(0.0);
    gd.de = gd.db = zero;
    gd.mixed = 0;
    const int isl = w->si_bisl[b];
    if (isl >= 0) { /* every lane of one island: one share, set once */
        const double share = rf__si_island_share(w, run, meta[BM_K]);
        if (share < 0.0) {
            return; /* the island is done */
        }
        for (int l = 0; l < WK_LANES; ++l) {
            npt = meta[BM_LEN + h + l] > npt ? meta[BM_LEN + h + l] : npt;
        }
        gd.S = WK(set1)(share);
        const VM all = {0};
        gd.live = ~all;
    } else { /* lane by lane; an empty lane's steps are exact zeros, which
                fit any share */
        double S[WK_LANES];
        long long live[WK_LANES];
        int last = -1, nlive = 0; /* one share per run of an island */
        double share = 0.0;
        for (int l = 0; l < WK_LANES; ++l) {
            const int k = meta[BM_K + h + l];
            if (k >= 0 && w->si_kisl[k] != last) {
                share = rf__si_island_share(w, run, k);
                last = w->si_kisl[k];
            }
            S[l] = k >= 0 ? share : 0.0;
            live[l] = S[l] >= 0.0 ? -1 : 0;
            S[l] = S[l] >= 0.0 ? S[l] : 0.0;
            if (k >= 0 && live[l]) {
                npt = meta[BM_LEN + h + l] > npt ? meta[BM_LEN + h + l] : npt;
                ++nlive;
            }
        }
        if (nlive == 0) {
            return;
        }
        memcpy(&gd.S, S, sizeof gd.S);
        memcpy(&gd.live, live, sizeof gd.live);
        for (int l = 0; l < WK_LANES; ++l) {
            gd.mixed |= live[l] == 0;
        }
    }
    if (npt == 0) {
        return;
    }
    VL d2 = zero, g2 = zero;
    WK(bodies) v;
    WK(bodies_load)(meta, h, vel, &v);
    const double *m = w->si_wm + (size_t)6 * WK_BUNDLE * b + h;
    if (pass_friction && meta[BM_ASLOT0] >= 0) {
        WK(friction_ang)
        (w, meta[BM_SLOT0], meta[BM_ASLOT0], npt, rounds, h, m, &v, &gd, &d2,
         &g2);
    } else if (pass_friction) {
        WK(friction)(w, meta[BM_SLOT0], npt, h, m, &v, &gd, &d2, &g2);
    } else {
        VM multi = {0}; /* lanes of two or more points */
        for (int l = 0; l < WK_LANES; ++l) {
            multi[l] = meta[BM_LEN + h + l] > 1 ? -1 : 0;
        }
        WK(normal)
        (w, meta[BM_SLOT0], npt, rounds, multi, h, m, &v, &gd, &d2, &g2);
    }
    WK(bodies_store)(meta, h, vel, &v);
    for (int l = 0; l < WK_LANES; ++l) {
        const int k = meta[BM_K + h + l];
        if (k >= 0) {
            sum[4 * k] = d2[l];
            sum[4 * k + 1] = g2[l];
            sum[4 * k + 2] = gd.de[l];
            sum[4 * k + 3] = gd.db[l];
        }
    }
}

/* The records of bundle b's lanes [h, h + WK_LANES), every slot: the
   row form's normal and friction records (rf__si_rows_build, the same
   arithmetic in the same order lane by lane, so the same bits), built
   WK_LANES contacts at a time and stored field by field.  A lane without
   a point in a slot reads zeros (no dynamic side, no cap) and gets the
   zero record.  No si_flags: only the group kernel reads them, and it
   never visits a bundled contact. */

static RF__ALWAYS_INLINE void WK(cross)(const VL *a, const VL *b, VL *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static RF__ALWAYS_INLINE void WK(mat3_vec)(const VL *M, const VL *x, VL *y)
{
    y[0] = M[0] * x[0] + M[1] * x[1] + M[2] * x[2];
    y[1] = M[3] * x[0] + M[4] * x[1] + M[5] * x[2];
    y[2] = M[6] * x[0] + M[7] * x[1] + M[8] * x[2];
}

static RF__ALWAYS_INLINE VL WK(dot)(const VL *a, const VL *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static RF__ALWAYS_INLINE void WK(store3)(double *r, int f, const VL *x)
{
    for (int c = 0; c < 3; ++c) {
        WK(store)(r + (size_t)(f + c) * WK_BUNDLE, x[c]);
    }
}

/* inv_lambda_max and inv2 of solver_si_rows.c, lane by lane, for the
   2x2 SPD block (a b; b c): 1 / lambda_max into *step (0 when empty),
   the inverse into inv[3] (0 when singular to rounding). */
static RF__ALWAYS_INLINE void WK(block2)(VL a, VL b, VL c, VL *step, VL *inv)
{
    const VL zero = WK(set1)(0.0), one = WK(set1)(1.0);
    const VL lam = 0.5 * (a + c + WK(sqrt)((a - c) * (a - c) + 4.0 * b * b));
    const VM lpos = lam > RF_MINVAL;
    *step = WK(sel)(lpos, one / WK(sel)(lpos, lam, one), zero);
    const VL det = a * c - b * b;
    const VM ok = (det > 1e-12 * (a * c)) & (det > RF_MINVAL);
    const VL ds = WK(sel)(ok, det, one);
    inv[0] = WK(sel)(ok, c / ds, zero);
    inv[1] = WK(sel)(ok, -b / ds, zero);
    inv[2] = WK(sel)(ok, a / ds, zero);
}

/* ang: a bundle with spin or rolling friction (a constant where
   inlined: the plain bundles' build reads and tests nothing more) */
static RF__ALWAYS_INLINE void WK(build_kind)(rf_problem *p, int b, int h,
                                             const int ang)
{
    static const double zero[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    rf_work *w = &p->work;
    const int *meta = w->si_bundle + (size_t)RF__SI_BMETA * b;
    if (h == 0 && b + 1 < w->si_nbundle) { /* the next bundle's inputs */
        const int *next = meta + RF__SI_BMETA;
        for (int l = 0; l < WK_BUNDLE; ++l) {
            const int lo = next[BM_LO + l], len = next[BM_LEN + l];
            if (len > 0) {
                WK(prefetch_span)(p->con_frame + 9 * lo, 9 * len);
                WK(prefetch_span)(p->con_arm + 6 * lo, 6 * len);
                WK(prefetch_span)(p->con_bias + 6 * lo, 6 * len);
            }
        }
    }
    const VL vzero = WK(set1)(0.0), one = WK(set1)(1.0);
    /* the lanes' bodies' inverse inertia and mass, gathered once: every
       point of a lane is on the same two bodies (a group) */
    VL Ib[2][9], imb[2][3];
    int dynl[2][WK_LANES];
    {
        /* the bodies and dynamic sides the pack put in the metadata (an
           empty lane: the world, not dynamic) */
        const double *I_src[2][WK_LANES], *im_src[2][WK_LANES];
        for (int l = 0; l < WK_LANES; ++l) {
            for (int s = 0; s < 2; ++s) {
                const int bd = meta[BM_BODY + 2 * (h + l) + s];
                dynl[s][l] = (meta[BM_DYN] >> (2 * (h + l) + s)) & 1;
                I_src[s][l] = dynl[s][l] ? p->body_inv_inertia + 9 * bd : zero;
                im_src[s][l] = dynl[s][l] ? p->body_inv_mass + 3 * bd : zero;
            }
        }
        for (int s = 0; s < 2; ++s) {
            WK(gather)(I_src[s], 9, Ib[s]);
            WK(gather)(im_src[s], 3, imb[s]);
        }
    }
    const int nb = ang ? 6 : 3; /* biases and compliances read */
    for (int j = 0; j < meta[BM_NPT]; ++j) {
        const double *e_src[WK_LANES], *arm_src[WK_LANES];
        const double *bias_src[WK_LANES], *cfm_src[WK_LANES];
        VL dyn_v[2], mu, nmax, sigma, rho, t1;
        for (int l = 0; l < WK_LANES; ++l) {
            const int in = j < meta[BM_LEN + h + l];
            const int i = in ? meta[BM_LO + h + l] + j : -1;
            e_src[l] = in ? p->con_frame + 9 * i : zero;
            arm_src[l] = in ? p->con_arm + 6 * i : zero;
            bias_src[l] = in ? p->con_bias + 6 * i : zero;
            cfm_src[l] = in && p->cfm_on ? p->con_cfm + 6 * i : zero;
            mu[l] = nmax[l] = 0.0;
            if (ang) {
                sigma[l] = rho[l] = t1[l] = 0.0;
            }
            if (in) {
                const rf__cone cone = rf__contact_cone(p, i);
                mu[l] = cone.mu;
                nmax[l] = cone.nmax;
                if (ang && rf__contact_angular(p, i)) {
                    /* rf__si_rows_build's angular record */
                    sigma[l] = cone.sigma;
                    rho[l] = cone.rho;
                    t1[l] = cone.roll_t1 ? 1.0 : 0.0;
                }
            }
            for (int s = 0; s < 2; ++s) {
                dyn_v[s][l] = in && dynl[s][l] ? 1.0 : 0.0;
            }
        }
        VL e[9], arm[6], bias[6], cfm[6];
        WK(gather)(e_src, 9, e);
        WK(gather)(arm_src, 6, arm);
        WK(gather)(bias_src, nb, bias);
        WK(gather)(cfm_src, nb, cfm);
        double *nr =
            w->si_wn + (size_t)(meta[BM_SLOT0] + j) * RF__SI_WN * WK_BUNDLE + h;
        double *fr =
            w->si_wf + (size_t)(meta[BM_SLOT0] + j) * RF__SI_WF * WK_BUNDLE + h;
        WK(store3)(nr, WN_N, e);
        WK(store3)(fr, WF_T1, e + 3);
        WK(store3)(fr, WF_T2, e + 6);
        VL wnn = vzero, wuu = vzero, wuw = vzero, www = vzero;
        VL ws = vzero, wru = vzero, wrx = vzero, wrw = vzero;
        double *ar =
            ang ? w->si_wa +
                      (size_t)(meta[BM_ASLOT0] + j) * RF__SI_WA * WK_BUNDLE + h
                : NULL;
        for (int s = 0; s < 2; ++s) {
            VL rn[3], rt1[3], rt2[3];
            const VL *I = Ib[s], *im = imb[s];
            WK(cross)(arm + 3 * s, e, rn);
            WK(cross)(arm + 3 * s, e + 3, rt1);
            WK(cross)(arm + 3 * s, e + 6, rt2);
            WK(store3)(nr, s == 0 ? WN_RA : WN_RB, rn);
            WK(store3)(fr, s == 0 ? WF_RA1 : WF_RB1, rt1);
            WK(store3)(fr, s == 0 ? WF_RA2 : WF_RB2, rt2);
            const VM dyn = dyn_v[s] > vzero;
            VL in[3], it1[3], it2[3];
            WK(mat3_vec)(I, rn, in);
            WK(mat3_vec)(I, rt1, it1);
            WK(mat3_vec)(I, rt2, it2);
            VL res[9]; /* the responses stored: zero on a static side */
            for (int c = 0; c < 3; ++c) {
                res[c] = WK(sel)(dyn, in[c], vzero);
                res[3 + c] = WK(sel)(dyn, it1[c], vzero);
                res[6 + c] = WK(sel)(dyn, it2[c], vzero);
            }
            VL ln = vzero, luu = vzero, luw = vzero, lww = vzero;
            for (int c = 0; c < 3; ++c) {
                ln += im[c] * e[c] * e[c];
                luu += im[c] * e[3 + c] * e[3 + c];
                luw += im[c] * e[3 + c] * e[6 + c];
                lww += im[c] * e[6 + c] * e[6 + c];
            }
            WK(store3)(nr, s == 0 ? WN_IA : WN_IB, res);
            WK(store3)(fr, s == 0 ? WF_IA1 : WF_IB1, res + 3);
            WK(store3)(fr, s == 0 ? WF_IA2 : WF_IB2, res + 6);
            /* a side that is not dynamic adds nothing (its responses are
               the zeros its I and M^-1 read) */
            wnn = WK(sel)(dyn, wnn + (ln + WK(dot)(rn, in)), wnn);
            wuu = WK(sel)(dyn, wuu + (luu + WK(dot)(rt1, it1)), wuu);
            wuw = WK(sel)(dyn, wuw + (luw + WK(dot)(rt1, it2)), wuw);
            www = WK(sel)(dyn, www + (lww + WK(dot)(rt2, it2)), www);
            if (ang) { /* I^-1 n, I^-1 t1, I^-1 t2 and the angular blocks */
                VL ie[9];
                for (int k = 0; k < 3; ++k) {
                    WK(mat3_vec)(I, e + 3 * k, ie + 3 * k);
                }
                for (int c = 0; c < 9; ++c) {
                    ie[c] = WK(sel)(dyn, ie[c], vzero);
                }
                WK(store3)(ar, s == 0 ? WA_IAN : WA_IBN, ie);
                WK(store3)(ar, s == 0 ? WA_IAT1 : WA_IBT1, ie + 3);
                WK(store3)(ar, s == 0 ? WA_IAT2 : WA_IBT2, ie + 6);
                ws = WK(sel)(dyn, ws + WK(dot)(e, ie), ws);
                wru = WK(sel)(dyn, wru + WK(dot)(e + 3, ie + 3), wru);
                wrx = WK(sel)(dyn, wrx + WK(dot)(e + 3, ie + 6), wrx);
                wrw = WK(sel)(dyn, wrw + WK(dot)(e + 6, ie + 6), wrw);
            }
        }
        if (ang) { /* rf__si_rows_build's angular record, lane by lane */
            const VM rt1 = t1 > vzero;
            const VL ra = wru + cfm[4], rb = WK(sel)(rt1, vzero, wrx),
                     rc = wrw + cfm[5];
            WK(store)(ar + (size_t)WA_WS * WK_BUNDLE, ws + cfm[3]);
            WK(store)(ar + (size_t)WA_WR * WK_BUNDLE, ra);
            WK(store)(ar + (size_t)(WA_WR + 1) * WK_BUNDLE, rb);
            WK(store)(ar + (size_t)(WA_WR + 2) * WK_BUNDLE, rc);
            WK(store3)(ar, WA_BIAS, bias + 3);
            WK(store3)(ar, WA_CFM, cfm + 3);
            WK(store)(ar + (size_t)WA_SIGMA * WK_BUNDLE, sigma);
            WK(store)(ar + (size_t)WA_RHO * WK_BUNDLE, rho);
            WK(store)(ar + (size_t)WA_T1 * WK_BUNDLE, t1);
            VL step, inv[3];
            WK(block2)(ra, rb, WK(sel)(rt1, vzero, rc), &step, inv);
            WK(store)(ar + (size_t)WA_STEP * WK_BUNDLE, step);
            for (int c = 0; c < 3; ++c) { /* no inverse for roll_t1 */
                WK(store)
                (ar + (size_t)(WA_INV + c) * WK_BUNDLE,
                 WK(sel)(rt1, vzero, inv[c]));
            }
        }
        const VL W = wnn + cfm[0];
        WK(store)(nr + (size_t)WN_BIAS * WK_BUNDLE, bias[0]);
        WK(store)(nr + (size_t)WN_CFM * WK_BUNDLE, cfm[0]);
        WK(store)(nr + (size_t)WN_W * WK_BUNDLE, W);
        const VM wpos = W > RF_MINVAL;
        WK(store)
        (nr + (size_t)WN_INV * WK_BUNDLE,
         WK(sel)(wpos, one / WK(sel)(wpos, W, one), vzero));
        WK(store)(nr + (size_t)WN_NMAX * WK_BUNDLE, nmax);
        const VL a = wuu + cfm[1], bb = wuw, c = www + cfm[2];
        WK(store)(fr + (size_t)WF_BIAS * WK_BUNDLE, bias[1]);
        WK(store)(fr + (size_t)(WF_BIAS + 1) * WK_BUNDLE, bias[2]);
        WK(store)(fr + (size_t)WF_CFM * WK_BUNDLE, cfm[1]);
        WK(store)(fr + (size_t)(WF_CFM + 1) * WK_BUNDLE, cfm[2]);
        WK(store)(fr + (size_t)WF_W * WK_BUNDLE, a);
        WK(store)(fr + (size_t)(WF_W + 1) * WK_BUNDLE, bb);
        WK(store)(fr + (size_t)(WF_W + 2) * WK_BUNDLE, c);
        WK(store)(fr + (size_t)WF_MU * WK_BUNDLE, mu);
        VL step, inv[3];
        WK(block2)(a, bb, c, &step, inv);
        WK(store)(fr + (size_t)WF_STEP * WK_BUNDLE, step);
        for (int k = 0; k < 3; ++k) {
            WK(store)(fr + (size_t)(WF_INV + k) * WK_BUNDLE, inv[k]);
        }
    }
}

static void WK(build)(rf_problem *p, int b, int h)
{
    if (p->work.si_bundle[(size_t)RF__SI_BMETA * b + BM_ASLOT0] >= 0) {
        WK(build_kind)(p, b, h, 1);
    } else {
        WK(build_kind)(p, b, h, 0);
    }
}

#undef WFIELD
#undef VL
#undef VM
