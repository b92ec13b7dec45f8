/*
 * Recordings (rollfric/record.h, docs/recording.md): every shape kind and
 * frames with and without contacts read back as the float32 of what was
 * written; the bytes sit at the documented offsets, little-endian; the
 * decimation writes every 4th frame of a 240 Hz run at 1/60 s plus the
 * forced last one; removed and re-declared bodies get their first_frame; a
 * file cut at any byte reads as far as its last whole frame; unknown chunks
 * are skipped; wrong magic, later versions and malformed chunks are
 * refused; every bad argument gets its documented status; a full disk
 * fails the writer cleanly and leaves a file that still plays.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, setrlimit, SIGXFSZ */
#include "rollfric/record.h"
#include "test_util.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[256];

static void tmp_path(char *buf, const char *name)
{
    snprintf(buf, 512, "%s/%s", tmpdir, name);
}

/* The whole file (malloc'd) and its size; NULL on failure. */
static unsigned char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    size_t cap = 4096, n = 0, got;
    unsigned char *b = malloc(cap);
    while (b != NULL && (got = fread(b + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            unsigned char *q = realloc(b, 2 * cap);
            if (q == NULL) {
                free(b);
            }
            b = q;
            cap *= 2;
        }
    }
    fclose(f);
    *size = n;
    return b;
}

static int spit(const char *path, const unsigned char *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        return 1;
    }
    int bad = fwrite(b, 1, n, f) != n;
    bad |= fclose(f) != 0;
    return bad;
}

static uint32_t rd32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static void wr32(unsigned char *p, uint32_t v)
{
    for (int k = 0; k < 4; ++k) {
        p[k] = (unsigned char)(v >> (8 * k));
    }
}

/* The documented little-endian bytes of a float / double. */
static int is_f32(const unsigned char *p, float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return rd32(p) == u;
}

static int is_f64(const unsigned char *p, double x)
{
    uint64_t u;
    memcpy(&u, &x, 8);
    return rd32(p) == (uint32_t)u && rd32(p + 4) == (uint32_t)(u >> 32);
}

/* ---- the reference scene ---- */

#define NBODY 11
#define NFRAME 3

static const double HULL_V[15] = {0.1, 0.1, 0.0,  -0.1, 0.1, 0.0, -0.1, -0.1,
                                  0.0, 0.1, -0.1, 0.0,  0.0, 0.0, 0.3};
static const double MESH_V[12] = {-1.1, -1.1, 0.0, 1.1,  -1.1, 0.0,
                                  1.1,  1.1,  0.3, -1.1, 1.1,  0.0};
static const int MESH_T[6] = {0, 1, 2, 0, 2, 3};

typedef struct scene {
    int id[NBODY];
    const char *name[NBODY];
    int is_static[NBODY];
    int nparts[NBODY];
    rf_record_part part[NBODY][2];
    /* frames: which bodies (indices), their transforms, the contacts */
    int n[NFRAME];
    int ids[NFRAME][NBODY];
    double pos[NFRAME][3 * NBODY], quat[NFRAME][4 * NBODY];
    int nc[NFRAME];
    rf_record_contact con[NFRAME][3];
} scene;

static void set_part(rf_record_part *p, rf_shape_kind kind, int axis, double s0,
                     double s1, double s2, double s3)
{
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->axis = axis;
    p->size[0] = s0;
    p->size[1] = s1;
    p->size[2] = s2;
    p->size[3] = s3;
    p->quat[3] = 1.0;
}

/* One body of each kind, a compound of two parts at offsets, a large id. */
static void make_bodies(scene *s)
{
    static const int ids[NBODY] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 123456789};
    static const char *names[NBODY] = {"ground", "ball",     NULL,   "cyl",
                                       "",       "cone",     "hull", "mesh",
                                       "other",  "compound", "far"};
    for (int b = 0; b < NBODY; ++b) {
        s->id[b] = ids[b];
        s->name[b] = names[b];
        s->is_static[b] = b == 0 || b == 7;
        s->nparts[b] = 1;
    }
    rf_record_part(*p)[2] = s->part;
    set_part(&p[0][0], RF_SHAPE_PLANE, 2, 0.0, 0.6, 0.8, -0.1);
    set_part(&p[1][0], RF_SHAPE_SPHERE, 1, 0.1, 0, 0, 0);
    set_part(&p[2][0], RF_SHAPE_BOX, 1, 0.1, 0.2, 0.3, 0);
    set_part(&p[3][0], RF_SHAPE_CYLINDER, 0, 0.15, 0.4, 0, 0);
    set_part(&p[4][0], RF_SHAPE_CAPSULE, 2, 0.05, 0.7, 0, 0);
    set_part(&p[5][0], RF_SHAPE_CONE, 1, 0.3, 0.9, 0, 0);
    set_part(&p[6][0], RF_SHAPE_HULL, 1, 0, 0, 0, 0);
    p[6][0].nvert = 5;
    p[6][0].verts = (double *)HULL_V;
    set_part(&p[7][0], RF_SHAPE_MESH, 1, 0, 0, 0, 0);
    p[7][0].nvert = 4;
    p[7][0].verts = (double *)MESH_V;
    p[7][0].ntri = 2;
    p[7][0].tris = (int *)MESH_T;
    set_part(&p[8][0], RF_SHAPE_OTHER, 1, 0.7, 0.3, 0.1, 0);
    p[8][0].pos[2] = 0.05;
    s->nparts[9] = 2;
    set_part(&p[9][0], RF_SHAPE_SPHERE, 1, 0.2, 0, 0, 0);
    p[9][0].pos[0] = 0.5;
    set_part(&p[9][1], RF_SHAPE_BOX, 1, 0.1, 0.1, 0.3, 0);
    p[9][1].pos[0] = -0.5;
    p[9][1].pos[1] = 0.1;
    p[9][1].quat[2] = sin(M_PI / 8); /* a turn of pi/4 about z */
    p[9][1].quat[3] = cos(M_PI / 8);
    set_part(&p[10][0], RF_SHAPE_SPHERE, 0, 1.0 / 3.0, 0, 0, 0);
}

/* Frame 0 lists every body but the compound, frame 1 five in another
   order, frame 2 all; 2, 0 and 3 contacts. */
static void make_frames(scene *s, rf_rng *rng)
{
    static const int order1[5] = {9, 3, 1, 10, 2};
    for (int f = 0; f < NFRAME; ++f) {
        s->n[f] = f == 1 ? 5 : f == 0 ? NBODY - 1 : NBODY;
        for (int i = 0; i < s->n[f]; ++i) {
            const int b = f == 1 ? order1[i] : (f == 0 && i >= 9 ? i + 1 : i);
            s->ids[f][i] = s->id[b];
            for (int k = 0; k < 3; ++k) {
                s->pos[f][3 * i + k] = rf_rng_range(rng, -5, 5);
            }
            double q[4], n2 = 0;
            for (int k = 0; k < 4; ++k) {
                q[k] = rf_rng_range(rng, -1, 1);
                n2 += q[k] * q[k];
            }
            for (int k = 0; k < 4; ++k) {
                s->quat[f][4 * i + k] = q[k] / sqrt(n2);
            }
        }
        s->nc[f] = f == 0 ? 2 : f == 1 ? 0 : 3;
        for (int c = 0; c < s->nc[f]; ++c) {
            rf_record_contact *k = &s->con[f][c];
            k->body_a = s->id[1 + c];
            k->body_b = c == 2 ? -1 : 0;
            for (int j = 0; j < 3; ++j) {
                k->pos[j] = (float)rf_rng_range(rng, -2, 2);
                k->normal[j] = (float)rf_rng_range(rng, -1, 1);
                k->rolling_torque[j] = (float)rf_rng_range(rng, -0.1, 0.1);
            }
            k->normal_force = (float)rf_rng_range(rng, 0, 100);
        }
    }
}

/* The scene recorded to path (step 1/240 s, every frame). */
static int write_scene(const scene *s, const char *path, int contacts)
{
    rf_record_writer *w;
    rf_error err;
    ENSURE(rf_record_open(path, 1.0 / 240, 0.0, contacts, &w, &err) == RF_OK);
    for (int b = 0; b < NBODY; ++b) {
        ENSURE(rf_record_add_body(w, s->id[b], s->name[b], s->is_static[b],
                                  s->nparts[b], s->part[b], &err) == RF_OK);
    }
    for (int f = 0; f < NFRAME; ++f) {
        int written = -1;
        ENSURE(rf_record_frame(w, 0.1 * f, s->n[f], s->ids[f], s->pos[f],
                               s->quat[f], s->nc[f], s->con[f], 0, &written,
                               &err) == RF_OK);
        ENSURE(written == 1);
    }
    ENSURE(rf_record_close(w, &err) == RF_OK);
    ENSURE(err.status == RF_OK && err.message[0] == '\0');
    return 0;
}

static int same_part(const rf_record_part *a, const rf_record_part *b)
{
    ENSURE(a->kind == b->kind && a->axis == b->axis);
    for (int k = 0; k < 4; ++k) {
        ENSURE(a->size[k] == (double)(float)b->size[k]);
        ENSURE(a->quat[k] == (double)(float)b->quat[k]);
    }
    for (int k = 0; k < 3; ++k) {
        ENSURE(a->pos[k] == (double)(float)b->pos[k]);
    }
    ENSURE(a->nvert == b->nvert && a->ntri == b->ntri);
    ENSURE((a->verts == NULL) == (b->nvert == 0));
    ENSURE((a->tris == NULL) == (b->ntri == 0));
    for (int k = 0; k < 3 * a->nvert; ++k) {
        ENSURE(a->verts[k] == (double)(float)b->verts[k]);
    }
    for (int k = 0; k < 3 * a->ntri; ++k) {
        ENSURE(a->tris[k] == b->tris[k]);
    }
    return 0;
}

/* Bodies and the first nframe frames of r equal the scene's. */
static int same_scene(const rf_recording *r, const scene *s, int contacts,
                      int nframe)
{
    ENSURE(r->nbody == NBODY && r->nframe == nframe);
    for (int b = 0; b < NBODY; ++b) {
        const rf_record_body *rb = &r->bodies[b];
        ENSURE(rb->id == s->id[b] && rb->is_static == s->is_static[b]);
        ENSURE(strcmp(rb->name, s->name[b] ? s->name[b] : "") == 0);
        ENSURE(rb->nparts == s->nparts[b]);
        for (int k = 0; k < rb->nparts; ++k) {
            ENSURE(same_part(&rb->parts[k], &s->part[b][k]) == 0);
        }
        /* the compound first appears in frame 1, the others in frame 0 */
        const int first = b == 9 ? 1 : 0;
        ENSURE(rb->first_frame == (nframe > first ? first : -1));
    }
    for (int f = 0; f < nframe; ++f) {
        const rf_record_frame_data *fr = &r->frames[f];
        ENSURE(fr->time == 0.1 * f && fr->n == s->n[f]);
        for (int i = 0; i < fr->n; ++i) {
            ENSURE(fr->ids[i] == s->ids[f][i]);
            for (int k = 0; k < 3; ++k) {
                ENSURE(fr->pos[3 * i + k] == (float)s->pos[f][3 * i + k]);
            }
            for (int k = 0; k < 4; ++k) {
                ENSURE(fr->quat[4 * i + k] == (float)s->quat[f][4 * i + k]);
            }
        }
        ENSURE(fr->ncontact == (contacts ? s->nc[f] : 0));
        ENSURE((fr->contacts == NULL) == (fr->ncontact == 0));
        for (int c = 0; c < fr->ncontact; ++c) {
            ENSURE(memcmp(&fr->contacts[c], &s->con[f][c],
                          sizeof(rf_record_contact)) == 0);
        }
    }
    return 0;
}

static scene SCENE;

/* Every shape kind, a compound and a large id, frames with contacts (2,
   0, 3 of them, one on body -1): values as the float32 of the doubles,
   header fields exact, first_frame 0 except the compound's 1. */
static int test_round_trip(void)
{
    char path[512];
    tmp_path(path, "rt.rec");
    ENSURE(write_scene(&SCENE, path, 1) == 0);
    rf_recording *r = NULL;
    rf_error err;
    ENSURE(rf_recording_read(path, &r, &err) == RF_OK);
    ENSURE(r->version == RF_RECORD_VERSION && r->has_contacts == 1);
    ENSURE(r->step == 1.0 / 240 && r->frame_interval == 0.0);
    ENSURE(r->complete == 1);
    ENSURE(same_scene(r, &SCENE, 1, NFRAME) == 0);
    ENSURE(r->bodies[9].first_frame == 1 && r->bodies[3].first_frame == 0);
    ENSURE(r->bodies[1].parts[0].size[0] == (double)0.1f);
    ENSURE(r->bodies[1].parts[0].size[0] != 0.1); /* really float32 */
    rf_recording_free(r);
    return 0;
}

/* Counts of each tag in the file's n bytes: BODY GONE FRAM CONT END
   other; 1 when the chunks do not end at n. */
static int count_chunks(const unsigned char *b, size_t n, int count[6])
{
    static const char *tags[5] = {"BODY", "GONE", "FRAM", "CONT", "END "};
    memset(count, 0, 6 * sizeof(int));
    size_t off = 32;
    while (off + 8 <= n) {
        const size_t len = rd32(b + off + 4);
        int k = 0;
        while (k < 5 && memcmp(b + off, tags[k], 4) != 0) {
            ++k;
        }
        count[k]++;
        off += 8 + len;
    }
    return off == n ? 0 : 1;
}

/* Without contacts: no CONT chunk (the ncontact given, even -1, ignored),
   frames with no contacts, the file exactly its chunks' sizes. */
static int test_no_contacts(void)
{
    char path[512];
    tmp_path(path, "nc.rec");
    ENSURE(write_scene(&SCENE, path, 0) == 0);
    rf_recording *r;
    ENSURE(rf_recording_read(path, &r, NULL) == RF_OK);
    ENSURE(r->has_contacts == 0 && r->complete == 1);
    ENSURE(same_scene(r, &SCENE, 0, NFRAME) == 0);
    rf_recording_free(r);
    size_t n;
    unsigned char *b = slurp(path, &n);
    ENSURE(b != NULL);
    int count[6];
    ENSURE(count_chunks(b, n, count) == 0);
    ENSURE(count[0] == NBODY && count[1] == 0 && count[2] == NFRAME);
    ENSURE(count[3] == 0 && count[4] == 1 && count[5] == 0);
    ENSURE(rd32(b + 12) == 0); /* flags: no contacts */
    free(b);

    /* one sphere (BODY 8 + 16 + 60), two frames of it (8 + 12 + 32
       each), END: 32 + 84 + 104 + 8 bytes */
    rf_record_writer *w;
    rf_record_part sp;
    set_part(&sp, RF_SHAPE_SPHERE, 0, 0.5, 0, 0, 0);
    ENSURE(rf_record_open(path, 0.0, 0.0, 0, &w, NULL) == RF_OK);
    ENSURE(rf_record_add_body(w, 3, NULL, 0, 1, &sp, NULL) == RF_OK);
    const int id = 3;
    const double pos[3] = {0, 0, 1}, quat[4] = {0, 0, 0, 1};
    for (int f = 0; f < 2; ++f) {
        ENSURE(rf_record_frame(w, f, 1, &id, pos, quat, -1, NULL, 0, NULL,
                               NULL) == RF_OK);
    }
    ENSURE(rf_record_close(w, NULL) == RF_OK);
    struct stat st;
    ENSURE(stat(path, &st) == 0 && st.st_size == 32 + 84 + 104 + 8);
    return 0;
}

/* The bytes at the offsets docs/recording.md gives, little-endian. */
static int test_byte_layout(void)
{
    char path[512];
    tmp_path(path, "layout.rec");
    rf_record_writer *w;
    ENSURE(rf_record_open(path, 0.5, 0.125, 1, &w, NULL) == RF_OK);
    rf_record_part sp;
    set_part(&sp, RF_SHAPE_SPHERE, 2, 0.5, 0, 0, 0);
    sp.pos[0] = 1;
    sp.pos[1] = 2;
    sp.pos[2] = 3;
    ENSURE(rf_record_add_body(w, 7, "ab", 1, 1, &sp, NULL) == RF_OK);
    const int id = 7;
    const double pos[3] = {1.5, -2, 3}, quat[4] = {0, 0, 0, 1};
    rf_record_contact c = {7, -1, {1, 2, 0}, {0, 0, 1}, 9.5f, {0.25f, 0, 0}};
    ENSURE(rf_record_frame(w, 0.25, 1, &id, pos, quat, 1, &c, 0, NULL, NULL) ==
           RF_OK);
    ENSURE(rf_record_remove_body(w, 7, NULL) == RF_OK);
    ENSURE(rf_record_close(w, NULL) == RF_OK);
    size_t n;
    unsigned char *b = slurp(path, &n);
    ENSURE(b != NULL && n == 250);
    /* header */
    ENSURE(memcmp(b, "RFRECORD", 8) == 0);
    ENSURE(b[8] == 1 && b[9] == 0 && b[10] == 0 && b[11] == 0);
    ENSURE(rd32(b + 12) == 1);
    ENSURE(b[16 + 6] == 0xE0 && b[16 + 7] == 0x3F && is_f64(b + 16, 0.5));
    ENSURE(b[24 + 6] == 0xC0 && b[24 + 7] == 0x3F && is_f64(b + 24, 0.125));
    /* BODY at 32: payload 16 + 2 + 60 */
    ENSURE(memcmp(b + 32, "BODY", 4) == 0 && rd32(b + 36) == 78);
    ENSURE(rd32(b + 40) == 7 && rd32(b + 44) == 1 && rd32(b + 48) == 2);
    ENSURE(b[52] == 'a' && b[53] == 'b' && rd32(b + 54) == 1);
    const unsigned char *p = b + 58; /* the part */
    ENSURE(rd32(p) == RF_SHAPE_SPHERE && rd32(p + 4) == 2);
    ENSURE(p[11] == 0x3F && is_f32(p + 8, 0.5f));
    ENSURE(is_f32(p + 24, 1.0f) && is_f32(p + 28, 2.0f) && is_f32(p + 32, 3));
    ENSURE(is_f32(p + 36, 0) && is_f32(p + 48, 1.0f));
    ENSURE(rd32(p + 52) == 0 && rd32(p + 56) == 0);
    /* FRAM at 118: time, n, (id, pos, quat) */
    ENSURE(memcmp(b + 118, "FRAM", 4) == 0 && rd32(b + 122) == 44);
    ENSURE(is_f64(b + 126, 0.25) && rd32(b + 134) == 1 && rd32(b + 138) == 7);
    ENSURE(rd32(b + 142) == 0x3FC00000u && rd32(b + 146) == 0xC0000000u);
    ENSURE(is_f32(b + 150, 3.0f) && is_f32(b + 166, 1.0f));
    /* CONT at 170 */
    ENSURE(memcmp(b + 170, "CONT", 4) == 0 && rd32(b + 174) == 52);
    ENSURE(rd32(b + 178) == 1 && rd32(b + 182) == 7);
    ENSURE(rd32(b + 186) == 0xFFFFFFFFu); /* -1 */
    ENSURE(is_f32(b + 190, 1.0f) && is_f32(b + 194, 2.0f));
    ENSURE(is_f32(b + 210, 1.0f)); /* normal z */
    ENSURE(rd32(b + 214) == 0x41180000u && is_f32(b + 218, 0.25f));
    /* GONE at 230, END at 242 */
    ENSURE(memcmp(b + 230, "GONE", 4) == 0 && rd32(b + 234) == 4);
    ENSURE(rd32(b + 238) == 7);
    ENSURE(memcmp(b + 242, "END ", 4) == 0 && rd32(b + 246) == 0);
    free(b);
    return 0;
}

/* A 240 Hz run at frame_interval 1/60: frames 0, 4, 8, ..., 240 and the
   forced 241 (62 frames), whether t is i / 240 or a running sum of 1/240;
   at 100 Hz every 2nd; interval 0 every call. */
static int test_decimation(void)
{
    char path[512];
    tmp_path(path, "dec.rec");
    rf_record_part sp;
    set_part(&sp, RF_SHAPE_SPHERE, 0, 0.5, 0, 0, 0);
    const int id = 0;
    const double pos[3] = {0, 0, 1}, quat[4] = {0, 0, 0, 1};
    for (int mode = 0; mode < 4; ++mode) {
        const int steps = mode < 2 ? 242 : mode == 2 ? 100 : 10;
        const double h = mode < 2 ? 1.0 / 240 : mode == 2 ? 0.01 : 0.5;
        rf_record_writer *w;
        ENSURE(rf_record_open(path, h, mode < 3 ? 1.0 / 60 : 0.0, 0, &w,
                              NULL) == RF_OK);
        ENSURE(rf_record_add_body(w, id, NULL, 0, 1, &sp, NULL) == RF_OK);
        double t = 0;
        int nwritten = 0;
        for (int i = 0; i < steps; ++i) {
            const double ti = mode == 1 ? t : i * h;
            const int force = mode < 2 && i == steps - 1;
            int written = -1;
            ENSURE(rf_record_frame(w, ti, 1, &id, pos, quat, 0, NULL, force,
                                   &written, NULL) == RF_OK);
            const int want = mode < 2    ? i % 4 == 0 || i == steps - 1
                             : mode == 2 ? i % 2 == 0
                                         : 1;
            ENSURE(written == want);
            nwritten += written;
            t += h;
        }
        ENSURE(rf_record_close(w, NULL) == RF_OK);
        rf_recording *r;
        ENSURE(rf_recording_read(path, &r, NULL) == RF_OK);
        ENSURE(r->nframe == nwritten);
        ENSURE(r->nframe == (mode < 2 ? 62 : mode == 2 ? 50 : 10));
        ENSURE(r->frame_interval == (mode < 3 ? 1.0 / 60 : 0.0));
        if (mode == 0) {
            for (int k = 0; k < 61; ++k) {
                ENSURE(r->frames[k].time == 4 * k * h);
            }
            ENSURE(r->frames[61].time == 241 * h);
        }
        rf_recording_free(r);
    }
    return 0;
}

/* Body 1 removed after frame 0 and declared again (as a box) before frame
   3, body 3 new then, body 4 never listed: five bodies in declaration
   order, first_frame 0, 0, 3, 3, -1. */
static int test_remove_add(void)
{
    char path[512];
    tmp_path(path, "ra.rec");
    rf_record_writer *w;
    rf_error err;
    rf_record_part sp, bx;
    set_part(&sp, RF_SHAPE_SPHERE, 0, 0.5, 0, 0, 0);
    set_part(&bx, RF_SHAPE_BOX, 0, 0.5, 0.25, 0.125, 0);
    const double pos[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const double quat[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    const int f0[2] = {1, 2}, f1[1] = {2}, f3[3] = {1, 3, 2}, one = 1;
    ENSURE(rf_record_open(path, 0.0, 0.0, 1, &w, NULL) == RF_OK);
    ENSURE(rf_record_add_body(w, 1, "a", 0, 1, &sp, NULL) == RF_OK);
    ENSURE(rf_record_add_body(w, 2, "b", 0, 1, &sp, NULL) == RF_OK);
    ENSURE(rf_record_frame(w, 0, 2, f0, pos, quat, 0, NULL, 0, NULL, NULL) ==
           RF_OK);
    ENSURE(rf_record_remove_body(w, 1, NULL) == RF_OK);
    ENSURE(rf_record_remove_body(w, 1, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "ra.rec") && strstr(err.message, "body 1"));
    ENSURE(rf_record_frame(w, 1, 1, &one, pos, quat, 0, NULL, 0, NULL, &err) ==
           RF_ERR_INVALID);
    rf_record_contact c = {1, 2, {0}, {0}, 0, {0}};
    ENSURE(rf_record_frame(w, 1, 1, f1, pos, quat, 1, &c, 0, NULL, &err) ==
           RF_ERR_INVALID); /* a contact on the removed body */
    ENSURE(rf_record_frame(w, 1, 1, f1, pos, quat, 0, NULL, 0, NULL, NULL) ==
           RF_OK);
    ENSURE(rf_record_frame(w, 2, 1, f1, pos, quat, 0, NULL, 0, NULL, NULL) ==
           RF_OK);
    ENSURE(rf_record_add_body(w, 2, "b2", 0, 1, &sp, &err) == RF_ERR_INVALID);
    ENSURE(rf_record_add_body(w, 1, "a2", 0, 1, &bx, NULL) == RF_OK);
    ENSURE(rf_record_add_body(w, 3, "c", 1, 1, &sp, NULL) == RF_OK);
    ENSURE(rf_record_add_body(w, 4, "d", 0, 1, &sp, NULL) == RF_OK);
    c.body_b = 3;
    ENSURE(rf_record_frame(w, 3, 3, f3, pos, quat, 1, &c, 0, NULL, NULL) ==
           RF_OK);
    ENSURE(rf_record_remove_body(w, 4, NULL) == RF_OK);
    ENSURE(rf_record_close(w, NULL) == RF_OK);
    rf_recording *r;
    ENSURE(rf_recording_read(path, &r, NULL) == RF_OK);
    ENSURE(r->nbody == 5 && r->nframe == 4 && r->complete);
    static const int want_id[5] = {1, 2, 1, 3, 4},
                     want_ff[5] = {0, 0, 3, 3, -1};
    static const char *want_name[5] = {"a", "b", "a2", "c", "d"};
    for (int b = 0; b < 5; ++b) {
        ENSURE(r->bodies[b].id == want_id[b]);
        ENSURE(r->bodies[b].first_frame == want_ff[b]);
        ENSURE(strcmp(r->bodies[b].name, want_name[b]) == 0);
    }
    ENSURE(r->bodies[2].parts[0].kind == RF_SHAPE_BOX);
    ENSURE(r->bodies[2].parts[0].size[2] == 0.125);
    ENSURE(r->bodies[3].is_static == 1 && r->bodies[0].is_static == 0);
    ENSURE(r->frames[3].n == 3 && r->frames[3].ids[1] == 3);
    ENSURE(r->frames[3].pos[3] == 4.0f && r->frames[3].ncontact == 1);
    ENSURE(r->frames[3].contacts[0].body_b == 3);
    ENSURE(r->frames[1].ncontact == 0 && r->frames[1].contacts == NULL);
    rf_recording_free(r);
    return 0;
}

/* Cut the scene's file at every byte: below the 32-byte header it is
   refused (RF_ERR_FORMAT); from there it reads with complete = 0, the
   bodies whose chunk is whole, and the frames whose FRAM (and, with
   contacts, CONT) chunk is whole, equal to the full file's. */
static int test_truncated(void)
{
    char path[512], cut[512];
    tmp_path(cut, "cut.rec");
    for (int contacts = 0; contacts <= 1; ++contacts) {
        tmp_path(path, "full.rec");
        ENSURE(write_scene(&SCENE, path, contacts) == 0);
        size_t n;
        unsigned char *b = slurp(path, &n);
        ENSURE(b != NULL);
        for (size_t at = 0; at < n; ++at) {
            ENSURE(spit(cut, b, at) == 0);
            rf_recording *r = NULL;
            rf_error err;
            const rf_status st = rf_recording_read(cut, &r, &err);
            if (at < 32) {
                ENSURE(st == RF_ERR_FORMAT && r == NULL);
                ENSURE(strstr(err.message, "cut.rec") != NULL);
                continue;
            }
            ENSURE(st == RF_OK && r->complete == 0);
            /* what the chunks that end by at hold */
            size_t off = 32;
            int nbody = 0, nframe = 0;
            while (off + 8 <= at && off + 8 + rd32(b + off + 4) <= at) {
                const int fr = memcmp(b + off, "FRAM", 4) == 0;
                const int co = memcmp(b + off, "CONT", 4) == 0;
                nbody += memcmp(b + off, "BODY", 4) == 0;
                nframe += contacts ? co : fr;
                off += 8 + rd32(b + off + 4);
            }
            ENSURE(r->nbody == nbody && r->nframe == nframe);
            ENSURE(r->nframe <= NFRAME);
            if (r->nbody == NBODY) {
                ENSURE(same_scene(r, &SCENE, contacts, nframe) == 0);
            } else {
                ENSURE(nframe == 0);
                for (int i = 0; i < r->nbody; ++i) {
                    ENSURE(r->bodies[i].id == SCENE.id[i]);
                    ENSURE(r->bodies[i].first_frame == -1);
                }
            }
            rf_recording_free(r);
        }
        free(b);
    }
    return 0;
}

/* Chunks of unknown tags (after the header, between a FRAM and its CONT,
   before END) and bytes after a known chunk's fields are skipped. */
static int test_unknown_chunks(void)
{
    char path[512], ext[512];
    tmp_path(path, "u.rec");
    tmp_path(ext, "u2.rec");
    ENSURE(write_scene(&SCENE, path, 1) == 0);
    size_t n;
    unsigned char *b = slurp(path, &n);
    ENSURE(b != NULL);
    unsigned char *o = malloc(n + 200);
    ENSURE(o != NULL);
    size_t on = 0, off = 32;
    memcpy(o, b, 32);
    on = 32;
    const unsigned char extra[18] = {'X', 'T', 'R', 'A', 10, 0, 0, 0, 1,
                                     2,   3,   4,   5,   6,  7, 8, 9, 10};
    memcpy(o + on, extra, 18); /* after the header */
    on += 18;
    int nfram = 0;
    while (off < n) {
        ENSURE(off + 8 <= n && rd32(b + off + 4) <= n - off - 8);
        const size_t len = rd32(b + off + 4);
        const int fram = memcmp(b + off, "FRAM", 4) == 0;
        if (memcmp(b + off, "END ", 4) == 0) {
            memcpy(o + on, "xtra\0\0\0\0", 8); /* empty, lower case */
            on += 8;
        }
        memcpy(o + on, b + off, 8 + len);
        if (fram && nfram++ == 1) {
            /* four more bytes in this FRAM (ignored), then an unknown
               chunk before its CONT */
            wr32(o + on + 4, (uint32_t)len + 4);
            memcpy(o + on + 8 + len, "\xde\xad\xbe\xef", 4);
            on += 4;
            memcpy(o + on + 8 + len, extra, 18);
            on += 18;
        }
        on += 8 + len;
        off += 8 + len;
    }
    ENSURE(on == n + 18 + 8 + 4 + 18);
    ENSURE(spit(ext, o, on) == 0);
    rf_recording *r;
    rf_error err;
    ENSURE(rf_recording_read(ext, &r, &err) == RF_OK);
    ENSURE(r->complete == 1 && same_scene(r, &SCENE, 1, NFRAME) == 0);
    rf_recording_free(r);
    free(o);
    free(b);
    return 0;
}

/* Random bytes of the scene's file changed (1 to 4 of them, 2000 times):
   each read gives RF_OK or RF_ERR_FORMAT and a recording that holds
   together (counts within the file, every frame's ids declared), never a
   crash (the ASan and valgrind runs check the memory). */
static int test_corrupt(void)
{
    char path[512], bad[512];
    tmp_path(path, "c.rec");
    tmp_path(bad, "c2.rec");
    ENSURE(write_scene(&SCENE, path, 1) == 0);
    size_t n;
    unsigned char *b = slurp(path, &n);
    ENSURE(b != NULL);
    unsigned char *c = malloc(n);
    ENSURE(c != NULL);
    rf_rng rng = {2025};
    int ok = 0, format = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        memcpy(c, b, n);
        const int nflip = 1 + (int)(rf_rng_next(&rng) % 4);
        for (int k = 0; k < nflip; ++k) {
            const size_t at = 32 + rf_rng_next(&rng) % (n - 32);
            c[at] = (unsigned char)rf_rng_next(&rng);
        }
        ENSURE(spit(bad, c, n) == 0);
        rf_recording *r = NULL;
        const rf_status st = rf_recording_read(bad, &r, NULL);
        ENSURE(st == RF_OK || st == RF_ERR_FORMAT);
        if (st == RF_OK) {
            ok++;
            ENSURE(r->nbody >= 0 && r->nbody <= (int)n / 76);
            ENSURE(r->nframe >= 0 && r->nframe <= (int)n / 20);
            for (int f = 0; f < r->nframe; ++f) {
                ENSURE(r->frames[f].n >= 0 && r->frames[f].ncontact >= 0);
                for (int i = 0; i < r->frames[f].n; ++i) {
                    ENSURE(r->frames[f].ids[i] >= 0);
                }
            }
            rf_recording_free(r);
        } else {
            format++;
        }
    }
    /* most flips land in floats (read as they are), some in counts,
       ids and tags */
    ENSURE(ok > 500 && format > 100);
    free(c);
    free(b);
    unlink(bad);
    unlink(path);
    return 0;
}

/* One broken file: its bytes read with status want and a message that
   holds needle; *out untouched. */
static int refused(const unsigned char *b, size_t n, rf_status want,
                   const char *needle)
{
    char path[512];
    tmp_path(path, "bad.rec");
    ENSURE(spit(path, b, n) == 0);
    rf_recording *r = (rf_recording *)&tmpdir; /* a sentinel */
    rf_error err;
    ENSURE(rf_recording_read(path, &r, &err) == want);
    ENSURE(err.status == want);
    ENSURE(r == (rf_recording *)&tmpdir);
    ENSURE(strstr(err.message, "bad.rec") != NULL);
    if (strstr(err.message, needle) == NULL) {
        fprintf(stderr, "message: %s (wanted %s)\n", err.message, needle);
        return 1;
    }
    return 0;
}

/* A chunk length corrupted in a recording that ends whole (its END chunk
   is there) is reported with the chunk's offset, not read as a recording
   cut short; the same file cut short (no END) still reads as one. */
static int test_corrupt_length(void)
{
    char path[512], cut[512];
    tmp_path(path, "len.rec");
    tmp_path(cut, "len-cut.rec");
    ENSURE(write_scene(&SCENE, path, 1) == 0);
    size_t n;
    unsigned char *b = slurp(path, &n);
    ENSURE(b != NULL);
    /* the second chunk after the 32-byte header */
    const size_t second = 32 + 8 + rd32(b + 32 + 4);
    ENSURE(second + 8 <= n);
    wr32(b + second + 4, 0x7ffffff0u);
    char want[64];
    snprintf(want, sizeof want, "offset %zu", second);
    ENSURE(refused(b, n, RF_ERR_FORMAT, want) == 0);
    ENSURE(refused(b, n, RF_ERR_FORMAT, "the length is corrupt") == 0);
    /* without its END chunk it is a recording cut short */
    ENSURE(spit(cut, b, n - 8) == 0);
    rf_recording *r = NULL;
    ENSURE(rf_recording_read(cut, &r, NULL) == RF_OK);
    ENSURE(r->complete == 0 && r->nbody == 1);
    rf_recording_free(r);
    free(b);
    unlink(cut);
    unlink(path);
    return 0;
}

/* Wrong magic, versions 0 and 2, and malformed chunks: RF_ERR_FORMAT
   naming the offset; a missing file or a directory: RF_ERR_IO. */
static int test_bad_files(void)
{
    char path[512];
    tmp_path(path, "good.rec");
    ENSURE(write_scene(&SCENE, path, 0) == 0);
    size_t n;
    unsigned char *b = slurp(path, &n);
    ENSURE(b != NULL && memcmp(b + 32, "BODY", 4) == 0);
    unsigned char *c = malloc(n);
    ENSURE(c != NULL);
#define FRESH() memcpy(c, b, n)
    FRESH();
    c[2] = 'X';
    ENSURE(refused(c, n, RF_ERR_FORMAT, "magic") == 0);
    FRESH();
    wr32(c + 8, 2);
    ENSURE(refused(c, n, RF_ERR_FORMAT, "version 2") == 0);
    wr32(c + 8, 0);
    ENSURE(refused(c, n, RF_ERR_FORMAT, "version 0") == 0);
    FRESH();
    memset(c + 16, 0xff, 8); /* step NaN */
    ENSURE(refused(c, n, RF_ERR_FORMAT, "step") == 0);
    FRESH();
    wr32(c + 40, 0x80000000u); /* BODY id negative */
    ENSURE(refused(c, n, RF_ERR_FORMAT, "offset 32: BODY") == 0);
    FRESH();
    wr32(c + 52 + 6 + 4, 99); /* the ground's part's kind (after "ground"
                                 and nparts) */
    ENSURE(refused(c, n, RF_ERR_FORMAT, "kind 99") == 0);
    /* the frames: find the first FRAM */
    size_t fr = 32;
    while (memcmp(b + fr, "FRAM", 4) != 0) {
        fr += 8 + rd32(b + fr + 4);
        ENSURE(fr + 60 <= n);
    }
    char where[64];
    snprintf(where, sizeof where, "offset %zu: FRAM", fr);
    FRESH();
    wr32(c + fr + 16, 1000); /* n beyond the payload */
    ENSURE(refused(c, n, RF_ERR_FORMAT, where) == 0);
    FRESH();
    wr32(c + fr + 20, 77); /* an undeclared id */
    ENSURE(refused(c, n, RF_ERR_FORMAT, "body 77 is not live") == 0);
    FRESH();
    wr32(c + fr + 20 + 32, rd32(b + fr + 20)); /* an id twice */
    ENSURE(refused(c, n, RF_ERR_FORMAT, "listed twice") == 0);
    FRESH();
    memcpy(c + fr, "CONT", 4); /* contacts in a file without */
    ENSURE(refused(c, n, RF_ERR_FORMAT, "no contacts") == 0);
    FRESH();
    wr32(c + 12, 1); /* says contacts, has no CONT */
    ENSURE(refused(c, n, RF_ERR_FORMAT, "no CONT") == 0);
    ENSURE(refused(c, 0, RF_ERR_FORMAT, "shorter than the header") == 0);
#undef FRESH
    free(c);
    free(b);
    rf_recording *r = NULL;
    rf_error err;
    tmp_path(path, "missing.rec");
    ENSURE(rf_recording_read(path, &r, &err) == RF_ERR_IO && r == NULL);
    ENSURE(strstr(err.message, "missing.rec") != NULL);
    ENSURE(rf_recording_read(tmpdir, &r, &err) == RF_ERR_IO && r == NULL);
    return 0;
}

/* A mesh whose triangle names vertex 3 of 3, refused by the reader. */
static int test_bad_mesh_file(void)
{
    char path[512];
    tmp_path(path, "mesh.rec");
    rf_record_writer *w;
    rf_record_part m;
    set_part(&m, RF_SHAPE_MESH, 0, 0, 0, 0, 0);
    m.nvert = 3;
    m.verts = (double *)MESH_V;
    m.ntri = 1;
    m.tris = (int *)MESH_T;
    ENSURE(rf_record_open(path, 0.0, 0.0, 0, &w, NULL) == RF_OK);
    ENSURE(rf_record_add_body(w, 0, NULL, 1, 1, &m, NULL) == RF_OK);
    ENSURE(rf_record_close(w, NULL) == RF_OK);
    size_t n;
    unsigned char *b = slurp(path, &n);
    ENSURE(b != NULL && n == 32 + 8 + 16 + 60 + 36 + 12 + 8);
    const size_t tri = 32 + 8 + 16 + 60 + 36; /* the first index */
    ENSURE(rd32(b + tri) == 0 && rd32(b + tri + 8) == 2);
    wr32(b + tri + 8, 3);
    ENSURE(refused(b, n, RF_ERR_FORMAT, "triangle index 3 of 3") == 0);
    free(b);
    return 0;
}

/* rf_record_open's documented errors; nothing is created. */
static int test_bad_open(void)
{
    char path[512];
    tmp_path(path, "args.rec");
    rf_record_writer *w = NULL;
    rf_error err;
    ENSURE(rf_record_open(NULL, 0, 0, 0, &w, &err) == RF_ERR_NULL);
    ENSURE(rf_record_open(path, 0, 0, 0, NULL, &err) == RF_ERR_NULL);
    ENSURE(rf_record_open(path, -1, 0, 0, &w, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "args.rec") != NULL);
    ENSURE(rf_record_open(path, NAN, 0, 0, &w, &err) == RF_ERR_INVALID);
    ENSURE(rf_record_open(path, 0, -0.1, 0, &w, &err) == RF_ERR_INVALID);
    ENSURE(rf_record_open(path, 0, INFINITY, 0, &w, &err) == RF_ERR_INVALID);
    ENSURE(rf_record_open(path, 0, 0, 2, &w, &err) == RF_ERR_INVALID);
    ENSURE(w == NULL && access(path, F_OK) != 0);
    return 0;
}

/* rf_record_add_body and rf_record_remove_body's documented errors (a
   bad part named by its index); none writes anything: the file then
   holds the one good body, its 99-byte name cut to 63. */
static int test_bad_bodies(void)
{
    char path[512];
    tmp_path(path, "args.rec");
    rf_record_writer *w = NULL;
    rf_error err;
    ENSURE(rf_record_open(path, 0.01, 0, 0, &w, &err) == RF_OK);
    rf_record_part sp, bad;
    set_part(&sp, RF_SHAPE_SPHERE, 0, 0.5, 0, 0, 0);
    ENSURE(rf_record_add_body(NULL, 0, NULL, 0, 1, &sp, &err) == RF_ERR_NULL);
    ENSURE(rf_record_add_body(w, 0, NULL, 0, 1, NULL, &err) == RF_ERR_NULL);
    ENSURE(rf_record_add_body(w, -1, NULL, 0, 1, &sp, &err) == RF_ERR_INVALID);
    ENSURE(rf_record_add_body(w, 0, NULL, 0, 0, &sp, &err) == RF_ERR_INVALID);
    ENSURE(rf_record_add_body(w, 0, NULL, 2, 1, &sp, &err) == RF_ERR_INVALID);
    bad = sp;
    bad.kind = (rf_shape_kind)10;
    ENSURE(rf_record_add_body(w, 0, NULL, 0, 1, &bad, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "kind 10") != NULL);
    bad = sp;
    bad.axis = 3;
    ENSURE(rf_record_add_body(w, 0, NULL, 0, 1, &bad, &err) == RF_ERR_INVALID);
    bad = sp;
    bad.size[3] = NAN;
    ENSURE(rf_record_add_body(w, 0, NULL, 0, 1, &bad, &err) == RF_ERR_INVALID);
    bad = sp;
    bad.pos[1] = 1e39; /* finite, not a float */
    ENSURE(rf_record_add_body(w, 0, NULL, 0, 1, &bad, &err) == RF_ERR_INVALID);
    bad = sp;
    bad.nvert = 1; /* vertices on a sphere */
    bad.verts = (double *)HULL_V;
    ENSURE(rf_record_add_body(w, 0, NULL, 0, 1, &bad, &err) == RF_ERR_INVALID);
    set_part(&bad, RF_SHAPE_HULL, 0, 0, 0, 0, 0);
    bad.nvert = 2;
    ENSURE(rf_record_add_body(w, 0, NULL, 0, 1, &bad, &err) == RF_ERR_NULL);
    double v[6] = {0, 0, 0, 1, INFINITY, 0};
    bad.verts = v;
    ENSURE(rf_record_add_body(w, 0, NULL, 0, 1, &bad, &err) == RF_ERR_INVALID);
    bad.nvert = -1;
    ENSURE(rf_record_add_body(w, 0, NULL, 0, 1, &bad, &err) == RF_ERR_INVALID);
    set_part(&bad, RF_SHAPE_MESH, 0, 0, 0, 0, 0);
    bad.nvert = 3;
    bad.verts = (double *)MESH_V;
    bad.ntri = 2; /* indices 0 1 2 0 2 3: 3 is out of range */
    bad.tris = (int *)MESH_T;
    ENSURE(rf_record_add_body(w, 0, NULL, 0, 1, &bad, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "tris[5] = 3") != NULL);
    const rf_record_part two[2] = {sp, bad};
    ENSURE(rf_record_add_body(w, 0, NULL, 0, 2, two, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "part 1") != NULL);
    char longname[100];
    memset(longname, 'n', 99);
    longname[99] = '\0';
    ENSURE(rf_record_add_body(w, 0, longname, 0, 1, &sp, &err) == RF_OK);
    ENSURE(err.status == RF_OK);
    ENSURE(rf_record_add_body(w, 0, NULL, 0, 1, &sp, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "already declared") != NULL);
    ENSURE(rf_record_remove_body(NULL, 0, &err) == RF_ERR_NULL);
    ENSURE(rf_record_remove_body(w, 5, &err) == RF_ERR_INVALID);
    ENSURE(rf_record_remove_body(w, -1, &err) == RF_ERR_INVALID);
    ENSURE(rf_record_close(w, &err) == RF_OK);
    ENSURE(rf_record_close(NULL, &err) == RF_OK);
    rf_recording *r = NULL;
    ENSURE(rf_recording_read(path, &r, &err) == RF_OK);
    ENSURE(r->nbody == 1 && r->nframe == 0 && r->complete == 1);
    ENSURE(strlen(r->bodies[0].name) == 63 && r->bodies[0].name[62] == 'n');
    ENSURE(r->bodies[0].first_frame == -1);
    rf_recording_free(r);
    return 0;
}

/* rf_record_frame's documented errors, *written untouched by each; the
   writer goes on: the file holds the two good frames. */
static int test_bad_frames(void)
{
    char path[512];
    tmp_path(path, "args.rec");
    rf_record_writer *w = NULL;
    rf_error err;
    rf_record_part sp;
    set_part(&sp, RF_SHAPE_SPHERE, 0, 0.5, 0, 0, 0);
    ENSURE(rf_record_open(path, 0.01, 0, 1, &w, &err) == RF_OK);
    ENSURE(rf_record_add_body(w, 0, NULL, 0, 1, &sp, &err) == RF_OK);
    const int id = 0, ids2[2] = {0, 0}, nobody = 9;
    const double pos[6] = {0, 0, 1, 0, 0, 2};
    const double q[8] = {0, 0, 0, 1, 0, 0, 0, 1};
    const double qn[4] = {0, NAN, 0, 1};
    rf_record_contact c = {0, -1, {0}, {0, 0, 1}, 1, {0}};
    rf_record_contact cnan = c, cbody = c;
    cnan.rolling_torque[2] = NAN;
    cbody.body_b = 4;
    int wr = 7;
#define FRAME(w, t, n, ids, p, q, nc, c, force)                                \
    rf_record_frame(w, t, n, ids, p, q, nc, c, force, &wr, &err)
    ENSURE(FRAME(NULL, 0, 1, &id, pos, q, 0, NULL, 0) == RF_ERR_NULL);
    ENSURE(FRAME(w, 0, 1, NULL, pos, q, 0, NULL, 0) == RF_ERR_NULL);
    ENSURE(FRAME(w, 0, 1, &id, NULL, q, 0, NULL, 0) == RF_ERR_NULL);
    ENSURE(FRAME(w, 0, 1, &id, pos, NULL, 0, NULL, 0) == RF_ERR_NULL);
    ENSURE(FRAME(w, 0, 1, &id, pos, q, 1, NULL, 0) == RF_ERR_NULL);
    ENSURE(FRAME(w, NAN, 1, &id, pos, q, 0, NULL, 0) == RF_ERR_INVALID);
    ENSURE(FRAME(w, 0, -1, &id, pos, q, 0, NULL, 0) == RF_ERR_INVALID);
    ENSURE(FRAME(w, 0, 1, &id, pos, q, -1, &c, 0) == RF_ERR_INVALID);
    ENSURE(FRAME(w, 0, 1, &id, pos, q, 0, NULL, 2) == RF_ERR_INVALID);
    ENSURE(FRAME(w, 0, 1, &nobody, pos, q, 0, NULL, 0) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "ids[0] = 9") != NULL);
    ENSURE(FRAME(w, 0, 2, ids2, pos, q, 0, NULL, 0) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "twice") != NULL);
    ENSURE(FRAME(w, 0, 1, &id, pos, qn, 0, NULL, 0) == RF_ERR_INVALID);
    ENSURE(FRAME(w, 0, 1, &id, pos, q, 1, &cnan, 0) == RF_ERR_INVALID);
    ENSURE(FRAME(w, 0, 1, &id, pos, q, 1, &cbody, 0) == RF_ERR_INVALID);
    ENSURE(wr == 7);
    ENSURE(FRAME(w, 1.0, 1, &id, pos, q, 1, &c, 0) == RF_OK);
    ENSURE(wr == 1 && err.status == RF_OK);
    ENSURE(FRAME(w, 0.5, 1, &id, pos, q, 1, &c, 0) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "0.5") != NULL); /* back in time */
    ENSURE(FRAME(w, 1.0, 0, NULL, NULL, NULL, 0, NULL, 0) == RF_OK);
#undef FRAME
    ENSURE(rf_record_close(w, &err) == RF_OK);
    rf_recording *r = NULL;
    ENSURE(rf_recording_read(NULL, &r, &err) == RF_ERR_NULL);
    ENSURE(rf_recording_read(path, NULL, &err) == RF_ERR_NULL);
    ENSURE(rf_recording_read(path, &r, &err) == RF_OK);
    ENSURE(r->nbody == 1 && r->nframe == 2 && r->complete == 1);
    ENSURE(r->frames[0].ncontact == 1 && r->frames[1].n == 0);
    ENSURE(r->frames[1].time == 1.0 && r->frames[0].pos[2] == 1.0f);
    rf_recording_free(r);
    rf_recording_free(NULL);
    return 0;
}

/* A disk that fills up: /dev/full fails the open; a file size limit
   (RLIMIT_FSIZE) fails a frame with RF_ERR_IO, every later call too, and
   the file reads back with complete = 0 and the frames written whole. */
static int test_io_errors(void)
{
    char path[512];
    rf_record_writer *w = NULL;
    rf_error err;
    tmp_path(path, "no/such/dir.rec");
    ENSURE(rf_record_open(path, 0, 0, 0, &w, &err) == RF_ERR_IO && w == NULL);
    ENSURE(strstr(err.message, "dir.rec") != NULL);
    if (access("/dev/full", W_OK) == 0) {
        ENSURE(rf_record_open("/dev/full", 0, 0, 0, &w, &err) == RF_ERR_IO);
        ENSURE(strstr(err.message, "/dev/full") != NULL && w == NULL);
    }
    tmp_path(path, "full.rec");
    rf_record_part sp;
    set_part(&sp, RF_SHAPE_SPHERE, 0, 0.5, 0, 0, 0);
    const int id = 0;
    const double pos[3] = {0, 0, 1}, q[4] = {0, 0, 0, 1};
    ENSURE(rf_record_open(path, 0, 0, 0, &w, NULL) == RF_OK);
    ENSURE(rf_record_add_body(w, 0, NULL, 0, 1, &sp, NULL) == RF_OK);
    struct rlimit old, lim;
    ENSURE(getrlimit(RLIMIT_FSIZE, &old) == 0);
    void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    lim = old;
    lim.rlim_cur = 400; /* 32 + 84 + six frames of 52 = 428 */
    ENSURE(setrlimit(RLIMIT_FSIZE, &lim) == 0);
    /* the limit holds up to the close (whose flush would otherwise
       complete the frame cut short) */
    rf_status st = RF_OK, later, removed, closed;
    rf_error e1, e2;
    int f = 0;
    for (; f < 20 && st == RF_OK; ++f) {
        st = rf_record_frame(w, f, 1, &id, pos, q, 0, NULL, 0, NULL, &e1);
    }
    later = rf_record_frame(w, 30, 1, &id, pos, q, 0, NULL, 0, NULL, &e2);
    removed = rf_record_remove_body(w, 0, NULL);
    closed = rf_record_close(w, NULL);
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, old_handler);
    ENSURE(st == RF_ERR_IO && f == 6);
    ENSURE(strstr(e1.message, "full.rec") && strstr(e1.message, "write"));
    ENSURE(later == RF_ERR_IO);
    ENSURE(strstr(e2.message, "earlier write failed") != NULL);
    ENSURE(removed == RF_ERR_IO && closed == RF_ERR_IO);
    struct stat sb;
    ENSURE(stat(path, &sb) == 0 && sb.st_size == 400);
    rf_recording *r;
    ENSURE(rf_recording_read(path, &r, &err) == RF_OK);
    ENSURE(r->complete == 0 && r->nbody == 1 && r->nframe == 5);
    ENSURE(r->frames[4].time == 4.0 && r->bodies[0].first_frame == 0);
    rf_recording_free(r);
    return 0;
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/rf_test_record_XXXXXX");
    if (mkdtemp(tmpdir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    rf_rng rng = {25};
    make_bodies(&SCENE);
    make_frames(&SCENE, &rng);
    RUN_TEST(test_round_trip);
    RUN_TEST(test_no_contacts);
    RUN_TEST(test_byte_layout);
    RUN_TEST(test_decimation);
    RUN_TEST(test_remove_add);
    RUN_TEST(test_truncated);
    RUN_TEST(test_unknown_chunks);
    RUN_TEST(test_bad_files);
    RUN_TEST(test_bad_mesh_file);
    RUN_TEST(test_corrupt);
    RUN_TEST(test_corrupt_length);
    RUN_TEST(test_bad_open);
    RUN_TEST(test_bad_bodies);
    RUN_TEST(test_bad_frames);
    RUN_TEST(test_io_errors);
    const char *names[] = {"rt.rec",  "nc.rec",   "layout.rec", "dec.rec",
                           "ra.rec",  "full.rec", "cut.rec",    "u.rec",
                           "u2.rec",  "bad.rec",  "good.rec",   "mesh.rec",
                           "args.rec"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; ++k) {
        char path[512];
        tmp_path(path, names[k]);
        unlink(path);
    }
    rmdir(tmpdir);
    return TEST_SUMMARY();
}
