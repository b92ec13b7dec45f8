// Small Bullet scenes for the shim tests: a world with the stock solver
// (which rf_bullet_attach then wraps; the world itself is the shared
// helper of bench/bullet_world.hpp), a ground, spheres, boxes,
// cylinders.  Header-only; the tests own one Scene each.
#ifndef ROLLFRIC_TESTS_BULLET_SCENE_HPP
#define ROLLFRIC_TESTS_BULLET_SCENE_HPP

#include "../bench/bullet_world.hpp"

#include <btBulletDynamicsCommon.h>
#include <rollfric/rollfric_bullet.h>

#include <cmath>

// The world (bench/bullet_world.hpp: configuration, dispatcher,
// broadphase, Bullet's stock solver, world; the shapes, states, bodies
// and joints it owns; step(dt, n)) and the tests' ways of filling it.
struct Scene : rfbullet::World<> {
    explicit Scene(double g = 9.81) : World(g)
    {
    }

    btRigidBody *add(btCollisionShape *shape, double mass,
                     const btTransform &xf, double friction = 1.0,
                     double rolling = 0.0, double spinning = 0.0)
    {
        return add_body(own(shape), mass, xf, friction, rolling, spinning);
    }

    // Static ground: the plane y = 0 through a thick box (one manifold
    // point per sphere, up to four per box face).
    btRigidBody *ground(double friction = 1.0, const btVector3 &up = {0, 1, 0})
    {
        btTransform xf;
        xf.setIdentity();
        return add(new btStaticPlaneShape(up.normalized(), 0), 0.0, xf,
                   friction);
    }

    btRigidBody *sphere(double r, double mass, const btVector3 &pos,
                        double friction, double rolling, double spinning = 0)
    {
        btTransform xf;
        xf.setIdentity();
        xf.setOrigin(pos);
        return add(new btSphereShape((btScalar)r), mass, xf, friction, rolling,
                   spinning);
    }

    btRigidBody *box(const btVector3 &half, double mass, const btTransform &xf,
                     double friction = 0.5)
    {
        return add(new btBoxShape(half), mass, xf, friction);
    }
};

// The plugin's getters as values for the tests (NAN, -1 or the other
// mode where the getter fails: every test compares against a valid value).
inline double cohesion_of(const rf_plugin *p, const btCollisionObject *o)
{
    double f = 0.0;
    return rf_bullet_get_cohesion(p, o, &f) == RF_OK ? f : NAN;
}
inline double yield_of(const rf_plugin *p, const btCollisionObject *o)
{
    double f = 0.0;
    return rf_bullet_get_yield(p, o, &f) == RF_OK ? f : NAN;
}
inline long steps_of(const rf_plugin *p)
{
    long n = 0;
    return rf_bullet_steps(p, &n) == RF_OK ? n : -1;
}
inline int mode_of(const rf_plugin *p)
{
    rf_bullet_mode m = RF_BULLET_CONE;
    return rf_bullet_get_mode(p, &m) == RF_OK ? (int)m : -1;
}

// The cone plugin on s's world, switched to mode (the tests run each
// scene in both modes); nullptr if attaching failed.
inline rf_plugin *attach(Scene &s, rf_bullet_mode mode)
{
    rf_plugin *p = rf_bullet_attach(&s.world, nullptr);
    if (p != nullptr) {
        rf_bullet_set_mode(p, mode);
    }
    return p;
}

// The converged solve (rf_config_default: APGD, associated, up to 1000
// iterations to 1e-8) instead of the Bullet defaults (SI at the world's
// iteration budget): for the tests that check the model itself against
// an analytic answer tighter than ten sweeps reach.
inline rf_plugin *attach_converged(Scene &s, rf_bullet_mode mode)
{
    rf_config cfg;
    rf_config_default(&cfg);
    rf_plugin *p = rf_bullet_attach(&s.world, &cfg);
    if (p != nullptr) {
        rf_bullet_set_mode(p, mode);
    }
    return p;
}

inline const char *mode_name(rf_bullet_mode m)
{
    return m == RF_BULLET_CONE ? "cone " : "stock";
}

// Analytic rolling deceleration of a body rolling without slip on a plane
// under rolling friction rho (Tasora-Anitescu §6.1):
//   a = rho g / (R (1 + I / (m R^2)))
inline double rolling_deceleration(double rho, double g, double R,
                                   double I_over_mR2)
{
    return rho * g / (R * (1.0 + I_over_mR2));
}

inline double length_xz(const btVector3 &v)
{
    return std::sqrt((double)v.x() * v.x() + (double)v.z() * v.z());
}

#endif // ROLLFRIC_TESTS_BULLET_SCENE_HPP
