/*
 * Bullet 3.24 examples/ExtendedTutorials/InclinedPlane.cpp, headless over
 * pl*: gravity (0, -10, 0);
 *   ground: static box, half extents 50, at (0, -50, 0) (friction 0.5,
 *           Bullet's default);
 *   ramp:   static box, half extents (20, 1, 10), at (0, 15, 0), rotated
 *           gTilt = 20 deg about z (its +x end up), friction 1,
 *           restitution 0;
 *   box:    half extent 1, mass 1, at (0, 20, 2), friction 1, restitution
 *           0, never sleeps (DISABLE_DEACTIVATION);
 *   sphere: R = 1, mass 1, at (0, 20, 4), friction 1, restitution 0,
 *           rolling friction 1, spinning friction 0.3, never sleeps.
 * The original steps with stepSimulation(frame time); here fixed 1/60 s.
 * Combined with the ramp (btManifoldResult): mu = 1, rho = 1 m and sigma
 * = 0.3 m for the sphere (its own coefficient times the ramp's friction).
 * Parameters (--set): sphere_rolling, sphere_spinning.
 *
 * Ramp coordinates: s = (p - c) . d, the distance down the slope from the
 * ramp's centre c along d = (-cos 20, -sin 20, 0) (the lower end is at s =
 * 20), and n = (p - c) . (-sin 20, cos 20, 0) - 1, the centre's height
 * above the ramp's top face.  Metrics, for box_ and sphere_: s, n (final),
 * speed, omega (final), disp_last2s (|s(end) - s(end - 2 s)|, NaN for a
 * run shorter than 2 s), dz (final z minus the start's: sideways, across
 * the ramp), land_step (first step with n < 1.01, i.e. in
 * contact; 0 if never); sphere_accel, the measured dv_s/dt between t =
 * 1.5 s and 3.5 s (NaN for a shorter run), and sphere_accel_theory, g (sin
 * 20 - (rho/R) cos 20) / (1 + 2/5) with rho the combined rolling friction
 * (0 when rho/R >= tan 20: the sphere stays); sphere_accel has
 * sphere_accel_theory as its reference (sphere_accel_ref).
 *
 * Series (the sphere, one row per step from t = 0): t, s, v (the velocity
 * down the fall line, d . v), v_ref (from t = 1.5 s: v(1.5 s) +
 * sphere_accel_theory (t - 1.5 s), the closed form's slope anchored where
 * sphere_accel's window starts; empty before, and once the sphere is past
 * the ramp's lower end s = 20), n and dz.
 */
#include "demo.h"

#include <math.h>
#include <stdlib.h>

#define IP_TILT (20.0 / 180.0 * DEMO_PI)
#define IP_G 10.0

static const demo_param ip_params[] = {
    {"sphere_rolling", 1.0,
     "sphere rolling friction (m; combined with the ramp's friction 1)"},
    {"sphere_spinning", 0.3, "sphere spinning friction (m)"},
};

typedef struct ip_track {
    double s, n, v;
} ip_track;

static int ip_track_body(demo_world *w, int i, ip_track *t)
{
    demo_body_state st;
    if (demo_world_state(w, i, &st) != 0) {
        return -1;
    }
    const double c[3] = {0, 15, 0};
    const double d[3] = {-cos(IP_TILT), -sin(IP_TILT), 0};
    const double up[3] = {-sin(IP_TILT), cos(IP_TILT), 0};
    const double r[3] = {st.pos[0] - c[0], st.pos[1] - c[1], st.pos[2] - c[2]};
    t->s = demo_dot3(r, d);
    t->n = demo_dot3(r, up) - 1;
    t->v = demo_dot3(st.vel, d);
    return 0;
}

static int inclined_plane_run(const demo_scene *scene, const demo_opts *o,
                              demo_result *out)
{
    demo_world w;
    plCollisionShapeHandle ground_shape, ramp_shape, box_shape, ball_shape;
    plRigidBodyHandle ramp, box, ball;
    int ibox = -1, iball = -1;
    const double ground_at[3] = {0, -50, 0}, ramp_at[3] = {0, 15, 0},
                 box_at[3] = {0, 20, 2}, ball_at[3] = {0, 20, 4},
                 z_axis[3] = {0, 0, 1};
    const double rolling = demo_param_value(scene, o, "sphere_rolling");
    const double spinning = demo_param_value(scene, o, "sphere_spinning");
    double ramp_q[4];
    double *hist = NULL; /* s of box and sphere over the last 2 s (ring) */
    int rc;

    if (!(rolling >= 0) || !(spinning >= 0)) {
        snprintf(out->error, sizeof out->error,
                 "inclined_plane: sphere_rolling = %g and sphere_spinning = "
                 "%g must be >= 0",
                 rolling, spinning);
        return -1;
    }
    if (demo_world_init(&w, o, out, 0, -IP_G, 0) != 0) {
        return -1;
    }
    demo_axis_angle(z_axis, IP_TILT, ramp_q);
    rc = demo_world_shape(&w, plNewBoxShape(50, 50, 50), "plNewBoxShape",
                          &ground_shape) ||
         demo_world_shape(&w, plNewBoxShape(20, 1, 10), "plNewBoxShape",
                          &ramp_shape) ||
         demo_world_shape(&w, plNewBoxShape(1, 1, 1), "plNewBoxShape",
                          &box_shape) ||
         demo_world_shape(&w, plNewSphereShape(1), "plNewSphereShape",
                          &ball_shape) ||
         demo_world_body(&w, "ground", 0, ground_shape, ground_at, NULL, NULL,
                         NULL) ||
         demo_world_body(&w, "ramp", 0, ramp_shape, ramp_at, ramp_q, &ramp,
                         NULL) ||
         DEMO_PL(&w, plSetFriction(ramp, 1)) ||
         DEMO_PL(&w, plSetRestitution(ramp, 0)) ||
         demo_world_body(&w, "box", 1, box_shape, box_at, NULL, &box, &ibox) ||
         DEMO_PL(&w, plSetSleeping(box, 0)) ||
         DEMO_PL(&w, plSetFriction(box, 1)) ||
         DEMO_PL(&w, plSetRestitution(box, 0)) ||
         demo_world_body(&w, "sphere", 1, ball_shape, ball_at, NULL, &ball,
                         &iball) ||
         DEMO_PL(&w, plSetSleeping(ball, 0)) ||
         DEMO_PL(&w, plSetFriction(ball, 1)) ||
         DEMO_PL(&w, plSetRestitution(ball, 0)) ||
         DEMO_PL(&w, plSetRollingFriction(ball, (plReal)rolling)) ||
         DEMO_PL(&w, plSetSpinningFriction(ball, (plReal)spinning));

    const int steps = demo_steps(scene, o);
    const int window = (int)lround(2.0 / w.dt);
    const int t1 = (int)lround(1.5 / w.dt), t2 = (int)lround(3.5 / w.dt);
    double v1 = NAN, v2 = NAN;
    static const char *const cols[] = {"t", "s", "v", "v_ref", "n", "dz"};
    /* rho = rolling_sphere * mu_ramp + rolling_ramp * mu_sphere */
    const double rho = rolling * 1.0 + 0.0 * 1.0, R = 1.0;
    const double a_theory =
        rho / R < tan(IP_TILT)
            ? IP_G * (sin(IP_TILT) - rho / R * cos(IP_TILT)) / 1.4
            : 0.0;
    int land[2] = {0, 0};
    ip_track tr[2] = {{0, 0, 0}, {0, 0, 0}};
    if (rc == 0) {
        hist = malloc(2 * (size_t)(window + 1) * sizeof *hist);
        if (hist == NULL) {
            rc = demo_world_fail(&w, "out of memory");
        }
    }
    if (rc == 0) { /* step 0 */
        rc =
            ip_track_body(&w, ibox, &tr[0]) || ip_track_body(&w, iball, &tr[1]);
        hist[0] = tr[0].s;
        hist[1] = tr[1].s;
    }
    if (rc == 0) {
        const double row0[6] = {0, tr[1].s, tr[1].v, NAN, tr[1].n, 0};
        rc = demo_world_series(&w, 6, cols) || demo_world_row(&w, row0);
    }
    for (int step = 1; rc == 0 && step <= steps; ++step) {
        rc = demo_world_step(&w, o) || ip_track_body(&w, ibox, &tr[0]) ||
             ip_track_body(&w, iball, &tr[1]);
        if (rc != 0) {
            break;
        }
        for (int b = 0; b < 2; ++b) {
            hist[2 * (step % (window + 1)) + b] = tr[b].s;
            if (land[b] == 0 && tr[b].n < 1.01) {
                land[b] = step;
            }
        }
        if (step == t1) {
            v1 = tr[1].v;
        } else if (step == t2) {
            v2 = tr[1].v;
        }
        demo_body_state st;
        rc = demo_world_state(&w, iball, &st);
        if (rc != 0) {
            break;
        }
        const double row[6] = {step * w.dt,
                               tr[1].s,
                               tr[1].v,
                               step >= t1 && tr[1].s <= 20
                                   ? v1 + a_theory * (step - t1) * w.dt
                                   : NAN,
                               tr[1].n,
                               st.pos[2] - 4.0};
        rc = demo_world_row(&w, row);
    }
    if (rc == 0) {
        rc = demo_world_finish(&w, scene, out);
    }
    if (rc == 0) {
        static const char *pre[2] = {"box", "sphere"};
        const demo_body_state *fin[2] = {demo_result_body(out, "box"),
                                         demo_result_body(out, "sphere")};
        for (int b = 0; rc == 0 && b < 2; ++b) {
            char name[DEMO_NAME_LEN];
            const double disp =
                steps >= window
                    ? fabs(tr[b].s -
                           hist[2 * ((steps - window) % (window + 1)) + b])
                    : NAN;
            snprintf(name, sizeof name, "%s_s", pre[b]);
            rc = demo_world_metric(&w, name, tr[b].s);
            snprintf(name, sizeof name, "%s_n", pre[b]);
            rc = rc || demo_world_metric(&w, name, tr[b].n);
            snprintf(name, sizeof name, "%s_speed", pre[b]);
            rc = rc || demo_world_metric(&w, name, demo_speed(fin[b]));
            snprintf(name, sizeof name, "%s_omega", pre[b]);
            rc = rc || demo_world_metric(&w, name, demo_spin(fin[b]));
            snprintf(name, sizeof name, "%s_disp_last2s", pre[b]);
            rc = rc || demo_world_metric(&w, name, disp);
            snprintf(name, sizeof name, "%s_dz", pre[b]);
            rc = rc ||
                 demo_world_metric(&w, name, fin[b]->pos[2] - (b ? 4.0 : 2.0));
            snprintf(name, sizeof name, "%s_land_step", pre[b]);
            rc = rc || demo_world_metric(&w, name, land[b]);
        }
        rc = rc ||
             demo_world_metric_ref(&w, "sphere_accel",
                                   (v2 - v1) / ((t2 - t1) * w.dt), a_theory) ||
             demo_world_metric(&w, "sphere_accel_theory", a_theory);
    }
    free(hist);
    if (demo_world_free(&w) != 0) {
        rc = -1;
    }
    return rc ? -1 : 0;
}

static const demo_metric_info ip_metrics[] = {
    {"box_s", "the box's final distance down the slope from the ramp's "
              "centre, m (the lower end is at 20)"},
    {"box_n", "the box's final centre height above the ramp's top face, m "
              "(resting on a face: 1)"},
    {"box_speed", "the box's final speed, m/s (held: 0)"},
    {"box_omega", "the box's final angular speed, rad/s (held: 0)"},
    {"box_disp_last2s", "how far the box moved along the slope in the last "
                        "2 s, m (held: 0; empty for runs under 2 s)"},
    {"box_dz", "the box's final sideways (z) displacement from its start, m"},
    {"box_land_step", "first step with the box on the ramp (n < 1.01)"},
    {"sphere_s", "the sphere's final distance down the slope from the "
                 "ramp's centre, m"},
    {"sphere_n", "the sphere's final centre height above the ramp, m "
                 "(rolling or resting: R = 1)"},
    {"sphere_speed", "the sphere's final speed, m/s"},
    {"sphere_omega", "the sphere's final angular speed, rad/s"},
    {"sphere_disp_last2s", "how far the sphere moved along the slope in the "
                           "last 2 s, m (held, rho/R >= tan 20: 0)"},
    {"sphere_dz", "the sphere's final sideways (z) displacement, m (0 by "
                  "symmetry of the closed form)"},
    {"sphere_land_step", "first step with the sphere on the ramp"},
    {"sphere_accel", "the sphere's acceleration down the fall line between "
                     "t = 1.5 s and 3.5 s, m/s^2; reference g (sin 20 - "
                     "(rho/R) cos 20) / 1.4 (0 when held)"},
    {"sphere_accel_theory", "that closed form, m/s^2"},
};

static const demo_plot ip_plots[] = {
    {
        .name = "sphere_speed",
        .title = "InclinedPlane: the sphere's velocity down the ramp",
        .x = "t",
        .xlabel = "time t (s)",
        .ylabel = "velocity down the fall line (m/s)",
        .y = {"v", "v_ref"},
    },
    {
        .name = "sphere_sideways",
        .title = "InclinedPlane: the sphere's sideways displacement",
        .x = "t",
        .xlabel = "time t (s)",
        .ylabel = "z - z0 (m)",
        .y = {"dz"},
    },
};

const demo_scene demo_inclined_plane = {
    .name = "inclined_plane",
    .description =
        "Bullet 3.24 examples/ExtendedTutorials/InclinedPlane.cpp: a box and a "
        "sphere (rolling friction 1) dropped on a 20 deg ramp with friction 1",
    .default_steps = 600,
    .quick_steps = 300,
    .params = ip_params,
    .nparams = 2,
    .run = inclined_plane_run,
    .explanation =
        "With the defaults both bodies should stay where they land: mu = 1 "
        "and the combined rolling friction rho/R = 1 both exceed tan 20 deg, "
        "so the reference velocity after t = 1.5 s is 0 and a sphere that "
        "creeps (stock: about 2 mm/s) shows as a slope.  With --set "
        "sphere_rolling=0.1 the sphere rolls and its velocity should grow "
        "with the closed-form slope g (sin 20 - (rho/R) cos 20) / 1.4 "
        "(v_ref, anchored at t = 1.5 s, until the sphere leaves the ramp at "
        "its lower end).  The sideways plot shows the "
        "associated model's dilatancy: the box lands sliding against the "
        "sphere and pushes it across the ramp (about 0.18 m), which stock "
        "Bullet and the De Saxce model do not.",
    .metric_info = ip_metrics,
    .nmetric_info = (int)(sizeof ip_metrics / sizeof ip_metrics[0]),
    .plots = ip_plots,
    .nplots = (int)(sizeof ip_plots / sizeof ip_plots[0]),
};
