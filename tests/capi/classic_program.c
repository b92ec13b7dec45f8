/*
 * A program written against Bullet 2.x's classic C API (Bullet-C-Api.h,
 * removed from Bullet in 2.83), in that header's style: handles, plReal
 * arrays, void returns ignored, no error checks in the simulation code.
 * Only the include line differs from the classic program.  It
 * calls every function of the classic header at least once and checks
 * what it computes:
 *   - a unit box dropped on a static triangle mesh (built with the classic
 *     mesh interface) comes to rest on it;
 *   - the shape constructors mean what the classic implementation made of
 *     them (rays cast down onto static shapes hit their tops);
 *   - a SAP broadphase reports the overlapping pair of two proxies through
 *     its begin callback, and its end when they part;
 *   - plNearestPoints gives the closest points of two triangles.
 * With PL_CLASSIC_API it also adds a pl* function of its own, as glue
 * code did.  The one difference from the classic text: plRayCast takes its
 * result by
 * pointer (the classic by-value declaration could not return a hit; see
 * docs/c-api.md, "Classic compatibility").
 *
 * Built in both precisions, with and without PL_CLASSIC_API, and run
 * under valgrind (CMakeLists.txt).  Exit status 0 when every check holds.
 */
#include "rollfric/bullet_c_api.h" /* classic: #include "Bullet-C-Api.h" */

#include <math.h>
#include <stdio.h>

static int failures = 0;

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            ++failures;                                                        \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);             \
            printf(__VA_ARGS__);                                               \
            printf("\n");                                                      \
        }                                                                      \
    } while (0)

#ifdef PL_CLASSIC_API
/* Glue code of the classic era adds its own pl* functions.  With the
   classic declarations only (PL_CLASSIC_API), rollfric's extensions of the
   same names (plSetGravity here) are not declared and do not collide. */
static int glue_calls = 0;
void plSetGravity(plDynamicsWorldHandle world, plReal x, plReal y, plReal z);
void plSetGravity(plDynamicsWorldHandle world, plReal x, plReal y, plReal z)
{
    (void)world;
    glue_calls += x == 0 && y == -10 && z == 0;
}
#endif

/* ---- broadphase callbacks (the classic btBroadphaseCallback) ---- */

static int g_begin = 0, g_end = 0;
static void *g_pair[2] = {NULL, NULL};
static plCollisionBroadphaseHandle g_bp = NULL;

static void begin_overlap(void *client, void *a, void *b)
{
    CHECK(client == (void *)g_bp, "client data %p", client);
    ++g_begin;
    g_pair[0] = a;
    g_pair[1] = b;
}

static void end_overlap(void *client, void *a, void *b)
{
    (void)a;
    (void)b;
    CHECK(client == (void *)g_bp, "client data %p", client);
    ++g_end;
}

static void broadphase_part(plPhysicsSdkHandle sdk)
{
    static int obj_a = 1, obj_b = 2;
    plCollisionBroadphaseHandle bp =
        plCreateSapBroadphase(begin_overlap, end_overlap);
    CHECK(bp != NULL, "%s", plGetLastError());
    g_bp = bp;
    plCollisionWorldHandle cw = plCreateCollisionWorld(sdk);
    CHECK(cw != NULL, "%s", plGetLastError());
    plBroadphaseProxyHandle pa =
        plCreateProxy(bp, &obj_a, -1.f, -1.f, -1.f, 1.f, 1.f, 1.f);
    plBroadphaseProxyHandle pb =
        plCreateProxy(bp, &obj_b, 3.f, -1.f, -1.f, 5.f, 1.f, 1.f);
    /* apart: no pair yet */
    CHECK(g_begin == 0, "begin %d before any overlap", g_begin);
    /* move b onto a: the pair (a, b) begins, in either order */
    plSetBoundingBox(pb, 0.5f, -1.f, -1.f, 2.5f, 1.f, 1.f);
    CHECK(g_begin == 1, "begin %d after the boxes overlap", g_begin);
    CHECK((g_pair[0] == &obj_a && g_pair[1] == &obj_b) ||
              (g_pair[0] == &obj_b && g_pair[1] == &obj_a),
          "pair (%p, %p)", g_pair[0], g_pair[1]);
    /* and apart again: the pair ends */
    plSetBoundingBox(pb, 3.f, -1.f, -1.f, 5.f, 1.f, 1.f);
    CHECK(g_end == 1, "end %d after the boxes parted", g_end);
    plDestroyProxy(bp, pb);
    plDestroyProxy(bp, pa);
    plDestroyBroadphase(bp);
}

/* ---- nearest points of two triangles ---- */

static void nearest_part(void)
{
    /* triangle P in the plane z = 0; triangle Q rising from its corner
       (0.2, 0.2, 2), which lies right over P's interior, to z = 5: the
       closest points are that corner and its foot (0.2, 0.2, 0), distance
       2 (plane geometry), normal along -z */
    float p1[3] = {0, 0, 0}, p2[3] = {1, 0, 0}, p3[3] = {0, 1, 0};
    float q1[3] = {0.2f, 0.2f, 2}, q2[3] = {3, 0.2f, 5}, q3[3] = {0.2f, 3, 5};
    float pa[3], pb[3], normal[3];
    double d = plNearestPoints(p1, p2, p3, q1, q2, q3, pa, pb, normal);
    /* tolerance: GJK stops at its relative accuracy (1e-6 of the sizes)
       and the triangles carry a 1e-6 margin each */
    CHECK(fabs(d - 2.0) < 1e-4, "distance %g, want 2", d);
    /* pa on P, pb on Q, the normal from Q towards P: (0, 0, -1) */
    CHECK(fabs(normal[2] + 1.0) < 1e-4, "normal (%g %g %g)", normal[0],
          normal[1], normal[2]);
    CHECK(fabs(pa[0] - 0.2) < 1e-4 && fabs(pa[1] - 0.2) < 1e-4 &&
              fabs(pa[2]) < 1e-4,
          "point on P (%g %g %g)", pa[0], pa[1], pa[2]);
    CHECK(fabs(pb[0] - 0.2) < 1e-4 && fabs(pb[1] - 0.2) < 1e-4 &&
              fabs(pb[2] - 2.0) < 1e-4,
          "point on Q (%g %g %g)", pb[0], pb[1], pb[2]);
}

/* ---- the shapes' meaning: a ray down the y axis onto each static shape
   hits its top, at the height the classic constructor gave it ---- */

static double top_of(plDynamicsWorldHandle world, plCollisionShapeHandle s)
{
    plRigidBodyHandle body = plCreateRigidBody(NULL, 0.f, s);
    plAddRigidBody(world, body);
    plVector3 from = {0, 10, 0}, to = {0, -10, 0};
    plRayCastResult res;
    double y = NAN;
    if (plRayCast(world, from, to, &res) == 1) {
        y = res.m_positionWorld[1];
    }
    plRemoveRigidBody(world, body);
    plDeleteRigidBody(body);
    plDeleteShape(s);
    return y;
}

static void shape_part(plDynamicsWorldHandle world)
{
    /* Bullet-C-API.cpp 2.82: box half extents (x, y, z); capsule: spheres
       of the radius at +-height; cone: btConeShape(radius, height), apex
       at +height / 2; cylinder: half extents (radius, height, radius).
       A ray meets a cone or a convex hull on its surface grown by the
       collision margin (Bullet's default 0.04 m; boxes, cylinders and
       spheres keep theirs inside).  Tolerance 1e-3 m: Bullet's convex ray
       cast stops within its margin iteration's accuracy. */
    const double margin = 0.04;
    double y;
    y = top_of(world, plNewBoxShape(0.5f, 0.25f, 0.5f));
    CHECK(fabs(y - 0.25) < 1e-3, "box top %g, want 0.25", y);
    y = top_of(world, plNewCapsuleShape(0.25f, 0.5f));
    CHECK(fabs(y - 0.75) < 1e-3, "capsule top %g, want 0.75", y);
    y = top_of(world, plNewConeShape(0.5f, 1.0f));
    CHECK(fabs(y - (0.5 + margin)) < 1e-3, "cone apex %g, want 0.54", y);
    y = top_of(world, plNewCylinderShape(0.5f, 0.3f));
    CHECK(fabs(y - 0.3) < 1e-3, "cylinder top %g, want 0.3", y);
    /* a compound of two spheres, one 1 m up: its top at 1.2 */
    plCollisionShapeHandle comp = plNewCompoundShape();
    plCollisionShapeHandle s1 = plNewSphereShape(0.2f);
    plVector3 up = {0, 1, 0};
    plQuaternion id = {0, 0, 0, 1};
    plAddChildShape(comp, s1, up, id);
    y = top_of(world, comp);
    CHECK(fabs(y - 1.2) < 1e-3, "compound top %g, want 1.2", y);
    plDeleteShape(s1);
    /* a convex hull of a unit cube's corners, scaled by 2 in y: top at 1 */
    plCollisionShapeHandle hull = plNewConvexHullShape();
    for (int k = 0; k < 8; ++k) {
        plAddVertex(hull, (k & 1) ? 0.5f : -0.5f, (k & 2) ? 0.5f : -0.5f,
                    (k & 4) ? 0.5f : -0.5f);
    }
    plVector3 scale = {1, 2, 1};
    plSetScaling(hull, scale);
    y = top_of(world, hull);
    CHECK(fabs(y - (1.0 + margin)) < 1e-3, "scaled hull top %g, want 1.04", y);
}

/* ---- a box dropped on a triangle mesh ---- */

static void drop_part(plDynamicsWorldHandle world)
{
    plMeshInterfaceHandle mesh = plNewMeshInterface();
    plVector3 a = {-10, 0, -10}, b = {10, 0, -10}, c = {10, 0, 10},
              d = {-10, 0, 10};
    plAddTriangle(mesh, a, b, c);
    plAddTriangle(mesh, a, c, d);
    plCollisionShapeHandle ground_shape = plNewStaticTriangleMeshShape(mesh);
    plRigidBodyHandle ground = plCreateRigidBody(NULL, 0.f, ground_shape);
    plAddRigidBody(world, ground);

    static int tag = 42;
    plCollisionShapeHandle box_shape = plNewBoxShape(0.5f, 0.5f, 0.5f);
    plRigidBodyHandle box = plCreateRigidBody(&tag, 1.f, box_shape);
    /* away from the mesh's inner edge (the diagonal x = z) */
    plVector3 start = {3, 2, -4};
    plSetPosition(box, start);
    plQuaternion q;
    plSetEuler(0.3f, 0.f, 0.f, q); /* a yaw: the box still lands flat */
    plSetOrientation(box, q);
    plAddRigidBody(world, box);

    /* the OpenGL matrix round trip keeps the transform */
    plReal m[16];
    plGetOpenGLMatrix(box, m);
    plSetOpenGLMatrix(box, m);
    plVector3 p;
    plGetPosition(box, p);
    CHECK(p[0] == start[0] && p[1] == start[1] && p[2] == start[2],
          "position after the matrix round trip (%g %g %g)", (double)p[0],
          (double)p[1], (double)p[2]);
    CHECK(m[12] == start[0] && m[13] == start[1] && m[14] == start[2],
          "matrix translation (%g %g %g)", (double)m[12], (double)m[13],
          (double)m[14]);

    for (int i = 0; i < 180; ++i) { /* 3 s at 60 Hz */
        plStepSimulation(world, 1.f / 60.f);
    }
    plGetPosition(box, p);
    plQuaternion o;
    plGetOrientation(box, o);
    /* at rest on the mesh: centre at its half height 0.5 m, within 1 cm
       (Bullet keeps resting contacts within its 0.04 m margin and
       m_linearSlop; a box that fell through or bounced would be metres
       off); flat (no tilt: q_x = q_z = 0 within 1e-3); and near its start
       in x and z (within 0.5 m: a flat landing at 6.3 m/s slides and turns
       the box a little, with either solver, as Bullet's manifold gathers
       the four corners over the first steps of the impact) */
    CHECK(fabs(p[1] - 0.5) < 0.01, "box rests at y = %g, want 0.5",
          (double)p[1]);
    CHECK(fabs(o[0]) < 1e-3 && fabs(o[2]) < 1e-3, "box tilted (%g %g %g %g)",
          (double)o[0], (double)o[1], (double)o[2], (double)o[3]);
    CHECK(fabs(p[0] - 3) < 0.5 && fabs(p[2] + 4) < 0.5,
          "box left its landing place for (%g, %g)", (double)p[0],
          (double)p[2]);
    /* and stays there: one more second changes nothing (asleep or at
       rest; 1e-4 m) */
    for (int i = 0; i < 60; ++i) {
        plStepSimulation(world, 1.f / 60.f);
    }
    plVector3 p2;
    plGetPosition(box, p2);
    CHECK(fabs(p2[0] - p[0]) < 1e-4 && fabs(p2[1] - p[1]) < 1e-4 &&
              fabs(p2[2] - p[2]) < 1e-4,
          "box still moving: (%g %g %g) -> (%g %g %g)", (double)p[0],
          (double)p[1], (double)p[2], (double)p2[0], (double)p2[1],
          (double)p2[2]);

    plRemoveRigidBody(world, box);
    plRemoveRigidBody(world, ground);
    plDeleteRigidBody(box);
    plDeleteRigidBody(ground);
    plDeleteShape(box_shape);
    plDeleteShape(ground_shape);
}

int main(void)
{
    plPhysicsSdkHandle sdk = plNewBulletSdk();
    plDynamicsWorldHandle world = plCreateDynamicsWorld(sdk);
    if (sdk == NULL || world == NULL) {
        printf("FAIL: no SDK or world: %s\n", plGetLastError());
        return 1;
    }
#ifdef PL_CLASSIC_API
    plSetGravity(world, 0, -10, 0); /* the glue's own function */
    CHECK(glue_calls == 1, "glue function called %d times", glue_calls);
#endif
    drop_part(world);
    shape_part(world);
    broadphase_part(sdk);
    nearest_part();
    plDeleteDynamicsWorld(world);
    plDeletePhysicsSdk(sdk);
    if (failures == 0) {
        printf("classic program: all checks passed\n");
    }
    return failures == 0 ? 0 : 1;
}
