/*
 * Impacts: balls (R = 0.1 m, 1 kg) dropped from
 * H = 2 m on the ground, h = 1e-4 s by default (the rebound's error is
 * about 1.25 v h of the rise, see test_bounce_height: 0.4% of e = 0.25's
 * 12.5 cm).
 *
 *   restitution  e = 0.25, 0.5, 0.75 (ball e, ground 1: Bullet's
 *                product; Newton's law, Acary eq. (8)-(9)): the ball rises
 *                again to e^2 H.  Series: e, rise (fraction of H),
 *                rise_ref = e^2.
 *   plastic      a ball with a contact spring K = 1e4 N/m dropped from
 *                0.1 m on a yielding patch (plSetYield, F_y = 50 N; a
 *                second ground body under it): the 1D spring-slider model
 *                leaves the permanent dent delta_p = (m g H + m g d_e -
 *                K d_e^2 / 2) / (F_y - m g), d_e = F_y / K: 22.5 mm (see
 *                test_plastic_indentation).  Metric: the depth at which
 *                the ball leaves the ground after its first impact.
 *
 * Stock Bullet takes the gap off the rebound and has no yield.
 */
#include "demo.h"

#include <math.h>
#include <string.h>

#define IM_R 0.1
#define IM_G 9.81
#define IM_H 2.0
#define IM_DT 1e-4
#define IM_NE 3

static const double im_e[IM_NE] = {0.25, 0.5, 0.75};

static int im_world(demo_world *w, const demo_opts *o, demo_result *out,
                    plCollisionShapeHandle *ball, plRigidBodyHandle *ground,
                    double yield)
{
    const plVector3 up = {0, 1, 0};
    const double origin[3] = {0, 0, 0};
    plCollisionShapeHandle plane;
    if (demo_world_init(w, o, out, 0, -IM_G, 0) != 0) {
        return -1;
    }
    return demo_world_shape(w, plNewStaticPlaneShape(up, 0),
                            "plNewStaticPlaneShape", &plane) ||
           demo_world_shape(w, plNewSphereShape((plReal)IM_R),
                            "plNewSphereShape", ball) ||
           demo_world_body(w, "ground", 0, plane, origin, NULL, ground, NULL) ||
           DEMO_PL(w, plSetRestitution(*ground, 1)) ||
           DEMO_PL(w, plSetContactStiffnessAndDamping(*ground, 1e12f, 0)) ||
           DEMO_PL(w, plSetYield(*ground, (plReal)yield));
}

static int impacts_run(const demo_scene *scene, const demo_opts *opts,
                       demo_result *out)
{
    static const char *const cols[] = {"e", "rise", "rise_ref"};
    demo_opts o = *opts;
    if (o.dt == 0) {
        o.dt = IM_DT;
    }
    demo_world w;
    memset(&w, 0, sizeof w);
    demo_stats acc;
    memset(&acc, 0, sizeof acc);
    plCollisionShapeHandle ball;
    plRigidBodyHandle ground;
    int idx[IM_NE];
    /* restitution: one world, the balls side by side */
    int rc = im_world(&w, &o, out, &ball, &ground, 0.0) ||
             demo_world_series(&w, 3, cols);
    for (int k = 0; rc == 0 && k < IM_NE; ++k) {
        char name[DEMO_NAME_LEN];
        const double at[3] = {1.0 * k, IM_R + IM_H, 0};
        plRigidBodyHandle b;
        snprintf(name, sizeof name, "ball_e%.2f", im_e[k]);
        rc = demo_world_body(&w, name, 1.0, ball, at, NULL, &b, &idx[k]) ||
             DEMO_PL(&w, plSetRestitution(b, (plReal)im_e[k])) ||
             DEMO_PL(&w, plSetSleeping(b, 0));
    }
    double apex[IM_NE] = {0}, vprev[IM_NE] = {0};
    int phase[IM_NE] = {0}; /* 0 falling, 1 rising, 2 done */
    const int n = (int)lround(3.0 / w.dt);
    int done = 0;
    for (int i = 0; rc == 0 && i < n && done < IM_NE; ++i) {
        rc = demo_world_step(&w, &o);
        done = 0;
        for (int k = 0; rc == 0 && k < IM_NE; ++k) {
            demo_body_state s;
            rc = demo_world_state(&w, idx[k], &s);
            const double y = s.pos[1] - IM_R, vy = s.vel[1];
            if (phase[k] == 0 && vy > 0 && vprev[k] < 0) {
                phase[k] = 1;
            }
            if (phase[k] == 1) {
                apex[k] = fmax(apex[k], y);
                if (vy < 0) {
                    phase[k] = 2;
                }
            }
            vprev[k] = vy;
            done += phase[k] == 2;
        }
    }
    double worst = 0.0;
    for (int k = 0; rc == 0 && k < IM_NE; ++k) {
        const double row[3] = {im_e[k], apex[k] / IM_H, im_e[k] * im_e[k]};
        rc = demo_world_row(&w, row);
        worst = fmax(worst, fabs(apex[k] / IM_H / (im_e[k] * im_e[k]) - 1));
    }
    if (rc == 0) {
        demo_stats_add(&acc, &w);
    }
    /* plastic: a ball on yielding ground */
    const double K = 1e4, Fy = 50.0, Hp = 0.1, m = 1.0;
    const double de = Fy / K;
    const double dp =
        (m * IM_G * Hp + m * IM_G * de - 0.5 * K * de * de) / (Fy - m * IM_G);
    double leave = NAN;
    {
        int ib;
        plRigidBodyHandle b;
        const double at[3] = {0, IM_R + Hp, 0};
        rc = rc || demo_world_free(&w) ||
             im_world(&w, &o, out, &ball, &ground, Fy) ||
             demo_world_body(&w, "plastic_ball", m, ball, at, NULL, &b, &ib) ||
             DEMO_PL(&w, plSetContactStiffnessAndDamping(b, (plReal)K, 0)) ||
             DEMO_PL(&w, plSetSleeping(b, 0));
        int rising = 0;
        const int np = (int)lround(1.0 / w.dt);
        for (int i = 0; rc == 0 && i < np && isnan(leave); ++i) {
            demo_body_state s;
            rc = demo_world_step(&w, &o) || demo_world_state(&w, ib, &s);
            const double depth = IM_R - s.pos[1];
            rising = rising || s.vel[1] > 0;
            if (rc == 0 && rising && depth > 0 && s.vel[1] > 0) {
                /* still on the ground while the elastic part unloads;
                   gone once free flight starts (no contact force: the
                   velocity falls by g h exactly) */
                plContactInfo ci[4];
                const int nci = plGetContacts(b, ci, 4);
                double imp = 0.0;
                for (int c = 0; c < nci && c < 4; ++c) {
                    imp += ci[c].m_impulse[0];
                }
                if (nci >= 0 && imp <= 0.0) {
                    leave = depth;
                }
            }
        }
    }
    rc = rc || demo_world_metric_ref(&w, "worst_rise_rel_error", worst, 0.0) ||
         demo_world_metric_ref(&w, "permanent_dent", leave, dp);
    if (rc == 0) {
        demo_stats_store(&w, &acc);
        rc = demo_world_finish(&w, scene, out);
    }
    return demo_world_free(&w) != 0 || rc != 0 ? -1 : 0;
}

static const demo_metric_info impacts_metrics[] = {
    {"worst_rise_rel_error", "largest |rise / (e^2 H) - 1| over e = 0.25, "
                             "0.5, 0.75 (reference 0; Newton's law)"},
    {"permanent_dent", "depth (m) at which the ball on yielding ground "
                       "leaves it after the first impact; reference the 1D "
                       "spring-slider model's permanent indentation"},
};
static const demo_plot impacts_plots[] = {
    {
        .name = "rise",
        .title = "Rebound height over drop height vs restitution",
        .x = "e",
        .xlabel = "coefficient of restitution e",
        .ylabel = "rise / H",
        .y = {"rise", "rise_ref"},
    },
};

const demo_scene demo_impacts = {
    .name = "impacts",
    .description = "Impacts: Newton restitution (rise e^2 H) and "
                   "an elasto-plastic ground keeping its dent",
    .default_steps = 30000,
    .quick_steps = 30000,
    .run = impacts_run,
    .explanation =
        "Balls with e = 0.25, 0.5 and 0.75 dropped from 2 m rise again to "
        "e^2 of that height (Newton's law at the impact; the cone solver "
        "bounces a point that closes its gap within the step at e times "
        "its approach speed). A ball with a contact spring dropped on "
        "ground that yields at 50 N dents it: the ground flows at the "
        "yield force and keeps the permanent indentation of the 1D "
        "spring-slider model when the ball leaves.",
    .metric_info = impacts_metrics,
    .nmetric_info = 2,
    .plots = impacts_plots,
    .nplots = 1,
};
