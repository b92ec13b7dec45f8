/*
 * Bullet 3.24 examples/HelloWorld/HelloWorld.cpp, headless over pl*:
 * gravity (0, -10, 0); a static box of half extents 50 at (0, -56, 0)
 * (top face y = -6); a sphere R = 1, m = 1 at (2, 10, 0); 150 calls of
 * stepSimulation(1/60, 10).  No friction or restitution is set (Bullet's
 * defaults: friction 0.5, restitution 0).
 *
 * Metrics: final_y, final_speed, final_omega; freefall_steps (the steps
 * n whose semi-implicit Euler height y0 - g h^2 n(n+1)/2 keeps the
 * sphere's bottom above the ground top) and freefall_max_err (the largest
 * |y_n - that closed form| over them); lowest_y (the lowest centre height
 * of the run).  References (reported as <name>_ref): final_y and lowest_y
 * -5, the resting height of the centre (ground top + R; restitution 0).
 *
 * Series: t, y (the sphere's centre height), y_ref (the closed form
 * above while the sphere's bottom is above the ground, then the resting
 * height -5: a perfectly inelastic impact), vy and vy_ref (-g h n, then
 * 0), one row per step from t = 0.
 */
#include "demo.h"

#include <math.h>

#define HW_Y0 10.0
#define HW_G 10.0
#define HW_R 1.0
#define HW_GROUND_TOP (-6.0)

typedef struct hw_track {
    int freefall_steps;
    double freefall_max_err;
    double lowest_y;
} hw_track;

static int hello_world_run(const demo_scene *scene, const demo_opts *o,
                           demo_result *out)
{
    demo_world w;
    plCollisionShapeHandle ground_shape, ball_shape;
    int ball = -1;
    const double ground_at[3] = {0, -56, 0}, ball_at[3] = {2, HW_Y0, 0};
    hw_track t = {0, 0, INFINITY};
    static const char *const cols[] = {"t", "y", "y_ref", "vy", "vy_ref"};
    const double rest_y = HW_GROUND_TOP + HW_R;
    int rc = 0;

    if (demo_world_init(&w, o, out, 0, -HW_G, 0) != 0) {
        return -1;
    }
    rc = demo_world_shape(&w, plNewBoxShape(50, 50, 50), "plNewBoxShape",
                          &ground_shape) ||
         demo_world_shape(&w, plNewSphereShape((plReal)HW_R),
                          "plNewSphereShape", &ball_shape) ||
         demo_world_body(&w, "ground", 0, ground_shape, ground_at, NULL, NULL,
                         NULL) ||
         demo_world_body(&w, "sphere", 1, ball_shape, ball_at, NULL, NULL,
                         &ball) ||
         demo_world_series(&w, 5, cols);
    if (rc == 0) {
        const double row0[5] = {0, HW_Y0, HW_Y0, 0, 0};
        rc = demo_world_row(&w, row0);
    }
    const int steps = demo_steps(scene, o);
    for (int n = 1; rc == 0 && n <= steps; ++n) {
        demo_body_state s;
        rc = demo_world_step(&w, o) || demo_world_state(&w, ball, &s);
        if (rc != 0) {
            break;
        }
        const double h = w.dt;
        const double y_free = HW_Y0 - HW_G * h * h * n * (n + 1) / 2;
        if (y_free - HW_R >= HW_GROUND_TOP) {
            t.freefall_steps = n;
            t.freefall_max_err =
                fmax(t.freefall_max_err, fabs(s.pos[1] - y_free));
        }
        t.lowest_y = fmin(t.lowest_y, s.pos[1]);
        const int falling = y_free - HW_R >= HW_GROUND_TOP;
        const double row[5] = {n * h, s.pos[1], falling ? y_free : rest_y,
                               s.vel[1], falling ? -HW_G * h * n : 0.0};
        rc = demo_world_row(&w, row);
    }
    if (rc == 0) {
        rc = demo_world_finish(&w, scene, out);
    }
    if (rc == 0) {
        const demo_body_state *b = demo_result_body(out, "sphere");
        rc = demo_world_metric_ref(&w, "final_y", b->pos[1], rest_y) ||
             demo_world_metric(&w, "final_speed", demo_speed(b)) ||
             demo_world_metric(&w, "final_omega", demo_spin(b)) ||
             demo_world_metric(&w, "freefall_steps", t.freefall_steps) ||
             demo_world_metric(&w, "freefall_max_err", t.freefall_max_err) ||
             demo_world_metric_ref(&w, "lowest_y", t.lowest_y, rest_y);
    }
    if (demo_world_free(&w) != 0) {
        rc = -1;
    }
    return rc ? -1 : 0;
}

static const demo_metric_info hw_metrics[] = {
    {"final_y", "the sphere's centre height at the end, m; reference -5, "
                "resting on the ground top (y = -6) with R = 1"},
    {"final_speed", "the sphere's speed at the end, m/s (at rest: 0)"},
    {"final_omega", "the sphere's angular speed at the end, rad/s (0)"},
    {"freefall_steps",
     "steps n whose closed-form height y0 - g h^2 n(n+1)/2 keeps the "
     "sphere above the ground (103 for h = 1/60)"},
    {"freefall_max_err",
     "largest |y_n - closed form| over those steps, m (semi-implicit Euler "
     "in float: ~5e-6)"},
    {"lowest_y", "the lowest centre height of the run, m; reference -5 (below: "
                 "the impact step's penetration)"},
};

static const demo_plot hw_plots[] = {
    {
        .name = "height",
        .title = "HelloWorld: height of the sphere's centre",
        .x = "t",
        .xlabel = "time t (s)",
        .ylabel = "centre height y (m)",
        .y = {"y", "y_ref"},
    },
    {
        .name = "velocity",
        .title = "HelloWorld: vertical velocity of the sphere",
        .x = "t",
        .xlabel = "time t (s)",
        .ylabel = "v_y (m/s)",
        .y = {"vy", "vy_ref"},
    },
};

const demo_scene demo_hello_world = {
    .name = "hello_world",
    .description =
        "Bullet 3.24 examples/HelloWorld/HelloWorld.cpp: a unit sphere dropped "
        "from y = 10 onto a static box (top y = -6), g = 10",
    .default_steps = 150,
    .quick_steps = 150,
    .params = NULL,
    .nparams = 0,
    .run = hello_world_run,
    .explanation =
        "Free fall, then an impact with restitution 0 and rest.  Both solvers "
        "should follow the semi-implicit Euler closed form y0 - g h^2 "
        "n(n+1)/2 to float rounding until the sphere reaches the ground (step "
        "103), penetrate by about v h = 0.17 m in the impact step (no CCD, as "
        "in the original), and settle at y = -5: the difference between the "
        "solvers is in the recovery from that penetration and in the last "
        "micrometres of the rest height.",
    .metric_info = hw_metrics,
    .nmetric_info = (int)(sizeof hw_metrics / sizeof hw_metrics[0]),
    .plots = hw_plots,
    .nplots = (int)(sizeof hw_plots / sizeof hw_plots[0]),
};
