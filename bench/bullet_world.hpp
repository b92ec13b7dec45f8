// One Bullet world and everything put into it, shared by rfbench_bullet
// (bench/bullet_pile.cpp), the soak (tests/soak/soak.cpp) and the shim
// tests (tests/bullet_scene.hpp): the collision configuration, dispatcher,
// broadphase, solver and dynamics world, gravity along -y, the shapes,
// motion states, bodies and joints the world holds (owned here), and the
// teardown (joints, then bodies, out of the world before anything is
// freed).  Header-only.
//
// Where the three differ, a parameter: the solver and world classes
// (rfbench_bullet subclasses both to time them), gravity (the tests vary
// it) and the collision configuration's construction info (the soak sizes
// Bullet's manifold and collision-algorithm pools).  add_body makes the
// plain body with a motion state that the tests and rfbench_bullet's
// dynamic bodies are; the soak's bodies (kinematic walls, spheres from
// construction info) and rfbench_bullet's static planes (no motion state)
// are made by their programs, into the same lists.
#ifndef ROLLFRIC_BENCH_BULLET_WORLD_HPP
#define ROLLFRIC_BENCH_BULLET_WORLD_HPP

#include <btBulletDynamicsCommon.h>

#include <memory>
#include <vector>

namespace rfbullet {

template <class Solver = btSequentialImpulseConstraintSolver,
          class DynamicsWorld = btDiscreteDynamicsWorld>
struct World {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    Solver solver;
    DynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btMotionState>> states;
    std::vector<std::unique_ptr<btRigidBody>> bodies;
    std::vector<std::unique_ptr<btTypedConstraint>> joints;

    // g: gravity along -y, m/s^2; info: Bullet's defaults unless given
    explicit World(double g = 9.81,
                   const btDefaultCollisionConstructionInfo &info = {})
        : config(info)
    {
        world.setGravity(btVector3(0, (btScalar)-g, 0));
    }
    World(const World &) = delete;
    World &operator=(const World &) = delete;
    ~World()
    {
        for (auto &j : joints) {
            world.removeConstraint(j.get());
        }
        for (auto &b : bodies) {
            world.removeRigidBody(b.get());
        }
    }

    // A shape the world keeps until it is destroyed.
    template <class S> S *own(S *s)
    {
        shapes.emplace_back(s);
        return s;
    }

    // A rigid body with a btDefaultMotionState at xf (mass 0: static),
    // its friction coefficients set, added to the world; sleeps = false
    // disables its deactivation.  The shape is not taken over (own it).
    btRigidBody *add_body(btCollisionShape *shape, double mass,
                          const btTransform &xf, double friction,
                          double rolling, double spinning, bool sleeps = true)
    {
        btVector3 inertia(0, 0, 0);
        if (mass > 0) {
            shape->calculateLocalInertia((btScalar)mass, inertia);
        }
        states.emplace_back(new btDefaultMotionState(xf));
        btRigidBody::btRigidBodyConstructionInfo ci(
            (btScalar)mass, states.back().get(), shape, inertia);
        bodies.emplace_back(new btRigidBody(ci));
        btRigidBody *b = bodies.back().get();
        b->setFriction((btScalar)friction);
        b->setRollingFriction((btScalar)rolling);
        b->setSpinningFriction((btScalar)spinning);
        if (!sleeps) {
            b->setActivationState(DISABLE_DEACTIVATION);
        }
        world.addRigidBody(b);
        return b;
    }

    // A joint the world keeps; the bodies it links do not collide.
    void add_joint(btTypedConstraint *j)
    {
        joints.emplace_back(j);
        world.addConstraint(j, true);
    }

    // n steps of dt, one substep each.
    void step(double dt, int n = 1)
    {
        for (int i = 0; i < n; ++i) {
            world.stepSimulation((btScalar)dt, 1, (btScalar)dt);
        }
    }
};

} // namespace rfbullet

#endif // ROLLFRIC_BENCH_BULLET_WORLD_HPP
