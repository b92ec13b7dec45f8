// Stacks and jointed scenes settle as stock's do, kept awake or not: the
// sequential impulse solver at the world's defaults (Bullet's iteration
// budget, De Saxce model, split impulse) against stock on the same
// worlds, medians over copies with gravity perturbed.  Each test well
// under 20 s under ASan.
//
//   test_box_column_sleeps     MultipleBoxes' column of ten boxes dropped:
//                              asleep within stock's step + 20%, upright
//   test_column_kept_awake_creep  a 5-box column kept awake creeps at most
//                              1.5x stock's
//   test_pyramid_kept_awake    a 10-layer pyramid kept awake 5 s loses no
//                              box
//   test_bridge_sleeps         the Bridge tutorial asleep within stock's
//                              step + 20%
//   test_rolling_friction_demo_sleeps  RollingFrictionDemo: bodies awake
//                              after 600 steps (median of 8 copies) at
//                              most stock's + 20%
#include "bullet_scene.hpp"
#include "scene_metrics.hpp"
#include "test_util.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

// ExtendedTutorials/MultipleBoxes.cpp (rfscenes::build_multiple_boxes):
// ten 2 m boxes (1 kg) in a column, the lowest at y = 20, dropped on the
// tutorials' ground (a static box of half extent 50 whose top is y = 0),
// g = 10, the world's defaults.  Eight
// copies, gravity scaled by 1 + 1e-3 k (the column lands the same, and
// then parts as independent runs do).  Targets (the medians over the
// copies): asleep no later than stock's step + 20%; the column's lean
// (the largest distance of a box's centre from the vertical axis) at most
// stock's + 0.1 m; no box off the column (a centre more than 1 m, half a
// box, off the axis).  An exact solve lands the column straight: its
// boxes need no friction (statics), so any lean is the solver's.
// Measured difference: with one normal round per manifold visit, the
// first point of each manifold took more than its share of the column's
// weight every sweep, and the column rocked on its edges (never asleep
// in five of eight copies).
int test_box_column_sleeps()
{
    std::vector<double> sleep[2], lean[2], off[2];
    for (rf_bullet_mode mode : {RF_BULLET_STOCK, RF_BULLET_CONE}) {
        const int c = mode == RF_BULLET_CONE;
        for (int k = 0; k < 8; ++k) {
            rfscenes::World w;
            rfscenes::build_multiple_boxes(w, rfscenes::Size::full);
            perturb(w, k);
            rf_plugin *p = rf_bullet_attach(&w.world, nullptr);
            ENSURE(p != nullptr);
            rf_bullet_set_mode(p, mode);
            const int at = sleep_step(w, 900); // 901: never asleep
            double l = 0.0;
            int n = 0;
            for (auto &b : w.bodies) {
                if (b->getInvMass() == 0) {
                    continue;
                }
                const btVector3 x = b->getCenterOfMassPosition();
                const double d = std::hypot((double)x.x(), (double)x.z());
                l = std::max(l, d);
                n += d > 1.0;
            }
            rf_bullet_detach(p);
            sleep[c].push_back(at);
            lean[c].push_back(l);
            off[c].push_back(n);
        }
        std::printf("  %s: medians of 8 copies: asleep at step %.0f, lean "
                    "%.3f m, %.0f boxes off the column\n",
                    mode_name(mode), median(sleep[c]), median(lean[c]),
                    median(off[c]));
    }
    ENSURE(median(sleep[0]) <= 900); // the comparison means something
    ENSURE_LE(median(sleep[1]), 1.2 * median(sleep[0]));
    ENSURE_LE(median(lean[1]), median(lean[0]) + 0.1);
    ENSURE(median(off[1]) == 0);
    return 0;
}

// A column of five 2 m boxes (MultipleBoxes' boxes) built 1 cm apart on
// the same ground, every box DISABLE_DEACTIVATION, 10 s; the creep is the
// mean sideways displacement of the boxes from 5 s (settled) to 10 s,
// its median over sixteen copies with gravity scaled by 1 + 1e-3 k (one
// copy's creep is chaotic: stock's copies creep 1.5 to 7.6 mm).  An exact
// solve leaves a resting column where it is (its boxes need no friction),
// so the creep is the few sweeps' error.  Target: at most 1.5 times
// stock's.  Measured: 0.26 of stock's; with one normal round per
// manifold visit the cone's column rocked a little on every settled step
// and crept 1.36 times as far as stock's, which the second assertion
// (half of stock's) tells apart.
int test_column_kept_awake_creep()
{
    std::vector<double> creep[2];
    for (rf_bullet_mode mode : {RF_BULLET_STOCK, RF_BULLET_CONE}) {
        const int c = mode == RF_BULLET_CONE;
        for (int k = 0; k < 16; ++k) {
            rfscenes::World w;
            rfscenes::tutorial_ground(w);
            perturb(w, k);
            btCollisionShape *box = w.own(new btBoxShape(btVector3(1, 1, 1)));
            for (int i = 0; i < 5; ++i) {
                w.add(box, 1, btVector3(0, (btScalar)(1.01 + 2.02 * i), 0))
                    ->setActivationState(DISABLE_DEACTIVATION);
            }
            rf_plugin *p = rf_bullet_attach(&w.world, nullptr);
            ENSURE(p != nullptr);
            rf_bullet_set_mode(p, mode);
            creep[c].push_back(settled_creep(w, 300, 600));
            rf_bullet_detach(p);
        }
        std::printf("  %s: a 5-box column kept awake creeps %.3f mm over "
                    "5-10 s (median of 16 copies)\n",
                    mode_name(mode), 1e3 * median(creep[c]));
    }
    ENSURE(median(creep[0]) > 0.0);
    ENSURE_LE(median(creep[1]), 1.5 * median(creep[0]));
    ENSURE_LE(median(creep[1]), 0.5 * median(creep[0]));
    return 0;
}

// BenchmarkDemo's pyramid (rfscenes::build_pyramid_part: 2 m boxes, k x k
// in layer 10 - k, 1e-4 m gaps) of ten layers, 385 boxes, every box
// DISABLE_DEACTIVATION, 5 s at the world's defaults.  Target: no box
// lost (rfscenes::fallen: moved sideways more than half its size or
// tilted more than 30 deg).  Stock is printed for comparison.
int test_pyramid_kept_awake()
{
    for (rf_bullet_mode mode : {RF_BULLET_STOCK, RF_BULLET_CONE}) {
        rfscenes::World w;
        rfscenes::tutorial_ground(w);
        rfscenes::build_pyramid_part(w, btVector3(0, 0, 0), 10,
                                     w.own(new btBoxShape(btVector3(1, 1, 1))));
        for (auto &b : w.bodies) {
            b->setActivationState(DISABLE_DEACTIVATION);
        }
        rf_plugin *p = rf_bullet_attach(&w.world, nullptr);
        ENSURE(p != nullptr);
        rf_bullet_set_mode(p, mode);
        for (int i = 0; i < 300; ++i) {
            w.step();
        }
        int lost = 0;
        for (size_t i = 0; i < w.bodies.size(); ++i) {
            if (w.bodies[i]->getInvMass() != 0) {
                lost += rfscenes::fallen(w, (int)i) ? 1 : 0;
            }
        }
        rf_bullet_detach(p);
        std::printf("  %s: %d of %d boxes lost after 5 s awake\n",
                    mode_name(mode), lost, w.dynamic);
        ENSURE(w.dynamic == 385);
        if (mode == RF_BULLET_CONE) {
            ENSURE(lost == 0);
        }
    }
    return 0;
}

// ExtendedTutorials' Bridge (rfscenes::build_bridge: ten planks on
// point-to-point joints between two static ones, no contact), eight
// copies with gravity scaled by 1 + 1e-3 k, up to 60 s.  Target: asleep
// (median of the copies) no later than stock's + 20%.  Measured
// difference: the energy guard bounded the sweeps by E <= 0 while the
// biases' work B was positive, which shortened Gauss-Seidel steps that
// lowered F but lowered B more, and the bridge swung on (median step 868
// against stock's 641).
int test_bridge_sleeps()
{
    std::vector<double> at[2];
    for (rf_bullet_mode mode : {RF_BULLET_STOCK, RF_BULLET_CONE}) {
        const int c = mode == RF_BULLET_CONE;
        for (int k = 0; k < 8; ++k) {
            rfscenes::World w;
            rfscenes::build_bridge(w, rfscenes::Size::full);
            perturb(w, k);
            rf_plugin *p = rf_bullet_attach(&w.world, nullptr);
            ENSURE(p != nullptr);
            rf_bullet_set_mode(p, mode);
            at[c].push_back(sleep_step(w, 3600)); // 3601: never in 60 s
            rf_bullet_detach(p);
        }
        std::printf("  %s: the Bridge asleep at step %.0f (median of 8 "
                    "copies)\n",
                    mode_name(mode), median(at[c]));
    }
    ENSURE(median(at[0]) <= 3600); // the comparison means something
    ENSURE_LE(median(at[1]), 1.2 * median(at[0]));
    return 0;
}

// RollingFrictionDemo (rfscenes::build_rolling_friction: 125 spheres,
// capsules, cones and cylinders with rolling and spinning friction
// dropped on a ramp), 600 steps, eight copies with gravity scaled by 1 +
// 1e-3 k.  Bullet puts an island to sleep when all its bodies have been
// slow for 2 s; under the cone up to 88 bodies rest in one pile on the
// ramp, and whether that island sleeps before step 600 is chaotic (95
// bodies awake in one copy of eight, 6 to 9 in the others).  Target:
// bodies awake at the end (median) at most stock's + 20%.  Measured
// difference: with one normal round per manifold visit the pile stayed
// awake in three copies of eight (median 14 against stock's 11).
int test_rolling_friction_demo_sleeps()
{
    std::vector<double> awake[2];
    for (rf_bullet_mode mode : {RF_BULLET_STOCK, RF_BULLET_CONE}) {
        const int c = mode == RF_BULLET_CONE;
        for (int k = 0; k < 8; ++k) {
            rfscenes::World w;
            rfscenes::build_rolling_friction(w, rfscenes::Size::full);
            perturb(w, k);
            rf_plugin *p = rf_bullet_attach(&w.world, nullptr);
            ENSURE(p != nullptr);
            rf_bullet_set_mode(p, mode);
            for (int i = 0; i < 600; ++i) {
                w.step();
            }
            awake[c].push_back(rfscenes::awake_bodies(w));
            rf_bullet_detach(p);
        }
        std::printf("  %s: bodies awake after 600 steps, median of 8 copies "
                    "%.0f of 125 (most %.0f)\n",
                    mode_name(mode), median(awake[c]),
                    *std::max_element(awake[c].begin(), awake[c].end()));
    }
    ENSURE(median(awake[0]) > 0); // the comparison means something
    ENSURE_LE(median(awake[1]), 1.2 * median(awake[0]));
    return 0;
}

int main()
{
    RUN_TEST(test_box_column_sleeps);
    RUN_TEST(test_column_kept_awake_creep);
    RUN_TEST(test_pyramid_kept_awake);
    RUN_TEST(test_bridge_sleeps);
    RUN_TEST(test_rolling_friction_demo_sleeps);
    return TEST_SUMMARY();
}
