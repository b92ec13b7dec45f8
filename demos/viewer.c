/*
 * rfdemo's A/B viewer (viewer.h): writes the page and what it loads.
 *
 * The page opens from the file system (a file:// URL) with no network, and
 * there browsers refuse fetch() and XMLHttpRequest of the files beside it
 * but run <script src> ones: so each recording is written as a script,
 * <name>.js, setting RF_RECORDINGS["<name>"] to the .rec file's bytes in
 * base64 (decoded and read by viewer.js, docs/recording.md), and the list
 * of pairs as view-data.js.  three.js is Debian's libjs-three (r111),
 * copied next to the page: not in the repository, not fetched.
 */
#define _POSIX_C_SOURCE 200809L

#include "viewer.h"

#include "rollfric/record.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Where libjs-three puts three.js, and the files the page loads from it
   (view.html's <script> tags): the first two are needed, the last two
   draw convex hulls (else shown as their points). */
#define RFV_THREE_DIR "/usr/share/javascript/three"
static const struct {
    const char *from, *to;
    int needed;
} three_files[] = {
    {"three.min.js", "three.min.js", 1},
    {"examples/js/controls/OrbitControls.js", "OrbitControls.js", 1},
    {"examples/js/math/ConvexHull.js", "ConvexHull.js", 0},
    {"examples/js/geometries/ConvexGeometry.js", "ConvexGeometry.js", 0},
};

/* ---- files ---- */

/* Ends a copy from in (read from `from`) into out (written to path,
   freed): 0, or -1 with *err when the read or the write failed. */
static int close_copy(FILE *in, const char *from, FILE *out, char *path,
                      char **err)
{
    if (ferror(in)) {
        *err = rfd_strf("cannot read %s: %s", from, strerror(errno));
        fclose(in);
        fclose(out);
        free(path);
        return -1;
    }
    fclose(in);
    return rfd_close_out(out, path, 0, err);
}

static int write_bytes(const char *dir, const char *name,
                       const unsigned char *data, size_t len, char **err)
{
    char *path;
    FILE *f = rfd_open_out(dir, name, &path, err);
    if (f == NULL) {
        return -1;
    }
    fwrite(data, 1, len, f);
    return rfd_close_out(f, path, 0, err);
}

/* Copies from into dir/to: 0; 1 when from does not exist (nothing
   written); -1 with *err. */
static int copy_file(const char *from, const char *dir, const char *to,
                     char **err)
{
    FILE *in = fopen(from, "rb");
    if (in == NULL) {
        if (errno == ENOENT) {
            return 1;
        }
        *err = rfd_strf("cannot read %s: %s", from, strerror(errno));
        return -1;
    }
    char *path;
    FILE *out = rfd_open_out(dir, to, &path, err);
    if (out == NULL) {
        fclose(in);
        return -1;
    }
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
        fwrite(buf, 1, n, out);
    }
    return close_copy(in, from, out, path, err);
}

/* Copies three.js's files next to the page: 0, 1 when a needed one is
   missing (*warning says what to install), -1 with *err. */
static int copy_three(const char *dir, char **warning, char **err)
{
    const char *src = getenv("RFDEMO_THREE_DIR");
    if (src == NULL || *src == '\0') {
        src = RFV_THREE_DIR;
    }
    const int n = (int)(sizeof three_files / sizeof three_files[0]);
    for (int i = 0; i < n; ++i) {
        char *from = rfd_path(src, three_files[i].from);
        if (from == NULL) {
            *err = NULL;
            return -1;
        }
        const int rc = copy_file(from, dir, three_files[i].to, err);
        if (rc == 1 && three_files[i].needed) {
            *warning = rfd_strf("three.js is not installed (%s is missing): "
                                "the viewer needs Debian's libjs-three "
                                "(apt-get install libjs-three), then run "
                                "rfdemo again; the rest is written",
                                from);
            free(from);
            return 1;
        }
        free(from);
        if (rc < 0) {
            return -1;
        }
    }
    return 0;
}

/* A JavaScript string literal (also JSON): quotes, backslashes, control
   characters and "</" escaped; other UTF-8 as is (the page is UTF-8). */
static void js_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *c = (const unsigned char *)s; *c; ++c) {
        if (*c == '"' || *c == '\\') {
            fprintf(f, "\\%c", *c);
        } else if (*c < 0x20 || *c == 0x7f) {
            fprintf(f, "\\u%04x", *c);
        } else if (*c == '<' && c[1] == '/') {
            fputs("<\\", f);
        } else {
            fputc(*c, f);
        }
    }
    fputc('"', f);
}

static void js_string_or_null(FILE *f, const char *s)
{
    if (s != NULL) {
        js_string(f, s);
    } else {
        fputs("null", f);
    }
}

/* Writes dir/<key>.js: the recording at rec_path as
   RF_RECORDINGS["<key>"] = "<base64>";.  0, or -1 with *err. */
static int write_recording_js(const char *rec_path, const char *dir,
                              const char *key, char **err)
{
    static const char b64[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    FILE *in = fopen(rec_path, "rb");
    if (in == NULL) {
        *err = rfd_strf("cannot read %s: %s", rec_path, strerror(errno));
        return -1;
    }
    char *name = rfd_strf("%s.js", key), *path = NULL;
    FILE *out = NULL;
    if (name == NULL) {
        *err = NULL; /* out of memory */
    } else {
        out = rfd_open_out(dir, name, &path, err);
        free(name);
    }
    if (out == NULL) {
        fclose(in);
        return -1;
    }
    fputs("/* Written by rfdemo for view.html: a recording "
          "(docs/recording.md) in base64. */\n",
          out);
    fputs("(window.RF_RECORDINGS = window.RF_RECORDINGS || {})[", out);
    js_string(out, key);
    fputs("] =\n\"", out);
    /* 3 bytes in, 4 characters out; a block of whole triples at a time,
       the bytes left over carried to the next read */
    unsigned char buf[3 * 16384];
    char enc[4 * 16384];
    size_t have = 0, n;
    int eof = 0;
    while (!eof) {
        n = fread(buf + have, 1, sizeof buf - have, in);
        have += n;
        eof = n == 0 || feof(in) || ferror(in);
        const size_t whole = eof ? have : have - have % 3;
        size_t o = 0, i = 0;
        for (; i + 3 <= whole; i += 3) {
            const unsigned v =
                (unsigned)buf[i] << 16 | (unsigned)buf[i + 1] << 8 | buf[i + 2];
            enc[o++] = b64[v >> 18];
            enc[o++] = b64[(v >> 12) & 63];
            enc[o++] = b64[(v >> 6) & 63];
            enc[o++] = b64[v & 63];
        }
        if (i < whole) { /* the end: 1 or 2 bytes, padded */
            const unsigned v = (unsigned)buf[i] << 16 |
                               (i + 1 < whole ? (unsigned)buf[i + 1] << 8 : 0);
            enc[o++] = b64[v >> 18];
            enc[o++] = b64[(v >> 12) & 63];
            enc[o++] = i + 1 < whole ? b64[(v >> 6) & 63] : '=';
            enc[o++] = '=';
            i = whole;
        }
        fwrite(enc, 1, o, out);
        memmove(buf, buf + i, have - i);
        have -= i;
    }
    fputs("\";\n", out);
    return close_copy(in, rec_path, out, path, err);
}

/* The file name part of a path. */
static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s != NULL ? s + 1 : path;
}

/* ---- the plots the page draws ---- */

static int ends_with(const char *s, const char *tail)
{
    const size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

/* 1 when the page draws the plot itself: lines against the runs'
   simulated time, where a cursor can show the time of the views. */
static int is_time_plot(const demo_plot *pl)
{
    return pl->kind == DEMO_PLOT_LINES && pl->x != NULL &&
           strcmp(pl->x, DEMO_TIME_COLUMN) == 0;
}

/* Whether column y[j] of the plot is a curve of run k (as the report's
   gnuplot plots, report_plot.c): the run has the x and y columns and a
   row where both are finite; a "_ref" column is drawn once, from run 1
   when it has a series, else from run 0.  *xc, *yc: the columns. */
static int is_curve(const rfv_plot *pl, int j, int k, int *xc, int *yc)
{
    const demo_series *s = pl->series[k];
    const char *y = pl->def->y[j];
    if (s == NULL || (ends_with(y, "_ref") && k == 0 && pl->series[1])) {
        return 0;
    }
    *xc = demo_series_column(s, pl->def->x);
    *yc = demo_series_column(s, y);
    for (int r = 0; *xc >= 0 && *yc >= 0 && r < s->nrows; ++r) {
        if (isfinite(demo_series_at(s, r, *xc)) &&
            isfinite(demo_series_at(s, r, *yc))) {
            return 1;
        }
    }
    return 0;
}

/* The plot's number of curves (0: the page has nothing to draw). */
static int count_curves(const rfv_plot *pl)
{
    int n = 0, xc, yc;
    for (int j = 0; pl->def != NULL && j < 4 && pl->def->y[j] != NULL; ++j) {
        for (int k = 0; k < 2; ++k) {
            n += is_curve(pl, j, k, &xc, &yc);
        }
    }
    return n;
}

/* The rows of a curve (columns xc, yc of s) that the page gets, into
   rows (s->nrows long): every row with a finite x; past RFV_MAX_POINTS
   rows, of each of RFV_MAX_POINTS / 2 runs of rows the lowest and the
   highest y in row order (a run without a finite y: its first row, a gap
   in the curve).  Their number. */
static int curve_rows(const demo_series *s, int xc, int yc, int *rows)
{
    int n = 0;
    if (s->nrows <= RFV_MAX_POINTS) {
        for (int r = 0; r < s->nrows; ++r) {
            if (isfinite(demo_series_at(s, r, xc))) {
                rows[n++] = r;
            }
        }
        return n;
    }
    const long long nb = RFV_MAX_POINTS / 2;
    for (long long b = 0; b < nb; ++b) {
        const int r0 = (int)(s->nrows * b / nb);
        const int r1 = (int)(s->nrows * (b + 1) / nb);
        int lo = -1, hi = -1, gap = -1;
        for (int r = r0; r < r1; ++r) {
            const double y = demo_series_at(s, r, yc);
            if (!isfinite(demo_series_at(s, r, xc))) {
                continue;
            }
            if (!isfinite(y)) {
                gap = gap < 0 ? r : gap;
                continue;
            }
            lo = lo < 0 || y < demo_series_at(s, lo, yc) ? r : lo;
            hi = hi < 0 || y > demo_series_at(s, hi, yc) ? r : hi;
        }
        if (lo < 0) {
            if (gap >= 0) {
                rows[n++] = gap;
            }
            continue;
        }
        rows[n++] = lo < hi ? lo : hi;
        if (lo != hi) {
            rows[n++] = lo < hi ? hi : lo;
        }
    }
    return n;
}

/* A number for JavaScript (%.*g), null when not finite. */
static void js_num(FILE *f, double v, int digits)
{
    if (isfinite(v)) {
        fprintf(f, "%.*g", digits, v);
    } else {
        fputs("null", f);
    }
}

/* The legend's name of the curve of column y of run k (ny plain and nref
   "_ref" columns in the plot; labels: the views'), malloc'ed. */
static char *curve_label(const char *y, int k, int ny, int nref,
                         const char *const labels[2])
{
    if (ends_with(y, "_ref")) {
        return nref == 1 ? rfd_strf("reference")
                         : rfd_strf("%.*s reference", (int)(strlen(y) - 4), y);
    }
    const char *run = labels[k] != NULL ? labels[k] : k ? "B" : "A";
    return ny == 1 ? rfd_strf("%s", run) : rfd_strf("%s (%s)", y, run);
}

/* One curve: {"label", "side", "ref", "k", "points", "x": [], "y": []}.
   0, or -1 when out of memory. */
static int write_curve(FILE *f, const rfv_plot *pl, int j, int k, int index,
                       const char *const labels[2], int ny, int nref)
{
    const demo_series *s = pl->series[k];
    const char *y = pl->def->y[j];
    int xc, yc;
    is_curve(pl, j, k, &xc, &yc);
    int *rows = malloc((size_t)s->nrows * sizeof *rows);
    char *label = curve_label(y, k, ny, nref, labels);
    if (rows == NULL || label == NULL) {
        free(rows);
        free(label);
        return -1;
    }
    const int n = curve_rows(s, xc, yc, rows);
    fputs("{\"label\": ", f);
    js_string(f, label);
    /* a sweep's few points are marked, a time series' many are not */
    fprintf(f, ", \"side\": %d, \"ref\": %d, \"k\": %d, \"points\": %d,\n", k,
            ends_with(y, "_ref"), index, s->nrows <= 50);
    for (int c = 0; c < 2; ++c) {
        fputs(c == 0 ? "        \"x\": [" : "],\n        \"y\": [", f);
        for (int i = 0; i < n; ++i) {
            if (i > 0) {
                fputs(i % 16 ? "," : ",\n", f);
            }
            js_num(f, demo_series_at(s, rows[i], c == 0 ? xc : yc),
                   c == 0 ? 7 : 6);
        }
    }
    fputs("]}", f);
    free(rows);
    free(label);
    return 0;
}

/* The data of a plot the page draws: "live": {"title", "xlabel",
   "ylabel", "logx", "curves": [...]}, each y column for each run, a
   "_ref" column once (is_curve).  0, or -1 when out of memory. */
static int write_live_plot(FILE *f, const rfv_plot *pl,
                           const char *const labels[2])
{
    const demo_plot *d = pl->def;
    int ny = 0, nref = 0;
    for (int j = 0; j < 4 && d->y[j] != NULL; ++j) {
        ++*(ends_with(d->y[j], "_ref") ? &nref : &ny);
    }
    fputs(",\n      \"live\": {\"title\": ", f);
    js_string(f, d->title != NULL ? d->title : d->name);
    fputs(", \"xlabel\": ", f);
    js_string(f, d->xlabel != NULL ? d->xlabel : d->x);
    fputs(", \"ylabel\": ", f);
    js_string(f, d->ylabel != NULL ? d->ylabel : "");
    fprintf(f, ", \"logx\": %d, \"curves\": [", d->logx != 0);
    int ncurve = 0, iy = 0, iref = 0;
    for (int j = 0; j < 4 && d->y[j] != NULL; ++j) {
        const int ref = ends_with(d->y[j], "_ref");
        for (int k = 0; k < 2; ++k) {
            int xc, yc;
            if (!is_curve(pl, j, k, &xc, &yc)) {
                continue;
            }
            fputs(ncurve++ ? ",\n       " : "\n       ", f);
            if (write_curve(f, pl, j, k, ref ? iref : iy, labels, ny, nref)) {
                return -1;
            }
        }
        ++*(ref ? &iref : &iy);
    }
    fputs("]}", f);
    return 0;
}

/* ---- the page ---- */

/* keys[2 i + k]: the name recording k of pair i is loaded by (its file
   name; "a-"/"b-" in front when a pair's two files have the same name;
   "a.rec"/"b.rec" for a name unusable in a file or script). */
static char **recording_keys(const rfv_page *p)
{
    char **keys =
        calloc((size_t)(2 * (p->npairs > 0 ? p->npairs : 1)), sizeof *keys);
    for (int i = 0; keys != NULL && i < p->npairs; ++i) {
        const rfv_pair *pr = &p->pairs[i];
        const int same =
            pr->rec[0] != NULL && pr->rec[1] != NULL &&
            strcmp(base_name(pr->rec[0]), base_name(pr->rec[1])) == 0;
        for (int k = 0; k < 2; ++k) {
            if (pr->rec[k] == NULL) {
                continue;
            }
            const char *b = base_name(pr->rec[k]);
            char *key = !rfd_safe_name(b) ? rfd_strf("%c.rec", 'a' + k)
                        : same            ? rfd_strf("%c-%s", 'a' + k, b)
                                          : rfd_strf("%s", b);
            if (key == NULL) {
                for (int j = 0; j < 2 * p->npairs; ++j) {
                    free(keys[j]);
                }
                free(keys);
                return NULL;
            }
            keys[2 * i + k] = key;
        }
    }
    return keys;
}

/* view-data.js: RF_VIEW = {title, labels, report, scenes: [{name,
   description, recs, notes, plots: [{png, title, live}]}]} (live: the
   data of a plot the page draws, write_live_plot). */
static int write_view_data(const rfv_page *p, char *const *keys, char **err)
{
    char *path;
    FILE *f = rfd_open_out(p->dir, "view-data.js", &path, err);
    if (f == NULL) {
        return -1;
    }
    fputs("/* Written by rfdemo: what view.html shows (viewer.js reads "
          "RF_VIEW). */\nvar RF_VIEW = {\n  \"title\": ",
          f);
    js_string(f, p->title != NULL ? p->title : "A/B viewer");
    fputs(",\n  \"labels\": [", f);
    js_string(f, p->labels[0] != NULL ? p->labels[0] : "A");
    fputs(", ", f);
    js_string(f, p->labels[1] != NULL ? p->labels[1] : "B");
    fputs("],\n  \"report\": ", f);
    js_string_or_null(f, p->report);
    fputs(",\n  \"scenes\": [", f);
    for (int i = 0; i < p->npairs; ++i) {
        const rfv_pair *pr = &p->pairs[i];
        fputs(i ? ",\n    {" : "\n    {", f);
        fputs("\"name\": ", f);
        js_string(f, pr->name != NULL ? pr->name : "?");
        fputs(", \"description\": ", f);
        js_string_or_null(f, pr->description);
        fputs(",\n     \"recs\": [", f);
        js_string_or_null(f, keys[2 * i]);
        fputs(", ", f);
        js_string_or_null(f, keys[2 * i + 1]);
        fputs("], \"notes\": [", f);
        js_string_or_null(f, pr->note[0]);
        fputs(", ", f);
        js_string_or_null(f, pr->note[1]);
        fputs("],\n     \"plots\": [", f);
        for (int j = 0; j < pr->nplots; ++j) {
            const rfv_plot *pl = &pr->plots[j];
            fputs(j ? ",\n      {\"png\": " : "\n      {\"png\": ", f);
            js_string_or_null(f, pl->png);
            fputs(", \"title\": ", f);
            js_string_or_null(f, pl->title);
            if (count_curves(pl) > 0 &&
                write_live_plot(f, pl, (const char *const *)p->labels) != 0) {
                fclose(f);
                free(path);
                *err = NULL; /* out of memory */
                return -1;
            }
            fputc('}', f);
        }
        fputs("]}", f);
    }
    fputs("\n  ]\n};\n", f);
    return rfd_close_out(f, path, 0, err);
}

int rfv_write(const rfv_page *p, char **warning, char **err)
{
    *warning = *err = NULL;
    char **keys = recording_keys(p);
    if (keys == NULL) {
        return -1;
    }
    int rc = 0;
    for (int i = 0; rc == 0 && i < rfv_nassets; ++i) {
        rc = write_bytes(p->dir, rfv_assets[i].name, rfv_assets[i].data,
                         rfv_assets[i].len, err);
    }
    if (rc == 0) {
        rc = write_view_data(p, keys, err);
    }
    for (int i = 0; rc == 0 && i < p->npairs; ++i) {
        for (int k = 0; rc == 0 && k < 2; ++k) {
            if (keys[2 * i + k] != NULL) {
                rc = write_recording_js(p->pairs[i].rec[k], p->dir,
                                        keys[2 * i + k], err);
            }
        }
    }
    if (rc == 0 && copy_three(p->dir, warning, err) < 0) {
        rc = -1;
    }
    for (int j = 0; j < 2 * p->npairs; ++j) {
        free(keys[j]);
    }
    free(keys);
    return rc;
}

/* ---- rfdemo ab ---- */

int rfv_write_report_for(rfd_report *rep, const char *who)
{
    char *warning = NULL, *err = NULL;
    if (rfv_write_report(rep, &warning, &err) != 0) {
        fprintf(stderr, "%s: the viewer: %s\n", who,
                err != NULL ? err : "out of memory");
        free(err);
        return 1;
    }
    rep->view = "view.html";
    if (warning != NULL) {
        fprintf(stderr, "%s: %s\n", who, warning);
        free(warning);
    }
    return 0;
}

int rfv_write_report(const rfd_report *rep, char **warning, char **err)
{
    *warning = *err = NULL;
    const int n = rep->nscenes;
    rfv_pair *pairs = calloc((size_t)(n > 0 ? n : 1), sizeof *pairs);
    char **owned = calloc((size_t)(4 * (n > 0 ? n : 1)), sizeof *owned);
    int rc = pairs != NULL && owned != NULL ? 0 : -1;
    for (int i = 0; rc == 0 && i < n; ++i) {
        const rfd_scene_out *so = &rep->scenes[i];
        rfv_pair *pr = &pairs[i];
        pr->name = so->scene->name;
        pr->description = so->scene->description;
        for (int k = 0; rc == 0 && k < RFD_SIDES; ++k) {
            const rfd_side *sd = &so->side[k];
            char *path = sd->rec != NULL ? rfd_path(rep->dir, sd->rec) : NULL;
            if (sd->rec != NULL && path == NULL) {
                rc = -1;
                break;
            }
            /* a run that failed may have left part of its recording
               (rollfric's writer flushes each frame): shown, with a note */
            struct stat st;
            if (path != NULL && stat(path, &st) != 0) {
                free(path);
                path = NULL;
            }
            owned[4 * i + k] = path;
            pr->rec[k] = path;
            if (!sd->ok) {
                owned[4 * i + 2 + k] =
                    rfd_strf("the %s run failed%s", rfd_side_name(k),
                             path != NULL ? ": its recording stops there" : "");
                pr->note[k] = owned[4 * i + 2 + k];
            } else if (path == NULL) {
                pr->note[k] = "no recording";
            }
        }
        const int np = so->scene->plots != NULL ? so->scene->nplots : 0;
        rfv_plot *plots = calloc((size_t)(np > 0 ? np : 1), sizeof *plots);
        if (plots == NULL) {
            rc = -1;
            break;
        }
        for (int j = 0; j < np; ++j) {
            rfv_plot *pl = &plots[pr->nplots];
            const demo_plot *def = &so->scene->plots[j];
            pl->png = j < so->nplots ? so->plots[j].png : NULL;
            pl->title = def->title;
            if (is_time_plot(def)) { /* drawn by the page, with a cursor */
                pl->def = def;
                for (int k = 0; k < RFD_SIDES; ++k) {
                    const rfd_side *sd = &so->side[k];
                    pl->series[k] =
                        sd->ok && sd->r.series.nrows > 0 ? &sd->r.series : NULL;
                }
                if (count_curves(pl) == 0) {
                    pl->def = NULL;
                }
            }
            pr->nplots += pl->png != NULL || pl->def != NULL;
        }
        pr->plots = plots;
    }
    if (rc == 0) {
        char *title =
            rfd_strf("A/B viewer: %s",
                     rep->command != NULL ? rep->command : "rfdemo ab");
        const rfv_page page = {
            .dir = rep->dir,
            .title = title,
            .labels = {rfd_side_name(RFD_STOCK), rfd_side_name(RFD_CONE)},
            .report = "report.html",
            .npairs = n,
            .pairs = pairs,
        };
        rc = title != NULL ? rfv_write(&page, warning, err) : -1;
        free(title);
    }
    for (int i = 0; pairs != NULL && i < n; ++i) {
        free((void *)pairs[i].plots);
    }
    for (int j = 0; owned != NULL && j < 4 * n; ++j) {
        free(owned[j]);
    }
    free(owned);
    free(pairs);
    return rc;
}

/* ---- rfdemo view ---- */

static int view_bad(const char *fmt, const char *arg)
{
    fputs("rfdemo view: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(rfdemo --help shows the usage)\n", stderr);
    return 2;
}

/* mkdir -p dir: 0, or -1 with *err. */
static int make_folder(const char *dir, char **err)
{
    char *p = rfd_strf("%s", dir);
    if (p == NULL) {
        *err = NULL;
        return -1;
    }
    for (char *q = p + 1;; ++q) {
        if (*q != '/' && *q != '\0') {
            continue;
        }
        const char c = *q;
        *q = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
            *err = rfd_strf("cannot create folder %s: %s", p, strerror(errno));
            free(p);
            return -1;
        }
        *q = c;
        if (c == '\0') {
            break;
        }
    }
    free(p);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        *err = rfd_strf("%s is not a folder", dir);
        return -1;
    }
    return 0;
}

/* Reads a recording through the C reader, so that a file the page could
   not show is refused here with the reader's message; prints what it
   holds. */
static int check_recording(const char *label, const char *path)
{
    rf_recording *r;
    rf_error e;
    if (rf_recording_read(path, &r, &e) != RF_OK) {
        fprintf(stderr, "rfdemo view: %s\n", e.message);
        return -1;
    }
    long contacts = 0;
    for (int f = 0; f < r->nframe; ++f) {
        contacts += r->frames[f].ncontact;
    }
    printf("%s: %s: %d bodies, %d frames to t = %.6g s", label, path, r->nbody,
           r->nframe, r->nframe > 0 ? r->frames[r->nframe - 1].time : 0.0);
    if (r->has_contacts) {
        printf(", %ld contact points", contacts);
    }
    printf("%s\n", r->complete ? "" : " (cut short: no end mark)");
    rf_recording_free(r);
    return 0;
}

int rfv_main(int argc, char **argv)
{
    const char *rec[2] = {NULL, NULL}, *out = NULL, *labels = NULL,
               *title = NULL;
    int nrec = 0;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            puts("usage: rfdemo view A.rec B.rec --out DIR [--labels A,B] "
                 "[--title TEXT]\n"
                 "Writes DIR/view.html: the two recordings side by side in "
                 "3D (demos/README.md,\n\"The A/B viewer\"); its path is the "
                 "last line printed.");
            return 0;
        } else if (strcmp(arg, "--out") == 0 || strcmp(arg, "--labels") == 0 ||
                   strcmp(arg, "--title") == 0) {
            if (val == NULL || *val == '\0') {
                return view_bad("%s needs a value", arg);
            }
            *(arg[2] == 'o' ? &out : arg[2] == 'l' ? &labels : &title) = val;
            ++i;
        } else if (arg[0] == '-') {
            return view_bad("unknown option \"%s\"", arg);
        } else if (nrec < 2) {
            rec[nrec++] = arg;
        } else {
            return view_bad("\"%s\": give exactly two recordings", arg);
        }
    }
    if (nrec != 2) {
        return view_bad("%s", "give two recordings (A.rec B.rec)");
    }
    if (out == NULL) {
        return view_bad("%s", "--out DIR is required (the page's folder)");
    }
    char label[2][64];
    const char *comma = labels != NULL ? strchr(labels, ',') : NULL;
    if (labels != NULL) {
        const size_t l0 = comma != NULL ? (size_t)(comma - labels) : 0;
        if (comma == NULL || l0 == 0 || l0 >= sizeof label[0] ||
            comma[1] == '\0' || strchr(comma + 1, ',') != NULL ||
            strlen(comma + 1) >= sizeof label[1]) {
            return view_bad("--labels: \"%s\" is not two names A,B (each "
                            "1 to 63 characters)",
                            labels);
        }
        memcpy(label[0], labels, l0);
        label[0][l0] = '\0';
        snprintf(label[1], sizeof label[1], "%s", comma + 1);
    } else { /* the file names, the paths when they are the same */
        const int same = strcmp(base_name(rec[0]), base_name(rec[1])) == 0;
        for (int k = 0; k < 2; ++k) {
            snprintf(label[k], sizeof label[k], "%s",
                     same ? rec[k] : base_name(rec[k]));
        }
    }
    for (int k = 0; k < 2; ++k) {
        if (check_recording(label[k], rec[k]) != 0) {
            return 1;
        }
    }
    char *err = NULL, *warning = NULL;
    if (make_folder(out, &err) != 0) {
        fprintf(stderr, "rfdemo view: %s\n",
                err != NULL ? err : "out of memory");
        free(err);
        return 1;
    }
    char *deftitle = rfd_strf("A/B viewer: %s | %s", label[0], label[1]);
    const rfv_pair pair = {
        .name = deftitle != NULL ? deftitle + strlen("A/B viewer: ") : "",
        .description = NULL,
        .rec = {rec[0], rec[1]},
    };
    const rfv_page page = {
        .dir = out,
        .title = title != NULL ? title : deftitle,
        .labels = {label[0], label[1]},
        .report = NULL,
        .npairs = 1,
        .pairs = &pair,
    };
    const int rc = page.title != NULL ? rfv_write(&page, &warning, &err) : -1;
    free(deftitle);
    if (rc != 0) {
        fprintf(stderr, "rfdemo view: %s\n",
                err != NULL ? err : "out of memory");
        free(err);
        return 1;
    }
    if (warning != NULL) {
        fprintf(stderr, "rfdemo view: %s\n", warning);
        free(warning);
    }
    char *html = rfd_path(out, "view.html");
    if (html == NULL) {
        fputs("rfdemo view: out of memory\n", stderr);
        return 1;
    }
    printf("%s\n", html);
    free(html);
    return fflush(stdout) != 0 ? 1 : 0;
}
