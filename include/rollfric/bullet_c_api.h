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
 * and the shape constructors refuse to work while no SDK exists (worlds
 * need an SDK, bodies a shape, constraints bodies), so a mismatch is
 * caught at the first call with a message.
 *
 * Handles are generation-checked indices, never pointers: a NULL, stale
 * (deleted) or wrong-kind handle is detected without being dereferenced.
 *
 * Errors.  Every function checks its arguments before it changes anything:
 * on failure nothing changes (out arguments included), a message naming
 * the function and the bad argument is left in plGetLastError() (per
 * thread; calls that succeed leave it as it is), and the failure shows in
 * the return value, by type:
 *   plStatus (actions, setters, and getters, which write through an out
 *     pointer): PL_OK (0), else the code of the first check that failed;
 *   a handle (plNewBulletSdkChecked, plCreate*, plNew*): the new handle,
 *     else NULL;
 *   int (plIsActive, plIsConstraintEnabled, plGetContacts, plRayCast): a
 *     result >= 0, else -1;
 *   void * (plGetUserData): the user data, else NULL (which a body created
 *     with user_data NULL returns too);
 *   void (plGetDefaultSolverConfig), and plGetLastError: cannot fail.
 * No error is returned as a value (0, NaN) of a getter.  Each function
 * lists under "Errors:" the plStatus codes it can give (for the functions
 * that return no plStatus: the failures plGetLastError describes), with
 * the arguments or conditions in parentheses: PL_ERR_NULL is a NULL handle
 * or pointer, PL_ERR_HANDLE a stale or wrong-kind handle.  Nothing aborts
 * on a bad argument.  PL_ERR_NOMEM is returned by no function at present
 * (running out of memory is not caught).
 *
 * Ownership: the caller creates and deletes SDKs, worlds, shapes and
 * bodies.  Deleting a world removes (does not delete) its bodies;
 * deleting an SDK deletes its remaining worlds; a shape in use by a body
 * or a compound cannot be deleted (PL_ERR_STATE).  Every delete releases
 * all the memory behind its handle.
 *
 * Units: SI (m, kg, s, rad).  Worlds start with gravity (0, -9.81, 0) and
 * the cone solver (PL_SOLVER_CONE) with plGetDefaultSolverConfig's
 * settings (sequential impulse, De Saxce, Bullet's iteration budget).
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
    PL_ERR_PRECISION = 7 /* plReal of the caller != the library's */
} plStatus;

/* The message of the last failed call on this thread ("" if none); calls
 * that succeed leave it as it is.  Cannot fail. */
RF_API const char *plGetLastError(void);

/* ---- SDK and worlds ---- */

/* Checked SDK creation: real_size must be the library's sizeof(plReal).
 * Use plNewBulletSdk().  Errors (NULL returned): PL_ERR_PRECISION
 * (real_size is not the library's sizeof(plReal)). */
RF_API plPhysicsSdkHandle plNewBulletSdkChecked(int real_size);
static inline plPhysicsSdkHandle plNewBulletSdk(void)
{
    return plNewBulletSdkChecked((int)sizeof(plReal));
}
/* Deletes the SDK and the worlds it still has (as plDeleteDynamicsWorld);
 * shapes, bodies and constraints stay valid.  With no SDK left the shape
 * constructors fail (PL_ERR_STATE).  Errors: PL_ERR_NULL, PL_ERR_HANDLE. */
RF_API plStatus plDeletePhysicsSdk(plPhysicsSdkHandle sdk);

/* A btDiscreteDynamicsWorld (default collision configuration, dbvt
 * broadphase, stock sequential-impulse solver wrapped by the cone solver
 * with plGetDefaultSolverConfig's settings), gravity (0, -9.81, 0).
 * Errors (NULL returned): PL_ERR_NULL, PL_ERR_HANDLE (sdk), PL_ERR_STATE
 * (the cone solver could not be attached: out of memory). */
RF_API plDynamicsWorldHandle plCreateDynamicsWorld(plPhysicsSdkHandle sdk);
/* Removes its bodies and constraints (they stay valid, in no world) and
 * deletes the world.  Errors: PL_ERR_NULL, PL_ERR_HANDLE. */
RF_API plStatus plDeleteDynamicsWorld(plDynamicsWorldHandle world);
/* The classic call, Bullet's stepSimulation(dt): advance the clock by dt
 * (> 0, finite) with at most one fixed step of 1/60 s (interpolated
 * transforms in between).  For exact steps use plStepSimulationFixed(w,
 * dt, 1, dt).  Errors: PL_ERR_NULL, PL_ERR_HANDLE (world),
 * PL_ERR_NONFINITE (dt), PL_ERR_INVALID (dt <= 0). */
RF_API plStatus plStepSimulation(plDynamicsWorldHandle world, plReal dt);
/* Bullet's stepSimulation(dt, max_substeps, fixed_step): advance by dt in
 * fixed steps of fixed_step, at most max_substeps of them (>= 1); s.
 * Errors: PL_ERR_NULL, PL_ERR_HANDLE (world), PL_ERR_NONFINITE (dt,
 * fixed_step), PL_ERR_INVALID (dt or fixed_step <= 0, max_substeps < 1). */
RF_API plStatus plStepSimulationFixed(plDynamicsWorldHandle world, plReal dt,
                                      int max_substeps, plReal fixed_step);
/* The world's gravity, m/s^2.  Errors: PL_ERR_NULL (world, g),
 * PL_ERR_HANDLE (world), PL_ERR_NONFINITE (g). */
RF_API plStatus plSetGravity(plDynamicsWorldHandle world, const plVector3 g);
/* Bullet's split impulse (btContactSolverInfo::m_splitImpulse, on by
 * default): points deeper than m_splitImpulsePenetrationThreshold
 * (-0.04 m) recover on pseudo-velocities that move positions and are
 * dropped, not through their velocity; both solvers honour it.  on: 0 or
 * 1.  Errors: PL_ERR_NULL, PL_ERR_HANDLE (world), PL_ERR_INVALID (on not
 * 0 or 1). */
RF_API plStatus plSetSplitImpulse(plDynamicsWorldHandle world, int on);
/* Adds body to world (with its cohesion and yield forces).  Errors:
 * PL_ERR_NULL, PL_ERR_HANDLE (world, body), PL_ERR_STATE (the body is in
 * a world already, this one included). */
RF_API plStatus plAddRigidBody(plDynamicsWorldHandle world,
                               plRigidBodyHandle body);
/* Takes body out of world (it stays valid).  Errors: PL_ERR_NULL,
 * PL_ERR_HANDLE (world, body), PL_ERR_STATE (the body is not in this
 * world, or a constraint using it is in a world: remove that first). */
RF_API plStatus plRemoveRigidBody(plDynamicsWorldHandle world,
                                  plRigidBodyHandle body);

/* ---- contact solver ---- */

typedef enum plSolver {
    PL_SOLVER_STOCK = 0, /* Bullet's own solver (box rolling friction) */
    PL_SOLVER_CONE = 1   /* rollfric's cone solver (default) */
} plSolver;
/* The world's contact solver (default PL_SOLVER_CONE).  Errors:
 * PL_ERR_NULL, PL_ERR_HANDLE (world), PL_ERR_INVALID (unknown solver). */
RF_API plStatus plSetContactSolver(plDynamicsWorldHandle world,
                                   plSolver solver);
/* The cone solver's settings (rf_config, see rollfric.h); validated.
 * max_iter may be PL_WORLD_ITERATIONS (0): each step takes the world's
 * iteration budget (Bullet's m_numIterations, 10).  Errors: PL_ERR_NULL
 * (world, cfg), PL_ERR_HANDLE (world), PL_ERR_NONFINITE (a setting),
 * PL_ERR_INVALID (a setting rf_config_validate refuses; RF_SOLVER_JACOBI
 * or RF_SOLVER_APGD with PL_WORLD_ITERATIONS). */
#define PL_WORLD_ITERATIONS 0
RF_API plStatus plSetSolverConfigSized(plDynamicsWorldHandle world,
                                       const rf_config *cfg, size_t size);
static inline plStatus plSetSolverConfig(plDynamicsWorldHandle world,
                                         const rf_config *cfg)
{
    return plSetSolverConfigSized(world, cfg, sizeof(rf_config));
}
/* The settings a new world starts with (rollfric_bullet.h's
 * rf_bullet_config_default, issue #22): RF_SOLVER_SI, RF_MODEL_DESAXCE,
 * max_iter PL_WORLD_ITERATIONS, tol 1e-5, warm start on.  The converged
 * solve is rf_config_default.  NULL is ignored.  Cannot fail. */
RF_API void plGetDefaultSolverConfigSized(rf_config *cfg, size_t size);
static inline void plGetDefaultSolverConfig(rf_config *cfg)
{
    plGetDefaultSolverConfigSized(cfg, sizeof(rf_config));
}
/* The world's settings now.  Errors: PL_ERR_NULL (world, out),
 * PL_ERR_HANDLE (world). */
RF_API plStatus plGetSolverConfigSized(plDynamicsWorldHandle world,
                                       rf_config *out, size_t size);
static inline plStatus plGetSolverConfig(plDynamicsWorldHandle world,
                                         rf_config *out)
{
    return plGetSolverConfigSized(world, out, sizeof(rf_config));
}
/* Statistics of the last cone step (zeros before one).  Errors:
 * PL_ERR_NULL (world, out), PL_ERR_HANDLE (world). */
RF_API plStatus plGetSolverStatsSized(plDynamicsWorldHandle world,
                                      rf_stats *out, size_t size);
static inline plStatus plGetSolverStats(plDynamicsWorldHandle world,
                                        rf_stats *out)
{
    return plGetSolverStatsSized(world, out, sizeof(rf_stats));
}

/* ---- shapes ---- */

/* Radius, m.  Errors (NULL returned): PL_ERR_STATE (no SDK),
 * PL_ERR_NONFINITE, PL_ERR_INVALID (radius <= 0). */
RF_API plCollisionShapeHandle plNewSphereShape(plReal radius);
/* Half extents, m.  Errors (NULL returned): PL_ERR_STATE (no SDK),
 * PL_ERR_NONFINITE, PL_ERR_INVALID (an extent <= 0). */
RF_API plCollisionShapeHandle plNewBoxShape(plReal x, plReal y, plReal z);
/* Along y; as the classic API, height is half the straight part (the
 * cap centres are at +-height); m.  Errors (NULL returned): PL_ERR_STATE
 * (no SDK), PL_ERR_NONFINITE, PL_ERR_INVALID (radius or height <= 0). */
RF_API plCollisionShapeHandle plNewCapsuleShape(plReal radius, plReal height);
/* Along y, full height.  Errors: as plNewCapsuleShape. */
RF_API plCollisionShapeHandle plNewConeShape(plReal radius, plReal height);
/* Along y; as the classic API, height is the half height.  Errors: as
 * plNewCapsuleShape. */
RF_API plCollisionShapeHandle plNewCylinderShape(plReal radius, plReal height);
/* The same three along another axis (0 = x, 1 = y, 2 = z): Bullet's
 * btCapsuleShapeX/Z, btConeShapeX/Z, btCylinderShapeX/Z; height has the
 * meaning of the y versions above.  Errors: as above, and PL_ERR_INVALID
 * for an axis not in {0, 1, 2}. */
RF_API plCollisionShapeHandle plNewCapsuleShapeAxis(plReal radius,
                                                    plReal height, int axis);
RF_API plCollisionShapeHandle plNewConeShapeAxis(plReal radius, plReal height,
                                                 int axis);
RF_API plCollisionShapeHandle plNewCylinderShapeAxis(plReal radius,
                                                     plReal height, int axis);
/* A static plane n . x = constant (n normalised; constant, m; static
 * bodies only).  Errors (NULL returned): PL_ERR_STATE (no SDK),
 * PL_ERR_NULL (normal), PL_ERR_NONFINITE, PL_ERR_INVALID (|normal| <=
 * 1e-6). */
RF_API plCollisionShapeHandle plNewStaticPlaneShape(const plVector3 normal,
                                                    plReal constant);
/* An empty compound (children: plAddChildShape).  Errors (NULL returned):
 * PL_ERR_STATE (no SDK). */
RF_API plCollisionShapeHandle plNewCompoundShape(void);
/* Adds child (kept alive: it cannot be deleted before the compound) at
 * pos/orn in the compound's frame; not to a compound in use by a body
 * (or as another compound's child).  pos, m; orn (x, y, z, w), normalised.
 * Errors: PL_ERR_NULL (compound, child, pos, orn), PL_ERR_HANDLE
 * (compound, child), PL_ERR_INVALID (compound not a compound shape; child
 * the compound itself, a static plane or a triangle mesh; |orn| <= 1e-6),
 * PL_ERR_STATE (the compound in use), PL_ERR_NONFINITE (pos, orn). */
RF_API plStatus plAddChildShape(plCollisionShapeHandle compound,
                                plCollisionShapeHandle child,
                                const plVector3 pos, const plQuaternion orn);
/* An empty convex hull (points: plAddVertex).  Errors (NULL returned):
 * PL_ERR_STATE (no SDK). */
RF_API plCollisionShapeHandle plNewConvexHullShape(void);
/* Adds the point (x, y, z), m, to hull; not to a hull in use by a body or
 * a compound.  Errors: PL_ERR_NULL, PL_ERR_HANDLE (hull), PL_ERR_INVALID
 * (hull not a convex hull shape), PL_ERR_NONFINITE, PL_ERR_STATE (the hull
 * in use). */
RF_API plStatus plAddVertex(plCollisionShapeHandle hull, plReal x, plReal y,
                            plReal z);
/* Scaling (> 0 per axis); not for a shape in use by a body (or by a
 * compound).  Scaling a compound also rescales its children's shapes
 * (Bullet's btCompoundShape), even ones in use elsewhere.  Errors:
 * PL_ERR_NULL (shape, scaling), PL_ERR_HANDLE (shape), PL_ERR_NONFINITE,
 * PL_ERR_INVALID (a component <= 0), PL_ERR_STATE (the shape in use). */
RF_API plStatus plSetScaling(plCollisionShapeHandle shape,
                             const plVector3 scaling);
/* A static triangle mesh (Bullet's btBvhTriangleMeshShape): vertices
 * (3 num_vertices reals, x y z each) and indices (3 num_triangles
 * 0-based vertex indices) are copied; static bodies only (mass 0).
 * Errors: PL_ERR_NULL, PL_ERR_NONFINITE (a vertex), PL_ERR_INVALID (counts
 * < 1 (vertices < 3), an index out of range, a degenerate triangle with a
 * repeated index), PL_ERR_STATE (no SDK). */
RF_API plCollisionShapeHandle
plNewStaticTriangleMeshShape(const plReal *vertices, int num_vertices,
                             const int *indices, int num_triangles);
/* The direction, in the shape's frame, about which Bullet lets the shape
 * roll with anisotropic rolling friction (getAnisotropicRollingFriction-
 * Direction: the axis of a capsule, cone or cylinder, (1, 1, 1) for other
 * shapes).  Errors: PL_ERR_NULL (shape, direction), PL_ERR_HANDLE. */
RF_API plStatus plGetAnisotropicRollingFrictionDirection(
    plCollisionShapeHandle shape, plVector3 direction);
/* Deletes the shape (a compound releases its children).  Errors:
 * PL_ERR_NULL, PL_ERR_HANDLE, PL_ERR_STATE (in use by a body or a
 * compound: delete those first). */
RF_API plStatus plDeleteShape(plCollisionShapeHandle shape);

/* ---- rigid bodies ---- */

/* mass 0 = static, else > 0 (inertia from the shape); user_data is kept
 * and returned by plGetUserData.  The shape must not be deleted while the
 * body lives.  Starts at the origin, identity orientation.  mass, kg.
 * Errors (NULL returned): PL_ERR_NULL, PL_ERR_HANDLE (shape),
 * PL_ERR_NONFINITE (mass), PL_ERR_INVALID (mass < 0; mass > 0 with a
 * static plane or a triangle mesh). */
RF_API plRigidBodyHandle plCreateRigidBody(void *user_data, plReal mass,
                                           plCollisionShapeHandle shape);
/* Mass (> 0, kg) and principal moments of inertia (> 0, kg m^2, about the
 * body's own axes) of a dynamic body, replacing what plCreateRigidBody
 * derived from the shape (e.g. a disk whose inertia is not the uniform
 * cylinder's).  Errors: PL_ERR_NULL, PL_ERR_HANDLE, PL_ERR_NONFINITE,
 * PL_ERR_INVALID (a value <= 0, or a static body). */
RF_API plStatus plSetMassProps(plRigidBodyHandle body, plReal mass,
                               const plVector3 inertia);
/* Removes the body from its world, if any, and deletes it.  Errors:
 * PL_ERR_NULL, PL_ERR_HANDLE, PL_ERR_STATE (a constraint uses the body:
 * delete it first). */
RF_API plStatus plDeleteRigidBody(plRigidBodyHandle body);
/* The user_data given to plCreateRigidBody.  Errors (NULL returned, as for
 * user_data NULL): PL_ERR_NULL, PL_ERR_HANDLE. */
RF_API void *plGetUserData(plRigidBodyHandle body);

/* Position (world, m; the centre of mass) and orientation (x, y, z, w) of
 * the body.  Errors: PL_ERR_NULL (body, the output), PL_ERR_HANDLE. */
RF_API plStatus plGetPosition(plRigidBodyHandle body, plVector3 position);
RF_API plStatus plGetOrientation(plRigidBodyHandle body,
                                 plQuaternion orientation);
/* Moves the body there (motion state and interpolation too) and wakes
 * it.  Errors: PL_ERR_NULL (body, position), PL_ERR_HANDLE,
 * PL_ERR_NONFINITE. */
RF_API plStatus plSetPosition(plRigidBodyHandle body, const plVector3 position);
/* orientation (x, y, z, w), normalised; |q| must not be ~0.  Turns and
 * wakes the body as plSetPosition.  Errors: PL_ERR_NULL (body,
 * orientation), PL_ERR_HANDLE, PL_ERR_NONFINITE, PL_ERR_INVALID (|q| <=
 * 1e-6). */
RF_API plStatus plSetOrientation(plRigidBodyHandle body,
                                 const plQuaternion orientation);
/* Quaternion from yaw (about y), pitch (about x), roll (about z), Bullet's
 * btQuaternion::setEuler convention; rad.  Errors: PL_ERR_NULL (orient),
 * PL_ERR_NONFINITE. */
RF_API plStatus plSetEuler(plReal yaw, plReal pitch, plReal roll,
                           plQuaternion orient);
/* Column-major 4x4 world transform (OpenGL), 16 reals, m.  plSet... takes
 * the upper 3x3 as given (not checked to be a rotation), ignores the
 * bottom row, and moves and wakes the body as plSetPosition.  Errors:
 * PL_ERR_NULL (body, matrix), PL_ERR_HANDLE, PL_ERR_NONFINITE (set: any
 * of the 16). */
RF_API plStatus plGetOpenGLMatrix(plRigidBodyHandle body, plReal *matrix);
RF_API plStatus plSetOpenGLMatrix(plRigidBodyHandle body, const plReal *matrix);

/* Linear (m/s) and angular (rad/s) velocity, world frame; a set wakes the
 * body.  Errors: PL_ERR_NULL (body, v or w), PL_ERR_HANDLE,
 * PL_ERR_NONFINITE (set). */
RF_API plStatus plSetLinearVelocity(plRigidBodyHandle body, const plVector3 v);
RF_API plStatus plGetLinearVelocity(plRigidBodyHandle body, plVector3 v);
RF_API plStatus plSetAngularVelocity(plRigidBodyHandle body, const plVector3 w);
RF_API plStatus plGetAngularVelocity(plRigidBodyHandle body, plVector3 w);
/* Coefficients >= 0: sliding friction [-], rolling and spinning friction
 * (lengths, m; combined by Bullet as its own setters), restitution.
 * Errors: PL_ERR_NULL, PL_ERR_HANDLE, PL_ERR_NONFINITE, PL_ERR_INVALID
 * (negative). */
RF_API plStatus plSetFriction(plRigidBodyHandle body, plReal mu);
RF_API plStatus plSetRollingFriction(plRigidBodyHandle body, plReal rho);
RF_API plStatus plSetSpinningFriction(plRigidBodyHandle body, plReal sigma);
RF_API plStatus plSetRestitution(plRigidBodyHandle body, plReal e);
/* Cohesion force, N, >= 0 (0 = none; default 0): two cohesive bodies in
 * contact hold together up to the smaller of their forces, and their
 * friction limit grows by mu times it (rollfric_bullet.h,
 * rf_bullet_set_cohesion).  Kept with the body and given to every world it
 * is added to; the stock solver ignores it.  Errors: PL_ERR_NULL,
 * PL_ERR_HANDLE, PL_ERR_NONFINITE, PL_ERR_INVALID (negative). */
RF_API plStatus plSetCohesion(plRigidBodyHandle body, plReal force);
/* Compliant contacts (Bullet's setContactStiffnessAndDamping): stiffness
 * K > 0 (N/m) and damping D >= 0 (N s/m).  Bullet combines a pair's
 * stiffnesses in series and adds the dampings (an object never set is
 * nearly rigid: 1e18 N/m, 0.1 N s/m); the point then gets the normal
 * compliance 1 / (h (h K + D)) and the spring's recovery, so a body
 * resting on it sinks m g / K.  Errors: PL_ERR_NULL, PL_ERR_HANDLE,
 * PL_ERR_NONFINITE, PL_ERR_INVALID (stiffness <= 0, damping < 0). */
RF_API plStatus plSetContactStiffnessAndDamping(plRigidBodyHandle body,
                                                plReal stiffness,
                                                plReal damping);
/* The body's cohesion force (plSetCohesion), N.  Errors: PL_ERR_NULL
 * (body, force), PL_ERR_HANDLE. */
RF_API plStatus plGetCohesion(plRigidBodyHandle body, plReal *force);
/* Yield force, N, >= 0 (0 = none; default 0): the body's contacts cannot
 * push harder than the smaller yield force of the pair; beyond it they
 * flow plastically and keep the dent (rf_bullet_set_yield).  Kept with
 * the body and given to every world it is added to; the stock solver
 * ignores it.  Errors: PL_ERR_NULL, PL_ERR_HANDLE, PL_ERR_NONFINITE,
 * PL_ERR_INVALID (negative). */
RF_API plStatus plSetYield(plRigidBodyHandle body, plReal force);
/* Bullet's setAnisotropicFriction(scaling, mode): per-axis scaling (>= 0,
 * the body's frame) of the friction directions, for mode
 * PL_ANISOTROPIC_FRICTION (sliding), PL_ANISOTROPIC_ROLLING_FRICTION
 * (rolling axes), both OR-ed, or 0 (off).  The stock solver scales its
 * friction rows' axes with it.  The cone solver models anisotropic
 * rolling along one body axis e (a scaling with one non-zero component,
 * as plGetAnisotropicRollingFrictionDirection gives for capsules, cones
 * and cylinders): rolling about e's projection on the contact plane is
 * resisted (|torque| <= rho gn), rolling about the other tangent is free
 * (RF_CONTACT_ROLL_T1).  Other rolling scalings and anisotropic sliding
 * are not modelled (the cone stays round; one message on stderr per
 * world).  Errors: PL_ERR_NULL, PL_ERR_HANDLE, PL_ERR_NONFINITE,
 * PL_ERR_INVALID (negative scaling, unknown mode). */
#define PL_ANISOTROPIC_FRICTION 1
#define PL_ANISOTROPIC_ROLLING_FRICTION 2
RF_API plStatus plSetAnisotropicFriction(plRigidBodyHandle body,
                                         const plVector3 scaling, int mode);
/* Linear and angular damping in [0, 1].  Errors: PL_ERR_NULL,
 * PL_ERR_HANDLE, PL_ERR_NONFINITE, PL_ERR_INVALID (outside [0, 1]). */
RF_API plStatus plSetDamping(plRigidBodyHandle body, plReal linear,
                             plReal angular);
/* 1: the body may fall asleep (Bullet's default; this also wakes it);
 * 0: never.  Errors: PL_ERR_NULL, PL_ERR_HANDLE, PL_ERR_INVALID (allowed
 * not 0 or 1). */
RF_API plStatus plSetSleeping(plRigidBodyHandle body, int allowed);
/* 1 when the body is awake, 0 when it sleeps, -1 for a NULL, stale or
 * wrong-kind handle (plGetLastError says which).  Errors (-1 returned):
 * PL_ERR_NULL, PL_ERR_HANDLE. */
RF_API int plIsActive(plRigidBodyHandle body);

/* ---- constraints ---- */

/* Point-to-point (ball-socket) joint: pivot_a in a's frame (m) meets
 * pivot_b in b's frame.  b NULL: a is held at the world point where
 * pivot_a is now (pivot_b ignored, may be NULL).  Bodies must be dynamic
 * (a) or any (b).  The constraint keeps its bodies alive: they cannot be
 * deleted before it (PL_ERR_STATE).  Errors (NULL returned): PL_ERR_NULL
 * (a, pivot_a, pivot_b when b is given), PL_ERR_HANDLE (a, b),
 * PL_ERR_NONFINITE, PL_ERR_INVALID (a == b, a static). */
RF_API plConstraintHandle plNewPoint2PointConstraint(plRigidBodyHandle a,
                                                     plRigidBodyHandle b,
                                                     const plVector3 pivot_a,
                                                     const plVector3 pivot_b);
/* Hinge: pivot and axis of the hinge in each body's frame (axes need not
 * be unit, must not be ~0).  b NULL: hinged to the world (pivot_b, axis_b
 * ignored).  Errors (NULL returned): as plNewPoint2PointConstraint (axis_a,
 * axis_b as the pivots), and PL_ERR_INVALID (an axis of length <= 1e-6). */
RF_API plConstraintHandle plNewHingeConstraint(
    plRigidBodyHandle a, plRigidBodyHandle b, const plVector3 pivot_a,
    const plVector3 pivot_b, const plVector3 axis_a, const plVector3 axis_b);
/* Hinge angle limits, rad, low <= high (low > high: no limit, Bullet's
 * convention).  Errors: PL_ERR_NULL, PL_ERR_HANDLE (also: not a hinge),
 * PL_ERR_NONFINITE. */
RF_API plStatus plSetHingeLimit(plConstraintHandle hinge, plReal low,
                                plReal high);
/* Hinge motor: drive the relative angular velocity about the axis to
 * target_velocity (rad/s) with impulses up to max_impulse (N m s per
 * step, >= 0); enable 0 turns it off.  Errors: PL_ERR_NULL, PL_ERR_HANDLE
 * (also: not a hinge), PL_ERR_NONFINITE, PL_ERR_INVALID (max_impulse < 0,
 * enable not 0 or 1). */
RF_API plStatus plEnableHingeMotor(plConstraintHandle hinge, int enable,
                                   plReal target_velocity, plReal max_impulse);
/* The current hinge angle, rad.  Errors: PL_ERR_NULL (hinge, angle),
 * PL_ERR_HANDLE (also: not a hinge). */
RF_API plStatus plGetHingeAngle(plConstraintHandle hinge, plReal *angle);
/* A box-bounded row (Tasora-Anitescu section 6.2's seal friction S,
 * -S h <= lambda <= S h): the velocity of a relative to b (NULL: the
 * world) along axis is driven to 0 by a force of at most max_force (N,
 * >= 0), so a sliding pair feels a friction force of max_force, whatever
 * the normal load.  axis is given in world coordinates (any length but
 * ~0) and then turns with a.  a receives +lambda axis and b -lambda axis,
 * lambda = plGetConstraintImpulse (N s).  In Bullet: a
 * btGeneric6DofSpring2Constraint with every axis free and a linear motor
 * (target velocity 0, max force) along axis; the cone solver takes it as
 * one row beside the contacts, stock as its motor row.  Errors (NULL
 * returned): as plNewPoint2PointConstraint, and PL_ERR_INVALID (negative
 * max_force, zero axis). */
RF_API plConstraintHandle plNewLinearFriction(plRigidBodyHandle a,
                                              plRigidBodyHandle b,
                                              const plVector3 axis,
                                              plReal max_force);
/* Change a linear friction's force bound, N, >= 0.  Errors: PL_ERR_NULL,
 * PL_ERR_HANDLE (also: not a linear friction), PL_ERR_NONFINITE,
 * PL_ERR_INVALID (negative). */
RF_API plStatus plSetLinearFrictionForce(plConstraintHandle c,
                                         plReal max_force);
/* Disable the constraint once one of its row impulses reaches threshold
 * (N s, > 0; default infinite, which cannot be set again: infinity is
 * PL_ERR_NONFINITE).  Errors: PL_ERR_NULL, PL_ERR_HANDLE, PL_ERR_INVALID
 * (threshold <= 0), PL_ERR_NONFINITE. */
RF_API plStatus plSetBreakingImpulse(plConstraintHandle c, plReal threshold);
/* 1 when enabled (not broken), 0 when broken, -1 for a bad handle.
 * Errors (-1 returned): PL_ERR_NULL, PL_ERR_HANDLE. */
RF_API int plIsConstraintEnabled(plConstraintHandle c);
/* The impulse of the constraint's last row in the last step (Bullet's
 * getAppliedImpulse), N s.  Errors: PL_ERR_NULL (c, impulse),
 * PL_ERR_HANDLE. */
RF_API plStatus plGetConstraintImpulse(plConstraintHandle c, plReal *impulse);
/* Add to a world in which both bodies are (PL_ERR_STATE otherwise, or if
 * it is in a world already).  disable_collisions 1: no contacts between
 * the two linked bodies.  Errors: PL_ERR_NULL, PL_ERR_HANDLE (world, c),
 * PL_ERR_INVALID (disable_collisions not 0 or 1), PL_ERR_STATE. */
RF_API plStatus plAddConstraint(plDynamicsWorldHandle world,
                                plConstraintHandle c, int disable_collisions);
/* Takes c out of world (it stays valid).  Errors: PL_ERR_NULL,
 * PL_ERR_HANDLE (world, c), PL_ERR_STATE (c is not in this world). */
RF_API plStatus plRemoveConstraint(plDynamicsWorldHandle world,
                                   plConstraintHandle c);
/* Removes it from its world, if any, and deletes it; its bodies may then
 * be deleted.  Errors: PL_ERR_NULL, PL_ERR_HANDLE. */
RF_API plStatus plDeleteConstraint(plConstraintHandle c);

/* ---- contacts ---- */

/* One contact point of a body, seen from that body, after the last step. */
typedef struct plContactInfo {
    plRigidBodyHandle m_other; /* the other body (NULL: not a pl* body) */
    plVector3 m_position;      /* the point on this body, world, m */
    plVector3 m_normal;        /* unit, from the other body towards this one */
    plVector3 m_tangent1;      /* (m_normal, m_tangent1, m_tangent2) is a */
    plVector3 m_tangent2;      /* right-handed orthonormal frame */
    plReal m_distance;         /* signed gap, m (< 0: penetration) */
    /* The impulse this body received over the last step at this point,
     * in that frame: normal, two sliding (N s), spinning about m_normal,
     * two rolling about m_tangent1/2 (N m s).  With the cone solver they
     * lie in the cone of (mu, rho, sigma) below; with the stock solver
     * only the first three are known and the torques are 0 with
     * m_has_torques = 0. */
    plReal m_impulse[6];
    int m_has_torques;
    plReal m_friction, m_rolling_friction, m_spinning_friction; /* combined
                                                                  mu, rho,
                                                                  sigma */
} plContactInfo;
/* The contact points of body (in its world) with their impulses: fills
 * out[0 .. min(n, max) - 1] and returns n, the number of points (call
 * with max 0 to count); -1 on error (NULL or stale body, out NULL with
 * max > 0, max < 0).  A body in no world has no contacts.  Errors (-1
 * returned, out untouched): PL_ERR_NULL (body; out with max > 0),
 * PL_ERR_HANDLE (body), PL_ERR_INVALID (max < 0). */
RF_API int plGetContacts(plRigidBodyHandle body, plContactInfo *out, int max);

/* ---- queries ---- */

typedef struct plRayCastResult {
    plRigidBodyHandle m_body; /* NULL when nothing is hit */
    plCollisionShapeHandle m_shape;
    plVector3 m_positionWorld;
    plVector3 m_normalWorld;
} plRayCastResult;
/* Closest hit along the segment; returns 1 (hit, res filled), 0 (no hit)
 * or -1 (error, see plGetLastError).  World frame, m; with no hit res is
 * zeroed.  Errors (-1 returned, res untouched): PL_ERR_NULL (world,
 * ray_start, ray_end, res), PL_ERR_HANDLE (world), PL_ERR_NONFINITE (a
 * ray point). */
RF_API int plRayCast(plDynamicsWorldHandle world, const plVector3 ray_start,
                     const plVector3 ray_end, plRayCastResult *res);

#ifdef __cplusplus
}
#endif

#endif /* ROLLFRIC_BULLET_C_API_H */
