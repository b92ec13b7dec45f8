/*
 * Determinism: identical inputs give bitwise identical results
 *   - for cfg.threads = 1, 2 and 4, with a fixed iteration count (tol = 0)
 *     and with a tolerance (tol > 0: then the stop iteration depends on
 *     every residual on the way, so it must match too), for Jacobi and
 *     APGD (docs/model.md's "bitwise identical for any thread count") and
 *     coloured Gauss-Seidel (documented as deterministic too), in body
 *     form with and without joint rows, and in local form; and SI with
 *     contacts and joint rows (one thread builds no body index);
 *   - run to run with every solver: two fresh problem handles, and a
 *     handle reused after another solve (work memory left from an earlier
 *     solve must not leak into a result).
 * "Bitwise" means memcmp of gamma, of the body velocities after each step
 * and of the stats (iterations, residual, converged, energy_change,
 * energy_scale, colours): one flipped last bit anywhere fails.  That is
 * exactly what a data race, or a sum whose order follows the thread
 * count (a reduction clause, an atomic add), produces.
 *
 * The problems are random "piles" sized so that every parallel loop of
 * the core really splits: the loops run serially below 512 bodies or
 * contacts, 2048 rows, 3072 local rows and 3 reduction blocks of 256
 * items (plugin/jacobian.c, residual.c, solver_*.c); here NB = 600
 * bodies, 1800 contacts and, with joints, 2400 rows.  A short
 * "trajectory" of STEPS solves feeds each step's body velocities
 * (rf_problem_body_velocity, plus gravity) back as the next step's free
 * velocities and warm-starts from the previous gamma, so a difference in
 * one step would carry on into the next ones instead of hiding.
 */
#include "problem_gen.h"

#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif

enum { NB = 600, STEPS = 2, KINEMATIC = 5 };

static const rf_solver_kind SOLVERS[] = {RF_SOLVER_JACOBI, RF_SOLVER_GS,
                                         RF_SOLVER_GS_COLORED, RF_SOLVER_APGD};
static const char *SOLVER_NAMES[] = {"jacobi", "gs", "gs-colored", "apgd"};
static const char *MODEL_NAMES[] = {"associated", "desaxce"};
static const int THREADS[] = {1, 2, 4};

/* The input of a trajectory: every body, contact and row description. */
typedef struct scene {
    int nb, nc, nr;
    rf_body_desc *bodies;
    rf_contact_desc *contacts;
    rf_row_desc *rows;
} scene;

static void scene_free(scene *s)
{
    free(s->bodies);
    free(s->contacts);
    free(s->rows);
}

/* A pile: body KINEMATIC is a moving fixed body (a conveyor); each body
   has one contact with the world (with body 0 for the kinematic one, as a
   contact between two fixed bodies is refused) and two with random other
   bodies; one contact in five has anisotropic rolling (RF_CONTACT_ROLL_T1).
   With rows, each body a also has four rows with body a + 1: a compliant
   bilateral row, a unilateral one (limit), a box-bounded one (motor) and
   one friction-bounded by the motor row. */
static void scene_make(rf_rng *r, int with_rows, scene *s)
{
    s->nb = NB;
    s->nc = 3 * NB;
    s->nr = with_rows ? 4 * NB : 0;
    s->bodies = calloc((size_t)s->nb, sizeof *s->bodies);
    s->contacts = calloc((size_t)s->nc, sizeof *s->contacts);
    s->rows = calloc((size_t)(s->nr > 0 ? s->nr : 1), sizeof *s->rows);
    for (int b = 0; b < s->nb; ++b) {
        gen_body(r, &s->bodies[b], NULL);
        s->bodies[b].v[1] -= 0.5; /* falling onto the others */
    }
    s->bodies[KINEMATIC].flags = RF_BODY_FIXED;
    for (int i = 0; i < s->nc; ++i) {
        int a = i / 3, b;
        if (i % 3 == 0) {
            b = a == KINEMATIC ? 0 : RF_WORLD;
        } else {
            b = (a + 1 + (int)(rf_rng_uniform(r) * (s->nb - 1))) % s->nb;
        }
        rf_contact_desc *c = &s->contacts[i];
        gen_contact(r, a, b, c);
        c->bias[0] = rf_rng_range(r, -0.2, 0.1);
        if (i % 5 == 4) {
            c->flags = RF_CONTACT_ROLL_T1;
        }
    }
    for (int j = 0; j < s->nr; ++j) {
        const int a = j / 4, b = (a + 1) % s->nb;
        rf_row_desc *w = &s->rows[j];
        memset(w, 0, sizeof *w);
        w->body_a = a;
        w->body_b = b;
        for (int k = 0; k < 3; ++k) {
            w->lin_a[k] = rf_rng_range(r, -1, 1);
            w->ang_a[k] = rf_rng_range(r, -0.5, 0.5);
            w->lin_b[k] = -w->lin_a[k];
            w->ang_b[k] = rf_rng_range(r, -0.5, 0.5);
        }
        w->bias = rf_rng_range(r, -0.2, 0.2);
        w->bound_row = -1;
        switch (j % 4) {
        case 0: /* bilateral, compliant */
            w->lo = -INFINITY;
            w->hi = INFINITY;
            w->cfm = rf_rng_range(r, 1e-3, 1e-2);
            break;
        case 1: /* limit */
            w->lo = 0.0;
            w->hi = INFINITY;
            break;
        case 2: /* motor with a maximum impulse */
            w->lo = -0.3;
            w->hi = 0.3;
            break;
        default: /* friction-bounded by the motor row (same two bodies) */
            w->bound_row = j - 1;
            w->bound_coef = 0.4;
            break;
        }
    }
}

/* Load s into p, with the free velocities of `bodies` (the trajectory's
   current state). */
static rf_status scene_load(const scene *s, const rf_body_desc *bodies,
                            rf_problem *p)
{
    rf_error err;
    rf_status st = rf_problem_begin_bodies(p, s->nb, s->nc, &err);
    for (int b = 0; st == RF_OK && b < s->nb; ++b) {
        st = rf_problem_set_body(p, b, &bodies[b], &err);
    }
    for (int i = 0; st == RF_OK && i < s->nc; ++i) {
        st = rf_problem_set_contact(p, i, &s->contacts[i], &err);
    }
    if (st == RF_OK && s->nr > 0) {
        st = rf_problem_begin_rows(p, s->nr, &err);
    }
    for (int j = 0; st == RF_OK && j < s->nr; ++j) {
        st = rf_problem_set_row(p, j, &s->rows[j], &err);
    }
    if (st != RF_OK) {
        fprintf(stderr, "scene_load: %s\n", err.message);
    }
    return st;
}

/* What a trajectory produced: gamma and the body velocities after every
   step, and the stats of every solve. */
typedef struct run_out {
    size_t ndof;
    double *gamma; /* STEPS x ndof */
    double *vel;   /* STEPS x 6 nb: v then w */
    int iterations[STEPS], converged[STEPS], colors[STEPS];
    double residual[STEPS], energy_change[STEPS], energy_scale[STEPS];
} run_out;

static void run_free(run_out *o)
{
    free(o->gamma);
    free(o->vel);
}

/* STEPS solves of s on p with cfg: warm start from the previous step's
   gamma, the next free velocities are this step's velocities plus
   gravity.  Returns 0 on success. */
static int run_trajectory(const scene *s, rf_problem *p, const rf_config *cfg,
                          run_out *o)
{
    const size_t ndof = (size_t)(6 * s->nc + s->nr), nb = (size_t)s->nb;
    memset(o, 0, sizeof *o);
    o->ndof = ndof;
    o->gamma = calloc(STEPS * ndof, sizeof(double));
    o->vel = calloc(STEPS * 6 * nb, sizeof(double));
    rf_body_desc *bodies = malloc(nb * sizeof *bodies);
    double *g = calloc(ndof, sizeof(double));
    double *v = malloc(3 * nb * sizeof(double));
    double *w = malloc(3 * nb * sizeof(double));
    ENSURE(o->gamma && o->vel && bodies && g && v && w);
    memcpy(bodies, s->bodies, nb * sizeof *bodies);
    for (int step = 0; step < STEPS; ++step) {
        ENSURE(scene_load(s, bodies, p) == RF_OK);
        rf_stats st;
        rf_error err;
        if (rf_solve(p, cfg, g, &st, &err) != RF_OK) {
            fprintf(stderr, "rf_solve: %s\n", err.message);
            return 1;
        }
        ENSURE(rf_problem_body_velocity(p, g, v, w, NULL) == RF_OK);
        memcpy(o->gamma + step * ndof, g, ndof * sizeof(double));
        memcpy(o->vel + step * 6 * nb, v, 3 * nb * sizeof(double));
        memcpy(o->vel + step * 6 * nb + 3 * nb, w, 3 * nb * sizeof(double));
        o->iterations[step] = st.iterations;
        o->converged[step] = st.converged;
        o->colors[step] = st.colors;
        o->residual[step] = st.residual;
        o->energy_change[step] = st.energy_change;
        o->energy_scale[step] = st.energy_scale;
        for (size_t b = 0; b < nb; ++b) {
            if (bodies[b].flags & RF_BODY_FIXED) {
                continue;
            }
            memcpy(bodies[b].v, v + 3 * b, sizeof bodies[b].v);
            memcpy(bodies[b].w, w + 3 * b, sizeof bodies[b].w);
            bodies[b].v[1] -= 9.81 * 0.01; /* h = 10 ms */
        }
    }
    free(bodies);
    free(g);
    free(v);
    free(w);
    return 0;
}

/* First index where two double arrays differ in their bits, or -1. */
static long first_diff(const double *a, const double *b, size_t n)
{
    for (size_t k = 0; k < n; ++k) {
        if (memcmp(a + k, b + k, sizeof(double)) != 0) {
            return (long)k;
        }
    }
    return -1;
}

/* Bitwise equality of two runs; on a difference, say where (for the
   report: which step, which entry, by how much). */
static int runs_equal(const run_out *a, const run_out *b, int nb,
                      const char *what)
{
    const size_t ng = STEPS * a->ndof, nv = (size_t)STEPS * 6 * nb;
    long kg = first_diff(a->gamma, b->gamma, ng);
    long kv = first_diff(a->vel, b->vel, nv);
    if (kg >= 0) {
        fprintf(stderr,
                "  %s: gamma differs first at step %ld entry %ld: "
                "%.17g vs %.17g\n",
                what, kg / (long)a->ndof, kg % (long)a->ndof, a->gamma[kg],
                b->gamma[kg]);
    }
    if (kv >= 0) {
        fprintf(stderr,
                "  %s: body velocity differs first at step %ld "
                "entry %ld\n",
                what, kv / (6L * nb), kv % (6L * nb));
    }
    for (int s = 0; s < STEPS; ++s) {
        if (a->iterations[s] != b->iterations[s] ||
            memcmp(&a->residual[s], &b->residual[s], sizeof(double)) != 0) {
            fprintf(stderr,
                    "  %s: step %d: iterations %d vs %d, residual "
                    "%.17g vs %.17g\n",
                    what, s, a->iterations[s], b->iterations[s], a->residual[s],
                    b->residual[s]);
        }
    }
    ENSURE(kg < 0);
    ENSURE(kv < 0);
    ENSURE(memcmp(a->iterations, b->iterations, sizeof a->iterations) == 0);
    ENSURE(memcmp(a->converged, b->converged, sizeof a->converged) == 0);
    ENSURE(memcmp(a->colors, b->colors, sizeof a->colors) == 0);
    ENSURE(memcmp(a->residual, b->residual, sizeof a->residual) == 0);
    ENSURE(memcmp(a->energy_change, b->energy_change,
                  sizeof a->energy_change) == 0);
    ENSURE(memcmp(a->energy_scale, b->energy_scale, sizeof a->energy_scale) ==
           0);
    return 0;
}

static void config(rf_config *cfg, rf_solver_kind solver, rf_model model,
                   double tol, int max_iter, int threads)
{
    rf_config_default(cfg);
    cfg->solver = solver;
    cfg->model = model;
    cfg->tol = tol;
    cfg->max_iter = max_iter;
    cfg->threads = threads;
}

/* Solvers in the thread sweeps: Jacobi and APGD (required), coloured GS
   (also documented as thread-count independent).  Sequential GS only in
   the run-to-run test: its sweep has no parallel part. */
static const int SWEEP[] = {0, 2, 3}; /* indices into SOLVERS */

/* A tolerance that stops the solve part-way: 1.5 times the residual that
   a fixed max_iter / 2 iterations reach on the first step (with 1 thread),
   so the tol > 0 runs exercise the stop rule instead of all running to
   max_iter (the random piles converge too slowly for a fixed tol to do
   that for every solver). */
static int midway_tol(const scene *s, rf_problem *p, rf_solver_kind solver,
                      rf_model model, int max_iter, double *tol)
{
    rf_config cfg;
    config(&cfg, solver, model, 0.0, max_iter / 2, 1);
    run_out o;
    ENSURE(run_trajectory(s, p, &cfg, &o) == 0);
    *tol = 1.5 * o.residual[0];
    run_free(&o);
    ENSURE(*tol > 0.0 && isfinite(*tol));
    return 0;
}

/* Jacobi, coloured GS and APGD, nmodel models, tol = 0 (fixed iteration
   count) or tol > 0 (with_tol: midway_tol): the trajectory with 2 and 4
   threads equals the one with 1 thread bit for bit. */
static int threads_sweep(const scene *s, int with_tol, int max_iter, int nmodel)
{
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    for (size_t k = 0; k < sizeof SWEEP / sizeof SWEEP[0]; ++k) {
        const int si = SWEEP[k];
        for (int model = 0; model < nmodel; ++model) {
            double tol = 0.0;
            if (with_tol) {
                ENSURE(midway_tol(s, p, SOLVERS[si], (rf_model)model, max_iter,
                                  &tol) == 0);
            }
            run_out ref;
            char what[96];
            for (int t = 0; t < 3; ++t) {
                rf_config cfg;
                config(&cfg, SOLVERS[si], (rf_model)model, tol, max_iter,
                       THREADS[t]);
                run_out o;
                ENSURE(run_trajectory(s, p, &cfg, t == 0 ? &ref : &o) == 0);
                if (t == 0) {
                    printf("  %-10s %-10s tol=%.2e rows=%d: it/step %d %d, "
                           "residual %.3e %.3e\n",
                           SOLVER_NAMES[si], MODEL_NAMES[model], tol, s->nr,
                           ref.iterations[0], ref.iterations[1],
                           ref.residual[0], ref.residual[1]);
                    continue;
                }
                snprintf(what, sizeof what, "%s %s tol=%g threads 1 vs %d",
                         SOLVER_NAMES[si], MODEL_NAMES[model], tol, THREADS[t]);
                int rc = runs_equal(&ref, &o, s->nb, what);
                run_free(&o);
                if (rc) {
                    return 1;
                }
            }
            ENSURE(isfinite(ref.residual[STEPS - 1]));
            if (with_tol) {
                /* the stop rule decided at least once (first step) */
                ENSURE(ref.converged[0] && ref.iterations[0] < max_iter);
            } else {
                for (int step = 0; step < STEPS; ++step) {
                    ENSURE(ref.iterations[step] == max_iter);
                }
            }
            run_free(&ref);
        }
    }
    rf_problem_destroy(p);
    return 0;
}

/* Fixed iteration count (tol = 0: no residual per iteration), contacts
   only, both models. */
static int test_threads_fixed_iterations(void)
{
    rf_rng r = {707};
    scene s;
    scene_make(&r, 0, &s);
    int rc = threads_sweep(&s, 0, 20, 2);
    scene_free(&s);
    return rc;
}

/* With a tolerance: the residual is computed every iteration (a parallel
   reduction) and decides when to stop and which iterate is returned. */
static int test_threads_tolerance(void)
{
    rf_rng r = {708};
    scene s;
    scene_make(&r, 0, &s);
    int rc = threads_sweep(&s, 1, 40, 2);
    scene_free(&s);
    return rc;
}

/* Contacts and joint rows together (rows_pass runs in parallel above 2048
   rows; friction-bounded rows read other rows' impulses). */
static int test_threads_rows(void)
{
    rf_rng r = {709};
    scene s;
    scene_make(&r, 1, &s);
    int rc = threads_sweep(&s, 0, 20, 1);
    if (rc == 0) {
        rc = threads_sweep(&s, 1, 40, 1);
    }
    scene_free(&s);
    return rc;
}

/* SI without a residual (as the Bullet shim runs it), contacts and joint
   rows, both models, 10 sweeps: on one thread rf_solve builds no body
   index and the start's body pass sums each body's terms item by item
   (jacobian.c, body_pass_scatter); on 2 and 4 threads it builds the index
   and gathers them in the index's order, which is the same order.  The
   trajectories agree bit for bit, and with the residual asked for (the
   index built on one thread too).  Step 0 starts from gamma = 0, whose
   body pass sums zeros; step 1's warm start is where the two orders
   would differ (summing the items in reverse order fails this test
   there, in gamma and in the body velocities that follow from it). */
static int test_threads_si(void)
{
    rf_rng r = {710};
    scene s;
    scene_make(&r, 1, &s);
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    for (int model = 0; model < 2; ++model) {
        for (int residual = 0; residual < 2; ++residual) {
            run_out ref;
            for (int t = 0; t < 3; ++t) {
                rf_config cfg;
                config(&cfg, RF_SOLVER_SI, (rf_model)model, 0.0, 10,
                       THREADS[t]);
                cfg.residual = residual;
                run_out o;
                ENSURE(run_trajectory(&s, p, &cfg, t == 0 ? &ref : &o) == 0);
                if (t == 0) {
                    printf("  si %-10s residual %d: %d contacts, %d rows, "
                           "energy change %+.6e J\n",
                           MODEL_NAMES[model], residual, s.nc, s.nr,
                           ref.energy_change[0]);
                    continue;
                }
                char what[96];
                snprintf(what, sizeof what, "si %s residual %d threads 1 vs %d",
                         MODEL_NAMES[model], residual, THREADS[t]);
                const int rc = runs_equal(&ref, &o, s.nb, what);
                run_free(&o);
                ENSURE(rc == 0);
            }
            ENSURE(isfinite(ref.energy_change[STEPS - 1]));
            run_free(&ref);
        }
    }
    rf_problem_destroy(p);
    scene_free(&s);
    return 0;
}

/* Local form (the CSR product runs in parallel above 3072 rows): one
   solve per solver and tolerance (tol > 0 tracks the residual every
   iteration even where it does not stop early), 1 vs 2 vs 4 threads. */
static int test_threads_local(void)
{
    rf_rng r = {710};
    scene s;
    scene_make(&r, 0, &s);
    rf_problem *pb, *pl;
    ENSURE(rf_problem_create(&pb, NULL) == RF_OK);
    ENSURE(rf_problem_create(&pl, NULL) == RF_OK);
    ENSURE(scene_load(&s, s.bodies, pb) == RF_OK);
    ENSURE(rf_problem_to_local(pb, pl, NULL) == RF_OK);
    const size_t ndof = (size_t)6 * s.nc;
    double *g[3];
    for (int t = 0; t < 3; ++t) {
        g[t] = malloc(ndof * sizeof(double));
        ENSURE(g[t] != NULL);
    }
    const double tols[2] = {0.0, 1e-4};
    for (size_t n = 0; n < sizeof SWEEP / sizeof SWEEP[0]; ++n) {
        const int si = SWEEP[n];
        for (int k = 0; k < 2; ++k) {
            rf_stats st[3];
            for (int t = 0; t < 3; ++t) {
                rf_config cfg;
                config(&cfg, SOLVERS[si], RF_MODEL_ASSOCIATED, tols[k], 15,
                       THREADS[t]);
                memset(g[t], 0, ndof * sizeof(double));
                ENSURE(rf_solve(pl, &cfg, g[t], &st[t], NULL) == RF_OK);
            }
            for (int t = 1; t < 3; ++t) {
                long d = first_diff(g[0], g[t], ndof);
                if (d >= 0) {
                    fprintf(stderr,
                            "  local %s tol=%g threads 1 vs %d: "
                            "gamma differs first at %ld\n",
                            SOLVER_NAMES[si], tols[k], THREADS[t], d);
                }
                ENSURE(d < 0);
                ENSURE(st[0].iterations == st[t].iterations);
                ENSURE(memcmp(&st[0].residual, &st[t].residual,
                              sizeof(double)) == 0);
                ENSURE(st[0].converged == st[t].converged);
            }
        }
    }
    for (int t = 0; t < 3; ++t) {
        free(g[t]);
    }
    rf_problem_destroy(pb);
    rf_problem_destroy(pl);
    scene_free(&s);
    return 0;
}

/* Run to run, every solver, with joints: two fresh handles, then the
   first handle again after it solved another problem (a different pile)
   in between, with threads = 4 and with OpenMP's default (0). */
static int test_run_to_run(void)
{
    rf_rng r = {711}, r2 = {712};
    scene s, other;
    scene_make(&r, 1, &s);
    scene_make(&r2, 0, &other);
    const int threads[2] = {4, 0};
    for (int si = 0; si < 4; ++si) {
        for (int k = 0; k < 2; ++k) {
            rf_config cfg;
            config(&cfg, SOLVERS[si], RF_MODEL_DESAXCE, 1e-4, 20, threads[k]);
            rf_problem *pa, *pb;
            ENSURE(rf_problem_create(&pa, NULL) == RF_OK);
            ENSURE(rf_problem_create(&pb, NULL) == RF_OK);
            run_out a, b, c, x;
            ENSURE(run_trajectory(&s, pa, &cfg, &a) == 0);
            ENSURE(run_trajectory(&s, pb, &cfg, &b) == 0);
            ENSURE(run_trajectory(&other, pa, &cfg, &x) == 0);
            ENSURE(run_trajectory(&s, pa, &cfg, &c) == 0);
            char what[80];
            snprintf(what, sizeof what, "%s threads=%d run to run",
                     SOLVER_NAMES[si], threads[k]);
            ENSURE(runs_equal(&a, &b, s.nb, what) == 0);
            snprintf(what, sizeof what, "%s threads=%d reused handle",
                     SOLVER_NAMES[si], threads[k]);
            ENSURE(runs_equal(&a, &c, s.nb, what) == 0);
            printf("  %-10s threads=%d: 2 fresh handles + 1 reused "
                   "bitwise equal (it %d, residual %.3e)\n",
                   SOLVER_NAMES[si], threads[k], a.iterations[STEPS - 1],
                   a.residual[STEPS - 1]);
            run_free(&a);
            run_free(&b);
            run_free(&c);
            run_free(&x);
            rf_problem_destroy(pa);
            rf_problem_destroy(pb);
        }
    }
    scene_free(&s);
    scene_free(&other);
    return 0;
}

/* Called from inside the application's own parallel region (two
   threads, each solving its own problem with cfg.threads = 1, as an
   application stepping two worlds at once): each result equals the serial
   one bit for bit.  The core skips a one-thread parallel region only
   outside any region (rf__team): inside one, a pass's orphaned "omp for"
   would share its loop out over the application's team, and each thread
   would do half of its own problem's loop (this test then fails). */
static int test_inside_caller_region(void)
{
    rf_rng r = {714};
    scene s;
    scene_make(&r, 1, &s);
    rf_config cfg;
    config(&cfg, RF_SOLVER_SI, RF_MODEL_DESAXCE, 0.0, 10, 1);
    rf_problem *p[3];
    for (int k = 0; k < 3; ++k) {
        ENSURE(rf_problem_create(&p[k], NULL) == RF_OK);
    }
    run_out ref, o[2];
    ENSURE(run_trajectory(&s, p[2], &cfg, &ref) == 0);
    int rc[2] = {1, 1}, team = 0;
#pragma omp parallel num_threads(2)
    {
        int t = 0;
#ifdef _OPENMP
        t = omp_get_thread_num();
        if (t == 0) {
            team = omp_get_num_threads();
        }
#endif
        if (t < 2) {
            rc[t] = run_trajectory(&s, p[t], &cfg, &o[t]);
        }
    }
    for (int t = 0; t < team && t < 2; ++t) {
        ENSURE(rc[t] == 0);
        char what[64];
        snprintf(what, sizeof what, "si in the caller's region, thread %d", t);
        ENSURE(runs_equal(&ref, &o[t], s.nb, what) == 0);
        run_free(&o[t]);
    }
    printf("  si inside a %d-thread caller region: bitwise equal to the "
           "serial solve\n",
           team);
    run_free(&ref);
    for (int k = 0; k < 3; ++k) {
        rf_problem_destroy(p[k]);
    }
    scene_free(&s);
    return 0;
}

/* The comparison itself can fail: a trajectory with a one-ulp change in
   one free velocity is not bitwise equal to the original (otherwise the
   tests above would prove nothing). */
static int test_comparison_detects_change(void)
{
    rf_rng r = {713};
    scene s;
    scene_make(&r, 0, &s);
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    rf_config cfg;
    config(&cfg, RF_SOLVER_APGD, RF_MODEL_ASSOCIATED, 0.0, 10, 1);
    run_out a, b;
    ENSURE(run_trajectory(&s, p, &cfg, &a) == 0);
    s.bodies[NB / 2].v[0] = nextafter(s.bodies[NB / 2].v[0], INFINITY);
    ENSURE(run_trajectory(&s, p, &cfg, &b) == 0);
    ENSURE(first_diff(a.gamma, b.gamma, STEPS * a.ndof) >= 0);
    run_free(&a);
    run_free(&b);
    rf_problem_destroy(p);
    scene_free(&s);
    return 0;
}

int main(void)
{
    RUN_TEST(test_comparison_detects_change);
    RUN_TEST(test_threads_fixed_iterations);
    RUN_TEST(test_threads_tolerance);
    RUN_TEST(test_threads_rows);
    RUN_TEST(test_threads_si);
    RUN_TEST(test_threads_local);
    RUN_TEST(test_run_to_run);
    RUN_TEST(test_inside_caller_region);
    return TEST_SUMMARY();
}
