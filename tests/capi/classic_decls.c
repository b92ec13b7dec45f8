/*
 * The classic declarations, exactly: with PL_CLASSIC_API
 * defined, rollfric's header declares every function of Bullet 2.x's
 * Bullet-C-Api.h as that header did, so that prototypes copied from it and
 * function-pointer tables typed with them compile, in C and in C++ (this
 * file is also compiled as C++ by classic_decls.cpp), in both precisions.
 * The prototypes below restate the classic header's (Bullet 2.82,
 * src/Bullet-C-Api.h); a return type or a const that differs from the
 * header's is a compile error in both languages.  plRayCast is left out:
 * its classic by-value result is the one documented difference
 * (docs/c-api.md, "Classic compatibility").
 *
 * At run time: every table entry is bound (the symbols link), and the SDK
 * made through the table works, its errors read through plGetLastError.
 */
#define PL_CLASSIC_API
#include "rollfric/bullet_c_api.h"

#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif
extern plPhysicsSdkHandle plNewBulletSdk(void);
extern void plDeletePhysicsSdk(plPhysicsSdkHandle physicsSdk);
extern plCollisionBroadphaseHandle
plCreateSapBroadphase(btBroadphaseCallback beginCallback,
                      btBroadphaseCallback endCallback);
extern void plDestroyBroadphase(plCollisionBroadphaseHandle bp);
extern plBroadphaseProxyHandle
plCreateProxy(plCollisionBroadphaseHandle bp, void *clientData, plReal minX,
              plReal minY, plReal minZ, plReal maxX, plReal maxY, plReal maxZ);
extern void plDestroyProxy(plCollisionBroadphaseHandle bp,
                           plBroadphaseProxyHandle proxyHandle);
extern void plSetBoundingBox(plBroadphaseProxyHandle proxyHandle, plReal minX,
                             plReal minY, plReal minZ, plReal maxX, plReal maxY,
                             plReal maxZ);
extern plCollisionWorldHandle plCreateCollisionWorld(plPhysicsSdkHandle sdk);
extern plDynamicsWorldHandle plCreateDynamicsWorld(plPhysicsSdkHandle sdk);
extern void plDeleteDynamicsWorld(plDynamicsWorldHandle world);
extern void plStepSimulation(plDynamicsWorldHandle, plReal timeStep);
extern void plAddRigidBody(plDynamicsWorldHandle world,
                           plRigidBodyHandle object);
extern void plRemoveRigidBody(plDynamicsWorldHandle world,
                              plRigidBodyHandle object);
extern plRigidBodyHandle plCreateRigidBody(void *user_data, float mass,
                                           plCollisionShapeHandle cshape);
extern void plDeleteRigidBody(plRigidBodyHandle body);
extern plCollisionShapeHandle plNewSphereShape(plReal radius);
extern plCollisionShapeHandle plNewBoxShape(plReal x, plReal y, plReal z);
extern plCollisionShapeHandle plNewCapsuleShape(plReal radius, plReal height);
extern plCollisionShapeHandle plNewConeShape(plReal radius, plReal height);
extern plCollisionShapeHandle plNewCylinderShape(plReal radius, plReal height);
extern plCollisionShapeHandle plNewCompoundShape(void);
extern void plAddChildShape(plCollisionShapeHandle compoundShape,
                            plCollisionShapeHandle childShape,
                            plVector3 childPos, plQuaternion childOrn);
extern void plDeleteShape(plCollisionShapeHandle shape);
extern plCollisionShapeHandle plNewConvexHullShape(void);
extern void plAddVertex(plCollisionShapeHandle convexHull, plReal x, plReal y,
                        plReal z);
extern plMeshInterfaceHandle plNewMeshInterface(void);
extern void plAddTriangle(plMeshInterfaceHandle meshHandle, plVector3 v0,
                          plVector3 v1, plVector3 v2);
extern plCollisionShapeHandle
    plNewStaticTriangleMeshShape(plMeshInterfaceHandle);
extern void plSetScaling(plCollisionShapeHandle shape, plVector3 scaling);
extern void plGetOpenGLMatrix(plRigidBodyHandle object, plReal *matrix);
extern void plGetPosition(plRigidBodyHandle object, plVector3 position);
extern void plGetOrientation(plRigidBodyHandle object,
                             plQuaternion orientation);
extern void plSetPosition(plRigidBodyHandle object, const plVector3 position);
extern void plSetOrientation(plRigidBodyHandle object,
                             const plQuaternion orientation);
extern void plSetEuler(plReal yaw, plReal pitch, plReal roll,
                       plQuaternion orient);
extern void plSetOpenGLMatrix(plRigidBodyHandle object, plReal *matrix);
double plNearestPoints(float p1[3], float p2[3], float p3[3], float q1[3],
                       float q2[3], float q3[3], float *pa, float *pb,
                       float normal[3]);
#ifdef __cplusplus
}
#endif

/* A binding's table, typed with the classic declarations. */
typedef struct classic_table {
    plPhysicsSdkHandle (*new_sdk)(void);
    void (*delete_sdk)(plPhysicsSdkHandle);
    plCollisionBroadphaseHandle (*create_sap)(btBroadphaseCallback,
                                              btBroadphaseCallback);
    void (*destroy_bp)(plCollisionBroadphaseHandle);
    plBroadphaseProxyHandle (*create_proxy)(plCollisionBroadphaseHandle, void *,
                                            plReal, plReal, plReal, plReal,
                                            plReal, plReal);
    void (*destroy_proxy)(plCollisionBroadphaseHandle, plBroadphaseProxyHandle);
    void (*set_bbox)(plBroadphaseProxyHandle, plReal, plReal, plReal, plReal,
                     plReal, plReal);
    plCollisionWorldHandle (*create_cw)(plPhysicsSdkHandle);
    plDynamicsWorldHandle (*create_world)(plPhysicsSdkHandle);
    void (*delete_world)(plDynamicsWorldHandle);
    void (*step)(plDynamicsWorldHandle, plReal);
    void (*add_body)(plDynamicsWorldHandle, plRigidBodyHandle);
    void (*remove_body)(plDynamicsWorldHandle, plRigidBodyHandle);
    plRigidBodyHandle (*create_body)(void *, float, plCollisionShapeHandle);
    void (*delete_body)(plRigidBodyHandle);
    plCollisionShapeHandle (*sphere)(plReal);
    plCollisionShapeHandle (*box)(plReal, plReal, plReal);
    plCollisionShapeHandle (*capsule)(plReal, plReal);
    plCollisionShapeHandle (*cone)(plReal, plReal);
    plCollisionShapeHandle (*cylinder)(plReal, plReal);
    plCollisionShapeHandle (*compound)(void);
    void (*add_child)(plCollisionShapeHandle, plCollisionShapeHandle, plReal *,
                      plReal *);
    void (*delete_shape)(plCollisionShapeHandle);
    plCollisionShapeHandle (*hull)(void);
    void (*add_vertex)(plCollisionShapeHandle, plReal, plReal, plReal);
    plMeshInterfaceHandle (*mesh)(void);
    void (*add_triangle)(plMeshInterfaceHandle, plReal *, plReal *, plReal *);
    plCollisionShapeHandle (*mesh_shape)(plMeshInterfaceHandle);
    void (*set_scaling)(plCollisionShapeHandle, plReal *);
    void (*get_gl)(plRigidBodyHandle, plReal *);
    void (*get_position)(plRigidBodyHandle, plReal *);
    void (*get_orientation)(plRigidBodyHandle, plReal *);
    void (*set_position)(plRigidBodyHandle, const plReal *);
    void (*set_orientation)(plRigidBodyHandle, const plReal *);
    void (*set_euler)(plReal, plReal, plReal, plReal *);
    void (*set_gl)(plRigidBodyHandle, plReal *);
    double (*nearest)(float *, float *, float *, float *, float *, float *,
                      float *, float *, float *);
} classic_table;

static const classic_table table = {plNewBulletSdk,
                                    plDeletePhysicsSdk,
                                    plCreateSapBroadphase,
                                    plDestroyBroadphase,
                                    plCreateProxy,
                                    plDestroyProxy,
                                    plSetBoundingBox,
                                    plCreateCollisionWorld,
                                    plCreateDynamicsWorld,
                                    plDeleteDynamicsWorld,
                                    plStepSimulation,
                                    plAddRigidBody,
                                    plRemoveRigidBody,
                                    plCreateRigidBody,
                                    plDeleteRigidBody,
                                    plNewSphereShape,
                                    plNewBoxShape,
                                    plNewCapsuleShape,
                                    plNewConeShape,
                                    plNewCylinderShape,
                                    plNewCompoundShape,
                                    plAddChildShape,
                                    plDeleteShape,
                                    plNewConvexHullShape,
                                    plAddVertex,
                                    plNewMeshInterface,
                                    plAddTriangle,
                                    plNewStaticTriangleMeshShape,
                                    plSetScaling,
                                    plGetOpenGLMatrix,
                                    plGetPosition,
                                    plGetOrientation,
                                    plSetPosition,
                                    plSetOrientation,
                                    plSetEuler,
                                    plSetOpenGLMatrix,
                                    plNearestPoints};

int main(void)
{
    int bad = 0;
    const unsigned char *raw = (const unsigned char *)&table;
    /* every entry bound: no all-zero pointer slot */
    for (size_t k = 0; k < sizeof table / sizeof(void (*)(void)); ++k) {
        int zero = 1;
        for (size_t b = 0; b < sizeof(void (*)(void)); ++b) {
            zero &= raw[k * sizeof(void (*)(void)) + b] == 0;
        }
        if (zero) {
            printf("FAIL: table entry %zu is NULL\n", k);
            bad = 1;
        }
    }
    plPhysicsSdkHandle sdk = table.new_sdk();
    plDynamicsWorldHandle world = table.create_world(sdk);
    plCollisionShapeHandle ball = table.sphere((plReal)0.5);
    plRigidBodyHandle body = table.create_body(NULL, 1.0f, ball);
    table.add_body(world, body);
    plVector3 start = {0, 10, 0};
    table.set_position(body, start);
    for (int i = 0; i < 60; ++i) {
        table.step(world, (plReal)(1.0 / 60.0));
    }
    plVector3 p;
    table.get_position(body, p);
    /* one second of free fall under the classic world's gravity 10 m/s^2,
       Bullet's semi-implicit Euler at 1/60 s: y = 10 - g h^2 n (n + 1) / 2
       = 10 - 10 * 61 / 120 = 4.9167 (float rounding: 1e-3) */
    const double want = 10.0 - 10.0 * 61.0 / 120.0;
    if (!(p[1] > want - 1e-3 && p[1] < want + 1e-3)) {
        printf("FAIL: ball at y = %g after 1 s, want %g\n", (double)p[1], want);
        bad = 1;
    }
    /* a classic void function's error still reads through plGetLastError */
    table.add_body(world, body); /* already in the world */
    if (strstr(plGetLastError(), "plAddRigidBody") == NULL) {
        printf("FAIL: no error message for a repeated plAddRigidBody: '%s'\n",
               plGetLastError());
        bad = 1;
    }
    table.remove_body(world, body);
    table.delete_body(body);
    table.delete_shape(ball);
    table.delete_world(world);
    table.delete_sdk(sdk);
    if (!bad) {
        printf("classic declarations: table bound, free fall as classic\n");
    }
    return bad;
}
