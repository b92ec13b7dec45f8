/*
 * Solver tests: planted solutions in local and body form for every solver
 * and both models, agreement between the two forms, thread-count
 * determinism, warm start, best-iterate reporting, analytic single-contact
 * cases and bad configurations.
 */
#include "problem_gen.h"

#include <stdio.h>
#include <string.h>

/* The first four take both forms; RF_SOLVER_SI (last) body form only. */
static const rf_solver_kind SOLVERS[] = {RF_SOLVER_JACOBI, RF_SOLVER_GS,
                                         RF_SOLVER_GS_COLORED, RF_SOLVER_APGD,
                                         RF_SOLVER_SI};
static const char *SOLVER_NAMES[] = {"jacobi", "gs", "gs-colored", "apgd",
                                     "si"};
static const char *MODEL_NAMES[] = {"associated", "desaxce"};

static double rel_diff(const double *a, const double *b, int n)
{
    double d = 0.0, s = 0.0;
    for (int i = 0; i < n; ++i) {
        d += (a[i] - b[i]) * (a[i] - b[i]);
        s += b[i] * b[i];
    }
    return sqrt(d) / fmax(sqrt(s), 1e-300);
}

/* Solve p with one solver/model from zero and check the targets:
   residual <= 1e-10 and |gamma - gamma*| <= 1e-6 |gamma*|. */
static int check_planted(rf_problem *p, const double *gstar, int nc,
                         rf_solver_kind solver, rf_model model,
                         const char *what)
{
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.solver = solver;
    cfg.model = model;
    cfg.tol = 1e-10;
    cfg.max_iter = 50000;
    cfg.warm_start = 0;
    double *g = calloc((size_t)6 * nc, sizeof(double));
    rf_stats st;
    rf_error err;
    ENSURE(rf_solve(p, &cfg, g, &st, &err) == RF_OK);
    double res_check = -1.0;
    ENSURE(rf_residual(p, model, g, &res_check, &err) == RF_OK);
    double d = rel_diff(g, gstar, 6 * nc);
    printf("  %-10s %-11s %-6s nc=%-3d it=%-6d residual=%.2e "
           "|g-g*|/|g*|=%.2e\n",
           SOLVER_NAMES[solver], MODEL_NAMES[model], what, nc, st.iterations,
           st.residual, d);
    free(g);
    ENSURE(st.converged == 1);
    ENSURE_LE(st.residual, 1e-10);
    /* the reported residual is the returned gamma's */
    ENSURE_SMALL(res_check - st.residual, 1e-13 + 1e-6 * st.residual);
    ENSURE_LE(d, 1e-6);
    return 0;
}

static int test_planted_local(void)
{
    rf_rng r = {42};
    for (int model = 0; model < 2; ++model) {
        for (int trial = 0; trial < 6; ++trial) {
            int nc = 1 + trial % 3 + 2 * trial;
            rf_problem *p;
            ENSURE(rf_problem_create(&p, NULL) == RF_OK);
            double *gstar = calloc((size_t)6 * nc, sizeof(double));
            ENSURE(gen_local_planted(&r, nc, model, p, gstar) == RF_OK);
            for (int s = 0; s < 4; ++s) {
                if (check_planted(p, gstar, nc, SOLVERS[s], (rf_model)model,
                                  "local")) {
                    return 1;
                }
            }
            free(gstar);
            rf_problem_destroy(p);
        }
    }
    return 0;
}

static int test_planted_body(void)
{
    rf_rng r = {7};
    for (int model = 0; model < 2; ++model) {
        for (int trial = 0; trial < 4; ++trial) {
            int nb = 1 + 3 * trial;
            rf_problem *p;
            ENSURE(rf_problem_create(&p, NULL) == RF_OK);
            double *gstar = calloc((size_t)6 * nb, sizeof(double));
            ENSURE(gen_body_planted(&r, nb, model, p, gstar) == RF_OK);
            for (int s = 0; s < 5; ++s) {
                if (check_planted(p, gstar, nb, SOLVERS[s], (rf_model)model,
                                  "body")) {
                    return 1;
                }
            }
            free(gstar);
            rf_problem_destroy(p);
        }
    }
    return 0;
}

/* The body form and its assembled local form (W = D^T M^-1 D, q = D^T v*
   + bias) are the same problem: solutions agree. */
static int test_body_local_agree(void)
{
    rf_rng r = {99};
    const int nb = 12;
    rf_problem *pb, *pl;
    ENSURE(rf_problem_create(&pb, NULL) == RF_OK);
    ENSURE(rf_problem_create(&pl, NULL) == RF_OK);
    double gstar[6 * 12], gb[6 * 12] = {0}, gl[6 * 12] = {0};
    ENSURE(gen_body_planted(&r, nb, 0, pb, gstar) == RF_OK);
    ENSURE(rf_problem_to_local(pb, pl, NULL) == RF_OK);
    ENSURE(rf_problem_is_local(pl) == 1);
    ENSURE(rf_problem_num_contacts(pl) == nb);
    for (int model = 0; model < 2; ++model) {
        for (int s = 0; s < 4; ++s) {
            rf_config cfg;
            rf_config_default(&cfg);
            cfg.solver = SOLVERS[s];
            cfg.model = (rf_model)model;
            cfg.tol = 1e-12;
            cfg.max_iter = 50000;
            cfg.warm_start = 0;
            rf_stats sb, sl;
            ENSURE(rf_solve(pb, &cfg, gb, &sb, NULL) == RF_OK);
            ENSURE(rf_solve(pl, &cfg, gl, &sl, NULL) == RF_OK);
            ENSURE(sb.converged && sl.converged);
            double d = rel_diff(gb, gl, 6 * nb);
            printf("  %-10s %-11s body vs local |dg|/|g| = %.2e\n",
                   SOLVER_NAMES[s], MODEL_NAMES[model], d);
            ENSURE_LE(d, 1e-8);
        }
    }
    rf_problem_destroy(pb);
    rf_problem_destroy(pl);
    return 0;
}

/* A granular-like body problem large enough for every parallel pass to
   split (> RF_REDUCE_BLOCK * 2 contacts, > 512 bodies). */
static rf_status gen_pile(rf_rng *r, int nb, rf_problem *p)
{
    rf_error err;
    int nc = 3 * nb;
    rf_status st = rf_problem_begin_bodies(p, nb, nc, &err);
    for (int b = 0; st == RF_OK && b < nb; ++b) {
        rf_body_desc bd;
        gen_body(r, &bd, NULL);
        bd.v[1] -= 0.5;
        st = rf_problem_set_body(p, b, &bd, &err);
    }
    for (int i = 0; st == RF_OK && i < nc; ++i) {
        int a = i / 3, b;
        if (i % 3 == 0) {
            b = RF_WORLD;
        } else {
            b = (a + 1 + (int)(rf_rng_uniform(r) * (nb - 1))) % nb;
        }
        rf_contact_desc c;
        gen_contact(r, a, b, &c);
        c.bias[0] = rf_rng_range(r, -0.2, 0.1);
        st = rf_problem_set_contact(p, i, &c, &err);
    }
    return st;
}

/* Jacobi, APGD, coloured GS and SI: bitwise identical gamma for 1, 2 and
   3 threads (all sums in fixed block order, no races; SI sweeps colour by
   colour from 513 items on, whatever the thread count). */
static int test_thread_determinism(void)
{
    rf_rng r = {2024};
    const int nb = 1200, nc = 3 * nb;
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(gen_pile(&r, nb, p) == RF_OK);
    double *g[3];
    const rf_solver_kind kinds[4] = {RF_SOLVER_JACOBI, RF_SOLVER_APGD,
                                     RF_SOLVER_GS_COLORED, RF_SOLVER_SI};
    for (int s = 0; s < 4; ++s) {
        for (int model = 0; model < 2; ++model) {
            for (int t = 0; t < 3; ++t) {
                g[t] = calloc((size_t)6 * nc, sizeof(double));
                rf_config cfg;
                rf_config_default(&cfg);
                cfg.solver = kinds[s];
                cfg.model = (rf_model)model;
                cfg.max_iter = 40;
                cfg.tol = 0.0;
                cfg.threads = t + 1;
                rf_stats st;
                ENSURE(rf_solve(p, &cfg, g[t], &st, NULL) == RF_OK);
            }
            int same = memcmp(g[0], g[1], sizeof(double) * 6 * nc) == 0 &&
                       memcmp(g[0], g[2], sizeof(double) * 6 * nc) == 0;
            printf("  %-10s %-11s threads 1/2/3 bitwise equal: %s\n",
                   SOLVER_NAMES[kinds[s]], MODEL_NAMES[model],
                   same ? "yes" : "NO");
            for (int t = 0; t < 3; ++t) {
                free(g[t]);
            }
            ENSURE(same);
        }
    }
    rf_problem_destroy(p);
    return 0;
}

/* Warm start from the solution: one sweep (every solver sweeps at least
   once) leaves it there, converged. */
static int test_warm_start(void)
{
    rf_rng r = {5};
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    double gstar[6 * 4];
    ENSURE(gen_local_planted(&r, 4, 0, p, gstar) == RF_OK);
    for (int s = 0; s < 4; ++s) {
        rf_config cfg;
        rf_config_default(&cfg);
        cfg.solver = SOLVERS[s];
        cfg.tol = 1e-10;
        double g[24];
        memcpy(g, gstar, sizeof g);
        rf_stats st;
        ENSURE(rf_solve(p, &cfg, g, &st, NULL) == RF_OK);
        ENSURE(st.iterations == 1);
        ENSURE(st.converged);
        /* a fixed point of the sweep: gstar solves the problem to the
           planted residual (0), so one sweep moves it only by rounding */
        ENSURE_LE(rel_diff(g, gstar, 24), 1e-12);
        /* a warm start outside Y is projected first, not rejected */
        double far[24];
        for (int k = 0; k < 24; ++k) {
            far[k] = 100.0 * (k % 2 ? -1.0 : 1.0);
        }
        ENSURE(rf_solve(p, &cfg, far, &st, NULL) == RF_OK);
        ENSURE(st.converged);
    }
    rf_problem_destroy(p);
    return 0;
}

/* Too few iterations: not converged, gamma is the best iterate and the
   reported residual is its residual; with tol = 0 exactly max_iter
   iterations run. */
static int test_not_converged(void)
{
    rf_rng r = {11};
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(gen_pile(&r, 300, p) == RF_OK);
    const int nc = rf_problem_num_contacts(p);
    double *g = calloc((size_t)6 * nc, sizeof(double));
    for (int s = 0; s < 5; ++s) {
        for (int tol0 = 0; tol0 < 2; ++tol0) {
            rf_config cfg;
            rf_config_default(&cfg);
            cfg.solver = SOLVERS[s];
            cfg.max_iter = 3;
            cfg.tol = tol0 ? 0.0 : 1e-14;
            cfg.warm_start = 0;
            rf_stats st;
            ENSURE(rf_solve(p, &cfg, g, &st, NULL) == RF_OK);
            ENSURE(st.converged == 0);
            if (s != 3 || tol0) { /* APGD De Saxce may count differently */
                ENSURE(st.iterations == 3);
            }
            double res;
            ENSURE(rf_residual(p, RF_MODEL_ASSOCIATED, g, &res, NULL) == RF_OK);
            ENSURE_SMALL(res - st.residual, 1e-12 * (1.0 + res));
            ENSURE(res > 1e-14);
        }
    }
    free(g);
    rf_problem_destroy(p);
    return 0;
}

/* The sphere of test_rolling_sphere_step and test_loose_tolerance in a
   new *p: m = 1 kg, R = 0.5 m, I = 2/5 m R^2, rolling without slip at v0
   = 2 m/s on the ground (normal +y), free velocity v* = (v0, -g h, 0),
   h = 1/60 s; mu 0.9, rho 0.036 m, sigma 0.01 m. */
static const double RS_M = 1.0, RS_R = 0.5, RS_H = 1.0 / 60.0, RS_G = 9.81,
                    RS_RHO = 0.036, RS_V0 = 2.0;
static int rolling_sphere(rf_problem **out)
{
    const double I = 0.4 * RS_M * RS_R * RS_R;
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    *out = p;
    ENSURE(rf_problem_begin_bodies(p, 1, 1, NULL) == RF_OK);
    rf_body_desc b = {0};
    b.flags = RF_BODY_DYNAMIC;
    b.inv_mass = 1.0 / RS_M;
    b.inv_inertia[0] = b.inv_inertia[4] = b.inv_inertia[8] = 1.0 / I;
    b.v[0] = RS_V0;
    b.v[1] = -RS_G * RS_H;
    b.w[2] = -RS_V0 / RS_R;
    ENSURE(rf_problem_set_body(p, 0, &b, NULL) == RF_OK);
    rf_contact_desc c = {0};
    c.body_a = 0;
    c.body_b = RF_WORLD;
    c.n[1] = 1.0;
    ENSURE(rf_contact_frame(c.n, c.t1, c.t2) == RF_OK);
    c.r_a[1] = -RS_R;
    c.mu = 0.9;
    c.rho = RS_RHO;
    c.sigma = 0.01;
    ENSURE(rf_problem_set_contact(p, 0, &c, NULL) == RF_OK);
    return 0;
}

/* Sphere (m = 1 kg, R = 0.5 m, I = 2/5 m R^2) rolling without slip at
   v = 2 m/s on the ground, one step h = 1/60 s under gravity, De Saxce
   model (no dilatancy).  Analytic (Tasora §6.1 / DESIGN §5): the normal
   impulse is m g h; the rolling torque is rho m g, and the centre
   decelerates by a = rho g / (R (1 + I / (m R^2))), so after one step
   v = 2 - a h and w = -v / R (rolling without slip is kept). */
static int test_rolling_sphere_step(void)
{
    const double m = RS_M, R = RS_R, I = 0.4 * m * R * R, h = RS_H;
    const double g = RS_G, rho = RS_RHO, v0 = RS_V0;
    rf_problem *p;
    ENSURE(rolling_sphere(&p) == 0);
    const double a = rho * g / (R * (1.0 + I / (m * R * R)));
    for (int s = 0; s < 5; ++s) {
        rf_config cfg;
        rf_config_default(&cfg);
        cfg.solver = SOLVERS[s];
        cfg.model = RF_MODEL_DESAXCE;
        cfg.tol = 1e-13;
        cfg.max_iter = 5000;
        double gam[6] = {0}, v[3], w[3];
        rf_stats st;
        ENSURE(rf_solve(p, &cfg, gam, &st, NULL) == RF_OK);
        ENSURE(st.converged);
        ENSURE(rf_problem_body_velocity(p, gam, v, w, NULL) == RF_OK);
        ENSURE_SMALL(gam[RF_N] - m * g * h, 1e-10);
        ENSURE_SMALL(v[0] - (v0 - a * h), 1e-10);
        ENSURE_SMALL(v[1], 1e-10);
        ENSURE_SMALL(w[2] + v[0] / R, 1e-9);
        /* the rolling impulse sits on its cone: |tau_r| = rho gamma_n */
        ENSURE_SMALL(hypot(gam[RF_ROLL_U], gam[RF_ROLL_W]) - rho * gam[RF_N],
                     1e-12);
    }
    rf_problem_destroy(p);
    return 0;
}

/* Kinetic energy (J) of nb bodies: 1/2 m v.v + 1/2 w.J w. */
static double kinetic_energy(int nb, const double *mass, const double *J,
                             const double *v, const double *w)
{
    double e = 0.0;
    for (int b = 0; b < nb; ++b) {
        const double *Jb = J + 9 * b, *wb = w + 3 * b;
        e += 0.5 * mass[b] * gen_dot(v + 3 * b, v + 3 * b, 3);
        for (int i = 0; i < 3; ++i) {
            e += 0.5 * wb[i] * gen_dot(Jb + 3 * i, wb, 3);
        }
    }
    return e;
}

/* A random pile of PILE_NB bodies (falling at 0.5 m/s on top of their
   random velocities) and PILE_NC contacts with zero biases, for the
   energy and step-constant tests, with what the energy test measures:
   masses, inertias (J), velocities v0, w0 and per contact mu, rho, sigma
   (coef). */
enum { PILE_NB = 40, PILE_NC = 3 * PILE_NB };
typedef struct pile {
    double mass[PILE_NB], J[9 * PILE_NB], v0[3 * PILE_NB], w0[3 * PILE_NB];
    double coef[3 * PILE_NC];
} pile;

static int random_pile(rf_rng *r, rf_problem *p, pile *pl)
{
    const int nb = PILE_NB, nc = PILE_NC;
    ENSURE(rf_problem_begin_bodies(p, nb, nc, NULL) == RF_OK);
    for (int b = 0; b < nb; ++b) {
        rf_body_desc bd;
        gen_body(r, &bd, pl->J + 9 * b);
        bd.v[1] -= 0.5;
        pl->mass[b] = 1.0 / bd.inv_mass;
        memcpy(pl->v0 + 3 * b, bd.v, sizeof bd.v);
        memcpy(pl->w0 + 3 * b, bd.w, sizeof bd.w);
        ENSURE(rf_problem_set_body(p, b, &bd, NULL) == RF_OK);
    }
    for (int i = 0; i < nc; ++i) {
        rf_contact_desc c;
        gen_pile_contact(r, i, nb, &c); /* biases 0 */
        pl->coef[3 * i] = c.mu;
        pl->coef[3 * i + 1] = c.rho;
        pl->coef[3 * i + 2] = c.sigma;
        ENSURE(rf_problem_set_contact(p, i, &c, NULL) == RF_OK);
    }
    return 0;
}

/* A random pile (random_pile from seed) in a new *p, and in cfg the
   defaults with solver, a start from zero, tol and max_iter. */
static int pile_solve_setup(uint64_t seed, rf_problem **p, pile *pl,
                            rf_config *cfg, rf_solver_kind solver, double tol,
                            int max_iter)
{
    rf_rng r = {seed};
    ENSURE(rf_problem_create(p, NULL) == RF_OK);
    ENSURE(random_pile(&r, *p, pl) == 0);
    rf_config_default(cfg);
    cfg->solver = solver;
    cfg->warm_start = 0;
    cfg->tol = tol;
    cfg->max_iter = max_iter;
    return 0;
}

/* The energy check (rf_stats.energy_change / energy_scale, rf_solve's doc,
   solve.c energy_check).  A pile with zero biases, warm-started from
   normal impulses 50 times what stops every approach and stopped after
   one iteration: that iterate pushes the bodies apart and adds kinetic
   energy, which the check removes by scaling gamma.  Checked against the
   energy measured here from the bodies' velocities before and after
   (rf_problem_body_velocity), not against the solver's own sums:
     - energy_change = KE(v+) - KE(v*) (1e-9 relative: two sums of a few
       hundred terms);
     - with zero biases nothing may be added: KE(v+) <= KE(v*) (+1e-9
       relative rounding), for every solver and model;
     - gamma stays in every cone (scaling keeps it there: 1e-12);
     - the reported residual is rf_residual of the returned gamma;
     - the warm start really adds energy (scale < 1) for Jacobi and APGD,
       whose one step from it cannot undo a 50x overshoot (checked: the
       unscaled energy change is positive, or the test would prove
       nothing);
     - a converged solve is left alone (scale 1) and removes energy. */
static int test_energy_check(void)
{
    rf_rng r = {77};
    enum { NB = PILE_NB, NC = PILE_NC };
    pile pl;
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(random_pile(&r, p, &pl) == 0);
    const double ke0 = kinetic_energy(NB, pl.mass, pl.J, pl.v0, pl.w0);
    /* a converged solve, for its normal impulses */
    double gsol[6 * NC] = {0};
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.solver = RF_SOLVER_APGD;
    cfg.tol = 1e-8;
    cfg.max_iter = 20000;
    rf_stats st;
    ENSURE(rf_solve(p, &cfg, gsol, &st, NULL) == RF_OK);
    ENSURE(st.converged);
    double vs[3 * NB], ws[3 * NB];
    ENSURE(rf_problem_body_velocity(p, gsol, vs, ws, NULL) == RF_OK);
    ENSURE(st.energy_scale == 1.0);
    const double dke_sol = kinetic_energy(NB, pl.mass, pl.J, vs, ws) - ke0;
    printf("  converged apgd: energy_change %+.6e J (measured %+.6e)\n",
           st.energy_change, dke_sol);
    ENSURE_SMALL(st.energy_change - dke_sol, 1e-9 * ke0);
    ENSURE(dke_sol < 0.0);
    double nmax = 0.0;
    for (int i = 0; i < NC; ++i) {
        nmax = gsol[6 * i] > nmax ? gsol[6 * i] : nmax;
    }
    ENSURE(nmax > 0.0);
    for (int s = 0; s < 4; ++s) {
        for (int model = 0; model < 2; ++model) {
            double g[6 * NC] = {0}, v[3 * NB], w[3 * NB];
            for (int i = 0; i < NC; ++i) {
                g[6 * i] = 50.0 * nmax;
            }
            /* the warm start itself adds energy */
            ENSURE(rf_problem_body_velocity(p, g, v, w, NULL) == RF_OK);
            ENSURE(kinetic_energy(NB, pl.mass, pl.J, v, w) > ke0);
            rf_config_default(&cfg);
            cfg.solver = SOLVERS[s];
            cfg.model = (rf_model)model;
            cfg.warm_start = 1;
            cfg.max_iter = 1;
            cfg.tol = 0.0;
            ENSURE(rf_solve(p, &cfg, g, &st, NULL) == RF_OK);
            ENSURE(rf_problem_body_velocity(p, g, v, w, NULL) == RF_OK);
            const double dke = kinetic_energy(NB, pl.mass, pl.J, v, w) - ke0;
            printf("  %-10s %-11s energy_change %+.6e J (measured %+.6e), "
                   "scale %.4f\n",
                   SOLVER_NAMES[SOLVERS[s]], MODEL_NAMES[model],
                   st.energy_change, dke, st.energy_scale);
            ENSURE_SMALL(st.energy_change - dke, 1e-9 * ke0);
            ENSURE_LE(dke, 1e-9 * ke0);
            ENSURE(st.energy_scale >= 0.0 && st.energy_scale <= 1.0);
            if (SOLVERS[s] == RF_SOLVER_JACOBI ||
                SOLVERS[s] == RF_SOLVER_APGD) {
                ENSURE(st.energy_scale < 1.0);
            }
            for (int i = 0; i < NC; ++i) {
                ENSURE_LE(rf_cone_violation(g + 6 * i, pl.coef[3 * i],
                                            pl.coef[3 * i + 1],
                                            pl.coef[3 * i + 2]),
                          1e-12 * nmax);
            }
            double res;
            ENSURE(rf_residual(p, cfg.model, g, &res, NULL) == RF_OK);
            ENSURE_SMALL(res - st.residual, 1e-12 * (1.0 + res));
        }
    }
    /* Fixed counts from a cold start, which remove energy and are not
       scaled: the reported change is still the measured one.  (Jacobi,
       GS and APGD hand the energy check the u = N gamma + r of their last
       product instead of forming it again; SI forms it from its body
       velocities: a wrong u shows here.) */
    for (int s = 0; s < 5; ++s) {
        for (int model = 0; model < 2; ++model) {
            double g[6 * NC] = {0}, v[3 * NB], w[3 * NB];
            rf_config_default(&cfg);
            cfg.solver = SOLVERS[s];
            cfg.model = (rf_model)model;
            cfg.max_iter = 10;
            cfg.tol = 0.0;
            ENSURE(rf_solve(p, &cfg, g, &st, NULL) == RF_OK);
            ENSURE(rf_problem_body_velocity(p, g, v, w, NULL) == RF_OK);
            const double dke = kinetic_energy(NB, pl.mass, pl.J, v, w) - ke0;
            ENSURE(st.energy_scale == 1.0);
            ENSURE(dke < -1e-3 * ke0); /* the test measures something */
            ENSURE_SMALL(st.energy_change - dke, 1e-9 * ke0);
        }
    }
    rf_problem_destroy(p);
    return 0;
}

/* Bad configurations and inputs: error code, message, gamma untouched. */
static int test_bad_input(void)
{
    rf_rng r = {3};
    rf_problem *p;
    rf_error err;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    double gstar[12];
    ENSURE(gen_local_planted(&r, 2, 0, p, gstar) == RF_OK);
    double g[12], keep[12];
    for (int k = 0; k < 12; ++k) {
        g[k] = keep[k] = 0.25 * k;
    }
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.tol = -1.0;
    ENSURE(rf_solve(p, &cfg, g, NULL, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "tol") != NULL);
    rf_config_default(&cfg);
    cfg.max_iter = 0;
    ENSURE(rf_solve(p, &cfg, g, NULL, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "max_iter") != NULL);
    rf_config_default(&cfg);
    cfg.lambda = 1.5;
    ENSURE(rf_solve(p, &cfg, g, NULL, &err) == RF_ERR_INVALID);
    rf_config_default(&cfg);
    cfg.solver = (rf_solver_kind)17;
    ENSURE(rf_solve(p, &cfg, g, NULL, &err) == RF_ERR_INVALID);
    rf_config_default(&cfg);
    cfg.omega = NAN;
    ENSURE(rf_solve(p, &cfg, g, NULL, &err) == RF_ERR_NONFINITE);
    rf_config_default(&cfg);
    cfg.apgd_lipschitz = -2.0;
    ENSURE(rf_solve(p, &cfg, g, NULL, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "apgd_lipschitz = -2") != NULL);
    cfg.apgd_lipschitz = INFINITY;
    ENSURE(rf_solve(p, &cfg, g, NULL, &err) == RF_ERR_NONFINITE);
    ENSURE(strstr(err.message, "apgd_lipschitz") != NULL);
    rf_config_default(&cfg);
    cfg.jacobi_lambda_max = -2.0;
    ENSURE(rf_solve(p, &cfg, g, NULL, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "jacobi_lambda_max = -2") != NULL);
    cfg.jacobi_lambda_max = NAN;
    ENSURE(rf_solve(p, &cfg, g, NULL, &err) == RF_ERR_NONFINITE);
    ENSURE(strstr(err.message, "jacobi_lambda_max") != NULL);
    rf_config_default(&cfg);
    g[3] = NAN;
    ENSURE(rf_solve(p, NULL, g, NULL, &err) == RF_ERR_NONFINITE);
    ENSURE(strstr(err.message, "warm start") != NULL);
    g[3] = keep[3];
    ENSURE(rf_solve(NULL, NULL, g, NULL, &err) == RF_ERR_NULL);
    ENSURE(rf_solve(p, NULL, NULL, NULL, &err) == RF_ERR_NULL);
    ENSURE(memcmp(g, keep, sizeof g) == 0);
    /* an empty problem cannot be solved */
    rf_problem *e;
    ENSURE(rf_problem_create(&e, NULL) == RF_OK);
    ENSURE(rf_solve(e, NULL, g, NULL, &err) == RF_ERR_STATE);
    /* a contact never set */
    ENSURE(rf_problem_begin_bodies(e, 1, 2, NULL) == RF_OK);
    ENSURE(rf_solve(e, NULL, g, NULL, &err) == RF_ERR_STATE);
    ENSURE(strstr(err.message, "contact 0") != NULL);
    ENSURE(memcmp(g, keep, sizeof g) == 0);
    rf_problem_destroy(e);
    rf_problem_destroy(p);
    return 0;
}

/* APGD's start step constant (rf_config.apgd_lipschitz /
   rf_stats.apgd_lipschitz,
   rollfric.h): on a random pile (the energy test's generator),
     - a solve from Mazhar's estimate reports 0.9 x its largest accepted
       L, finite and >= 0.9 (L_max(N') >= 1: part scaling puts 1 on every
       normal diagonal entry of N');
     - the next solve started from it reaches the same tolerance (1e-8)
       and does not need more than 1.5x the iterations (it starts where
       the first one's backtracking ended; measured 0.94x);
     - a start far too small (1e-300, taken as 1) and one far too large
       (1e6: tiny steps, L comes down by 0.9 per iteration) both still
       converge: backtracking and the decay recover;
     - a solve whose start meets tol still iterates once, and reports 0.9
       of the largest step constant it accepted (at least the start's);
     - the other solvers report 0. */
static int test_lipschitz_start(void)
{
    enum { NC = PILE_NC };
    pile pl;
    rf_problem *p;
    rf_config cfg;
    ENSURE(pile_solve_setup(91, &p, &pl, &cfg, RF_SOLVER_APGD, 1e-8, 20000) ==
           0);
    double g[6 * NC];
    rf_stats st0, st;
    ENSURE(rf_solve(p, &cfg, g, &st0, NULL) == RF_OK);
    ENSURE(st0.converged);
    printf("  estimated start: %d iterations, next start L = %.4g\n",
           st0.iterations, st0.apgd_lipschitz);
    ENSURE(isfinite(st0.apgd_lipschitz) && st0.apgd_lipschitz >= 0.9);
    const double starts[3] = {st0.apgd_lipschitz, 1e-300, 1e6};
    for (int k = 0; k < 3; ++k) {
        cfg.apgd_lipschitz = starts[k];
        ENSURE(rf_solve(p, &cfg, g, &st, NULL) == RF_OK);
        printf("  start L = %.4g: %d iterations, residual %.3e\n", starts[k],
               st.iterations, st.residual);
        ENSURE(st.converged);
        ENSURE_LE(st.residual, 1e-8);
        ENSURE(isfinite(st.apgd_lipschitz) && st.apgd_lipschitz >= 0.9);
        if (k == 0) {
            ENSURE_LE(st.iterations, 1.5 * st0.iterations);
        }
    }
    /* a tolerance the start already meets still iterates once, and the
       step constant comes back as 0.9 of the largest one accepted */
    cfg.apgd_lipschitz = 5.0;
    cfg.tol = 0.99;
    ENSURE(rf_solve(p, &cfg, g, &st, NULL) == RF_OK);
    ENSURE(st.iterations == 1);
    ENSURE(st.apgd_lipschitz >= 0.9 * 5.0);
    for (int s = 1; s < 3; ++s) { /* GS, GS coloured (Jacobi: below) */
        rf_config_default(&cfg);
        cfg.solver = SOLVERS[s];
        cfg.max_iter = 5;
        cfg.tol = 0.0;
        ENSURE(rf_solve(p, &cfg, g, &st, NULL) == RF_OK);
        ENSURE(st.apgd_lipschitz == 0.0 && st.jacobi_lambda_max == 0.0);
    }
    rf_problem_destroy(p);
    return 0;
}

/* Jacobi's carried lambda_max (rf_config.jacobi_lambda_max with omega = 0,
   rollfric.h; solver_jacobi.c), on the random pile:
     - the automatic omega reports its estimate lambda (finite, > 0) and
       an explicit omega reports 0;
     - carrying exactly that lambda skips the estimate and gives the
       same iterates, bitwise (same omega, and the safeguard's product is
       the plain product plus sums), and reports lambda unchanged: with
       omega = 1/lambda_est no iterate may be rejected, since every
       iterate descends while omega < 2 / lambda_max (the descent lemma)
       and lambda_est > lambda_max / 2;
     - a carried lambda so small that the step overflows (1e-300) falls
       back on the estimate: the estimate's solve with one iteration
       less, bitwise;
     - a carried lambda 64x too small (omega 64x too large) is repaired:
       after 2000 iterations its residual is within 2x of the estimate's
       solve of as many (measured: 0.52x; the raised lambda ends at 0.4
       of the estimate, a longer step on the slow modes, which are the
       small eigenvalues here), and it reports a larger lambda (rejected
       steps raised it), where the same omega given explicitly (no
       safeguard) diverges: residual over 100x the estimate's;
     - the De Saxce model and a problem with a friction-bounded row
       ignore the carried lambda: bitwise the estimate's solve. */
static int test_jacobi_carried_lambda(void)
{
    enum { NC = PILE_NC, NDOF = 6 * PILE_NC + 2 };
    pile pl;
    rf_problem *p;
    rf_config cfg;
    ENSURE(pile_solve_setup(57, &p, &pl, &cfg, RF_SOLVER_JACOBI, 0.0, 60) == 0);
    double g0[NDOF], g1[NDOF];
    rf_stats st0, st;
    ENSURE(rf_solve(p, &cfg, g0, &st0, NULL) == RF_OK);
    const double lam = st0.jacobi_lambda_max;
    printf("  estimated lambda_max %.6g\n", lam);
    ENSURE(isfinite(lam) && lam > 0.0);
    cfg.jacobi_lambda_max = lam;
    ENSURE(rf_solve(p, &cfg, g1, &st, NULL) == RF_OK);
    ENSURE(memcmp(g0, g1, 6 * NC * sizeof(double)) == 0);
    ENSURE(st.jacobi_lambda_max == lam);
    ENSURE(st.iterations == 60);
    /* a carried lambda so small (1e-300) that the first step overflows
       shows no witness: lambda is estimated then, the step redone, so
       the solve is the estimate's with one iteration less, bitwise */
    cfg.max_iter = 59;
    cfg.jacobi_lambda_max = 0.0;
    ENSURE(rf_solve(p, &cfg, g0, &st0, NULL) == RF_OK);
    cfg.max_iter = 60;
    cfg.jacobi_lambda_max = 1e-300;
    ENSURE(rf_solve(p, &cfg, g1, &st, NULL) == RF_OK);
    ENSURE(memcmp(g0, g1, 6 * NC * sizeof(double)) == 0);
    ENSURE(st.jacobi_lambda_max == lam);
    ENSURE(st.iterations == 60);

    /* omega 64x too large: safeguarded against unguarded, 2000
       iterations each, against the estimate's solve of as many */
    cfg.max_iter = 2000;
    cfg.jacobi_lambda_max = 0.0;
    ENSURE(rf_solve(p, &cfg, g1, &st0, NULL) == RF_OK);
    cfg.jacobi_lambda_max = lam / 64.0;
    ENSURE(rf_solve(p, &cfg, g1, &st, NULL) == RF_OK);
    printf("  2000 iterations: estimate residual %.3e; carried lambda/64 "
           "residual %.3e, lambda %.6g\n",
           st0.residual, st.residual, st.jacobi_lambda_max);
    ENSURE_LE(st.residual, 2.0 * st0.residual);
    ENSURE(st.jacobi_lambda_max >= 2.0 * lam / 64.0);
    rf_config bare = cfg;
    bare.jacobi_lambda_max = 0.0;
    bare.omega = 64.0 / lam;
    ENSURE(rf_solve(p, &bare, g1, &st, NULL) == RF_OK);
    printf("  omega = 64/lambda unguarded: residual %.3e\n", st.residual);
    ENSURE(!(st.residual <= 100.0 * st0.residual));
    ENSURE(st.jacobi_lambda_max == 0.0);

    /* De Saxce: no objective, the estimate is used */
    cfg.tol = 0.0;
    cfg.max_iter = 60;
    cfg.model = RF_MODEL_DESAXCE;
    cfg.jacobi_lambda_max = 0.0;
    ENSURE(rf_solve(p, &cfg, g0, &st0, NULL) == RF_OK);
    cfg.jacobi_lambda_max = st0.jacobi_lambda_max / 64.0;
    ENSURE(rf_solve(p, &cfg, g1, &st, NULL) == RF_OK);
    ENSURE(memcmp(g0, g1, 6 * NC * sizeof(double)) == 0);
    ENSURE(st.jacobi_lambda_max == st0.jacobi_lambda_max);

    /* a friction-bounded row (body 0 against the world): the estimate */
    cfg.model = RF_MODEL_ASSOCIATED;
    ENSURE(rf_problem_begin_rows(p, 2, NULL) == RF_OK);
    rf_row_desc row;
    memset(&row, 0, sizeof row);
    row.body_a = 0;
    row.body_b = RF_WORLD;
    row.lin_a[1] = 1.0;
    row.lo = 0.0;
    row.hi = INFINITY;
    row.bound_row = -1;
    ENSURE(rf_problem_set_row(p, 0, &row, NULL) == RF_OK);
    row.lin_a[1] = 0.0;
    row.lin_a[0] = 1.0;
    row.bound_row = 0;
    row.bound_coef = 0.5;
    ENSURE(rf_problem_set_row(p, 1, &row, NULL) == RF_OK);
    cfg.jacobi_lambda_max = 0.0;
    ENSURE(rf_solve(p, &cfg, g0, &st0, NULL) == RF_OK);
    cfg.jacobi_lambda_max = st0.jacobi_lambda_max / 64.0;
    ENSURE(rf_solve(p, &cfg, g1, &st, NULL) == RF_OK);
    ENSURE(memcmp(g0, g1, sizeof g0) == 0);
    ENSURE(st.jacobi_lambda_max == st0.jacobi_lambda_max);
    rf_problem_destroy(p);
    return 0;
}

/* No contacts (a step where nothing touches): every solver returns at
   once with residual 0, in body and local form. */
static int test_no_contacts(void)
{
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    for (int form = 0; form < 2; ++form) {
        if (form == 0) {
            ENSURE(rf_problem_begin_bodies(p, 3, 0, NULL) == RF_OK);
        } else {
            double none = 0.0;
            ENSURE(rf_problem_set_local_dense(p, 0, &none, &none, &none, &none,
                                              &none, NULL) == RF_OK);
        }
        for (int s = 0; s < 4; ++s) {
            rf_config cfg;
            rf_config_default(&cfg);
            cfg.solver = SOLVERS[s];
            double g[1] = {123.0};
            rf_stats st;
            ENSURE(rf_solve(p, &cfg, g, &st, NULL) == RF_OK);
            ENSURE(st.contacts == 0);
            ENSURE(st.iterations == 0);
            ENSURE(st.residual == 0.0);
            ENSURE(st.converged == 1);
            ENSURE(g[0] == 123.0); /* nothing to write */
        }
    }
    rf_problem_destroy(p);
    return 0;
}

/* The same SI solve with a residual (into g1, st1) and without (g0,
   st0), each from the start already in its array: equal impulses. */
static int solve_both_residuals(rf_problem *p, rf_config *cfg, double *g1,
                                double *g0, int ndof, rf_stats *st1,
                                rf_stats *st0)
{
    cfg->residual = 1;
    ENSURE(rf_solve(p, cfg, g1, st1, NULL) == RF_OK);
    cfg->residual = 0;
    ENSURE(rf_solve(p, cfg, g0, st0, NULL) == RF_OK);
    ENSURE(memcmp(g1, g0, (size_t)ndof * sizeof(double)) == 0);
    return 0;
}

/* rf_config.residual = 0 (the Bullet defaults): SI returns the same
   impulses bit for bit, reports residual NAN, and its energy_change (from
   its guard's running sums, not a product) is the kinetic energy the
   impulses add, measured from the bodies' velocities (0.5 v.M v before
   and after) to rounding, 1e-9 of the start's energy; residual = 2 is
   refused. */
static int test_si_without_residual(void)
{
    enum { NB = PILE_NB, NC = PILE_NC };
    pile pl;
    rf_problem *p;
    rf_config cfg;
    ENSURE(pile_solve_setup(91, &p, &pl, &cfg, RF_SOLVER_SI, 0.0, 10) == 0);
    const double ke0 = kinetic_energy(NB, pl.mass, pl.J, pl.v0, pl.w0);
    for (int model = 0; model < 2; ++model) {
        double g1[6 * NC] = {0}, g0[6 * NC] = {0};
        cfg.model = (rf_model)model;
        rf_stats st1, st0;
        ENSURE(solve_both_residuals(p, &cfg, g1, g0, 6 * NC, &st1, &st0) == 0);
        ENSURE(isfinite(st1.residual) && isnan(st0.residual));
        ENSURE(st0.energy_scale == 1.0 && st0.iterations == 10);
        double v[3 * NB], w[3 * NB];
        ENSURE(rf_problem_body_velocity(p, g0, v, w, NULL) == RF_OK);
        const double dke = kinetic_energy(NB, pl.mass, pl.J, v, w) - ke0;
        printf("  si %-11s residual=0: energy_change %+.9e J, measured "
               "%+.9e, with residual %+.9e\n",
               MODEL_NAMES[model], st0.energy_change, dke, st1.energy_change);
        ENSURE_SMALL(st0.energy_change - dke, 1e-9 * ke0);
        cfg.residual = 2;
        rf_error err;
        ENSURE(rf_solve(p, &cfg, g0, &st0, &err) == RF_ERR_INVALID);
        ENSURE(strstr(err.message, "residual") != NULL);
    }
    rf_problem_destroy(p);
    return 0;
}

/* SI's start under the energy guard takes the start's work from the
   bodies (solver_si.c start_work: g.D^T v* = sum_b P_b.v*_b, g.N g =
   sum_b P_b.M_b^-1 P_b), not from the items; a moving body that is not
   dynamic (kinematic: fixed, with a velocity) adds its items' share item
   by item.  A pile with every fifth body fixed and moving, its contacts
   penetrating, warm-started from normal impulses of 0.2 N s (which the
   guard keeps whole), three sweeps, both models: the
   energy change SI reports without a residual (its guard's running sum
   from that start) equals the one rf_solve's energy check computes from
   the items with a residual (solve.c energy_check: g.r from D^T v* + b
   per item) to 1e-9 of the kinetic energy (sums of a few hundred terms in
   another order).  Leaving out the fixed bodies' share makes them differ
   by 0.59 J (2% of it). */
static int test_si_start_work(void)
{
    enum { NB = PILE_NB, NC = PILE_NC };
    rf_rng r = {313};
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    ENSURE(rf_problem_begin_bodies(p, NB, NC, NULL) == RF_OK);
    double ke0 = 0.0;
    for (int b = 0; b < NB; ++b) {
        rf_body_desc bd;
        gen_body(&r, &bd, NULL);
        if (b % 5 == 0) {
            bd.flags = RF_BODY_FIXED; /* keeps its velocity: kinematic */
        }
        ke0 += 0.5 / bd.inv_mass * gen_dot(bd.v, bd.v, 3);
        ENSURE(rf_problem_set_body(p, b, &bd, NULL) == RF_OK);
    }
    double start[6 * NC] = {0};
    for (int i = 0; i < NC; ++i) {
        rf_contact_desc c;
        gen_pile_contact(&r, i, NB, &c);
        if (c.body_a % 5 == 0) { /* a fixed body meets a dynamic one */
            c.body_b = c.body_a + 1;
        }
        /* penetrating, recovering at 1 m/s: the biases' work pays for the
           start, which the guard then keeps whole (with zero biases it
           would be in excess, and the end's scaling, not the start's work,
           would set the energy reported) */
        c.bias[0] = -1.0;
        ENSURE(rf_problem_set_contact(p, i, &c, NULL) == RF_OK);
        start[6 * i] = 0.2;
    }
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.solver = RF_SOLVER_SI;
    cfg.tol = 0.0;
    cfg.max_iter = 3;
    for (int model = 0; model < 2; ++model) {
        double g1[6 * NC], g0[6 * NC];
        memcpy(g1, start, sizeof g1);
        memcpy(g0, start, sizeof g0);
        cfg.model = (rf_model)model;
        rf_stats st1, st0;
        ENSURE(solve_both_residuals(p, &cfg, g1, g0, 6 * NC, &st1, &st0) == 0);
        printf("  si %-11s from a warm start, fixed bodies moving: energy "
               "change %+.9e J (guard), %+.9e J (items)\n",
               MODEL_NAMES[model], st0.energy_change, st1.energy_change);
        ENSURE(st1.energy_scale == 1.0);
        ENSURE_SMALL(st0.energy_change - st1.energy_change, 1e-9 * ke0);
    }
    rf_problem_destroy(p);
    return 0;
}

/* Unit-mass cubes (inverse inertia 6 I) in columns on the ground, each
   contact a single point on the vertical through the centres (n = +y from
   the lower body, or the world, to the upper; no lever arm, so no
   rotation), resting (bias 0), free velocities -g h = -0.1 m/s (g = 10,
   h = 0.01) unless vy gives them.  below[k]: the body below box k (-1:
   the ground); contact k holds box k up. */
static int column_problem(rf_problem **pp, int nbox, const int *below,
                          const double *vy)
{
    ENSURE(rf_problem_create(pp, NULL) == RF_OK);
    ENSURE(rf_problem_begin_bodies(*pp, nbox, nbox, NULL) == RF_OK);
    for (int b = 0; b < nbox; ++b) {
        rf_body_desc bd;
        memset(&bd, 0, sizeof bd);
        bd.flags = RF_BODY_DYNAMIC;
        bd.inv_mass = 1.0;
        bd.inv_inertia[0] = bd.inv_inertia[4] = bd.inv_inertia[8] = 6.0;
        bd.v[1] = vy != NULL ? vy[b] : -0.1;
        ENSURE(rf_problem_set_body(*pp, b, &bd, NULL) == RF_OK);
    }
    for (int k = 0; k < nbox; ++k) {
        rf_contact_desc c;
        memset(&c, 0, sizeof c);
        c.body_a = k;
        c.body_b = below[k] < 0 ? RF_WORLD : below[k];
        c.n[1] = 1.0;
        c.t1[0] = 1.0;
        c.t2[2] = -1.0; /* t1 x t2 = n */
        c.r_a[1] = -0.5;
        c.r_b[1] = below[k] < 0 ? 0.0 : 0.5;
        c.mu = 0.5;
        ENSURE(rf_problem_set_contact(*pp, k, &c, NULL) == RF_OK);
    }
    return 0;
}

/* Kinetic energy change of the solved impulses g (unit masses, no
   rotation here) from the bodies' velocities: the reference the guard's
   figure is checked against. */
static double column_energy_change(rf_problem *p, int nbox, const double *g)
{
    double *v = malloc((size_t)6 * nbox * sizeof(double)), de = NAN;
    if (v != NULL &&
        rf_problem_body_velocity(p, g, v, v + 3 * nbox, NULL) == RF_OK) {
        de = 0.0;
        for (int b = 0; b < nbox; ++b) {
            de += 0.5 * (v[3 * b] * v[3 * b] + v[3 * b + 1] * v[3 * b + 1] +
                         v[3 * b + 2] * v[3 * b + 2]) -
                  0.5 * 0.01;
        }
    }
    free(v);
    return de;
}

/* SI's energy guard and a warm start in excess.  A start that adds more
   kinetic energy than the biases' work (here any: the biases are 0) is
   kept whole, but for separating contacts and joint rows; the sweeps then
   take only steps that add none, and only an iterate still in excess
   after them is scaled (solver_si.c). (a) A column of six boxes
   warm-started with its resting impulses
       ((6 - k) m g h for contact k, exact), beside a lone box whose start
       is ten times its weight's (0.1 N s: last step's impact, which now
       pushes it off the ground at 0.9 m/s).  One sweep returns the
       column's start exactly (its steps are zero) and the lone box's
       weight, 0.1 N s, both models, to 1e-12; the energy change is the
       stopped bodies' -6 x 0.005 - 0.005 = -0.035 J, and the guard's
       figure equals the bodies' to 1e-12.  Scaling the start instead
       (alpha = 0.32 / 1.06 = 0.30 of it: the old guard) left the column's
       bottom contact at 0.25 N s after the sweep, not 0.6.
   (b) Two boxes stacked (box 0 on box 1), the ground contact's start 10
       N s and the upper contact visited first (listed first): box 1 rises
       at 9.9 m/s, the upper contact's step shares that with box 0 (5 N s,
       both at 4.9 m/s), the ground contact's step stops box 1 (5.1 N s),
       and box 0 flies off at 4.9 m/s: after one sweep the iterate still
       adds 12 J.  The guard scales it: the energy change is at most the
       biases' work (0) to 1e-12 J, as the bodies' velocities say; without
       the scaling the bodies gain 12 J.  With a residual asked for, the
       same bits and the same energy_scale.
   (c) When a joint row's start is in excess, the contacts of the body it
       holds keep theirs (scaling those every step let the Bullet
       shim's ragdoll piles creep and never sleep): two columns of two
       boxes at rest, started exactly, the top box of one held sideways
       by a row (bias 0) started at 0.3 N s, which throws it sideways at
       0.3 m/s (the start adds 0.045 J against the columns' -0.02 J).  The
       row is visited first and its own step zeroes the box's sideways
       speed (W = 1/m = 1), so one sweep returns the row at 0 and all four
       contacts at their start, 0.2 and 0.1 N s, to 1e-12, and stops the
       boxes (-0.02 J).  Scaling the held box's contacts too (the rule
       until the eleventh round) leaves the jointed column's ground
       contact off by more than 1e-3.
   (d) A contact whose free normal velocity separates needs no impulse:
       its start is scaled too.  Box 1 on box 0 on the ground, box 1
       thrown up at 0.9 m/s, the upper contact started at 0.5 N s (an
       impact's leftover), the ground contact at box 0's weight, 0.1 (the
       start adds 0.695 J, alpha = 0).  One sweep gives 0.1 and 0 to
       1e-12 and stops box 0 (-0.005 J); kept whole, the upper start
       pushes box 0 down, the ground contact takes 0.6 N s, box 0 leaves
       at 0.5 m/s, and the end's scaling leaves 0.2 N s.
   (e) (b) 300 times over in one problem: 300 islands, each solved as
       (b) alone, so every pair's impulses are (b)'s to the bit and the
       scale reported is (b)'s (solver_si_island.c).  Then the 300 pairs
       tied into one island by 299 rows between their upper boxes (each
       holds their relative sideways velocity, 0: the rows take no
       impulse), which the coloured sweep and its bundles solve: the end's
       scaling holds the energy change to at most 0 there too, equal to
       the bodies' (to 1e-12 J per pair), and says so in energy_scale < 1. */
static int test_si_start_excess(void)
{
    for (int model = 0; model < 2; ++model) {
        rf_config cfg;
        gen_si_config(&cfg, (rf_model)model, 1); /* one sweep */
        /* (a) */
        const int below_a[7] = {-1, 0, 1, 2, 3, 4, -1};
        rf_problem *p;
        ENSURE(column_problem(&p, 7, below_a, NULL) == 0);
        double g[6 * 7] = {0};
        for (int k = 0; k < 6; ++k) {
            g[6 * k] = 0.1 * (6 - k);
        }
        g[6 * 6] = 1.0;
        rf_stats st;
        ENSURE(rf_solve(p, &cfg, g, &st, NULL) == RF_OK);
        const double de = column_energy_change(p, 7, g);
        printf("  si %-11s column + lone box: bottom %.15f N s (0.6), lone "
               "%.15f (0.1), energy %+.3e J (guard %+.3e)\n",
               MODEL_NAMES[model], g[0], g[36], de, st.energy_change);
        for (int k = 0; k < 6; ++k) {
            ENSURE_SMALL(g[6 * k] - 0.1 * (6 - k), 1e-12);
        }
        ENSURE_SMALL(g[36] - 0.1, 1e-12);
        ENSURE_SMALL(de + 0.035, 1e-12);
        ENSURE_SMALL(st.energy_change - de, 1e-12);
        rf_problem_destroy(p);
        /* (b) */
        const int below_b[2] = {1, -1}; /* contact 0: box 0 on box 1 */
        ENSURE(column_problem(&p, 2, below_b, NULL) == 0);
        double h[12] = {0}, h1[12] = {0};
        h[6] = h1[6] = 10.0;
        rf_stats st1;
        ENSURE(solve_both_residuals(p, &cfg, h1, h, 12, &st1, &st) == 0);
        const double scale_b = st.energy_scale;
        ENSURE(st1.energy_scale == st.energy_scale); /* the same scaling */
        const double de2 = column_energy_change(p, 2, h);
        printf("  si %-11s two boxes, 10 N s under them: energy %+.3e J "
               "(guard %+.3e), impulses %.4f %.4f\n",
               MODEL_NAMES[model], de2, st.energy_change, h[0], h[6]);
        ENSURE_LE(de2, 1e-12);
        ENSURE_SMALL(st.energy_change - de2, 1e-12);
        /* the end's scaling, 2 x 0.51 / 25.01: the sweep's iterate adds
           -0.51 + 25.01 / 2 = 12.0 J */
        ENSURE_SMALL(st.energy_scale - 1.02 / 25.01, 1e-9);
        ENSURE(h[0] > 0.0); /* scaled, not zeroed: the boxes still part */
        rf_problem_destroy(p);
        /* (c) */
        const int below_c[4] = {-1, 0, -1, 2}; /* two columns of two */
        ENSURE(column_problem(&p, 4, below_c, NULL) == 0);
        ENSURE(rf_problem_begin_rows(p, 1, NULL) == RF_OK);
        rf_row_desc row;
        memset(&row, 0, sizeof row);
        row.body_a = 3; /* box 3 held sideways: a joint */
        row.body_b = RF_WORLD;
        row.lin_a[0] = 1.0;
        row.lo = -INFINITY;
        row.hi = INFINITY;
        row.bound_row = -1;
        ENSURE(rf_problem_set_row(p, 0, &row, NULL) == RF_OK);
        double q[6 * 4 + 1] = {0};
        q[0] = q[12] = 0.2; /* both columns at rest: exact */
        q[6] = q[18] = 0.1;
        q[24] = 0.3; /* the row's start in excess */
        ENSURE(rf_solve(p, &cfg, q, &st, NULL) == RF_OK);
        const double de3 = column_energy_change(p, 4, q);
        printf("  si %-11s a joint row's start in excess: contacts %.15f "
               "%.15f %.15f %.15f (0.2, 0.1, 0.2, 0.1), row %.3e, energy "
               "%+.3e J\n",
               MODEL_NAMES[model], q[0], q[6], q[12], q[18], q[24], de3);
        for (int k = 0; k < 4; ++k) {
            ENSURE_SMALL(q[6 * k] - (k % 2 ? 0.1 : 0.2), 1e-12);
        }
        ENSURE_SMALL(q[24], 1e-12);
        ENSURE_SMALL(de3 + 0.02, 1e-12);
        ENSURE_SMALL(st.energy_change - de3, 1e-12);
        rf_problem_destroy(p);
        /* (d) */
        const int below_d[2] = {-1, 0};     /* box 1 on box 0 on the ground */
        const double vy_d[2] = {-0.1, 0.9}; /* box 1 thrown up */
        ENSURE(column_problem(&p, 2, below_d, vy_d) == 0);
        double t[12] = {0};
        t[0] = 0.1; /* box 0's weight: exact */
        t[6] = 0.5; /* the impact's leftover */
        ENSURE(rf_solve(p, &cfg, t, &st, NULL) == RF_OK);
        /* box 1 started at 0.9 m/s, not 0.1 */
        const double de4 =
            column_energy_change(p, 2, t) - 0.5 * 0.81 + 0.5 * 0.01;
        printf("  si %-11s a separating contact's start: ground %.15f N s "
               "(0.1), upper %.15f (0), energy %+.3e J\n",
               MODEL_NAMES[model], t[0], t[6], de4);
        ENSURE_SMALL(t[0] - 0.1, 1e-12);
        ENSURE_SMALL(t[6], 1e-12);
        ENSURE_SMALL(de4 + 0.005, 1e-12);
        rf_problem_destroy(p);
        /* (e) */
        enum { NPAIR = 300 };
        int below_e[2 * NPAIR];
        double *e = calloc((size_t)12 * NPAIR, sizeof(double));
        ENSURE(e != NULL);
        for (int k = 0; k < NPAIR; ++k) {
            below_e[2 * k] = 2 * k + 1; /* box 2k on box 2k + 1 */
            below_e[2 * k + 1] = -1;
            e[6 * (2 * k + 1)] = 10.0;
        }
        ENSURE(column_problem(&p, 2 * NPAIR, below_e, NULL) == 0);
        ENSURE(rf_solve(p, &cfg, e, &st, NULL) == RF_OK);
        int same = 1;
        for (int k = 0; k < NPAIR; ++k) { /* contact 2k: (b)'s contact 0 */
            same &= memcmp(e + 12 * k, h, sizeof h) == 0;
        }
        printf("  si %-11s (b) 300 times, 300 islands: each pair's impulses "
               "(b)'s to the bit: %s, scale %.6f ((b): %.6f)\n",
               MODEL_NAMES[model], same ? "yes" : "no", st.energy_scale,
               scale_b);
        ENSURE(same);
        ENSURE(st.energy_scale == scale_b);
        /* one island: rows between the upper boxes */
        ENSURE(rf_problem_begin_rows(p, NPAIR - 1, NULL) == RF_OK);
        for (int k = 0; k + 1 < NPAIR; ++k) {
            rf_row_desc tie;
            memset(&tie, 0, sizeof tie);
            tie.body_a = 2 * k;
            tie.body_b = 2 * k + 2;
            tie.lin_a[0] = 1.0;
            tie.lin_b[0] = -1.0;
            tie.lo = -INFINITY;
            tie.hi = INFINITY;
            tie.bound_row = -1;
            ENSURE(rf_problem_set_row(p, k, &tie, NULL) == RF_OK);
        }
        double *e2 = calloc((size_t)12 * NPAIR + NPAIR, sizeof(double));
        ENSURE(e2 != NULL);
        for (int k = 0; k < NPAIR; ++k) {
            e2[6 * (2 * k + 1)] = 10.0;
        }
        ENSURE(rf_solve(p, &cfg, e2, &st, NULL) == RF_OK);
        const double de5 = column_energy_change(p, 2 * NPAIR, e2);
        printf("  si %-11s (b) 300 times in one island, coloured (%d "
               "colours): energy %+.3e J (guard %+.3e), scale %.6f\n",
               MODEL_NAMES[model], st.colors, de5, st.energy_change,
               st.energy_scale);
        ENSURE(st.colors > 0);
        ENSURE_LE(de5, 1e-12 * NPAIR);
        ENSURE_SMALL(st.energy_change - de5, 1e-12 * NPAIR);
        ENSURE(st.energy_scale < 1.0);
        free(e);
        free(e2);
        rf_problem_destroy(p);
    }
    return 0;
}

/* rf_problem_solved_velocity: after a solve, the velocities of the
   returned gamma.  SI (residual 0) hands over its sweeps' velocities:
   equal to rf_problem_body_velocity(gamma) to rounding (1e-12 of the
   largest velocity: sums of a few hundred terms in another order); after
   APGD they are computed from gamma the same way, so equal exactly.  No
   solve yet, or any change to the problem since (here setting a contact):
   RF_ERR_STATE. */
static int test_solved_velocity(void)
{
    enum { NB = PILE_NB, NC = PILE_NC };
    pile pl;
    rf_problem *p;
    rf_config cfg;
    double v[3 * NB], w[3 * NB], v1[3 * NB], w1[3 * NB];
    rf_error err;
    ENSURE(pile_solve_setup(91, &p, &pl, &cfg, RF_SOLVER_SI, 0.0, 10) == 0);
    ENSURE(rf_problem_solved_velocity(p, v, w, &err) == RF_ERR_STATE);
    for (int k = 0; k < 2; ++k) {
        double g[6 * NC] = {0};
        cfg.solver = k == 0 ? RF_SOLVER_SI : RF_SOLVER_APGD;
        cfg.residual = 0;
        ENSURE(rf_solve(p, &cfg, g, NULL, NULL) == RF_OK);
        ENSURE(rf_problem_solved_velocity(p, v, w, NULL) == RF_OK);
        ENSURE(rf_problem_body_velocity(p, g, v1, w1, NULL) == RF_OK);
        double vmax = 0.0, dmax = 0.0;
        for (int b = 0; b < 3 * NB; ++b) {
            vmax = fmax(vmax, fmax(fabs(v1[b]), fabs(w1[b])));
            dmax = fmax(dmax, fmax(fabs(v[b] - v1[b]), fabs(w[b] - w1[b])));
        }
        printf("  %s: solved velocities within %.3e of the recomputed "
               "(largest %.3e)\n",
               k == 0 ? "si" : "apgd", dmax, vmax);
        if (k == 0) {
            ENSURE_LE(dmax, 1e-12 * vmax);
        } else {
            ENSURE(dmax == 0.0);
        }
    }
    /* any change invalidates them */
    rf_contact_desc c;
    rf_rng r = {5};
    gen_pile_contact(&r, 0, NB, &c);
    ENSURE(rf_problem_set_contact(p, 0, &c, NULL) == RF_OK);
    ENSURE(rf_problem_solved_velocity(p, v, w, &err) == RF_ERR_STATE);
    ENSURE(strstr(err.message, "changed") != NULL);
    ENSURE(rf_problem_solved_velocity(p, NULL, w, &err) == RF_ERR_NULL);
    rf_problem_destroy(p);
    return 0;
}

/* A tolerance the start already meets (the relative residual of zero
   impulses is 0.25-0.5 on the pile below) must not void the step: every
   solver sweeps at least once and returns an iterate after a sweep,
   never its start (rf_solve's doc).  Before, a cold start at such a tol
   returned zero impulses: a box stack fell through the ground and a
   rolling ball never stopped.  tol >= 1 is refused (rf_config.tol).
     - The rolling sphere of test_rolling_sphere_step, cold start, tol
       0.99 and 0.5, every solver and model: at least one sweep; the normal
       impulse holds at least half the sphere's weight over the step
       (m g h: the analytic support); the rolling torque slows its
       rolling (|w| < v0 / R); the reported residual is rf_residual's of the
   returned impulses (1e-9 relative, 1e-15 absolute: rounding at 0).
     - A random pile (120 contacts) at tol 0.99: the returned impulses have
       a smaller residual than zero impulses, for every solver and model. */
static int test_loose_tolerance(void)
{
    const double m = RS_M, R = RS_R, h = RS_H, g = RS_G, v0 = RS_V0;
    rf_problem *p;
    ENSURE(rolling_sphere(&p) == 0);
    const double tols[2] = {0.99, 0.5};
    for (int s = 0; s < 5; ++s) {
        for (int model = 0; model < 2; ++model) {
            for (int t = 0; t < 2; ++t) {
                rf_config cfg;
                rf_config_default(&cfg);
                cfg.solver = SOLVERS[s];
                cfg.model = (rf_model)model;
                cfg.tol = tols[t];
                cfg.warm_start = 0;
                double gam[6] = {0}, v[3], w[3], res = 0.0;
                rf_stats st;
                ENSURE(rf_solve(p, &cfg, gam, &st, NULL) == RF_OK);
                ENSURE(rf_problem_body_velocity(p, gam, v, w, NULL) == RF_OK);
                ENSURE(rf_residual(p, cfg.model, gam, &res, NULL) == RF_OK);
                printf("  %-10s model %d tol %g: %d sweeps, gn / mgh %.4f, "
                       "w %.6f, residual %.3e (measured %.3e)\n",
                       SOLVER_NAMES[s], model, tols[t], st.iterations,
                       gam[RF_N] / (m * g * h), w[2], st.residual, res);
                ENSURE(st.iterations >= 1);
                ENSURE(gam[RF_N] >= 0.5 * m * g * h);
                ENSURE(fabs(w[2]) < v0 / R);
                ENSURE_LE(fabs(st.residual - res), 1e-9 * res + 1e-15);
            }
        }
    }
    rf_problem_destroy(p);

    pile pl;
    for (int s = 0; s < 5; ++s) {
        for (int model = 0; model < 2; ++model) {
            rf_config cfg;
            ENSURE(pile_solve_setup(17, &p, &pl, &cfg, SOLVERS[s], 0.99,
                                    1000) == 0);
            cfg.model = (rf_model)model;
            double zero[6 * PILE_NC] = {0}, gam[6 * PILE_NC] = {0};
            double res0 = 0.0, res = 0.0;
            rf_stats st;
            ENSURE(rf_residual(p, cfg.model, zero, &res0, NULL) == RF_OK);
            ENSURE(rf_solve(p, &cfg, gam, &st, NULL) == RF_OK);
            ENSURE(rf_residual(p, cfg.model, gam, &res, NULL) == RF_OK);
            printf("  pile %-10s model %d: %d sweeps, residual %.3e (zero "
                   "impulses: %.3e)\n",
                   SOLVER_NAMES[s], model, st.iterations, res, res0);
            ENSURE(st.iterations >= 1);
            ENSURE(res < res0);
            rf_problem_destroy(p);
        }
    }
    return 0;
}

int main(void)
{
    RUN_TEST(test_planted_local);
    RUN_TEST(test_planted_body);
    RUN_TEST(test_body_local_agree);
    RUN_TEST(test_thread_determinism);
    RUN_TEST(test_warm_start);
    RUN_TEST(test_not_converged);
    RUN_TEST(test_rolling_sphere_step);
    RUN_TEST(test_energy_check);
    RUN_TEST(test_si_without_residual);
    RUN_TEST(test_si_start_work);
    RUN_TEST(test_si_start_excess);
    RUN_TEST(test_solved_velocity);
    RUN_TEST(test_bad_input);
    RUN_TEST(test_no_contacts);
    RUN_TEST(test_lipschitz_start);
    RUN_TEST(test_jacobi_carried_lambda);
    RUN_TEST(test_loose_tolerance);
    return TEST_SUMMARY();
}
