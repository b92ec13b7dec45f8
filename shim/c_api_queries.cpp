// The pl* C API, part 6: what a world tells about itself after a step:
// a body's contacts (with the six impulses of a cone solve) and ray casts.
#include "c_api_internal.hpp"

#include <cstring>

using namespace rfshim::capi;

namespace {

// Helpers that return Bullet types stay out of the extern "C" block below
// (a C-linkage function cannot return btVector3; clang says so).
//
// A unit tangent orthogonal to n: dir if it is one, else Bullet's plane
// space of n.
btVector3 tangent_of(const btVector3 &n, const btVector3 &dir)
{
    btVector3 t = dir - n * n.dot(dir);
    if (t.length2() > (btScalar)1e-6) {
        return t.normalized();
    }
    btVector3 t1, t2;
    btPlaneSpace1(n, t1, t2);
    return t1.normalized();
}

} // namespace

extern "C" {

// ---- contacts
// --------------------------------------------------------------------

namespace {
// One manifold point seen from `self` (body 0 or body 1 of its manifold).
void fill_contact(const rf_plugin *plugin, const btManifoldPoint &pt,
                  bool self_is_a, plContactInfo *out)
{
    const btVector3 &n = pt.m_normalWorldOnB; // from B towards A
    // impulse on A: force F and torque T (world); B gets -F, -T
    btVector3 F, T(0, 0, 0);
    double g[6];
    const bool cone = rf_bullet_point_impulse(plugin, &pt, g) == RF_OK;
    if (cone) {
        const btVector3 &u = pt.m_lateralFrictionDir1,
                        &w = pt.m_lateralFrictionDir2;
        F = n * (btScalar)g[0] + u * (btScalar)g[1] + w * (btScalar)g[2];
        T = n * (btScalar)g[3] + u * (btScalar)g[4] + w * (btScalar)g[5];
    } else {
        F = n * pt.m_appliedImpulse +
            pt.m_lateralFrictionDir1 * pt.m_appliedImpulseLateral1 +
            pt.m_lateralFrictionDir2 * pt.m_appliedImpulseLateral2;
    }
    const btScalar sign = self_is_a ? 1 : -1;
    F *= sign;
    T *= sign;
    // the frame: normal towards self, tangents right-handed
    const btVector3 N = n * sign;
    const btVector3 T1 = tangent_of(N, pt.m_lateralFrictionDir1);
    const btVector3 T2 = N.cross(T1);
    const btVector3 &p =
        self_is_a ? pt.m_positionWorldOnA : pt.m_positionWorldOnB;
    const btVector3 axes[3] = {N, T1, T2};
    for (int k = 0; k < 3; ++k) {
        out->m_position[k] = p[k];
        out->m_normal[k] = N[k];
        out->m_tangent1[k] = T1[k];
        out->m_tangent2[k] = T2[k];
        out->m_impulse[k] = F.dot(axes[k]);
        out->m_impulse[3 + k] = T.dot(axes[k]);
    }
    out->m_distance = pt.getDistance();
    out->m_has_torques = cone ? 1 : 0;
    out->m_friction = pt.m_combinedFriction;
    out->m_rolling_friction = pt.m_combinedRollingFriction;
    out->m_spinning_friction = pt.m_combinedSpinningFriction;
}
} // namespace

int plGetContacts(plRigidBodyHandle body, plContactInfo *out, int max)
{
    static const char fn[] = "plGetContacts";
    return guarded(fn, -1, [&] {
        Lock lock(g_mutex);
        plStatus st;
        Body *b = lookup<Body>(body, K_BODY, fn, "body", &st);
        if (b == nullptr) {
            return -1;
        }
        if (max < 0 || (out == nullptr && max > 0)) {
            fail(max < 0 ? PL_ERR_INVALID : PL_ERR_NULL,
                 "%s: max = %d must be >= 0, and out non-NULL when max > 0", fn,
                 max);
            return -1;
        }
        World *w = b->world_handle != nullptr
                       ? lookup<World>(b->world_handle, K_WORLD, "", "", &st)
                       : nullptr;
        if (w == nullptr) {
            return 0;
        }
        btDispatcher *d = w->world.getDispatcher();
        int n = 0;
        for (int i = 0; i < d->getNumManifolds(); ++i) {
            const btPersistentManifold *m = d->getManifoldByIndexInternal(i);
            const bool is_a = m->getBody0() == b->rb.get();
            if (!is_a && m->getBody1() != b->rb.get()) {
                continue;
            }
            const btCollisionObject *other =
                is_a ? m->getBody1() : m->getBody0();
            for (int j = 0; j < m->getNumContacts(); ++j, ++n) {
                if (n >= max) {
                    continue;
                }
                fill_contact(w->plugin, m->getContactPoint(j), is_a, &out[n]);
                out[n].m_other = (plRigidBodyHandle)other->getUserPointer();
            }
        }
        return n;
    });
}

// ---- queries
// -------------------------------------------------------------------

int plRayCast(plDynamicsWorldHandle world, const plVector3 ray_start,
              const plVector3 ray_end, plRayCastResult *res)
{
    static const char fn[] = "plRayCast";
    return guarded(fn, -1, [&] {
        Lock lock(g_mutex);
        plStatus st;
        World *w = lookup<World>(world, K_WORLD, fn, "world", &st);
        if (w == nullptr) {
            return -1;
        }
        if (check_reals(fn, "ray_start", ray_start, 3) != PL_OK ||
            check_reals(fn, "ray_end", ray_end, 3) != PL_OK) {
            return -1;
        }
        if (res == nullptr) {
            fail(PL_ERR_NULL, "%s: res is NULL", fn);
            return -1;
        }
        btVector3 a(ray_start[0], ray_start[1], ray_start[2]);
        btVector3 b(ray_end[0], ray_end[1], ray_end[2]);
        btCollisionWorld::ClosestRayResultCallback cb(a, b);
        w->world.rayTest(a, b, cb);
        std::memset(res, 0, sizeof *res);
        if (!cb.hasHit()) {
            return 0;
        }
        void *bh = cb.m_collisionObject->getUserPointer();
        if (Body *body = lookup<Body>(bh, K_BODY, "", "", &st)) {
            res->m_body = (plRigidBodyHandle)bh;
            res->m_shape = (plCollisionShapeHandle)body->shape_handle;
        }
        for (int k = 0; k < 3; ++k) {
            res->m_positionWorld[k] = cb.m_hitPointWorld[k];
            res->m_normalWorld[k] = cb.m_hitNormalWorld[k];
        }
        return 1;
    });
}

} // extern "C"
