// Recording a Bullet world's run (rf_bullet_record_start): the
// shapes the shim translates, the frames' times and decimation, the
// transforms against the world's own, the contact forces of a resting
// ball against m g, bodies that come and go, names, and both solver modes.
#include "bullet_scene.hpp"

#include <rollfric/record.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

#define ENSURE(c)                                                              \
    do {                                                                       \
        if (!(c)) {                                                            \
            std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c);           \
            return 1;                                                          \
        }                                                                      \
    } while (0)

namespace {

std::string g_dir;                // the test's temporary folder
std::vector<std::string> g_files; // what it wrote there

std::string temp_path(const char *name)
{
    if (g_dir.empty()) {
        char tmpl[] = "/tmp/rf_record_XXXXXX";
        const char *d = mkdtemp(tmpl);
        g_dir = d != nullptr ? d : "/tmp";
    }
    g_files.push_back(g_dir + "/" + name);
    return g_files.back();
}

const rf_record_body *body_of(const rf_recording *r, int id)
{
    for (int b = 0; b < r->nbody; ++b) {
        if (r->bodies[b].id == id) {
            return &r->bodies[b];
        }
    }
    return nullptr;
}

// Every shape kind the shim translates, one body each, at rest or falling,
// in both modes: the parts' kinds and sizes as built.
int test_shapes(rf_bullet_mode mode)
{
    Scene s;
    s.ground();
    s.sphere(0.5, 1.0, btVector3(0, 0.5, 0), 0.5, 0.0);
    btTransform xf;
    xf.setIdentity();
    xf.setOrigin(btVector3(3, 1, 0));
    s.box(btVector3(0.5, 0.25, 0.75), 2.0, xf);
    xf.setOrigin(btVector3(-3, 1, 0));
    s.add(new btCylinderShapeZ(btVector3(0.3, 0.3, 0.6)), 1.0, xf);
    xf.setOrigin(btVector3(0, 1, 3));
    s.add(new btCapsuleShapeX(0.2, 0.8), 1.0, xf);
    xf.setOrigin(btVector3(0, 1, -3));
    s.add(new btConeShape(0.4, 1.2), 1.0, xf);
    auto *hull = new btConvexHullShape();
    for (int k = 0; k < 8; ++k) {
        hull->addPoint(btVector3(k & 1 ? 0.5 : -0.5, k & 2 ? 0.5 : -0.5,
                                 k & 4 ? 0.5 : -0.5));
    }
    xf.setOrigin(btVector3(6, 1, 0));
    s.add(hull, 1.0, xf);
    auto *comp = new btCompoundShape();
    btTransform c1, c2;
    c1.setIdentity();
    c2.setIdentity();
    c1.setOrigin(btVector3(0, 0.5, 0));
    c2.setOrigin(btVector3(0, -0.5, 0));
    comp->addChildShape(c1, s.own(new btSphereShape(0.25)));
    comp->addChildShape(c2, s.own(new btBoxShape(btVector3(0.1, 0.2, 0.3))));
    xf.setOrigin(btVector3(-6, 2, 0));
    s.add(comp, 1.0, xf);

    rf_plugin *p = attach(s, mode);
    ENSURE(p != nullptr);
    const std::string path =
        temp_path(mode == RF_BULLET_CONE ? "shapes_cone" : "shapes_stock");
    rf_error err;
    ENSURE(rf_bullet_record_start(p, path.c_str(), 1.0 / 60, 1, &err) == RF_OK);
    // a second recording on the same plugin is refused
    ENSURE(rf_bullet_record_start(p, path.c_str(), 1.0 / 60, 1, &err) ==
           RF_ERR_STATE);
    s.step(1.0 / 240, 240); // 1 s at 240 Hz, frames at 60 Hz
    ENSURE(rf_bullet_record_stop(p, &err) == RF_OK);
    ENSURE(rf_bullet_record_stop(p, &err) == RF_OK); // none open: no-op

    rf_recording *r = nullptr;
    ENSURE(rf_recording_read(path.c_str(), &r, &err) == RF_OK);
    ENSURE(r->complete == 1 && r->has_contacts == 1);
    ENSURE(r->nbody == 8); /* the compound is one body of two parts */
    // frames at t = 0, 1/60, ..., 59/60 (every 4th step start) and the
    // forced last state at t = 1 s: 61 (decimation, record.h); the times
    // add up Bullet's float time step (1/240 rounded to float: 1e-7
    // relative, 1e-6 s over the second)
    ENSURE(r->nframe == 61);
    for (int f = 0; f < 60; ++f) {
        ENSURE(std::fabs(r->frames[f].time - f / 60.0) < 1e-6);
    }
    ENSURE(std::fabs(r->frames[60].time - 1.0) < 1e-6);
    // declaration order = the world's object order
    const rf_shape_kind want[9] = {
        RF_SHAPE_PLANE,    RF_SHAPE_SPHERE,  RF_SHAPE_BOX,
        RF_SHAPE_CYLINDER, RF_SHAPE_CAPSULE, RF_SHAPE_CONE,
        RF_SHAPE_HULL,     RF_SHAPE_SPHERE,  RF_SHAPE_BOX};
    int k = 0;
    for (int b = 0; b < r->nbody; ++b) {
        for (int q = 0; q < r->bodies[b].nparts; ++q, ++k) {
            ENSURE(k < 9 && r->bodies[b].parts[q].kind == want[k]);
        }
    }
    ENSURE(k == 9);
    ENSURE(r->bodies[0].is_static == 1 && r->bodies[1].is_static == 0);
    // sizes as built (float32 in the file)
    const rf_record_part &box = r->bodies[2].parts[0];
    ENSURE(box.size[0] == 0.5f && box.size[1] == 0.25f && box.size[2] == 0.75f);
    const rf_record_part &cyl = r->bodies[3].parts[0];
    ENSURE(cyl.axis == 2 && cyl.size[0] == 0.3f && cyl.size[1] == 0.6f);
    const rf_record_part &cap = r->bodies[4].parts[0];
    ENSURE(cap.axis == 0 && cap.size[0] == 0.2f && cap.size[1] == 0.4f);
    const rf_record_part &cone = r->bodies[5].parts[0];
    ENSURE(cone.axis == 1 && cone.size[0] == 0.4f && cone.size[1] == 1.2f);
    ENSURE(r->bodies[6].parts[0].nvert == 8);
    ENSURE(r->bodies[7].nparts == 2 &&
           std::fabs(r->bodies[7].parts[0].pos[1] - 0.5) < 1e-6 &&
           std::fabs(r->bodies[7].parts[1].pos[1] + 0.5) < 1e-6);
    // the last frame is the world's state now (float32)
    const rf_record_frame_data &last = r->frames[r->nframe - 1];
    const btCollisionObjectArray &objs = s.world.getCollisionObjectArray();
    ENSURE(last.n == objs.size());
    for (int i = 0; i < last.n; ++i) {
        const btVector3 &o = objs[i]->getWorldTransform().getOrigin();
        for (int c = 0; c < 3; ++c) {
            ENSURE(last.pos[3 * i + c] == (float)o[c]);
        }
    }
    rf_recording_free(r);
    rf_bullet_detach(p);
    return 0;
}

// A ball resting on the ground: each frame's contact carries the normal
// force m g (statics: N = m g; 1% for the solver's tolerance) and points
// from the ground towards the ball.
int test_contact_force(rf_bullet_mode mode)
{
    Scene s;
    s.ground();
    s.sphere(0.5, 2.0, btVector3(0, 0.5, 0), 0.5, 0.0);
    rf_plugin *p = attach(s, mode);
    ENSURE(p != nullptr);
    s.step(1.0 / 60, 30); // settle
    const std::string path = temp_path("contact");
    rf_error err;
    ENSURE(rf_bullet_record_start(p, path.c_str(), 0.0, 1, &err) == RF_OK);
    s.step(1.0 / 60, 30);
    rf_bullet_detach(p); // closes the recording
    rf_recording *r = nullptr;
    ENSURE(rf_recording_read(path.c_str(), &r, &err) == RF_OK);
    ENSURE(r->nframe == 31); // interval 0: every step, and the last state
    const double mg = 2.0 * 9.81;
    for (int f = 0; f < 30; ++f) {
        const rf_record_frame_data &fr = r->frames[f];
        double n = 0;
        for (int c = 0; c < fr.ncontact; ++c) {
            n += fr.contacts[c].normal_force;
            ENSURE(std::fabs(std::fabs(fr.contacts[c].normal[1]) - 1) < 1e-6);
        }
        ENSURE(fr.ncontact >= 1 && std::fabs(n - mg) < 0.01 * mg);
    }
    rf_recording_free(r);
    return 0;
}

// Bodies that leave and join: the removed one's id is not listed after
// it left, the new one first appears in the frame after it was added.
int test_come_and_go()
{
    Scene s;
    s.ground();
    btRigidBody *a = s.sphere(0.5, 1.0, btVector3(0, 2, 0), 0.5, 0.0);
    rf_plugin *p = attach(s, RF_BULLET_CONE);
    ENSURE(p != nullptr);
    const std::string path = temp_path("come_and_go");
    rf_error err;
    ENSURE(rf_bullet_record_start(p, path.c_str(), 0.0, 0, &err) == RF_OK);
    s.step(1.0 / 60, 10);
    s.world.removeRigidBody(a);
    s.step(1.0 / 60, 10);
    s.sphere(0.25, 1.0, btVector3(2, 2, 0), 0.5, 0.0);
    s.step(1.0 / 60, 10);
    ENSURE(rf_bullet_record_stop(p, &err) == RF_OK);
    s.world.addRigidBody(a); // back, so the scene tears down as built
    rf_recording *r = nullptr;
    ENSURE(rf_recording_read(path.c_str(), &r, &err) == RF_OK);
    ENSURE(r->nframe == 31 && r->nbody == 3);
    const rf_record_body *gone = body_of(r, 1);
    const rf_record_body *added = body_of(r, 2);
    ENSURE(gone != nullptr && added != nullptr);
    ENSURE(gone->first_frame == 0 && added->first_frame == 20);
    ENSURE(r->frames[9].n == 2 && r->frames[10].n == 1 && r->frames[20].n == 2);
    rf_recording_free(r);
    rf_bullet_detach(p);
    return 0;
}

// An application that removes its bodies before the recording stops (as
// Bullet's HelloWorld does before deleting the world): the recording ends
// on the last frame that had them, not on an empty world.  10 steps at
// interval 0: a frame per step, and no closing frame (it would be empty).
int test_ends_with_bodies()
{
    Scene s;
    btRigidBody *ground = s.ground();
    btRigidBody *a = s.sphere(0.5, 1.0, btVector3(0, 2, 0), 0.5, 0.0);
    rf_plugin *p = attach(s, RF_BULLET_CONE);
    ENSURE(p != nullptr);
    const std::string path = temp_path("ends_with_bodies");
    rf_error err;
    ENSURE(rf_bullet_record_start(p, path.c_str(), 0.0, 0, &err) == RF_OK);
    s.step(1.0 / 60, 10);
    s.world.removeRigidBody(a);
    s.world.removeRigidBody(ground);
    ENSURE(rf_bullet_record_stop(p, &err) == RF_OK);
    s.world.addRigidBody(ground); // back, so the scene tears down as built
    s.world.addRigidBody(a);
    rf_recording *r = nullptr;
    ENSURE(rf_recording_read(path.c_str(), &r, &err) == RF_OK);
    std::printf("  %d frames, the last with %d bodies\n", r->nframe,
                r->nframe > 0 ? r->frames[r->nframe - 1].n : -1);
    ENSURE(r->nframe == 10);
    ENSURE(r->frames[r->nframe - 1].n == 2);
    rf_recording_free(r);
    rf_bullet_detach(p);
    return 0;
}

// Names (rf_bullet_record_name): a body named before its declaration
// (before the recording, too) is declared with its name; one named after
// is declared again at the next frame, with the same id and the name (two
// renames between frames: one re-declaration), the earlier declaration
// keeping the frames before; the longest name (63 bytes) whole; names
// outlast a recording (the next one declares them); and the errors.
int test_names()
{
    Scene s;
    s.ground();
    btRigidBody *a = s.sphere(0.5, 1.0, btVector3(0, 0.5, 0), 0.5, 0.0);
    btRigidBody *b = s.sphere(0.25, 1.0, btVector3(2, 0.25, 0), 0.5, 0.0);
    btRigidBody *c = s.sphere(0.25, 1.0, btVector3(-2, 0.25, 0), 0.5, 0.0);
    rf_plugin *p = attach(s, RF_BULLET_CONE);
    ENSURE(p != nullptr);
    rf_error err;
    // before any recording: the plugin keeps it
    ENSURE(rf_bullet_record_name(p, a, "ball", &err) == RF_OK);
    const std::string path = temp_path("names");
    ENSURE(rf_bullet_record_start(p, path.c_str(), 0.0, 0, &err) == RF_OK);
    ENSURE(rf_bullet_record_name(p, a, "ball", &err) == RF_OK);
    const std::string longest(63, 'n'), too_long(64, 'n');
    ENSURE(rf_bullet_record_name(p, c, longest.c_str(), &err) == RF_OK);
    // refused, not cut; the message gives the length
    ENSURE(rf_bullet_record_name(p, c, too_long.c_str(), &err) ==
           RF_ERR_INVALID);
    ENSURE(std::strstr(err.message, "64 bytes") != nullptr);
    ENSURE(rf_bullet_record_name(nullptr, a, "x", &err) == RF_ERR_NULL);
    ENSURE(rf_bullet_record_name(p, nullptr, "x", &err) == RF_ERR_NULL);
    ENSURE(rf_bullet_record_name(p, a, nullptr, &err) == RF_ERR_NULL);
    ENSURE(std::strstr(err.message, "name is NULL") != nullptr);
    btSphereShape loose_shape(0.1f);
    btRigidBody loose(0, nullptr, &loose_shape); // in no world
    ENSURE(rf_bullet_record_name(p, &loose, "loose", &err) == RF_ERR_INVALID);
    ENSURE(std::strstr(err.message, "not in the plugin's world") != nullptr);
    s.step(1.0 / 60, 5); // frames 0 to 4
    ENSURE(rf_bullet_record_name(p, b, "first", &err) == RF_OK);
    ENSURE(rf_bullet_record_name(p, b, "second", &err) == RF_OK);
    ENSURE(rf_bullet_record_name(p, a, "ball", &err) == RF_OK); // unchanged
    s.step(1.0 / 60, 5);                                        // frames 5 to 9
    ENSURE(rf_bullet_record_stop(p, &err) == RF_OK);            // frame 10
    rf_recording *r = nullptr;
    ENSURE(rf_recording_read(path.c_str(), &r, &err) == RF_OK);
    ENSURE(r->nframe == 11 && r->nbody == 5);
    // ground, a, b, c in the world's order, then b again
    const char *want[5] = {"", "ball", "", longest.c_str(), "second"};
    const int ids[5] = {0, 1, 2, 3, 2}, first[5] = {0, 0, 0, 0, 5};
    for (int k = 0; k < 5; ++k) {
        ENSURE(std::strcmp(r->bodies[k].name, want[k]) == 0);
        ENSURE(r->bodies[k].id == ids[k] &&
               r->bodies[k].first_frame == first[k]);
    }
    // b is listed in every frame, under its id, where the world had it
    ENSURE(r->frames[4].n == 4 && r->frames[5].n == 4 &&
           r->frames[5].ids[2] == 2);
    ENSURE(std::fabs(r->frames[10].pos[3 * 2] -
                     b->getWorldTransform().getOrigin().x()) < 1e-6);
    rf_recording_free(r);
    // a second recording declares the names given during the first
    const std::string path2 = temp_path("names2");
    ENSURE(rf_bullet_record_start(p, path2.c_str(), 0.0, 0, &err) == RF_OK);
    s.step(1.0 / 60, 1);
    ENSURE(rf_bullet_record_stop(p, &err) == RF_OK);
    ENSURE(rf_recording_read(path2.c_str(), &r, &err) == RF_OK);
    const bool again = r->nbody == 4 &&
                       std::strcmp(r->bodies[1].name, "ball") == 0 &&
                       std::strcmp(r->bodies[2].name, "second") == 0 &&
                       std::strcmp(r->bodies[3].name, longest.c_str()) == 0;
    rf_recording_free(r);
    ENSURE(again);
    rf_bullet_detach(p);
    return 0;
}

int test_errors()
{
    Scene s;
    rf_plugin *p = attach(s, RF_BULLET_CONE);
    ENSURE(p != nullptr);
    rf_error err;
    ENSURE(rf_bullet_record_start(nullptr, "x", 0.0, 0, &err) == RF_ERR_NULL);
    ENSURE(rf_bullet_record_start(p, nullptr, 0.0, 0, &err) == RF_ERR_NULL);
    ENSURE(rf_bullet_record_start(p, "/nonexistent/dir/x.rec", 0.0, 0, &err) ==
           RF_ERR_IO);
    ENSURE(rf_bullet_record_start(p, temp_path("bad").c_str(), -1.0, 0, &err) ==
           RF_ERR_INVALID);
    ENSURE(rf_bullet_record_stop(nullptr, &err) == RF_ERR_NULL);
    rf_bullet_detach(p);
    return 0;
}

} // namespace

int main()
{
    int fails = 0;
    for (rf_bullet_mode m : {RF_BULLET_CONE, RF_BULLET_STOCK}) {
        fails += test_shapes(m);
        fails += test_contact_force(m);
    }
    fails += test_come_and_go();
    fails += test_ends_with_bodies();
    fails += test_names();
    fails += test_errors();
    for (const std::string &f : g_files) {
        std::remove(f.c_str());
    }
    if (!g_dir.empty() && g_dir != "/tmp") {
        rmdir(g_dir.c_str());
    }
    std::printf(fails ? "%d test(s) failed\n" : "all recording tests passed\n",
                fails);
    return fails ? 1 : 0;
}
