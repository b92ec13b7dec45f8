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

#include <string.h>

/* Insertion sort of at most three (breakpoint, part) pairs. */
static void sort_breakpoints(int n, double b[3], int k[3])
{
    for (int i = 1; i < n; ++i) {
        double bi = b[i];
        int ki = k[i];
        int j = i - 1;
        while (j >= 0 && b[j] > bi) {
            b[j + 1] = b[j];
            k[j + 1] = k[j];
            --j;
        }
        b[j + 1] = bi;
        k[j + 1] = ki;
    }
}

/* Minimiser of psi over y0 >= 0, given the part norms a[] and coefficients
 * c[] (parts with c == 0 or a == 0 are never active). */
static double minimise_psi(double x0, const double a[3], const double c[3])
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
        double num = x0, den = 1.0;
        for (int m = j; m < nb; ++m) {
            num += c[k[m]] * a[k[m]];
            den += c[k[m]] * c[k[m]];
        }
        double y = num / den; /* den >= 1 */
        double hi = (j < nb) ? b[j] : INFINITY;
        /* Decide by the sign of psi'/2 at the breakpoint hi (without the
           part ending there), not by comparing y with hi: with a huge
           coefficient y can round onto hi although the minimiser lies
           far beyond it. */
        double d = -1.0;
        if (j < nb) {
            d = hi - x0;
            for (int m = j + 1; m < nb; ++m) {
                d -= c[k[m]] * (a[k[m]] - c[k[m]] * hi);
            }
        }
        if (j == nb || d >= 0.0) {
            y = y < lo ? lo : y;
            return y > hi ? hi : y;
        }
        lo = hi;
    }
    return lo; /* not reached: the last interval is unbounded */
}

void rf__project6(const double x[6], const rf__cone *cone, double out[6])
{
    const double mu = cone->mu, rho = cone->rho, sigma = cone->sigma;
    const double x0 = x[RF_N];
    /* A roll_t1 cone is Y intersected with {tw = 0}: the tw term of the
       distance is a constant, so projecting x is projecting x with tw = 0
       onto Y, whose result keeps tw = 0 (parts stay collinear). */
    const double roll_w = cone->roll_t1 ? 0.0 : x[RF_ROLL_W];
    const double a[3] = {
        sqrt(x[RF_U] * x[RF_U] + x[RF_W] * x[RF_W]),
        sqrt(x[RF_ROLL_U] * x[RF_ROLL_U] + roll_w * roll_w),
        fabs(x[RF_SPIN]),
    };
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
    const rf__cone cone = {mu, rho, sigma, 0};
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
    double t = sqrt(x[RF_U] * x[RF_U] + x[RF_W] * x[RF_W]) - mu * x0;
    double r = sqrt(x[RF_ROLL_U] * x[RF_ROLL_U] + x[RF_ROLL_W] * x[RF_ROLL_W]) -
               rho * x0;
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
       zero coefficient leaves its component free. */
    const rf__cone cone = {mu, rho, sigma, 0};
    double need = rf__desaxce_shift(u, &cone);
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
