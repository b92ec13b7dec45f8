// ConeSolver's bodies stage (cone_solver.hpp): Bullet's rigid bodies into
// the problem's bodies (free velocity, inverse mass and inertia with the
// linear and angular factors, as stock's convertBodies), the held bodies
// the step cannot take, the problem's body order, and the per-object
// forces (cohesion, yield).
#include "cone_solver.hpp"
#include "shim_util.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#ifdef _OPENMP
#include <omp.h>
#endif

namespace rfshim {

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
    body_desc_of(rb, h, d);
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

// A dynamic body's problem data: inverse mass and inertia with its linear
// and angular factors, and its free velocity, as stock's initSolverBody
// and convertBodies compute them.  Sets refused_body_ for an angular
// factor without a cone counterpart.
void ConeSolver::body_desc_of(btRigidBody *rb, btScalar h, rf_body_desc &d)
{
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
    free_velocity(rb, h, d);
}

// The body's free velocity v* (d.v, d.w): its velocity after the
// step's external forces and gyroscopic terms, as stock's initSolverBody
// (m_externalForceImpulse, m_externalTorqueImpulse) and the gyroscopic
// flags of convertBodies give it.
void ConeSolver::free_velocity(btRigidBody *rb, btScalar h, rf_body_desc &d)
{
    const btScalar im = rb->getInvMass();
    const btMatrix3x3 &I = rb->getInvInertiaTensorWorld();
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

// Every dynamic body handed over, into the problem (dynamic_index), in the
// order order_bodies gives.
void ConeSolver::gather_bodies(btScalar h)
{
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
}

} // namespace rfshim
