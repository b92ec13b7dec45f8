// ConeSolver's write-back stage (cone_solver.hpp): the solved velocities
// and impulses into Bullet (bodies, points, joints, joint feedback and
// breaking), the split impulse's position correction, and what the points
// carry to the next step.
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

void ConeSolver::write_back(const btContactSolverInfo &info)
{
    const int nc = contact_count();
    const int threads = (size_t)nc >= kParallelPoints ? build_threads() : 1;
    write_bodies(threads);
    write_points(info, threads);
    write_joints(info);
}

// The bodies' velocities after the solve into Bullet.
void ConeSolver::write_bodies(int threads)
{
    const int nb = (int)body_desc_.size();
    // body i's velocities; 1 when the solve's were not finite
    auto write = [&](int i) -> int {
        btRigidBody *rb = body_rb_[i];
        if (!body_dynamic_[i]) {
            return 0;
        }
        int bad = 0;
        const double *v = &vel_v_[3 * i], *w = &vel_w_[3 * i];
        if (!finite3(v) || !finite3(w)) {
            // never NaN into Bullet: the core's output is finite for
            // finite input, so this is a bug; the body keeps its free
            // velocity and the step says so
            v = body_desc_[i].v;
            w = body_desc_[i].w;
            bad = 1;
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
        return bad;
    };
    last.skipped_bodies += sum_over(nb, threads, write);
}

// The points' impulses (and their frames where a manifold was listed
// twice), and what they carry to the next step.
void ConeSolver::write_points(const btContactSolverInfo &info, int threads)
{
    const int nc = contact_count();
    // Points: impulses for Bullet's readers (add_point wrote the frame).
    // A manifold handed over twice lists its points twice: then each
    // point's listings are summed into its first (fold_repeated_points),
    // which alone is written, with its frame, on one thread
    // (gather_contacts finds repeats; add_point leaves their frames to
    // this pass, so that every listing's warm start reads last step's
    // frame).
    const bool repeated = manifold_repeated_;
    // what the points carry (carry_point_state) in the same pass: one
    // visit per point (the points of a large scene are cache misses)
    const double *flow = plastic_flow(info);
    if (contacts_scaled_) {
        // from the scaled rows' variables to impulses along (and torques
        // about) the unit tangents, which the points, their carried state
        // and rf_bullet_point_impulse hold
        for (size_t i = 0; i < (size_t)nc; ++i) {
            const double *ax = &con_axis_[4 * i];
            gamma_[6 * i + 1] *= ax[0];
            gamma_[6 * i + 2] *= ax[1];
            gamma_[6 * i + 4] *= ax[2];
            gamma_[6 * i + 5] *= ax[3];
        }
    }
    if (repeated) {
        fold_repeated_points(flow != nullptr);
    }
    need_state_.assign((size_t)nc, 0);
    // point i's impulses and carried state; 1 when it needs a state
    auto write = [&](int i) -> int {
        if (i + (int)kWriteAhead < nc) {
            prefetch_point_impulses(con_point_[i + kWriteAhead]);
        }
        if (repeated && point_repeat_[i]) {
            return 0; // folded into the point's first listing
        }
        btManifoldPoint &cp = *con_point_[i];
        const double *g = gamma_.data() + 6 * i;
        cp.m_appliedImpulse = (btScalar)g[0];
        cp.m_appliedImpulseLateral1 = (btScalar)g[1];
        cp.m_appliedImpulseLateral2 = (btScalar)g[2];
        if (repeated) {
            const double *f = cols_.frame + 9 * (size_t)i;
            write_point_frame(cp, f + 3, f + 6);
        }
        return carry_point_state(i, flow);
    };
    const int need = sum_over(nc, repeated ? 1 : threads, write);
    if (need > 0) {
        attach_point_states();
    }
    // con_point_ and gamma_ now hold this step's points and impulses
    points_valid_ = true;
    point_index_stale_ = !repeated; // fold_repeated_points indexed them
}

// Joints, as writeBackJoints: feedback forces and torques (impulse /
// h, with the bodies' factors), the applied impulse (stock leaves the
// last row's), and breaking: a row at or above the threshold disables
// the joint.
void ConeSolver::write_joints(const btContactSolverInfo &info)
{
    const int nc = contact_count();
    const double *lam = gamma_.data() + 6 * (size_t)nc;
    joint_warm_next_.clear();
    joint_warm_index_next_.clear();
    const bool keep = joint_rows_warm();
    for (const JointRows &jr : joints_) {
        btTypedConstraint *c = jr.constraint;
        btJointFeedback *fb = c->getJointFeedback();
        const btScalar brk = c->getBreakingImpulseThreshold();
        // a constraint listed twice keeps its last rows (as operator[])
        if (keep) {
            joint_warm_index_next_.insert(c, WarmSpan{}) =
                WarmSpan{(int)joint_warm_next_.size(), jr.count};
            joint_warm_next_.insert(joint_warm_next_.end(), lam + jr.first,
                                    lam + jr.first + jr.count);
        }
        for (int j = jr.first; j < jr.first + jr.count; ++j) {
            const rf_row_desc &d = row_desc_[j];
            const btScalar l = (btScalar)lam[j];
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
// A point's state after the step: its impulse g (in the point's frame, n t1 t2)
// and indentation.
void carry(PointState &st, const double *frame, const double g[6],
           double plastic)
{
    const double *t1 = frame + 3, *t2 = frame + 6;
    st.spin = g[3];
    for (int k = 0; k < 3; ++k) {
        st.roll[k] = g[4] * t1[k] + g[5] * t2[k];
    }
    st.plastic = plastic;
}
} // namespace

// The yielding points' flow this step (the core's
// rf_problem_plastic_flow), or nullptr when nothing yields.
const double *ConeSolver::plastic_flow(const btContactSolverInfo &info)
{
    const int nc = contact_count();
    if (yield.empty() || nc == 0) {
        return nullptr;
    }
    plastic_flow_.resize((size_t)nc);
    rf_error err;
    if (rf_problem_plastic_flow(problem_, gamma_.data(),
                                (double)info.m_timeStep, plastic_flow_.data(),
                                &err) != RF_OK) {
        warn(RF_BULLET_WARN_INTERNAL, err.message); // the step solved
        return nullptr;
    }
    return plastic_flow_.data();
}

// Contact i's carried state into its point's; 1 when the point has
// something to carry and no state yet (need_state_[i] set, its
// indentation kept in con_plastic_[i] for attach_point_states).
int ConeSolver::carry_point_state(int i, const double *flow)
{
    const double *g = gamma_.data() + 6 * i;
    const double plastic = con_plastic_[i] + (flow ? flow[i] : 0.0);
    PointState *st = con_state_[i]; // as add_point found it
    if (st == nullptr) {
        if (g[3] == 0.0 && g[4] == 0.0 && g[5] == 0.0 && plastic == 0.0) {
            return 0;
        }
        need_state_[i] = 1;
        con_plastic_[i] = plastic;
        return 1;
    }
    carry(*st, cols_.frame + 9 * (size_t)i, g, plastic);
    return 0;
}

// The points marked in need_state_ get a state (serially: the pool is
// not thread-safe), and their carried values.
void ConeSolver::attach_point_states()
{
    const int nc = contact_count();
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
        carry(*st, cols_.frame + 9 * (size_t)i, gamma_.data() + 6 * i,
              con_plastic_[i]);
    }
}

// A manifold handed over twice lists its points twice: each point was
// two contacts of the solve, the same constraint, and the bodies received
// both impulses.  The point's impulse is their sum: folded into its first
// listing (gamma_, and the plastic flow), which write_points then writes
// to the point and carries, and rf_bullet_point_impulse reports; the
// later listings are marked in point_repeat_ and skipped.  Both listings
// have the same frame (add_point built them from the same point and the
// same old frame), so the sum is taken component by component.
void ConeSolver::fold_repeated_points(bool with_flow)
{
    const int nc = (int)con_point_.size();
    point_repeat_.assign((size_t)nc, 0);
    index_points();
    for (int i = 0; i < nc; ++i) {
        const int f = *point_index_.find(con_point_[i]); // first listing
        if (f == i) {
            continue;
        }
        point_repeat_[i] = 1;
        for (int k = 0; k < 6; ++k) {
            gamma_[6 * (size_t)f + k] += gamma_[6 * (size_t)i + k];
        }
        if (with_flow) { // plastic_flow_ holds this step's nc entries
            plastic_flow_[(size_t)f] += plastic_flow_[(size_t)i];
        }
    }
}

// point_index_: each point of the step to its contact, the first listing
// of a point listed twice (insert keeps the value already there).
void ConeSolver::index_points() const
{
    const int nc = (int)con_point_.size();
    point_index_.clear();
    point_index_.reserve((size_t)nc);
    for (int i = 0; i < nc; ++i) {
        point_index_.insert(con_point_[i], i);
    }
    point_index_stale_ = false;
}

const double *ConeSolver::point_impulse(const btManifoldPoint *pt) const
{
    if (!points_valid_) {
        return nullptr;
    }
    if (point_index_stale_) {
        index_points(); // first call since the cone step
    }
    const int *i = point_index_.find(pt);
    if (i == nullptr) {
        return nullptr;
    }
    return gamma_.data() + 6 * (size_t)*i;
}

} // namespace rfshim
