// The pl* C API, part 4: rigid bodies (create, delete, mass, transforms,
// velocities, friction and contact coefficients, cohesion and yield,
// damping, sleeping, names in recordings).
#include "c_api_internal.hpp"

#include "rollfric/record.h"

#include <cstring>

using namespace rfshim::capi;

extern "C" {

// ---- rigid bodies
// ----------------------------------------------------------------

plRigidBodyHandle plCreateRigidBody(void *user_data, float mass,
                                    plCollisionShapeHandle shape)
{
    static const char fn[] = "plCreateRigidBody";
    return guarded(fn, nullptr, [&]() -> plRigidBodyHandle {
        Lock lock(g_mutex);
        plStatus st;
        Shape *s = lookup<Shape>(shape, K_SHAPE, fn, "shape", &st);
        if (s == nullptr) {
            return nullptr;
        }
        if (!is_finite(mass)) {
            fail(PL_ERR_NONFINITE, "%s: mass is not finite", fn);
            return nullptr;
        }
        if (mass < 0) {
            fail(PL_ERR_INVALID, "%s: mass = %g < 0 (0 makes a static body)",
                 fn, (double)mass);
            return nullptr;
        }
        if (mass > 0 && s->static_only != nullptr) {
            fail(PL_ERR_INVALID, "%s: %s needs mass 0", fn, s->static_only);
            return nullptr;
        }
        btVector3 inertia(0, 0, 0);
        if (mass > 0) {
            s->shape->calculateLocalInertia(mass, inertia);
        }
        auto owned = std::make_unique<Body>();
        Body *b = owned.get();
        btTransform xf;
        xf.setIdentity();
        b->state.reset(new btDefaultMotionState(xf));
        btRigidBody::btRigidBodyConstructionInfo ci(mass, b->state.get(),
                                                    s->shape.get(), inertia);
        b->rb.reset(new btRigidBody(ci));
        b->shape_handle = shape;
        b->user_data = user_data;
        b->handle = own_handle(K_BODY, std::move(owned));
        s->users++;
        b->rb->setUserPointer(b->handle); // contacts and ray hits name it
        return (plRigidBodyHandle)b->handle;
    });
}

plStatus plSetMassProps(plRigidBodyHandle body, plReal mass,
                        const plVector3 inertia)
{
    static const char fn[] = "plSetMassProps";
    return guarded(fn, [&] {
        LOOKUP(Body, b, body, K_BODY, fn, "body");
        if (plStatus st = check_reals(fn, "inertia", inertia, 3)) {
            return st;
        }
        if (!is_finite(mass)) {
            return fail(PL_ERR_NONFINITE, "%s: mass is not finite", fn);
        }
        if (b->rb->getInvMass() == 0) {
            return fail(PL_ERR_INVALID, "%s: the body is static (mass 0)", fn);
        }
        if (!(mass > 0) ||
            !(inertia[0] > 0 && inertia[1] > 0 && inertia[2] > 0)) {
            return fail(PL_ERR_INVALID,
                        "%s: mass = %g and inertia (%g, %g, %g) must be > 0",
                        fn, (double)mass, (double)inertia[0],
                        (double)inertia[1], (double)inertia[2]);
        }
        b->rb->setMassProps(mass,
                            btVector3(inertia[0], inertia[1], inertia[2]));
        b->rb->updateInertiaTensor();
        return PL_OK;
    });
}

plStatus plDeleteRigidBody(plRigidBodyHandle body)
{
    return guarded("plDeleteRigidBody", [&] {
        Lock lock(g_mutex);
        LOOKUP(Body, b, body, K_BODY, "plDeleteRigidBody", "body");
        if (!b->constraints.empty()) {
            return fail(PL_ERR_STATE,
                        "plDeleteRigidBody: %d constraints use the body; "
                        "delete them first",
                        (int)b->constraints.size());
        }
        remove_from_world(b);
        plStatus st;
        Shape *s = lookup<Shape>(b->shape_handle, K_SHAPE, "", "", &st);
        if (s != nullptr) {
            s->users--;
        }
        delete b;
        drop_handle(body);
        return PL_OK;
    });
}

plStatus plSetBodyName(plRigidBodyHandle body, const char *name)
{
    static const char fn[] = "plSetBodyName";
    return guarded(fn, [&] {
        Lock lock(g_mutex);
        LOOKUP(Body, b, body, K_BODY, fn, "body");
        if (name == nullptr) {
            return fail(PL_ERR_NULL, "%s: name is NULL", fn);
        }
        const size_t len = std::strlen(name);
        if (len > RF_RECORD_NAME_MAX) {
            return fail(PL_ERR_INVALID,
                        "%s: the name \"%.32s...\" is %zu bytes long, more "
                        "than a recording's %d",
                        fn, name, len, RF_RECORD_NAME_MAX);
        }
        std::string copy(name); // the body's, once the plugin has it
        if (b->world_handle != nullptr) {
            plStatus st;
            World *w = lookup<World>(b->world_handle, K_WORLD, fn, "", &st);
            rf_error err;
            const rf_status rs =
                w == nullptr
                    ? RF_ERR_STATE
                    : rf_bullet_record_name(w->plugin, b->rb.get(), name, &err);
            if (rs == RF_ERR_NOMEM) {
                return fail(PL_ERR_NOMEM, "%s: out of memory", fn);
            }
            if (rs != RF_OK) {
                return fail(PL_ERR_INVALID, "%s: %s", fn,
                            w == nullptr ? "the body's world is gone"
                                         : err.message);
            }
        } // else plAddRigidBody gives it to the world's plugin
        b->name.swap(copy);
        return PL_OK;
    });
}

void *plGetUserData(plRigidBodyHandle body)
{
    return guarded("plGetUserData", nullptr, [&]() -> void * {
        plStatus st;
        Body *b = lookup<Body>(body, K_BODY, "plGetUserData", "body", &st);
        return b ? b->user_data : nullptr;
    });
}

plStatus plGetPosition(plRigidBodyHandle body, plVector3 position)
{
    return guarded("plGetPosition", [&] {
        LOOKUP(Body, b, body, K_BODY, "plGetPosition", "body");
        if (position == nullptr) {
            return fail(PL_ERR_NULL, "plGetPosition: position is NULL");
        }
        const btVector3 &p = b->rb->getCenterOfMassPosition();
        for (int k = 0; k < 3; ++k) {
            position[k] = p[k];
        }
        return PL_OK;
    });
}

plStatus plGetOrientation(plRigidBodyHandle body, plQuaternion orientation)
{
    return guarded("plGetOrientation", [&] {
        LOOKUP(Body, b, body, K_BODY, "plGetOrientation", "body");
        if (orientation == nullptr) {
            return fail(PL_ERR_NULL, "plGetOrientation: orientation is NULL");
        }
        btQuaternion q = b->rb->getOrientation();
        orientation[0] = q.x();
        orientation[1] = q.y();
        orientation[2] = q.z();
        orientation[3] = q.w();
        return PL_OK;
    });
}

namespace {
// Move a body to xf (and its motion state and interpolation transform),
// as an application teleporting it expects.
void set_transform(Body *b, const btTransform &xf)
{
    b->rb->setWorldTransform(xf);
    b->rb->setInterpolationWorldTransform(xf);
    b->state->setWorldTransform(xf);
    b->rb->activate(true);
}
} // namespace

plStatus plSetPosition(plRigidBodyHandle body, const plVector3 position)
{
    return guarded("plSetPosition", [&] {
        LOOKUP(Body, b, body, K_BODY, "plSetPosition", "body");
        if (plStatus st =
                check_reals("plSetPosition", "position", position, 3)) {
            return st;
        }
        btTransform xf = b->rb->getWorldTransform();
        xf.setOrigin(btVector3(position[0], position[1], position[2]));
        set_transform(b, xf);
        return PL_OK;
    });
}

plStatus plSetOrientation(plRigidBodyHandle body,
                          const plQuaternion orientation)
{
    return guarded("plSetOrientation", [&] {
        LOOKUP(Body, b, body, K_BODY, "plSetOrientation", "body");
        if (plStatus st = check_reals("plSetOrientation", "orientation",
                                      orientation, 4)) {
            return st;
        }
        btQuaternion q(orientation[0], orientation[1], orientation[2],
                       orientation[3]);
        if (!(q.length() > (btScalar)1e-6)) {
            return fail(PL_ERR_INVALID,
                        "plSetOrientation: orientation has zero length");
        }
        btTransform xf = b->rb->getWorldTransform();
        xf.setRotation(q.normalized());
        set_transform(b, xf);
        return PL_OK;
    });
}

plStatus plSetEuler(plReal yaw, plReal pitch, plReal roll, plQuaternion orient)
{
    return guarded("plSetEuler", [&] {
        if (orient == nullptr) {
            return fail(PL_ERR_NULL, "plSetEuler: orient is NULL");
        }
        if (!is_finite(yaw) || !is_finite(pitch) || !is_finite(roll)) {
            return fail(PL_ERR_NONFINITE, "plSetEuler: an angle is not finite");
        }
        btQuaternion q;
        q.setEuler(yaw, pitch, roll);
        orient[0] = q.x();
        orient[1] = q.y();
        orient[2] = q.z();
        orient[3] = q.w();
        return PL_OK;
    });
}

plStatus plGetOpenGLMatrix(plRigidBodyHandle body, plReal *matrix)
{
    return guarded("plGetOpenGLMatrix", [&] {
        LOOKUP(Body, b, body, K_BODY, "plGetOpenGLMatrix", "body");
        if (matrix == nullptr) {
            return fail(PL_ERR_NULL, "plGetOpenGLMatrix: matrix is NULL");
        }
        b->rb->getWorldTransform().getOpenGLMatrix(matrix);
        return PL_OK;
    });
}

plStatus plSetOpenGLMatrix(plRigidBodyHandle body, const plReal *matrix)
{
    return guarded("plSetOpenGLMatrix", [&] {
        LOOKUP(Body, b, body, K_BODY, "plSetOpenGLMatrix", "body");
        if (plStatus st =
                check_reals("plSetOpenGLMatrix", "matrix", matrix, 16)) {
            return st;
        }
        btTransform xf;
        xf.setFromOpenGLMatrix(matrix);
        set_transform(b, xf);
        return PL_OK;
    });
}

namespace {
// The bodies of plSet/GetLinear/AngularVelocity and of the coefficient
// setters, guarded here for each of them (fn).
plStatus set_vec(plRigidBodyHandle body, const plVector3 v, bool angular,
                 const char *fn)
{
    return guarded(fn, [&] {
        LOOKUP(Body, b, body, K_BODY, fn, "body");
        if (plStatus st = check_reals(fn, angular ? "w" : "v", v, 3)) {
            return st;
        }
        btVector3 x(v[0], v[1], v[2]);
        if (angular) {
            b->rb->setAngularVelocity(x);
        } else {
            b->rb->setLinearVelocity(x);
        }
        b->rb->activate(true);
        return PL_OK;
    });
}
plStatus get_vec(plRigidBodyHandle body, plVector3 v, bool angular,
                 const char *fn)
{
    return guarded(fn, [&] {
        LOOKUP(Body, b, body, K_BODY, fn, "body");
        if (v == nullptr) {
            return fail(PL_ERR_NULL, "%s: the vector is NULL", fn);
        }
        const btVector3 &x =
            angular ? b->rb->getAngularVelocity() : b->rb->getLinearVelocity();
        for (int k = 0; k < 3; ++k) {
            v[k] = x[k];
        }
        return PL_OK;
    });
}
// A coefficient >= 0 for one of the body's setters.
plStatus set_coef(plRigidBodyHandle body, plReal c, const char *fn,
                  void (*apply)(btRigidBody *, btScalar))
{
    return guarded(fn, [&] {
        LOOKUP(Body, b, body, K_BODY, fn, "body");
        if (!is_finite(c)) {
            return fail(PL_ERR_NONFINITE, "%s: the coefficient is not finite",
                        fn);
        }
        if (c < 0) {
            return fail(PL_ERR_INVALID, "%s: the coefficient %g is negative",
                        fn, (double)c);
        }
        apply(b->rb.get(), c);
        return PL_OK;
    });
}
} // namespace

plStatus plSetLinearVelocity(plRigidBodyHandle body, const plVector3 v)
{
    return set_vec(body, v, false, "plSetLinearVelocity");
}
plStatus plGetLinearVelocity(plRigidBodyHandle body, plVector3 v)
{
    return get_vec(body, v, false, "plGetLinearVelocity");
}
plStatus plSetAngularVelocity(plRigidBodyHandle body, const plVector3 w)
{
    return set_vec(body, w, true, "plSetAngularVelocity");
}
plStatus plGetAngularVelocity(plRigidBodyHandle body, plVector3 w)
{
    return get_vec(body, w, true, "plGetAngularVelocity");
}

plStatus plSetFriction(plRigidBodyHandle body, plReal mu)
{
    return set_coef(body, mu, "plSetFriction",
                    [](btRigidBody *r, btScalar c) { r->setFriction(c); });
}
plStatus plSetRollingFriction(plRigidBodyHandle body, plReal rho)
{
    return set_coef(
        body, rho, "plSetRollingFriction",
        [](btRigidBody *r, btScalar c) { r->setRollingFriction(c); });
}
plStatus plSetSpinningFriction(plRigidBodyHandle body, plReal sigma)
{
    return set_coef(
        body, sigma, "plSetSpinningFriction",
        [](btRigidBody *r, btScalar c) { r->setSpinningFriction(c); });
}
plStatus plSetRestitution(plRigidBodyHandle body, plReal e)
{
    return set_coef(body, e, "plSetRestitution",
                    [](btRigidBody *r, btScalar c) { r->setRestitution(c); });
}

namespace {
// A per-body force in N kept with the body (Body::*member) and handed to
// the plugin of the world it is in (setter: rf_bullet_set_cohesion or
// rf_bullet_set_yield; first, as it may run out of memory).
plStatus set_body_force(plRigidBodyHandle body, plReal force, const char *fn,
                        double Body::*member,
                        rf_status (*setter)(rf_plugin *,
                                            const btCollisionObject *, double))
{
    return guarded(fn, [&] {
        Lock lock(g_mutex);
        LOOKUP(Body, b, body, K_BODY, fn, "body");
        if (!is_finite(force)) {
            return fail(PL_ERR_NONFINITE, "%s: the force is not finite", fn);
        }
        if (force < 0) {
            return fail(PL_ERR_INVALID, "%s: the force %g is negative", fn,
                        (double)force);
        }
        if (b->world_handle != nullptr) {
            plStatus st;
            World *w = lookup<World>(b->world_handle, K_WORLD, "", "", &st);
            if (w != nullptr) {
                setter(w->plugin, b->rb.get(), (double)force);
            }
        }
        b->*member = (double)force;
        return PL_OK;
    });
}
} // namespace

plStatus plSetCohesion(plRigidBodyHandle body, plReal force)
{
    return set_body_force(body, force, "plSetCohesion", &Body::cohesion,
                          rf_bullet_set_cohesion);
}

plStatus plSetYield(plRigidBodyHandle body, plReal force)
{
    return set_body_force(body, force, "plSetYield", &Body::yield,
                          rf_bullet_set_yield);
}

plStatus plSetContactStiffnessAndDamping(plRigidBodyHandle body,
                                         plReal stiffness, plReal damping)
{
    static const char fn[] = "plSetContactStiffnessAndDamping";
    return guarded(fn, [&] {
        LOOKUP(Body, b, body, K_BODY, fn, "body");
        if (!is_finite(stiffness) || !is_finite(damping)) {
            return fail(PL_ERR_NONFINITE,
                        "%s: stiffness or damping is not finite", fn);
        }
        if (!(stiffness > 0) || damping < 0) {
            return fail(PL_ERR_INVALID,
                        "%s: stiffness = %g must be > 0 and damping = %g >= 0",
                        fn, (double)stiffness, (double)damping);
        }
        b->rb->setContactStiffnessAndDamping(stiffness, damping);
        return PL_OK;
    });
}

plStatus plGetCohesion(plRigidBodyHandle body, plReal *force)
{
    static const char fn[] = "plGetCohesion";
    return guarded(fn, [&] {
        Lock lock(g_mutex);
        LOOKUP(Body, b, body, K_BODY, fn, "body");
        if (force == nullptr) {
            return fail(PL_ERR_NULL, "%s: force is NULL", fn);
        }
        *force = (plReal)b->cohesion;
        return PL_OK;
    });
}

plStatus plSetAnisotropicFriction(plRigidBodyHandle body,
                                  const plVector3 scaling, int mode)
{
    static const char fn[] = "plSetAnisotropicFriction";
    return guarded(fn, [&] {
        LOOKUP(Body, b, body, K_BODY, fn, "body");
        if (plStatus st = check_reals(fn, "scaling", scaling, 3)) {
            return st;
        }
        if (!(scaling[0] >= 0 && scaling[1] >= 0 && scaling[2] >= 0)) {
            return fail(PL_ERR_INVALID,
                        "%s: scaling must be >= 0 on every axis", fn);
        }
        const int all =
            PL_ANISOTROPIC_FRICTION | PL_ANISOTROPIC_ROLLING_FRICTION;
        if (mode < 0 || (mode & ~all) != 0) {
            return fail(PL_ERR_INVALID,
                        "%s: mode = %d is not 0, PL_ANISOTROPIC_FRICTION or "
                        "PL_ANISOTROPIC_ROLLING_FRICTION",
                        fn, mode);
        }
        // Bullet's CF_ANISOTROPIC_* have the same values (checked below)
        b->rb->setAnisotropicFriction(
            btVector3(scaling[0], scaling[1], scaling[2]), mode);
        return PL_OK;
    });
}
static_assert(PL_ANISOTROPIC_FRICTION ==
                      btCollisionObject::CF_ANISOTROPIC_FRICTION &&
                  PL_ANISOTROPIC_ROLLING_FRICTION ==
                      btCollisionObject::CF_ANISOTROPIC_ROLLING_FRICTION,
              "pl* anisotropic modes must match Bullet's");

plStatus plSetDamping(plRigidBodyHandle body, plReal linear, plReal angular)
{
    return guarded("plSetDamping", [&] {
        LOOKUP(Body, b, body, K_BODY, "plSetDamping", "body");
        if (!is_finite(linear) || !is_finite(angular)) {
            return fail(PL_ERR_NONFINITE,
                        "plSetDamping: a damping is not finite");
        }
        if (linear < 0 || linear > 1 || angular < 0 || angular > 1) {
            return fail(PL_ERR_INVALID,
                        "plSetDamping: linear = %g and angular = %g must be "
                        "in [0, 1]",
                        (double)linear, (double)angular);
        }
        b->rb->setDamping(linear, angular);
        return PL_OK;
    });
}

plStatus plSetSleeping(plRigidBodyHandle body, int allowed)
{
    return guarded("plSetSleeping", [&] {
        LOOKUP(Body, b, body, K_BODY, "plSetSleeping", "body");
        if (allowed != 0 && allowed != 1) {
            return fail(PL_ERR_INVALID,
                        "plSetSleeping: allowed = %d not 0 or 1", allowed);
        }
        if (allowed) {
            b->rb->forceActivationState(ACTIVE_TAG);
        } else {
            b->rb->setActivationState(DISABLE_DEACTIVATION);
        }
        return PL_OK;
    });
}

plStatus plSetFrictionAnchor(plRigidBodyHandle body, int on)
{
    static const char fn[] = "plSetFrictionAnchor";
    return guarded(fn, [&] {
        LOOKUP(Body, b, body, K_BODY, fn, "body");
        if (on != 0 && on != 1) {
            return fail(PL_ERR_INVALID, "%s: on = %d not 0 or 1", fn, on);
        }
        const int flag = btCollisionObject::CF_HAS_FRICTION_ANCHOR;
        const int flags = b->rb->getCollisionFlags();
        b->rb->setCollisionFlags(on ? (flags | flag) : (flags & ~flag));
        return PL_OK;
    });
}

int plIsActive(plRigidBodyHandle body)
{
    return guarded("plIsActive", -1, [&] {
        plStatus st;
        Body *b = lookup<Body>(body, K_BODY, "plIsActive", "body", &st);
        return b == nullptr ? -1 : (b->rb->isActive() ? 1 : 0);
    });
}

} // extern "C"
