// The pl* C API, part 5: constraints (point-to-point, hinge, linear
// friction; limits, motors, breaking, adding to and removing from worlds).
#include "c_api_internal.hpp"

#include <algorithm>

using namespace rfshim::capi;

namespace {

// Helpers that return Bullet types stay out of the extern "C" block below
// (a C-linkage function cannot return btVector3; clang says so).
btVector3 vec(const plVector3 v)
{
    return btVector3(v[0], v[1], v[2]);
}

} // namespace

extern "C" {

// ---- constraints
// -----------------------------------------------------------------

namespace {
// The bodies of a new constraint: a dynamic, b NULL or another body.
plStatus constraint_bodies(const char *fn, plRigidBodyHandle a,
                           plRigidBodyHandle b, Body **ba, Body **bb)
{
    LOOKUP(Body, x, a, K_BODY, fn, "a");
    *ba = x;
    *bb = nullptr;
    if (b != nullptr) {
        LOOKUP(Body, y, b, K_BODY, fn, "b");
        if (x == y) {
            return fail(PL_ERR_INVALID, "%s: a and b are the same body", fn);
        }
        *bb = y;
    }
    if (x->rb->getInvMass() == 0) {
        return fail(PL_ERR_INVALID, "%s: a must be a dynamic body (mass > 0)",
                    fn);
    }
    return PL_OK;
}

// Register tc (owned from the start: freed if this throws) between a and
// b; every allocation comes before the first change.
plConstraintHandle register_constraint(btTypedConstraint *tc, Body *a, Body *b)
{
    std::unique_ptr<btTypedConstraint> owned(tc);
    auto c = std::make_unique<Constraint>();
    c->c = std::move(owned);
    c->body_a = a->handle;
    c->body_b = b != nullptr ? b->handle : nullptr;
    reserve_more(a->constraints, 1);
    if (b != nullptr) {
        reserve_more(b->constraints, 1);
    }
    Constraint *raw = c.get();
    raw->handle = own_handle(K_CONSTRAINT, std::move(c));
    a->constraints.push_back(raw->handle);
    if (b != nullptr) {
        b->constraints.push_back(raw->handle);
    }
    return (plConstraintHandle)raw->handle;
}

btHingeConstraint *hinge_of(plConstraintHandle h, const char *fn, plStatus *st)
{
    Constraint *c = lookup<Constraint>(h, K_CONSTRAINT, fn, "hinge", st);
    if (c == nullptr) {
        return nullptr;
    }
    auto *hc = dynamic_cast<btHingeConstraint *>(c->c.get());
    if (hc == nullptr) {
        *st = fail(PL_ERR_HANDLE, "%s: hinge is not a hinge constraint", fn);
    }
    return hc;
}
} // namespace

plConstraintHandle plNewPoint2PointConstraint(plRigidBodyHandle a,
                                              plRigidBodyHandle b,
                                              const plVector3 pivot_a,
                                              const plVector3 pivot_b)
{
    static const char fn[] = "plNewPoint2PointConstraint";
    return guarded(fn, nullptr, [&]() -> plConstraintHandle {
        Lock lock(g_mutex);
        Body *ba, *bb;
        if (constraint_bodies(fn, a, b, &ba, &bb) != PL_OK ||
            check_reals(fn, "pivot_a", pivot_a, 3) != PL_OK ||
            (bb != nullptr &&
             check_reals(fn, "pivot_b", pivot_b, 3) != PL_OK)) {
            return nullptr;
        }
        btTypedConstraint *tc =
            bb != nullptr ? new btPoint2PointConstraint(
                                *ba->rb, *bb->rb, vec(pivot_a), vec(pivot_b))
                          : new btPoint2PointConstraint(*ba->rb, vec(pivot_a));
        return register_constraint(tc, ba, bb);
    });
}

plConstraintHandle
plNewHingeConstraint(plRigidBodyHandle a, plRigidBodyHandle b,
                     const plVector3 pivot_a, const plVector3 pivot_b,
                     const plVector3 axis_a, const plVector3 axis_b)
{
    static const char fn[] = "plNewHingeConstraint";
    return guarded(fn, nullptr, [&]() -> plConstraintHandle {
        Lock lock(g_mutex);
        Body *ba, *bb;
        if (constraint_bodies(fn, a, b, &ba, &bb) != PL_OK ||
            check_reals(fn, "pivot_a", pivot_a, 3) != PL_OK ||
            check_reals(fn, "axis_a", axis_a, 3) != PL_OK ||
            (bb != nullptr &&
             (check_reals(fn, "pivot_b", pivot_b, 3) != PL_OK ||
              check_reals(fn, "axis_b", axis_b, 3) != PL_OK))) {
            return nullptr;
        }
        if (!(vec(axis_a).length() > (btScalar)1e-6) ||
            (bb != nullptr && !(vec(axis_b).length() > (btScalar)1e-6))) {
            fail(PL_ERR_INVALID, "%s: a hinge axis has zero length", fn);
            return nullptr;
        }
        btTypedConstraint *tc =
            bb != nullptr
                ? new btHingeConstraint(*ba->rb, *bb->rb, vec(pivot_a),
                                        vec(pivot_b), vec(axis_a).normalized(),
                                        vec(axis_b).normalized())
                : new btHingeConstraint(*ba->rb, vec(pivot_a),
                                        vec(axis_a).normalized());
        return register_constraint(tc, ba, bb);
    });
}

namespace {
btGeneric6DofSpring2Constraint *linear_friction_of(plConstraintHandle h,
                                                   const char *fn, plStatus *st)
{
    Constraint *c = lookup<Constraint>(h, K_CONSTRAINT, fn, "c", st);
    if (c == nullptr) {
        return nullptr;
    }
    auto *g = dynamic_cast<btGeneric6DofSpring2Constraint *>(c->c.get());
    if (g == nullptr) {
        *st = fail(PL_ERR_HANDLE, "%s: c is not a linear friction", fn);
    }
    return g;
}

// The linear friction of plNewLinearFriction, arguments checked.
btTypedConstraint *linear_friction(Body *ba, Body *bb, const btVector3 &ax,
                                   plReal max_force)
{
    // The constraint frame: x along axis (world), at a's centre of mass;
    // in a's frame (so the axis turns with a) and in b's (or the fixed
    // body's, which is the world frame) the same world frame.
    btVector3 ex = ax.normalized(), ey, ez;
    btPlaneSpace1(ex, ey, ez);
    btMatrix3x3 world_basis(ex.x(), ey.x(), ez.x(), ex.y(), ey.y(), ez.y(),
                            ex.z(), ey.z(), ez.z());
    const btTransform world_frame(world_basis,
                                  ba->rb->getCenterOfMassPosition());
    btRigidBody &rb_b =
        bb != nullptr ? *bb->rb : btTypedConstraint::getFixedBody();
    const btTransform frame_a =
        ba->rb->getCenterOfMassTransform().inverse() * world_frame;
    const btTransform frame_b =
        rb_b.getCenterOfMassTransform().inverse() * world_frame;
    auto *g =
        new btGeneric6DofSpring2Constraint(*ba->rb, rb_b, frame_a, frame_b);
    // every axis free (lower > upper), a motor on the linear x axis with
    // target velocity 0 and force up to max_force: the row -F h <= lambda
    // <= F h (btGeneric6DofSpring2Constraint::get_limit_motor_info2)
    g->setLinearLowerLimit(btVector3(1, 1, 1));
    g->setLinearUpperLimit(btVector3(-1, -1, -1));
    g->setAngularLowerLimit(btVector3(1, 1, 1));
    g->setAngularUpperLimit(btVector3(-1, -1, -1));
    g->enableMotor(0, true);
    g->setTargetVelocity(0, 0);
    g->setMaxMotorForce(0, max_force);
    return g;
}
} // namespace

plConstraintHandle plNewLinearFriction(plRigidBodyHandle a, plRigidBodyHandle b,
                                       const plVector3 axis, plReal max_force)
{
    static const char fn[] = "plNewLinearFriction";
    return guarded(fn, nullptr, [&]() -> plConstraintHandle {
        Lock lock(g_mutex);
        Body *ba, *bb;
        if (constraint_bodies(fn, a, b, &ba, &bb) != PL_OK ||
            check_reals(fn, "axis", axis, 3) != PL_OK) {
            return nullptr;
        }
        if (!is_finite(max_force)) {
            fail(PL_ERR_NONFINITE, "%s: max_force is not finite", fn);
            return nullptr;
        }
        if (max_force < 0) {
            fail(PL_ERR_INVALID, "%s: max_force = %g is negative", fn,
                 (double)max_force);
            return nullptr;
        }
        const btVector3 ax = vec(axis);
        if (!(ax.length() > (btScalar)1e-6)) {
            fail(PL_ERR_INVALID, "%s: axis has zero length", fn);
            return nullptr;
        }
        return register_constraint(linear_friction(ba, bb, ax, max_force), ba,
                                   bb);
    });
}

plStatus plSetLinearFrictionForce(plConstraintHandle c, plReal max_force)
{
    static const char fn[] = "plSetLinearFrictionForce";
    return guarded(fn, [&] {
        Lock lock(g_mutex);
        plStatus st;
        btGeneric6DofSpring2Constraint *g = linear_friction_of(c, fn, &st);
        if (g == nullptr) {
            return st;
        }
        if (!is_finite(max_force)) {
            return fail(PL_ERR_NONFINITE, "%s: max_force is not finite", fn);
        }
        if (max_force < 0) {
            return fail(PL_ERR_INVALID, "%s: max_force = %g is negative", fn,
                        (double)max_force);
        }
        g->setMaxMotorForce(0, max_force);
        return PL_OK;
    });
}

plStatus plSetHingeLimit(plConstraintHandle hinge, plReal low, plReal high)
{
    static const char fn[] = "plSetHingeLimit";
    return guarded(fn, [&] {
        plStatus st;
        btHingeConstraint *h = hinge_of(hinge, fn, &st);
        if (h == nullptr) {
            return st;
        }
        if (!is_finite(low) || !is_finite(high)) {
            return fail(PL_ERR_NONFINITE, "%s: low or high is not finite", fn);
        }
        h->setLimit(low, high);
        return PL_OK;
    });
}

plStatus plEnableHingeMotor(plConstraintHandle hinge, int enable,
                            plReal target_velocity, plReal max_impulse)
{
    static const char fn[] = "plEnableHingeMotor";
    return guarded(fn, [&] {
        plStatus st;
        btHingeConstraint *h = hinge_of(hinge, fn, &st);
        if (h == nullptr) {
            return st;
        }
        if (!is_finite(target_velocity) || !is_finite(max_impulse)) {
            return fail(PL_ERR_NONFINITE,
                        "%s: target_velocity or max_impulse is not finite", fn);
        }
        if (max_impulse < 0 || (enable != 0 && enable != 1)) {
            return fail(PL_ERR_INVALID,
                        "%s: max_impulse = %g must be >= 0 and enable = %d 0 "
                        "or 1",
                        fn, (double)max_impulse, enable);
        }
        h->enableAngularMotor(enable != 0, target_velocity, max_impulse);
        return PL_OK;
    });
}

plStatus plGetHingeAngle(plConstraintHandle hinge, plReal *angle)
{
    static const char fn[] = "plGetHingeAngle";
    return guarded(fn, [&] {
        plStatus st;
        btHingeConstraint *h = hinge_of(hinge, fn, &st);
        if (h == nullptr) {
            return st;
        }
        if (angle == nullptr) {
            return fail(PL_ERR_NULL, "%s: angle is NULL", fn);
        }
        *angle = h->getHingeAngle();
        return PL_OK;
    });
}

plStatus plSetBreakingImpulse(plConstraintHandle c, plReal threshold)
{
    static const char fn[] = "plSetBreakingImpulse";
    return guarded(fn, [&] {
        LOOKUP(Constraint, x, c, K_CONSTRAINT, fn, "c");
        if (!is_finite(threshold)) {
            return fail(PL_ERR_NONFINITE, "%s: threshold is not finite", fn);
        }
        if (!(threshold > 0)) {
            return fail(PL_ERR_INVALID, "%s: threshold = %g must be > 0", fn,
                        (double)threshold);
        }
        x->c->setBreakingImpulseThreshold(threshold);
        return PL_OK;
    });
}

int plIsConstraintEnabled(plConstraintHandle c)
{
    static const char fn[] = "plIsConstraintEnabled";
    return guarded(fn, -1, [&] {
        plStatus st;
        Constraint *x = lookup<Constraint>(c, K_CONSTRAINT, fn, "c", &st);
        return x == nullptr ? -1 : (x->c->isEnabled() ? 1 : 0);
    });
}

plStatus plGetConstraintImpulse(plConstraintHandle c, plReal *impulse)
{
    static const char fn[] = "plGetConstraintImpulse";
    return guarded(fn, [&] {
        LOOKUP(Constraint, x, c, K_CONSTRAINT, fn, "c");
        if (impulse == nullptr) {
            return fail(PL_ERR_NULL, "%s: impulse is NULL", fn);
        }
        *impulse = x->c->getAppliedImpulse();
        return PL_OK;
    });
}

plStatus plAddConstraint(plDynamicsWorldHandle world, plConstraintHandle c,
                         int disable_collisions)
{
    static const char fn[] = "plAddConstraint";
    return guarded(fn, [&] {
        Lock lock(g_mutex);
        LOOKUP(World, w, world, K_WORLD, fn, "world");
        LOOKUP(Constraint, x, c, K_CONSTRAINT, fn, "c");
        if (disable_collisions != 0 && disable_collisions != 1) {
            return fail(PL_ERR_INVALID,
                        "%s: disable_collisions = %d not 0 or 1", fn,
                        disable_collisions);
        }
        if (x->world_handle != nullptr) {
            return fail(PL_ERR_STATE,
                        "%s: the constraint is already in a world", fn);
        }
        for (void *bh : {x->body_a, x->body_b}) {
            plStatus st;
            Body *b = bh ? lookup<Body>(bh, K_BODY, "", "", &st) : nullptr;
            if (b != nullptr && b->world_handle != (void *)world) {
                return fail(PL_ERR_STATE,
                            "%s: body %s of the constraint is not in this "
                            "world",
                            fn, bh == x->body_a ? "a" : "b");
            }
        }
        reserve_more(w->constraints, 1);
        w->world.addConstraint(x->c.get(), disable_collisions != 0);
        w->constraints.push_back(c);
        x->world_handle = world;
        return PL_OK;
    });
}

plStatus plRemoveConstraint(plDynamicsWorldHandle world, plConstraintHandle c)
{
    static const char fn[] = "plRemoveConstraint";
    return guarded(fn, [&] {
        Lock lock(g_mutex);
        LOOKUP(World, w, world, K_WORLD, fn, "world");
        LOOKUP(Constraint, x, c, K_CONSTRAINT, fn, "c");
        if (x->world_handle != (void *)world) {
            return fail(PL_ERR_STATE, "%s: the constraint is not in this world",
                        fn);
        }
        (void)w;
        remove_constraint_from_world(x);
        return PL_OK;
    });
}

plStatus plDeleteConstraint(plConstraintHandle c)
{
    return guarded("plDeleteConstraint", [&] {
        Lock lock(g_mutex);
        LOOKUP(Constraint, x, c, K_CONSTRAINT, "plDeleteConstraint", "c");
        remove_constraint_from_world(x);
        for (void *bh : {x->body_a, x->body_b}) {
            plStatus st;
            Body *b = bh ? lookup<Body>(bh, K_BODY, "", "", &st) : nullptr;
            if (b != nullptr) {
                auto &v = b->constraints;
                v.erase(std::find(v.begin(), v.end(), (void *)c));
            }
        }
        delete x;
        drop_handle(c);
        return PL_OK;
    });
}

} // extern "C"
