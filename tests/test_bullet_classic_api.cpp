// The pl* worlds and shapes mean what the classic C API made of them:
// a classic program's scene stepped through rollfric's pl*
// with the stock solver gives, bit for bit, what the same scene gives when
// built as Bullet 2.82's Bullet-C-API.cpp built it (restated here from its
// documented behaviour, directly on Bullet 3.24: btDiscreteDynamicsWorld
// with its default gravity (0, -10, 0), btAxisSweep3 over +-1000 m, a
// capsule as a btMultiSphereShape of two spheres at +-height, a box from
// its half extents, bodies without motion state at the identity).
//
// The scene is BulletDino's: a flat floor plNewBoxShape(120, 0, 120)
// (zero thickness: the margin gives it some) and a standing capsule
// (0.25, 0.5) dropped from 2 m.  Both worlds must agree bit for bit at
// every step (the same shapes, gravity and solver make the same floats);
// a btCapsuleShape instead of the multi-sphere, or gravity -9.81, differ
// from the first steps.  (A rest height of 0.723 m was quoted for
// the classic implementation; this construction on Bullet 3.24 rests at
// 0.748 m, with the stock solver; we could not reproduce 0.723.)
#include "rollfric/bullet_c_api.h"

#include <BulletCollision/BroadphaseCollision/btAxisSweep3.h>
#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <cstdio>
#include <cstring>

namespace {

int failures = 0;

void check(bool ok, const char *what, double got, double want)
{
    if (!ok) {
        ++failures;
        std::printf("FAIL %s: got %.9g, want %.9g\n", what, got, want);
    }
}

struct ClassicWorld {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btAxisSweep3 broadphase{btVector3(-1000, -1000, -1000),
                            btVector3(1000, 1000, 1000)};
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
};

btRigidBody *classic_body(btScalar mass, btCollisionShape *shape)
{
    btVector3 inertia(0, 0, 0);
    if (mass != 0) {
        shape->calculateLocalInertia(mass, inertia);
    }
    btRigidBody::btRigidBodyConstructionInfo ci(mass, nullptr, shape, inertia);
    auto *rb = new btRigidBody(ci);
    btTransform id;
    id.setIdentity();
    rb->setWorldTransform(id);
    return rb;
}

} // namespace

int main()
{
    // the classic construction
    ClassicWorld cw;
    btBoxShape floor_shape(btVector3(120, 0, 120));
    const btVector3 centres[2] = {btVector3(0, 0.5, 0), btVector3(0, -0.5, 0)};
    const btScalar radii[2] = {0.25, 0.25};
    btMultiSphereShape capsule_shape(centres, radii, 2);
    btRigidBody *floor_rb = classic_body(0, &floor_shape);
    btRigidBody *capsule_rb = classic_body(1, &capsule_shape);
    btTransform start = capsule_rb->getWorldTransform();
    start.setOrigin(btVector3(0, 2, 0));
    capsule_rb->setWorldTransform(start);
    cw.world.addRigidBody(floor_rb);
    cw.world.addRigidBody(capsule_rb);

    // the same through pl*, stock solver, default gravity
    plPhysicsSdkHandle sdk = plNewBulletSdk();
    plDynamicsWorldHandle world = plCreateDynamicsWorld(sdk);
    plSetContactSolver(world, PL_SOLVER_STOCK);
    plCollisionShapeHandle floor = plNewBoxShape(120, 0, 120);
    plCollisionShapeHandle capsule = plNewCapsuleShape(0.25f, 0.5f);
    plRigidBodyHandle floor_b = plCreateRigidBody(nullptr, 0, floor);
    plRigidBodyHandle capsule_b = plCreateRigidBody(nullptr, 1, capsule);
    const plVector3 p0 = {0, 2, 0};
    plSetPosition(capsule_b, p0);
    plAddRigidBody(world, floor_b);
    plAddRigidBody(world, capsule_b);

    int differ = -1;
    for (int i = 0; i < 180; ++i) { // 3 s at 60 Hz
        cw.world.stepSimulation((btScalar)(1.0 / 60.0));
        plStepSimulation(world, (plReal)(1.0 / 60.0));
        plVector3 p;
        plGetPosition(capsule_b, p);
        const btVector3 &q = capsule_rb->getWorldTransform().getOrigin();
        if (differ < 0 && (p[0] != q.x() || p[1] != q.y() || p[2] != q.z())) {
            differ = i;
            std::printf("step %d: pl* (%.9g %.9g %.9g), classic (%.9g %.9g "
                        "%.9g)\n",
                        i, (double)p[0], (double)p[1], (double)p[2],
                        (double)q.x(), (double)q.y(), (double)q.z());
        }
    }
    check(differ < 0, "first step where pl* and classic differ", differ, -1);
    plVector3 p;
    plGetPosition(capsule_b, p);
    // standing at rest on the flat box: centre at r + height = 0.75 m
    // (geometry), within 5 mm (Bullet's resting contacts sit within its
    // margin and slop); a capsule that tipped over would lie at 0.25
    check(std::fabs(p[1] - 0.75) < 5e-3, "capsule rest height", p[1], 0.75);

    plRemoveRigidBody(world, capsule_b);
    plRemoveRigidBody(world, floor_b);
    plDeleteRigidBody(capsule_b);
    plDeleteRigidBody(floor_b);
    plDeleteShape(capsule);
    plDeleteShape(floor);
    plDeleteDynamicsWorld(world);
    plDeletePhysicsSdk(sdk);
    cw.world.removeRigidBody(capsule_rb);
    cw.world.removeRigidBody(floor_rb);
    delete capsule_rb;
    delete floor_rb;
    if (failures == 0) {
        std::printf("pl* = classic construction, bit for bit; capsule rests "
                    "at %.4f m\n",
                    (double)p[1]);
    }
    return failures == 0 ? 0 : 1;
}
