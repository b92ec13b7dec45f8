// Physical tests of the cone solver inside btDiscreteDynamicsWorld (issue
// #3).  Each scene runs with the cone solver (asserted) and with the stock
// solver on the same world type (printed beside, not asserted).
//
// Reference values: a sphere (I = 2/5 m R^2) rolling without slip on a
// plane under rolling friction rho decelerates at
//   a = rho g / (R (1 + I / (m R^2)))       (Tasora-Anitescu §6.1)
// and stops after v0^2 / (2 a).  Semi-implicit Euler takes the speed of
// the end of each step for the whole step, so the discrete distance is
// short of v0^2 / 2a by about v0 h / 2 (DESIGN §5): 0.42% at h = 1/60,
// v0 = 2 m/s, d = 3.96 m; hence the 1% (and 2%) bounds.
#include "bullet_scene.hpp"

#include <rollfric/rollfric_bullet.h>

#include "test_util.h"

#include <cstdio>

namespace {

const double kG = 9.81;
const double kR = 0.5;
const double kRho = 0.036; // DESIGN §5's ball: combined rolling 0.036 m
const double kV0 = 2.0;

struct Roll {
    double distance; // m, centre travel in the ground plane
    double heading;  // deg, direction of travel
    double speed;    // m/s at the end
};

// A ball launched rolling without slip at kV0 m/s along heading deg
// (ground normal +y), run for `seconds`.  Sliding mu = 0.9 (ball 0.9 x
// ground 1.0), rolling rho = kRho (ball kRho x ground friction 1.0 +
// ground rolling 0 x ball friction).
Roll roll_ball(double heading_deg, double mass, double dt, rf_bullet_mode mode,
               double seconds = 6.0)
{
    Scene s(kG);
    s.ground(1.0);
    btRigidBody *b = s.sphere(kR, mass, btVector3(0, kR, 0), 0.9, kRho);
    b->setActivationState(DISABLE_DEACTIVATION);
    const double th = heading_deg * M_PI / 180.0;
    const btVector3 v(kV0 * std::cos(th), 0, kV0 * std::sin(th));
    b->setLinearVelocity(v);
    // rolling without slip: w x (0, -R, 0) = -v
    b->setAngularVelocity(btVector3(v.z() / kR, 0, -v.x() / kR));
    rf_plugin *p = attach(s, mode);
    s.step(dt, (int)std::lround(seconds / dt));
    const btVector3 x = b->getCenterOfMassPosition();
    Roll r;
    r.distance = length_xz(x);
    r.heading = std::atan2((double)x.z(), (double)x.x()) * 180.0 / M_PI;
    r.speed = b->getLinearVelocity().length();
    rf_bullet_detach(p);
    return r;
}

double stop_distance()
{
    return kV0 * kV0 / (2.0 * rolling_deceleration(kRho, kG, kR, 0.4));
}

// Isotropy: stop distances at 0, 30, 45, 60 deg within 1% of each other
// and of v0^2 / 2a; heading drift < 0.1 deg (the cone is round; stock's
// per-axis box is not).
int test_isotropy()
{
    const double d_ref = stop_distance();
    const double headings[] = {0, 30, 45, 60};
    double dmin = 1e30, dmax = 0;
    for (double hd : headings) {
        Roll stock = roll_ball(hd, 1.0, 1.0 / 60, RF_BULLET_STOCK);
        Roll cone = roll_ball(hd, 1.0, 1.0 / 60, RF_BULLET_CONE);
        std::printf("  %2.0f deg: cone d = %.4f m (%+.2f%%), heading %.4f, "
                    "v_end %.1e | stock d = %.4f m (%+.1f%%), heading %.3f\n",
                    hd, cone.distance, 100 * (cone.distance / d_ref - 1),
                    cone.heading, cone.speed, stock.distance,
                    100 * (stock.distance / d_ref - 1), stock.heading);
        ENSURE_LE(cone.speed, 1e-3); // stopped
        ENSURE_SMALL(cone.distance / d_ref - 1, 0.01);
        ENSURE_SMALL(cone.heading - hd, 0.1);
        dmin = std::fmin(dmin, cone.distance);
        dmax = std::fmax(dmax, cone.distance);
    }
    ENSURE_LE(dmax / dmin - 1, 0.01);
    return 0;
}

// Mass and time step: m = 1, 10, 100 kg at h = 1/60 within 1% of the
// analytic stop distance (it does not depend on m); h = 1/240 within 2%
// (the discretisation error shrinks with h).
int test_mass_and_time_step()
{
    const double d_ref = stop_distance();
    const double masses[] = {1, 10, 100};
    const double steps[] = {1.0 / 60, 1.0 / 240};
    for (double dt : steps) {
        for (double m : masses) {
            Roll cone = roll_ball(0, m, dt, RF_BULLET_CONE);
            Roll stock = roll_ball(0, m, dt, RF_BULLET_STOCK);
            std::printf("  m = %5.0f kg, h = 1/%3.0f: cone d = %.4f m "
                        "(%+.2f%%), v_end %.1e | stock d = %.4f m "
                        "(%+.1f%%), v_end %.2f\n",
                        m, 1 / dt, cone.distance,
                        100 * (cone.distance / d_ref - 1), cone.speed,
                        stock.distance, 100 * (stock.distance / d_ref - 1),
                        stock.speed);
            ENSURE_LE(cone.speed, 1e-3);
            ENSURE_SMALL(cone.distance / d_ref - 1, dt > 0.01 ? 0.01 : 0.02);
        }
    }
    return 0;
}

// Spinning: a ball spinning about the normal with sigma > 0, rho = 0 stops
// at t = I w0 / (sigma m g): the spin torque is at most sigma * normal
// force (Tasora-Anitescu (7), spinning cone).  2%.
int test_spinning()
{
    const double sigma = 0.05, w0 = 10.0, m = 2.0, dt = 1.0 / 60;
    const double I = 0.4 * m * kR * kR;
    const double t_ref = I * w0 / (sigma * m * kG);
    for (rf_bullet_mode mode : {RF_BULLET_STOCK, RF_BULLET_CONE}) {
        Scene s(kG);
        s.ground(1.0);
        // combined spinning = ball sigma x ground friction 1
        btRigidBody *b = s.sphere(kR, m, btVector3(0, kR, 0), 0.9, 0.0, sigma);
        b->setActivationState(DISABLE_DEACTIVATION);
        b->setAngularVelocity(btVector3(0, (btScalar)w0, 0));
        rf_plugin *p = attach(s, mode);
        double t_stop = -1;
        const int n = (int)std::lround(2.0 * t_ref / dt);
        for (int i = 1; i <= n && t_stop < 0; ++i) {
            s.step(dt);
            if (std::fabs((double)b->getAngularVelocity().y()) < 1e-3 * w0) {
                t_stop = i * dt;
            }
        }
        const double w_end = b->getAngularVelocity().y();
        std::printf("  %s: t_stop = %.4f s (analytic %.4f s), w_end %.3g\n",
                    mode_name(mode), t_stop, t_ref, w_end);
        rf_bullet_detach(p);
        if (mode == RF_BULLET_CONE) {
            ENSURE(t_stop > 0);
            ENSURE_SMALL(t_stop / t_ref - 1, 0.02);
        }
    }
    return 0;
}

// Incline: a ball at rest on a slope holds when tan(theta) <= rho / R
// (gravity's torque about the contact, m g sin(theta) R, against the
// rolling limit rho m g cos(theta)).  tan = 0.9 rho/R: moves < 1 mm in
// 5 s; tan = 1.1 rho/R: rolls away (the analytic distance after 5 s is
// a t^2 / 2 with a = g (sin - rho cos / R) / 1.4; asserted > half of it).
// Slopes face 0 and 45 deg about the vertical.
int test_incline()
{
    const double dt = 1.0 / 60, T = 5.0;
    for (double facing : {0.0, 45.0}) {
        for (double f : {0.9, 1.1}) {
            const double th = std::atan(f * kRho / kR);
            const double ps = facing * M_PI / 180;
            // downhill direction d (horizontal) and slope normal n
            const btVector3 d(std::cos(ps), 0, std::sin(ps));
            const btVector3 n =
                btVector3(0, 1, 0) * std::cos(th) + d * std::sin(th);
            const double a =
                kG * (std::sin(th) - kRho * std::cos(th) / kR) / 1.4;
            const double d_ref = a > 0 ? 0.5 * a * T * T : 0;
            for (rf_bullet_mode mode : {RF_BULLET_STOCK, RF_BULLET_CONE}) {
                Scene s(kG);
                s.ground(1.0, n);
                btRigidBody *b = s.sphere(kR, 1.0, n * kR, 0.9, kRho);
                b->setActivationState(DISABLE_DEACTIVATION);
                rf_plugin *p = attach(s, mode);
                const btVector3 x0 = b->getCenterOfMassPosition();
                s.step(dt, (int)std::lround(T / dt));
                const double moved =
                    (b->getCenterOfMassPosition() - x0).length();
                std::printf(
                    "  facing %2.0f, tan = %.1f rho/R, %s: moved %.3g m "
                    "(analytic %.3g m)\n",
                    facing, f, mode_name(mode), moved, d_ref);
                rf_bullet_detach(p);
                if (mode != RF_BULLET_CONE) {
                    continue;
                }
                if (f < 1) {
                    ENSURE_LE(moved, 1e-3);
                } else {
                    ENSURE_LE(0.5 * d_ref, moved);
                }
            }
        }
    }
    return 0;
}

// Line contact: a cylinder (R = 0.5, width 0.4) rolling on its rim, the
// axis horizontal and two to four manifold points along the contact line,
// keeps its heading within 0.5 deg until it stops.  It first stands for
// half a second so that Bullet's manifold holds points along the whole
// line (the first step has a single point at one end of the rim, an
// artefact of contact generation, not of the solver).  Heading = direction
// from the launch point, measured once the wheel is 5 cm away.  The
// converged solve: the model's heading, not ten sweeps' (0.66 deg).
int test_line_contact()
{
    const double dt = 1.0 / 60, R = 0.5, half_width = 0.2;
    for (double hd_deg : {0.0, 30.0}) {
        const double hd = hd_deg * M_PI / 180;
        for (rf_bullet_mode mode : {RF_BULLET_STOCK, RF_BULLET_CONE}) {
            Scene s(kG);
            s.ground(1.0);
            btTransform xf;
            xf.setIdentity();
            // axis (local z) horizontal and across the heading
            xf.setRotation(btQuaternion(btVector3(0, 1, 0), (btScalar)-hd));
            xf.setOrigin(btVector3(0, (btScalar)R, 0));
            btRigidBody *b =
                s.add(new btCylinderShapeZ(btVector3((btScalar)R, (btScalar)R,
                                                     (btScalar)half_width)),
                      1.0, xf, 0.9, kRho);
            b->setActivationState(DISABLE_DEACTIVATION);
            rf_plugin *p = attach_converged(s, mode);
            s.step(dt, 30);
            const btVector3 x0 = b->getCenterOfMassPosition();
            const btVector3 dir(std::cos(hd), 0, std::sin(hd));
            b->setLinearVelocity(dir * kV0);
            // no slip: w x (0, -R, 0) = -v gives w = (y x v) / R, along
            // the cylinder's axis
            b->setAngularVelocity(btVector3(0, 1, 0).cross(dir) * (kV0 / R));
            double worst = 0, speed = kV0;
            int i = 0;
            for (; i < (int)(10 / dt) && speed > 1e-3; ++i) {
                s.step(dt);
                const btVector3 x = b->getCenterOfMassPosition() - x0;
                speed = length_xz(b->getLinearVelocity());
                if (length_xz(x) > 0.05) {
                    double h = std::atan2((double)x.z(), (double)x.x());
                    worst = std::fmax(worst, std::fabs(h - hd) * 180 / M_PI);
                }
            }
            const btVector3 x = b->getCenterOfMassPosition() - x0;
            std::printf("  %2.0f deg, %s: heading error max %.3f deg, "
                        "travelled %.3f m (analytic %.3f) in %.2f s, end "
                        "speed %.2g\n",
                        hd_deg, mode_name(mode), worst, length_xz(x),
                        kV0 * kV0 /
                            (2 * rolling_deceleration(kRho, kG, R, 0.5)),
                        i * dt, speed);
            rf_bullet_detach(p);
            if (mode == RF_BULLET_CONE) {
                ENSURE_LE(speed, 1e-3); // stopped
                ENSURE_LE(worst, 0.5);
            }
        }
    }
    return 0;
}

// Stack: 10 unit boxes standing on the ground for 10 s; the top box drifts
// less than 1 cm with the converged solve (ten sweeps do not hold a
// ten-box column still, stock's or the cone's: stock drifts 0.6 m).
int test_box_stack()
{
    const double dt = 1.0 / 60;
    for (rf_bullet_mode mode : {RF_BULLET_STOCK, RF_BULLET_CONE}) {
        Scene s(kG);
        s.ground(1.0);
        btRigidBody *top = nullptr;
        for (int k = 0; k < 10; ++k) {
            btTransform xf;
            xf.setIdentity();
            xf.setOrigin(btVector3(0, (btScalar)(0.5 + k * 1.0), 0));
            top = s.box(btVector3(0.5, 0.5, 0.5), 1.0, xf, 0.5);
            // awake throughout: a sleeping stack would test nothing
            top->setActivationState(DISABLE_DEACTIVATION);
        }
        rf_plugin *p = attach_converged(s, mode);
        const btVector3 x0 = top->getCenterOfMassPosition();
        s.step(dt, (int)std::lround(10 / dt));
        const double drift = (top->getCenterOfMassPosition() - x0).length();
        rf_stats st{};
        rf_bullet_stats(p, &st);
        std::printf("  %s: top box drift %.3g m", mode_name(mode), drift);
        if (mode == RF_BULLET_CONE) {
            std::printf(" (last step: %d contacts, %d iterations, residual "
                        "%.1e)",
                        st.contacts, st.iterations, st.residual);
        }
        std::printf("\n");
        rf_bullet_detach(p);
        if (mode == RF_BULLET_CONE) {
            ENSURE_LE(drift, 0.01);
        }
    }
    return 0;
}

double kinetic_energy(const Scene &s)
{
    double e = 0;
    for (const auto &b : s.bodies) {
        if (b->getInvMass() == 0) {
            continue;
        }
        const btVector3 v = b->getLinearVelocity();
        const btVector3 w = b->getAngularVelocity();
        // I_world w from the inverse: solve I^-1 x = w
        const btVector3 Iw = b->getInvInertiaTensorWorld().inverse() * w;
        e += 0.5 * (double)v.length2() / b->getInvMass() +
             0.5 * (double)w.dot(Iw);
    }
    return e;
}

// Energy: gravity off, no joints: total kinetic energy never rises across
// a step with contacts (the cone impulses are dissipative: the CCP is the
// optimality condition of min 1/2 g^T N g + r^T g over Y, and with zero
// bias the post-step energy is at most the pre-step one; Tasora §4).
// Relative slack 1e-6 for float round-off in Bullet's stored velocities.
int test_energy()
{
    const double dt = 1.0 / 60;
    for (rf_bullet_mode mode : {RF_BULLET_STOCK, RF_BULLET_CONE}) {
        Scene s(0.0);
        rf_rng r{11};
        // a box of static walls: the ground and four planes
        s.ground(0.8);
        s.ground(0.8, btVector3(1, 0, 0));
        s.ground(0.8, btVector3(-1, 0, 0));
        s.bodies.back()->setWorldTransform(
            btTransform(btQuaternion::getIdentity(), btVector3(6, 0, 0)));
        for (int k = 0; k < 24; ++k) {
            btTransform xf;
            xf.setIdentity();
            xf.setOrigin(btVector3((btScalar)(0.8 + 1.1 * (k % 4)),
                                   (btScalar)(0.6 + 1.2 * (k / 4)),
                                   (btScalar)rf_rng_range(&r, -0.2, 0.2)));
            btRigidBody *b =
                (k % 2) ? s.sphere(0.45, 1.0 + k % 3, xf.getOrigin(), 0.6, 0.02,
                                   0.01)
                        : s.box(btVector3(0.4, 0.4, 0.4), 1.0 + k % 5, xf, 0.6);
            b->setRollingFriction(0.02);
            b->setSpinningFriction(0.01);
            b->setActivationState(DISABLE_DEACTIVATION);
            b->setLinearVelocity(btVector3((btScalar)rf_rng_range(&r, -1, 1),
                                           (btScalar)rf_rng_range(&r, -1, 1),
                                           0));
            b->setAngularVelocity(btVector3((btScalar)rf_rng_range(&r, -2, 2),
                                            (btScalar)rf_rng_range(&r, -2, 2),
                                            (btScalar)rf_rng_range(&r, -2, 2)));
        }
        rf_plugin *p = attach(s, mode);
        double worst = -1e30, e0 = kinetic_energy(s);
        int rises = 0, with_contacts = 0;
        for (int i = 0; i < 600; ++i) {
            double before = kinetic_energy(s);
            s.step(dt);
            double after = kinetic_energy(s);
            rf_stats st{};
            rf_bullet_stats(p, &st);
            if (mode == RF_BULLET_STOCK || st.contacts > 0) {
                ++with_contacts;
                double rel = (after - before) / before;
                worst = std::fmax(worst, rel);
                if (rel > 1e-6) {
                    ++rises;
                }
            }
        }
        std::printf("  %s: KE %.3f -> %.3f J, largest relative rise in one "
                    "step %.2e, steps with a rise %d of %d\n",
                    mode_name(mode), e0, kinetic_energy(s), worst, rises,
                    with_contacts);
        rf_bullet_detach(p);
        if (mode == RF_BULLET_CONE) {
            ENSURE(with_contacts > 100);
            ENSURE_LE(worst, 1e-6);
        }
    }
    return 0;
}

} // namespace

int main()
{
    RUN_TEST(test_isotropy);
    RUN_TEST(test_mass_and_time_step);
    RUN_TEST(test_spinning);
    RUN_TEST(test_incline);
    RUN_TEST(test_line_contact);
    RUN_TEST(test_box_stack);
    RUN_TEST(test_energy);
    return TEST_SUMMARY();
}
