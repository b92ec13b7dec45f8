/*
 * A C API for Bullet 3.24 with the rollfric cone solver: the classic pl*
 * functions that Bullet removed in 2.83 (same names and meanings, written
 * anew over Debian's Bullet), plus extensions for velocities, friction,
 * the contact solver and errors.  Pure C: no Bullet header is needed.
 *
 *     plPhysicsSdkHandle sdk = plNewBulletSdk();
 *     plDynamicsWorldHandle world = plCreateDynamicsWorld(sdk);
 *     plCollisionShapeHandle ball = plNewSphereShape(0.5);
 *     plRigidBodyHandle b = plCreateRigidBody(NULL, 1.0, ball);
 *     plAddRigidBody(world, b);
 *     plStepSimulation(world, 1.0 / 60);
 *     ...
 *     plDeleteRigidBody(b); plDeleteShape(ball);
 *     plDeleteDynamicsWorld(world); plDeletePhysicsSdk(sdk);
 *
 * Link with librollfric.so (plReal = float, Debian's "bullet") or with
 * librollfric-float64.so (define BT_USE_DOUBLE_PRECISION, as pkg-config
 * "rollfric-float64" does; plReal = double).  plNewBulletSdk is inline and
 * passes sizeof(plReal): the library of the other precision refuses it,
 * and every other creation function refuses to work before an SDK exists,
 * so a mismatch is caught at the first call with a message.
 *
 * Handles are generation-checked indices, never pointers: a NULL, stale
 * (deleted) or wrong-kind handle is detected without being dereferenced.
 * Functions that can fail return a plStatus (PL_OK == 0) or NULL, change
 * nothing on failure, and leave a message naming the bad argument in
 * plGetLastError() (per thread).  Nothing aborts.
 *
 * Ownership: the caller creates and deletes SDKs, worlds, shapes and
 * bodies.  Deleting a world removes (does not delete) its bodies;
 * deleting an SDK deletes its remaining worlds; a shape in use by a body
 * or a compound cannot be deleted (PL_ERR_STATE).  Every delete releases
 * all the memory behind its handle.
 *
 * Units: SI (m, kg, s, rad).  Worlds start with gravity (0, -9.81, 0) and
 * the cone solver (PL_SOLVER_CONE) with rf_config defaults.
 * Not thread-safe for one world: call from the thread that steps it.
 */
#ifndef ROLLFRIC_BULLET_C_API_H
#define ROLLFRIC_BULLET_C_API_H

#include "rollfric/rollfric.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef BT_USE_DOUBLE_PRECISION
typedef double plReal;
#else
typedef float plReal;
#endif
typedef plReal plVector3[3];
typedef plReal plQuaternion[4]; /* x, y, z, w */

#define PL_DECLARE_HANDLE(name) typedef struct name##__ *name
PL_DECLARE_HANDLE(plPhysicsSdkHandle);
PL_DECLARE_HANDLE(plDynamicsWorldHandle);
PL_DECLARE_HANDLE(plRigidBodyHandle);
PL_DECLARE_HANDLE(plCollisionShapeHandle);
PL_DECLARE_HANDLE(plConstraintHandle);

typedef enum plStatus {
    PL_OK = 0,
    PL_ERR_NULL = 1,      /* a NULL handle or pointer */
    PL_ERR_HANDLE = 2,    /* a stale (deleted) or wrong-kind handle */
    PL_ERR_INVALID = 3,   /* an out-of-range value (negative mass, ...) */
    PL_ERR_NONFINITE = 4, /* NaN or infinity */
    PL_ERR_STATE = 5,     /* not allowed now (shape in use, no SDK, ...) */
    PL_ERR_NOMEM = 6,
    PL_ERR_PRECISION = 7  /* plReal of the caller != the library's */
} plStatus;

/* The message of the last failed call on this thread ("" if none). */
RF_API const char *plGetLastError(void);

/* ---- SDK and worlds ---- */

/* Checked SDK creation: real_size must be the library's sizeof(plReal).
 * Use plNewBulletSdk(). */
RF_API plPhysicsSdkHandle plNewBulletSdkChecked(int real_size);
static inline plPhysicsSdkHandle plNewBulletSdk(void)
{
    return plNewBulletSdkChecked((int)sizeof(plReal));
}
/* Deletes the SDK and the worlds it still has. */
RF_API plStatus plDeletePhysicsSdk(plPhysicsSdkHandle sdk);

/* A btDiscreteDynamicsWorld (default collision configuration, dbvt
 * broadphase, stock sequential-impulse solver wrapped by the cone solver),
 * gravity (0, -9.81, 0). */
RF_API plDynamicsWorldHandle plCreateDynamicsWorld(plPhysicsSdkHandle sdk);
/* Removes its bodies (they stay valid) and deletes the world. */
RF_API plStatus plDeleteDynamicsWorld(plDynamicsWorldHandle world);
/* The classic call, Bullet's stepSimulation(dt): advance the clock by dt
 * (> 0, finite) with at most one fixed step of 1/60 s (interpolated
 * transforms in between).  For exact steps use plStepSimulationFixed(w,
 * dt, 1, dt). */
RF_API plStatus plStepSimulation(plDynamicsWorldHandle world, plReal dt);
/* Bullet's stepSimulation(dt, max_substeps, fixed_step): advance by dt in
 * fixed steps of fixed_step, at most max_substeps of them (>= 1). */
RF_API plStatus plStepSimulationFixed(plDynamicsWorldHandle world, plReal dt,
                                      int max_substeps, plReal fixed_step);
RF_API plStatus plSetGravity(plDynamicsWorldHandle world, const plVector3 g);
RF_API plStatus plAddRigidBody(plDynamicsWorldHandle world,
                               plRigidBodyHandle body);
RF_API plStatus plRemoveRigidBody(plDynamicsWorldHandle world,
                                  plRigidBodyHandle body);

/* ---- contact solver ---- */

typedef enum plSolver {
    PL_SOLVER_STOCK = 0, /* Bullet's own solver (box rolling friction) */
    PL_SOLVER_CONE = 1   /* rollfric's cone solver (default) */
} plSolver;
RF_API plStatus plSetContactSolver(plDynamicsWorldHandle world,
                                   plSolver solver);
/* The cone solver's settings (rf_config, see rollfric.h); validated. */
RF_API plStatus plSetSolverConfig(plDynamicsWorldHandle world,
                                  const rf_config *cfg);
/* Statistics of the last cone step (zeros before one). */
RF_API plStatus plGetSolverStats(plDynamicsWorldHandle world, rf_stats *out);

/* ---- shapes ---- */

RF_API plCollisionShapeHandle plNewSphereShape(plReal radius);
/* Half extents. */
RF_API plCollisionShapeHandle plNewBoxShape(plReal x, plReal y, plReal z);
/* Along y; as the classic API, height is half the straight part (the
 * cap centres are at +-height). */
RF_API plCollisionShapeHandle plNewCapsuleShape(plReal radius, plReal height);
/* Along y, full height. */
RF_API plCollisionShapeHandle plNewConeShape(plReal radius, plReal height);
/* Along y; as the classic API, height is the half height. */
RF_API plCollisionShapeHandle plNewCylinderShape(plReal radius, plReal height);
/* A static plane n . x = constant (n normalised; static bodies only). */
RF_API plCollisionShapeHandle plNewStaticPlaneShape(const plVector3 normal,
                                                    plReal constant);
RF_API plCollisionShapeHandle plNewCompoundShape(void);
/* Adds child (kept alive: it cannot be deleted before the compound) at
 * pos/orn in the compound's frame; not to a compound in use by a body. */
RF_API plStatus plAddChildShape(plCollisionShapeHandle compound,
                                plCollisionShapeHandle child,
                                const plVector3 pos, const plQuaternion orn);
RF_API plCollisionShapeHandle plNewConvexHullShape(void);
RF_API plStatus plAddVertex(plCollisionShapeHandle hull, plReal x, plReal y,
                            plReal z);
/* Scaling (> 0 per axis); not for a shape in use by a body. */
RF_API plStatus plSetScaling(plCollisionShapeHandle shape,
                             const plVector3 scaling);
RF_API plStatus plDeleteShape(plCollisionShapeHandle shape);

/* ---- rigid bodies ---- */

/* mass 0 = static, else > 0 (inertia from the shape); user_data is kept
 * and returned by plGetUserData.  The shape must not be deleted while the
 * body lives.  Starts at the origin, identity orientation. */
RF_API plRigidBodyHandle plCreateRigidBody(void *user_data, plReal mass,
                                           plCollisionShapeHandle shape);
/* Removes the body from its world, if any, and deletes it. */
RF_API plStatus plDeleteRigidBody(plRigidBodyHandle body);
RF_API void *plGetUserData(plRigidBodyHandle body);

RF_API plStatus plGetPosition(plRigidBodyHandle body, plVector3 position);
RF_API plStatus plGetOrientation(plRigidBodyHandle body,
                                 plQuaternion orientation);
RF_API plStatus plSetPosition(plRigidBodyHandle body,
                              const plVector3 position);
/* orientation (x, y, z, w), normalised; |q| must not be ~0. */
RF_API plStatus plSetOrientation(plRigidBodyHandle body,
                                 const plQuaternion orientation);
/* Quaternion from yaw (about y), pitch (about x), roll (about z), Bullet's
 * btQuaternion::setEuler convention. */
RF_API plStatus plSetEuler(plReal yaw, plReal pitch, plReal roll,
                           plQuaternion orient);
/* Column-major 4x4 world transform (OpenGL). */
RF_API plStatus plGetOpenGLMatrix(plRigidBodyHandle body, plReal *matrix);
RF_API plStatus plSetOpenGLMatrix(plRigidBodyHandle body,
                                  const plReal *matrix);

RF_API plStatus plSetLinearVelocity(plRigidBodyHandle body,
                                    const plVector3 v);
RF_API plStatus plGetLinearVelocity(plRigidBodyHandle body, plVector3 v);
RF_API plStatus plSetAngularVelocity(plRigidBodyHandle body,
                                     const plVector3 w);
RF_API plStatus plGetAngularVelocity(plRigidBodyHandle body, plVector3 w);
/* Coefficients >= 0: sliding friction [-], rolling and spinning friction
 * (lengths, m; combined by Bullet as its own setters), restitution. */
RF_API plStatus plSetFriction(plRigidBodyHandle body, plReal mu);
RF_API plStatus plSetRollingFriction(plRigidBodyHandle body, plReal rho);
RF_API plStatus plSetSpinningFriction(plRigidBodyHandle body, plReal sigma);
RF_API plStatus plSetRestitution(plRigidBodyHandle body, plReal e);
/* Linear and angular damping in [0, 1]. */
RF_API plStatus plSetDamping(plRigidBodyHandle body, plReal linear,
                             plReal angular);
/* 1: the body may fall asleep (Bullet's default); 0: never. */
RF_API plStatus plSetSleeping(plRigidBodyHandle body, int allowed);
/* 1 when the body is awake. */
RF_API int plIsActive(plRigidBodyHandle body);

/* ---- queries ---- */

typedef struct plRayCastResult {
    plRigidBodyHandle m_body; /* NULL when nothing is hit */
    plCollisionShapeHandle m_shape;
    plVector3 m_positionWorld;
    plVector3 m_normalWorld;
} plRayCastResult;
/* Closest hit along the segment; returns 1 (hit, res filled), 0 (no hit)
 * or -1 (error, see plGetLastError). */
RF_API int plRayCast(plDynamicsWorldHandle world, const plVector3 ray_start,
                     const plVector3 ray_end, plRayCastResult *res);

#ifdef __cplusplus
}
#endif

#endif /* ROLLFRIC_BULLET_C_API_H */
