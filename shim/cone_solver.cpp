// ConeSolver: Bullet in, rf_problem out, impulses back (cone_solver.hpp).
// No solver maths here: the core solves; this file only translates.
#include "cone_solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#ifdef _OPENMP
#include <omp.h>
#endif

namespace rfshim {

namespace {

double wall_now()
{
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double>(clock::now().time_since_epoch())
        .count();
}

void to3(const btVector3 &v, double out[3])
{
    out[0] = v.x();
    out[1] = v.y();
    out[2] = v.z();
}

double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

void cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

bool normalize3(double v[3])
{
    double l = std::sqrt(dot3(v, v));
    if (!(l > 1e-12) || !std::isfinite(l)) {
        return false;
    }
    v[0] /= l;
    v[1] /= l;
    v[2] /= l;
    return true;
}

// t1 = d with its n component removed, normalised; false if d is (nearly)
// along n or not a direction at all.
bool tangent_from(const btVector3 &d, const double n[3], double t1[3])
{
    double v[3];
    to3(d, v);
    double dn = dot3(v, n);
    for (int k = 0; k < 3; ++k) {
        v[k] -= dn * n[k];
    }
    if (!(dot3(v, v) > 0.25)) { // |d| ~ 1 and at most 60 deg off the plane
        return false;
    }
    std::memcpy(t1, v, sizeof v);
    return normalize3(t1);
}

// A friction coefficient from Bullet's combine callbacks, as the core
// accepts it: non-negative and finite.  Anything else is treated as 0 and
// reported (the core would reject the whole step).
double coefficient(btScalar c, int *bad)
{
    double v = c;
    if (std::isfinite(v) && v >= 0.0) {
        return v;
    }
    ++*bad;
    return 0.0;
}

// How many items ahead the loops over Bullet's objects fetch (below): far
// enough for a memory access to finish while the items in between are
// translated, near enough that the lines are still in cache.
constexpr size_t kPrefetchAhead = 8;

// Every cache line of [p, p + size), inside one object.  Bodies and
// manifolds lie scattered in Bullet's pools, and touching one that is not
// in cache stalls the loop; cone_step's loops fetch the object they will
// reach kPrefetchAhead items later.  Hints only: nothing depends on them.
void prefetch_object(const void *p, size_t size)
{
    const char *c = static_cast<const char *>(p);
    for (size_t off = 0; off < size; off += 64) {
        prefetch_read(c + off);
    }
    prefetch_read(c + size - 1); // the last line when p is not aligned
}

// A manifold's first touch was the largest stall of cone_step's manifold
// loop.  Fetch the lines the loop reads first: the bodies, point count and
// thresholds, which Bullet keeps after the point cache at the end of the
// object, and the first point at the start (most manifolds of a pile have
// one point).  The addresses lie inside the object whatever its layout.
void prefetch_manifold(const btPersistentManifold *m)
{
    const char *p = reinterpret_cast<const char *>(m);
    const size_t size = sizeof(btPersistentManifold);
    static_assert(sizeof(btPersistentManifold) > sizeof(btManifoldPoint) + 64,
                  "a point cache and a tail");
    prefetch_object(p + size - 48, 48);
    prefetch_object(p, sizeof(btManifoldPoint) + 16);
}

// The first manifold pass (sides and point count) reads only the tail:
// fetching the whole manifold there too cost more than it saved the
// second pass (5k pile: 1 ms more per step at 1 thread), and it runs
// farther ahead (4 kPrefetchAhead) because a tail line is all it waits for.
void prefetch_manifold_tail(const btPersistentManifold *m)
{
    const char *p = reinterpret_cast<const char *>(m);
    const size_t size = sizeof(btPersistentManifold);
    prefetch_object(p + size - 48, 48);
}

// What an object is to the solver.  A dynamic object (not static, not
// kinematic) with a negative or non-finite inverse mass cannot be solved
// (a negative mass gains energy from every impulse) and is held out
// (ConeSolver::hold_body); one with inverse mass 0 is as heavy as the
// world, as in stock.
enum class Kind { kDynamic, kFixed, kBad };

Kind classify(const btCollisionObject *obj, btRigidBody **rb_out)
{
    btRigidBody *rb = btRigidBody::upcast(const_cast<btCollisionObject *>(obj));
    *rb_out = rb;
    if (rb == nullptr || obj->isStaticOrKinematicObject()) {
        return Kind::kFixed;
    }
    const double im = rb->getInvMass();
    if (im > 0.0 && std::isfinite(im)) {
        return Kind::kDynamic;
    }
    return im == 0.0 ? Kind::kFixed : Kind::kBad;
}

bool finite3(const double v[3])
{
    return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]);
}

bool finite_vec(const btVector3 &v)
{
    return std::isfinite((double)v.x()) && std::isfinite((double)v.y()) &&
           std::isfinite((double)v.z());
}

bool finite_transform(const btTransform &t)
{
    const btMatrix3x3 &b = t.getBasis();
    return finite_vec(t.getOrigin()) && finite_vec(b[0]) && finite_vec(b[1]) &&
           finite_vec(b[2]);
}

// Every number of a contact the core reads is finite (the core rejects
// the whole problem otherwise).
bool finite_contact(const rf_contact_desc &c)
{
    bool ok = finite3(c.n) && finite3(c.t1) && finite3(c.t2) &&
              finite3(c.r_a) && finite3(c.r_b);
    for (double b : c.bias) {
        ok = ok && std::isfinite(b);
    }
    return ok;
}

btVector3 finite_or_zero(const btVector3 &v)
{
    return finite_vec(v) ? v : btVector3(0, 0, 0);
}

} // namespace

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

btScalar ConeSolver::solveGroup(btCollisionObject **bodies, int num_bodies,
                                btPersistentManifold **manifolds,
                                int num_manifolds,
                                btTypedConstraint **constraints,
                                int num_constraints,
                                const btContactSolverInfo &info,
                                btIDebugDraw *draw, btDispatcher *dispatcher)
{
    if (step_mode_ == RF_BULLET_STOCK) {
        return stock->solveGroup(bodies, num_bodies, manifolds, num_manifolds,
                                 constraints, num_constraints, info, draw,
                                 dispatcher);
    }
    // Collect only: the whole step is one problem, solved in allSolved
    // (the world calls it once, after the last batch, before it
    // integrates positions).
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
        learn_threads(last.seconds, last.rows - 5 * last.contacts);
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
        stock->solveGroup(in_bodies_.data(), (int)in_bodies_.size(),
                          in_manifolds_.data(), (int)in_manifolds_.size(),
                          in_constraints_.data(), (int)in_constraints_.size(),
                          info, draw, dispatcher_);
    }
    stock->allSolved(info, draw);
    last = rf_stats{};
    points_valid_ = false;
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
        const size_t n = strnlen(what, sizeof w.message - 1);
        std::memcpy(w.message, what, n);
        w.message[n] = '\0';
        if (warning_fn != nullptr) {
            warning_fn(warning_user, kind, &w);
        } else if (w.count == 1) {
            std::fprintf(stderr,
                         "rollfric: %s (further ones of this kind are "
                         "counted: rf_bullet_get_warning)\n",
                         what);
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
                     "iterations, residual %.2e, %.3f ms/step",
                     verbose_steps_, last.contacts,
                     last.rows - 6 * last.contacts, last.iterations,
                     last.residual, 1e3 * verbose_seconds_ / verbose_steps_);
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

// A dynamic body joins the problem with its free velocity
// v* = v + h f / m, w* = w + h I^-1 tau (+ gyroscopic terms), exactly as
// btSequentialImpulseConstraintSolver::initSolverBody and convertBodies
// compute it (forces already carry the linear/angular factors).
int ConeSolver::dynamic_index(btRigidBody *rb, btScalar h)
{
    int id = rb->getCompanionId();
    if (id >= 0 && id < (int)body_rb_.size() && body_rb_[id] == rb) {
        return id;
    }
    if (id == kHeld) {
        return kHeld;
    }

    rf_body_desc d{};
    d.flags = RF_BODY_DYNAMIC;
    const btScalar im = rb->getInvMass();
    const btVector3 &lf = rb->getLinearFactor();
    d.inv_mass = im;
    if (lf.x() != 1 || lf.y() != 1 || lf.z() != 1) {
        // Bullet scales impulses by the linear factor: inverse mass
        // im * lf per axis (a diagonal, so N stays symmetric).  Negative
        // factors are not physical and count as 0.
        d.flags |= RF_BODY_AXIS_MASS;
        for (int k = 0; k < 3; ++k) {
            d.inv_mass_axis[k] = im * (lf[k] > 0 ? lf[k] : 0);
        }
    }
    // Angular factor f: stock gives an impulse's angular part as
    // f o (f o (I^-1 tau)): the row's m_angularComponent carries f once
    // (btSequentialImpulseConstraintSolver::setupContactConstraint,
    // convertJoint) and btSolverBody::internalApplyImpulse applies it
    // again, so its response is diag(f^2) I^-1.  The core needs a
    // symmetric inverse inertia: diag(|f|) I^-1 diag(|f|) is that
    // response exactly when diag(f^2) commutes with I^-1 (a uniform
    // factor; factors that differ only between world axes the body's
    // inertia does not couple, e.g. (0, 1, 0) for a body upright about
    // y).  Otherwise stock's response is not symmetric and has no cone
    // counterpart: the step is refused (refused_body_, the stock solver
    // takes it).
    const btVector3 &af = rb->getAngularFactor();
    const btMatrix3x3 &I = rb->getInvInertiaTensorWorld();
    double f[3], f2[3], amax = 0.0;
    for (int k = 0; k < 3; ++k) {
        f[k] = std::fabs((double)af[k]);
        f2[k] = f[k] * f[k];
        amax = std::max(amax, std::fabs((double)I[k][k]));
    }
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) {
            // symmetrise: Bullet's world tensor is R I^-1 R^T, symmetric up
            // to rounding
            const double v = 0.5 * ((double)I[r][c] + (double)I[c][r]);
            d.inv_inertia[3 * r + c] = f[r] * v * f[c];
            // commutator entry (f_r^2 - f_c^2) A_rc against float rounding
            // of the world tensor (~1e-7 relative)
            if (r != c && std::fabs((f2[r] - f2[c]) * v) > 1e-5 * amax &&
                refused_body_ == nullptr) {
                refused_body_ = rb;
            }
        }
    }
    btVector3 v = rb->getLinearVelocity() + rb->getTotalForce() * im * h;
    btVector3 w = rb->getAngularVelocity() + I * rb->getTotalTorque() * h;
    const int flags = rb->getFlags();
    if (flags & BT_ENABLE_GYROSCOPIC_FORCE_EXPLICIT) {
        btVector3 g = rb->computeGyroscopicForceExplicit(max_gyroscopic_force_);
        w -= I * g * h;
    }
    if (flags & BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_WORLD) {
        w += rb->computeGyroscopicImpulseImplicit_World(h);
    }
    if (flags & BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_BODY) {
        w += rb->computeGyroscopicImpulseImplicit_Body(h);
    }
    to3(v, d.v);
    to3(w, d.w);
    // What the core needs of a body (rf_problem_set_body): finite data, an
    // inverse inertia with a non-negative diagonal (Bullet gives 0 for a
    // zero principal inertia: singular is fine).  A body that fails is
    // held out of the step rather than failing the whole step.
    bool inertia_ok = true;
    for (int k = 0; k < 9; ++k) {
        inertia_ok = inertia_ok && std::isfinite(d.inv_inertia[k]);
    }
    for (int k = 0; k < 3; ++k) {
        inertia_ok = inertia_ok && d.inv_inertia[4 * k] >= 0.0;
    }
    if (!inertia_ok) {
        hold_body(rb, rb->getLinearVelocity(), rb->getAngularVelocity(),
                  "a body with a non-finite or negative inverse inertia");
        return kHeld;
    }
    if (!finite3(d.v) || !finite3(d.w) ||
        !finite_transform(rb->getWorldTransform())) {
        hold_body(rb, rb->getLinearVelocity(), rb->getAngularVelocity(),
                  "a body with a non-finite position, velocity or force");
        return kHeld;
    }
    id = (int)body_rb_.size();
    rb->setCompanionId(id);
    body_rb_.push_back(rb);
    body_dynamic_.push_back(1);
    body_desc_.push_back(d);
    return id;
}

void ConeSolver::hold_body(btRigidBody *rb, const btVector3 &v,
                           const btVector3 &w, const char *why)
{
    rb->setCompanionId(kHeld);
    held_.push_back(Held{rb, finite_or_zero(v), finite_or_zero(w)});
    char msg[240];
    std::snprintf(msg, sizeof msg,
                  "%s was held out of the step (its contacts and joints get "
                  "no impulse; it keeps its velocity, 0 where not finite)",
                  why);
    Offender who;
    who.object = rb;
    warn(RF_BULLET_WARN_BODY, msg, who);
}

void ConeSolver::hold_bad_mass(btRigidBody *rb)
{
    if (rb->getCompanionId() != kHeld) { // once per step
        hold_body(rb, rb->getLinearVelocity(), rb->getAngularVelocity(),
                  "a dynamic body with a negative or non-finite inverse mass");
    }
}

void ConeSolver::skip_point(btManifoldPoint &cp, const btPersistentManifold *m,
                            const char *why)
{
    ++skipped_contacts_;
    clear_point(cp, m, why);
}

void ConeSolver::clear_point(btManifoldPoint &cp, const btPersistentManifold *m,
                             const char *why)
{
    cp.m_appliedImpulse = 0;
    cp.m_appliedImpulseLateral1 = 0;
    cp.m_appliedImpulseLateral2 = 0;
    if (why != nullptr) {
        Offender who;
        who.manifold = m;
        warn(RF_BULLET_WARN_POINT, why, who);
    }
}

// Index of one side of a manifold: a dynamic body, a kinematic (or other
// moving fixed) body with its velocity, or RF_WORLD for static objects.
int ConeSolver::side_index(const btCollisionObject *obj, btScalar h)
{
    btRigidBody *rb;
    const Kind kind = classify(obj, &rb);
    if (kind == Kind::kDynamic) {
        return dynamic_index(rb, h);
    }
    if (kind == Kind::kBad) {
        hold_bad_mass(rb);
        return kHeld;
    }
    if (rb == nullptr || !obj->isKinematicObject()) {
        return RF_WORLD; // static: at rest, as in stock
    }
    if (rb->getCompanionId() == kHeld) {
        return kHeld;
    }
    if (!finite_vec(rb->getLinearVelocity()) ||
        !finite_vec(rb->getAngularVelocity()) ||
        !finite_transform(rb->getWorldTransform())) {
        // a kinematic body's velocity is Bullet's (from its motion): held
        // means its contacts are skipped, nothing is written to it
        rb->setCompanionId(kHeld);
        held_kinematic_.push_back(rb);
        Offender who;
        who.object = rb;
        warn(RF_BULLET_WARN_BODY,
             "a kinematic body with a non-finite position or velocity: its "
             "contacts and joints were skipped",
             who);
        return kHeld;
    }
    // a new body gets the next index; one already in the table keeps its
    // own, which is smaller
    const int id = (int)body_rb_.size();
    const int known = fixed_index_.insert(obj, id);
    if (known != id) {
        return known;
    }
    body_rb_.push_back(rb);
    body_dynamic_.push_back(0);
    rf_body_desc d{};
    d.flags = RF_BODY_FIXED;
    to3(rb->getLinearVelocity(), d.v);
    to3(rb->getAngularVelocity(), d.w);
    body_desc_.push_back(d);
    return id;
}

void ConeSolver::strip_point_states()
{
    if (world != nullptr) {
        point_states_.strip(world->getDispatcher());
    }
}

void ConeSolver::warm_start_extras(const btManifoldPoint &cp,
                                   const double t1[3], const double t2[3],
                                   double g[6]) const
{
    g[3] = g[4] = g[5] = 0.0;
    const PointState *st = point_states_.of(cp);
    if (st == nullptr) {
        return;
    }
    // the spin axis is the normal; the rolling vector is re-expressed in
    // the new tangent frame (the normal may have turned a little)
    g[3] = st->spin;
    g[4] = dot3(st->roll, t1);
    g[5] = dot3(st->roll, t2);
}

// Anisotropic rolling friction.  Bullet (convertContact) scales each
// rolling row's axis by B diag(s) B^T of every body with
// CF_ANISOTROPIC_ROLLING_FRICTION (body 0, then body 1; s its
// getAnisotropicFriction(), B its basis).  With s along one body axis e,
// which is how Bullet's shapes declare it
// (getAnisotropicRollingFrictionDirection: a capsule's, cone's or
// cylinder's own axis), the rows act about e only: rolling about the axis
// is resisted, rolling about any other axis is free.  The cone
// counterpart is RF_CONTACT_ROLL_T1 with t1 along e's projection on the
// contact plane (rolling torque |tu| <= rho gn, tw = 0).  No rolling
// friction at all when e is (nearly) the normal, as Bullet drops rows
// shorter than 1e-3, when two bodies' axes are orthogonal (the product
// of the two scalings vanishes), or for a zero scaling.  Other scalings
// (several non-zero components) keep the cone round, with a message.
void ConeSolver::rolling_anisotropy(const btCollisionObject *o0,
                                    const btCollisionObject *o1,
                                    rf_contact_desc &c)
{
    btVector3 axis(0, 0, 0);
    bool have = false;
    for (const btCollisionObject *o : {o0, o1}) {
        if (!o->hasAnisotropicFriction(
                btCollisionObject::CF_ANISOTROPIC_ROLLING_FRICTION)) {
            continue;
        }
        const btVector3 &s = o->getAnisotropicFriction();
        int nonzero = 0, k_axis = 0;
        for (int k = 0; k < 3; ++k) {
            if (s[k] != 0) {
                ++nonzero;
                k_axis = k;
            }
        }
        if (nonzero == 0) { // every rolling row vanishes in stock too
            c.rho = 0.0;
            return;
        }
        if (nonzero != 1) {
            Offender who;
            who.object = o;
            warn(RF_BULLET_WARN_ANISOTROPY,
                 "anisotropic rolling friction with a scaling other than one "
                 "body axis is not modelled by the cone solver: that rolling "
                 "cone stays round",
                 who);
            continue;
        }
        const btVector3 e = o->getWorldTransform().getBasis().getColumn(k_axis);
        if (have && btFabs(axis.dot(e)) < (btScalar)1e-3) {
            c.rho = 0.0;
            return;
        }
        axis = e;
        have = true;
    }
    if (!have) {
        return;
    }
    double e[3];
    to3(axis, e);
    const double en = dot3(e, c.n);
    for (int k = 0; k < 3; ++k) {
        e[k] -= en * c.n[k];
    }
    if (!(dot3(e, e) > 1e-6) || !normalize3(e)) {
        c.rho = 0.0;
        return;
    }
    std::memcpy(c.t1, e, sizeof e);
    cross3(c.n, c.t1, c.t2);
    c.flags |= RF_CONTACT_ROLL_T1;
}

void ConeSolver::prune_object_forces()
{
    if (cohesion.empty() && yield.empty()) {
        return;
    }
    PtrIndex<char> in_world;
    const btCollisionObjectArray &objs = world->getCollisionObjectArray();
    in_world.reserve((size_t)objs.size());
    for (int k = 0; k < objs.size(); ++k) {
        in_world.insert(objs[k], 1);
    }
    for (auto *map : {&cohesion, &yield}) {
        for (auto it = map->begin(); it != map->end();) {
            // only objects found in the world are read: the others may be
            // gone
            if (!in_world.find(it->first)) {
                it = map->erase(it);
                continue;
            }
            const int id = ObjectForce::id_of(it->first);
            ObjectForce &f = it->second;
            if (f.proxy_id != ObjectForce::kUnbound && f.proxy_id != id) {
                it = map->erase(it); // another object at that address
                continue;
            }
            f.proxy_id = id;
            ++it;
        }
    }
}

double ConeSolver::pair_yield(const btCollisionObject *o0,
                              const btCollisionObject *o1) const
{
    if (yield.empty()) {
        return 0.0;
    }
    const auto i0 = yield.find(o0), i1 = yield.find(o1);
    const double y0 = i0 == yield.end() ? INFINITY : i0->second.force;
    const double y1 = i1 == yield.end() ? INFINITY : i1->second.force;
    const double y = y0 < y1 ? y0 : y1;
    return y < INFINITY ? y : 0.0;
}

// A pair holds together with the smaller of its two cohesion forces (a
// glued joint is as strong as its weaker side; Chrono combines cohesion
// the same way).
double ConeSolver::pair_cohesion(const btCollisionObject *o0,
                                 const btCollisionObject *o1) const
{
    if (cohesion.empty()) {
        return 0.0;
    }
    const auto i0 = cohesion.find(o0), i1 = cohesion.find(o1);
    if (i0 == cohesion.end() || i1 == cohesion.end()) {
        return 0.0;
    }
    const double c0 = i0->second.force, c1 = i1->second.force;
    return c0 < c1 ? c0 : c1;
}

// The share of the normal's warm-start factor that SI's friction parts
// (sliding, spin, rolling) start with.  Stock 3.24 starts its friction
// rows at 0; a friction start holds a resting body's friction from the
// last step, which joints and stacks need at a few sweeps (a pinned
// 10-link chain on the ground, 10 sweeps: joint error 0.37 mm with the
// whole 0.85, 0.91 mm at 0.5, 1.23 mm with none; stock 0.09 mm with its
// one friction direction per point).  But above about 0.65 of the last
// impulse, BenchmarkDemo's dropped columns of four boxes stay tilted on
// an edge for half a second before they rock back, and the scene sleeps
// 30% later than stock (quick falling boxes, 5 sweeps, five runs with
// gravity perturbed by 1e-5: asleep at steps 262-272 at factor 0.72,
// 201-202 at 0.6 and 0.5, stock 202-203).  0.6 x 0.85 = 0.51 keeps clear
// of that edge.
constexpr double kSiFrictionWarmShare = 0.6;

ConeSolver::SlotState ConeSolver::add_point(btPersistentManifold *m, int j,
                                            int a, int b,
                                            const btContactSolverInfo &info,
                                            size_t slot)
{
    btManifoldPoint &cp = m->getContactPoint(j);
    const btCollisionObject *o0 = m->getBody0();
    const btCollisionObject *o1 = m->getBody1();
    const double h = info.m_timeStep;

    rf_contact_desc c{};
    c.body_a = a;
    c.body_b = b;
    to3(cp.m_normalWorldOnB, c.n);
    if (!normalize3(c.n)) {
        clear_point(cp, m,
                    "a manifold point with a zero or non-finite normal "
                    "was skipped");
        return kSkipped;
    }
    // Frame: the point's own lateral directions when it has them (from
    // the last step, or set by the application for a conveyor), so the
    // warm start keeps its meaning; a fresh frame otherwise.
    const bool user_dirs = (cp.m_contactPointFlags &
                            BT_CONTACT_FLAG_LATERAL_FRICTION_INITIALIZED) != 0;
    if (!tangent_from(cp.m_lateralFrictionDir1, c.n, c.t1)) {
        double n[3] = {c.n[0], c.n[1], c.n[2]};
        rf_contact_frame(n, c.t1, c.t2);
    }
    cross3(c.n, c.t1, c.t2); // (n, t1, t2) right-handed
    if (user_dirs) {
        // keep the sense of the application's second direction (the core
        // takes any orthonormal frame)
        double d2[3];
        to3(cp.m_lateralFrictionDir2, d2);
        if (dot3(d2, c.t2) < 0) {
            for (double &x : c.t2) {
                x = -x;
            }
        }
    }
    btVector3 ra =
        cp.getPositionWorldOnA() - o0->getWorldTransform().getOrigin();
    btVector3 rb =
        cp.getPositionWorldOnB() - o1->getWorldTransform().getOrigin();
    to3(ra, c.r_a);
    to3(rb, c.r_b);
    if (o0->hasAnisotropicFriction(
            btCollisionObject::CF_ANISOTROPIC_FRICTION) ||
        o1->hasAnisotropicFriction(
            btCollisionObject::CF_ANISOTROPIC_FRICTION)) {
        // The sliding cone is round (Tasora-Anitescu); Bullet's anisotropic
        // scaling of its sliding rows' axes has no counterpart yet.
        Offender who;
        who.manifold = m;
        warn(RF_BULLET_WARN_ANISOTROPY,
             "anisotropic sliding friction is not modelled by the cone "
             "solver: its sliding cone stays isotropic",
             who);
    }
    int bad = 0;
    c.mu = coefficient(cp.m_combinedFriction, &bad);
    c.rho = coefficient(cp.m_combinedRollingFriction, &bad);
    c.sigma = coefficient(cp.m_combinedSpinningFriction, &bad);
    const double e_rest = coefficient(cp.m_combinedRestitution, &bad);
    // cohesion: the pair's force shared by the manifold's points, over
    // the step (rf_contact_desc.cohesion is an impulse, N s)
    c.cohesion = pair_cohesion(o0, o1) * h / m->getNumContacts();
    // yield (elasto-plastic contact, slides section 3): the pair's yield
    // force shared likewise caps the normal impulse; the point's permanent
    // indentation (carried by the point) is taken off its penetration
    c.normal_max = pair_yield(o0, o1) * h / m->getNumContacts();
    double plastic = 0.0;
    if (c.normal_max > 0.0) {
        const PointState *st = point_states_.of(cp);
        plastic =
            st != nullptr && std::isfinite(st->plastic) ? st->plastic : 0.0;
    }
    if (bad) {
        Offender who;
        who.manifold = m;
        warn(RF_BULLET_WARN_COEFFICIENT,
             "a negative or non-finite combined friction or restitution "
             "coefficient was used as 0",
             who);
    }
    if (!user_dirs) {
        rolling_anisotropy(o0, o1, c);
    } else if (o0->hasAnisotropicFriction(
                   btCollisionObject::CF_ANISOTROPIC_ROLLING_FRICTION) ||
               o1->hasAnisotropicFriction(
                   btCollisionObject::CF_ANISOTROPIC_ROLLING_FRICTION)) {
        // the application's lateral directions fix the frame
        Offender who;
        who.manifold = m;
        warn(RF_BULLET_WARN_ANISOTROPY,
             "anisotropic rolling friction is ignored at a point with "
             "application-set friction directions (conveyor)",
             who);
    }

    // Normal bias b_n (DESIGN §2): the gap over the step for a separated
    // point (a speculative contact: approach only up to contact) minus the
    // restitution velocity; for a penetrating point, minus the larger of
    // the recovery speed erp x depth / h (capped at max_recovery) and the
    // restitution velocity.  Restitution follows the stock solver: e times
    // the approach speed before forces, only above
    // m_restitutionVelocityThreshold.
    const btRigidBody *rb0 = btRigidBody::upcast(o0);
    const btRigidBody *rb1 = btRigidBody::upcast(o1);
    btVector3 vel0 =
        rb0 ? rb0->getVelocityInLocalPoint(ra) : btVector3(0, 0, 0);
    btVector3 vel1 =
        rb1 ? rb1->getVelocityInLocalPoint(rb) : btVector3(0, 0, 0);
    double vn = (double)cp.m_normalWorldOnB.dot(vel0 - vel1);
    double restitution = 0.0;
    if (std::fabs(vn) >= info.m_restitutionVelocityThreshold) {
        restitution = e_rest * -vn;
        if (!(restitution > 0.0)) {
            restitution = 0.0;
        }
    }
    // Compliance (Tasora 6.2's Tikhonov term; issue #8): as stock's
    // setupContactConstraint, a point with contact stiffness K and damping
    // D (setContactStiffnessAndDamping) is the spring-damper cfm = 1 /
    // (h K + D), erp = h K / (h K + D); otherwise the point's own CFM/ERP
    // or the solver info's global ones.  cfm / h is the normal compliance
    // (velocity per impulse: stock adds it to J M^-1 J^T the same way).
    double cfm = (double)info.m_globalCfm;
    double erp = (double)info.m_erp2;
    bool spring = false;
    if (cp.m_contactPointFlags & BT_CONTACT_FLAG_HAS_CONTACT_CFM) {
        cfm = (double)cp.m_contactCFM;
    }
    if (cp.m_contactPointFlags & BT_CONTACT_FLAG_HAS_CONTACT_ERP) {
        erp = (double)cp.m_contactERP;
    }
    if (cp.m_contactPointFlags & BT_CONTACT_FLAG_CONTACT_STIFFNESS_DAMPING) {
        double denom = h * (double)cp.m_combinedContactStiffness1 +
                       (double)cp.m_combinedContactDamping1;
        if (denom < (double)SIMD_EPSILON) {
            denom = (double)SIMD_EPSILON;
        }
        cfm = 1.0 / denom;
        erp = h * (double)cp.m_combinedContactStiffness1 / denom;
        spring = true;
    }
    if (cfm > 0.0 && std::isfinite(cfm)) {
        c.compliance[0] = cfm / h;
    } else if (cfm != 0.0) {
        Offender who;
        who.manifold = m;
        warn(RF_BULLET_WARN_COEFFICIENT,
             "a negative or non-finite contact CFM (or stiffness and "
             "damping) was used as 0: the point is rigid",
             who);
    }
    double depth =
        (double)cp.getDistance() + (double)info.m_linearSlop + plastic;
    // Split impulse (issue #22), as stock's setupContactConstraint: with
    // info.m_splitImpulse on, a point deeper than
    // m_splitImpulsePenetrationThreshold (-0.04 m by default) recovers on
    // pseudo-velocities (rf_solve_split after the solve), which move
    // positions and are dropped: its velocity bias keeps only the
    // restitution.  Shallower points keep the recovery in the velocity,
    // as stock.  A spring (stiffness and damping) is a force law, never
    // split.
    double split = 0.0;
    if (info.m_splitImpulse && depth < 0.0 &&
        depth <= (double)info.m_splitImpulsePenetrationThreshold && !spring) {
        split = erp * depth / h;
        c.bias[0] = -restitution;
    } else if (depth > 0.0) {
        // A separated point: approach up to contact (gap over the step),
        // or, when the approach closes the gap within this step and the
        // point is to bounce, leave at the restitution velocity.  Not
        // "gap / h - restitution" (stock's velocityError): that takes the
        // gap off the rebound, and at small steps the gap is comparable
        // to the distance fallen per step (a ball dropped 1.5 m at h =
        // 1/600 s rose to 4% of its height instead of e^2 = 25%).
        const bool impact = restitution > 0.0 && -vn * h >= depth;
        c.bias[0] = impact ? -restitution : depth / h;
    } else {
        double recovery = -erp * depth / h;
        // a spring's force is K depth, never capped (the static
        // deflection m g / K depends on it); the cap is for rigid points
        if (recovery > max_recovery && !spring) {
            recovery = max_recovery;
        }
        // The larger of the two separation speeds, not their sum: the
        // recovery is a position correction, and a body that bounces
        // leaves the penetration anyway (stock keeps the two apart with
        // its split impulse, which never becomes velocity).
        c.bias[0] = -(recovery > restitution ? recovery : restitution);
    }
    if (user_dirs) {
        // conveyor: the target relative velocity along the lateral
        // directions is m_contactMotion1/2 (stock: velocityError =
        // desiredVelocity - rel_vel); u_t = t.v_rel + bias is driven to 0
        c.bias[1] = -(double)cp.m_contactMotion1;
        c.bias[2] = -(double)cp.m_contactMotion2;
    }
    if (!finite_contact(c)) {
        clear_point(cp, m,
                    "a manifold point with a non-finite position, "
                    "distance, restitution or motion was skipped");
        return kSkipped;
    }

    // Warm start: normal and sliding impulses from the point (Bullet moves
    // them with it), re-expressed in the new frame; spin and rolling from
    // the point's carried state.
    double g[6] = {0, 0, 0, 0, 0, 0};
    if (cfg.warm_start) {
        // a cohesive point may have pulled (down to -cohesion); the core
        // projects the start onto the shifted cone anyway
        g[0] = cp.m_appliedImpulse > -c.cohesion ? (double)cp.m_appliedImpulse
                                                 : -c.cohesion;
        btVector3 s = cp.m_lateralFrictionDir1 * cp.m_appliedImpulseLateral1 +
                      cp.m_lateralFrictionDir2 * cp.m_appliedImpulseLateral2;
        double sv[3];
        to3(s, sv);
        g[1] = dot3(sv, c.t1);
        g[2] = dot3(sv, c.t2);
        warm_start_extras(cp, c.t1, c.t2, g);
        // RF_SOLVER_SI (stock's method) takes Bullet's warm-start factor
        // (m_warmstartingFactor, 0.85 by default; 0 without
        // SOLVER_USE_WARMSTARTING) for the normal, as stock applies it to
        // its contact rows, and kSiFrictionWarmShare of it for the
        // friction parts: with a few sweeps per step the full start
        // carries the last iterate's error into the next step, and a
        // settled pile keeps jittering (BasicDemo, SI, 10 sweeps: 124 of
        // 125 boxes awake after 500 steps with the full start, asleep by
        // step 274 with 0.85; stock: 421).  The other solvers run to a
        // tolerance, where the full start only saves iterations.
        double wsf = 1.0, wsf_friction = 1.0;
        if (cfg.solver == RF_SOLVER_SI) {
            wsf = (info.m_solverMode & SOLVER_USE_WARMSTARTING)
                      ? (double)info.m_warmstartingFactor
                      : 0.0;
            wsf_friction = kSiFrictionWarmShare * wsf;
        }
        for (int k = 0; k < 6; ++k) {
            const double x = g[k] * (k == 0 ? wsf : wsf_friction);
            g[k] = std::isfinite(x) ? x : 0.0;
        }
    }
    con_desc_[slot] = c;
    con_point_[slot] = &cp;
    con_manifold_[slot] = m;
    con_plastic_[slot] = plastic;
    con_split_[slot] = std::isfinite(split) ? split : 0.0;
    std::memcpy(&gamma_[6 * slot], g, sizeof g);
    return kAdded;
}

// One joint: its rows from getInfo1/getInfo2, filled exactly as
// btSequentialImpulseConstraintSolver::convertJoint fills them (defaults
// lo/hi = -/+inf, cfm = m_globalCfm, rhs = 0; erp, fps, damping from the
// solver info), then translated:
//   - bounds clamped to the breaking threshold (as stock);
//   - Bullet solves Dl = rhs' - cfm l - J Dv / d (d = J M^-1 J^T), whose
//     fixed point is J v = err + (1 - damping) J v* - cfm d l: so the
//     row's bias is -err - (1 - damping) J v* and its compliance cfm d,
//     with d computed from Bullet's own inverse masses as stock does.
void ConeSolver::add_joint(btTypedConstraint *c,
                           const btContactSolverInfo &info)
{
    btTypedConstraint::btConstraintInfo1 info1;
    c->getInfo1(&info1);
    const int n = info1.m_numConstraintRows;
    if (n <= 0) {
        return;
    }
    const btScalar h = info.m_timeStep;
    btRigidBody &rbA = c->getRigidBodyA();
    btRigidBody &rbB = c->getRigidBodyB();
    const int a = side_index(&rbA, h);
    const int b = side_index(&rbB, h);
    if (a == kHeld || b == kHeld) {
        skipped_rows_ += n; // a held body takes no impulse
        return;
    }
    const bool dyn_a = a != RF_WORLD && body_dynamic_[a];
    const bool dyn_b = b != RF_WORLD && body_dynamic_[b];
    if ((!dyn_a && !dyn_b) || a == b) {
        return; // nothing can move (stock solves rows that change nothing)
    }
    static_assert(sizeof(JointRowBuf) % sizeof(btScalar) == 0,
                  "getInfo2 strides in btScalars");
    JointRowBuf init;
    init.lin1.setZero();
    init.ang1.setZero();
    init.lin2.setZero();
    init.ang2.setZero();
    init.rhs = 0;
    init.cfm = info.m_globalCfm;
    init.lo = -SIMD_INFINITY;
    init.hi = SIMD_INFINITY;
    row_buf_.assign((size_t)n, init);
    JointRowBuf *r0 = row_buf_.data();
    btTypedConstraint::btConstraintInfo2 info2;
    info2.fps = 1 / h;
    info2.erp = info.m_erp;
    info2.m_J1linearAxis = r0->lin1.m_floats;
    info2.m_J1angularAxis = r0->ang1.m_floats;
    info2.m_J2linearAxis = r0->lin2.m_floats;
    info2.m_J2angularAxis = r0->ang2.m_floats;
    info2.rowskip = (int)(sizeof(JointRowBuf) / sizeof(btScalar));
    info2.m_constraintError = &r0->rhs;
    info2.cfm = &r0->cfm;
    info2.m_lowerLimit = &r0->lo;
    info2.m_upperLimit = &r0->hi;
    info2.m_damping = info.m_damping;
    info2.m_numIterations = info.m_numIterations;
    c->getInfo2(&info2);
    for (int j = 0; j < n; ++j) {
        const JointRowBuf &r = row_buf_[j];
        if (!finite_vec(r.lin1) || !finite_vec(r.ang1) || !finite_vec(r.lin2) ||
            !finite_vec(r.ang2) || !std::isfinite((double)r.rhs) ||
            std::isnan((double)r.lo) || std::isnan((double)r.hi) ||
            std::isnan((double)c->getBreakingImpulseThreshold()) ||
            !(r.lo <= r.hi) || !(c->getBreakingImpulseThreshold() >= 0)) {
            skipped_rows_ += n;
            Offender who;
            who.constraint = c;
            who.row = j;
            warn(RF_BULLET_WARN_JOINT,
                 "a joint with a non-finite Jacobian, error or bound was "
                 "skipped (no impulse this step)",
                 who);
            return;
        }
    }

    const double brk = (double)c->getBreakingImpulseThreshold();
    const double damping = (double)info.m_damping;
    const btMatrix3x3 &IA = rbA.getInvInertiaTensorWorld();
    const btMatrix3x3 &IB = rbB.getInvInertiaTensorWorld();
    const double *va = a == RF_WORLD ? nullptr : body_desc_[a].v;
    const double *wa = a == RF_WORLD ? nullptr : body_desc_[a].w;
    const double *vb = b == RF_WORLD ? nullptr : body_desc_[b].v;
    const double *wb = b == RF_WORLD ? nullptr : body_desc_[b].w;
    const size_t first = row_desc_.size();
    for (int j = 0; j < n; ++j) {
        const JointRowBuf &r = row_buf_[j];
        rf_row_desc d{};
        d.body_a = a;
        d.body_b = b;
        to3(r.lin1, d.lin_a);
        to3(r.ang1, d.ang_a);
        to3(r.lin2, d.lin_b);
        to3(r.ang2, d.ang_b);
        double lo = r.lo, hi = r.hi;
        if (hi >= brk) {
            hi = brk;
        }
        if (lo <= -brk) {
            lo = -brk;
        }
        d.lo = lo <= -(double)SIMD_INFINITY ? -INFINITY : lo;
        d.hi = hi >= (double)SIMD_INFINITY ? INFINITY : hi;
        double jdiag = (double)(r.lin1.dot(r.lin1) * rbA.getInvMass() +
                                r.ang1.dot(IA * r.ang1) +
                                r.lin2.dot(r.lin2) * rbB.getInvMass() +
                                r.ang2.dot(IB * r.ang2));
        double cfm = (double)r.cfm;
        if (!(cfm >= 0.0) || !std::isfinite(cfm)) {
            Offender who;
            who.constraint = c;
            who.row = j;
            warn(RF_BULLET_WARN_JOINT,
                 "a joint row with a negative or non-finite cfm was given cfm "
                 "0",
                 who);
            cfm = 0.0;
        }
        d.cfm = std::fabs(jdiag) > (double)SIMD_EPSILON ? cfm * jdiag : 0.0;
        d.bias = -(double)r.rhs;
        if (damping != 1.0) {
            double jv = 0.0;
            if (va) {
                jv += dot3(d.lin_a, va) + dot3(d.ang_a, wa);
            }
            if (vb) {
                jv += dot3(d.lin_b, vb) + dot3(d.ang_b, wb);
            }
            d.bias -= (1.0 - damping) * jv;
        }
        d.bound_row = -1;
        row_desc_.push_back(d);
    }
    // warm start: this joint's impulses of the last cone step; none for
    // RF_SOLVER_SI, as stock's convertJoint (a ragdoll pile's rows
    // started warm gave back twice stock's recovery energy at ten sweeps)
    const WarmSpan *w = joint_warm_index_.find(c);
    const bool warm = cfg.warm_start && cfg.solver != RF_SOLVER_SI &&
                      w != nullptr && w->count == n;
    for (int j = 0; j < n; ++j) {
        row_gamma_.push_back(warm ? joint_warm_[w->first + j] : 0.0);
    }
    joints_.push_back(JointRows{c, (int)first, n});
}

// Bullet hands the bodies over island by island, in an order unrelated
// to where they are (neighbours in a settled pile of 5,000 spheres were
// 1,050 indices apart on average).  The world's object array is the order
// of creation, which scenes mostly build in space (a pile layer by layer,
// a wall row by row); bodies in that order, and contacts by their first
// body (cone_step), make the neighbours' data lie near each other in the
// problem.  Anything unexpected (an object outside the array, twice)
// keeps Bullet's order.
void ConeSolver::order_bodies()
{
    if (world == nullptr) {
        return;
    }
    const int n = world->getNumCollisionObjects();
    body_slots_.assign((size_t)n, nullptr);
    for (btCollisionObject *obj : in_bodies_) {
        const int i = obj->getWorldArrayIndex();
        if (i < 0 || i >= n || body_slots_[(size_t)i] != nullptr) {
            return;
        }
        body_slots_[(size_t)i] = obj;
    }
    size_t k = 0;
    for (btCollisionObject *obj : body_slots_) {
        if (obj != nullptr) {
            in_bodies_[k++] = obj;
        }
    }
}

// Below this many manifold points the contact slots are filled (and the
// impulses written back) on one thread: a parallel region costs a few
// microseconds, a point 0.1-0.5.  The core's own threshold is 512 items.
constexpr size_t kParallelPoints = 512;

int ConeSolver::build_threads() const
{
    return step_threads_;
}

// Every this many steps the thread count not in use is tried for one.
constexpr unsigned kThreadProbeEvery = 16;

void ConeSolver::choose_threads()
{
#ifdef _OPENMP
    const int team = cfg.threads > 0 ? cfg.threads : omp_get_max_threads();
#else
    const int team = 1;
#endif
    if (cfg.threads > 0 || team <= 1) {
        step_threads_ = team;
        thread_probe_ = -1;
        return;
    }
    int use = thread_choice_;
    if (thread_cost_[0] < 0.0) {
        use = 0;
    } else if (thread_cost_[1] < 0.0) {
        use = 1;
    } else if (thread_steps_ % kThreadProbeEvery == kThreadProbeEvery - 1) {
        use = 1 - thread_choice_;
    }
    ++thread_steps_;
    thread_probe_ = use;
    step_threads_ = use == 0 ? team : 1;
}

void ConeSolver::learn_threads(double seconds, int items)
{
    if (thread_probe_ < 0 || items < (int)kParallelPoints) {
        return; // small steps run on one thread either way
    }
    const double cost = seconds / items;
    double &c = thread_cost_[thread_probe_];
    c = c < 0.0 ? cost : 0.7 * c + 0.3 * cost;
    // 5% hysteresis: noise does not flip the choice every probe
    if (thread_cost_[0] >= 0.0 && thread_cost_[1] >= 0.0) {
        if (thread_cost_[1] < 0.95 * thread_cost_[0]) {
            thread_choice_ = 1;
        } else if (thread_cost_[0] < 0.95 * thread_cost_[1]) {
            thread_choice_ = 0;
        }
    }
}

// The per-contact arrays, which add_points fills slot by slot, at n
// contacts (elements kept, none zero-filled but the new ones).
void ConeSolver::resize_contacts(size_t n)
{
    con_desc_.resize(n);
    con_point_.resize(n);
    con_manifold_.resize(n);
    con_plastic_.resize(n);
    con_split_.resize(n);
    gamma_.resize(6 * n);
}

void ConeSolver::add_points(const btContactSolverInfo &info)
{
    const size_t nms = manifold_order_.size();
    point_first_.resize(nms + 1);
    size_t total = 0;
    for (size_t k = 0; k < nms; ++k) {
        point_first_[k] = total;
        total += (size_t)manifold_order_[k].n;
    }
    point_first_[nms] = total;
    resize_contacts(total);
    slot_state_.resize(total);
    const int threads = total >= kParallelPoints ? build_threads() : 1;
    // Each thread takes a contiguous run of manifolds (so the fetch ahead
    // stays within its run) and writes only their slots and points.
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        size_t lo = 0, hi = nms;
#ifdef _OPENMP
        const size_t nt = (size_t)omp_get_num_threads();
        const size_t t = (size_t)omp_get_thread_num();
        lo = nms * t / nt;
        hi = nms * (t + 1) / nt;
#endif
        for (size_t k = lo; k < hi; ++k) {
            if (k + 2 * kPrefetchAhead < hi) {
                prefetch_manifold(manifold_order_[k + 2 * kPrefetchAhead].m);
            }
            btPersistentManifold *m = manifold_order_[k].m;
            const int a = manifold_order_[k].a, b = manifold_order_[k].b;
            const int n = manifold_order_[k].n;
            const btScalar threshold = m->getContactProcessingThreshold();
            for (int j = 0; j < n; ++j) {
                const size_t slot = point_first_[k] + (size_t)j;
                btManifoldPoint &cp = m->getContactPoint(j);
                SlotState st = kBeyond;
                if (cp.getDistance() <= threshold) {
                    st = add_point(m, j, a, b, info, slot);
                } else if (std::isnan((double)cp.getDistance())) {
                    clear_point(cp, m,
                                "a manifold point with a non-finite "
                                "distance was skipped");
                    st = kSkipped;
                }
                slot_state_[slot] = st;
            }
        }
    }
    // Drop the slots that hold no contact, keeping the order.
    size_t kept = 0;
    for (size_t i = 0; i < total; ++i) {
        if (slot_state_[i] != kAdded) {
            skipped_contacts_ += slot_state_[i] == kSkipped;
            continue;
        }
        if (kept != i) {
            con_desc_[kept] = con_desc_[i];
            con_point_[kept] = con_point_[i];
            con_manifold_[kept] = con_manifold_[i];
            con_plastic_[kept] = con_plastic_[i];
            con_split_[kept] = con_split_[i];
            std::memcpy(&gamma_[6 * kept], &gamma_[6 * i], 6 * sizeof(double));
        }
        ++kept;
    }
    resize_contacts(kept);
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
    }
    return c;
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
    body_rb_.clear();
    body_desc_.clear();
    body_dynamic_.clear();
    fixed_index_.clear();
    refused_body_ = nullptr;
    // con_desc_, con_point_, con_manifold_, con_plastic_ and gamma_ are
    // sized by add_points (not cleared: resizing keeps their elements, so
    // the slots are not zero-filled every step)
    row_desc_.clear();
    row_gamma_.clear();
    prune_object_forces();
    joints_.clear();

    // Every dynamic body handed over gets its free velocity, contacts or
    // not (a body the solver skips would freeze: Bullet adds forces only
    // here).  The fetch ahead covers the btCollisionObject part, which
    // every object handed over has and is_dynamic reads.
    order_bodies();
    const size_t nbodies = in_bodies_.size();
    for (size_t k = 0; k < nbodies; ++k) {
        if (k + kPrefetchAhead < nbodies) {
            prefetch_object(in_bodies_[k + kPrefetchAhead],
                            sizeof(btCollisionObject));
        }
        btCollisionObject *obj = in_bodies_[k];
        btRigidBody *rb;
        const Kind kind = classify(obj, &rb);
        if (kind == Kind::kDynamic) {
            dynamic_index(rb, h);
        } else if (kind == Kind::kBad) {
            hold_bad_mass(rb);
        }
    }
    // Manifolds in two passes: their sides first, then their points in
    // the order of their first dynamic body (a counting sort), so that a
    // body's contacts lie together in the problem.  The products on N
    // gather each body's contacts (plugin/jacobian.c, body_pass): in
    // Bullet's pair order they lay scattered over the whole problem.
    manifold_sides_.clear();
    const size_t nm = in_manifolds_.size();
    for (size_t k = 0; k < nm; ++k) {
        if (k + 4 * kPrefetchAhead < nm) {
            prefetch_manifold_tail(in_manifolds_[k + 4 * kPrefetchAhead]);
        }
        btPersistentManifold *m = in_manifolds_[k];
        const btCollisionObject *o0 = m->getBody0();
        const btCollisionObject *o1 = m->getBody1();
        if (dispatcher_ != nullptr && !dispatcher_->needsResponse(o0, o1)) {
            continue;
        }
        const int n = m->getNumContacts();
        if (n == 0) {
            continue;
        }
        const int a = side_index(o0, h);
        const int b = side_index(o1, h);
        if (a == kHeld || b == kHeld) {
            for (int j = 0; j < n; ++j) {
                skip_point(m->getContactPoint(j), m, nullptr);
            }
            continue;
        }
        const bool dyn_a = a != RF_WORLD && body_dynamic_[a];
        const bool dyn_b = b != RF_WORLD && body_dynamic_[b];
        if (!dyn_a && !dyn_b) {
            continue; // two fixed objects: no response (as in stock)
        }
        const int first = dyn_a && dyn_b ? std::min(a, b) : (dyn_a ? a : b);
        manifold_sides_.push_back({m, a, b, first, n});
    }
    const size_t nms = manifold_sides_.size();
    order_count_.assign(body_desc_.size() + 1, 0);
    for (const ManifoldSides &ms : manifold_sides_) {
        ++order_count_[ms.first + 1];
    }
    for (size_t k = 1; k < order_count_.size(); ++k) {
        order_count_[k] += order_count_[k - 1];
    }
    manifold_order_.resize(nms);
    for (const ManifoldSides &ms : manifold_sides_) {
        manifold_order_[order_count_[ms.first]++] = ms;
    }
    add_points(info);

    // Joints, as convertJoints: every constraint handed over is reset
    // (buildJacobian, applied impulse 0, feedback 0); enabled ones give
    // rows.
    for (btTypedConstraint *c : in_constraints_) {
        c->buildJacobian();
        c->internalSetAppliedImpulse(0);
        if (btJointFeedback *fb = c->getJointFeedback()) {
            fb->m_appliedForceBodyA.setZero();
            fb->m_appliedTorqueBodyA.setZero();
            fb->m_appliedForceBodyB.setZero();
            fb->m_appliedTorqueBodyB.setZero();
        }
    }
    for (btTypedConstraint *c : in_constraints_) {
        if (c->isEnabled()) {
            add_joint(c, info);
        }
    }

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
    const int nb = (int)body_desc_.size();
    const int nc = (int)con_desc_.size();
    const int nr = (int)row_desc_.size();
    rf_error err;
    rf_status st = rf_problem_begin_bodies(problem_, nb, nc, &err);
    for (int i = 0; st == RF_OK && i < nb; ++i) {
        st = rf_problem_set_body(problem_, i, &body_desc_[i], &err);
    }
    for (int i = 0; st == RF_OK && i < nc; ++i) {
        st = rf_problem_set_contact(problem_, i, &con_desc_[i], &err);
    }
    if (st == RF_OK) {
        st = rf_problem_begin_rows(problem_, nr, &err);
    }
    for (int j = 0; st == RF_OK && j < nr; ++j) {
        st = rf_problem_set_row(problem_, j, &row_desc_[j], &err);
    }
    rf_stats stats{};
    gamma_.insert(gamma_.end(), row_gamma_.begin(), row_gamma_.end());
    if (gamma_.empty()) {
        gamma_.resize(6); // rf_solve wants an array even when empty
    }
    const double t_solve = wall_now();
    rf_config step_cfg = cfg;
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
        st = rf_problem_body_velocity(problem_, gamma_.data(), vel_v_.data(),
                                      vel_w_.data(), &err);
    }
    if (st != RF_OK) {
        char msg[400];
        std::snprintf(msg, sizeof msg,
                      "%s; this step is solved by the previous solver",
                      err.message);
        warn(RF_BULLET_WARN_FALLBACK, msg);
        give_up_step();
        return false;
    }
    last = stats;
    last.skipped_bodies = (int)(held_.size() + held_kinematic_.size());
    last.skipped_contacts = skipped_contacts_;
    last.skipped_rows = skipped_rows_;
    write_back(info);
    split_step(info, step_cfg);
    release_held(true);
    return true;
}

// Split impulse: the deep points' recovery on pseudo-velocities
// (rf_solve_split), which move the bodies' positions over the step as
// stock's writebackVelocityAndTransform does (the angular part times
// m_splitImpulseTurnErp) and are then dropped.
void ConeSolver::split_step(const btContactSolverInfo &info,
                            const rf_config &step_cfg)
{
    bool any = false;
    for (double b : con_split_) {
        any |= b < 0.0;
    }
    if (!any) {
        return;
    }
    const size_t nb = body_desc_.size();
    split_v_.resize(3 * nb);
    split_w_.resize(3 * nb);
    rf_error err;
    if (rf_solve_split(problem_, &step_cfg, con_split_.data(), nullptr,
                       split_v_.data(), split_w_.data(), nullptr,
                       &err) != RF_OK) {
        char msg[400];
        std::snprintf(msg, sizeof msg,
                      "%s; the deep points' recovery is skipped this step",
                      err.message);
        warn(RF_BULLET_WARN_FALLBACK, msg);
        return;
    }
    const btScalar h = info.m_timeStep;
    const btScalar turn_erp = info.m_splitImpulseTurnErp;
    for (size_t i = 0; i < nb; ++i) {
        btRigidBody *rb = body_rb_[i];
        const double *v = &split_v_[3 * i], *w = &split_w_[3 * i];
        if (!body_dynamic_[i] || rb == nullptr ||
            (v[0] == 0.0 && v[1] == 0.0 && v[2] == 0.0 && w[0] == 0.0 &&
             w[1] == 0.0 && w[2] == 0.0) ||
            !finite3(v) || !finite3(w)) {
            continue;
        }
        const btVector3 push((btScalar)v[0], (btScalar)v[1], (btScalar)v[2]);
        const btVector3 turn((btScalar)w[0], (btScalar)w[1], (btScalar)w[2]);
        btTransform moved;
        btTransformUtil::integrateTransform(rb->getWorldTransform(), push,
                                            turn * turn_erp, h, moved);
        rb->setWorldTransform(moved);
    }
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

void ConeSolver::release_held(bool write)
{
    for (const Held &hb : held_) {
        if (write) {
            hb.rb->setLinearVelocity(hb.v);
            hb.rb->setAngularVelocity(hb.w);
        }
        hb.rb->setCompanionId(-1);
    }
    for (btRigidBody *rb : held_kinematic_) {
        rb->setCompanionId(-1);
    }
}

void ConeSolver::write_back(const btContactSolverInfo &info)
{
    const int nb = (int)body_desc_.size();
    const int nc = (int)con_desc_.size();
    const int threads = (size_t)nc >= kParallelPoints ? build_threads() : 1;
    int bad_bodies = 0;
#pragma omp parallel for schedule(static) num_threads(threads) \
    if (threads > 1) reduction(+ : bad_bodies)
    for (int i = 0; i < nb; ++i) {
        btRigidBody *rb = body_rb_[i];
        if (body_dynamic_[i]) {
            const double *v = &vel_v_[3 * i], *w = &vel_w_[3 * i];
            if (!finite3(v) || !finite3(w)) {
                // never NaN into Bullet: the core's output is finite for
                // finite input, so this is a bug; the body keeps its free
                // velocity and the step says so
                v = body_desc_[i].v;
                w = body_desc_[i].w;
                ++bad_bodies;
                Offender who;
                who.object = rb;
                warn(RF_BULLET_WARN_INTERNAL,
                     "the solve gave a body a non-finite velocity: it kept "
                     "its free velocity (please report this)",
                     who);
            }
            rb->setLinearVelocity(
                btVector3((btScalar)v[0], (btScalar)v[1], (btScalar)v[2]));
            rb->setAngularVelocity(
                btVector3((btScalar)w[0], (btScalar)w[1], (btScalar)w[2]));
            rb->setCompanionId(-1);
        }
    }
    last.skipped_bodies += bad_bodies;

    // Points: impulses and frame for Bullet's readers.  A manifold handed
    // over twice would list its points twice: then the points are written
    // on one thread, in order, so the last contact's impulse is the one
    // Bullet keeps.  Points of one manifold are consecutive, so one insert
    // per manifold finds a repeat.
    manifold_seen_.clear();
    const btPersistentManifold *run_m = nullptr;
    bool repeated = false;
    for (int i = 0; i < nc; ++i) {
        const btPersistentManifold *m = con_manifold_[i];
        if (m != run_m) {
            run_m = m;
            int &first = manifold_seen_.insert(m, i);
            repeated = repeated || first != i;
        }
    }
#pragma omp parallel for schedule(static)                                      \
    num_threads(threads) if (threads > 1 && !repeated)
    for (int i = 0; i < nc; ++i) {
        btManifoldPoint &cp = *con_point_[i];
        const rf_contact_desc &c = con_desc_[i];
        const double *g = gamma_.data() + 6 * i;
        cp.m_appliedImpulse = (btScalar)g[0];
        cp.m_appliedImpulseLateral1 = (btScalar)g[1];
        cp.m_appliedImpulseLateral2 = (btScalar)g[2];
        cp.m_lateralFrictionDir1.setValue((btScalar)c.t1[0], (btScalar)c.t1[1],
                                          (btScalar)c.t1[2]);
        cp.m_lateralFrictionDir2.setValue((btScalar)c.t2[0], (btScalar)c.t2[1],
                                          (btScalar)c.t2[2]);
    }
    carry_point_states(info, threads, repeated);
    // con_point_ and gamma_ now hold this step's points and impulses
    points_valid_ = true;
    point_index_stale_ = true;

    // Joints, as writeBackJoints: feedback forces and torques (impulse /
    // h, with the bodies' factors), the applied impulse (stock leaves the
    // last row's), and breaking: a row at or above the threshold disables
    // the joint.
    const double *lam = gamma_.data() + 6 * (size_t)nc;
    joint_warm_next_.clear();
    joint_warm_index_next_.clear();
    for (const JointRows &jr : joints_) {
        btTypedConstraint *c = jr.constraint;
        btJointFeedback *fb = c->getJointFeedback();
        const btScalar brk = c->getBreakingImpulseThreshold();
        // a constraint listed twice keeps its last rows (as operator[])
        joint_warm_index_next_.insert(c, WarmSpan{}) =
            WarmSpan{(int)joint_warm_next_.size(), jr.count};
        for (int j = jr.first; j < jr.first + jr.count; ++j) {
            const rf_row_desc &d = row_desc_[j];
            const btScalar l = (btScalar)lam[j];
            joint_warm_next_.push_back(lam[j]);
            if (fb) {
                const btScalar s = (btScalar)(lam[j] / info.m_timeStep);
                const btRigidBody &ra = c->getRigidBodyA();
                const btRigidBody &rb = c->getRigidBodyB();
                btVector3 la(d.lin_a[0], d.lin_a[1], d.lin_a[2]);
                btVector3 aa(d.ang_a[0], d.ang_a[1], d.ang_a[2]);
                btVector3 lb(d.lin_b[0], d.lin_b[1], d.lin_b[2]);
                btVector3 ab(d.ang_b[0], d.ang_b[1], d.ang_b[2]);
                fb->m_appliedForceBodyA += la * s * ra.getLinearFactor();
                fb->m_appliedForceBodyB += lb * s * rb.getLinearFactor();
                fb->m_appliedTorqueBodyA += aa * ra.getAngularFactor() * s;
                fb->m_appliedTorqueBodyB += ab * rb.getAngularFactor() * s;
            }
            c->internalSetAppliedImpulse(l);
            if (btFabs(l) >= brk) {
                c->setEnabled(false);
            }
        }
    }
    joint_warm_.swap(joint_warm_next_);
    joint_warm_index_.swap(joint_warm_index_next_);
}

// What each point carries to the next step (point_state.hpp): its spin
// and rolling impulses (the next warm start; Bullet keeps the normal and
// sliding ones on the point) and its plastic indentation.  A point gets a
// state only when it has something to carry (a box stack without
// rolling friction or yield allocates none): those are marked in the
// parallel pass and given one afterwards, on one thread.
namespace {
// A point's state after the step: its impulse g (the point's frame in c)
// and indentation.
void carry(PointState &st, const rf_contact_desc &c, const double g[6],
           double plastic)
{
    st.spin = g[3];
    for (int k = 0; k < 3; ++k) {
        st.roll[k] = g[4] * c.t1[k] + g[5] * c.t2[k];
    }
    st.plastic = plastic;
}
} // namespace

void ConeSolver::carry_point_states(const btContactSolverInfo &info,
                                    int threads, bool repeated)
{
    const int nc = (int)con_desc_.size();
    // the yielding points' flow (the core's rf_problem_plastic_flow)
    const double *flow = nullptr;
    if (!yield.empty() && nc > 0) {
        plastic_flow_.resize((size_t)nc);
        rf_error err;
        if (rf_problem_plastic_flow(problem_, gamma_.data(),
                                    (double)info.m_timeStep,
                                    plastic_flow_.data(), &err) == RF_OK) {
            flow = plastic_flow_.data();
        } else {
            warn(RF_BULLET_WARN_INTERNAL, err.message); // the step solved
        }
    }
    need_state_.assign((size_t)nc, 0);
    int need = 0;
#pragma omp parallel for schedule(static) num_threads(threads) \
    if (threads > 1 && !repeated) reduction(+ : need)
    for (int i = 0; i < nc; ++i) {
        const double *g = gamma_.data() + 6 * i;
        const double plastic = con_plastic_[i] + (flow ? flow[i] : 0.0);
        PointState *st = point_states_.of(*con_point_[i]);
        if (st == nullptr) {
            if (g[3] == 0.0 && g[4] == 0.0 && g[5] == 0.0 && plastic == 0.0) {
                continue;
            }
            need_state_[i] = 1;
            ++need;
            con_plastic_[i] = plastic; // kept for the pass below
            continue;
        }
        carry(*st, con_desc_[i], g, plastic);
    }
    if (need == 0) {
        return;
    }
    if (!callback_reported_ && !PointStatePool::callback_installed()) {
        callback_reported_ = true;
        warn(RF_BULLET_WARN_POINT_STATE,
             "gContactDestroyedCallback was replaced after attaching: the "
             "contact points' carried state (spin and rolling warm start, "
             "plastic indentation) is no longer released by the plugin; "
             "install the application's callback before attaching, or call "
             "the previous one from it");
    }
    for (int i = 0; i < nc; ++i) {
        if (!need_state_[i]) {
            continue;
        }
        btManifoldPoint &cp = *con_point_[i];
        PointState *st = point_states_.of(cp);
        if (st == nullptr) { // not attached by a repeat of this point
            if (point_states_.foreign(cp)) {
                Offender who;
                who.manifold = con_manifold_[i];
                warn(RF_BULLET_WARN_POINT_STATE,
                     "a contact point carries the application's "
                     "m_userPersistentData: its spin and rolling warm start "
                     "and plastic indentation are not kept from step to step",
                     who);
                continue;
            }
            st = point_states_.attach(cp);
            if (st == nullptr) {
                Offender who;
                who.manifold = con_manifold_[i];
                warn(RF_BULLET_WARN_POINT_STATE,
                     "out of memory for a contact point's carried state: its "
                     "warm start and indentation start from 0",
                     who);
                continue;
            }
        }
        carry(*st, con_desc_[i], gamma_.data() + 6 * i, con_plastic_[i]);
    }
}

const double *ConeSolver::point_impulse(const btManifoldPoint *pt) const
{
    if (!points_valid_) {
        return nullptr;
    }
    if (point_index_stale_) {
        // first call since the cone step: index its points (a point listed
        // twice keeps its first contact)
        const int nc = (int)con_point_.size();
        point_index_.clear();
        point_index_.reserve((size_t)nc);
        for (int i = 0; i < nc; ++i) {
            point_index_.insert(con_point_[i], i);
        }
        point_index_stale_ = false;
    }
    const int *i = point_index_.find(pt);
    if (i == nullptr) {
        return nullptr;
    }
    return gamma_.data() + 6 * (size_t)*i;
}

} // namespace rfshim
