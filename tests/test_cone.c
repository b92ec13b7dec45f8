/*
 * Projection onto Y(mu, rho, sigma) (Tasora App. C; DESIGN §1, §3).
 *
 *   Y  = { mu x0 >= |(x1,x2)|, rho x0 >= |(x4,x5)|, sigma x0 >= |x3| }
 *   Y* = { u0 >= mu |(u1,u2)| + rho |(u4,u5)| + sigma |u3| }
 *
 * (component order n, u, w, spin, roll_u, roll_w; a zero coefficient
 * forces its components to 0 in Y and leaves them free in Y*).
 *
 * 1. Properties, on more than 10^6 random and built inputs (magnitudes
 *    10^-8 .. 10^8, coefficients 0, 1e-12 .. 1e6).  Moreau's theorem for a
 *    closed convex cone Y and its polar -Y* (DESIGN §3): p = P(x) iff
 *    p in Y, p - x in Y*, <p, p - x> = 0.  Each is checked relative to
 *    |x| (|x|^2 for the inner product) with tolerance 1e-12; see
 *    check_point for the one scale factor the dual inequality needs.  Also:
 *    zero-coefficient components exactly 0, idempotence, |p| <= |x|
 *    (projection onto a cone containing 0 never lengthens), out aliasing x
 *    gives the same bits.
 * 2. Built points: inside Y (unchanged), exactly on each face / pair of
 *    faces / all three as computed in floating point (unchanged), one ulp
 *    and a little outside them, the polar cone -Y* (mapped to 0), its
 *    boundary, negative normal with small tangential parts, the apex,
 *    component ratios of 1e16, tiny and huge coefficients.
 * 3. Checks that do not restate the implementation: hand-computed closed
 *    forms (Acary Prop. 5.2: 5D, 3D and 2D cases, and the 6D extension),
 *    a bisection on psi' and a dense-sampling + golden-section
 *    minimisation of psi itself, and optimality against feasible points
 *    sampled in Y (on faces, inside, and right next to p).
 * 4. Error handling: status codes, out left untouched; exact values of
 *    rf_cone_violation and rf_dual_cone_violation.
 *
 * Every group prints its count and worst errors, so the margins show.
 * Failures print the input in hex (%a) so they reproduce exactly.
 */
#include "rollfric/rollfric.h"
#include "test_util.h"

#include <float.h>
#include <stdio.h>
#include <string.h>

#define TWO_PI 6.283185307179586
/* Moreau, idempotence, brute force: relative to |x| (DESIGN §3). */
#define TOL 1e-12
/* "unchanged" for a point of Y: at most ~4 ulps of |x|. */
#define TOL_SAME 1e-15

static long g_inputs = 0; /* inputs that went through check_point */

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */
/* ------------------------------------------------------------------ */

static double norm6(const double x[6])
{
    double s = 0.0;
    for (int k = 0; k < 6; ++k) {
        s += x[k] * x[k];
    }
    return sqrt(s);
}

static double dist6(const double a[6], const double b[6])
{
    double s = 0.0;
    for (int k = 0; k < 6; ++k) {
        s += (a[k] - b[k]) * (a[k] - b[k]);
    }
    return sqrt(s);
}

/* |(a, b)| as the cone tests compute it ("as computed in floating
   point"). */
static double pnorm(double a, double b)
{
    return sqrt(a * a + b * b);
}

/* The three part norms |(x1,x2)|, |(x4,x5)|, |x3| (sliding, rolling,
   spinning), in the coefficient order mu, rho, sigma. */
static void part_norms(const double x[6], double a[3])
{
    a[0] = pnorm(x[RF_U], x[RF_W]);
    a[1] = pnorm(x[RF_ROLL_U], x[RF_ROLL_W]);
    a[2] = fabs(x[RF_SPIN]);
}

/* v / s with 0 / 0 = 0 and v / 0 = inf (so x = 0 demands exact zeros). */
static double rel(double v, double s)
{
    return v == 0.0 ? 0.0 : v / s;
}

static void dump(const char *what, const double x[6], double mu, double rho,
                 double sigma, const double p[6])
{
    fprintf(stderr,
            "  %s\n  x     = {%a, %a, %a, %a, %a, %a}\n"
            "  mu = %a, rho = %a, sigma = %a\n",
            what, x[0], x[1], x[2], x[3], x[4], x[5], mu, rho, sigma);
    if (p != NULL) {
        fprintf(stderr, "  P(x)  = {%a, %a, %a, %a, %a, %a}\n", p[0], p[1],
                p[2], p[3], p[4], p[5]);
    }
}

/* ENSURE that also prints the offending input; needs x, mu, rho, sigma, p
   in scope. */
#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__,   \
                    #cond);                                                    \
            dump("input:", x, mu, rho, sigma, p);                              \
            return 1;                                                          \
        }                                                                      \
    } while (0)

/* Roughly N(0, 1) (Irwin-Hall of four uniforms, variance scaled to 1). */
static double gauss(rf_rng *r)
{
    double s = rf_rng_uniform(r) + rf_rng_uniform(r) + rf_rng_uniform(r) +
               rf_rng_uniform(r);
    return (s - 2.0) * 1.7320508075688772;
}

static double pow10_range(rf_rng *r, double lo, double hi)
{
    return pow(10.0, rf_rng_range(r, lo, hi));
}

/* Coefficient: 10% exactly 0, 5% tiny (1e-12 .. 1e-6), 5% huge (1e2 ..
   1e6), otherwise uniform in [0, 2]. */
static double random_coef(rf_rng *r)
{
    double u = rf_rng_uniform(r);
    if (u < 0.10) {
        return 0.0;
    }
    if (u < 0.15) {
        return pow10_range(r, -12.0, -6.0);
    }
    if (u < 0.20) {
        return pow10_range(r, 2.0, 6.0);
    }
    return rf_rng_range(r, 0.0, 2.0);
}

/* Coefficient that is not 0 (faces need c > 0): 5% 1e-12, 5% 1e6, 5%
   1e2 .. 1e6, otherwise uniform in [1e-3, 2]. */
static double positive_coef(rf_rng *r)
{
    double u = rf_rng_uniform(r);
    if (u < 0.05) {
        return 1e-12;
    }
    if (u < 0.10) {
        return 1e6;
    }
    if (u < 0.15) {
        return pow10_range(r, 2.0, 6.0);
    }
    return rf_rng_range(r, 1e-3, 2.0);
}

/* Random Gaussian-ish 6-vector times scale. */
static void random_vec(rf_rng *r, double scale, double x[6])
{
    for (int k = 0; k < 6; ++k) {
        x[k] = scale * gauss(r);
    }
}

/* ------------------------------------------------------------------ */
/* The per-input properties                                            */
/* ------------------------------------------------------------------ */

typedef struct stats {
    long count;
    double in_y;     /* worst rf_cone_violation(p) / |x| */
    double dual;     /* worst rf_dual_cone_violation(p - x) / (|x| k) */
    double dual_raw; /* the same / |x|, inputs with all coefficients <= 2 */
    double inner;    /* worst |<p, p - x>| / |x|^2 */
    double idem;     /* worst |P(P(x)) - P(x)| / |x| */
    double growth;   /* worst |p| / |x| */
    double extra;    /* a group's own measure (printed by the group) */
} stats;

static void print_stats(const char *name, const stats *s)
{
    printf("  %-26s %8ld inputs; worst: in Y %.1e, dual %.1e (raw, "
           "coef<=2: %.1e), <p,p-x> %.1e, idem %.1e, |p|/|x| %.17g\n",
           name, s->count, s->in_y, s->dual, s->dual_raw, s->inner, s->idem,
           s->growth);
}

/* Project x, check everything that must hold for any input, return p.
 *
 * Tolerances (Moreau's theorem, DESIGN §3): all 1e-12 relative to |x|
 * (|x|^2 for <p, p - x>), as the rounding of an exact projection is a few
 * ulps of |x|.  One exception: the dual inequality d0 >= mu|d_t| +
 * rho|d_r| + sigma|d_s| for d = p - x multiplies the rounding of d (about
 * eps |x|) by the coefficients, so no floating-point result can do better
 * than about eps |x| (1 + mu + rho + sigma); it is checked against 1e-12 |x|
 * (1 + mu + rho + sigma), which is 1e-12 |x| up to a factor 7 for the
 * coefficients in [0, 2], and separately, for all coefficients <= 2, with
 * the plain 1e-12 |x|. */
static int check_point(const double x[6], double mu, double rho, double sigma,
                       stats *st, double p[6])
{
    double pp[6], a[6], d[6];
    for (int k = 0; k < 6; ++k) {
        p[k] = NAN;
    }
    CHECK(rf_project_contact(x, mu, rho, sigma, p) == RF_OK);
    const double nx = norm6(x);
    const double k_dual = 1.0 + mu + rho + sigma;
    double inner = 0.0;
    for (int k = 0; k < 6; ++k) {
        CHECK(isfinite(p[k]));
        d[k] = p[k] - x[k];
        inner += p[k] * d[k];
    }
    const double e_y = rel(rf_cone_violation(p, mu, rho, sigma), nx);
    const double e_raw = rel(rf_dual_cone_violation(d, mu, rho, sigma), nx);
    const double e_dual = e_raw / k_dual;
    const double e_in = rel(fabs(inner), nx * nx);
    st->in_y = fmax(st->in_y, e_y);
    st->dual = fmax(st->dual, e_dual);
    st->inner = fmax(st->inner, e_in);
    CHECK(e_y <= TOL);    /* p in Y */
    CHECK(e_dual <= TOL); /* p - x in Y* */
    CHECK(e_in <= TOL);   /* <p, p - x> = 0 */
    if (mu <= 2.0 && rho <= 2.0 && sigma <= 2.0) {
        st->dual_raw = fmax(st->dual_raw, e_raw);
        CHECK(e_raw <= TOL);
    }
    /* zero coefficients force their components to exactly zero */
    CHECK(mu != 0.0 || (p[RF_U] == 0.0 && p[RF_W] == 0.0));
    CHECK(rho != 0.0 || (p[RF_ROLL_U] == 0.0 && p[RF_ROLL_W] == 0.0));
    CHECK(sigma != 0.0 || p[RF_SPIN] == 0.0);
    /* idempotence */
    CHECK(rf_project_contact(p, mu, rho, sigma, pp) == RF_OK);
    const double e_idem = rel(dist6(pp, p), nx);
    st->idem = fmax(st->idem, e_idem);
    CHECK(e_idem <= TOL);
    /* a cone through 0: |p|^2 = <p, x> <= |p||x| */
    const double g = rel(norm6(p), nx);
    st->growth = fmax(st->growth, g);
    CHECK(g <= 1.0 + TOL_SAME);
    /* out may alias x: the same bits as the separate call */
    memcpy(a, x, sizeof a);
    CHECK(rf_project_contact(a, mu, rho, sigma, a) == RF_OK);
    CHECK(memcmp(a, p, sizeof a) == 0);
    st->count++;
    g_inputs++;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Random inputs                                                       */
/* ------------------------------------------------------------------ */

/* Gaussian-ish vectors at magnitudes 1e-8 .. 1e8; every fourth vector has
   per-component magnitudes spread over another 1e-8 .. 1e8. */
static int test_random(void)
{
    rf_rng r = {1};
    stats st = {0};
    double x[6], p[6] = {0};
    for (int n = 0; n < 500000; ++n) {
        const double mu = random_coef(&r), rho = random_coef(&r),
                     sigma = random_coef(&r);
        const double scale = pow10_range(&r, -8.0, 8.0);
        random_vec(&r, scale, x);
        if (n % 4 == 0) {
            for (int k = 0; k < 6; ++k) {
                x[k] *= pow10_range(&r, -8.0, 8.0);
            }
        }
        if (check_point(x, mu, rho, sigma, &st, p)) {
            return 1;
        }
    }
    print_stats("random", &st);
    return 0;
}

/* Each of the 8 patterns of zero coefficients (none, each one, each pair,
   all three), the others random and positive. */
static int test_zero_patterns(void)
{
    rf_rng r = {2};
    stats st = {0};
    double x[6], p[6] = {0};
    for (int n = 0; n < 200000; ++n) {
        const int zero = n % 8; /* bit 0 mu, bit 1 rho, bit 2 sigma */
        const double mu = (zero & 1) ? 0.0 : positive_coef(&r);
        const double rho = (zero & 2) ? 0.0 : positive_coef(&r);
        const double sigma = (zero & 4) ? 0.0 : positive_coef(&r);
        random_vec(&r, pow10_range(&r, -8.0, 8.0), x);
        if (check_point(x, mu, rho, sigma, &st, p)) {
            return 1;
        }
        if (zero == 7) {
            /* Y is the ray {x0 >= 0, rest 0}: p = (max(x0, 0), 0, ...) */
            CHECK(p[0] == fmax(x[0], 0.0));
        }
    }
    print_stats("zero coefficient patterns", &st);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Built points                                                        */
/* ------------------------------------------------------------------ */

/* A 2-vector (l1, l2) in a random direction with pnorm(l1, l2) == rad
   exactly as computed, found by nudging components by ulps; falls back to
   an axis direction, for which sqrt(rad * rad) == rad.  Returns 1 when the
   random direction was kept. */
static int tight_pair(rf_rng *r, double rad, double *l1, double *l2)
{
    const double ang = rf_rng_range(r, 0.0, TWO_PI);
    double v[2] = {rad * cos(ang), rad * sin(ang)};
    for (int it = 0; it < 64; ++it) {
        const double a = pnorm(v[0], v[1]);
        if (a == rad) {
            *l1 = v[0];
            *l2 = v[1];
            return 1;
        }
        /* nudge the larger component in early tries, the smaller (finer
           effect on the norm) later */
        int i = fabs(v[0]) >= fabs(v[1]) ? 0 : 1;
        if (it >= 16) {
            i = 1 - i;
        }
        const double away = v[i] < 0.0 ? -INFINITY : INFINITY;
        v[i] = nextafter(v[i], a > rad ? 0.0 : away);
    }
    const double s = rf_rng_uniform(r) < 0.5 ? -rad : rad;
    if (rf_rng_uniform(r) < 0.5) {
        *l1 = s;
        *l2 = 0.0;
    } else {
        *l1 = 0.0;
        *l2 = s;
    }
    return 0;
}

/* Point with normal x0 whose parts listed in mask (bit 0 sliding, 1
   rolling, 2 spinning) are exactly on their faces and the others strictly
   inside (fraction < 0.999 of the radius).  Returns how many pairs kept a
   random direction. */
static int face_point(rf_rng *r, double x0, const double c[3], int mask,
                      double x[6])
{
    int kept = 0;
    double t[3];
    for (int k = 0; k < 3; ++k) {
        t[k] = (mask >> k & 1) ? 1.0 : rf_rng_range(r, 0.0, 0.999);
    }
    x[RF_N] = x0;
    const double r0 = c[0] * x0, r1 = c[1] * x0, r2 = c[2] * x0;
    if (t[0] == 1.0) {
        kept += tight_pair(r, r0, &x[RF_U], &x[RF_W]);
    } else {
        const double a = rf_rng_range(r, 0.0, TWO_PI);
        x[RF_U] = t[0] * r0 * cos(a);
        x[RF_W] = t[0] * r0 * sin(a);
    }
    if (t[1] == 1.0) {
        kept += tight_pair(r, r1, &x[RF_ROLL_U], &x[RF_ROLL_W]);
    } else {
        const double a = rf_rng_range(r, 0.0, TWO_PI);
        x[RF_ROLL_U] = t[1] * r1 * cos(a);
        x[RF_ROLL_W] = t[1] * r1 * sin(a);
    }
    x[RF_SPIN] = (rf_rng_uniform(r) < 0.5 ? -1.0 : 1.0) * t[2] * r2;
    return kept;
}

/* Points strictly inside Y (every part at a fraction < 0.999 of its
   radius, some parts 0): P(x) = x, within TOL_SAME |x|, and bitwise in
   practice (counted). */
static int test_inside(void)
{
    rf_rng r = {3};
    stats st = {0};
    long bitwise = 0;
    double x[6], p[6] = {0};
    for (int n = 0; n < 100000; ++n) {
        const double mu = random_coef(&r), rho = random_coef(&r),
                     sigma = random_coef(&r);
        const double c[3] = {mu, rho, sigma};
        face_point(&r, pow10_range(&r, -8.0, 8.0), c, 0, x);
        double a[3];
        part_norms(x, a);
        CHECK(a[0] <= mu * x[0] && a[1] <= rho * x[0] && a[2] <= sigma * x[0]);
        if (check_point(x, mu, rho, sigma, &st, p)) {
            return 1;
        }
        const double e = dist6(p, x) / norm6(x);
        st.extra = fmax(st.extra, e);
        CHECK(e <= TOL_SAME);
        bitwise += memcmp(p, x, sizeof p) == 0;
    }
    print_stats("inside Y", &st);
    printf("  %-26s %ld of %ld unchanged bitwise, worst |p - x|/|x| %.1e\n", "",
           bitwise, st.count, st.extra);
    return 0;
}

/* Exactly on each face, each pair of faces and all three (|l_k| == c_k x0
   as computed in floating point), then pushed outside: x0 one ulp down,
   one tight part one ulp out, the tight parts scaled out by 1 + 10^-14 ..
   1 + 1.  On the faces P(x) = x (DESIGN §3: a boundary point maps to
   itself); one ulp outside, |P(x) - x| is an ulp or so; further outside,
   the face point is feasible, so |x - P(x)| <= |x - face point|. */
static int test_faces(void)
{
    rf_rng r = {4};
    stats st = {0};
    long on_face = 0, bitwise = 0, random_dir = 0, pairs = 0;
    double worst_ulp = 0.0, worst_far = 0.0;
    double xf[6], x[6], p[6] = {0};
    for (int n = 0; n < 7 * 30000; ++n) {
        const int mask = 1 + n % 7;
        double c[3];
        for (int k = 0; k < 3; ++k) {
            c[k] = (mask >> k & 1) || rf_rng_uniform(&r) < 0.8
                       ? positive_coef(&r)
                       : 0.0;
        }
        const double mu = c[0], rho = c[1], sigma = c[2];
        random_dir += face_point(&r, pow10_range(&r, -8.0, 8.0), c, mask, xf);
        pairs += (mask & 1) + (mask >> 1 & 1);
        double a[3];
        part_norms(xf, a);
        for (int k = 0; k < 3; ++k) {
            if (mask >> k & 1) {
                ENSURE(a[k] == c[k] * xf[0]); /* tight as computed */
            }
        }
        ENSURE(rf_cone_violation(xf, mu, rho, sigma) == 0.0);
        const double nf = norm6(xf);

        /* on the faces: unchanged */
        memcpy(x, xf, sizeof x);
        if (check_point(x, mu, rho, sigma, &st, p)) {
            return 1;
        }
        CHECK(dist6(p, x) <= TOL_SAME * nf);
        on_face++;
        bitwise += memcmp(p, x, sizeof p) == 0;

        /* x0 one ulp down */
        x[0] = nextafter(xf[0], 0.0);
        if (check_point(x, mu, rho, sigma, &st, p)) {
            return 1;
        }
        worst_ulp = fmax(worst_ulp, dist6(p, x) / nf);
        CHECK(dist6(p, x) <= TOL_SAME * nf);

        /* one tight part one ulp out (its largest component) */
        memcpy(x, xf, sizeof x);
        const int k = (mask & 1) ? 0 : (mask & 2) ? 1 : 2;
        static const int comp[3][2] = {
            {RF_U, RF_W}, {RF_ROLL_U, RF_ROLL_W}, {RF_SPIN, RF_SPIN}};
        int i = comp[k][0];
        if (fabs(x[comp[k][1]]) > fabs(x[i])) {
            i = comp[k][1];
        }
        x[i] = nextafter(x[i], x[i] < 0.0 ? -INFINITY : INFINITY);
        if (check_point(x, mu, rho, sigma, &st, p)) {
            return 1;
        }
        worst_ulp = fmax(worst_ulp, dist6(p, x) / nf);
        CHECK(dist6(p, x) <= TOL_SAME * nf);

        /* tight parts scaled out by 1 + 10^-14 .. 1 + 1 */
        memcpy(x, xf, sizeof x);
        for (int m = 0; m < 3; ++m) {
            if (mask >> m & 1) {
                const double s = 1.0 + pow10_range(&r, -14.0, 0.0);
                x[comp[m][0]] *= s;
                if (m < 2) {
                    x[comp[m][1]] *= s;
                }
            }
        }
        if (check_point(x, mu, rho, sigma, &st, p)) {
            return 1;
        }
        const double dp = dist6(x, p), df = dist6(x, xf);
        worst_far = fmax(worst_far, (dp - df) / norm6(x));
        CHECK(dp <= df * (1.0 + TOL) + TOL_SAME * norm6(x));
    }
    print_stats("faces (on, ulp, outside)", &st);
    printf("  %-26s %ld on faces: %ld unchanged bitwise; %ld of %ld tight "
           "pairs in a random direction;\n  %-26s worst |p - x|/|x| one ulp "
           "out %.1e; worst (|x-p| - |x-face|)/|x| %.1e\n",
           "", on_face, bitwise, random_dir, pairs, "", worst_ulp, worst_far);
    return 0;
}

/* The polar cone -Y* = { -x0 >= mu|x_t| + rho|x_r| + sigma|x_s| } maps to
   0: exactly 0 strictly inside (margin 1e-6 .. 1 of the scale), within a
   few ulps of |x| on its boundary (x0 = -(mu a + rho b + sigma s) as
   computed).  Also x0 < 0 with small tangential parts (10^-12 .. 10^-1 of
   |x0|), which lie on either side of -Y*. */
static int test_polar(void)
{
    rf_rng r = {5};
    stats st = {0};
    double worst_boundary = 0.0;
    double x[6], p[6] = {0};
    for (int n = 0; n < 100000; ++n) {
        const double mu = random_coef(&r), rho = random_coef(&r),
                     sigma = random_coef(&r);
        const double scale = pow10_range(&r, -8.0, 8.0);
        random_vec(&r, scale, x);
        double a[3];
        part_norms(x, a);
        const double need = mu * a[0] + rho * a[1] + sigma * a[2];
        x[0] = -need - scale * pow10_range(&r, -6.0, 0.0);
        if (check_point(x, mu, rho, sigma, &st, p)) {
            return 1;
        }
        for (int k = 0; k < 6; ++k) {
            CHECK(p[k] == 0.0);
        }
        x[0] = -need; /* on the boundary of -Y* */
        if (check_point(x, mu, rho, sigma, &st, p)) {
            return 1;
        }
        const double e = norm6(p) / norm6(x);
        worst_boundary = fmax(worst_boundary, e);
        CHECK(e <= 1e-14);
        x[0] = -scale; /* negative normal, small tangential parts */
        const double t = pow10_range(&r, -12.0, -1.0);
        for (int k = 1; k < 6; ++k) {
            x[k] = t * scale * gauss(&r);
        }
        if (check_point(x, mu, rho, sigma, &st, p)) {
            return 1;
        }
    }
    print_stats("polar cone -Y*, x0 < 0", &st);
    printf("  %-26s worst |P(x)|/|x| on the boundary of -Y* %.1e\n", "",
           worst_boundary);
    return 0;
}

/* Components of 1e-8 and 1e8 (times a common 1e-4 .. 1e4) in one vector,
   coefficients from {0, 1e-12, 1e-6, 0.5, 1, 2, 1e3, 1e6}. */
static int test_ratios(void)
{
    static const double coefs[8] = {0.0, 1e-12, 1e-6, 0.5, 1.0, 2.0, 1e3, 1e6};
    static const double mags[3] = {1e-8, 1.0, 1e8};
    rf_rng r = {6};
    stats st = {0};
    double x[6], p[6] = {0};
    for (int n = 0; n < 300000; ++n) {
        const double mu = coefs[rf_rng_next(&r) % 8],
                     rho = coefs[rf_rng_next(&r) % 8],
                     sigma = coefs[rf_rng_next(&r) % 8];
        const double scale = pow10_range(&r, -4.0, 4.0);
        for (int k = 0; k < 6; ++k) {
            x[k] = scale * mags[rf_rng_next(&r) % 3] * gauss(&r);
        }
        if (n % 3 == 0) { /* force both extremes into the vector */
            x[rf_rng_next(&r) % 6] = 1e-8 * scale;
            x[rf_rng_next(&r) % 6] = -1e8 * scale;
        }
        if (check_point(x, mu, rho, sigma, &st, p)) {
            return 1;
        }
    }
    print_stats("ratios 1e16, coef 1e-12..1e6", &st);
    return 0;
}

/* The apex (with +0 and -0 components) maps to 0; the normal axis x0 > 0
   is in Y and maps to itself; for mu = rho = sigma = 0 any x maps to
   (max(x0, 0), 0, ...). */
static int test_apex_and_axis(void)
{
    static const double coefs[5] = {0.0, 1e-12, 0.5, 2.0, 1e6};
    stats st = {0};
    double x[6], p[6] = {0};
    for (int m = 0; m < 125; ++m) {
        const double mu = coefs[m % 5], rho = coefs[m / 5 % 5],
                     sigma = coefs[m / 25];
        for (int sgn = 0; sgn < 64; ++sgn) {
            for (int k = 0; k < 6; ++k) {
                x[k] = (sgn >> k & 1) ? -0.0 : 0.0;
            }
            if (check_point(x, mu, rho, sigma, &st, p)) {
                return 1;
            }
            for (int k = 0; k < 6; ++k) {
                CHECK(p[k] == 0.0);
            }
        }
        for (int e = -8; e <= 8; ++e) {
            const double axis[6] = {pow(10.0, e), 0, 0, 0, 0, 0};
            memcpy(x, axis, sizeof x);
            if (check_point(x, mu, rho, sigma, &st, p)) {
                return 1;
            }
            CHECK(memcmp(p, x, sizeof p) == 0);
        }
    }
    const double y[6] = {1, 2, 3, 4, 5, 6};
    memcpy(x, y, sizeof x);
    const double mu = 0.0, rho = 0.0, sigma = 0.0;
    if (check_point(x, mu, rho, sigma, &st, p)) {
        return 1;
    }
    CHECK(p[0] == 1.0 && p[1] == 0.0 && p[2] == 0.0 && p[3] == 0.0 &&
          p[4] == 0.0 && p[5] == 0.0);
    print_stats("apex, normal axis", &st);
    return 0;
}

/* Found by test_faces: sigma = 1e6, breakpoints |l_k|/c_k of sliding and
   spinning 1.5e-3 apart, rolling 0.8 further.  x lies 3.7e-12 from Y (its
   rolling part is one ulp outside; shrinking it by an ulp gives a point
   of Y), so P(x) must stay within a few ulps of x.  A scan that picks the
   interval by "stationary point <= breakpoint" finds, on the interval
   ending at sigma's breakpoint, a stationary point within an ulp of that
   breakpoint and stops there, moving x by 1.44 (9e-11 |x|); the sign of
   psi' at the breakpoint (without the part whose breakpoint it is) does
   not have that cancellation.  The first vector is the input that
   produced x (idempotence fails on it). */
static int test_near_face_huge_coefficient(void)
{
    const double mu = 0x1.5e8a4e667ed48p-1, rho = 0x1.6fc267550e25dp+0,
                 sigma = 0x1.e848p+19;
    const double x0[6] = {0x1.f8c8d2869e761p+13, 0x1.2d746e3b6463dp+12,
                          0x1.36ffe1b64b193p+13, -0x1.e16667cb3413ap+33,
                          0x1.52b7aea92ce55p+12, -0x1.6093eccce363cp+14};
    const double x[6] = {0x1.f8cf6b2545c65p+13, 0x1.2d746e3b6463dp+12,
                         0x1.36ffe1b64b193p+13, -0x1.e16667cb3413ap+33,
                         0x1.52b589a5b90ep+12,  -0x1.6091b1523b9c7p+14};
    double p[6] = {0}, z[6];
    stats st = {0};
    /* a point of Y within 1e-11 of x, built without the projection */
    memcpy(z, x, sizeof z);
    z[RF_ROLL_U] = nextafter(z[RF_ROLL_U], 0.0);
    z[RF_ROLL_W] = nextafter(z[RF_ROLL_W], 0.0);
    ENSURE(pnorm(z[RF_ROLL_U], z[RF_ROLL_W]) <= rho * z[0]);
    ENSURE(pnorm(z[RF_U], z[RF_W]) <= mu * z[0]);
    ENSURE(fabs(z[RF_SPIN]) <= sigma * z[0]);
    ENSURE(dist6(x, z) <= 1e-11);
    CHECK(rf_project_contact(x, mu, rho, sigma, p) == RF_OK);
    printf("  near-face, sigma = 1e6: |P(x) - x| = %.3g, |z - x| = %.3g for "
           "a z in Y\n",
           dist6(p, x), dist6(z, x));
    CHECK(dist6(p, x) <= TOL_SAME * norm6(x));
    if (check_point(x, mu, rho, sigma, &st, p)) {
        return 1;
    }
    return check_point(x0, mu, rho, sigma, &st, p);
}

/* ------------------------------------------------------------------ */
/* Closed forms (Acary Prop. 5.2)                                      */
/* ------------------------------------------------------------------ */

/* p == want within 4.5e-16 |want| per component (two ulps: the hand
   values are rounded once, the projection a few times). */
static int expect(const double x[6], double mu, double rho, double sigma,
                  const double want[6])
{
    double p[6];
    CHECK(rf_project_contact(x, mu, rho, sigma, p) == RF_OK);
    for (int k = 0; k < 6; ++k) {
        if (!(fabs(p[k] - want[k]) <= 4.5e-16 * fabs(want[k]))) {
            fprintf(stderr, "%s:%d: component %d: got %.17g (%a), want %.17g\n",
                    __FILE__, __LINE__, k, p[k], p[k], want[k]);
            dump("input:", x, mu, rho, sigma, p);
            return 1;
        }
    }
    stats st = {0};
    return check_point(x, mu, rho, sigma, &st, p);
}

/* Acary Prop. 5.2 for the 5D cone (sigma = 0; their r_T = our (x1, x2),
   m_R = our (x4, x5)), cases 1-5, and its 3D (Coulomb: rho = sigma = 0) and
   2D (planar: one tangential component) subcases, plus the 6D extension
   with spin (DESIGN §3: p_n = (x0 + sum_A c_k |l_k|)/(1 + sum_A c_k^2)).
   Each expected vector is worked out by hand in the comment; inputs use
   3-4-5 triples so that the norms are exact. */
static int test_closed_forms(void)
{
    /* case 1, p in K: (2, 0.75, 1, 0, 0.375, 0.5) with mu = 0.625 (|r_T| =
       1.25 = mu 2, on the face), rho = 0.3125 (|m_R| = 0.625 = rho 2, on
       the face): itself */
    const double x1[6] = {2, 0.75, 1, 0, 0.375, 0.5};
    const double w1[6] = {2, 0.75, 1, 0, 0.375, 0.5};
    ENSURE(expect(x1, 0.625, 0.3125, 0.0, w1) == 0);
    /* case 2, -p in K*: x = (-4, 3, 4, 0, 6, 8), mu = 0.5, rho = 0.125:
       mu 5 + rho 10 = 3.75 <= 4: the origin */
    const double x2[6] = {-4, 3, 4, 0, 6, 8};
    const double w0[6] = {0, 0, 0, 0, 0, 0};
    ENSURE(expect(x2, 0.5, 0.125, 0.0, w0) == 0);
    /* case 3, both active, (68): x = (-1.125, 3, 4, 0, 3, 4), mu = 0.5,
       rho = 0.25: r_N = (-1.125 + 2.5 + 1.25) / (1 + 0.25 + 0.0625) =
       2.625 / 1.3125 = 2; mu r_N = 1 < 5, rho r_N = 0.5 < 5: consistent.
       r_T = 1 (3, 4)/5, m_R = 0.5 (3, 4)/5 */
    const double x3[6] = {-1.125, 3, 4, 0, 3, 4};
    const double w3[6] = {2, 0.6, 0.8, 0, 0.3, 0.4};
    ENSURE(expect(x3, 0.5, 0.25, 0.0, w3) == 0);
    /* case 4, sliding active only, (69): x = (1, 3, 4, 0, 0.15, 0.2), mu =
       0.5, rho = 0.25: r_N = (1 + 2.5)/1.25 = 2.8, rho r_N = 0.7 > 0.25 =
       |m_R|: consistent.  r_T = 1.4 (0.6, 0.8), m_R unchanged */
    const double x4[6] = {1, 3, 4, 0, 0.15, 0.2};
    const double w4[6] = {2.8, 0.84, 1.12, 0, 0.15, 0.2};
    ENSURE(expect(x4, 0.5, 0.25, 0.0, w4) == 0);
    /* case 5, rolling active only: x = (1, 0.1, 0, 0, 3, 4), mu = 0.5, rho
       = 0.5: r_N = (1 + 2.5)/1.25 = 2.8, mu r_N = 1.4 > 0.1: r_T unchanged,
       m_R = 1.4 (0.6, 0.8) */
    const double x5[6] = {1, 0.1, 0, 0, 3, 4};
    const double w5[6] = {2.8, 0.1, 0, 0, 0.84, 1.12};
    ENSURE(expect(x5, 0.5, 0.5, 0.0, w5) == 0);
    /* the all-active formula would be inconsistent: x = (0, 10, 0, 0, 0.1,
       0), mu = rho = 1: all active gives r_N = 10.1/3 > 0.1, so rolling is
       inactive; sliding only: r_N = 10/2 = 5, r_T = (5, 0), m_R kept */
    const double x6[6] = {0, 10, 0, 0, 0.1, 0};
    const double w6[6] = {5, 5, 0, 0, 0.1, 0};
    ENSURE(expect(x6, 1.0, 1.0, 0.0, w6) == 0);
    /* 3D Coulomb (rho = sigma = 0): x = (1, 3, 4, 7, -2, 9), mu = 1:
       r_N = (1 + 5)/2 = 3, r_T = 3 (0.6, 0.8), the rest forced to 0 */
    const double x7[6] = {1, 3, 4, 7, -2, 9};
    const double w7[6] = {3, 1.8, 2.4, 0, 0, 0};
    ENSURE(expect(x7, 1.0, 0.0, 0.0, w7) == 0);
    /* 3D Coulomb, the polar side: x = (-1, 0.1, 0, ...), mu = 0.5:
       mu |r_T| = 0.05 <= 1: the origin */
    const double x8[6] = {-1, 0.1, 0, 0.3, 0.2, 0.1};
    ENSURE(expect(x8, 0.5, 0.0, 0.0, w0) == 0);
    /* 2D planar (one tangential component): x = (0, 2, 0, 0, 0, 0), mu =
       1: r_N = 2/2 = 1, r_T = 1; x = (3, -8, 0, ...), mu = 0.5: r_N = (3 +
       4)/1.25 = 5.6, r_T = -2.8 */
    const double x9[6] = {0, 2, 0, 0, 0, 0};
    const double w9[6] = {1, 1, 0, 0, 0, 0};
    ENSURE(expect(x9, 1.0, 0.0, 0.0, w9) == 0);
    const double x10[6] = {3, -8, 0, 0, 0, 0};
    const double w10[6] = {5.6, -2.8, 0, 0, 0, 0};
    ENSURE(expect(x10, 0.5, 0.0, 0.0, w10) == 0);
    /* rolling only (mu = sigma = 0): x = (1, 5, 5, 5, 6, 8), rho = 0.5:
       r_N = (1 + 5)/1.25 = 4.8, m_R = 2.4 (0.6, 0.8) */
    const double x11[6] = {1, 5, 5, 5, 6, 8};
    const double w11[6] = {4.8, 0, 0, 0, 1.44, 1.92};
    ENSURE(expect(x11, 0.0, 0.5, 0.0, w11) == 0);
    /* 6D, all three active: x = (-2, 3, 4, -4, 3, 4), mu = 0.5, rho =
       sigma = 0.25: p_n = (-2 + 2.5 + 1.25 + 1)/(1 + 0.25 + 0.0625 +
       0.0625) = 2.75/1.375 = 2; mu p_n = 1 < 5, rho p_n = 0.5 < 5, sigma
       p_n = 0.5 < 4: consistent */
    const double x12[6] = {-2, 3, 4, -4, 3, 4};
    const double w12[6] = {2, 0.6, 0.8, -0.5, 0.3, 0.4};
    ENSURE(expect(x12, 0.5, 0.25, 0.25, w12) == 0);
    /* spin only active: x = (0, 0, 0, 2, 0, 0), sigma = 1: p_n = 2/2 = 1,
       spin 1 */
    const double x13[6] = {0, 0, 0, 2, 0, 0};
    const double w13[6] = {1, 0, 0, 1, 0, 0};
    ENSURE(expect(x13, 0.5, 0.5, 1.0, w13) == 0);
    /* spin inactive, sliding and rolling active: x = (-1.125, 3, 4, 0.25,
       3, 4), as case 3 with sigma = 0.5: sigma p_n = 1 > 0.25: kept */
    const double x14[6] = {-1.125, 3, 4, 0.25, 3, 4};
    const double w14[6] = {2, 0.6, 0.8, 0.25, 0.3, 0.4};
    ENSURE(expect(x14, 0.5, 0.25, 0.5, w14) == 0);
    printf("  closed forms: 14 hand-computed vectors, within two ulps\n");
    return 0;
}

/* ------------------------------------------------------------------ */
/* Brute-force references for the normal component                     */
/* ------------------------------------------------------------------ */

/* psi(y) = (y - x0)^2 + sum_k max(0, a_k - c_k y)^2 (DESIGN §3) and half
   its derivative (y - x0) - sum_k c_k max(0, a_k - c_k y), monotone. */
static double psi(double x0, const double a[3], const double c[3], double y)
{
    double s = (y - x0) * (y - x0);
    for (int k = 0; k < 3; ++k) {
        const double e = fmax(0.0, a[k] - c[k] * y);
        s += e * e;
    }
    return s;
}

static double dpsi(double x0, const double a[3], const double c[3], double y)
{
    double s = y - x0;
    for (int k = 0; k < 3; ++k) {
        s -= c[k] * fmax(0.0, a[k] - c[k] * y);
    }
    return s;
}

/* An upper bound of the minimiser: psi'(U) >= 0 for U >= x0 + sum c_k a_k. */
static double upper_bound(double x0, const double a[3], const double c[3])
{
    return fmax(0.0, x0 + c[0] * a[0] + c[1] * a[1] + c[2] * a[2]);
}

/* Bisection on psi' over [0, U] down to adjacent doubles. */
static double bisect_normal(double x0, const double a[3], const double c[3])
{
    double lo = 0.0, hi = upper_bound(x0, a, c);
    if (dpsi(x0, a, c, 0.0) >= 0.0) {
        return 0.0;
    }
    for (int it = 0; it < 2100; ++it) {
        const double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) {
            break;
        }
        if (dpsi(x0, a, c, mid) < 0.0) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return 0.5 * (lo + hi);
}

/* Random inputs for the reference checks: coefficients with zeros, tiny
   and huge ones; Gaussian-ish x at 1e-8 .. 1e8, a quarter with spread
   components. */
static void reference_input(rf_rng *r, int n, double x[6], double c[3])
{
    for (int k = 0; k < 3; ++k) {
        c[k] = random_coef(r);
    }
    random_vec(r, pow10_range(r, -8.0, 8.0), x);
    if (n % 4 == 0) {
        for (int k = 0; k < 6; ++k) {
            x[k] *= pow10_range(r, -4.0, 4.0);
        }
    }
}

/* p_n against the bisection on psi' (to 1e-12 |x|, far tighter than the
   sqrt(eps) a minimisation on psi values could resolve), and the whole vector
   against the collinear reconstruction l_k min(1, c_k y / |l_k|) of App. C
   (to 1e-12 |x| (1 + mu + rho + sigma), the tangential parts being c_k y). */
static int test_bisection_reference(void)
{
    rf_rng r = {7};
    double worst_n = 0.0, worst_v = 0.0;
    long count = 0;
    double x[6], p[6] = {0}, c[3], a[3];
    for (int n = 0; n < 50000; ++n) {
        reference_input(&r, n, x, c);
        const double mu = c[0], rho = c[1], sigma = c[2];
        CHECK(rf_project_contact(x, mu, rho, sigma, p) == RF_OK);
        part_norms(x, a);
        const double y = bisect_normal(x[0], a, c);
        const double nx = norm6(x);
        const double en = fabs(p[0] - y) / nx;
        worst_n = fmax(worst_n, en);
        CHECK(en <= TOL);
        double s[3];
        for (int k = 0; k < 3; ++k) {
            s[k] = (c[k] == 0.0)     ? 0.0
                   : a[k] > c[k] * y ? c[k] * y / a[k]
                                     : 1.0;
        }
        const double q[6] = {y,           s[0] * x[1], s[0] * x[2],
                             s[2] * x[3], s[1] * x[4], s[1] * x[5]};
        const double ev = dist6(p, q) / (nx * (1.0 + mu + rho + sigma));
        worst_v = fmax(worst_v, ev);
        CHECK(ev <= TOL);
        count++;
    }
    printf("  bisection on psi': %ld inputs, worst |p_n - y*|/|x| %.1e, "
           "worst |p - q(y*)|/(|x| k) %.1e\n",
           count, worst_n, worst_v);
    return 0;
}

/* Dense sampling of psi itself (400 points on [0, U]) refined by golden
   section around the best sample: p_n must be at least as good as every
   sample (psi(p_n) <= psi(y) + 1e-13 |x|^2, a few roundings of psi) and
   agree with the golden-section minimiser to 1e-7 |x| (golden section on
   function values resolves the minimiser only to about sqrt(eps) |x|). */
static int test_golden_section_reference(void)
{
    const double g = 0.6180339887498949;
    rf_rng r = {8};
    double worst_gap = 0.0, worst_y = 0.0;
    long count = 0;
    double x[6], p[6] = {0}, c[3], a[3];
    for (int n = 0; n < 10000; ++n) {
        reference_input(&r, n, x, c);
        const double mu = c[0], rho = c[1], sigma = c[2];
        CHECK(rf_project_contact(x, mu, rho, sigma, p) == RF_OK);
        part_norms(x, a);
        const double nx2 =
            x[0] * x[0] + a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
        const double u = upper_bound(x[0], a, c);
        const double fp = psi(x[0], a, c, p[0]);
        double best = 0.0, fbest = psi(x[0], a, c, 0.0);
        for (int i = 1; i <= 400; ++i) {
            const double y = u * i / 400.0, f = psi(x[0], a, c, y);
            worst_gap = fmax(worst_gap, (fp - f) / nx2);
            CHECK(fp <= f + 1e-13 * nx2);
            if (f < fbest) {
                best = y;
                fbest = f;
            }
        }
        double lo = fmax(0.0, best - u / 400.0), hi = fmin(u, best + u / 400.0);
        double y1 = hi - g * (hi - lo), y2 = lo + g * (hi - lo);
        double f1 = psi(x[0], a, c, y1), f2 = psi(x[0], a, c, y2);
        for (int it = 0; it < 120; ++it) {
            if (f1 <= f2) {
                hi = y2;
                y2 = y1;
                f2 = f1;
                y1 = hi - g * (hi - lo);
                f1 = psi(x[0], a, c, y1);
            } else {
                lo = y1;
                y1 = y2;
                f1 = f2;
                y2 = lo + g * (hi - lo);
                f2 = psi(x[0], a, c, y2);
            }
        }
        const double ygs = 0.5 * (lo + hi), fgs = psi(x[0], a, c, ygs);
        worst_gap = fmax(worst_gap, (fp - fgs) / nx2);
        CHECK(fp <= fgs + 1e-13 * nx2);
        const double ey = fabs(p[0] - ygs) / sqrt(nx2);
        worst_y = fmax(worst_y, ey);
        CHECK(ey <= 1e-7);
        count++;
    }
    printf("  golden section on psi: %ld inputs, worst (psi(p_n) - "
           "psi(sample))/|x|^2 %.1e, worst |p_n - y_gs|/|x| %.1e\n",
           count, worst_gap, worst_y);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Optimality against sampled feasible points                          */
/* ------------------------------------------------------------------ */

/* Put y into Y by shrinking each part radially onto its disc (not the
   projection, just a feasible point near y). */
static void make_feasible(double y[6], const double c[3])
{
    static const int comp[3][2] = {
        {RF_U, RF_W}, {RF_ROLL_U, RF_ROLL_W}, {RF_SPIN, RF_SPIN}};
    y[0] = fmax(y[0], 0.0);
    for (int k = 0; k < 3; ++k) {
        const int i = comp[k][0], j = comp[k][1];
        const double a = (i == j) ? fabs(y[i]) : pnorm(y[i], y[j]);
        const double lim = c[k] * y[0];
        if (a > lim) {
            const double s = lim / a * (1.0 - 1e-15);
            y[i] *= s;
            y[j] = (i == j) ? y[i] : y[j] * s;
        }
    }
}

/* For each x, 64 feasible y: 16 uniformly inside, 16 on all faces, 32
   next to p (p plus a perturbation of 1e-6 .. 1e-1 |x|, made feasible).
   |x - p| <= |x - y| for every one, up to 1e-14 |x|^2 in the squares. */
static int test_sampled_optimality(void)
{
    rf_rng r = {9};
    long count = 0, samples = 0;
    double worst = -INFINITY;
    double x[6], p[6] = {0}, y[6], c[3];
    for (int n = 0; n < 5000; ++n) {
        reference_input(&r, n, x, c);
        const double mu = c[0], rho = c[1], sigma = c[2];
        CHECK(rf_project_contact(x, mu, rho, sigma, p) == RF_OK);
        const double nx = norm6(x), dp = dist6(x, p);
        for (int m = 0; m < 64; ++m) {
            if (m < 32) {
                const double t = m < 16 ? -1.0 : 1.0; /* <0: inside */
                const double y0 = nx * rf_rng_range(&r, 0.0, 2.0);
                const double f[3] = {t < 0 ? rf_rng_uniform(&r) : 1.0,
                                     t < 0 ? rf_rng_uniform(&r) : 1.0,
                                     t < 0 ? rf_rng_range(&r, -1, 1) : 1.0};
                const double al = rf_rng_range(&r, 0.0, TWO_PI);
                const double be = rf_rng_range(&r, 0.0, TWO_PI);
                y[0] = y0;
                y[RF_U] = f[0] * mu * y0 * cos(al);
                y[RF_W] = f[0] * mu * y0 * sin(al);
                y[RF_ROLL_U] = f[1] * rho * y0 * cos(be);
                y[RF_ROLL_W] = f[1] * rho * y0 * sin(be);
                y[RF_SPIN] = f[2] * sigma * y0 * (al < 3.14 ? 1.0 : -1.0);
            } else {
                const double h = nx * pow10_range(&r, -6.0, -1.0);
                for (int k = 0; k < 6; ++k) {
                    y[k] = p[k] + h * gauss(&r);
                }
            }
            make_feasible(y, c);
            const double dy = dist6(x, y);
            const double gap = (dp * dp - dy * dy) / (nx * nx);
            worst = fmax(worst, gap);
            CHECK(dp * dp <= dy * dy + 1e-14 * nx * nx);
            samples++;
        }
        count++;
    }
    printf("  sampled optimality: %ld inputs x 64 = %ld feasible points, "
           "worst (|x-p|^2 - |x-y|^2)/|x|^2 %.1e\n",
           count, samples, worst);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Errors and the violation measures                                   */
/* ------------------------------------------------------------------ */

/* rf_project_contact(x, mu, rho, sigma, out) must return want and leave
   out (prefilled with a sentinel) untouched. */
static int expect_error(const double *x, double mu, double rho, double sigma,
                        rf_status want, rf_status also_ok)
{
    double out[6], sentinel[6];
    for (int k = 0; k < 6; ++k) {
        out[k] = sentinel[k] = -7.25 - k;
    }
    const rf_status got = rf_project_contact(x, mu, rho, sigma, out);
    if (!(got == want || got == also_ok) ||
        memcmp(out, sentinel, sizeof out) != 0) {
        fprintf(stderr,
                "error case: got status %d, want %d; mu %a rho %a "
                "sigma %a\n",
                (int)got, (int)want, mu, rho, sigma);
        return 1;
    }
    return 0;
}

static int test_errors(void)
{
    const double x[6] = {1, 2, 3, 4, 5, 6};
    double out[6], sentinel[6];
    long cases = 0;
    for (int k = 0; k < 6; ++k) {
        out[k] = sentinel[k] = -7.25 - k;
    }
    ENSURE(rf_project_contact(NULL, 0.5, 0.1, 0.1, out) == RF_ERR_NULL);
    ENSURE(rf_project_contact(x, 0.5, 0.1, 0.1, NULL) == RF_ERR_NULL);
    ENSURE(rf_project_contact(NULL, 0.5, 0.1, 0.1, NULL) == RF_ERR_NULL);
    ENSURE(memcmp(out, sentinel, sizeof out) == 0);
    cases += 3;
    /* NaN / +-Inf in each component of x */
    const double bad[3] = {NAN, INFINITY, -INFINITY};
    for (int k = 0; k < 6; ++k) {
        for (int b = 0; b < 3; ++b) {
            double xb[6];
            memcpy(xb, x, sizeof xb);
            xb[k] = bad[b];
            ENSURE(expect_error(xb, 0.5, 0.1, 0.1, RF_ERR_NONFINITE,
                                RF_ERR_NONFINITE) == 0);
            /* aliased: x itself is out and must stay as it was */
            double xa[6];
            memcpy(xa, xb, sizeof xa);
            ENSURE(rf_project_contact(xa, 0.5, 0.1, 0.1, xa) ==
                   RF_ERR_NONFINITE);
            ENSURE(memcmp(xa, xb, sizeof xa) == 0);
            cases += 2;
        }
    }
    /* non-finite and negative coefficients, each position */
    const double neg[3] = {-1e-300, -0.5, -DBL_MAX};
    for (int k = 0; k < 3; ++k) {
        double c[3] = {0.5, 0.1, 0.1};
        for (int b = 0; b < 2; ++b) { /* NaN, +Inf */
            c[k] = bad[b];
            ENSURE(expect_error(x, c[0], c[1], c[2], RF_ERR_NONFINITE,
                                RF_ERR_NONFINITE) == 0);
            cases++;
        }
        for (int b = 0; b < 3; ++b) {
            c[k] = neg[b];
            ENSURE(expect_error(x, c[0], c[1], c[2], RF_ERR_INVALID,
                                RF_ERR_INVALID) == 0);
            cases++;
        }
        /* -Inf is both non-finite and negative: either code */
        c[k] = -INFINITY;
        ENSURE(expect_error(x, c[0], c[1], c[2], RF_ERR_NONFINITE,
                            RF_ERR_INVALID) == 0);
        cases++;
    }
    printf("  errors: %ld cases, status and untouched output checked\n", cases);
    return 0;
}

/* Exact values: cone violation = max(-x0, |x_t| - mu x0, |x_r| - rho x0,
   |x_s| - sigma x0, 0); dual violation = max(mu|u_t| + rho|u_r| +
   sigma|u_s| - u0, 0). */
static int test_violation_values(void)
{
    const double v[6] = {1.0, 3.0, 4.0, 0.5, 0.0, 0.0};
    ENSURE(rf_cone_violation(v, 1.0, 1.0, 1.0) == 4.0); /* 5 - 1 */
    ENSURE(rf_cone_violation(v, 0.0, 1.0, 1.0) == 5.0); /* mu = 0: 5 - 0 */
    ENSURE(rf_cone_violation(v, 5.0, 0.0, 0.0) == 0.5); /* spin: 0.5 - 0 */
    ENSURE(rf_cone_violation(v, 5.0, 0.0, 0.5) == 0.0); /* in Y */
    const double neg[6] = {-2.0, 0, 0, 0, 0, 0};
    ENSURE(rf_cone_violation(neg, 0.5, 0.5, 0.5) == 2.0); /* -x0 */
    ENSURE(rf_cone_violation(neg, 2.0, 0.5, 0.5) == 4.0); /* 0 - 2 (-2) */
    const double face[6] = {2.0, 0.75, 1.0, 0.0, 0.375, 0.5};
    ENSURE(rf_cone_violation(face, 0.625, 0.3125, 0.0) == 0.0); /* on faces */
    ENSURE(rf_dual_cone_violation(v, 0.1, 1.0, 1.0) == 0.0);    /* 0.5+0.5-1 */
    ENSURE(rf_dual_cone_violation(v, 1.0, 1.0, 2.0) == 5.0);    /* 5+1-1 */
    const double u[6] = {10.0, 3.0, 4.0, 2.0, 6.0, 8.0};
    ENSURE(rf_dual_cone_violation(u, 1.0, 0.5, 0.25) == 0.5); /* 5+5+.5-10 */
    ENSURE(rf_dual_cone_violation(u, 1.0, 0.0, 0.0) == 0.0);  /* 5 - 10 */
    const double free_[6] = {0.0, 7.0, 0.0, -3.0, 0.0, 0.0};
    ENSURE(rf_dual_cone_violation(free_, 0.0, 1.0, 0.0) == 0.0); /* free */
    ENSURE(rf_dual_cone_violation(neg, 1.0, 1.0, 1.0) == 2.0);   /* -u0 */
    /* NaN for NULL and bad coefficients */
    ENSURE(isnan(rf_cone_violation(NULL, 1, 1, 1)));
    ENSURE(isnan(rf_dual_cone_violation(NULL, 1, 1, 1)));
    ENSURE(isnan(rf_cone_violation(v, 1, -1, 1)));
    ENSURE(isnan(rf_dual_cone_violation(v, -1, 1, 1)));
    ENSURE(isnan(rf_cone_violation(v, 1, 1, NAN)));
    ENSURE(isnan(rf_dual_cone_violation(v, 1, INFINITY, 1)));
    return 0;
}

/* Every property group together went through more than 10^6 inputs. */
static int test_total_count(void)
{
    printf("  total: %ld inputs through the Moreau checks\n", g_inputs);
    ENSURE(g_inputs >= 1000000);
    return 0;
}

int main(void)
{
    RUN_TEST(test_random);
    RUN_TEST(test_zero_patterns);
    RUN_TEST(test_inside);
    RUN_TEST(test_faces);
    RUN_TEST(test_polar);
    RUN_TEST(test_ratios);
    RUN_TEST(test_apex_and_axis);
    RUN_TEST(test_near_face_huge_coefficient);
    RUN_TEST(test_closed_forms);
    RUN_TEST(test_bisection_reference);
    RUN_TEST(test_golden_section_reference);
    RUN_TEST(test_sampled_optimality);
    RUN_TEST(test_errors);
    RUN_TEST(test_violation_values);
    RUN_TEST(test_total_count);
    return TEST_SUMMARY();
}
