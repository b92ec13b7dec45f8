// The Bullet shim's contract: attach/detach, stock/cone switch,
// precision check, parity with the stock solver where the model does not
// differ (free motion, gyroscopic term, restitution, kinematic bodies,
// no-response objects, linear factors), impulses readable afterwards, warm
// start, configuration from the environment.  Fast: runs under the
// sanitizers too.
#include "bullet_scene.hpp"

#include <BulletDynamics/ConstraintSolver/btSequentialImpulseConstraintSolverMt.h>
#include <BulletDynamics/Dynamics/btDiscreteDynamicsWorldMt.h>
#include <BulletDynamics/Featherstone/btMultiBodyConstraintSolver.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>
#include <BulletSoftBody/btSoftBodyHelpers.h>
#include <BulletSoftBody/btSoftBodyRigidBodyCollisionConfiguration.h>
#include <BulletSoftBody/btSoftRigidDynamicsWorld.h>
#include <rollfric/rollfric_bullet.h>

#include "test_util.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

const double kDt = 1.0 / 60;

// Attach and detach give the world back the solver it had, both when the
// application owns it and when the world does (created with a NULL
// solver: the world frees it, so it must survive the attachment).
int test_attach_detach()
{
    Scene s;
    s.ground();
    s.sphere(0.5, 1.0, btVector3(0, 2, 0), 0.5, 0.01);
    rf_plugin *p = rf_bullet_attach(&s.world, nullptr);
    ENSURE(p != nullptr);
    ENSURE(s.world.getConstraintSolver() != &s.solver);
    rf_error err;
    ENSURE(rf_bullet_attach(&s.world, nullptr, &err) == nullptr);
    ENSURE(err.status == RF_ERR_STATE);
    ENSURE(std::strstr(err.message, "already") != nullptr);
    s.step(kDt, 10);
    ENSURE(steps_of(p) == 10);
    rf_bullet_detach(p);
    ENSURE(s.world.getConstraintSolver() == &s.solver);
    s.step(kDt, 10);

    // a world that owns its solver
    btDefaultCollisionConfiguration cc;
    btCollisionDispatcher d(&cc);
    btDbvtBroadphase bp;
    auto *w = new btDiscreteDynamicsWorld(&d, &bp, nullptr, &cc);
    btConstraintSolver *own = w->getConstraintSolver();
    p = rf_bullet_attach(w, nullptr);
    ENSURE(p != nullptr);
    w->stepSimulation((btScalar)kDt, 1, (btScalar)kDt);
    rf_bullet_detach(p);
    ENSURE(w->getConstraintSolver() == own);
    w->stepSimulation((btScalar)kDt, 1, (btScalar)kDt);
    delete w; // frees `own` (ASan: no double free, no leak)

    ENSURE(rf_bullet_attach(nullptr, nullptr, &err) == nullptr);
    ENSURE(err.status == RF_ERR_NULL);
    rf_config bad;
    rf_config_default(&bad);
    bad.max_iter = -1; // 0 is RF_BULLET_WORLD_ITERATIONS
    ENSURE(rf_bullet_attach(&s.world, &bad, &err) == nullptr);
    ENSURE(err.status == RF_ERR_INVALID);
    ENSURE(std::strstr(err.message, "max_iter") != nullptr);
    // Jacobi and APGD at the world's budget are refused with what to use
    // instead; with their own max_iter they attach
    rf_config first_order;
    rf_bullet_config_default(&first_order);
    first_order.solver = RF_SOLVER_JACOBI;
    ENSURE(rf_bullet_attach(&s.world, &first_order, &err) == nullptr);
    ENSURE(err.status == RF_ERR_INVALID);
    ENSURE(std::strstr(err.message, "RF_SOLVER_SI") != nullptr);
    first_order.solver = RF_SOLVER_APGD;
    ENSURE(rf_bullet_attach(&s.world, &first_order, &err) == nullptr);
    first_order.max_iter = 5;
    rf_plugin *fo = rf_bullet_attach(&s.world, &first_order, &err);
    ENSURE(fo != nullptr);
    rf_bullet_detach(fo);
    rf_bullet_detach(nullptr);
    return 0;
}

// A 1 m box (1 kg) 0.5 m above a static ground box (top at y = 0) in w,
// removed from w again on destruction: the other worlds' tests below.
struct BoxOnGround {
    btDiscreteDynamicsWorld &w;
    btBoxShape ground_shape{btVector3(10, 1, 10)};
    btRigidBody ground{0, nullptr, &ground_shape};
    btBoxShape box_shape{btVector3(0.5, 0.5, 0.5)};
    btRigidBody box{1, nullptr, &box_shape, inertia_of(box_shape)};
    explicit BoxOnGround(btDiscreteDynamicsWorld &world) : w(world)
    {
        ground.setWorldTransform(
            btTransform(btQuaternion::getIdentity(), btVector3(0, -1, 0)));
        w.addRigidBody(&ground);
        box.setWorldTransform(
            btTransform(btQuaternion::getIdentity(), btVector3(0, 1, 0)));
        w.addRigidBody(&box);
    }
    ~BoxOnGround()
    {
        w.removeRigidBody(&box);
        w.removeRigidBody(&ground);
    }
    static btVector3 inertia_of(const btBoxShape &shape)
    {
        btVector3 inertia;
        shape.calculateLocalInertia(1, inertia);
        return inertia;
    }
};

// A btMultiBodyDynamicsWorld is refused: its setConstraintSolver keeps
// its own btMultiBodyConstraintSolver for the islands, so an attachment
// would report success and never run (before the check: attach returned
// a plugin and the box's step was stock's, with 0 contacts in the stats).
// The world keeps its solver and steps on: the box comes to rest on the
// ground at y = 0.5 m (half its side; within 5 mm, Bullet's margins).
int test_multibody_world_refused()
{
    btDefaultCollisionConfiguration cc;
    btCollisionDispatcher d(&cc);
    btDbvtBroadphase bp;
    btMultiBodyConstraintSolver mbs;
    btMultiBodyDynamicsWorld w(&d, &bp, &mbs, &cc);
    w.setGravity(btVector3(0, -10, 0));
    BoxOnGround scene(w);
    rf_error err;
    ENSURE(rf_bullet_attach(&w, nullptr, &err) == nullptr);
    ENSURE(err.status == RF_ERR_STATE);
    ENSURE(std::strstr(err.message, "btMultiBodyDynamicsWorld") != nullptr);
    ENSURE(w.getConstraintSolver() == &mbs); // untouched
    for (int k = 0; k < 60; ++k) {
        w.stepSimulation((btScalar)kDt, 1, (btScalar)kDt);
    }
    ENSURE_SMALL(scene.box.getWorldTransform().getOrigin().y() - 0.5, 5e-3);
    return 0;
}

// A btDiscreteDynamicsWorldMt attaches, and every island goes through the
// cone: the world's island manager (btSimulationIslandManagerMt::
// parallelIslandDispatch, 3.24) gives each island of at least
// btSequentialImpulseConstraintSolverMt::s_minimumContactManifoldsForBatching
// (250) manifolds to its constraintSolverMt, when it has one, and the rest
// to its solver pool; attaching replaces the pool and sets the
// large-island solver aside until detach.  Before: the cone saw only the
// small islands, and a 10 x 10 block of boxes resting side by side on the
// ground (one island of 100 bodies and about 400 manifolds) was solved by
// stock's btSequentialImpulseConstraintSolverMt while the stats said 0
// contacts (0 of 1,249 points).  The cone must solve every manifold point
// of the world (the stats' count equals the points within their
// manifold's processing threshold), the block stays at rest (every box
// within 5 mm of its start, Bullet's margins), and detach puts the
// world's large-island solver back.  Bullet's sequential task scheduler,
// as an application without threads sets it.
struct MtPeek : btDiscreteDynamicsWorldMt {
    static btConstraintSolver *solver_mt(btDiscreteDynamicsWorldMt &w)
    {
        return w.*(&MtPeek::m_constraintSolverMt);
    }
};

int test_mt_world_every_island()
{
    btSetTaskScheduler(btGetSequentialTaskScheduler());
    btDefaultCollisionConfiguration cc;
    btCollisionDispatcher d(&cc);
    btDbvtBroadphase bp;
    btConstraintSolver *pool_solvers[2] = {
        new btSequentialImpulseConstraintSolverMt,
        new btSequentialImpulseConstraintSolverMt};
    btConstraintSolverPoolMt pool(pool_solvers, 2);
    btSequentialImpulseConstraintSolverMt solver_mt;
    btDiscreteDynamicsWorldMt w(&d, &bp, &pool, &solver_mt, &cc);
    w.setGravity(btVector3(0, -10, 0));
    btBoxShape ground_shape(btVector3(20, 1, 20));
    btRigidBody ground(0, nullptr, &ground_shape);
    ground.setWorldTransform(
        btTransform(btQuaternion::getIdentity(), btVector3(0, -1, 0)));
    w.addRigidBody(&ground);
    btBoxShape box_shape(btVector3(0.5, 0.5, 0.5));
    std::vector<btRigidBody *> boxes;
    std::vector<btVector3> start;
    for (int i = 0; i < 10; ++i) {
        for (int j = 0; j < 10; ++j) {
            btRigidBody *b = new btRigidBody(
                1, nullptr, &box_shape, BoxOnGround::inertia_of(box_shape));
            start.emplace_back((btScalar)(i - 4.5), 0.5f, (btScalar)(j - 4.5));
            b->setWorldTransform(
                btTransform(btQuaternion::getIdentity(), start.back()));
            w.addRigidBody(b);
            boxes.push_back(b);
        }
    }
    rf_error err;
    rf_plugin *p = rf_bullet_attach(&w, nullptr, &err);
    ENSURE(p != nullptr);
    ENSURE(MtPeek::solver_mt(w) == nullptr); // set aside while attached
    for (int k = 0; k < 30; ++k) {
        w.stepSimulation((btScalar)kDt, 1, (btScalar)kDt);
    }
    rf_stats st{};
    rf_bullet_stats(p, &st);
    // the points the last step solved: those within their manifold's
    // processing threshold after its collision detection (the manifolds
    // keep them until the next step's)
    int points = 0, manifolds = 0;
    for (int i = 0; i < d.getNumManifolds(); ++i) {
        const btPersistentManifold *m = d.getManifoldByIndexInternal(i);
        manifolds += m->getNumContacts() > 0;
        for (int q = 0; q < m->getNumContacts(); ++q) {
            points += m->getContactPoint(q).getDistance() <=
                      m->getContactProcessingThreshold();
        }
    }
    double drift = 0.0;
    for (size_t i = 0; i < boxes.size(); ++i) {
        drift =
            std::max(drift, (double)(boxes[i]->getWorldTransform().getOrigin() -
                                     start[i])
                                .length());
    }
    std::printf("  Mt world, 100 boxes in one island (%d manifolds): the cone "
                "solved %d contacts of %d points; largest drift %.2f mm\n",
                manifolds, st.contacts, points, 1e3 * drift);
    // the large-island path
    ENSURE(manifolds >= btSequentialImpulseConstraintSolverMt::
                            s_minimumContactManifoldsForBatching);
    ENSURE(st.contacts == points);
    ENSURE_LE(drift, 5e-3);
    rf_bullet_detach(p);
    ENSURE(MtPeek::solver_mt(w) == &solver_mt);        // put back
    w.stepSimulation((btScalar)kDt, 1, (btScalar)kDt); // stock again
    for (btRigidBody *b : boxes) {
        w.removeRigidBody(b);
        delete b;
    }
    w.removeRigidBody(&ground);
    btSetTaskScheduler(nullptr); // (the pool deletes its solvers)
    return 0;
}

// A btSoftRigidDynamicsWorld attaches: its rigid bodies' contacts go
// through the world's constraint solver (the cone), its soft bodies'
// contacts through Bullet's soft-body solver, as in stock.  A cloth patch
// dropped on a box on the ground: the cone solves the box's contacts
// (the stats count them), the box rests at y = 0.5 m (half its side,
// within 5 mm, Bullet's margins) and the cloth's corner hangs where
// stock's does (within 5 mm; measured 0.8 mm apart).
int test_soft_rigid_world()
{
    double corner[2], box_y[2];
    int contacts = 0;
    for (int cone = 0; cone < 2; ++cone) {
        btSoftBodyRigidBodyCollisionConfiguration cc;
        btCollisionDispatcher d(&cc);
        btDbvtBroadphase bp;
        btSequentialImpulseConstraintSolver solver;
        btSoftRigidDynamicsWorld w(&d, &bp, &solver, &cc);
        w.setGravity(btVector3(0, -10, 0));
        w.getWorldInfo().m_gravity = btVector3(0, -10, 0);
        w.getWorldInfo().m_sparsesdf.Initialize();
        BoxOnGround scene(w);
        btSoftBody *cloth = btSoftBodyHelpers::CreatePatch(
            w.getWorldInfo(), btVector3(-1, 2, -1), btVector3(1, 2, -1),
            btVector3(-1, 2, 1), btVector3(1, 2, 1), 8, 8, 0, true);
        cloth->getCollisionShape()->setMargin(0.05);
        // 0.2 kg (the patch's default, 1 kg a node, 64 kg, pushes the 1 kg
        // box through the ground in stock's world too)
        cloth->setTotalMass(0.2);
        w.addSoftBody(cloth);
        rf_plugin *p = nullptr;
        if (cone) {
            rf_error err;
            p = rf_bullet_attach(&w, nullptr, &err);
            ENSURE(p != nullptr);
        }
        for (int k = 0; k < 240; ++k) {
            w.stepSimulation((btScalar)kDt, 1, (btScalar)kDt);
        }
        corner[cone] = cloth->m_nodes[0].m_x.y();
        box_y[cone] = scene.box.getWorldTransform().getOrigin().y();
        if (p != nullptr) {
            rf_stats st;
            ENSURE(rf_bullet_stats(p, &st) == RF_OK);
            contacts = st.contacts;
            rf_bullet_detach(p);
        }
        w.removeSoftBody(cloth);
        delete cloth;
    }
    std::printf("  soft-rigid world: box at %.4f m (stock %.4f), cloth corner "
                "at %.4f m (stock %.4f), %d cone contacts\n",
                box_y[1], box_y[0], corner[1], corner[0], contacts);
    ENSURE(contacts >= 4); // the box's face on the ground
    ENSURE_SMALL(box_y[1] - 0.5, 5e-3);
    ENSURE_SMALL(corner[1] - corner[0], 5e-3);
    return 0;
}

// A caller compiled for the other precision is refused with a message
// that names the right library (the inline rf_bullet_attach passes
// sizeof(btScalar); here the other size is passed directly).
int test_precision_mismatch()
{
    Scene s;
    rf_error err;
    const int other = sizeof(btScalar) == 4 ? 8 : 4;
    ENSURE(rf_bullet_scalar_size() == (int)sizeof(btScalar));
    ENSURE(rf_bullet_attach_checked(&s.world, nullptr, sizeof(rf_config), other,
                                    &err) == nullptr);
    ENSURE(err.status == RF_ERR_INVALID);
    ENSURE(std::strstr(err.message, other == 8 ? "librollfric-float64.so"
                                               : "librollfric.so") != nullptr);
    ENSURE(s.world.getConstraintSolver() == &s.solver); // untouched
    return 0;
}

// rf_config and rf_stats can grow (rollfric.h, "Binary compatibility"):
// the plugin reads and writes the sizes the caller was
// compiled with.  An older caller (sizes ending before rf_config's
// residual and rf_stats' skipped_bodies) gets its fields and the
// defaults for the rest, and its bytes beyond are not written; a newer
// one (larger sizes) is refused with both sizes named.
int test_struct_sizes()
{
    Scene s;
    s.ground();
    s.sphere(0.5, 1.0, btVector3(0, 0.5f, 0), 0.5, 0.0);
    const size_t cfg_old = offsetof(rf_config, residual);
    const size_t stats_old = offsetof(rf_stats, skipped_bodies);
    rf_config cfg;
    ENSURE(rf_bullet_config_default_sized(&cfg, cfg_old) == RF_OK);
    cfg.residual = 7; // beyond the old size: not read
    rf_error err;
    rf_plugin *p = rf_bullet_attach_checked(&s.world, &cfg, cfg_old,
                                            (int)sizeof(btScalar), &err);
    ENSURE(p != nullptr);
    rf_config now;
    ENSURE(rf_bullet_get_config(p, &now) == RF_OK);
    ENSURE(now.residual == 0 && now.solver == RF_SOLVER_SI); // defaults
    ENSURE(rf_bullet_set_config_sized(p, &cfg, cfg_old, &err) == RF_OK);
    ENSURE(rf_bullet_set_config(p, &cfg, &err) == RF_ERR_INVALID);
    s.step(kDt, 5);
    rf_stats st;
    std::memset(&st, 0xAB, sizeof st);
    ENSURE(rf_bullet_stats_sized(p, &st, stats_old) == RF_OK);
    ENSURE(st.contacts == 1);
    const unsigned char *tail = (const unsigned char *)&st + stats_old;
    for (size_t k = 0; k < sizeof st - stats_old; ++k) {
        ENSURE(tail[k] == 0xAB);
    }
    std::memset(&now, 0xAB, sizeof now);
    ENSURE(rf_bullet_get_config_sized(p, &now, cfg_old) == RF_OK);
    ENSURE(*((const unsigned char *)&now + cfg_old) == 0xAB);
    // a newer caller
    ENSURE(rf_bullet_stats_sized(p, &st, sizeof st + 8) == RF_ERR_INVALID);
    ENSURE(rf_bullet_get_config_sized(p, &now, sizeof now + 8) ==
           RF_ERR_INVALID);
    ENSURE(rf_bullet_set_config_sized(p, &cfg, sizeof cfg + 8, &err) ==
           RF_ERR_INVALID);
    ENSURE(std::strstr(err.message, "this library's") != nullptr);
    ENSURE(rf_bullet_config_from_env_sized(&cfg, sizeof cfg + 8, &err) ==
           RF_ERR_INVALID);
    rf_bullet_detach(p);
    Scene s2;
    ENSURE(rf_bullet_attach_checked(&s2.world, &cfg, sizeof cfg + 8,
                                    (int)sizeof(btScalar), &err) == nullptr);
    ENSURE(err.status == RF_ERR_INVALID);
    return 0;
}

// A pile of boxes and spheres falling on the ground.
void pile(Scene &s)
{
    s.ground(0.8);
    for (int k = 0; k < 12; ++k) {
        btTransform xf;
        xf.setIdentity();
        xf.setOrigin(btVector3((btScalar)(0.3 * (k % 3)),
                               (btScalar)(0.6 + 0.9 * k),
                               (btScalar)(0.2 * (k % 2))));
        xf.setRotation(
            btQuaternion(btVector3(1, 1, 0).normalized(), (btScalar)(0.3 * k)));
        if (k % 2) {
            s.sphere(0.4, 1.0 + k, xf.getOrigin(), 0.7, 0.02, 0.01);
        } else {
            s.box(btVector3(0.4, 0.3, 0.35), 2.0, xf, 0.6);
        }
    }
}

// RF_BULLET_STOCK forwards every call to the previous solver: the same
// scene with and without rollfric attached in stock mode is bitwise the
// same.  Switching to cone mode then changes it.
int test_stock_mode_is_stock()
{
    Scene a, b;
    pile(a);
    pile(b);
    rf_plugin *p = rf_bullet_attach(&b.world, nullptr);
    ENSURE(rf_bullet_set_mode(p, RF_BULLET_STOCK) == RF_OK);
    ENSURE(mode_of(p) == RF_BULLET_STOCK);
    ENSURE(rf_bullet_set_mode(p, (rf_bullet_mode)7) == RF_ERR_INVALID);
    for (int i = 0; i < 120; ++i) {
        a.step(kDt);
        b.step(kDt);
    }
    for (size_t k = 0; k < a.bodies.size(); ++k) {
        const btVector3 xa = a.bodies[k]->getCenterOfMassPosition();
        const btVector3 xb = b.bodies[k]->getCenterOfMassPosition();
        ENSURE(std::memcmp(&xa, &xb, sizeof xa) == 0);
    }
    ENSURE(rf_bullet_set_mode(p, RF_BULLET_CONE) == RF_OK);
    double diff = 0;
    for (int i = 0; i < 60; ++i) {
        a.step(kDt);
        b.step(kDt);
    }
    for (size_t k = 0; k < a.bodies.size(); ++k) {
        diff += (a.bodies[k]->getCenterOfMassPosition() -
                 b.bodies[k]->getCenterOfMassPosition())
                    .length();
    }
    rf_stats st;
    ENSURE(rf_bullet_stats(p, &st) == RF_OK);
    std::printf("  after switching to cone: contacts %d, rows %d, position "
                "difference %.3g m\n",
                st.contacts, st.rows, diff);
    ENSURE(st.contacts > 0);
    ENSURE(st.rows == 6 * st.contacts);
    ENSURE(diff > 1e-4);
    // the phase timing of the last cone step: three parts, each positive
    // (measured), summing to the step's wall time (the write-back is the
    // remainder by definition, so the check is that build + solve do not
    // exceed the total: the clocks are read in order)
    rf_bullet_timing tm;
    ENSURE(rf_bullet_timing_get(p, &tm) == RF_OK);
    ENSURE(rf_bullet_timing_get(p, nullptr) == RF_ERR_NULL);
    std::printf("  timing: build %.3g ms, solve %.3g ms, write-back %.3g ms, "
                "total %.3g ms\n",
                1e3 * tm.build, 1e3 * tm.solve, 1e3 * tm.write_back,
                1e3 * tm.total);
    ENSURE(tm.total == st.seconds);
    ENSURE(tm.build > 0 && tm.solve > 0 && tm.write_back > 0);
    ENSURE_SMALL(tm.build + tm.solve + tm.write_back - tm.total, 1e-12);
    // the solve's own clock (rf_stats of rf_solve) sits inside it
    ENSURE_LE(tm.solve, tm.total);
    // a stock step leaves the last cone step's timing, as its stats
    ENSURE(rf_bullet_set_mode(p, RF_BULLET_STOCK) == RF_OK);
    b.step(kDt);
    rf_bullet_timing after;
    ENSURE(rf_bullet_timing_get(p, &after) == RF_OK);
    ENSURE(std::memcmp(&after, &tm, sizeof tm) == 0);
    rf_bullet_detach(p);
    return 0;
}

// Free motion is the stock solver's: a falling body (semi-implicit Euler:
// v_n = -g n h, y_n = y0 - g h^2 n (n + 1) / 2) and a tumbling box with the
// implicit gyroscopic term (same operations as stock; float round-off).
int test_free_motion_parity()
{
    const double g = 9.81;
    Scene s(g);
    btRigidBody *ball = s.sphere(0.5, 2.0, btVector3(0, 100, 0), 0.5, 0.0);
    ball->setActivationState(DISABLE_DEACTIVATION);
    btTransform xf;
    xf.setIdentity();
    xf.setOrigin(btVector3(10, 100, 0));
    btRigidBody *box = s.box(btVector3(0.1, 0.4, 0.9), 3.0, xf);
    box->setGravity(btVector3(0, 0, 0));
    box->setActivationState(DISABLE_DEACTIVATION);
    box->setAngularVelocity(btVector3(0.2, 5.0, 0.3)); // near the middle axis

    Scene t(g); // the same box under the stock solver
    btRigidBody *box2 = t.box(btVector3(0.1, 0.4, 0.9), 3.0, xf);
    box2->setGravity(btVector3(0, 0, 0));
    box2->setActivationState(DISABLE_DEACTIVATION);
    box2->setAngularVelocity(btVector3(0.2, 5.0, 0.3));

    rf_plugin *p = rf_bullet_attach(&s.world, nullptr);
    const int n = 60;
    for (int i = 0; i < n; ++i) {
        s.step(kDt);
        t.step(kDt);
    }
    ENSURE_SMALL(ball->getLinearVelocity().y() + g * n * kDt, 1e-4);
    ENSURE_SMALL(ball->getCenterOfMassPosition().y() -
                     (100 - g * kDt * kDt * n * (n + 1) / 2),
                 1e-3);
    const btVector3 w1 = box->getAngularVelocity();
    const btVector3 w2 = box2->getAngularVelocity();
    std::printf("  tumbling box: |w_cone - w_stock| = %.2g rad/s\n",
                (w1 - w2).length());
    ENSURE_LE((w1 - w2).length(), 1e-4);
    ENSURE_LE((box->getOrientation() - box2->getOrientation()).length(), 1e-5);
    rf_bullet_detach(p);
    return 0;
}

// The tumbling box of test_free_motion_parity (no gravity, w0 near the
// middle axis) in each of two scenes, with the given gyroscopic flags.
void tumbling_boxes(Scene *sc[2], int flags, btRigidBody *box[2])
{
    btTransform xf;
    xf.setIdentity();
    for (int k = 0; k < 2; ++k) {
        box[k] = sc[k]->box(btVector3(0.1, 0.4, 0.9), 3.0, xf);
        box[k]->setFlags(flags);
        box[k]->setActivationState(DISABLE_DEACTIVATION);
        box[k]->setAngularVelocity(btVector3(0.2, 5.0, 0.3));
    }
}

// Every gyroscopic flag is stock's: the tumbling box
// of test_free_motion_parity with BT_ENABLE_GYROSCOPIC_FORCE_EXPLICIT (its
// torque clamped by the world's m_maxGyroscopicForce, 0.5 N m here, which
// binds: |w x I w| is about 2 N m), IMPLICIT_WORLD and IMPLICIT_BODY, one
// second under the cone plugin and under stock: the same free velocities,
// so the same motion to float round-off (1e-4 rad/s, as above).
int test_gyroscopic_flags_parity()
{
    const int flags[3] = {BT_ENABLE_GYROSCOPIC_FORCE_EXPLICIT,
                          BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_WORLD,
                          BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_BODY};
    const char *names[3] = {"explicit (clamped)", "implicit world",
                            "implicit body"};
    for (int f = 0; f < 3; ++f) {
        btRigidBody *box[2];
        Scene s(0.0), t(0.0);
        Scene *sc[2] = {&s, &t};
        // the world's clamp, in both
        s.world.getSolverInfo().m_maxGyroscopicForce = 0.5;
        t.world.getSolverInfo().m_maxGyroscopicForce = 0.5;
        tumbling_boxes(sc, flags[f], box);
        rf_plugin *p = rf_bullet_attach(&s.world, nullptr);
        for (int i = 0; i < 60; ++i) {
            s.step(kDt);
            t.step(kDt);
        }
        const btVector3 w1 = box[0]->getAngularVelocity();
        const btVector3 w2 = box[1]->getAngularVelocity();
        std::printf("  %-18s |w_cone - w_stock| = %.2g rad/s (|w| %.3f)\n",
                    names[f], (w1 - w2).length(), w2.length());
        ENSURE_LE((w1 - w2).length(), 1e-4);
        rf_bullet_detach(p);
    }
    return 0;
}

// The explicit gyroscopic clamp comes from the btContactSolverInfo the
// solver is handed, not the world's (stock's convertBodies reads
// infoGlobal): a step solved directly through the world's solver with an
// info whose m_maxGyroscopicForce (0.5 N m, binding) differs from the
// world's (100, not binding) gives stock's velocity to float round-off
// (1e-6 rad/s), and differs from the unclamped one by far more.
int test_gyroscopic_info_passed()
{
    btRigidBody *box[2];
    Scene s(0.0), t(0.0);
    Scene *sc[2] = {&s, &t};
    tumbling_boxes(sc, BT_ENABLE_GYROSCOPIC_FORCE_EXPLICIT, box);
    rf_plugin *p = rf_bullet_attach(&s.world, nullptr);
    ENSURE(s.world.getSolverInfo().m_maxGyroscopicForce == 100);
    btContactSolverInfo info = s.world.getSolverInfo();
    info.m_timeStep = (btScalar)kDt;
    info.m_maxGyroscopicForce = 0.5;
    for (int k = 0; k < 2; ++k) {
        btConstraintSolver *solver = sc[k]->world.getConstraintSolver();
        btCollisionObject *obj = box[k];
        solver->prepareSolve(1, 0);
        solver->solveGroup(&obj, 1, nullptr, 0, nullptr, 0, info, nullptr,
                           &sc[k]->dispatcher);
        solver->allSolved(info, nullptr);
    }
    const btVector3 w1 = box[0]->getAngularVelocity();
    const btVector3 w2 = box[1]->getAngularVelocity();
    // the unclamped step, for scale: w - h I^-1 (w x I w)
    const btVector3 w0(0.2, 5.0, 0.3);
    const btVector3 g = box[1]->computeGyroscopicForceExplicit(1e30);
    const btVector3 wfree =
        w0 - box[1]->getInvInertiaTensorWorld() * g * (btScalar)kDt;
    std::printf("  one step with the info's clamp: |w_cone - w_stock| = "
                "%.2g rad/s; unclamped differs by %.2g\n",
                (w1 - w2).length(), (wfree - w2).length());
    ENSURE_LE((w1 - w2).length(), 1e-6);
    ENSURE((wfree - w2).length() > 1e-3);
    rf_bullet_detach(p);
    return 0;
}

// Restitution as in stock: above m_restitutionVelocityThreshold the
// separating normal velocity after impact is e times the approach speed
// before it (combined e = 0.5 x 1.0).  Checked on the step of impact, to
// 2% (the impact step also integrates gravity over h: g h / v = 4%
// of the approach speed, split between before and after).
int test_restitution()
{
    Scene s;
    btRigidBody *ground = s.ground();
    ground->setRestitution(1.0);
    btRigidBody *ball = s.sphere(0.25, 1.0, btVector3(0, 1.25, 0), 0.5, 0.0);
    ball->setRestitution(0.5);
    rf_plugin *p = rf_bullet_attach(&s.world, nullptr);
    double v_in = 0, v_out = 0;
    for (int i = 0; i < 120 && v_out <= 0; ++i) {
        double before = ball->getLinearVelocity().y();
        s.step(kDt);
        double after = ball->getLinearVelocity().y();
        if (before < -1 && after > 0) {
            v_in = -before;
            v_out = after;
        }
    }
    std::printf("  impact %.3f m/s, rebound %.3f m/s, ratio %.4f\n", v_in,
                v_out, v_out / v_in);
    ENSURE(v_in > 3);
    ENSURE_SMALL(v_out / v_in - 0.5, 0.02);
    rf_bullet_detach(p);
    return 0;
}

// Newton restitution (Acary eq. (8)-(9): v_n+ = -e v_n- at an impact): a
// ball dropped from H with e = 0.5 (ball 0.5 x ground 1.0, Bullet's
// product) rises again to e^2 H = 25% of H, within 1% of that.
// Heights of the ball's lowest point above the ground.  The
// step's share of the error: the impact happens somewhere inside a step
// (the gap then, at most v h, is neither fallen nor risen) and the
// rebound step moves the ball by h e v, half of which the apex of
// semi-implicit Euler gives back: at most about 1.25 v h.  With h =
// 1/2000 s and H = 2 m (v = 6.3 m/s) that is 4 mm of the 500 mm rise,
// 0.8%.  Three drop heights put the impact at different places in a step.
int test_bounce_height()
{
    const double R = 0.1, dt = 1.0 / 2000.0;
    const double heights[3] = {1.95, 2.0, 2.05};
    for (double H : heights) {
        Scene s;
        btRigidBody *ground = s.ground();
        ground->setRestitution(1.0);
        btRigidBody *ball =
            s.sphere(R, 1.0, btVector3(0, (btScalar)(R + H), 0), 0.5, 0.0);
        ball->setRestitution(0.5);
        rf_plugin *p = rf_bullet_attach(&s.world, nullptr);
        ENSURE(p != nullptr);
        bool bounced = false;
        double apex = 0.0;
        for (int i = 0; i < 6000; ++i) {
            s.step(dt);
            const double vy = ball->getLinearVelocity().y();
            const double y = ball->getCenterOfMassPosition().y() - R;
            bounced = bounced || vy > 0.0;
            if (bounced) {
                apex = std::max(apex, y);
                if (vy < 0.0) {
                    break;
                }
            }
        }
        std::printf("  dropped from %.3f m, rose to %.4f m: %.4f of the "
                    "height (e^2 = 0.25)\n",
                    H, apex, apex / H);
        ENSURE(bounced);
        ENSURE_SMALL(apex / H / 0.25 - 1.0, 0.01);
        rf_bullet_detach(p);
    }
    return 0;
}

// Cohesion in a Bullet scene (slides section 3): a 1 kg
// block (0.4 m cube) under a static ceiling, its top face on the
// ceiling's, gravity pulling it away.  The pair holds with the smaller of
// the two cohesion forces c (the ceiling's is large), shared by the
// manifold's four points:
//   - m g = 0.95 c: held; it has not moved after 2 s (1 mm: Bullet's
//     contact stabilisation settles within a fraction of that);
//   - m g = 1.05 c: falls; more than 0.5 m down after 1 s (once the
//     manifold breaks, within Bullet's 2 cm threshold, it falls freely:
//     g t^2 / 2 = 4.9 m);
//   - friction still acts (De Saxce model, the frictional one without
//     dilatancy): with c = 2 m g and mu = 0.5 (0.5 x 1.0) the limit is
//     mu (c - m g) = 0.5 m g; a lateral force 0.4 m g leaves the block in
//     place (1 mm after 0.3 s), 0.6 m g slides it at (0.6 - 0.5) g: x =
//     0.1 g t^2 / 2 = 4.41 cm after t = 0.3 s, times (1 + h / t) for
//     semi-implicit Euler, within 1%.  (Short: Bullet drops a box's
//     manifold points once they have slid some 9 cm from where they were
//     made, and may bring back only the leading edge's two, on which a
//     hanging block tips; demos/scene_cohesion.c.)
// And the stock solver ignores cohesion: the 0.95 block falls there.
struct CeilingScene {
    Scene s;
    btRigidBody *ceiling, *block;
    rf_plugin *p;
    CeilingScene(double block_cohesion, double block_friction)
    {
        btTransform xf;
        xf.setIdentity();
        xf.setOrigin(btVector3(0, 1.5, 0));
        ceiling = s.box(btVector3(3, 0.5, 3), 0.0, xf, 1.0);
        xf.setOrigin(btVector3(0, 0.8, 0));
        block = s.box(btVector3(0.2, 0.2, 0.2), 1.0, xf, block_friction);
        block->setActivationState(DISABLE_DEACTIVATION);
        // the converged solve: ten sweeps leave a hanging block's pull
        // short by a fraction of a millimetre a step, and Bullet drops
        // the points of a block that has come loose (SI defaults: the
        // block falls after 40 steps)
        rf_config cfg;
        rf_config_default(&cfg);
        cfg.model = RF_MODEL_DESAXCE;
        p = rf_bullet_attach(&s.world, &cfg);
        rf_bullet_set_cohesion(p, ceiling, 1e6);
        rf_bullet_set_cohesion(p, block, block_cohesion);
    }
    ~CeilingScene()
    {
        rf_bullet_detach(p);
    }
    // n steps of h with a lateral force fx (N) on the block
    void run(int n, double fx)
    {
        for (int i = 0; i < n; ++i) {
            block->applyCentralForce(btVector3((btScalar)fx, 0, 0));
            s.step(1.0 / 240.0);
        }
    }
};

int test_cohesion_ceiling()
{
    const double m = 1.0, g = 9.81;
    {
        CeilingScene c(m * g / 0.95, 0.5);
        ENSURE_SMALL(cohesion_of(c.p, c.block) - m * g / 0.95, 1e-12);
        c.run(480, 0.0);
        const double dy = c.block->getCenterOfMassPosition().y() - 0.8;
        rf_stats st;
        rf_bullet_stats(c.p, &st);
        std::printf("  m g = 0.95 c: moved %.2e m in 2 s (%d contacts)\n", dy,
                    st.contacts);
        ENSURE(st.contacts >= 3);
        ENSURE_SMALL(dy, 1e-3);
        // the stock solver has no cohesion: the same block falls
        rf_bullet_set_mode(c.p, RF_BULLET_STOCK);
        c.run(240, 0.0);
        const double dy_stock = c.block->getCenterOfMassPosition().y() - 0.8;
        std::printf("  stock: moved %.3f m in 1 s\n", dy_stock);
        ENSURE(dy_stock < -0.5);
    }
    {
        CeilingScene c(m * g / 1.05, 0.5);
        c.run(240, 0.0);
        const double dy = c.block->getCenterOfMassPosition().y() - 0.8;
        std::printf("  m g = 1.05 c: moved %.3f m in 1 s\n", dy);
        ENSURE(dy < -0.5);
    }
    const double f_over_mg[2] = {0.4, 0.6};
    for (double f : f_over_mg) {
        CeilingScene c(2.0 * m * g, 0.5);
        const double t = 0.3, h = 1.0 / 240.0;
        c.run(72, f * m * g);
        const btVector3 x = c.block->getCenterOfMassPosition();
        const double expect =
            f < 0.5 ? 0.0 : 0.5 * (f - 0.5) * g * t * t * (1.0 + h / t);
        std::printf("  lateral %.1f m g: x = %.4f m after 0.3 s (%.4f), y "
                    "moved %.2e m\n",
                    f, x.x(), expect, x.y() - 0.8);
        ENSURE_SMALL(x.y() - 0.8, 1e-3);
        if (f < 0.5) {
            ENSURE_SMALL(x.x(), 1e-3);
        } else {
            ENSURE_SMALL(x.x() / expect - 1.0, 0.01);
        }
    }
    // bad values
    {
        CeilingScene c(1.0, 0.5);
        ENSURE(rf_bullet_set_cohesion(c.p, c.block, -1.0) == RF_ERR_INVALID);
        ENSURE(rf_bullet_set_cohesion(c.p, c.block, NAN) == RF_ERR_NONFINITE);
        ENSURE(rf_bullet_set_cohesion(c.p, nullptr, 1.0) == RF_ERR_NULL);
        ENSURE(rf_bullet_set_cohesion(nullptr, c.block, 1.0) == RF_ERR_NULL);
        ENSURE(cohesion_of(c.p, c.block) == 1.0);
        ENSURE(rf_bullet_set_cohesion(c.p, c.block, 0.0) == RF_OK);
        ENSURE(cohesion_of(c.p, c.block) == 0.0);
        // an object that leaves the world is forgotten at the next step
        ENSURE(rf_bullet_set_cohesion(c.p, c.block, 2.0) == RF_OK);
        c.s.world.removeRigidBody(c.block);
        c.run(1, 0.0);
        ENSURE(cohesion_of(c.p, c.block) == 0.0);
        ENSURE(cohesion_of(c.p, c.ceiling) == 1e6);
        c.s.world.addRigidBody(c.block);
    }
    return 0;
}

// Contact stiffness and damping (Tasora 6.2's Tikhonov
// term, the slides' N - E with E = -diag(1 / (h^2 K + h R))): a 1 kg
// sphere (R = 0.1 m) on the ground with setContactStiffnessAndDamping
// (K = 1000 N/m on the sphere, the ground 1e12 N/m: Bullet combines them
// in series, 1000 (1 - 1e-9); dampings add):
//   - with damping 20 N s/m it settles at the static deflection m g / K =
//     9.81 mm, within 1% (3 s at h = 1/240);
//   - undamped, released at the touching height, it oscillates at
//     sqrt(K / m) = 31.62 rad/s (period 0.1987 s) within 2%: the mean of
//     six periods between upward crossings of the equilibrium at h =
//     1/600 s (the implicit spring's period error is (h omega)^2 / 3 =
//     0.09%, its damping keeps the sphere in contact).
int test_contact_stiffness()
{
    const double m = 1.0, R = 0.1, K = 1000.0, g = 9.81;
    const double d_eq = m * g / K;
    for (int damped = 1; damped >= 0; --damped) {
        Scene s;
        btRigidBody *ground = s.ground();
        ground->setContactStiffnessAndDamping(1e12f, 0.0f);
        btRigidBody *ball =
            s.sphere(R, m, btVector3(0, (btScalar)R, 0), 0.5, 0.0);
        ball->setContactStiffnessAndDamping((btScalar)K, damped ? 20.0f : 0.0f);
        ball->setActivationState(DISABLE_DEACTIVATION);
        rf_plugin *p = rf_bullet_attach(&s.world, nullptr);
        ENSURE(p != nullptr);
        if (damped) {
            s.step(1.0 / 240.0, 720);
            const double d = R - ball->getCenterOfMassPosition().y();
            std::printf("  damped: deflection %.5f m (m g / K = %.5f)\n", d,
                        d_eq);
            ENSURE_SMALL(d / d_eq - 1.0, 0.01);
        } else {
            const double h = 1.0 / 600.0, y_eq = R - d_eq;
            double y_prev = R, t_first = -1, t_last = -1;
            int crossings = 0;
            for (int i = 1; i <= 1200 && crossings < 7; ++i) {
                s.step(h);
                const double y = ball->getCenterOfMassPosition().y();
                if (y_prev < y_eq && y >= y_eq) { // upward, interpolated
                    const double t =
                        (i - 1 + (y_eq - y_prev) / (y - y_prev)) * h;
                    t_first = crossings == 0 ? t : t_first;
                    t_last = t;
                    ++crossings;
                }
                y_prev = y;
            }
            ENSURE(crossings == 7);
            const double period = (t_last - t_first) / 6.0;
            const double expect = 2.0 * M_PI / std::sqrt(K / m);
            std::printf("  undamped: period %.5f s (2 pi sqrt(m / K) = "
                        "%.5f)\n",
                        period, expect);
            ENSURE_SMALL(period / expect - 1.0, 0.02);
        }
        rf_bullet_detach(p);
    }
    return 0;
}

// Elasto-plastic contact (slides section 3, "Modeling
// plasticity"): a 1 kg ball (R = 0.1 m) with a contact spring K = 1e4 N/m
// (no damping) dropped from H = 0.1 m on ground that yields at F_y = 50 N.
// The 1D model (a spring in series with a rigid-perfectly-plastic slider)
// traces the loading/unloading curve: force K depth up to F_y at delta_e =
// F_y / K = 5 mm, a plateau at F_y while the ground flows, then unloading
// with slope K, the force vanishing at the permanent indentation delta_p =
// delta_max - delta_e.  Energy to the deepest point:
//   1/2 m V^2 + m g (delta_e + delta_p) = 1/2 K delta_e^2 + F_y delta_p,
// so delta_p = (m g H + m g delta_e - 1/2 K delta_e^2) / (F_y - m g) =
// 22.5 mm.  Checked: the deepest depth is delta_p + delta_e, and the ball
// leaves the ground (no impulse any more) at depth delta_p: the dent stays
// after unloading.  h = 1/10000 s: the step's error (mostly the implicit
// spring's numerical damping, (h omega)^2 / 2 of the energy per step,
// which the elastic case shows as well) stays under 1%; tolerance 2%.  Without
// yield the ball leaves at depth 0 (1 mm) after reaching the elastic (m g +
// sqrt((m g)^2 + 2 K m g H)) / K = 15.0 mm (2%).
int test_plastic_indentation()
{
    const double m = 1.0, R = 0.1, K = 1.0e4, Fy = 50.0, g = 9.81, H = 0.1;
    const double h = 1.0 / 10000.0;
    const double de = Fy / K;
    const double dp =
        (m * g * H + m * g * de - 0.5 * K * de * de) / (Fy - m * g);
    const double d_elastic =
        (m * g + std::sqrt(m * g * m * g + 2.0 * K * m * g * H)) / K;
    // yielding twice: warm-started and not (the indentation is carried
    // either way), then elastic
    for (int run = 0; run < 3; ++run) {
        const int yielding = run < 2;
        Scene s;
        btRigidBody *ground = s.ground();
        ground->setContactStiffnessAndDamping(1e12f, 0.0f);
        btRigidBody *ball =
            s.sphere(R, m, btVector3(0, (btScalar)(R + H), 0), 0.5, 0.0);
        ball->setContactStiffnessAndDamping((btScalar)K, 0.0f);
        ball->setActivationState(DISABLE_DEACTIVATION);
        rf_plugin *p = rf_bullet_attach(&s.world, nullptr);
        ENSURE(p != nullptr);
        if (run == 1) {
            rf_config cfg;
            rf_bullet_get_config(p, &cfg);
            cfg.warm_start = 0;
            ENSURE(rf_bullet_set_config(p, &cfg, nullptr) == RF_OK);
        }
        if (yielding) {
            ENSURE(rf_bullet_set_yield(p, ground, -1) == RF_ERR_INVALID);
            ENSURE(rf_bullet_set_yield(p, ground, NAN) == RF_ERR_NONFINITE);
            ENSURE(rf_bullet_set_yield(p, ground, Fy) == RF_OK);
            ENSURE(yield_of(p, ground) == Fy);
        }
        double deepest = 0.0, leave = NAN;
        bool rising = false;
        for (int i = 1; i <= 10000 && std::isnan(leave); ++i) {
            s.step(h);
            const double depth = R - ball->getCenterOfMassPosition().y();
            deepest = std::max(deepest, depth);
            rising = rising || ball->getLinearVelocity().y() > 0;
            double impulse = 0.0;
            btDispatcher *d = s.world.getDispatcher();
            for (int k = 0; k < d->getNumManifolds(); ++k) {
                btPersistentManifold *mf = d->getManifoldByIndexInternal(k);
                for (int j = 0; j < mf->getNumContacts(); ++j) {
                    impulse += mf->getContactPoint(j).m_appliedImpulse;
                }
            }
            if (rising && impulse <= 0.0) {
                leave = depth;
            }
        }
        if (yielding) {
            std::printf("  yielding ground (warm start %d): deepest %.5f m "
                        "(delta_p + "
                        "delta_e = %.5f), leaves at %.5f m (delta_p = "
                        "%.5f)\n",
                        run == 0, deepest, dp + de, leave, dp);
            ENSURE_SMALL(deepest / (dp + de) - 1.0, 0.02);
            ENSURE_SMALL(leave / dp - 1.0, 0.02);
        } else {
            std::printf("  elastic ground: deepest %.5f m (%.5f), leaves at "
                        "%.5f m (0)\n",
                        deepest, d_elastic, leave);
            ENSURE_SMALL(deepest / d_elastic - 1.0, 0.02);
            ENSURE_SMALL(leave, 1e-3);
        }
        rf_bullet_detach(p);
    }
    return 0;
}

// The count of one warning kind (-1 if it cannot be read).
long warning_count(const rf_plugin *p, rf_bullet_warning kind)
{
    rf_bullet_warning_info w{};
    return rf_bullet_get_warning(p, kind, &w) == RF_OK ? w.count : -1;
}

// The only manifold point of s's world (one ball on the ground), or
// nullptr; its manifold in *m.
btManifoldPoint *only_point(Scene &s, btPersistentManifold **m = nullptr)
{
    btDispatcher *d = s.world.getDispatcher();
    for (int k = 0; k < d->getNumManifolds(); ++k) {
        btPersistentManifold *mf = d->getManifoldByIndexInternal(k);
        if (mf->getNumContacts() > 0) {
            if (m != nullptr) {
                *m = mf;
            }
            return &mf->getContactPoint(0);
        }
    }
    return nullptr;
}

// The ball of test_plastic_indentation (1 kg, R = 0.1 m, contact spring
// K = 1e4 N/m) with contact damping 100 N s/m (half the critical
// 2 sqrt(K m)) so that it settles, dropped from H onto ground that yields
// at 50 N; the plugin in *p.
const double kDentK = 1.0e4, kDentR = 0.1, kDentH = 1.0e-4;
btRigidBody *dent_ball(Scene &s, double H, rf_plugin **p)
{
    btRigidBody *ground = s.ground();
    ground->setContactStiffnessAndDamping(1e12f, 0.0f);
    btRigidBody *ball = s.sphere(
        kDentR, 1.0, btVector3(0, (btScalar)(kDentR + H), 0), 0.5, 0.0);
    ball->setContactStiffnessAndDamping((btScalar)kDentK, 100.0f);
    ball->setActivationState(DISABLE_DEACTIVATION);
    *p = rf_bullet_attach(&s.world, nullptr);
    if (*p != nullptr && rf_bullet_set_yield(*p, ground, 50.0) != RF_OK) {
        rf_bullet_detach(*p);
        *p = nullptr;
    }
    return ball;
}

// A dent is the point's state, not the solver's: a
// stock-mode step, which writes the point's impulses, leaves it.  The
// ball dropped from 0.1 m dents the ground (test_plastic_indentation's
// 22.5 mm without damping; less here, some of the energy goes into the
// damper) and settles in the dent.  Then one stock step: stock pushes the
// ball out of what it sees as a 2 cm penetration (it knows no dent) and
// the ball hops; it lands with a force far below the yield force (mg plus
// the damper's and spring's share of a few cm/s), so the ground does not
// flow again.  Reference: the indentation is unchanged (1e-3 relative:
// the landing's flow, if any, stays below it) and the ball rests again at
// the indentation plus the spring's static compression m g / K (Hooke:
// the spring in series with the rigid-plastic slider), within 0.05 mm.
// Before, the dent rode in a cache matched by the impulses' values: the
// stock step made it vanish, and the ball was pushed out of its dent to
// rest at m g / K, 19 mm higher (measured on the previous code).
int test_dent_survives_stock_step()
{
    Scene s;
    rf_plugin *p = nullptr;
    btRigidBody *ball = dent_ball(s, 0.1, &p);
    ENSURE(p != nullptr);
    s.step(kDentH, 5000); // 0.5 s: hit, dent, settle
    const btManifoldPoint *pt = only_point(s);
    ENSURE(pt != nullptr);
    rf_bullet_carried c0, c1, c2;
    ENSURE(rf_bullet_point_carried(p, pt, &c0) == RF_OK);
    const double mg_k = 9.81 / kDentK;
    const double rest0 = kDentR - ball->getCenterOfMassPosition().y();
    std::printf("  indentation %.5f m, rest depth %.5f m (indentation + m g "
                "/ K = %.5f)\n",
                c0.indentation, rest0, c0.indentation + mg_k);
    ENSURE(c0.indentation > 0.01);
    ENSURE_SMALL(rest0 - (c0.indentation + mg_k), 5e-5);
    ENSURE(rf_bullet_set_mode(p, RF_BULLET_STOCK) == RF_OK);
    s.step(kDentH);
    ENSURE(rf_bullet_set_mode(p, RF_BULLET_CONE) == RF_OK);
    pt = only_point(s);
    ENSURE(pt != nullptr);
    ENSURE(rf_bullet_point_carried(p, pt, &c1) == RF_OK);
    ENSURE(c1.indentation == c0.indentation); // the stock step left it
    const double vy = ball->getLinearVelocity().y();
    s.step(kDentH, 5000);
    pt = only_point(s);
    ENSURE(pt != nullptr);
    ENSURE(rf_bullet_point_carried(p, pt, &c2) == RF_OK);
    const double rest2 = kDentR - ball->getCenterOfMassPosition().y();
    std::printf("  after a stock step (ball at %.4f m/s up): indentation "
                "%.5f m, rest depth %.5f m\n",
                vy, c2.indentation, rest2);
    ENSURE(vy > 0.0); // stock did push it (the step means something)
    ENSURE_SMALL(c2.indentation / c0.indentation - 1.0, 1e-3);
    ENSURE_SMALL(rest2 - (c2.indentation + mg_k), 5e-5);
    rf_bullet_detach(p);
    return 0;
}

// Per-object state does not pass to a new object at a reused address.
// The hanging block of test_cohesion_ceiling (m g =
// 0.95 c: held) is removed from the world, destroyed, and a new block is
// constructed in the same storage (placement new: the same pointer) and
// added, all between two steps.  The new block has no cohesion and no
// yield force of its own: rf_bullet_get_* say 0 at once, and it falls
// (reference: once Bullet's 2 cm threshold lets the manifold go it falls
// freely, g t^2 / 2 = 4.9 m in 1 s; more than 0.5 m is asserted, as for
// the 1.05 block).  Before, the entries were keyed by the pointer alone
// and the new block hung from the ceiling.  The same object removed and
// added again is a new stay in the world: its entries go too (set them
// again).
int test_object_state_not_inherited()
{
    const double m = 1.0, g = 9.81;
    CeilingScene c(m * g / 0.95, 0.5);
    ENSURE(rf_bullet_set_yield(c.p, c.block, 1e3) == RF_OK);
    c.run(60, 0.0);
    ENSURE_SMALL(c.block->getCenterOfMassPosition().y() - 0.8, 1e-3);
    btRigidBody *old = c.block;
    btCollisionShape *shape = old->getCollisionShape();
    btMotionState *ms = old->getMotionState();
    c.s.world.removeRigidBody(old);
    old->~btRigidBody();
    btVector3 inertia(0, 0, 0);
    shape->calculateLocalInertia((btScalar)m, inertia);
    btRigidBody::btRigidBodyConstructionInfo ci((btScalar)m, ms, shape,
                                                inertia);
    btRigidBody *fresh = new (old) btRigidBody(ci);
    ENSURE(fresh == old); // the premise: the same address
    fresh->setFriction(0.5);
    fresh->setActivationState(DISABLE_DEACTIVATION);
    c.s.world.addRigidBody(fresh);
    ENSURE(cohesion_of(c.p, fresh) == 0.0);
    ENSURE(yield_of(c.p, fresh) == 0.0);
    c.run(240, 0.0);
    const double dy = fresh->getCenterOfMassPosition().y() - 0.8;
    std::printf("  a new block at the old one's address: moved %.3f m in "
                "1 s\n",
                dy);
    ENSURE(dy < -0.5);
    ENSURE(cohesion_of(c.p, c.ceiling) == 1e6); // still there
    // the same object out of the world and back: a new stay
    ENSURE(rf_bullet_set_cohesion(c.p, fresh, 2.0) == RF_OK);
    ENSURE(cohesion_of(c.p, fresh) == 2.0);
    c.s.world.removeRigidBody(fresh);
    c.s.world.addRigidBody(fresh);
    ENSURE(cohesion_of(c.p, fresh) == 0.0);
    // set before the object is in the world: bound when a step finds it
    c.s.world.removeRigidBody(fresh);
    ENSURE(rf_bullet_set_cohesion(c.p, fresh, 3.0) == RF_OK);
    ENSURE(cohesion_of(c.p, fresh) == 3.0);
    c.s.world.addRigidBody(fresh);
    c.run(1, 0.0);
    ENSURE(cohesion_of(c.p, fresh) == 3.0);
    return 0;
}

// The application's own m_userPersistentData keeps working:
// an application that installed gContactDestroyedCallback before
// attaching, and hangs its own data on one ball's points (from
// gContactAddedCallback), still gets exactly its own pointers back when
// Bullet drops those points, never the plugin's; the plugin keeps nothing
// on that ball's points (RF_ERR_STATE, and a message once) while the
// other ball's points carry their rolling state; detaching puts the
// application's callback back.  (An ENSURE failing here leaves the
// callbacks installed: the program stops at the end anyway.)
int app_token = 0;
int app_released = 0, app_foreign = 0;
bool app_destroyed(void *data)
{
    if (data == &app_token) {
        ++app_released;
    } else {
        ++app_foreign;
    }
    return true;
}
bool app_added(btManifoldPoint &cp, const btCollisionObjectWrapper *, int, int,
               const btCollisionObjectWrapper *, int, int)
{
    if (cp.m_userPersistentData == nullptr) {
        cp.m_userPersistentData = &app_token;
    }
    return false;
}

int test_application_point_data()
{
    ContactDestroyedCallback saved_destroyed = gContactDestroyedCallback;
    ContactAddedCallback saved_added = gContactAddedCallback;
    gContactDestroyedCallback = app_destroyed;
    gContactAddedCallback = app_added;
    app_released = app_foreign = 0;
    {
        Scene s;
        s.ground(1.0);
        btRigidBody *ours =
            s.sphere(0.1, 1.0, btVector3(0, 0.1f, 0), 1.0, 0.02, 0.01);
        btRigidBody *app =
            s.sphere(0.1, 1.0, btVector3(1, 0.1f, 0), 1.0, 0.02, 0.01);
        app->setCollisionFlags(app->getCollisionFlags() |
                               btCollisionObject::CF_CUSTOM_MATERIAL_CALLBACK);
        for (btRigidBody *b : {ours, app}) {
            b->setActivationState(DISABLE_DEACTIVATION);
            b->setLinearVelocity(btVector3(1, 0, 0)); // rolling: a rolling
                                                      // impulse to carry
        }
        rf_plugin *p = rf_bullet_attach(&s.world, nullptr);
        ENSURE(p != nullptr);
        s.step(kDt, 30);
        int carried = 0, refused = 0;
        btDispatcher *d = s.world.getDispatcher();
        for (int k = 0; k < d->getNumManifolds(); ++k) {
            btPersistentManifold *m = d->getManifoldByIndexInternal(k);
            const bool app_side = m->getBody0() == app || m->getBody1() == app;
            for (int j = 0; j < m->getNumContacts(); ++j) {
                rf_bullet_carried c;
                const rf_status st =
                    rf_bullet_point_carried(p, &m->getContactPoint(j), &c);
                if (app_side) {
                    refused += st == RF_ERR_STATE &&
                               m->getContactPoint(j).m_userPersistentData ==
                                   &app_token;
                } else {
                    carried +=
                        st == RF_OK && std::hypot(c.roll[0], c.roll[2]) > 0;
                }
            }
        }
        std::printf("  points carrying the plugin's state %d, the "
                    "application's %d\n",
                    carried, refused);
        ENSURE(carried >= 1 && refused >= 1);
        ENSURE(gContactDestroyedCallback != app_destroyed); // chained
        const int released0 = app_released;
        s.world.removeRigidBody(ours); // drops the plugin's points
        ENSURE(app_released == released0);
        s.world.removeRigidBody(app); // drops the application's
        std::printf("  application callback: %d own pointers at the "
                    "removal (%d in all), %d others\n",
                    app_released - released0, app_released, app_foreign);
        ENSURE(app_released - released0 == refused && app_foreign == 0);
        rf_bullet_detach(p);
        ENSURE(gContactDestroyedCallback == app_destroyed); // put back
        s.world.addRigidBody(ours);
        s.world.addRigidBody(app);
    }
    gContactDestroyedCallback = saved_destroyed;
    gContactAddedCallback = saved_added;
    return 0;
}

// A manifold freed and allocated again at the same address starts clean.
// A ball dents yielding ground and is lifted 1 mm
// clear, moving up at 0.1 m/s: within the sphere's 2 mm contact breaking
// threshold its point stays in the manifold, with exactly zero impulse
// and the dent still carried.  The ball is removed from the world; a new
// ball put on the ground gets a manifold from Bullet's pool at the freed
// address (checked: the test means nothing otherwise).  Reference: a new point
// carries nothing, so the new ball rests at the spring's static compression m g
// / K (Hooke; its 9.8 N stays below the 50 N yield force: no flow), within 0.05
// mm.  Before, the cache keyed by manifold address matched the new point's zero
// impulses to the lifted point's entry: the new ball inherited the dent and
// sank 2 cm (21.4 mm, measured on the previous code).
int test_reallocated_manifold_starts_clean()
{
    Scene s;
    rf_plugin *p = nullptr;
    btRigidBody *ball = dent_ball(s, 0.1, &p);
    ENSURE(p != nullptr);
    s.step(kDentH, 5000);
    rf_bullet_carried c;
    ENSURE(rf_bullet_point_carried(p, only_point(s), &c) == RF_OK);
    const double dent = c.indentation;
    ENSURE(dent > 0.01);
    btTransform xf;
    xf.setIdentity();
    xf.setOrigin(btVector3(0, (btScalar)(kDentR + 0.001), 0));
    ball->setWorldTransform(xf);
    ball->getMotionState()->setWorldTransform(xf);
    ball->setLinearVelocity(btVector3(0, 0.1f, 0));
    ball->setAngularVelocity(btVector3(0, 0, 0));
    s.step(kDentH);
    btPersistentManifold *m0 = nullptr;
    const btManifoldPoint *pt = only_point(s, &m0);
    ENSURE(pt != nullptr);
    ENSURE(pt->m_appliedImpulse == 0);
    ENSURE(rf_bullet_point_carried(p, pt, &c) == RF_OK);
    ENSURE(c.indentation == dent); // carried while the point lives
    s.world.removeRigidBody(ball);
    btRigidBody *fresh =
        s.sphere(kDentR, 1.0, btVector3(0, (btScalar)kDentR, 0), 0.5, 0.0);
    fresh->setContactStiffnessAndDamping((btScalar)kDentK, 100.0f);
    fresh->setActivationState(DISABLE_DEACTIVATION);
    s.step(kDentH);
    btPersistentManifold *m1 = nullptr;
    pt = only_point(s, &m1);
    ENSURE(pt != nullptr);
    ENSURE(m1 == m0); // the premise: the same address again
    ENSURE(rf_bullet_point_carried(p, pt, &c) == RF_OK);
    ENSURE(c.indentation == 0.0);
    s.step(kDentH, 3000);
    const double rest = kDentR - fresh->getCenterOfMassPosition().y();
    std::printf("  new ball at the old manifold's address: rest depth %.5f "
                "m (m g / K = %.5f; the old dent was %.5f)\n",
                rest, 9.81 / kDentK, dent);
    ENSURE_SMALL(rest - 9.81 / kDentK, 5e-5);
    rf_bullet_detach(p);
    return 0;
}

// The warm start carries all six components.  A ball
// (R = 0.1 m) rests on a slope (gravity tilted by atan 0.1) held by
// rolling friction (rho = 0.02 m: the limit is tan = rho / R = 0.2) and
// turned about the normal by a 0.03 N m torque held by spinning friction
// (sigma = 0.01 m: limit 0.098 N m), so every component of its impulse is
// steady and non-zero.  After a converged solve the impulse is a fixed
// point of the projected Jacobi sweep; one sweep started from the carried
// impulse (normal and sliding from Bullet's point, spin and rolling from
// the carried state) stays there to the float rounding of the point's
// fields (1e-5 of |gamma|), and the carried state is the last impulse
// itself; started cold, the same sweep lands visibly elsewhere (> 1e-3).
// The iteration-count test below shows the effect only in aggregate.
int test_warm_start_components()
{
    const double tilt = std::atan(0.1), torque = 0.03;
    double err[2] = {0.0, 0.0};
    for (int warm = 0; warm < 2; ++warm) {
        Scene s;
        s.world.setGravity(btVector3((btScalar)(9.81 * std::sin(tilt)),
                                     (btScalar)(-9.81 * std::cos(tilt)), 0));
        s.ground(1.0);
        btRigidBody *ball =
            s.sphere(0.1, 1.0, btVector3(0, 0.1f, 0), 1.0, 0.02, 0.01);
        ball->setActivationState(DISABLE_DEACTIVATION);
        rf_config cfg;
        rf_config_default(&cfg);
        cfg.tol = 1e-12;
        rf_plugin *p = rf_bullet_attach(&s.world, &cfg);
        ENSURE(p != nullptr);
        for (int i = 0; i < 120; ++i) {
            ball->applyTorque(btVector3(0, (btScalar)torque, 0));
            s.step(kDt);
        }
        const btManifoldPoint *pt = only_point(s);
        ENSURE(pt != nullptr);
        double g0[6], g1[6];
        ENSURE(rf_bullet_point_impulse(p, pt, g0) == RF_OK);
        // what is carried: the impulse itself
        ENSURE(pt->m_appliedImpulse == (btScalar)g0[0]);
        ENSURE(pt->m_appliedImpulseLateral1 == (btScalar)g0[1]);
        ENSURE(pt->m_appliedImpulseLateral2 == (btScalar)g0[2]);
        rf_bullet_carried c;
        ENSURE(rf_bullet_point_carried(p, pt, &c) == RF_OK);
        ENSURE(c.spin == g0[3]);
        for (int k = 0; k < 3; ++k) {
            const double r = g0[4] * pt->m_lateralFrictionDir1[k] +
                             g0[5] * pt->m_lateralFrictionDir2[k];
            ENSURE_SMALL(c.roll[k] - r, 1e-6 * std::fabs(g0[4] + g0[5]));
        }
        const double n0 =
            std::sqrt(g0[0] * g0[0] + g0[1] * g0[1] + g0[2] * g0[2] +
                      g0[3] * g0[3] + g0[4] * g0[4] + g0[5] * g0[5]);
        // every component is there to be carried (the steady state)
        ENSURE(std::fabs(g0[3]) > 0.5 * torque * kDt);
        ENSURE(std::hypot(g0[4], g0[5]) > 1e-3 * n0);
        cfg.solver = RF_SOLVER_JACOBI;
        cfg.max_iter = 1;
        cfg.tol = 0.0;
        cfg.warm_start = warm;
        ENSURE(rf_bullet_set_config(p, &cfg, nullptr) == RF_OK);
        ball->applyTorque(btVector3(0, (btScalar)torque, 0));
        s.step(kDt);
        pt = only_point(s);
        ENSURE(pt != nullptr);
        ENSURE(rf_bullet_point_impulse(p, pt, g1) == RF_OK);
        for (int k = 0; k < 6; ++k) {
            err[warm] = std::max(err[warm], std::fabs(g1[k] - g0[k]) / n0);
        }
        rf_bullet_detach(p);
    }
    std::printf("  one Jacobi sweep from the carried start: moves the "
                "impulse by %.2e of |gamma| warm, %.2e cold\n",
                err[1], err[0]);
    ENSURE_LE(err[1], 1e-5);
    ENSURE(err[0] > 1e-3);
    return 0;
}

// A kinematic platform moving at 1 m/s carries a box resting on it
// (friction), and a no-response object is passed through.
int test_kinematic_and_no_response()
{
    Scene s;
    btTransform xf;
    xf.setIdentity();
    xf.setOrigin(btVector3(0, -0.5, 0));
    btRigidBody *plat = s.box(btVector3(50, 0.5, 50), 0.0, xf, 1.0);
    plat->setCollisionFlags(plat->getCollisionFlags() |
                            btCollisionObject::CF_KINEMATIC_OBJECT);
    plat->setActivationState(DISABLE_DEACTIVATION);
    xf.setOrigin(btVector3(0, 0.3, 0));
    btRigidBody *box = s.box(btVector3(0.3, 0.3, 0.3), 1.0, xf, 1.0);
    box->setActivationState(DISABLE_DEACTIVATION);
    xf.setOrigin(btVector3(5, 3, 0));
    btRigidBody *ghost = s.box(btVector3(0.3, 0.3, 0.3), 1.0, xf, 1.0);
    ghost->setCollisionFlags(ghost->getCollisionFlags() |
                             btCollisionObject::CF_NO_CONTACT_RESPONSE);
    rf_plugin *p = rf_bullet_attach(&s.world, nullptr);
    for (int i = 0; i < 60; ++i) {
        btTransform t;
        plat->getMotionState()->getWorldTransform(t);
        t.setOrigin(t.getOrigin() + btVector3((btScalar)kDt, 0, 0));
        plat->getMotionState()->setWorldTransform(t);
        s.step(kDt);
    }
    const double vx = box->getLinearVelocity().x();
    std::printf("  box on the platform: vx = %.4f m/s (platform 1), ghost y "
                "= %.2f m\n",
                vx, (double)ghost->getCenterOfMassPosition().y());
    ENSURE_SMALL(vx - 1.0, 1e-3);
    ENSURE(ghost->getCenterOfMassPosition().y() < -0.5); // fell through
    rf_bullet_detach(p);
    return 0;
}

// A linear factor (1, 1, 0) keeps a body in its plane even when contacts
// push along z (a slope whose normal has a z component).
int test_linear_factor()
{
    Scene s;
    s.ground(0.3, btVector3(0, 1, 0.4));
    btTransform xf;
    xf.setIdentity();
    xf.setOrigin(btVector3(0, 1, 0));
    btRigidBody *b = s.box(btVector3(0.3, 0.3, 0.3), 1.0, xf, 0.3);
    b->setLinearFactor(btVector3(1, 1, 0));
    b->setActivationState(DISABLE_DEACTIVATION);
    rf_plugin *p = rf_bullet_attach(&s.world, nullptr);
    s.step(kDt, 120);
    rf_stats st;
    rf_bullet_stats(p, &st);
    std::printf("  z = %.3g, vz = %.3g, y = %.3f (contacts %d)\n",
                (double)b->getCenterOfMassPosition().z(),
                (double)b->getLinearVelocity().z(),
                (double)b->getCenterOfMassPosition().y(), st.contacts);
    ENSURE(st.contacts > 0);
    ENSURE(b->getCenterOfMassPosition().z() == 0);
    ENSURE(b->getLinearVelocity().z() == 0);
    ENSURE(b->getCenterOfMassPosition().y() > 0); // held by the slope
    rf_bullet_detach(p);
    return 0;
}

// Angular factors.  Stock gives an impulse's angular
// part as f o (f o I^-1 tau) (the row's angular component carries f, and
// btSolverBody::internalApplyImpulse applies it again): the response
// diag(f^2) I^-1, which the cone takes exactly where it is symmetric.
//   - Uniform f = 0.5 on a solid ball (I = 2/5 m R^2) launched sliding at
//     v0 = 3 m/s on mu = 0.5 ground: friction slows it by mu g and spins
//     it up by f^2 mu m g R / I until it rolls, v = w R, at
//     v = v0 k / (1 + k), k = f^2 m R^2 / I = 0.625: 1.154 m/s (1%;
//     with f = 1 it would be 5/7 v0, with the former sqrt(f) scaling
//     1.667).  Stock lands there too (the same rule, checked).
//   - f = (0, 1, 0) on a box upright about y (its inertia couples no
//     axis with y): exact, no fallback; spun at 2 rad/s about y on mu =
//     0.1 ground, its four corners (r = 0.583 m) each carry m g / 4 and
//     slide, so w_y falls at mu m g r / I_yy = 5.05 rad/s^2: 0.99 rad/s
//     after 0.2 s (3%: the corners' loads settle in the first steps), and
//     w_x = w_z = 0 exactly.
//   - f = (0, 1, 0) on a box tilted about z (its inertia couples x and
//     y): diag(f^2) I^-1 is not symmetric, so the step goes to the stock
//     solver with a warning naming the body, and the box moves exactly as
//     in a stock world.
int test_angular_factor()
{
    const double g = 9.81;
    {
        const double R = 0.5, m = 1.0, v0 = 3.0, f = 0.5;
        const double k = f * f * m * R * R / (0.4 * m * R * R);
        double v[2];
        for (int cone = 0; cone < 2; ++cone) {
            Scene s(g);
            s.ground(0.5);
            btRigidBody *b =
                s.sphere(R, m, btVector3(0, (btScalar)R, 0), 1.0, 0);
            b->setAngularFactor((btScalar)f);
            b->setActivationState(DISABLE_DEACTIVATION);
            b->setLinearVelocity(btVector3((btScalar)v0, 0, 0));
            rf_plugin *p = cone ? rf_bullet_attach(&s.world, nullptr) : nullptr;
            s.step(kDt, 60);
            v[cone] = b->getLinearVelocity().x();
            if (p) {
                ENSURE(warning_count(p, RF_BULLET_WARN_FALLBACK) == 0);
                rf_bullet_detach(p);
            }
        }
        const double expect = v0 * k / (1.0 + k);
        std::printf("  ball with angular factor 0.5: v = %.4f m/s cone, "
                    "%.4f stock (%.4f)\n",
                    v[1], v[0], expect);
        ENSURE_SMALL(v[1] / expect - 1.0, 0.01);
        ENSURE_SMALL(v[0] / expect - 1.0, 0.01);
    }
    {
        const double m = 1.0, mu = 0.1, w0 = 2.0, t = 0.2;
        Scene s(g);
        s.ground(1.0);
        btTransform xf;
        xf.setIdentity();
        xf.setRotation(btQuaternion(btVector3(0, 1, 0), 0.5f));
        xf.setOrigin(btVector3(0, 0.2f, 0));
        btRigidBody *b = s.box(btVector3(0.5, 0.2, 0.3), m, xf, mu);
        b->setAngularFactor(btVector3(0, 1, 0));
        b->setActivationState(DISABLE_DEACTIVATION);
        rf_plugin *p = rf_bullet_attach(&s.world, nullptr);
        s.step(kDt, 30); // settle on its face
        b->setAngularVelocity(btVector3(0, (btScalar)w0, 0));
        s.step(kDt, (int)std::lround(t / kDt));
        const double r = std::sqrt(0.5 * 0.5 + 0.3 * 0.3);
        const double iyy = m / 12.0 * (1.0 * 1.0 + 0.6 * 0.6);
        const double expect = w0 - mu * m * g * r / iyy * t;
        const btVector3 w = b->getAngularVelocity();
        std::printf("  upright box, factor (0, 1, 0): w_y = %.4f rad/s after "
                    "%.1f s (%.4f)\n",
                    (double)w.y(), t, expect);
        ENSURE(warning_count(p, RF_BULLET_WARN_FALLBACK) == 0);
        ENSURE(w.x() == 0 && w.z() == 0);
        ENSURE_SMALL(w.y() / expect - 1.0, 0.03);
        rf_bullet_detach(p);
    }
    {
        btVector3 end[2];
        rf_bullet_warning_info info{};
        for (int cone = 0; cone < 2; ++cone) {
            Scene s(g);
            s.ground(0.5);
            btTransform xf;
            xf.setIdentity();
            xf.setRotation(btQuaternion(btVector3(0, 0, 1), 0.5f));
            xf.setOrigin(btVector3(0, 1.0f, 0));
            btRigidBody *b = s.box(btVector3(0.5, 0.2, 0.3), 1.0, xf, 0.5);
            b->setAngularFactor(btVector3(0, 1, 0));
            b->setActivationState(DISABLE_DEACTIVATION);
            b->setAngularVelocity(btVector3(0, 1, 0));
            rf_plugin *p = cone ? rf_bullet_attach(&s.world, nullptr) : nullptr;
            s.step(kDt, 90); // falls, lands on an edge, slides
            end[cone] = b->getCenterOfMassPosition();
            if (p) {
                ENSURE(rf_bullet_get_warning(p, RF_BULLET_WARN_FALLBACK,
                                             &info) == RF_OK);
                ENSURE(info.object == b);
                rf_bullet_detach(p);
            }
        }
        std::printf("  tilted box, factor (0, 1, 0): %ld steps refused "
                    "(\"%.40s...\"); end y %.4f cone, %.4f stock\n",
                    info.count, info.message, (double)end[1].y(),
                    (double)end[0].y());
        ENSURE(info.count > 0);
        ENSURE(end[0] == end[1]); // the stock solver's steps, bit for bit
    }
    return 0;
}

// Impulses are readable afterwards: on a ball rolling on the ground the
// rolling part of the point's 6D impulse saturates its cone,
// |(tu, tw)| = rho gn (Tasora (7)), gn ~ m g h, and gn, gu, gw equal the
// point's m_appliedImpulse, m_appliedImpulseLateral1/2.
int test_point_impulse()
{
    const double rho = 0.036, m = 2.0, g = 9.81;
    Scene s(g);
    s.ground(1.0);
    btRigidBody *b = s.sphere(0.5, m, btVector3(0, 0.5, 0), 0.9, rho);
    b->setActivationState(DISABLE_DEACTIVATION);
    b->setLinearVelocity(btVector3(2, 0, 0));
    b->setAngularVelocity(btVector3(0, 0, -4));
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.model = RF_MODEL_DESAXCE; // no dilatancy gap: gn = m g h exactly
    rf_plugin *p = rf_bullet_attach(&s.world, &cfg);
    s.step(kDt, 30);
    btDispatcher *d = s.world.getDispatcher();
    ENSURE(d->getNumManifolds() == 1);
    btPersistentManifold *man = d->getManifoldByIndexInternal(0);
    // Bullet keeps up to four points for a sphere on a plane (perturbed
    // copies and points left behind by the rolling, slightly above the
    // plane): the loaded ones saturate their rolling cones.
    double gn_sum = 0;
    int loaded = 0;
    for (int j = 0; j < man->getNumContacts(); ++j) {
        const btManifoldPoint &pt = man->getContactPoint(j);
        double gamma[6];
        ENSURE(rf_bullet_point_impulse(p, &pt, gamma) == RF_OK);
        const double roll = std::hypot(gamma[4], gamma[5]);
        std::printf("  point %d: gn = %.5f N s, |roll| = %.3g rho gn\n", j,
                    gamma[0], gamma[0] > 0 ? roll / (rho * gamma[0]) : 0.0);
        gn_sum += gamma[0];
        if (gamma[0] > 1e-3 * m * g * kDt) {
            ++loaded;
            ENSURE_SMALL(roll / (rho * gamma[0]) - 1, 1e-4);
        }
        ENSURE_SMALL(gamma[0] - pt.m_appliedImpulse, 1e-6);
        ENSURE_SMALL(gamma[1] - pt.m_appliedImpulseLateral1, 1e-6);
        ENSURE_SMALL(gamma[2] - pt.m_appliedImpulseLateral2, 1e-6);
    }
    std::printf("  sum gn = %.5f N s (m g h = %.5f)\n", gn_sum, m * g * kDt);
    ENSURE(loaded >= 1);
    ENSURE_SMALL(gn_sum / (m * g * kDt) - 1, 0.01);
    btManifoldPoint other;
    double gamma[6];
    ENSURE(rf_bullet_point_impulse(p, &other, gamma) == RF_ERR_RANGE);
    rf_bullet_detach(p);
    return 0;
}

// Warm start carries all six components: a resting stack needs fewer
// iterations per step with it than without.
int test_warm_start()
{
    double mean[2];
    for (int warm = 0; warm < 2; ++warm) {
        Scene s;
        s.ground(0.6);
        for (int k = 0; k < 6; ++k) {
            btTransform xf;
            xf.setIdentity();
            xf.setOrigin(btVector3(0, (btScalar)(0.5 + k), 0));
            s.box(btVector3(0.5, 0.5, 0.5), 1.0, xf, 0.6)
                ->setActivationState(DISABLE_DEACTIVATION);
        }
        for (auto &b : s.bodies) {
            b->setRollingFriction(0.01);
            b->setSpinningFriction(0.01);
        }
        rf_config cfg;
        rf_config_default(&cfg);
        cfg.warm_start = warm;
        rf_plugin *p = rf_bullet_attach(&s.world, &cfg);
        s.step(kDt, 60);
        long total = 0;
        for (int i = 0; i < 60; ++i) {
            s.step(kDt);
            rf_stats st;
            rf_bullet_stats(p, &st);
            total += st.iterations;
        }
        mean[warm] = total / 60.0;
        rf_bullet_detach(p);
    }
    std::printf("  iterations per step: cold %.1f, warm %.1f\n", mean[0],
                mean[1]);
    ENSURE_LE(mean[1], 0.5 * mean[0]);
    return 0;
}

int test_config_from_env()
{
    rf_config c;
    rf_config_default(&c);
    rf_error err;
    setenv("ROLLFRIC_SOLVER", "gs", 1);
    setenv("ROLLFRIC_ITERATIONS", "7", 1);
    setenv("ROLLFRIC_THREADS", "2", 1);
    ENSURE(rf_bullet_config_from_env(&c, &err) == RF_OK);
    ENSURE(c.solver == RF_SOLVER_GS && c.max_iter == 7 && c.tol == 0.0 &&
           c.threads == 2);
    setenv("ROLLFRIC_TOLERANCE", "1e-6", 1);
    setenv("ROLLFRIC_MODEL", "desaxce", 1);
    ENSURE(rf_bullet_config_from_env(&c, &err) == RF_OK);
    ENSURE(c.max_iter == 7 && c.tol == 1e-6 && c.model == RF_MODEL_DESAXCE);
    setenv("ROLLFRIC_SOLVER", "newton", 1);
    ENSURE(rf_bullet_config_from_env(&c, &err) == RF_ERR_INVALID);
    ENSURE(std::strstr(err.message, "ROLLFRIC_SOLVER='newton'") != nullptr);
    ENSURE(c.solver == RF_SOLVER_GS); // untouched on error
    unsetenv("ROLLFRIC_SOLVER");
    setenv("ROLLFRIC_ITERATIONS", "-3", 1);
    ENSURE(rf_bullet_config_from_env(&c, &err) == RF_ERR_INVALID);
    ENSURE(std::strstr(err.message, "ROLLFRIC_ITERATIONS") != nullptr);
    unsetenv("ROLLFRIC_ITERATIONS");
    setenv("ROLLFRIC_TOLERANCE", "abc", 1);
    ENSURE(rf_bullet_config_from_env(&c, &err) == RF_ERR_INVALID);
    unsetenv("ROLLFRIC_TOLERANCE");
    unsetenv("ROLLFRIC_THREADS");
    unsetenv("ROLLFRIC_MODEL");
    ENSURE(rf_bullet_config_from_env(nullptr, &err) == RF_ERR_NULL);
    return 0;
}

// ---- A manifold that the application's solver call lists twice ----------

// The converged cone solve of test_manifold_listed_twice: Gauss-Seidel to
// a residual of 1e-10 (at most 5000 sweeps; it takes tens), De Saxce's
// model (with the associated one a sliding box lifts off by mu |v_t| h a
// step and its manifold empties), on `threads` threads.
rf_config converged_gs(int threads)
{
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.solver = RF_SOLVER_GS;
    cfg.model = RF_MODEL_DESAXCE;
    cfg.tol = 1e-10;
    cfg.max_iter = 5000;
    cfg.threads = threads;
    return cfg;
}

// cols x cols columns, 2 m apart, of two 1 kg unit boxes, one on the
// other, on a static ground box (top face y = 0), both boxes sliding at 1
// m/s along the angle 0.7 k (column k) in the ground plane, so that the
// friction impulses point another way in every column.  Friction 0.3 on
// the ground, 0.6 on the boxes (combined 0.18 under a column, 0.36
// between its boxes: the top box rides along; the columns stop after
// about 0.57 s).  rolling: the boxes' rolling and spinning friction, m.
// The boxes never sleep; they are s.bodies[1..], column by column.
void sliding_columns(Scene &s, int cols, double rolling)
{
    btTransform xf;
    xf.setIdentity();
    xf.setOrigin(btVector3(0, -0.5, 0));
    const btScalar half = (btScalar)(2.0 * cols + 1);
    s.add(new btBoxShape(btVector3(half, 0.5, half)), 0.0, xf, 0.3);
    for (int k = 0; k < cols * cols; ++k) {
        const btVector3 v((btScalar)std::cos(0.7 * k), 0,
                          (btScalar)std::sin(0.7 * k));
        for (int level = 0; level < 2; ++level) {
            xf.setOrigin(btVector3((btScalar)(2 * (k % cols)),
                                   (btScalar)(0.5 + level),
                                   (btScalar)(2 * (k / cols))));
            btRigidBody *b = s.box(btVector3(0.5, 0.5, 0.5), 1.0, xf, 0.6);
            b->setRollingFriction((btScalar)rolling);
            b->setSpinningFriction((btScalar)rolling);
            b->setActivationState(DISABLE_DEACTIVATION);
            b->setLinearVelocity(v);
        }
    }
}

// How hand_solve lists the dispatcher's manifolds: each once; each once
// and then the ground's (s.bodies[0]) again, as [m0, m1, m0]; or the
// whole list twice.
enum Listing { kOnce, kGroundTwice, kAllTwice };

// One contact solve of s's world by hand, through the world's solver as
// stepSimulation calls it (prepareSolve, solveGroup, allSolved), with the
// manifolds listed as `how` says: gravity applied, collision detection
// run, the dynamic bodies and the manifolds handed over, the forces
// cleared after; no position integration.  Before the solve every
// point's friction frame is stretched to length 2 and its lateral
// impulses halved: the warm start reads the same (the shim normalises
// the direction's projection on the contact plane, and dir x impulse is
// unchanged, exactly: powers of two), but a frame the shim does not write
// back shows as |t| = 2.
void hand_solve(Scene &s, Listing how)
{
    s.world.applyGravity();
    s.world.performDiscreteCollisionDetection();
    btDispatcher *d = s.world.getDispatcher();
    std::vector<btPersistentManifold *> ms;
    for (int i = 0; i < d->getNumManifolds(); ++i) {
        btPersistentManifold *m = d->getManifoldByIndexInternal(i);
        for (int j = 0; j < m->getNumContacts(); ++j) {
            btManifoldPoint &cp = m->getContactPoint(j);
            cp.m_lateralFrictionDir1 *= 2;
            cp.m_lateralFrictionDir2 *= 2;
            cp.m_appliedImpulseLateral1 *= 0.5f;
            cp.m_appliedImpulseLateral2 *= 0.5f;
        }
        ms.push_back(m);
    }
    const size_t once = ms.size();
    for (size_t i = 0; how != kOnce && i < once; ++i) {
        const btCollisionObject *ground = s.bodies[0].get();
        if (how == kAllTwice || ms[i]->getBody0() == ground ||
            ms[i]->getBody1() == ground) {
            ms.push_back(ms[i]);
        }
    }
    std::vector<btCollisionObject *> bodies;
    for (auto &b : s.bodies) {
        if (b->getInvMass() > 0) {
            bodies.push_back(b.get());
        }
    }
    btContactSolverInfo info = s.world.getSolverInfo();
    info.m_timeStep = (btScalar)kDt;
    btConstraintSolver *solver = s.world.getConstraintSolver();
    solver->prepareSolve((int)bodies.size(), (int)ms.size());
    solver->solveGroup(bodies.data(), (int)bodies.size(), ms.data(),
                       (int)ms.size(), nullptr, 0, info, nullptr, d);
    solver->allSolved(info, nullptr);
    s.world.clearForces();
}

// The largest difference of the boxes' linear and angular velocities
// between two worlds built alike, m/s and rad/s.
double velocity_gap(const Scene &a, const Scene &b)
{
    double gap = 0.0;
    for (size_t k = 0; k < a.bodies.size(); ++k) {
        const btRigidBody *x = a.bodies[k].get(), *y = b.bodies[k].get();
        gap = std::max(
            gap,
            (double)(x->getLinearVelocity() - y->getLinearVelocity()).length());
        gap = std::max(
            gap, (double)(x->getAngularVelocity() - y->getAngularVelocity())
                     .length());
    }
    return gap;
}

// How far a point's friction frame is from an orthonormal one with the
// normal: the largest of | |t1| - 1 |, | |t2| - 1 |, |n.t1|, |n.t2|,
// |t1.t2| (NaN for a non-finite frame, which then fails every bound).
double frame_error(const btManifoldPoint &cp)
{
    const btVector3 &n = cp.m_normalWorldOnB, &t1 = cp.m_lateralFrictionDir1,
                    &t2 = cp.m_lateralFrictionDir2;
    const double e[5] = {std::fabs(t1.length() - 1), std::fabs(t2.length() - 1),
                         std::fabs(n.dot(t1)), std::fabs(n.dot(t2)),
                         std::fabs(t1.dot(t2))};
    double worst = 0.0;
    for (double x : e) {
        if (!(x <= worst)) {
            worst = x; // NaN sticks
        }
    }
    return worst;
}

// A manifold that the application's solveGroup call lists twice (the
// shim's gather_contacts finds it by its dispatcher index; the points are
// then built on one thread, their frames written in write_points, in
// order, so the last listing's impulse and frame are what Bullet keeps).
// Two identical worlds (world A, B) step alike under the converged solve
// (converged_gs); then one step is solved by hand (hand_solve), A listing
// every manifold once, B listing the ground's twice.  The two listings
// are the same constraints: the sum of a solution's two impulses at a
// point is a solution with the point listed once, at the same velocities
// (the cone is convex; De Saxce's correction depends on the velocity
// only), so the converged solves give the same velocities (1e-6 m/s: the
// residual is 1e-10; observed 2e-10 here, 2e-8 in the large case below,
// with rolling friction) while the impulse may split
// between the two listings.  Then both worlds step on normally: the
// repeat changed only one step's warm start (B's points keep the last
// listing's share), which a converged solve forgets, so the boxes end
// where A's do (1e-5 m: 60 steps of float Bullet's integration round-off
// at 1e-7 m each, and the solver's tolerance; observed 1e-12).  Last,
// the parallel path: 100 such columns (800 points: from 512 points on, the
// shim fills and writes its contacts on its 2 threads, except that with a
// repeat it does so on one) listed twice each, against a twin world
// listing them once.
int test_manifold_listed_twice()
{
    const double tol_v = 1e-6;
    Scene a, b;
    Scene *sc[2] = {&a, &b};
    rf_plugin *p[2];
    const rf_config cfg = converged_gs(1);
    for (int w = 0; w < 2; ++w) {
        sliding_columns(*sc[w], 1, 0.0);
        p[w] = rf_bullet_attach(&sc[w]->world, &cfg);
        ENSURE(p[w] != nullptr);
        sc[w]->step(kDt, 5);
        ENSURE(sc[w]->world.getDispatcher()->getNumManifolds() == 2);
    }
    hand_solve(a, kOnce);
    hand_solve(b, kGroundTwice);
    rf_stats st[2];
    for (int w = 0; w < 2; ++w) {
        ENSURE(rf_bullet_stats(p[w], &st[w]) == RF_OK);
        ENSURE(st[w].converged == 1);
    }
    // A: 2 manifolds of 4 points; B: the ground's 4 once more
    ENSURE(st[0].contacts == 8 && st[1].contacts == 12);
    const double gap = velocity_gap(a, b);
    // the solve did act: the contact stops the bottom box's fall (its free
    // velocity is -g h = -0.16 m/s; observed 1e-11), and it slides on
    const btVector3 v0 = a.bodies[1]->getLinearVelocity();
    std::printf("  one step, ground manifold listed twice: %d / %d sweeps, "
                "|v_A - v_B| <= %.2g (v_A = (%.4f, %.2g, %.2g) m/s)\n",
                st[0].iterations, st[1].iterations, gap, v0.x(), v0.y(),
                v0.z());
    ENSURE_LE(gap, tol_v);
    ENSURE_SMALL(v0.y(), 1e-3);
    ENSURE(v0.x() > 0.5);

    // The ground manifold's points, A's and B's (alike: same scene, same
    // steps).  Each of B's points was two contacts of the solve, which
    // shared its impulse (the first listing took part of it: observed 0.015
    // of the face's 0.33 N s); the point reports their sum, in
    // m_appliedImpulse and rf_bullet_point_impulse alike (write_back.cpp,
    // fold_repeated_points: the bodies received both).  Bullet's four
    // points of a face are statically indeterminate (four normal impulses,
    // three equations: the weight and two moments), so two converged
    // solves may differ along that one pattern (+, -, +, -) at each point
    // (observed 3e-5 N s): per point, 1e-3 N s (0.3% of the face's m g h =
    // 0.33 N s).  The face's total is fixed by the velocities (momentum),
    // 1e-6 N s (float m_appliedImpulse: 3e-8).  Reporting one listing's
    // share instead (the last one's was the point's before) misses A's
    // by 0.04 N s at a point.
    const btCollisionObject *ground_b = b.bodies[0].get();
    btPersistentManifold *ma = nullptr, *mb = nullptr;
    for (int i = 0; i < 2; ++i) {
        btPersistentManifold *m =
            b.world.getDispatcher()->getManifoldByIndexInternal(i);
        if (m->getBody0() == ground_b || m->getBody1() == ground_b) {
            mb = m;
            ma = a.world.getDispatcher()->getManifoldByIndexInternal(i);
        }
    }
    ENSURE(ma != nullptr && mb != nullptr);
    ENSURE(ma->getNumContacts() == 4 && mb->getNumContacts() == 4);
    double total_a = 0, total_b = 0, moved = 0;
    double frame_err = 0;
    for (int j = 0; j < 4; ++j) {
        const btManifoldPoint &pa = ma->getContactPoint(j);
        const btManifoldPoint &pb = mb->getContactPoint(j);
        ENSURE((pa.getPositionWorldOnB() - pb.getPositionWorldOnB()).length() <
               1e-6); // the same point
        double ga[6], gb[6];
        ENSURE(rf_bullet_point_impulse(p[0], &pa, ga) == RF_OK);
        ENSURE_SMALL(ga[0] - pa.m_appliedImpulse, 1e-6); // A: one listing
        ENSURE(rf_bullet_point_impulse(p[1], &pb, gb) == RF_OK);
        std::printf("  point %d: gn A %.6f N s; B (both listings) %.6f, "
                    "m_appliedImpulse %.6f\n",
                    j, (double)pa.m_appliedImpulse, gb[0],
                    (double)pb.m_appliedImpulse);
        ENSURE(std::isfinite(pb.m_appliedImpulse) && pb.m_appliedImpulse >= 0);
        // the API and the point agree (float rounding of the point's copy)
        ENSURE_SMALL(gb[0] - pb.m_appliedImpulse, 1e-6);
        ENSURE_SMALL(gb[1] - pb.m_appliedImpulseLateral1, 1e-6);
        ENSURE_SMALL(gb[2] - pb.m_appliedImpulseLateral2, 1e-6);
        ENSURE_SMALL(gb[0] - pa.m_appliedImpulse, 1e-3);
        // the frames: a fresh orthonormal one, A's written by add_point,
        // B's by write_points (hand_solve spoiled them); float, 1e-5
        frame_err = std::max({frame_err, frame_error(pa), frame_error(pb)});
        ENSURE_LE(frame_error(pa), 1e-5);
        ENSURE_LE(frame_error(pb), 1e-5);
        total_a += pa.m_appliedImpulse;
        total_b += pb.m_appliedImpulse;
        moved = std::max(moved, std::fabs(gb[0] - (double)pa.m_appliedImpulse));
    }
    std::printf("  face total: A %.7f N s, B %.7f; a point off A's by up to "
                "%.1e N s; frames orthonormal to %.1e\n",
                total_a, total_b, moved, frame_err);
    ENSURE_SMALL(total_b - total_a, 1e-6);

    for (int i = 0; i < 60; ++i) {
        a.step(kDt);
        b.step(kDt);
    }
    double dx = 0;
    for (size_t k = 1; k < a.bodies.size(); ++k) {
        dx = std::max(dx, (double)(a.bodies[k]->getCenterOfMassPosition() -
                                   b.bodies[k]->getCenterOfMassPosition())
                              .length());
    }
    const double slid = a.bodies[1]->getCenterOfMassPosition().x();
    std::printf("  60 steps on: |x_A - x_B| <= %.2g m (slid %.3f m)\n", dx,
                slid);
    ENSURE_LE(dx, 1e-5);
    ENSURE(slid > 0.2); // it did slide (1 m/s, 0.18 g: 0.28 m)
    rf_bullet_detach(p[0]);
    rf_bullet_detach(p[1]);

    // The parallel path: 100 columns with rolling and spinning friction
    // (the points then carry a state, attached in write_points), 2
    // threads, every manifold listed twice in B.
    Scene big[2];
    const rf_config par = converged_gs(2);
    for (int w = 0; w < 2; ++w) {
        sliding_columns(big[w], 10, 0.01);
        p[w] = rf_bullet_attach(&big[w].world, &par);
        ENSURE(p[w] != nullptr);
        big[w].step(kDt, 5);
        hand_solve(big[w], w == 0 ? kOnce : kAllTwice);
        ENSURE(rf_bullet_stats(p[w], &st[w]) == RF_OK);
        ENSURE(st[w].converged == 1);
    }
    rf_bullet_timing tm; // the step ran on the 2 threads asked for
    ENSURE(rf_bullet_timing_get(p[0], &tm) == RF_OK);
    ENSURE(tm.threads == 2);
    ENSURE(st[0].contacts >= 600 && st[1].contacts == 2 * st[0].contacts);
    btDispatcher *d = big[1].world.getDispatcher();
    int points = 0;
    double worst_frame = 0;
    for (int i = 0; i < d->getNumManifolds(); ++i) {
        btPersistentManifold *m = d->getManifoldByIndexInternal(i);
        for (int j = 0; j < m->getNumContacts(); ++j) {
            const btManifoldPoint &cp = m->getContactPoint(j);
            ENSURE(std::isfinite(cp.m_appliedImpulse) &&
                   cp.m_appliedImpulse >= 0);
            ENSURE(std::isfinite(cp.m_appliedImpulseLateral1) &&
                   std::isfinite(cp.m_appliedImpulseLateral2));
            worst_frame = std::max(worst_frame, frame_error(cp));
            ENSURE_LE(frame_error(cp), 1e-5);
            double g6[6];
            ENSURE(rf_bullet_point_impulse(p[1], &cp, g6) == RF_OK);
            for (double x : g6) {
                ENSURE(std::isfinite(x));
            }
            // what the point carries (its state attached in write_points,
            // once for both listings)
            rf_bullet_carried c;
            ENSURE(rf_bullet_point_carried(p[1], &cp, &c) == RF_OK);
            ENSURE(std::isfinite(c.spin) && std::isfinite(c.roll[0]) &&
                   std::isfinite(c.roll[1]) && std::isfinite(c.roll[2]));
            ++points;
        }
    }
    const double big_gap = velocity_gap(big[0], big[1]);
    std::printf("  %d points listed twice (%d contacts), 2 threads: %d / %d "
                "sweeps, |v_A - v_B| <= %.2g, frames to %.1e\n",
                points, st[1].contacts, st[0].iterations, st[1].iterations,
                big_gap, worst_frame);
    ENSURE(points == st[0].contacts);
    ENSURE_LE(big_gap, tol_v);
    rf_bullet_detach(p[0]);
    rf_bullet_detach(p[1]);
    return 0;
}

} // namespace

int main()
{
    RUN_TEST(test_attach_detach);
    RUN_TEST(test_multibody_world_refused);
    RUN_TEST(test_soft_rigid_world);
    RUN_TEST(test_mt_world_every_island);
    RUN_TEST(test_precision_mismatch);
    RUN_TEST(test_struct_sizes);
    RUN_TEST(test_stock_mode_is_stock);
    RUN_TEST(test_free_motion_parity);
    RUN_TEST(test_gyroscopic_flags_parity);
    RUN_TEST(test_gyroscopic_info_passed);
    RUN_TEST(test_restitution);
    RUN_TEST(test_bounce_height);
    RUN_TEST(test_cohesion_ceiling);
    RUN_TEST(test_contact_stiffness);
    RUN_TEST(test_plastic_indentation);
    RUN_TEST(test_kinematic_and_no_response);
    RUN_TEST(test_linear_factor);
    RUN_TEST(test_angular_factor);
    RUN_TEST(test_point_impulse);
    RUN_TEST(test_warm_start);
    RUN_TEST(test_warm_start_components);
    RUN_TEST(test_dent_survives_stock_step);
    RUN_TEST(test_reallocated_manifold_starts_clean);
    RUN_TEST(test_object_state_not_inherited);
    RUN_TEST(test_application_point_data);
    RUN_TEST(test_config_from_env);
    RUN_TEST(test_manifold_listed_twice);
    return TEST_SUMMARY();
}
