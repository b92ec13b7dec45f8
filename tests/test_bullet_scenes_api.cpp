// Bullet's own kinds of scene with the world defaults: the
// sequential impulse solver at Bullet's iteration budget, De Saxce model,
// split impulse.  Quick sizes (each test well under 20 s under ASan).
//
//   test_basic_demo_sleeps     BasicDemo's 3x3x3 boxes dropped: asleep no
//                              later than stock's step + 20%
//   test_pyramid_stands        a 10-layer pyramid of boxes stands 5 s
//   test_small_stacks_kept_awake  four columns of five boxes kept awake
//                              stand 20 s (stock's walk off and fall)
//   test_friction_anchors      CF_HAS_FRICTION_ANCHOR holds them in place
//   test_split_impulse         a box 5 cm deep in the ground comes out
//                              without upward speed when every point
//                              recovers on pseudo-velocities
//   test_ragdoll_energy        a ragdoll pile never gains mechanical
//                              energy: no solver, at no budget
//   test_ragdolls_rest_on_ground  a settled ragdoll pile (coloured
//                              sweep, 5 iterations) rests on the ground,
//                              not in it
//   test_threads_same_bits     2 threads step a > 512-contact scene to the
//                              same bits as 1
#include "../bench/bullet_scenes.hpp"
#include "bullet_scene.hpp"
#include "scene_metrics.hpp"
#include "test_util.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace {

const double kDt = 1.0 / 60;

// Kinetic energy plus m g y of every dynamic body (g along -y), J.
double mechanical_energy(Scene &s, double g)
{
    double e = 0.0;
    for (auto &b : s.bodies) {
        if (b->getInvMass() == 0) {
            continue;
        }
        const double m = 1.0 / b->getInvMass();
        const btVector3 v = b->getLinearVelocity(), w = b->getAngularVelocity();
        const btVector3 Iw = b->getInvInertiaTensorWorld().inverse() * w;
        e += 0.5 * m * v.length2() + 0.5 * w.dot(Iw) +
             m * g * b->getCenterOfMassPosition().y();
    }
    return e;
}

bool all_asleep(Scene &s)
{
    for (auto &b : s.bodies) {
        if (b->getInvMass() != 0 && b->isActive()) {
            return false;
        }
    }
    return true;
}

// BasicDemo's set-up (examples/BasicDemo/BasicExample.cpp): boxes of half
// extent 0.1, 1 kg, 0.2 apart in a cube, dropped from y = 2 onto a ground
// box whose top is y = 0, g = 10; n boxes a side.
void basic_demo(Scene &s, int n)
{
    btTransform xf;
    xf.setIdentity();
    xf.setOrigin(btVector3(0, -50, 0));
    s.add(new btBoxShape(btVector3(50, 50, 50)), 0.0, xf, 0.5);
    for (int k = 0; k < n; ++k) {
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < n; ++j) {
                xf.setOrigin(btVector3((btScalar)(0.2 * i),
                                       (btScalar)(2 + 0.2 * k),
                                       (btScalar)(0.2 * j)));
                s.add(new btBoxShape(btVector3(0.1, 0.1, 0.1)), 1.0, xf, 0.5);
            }
        }
    }
}

// The first step after which every body sleeps, or -1 within max steps.
int steps_to_sleep(Scene &s, int max)
{
    for (int i = 1; i <= max; ++i) {
        s.step(kDt);
        if (all_asleep(s)) {
            return i;
        }
    }
    return -1;
}

} // namespace

// Bullet puts a body to sleep 2 s after it stays under 0.8 m/s and 1
// rad/s: a solver that leaves a settled pile jittering keeps it awake and
// costly.  Target: asleep no later than stock's step + 20%.
int test_basic_demo_sleeps()
{
    int at[2];
    for (rf_bullet_mode mode : {RF_BULLET_STOCK, RF_BULLET_CONE}) {
        Scene s(10.0);
        basic_demo(s, 3);
        rf_plugin *p = attach(s, mode);
        at[mode == RF_BULLET_CONE] = steps_to_sleep(s, 900);
        rf_bullet_detach(p);
    }
    std::printf("  3x3x3 boxes asleep at step: stock %d, cone %d\n", at[0],
                at[1]);
    ENSURE(at[0] > 0); // the comparison means something
    ENSURE(at[1] > 0);
    ENSURE_LE(at[1], 1.2 * at[0]);
    return 0;
}

// A pyramid of unit boxes (1 kg, friction 0.5 on a ground of 1.0: mu 0.5),
// layer k of 10 - k boxes centred on the one below, 1 mm gaps in a row,
// as the pyramids of Bullet's BenchmarkDemo (scene 2) are built.  Standing
// for 5 s means: no box moved more than 0.1 m (10% of its size) from
// where it started (the settling of ten layers is 2 cm), none tilted more
// than 2 deg.  Awake throughout, so the
// solver carries it every step.  Stock is printed for comparison.
int test_pyramid_stands()
{
    for (rf_bullet_mode mode : {RF_BULLET_STOCK, RF_BULLET_CONE}) {
        Scene s(9.81);
        s.ground(1.0);
        std::vector<btTransform> start;
        const int layers = 10;
        for (int k = 0; k < layers; ++k) {
            for (int i = 0; i < layers - k; ++i) {
                btTransform xf;
                xf.setIdentity();
                xf.setOrigin(btVector3((btScalar)(1.001 * (i + 0.5 * k)),
                                       (btScalar)(0.5 + k), 0));
                s.box(btVector3(0.5, 0.5, 0.5), 1.0, xf, 0.5)
                    ->setActivationState(DISABLE_DEACTIVATION);
                start.push_back(xf);
            }
        }
        rf_plugin *p = attach(s, mode);
        s.step(kDt, 300);
        double moved = 0.0, tilt = 0.0;
        size_t n = 0;
        for (auto &b : s.bodies) {
            if (b->getInvMass() == 0) {
                continue;
            }
            const btTransform &x0 = start[n++];
            moved = std::fmax(
                moved, (double)(b->getCenterOfMassPosition() - x0.getOrigin())
                           .length());
            tilt = std::fmax(tilt, (double)b->getOrientation().getAngle());
        }
        rf_stats st{};
        rf_bullet_stats(p, &st);
        rf_bullet_detach(p);
        std::printf("  %s: 55 boxes, largest displacement %.4f m, tilt %.3f "
                    "deg (%d contacts, %d iterations)\n",
                    mode_name(mode), moved, tilt * 180 / M_PI, st.contacts,
                    st.iterations);
        if (mode == RF_BULLET_CONE) {
            ENSURE_LE(moved, 0.1);
            ENSURE_LE(tilt * 180 / M_PI, 2.0);
        }
    }
    return 0;
}

// rfbench_scenes' small_stacks (four columns of five 0.2 m boxes on
// BasicDemo's ground, a user's first scene) with every body
// DISABLE_DEACTIVATION, as applications that keep bodies awake set them,
// for 20 s.  At rest on level ground each box needs no friction at all
// (statics: its weight is carried by the normal forces), so an exact solve
// leaves every box where it landed; a few sweeps leave each step's
// sticking friction a little short and the boxes creep.  Standing means
// the scenes' own criterion (rfscenes::fallen): no box moved sideways more
// than half its size (0.1 m) or tilted more than 30 deg.  Measured
// difference: stock 3.24, one friction row per point, lets the columns
// walk (the top boxes about 0.5 mm a step) until they fall at 5.5 s (16-18
// of the 20 boxes in four gravity-perturbed copies); the cone's disc, like
// stock with two rows (SOLVER_USE_2_FRICTION_DIRECTIONS), keeps all of
// them standing (largest sideways creep 5-44 mm over the copies).
int test_small_stacks_kept_awake()
{
    int fallen[2] = {0, 0};
    for (rf_bullet_mode mode : {RF_BULLET_STOCK, RF_BULLET_CONE}) {
        rfscenes::World w;
        rfscenes::build_small_stacks(w, rfscenes::Size::quick);
        for (auto &b : w.bodies) {
            b->setActivationState(DISABLE_DEACTIVATION);
        }
        rf_plugin *p = rf_bullet_attach(&w.world, nullptr);
        ENSURE(p != nullptr);
        rf_bullet_set_mode(p, mode);
        for (int i = 0; i < 1200; ++i) {
            w.step();
        }
        int n = 0;
        double moved = 0.0;
        for (size_t i = 0; i < w.bodies.size(); ++i) {
            if (w.bodies[i]->getInvMass() == 0) {
                continue;
            }
            moved = std::max(
                moved, rfscenes::sideways(w, (int)i, w.start[i].getOrigin()));
            n += rfscenes::fallen(w, (int)i) ? 1 : 0;
        }
        rf_bullet_detach(p);
        fallen[mode == RF_BULLET_CONE] = n;
        std::printf("  %s: %d of 20 boxes fallen after 20 s awake, largest "
                    "sideways displacement %.1f mm\n",
                    mode_name(mode), n, 1e3 * moved);
    }
    ENSURE(fallen[1] == 0);
    ENSURE(fallen[0] > 0); // the difference the cone makes
    return 0;
}

// Bullet's friction anchors (btCollisionObject::CF_HAS_FRICTION_ANCHOR,
// off by default): while a point's friction stays inside the cone,
// Bullet keeps the point where it stuck (btPersistentManifold::
// replaceContactPoint), so its two ends part as far as the bodies creep,
// and the friction rows take that apart back at m_frictionERP (0.2) of it
// a step.  The small stacks of test_small_stacks_kept_awake, kept awake,
// every box anchored or none, the mean sideways creep from step 150
// (settled) to step 1,200.
// - Stock with two friction rows per point (SOLVER_USE_2_FRICTION_
//   DIRECTIONS, the closest to the cone's disc) is the reference for what
//   anchors do: 0.11 mm with them against 6.04 mm without.  Asserted: at
//   most 2 mm (1% of a box) with, under a quarter of the creep without.
// - The cone takes the anchors' bias (ConeSolver::anchor_bias), so the
//   creep with them differs from the creep without (asserted: the
//   measured difference the flag makes).  It cuts the creep less than
//   stock's rows do: 1.70 mm with anchors against 2.55 mm without.
int test_friction_anchors()
{
    double creep[2][2] = {{0.0, 0.0}, {0.0, 0.0}}; // [cone][anchored]
    for (int cone = 0; cone < 2; ++cone) {
        for (int anchored = 0; anchored < 2; ++anchored) {
            rfscenes::World w;
            rfscenes::build_small_stacks(w, rfscenes::Size::quick);
            if (!cone) {
                w.world.getSolverInfo().m_solverMode |=
                    SOLVER_USE_2_FRICTION_DIRECTIONS;
            }
            for (auto &b : w.bodies) {
                b->setActivationState(DISABLE_DEACTIVATION);
                if (anchored) {
                    b->setCollisionFlags(
                        b->getCollisionFlags() |
                        btCollisionObject::CF_HAS_FRICTION_ANCHOR);
                }
            }
            rf_plugin *p = rf_bullet_attach(&w.world, nullptr);
            ENSURE(p != nullptr);
            rf_bullet_set_mode(p, cone ? RF_BULLET_CONE : RF_BULLET_STOCK);
            creep[cone][anchored] = settled_creep(w, 150, 1200);
            rf_bullet_detach(p);
        }
        std::printf("  %s, kept awake: mean creep over steps 150-1200 %.2f mm "
                    "without anchors, %.2f mm with\n",
                    cone ? "cone" : "stock (2 friction rows)",
                    1e3 * creep[cone][0], 1e3 * creep[cone][1]);
    }
    ENSURE_LE(creep[0][1], 2e-3);
    ENSURE_LE(creep[0][1], 0.25 * creep[0][0]);
    ENSURE(creep[1][1] != creep[1][0]);
    return 0;
}

// A 1 m box placed 5 cm into the ground.  Bullet's split impulse
// (btContactSolverInfo::m_splitImpulse, on by default) recovers the
// points deeper than m_splitImpulsePenetrationThreshold on pseudo-
// velocities, which move positions and are dropped: recovery then adds no
// kinetic energy.  With the threshold at 0 every penetrating point is
// split: the box comes out within 1 mm in 1 s and its vertical speed never
// exceeds 1e-3 m/s (what ten sweeps leave of gravity's impulse: 2e-4).  With
// the default threshold (-0.04 m) the first centimetre is split (no upward
// speed over the first step, while the box rises), the rest recovers through
// the velocity as stock's (erp 0.2: the box leaves the last 4 cm at 0.4 m/s,
// decaying, as stock's within 1%).  Without split impulse the first step
// already gives 0.2 erp 0.05 m / h = 0.6 m/s upward (minus gravity's
// impulse): the test measures something.
int test_split_impulse()
{
    struct Case {
        bool split;
        double threshold;
    } cases[3] = {{true, 0.0}, {true, -0.04}, {false, -0.04}};
    double vmax[3], v2[3], depth_end[3];
    for (int c = 0; c < 3; ++c) {
        Scene s(9.81);
        s.ground(1.0);
        btTransform xf;
        xf.setIdentity();
        xf.setOrigin(btVector3(0, 0.5 - 0.05, 0));
        btRigidBody *b = s.box(btVector3(0.5, 0.5, 0.5), 1.0, xf, 0.5);
        b->setActivationState(DISABLE_DEACTIVATION);
        btContactSolverInfo &info = s.world.getSolverInfo();
        info.m_splitImpulse = cases[c].split;
        info.m_splitImpulsePenetrationThreshold = (btScalar)cases[c].threshold;
        rf_plugin *p = attach(s, RF_BULLET_CONE);
        vmax[c] = -INFINITY;
        v2[c] = 0.0;
        for (int i = 1; i <= 60; ++i) {
            s.step(kDt);
            const double vy = b->getLinearVelocity().y();
            vmax[c] = std::fmax(vmax[c], vy);
            if (i == 2) {
                v2[c] = vy;
            }
        }
        depth_end[c] = 0.5 - b->getCenterOfMassPosition().y();
        rf_bullet_detach(p);
        std::printf("  split %d, threshold %+.2f m: largest upward speed "
                    "%.3g m/s (step 2: %.3g), depth after 1 s %.2e m\n",
                    (int)cases[c].split, cases[c].threshold, vmax[c], v2[c],
                    depth_end[c]);
    }
    ENSURE_LE(vmax[0], 1e-3);      // every point split: no upward speed
    ENSURE_LE(depth_end[0], 1e-3); // and it came out
    ENSURE_LE(v2[1], 1e-3);        // default threshold: the deep start split
    ENSURE(v2[2] > 0.3);           // velocity recovery: 0.6 - g h
    return 0;
}

namespace {

// A ragdoll as Bullet's BenchmarkDemo builds them (scene 3, after the
// RagdollDemo): eleven capsules, pelvis, spine, head, upper and lower legs
// and arms, joined by hinges (spine, knees, elbows) and cone twists
// (neck, hips, shoulders) at their ends, linked bodies not colliding.
// Sizes and limits as there (capsule radius / height in m); scaled by 1.
void ragdoll(Scene &s, const btVector3 &at)
{
    struct Part {
        double r, h, x, y, z, roll; // roll: about z (arms horizontal)
    } part[11] = {
        {0.15, 0.20, 0, 1.0, 0, 0},     {0.15, 0.28, 0, 1.2, 0, 0},
        {0.10, 0.05, 0, 1.6, 0, 0},     {0.07, 0.45, -0.18, 0.65, 0, 0},
        {0.05, 0.37, -0.18, 0.2, 0, 0}, {0.07, 0.45, 0.18, 0.65, 0, 0},
        {0.05, 0.37, 0.18, 0.2, 0, 0},  {0.05, 0.33, -0.35, 1.45, 0, 1},
        {0.04, 0.25, -0.7, 1.45, 0, 1}, {0.05, 0.33, 0.35, 1.45, 0, -1},
        {0.04, 0.25, 0.7, 1.45, 0, -1}};
    btRigidBody *b[11];
    for (int i = 0; i < 11; ++i) {
        btTransform xf;
        xf.setIdentity();
        xf.setOrigin(at + btVector3((btScalar)part[i].x, (btScalar)part[i].y,
                                    (btScalar)part[i].z));
        if (part[i].roll != 0) {
            xf.getBasis().setEulerZYX(0, 0, (btScalar)(part[i].roll * M_PI_2));
        }
        b[i] =
            s.add(new btCapsuleShape((btScalar)part[i].r, (btScalar)part[i].h),
                  1.0, xf, 0.8);
        b[i]->setDamping(0.05f, 0.85f);
        b[i]->setDeactivationTime(0.8f);
        b[i]->setSleepingThresholds(1.6f, 2.5f);
    }
    // joint at a world point p between bodies i and j: frames at p
    auto frames = [&](int i, int j, const btVector3 &p, btTransform &fa,
                      btTransform &fb) {
        btTransform w;
        w.setIdentity();
        w.setOrigin(at + p);
        fa = b[i]->getCenterOfMassTransform().inverse() * w;
        fb = b[j]->getCenterOfMassTransform().inverse() * w;
    };
    auto hinge = [&](int i, int j, const btVector3 &p, double lo, double hi) {
        btTransform fa, fb;
        frames(i, j, p, fa, fb);
        auto *c = new btHingeConstraint(*b[i], *b[j], fa, fb);
        c->setLimit((btScalar)lo, (btScalar)hi);
        s.joints.emplace_back(c);
        s.world.addConstraint(c, true);
    };
    auto cone = [&](int i, int j, const btVector3 &p, double s1, double s2,
                    double tw) {
        btTransform fa, fb;
        frames(i, j, p, fa, fb);
        auto *c = new btConeTwistConstraint(*b[i], *b[j], fa, fb);
        c->setLimit((btScalar)s1, (btScalar)s2, (btScalar)tw);
        s.joints.emplace_back(c);
        s.world.addConstraint(c, true);
    };
    hinge(0, 1, btVector3(0, 1.15, 0), -M_PI_4, M_PI_2);       // spine
    cone(1, 2, btVector3(0, 1.45, 0), M_PI_4, M_PI_4, M_PI_2); // neck
    cone(0, 3, btVector3(-0.18, 0.9, 0), M_PI_4, M_PI_4, 0);   // hips
    cone(0, 5, btVector3(0.18, 0.9, 0), M_PI_4, M_PI_4, 0);
    hinge(3, 4, btVector3(-0.18, 0.425, 0), 0, M_PI_2); // knees
    hinge(5, 6, btVector3(0.18, 0.425, 0), 0, M_PI_2);
    cone(1, 7, btVector3(-0.2, 1.45, 0), M_PI_2, M_PI_2, 0); // shoulders
    cone(1, 9, btVector3(0.2, 1.45, 0), M_PI_2, M_PI_2, 0);
    hinge(7, 8, btVector3(-0.53, 1.45, 0), -M_PI_2, 0); // elbows
    hinge(9, 10, btVector3(0.53, 1.45, 0), -M_PI_2, 0);
}

} // namespace

// Six ragdolls (BenchmarkDemo's scene 3, small) dropped in a 2 x 3 x 1
// stack onto the ground.  Gravity is the only external force and
// conservative, so the mechanical energy E = KE + m g y may only fall,
// but for what penetration recovery gives back (the potential energy of
// the overlaps: 66 kg x g x 3 cm = 19 J, stock's and the cone's alike,
// printed as the largest rise from a previous low).  Asserted for the
// defaults and for every solver at a small budget (5 iterations, Bullet's
// BenchmarkDemo setting): E never exceeds its start (no energy from
// nowhere: the tolerance-driven APGD of earlier defaults gained 43,668 J
// in 48 steps on 136 ragdolls), and the pile ends with less than half of
// it (it lands and settles).
int test_ragdoll_energy()
{
    struct Cfg {
        const char *name;
        rf_solver_kind solver;
        int iterations; // 0: the defaults
    } cfgs[6] = {
        {"stock", RF_SOLVER_SI, -1},       {"defaults", RF_SOLVER_SI, 0},
        {"si 5", RF_SOLVER_SI, 5},         {"gs 5", RF_SOLVER_GS, 5},
        {"jacobi 5", RF_SOLVER_JACOBI, 5}, {"apgd 5", RF_SOLVER_APGD, 5}};
    for (const Cfg &c : cfgs) {
        Scene s(9.81);
        s.ground(1.0);
        for (int k = 0; k < 6; ++k) {
            ragdoll(s, btVector3((btScalar)(1.5 * (k % 2)),
                                 (btScalar)(0.5 + 2.0 * (k / 2)), 0));
        }
        rf_plugin *p = rf_bullet_attach(&s.world, nullptr);
        if (c.iterations > 0) {
            rf_config cfg;
            rf_bullet_get_config(p, &cfg);
            cfg.solver = c.solver;
            cfg.max_iter = c.iterations;
            cfg.tol = 0.0;
            ENSURE(rf_bullet_set_config(p, &cfg, nullptr) == RF_OK);
        }
        if (c.solver == RF_SOLVER_SI && c.iterations < 0) {
            rf_bullet_set_mode(p, RF_BULLET_STOCK);
        }
        const double e0 = mechanical_energy(s, 9.81);
        double emin = e0, emax = e0, rise = 0.0;
        for (int i = 0; i < 240; ++i) {
            s.step(kDt);
            const double e = mechanical_energy(s, 9.81);
            rise = std::fmax(rise, e - emin); // gained since its lowest
            emin = std::fmin(emin, e);
            emax = std::fmax(emax, e);
        }
        const double e_end = mechanical_energy(s, 9.81);
        rf_bullet_detach(p);
        std::printf("  %-8s: E %.2f J at the start, %.2f at the end, largest "
                    "%.2f; largest rise from a previous low %.2f J\n",
                    c.name, e0, e_end, emax, rise);
        ENSURE(std::isfinite(emax) && std::isfinite(e_end));
        if (c.iterations >= 0) {
            ENSURE_LE(emax, e0 * (1.0 + 1e-9));
            ENSURE(e_end < 0.5 * e0);
        }
    }
    return 0;
}

// Ground points of a pile at rest: their mean depth and the deepest, m
// (depth = -distance, 0 for a separated point), and how many.
struct GroundDepth {
    double mean = 0.0, max = 0.0;
    int points = 0;
};

GroundDepth ground_depth(btDiscreteDynamicsWorld &world)
{
    GroundDepth d;
    btDispatcher *disp = world.getDispatcher();
    for (int i = 0; i < disp->getNumManifolds(); ++i) {
        const btPersistentManifold *m = disp->getManifoldByIndexInternal(i);
        if (!m->getBody0()->isStaticObject() &&
            !m->getBody1()->isStaticObject()) {
            continue;
        }
        for (int k = 0; k < m->getNumContacts(); ++k) {
            const double depth =
                std::fmax(0.0, -(double)m->getContactPoint(k).getDistance());
            d.mean += depth;
            d.max = std::fmax(d.max, depth);
            ++d.points;
        }
    }
    d.mean = d.points > 0 ? d.mean / d.points : 0.0;
    return d;
}

// The quick ragdoll scene of rfbench_scenes (bench/bullet_scenes.hpp:
// BenchmarkDemo's scene 3 with 10 ragdolls, its scale, damping and sleep
// thresholds, Bullet's BenchmarkDemo budget of 5 iterations), 700 steps,
// to rest (stock asleep by step ~540).  Its joint rows and contacts are
// over 512 items, so the sweep runs colour by colour.  A body that a
// joint pulls toward the ground must leave each sweep with its contact
// solved last, as Bullet orders an iteration (joint rows, then contacts):
// with rows and contacts in shared colours, capsules came to rest up to
// 7 cm inside the ground (mean 3.0 mm over the ground points), each
// step's velocity into the ground undone by the split impulse, until they
// fell asleep that way.  At rest a point's velocity bias (erp x depth /
// h) drives its depth to 0 (Bullet's Baumgarte recovery); tolerance: mean
// depth of the ground points <= 1 mm and none deeper than 4 cm
// (m_splitImpulsePenetrationThreshold: no point left to the split
// impulse).  Stock is printed for comparison.
int test_ragdolls_rest_on_ground()
{
    for (rf_bullet_mode mode : {RF_BULLET_STOCK, RF_BULLET_CONE}) {
        rfscenes::World w;
        rfscenes::build_ragdolls(w, rfscenes::Size::quick);
        rf_plugin *p = rf_bullet_attach(&w.world, nullptr);
        ENSURE(p != nullptr);
        rf_bullet_set_mode(p, mode);
        int items = 0; // the most contacts + joint rows of a step
        for (int i = 0; i < 700; ++i) {
            w.step();
            rf_stats st{};
            rf_bullet_stats(p, &st);
            items = std::max(items, st.rows - 5 * st.contacts);
        }
        const GroundDepth d = ground_depth(w.world);
        rf_bullet_detach(p);
        std::printf("  %s: %d ground points, depth mean %.3f mm, deepest "
                    "%.1f mm; at most %d contacts + joint rows a step\n",
                    mode == RF_BULLET_CONE ? "cone " : "stock", d.points,
                    1e3 * d.mean, 1e3 * d.max, items);
        ENSURE(d.points >= 10); // every ragdoll lies on the ground
        if (mode == RF_BULLET_CONE) {
            ENSURE(items > 512); // the coloured sweep
            ENSURE_LE(d.mean, 1e-3);
            ENSURE_LE(d.max, 0.04);
        }
    }
    return 0;
}

// The sequential impulse solver sweeps colour by colour from 513 items on,
// whatever the thread count: two threads give the bits of one.  A
// 10 x 10 x 4 block of BasicDemo boxes (> 2,000 contacts once landed),
// 60 steps, positions and velocities compared bit for bit.
int test_threads_same_bits()
{
    std::vector<btVector3> state[2];
    int contacts = 0;
    for (int t = 0; t < 2; ++t) {
        Scene s(10.0);
        btTransform xf;
        xf.setIdentity();
        xf.setOrigin(btVector3(0, -50, 0));
        s.add(new btBoxShape(btVector3(50, 50, 50)), 0.0, xf, 0.5);
        for (int k = 0; k < 4; ++k) {
            for (int i = 0; i < 10; ++i) {
                for (int j = 0; j < 10; ++j) {
                    xf.setOrigin(btVector3((btScalar)(0.2 * i),
                                           (btScalar)(0.1 + 0.2 * k),
                                           (btScalar)(0.2 * j)));
                    s.add(new btBoxShape(btVector3(0.1, 0.1, 0.1)), 1.0, xf,
                          0.5)
                        ->setActivationState(DISABLE_DEACTIVATION);
                }
            }
        }
        rf_config cfg;
        rf_bullet_config_default(&cfg);
        cfg.threads = t + 1;
        rf_plugin *p = rf_bullet_attach(&s.world, &cfg);
        s.step(kDt, 60);
        rf_stats st{};
        rf_bullet_stats(p, &st);
        contacts = st.contacts;
        for (auto &b : s.bodies) {
            state[t].push_back(b->getCenterOfMassPosition());
            state[t].push_back(b->getLinearVelocity());
            state[t].push_back(b->getAngularVelocity());
        }
        rf_bullet_detach(p);
    }
    const bool same = std::memcmp(state[0].data(), state[1].data(),
                                  state[0].size() * sizeof(btVector3)) == 0;
    std::printf("  %d contacts, 60 steps: 1 and 2 threads bitwise equal: %s\n",
                contacts, same ? "yes" : "NO");
    ENSURE(contacts > 512);
    ENSURE(same);
    return 0;
}

int main()
{
    RUN_TEST(test_basic_demo_sleeps);
    RUN_TEST(test_pyramid_stands);
    RUN_TEST(test_small_stacks_kept_awake);
    RUN_TEST(test_friction_anchors);
    RUN_TEST(test_split_impulse);
    RUN_TEST(test_ragdoll_energy);
    RUN_TEST(test_ragdolls_rest_on_ground);
    RUN_TEST(test_threads_same_bits);
    return TEST_SUMMARY();
}
