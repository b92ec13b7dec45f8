/*
 * rfdemo's A/B viewer (demos/viewer.c): a web page, view.html, that shows
 * two recordings of a run (docs/recording.md) side by side in 3D with one
 * camera and one clock, for every scene of `rfdemo ab` or for any two
 * files (`rfdemo view`).  The page's own files (demos/viewer/view.html,
 * viewer.js) are built into rfdemo (demos/viewer/embed.cmake: rfv_assets),
 * so that rfdemo needs no file at run time but three.js, which it copies
 * from Debian's libjs-three.  How to use it: demos/README.md, "The A/B
 * viewer".
 */
#ifndef RFDEMO_VIEWER_H
#define RFDEMO_VIEWER_H

#include "report.h"

#include <stddef.h>

/* One of the page's static files, as built in (viewer_assets.c, generated
 * at build time; data[len] is a NUL). */
typedef struct rfv_asset {
    const char *name; /* file name in the output folder */
    const unsigned char *data;
    size_t len;
} rfv_asset;

extern const rfv_asset rfv_assets[];
extern const int rfv_nassets;

/* A curve the page draws has at most this many points: a longer series
 * is cut into RFV_MAX_POINTS / 2 runs of rows, each giving its lowest
 * and highest value (the curve's envelope is kept). */
#define RFV_MAX_POINTS 2000

/* A plot shown under the views.  A plot of time (def: DEMO_PLOT_LINES
 * whose x is DEMO_TIME_COLUMN, the runs' simulated time) is drawn by the
 * page itself from the two runs' series (columns x and y[] of def, as
 * gnuplot draws them for the report), with a cursor at the time shown;
 * any other plot is its PNG. */
typedef struct rfv_plot {
    const char *png;   /* PNG file inside the output folder; NULL: none */
    const char *title; /* may be NULL */
    /* the page's own drawing: the plot's declaration and each view's
       series (NULL: that run has none); def NULL: the PNG only */
    const demo_plot *def;
    const demo_series *series[2];
} rfv_plot;

/* Two recordings shown side by side: a scene of an A/B run, or rfdemo
 * view's two files. */
typedef struct rfv_pair {
    const char *name;        /* the scene selector's entry and the page's
                                #anchor (view.html#name) */
    const char *description; /* may be NULL */
    const char *rec[2];      /* the recordings' paths; NULL: none */
    const char *note[2];     /* shown for a missing or partial recording;
                                may be NULL */
    int nplots;
    const rfv_plot *plots;
} rfv_pair;

typedef struct rfv_page {
    const char *dir;       /* output folder (exists) */
    const char *title;     /* the page's title */
    const char *labels[2]; /* the two views' labels ("stock", "cone") */
    const char *report;    /* a page inside dir to link to; NULL: none */
    int npairs;
    const rfv_pair *pairs;
} rfv_page;

/* Writes into p->dir: view.html and viewer.js (built in), view-data.js
 * (RF_VIEW: the pairs, with the data of the plots the page draws, at most
 * RFV_MAX_POINTS points per curve), <name>.js per recording (its bytes in
 * base64, <name> the recording's file name) and three.js's files copied from
 * RFDEMO_THREE_DIR (default /usr/share/javascript/three, Debian's
 * libjs-three).  Returns 0, or -1 with *err a malloc'ed message (NULL
 * when out of memory).  Without three.js it still writes the rest and
 * returns 0 with *warning (malloc'ed, else NULL) saying which package to
 * install: the page then says so too. */
int rfv_write(const rfv_page *p, char **warning, char **err);

/* The page of an A/B run (rfdemo ab): one pair per scene of rep, stock
 * and cone, with the scene's plots (those of time drawn by the page from
 * the runs' series, the others as gnuplot's PNGs); the recordings are
 * rep->dir's (rfd_side.rec).  As rfv_write. */
int rfv_write_report(const rfd_report *rep, char **warning, char **err);

/* rfv_write_report for a command (who: "rfdemo ab", "rfdemo report") that
 * writes its report after the page: on success rep->view = "view.html"
 * (the report links to it) and a warning goes to stderr; on failure the
 * reason goes to stderr.  Returns the failures: 0 or 1. */
int rfv_write_report_for(rfd_report *rep, const char *who);

/* rfdemo view A.rec B.rec --out DIR [--labels A,B] [--title TEXT]: argv[0]
 * is "view".  Exit status: 0, 1 (a recording unreadable, a file not
 * written), 2 (a bad argument). */
int rfv_main(int argc, char **argv);

#endif /* RFDEMO_VIEWER_H */
