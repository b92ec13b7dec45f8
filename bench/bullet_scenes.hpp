// Bullet's own demo scenes, built headless for rfbench_scenes
// (bench/bullet_scenes.cpp) and for tests: a World owns one
// btDiscreteDynamicsWorld with everything in it, build_scene() fills it
// with one of the scenes below at its quick or full size, and the
// functions at the end measure it the same way whichever solver steps it.
// Header-only, so a test can include it without linking the benchmark.
//
// The set-ups follow Bullet 3.24's examples (Benchmarks/BenchmarkDemo.cpp,
// BasicDemo/BasicExample.cpp, RollingFrictionDemo/RollingFrictionDemo.cpp):
// sizes, masses, counts, positions, joint frames and limits, gravity,
// friction and the solver settings are Bullet's; the code is not.  Two
// pieces of Bullet's data are replaced by procedural stand-ins (see
// barrel_hull and build_terrain): the "Taru" convex hull and the landscape
// triangle mesh.  Every scene keeps deactivation (sleeping) enabled, as
// the demos do, and is stepped at 1/60 s.
#ifndef ROLLFRIC_BENCH_BULLET_SCENES_HPP
#define ROLLFRIC_BENCH_BULLET_SCENES_HPP

#include "bullet_world.hpp"

#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace rfscenes {

// The demos' fixed step (their stepSimulation(1/60) at a 60 Hz frame).
const btScalar kStep = btScalar(1.0 / 60);

enum class Size { quick, full };

// Bodies whose standing is measured together (a wall, a tower, ...).
struct Structure {
    std::string name;
    std::vector<int> bodies; // indices into World::bodies
};

// The triangle meshes of a World's mesh shapes: a base of World before
// rfbullet::World, so that they are freed after the shapes that
// reference them.
struct MeshStore {
    std::vector<std::unique_ptr<btTriangleMesh>> meshes;
};

// One Bullet world and everything it holds (bench/bullet_world.hpp: the
// world, its shapes, bodies and joints, and their teardown), with what
// the scenes record about it.  Bullet's stock solver is the world's
// solver; rollfric attaches over it.  Gravity starts as Bullet's default
// (0, -10, 0); the scenes set their own.
struct World : MeshStore, rfbullet::World<> {
    std::vector<btTransform> start; // per body, as built
    std::vector<Structure> structures;
    std::string name;        // the scene's name
    std::string description; // one line: what was built
    int dynamic = 0;         // dynamic bodies

    World() : rfbullet::World<>(10.0)
    {
    }

    // A body as the demos' createRigidBody makes it: mass 0 is static,
    // a motion state, Bullet's default friction (0.5) and restitution (0).
    btRigidBody *add(btCollisionShape *s, btScalar mass, const btTransform &xf,
                     int structure = -1)
    {
        btVector3 inertia(0, 0, 0);
        if (mass != 0) {
            s->calculateLocalInertia(mass, inertia);
        }
        states.emplace_back(new btDefaultMotionState(xf));
        btRigidBody::btRigidBodyConstructionInfo ci(mass, states.back().get(),
                                                    s, inertia);
        bodies.emplace_back(new btRigidBody(ci));
        btRigidBody *b = bodies.back().get();
        world.addRigidBody(b);
        start.push_back(xf);
        if (mass != 0) {
            ++dynamic;
        }
        if (structure >= 0) {
            structures[(size_t)structure].bodies.push_back((int)bodies.size() -
                                                           1);
        }
        return b;
    }
    btRigidBody *add(btCollisionShape *s, btScalar mass, const btVector3 &pos,
                     int structure = -1)
    {
        return add(s, mass, btTransform(btQuaternion::getIdentity(), pos),
                   structure);
    }
    // linked bodies do not collide, as in the ragdoll
    void add_joint(btTypedConstraint *j)
    {
        joints.emplace_back(j);
        world.addConstraint(j, true);
    }
    int structure(const std::string &n)
    {
        structures.push_back({n, {}});
        return (int)structures.size() - 1;
    }
    void step()
    {
        world.stepSimulation(kStep, 1, kStep);
    }
};

// --- world settings ---------------------------------------------------------

// BenchmarkDemo (CommonRigidBodyMTBase::createEmptyDynamicsWorld, then
// BenchmarkDemo::initPhysics): solver mode SIMD | warm starting | friction
// direction caching, 5 iterations ("few solver iterations"), g = 10 along
// -y; tests 1-4 stand on a static box of half extents 250 x 50 x 250 at
// y = -50 (top at y = 0).
inline void benchmark_world(World &w, bool ground_box)
{
    btContactSolverInfo &si = w.world.getSolverInfo();
    si.m_solverMode = SOLVER_SIMD | SOLVER_USE_WARMSTARTING |
                      SOLVER_ENABLE_FRICTION_DIRECTION_CACHING;
    si.m_numIterations = 5;
    w.world.setGravity(btVector3(0, -10, 0));
    if (ground_box) {
        w.add(w.own(new btBoxShape(btVector3(250, 50, 250))), 0,
              btVector3(0, -50, 0));
    }
}

// --- BenchmarkDemo test 1: falling boxes -----------------------------------

// Cubes of half extent 1, 2 kg, side x side per layer 3 m apart (1 m
// gaps), the first layer at y = 2, layers 3 m apart (1 m gaps), each
// layer shifted by -0.05 (side - 1) m in x and z against the one below.
// Full: 8 x 8 x 47 = 3008 boxes (Bullet's "3000 falling boxes"); quick:
// 5 x 5 x 4 = 100.
inline void build_falling_boxes(World &w, Size size)
{
    const int side = size == Size::full ? 8 : 5;
    const int layers = size == Size::full ? 47 : 4;
    benchmark_world(w, true);
    btBoxShape *box = w.own(new btBoxShape(btVector3(1, 1, 1)));
    const float pitch = 3.0f; // 2 half extents + 1 m spacing
    float offset = -side * pitch * 0.5f;
    float y = 2.0f;
    for (int k = 0; k < layers; ++k) {
        for (int j = 0; j < side; ++j) {
            for (int i = 0; i < side; ++i) {
                w.add(box, 2,
                      btVector3(offset + i * pitch, y, offset + j * pitch));
            }
        }
        offset -= 0.05f * (side - 1);
        y += pitch;
    }
    w.name = "falling_boxes";
    w.description = std::to_string(side * side * layers) +
                    " boxes (2 m, 2 kg) in " + std::to_string(layers) +
                    " layers of " + std::to_string(side) + "x" +
                    std::to_string(side) + " dropped on a ground box";
}

// --- BenchmarkDemo test 2: the "1000 stack" ------------------------------

// Unit-mass cubes of half extent 1 in three kinds of structure:
//  pyramid  n layers of k x k boxes (k = n .. 1) at x = -20, pitch 2.04 +
//           1e-4 m in x and z, layers 2.0401 m apart (4 cm gaps, so each
//           layer drops a little), each layer centred on the one below;
//  wall     at x = -2, 4, 10: n boxes in a row along z touching, rows
//           exactly stacked (2 m), each row one box shorter and shifted
//           by half a box (a stepped wall in running bond);
//  tower    at x = 25: rings of r boxes on a circle of radius 1.3 r / pi
//           (boxes turned to face the centre, 15 deg apart for r = 24),
//           rings exactly stacked, each turned half a step against the
//           one below.
// Full (Bullet): pyramid 12 (650 boxes), walls 12 (78 each), tower 8
// rings of 24 (192): 1076 boxes.  Quick: pyramid 6 (91), walls 5 (15
// each), tower 4 rings of 12 (48): 184 boxes.
inline void build_pyramid_part(World &w, const btVector3 &at, int n,
                               btCollisionShape *box)
{
    const int s = w.structure("pyramid");
    const btScalar space = btScalar(1e-4);
    const btScalar d = btScalar(1.02); // half extent * 1.02
    btScalar off_x = -n * (2 * d + space) * btScalar(0.5);
    btScalar off_z = off_x;
    btScalar y = 1;
    for (int layer = n; layer > 0; --layer) {
        for (int j = 0; j < layer; ++j) {
            for (int i = 0; i < layer; ++i) {
                w.add(box, 1,
                      at + btVector3(off_x + i * (2 * d + space), y,
                                     off_z + j * (2 * d + space)),
                      s);
            }
        }
        off_x += d;
        off_z += d;
        y += 2 * d + space;
    }
}

inline void build_wall(World &w, const btVector3 &at, int n,
                       btCollisionShape *box, const std::string &name)
{
    const int s = w.structure(name);
    btScalar off_z = -n * btScalar(2) * btScalar(0.5);
    btScalar y = 1;
    for (int row = n; row > 0; --row) {
        for (int i = 0; i < row; ++i) {
            w.add(box, 1, at + btVector3(0, y, off_z + i * btScalar(2)), s);
        }
        off_z += 1;
        y += 2;
    }
}

inline void build_tower(World &w, const btVector3 &at, int rings, int per_ring,
                        btCollisionShape *box)
{
    const int s = w.structure("tower");
    const btScalar radius = btScalar(1.3) * per_ring / SIMD_PI;
    btQuaternion q(0, 1, 0, 0); // Bullet starts at a half turn about y
    btScalar y = 1;
    for (int ring = 0; ring < rings; ++ring) {
        for (int j = 0; j < per_ring; ++j) {
            const btVector3 pos = at + quatRotate(q, btVector3(0, y, radius));
            w.add(box, 1, btTransform(q, pos), s);
            q *= btQuaternion(btVector3(0, 1, 0), SIMD_2_PI / per_ring);
        }
        y += 2;
        q *= btQuaternion(btVector3(0, 1, 0), SIMD_PI / per_ring);
    }
}

inline void build_pyramid(World &w, Size size)
{
    const bool full = size == Size::full;
    const int n = full ? 12 : 6, wall = full ? 12 : 5;
    const int rings = full ? 8 : 4, per_ring = full ? 24 : 12;
    benchmark_world(w, true);
    btBoxShape *box = w.own(new btBoxShape(btVector3(1, 1, 1)));
    build_pyramid_part(w, btVector3(-20, 0, 0), n, box);
    build_wall(w, btVector3(-2, 0, 0), wall, box, "wall 1");
    build_wall(w, btVector3(4, 0, 0), wall, box, "wall 2");
    build_wall(w, btVector3(10, 0, 0), wall, box, "wall 3");
    build_tower(w, btVector3(25, 0, 0), rings, per_ring, box);
    w.name = "pyramid";
    w.description = std::to_string(w.dynamic) + " boxes (2 m, 1 kg): pyramid " +
                    std::to_string(n) + ", 3 walls " + std::to_string(wall) +
                    ", tower " + std::to_string(rings) + "x" +
                    std::to_string(per_ring);
}

// --- BenchmarkDemo test 3: ragdolls --------------------------------------

// Bullet's RagDoll (BenchmarkDemo.cpp): 11 capsules of 1 kg (pelvis,
// spine, head, upper/lower legs and arms; radius and cylinder height
// below, times the scale 3.5), linear/angular damping 0.05/0.85,
// deactivation time 0.8 s, sleeping thresholds 1.6 m/s and 2.5 rad/s; 10
// joints: hinges (spine on pelvis -45..90 deg, knees 0..90, elbows
// -90..0) and cone-twists (neck 45/45/90 deg, hips 45/45/0, shoulders
// 90/90/0), linked bodies not colliding.  Frames: btMatrix3x3::
// setEulerZYX angles (x, y, z) and origins, times the scale.
struct RagdollPart {
    float radius, height, x, y, roll_z;
};
const RagdollPart kRagdollParts[11] = {
    {0.15f, 0.20f, 0.00f, 1.00f, 0.0f},                  // pelvis
    {0.15f, 0.28f, 0.00f, 1.20f, 0.0f},                  // spine
    {0.10f, 0.05f, 0.00f, 1.60f, 0.0f},                  // head
    {0.07f, 0.45f, -0.18f, 0.65f, 0.0f},                 // left upper leg
    {0.05f, 0.37f, -0.18f, 0.20f, 0.0f},                 // left lower leg
    {0.07f, 0.45f, 0.18f, 0.65f, 0.0f},                  // right upper leg
    {0.05f, 0.37f, 0.18f, 0.20f, 0.0f},                  // right lower leg
    {0.05f, 0.33f, -0.35f, 1.45f, (float)SIMD_HALF_PI},  // left upper arm
    {0.04f, 0.25f, -0.70f, 1.45f, (float)SIMD_HALF_PI},  // left lower arm
    {0.05f, 0.33f, 0.35f, 1.45f, -(float)SIMD_HALF_PI},  // right upper arm
    {0.04f, 0.25f, 0.70f, 1.45f, -(float)SIMD_HALF_PI}}; // right lower arm

struct RagdollJoint {
    bool hinge;
    int a, b;
    float euler_a[3], origin_a[3], euler_b[3], origin_b[3];
    float lim[3]; // hinge: low, high; cone-twist: swing1, swing2, twist
};
const float kPi = (float)SIMD_PI, kPi2 = (float)SIMD_HALF_PI,
            kPi4 = (float)(SIMD_PI / 4);
const RagdollJoint kRagdollJoints[10] = {{true,
                                          0,
                                          1,
                                          {0, kPi2, 0},
                                          {0, 0.15f, 0},
                                          {0, kPi2, 0},
                                          {0, -0.15f, 0},
                                          {-kPi4, kPi2, 0}}, // pelvis - spine
                                         {false,
                                          1,
                                          2,
                                          {0, 0, kPi2},
                                          {0, 0.30f, 0},
                                          {0, 0, kPi2},
                                          {0, -0.14f, 0},
                                          {kPi4, kPi4, kPi2}}, // spine - head
                                         {false,
                                          0,
                                          3,
                                          {0, 0, -5 * kPi4},
                                          {-0.18f, -0.10f, 0},
                                          {0, 0, -5 * kPi4},
                                          {0, 0.225f, 0},
                                          {kPi4, kPi4, 0}}, // left hip
                                         {true,
                                          3,
                                          4,
                                          {0, kPi2, 0},
                                          {0, -0.225f, 0},
                                          {0, kPi2, 0},
                                          {0, 0.185f, 0},
                                          {0, kPi2, 0}}, // left knee
                                         {false,
                                          0,
                                          5,
                                          {0, 0, kPi4},
                                          {0.18f, -0.10f, 0},
                                          {0, 0, kPi4},
                                          {0, 0.225f, 0},
                                          {kPi4, kPi4, 0}}, // right hip
                                         {true,
                                          5,
                                          6,
                                          {0, kPi2, 0},
                                          {0, -0.225f, 0},
                                          {0, kPi2, 0},
                                          {0, 0.185f, 0},
                                          {0, kPi2, 0}}, // right knee
                                         {false,
                                          1,
                                          7,
                                          {0, 0, kPi},
                                          {-0.2f, 0.15f, 0},
                                          {0, 0, kPi2},
                                          {0, -0.18f, 0},
                                          {kPi2, kPi2, 0}}, // left shoulder
                                         {true,
                                          7,
                                          8,
                                          {0, kPi2, 0},
                                          {0, 0.18f, 0},
                                          {0, kPi2, 0},
                                          {0, -0.14f, 0},
                                          {-kPi2, 0, 0}}, // left elbow
                                         {false,
                                          1,
                                          9,
                                          {0, 0, 0},
                                          {0.2f, 0.15f, 0},
                                          {0, 0, kPi2},
                                          {0, -0.18f, 0},
                                          {kPi2, kPi2, 0}}, // right shoulder
                                         {true,
                                          9,
                                          10,
                                          {0, kPi2, 0},
                                          {0, 0.18f, 0},
                                          {0, kPi2, 0},
                                          {0, -0.14f, 0},
                                          {-kPi2, 0, 0}}}; // right elbow

inline btTransform euler_frame(const float e[3], const float o[3],
                               btScalar scale)
{
    btTransform t;
    t.setIdentity();
    t.getBasis().setEulerZYX(e[0], e[1], e[2]);
    t.setOrigin(scale * btVector3(o[0], o[1], o[2]));
    return t;
}

inline void add_ragdoll(World &w, const btVector3 &at, btScalar scale,
                        btCollisionShape *const shapes[11])
{
    btRigidBody *part[11];
    for (int i = 0; i < 11; ++i) {
        const RagdollPart &p = kRagdollParts[i];
        btTransform xf;
        xf.setIdentity();
        xf.getBasis().setEulerZYX(0, 0, p.roll_z);
        xf.setOrigin(at + scale * btVector3(p.x, p.y, 0));
        part[i] = w.add(shapes[i], 1, xf);
        part[i]->setDamping(btScalar(0.05), btScalar(0.85));
        part[i]->setDeactivationTime(btScalar(0.8));
        part[i]->setSleepingThresholds(btScalar(1.6), btScalar(2.5));
    }
    for (const RagdollJoint &j : kRagdollJoints) {
        const btTransform fa = euler_frame(j.euler_a, j.origin_a, scale);
        const btTransform fb = euler_frame(j.euler_b, j.origin_b, scale);
        if (j.hinge) {
            auto *h = new btHingeConstraint(*part[j.a], *part[j.b], fa, fb);
            h->setLimit(j.lim[0], j.lim[1]);
            w.add_joint(h);
        } else {
            auto *c = new btConeTwistConstraint(*part[j.a], *part[j.b], fa, fb);
            c->setLimit(j.lim[0], j.lim[1], j.lim[2]);
            w.add_joint(c);
        }
    }
}

// Rows of ragdolls 6 m apart in x, row r of n - r ragdolls, row r at
// y = 1 + 7 r and z = -2 r (they fall onto the rows below).  Full: n = 16,
// 136 ragdolls (1496 capsules, 1360 joints); quick: n = 4, 10 ragdolls.
inline void build_ragdolls(World &w, Size size)
{
    const int n = size == Size::full ? 16 : 4;
    const btScalar scale = btScalar(3.5);
    benchmark_world(w, true);
    btCollisionShape *shapes[11];
    for (int i = 0; i < 11; ++i) {
        shapes[i] = w.own(new btCapsuleShape(scale * kRagdollParts[i].radius,
                                             scale * kRagdollParts[i].height));
    }
    btVector3 pos(0, 1, 0);
    int count = 0;
    for (int row = n; row > 0; --row) {
        const btScalar offset = -row * btScalar(6) * btScalar(0.5);
        for (int i = 0; i < row; ++i, ++count) {
            pos.setX(offset + i * btScalar(6));
            add_ragdoll(w, pos, scale, shapes);
        }
        pos += btVector3(0, 7, -2);
    }
    w.name = "ragdolls";
    w.description = std::to_string(count) + " ragdolls (" +
                    std::to_string(w.dynamic) + " capsules, " +
                    std::to_string(w.joints.size()) +
                    " hinge/cone-twist joints) dropped in rows";
}

// --- BenchmarkDemo tests 4 and 6: convex hulls ----------------------------

// Bullet's "Taru" hull (TaruData.h, 43 vertices) is a barrel along y:
// octagonal rings of radius 1.087 at y = +-1.992 and 1.822 at y = 0.  This
// stand-in is generated, not copied: five octagonal rings (y = 0, +-1,
// +-1.992) on the parabolic profile through those three radii, 40
// vertices, the same height and nearly the same volume.
inline btConvexHullShape *barrel_hull()
{
    const double h = 1.99237, r_mid = 1.82224, r_end = 1.08664;
    auto *hull = new btConvexHullShape();
    for (double y : {-h, -1.0, 0.0, 1.0, h}) {
        const double t = y / h;
        const double r = r_mid - (r_mid - r_end) * t * t;
        for (int k = 0; k < 8; ++k) {
            const double a = k * SIMD_PI / 4;
            hull->addPoint(btVector3((btScalar)(r * std::cos(a)), (btScalar)y,
                                     (btScalar)(r * std::sin(a))),
                           false);
        }
    }
    hull->recalcLocalAabb();
    return hull;
}

// Test 4: barrels of 1 kg (with polyhedral features, as Bullet's test 4),
// side x side per layer, pitch 3 + s m in x and z where the spacing s
// starts at 1.5 and grows 1% per layer, the first layer at y = 3 (1 m
// above the ground), layer k + 1 3 + s m above layer k (0.5 m gaps), each
// layer shifted by -0.05 s (side - 1) in x and z.  Full: 8 x 8 x 15 = 960;
// quick: 4 x 4 x 6 = 96.
inline void build_convex_stack(World &w, Size size)
{
    const int side = size == Size::full ? 8 : 4;
    const int layers = size == Size::full ? 15 : 6;
    benchmark_world(w, true);
    btConvexHullShape *hull = w.own(barrel_hull());
    hull->initializePolyhedralFeatures();
    const int s = w.structure("convex stack");
    const float cube = 1.5f;
    float spacing = cube;
    float offset = -side * (2 * cube + spacing) * 0.5f;
    float y = 2 * cube;
    for (int k = 0; k < layers; ++k) {
        for (int j = 0; j < side; ++j) {
            for (int i = 0; i < side; ++i) {
                w.add(hull, 1,
                      btVector3(offset + i * (2 * cube + spacing), y,
                                offset + j * (2 * cube + spacing)),
                      s);
            }
        }
        offset -= 0.05f * spacing * (side - 1);
        spacing *= 1.01f;
        y += 2 * cube + spacing;
    }
    w.name = "convex_stack";
    w.description = std::to_string(w.dynamic) +
                    " barrel hulls (4 m, 1 kg) stacked in " +
                    std::to_string(layers) + " layers of " +
                    std::to_string(side) + "x" + std::to_string(side);
}

// --- BenchmarkDemo tests 5 and 6: things on a triangle mesh --------------

// Bullet's landscape (landscapeData.h) is 8 static triangle meshes
// (btBvhTriangleMeshShape, friction 0.9) of about 3900 triangles each,
// together 500 x 500 m on a grid of about 3.9 m, heights -22..62 m, the
// bodies moved to y = -25.  The stand-in is generated: the same 8 tiles
// (250 x 125 m, 64 x 32 cells of 3.906 m, 4096 triangles each) over a
// smooth height field of hills and ridges, 0..37 m before the shift (so
// the drop heights of the demo, y >= 45, stay clear of it), rising by up
// to 40 m in the outer 100 m so that what rolls stays on the mesh instead
// of falling off its edge for ever.
inline double terrain_height(double x, double z)
{
    const double edge =
        std::max(0.0, (std::max(std::fabs(x), std::fabs(z)) - 150) / 100);
    return 18 + 10 * std::sin(x / 37) * std::cos(z / 29) +
           5 * std::sin((x - 2 * z) / 23) + 3 * std::cos(x / 11 + z / 13) +
           40 * edge * edge;
}

inline void build_terrain(World &w)
{
    const double cell = 500.0 / 128;
    for (int tile = 0; tile < 8; ++tile) {
        const double x0 = -250 + 250.0 * (tile % 2);
        const double z0 = -250 + 125.0 * (tile / 2);
        auto *mesh = new btTriangleMesh();
        w.meshes.emplace_back(mesh);
        auto v = [&](int i, int k) {
            const double x = x0 + i * cell, z = z0 + k * cell;
            return btVector3((btScalar)x, (btScalar)terrain_height(x, z),
                             (btScalar)z);
        };
        for (int k = 0; k < 32; ++k) {
            for (int i = 0; i < 64; ++i) {
                // counter-clockwise seen from above: normals point up
                mesh->addTriangle(v(i, k), v(i, k + 1), v(i + 1, k));
                mesh->addTriangle(v(i + 1, k), v(i, k + 1), v(i + 1, k + 1));
            }
        }
        auto *shape = w.own(new btBvhTriangleMeshShape(mesh, true));
        btRigidBody *b = w.add(shape, 0, btVector3(0, -25, 0));
        b->setFriction(btScalar(0.9));
    }
}

// The drop layout of tests 5 and 6: side x side x height bodies at
// (0, 25, 0) + (5, 1, 5) * p, where p starts at (offset, 20, offset),
// offset = -side (3 + s) / 2, pitch 3 + s with the spacing s starting at
// 2 and growing 10% per layer, each layer shifted by -0.05 s (side - 1).
template <class Make> void drop_layout(int side, int height, Make make)
{
    const float cube = 1.5f;
    float spacing = 2.0f;
    float offset = -side * (2 * cube + spacing) * 0.5f;
    float y = 20.0f;
    for (int k = 0; k < height; ++k) {
        for (int j = 0; j < side; ++j) {
            for (int i = 0; i < side; ++i) {
                const btVector3 p(offset + i * (2 * cube + spacing), y,
                                  offset + j * (2 * cube + spacing));
                make(btVector3(0, 25, 0) + btVector3(5, 1, 5) * p);
            }
        }
        offset -= 0.05f * spacing * (side - 1);
        spacing *= 1.1f;
        y += 2 * cube + spacing;
    }
}

// Test 5: each body one of nine primitives at random (Bullet: rand() % 9;
// here a fixed-seed std::mt19937, so every world gets the same draw): a
// box of half extents 1.5 r, a sphere of radius 1.5 r or a capsule of
// radius r and height 2 r, mass r, for r = 0.5, 1, 1.5.  Full: 10 x 10 x
// 10 = 1000; quick: 5 x 5 x 4 = 100.
inline void build_prim_mesh(World &w, Size size)
{
    const int side = size == Size::full ? 10 : 5;
    const int height = size == Size::full ? 10 : 4;
    benchmark_world(w, false);
    btCollisionShape *kinds[9];
    for (int i = 0; i < 3; ++i) {
        const btScalar r = btScalar(0.5) * (i + 1);
        kinds[i] = w.own(new btBoxShape(btVector3(1.5, 1.5, 1.5) * r));
        kinds[3 + i] = w.own(new btSphereShape(btScalar(1.5) * r));
        kinds[6 + i] = w.own(new btCapsuleShape(r, 2 * r));
    }
    std::mt19937 rng(5);
    drop_layout(side, height, [&](const btVector3 &pos) {
        const int kind = (int)(rng() % 9);
        w.add(kinds[kind], btScalar(0.5) * (kind % 3 + 1), pos);
    });
    build_terrain(w);
    w.name = "prim_mesh";
    w.description = std::to_string(w.dynamic) +
                    " boxes, spheres and capsules dropped on a 32k-triangle "
                    "terrain";
}

// Test 6: the barrel hull (without polyhedral features, as Bullet's test
// 6), 1 kg, in the same layout.  Full: 1000; quick: 100.
inline void build_convex_mesh(World &w, Size size)
{
    const int side = size == Size::full ? 10 : 5;
    const int height = size == Size::full ? 10 : 4;
    benchmark_world(w, false);
    btConvexHullShape *hull = w.own(barrel_hull());
    drop_layout(side, height,
                [&](const btVector3 &pos) { w.add(hull, 1, pos); });
    build_terrain(w);
    w.name = "convex_mesh";
    w.description = std::to_string(w.dynamic) +
                    " barrel hulls dropped on a 32k-triangle terrain";
}

// --- BasicDemo ------------------------------------------------------------

// BasicDemo's world: g = 10 along -y and a static ground box of half
// extent 50 with its top at y = 0.
inline void basic_demo_ground(World &w)
{
    w.world.setGravity(btVector3(0, -10, 0));
    w.add(w.own(new btBoxShape(btVector3(50, 50, 50))), 0,
          btVector3(0, -50, 0));
}

// BasicExample.cpp: the world's defaults (10 iterations), g = 10 along -y,
// a static box of half extent 50 at y = -50, n x n x n boxes of half
// extent 0.1, 1 kg, at (0.2 i, 2 + 0.2 k, 0.2 j): a cube of touching boxes
// dropped 2 m.  n = 5 (125 boxes) at both sizes.
inline void build_basic_demo(World &w, Size size)
{
    (void)size; // 125 boxes are already a CI-sized scene
    const int n = 5;
    basic_demo_ground(w);
    btBoxShape *box = w.own(new btBoxShape(btVector3(0.1f, 0.1f, 0.1f)));
    for (int k = 0; k < n; ++k) {
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < n; ++j) {
                w.add(box, 1,
                      btVector3(btScalar(0.2 * i), btScalar(2 + 0.2 * k),
                                btScalar(0.2 * j)));
            }
        }
    }
    w.name = "basic_demo";
    w.description = "BasicDemo: 5x5x5 boxes (0.2 m, 1 kg) dropped 2 m on a "
                    "ground box";
}

// --- small stacks: a user's first scene ---------------------------------

// Four columns (0.5 m apart along x) of five bodies of `shape` (1 kg,
// 0.2 m tall), each built 1 cm above the one below and `lean` m further
// along x; each column a structure of its own when `stacks`.
inline void small_columns(World &w, btCollisionShape *shape, double lean,
                          bool stacks)
{
    for (int c = 0; c < 4; ++c) {
        const int stack =
            stacks ? w.structure("stack " + std::to_string(c + 1)) : -1;
        for (int k = 0; k < 5; ++k) {
            w.add(shape, 1,
                  btVector3(btScalar(0.5 * c + lean * k),
                            btScalar(0.11 + 0.21 * k), 0),
                  stack);
        }
    }
}

// Not one of Bullet's demos: what a user's first scene of their own looks
// like, a few stacks of a few boxes, where the per-step and per-solve
// costs that the large scenes hide decide the ratio.  BasicDemo's ground
// and boxes (0.2 m, 1 kg, g = 10); four columns of five boxes, each box
// built 1 cm above the one below, so that they land, settle and sleep.
// 20 boxes at both sizes.
inline void build_small_stacks(World &w, Size size)
{
    (void)size;
    basic_demo_ground(w);
    small_columns(w, w.own(new btBoxShape(btVector3(0.1f, 0.1f, 0.1f))), 0.0,
                  true);
    w.name = "small_stacks";
    w.description = "4 columns of 5 boxes (0.2 m, 1 kg) built 1 cm apart on "
                    "BasicDemo's ground";
}

// The same with spheres (0.1 m radius, 1 kg): four columns of five, each
// 1 cm above the one below and 1 mm further along x, so that the columns
// topple and the balls roll apart (no rolling friction, as Bullet's
// default): one-point manifolds, the case the bundles' lanes fit worst.
inline void build_small_spheres(World &w, Size size)
{
    (void)size;
    basic_demo_ground(w);
    small_columns(w, w.own(new btSphereShape(0.1f)), 0.001, false);
    w.name = "small_spheres";
    w.description = "4 columns of 5 spheres (0.1 m radius, 1 kg) built 1 cm "
                    "apart that topple and roll on BasicDemo's ground";
}

// --- RollingFrictionDemo --------------------------------------------------

// RollingFrictionDemo.cpp: z up, g = 10 along -z, world defaults; a
// ramp (static box of half extents 10 x 5 x 25 at z = -28, turned 0.03 pi
// about y, friction 0.5) on a floor (half extents 100 x 100 x 50 at z =
// -54, friction 0.1); 5 x 5 x 5 bodies of 1 kg at (2 i - 7, 2 j - 5, 15 +
// 2 k), body n of shape (n + 1) mod 10 of: sphere r 0.5; capsules r 0.25,
// height 0.5 along y, x, z; cones r 0.25, height 0.5 along y, x, z;
// cylinders of half extents 0.25/0.5 along y, x, z; friction 1, rolling
// and spinning friction 0.1, anisotropic rolling friction along the
// shape's axis.  125 bodies at both sizes.
inline void build_rolling_friction(World &w, Size size)
{
    (void)size;
    w.world.setGravity(btVector3(0, 0, -10));
    btTransform ramp(btQuaternion(btVector3(0, 1, 0), SIMD_PI * btScalar(0.03)),
                     btVector3(0, 0, -28));
    w.add(w.own(new btBoxShape(btVector3(10, 5, 25))), 0, ramp)
        ->setFriction(btScalar(0.5));
    w.add(w.own(new btBoxShape(btVector3(100, 100, 50))), 0,
          btVector3(0, 0, -54))
        ->setFriction(btScalar(0.1));
    btCollisionShape *kinds[10] = {
        w.own(new btSphereShape(btScalar(0.5))),
        w.own(new btCapsuleShape(0.25, 0.5)),
        w.own(new btCapsuleShapeX(0.25, 0.5)),
        w.own(new btCapsuleShapeZ(0.25, 0.5)),
        w.own(new btConeShape(0.25, 0.5)),
        w.own(new btConeShapeX(0.25, 0.5)),
        w.own(new btConeShapeZ(0.25, 0.5)),
        w.own(new btCylinderShape(btVector3(0.25, 0.5, 0.25))),
        w.own(new btCylinderShapeX(btVector3(0.5, 0.25, 0.25))),
        w.own(new btCylinderShapeZ(btVector3(0.25, 0.25, 0.5)))};
    int n = 0;
    for (int k = 0; k < 5; ++k) {
        for (int i = 0; i < 5; ++i) {
            for (int j = 0; j < 5; ++j) {
                btCollisionShape *s = kinds[++n % 10];
                btRigidBody *b =
                    w.add(s, 1,
                          btVector3(btScalar(2 * i - 7), btScalar(2 * j - 5),
                                    btScalar(15 + 2 * k)));
                b->setFriction(1);
                b->setRollingFriction(btScalar(0.1));
                b->setSpinningFriction(btScalar(0.1));
                b->setAnisotropicFriction(
                    s->getAnisotropicRollingFrictionDirection(),
                    btCollisionObject::CF_ANISOTROPIC_ROLLING_FRICTION);
            }
        }
    }
    w.name = "rolling_friction";
    w.description = "RollingFrictionDemo: 125 spheres, capsules, cones and "
                    "cylinders dropped on a ramp";
}

// --- sphere pile ------------------------------------------------------------

// rfbench_bullet's pile (bench/bullet_pile.cpp), with sleeping: spheres
// R = 0.1 m, 1 kg, friction 0.5, rolling and spinning friction 0.01 m,
// built at rest in a loosened face-centred packing of square layers
// (even layers n x n, 0.22 m apart; odd layers (n-1) x (n-1) in the
// hollows, each sphere on four below, 0.5 mm overlaps), n = round(sqrt(N /
// 10) + 0.5), between four static wall planes on a ground plane (friction
// 1.0); g = 9.81, the world's default 10 iterations.  Full: 2000 spheres
// (5000 took 165 ms per stock step here: too long for a run of several
// configurations); quick: 300.  Under stock the pile never sleeps within
// 1200 steps: ten layers on 10 iterations keep jittering and spreading.
inline void build_sphere_pile(World &w, Size size)
{
    const int count = size == Size::full ? 2000 : 300;
    const double r = 0.1, gap = 0.22, overlap = 0.0005;
    const double dy =
        std::sqrt((2 * r - overlap) * (2 * r - overlap) - gap * gap / 2);
    const int n = std::max(3, (int)std::lround(std::sqrt(count / 10.0) + 0.5));
    const double x0 = -0.5 * gap * (n - 1);
    w.world.setGravity(btVector3(0, btScalar(-9.81), 0));
    w.add(w.own(new btStaticPlaneShape(btVector3(0, 1, 0), 0)), 0,
          btVector3(0, 0, 0))
        ->setFriction(1);
    const double wall = -x0 + r - overlap;
    const btVector3 normals[4] = {{1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}};
    for (const btVector3 &nrm : normals) {
        w.add(w.own(new btStaticPlaneShape(nrm, (btScalar)-wall)), 0,
              btVector3(0, 0, 0))
            ->setFriction(1);
    }
    btSphereShape *ball = w.own(new btSphereShape((btScalar)r));
    const int s = w.structure("pile");
    int placed = 0;
    for (int layer = 0; placed < count; ++layer) {
        const bool odd = layer % 2;
        const int m = odd ? n - 1 : n;
        const double off = x0 + (odd ? 0.5 * gap : 0.0);
        const double y = r - overlap + layer * dy;
        for (int k = 0; k < m * m && placed < count; ++k, ++placed) {
            btRigidBody *b =
                w.add(ball, 1,
                      btVector3((btScalar)(off + gap * (k % m)), (btScalar)y,
                                (btScalar)(off + gap * (k / m))),
                      s);
            b->setFriction(btScalar(0.5));
            b->setRollingFriction(btScalar(0.01));
            b->setSpinningFriction(btScalar(0.01));
        }
    }
    w.name = "sphere_pile";
    w.description = std::to_string(count) +
                    " spheres (R 0.1 m) built at rest in square layers "
                    "between walls";
}

// --- MultiThreadedDemo --------------------------------------------------

// MultiThreadedDemo.cpp (createSceneObjects, createStack) with its
// defaults: g = 10 along -y, 10 iterations (gSliderSolverIterations), a
// kinematic ground box of half extents 400 x 3 x 400 at y = -3 (friction
// 1, kept awake); one stack of `width` walls 1 m apart along z, each a
// pyramid of `height` rows of boxes (half extents 0.5 x 0.25 x 0.5, 1 kg,
// friction 1) touching along x, row k holding height - k boxes.  Full:
// height 15, width 8 (960 boxes, the demo's sliders); quick: 8 and 2
// (72).
inline void build_mt_stacks(World &w, Size size)
{
    const int height = size == Size::full ? 15 : 8;
    const int width = size == Size::full ? 8 : 2;
    w.world.setGravity(btVector3(0, -10, 0));
    btRigidBody *ground = w.add(w.own(new btBoxShape(btVector3(400, 3, 400))),
                                0, btVector3(0, -3, 0));
    ground->setCollisionFlags(ground->getCollisionFlags() |
                              btCollisionObject::CF_KINEMATIC_OBJECT);
    ground->forceActivationState(DISABLE_DEACTIVATION);
    ground->setFriction(1);
    const btVector3 half(0.5f, 0.25f, 0.5f);
    btCollisionShape *box = w.own(new btBoxShape(half));
    const int s = w.structure("stacks");
    btVector3 offset(0, 0, -half.z() * btScalar(width - 1));
    for (int iz = 0; iz < width; ++iz) {
        offset += btVector3(0, 0, half.z() * 2);
        for (int iy = 0; iy < height; ++iy) {
            const int row = height - iy;
            for (int ix = 0; ix < row; ++ix) {
                const btVector3 pos =
                    offset + btVector3(half.x() * btScalar(1 + ix * 2 - row),
                                       half.y() * btScalar(1 + iy * 2), 0);
                w.add(box, 1, pos, s)->setFriction(1);
            }
        }
    }
    w.name = "mt_stacks";
    w.description = std::to_string(w.dynamic) +
                    " boxes (1 x 0.5 x 1 m, 1 kg, friction 1): "
                    "MultiThreadedDemo's stack of walls on a kinematic "
                    "ground";
}

// --- ExtendedTutorials: a user's first scenes ------------------------------

// Bullet 3.24's examples/ExtendedTutorials (CommonRigidBodyBase: g = 10
// along -y, the world's defaults, 10 iterations), rebuilt body for body;
// rfbench_tutorials measures on these what each tutorial shows.  The
// ground of all but the cradle: a static box of half extent 50 whose top
// is y = 0 (body 0).  A joint is added as the tutorials add theirs, its
// bodies still colliding.  Every scene the same at both sizes.
inline void tutorial_ground(World &w)
{
    w.add(w.own(new btBoxShape(btVector3(50, 50, 50))), 0,
          btVector3(0, -50, 0));
}

inline void tutorial_joint(World &w, btTypedConstraint *j)
{
    w.joints.emplace_back(j);
    w.world.addConstraint(j);
}

// InclinedPlane.cpp: a ramp (static box of half extents 20 x 1 x 10 at y
// = 15, turned 20 deg about z, friction 1: body 1), a box (2 m, 1 kg,
// friction 1: body 2) and a sphere (R 1, 1 kg, friction 1, rolling
// friction 1, spinning 0.3: body 3) dropped on it.
inline void build_incline(World &w, Size)
{
    tutorial_ground(w);
    btTransform ramp(
        btQuaternion(btVector3(0, 0, 1), btScalar(20.0 * M_PI / 180.0)),
        btVector3(0, 15, 0));
    w.add(w.own(new btBoxShape(btVector3(20, 1, 10))), 0, ramp)->setFriction(1);
    w.add(w.own(new btBoxShape(btVector3(1, 1, 1))), 1, btVector3(0, 20, 2))
        ->setFriction(1);
    btRigidBody *ball =
        w.add(w.own(new btSphereShape(1)), 1, btVector3(0, 20, 4));
    ball->setFriction(1);
    ball->setRollingFriction(1);
    ball->setSpinningFriction(btScalar(0.3));
    w.name = "incline";
    w.description = "InclinedPlane: a box and a ball dropped on a 20 deg "
                    "ramp (friction 1, the ball rolling friction 1)";
}

// NewtonsCradle.cpp: five pendula (spheres R 1, 1 kg, restitution 1, no
// friction, 2.1 R apart) on strings of length 8 (a free sphere hung on a
// point-to-point joint from a sphere held on one at y = 15: bodies 2 i
// and 2 i + 1), every body kept awake; the last pendulum released at 4.6
// m/s (a 30 deg swing).  No ground.
inline void build_cradle(World &w, Size)
{
    const double L = 8, R = 1;
    btCollisionShape *ball = w.own(new btSphereShape((btScalar)R));
    btRigidBody *bob = nullptr;
    for (int i = 0; i < 5; ++i) {
        const double x = -2.1 * R * i;
        btRigidBody *top = w.add(ball, 1, btVector3((btScalar)x, 15, 0));
        bob = w.add(ball, 1, btVector3((btScalar)x, (btScalar)(15 - L), 0));
        top->setActivationState(DISABLE_DEACTIVATION);
        bob->setActivationState(DISABLE_DEACTIVATION);
        bob->setFriction(0);
        bob->setRestitution(1);
        tutorial_joint(w,
                       new btPoint2PointConstraint(*top, btVector3(0, 0, 0)));
        tutorial_joint(w, new btPoint2PointConstraint(
                              *bob, *top, btVector3(0, (btScalar)L, 0),
                              btVector3(0, 0, 0)));
    }
    const double v0 = std::sqrt(2 * 10 * L * (1 - std::cos(M_PI / 6)));
    bob->setLinearVelocity(btVector3((btScalar)v0, 0, 0));
    w.name = "cradle";
    w.description = "NewtonsCradle: five pendula (R 1 m, restitution 1), the "
                    "last one released at 30 deg";
}

// MultipleBoxes.cpp: ten boxes (2 m, 1 kg) in a column, the lowest at y =
// 20 (bodies 1-10), dropped on the ground.
inline void build_multiple_boxes(World &w, Size)
{
    tutorial_ground(w);
    btCollisionShape *box = w.own(new btBoxShape(btVector3(1, 1, 1)));
    const int s = w.structure("column");
    for (int i = 0; i < 10; ++i) {
        w.add(box, 1, btVector3(0, btScalar(20 + 2 * i), 0), s);
    }
    w.name = "multiple_boxes";
    w.description = "MultipleBoxes: a column of ten 2 m boxes dropped on the "
                    "ground";
}

// CompoundBoxes.cpp: an L of three unit cubes (one compound body, 1 kg, at
// y = 10: body 1) dropped on the ground.
inline void build_compound_boxes(World &w, Size)
{
    tutorial_ground(w);
    btBoxShape *cube = w.own(new btBoxShape(btVector3(0.5f, 0.5f, 0.5f)));
    auto *shape = w.own(new btCompoundShape());
    const btVector3 at[3] = {{0, 0, 0}, {0, -1, 0}, {0, 0, 1}};
    for (const btVector3 &c : at) {
        shape->addChildShape(btTransform(btQuaternion::getIdentity(), c), cube);
    }
    w.add(shape, 1, btVector3(0, 10, 0));
    w.name = "compound_boxes";
    w.description = "CompoundBoxes: an L of three cubes dropped on the ground";
}

// Chain.cpp and the Bridge (Bridge.cpp): ten boxes on pairs of
// point-to-point joints (bodies 1-10).  Chain: boxes 2 x 2 x 0.5 m, 1 kg,
// 2 m apart upwards from y = 5, hung from the top one (static).  Bridge:
// planks 0.8 x 0.4 x 2 m, 1 kg, 0.84 m apart at y = 5 on joints that want
// them 1 m apart, the two ends static.
inline void build_jointed(World &w, bool bridge)
{
    tutorial_ground(w);
    const int n = 10;
    std::vector<btRigidBody *> b;
    for (int i = 0; i < n; ++i) {
        if (bridge) {
            const double half = 0.5 * (0.4 * n + 0.4 * (n - 1));
            const double x = -(2.0 * i / (n - 1) - 1.0) * half;
            b.push_back(w.add(w.own(new btBoxShape(btVector3(0.4f, 0.2f, 1))),
                              (i == 0 || i == n - 1) ? 0 : 1,
                              btVector3((btScalar)x, 5, 0)));
        } else {
            b.push_back(w.add(w.own(new btBoxShape(btVector3(1, 1, 0.25f))),
                              i == n - 1 ? 0 : 1,
                              btVector3(0, btScalar(5 + 2 * i), 0)));
        }
    }
    for (int i = 0; i + 1 < n; ++i) {
        for (int side = -1; side <= 1; side += 2) {
            tutorial_joint(
                w, bridge
                       ? new btPoint2PointConstraint(
                             *b[i], *b[i + 1], btVector3(-0.5f, 0, 0.5f * side),
                             btVector3(0.5f, 0, 0.5f * side))
                       : new btPoint2PointConstraint(
                             *b[i], *b[i + 1], btVector3(0.5f * side, 1, 0),
                             btVector3(0.5f * side, -1, 0)));
        }
    }
}

inline void build_chain(World &w, Size)
{
    build_jointed(w, false);
    w.name = "chain";
    w.description = "Chain: ten boxes hanging on pairs of point-to-point "
                    "joints from a static one";
}

inline void build_bridge(World &w, Size)
{
    build_jointed(w, true);
    w.name = "bridge";
    w.description = "Bridge: ten planks on point-to-point joints between two "
                    "static ones";
}

// --- the scene table --------------------------------------------------------

// Steps per size: enough for stock Bullet to settle and put everything to
// sleep (its sleep step, measured, plus a margin), or 600 (10 s) at full
// size where something keeps moving under stock (toppled columns and
// barrels rolling on their sides, things rolling on the terrain's hills,
// the 47-layer pile of falling boxes) and half of that at quick size.
typedef void (*SceneBuilder)(World &, Size);
struct SceneEntry {
    const char *name;
    SceneBuilder build;
    int quick_steps, full_steps;
};
// Step counts cover 1.5 times stock's sleep step where stock sleeps, so
// that the target (asleep by stock's step + 20%) can be read off
// every run.
const SceneEntry kScenes[] = {
    {"falling_boxes", build_falling_boxes, 320, 600}, // quick sleeps 204
    {"pyramid", build_pyramid, 240, 300},             // 135, 159
    {"ragdolls", build_ragdolls, 760, 1260},          // 502, 829
    {"convex_stack", build_convex_stack, 300, 600},
    {"prim_mesh", build_prim_mesh, 300, 600},
    {"convex_mesh", build_convex_mesh, 300, 600},
    {"basic_demo", build_basic_demo, 640, 640}, // 421
    {"rolling_friction", build_rolling_friction, 300, 600},
    {"sphere_pile", build_sphere_pile, 540, 600}, // quick 355
    {"small_stacks", build_small_stacks, 300, 300},
    {"small_spheres", build_small_spheres, 300, 300},
    {"mt_stacks", build_mt_stacks, 300, 600},
    // the small-scene set: ExtendedTutorials (rfbench_tutorials' times)
    {"incline", build_incline, 90, 180},
    {"cradle", build_cradle, 45, 90},
    {"multiple_boxes", build_multiple_boxes, 900, 1800}, // stock 292
    {"compound_boxes", build_compound_boxes, 300, 600},  // 200
    {"chain", build_chain, 300, 600},                    // 122
    {"bridge", build_bridge, 300, 600}};

inline const SceneEntry *find_scene(const std::string &name)
{
    for (const SceneEntry &e : kScenes) {
        if (name == e.name) {
            return &e;
        }
    }
    return nullptr;
}

// Build the named scene into w; false for an unknown name.
inline bool build_scene(World &w, const std::string &name, Size size)
{
    const SceneEntry *e = find_scene(name);
    if (e != nullptr) {
        e->build(w, size);
    }
    return e != nullptr;
}

// --- measurements (the same meaning for every solver) ---------------------

inline bool is_dynamic(const btRigidBody &b)
{
    return b.getInvMass() > 0;
}

// Sum of 1/2 m v^2 + 1/2 w.I w over the dynamic bodies, J.
inline double kinetic_energy(const World &w)
{
    double e = 0;
    for (const auto &b : w.bodies) {
        if (!is_dynamic(*b)) {
            continue;
        }
        const btVector3 v = b->getLinearVelocity(),
                        om = b->getAngularVelocity();
        const btVector3 iw = b->getInvInertiaTensorWorld().inverse() * om;
        e += 0.5 / b->getInvMass() * v.length2() + 0.5 * om.dot(iw);
    }
    return e;
}

// Gravity's potential, -m g.x summed over the dynamic bodies, J (any
// reference height: only its changes matter).
inline double potential_energy(const World &w)
{
    const btVector3 g = w.world.getGravity();
    double e = 0;
    for (const auto &b : w.bodies) {
        if (is_dynamic(*b)) {
            e -= g.dot(b->getCenterOfMassPosition()) / b->getInvMass();
        }
    }
    return e;
}

// Dynamic bodies not asleep (Bullet's ISLAND_SLEEPING).
inline int awake_bodies(const World &w)
{
    int n = 0;
    for (const auto &b : w.bodies) {
        if (is_dynamic(*b) && b->getActivationState() != ISLAND_SLEEPING) {
            ++n;
        }
    }
    return n;
}

// Penetration of the dispatcher's manifold points with getDistance() < 0:
// the deepest (m, >= 0), the mean depth of the penetrating points, and the
// points the solvers see (within the manifolds' processing threshold).
struct Penetration {
    double max = 0, mean = 0;
    int penetrating = 0, contacts = 0;
};
inline Penetration penetration(World &w)
{
    Penetration p;
    double sum = 0;
    for (int i = 0; i < w.dispatcher.getNumManifolds(); ++i) {
        const btPersistentManifold *m =
            w.dispatcher.getManifoldByIndexInternal(i);
        for (int k = 0; k < m->getNumContacts(); ++k) {
            const double d = m->getContactPoint(k).getDistance();
            if (d <= m->getContactProcessingThreshold()) {
                ++p.contacts;
            }
            if (d < 0) {
                ++p.penetrating;
                sum += -d;
                p.max = std::max(p.max, -d);
            }
        }
    }
    p.mean = p.penetrating ? sum / p.penetrating : 0;
    return p;
}

// The largest distance between a joint's two world pivots (frame A's
// origin on body A, frame B's on body B), m, over the hinge, cone-twist
// and point-to-point joints: how far the solver let them come apart.
inline double joint_error(const World &w)
{
    double err = 0;
    for (const auto &j : w.joints) {
        const btTransform &ta = j->getRigidBodyA().getCenterOfMassTransform();
        const btTransform &tb = j->getRigidBodyB().getCenterOfMassTransform();
        btVector3 pa, pb;
        switch (j->getConstraintType()) {
        case HINGE_CONSTRAINT_TYPE: {
            const auto *h = static_cast<const btHingeConstraint *>(j.get());
            pa = ta * h->getAFrame().getOrigin();
            pb = tb * h->getBFrame().getOrigin();
            break;
        }
        case CONETWIST_CONSTRAINT_TYPE: {
            const auto *c = static_cast<const btConeTwistConstraint *>(j.get());
            pa = ta * c->getAFrame().getOrigin();
            pb = tb * c->getBFrame().getOrigin();
            break;
        }
        case POINT2POINT_CONSTRAINT_TYPE: {
            const auto *p =
                static_cast<const btPoint2PointConstraint *>(j.get());
            pa = ta * p->getPivotInA();
            pb = tb * p->getPivotInB();
            break;
        }
        default: continue;
        }
        err = std::max(err, (double)(pa - pb).length());
    }
    return err;
}

// Half the smallest dimension of a body's shape (from its local AABB), m:
// a body that moved farther than this from where it was built has left
// its place in the structure.
inline double half_smallest_dimension(const btRigidBody &b)
{
    btVector3 lo, hi;
    btTransform id;
    id.setIdentity();
    b.getCollisionShape()->getAabb(id, lo, hi);
    const btVector3 d = hi - lo;
    return 0.5 * std::min({(double)d.x(), (double)d.y(), (double)d.z()});
}

// Tilt of body i since it was built, rad: the angle by which its rotation
// since then turned the up direction (-g); a turn about the vertical is
// no tilt.
inline double tilt(const World &w, int i)
{
    btVector3 up = -w.world.getGravity();
    if (up.length2() == 0) {
        return 0;
    }
    up.normalize();
    const btRigidBody &b = *w.bodies[(size_t)i];
    const btMatrix3x3 turn = b.getWorldTransform().getBasis() *
                             w.start[(size_t)i].getBasis().transpose();
    const double c = std::max(-1.0, std::min(1.0, (double)(turn * up).dot(up)));
    return std::acos(c);
}

// Body i's displacement across gravity from `from`, m (all of it in a
// world without gravity).
inline double sideways(const World &w, int i, const btVector3 &from)
{
    btVector3 d = w.bodies[(size_t)i]->getWorldTransform().getOrigin() - from;
    btVector3 up = -w.world.getGravity();
    if (up.length2() > 0) {
        up.normalize();
        d -= d.dot(up) * up;
    }
    return d.length();
}

// A body has fallen when it moved sideways (across gravity) more than
// half its smallest dimension from where it was built, or tilted more
// than 30 deg (spheres: no tilt).  Sideways only: BenchmarkDemo builds its
// stacks with gaps between the layers (4 cm in the pyramid, 0.5 m in the
// convex stack), and a body that drops straight onto the one below has
// not fallen.
inline bool fallen(const World &w, int i)
{
    const btRigidBody &b = *w.bodies[(size_t)i];
    if (sideways(w, i, w.start[(size_t)i].getOrigin()) >
        half_smallest_dimension(b)) {
        return true;
    }
    const bool sphere =
        b.getCollisionShape()->getShapeType() == SPHERE_SHAPE_PROXYTYPE;
    return !sphere && tilt(w, i) > SIMD_PI / 6;
}

struct StructureState {
    int bodies = 0;
    int fallen = 0;
    double top_displacement = 0; // of the body built highest, m
};
inline StructureState structure_state(const World &w, const Structure &s)
{
    StructureState st;
    btVector3 up = -w.world.getGravity();
    up.normalize();
    int top = -1;
    double top_h = -1e300;
    for (int i : s.bodies) {
        ++st.bodies;
        st.fallen += fallen(w, i) ? 1 : 0;
        const double h = w.start[(size_t)i].getOrigin().dot(up);
        if (h > top_h) {
            top_h = h;
            top = i;
        }
    }
    if (top >= 0) {
        st.top_displacement =
            (w.bodies[(size_t)top]->getWorldTransform().getOrigin() -
             w.start[(size_t)top].getOrigin())
                .length();
    }
    return st;
}

} // namespace rfscenes

#endif // ROLLFRIC_BENCH_BULLET_SCENES_HPP
