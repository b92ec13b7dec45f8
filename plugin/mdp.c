/*
 * The maximally dissipative single-contact impact (Preclik, Schwarz,
 * Ruede, "Maximum dissipation impact model"; seed section 3.2, Fig. 5):
 *     x* = argmin 1/2 x^T A x - x^T b
 *          over |x_to| <= mu x_n, a_n^T x - b_n >= 0 _|_ x_n >= 0,
 *          a_n^T x >= 0
 * (A SPD 3x3 in the contact frame (n, t, o), b the negated relative
 * velocity before the impulse, A x - b the one after).  The structogram:
 *   b_n < 0 (separating)                 x* = 0
 *   mu = 0                               x* = (b_n / A_nn, 0, 0)
 *   P1: x0 = A^-1 b in the cone          x* = x0 (sticking)
 *   b_n = 0: P2 (A_nn > mu |(A_nt, A_no)|, a degenerate ellipse) x* = 0,
 *            else the ray of eq. (9)
 *   otherwise the plane of maximum compression a_n^T x = b_n cuts the
 *   cone in a conic section and x* lies on its boundary, at the angle
 *   alpha minimizing f_obj: the roots of eq. (8), c0 + c1 cos(alpha +
 *   phi1) + c2 cos(2 alpha + phi2) = 0 (constants of appendix A), found
 *   as the quartic c2 e^{i phi2} y^4 + c1 e^{i phi1} y^3 + 2 c0 y^2 +
 *   c1 e^{-i phi1} y + c2 e^{-i phi2} = 0 in y = e^{i alpha}; the unit
 *   roots with f_r(alpha) > 0 (alpha in I, eq. (6)) are the candidates,
 *   the smallest f_obj wins.
 * Roots by Durand-Kerner iteration polished by Newton steps (complex
 * arithmetic; the quartic of a well-posed problem has simple roots).
 */
#include "internal.h"

#include <complex.h>
#include <string.h>

/* Roots of sum_k c[k] y^k, degree n <= 4 (c[n] != 0), into r. */
static void poly_roots(int n, const double complex *c, double complex *r)
{
    double complex a[5];
    for (int k = 0; k <= n; ++k) {
        a[k] = c[k] / c[n]; /* monic */
    }
    double bound = 0.0; /* Cauchy: every root within 1 + max |a_k| */
    for (int k = 0; k < n; ++k) {
        bound = fmax(bound, cabs(a[k]));
    }
    bound += 1.0;
    for (int k = 0; k < n; ++k) { /* Durand-Kerner start */
        r[k] = 0.5 * bound * cexp(I * (6.283185307179586 * k / n + 0.4));
    }
    for (int it = 0; it < 500; ++it) {
        double change = 0.0;
        for (int k = 0; k < n; ++k) {
            double complex p = 1.0, d = 1.0; /* Horner, a[n] = 1 */
            for (int j = n - 1; j >= 0; --j) {
                p = p * r[k] + a[j];
            }
            for (int j = 0; j < n; ++j) {
                if (j != k) {
                    d *= r[k] - r[j];
                }
            }
            if (cabs(d) == 0.0) {
                d = 1e-300;
            }
            const double complex step = p / d;
            r[k] -= step;
            change = fmax(change, cabs(step));
        }
        if (change <= 1e-15 * bound) {
            break;
        }
    }
    for (int k = 0; k < n; ++k) { /* Newton polish */
        for (int it = 0; it < 3; ++it) {
            double complex p = 1.0, dp = 0.0;
            for (int j = n - 1; j >= 0; --j) {
                dp = dp * r[k] + p;
                p = p * r[k] + a[j];
            }
            if (cabs(dp) > 0.0) {
                r[k] -= p / dp;
            }
        }
    }
}

typedef struct mdp_conic {
    double Ann, Ant, Ano, bn, mu;
    double Ah[3]; /* Schur complement A^: tt, to, oo */
    double bh[2]; /* b^ */
} mdp_conic;

static double f_r(const mdp_conic *c, double al)
{
    return c->Ann + c->mu * (c->Ant * cos(al) + c->Ano * sin(al));
}

/* f_obj(alpha) on the conic's boundary (gamma = rbar (cos, sin)). */
static double f_obj(const mdp_conic *c, double al, double g[2])
{
    const double r = c->mu * c->bn / f_r(c, al);
    g[0] = r * cos(al);
    g[1] = r * sin(al);
    return 0.5 * (c->Ah[0] * g[0] * g[0] + 2.0 * c->Ah[1] * g[0] * g[1] +
                  c->Ah[2] * g[1] * g[1]) -
           (g[0] * c->bh[0] + g[1] * c->bh[1]);
}

static int solve3(const double A[9], const double b[3], double x[3])
{
    const double det = A[0] * (A[4] * A[8] - A[5] * A[7]) -
                       A[1] * (A[3] * A[8] - A[5] * A[6]) +
                       A[2] * (A[3] * A[7] - A[4] * A[6]);
    if (!(fabs(det) > 0.0)) {
        return 0;
    }
    for (int k = 0; k < 3; ++k) { /* Cramer */
        double M[9];
        memcpy(M, A, sizeof M);
        for (int i = 0; i < 3; ++i) {
            M[3 * i + k] = b[i];
        }
        x[k] = (M[0] * (M[4] * M[8] - M[5] * M[7]) -
                M[1] * (M[3] * M[8] - M[5] * M[6]) +
                M[2] * (M[3] * M[7] - M[4] * M[6])) /
               det;
    }
    return 1;
}

rf_status rf_mdp_contact(const double A_in[9], const double b[3], double mu,
                         double x[3], rf_error *err)
{
    static const char fn[] = "rf_mdp_contact";
    if (A_in == NULL || b == NULL || x == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: %s is NULL", fn,
                        A_in == NULL ? "A" : (b == NULL ? "b" : "x"));
    }
    if (!rf__all_finite(A_in, 9) || !rf__all_finite(b, 3) || !isfinite(mu)) {
        return rf__fail(err, RF_ERR_NONFINITE, "%s: A, b or mu not finite", fn);
    }
    double amax = 0.0;
    for (int k = 0; k < 9; ++k) {
        amax = fmax(amax, fabs(A_in[k]));
    }
    const double stol = 1e-9 * amax;
    if (mu < 0.0 || !(A_in[0] > 0.0) || fabs(A_in[1] - A_in[3]) > stol ||
        fabs(A_in[2] - A_in[6]) > stol || fabs(A_in[5] - A_in[7]) > stol) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: mu < 0, or A not symmetric (1e-9) with A_nn > 0",
                        fn);
    }
    double A[9]; /* the symmetric part */
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            A[3 * i + j] = 0.5 * (A_in[3 * i + j] + A_in[3 * j + i]);
        }
    }
    const double Ann = A[0], Ant = A[1], Ano = A[2], bn = b[0];
    double x0[3];
    if (!solve3(A, b, x0)) {
        return rf__fail(err, RF_ERR_INVALID, "%s: A is singular", fn);
    }
    if (bn < 0.0) { /* separating */
        x[0] = x[1] = x[2] = 0.0;
    } else if (mu == 0.0) {
        x[0] = bn / Ann;
        x[1] = x[2] = 0.0;
    } else if (x0[0] >= 0.0 && hypot(x0[1], x0[2]) <= mu * x0[0]) { /* P1 */
        memcpy(x, x0, 3 * sizeof(double));
    } else {
        mdp_conic c = {Ann,
                       Ant,
                       Ano,
                       bn,
                       mu,
                       {A[4] - Ant * Ant / Ann, A[5] - Ant * Ano / Ann,
                        A[8] - Ano * Ano / Ann},
                       {b[1] - Ant * bn / Ann, b[2] - Ano * bn / Ann}};
        const double s = hypot(Ant, Ano);
        const double al0 = atan2(Ano, Ant);
        const int ellipse = Ann > mu * s; /* P2 */
        double g[2] = {0.0, 0.0};
        if (bn == 0.0) {
            if (!ellipse) { /* the degenerate parabola/hyperbola: eq. (9) */
                const double dal = acos(-Ann / (mu * s));
                const double al =
                    (Ano * x0[1] - Ant * x0[2]) >= 0.0 ? al0 - dal : al0 + dal;
                const double ct = cos(al), st = sin(al);
                const double q = c.Ah[0] * ct * ct + 2.0 * c.Ah[1] * ct * st +
                                 c.Ah[2] * st * st;
                const double r =
                    q > 0.0 ? fmax(0.0, (ct * c.bh[0] + st * c.bh[1]) / q)
                            : 0.0;
                g[0] = r * ct;
                g[1] = r * st;
            } /* else the point 0 */
        } else {
            /* eq. (8), appendix A */
            const double Att = A[4], Ato = A[5], Aoo = A[8];
            const double bt = b[1], bo = b[2];
            const double m2 = mu * mu, m4 = m2 * m2;
            const double d1 = Ant * bo - Ano * bt;
            const double c0 = 1.5 * mu * Ann * (Ano * bt - Ant * bo);
            const double c1sq =
                m4 * ((Ano * Ano * (Att * Att + Ato * Ato) -
                       2.0 * Ant * Ano * Ato * (Att + Aoo) +
                       Ant * Ant * (Ato * Ato + Aoo * Aoo)) *
                          bn * bn +
                      2.0 * d1 *
                          (Ano * Ano * Ato + Ant * Ano * (Att - Aoo) -
                           Ant * Ant * Ato) *
                          bn +
                      (Ant * Ant + Ano * Ano) * d1 * d1) +
                2.0 * m2 * Ann *
                    ((2.0 * Ant * Ano * Ato - Ano * Ano * Att -
                      Ant * Ant * Aoo) *
                         bn * bn +
                     Ann *
                         (Ano * (Att * bo - Ato * bt) -
                          Ant * (Ato * bo - Aoo * bt)) *
                         bn +
                     Ann * d1 * d1) +
                Ann * Ann *
                    ((Ant * Ant + Ano * Ano) * bn * bn -
                     2.0 * Ann * (Ant * bt + Ano * bo) * bn +
                     Ann * Ann * (bt * bt + bo * bo));
            const double c2sq =
                (0.25 * (Att * Att + Aoo * Aoo) + Ato * Ato - 0.5 * Att * Aoo) *
                    bn * bn +
                (Ano * (0.5 * (Att - Aoo) * bo - Ato * bt) -
                 Ant * (Ato * bo + 0.5 * (Att - Aoo) * bt)) *
                    bn +
                0.25 * ((Ant * Ant + Ano * Ano) * bo * bo +
                        (Ant * Ant + Ano * Ano) * bt * bt);
            const double c1 = sqrt(fmax(c1sq, 0.0));
            const double c2 = mu * Ann * sqrt(fmax(c2sq, 0.0));
            const double phi1 = atan2(m2 * ((Ano * Ato - Ant * Aoo) * bn -
                                            Ano * Ano * bt + Ant * Ano * bo) -
                                          Ann * Ann * bt + Ann * Ant * bn,
                                      m2 * ((Ant * Ato - Ano * Att) * bn +
                                            Ant * Ano * bt - Ant * Ant * bo) -
                                          Ann * Ann * bo + Ann * Ano * bn);
            const double phi2 = atan2((Att - Aoo) * bn - Ant * bt + Ano * bo,
                                      2.0 * Ato * bn - Ano * bt - Ant * bo);
            double complex co[5] = {c2 * cexp(-I * phi2), c1 * cexp(-I * phi1),
                                    2.0 * c0, c1 * cexp(I * phi1),
                                    c2 * cexp(I * phi2)};
            double complex roots[4];
            int n = 4;
            const double scale = fmax(fabs(c0), fmax(c1, c2));
            while (n > 0 && cabs(co[n]) <= 1e-14 * scale) {
                --n;
            }
            double best = INFINITY;
            if (n > 0) {
                poly_roots(n, co, roots);
            }
            for (int k = 0; k < n; ++k) {
                if (fabs(cabs(roots[k]) - 1.0) > 1e-6) {
                    continue; /* not a real angle */
                }
                const double al = carg(roots[k]);
                if (!(f_r(&c, al) > 0.0)) {
                    continue; /* outside I */
                }
                double gk[2];
                const double f = f_obj(&c, al, gk);
                if (f < best) {
                    best = f;
                    g[0] = gk[0];
                    g[1] = gk[1];
                }
            }
            if (!(best < INFINITY)) {
                return rf__fail(err, RF_ERR_INVALID,
                                "%s: no root of eq. (8) on the conic (c0 "
                                "%g, c1 %g, c2 %g)",
                                fn, c0, c1, c2);
            }
        }
        x[1] = g[0];
        x[2] = g[1];
        x[0] = (bn - Ant * g[0] - Ano * g[1]) / Ann;
    }
    rf__ok(err);
    return RF_OK;
}
