// ConeSolver's contacts stage (cone_solver.hpp): Bullet's manifold points
// into the problem's 6D contacts (frame, arms, coefficients, biases,
// warm start), filled in parallel over manifolds.
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

static bool plane_ellipse(const btCollisionObject *o0,
                          const btCollisionObject *o1, int mode,
                          const rf_contact_desc &c, double *cs, double *sn,
                          double s[2]);
static void turn_frame(rf_contact_desc &c, double cs, double sn);

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
// of the two scalings vanishes), or for a zero scaling.  Scalings of
// several body axes are the general ellipse (rolling_ellipse).  Returns
// whether the rolling part fixed the frame (t1 along its axis).
bool ConeSolver::rolling_anisotropy(const btCollisionObject *o0,
                                    const btCollisionObject *o1,
                                    rf_contact_desc &c, double roll[2])
{
    for (const btCollisionObject *o : {o0, o1}) {
        if (!o->hasAnisotropicFriction(
                btCollisionObject::CF_ANISOTROPIC_ROLLING_FRICTION)) {
            continue;
        }
        const btVector3 &s = o->getAnisotropicFriction();
        if ((s[0] != 0) + (s[1] != 0) + (s[2] != 0) >= 2) {
            return rolling_ellipse(o0, o1, c, roll);
        }
    }
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
            return false;
        }
        const btVector3 e = o->getWorldTransform().getBasis().getColumn(k_axis);
        if (have && btFabs(axis.dot(e)) < (btScalar)1e-3) {
            c.rho = 0.0;
            return false;
        }
        axis = e;
        have = true;
    }
    if (!have) {
        return false;
    }
    double e[3];
    to3(axis, e);
    const double en = dot3(e, c.n);
    for (int k = 0; k < 3; ++k) {
        e[k] -= en * c.n[k];
    }
    if (!(dot3(e, e) > 1e-6) || !normalize3(e)) {
        c.rho = 0.0;
        return false;
    }
    std::memcpy(c.t1, e, sizeof e);
    cross3(c.n, c.t1, c.t2);
    c.flags |= RF_CONTACT_ROLL_T1;
    return true;
}

// Anisotropic rolling friction with a scaling of several body axes: the
// rolling ellipse (plane_ellipse, as the sliding one), t1 along its first
// axis and its semi-axes as the contact's rolling scales
// (rf_problem_set_rolling_scales).  A degenerate ellipse, its second
// semi-axis under 1e-3 of the first (stock drops a row that short), is
// the segment along the first axis, RF_CONTACT_ROLL_T1 with rho times
// the first; none at all, no rolling friction.
bool ConeSolver::rolling_ellipse(const btCollisionObject *o0,
                                 const btCollisionObject *o1,
                                 rf_contact_desc &c, double roll[2])
{
    double cs, sn, sv[2];
    if (!plane_ellipse(o0, o1,
                       btCollisionObject::CF_ANISOTROPIC_ROLLING_FRICTION, c,
                       &cs, &sn, sv)) {
        return false;
    }
    const double top = std::fmax(sv[0], sv[1]);
    if (!(top > 1e-3)) {
        c.rho = 0.0;
        return false;
    }
    if (sv[1] < 1e-3 * top || sv[0] < 1e-3 * top) {
        if (sv[0] < sv[1]) { // the long axis is the second: t1 along it
            const double t = cs;
            cs = -sn;
            sn = t;
        }
        turn_frame(c, cs, sn);
        c.rho *= top;
        c.flags |= RF_CONTACT_ROLL_T1;
        return true;
    }
    turn_frame(c, cs, sn);
    roll[0] = sv[0];
    roll[1] = sv[1];
    return true;
}

// The ellipse that Bullet's anisotropic scaling (mode: CF_ANISOTROPIC_
// FRICTION or CF_ANISOTROPIC_ROLLING_FRICTION) of o0 and o1 makes of a
// round friction limit at a contact with frame (n, t1, t2).  Stock scales
// each row's direction d to A d, A = A_1 A_0, A_i = B_i diag(s_i) B_i^T
// (applyAnisotropicFriction: body 0, then body 1; s_i its
// getAnisotropicFriction(), B_i its basis), without renormalising, and
// keeps the row's clamp (mu gn, rho gn): the limit along a unit tangent
// t is scaled by |A t| (DESIGN.md, Bullet facts).  On the contact plane A
// is T (2 x 2 in (t1, t2): T_kl = t_k . A t_l), which maps the disc onto
// an ellipse: its axes are T's left singular vectors (the eigenvectors of
// T T^T) and its semi-axes the disc's radius times the singular values.
// The first axis is cs t1 + sn t2, the second n x that; s[0], s[1] the
// singular values along them.  A's normal component (stock's scaled row
// may tilt out of the plane) is dropped.  False for a non-finite basis.
static bool plane_ellipse(const btCollisionObject *o0,
                          const btCollisionObject *o1, int mode,
                          const rf_contact_desc &c, double *cs, double *sn,
                          double s[2])
{
    const btVector3 t[2] = {
        btVector3((btScalar)c.t1[0], (btScalar)c.t1[1], (btScalar)c.t1[2]),
        btVector3((btScalar)c.t2[0], (btScalar)c.t2[1], (btScalar)c.t2[2])};
    double T[2][2];
    for (int l = 0; l < 2; ++l) {
        btVector3 d = t[l]; // A d, as stock: body 0's scaling, then body 1's
        for (const btCollisionObject *o : {o0, o1}) {
            if (o->hasAnisotropicFriction(mode)) {
                const btMatrix3x3 &B = o->getWorldTransform().getBasis();
                d = B * ((d * B) * o->getAnisotropicFriction());
            }
        }
        for (int k = 0; k < 2; ++k) {
            T[k][l] = (double)t[k].dot(d);
        }
    }
    // T T^T = (a b; b e): its eigenvectors and eigenvalues
    const double a = T[0][0] * T[0][0] + T[0][1] * T[0][1];
    const double b = T[0][0] * T[1][0] + T[0][1] * T[1][1];
    const double e = T[1][0] * T[1][0] + T[1][1] * T[1][1];
    const double phi = 0.5 * std::atan2(2.0 * b, a - e);
    *cs = std::cos(phi);
    *sn = std::sin(phi);
    s[0] = std::sqrt(
        std::fmax(0.0, *cs * *cs * a + 2 * *cs * *sn * b + *sn * *sn * e));
    s[1] = std::sqrt(
        std::fmax(0.0, *sn * *sn * a - 2 * *cs * *sn * b + *cs * *cs * e));
    return std::isfinite(s[0]) && std::isfinite(s[1]);
}

// c's frame turned so that t1 = cs t1 + sn t2 (t2 = n x t1).
static void turn_frame(rf_contact_desc &c, double cs, double sn)
{
    double t1[3];
    for (int k = 0; k < 3; ++k) {
        t1[k] = cs * c.t1[k] + sn * c.t2[k];
    }
    std::memcpy(c.t1, t1, sizeof t1);
    cross3(c.n, c.t1, c.t2);
}

// Anisotropic sliding friction (CF_ANISOTROPIC_FRICTION on either
// object): t1 along the ellipse's first axis (plane_ellipse), and the
// singular values as the contact's sliding scales (rf_problem_set_
// sliding_scales): the exact elliptic cone.  Both values zero: no sliding
// friction (stock's rows vanish too); one of them zero: 1e-6 of the other
// (the core wants both > 0: friction along that axis is then a millionth
// of the other's).
bool ConeSolver::sliding_anisotropy(const btCollisionObject *o0,
                                    const btCollisionObject *o1,
                                    rf_contact_desc &c, double scale[2])
{
    double cs, sn, sv[2];
    if (!plane_ellipse(o0, o1, btCollisionObject::CF_ANISOTROPIC_FRICTION, c,
                       &cs, &sn, sv)) {
        return false; // a non-finite transform: the point is skipped later
    }
    const double top = std::fmax(sv[0], sv[1]);
    if (!(top > 1e-12)) {
        c.mu = 0.0;
        return false;
    }
    turn_frame(c, cs, sn);
    scale[0] = std::fmax(sv[0], 1e-6 * top);
    scale[1] = std::fmax(sv[1], 1e-6 * top);
    return !(scale[0] == 1.0 && scale[1] == 1.0);
}

// The frame and sliding scales of a point with anisotropic sliding
// friction (sliding_anisotropy).  A point whose rolling is anisotropic
// too (rolled_frame: RF_CONTACT_ROLL_T1, or rolling scales, its t1 along
// the rolling ellipse's axis) keeps that frame when the sliding
// ellipse's axes lie along it or across it (the scales then in that
// order), or when the sliding ellipse is within 1% of a circle (then the
// circle of its mean radius); otherwise the frame cannot serve both, and
// the sliding cone stays round with mu times the ellipse's mean radius
// sqrt(s_u s_w) (its area), with a warning.
void ConeSolver::sliding_frame(const btCollisionObject *o0,
                               const btCollisionObject *o1,
                               const btPersistentManifold *m, bool rolled_frame,
                               rf_contact_desc &c, double slide[2])
{
    if (!rolled_frame) {
        sliding_anisotropy(o0, o1, c, slide);
        return;
    }
    rf_contact_desc e = c;
    double s[2] = {1.0, 1.0};
    sliding_anisotropy(o0, o1, e, s);
    c.mu = e.mu; // 0 when both scales vanished
    if (std::fabs(s[0] - s[1]) <= 1e-2 * std::fmax(s[0], s[1])) {
        // within 1% a circle (a scaling round in the ground's plane meets
        // a contact whose normal leans a little off it): the circle of
        // its mean radius, in any frame
        slide[0] = slide[1] = std::sqrt(s[0] * s[1]);
        return;
    }
    const double along = std::fabs(dot3(e.t1, c.t1));
    if (along >= 1.0 - 1e-9) {
        slide[0] = s[0];
        slide[1] = s[1];
    } else if (along <= 1e-9) {
        slide[0] = s[1];
        slide[1] = s[0];
    } else {
        c.mu *= std::sqrt(s[0] * s[1]);
        Offender who;
        who.manifold = m;
        warn(RF_BULLET_WARN_ANISOTROPY,
             "anisotropic sliding and rolling friction with axes that are "
             "neither along nor across each other at one point: the rolling "
             "axis keeps the frame, and the sliding cone is round with mu "
             "times the ellipse's mean radius",
             who);
    }
}

// The point's anisotropic friction into c and axis (s_u, s_w, r_u,
// r_w): the rolling part first (it may fix the frame), then the sliding
// part.  A point with the application's own friction directions
// (a conveyor) keeps its frame: the anisotropy is ignored, with a
// message.
void ConeSolver::anisotropy(const btCollisionObject *o0,
                            const btCollisionObject *o1,
                            const btPersistentManifold *m, bool user_dirs,
                            rf_contact_desc &c, double axis[4])
{
    const int both = btCollisionObject::CF_ANISOTROPIC_FRICTION |
                     btCollisionObject::CF_ANISOTROPIC_ROLLING_FRICTION;
    const bool any =
        o0->hasAnisotropicFriction(both) || o1->hasAnisotropicFriction(both);
    if (!any) {
        return;
    }
    if (user_dirs) {
        Offender who;
        who.manifold = m;
        warn(RF_BULLET_WARN_ANISOTROPY,
             "anisotropic friction is ignored at a point with "
             "application-set friction directions (conveyor)",
             who);
        return;
    }
    const bool rolled = rolling_anisotropy(o0, o1, c, axis + 2);
    if (o0->hasAnisotropicFriction(
            btCollisionObject::CF_ANISOTROPIC_FRICTION) ||
        o1->hasAnisotropicFriction(
            btCollisionObject::CF_ANISOTROPIC_FRICTION)) {
        sliding_frame(o0, o1, m, rolled, c, axis);
    }
}

// The share of the normal's warm-start factor that SI's friction parts
// (sliding, spin, rolling) start with.  Stock 3.24 starts its friction
// rows at 0; a friction start holds a resting body's friction from the
// last step, which joints and stacks need at a few sweeps (a pinned
// 10-link chain on the ground, 10 sweeps: joint error 0.37 mm with the
// whole 0.85, 0.91 mm at 0.5, 1.23 mm with none; stock 0.09 mm with its
// one friction direction per point; the twenty-fifth round's library:
// 0.85 mm at 0.6, 1.16 mm with none).  But above about 0.65 of the last
// impulse, BenchmarkDemo's dropped columns of four boxes stay tilted on
// an edge for half a second before they rock back, and the scene sleeps
// 30% later than stock (quick falling boxes, 5 sweeps, five runs with
// gravity perturbed by 1e-5: asleep at steps 262-272 at factor 0.72,
// 201-202 at 0.6 and 0.5, stock 202-203).  0.6 x 0.85 = 0.51 keeps clear
// of that edge.  Measured again in the twenty-fifth round, that edge is
// gone (the whole factor: the quick scenes sleep at the same steps or
// sooner, medians of eight copies), but kept awake (DISABLE_DEACTIVATION,
// `rfbench_scenes --no-sleep`) the quick falling boxes creep six times as
// far at the whole factor (73.8 against 12.0 mm mean over steps 600-1200)
// while the quick pyramid creeps half as far (9.5 against 19.5 mm); with
// none their leaning columns stop swaying, but the pyramids creep 1.5x as
// far and the pinned chain above misses its 1 mm (1.16 mm).  No share is
// best everywhere: 0.6 stays (docs/bullet-scenes.md, "Kept awake").
constexpr double kSiFrictionWarmShare = 0.6;

static bool point_frame(const btManifoldPoint &cp, rf_contact_desc &c);
static double restitution_speed(const btManifoldPoint &cp,
                                const btPersistentManifold *m,
                                const btContactSolverInfo &info,
                                const btVector3 &ra, const btVector3 &rb,
                                double e_rest, double *vn_out);

ConeSolver::SlotState ConeSolver::add_point(btPersistentManifold *m, int j,
                                            int a, int b,
                                            const btContactSolverInfo &info,
                                            size_t slot)
{
    btManifoldPoint &cp = m->getContactPoint(j);
    const btCollisionObject *o0 = m->getBody0();
    const btCollisionObject *o1 = m->getBody1();
    const double h = info.m_timeStep;

    // built here, in cache, and written into the problem's columns once
    // the point is known good (rf_contact_columns_put); the fields that not
    // every point sets are zeroed one by one (a memset of the whole 272 bytes
    // was 9% of add_point)
    rf_contact_desc c;
    c.body_a = a;
    c.body_b = b;
    c.flags = 0;
    for (int k = 0; k < 6; ++k) {
        c.bias[k] = 0.0;
        c.compliance[k] = 0.0;
    }
    if (!point_frame(cp, c)) {
        clear_point(cp, m,
                    "a manifold point with a zero or non-finite normal "
                    "was skipped");
        return kSkipped;
    }
    const bool user_dirs = (cp.m_contactPointFlags &
                            BT_CONTACT_FLAG_LATERAL_FRICTION_INITIALIZED) != 0;
    btVector3 ra =
        cp.getPositionWorldOnA() - o0->getWorldTransform().getOrigin();
    btVector3 rb =
        cp.getPositionWorldOnB() - o1->getWorldTransform().getOrigin();
    to3(ra, c.r_a);
    to3(rb, c.r_b);
    double plastic = 0.0;
    // the point's carried state (point_state.hpp), looked up once for the
    // indentation, the warm start and write_points
    PointState *st = point_states_.of(cp);
    const double e_rest = point_coefficients(cp, m, h, st, c, &plastic);

    // s_u, s_w, r_u, r_w (rf_problem_set_sliding_scales, _rolling_scales)
    double axis[4] = {1.0, 1.0, 1.0, 1.0};
    anisotropy(o0, o1, m, user_dirs, c, axis);
    const double split = normal_bias(cp, m, info, ra, rb, e_rest, plastic, c);
    if (user_dirs) {
        // conveyor: the target relative velocity along the lateral
        // directions is m_contactMotion1/2 (stock: velocityError =
        // desiredVelocity - rel_vel); u_t = t.v_rel + bias is driven to 0
        c.bias[1] = -(double)cp.m_contactMotion1;
        c.bias[2] = -(double)cp.m_contactMotion2;
        // stock softens these rows by the point's m_frictionCFM (only with
        // SOLVER_ENABLE_FRICTION_DIRECTION_CACHING)
        if (cp.m_frictionCFM != 0 &&
            (info.m_solverMode & SOLVER_ENABLE_FRICTION_DIRECTION_CACHING)) {
            Offender who;
            who.manifold = m;
            warn(RF_BULLET_WARN_SETTING,
                 "a point's m_frictionCFM is not honoured: its friction is "
                 "rigid",
                 who);
        }
    }
    if ((cp.m_contactPointFlags & BT_CONTACT_FLAG_FRICTION_ANCHOR) != 0) {
        anchor_bias(cp, info, c);
        // the sliding rows' velocities are s_k t_k . v_rel: their targets
        // scale with them
        c.bias[1] *= axis[0];
        c.bias[2] *= axis[1];
    }
    if (!finite_contact(c)) {
        clear_point(cp, m,
                    "a manifold point with a non-finite position, "
                    "distance, restitution or motion was skipped");
        return kSkipped;
    }

    warm_start(cp, c, info, st, &gamma_[6 * slot]);
    // the sliding and rolling impulses in the scaled rows' variables (force
    // s_k g_k, torque r_k t_k)
    gamma_[6 * slot + 1] /= axis[0];
    gamma_[6 * slot + 2] /= axis[1];
    gamma_[6 * slot + 4] /= axis[2];
    gamma_[6 * slot + 5] /= axis[3];
    std::memcpy(&con_axis_[4 * slot], axis, sizeof axis);
    rf_contact_columns_put(&cols_, (int)slot, &c);
    // the only component any point sets (point_compliance)
    con_cfm0_[slot] = c.compliance[0];
    con_point_[slot] = &cp;
    con_manifold_[slot] = m;
    con_plastic_[slot] = plastic;
    con_split_[slot] = std::isfinite(split) ? split : 0.0;
    con_state_[slot] = st;
    // The frame goes to the point here, while the point is in cache, as
    // stock's convertContact sets it; write_points then writes only the
    // impulses (reading the frame back there cost a cache miss per
    // contact: 2% of the full pyramid's step).  The warm start above has
    // read the old frame.  A manifold listed twice keeps its old frame
    // until write_points, so that the second listing's warm start reads
    // it too.  Should the step fall back to stock once the points are
    // added (a refusal in solve_problem), stock sees this frame (with
    // SOLVER_ENABLE_FRICTION_DIRECTION_CACHING on a point it has flagged,
    // it solves along it) instead of last step's cone frame; a fallback
    // before them (a refused body, a problem that could not begin: cone_step)
    // leaves every point as Bullet's collision pass left it, which stock
    // handles on its own (non-finite points included).
    if (!manifold_repeated_) {
        write_point_frame(cp, c.t1, c.t2);
    }
    return kAdded;
}

// A friction anchor (CF_HAS_FRICTION_ANCHOR on either object, which
// btManifoldResult marks on the point): while the point's friction stays
// inside the cone, Bullet keeps the point where it stuck
// (btPersistentManifold::replaceContactPoint keeps its local points), so
// its two ends part as far as the bodies have crept since; stock's
// friction rows take that apart back at m_frictionERP of it a step
// (setupFrictionConstraint: the row's target velocity -erp d.t / h).  The
// cone's friction rows the same: u_t = t.v_rel + bias is driven to 0.
void ConeSolver::anchor_bias(const btManifoldPoint &cp,
                             const btContactSolverInfo &info,
                             rf_contact_desc &c)
{
    double d[3];
    to3(cp.getPositionWorldOnA() - cp.getPositionWorldOnB(), d);
    const double k = (double)info.m_frictionERP / (double)info.m_timeStep;
    c.bias[1] += k * dot3(d, c.t1);
    c.bias[2] += k * dot3(d, c.t2);
}

// The point's frame into c.n, c.t1, c.t2; false for a zero or
// non-finite normal.
static bool point_frame(const btManifoldPoint &cp, rf_contact_desc &c)
{
    to3(cp.m_normalWorldOnB, c.n);
    if (!normalize3(c.n)) {
        return false;
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
    return true;
}

// The point's coefficients (friction, rolling, spinning, restitution,
// returned), the pair's cohesion and yield shares and the point's carried
// indentation (*plastic, from its state st)
// into c.
double ConeSolver::point_coefficients(const btManifoldPoint &cp,
                                      const btPersistentManifold *m, double h,
                                      const PointState *st, rf_contact_desc &c,
                                      double *plastic_out)
{
    const btCollisionObject *o0 = m->getBody0();
    const btCollisionObject *o1 = m->getBody1();
    int bad = 0;
    c.mu = coefficient(cp.m_combinedFriction, &bad);
    c.rho = coefficient(cp.m_combinedRollingFriction, &bad);
    c.sigma = coefficient(cp.m_combinedSpinningFriction, &bad);
    // the defaults go to the points Bullet gives none (a bad value was
    // warned about above and stays 0)
    if (cp.m_combinedRollingFriction == 0) {
        c.rho = default_rolling;
    }
    if (cp.m_combinedSpinningFriction == 0) {
        c.sigma = default_spinning;
    }
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
    *plastic_out = plastic;
    return e_rest;
}

// The restitution speed of a point with arms ra, rb and coefficient
// e_rest: e times the approach speed before forces, only above
// m_restitutionVelocityThreshold (stock); the normal velocity into *vn_out.
static double restitution_speed(const btManifoldPoint &cp,
                                const btPersistentManifold *m,
                                const btContactSolverInfo &info,
                                const btVector3 &ra, const btVector3 &rb,
                                double e_rest, double *vn_out)
{
    *vn_out = 0.0;
    if (!(e_rest > 0.0)) {
        return 0.0; // no rebound (vn is read only for one)
    }
    const btCollisionObject *o0 = m->getBody0();
    const btCollisionObject *o1 = m->getBody1();
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
    *vn_out = vn;
    return restitution;
}

// The normal bias c.bias[0] (and the compliance c.compliance[0]) of a
// point with arms ra, rb, restitution coefficient e_rest and carried
// indentation plastic; returns the split impulse's bias (< 0) or 0.
double ConeSolver::normal_bias(const btManifoldPoint &cp,
                               const btPersistentManifold *m,
                               const btContactSolverInfo &info,
                               const btVector3 &ra, const btVector3 &rb,
                               double e_rest, double plastic,
                               rf_contact_desc &c)
{
    const double h = info.m_timeStep;
    // Normal bias b_n (DESIGN §2): the gap over the step for a separated
    // point (a speculative contact: approach only up to contact) minus the
    // restitution velocity; for a penetrating point, minus the larger of
    // the recovery speed erp x depth / h (capped at max_recovery) and the
    // restitution velocity.  Restitution follows the stock solver: e times
    // the approach speed before forces, only above
    // m_restitutionVelocityThreshold.
    double vn = 0.0;
    const double restitution =
        restitution_speed(cp, m, info, ra, rb, e_rest, &vn);
    double erp = 0.0;
    bool spring = false;
    point_compliance(cp, m, info, c, &erp, &spring);
    double depth =
        (double)cp.getDistance() + (double)info.m_linearSlop + plastic;
    // Split impulse, as stock's setupContactConstraint: with
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
    return split;
}

// The point's normal compliance c.compliance[0], its ERP (*erp) and
// whether it is a spring (stiffness and damping, *spring).  No other
// component of c.compliance is set anywhere: add_point keeps only this
// one (con_cfm0_).
void ConeSolver::point_compliance(const btManifoldPoint &cp,
                                  const btPersistentManifold *m,
                                  const btContactSolverInfo &info,
                                  rf_contact_desc &c, double *erp_out,
                                  bool *spring_out)
{
    const double h = info.m_timeStep;
    // Compliance (Tasora 6.2's Tikhonov term): as stock's
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
    *erp_out = erp;
    *spring_out = spring;
}

// The warm start g of the point's contact c (frame in c; st the point's
// carried state or nullptr).
void ConeSolver::warm_start(const btManifoldPoint &cp, const rf_contact_desc &c,
                            const btContactSolverInfo &info,
                            const PointState *st, double g[6]) const
{
    // Written once, component by component, from scalars: g is the
    // step's impulse slot.  Built in a local array and scaled in a loop,
    // the scaling read pairs of components back with 16-byte loads just
    // after storing them one by one, and every such load waited for the
    // stores to retire (store forwarding fails across two stores): 3% of
    // the full pyramid's step, two thirds of warm_start's samples.
    if (!cfg.warm_start) {
        for (int k = 0; k < 6; ++k) {
            g[k] = 0.0;
        }
        return;
    }
    // Warm start: normal and sliding impulses from the point (Bullet moves
    // them with it), re-expressed in the new frame; spin and rolling from
    // the point's carried state (the spin axis is the normal; the rolling
    // vector is re-expressed in the new tangent frame, the normal may have
    // turned a little).  A cohesive point may have pulled (down to
    // -cohesion); the core projects the start onto the shifted cone
    // anyway.
    const double gn = cp.m_appliedImpulse > -c.cohesion
                          ? (double)cp.m_appliedImpulse
                          : -c.cohesion;
    const btVector3 s = cp.m_lateralFrictionDir1 * cp.m_appliedImpulseLateral1 +
                        cp.m_lateralFrictionDir2 * cp.m_appliedImpulseLateral2;
    double sv[3];
    to3(s, sv);
    const double gu = dot3(sv, c.t1), gw = dot3(sv, c.t2);
    double spin = 0.0, roll_u = 0.0, roll_w = 0.0;
    if (st != nullptr) {
        spin = st->spin;
        roll_u = dot3(st->roll, c.t1);
        roll_w = dot3(st->roll, c.t2);
    }
    // RF_SOLVER_SI (stock's method) takes Bullet's warm-start factor
    // (m_warmstartingFactor, 0.85 by default; 0 without
    // SOLVER_USE_WARMSTARTING) for the normal, as stock applies it to its
    // contact rows, and kSiFrictionWarmShare of it for the friction parts:
    // with a few sweeps per step the full start carries the last
    // iterate's error into the next step, and a settled pile keeps
    // jittering (BasicDemo, SI, 10 sweeps: 124 of 125 boxes awake after
    // 500 steps with the full start, asleep by step 274 with 0.85; stock:
    // 421).  The other solvers run to a tolerance, where the full start
    // only saves iterations.
    const double wsf = warm_factor(info);
    const double wsf_friction =
        cfg.solver == RF_SOLVER_SI ? kSiFrictionWarmShare * wsf : wsf;
    const auto finite_or_0 = [](double x) {
        return std::isfinite(x) ? x : 0.0;
    };
    g[0] = finite_or_0(gn * wsf);
    g[1] = finite_or_0(gu * wsf_friction);
    g[2] = finite_or_0(gw * wsf_friction);
    g[3] = finite_or_0(spin * wsf_friction);
    g[4] = finite_or_0(roll_u * wsf_friction);
    g[5] = finite_or_0(roll_w * wsf_friction);
}

// The share of last step's impulses that starts this step's solve:
// Bullet's warm-start factor (m_warmstartingFactor, 0.85 by default; 0
// without SOLVER_USE_WARMSTARTING) for RF_SOLVER_SI, all of it for the
// solvers that run to a tolerance.
double ConeSolver::warm_factor(const btContactSolverInfo &info) const
{
    if (cfg.solver != RF_SOLVER_SI) {
        return 1.0;
    }
    return (info.m_solverMode & SOLVER_USE_WARMSTARTING)
               ? (double)info.m_warmstartingFactor
               : 0.0;
}

// The per-contact arrays, which add_points fills slot by slot, at n
// contacts (elements kept, none zero-filled but the new ones).
void ConeSolver::resize_contacts(size_t n)
{
    con_cfm0_.resize(n);
    con_axis_.resize(4 * n);
    con_point_.resize(n);
    con_manifold_.resize(n);
    con_plastic_.resize(n);
    con_state_.resize(n);
    con_split_.resize(n);
    gamma_.resize(6 * n);
}

size_t ConeSolver::count_slots()
{
    const size_t nms = manifold_order_.size();
    point_first_.resize(nms + 1);
    size_t total = 0;
    for (size_t k = 0; k < nms; ++k) {
        point_first_[k] = total;
        total += (size_t)manifold_order_[k].n;
    }
    point_first_[nms] = total;
    return total;
}

// The problem's contact src moved to dst (compact_contacts).
void ConeSolver::move_columns(size_t dst, size_t src)
{
    cols_.body[2 * dst] = cols_.body[2 * src];
    cols_.body[2 * dst + 1] = cols_.body[2 * src + 1];
    std::memmove(cols_.frame + 9 * dst, cols_.frame + 9 * src,
                 9 * sizeof(double));
    std::memmove(cols_.arm + 6 * dst, cols_.arm + 6 * src, 6 * sizeof(double));
    std::memmove(cols_.bias + 6 * dst, cols_.bias + 6 * src,
                 6 * sizeof(double));
    cols_.mu[dst] = cols_.mu[src];
    cols_.rho[dst] = cols_.rho[src];
    cols_.sigma[dst] = cols_.sigma[src];
    cols_.flags[dst] = cols_.flags[src];
    cols_.cohesion[dst] = cols_.cohesion[src];
    cols_.normal_max[dst] = cols_.normal_max[src];
}

// total: count_slots(), the problem's contact count (begin_problem).
void ConeSolver::add_points(const btContactSolverInfo &info, size_t total)
{
    const size_t nms = manifold_order_.size();
    resize_contacts(total);
    slot_state_.resize(total);
    // A manifold listed twice is added on one thread: add_point writes
    // its points' frames.
    const int threads =
        total >= kParallelPoints && !manifold_repeated_ ? build_threads() : 1;
    // Each thread takes a contiguous run of manifolds (so the fetch ahead
    // stays within its run) and writes only their slots and points.
    // manifolds [lo, hi); kCompliant when a point is compliant, kScaled
    // when one has sliding scales
    enum { kCompliant = 1, kScaled = 2 };
    auto add_run = [&](size_t lo, size_t hi) -> int {
        int kinds = 0;
        for (size_t k = lo; k < hi; ++k) {
            if (k + 2 * kPrefetchAhead < hi) {
                const ManifoldSides &ahead =
                    manifold_order_[k + 2 * kPrefetchAhead];
                prefetch_manifold(ahead.m, ahead.n);
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
                    if (st == kAdded) {
                        kinds |= con_cfm0_[slot] != 0.0 ? kCompliant : 0;
                        const double *ax = &con_axis_[4 * slot];
                        kinds |= ax[0] != 1.0 || ax[1] != 1.0 || ax[2] != 1.0 ||
                                         ax[3] != 1.0
                                     ? kScaled
                                     : 0;
                    }
                } else if (std::isnan((double)cp.getDistance())) {
                    clear_point(cp, m,
                                "a manifold point with a non-finite "
                                "distance was skipped");
                    st = kSkipped;
                }
                slot_state_[slot] = st;
            }
        }
        return kinds;
    };
    int kinds = 0;
    if (threads > 1) { // no region on one thread (sum_over says why)
#pragma omp parallel num_threads(threads) reduction(| : kinds)
        {
            size_t lo = 0, hi = nms;
#ifdef _OPENMP
            const size_t nt = (size_t)omp_get_num_threads();
            const size_t t = (size_t)omp_get_thread_num();
            lo = nms * t / nt;
            hi = nms * (t + 1) / nt;
#endif
            kinds |= add_run(lo, hi);
        }
    } else {
        kinds = add_run(0, nms);
    }
    contacts_compliant_ = (kinds & kCompliant) != 0;
    contacts_scaled_ = (kinds & kScaled) != 0;
    compact_contacts(total);
}

// Drop the slots [0, total) that hold no contact (slot_state_), keeping
// the order, and count the skipped ones.
void ConeSolver::compact_contacts(size_t total)
{
    size_t kept = 0;
    for (size_t i = 0; i < total; ++i) {
        if (slot_state_[i] != kAdded) {
            skipped_contacts_ += slot_state_[i] == kSkipped;
            continue;
        }
        if (kept != i) {
            move_columns(kept, i);
            con_cfm0_[kept] = con_cfm0_[i];
            std::memmove(&con_axis_[4 * kept], &con_axis_[4 * i],
                         4 * sizeof(double));
            con_point_[kept] = con_point_[i];
            con_manifold_[kept] = con_manifold_[i];
            con_plastic_[kept] = con_plastic_[i];
            con_state_[kept] = con_state_[i];
            con_split_[kept] = con_split_[i];
            std::memcpy(&gamma_[6 * kept], &gamma_[6 * i], 6 * sizeof(double));
        }
        ++kept;
    }
    resize_contacts(kept);
}

// Every manifold handed over that needs a response, its points into the
// problem's contacts (add_points).
void ConeSolver::gather_contacts(const btContactSolverInfo &info)
{
    const btScalar h = info.m_timeStep;
    // Manifolds in two passes: their sides first, then their points in
    // the order of their first dynamic body (a counting sort), so that a
    // body's contacts lie together in the problem.  The products on N
    // gather each body's contacts (plugin/jacobian.c, body_pass): in
    // Bullet's pair order they lay scattered over the whole problem.
    manifold_sides_.clear();
    const size_t nm = in_manifolds_.size();
    // A manifold listed twice (the application's own list may repeat one)
    // shows as a dispatcher index (m_index1a, unique among the
    // dispatcher's manifolds, in the tail fetched ahead) seen twice this
    // step.  A manifold made outside the dispatcher may share an index (0)
    // or hold any: that only costs the parallel add and write.
    if (++gather_stamp_ == 0) {
        std::fill(manifold_stamp_.begin(), manifold_stamp_.end(), 0u);
        gather_stamp_ = 1;
    }
    const int limit =
        dispatcher_ != nullptr ? dispatcher_->getNumManifolds() : 0;
    if (manifold_stamp_.size() < (size_t)limit) {
        manifold_stamp_.resize((size_t)limit, 0u);
    }
    manifold_repeated_ = false;
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
        const int idx = m->m_index1a;
        if (idx < 0 || idx >= limit) { // not the dispatcher's
            manifold_repeated_ = true;
        } else {
            manifold_repeated_ |= manifold_stamp_[(size_t)idx] == gather_stamp_;
            manifold_stamp_[(size_t)idx] = gather_stamp_;
        }
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
}

} // namespace rfshim
