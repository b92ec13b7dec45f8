/*
 * Recordings of a simulation run: each body's shape once, then
 * its transform per recorded frame (at most one frame per frame_interval
 * of simulated time), and optionally each frame's contact points with
 * their normal force and rolling torque.  Written by the Bullet shim
 * (rf_bullet_record_start, ROLLFRIC_RECORD with the LD_PRELOAD library,
 * plStartRecording) and by rfdemo; read back for the A/B viewer.  Pure C:
 * no Bullet header.  The file format (binary, little-endian, versioned,
 * chunked so that readers skip what they do not know) is in
 * docs/recording.md.
 *
 * Units: SI (m, s, N, N m); quaternions (x, y, z, w).  Errors: functions
 * return rf_status and fill err (may be NULL) with a message naming the
 * file and what was wrong; nothing aborts.
 */
#ifndef ROLLFRIC_RECORD_H
#define ROLLFRIC_RECORD_H

#include "rollfric/rollfric.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RF_RECORD_VERSION 1
/* The longest body name a recording keeps, bytes (UTF-8, no NUL):
 * rf_record_body.name holds it and a NUL. */
#define RF_RECORD_NAME_MAX 63

/* The primitive of one part of a body's shape. */
typedef enum rf_shape_kind {
    RF_SHAPE_SPHERE = 1,   /* size[0] radius */
    RF_SHAPE_BOX = 2,      /* size[0..2] half extents */
    RF_SHAPE_CYLINDER = 3, /* size[0] radius, size[1] half height; axis */
    RF_SHAPE_CAPSULE = 4,  /* size[0] radius, size[1] half the straight
                              part (cap centres at +-size[1]); axis */
    RF_SHAPE_CONE = 5,     /* size[0] radius, size[1] full height, centred
                              (apex at +size[1] / 2); axis */
    RF_SHAPE_HULL = 6,     /* convex hull of nvert points */
    RF_SHAPE_PLANE = 7,    /* n . x = d: size[0..2] n (unit), size[3] d */
    RF_SHAPE_MESH = 8,     /* ntri triangles of nvert points */
    RF_SHAPE_OTHER = 9     /* a shape the format does not describe: drawn
                              as its bounding box, size[0..2] half extents */
} rf_shape_kind;

/* One part of a body's shape, in the body's frame (a compound has several,
 * flattened; other shapes one at the origin).  verts (3 nvert) and tris (3
 * ntri, 0-based) for hulls (tris optional) and meshes; for the other kinds
 * nvert and ntri are 0 and the pointers NULL.  The writer copies them, the
 * reader owns them (rf_recording_free).  Values are stored as float32. */
typedef struct rf_record_part {
    rf_shape_kind kind;
    int axis; /* 0 = x, 1 = y, 2 = z (cylinder, capsule, cone) */
    double size[4];
    double pos[3], quat[4]; /* the part's frame in the body's */
    int nvert;
    double *verts;
    int ntri;
    int *tris;
} rf_record_part;

/* One contact point of a frame: the two bodies' ids (-1: not recorded),
 * the point and the unit normal (world frame, from b towards a), the
 * normal force and the rolling torque on a (N, N m; the impulses of the
 * step over its length). */
typedef struct rf_record_contact {
    int body_a, body_b;
    float pos[3], normal[3];
    float normal_force;
    float rolling_torque[3];
} rf_record_contact;

/* ---- writing ---- */

/* After a write fails (RF_ERR_IO) the file ends there: every later call
 * on the writer returns RF_ERR_IO, and rf_record_close still frees it.
 * A call that fails otherwise writes nothing and changes nothing. */
typedef struct rf_record_writer rf_record_writer;

/* A new recording at path (created or truncated).  step: the
 * simulation's time step, s (0: unknown); frame_interval: the least
 * simulated time between two written frames, s (>= 0; 1/60 for at most 60
 * frames per simulated second); contacts: 1 to record contact points.
 * *out owns the open file until rf_record_close.  Errors: RF_ERR_NULL
 * (path, out), RF_ERR_INVALID (step or frame_interval negative or not
 * finite, contacts not 0 or 1), RF_ERR_IO (cannot create path),
 * RF_ERR_NOMEM. */
RF_API rf_status rf_record_open(const char *path, double step,
                                double frame_interval, int contacts,
                                rf_record_writer **out, rf_error *err);

/* Declares body id (>= 0, not declared before, or declared and then
 * removed) with its shape parts (copied), before a frame lists it; name
 * may be NULL (stored as ""; a name over RF_RECORD_NAME_MAX = 63 bytes is
 * cut to 63; rf_bullet_record_name refuses one instead).
 * is_static: 1 for a body that never moves.  Errors: RF_ERR_NULL (w,
 * parts with nparts > 0, a part's verts or tris with nvert or ntri > 0),
 * RF_ERR_INVALID (id < 0 or live, nparts < 1, is_static not 0 or 1, a
 * bad part: unknown kind, axis not 0, 1 or 2, nvert or ntri negative or
 * not 0 for a kind other than hull and mesh, a size, position, quaternion
 * or vertex not finite or beyond float's range, an index out of range),
 * RF_ERR_IO, RF_ERR_NOMEM. */
RF_API rf_status rf_record_add_body(rf_record_writer *w, int id,
                                    const char *name, int is_static, int nparts,
                                    const rf_record_part *parts, rf_error *err);

/* Body id leaves the recording (removed from the simulation).  Errors:
 * RF_ERR_NULL, RF_ERR_INVALID (id not live), RF_ERR_IO. */
RF_API rf_status rf_record_remove_body(rf_record_writer *w, int id,
                                       rf_error *err);

/* The state at simulated time t (s, not below the t of the previous
 * successful call): the transforms of n live bodies (declared and not
 * removed; ids, each once; pos 3n, quat 4n) and, when the recording has
 * contacts, ncontact points (whose bodies are -1 or live; ignored when
 * the recording has none).  A frame need not list every body: a reader
 * keeps a body's last listed transform.  Written when it is the first,
 * or force is 1 (the last state of a run), or t >= (t of the last
 * written frame) + frame_interval (1 - 1e-9); else skipped, RF_OK.
 * *written (may be NULL) says which.  Errors: RF_ERR_NULL (w; ids, pos
 * or quat with n > 0; contacts with ncontact > 0 in a recording with
 * contacts), RF_ERR_INVALID (t before the previous call's or not finite,
 * n or ncontact negative, force not 0 or 1, an id not live or listed
 * twice, a transform not finite or beyond float's range, a contact whose
 * body is neither -1 nor live or whose values are not finite), RF_ERR_IO,
 * RF_ERR_NOMEM. */
RF_API rf_status rf_record_frame(rf_record_writer *w, double t, int n,
                                 const int *ids, const double *pos,
                                 const double *quat, int ncontact,
                                 const rf_record_contact *contacts, int force,
                                 int *written, rf_error *err);

/* Ends the file and frees w (NULL is ignored).  Errors: RF_ERR_IO (the
 * file could not be completed, or an earlier write failed; w is freed
 * anyway). */
RF_API rf_status rf_record_close(rf_record_writer *w, rf_error *err);

/* ---- reading ---- */

typedef struct rf_record_body {
    int id;
    int is_static;
    char name[RF_RECORD_NAME_MAX + 1];
    int nparts;
    rf_record_part *parts;
    int first_frame; /* the first frame that lists it (-1: none).  Frames
                        name bodies by id; an id declared again after its
                        removal is another body: frame f's id is the body
                        with that id and the largest first_frame <= f */
} rf_record_body;

/* A frame: n bodies' transforms (float, as stored), then its contacts. */
typedef struct rf_record_frame_data {
    double time;
    int n;
    int *ids;
    float *pos;  /* 3 n */
    float *quat; /* 4 n */
    int ncontact;
    rf_record_contact *contacts;
} rf_record_frame_data;

typedef struct rf_recording {
    int version;
    int has_contacts;
    double step, frame_interval;
    int nbody; /* every body ever declared, in declaration order */
    rf_record_body *bodies;
    int nframe;
    rf_record_frame_data *frames;
    int complete; /* 0: the file ends before rf_record_close's end mark
                     (a run cut short): the whole chunks are kept, but
                     with contacts a last frame without its whole CONT
                     chunk is dropped */
} rf_recording;

/* Reads the recording at path into *out (owned by the caller, freed with
 * rf_recording_free).  Chunks of kinds this version does not know are
 * skipped.  Errors: RF_ERR_NULL, RF_ERR_IO (cannot open or read),
 * RF_ERR_FORMAT (not a recording or shorter than its 32-byte header, a
 * later version, a malformed chunk, a chunk length that runs past the end
 * of a file that ends with its end mark: the message names its offset),
 * RF_ERR_NOMEM; *out is then untouched. */
RF_API rf_status rf_recording_read(const char *path, rf_recording **out,
                                   rf_error *err);
RF_API void rf_recording_free(rf_recording *r);

#ifdef __cplusplus
}
#endif

#endif /* ROLLFRIC_RECORD_H */
