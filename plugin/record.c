/*
 * Recordings of a simulation run (rollfric/record.h; the format is in
 * docs/recording.md): a writer that encodes each chunk into one reused
 * byte buffer and appends it to the file, and a reader that takes the file
 * chunk by chunk.
 *
 *   header   "RFRECORD", u32 version, u32 flags, f64 step, f64 interval
 *   chunks   4-byte tag, u32 payload length, payload: BODY, GONE, FRAM,
 *            CONT (after its FRAM when contacts are recorded), END
 *
 * Every number is little-endian whatever the host: the bytes are put and
 * taken one by one with shifts, never by copying a host integer.  Body ids
 * are looked up in an open-addressing hash table (any id >= 0, ids never
 * erased: a removed body keeps its slot, marked gone); its per-slot stamp
 * finds an id listed twice in one frame.  The writer allocates only by
 * amortised growth (the buffer, the table), the reader by growth of its
 * arrays and the frame's own data.
 */
#include "internal.h"
#include "rollfric/record.h"

#include <errno.h>
#include <float.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    HEADER_SIZE = 32,    /* magic, version, flags, step, frame_interval */
    CHUNK_HEADER = 8,    /* tag, payload length */
    NAME_MAX_LEN = 63,   /* rf_record_body.name holds 63 bytes and a NUL */
    PART_FIXED = 60,     /* a part's bytes besides its vertices and tris */
    FRAME_FIXED = 12,    /* FRAM: time, n */
    FRAME_ENTRY = 32,    /* FRAM: id, pos[3], quat[4] */
    CONTACT_ENTRY = 48,  /* CONT: a, b, pos[3], normal[3], force, torque[3] */
    SKIP_PIECE = 4096,   /* an unknown chunk is skipped this much at a time */
    READ_PIECE = 1 << 20 /* a payload is read (and grown) this much at a time */
};

static const char MAGIC[8] = {'R', 'F', 'R', 'E', 'C', 'O', 'R', 'D'};
static const char TAG_BODY[4] = {'B', 'O', 'D', 'Y'};
static const char TAG_GONE[4] = {'G', 'O', 'N', 'E'};
static const char TAG_FRAM[4] = {'F', 'R', 'A', 'M'};
static const char TAG_CONT[4] = {'C', 'O', 'N', 'T'};
static const char TAG_END[4] = {'E', 'N', 'D', ' '};

/* ------------------------------------------------------------------ */
/* Little-endian bytes                                                 */
/* ------------------------------------------------------------------ */

typedef struct bytes {
    unsigned char *p;
    size_t len, cap;
} bytes;

/* Room for extra more bytes (doubling); 0 when out of memory. */
static int bytes_reserve(bytes *b, size_t extra)
{
    if (extra <= b->cap - b->len) {
        return 1;
    }
    if (extra > SIZE_MAX / 4 - b->len) {
        return 0;
    }
    size_t want = b->cap > 0 ? b->cap : 256;
    while (want - b->len < extra) {
        want *= 2;
    }
    unsigned char *q = realloc(b->p, want);
    if (q == NULL) {
        return 0;
    }
    b->p = q;
    b->cap = want;
    return 1;
}

/* The put_* functions write into room made by bytes_reserve. */
static void put_u32(bytes *b, uint32_t v)
{
    unsigned char *q = b->p + b->len;
    q[0] = (unsigned char)(v & 0xffu);
    q[1] = (unsigned char)((v >> 8) & 0xffu);
    q[2] = (unsigned char)((v >> 16) & 0xffu);
    q[3] = (unsigned char)((v >> 24) & 0xffu);
    b->len += 4;
}

static void put_i32(bytes *b, int v)
{
    put_u32(b, (uint32_t)v); /* two's complement, by the conversion rule */
}

static void put_f32(bytes *b, float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    put_u32(b, u);
}

static void put_f64(bytes *b, double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    put_u32(b, (uint32_t)(u & 0xffffffffu));
    put_u32(b, (uint32_t)(u >> 32));
}

static void put_raw(bytes *b, const void *src, size_t n)
{
    if (n > 0) {
        memcpy(b->p + b->len, src, n);
        b->len += n;
    }
}

static uint32_t le32(const unsigned char *q)
{
    return (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 |
           (uint32_t)q[3] << 24;
}

static int32_t i32_of(uint32_t u)
{
    return u <= INT32_MAX ? (int32_t)u : -(int32_t)(~u) - 1;
}

/* A reading position in a payload; the get_* functions return 0 when the
   payload ends before the value. */
typedef struct cursor {
    const unsigned char *p;
    size_t left;
} cursor;

static int get_u32(cursor *c, uint32_t *v)
{
    if (c->left < 4) {
        return 0;
    }
    *v = le32(c->p);
    c->p += 4;
    c->left -= 4;
    return 1;
}

static int get_i32(cursor *c, int *v)
{
    uint32_t u;
    if (!get_u32(c, &u)) {
        return 0;
    }
    *v = (int)i32_of(u);
    return 1;
}

static int get_f32(cursor *c, float *x)
{
    uint32_t u;
    if (!get_u32(c, &u)) {
        return 0;
    }
    memcpy(x, &u, sizeof *x);
    return 1;
}

static int get_f32s(cursor *c, float *x, size_t n)
{
    for (size_t k = 0; k < n; ++k) {
        if (!get_f32(c, &x[k])) {
            return 0;
        }
    }
    return 1;
}

static int get_f64(cursor *c, double *x)
{
    uint32_t lo, hi;
    if (!get_u32(c, &lo) || !get_u32(c, &hi)) {
        return 0;
    }
    const uint64_t u = (uint64_t)hi << 32 | lo;
    memcpy(x, &u, sizeof *x);
    return 1;
}

/* ------------------------------------------------------------------ */
/* Body ids                                                            */
/* ------------------------------------------------------------------ */

/* value: the writer's live flag (1 / 0), the reader's body index (-1:
   gone); stamp: the last frame that listed the id. */
typedef struct id_slot {
    int id; /* -1: empty */
    int value;
    unsigned stamp;
} id_slot;

typedef struct id_map {
    id_slot *slot;
    size_t cap; /* a power of two, or 0 */
    size_t count;
    unsigned stamp;
} id_map;

static size_t id_home(int id, size_t cap)
{
    return (size_t)((uint32_t)id * 2654435761u) & (cap - 1);
}

static id_slot *map_find(const id_map *m, int id)
{
    if (m->cap == 0) {
        return NULL;
    }
    for (size_t i = id_home(id, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (m->slot[i].id == id) {
            return &m->slot[i];
        }
        if (m->slot[i].id < 0) {
            return NULL;
        }
    }
}

/* The slot of id (not in m), value and stamp 0; NULL when out of memory.
   The table is kept at most half full. */
static id_slot *map_add(id_map *m, int id)
{
    if (2 * (m->count + 1) > m->cap) {
        const size_t cap = m->cap > 0 ? 2 * m->cap : 64;
        if (cap > SIZE_MAX / sizeof(id_slot)) {
            return NULL;
        }
        id_slot *s = malloc(cap * sizeof *s);
        if (s == NULL) {
            return NULL;
        }
        for (size_t i = 0; i < cap; ++i) {
            s[i].id = -1;
        }
        for (size_t i = 0; i < m->cap; ++i) {
            if (m->slot[i].id >= 0) {
                size_t j = id_home(m->slot[i].id, cap);
                while (s[j].id >= 0) {
                    j = (j + 1) & (cap - 1);
                }
                s[j] = m->slot[i];
            }
        }
        free(m->slot);
        m->slot = s;
        m->cap = cap;
    }
    size_t i = id_home(id, m->cap);
    while (m->slot[i].id >= 0) {
        i = (i + 1) & (m->cap - 1);
    }
    m->slot[i].id = id;
    m->slot[i].value = 0;
    m->slot[i].stamp = 0;
    m->count++;
    return &m->slot[i];
}

/* A fresh stamp for the next frame (on wrap-around every slot is reset,
   so an old stamp never equals a new one). */
static void map_next_stamp(id_map *m)
{
    if (++m->stamp == 0) {
        for (size_t i = 0; i < m->cap; ++i) {
            m->slot[i].stamp = 0;
        }
        m->stamp = 1;
    }
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */
/* ------------------------------------------------------------------ */

struct rf_record_writer {
    FILE *f;
    char *path;
    int contacts;
    double interval;
    long nwritten;  /* frames written */
    int have_t;     /* a frame call succeeded: last_t is set */
    double last_t;  /* t of the last successful frame call */
    double last_wt; /* t of the last written frame */
    int failed;     /* a write failed: the file ends there, calls refused */
    bytes buf;      /* the chunk being written */
    id_map ids;     /* value: 1 live, 0 removed */
};

/* Finite and within float's range (so that the conversion is too). */
static int f32_ok(double x)
{
    return x - x == 0.0 && fabs(x) <= FLT_MAX;
}

static int all_f32_ok(const double *x, size_t n)
{
    for (size_t k = 0; k < n; ++k) {
        if (!f32_ok(x[k])) {
            return 0;
        }
    }
    return 1;
}

static void put_f32s(bytes *b, const double *x, size_t n)
{
    for (size_t k = 0; k < n; ++k) {
        put_f32(b, (float)x[k]);
    }
}

/* A chunk's header; payload bytes must follow. */
static void put_chunk(bytes *b, const char tag[4], uint64_t payload)
{
    put_raw(b, tag, 4);
    put_u32(b, (uint32_t)payload);
}

/* Appends w->buf to the file (and flushes it when asked); on failure the
   writer is marked failed and every later call refused. */
static rf_status flush_buf(rf_record_writer *w, const char *fn, int flush,
                           rf_error *err)
{
    const size_t n = w->buf.len;
    w->buf.len = 0;
    errno = 0;
    if (fwrite(w->buf.p, 1, n, w->f) != n || (flush && fflush(w->f) != 0)) {
        w->failed = 1;
        return rf__fail(err, RF_ERR_IO, "%s: %s: write failed: %s", fn, w->path,
                        errno ? strerror(errno) : "short write");
    }
    return RF_OK;
}

/* RF_OK when w may write; its error otherwise. */
static rf_status writer_usable(const rf_record_writer *w, const char *fn,
                               rf_error *err)
{
    if (w == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: w is NULL", fn);
    }
    if (w->failed) {
        return rf__fail(err, RF_ERR_IO,
                        "%s: %s: an earlier write failed; the recording "
                        "ends there",
                        fn, w->path);
    }
    return RF_OK;
}

/* Room for n chunks of the given payload sizes, each within the u32
   length. */
static rf_status reserve_chunks(rf_record_writer *w, const char *fn,
                                const uint64_t *payload, int n, rf_error *err)
{
    uint64_t total = 0;
    for (int k = 0; k < n; ++k) {
        if (payload[k] > UINT32_MAX) {
            return rf__fail(err, RF_ERR_INVALID,
                            "%s: %s: a chunk of %llu bytes is over the "
                            "format's 4 GiB",
                            fn, w->path, (unsigned long long)payload[k]);
        }
        total += CHUNK_HEADER + payload[k];
    }
    if (total > SIZE_MAX / 4 || !bytes_reserve(&w->buf, (size_t)total)) {
        return rf__fail(err, RF_ERR_NOMEM, "%s: %s: out of memory", fn,
                        w->path);
    }
    return RF_OK;
}

static rf_status reserve_chunk(rf_record_writer *w, const char *fn,
                               uint64_t payload, rf_error *err)
{
    return reserve_chunks(w, fn, &payload, 1, err);
}

static void writer_free(rf_record_writer *w)
{
    free(w->buf.p);
    free(w->ids.slot);
    free(w->path);
    free(w);
}

/* The file header (room made by the caller). */
static void put_header(bytes *b, int contacts, double step, double interval)
{
    put_raw(b, MAGIC, 8);
    put_u32(b, RF_RECORD_VERSION);
    put_u32(b, (uint32_t)contacts); /* flags: bit 0 contacts */
    put_f64(b, step);
    put_f64(b, interval);
}

rf_status rf_record_open(const char *path, double step, double frame_interval,
                         int contacts, rf_record_writer **out, rf_error *err)
{
    static const char fn[] = "rf_record_open";
    if (path == NULL || out == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: %s is NULL", fn,
                        path == NULL ? "path" : "out");
    }
    char shown[RF__SHOWN_PATH]; /* the path in messages */
    rf__shown_path(path, shown);
    if (!(step >= 0.0 && step - step == 0.0) ||
        !(frame_interval >= 0.0 && frame_interval - frame_interval == 0.0) ||
        (contacts != 0 && contacts != 1)) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: %s: step = %g, frame_interval = %g (both finite "
                        "and >= 0), contacts = %d (0 or 1)",
                        fn, shown, step, frame_interval, contacts);
    }
    rf_record_writer *w = calloc(1, sizeof *w);
    if (w != NULL) {
        w->path = malloc(RF__SHOWN_PATH);
    }
    if (w == NULL || w->path == NULL || !bytes_reserve(&w->buf, HEADER_SIZE)) {
        if (w != NULL) {
            writer_free(w);
        }
        return rf__fail(err, RF_ERR_NOMEM, "%s: %s: out of memory", fn, shown);
    }
    memcpy(w->path, shown, RF__SHOWN_PATH);
    w->contacts = contacts;
    w->interval = frame_interval;
    errno = 0;
    w->f = fopen(path, "wb");
    if (w->f == NULL) {
        rf_status st =
            rf__fail(err, RF_ERR_IO, "%s: cannot create %s: %s", fn, shown,
                     errno ? strerror(errno) : "unknown error");
        writer_free(w);
        return st;
    }
    put_header(&w->buf, contacts, step, frame_interval);
    rf_status st = flush_buf(w, fn, 1, err);
    if (st != RF_OK) {
        fclose(w->f);
        writer_free(w);
        return st;
    }
    *out = w;
    rf__ok(err);
    return RF_OK;
}

/* Part k of body id: its kind, axis, values and indices. */
static rf_status check_part(const rf_record_writer *w, int id, int k,
                            const rf_record_part *pt, rf_error *err)
{
    static const char fn[] = "rf_record_add_body";
    const char *path = w->path;
    if (pt->kind < RF_SHAPE_SPHERE || pt->kind > RF_SHAPE_OTHER) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: %s: body %d part %d: unknown kind %d", fn, path,
                        id, k, (int)pt->kind);
    }
    if (pt->axis < 0 || pt->axis > 2) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: %s: body %d part %d: axis %d (0, 1 or 2)", fn,
                        path, id, k, pt->axis);
    }
    const int has_verts =
        pt->kind == RF_SHAPE_HULL || pt->kind == RF_SHAPE_MESH;
    if (pt->nvert < 0 || pt->ntri < 0 ||
        (!has_verts && (pt->nvert != 0 || pt->ntri != 0))) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: %s: body %d part %d: nvert = %d, ntri = %d (>= "
                        "0, and 0 unless a hull or a mesh)",
                        fn, path, id, k, pt->nvert, pt->ntri);
    }
    if ((pt->nvert > 0 && pt->verts == NULL) ||
        (pt->ntri > 0 && pt->tris == NULL)) {
        return rf__fail(err, RF_ERR_NULL, "%s: %s: body %d part %d: %s is NULL",
                        fn, path, id, k,
                        pt->nvert > 0 && pt->verts == NULL ? "verts" : "tris");
    }
    if (!all_f32_ok(pt->size, 4) || !all_f32_ok(pt->pos, 3) ||
        !all_f32_ok(pt->quat, 4) ||
        !all_f32_ok(pt->verts, (size_t)3 * pt->nvert)) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: %s: body %d part %d: a size, position, "
                        "quaternion or vertex is not finite as a float",
                        fn, path, id, k);
    }
    for (size_t t = 0; t < (size_t)3 * pt->ntri; ++t) {
        if (pt->tris[t] < 0 || pt->tris[t] >= pt->nvert) {
            return rf__fail(err, RF_ERR_INVALID,
                            "%s: %s: body %d part %d: tris[%zu] = %d, not a "
                            "vertex (0 .. %d)",
                            fn, path, id, k, t, pt->tris[t], pt->nvert - 1);
        }
    }
    return RF_OK;
}

static void put_part(bytes *b, const rf_record_part *pt)
{
    put_u32(b, (uint32_t)pt->kind);
    put_u32(b, (uint32_t)pt->axis);
    put_f32s(b, pt->size, 4);
    put_f32s(b, pt->pos, 3);
    put_f32s(b, pt->quat, 4);
    put_u32(b, (uint32_t)pt->nvert);
    put_f32s(b, pt->verts, (size_t)3 * pt->nvert);
    put_u32(b, (uint32_t)pt->ntri);
    for (size_t t = 0; t < (size_t)3 * pt->ntri; ++t) {
        put_u32(b, (uint32_t)pt->tris[t]);
    }
}

/* The arguments of rf_record_add_body, checked; *slot: id's slot. */
static rf_status check_body(rf_record_writer *w, int id, int is_static,
                            int nparts, const rf_record_part *parts,
                            id_slot **slot, rf_error *err)
{
    static const char fn[] = "rf_record_add_body";
    if (nparts > 0 && parts == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: %s: body %d: parts is NULL", fn,
                        w->path, id);
    }
    *slot = id >= 0 ? map_find(&w->ids, id) : NULL;
    const int bad_static = is_static != 0 && is_static != 1;
    if (id < 0 || (*slot != NULL && (*slot)->value) || nparts < 1 ||
        bad_static) {
        return rf__fail(err, RF_ERR_INVALID, "%s: %s: body %d: %s", fn, w->path,
                        id,
                        id < 0       ? "a negative id"
                        : nparts < 1 ? "nparts < 1"
                        : bad_static ? "is_static not 0 or 1"
                                     : "already declared and not removed");
    }
    for (int k = 0; k < nparts; ++k) {
        rf_status st = check_part(w, id, k, &parts[k], err);
        if (st != RF_OK) {
            return st;
        }
    }
    return RF_OK;
}

rf_status rf_record_add_body(rf_record_writer *w, int id, const char *name,
                             int is_static, int nparts,
                             const rf_record_part *parts, rf_error *err)
{
    static const char fn[] = "rf_record_add_body";
    id_slot *slot = NULL;
    rf_status st = writer_usable(w, fn, err);
    if (st == RF_OK) {
        st = check_body(w, id, is_static, nparts, parts, &slot, err);
    }
    if (st != RF_OK) {
        return st;
    }
    size_t nlen = name != NULL ? strlen(name) : 0;
    nlen = nlen > NAME_MAX_LEN ? NAME_MAX_LEN : nlen;
    uint64_t payload = 16 + (uint64_t)nlen;
    for (int k = 0; k < nparts; ++k) {
        payload += PART_FIXED +
                   12 * ((uint64_t)parts[k].nvert + (uint64_t)parts[k].ntri);
    }
    st = reserve_chunk(w, fn, payload, err);
    if (st != RF_OK) {
        return st;
    }
    if (slot == NULL && (slot = map_add(&w->ids, id)) == NULL) {
        return rf__fail(err, RF_ERR_NOMEM, "%s: %s: out of memory", fn,
                        w->path);
    }
    put_chunk(&w->buf, TAG_BODY, payload);
    put_i32(&w->buf, id);
    put_u32(&w->buf, (uint32_t)is_static);
    put_u32(&w->buf, (uint32_t)nlen);
    put_raw(&w->buf, name, nlen);
    put_u32(&w->buf, (uint32_t)nparts);
    for (int k = 0; k < nparts; ++k) {
        put_part(&w->buf, &parts[k]);
    }
    st = flush_buf(w, fn, 0, err);
    if (st != RF_OK) {
        return st;
    }
    slot->value = 1;
    rf__ok(err);
    return RF_OK;
}

rf_status rf_record_remove_body(rf_record_writer *w, int id, rf_error *err)
{
    static const char fn[] = "rf_record_remove_body";
    rf_status st = writer_usable(w, fn, err);
    if (st != RF_OK) {
        return st;
    }
    id_slot *slot = id >= 0 ? map_find(&w->ids, id) : NULL;
    if (slot == NULL || !slot->value) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: %s: body %d is not declared (or already "
                        "removed)",
                        fn, w->path, id);
    }
    st = reserve_chunk(w, fn, 4, err);
    if (st != RF_OK) {
        return st;
    }
    put_chunk(&w->buf, TAG_GONE, 4);
    put_i32(&w->buf, id);
    st = flush_buf(w, fn, 0, err);
    if (st != RF_OK) {
        return st;
    }
    slot->value = 0;
    rf__ok(err);
    return RF_OK;
}

/* The bodies of a frame: each declared and live, listed once, its
   transform finite as floats. */
static rf_status check_frame_bodies(rf_record_writer *w, int n, const int *ids,
                                    const double *pos, const double *quat,
                                    rf_error *err)
{
    static const char fn[] = "rf_record_frame";
    map_next_stamp(&w->ids);
    for (int i = 0; i < n; ++i) {
        id_slot *s = ids[i] >= 0 ? map_find(&w->ids, ids[i]) : NULL;
        if (s == NULL || !s->value) {
            return rf__fail(err, RF_ERR_INVALID,
                            "%s: %s: ids[%d] = %d is not a declared body", fn,
                            w->path, i, ids[i]);
        }
        if (s->stamp == w->ids.stamp) {
            return rf__fail(err, RF_ERR_INVALID,
                            "%s: %s: ids[%d] = %d is listed twice", fn, w->path,
                            i, ids[i]);
        }
        s->stamp = w->ids.stamp;
        if (!all_f32_ok(pos + (size_t)3 * i, 3) ||
            !all_f32_ok(quat + (size_t)4 * i, 4)) {
            return rf__fail(err, RF_ERR_INVALID,
                            "%s: %s: body %d's transform is not finite as a "
                            "float",
                            fn, w->path, ids[i]);
        }
    }
    return RF_OK;
}

static int contact_id_ok(const rf_record_writer *w, int id)
{
    const id_slot *s = id >= 0 ? map_find(&w->ids, id) : NULL;
    return id == -1 || (s != NULL && s->value);
}

static rf_status check_contacts(const rf_record_writer *w, int ncontact,
                                const rf_record_contact *c, rf_error *err)
{
    static const char fn[] = "rf_record_frame";
    for (int i = 0; i < ncontact; ++i) {
        if (!contact_id_ok(w, c[i].body_a) || !contact_id_ok(w, c[i].body_b)) {
            return rf__fail(err, RF_ERR_INVALID,
                            "%s: %s: contacts[%d]: bodies %d, %d (each -1 or "
                            "a declared body)",
                            fn, w->path, i, c[i].body_a, c[i].body_b);
        }
        float s = c[i].normal_force - c[i].normal_force;
        for (int k = 0; k < 3; ++k) {
            s += c[i].pos[k] - c[i].pos[k];
            s += c[i].normal[k] - c[i].normal[k];
            s += c[i].rolling_torque[k] - c[i].rolling_torque[k];
        }
        if (s != 0.0f) {
            return rf__fail(err, RF_ERR_INVALID,
                            "%s: %s: contacts[%d]: a value is not finite", fn,
                            w->path, i);
        }
    }
    return RF_OK;
}

/* The scalar arguments and pointers of rf_record_frame. */
static rf_status check_frame_args(const rf_record_writer *w, double t, int n,
                                  const int *ids, const double *pos,
                                  const double *quat, int ncontact,
                                  const rf_record_contact *contacts, int force,
                                  rf_error *err)
{
    static const char fn[] = "rf_record_frame";
    const int nc = w->contacts ? ncontact : 0;
    if ((n > 0 && (ids == NULL || pos == NULL || quat == NULL)) ||
        (nc > 0 && contacts == NULL)) {
        return rf__fail(err, RF_ERR_NULL, "%s: %s: %s is NULL", fn, w->path,
                        nc > 0 && contacts == NULL ? "contacts"
                        : ids == NULL              ? "ids"
                        : pos == NULL              ? "pos"
                                                   : "quat");
    }
    if (!(t - t == 0.0) || (w->have_t && t < w->last_t)) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: %s: t = %.17g (finite, not below the previous "
                        "frame's %.17g)",
                        fn, w->path, t, w->have_t ? w->last_t : 0.0);
    }
    if (n < 0 || nc < 0 || (force != 0 && force != 1)) {
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: %s: n = %d, ncontact = %d (both >= 0), force = "
                        "%d (0 or 1)",
                        fn, w->path, n, ncontact, force);
    }
    return RF_OK;
}

static void put_frame(bytes *b, double t, int n, const int *ids,
                      const double *pos, const double *quat)
{
    put_chunk(b, TAG_FRAM, FRAME_FIXED + (uint64_t)FRAME_ENTRY * n);
    put_f64(b, t);
    put_u32(b, (uint32_t)n);
    for (int i = 0; i < n; ++i) {
        put_i32(b, ids[i]);
        put_f32s(b, pos + (size_t)3 * i, 3);
        put_f32s(b, quat + (size_t)4 * i, 4);
    }
}

static void put_contacts(bytes *b, int nc, const rf_record_contact *c)
{
    put_chunk(b, TAG_CONT, 4 + (uint64_t)CONTACT_ENTRY * nc);
    put_u32(b, (uint32_t)nc);
    for (int i = 0; i < nc; ++i) {
        put_i32(b, c[i].body_a);
        put_i32(b, c[i].body_b);
        for (int k = 0; k < 3; ++k) {
            put_f32(b, c[i].pos[k]);
        }
        for (int k = 0; k < 3; ++k) {
            put_f32(b, c[i].normal[k]);
        }
        put_f32(b, c[i].normal_force);
        for (int k = 0; k < 3; ++k) {
            put_f32(b, c[i].rolling_torque[k]);
        }
    }
}

rf_status rf_record_frame(rf_record_writer *w, double t, int n, const int *ids,
                          const double *pos, const double *quat, int ncontact,
                          const rf_record_contact *contacts, int force,
                          int *written, rf_error *err)
{
    static const char fn[] = "rf_record_frame";
    rf_status st = writer_usable(w, fn, err);
    if (st == RF_OK) {
        st = check_frame_args(w, t, n, ids, pos, quat, ncontact, contacts,
                              force, err);
    }
    const int nc = w != NULL && w->contacts ? ncontact : 0;
    if (st == RF_OK) {
        st = check_frame_bodies(w, n, ids, pos, quat, err);
    }
    if (st == RF_OK) {
        st = check_contacts(w, nc, contacts, err);
    }
    if (st != RF_OK) {
        return st;
    }
    const int due = w->nwritten == 0 || force ||
                    t >= w->last_wt + w->interval * (1.0 - 1e-9);
    if (due) {
        const uint64_t frame = FRAME_FIXED + (uint64_t)FRAME_ENTRY * n;
        const uint64_t cont = 4 + (uint64_t)CONTACT_ENTRY * nc;
        const uint64_t size[2] = {frame, cont};
        st = reserve_chunks(w, fn, size, w->contacts ? 2 : 1, err);
        if (st != RF_OK) {
            return st;
        }
        put_frame(&w->buf, t, n, ids, pos, quat);
        if (w->contacts) {
            put_contacts(&w->buf, nc, contacts);
        }
        st = flush_buf(w, fn, 1, err);
        if (st != RF_OK) {
            return st;
        }
        w->nwritten++;
        w->last_wt = t;
    }
    w->have_t = 1;
    w->last_t = t;
    if (written != NULL) {
        *written = due;
    }
    rf__ok(err);
    return RF_OK;
}

rf_status rf_record_close(rf_record_writer *w, rf_error *err)
{
    static const char fn[] = "rf_record_close";
    if (w == NULL) {
        rf__ok(err);
        return RF_OK;
    }
    rf_status st = writer_usable(w, fn, err);
    if (st == RF_OK) {
        st = reserve_chunk(w, fn, 0, err);
    }
    if (st == RF_OK) {
        put_chunk(&w->buf, TAG_END, 0);
        st = flush_buf(w, fn, 1, err);
    }
    errno = 0;
    if (fclose(w->f) != 0 && st == RF_OK) {
        st = rf__fail(err, RF_ERR_IO, "%s: %s: close failed: %s", fn, w->path,
                      errno ? strerror(errno) : "unknown error");
    }
    writer_free(w);
    if (st == RF_OK) {
        rf__ok(err);
    }
    return st;
}

/* ------------------------------------------------------------------ */
/* Reading                                                             */
/* ------------------------------------------------------------------ */

typedef struct reader {
    FILE *f;
    const char *path;
    rf_error *err;
    uint64_t off;       /* offset of the next byte in the file */
    unsigned char *buf; /* the current chunk's payload */
    size_t cap;
    rf_recording *r;
    int cap_body, cap_frame;
    id_map ids;      /* value: index of the live body with the id, or -1 */
    int pending;     /* the frame whose CONT is due, or -1 */
    uint64_t chunk;  /* offset of the chunk being parsed */
    const char *tag; /* its name, for messages */
    int ends_whole;  /* the file's last bytes are an END chunk: a chunk
                        that runs past the end has a corrupt length */
} reader;

/* RF_ERR_FORMAT with the chunk's offset and tag. */
static rf_status malformed(reader *d, const char *fmt, ...)
{
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return rf__fail(d->err, RF_ERR_FORMAT,
                    "rf_recording_read: %s: offset %llu: %s chunk: %s", d->path,
                    (unsigned long long)d->chunk, d->tag, what);
}

static rf_status read_error(reader *d)
{
    return rf__fail(d->err, RF_ERR_IO, "rf_recording_read: %s: read error: %s",
                    d->path, errno ? strerror(errno) : "unknown error");
}

static rf_status out_of_memory(reader *d)
{
    return rf__fail(d->err, RF_ERR_NOMEM,
                    "rf_recording_read: %s: out of memory", d->path);
}

/* n bytes into dst; *whole = 0 when the file ends first. */
static rf_status read_exact(reader *d, void *dst, size_t n, int *whole)
{
    errno = 0;
    const size_t got = fread(dst, 1, n, d->f);
    d->off += got;
    *whole = got == n;
    if (got < n && ferror(d->f)) {
        return read_error(d);
    }
    return RF_OK;
}

/* A payload of n bytes into d->buf, grown as the bytes arrive (so a
   corrupt length costs no more memory than the file holds). */
static rf_status read_payload(reader *d, size_t n, int *whole)
{
    size_t have = 0;
    *whole = 1;
    while (have < n && *whole) {
        size_t piece = n - have < READ_PIECE ? n - have : READ_PIECE;
        if (have + piece > d->cap) {
            size_t cap = d->cap > 0 ? d->cap : 4096;
            while (cap < have + piece) {
                cap *= 2;
            }
            unsigned char *q = realloc(d->buf, cap);
            if (q == NULL) {
                return out_of_memory(d);
            }
            d->buf = q;
            d->cap = cap;
        }
        rf_status st = read_exact(d, d->buf + have, piece, whole);
        if (st != RF_OK) {
            return st;
        }
        have += piece;
    }
    return RF_OK;
}

static rf_status skip_payload(reader *d, uint32_t n, int *whole)
{
    unsigned char tmp[SKIP_PIECE];
    *whole = 1;
    while (n > 0 && *whole) {
        const size_t piece = n < SKIP_PIECE ? n : SKIP_PIECE;
        rf_status st = read_exact(d, tmp, piece, whole);
        if (st != RF_OK) {
            return st;
        }
        n -= (uint32_t)piece;
    }
    return RF_OK;
}

static rf_status read_header(reader *d)
{
    unsigned char h[HEADER_SIZE];
    int whole;
    rf_status st = read_exact(d, h, HEADER_SIZE, &whole);
    if (st != RF_OK) {
        return st;
    }
    if (!whole || memcmp(h, MAGIC, 8) != 0) {
        return rf__fail(d->err, RF_ERR_FORMAT,
                        "rf_recording_read: %s: not a recording (%s)", d->path,
                        whole ? "no RFRECORD magic"
                              : "shorter than the header");
    }
    const uint32_t version = le32(h + 8), flags = le32(h + 12);
    if (version == 0 || version > RF_RECORD_VERSION) {
        return rf__fail(d->err, RF_ERR_FORMAT,
                        "rf_recording_read: %s: format version %lu (this "
                        "reader reads 1 to %d)",
                        d->path, (unsigned long)version, RF_RECORD_VERSION);
    }
    cursor c = {h + 16, 16};
    rf_recording *r = d->r;
    get_f64(&c, &r->step);
    get_f64(&c, &r->frame_interval);
    if (!(r->step >= 0.0 && r->step - r->step == 0.0) ||
        !(r->frame_interval >= 0.0 &&
          r->frame_interval - r->frame_interval == 0.0)) {
        return rf__fail(d->err, RF_ERR_FORMAT,
                        "rf_recording_read: %s: header: step %g, "
                        "frame_interval %g (finite, >= 0)",
                        d->path, r->step, r->frame_interval);
    }
    r->version = (int)version;
    r->has_contacts = (int)(flags & 1u);
    return RF_OK;
}

static void free_parts(rf_record_part *parts, int nparts)
{
    for (int k = 0; parts != NULL && k < nparts; ++k) {
        free(parts[k].verts);
        free(parts[k].tris);
    }
    free(parts);
}

/* n floats from the payload as doubles (a NULL array when n is 0). */
static rf_status get_doubles(reader *d, cursor *c, size_t n, double **out)
{
    *out = NULL;
    if (n == 0) {
        return RF_OK;
    }
    if ((*out = malloc(n * sizeof(double))) == NULL) {
        return out_of_memory(d);
    }
    for (size_t k = 0; k < n; ++k) {
        float x = 0.0f;
        get_f32(c, &x); /* the caller checked the length */
        (*out)[k] = x;
    }
    return RF_OK;
}

/* A part's vertices and triangles. */
static rf_status parse_mesh(reader *d, cursor *c, int k, rf_record_part *pt)
{
    uint32_t nv, nt;
    if (!get_u32(c, &nv) || nv > c->left / 12) {
        return malformed(d, "part %d: vertex count beyond the chunk", k);
    }
    pt->nvert = (int)nv;
    rf_status st = get_doubles(d, c, (size_t)3 * nv, &pt->verts);
    if (st != RF_OK) {
        return st;
    }
    if (!get_u32(c, &nt) || nt > c->left / 12) {
        return malformed(d, "part %d: triangle count beyond the chunk", k);
    }
    if (nt > 0 && (pt->tris = malloc((size_t)nt * 3 * sizeof(int))) == NULL) {
        return out_of_memory(d);
    }
    pt->ntri = (int)nt;
    for (size_t t = 0; t < (size_t)3 * nt; ++t) {
        uint32_t v = 0;
        get_u32(c, &v);
        if (v >= nv) {
            return malformed(d, "part %d: triangle index %lu of %lu vertices",
                             k, (unsigned long)v, (unsigned long)nv);
        }
        pt->tris[t] = (int)v;
    }
    return RF_OK;
}

static rf_status parse_part(reader *d, cursor *c, int k, rf_record_part *pt)
{
    uint32_t kind, axis;
    float v[11];
    if (!get_u32(c, &kind) || !get_u32(c, &axis) || !get_f32s(c, v, 11)) {
        return malformed(d, "part %d cut short", k);
    }
    if (kind < RF_SHAPE_SPHERE || kind > RF_SHAPE_OTHER || axis > 2) {
        return malformed(d, "part %d: kind %lu, axis %lu", k,
                         (unsigned long)kind, (unsigned long)axis);
    }
    pt->kind = (rf_shape_kind)kind;
    pt->axis = (int)axis;
    for (int j = 0; j < 4; ++j) {
        pt->size[j] = v[j];
        pt->quat[j] = v[7 + j];
    }
    for (int j = 0; j < 3; ++j) {
        pt->pos[j] = v[4 + j];
    }
    return parse_mesh(d, c, k, pt);
}

/* A body's id, flags and name into b; the parts follow. */
static rf_status parse_body_head(reader *d, cursor *c, rf_record_body *b)
{
    uint32_t flags, nlen;
    if (!get_i32(c, &b->id) || !get_u32(c, &flags) || !get_u32(c, &nlen) ||
        nlen > c->left) {
        return malformed(d, "cut short");
    }
    const id_slot *s = b->id >= 0 ? map_find(&d->ids, b->id) : NULL;
    if (b->id < 0 || (s != NULL && s->value >= 0)) {
        return malformed(d, "body id %d (%s)", b->id,
                         b->id < 0 ? "negative" : "already live");
    }
    const size_t keep = nlen > NAME_MAX_LEN ? NAME_MAX_LEN : nlen;
    memcpy(b->name, c->p, keep);
    b->name[keep] = '\0';
    c->p += nlen;
    c->left -= nlen;
    b->is_static = (int)(flags & 1u);
    b->first_frame = -1;
    return RF_OK;
}

/* Appends b to the recording and makes its id live. */
static rf_status add_body(reader *d, const rf_record_body *b)
{
    rf_recording *r = d->r;
    id_slot *s = map_find(&d->ids, b->id);
    if (s == NULL && (s = map_add(&d->ids, b->id)) == NULL) {
        return out_of_memory(d);
    }
    if (r->nbody == INT32_MAX || !rf__grow((void **)&r->bodies, &d->cap_body,
                                           r->nbody + 1, sizeof *r->bodies)) {
        return out_of_memory(d);
    }
    s->value = r->nbody;
    r->bodies[r->nbody++] = *b;
    return RF_OK;
}

static rf_status parse_body(reader *d, cursor *c)
{
    rf_record_body b;
    memset(&b, 0, sizeof b);
    uint32_t np = 0;
    rf_status st = parse_body_head(d, c, &b);
    if (st == RF_OK &&
        (!get_u32(c, &np) || np < 1 || np > c->left / PART_FIXED)) {
        st = malformed(d, "body %d: part count not 1 .. what the chunk holds",
                       b.id);
    }
    if (st == RF_OK && (b.parts = calloc(np, sizeof *b.parts)) == NULL) {
        st = out_of_memory(d);
    }
    for (uint32_t k = 0; st == RF_OK && k < np; ++k) {
        b.nparts = (int)k + 1;
        st = parse_part(d, c, (int)k, &b.parts[k]);
    }
    if (st == RF_OK) {
        st = add_body(d, &b);
    }
    if (st != RF_OK) {
        free_parts(b.parts, b.nparts);
    }
    return st;
}

static rf_status parse_gone(reader *d, cursor *c)
{
    int id;
    if (!get_i32(c, &id)) {
        return malformed(d, "cut short");
    }
    id_slot *s = id >= 0 ? map_find(&d->ids, id) : NULL;
    if (s == NULL || s->value < 0) {
        return malformed(d, "body %d is not live", id);
    }
    s->value = -1;
    return RF_OK;
}

/* One body of a frame: live, listed once; sets its first_frame. */
static rf_status frame_body(reader *d, int id, int frame)
{
    id_slot *s = id >= 0 ? map_find(&d->ids, id) : NULL;
    if (s == NULL || s->value < 0) {
        return malformed(d, "body %d is not live", id);
    }
    if (s->stamp == d->ids.stamp) {
        return malformed(d, "body %d is listed twice", id);
    }
    s->stamp = d->ids.stamp;
    rf_record_body *b = &d->r->bodies[s->value];
    if (b->first_frame < 0) {
        b->first_frame = frame;
    }
    return RF_OK;
}

static rf_status parse_frame(reader *d, cursor *c)
{
    rf_recording *r = d->r;
    double t;
    uint32_t n;
    if (!get_f64(c, &t) || !get_u32(c, &n) || n > c->left / FRAME_ENTRY) {
        return malformed(d, "body count beyond the chunk");
    }
    const double prev = r->nframe > 0 ? r->frames[r->nframe - 1].time : t;
    if (!(t - t == 0.0) || t < prev) {
        return malformed(d, "time %.17g (finite, not below %.17g)", t, prev);
    }
    if (r->nframe == INT32_MAX || !rf__grow((void **)&r->frames, &d->cap_frame,
                                            r->nframe + 1, sizeof *r->frames)) {
        return out_of_memory(d);
    }
    rf_record_frame_data *fr = &r->frames[r->nframe];
    memset(fr, 0, sizeof *fr);
    fr->time = t;
    /* one block: ids, then pos, then quat (all 4-byte types) */
    if (n > 0 && (fr->ids = malloc((size_t)n * FRAME_ENTRY)) == NULL) {
        return out_of_memory(d);
    }
    if (n > 0) {
        fr->pos = (float *)(void *)(fr->ids + n);
        fr->quat = fr->pos + (size_t)3 * n;
    }
    fr->n = (int)n;
    r->nframe++; /* owned by r from here (rf_recording_free) */
    map_next_stamp(&d->ids);
    for (uint32_t i = 0; i < n; ++i) {
        get_i32(c, &fr->ids[i]);
        get_f32s(c, fr->pos + (size_t)3 * i, 3);
        get_f32s(c, fr->quat + (size_t)4 * i, 4);
        rf_status st = frame_body(d, fr->ids[i], r->nframe - 1);
        if (st != RF_OK) {
            return st;
        }
    }
    d->pending = r->has_contacts ? r->nframe - 1 : -1;
    return RF_OK;
}

static int contact_body_ok(const reader *d, int id)
{
    const id_slot *s = id >= 0 ? map_find(&d->ids, id) : NULL;
    return id == -1 || (s != NULL && s->value >= 0);
}

static rf_status parse_contacts(reader *d, cursor *c)
{
    uint32_t n;
    if (!d->r->has_contacts || d->pending < 0) {
        return malformed(d, "%s",
                         d->r->has_contacts ? "not right after a FRAM chunk"
                                            : "the header says no contacts");
    }
    if (!get_u32(c, &n) || n > c->left / CONTACT_ENTRY) {
        return malformed(d, "contact count beyond the chunk");
    }
    rf_record_frame_data *fr = &d->r->frames[d->pending];
    if (n > 0 &&
        (fr->contacts = malloc((size_t)n * sizeof *fr->contacts)) == NULL) {
        return out_of_memory(d);
    }
    fr->ncontact = (int)n;
    for (uint32_t i = 0; i < n; ++i) {
        rf_record_contact *k = &fr->contacts[i];
        get_i32(c, &k->body_a);
        get_i32(c, &k->body_b);
        get_f32s(c, k->pos, 3);
        get_f32s(c, k->normal, 3);
        get_f32(c, &k->normal_force);
        get_f32s(c, k->rolling_torque, 3);
        if (!contact_body_ok(d, k->body_a) || !contact_body_ok(d, k->body_b)) {
            return malformed(d, "contact %lu: bodies %d, %d (-1 or live)",
                             (unsigned long)i, k->body_a, k->body_b);
        }
    }
    d->pending = -1;
    return RF_OK;
}

enum { CH_UNKNOWN, CH_BODY, CH_GONE, CH_FRAM, CH_CONT, CH_END };

static int chunk_kind(const unsigned char *tag, const char **name)
{
    static const struct {
        const char *tag;
        int kind;
    } known[] = {{TAG_BODY, CH_BODY},
                 {TAG_GONE, CH_GONE},
                 {TAG_FRAM, CH_FRAM},
                 {TAG_CONT, CH_CONT},
                 {TAG_END, CH_END}};
    static const char *const names[] = {"?",    "BODY", "GONE",
                                        "FRAM", "CONT", "END"};
    for (size_t k = 0; k < sizeof known / sizeof known[0]; ++k) {
        if (memcmp(tag, known[k].tag, 4) == 0) {
            *name = names[known[k].kind];
            return known[k].kind;
        }
    }
    *name = names[0];
    return CH_UNKNOWN;
}

/* A whole chunk of a known kind. */
static rf_status parse_chunk(reader *d, int kind, cursor *c)
{
    if (kind != CH_CONT && d->pending >= 0) {
        return malformed(d, "the frame before has no CONT chunk");
    }
    switch (kind) {
    case CH_BODY: return parse_body(d, c);
    case CH_GONE: return parse_gone(d, c);
    case CH_FRAM: return parse_frame(d, c);
    case CH_CONT: return parse_contacts(d, c);
    default: d->r->complete = 1; return RF_OK;
    }
}

/* The chunks up to END, or up to the last whole one. */
static rf_status read_chunks(reader *d)
{
    while (!d->r->complete) {
        unsigned char h[CHUNK_HEADER];
        int whole;
        d->chunk = d->off;
        rf_status st = read_exact(d, h, CHUNK_HEADER, &whole);
        if (st != RF_OK || !whole) {
            return st;
        }
        const uint32_t len = le32(h + 4);
        const int kind = chunk_kind(h, &d->tag);
        if (kind == CH_UNKNOWN) {
            st = skip_payload(d, len, &whole);
        } else {
            st = read_payload(d, len, &whole);
        }
        if (st == RF_OK && !whole && d->ends_whole) {
            /* not a recording cut short: it ends with its END chunk */
            return malformed(d,
                             "its length %lu runs past the end of a "
                             "recording that ends whole: the length is corrupt",
                             (unsigned long)len);
        }
        if (st != RF_OK || !whole) {
            return st;
        }
        if (kind != CH_UNKNOWN) {
            cursor c = {d->buf, len};
            st = parse_chunk(d, kind, &c);
            if (st != RF_OK) {
                return st;
            }
        }
    }
    return RF_OK;
}

/* A recording cut short between a frame and its contacts: that frame was
   not whole, so it goes (with the first_frame marks it set). */
static void drop_pending(reader *d)
{
    rf_recording *r = d->r;
    if (d->pending < 0) {
        return;
    }
    rf_record_frame_data *fr = &r->frames[--r->nframe];
    free(fr->ids);
    free(fr->contacts);
    for (int i = 0; i < r->nbody; ++i) {
        if (r->bodies[i].first_frame == r->nframe) {
            r->bodies[i].first_frame = -1;
        }
    }
    d->pending = -1;
}

/* Whether f's last CHUNK_HEADER bytes are an END chunk (tag, length 0);
   f is left at its start. */
static int ends_with_end(FILE *f)
{
    unsigned char h[CHUNK_HEADER];
    int yes = fseek(f, -(long)CHUNK_HEADER, SEEK_END) == 0 &&
              fread(h, 1, CHUNK_HEADER, f) == CHUNK_HEADER &&
              memcmp(h, TAG_END, 4) == 0 && le32(h + 4) == 0;
    rewind(f);
    return yes;
}

rf_status rf_recording_read(const char *path, rf_recording **out, rf_error *err)
{
    if (path == NULL || out == NULL) {
        return rf__fail(err, RF_ERR_NULL, "rf_recording_read: %s is NULL",
                        path == NULL ? "path" : "out");
    }
    reader d;
    memset(&d, 0, sizeof d);
    char shown[RF__SHOWN_PATH];
    rf__shown_path(path, shown);
    d.path = shown;
    d.err = err;
    d.pending = -1;
    d.r = calloc(1, sizeof *d.r);
    if (d.r == NULL) {
        return out_of_memory(&d);
    }
    errno = 0;
    d.f = fopen(path, "rb");
    rf_status st = RF_OK;
    if (d.f == NULL) {
        st = rf__fail(err, RF_ERR_IO, "rf_recording_read: cannot open %s: %s",
                      shown, errno ? strerror(errno) : "unknown error");
    }
    if (st == RF_OK) {
        d.ends_whole = ends_with_end(d.f);
        st = read_header(&d);
    }
    if (st == RF_OK) {
        st = read_chunks(&d);
    }
    if (d.f != NULL) {
        fclose(d.f);
    }
    free(d.buf);
    free(d.ids.slot);
    if (st != RF_OK) {
        rf_recording_free(d.r);
        return st;
    }
    drop_pending(&d);
    *out = d.r;
    rf__ok(err);
    return RF_OK;
}

void rf_recording_free(rf_recording *r)
{
    if (r == NULL) {
        return;
    }
    for (int i = 0; i < r->nbody; ++i) {
        free_parts(r->bodies[i].parts, r->bodies[i].nparts);
    }
    for (int i = 0; i < r->nframe; ++i) {
        free(r->frames[i].ids); /* pos and quat share its block */
        free(r->frames[i].contacts);
    }
    free(r->bodies);
    free(r->frames);
    free(r);
}
