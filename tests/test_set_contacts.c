/*
 * rf_problem_set_contacts: contacts set in batches (rollfric.h).  The
 * Bullet shim sets a manifold's points in one call, and several threads
 * may set disjoint ranges of one problem at once, so the batch setter must
 * store exactly what rf_problem_set_contact stores, must tolerate
 * concurrent callers, and must report errors as the single setter does.
 *
 * 1. A batch equals singles: a random body-form problem (NB bodies, NC
 *    contacts from gen_contact, with biases on every component, some
 *    compliance, cohesion, yield caps and RF_CONTACT_ROLL_T1) set once
 *    contact by contact and once in uneven batches (1, 7, 64, the rest)
 *    gives bitwise identical impulses from the same warm start, with the
 *    sequential impulse solver (De Saxce, a fixed sweep count) and with
 *    APGD (associated model, a fixed iteration count), both on one thread.
 *    So every field went in.  The comparison is shown to have teeth: a
 *    change of any one field (bodies, frame, lever arms, coefficients,
 *    bias, flags, cohesion, compliance, cap) of the most loaded contact
 *    changes the bits.
 * 2. Concurrent disjoint ranges: the contacts set in batches of 16 by 4
 *    OpenMP threads (none compliant: the problem has no compliance array
 *    yet, the documented rule) give the bits of the same contacts set one
 *    by one; their compliance added afterwards (rf_problem_add_compliance)
 *    gives check 1's bits; once the problem holds a compliance array,
 *    compliant contacts too may be set concurrently, and give check 1's
 *    bits again.  rf_problem_solved_velocity then answers after a solve
 *    (as rf_problem_body_velocity, to rounding) and refuses
 *    (RF_ERR_STATE) after any later rf_problem_set_contacts call: from 4
 *    threads at once (the revision is bumped without a locked increment),
 *    with count 1, with count 0, and failed ones.
 * 3. Errors: a bad contact (NaN normal, negative mu) at first + 5 of a
 *    batch returns RF_ERR_NONFINITE / RF_ERR_INVALID with a message that
 *    names rf_problem_set_contacts and contact first + 5; the five before
 *    it are set (once the bad one is fixed and set alone, rf_solve
 *    accepts the problem and gives check 1's bits).  A range running past
 *    ncon gives RF_ERR_RANGE naming contact ncon (the ones before it set),
 *    a negative first RF_ERR_RANGE, a negative count RF_ERR_INVALID, a
 *    NULL p or c RF_ERR_NULL, a problem not in body form (fresh, or local
 *    form) RF_ERR_STATE; the single setter still names itself.
 * 4. Every double of a description, one at a time: NaN, +inf or -inf in
 *    any of the 32 is RF_ERR_NONFINITE; -1 in any of the 11 that must be
 *    >= 0 (mu, rho, sigma, cohesion, compliance[0..5], normal_max) is
 *    RF_ERR_INVALID with a message naming the field; -0.0 there, and
 *    negative or huge finite biases, are accepted; a frame vector off by
 *    1e-5 is RF_ERR_INVALID.  (The common case is checked in one
 *    branch-free pass over pairs of doubles, problem.c: this pins which
 *    values it lets through.)  A refused contact keeps its old value:
 *    the problem still solves to check 1's bits.
 * 5. Contacts written in place (rf_problem_contact_columns,
 *    rf_problem_commit_contacts, rf_problem_truncate_contacts): the rigid
 *    contacts written into the columns and committed in ranges of 16 by
 *    4 threads, then their compliance added, give check 1's bits; on a
 *    handle that holds a compliance array the commit zeroes the
 *    committed contacts' compliance (the rigid bits again).  A problem
 *    begun with 40 spare slots and truncated to NC gives the same bits.
 *    A bad value at first + 5 of a committed range returns
 *    RF_ERR_NONFINITE / RF_ERR_INVALID naming rf_problem_commit_contacts
 *    and that contact, leaves it and the rest of the range unset (even
 *    where they were set before) and the five before it set; a body
 *    index out of range is RF_ERR_RANGE.  Errors of the three calls:
 *    NULL, not body form, negative count, ranges.
 */
#include "problem_gen.h"

#include <stddef.h>
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif

enum { NB = 40, NC = 300, NG = 6 * NC, SWEEPS = 20, APGD_ITER = 40 };

/* The scene: bodies, contacts (full, and without their compliance plus
   that compliance apart) and the warm start. */
static rf_body_desc g_body[NB];
static rf_contact_desc g_con[NC], g_rigid[NC];
static double g_comp[NG], g_warm[NG];
/* threads in set_parallel's last team */
static int g_team = 1;

static void make_scene(unsigned seed)
{
    rf_rng r = {seed};
    for (int b = 0; b < NB; ++b) {
        gen_body(&r, &g_body[b], NULL);
    }
    for (int i = 0; i < NC; ++i) {
        rf_contact_desc *c = &g_con[i];
        const int a = (int)(rf_rng_uniform(&r) * NB);
        const int b = rf_rng_uniform(&r) < 0.25
                          ? RF_WORLD
                          : (a + 1 + (int)(rf_rng_uniform(&r) * (NB - 1))) % NB;
        gen_contact(&r, a, b, c);
        c->bias[0] = rf_rng_range(&r, -0.3, 0.05);
        for (int k = 1; k < 6; ++k) {
            c->bias[k] =
                rf_rng_uniform(&r) < 0.2 ? rf_rng_range(&r, -0.1, 0.1) : 0.0;
        }
        c->flags = rf_rng_uniform(&r) < 0.25 ? RF_CONTACT_ROLL_T1 : 0;
        c->cohesion =
            rf_rng_uniform(&r) < 0.2 ? rf_rng_range(&r, 0.01, 0.1) : 0.0;
        c->normal_max =
            rf_rng_uniform(&r) < 0.2 ? rf_rng_range(&r, 0.05, 0.5) : 0.0;
        /* contact 0 rigid: the compliance array appears mid-batch */
        if (i > 0 && rf_rng_uniform(&r) < 0.25) {
            for (int k = 0; k < 6; ++k) {
                c->compliance[k] =
                    rf_rng_uniform(&r) < 0.3 ? 0.0 : rf_rng_range(&r, 0, 0.02);
            }
        }
        g_rigid[i] = *c;
        memcpy(g_comp + 6 * i, c->compliance, sizeof c->compliance);
        memset(g_rigid[i].compliance, 0, sizeof c->compliance);
        g_warm[6 * i] = rf_rng_range(&r, 0.0, 0.1);
        g_warm[6 * i + 1] = rf_rng_range(&r, -0.01, 0.01);
    }
}

/* SI, De Saxce, SWEEPS sweeps; or APGD, associated, APGD_ITER
   iterations; one thread, tol 0, so the bits depend on the data only. */
static rf_config config(int apgd)
{
    rf_config cfg;
    gen_si_config(&cfg, RF_MODEL_DESAXCE, SWEEPS);
    if (apgd) {
        cfg.solver = RF_SOLVER_APGD;
        cfg.model = RF_MODEL_ASSOCIATED;
        cfg.max_iter = APGD_ITER;
    }
    cfg.threads = 1;
    return cfg;
}

/* g = the solve of p from g_warm. */
static int solve(rf_problem *p, int apgd, double *g)
{
    const rf_config cfg = config(apgd);
    rf_error err;
    memcpy(g, g_warm, sizeof g_warm);
    const rf_status st = rf_solve(p, &cfg, g, NULL, &err);
    if (st != RF_OK) {
        fprintf(stderr, "  rf_solve: %s\n", err.message);
    }
    ENSURE(st == RF_OK);
    return 0;
}

static int same(const double *a, const double *b)
{
    return memcmp(a, b, NG * sizeof(double)) == 0;
}

/* rf_problem_begin_bodies(NB, NC) and every body. */
static int begin(rf_problem *p)
{
    ENSURE(rf_problem_begin_bodies(p, NB, NC, NULL) == RF_OK);
    for (int b = 0; b < NB; ++b) {
        ENSURE(rf_problem_set_body(p, b, &g_body[b], NULL) == RF_OK);
    }
    return 0;
}

/* Contacts [lo, hi) of c, one rf_problem_set_contact call each. */
static int set_singles(rf_problem *p, const rf_contact_desc *c, int lo, int hi)
{
    for (int i = lo; i < hi; ++i) {
        rf_error err;
        ENSURE(rf_problem_set_contact(p, i, &c[i], &err) == RF_OK);
        ENSURE(err.status == RF_OK);
    }
    return 0;
}

/* Every contact of c in batches of the given sizes, then the rest in
   one. */
static int set_batches(rf_problem *p, const rf_contact_desc *c,
                       const int *sizes, int nsizes)
{
    int first = 0;
    for (int k = 0; k <= nsizes; ++k) {
        const int n = k < nsizes ? sizes[k] : NC - first;
        rf_error err;
        ENSURE(rf_problem_set_contacts(p, first, n, c + first, &err) == RF_OK);
        ENSURE(err.status == RF_OK);
        first += n;
    }
    ENSURE(first == NC);
    return 0;
}

/* Contacts first .. first + n - 1 of c into p, one way or another. */
typedef rf_status (*batch_fn)(rf_problem *p, int first, int n,
                              const rf_contact_desc *c);

/* Every contact of c in batches of 16 by set, 4 OpenMP threads taking
   them in turn (serially without OpenMP); every batch must succeed. */
static int in_batches(rf_problem *p, const rf_contact_desc *c, batch_fn set)
{
    enum { BATCH = 16, NBATCH = (NC + BATCH - 1) / BATCH };
    rf_status st[NBATCH];
#ifdef _OPENMP
#pragma omp parallel for num_threads(4) schedule(static, 1)
#endif
    for (int k = 0; k < NBATCH; ++k) {
        const int first = k * BATCH;
        const int n = first + BATCH <= NC ? BATCH : NC - first;
        st[k] = set(p, first, n, c);
#ifdef _OPENMP
        if (k == 0) {
            g_team = omp_get_num_threads();
        }
#endif
    }
    for (int k = 0; k < NBATCH; ++k) {
        ENSURE(st[k] == RF_OK);
    }
    return 0;
}

static rf_status set_batch(rf_problem *p, int first, int n,
                           const rf_contact_desc *c)
{
    rf_error err; /* one per thread */
    return rf_problem_set_contacts(p, first, n, c + first, &err);
}

static int set_parallel(rf_problem *p, const rf_contact_desc *c)
{
    return in_batches(p, c, set_batch);
}

/* The reference: a fresh problem, contacts of c set one by one, solved. */
static int reference(const rf_contact_desc *c, int apgd, double *g)
{
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(begin(p) == 0);
    ENSURE(set_singles(p, c, 0, NC) == 0);
    ENSURE(solve(p, apgd, g) == 0);
    rf_problem_destroy(p);
    return 0;
}

/* Does err name fn ("fn: ...") and contact idx (not a longer number)? */
static int names(const rf_error *err, const char *fn, int idx)
{
    char want[64];
    snprintf(want, sizeof want, "%s: ", fn);
    ENSURE(strncmp(err->message, want, strlen(want)) == 0);
    snprintf(want, sizeof want, "contact %d", idx);
    const char *at = strstr(err->message, want);
    ENSURE(at != NULL);
    const char next = at[strlen(want)];
    ENSURE(next < '0' || next > '9');
    return 0;
}

/* 1 */
static int test_batch_equals_singles(void)
{
    static const int sizes[] = {1, 7, 64};
    static double ref[NG], g[NG];
    int roll_t1 = 0, compliant = 0, cohesive = 0, capped = 0;
    for (int i = 0; i < NC; ++i) {
        roll_t1 += g_con[i].flags == RF_CONTACT_ROLL_T1;
        compliant += g_con[i].compliance[0] + g_con[i].compliance[1] +
                         g_con[i].compliance[2] + g_con[i].compliance[3] +
                         g_con[i].compliance[4] + g_con[i].compliance[5] >
                     0.0;
        cohesive += g_con[i].cohesion > 0.0;
        capped += g_con[i].normal_max > 0.0;
    }
    ENSURE(roll_t1 > 0 && compliant > 0 && cohesive > 0 && capped > 0);
    for (int apgd = 0; apgd < 2; ++apgd) {
        ENSURE(reference(g_con, apgd, ref) == 0);
        rf_problem *p;
        ENSURE(rf_problem_create(&p, NULL) == RF_OK);
        ENSURE(begin(p) == 0);
        ENSURE(set_batches(p, g_con, sizes, 3) == 0);
        ENSURE(solve(p, apgd, g) == 0);
        ENSURE(same(g, ref));
        /* a reused handle, the batches in reverse order of position */
        ENSURE(begin(p) == 0);
        int first = NC;
        for (int k = 3; k >= 0; --k) {
            const int n = k < 3 ? sizes[k] : NC - 72;
            first -= n;
            ENSURE(rf_problem_set_contacts(p, first, n, g_con + first, NULL) ==
                   RF_OK);
        }
        ENSURE(first == 0);
        ENSURE(solve(p, apgd, g) == 0);
        ENSURE(same(g, ref));
        rf_problem_destroy(p);
    }
    printf("  %d contacts (%d with RF_CONTACT_ROLL_T1, %d compliant, %d "
           "cohesive, %d capped): batches and singles give the same bits\n",
           NC, roll_t1, compliant, cohesive, capped);

    /* The comparison sees every field: change one field of the most
       loaded contact between two bodies (a lever arm on the world's side
       would not matter) with rolling and spinning friction, and the bits
       change. */
    ENSURE(reference(g_con, 0, ref) == 0);
    int m = -1;
    for (int i = 0; i < NC; ++i) {
        if (g_con[i].body_b != RF_WORLD && g_con[i].rho > 0.0 &&
            g_con[i].sigma > 0.0 && g_con[i].normal_max == 0.0 &&
            (m < 0 || ref[6 * i] > ref[6 * m])) {
            m = i;
        }
    }
    ENSURE(m >= 0 && ref[6 * m] > 0.0);
    const double gn = ref[6 * m];
    enum { NFIELD = 14 };
    static const char *field[NFIELD] = {
        "body_a", "body_b",   "frame",      "r_a",       "r_b",
        "mu",     "rho",      "sigma",      "bias[0]",   "bias[4]",
        "flags",  "cohesion", "compliance", "normal_max"};
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(begin(p) == 0);
    ENSURE(set_singles(p, g_con, 0, NC) == 0);
    for (int f = 0; f < NFIELD; ++f) {
        rf_contact_desc c = g_con[m];
        switch (f) {
        case 0:
            c.body_a = (c.body_a + 1) % NB;
            c.body_a = c.body_a == c.body_b ? (c.body_a + 1) % NB : c.body_a;
            break;
        case 1: c.body_b = RF_WORLD; break;
        case 2: /* (n, t2, -t1): the same normal, turned tangents */
            for (int k = 0; k < 3; ++k) {
                c.t1[k] = g_con[m].t2[k];
                c.t2[k] = -g_con[m].t1[k];
            }
            break;
        case 3: c.r_a[0] += 0.1; break;
        case 4: c.r_b[1] += 0.1; break;
        case 5: c.mu = 0.0; break;
        case 6: c.rho = 0.0; break;
        case 7: c.sigma = 0.0; break;
        case 8: c.bias[0] -= 0.1; break;
        case 9: c.bias[4] += 0.1; break;
        case 10: c.flags ^= RF_CONTACT_ROLL_T1; break;
        case 11: c.cohesion += 0.5 * gn; break;
        case 12: c.compliance[0] += 0.05; break;
        default: c.normal_max = 0.5 * gn; break;
        }
        ENSURE(rf_problem_set_contacts(p, m, 1, &c, NULL) == RF_OK);
        ENSURE(solve(p, 0, g) == 0);
        if (same(g, ref)) {
            fprintf(stderr, "  changing %s of contact %d left the bits\n",
                    field[f], m);
        }
        ENSURE(!same(g, ref));
        ENSURE(rf_problem_set_contacts(p, m, 1, &g_con[m], NULL) == RF_OK);
    }
    ENSURE(solve(p, 0, g) == 0);
    ENSURE(same(g, ref)); /* restored */
    rf_problem_destroy(p);
    printf("  each of %d fields of contact %d changes the bits\n", NFIELD, m);
    return 0;
}

/* solved_velocity answers for the last solve (g, as body_velocity to
   rounding) or refuses (want RF_ERR_STATE). */
static int solved_velocity(rf_problem *p, const double *g, rf_status want)
{
    static double v[3 * NB], w[3 * NB], bv[3 * NB], bw[3 * NB];
    rf_error err;
    const rf_status st = rf_problem_solved_velocity(p, v, w, &err);
    ENSURE(st == want);
    if (want != RF_OK) {
        ENSURE(strstr(err.message, "rf_problem_solved_velocity") != NULL);
        return 0;
    }
    ENSURE(rf_problem_body_velocity(p, g, bv, bw, NULL) == RF_OK);
    for (int k = 0; k < 3 * NB; ++k) {
        ENSURE_SMALL(v[k] - bv[k], 1e-9 * (1.0 + fabs(bv[k])));
        ENSURE_SMALL(w[k] - bw[k], 1e-9 * (1.0 + fabs(bw[k])));
    }
    return 0;
}

/* 2 */
static int test_concurrent_ranges(void)
{
    static double ref[NG], ref_rigid[NG], g[NG];
    ENSURE(reference(g_con, 0, ref) == 0);
    ENSURE(reference(g_rigid, 0, ref_rigid) == 0);
    ENSURE(!same(ref, ref_rigid)); /* compliance matters */
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(begin(p) == 0);
    /* no compliance array yet: rigid contacts only */
    ENSURE(set_parallel(p, g_rigid) == 0);
    ENSURE(solve(p, 0, g) == 0);
    ENSURE(same(g, ref_rigid));
    ENSURE(rf_problem_add_compliance(p, g_comp, NULL) == RF_OK);
    ENSURE(solve(p, 0, g) == 0);
    ENSURE(same(g, ref));
    /* the handle now holds a compliance array (rf_problem_begin_bodies
       keeps it, zeroed): compliant contacts may be set concurrently */
    ENSURE(begin(p) == 0);
    ENSURE(set_parallel(p, g_con) == 0);
    ENSURE(solve(p, 0, g) == 0);
    ENSURE(same(g, ref));

    /* rf_problem_solved_velocity: every set_contacts call after the solve
       makes it refuse, until the next solve */
    ENSURE(solved_velocity(p, g, RF_OK) == 0);
    ENSURE(set_parallel(p, g_con) == 0); /* 4 threads, the same data */
    ENSURE(solved_velocity(p, g, RF_ERR_STATE) == 0);
    ENSURE(solve(p, 0, g) == 0);
    ENSURE(same(g, ref));
    ENSURE(solved_velocity(p, g, RF_OK) == 0);
    ENSURE(rf_problem_set_contacts(p, 123, 1, &g_con[123], NULL) == RF_OK);
    ENSURE(solved_velocity(p, g, RF_ERR_STATE) == 0);
    ENSURE(solve(p, 0, g) == 0);
    ENSURE(same(g, ref));
    ENSURE(solved_velocity(p, g, RF_OK) == 0);
    ENSURE(rf_problem_set_contacts(p, 0, 0, g_con, NULL) == RF_OK);
    ENSURE(solved_velocity(p, g, RF_ERR_STATE) == 0);
    ENSURE(solve(p, 0, g) == 0);
    ENSURE(solved_velocity(p, g, RF_OK) == 0);
    ENSURE(rf_problem_set_contacts(p, 0, -1, g_con, NULL) == RF_ERR_INVALID);
    ENSURE(solved_velocity(p, g, RF_ERR_STATE) == 0);
    ENSURE(solve(p, 0, g) == 0);
    ENSURE(solved_velocity(p, g, RF_OK) == 0);
    ENSURE(rf_problem_set_contacts(p, NC, 1, g_con, NULL) == RF_ERR_RANGE);
    ENSURE(solved_velocity(p, g, RF_ERR_STATE) == 0);
    /* a NULL description is refused, and counts as a change too (the
       solved_velocity doc: "failed ones included"), for the contact, body
       and compliance setters alike */
    ENSURE(solve(p, 0, g) == 0);
    ENSURE(rf_problem_set_contacts(p, 0, 1, NULL, NULL) == RF_ERR_NULL);
    ENSURE(solved_velocity(p, g, RF_ERR_STATE) == 0);
    ENSURE(solve(p, 0, g) == 0);
    ENSURE(rf_problem_set_body(p, 0, NULL, NULL) == RF_ERR_NULL);
    ENSURE(solved_velocity(p, g, RF_ERR_STATE) == 0);
    ENSURE(solve(p, 0, g) == 0);
    ENSURE(rf_problem_add_compliance(p, NULL, NULL) == RF_ERR_NULL);
    ENSURE(solved_velocity(p, g, RF_ERR_STATE) == 0);
    ENSURE(solve(p, 0, g) == 0);
    ENSURE(same(g, ref)); /* the failed calls changed nothing */
    rf_problem_destroy(p);
#ifdef _OPENMP
    printf("  %d OpenMP threads, batches of 16: the bits of the singles\n",
           g_team);
#else
    printf("  no OpenMP: the batches were set serially\n");
#endif
    return 0;
}

/* A fresh problem with every body and every contact but [lo, hi) set. */
static int all_but(rf_problem **p, int lo, int hi)
{
    ENSURE(rf_problem_create(p, NULL) == RF_OK);
    ENSURE(begin(*p) == 0);
    ENSURE(rf_problem_set_contacts(*p, 0, lo, g_con, NULL) == RF_OK);
    ENSURE(rf_problem_set_contacts(*p, hi, NC - hi, g_con + hi, NULL) == RF_OK);
    return 0;
}

/* A batch of 6 from first whose last (first + 5) is bad: status want,
   the message names it, the 5 before it are set. */
static int bad_sixth(int first, int nan_normal, const double *ref)
{
    static double g[NG];
    rf_problem *p;
    ENSURE(all_but(&p, first, first + 6) == 0);
    rf_contact_desc c[6];
    memcpy(c, g_con + first, sizeof c);
    if (nan_normal) {
        c[5].n[1] = NAN;
    } else {
        c[5].mu = -0.5;
    }
    rf_error err;
    const rf_status want = nan_normal ? RF_ERR_NONFINITE : RF_ERR_INVALID;
    ENSURE(rf_problem_set_contacts(p, first, 6, c, &err) == want);
    ENSURE(err.status == want);
    ENSURE(names(&err, "rf_problem_set_contacts", first + 5) == 0);
    if (!nan_normal) {
        ENSURE(strstr(err.message, "mu") != NULL);
    }
    /* not solvable yet: the bad one is not set */
    ENSURE(rf_solve(p, NULL, g, NULL, &err) == RF_ERR_STATE);
    ENSURE(names(&err, "rf_solve", first + 5) == 0);
    /* fixed and set alone, the problem is complete and as check 1's */
    ENSURE(rf_problem_set_contact(p, first + 5, &g_con[first + 5], NULL) ==
           RF_OK);
    ENSURE(solve(p, 0, g) == 0);
    ENSURE(same(g, ref));
    rf_problem_destroy(p);
    return 0;
}

/* 3 */
static int test_errors(void)
{
    static double ref[NG], g[NG];
    ENSURE(reference(g_con, 0, ref) == 0);
    ENSURE(bad_sixth(40, 1, ref) == 0);
    ENSURE(bad_sixth(200, 0, ref) == 0);

    rf_error err;
    rf_problem *p;
    /* past ncon: the ones before it are set, the message names ncon */
    ENSURE(all_but(&p, NC - 3, NC) == 0);
    ENSURE(rf_problem_set_contacts(p, NC - 3, 5, g_con + NC - 3, &err) ==
           RF_ERR_RANGE);
    ENSURE(err.status == RF_ERR_RANGE);
    ENSURE(names(&err, "rf_problem_set_contacts", NC) == 0);
    ENSURE(solve(p, 0, g) == 0);
    ENSURE(same(g, ref));
    ENSURE(rf_problem_set_contacts(p, -1, 2, g_con, &err) == RF_ERR_RANGE);
    ENSURE(names(&err, "rf_problem_set_contacts", -1) == 0);
    ENSURE(rf_problem_set_contacts(p, NC + 5, 1, g_con, &err) == RF_ERR_RANGE);
    ENSURE(names(&err, "rf_problem_set_contacts", NC + 5) == 0);
    /* negative count, NULL */
    ENSURE(rf_problem_set_contacts(p, 0, -1, g_con, &err) == RF_ERR_INVALID);
    ENSURE(err.status == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "rf_problem_set_contacts: ") == err.message);
    ENSURE(rf_problem_set_contacts(p, 0, 1, NULL, &err) == RF_ERR_NULL);
    ENSURE(err.status == RF_ERR_NULL);
    ENSURE(strstr(err.message, "rf_problem_set_contacts: ") == err.message);
    ENSURE(rf_problem_set_contacts(NULL, 0, 1, g_con, &err) == RF_ERR_NULL);
    ENSURE(strstr(err.message, "rf_problem_set_contacts: ") == err.message);
    ENSURE(rf_problem_set_contacts(NULL, 0, 1, g_con, NULL) == RF_ERR_NULL);
    /* none of that touched the contacts */
    ENSURE(solve(p, 0, g) == 0);
    ENSURE(same(g, ref));
    /* the single setter still names itself */
    rf_contact_desc bad = g_con[7];
    bad.sigma = -1.0;
    ENSURE(rf_problem_set_contact(p, 7, &bad, &err) == RF_ERR_INVALID);
    ENSURE(names(&err, "rf_problem_set_contact", 7) == 0);
    ENSURE(strstr(err.message, "rf_problem_set_contacts") == NULL);
    rf_problem_destroy(p);

    /* not in body form: fresh, then local form */
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(rf_problem_set_contacts(p, 0, 1, g_con, &err) == RF_ERR_STATE);
    ENSURE(err.status == RF_ERR_STATE);
    ENSURE(strstr(err.message, "rf_problem_set_contacts: ") == err.message);
    double W[36] = {0}, q[6] = {0}, mu = 0.5, rho = 0.0, sigma = 0.0;
    for (int k = 0; k < 6; ++k) {
        W[7 * k] = 1.0;
    }
    ENSURE(rf_problem_set_local_dense(p, 1, W, q, &mu, &rho, &sigma, NULL) ==
           RF_OK);
    rf_contact_desc c = g_con[0];
    c.body_a = 0;
    c.body_b = RF_WORLD;
    ENSURE(rf_problem_set_contacts(p, 0, 1, &c, &err) == RF_ERR_STATE);
    ENSURE(err.status == RF_ERR_STATE);
    ENSURE(strstr(err.message, "rf_problem_set_contacts: ") == err.message);
    ENSURE(rf_problem_set_contacts(p, 0, 0, &c, &err) == RF_ERR_STATE);
    rf_problem_destroy(p);
    return 0;
}

/* 4 */
/* The same description put into contact i's columns and committed gets
   the verdict the set call just gave (status set_st, message set_err),
   word for word after the function's name: the commit's own fast check
   (column_plain) against the setter's (contact_values_plain).  A
   compliance is not in the columns: committed, it is no verdict at all
   (RF_OK).  Leaves contact i set to c or unset. */
static int commit_agrees(rf_problem *p, int i, const rf_contact_desc *c,
                         rf_status set_st, const rf_error *set_err,
                         int compliance_only)
{
    rf_contact_columns col;
    rf_error err;
    ENSURE(rf_problem_contact_columns(p, &col, NULL) == RF_OK);
    rf_contact_columns_put(&col, i, c);
    const rf_status st = rf_problem_commit_contacts(p, i, 1, &err);
    if (compliance_only) {
        ENSURE(st == RF_OK);
        return 0;
    }
    ENSURE(st == set_st);
    if (st != RF_OK) {
        ENSURE(strstr(err.message, "rf_problem_commit_contacts: ") ==
               err.message);
        ENSURE(strcmp(strchr(err.message, ':'),
                      strchr(set_err->message, ':')) == 0);
    }
    return 0;
}

#define FIELD(f, nonneg, name)                                                 \
    {                                                                          \
        offsetof(rf_contact_desc, f), nonneg, name                             \
    }
static int test_each_value(void)
{
    static double ref[NG], g[NG];
    ENSURE(reference(g_con, 0, ref) == 0);
    /* every double of the description: its offset, whether it must be
       >= 0, and the name the message gives for a negative one */
    struct field {
        size_t off;
        int nonneg;
        const char *name;
    } fields[32];
    int nf = 0;
    static const char *cname[6] = {"compliance[0]", "compliance[1]",
                                   "compliance[2]", "compliance[3]",
                                   "compliance[4]", "compliance[5]"};
    for (int k = 0; k < 3; ++k) {
        fields[nf++] = (struct field)FIELD(n[k], 0, NULL);
        fields[nf++] = (struct field)FIELD(t1[k], 0, NULL);
        fields[nf++] = (struct field)FIELD(t2[k], 0, NULL);
        fields[nf++] = (struct field)FIELD(r_a[k], 0, NULL);
        fields[nf++] = (struct field)FIELD(r_b[k], 0, NULL);
    }
    for (int k = 0; k < 6; ++k) {
        fields[nf++] = (struct field)FIELD(bias[k], 0, NULL);
        fields[nf++] = (struct field){offsetof(rf_contact_desc, compliance) +
                                          (size_t)k * sizeof(double),
                                      1, cname[k]};
    }
    fields[nf++] = (struct field)FIELD(mu, 1, "mu");
    fields[nf++] = (struct field)FIELD(rho, 1, "rho");
    fields[nf++] = (struct field)FIELD(sigma, 1, "sigma");
    fields[nf++] = (struct field)FIELD(cohesion, 1, "cohesion");
    fields[nf++] = (struct field)FIELD(normal_max, 1, "normal_max");
    ENSURE(nf == 32);
    /* the 32 cover every double of the struct (no field forgotten) */
    ENSURE(sizeof(rf_contact_desc) ==
           32 * sizeof(double) + 3 * sizeof(int) + sizeof(int) /* pad */);

    rf_problem *p;
    rf_error err;
    ENSURE(all_but(&p, 0, 0) == 0);
    const int i = 11;
    const double bad[3] = {NAN, INFINITY, -INFINITY};
    rf_status st;
    for (int f = 0; f < nf; ++f) {
        /* each verdict twice: set, and written in place and committed */
        const int comp =
            fields[f].off >= offsetof(rf_contact_desc, compliance) &&
            fields[f].off < offsetof(rf_contact_desc, compliance) +
                                sizeof g_con[0].compliance;
        for (int v = 0; v < 3; ++v) {
            rf_contact_desc c = g_con[i];
            memcpy((unsigned char *)&c + fields[f].off, &bad[v],
                   sizeof(double));
            ENSURE((st = rf_problem_set_contacts(p, i, 1, &c, &err)) ==
                   RF_ERR_NONFINITE);
            ENSURE(names(&err, "rf_problem_set_contacts", i) == 0);
            ENSURE(commit_agrees(p, i, &c, st, &err, comp) == 0);
        }
        rf_contact_desc c = g_con[i];
        double *x = (double *)((unsigned char *)&c + fields[f].off);
        if (fields[f].nonneg) {
            *x = -1.0;
            ENSURE((st = rf_problem_set_contacts(p, i, 1, &c, &err)) ==
                   RF_ERR_INVALID);
            ENSURE(strstr(err.message, fields[f].name) != NULL);
            ENSURE(commit_agrees(p, i, &c, st, &err, comp) == 0);
            *x = -0.0; /* >= 0 */
            ENSURE((st = rf_problem_set_contacts(p, i, 1, &c, &err)) == RF_OK);
            ENSURE(commit_agrees(p, i, &c, st, &err, comp) == 0);
        } else if (fields[f].off >= offsetof(rf_contact_desc, bias)) {
            *x = -1e300; /* a bias may be anything finite */
            ENSURE((st = rf_problem_set_contacts(p, i, 1, &c, &err)) == RF_OK);
            ENSURE(commit_agrees(p, i, &c, st, &err, comp) == 0);
        } else if (fields[f].off < offsetof(rf_contact_desc, r_a)) {
            *x += 1e-5; /* the frame: no longer orthonormal */
            ENSURE((st = rf_problem_set_contacts(p, i, 1, &c, &err)) ==
                   RF_ERR_INVALID);
            ENSURE(strstr(err.message, "orthonormal") != NULL);
            ENSURE(commit_agrees(p, i, &c, st, &err, comp) == 0);
        }
    }
    /* put back: the refused values left nothing behind */
    ENSURE(rf_problem_set_contact(p, i, &g_con[i], NULL) == RF_OK);
    ENSURE(solve(p, 0, g) == 0);
    ENSURE(same(g, ref));
    rf_problem_destroy(p);
    return 0;
}
#undef FIELD

/* 5 */
/* contacts first .. first + n - 1 of c written in place and committed */
static rf_status commit_batch(rf_problem *p, int first, int n,
                              const rf_contact_desc *c)
{
    rf_contact_columns col;
    rf_error err;
    rf_status st = rf_problem_contact_columns(p, &col, &err);
    for (int i = first; st == RF_OK && i < first + n; ++i) {
        rf_contact_columns_put(&col, i, c + i);
    }
    return st == RF_OK ? rf_problem_commit_contacts(p, first, n, &err) : st;
}

/* 0 when contact i of the columns holds c's values, each read where
   rollfric.h says it lies (the setters and rf_contact_columns_put share
   one copy, so the bit checks below cannot see a field put in the wrong
   place: this does) */
static int columns_hold(const rf_contact_columns *col, int i,
                        const rf_contact_desc *c)
{
    ENSURE(col->body[2 * i] == c->body_a && col->body[2 * i + 1] == c->body_b);
    for (int k = 0; k < 3; ++k) {
        ENSURE(col->frame[9 * i + k] == c->n[k]);
        ENSURE(col->frame[9 * i + 3 + k] == c->t1[k]);
        ENSURE(col->frame[9 * i + 6 + k] == c->t2[k]);
        ENSURE(col->arm[6 * i + k] == c->r_a[k]);
        ENSURE(col->arm[6 * i + 3 + k] == c->r_b[k]);
    }
    for (int k = 0; k < 6; ++k) {
        ENSURE(col->bias[6 * i + k] == c->bias[k]);
    }
    ENSURE(col->mu[i] == c->mu && col->rho[i] == c->rho);
    ENSURE(col->sigma[i] == c->sigma && col->flags[i] == c->flags);
    ENSURE(col->cohesion[i] == c->cohesion);
    ENSURE(col->normal_max[i] == c->normal_max);
    return 0;
}

/* p begun with NB bodies and ncon slots; contacts [0, NC) of c written
   in place and committed in ranges of 16 by 4 threads */
static int commit_parallel(rf_problem *p, const rf_contact_desc *c, int ncon)
{
    ENSURE(rf_problem_begin_bodies(p, NB, ncon, NULL) == RF_OK);
    for (int b = 0; b < NB; ++b) {
        ENSURE(rf_problem_set_body(p, b, &g_body[b], NULL) == RF_OK);
    }
    return in_batches(p, c, commit_batch);
}

static int test_columns(void)
{
    static double ref[NG], ref_rigid[NG], g[NG];
    ENSURE(reference(g_con, 0, ref) == 0);
    ENSURE(reference(g_rigid, 0, ref_rigid) == 0);
    rf_problem *p;
    rf_error err;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    /* not yet in body form */
    rf_contact_columns col;
    ENSURE(rf_problem_contact_columns(p, &col, &err) == RF_ERR_STATE);
    ENSURE(strstr(err.message, "rf_problem_contact_columns: ") == err.message);
    ENSURE(rf_problem_commit_contacts(p, 0, 1, &err) == RF_ERR_STATE);
    ENSURE(rf_problem_truncate_contacts(p, 0, &err) == RF_ERR_STATE);
    ENSURE(rf_problem_contact_columns(NULL, &col, &err) == RF_ERR_NULL);
    ENSURE(rf_problem_commit_contacts(NULL, 0, 1, &err) == RF_ERR_NULL);
    ENSURE(rf_problem_truncate_contacts(NULL, 0, &err) == RF_ERR_NULL);

    /* in place, then the compliance added: check 1's bits */
    ENSURE(commit_parallel(p, g_rigid, NC) == 0);
    ENSURE(solve(p, 0, g) == 0);
    ENSURE(same(g, ref_rigid));
    ENSURE(rf_problem_add_compliance(p, g_comp, NULL) == RF_OK);
    ENSURE(solve(p, 0, g) == 0);
    ENSURE(same(g, ref));
    ENSURE(solve(p, 1, g) == 0); /* APGD too */
    static double ref_apgd[NG];
    ENSURE(reference(g_con, 1, ref_apgd) == 0);
    ENSURE(same(g, ref_apgd));
    /* the handle holds a compliance array now: set it non-zero, then
       write the rigid contacts in place again: committed, rigid */
    ENSURE(begin(p) == 0);
    ENSURE(set_singles(p, g_con, 0, NC) == 0);
    ENSURE(rf_problem_contact_columns(p, &col, NULL) == RF_OK);
    for (int i = 0; i < NC; ++i) {
        ENSURE(columns_hold(&col, i, &g_con[i]) == 0); /* set one by one */
        rf_contact_columns_put(&col, i, &g_rigid[i]);
        ENSURE(columns_hold(&col, i, &g_rigid[i]) == 0);
    }
    ENSURE(rf_problem_commit_contacts(p, 0, NC, NULL) == RF_OK);
    ENSURE(solve(p, 0, g) == 0);
    ENSURE(same(g, ref_rigid));

    /* 40 spare slots, truncated: the same problem */
    ENSURE(commit_parallel(p, g_rigid, NC + 40) == 0);
    ENSURE(rf_solve(p, NULL, g, NULL, &err) == RF_ERR_STATE); /* unset */
    ENSURE(names(&err, "rf_solve", NC) == 0);
    ENSURE(rf_problem_truncate_contacts(p, NC + 41, &err) == RF_ERR_RANGE);
    ENSURE(rf_problem_truncate_contacts(p, -1, &err) == RF_ERR_RANGE);
    ENSURE(rf_problem_truncate_contacts(p, NC, &err) == RF_OK);
    ENSURE(solve(p, 0, g) == 0);
    ENSURE(same(g, ref_rigid));

    /* a bad value at first + 5: named, the five before set, the rest of
       the range unset although it was set */
    for (int bad = 0; bad < 3; ++bad) {
        const int first = 100;
        ENSURE(commit_parallel(p, g_rigid, NC) == 0);
        ENSURE(rf_problem_contact_columns(p, &col, NULL) == RF_OK);
        rf_contact_desc c = g_rigid[first + 5];
        rf_status want = RF_ERR_NONFINITE;
        if (bad == 0) {
            c.bias[4] = NAN;
        } else if (bad == 1) {
            c.sigma = -0.5;
            want = RF_ERR_INVALID;
        } else {
            c.body_b = NB; /* out of range */
            want = RF_ERR_RANGE;
        }
        rf_contact_columns_put(&col, first + 5, &c);
        ENSURE(rf_problem_commit_contacts(p, first, 8, &err) == want);
        ENSURE(err.status == want);
        ENSURE(names(&err, "rf_problem_commit_contacts", first + 5) == 0);
        if (bad == 1) {
            ENSURE(strstr(err.message, "sigma") != NULL);
        }
        ENSURE(rf_solve(p, NULL, g, NULL, &err) == RF_ERR_STATE);
        ENSURE(names(&err, "rf_solve", first + 5) == 0);
        /* fixed: the last two of the range are unset too */
        rf_contact_columns_put(&col, first + 5, &g_rigid[first + 5]);
        ENSURE(rf_problem_commit_contacts(p, first + 5, 1, NULL) == RF_OK);
        ENSURE(rf_solve(p, NULL, g, NULL, &err) == RF_ERR_STATE);
        ENSURE(names(&err, "rf_solve", first + 6) == 0);
        ENSURE(rf_problem_commit_contacts(p, first + 6, 2, NULL) == RF_OK);
        ENSURE(solve(p, 0, g) == 0);
        ENSURE(same(g, ref_rigid));
    }
    /* a set contact's columns written again, not committed: a body index
       out of range is refused by the solve (it would be read out of
       bounds), not read; recommitted, the contact is solved again */
    ENSURE(rf_problem_contact_columns(p, &col, NULL) == RF_OK);
    for (int s = 0; s < 2; ++s) {
        const int keep = col.body[2 * 7 + s];
        col.body[2 * 7 + s] = s == 0 ? -5 : NB + 100000;
        ENSURE(rf_solve(p, NULL, g, NULL, &err) == RF_ERR_RANGE);
        ENSURE(names(&err, "rf_solve", 7) == 0);
        ENSURE(strstr(err.message, s == 0 ? "body_a = -5" : "body_b") != NULL);
        col.body[2 * 7 + s] = keep;
    }
    ENSURE(rf_problem_commit_contacts(p, 7, 1, NULL) == RF_OK);
    ENSURE(solve(p, 0, g) == 0);
    ENSURE(same(g, ref_rigid));
    /* ranges and counts */
    ENSURE(rf_problem_commit_contacts(p, NC - 2, 4, &err) == RF_ERR_RANGE);
    ENSURE(names(&err, "rf_problem_commit_contacts", NC) == 0);
    ENSURE(rf_problem_commit_contacts(p, -1, 2, &err) == RF_ERR_RANGE);
    ENSURE(rf_problem_commit_contacts(p, 0, -1, &err) == RF_ERR_INVALID);
    ENSURE(rf_problem_commit_contacts(p, 0, 0, &err) == RF_OK);
    rf_problem_destroy(p);
    return 0;
}

int main(void)
{
    make_scene(2024);
    RUN_TEST(test_batch_equals_singles);
    RUN_TEST(test_concurrent_ranges);
    RUN_TEST(test_errors);
    RUN_TEST(test_each_value);
    RUN_TEST(test_columns);
    return TEST_SUMMARY();
}
