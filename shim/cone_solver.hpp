// The btConstraintSolver that hands one step's contacts to the rollfric
// core.  Internal to the shim: applications use rollfric_bullet.h.
//
// Data flow of one step (DESIGN §2, §5):
//   prepareSolve   remember the mode for this step
//   solveGroup     (per island batch) collect bodies, manifolds, joints
//   allSolved      one rf_problem for everything collected: free
//                  velocities, one 6D contact per manifold point, one
//                  scalar row per joint row (getInfo1/getInfo2), warm
//                  start, rf_solve, write back velocities and impulses
// The stock solver the world had before is kept: RF_BULLET_STOCK mode
// forwards every call to it unchanged, and a step the cone solver cannot
// take (an input the core rejects) is handed to it whole, with a message.
#ifndef ROLLFRIC_SHIM_CONE_SOLVER_HPP
#define ROLLFRIC_SHIM_CONE_SOLVER_HPP

#include "materials.hpp"
#include "point_state.hpp"
#include "ptr_index.hpp"
#include "shim_util.hpp"
#include "thread_choice.hpp"
#include "rollfric/rollfric.h"
#include "rollfric/rollfric_bullet.h"

#include <BulletDynamics/Dynamics/btDiscreteDynamicsWorldMt.h>
#include <btBulletDynamicsCommon.h>

#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace rfshim {
class Recorder;
class BodyNames;

// A per-object force (cohesion, yield), N, and the identity of the object
// it was set for (ConeSolver::cohesion).
struct ObjectForce {
    double force;
    int proxy_id; // the object's broadphase proxy m_uniqueId, or kUnbound
    static constexpr int kUnbound = -1;

    // the proxy id of obj now (kUnbound: not in a world)
    static int id_of(const btCollisionObject *obj)
    {
        return proxy_id_of(obj); // kUnbound when in no world
    }
    // whether the entry was set for the object obj is now (live obj)
    bool same_object(const btCollisionObject *obj) const
    {
        const int id = id_of(obj);
        return proxy_id == kUnbound || id == kUnbound || id == proxy_id;
    }
};

// The offender a warning names (rf_bullet_warning_info).
struct Offender {
    const btCollisionObject *object = nullptr;
    const btPersistentManifold *manifold = nullptr;
    const btTypedConstraint *constraint = nullptr;
    int row = -1;
};

// Consecutive entries [first, first + count) of an array: one joint's rows
// in joint_warm_, or one manifold's contact slots.
struct WarmSpan {
    int first, count;
};

// One joint row as btTypedConstraint::getInfo2 fills it.  getInfo2 writes
// every per-row field at a stride of rowskip btScalars from the first
// row's (Bullet's btSolverConstraint layout), and some constraints write
// whole btVector3s into the Jacobian slots, so the four axes come first
// and aligned.
struct JointRowBuf {
    btVector3 lin1, ang1, lin2, ang2;
    btScalar rhs, cfm, lo, hi;
};

// The rows of one joint in this step's problem.
struct JointRows {
    btTypedConstraint *constraint;
    int first, count; // rows [first, first + count) of the problem
};

class ConeSolver final : public btConstraintSolver {
  public:
    ConeSolver(btDiscreteDynamicsWorld *world, btConstraintSolver *stock,
               bool owned_stock, const rf_config &cfg);
    ~ConeSolver() override;

    void prepareSolve(int num_bodies, int num_manifolds) override;
    btScalar solveGroup(btCollisionObject **bodies, int num_bodies,
                        btPersistentManifold **manifolds, int num_manifolds,
                        btTypedConstraint **constraints, int num_constraints,
                        const btContactSolverInfo &info, btIDebugDraw *draw,
                        btDispatcher *dispatcher) override;
    void allSolved(const btContactSolverInfo &info,
                   btIDebugDraw *draw) override;
    void reset() override;
    btConstraintSolverType getSolverType() const override;

    // the warning counters (rf_bullet_get_warning) and the callback
    rf_bullet_warning_info warnings[RF_BULLET_WARN_COUNT] = {};
    rf_bullet_warning_fn warning_fn = nullptr;
    void *warning_user = nullptr;

    bool ok() const
    {
        return problem_ != nullptr && carry_ != nullptr;
    }

    // The world is gone (deleted while attached): free what the world
    // would have freed (its previous solver, when it owned it) and never
    // touch it again.
    void world_deleted();

    btDiscreteDynamicsWorld *world;
    btConstraintSolver *stock;
    bool owned_stock;
    rf_config cfg;
    rf_bullet_mode mode = RF_BULLET_CONE;
    // attached in stock mode because the world's solver was chosen for
    // accuracy (btMLCPSolver, btNNCGConstraintSolver; rf_bullet_attach)
    bool accurate_stock = false;
    double max_recovery = RF_BULLET_DEFAULT_MAX_RECOVERY;
    // Rolling and spinning friction (m) for the points to which Bullet
    // gives none (rf_bullet_set_default_friction); 0: none.
    double default_rolling = 0.0, default_spinning = 0.0;
    // the materials file's rules (rf_bullet_load_materials), applied to
    // every body the world gains
    Materials materials;
    // the bodies' names (rf_bullet_record_name), for the warnings; owned
    // by the plugin
    const BodyNames *names = nullptr;
    int verbose = 0;
    rf_stats last{};
    rf_bullet_timing timing{};
    long steps = 0;

    // The 6D impulse of a point of the last cone step, or nullptr.
    const double *point_impulse(const btManifoldPoint *pt) const;
    // What a point carries to the next step (nullptr: nothing yet), and
    // how many points carry something.
    const PointState *point_state(const btManifoldPoint &pt) const
    {
        return point_states_.of(pt);
    }
    size_t carried_points() const
    {
        return point_states_.live();
    }
    // Take the carried states off the world's points (detach).
    void strip_point_states();

    // Cohesion forces (N) by object (rf_bullet_set_cohesion).  Set
    // rarely, read per point only while not empty.  An entry belongs to
    // one stay of the object in the world: the pointer alone could name a
    // new object built at a freed address (Bullet tells nobody when an
    // object is deleted), so the entry also holds the object's broadphase
    // proxy id (m_uniqueId, a fresh one for every addition to a
    // btDbvtBroadphase), bound when the entry is set or, for an object not
    // yet in the world, at the first cone step that finds it there.  Each
    // cone step drops the entries of objects no longer in the world and of
    // pointers whose proxy id changed (prune_object_forces).
    std::unordered_map<const btCollisionObject *, ObjectForce> cohesion;
    // Yield forces (N) by object (rf_bullet_set_yield), kept the same way.
    std::unordered_map<const btCollisionObject *, ObjectForce> yield;

  private:
    double step_start_ = 0; // wall time at the start of this step, s
    // this step's info.m_maxGyroscopicForce (dynamic_index reads it)
    btScalar max_gyroscopic_force_ = 0;
    bool cone_step(const btContactSolverInfo &info);
    // the stages of cone_step (bodies.cpp, contacts.cpp, joints.cpp), and
    // the problem's build and solve
    void gather_bodies(btScalar h);
    void gather_contacts(const btContactSolverInfo &info);
    void gather_joints(const btContactSolverInfo &info);
    // The problem begun with the gathered bodies and room for `slots`
    // contacts, whose columns (cols_) add_points then writes; false, with
    // the core's message in err, when the core refuses it.
    bool begin_problem(size_t slots, rf_error *err);
    rf_status commit_contacts(rf_error *err);
    bool solve_problem(const btContactSolverInfo &info, rf_stats *out,
                       rf_config *step_cfg_out);
    // cfg with this step's thread count and the world's iteration budget
    // where cfg asks for it
    rf_config step_config(const btContactSolverInfo &info);
    // the split impulse's position correction after the solve
    void split_step(const btContactSolverInfo &info, const rf_config &step_cfg);
    // Bodies the step cannot take (non-finite state, negative inverse
    // mass or inertia): held out of the problem, their contacts and joints
    // skipped, written back with a finite velocity (held_).
    void hold_body(btRigidBody *rb, const btVector3 &v, const btVector3 &w,
                   const char *why);
    // hold_body for a dynamic body whose inverse mass is negative or not
    // finite (Kind::kBad), unless already held this step.
    void hold_bad_mass(btRigidBody *rb);
    // skip_point counts the point as skipped and clears its impulses;
    // clear_point only clears them (and warns why, if not nullptr): the
    // parallel build counts its skipped slots afterwards.
    void skip_point(btManifoldPoint &cp, const btPersistentManifold *m,
                    const char *why);
    void clear_point(btManifoldPoint &cp, const btPersistentManifold *m,
                     const char *why);
    void release_held(bool write);
    // a step the cone solver does not take: the bodies' companion ids
    // and the held bodies put back, nothing written (the stock solver
    // steps the world)
    void give_up_step();

  public:
    // a recording write error (rf_plugin's recorder), as a warning
    void warn_recording(const char *msg)
    {
        warn(RF_BULLET_WARN_RECORDING, msg);
    }

  private:
    // the last step's problem dropped (cone_step's start)
    void clear_problem();
    // a body whose angular factor has no cone counterpart (dynamic_index),
    // found in this step: the step is refused
    const btRigidBody *refused_body_ = nullptr;
    void stock_step(const btContactSolverInfo &info, btIDebugDraw *draw);
    int dynamic_index(btRigidBody *rb, btScalar h); // or kHeld
    void body_desc_of(btRigidBody *rb, btScalar h, rf_body_desc &d);
    void free_velocity(btRigidBody *rb, btScalar h, rf_body_desc &d);
    int side_index(const btCollisionObject *obj, btScalar h);
    // the point's anisotropic friction into c's frame and axis[4] (s_u,
    // s_w, r_u, r_w); rolling_anisotropy and rolling_ellipse return whether
    // the rolling part fixed the frame
    void anisotropy(const btCollisionObject *o0, const btCollisionObject *o1,
                    const btPersistentManifold *m, bool user_dirs,
                    rf_contact_desc &c, double axis[4]);
    bool rolling_anisotropy(const btCollisionObject *o0,
                            const btCollisionObject *o1, rf_contact_desc &c,
                            double roll[2]);
    bool rolling_ellipse(const btCollisionObject *o0,
                         const btCollisionObject *o1, rf_contact_desc &c,
                         double roll[2]);
    void sliding_frame(const btCollisionObject *o0, const btCollisionObject *o1,
                       const btPersistentManifold *m, bool rolled_frame,
                       rf_contact_desc &c, double slide[2]);
    bool sliding_anisotropy(const btCollisionObject *o0,
                            const btCollisionObject *o1, rf_contact_desc &c,
                            double scale[2]);
    // Point j of manifold m into contact slot `slot` of the problem's
    // columns (cols_), con_point_, con_manifold_, con_plastic_, con_state_,
    // con_split_, con_cfm0_ and gamma_ (sized by the caller), and the
    // contact's frame into the point
    // (unless its manifold is listed twice: write_points writes those).
    // Runs on several threads at once for different slots when no
    // manifold is listed twice: it writes only its slot and its own
    // point, and reports through the locked warn().
    enum SlotState : unsigned char { kAdded, kSkipped, kBeyond };
    SlotState add_point(btPersistentManifold *m, int j, int a, int b,
                        const btContactSolverInfo &info, size_t slot);
    double warm_factor(const btContactSolverInfo &info) const;
    // Whether joint rows start from last step's impulses: not for
    // RF_SOLVER_SI, which starts them at 0 as stock's convertJoint does,
    // so that at Bullet's budget its rows are stock's iterations
    // (test_chain_rows_as_stock).  From the eleventh to the sixteenth round
    // SI started them warm (times m_warmstartingFactor): cold rows under
    // warm contacts had made SI's energy guard scale the jointed bodies'
    // contacts nearly every step, and ragdoll piles crept awake.  The guard
    // no longer scales those contacts (plugin/solver_si.c, scale_excess),
    // and the warm rows drove limbs into their own ragdoll's other limbs
    // (last step's pull applied before the contacts are visited): the
    // quick ragdolls' deepest point, median of copies perturbed by 1e-3,
    // 0.374 m warm (twelve copies), 0.2985 cold (eight), stock 0.299
    // (twelve) and 0.304 (the same eight).  BenchmarkDemo's 136
    // ragdolls: the main run asleep at step 736 cold (stock 829; warm
    // awake after 1,260 steps); of sixteen perturbed copies 10 asleep
    // cold, 11 stock, 15 warm.  The solvers that run to a tolerance keep
    // the whole start, which only saves them iterations.
    bool joint_rows_warm() const
    {
        return cfg.warm_start && cfg.solver != RF_SOLVER_SI;
    }
    // add_point's parts (contacts.cpp): the coefficients, cohesion, yield
    // and indentation; the normal bias and compliance (returns the split
    // impulse's bias); the compliance and ERP; the warm start
    double point_coefficients(const btManifoldPoint &cp,
                              const btPersistentManifold *m, double h,
                              const PointState *st, rf_contact_desc &c,
                              double *plastic);
    double normal_bias(const btManifoldPoint &cp, const btPersistentManifold *m,
                       const btContactSolverInfo &info, const btVector3 &ra,
                       const btVector3 &rb, double e_rest, double plastic,
                       rf_contact_desc &c);
    void point_compliance(const btManifoldPoint &cp,
                          const btPersistentManifold *m,
                          const btContactSolverInfo &info, rf_contact_desc &c,
                          double *erp, bool *spring);
    // the sliding rows' bias at a friction anchor (contacts.cpp)
    static void anchor_bias(const btManifoldPoint &cp,
                            const btContactSolverInfo &info,
                            rf_contact_desc &c);
    void warm_start(const btManifoldPoint &cp, const rf_contact_desc &c,
                    const btContactSolverInfo &info, const PointState *st,
                    double g[6]) const;
    // point_first_ for manifold_order_: the slots, one per point
    size_t count_slots();
    // the manifolds of manifold_order_ into the contact slots (parallel
    // over manifolds), then the slots compacted
    void add_points(const btContactSolverInfo &info, size_t total);
    void move_columns(size_t dst, size_t src);
    void compact_contacts(size_t total);
    void resize_contacts(size_t n);
    // this step's contact count (after add_points)
    int contact_count() const
    {
        return (int)con_point_.size();
    }
    // threads for the shim's own loops: this step's (choose_threads)
    int build_threads() const;
    // This step's thread count (step_threads_): the configuration's, or
    // for rf_config.threads == 0 thread_choice_'s (thread_choice.hpp).
    void choose_threads();
    int step_threads_ = 1;
    bool adaptive_threads_ = false; // this step's count is thread_choice_'s
    ThreadChoice thread_choice_{(int)kParallelPoints};
    // cohesion and yield: drop the entries of objects that left the world
    // or are not the object they were set for, bind the unbound; the
    // pair's force
    void prune_object_forces();
    double pair_cohesion(const btCollisionObject *o0,
                         const btCollisionObject *o1) const;
    double pair_yield(const btCollisionObject *o0,
                      const btCollisionObject *o1) const;
    // the carried state of the step's points after the solve
    const double *plastic_flow(const btContactSolverInfo &info);
    int carry_point_state(int i, const double *flow);
    void attach_point_states();
    void add_joint(btTypedConstraint *c, const btContactSolverInfo &info);
    bool fetch_joint_rows(btTypedConstraint *c, int n,
                          const btContactSolverInfo &info);
    rf_row_desc joint_row(btTypedConstraint *c, int j, int a, int b);
    void write_back(const btContactSolverInfo &info);
    // write_back's parts: bodies, points (and their carried state), joints
    void write_bodies(int threads);
    void write_points(const btContactSolverInfo &info, int threads);
    void write_joints(const btContactSolverInfo &info);
    // A warning of one kind (rf_bullet_warning) with its offender:
    // counted, kept as the kind's last, and printed (the first of each
    // kind) or handed to the application's callback.  May be called from
    // several threads (one lock).
    void warn(rf_bullet_warning kind, const char *what, Offender who = {});
    // the offender's bodies for a warning's message
    std::string describe(const btCollisionObject *o) const;
    std::string describe(const Offender &who) const;
    void verbose_line(double seconds);

    rf_bullet_mode step_mode_ = RF_BULLET_CONE;
    // what the core carries from step to step (rf_solve_carried: APGD's
    // and Jacobi's step constants)
    rf_carry *carry_ = nullptr;
    rf_problem *problem_ = nullptr;

    // collected by solveGroup for this step, under collect_mutex_: a
    // btDiscreteDynamicsWorldMt in a Bullet built with BT_THREADSAFE and a
    // task scheduler hands islands to solveGroup from several threads at
    // once (Debian's Bullet is built without it: one at a time)
    std::mutex collect_mutex_;
    std::vector<btCollisionObject *> in_bodies_;
    std::vector<btPersistentManifold *> in_manifolds_;
    std::vector<btTypedConstraint *> in_constraints_;
    btDispatcher *dispatcher_ = nullptr;

    // Memory order of the step's problem (order_bodies, order_manifolds):
    // bodies by their place in the world's object array, contacts by
    // their first dynamic body.
    void order_bodies();
    struct ManifoldSides {
        btPersistentManifold *m;
        int a, b;  // side indices (RF_WORLD or a body)
        int first; // the first dynamic side: the sort key
        int n;     // its point count (read once: each read is a cache miss)
    };
    std::vector<btCollisionObject *> body_slots_;
    std::vector<ManifoldSides> manifold_sides_, manifold_order_;
    std::vector<int> order_count_;
    // contact slots: manifold_order_[k]'s points start at point_first_[k]
    // (one slot per manifold point); slot_state_ says what became of each
    std::vector<size_t> point_first_;
    std::vector<unsigned char> slot_state_;

    // the problem of this step
    std::vector<btRigidBody *> body_rb_; // nullptr for non-rigid objects
    std::vector<rf_body_desc> body_desc_;
    std::vector<unsigned char> body_dynamic_;
    PtrIndex<int> fixed_index_; // kinematic objects -> body index
    // The problem's contact arrays (rf_problem_contact_columns), which
    // add_point writes in place: no description per contact is written
    // and read back (a 3 MB stream a step on the full pyramid).  Valid
    // from begin_problem to the next step's.
    rf_contact_columns cols_{};
    std::vector<btManifoldPoint *> con_point_;
    // the normal's compliance (add_point sets no other component: the
    // point's stiffness and damping, or its contact CFM), added to the
    // problem after the commit when contacts_compliant_
    std::vector<double> con_cfm0_, cfm_all_;
    // the axis scales (s_u, s_w, r_u, r_w) of each contact (all 1 but
    // with anisotropic friction), given to the problem after the commit
    // when contacts_scaled_ (rf_problem_set_sliding_scales,
    // _rolling_scales, from axis_tmp_)
    std::vector<double> con_axis_, axis_tmp_;
    std::vector<const btPersistentManifold *> con_manifold_;
    std::vector<double> con_plastic_; // indentation carried in, m
    // the point's carried state when the step gathered it (nullptr: none
    // yet); kept so that write_points need not read the point again
    std::vector<PointState *> con_state_;
    // write_points: the later listings of a point listed twice (their
    // impulses folded into the first, fold_repeated_points)
    std::vector<unsigned char> point_repeat_;
    void fold_repeated_points(bool with_flow);
    void index_points() const;      // point_index_ afresh
    std::vector<double> con_split_; // split impulse bias (< 0) or 0, m/s
    std::vector<double> split_v_, split_w_; // pseudo-velocities per body
    std::vector<double> gamma_;
    std::vector<double> vel_v_, vel_w_;
    // the largest iteration count a joint of the step asked for (0: none)
    int joint_iterations_ = 0;
    // the damping the last fetched joint's getInfo2 left in its info2
    btScalar joint_damping_ = 1;
    std::vector<JointRowBuf> row_buf_;
    std::vector<rf_row_desc> row_desc_;
    std::vector<JointRows> joints_;
    std::vector<double> row_gamma_; // warm start of the rows, then appended

    // held bodies of this step and the velocity they get (finite: the free
    // velocity where it is finite, else 0)
    struct Held {
        btRigidBody *rb;
        btVector3 v, w;
    };
    std::vector<Held> held_;
    std::vector<btRigidBody *> held_kinematic_; // skipped, nothing written
    int skipped_contacts_ = 0, skipped_rows_ = 0;

    // The per-step indexes below are PtrIndex tables, not
    // std::unordered_map: they are refilled every step with one key per
    // manifold or joint, and a node allocation per key cost more than the
    // rest of the bookkeeping (ptr_index.hpp).

    // warm start of joint rows: last step's impulses by constraint (the
    // pointer is a key only, never dereferenced; a row count that changed
    // starts from 0)
    PtrIndex<WarmSpan> joint_warm_index_, joint_warm_index_next_;
    std::vector<double> joint_warm_, joint_warm_next_;

    // What points carry from step to step beyond Bullet's own fields: the
    // spin and rolling warm start and the plastic indentation, hung on the
    // point itself (point_state.hpp).  need_state_: the points of this
    // step that have something to carry and no state yet.
    PointStatePool point_states_;
    std::vector<unsigned char> need_state_;
    std::vector<double> plastic_flow_; // rf_problem_plastic_flow's
    // gather_contacts' test for a manifold listed twice (then its points
    // are added and written on one thread): per dispatcher index
    // (m_index1a) the step that last saw it
    std::vector<unsigned> manifold_stamp_;
    unsigned gather_stamp_ = 0;
    bool manifold_repeated_ = false;
    // some contact add_points built this step has a compliance
    // (solve_problem adds it after the commit)
    bool contacts_compliant_ = false;
    // some contact has axis scales other than 1
    bool contacts_scaled_ = false;
    // commit_contacts' per-thread results
    struct RangeStatus {
        rf_status st;
        rf_error err;
    };
    std::vector<RangeStatus> range_status_;

    // The last cone step's points for point_impulse: con_point_[i] has
    // impulse gamma_[6 i ..].  Most steps nobody asks, so the index from
    // point to i is built on the first point_impulse call after a cone
    // step, not by every step.
    bool points_valid_ = false; // con_point_ and gamma_ are the last step's
    mutable bool point_index_stale_ = false; // point_index_ not yet rebuilt
    mutable PtrIndex<int> point_index_;

    // verbose: one line per second of wall time
    double verbose_t0_ = -1.0;
    long verbose_steps_ = 0;
    double verbose_seconds_ = 0.0;
    bool callback_reported_ = false; // the replaced callback, said once
};

// Index returned for a held body (not RF_WORLD = -1, not an index), and
// the companion id that marks one during the step.  Not -2: Bullet gives
// every static and kinematic object companion id -2 each step
// (btSimulationIslandManager::storeIslandActivationState), and -1 to the
// others.
constexpr int kHeld = -3;

// What the world holds while attached: a forwarding solver that the world
// owns (allocated with btAlignedAlloc, as the world frees it), so that a
// world deleted while attached destroys it and the plugin hears of it
// (rf_plugin::world_gone) instead of keeping a dangling world pointer.
// The cone solver itself stays the plugin's.
class WorldSolver final : public btConstraintSolver {
  public:
    explicit WorldSolver(rf_plugin *p) : plugin(p)
    {
    }
    ~WorldSolver() override;

    void prepareSolve(int num_bodies, int num_manifolds) override;
    btScalar solveGroup(btCollisionObject **bodies, int num_bodies,
                        btPersistentManifold **manifolds, int num_manifolds,
                        btTypedConstraint **constraints, int num_constraints,
                        const btContactSolverInfo &info, btIDebugDraw *draw,
                        btDispatcher *dispatcher) override;
    void allSolved(const btContactSolverInfo &info,
                   btIDebugDraw *draw) override;
    void reset() override;
    btConstraintSolverType getSolverType() const override;

    rf_plugin *plugin; // nullptr once detached
};

// Member access to btDiscreteDynamicsWorld's solver pointer and ownership
// flag: setConstraintSolver() would free a solver the world owns, which
// detach must be able to restore.  Pointers to protected members named
// through a derived class are legal C++.
struct WorldMtAccess : btDiscreteDynamicsWorldMt {
    // btDiscreteDynamicsWorldMt's solver for large islands (no setter)
    static btConstraintSolver *btDiscreteDynamicsWorldMt::*solver_mt_member()
    {
        return &WorldMtAccess::m_constraintSolverMt;
    }
};
struct WorldAccess : btDiscreteDynamicsWorld {
    static btConstraintSolver *btDiscreteDynamicsWorld::*solver_member()
    {
        return &WorldAccess::m_constraintSolver;
    }
    static bool btDiscreteDynamicsWorld::*owns_member()
    {
        return &WorldAccess::m_ownsConstraintSolver;
    }
};

} // namespace rfshim

struct rf_plugin {
    rfshim::ConeSolver *solver;
    rfshim::WorldSolver *installed; // what the world holds; nullptr once
                                    // the world destroyed it
    bool world_gone;                // the world was deleted while attached
    // a btDiscreteDynamicsWorldMt's constraintSolverMt, set aside while
    // attached (the world then gives every island to its solver pool, the
    // plugin's solver) and put back by rf_bullet_detach
    btConstraintSolver *solver_mt = nullptr;
    rfshim::Recorder *recorder = nullptr; // rf_bullet_record_start's
    rfshim::BodyNames *names = nullptr;   // rf_bullet_record_name's (owned)
};

#endif // ROLLFRIC_SHIM_CONE_SOLVER_HPP
