// The pl* C API, part 7: the classic header's collision-only part (issue
// #26), which Bullet 2.x declared but left empty or unimplemented: the
// mesh interface (triangles for plNewStaticTriangleMeshShape), the SAP
// broadphase with its proxies and pair callbacks, the collision world, and
// plNearestPoints (GJK on two triangles, as Bullet 2.82's implementation).
#include "c_api_internal.hpp"

#include <BulletCollision/CollisionShapes/btTriangleShape.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btMinkowskiPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btPointCollector.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>

#include <algorithm>
#include <cmath>

namespace rfshim {
namespace capi {

namespace {
std::vector<void *> g_meshes; // live mesh interface handles
} // namespace

void delete_collision_world(void *h, CollisionWorld *w)
{
    delete w;
    drop_handle(h);
}

void release_mesh_interfaces()
{
    for (void *h : g_meshes) {
        plStatus st;
        MeshInterface *m = lookup<MeshInterface>(h, K_MESH, "", "", &st);
        delete m;
        drop_handle(h);
    }
    g_meshes.clear();
}

namespace {
// Report a pair to the caller's callback cb (begin or end) of bp.  An
// exception it throws (a C++ caller's) must not unwind through Bullet's
// sweep, which would be left halfway: the first one is kept and
// rethrow_callback_error throws it once Bullet's call has returned.
void call_back(Broadphase *bp, btBroadphaseCallback cb, void *a, void *b)
{
    if (cb == nullptr) {
        return;
    }
    try {
        cb(bp->handle, a, b);
    } catch (...) {
        if (!bp->callback_error) {
            bp->callback_error = std::current_exception();
        }
    }
}
} // namespace

// btAxisSweep3 calls these as a pair of proxies starts and stops
// overlapping (its m_userPairCallback), after its own pair cache.
btBroadphasePair *PairReporter::addOverlappingPair(btBroadphaseProxy *p0,
                                                   btBroadphaseProxy *p1)
{
    call_back(owner, owner->begin, p0->m_clientObject, p1->m_clientObject);
    return nullptr;
}

void *PairReporter::removeOverlappingPair(btBroadphaseProxy *p0,
                                          btBroadphaseProxy *p1, btDispatcher *)
{
    call_back(owner, owner->end, p0->m_clientObject, p1->m_clientObject);
    return nullptr;
}

} // namespace capi
} // namespace rfshim

using namespace rfshim::capi;

namespace {

// A proxy's box: finite, min <= max, inside the broadphase's range.
plStatus check_box(const char *fn, const plReal mn[3], const plReal mx[3])
{
    for (int k = 0; k < 3; ++k) {
        if (!is_finite(mn[k]) || !is_finite(mx[k])) {
            return fail(PL_ERR_NONFINITE, "%s: a box bound is not finite", fn);
        }
        if (!(mn[k] <= mx[k])) {
            return fail(PL_ERR_INVALID, "%s: min %g > max %g on axis %d", fn,
                        (double)mn[k], (double)mx[k], k);
        }
        if (mn[k] < -1000 || mx[k] > 1000) {
            return fail(PL_ERR_INVALID,
                        "%s: the box leaves the broadphase's range (-1000 to "
                        "1000 m) on axis %d",
                        fn, k);
        }
    }
    return PL_OK;
}

// The current pairs of bp that hold proxy p, reported ended.
void end_pairs_of(Broadphase *bp, btBroadphaseProxy *p)
{
    if (bp->end == nullptr) {
        return;
    }
    btBroadphasePairArray &pairs =
        bp->sap.getOverlappingPairCache()->getOverlappingPairArray();
    for (int k = 0; k < pairs.size(); ++k) {
        const btBroadphasePair &pr = pairs[k];
        if (pr.m_pProxy0 == p || pr.m_pProxy1 == p) {
            call_back(bp, bp->end, pr.m_pProxy0->m_clientObject,
                      pr.m_pProxy1->m_clientObject);
        }
    }
}

// Throw what a pair callback threw during this call, if anything (the
// call's own work is done by then).
void rethrow_callback_error(Broadphase *bp)
{
    if (bp->callback_error) {
        std::exception_ptr e;
        e.swap(bp->callback_error);
        std::rethrow_exception(e);
    }
}

bool finite3f(const float *v)
{
    return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]);
}

} // namespace

extern "C" {

// ---- mesh interface
// ------------------------------------------------------------

plMeshInterfaceHandle plNewMeshInterface(void)
{
    static const char fn[] = "plNewMeshInterface";
    return guarded(fn, nullptr, [&]() -> plMeshInterfaceHandle {
        Lock lock(g_mutex);
        if (need_sdk(fn) != PL_OK) {
            return nullptr;
        }
        reserve_more(g_meshes, 1);
        void *h = own_handle(K_MESH, std::make_unique<MeshInterface>());
        g_meshes.push_back(h);
        return (plMeshInterfaceHandle)h;
    });
}

plStatus plAddTriangle(plMeshInterfaceHandle mesh, const plVector3 v0,
                       const plVector3 v1, const plVector3 v2)
{
    static const char fn[] = "plAddTriangle";
    return guarded(fn, [&] {
        Lock lock(g_mutex);
        LOOKUP(MeshInterface, m, mesh, K_MESH, fn, "mesh");
        const plReal *v[3] = {v0, v1, v2};
        static const char *names[3] = {"v0", "v1", "v2"};
        for (int k = 0; k < 3; ++k) {
            if (plStatus st = check_reals(fn, names[k], v[k], 3)) {
                return st;
            }
        }
        reserve_more(m->triangles, 9); // the whole triangle or nothing
        for (int k = 0; k < 3; ++k) {
            m->triangles.insert(m->triangles.end(), v[k], v[k] + 3);
        }
        return PL_OK;
    });
}

plStatus plDeleteMeshInterface(plMeshInterfaceHandle mesh)
{
    return guarded("plDeleteMeshInterface", [&] {
        Lock lock(g_mutex);
        LOOKUP(MeshInterface, m, mesh, K_MESH, "plDeleteMeshInterface", "mesh");
        g_meshes.erase(
            std::find(g_meshes.begin(), g_meshes.end(), (void *)mesh));
        delete m;
        drop_handle(mesh);
        return PL_OK;
    });
}

// ---- broadphase and proxies
// ----------------------------------------------------

plCollisionBroadphaseHandle plCreateSapBroadphase(btBroadphaseCallback begin,
                                                  btBroadphaseCallback end)
{
    static const char fn[] = "plCreateSapBroadphase";
    return guarded(fn, nullptr, [&]() -> plCollisionBroadphaseHandle {
        Lock lock(g_mutex);
        if (need_sdk(fn) != PL_OK) {
            return nullptr;
        }
        auto owned = std::make_unique<Broadphase>();
        Broadphase *bp = owned.get();
        bp->begin = begin;
        bp->end = end;
        bp->reporter.owner = bp;
        bp->sap.setOverlappingPairUserCallback(&bp->reporter);
        bp->handle = own_handle(K_BROADPHASE, std::move(owned));
        return (plCollisionBroadphaseHandle)bp->handle;
    });
}

plStatus plDestroyBroadphase(plCollisionBroadphaseHandle bph)
{
    return guarded("plDestroyBroadphase", [&] {
        Lock lock(g_mutex);
        LOOKUP(Broadphase, bp, bph, K_BROADPHASE, "plDestroyBroadphase", "bp");
        for (void *ph : bp->proxies) {
            plStatus st;
            Proxy *p = lookup<Proxy>(ph, K_PROXY, "", "", &st);
            bp->sap.destroyProxy(p->proxy, nullptr);
            delete p;
            drop_handle(ph);
        }
        delete bp;
        drop_handle(bph);
        return PL_OK;
    });
}

plBroadphaseProxyHandle plCreateProxy(plCollisionBroadphaseHandle bph,
                                      void *client, plReal minX, plReal minY,
                                      plReal minZ, plReal maxX, plReal maxY,
                                      plReal maxZ)
{
    static const char fn[] = "plCreateProxy";
    return guarded(fn, nullptr, [&]() -> plBroadphaseProxyHandle {
        Lock lock(g_mutex);
        plStatus st;
        Broadphase *bp = lookup<Broadphase>(bph, K_BROADPHASE, fn, "bp", &st);
        const plReal mn[3] = {minX, minY, minZ}, mx[3] = {maxX, maxY, maxZ};
        if (bp == nullptr || check_box(fn, mn, mx) != PL_OK) {
            return nullptr;
        }
        auto owned = std::make_unique<Proxy>();
        Proxy *p = owned.get();
        p->bp_handle = bph;
        reserve_more(bp->proxies, 1);
        void *h = own_handle(K_PROXY, std::move(owned));
        bp->proxies.push_back(h);
        // every proxy meets every other (filter group 1, mask all); the
        // begin callback fires inside createProxy for the boxes it overlaps
        p->proxy = bp->sap.createProxy(
            btVector3(minX, minY, minZ), btVector3(maxX, maxY, maxZ),
            BOX_SHAPE_PROXYTYPE, client, 1, -1, nullptr);
        rethrow_callback_error(bp);
        return (plBroadphaseProxyHandle)h;
    });
}

plStatus plDestroyProxy(plCollisionBroadphaseHandle bph,
                        plBroadphaseProxyHandle ph)
{
    static const char fn[] = "plDestroyProxy";
    return guarded(fn, [&] {
        Lock lock(g_mutex);
        LOOKUP(Broadphase, bp, bph, K_BROADPHASE, fn, "bp");
        LOOKUP(Proxy, p, ph, K_PROXY, fn, "proxy");
        if (p->bp_handle != (void *)bph) {
            return fail(PL_ERR_INVALID,
                        "%s: the proxy belongs to another broadphase", fn);
        }
        // btAxisSweep3 drops the proxy's pairs without telling its user
        // callback: report them ended here
        end_pairs_of(bp, p->proxy);
        bp->sap.destroyProxy(p->proxy, nullptr);
        auto &v = bp->proxies;
        v.erase(std::find(v.begin(), v.end(), (void *)ph));
        delete p;
        drop_handle(ph);
        rethrow_callback_error(bp);
        return PL_OK;
    });
}

plStatus plSetBoundingBox(plBroadphaseProxyHandle ph, plReal minX, plReal minY,
                          plReal minZ, plReal maxX, plReal maxY, plReal maxZ)
{
    static const char fn[] = "plSetBoundingBox";
    return guarded(fn, [&] {
        Lock lock(g_mutex);
        LOOKUP(Proxy, p, ph, K_PROXY, fn, "proxy");
        LOOKUP(Broadphase, bp, p->bp_handle, K_BROADPHASE, fn,
               "proxy's broadphase");
        const plReal mn[3] = {minX, minY, minZ}, mx[3] = {maxX, maxY, maxZ};
        if (plStatus st = check_box(fn, mn, mx)) {
            return st;
        }
        // the sweep moves the box's edges and reports each pair that starts
        // or stops overlapping at once
        bp->sap.setAabb(p->proxy, btVector3(minX, minY, minZ),
                        btVector3(maxX, maxY, maxZ), nullptr);
        rethrow_callback_error(bp);
        return PL_OK;
    });
}

// ---- collision world
// -----------------------------------------------------------

plCollisionWorldHandle plCreateCollisionWorld(plPhysicsSdkHandle sdk)
{
    static const char fn[] = "plCreateCollisionWorld";
    return guarded(fn, nullptr, [&]() -> plCollisionWorldHandle {
        Lock lock(g_mutex);
        plStatus st;
        Sdk *s = lookup<Sdk>(sdk, K_SDK, fn, "sdk", &st);
        if (s == nullptr) {
            return nullptr;
        }
        auto w = std::make_unique<CollisionWorld>();
        w->sdk_handle = sdk;
        reserve_more(s->collision_worlds, 1);
        void *h = own_handle(K_COLLISION_WORLD, std::move(w));
        s->collision_worlds.push_back(h);
        return (plCollisionWorldHandle)h;
    });
}

plStatus plDeleteCollisionWorld(plCollisionWorldHandle world)
{
    return guarded("plDeleteCollisionWorld", [&] {
        Lock lock(g_mutex);
        LOOKUP(CollisionWorld, w, world, K_COLLISION_WORLD,
               "plDeleteCollisionWorld", "world");
        plStatus st;
        Sdk *s = lookup<Sdk>(w->sdk_handle, K_SDK, "", "", &st);
        if (s != nullptr) { // out of its SDK's list
            auto &v = s->collision_worlds;
            v.erase(std::find(v.begin(), v.end(), (void *)world));
        }
        delete_collision_world(world, w);
        return PL_OK;
    });
}

// ---- nearest points
// ------------------------------------------------------------

namespace {
// plNearestPoints' GJK, arguments checked.
double nearest_points(const float *p1, const float *p2, const float *p3,
                      const float *q1, const float *q2, const float *q3,
                      float *pa, float *pb, float normal[3])
{
    // Bullet 2.82's recipe: two triangle shapes with a 1e-6 margin, GJK
    // with the Minkowski penetration solver (local objects: no state
    // between calls, unlike the classic statics)
    btTriangleShape a(btVector3(p1[0], p1[1], p1[2]),
                      btVector3(p2[0], p2[1], p2[2]),
                      btVector3(p3[0], p3[1], p3[2]));
    btTriangleShape b(btVector3(q1[0], q1[1], q1[2]),
                      btVector3(q2[0], q2[1], q2[2]),
                      btVector3(q3[0], q3[1], q3[2]));
    a.setMargin((btScalar)1e-6);
    b.setMargin((btScalar)1e-6);
    btVoronoiSimplexSolver simplex;
    btMinkowskiPenetrationDepthSolver depth;
    btGjkPairDetector gjk(&a, &b, &simplex, &depth);
    gjk.m_catchDegeneracies = 1;
    btPointCollector out;
    btGjkPairDetector::ClosestPointInput input;
    input.m_transformA.setIdentity();
    input.m_transformB.setIdentity();
    gjk.getClosestPoints(input, out, nullptr);
    if (!out.m_hasResult) {
        fail(PL_ERR_INVALID, "plNearestPoints: GJK found no closest points");
        return -1.0;
    }
    // m_pointInWorld is on B (Q); the normal points from B towards A (P)
    const btVector3 &n = out.m_normalOnBInWorld;
    const btVector3 on_q = out.m_pointInWorld;
    const btVector3 on_p = on_q + n * out.m_distance;
    for (int k = 0; k < 3; ++k) {
        pa[k] = (float)on_p[k];
        pb[k] = (float)on_q[k];
        normal[k] = (float)n[k];
    }
    return (double)out.m_distance;
}
} // namespace

double plNearestPoints(float p1[3], float p2[3], float p3[3], float q1[3],
                       float q2[3], float q3[3], float *pa, float *pb,
                       float normal[3])
{
    static const char fn[] = "plNearestPoints";
    return guarded(fn, -1.0, [&] {
        float *in[6] = {p1, p2, p3, q1, q2, q3};
        for (float *v : in) {
            if (v == nullptr) {
                fail(PL_ERR_NULL, "%s: a triangle corner is NULL", fn);
                return -1.0;
            }
            if (!finite3f(v)) {
                fail(PL_ERR_NONFINITE, "%s: a triangle corner is not finite",
                     fn);
                return -1.0;
            }
        }
        if (pa == nullptr || pb == nullptr || normal == nullptr) {
            fail(PL_ERR_NULL, "%s: pa, pb or normal is NULL", fn);
            return -1.0;
        }
        return nearest_points(p1, p2, p3, q1, q2, q3, pa, pb, normal);
    });
}

} // extern "C"
