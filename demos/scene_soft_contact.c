/*
 * Compliant contacts (Tasora-Anitescu section 6.2,
 * Tikhonov regularisation N - E; slides section 3 "Damping and VI": E =
 * -diag(1 / (h^2 K + h R))).  Spheres (R = 0.1 m, 1 kg) on the ground,
 * each with its own contact stiffness K and damping D
 * (plSetContactStiffnessAndDamping; the ground is nearly rigid, 1e12 N/m,
 * and Bullet combines the two in series):
 *
 *   deflection sweep  K = 250, 1000, 4000, 16000 N/m, damping ratio 0.3
 *                     (D = 0.6 sqrt(K m)): after T = 3 s each rests m g / K
 *                     deep.  Series: K, deflection, deflection_ref (m).
 *   oscillator        K = 100 N/m, no damping, released at the touching
 *                     height: it oscillates about m g / K with the period
 *                     2 pi sqrt(m / K) = 0.628 s; the implicit spring of
 *                     one step shortens omega to atan(h omega) / h (0.9%
 *                     at h = 1/60) and damps it, which keeps it in contact.
 *
 * Stock Bullet reads the same stiffness and damping as its contact CFM and
 * ERP; measured at h = 1/60 its spheres rest about 5 times deeper than
 * m g / K and the undamped one does not oscillate.
 */
#include "demo.h"

#include <math.h>
#include <string.h>

#define SC_R 0.1
#define SC_M 1.0
#define SC_G 9.81
#define SC_T 3.0
#define SC_NK 4
#define SC_K_OSC 100.0

static const double sc_k[SC_NK] = {250.0, 1000.0, 4000.0, 16000.0};

static int sc_ball(demo_world *w, plCollisionShapeHandle shape,
                   const char *name, double x, double K, double D, int *index)
{
    const double at[3] = {x, SC_R, 0};
    plRigidBodyHandle b;
    return demo_world_body(w, name, SC_M, shape, at, NULL, &b, index) ||
           DEMO_PL(w,
                   plSetContactStiffnessAndDamping(b, (plReal)K, (plReal)D)) ||
           DEMO_PL(w, plSetSleeping(b, 0));
}

static int soft_contact_run(const demo_scene *scene, const demo_opts *o,
                            demo_result *out)
{
    static const char *const cols[] = {"K", "deflection", "deflection_ref"};
    const plVector3 up = {0, 1, 0};
    const double origin[3] = {0, 0, 0};
    plCollisionShapeHandle plane, ball;
    plRigidBodyHandle ground;
    int idx[SC_NK], iosc = -1;
    demo_world w;
    memset(&w, 0, sizeof w);
    if (demo_world_init(&w, o, out, 0, -SC_G, 0) != 0) {
        return -1;
    }
    int rc =
        demo_world_shape(&w, plNewStaticPlaneShape(up, 0),
                         "plNewStaticPlaneShape", &plane) ||
        demo_world_shape(&w, plNewSphereShape((plReal)SC_R), "plNewSphereShape",
                         &ball) ||
        demo_world_body(&w, "ground", 0, plane, origin, NULL, &ground, NULL) ||
        DEMO_PL(&w, plSetContactStiffnessAndDamping(ground, 1e12f, 0)) ||
        demo_world_series(&w, 3, cols);
    for (int k = 0; rc == 0 && k < SC_NK; ++k) {
        char name[DEMO_NAME_LEN];
        snprintf(name, sizeof name, "ball_K%.0f", sc_k[k]);
        rc = sc_ball(&w, ball, name, 0.5 * k, sc_k[k],
                     0.6 * sqrt(sc_k[k] * SC_M), &idx[k]);
    }
    rc = rc || sc_ball(&w, ball, "oscillator", -1.0, SC_K_OSC, 0.0, &iosc);
    /* the oscillator's upward crossings of its equilibrium height */
    const double y_eq = SC_R - SC_M * SC_G / SC_K_OSC;
    const int n = (int)lround(SC_T / w.dt);
    double y_prev = SC_R, t_first = NAN, t_last = NAN;
    int crossings = 0;
    for (int i = 1; rc == 0 && i <= n; ++i) {
        demo_body_state s;
        rc = demo_world_step(&w, o) || demo_world_state(&w, iosc, &s);
        const double y = s.pos[1];
        if (rc == 0 && y_prev < y_eq && y >= y_eq) {
            const double t = (i - 1 + (y_eq - y_prev) / (y - y_prev)) * w.dt;
            t_first = crossings == 0 ? t : t_first;
            t_last = t;
            ++crossings;
        }
        y_prev = y;
    }
    double worst = 0.0;
    for (int k = 0; rc == 0 && k < SC_NK; ++k) {
        demo_body_state s;
        rc = demo_world_state(&w, idx[k], &s);
        const double d = SC_R - s.pos[1], d_ref = SC_M * SC_G / sc_k[k];
        const double row[3] = {sc_k[k], d, d_ref};
        rc = rc || demo_world_row(&w, row);
        worst = fmax(worst, fabs(d / d_ref - 1.0));
    }
    const double period =
        crossings >= 2 ? (t_last - t_first) / (crossings - 1) : NAN;
    rc = rc ||
         demo_world_metric_ref(&w, "worst_deflection_rel_error", worst, 0.0) ||
         demo_world_metric_ref(&w, "period", period,
                               2.0 * DEMO_PI * sqrt(SC_M / SC_K_OSC)) ||
         demo_world_metric(&w, "periods_seen",
                           crossings > 0 ? crossings - 1 : 0);
    if (rc == 0) {
        rc = demo_world_finish(&w, scene, out);
    }
    return demo_world_free(&w) != 0 || rc != 0 ? -1 : 0;
}

static const demo_metric_info soft_contact_metrics[] = {
    {"worst_deflection_rel_error",
     "largest |deflection / (m g / K) - 1| of the damped spheres after 3 s "
     "(reference 0)"},
    {"period", "oscillation period of the undamped sphere on K = 100 N/m, "
               "s (reference 2 pi sqrt(m / K); the step's implicit spring "
               "lengthens it by atan(h omega) / (h omega))"},
    {"periods_seen", "whole periods between the first and last upward "
                     "crossing"},
};
static const demo_plot soft_contact_plots[] = {
    {
        .name = "deflection",
        .title = "Resting deflection vs contact stiffness",
        .x = "K",
        .xlabel = "contact stiffness K (N/m)",
        .ylabel = "deflection (m)",
        .y = {"deflection", "deflection_ref"},
        .logx = 1,
    },
};

const demo_scene demo_soft_contact = {
    .name = "soft_contact",
    .description = "Compliant contacts (Tasora-Anitescu §6.2 Tikhonov term): "
                   "spheres rest m g / K deep, an undamped one oscillates "
                   "at sqrt(K / m)",
    .default_steps = 180,
    .quick_steps = 180,
    .run = soft_contact_run,
    .explanation =
        "Each sphere has a contact stiffness K and damping D "
        "(plSetContactStiffnessAndDamping). The cone solver turns them into "
        "a compliance 1 / (h (h K + D)) on the contact's normal and a "
        "spring recovery, so a resting sphere sinks m g / K and an undamped "
        "one oscillates with the period 2 pi sqrt(m / K). Stock Bullet "
        "reads the same parameters as its contact CFM and ERP; measured, "
        "its spheres rest about 5 times deeper and the undamped one does "
        "not oscillate.",
    .metric_info = soft_contact_metrics,
    .nmetric_info = 3,
    .plots = soft_contact_plots,
    .nplots = 1,
};
