/*
 * Problems: creation, validation and storage (structure of arrays), and
 * the status/error plumbing every public function uses.
 *
 * Body-form contacts store their Jacobian rows directly (DESIGN §1): the
 * frame (n, t1, t2) and the lever-arm cross products r x n, r x t1, r x t2
 * for each body, so the hot loops never recompute a cross product.
 */
#include "internal.h"

#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Status and errors                                                   */
/* ------------------------------------------------------------------ */

const char *rf_status_string(rf_status status)
{
    switch (status) {
    case RF_OK: return "ok";
    case RF_ERR_NULL: return "null pointer";
    case RF_ERR_INVALID: return "invalid argument";
    case RF_ERR_RANGE: return "index out of range";
    case RF_ERR_NONFINITE: return "non-finite number";
    case RF_ERR_NOMEM: return "out of memory";
    case RF_ERR_IO: return "input/output error";
    case RF_ERR_FORMAT: return "malformed problem file";
    case RF_ERR_STATE: return "wrong problem state";
    case RF_ERR_LCP: return "no LCP solution found";
    }
    return "unknown status";
}

const char *rf_version(void)
{
    return "0.1.0";
}

void rf__shown_path(const char *path, char out[RF__SHOWN_PATH])
{
    const size_t len = strlen(path);
    if (len < RF__SHOWN_PATH - 4) {
        memcpy(out, path, len + 1);
        return;
    }
    memcpy(out, "...", 3);
    memcpy(out + 3, path + len - (RF__SHOWN_PATH - 4), RF__SHOWN_PATH - 4 + 1);
}

rf_status rf__fail(rf_error *err, rf_status status, const char *fmt, ...)
{
    if (err != NULL) {
        va_list ap;
        va_start(ap, fmt);
        err->status = status;
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return status;
}

void rf__ok(rf_error *err)
{
    if (err != NULL) {
        err->status = RF_OK;
        err->message[0] = '\0';
    }
}

/* ------------------------------------------------------------------ */
/* Lifetime                                                            */
/* ------------------------------------------------------------------ */

rf_status rf_problem_create(rf_problem **out, rf_error *err)
{
    if (out == NULL) {
        return rf__fail(err, RF_ERR_NULL, "rf_problem_create: out is NULL");
    }
    rf_problem *p = calloc(1, sizeof *p);
    if (p == NULL) {
        return rf__fail(err, RF_ERR_NOMEM, "rf_problem_create: out of memory");
    }
    *out = p;
    rf__ok(err);
    return RF_OK;
}

static void free_arrays(rf_problem *p)
{
    for (int k = 0; k < RF__PG_COUNT; ++k) {
        free(p->group[k]); /* the grouped arrays (rf__grow_all) */
    }
    free(p->con_cfm);
    free(p->con_axis);
    free(p->q);
    rf__csr_free(&p->W);
}

void rf_problem_destroy(rf_problem *p)
{
    if (p == NULL) {
        return;
    }
    free_arrays(p);
    rf__work_free(&p->work);
    free(p);
}

/* Arrays that grow together with the contact / body capacity. */
static rf_status reserve_contacts(rf_problem *p, int ncon, rf_error *err)
{
    const rf_grow_item items[] = {
        {(void **)&p->con_body, 2 * sizeof(int)},
        {(void **)&p->con_frame, 9 * sizeof(double)},
        {(void **)&p->con_arm, 6 * sizeof(double)},
        {(void **)&p->con_bias, 6 * sizeof(double)},
        {(void **)&p->con_mu, sizeof(double)},
        {(void **)&p->con_rho, sizeof(double)},
        {(void **)&p->con_sigma, sizeof(double)},
        {(void **)&p->con_flags, sizeof(int)},
        {(void **)&p->con_cohesion, sizeof(double)},
        {(void **)&p->con_nmax, sizeof(double)},
        {(void **)&p->con_set, 1},
    };
    /* never NULL arrays, even for 0 contacts */
    if (!rf__grow_all(&p->group[RF__PG_CON], items,
                      (int)(sizeof items / sizeof items[0]), &p->cap_con,
                      ncon > 0 ? ncon : 1)) {
        return rf__fail(err, RF_ERR_NOMEM, "out of memory for %d contacts",
                        ncon);
    }
    return RF_OK;
}

/* The compliance array for p->ncon contacts (zero-filled when new). */
static rf_status reserve_cfm(rf_problem *p, rf_error *err)
{
    if (p->con_cfm != NULL && p->cap_cfm >= p->ncon) {
        return RF_OK;
    }
    const int old = p->con_cfm != NULL ? p->cap_cfm : 0;
    if (!rf__grow((void **)&p->con_cfm, &p->cap_cfm, p->ncon > 0 ? p->ncon : 1,
                  6 * sizeof(double))) {
        return rf__fail(err, RF_ERR_NOMEM,
                        "out of memory for the compliance of %d contacts",
                        p->ncon);
    }
    memset(p->con_cfm + 6 * (size_t)old, 0,
           (size_t)6 * (p->cap_cfm - old) * sizeof(double));
    return RF_OK;
}

static rf_status reserve_rows(rf_problem *p, int nrow, rf_error *err)
{
    const rf_grow_item items[] = {
        {(void **)&p->row_body, 2 * sizeof(int)},
        {(void **)&p->row_jac, 12 * sizeof(double)},
        {(void **)&p->row_bias, sizeof(double)},
        {(void **)&p->row_lo, sizeof(double)},
        {(void **)&p->row_hi, sizeof(double)},
        {(void **)&p->row_cfm, sizeof(double)},
        {(void **)&p->row_coef, sizeof(double)},
        {(void **)&p->row_bound, sizeof(int)},
        {(void **)&p->row_set, 1},
    };
    if (!rf__grow_all(&p->group[RF__PG_ROW], items,
                      (int)(sizeof items / sizeof items[0]), &p->cap_row,
                      nrow > 0 ? nrow : 1)) {
        return rf__fail(err, RF_ERR_NOMEM, "out of memory for %d rows", nrow);
    }
    return RF_OK;
}

static rf_status reserve_bodies(rf_problem *p, int nbody, rf_error *err)
{
    const rf_grow_item items[] = {
        {(void **)&p->body_flags, sizeof(int)},
        {(void **)&p->body_inv_mass, 3 * sizeof(double)},
        {(void **)&p->body_inv_inertia, 9 * sizeof(double)},
        {(void **)&p->body_vel, 6 * sizeof(double)},
        {(void **)&p->body_set, 1},
    };
    if (!rf__grow_all(&p->group[RF__PG_BODY], items,
                      (int)(sizeof items / sizeof items[0]), &p->cap_body,
                      nbody > 0 ? nbody : 1)) {
        return rf__fail(err, RF_ERR_NOMEM, "out of memory for %d bodies",
                        nbody);
    }
    return RF_OK;
}

/* ------------------------------------------------------------------ */
/* Body form                                                           */
/* ------------------------------------------------------------------ */

rf_status rf_problem_begin_bodies(rf_problem *p, int nbody, int ncon,
                                  rf_error *err)
{
    if (p == NULL) {
        return rf__fail(err, RF_ERR_NULL, "rf_problem_begin_bodies: p is NULL");
    }
    ++p->revision; /* rf_problem_solved_velocity */
    if (nbody < 0 || ncon < 0) {
        return rf__fail(err, RF_ERR_INVALID,
                        "rf_problem_begin_bodies: negative count (nbody %d, "
                        "ncon %d)",
                        nbody, ncon);
    }
    if (ncon > (1 << 27) || nbody > (1 << 27)) {
        return rf__fail(err, RF_ERR_INVALID,
                        "rf_problem_begin_bodies: too many items (nbody %d, "
                        "ncon %d; limit 2^27)",
                        nbody, ncon);
    }
    rf_status st = reserve_bodies(p, nbody, err);
    if (st == RF_OK) {
        st = reserve_contacts(p, ncon, err);
    }
    if (st != RF_OK) {
        return st;
    }
    p->kind = RF_KIND_BODY;
    p->axis_on = 0; /* rf_problem_set_sliding_scales again, if any */
    p->w_asymmetry = 0.0;
    p->nbody = nbody;
    p->ncon = ncon;
    p->nrow = 0;
    if (p->con_cfm != NULL) { /* contacts set later write their own */
        st = reserve_cfm(p, err);
        if (st != RF_OK) {
            return st;
        }
        memset(p->con_cfm, 0, (size_t)6 * ncon * sizeof(double));
    }
    /* Unset bodies are fixed and at rest; unset contacts are flagged. */
    for (int i = 0; i < nbody; ++i) {
        p->body_flags[i] = RF_BODY_FIXED;
        p->body_inv_mass[3 * i] = p->body_inv_mass[3 * i + 1] =
            p->body_inv_mass[3 * i + 2] = 0.0;
        memset(p->body_inv_inertia + 9 * i, 0, 9 * sizeof(double));
        memset(p->body_vel + 6 * i, 0, 6 * sizeof(double));
    }
    memset(p->body_set, 0, (size_t)nbody);
    memset(p->con_set, 0, (size_t)ncon);
    rf__ok(err);
    return RF_OK;
}

static rf_status check_body_form(const rf_problem *p, const char *fn,
                                 rf_error *err)
{
    if (p->kind != RF_KIND_BODY) {
        return rf__fail(err, RF_ERR_STATE,
                        "%s: the problem is not in body form (call "
                        "rf_problem_begin_bodies first)",
                        fn);
    }
    return RF_OK;
}

rf_status rf_problem_set_body(rf_problem *p, int i, const rf_body_desc *b,
                              rf_error *err)
{
    static const char fn[] = "rf_problem_set_body";
    if (p == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: p is NULL", fn);
    }
    ++p->revision; /* rf_problem_solved_velocity, even for a refused call */
    if (b == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: body is NULL", fn);
    }
    rf_status st = check_body_form(p, fn, err);
    if (st != RF_OK) {
        return st;
    }
    if (i < 0 || i >= p->nbody) {
        return rf__fail(err, RF_ERR_RANGE, "%s: body %d out of range [0, %d)",
                        fn, i, p->nbody);
    }
    if (b->flags != RF_BODY_DYNAMIC && b->flags != RF_BODY_FIXED &&
        b->flags != (RF_BODY_DYNAMIC | RF_BODY_AXIS_MASS)) {
        return rf__fail(err, RF_ERR_INVALID, "%s: body %d: unknown flags %d",
                        fn, i, b->flags);
    }
    if (!rf__all_finite(b->v, 3) || !rf__all_finite(b->w, 3)) {
        return rf__fail(err, RF_ERR_NONFINITE,
                        "%s: body %d: non-finite velocity", fn, i);
    }
    int dynamic = b->flags != RF_BODY_FIXED;
    const int axis = (b->flags & RF_BODY_AXIS_MASS) != 0;
    double im[3] = {b->inv_mass, b->inv_mass, b->inv_mass};
    if (axis) {
        memcpy(im, b->inv_mass_axis, sizeof im);
    }
    if (dynamic) {
        if (!rf__all_finite(im, 3) || !rf__all_finite(b->inv_inertia, 9)) {
            return rf__fail(err, RF_ERR_NONFINITE,
                            "%s: body %d: non-finite inverse mass or inertia",
                            fn, i);
        }
        for (int c = 0; c < 3; ++c) {
            if (im[c] < 0.0) {
                return rf__fail(err, RF_ERR_INVALID,
                                "%s: body %d: negative inverse mass %g%s", fn,
                                i, im[c], axis ? " (inv_mass_axis)" : "");
            }
        }
        const double *J = b->inv_inertia;
        double scale = fabs(J[0]) + fabs(J[4]) + fabs(J[8]);
        for (int r = 0; r < 3; ++r) {
            if (J[4 * r] < 0.0) {
                return rf__fail(err, RF_ERR_INVALID,
                                "%s: body %d: inverse inertia has a negative "
                                "diagonal entry %g",
                                fn, i, J[4 * r]);
            }
            for (int c = r + 1; c < 3; ++c) {
                if (fabs(J[3 * r + c] - J[3 * c + r]) > 1e-9 * scale) {
                    return rf__fail(err, RF_ERR_INVALID,
                                    "%s: body %d: inverse inertia is not "
                                    "symmetric",
                                    fn, i);
                }
            }
        }
    }
    p->body_flags[i] = dynamic ? RF_BODY_DYNAMIC : RF_BODY_FIXED;
    for (int c = 0; c < 3; ++c) {
        p->body_inv_mass[3 * i + c] = dynamic ? im[c] : 0.0;
    }
    for (int k = 0; k < 9; ++k) {
        p->body_inv_inertia[9 * i + k] = dynamic ? b->inv_inertia[k] : 0.0;
    }
    memcpy(p->body_vel + 6 * i, b->v, 3 * sizeof(double));
    memcpy(p->body_vel + 6 * i + 3, b->w, 3 * sizeof(double));
    p->body_set[i] = 1;
    rf__ok(err);
    return RF_OK;
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static int frame_orthonormal(const double *n, const double *t1,
                             const double *t2)
{
    const double *e[3] = {n, t1, t2};
    for (int a = 0; a < 3; ++a) {
        for (int b = a; b < 3; ++b) {
            double want = a == b ? 1.0 : 0.0;
            if (!(fabs(dot3(e[a], e[b]) - want) <= RF_FRAME_TOL)) {
                return 0;
            }
        }
    }
    return 1;
}

static int body_is_fixed(const rf_problem *p, int b)
{
    return b == RF_WORLD || p->body_flags[b] == RF_BODY_FIXED;
}

/* b names a body of p, or the world. */
static int body_index_ok(const rf_problem *p, int b)
{
    return b == RF_WORLD || (b >= 0 && b < p->nbody);
}

/* Item i's (what: "contact" or "row") two body indices in range; the
   message ends with why ("" when they were just given). */
static rf_status check_bodies(const rf_problem *p, const char *fn,
                              const char *what, int i, const int bodies[2],
                              const char *why, rf_error *err)
{
    for (int s = 0; s < 2; ++s) {
        if (!body_index_ok(p, bodies[s])) {
            return rf__fail(err, RF_ERR_RANGE,
                            "%s: %s %d: body_%c = %d out of range [0, %d) "
                            "(or RF_WORLD)%s",
                            fn, what, i, "ab"[s], bodies[s], p -> nbody, why);
        }
    }
    return RF_OK;
}

/* Two doubles side by side (GCC's vector extension: SSE2 on x86-64,
   plain code elsewhere), loaded from a byte address without alignment. */
typedef double rf__pair __attribute__((vector_size(16)));
typedef long long rf__pair_mask __attribute__((vector_size(16)));

static RF__ALWAYS_INLINE rf__pair load_pair(const unsigned char *x)
{
    rf__pair v;
    memcpy(&v, x, sizeof v);
    return v;
}

/* The description's doubles lie in two runs, read as pairs below: n, t1,
   t2, r_a, r_b, mu, rho, sigma, bias (24) and cohesion, compliance,
   normal_max (8, every one of them >= 0). */
#define RUN0 offsetof(rf_contact_desc, n)
#define RUN1 offsetof(rf_contact_desc, cohesion)
_Static_assert(offsetof(rf_contact_desc, bias) + 6 * sizeof(double) ==
                   RUN0 + 24 * sizeof(double),
               "rf_contact_desc: n .. bias are 24 doubles in a row");
_Static_assert(offsetof(rf_contact_desc, mu) == RUN0 + 15 * sizeof(double),
               "rf_contact_desc: mu, rho follow r_b");
_Static_assert(offsetof(rf_contact_desc, normal_max) ==
                   RUN1 + 7 * sizeof(double),
               "rf_contact_desc: cohesion .. normal_max are 8 doubles in a "
               "row");

/* The common case of check_contact in one branch-free pass: every value
   finite (x - x is 0 for a finite x, NaN for an infinite or NaN one, and a
   NaN term makes a sum NaN) and every coefficient, cohesion, compliance
   and cap >= 0 (a NaN passes that test and fails the first).  The 32
   doubles go by pairs into four partial sums: one running sum was a chain
   of 38 dependent additions (29 ns a contact); four scalar sums took 23
   ns, most of put_contact's share of the full pyramid's step.  Only a
   contact that fails goes through the checks one by one, which name what
   was wrong. */
static int contact_values_plain(const rf_contact_desc *c)
{
    const unsigned char *r0 = (const unsigned char *)c + RUN0;
    const unsigned char *r1 = (const unsigned char *)c + RUN1;
    const size_t pair = 2 * sizeof(double);
    rf__pair s[4] = {{0.0, 0.0}, {0.0, 0.0}, {0.0, 0.0}, {0.0, 0.0}};
    for (int k = 0; k < 12; ++k) {
        const rf__pair x = load_pair(r0 + k * pair);
        s[k & 3] += x - x;
    }
    const rf__pair zero = {0.0, 0.0};
    rf__pair_mask neg = {0, 0};
    for (int k = 0; k < 4; ++k) {
        const rf__pair x = load_pair(r1 + k * pair);
        s[k] += x - x;
        neg |= x < zero;
    }
    neg |= load_pair(r0 + 15 * sizeof(double)) < zero; /* mu, rho */
    const rf__pair t = (s[0] + s[1]) + (s[2] + s[3]);
    return t[0] + t[1] == 0.0 && (neg[0] | neg[1]) == 0 && !(c->sigma < 0.0);
}

#undef RUN0
#undef RUN1

static rf_status check_contact(const rf_problem *p, int i,
                               const rf_contact_desc *c, const char *fn,
                               rf_error *err)
{
    if (i < 0 || i >= p->ncon) {
        return rf__fail(err, RF_ERR_RANGE,
                        "%s: contact %d out of range [0, %d)", fn, i, p->ncon);
    }
    const int bodies[2] = {c->body_a, c->body_b};
    rf_status st = check_bodies(p, fn, "contact", i, bodies, "", err);
    if (st != RF_OK) {
        return st;
    }
    if (c->body_a == c->body_b) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: contact %d: body_a == body_b == %d", fn, i,
                        c->body_a);
    }
    if (contact_values_plain(c) && (c->flags & ~RF_CONTACT_ROLL_T1) == 0 &&
        frame_orthonormal(c->n, c->t1, c->t2)) {
        return RF_OK;
    }
    double coef[3] = {c->mu, c->rho, c->sigma};
    if (!rf__all_finite(c->n, 3) || !rf__all_finite(c->t1, 3) ||
        !rf__all_finite(c->t2, 3) || !rf__all_finite(c->r_a, 3) ||
        !rf__all_finite(c->r_b, 3) || !rf__all_finite(c->bias, 6) ||
        !rf__all_finite(coef, 3) || !isfinite(c->cohesion)) {
        return rf__fail(err, RF_ERR_NONFINITE,
                        "%s: contact %d: non-finite frame, lever arm, "
                        "coefficient, cohesion or bias",
                        fn, i);
    }
    if (!isfinite(c->normal_max) || c->normal_max < 0.0) {
        return rf__fail(
            err, isfinite(c->normal_max) ? RF_ERR_INVALID : RF_ERR_NONFINITE,
            "%s: contact %d: normal_max = %g is not finite and "
            ">= 0 (0 = no cap)",
            fn, i, c->normal_max);
    }
    if (c->cohesion < 0.0) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: contact %d: negative cohesion = %g", fn, i,
                        c->cohesion);
    }
    for (int k = 0; k < 6; ++k) {
        if (!isfinite(c->compliance[k])) {
            return rf__fail(err, RF_ERR_NONFINITE,
                            "%s: contact %d: compliance[%d] is not finite", fn,
                            i, k);
        }
        if (c->compliance[k] < 0.0) {
            return rf__fail(err, RF_ERR_INVALID,
                            "%s: contact %d: negative compliance[%d] = %g", fn,
                            i, k, c->compliance[k]);
        }
    }
    static const char *names[3] = {"mu", "rho", "sigma"};
    for (int k = 0; k < 3; ++k) {
        if (coef[k] < 0.0) {
            return rf__fail(err, RF_ERR_INVALID,
                            "%s: contact %d: negative %s = %g", fn, i, names[k],
                            coef[k]);
        }
    }
    if ((c->flags & ~RF_CONTACT_ROLL_T1) != 0) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: contact %d: unknown flags 0x%x", fn, i,
                        (unsigned)c->flags);
    }
    if (!frame_orthonormal(c->n, c->t1, c->t2)) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: contact %d: frame (n, t1, t2) is not orthonormal "
                        "within %g",
                        fn, i, RF_FRAME_TOL);
    }
    return RF_OK;
}

/* The problem's contact arrays as columns (rf_problem_contact_columns). */
static void columns_of(rf_problem *p, rf_contact_columns *col)
{
    col->body = p->con_body;
    col->frame = p->con_frame;
    col->arm = p->con_arm;
    col->bias = p->con_bias;
    col->mu = p->con_mu;
    col->rho = p->con_rho;
    col->sigma = p->con_sigma;
    col->flags = p->con_flags;
    col->cohesion = p->con_cohesion;
    col->normal_max = p->con_nmax;
}

/* Contact i from c, checked (check_contact); the problem's revision and
   its compliance array (when c has a compliance) are the caller's. */
static rf_status put_contact(rf_problem *p, int i, const rf_contact_desc *c,
                             const char *fn, rf_error *err)
{
    rf_status st = check_contact(p, i, c, fn, err);
    if (st != RF_OK) {
        return st;
    }
    if (p->con_cfm != NULL) { /* set_contacts reserved it if needed */
        memcpy(p->con_cfm + 6 * i, c->compliance, 6 * sizeof(double));
    }
    rf_contact_columns col;
    columns_of(p, &col);
    rf_contact_columns_put(&col, i, c);
    p->con_set[i] = 1;
    return RF_OK;
}

/* The problem changed since its last solve (rf_problem_solved_velocity).
   Several threads may set contacts at once (rf_problem_set_contacts):
   the revision is loaded and stored atomically, not incremented in one
   step.  Concurrent callers may each store the same old + 1, which is all
   the test needs (a revision other than the solve's); on x86 the two are
   plain moves (the line still travels between the threads' caches, once
   per call), where a locked increment would cost a fence per call. */
static void touch(rf_problem *p)
{
    const unsigned long r = __atomic_load_n(&p->revision, __ATOMIC_RELAXED);
    __atomic_store_n(&p->revision, r + 1, __ATOMIC_RELAXED);
}

/* The checks a call on a range of contacts makes before any contact
   (rf_problem_set_contacts, rf_problem_commit_contacts): a body-form
   problem and a count >= 0. */
static rf_status check_range_call(const rf_problem *p, int count,
                                  const char *fn, rf_error *err)
{
    rf_status st = check_body_form(p, fn, err);
    if (st == RF_OK && count < 0) {
        st = rf__fail(err, RF_ERR_INVALID, "%s: negative count %d", fn, count);
    }
    return st;
}

static rf_status set_contacts(rf_problem *p, int first, int count,
                              const rf_contact_desc *c, const char *fn,
                              rf_error *err)
{
    if (p == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: p is NULL", fn);
    }
    touch(p); /* even a refused call: rf_problem_solved_velocity */
    if (c == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: contact is NULL", fn);
    }
    rf_status st = check_range_call(p, count, fn, err);
    if (st != RF_OK) {
        return st;
    }
    for (int k = 0; k < count; ++k) {
        /* the compliance array, reserved by the first compliant contact
           (zero-filled: the contacts before it have none).  Looked for in
           this loop, not in a pass of its own before it: that pass read
           a line of every description once more, from memory on a large
           step (1% of the full pyramid's step). */
        int compliant = 0;
        for (int q = 0; p->con_cfm == NULL && q < 6; ++q) {
            compliant |= c[k].compliance[q] != 0.0;
        }
        if (compliant && reserve_cfm(p, err) != RF_OK) {
            return rf__fail(err, RF_ERR_NOMEM,
                            "%s: contact %d: out of memory for the "
                            "compliance of %d contacts",
                            fn, first + k, p->ncon);
        }
        st = put_contact(p, first + k, c + k, fn, err);
        if (st != RF_OK) {
            return st;
        }
    }
    rf__ok(err);
    return RF_OK;
}

rf_status rf_problem_set_contact(rf_problem *p, int i, const rf_contact_desc *c,
                                 rf_error *err)
{
    return set_contacts(p, i, 1, c, "rf_problem_set_contact", err);
}

rf_status rf_problem_set_contacts(rf_problem *p, int first, int count,
                                  const rf_contact_desc *c, rf_error *err)
{
    return set_contacts(p, first, count, c, "rf_problem_set_contacts", err);
}

/* The common case of a contact written in place
   (rf_problem_commit_contacts): check_contact's body indices and
   contact_values_plain's tests on its columns, in one branch-free pass,
   and the frame. */
static int column_plain(const rf_problem *p, int i)
{
    const int a = p->con_body[2 * i], b = p->con_body[2 * i + 1];
    const int bodies = body_index_ok(p, a) & body_index_ok(p, b) & (a != b);
    const double *fr = p->con_frame + 9 * (size_t)i;
    const unsigned char *f = (const unsigned char *)fr;
    const unsigned char *r =
        (const unsigned char *)(p->con_arm + 6 * (size_t)i);
    const unsigned char *q =
        (const unsigned char *)(p->con_bias + 6 * (size_t)i);
    const size_t pair = 2 * sizeof(double);
    rf__pair s[4] = {{0.0, 0.0}, {0.0, 0.0}, {0.0, 0.0}, {0.0, 0.0}};
    for (int k = 0; k < 4; ++k) { /* frame[0 .. 7] */
        const rf__pair x = load_pair(f + k * pair);
        s[k] += x - x;
    }
    for (int k = 0; k < 3; ++k) { /* arms, biases */
        const rf__pair x = load_pair(r + k * pair);
        const rf__pair y = load_pair(q + k * pair);
        s[k] += x - x;
        s[k + 1] += y - y;
    }
    /* the five that must be >= 0, and frame[8] */
    const rf__pair c0 = {p->con_mu[i], p->con_rho[i]};
    const rf__pair c1 = {p->con_sigma[i], p->con_cohesion[i]};
    const rf__pair c2 = {p->con_nmax[i], fr[8]};
    s[0] += c0 - c0;
    s[1] += c1 - c1;
    s[2] += c2 - c2;
    const rf__pair zero = {0.0, 0.0};
    const rf__pair_mask neg = (c0 < zero) | (c1 < zero);
    const rf__pair t = (s[0] + s[1]) + (s[2] + s[3]);
    return bodies && t[0] + t[1] == 0.0 && (neg[0] | neg[1]) == 0 &&
           !(c2[0] < 0.0) && (p->con_flags[i] & ~RF_CONTACT_ROLL_T1) == 0 &&
           frame_orthonormal(fr, fr + 3, fr + 6);
}

/* Contact i's columns as a description (no compliance): what
   check_contact reads to name what was wrong with a refused one. */
static void column_desc(const rf_problem *p, int i, rf_contact_desc *c)
{
    memset(c, 0, sizeof *c);
    c->body_a = p->con_body[2 * i];
    c->body_b = p->con_body[2 * i + 1];
    const double *f = p->con_frame + 9 * (size_t)i;
    memcpy(c->n, f, 3 * sizeof(double));
    memcpy(c->t1, f + 3, 3 * sizeof(double));
    memcpy(c->t2, f + 6, 3 * sizeof(double));
    memcpy(c->r_a, p->con_arm + 6 * (size_t)i, 3 * sizeof(double));
    memcpy(c->r_b, p->con_arm + 6 * (size_t)i + 3, 3 * sizeof(double));
    memcpy(c->bias, p->con_bias + 6 * (size_t)i, 6 * sizeof(double));
    c->mu = p->con_mu[i];
    c->rho = p->con_rho[i];
    c->sigma = p->con_sigma[i];
    c->flags = p->con_flags[i];
    c->cohesion = p->con_cohesion[i];
    c->normal_max = p->con_nmax[i];
}

rf_status rf_problem_contact_columns(rf_problem *p, rf_contact_columns *out,
                                     rf_error *err)
{
    static const char fn[] = "rf_problem_contact_columns";
    if (p == NULL || out == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: %s is NULL", fn,
                        p == NULL ? "p" : "out");
    }
    rf_status st = check_body_form(p, fn, err);
    if (st != RF_OK) {
        return st;
    }
    columns_of(p, out);
    rf__ok(err);
    return RF_OK;
}

rf_status rf_problem_commit_contacts(rf_problem *p, int first, int count,
                                     rf_error *err)
{
    static const char fn[] = "rf_problem_commit_contacts";
    if (p == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: p is NULL", fn);
    }
    touch(p); /* even a refused call: rf_problem_solved_velocity */
    rf_status st = check_range_call(p, count, fn, err);
    if (st != RF_OK) {
        return st;
    }
    for (int k = 0; k < count; ++k) {
        const int i = first + k;
        if (i < 0 || i >= p->ncon || !column_plain(p, i)) {
            rf_contact_desc c;
            if (i >= 0 && i < p->ncon) {
                column_desc(p, i, &c);
            } else {
                memset(&c, 0, sizeof c);
            }
            st = check_contact(p, i, &c, fn, err);
            if (st != RF_OK) {
                /* the bad one and the rest: their columns were
                   overwritten, so they no longer hold what was set */
                const long hi = (long)first + count;
                for (long j = i > 0 ? i : 0; j < hi && j < p->ncon; ++j) {
                    p->con_set[j] = 0;
                }
                return st;
            }
        }
        if (p->con_cfm != NULL) { /* written in place: rigid */
            memset(p->con_cfm + 6 * (size_t)i, 0, 6 * sizeof(double));
        }
        p->con_set[i] = 1;
    }
    rf__ok(err);
    return RF_OK;
}

rf_status rf_problem_truncate_contacts(rf_problem *p, int ncon, rf_error *err)
{
    static const char fn[] = "rf_problem_truncate_contacts";
    if (p == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: p is NULL", fn);
    }
    touch(p);
    rf_status st = check_body_form(p, fn, err);
    if (st != RF_OK) {
        return st;
    }
    if (ncon < 0 || ncon > p->ncon) {
        return rf__fail(err, RF_ERR_RANGE, "%s: ncon = %d out of range [0, %d]",
                        fn, ncon, p->ncon);
    }
    p->ncon = ncon;
    rf__ok(err);
    return RF_OK;
}

/* Every contact's value of a per-contact array (dst: con_cohesion or
   con_nmax) from v (ncon, >= 0, finite; NULL = all 0). */
static rf_status set_per_contact(rf_problem *p, const double *v, int nmax,
                                 const char *fn, const char *name,
                                 rf_error *err)
{
    if (p == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: p is NULL", fn);
    }
    ++p->revision; /* rf_problem_solved_velocity */
    if (p->kind == RF_KIND_EMPTY) {
        return rf__fail(err, RF_ERR_STATE, "%s: the problem is empty", fn);
    }
    for (int i = 0; v != NULL && i < p->ncon; ++i) {
        if (!isfinite(v[i])) {
            return rf__fail(err, RF_ERR_NONFINITE, "%s: %s[%d] is not finite",
                            fn, name, i);
        }
        if (v[i] < 0.0) {
            return rf__fail(err, RF_ERR_INVALID, "%s: %s[%d] = %g < 0", fn,
                            name, i, v[i]);
        }
    }
    double *dst = nmax ? p->con_nmax : p->con_cohesion;
    for (int i = 0; i < p->ncon; ++i) {
        dst[i] = v != NULL ? v[i] : 0.0;
    }
    rf__ok(err);
    return RF_OK;
}

rf_status rf_problem_set_cohesion(rf_problem *p, const double *cohesion,
                                  rf_error *err)
{
    return set_per_contact(p, cohesion, 0, "rf_problem_set_cohesion",
                           "cohesion", err);
}

rf_status rf_problem_set_normal_max(rf_problem *p, const double *cap,
                                    rf_error *err)
{
    return set_per_contact(p, cap, 1, "rf_problem_set_normal_max", "cap", err);
}

/* The scales of one kind (off 0: sliding, 2: rolling; 2 per contact)
   into con_axis, the other kind's kept (1 where never given). */
static rf_status set_axis_scales(rf_problem *p, const double *scales, int off,
                                 const char *fn, rf_error *err)
{
    if (p == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: p is NULL", fn);
    }
    ++p->revision; /* rf_problem_solved_velocity, even for a refused call */
    if (p->kind != RF_KIND_BODY) {
        return rf__fail(err, RF_ERR_STATE, "%s: not a body-form problem", fn);
    }
    const int m = 2 * p->ncon;
    for (int k = 0; scales != NULL && k < m; ++k) {
        if (!isfinite(scales[k])) {
            return rf__fail(err, RF_ERR_NONFINITE,
                            "%s: scales[%d] (contact %d) is not finite", fn, k,
                            k / 2);
        }
        if (!(scales[k] > 0.0)) {
            return rf__fail(err, RF_ERR_INVALID,
                            "%s: scales[%d] (contact %d) = %g, not > 0", fn, k,
                            k / 2, scales[k]);
        }
    }
    if (scales == NULL && !p->axis_on) {
        rf__ok(err);
        return RF_OK; /* nothing to remove */
    }
    if (p->con_axis == NULL || p->cap_axis < p->ncon) {
        if (!rf__grow((void **)&p->con_axis, &p->cap_axis,
                      p->ncon > 0 ? p->ncon : 1, 4 * sizeof(double))) {
            return rf__fail(err, RF_ERR_NOMEM,
                            "%s: out of memory for %d contacts", fn, p->ncon);
        }
    }
    if (!p->axis_on) {
        for (int k = 0; k < 4 * p->ncon; ++k) {
            p->con_axis[k] = 1.0;
        }
    }
    int other = 0; /* the other kind holds a scale other than 1 */
    for (int i = 0; i < p->ncon; ++i) {
        double *a = p->con_axis + 4 * (size_t)i;
        a[off] = scales != NULL ? scales[2 * i] : 1.0;
        a[off + 1] = scales != NULL ? scales[2 * i + 1] : 1.0;
        other |= a[2 - off] != 1.0 || a[3 - off] != 1.0;
    }
    p->axis_on = scales != NULL || other;
    rf__ok(err);
    return RF_OK;
}

rf_status rf_problem_set_sliding_scales(rf_problem *p, const double *scales,
                                        rf_error *err)
{
    return set_axis_scales(p, scales, 0, "rf_problem_set_sliding_scales", err);
}

rf_status rf_problem_set_rolling_scales(rf_problem *p, const double *scales,
                                        rf_error *err)
{
    return set_axis_scales(p, scales, 2, "rf_problem_set_rolling_scales", err);
}

rf_status rf_problem_add_compliance(rf_problem *p, const double *c,
                                    rf_error *err)
{
    static const char fn[] = "rf_problem_add_compliance";
    if (p == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: p is NULL", fn);
    }
    ++p->revision; /* rf_problem_solved_velocity, even for a refused call */
    if (c == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: c is NULL", fn);
    }
    if (p->kind == RF_KIND_EMPTY) {
        return rf__fail(err, RF_ERR_STATE, "%s: the problem is empty", fn);
    }
    const int m = 6 * p->ncon;
    for (int k = 0; k < m; ++k) {
        if (!isfinite(c[k])) {
            return rf__fail(err, RF_ERR_NONFINITE, "%s: c[%d] is not finite",
                            fn, k);
        }
        if (c[k] < 0.0) {
            return rf__fail(err, RF_ERR_INVALID, "%s: c[%d] = %g < 0", fn, k,
                            c[k]);
        }
    }
    if (p->kind == RF_KIND_BODY) {
        rf_status st = reserve_cfm(p, err);
        if (st != RF_OK) {
            return st;
        }
        for (int k = 0; k < m; ++k) {
            p->con_cfm[k] += c[k];
        }
        rf__ok(err);
        return RF_OK;
    }
    /* local form: find every diagonal entry first, then add (all or
       nothing) */
    rf_csr *W = &p->W;
    for (int r = 0; r < m; ++r) {
        int found = 0;
        for (int e = W->row_ptr[r]; e < W->row_ptr[r + 1] && !found; ++e) {
            found = W->col[e] == r;
        }
        if (!found && c[r] != 0.0) {
            return rf__fail(err, RF_ERR_INVALID,
                            "%s: W has no stored diagonal entry in row %d", fn,
                            r);
        }
    }
    for (int r = 0; r < m; ++r) {
        for (int e = W->row_ptr[r]; e < W->row_ptr[r + 1]; ++e) {
            if (W->col[e] == r) {
                W->val[e] += c[r];
                break;
            }
        }
    }
    rf__ok(err);
    return RF_OK;
}

void rf__refresh_cfm(rf_problem *p)
{
    p->cfm_on = 0;
    if (p->kind != RF_KIND_BODY || p->con_cfm == NULL) {
        return;
    }
    const int n6 = 6 * p->ncon;
    for (int k = 0; k < n6 && !p->cfm_on; ++k) {
        p->cfm_on = p->con_cfm[k] != 0.0;
    }
}

int rf__has_cohesion(const rf_problem *p)
{
    for (int i = 0; i < p->ncon; ++i) {
        if (p->con_cohesion[i] > 0.0) {
            return 1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Rows                                                                */
/* ------------------------------------------------------------------ */

rf_status rf_problem_begin_rows(rf_problem *p, int nrow, rf_error *err)
{
    static const char fn[] = "rf_problem_begin_rows";
    if (p == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: p is NULL", fn);
    }
    ++p->revision; /* rf_problem_solved_velocity */
    rf_status st = check_body_form(p, fn, err);
    if (st != RF_OK) {
        return st;
    }
    if (nrow < 0 || nrow > (1 << 27)) {
        return rf__fail(err, RF_ERR_INVALID, "%s: nrow = %d out of [0, 2^27]",
                        fn, nrow);
    }
    st = reserve_rows(p, nrow, err);
    if (st != RF_OK) {
        return st;
    }
    p->nrow = nrow;
    memset(p->row_set, 0, (size_t)nrow);
    rf__ok(err);
    return RF_OK;
}

static rf_status check_row(const rf_problem *p, int i, const rf_row_desc *r,
                           rf_error *err)
{
    static const char fn[] = "rf_problem_set_row";
    if (i < 0 || i >= p->nrow) {
        return rf__fail(err, RF_ERR_RANGE, "%s: row %d out of range [0, %d)",
                        fn, i, p->nrow);
    }
    const int bodies[2] = {r->body_a, r->body_b};
    rf_status st = check_bodies(p, fn, "row", i, bodies, "", err);
    if (st != RF_OK) {
        return st;
    }
    if (r->body_a == r->body_b) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: row %d: body_a == body_b == %d", fn, i, r->body_a);
    }
    const double vals[3] = {r->bias, r->cfm, r->bound_coef};
    if (!rf__all_finite(r->lin_a, 3) || !rf__all_finite(r->ang_a, 3) ||
        !rf__all_finite(r->lin_b, 3) || !rf__all_finite(r->ang_b, 3) ||
        !rf__all_finite(vals, 3) || isnan(r->lo) || isnan(r->hi)) {
        return rf__fail(err, RF_ERR_NONFINITE,
                        "%s: row %d: non-finite Jacobian, bias, cfm or "
                        "bound_coef, or NaN bound",
                        fn, i);
    }
    if (!(r->lo <= r->hi) || r->lo == INFINITY || r->hi == -INFINITY) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: row %d: empty interval [lo, hi] = [%g, %g]", fn, i,
                        r->lo, r->hi);
    }
    if (r->cfm < 0.0 || r->bound_coef < 0.0) {
        return rf__fail(err, RF_ERR_INVALID, "%s: row %d: negative %s = %g", fn,
                        i, r->cfm < 0.0 ? "cfm" : "bound_coef",
                        r->cfm < 0.0 ? r->cfm : r->bound_coef);
    }
    if (r->bound_row < -1 || r->bound_row >= p->nrow) {
        return rf__fail(err, RF_ERR_RANGE,
                        "%s: row %d: bound_row = %d out of range [0, %d) "
                        "(or -1)",
                        fn, i, r->bound_row, p->nrow);
    }
    if (r->bound_row == i) {
        return rf__fail(err, RF_ERR_INVALID, "%s: row %d bounds itself", fn, i);
    }
    return RF_OK;
}

rf_status rf_problem_set_row(rf_problem *p, int i, const rf_row_desc *r,
                             rf_error *err)
{
    if (p == NULL) {
        return rf__fail(err, RF_ERR_NULL, "rf_problem_set_row: p is NULL");
    }
    ++p->revision; /* rf_problem_solved_velocity, even for a refused call */
    if (r == NULL) {
        return rf__fail(err, RF_ERR_NULL, "rf_problem_set_row: row is NULL");
    }
    rf_status st = check_body_form(p, "rf_problem_set_row", err);
    if (st == RF_OK) {
        st = check_row(p, i, r, err);
    }
    if (st != RF_OK) {
        return st;
    }
    p->row_body[2 * i] = r->body_a;
    p->row_body[2 * i + 1] = r->body_b;
    double *J = p->row_jac + 12 * i;
    memcpy(J, r->lin_a, 3 * sizeof(double));
    memcpy(J + 3, r->ang_a, 3 * sizeof(double));
    memcpy(J + 6, r->lin_b, 3 * sizeof(double));
    memcpy(J + 9, r->ang_b, 3 * sizeof(double));
    p->row_bias[i] = r->bias;
    p->row_lo[i] = r->lo;
    p->row_hi[i] = r->hi;
    p->row_cfm[i] = r->cfm;
    p->row_bound[i] = r->bound_row;
    p->row_coef[i] = r->bound_coef;
    p->row_set[i] = 1;
    rf__ok(err);
    return RF_OK;
}

int rf_problem_num_rows(const rf_problem *p)
{
    return p == NULL ? 0 : p->nrow;
}

/* ------------------------------------------------------------------ */
/* Local form                                                          */
/* ------------------------------------------------------------------ */

static rf_status check_coefficients(int ncon, const double *mu,
                                    const double *rho, const double *sigma,
                                    const char *fn, rf_error *err)
{
    const double *arr[3] = {mu, rho, sigma};
    static const char *names[3] = {"mu", "rho", "sigma"};
    for (int k = 0; k < 3; ++k) {
        for (int i = 0; i < ncon; ++i) {
            if (!isfinite(arr[k][i])) {
                return rf__fail(err, RF_ERR_NONFINITE,
                                "%s: %s[%d] is not finite", fn, names[k], i);
            }
            if (arr[k][i] < 0.0) {
                return rf__fail(err, RF_ERR_INVALID, "%s: %s[%d] = %g < 0", fn,
                                names[k], i, arr[k][i]);
            }
        }
    }
    return RF_OK;
}

/* Common tail of the two local setters: coefficients and q. */
static rf_status install_local(rf_problem *p, int ncon, const double *q,
                               const double *mu, const double *rho,
                               const double *sigma, rf_error *err)
{
    int m = 6 * ncon;
    rf_status st = reserve_contacts(p, ncon, err);
    if (st != RF_OK) {
        return st;
    }
    if (!rf__grow((void **)&p->q, &p->cap_q, m, sizeof(double))) {
        return rf__fail(err, RF_ERR_NOMEM, "out of memory for q (%d)", m);
    }
    memcpy(p->q, q, (size_t)m * sizeof(double));
    memcpy(p->con_mu, mu, (size_t)ncon * sizeof(double));
    memcpy(p->con_rho, rho, (size_t)ncon * sizeof(double));
    memcpy(p->con_sigma, sigma, (size_t)ncon * sizeof(double));
    memset(p->con_flags, 0, (size_t)ncon * sizeof(int));
    memset(p->con_cohesion, 0, (size_t)ncon * sizeof(double));
    memset(p->con_nmax, 0, (size_t)ncon * sizeof(double));
    memset(p->con_set, 1, (size_t)ncon);
    free(p->con_cfm); /* local form: compliance is in W */
    p->con_cfm = NULL;
    p->cap_cfm = 0;
    p->kind = RF_KIND_LOCAL;
    p->axis_on = 0; /* local form: any scaling is in W */
    p->ncon = ncon;
    p->nbody = 0;
    p->nrow = 0;
    return RF_OK;
}

static rf_status check_local_args(int ncon, const void *W, const double *q,
                                  const double *mu, const double *rho,
                                  const double *sigma, const char *fn,
                                  rf_error *err)
{
    if (W == NULL || q == NULL || mu == NULL || rho == NULL || sigma == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: %s is NULL", fn,
                        W == NULL     ? "W"
                        : q == NULL   ? "q"
                        : mu == NULL  ? "mu"
                        : rho == NULL ? "rho"
                                      : "sigma");
    }
    if (ncon < 0 || ncon > (1 << 24)) {
        return rf__fail(err, RF_ERR_INVALID, "%s: ncon = %d out of [0, 2^24]",
                        fn, ncon);
    }
    if (!rf__all_finite(q, (size_t)6 * ncon)) {
        return rf__fail(err, RF_ERR_NONFINITE, "%s: q has a non-finite entry",
                        fn);
    }
    return check_coefficients(ncon, mu, rho, sigma, fn, err);
}

/* W's asymmetry max |W_rc - W_cr| = asym at (r, c) against its largest
   entry scale: round-off (Siconos' own files carry up to 1e-4) passes,
   anything above RF_W_ASYMMETRY_MAX is refused with the figure. */
static rf_status check_asymmetry(double asym, double scale, int r, int c,
                                 const char *fn, rf_error *err)
{
    if (asym > RF_W_ASYMMETRY_MAX * scale) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: W is not symmetric: |W(%d, %d) - W(%d, %d)| = "
                        "%.3g, %.3g of its largest entry (at most %g is "
                        "taken as round-off)",
                        fn, r, c, c, r, asym, asym / scale, RF_W_ASYMMETRY_MAX);
    }
    return RF_OK;
}

static rf_status check_csr(int m, const int *row_ptr, const int *col,
                           const double *val, const char *fn, double *scale_out,
                           rf_error *err)
{
    if (row_ptr[0] != 0) {
        return rf__fail(err, RF_ERR_INVALID, "%s: row_ptr[0] = %d, not 0", fn,
                        row_ptr[0]);
    }
    double scale = 0.0;
    for (int r = 0; r < m; ++r) {
        if (row_ptr[r + 1] < row_ptr[r]) {
            return rf__fail(err, RF_ERR_INVALID,
                            "%s: row_ptr decreases at row %d", fn, r);
        }
        for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) {
            if (col[k] < 0 || col[k] >= m) {
                return rf__fail(err, RF_ERR_RANGE,
                                "%s: col[%d] = %d out of range [0, %d)", fn, k,
                                col[k], m);
            }
            if (!isfinite(val[k])) {
                return rf__fail(err, RF_ERR_NONFINITE,
                                "%s: val[%d] (row %d) is not finite", fn, k, r);
            }
            for (int j = row_ptr[r]; j < k; ++j) {
                if (col[j] == col[k]) {
                    return rf__fail(err, RF_ERR_INVALID,
                                    "%s: row %d has column %d twice", fn, r,
                                    col[k]);
                }
            }
            scale = fmax(scale, fabs(val[k]));
        }
    }
    *scale_out = scale;
    return RF_OK;
}

/* The transpose of the n x n CSR (ptr, col, val) into (tptr, tcol, tval):
   a counting sort by column, so every row of the result lists its columns
   in increasing order. */
static void csr_transpose(int n, const int *ptr, const int *col,
                          const double *val, int *tptr, int *tcol, double *tval)
{
    memset(tptr, 0, (size_t)(n + 1) * sizeof(int));
    for (int k = 0; k < ptr[n]; ++k) {
        ++tptr[col[k] + 1];
    }
    for (int r = 0; r < n; ++r) {
        tptr[r + 1] += tptr[r];
    }
    for (int r = 0; r < n; ++r) {
        for (int k = ptr[r]; k < ptr[r + 1]; ++k) {
            const int at = tptr[col[k]]++;
            tcol[at] = r;
            tval[at] = val[k];
        }
    }
    for (int r = n; r > 0; --r) { /* the counters ran one row ahead */
        tptr[r] = tptr[r - 1];
    }
    tptr[0] = 0;
}

/* The union pattern of rows r of S (W with sorted columns) and T (W^T),
   both sorted: out NULL counts, else writes the symmetric part's entries
   (W_rc + W_cr) / 2 from out[0] on; asym (may be NULL) and *ac grow to
   the row's largest |W_rc - W_cr| and its column.  Returns the row's entry
   count. */
static int merge_row(const int *scol, const double *sval, int s0, int s1,
                     const int *tcol, const double *tval, int t0, int t1,
                     int *ocol, double *oval, double *asym, int *ac)
{
    int k = 0;
    while (s0 < s1 || t0 < t1) {
        const int cs = s0 < s1 ? scol[s0] : INT_MAX;
        const int ct = t0 < t1 ? tcol[t0] : INT_MAX;
        const int c = cs < ct ? cs : ct;
        const double a = cs == c ? sval[s0++] : 0.0;
        const double b = ct == c ? tval[t0++] : 0.0;
        if (asym != NULL && fabs(a - b) > *asym) {
            *asym = fabs(a - b);
            *ac = c;
        }
        if (ocol != NULL) {
            ocol[k] = c;
            oval[k] = a == b ? a : 0.5 * (a + b);
        }
        ++k;
    }
    return k;
}

/* The local form from a checked CSR W (rf_problem_set_local_csr's
   contract; fn names the public entry for messages): W's structure
   validated, its asymmetry measured against RF_W_ASYMMETRY_MAX, its
   symmetric part installed. */
static rf_status set_local_csr(rf_problem *p, int ncon, const int *row_ptr,
                               const int *col, const double *val,
                               const double *q, const double *mu,
                               const double *rho, const double *sigma,
                               const char *fn, rf_error *err)
{
    const int m = 6 * ncon;
    double scale = 0.0;
    rf_status st = check_csr(m, row_ptr, col, val, fn, &scale, err);
    if (st != RF_OK) {
        return st;
    }
    /* W^T (T) and W with its rows' columns sorted (S = T^T), so that row r
       of the symmetric part is a merge of two sorted lists */
    const int nnz = row_ptr[m];
    int *tptr = malloc((size_t)(m + 1) * sizeof(int));
    int *sptr = malloc((size_t)(m + 1) * sizeof(int));
    int *tcol = malloc((size_t)(nnz + 1) * sizeof(int));
    int *scol = malloc((size_t)(nnz + 1) * sizeof(int));
    double *tval = malloc((size_t)(nnz + 1) * sizeof(double));
    double *sval = malloc((size_t)(nnz + 1) * sizeof(double));
    if (!tptr || !sptr || !tcol || !scol || !tval || !sval) {
        st = rf__fail(err, RF_ERR_NOMEM, "%s: out of memory for W's transpose",
                      fn);
        goto done;
    }
    csr_transpose(m, row_ptr, col, val, tptr, tcol, tval);
    csr_transpose(m, tptr, tcol, tval, sptr, scol, sval);
    double asym = 0.0;
    int ar = 0, ac = 0;
    size_t total = 0;
    for (int r = 0; r < m; ++r) {
        const double before = asym;
        total +=
            (size_t)merge_row(scol, sval, sptr[r], sptr[r + 1], tcol, tval,
                              tptr[r], tptr[r + 1], NULL, NULL, &asym, &ac);
        ar = asym > before ? r : ar;
    }
    st = check_asymmetry(asym, scale, ar, ac, fn, err);
    if (st == RF_OK && total > (size_t)1 << 30) {
        st = rf__fail(err, RF_ERR_INVALID, "%s: W too large", fn);
    }
    if (st == RF_OK) {
        st = rf__csr_reserve(&p->W, m, (int)total, err);
    }
    if (st == RF_OK) {
        st = install_local(p, ncon, q, mu, rho, sigma, err);
    }
    if (st != RF_OK) {
        goto done;
    }
    int k = 0;
    for (int r = 0; r < m; ++r) {
        p->W.row_ptr[r] = k;
        k += merge_row(scol, sval, sptr[r], sptr[r + 1], tcol, tval, tptr[r],
                       tptr[r + 1], p->W.col + k, p->W.val + k, NULL, NULL);
    }
    p->W.row_ptr[m] = k;
    p->W.n = m;
    p->W.nnz = k;
    p->w_asymmetry = scale > 0.0 ? asym / scale : 0.0;
    rf__ok(err);
done:
    free(tptr);
    free(sptr);
    free(tcol);
    free(scol);
    free(tval);
    free(sval);
    return st;
}

rf_status rf_problem_set_local_dense(rf_problem *p, int ncon, const double *W,
                                     const double *q, const double *mu,
                                     const double *rho, const double *sigma,
                                     rf_error *err)
{
    static const char fn[] = "rf_problem_set_local_dense";
    if (p == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: p is NULL", fn);
    }
    ++p->revision; /* rf_problem_solved_velocity */
    rf_status st = check_local_args(ncon, W, q, mu, rho, sigma, fn, err);
    if (st != RF_OK) {
        return st;
    }
    const int m = 6 * ncon;
    size_t nnz = 0;
    for (size_t k = 0; k < (size_t)m * m; ++k) {
        if (!isfinite(W[k])) {
            return rf__fail(err, RF_ERR_NONFINITE,
                            "%s: W[%zu][%zu] is not finite", fn, k / m, k % m);
        }
        nnz += W[k] != 0.0;
    }
    if (nnz > (size_t)1 << 30) {
        return rf__fail(err, RF_ERR_INVALID, "%s: W too large", fn);
    }
    /* its nonzeros as CSR, then the CSR path (symmetric part, asymmetry) */
    int *row_ptr = malloc((size_t)(m + 1) * sizeof(int));
    int *col = malloc((nnz + 1) * sizeof(int));
    double *val = malloc((nnz + 1) * sizeof(double));
    if (row_ptr == NULL || col == NULL || val == NULL) {
        st = rf__fail(err, RF_ERR_NOMEM, "%s: out of memory for W (%zu)", fn,
                      nnz);
    } else {
        int k = 0;
        for (int r = 0; r < m; ++r) {
            row_ptr[r] = k;
            for (int c = 0; c < m; ++c) {
                const double v = W[(size_t)r * m + c];
                if (v != 0.0) {
                    col[k] = c;
                    val[k++] = v;
                }
            }
        }
        row_ptr[m] = k;
        st = set_local_csr(p, ncon, row_ptr, col, val, q, mu, rho, sigma, fn,
                           err);
    }
    free(row_ptr);
    free(col);
    free(val);
    return st;
}

rf_status rf_problem_set_local_csr(rf_problem *p, int ncon, const int *row_ptr,
                                   const int *col, const double *val,
                                   const double *q, const double *mu,
                                   const double *rho, const double *sigma,
                                   rf_error *err)
{
    static const char fn[] = "rf_problem_set_local_csr";
    if (p == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: p is NULL", fn);
    }
    ++p->revision; /* rf_problem_solved_velocity */
    rf_status st = check_local_args(ncon, row_ptr, q, mu, rho, sigma, fn, err);
    if (st != RF_OK) {
        return st;
    }
    const int m = 6 * ncon;
    if (row_ptr[m] > 0 && (col == NULL || val == NULL)) {
        return rf__fail(err, RF_ERR_NULL, "%s: %s is NULL", fn,
                        col == NULL ? "col" : "val");
    }
    return set_local_csr(p, ncon, row_ptr, col, val, q, mu, rho, sigma, fn,
                         err);
}

/* ------------------------------------------------------------------ */
/* Queries                                                             */
/* ------------------------------------------------------------------ */

int rf_problem_num_contacts(const rf_problem *p)
{
    return p == NULL ? 0 : p->ncon;
}

int rf_problem_num_bodies(const rf_problem *p)
{
    return p == NULL ? 0 : p->nbody;
}

int rf_problem_is_local(const rf_problem *p)
{
    return p != NULL && p->kind == RF_KIND_LOCAL;
}

double rf_problem_w_asymmetry(const rf_problem *p)
{
    return p != NULL && p->kind == RF_KIND_LOCAL ? p->w_asymmetry : 0.0;
}

/* Mirrors the requests of reserve_bodies / reserve_contacts /
   reserve_rows above, rf__csr_reserve and rf__work_reserve[_blocks]
   (work.c): the first growth of an array asks for exactly the count, so
   this is what a fresh problem holds.  Keep it in step with those tables
   (tests/test_memory.c checks it against the documented layout and
   against the heap). */
size_t rf_problem_memory_sized(const rf_problem *p, const rf_config *cfg_in,
                               size_t cfg_size)
{
    rf_config full;
    if (p == NULL ||
        (cfg_in != NULL && rf__sized_in(cfg_in, cfg_size, NULL, 0, &full,
                                        "rf_problem_memory", NULL) != RF_OK)) {
        return 0;
    }
    const rf_config *cfg = cfg_in != NULL ? &full : NULL;
    const size_t d = sizeof(double), in = sizeof(int);
    size_t bytes = sizeof *p;
    if (p->kind == RF_KIND_EMPTY) {
        return bytes;
    }
    const size_t ncon = (size_t)p->ncon, nbody = (size_t)p->nbody;
    const size_t nrow = (size_t)p->nrow, nitem = (size_t)rf__nitem(p);
    const size_t ndof = (size_t)rf__ndof(p);
    const size_t at_least1_con = ncon > 0 ? ncon : 1;
    /* problem arrays */
    bytes += at_least1_con *
             (2 * in + 9 * d + 6 * d + 6 * d + 3 * d + 2 * d + in + 1);
    if (p->kind == RF_KIND_BODY) {
        const size_t nb = nbody > 0 ? nbody : 1;
        bytes += nb * (in + 3 * d + 9 * d + 6 * d + 1);
        if (nrow > 0) {
            bytes += nrow * (2 * in + 12 * d + 5 * d + in + 1);
        }
    } else {
        const size_t nnz = p->W.nnz > 0 ? (size_t)p->W.nnz : 1;
        bytes += (6 * ncon + 1) * in + nnz * (in + d) + 6 * ncon * d;
    }
    /* solver work (rf__work_reserve): the dof vectors this solver uses */
    const rf_solver_kind solver = cfg ? cfg->solver : RF_SOLVER_APGD;
    unsigned vecs = rf__solver_vecs(p, solver);
    size_t nvec = 0;
    for (; vecs != 0; vecs &= vecs - 1) {
        ++nvec;
    }
    bytes += nvec * (ndof + 1) * d;
    /* wscale, wcone, step */
    bytes += (nitem + 1) * (4 * d + 4 * d + d);
    bytes += (nbody + 1) * (6 * d + 6 * d + in); /* bv0, bv1, bc_ptr */
    if (p->kind == RF_KIND_BODY) {
        bytes += (6 * ncon + 1) * d; /* cimp */
    }
    bytes += (2 * nitem + 1) * in;                             /* bc_ent */
    bytes += (4 * (size_t)rf__num_blocks((int)nitem) + 4) * d; /* partial */
    if (solver == RF_SOLVER_GS || solver == RF_SOLVER_GS_COLORED) {
        bytes += (ncon + 1) * (36 * d + 36 * d + 1); /* wblk, wchol, ok */
    }
    if (solver == RF_SOLVER_GS_COLORED || solver == RF_SOLVER_SI) {
        bytes += (nitem + 1) * 4 * in; /* color_con, _of, _ptr, _mark */
    }
    if (solver == RF_SOLVER_SI) { /* rf__work_reserve_si */
        const int desaxce = cfg != NULL && cfg->model == RF_MODEL_DESAXCE;
        bytes += (ncon + 1) * 2 * in +                  /* si_flags, si_wpos */
                 (nbody + 1) * 8 +                      /* si_mask */
                 (nitem + 1) * in +                     /* si_group */
                 (4 * nitem + 4) * d +                  /* si_sum */
                 (nitem - ncon + 1) * RF__SI_JREC * d + /* si_jrec */
                 (nitem + 2) * ((4 + RF__SI_BMETA) * in +
                                6 * RF__SI_LANES * d) + /* units, bundles */
                 (nitem + 2) *
                     (5 * in + 1 + (1 + RF__RUN_COUNT + RF__TMP_COUNT) * d) +
                 (nbody + 1) * in; /* islands */
        const int threads = rf__threads(cfg != NULL ? cfg->threads : 0);
        bytes += (size_t)(threads - 1) * RF__RUN_COUNT * (nitem + 2) * d +
                 d;    /* the islands' sums per thread */
        if (desaxce) { /* the row form, the bundles' slots */
            const int nang = rf__si_angular_count(p);
            const int lanes =
                rf__si_kernel_lanes(rf__si_wide_kernel(p->work.si_wide_mode));
            bytes +=
                (ncon + 1) * (RF__SI_NREC + RF__SI_FREC + RF__SI_AREC) * d +
                ((size_t)rf__si_slot_bound((int)ncon, 2, lanes) + 1) *
                    (RF__SI_WN + RF__SI_WF + 3) * lanes * d +
                ((size_t)rf__si_slot_bound(nang, 1, lanes) + 1) *
                    (RF__SI_WA + 3) * lanes * d;
        } else { /* the block records */
            bytes += (ncon + 1) * (RF__SI_STRIDE * d + 5 * in);
        }
    }
    if (p->kind == RF_KIND_BODY) { /* rf_problem_solved_velocity's copies */
        bytes += (ndof + 1) * d + (6 * nbody + 1) * d;
    }
    if (p->kind == RF_KIND_BODY && p->con_cfm != NULL) {
        bytes += (size_t)(p->cap_cfm > 0 ? p->cap_cfm : 1) * 6 * d;
    }
    if (rf__has_cohesion(p)) { /* rf__work_reserve_cohesion */
        const size_t nvel = 6 * (nbody > ncon ? nbody : ncon) + 1;
        bytes += (ndof + 1) * d + 2 * nvel * d + (ncon + 1) * d;
    }
    return bytes;
}

/* Ready to solve: a kind is set and every contact is set. */
rf_status rf__check_complete(const rf_problem *p, const char *fn, rf_error *err)
{
    if (p->kind == RF_KIND_EMPTY) {
        return rf__fail(err, RF_ERR_STATE, "%s: the problem is empty", fn);
    }
    for (int i = 0; i < p->ncon; ++i) {
        if (!p->con_set[i]) {
            return rf__fail(err, RF_ERR_STATE, "%s: contact %d was never set",
                            fn, i);
        }
    }
    if (p->kind == RF_KIND_BODY) {
        for (int i = 0; i < p->ncon; ++i) {
            /* checked when set, but the columns stay writable after
               (rf_problem_contact_columns): an index written there since
               would be read out of bounds by every pass over the bodies */
            const rf_status st = check_bodies(
                p, fn, "contact", i, p->con_body + 2 * i,
                ", written into its columns after it was set", err);
            if (st != RF_OK) {
                return st;
            }
            if (body_is_fixed(p, p->con_body[2 * i]) &&
                body_is_fixed(p, p->con_body[2 * i + 1])) {
                return rf__fail(err, RF_ERR_INVALID,
                                "%s: contact %d joins two fixed bodies (%d, "
                                "%d)",
                                fn, i, p->con_body[2 * i],
                                p->con_body[2 * i + 1]);
            }
        }
    }
    for (int j = 0; j < p->nrow; ++j) {
        if (!p->row_set[j]) {
            return rf__fail(err, RF_ERR_STATE, "%s: row %d was never set", fn,
                            j);
        }
    }
    for (int j = 0; j < p->nrow; ++j) {
        const int a = p->row_body[2 * j], b = p->row_body[2 * j + 1];
        if (body_is_fixed(p, a) && body_is_fixed(p, b)) {
            return rf__fail(err, RF_ERR_INVALID,
                            "%s: row %d joins two fixed bodies (%d, %d)", fn, j,
                            a, b);
        }
        const int k = p->row_bound[j];
        if (k >= 0) {
            const int ka = p->row_body[2 * k], kb = p->row_body[2 * k + 1];
            if (!((ka == a && kb == b) || (ka == b && kb == a))) {
                return rf__fail(err, RF_ERR_INVALID,
                                "%s: row %d is bounded by row %d, which acts "
                                "on other bodies (%d, %d) than (%d, %d)",
                                fn, j, k, ka, kb, a, b);
            }
        }
    }
    return RF_OK;
}
