/*
 * Fuzz target: the cone projection rf_project_contact (and the unchecked
 * kernel behind it with the anisotropic rolling shape, RF_CONTACT_ROLL_T1).
 *
 * Input: a flags byte, then x (6 numbers) and mu, rho, sigma, each number
 * in fuzz_any's tagged shapes (so NaN, infinities, negative, huge and tiny
 * values all come up).  Oracle:
 *   - the status is the documented one: RF_ERR_NONFINITE for a non-finite
 *     coefficient, else RF_ERR_INVALID for a negative one, else
 *     RF_ERR_NONFINITE for a non-finite x, else RF_OK; on an error out is
 *     left untouched;
 *   - on RF_OK, when |x| < 2^1022 (so that P(x) is representable): out is
 *     finite, no longer than x (0 is in Y and the projection is
 *     non-expansive), in Y (rf_cone_violation small relative to |x|), a
 *     fixed point (projecting out again returns out, relative tolerance),
 *     and Moreau's decomposition holds: out - x in Y* and <out, out - x> =
 *     0, each within a tolerance scaled by the sizes involved (and, for
 *     results in the subnormals, by the coefficients);
 *   - aliasing (out == x) gives the same bits as separate arrays.
 * Any violation traps (__builtin_trap), which libFuzzer reports as a
 * crash and the replay test as a failure.
 */
#include "internal.h"

#include "fuzz_util.h"

#include <stdint.h>
#include <string.h>

/* Relative tolerance of the membership, fixed-point and Moreau tests:
   the projection is exact up to a few roundings per component. */
#define REL_TOL 1e-12
/* Absolute floor: results in the subnormal range carry absolute errors
   of the order of the smallest subnormal (4.9e-324), whatever the input's
   size; this is about 2000 of them. */
#define ABS_TOL 1e-320

/* Distance of u from Y* = { un >= mu|u_t| + rho|w_r| + sigma|w_n| }
   computed without overflow (hypot), and the size of the terms it
   compares, for a tolerance.  roll_t1: |w_r| = |wu| (tw is free). */
static double dual_violation(const double u[6], const rf__cone *c, double *size)
{
    const double wr =
        c->roll_t1 ? fabs(u[RF_ROLL_U]) : hypot(u[RF_ROLL_U], u[RF_ROLL_W]);
    const double need = c->mu * hypot(u[RF_U], u[RF_W]) + c->rho * wr +
                        c->sigma * fabs(u[RF_SPIN]);
    *size = need + fabs(u[RF_N]);
    return need - u[RF_N];
}

/* How far y is outside the cone c, without overflow (for roll_t1 the
   rolling part is |tu| <= rho gn with tw = 0, checked apart). */
static double primal_violation(const double y[6], const rf__cone *c)
{
    double v = -y[RF_N];
    v = fmax(v, hypot(y[RF_U], y[RF_W]) - c->mu * y[RF_N]);
    v = fmax(v, hypot(y[RF_ROLL_U], y[RF_ROLL_W]) - c->rho * y[RF_N]);
    v = fmax(v, fabs(y[RF_SPIN]) - c->sigma * y[RF_N]);
    return v;
}

/* The oracle for one projection out = P(x) onto the valid cone c. */
static void check_projection(const double x[6], const double out[6],
                             const rf__cone *c)
{
    /* x as the cone sees it (roll_t1: tw = 0 is projected away first, and
       Moreau's decomposition holds for that point) */
    double xe[6];
    memcpy(xe, x, sizeof xe);
    if (c->roll_t1) {
        xe[RF_ROLL_W] = 0.0;
    }
    const double nx = fuzz_norm(xe, 6);
    if (!(nx < 0x1p1022)) {
        /* |x| near or past the largest double: P(x), no longer than x,
           may still not be representable (x = (DBL_MAX, DBL_MAX, ...)
           projects to a normal impulse of 1.2 DBL_MAX); nothing to check
           but the absence of a crash */
        return;
    }
    /* Rounding the exact P(x) to doubles moves each component by up to
       half an ulp, at least half the smallest subnormal: the membership
       and Moreau tests then move by that times (1 + the coefficients)
       (with mu = 1e200 and a normal impulse that underflows to 0, the
       sliding part of a point next to the apex is 2e-308 outside). */
    const double coef = 1.0 + c->mu + c->rho + c->sigma;
    const double floor = ABS_TOL * coef;
    FUZZ_CHECK(fuzz_all_finite(out, 6));
    const double no = fuzz_norm(out, 6);
    FUZZ_CHECK(no <= nx * (1.0 + REL_TOL) + ABS_TOL);
    FUZZ_CHECK(primal_violation(out, c) <= REL_TOL * nx + floor);
    if (c->roll_t1) {
        FUZZ_CHECK(out[RF_ROLL_W] == 0.0);
    }

    /* a fixed point */
    double again[6];
    rf__project6(out, c, again);
    double diff[6];
    for (int k = 0; k < 6; ++k) {
        diff[k] = again[k] - out[k];
    }
    FUZZ_CHECK(fuzz_norm(diff, 6) <= REL_TOL * nx + floor);

    /* Moreau: d = out - x in Y*, <out, d> = 0.  An error e in out moves
       the dual test by up to (1 + mu + rho + sigma) |e|, so the tolerance
       carries the coefficients. */
    double d[6];
    for (int k = 0; k < 6; ++k) {
        d[k] = out[k] - xe[k];
    }
    double size;
    const double dv = dual_violation(d, c, &size);
    FUZZ_CHECK(dv <= 1e-9 * (size + (nx > 0.0 ? coef * nx : 0.0)) + floor);
    if (nx > 0.0) { /* in units of |x|, so that nothing overflows */
        double dot = 0.0;
        for (int k = 0; k < 6; ++k) {
            dot += (out[k] / nx) * (d[k] / nx);
        }
        FUZZ_CHECK(fabs(dot) <= 1e-10 + floor / nx);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_bytes b = {data, size};
    const uint8_t flags = fuzz_u8(&b);
    double x[6];
    for (int k = 0; k < 6; ++k) {
        x[k] = fuzz_any(&b);
    }
    const double mu = fuzz_any(&b), rho = fuzz_any(&b), sigma = fuzz_any(&b);

    /* the documented status, in the documented order */
    rf_status want = RF_OK;
    if (!isfinite(mu) || !isfinite(rho) || !isfinite(sigma)) {
        want = RF_ERR_NONFINITE;
    } else if (mu < 0.0 || rho < 0.0 || sigma < 0.0) {
        want = RF_ERR_INVALID;
    } else if (!fuzz_all_finite(x, 6)) {
        want = RF_ERR_NONFINITE;
    }

    double out[6];
    for (int k = 0; k < 6; ++k) {
        out[k] = -12345.0; /* a sentinel: errors must leave out alone */
    }
    const rf_status st = rf_project_contact(x, mu, rho, sigma, out);
    FUZZ_CHECK(st == want);
    FUZZ_CHECK(rf_project_contact(NULL, mu, rho, sigma, out) == RF_ERR_NULL);
    FUZZ_CHECK(rf_project_contact(x, mu, rho, sigma, NULL) == RF_ERR_NULL);
    if (st != RF_OK) {
        for (int k = 0; k < 6; ++k) {
            FUZZ_CHECK(out[k] == -12345.0);
        }
        /* the membership measures answer NaN for bad coefficients */
        const int bad_coef = !isfinite(mu) || !isfinite(rho) ||
                             !isfinite(sigma) || mu < 0.0 || rho < 0.0 ||
                             sigma < 0.0;
        if (bad_coef) {
            FUZZ_CHECK(isnan(rf_cone_violation(x, mu, rho, sigma)));
            FUZZ_CHECK(isnan(rf_dual_cone_violation(x, mu, rho, sigma)));
        }
        return 0;
    }

    rf__cone cone = {mu, rho, sigma, 0, INFINITY};
    check_projection(x, out, &cone);
    /* the public measure agrees that out is in Y */
    const double nx = fuzz_norm(x, 6);
    if (nx < 0x1p1022) {
        FUZZ_CHECK(rf_cone_violation(out, mu, rho, sigma) <=
                   REL_TOL * nx + ABS_TOL * (1.0 + mu + rho + sigma));
    }

    /* in place: the same bits */
    double inplace[6];
    memcpy(inplace, x, sizeof inplace);
    FUZZ_CHECK(rf_project_contact(inplace, mu, rho, sigma, inplace) == RF_OK);
    FUZZ_CHECK(memcmp(inplace, out, sizeof out) == 0);

    /* the anisotropic rolling cone (RF_CONTACT_ROLL_T1) through the
       kernel, when the flags ask for it */
    if (flags & 1) {
        cone.roll_t1 = 1;
        double o1[6];
        rf__project6(x, &cone, o1);
        check_projection(x, o1, &cone);
    }
    return 0;
}
