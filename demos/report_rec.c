/*
 * rfdemo report: the A/B report of two recordings of any application (the
 * launcher's `rollfric ab`), through the scenes' report (report.c) and
 * viewer (viewer.c): a scene "app" made at run time from the recordings.
 *
 * Bodies: the cone run's bodies that move (more than 1 mm from where
 * they first appear), named ones first, then by how far they went; at
 * most RFR_BODIES (each takes three of a series' columns).  Per body and
 * frame: speed (the position's change over the time between frames; the
 * first frame takes the next one's), height (y, Bullet's and the demos'
 * up axis) and energy per kg (v^2 / 2 + g y, translational and potential:
 * a recording holds no masses or inertias).  Metrics: each body's travel
 * (end against start) and end speed.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "report.h"
#include "viewer.h"

#include <rollfric/record.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { RFR_BODIES = 3 };

#define RFR_GRAVITY 9.81 /* m/s^2, for the potential energy per kg */

typedef struct rfr_body {
    int id;
    char label[24]; /* [A-Za-z0-9_], for column and metric names */
    char speed[DEMO_NAME_LEN], height[DEMO_NAME_LEN], energy[DEMO_NAME_LEN];
} rfr_body;

/* Body id's position in frame f, or NULL when the frame does not list it. */
static const float *position_in(const rf_record_frame_data *f, int id)
{
    for (int i = 0; i < f->n; ++i) {
        if (f->ids[i] == id) {
            return f->pos + 3 * i;
        }
    }
    return NULL;
}

static double dist3(const float *a, const float *b)
{
    const double dx = (double)a[0] - b[0], dy = (double)a[1] - b[1],
                 dz = (double)a[2] - b[2];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* How far body id goes from where it first appears (largest distance). */
static double travel_of(const rf_recording *r, int id)
{
    const float *first = NULL;
    double far = 0.0;
    for (int f = 0; f < r->nframe; ++f) {
        const float *p = position_in(&r->frames[f], id);
        if (p == NULL) {
            continue;
        }
        if (first == NULL) {
            first = p;
        }
        const double d = dist3(p, first);
        far = d > far ? d : far;
    }
    return far;
}

/* The bodies to plot (see the top); returns how many. */
static int choose_bodies(const rf_recording *r, rfr_body *out)
{
    int n = 0;
    for (int pass = 0; pass < 2 && n < RFR_BODIES; ++pass) {
        /* pass 0: named bodies in declaration order; 1: the rest, farthest
           first */
        for (;;) {
            int best = -1;
            double best_far = 1e-3;
            for (int b = 0; b < r->nbody; ++b) {
                const rf_record_body *body = &r->bodies[b];
                int taken = body->is_static || (body->name[0] != '\0') != !pass;
                for (int k = 0; k < n && !taken; ++k) {
                    taken = out[k].id == body->id;
                }
                const double far = taken ? 0.0 : travel_of(r, body->id);
                if (!taken && far > best_far) {
                    best = b;
                    best_far = pass == 0 ? INFINITY : far; /* named: first */
                }
            }
            if (best < 0 || n == RFR_BODIES) {
                break;
            }
            rfr_body *o = &out[n++];
            o->id = r->bodies[best].id;
            const char *name = r->bodies[best].name;
            if (name[0] == '\0') {
                snprintf(o->label, sizeof o->label, "body%d", o->id);
            } else {
                size_t k = 0;
                for (; name[k] != '\0' && k + 1 < sizeof o->label; ++k) {
                    o->label[k] =
                        isalnum((unsigned char)name[k]) ? name[k] : '_';
                }
                o->label[k] = '\0';
            }
            snprintf(o->speed, sizeof o->speed, "speed_%s", o->label);
            snprintf(o->height, sizeof o->height, "height_%s", o->label);
            snprintf(o->energy, sizeof o->energy, "energy_%s", o->label);
        }
    }
    return n;
}

/* The run's table and metrics from its recording; 0, or -1 (out of
   memory, the message in out->error). */
static int side_result(const rf_recording *r, const rfr_body *bodies, int nb,
                       demo_result *out)
{
    snprintf(out->scene, sizeof out->scene, "app");
    out->steps = r->nframe > 0 ? r->nframe - 1 : 0;
    out->dt = r->step;
    demo_series *s = &out->series;
    s->ncols = 1 + 3 * nb;
    strcpy(s->cols[0], DEMO_TIME_COLUMN);
    for (int b = 0; b < nb; ++b) {
        strcpy(s->cols[1 + 3 * b], bodies[b].speed);
        strcpy(s->cols[2 + 3 * b], bodies[b].height);
        strcpy(s->cols[3 + 3 * b], bodies[b].energy);
    }
    s->nrows = s->cap = r->nframe;
    s->data = malloc((size_t)(r->nframe > 0 ? r->nframe : 1) *
                     (size_t)s->ncols * sizeof(double));
    if (s->data == NULL) {
        snprintf(out->error, sizeof out->error, "out of memory");
        return -1;
    }
    for (int f = 0; f < r->nframe; ++f) {
        double *row = s->data + (size_t)f * (size_t)s->ncols;
        row[0] = r->frames[f].time;
        /* the speed over the interval that ends at f (the first frame: the
           one that starts there) */
        const int a = f > 0 ? f - 1 : 0, c = f > 0 ? f : (r->nframe > 1);
        const double dt = r->frames[c].time - r->frames[a].time;
        for (int b = 0; b < nb; ++b) {
            const float *p = position_in(&r->frames[f], bodies[b].id);
            const float *pa = position_in(&r->frames[a], bodies[b].id);
            const float *pc = position_in(&r->frames[c], bodies[b].id);
            double v = NAN;
            if (pa != NULL && pc != NULL) {
                v = dt > 0.0 ? dist3(pc, pa) / dt : 0.0;
            }
            row[1 + 3 * b] = v;
            row[2 + 3 * b] = p != NULL ? (double)p[1] : NAN;
            row[3 + 3 * b] =
                p != NULL ? 0.5 * v * v + RFR_GRAVITY * (double)p[1] : NAN;
        }
    }
    for (int b = 0; b < nb && out->nmetrics + 2 <= DEMO_MAX_METRICS; ++b) {
        const float *first = NULL, *last = NULL;
        for (int f = 0; f < r->nframe; ++f) {
            const float *p = position_in(&r->frames[f], bodies[b].id);
            first = first == NULL ? p : first;
            last = p != NULL ? p : last;
        }
        demo_metric *m = &out->metrics[out->nmetrics++];
        snprintf(m->name, sizeof m->name, "travel_%s", bodies[b].label);
        m->value = first != NULL ? dist3(last, first) : NAN;
        m->reference = NAN;
        m = &out->metrics[out->nmetrics++];
        snprintf(m->name, sizeof m->name, "speed_end_%s", bodies[b].label);
        m->value = s->nrows > 0
                       ? s->data[(size_t)(s->nrows - 1) * s->ncols + 1 + 3 * b]
                       : NAN;
        m->reference = NAN;
    }
    return 0;
}

/* path's file name when it is in folder dir, else NULL (the viewer takes
   recordings by name inside its folder). */
static char *name_in(const char *dir, const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash != NULL ? slash + 1 : path;
    char *joined = rfd_path(dir, base);
    char *a = joined != NULL ? realpath(joined, NULL) : NULL;
    char *b = realpath(path, NULL);
    char *name = a != NULL && b != NULL && strcmp(a, b) == 0
                     ? rfd_strf("%s", base)
                     : NULL;
    free(joined);
    free(a);
    free(b);
    return name;
}

static int usage_error(const char *what)
{
    fprintf(stderr,
            "rfdemo report: %s\nusage: rfdemo report STOCK.rec CONE.rec "
            "--out DIR [--title TEXT]\n",
            what);
    return 2;
}

int rfd_report_main(int argc, char **argv)
{
    const char *rec[RFD_SIDES] = {NULL, NULL}, *out = NULL, *title = NULL;
    int nrec = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--out") == 0 || strcmp(argv[i], "--title") == 0) {
            if (i + 1 >= argc) {
                return usage_error("an option needs a value");
            }
            *(argv[i][2] == 'o' ? &out : &title) = argv[i + 1];
            ++i;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "rfdemo report: unknown option \"%s\"\n", argv[i]);
            return 2;
        } else if (nrec < RFD_SIDES) {
            rec[nrec++] = argv[i];
        } else {
            return usage_error("more than two recordings");
        }
    }
    if (nrec != RFD_SIDES || out == NULL) {
        return usage_error("two recordings (stock, cone) and --out DIR");
    }
    char *err = NULL;
    if (rfd_make_dir(out, &err) != 0) {
        fprintf(stderr, "rfdemo report: %s\n", err ? err : "out of memory");
        free(err);
        return 1;
    }
    rf_recording *r[RFD_SIDES] = {NULL, NULL};
    for (int k = 0; k < RFD_SIDES; ++k) {
        rf_error e;
        if (rf_recording_read(rec[k], &r[k], &e) != RF_OK) {
            fprintf(stderr, "rfdemo report: %s\n", e.message);
            rf_recording_free(r[0]);
            return 1;
        }
    }
    rfr_body bodies[RFR_BODIES];
    const int nb = choose_bodies(r[RFD_CONE], bodies);

    /* the scene: its plots name the chosen bodies' columns */
    const char *speed_y[4] = {0}, *height_y[4] = {0}, *energy_y[4] = {0};
    for (int b = 0; b < nb; ++b) {
        speed_y[b] = bodies[b].speed;
        height_y[b] = bodies[b].height;
        energy_y[b] = bodies[b].energy;
    }
    demo_plot plots[3] = {
        {"speed",
         "speed of the moving bodies",
         DEMO_TIME_COLUMN,
         "t (s)",
         "speed (m/s)",
         {0},
         DEMO_PLOT_LINES,
         0,
         {0},
         NULL,
         {0, 0}},
        {"height",
         "height (y) of the moving bodies",
         DEMO_TIME_COLUMN,
         "t (s)",
         "y (m)",
         {0},
         DEMO_PLOT_LINES,
         0,
         {0},
         NULL,
         {0, 0}},
        {"energy",
         "energy per kg: v^2/2 + g y (translational and potential)",
         DEMO_TIME_COLUMN,
         "t (s)",
         "J/kg",
         {0},
         DEMO_PLOT_LINES,
         0,
         {0},
         NULL,
         {0, 0}}};
    memcpy(plots[0].y, speed_y, sizeof speed_y);
    memcpy(plots[1].y, height_y, sizeof height_y);
    memcpy(plots[2].y, energy_y, sizeof energy_y);
    char *description =
        rfd_strf("%s: the application's run with Bullet's solver (stock) and "
                 "the cone solver, from their recordings",
                 title != NULL ? title : "app");
    demo_scene scene;
    memset(&scene, 0, sizeof scene);
    scene.name = "app";
    scene.description = description != NULL ? description : "app";
    scene.explanation =
        "The moving bodies of the application, named ones first (at most "
        "three): their speed, height and energy per kg over time under "
        "each solver, from the two recordings. A recording holds no masses, "
        "so the energy is per kg and leaves rotation out. The 3D viewer "
        "shows the whole scene.";
    scene.plots = nb > 0 ? plots : NULL;
    scene.nplots = nb > 0 ? 3 : 0;

    rfd_report rep;
    memset(&rep, 0, sizeof rep);
    rep.dir = out;
    rep.when = time(NULL);
    rep.gnuplot = getenv("RFDEMO_GNUPLOT");
    if (rep.gnuplot == NULL || *rep.gnuplot == '\0') {
        rep.gnuplot = "gnuplot";
    }
    rfd_scene_out so;
    memset(&so, 0, sizeof so);
    so.scene = &scene;
    rep.scenes = &so;
    rep.nscenes = 1;
    int failures = 0;
    for (int k = 0; k < RFD_SIDES; ++k) {
        rfd_side *sd = &so.side[k];
        sd->ok = side_result(r[k], bodies, nb, &sd->r) == 0;
        sd->rec = name_in(out, rec[k]);
        if (sd->rec == NULL) {
            fprintf(stderr,
                    "rfdemo report: %s is not in %s: the viewer shows "
                    "recordings of its own folder\n",
                    rec[k], out);
            failures++;
        }
        char *file = rfd_strf("app-%s.csv", rfd_side_name(k));
        char *path = file != NULL ? rfd_path(out, file) : NULL;
        if (!sd->ok || path == NULL ||
            demo_series_write_csv(&sd->r.series, path) != 0) {
            fprintf(stderr, "rfdemo report: cannot write %s: %s\n",
                    path != NULL ? path : file, strerror(errno));
            failures++;
            free(file);
        } else {
            sd->csv = file;
        }
        free(path);
    }
    const int bad_plots = rfd_plot_scene(&rep, &so);
    failures += bad_plots < 0 ? 1 : bad_plots;
    failures += rfv_write_report_for(&rep, "rfdemo report");
    if (rfd_write_report(&rep, &err) != 0) {
        fprintf(stderr, "rfdemo report: %s\n",
                err != NULL ? err : "out of memory");
        free(err);
        failures++;
    } else {
        char *html = rfd_path(out, "report.html");
        printf("%d moving bodies plotted; %s\n", nb,
               html != NULL ? html : "report.html");
        free(html);
    }
    rfd_scene_out_free(&so);
    free(rep.gnuplot_error);
    free(description);
    rf_recording_free(r[0]);
    rf_recording_free(r[1]);
    return failures > 0 ? 1 : 0;
}
