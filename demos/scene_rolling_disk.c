/*
 * Seed scene rolling_disk: Tasora & Anitescu, "A complementarity-based
 * rolling friction model for rigid contacts", section 6.1 (comparison
 * against an analytical solution).  A disk R = 1 m, M = 10 kg, J = 4 kg
 * m^2 about its axis, rolls without slip on a horizontal plane from x0 =
 * 0 with v0 = 1 m/s and omega0 = -1 rad/s (y up, axis z: v + R omega_z =
 * 0), rolling friction rho = 0.02 m, sliding friction mu = 0.9, gravity
 * g = 9.8 (the paper's g_y = -9.8).  The paper's analytic theory uses the
 * constant resisting torque T_r = M g rho.
 *
 * Analytic solution (rolling without slip, a = dv/dt, alpha = domega_z/dt
 * = -a/R, friction force F along x at the contact point (0, -R, 0)):
 *     M a = F,   J alpha = R F + M g rho   (the rolling torque opposes
 *                                           omega_z < 0)
 *     => a = -M g rho / (M R + J / R) = -0.14 m/s^2,
 * F = M a = -1.4 N (|F| / (M g) = 0.0143 <= mu: no slip), stop time T =
 * v0 / |a| = 7.142857 s, stop distance X = v0^2 / (2 |a|) = 3.571429 m.
 *
 * In Bullet (pl* only): a static plane y = 0 (plNewStaticPlaneShape,
 * friction 1, rolling friction 0) and a cylinder along z
 * (plNewCylinderShapeAxis, radius 1, half thickness 0.05) standing on its
 * rim, centre (0, R, 0), mass 10 and principal inertia (2, 2, 4) set by
 * plSetMassProps (J = 4 about the axis, J/2 about the two diameters: a
 * thin disk's ratio), friction 0.9 and rolling friction rho.  Bullet
 * combines per contact mu = muA muB = 0.9 * 1 and rho = rhoA muB + rhoB muA
 * = rho * 1 + 0 * 0.9, so the contact's (mu, rho) are the paper's
 * (checked from plGetContacts: contact_mu, contact_rho).  Spinning
 * friction 0, restitution 0, sleeping off.  Bullet's cylinder-plane
 * collision adds one point per step, on one rim edge (z = +-0.045, the
 * support point of a cylinder for a direction across its axis), and the
 * manifold keeps up to 4: the disk rocks slightly between its two edges
 * (|omega_x| up to 0.045 rad/s, max_tilt).  With the isotropic rolling
 * cone part of the resisting torque then opposes omega_x, so in the last
 * second, when omega_z is small, the deceleration drops by up to ~1%
 * (max_speed_err 2.6e-3 m/s just before the stop, which comes one step
 * later and 0.03% (De Saxce) to 0.09% (associated) farther than the
 * discrete ideal v_n = v0 - a h n).  Anisotropic rolling friction about
 * the axis (plSetAnisotropicFriction) keeps the torque on z but leaves
 * the rocking undamped, which then delays the measured stop by up to
 * 2.4%: not used.
 *
 * Parameters (--set): rho, mu, v0 (omega0 = -v0/R).
 * Metrics: stop_distance and stop_time (references above), decel (the
 * mean deceleration between t = 1 s and 5 s; reference |a|),
 * max_speed_err (max |v - v_ref| over the run), max_slip (max |v + R
 * omega_z|), max_lift (max y - R: the associated model lifts a rolling
 * contact by up to h rho |omega|), max_tilt (max |omega_x|, |omega_y|),
 * stopped (1 when the disk stopped within the run), contact_mu /
 * contact_rho (the combined coefficients Bullet gave the contact),
 * contact_points (most points of the disk's manifold at once).
 * Series: t, x, x_ref, v, v_ref, omega, omega_ref (omega_z), torque,
 * torque_ref (the rolling torque about z the disk received from the
 * contacts, N m: the plGetContacts rolling impulses / h), lift.
 */
#include "demo.h"

#include <math.h>
#include <string.h>

#define RD_R 1.0
#define RD_M 10.0
#define RD_J 4.0
#define RD_G 9.8
#define RD_HALF 0.05       /* half thickness, m */
#define RD_STOP_SPEED 1e-3 /* m/s: below it the disk is at rest */
#define RD_MAX_CONTACTS 8

static const demo_param rd_params[] = {
    {"rho", 0.02,
     "rolling friction, m (the disk's; with the plane's friction 1 it is the "
     "combined rho)"},
    {"mu", 0.9, "sliding friction (the disk's; the plane's is 1)"},
    {"v0", 1.0, "initial speed, m/s (omega0 = -v0/R: rolling without slip)"},
};

/* The analytic motion: constant deceleration a until v = 0. */
typedef struct rd_ref {
    double v0, a, T, X;
} rd_ref;

static void rd_eval(const rd_ref *r, double t, double *x, double *v)
{
    if (t >= r->T) {
        *x = r->X;
        *v = 0;
    } else {
        *x = r->v0 * t - 0.5 * r->a * t * t;
        *v = r->v0 - r->a * t;
    }
}

/* From plGetContacts: the contact torque about z the disk received (the
   spinning and rolling impulses / h; not the moment of the contact
   forces), the points, the combined coefficients of the first point. */
typedef struct rd_contact {
    int n, has_torques;
    double torque_z;
    double mu, rho;
} rd_contact;

static int rd_contacts(demo_world *w, plRigidBodyHandle disk, rd_contact *c)
{
    plContactInfo ci[RD_MAX_CONTACTS];
    const int n = plGetContacts(disk, ci, RD_MAX_CONTACTS);
    if (n < 0) {
        return demo_world_fail(w, "plGetContacts failed: %s", plGetLastError());
    }
    memset(c, 0, sizeof *c);
    c->n = n;
    c->has_torques = 1;
    c->mu = c->rho = NAN;
    for (int i = 0; i < n && i < RD_MAX_CONTACTS; ++i) {
        /* rolling and spinning impulses (N m s) about t1, t2, n */
        c->torque_z += (double)ci[i].m_impulse[3] * ci[i].m_normal[2] +
                       (double)ci[i].m_impulse[4] * ci[i].m_tangent1[2] +
                       (double)ci[i].m_impulse[5] * ci[i].m_tangent2[2];
        c->has_torques &= ci[i].m_has_torques != 0;
        if (i == 0) {
            c->mu = ci[i].m_friction;
            c->rho = ci[i].m_rolling_friction;
        }
    }
    /* stock Bullet does not report its rolling impulses: NaN */
    c->torque_z = c->has_torques ? c->torque_z / w->dt : NAN;
    return 0;
}

static int rolling_disk_run(const demo_scene *scene, const demo_opts *o,
                            demo_result *out)
{
    const double rho = demo_param_value(scene, o, "rho");
    const double mu = demo_param_value(scene, o, "mu");
    const double v0 = demo_param_value(scene, o, "v0");
    demo_world w;
    plCollisionShapeHandle plane_shape, disk_shape;
    plRigidBodyHandle plane, disk;
    int idisk = -1;
    static const char *const cols[] = {
        "t",     "x",         "x_ref",  "v",          "v_ref",
        "omega", "omega_ref", "torque", "torque_ref", "lift"};
    enum { NCOL = (int)(sizeof cols / sizeof cols[0]) };

    /* a = M g rho / (M R + J / R) (Tasora 6.1, T_r = M g rho) */
    rd_ref ref;
    ref.v0 = v0;
    ref.a = RD_M * RD_G * rho / (RD_M * RD_R + RD_J / RD_R);
    ref.T = ref.a > 0 ? v0 / ref.a : INFINITY;
    ref.X = ref.a > 0 ? v0 * v0 / (2 * ref.a) : INFINITY;
    if (!(rho > 0) || !(v0 > 0) || !(mu * RD_G >= ref.a)) {
        snprintf(out->error, sizeof out->error,
                 "rolling_disk: rho = %g and v0 = %g must be > 0, and mu = %g "
                 ">= a/g = %g (rolling without slip, which the analytic "
                 "solution assumes)",
                 rho, v0, mu, ref.a / RD_G);
        return -1;
    }
    if (demo_world_init(&w, o, out, 0, -RD_G, 0) != 0) {
        return -1;
    }
    const plVector3 up = {0, 1, 0};
    const plVector3 inertia = {(plReal)(RD_J / 2), (plReal)(RD_J / 2),
                               (plReal)RD_J};
    const plVector3 v_init = {(plReal)v0, 0, 0};
    const plVector3 w_init = {0, 0, (plReal)(-v0 / RD_R)};
    const double origin[3] = {0, 0, 0}, disk_at[3] = {0, RD_R, 0};
    int rc = demo_world_shape(&w, plNewStaticPlaneShape(up, 0),
                              "plNewStaticPlaneShape", &plane_shape) ||
             demo_world_shape(
                 &w, plNewCylinderShapeAxis((plReal)RD_R, (plReal)RD_HALF, 2),
                 "plNewCylinderShapeAxis", &disk_shape) ||
             demo_world_body(&w, "plane", 0, plane_shape, origin, NULL, &plane,
                             NULL) ||
             DEMO_PL(&w, plSetFriction(plane, 1)) ||
             DEMO_PL(&w, plSetRollingFriction(plane, 0)) ||
             DEMO_PL(&w, plSetRestitution(plane, 0)) ||
             demo_world_body(&w, "disk", RD_M, disk_shape, disk_at, NULL, &disk,
                             &idisk) ||
             DEMO_PL(&w, plSetMassProps(disk, (plReal)RD_M, inertia)) ||
             DEMO_PL(&w, plSetSleeping(disk, 0)) ||
             DEMO_PL(&w, plSetFriction(disk, (plReal)mu)) ||
             DEMO_PL(&w, plSetRollingFriction(disk, (plReal)rho)) ||
             DEMO_PL(&w, plSetSpinningFriction(disk, 0)) ||
             DEMO_PL(&w, plSetRestitution(disk, 0)) ||
             DEMO_PL(&w, plSetLinearVelocity(disk, v_init)) ||
             DEMO_PL(&w, plSetAngularVelocity(disk, w_init)) ||
             demo_world_series(&w, NCOL, cols);
    if (rc == 0) {
        /* no contact impulse before the first step: torque empty */
        const double row0[NCOL] = {
            0, 0, 0, v0, v0, -v0 / RD_R, -v0 / RD_R, NAN, RD_M * RD_G * rho, 0};
        rc = demo_world_row(&w, row0);
    }

    const int steps = demo_steps(scene, o);
    const int n1 = (int)lround(1.0 / w.dt), n5 = (int)lround(5.0 / w.dt);
    double v1 = NAN, v5 = NAN, stop_t = NAN, stop_x = NAN;
    double max_err = 0, max_slip = 0, max_lift = 0, max_tilt = 0;
    double cmu = NAN, crho = NAN;
    int max_points = 0;
    demo_body_state s;
    for (int n = 1; rc == 0 && n <= steps; ++n) {
        rd_contact c = {0, 0, 0, NAN, NAN};
        rc = demo_world_step(&w, o) || demo_world_state(&w, idisk, &s) ||
             rd_contacts(&w, disk, &c);
        if (rc != 0) {
            break;
        }
        const double t = n * w.dt;
        double xr, vr;
        rd_eval(&ref, t, &xr, &vr);
        const double x = s.pos[0], v = s.vel[0];
        if (isnan(cmu) && c.n > 0) {
            cmu = c.mu;
            crho = c.rho;
        }
        max_points = c.n > max_points ? c.n : max_points;
        max_err = fmax(max_err, fabs(v - vr));
        max_slip = fmax(max_slip, fabs(v + RD_R * s.omega[2]));
        max_lift = fmax(max_lift, s.pos[1] - RD_R);
        max_tilt = fmax(max_tilt, fmax(fabs(s.omega[0]), fabs(s.omega[1])));
        if (isnan(stop_t) && demo_speed(&s) < RD_STOP_SPEED) {
            stop_t = t;
            stop_x = x;
        }
        if (n == n1) {
            v1 = v;
        } else if (n == n5) {
            v5 = v;
        }
        const double row[NCOL] = {t,
                                  x,
                                  xr,
                                  v,
                                  vr,
                                  s.omega[2],
                                  -vr / RD_R,
                                  c.torque_z,
                                  t < ref.T ? RD_M * RD_G * rho : 0.0,
                                  s.pos[1] - RD_R};
        rc = demo_world_row(&w, row);
    }
    if (rc == 0) {
        rc = demo_world_finish(&w, scene, out);
    }
    if (rc == 0) {
        const demo_body_state *b = demo_result_body(out, "disk");
        const int stopped = !isnan(stop_t);
        rc = demo_world_metric_ref(&w, "stop_distance",
                                   stopped ? stop_x : b->pos[0], ref.X) ||
             demo_world_metric_ref(&w, "stop_time", stop_t, ref.T) ||
             demo_world_metric_ref(&w, "decel", (v1 - v5) / ((n5 - n1) * w.dt),
                                   ref.a) ||
             demo_world_metric(&w, "max_speed_err", max_err) ||
             demo_world_metric(&w, "max_slip", max_slip) ||
             demo_world_metric(&w, "max_lift", max_lift) ||
             demo_world_metric(&w, "max_tilt", max_tilt) ||
             demo_world_metric(&w, "stopped", stopped) ||
             demo_world_metric_ref(&w, "contact_mu", cmu, mu) ||
             demo_world_metric_ref(&w, "contact_rho", crho, rho) ||
             demo_world_metric(&w, "contact_points", max_points);
    }
    if (demo_world_free(&w) != 0) {
        rc = -1;
    }
    return rc ? -1 : 0;
}

static const demo_metric_info rd_metrics[] = {
    {"stop_distance",
     "x where the disk stops (speed < 1e-3 m/s; the final x if it never "
     "does), m; reference v0^2 / (2 a) with a = M g rho / (M R + J/R) "
     "(Tasora-Anitescu 6.1): 3.5714 m"},
    {"stop_time", "time of the first step with speed < 1e-3 m/s, s (empty if "
                  "it never stops); reference v0 / a = 7.1429 s"},
    {"decel", "mean deceleration (v(1 s) - v(5 s)) / 4 s, m/s^2; reference "
              "a = M g rho / (M R + J/R) = 0.14 m/s^2"},
    {"max_speed_err", "max |v - v_ref| over the run, m/s (v_ref: the "
                      "analytic constant deceleration, then 0)"},
    {"max_slip", "max |v + R omega_z| over the run, m/s (rolling without "
                 "slip: 0)"},
    {"max_lift", "max height of the centre above its rest height R, m "
                 "(associated model: up to h rho |omega|; De Saxce and "
                 "analytic: 0)"},
    {"max_tilt", "max |omega_x|, |omega_y| over the run, rad/s (a disk in a "
                 "vertical plane: 0)"},
    {"stopped", "1 when the disk came to rest within the run"},
    {"contact_mu", "combined sliding friction of the disk-plane contact "
                   "(plGetContacts); reference mu = 0.9"},
    {"contact_rho", "combined rolling friction of the contact, m "
                    "(plGetContacts); reference rho = 0.02 m"},
    {"contact_points", "most contact points of the disk at once"},
};

static const demo_plot rd_plots[] = {
    {
        .name = "position",
        .title = "Rolling disk (Tasora-Anitescu 6.1): position",
        .x = "t",
        .xlabel = "time t (s)",
        .ylabel = "x (m)",
        .y = {"x", "x_ref"},
    },
    {
        .name = "speed",
        .title = "Rolling disk (Tasora-Anitescu 6.1): speed",
        .x = "t",
        .xlabel = "time t (s)",
        .ylabel = "v_x (m/s)",
        .y = {"v", "v_ref"},
    },
    {
        .name = "torque",
        .title = "Rolling disk: rolling torque about the axis",
        .x = "t",
        .xlabel = "time t (s)",
        .ylabel = "torque_z (N m)",
        .y = {"torque", "torque_ref"},
    },
    {
        .name = "lift",
        .title = "Rolling disk: height of the centre above R",
        .x = "t",
        .xlabel = "time t (s)",
        .ylabel = "y - R (m)",
        .y = {"lift"},
    },
};

const demo_scene demo_rolling_disk = {
    .name = "rolling_disk",
    .description =
        "Tasora & Anitescu (rolling friction CCP) section 6.1: a disk R = 1, M "
        "= 10, J = 4 rolls from v0 = 1 m/s to rest under rolling friction rho "
        "= 0.02 m (mu = 0.9, g = 9.8)",
    .default_steps = 600,
    .quick_steps = 480,
    .params = rd_params,
    .nparams = (int)(sizeof rd_params / sizeof rd_params[0]),
    .run = rolling_disk_run,
    .explanation =
        "A disk (a thin Bullet cylinder, axis horizontal, inertia set to the "
        "paper's J = 4 kg m^2 about its axis) rolls without slip on a plane "
        "and is stopped by rolling friction alone.  The analytic solution of "
        "the paper's section 6.1 has a constant rolling torque M g rho, so "
        "the disk decelerates uniformly at a = M g rho / (M R + J / R) = "
        "0.14 m/s^2 (the sliding friction only keeps the contact from "
        "slipping) and stops at t = v0/a = 7.14 s after x = v0^2/(2a) = "
        "3.571 m: x_ref is that parabola, v_ref that straight line, and "
        "torque_ref the constant M g rho = 1.96 N m (then 0 at rest).  The "
        "cone solver should follow both lines to the stop and hold the disk "
        "there (static rolling friction); stock Bullet clamps its rolling "
        "impulse per axis with a cap in absolute value, so its disk "
        "decelerates more slowly (about 0.094 m/s^2) and still rolls at 10 "
        "s, and it reports no rolling impulses (no torque curve).  The lift "
        "plot shows the associated model's dilatancy (the rolling contact "
        "separates at rho |omega|: about h rho |omega| = 0.3 mm); the De "
        "Saxce model has none.  The small spikes in the torque are the disk "
        "rocking between the two edges of its rim (Bullet adds one contact "
        "point per step, on one edge).",
    .metric_info = rd_metrics,
    .nmetric_info = (int)(sizeof rd_metrics / sizeof rd_metrics[0]),
    .plots = rd_plots,
    .nplots = (int)(sizeof rd_plots / sizeof rd_plots[0]),
};
