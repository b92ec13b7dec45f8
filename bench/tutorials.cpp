// rfbench_tutorials: Bullet 3.24's ExtendedTutorials scenes and a
// ForkLift-like lift, rebuilt headless from their sources (examples/
// ExtendedTutorials/*.cpp, examples/ForkLift/ForkLiftDemo.cpp), each run
// with the stock solver, the cone solver's defaults and its converged
// setting (rf_bullet_config_converged), with what a user looks at in each:
//
//   inclined_plane  a 20 deg ramp (friction 1), a box (friction 1) and a
//                   sphere (rolling friction 1, spinning 0.3): how far
//                   each has gone down the ramp after 3 s, and how fast
//   newtons_cradle  five pendula (length 8 m, spheres R 1, restitution 1,
//                   no friction), the last one released at 4.6 m/s (a 30
//                   deg swing): after the first 1.5 s, how many balls
//                   move at the other end, and the height the far ball
//                   reaches; the kinetic and potential energy kept
//   multiple_boxes  ten boxes (2 m) dropped in a column: the step at which
//                   all sleep, the column's lean, boxes off the column
//   compound_boxes  an L of three cubes dropped: when it sleeps, its rest
//                   height
//   simple_joint    a box on a damped point-to-point joint (0.0625, impulse
//                   clamp 0.95): where it is at 0.5 s and the joint's error
//   chain           ten boxes hanging on pairs of point-to-point joints
//                   from a static one: the largest joint error, sleep
//   bridge          ten planks on joints that want 1 m, 0.84 m apart: the
//                   fastest plank, the largest joint error, sleep
//   forklift        a 350 kg load on a 5 kg fork lifted by a slider motor
//                   (ForkLiftDemo installs btMLCPSolver for it): the lift
//                   and the fork's distance from its axis after 2 s, also
//                   under stock's MLCP
//
// Every scene is stepped at 1/60 s, gravity 10 m/s^2 as the tutorials'
// CommonRigidBodyBase (forklift: ForkLiftDemo's 10 too).  Prints a table
// and writes JSON (--out FILE, default rfbench-tutorials.json); --quick
// runs each scene for half its time (the test's size).
#include <BulletDynamics/MLCPSolvers/btDantzigSolver.h>
#include <BulletDynamics/MLCPSolvers/btMLCPSolver.h>

#include "bullet_scenes.hpp"

#include <rollfric/rollfric_bullet.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

enum Run { kStock = 0, kCone, kConverged, kMlcp, kRuns };
const char *const kRunName[kRuns] = {"stock", "cone", "converged",
                                     "stock_mlcp"};

using Metrics = std::map<std::string, double>;

// Steps w for seconds at 1/60 s, calling each() after every step; the
// step after which every body slept first, or -1.
template <class F> int run_steps(rfscenes::World &w, double seconds, F each)
{
    int asleep = -1;
    for (int k = 0; k < (int)(seconds * 60); ++k) {
        w.step();
        each();
        if (asleep < 0 && rfscenes::awake_bodies(w) == 0) {
            asleep = k + 1;
        }
    }
    return asleep;
}

// The plugin for run r on world (nullptr for stock).
rf_plugin *attach_run(btDiscreteDynamicsWorld &world, Run r)
{
    if (r == kCone) {
        return rf_bullet_attach(&world);
    }
    if (r == kConverged) {
        rf_config cfg;
        rf_bullet_config_converged(&cfg);
        return rf_bullet_attach(&world, &cfg);
    }
    return nullptr;
}

// A tutorial scene built by rfscenes (bench/bullet_scenes.hpp), or an
// empty world (g = 10) to build in.
struct Tutorial : rfscenes::World {
    Tutorial() = default;
    explicit Tutorial(void (*build)(rfscenes::World &, rfscenes::Size))
    {
        build(*this, rfscenes::Size::full);
    }
    btRigidBody *body(int i)
    {
        return bodies[(size_t)i].get();
    }
    using rfbullet::World<>::step; // step(dt, n)
};

double p2p_error(const btPoint2PointConstraint *j)
{
    const btVector3 a =
        j->getRigidBodyA().getCenterOfMassTransform() * j->getPivotInA();
    const btVector3 b =
        j->getRigidBodyB().getCenterOfMassTransform() * j->getPivotInB();
    return (double)(a - b).length();
}

Metrics inclined_plane(Run r, double seconds)
{
    Tutorial w(rfscenes::build_incline);
    btRigidBody *box = w.body(2), *ball = w.body(3);
    rf_plugin *p = attach_run(w.world, r);
    const btVector3 box0 = box->getCenterOfMassPosition();
    const btVector3 ball0 = ball->getCenterOfMassPosition();
    w.step(1.0 / 60, (int)(seconds * 60));
    Metrics m;
    m["box_travel_m"] = (box->getCenterOfMassPosition() - box0).length();
    m["box_speed"] = box->getLinearVelocity().length();
    m["sphere_travel_m"] = (ball->getCenterOfMassPosition() - ball0).length();
    m["sphere_speed"] = ball->getLinearVelocity().length();
    rf_bullet_detach(p);
    return m;
}

Metrics newtons_cradle(Run r, double seconds)
{
    Tutorial w(rfscenes::build_cradle);
    const int n = 5;
    const double L = 8;
    std::vector<btRigidBody *> bob;
    for (int i = 0; i < n; ++i) {
        bob.push_back(w.body(2 * i + 1));
    }
    // the release speed build_cradle gave the last one (a 30 deg swing)
    const double v0 = std::sqrt(2 * 10 * L * (1 - std::cos(M_PI / 6)));
    rf_plugin *p = attach_run(w.world, r);
    double far_height = 0;
    const double y0 = bob[0]->getCenterOfMassPosition().y();
    const double e0 = 0.5 * v0 * v0;
    for (int k = 0; k < (int)(seconds * 60); ++k) {
        w.step(1.0 / 60);
        far_height = std::max(
            far_height, (double)bob[0]->getCenterOfMassPosition().y() - y0);
    }
    Metrics m;
    int moving = 0;
    double e = 0;
    for (btRigidBody *b : bob) {
        moving += b->getLinearVelocity().length() > 0.5;
        e += 0.5 * (double)b->getLinearVelocity().length2() +
             10.0 * ((double)b->getCenterOfMassPosition().y() - y0);
    }
    m["balls_moving"] = moving;
    m["far_ball_height_m"] = far_height;
    m["release_height_m"] = L * (1 - std::cos(M_PI / 6));
    m["energy_kept"] = e / e0;
    rf_bullet_detach(p);
    return m;
}

Metrics multiple_boxes(Run r, double seconds)
{
    Tutorial w(rfscenes::build_multiple_boxes);
    std::vector<btRigidBody *> box;
    for (int i = 1; i <= 10; ++i) {
        box.push_back(w.body(i));
    }
    rf_plugin *p = attach_run(w.world, r);
    const int asleep = run_steps(w, seconds, [] {});
    Metrics m;
    double lean = 0;
    int off = 0;
    for (btRigidBody *b : box) {
        const btVector3 x = b->getCenterOfMassPosition();
        const double d = std::sqrt((double)(x.x() * x.x() + x.z() * x.z()));
        lean = std::max(lean, d);
        off += d > 1.0;
    }
    m["asleep_step"] = asleep;
    m["lean_m"] = lean;
    m["boxes_off_column"] = off;
    m["kinetic_end_J"] = rfscenes::kinetic_energy(w);
    rf_bullet_detach(p);
    return m;
}

Metrics compound_boxes(Run r, double seconds)
{
    Tutorial w(rfscenes::build_compound_boxes);
    btRigidBody *b = w.body(1);
    rf_plugin *p = attach_run(w.world, r);
    const int asleep = run_steps(w, seconds, [] {});
    Metrics m;
    m["asleep_step"] = asleep;
    m["rest_height_m"] = b->getCenterOfMassPosition().y();
    m["kinetic_end_J"] = rfscenes::kinetic_energy(w);
    rf_bullet_detach(p);
    return m;
}

Metrics simple_joint(Run r, double)
{
    Tutorial w;
    rfscenes::tutorial_ground(w);
    btRigidBody *box = w.add(w.own(new btBoxShape(btVector3(1, 1, 1))), 1,
                             btVector3(0, 10, 0));
    btRigidBody *fixed = w.add(w.own(new btBoxShape(btVector3(1, 1, 1))), 0,
                               btVector3(0, 20, 0));
    auto *j = new btPoint2PointConstraint(*box, *fixed, btVector3(0, 3, 0),
                                          btVector3(0, 0, 0));
    j->m_setting.m_damping = 0.0625f;
    j->m_setting.m_impulseClamp = 0.95f;
    rfscenes::tutorial_joint(w, j);
    rf_plugin *p = attach_run(w.world, r);
    w.step(1.0 / 60, 30);
    Metrics m;
    m["y_at_0.5s_m"] = box->getCenterOfMassPosition().y();
    m["joint_error_at_0.5s_m"] = p2p_error(j);
    rf_bullet_detach(p);
    return m;
}

// The Chain and the Bridge: boxes on pairs of point-to-point joints.
Metrics jointed(Run r, double seconds, bool bridge)
{
    Tutorial w(bridge ? rfscenes::build_bridge : rfscenes::build_chain);
    std::vector<btRigidBody *> b;
    for (int i = 1; i <= 10; ++i) {
        b.push_back(w.body(i));
    }
    std::vector<btPoint2PointConstraint *> js;
    for (auto &j : w.joints) {
        js.push_back(static_cast<btPoint2PointConstraint *>(j.get()));
    }
    rf_plugin *p = attach_run(w.world, r);
    double vmax = 0, err = 0;
    const int asleep = run_steps(w, seconds, [&] {
        for (btRigidBody *x : b) {
            vmax = std::max(vmax, (double)x->getLinearVelocity().length());
        }
        for (btPoint2PointConstraint *j : js) {
            err = std::max(err, p2p_error(j));
        }
    });
    Metrics m;
    m["fastest_body_m_s"] = vmax;
    m["joint_error_max_m"] = err;
    m["asleep_step"] = asleep;
    m["kinetic_end_J"] = rfscenes::kinetic_energy(w);
    rf_bullet_detach(p);
    return m;
}

Metrics forklift(Run r, double seconds)
{
    Tutorial w;
    btDantzigSolver dantzig;
    btMLCPSolver mlcp(&dantzig);
    if (r == kMlcp) {
        w.world.setConstraintSolver(&mlcp);
    }
    rfscenes::tutorial_ground(w);
    btRigidBody *fork =
        w.add(w.own(new btBoxShape(btVector3(0.5f, 0.05f, 0.5f))), 5,
              btVector3(0, btScalar(0.3), 0));
    btRigidBody *load =
        w.add(w.own(new btBoxShape(btVector3(0.4f, 0.4f, 0.4f))), 350,
              btVector3(0, btScalar(0.75), 0));
    fork->setActivationState(DISABLE_DEACTIVATION);
    load->setActivationState(DISABLE_DEACTIVATION);
    btTransform frame;
    frame.setIdentity();
    frame.setRotation(btQuaternion(btVector3(0, 0, 1), SIMD_HALF_PI));
    auto *slider = new btSliderConstraint(*fork, frame, true);
    slider->setLowerLinLimit(0);
    slider->setUpperLinLimit(2);
    slider->setLowerAngLimit(0);
    slider->setUpperAngLimit(0);
    slider->setPoweredLinMotor(true);
    slider->setMaxLinMotorForce(4000);
    slider->setTargetLinMotorVelocity(0.5f);
    w.add_joint(slider);
    rf_plugin *p = attach_run(w.world, r);
    const double y0 = load->getCenterOfMassPosition().y();
    double off = 0;
    for (int k = 0; k < (int)(seconds * 60); ++k) {
        w.step(1.0 / 60);
        const btVector3 f = fork->getCenterOfMassPosition();
        off = std::max(off, std::sqrt((double)(f.x() * f.x() + f.z() * f.z())));
    }
    Metrics m;
    m["load_lift_m"] = load->getCenterOfMassPosition().y() - y0;
    m["fork_off_axis_m"] = off;
    rf_bullet_detach(p);
    if (r == kMlcp) { // the solver is ours: take it back before it goes
        w.world.setConstraintSolver(&w.solver);
    }
    return m;
}

struct Scene {
    const char *name;
    Metrics (*run)(Run, double);
    double seconds;
    bool mlcp;
};

Metrics chain(Run r, double s)
{
    return jointed(r, s, false);
}
Metrics bridge(Run r, double s)
{
    return jointed(r, s, true);
}

const Scene kScenes[] = {{"inclined_plane", inclined_plane, 3, false},
                         {"newtons_cradle", newtons_cradle, 1.5, false},
                         {"multiple_boxes", multiple_boxes, 30, false},
                         {"compound_boxes", compound_boxes, 10, false},
                         {"simple_joint", simple_joint, 0.5, false},
                         {"chain", chain, 10, false},
                         {"bridge", bridge, 10, false},
                         {"forklift", forklift, 2, true}};

} // namespace

int main(int argc, char **argv)
{
    bool quick = false;
    const char *out = "rfbench-tutorials.json";
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--quick") == 0) {
            quick = true;
        } else if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else {
            std::fprintf(stderr,
                         "rfbench_tutorials: unknown option '%s' (usage: "
                         "rfbench_tutorials [--quick] [--out FILE])\n",
                         argv[i]);
            return 1;
        }
    }
    FILE *f = std::fopen(out, "w");
    if (f == nullptr) {
        std::fprintf(stderr, "rfbench_tutorials: cannot write %s\n", out);
        return 1;
    }
    std::fprintf(f, "{\"quick\": %s, \"scenes\": [", quick ? "true" : "false");
    bool first_scene = true;
    for (const Scene &s : kScenes) {
        // the simple joint's figures are at 0.5 s whatever the size
        const double t = quick && s.seconds > 0.5 ? 0.5 * s.seconds : s.seconds;
        std::printf("%s (%.1f s)\n", s.name, t);
        std::fprintf(f, "%s\n {\"name\": \"%s\", \"seconds\": %g",
                     first_scene ? "" : ",", s.name, t);
        first_scene = false;
        for (int r = 0; r < kRuns; ++r) {
            if (r == kMlcp && !s.mlcp) {
                continue;
            }
            const Metrics m = s.run((Run)r, t);
            std::printf("  %-10s", kRunName[r]);
            std::fprintf(f, ", \"%s\": {", kRunName[r]);
            bool first = true;
            for (const auto &kv : m) {
                std::printf(" %s %.4g", kv.first.c_str(), kv.second);
                std::fprintf(f, "%s\"%s\": %.6g", first ? "" : ", ",
                             kv.first.c_str(), kv.second);
                first = false;
            }
            std::printf("\n");
            std::fprintf(f, "}");
        }
        std::fprintf(f, "}");
    }
    std::fprintf(f, "\n]}\n");
    std::fclose(f);
    std::printf("wrote %s\n", out);
    return 0;
}
