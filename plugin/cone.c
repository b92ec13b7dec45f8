/*
 * Exact Euclidean projection onto the intersection of the sliding, rolling
 * and spinning cones of one contact (Tasora & Anitescu, App. C; DESIGN §3).
 *
 * The projected tangential parts stay collinear with the input, so the
 * problem reduces to one scalar y0 = gn >= 0 minimising the convex,
 * continuously differentiable, piecewise quadratic
 *
 *   psi(y0) = (y0 - x0)^2 + sum_k [|l_k| > c_k y0] (|l_k| - c_k y0)^2
 *
 * over the parts l_1 = (gu, gw), l_2 = (tu, tw), l_3 = tn with c_k = mu,
 * rho, sigma.  Its breakpoints are b_k = |l_k| / c_k; between two of them
 * the active set {k : b_k > y0} is fixed and the stationary point is
 *
 *   y0 = (x0 + sum_A c_k |l_k|) / (1 + sum_A c_k^2).          (App. C)
 *
 * psi' is monotone, so scanning the intervals in increasing order and
 * taking the first one whose stationary point does not exceed its upper
 * end gives the minimiser (clamped into the interval).  The active set is
 * read off the sorted breakpoints, never re-tested per candidate, so a
 * point already on a face maps to itself even when rounding makes a
 * strict consistency test fail.
 */
#include "internal.h"

#include <float.h>
#include <string.h>

/* Order pairs i < j of (breakpoint, part) by breakpoint; equal ones keep
   their order. */
static inline void order_pair(double b[3], int k[3], int i, int j)
{
    if (b[i] > b[j]) {
        const double tb = b[i];
        const int tk = k[i];
        b[i] = b[j];
        k[i] = k[j];
        b[j] = tb;
        k[j] = tk;
    }
}

/* Stable sort of at most three (breakpoint, part) pairs: the network
   (0,1) (1,2) (0,1), which is bubble sort, so ties keep their order. */
static inline void sort_breakpoints(int n, double b[3], int k[3])
{
    if (n >= 2) {
        order_pair(b, k, 0, 1);
    }
    if (n == 3) {
        order_pair(b, k, 1, 2);
        order_pair(b, k, 0, 1);
    }
}

/* 2^-ilogb(max c) over the parts k[from..nb-1] when that max is past
   2^256, else 1 (see minimise_psi_impl). */
static double huge_scale(const double c[3], const int k[3], int from, int nb)
{
    double cmax = 0.0;
    for (int m = from; m < nb; ++m) {
        cmax = c[k[m]] > cmax ? c[k[m]] : cmax;
    }
    return cmax > 0x1p256 ? ldexp(1.0, -ilogb(cmax)) : 1.0;
}

/* Minimiser of psi over y0 >= 0, given the part norms a[] and coefficients
 * c[] (parts with c == 0 or a == 0 are never active).  The caller keeps
 * every a[] and |x0|, times the largest c up to 2^256 (at least 1), below
 * 2^1016.  huge: some c is past 2^256 (a
 * constant where it is called, so that the common case compiles to the
 * plain arithmetic). */
static RF__ALWAYS_INLINE double minimise_psi_impl(double x0, const double a[3],
                                                  const double c[3], int huge)
{
    double b[3];
    int k[3];
    int nb = 0;
    for (int i = 0; i < 3; ++i) {
        if (c[i] > 0.0 && a[i] > 0.0) {
            b[nb] = a[i] / c[i]; /* c > 0: finite or +inf, never NaN */
            k[nb] = i;
            ++nb;
        }
    }
    sort_breakpoints(nb, b, k);

    /* Interval j is [lo, b[j]) with active set {k[j], ..., k[nb-1]};
       interval nb is [b[nb-1], inf) with no active part. */
    double lo = 0.0;
    for (int j = 0; j <= nb; ++j) {
        /* c^2 overflows past 2^512, and c a may past 2^256 (the caller
           bounds a for the smaller c only): past c = 2^256, evaluate num,
           den times f^2, f =
           2^-ilogb(max c) over the active parts (exact, and the quotient
           does not change; den >= (max c f)^2 >= 1).  Below, f = 1 leaves
           every operation as it is, bit for bit.  (x0 f) f, not x0 (f f):
           f f alone underflows past c = 2^537; where (x0 f) f does, x0 /
           c^2 is below 2^-300 and y is a / c to within it. */
        const double f = huge ? huge_scale(c, k, j, nb) : 1.0;
        double num = x0 * f * f, den = f * f;
        for (int m = j; m < nb; ++m) {
            const double cf = c[k[m]] * f;
            num += cf * (a[k[m]] * f);
            den += cf * cf;
        }
        double hi = (j < nb) ? b[j] : INFINITY;
        /* Decide by the sign of psi'/2 at the breakpoint hi (without the
           part ending there), not by comparing y with hi: with a huge
           coefficient y can round onto hi although the minimiser lies
           far beyond it.  psi' grows without bound, so an infinite hi
           (a coefficient that underflows a / c) always ends the scan. */
        double d = -1.0;
        if (j < nb && hi < INFINITY) {
            /* scaled as num, but by the parts in the sum only: a huge
               coefficient of the part ending at hi must not flush hi - x0
               to zero (sigma = 7e221 once chose [0, 1e-222) that way for
               a point next to a face) */
            const double fd = huge ? huge_scale(c, k, j + 1, nb) : 1.0;
            d = hi * fd * fd - x0 * fd * fd;
            for (int m = j + 1; m < nb; ++m) {
                const double cf = c[k[m]] * fd;
                d -= cf * (a[k[m]] * fd - cf * hi);
            }
        }
        if (j == nb || hi == INFINITY || d >= 0.0) {
            /* den >= 1 (f = 1) or >= (cmax f)^2 >= 1; divided only here,
               in the interval that holds the minimiser */
            double y = num / den;
            y = y < lo ? lo : y;
            return y > hi ? hi : y;
        }
        lo = hi;
    }
    return lo; /* not reached: the last interval is unbounded */
}

static double minimise_psi(double x0, const double a[3], const double c[3])
{
    if (c[0] > 0x1p256 || c[1] > 0x1p256 || c[2] > 0x1p256) {
        return minimise_psi_impl(x0, a, c, 1);
    }
    return minimise_psi_impl(x0, a, c, 0);
}

/* |(u, w)|: the root of the sum of squares (what the projection has
   always used, so that a point it puts exactly on a face measures exactly
   0), but hypot where the squares overflow or vanish: a part of 1e-170
   next to a normal impulse of 1 must not read as 0 (the projection would
   keep it whole on a zero normal impulse, outside Y), nor one of 1e200
   as infinite. */
static double part_norm(double u, double w)
{
    double r = sqrt(u * u + w * w);
    if ((r > 0x1p500 || r < 0x1p-500) && (u != 0.0 || w != 0.0)) {
        r = hypot(u, w);
    }
    return r;
}

/* The projection of x (tw as the cone sees it: roll_w) given its part
   norms a[], for m cb <= 2^1016 (see rf__project6). */
static void project6_core(const double x[6], double roll_w, const double a[3],
                          const rf__cone *cone, double out[6])
{
    const double mu = cone->mu, rho = cone->rho, sigma = cone->sigma;
    const double x0 = x[RF_N];
    const double c[3] = {mu, rho, sigma};

    /* Inside Y: unchanged (also covers the boundary exactly). */
    if (x0 >= 0.0 && a[0] <= mu * x0 && a[1] <= rho * x0 &&
        a[2] <= sigma * x0) {
        if (out != x) {
            memcpy(out, x, 6 * sizeof(double));
        }
        out[RF_ROLL_W] = roll_w;
        return;
    }

    const double y0 = minimise_psi(x0, a, c);

    /* Scale each part onto its cone when it sticks out; zero coefficient
       forces the part to zero. */
    double s[3];
    for (int i = 0; i < 3; ++i) {
        if (c[i] == 0.0) {
            s[i] = 0.0;
        } else if (a[i] > c[i] * y0) {
            s[i] = c[i] * y0 / a[i]; /* a > c y0 >= 0, so a > 0 */
        } else {
            s[i] = 1.0;
        }
    }
    out[RF_N] = y0;
    out[RF_U] = s[0] * x[RF_U];
    out[RF_W] = s[0] * x[RF_W];
    out[RF_SPIN] = s[2] * x[RF_SPIN];
    out[RF_ROLL_U] = s[1] * x[RF_ROLL_U];
    out[RF_ROLL_W] = s[1] * roll_w;
}

/* The part norms of x in cone c (roll_w: tw as the cone sees it). */
static void part_norms(const double x[6], double roll_w, double a[3])
{
    a[0] = part_norm(x[RF_U], x[RF_W]);
    a[1] = part_norm(x[RF_ROLL_U], roll_w);
    a[2] = fabs(x[RF_SPIN]);
}

/* rf__project6 away from the magnitudes project6_core handles: x 2^-e
   projected and scaled back, or NaN for a non-finite x. */
static void project6_scaled(const double x[6], const rf__cone *cone, double cb,
                            double out[6])
{
    const int n = cone->roll_t1 ? 5 : 6; /* roll_t1: tw is 0 */
    double xm = 0.0, nonfinite = 0.0;
    for (int k = 0; k < n; ++k) {
        const double ak = fabs(x[k]);
        xm = ak > xm ? ak : xm;
        nonfinite += x[k] - x[k]; /* 0, or NaN for an infinity or a NaN */
    }
    if (nonfinite != 0.0) {
        /* Only a diverging iteration gets here (the public entry points
           refuse non-finite data).  There is no projection of an
           infinity: answer NaN, never a finite point that looks like one
           but lies outside Y. */
        for (int k = 0; k < 6; ++k) {
            out[k] = NAN;
        }
        if (cone->roll_t1) {
            out[RF_ROLL_W] = 0.0;
        }
        return;
    }
    /* down to max |x_k| cb in [2^1012, 2^1014) (no further), or up to
       max |x_k| in [2^400, 2^401) */
    const int e =
        xm * cb > 0x1p900 ? ilogb(xm) + ilogb(cb) - 1012 : ilogb(xm) - 400;
    double t[6];
    for (int k = 0; k < 6; ++k) {
        t[k] = ldexp(x[k], -e);
    }
    if (cone->roll_t1) {
        t[RF_ROLL_W] = 0.0;
    }
    double a[3];
    part_norms(t, t[RF_ROLL_W], a);
    project6_core(t, t[RF_ROLL_W], a, cone, t);
    for (int k = 0; k < 6; ++k) {
        out[k] = ldexp(t[k], e);
    }
    /* A positive normal impulse that underflows on the way back is
       rounded up to the smallest subnormal, not down to 0: with a huge
       coefficient that keeps the parts it carries inside Y. */
    if (out[RF_N] == 0.0 && t[RF_N] > 0.0) {
        out[RF_N] = DBL_TRUE_MIN;
    }
}

/* Projection onto Y truncated by the yield cap gamma_n <= nmax, given
   p = P_Y(x) in out: when p_n <= nmax, p; otherwise the projection lies
   on the cap's plane (a projection onto a convex set intersected with a
   half-space that P_Y breaks ends on the half-space's boundary), where
   the slice of Y is a product of discs (mu nmax, rho nmax) and an interval
   (sigma nmax): each part of x projected on its own. */
static void apply_cap(const double x[6], const rf__cone *cone, double out[6])
{
    const double n = cone->nmax;
    out[RF_N] = n;
    const double r_t = cone->mu * n, r_r = cone->rho * n, r_s = cone->sigma * n;
    const double a_t = hypot(x[RF_U], x[RF_W]);
    const double f_t = a_t > r_t ? r_t / a_t : 1.0;
    out[RF_U] = x[RF_U] * f_t;
    out[RF_W] = x[RF_W] * f_t;
    const double xw = cone->roll_t1 ? 0.0 : x[RF_ROLL_W];
    const double a_r = hypot(x[RF_ROLL_U], xw);
    const double f_r = a_r > r_r ? r_r / a_r : 1.0;
    out[RF_ROLL_U] = x[RF_ROLL_U] * f_r;
    out[RF_ROLL_W] = xw * f_r;
    out[RF_SPIN] =
        x[RF_SPIN] > r_s ? r_s : (x[RF_SPIN] < -r_s ? -r_s : x[RF_SPIN]);
}

static void project6_uncapped(const double x[6], const rf__cone *cone,
                              double out[6]);

void rf__project6(const double x[6], const rf__cone *cone, double out[6])
{
    if (!(cone->nmax < INFINITY)) {
        project6_uncapped(x, cone, out);
        return;
    }
    double xs[6]; /* out may alias x */
    memcpy(xs, x, sizeof xs);
    project6_uncapped(xs, cone, out);
    if (out[RF_N] > cone->nmax) {
        apply_cap(xs, cone, out);
    }
}

/* One disc part (u, w) of radius b = c x0 is clearly inside its cone:
   decided on squares, without the square root of part_norm.  The margin
   2^-48 exceeds the rounding of both sides (u^2 + w^2 and b^2 are each
   within 2^-52 of their exact values), so whenever this says inside,
   part_norm(u, w) <= b holds as project6_core computes it: the answer is
   the one project6_core gives, bit for bit.  b in [2^-400, 2^500] keeps
   the squares normal; b = 0 (c = 0 or x0 = 0) takes the zero part only;
   elsewhere the full test decides. */
static inline int disc_clearly_inside(double u, double w, double b)
{
    /* the same test without branches (& on the comparisons' 0 and 1): a
       start mixes new points (b = 0) and carried ones, and the branches
       on b == 0 were mispredicted (two fifths of rf__project6's samples
       on the full pyramid's starts) */
    const int zero = (b == 0.0) & (u == 0.0) & (w == 0.0);
    const int inside = (b >= 0x1p-400) & (b <= 0x1p500) &
                       (u * u + w * w <= (1.0 - 0x1p-48) * (b * b));
    return zero | inside;
}

static void project6_uncapped(const double x[6], const rf__cone *cone,
                              double out[6])
{
    /* A roll_t1 cone is Y intersected with {tw = 0}: the tw term of the
       distance is a constant, so projecting x is projecting x with tw = 0
       onto Y, whose result keeps tw = 0 (parts stay collinear). */
    const double roll_w = cone->roll_t1 ? 0.0 : x[RF_ROLL_W];
    /* Most calls find x inside Y (two in three on a settled pile): answer
       those before the part norms and their two square roots. */
    const double x0 = x[RF_N];
    if ((x0 >= 0.0) & disc_clearly_inside(x[RF_U], x[RF_W], cone->mu * x0) &
        disc_clearly_inside(x[RF_ROLL_U], roll_w, cone->rho * x0) &
        (fabs(x[RF_SPIN]) <= cone->sigma * x0)) {
        if (out != x) {
            memcpy(out, x, 6 * sizeof(double));
        }
        out[RF_ROLL_W] = roll_w;
        return;
    }
    double a[3];
    part_norms(x, roll_w, a);
    /* The projection is positively homogeneous: P(t x) = t P(x), so x can
       be projected at a scale 2^-e (exact) and the result scaled back
       (project6_scaled).  Done where the plain evaluation breaks, and
       nowhere else (bit for bit as before there); m is within a factor 5
       of max |x_k|:
         - with m cb past 2^1016, cb the largest coefficient up to 2^256
           (past which minimise_psi scales its own sums) and at least 1,
           c a and the sums of minimise_psi may overflow: project at
           max |x_k| cb in [2^1012, 2^1014).  Not lower: the parts of
           the result far below |x| sink into the subnormals on the way
           (at 2^499, a rolling part 1e-466 |x| came back 1e-8 outside
           Y);
         - below 2^-399, the results lose their digits in the subnormals;
           and with a coefficient past 2^256 the breakpoint a / c of its
           part underflows for a small x (a = 1e-117 and sigma = 1e308 gave
           a breakpoint 0 and zeroed a spin that should have stayed):
           project at max |x_k| in [2^400, 2^401), where a / c >= 2^-624
           for every part not negligible next to |x|;
         - an infinity or a NaN (m is not finite): NaN. */
    const double m = fabs(x[RF_N]) + a[0] + a[1] + a[2];
    const double c[3] = {cone->mu, cone->rho, cone->sigma};
    double cb = 1.0;
    int huge_c = 0;
    for (int i = 0; i < 3; ++i) {
        huge_c |= c[i] > 0x1p256;
        cb = c[i] > cb && c[i] <= 0x1p256 ? c[i] : cb;
    }
    if (m * cb <= 0x1p1016 &&
        (m >= (huge_c ? 0x1p400 : 0x1p-399) || m == 0.0)) {
        project6_core(x, roll_w, a, cone, out);
    } else {
        project6_scaled(x, cone, cb, out);
    }
}

static int coefficients_ok(double mu, double rho, double sigma,
                           rf_status *status)
{
    if (!isfinite(mu) || !isfinite(rho) || !isfinite(sigma)) {
        *status = RF_ERR_NONFINITE;
        return 0;
    }
    if (mu < 0.0 || rho < 0.0 || sigma < 0.0) {
        *status = RF_ERR_INVALID;
        return 0;
    }
    return 1;
}

rf_status rf_project_contact(const double x[6], double mu, double rho,
                             double sigma, double out[6])
{
    rf_status status = RF_OK;
    if (x == NULL || out == NULL) {
        return RF_ERR_NULL;
    }
    if (!coefficients_ok(mu, rho, sigma, &status)) {
        return status;
    }
    if (!rf__all_finite(x, 6)) {
        return RF_ERR_NONFINITE;
    }
    const rf__cone cone = {mu, rho, sigma, 0, INFINITY};
    rf__project6(x, &cone, out);
    return RF_OK;
}

double rf_cone_violation(const double x[6], double mu, double rho, double sigma)
{
    rf_status status;
    if (x == NULL || !coefficients_ok(mu, rho, sigma, &status)) {
        return NAN;
    }
    const double x0 = x[RF_N];
    double v = x0 < 0.0 ? -x0 : 0.0;
    double t = part_norm(x[RF_U], x[RF_W]) - mu * x0;
    double r = part_norm(x[RF_ROLL_U], x[RF_ROLL_W]) - rho * x0;
    double s = fabs(x[RF_SPIN]) - sigma * x0;
    if (t > v)
        v = t;
    if (r > v)
        v = r;
    if (s > v)
        v = s;
    return v;
}

double rf_dual_cone_violation(const double u[6], double mu, double rho,
                              double sigma)
{
    rf_status status;
    if (u == NULL || !coefficients_ok(mu, rho, sigma, &status)) {
        return NAN;
    }
    /* Y* = { un >= mu |u_t| + rho |w_r| + sigma |w_n| } (DESIGN §1); a
       zero coefficient leaves its component free (rf__desaxce_shift's
       terms, with part_norm). */
    double need = mu * part_norm(u[RF_U], u[RF_W]) +
                  rho * part_norm(u[RF_ROLL_U], u[RF_ROLL_W]) +
                  sigma * fabs(u[RF_SPIN]);
    double v = need - u[RF_N];
    return v > 0.0 ? v : 0.0;
}

rf_status rf_contact_frame(double n[3], double t1[3], double t2[3])
{
    if (n == NULL || t1 == NULL || t2 == NULL) {
        return RF_ERR_NULL;
    }
    if (!rf__all_finite(n, 3)) {
        return RF_ERR_NONFINITE;
    }
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(len >= 1e-12)) {
        return RF_ERR_INVALID;
    }
    double nn[3] = {n[0] / len, n[1] / len, n[2] / len};
    /* Start t1 from the world axis least aligned with n (stable). */
    double e[3] = {0.0, 0.0, 0.0};
    int m = 0;
    if (fabs(nn[1]) < fabs(nn[m]))
        m = 1;
    if (fabs(nn[2]) < fabs(nn[m]))
        m = 2;
    e[m] = 1.0;
    double d = e[0] * nn[0] + e[1] * nn[1] + e[2] * nn[2];
    double a[3] = {e[0] - d * nn[0], e[1] - d * nn[1], e[2] - d * nn[2]};
    double la = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    for (int i = 0; i < 3; ++i) {
        n[i] = nn[i];
        t1[i] = a[i] / la; /* la >= sqrt(2/3) since |nn[m]| <= 1/sqrt(3) */
    }
    t2[0] = n[1] * t1[2] - n[2] * t1[1];
    t2[1] = n[2] * t1[0] - n[0] * t1[2];
    t2[2] = n[0] * t1[1] - n[1] * t1[0];
    return RF_OK;
}
