// A plain Bullet program that knows nothing of rollfric (the LD_PRELOAD
// test runs it with and without librollfric_preload.so).  A 100 kg ball
// (R = 0.5 m, rolling friction 0.036 m) is launched rolling without slip
// at 2 m/s, heading 45 degrees, on a ground plane (friction 1, so the
// combined rolling friction is 0.036 m); after 6 s of 1/60 s
// steps the program prints how far it went and how fast it still goes.
// With --no-cleanup it returns without removing the bodies or deleting
// the world, as many programs do (the bodies, on main's stack, are gone
// by the time exit handlers run; the world is leaked).  With --mt the
// world is a btDiscreteDynamicsWorldMt (a solver pool of two, a solver for
// large islands, Bullet's sequential task scheduler), as a program written
// for Bullet's multithreaded world builds it.  With --multibody it only
// builds a btMultiBodyDynamicsWorld, steps it once and prints
// "multibody" (rollfric does not take such a world, and says so).  With
// --bad-friction the ground's friction is -1 (a warning every step), with
// --steps N it steps N times instead of 360, with --exit-status N it
// returns N and with --crash it ends on SIGSEGV after its steps (the
// launcher's tests of a failing application).
#include <BulletDynamics/ConstraintSolver/btSequentialImpulseConstraintSolverMt.h>
#include <BulletDynamics/Featherstone/btMultiBodyConstraintSolver.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>
#include <BulletDynamics/Dynamics/btDiscreteDynamicsWorldMt.h>
#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char **argv)
{
    bool cleanup = true, mt = false, bad = false, crash = false;
    int steps = 360, status = 0;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
            steps = std::atoi(argv[i + 1]);
        }
        if (std::strcmp(argv[i], "--exit-status") == 0 && i + 1 < argc) {
            status = std::atoi(argv[i + 1]);
        }
        cleanup = cleanup && std::strcmp(argv[i], "--no-cleanup") != 0;
        mt = mt || std::strcmp(argv[i], "--mt") == 0;
        bad = bad || std::strcmp(argv[i], "--bad-friction") == 0;
        crash = crash || std::strcmp(argv[i], "--crash") == 0;
    }
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher(&config);
    btDbvtBroadphase broadphase;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--multibody") == 0) {
            btMultiBodyConstraintSolver mb_solver;
            btMultiBodyDynamicsWorld mb_world(&dispatcher, &broadphase,
                                              &mb_solver, &config);
            mb_world.stepSimulation(1.0 / 60, 1, 1.0 / 60);
            std::printf("multibody\n");
            return 0;
        }
    }
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld *world = nullptr;
    btConstraintSolverPoolMt *pool_mt = nullptr; // owns its two solvers
    btConstraintSolver *solver_mt = nullptr;
    if (mt) {
        btSetTaskScheduler(btGetSequentialTaskScheduler());
        btConstraintSolver *pool[2] = {
            new btSequentialImpulseConstraintSolverMt,
            new btSequentialImpulseConstraintSolverMt};
        pool_mt = new btConstraintSolverPoolMt(pool, 2);
        solver_mt = new btSequentialImpulseConstraintSolverMt;
        world = new btDiscreteDynamicsWorldMt(&dispatcher, &broadphase, pool_mt,
                                              solver_mt, &config);
    } else {
        world = new btDiscreteDynamicsWorld(&dispatcher, &broadphase, &solver,
                                            &config);
    }
    world->setGravity(btVector3(0, -9.81, 0));

    btStaticPlaneShape plane(btVector3(0, 1, 0), 0);
    btRigidBody ground(0, nullptr, &plane);
    ground.setFriction(bad ? -1.0 : 1.0);
    world->addRigidBody(&ground);

    const btScalar R = 0.5, mass = 100;
    btSphereShape sphere(R);
    btVector3 inertia;
    sphere.calculateLocalInertia(mass, inertia);
    btDefaultMotionState state(
        btTransform(btQuaternion::getIdentity(), btVector3(0, R, 0)));
    btRigidBody ball(mass, &state, &sphere, inertia);
    ball.setFriction(0.9);
    ball.setRollingFriction(0.036);
    ball.setActivationState(DISABLE_DEACTIVATION);
    const btVector3 v(std::sqrt(2.0), 0, std::sqrt(2.0));
    ball.setLinearVelocity(v);
    ball.setAngularVelocity(btVector3(v.z() / R, 0, -v.x() / R));
    world->addRigidBody(&ball);

    for (int i = 0; i < steps; ++i) {
        world->stepSimulation(1.0 / 60, 1, 1.0 / 60);
    }
    if (crash) {
        std::fflush(stdout);
        std::raise(SIGSEGV);
    }
    const btVector3 x = ball.getCenterOfMassPosition();
    std::printf("distance %.6f speed %.6f heading %.4f\n",
                std::sqrt(x.x() * x.x() + x.z() * x.z()),
                (double)ball.getLinearVelocity().length(),
                std::atan2((double)x.z(), (double)x.x()) * 180 / M_PI);
    if (cleanup) {
        world->removeRigidBody(&ball);
        world->removeRigidBody(&ground);
        delete world;
        delete solver_mt;
        delete pool_mt;
    }
    return status;
}
