/*
 * rollfric for Bullet 3.24 (C++ callers): replace the contact solve of a
 * btDiscreteDynamicsWorld by the cone solver.
 *
 *     #include <rollfric/rollfric_bullet.h>
 *     rf_plugin *rf = rf_bullet_attach(world, NULL);   // NULL = defaults
 *     ... world->stepSimulation(...) as before ...
 *     rf_bullet_detach(rf);                            // before deleting
 *                                                      // the world
 *
 * Link with librollfric.so for Debian's float Bullet (pkg-config
 * "rollfric", which requires "bullet"), or with librollfric-float64.so for
 * the double-precision build (pkg-config "rollfric-float64", requires
 * "bullet-float64", defines BT_USE_DOUBLE_PRECISION).  rf_bullet_attach is
 * an inline function that passes the caller's sizeof(btScalar): attaching
 * through the library of the other precision fails with a message instead
 * of corrupting memory.
 *
 * What one step does (docs/bullet.md): every awake island's manifold
 * points within the manifold's contact processing threshold (pairs that
 * need a response) become one 6D contact each, with the point's combined
 * friction (mu), rolling friction (rho, a length in m) and spinning
 * friction (sigma, m) (anisotropic friction: the elliptic cones Bullet's
 * scalings describe; defaults and materials for points Bullet gives no
 * rolling friction); every enabled joint
 * (btTypedConstraint) gives its rows from getInfo1/getInfo2 as the stock solver
 * reads them (motors, limits, breaking thresholds included); contacts and joint
 * rows go into one cone complementarity problem per step, solved by the core
 * (rf_solve); body velocities, the points' applied impulses, the joints'
 * applied impulses (getAppliedImpulse: the last row's, as stock) and
 * btJointFeedback are written back, and a joint whose row impulse reaches
 * its breaking threshold is disabled.  Free velocities, gravity, the
 * gyroscopic terms, damping, kinematic and static bodies, sleeping,
 * restitution and conveyor motion follow the stock solver.
 *
 * Units: impulses in N s (forces) and N m s (torques) over one step;
 * speeds in m/s.  Nothing here is thread-safe for one plugin: call these
 * functions from the thread that steps the world, between steps.
 */
#ifndef ROLLFRIC_ROLLFRIC_BULLET_H
#define ROLLFRIC_ROLLFRIC_BULLET_H

#ifndef __cplusplus
#error                                                                         \
    "rollfric_bullet.h is a C++ header (Bullet is C++); use rollfric.h from C"
#endif

#include "rollfric/rollfric.h"

#include <LinearMath/btScalar.h>

class btCollisionObject;
class btDiscreteDynamicsWorld;
class btManifoldPoint;
class btPersistentManifold;
class btTypedConstraint;

extern "C" {

/* One attachment of the cone solver to one world. */
typedef struct rf_plugin rf_plugin;

/* Which solver steps the world: the cone solver, or the world's previous
 * (stock) solver, untouched, for A/B runs on the same world. */
typedef enum rf_bullet_mode {
    RF_BULLET_CONE = 0,
    RF_BULLET_STOCK = 1
} rf_bullet_mode;

/* Default cap on the penetration-recovery speed (m/s): a penetrating
 * point asks for a separating normal velocity of erp * depth / h (erp =
 * the solver info's m_erp2, or the point's own ERP), at most this. */
#define RF_BULLET_DEFAULT_MAX_RECOVERY 3.0

/* rf_config.max_iter value that makes each step take the world's own
 * iteration budget, btContactSolverInfo::m_numIterations (10 by default;
 * Bullet's BenchmarkDemo sets 5), as the stock solver does.  Accepted by
 * rf_bullet_attach and rf_bullet_set_config only (rf_solve wants >= 1). */
#define RF_BULLET_WORLD_ITERATIONS 0

/* The configuration rf_bullet_attach(world, NULL), the LD_PRELOAD drop-in
 * and plCreateDynamicsWorld use: what a Bullet user expects of a drop-in
 * at Bullet's cost.
 *   solver     RF_SOLVER_SI (sequential impulse: block Gauss-Seidel in
 *              velocity form, a sweep at the cost of a stock iteration)
 *   model      RF_MODEL_DESAXCE (no dilatancy: the associated model makes
 *              sliding boxes hop)
 *   max_iter   RF_BULLET_WORLD_ITERATIONS (the app's m_numIterations)
 *   tol        RF_BULLET_DEFAULT_TOL: a sweep that changes the impulses by
 *              at most this, relative, ends the step early
 *   residual   0: no residual pass after the solve (rf_bullet_stats
 *              reports residual NAN; energy_change from SI's guard)
 *   the rest   as rf_config_default (warm start on, OpenMP's threads).
 * The converged solve for Bullet worlds is rf_bullet_config_converged
 * (below): rf_bullet_set_config(p, &cfg) with it, or ROLLFRIC_CONVERGED=1
 * for the drop-in.  NULL is ignored. */
#define RF_BULLET_DEFAULT_TOL 1e-5
/* As rf_config_default_sized (rollfric.h, "Binary compatibility": the
 * functions here that take an rf_config or an rf_stats are inline
 * wrappers passing the caller's sizeof(rf_config) / sizeof(rf_stats) to
 * an exported *_sized function, which refuses a size it does not know with
 * RF_ERR_INVALID).  Errors: RF_ERR_NULL, RF_ERR_INVALID (size). */
RF_API rf_status rf_bullet_config_default_sized(rf_config *cfg, size_t size);
inline void rf_bullet_config_default(rf_config *cfg)
{
    (void)rf_bullet_config_default_sized(cfg, sizeof(rf_config));
}

/* The converged solve for Bullet worlds (ROLLFRIC_CONVERGED=1): rf_config_
 * default (APGD, up to 1000 iterations to a residual of 1e-8) with the De
 * Saxce model, so that a body sliding down a slope keeps to it (the
 * associated model's dilatancy lifts it: a box on a 50 deg slope hops
 * 0.10 m and slides at 3.39 m/s^2 against Coulomb's 4.36;
 * tests/test_bullet_app_settings.cpp).  A configuration with a budget of
 * its own (max_iter not RF_BULLET_WORLD_ITERATIONS) also gives every
 * joint row without bounds a compliance of at least
 * RF_BULLET_CONVERGED_JOINT_CFM of its J M^-1 J^T (Bullet's cfm units;
 * docs/bullet.md, "Converged"): an exact solve of a joint set that cannot
 * be met (Bullet's Bridge tutorial) otherwise answers with unbounded
 * impulses.  Errors: RF_ERR_NULL, RF_ERR_INVALID (size). */
#define RF_BULLET_CONVERGED_JOINT_CFM 3e-3
RF_API rf_status rf_bullet_config_converged_sized(rf_config *cfg, size_t size);
inline void rf_bullet_config_converged(rf_config *cfg)
{
    (void)rf_bullet_config_converged_sized(cfg, sizeof(rf_config));
}

/* The implementation behind rf_bullet_attach; call that instead.
 * cfg_size is the caller's sizeof(rf_config), scalar_size its
 * sizeof(btScalar). */
RF_API rf_plugin *rf_bullet_attach_checked(btDiscreteDynamicsWorld *world,
                                           const rf_config *cfg,
                                           size_t cfg_size, int scalar_size,
                                           rf_error *err);

/* sizeof(btScalar) this library was built with (4 or 8). */
RF_API int rf_bullet_scalar_size(void);

/* Detach: the world gets back the solver it had before rf_bullet_attach
 * (and its ownership of it), unless the application installed another
 * solver meanwhile, which is then left in place; p is freed.  NULL is
 * accepted.  While attached the world holds (and owns) a small forwarding
 * solver, so a world deleted while attached is safe: the forwarding
 * solver's destructor frees the world's previous solver if the world
 * owned it and tells p, whose functions then still answer (stats of the
 * last step) until rf_bullet_detach(p) frees it.  One case is not
 * detectable: after the application replaced the solver of an attached
 * world, detach before deleting that world. */
RF_API void rf_bullet_detach(rf_plugin *p);

/* Statistics of the last step solved by the cone solver: contacts,
 * rows (6 per contact plus the joint rows), iterations, residual (rf_residual's
 * measure, for the configured model), converged and seconds (wall time of the
 * whole step in the plugin: gathering, solving, writing back).  Returns RF_OK,
 * or RF_ERR_NULL for a NULL argument.  Zeroes before the first step. */
RF_API rf_status rf_bullet_stats_sized(const rf_plugin *p, rf_stats *out,
                                       size_t size);
inline rf_status rf_bullet_stats(const rf_plugin *p, rf_stats *out)
{
    return rf_bullet_stats_sized(p, out, sizeof(rf_stats));
}

/* Where the last cone step's wall time went, s: build (Bullet's bodies,
 * manifold points and joints gathered into the plugin's problem, from the
 * start of the step to the solve), solve (rf_solve), write_back (the
 * body velocities from the impulses, written into Bullet with the
 * impulses of every point and joint), total (the whole step in the
 * plugin, = rf_stats.seconds; the three parts add up to it within a few
 * microseconds).  Like rf_bullet_stats it describes the last step the
 * cone solver solved: stock steps leave it; all 0 before the first cone
 * step and after one the cone solver handed to the previous solver. */
typedef struct rf_bullet_timing {
    double build;
    double solve;
    double write_back;
    double total;
    int threads; /* OpenMP threads the step ran on (see rf_config.threads:
                    with 0 the shim chooses, step by step, between
                    OpenMP's count and one) */
} rf_bullet_timing;

/* The last cone step's timing.  Errors: RF_ERR_NULL. */
RF_API rf_status rf_bullet_timing_get(const rf_plugin *p,
                                      rf_bullet_timing *out);

/* Number of world steps the plugin has seen (cone and stock), to *out.
 * Errors: RF_ERR_NULL. */
RF_API rf_status rf_bullet_steps(const rf_plugin *p, long *out);

/* Switch between the cone and the stock solver; takes effect at the next
 * step.  Errors: RF_ERR_NULL, RF_ERR_INVALID (unknown mode). */
RF_API rf_status rf_bullet_set_mode(rf_plugin *p, rf_bullet_mode mode);
/* The mode set last, to *out.  Errors: RF_ERR_NULL. */
RF_API rf_status rf_bullet_get_mode(const rf_plugin *p, rf_bullet_mode *out);

/* Replace the solver configuration (copied; validated as rf_solve would,
 * except that max_iter may be RF_BULLET_WORLD_ITERATIONS, which
 * RF_SOLVER_JACOBI and RF_SOLVER_APGD refuse (RF_ERR_INVALID: at Bullet's
 * 5-10 iterations they do not hold stacks; give them max_iter); on error the
 * configuration in use is kept and the message goes to err, or to stderr
 * when err is NULL).
 * cfg NULL = rf_bullet_config_default.  Errors: RF_ERR_NULL (p),
 * RF_ERR_INVALID, RF_ERR_NONFINITE. */
RF_API rf_status rf_bullet_set_config_sized(rf_plugin *p, const rf_config *cfg,
                                            size_t size, rf_error *err);
inline rf_status rf_bullet_set_config(rf_plugin *p, const rf_config *cfg,
                                      rf_error *err)
{
    return rf_bullet_set_config_sized(p, cfg, sizeof(rf_config), err);
}

/* The configuration in use (copied to out).  Errors: RF_ERR_NULL,
 * RF_ERR_INVALID (size). */
RF_API rf_status rf_bullet_get_config_sized(const rf_plugin *p, rf_config *out,
                                            size_t size);
inline rf_status rf_bullet_get_config(const rf_plugin *p, rf_config *out)
{
    return rf_bullet_get_config_sized(p, out, sizeof(rf_config));
}

/* Cap on the penetration-recovery speed, m/s, > 0 (default
 * RF_BULLET_DEFAULT_MAX_RECOVERY).  Errors: RF_ERR_NULL, RF_ERR_INVALID. */
RF_API rf_status rf_bullet_set_max_recovery(rf_plugin *p, double speed);

/* Rolling and spinning friction, m (lengths, >= 0, finite), for every
 * contact point to which Bullet gives none (its combined rolling or
 * spinning friction is 0: an application that never calls
 * setRollingFriction / setSpinningFriction).  Points with a value of
 * their own keep it.  0 (the default) gives none.  Stock mode (and a step
 * handed to the previous solver) sees the same values on the points
 * during its solve, so an A/B compares the two laws with the same
 * coefficients.  The LD_PRELOAD library sets them from
 * ROLLFRIC_ROLLING_FRICTION and ROLLFRIC_SPINNING_FRICTION.  Errors:
 * RF_ERR_NULL, RF_ERR_NONFINITE, RF_ERR_INVALID (negative); on error
 * nothing changes. */
RF_API rf_status rf_bullet_set_default_friction(rf_plugin *p, double rolling,
                                                double spinning);
/* The defaults set last, m, to *rolling and *spinning.  Errors:
 * RF_ERR_NULL. */
RF_API rf_status rf_bullet_get_default_friction(const rf_plugin *p,
                                                double *rolling,
                                                double *spinning);

/* Cohesion (rollfric.h, "Cohesion"): objects in contact hold
 * together up to a force, N.  A pair holds with the smaller of its two
 * objects' forces (both must be cohesive), shared equally by the points of
 * its manifold, for as long as Bullet keeps the manifold (within the
 * contact breaking threshold); friction limits grow by mu times it.  The
 * stock solver ignores it.  force 0 removes the object's entry.  An entry
 * belongs to one stay of the object in the world: it goes when the object
 * leaves the world (dropped at the next cone step; an object removed and
 * added again has none), and never passes to a new object constructed at
 * the address of a deleted one (the entry remembers the object's
 * broadphase proxy id, unique per addition with btDbvtBroadphase, the
 * default; with a broadphase that reuses ids, btAxisSweep3 or
 * btSimpleBroadphase, set force 0 before deleting an object).  Set on an
 * object not yet in the world, it is bound at the first cone step that
 * finds the object there.  Errors: RF_ERR_NULL (p or obj),
 * RF_ERR_NONFINITE, RF_ERR_INVALID (negative). */
RF_API rf_status rf_bullet_set_cohesion(rf_plugin *p,
                                        const btCollisionObject *obj,
                                        double force);
/* Elasto-plastic contact (slides section 3, "Modeling
 * plasticity"): an object's contacts yield at a force, N (the normal
 * force cannot exceed it: crushing).  A pair yields at the smaller force
 * of its objects that have one, shared by its manifold's points
 * (rf_contact_desc.normal_max = force h / points).  Loaded to it, a point
 * flows plastically: its permanent indentation grows by the velocity
 * defect times h, is carried from step to step with the point, and is
 * taken off its penetration, so the surface stays dented after unloading
 * and only the elastic part (the contact's stiffness,
 * setContactStiffnessAndDamping, or the rigid contact's recovery) pushes
 * back (rf_bullet_point_carried reads a point's indentation).  force 0
 * removes the entry; entries are kept per stay of the object in the world,
 * as cohesion's.  The stock solver ignores it.  Errors: RF_ERR_NULL,
 * RF_ERR_NONFINITE, RF_ERR_INVALID (negative). */
RF_API rf_status rf_bullet_set_yield(rf_plugin *p, const btCollisionObject *obj,
                                     double force);
/* The object's yield force, N, to *out (0: none).  Errors: RF_ERR_NULL. */
RF_API rf_status rf_bullet_get_yield(const rf_plugin *p,
                                     const btCollisionObject *obj, double *out);
/* The object's cohesion force, N, to *out (0: none).  Errors:
 * RF_ERR_NULL. */
RF_API rf_status rf_bullet_get_cohesion(const rf_plugin *p,
                                        const btCollisionObject *obj,
                                        double *out);

/* Warnings: what a step could not take as given (MuJoCo's warning
 * counters are the model).  Each kind counts its occurrences since attach
 * (or rf_bullet_clear_warnings) and keeps the last one's step, offender
 * and message.  The first of each kind is printed to stderr ("rollfric:
 * ..."), unless a callback is set (rf_bullet_set_warning_callback), which
 * then gets every occurrence instead. */
typedef enum rf_bullet_warning {
    RF_BULLET_WARN_BODY = 0,    /* a body was held out of the step: a
                                   non-finite position, velocity or force,
                                   a negative or non-finite inverse mass or
                                   inertia, a kinematic body with a non-
                                   finite state (object) */
    RF_BULLET_WARN_POINT,       /* a manifold point was skipped: a zero or
                                   non-finite normal, a non-finite position,
                                   distance, restitution or motion
                                   (manifold) */
    RF_BULLET_WARN_COEFFICIENT, /* a negative or non-finite combined
                                   friction or restitution coefficient, or
                                   contact CFM, was used as 0 (manifold) */
    RF_BULLET_WARN_ANISOTROPY,  /* anisotropic friction the cone does not
                                   model: at a point with application-set
                                   friction directions, or sliding and
                                   rolling ellipses whose axes disagree
                                   (manifold) */
    RF_BULLET_WARN_JOINT,       /* a joint was skipped for a non-finite
                                   Jacobian, error or bound, or a row's
                                   negative or non-finite cfm used as 0
                                   (constraint, row) */
    RF_BULLET_WARN_TIME_STEP,   /* a time step that is not positive and
                                   finite: no contact solve */
    RF_BULLET_WARN_FALLBACK,    /* the core refused the step's problem,
                                   memory ran out, or a body's angular
                                   factor has no exact cone counterpart
                                   (docs/bullet.md; object): the previous
                                   solver stepped the world, or the split
                                   impulse's recovery was skipped */
    RF_BULLET_WARN_POINT_STATE, /* a point's carried state could not be
                                   kept (rf_bullet_carried: the point holds
                                   the application's m_userPersistentData,
                                   gContactDestroyedCallback was replaced
                                   after attaching, out of memory)
                                   (manifold) */
    RF_BULLET_WARN_INTERNAL,    /* a result the core should never give (a
                                   non-finite velocity): please report it
                                   (object) */
    RF_BULLET_WARN_RECORDING,   /* the recording could not be written (a
                                   full disk, ...): it was closed */
    RF_BULLET_WARN_SETTING,     /* a setting of the world's solver info, a
                                   joint or a point that changes stock's
                                   physics and that the cone solver does
                                   not honour (docs/bullet-fields.md lists
                                   them) (constraint or manifold) */
    RF_BULLET_WARN_COUNT
} rf_bullet_warning;

typedef struct rf_bullet_warning_info {
    long count; /* occurrences since attach or the last clear */
    long step;  /* rf_bullet_steps at the last one */
    /* the last one's offender, where the kind names one (else NULL / -1);
       pointers are keys only: the object may be gone since */
    const btCollisionObject *object;
    const btPersistentManifold *manifold;
    const btTypedConstraint *constraint;
    int row;           /* the constraint's row */
    char message[400]; /* the last one's message (cut to fit) */
} rf_bullet_warning_info;

/* The counter and last occurrence of one kind.  Errors: RF_ERR_NULL,
 * RF_ERR_RANGE (kind). */
RF_API rf_status rf_bullet_get_warning(const rf_plugin *p,
                                       rf_bullet_warning kind,
                                       rf_bullet_warning_info *out);
/* Reset every kind's counter (the first of each is printed again).
 * Errors: RF_ERR_NULL. */
RF_API rf_status rf_bullet_clear_warnings(rf_plugin *p);
/* Called for every warning with the kind's updated info, instead of the
 * first of each kind going to stderr; NULL fn restores stderr.  It may be
 * called from an OpenMP worker thread of the step (one call at a time),
 * and must not call back into the plugin.  Errors: RF_ERR_NULL (p). */
typedef void (*rf_bullet_warning_fn)(void *user, rf_bullet_warning kind,
                                     const rf_bullet_warning_info *info);
RF_API rf_status rf_bullet_set_warning_callback(rf_plugin *p,
                                                rf_bullet_warning_fn fn,
                                                void *user);

/* 1: print one line per second of wall time to stderr (steps, contacts,
 * joint rows, iterations, residual, ms per step).  Default 0. */
RF_API void rf_bullet_set_verbose(rf_plugin *p, int verbose);

/* Recording: writes the world's run to path in the format of
 * rollfric/record.h (docs/recording.md), with the cone solver or stock
 * alike: every collision object's shape when it first appears, its
 * transform at most every frame_interval of simulated time (1/60 s for
 * 60 frames per simulated second; 0 for every step), and with contacts 1
 * each frame's contact points with their normal force and rolling torque.
 * The frames are the states at the start of each step (time 0, h, 2h,
 * ...) and, at rf_bullet_record_stop (or rf_bullet_detach, or the world's
 * deletion), the last one, unless the world then has no body left (an
 * application that removes its bodies before deleting the world, as
 * Bullet's HelloWorld): the recording then ends on the last step's
 * start, the last frame that had bodies.  One recording per plugin at a
 * time.  The
 * environment variable ROLLFRIC_RECORD=FILE makes the LD_PRELOAD library
 * record every world it attaches to (ROLLFRIC=off then records stock).
 * Errors: RF_ERR_NULL (p, path), RF_ERR_STATE (already recording, or the
 * world is gone), RF_ERR_INVALID (frame_interval negative or not finite,
 * contacts not 0 or 1), RF_ERR_IO (cannot create path), RF_ERR_NOMEM. */
RF_API rf_status rf_bullet_record_start(rf_plugin *p, const char *path,
                                        double frame_interval, int contacts,
                                        rf_error *err);
/* Writes the last frame (none when no body is left) and closes the
 * recording; RF_OK when none is open.  Errors: RF_ERR_NULL (p), RF_ERR_IO
 * (the file could not be completed; it is closed anyway). */
RF_API rf_status rf_bullet_record_stop(rf_plugin *p, rf_error *err);
/* Ends p's open recording without a last frame: writes the end mark and
 * closes the file, reading nothing from the world or its bodies.  For
 * exit handlers (the LD_PRELOAD library calls it for the worlds a program
 * never deleted, whose bodies may be gone already): the frames of every
 * step are kept, the state after the last step is not (rf_bullet_record_
 * stop writes it).  RF_OK when none is open.  Errors: RF_ERR_NULL (p),
 * RF_ERR_IO (the end could not be written; the file is closed anyway). */
RF_API rf_status rf_bullet_record_end(rf_plugin *p, rf_error *err);
/* Names body, a collision object in p's world, for p's recordings
 * (docs/recording.md: the BODY's name; the A/B viewer shows it and finds
 * bodies by it): name is UTF-8 of at most 63 bytes (RF_RECORD_NAME_MAX of
 * rollfric/record.h), copied; "" takes the name away.  The plugin keeps
 * it, so it may come before rf_bullet_record_start: a body not yet
 * declared in a recording is declared with it; one declared already in
 * the open recording is declared again at the next frame, with the same
 * id and its name (GONE, then BODY).  The name holds while the body stays
 * in the world: a body removed and added again needs it again.  Errors:
 * RF_ERR_NULL (p, body, name), RF_ERR_STATE (the world is gone),
 * RF_ERR_INVALID (name longer than 63 bytes: refused, not cut; body not
 * in p's world), RF_ERR_NOMEM. */
RF_API rf_status rf_bullet_record_name(rf_plugin *p,
                                       const btCollisionObject *body,
                                       const char *name, rf_error *err);

/* The 6D impulse (gn, gu, gw, tn, tu, tw), N s and N m s, that the last
 * cone step applied at a manifold point, in the point's frame
 * (m_normalWorldOnB, m_lateralFrictionDir1, m_lateralFrictionDir2); A (body
 * 0) received +, B (body 1) -.  gn, gu, gw are also in the point's
 * m_appliedImpulse, m_appliedImpulseLateral1/2.  A point whose manifold
 * the solver was handed twice in one step was two contacts of the solve:
 * it reports their sum (the bodies received both), here and in the
 * point's fields.  Valid until the next step.  Errors: RF_ERR_NULL,
 * RF_ERR_RANGE (the point was not in the last cone step). */
RF_API rf_status rf_bullet_point_impulse(const rf_plugin *p,
                                         const btManifoldPoint *point,
                                         double out[6]);

/* What a manifold point carries from one cone step to the next, beyond
 * the normal and sliding impulses Bullet keeps on the point itself.  It
 * hangs on the point (btManifoldPoint::m_userPersistentData, released
 * through gContactDestroyedCallback when Bullet drops the point; an
 * application callback installed before attaching is still called for
 * its own data), so it follows the point's identity: a stock-mode step
 * leaves it alone, a sleeping island keeps it, and a new point, or a
 * manifold allocated at a freed address, starts from zero.  reset() on
 * the solver does not clear it (stock's reset leaves the points' impulses
 * too). */
typedef struct rf_bullet_carried {
    double indentation; /* permanent indentation of a yielding point (the
                           object's rf_bullet_set_yield), m: taken off the
                           point's penetration */
    double spin;        /* spin impulse tn of the last cone step that
                           solved the point, N m s (the next warm start) */
    double roll[3];     /* its rolling impulse tu t1 + tw t2, world frame,
                           N m s (the next warm start, re-expressed in the
                           next step's tangent frame) */
} rf_bullet_carried;

/* What point carries (all 0 for a point that carries nothing yet: it
 * starts from zero).  Errors: RF_ERR_NULL; RF_ERR_STATE (the point
 * carries the application's own m_userPersistentData, so the plugin
 * keeps nothing on it; out is zeroed). */
RF_API rf_status rf_bullet_point_carried(const rf_plugin *p,
                                         const btManifoldPoint *point,
                                         rf_bullet_carried *out);

/* Materials (docs/bullet.md, "Materials"): the rules of the INI file at
 * path match the world's bodies (static / dynamic / kinematic, shape
 * kind, size and mass ranges, user index) and give them rolling and
 * spinning friction (a length, m, or a multiple of the shape's rolling
 * radius), sliding friction and restitution, each where the application
 * left Bullet's default (friction 0.5, the others 0) unless the rule says
 * override = yes.  Bullet combines the bodies' values into each contact
 * as it always does (gCalculateCombined*Callback), and the stock solver
 * sees them too.  Every body the world has or gains is given them at the
 * start of its next step; rf_bullet_detach, or another file, puts back
 * what the bodies had.  The file is read whole first: on any error
 * nothing changes, and the message names the line and the key.  Errors:
 * RF_ERR_NULL, RF_ERR_STATE (the world is gone), RF_ERR_IO (unreadable),
 * RF_ERR_INVALID (syntax, an unknown key, a negative, non-finite or
 * malformed value, a rule that sets nothing, two rules of one name),
 * RF_ERR_NOMEM. */
RF_API rf_status rf_bullet_load_materials(rf_plugin *p, const char *path,
                                          rf_error *err);

/* ROLLFRIC_ROLLING_FRICTION and ROLLFRIC_SPINNING_FRICTION (lengths, m,
 * >= 0) into p's defaults (rf_bullet_set_default_friction), and
 * ROLLFRIC_MATERIALS (a file, rf_bullet_load_materials); unset variables
 * leave them.  The LD_PRELOAD library calls it for every world it
 * attaches to.  Errors: RF_ERR_NULL, RF_ERR_INVALID, RF_ERR_IO (the
 * variable and what was wrong are named; nothing changes). */
RF_API rf_status rf_bullet_apply_env(rf_plugin *p, rf_error *err);

/* One line (NUL-terminated, cut to size bytes) saying what p does: the
 * world's class, the solver the cone replaced, the solver, model,
 * iteration budget, tolerance and threads, and the default rolling and
 * spinning friction when set.  The LD_PRELOAD library prints it at
 * attach.  Errors: RF_ERR_NULL, RF_ERR_INVALID (size 0). */
RF_API rf_status rf_bullet_describe(const rf_plugin *p, char *buf, size_t size);

/* Read ROLLFRIC_CONVERGED (a switch; on: start from
 * rf_bullet_config_converged instead of what cfg holds), ROLLFRIC_SOLVER
 * (jacobi | gs | gs_colored | apgd | si), ROLLFRIC_MODEL (associated |
 * desaxce), ROLLFRIC_ITERATIONS (N: exactly N iterations unless
 * ROLLFRIC_TOLERANCE is also set, then at most N), ROLLFRIC_TOLERANCE and
 * ROLLFRIC_THREADS into cfg, on top of what cfg holds.  Unset variables leave
 * cfg alone.  Errors: RF_ERR_NULL, RF_ERR_INVALID (the variable and its bad
 * value are named). */
RF_API rf_status rf_bullet_config_from_env_sized(rf_config *cfg, size_t size,
                                                 rf_error *err);
inline rf_status rf_bullet_config_from_env(rf_config *cfg, rf_error *err)
{
    return rf_bullet_config_from_env_sized(cfg, sizeof(rf_config), err);
}

} /* extern "C" */

/* Attach the cone solver to world.  cfg NULL = rf_bullet_config_default
 * (max_iter may be RF_BULLET_WORLD_ITERATIONS).  The
 * world keeps its previous solver for rf_bullet_detach and for
 * RF_BULLET_STOCK mode.  Returns NULL on error (NULL world, a world that
 * already has rollfric attached, a btMultiBodyDynamicsWorld, invalid cfg,
 * precision mismatch, out of memory); the reason goes to err, or to
 * stderr when err is NULL.  A btMultiBodyDynamicsWorld (Featherstone, and
 * the soft and deformable multibody worlds built on it) is refused with
 * RF_ERR_STATE: it solves its islands through its own
 * btMultiBodyConstraintSolver, which a solver of another type does not
 * replace (btMultiBodyDynamicsWorld::setConstraintSolver keeps it), so
 * the cone solver would never run.  A btDiscreteDynamicsWorldMt attaches:
 * its constraintSolverMt (the solver it gives islands of 250 manifolds
 * and more) is set aside while attached, so that every island reaches the
 * cone solver through the world's solver pool, and put back by
 * rf_bullet_detach (RF_BULLET_STOCK: every island through the pool).  A
 * world whose solver is a btMLCPSolver or a btNNCGConstraintSolver (the
 * application chose accuracy) is attached in RF_BULLET_STOCK mode when
 * cfg keeps the world's iteration budget (max_iter =
 * RF_BULLET_WORLD_ITERATIONS): the cone solver at that budget does not
 * lift what MLCP lifts (docs/bullet.md); with a budget of its own (a
 * converged solve) it replaces it.  rf_bullet_describe says which. */
inline rf_plugin *rf_bullet_attach(btDiscreteDynamicsWorld *world,
                                   const rf_config *cfg = nullptr,
                                   rf_error *err = nullptr)
{
    return rf_bullet_attach_checked(world, cfg, sizeof(rf_config),
                                    (int)sizeof(btScalar), err);
}

#endif /* ROLLFRIC_ROLLFRIC_BULLET_H */
