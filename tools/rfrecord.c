/*
 * rfrecord: what a recording (docs/recording.md) holds, for scripts and
 * tests.
 *
 *   rfrecord info FILE   one line: version, bodies, frames, the last
 *                        frame's time, contact points in all frames,
 *                        whether the file was closed properly (complete)
 *   rfrecord first FILE  one line per body (declaration order): id, shape
 *                        kind of its first part, its position x y z in
 *                        the first frame that lists it
 *   rfrecord last FILE   the same with the last frame that lists it (a
 *                        body removed before the end: its last state)
 *   rfrecord names FILE  one line per body declaration (declaration
 *                        order): id, then its name ("-" when it has
 *                        none; a name is the rest of the line)
 *
 * Exit status: 0, 1 when the file cannot be read (message on stderr), 2
 * for a bad command line.
 */
#include "rollfric/record.h"

#include <stdio.h>
#include <string.h>

static const char *kind_name(rf_shape_kind k)
{
    static const char *names[] = {"?",       "sphere", "box",  "cylinder",
                                  "capsule", "cone",   "hull", "plane",
                                  "mesh",    "other"};
    return k >= 1 && k <= RF_SHAPE_OTHER ? names[k] : "?";
}

static const rf_record_body *find_body(const rf_recording *r, int id)
{
    /* the latest declaration of id (ids may be declared again after a
       removal) */
    for (int b = r->nbody - 1; b >= 0; --b) {
        if (r->bodies[b].id == id) {
            return &r->bodies[b];
        }
    }
    return NULL;
}

static void print_info(const rf_recording *r)
{
    long contacts = 0;
    for (int f = 0; f < r->nframe; ++f) {
        contacts += r->frames[f].ncontact;
    }
    printf("version %d bodies %d frames %d time %.6g contacts %ld complete "
           "%d\n",
           r->version, r->nbody, r->nframe,
           r->nframe > 0 ? r->frames[r->nframe - 1].time : 0.0, contacts,
           r->complete);
}

/* Body b's position in the first (last: from the end) frame listing
   it; 0 when no frame does. */
static int body_position(const rf_recording *r, const rf_record_body *b,
                         int last, double x[3])
{
    if (last && find_body(r, b->id) != b) {
        return 0; /* id declared again later: ambiguous, skip */
    }
    const int start = b->first_frame < 0 ? r->nframe : b->first_frame;
    for (int k = 0; k < r->nframe - start; ++k) {
        const int f = last ? r->nframe - 1 - k : start + k;
        const rf_record_frame_data *fr = &r->frames[f];
        for (int i = 0; i < fr->n; ++i) {
            if (fr->ids[i] == b->id) {
                for (int c = 0; c < 3; ++c) {
                    x[c] = fr->pos[3 * i + c];
                }
                return 1;
            }
        }
    }
    return 0;
}

static void print_positions(const rf_recording *r, int last)
{
    for (int b = 0; b < r->nbody; ++b) {
        const rf_record_body *body = &r->bodies[b];
        double x[3];
        if (body_position(r, body, last, x)) {
            printf("%d %s %.6g %.6g %.6g\n", body->id,
                   body->nparts > 0 ? kind_name(body->parts[0].kind) : "?",
                   x[0], x[1], x[2]);
        }
    }
}

static void print_names(const rf_recording *r)
{
    for (int b = 0; b < r->nbody; ++b) {
        const rf_record_body *body = &r->bodies[b];
        printf("%d %s\n", body->id, body->name[0] ? body->name : "-");
    }
}

int main(int argc, char **argv)
{
    if (argc != 3 ||
        (strcmp(argv[1], "info") != 0 && strcmp(argv[1], "last") != 0 &&
         strcmp(argv[1], "first") != 0 && strcmp(argv[1], "names") != 0)) {
        fprintf(stderr, "usage: rfrecord info|first|last|names FILE\n");
        return 2;
    }
    rf_recording *r = NULL;
    rf_error err;
    if (rf_recording_read(argv[2], &r, &err) != RF_OK) {
        fprintf(stderr, "rfrecord: %s\n", err.message);
        return 1;
    }
    if (strcmp(argv[1], "info") == 0) {
        print_info(r);
    } else if (strcmp(argv[1], "names") == 0) {
        print_names(r);
    } else {
        print_positions(r, strcmp(argv[1], "last") == 0);
    }
    rf_recording_free(r);
    return 0;
}
