/*
 * Fuzz target: the recording reader (rf_recording_read, plugin/record.c;
 * docs/recording.md), which reads files a viewer or a user hands it.
 *
 * The bytes are the file (written to a scratch file: the reader takes a
 * path).  Oracle:
 *   - the status is RF_OK or RF_ERR_FORMAT (the file exists and is
 *     readable), rf_error agrees with it (same status, a NUL-terminated
 *     message, non-empty on failure), and a failed read leaves *out as it
 *     was;
 *   - an accepted recording is consistent: version 1, counts >= 0, each
 *     body with at least one part, kinds and axes in range, vertex and
 *     triangle counts with their arrays and every triangle index below
 *     the part's vertex count, first_frame -1 or a frame index; frame
 *     times finite and non-decreasing; every id a frame lists declared by
 *     a body, and each listed once; contacts only when the header says so,
 *     their bodies -1 or declared;
 *   - and reading it frees cleanly (ASan, LeakSanitizer).
 * Any violation traps (__builtin_trap).
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include "rollfric/record.h"

#include "fuzz_util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Is id declared by some body? */
static int declared(const rf_recording *r, int id)
{
    for (int b = 0; b < r->nbody; ++b) {
        if (r->bodies[b].id == id) {
            return 1;
        }
    }
    return 0;
}

static void check_bodies(const rf_recording *r)
{
    FUZZ_CHECK(r->nbody >= 0 && (r->nbody == 0 || r->bodies != NULL));
    for (int b = 0; b < r->nbody; ++b) {
        const rf_record_body *body = &r->bodies[b];
        FUZZ_CHECK(body->id >= 0 && body->nparts >= 1 && body->parts != NULL);
        FUZZ_CHECK(memchr(body->name, '\0', sizeof body->name) != NULL);
        FUZZ_CHECK(body->first_frame >= -1 && body->first_frame < r->nframe);
        for (int q = 0; q < body->nparts; ++q) {
            const rf_record_part *p = &body->parts[q];
            FUZZ_CHECK(p->kind >= RF_SHAPE_SPHERE && p->kind <= RF_SHAPE_OTHER);
            FUZZ_CHECK(p->axis >= 0 && p->axis <= 2);
            FUZZ_CHECK(p->nvert >= 0 && p->ntri >= 0);
            FUZZ_CHECK(p->nvert == 0 || p->verts != NULL);
            FUZZ_CHECK(p->ntri == 0 || p->tris != NULL);
            for (int k = 0; k < 3 * p->ntri; ++k) {
                FUZZ_CHECK(p->tris[k] >= 0 && p->tris[k] < p->nvert);
            }
        }
    }
}

static void check_frames(const rf_recording *r)
{
    FUZZ_CHECK(r->nframe >= 0 && (r->nframe == 0 || r->frames != NULL));
    for (int f = 0; f < r->nframe; ++f) {
        const rf_record_frame_data *fr = &r->frames[f];
        FUZZ_CHECK(isfinite(fr->time));
        FUZZ_CHECK(f == 0 || fr->time >= r->frames[f - 1].time);
        FUZZ_CHECK(fr->n >= 0 && fr->ncontact >= 0);
        FUZZ_CHECK(r->has_contacts || fr->ncontact == 0);
        for (int i = 0; i < fr->n; ++i) {
            FUZZ_CHECK(declared(r, fr->ids[i]));
            for (int j = 0; j < i; ++j) {
                FUZZ_CHECK(fr->ids[j] != fr->ids[i]);
            }
        }
        for (int c = 0; c < fr->ncontact; ++c) {
            const rf_record_contact *ct = &fr->contacts[c];
            FUZZ_CHECK(ct->body_a == -1 || declared(r, ct->body_a));
            FUZZ_CHECK(ct->body_b == -1 || declared(r, ct->body_b));
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_scratch_path();
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL);
    FUZZ_CHECK(size == 0 || fwrite(data, 1, size, f) == size);
    FUZZ_CHECK(fclose(f) == 0);

    static char mark;
    rf_recording *sentinel = (rf_recording *)&mark; /* any non-NULL */
    rf_recording *r = sentinel;
    rf_error err;
    memset(&err, 0x55, sizeof err);
    const rf_status st = rf_recording_read(path, &r, &err);
    FUZZ_CHECK(st == RF_OK || st == RF_ERR_FORMAT);
    FUZZ_CHECK(err.status == st);
    FUZZ_CHECK(memchr(err.message, '\0', sizeof err.message) != NULL);
    if (st != RF_OK) {
        FUZZ_CHECK(err.message[0] != '\0');
        FUZZ_CHECK(r == sentinel); /* untouched on failure */
        return 0;
    }
    FUZZ_CHECK(r != NULL && r != sentinel);
    FUZZ_CHECK(r->version == RF_RECORD_VERSION);
    FUZZ_CHECK(r->has_contacts == 0 || r->has_contacts == 1);
    FUZZ_CHECK(r->complete == 0 || r->complete == 1);
    check_bodies(r);
    check_frames(r);
    rf_recording_free(r);
    return 0;
}
