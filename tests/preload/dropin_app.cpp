// A Bullet program written the way applications that never heard of
// rollfric are: a plain btDiscreteDynamicsWorld, every surface's friction
// given through Bullet's anisotropic friction (setFriction(1) and a scale
// (mu, 1, mu) in the surface's frame, its local y the normal), no rolling
// friction set anywhere, every body kept awake.  The LD_PRELOAD test
// (dropin.sh) runs it with and without the preload library.
//
// Two scenes in one world, far apart:
//   - a box (friction 1) on a 20 deg ramp whose scale gives mu = 0.3:
//     its acceleration down the slope over 0.4 s of sliding;
//   - a 1 kg and a 500 kg ball (R 0.5) launched rolling without slip at
//     2 m/s on a ground of mu 0.9: where they are after 6 s, and how fast.
// Prints "slide A light D S heavy D S" (m/s^2, m, m/s).
#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

namespace {

struct App {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btDefaultMotionState>> states;
    std::vector<std::unique_ptr<btRigidBody>> bodies;

    App()
    {
        world.setGravity(btVector3(0, -9.81f, 0));
    }
    ~App()
    {
        for (auto &b : bodies) {
            world.removeRigidBody(b.get());
        }
    }
    // a body whose surface friction is mu, the application's way
    btRigidBody *add(btCollisionShape *shape, btScalar mass,
                     const btTransform &xf, btScalar mu)
    {
        shapes.emplace_back(shape);
        btVector3 inertia(0, 0, 0);
        if (mass > 0) {
            shape->calculateLocalInertia(mass, inertia);
        }
        states.emplace_back(new btDefaultMotionState(xf));
        bodies.emplace_back(
            new btRigidBody(mass, states.back().get(), shape, inertia));
        btRigidBody *b = bodies.back().get();
        b->setFriction(1);
        b->setAnisotropicFriction(btVector3(mu, 1, mu),
                                  btCollisionObject::CF_ANISOTROPIC_FRICTION);
        b->setActivationState(DISABLE_DEACTIVATION);
        world.addRigidBody(b);
        return b;
    }
};

} // namespace

int main()
{
    App app;
    const btScalar th = (btScalar)(20.0 * M_PI / 180.0);
    // the ramp, far from the balls' ground
    btTransform ramp;
    ramp.setIdentity();
    ramp.setOrigin(btVector3(0, 0, -100));
    ramp.setRotation(btQuaternion(btVector3(0, 0, 1), -th)); // x downhill
    app.add(new btBoxShape(btVector3(20, 0.5f, 20)), 0, ramp, 0.3f);
    btTransform box = ramp;
    box.setOrigin(ramp.getOrigin() + ramp.getBasis() * btVector3(0, 0.75f, 0));
    btRigidBody *slider =
        app.add(new btBoxShape(btVector3(0.25f, 0.25f, 0.25f)), 1, box, 1);
    const btVector3 down = ramp.getBasis() * btVector3(1, 0, 0);

    // the ground and the balls
    btTransform ground;
    ground.setIdentity();
    ground.setOrigin(btVector3(0, -0.5f, 0));
    app.add(new btBoxShape(btVector3(50, 0.5f, 50)), 0, ground, 0.9f);
    const btScalar R = 0.5f;
    btRigidBody *ball[2];
    const btScalar mass[2] = {1, 500};
    for (int k = 0; k < 2; ++k) {
        btTransform xf;
        xf.setIdentity();
        xf.setOrigin(btVector3(0, R, (btScalar)(10 * k)));
        ball[k] = app.add(new btSphereShape(R), mass[k], xf, 1);
        ball[k]->setLinearVelocity(btVector3(2, 0, 0));
        ball[k]->setAngularVelocity(btVector3(0, 0, -2 / R));
    }

    const btScalar h = 1.0f / 60;
    double v0 = 0.0, accel = 0.0;
    for (int i = 0; i < 360; ++i) {
        if (i == 10) { // settled into contact: 0.4 s of sliding from here
            v0 = slider->getLinearVelocity().dot(down);
        }
        app.world.stepSimulation(h, 1, h);
        if (i == 10 + 24 - 1) {
            accel = (slider->getLinearVelocity().dot(down) - v0) / 0.4;
        }
    }
    std::printf("slide %.5f", accel);
    for (int k = 0; k < 2; ++k) {
        const btVector3 x = ball[k]->getCenterOfMassPosition();
        std::printf(" %s %.6f %.6f", k == 0 ? "light" : "heavy", (double)x.x(),
                    (double)ball[k]->getLinearVelocity().length());
    }
    std::printf("\n");
    return 0;
}
