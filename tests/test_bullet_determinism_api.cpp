// Determinism of the Bullet shim: the same scene stepped with
// the cone solver gives bitwise identical trajectories
//   - for cfg.threads = 1, 2 and 4 (through rf_bullet_attach's config),
//     with Jacobi, APGD and SI, with a fixed iteration count (tol = 0) and
//     with a tolerance;
//   - run to run with every solver, the world built twice from scratch.
// A trajectory is every body's position, orientation, linear and angular
// velocity after every step, plus the solver's iterations and residual
// per step, compared with memcmp: one flipped bit fails.  Bullet itself is
// single-threaded and deterministic, so a difference can only come from
// the shim's gathering/write-back or from the core's parallel loops.
//
// The scene: 23 x 23 = 529 spheres on a plane, nudged with pseudo-random
// velocities so that they roll into each other, plus a point-to-point
// pendulum chain, a motorised hinge and a slider with limits.  529
// contacts with the ground alone put the core over its 512-item threshold,
// below which its loops run on one thread whatever cfg.threads says (a
// smaller scene would pass trivially).  Fast (label unit): it also runs
// under the sanitizers.
#include "bullet_scene.hpp"

#include <rollfric/rollfric_bullet.h>

#include "test_util.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

const double kDt = 1.0 / 60;
const int kSteps = 10;
const int kGrid = 23;

template <class T> T *add_joint(Scene &s, T *j)
{
    s.joints.emplace_back(j);
    s.world.addConstraint(j, true); // no collisions between linked bodies
    return j;
}

void build(Scene &s)
{
    s.ground(0.8);
    rf_rng rng = {77};
    const double r = 0.1;
    for (int i = 0; i < kGrid; ++i) {
        for (int k = 0; k < kGrid; ++k) {
            btVector3 pos((btScalar)(2.05 * r * (i - kGrid / 2)), (btScalar)r,
                          (btScalar)(2.05 * r * (k - kGrid / 2)));
            btRigidBody *b = s.sphere(r, 0.5, pos, 0.6, 0.01, 0.005);
            b->setLinearVelocity(
                btVector3((btScalar)rf_rng_range(&rng, -1, 1), 0,
                          (btScalar)rf_rng_range(&rng, -1, 1)));
            b->setAngularVelocity(
                btVector3((btScalar)rf_rng_range(&rng, -3, 3),
                          (btScalar)rf_rng_range(&rng, -3, 3),
                          (btScalar)rf_rng_range(&rng, -3, 3)));
        }
    }
    // pendulum chain of three links hung from the world, released sideways
    btRigidBody *prev = nullptr;
    for (int l = 0; l < 3; ++l) {
        btRigidBody *b = s.sphere(
            0.1, 1.0, btVector3((btScalar)(0.3 * (l + 1)), 2.0f, -4.0f), 0.5,
            0.0);
        b->setActivationState(DISABLE_DEACTIVATION);
        if (prev == nullptr) {
            add_joint(s,
                      new btPoint2PointConstraint(*b, btVector3(-0.3f, 0, 0)));
        } else {
            add_joint(s, new btPoint2PointConstraint(*prev, *b,
                                                     btVector3(0.15f, 0, 0),
                                                     btVector3(-0.15f, 0, 0)));
        }
        prev = b;
    }
    // a dumbbell on the ground: two spheres on a hinge, motor on
    btRigidBody *wa =
        s.sphere(0.2, 1.0, btVector3(-0.25f, 0.2f, 4.0f), 0.9, 0.02);
    btRigidBody *wb =
        s.sphere(0.2, 1.0, btVector3(0.25f, 0.2f, 4.0f), 0.9, 0.02);
    auto *h = add_joint(
        s, new btHingeConstraint(*wa, *wb, btVector3(0.25f, 0, 0),
                                 btVector3(-0.25f, 0, 0), btVector3(1, 0, 0),
                                 btVector3(1, 0, 0)));
    h->enableAngularMotor(true, 2.0f, 0.5f);
    // a box on a slider along x to the world, limits at +-0.3 m
    btTransform xf;
    xf.setIdentity();
    xf.setOrigin(btVector3(0, 0.15f, 5.0f));
    btRigidBody *box = s.box(btVector3(0.15f, 0.15f, 0.15f), 2.0, xf, 0.5);
    box->setLinearVelocity(btVector3(1.5f, 0, 0));
    btTransform frame;
    frame.setIdentity();
    auto *sl = add_joint(s, new btSliderConstraint(*box, frame, true));
    sl->setLowerLinLimit(-0.3f);
    sl->setUpperLinLimit(0.3f);
}

struct Trajectory {
    std::vector<btScalar> state; // 13 per body per step
    std::vector<int> iterations;
    std::vector<double> residual;
    rf_stats last{};
};

void record(const Scene &s, Trajectory &t)
{
    for (const auto &b : s.bodies) {
        const btVector3 x = b->getCenterOfMassPosition();
        const btQuaternion q = b->getOrientation();
        const btVector3 v = b->getLinearVelocity();
        const btVector3 w = b->getAngularVelocity();
        // x, y, z only: btVector3's fourth lane is not part of the state
        const btScalar vals[13] = {x.x(), x.y(), x.z(), q.x(), q.y(),
                                   q.z(), q.w(), v.x(), v.y(), v.z(),
                                   w.x(), w.y(), w.z()};
        t.state.insert(t.state.end(), vals, vals + 13);
    }
}

// Build the scene from scratch (Bullet's global CFM cfm: every contact
// compliant when > 0), attach with cfg, step kSteps times.
int run(const rf_config &cfg, Trajectory &t, double cfm = 0.0)
{
    Scene s;
    build(s);
    s.world.getSolverInfo().m_globalCfm = (btScalar)cfm;
    rf_error err;
    rf_plugin *p = rf_bullet_attach(&s.world, &cfg, &err);
    if (p == nullptr) {
        std::fprintf(stderr, "rf_bullet_attach: %s\n", err.message);
        return 1;
    }
    for (int i = 0; i < kSteps; ++i) {
        s.step(kDt);
        record(s, t);
        rf_stats st;
        ENSURE(rf_bullet_stats(p, &st) == RF_OK);
        t.iterations.push_back(st.iterations);
        t.residual.push_back(st.residual);
        t.last = st;
    }
    rf_bullet_detach(p);
    return 0;
}

bool same(const Trajectory &a, const Trajectory &b, const char *what)
{
    if (a.state.size() != b.state.size()) {
        std::fprintf(stderr, "  %s: trajectory lengths differ\n", what);
        return false;
    }
    const size_t per_step = a.state.size() / kSteps;
    for (size_t k = 0; k < a.state.size(); ++k) {
        if (std::memcmp(&a.state[k], &b.state[k], sizeof(btScalar)) != 0) {
            std::fprintf(stderr,
                         "  %s: first difference at step %zu, body %zu, "
                         "component %zu: %.9g vs %.9g\n",
                         what, k / per_step + 1, k % per_step / 13, k % 13,
                         (double)a.state[k], (double)b.state[k]);
            return false;
        }
    }
    if (a.iterations != b.iterations ||
        std::memcmp(a.residual.data(), b.residual.data(),
                    a.residual.size() * sizeof(double)) != 0) {
        std::fprintf(stderr, "  %s: iterations or residuals differ\n", what);
        return false;
    }
    return true;
}

rf_config make_config(rf_solver_kind solver, double tol, int max_iter,
                      int threads)
{
    rf_config c;
    rf_config_default(&c);
    c.solver = solver;
    c.tol = tol;
    c.max_iter = max_iter;
    c.threads = threads;
    return c;
}

// Jacobi, APGD and SI (the default solver: the shim's contacts set on
// the step's threads, the coloured sweeps), tol = 0 and tol > 0, and SI
// with every contact compliant (the contacts set on one thread): threads
// 2 and 4 give the 1-thread trajectory bit for bit.  Also checks that the scene
// is what the test needs (enough contacts for the parallel loops, joint rows in
// the problem, finite state) and that the comparison can fail (Jacobi's
// and APGD's trajectories differ).
int test_threads()
{
    const rf_solver_kind kinds[3] = {RF_SOLVER_JACOBI, RF_SOLVER_APGD,
                                     RF_SOLVER_SI};
    const char *names[3] = {"jacobi", "apgd", "si"};
    const double tols[2] = {0.0, 1e-4};
    std::vector<Trajectory> first;
    for (int s = 0; s < 3; ++s) {
        for (int k = 0; k < 2; ++k) {
            Trajectory ref;
            ENSURE(run(make_config(kinds[s], tols[k], 20, 1), ref) == 0);
            std::printf("  %-6s tol=%g: last step %d contacts, %d rows, "
                        "%d iterations, residual %.3e\n",
                        names[s], tols[k], ref.last.contacts, ref.last.rows,
                        ref.last.iterations, ref.last.residual);
            ENSURE(ref.last.contacts > 512);
            ENSURE(ref.last.rows > 6 * ref.last.contacts); // joints in
            for (btScalar x : ref.state) {
                ENSURE(std::isfinite((double)x));
            }
            for (int threads : {2, 4}) {
                Trajectory t;
                ENSURE(run(make_config(kinds[s], tols[k], 20, threads), t) ==
                       0);
                char what[64];
                std::snprintf(what, sizeof what, "%s tol=%g threads 1 vs %d",
                              names[s], tols[k], threads);
                ENSURE(same(ref, t, what));
            }
            first.push_back(std::move(ref));
        }
    }
    // jacobi vs apgd (tol = 0): the comparison sees real differences
    ENSURE(std::memcmp(first[0].state.data(), first[2].state.data(),
                       first[0].state.size() * sizeof(btScalar)) != 0);
    // SI with every contact compliant (the shim then sets the contacts on
    // one thread: the first compliant one allocates the problem's
    // compliance array): threads 2 and 4 as 1, and the compliance shows
    Trajectory soft1;
    ENSURE(run(make_config(RF_SOLVER_SI, 0.0, 20, 1), soft1, 1e-3) == 0);
    ENSURE(std::memcmp(soft1.state.data(), first[4].state.data(),
                       soft1.state.size() * sizeof(btScalar)) != 0);
    for (int threads : {2, 4}) {
        Trajectory t;
        ENSURE(run(make_config(RF_SOLVER_SI, 0.0, 20, threads), t, 1e-3) == 0);
        char what[64];
        std::snprintf(what, sizeof what, "si compliant threads 1 vs %d",
                      threads);
        ENSURE(same(soft1, t, what));
    }
    return 0;
}

// Every solver: two worlds built from scratch, stepped with the same
// configuration (4 threads, tol > 0), give the same trajectory.
int test_run_to_run()
{
    const rf_solver_kind kinds[4] = {RF_SOLVER_JACOBI, RF_SOLVER_GS,
                                     RF_SOLVER_GS_COLORED, RF_SOLVER_APGD};
    const char *names[4] = {"jacobi", "gs", "gs-colored", "apgd"};
    for (int s = 0; s < 4; ++s) {
        Trajectory a, b;
        const rf_config cfg = make_config(kinds[s], 1e-4, 20, 4);
        ENSURE(run(cfg, a) == 0);
        ENSURE(run(cfg, b) == 0);
        char what[64];
        std::snprintf(what, sizeof what, "%s run to run", names[s]);
        ENSURE(same(a, b, what));
        std::printf("  %-10s run to run bitwise equal (last step %d "
                    "iterations)\n",
                    names[s], a.last.iterations);
    }
    return 0;
}

// Jacobi's carried lambda_max in the shim (cone_solver.cpp step_config,
// rollfric.h rf_config.jacobi_lambda_max): with automatic omega, steps 1, 17
// and 33 estimate lambda; every other step starts from the last step's
// rf_stats.jacobi_lambda_max, which the solve can only raise (a rejected step),
// so there it reports at least the previous step's lambda, and in this
// calm scene mostly exactly that (at least half of those 31 steps; an
// estimate would not reproduce its predecessor bit for bit: checked
// below, the estimates of steps 1, 17 and 33 are not all equal, so the
// estimate moves with the scene).  And an application's own
// rf_config.jacobi_lambda_max is used as given: a value far too small comes
// back raised, never lowered.
int test_jacobi_carry()
{
    Scene s;
    build(s);
    rf_config cfg = make_config(RF_SOLVER_JACOBI, 0.0, 20, 2);
    rf_error err;
    rf_plugin *p = rf_bullet_attach(&s.world, &cfg, &err);
    ENSURE(p != nullptr);
    std::vector<double> lam;
    for (int i = 0; i < 34; ++i) {
        s.step(kDt);
        rf_stats st;
        ENSURE(rf_bullet_stats(p, &st) == RF_OK);
        ENSURE(std::isfinite(st.residual));
        lam.push_back(st.jacobi_lambda_max);
    }
    std::printf("  lambda per step:");
    for (double l : lam) {
        std::printf(" %.4g", l);
    }
    std::printf("\n");
    ENSURE(lam[0] > 0.0 && std::isfinite(lam[0]));
    int unchanged = 0, carried = 0;
    for (int i = 1; i < 34; ++i) {
        if (i % 16 == 0) {
            continue; // an estimate
        }
        ++carried;
        ENSURE(lam[i] >= lam[i - 1]);
        unchanged += lam[i] == lam[i - 1];
    }
    std::printf("  %d of %d carrying steps kept lambda unchanged\n", unchanged,
                carried);
    ENSURE(2 * unchanged >= carried);
    ENSURE(!(lam[0] == lam[16] && lam[16] == lam[32]));
    // the application's value: 1e-6 is far below lambda_max (~1), so the
    // first iterates are rejected and it comes back doubled
    cfg.jacobi_lambda_max = 1e-6;
    ENSURE(rf_bullet_set_config(p, &cfg, &err) == RF_OK);
    s.step(kDt);
    rf_stats st;
    ENSURE(rf_bullet_stats(p, &st) == RF_OK);
    std::printf(
        "  application's jacobi_lambda_max 1e-6: reported %.6g, residual "
        "%.3e\n",
        st.jacobi_lambda_max, st.residual);
    ENSURE(st.jacobi_lambda_max >= 2e-6);
    ENSURE(std::isfinite(st.residual));
    rf_bullet_detach(p);
    return 0;
}

} // namespace

int main()
{
    RUN_TEST(test_threads);
    RUN_TEST(test_run_to_run);
    RUN_TEST(test_jacobi_carry);
    return TEST_SUMMARY();
}
