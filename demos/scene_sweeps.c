/*
 * The Bullet shim's physical cases as sweeps: a ball
 * R = 0.5 m on a static plane (friction 1), ball friction 0.9, rolling
 * friction 0.036 m, so the combined (Bullet: rho_ball x mu_ground) rolling
 * length is 0.036 m; g = 9.81.  Each sweep point is its own ball (several
 * balls in one world when only the ball differs, one world per point
 * when the step or the gravity differs).
 *
 *   roll_direction    stop distance vs heading, 0..90 deg
 *   roll_mass_dt      stop distance vs time step for m = 1, 10, 100 kg
 *   spin_down         spin about the normal vs time, sigma = 0.05 m
 *   incline_threshold distance rolled in 5 s vs tan(theta) / (rho / R)
 *
 * References (Tasora-Anitescu §6.1 rolling resistance; spinning cone
 * (7)): rolling without slip decelerates at a = rho g / (R (1 + 2/5)), so
 * a ball launched at v0 stops after v0^2 / (2 a) = 3.964 m (for v0 = 2);
 * a spin w0 about the normal stops at t = I w0 / (sigma m g); on a slope
 * the ball holds while tan(theta) <= rho / R and otherwise rolls
 * s = a t^2 / 2 with a = g (sin(theta) - (rho / R) cos(theta)) / 1.4.
 */
#include "demo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SW_R 0.5
#define SW_RHO 0.036
#define SW_MU 0.9
#define SW_G 9.81
#define SW_V0 2.0

/* v0^2 / (2 a), a = rho g / (1.4 R) */
static double sw_stop_distance(void)
{
    return SW_V0 * SW_V0 / (2.0 * SW_RHO * SW_G / (1.4 * SW_R));
}

/* A world with gravity g (world axes) and the ground plane y = 0. */
static int sw_world(demo_world *w, const demo_opts *o, demo_result *out,
                    double gx, double gy, plCollisionShapeHandle *ball)
{
    const plVector3 up = {0, 1, 0};
    const double origin[3] = {0, 0, 0};
    plCollisionShapeHandle plane;
    plRigidBodyHandle ground;
    if (demo_world_init(w, o, out, gx, gy, 0) != 0) {
        return -1;
    }
    return demo_world_shape(w, plNewStaticPlaneShape(up, 0),
                            "plNewStaticPlaneShape", &plane) ||
           demo_world_shape(w, plNewSphereShape((plReal)SW_R),
                            "plNewSphereShape", ball) ||
           demo_world_body(w, "ground", 0, plane, origin, NULL, &ground,
                           NULL) ||
           DEMO_PL(w, plSetFriction(ground, 1));
}

/* A ball of mass m at (x, R, z) with velocity v and spin w (world),
   rolling and spinning friction rho, sigma, sleeping off; its index in
   *index. */
static int sw_ball(demo_world *w, plCollisionShapeHandle shape,
                   const char *name, double m, double x, double z,
                   const double v[3], const double om[3], double rho,
                   double sigma, int *index)
{
    const double at[3] = {x, SW_R, z};
    const plVector3 vv = {(plReal)v[0], (plReal)v[1], (plReal)v[2]};
    const plVector3 ww = {(plReal)om[0], (plReal)om[1], (plReal)om[2]};
    plRigidBodyHandle b;
    return demo_world_body(w, name, m, shape, at, NULL, &b, index) ||
           DEMO_PL(w, plSetFriction(b, (plReal)SW_MU)) ||
           DEMO_PL(w, plSetRollingFriction(b, (plReal)rho)) ||
           DEMO_PL(w, plSetSpinningFriction(b, (plReal)sigma)) ||
           DEMO_PL(w, plSetSleeping(b, 0)) ||
           DEMO_PL(w, plSetLinearVelocity(b, vv)) ||
           DEMO_PL(w, plSetAngularVelocity(b, ww));
}

/* Rolling without slip along heading (deg) in the ground plane. */
static void sw_rolling(double heading_deg, double v[3], double om[3])
{
    const double c = cos(heading_deg * DEMO_PI / 180),
                 s = sin(heading_deg * DEMO_PI / 180);
    v[0] = SW_V0 * c;
    v[1] = 0;
    v[2] = SW_V0 * s;
    /* v = -w x r with r = (0, -R, 0): w = (vz, 0, -vx) / R */
    om[0] = v[2] / SW_R;
    om[1] = 0;
    om[2] = -v[0] / SW_R;
}

/* Travel of body i in the ground plane from (x0, z0), and its heading. */
static int sw_travel(demo_world *w, int i, double x0, double z0, double *d,
                     double *heading_deg)
{
    demo_body_state s;
    if (demo_world_state(w, i, &s) != 0) {
        return -1;
    }
    *d = hypot(s.pos[0] - x0, s.pos[2] - z0);
    if (heading_deg != NULL) {
        *heading_deg = atan2(s.pos[2] - z0, s.pos[0] - x0) * 180 / DEMO_PI;
    }
    return 0;
}

/* Steps a world for `seconds` of simulated time. */
static int sw_run(demo_world *w, const demo_opts *o, double seconds)
{
    const int n = (int)lround(seconds / w->dt);
    for (int k = 0; k < n; ++k) {
        if (demo_world_step(w, o) != 0) {
            return -1;
        }
    }
    return 0;
}

/* Ends a scene: the last world's bodies and solver totals into out. */
static int sw_finish(demo_world *w, const demo_scene *scene, demo_result *out,
                     int rc)
{
    if (rc == 0) {
        rc = demo_world_finish(w, scene, out);
    }
    return demo_world_free(w) != 0 || rc != 0 ? -1 : 0;
}

/* ---- roll_direction ---- */

#define RD_N 13 /* 0, 7.5, ..., 90 deg */

static int roll_direction_run(const demo_scene *scene, const demo_opts *o,
                              demo_result *out)
{
    static const char *const cols[] = {"heading", "distance", "distance_ref",
                                       "heading_out"};
    const double d_ref = sw_stop_distance();
    const double seconds = o->quick ? 4.5 : 6.0; /* stop at 3.96 s */
    demo_world w;
    plCollisionShapeHandle ball;
    int idx[RD_N];
    int rc =
        sw_world(&w, o, out, 0, -SW_G, &ball) || demo_world_series(&w, 4, cols);
    for (int k = 0; rc == 0 && k < RD_N; ++k) {
        double v[3], om[3];
        char name[16];
        snprintf(name, sizeof name, "ball%02d", k);
        sw_rolling(7.5 * k, v, om);
        rc = sw_ball(&w, ball, name, 1.0, 10.0 * k, 0, v, om, SW_RHO, 0,
                     &idx[k]);
    }
    rc = rc || sw_run(&w, o, seconds);
    double worst = 0, worst_heading = 0, dmin = INFINITY, dmax = 0;
    for (int k = 0; rc == 0 && k < RD_N; ++k) {
        double d, hd;
        rc = sw_travel(&w, idx[k], 10.0 * k, 0, &d, &hd);
        const double row[4] = {7.5 * k, d, d_ref, hd};
        rc = rc || demo_world_row(&w, row);
        worst = fmax(worst, fabs(d / d_ref - 1));
        worst_heading = fmax(worst_heading, fabs(hd - 7.5 * k));
        dmin = fmin(dmin, d);
        dmax = fmax(dmax, d);
    }
    rc = rc || demo_world_metric_ref(&w, "distance_min", dmin, d_ref) ||
         demo_world_metric_ref(&w, "distance_max", dmax, d_ref) ||
         demo_world_metric(&w, "spread", (dmax - dmin) / d_ref) ||
         demo_world_metric(&w, "worst_rel_error", worst) ||
         demo_world_metric(&w, "worst_heading_error_deg", worst_heading);
    return sw_finish(&w, scene, out, rc);
}

static const demo_metric_info roll_direction_metrics[] = {
    {"distance_min", "shortest stop distance over the headings, m; "
                     "reference v0^2 / (2 a), a = rho g / (1.4 R)"},
    {"distance_max", "longest stop distance, m; same reference"},
    {"spread", "(max - min) / reference: 0 for an isotropic model"},
    {"worst_rel_error", "largest |distance / reference - 1|"},
    {"worst_heading_error_deg", "largest change of heading, deg"},
};
static const demo_plot roll_direction_plots[] = {
    {
        .name = "distance",
        .title = "Stop distance vs launch heading",
        .x = "heading",
        .xlabel = "heading (deg)",
        .ylabel = "stop distance (m)",
        .y = {"distance", "distance_ref"},
    },
    {
        .name = "heading",
        .title = "Final heading vs launch heading",
        .x = "heading",
        .xlabel = "launch heading (deg)",
        .ylabel = "final heading (deg)",
        .y = {"heading_out"},
    },
};

const demo_scene demo_roll_direction = {
    .name = "roll_direction",
    .description = "Isotropy (Tasora-Anitescu §6.1 rolling resistance): a "
                   "ball rolled at 2 m/s at headings 0..90 deg stops at "
                   "the same distance",
    .default_steps = 360,
    .quick_steps = 270,
    .run = roll_direction_run,
    .explanation =
        "Thirteen balls (R = 0.5 m, 1 kg, rolling friction 0.036 m) are "
        "launched rolling without slip at 2 m/s, at headings 0 to 90 deg. "
        "The rolling resistance torque rho N decelerates each one at "
        "a = rho g / (1.4 R) whatever the direction, so every ball should "
        "stop after v0^2 / (2 a) = 3.964 m and keep its heading. Stock "
        "Bullet clamps rolling friction per axis in a box, so a ball rolled "
        "diagonally stops sooner and veers; the cone keeps the distance "
        "and the heading for every direction.",
    .metric_info = roll_direction_metrics,
    .nmetric_info = 5,
    .plots = roll_direction_plots,
    .nplots = 2,
};

/* ---- roll_mass_dt ---- */

#define RM_NDT 4

static int roll_mass_dt_run(const demo_scene *scene, const demo_opts *o,
                            demo_result *out)
{
    static const char *const cols[] = {"dt", "d_m1", "d_m10", "d_m100",
                                       "d_m1_ref"};
    static const double masses[3] = {1, 10, 100};
    static const double dts[RM_NDT] = {1.0 / 30, 1.0 / 60, 1.0 / 120,
                                       1.0 / 240};
    const double d_ref = sw_stop_distance();
    const int ndt = o->quick ? 2 : RM_NDT;
    double worst = 0, worst_fine = 0;
    int rc = 0;
    demo_world w;
    memset(&w, 0, sizeof w);
    for (int k = 0; rc == 0 && k < ndt; ++k) {
        demo_opts ok = *o;
        ok.dt = dts[k];
        plCollisionShapeHandle ball;
        int idx[3];
        if (k > 0 && demo_world_free(&w) != 0) {
            return -1;
        }
        rc = sw_world(&w, &ok, out, 0, -SW_G, &ball) ||
             (k == 0 && demo_world_series(&w, 5, cols));
        for (int j = 0; rc == 0 && j < 3; ++j) {
            double v[3], om[3];
            char name[16];
            snprintf(name, sizeof name, "m%g", masses[j]);
            sw_rolling(45, v, om);
            rc = sw_ball(&w, ball, name, masses[j], 10.0 * j, 0, v, om, SW_RHO,
                         0, &idx[j]);
        }
        rc = rc || sw_run(&w, &ok, 6.0);
        double row[5] = {dts[k], 0, 0, 0, d_ref};
        for (int j = 0; rc == 0 && j < 3; ++j) {
            rc = sw_travel(&w, idx[j], 10.0 * j, 0, &row[1 + j], NULL);
            const double e = fabs(row[1 + j] / d_ref - 1);
            worst = fmax(worst, e);
            if (dts[k] < 0.01) {
                worst_fine = fmax(worst_fine, e);
            }
        }
        rc = rc || demo_world_row(&w, row);
    }
    rc = rc || demo_world_metric(&w, "worst_rel_error", worst) ||
         demo_world_metric(&w, "worst_rel_error_fine_dt", worst_fine);
    if (rc == 0) {
        /* the reference distance as a metric with its value at h = 1/60,
           m = 1 (row 1) for the report's table */
        const int c = demo_series_column(&out->series, "d_m1");
        rc = demo_world_metric_ref(&w, "distance_m1_h60",
                                   demo_series_at(&out->series, 1, c), d_ref);
        const int c100 = demo_series_column(&out->series, "d_m100");
        rc = rc || demo_world_metric_ref(&w, "distance_m100_h60",
                                         demo_series_at(&out->series, 1, c100),
                                         d_ref);
    }
    return sw_finish(&w, scene, out, rc);
}

static const demo_metric_info roll_mass_dt_metrics[] = {
    {"worst_rel_error", "largest |distance / reference - 1| over masses and "
                        "steps (reference v0^2 / (2 a), independent of m)"},
    {"worst_rel_error_fine_dt", "the same for h <= 1/120"},
    {"distance_m1_h60", "stop distance of the 1 kg ball at h = 1/60, m"},
    {"distance_m100_h60", "stop distance of the 100 kg ball at h = 1/60, m"},
};
static const demo_plot roll_mass_dt_plots[] = {
    {
        .name = "distance",
        .title = "Stop distance vs time step (heading 45 deg)",
        .x = "dt",
        .xlabel = "time step h (s)",
        .ylabel = "stop distance (m)",
        .y = {"d_m1", "d_m10", "d_m100", "d_m1_ref"},
    },
};

const demo_scene demo_roll_mass_dt = {
    .name = "roll_mass_dt",
    .description = "Mass and time step (Tasora-Anitescu §6.1): balls of 1, "
                   "10 and 100 kg rolled at 45 deg with h = 1/30 .. 1/240 s "
                   "stop at the same distance",
    .default_steps = 1440,
    .quick_steps = 360,
    .run = roll_mass_dt_run,
    .explanation =
        "Balls of 1, 10 and 100 kg (R = 0.5 m, rolling friction 0.036 m) "
        "are rolled at 2 m/s at 45 deg with time steps 1/30 to 1/240 s. The "
        "rolling resistance torque is rho N, proportional to the weight, so "
        "the deceleration and the stop distance v0^2 / (2 a) = 3.964 m do "
        "not depend on the mass, and the time step changes them only by "
        "the discretisation error (about v0 h / 2). Stock Bullet caps each "
        "rolling row at rho (an impulse, not rho N h), so heavy balls roll "
        "much farther or never stop, and the result changes with h.",
    .metric_info = roll_mass_dt_metrics,
    .nmetric_info = 4,
    .plots = roll_mass_dt_plots,
    .nplots = 1,
};

/* ---- spin_down ---- */

#define SD_SIGMA 0.05
#define SD_W0 10.0
#define SD_M 2.0

static int spin_down_run(const demo_scene *scene, const demo_opts *o,
                         demo_result *out)
{
    static const char *const cols[] = {"t", "omega", "omega_ref"};
    const double I = 0.4 * SD_M * SW_R * SW_R;
    const double alpha = SD_SIGMA * SD_M * SW_G / I; /* spin deceleration */
    const double t_ref = SD_W0 / alpha;
    const double v0[3] = {0, 0, 0}, w0[3] = {0, SD_W0, 0};
    demo_world w;
    plCollisionShapeHandle ball;
    int ib;
    int rc = sw_world(&w, o, out, 0, -SW_G, &ball) ||
             demo_world_series(&w, 3, cols) ||
             sw_ball(&w, ball, "ball", SD_M, 0, 0, v0, w0, 0, SD_SIGMA, &ib);
    const int steps = demo_steps(scene, o);
    double t_stop = NAN;
    for (int k = 1; rc == 0 && k <= steps; ++k) {
        demo_body_state s;
        rc = demo_world_step(&w, o) || demo_world_state(&w, ib, &s);
        const double t = k * w.dt;
        const double row[3] = {t, s.omega[1], fmax(0.0, SD_W0 - alpha * t)};
        rc = rc || demo_world_row(&w, row);
        if (isnan(t_stop) && fabs(s.omega[1]) < 1e-6) {
            t_stop = t;
        }
    }
    rc = rc || demo_world_metric_ref(&w, "stop_time", t_stop, t_ref);
    return sw_finish(&w, scene, out, rc);
}

static const demo_metric_info spin_down_metrics[] = {
    {"stop_time", "first time |omega| < 1e-6 rad/s, s; reference "
                  "I w0 / (sigma m g) (spinning cone, Tasora-Anitescu (7))"},
};
static const demo_plot spin_down_plots[] = {
    {
        .name = "omega",
        .title = "Spin about the normal vs time",
        .x = "t",
        .xlabel = "t (s)",
        .ylabel = "omega_n (rad/s)",
        .y = {"omega", "omega_ref"},
    },
};

const demo_scene demo_spin_down = {
    .name = "spin_down",
    .description = "Spinning friction (Tasora-Anitescu (7)): a 2 kg ball "
                   "spun at 10 rad/s about the normal, sigma = 0.05 m, "
                   "stops at I w0 / (sigma m g)",
    .default_steps = 180,
    .quick_steps = 150,
    .run = spin_down_run,
    .explanation =
        "A ball (R = 0.5 m, 2 kg) spins at 10 rad/s about the contact "
        "normal with spinning friction 0.05 m (no rolling friction). The "
        "spinning torque is at most sigma N, so the spin decreases "
        "linearly and stops at t = I w0 / (sigma m g) = 2.04 s. Stock "
        "Bullet ignores spinning friction unless rolling friction is set, "
        "so its ball spins on.",
    .metric_info = spin_down_metrics,
    .nmetric_info = 1,
    .plots = spin_down_plots,
    .nplots = 1,
};

/* ---- incline_threshold ---- */

#define IT_N 8
#define IT_T 5.0

static int incline_threshold_run(const demo_scene *scene, const demo_opts *o,
                                 demo_result *out)
{
    static const char *const cols[] = {"ratio", "distance", "distance_ref"};
    static const double ratios[IT_N] = {0.5,  0.8,  0.95, 0.99,
                                        1.01, 1.05, 1.2,  1.5};
    const int n = o->quick ? 4 : IT_N;
    const int first = o->quick ? 2 : 0; /* quick: 0.95 .. 1.05 */
    const double v0[3] = {0, 0, 0};
    double worst_hold = 0, worst_roll = 0;
    int rc = 0;
    demo_world w;
    memset(&w, 0, sizeof w);
    for (int k = first; rc == 0 && k < first + n; ++k) {
        /* the slope as tilted gravity on a level plane: tan = ratio rho/R */
        const double th = atan(ratios[k] * SW_RHO / SW_R);
        const double a = SW_G * (sin(th) - SW_RHO / SW_R * cos(th)) / 1.4;
        const double d_ref = ratios[k] <= 1 ? 0.0 : 0.5 * a * IT_T * IT_T;
        plCollisionShapeHandle ball;
        int ib;
        if (k > first && demo_world_free(&w) != 0) {
            return -1;
        }
        rc = sw_world(&w, o, out, SW_G * sin(th), -SW_G * cos(th), &ball) ||
             (k == first && demo_world_series(&w, 3, cols)) ||
             sw_ball(&w, ball, "ball", 1.0, 0, 0, v0, v0, SW_RHO, 0, &ib) ||
             sw_run(&w, o, IT_T);
        double d = NAN;
        rc = rc || sw_travel(&w, ib, 0, 0, &d, NULL);
        const double row[3] = {ratios[k], d, d_ref};
        rc = rc || demo_world_row(&w, row);
        if (ratios[k] <= 1) {
            worst_hold = fmax(worst_hold, d);
        } else {
            worst_roll = fmax(worst_roll, fabs(d / d_ref - 1));
        }
    }
    rc = rc || demo_world_metric(&w, "max_creep_below", worst_hold) ||
         demo_world_metric(&w, "worst_rel_error_above", worst_roll);
    return sw_finish(&w, scene, out, rc);
}

static const demo_metric_info incline_threshold_metrics[] = {
    {"max_creep_below", "largest travel in 5 s of a ball released on a "
                        "slope with tan(theta) <= rho / R, m (reference 0)"},
    {"worst_rel_error_above", "largest |distance / reference - 1| above the "
                              "threshold; reference a t^2 / 2, a = g (sin "
                              "theta - (rho / R) cos theta) / 1.4"},
};
static const demo_plot incline_threshold_plots[] = {
    {
        .name = "distance",
        .title = "Distance rolled in 5 s vs slope",
        .x = "ratio",
        .xlabel = "tan(theta) / (rho / R)",
        .ylabel = "distance (m)",
        .y = {"distance", "distance_ref"},
    },
};

const demo_scene demo_incline_threshold = {
    .name = "incline_threshold",
    .description = "Incline threshold (Tasora-Anitescu §6.1): a ball at "
                   "rest on a slope holds while tan(theta) <= rho / R and "
                   "rolls with a = g (sin - rho/R cos) / 1.4 above it",
    .default_steps = 300,
    .quick_steps = 300,
    .run = incline_threshold_run,
    .explanation =
        "A ball (R = 0.5 m, rolling friction 0.036 m) is released at rest "
        "on slopes with tan(theta) from 0.5 to 1.5 times rho / R (gravity "
        "tilted over a level plane). Rolling friction can hold a torque of "
        "at most rho N, so the ball stays while tan(theta) <= rho / R and "
        "otherwise rolls a t^2 / 2 in 5 s with a = g (sin theta - (rho / "
        "R) cos theta) / 1.4. Stock Bullet caps the rolling impulse at "
        "rho, not rho N h, which moves the threshold.",
    .metric_info = incline_threshold_metrics,
    .nmetric_info = 2,
    .plots = incline_threshold_plots,
    .nplots = 1,
};
