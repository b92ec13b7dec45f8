// The pl* C API, part 3: collision shapes (primitives, plane, triangle
// mesh, compound, convex hull, scaling, deletion).
#include "c_api_internal.hpp"

#include <cstring>

using namespace rfshim::capi;

namespace {

// Register a new shape, which it owns from the start (freed if the
// handle cannot be made); static_only names it when only static bodies
// may use it ("a static plane").
plCollisionShapeHandle new_shape(btCollisionShape *shape,
                                 const char *static_only = nullptr)
{
    std::unique_ptr<btCollisionShape> owned(shape);
    auto s = std::make_unique<Shape>();
    s->shape = std::move(owned);
    s->static_only = static_only;
    return (plCollisionShapeHandle)own_handle(K_SHAPE, std::move(s));
}

// A static triangle mesh of checked arrays, copied.
plCollisionShapeHandle new_mesh_shape(const btScalar *vertices,
                                      int num_vertices, const int *indices,
                                      int num_triangles)
{
    auto s = std::make_unique<Shape>();
    s->mesh_vertices.assign(vertices, vertices + 3 * num_vertices);
    s->mesh_indices.assign(indices, indices + 3 * num_triangles);
    s->mesh.reset(new btTriangleIndexVertexArray(
        num_triangles, s->mesh_indices.data(), 3 * (int)sizeof(int),
        num_vertices, s->mesh_vertices.data(), 3 * (int)sizeof(btScalar)));
    s->shape.reset(new btBvhTriangleMeshShape(s->mesh.get(), true));
    s->static_only = "a triangle mesh";
    return (plCollisionShapeHandle)own_handle(K_SHAPE, std::move(s));
}

// Two positive finite sizes, or an error for fn.
plStatus check_sizes(const char *fn, plReal a, const char *na, plReal b,
                     const char *nb)
{
    if (!is_finite(a) || !is_finite(b)) {
        return fail(PL_ERR_NONFINITE, "%s: %s or %s is not finite", fn, na, nb);
    }
    if (!(a > 0) || !(b > 0)) {
        // name what is wrong: one size, or both
        if (!(a > 0) && !(b > 0) && std::strcmp(na, nb) != 0) {
            return fail(PL_ERR_INVALID, "%s: %s = %g and %s = %g must be > 0",
                        fn, na, (double)a, nb, (double)b);
        }
        return fail(PL_ERR_INVALID, "%s: %s = %g must be > 0", fn,
                    a > 0 ? nb : na, (double)(a > 0 ? b : a));
    }
    return PL_OK;
}

} // namespace

extern "C" {

// ---- shapes
// --------------------------------------------------------------------

plCollisionShapeHandle plNewSphereShape(plReal radius)
{
    static const char fn[] = "plNewSphereShape";
    return guarded(fn, nullptr, [&]() -> plCollisionShapeHandle {
        Lock lock(g_mutex);
        if (need_sdk(fn) != PL_OK ||
            check_sizes(fn, radius, "radius", radius, "radius") != PL_OK) {
            return nullptr;
        }
        return new_shape(new btSphereShape(radius));
    });
}

plCollisionShapeHandle plNewBoxShape(plReal x, plReal y, plReal z)
{
    static const char fn[] = "plNewBoxShape";
    return guarded(fn, nullptr, [&]() -> plCollisionShapeHandle {
        Lock lock(g_mutex);
        if (need_sdk(fn) != PL_OK) {
            return nullptr;
        }
        if (!is_finite(x) || !is_finite(y) || !is_finite(z)) {
            fail(PL_ERR_NONFINITE, "%s: an extent is not finite", fn);
            return nullptr;
        }
        // A zero extent is a flat box (the classic BulletDino floor is
        // plNewBoxShape(120, 0, 120)): btBoxShape's margin gives it
        // thickness.
        if (!(x >= 0) || !(y >= 0) || !(z >= 0) || !(x > 0 || y > 0 || z > 0)) {
            fail(PL_ERR_INVALID,
                 "%s: half extents (%g, %g, %g) must be >= 0 and not all 0", fn,
                 (double)x, (double)y, (double)z);
            return nullptr;
        }
        return new_shape(new btBoxShape(btVector3(x, y, z)));
    });
}

namespace {
enum AxisShape { CAPSULE, CONE, CYLINDER, MULTI_SPHERE_CAPSULE };
// A capsule, cone or cylinder along axis (0 x, 1 y, 2 z) with the classic
// pl* meaning of height (capsule: half the straight part; cone: full
// height; cylinder: half height).
btCollisionShape *axis_shape(AxisShape kind, plReal radius, plReal height,
                             int axis)
{
    switch (kind) {
    case MULTI_SPHERE_CAPSULE: { // the classic plNewCapsuleShape's shape
        const btVector3 centres[2] = {btVector3(0, height, 0),
                                      btVector3(0, -height, 0)};
        const btScalar radii[2] = {radius, radius};
        return new btMultiSphereShape(centres, radii, 2);
    }
    case CAPSULE: // sphere centres at +-height
        return axis == 0
                   ? (btCollisionShape *)new btCapsuleShapeX(radius, 2 * height)
               : axis == 1
                   ? (btCollisionShape *)new btCapsuleShape(radius, 2 * height)
                   : (btCollisionShape *)new btCapsuleShapeZ(radius,
                                                             2 * height);
    case CONE:
        return axis == 0 ? (btCollisionShape *)new btConeShapeX(radius, height)
               : axis == 1
                   ? (btCollisionShape *)new btConeShape(radius, height)
                   : (btCollisionShape *)new btConeShapeZ(radius, height);
    case CYLINDER: { // half extents: height along the axis, radius across
        btVector3 half(radius, radius, radius);
        half[axis] = height;
        return axis == 0   ? (btCollisionShape *)new btCylinderShapeX(half)
               : axis == 1 ? (btCollisionShape *)new btCylinderShape(half)
                           : (btCollisionShape *)new btCylinderShapeZ(half);
    }
    }
    return nullptr;
}
// That shape for fn (arguments checked, registered), or NULL with the
// error set.
plCollisionShapeHandle new_axis_shape(const char *fn, AxisShape kind,
                                      plReal radius, plReal height, int axis)
{
    return guarded(fn, nullptr, [&]() -> plCollisionShapeHandle {
        Lock lock(g_mutex);
        if (need_sdk(fn) != PL_OK ||
            check_sizes(fn, radius, "radius", height, "height") != PL_OK) {
            return nullptr;
        }
        if (axis < 0 || axis > 2) {
            fail(PL_ERR_INVALID, "%s: axis = %d must be 0 (x), 1 (y) or 2 (z)",
                 fn, axis);
            return nullptr;
        }
        return new_shape(axis_shape(kind, radius, height, axis));
    });
}
} // namespace

plCollisionShapeHandle plNewCapsuleShape(plReal radius, plReal height)
{
    // what the classic implementation built: a btMultiSphereShape of two
    // spheres at +-height, not a btCapsuleShape (whose margin sits
    // differently: a standing capsule(0.25, 0.5) rests at 0.75 m instead
    // of the classic 0.723)
    return new_axis_shape("plNewCapsuleShape", MULTI_SPHERE_CAPSULE, radius,
                          height, 1);
}
plCollisionShapeHandle plNewConeShape(plReal radius, plReal height)
{
    return new_axis_shape("plNewConeShape", CONE, radius, height, 1);
}
plCollisionShapeHandle plNewCylinderShape(plReal radius, plReal height)
{
    return new_axis_shape("plNewCylinderShape", CYLINDER, radius, height, 1);
}
plCollisionShapeHandle plNewCapsuleShapeAxis(plReal radius, plReal height,
                                             int axis)
{
    return new_axis_shape("plNewCapsuleShapeAxis", CAPSULE, radius, height,
                          axis);
}
plCollisionShapeHandle plNewConeShapeAxis(plReal radius, plReal height,
                                          int axis)
{
    return new_axis_shape("plNewConeShapeAxis", CONE, radius, height, axis);
}
plCollisionShapeHandle plNewCylinderShapeAxis(plReal radius, plReal height,
                                              int axis)
{
    return new_axis_shape("plNewCylinderShapeAxis", CYLINDER, radius, height,
                          axis);
}

plCollisionShapeHandle plNewStaticPlaneShape(const plVector3 normal,
                                             plReal constant)
{
    static const char fn[] = "plNewStaticPlaneShape";
    return guarded(fn, nullptr, [&]() -> plCollisionShapeHandle {
        Lock lock(g_mutex);
        if (need_sdk(fn) != PL_OK) {
            return nullptr;
        }
        if (check_reals(fn, "normal", normal, 3) != PL_OK ||
            check_reals(fn, "constant", &constant, 1) != PL_OK) {
            return nullptr;
        }
        btVector3 n(normal[0], normal[1], normal[2]);
        if (!(n.length() > (btScalar)1e-6)) {
            fail(PL_ERR_INVALID, "%s: the normal has zero length", fn);
            return nullptr;
        }
        return new_shape(new btStaticPlaneShape(n.normalized(), constant),
                         "a static plane");
    });
}

plCollisionShapeHandle
plNewStaticTriangleMeshShapeIndexed(const plReal *vertices, int num_vertices,
                                    const int *indices, int num_triangles)
{
    static const char fn[] = "plNewStaticTriangleMeshShapeIndexed";
    return guarded(fn, nullptr, [&]() -> plCollisionShapeHandle {
        Lock lock(g_mutex);
        if (need_sdk(fn) != PL_OK) {
            return nullptr;
        }
        if (vertices == nullptr || indices == nullptr) {
            fail(PL_ERR_NULL, "%s: %s is NULL", fn,
                 vertices == nullptr ? "vertices" : "indices");
            return nullptr;
        }
        if (num_vertices < 3 || num_triangles < 1) {
            fail(PL_ERR_INVALID,
                 "%s: num_vertices = %d must be >= 3 and num_triangles = %d "
                 ">= 1",
                 fn, num_vertices, num_triangles);
            return nullptr;
        }
        if (check_reals(fn, "vertices", vertices, 3 * num_vertices) != PL_OK) {
            return nullptr;
        }
        for (int t = 0; t < num_triangles; ++t) {
            const int *tri = indices + 3 * t;
            for (int k = 0; k < 3; ++k) {
                if (tri[k] < 0 || tri[k] >= num_vertices) {
                    fail(PL_ERR_INVALID,
                         "%s: indices[%d] = %d is not a vertex (0..%d)", fn,
                         3 * t + k, tri[k], num_vertices - 1);
                    return nullptr;
                }
            }
            if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2]) {
                fail(PL_ERR_INVALID, "%s: triangle %d repeats a vertex index",
                     fn, t);
                return nullptr;
            }
        }
        return new_mesh_shape(vertices, num_vertices, indices, num_triangles);
    });
}

plCollisionShapeHandle plNewStaticTriangleMeshShape(plMeshInterfaceHandle mesh)
{
    static const char fn[] = "plNewStaticTriangleMeshShape";
    return guarded(fn, nullptr, [&]() -> plCollisionShapeHandle {
        Lock lock(g_mutex);
        if (need_sdk(fn) != PL_OK) {
            return nullptr;
        }
        plStatus st;
        MeshInterface *m = lookup<MeshInterface>(mesh, K_MESH, fn, "mesh", &st);
        if (m == nullptr) {
            return nullptr;
        }
        const int nt = (int)(m->triangles.size() / 9);
        if (nt == 0) {
            fail(PL_ERR_INVALID, "%s: the mesh interface has no triangle", fn);
            return nullptr;
        }
        // each triangle its own three vertices, as btTriangleMesh keeps
        // them without welding
        std::vector<int> idx((size_t)(3 * nt));
        for (int k = 0; k < 3 * nt; ++k) {
            idx[(size_t)k] = k;
        }
        return new_mesh_shape(m->triangles.data(), 3 * nt, idx.data(), nt);
    });
}

plStatus plGetAnisotropicRollingFrictionDirection(plCollisionShapeHandle shape,
                                                  plVector3 direction)
{
    static const char fn[] = "plGetAnisotropicRollingFrictionDirection";
    return guarded(fn, [&] {
        LOOKUP(Shape, s, shape, K_SHAPE, fn, "shape");
        if (direction == nullptr) {
            return fail(PL_ERR_NULL, "%s: direction is NULL", fn);
        }
        const btVector3 d = s->shape->getAnisotropicRollingFrictionDirection();
        for (int k = 0; k < 3; ++k) {
            direction[k] = d[k];
        }
        return PL_OK;
    });
}

plCollisionShapeHandle plNewCompoundShape(void)
{
    static const char fn[] = "plNewCompoundShape";
    return guarded(fn, nullptr, [&]() -> plCollisionShapeHandle {
        Lock lock(g_mutex);
        if (need_sdk(fn) != PL_OK) {
            return nullptr;
        }
        return new_shape(new btCompoundShape());
    });
}

plStatus plAddChildShape(plCollisionShapeHandle compound,
                         plCollisionShapeHandle child, const plVector3 pos,
                         const plQuaternion orn)
{
    static const char fn[] = "plAddChildShape";
    return guarded(fn, [&] {
        Lock lock(g_mutex);
        LOOKUP(Shape, c, compound, K_SHAPE, fn, "compound");
        LOOKUP(Shape, ch, child, K_SHAPE, fn, "child");
        auto *cs = dynamic_cast<btCompoundShape *>(c->shape.get());
        if (cs == nullptr) {
            return fail(PL_ERR_INVALID, "%s: compound is not a compound shape",
                        fn);
        }
        if (c == ch || ch->static_only != nullptr) {
            return fail(PL_ERR_INVALID, "%s: child cannot be %s", fn,
                        c == ch ? "the compound itself" : ch->static_only);
        }
        if (c->users > 0) {
            return fail(PL_ERR_STATE, "%s: the compound is in use by a body",
                        fn);
        }
        if (plStatus st = check_reals(fn, "pos", pos, 3)) {
            return st;
        }
        if (plStatus st = check_reals(fn, "orn", orn, 4)) {
            return st;
        }
        btQuaternion q(orn[0], orn[1], orn[2], orn[3]);
        if (!(q.length() > (btScalar)1e-6)) {
            return fail(PL_ERR_INVALID, "%s: orn has zero length", fn);
        }
        reserve_more(c->children, 1);
        cs->addChildShape(
            btTransform(q.normalized(), btVector3(pos[0], pos[1], pos[2])),
            ch->shape.get());
        ch->users++;
        c->children.push_back(child);
        return PL_OK;
    });
}

plCollisionShapeHandle plNewConvexHullShape(void)
{
    static const char fn[] = "plNewConvexHullShape";
    return guarded(fn, nullptr, [&]() -> plCollisionShapeHandle {
        Lock lock(g_mutex);
        if (need_sdk(fn) != PL_OK) {
            return nullptr;
        }
        return new_shape(new btConvexHullShape());
    });
}

plStatus plAddVertex(plCollisionShapeHandle hull, plReal x, plReal y, plReal z)
{
    static const char fn[] = "plAddVertex";
    return guarded(fn, [&] {
        Lock lock(g_mutex);
        LOOKUP(Shape, s, hull, K_SHAPE, fn, "hull");
        auto *h = dynamic_cast<btConvexHullShape *>(s->shape.get());
        if (h == nullptr) {
            return fail(PL_ERR_INVALID, "%s: hull is not a convex hull shape",
                        fn);
        }
        if (!is_finite(x) || !is_finite(y) || !is_finite(z)) {
            return fail(PL_ERR_NONFINITE, "%s: the vertex is not finite", fn);
        }
        if (s->users > 0) {
            return fail(PL_ERR_STATE, "%s: the hull is in use", fn);
        }
        h->addPoint(btVector3(x, y, z));
        return PL_OK;
    });
}

plStatus plSetScaling(plCollisionShapeHandle shape, const plVector3 scaling)
{
    static const char fn[] = "plSetScaling";
    return guarded(fn, [&] {
        Lock lock(g_mutex);
        LOOKUP(Shape, s, shape, K_SHAPE, fn, "shape");
        if (plStatus st = check_reals(fn, "scaling", scaling, 3)) {
            return st;
        }
        if (!(scaling[0] > 0 && scaling[1] > 0 && scaling[2] > 0)) {
            return fail(PL_ERR_INVALID, "%s: scaling must be > 0 on every axis",
                        fn);
        }
        if (s->users > 0) {
            return fail(PL_ERR_STATE, "%s: the shape is in use", fn);
        }
        s->shape->setLocalScaling(
            btVector3(scaling[0], scaling[1], scaling[2]));
        return PL_OK;
    });
}

plStatus plDeleteShape(plCollisionShapeHandle shape)
{
    return guarded("plDeleteShape", [&] {
        Lock lock(g_mutex);
        LOOKUP(Shape, s, shape, K_SHAPE, "plDeleteShape", "shape");
        if (s->users > 0) {
            return fail(PL_ERR_STATE,
                        "plDeleteShape: the shape is used by %d bodies or "
                        "compounds; delete them first",
                        s->users);
        }
        for (void *ch : s->children) {
            plStatus st;
            Shape *c = lookup<Shape>(ch, K_SHAPE, "", "", &st);
            if (c != nullptr) {
                c->users--;
            }
        }
        delete s;
        drop_handle(shape);
        return PL_OK;
    });
}

} // extern "C"
