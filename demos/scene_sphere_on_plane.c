/*
 * Seed scene sphere_on_plane: Acary, Brémond, Huber, "On solving contact
 * problems with Coulomb friction and rolling resistance" (rolling
 * friction cone), section 6.1 "A sphere rolling on a plane" (Figures 2
 * and 3).  A sphere R = 0.5 m, density 2500 kg/m^3 (m = 1309.0 kg, I =
 * 2/5 m R^2) on a horizontal plane with initial tangential velocity U_X
 * and rotational velocity Omega_Y; the slip velocity at the contact is
 * u_T = U_X - R Omega_Y (the paper's slip-free condition).  Three cases
 * (--set case=1|2|3, Figure 3):
 *   1 (a) U0 = 2.5 m/s, Omega0 = 5 rad/s,   mu = 0.2,  mu_r = 0.04 m:
 *         rolls without slip to rest;
 *   2 (b) U0 = 2.5 m/s, Omega0 = 2.5 rad/s, mu = 0.2,  mu_r = 0.04 m:
 *         slips first (u_T > 0), rolls once u_T reaches 0, then stops;
 *   3 (c) U0 = 2.5 m/s, Omega0 = 5 rad/s,   mu = 0.05, mu_r = 0.04 m:
 *         slips at once, Omega reaches 0 first, then the sphere slides
 *         without rotation to rest.
 *
 * Conventions and the mapping to rollfric:
 *  - The paper's frame: X along the motion, Y the rotation axis, the
 *    normal N = Z up (right-handed, so that u_T = U_X - R Omega_Y is the
 *    velocity of the contact point).  The scene uses z up in Bullet
 *    (gravity (0, 0, -g), plane z = 0), so U = v_x and Omega = omega_y
 *    with the paper's signs.
 *  - mu_r is the paper's rolling friction coefficient of (16), ||m_R|| <=
 *    mu_r r_N, "which has the dimension of a length": it is rollfric's
 *    rolling friction length rho in m (no division by R).  Case (c)
 *    confirms it: with rho = 0.04 m rolling without slip needs |r_T| / r_N
 *    = rho / (1.4 R) = 0.057 > mu = 0.05, so the sphere slips and
 *    R mu = 0.025 < rho makes Omega vanish first, as the paper describes;
 *    a dimensionless mu_r (rho = mu_r R = 0.02 m) would need only 0.029
 *    and case (c) would roll like (a).
 *  - g is not given in section 6.1; 9.81 m/s^2 (the paper's value in 6.2).
 *  - The plane's friction is 1 and its rolling friction 0, the sphere's
 *    are mu and mu_r: Bullet's combination (mu = muA muB, rho = rhoA muB +
 *    rhoB muA) gives the contact exactly (mu, mu_r).
 *
 * Analytic solution (rigid, N = m g, k = I/(m R^2) = 2/5): piecewise
 * constant accelerations, phases
 *   roll  (u_T = 0, Omega != 0; needs mu >= rho / (R (1 + k))):
 *         U' = R Omega' = -s rho g / (R (1 + k)), s = sign Omega,
 *         r_T = m U', m_T = -s rho m g;
 *   slip  (u_T != 0, Omega != 0): r_T = -sigma mu m g (sigma = sign u_T),
 *         m_T = -s rho m g, U' = -sigma mu g,
 *         Omega' = g (sigma R mu - s rho) / (k R^2);
 *   slide (Omega = 0 held, u_T != 0; needs R mu <= rho): U' = -sigma mu
 *         g, m_T = R r_T = -sigma R mu m g (static rolling resistance);
 *   rest.
 * A phase ends when u_T or Omega reaches 0; the next phase is the one
 * consistent with the laws above (if rolling is not possible, slip with
 * sigma = s; if Omega cannot be held at 0, slip with s = sigma).  r_T is
 * the tangential force on the sphere along X (N), m_T the rolling moment
 * on the sphere about Y (N m).  Case (a): a = 0.5606 m/s^2, stop at t =
 * 4.460 s, Xmax = 5.575 m; (b): slip ends at t = 0.2548 s (U = 2, Omega =
 * 4), stop at 3.823 s, Xmax = 4.141 m; (c): Omega = 0 at t = 3.398 s,
 * stop at 5.097 s, Xmax = U0^2 / (2 mu g) = 6.371 m.
 *
 * Map (--set map=1, the paper's Figure 2): Xmax from slip-free initial
 * conditions (U0 = 2.5, Omega0 = 5) over a grid of mu x mu_r, several
 * short runs in one world (one sphere after the other, each removed when
 * it stops or after 1.25 T_ref + 1 s, T_ref its analytic stop time);
 * --steps does not apply.  Series: mu, mur, xmax, xmax_ref.
 *
 * Series (cases): t, x, x_ref, u, u_ref, omega, omega_ref, rt, rt_ref, mr,
 * mr_ref (the contact forces from plGetContacts' impulses / h; stock
 * Bullet does not report its rolling impulses: mr empty), slip (u_T).
 * Metrics: see sp_metrics below.
 */
#include "demo.h"

#include <math.h>
#include <string.h>

#define SP_R 0.5
#define SP_DENSITY 2500.0
#define SP_G 9.81
#define SP_K 0.4      /* I / (m R^2), a solid sphere */
#define SP_EPS_V 1e-3 /* m/s: |u_T| or R |Omega| below it is 0 */
#define SP_MAX_CONTACTS 8
#define SP_MAX_PHASES 8

static const demo_param sp_params[] = {
    {"case", 1,
     "Acary 6.1 Figure 3 configuration: 1 (a) slip-free, mu = 0.2; 2 (b) "
     "initial slip; 3 (c) mu = 0.05, Omega stops first"},
    {"map", 0,
     "1: Xmax over a grid of mu x mu_r (Figure 2) instead of one case"},
};

/* ---- the analytic piecewise solution ---- */

enum { SP_ROLL = 1, SP_SLIP = 2, SP_SLIDE = 3, SP_REST = 4 };

typedef struct sp_phase {
    int kind;
    double t0, x0, u0, w0; /* start time and state */
    double du, dw;         /* constant accelerations */
    double rt, mr;         /* contact force (N) and rolling moment (N m) */
} sp_phase;

typedef struct sp_ref {
    int n;
    sp_phase ph[SP_MAX_PHASES];
    double t_stop, x_max; /* INFINITY when it never stops */
    double t_slip_end;    /* end of the last phase with u_T != 0 (0: none) */
    double t_omega_zero;  /* first time Omega = 0 */
    int code;             /* the phases' kinds as decimal digits */
} sp_ref;

static double sp_sign(double x)
{
    return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0;
}

/* The phase for state (u, w) (exact zeros mark u_T = 0 or Omega = 0). */
static void sp_phase_for(double u, double w, double mu, double rho, sp_phase *p)
{
    const double m = 1; /* forces per unit mass here; scaled by the caller */
    const double R = SP_R, g = SP_G, k = SP_K;
    const double ut = u - R * w;
    double sigma = sp_sign(ut), s = sp_sign(w);
    p->kind = SP_SLIP;
    if (sigma == 0 && s == 0) {
        p->kind = SP_REST;
        p->du = p->dw = p->rt = p->mr = 0;
        return;
    }
    if (sigma == 0) {
        if (mu >= rho / (R * (1 + k))) {
            p->kind = SP_ROLL;
            p->du = -s * rho * g / (R * (1 + k));
            p->dw = p->du / R;
            p->rt = m * p->du;
            p->mr = -s * rho * m * g;
            return;
        }
        sigma = s; /* rolling needs more friction than mu: slip */
    } else if (s == 0) {
        if (R * mu <= rho) {
            p->kind = SP_SLIDE;
            p->du = -sigma * mu * g;
            p->dw = 0;
            p->rt = -sigma * mu * m * g;
            p->mr = R * p->rt;
            return;
        }
        s = sigma; /* the friction torque turns the sphere */
    }
    p->du = -sigma * mu * g;
    p->dw = g * (sigma * R * mu - s * rho) / (k * R * R);
    p->rt = -sigma * mu * m * g;
    p->mr = -s * rho * m * g;
}

static void sp_solve(double u0, double w0, double mu, double rho, double mass,
                     sp_ref *r)
{
    double t = 0, x = 0, u = u0, w = w0;
    memset(r, 0, sizeof *r);
    r->t_stop = r->x_max = r->t_omega_zero = INFINITY;
    if (w0 == 0) {
        r->t_omega_zero = 0;
    }
    while (r->n < SP_MAX_PHASES) {
        sp_phase *p = &r->ph[r->n++];
        sp_phase_for(u, w, mu, rho, p);
        p->t0 = t;
        p->x0 = x;
        p->u0 = u;
        p->w0 = w;
        p->rt *= mass;
        p->mr *= mass;
        r->code = 10 * r->code + p->kind;
        if (p->kind == SP_REST) {
            r->t_stop = t;
            r->x_max = x;
            return;
        }
        /* the next event: u_T = 0 (slip, slide) or Omega = 0 (roll, slip) */
        const double ut = u - SP_R * w, dut = p->du - SP_R * p->dw;
        double tu = INFINITY, tw = INFINITY;
        if (p->kind != SP_ROLL && ut * dut < 0) {
            tu = -ut / dut;
        }
        if (p->kind != SP_SLIDE && w * p->dw < 0) {
            tw = -w / p->dw;
        }
        const double dt = fmin(tu, tw);
        if (!isfinite(dt)) { /* moves for ever (mu = 0 or rho = 0) */
            return;
        }
        x += u * dt + 0.5 * p->du * dt * dt;
        u += p->du * dt;
        w += p->dw * dt;
        t += dt;
        if (p->kind == SP_ROLL || tw <= tu) {
            if (!isfinite(r->t_omega_zero)) {
                r->t_omega_zero = t;
            }
            w = 0;
        }
        if (p->kind == SP_ROLL || tu <= tw) {
            u = SP_R * w; /* u_T = 0 exactly */
        }
        if (p->kind != SP_ROLL) {
            r->t_slip_end = t;
        }
    }
}

/* The analytic state at time t. */
static void sp_eval(const sp_ref *r, double t, double *x, double *u, double *w,
                    double *rt, double *mr)
{
    int i = r->n - 1;
    while (i > 0 && r->ph[i].t0 > t) {
        --i;
    }
    const sp_phase *p = &r->ph[i];
    const double tau = t - p->t0;
    *x = p->x0 + p->u0 * tau + 0.5 * p->du * tau * tau;
    *u = p->u0 + p->du * tau;
    *w = p->w0 + p->dw * tau;
    *rt = p->rt;
    *mr = p->mr;
}

/* ---- the simulation ---- */

typedef struct sp_case {
    double u0, w0, mu, rho;
} sp_case;

static const sp_case sp_cases[3] = {
    {2.5, 5.0, 0.2, 0.04},  /* (a) */
    {2.5, 2.5, 0.2, 0.04},  /* (b) */
    {2.5, 5.0, 0.05, 0.04}, /* (c) */
};

/* Regime of a simulated state (the phases' kinds above). */
static int sp_regime(double u, double w)
{
    const double ut = u - SP_R * w;
    if (fabs(u) < SP_EPS_V && SP_R * fabs(w) < SP_EPS_V) {
        return SP_REST;
    }
    if (fabs(ut) < SP_EPS_V) {
        return SP_ROLL;
    }
    return SP_R * fabs(w) < SP_EPS_V ? SP_SLIDE : SP_SLIP;
}

/* Contact force along x and rolling moment about y on the sphere (N, N m)
   from plGetContacts; mr NaN when the solver does not report torques. */
static int sp_contacts(demo_world *w, plRigidBodyHandle b, double *rt,
                       double *mr, double *cmu, double *crho)
{
    plContactInfo ci[SP_MAX_CONTACTS];
    const int n = plGetContacts(b, ci, SP_MAX_CONTACTS);
    if (n < 0) {
        return demo_world_fail(w, "plGetContacts failed: %s", plGetLastError());
    }
    int torques = 1;
    *rt = *mr = 0;
    for (int i = 0; i < n && i < SP_MAX_CONTACTS; ++i) {
        const plContactInfo *c = &ci[i];
        *rt += (double)c->m_impulse[0] * c->m_normal[0] +
               (double)c->m_impulse[1] * c->m_tangent1[0] +
               (double)c->m_impulse[2] * c->m_tangent2[0];
        *mr += (double)c->m_impulse[3] * c->m_normal[1] +
               (double)c->m_impulse[4] * c->m_tangent1[1] +
               (double)c->m_impulse[5] * c->m_tangent2[1];
        torques &= c->m_has_torques != 0;
        if (i == 0 && isnan(*cmu)) {
            *cmu = c->m_friction;
            *crho = c->m_rolling_friction;
        }
    }
    *rt /= w->dt;
    *mr = torques ? *mr / w->dt : NAN;
    return 0;
}

/* Adds a sphere with the case's coefficients and initial velocities. */
static int sp_add_sphere(demo_world *w, const char *name,
                         plCollisionShapeHandle shape, double mass,
                         const sp_case *c, plRigidBodyHandle *b, int *index)
{
    const double at[3] = {0, 0, SP_R};
    const double I = SP_K * mass * SP_R * SP_R;
    const plVector3 inertia = {(plReal)I, (plReal)I, (plReal)I};
    const plVector3 v = {(plReal)c->u0, 0, 0}, om = {0, (plReal)c->w0, 0};
    return demo_world_body(w, name, mass, shape, at, NULL, b, index) ||
           DEMO_PL(w, plSetMassProps(*b, (plReal)mass, inertia)) ||
           DEMO_PL(w, plSetSleeping(*b, 0)) ||
           DEMO_PL(w, plSetFriction(*b, (plReal)c->mu)) ||
           DEMO_PL(w, plSetRollingFriction(*b, (plReal)c->rho)) ||
           DEMO_PL(w, plSetSpinningFriction(*b, 0)) ||
           DEMO_PL(w, plSetRestitution(*b, 0)) ||
           DEMO_PL(w, plSetLinearVelocity(*b, v)) ||
           DEMO_PL(w, plSetAngularVelocity(*b, om));
}

/* One case, recorded step by step. */
static int sp_run_case(demo_world *w, const demo_scene *scene,
                       const demo_opts *o, plCollisionShapeHandle shape,
                       double mass, const sp_case *c)
{
    static const char *const cols[] = {"t",      "x",     "x_ref",     "u",
                                       "u_ref",  "omega", "omega_ref", "rt",
                                       "rt_ref", "mr",    "mr_ref",    "slip"};
    enum { NCOL = (int)(sizeof cols / sizeof cols[0]) };
    plRigidBodyHandle b;
    int ib = -1;
    sp_ref ref;
    sp_solve(c->u0, c->w0, c->mu, c->rho, mass, &ref);
    if (sp_add_sphere(w, "sphere", shape, mass, c, &b, &ib) != 0 ||
        demo_world_series(w, NCOL, cols) != 0) {
        return -1;
    }
    {
        double xr, ur, wr, rtr, mrr;
        sp_eval(&ref, 0, &xr, &ur, &wr, &rtr, &mrr);
        const double row0[NCOL] = {0,   0,     xr,  c->u0,
                                   ur,  c->w0, wr,  NAN,
                                   rtr, NAN,   mrr, c->u0 - SP_R * c->w0};
        if (demo_world_row(w, row0) != 0) {
            return -1;
        }
    }
    const int steps = demo_steps(scene, o);
    double stop_t = NAN, stop_x = NAN, slip_end = 0, omega_zero = NAN;
    double max_lift = 0, max_u_err = 0, cmu = NAN, crho = NAN;
    int code = 0, last = 0, moving_slip = 0;
    demo_body_state s;
    for (int n = 1; n <= steps; ++n) {
        double rt = 0, mr = 0, xr, ur, wr, rtr, mrr;
        if (demo_world_step(w, o) != 0 || demo_world_state(w, ib, &s) != 0 ||
            sp_contacts(w, b, &rt, &mr, &cmu, &crho) != 0) {
            return -1;
        }
        const double t = n * w->dt, x = s.pos[0], u = s.vel[0], om = s.omega[1],
                     slip = u - SP_R * om;
        sp_eval(&ref, t, &xr, &ur, &wr, &rtr, &mrr);
        const int reg = sp_regime(u, om);
        if (reg != last && code < 100000000) {
            code = 10 * code + reg;
            last = reg;
        }
        if (reg == SP_SLIP || reg == SP_SLIDE) {
            moving_slip = 1;
        } else if (moving_slip) {
            slip_end = t;
            moving_slip = 0;
        }
        if (isnan(omega_zero) && SP_R * fabs(om) < SP_EPS_V) {
            omega_zero = t;
        }
        if (isnan(stop_t) && reg == SP_REST) {
            stop_t = t;
            stop_x = x;
        }
        max_lift = fmax(max_lift, s.pos[2] - SP_R);
        max_u_err = fmax(max_u_err, fabs(u - ur));
        const double row[NCOL] = {t,  x,  xr,  u,  ur,  om,
                                  wr, rt, rtr, mr, mrr, slip};
        if (demo_world_row(w, row) != 0) {
            return -1;
        }
    }
    if (moving_slip) {
        slip_end = NAN; /* still slipping at the end */
    }
    const int stopped = !isnan(stop_t);
    return demo_world_finish(w, scene, w->result) ||
           demo_world_metric_ref(w, "xmax", stopped ? stop_x : s.pos[0],
                                 ref.x_max) ||
           demo_world_metric_ref(w, "stop_time", stop_t, ref.t_stop) ||
           demo_world_metric_ref(w, "slip_end_time", slip_end,
                                 ref.t_slip_end) ||
           demo_world_metric_ref(w, "omega_zero_time", omega_zero,
                                 ref.t_omega_zero) ||
           demo_world_metric_ref(w, "regimes", code, ref.code) ||
           demo_world_metric_ref(w, "regime_order", code == ref.code, 1) ||
           demo_world_metric(w, "stopped", stopped) ||
           demo_world_metric(w, "max_u_err", max_u_err) ||
           demo_world_metric(w, "max_lift", max_lift) ||
           demo_world_metric_ref(w, "contact_mu", cmu, c->mu) ||
           demo_world_metric_ref(w, "contact_rho", crho, c->rho) ||
           demo_world_metric(w, "mu", c->mu) ||
           demo_world_metric(w, "mur", c->rho);
}

/* The Figure 2 map: one short run per grid point. */
static int sp_run_map(demo_world *w, const demo_scene *scene,
                      const demo_opts *o, plCollisionShapeHandle shape,
                      double mass)
{
    static const char *const cols[] = {"mu", "mur", "xmax", "xmax_ref"};
    static const double mus[] = {0.01, 0.02, 0.05, 0.1, 0.2, 0.5};
    static const double murs[] = {0.004, 0.008, 0.012, 0.016, 0.02};
    static const double mus_quick[] = {0.01, 0.05, 0.5};
    static const double murs_quick[] = {0.008, 0.02};
    const int quick = o->quick;
    const int nmu = quick ? 3 : 6, nmur = quick ? 2 : 5;
    double max_err = 0, sum_err = 0;
    int unstopped = 0, points = 0;
    if (demo_world_series(w, 4, cols) != 0) {
        return -1;
    }
    for (int j = 0; j < nmur; ++j) {
        for (int i = 0; i < nmu; ++i) {
            const sp_case c = {2.5, 5.0, quick ? mus_quick[i] : mus[i],
                               quick ? murs_quick[j] : murs[j]};
            char name[DEMO_NAME_LEN];
            plRigidBodyHandle b;
            int ib = -1;
            sp_ref ref;
            demo_body_state s;
            sp_solve(c.u0, c.w0, c.mu, c.rho, mass, &ref);
            snprintf(name, sizeof name, "sphere_mu%g_mur%g", c.mu, c.rho);
            if (sp_add_sphere(w, name, shape, mass, &c, &b, &ib) != 0) {
                return -1;
            }
            const double horizon =
                isfinite(ref.t_stop) ? 1.25 * ref.t_stop + 1 : 100;
            const int cap = (int)ceil(horizon / w->dt);
            double xmax = NAN;
            for (int n = 1; n <= cap; ++n) {
                if (demo_world_step(w, o) != 0 ||
                    demo_world_state(w, ib, &s) != 0) {
                    return -1;
                }
                xmax = s.pos[0];
                if (sp_regime(s.vel[0], s.omega[1]) == SP_REST) {
                    break;
                }
            }
            if (sp_regime(s.vel[0], s.omega[1]) != SP_REST) {
                unstopped++;
            }
            if (DEMO_PL(w, plRemoveRigidBody(w->world, b)) != 0) {
                return -1;
            }
            const double err = fabs(xmax - ref.x_max) / ref.x_max;
            max_err = fmax(max_err, err);
            sum_err += err;
            points++;
            const double row[4] = {c.mu, c.rho, xmax, ref.x_max};
            if (demo_world_row(w, row) != 0) {
                return -1;
            }
        }
    }
    return demo_world_finish(w, scene, w->result) ||
           demo_world_metric(w, "map_points", points) ||
           demo_world_metric(w, "map_unstopped", unstopped) ||
           demo_world_metric_ref(w, "map_max_rel_err", max_err, 0) ||
           demo_world_metric_ref(w, "map_mean_rel_err", sum_err / points, 0);
}

static int sphere_on_plane_run(const demo_scene *scene, const demo_opts *o,
                               demo_result *out)
{
    const double kase = demo_param_value(scene, o, "case");
    const double map = demo_param_value(scene, o, "map");
    if (!(kase == 1 || kase == 2 || kase == 3) || !(map == 0 || map == 1)) {
        snprintf(out->error, sizeof out->error,
                 "sphere_on_plane: case = %g must be 1, 2 or 3 and map = %g 0 "
                 "or 1",
                 kase, map);
        return -1;
    }
    const double mass = SP_DENSITY * 4.0 / 3.0 * DEMO_PI * SP_R * SP_R * SP_R;
    demo_world w;
    plCollisionShapeHandle plane_shape, ball_shape;
    plRigidBodyHandle plane;
    const plVector3 up = {0, 0, 1};
    const double origin[3] = {0, 0, 0};
    if (demo_world_init(&w, o, out, 0, 0, -SP_G) != 0) {
        return -1;
    }
    int rc = demo_world_shape(&w, plNewStaticPlaneShape(up, 0),
                              "plNewStaticPlaneShape", &plane_shape) ||
             demo_world_shape(&w, plNewSphereShape((plReal)SP_R),
                              "plNewSphereShape", &ball_shape) ||
             demo_world_body(&w, "plane", 0, plane_shape, origin, NULL, &plane,
                             NULL) ||
             DEMO_PL(&w, plSetFriction(plane, 1)) ||
             DEMO_PL(&w, plSetRollingFriction(plane, 0)) ||
             DEMO_PL(&w, plSetRestitution(plane, 0));
    if (rc == 0) {
        rc = map == 1 ? sp_run_map(&w, scene, o, ball_shape, mass)
                      : sp_run_case(&w, scene, o, ball_shape, mass,
                                    &sp_cases[(int)kase - 1]);
    }
    if (demo_world_free(&w) != 0) {
        rc = -1;
    }
    return rc ? -1 : 0;
}

static const demo_metric_info sp_metrics[] = {
    {"xmax", "distance where the sphere stops (|U|, R|Omega| < 1e-3 m/s; the "
             "final x if it never does), m; reference: the piecewise "
             "analytic solution of Acary 6.1 (a 5.575, b 4.141, c 6.371 m)"},
    {"stop_time", "time of the first step at rest, s; reference: the "
                  "analytic stop (a 4.460, b 3.823, c 5.097 s)"},
    {"slip_end_time",
     "end of the last phase with |u_T| = |U - R Omega| >= 1e-3 m/s, s (0: "
     "never slipped; empty: still slipping); reference: analytic (a 0, b "
     "0.2548 s, c the stop: it slides to rest)"},
    {"omega_zero_time", "first time R|Omega| < 1e-3 m/s, s; reference: "
                        "analytic (c: 3.398 s, before the stop)"},
    {"regimes", "the sequence of regimes as digits: 1 rolling without slip, "
                "2 slipping and rotating, 3 sliding with Omega = 0, 4 rest; "
                "reference: analytic (a 14, b 214, c 234)"},
    {"regime_order", "1 when regimes equals its analytic reference"},
    {"stopped", "1 when the sphere came to rest within the run"},
    {"max_u_err", "max |U - U_ref| over the run, m/s"},
    {"max_lift", "max height of the centre above R, m (associated model: "
                 "the rolling contact separates at rho |Omega|)"},
    {"contact_mu", "combined sliding friction of the contact "
                   "(plGetContacts); reference the case's mu"},
    {"contact_rho", "combined rolling friction of the contact, m; reference "
                    "the case's mu_r"},
    {"mu", "the case's mu"},
    {"mur", "the case's mu_r (rolling friction length), m"},
    {"map_points", "map=1: grid points run"},
    {"map_unstopped", "map=1: runs that did not stop within 1.25 T_ref + 1 s"},
    {"map_max_rel_err", "map=1: max |xmax - xmax_ref| / xmax_ref over the "
                        "grid (reference 0)"},
    {"map_mean_rel_err", "map=1: mean of the same (reference 0)"},
};

static const demo_plot sp_plots[] = {
    {
        .name = "position",
        .title = "Sphere on a plane (Acary 6.1): position",
        .x = "t",
        .xlabel = "time t (s)",
        .ylabel = "X (m)",
        .y = {"x", "x_ref"},
    },
    {
        .name = "velocities",
        .title = "Sphere on a plane: U_X and Omega_Y",
        .x = "t",
        .xlabel = "time t (s)",
        .ylabel = "U (m/s), Omega (rad/s)",
        .y = {"u", "u_ref", "omega", "omega_ref"},
    },
    {
        .name = "forces",
        .title = "Sphere on a plane: tangential force and rolling moment",
        .x = "t",
        .xlabel = "time t (s)",
        .ylabel = "r_T (N), m_T (N m)",
        .y = {"rt", "rt_ref", "mr", "mr_ref"},
    },
    {
        .name = "slip",
        .title = "Sphere on a plane: slip velocity u_T = U - R Omega",
        .x = "t",
        .xlabel = "time t (s)",
        .ylabel = "u_T (m/s)",
        .y = {"slip"},
    },
    {
        .name = "map",
        .title = "Sphere on a plane (Acary 6.1, Fig. 2): Xmax (m) over mu x "
                 "mu_r, slip-free start U0 = 2.5 m/s, Omega0 = 5 rad/s "
                 "(--set map=1)",
        .x = "mu",
        .xlabel = "sliding friction mu",
        .ylabel = "rolling friction mu_r (m)",
        .y = {"xmax", "mur"},
        .kind = DEMO_PLOT_MAP,
        .logx = 1,
    },
};

const demo_scene demo_sphere_on_plane = {
    .name = "sphere_on_plane",
    .description =
        "Acary et al. (rolling friction cone) section 6.1: a sphere R = 0.5, "
        "2500 kg/m^3 rolling/slipping on a plane to rest, cases (a)-(c) of "
        "Fig. 3 (--set case=1|2|3) or the Xmax map of Fig. 2 (--set map=1)",
    .default_steps = 480,
    .quick_steps = 360,
    .params = sp_params,
    .nparams = (int)(sizeof sp_params / sizeof sp_params[0]),
    .run = sphere_on_plane_run,
    .explanation =
        "A sphere launched on a plane with a tangential velocity U and a "
        "spin Omega is stopped by sliding friction mu and rolling friction "
        "mu_r (a length, m).  The reference curves are the exact piecewise "
        "solution of the rigid model with N = m g: while the contact slips, "
        "the tangential force is -mu N sign(u_T) and the rolling moment "
        "-mu_r N sign(Omega); while it rolls without slip the sphere "
        "decelerates at mu_r g / (1.4 R); when Omega reaches 0 and R mu <= "
        "mu_r it stays 0 and the sphere slides to rest.  Case 1 (a) rolls "
        "without slip to rest; case 2 (b) slips until u_T = U - R Omega "
        "reaches 0 (the tangential force jumps from mu N to the rolling "
        "value), then rolls to rest; case 3 (c) slips at once, Omega "
        "reaches 0 first (the rolling moment drops from mu_r N to R mu N), "
        "then the sphere slides to rest.  The velocity plot shows U and "
        "Omega with their references, the force plot r_T and m_T from the "
        "contact impulses (stock Bullet does not report its rolling "
        "impulses; its rolling impulse is capped in absolute value, so it "
        "barely slows this 1309 kg sphere).  The associated model (the "
        "default) separates a slipping or rolling contact (dilatancy): the "
        "sphere hops by a few mm and the first step's forces are up to 3 "
        "times the Coulomb values; the De Saxce model follows the "
        "references to float rounding.  With map=1 the series is Xmax for "
        "slip-free starts "
        "(U0 = 2.5 m/s, Omega0 = 5 rad/s) over mu in {0.01 .. 0.5} and mu_r "
        "in {0.004 .. 0.02} m (rows grouped by mu_r): Xmax = U0^2 1.4 R / "
        "(2 mu_r g) where mu >= mu_r / (1.4 R) (rolling, independent of "
        "mu), U0^2 / (2 mu g) below (the sphere slides, independent of "
        "mu_r); both go to infinity as mu or mu_r goes to 0, hence no zero "
        "in the grid.  The map plot (drawn only with map=1; the case plots "
        "then have no data) shows Xmax per grid cell for each solver and the "
        "reference side by side, on one colour scale.",
    .metric_info = sp_metrics,
    .nmetric_info = (int)(sizeof sp_metrics / sizeof sp_metrics[0]),
    .plots = sp_plots,
    .nplots = (int)(sizeof sp_plots / sizeof sp_plots[0]),
};
