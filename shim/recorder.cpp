// Recording a world's run: Bullet's collision objects and contact points
// into the core's recording writer (recorder.hpp).
#include "recorder.hpp"

#include "cone_solver.hpp"

#include <BulletCollision/CollisionShapes/btMultiSphereShape.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <new>

namespace rfshim {

namespace {

// The shape parts of one body, built into the recorder's reused buffers.
struct PartSink {
    std::vector<rf_record_part> &parts;
    std::vector<std::vector<double>> &verts;
    std::vector<std::vector<int>> &tris;

    rf_record_part &add(rf_shape_kind kind, const btTransform &frame)
    {
        parts.emplace_back();
        rf_record_part &p = parts.back();
        std::memset(&p, 0, sizeof p);
        p.kind = kind;
        p.axis = 1;
        const btVector3 &o = frame.getOrigin();
        const btQuaternion q = frame.getRotation();
        for (int k = 0; k < 3; ++k) {
            p.pos[k] = o[k];
        }
        p.quat[0] = q.x();
        p.quat[1] = q.y();
        p.quat[2] = q.z();
        p.quat[3] = q.w();
        verts.emplace_back();
        tris.emplace_back();
        return p;
    }
};

// Every triangle of a concave shape (mesh, heightfield), three corners each.
struct TriangleGrab : btTriangleCallback {
    std::vector<double> *verts;
    void processTriangle(btVector3 *tri, int, int) override
    {
        for (int c = 0; c < 3; ++c) {
            for (int k = 0; k < 3; ++k) {
                verts->push_back(tri[c][k]);
            }
        }
    }
};

void add_shape(const btCollisionShape *s, const btTransform &frame,
               PartSink &sink);

// A btMultiSphereShape: the classic capsule (two equal spheres placed
// symmetrically on one axis) as a capsule, anything else sphere by sphere.
void add_multi_sphere(const btMultiSphereShape *m, const btTransform &frame,
                      PartSink &sink)
{
    const int n = m->getSphereCount();
    if (n == 2 && m->getSphereRadius(0) == m->getSphereRadius(1)) {
        const btVector3 a = m->getSpherePosition(0);
        const btVector3 b = m->getSpherePosition(1);
        const btVector3 d = a - b, mid = (a + b) * btScalar(0.5);
        for (int axis = 0; axis < 3; ++axis) {
            const int o1 = (axis + 1) % 3, o2 = (axis + 2) % 3;
            if (d[o1] == 0 && d[o2] == 0) {
                btTransform at(btQuaternion::getIdentity(), mid);
                rf_record_part &p = sink.add(RF_SHAPE_CAPSULE, frame * at);
                p.axis = axis;
                p.size[0] = m->getSphereRadius(0);
                p.size[1] = std::fabs((double)d[axis]) / 2;
                return;
            }
        }
    }
    for (int i = 0; i < n; ++i) {
        btTransform at(btQuaternion::getIdentity(), m->getSpherePosition(i));
        sink.add(RF_SHAPE_SPHERE, frame * at).size[0] = m->getSphereRadius(i);
    }
}

// Shapes the format names directly; false for the others.
bool add_primitive(const btCollisionShape *s, const btTransform &frame,
                   PartSink &sink)
{
    switch (s->getShapeType()) {
    case SPHERE_SHAPE_PROXYTYPE:
        sink.add(RF_SHAPE_SPHERE, frame).size[0] =
            static_cast<const btSphereShape *>(s)->getRadius();
        return true;
    case BOX_SHAPE_PROXYTYPE: {
        const btVector3 he =
            static_cast<const btBoxShape *>(s)->getHalfExtentsWithMargin();
        rf_record_part &p = sink.add(RF_SHAPE_BOX, frame);
        for (int k = 0; k < 3; ++k) {
            p.size[k] = he[k];
        }
        return true;
    }
    case CYLINDER_SHAPE_PROXYTYPE: {
        const auto *c = static_cast<const btCylinderShape *>(s);
        const btVector3 he = c->getHalfExtentsWithMargin();
        rf_record_part &p = sink.add(RF_SHAPE_CYLINDER, frame);
        p.axis = c->getUpAxis();
        p.size[0] = he[(p.axis + 1) % 3];
        p.size[1] = he[p.axis];
        return true;
    }
    case CAPSULE_SHAPE_PROXYTYPE: {
        const auto *c = static_cast<const btCapsuleShape *>(s);
        rf_record_part &p = sink.add(RF_SHAPE_CAPSULE, frame);
        p.axis = c->getUpAxis();
        p.size[0] = c->getRadius();
        p.size[1] = c->getHalfHeight();
        return true;
    }
    case CONE_SHAPE_PROXYTYPE: {
        const auto *c = static_cast<const btConeShape *>(s);
        rf_record_part &p = sink.add(RF_SHAPE_CONE, frame);
        p.axis = c->getConeUpIndex();
        p.size[0] = c->getRadius();
        p.size[1] = c->getHeight();
        return true;
    }
    case STATIC_PLANE_PROXYTYPE: {
        const auto *pl = static_cast<const btStaticPlaneShape *>(s);
        rf_record_part &p = sink.add(RF_SHAPE_PLANE, frame);
        const btVector3 &n = pl->getPlaneNormal();
        for (int k = 0; k < 3; ++k) {
            p.size[k] = n[k];
        }
        p.size[3] = pl->getPlaneConstant();
        return true;
    }
    case MULTI_SPHERE_SHAPE_PROXYTYPE:
        add_multi_sphere(static_cast<const btMultiSphereShape *>(s), frame,
                         sink);
        return true;
    default: return false;
    }
}

void add_shape(const btCollisionShape *s, const btTransform &frame,
               PartSink &sink)
{
    if (add_primitive(s, frame, sink)) {
        return;
    }
    if (s->isCompound()) {
        const auto *c = static_cast<const btCompoundShape *>(s);
        for (int i = 0; i < c->getNumChildShapes(); ++i) {
            add_shape(c->getChildShape(i), frame * c->getChildTransform(i),
                      sink);
        }
        return;
    }
    if (s->isPolyhedral()) { // convex hulls and other vertex sets
        const auto *ph = static_cast<const btPolyhedralConvexShape *>(s);
        rf_record_part &p = sink.add(RF_SHAPE_HULL, frame);
        std::vector<double> &v = sink.verts.back();
        for (int i = 0; i < ph->getNumVertices(); ++i) {
            btVector3 x;
            ph->getVertex(i, x);
            v.insert(v.end(), {(double)x.x(), (double)x.y(), (double)x.z()});
        }
        p.nvert = ph->getNumVertices();
        return;
    }
    if (s->isConcave()) { // triangle meshes, heightfields
        TriangleGrab grab;
        std::vector<double> v;
        grab.verts = &v;
        const btScalar big = (btScalar)1e30;
        static_cast<const btConcaveShape *>(s)->processAllTriangles(
            &grab, btVector3(-big, -big, -big), btVector3(big, big, big));
        rf_record_part &p = sink.add(RF_SHAPE_MESH, frame);
        p.nvert = (int)(v.size() / 3);
        p.ntri = p.nvert / 3;
        sink.verts.back() = std::move(v);
        std::vector<int> &t = sink.tris.back();
        for (int i = 0; i < p.nvert; ++i) {
            t.push_back(i);
        }
        return;
    }
    // anything else: its bounding box
    btVector3 mn, mx;
    s->getAabb(btTransform::getIdentity(), mn, mx);
    btTransform at(btQuaternion::getIdentity(), (mn + mx) * btScalar(0.5));
    rf_record_part &p = sink.add(RF_SHAPE_OTHER, frame * at);
    for (int k = 0; k < 3; ++k) {
        p.size[k] = (mx[k] - mn[k]) / 2;
    }
}

// *err (may be NULL) = the formatted message with status st; returns st.
rf_status name_error(rf_error *err, rf_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

rf_status name_error(rf_error *err, rf_status st, const char *fmt, ...)
{
    if (err != nullptr) {
        err->status = st;
        va_list ap;
        va_start(ap, fmt);
        std::vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return st;
}

} // namespace

Recorder *Recorder::open(btDiscreteDynamicsWorld *world, const BodyNames *names,
                         const char *path, double frame_interval, int contacts,
                         rf_error *err)
{
    auto *r = new (std::nothrow) Recorder;
    if (r == nullptr) {
        if (err) {
            err->status = RF_ERR_NOMEM;
            std::snprintf(err->message, sizeof err->message,
                          "rf_bullet_record_start: out of memory");
        }
        return nullptr;
    }
    double h = (double)world->getSolverInfo().m_timeStep;
    if (rf_record_open(path, h > 0 ? h : 0.0, frame_interval, contacts,
                       &r->writer_, err) != RF_OK) {
        delete r;
        return nullptr;
    }
    r->world_ = world;
    r->names_ = names;
    r->frame_interval_ = frame_interval;
    r->contacts_ = contacts != 0;
    return r;
}

rf_status Recorder::end(rf_error *err)
{
    const rf_status st = rf_record_close(writer_, err);
    writer_ = nullptr;
    return st;
}

Recorder::~Recorder()
{
    rf_record_close(writer_, nullptr);
}

// Declare the objects not seen before (or whose proxy changed: a new
// object at a freed address), drop the ones that left the world.
bool Recorder::sync_bodies()
{
    for (auto &kv : known_) {
        kv.second.seen = false;
    }
    const btCollisionObjectArray &objs = world_->getCollisionObjectArray();
    for (int i = 0; i < objs.size(); ++i) {
        const btCollisionObject *o = objs[i];
        auto it = known_.find(o);
        if (it != known_.end() && it->second.proxy_id != proxy_id_of(o)) {
            if (it->second.id >= 0 &&
                rf_record_remove_body(writer_, it->second.id, &error_) !=
                    RF_OK) {
                return false;
            }
            known_.erase(it);
            it = known_.end();
        }
        if (it == known_.end()) {
            int id = next_id_++;
            const rf_status st = declare(o, id);
            if (st == RF_ERR_INVALID) {
                id = -1; // a shape the format refuses (non-finite sizes):
                         // the object is left out of the recording
            } else if (st != RF_OK) {
                return false;
            }
            it = known_.emplace(o, Known{id, proxy_id_of(o), false}).first;
        } else if (it->second.renamed) { // the same id, now with its name
            it->second.renamed = false;
            if (rf_record_remove_body(writer_, it->second.id, &error_) !=
                RF_OK) {
                return false;
            }
            const rf_status st = declare(o, it->second.id);
            if (st == RF_ERR_INVALID) {
                it->second.id = -1;
            } else if (st != RF_OK) {
                return false;
            }
        }
        it->second.seen = true;
    }
    for (auto it = known_.begin(); it != known_.end();) {
        if (!it->second.seen) {
            if (it->second.id >= 0 &&
                rf_record_remove_body(writer_, it->second.id, &error_) !=
                    RF_OK) {
                return false;
            }
            it = known_.erase(it);
        } else {
            ++it;
        }
    }
    return true;
}

rf_status Recorder::declare(const btCollisionObject *obj, int id)
{
    parts_.clear();
    part_verts_.clear();
    part_tris_.clear();
    PartSink sink{parts_, part_verts_, part_tris_};
    add_shape(obj->getCollisionShape(), btTransform::getIdentity(), sink);
    for (size_t k = 0; k < parts_.size(); ++k) {
        parts_[k].verts = part_verts_[k].empty() ? nullptr : &part_verts_[k][0];
        parts_[k].tris = part_tris_[k].empty() ? nullptr : &part_tris_[k][0];
    }
    const char *name = names_ != nullptr ? names_->of(obj) : nullptr;
    const bool is_static = obj->isStaticObject();
    return rf_record_add_body(writer_, id, name, is_static ? 1 : 0,
                              (int)parts_.size(), parts_.data(), &error_);
}

void Recorder::renamed(const btCollisionObject *obj)
{
    auto k = known_.find(obj);
    if (k != known_.end() && k->second.id >= 0 &&
        k->second.proxy_id == proxy_id_of(obj)) {
        k->second.renamed = true;
    }
}

rf_status BodyNames::set(const btDiscreteDynamicsWorld *world,
                         const btCollisionObject *obj, const char *name,
                         bool *changed, rf_error *err)
{
    static const char fn[] = "rf_bullet_record_name";
    *changed = false;
    const size_t len = std::strlen(name);
    const btCollisionObjectArray &objs = world->getCollisionObjectArray();
    const int i = obj->getWorldArrayIndex();
    if (len > RF_RECORD_NAME_MAX) {
        return name_error(err, RF_ERR_INVALID,
                          "%s: the name \"%.32s...\" is %zu bytes long, "
                          "more than a recording's %d",
                          fn, name, len, RF_RECORD_NAME_MAX);
    }
    if (i < 0 || i >= objs.size() || objs[i] != obj) {
        return name_error(err, RF_ERR_INVALID,
                          "%s: \"%s\": the object is not in the plugin's "
                          "world (add it first)",
                          fn, name);
    }
    if (names_.size() >= 2 * (size_t)objs.size() + 64) {
        prune(world); // bounded by the world's size, whatever comes and goes
    }
    const int px = proxy_id_of(obj);
    auto n = names_.find(obj);
    const bool had = n != names_.end() && n->second.proxy_id == px;
    if (had ? n->second.text != name : len > 0) {
        *changed = true;
        if (len > 0) {
            names_[obj] = Name{name, px};
        } else {
            names_.erase(obj);
        }
    }
    if (err) {
        err->status = RF_OK;
        err->message[0] = '\0';
    }
    return RF_OK;
}

const char *BodyNames::of(const btCollisionObject *obj) const
{
    auto n = names_.find(obj);
    return n != names_.end() && n->second.proxy_id == proxy_id_of(obj)
               ? n->second.text.c_str()
               : nullptr;
}

void BodyNames::prune(const btDiscreteDynamicsWorld *world)
{
    const btCollisionObjectArray &objs = world->getCollisionObjectArray();
    std::unordered_map<const btCollisionObject *, Name> kept;
    for (int i = 0; i < objs.size(); ++i) {
        auto n = names_.find(objs[i]);
        if (n != names_.end() && n->second.proxy_id == proxy_id_of(objs[i])) {
            kept.emplace(n->first, n->second);
        }
    }
    names_.swap(kept);
}

// The contact points of every manifold, with the last step's impulses
// over its length h: the cone's six (rf_bullet_point_impulse) or stock's
// normal one.
void Recorder::gather_contacts(const rf_plugin *plugin, double h)
{
    contact_buf_.clear();
    btDispatcher *d = world_->getDispatcher();
    const double inv_h = h > 0 ? 1.0 / h : 0.0;
    for (int m = 0; m < d->getNumManifolds(); ++m) {
        const btPersistentManifold *pm = d->getManifoldByIndexInternal(m);
        auto ia = known_.find(pm->getBody0());
        auto ib = known_.find(pm->getBody1());
        for (int j = 0; j < pm->getNumContacts(); ++j) {
            const btManifoldPoint &pt = pm->getContactPoint(j);
            if (!std::isfinite((double)(pt.m_positionWorldOnB.x() +
                                        pt.m_positionWorldOnB.y() +
                                        pt.m_positionWorldOnB.z() +
                                        pt.m_normalWorldOnB.length2()))) {
                continue; // a bad point (held out of the step)
            }
            rf_record_contact c{};
            c.body_a = ia != known_.end() ? ia->second.id : -1;
            c.body_b = ib != known_.end() ? ib->second.id : -1;
            double g[6];
            const bool cone = rf_bullet_point_impulse(plugin, &pt, g) == RF_OK;
            const btVector3 T =
                cone ? pt.m_lateralFrictionDir1 * (btScalar)g[4] +
                           pt.m_lateralFrictionDir2 * (btScalar)g[5]
                     : btVector3(0, 0, 0);
            c.normal_force =
                (float)((cone ? g[0] : (double)pt.m_appliedImpulse) * inv_h);
            for (int k = 0; k < 3; ++k) {
                c.pos[k] = (float)pt.m_positionWorldOnB[k];
                c.normal[k] = (float)pt.m_normalWorldOnB[k];
                c.rolling_torque[k] = (float)(T[k] * inv_h);
            }
            if (std::isfinite(c.normal_force)) {
                contact_buf_.push_back(c);
            }
        }
    }
}

bool Recorder::write_frame(const rf_plugin *plugin, bool force, bool last)
{
    if (!sync_bodies()) {
        return false;
    }
    ids_.clear();
    pos_.clear();
    quat_.clear();
    const btCollisionObjectArray &objs = world_->getCollisionObjectArray();
    for (int i = 0; i < objs.size(); ++i) {
        const btTransform &t = objs[i]->getWorldTransform();
        const btQuaternion q = t.getRotation();
        const int id = known_[objs[i]].id;
        const btVector3 &o = t.getOrigin();
        // a body left out, or with a non-finite transform this frame (bad
        // input the solver holds out): not listed; readers keep its last
        if (id < 0 || !std::isfinite((double)(o.x() + o.y() + o.z())) ||
            !std::isfinite((double)(q.x() + q.y() + q.z() + q.w()))) {
            continue;
        }
        ids_.push_back(id);
        pos_.insert(pos_.end(),
                    {(double)t.getOrigin().x(), (double)t.getOrigin().y(),
                     (double)t.getOrigin().z()});
        quat_.insert(quat_.end(), {(double)q.x(), (double)q.y(), (double)q.z(),
                                   (double)q.w()});
    }
    if (last && ids_.empty()) {
        // the application removed its bodies before the world went (as
        // Bullet's HelloWorld does): the frames before show them
        return true;
    }
    if (contacts_) {
        gather_contacts(plugin, last_h_);
    }
    int written = 0;
    if (rf_record_frame(
            writer_, time_, (int)ids_.size(), ids_.data(), pos_.data(),
            quat_.data(), contacts_ ? (int)contact_buf_.size() : 0,
            contact_buf_.data(), force ? 1 : 0, &written, &error_) != RF_OK) {
        return false;
    }
    if (written) {
        next_frame_ = time_ + frame_interval_;
    }
    return true;
}

// Called from the solver's allSolved, before the world integrates: the
// transforms are still the state at time_ (the step's start), the contact
// impulses the step's own.
bool Recorder::after_step(const rf_plugin *plugin, double h)
{
    if (failed_) {
        return false;
    }
    last_h_ = h;
    const bool due = time_ >= next_frame_ - 1e-9 * frame_interval_;
    if (due && !write_frame(plugin, false)) {
        failed_ = true;
        return false;
    }
    time_ += h;
    return true;
}

rf_status Recorder::close(const rf_plugin *plugin, rf_error *err)
{
    rf_status st = RF_OK;
    if (!failed_ && !write_frame(plugin, true, true)) {
        st = error_.status != RF_OK ? error_.status : RF_ERR_IO;
        if (err) {
            *err = error_;
        }
    }
    rf_error cerr;
    const rf_status cst = rf_record_close(writer_, &cerr);
    writer_ = nullptr;
    if (st == RF_OK && cst != RF_OK) {
        st = cst;
        if (err) {
            *err = cerr;
        }
    }
    return st;
}

} // namespace rfshim
