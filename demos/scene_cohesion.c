/*
 * Cohesion (Tasora-Anitescu slides, section 3: the
 * normal yield set shifted to gamma_n >= -c h, the friction cone shifted
 * with it).  Blocks (0.4 m cubes, 1 kg) hang under a static ceiling slab,
 * their top faces on its bottom face, gravity pulling them away; each
 * block is given the cohesion force c = m g / ratio (plSetCohesion; the
 * ceiling's is large, and a pair holds with the smaller of the two).
 *
 *   hang sweep   ratio = m g / c from 0.5 to 1.5: the block stays while
 *                m g <= c and falls when m g > c.  Series: ratio, drop
 *                (m, after T = 1 s), drop_ref (0 while held; g T^2 / 2,
 *                free fall, when released: an upper bound, as the pull
 *                acts until Bullet's manifold breaks 2 cm down).
 *   friction     a block with c = 2 m g_n under gravity tilted along the
 *                ceiling (g_t = 0.4 and 0.6 g_n, one world each), mu =
 *                0.5: the friction limit of a cohesive contact is mu
 *                (c - m g_n) = 0.5 m g_n, so 0.4 holds and 0.6 slides at
 *                a = 0.1 g_n: x = a T^2 / 2 = 4.41 cm in T = 0.3 s
 *                (semi-implicit Euler: (1 + h / T) times that).  Short:
 *                Bullet drops a box's manifold points once they have
 *                slid some 9 cm from where they were made, and the
 *                collision step may bring back only the leading edge's
 *                two, on which a hanging block tips.
 *
 * The friction case needs the De Saxce model (--model desaxce): the
 * associated model's dilatancy (u_n = mu |u_t| while sliding) opens the
 * sliding contact and the block leaves the ceiling.  The stock solver has
 * no cohesion: every block falls.
 */
#include "demo.h"

#include <math.h>
#include <string.h>

#define CO_G 9.81
#define CO_M 1.0
#define CO_HALF 0.2 /* the block's half extent, m */
#define CO_Y 0.8    /* block centre: top face at y = 1, the slab's bottom */
#define CO_T 1.0    /* seconds of the hang sweep */
#define CO_TF 0.3   /* seconds of a friction run (see below) */
#define CO_MU 0.5   /* block 0.5 x ceiling 1.0 (Bullet's product) */
#define CO_NHANG 6

static const double co_ratios[CO_NHANG] = {0.5, 0.9, 0.95, 1.05, 1.1, 1.5};

/* A world with gravity (gx, -g, 0), the ceiling slab (bottom face y = 1,
   friction 1, cohesion 1e6 N) and the cube shape. */
static int co_world(demo_world *w, const demo_opts *o, demo_result *out,
                    double gx, plCollisionShapeHandle *cube)
{
    const double at[3] = {0, 1.5, 0};
    plCollisionShapeHandle slab;
    plRigidBodyHandle ceiling;
    if (demo_world_init(w, o, out, gx, -CO_G, 0) != 0) {
        return -1;
    }
    return demo_world_shape(w, plNewBoxShape(8, 0.5f, 2), "plNewBoxShape",
                            &slab) ||
           demo_world_shape(
               w,
               plNewBoxShape((plReal)CO_HALF, (plReal)CO_HALF, (plReal)CO_HALF),
               "plNewBoxShape", cube) ||
           demo_world_body(w, "ceiling", 0, slab, at, NULL, &ceiling, NULL) ||
           DEMO_PL(w, plSetFriction(ceiling, 1)) ||
           DEMO_PL(w, plSetCohesion(ceiling, 1e6f));
}

/* A block at x under the ceiling with cohesion force c (N). */
static int co_block(demo_world *w, plCollisionShapeHandle cube,
                    const char *name, double x, double c, int *index)
{
    const double at[3] = {x, CO_Y, 0};
    plRigidBodyHandle b;
    return demo_world_body(w, name, CO_M, cube, at, NULL, &b, index) ||
           DEMO_PL(w, plSetFriction(b, (plReal)CO_MU)) ||
           DEMO_PL(w, plSetCohesion(b, (plReal)c)) ||
           DEMO_PL(w, plSetSleeping(b, 0));
}

static int co_steps(demo_world *w, const demo_opts *o, double seconds)
{
    const int n = (int)lround(seconds / w->dt);
    for (int k = 0; k < n; ++k) {
        if (demo_world_step(w, o) != 0) {
            return -1;
        }
    }
    return 0;
}

static int cohesion_run(const demo_scene *scene, const demo_opts *o,
                        demo_result *out)
{
    static const char *const cols[] = {"ratio", "drop", "drop_ref"};
    demo_world w;
    memset(&w, 0, sizeof w);
    demo_stats acc;
    memset(&acc, 0, sizeof acc);
    plCollisionShapeHandle cube;
    int idx[CO_NHANG];
    int rc = co_world(&w, o, out, 0.0, &cube) || demo_world_series(&w, 3, cols);
    for (int k = 0; rc == 0 && k < CO_NHANG; ++k) {
        char name[DEMO_NAME_LEN];
        snprintf(name, sizeof name, "hang_%.2f", co_ratios[k]);
        rc = co_block(&w, cube, name, 2.0 * k - 5.0, CO_M * CO_G / co_ratios[k],
                      &idx[k]);
    }
    rc = rc || co_steps(&w, o, CO_T);
    double worst_held = 0.0, least_fall = INFINITY;
    for (int k = 0; rc == 0 && k < CO_NHANG; ++k) {
        demo_body_state s;
        rc = demo_world_state(&w, idx[k], &s);
        const double drop = CO_Y - s.pos[1];
        const int held = co_ratios[k] <= 1.0;
        const double row[3] = {co_ratios[k], drop,
                               held ? 0.0 : 0.5 * CO_G * CO_T * CO_T};
        rc = rc || demo_world_row(&w, row);
        if (held) {
            worst_held = fmax(worst_held, fabs(drop));
        } else {
            least_fall = fmin(least_fall, drop);
        }
    }
    if (rc == 0) {
        demo_stats_add(&acc, &w);
    }
    /* friction on a cohesive contact: tilted gravity, one world each */
    const double tilt[2] = {0.4, 0.6};
    double slide[2] = {NAN, NAN};
    for (int k = 0; rc == 0 && k < 2; ++k) {
        int ib;
        rc = demo_world_free(&w) ||
             co_world(&w, o, out, tilt[k] * CO_G, &cube) ||
             co_block(&w, cube, k == 0 ? "slide_0.4" : "slide_0.6", 0.0,
                      2.0 * CO_M * CO_G, &ib) ||
             co_steps(&w, o, CO_TF);
        demo_body_state s;
        rc = rc || demo_world_state(&w, ib, &s);
        slide[k] = s.pos[0];
        if (rc == 0 && k == 0) {
            demo_stats_add(&acc, &w);
        }
    }
    const double a = (tilt[1] - CO_MU) * CO_G; /* tilt 0.6 */
    const double slide_ref = 0.5 * a * CO_TF * CO_TF;
    rc = rc || demo_world_metric_ref(&w, "max_drop_held", worst_held, 0.0) ||
         demo_world_metric(&w, "min_drop_released", least_fall) ||
         demo_world_metric_ref(&w, "slide_0.4", slide[0], 0.0) ||
         demo_world_metric_ref(&w, "slide_0.6", slide[1], slide_ref);
    if (rc == 0) {
        demo_stats_store(&w, &acc);
        rc = demo_world_finish(&w, scene, out);
    }
    return demo_world_free(&w) != 0 || rc != 0 ? -1 : 0;
}

static const demo_metric_info cohesion_metrics[] = {
    {"max_drop_held", "largest drop in 1 s of a block with m g <= c, m "
                      "(reference 0)"},
    {"min_drop_released", "smallest drop in 1 s of a block with m g > c, "
                          "m (free fall: g t^2 / 2 = 4.9 m)"},
    {"slide_0.4", "slide in 0.3 s with c = 2 m g and a lateral load 0.4 m "
                  "g (limit mu (c - m g) = 0.5 m g), m (reference 0)"},
    {"slide_0.6", "slide in 0.3 s with a lateral load 0.6 m g, m "
                  "(reference 0.1 g t^2 / 2; semi-implicit Euler adds h / "
                  "t)"},
};
static const demo_plot cohesion_plots[] = {
    {
        .name = "drop",
        .title = "Drop in 1 s of a block hanging by cohesion",
        .x = "ratio",
        .xlabel = "m g / c",
        .ylabel = "drop (m)",
        .y = {"drop", "drop_ref"},
    },
};

const demo_scene demo_cohesion = {
    .name = "cohesion",
    .description = "Cohesion (Tasora-Anitescu slides §3): blocks held under "
                   "a ceiling while m g <= c, friction limit mu (c - m g) "
                   "on a cohesive contact",
    .default_steps = 60,
    .quick_steps = 60,
    .run = cohesion_run,
    .explanation =
        "Blocks of 1 kg hang under a ceiling by cohesion alone "
        "(plSetCohesion): a contact with cohesion force c may pull with up "
        "to c, so a block stays while m g <= c and falls otherwise. The "
        "friction cone moves with the normal set: with c = 2 m g and mu = "
        "0.5 a block resists a lateral load up to mu (c - m g) = 0.5 m g "
        "and slides at 0.1 g under 0.6 m g (with --model desaxce; the "
        "associated model's dilatancy opens a sliding contact and the "
        "block leaves the ceiling). Stock Bullet has no cohesion: every "
        "block falls.",
    .metric_info = cohesion_metrics,
    .nmetric_info = 4,
    .plots = cohesion_plots,
    .nplots = 1,
};
