/*
 * Bullet 3.24 examples/BasicDemo/BasicExample.cpp (world from
 * examples/CommonInterfaces/CommonRigidBodyBase.h), headless over pl*:
 * gravity (0, -10, 0); a static box of half extents 50 at (0, -50, 0)
 * (top face y = 0); 5 x 5 x 5 boxes of half extent 0.1, mass 1, at
 * (0.2 i, 2 + 0.2 k, 0.2 j) (k outermost, as the original's loops), so
 * neighbours touch face to face.  No friction is set (Bullet's default
 * 0.5).  The original steps at the frame rate; here fixed 1/60 s steps.
 *
 * Parameter: n (5, the original's), boxes per side of the block (the
 * sanitizer build's test_demos runs a 3 x 3 x 3 block, see
 * tests/demos/test_demos.c).
 *
 * Bodies are named box_k_i_j.  Metrics: max_drift_xz (largest horizontal
 * distance of a box from its start), max_layer_err (largest |y - (0.1 +
 * 0.2 k)|, the height of layer k resting on the ground), min_y,
 * max_speed, max_omega (final), awake (bodies still active at the end).
 */
#include "demo.h"

#include <math.h>
#include <stdio.h>

#define BD_HALF 0.1

static const demo_param bd_params[] = {
    {"n", 5, "boxes per side of the block (the original: 5)"},
};

static int basic_demo_run(const demo_scene *scene, const demo_opts *o,
                          demo_result *out)
{
    demo_world w;
    plCollisionShapeHandle ground_shape, box_shape;
    const double ground_at[3] = {0, -50, 0};
    int rc;

    const double nv = demo_param_value(scene, o, "n");
    if (!(nv >= 1 && nv <= 20) || nv != floor(nv)) {
        return demo_result_fail(out, "basic_demo: n = %g must be 1..20", nv);
    }
    const int n = (int)nv;
    if (demo_world_init(&w, o, out, 0, -10, 0) != 0) {
        return -1;
    }
    rc = demo_world_shape(&w, plNewBoxShape(50, 50, 50), "plNewBoxShape",
                          &ground_shape) ||
         demo_world_shape(
             &w,
             plNewBoxShape((plReal)BD_HALF, (plReal)BD_HALF, (plReal)BD_HALF),
             "plNewBoxShape", &box_shape) ||
         demo_world_body(&w, "ground", 0, ground_shape, ground_at, NULL, NULL,
                         NULL);
    for (int k = 0; rc == 0 && k < n; ++k) {
        for (int i = 0; rc == 0 && i < n; ++i) {
            for (int j = 0; rc == 0 && j < n; ++j) {
                char name[DEMO_NAME_LEN];
                const double at[3] = {0.2 * i, 2 + 0.2 * k, 0.2 * j};
                snprintf(name, sizeof name, "box_%d_%d_%d", k, i, j);
                rc = demo_world_body(&w, name, 1, box_shape, at, NULL, NULL,
                                     NULL);
            }
        }
    }
    const int steps = demo_steps(scene, o);
    for (int step = 1; rc == 0 && step <= steps; ++step) {
        rc = demo_world_step(&w, o);
    }
    if (rc == 0) {
        rc = demo_world_finish(&w, scene, out);
    }
    if (rc == 0) {
        double drift = 0, layer = 0, min_y = INFINITY, vmax = 0, wmax = 0;
        int awake = 0;
        for (int b = 0; b < out->nbodies; ++b) {
            const demo_body_state *s = &out->bodies[b];
            const int k = b / (n * n), i = (b / n) % n, j = b % n;
            drift =
                fmax(drift, hypot(s->pos[0] - 0.2 * i, s->pos[2] - 0.2 * j));
            layer = fmax(layer, fabs(s->pos[1] - (BD_HALF + 0.2 * k)));
            min_y = fmin(min_y, s->pos[1]);
            vmax = fmax(vmax, demo_speed(s));
            wmax = fmax(wmax, demo_spin(s));
            awake += s->active;
        }
        rc = demo_world_metric(&w, "max_drift_xz", drift) ||
             demo_world_metric(&w, "max_layer_err", layer) ||
             demo_world_metric(&w, "min_y", min_y) ||
             demo_world_metric(&w, "max_speed", vmax) ||
             demo_world_metric(&w, "max_omega", wmax) ||
             demo_world_metric(&w, "awake", awake);
    }
    if (demo_world_free(&w) != 0) {
        rc = -1;
    }
    return rc ? -1 : 0;
}

const demo_scene demo_basic_demo = {
    .name = "basic_demo",
    .description =
        "Bullet 3.24 examples/BasicDemo/BasicExample.cpp: 5x5x5 boxes (half "
        "extent 0.1) dropped from y = 2 onto a static box (top y = 0), g = 10",
    .default_steps = 300,
    .quick_steps = 150,
    .params = bd_params,
    .nparams = 1,
    .run = basic_demo_run,
};
