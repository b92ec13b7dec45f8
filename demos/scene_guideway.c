/*
 * guideway: Tasora & Anitescu, "A complementarity-based rolling friction
 * model for rigid contacts" (Meccanica 2013), section 6.2, the linear
 * guideway, simplified to flat raceways.
 *
 * Scene (y up, g = 9.81 m/s^2 along -y, SI units):
 *   base:     static plane y = 0 (plNewStaticPlaneShape: exact, no margin),
 *             friction 1;
 *   balls:    `rows` rows (default 4) of `balls` steel balls each (default
 *             9), R_b = 3.2 mm (diameter 6.4 mm as in the paper), density
 *             7850 kg/m^3 (m_b = 1.08 g, inertia 2/5 m_b R_b^2), centres
 *             at y = R_b, 8 mm apart along x (1.6 mm clearance: the
 *             paper's plastic spacers keep balls from touching), rows
 *             15 mm apart along z, placed symmetrically about x = 0 and z
 *             = 0; friction `mu` (default 0.5), rolling friction zeta
 *             R_b, spinning 0 (see Coefficients);
 *   carriage: a box of half height 10 mm whose flat underside (y = 2 R_b)
 *             rests on every ball, long enough for the balls' travel over
 *             the run, friction 1, mass F_y / g: the load is the
 *             carriage's weight (default F_y = 490 N, mass 49.95 kg).
 *   Sleeping is off for every body (the balls roll at 5 mm/s, far below
 *   Bullet's sleeping thresholds).
 *
 * Coefficients.  Bullet combines per contact (btManifoldResult): mu =
 * mu_A mu_B, rho = rho_A mu_B + rho_B mu_A.  Base and carriage have mu = 1
 * and rho = 0; a ball has mu = `mu` and rho = zeta R_b.  So every
 * ball/raceway contact has mu = `mu` (default 0.5: a ball needs only
 * zeta = 0.005 of its normal force sideways to roll, far inside the cone)
 * and rho = zeta R_b x 1 + 0 x mu = zeta R_b, the paper's rho = zeta R_b.
 *
 * Drive.  Before every step the carriage's linear velocity is set to
 * (speed, v_y, 0) and its angular velocity to 0: the rail of a real
 * guideway holds the carriage's direction, its side motion and its
 * rotation (here the flat raceways cannot), and the test rig pulls it at
 * constant speed; v_y is left as the step made it, so the carriage sits
 * on the balls under its weight and the load F_y reaches them through the
 * contacts only.  The drive force is what the reset of v_x supplies: the
 * contacts change the carriage's v_x by (sum of their x impulses) / m in
 * the step, so the force needed is
 *     F_x = -(sum over the carriage's ball contacts of the x component of
 *             the impulse it received) / h,
 * the impulse taken from plGetContacts in its contact frame (m_impulse[0]
 * along m_normal, [1] along m_tangent1, [2] along m_tangent2) and turned
 * to world x.  It is averaged over the window t >= `t0` (default 0.1 s:
 * the balls spin up in the first steps).
 *
 * Reference (the manufacturer's formula without seals, F_x = zeta F_y).
 * A ball rolling without slip between the fixed base and the carriage
 * moving at v has centre speed v/2 and spin omega_z = -v / (2 R_b).  At
 * both contacts the rolling torque opposes the ball's rotation relative
 * to the raceway with |tau| = rho N (on the cone's boundary: the ball
 * rolls), so the ball gets +rho (N_top + N_bot) about z.  Horizontal
 * forces: f_top (at y = +R_b) + f_bot (at y = -R_b) = 0 (the ball's
 * acceleration is 0), moments about the centre: rho (N_top + N_bot) - R_b
 * f_top + R_b f_bot = 0, so f_top = rho (N_top + N_bot) / (2 R_b) along +x
 * on the ball, and the carriage feels -rho (N_top + N_bot) / (2 R_b) per
 * ball.  Summed over the balls, with sum N_top = F_y and N_bot = N_top +
 * m_b g: F_x = (rho / R_b) (F_y + n m_b g / 2) = zeta (F_y + n m_b g / 2),
 * zeta F_y to 0.04% (36 balls weigh 0.38 N); the reference is zeta F_y.
 * It is independent of how the statically indeterminate load splits
 * between balls (rho N is linear in N), which is why the rigid-contact
 * model can reproduce it without the paper's Tikhonov compliance.
 *
 * Seal friction (--set seal=S, N; the paper's S = 5.3 N, default 0): the
 * manufacturer's formula is F_x = zeta F_y + S, the seals' drag a force of
 * S whatever the load.  It is a box-bounded row on the carriage
 * (plNewLinearFriction along x: -S h <= lambda <= S h, the carriage's
 * velocity along x driven to 0 by at most S), solved with the contacts;
 * its impulse joins the contacts' in F_x, and the reference becomes zeta
 * F_y + S.  The 45 deg gothic-arch grooves are flat raceways here, all
 * four rows loaded vertically.
 *
 * Step and solver.  The default step is 1 ms (not 1/60 s): the carriage
 * advances 10 um per step (0.3% of R_b), the balls are up to their
 * rolling speed after 3 steps (long before t0), and the associated
 * model's speculative lift h rho |omega| per contact (5e-8 m for the
 * carriage at 1 cm/s) shrinks with h.  The rigid contacts carry the load
 * within every step, so --dt 0.0166667 still gives zeta F_y (measured
 * +0.04%, lift 7e-7 m).
 * Bullet's margins: a sphere is its radius (no extra margin); a box keeps
 * min(0.04, 0.1 x its smallest half extent) = 1 mm of margin inside its
 * extents, so its faces stay at the extents (only its edges are rounded)
 * and the carriage's underside is at y = 2 R_b exactly (carriage_dy
 * measures it: below 1e-7 m); the base is a plane, no margin.
 * Without a solver configuration (opts->config NULL) the scene uses APGD,
 * associated model, at most 1000 iterations and tol 1e-6, not the world's
 * 1e-8: 72 rigid contacts under one rigid carriage are statically
 * indeterminate (how the load splits among the 36 balls is not unique),
 * APGD's residual stalls near 2e-7 and 1e-8 would cost 1000 iterations in
 * every step for the same force (to 2e-5 relative).  A given configuration
 * (--model, a test) is used as it is; the De Saxce fixed point stalls
 * near 1e-5, the tolerance to give it.
 *
 * Parameters (--set): load (F_y, N), zeta, speed (m/s), balls (per row),
 * rows, mu (combined sliding friction), t0 (start of the averaging
 * window, s).
 *
 * Metrics (see gw_metrics): fx_mean (mean drive force over the window,
 * N; reference zeta F_y sign(speed)), fx_rel_err, fx_std, fx_ref_balls
 * (zeta (F_y + n m_b g / 2), the reference with the balls' weight),
 * fy_mean (reference F_y), ball_speed_ratio and ball_slip (rolling
 * without slip: 1 and 0), ball_drift_z (lateral drift, 0 by symmetry: no
 * side walls are needed), carriage_drift_z, carriage_dy (penetration < 0,
 * lift > 0), base_contacts (0), window_steps.
 *
 * Series, one row per step: t, F_x (the drive force of that step), F_x_ref
 * (zeta F_y), v (the carriage's v_x after the step, before the next
 * reset), F_y (the vertical contact force on the carriage), dy (the
 * carriage's height error) and drift (largest ball |z - z0|).
 *
 * Stock Bullet (10 sequential-impulse iterations, not configurable through
 * pl*) cannot carry a 50 kg carriage on 1.08 g balls (mass ratio 46,000):
 * the carriage sinks into the balls (2 mm by 0.3 s, 5.7 mm by 0.6 s) and
 * bounces, some balls are squeezed out sideways, and the mean force is
 * about 0 or negative instead of 2.45 N (with load=4.9, a 0.5 kg
 * carriage, it gives zeta F_y +4%).
 */
#include "demo.h"

#include <math.h>
#include <stdlib.h>

#define GW_G 9.81
#define GW_RB 0.0032       /* ball radius, m */
#define GW_DENSITY 7850.0  /* steel, kg/m^3 */
#define GW_PITCH 0.008     /* ball spacing along a row, m */
#define GW_ROW_PITCH 0.015 /* row spacing along z, m */
#define GW_HY 0.01         /* carriage half height, m */
#define GW_DT 1e-3         /* default step, s */
#define GW_MU_RACEWAY 1.0  /* base and carriage sliding friction */
#define GW_TOL 1e-6        /* the scene's solver tolerance */

static const demo_param gw_params[] = {
    {"load", 490.0, "F_y, the carriage's weight on the balls (N)"},
    {"zeta", 0.005, "rolling friction ratio: rho = zeta R_b at each contact"},
    {"speed", 0.01, "carriage speed along x (m/s, not 0)"},
    {"balls", 9, "balls per row"},
    {"rows", 4, "rows of balls side by side (along z)"},
    {"mu", 0.5, "combined sliding friction of a ball contact"},
    {"t0", 0.1, "start of the averaging window (s)"},
    {"seal", 0.0,
     "seal friction S (N, >= 0; the paper's 5.3): a "
     "box-bounded row on the carriage, F_x = zeta F_y + S"},
};

/* Sums the x and y impulses the carriage received from the balls in the
   last step; counts its contacts with the base that carry an impulse.
   *buf of *cap entries grows as needed. */
static int gw_carriage_impulse(demo_world *w, plRigidBodyHandle carriage,
                               plRigidBodyHandle base, plContactInfo **buf,
                               int *cap, double *px, double *py,
                               int *base_contacts)
{
    int n = plGetContacts(carriage, *buf, *cap);
    if (n < 0) {
        return demo_world_fail(w, "plGetContacts(carriage) failed: %s",
                               plGetLastError());
    }
    if (n > *cap) {
        plContactInfo *b = realloc(*buf, (size_t)n * 2 * sizeof *b);
        if (b == NULL) {
            return demo_world_fail(w, "out of memory");
        }
        *buf = b;
        *cap = 2 * n;
        n = plGetContacts(carriage, *buf, *cap);
        if (n < 0 || n > *cap) {
            return demo_world_fail(w, "plGetContacts(carriage) failed: %s",
                                   plGetLastError());
        }
    }
    *px = *py = 0;
    for (int i = 0; i < n; ++i) {
        const plContactInfo *c = &(*buf)[i];
        double imp[3];
        for (int k = 0; k < 3; ++k) {
            imp[k] = c->m_impulse[0] * c->m_normal[k] +
                     c->m_impulse[1] * c->m_tangent1[k] +
                     c->m_impulse[2] * c->m_tangent2[k];
        }
        if (c->m_other == base) {
            *base_contacts += c->m_impulse[0] > 0;
            continue;
        }
        *px += imp[0];
        *py += imp[1];
    }
    return 0;
}

static int gw_bad(demo_result *out, const char *key, double value,
                  const char *need)
{
    snprintf(out->error, sizeof out->error, "guideway: %s = %g must be %s", key,
             value, need);
    return -1;
}

static int guideway_run(const demo_scene *scene, const demo_opts *opts,
                        demo_result *out)
{
    demo_world w;
    demo_opts o = *opts;
    const double load = demo_param_value(scene, opts, "load");
    const double zeta = demo_param_value(scene, opts, "zeta");
    const double speed = demo_param_value(scene, opts, "speed");
    const double nb_d = demo_param_value(scene, opts, "balls");
    const double nr_d = demo_param_value(scene, opts, "rows");
    const double mu = demo_param_value(scene, opts, "mu");
    const double t0 = demo_param_value(scene, opts, "t0");
    const double seal = demo_param_value(scene, opts, "seal");

    if (!(load > 0)) {
        return gw_bad(out, "load", load, "> 0 (N)");
    }
    if (!(zeta >= 0)) {
        return gw_bad(out, "zeta", zeta, ">= 0");
    }
    if (!(speed != 0)) {
        return gw_bad(out, "speed", speed, "non-zero (m/s)");
    }
    if (!(nb_d >= 1 && nb_d <= 100 && nb_d == floor(nb_d))) {
        return gw_bad(out, "balls", nb_d, "a whole number in [1, 100]");
    }
    if (!(nr_d >= 1 && nr_d <= 8 && nr_d == floor(nr_d))) {
        return gw_bad(out, "rows", nr_d, "a whole number in [1, 8]");
    }
    if (!(mu > 0)) {
        return gw_bad(out, "mu", mu, "> 0");
    }
    if (!(t0 >= 0)) {
        return gw_bad(out, "t0", t0, ">= 0 (s)");
    }
    if (!(seal >= 0)) {
        return gw_bad(out, "seal", seal, ">= 0 (N)");
    }
    rf_config cfg;
    if (o.dt == 0) {
        o.dt = GW_DT;
    }
    if (o.config == NULL) {
        rf_config_default(&cfg);
        cfg.tol = GW_TOL;
        o.config = &cfg;
    }
    const int nb = (int)nb_d, nr = (int)nr_d;
    const int steps = demo_steps(scene, &o);
    const double h = o.dt, T = steps * h;
    const double mass = load / GW_G;
    const double ball_mass =
        GW_DENSITY * 4.0 / 3.0 * DEMO_PI * GW_RB * GW_RB * GW_RB;
    /* the balls move back along the carriage by |speed| T / 2 */
    const double hx = 0.5 * nb * GW_PITCH + 0.5 * fabs(speed) * T + 0.004;
    const double hz = 0.5 * nr * GW_ROW_PITCH;
    const double y_carriage = 2 * GW_RB + GW_HY;
    const double fx_ref = copysign(zeta * load + seal, speed);
    /* with the balls' own weight: zeta (F_y + n m_b g / 2) + S */
    const double fx_balls = copysign(
        zeta * (load + 0.5 * nb * nr * ball_mass * GW_G) + seal, speed);

    plCollisionShapeHandle plane_shape, ball_shape, box_shape;
    plRigidBodyHandle base, carriage;
    int icar = -1, ifirst = -1;
    plContactInfo *buf = NULL;
    int cap = 0, base_contacts = 0;
    static const char *const cols[] = {"t",   "F_x", "F_x_ref", "v",
                                       "F_y", "dy",  "drift"};
    const plVector3 up = {0, 1, 0};
    const double origin[3] = {0, 0, 0};
    const double car_at[3] = {0, y_carriage, 0};

    if (demo_world_init(&w, &o, out, 0, -GW_G, 0) != 0) {
        return -1;
    }
    int rc = demo_world_shape(&w, plNewStaticPlaneShape(up, 0),
                              "plNewStaticPlaneShape", &plane_shape) ||
             demo_world_shape(&w, plNewSphereShape((plReal)GW_RB),
                              "plNewSphereShape", &ball_shape) ||
             demo_world_shape(
                 &w, plNewBoxShape((plReal)hx, (plReal)GW_HY, (plReal)hz),
                 "plNewBoxShape", &box_shape) ||
             demo_world_body(&w, "base", 0, plane_shape, origin, NULL, &base,
                             NULL) ||
             DEMO_PL(&w, plSetFriction(base, (plReal)GW_MU_RACEWAY)) ||
             DEMO_PL(&w, plSetRestitution(base, 0)) ||
             demo_world_body(&w, "carriage", mass, box_shape, car_at, NULL,
                             &carriage, &icar) ||
             DEMO_PL(&w, plSetFriction(carriage, (plReal)GW_MU_RACEWAY)) ||
             DEMO_PL(&w, plSetRestitution(carriage, 0)) ||
             DEMO_PL(&w, plSetSleeping(carriage, 0));
    for (int r = 0; rc == 0 && r < nr; ++r) {
        for (int i = 0; rc == 0 && i < nb; ++i) {
            char name[DEMO_NAME_LEN];
            plRigidBodyHandle b;
            int idx;
            const double at[3] = {(i - 0.5 * (nb - 1)) * GW_PITCH, GW_RB,
                                  (r - 0.5 * (nr - 1)) * GW_ROW_PITCH};
            snprintf(name, sizeof name, "ball_%d_%d", r, i);
            rc = demo_world_body(&w, name, ball_mass, ball_shape, at, NULL, &b,
                                 &idx) ||
                 DEMO_PL(&w, plSetFriction(b, (plReal)mu)) ||
                 DEMO_PL(&w, plSetRollingFriction(b, (plReal)(zeta * GW_RB))) ||
                 DEMO_PL(&w, plSetSpinningFriction(b, 0)) ||
                 DEMO_PL(&w, plSetRestitution(b, 0)) ||
                 DEMO_PL(&w, plSetSleeping(b, 0));
            if (ifirst < 0) {
                ifirst = idx;
            }
        }
    }
    const int nballs = nb * nr;
    /* the seals: a box-bounded row along x on the carriage (its impulse
       lambda acts on the carriage as +lambda x) */
    plConstraintHandle seal_row = NULL;
    if (rc == 0 && seal > 0) {
        const plVector3 x_axis = {1, 0, 0};
        seal_row = plNewLinearFriction(carriage, NULL, x_axis, (plReal)seal);
        rc = seal_row == NULL
                 ? demo_world_fail(&w, "plNewLinearFriction failed: %s",
                                   plGetLastError())
                 : DEMO_PL(&w, plAddConstraint(w.world, seal_row, 1));
    }
    rc = rc || demo_world_series(&w, 7, cols);
    if (rc == 0) {
        const double row0[7] = {0, NAN, fx_ref, 0, NAN, 0, 0};
        rc = demo_world_row(&w, row0);
    }
    double sum = 0, sum2 = 0, sumy = 0;
    int nwin = 0;
    double drift = 0;
    for (int step = 1; rc == 0 && step <= steps; ++step) {
        plVector3 v;
        const plVector3 zero = {0, 0, 0};
        rc = DEMO_PL(&w, plGetLinearVelocity(carriage, v));
        if (rc != 0) {
            break;
        }
        v[0] = (plReal)speed;
        v[2] = 0;
        rc = DEMO_PL(&w, plSetLinearVelocity(carriage, v)) ||
             DEMO_PL(&w, plSetAngularVelocity(carriage, zero)) ||
             demo_world_step(&w, &o);
        double px = 0, py = 0;
        rc = rc || gw_carriage_impulse(&w, carriage, base, &buf, &cap, &px, &py,
                                       &base_contacts);
        if (rc == 0 && seal_row != NULL) {
            plReal lambda = 0;
            rc = DEMO_PL(&w, plGetConstraintImpulse(seal_row, &lambda));
            px += lambda;
        }
        demo_body_state cs;
        rc = rc || demo_world_state(&w, icar, &cs);
        drift = 0;
        for (int k = 0; rc == 0 && k < nballs; ++k) {
            demo_body_state bs;
            if (demo_world_state(&w, ifirst + k, &bs) != 0) {
                rc = -1;
                break;
            }
            const int r = k / nb;
            const double dz = bs.pos[2] - (r - 0.5 * (nr - 1)) * GW_ROW_PITCH;
            if (fabs(dz) > drift) {
                drift = fabs(dz);
            }
        }
        if (rc != 0) {
            break;
        }
        const double fx = -px / h, fy = py / h, t = step * h;
        if (t >= t0 - 0.5 * h) {
            sum += fx;
            sum2 += fx * fx;
            sumy += fy;
            nwin++;
        }
        const double row[7] = {
            t, fx, fx_ref, cs.vel[0], fy, cs.pos[1] - y_carriage, drift};
        rc = demo_world_row(&w, row);
    }
    if (rc == 0) {
        rc = demo_world_finish(&w, scene, out);
    }
    if (rc == 0) {
        const demo_body_state *cs = demo_result_body(out, "carriage");
        /* rolling without slip: the ball's bottom point (v_x + omega_z R_b)
           is at rest, its top point (v_x - omega_z R_b) moves with the
           carriage */
        double vball = 0, slip = 0;
        for (int k = 0; k < nballs; ++k) {
            const demo_body_state *b = &out->bodies[1 + k];
            const double bottom = b->vel[0] + b->omega[2] * GW_RB;
            const double top = b->vel[0] - b->omega[2] * GW_RB - cs->vel[0];
            vball += b->vel[0];
            slip = fmax(slip, fmax(fabs(bottom), fabs(top)));
        }
        vball /= nballs;
        const double mean = nwin ? sum / nwin : NAN;
        const double var = nwin ? sum2 / nwin - mean * mean : NAN;
        rc = demo_world_metric_ref(&w, "fx_mean", mean, fx_ref) ||
             demo_world_metric_ref(&w, "fx_rel_err",
                                   fx_ref != 0 ? (mean - fx_ref) / fx_ref : NAN,
                                   0) ||
             demo_world_metric(&w, "fx_std", sqrt(fmax(var, 0))) ||
             demo_world_metric(&w, "fx_ref_balls", fx_balls) ||
             demo_world_metric_ref(&w, "fy_mean", nwin ? sumy / nwin : NAN,
                                   load) ||
             demo_world_metric_ref(&w, "ball_speed_ratio",
                                   vball / (0.5 * cs->vel[0]), 1) ||
             demo_world_metric_ref(&w, "ball_slip", slip, 0) ||
             demo_world_metric_ref(&w, "ball_drift_z", drift, 0) ||
             demo_world_metric_ref(&w, "carriage_drift_z", cs->pos[2], 0) ||
             demo_world_metric_ref(&w, "carriage_dy", cs->pos[1] - y_carriage,
                                   0) ||
             demo_world_metric_ref(&w, "base_contacts", base_contacts, 0) ||
             demo_world_metric(&w, "window_steps", nwin);
    }
    free(buf);
    if (seal_row != NULL) {
        if (plDeleteConstraint(seal_row) != PL_OK) {
            rc = demo_world_fail(&w, "plDeleteConstraint(seal) failed: %s",
                                 plGetLastError());
        }
    }
    if (demo_world_free(&w) != 0) {
        rc = -1;
    }
    return rc ? -1 : 0;
}

static const demo_metric_info gw_metrics[] = {
    {"fx_mean", "mean force driving the carriage at constant speed over the "
                "window t >= t0, N; reference zeta F_y + S (Tasora & "
                "Anitescu 6.2, the manufacturer's formula; S = --set seal, "
                "default 0)"},
    {"fx_rel_err", "(fx_mean - ref) / ref, ref = zeta F_y + S; reference 0 "
                   "(empty when ref = 0)"},
    {"fx_std", "standard deviation of the per-step drive force over the "
               "window, N"},
    {"fx_ref_balls", "the reference with the balls' own weight, zeta (F_y + "
                     "n m_b g / 2), N (+0.04% for 36 balls under 490 N)"},
    {"fy_mean", "mean vertical force of the balls on the carriage over the "
                "window, N; reference F_y (the carriage's weight)"},
    {"ball_speed_ratio", "mean ball v_x at the end over half the carriage's "
                         "v_x; reference 1 (rolling without slip)"},
    {"ball_slip", "largest sliding speed at a ball's bottom or top contact "
                  "at the end, m/s; reference 0 (rolling without slip)"},
    {"ball_drift_z", "largest sideways |z - z0| of any ball at the end, m; "
                     "reference 0 (symmetric placement, no side walls)"},
    {"carriage_drift_z", "the carriage's final z, m; reference 0"},
    {"carriage_dy", "the carriage's final height minus 2 R_b + its half "
                    "height, m (< 0 penetration, > 0 lift); reference 0"},
    {"base_contacts", "carriage/base contact points that carried an impulse, "
                      "summed over the steps; reference 0"},
    {"window_steps", "steps in the averaging window"},
};

static const demo_plot gw_plots[] = {
    {
        .name = "force",
        .title = "Guideway: force driving the carriage vs zeta F_y",
        .x = "t",
        .xlabel = "time t (s)",
        .ylabel = "F_x (N)",
        .y = {"F_x", "F_x_ref"},
    },
    {
        .name = "drift",
        .title = "Guideway: largest sideways ball drift",
        .x = "t",
        .xlabel = "time t (s)",
        .ylabel = "|z - z0| (m)",
        .y = {"drift"},
    },
};

const demo_scene demo_guideway = {
    .name = "guideway",
    .description =
        "Tasora & Anitescu 2013, section 6.2: a linear guideway, a carriage "
        "of weight F_y = 490 N driven at 1 cm/s on 4 rows of 9 steel balls "
        "(6.4 mm) between flat raceways, rolling friction rho = zeta R_b",
    .default_steps = 600,
    .quick_steps = 300,
    .params = gw_params,
    .nparams = (int)(sizeof gw_params / sizeof gw_params[0]),
    .run = guideway_run,
    .explanation =
        "The carriage (its weight is the load F_y) is driven at constant "
        "speed by resetting its velocity every 1 ms step; the force plot "
        "shows what the contacts take out of its momentum per step, which "
        "should sit on zeta F_y (2.45 N for 490 N and zeta = 0.005) after "
        "the first steps: each ball rolls without slip between the base "
        "and the carriage, carries the rolling torque rho N at both "
        "contacts and so holds the carriage back with rho N / R_b = zeta N, "
        "whatever the split of the load among the balls (the balls' own "
        "weight adds 0.04%).  The paper's seal friction S = 5.3 N is left "
        "out (it needs a box-bounded row, which the pl* API does not expose "
        "yet), so the reference is zeta F_y without S, and the 45 deg "
        "grooves are flat raceways.  The associated and De Saxce models "
        "agree (the associated lift is 5e-8 m); stock Bullet cannot carry "
        "a 50 kg carriage on 1 g balls with its 10 iterations: the carriage "
        "sinks into the balls and the force is lost.  The drift plot shows "
        "that the balls stay in their rows without side walls.",
    .metric_info = gw_metrics,
    .nmetric_info = (int)(sizeof gw_metrics / sizeof gw_metrics[0]),
    .plots = gw_plots,
    .nplots = (int)(sizeof gw_plots / sizeof gw_plots[0]),
};
