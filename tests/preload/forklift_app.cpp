// A ForkLift-like Bullet program (Bullet 3.24's ForkLiftDemo installs
// btMLCPSolver because sequential impulse cannot lift a 350 kg load on a
// 5 kg fork): a 5 kg fork (1 x 0.1 x 1 m) on a vertical slider joint to
// the world, its motor driving it up at 0.5 m/s (at most 4000 N), a
// 350 kg box (0.8 m) resting on it, a ground below.  Knows nothing of
// rollfric; the LD_PRELOAD test (forklift.sh) runs it.
//   forklift_app mlcp|si [--switch]
// mlcp: btMLCPSolver with Dantzig's method (as ForkLiftDemo), si:
// btSequentialImpulseConstraintSolver; --switch: the world starts with
// the other solver and the program installs the named one after 0.5 s
// (setConstraintSolver, as ForkLiftDemo's solver switch does).  After 2 s
// prints "load R fork R off E": how far the load and the fork rose (m)
// and the fork's largest distance from the slider's axis (m).
#include <BulletDynamics/MLCPSolvers/btDantzigSolver.h>
#include <BulletDynamics/MLCPSolvers/btMLCPSolver.h>
#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <cstdio>
#include <cstring>

int main(int argc, char **argv)
{
    const bool mlcp = argc > 1 && std::strcmp(argv[1], "mlcp") == 0;
    const bool switch_later = argc > 2 && std::strcmp(argv[2], "--switch") == 0;
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher(&config);
    btDbvtBroadphase broadphase;
    btDantzigSolver dantzig;
    btMLCPSolver mlcp_solver(&dantzig);
    btSequentialImpulseConstraintSolver si_solver;
    btConstraintSolver *wanted =
        mlcp ? (btConstraintSolver *)&mlcp_solver : &si_solver;
    btConstraintSolver *other =
        mlcp ? (btConstraintSolver *)&si_solver : &mlcp_solver;
    btDiscreteDynamicsWorld world(&dispatcher, &broadphase,
                                  switch_later ? other : wanted, &config);
    world.setGravity(btVector3(0, -10, 0));

    btBoxShape ground_shape(btVector3(50, 1, 50));
    btTransform xf;
    xf.setIdentity();
    xf.setOrigin(btVector3(0, -1, 0));
    btRigidBody ground(0, nullptr, &ground_shape);
    ground.setWorldTransform(xf);
    world.addRigidBody(&ground);

    btBoxShape fork_shape(btVector3(0.5f, 0.05f, 0.5f));
    btVector3 inertia;
    fork_shape.calculateLocalInertia(5, inertia);
    xf.setOrigin(btVector3(0, 0.3f, 0));
    btDefaultMotionState fork_state(xf);
    btRigidBody fork(5, &fork_state, &fork_shape, inertia);
    fork.setActivationState(DISABLE_DEACTIVATION);
    world.addRigidBody(&fork);

    btBoxShape load_shape(btVector3(0.4f, 0.4f, 0.4f));
    load_shape.calculateLocalInertia(350, inertia);
    xf.setOrigin(btVector3(0, 0.3f + 0.05f + 0.4f, 0));
    btDefaultMotionState load_state(xf);
    btRigidBody load(350, &load_state, &load_shape, inertia);
    load.setActivationState(DISABLE_DEACTIVATION);
    world.addRigidBody(&load);

    // the slider's axis (its frame's x) along world y
    btTransform frame;
    frame.setIdentity();
    frame.setRotation(btQuaternion(btVector3(0, 0, 1), SIMD_HALF_PI));
    btSliderConstraint slider(fork, frame, true);
    slider.setLowerLinLimit(0);
    slider.setUpperLinLimit(2);
    slider.setLowerAngLimit(0);
    slider.setUpperAngLimit(0);
    slider.setPoweredLinMotor(true);
    slider.setMaxLinMotorForce(4000);
    slider.setTargetLinMotorVelocity(0.5f);
    world.addConstraint(&slider, true);

    const double fork0 = fork.getCenterOfMassPosition().y();
    const double load0 = load.getCenterOfMassPosition().y();
    double off = 0.0;
    for (int i = 0; i < 120; ++i) {
        if (switch_later && i == 30) {
            world.setConstraintSolver(wanted);
        }
        world.stepSimulation(1.0f / 60, 1, 1.0f / 60);
        const btVector3 f = fork.getCenterOfMassPosition();
        off =
            std::fmax(off, std::sqrt((double)(f.x() * f.x() + f.z() * f.z())));
    }
    std::printf("load %.4f fork %.4f off %.5f\n",
                load.getCenterOfMassPosition().y() - load0,
                fork.getCenterOfMassPosition().y() - fork0, off);
    world.removeConstraint(&slider);
    world.removeRigidBody(&load);
    world.removeRigidBody(&fork);
    world.removeRigidBody(&ground);
    return 0;
}
