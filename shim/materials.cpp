// Materials (materials.hpp): the INI file read by libinih, rules matched
// against a world's bodies.
#include "materials.hpp"

#include "env.hpp"
#include "shim_util.hpp"

#include <BulletCollision/CollisionDispatch/btManifoldResult.h>

#include <ini.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <strings.h>
#include <unordered_set>

namespace rfshim {

namespace {

MaterialValues values_of(const btCollisionObject *o)
{
    return {o->getFriction(), o->getRollingFriction(), o->getSpinningFriction(),
            o->getRestitution()};
}

void set_values(btCollisionObject *o, const MaterialValues &v)
{
    o->setFriction(v.friction);
    o->setRollingFriction(v.rolling);
    o->setSpinningFriction(v.spinning);
    o->setRestitution(v.restitution);
}

bool same_values(const MaterialValues &a, const MaterialValues &b)
{
    return a.friction == b.friction && a.rolling == b.rolling &&
           a.spinning == b.spinning && a.restitution == b.restitution;
}

// The values Bullet gives a new point between a and b
// (btManifoldResult::addContactPoint: its gCalculateCombined* callbacks).
void combine_point(btManifoldPoint &cp, const btCollisionObject *a,
                   const btCollisionObject *b)
{
    cp.m_combinedFriction = gCalculateCombinedFrictionCallback(a, b);
    cp.m_combinedRestitution = gCalculateCombinedRestitutionCallback(a, b);
    cp.m_combinedRollingFriction =
        gCalculateCombinedRollingFrictionCallback(a, b);
    cp.m_combinedSpinningFriction =
        gCalculateCombinedSpinningFrictionCallback(a, b);
}

enum Kind { kStatic = 1, kDynamic = 2, kKinematic = 4 };

const struct {
    const char *name;
    unsigned bit;
} kKinds[] = {
    {"static", kStatic}, {"dynamic", kDynamic}, {"kinematic", kKinematic}};

const struct {
    const char *name;
    int type;
} kShapes[] = {{"sphere", SPHERE_SHAPE_PROXYTYPE},
               {"capsule", CAPSULE_SHAPE_PROXYTYPE},
               {"cylinder", CYLINDER_SHAPE_PROXYTYPE},
               {"cone", CONE_SHAPE_PROXYTYPE},
               {"box", BOX_SHAPE_PROXYTYPE},
               {"convex_hull", CONVEX_HULL_SHAPE_PROXYTYPE},
               {"mesh", TRIANGLE_MESH_SHAPE_PROXYTYPE},
               {"plane", STATIC_PLANE_PROXYTYPE},
               {"compound", COMPOUND_SHAPE_PROXYTYPE}};
const int kShapeCount = (int)(sizeof kShapes / sizeof kShapes[0]);

// The shape's bit in MaterialRule::shapes, or 0 for kinds no rule names
// (a scaled mesh and a GImpact mesh count as meshes).
unsigned shape_bit(const btCollisionShape *s)
{
    int type = s->getShapeType();
    if (type == SCALED_TRIANGLE_MESH_SHAPE_PROXYTYPE ||
        type == GIMPACT_SHAPE_PROXYTYPE ||
        type == MULTIMATERIAL_TRIANGLE_MESH_PROXYTYPE) {
        type = TRIANGLE_MESH_SHAPE_PROXYTYPE;
    }
    for (int k = 0; k < kShapeCount; ++k) {
        if (kShapes[k].type == type) {
            return 1u << k;
        }
    }
    return 0;
}

unsigned kind_bit(const btCollisionObject *o)
{
    return o->isKinematicObject() ? kKinematic
           : o->isStaticObject()  ? kStatic
                                  : kDynamic;
}

// What the parse is doing, for inih's handler.
struct Parse {
    std::vector<MaterialRule> rules;
    std::string section;
    std::string error; // the first error (inih goes on after it)
    std::unordered_set<std::string> seen;
};

// text as a finite number >= 0 (the whole of it, spaces around allowed)
bool number(const char *text, double *out)
{
    while (*text == ' ' || *text == '\t') {
        ++text;
    }
    char *end;
    errno = 0;
    const double x = std::strtod(text, &end);
    while (*end == ' ' || *end == '\t') {
        ++end;
    }
    if (end == text || *end != '\0' || errno == ERANGE || !std::isfinite(x) ||
        x < 0.0) {
        return false;
    }
    *out = x;
    return true;
}

// "LO..HI" or one number into [lo, hi]
bool range(const char *text, double *lo, double *hi)
{
    const char *dots = std::strstr(text, "..");
    if (dots == nullptr) {
        if (!number(text, lo)) {
            return false;
        }
        *hi = *lo;
        return true;
    }
    const std::string a(text, (size_t)(dots - text));
    return number(a.c_str(), lo) && number(dots + 2, hi) && *lo <= *hi;
}

// "X" (m) or "X r" / "Xr" / "X*r" (times the rolling radius)
bool length(const char *text, double *out, bool *relative)
{
    std::string s(text);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) {
        s.pop_back();
    }
    *relative = false;
    if (!s.empty() && (s.back() == 'r' || s.back() == 'R')) {
        s.pop_back();
        while (!s.empty() && (s.back() == ' ' || s.back() == '*')) {
            s.pop_back();
        }
        *relative = true;
    }
    return number(s.c_str(), out);
}

// a list of names (commas or spaces) into bits; "any" is 0
template <class Table>
bool names(const char *text, const Table &table, int count, unsigned *bits,
           std::string *bad)
{
    *bits = 0;
    std::string s(text);
    for (char &c : s) {
        if (c == ',') {
            c = ' ';
        }
    }
    size_t at = 0;
    bool any = false;
    while (at < s.size()) {
        const size_t end = s.find(' ', at);
        const std::string word =
            s.substr(at, end == std::string::npos ? end : end - at);
        at = end == std::string::npos ? s.size() : end + 1;
        if (word.empty()) {
            continue;
        }
        if (strcasecmp(word.c_str(), "any") == 0) {
            any = true;
            continue;
        }
        bool found = false;
        for (int k = 0; k < count; ++k) {
            if (strcasecmp(word.c_str(), table[k].name) == 0) {
                *bits |= 1u << k;
                found = true;
            }
        }
        if (!found) {
            *bad = word;
            return false;
        }
    }
    if (any) {
        *bits = 0;
    }
    return true;
}

std::string listing(const char *const *n, int count)
{
    std::string s;
    for (int k = 0; k < count; ++k) {
        s += (k ? ", " : "") + std::string(n[k]);
    }
    return s;
}

int handler(void *user, const char *section, const char *key, const char *value)
{
    Parse &ps = *static_cast<Parse *>(user);
    auto fail = [&](const std::string &why) {
        if (ps.error.empty()) {
            ps.error = std::string("[") + section + "] " + key + " = '" +
                       std::string(value).substr(0, 40) + "': " + why;
        }
        return 0;
    };
    if (*section == '\0') {
        if (ps.error.empty()) {
            ps.error = std::string(key) +
                       ": a key before the first [rule] section header";
        }
        return 0;
    }
    if (ps.rules.empty() || ps.section != section) {
        if (!ps.seen.insert(section).second) {
            if (ps.error.empty()) {
                ps.error = std::string("[") + section +
                           "] appears twice: give every rule its own name";
            }
            return 0;
        }
        ps.section = section;
        ps.rules.emplace_back();
        ps.rules.back().name = section;
    }
    MaterialRule &r = ps.rules.back();
    std::string bad;
    if (std::strcmp(key, "kind") == 0) {
        unsigned bits = 0;
        if (!names(value, kKinds, 3, &bits, &bad)) {
            return fail("'" + bad +
                        "' is not a kind (static, dynamic, kinematic, any)");
        }
        // kKinds[k] has bit 1 << k, which is its Kind
        r.kinds = bits;
    } else if (std::strcmp(key, "shape") == 0) {
        if (!names(value, kShapes, kShapeCount, &r.shapes, &bad)) {
            const char *n[kShapeCount];
            for (int k = 0; k < kShapeCount; ++k) {
                n[k] = kShapes[k].name;
            }
            return fail("'" + bad + "' is not a shape (" +
                        listing(n, kShapeCount) + ", any)");
        }
    } else if (std::strcmp(key, "size") == 0) {
        if (!range(value, &r.size_lo, &r.size_hi)) {
            return fail("not a radius or a range LO..HI of radii >= 0, m");
        }
    } else if (std::strcmp(key, "mass") == 0) {
        if (!range(value, &r.mass_lo, &r.mass_hi)) {
            return fail("not a mass or a range LO..HI of masses >= 0, kg");
        }
    } else if (std::strcmp(key, "user_index") == 0) {
        // user indices may be negative: parse them apart
        char *end;
        const long a = std::strtol(value, &end, 10);
        if (*end == '\0' && end != value) {
            r.index_lo = r.index_hi = a;
        } else if (std::strncmp(end, "..", 2) == 0 && end != value) {
            char *end2;
            const long b = std::strtol(end + 2, &end2, 10);
            if (*end2 != '\0' || end2 == end + 2 || b < a) {
                return fail("not an integer or a range LO..HI of integers");
            }
            r.index_lo = a;
            r.index_hi = b;
        } else {
            return fail("not an integer or a range LO..HI of integers");
        }
    } else if (std::strcmp(key, "rolling") == 0) {
        if (!length(value, &r.rolling, &r.rolling_rel)) {
            return fail("not a length >= 0 (m) or a multiple of the rolling "
                        "radius ('0.04 r')");
        }
    } else if (std::strcmp(key, "spinning") == 0) {
        if (!length(value, &r.spinning, &r.spinning_rel)) {
            return fail("not a length >= 0 (m) or a multiple of the rolling "
                        "radius ('0.04 r')");
        }
    } else if (std::strcmp(key, "friction") == 0) {
        if (!number(value, &r.friction)) {
            return fail("not a number >= 0");
        }
    } else if (std::strcmp(key, "restitution") == 0) {
        if (!number(value, &r.restitution)) {
            return fail("not a number >= 0");
        }
    } else if (std::strcmp(key, "override") == 0) {
        if (!env::parse_switch(value, &r.override_app)) {
            return fail("not a switch (yes, no, true, false, on, off, 1, 0)");
        }
    } else {
        const char *known[] = {"kind",        "shape",   "size",     "mass",
                               "user_index",  "rolling", "spinning", "friction",
                               "restitution", "override"};
        return fail("unknown key (the keys: " + listing(known, 10) + ")");
    }
    return 1;
}

} // namespace

double rolling_radius(const btCollisionShape *shape)
{
    switch (shape->getShapeType()) {
    case SPHERE_SHAPE_PROXYTYPE:
        return (double)static_cast<const btSphereShape *>(shape)->getRadius();
    case CAPSULE_SHAPE_PROXYTYPE:
        return (double)static_cast<const btCapsuleShape *>(shape)->getRadius();
    case CYLINDER_SHAPE_PROXYTYPE:
        return (double)static_cast<const btCylinderShape *>(shape)->getRadius();
    case CONE_SHAPE_PROXYTYPE:
        return (double)static_cast<const btConeShape *>(shape)->getRadius();
    default: {
        btVector3 c;
        btScalar r = 0;
        shape->getBoundingSphere(c, r);
        return (double)r;
    }
    }
}

rf_status Materials::load(const char *path, rf_error *err)
{
    Parse ps;
    const int at = ini_parse(path, handler, &ps);
    auto fail = [&](rf_status st, const std::string &why) {
        if (err != nullptr) {
            err->status = st;
            std::snprintf(err->message, sizeof err->message, "%s", why.c_str());
        }
        return st;
    };
    if (at < 0) {
        return fail(RF_ERR_IO, std::string("materials: cannot read ") + path +
                                   " (" + std::strerror(errno) + ")");
    }
    // the reason first: a long path is cut, not the reason
    if (at > 0) {
        return fail(RF_ERR_INVALID,
                    "materials: line " + std::to_string(at) + ": " +
                        (ps.error.empty() ? std::string("not a section "
                                                        "header, a key = "
                                                        "value or a comment")
                                          : ps.error) +
                        " (" + path + ")");
    }
    if (!ps.error.empty()) { // an error inih did not count as one
        return fail(RF_ERR_INVALID,
                    "materials: " + ps.error + " (" + path + ")");
    }
    for (const MaterialRule &r : ps.rules) {
        if (r.rolling < 0 && r.spinning < 0 && r.friction < 0 &&
            r.restitution < 0) {
            return fail(RF_ERR_INVALID, "materials: [" + r.name +
                                            "] sets nothing (rolling, "
                                            "spinning, friction or "
                                            "restitution) (" +
                                            path + ")");
        }
    }
    rules_ = std::move(ps.rules);
    path_ = path;
    seen_.clear();
    // a rule that names a shape other than the compound itself may match
    // a compound's child
    child_rules_ = false;
    const unsigned compound = 1u << (kShapeCount - 1);
    for (const MaterialRule &r : rules_) {
        child_rules_ |= (r.shapes & ~compound) != 0;
    }
    return RF_OK;
}

bool Materials::matches(const MaterialRule &r, const btCollisionObject *o,
                        const btCollisionShape *s) const
{
    if (r.kinds != 0 && (r.kinds & kind_bit(o)) == 0) {
        return false;
    }
    if (r.shapes != 0 && (s == nullptr || (r.shapes & shape_bit(s)) == 0)) {
        return false;
    }
    if (r.size_hi >= r.size_lo) {
        btVector3 c;
        btScalar rad = 0;
        if (s != nullptr) {
            s->getBoundingSphere(c, rad);
        }
        if ((double)rad < r.size_lo || (double)rad > r.size_hi) {
            return false;
        }
    }
    if (r.mass_hi >= r.mass_lo) {
        const btRigidBody *rb = btRigidBody::upcast(o);
        const double m = rb != nullptr && rb->getInvMass() > 0
                             ? 1.0 / (double)rb->getInvMass()
                             : 0.0;
        if (m < r.mass_lo || m > r.mass_hi) {
            return false;
        }
    }
    if (r.index_hi >= r.index_lo) {
        const long u = o->getUserIndex();
        if (u < r.index_lo || u > r.index_hi) {
            return false;
        }
    }
    return true;
}

MaterialValues Materials::values_for(const btCollisionObject *o,
                                     const btCollisionShape *shape,
                                     const MaterialValues &app,
                                     MaterialValues v) const
{
    // the application's values: those that differ from Bullet's defaults
    const bool app_friction = app.friction != (btScalar)0.5;
    const bool app_rolling = app.rolling != 0;
    const bool app_spinning = app.spinning != 0;
    const bool app_restitution = app.restitution != 0;
    const double radius = shape != nullptr ? rolling_radius(shape) : 0.0;
    for (const MaterialRule &r : rules_) {
        if (!matches(r, o, shape)) {
            continue;
        }
        if (r.friction >= 0 && (r.override_app || !app_friction)) {
            v.friction = (btScalar)r.friction;
        }
        if (r.rolling >= 0 && (r.override_app || !app_rolling)) {
            v.rolling =
                (btScalar)(r.rolling_rel ? r.rolling * radius : r.rolling);
        }
        if (r.spinning >= 0 && (r.override_app || !app_spinning)) {
            v.spinning =
                (btScalar)(r.spinning_rel ? r.spinning * radius : r.spinning);
        }
        if (r.restitution >= 0 && (r.override_app || !app_restitution)) {
            v.restitution = (btScalar)r.restitution;
        }
    }
    return v;
}

void Materials::apply_to(btCollisionObject *o)
{
    const int id = proxy_id_of(o);
    const auto it = saved_.find(o);
    if (it != saved_.end() && it->second.proxy_id == id) {
        return; // this stay of the body was given its materials
    }
    const MaterialValues was = values_of(o);
    saved_[o] = {was, id};
    set_values(o, values_for(o, o->getCollisionShape(), was, was));
    compound_children(o, was);
}

// A compound body's children that some rule gives values other than the
// body's own (children_), or none.
void Materials::compound_children(const btCollisionObject *o,
                                  const MaterialValues &app)
{
    children_.erase(o);
    const btCollisionShape *s = o->getCollisionShape();
    if (!child_rules_ || s == nullptr || !s->isCompound()) {
        return;
    }
    const auto *c = static_cast<const btCompoundShape *>(s);
    const MaterialValues body = values_of(o);
    std::vector<MaterialValues> v((size_t)c->getNumChildShapes(), body);
    bool differs = false;
    for (int k = 0; k < c->getNumChildShapes(); ++k) {
        v[(size_t)k] = values_for(o, c->getChildShape(k), app, body);
        differs |= !same_values(v[(size_t)k], body);
    }
    if (differs) {
        children_[o] = std::move(v);
    }
}

// The points on a compound body's children get the children's values,
// combined with the other side's as Bullet combines two bodies' (its
// gCalculateCombined* callbacks, called with the child's values on the
// body for the moment), every step: new points included.
void Materials::combine_children(btDiscreteDynamicsWorld *world)
{
    btDispatcher *d = world->getDispatcher();
    for (int k = 0; k < d->getNumManifolds(); ++k) {
        btPersistentManifold *m = d->getManifoldByIndexInternal(k);
        const btCollisionObject *obj[2] = {m->getBody0(), m->getBody1()};
        const std::vector<MaterialValues> *kids[2] = {nullptr, nullptr};
        for (int s = 0; s < 2; ++s) {
            const auto it = children_.find(obj[s]);
            kids[s] = it != children_.end() ? &it->second : nullptr;
        }
        if (kids[0] == nullptr && kids[1] == nullptr) {
            continue;
        }
        for (int j = 0; j < m->getNumContacts(); ++j) {
            btManifoldPoint &cp = m->getContactPoint(j);
            const int index[2] = {cp.m_index0, cp.m_index1};
            MaterialValues keep[2];
            for (int s = 0; s < 2; ++s) {
                auto *o = const_cast<btCollisionObject *>(obj[s]);
                keep[s] = values_of(o);
                if (kids[s] != nullptr && index[s] >= 0 &&
                    (size_t)index[s] < kids[s]->size()) {
                    set_values(o, (*kids[s])[(size_t)index[s]]);
                }
            }
            combine_point(cp, obj[0], obj[1]);
            for (int s = 0; s < 2; ++s) {
                set_values(const_cast<btCollisionObject *>(obj[s]), keep[s]);
            }
        }
    }
}

void Materials::apply(btDiscreteDynamicsWorld *world)
{
    if (rules_.empty() || world == nullptr) {
        return;
    }
    btCollisionObjectArray &objs = world->getCollisionObjectArray();
    const int n = objs.size();
    std::unordered_set<const btCollisionObject *> changed;
    seen_.resize((size_t)n, {nullptr, -1});
    for (int i = 0; i < n; ++i) {
        btCollisionObject *o = objs[i];
        const int id = proxy_id_of(o);
        if (seen_[(size_t)i].first == o && seen_[(size_t)i].second == id) {
            continue;
        }
        seen_[(size_t)i] = {o, id};
        const MaterialValues before = values_of(o);
        apply_to(o);
        if (!same_values(values_of(o), before)) {
            changed.insert(o);
        }
    }
    recombine(world, changed);
    if (!children_.empty()) {
        combine_children(world);
    }
}

// The points of the objects in changed (made before the objects' values
// changed) get the values Bullet gives a new point
// (btManifoldResult::addContactPoint).
void Materials::recombine(
    btDiscreteDynamicsWorld *world,
    const std::unordered_set<const btCollisionObject *> &changed)
{
    if (changed.empty()) {
        return;
    }
    btDispatcher *d = world->getDispatcher();
    for (int k = 0; k < d->getNumManifolds(); ++k) {
        btPersistentManifold *m = d->getManifoldByIndexInternal(k);
        const btCollisionObject *a = m->getBody0(), *b = m->getBody1();
        if (changed.count(a) == 0 && changed.count(b) == 0) {
            continue;
        }
        for (int j = 0; j < m->getNumContacts(); ++j) {
            combine_point(m->getContactPoint(j), a, b);
        }
    }
}

void Materials::restore(btDiscreteDynamicsWorld *world)
{
    if (world == nullptr) {
        return;
    }
    btCollisionObjectArray &objs = world->getCollisionObjectArray();
    std::unordered_set<const btCollisionObject *> changed;
    for (int i = 0; i < objs.size(); ++i) {
        btCollisionObject *o = objs[i];
        const auto it = saved_.find(o);
        if (it == saved_.end() || o->getBroadphaseHandle() == nullptr ||
            proxy_id_of(o) != it->second.proxy_id) {
            continue;
        }
        set_values(o, it->second.app);
        changed.insert(o);
    }
    recombine(world, changed);
    saved_.clear();
    seen_.clear();
    children_.clear();
}

} // namespace rfshim
