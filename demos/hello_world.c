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
 * of the run).
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
                         &ball);
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
    }
    if (rc == 0) {
        rc = demo_world_finish(&w, scene, out);
    }
    if (rc == 0) {
        const demo_body_state *b = demo_result_body(out, "sphere");
        rc = demo_world_metric(&w, "final_y", b->pos[1]) ||
             demo_world_metric(&w, "final_speed", demo_speed(b)) ||
             demo_world_metric(&w, "final_omega", demo_spin(b)) ||
             demo_world_metric(&w, "freefall_steps", t.freefall_steps) ||
             demo_world_metric(&w, "freefall_max_err", t.freefall_max_err) ||
             demo_world_metric(&w, "lowest_y", t.lowest_y);
    }
    if (demo_world_free(&w) != 0) {
        rc = -1;
    }
    return rc ? -1 : 0;
}

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
};
