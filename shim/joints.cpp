// ConeSolver's joints stage (cone_solver.hpp): Bullet's typed constraints
// into the problem's scalar rows, from getInfo1/getInfo2 as stock's
// convertJoint reads them.
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

// One joint: its rows from getInfo1/getInfo2, filled exactly as
// btSequentialImpulseConstraintSolver::convertJoint fills them (defaults
// lo/hi = -/+inf, cfm = m_globalCfm, rhs = 0; erp, fps, damping from the
// solver info), then translated:
//   - bounds clamped to the breaking threshold (as stock);
//   - Bullet solves Dl = rhs' - cfm l - J Dv / d (d = J M^-1 J^T), whose
//     fixed point is J v = err + (1 - damping) J v* - cfm d l: so the
//     row's bias is -err - (1 - damping) J v* and its compliance cfm d,
//     with d computed from Bullet's own inverse masses as stock does;
//     damping is the world's m_damping unless the joint's getInfo2
//     wrote its own (btPoint2PointConstraint: m_setting.m_damping).
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
    if (!fetch_joint_rows(c, n, info)) {
        return;
    }

    const size_t first = row_desc_.size();
    for (int j = 0; j < n; ++j) {
        row_desc_.push_back(joint_row(c, j, a, b));
    }
    // Warm start (joint_rows_warm): RF_SOLVER_SI starts the rows at 0, as
    // stock's convertJoint does (3.24: m_appliedImpulse = 0 for every
    // row); the solvers that run to a tolerance start from this joint's
    // impulses of the last cone step.
    const WarmSpan *w = joint_rows_warm() ? joint_warm_index_.find(c) : nullptr;
    const bool warm = w != nullptr && w->count == n;
    for (int j = 0; j < n; ++j) {
        const double x = warm ? joint_warm_[w->first + j] : 0.0;
        row_gamma_.push_back(std::isfinite(x) ? x : 0.0);
    }
    joints_.push_back(JointRows{c, (int)first, n});
}

// Row j of constraint c (row_buf_[j], fetched) as the core's row between
// sides a and b: bounds clamped to the breaking threshold, Bullet's cfm
// as a compliance, and the bias with the damping's share of J v* (the
// comment above add_joint).
rf_row_desc ConeSolver::joint_row(btTypedConstraint *c, int j, int a, int b)
{
    const JointRowBuf &r = row_buf_[j];
    const btRigidBody &rbA = c->getRigidBodyA();
    const btRigidBody &rbB = c->getRigidBodyB();
    rf_row_desc d{};
    d.body_a = a;
    d.body_b = b;
    to3(r.lin1, d.lin_a);
    to3(r.ang1, d.ang_a);
    to3(r.lin2, d.lin_b);
    to3(r.ang2, d.ang_b);
    const double brk = (double)c->getBreakingImpulseThreshold();
    double lo = r.lo, hi = r.hi;
    if (hi >= brk) {
        hi = brk;
    }
    if (lo <= -brk) {
        lo = -brk;
    }
    d.lo = lo <= -(double)SIMD_INFINITY ? -INFINITY : lo;
    d.hi = hi >= (double)SIMD_INFINITY ? INFINITY : hi;
    double jdiag =
        (double)(r.lin1.dot(r.lin1) * rbA.getInvMass() +
                 r.ang1.dot(rbA.getInvInertiaTensorWorld() * r.ang1) +
                 r.lin2.dot(r.lin2) * rbB.getInvMass() +
                 r.ang2.dot(rbB.getInvInertiaTensorWorld() * r.ang2));
    double cfm = (double)r.cfm;
    if (!(cfm >= 0.0) || !std::isfinite(cfm)) {
        Offender who;
        who.constraint = c;
        who.row = j;
        warn(RF_BULLET_WARN_JOINT,
             "a joint row with a negative or non-finite cfm was given cfm 0",
             who);
        cfm = 0.0;
    }
    // A solve to a budget of its own (converged) meets every row exactly,
    // and a joint set that cannot be met (nearly dependent rows whose
    // Baumgarte errors disagree: Bullet's Bridge, planks 0.84 m apart on
    // joints that want 1 m) then gets impulses that grow without bound
    // (a plank at 560 m/s).  Stock's few sweeps never resolve those
    // directions.  A relative compliance on the rows without bounds (the
    // ones such a set can drive without limit; a motor's or a limit's
    // bounded row stays stiff) bounds them: the Bridge's fastest plank at
    // 2e-3 17 m/s, at 3e-3 11.8 m/s, at 1e-2 8.9 m/s (stock 8.9), while a
    // hanging chain of ten links, which can be met, strays 0.49, 0.74 and
    // 2.45 mm from its joints (test_bullet_joints asserts 1 mm):
    // RF_BULLET_CONVERGED_JOINT_CFM is 3e-3 (docs/bullet.md,
    // "Converged").
    const bool bilateral = d.lo == -INFINITY && d.hi == INFINITY;
    if (bilateral && cfg.max_iter != RF_BULLET_WORLD_ITERATIONS &&
        cfm < RF_BULLET_CONVERGED_JOINT_CFM) {
        cfm = RF_BULLET_CONVERGED_JOINT_CFM;
    }
    d.cfm = std::fabs(jdiag) > (double)SIMD_EPSILON ? cfm * jdiag : 0.0;
    d.bias = -(double)r.rhs;
    // the joint's own damping where its getInfo2 wrote one (a
    // btPoint2PointConstraint's m_setting.m_damping), else the world's
    const double damping = (double)joint_damping_;
    if (damping != 1.0) {
        double jv = 0.0;
        if (a != RF_WORLD) {
            jv +=
                dot3(d.lin_a, body_desc_[a].v) + dot3(d.ang_a, body_desc_[a].w);
        }
        if (b != RF_WORLD) {
            jv +=
                dot3(d.lin_b, body_desc_[b].v) + dot3(d.ang_b, body_desc_[b].w);
        }
        d.bias -= (1.0 - damping) * jv;
    }
    d.bound_row = -1;
    return d;
}

// The n rows of constraint c from getInfo1/getInfo2 into row_buf_, with
// the defaults stock's convertJoint gives them (lo/hi = -/+inf, cfm =
// m_globalCfm, rhs = 0).  False, with the rows counted as skipped and a
// warning, when any row is not finite (the joint gets no impulse).
bool ConeSolver::fetch_joint_rows(btTypedConstraint *c, int n,
                                  const btContactSolverInfo &info)
{
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
    info2.fps = 1 / info.m_timeStep;
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
    // stock's convertJoint reads the damping back from info2 after
    // getInfo2, for all of the joint's rows
    joint_damping_ = info2.m_damping;
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
            return false;
        }
    }
    return true;
}

// Every constraint handed over, reset and, when enabled, into the
// problem's rows (add_joint).
void ConeSolver::gather_joints(const btContactSolverInfo &info)
{
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
    // A joint's own iteration count (setOverrideNumSolverIterations):
    // stock sweeps max(m_numIterations, the largest) and visits each
    // joint's rows only in its first count of them.  The budget is
    // honoured (step_config); a joint that asks for fewer sweeps than the
    // step makes is not: it takes part in all, with a message.
    joint_iterations_ = 0;
    for (btTypedConstraint *c : in_constraints_) {
        if (c->isEnabled()) {
            add_joint(c, info);
            const int n = c->getOverrideNumSolverIterations();
            joint_iterations_ = std::max(joint_iterations_, n);
            if (n > 0 && n < info.m_numIterations &&
                cfg.max_iter == RF_BULLET_WORLD_ITERATIONS) {
                Offender who;
                who.constraint = c;
                warn(RF_BULLET_WARN_SETTING,
                     "a joint's own iteration count "
                     "(setOverrideNumSolverIterations) below the world's is "
                     "not honoured: its rows take part in every sweep",
                     who);
            }
        }
    }
}

} // namespace rfshim
