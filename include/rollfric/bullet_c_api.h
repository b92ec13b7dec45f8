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
 * "rollfric-float64" does; plReal = double).  The precision check: this
 * header names plNewBulletSdk after its plReal (plNewBulletSdk_float32 or
 * _float64, a macro), which only the library of that precision defines,
 * so a mismatch fails to link; and the shape constructors refuse to work
 * while no SDK exists (worlds need an SDK, bodies a shape, constraints
 * bodies).  Every function is also exported under its plain name
 * (plNewBulletSdk included), for bindings that load them by name.
 *
 * Classic compatibility: every declaration of Bullet 2.x's
 * Bullet-C-Api.h is here with the classic meaning (shapes as the classic
 * implementation built them, worlds with gravity (0, -10, 0) as a
 * btDiscreteDynamicsWorld).  Where this header differs, by default, the
 * classic void functions return plStatus and some pointers are const;
 * define PL_CLASSIC_API before the include to get every classic
 * declaration exactly as in the classic header (void returns, no added
 * const), for function-pointer tables and copied prototypes: errors then
 * show through plGetLastError only.  The differences that remain in both
 * modes, and why, are listed in docs/c-api.md ("Classic compatibility"):
 * plRayCast takes its result by pointer.
 *
 * Handles are generation-checked indices, never pointers: a NULL, stale
 * (deleted) or wrong-kind handle is detected without being dereferenced
 * (a classic program that casts a handle to a Bullet pointer does not
 * work here).
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
 * on a bad argument.
 *
 * Out of memory and internal errors.  No C++ exception leaves a pl*
 * function: the library never aborts the program.  Every function that
 * allocates may fail with PL_ERR_NOMEM when memory runs out ("plNewBoxShape:
 * out of memory"), which is why the "Errors:" lists below do not name it;
 * any other exception inside the library gives PL_ERR_INVALID ("plFoo:
 * internal error: ...").  Both show in the return value as above (the
 * status, NULL, -1) and change nothing (what the call had done is undone),
 * except that a step (plStepSimulation, plStepSimulationFixed) may stop
 * partway, the world still valid (step it again or delete it), and
 * plStopRecording may leave the recording open (call it again).  Deleting
 * (plDelete*, plDestroy*) never fails for want of memory: cleaning up
 * always works.  What Bullet itself allocates inside a call
 * (btAlignedAlloc, malloc) is not checked: that is Bullet's.  The
 * broadphase's pair callbacks must not throw; if a C++ one does, the call
 * completes and then reports the exception as PL_ERR_INVALID
 * (plCreateProxy returns NULL, its proxy stays with the broadphase until
 * plDestroyBroadphase).
 *
 * Ownership: the caller creates and deletes SDKs, worlds, shapes and
 * bodies.  Deleting a world removes (does not delete) its bodies;
 * deleting an SDK deletes its remaining worlds; a shape in use by a body
 * or a compound cannot be deleted (PL_ERR_STATE).  Every delete releases
 * all the memory behind its handle.
 *
 * Units: SI (m, kg, s, rad).  Worlds start with gravity (0, -10, 0) and
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

#ifdef PL_CLASSIC_API
#define PL_DECLARE_HANDLE(name)                                                \
    typedef struct name##__ {                                                  \
        int unused;                                                            \
    } * name
#else
#define PL_DECLARE_HANDLE(name) typedef struct name##__ *name
#endif
PL_DECLARE_HANDLE(plPhysicsSdkHandle);
PL_DECLARE_HANDLE(plDynamicsWorldHandle);
PL_DECLARE_HANDLE(plRigidBodyHandle);
PL_DECLARE_HANDLE(plCollisionShapeHandle);
PL_DECLARE_HANDLE(plConstraintHandle);
PL_DECLARE_HANDLE(plMeshInterfaceHandle);
PL_DECLARE_HANDLE(plCollisionBroadphaseHandle);
PL_DECLARE_HANDLE(plBroadphaseProxyHandle);
PL_DECLARE_HANDLE(plCollisionWorldHandle);

typedef enum plStatus {
    PL_OK = 0,
    PL_ERR_NULL = 1,      /* a NULL handle or pointer */
    PL_ERR_HANDLE = 2,    /* a stale (deleted) or wrong-kind handle */
    PL_ERR_INVALID = 3,   /* an out-of-range value (negative mass, ...) */
    PL_ERR_NONFINITE = 4, /* NaN or infinity */
    PL_ERR_STATE = 5,     /* not allowed now (shape in use, no SDK, ...) */
    PL_ERR_NOMEM = 6,
    PL_ERR_PRECISION = 7, /* plReal of the caller != the library's */
    PL_ERR_IO = 8         /* a file could not be created or written */
} plStatus;

/* The return type and pointer constness of the classic functions: the
 * classic declarations (void, no const) with PL_CLASSIC_API, else plStatus
 * and const inputs.  One exported function serves both: a void-declared
 * caller ignores the status in its return register. */
#ifdef PL_CLASSIC_API
#define PL_CLASSIC_STATUS void
#define PL_CLASSIC_CONST
#else
#define PL_CLASSIC_STATUS plStatus
#define PL_CLASSIC_CONST const
#endif

/* The message of the last failed call on this thread ("" if none); calls
 * that succeed leave it as it is.  Cannot fail. */
RF_API const char *plGetLastError(void);

/* ---- SDK and worlds ---- */

/* A new SDK (the context that worlds and shapes need).  A program
 * compiled with this header calls plNewBulletSdk_float32 or _float64 (the
 * macro below), defined only by the library of that precision: linking
 * the other library fails ("undefined reference to
 * plNewBulletSdk_float64").  The library also exports plNewBulletSdk
 * itself, unchecked, for bindings that load it by name.  Errors (NULL
 * returned): PL_ERR_NOMEM only. */
#ifdef BT_USE_DOUBLE_PRECISION
#define plNewBulletSdk plNewBulletSdk_float64
#else
#define plNewBulletSdk plNewBulletSdk_float32
#endif
RF_API plPhysicsSdkHandle plNewBulletSdk(void);
#ifndef PL_CLASSIC_API /* rollfric's own: hidden in classic mode */
/* Checked SDK creation at run time (for callers that cannot link by the
 * precision's name): real_size must be the library's sizeof(plReal).
 * Errors (NULL returned): PL_ERR_PRECISION (real_size is not the
 * library's sizeof(plReal)). */
RF_API plPhysicsSdkHandle plNewBulletSdkChecked(int real_size);
#endif /* !PL_CLASSIC_API */
/* Deletes the SDK and the worlds it still has (as plDeleteDynamicsWorld);
 * shapes, bodies and constraints stay valid.  With no SDK left the shape
 * constructors fail (PL_ERR_STATE).  Errors: PL_ERR_NULL, PL_ERR_HANDLE. */
RF_API PL_CLASSIC_STATUS plDeletePhysicsSdk(plPhysicsSdkHandle sdk);

/* A btDiscreteDynamicsWorld (default collision configuration, dbvt
 * broadphase, stock sequential-impulse solver wrapped by the cone solver
 * with plGetDefaultSolverConfig's settings), gravity (0, -10, 0) as the
 * classic API's.
 * Errors (NULL returned): PL_ERR_NULL, PL_ERR_HANDLE (sdk), PL_ERR_NOMEM
 * (also: the cone solver could not be attached for want of memory). */
RF_API plDynamicsWorldHandle plCreateDynamicsWorld(plPhysicsSdkHandle sdk);
/* Removes its bodies and constraints (they stay valid, in no world) and
 * deletes the world.  Errors: PL_ERR_NULL, PL_ERR_HANDLE. */
RF_API PL_CLASSIC_STATUS plDeleteDynamicsWorld(plDynamicsWorldHandle world);
/* The classic call, Bullet's stepSimulation(dt): advance the clock by dt
 * (> 0, finite) with at most one fixed step of 1/60 s (interpolated
 * transforms in between).  For exact steps use plStepSimulationFixed(w,
 * dt, 1, dt).  Errors: PL_ERR_NULL, PL_ERR_HANDLE (world),
 * PL_ERR_NONFINITE (dt), PL_ERR_INVALID (dt <= 0, or more than 1e9 fixed
 * steps: Bullet's int count of them would overflow). */
RF_API PL_CLASSIC_STATUS plStepSimulation(plDynamicsWorldHandle world,
                                          plReal dt);
#ifndef PL_CLASSIC_API /* rollfric's own: hidden in classic mode */
/* Bullet's stepSimulation(dt, max_substeps, fixed_step): advance by dt in
 * fixed steps of fixed_step, at most max_substeps of them (>= 1); s.
 * Errors: PL_ERR_NULL, PL_ERR_HANDLE (world), PL_ERR_NONFINITE (dt,
 * fixed_step), PL_ERR_INVALID (dt or fixed_step <= 0, max_substeps < 1,
 * dt more than 1e9 fixed steps: Bullet's int count would overflow). */
RF_API plStatus plStepSimulationFixed(plDynamicsWorldHandle world, plReal dt,
                                      int max_substeps, plReal fixed_step);
/* The world's gravity, m/s^2.  Errors: PL_ERR_NULL (world, g),
 * PL_ERR_HANDLE (world), PL_ERR_NONFINITE (g). */
RF_API plStatus plSetGravity(plDynamicsWorldHandle world, const plVector3 g);
/* Records the world's run to path (rollfric_bullet.h's
 * rf_bullet_record_start; the format in docs/recording.md): each body's
 * shape once, its transform at most every frame_interval of simulated
 * time (s; 1/60 for 60 frames per simulated second), and with contacts 1
 * the contact points with their forces; with either contact solver.  The
 * recording ends with plStopRecording or the world's deletion; a world
 * still alive when the program exits has its recording ended then (the
 * end mark, without the last frame).  Errors:
 * PL_ERR_NULL (world, path), PL_ERR_HANDLE (world), PL_ERR_NONFINITE,
 * PL_ERR_INVALID (frame_interval < 0, contacts not 0 or 1), PL_ERR_STATE
 * (already recording), PL_ERR_IO (cannot create path). */
RF_API plStatus plStartRecording(plDynamicsWorldHandle world, const char *path,
                                 plReal frame_interval, int contacts);
/* Writes the last frame and closes the recording (PL_OK when none is
 * open).  Errors: PL_ERR_NULL, PL_ERR_HANDLE (world), PL_ERR_IO (the file
 * could not be completed). */
RF_API plStatus plStopRecording(plDynamicsWorldHandle world);
/* Names body for recordings (rf_bullet_record_name): name is UTF-8 of at
 * most 63 bytes, copied ("" takes the name away); the A/B viewer shows it
 * and finds bodies by it.  The body keeps it: every recording of a world
 * it is in (or is added to later) declares it with the name, and a body
 * already declared in an open recording is declared again with its id
 * and the name at the next frame.  Errors: PL_ERR_NULL (body, name),
 * PL_ERR_HANDLE (body), PL_ERR_INVALID (name longer than 63 bytes:
 * refused, not cut), PL_ERR_NOMEM. */
RF_API plStatus plSetBodyName(plRigidBodyHandle body, const char *name);
/* Bullet's split impulse (btContactSolverInfo::m_splitImpulse, on by
 * default): points deeper than m_splitImpulsePenetrationThreshold
 * (-0.04 m) recover on pseudo-velocities that move positions and are
 * dropped, not through their velocity; both solvers honour it.  on: 0 or
 * 1.  Errors: PL_ERR_NULL, PL_ERR_HANDLE (world), PL_ERR_INVALID (on not
 * 0 or 1). */
RF_API plStatus plSetSplitImpulse(plDynamicsWorldHandle world, int on);
/* Bullet's iteration budget per step (btContactSolverInfo::
 * m_numIterations, 10 by default), n >= 1: stock's sweeps, and the cone
 * solver's at its default max_iter (PL_WORLD_ITERATIONS; it may stop
 * sooner at its tolerance).  Errors: PL_ERR_NULL, PL_ERR_HANDLE (world),
 * PL_ERR_INVALID (n < 1). */
RF_API plStatus plSetSolverIterations(plDynamicsWorldHandle world, int n);
/* Bullet's contact error reduction (btContactSolverInfo::m_erp2, 0.2 by
 * default), in [0, 1]: a penetrating point not split off (split impulse
 * off, or shallower than the split threshold) separates at erp depth / h
 * in the step, under both solvers.  Lower values damp the sway of
 * leaning columns kept awake (docs/bullet-scenes.md, "Kept awake").
 * Errors: PL_ERR_NULL, PL_ERR_HANDLE (world), PL_ERR_NONFINITE,
 * PL_ERR_INVALID (outside [0, 1]). */
RF_API plStatus plSetContactErp(plDynamicsWorldHandle world, plReal erp);
/* Rolling and spinning friction, m (>= 0), for every contact point of
 * world whose bodies give it none (rf_bullet_set_default_friction): an
 * application that never calls plSetRollingFriction still gets rolling
 * resistance.  Points with a value of their own keep it; 0 gives none
 * (the default).  Errors: PL_ERR_NULL, PL_ERR_HANDLE (world),
 * PL_ERR_NONFINITE, PL_ERR_INVALID (negative). */
RF_API plStatus plSetDefaultFriction(plDynamicsWorldHandle world,
                                     plReal rolling, plReal spinning);
/* Loads a materials file into world (rf_bullet_load_materials: rules that
 * give its bodies rolling, spinning and sliding friction and
 * restitution; docs/bullet.md, "Materials"); on any error nothing
 * changes and plGetLastError names the line and the key.  Errors:
 * PL_ERR_NULL, PL_ERR_HANDLE (world), PL_ERR_IO (unreadable),
 * PL_ERR_INVALID (a bad file), PL_ERR_NOMEM. */
RF_API plStatus plLoadMaterials(plDynamicsWorldHandle world, const char *path);
#endif /* !PL_CLASSIC_API */
/* Adds body to world (with its cohesion and yield forces).  Errors:
 * PL_ERR_NULL, PL_ERR_HANDLE (world, body), PL_ERR_STATE (the body is in
 * a world already, this one included). */
RF_API PL_CLASSIC_STATUS plAddRigidBody(plDynamicsWorldHandle world,
                                        plRigidBodyHandle body);
/* Takes body out of world (it stays valid).  Errors: PL_ERR_NULL,
 * PL_ERR_HANDLE (world, body), PL_ERR_STATE (the body is not in this
 * world, or a constraint using it is in a world: remove that first). */
RF_API PL_CLASSIC_STATUS plRemoveRigidBody(plDynamicsWorldHandle world,
                                           plRigidBodyHandle body);

/* ---- contact solver ---- */

#ifndef PL_CLASSIC_API /* rollfric's own: hidden in classic mode */
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
 * rf_bullet_config_default): RF_SOLVER_SI, RF_MODEL_DESAXCE,
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
#endif /* !PL_CLASSIC_API */

/* ---- shapes ---- */

/* Radius, m.  Errors (NULL returned): PL_ERR_STATE (no SDK),
 * PL_ERR_NONFINITE, PL_ERR_INVALID (radius <= 0). */
RF_API plCollisionShapeHandle plNewSphereShape(plReal radius);
/* Half extents, m, each >= 0: a zero extent is a flat box, which Bullet's
 * collision margin (0.04 m) gives thickness, as the classic API allowed
 * (a floor plNewBoxShape(120, 0, 120)).  Errors (NULL returned):
 * PL_ERR_STATE (no SDK), PL_ERR_NONFINITE, PL_ERR_INVALID (an extent < 0,
 * or all three 0). */
RF_API plCollisionShapeHandle plNewBoxShape(plReal x, plReal y, plReal z);
/* Along y, as the classic implementation built it: Bullet's
 * btMultiSphereShape of two spheres of the radius centred at +-height (so
 * height is half the straight part), m; collisions see it a little
 * differently from Bullet's btCapsuleShape, which plNewCapsuleShapeAxis
 * builds (capsule(0.25, 0.5) standing on a box rests at 0.748 m, stock
 * solver, against 0.750).  Errors (NULL returned):
 * PL_ERR_STATE (no SDK), PL_ERR_NONFINITE, PL_ERR_INVALID (radius or
 * height <= 0). */
RF_API plCollisionShapeHandle plNewCapsuleShape(plReal radius, plReal height);
/* Along y, full height.  Errors: as plNewCapsuleShape. */
RF_API plCollisionShapeHandle plNewConeShape(plReal radius, plReal height);
/* Along y; as the classic API, height is the half height.  Errors: as
 * plNewCapsuleShape. */
RF_API plCollisionShapeHandle plNewCylinderShape(plReal radius, plReal height);
#ifndef PL_CLASSIC_API /* rollfric's own: hidden in classic mode */
/* The same three along an axis (0 = x, 1 = y, 2 = z): Bullet's
 * btCapsuleShape(X/Z) (radius, 2 height), btConeShape(X/Z),
 * btCylinderShape(X/Z); height has the meaning of the y versions above. Errors:
 * as above, and PL_ERR_INVALID for an axis not in {0, 1, 2}. */
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
#endif /* !PL_CLASSIC_API */
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
RF_API PL_CLASSIC_STATUS plAddChildShape(plCollisionShapeHandle compound,
                                         plCollisionShapeHandle child,
                                         PL_CLASSIC_CONST plVector3 pos,
                                         PL_CLASSIC_CONST plQuaternion orn);
/* An empty convex hull (points: plAddVertex).  Errors (NULL returned):
 * PL_ERR_STATE (no SDK). */
RF_API plCollisionShapeHandle plNewConvexHullShape(void);
/* Adds the point (x, y, z), m, to hull; not to a hull in use by a body or
 * a compound.  Errors: PL_ERR_NULL, PL_ERR_HANDLE (hull), PL_ERR_INVALID
 * (hull not a convex hull shape), PL_ERR_NONFINITE, PL_ERR_STATE (the hull
 * in use). */
RF_API PL_CLASSIC_STATUS plAddVertex(plCollisionShapeHandle hull, plReal x,
                                     plReal y, plReal z);
/* Scaling (> 0 per axis); not for a shape in use by a body (or by a
 * compound).  Scaling a compound also rescales its children's shapes
 * (Bullet's btCompoundShape), even ones in use elsewhere.  Errors:
 * PL_ERR_NULL (shape, scaling), PL_ERR_HANDLE (shape), PL_ERR_NONFINITE,
 * PL_ERR_INVALID (a component <= 0), PL_ERR_STATE (the shape in use). */
RF_API PL_CLASSIC_STATUS plSetScaling(plCollisionShapeHandle shape,
                                      PL_CLASSIC_CONST plVector3 scaling);
#ifndef PL_CLASSIC_API /* rollfric's own: hidden in classic mode */
/* A static triangle mesh (Bullet's btBvhTriangleMeshShape) from arrays:
 * vertices (3 num_vertices reals, x y z each) and indices (3
 * num_triangles 0-based vertex indices) are copied; static bodies only
 * (mass 0).  (plNewStaticTriangleMeshShape is the classic constructor
 * from a mesh interface.)  Errors
 * (NULL returned): PL_ERR_NULL, PL_ERR_NONFINITE (a vertex),
 * PL_ERR_INVALID (counts < 1 (vertices < 3), an index out of range, a
 * degenerate triangle with a repeated index), PL_ERR_STATE (no SDK). */
RF_API plCollisionShapeHandle
plNewStaticTriangleMeshShapeIndexed(const plReal *vertices, int num_vertices,
                                    const int *indices, int num_triangles);
#endif /* !PL_CLASSIC_API */
/* The classic mesh interface: a list of triangles (Bullet's
 * btTriangleMesh) to build static triangle mesh shapes from.  It lives
 * until plDeleteMeshInterface or until the last SDK is deleted; shapes
 * built from it copy its triangles and do not depend on it.  Errors (NULL
 * returned): PL_ERR_STATE (no SDK). */
RF_API plMeshInterfaceHandle plNewMeshInterface(void);
/* Appends the triangle (v0, v1, v2), m.  Errors: PL_ERR_NULL,
 * PL_ERR_HANDLE (mesh), PL_ERR_NONFINITE (a vertex). */
RF_API PL_CLASSIC_STATUS plAddTriangle(plMeshInterfaceHandle mesh,
                                       PL_CLASSIC_CONST plVector3 v0,
                                       PL_CLASSIC_CONST plVector3 v1,
                                       PL_CLASSIC_CONST plVector3 v2);
/* A static triangle mesh shape (btBvhTriangleMeshShape) of the mesh's
 * triangles, copied; static bodies only.  Errors (NULL returned):
 * PL_ERR_NULL, PL_ERR_HANDLE (mesh), PL_ERR_INVALID (no triangle yet),
 * PL_ERR_STATE (no SDK). */
RF_API plCollisionShapeHandle
plNewStaticTriangleMeshShape(plMeshInterfaceHandle mesh);
#ifndef PL_CLASSIC_API /* rollfric's own: hidden in classic mode */
/* Deletes the mesh interface (shapes built from it stay valid).  Errors:
 * PL_ERR_NULL, PL_ERR_HANDLE. */
RF_API plStatus plDeleteMeshInterface(plMeshInterfaceHandle mesh);
/* The direction, in the shape's frame, about which Bullet lets the shape
 * roll with anisotropic rolling friction (getAnisotropicRollingFriction-
 * Direction: the axis of a capsule, cone or cylinder, (1, 1, 1) for other
 * shapes).  Errors: PL_ERR_NULL (shape, direction), PL_ERR_HANDLE. */
RF_API plStatus plGetAnisotropicRollingFrictionDirection(
    plCollisionShapeHandle shape, plVector3 direction);
#endif /* !PL_CLASSIC_API */
/* Deletes the shape (a compound releases its children).  Errors:
 * PL_ERR_NULL, PL_ERR_HANDLE, PL_ERR_STATE (in use by a body or a
 * compound: delete those first). */
RF_API PL_CLASSIC_STATUS plDeleteShape(plCollisionShapeHandle shape);

/* ---- rigid bodies ---- */

/* mass (float, as the classic declaration, in both precisions; a double
 * mass goes through plSetMassProps) 0 = static, else > 0 (inertia from the
 * shape); user_data is kept
 * and returned by plGetUserData.  The shape must not be deleted while the
 * body lives.  Starts at the origin, identity orientation.  mass, kg.
 * Errors (NULL returned): PL_ERR_NULL, PL_ERR_HANDLE (shape),
 * PL_ERR_NONFINITE (mass), PL_ERR_INVALID (mass < 0; mass > 0 with a
 * static plane or a triangle mesh). */
RF_API plRigidBodyHandle plCreateRigidBody(void *user_data, float mass,
                                           plCollisionShapeHandle shape);
#ifndef PL_CLASSIC_API /* rollfric's own: hidden in classic mode */
/* Mass (> 0, kg) and principal moments of inertia (> 0, kg m^2, about the
 * body's own axes) of a dynamic body, replacing what plCreateRigidBody
 * derived from the shape (e.g. a disk whose inertia is not the uniform
 * cylinder's).  Errors: PL_ERR_NULL, PL_ERR_HANDLE, PL_ERR_NONFINITE,
 * PL_ERR_INVALID (a value <= 0, or a static body). */
RF_API plStatus plSetMassProps(plRigidBodyHandle body, plReal mass,
                               const plVector3 inertia);
#endif /* !PL_CLASSIC_API */
/* Removes the body from its world, if any, and deletes it.  Errors:
 * PL_ERR_NULL, PL_ERR_HANDLE, PL_ERR_STATE (a constraint uses the body:
 * delete it first). */
RF_API PL_CLASSIC_STATUS plDeleteRigidBody(plRigidBodyHandle body);
#ifndef PL_CLASSIC_API /* rollfric's own: hidden in classic mode */
/* The user_data given to plCreateRigidBody.  Errors (NULL returned, as for
 * user_data NULL): PL_ERR_NULL, PL_ERR_HANDLE. */
RF_API void *plGetUserData(plRigidBodyHandle body);
#endif /* !PL_CLASSIC_API */

/* Position (world, m; the centre of mass) and orientation (x, y, z, w) of
 * the body.  Errors: PL_ERR_NULL (body, the output), PL_ERR_HANDLE. */
RF_API PL_CLASSIC_STATUS plGetPosition(plRigidBodyHandle body,
                                       plVector3 position);
RF_API PL_CLASSIC_STATUS plGetOrientation(plRigidBodyHandle body,
                                          plQuaternion orientation);
/* Moves the body there (motion state and interpolation too) and wakes
 * it.  Errors: PL_ERR_NULL (body, position), PL_ERR_HANDLE,
 * PL_ERR_NONFINITE. */
RF_API PL_CLASSIC_STATUS plSetPosition(plRigidBodyHandle body,
                                       const plVector3 position);
/* orientation (x, y, z, w), normalised; |q| must not be ~0.  Turns and
 * wakes the body as plSetPosition.  Errors: PL_ERR_NULL (body,
 * orientation), PL_ERR_HANDLE, PL_ERR_NONFINITE, PL_ERR_INVALID (|q| <=
 * 1e-6). */
RF_API PL_CLASSIC_STATUS plSetOrientation(plRigidBodyHandle body,
                                          const plQuaternion orientation);
/* Quaternion from yaw (about y), pitch (about x), roll (about z), Bullet's
 * btQuaternion::setEuler convention; rad.  Errors: PL_ERR_NULL (orient),
 * PL_ERR_NONFINITE. */
RF_API PL_CLASSIC_STATUS plSetEuler(plReal yaw, plReal pitch, plReal roll,
                                    plQuaternion orient);
/* Column-major 4x4 world transform (OpenGL), 16 reals, m.  plSet... takes
 * the upper 3x3 as given (not checked to be a rotation), ignores the
 * bottom row, and moves and wakes the body as plSetPosition.  Errors:
 * PL_ERR_NULL (body, matrix), PL_ERR_HANDLE, PL_ERR_NONFINITE (set: any
 * of the 16). */
RF_API PL_CLASSIC_STATUS plGetOpenGLMatrix(plRigidBodyHandle body,
                                           plReal *matrix);
RF_API PL_CLASSIC_STATUS plSetOpenGLMatrix(plRigidBodyHandle body,
                                           PL_CLASSIC_CONST plReal *matrix);

#ifndef PL_CLASSIC_API /* rollfric's own: hidden in classic mode */
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
 * friction rows' axes with it.  The cone solver uses the ellipse that
 * scaling makes of its sliding (rolling) limit, exactly
 * (rf_problem_set_sliding_scales, rf_problem_set_rolling_scales): a
 * rolling scaling along one body axis e (as
 * plGetAnisotropicRollingFrictionDirection gives for capsules, cones and
 * cylinders) resists rolling about e's projection on the contact plane
 * (|torque| <= rho gn) and leaves rolling about the other tangent free
 * (RF_CONTACT_ROLL_T1); docs/bullet.md, "Anisotropic friction".  Errors:
 * PL_ERR_NULL, PL_ERR_HANDLE, PL_ERR_NONFINITE, PL_ERR_INVALID (negative
 * scaling, unknown mode). */
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
/* 1: the body's contacts keep friction anchors (Bullet's
 * btCollisionObject::CF_HAS_FRICTION_ANCHOR, off by default): while a
 * point's friction stays inside the cone, the point stays where it stuck
 * and the friction pulls its two ends back together at m_frictionERP
 * (0.2) of their distance a step, under either solver, so a body kept
 * awake (plSetSleeping(body, 0)) on a support does not creep; a contact
 * is anchored when either body asks.  0: off.  Errors: PL_ERR_NULL,
 * PL_ERR_HANDLE, PL_ERR_INVALID (on not 0 or 1). */
RF_API plStatus plSetFrictionAnchor(plRigidBodyHandle body, int on);
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
#endif /* !PL_CLASSIC_API */

/* ---- queries ---- */

typedef struct plRayCastResult {
    plRigidBodyHandle m_body; /* NULL when nothing is hit */
    plCollisionShapeHandle m_shape;
    plVector3 m_positionWorld;
    plVector3 m_normalWorld;
} plRayCastResult;
/* Closest hit along the segment; returns 1 (hit, res filled), 0 (no hit)
 * or -1 (error, see plGetLastError).  res is a pointer in both modes: the
 * classic declaration took it by value, so no hit could ever reach the
 * caller (docs/c-api.md, "Classic compatibility").
 * World frame, m; with no hit res is
 * zeroed.  Errors (-1 returned, res untouched): PL_ERR_NULL (world,
 * ray_start, ray_end, res), PL_ERR_HANDLE (world), PL_ERR_NONFINITE (a
 * ray point). */
RF_API int plRayCast(plDynamicsWorldHandle world, const plVector3 ray_start,
                     const plVector3 ray_end, plRayCastResult *res);
/* The closest points of triangles P (p1, p2, p3) and Q (q1, q2, q3), in
 * float as the classic declaration has it, by Bullet's GJK (each triangle
 * with a 1e-6 m margin, as the classic implementation): returns their
 * distance (m, >= 0 when apart), with pa on P, pb on Q and the unit
 * normal from Q towards P (the classic implementation wrote the point on
 * Q to pa and the one on P to pb); -1 (outputs untouched, message in
 * plGetLastError) for a NULL or non-finite argument or when GJK finds no
 * result (e.g. degenerate triangles).  Needs no SDK. */
RF_API double plNearestPoints(float p1[3], float p2[3], float p3[3],
                              float q1[3], float q2[3], float q3[3], float *pa,
                              float *pb, float normal[3]);

/* ---- broadphase and collision world (the classic collision-only part) */

/* A broadphase's pair callback: clientData is the broadphase's handle
 * (plCollisionBroadphaseHandle), object1 and object2 the client data of
 * the two proxies. */
typedef void (*btBroadphaseCallback)(void *clientData, void *object1,
                                     void *object2);
/* A sweep-and-prune broadphase (Bullet's btAxisSweep3 over the classic
 * SDK's box, -1000 to 1000 m on each axis) that reports pairs as they
 * change: beginCallback(bp, a, b) when the boxes of the proxies with
 * client data a and b start to overlap (at plCreateProxy or
 * plSetBoundingBox), endCallback(bp, a, b) when they stop (at
 * plSetBoundingBox or plDestroyProxy).  Either callback may be NULL.
 * Errors (NULL returned): PL_ERR_STATE (no SDK). */
RF_API plCollisionBroadphaseHandle plCreateSapBroadphase(
    btBroadphaseCallback beginCallback, btBroadphaseCallback endCallback);
/* Destroys the broadphase and its proxies (their handles go stale; no
 * end callbacks).  Errors: PL_ERR_NULL, PL_ERR_HANDLE. */
RF_API PL_CLASSIC_STATUS plDestroyBroadphase(plCollisionBroadphaseHandle bp);
/* A proxy with an axis-aligned box (min <= max per axis, m) and the
 * caller's client data.  Errors (NULL returned): PL_ERR_NULL,
 * PL_ERR_HANDLE (bp), PL_ERR_NONFINITE, PL_ERR_INVALID (a min > max, or a
 * box outside the broadphase's range). */
RF_API plBroadphaseProxyHandle plCreateProxy(plCollisionBroadphaseHandle bp,
                                             void *clientData, plReal minX,
                                             plReal minY, plReal minZ,
                                             plReal maxX, plReal maxY,
                                             plReal maxZ);
/* Removes the proxy from bp.  Errors: PL_ERR_NULL, PL_ERR_HANDLE (bp,
 * proxy), PL_ERR_INVALID (the proxy belongs to another broadphase). */
RF_API PL_CLASSIC_STATUS plDestroyProxy(plCollisionBroadphaseHandle bp,
                                        plBroadphaseProxyHandle proxy);
/* Moves the proxy's box (callbacks fire for the pairs that change).
 * Errors: as plCreateProxy. */
RF_API PL_CLASSIC_STATUS plSetBoundingBox(plBroadphaseProxyHandle proxy,
                                          plReal minX, plReal minY, plReal minZ,
                                          plReal maxX, plReal maxY,
                                          plReal maxZ);
/* A collision world (Bullet's btCollisionWorld, default collision
 * configuration, dbvt broadphase), owned by sdk: deleted with it or by
 * plDeleteCollisionWorld.  The classic header declares no use for it
 * yet.  Errors (NULL returned): PL_ERR_NULL, PL_ERR_HANDLE (sdk). */
RF_API plCollisionWorldHandle plCreateCollisionWorld(plPhysicsSdkHandle sdk);
#ifndef PL_CLASSIC_API /* rollfric's own: hidden in classic mode */
/* Errors: PL_ERR_NULL, PL_ERR_HANDLE. */
RF_API plStatus plDeleteCollisionWorld(plCollisionWorldHandle world);
#endif /* !PL_CLASSIC_API */

#ifdef __cplusplus
}
#endif

#endif /* ROLLFRIC_BULLET_C_API_H */
