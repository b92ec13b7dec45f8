// Islands are independent (plugin/solver_si_island.c): what an unrelated
// object does far away changes nothing, to the bit, in the bodies of
// another island, as with stock Bullet, which solves its islands apart.
//
// Two scenes a user writes first, each run for 4 s (240 steps) alone and
// then beside an unrelated offender 40 m away, at the Bullet defaults
// (SI, De Saxce model, the world's 10 iterations, tolerance 1e-5) and with
// the associated model, on one thread and on two:
//   small: a box resting on the ground, a ball rolled at 3 m/s with
//          rolling friction, and two boxes on the ground held together by
//          a point-to-point joint (every island small enough for Bullet's
//          order; the box and the ball are one contact group each, which
//          the solve sweeps the same in either order);
//   column: a column of five boxes dropped 1 cm apart, and a rolled ball
//          (the column is coloured).
// Offenders: a resting sphere, a resting box, a 27-box pile (one island,
// coloured, with its own energy guard binding as it lands), and a 100 kg
// ball dropped on a box (an impact whose start the guard scales).
// Asserted: every body of the scene ends with the same position,
// orientation and velocities as without the offender (==, so -0 and +0
// count as equal).  Solved as one problem (one energy guard, one sweep
// order, one stopping test for all islands), 20 of these 32 runs differ,
// by up to 3.3 mm.
#include "bullet_scene.hpp"
#include "test_util.h"

#include <cstdio>
#include <vector>

namespace {

enum Offender { kNone, kSphere, kBox, kPile, kImpact, kOffenders };
const char *const kOffenderNames[kOffenders] = {
    "none", "resting sphere", "resting box", "27-box pile", "100 kg ball"};

btTransform at(double x, double y, double z)
{
    btTransform xf;
    xf.setIdentity();
    xf.setOrigin(btVector3((btScalar)x, (btScalar)y, (btScalar)z));
    return xf;
}

// The scene's bodies (small or column) into s, the ones to compare into
// out.
void build_scene(Scene &s, bool column, std::vector<btRigidBody *> &out)
{
    const btVector3 half(0.5f, 0.5f, 0.5f);
    if (column) {
        for (int k = 0; k < 5; ++k) {
            out.push_back(s.box(half, 1.0, at(0, 0.5 + 1.01 * k, 0)));
        }
    } else {
        out.push_back(s.box(half, 1.0, at(0, 0.5, 0)));
        btRigidBody *a = s.box(half, 1.0, at(4, 0.5, 0));
        btRigidBody *b = s.box(half, 1.0, at(5.01, 0.5, 0));
        out.push_back(a);
        out.push_back(b);
        auto *joint = new btPoint2PointConstraint(
            *a, *b, btVector3(0.505f, 0, 0), btVector3(-0.505f, 0, 0));
        s.add_joint(joint);
    }
    btRigidBody *ball = s.sphere(0.5, 1.0, btVector3(0, 0.5f, 5), 1.0, 0.02);
    ball->setLinearVelocity(btVector3(3, 0, 0));
    ball->setAngularVelocity(btVector3(0, 0, -6));
    out.push_back(ball);
}

void build_offender(Scene &s, Offender o)
{
    const btVector3 half(0.5f, 0.5f, 0.5f);
    switch (o) {
    case kNone: break;
    case kSphere: s.sphere(0.5, 1.0, btVector3(40, 0.5f, 0), 1.0, 0.0); break;
    case kBox: s.box(half, 1.0, at(40, 0.5, 0)); break;
    case kPile: // 3 x 3 x 3 boxes 1 cm apart, dropped from 0.5 m
        for (int i = 0; i < 27; ++i) {
            s.box(half, 1.0,
                  at(40 + 1.01 * (i % 3), 1.0 + 1.01 * (i / 9),
                     1.01 * ((i / 3) % 3)));
        }
        break;
    case kImpact:
        s.box(half, 1.0, at(40, 0.5, 0));
        s.sphere(0.5, 100.0, btVector3(40, 6, 0), 0.5, 0.0);
        break;
    default: break;
    }
}

struct Final {
    std::vector<btScalar> state; // per body: origin, basis, v, w
};

// Runs the scene (column or small) beside offender o for 240 steps with
// the model and thread count given; the compared bodies' final state.
int run(bool column, Offender o, rf_model model, int threads, Final &f)
{
    Scene s;
    s.ground();
    std::vector<btRigidBody *> bodies;
    build_scene(s, column, bodies);
    build_offender(s, o);
    rf_plugin *p = rf_bullet_attach(&s.world, nullptr);
    ENSURE(p != nullptr);
    rf_config cfg;
    rf_bullet_config_default(&cfg);
    cfg.model = model;
    cfg.threads = threads;
    ENSURE(rf_bullet_set_config(p, &cfg, nullptr) == RF_OK);
    for (int i = 0; i < 240; ++i) {
        s.step(1.0 / 60, 1);
    }
    f.state.clear();
    for (btRigidBody *b : bodies) {
        const btTransform &xf = b->getWorldTransform();
        for (int k = 0; k < 3; ++k) {
            f.state.push_back(xf.getOrigin()[k]);
            for (int c = 0; c < 3; ++c) {
                f.state.push_back(xf.getBasis()[k][c]);
            }
            f.state.push_back(b->getLinearVelocity()[k]);
            f.state.push_back(b->getAngularVelocity()[k]);
        }
    }
    rf_bullet_detach(p);
    return 0;
}

int test_islands_independent()
{
    int failures = 0;
    for (int column = 0; column < 2; ++column) {
        for (int m = 0; m < 2; ++m) {
            const rf_model model = m ? RF_MODEL_DESAXCE : RF_MODEL_ASSOCIATED;
            for (int threads = 1; threads <= 2; ++threads) {
                Final base;
                ENSURE(run(column, kNone, model, threads, base) == 0);
                for (int o = kSphere; o < kOffenders; ++o) {
                    Final with;
                    ENSURE(run(column, (Offender)o, model, threads, with) == 0);
                    ENSURE(with.state.size() == base.state.size());
                    double worst = 0.0;
                    for (size_t k = 0; k < base.state.size(); ++k) {
                        worst =
                            std::max(worst, (double)std::fabs(with.state[k] -
                                                              base.state[k]));
                    }
                    std::printf("  %-6s %-10s %d thread%s, beside a %-14s: "
                                "largest difference %.3g\n",
                                column ? "column" : "small",
                                m ? "desaxce" : "associated", threads,
                                threads > 1 ? "s" : " ", kOffenderNames[o],
                                worst);
                    failures += worst != 0.0;
                }
            }
        }
    }
    ENSURE(failures == 0);
    return 0;
}

} // namespace

int main()
{
    RUN_TEST(test_islands_independent);
    return TEST_SUMMARY();
}
