/*
 * rfdemo's A/B report (demos/report.c, report_plot.c; the document model
 * and its renderers in report_doc.h): the results of a scene run once
 * with each solver, its plots drawn by gnuplot, and report.md and
 * report.html written into the output folder.
 */
#ifndef RFDEMO_REPORT_H
#define RFDEMO_REPORT_H

#include "demo.h"

#include <time.h>

enum { RFD_STOCK = 0, RFD_CONE = 1, RFD_SIDES = 2 };

/* printf into a malloc'ed string; NULL when out of memory. */
char *rfd_strf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* dir/name, malloc'ed (no doubled '/'); NULL when out of memory. */
char *rfd_path(const char *dir, const char *name);
/* Opens dir/name for writing: the stream and *path (dir/name, malloc'ed;
 * rfd_close_out frees it), or NULL with *err (malloc'ed; NULL when out of
 * memory) and *path NULL. */
FILE *rfd_open_out(const char *dir, const char *name, char **path, char **err);
/* Closes f, opened by rfd_open_out as path (freed here): 0, or -1 with
 * *err when a write failed.  bad: the caller's own writing failed. */
int rfd_close_out(FILE *f, char *path, int bad, char **err);
/* Creates folder dir and its parents (those that exist are fine): 0, or
 * -1 with *err (malloc'ed; NULL when out of memory). */
int rfd_make_dir(const char *dir, char **err);
/* 1 when name is usable as a file name stem: [A-Za-z0-9_.-]+, not
 * starting with '.'. */
int rfd_safe_name(const char *name);
/* The solver's file and column name: "stock" or "cone". */
const char *rfd_side_name(int side);

/* One drawn (or missing) plot. */
typedef struct rfd_plot_out {
    char *png;  /* file name inside the folder once drawn, else NULL */
    char *note; /* why it is missing, or gnuplot's warnings; NULL: none */
    int failed; /* 1: it should have been drawn and was not (exit 1) */
} rfd_plot_out;

/* One solver's run of a scene. */
typedef struct rfd_side {
    int ok;          /* demo_run succeeded */
    demo_result r;   /* the result (r.error: the failure) */
    double seconds;  /* wall time of the run */
    char *csv;       /* file name inside the folder once written, else NULL */
    char *csv_error; /* why the CSV is missing, else NULL */
    char *pcsv;      /* the particles table's CSV file name inside the
                        folder, once written (none when it is empty) */
    char *rec;       /* the run's recording (docs/recording.md), file name
                        inside the folder, once written */
} rfd_side;

typedef struct rfd_scene_out {
    const demo_scene *scene;
    int steps; /* steps asked for (demo_steps) */
    rfd_side side[RFD_SIDES];
    int nplots;          /* scene->nplots once rfd_plot_scene ran */
    rfd_plot_out *plots; /* nplots entries */
} rfd_scene_out;

typedef struct rfd_report {
    const char *dir;     /* output folder (exists) */
    const char *command; /* the command line, for the report (may be NULL) */
    time_t when;
    int quick;               /* --quick */
    int steps;               /* --steps (0: each scene's) */
    double dt;               /* --dt (0: 1/60) */
    const rf_config *config; /* --model given: the cone config, else NULL */
    const demo_set *set;     /* --set */
    int nset;
    const char *gnuplot; /* the gnuplot program (PATH searched) */
    char *gnuplot_error; /* set once gnuplot cannot be started: the later
                            plots are not tried */
    int nscenes;
    rfd_scene_out *scenes;
    const char *view; /* the 3D A/B viewer's page inside dir (view.html),
                         once written: each scene links to it; else NULL */
} rfd_report;

/* Draws the scene's plots (scene->plots) from its CSV files with gnuplot:
 * writes <dir>/<scene>-<plot>.gp and runs it in dir, giving
 * <dir>/<scene>-<plot>.png.  Fills s->plots.  Returns the number of plots
 * that failed (gnuplot missing or failing, a bad plot name), or -1 when out
 * of memory.  A plot without data (no run gave rows, the series lacks one
 * of its columns, no finite values) is not drawn and not a failure: its
 * note says why. */
int rfd_plot_scene(rfd_report *rep, rfd_scene_out *s);

/* Writes <dir>/report.md and <dir>/report.html.  0, or -1 with a
 * malloc'ed message in *err (NULL when out of memory). */
int rfd_write_report(const rfd_report *rep, char **err);

/* rfdemo report STOCK.rec CONE.rec --out DIR [--title TEXT]: the A/B
 * report of two recordings of any application (demos/report_rec.c):
 * plots of time for its moving bodies (speed, height, energy per kg;
 * named bodies first), their travel and end speed, and the 3D viewer.
 * Returns the exit status (0, 1 a file or plot failed, 2 bad use). */
int rfd_report_main(int argc, char **argv);

/* Releases what a scene's runs and plots hold (not s itself). */
void rfd_scene_out_free(rfd_scene_out *s);

#endif /* RFDEMO_REPORT_H */
