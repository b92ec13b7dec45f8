// Materials: rules that match a world's bodies and give them rolling,
// spinning and sliding friction and restitution, read from an INI file
// (libinih) for applications that set none (docs/bullet.md, "Materials").
// Internal to the shim; rf_bullet_load_materials is the entry point.
//
// A rule is a section; its keys are
//   kind        static, dynamic, kinematic (a list, or any)
//   shape       sphere, capsule, cylinder, cone, box, convex_hull, mesh,
//               plane, compound (a list, or any)
//   size        LO..HI or a number: the shape's bounding-sphere radius, m
//   mass        LO..HI or a number, kg (static and kinematic bodies: 0)
//   user_index  LO..HI or an integer: btCollisionObject::getUserIndex()
//   rolling     a length, m, or "X r": X times the rolling radius
//   spinning    the same
//   friction    a number >= 0
//   restitution a number >= 0
//   override    a switch: replace values the application set (default no)
// Rules are tried in file order and every matching one sets the values it
// names (a later one over an earlier one).  A value the application set is
// one that differs from Bullet's default (friction 0.5, rolling,
// spinning and restitution 0); it is kept unless the rule overrides.
// The children of a compound body match as shapes of their own (kind,
// mass and user index are the compound body's, size the child's): Bullet
// keeps friction per collision object, so a child's values go to the
// contact points on that child (their m_index0/1), combined with the
// other body's as Bullet combines two bodies' values.
#ifndef ROLLFRIC_SHIM_MATERIALS_HPP
#define ROLLFRIC_SHIM_MATERIALS_HPP

#include "rollfric/rollfric.h"

#include <btBulletDynamicsCommon.h>

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace rfshim {

struct MaterialRule {
    std::string name;                   // the section's, for messages
    int line = 0;                       // of its section header
    unsigned kinds = 0;                 // bit per kind; 0: any
    unsigned shapes = 0;                // bit per shape; 0: any
    double size_lo = 0, size_hi = -1;   // hi < lo: any
    double mass_lo = 0, mass_hi = -1;   // hi < lo: any
    long index_lo = 0, index_hi = -1;   // hi < lo: any
    double rolling = -1, spinning = -1; // < 0: not set
    bool rolling_rel = false, spinning_rel = false; // times the radius
    double friction = -1, restitution = -1;         // < 0: not set
    bool override_app = false;
};

// A body's (or one compound child's) friction, rolling and spinning
// friction and restitution.
struct MaterialValues {
    btScalar friction, rolling, spinning, restitution;
};

// What a body had before the materials touched it (restored at detach).
struct MaterialSaved {
    MaterialValues app;
    int proxy_id;
};

class Materials {
  public:
    // Parses path into rules; on any error nothing is kept and err names
    // the line and the key (RF_ERR_IO: unreadable; RF_ERR_INVALID).
    rf_status load(const char *path, rf_error *err);
    bool empty() const
    {
        return rules_.empty();
    }
    size_t rule_count() const
    {
        return rules_.size();
    }
    const std::string &path() const
    {
        return path_;
    }
    // Gives every body of world that it has not seen yet its materials,
    // and the manifold points of those bodies the combined values Bullet
    // would have given them (its gCalculateCombined* callbacks).
    void apply(btDiscreteDynamicsWorld *world);
    // Puts back what the bodies still in world had before.
    void restore(btDiscreteDynamicsWorld *world);

  private:
    bool matches(const MaterialRule &r, const btCollisionObject *o,
                 const btCollisionShape *shape) const;
    void apply_to(btCollisionObject *o);
    // the values of o's rules for shape (o's own, or a child's), from
    // start: what the application set is kept as in apply_to
    MaterialValues values_for(const btCollisionObject *o,
                              const btCollisionShape *shape,
                              const MaterialValues &app,
                              MaterialValues start) const;
    void compound_children(const btCollisionObject *o,
                           const MaterialValues &app);
    void combine_children(btDiscreteDynamicsWorld *world);
    void
    recombine(btDiscreteDynamicsWorld *world,
              const std::unordered_set<const btCollisionObject *> &changed);
    std::vector<MaterialRule> rules_;
    std::string path_;
    // the world's objects as last seen, in its array's order: an entry
    // that differs is a body added since
    std::vector<std::pair<const btCollisionObject *, int>> seen_;
    std::unordered_map<const btCollisionObject *, MaterialSaved> saved_;
    // compound bodies with a child some rule gives values of its own: the
    // children's values, by child index
    std::unordered_map<const btCollisionObject *, std::vector<MaterialValues>>
        children_;
    // any rule names a shape a compound's child can have
    bool child_rules_ = false;
};

// The radius a body rolls on: a sphere's, capsule's, cylinder's or cone's
// radius, else the bounding sphere's (m).
double rolling_radius(const btCollisionShape *shape);

} // namespace rfshim

#endif // ROLLFRIC_SHIM_MATERIALS_HPP
