/*
 * Projection onto Y(mu, rho, sigma) (Tasora App. C; DESIGN §3).
 *
 * Property tests on more than 10^6 random and adversarial inputs: Moreau's
 * decomposition (p in Y, p - x in Y*, <p, p - x> = 0; Moreau's theorem for
 * a closed convex cone and its polar, DESIGN §3) within 1e-12 relative to
 * |x|, idempotence, non-expansiveness, aliasing; plus checks that do not
 * restate the implementation: closed forms of Acary Prop. 5.2, a
 * brute-force minimisation of psi, and optimality against sampled feasible
 * points.
 */
#include "rollfric/rollfric.h"
#include "test_util.h"

#include <stdio.h>
#include <string.h>

static double norm6(const double x[6])
{
    double s = 0.0;
    for (int k = 0; k < 6; ++k) {
        s += x[k] * x[k];
    }
    return sqrt(s);
}

typedef struct worst {
    double moreau; /* worst of the three Moreau errors / |x| */
    double idem;
    long count;
} worst;

/* All the per-input properties.  tol is relative to |x| (|x|^2 for the
   inner product).  The dual-cone inequality d_n >= mu|d_t| + rho|d_r| +
   sigma|d_s| weighs the rounding of d = p - x (about eps |x|) by the
   coefficients, so its scale is |x| (1 + mu + rho + sigma): with
   coefficients of order 1 that is |x|, with mu = 1e5 no floating-point
   result could do better. */
static int check_point(const double x[6], double mu, double rho, double sigma,
                       worst *w)
{
    const double tol = 1e-12;
    double p[6], pp[6], a[6], d[6];
    ENSURE(rf_project_contact(x, mu, rho, sigma, p) == RF_OK);
    const double nx = norm6(x);
    for (int k = 0; k < 6; ++k) {
        d[k] = p[k] - x[k];
    }
    double in_y = rf_cone_violation(p, mu, rho, sigma);
    double in_dual = rf_dual_cone_violation(d, mu, rho, sigma);
    double inner = 0.0;
    for (int k = 0; k < 6; ++k) {
        inner += p[k] * d[k];
    }
    const double e1 = in_y / fmax(nx, 1e-300);
    const double e2 = in_dual / fmax(nx * (1.0 + mu + rho + sigma), 1e-300);
    const double e3 = fabs(inner) / fmax(nx * nx, 1e-300);
    w->moreau = fmax(w->moreau, fmax(e1, fmax(e2, e3)));
    if (!(e1 <= tol && e2 <= tol && e3 <= tol)) {
        fprintf(stderr,
                "Moreau failed: x = (%a %a %a %a %a %a) mu %a rho %a sigma %a"
                " -> (%a %a %a %a %a %a): %g %g %g\n",
                x[0], x[1], x[2], x[3], x[4], x[5], mu, rho, sigma, p[0], p[1],
                p[2], p[3], p[4], p[5], e1, e2, e3);
        return 1;
    }
    /* zero coefficients force their components to exactly zero */
    if (mu == 0.0) {
        ENSURE(p[RF_U] == 0.0 && p[RF_W] == 0.0);
    }
    if (rho == 0.0) {
        ENSURE(p[RF_ROLL_U] == 0.0 && p[RF_ROLL_W] == 0.0);
    }
    if (sigma == 0.0) {
        ENSURE(p[RF_SPIN] == 0.0);
    }
    /* idempotence */
    ENSURE(rf_project_contact(p, mu, rho, sigma, pp) == RF_OK);
    for (int k = 0; k < 6; ++k) {
        d[k] = pp[k] - p[k];
    }
    double ei = norm6(d) / fmax(nx, 1e-300);
    w->idem = fmax(w->idem, ei);
    ENSURE_LE(ei, tol);
    /* projection on a cone through 0 never lengthens */
    ENSURE_LE(norm6(p), nx * (1.0 + 1e-15));
    /* out may alias x: same bits */
    memcpy(a, x, sizeof a);
    ENSURE(rf_project_contact(a, mu, rho, sigma, a) == RF_OK);
    ENSURE(memcmp(a, p, sizeof a) == 0);
    w->count++;
    return 0;
}

static double random_coef(rf_rng *r)
{
    double u = rf_rng_uniform(r);
    if (u < 0.1) {
        return 0.0;
    }
    if (u < 0.15) {
        return pow(10.0, rf_rng_range(r, -12.0, -6.0)); /* tiny */
    }
    if (u < 0.2) {
        return pow(10.0, rf_rng_range(r, 2.0, 6.0)); /* huge */
    }
    return rf_rng_range(r, 0.0, 2.0);
}

/* Random Gaussian-like vectors at magnitudes 1e-8 .. 1e8, with
   per-component magnitude spreads. */
static int test_random(void)
{
    rf_rng r = {1};
    worst w = {0, 0, 0};
    for (int n = 0; n < 600000; ++n) {
        double mu = random_coef(&r), rho = random_coef(&r),
               sigma = random_coef(&r);
        double scale = pow(10.0, rf_rng_range(&r, -8.0, 8.0));
        double x[6];
        for (int k = 0; k < 6; ++k) {
            double spread =
                n % 4 == 0 ? pow(10.0, rf_rng_range(&r, -8, 8)) : 1.0;
            x[k] = scale * spread * rf_rng_range(&r, -1.0, 1.0);
        }
        if (check_point(x, mu, rho, sigma, &w)) {
            return 1;
        }
    }
    printf("  random: %ld inputs, worst Moreau %.2e, idempotence %.2e\n",
           w.count, w.moreau, w.idem);
    return 0;
}

/* Points built on purpose: inside Y (unchanged), in the polar cone -Y*
   (mapped to 0), the apex, exactly on each face, each pair of faces and
   all three, just outside each face, negative normal with small
   tangential parts. */
static int test_adversarial(void)
{
    rf_rng r = {2};
    worst w = {0, 0, 0};
    long inside = 0, polar = 0;
    for (int n = 0; n < 500000; ++n) {
        double mu = rf_rng_range(&r, 0.0, 2.0),
               rho = rf_rng_range(&r, 0.0, 2.0),
               sigma = rf_rng_range(&r, 0.0, 2.0);
        if (n % 7 == 0) {
            mu = 0.0;
        }
        if (n % 11 == 0) {
            rho = sigma = 0.0;
        }
        double scale = pow(10.0, rf_rng_range(&r, -8.0, 8.0));
        double x[6], t[3];
        double dirs[3][2];
        for (int k = 0; k < 3; ++k) {
            double a = rf_rng_range(&r, 0.0, 6.283185307179586);
            dirs[k][0] = cos(a);
            dirs[k][1] = sin(a);
        }
        const int kind = n % 8;
        x[0] = scale * rf_rng_range(&r, 0.1, 1.0);
        /* fraction of each cone's radius used: 1 = on the face */
        for (int k = 0; k < 3; ++k) {
            t[k] = rf_rng_uniform(&r);
        }
        switch (kind) {
        case 0: break;                    /* inside */
        case 1: t[0] = 1.0; break;        /* sliding face */
        case 2: t[1] = 1.0; break;        /* rolling face */
        case 3: t[2] = 1.0; break;        /* spinning face */
        case 4: t[0] = t[1] = 1.0; break; /* two faces */
        case 5: t[1] = t[2] = 1.0; break;
        case 6: t[0] = t[1] = t[2] = 1.0; break; /* all three */
        case 7:                                  /* just outside one face */
            t[n % 3] = 1.0 + pow(10.0, rf_rng_range(&r, -14.0, 0.0));
            break;
        }
        const double c[3] = {mu, rho, sigma};
        double rad[3];
        for (int k = 0; k < 3; ++k) {
            rad[k] = t[k] * c[k] * x[0];
        }
        x[RF_U] = rad[0] * dirs[0][0];
        x[RF_W] = rad[0] * dirs[0][1];
        x[RF_ROLL_U] = rad[1] * dirs[1][0];
        x[RF_ROLL_W] = rad[1] * dirs[1][1];
        x[RF_SPIN] = rad[2] * (dirs[2][0] < 0 ? -1.0 : 1.0);
        if (kind == 0 && rf_cone_violation(x, mu, rho, sigma) == 0.0) {
            double p[6];
            ENSURE(rf_project_contact(x, mu, rho, sigma, p) == RF_OK);
            ENSURE(memcmp(p, x, sizeof p) == 0); /* inside: unchanged */
            inside++;
        }
        if (check_point(x, mu, rho, sigma, &w)) {
            return 1;
        }
        /* the same point mirrored through the polar cone: -x in -Y... the
           reflection of a point of Y* is in the polar cone, maps to 0 */
        double y[6];
        for (int k = 0; k < 6; ++k) {
            y[k] = -scale * rf_rng_range(&r, -1.0, 1.0);
        }
        double need = mu * hypot(y[1], y[2]) + rho * hypot(y[4], y[5]) +
                      sigma * fabs(y[3]);
        y[0] = -(need + scale * rf_rng_range(&r, 1e-3, 1.0));
        double p[6];
        ENSURE(rf_project_contact(y, mu, rho, sigma, p) == RF_OK);
        for (int k = 0; k < 6; ++k) {
            ENSURE(p[k] == 0.0);
        }
        polar++;
        if (check_point(y, mu, rho, sigma, &w)) {
            return 1;
        }
        /* negative normal, small tangential parts */
        double z[6];
        z[0] = -scale;
        for (int k = 1; k < 6; ++k) {
            z[k] = 1e-6 * scale * rf_rng_range(&r, -1.0, 1.0);
        }
        if (check_point(z, mu, rho, sigma, &w)) {
            return 1;
        }
    }
    /* the apex and the zero coefficient corner */
    const double zero[6] = {0, 0, 0, 0, 0, 0};
    ENSURE(check_point(zero, 0.5, 0.1, 0.1, &w) == 0);
    ENSURE(check_point(zero, 0.0, 0.0, 0.0, &w) == 0);
    const double up[6] = {1, 2, 3, 4, 5, 6};
    ENSURE(check_point(up, 0.0, 0.0, 0.0, &w) == 0);
    double p[6];
    ENSURE(rf_project_contact(up, 0.0, 0.0, 0.0, p) == RF_OK);
    ENSURE(p[0] == 1.0 && p[1] == 0.0 && p[5] == 0.0); /* a ray: (x0)+ */
    printf("  adversarial: %ld inputs (%ld exactly inside, %ld polar), worst "
           "Moreau %.2e, idempotence %.2e\n",
           w.count, inside, polar, w.moreau, w.idem);
    ENSURE(w.count >= 1000000);
    return 0;
}

/* Acary Prop. 5.2 (sigma = 0), hand-checked cases.
   mu = 0.5, rho = 0.2, x = (1, 3, 4, 0, 0, 0): |x_t| = 5 > mu x0, rolling
   part 0: case 4, p_n = (1 + 0.5 * 5) / (1 + 0.25) = 2.8, p_t = 1.4 (3, 4)
   / 5 = (0.84, 1.12).
   x = (1, 3, 4, 0, 0.6, 0.8): rolling |m| = 1 > rho p_n? case 3: p_n =
   (1 + 2.5 + 0.2) / (1 + 0.25 + 0.04) = 3.7 / 1.29; check rho p_n = 0.5736
   < 1, mu p_n = 1.434 < 5: consistent.
   x = (1, 0.1, 0, 0, 3, 4): case 5: p_n = (1 + 0.2 * 5)/(1 + 0.04) = 2/1.04;
   mu p_n = 0.96 > 0.1 keeps the sliding part. */
static int test_closed_forms(void)
{
    double p[6];
    const double x1[6] = {1, 3, 4, 0, 0, 0};
    ENSURE(rf_project_contact(x1, 0.5, 0.2, 0.0, p) == RF_OK);
    ENSURE_SMALL(p[0] - 2.8, 1e-15);
    ENSURE_SMALL(p[1] - 0.84, 1e-15);
    ENSURE_SMALL(p[2] - 1.12, 1e-15);
    ENSURE(p[3] == 0.0 && p[4] == 0.0 && p[5] == 0.0);

    const double x2[6] = {1, 3, 4, 0, 0.6, 0.8};
    ENSURE(rf_project_contact(x2, 0.5, 0.2, 0.0, p) == RF_OK);
    const double pn = 3.7 / 1.29;
    ENSURE_SMALL(p[0] - pn, 1e-15);
    ENSURE_SMALL(p[1] - 0.5 * pn * 0.6, 1e-15);
    ENSURE_SMALL(p[2] - 0.5 * pn * 0.8, 1e-15);
    ENSURE_SMALL(p[4] - 0.2 * pn * 0.6, 1e-15);
    ENSURE_SMALL(p[5] - 0.2 * pn * 0.8, 1e-15);

    const double x3[6] = {1, 0.1, 0, 0, 3, 4};
    ENSURE(rf_project_contact(x3, 0.5, 0.2, 0.0, p) == RF_OK);
    const double qn = 2.0 / 1.04;
    ENSURE_SMALL(p[0] - qn, 1e-15);
    ENSURE(p[1] == 0.1 && p[2] == 0.0); /* sliding part inside: kept */
    ENSURE_SMALL(p[4] - 0.2 * qn * 0.6, 1e-15);
    ENSURE_SMALL(p[5] - 0.2 * qn * 0.8, 1e-15);

    /* 2D Coulomb only (rho = sigma = 0), the polar case: x = (-1, 0.1, 0,
       ...) with mu = 0.5: mu |x_t| = 0.05 < 1 = -x0, so p = 0. */
    const double x4[6] = {-1, 0.1, 0, 0.3, 0.2, 0.1};
    ENSURE(rf_project_contact(x4, 0.5, 0.0, 0.0, p) == RF_OK);
    for (int k = 0; k < 6; ++k) {
        ENSURE(p[k] == 0.0);
    }
    /* spin only: x = (0, 0, 0, 2, 0, 0), sigma = 1: p_n = (0 + 2)/2 = 1,
       p_spin = 1 */
    const double x5[6] = {0, 0, 0, 2, 0, 0};
    ENSURE(rf_project_contact(x5, 0.5, 0.5, 1.0, p) == RF_OK);
    ENSURE_SMALL(p[0] - 1.0, 1e-15);
    ENSURE_SMALL(p[3] - 1.0, 1e-15);
    return 0;
}

/* psi(y0) = (y0 - x0)^2 + sum_k max(0, |l_k| - c_k y0)^2 is convex and
   its derivative psi'/2 = (y0 - x0) - sum_k c_k max(0, |l_k| - c_k y0) is
   monotone: bisection on it over y0 >= 0 is an independent route to p_n
   (App. C), accurate to the last bits. */
static double dpsi(const double x[6], const double c[3], double y)
{
    const double l[3] = {hypot(x[1], x[2]), hypot(x[4], x[5]), fabs(x[3])};
    double s = y - x[0];
    for (int k = 0; k < 3; ++k) {
        s -= c[k] * fmax(0.0, l[k] - c[k] * y);
    }
    return s;
}

static int test_brute_force_normal(void)
{
    rf_rng r = {3};
    for (int n = 0; n < 20000; ++n) {
        double x[6], p[6];
        const double c[3] = {rf_rng_range(&r, 0.0, 2.0),
                             rf_rng_range(&r, 0.0, 2.0),
                             rf_rng_range(&r, 0.0, 2.0)};
        for (int k = 0; k < 6; ++k) {
            x[k] = rf_rng_range(&r, -1.0, 1.0);
        }
        ENSURE(rf_project_contact(x, c[0], c[1], c[2], p) == RF_OK);
        double lo = 0.0, hi = 16.0;
        if (dpsi(x, c, 0.0) >= 0.0) {
            hi = 0.0; /* minimum at the boundary y0 = 0 */
        }
        for (int it = 0; it < 200 && hi > lo; ++it) {
            double mid = 0.5 * (lo + hi);
            if (dpsi(x, c, mid) < 0.0) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        ENSURE_SMALL(p[0] - 0.5 * (lo + hi), 1e-13 * (1.0 + p[0]));
    }
    return 0;
}

/* Optimality: no sampled feasible point is closer to x than p. */
static int test_sampled_optimality(void)
{
    rf_rng r = {4};
    for (int n = 0; n < 3000; ++n) {
        double x[6], p[6];
        double mu = rf_rng_range(&r, 0.0, 2.0),
               rho = rf_rng_range(&r, 0.0, 2.0),
               sigma = rf_rng_range(&r, 0.0, 2.0);
        for (int k = 0; k < 6; ++k) {
            x[k] = rf_rng_range(&r, -1.0, 1.0);
        }
        ENSURE(rf_project_contact(x, mu, rho, sigma, p) == RF_OK);
        double dp2 = 0.0;
        for (int k = 0; k < 6; ++k) {
            dp2 += (x[k] - p[k]) * (x[k] - p[k]);
        }
        for (int m = 0; m < 50; ++m) {
            double y[6];
            y[0] = rf_rng_range(&r, 0.0, 2.0);
            double a = rf_rng_range(&r, 0, 6.283185307179586);
            double b = rf_rng_range(&r, 0, 6.283185307179586);
            double f[3] = {rf_rng_uniform(&r), rf_rng_uniform(&r),
                           rf_rng_range(&r, -1.0, 1.0)};
            if (m % 2) { /* on the faces */
                f[0] = 1.0;
                f[1] = 1.0;
                f[2] = f[2] < 0 ? -1.0 : 1.0;
            }
            y[1] = f[0] * mu * y[0] * cos(a);
            y[2] = f[0] * mu * y[0] * sin(a);
            y[4] = f[1] * rho * y[0] * cos(b);
            y[5] = f[1] * rho * y[0] * sin(b);
            y[3] = f[2] * sigma * y[0];
            double dy2 = 0.0;
            for (int k = 0; k < 6; ++k) {
                dy2 += (x[k] - y[k]) * (x[k] - y[k]);
            }
            ENSURE_LE(dp2, dy2 * (1.0 + 1e-12) + 1e-300);
        }
    }
    return 0;
}

static int test_errors(void)
{
    const double x[6] = {1, 2, 3, 4, 5, 6};
    double out[6], sentinel[6];
    for (int k = 0; k < 6; ++k) {
        out[k] = sentinel[k] = -7.0 - k;
    }
    ENSURE(rf_project_contact(NULL, 0.5, 0.1, 0.1, out) == RF_ERR_NULL);
    ENSURE(rf_project_contact(x, 0.5, 0.1, 0.1, NULL) == RF_ERR_NULL);
    ENSURE(rf_project_contact(x, -0.5, 0.1, 0.1, out) == RF_ERR_INVALID);
    ENSURE(rf_project_contact(x, 0.5, -1e-300, 0.1, out) == RF_ERR_INVALID);
    ENSURE(rf_project_contact(x, 0.5, 0.1, NAN, out) == RF_ERR_NONFINITE);
    ENSURE(rf_project_contact(x, INFINITY, 0.1, 0.1, out) == RF_ERR_NONFINITE);
    double xn[6] = {1, 2, NAN, 4, 5, 6};
    ENSURE(rf_project_contact(xn, 0.5, 0.1, 0.1, out) == RF_ERR_NONFINITE);
    xn[2] = -INFINITY;
    ENSURE(rf_project_contact(xn, 0.5, 0.1, 0.1, out) == RF_ERR_NONFINITE);
    ENSURE(memcmp(out, sentinel, sizeof out) == 0);
    /* violation measures: exact values */
    const double v[6] = {1.0, 3.0, 4.0, 0.5, 0.0, 0.0};
    ENSURE_SMALL(rf_cone_violation(v, 1.0, 1.0, 1.0) - 4.0, 1e-15);
    ENSURE_SMALL(rf_dual_cone_violation(v, 0.1, 1.0, 1.0) - 0.0, 0.0);
    ENSURE_SMALL(rf_dual_cone_violation(v, 1.0, 1.0, 2.0) - 5.0, 1e-15);
    ENSURE(isnan(rf_cone_violation(NULL, 1, 1, 1)));
    ENSURE(isnan(rf_dual_cone_violation(v, -1, 1, 1)));
    ENSURE(strcmp(rf_status_string(RF_ERR_NONFINITE), "non-finite number") ==
           0);
    return 0;
}

int main(void)
{
    RUN_TEST(test_random);
    RUN_TEST(test_adversarial);
    RUN_TEST(test_closed_forms);
    RUN_TEST(test_brute_force_normal);
    RUN_TEST(test_sampled_optimality);
    RUN_TEST(test_errors);
    return TEST_SUMMARY();
}
