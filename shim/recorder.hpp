// Recording a world's run: the Bullet side of
// include/rollfric/record.h.  After each step the plugin hands the world to
// its recorder, which declares the collision objects it has not seen (their
// shapes translated into the format's parts), drops those that left, and
// writes a frame when one is due (the writer decimates), with the contact
// points when asked.  The format and its writer are the core's
// (plugin/record.c); this file only reads Bullet.  Bodies may be named
// for the recording (rf_bullet_record_name): a name set before the body's
// declaration goes into it, a later one declares the body again.
#ifndef ROLLFRIC_SHIM_RECORDER_HPP
#define ROLLFRIC_SHIM_RECORDER_HPP

#include "rollfric/record.h"
#include "rollfric/rollfric_bullet.h"

#include <btBulletDynamicsCommon.h>

#include <string>
#include <unordered_map>
#include <vector>

namespace rfshim {

// Names given to bodies for recordings (rf_bullet_record_name), kept by
// the plugin: set before a recording or during one, used by every
// recording from then on.  A name belongs to the object's broadphase
// proxy: an object later at the same address, or the same one removed
// and added again, is another one and has none.
class BodyNames {
  public:
    // Names obj, which must be in world; name at most RF_RECORD_NAME_MAX
    // bytes, "" for none.  *changed: the name differs from the one it had.
    // RF_ERR_INVALID (obj not in world, name too long) with *err.
    rf_status set(const btDiscreteDynamicsWorld *world,
                  const btCollisionObject *obj, const char *name, bool *changed,
                  rf_error *err);
    // obj's name, or nullptr.
    const char *of(const btCollisionObject *obj) const;

  private:
    struct Name {
        std::string text;
        int proxy_id;
    };
    // drops the names of objects no longer in world (never reads them)
    void prune(const btDiscreteDynamicsWorld *world);
    std::unordered_map<const btCollisionObject *, Name> names_;
};

class Recorder {
  public:
    // Opens path (frame_interval: least simulated time between frames, s;
    // contacts: record contact points; names: the bodies' names, which
    // must outlive the recorder); *err on failure, then nullptr.
    static Recorder *open(btDiscreteDynamicsWorld *world,
                          const BodyNames *names, const char *path,
                          double frame_interval, int contacts, rf_error *err);
    // The state after a step of length h (the plugin, for the contacts'
    // impulses): a frame when due.  Returns false after a write error
    // (message in last_error(); recording stops).
    bool after_step(const rf_plugin *plugin, double h);
    // Writes the last state (a forced frame) and closes the file.
    rf_status close(const rf_plugin *plugin, rf_error *err);
    // Closes the file with its end mark, reading nothing from the world.
    rf_status end(rf_error *err);
    // obj's name changed (BodyNames::set): a body declared already is
    // declared again with it at the next frame (GONE, then BODY with the
    // same id); one not declared yet takes it when it is.
    void renamed(const btCollisionObject *obj);
    const char *last_error() const
    {
        return error_.message;
    }
    ~Recorder();

  private:
    Recorder() = default;
    struct Known {
        int id;       // -1: left out (a shape the format refuses)
        int proxy_id; // the broadphase proxy's unique id when declared
        bool seen;
        bool renamed = false; // named since declared: declare it again
    };
    bool sync_bodies();
    rf_status declare(const btCollisionObject *obj, int id);
    // The world's state as a frame (force: whatever the interval; last:
    // the closing frame, left out when no body is left, so a recording
    // ends on the last frame that had bodies).
    bool write_frame(const rf_plugin *plugin, bool force, bool last = false);
    void gather_contacts(const rf_plugin *plugin, double h);

    btDiscreteDynamicsWorld *world_ = nullptr;
    rf_record_writer *writer_ = nullptr;
    double frame_interval_ = 0.0;
    bool contacts_ = false;
    bool failed_ = false;
    double time_ = 0.0;       // simulated time of the state now, s
    double next_frame_ = 0.0; // no frame is due before this time
    double last_h_ = 0.0;
    int next_id_ = 0;
    std::unordered_map<const btCollisionObject *, Known> known_;
    const BodyNames *names_ = nullptr;
    std::vector<rf_record_part> parts_; // per declaration, reused
    std::vector<std::vector<double>> part_verts_;
    std::vector<std::vector<int>> part_tris_;
    std::vector<int> ids_;
    std::vector<double> pos_, quat_;
    std::vector<rf_record_contact> contact_buf_;
    rf_error error_{};
};

} // namespace rfshim

#endif // ROLLFRIC_SHIM_RECORDER_HPP
