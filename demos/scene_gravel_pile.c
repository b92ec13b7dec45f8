/*
 * Tasora & Anitescu, "A complementarity-based rolling friction model for
 * rigid contacts", section 6.3 (seeds/tasora-anitescu-rolling-friction.md):
 * a pile of gravel.  10,000 spheres of diameter 45 mm, density 2028
 * kg/m^3, sliding friction mu = 0.6, fall from 1 m into a flat 2 m x 2 m
 * container at about 800 particles/s; g = 9.81 m/s^2 (y up here), h =
 * 0.005 s, 15 s.  Rolling friction rho and spinning friction sigma = rho
 * are swept over {0, 0.0025, 0.005, 0.01} m (the paper's 0 .. 0.01 m).
 * The paper: "the case without rolling friction produces an almost flat
 * stack" (Fig. 10), rho = sigma = 0.01 m "a steep cone" (Fig. 11), and
 * the angle of repose grows with rho (Figs. 12-13; the seed's text gives
 * no numbers, so the metrics have no reference values).
 *
 * Coefficients.  Bullet combines per contact (btManifoldResult) mu = muA
 * muB and rho = rhoA muB + rhoB muA (sigma likewise).  Every body (the
 * spheres, the container's floor and walls) gets the same per-body values
 *     mu_b = sqrt(0.6),   rho_b = sigma_b = rho / (2 sqrt(0.6)),
 * so that every contact, sphere-sphere and sphere-container alike, has
 * mu = mu_b^2 = 0.6 and rho = sigma = 2 rho_b mu_b = rho (to float
 * precision).  Restitution 0, no damping (Bullet's defaults).
 *
 * Container: a floor box (top y = 0) and four walls 0.6 m high around the
 * 2 m x 2 m inside.  Source: a disc of radius 0.15 m (at 800/s; it scales
 * with sqrt(rate), so the stream keeps its density) centred above the
 * container's centre.  Each sphere is released with a downward velocity
 * of 2 m/s and no spin, its centre at a uniformly random point of the
 * disc and a random height in [1, 1 + 2 m/s h) m above the floor, so
 * that the stream is continuous; a candidate that would come closer than
 * 2 mm to a sphere released in the last 16 steps is redrawn (up to 64
 * times; then the sphere waits for the next step).  The number released
 * per step comes from an accumulator of rate h (800/s: 4 per step).  The
 * generator is splitmix64 seeded with --set seed: runs reproduce, bit
 * for bit (the cone solver is deterministic for any thread count).
 * Sleeping stays on (Bullet's default: a body slower than 0.8 m/s and 1
 * rad/s for 2 s, in an island where every body is, sleeps); it makes a
 * settled heap cheap, but in the quick runs hardly anything sleeps (the
 * heap is one island, still awake at 4 s); --set sleeping=0 turns it off.
 *
 * Cone solver budget: unless the caller passes an rf_config, the scene
 * sets APGD (associated model) with at most 100 iterations and tol 1e-6
 * per step.  A heap hardly ever converges to the world's default 1e-8:
 * with the defaults (1000 iterations) the quick heap takes 8.5 times the
 * iterations and 6 times the time, for angles within 0.6 deg (measured:
 * rho = 0.005: 17.87 vs 17.86 deg; rho = 0.01: 25.12 vs 24.53 deg).
 *
 * Measurement of the angle of repose (gp_measure), from the final state.
 * Spheres outside the container or faster than 0.5 m/s (in flight) are
 * left out.  The height map of the heap: the upper surface of the
 * spheres, y + sqrt(R^2 - d^2), over a grid of D/4 = 11.25 mm cells (0
 * where no sphere is).  H, the heap height: its highest point.  For a
 * cone of angle psi the cross-section at height z is a disc of radius
 * r(z) = r0 - z / tan(psi); the map gives, at any z, the area A(z) of
 * the cells at z or above and the equivalent radius r(z) = sqrt(A(z) /
 * pi), which needs no axis and averages over every direction and every
 * surface sphere.  The least-squares line of r(z) over 21 levels from
 * z_lo to z_lo + 0.75 (H - z_lo) gives psi = atan(-1 / slope): z_lo =
 * 1.25 D leaves out the single layer that spreads over the floor (its
 * top is D), the top quarter leaves out the rounded apex under the
 * stream, and z_lo is raised to 0.25 D above the highest point within
 * one D of the walls, where the walls and not the slope bound the
 * cross-section (the full-size heap reaches them).  Base radius: that
 * line's r at z = D (one layer).  No heap (angle 0, base radius NaN):
 * H <= z_lo, or r(z_lo) < 2 D (fewer than about 16 spheres stand on the
 * first layer), as without rolling friction.  The quick size (500
 * spheres, 200/s, source 0.075 m, 800 steps = 4 s) gives heaps 0.13 to
 * 0.2 m high and 0.3 m in base radius; over seeds 1, 2, 3 the cone
 * solver's angles are 0, 13.6-14.6, 17.9-20.7 and 24.5-25.9 deg (stock,
 * seed 1: 0, 13.1, 18.5, 19.6).  2,000 spheres at 800/s, 900 steps: 6.7
 * (two layers at most), 17.0, 25.6, 29.6 deg (stock 6.1, 13.9, 17.4,
 * 18.0).
 *
 * Parameters: rho (-1, the default: the sweep, one world per value in
 * turn; else that value only), spheres (10,000; --quick 500), rate
 * (800/s; --quick 200/s), seed (1), sleeping (1).  Default 3000 steps
 * (15 s), --quick 800 (4 s); h = 0.005 s unless --dt is given.
 *
 * Series: one row per rho: rho (m), angle (deg), height (m), radius (m),
 * spheres (in the container at the end).  Metrics, with tag = the digits
 * of rho after "0." (0 -> "0", 0.0025 -> "0025", 0.01 -> "01"):
 * angle_rho<tag>, height_rho<tag>, radius_rho<tag>; angle_monotonic (1
 * when the angle strictly increases along the sweep, else 0; NaN for one
 * value); spheres (released per world), lost (released but not in the
 * container at the end, summed over the worlds), and the solver metrics
 * over every world.  The result's bodies are the last world's spheres
 * (rho = 0.01 for the sweep): run one value with --set rho=... to get the
 * final sphere positions of that heap.  Particles table (the report's
 * side views of the heaps): rho, x, y, radius of every sphere whose
 * centre lies within one diameter of the plane z = 0 through the source.
 */
#include "demo.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GP_R 0.0225        /* sphere radius, m */
#define GP_D (2 * GP_R)    /* diameter */
#define GP_DENSITY 2028.0  /* kg/m^3 */
#define GP_MU 0.6          /* combined sliding friction */
#define GP_H 0.005         /* time step, s */
#define GP_G 9.81          /* m/s^2 */
#define GP_HALF 1.0        /* container inner half width, m */
#define GP_WALL_H 0.6      /* wall height, m */
#define GP_WALL_T 0.05     /* wall thickness, m */
#define GP_DROP 1.0        /* release height (centre) above the floor */
#define GP_SRC_R 0.15      /* source disc radius at GP_RATE, m */
#define GP_RATE 800.0      /* the paper's flow, spheres/s */
#define GP_V0 2.0          /* release speed, downward, m/s */
#define GP_GAP 0.002       /* least gap at release, m */
#define GP_RECENT_STEPS 16 /* steps a released sphere is checked */
#define GP_TRIES 64        /* draws per sphere per step */
#define GP_FAST 0.5        /* faster than this at the end: in flight */
#define GP_NSWEEP 4
#define GP_MAX_ITER 100 /* cone solver iterations per step (default config) */
#define GP_TOL 1e-6
#define GP_QUICK_SPHERES 500
#define GP_QUICK_RATE 200.0

static const double gp_sweep[GP_NSWEEP] = {0, 0.0025, 0.005, 0.01};

/* ---- the heap's measurement ---- */

#define GP_CELL (0.25 * GP_D) /* height map cell, m */
#define GP_NCELL ((int)(2 * GP_HALF / GP_CELL + 0.5))
#define GP_ZLO (1.25 * GP_D) /* lowest level of the fit: above one layer */
#define GP_ZFRAC 0.75        /* the fit's levels span this of ZLO .. H */
#define GP_NLEVEL 21
#define GP_MIN_HEAP (2 * GP_D) /* least equivalent radius at ZLO */

typedef struct gp_heap {
    double angle;  /* deg; 0 for no heap */
    double height; /* m, highest point of the spheres above the floor */
    double radius; /* m, base radius (the fit's r at one layer, D); NaN for
                      no heap */
    int spheres;   /* in the container */
    int released;  /* by the source */
} gp_heap;

/* The height of the spheres' upper surface over each GP_CELL x GP_CELL
   cell of the container (at the cell's centre; 0 where no sphere is):
   hmap (GP_NCELL x GP_NCELL).  pos: n centres (x, y, z), speed: n
   speeds; spheres outside the container or faster than GP_FAST are
   left out. */
static void gp_height_map(const double *pos, const double *speed, int n,
                          double *hmap, gp_heap *heap)
{
    const int nc = GP_NCELL;
    memset(hmap, 0, (size_t)nc * (size_t)nc * sizeof *hmap);
    for (int i = 0; i < n; ++i) {
        const double *p = pos + 3 * i;
        if (p[1] < 0 || fabs(p[0]) > GP_HALF || fabs(p[2]) > GP_HALF) {
            continue;
        }
        heap->spheres++;
        if (speed[i] > GP_FAST) {
            continue;
        }
        const int i0 = (int)floor((p[0] - GP_R + GP_HALF) / GP_CELL);
        const int i1 = (int)floor((p[0] + GP_R + GP_HALF) / GP_CELL);
        const int k0 = (int)floor((p[2] - GP_R + GP_HALF) / GP_CELL);
        const int k1 = (int)floor((p[2] + GP_R + GP_HALF) / GP_CELL);
        for (int a = i0 < 0 ? 0 : i0; a <= i1 && a < nc; ++a) {
            const double dx = -GP_HALF + (a + 0.5) * GP_CELL - p[0];
            for (int c = k0 < 0 ? 0 : k0; c <= k1 && c < nc; ++c) {
                const double dz = -GP_HALF + (c + 0.5) * GP_CELL - p[2];
                const double q = GP_R * GP_R - dx * dx - dz * dz;
                double *h = &hmap[(size_t)a * (size_t)nc + (size_t)c];
                if (q > 0 && p[1] + sqrt(q) > *h) {
                    *h = p[1] + sqrt(q);
                }
            }
        }
    }
}

/* Equivalent radius sqrt(A / pi) of the heap's cross-section at height
   z: A = the area of the cells whose surface is at z or above. */
static double gp_radius_at(const double *hmap, double z)
{
    int m = 0;
    for (int j = 0; j < GP_NCELL * GP_NCELL; ++j) {
        m += hmap[j] >= z;
    }
    return sqrt(m * GP_CELL * GP_CELL / DEMO_PI);
}

/* 1 when cell row or column a lies within one diameter of a wall. */
static int gp_near_wall(int a)
{
    const int edge = a < GP_NCELL - 1 - a ? a : GP_NCELL - 1 - a;
    return (edge + 0.5) * GP_CELL < GP_D;
}

/* Angle of repose, height and base radius of the heap (see the header):
   a cone of angle psi has r(z) = r0 - z / tan(psi); the least-squares
   line of r(z) over GP_NLEVEL levels from z_lo to z_lo + GP_ZFRAC (H -
   z_lo) gives psi = atan(-1 / slope).  z_lo: GP_ZLO, or 0.25 D above the
   highest point within one D of the walls if that is higher. */
static void gp_measure(const double *pos, const double *speed, int n,
                       double *hmap, gp_heap *heap)
{
    memset(heap, 0, sizeof *heap);
    heap->radius = NAN;
    gp_height_map(pos, speed, n, hmap, heap);
    for (int j = 0; j < GP_NCELL * GP_NCELL; ++j) {
        heap->height = fmax(heap->height, hmap[j]);
    }
    /* levels where the heap leans on the walls are left out: the walls,
       not the slope, bound its cross-section there */
    double wall = 0;
    for (int a = 0; a < GP_NCELL; ++a) {
        for (int c = 0; c < GP_NCELL; ++c) {
            if (gp_near_wall(a) || gp_near_wall(c)) {
                wall = fmax(wall, hmap[(size_t)a * GP_NCELL + (size_t)c]);
            }
        }
    }
    const double H = heap->height, zlo = fmax(GP_ZLO, wall + 0.25 * GP_D);
    if (H <= zlo || gp_radius_at(hmap, zlo) < GP_MIN_HEAP) {
        return; /* no heap: (almost) nothing above the first layer */
    }
    double sz = 0, sr = 0, szz = 0, szr = 0;
    for (int k = 0; k < GP_NLEVEL; ++k) {
        const double z = zlo + GP_ZFRAC * (H - zlo) * k / (GP_NLEVEL - 1);
        const double r = gp_radius_at(hmap, z);
        sz += z;
        sr += r;
        szz += z * z;
        szr += z * r;
    }
    const double m = GP_NLEVEL, det = m * szz - sz * sz;
    const double slope = (m * szr - sz * sr) / det; /* dr/dz */
    const double r0 = (sr - slope * sz) / m;
    heap->angle = atan2(1, -slope) * 180 / DEMO_PI;
    heap->radius = r0 + slope * GP_D;
}

/* ---- one world ---- */

typedef struct gp_cfg {
    double rho;  /* combined rolling = spinning friction, m */
    int spheres; /* to release */
    double rate; /* per second */
    uint64_t seed;
    int sleeping;
} gp_cfg;

/* The container: a floor (top y = 0) and four walls, all with the
   per-body coefficients. */
static int gp_container(demo_world *w, double mu_b, double rho_b)
{
    plCollisionShapeHandle floor_shape, wall_x, wall_z;
    const double e = GP_HALF + GP_WALL_T;
    const double floor_at[3] = {0, -0.5 * GP_WALL_T, 0};
    const double wx[2][3] = {{e - 0.5 * GP_WALL_T, 0.5 * GP_WALL_H, 0},
                             {-e + 0.5 * GP_WALL_T, 0.5 * GP_WALL_H, 0}};
    const double wz[2][3] = {{0, 0.5 * GP_WALL_H, e - 0.5 * GP_WALL_T},
                             {0, 0.5 * GP_WALL_H, -e + 0.5 * GP_WALL_T}};
    plRigidBodyHandle b[5];
    int rc =
        demo_world_shape(
            w, plNewBoxShape((plReal)e, (plReal)(0.5 * GP_WALL_T), (plReal)e),
            "plNewBoxShape(floor)", &floor_shape) ||
        demo_world_shape(w,
                         plNewBoxShape((plReal)(0.5 * GP_WALL_T),
                                       (plReal)(0.5 * GP_WALL_H), (plReal)e),
                         "plNewBoxShape(wall)", &wall_x) ||
        demo_world_shape(w,
                         plNewBoxShape((plReal)e, (plReal)(0.5 * GP_WALL_H),
                                       (plReal)(0.5 * GP_WALL_T)),
                         "plNewBoxShape(wall)", &wall_z) ||
        demo_world_body(w, "floor", 0, floor_shape, floor_at, NULL, &b[0],
                        NULL) ||
        demo_world_body(w, "wall_px", 0, wall_x, wx[0], NULL, &b[1], NULL) ||
        demo_world_body(w, "wall_nx", 0, wall_x, wx[1], NULL, &b[2], NULL) ||
        demo_world_body(w, "wall_pz", 0, wall_z, wz[0], NULL, &b[3], NULL) ||
        demo_world_body(w, "wall_nz", 0, wall_z, wz[1], NULL, &b[4], NULL);
    for (int k = 0; rc == 0 && k < 5; ++k) {
        rc = DEMO_PL(w, plSetFriction(b[k], (plReal)mu_b)) ||
             DEMO_PL(w, plSetRollingFriction(b[k], (plReal)rho_b)) ||
             DEMO_PL(w, plSetSpinningFriction(b[k], (plReal)rho_b));
    }
    return rc ? -1 : 0;
}

/* A released sphere still near the source. */
typedef struct gp_recent {
    plRigidBodyHandle body;
    int step; /* released at */
} gp_recent;

typedef struct gp_source {
    uint64_t rng;
    double radius; /* of the source disc, m */
    double due;    /* spheres owed (accumulated rate h) */
    int released;
    int nrecent, caprecent;
    gp_recent *recent;
    double *at; /* (caprecent x 3) positions of the recent ones */
} gp_source;

/* 1 when a sphere at p keeps the release gap from every recent one. */
static int gp_free_spot(const gp_source *s, const double p[3])
{
    const double d2 = (GP_D + GP_GAP) * (GP_D + GP_GAP);
    for (int k = 0; k < s->nrecent; ++k) {
        const double *q = s->at + 3 * k;
        const double dx = p[0] - q[0], dy = p[1] - q[1], dz = p[2] - q[2];
        if (dx * dx + dy * dy + dz * dz < d2) {
            return 0;
        }
    }
    return 1;
}

/* Releases this step's spheres (see the header). */
static int gp_release(demo_world *w, gp_source *s, const gp_cfg *c,
                      plCollisionShapeHandle ball, double mass, double mu_b,
                      double rho_b)
{
    /* forget the old ones, refresh the others' positions */
    int keep = 0;
    for (int k = 0; k < s->nrecent; ++k) {
        if (w->step - s->recent[k].step < GP_RECENT_STEPS) {
            plVector3 p;
            if (DEMO_PL(w, plGetPosition(s->recent[k].body, p)) != 0) {
                return -1;
            }
            s->recent[keep] = s->recent[k];
            for (int j = 0; j < 3; ++j) {
                s->at[3 * keep + j] = p[j];
            }
            keep++;
        }
    }
    s->nrecent = keep;
    s->due += c->rate * w->dt;
    while (s->due >= 1 && s->released < c->spheres) {
        double p[3];
        int ok = 0;
        for (int t = 0; t < GP_TRIES && !ok; ++t) {
            const double a = 2 * DEMO_PI * demo_uniform(&s->rng);
            const double r = s->radius * sqrt(demo_uniform(&s->rng));
            p[0] = r * cos(a);
            p[2] = r * sin(a);
            p[1] = GP_DROP + GP_V0 * w->dt * demo_uniform(&s->rng);
            ok = gp_free_spot(s, p);
        }
        if (!ok) {
            break; /* the rest wait for the next step */
        }
        if (s->nrecent == s->caprecent) {
            const int cap = s->caprecent ? 2 * s->caprecent : 64;
            gp_recent *nr = realloc(s->recent, (size_t)cap * sizeof *nr);
            if (nr == NULL) {
                return demo_world_fail(w, "out of memory");
            }
            s->recent = nr;
            double *na = realloc(s->at, (size_t)cap * 3 * sizeof *na);
            if (na == NULL) {
                return demo_world_fail(w, "out of memory");
            }
            s->at = na;
            s->caprecent = cap;
        }
        char name[DEMO_NAME_LEN];
        plRigidBodyHandle b;
        const plVector3 v = {0, (plReal)-GP_V0, 0};
        snprintf(name, sizeof name, "sphere_%05d", s->released);
        if (demo_world_body(w, name, mass, ball, p, NULL, &b, NULL) != 0 ||
            DEMO_PL(w, plSetFriction(b, (plReal)mu_b)) != 0 ||
            DEMO_PL(w, plSetRollingFriction(b, (plReal)rho_b)) != 0 ||
            DEMO_PL(w, plSetSpinningFriction(b, (plReal)rho_b)) != 0 ||
            DEMO_PL(w, plSetLinearVelocity(b, v)) != 0 ||
            (!c->sleeping && DEMO_PL(w, plSetSleeping(b, 0)) != 0)) {
            return -1;
        }
        s->recent[s->nrecent].body = b;
        s->recent[s->nrecent].step = w->step;
        memcpy(s->at + 3 * s->nrecent, p, sizeof p);
        s->nrecent++;
        s->released++;
        s->due -= 1;
    }
    if (s->released >= c->spheres) {
        s->due = 0;
    }
    return 0;
}

/* Records the heap's cross-section for the report's pictures: the
   spheres whose centres lie within one diameter of the plane z = 0
   through the source, as particle rows (rho, x, y, radius). */
static int gp_section(demo_world *w, double rho, const double *pos, int n)
{
    static const char *const cols[] = {"rho", "x", "y", "radius"};
    if (w->result->particles.ncols == 0 &&
        demo_world_particle_columns(w, 4, cols) != 0) {
        return -1;
    }
    for (int i = 0; i < n; ++i) {
        const double *p = pos + 3 * i;
        const double row[4] = {rho, p[0], p[1], GP_R};
        if (fabs(p[2]) < GP_D && p[1] > -GP_D &&
            demo_world_particle_row(w, row) != 0) {
            return -1;
        }
    }
    return 0;
}

/* Measures the heap of the live world w (and records its section). */
static int gp_heap_of(demo_world *w, double rho, gp_heap *heap)
{
    const size_t nb = (size_t)w->nbodies + 1;
    double *pos = malloc(nb * 3 * sizeof *pos);
    double *speed = malloc(nb * sizeof *speed);
    double *hmap = malloc((size_t)GP_NCELL * GP_NCELL * sizeof *hmap);
    int n = 0, rc = 0;
    if (pos == NULL || speed == NULL || hmap == NULL) {
        rc = demo_world_fail(w, "out of memory");
    }
    for (int i = 0; rc == 0 && i < w->nbodies; ++i) {
        demo_body_state s;
        if (!w->dynamic[i]) {
            continue;
        }
        rc = demo_world_state(w, i, &s);
        memcpy(pos + 3 * n, s.pos, sizeof s.pos);
        speed[n++] = demo_speed(&s);
    }
    if (rc == 0) {
        gp_measure(pos, speed, n, hmap, heap);
        rc = gp_section(w, rho, pos, n);
    }
    free(pos);
    free(speed);
    free(hmap);
    return rc;
}

/* Builds the world for c, runs it and measures the heap.  The world stays
   alive (the caller frees it) unless the build fails. */
static int gp_simulate(demo_world *w, const demo_scene *scene,
                       const demo_opts *o, demo_result *out, const gp_cfg *c,
                       gp_heap *heap)
{
    const double mu_b = sqrt(GP_MU), rho_b = c->rho / (2 * sqrt(GP_MU));
    const double mass = GP_DENSITY * 4.0 / 3.0 * DEMO_PI * pow(GP_R, 3);
    plCollisionShapeHandle ball;
    gp_source src;
    memset(&src, 0, sizeof src);
    src.rng = c->seed;
    src.radius = GP_SRC_R * sqrt(c->rate / GP_RATE);
    if (demo_world_init(w, o, out, 0, -GP_G, 0) != 0) {
        return -1;
    }
    if (!(o->dt > 0)) {
        w->dt = GP_H;
    }
    if (o->config == NULL) { /* the scene's solver budget (see the header) */
        rf_config cfg;
        rf_config_default(&cfg);
        cfg.max_iter = GP_MAX_ITER;
        cfg.tol = GP_TOL;
        if (DEMO_PL(w, plSetSolverConfig(w->world, &cfg)) != 0) {
            return -1;
        }
    }
    int rc = gp_container(w, mu_b, rho_b) ||
             demo_world_shape(w, plNewSphereShape((plReal)GP_R),
                              "plNewSphereShape", &ball);
    const int steps = demo_steps(scene, o);
    for (int step = 1; rc == 0 && step <= steps; ++step) {
        rc = gp_release(w, &src, c, ball, mass, mu_b, rho_b) ||
             demo_world_step(w, o);
    }
    free(src.recent);
    free(src.at);
    if (rc == 0) {
        rc = gp_heap_of(w, c->rho, heap);
        heap->released = src.released;
    }
    return rc ? -1 : 0;
}

/* "0.0025" -> "0025", 0 -> "0" */
static void gp_tag(double rho, char *tag, size_t len)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.6f", rho);
    size_t n = strlen(buf);
    while (n > 0 && buf[n - 1] == '0') {
        buf[--n] = '\0';
    }
    if (n > 0 && buf[n - 1] == '.') {
        buf[--n] = '\0';
    }
    const char *dot = strchr(buf, '.');
    if (dot == NULL) {
        snprintf(tag, len, "%s", buf);
    } else if (strncmp(buf, "0.", 2) == 0) {
        snprintf(tag, len, "%s", dot + 1);
    } else {
        snprintf(tag, len, "%.*s_%s", (int)(dot - buf), buf, dot + 1);
    }
}

/* The parameters (quick defaults for spheres and rate unless set),
   checked; c->rho = the rho parameter (-1: the sweep). */
static int gp_read(const demo_scene *scene, const demo_opts *o,
                   demo_result *out, gp_cfg *c)
{
    const double rho = demo_param_value(scene, o, "rho");
    const double nsph = demo_param_is_set(o, "spheres") || !o->quick
                            ? demo_param_value(scene, o, "spheres")
                            : GP_QUICK_SPHERES;
    const double rate = demo_param_is_set(o, "rate") || !o->quick
                            ? demo_param_value(scene, o, "rate")
                            : GP_QUICK_RATE;
    const double seed = demo_param_value(scene, o, "seed");
    const double sleeping = demo_param_value(scene, o, "sleeping");
    if (!(rho >= 0) && rho != -1) {
        return demo_result_fail(
            out, "gravel_pile: rho = %g must be >= 0 (-1: sweep)", rho);
    }
    if (!(nsph >= 1 && nsph <= 100000) || nsph != floor(nsph)) {
        return demo_result_fail(
            out, "gravel_pile: spheres = %g must be 1..100000", nsph);
    }
    if (!(rate > 0 && rate <= 1e5)) {
        return demo_result_fail(
            out, "gravel_pile: rate = %g must be in (0, 1e5]", rate);
    }
    if (!(seed >= 0 && seed <= 1e15) || seed != floor(seed)) {
        return demo_result_fail(
            out, "gravel_pile: seed = %g must be a whole number >= 0", seed);
    }
    if (sleeping != 0 && sleeping != 1) {
        return demo_result_fail(
            out, "gravel_pile: sleeping = %g must be 0 or 1", sleeping);
    }
    c->rho = rho;
    c->spheres = (int)nsph;
    c->rate = rate;
    c->seed = (uint64_t)seed;
    c->sleeping = (int)sleeping;
    return 0;
}

/* The series and metrics of nrho heaps, through the last world w. */
static int gp_record(demo_world *w, int nrho, const double *rhos,
                     const gp_heap *heap)
{
    static const char *const cols[] = {"rho", "angle", "height", "radius",
                                       "spheres"};
    int rc = demo_world_series(w, 5, cols);
    int mono = 1, lost = 0;
    for (int k = 0; rc == 0 && k < nrho; ++k) {
        char tag[24], name[DEMO_NAME_LEN];
        const double row[5] = {rhos[k], heap[k].angle, heap[k].height,
                               heap[k].radius, heap[k].spheres};
        gp_tag(rhos[k], tag, sizeof tag);
        rc = demo_world_row(w, row);
        snprintf(name, sizeof name, "angle_rho%s", tag);
        rc = rc || demo_world_metric(w, name, heap[k].angle);
        snprintf(name, sizeof name, "height_rho%s", tag);
        rc = rc || demo_world_metric(w, name, heap[k].height);
        snprintf(name, sizeof name, "radius_rho%s", tag);
        rc = rc || demo_world_metric(w, name, heap[k].radius);
        if (k > 0 && !(heap[k].angle > heap[k - 1].angle)) {
            mono = 0;
        }
        lost += heap[k].released - heap[k].spheres;
    }
    rc = rc || demo_world_metric(w, "angle_monotonic", nrho > 1 ? mono : NAN) ||
         demo_world_metric(w, "spheres", heap[nrho - 1].released) ||
         demo_world_metric(w, "lost", lost);
    return rc ? -1 : 0;
}

static int gravel_pile_run(const demo_scene *scene, const demo_opts *o,
                           demo_result *out)
{
    gp_cfg base;
    if (gp_read(scene, o, out, &base) != 0) {
        return -1;
    }
    const int nrho = base.rho < 0 ? GP_NSWEEP : 1;
    gp_heap heap[GP_NSWEEP];
    double rhos[GP_NSWEEP];
    demo_stats acc = {0, 0, 0, 0};
    demo_world w;
    for (int k = 0; k < nrho; ++k) {
        gp_cfg c = base;
        c.rho = base.rho < 0 ? gp_sweep[k] : base.rho;
        rhos[k] = c.rho;
        if (gp_simulate(&w, scene, o, out, &c, &heap[k]) != 0) {
            demo_world_free(&w);
            return -1;
        }
        demo_stats_add(&acc, &w);
        if (k + 1 < nrho && demo_world_free(&w) != 0) {
            return -1;
        }
    }
    /* the last world: its bodies, the solver statistics of all worlds */
    demo_stats_store(&w, &acc);
    int rc =
        demo_world_finish(&w, scene, out) || gp_record(&w, nrho, rhos, heap);
    if (demo_world_free(&w) != 0) {
        rc = -1;
    }
    return rc ? -1 : 0;
}

static const demo_param gp_params[] = {
    {"rho", -1,
     "combined rolling = spinning friction, m; -1: the sweep 0, 0.0025, "
     "0.005, 0.01"},
    {"spheres", 10000, "spheres released (--quick: 500)"},
    {"rate", 800,
     "spheres released per second (--quick: 200); the source's radius is "
     "0.15 m sqrt(rate / 800)"},
    {"seed", 1, "seed of the source's random positions"},
    {"sleeping", 1, "1: bodies may sleep (Bullet's default), 0: never"},
};

static const demo_metric_info gp_metrics[] = {
    {"angle_rho0", "angle of repose with rho = sigma = 0, deg (the paper: "
                   "an almost flat stack, Fig. 10; 0 = no heap above the "
                   "first layer)"},
    {"angle_rho0025", "angle of repose with rho = sigma = 0.0025 m, deg"},
    {"angle_rho005", "angle of repose with rho = sigma = 0.005 m, deg"},
    {"angle_rho01", "angle of repose with rho = sigma = 0.01 m, deg (the "
                    "paper: a steep cone, Fig. 11)"},
    {"height_rho0", "heap height (highest point of the spheres above the "
                    "floor) with rho = 0, m (one layer: 0.045)"},
    {"height_rho0025", "heap height with rho = 0.0025 m, m"},
    {"height_rho005", "heap height with rho = 0.005 m, m"},
    {"height_rho01", "heap height with rho = 0.01 m, m"},
    {"radius_rho0", "heap base radius with rho = 0, m (NaN: no heap)"},
    {"radius_rho0025", "heap base radius with rho = 0.0025 m (the fitted "
                       "cone's radius at one layer's height), m"},
    {"radius_rho005", "heap base radius with rho = 0.005 m, m"},
    {"radius_rho01", "heap base radius with rho = 0.01 m, m"},
    {"angle_monotonic", "1 when the angle strictly increases with rho over "
                        "the sweep, else 0 (the paper: it does)"},
    {"spheres", "spheres released per world"},
    {"lost", "spheres released but not in the container at the end, over "
             "all worlds"},
};

static const demo_plot gp_plots[] = {
    {
        .name = "angle",
        .title = "Gravel pile (Tasora-Anitescu 6.3): angle of repose vs rho",
        .x = "rho",
        .xlabel = "rolling = spinning friction rho = sigma (m)",
        .ylabel = "angle of repose (deg)",
        .y = {"angle"},
    },
    {
        .name = "height",
        .title = "Gravel pile: heap height vs rho",
        .x = "rho",
        .xlabel = "rolling = spinning friction rho = sigma (m)",
        .ylabel = "heap height (m)",
        .y = {"height"},
    },
    {
        .name = "heaps",
        .title = "Gravel pile: the final heaps, a 90 mm slice through the "
                 "centre (spheres with |z| < D), side view",
        .x = "x",
        .xlabel = "x (m)",
        .ylabel = "height y (m)",
        .y = {"y"},
        .kind = DEMO_PLOT_PARTICLES,
        .group = {"rho"},
        .size = "radius",
    },
};

const demo_scene demo_gravel_pile = {
    .name = "gravel_pile",
    .description =
        "Tasora & Anitescu section 6.3: 45 mm spheres (2028 kg/m^3, mu = "
        "0.6) poured from 1 m into a 2 m x 2 m container at 800/s, h = "
        "0.005 s, rho = sigma swept over 0 .. 0.01 m; angle of repose",
    .default_steps = 3000,
    .quick_steps = 800,
    .params = gp_params,
    .nparams = (int)(sizeof gp_params / sizeof gp_params[0]),
    .run = gravel_pile_run,
    .explanation =
        "Spheres poured onto a floor form a heap whose flank settles at the "
        "angle of repose.  Plain spheres (rho = sigma = 0) roll off any "
        "slope, so the pour spreads into one layer over the floor (the "
        "paper's almost flat stack, angle 0 here); rolling and spinning "
        "friction hold them, and the angle should grow with rho at every "
        "step of the sweep (the paper's Figs. 11-13).  The angle is "
        "measured from the final height map: the heap's cross-section at "
        "height z has the equivalent radius r(z) = sqrt(area / pi), a cone "
        "has r(z) = r0 - z / tan(angle), and a straight-line fit of r(z) "
        "between the first layer and three quarters of the height gives "
        "the angle.  The default is the paper's size (10,000 spheres, 15 "
        "s: long, not run in the tests; a 2,000-sphere sweep of 900 steps "
        "takes 5 minutes on 2 cores); --quick pours 500 spheres at 200/s "
        "for 4 s, heaps 0.13-0.2 m high.  Compare solvers: stock Bullet's "
        "box-clamped rolling friction gives a flatter slope at rho = 0.01 "
        "(quick: 19.6 against 24.5 deg).  Without --set rho the result's "
        "bodies are the last heap's (rho = 0.01); --set rho=<m> runs one "
        "heap and prints its spheres.  The heaps picture shows a slice through "
        "each final heap (the spheres within one diameter of the centre "
        "plane), stock above, cone below, at one scale.",
    .metric_info = gp_metrics,
    .nmetric_info = (int)(sizeof gp_metrics / sizeof gp_metrics[0]),
    .plots = gp_plots,
    .nplots = (int)(sizeof gp_plots / sizeof gp_plots[0]),
};
