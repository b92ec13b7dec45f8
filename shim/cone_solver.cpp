// ConeSolver: Bullet in, rf_problem out, impulses back (cone_solver.hpp).
// No solver maths here: the core solves; the shim only translates.  This
// file holds the solver's entry points (prepareSolve, solveGroup,
// allSolved), the step itself (cone_step: bodies, contacts, joints, solve,
// write-back, in that order), the thread choice and the warnings; the
// stages are bodies.cpp, contacts.cpp, joints.cpp and write_back.cpp, and
// what points carry between steps is point_state.cpp.
#include "cone_solver.hpp"

#include "recorder.hpp"
#include "shim_util.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <new>
#ifdef _OPENMP
#include <omp.h>
#endif

namespace rfshim {

ConeSolver::ConeSolver(btDiscreteDynamicsWorld *w, btConstraintSolver *s,
                       bool owned, const rf_config &c)
    : world(w), stock(s), owned_stock(owned), cfg(c)
{
    if (rf_problem_create(&problem_, nullptr) != RF_OK) {
        problem_ = nullptr;
    }
    if (rf_carry_create(&carry_, nullptr) != RF_OK) {
        carry_ = nullptr;
    }
}

ConeSolver::~ConeSolver()
{
    rf_problem_destroy(problem_);
    rf_carry_destroy(carry_);
}

void ConeSolver::world_deleted()
{
    // the world's base (btCollisionWorld) is still whole: its destructor
    // clears the remaining manifolds after this, and their points must
    // no longer carry the pool's states by then
    strip_point_states();
    if (owned_stock && stock != nullptr) {
        stock->~btConstraintSolver();
        btAlignedFree(stock);
    }
    stock = nullptr;
    owned_stock = false;
    world = nullptr;
}

WorldSolver::~WorldSolver()
{
    if (plugin != nullptr) { // the world is being deleted while attached
        // its objects are still whole: the recording gets its last frame
        rf_bullet_record_stop(plugin, nullptr);
        plugin->installed = nullptr;
        plugin->world_gone = true;
        plugin->solver->world_deleted();
    }
}

void WorldSolver::prepareSolve(int num_bodies, int num_manifolds)
{
    plugin->solver->prepareSolve(num_bodies, num_manifolds);
}

btScalar WorldSolver::solveGroup(btCollisionObject **bodies, int num_bodies,
                                 btPersistentManifold **manifolds,
                                 int num_manifolds,
                                 btTypedConstraint **constraints,
                                 int num_constraints,
                                 const btContactSolverInfo &info,
                                 btIDebugDraw *draw, btDispatcher *dispatcher)
{
    return plugin->solver->solveGroup(bodies, num_bodies, manifolds,
                                      num_manifolds, constraints,
                                      num_constraints, info, draw, dispatcher);
}

void WorldSolver::allSolved(const btContactSolverInfo &info, btIDebugDraw *draw)
{
    plugin->solver->allSolved(info, draw);
    if (plugin->recorder != nullptr &&
        !plugin->recorder->after_step(plugin, (double)info.m_timeStep)) {
        char msg[300];
        std::snprintf(msg, sizeof msg, "recording stopped: %s",
                      plugin->recorder->last_error());
        delete plugin->recorder; // closes what was written
        plugin->recorder = nullptr;
        plugin->solver->warn_recording(msg);
    }
}

void WorldSolver::reset()
{
    plugin->solver->reset();
}

btConstraintSolverType WorldSolver::getSolverType() const
{
    return plugin->solver->getSolverType();
}

btConstraintSolverType ConeSolver::getSolverType() const
{
    return stock ? stock->getSolverType() : BT_SEQUENTIAL_IMPULSE_SOLVER;
}

void ConeSolver::reset()
{
    if (stock) {
        stock->reset();
    }
    points_valid_ = false;
    rf_carry_reset(carry_);
    joint_warm_index_.clear();
    joint_warm_.clear();
}

void ConeSolver::prepareSolve(int num_bodies, int num_manifolds)
{
    step_mode_ = mode;
    ++steps;
    // the bodies added since the last step get their materials, in either
    // mode (after the collision pass: their points are recombined)
    try {
        materials.apply(world);
    } catch (const std::bad_alloc &) {
        warn(RF_BULLET_WARN_FALLBACK,
             "out of memory giving new bodies their materials: they keep "
             "their own values this step");
    }
    if (step_mode_ == RF_BULLET_STOCK) {
        // the last cone step's point impulses do not describe this step
        points_valid_ = false;
        stock->prepareSolve(num_bodies, num_manifolds);
        return;
    }
    in_bodies_.clear();
    in_manifolds_.clear();
    in_constraints_.clear();
    dispatcher_ = nullptr;
}

// The default rolling and spinning friction (rf_bullet_set_default_
// friction) written into the points of a batch that Bullet gives none,
// for the previous solver's solve of that batch, and taken back after
// it: stock then solves with the coefficients the cone gets (an A/B on
// one world compares the two laws, not two sets of coefficients), and
// the points keep what Bullet gave them.  Nothing is touched (and
// nothing allocated) while both defaults are 0.
class StockDefaults {
  public:
    StockDefaults(double rolling, double spinning,
                  btPersistentManifold **manifolds, int n)
    {
        if (rolling == 0.0 && spinning == 0.0) {
            return;
        }
        for (int k = 0; k < n; ++k) {
            btPersistentManifold *m = manifolds[k];
            for (int j = 0; j < m->getNumContacts(); ++j) {
                btManifoldPoint &cp = m->getContactPoint(j);
                if (rolling != 0.0 && cp.m_combinedRollingFriction == 0) {
                    cp.m_combinedRollingFriction = (btScalar)rolling;
                    rolling_.push_back(&cp);
                }
                if (spinning != 0.0 && cp.m_combinedSpinningFriction == 0) {
                    cp.m_combinedSpinningFriction = (btScalar)spinning;
                    spinning_.push_back(&cp);
                }
            }
        }
    }
    ~StockDefaults()
    {
        for (btManifoldPoint *cp : rolling_) {
            cp->m_combinedRollingFriction = 0;
        }
        for (btManifoldPoint *cp : spinning_) {
            cp->m_combinedSpinningFriction = 0;
        }
    }
    StockDefaults(const StockDefaults &) = delete;
    StockDefaults &operator=(const StockDefaults &) = delete;

  private:
    std::vector<btManifoldPoint *> rolling_, spinning_;
};

btScalar ConeSolver::solveGroup(btCollisionObject **bodies, int num_bodies,
                                btPersistentManifold **manifolds,
                                int num_manifolds,
                                btTypedConstraint **constraints,
                                int num_constraints,
                                const btContactSolverInfo &info,
                                btIDebugDraw *draw, btDispatcher *dispatcher)
{
    if (step_mode_ == RF_BULLET_STOCK) {
        StockDefaults defaults(default_rolling, default_spinning, manifolds,
                               num_manifolds);
        return stock->solveGroup(bodies, num_bodies, manifolds, num_manifolds,
                                 constraints, num_constraints, info, draw,
                                 dispatcher);
    }
    // Collect only: the whole step is one problem, solved in allSolved
    // (the world calls it once, after the last batch, before it
    // integrates positions).
    std::lock_guard<std::mutex> lock(collect_mutex_);
    in_bodies_.insert(in_bodies_.end(), bodies, bodies + num_bodies);
    in_manifolds_.insert(in_manifolds_.end(), manifolds,
                         manifolds + num_manifolds);
    in_constraints_.insert(in_constraints_.end(), constraints,
                           constraints + num_constraints);
    dispatcher_ = dispatcher;
    return 0;
}

void ConeSolver::allSolved(const btContactSolverInfo &info, btIDebugDraw *draw)
{
    if (step_mode_ == RF_BULLET_STOCK) {
        stock->allSolved(info, draw);
        return;
    }
    const double t0 = wall_now();
    step_start_ = t0;
    timing = rf_bullet_timing{};
    choose_threads();
    bool done = false;
    if (problem_ == nullptr) {
        warn(RF_BULLET_WARN_FALLBACK, "out of memory creating the problem; "
                                      "the previous solver steps the world");
    } else {
        done = cone_step(info);
    }
    if (!done) {
        stock_step(info, draw);
    }
    last.seconds = wall_now() - t0;
    if (done) {
        timing.total = last.seconds;
        timing.write_back = timing.total - timing.build - timing.solve;
        timing.threads = step_threads_;
        // items: the contacts and the joint rows
        if (adaptive_threads_) {
            thread_choice_.learn(last.seconds, last.rows - 5 * last.contacts);
        }
    } else {
        timing = rf_bullet_timing{};
    }
    if (verbose) {
        verbose_line(last.seconds);
    }
    in_bodies_.clear();
    in_manifolds_.clear();
    in_constraints_.clear();
}

// The previous solver takes the whole step as one batch.
void ConeSolver::stock_step(const btContactSolverInfo &info, btIDebugDraw *draw)
{
    stock->prepareSolve((int)in_bodies_.size(), (int)in_manifolds_.size());
    if (!in_bodies_.empty() || !in_manifolds_.empty() ||
        !in_constraints_.empty()) {
        StockDefaults defaults(default_rolling, default_spinning,
                               in_manifolds_.data(), (int)in_manifolds_.size());
        stock->solveGroup(in_bodies_.data(), (int)in_bodies_.size(),
                          in_manifolds_.data(), (int)in_manifolds_.size(),
                          in_constraints_.data(), (int)in_constraints_.size(),
                          info, draw, dispatcher_);
    }
    stock->allSolved(info, draw);
    last = rf_stats{};
    points_valid_ = false;
}

// "body 0x... (SPHERE, user index 3, 'ball')": what an application can
// find a body by (the name where it gave one through
// rf_bullet_record_name, the user index where it set one).
std::string ConeSolver::describe(const btCollisionObject *o) const
{
    char buf[160];
    const btCollisionShape *shape = o->getCollisionShape();
    int n = std::snprintf(
        buf, sizeof buf, "%s %p (%s",
        btRigidBody::upcast(o) != nullptr && !o->isStaticOrKinematicObject()
            ? "body"
            : "object",
        (const void *)o, shape != nullptr ? shape->getName() : "no shape");
    if (o->getUserIndex() != -1 && n < (int)sizeof buf) {
        n += std::snprintf(buf + n, sizeof buf - (size_t)n, ", user index %d",
                           o->getUserIndex());
    }
    const char *name = names != nullptr ? names->of(o) : nullptr;
    if (name != nullptr && n < (int)sizeof buf) {
        n += std::snprintf(buf + n, sizeof buf - (size_t)n, ", '%s'", name);
    }
    return std::string(buf) + ")";
}

// The offender's bodies, as describe() gives them ("" when it names none).
std::string ConeSolver::describe(const Offender &who) const
{
    if (who.object != nullptr) {
        return describe(who.object);
    }
    if (who.manifold != nullptr) {
        return "between " + describe(who.manifold->getBody0()) + " and " +
               describe(who.manifold->getBody1());
    }
    if (who.constraint != nullptr) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "joint %p row %d",
                      (const void *)who.constraint, who.row);
        return std::string(buf) + " between " +
               describe(&who.constraint->getRigidBodyA()) + " and " +
               describe(&who.constraint->getRigidBodyB());
    }
    return "";
}

void ConeSolver::warn(rf_bullet_warning kind, const char *what, Offender who)
{
#pragma omp critical(rfshim_report)
    {
        rf_bullet_warning_info &w = warnings[kind];
        ++w.count;
        w.step = steps;
        w.object = who.object;
        w.manifold = who.manifold;
        w.constraint = who.constraint;
        w.row = who.row;
        // the reason first, then whom: a cut message keeps the reason
        const std::string whom = describe(who);
        std::snprintf(w.message, sizeof w.message, "%s%s%s", what,
                      whom.empty() ? "" : ": ", whom.c_str());
        if (warning_fn != nullptr) {
            warning_fn(warning_user, kind, &w);
        } else if (w.count == 1) {
            std::fprintf(stderr,
                         "rollfric: %s (further ones of this kind are "
                         "counted: rf_bullet_get_warning)\n",
                         w.message);
        }
    }
}

void ConeSolver::verbose_line(double seconds)
{
    double now = wall_now();
    const bool first = verbose_t0_ < 0.0;
    ++verbose_steps_;
    verbose_seconds_ += seconds;
    // the first step, then once per second of wall time
    if (first || now - verbose_t0_ >= 1.0) {
        std::fprintf(stderr,
                     "rollfric: %ld steps, %d contacts, %d joint rows, %d "
                     "iterations, ",
                     verbose_steps_, last.contacts,
                     last.rows - 6 * last.contacts, last.iterations);
        if (std::isnan(last.residual)) {
            std::fprintf(stderr, "residual not measured");
        } else {
            std::fprintf(stderr, "residual %.2e", last.residual);
        }
        std::fprintf(stderr, ", %.3f ms/step",
                     1e3 * verbose_seconds_ / verbose_steps_);
        if (last.energy_scale < 1.0) {
            std::fprintf(stderr, ", impulses scaled by %.3g (energy check)",
                         last.energy_scale);
        }
        if (last.skipped_bodies + last.skipped_contacts + last.skipped_rows) {
            std::fprintf(stderr,
                         ", skipped (non-finite or invalid): %d bodies, %d "
                         "contacts, %d joint rows",
                         last.skipped_bodies, last.skipped_contacts,
                         last.skipped_rows);
        }
        std::fputc('\n', stderr);
        verbose_t0_ = now;
        verbose_steps_ = 0;
        verbose_seconds_ = 0.0;
    }
}

void ConeSolver::strip_point_states()
{
    if (world != nullptr) {
        point_states_.strip(world->getDispatcher());
    }
}

int ConeSolver::build_threads() const
{
    return step_threads_;
}

void ConeSolver::choose_threads()
{
#ifdef _OPENMP
    const int team = cfg.threads > 0 ? cfg.threads : omp_get_max_threads();
#else
    const int team = 1;
#endif
    adaptive_threads_ = cfg.threads <= 0 && team > 1;
    // crowded: fewer processors free than the team's threads (the other
    // tasks ready to run, thread_choice.hpp, on this process's processors)
    const auto crowded = [team] {
        const int others = runnable_others();
#ifdef _OPENMP
        const int procs = omp_get_num_procs();
#else
        const int procs = 1;
#endif
        return others >= 0 && others + team > procs;
    };
    step_threads_ =
        adaptive_threads_ ? thread_choice_.choose(team, crowded) : team;
}

// The configuration of this step's solve: the application's, on this
// step's thread count, with the world's iteration budget where it asks
// for it (the step constants are carried by the core: rf_solve_carried).
rf_config ConeSolver::step_config(const btContactSolverInfo &info)
{
    rf_config c = cfg;
    c.threads = step_threads_;
    if (c.max_iter == RF_BULLET_WORLD_ITERATIONS) {
        // the application's own budget (btContactSolverInfo, 10 by
        // default, BenchmarkDemo's 5)
        c.max_iter = info.m_numIterations > 0 ? info.m_numIterations : 1;
        // a joint's own count raises it, as stock's maxIterations
        c.max_iter = std::max(c.max_iter, joint_iterations_);
    }
    return c;
}

// The last step's bodies, rows and joints dropped, and the cohesion and
// yield entries pruned, before a step gathers its problem.
void ConeSolver::clear_problem()
{
    body_rb_.clear();
    body_desc_.clear();
    body_dynamic_.clear();
    fixed_index_.clear();
    refused_body_ = nullptr;
    // con_point_, con_manifold_, con_plastic_, con_state_, con_split_,
    // con_cfm0_ and gamma_ are
    // sized by add_points (not cleared: resizing keeps their elements, so
    // the slots are not zero-filled every step)
    row_desc_.clear();
    row_gamma_.clear();
    prune_object_forces();
    joints_.clear();
}

bool ConeSolver::cone_step(const btContactSolverInfo &info)
{
    const btScalar h = info.m_timeStep;
    // the free velocities' explicit gyroscopic clamp comes from the info
    // the solver was handed, as stock's convertBodies reads it
    max_gyroscopic_force_ = info.m_maxGyroscopicForce;
    points_valid_ = false; // con_point_ and gamma_ are rebuilt below
    held_.clear();
    held_kinematic_.clear();
    skipped_contacts_ = skipped_rows_ = 0;
    if (!(h > 0) || !std::isfinite((double)h)) {
        // Every bias divides by h, and the free velocity integrates
        // forces over it: nothing to solve.  Bodies keep their velocities
        // (no forces, no impulses), as a zero-length step would.
        char msg[160];
        std::snprintf(msg, sizeof msg,
                      "time step %g is not positive and finite: no contact "
                      "solve this step",
                      (double)h);
        warn(RF_BULLET_WARN_TIME_STEP, msg);
        last = rf_stats{};
        last.energy_scale = 1.0;
        return true;
    }
    clear_problem();
    if (info.m_solverMode & SOLVER_RANDMIZE_ORDER) {
        warn(RF_BULLET_WARN_SETTING,
             "SOLVER_RANDMIZE_ORDER is not honoured: the cone solver sweeps "
             "in its own deterministic order");
    }
    gather_bodies(h);      // bodies.cpp
    gather_contacts(info); // contacts.cpp: the manifolds, in order
    gather_joints(info);   // joints.cpp
    if (refused_body_ != nullptr) {
        Offender who;
        who.object = refused_body_;
        warn(RF_BULLET_WARN_FALLBACK,
             "a body's angular factor scales axes that its inverse inertia "
             "couples (diag(f^2) I^-1 is not symmetric): stock's response "
             "has no cone counterpart; this step is solved by the previous "
             "solver",
             who);
        give_up_step();
        return false;
    }
    // The bodies are all known now (a joint may add a fixed one): the
    // problem is begun and the points are written into its contacts.
    {
        rf_error err;
        const size_t slots = count_slots();
        if (!begin_problem(slots, &err)) {
            char msg[400];
            std::snprintf(msg, sizeof msg,
                          "%s; this step is solved by the previous solver",
                          err.message);
            warn(RF_BULLET_WARN_FALLBACK, msg);
            give_up_step();
            return false;
        }
        add_points(info, slots); // contacts.cpp
    }
    rf_stats stats{};
    rf_config step_cfg = cfg;
    if (!solve_problem(info, &stats, &step_cfg)) {
        give_up_step();
        return false;
    }
    last = stats;
    last.skipped_bodies = (int)(held_.size() + held_kinematic_.size());
    last.skipped_contacts = skipped_contacts_;
    last.skipped_rows = skipped_rows_;
    write_back(info); // write_back.cpp
    split_step(info, step_cfg);
    release_held(true);
    return true;
}

bool ConeSolver::begin_problem(size_t slots, rf_error *err)
{
    const int nb = (int)body_desc_.size();
    // more than INT_MAX slots: the core's limit (2^27) names the count
    const int ns = slots > (size_t)INT_MAX ? INT_MAX : (int)slots;
    rf_status st = rf_problem_begin_bodies(problem_, nb, ns, err);
    for (int i = 0; st == RF_OK && i < nb; ++i) {
        st = rf_problem_set_body(problem_, i, &body_desc_[i], err);
    }
    if (st == RF_OK) {
        st = rf_problem_contact_columns(problem_, &cols_, err);
    }
    return st == RF_OK;
}

// The contacts add_points wrote into the problem's columns checked and
// set (rf_problem_commit_contacts), on the step's threads in contiguous
// ranges.  The core's checks were the largest serial part of a two-thread
// step (4% of the full pyramid's samples, with the copy of descriptions
// it then made).  On an error the first bad range's message, as one call
// would give.
rf_status ConeSolver::commit_contacts(rf_error *err)
{
    const int nc = contact_count();
    const int threads = (size_t)nc >= kParallelPoints ? build_threads() : 1;
    if (threads <= 1) {
        return rf_problem_commit_contacts(problem_, 0, nc, err);
    }
    range_status_.resize((size_t)threads);
    RangeStatus *rs = range_status_.data();
    // OpenMP may give fewer threads than asked (a thread limit, a call
    // from inside a parallel region): the ranges follow the team it gave,
    // and only that many results are read
    int ranges = 1;
#pragma omp parallel num_threads(threads)
    {
        int t = 0, nt = 1;
#ifdef _OPENMP
        t = omp_get_thread_num();
        nt = omp_get_num_threads();
#endif
        if (t == 0) {
            ranges = nt;
        }
        const int lo = (int)((long)nc * t / nt);
        const int hi = (int)((long)nc * (t + 1) / nt);
        rs[t].st =
            rf_problem_commit_contacts(problem_, lo, hi - lo, &rs[t].err);
    }
    for (int t = 0; t < ranges; ++t) {
        if (rs[t].st != RF_OK || t == ranges - 1) {
            if (err != nullptr) {
                *err = rs[t].err;
            }
            return rs[t].st;
        }
    }
    return RF_OK;
}

// The step's problem from the gathered bodies, contacts and rows, solved
// (rf_solve_carried), and the bodies' velocities after it (vel_v_,
// vel_w_).  False, with a warning, when the core refuses the problem: the
// caller hands the step to the stock solver.
bool ConeSolver::solve_problem(const btContactSolverInfo &info, rf_stats *out,
                               rf_config *step_cfg_out)
{
    const int nb = (int)body_desc_.size();
    const int nc = contact_count();
    const int nr = (int)row_desc_.size();
    rf_error err;
    // the slots add_points left empty (points skipped) were compacted
    // away: the problem keeps the first nc
    rf_status st = rf_problem_truncate_contacts(problem_, nc, &err);
    if (st == RF_OK && nc > 0) {
        st = commit_contacts(&err);
    }
    if (st == RF_OK && contacts_compliant_) {
        cfm_all_.assign(6 * (size_t)nc, 0.0);
        for (int i = 0; i < nc; ++i) {
            cfm_all_[6 * (size_t)i] = con_cfm0_[(size_t)i];
        }
        st = rf_problem_add_compliance(problem_, cfm_all_.data(), &err);
    }
    if (st == RF_OK && contacts_scaled_) {
        axis_tmp_.resize(4 * (size_t)nc);
        for (size_t i = 0; i < (size_t)nc; ++i) { // sliding, then rolling
            axis_tmp_[2 * i] = con_axis_[4 * i];
            axis_tmp_[2 * i + 1] = con_axis_[4 * i + 1];
            axis_tmp_[2 * (size_t)nc + 2 * i] = con_axis_[4 * i + 2];
            axis_tmp_[2 * (size_t)nc + 2 * i + 1] = con_axis_[4 * i + 3];
        }
        st = rf_problem_set_sliding_scales(problem_, axis_tmp_.data(), &err);
        if (st == RF_OK) {
            st = rf_problem_set_rolling_scales(
                problem_, axis_tmp_.data() + 2 * (size_t)nc, &err);
        }
    }
    if (st == RF_OK) {
        st = rf_problem_begin_rows(problem_, nr, &err);
    }
    for (int j = 0; st == RF_OK && j < nr; ++j) {
        st = rf_problem_set_row(problem_, j, &row_desc_[j], &err);
    }
    rf_stats &stats = *out;
    gamma_.insert(gamma_.end(), row_gamma_.begin(), row_gamma_.end());
    if (gamma_.empty()) {
        gamma_.resize(6); // rf_solve wants an array even when empty
    }
    const double t_solve = wall_now();
    rf_config &step_cfg = *step_cfg_out;
    if (st == RF_OK) {
        step_cfg = step_config(info);
        st = rf_solve_carried(problem_, &step_cfg, carry_, gamma_.data(),
                              &stats, &err);
    }
    timing.build = t_solve - step_start_;
    timing.solve = wall_now() - t_solve;
    vel_v_.resize(3 * (size_t)nb);
    vel_w_.resize(3 * (size_t)nb);
    if (st == RF_OK && nb > 0) {
        st = rf_problem_solved_velocity(problem_, vel_v_.data(), vel_w_.data(),
                                        &err);
    }
    if (st != RF_OK) {
        char msg[400];
        std::snprintf(msg, sizeof msg,
                      "%s; this step is solved by the previous solver",
                      err.message);
        warn(RF_BULLET_WARN_FALLBACK, msg);
        return false;
    }
    return true;
}

// Held bodies get their finite velocity (write) and lose the mark.
void ConeSolver::give_up_step()
{
    for (btRigidBody *rb : body_rb_) {
        if (rb) {
            rb->setCompanionId(-1);
        }
    }
    release_held(false);
}

} // namespace rfshim
