/*
 * Bullet 3.24 examples/RollingFrictionDemo/RollingFrictionDemo.cpp,
 * headless over pl*: gravity (0, 0, -10) (z up);
 *   ramp:  static box, half extents (10, 5, 25), at (0, 0, -28), rotated
 *          0.03 pi about y (its top face slopes down towards +x at
 *          5.4 deg), friction 0.5;
 *   floor: static box, half extents (100, 100, 50), at (0, 0, -54) (top
 *          face z = -4), friction 0.1;
 *   125 bodies, mass 1, friction 1, rolling friction 0.1, spinning
 *          friction 0.1, anisotropic rolling friction along the shape's
 *          getAnisotropicRollingFrictionDirection(), cycling over 10 shapes
 *          exactly as the original: its loop (k, i, j) increments
 *          shapeIndex before use, so body n (0-based) gets shape
 *          (n + 1) % 10, at (2 i - 7, 2 j - 5, 15 + 2 k) (START_POS_X - 5 / 2
 *          in integer arithmetic = -7, START_POS_Z - 2 = -5, START_POS_Y +
 *          20 = 15).
 * The 10 shapes, with Bullet's constructor and the pl* call:
 *   btSphereShape(0.5)                  plNewSphereShape(0.5)
 *   btCapsuleShape[X|Z](0.25, 0.5)      plNewCapsuleShapeAxis(0.25, 0.25, a)
 *       (radius 0.25, straight part 0.5; pl height = half of it)
 *   btConeShape[X|Z](0.25, 0.5)         plNewConeShapeAxis(0.25, 0.5, a)
 *       (radius 0.25, full height 0.5; pl height = full height)
 *   btCylinderShape (0.25, 0.5, 0.25),  plNewCylinderShapeAxis(0.25, 0.5, a)
 *   btCylinderShapeX(0.5, 0.25, 0.25),
 *   btCylinderShapeZ(0.25, 0.25, 0.5)
 *       (radius 0.25, half height 0.5; pl height = half height)
 * Combined coefficients (btManifoldResult): on the ramp mu = 0.5, rho =
 * 0.1 * 0.5 = 0.05 m, sigma 0.05 m; on the floor mu = 0.1, rho = sigma =
 * 0.01 m; between bodies mu = 1, rho = sigma = 0.2 m.
 *
 * Bodies are named NNN_shape (NNN the creation index).  A body is at rest
 * when asleep, or when |v| < 1e-2 m/s and |omega| < 1e-1 rad/s.
 * Metrics: moving (bodies not at rest at the end), asleep,
 * last_moving_step (the last step after which some body was not at rest;
 * 0 if none), min_lowest_z (the lowest point of any body's geometric
 * shape, margins excluded, at the end: the floor top is z = -4),
 * min_lowest_z_run and min_center_z_run (the lowest point and the lowest
 * centre over the whole run, impacts included: a body falling at v
 * penetrates up to v h in its impact step), max_travel_xy (largest horizontal
 * distance from the start at the end), on_floor and on_ramp (bodies with
 * a contact point on the floor, on the ramp, at the end: plGetContacts),
 * max_speed, max_omega (final).
 */
#include "demo.h"

#include <math.h>
#include <stdio.h>

#define RFD_NUM_SHAPES 10
#define RFD_N 5
#define RFD_REST_V 1e-2
#define RFD_REST_W 1e-1

enum rfd_kind { RFD_SPHERE, RFD_CAPSULE, RFD_CONE, RFD_CYLINDER };

typedef struct rfd_shape_def {
    const char *name;
    enum rfd_kind kind;
    int axis;      /* 0 x, 1 y, 2 z */
    double radius; /* m */
    double height; /* pl* meaning: capsule half straight part, cone full
                      height, cylinder half height */
} rfd_shape_def;

static const rfd_shape_def rfd_shapes[RFD_NUM_SHAPES] = {
    {"sphere", RFD_SPHERE, 1, 0.5, 0},
    {"capsule_y", RFD_CAPSULE, 1, 0.25, 0.25},
    {"capsule_x", RFD_CAPSULE, 0, 0.25, 0.25},
    {"capsule_z", RFD_CAPSULE, 2, 0.25, 0.25},
    {"cone_y", RFD_CONE, 1, 0.25, 0.5},
    {"cone_x", RFD_CONE, 0, 0.25, 0.5},
    {"cone_z", RFD_CONE, 2, 0.25, 0.5},
    {"cylinder_y", RFD_CYLINDER, 1, 0.25, 0.5},
    {"cylinder_x", RFD_CYLINDER, 0, 0.25, 0.5},
    {"cylinder_z", RFD_CYLINDER, 2, 0.25, 0.5},
};

/* Shape index of body n, as the original's pre-incremented shapeIndex. */
static int rfd_shape_of(int n)
{
    return (n + 1) % RFD_NUM_SHAPES;
}

static plCollisionShapeHandle rfd_new_shape(const rfd_shape_def *d)
{
    const plReal r = (plReal)d->radius, h = (plReal)d->height;
    switch (d->kind) {
    case RFD_SPHERE: return plNewSphereShape(r);
    case RFD_CAPSULE: return plNewCapsuleShapeAxis(r, h, d->axis);
    case RFD_CONE: return plNewConeShapeAxis(r, h, d->axis);
    case RFD_CYLINDER: return plNewCylinderShapeAxis(r, h, d->axis);
    }
    return NULL;
}

/* z of the lowest point of the shape (margins excluded) at state s. */
static double rfd_lowest_z(const rfd_shape_def *d, const demo_body_state *s)
{
    double e[3] = {0, 0, 0}, a[3];
    e[d->axis] = 1;
    demo_rotate(s->orn, e, a);
    const double az = fabs(a[2]), across = sqrt(fmax(0, 1 - a[2] * a[2]));
    const double z = s->pos[2], r = d->radius, h = d->height;
    switch (d->kind) {
    case RFD_SPHERE: return z - r;
    case RFD_CAPSULE: return z - h * az - r;
    case RFD_CYLINDER: return z - h * az - r * across;
    case RFD_CONE: /* apex at +h/2 along the axis, base circle at -h/2 */
        return z + fmin(0.5 * h * a[2], -0.5 * h * a[2] - r * across);
    }
    return z;
}

static int rfd_at_rest(const demo_body_state *s)
{
    return !s->active ||
           (demo_speed(s) < RFD_REST_V && demo_spin(s) < RFD_REST_W);
}

/* Bit 1: body i has a contact point with a, bit 2: with b (plGetContacts
   after the last step); -1 on error. */
static int rfd_touches(demo_world *w, int i, plRigidBodyHandle a,
                       plRigidBodyHandle b)
{
    plContactInfo c[16];
    const int n = plGetContacts(w->bodies[i], c, 16);
    if (n < 0) {
        return demo_world_fail(w, "plGetContacts(%s) failed: %s", w->names[i],
                               plGetLastError());
    }
    int bits = 0;
    for (int k = 0; k < n && k < 16; ++k) {
        bits |= (c[k].m_other == a ? 1 : 0) | (c[k].m_other == b ? 2 : 0);
    }
    return bits;
}

static void rfd_start(int n, double at[3])
{
    const int k = n / (RFD_N * RFD_N), i = (n / RFD_N) % RFD_N, j = n % RFD_N;
    /* START_POS_X - ARRAY_SIZE_X / 2 = -5 - 2; START_POS_Z - 5 / 2 = -5;
       START_POS_Y = -5 */
    at[0] = 2.0 * i - 7;
    at[1] = 2.0 * j - 5;
    at[2] = 20 + 2.0 * k - 5;
}

static int rolling_friction_run(const demo_scene *scene, const demo_opts *o,
                                demo_result *out)
{
    demo_world w;
    plCollisionShapeHandle ramp_shape, floor_shape, shapes[RFD_NUM_SHAPES];
    plRigidBodyHandle ramp, floor_body;
    int first = -1;
    const double ramp_at[3] = {0, 0, -28}, floor_at[3] = {0, 0, -54};
    const double y_axis[3] = {0, 1, 0};
    double ramp_q[4];
    int rc;

    if (demo_world_init(&w, o, out, 0, 0, -10) != 0) {
        return -1;
    }
    demo_axis_angle(y_axis, DEMO_PI * 0.03, ramp_q);
    rc = demo_world_shape(&w, plNewBoxShape(10, 5, 25), "plNewBoxShape",
                          &ramp_shape) ||
         demo_world_shape(&w, plNewBoxShape(100, 100, 50), "plNewBoxShape",
                          &floor_shape) ||
         demo_world_body(&w, "ramp", 0, ramp_shape, ramp_at, ramp_q, &ramp,
                         NULL) ||
         DEMO_PL(&w, plSetFriction(ramp, 0.5f)) ||
         demo_world_body(&w, "floor", 0, floor_shape, floor_at, NULL,
                         &floor_body, NULL) ||
         DEMO_PL(&w, plSetFriction(floor_body, 0.1f));
    for (int s = 0; rc == 0 && s < RFD_NUM_SHAPES; ++s) {
        char what[64];
        snprintf(what, sizeof what, "new shape %s", rfd_shapes[s].name);
        rc = demo_world_shape(&w, rfd_new_shape(&rfd_shapes[s]), what,
                              &shapes[s]);
    }
    const int nbodies = RFD_N * RFD_N * RFD_N;
    for (int n = 0; rc == 0 && n < nbodies; ++n) {
        const int s = rfd_shape_of(n);
        char name[DEMO_NAME_LEN];
        double at[3];
        plVector3 dir;
        plRigidBodyHandle b;
        int index;
        rfd_start(n, at);
        snprintf(name, sizeof name, "%03d_%s", n, rfd_shapes[s].name);
        rc = demo_world_body(&w, name, 1, shapes[s], at, NULL, &b, &index) ||
             DEMO_PL(&w, plSetFriction(b, 1)) ||
             DEMO_PL(&w, plSetRollingFriction(b, 0.1f)) ||
             DEMO_PL(&w, plSetSpinningFriction(b, 0.1f)) ||
             DEMO_PL(&w, plGetAnisotropicRollingFrictionDirection(shapes[s],
                                                                  dir)) ||
             DEMO_PL(&w, plSetAnisotropicFriction(
                             b, dir, PL_ANISOTROPIC_ROLLING_FRICTION));
        if (first < 0) {
            first = index;
        }
    }

    const int steps = demo_steps(scene, o);
    int last_moving = 0;
    double min_center = INFINITY, min_lowest = INFINITY;
    for (int step = 1; rc == 0 && step <= steps; ++step) {
        rc = demo_world_step(&w, o);
        for (int n = 0; rc == 0 && n < nbodies; ++n) {
            demo_body_state s;
            rc = demo_world_state(&w, first + n, &s);
            if (rc != 0) {
                break;
            }
            if (!rfd_at_rest(&s)) {
                last_moving = step;
            }
            min_center = fmin(min_center, s.pos[2]);
            min_lowest = fmin(min_lowest,
                              rfd_lowest_z(&rfd_shapes[rfd_shape_of(n)], &s));
        }
    }
    if (rc == 0) {
        rc = demo_world_finish(&w, scene, out);
    }
    if (rc == 0) {
        int moving = 0, asleep = 0, on_floor = 0, on_ramp = 0;
        double travel = 0, vmax = 0, wmax = 0, low_end = INFINITY;
        for (int n = 0; n < out->nbodies; ++n) {
            const demo_body_state *s = &out->bodies[n];
            double at[3];
            rfd_start(n, at);
            moving += !rfd_at_rest(s);
            low_end =
                fmin(low_end, rfd_lowest_z(&rfd_shapes[rfd_shape_of(n)], s));
            asleep += !s->active;
            travel = fmax(travel, hypot(s->pos[0] - at[0], s->pos[1] - at[1]));
            vmax = fmax(vmax, demo_speed(s));
            wmax = fmax(wmax, demo_spin(s));
            const int touch = rfd_touches(&w, first + n, floor_body, ramp);
            if (touch < 0) {
                rc = -1;
                break;
            }
            on_floor += (touch & 1) != 0;
            on_ramp += (touch & 2) != 0;
        }
        rc = rc || demo_world_metric(&w, "moving", moving) ||
             demo_world_metric(&w, "asleep", asleep) ||
             demo_world_metric(&w, "last_moving_step", last_moving) ||
             demo_world_metric(&w, "min_lowest_z", low_end) ||
             demo_world_metric(&w, "min_lowest_z_run", min_lowest) ||
             demo_world_metric(&w, "min_center_z_run", min_center) ||
             demo_world_metric(&w, "max_travel_xy", travel) ||
             demo_world_metric(&w, "on_floor", on_floor) ||
             demo_world_metric(&w, "on_ramp", on_ramp) ||
             demo_world_metric(&w, "max_speed", vmax) ||
             demo_world_metric(&w, "max_omega", wmax);
    }
    if (demo_world_free(&w) != 0) {
        rc = -1;
    }
    return rc ? -1 : 0;
}

const demo_scene demo_rolling_friction_demo = {
    .name = "rolling_friction_demo",
    .description =
        "Bullet 3.24 examples/RollingFrictionDemo/RollingFrictionDemo.cpp: 125 "
        "spheres, capsules, cones and cylinders with rolling and spinning "
        "friction dropped on a 5.4 deg ramp, z up",
    .default_steps = 2400,
    .quick_steps = 600,
    .params = NULL,
    .nparams = 0,
    .run = rolling_friction_run,
};
