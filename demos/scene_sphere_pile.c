/*
 * Acary, Bourrier & Viano, "Rolling friction cone", section 6.2
 * (seeds/acary-rolling-friction-cone.txt): spheres piles.  250 spheres of
 * diameter phi = 0.02 m, density 1300 kg/m^3, dropped at a constant rate
 * from a constant height of 10 phi onto a square fixed plane 60 phi wide,
 * their horizontal coordinates drawn uniformly in [-phi/2, phi/2] ("to
 * avoid the constitution of artificial columns"), g = 9.81 m/s^2 (y up
 * here), restitution 0, h = 1e-3 s, 20 s; mu in {0.1, 0.3, 1.0}, the
 * rolling friction mu_r (a length, m) swept over [1e-5, 1].  The paper
 * measures the final pile: the height H normalised by phi, and the mean
 * radius of the spheres touching the plane (the average distance of
 * their centres to their horizontal centroid), both against mu_r (its
 * Fig. 5), and states three regimes: H / phi = 1 for small mu_r (one
 * layer, "no superposition of spheres"), a quick rise past a critical
 * mu_r, and a plateau that does not depend on mu_r and is higher for a
 * higher mu; the mean radius falls in the second regime and is stable in
 * the third.  Its plots give no numbers to compare with, so the metrics
 * have no reference values; the tests check the stated regimes.
 *
 * The model.  Acary's cone has sliding and rolling friction and no
 * spinning friction, and its solver works on the modified velocity y^ = y
 * + [mu ||u_T|| + mu_r ||omega_R||, 0 ...] (its eq. (32)): the De Saxce
 * (non-associated) model.  So unless the caller passes an rf_config, the
 * scene sets RF_MODEL_DESAXCE, projected block Gauss-Seidel (the paper's
 * solver; it ran to a relative 1e-4) with at most 100 iterations and tol
 * 1e-6 per step, and spinning friction sigma = 0.  The piles are hard to
 * converge: with mu_r = 0.1 m = 10 R the rolling rows weigh 1/I = 2.5 /
 * (m R^2) against the normal rows' 1/m, and in the quick mu = 1 run 100
 * Gauss-Seidel sweeps leave a largest residual of 0.011 (4209 of 5000
 * steps above tol); APGD with the same budget leaves 0.13 (4610 steps),
 * 1000 APGD iterations still 9.5e-4, for the same heights within 2%.
 * Without spinning friction a sphere may keep spinning about a contact
 * normal: the quick mu = 1, mu_r = 0.1 pile still has spheres turning at
 * about 3 rad/s at the end, which is the model, not the solver.
 *
 * Coefficients (Bullet combines per contact mu = muA muB, rho = rhoA muB
 * + rhoB muA): the spheres and the plane all get mu_b = sqrt(mu) and
 * rho_b = mu_r / (2 sqrt(mu)), so every contact has mu and rho = mu_r.
 *
 * What the paper leaves open, chosen here.  The rate: 15 spheres/s (one
 * every 66.7 ms), so a sphere has fallen 0.5 g t^2 = 21.8 mm > phi when
 * the next one appears at the same height (no overlap at release) and the
 * 250 spheres are out after 16.7 s, 3.3 s before the end.  Release: at
 * rest, centre 10 phi above the plane, (x, z) uniform in [-phi/2,
 * phi/2]^2, from splitmix64 seeded with --set seed (runs reproduce bit
 * for bit).  The plane: a box 60 phi x 60 phi, its top at y = 0; spheres
 * that roll off its edge fall and are counted as lost.  Sleeping is off
 * (--set sleeping=1 turns Bullet's on): Bullet's thresholds (0.8 m/s and
 * 1 rad/s for 2 s) are sized for metre bodies and would stop these 2 cm
 * spheres while they still roll.
 *
 * Measurement, at the end of each run, over the spheres still on the
 * plane (centre above its top): H = the highest point, max(y + R); the
 * base = the spheres touching the plane (centre below 1.1 R); their
 * horizontal centroid; the mean radius = the mean distance of the base's
 * centres to it.  Both divided by phi.
 *
 * Sweep: mu in {0.1, 0.3, 1.0} x mu_r in {1e-5, 1e-4, 3e-4, 1e-3, 3e-3,
 * 1e-2, 0.1, 1} m (24 worlds, 20,000 steps each); --quick: 60 spheres, 5
 * s, mu in {0.3, 1.0} x mu_r in {1e-5, 3e-4, 0.1}.  --set mu=... or
 * --set mur=... runs that value only.
 *
 * Series: one row per mu_r: mur and, per mu, height_mu<tag> (H / phi),
 * radius_mu<tag> (mean radius / phi), with tag the digits of mu without
 * its point (0.1 -> "01", 0.3 -> "03", 1 -> "1").  Particles table (the
 * report's Fig. 4): mu, mur, x, y, radius of every sphere on the plane
 * for the runs with mu_r = 3e-4 and 0.1 (all runs when one mu_r is
 * set).  Metrics: per mu, height_low_mu<tag> / radius_low_mu<tag> at the
 * smallest mu_r and height_high_mu<tag> / radius_high_mu<tag> at the
 * largest; lost (spheres off the plane, over all runs); ke_max (the
 * largest kinetic energy left at the end of a run, J: the pile should be
 * at rest); the solver metrics over every run.
 */
#include "demo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SPP_PHI 0.02            /* sphere diameter, m */
#define SPP_R (0.5 * SPP_PHI)   /* radius */
#define SPP_DENSITY 1300.0      /* kg/m^3 */
#define SPP_G 9.81              /* m/s^2 */
#define SPP_H 1e-3              /* time step, s */
#define SPP_DROP (10 * SPP_PHI) /* release height of the centre, m */
#define SPP_HALF (30 * SPP_PHI) /* half width of the plane, m */
#define SPP_THICK 0.05          /* plane box thickness, m */
#define SPP_BASE (1.1 * SPP_R)  /* centre below this: touches the plane */
#define SPP_MAX_ITER 100        /* cone solver budget (default config) */
#define SPP_TOL 1e-6
#define SPP_NMU 3
#define SPP_NMUR 8
#define SPP_MAX_RUNS (SPP_NMU * SPP_NMUR)
#define SPP_QUICK_SPHERES 60
#define SPP_QUICK_STEPS 5000

static const double spp_mus[SPP_NMU] = {0.1, 0.3, 1.0};
static const double spp_murs[SPP_NMUR] = {1e-5, 1e-4, 3e-4, 1e-3,
                                          3e-3, 1e-2, 0.1,  1.0};
static const double spp_quick_mus[] = {0.3, 1.0};
static const double spp_quick_murs[] = {1e-5, 3e-4, 0.1};
/* the runs whose spheres are pictured (the paper's Fig. 4) */
static const double spp_pictured[] = {3e-4, 0.1};

typedef struct spp_cfg {
    int spheres;
    double rate; /* spheres per second */
    uint64_t seed;
    int sleeping;
} spp_cfg;

/* The final pile of one run. */
typedef struct spp_pile {
    double mu, mur;
    double height; /* H / phi */
    double radius; /* mean base radius / phi; NaN: no sphere on the plane */
    int on_plane, released;
    double ke; /* kinetic energy at the end, J */
} spp_pile;

/* Measures the pile (see the header) and records the pictured runs'
   spheres. */
static int spp_measure(demo_world *w, int pictured, spp_pile *pile)
{
    static const char *const cols[] = {"mu", "mur", "x", "y", "radius"};
    const double mass = SPP_DENSITY * DEMO_PI / 6 * pow(SPP_PHI, 3);
    const double inertia = 0.4 * mass * SPP_R * SPP_R;
    double top = 0, cx = 0, cz = 0;
    int nbase = 0;
    pile->on_plane = 0;
    pile->ke = 0;
    if (pictured && w->result->particles.ncols == 0 &&
        demo_world_particle_columns(w, 5, cols) != 0) {
        return -1;
    }
    /* two passes over the spheres: the centroid of the base, then the
       distances to it */
    for (int pass = 0; pass < 2; ++pass) {
        double dist = 0;
        for (int i = 0; i < w->nbodies; ++i) {
            demo_body_state s;
            if (!w->dynamic[i]) {
                continue;
            }
            if (demo_world_state(w, i, &s) != 0) {
                return -1;
            }
            const double *p = s.pos;
            if (p[1] <= 0 || fabs(p[0]) > SPP_HALF || fabs(p[2]) > SPP_HALF) {
                continue; /* off the plane */
            }
            if (pass == 0) {
                const double v2 = demo_dot3(s.vel, s.vel);
                const double w2 = demo_dot3(s.omega, s.omega);
                const double row[5] = {pile->mu, pile->mur, p[0], p[1], SPP_R};
                pile->on_plane++;
                pile->ke += 0.5 * mass * v2 + 0.5 * inertia * w2;
                top = fmax(top, p[1] + SPP_R);
                if (p[1] < SPP_BASE) {
                    cx += p[0];
                    cz += p[2];
                    nbase++;
                }
                if (pictured && demo_world_particle_row(w, row) != 0) {
                    return -1;
                }
            } else if (p[1] < SPP_BASE) {
                dist += hypot(p[0] - cx, p[2] - cz);
            }
        }
        if (pass == 0 && nbase > 0) {
            cx /= nbase;
            cz /= nbase;
        }
        if (pass == 1) {
            pile->radius = nbase > 0 ? dist / nbase / SPP_PHI : NAN;
        }
    }
    pile->height = top / SPP_PHI;
    return 0;
}

/* Builds the world for (pile->mu, pile->mur), runs it, measures it; the
   world stays alive (the caller frees it). */
static int spp_simulate(demo_world *w, const demo_scene *scene,
                        const demo_opts *o, demo_result *out, const spp_cfg *c,
                        int pictured, spp_pile *pile)
{
    const double mu_b = sqrt(pile->mu), rho_b = pile->mur / (2 * mu_b);
    const double mass = SPP_DENSITY * DEMO_PI / 6 * pow(SPP_PHI, 3);
    const double at_plane[3] = {0, -0.5 * SPP_THICK, 0};
    plCollisionShapeHandle ball, slab;
    plRigidBodyHandle plane;
    uint64_t rng = c->seed;
    double due = 0;
    if (demo_world_init(w, o, out, 0, -SPP_G, 0) != 0) {
        return -1;
    }
    if (!(o->dt > 0)) {
        w->dt = SPP_H;
    }
    if (o->config == NULL) { /* the paper's model (see the header) */
        rf_config cfg;
        rf_config_default(&cfg);
        cfg.model = RF_MODEL_DESAXCE;
        cfg.solver = RF_SOLVER_GS;
        cfg.max_iter = SPP_MAX_ITER;
        cfg.tol = SPP_TOL;
        if (DEMO_PL(w, plSetSolverConfig(w->world, &cfg)) != 0) {
            return -1;
        }
        w->model = cfg.model;
    }
    int rc =
        demo_world_shape(w, plNewSphereShape((plReal)SPP_R), "plNewSphereShape",
                         &ball) ||
        demo_world_shape(w,
                         plNewBoxShape((plReal)SPP_HALF,
                                       (plReal)(0.5 * SPP_THICK),
                                       (plReal)SPP_HALF),
                         "plNewBoxShape(plane)", &slab) ||
        demo_world_body(w, "plane", 0, slab, at_plane, NULL, &plane, NULL) ||
        DEMO_PL(w, plSetFriction(plane, (plReal)mu_b)) ||
        DEMO_PL(w, plSetRollingFriction(plane, (plReal)rho_b));
    pile->released = 0;
    const int steps = demo_steps(scene, o);
    for (int step = 1; rc == 0 && step <= steps; ++step) {
        /* the source: rate h spheres per step, accumulated */
        due += c->rate * w->dt;
        while (rc == 0 && due >= 1 && pile->released < c->spheres) {
            char name[DEMO_NAME_LEN];
            plRigidBodyHandle b;
            const double p[3] = {SPP_PHI * (demo_uniform(&rng) - 0.5), SPP_DROP,
                                 SPP_PHI * (demo_uniform(&rng) - 0.5)};
            snprintf(name, sizeof name, "sphere_%03d", pile->released);
            rc = demo_world_body(w, name, mass, ball, p, NULL, &b, NULL) ||
                 DEMO_PL(w, plSetFriction(b, (plReal)mu_b)) ||
                 DEMO_PL(w, plSetRollingFriction(b, (plReal)rho_b)) ||
                 (!c->sleeping && DEMO_PL(w, plSetSleeping(b, 0)));
            pile->released++;
            due -= 1;
        }
        rc = rc || demo_world_step(w, o);
    }
    return rc || spp_measure(w, pictured, pile) ? -1 : 0;
}

/* "0.3" -> "03", 1 -> "1", 0.05 -> "005" */
static void spp_tag(double mu, char *tag, size_t len)
{
    char buf[32];
    size_t n = 0;
    snprintf(buf, sizeof buf, "%g", mu);
    for (const char *q = buf; *q && n + 1 < len; ++q) {
        if (*q != '.') {
            tag[n++] = *q == '-' ? 'm' : *q;
        }
    }
    tag[n] = '\0';
}

/* The series (one row per mu_r, two columns per mu) and the metrics. */
static int spp_record(demo_world *w, const double *mus, int nmu,
                      const double *murs, int nmur, const spp_pile *pile)
{
    char names[1 + 2 * SPP_NMU][DEMO_NAME_LEN];
    const char *cols[1 + 2 * SPP_NMU];
    double ke = 0;
    int lost = 0;
    snprintf(names[0], DEMO_NAME_LEN, "mur");
    for (int i = 0; i < nmu; ++i) {
        char tag[16];
        spp_tag(mus[i], tag, sizeof tag);
        snprintf(names[1 + 2 * i], DEMO_NAME_LEN, "height_mu%s", tag);
        snprintf(names[2 + 2 * i], DEMO_NAME_LEN, "radius_mu%s", tag);
    }
    for (int j = 0; j < 1 + 2 * nmu; ++j) {
        cols[j] = names[j];
    }
    int rc = demo_world_series(w, 1 + 2 * nmu, cols);
    for (int j = 0; rc == 0 && j < nmur; ++j) {
        double row[1 + 2 * SPP_NMU];
        row[0] = murs[j];
        for (int i = 0; i < nmu; ++i) {
            const spp_pile *p = &pile[i * nmur + j];
            row[1 + 2 * i] = p->height;
            row[2 + 2 * i] = p->radius;
            ke = fmax(ke, p->ke);
            lost += p->released - p->on_plane;
        }
        rc = demo_world_row(w, row);
    }
    for (int i = 0; rc == 0 && i < nmu; ++i) {
        char tag[16], name[DEMO_NAME_LEN];
        const spp_pile *lo = &pile[i * nmur], *hi = &pile[i * nmur + nmur - 1];
        spp_tag(mus[i], tag, sizeof tag);
        snprintf(name, sizeof name, "height_low_mu%s", tag);
        rc = demo_world_metric(w, name, lo->height);
        snprintf(name, sizeof name, "radius_low_mu%s", tag);
        rc = rc || demo_world_metric(w, name, lo->radius);
        snprintf(name, sizeof name, "height_high_mu%s", tag);
        rc = rc || demo_world_metric(w, name, hi->height);
        snprintf(name, sizeof name, "radius_high_mu%s", tag);
        rc = rc || demo_world_metric(w, name, hi->radius);
    }
    rc = rc || demo_world_metric(w, "spheres", pile[0].released) ||
         demo_world_metric(w, "lost", lost) ||
         demo_world_metric(w, "ke_max", ke);
    return rc ? -1 : 0;
}

/* The parameters, checked: the mu and mu_r values to run, the source. */
static int spp_read(const demo_scene *scene, const demo_opts *o,
                    demo_result *out, double *mus, int *nmu, double *murs,
                    int *nmur, spp_cfg *c)
{
    const double mu = demo_param_value(scene, o, "mu");
    const double mur = demo_param_value(scene, o, "mur");
    const double nsph = demo_param_is_set(o, "spheres") || !o->quick
                            ? demo_param_value(scene, o, "spheres")
                            : SPP_QUICK_SPHERES;
    const double rate = demo_param_value(scene, o, "rate");
    const double seed = demo_param_value(scene, o, "seed");
    const double sleeping = demo_param_value(scene, o, "sleeping");
    if (!(mu > 0) && mu != -1) {
        return demo_result_fail(
            out, "sphere_pile: mu = %g must be > 0 (-1: sweep)", mu);
    }
    if (!(mur >= 0) && mur != -1) {
        return demo_result_fail(
            out, "sphere_pile: mur = %g must be >= 0 (-1: sweep)", mur);
    }
    if (!(nsph >= 1 && nsph <= 100000) || nsph != floor(nsph)) {
        return demo_result_fail(
            out, "sphere_pile: spheres = %g must be 1..100000", nsph);
    }
    if (!(rate > 0 && rate <= 1e4)) {
        return demo_result_fail(
            out, "sphere_pile: rate = %g must be in (0, 1e4]", rate);
    }
    if (!(seed >= 0 && seed <= 1e15) || seed != floor(seed)) {
        return demo_result_fail(
            out, "sphere_pile: seed = %g must be a whole number >= 0", seed);
    }
    if (sleeping != 0 && sleeping != 1) {
        return demo_result_fail(
            out, "sphere_pile: sleeping = %g must be 0 or 1", sleeping);
    }
    if (mu > 0) {
        mus[0] = mu;
        *nmu = 1;
    } else {
        *nmu = o->quick ? 2 : SPP_NMU;
        memcpy(mus, o->quick ? spp_quick_mus : spp_mus,
               (size_t)*nmu * sizeof *mus);
    }
    if (mur >= 0) {
        murs[0] = mur;
        *nmur = 1;
    } else {
        *nmur = o->quick ? 3 : SPP_NMUR;
        memcpy(murs, o->quick ? spp_quick_murs : spp_murs,
               (size_t)*nmur * sizeof *murs);
    }
    c->spheres = (int)nsph;
    c->rate = rate;
    c->seed = (uint64_t)seed;
    c->sleeping = (int)sleeping;
    return 0;
}

static int sphere_pile_run(const demo_scene *scene, const demo_opts *o,
                           demo_result *out)
{
    double mus[SPP_NMU], murs[SPP_NMUR];
    int nmu = 0, nmur = 0;
    spp_cfg c = {0, 0, 0, 0};
    if (spp_read(scene, o, out, mus, &nmu, murs, &nmur, &c) != 0) {
        return -1;
    }
    spp_pile pile[SPP_MAX_RUNS];
    demo_stats acc = {0, 0, 0, 0};
    demo_world w;
    for (int i = 0; i < nmu; ++i) {
        for (int j = 0; j < nmur; ++j) {
            spp_pile *p = &pile[i * nmur + j];
            int pictured = nmur == 1;
            for (size_t k = 0; k < sizeof spp_pictured / sizeof *spp_pictured;
                 ++k) {
                pictured |= murs[j] == spp_pictured[k];
            }
            p->mu = mus[i];
            p->mur = murs[j];
            if (spp_simulate(&w, scene, o, out, &c, pictured, p) != 0) {
                demo_world_free(&w);
                return -1;
            }
            demo_stats_add(&acc, &w);
            const int last = i == nmu - 1 && j == nmur - 1;
            if (!last && demo_world_free(&w) != 0) {
                return -1;
            }
        }
    }
    /* the last world: its bodies, the solver statistics of all runs */
    demo_stats_store(&w, &acc);
    int rc = demo_world_finish(&w, scene, out) ||
             spp_record(&w, mus, nmu, murs, nmur, pile);
    if (demo_world_free(&w) != 0) {
        rc = -1;
    }
    return rc ? -1 : 0;
}

static const demo_param spp_params[] = {
    {"mu", -1,
     "sliding friction; -1: the sweep 0.1, 0.3, 1.0 (--quick: 0.3, "
     "1.0)"},
    {"mur", -1,
     "rolling friction mu_r, m; -1: the sweep 1e-5 .. 1 (--quick: 1e-5, "
     "3e-4, 0.1)"},
    {"spheres", 250, "spheres dropped (--quick: 60)"},
    {"rate", 15, "spheres dropped per second"},
    {"seed", 1, "seed of the random horizontal offsets"},
    {"sleeping", 0, "1: Bullet's sleeping on, 0: off (the default)"},
};

static const demo_metric_info spp_metrics[] = {
    {"height_low_mu01", "H / phi at the smallest mu_r with mu = 0.1 (the "
                        "paper: 1, one layer)"},
    {"radius_low_mu01", "mean base radius / phi at the smallest mu_r, mu = "
                        "0.1"},
    {"height_high_mu01", "H / phi at the largest mu_r with mu = 0.1 (the "
                         "paper's plateau, the lowest of the three)"},
    {"radius_high_mu01", "mean base radius / phi at the largest mu_r, mu = "
                         "0.1"},
    {"height_low_mu03", "H / phi at the smallest mu_r with mu = 0.3 (1)"},
    {"radius_low_mu03", "mean base radius / phi, smallest mu_r, mu = 0.3"},
    {"height_high_mu03", "H / phi at the largest mu_r with mu = 0.3"},
    {"radius_high_mu03", "mean base radius / phi, largest mu_r, mu = 0.3"},
    {"height_low_mu1", "H / phi at the smallest mu_r with mu = 1 (1)"},
    {"radius_low_mu1", "mean base radius / phi, smallest mu_r, mu = 1"},
    {"height_high_mu1", "H / phi at the largest mu_r with mu = 1 (the "
                        "highest plateau)"},
    {"radius_high_mu1", "mean base radius / phi, largest mu_r, mu = 1"},
    {"spheres", "spheres dropped per run"},
    {"lost", "spheres that left the plane (rolled off its edge), over all "
             "runs"},
    {"ke_max", "largest kinetic energy left at the end of a run, J (a "
               "sphere at 1 cm/s: 3e-7 J)"},
};

static const demo_plot spp_plots[] = {
    {
        .name = "height",
        .title = "Sphere pile (Acary 6.2, Fig. 5): normalised height H / "
                 "phi vs mu_r",
        .x = "mur",
        .xlabel = "rolling friction mu_r (m)",
        .ylabel = "H / phi",
        .y = {"height_mu01", "height_mu03", "height_mu1"},
        .logx = 1,
    },
    {
        .name = "radius",
        .title = "Sphere pile: mean radius of the base / phi vs mu_r",
        .x = "mur",
        .xlabel = "rolling friction mu_r (m)",
        .ylabel = "mean base radius / phi",
        .y = {"radius_mu01", "radius_mu03", "radius_mu1"},
        .logx = 1,
    },
    {
        .name = "piles",
        .title = "Sphere pile (Acary Fig. 4): the final piles, side view "
                 "of every sphere on the plane, the central 0.4 m",
        .x = "x",
        .xlabel = "x (m)",
        .ylabel = "height y (m)",
        .y = {"y"},
        .kind = DEMO_PLOT_PARTICLES,
        .group = {"mu", "mur"},
        .size = "radius",
        .xrange = {-0.2, 0.2},
    },
};

const demo_scene demo_sphere_pile = {
    .name = "sphere_pile",
    .description =
        "Acary et al. (rolling friction cone) section 6.2: 250 spheres phi = "
        "0.02 m (1300 kg/m^3) dropped from 10 phi onto a 60 phi plane, h = "
        "1e-3 s, 20 s; mu in {0.1, 0.3, 1}, mu_r swept 1e-5 .. 1 m; H / phi "
        "and mean base radius",
    .default_steps = 20000,
    .quick_steps = SPP_QUICK_STEPS,
    .params = spp_params,
    .nparams = (int)(sizeof spp_params / sizeof spp_params[0]),
    .run = sphere_pile_run,
    .explanation =
        "Spheres dropped one by one from 10 diameters onto the same spot "
        "pile up only as far as friction holds them.  Without rolling "
        "friction a sphere landing on another rolls off it, and the pile "
        "is one layer (H / phi = 1, the paper's first regime, with a wide "
        "base); past a critical mu_r the spheres stack and the height "
        "rises quickly (second regime) to a plateau that no longer depends "
        "on mu_r (third regime), higher for a higher mu because a low mu "
        "lets the bottom spheres slide out under the pile's weight.  The "
        "mean base radius falls in the second regime and stays in the "
        "third.  The model is Acary's (De Saxce, no spinning friction).  "
        "The full sweep (3 mu x 8 mu_r, 250 spheres, 20 s each) is long; "
        "--quick drops 60 spheres in 5 s for mu in {0.3, 1} and mu_r in "
        "{1e-5, 3e-4, 0.1}.  Compare the plateaus: stock Bullet's box-clamped "
        "rolling friction stacked lower in the quick run (H / phi 2.47 and "
        "2.79 for mu = 0.3 and 1 against the cone's 2.55 and 3.58).  The "
        "picture shows every "
        "sphere on the plane seen from the side for mu_r = 3e-4 and 0.1 "
        "(the paper's Fig. 4).",
    .metric_info = spp_metrics,
    .nmetric_info = (int)(sizeof spp_metrics / sizeof spp_metrics[0]),
    .plots = spp_plots,
    .nplots = (int)(sizeof spp_plots / sizeof spp_plots[0]),
};
