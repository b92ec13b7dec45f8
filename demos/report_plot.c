/*
 * rfdemo's plots (report.h: rfd_plot_scene): for each plot a scene
 * declares, a gnuplot script written next to the CSV files it reads, run
 * by gnuplot as a child process in the output folder, giving a PNG that
 * the report shows (report.c, report_doc.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define OOM "out of memory"

static const char *nz(const char *s)
{
    return s != NULL ? s : OOM;
}

static int ends_with(const char *s, const char *tail)
{
    const size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

/* ---- running gnuplot ---- */

static void close_pipes(int out[2], int err[2])
{
    close(out[0]);
    close(out[1]);
    close(err[0]);
    close(err[1]);
}

/* The pipes of run_program: out carries the child's stdout and stderr,
   err why its exec failed (closed by a successful exec, so an empty read
   means it started).  0, or -1 with *why (malloc'ed). */
static int make_pipes(int out[2], int err[2], const char *prog, char **why)
{
    if (pipe(out) != 0) {
        *why = rfd_strf("cannot run %s: pipe: %s", prog, strerror(errno));
        return -1;
    }
    if (pipe(err) != 0) {
        *why = rfd_strf("cannot run %s: pipe: %s", prog, strerror(errno));
        close(out[0]);
        close(out[1]);
        return -1;
    }
    if (fcntl(err[1], F_SETFD, FD_CLOEXEC) != 0 ||
        fcntl(err[0], F_SETFD, FD_CLOEXEC) != 0 ||
        fcntl(out[0], F_SETFD, FD_CLOEXEC) != 0) {
        *why = rfd_strf("cannot run %s: fcntl: %s", prog, strerror(errno));
        close_pipes(out, err);
        return -1;
    }
    return 0;
}

/* The child of run_program: only async-signal-safe calls (it is a copy
   of the parent after fork).  A failure goes to err as {stage (1 chdir,
   2 exec), errno}. */
static _Noreturn void run_child(const char *prog, const char *arg,
                                const char *dir, int out, int err)
{
    int fail[2] = {0, 0};
    const int null = open("/dev/null", O_RDONLY);
    if (null >= 0) {
        dup2(null, 0);
        close(null);
    }
    dup2(out, 1);
    dup2(out, 2);
    close(out);
    if (chdir(dir) != 0) {
        fail[0] = 1;
        fail[1] = errno;
    } else {
        execlp(prog, prog, arg, (char *)NULL);
        fail[0] = 2;
        fail[1] = errno;
    }
    ssize_t w = write(err, fail, sizeof fail);
    (void)w;
    _exit(127);
}

/* What the child writes to fd until it closes it: the first 4 KB kept,
   trailing blanks cut; NULL when empty or out of memory. */
static char *read_output(int fd)
{
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap + 1);
    for (;;) {
        char chunk[1024];
        const ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        /* keep the first cap bytes; read on so the child never blocks */
        if (buf != NULL && len < cap) {
            const size_t k = (size_t)n < cap - len ? (size_t)n : cap - len;
            memcpy(buf + len, chunk, k);
            len += k;
        }
    }
    if (buf != NULL) {
        while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' ' ||
                           buf[len - 1] == '\r' || buf[len - 1] == '\t')) {
            --len;
        }
        buf[len] = '\0';
        if (len == 0) {
            free(buf);
            buf = NULL;
        }
    }
    return buf;
}

/* Runs `prog arg` in folder dir, stdin from /dev/null, stdout and stderr
 * collected into *output (malloc'ed, at most ~4 KB kept, NULL when empty
 * or out of memory).  Returns the wait status (>= 0), or -1 when the
 * child could not be started (*why: malloc'ed message). */
static int run_program(const char *prog, const char *arg, const char *dir,
                       char **output, char **why)
{
    int out[2], err[2];
    *output = NULL;
    *why = NULL;
    if (make_pipes(out, err, prog, why) != 0) {
        return -1;
    }
    const pid_t pid = fork();
    if (pid < 0) {
        *why = rfd_strf("cannot run %s: fork: %s", prog, strerror(errno));
        close_pipes(out, err);
        return -1;
    }
    if (pid == 0) {
        run_child(prog, arg, dir, out[1], err[1]);
    }
    close(out[1]);
    close(err[1]);
    char *buf = read_output(out[0]);
    close(out[0]);
    int fail[2] = {0, 0};
    ssize_t got;
    do {
        got = read(err[0], fail, sizeof fail);
    } while (got < 0 && errno == EINTR);
    close(err[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            *why =
                rfd_strf("cannot run %s: waitpid: %s", prog, strerror(errno));
            free(buf);
            return -1;
        }
    }
    if (got == (ssize_t)sizeof fail) {
        *why = fail[0] == 1
                   ? rfd_strf("cannot run %s: cannot enter %s: %s", prog, dir,
                              strerror(fail[1]))
                   : rfd_strf("cannot run %s: %s", prog, strerror(fail[1]));
        free(buf);
        return -1;
    }
    *output = buf;
    return status;
}

/* A gnuplot single-quoted string: ' doubled, line breaks as spaces. */
static void gp_str(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; s != NULL && *s; ++s) {
        if (*s == '\'') {
            fputs("''", f);
        } else if (*s == '\n' || *s == '\r') {
            fputc(' ', f);
        } else {
            fputc(*s, f);
        }
    }
    fputc('\'', f);
}

/* The terminal: PNG of w x h pixels (pngcairo where gnuplot has it)
   into the file png. */
static void gp_terminal(FILE *f, int w, int h, const char *png)
{
    fprintf(f,
            "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
            "    set terminal pngcairo size %d,%d noenhanced font ',11'\n"
            "} else {\n"
            "    set terminal png size %d,%d noenhanced\n"
            "}\nset output ",
            w, h, w, h);
    gp_str(f, png);
    fputc('\n', f);
}

/* A number as the CSV files print it (demo_series_write_csv: %.9g), so
   that gnuplot compares it with what it reads there bit for bit. */
static void gp_num(FILE *f, double x)
{
    fprintf(f, "%.9g", x);
}

/* The table a plot of that kind reads, and its CSV file (NULL: none). */
static const demo_series *plot_table(const demo_plot *pl, const rfd_side *sd,
                                     const char **csv)
{
    if (pl->kind == DEMO_PLOT_PARTICLES) {
        *csv = sd->pcsv;
        return &sd->r.particles;
    }
    *csv = sd->csv;
    return &sd->r.series;
}

typedef struct curve {
    int side;
    int xcol, ycol; /* 1-based CSV columns */
    int ref;        /* the reference curve */
    int k;          /* index among the plot's curves of its kind */
    char title[2 * DEMO_NAME_LEN + 16];
} curve;

/* 1 when the column has a finite value where x is finite. */
static int has_points(const demo_series *s, int xc, int yc)
{
    for (int r = 0; r < s->nrows; ++r) {
        if (isfinite(demo_series_at(s, r, xc)) &&
            isfinite(demo_series_at(s, r, yc))) {
            return 1;
        }
    }
    return 0;
}

static int plot_note(rfd_plot_out *po, int failed, char *note)
{
    po->note = note;
    po->failed = failed;
    return failed;
}

/* What a plot writer found: 0 written, 1 nothing to draw (*note: why;
   failed: whether that is the scene's fault), -1 out of memory. */
typedef struct body_out {
    char *note;
    int failed;
} body_out;

static int body_none(body_out *bo, int failed, char *note)
{
    bo->note = note;
    bo->failed = failed;
    return note != NULL ? 1 : -1;
}

/* The first column of names[0..n) the side's table lacks, or NULL. */
static const char *missing_column(const demo_series *s,
                                  const char *const *names, int n)
{
    for (int j = 0; j < n; ++j) {
        if (names[j] != NULL && demo_series_column(s, names[j]) < 0) {
            return names[j];
        }
    }
    return NULL;
}

/* The legend's name of curve c of column y (ny plain and nref "_ref"
   columns in the plot): the solver alone where the plot has one y. */
static void curve_title(curve *c, const char *y, int ny, int nref)
{
    if (c->ref && nref == 1) {
        snprintf(c->title, sizeof c->title, "reference");
    } else if (c->ref) {
        snprintf(c->title, sizeof c->title, "%.*s reference",
                 (int)(strlen(y) - 4), y);
    } else if (ny == 1) {
        snprintf(c->title, sizeof c->title, "%s", rfd_side_name(c->side));
    } else {
        snprintf(c->title, sizeof c->title, "%s (%s)", y,
                 rfd_side_name(c->side));
    }
}

/* The curves of a lines plot into cv (2 * 4 entries): each y for stock
   and cone, each "_ref" y once (from the cone run, else stock's).  A y
   column a run did not record (one value of a sweep the parameters left
   out) is no curve.  Their number. */
static int lines_curves(const rfd_scene_out *so, const demo_plot *pl,
                        const int data[RFD_SIDES], int ny, int nref, curve *cv)
{
    int ncv = 0, iy = 0, iref = 0;
    for (int j = 0; j < 4 && pl->y[j] != NULL; ++j) {
        const char *y = pl->y[j];
        const int ref = ends_with(y, "_ref");
        for (int k = 0; k < RFD_SIDES; ++k) {
            if (!data[k] || (ref && k == RFD_STOCK && data[RFD_CONE])) {
                continue;
            }
            const demo_series *s = &so->side[k].r.series;
            const int xc = demo_series_column(s, pl->x);
            const int yc = demo_series_column(s, y);
            if (!has_points(s, xc, yc)) {
                continue;
            }
            curve *c = &cv[ncv++];
            c->side = k;
            c->xcol = xc + 1;
            c->ycol = yc + 1;
            c->ref = ref;
            c->k = ref ? iref : iy;
            curve_title(c, y, ny, nref);
        }
        if (ref) {
            ++iref;
        } else {
            ++iy;
        }
    }
    return ncv;
}

/* One curve of the plot command: its CSV file, columns, style, title. */
static void gp_curve(FILE *f, const rfd_scene_out *so, const curve *c)
{
    static const char *const stock_lc[4] = {"#d62728", "#ff7f0e", "#8c564b",
                                            "#e377c2"};
    static const char *const cone_lc[4] = {"#1f77b4", "#2ca02c", "#17becf",
                                           "#9467bd"};
    static const char *const ref_lc[4] = {"#000000", "#555555", "#7f7f7f",
                                          "#333333"};
    gp_str(f, so->side[c->side].csv);
    /* a sweep's few points marked, a time series' many not */
    fprintf(f, " using %d:%d with %s ", c->xcol, c->ycol,
            so->side[c->side].r.series.nrows <= 50 ? "linespoints pt 7 ps 0.8"
                                                   : "lines");
    if (c->ref) {
        fprintf(f, "lw 2 dt %d lc rgb '%s'", 2 + c->k, ref_lc[c->k & 3]);
    } else if (c->side == RFD_STOCK) {
        /* wider, under cone's: both visible where they agree */
        fprintf(f, "lw 4 lc rgb '%s'", stock_lc[c->k & 3]);
    } else {
        fprintf(f, "lw 2 lc rgb '%s'", cone_lc[c->k & 3]);
    }
    fputs(" title ", f);
    gp_str(f, c->title);
}

/* The script of a lines plot: the frame, its labels, the curves. */
static void lines_script(FILE *f, const rfd_scene_out *so, const demo_plot *pl,
                         const curve *cv, int ncv, const char *png)
{
    gp_terminal(f, 960, 600, png);
    fputs("set title ", f);
    gp_str(f, pl->title != NULL ? pl->title : pl->name);
    fputs("\nset xlabel ", f);
    gp_str(f, pl->xlabel != NULL ? pl->xlabel : pl->x);
    fputs("\nset ylabel ", f);
    gp_str(f, pl->ylabel != NULL ? pl->ylabel : "");
    if (pl->logx) {
        fputs("\nset logscale x", f);
    }
    /* the legend beside the plot never hides a curve; 5% of room above and
       below keeps a flat curve off the border */
    fputs("\nset key outside right top box\nset offsets 0, 0, graph 0.05, "
          "graph 0.05"
          "\nset grid\nplot ",
          f);
    for (int i = 0; i < ncv; ++i) {
        if (i) {
            fputs(", \\\n     ", f);
        }
        gp_curve(f, so, &cv[i]);
    }
    fputc('\n', f);
}

/* DEMO_PLOT_LINES: curves y[] against x, stock and cone in one frame. */
static int write_lines(FILE *f, const rfd_scene_out *so, const demo_plot *pl,
                       const int data[RFD_SIDES], const char *png, body_out *bo)
{
    curve cv[2 * 4];
    int ny = 0, nref = 0;
    for (int j = 0; j < 4 && pl->y[j] != NULL; ++j) {
        if (ends_with(pl->y[j], "_ref")) {
            ++nref;
        } else {
            ++ny;
        }
    }
    if (ny + nref == 0 || pl->x == NULL) {
        return body_none(bo, 1,
                         rfd_strf("not drawn: plot %s of scene %s names no %s",
                                  pl->name, so->scene->name,
                                  pl->x == NULL ? "x column" : "y column"));
    }
    for (int k = 0; k < RFD_SIDES; ++k) {
        if (data[k] && demo_series_column(&so->side[k].r.series, pl->x) < 0) {
            /* a plot of another configuration of the scene (e.g. a sweep
               the parameters did not ask for): a note */
            return body_none(
                bo, 0,
                rfd_strf("not drawn: the %s run recorded no column \"%s\" "
                         "(this plot needs other parameters?)",
                         rfd_side_name(k), pl->x));
        }
    }
    const int ncv = lines_curves(so, pl, data, ny, nref, cv);
    if (ncv == 0) {
        return body_none(bo, 0,
                         rfd_strf("not drawn: no finite values in the "
                                  "plotted columns (or none recorded: this "
                                  "plot needs other parameters?)"));
    }
    lines_script(f, so, pl, cv, ncv, png);
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The distinct finite values of column c over rows where columns c2 and
   c3 are finite too, sorted, into v (nrows long); their number. */
static int distinct_values(const demo_series *s, int c, int c2, int c3,
                           double *v)
{
    int n = 0;
    for (int r = 0; r < s->nrows; ++r) {
        const double x = demo_series_at(s, r, c);
        if (isfinite(x) && isfinite(demo_series_at(s, r, c2)) &&
            isfinite(demo_series_at(s, r, c3))) {
            v[n++] = x;
        }
    }
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    int m = 0;
    for (int i = 0; i < n; ++i) {
        if (m == 0 || v[i] != v[m - 1]) {
            v[m++] = v[i];
        }
    }
    return m;
}

/* The cell around v[i] of the sorted grid v[0..n): half way to the
   neighbours (geometric half way on a log axis), mirrored at the ends. */
static void cell_bounds(const double *v, int n, int i, int logx, double *lo,
                        double *hi)
{
    if (n == 1) {
        const double d = v[0] != 0 ? 0.1 * fabs(v[0]) : 0.5;
        *lo = logx ? v[0] / 1.25 : v[0] - d;
        *hi = logx ? v[0] * 1.25 : v[0] + d;
        return;
    }
#define RFD_MID(a, b) (logx ? sqrt((a) * (b)) : 0.5 * ((a) + (b)))
    *lo = i > 0 ? RFD_MID(v[i - 1], v[i]) : 0;
    *hi = i + 1 < n ? RFD_MID(v[i], v[i + 1]) : 0;
    if (i == 0) {
        *lo = logx ? v[0] * v[0] / *hi : 2 * v[0] - *hi;
    }
    if (i + 1 == n) {
        *hi = logx ? v[i] * v[i] / *lo : 2 * v[i] - *lo;
    }
#undef RFD_MID
}

#define RFD_MAX_PANELS 8

/* A map's panels: each run's value column, then the reference's. */
typedef struct map_panels {
    const char *vname, *yname; /* the value, the y axis */
    char refname[DEMO_NAME_LEN + 8];
    int side[RFD_SIDES + 1];
    const char *col[RFD_SIDES + 1]; /* vname or refname */
    int n;
} map_panels;

/* A panel's grid: the distinct x and y values, sorted. */
typedef struct map_grid {
    double *x, *y;
    int nx, ny;
    int logx;
} map_grid;

/* The panels of the runs with data and, where a run recorded it, the
   reference's.  0, or as body_none when a run lacks a column. */
static int map_find_panels(const rfd_scene_out *so, const demo_plot *pl,
                           const int data[RFD_SIDES], map_panels *mp,
                           body_out *bo)
{
    snprintf(mp->refname, sizeof mp->refname, "%s_ref", mp->vname);
    mp->n = 0;
    for (int k = 0; k < RFD_SIDES; ++k) {
        if (!data[k]) {
            continue;
        }
        const char *cols[3] = {pl->x, mp->yname, mp->vname};
        const char *miss = missing_column(&so->side[k].r.series, cols, 3);
        if (miss != NULL) {
            return body_none(
                bo, 0,
                rfd_strf("not drawn: the %s run recorded no column \"%s\" "
                         "(this plot needs other parameters?)",
                         rfd_side_name(k), miss));
        }
        mp->side[mp->n] = k;
        mp->col[mp->n++] = mp->vname;
    }
    const int kref = data[RFD_CONE] ? RFD_CONE : RFD_STOCK;
    if (demo_series_column(&so->side[kref].r.series, mp->refname) >= 0) {
        mp->side[mp->n] = kref;
        mp->col[mp->n++] = mp->refname;
    }
    return 0;
}

/* The colour range common to the panels; 0, or 1 when no value is
   finite. */
static int map_range(const rfd_scene_out *so, const map_panels *mp,
                     double *vmin, double *vmax)
{
    *vmin = INFINITY;
    *vmax = -INFINITY;
    for (int p = 0; p < mp->n; ++p) {
        const demo_series *s = &so->side[mp->side[p]].r.series;
        const int vc = demo_series_column(s, mp->col[p]);
        for (int r = 0; r < s->nrows; ++r) {
            const double v = demo_series_at(s, r, vc);
            if (isfinite(v)) {
                *vmin = fmin(*vmin, v);
                *vmax = fmax(*vmax, v);
            }
        }
    }
    if (!(*vmin <= *vmax)) {
        return 1;
    }
    if (*vmin == *vmax) { /* a range gnuplot accepts */
        *vmax = *vmin + (*vmin != 0 ? 1e-6 * fabs(*vmin) : 1);
    }
    return 0;
}

/* What the panels share: the picture, fill, palette, colour range, axis
   labels, the multiplot layout and its title. */
static void map_header(FILE *f, const demo_plot *pl, const map_panels *mp,
                       double vmin, double vmax, const char *png)
{
    gp_terminal(f, 440 * mp->n + 40, 520, png);
    fputs("set style fill solid 1.0 noborder\n"
          "set style textbox opaque fc rgb '#ffffff' noborder\n"
          "set palette defined (0 '#440154', 0.25 '#3b528b', 0.5 '#21918c', "
          "0.75 '#5ec962', 1 '#fde725')\n",
          f);
    fprintf(f, "set cbrange [%.9g:%.9g]\nset xlabel ", vmin, vmax);
    gp_str(f, pl->xlabel != NULL ? pl->xlabel : pl->x);
    fputs("\nset ylabel ", f);
    gp_str(f, pl->ylabel != NULL ? pl->ylabel : mp->yname);
    fputs(pl->logx ? "\nset logscale x\n" : "\n", f);
    fprintf(f, "set multiplot layout 1,%d title ", mp->n);
    gp_str(f, pl->title != NULL ? pl->title : pl->name);
    fputc('\n', f);
}

/* Panel p's cells as the data block $cells<p>: x, y, the cell's bounds
   and the value (columns c: x, y, value). */
static void map_cells(FILE *f, const demo_series *s, const int c[3],
                      const map_grid *g, int p)
{
    fprintf(f, "$cells%d << EOD\n", p);
    for (int r = 0; r < s->nrows; ++r) {
        const double x = demo_series_at(s, r, c[0]);
        const double y = demo_series_at(s, r, c[1]);
        const double v = demo_series_at(s, r, c[2]);
        if (!isfinite(x) || !isfinite(y) || !isfinite(v)) {
            continue;
        }
        const double *ix =
            bsearch(&x, g->x, (size_t)g->nx, sizeof x, cmp_double);
        const double *iy =
            bsearch(&y, g->y, (size_t)g->ny, sizeof y, cmp_double);
        double xlo, xhi, ylo, yhi;
        cell_bounds(g->x, g->nx, (int)(ix - g->x), g->logx, &xlo, &xhi);
        cell_bounds(g->y, g->ny, (int)(iy - g->y), 0, &ylo, &yhi);
        fprintf(f, "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", x, y, xlo, xhi, ylo,
                yhi, v);
    }
    fputs("EOD\n", f);
}

/* The panel's title and plot command (the values written in the cells
   where they fit); its frame first, the outer bounds of its cells. */
static void map_plot(FILE *f, const map_panels *mp, const map_grid *g, int p)
{
    if (g->nx > 0 && g->ny > 0) {
        double xlo, xhi, ylo, yhi, d;
        cell_bounds(g->x, g->nx, 0, g->logx, &xlo, &d);
        cell_bounds(g->x, g->nx, g->nx - 1, g->logx, &d, &xhi);
        cell_bounds(g->y, g->ny, 0, 0, &ylo, &d);
        cell_bounds(g->y, g->ny, g->ny - 1, 0, &d, &yhi);
        fprintf(f, "set xrange [%.9g:%.9g]\nset yrange [%.9g:%.9g]\n", xlo, xhi,
                ylo, yhi);
    }
    fprintf(f, "set title '%s'\n",
            mp->col[p] == mp->vname ? rfd_side_name(mp->side[p]) : "reference");
    if (g->nx == 0) {
        fputs("set label 1 'no finite values' at graph 0.5, graph 0.5 "
              "center\nplot NaN notitle\nunset label 1\n",
              f);
        return;
    }
    fprintf(f,
            "plot $cells%d using 1:2:3:4:5:6:7 with boxxyerror lc "
            "palette notitle",
            p);
    if (g->nx * g->ny <= 64) {
        fprintf(f,
                ", \\\n     $cells%d using 1:2:(sprintf('%%.3g', "
                "$7)) with labels boxed font ',8' notitle",
                p);
    }
    fputc('\n', f);
}

/* Panel p: its grid, cells and plot.  0, or -1 when out of memory. */
static int map_panel(FILE *f, const rfd_scene_out *so, const demo_plot *pl,
                     const map_panels *mp, int p)
{
    const demo_series *s = &so->side[mp->side[p]].r.series;
    const int c[3] = {demo_series_column(s, pl->x),
                      demo_series_column(s, mp->yname),
                      demo_series_column(s, mp->col[p])};
    map_grid g = {malloc((size_t)(s->nrows + 1) * sizeof *g.x),
                  malloc((size_t)(s->nrows + 1) * sizeof *g.y), 0, 0, pl->logx};
    if (g.x == NULL || g.y == NULL) {
        free(g.x);
        free(g.y);
        return -1;
    }
    g.nx = distinct_values(s, c[0], c[1], c[2], g.x);
    g.ny = distinct_values(s, c[1], c[0], c[2], g.y);
    map_cells(f, s, c, &g, p);
    map_plot(f, mp, &g, p);
    free(g.x);
    free(g.y);
    return 0;
}

/* DEMO_PLOT_MAP: a heat map of y[0] over (x, y[1]) per solver, and its
   reference. */
static int write_map(FILE *f, const rfd_scene_out *so, const demo_plot *pl,
                     const int data[RFD_SIDES], const char *png, body_out *bo)
{
    map_panels mp;
    mp.vname = pl->y[0];
    mp.yname = pl->y[1];
    if (pl->x == NULL || mp.vname == NULL || mp.yname == NULL) {
        return body_none(bo, 1,
                         rfd_strf("not drawn: map %s of scene %s needs x, "
                                  "y[0] (the value) and y[1]",
                                  pl->name, so->scene->name));
    }
    const int rc = map_find_panels(so, pl, data, &mp, bo);
    if (rc != 0) {
        return rc;
    }
    double vmin, vmax;
    if (map_range(so, &mp, &vmin, &vmax) != 0) {
        return body_none(
            bo, 0, rfd_strf("not drawn: no finite values in \"%s\"", mp.vname));
    }
    map_header(f, pl, &mp, vmin, vmax, png);
    for (int p = 0; p < mp.n; ++p) {
        if (map_panel(f, so, pl, &mp, p) != 0) {
            return body_none(bo, 0, NULL);
        }
    }
    fputs("unset multiplot\n", f);
    return 0;
}

/* The least of 1, 2, 5 times a power of ten that is >= x > 0: a tic
   step. */
static double nice_step(double x)
{
    const double p = pow(10, floor(log10(x)));
    return x <= p ? p : x <= 2 * p ? 2 * p : x <= 5 * p ? 5 * p : 10 * p;
}

/* One panel of a particles plot: the values of its group columns. */
typedef struct panel_key {
    double g[2];
} panel_key;

static int cmp_panel(const void *a, const void *b)
{
    const panel_key *p = a, *q = b;
    const int c = cmp_double(&p->g[0], &q->g[0]);
    return c != 0 ? c : cmp_double(&p->g[1], &q->g[1]);
}

/* What the runs' particles tables hold for a particles plot: the
   panels (sorted once all are known), the runs with data, and the box
   around every particle. */
typedef struct particle_scan {
    panel_key keys[RFD_MAX_PANELS];
    int npanel, nside, ng; /* ng: group columns (0 to 2) */
    double xlo, xhi, ylo, yhi;
} particle_scan;

/* Adds the particles of table s to ps; 0, or 1 when they would need
   more than RFD_MAX_PANELS panels. */
static int scan_particles(const demo_series *s, const demo_plot *pl,
                          particle_scan *ps)
{
    const int xc = demo_series_column(s, pl->x);
    const int yc = demo_series_column(s, pl->y[0]);
    const int rc = demo_series_column(s, pl->size);
    for (int r = 0; r < s->nrows; ++r) {
        const double x = demo_series_at(s, r, xc);
        const double y = demo_series_at(s, r, yc);
        const double rad = demo_series_at(s, r, rc);
        if (!isfinite(x) || !isfinite(y) || !isfinite(rad)) {
            continue;
        }
        ps->xlo = fmin(ps->xlo, x - rad);
        ps->xhi = fmax(ps->xhi, x + rad);
        ps->ylo = fmin(ps->ylo, y - rad);
        ps->yhi = fmax(ps->yhi, y + rad);
        panel_key key = {{0, 0}};
        for (int g = 0; g < ps->ng; ++g) {
            key.g[g] =
                demo_series_at(s, r, demo_series_column(s, pl->group[g]));
        }
        int known = 0;
        for (int j = 0; j < ps->npanel && !known; ++j) {
            known = cmp_panel(&ps->keys[j], &key) == 0;
        }
        if (!known) {
            if (ps->npanel == RFD_MAX_PANELS) {
                return 1;
            }
            ps->keys[ps->npanel++] = key;
        }
    }
    return 0;
}

/* Scans the runs with data into ps; 0, or as body_none. */
static int particle_panels(const rfd_scene_out *so, const demo_plot *pl,
                           const int data[RFD_SIDES], particle_scan *ps,
                           body_out *bo)
{
    ps->npanel = ps->nside = 0;
    ps->xlo = ps->ylo = INFINITY;
    ps->xhi = ps->yhi = -INFINITY;
    for (int k = 0; k < RFD_SIDES; ++k) {
        if (!data[k]) {
            continue;
        }
        const demo_series *s = &so->side[k].r.particles;
        const char *cols[5] = {pl->x, pl->y[0], pl->size, pl->group[0],
                               pl->group[1]};
        const char *miss = missing_column(s, cols, 3 + ps->ng);
        if (miss != NULL) {
            return body_none(
                bo, 0,
                rfd_strf("not drawn: the %s run's particles have no column "
                         "\"%s\" (this plot needs other parameters?)",
                         rfd_side_name(k), miss));
        }
        ps->nside++;
        if (scan_particles(s, pl, ps) != 0) {
            return body_none(
                bo, 1,
                rfd_strf("not drawn: particles plot %s of scene %s "
                         "has more than %d panels",
                         pl->name, so->scene->name, RFD_MAX_PANELS));
        }
    }
    if (ps->npanel == 0) {
        return body_none(bo, 0,
                         rfd_strf("not drawn: no particle with finite "
                                  "values"));
    }
    qsort(ps->keys, (size_t)ps->npanel, sizeof *ps->keys, cmp_panel);
    return 0;
}

/* What the panels share: the picture's size, one frame (equal axes),
   the axis labels, the multiplot layout and its title. */
static void particles_header(FILE *f, const demo_plot *pl,
                             const particle_scan *ps, const char *png)
{
    double xlo = ps->xlo, xhi = ps->xhi, ylo = ps->ylo, yhi = ps->yhi;
    if (pl->xrange[0] < pl->xrange[1]) { /* the scene's window */
        xlo = pl->xrange[0];
        xhi = pl->xrange[1];
    }
    /* the same frame in every panel, a little room around the particles */
    const double padx = 0.02 * (xhi - xlo) + 1e-9;
    const double pady = 0.02 * (yhi - ylo) + 1e-9;
    xlo -= padx, xhi += padx, ylo -= pady, yhi += pady;
    /* Equal axes fill the page's width: a wide, low picture (heaps, more
       than twice as wide as high) gets the whole width per panel, stock
       above cone, each panel as high as its data at that scale plus room
       for the title and labels (side by side, gnuplot shrank such panels
       to strips 40 pixels high with a blank column between them); a
       rounder one keeps stock and cone side by side. */
    const double aspect = (yhi - ylo) / (xhi - xlo);
    const int stacked = ps->nside > 1 && aspect < 0.5;
    const int cols = stacked ? 1 : ps->nside;
    const int rows = stacked ? ps->npanel * ps->nside : ps->npanel;
    const int pw = cols == 1 ? 1200 : 780;
    /* the plot area: the panel less the margins gnuplot leaves for the
       tics and labels (about 130 pixels across, 90 down) */
    int ph = (int)((pw - 130) * aspect) + 90;
    ph = ph < 150 ? 150 : ph > 700 ? 700 : ph;
    gp_terminal(f, pw * cols + 20, ph * rows + 50, png);
    fprintf(f,
            "set size ratio -1\nset xrange [%.9g:%.9g]\nset yrange "
            "[%.9g:%.9g]\nset ytics %.9g\nset style fill solid 0.7 "
            "noborder\nset xlabel ",
            xlo, xhi, ylo, yhi, nice_step((yhi - ylo) / 3));
    gp_str(f, pl->xlabel != NULL ? pl->xlabel : pl->x);
    fputs("\nset ylabel ", f);
    gp_str(f, pl->ylabel != NULL ? pl->ylabel : pl->y[0]);
    fprintf(f, "\nset multiplot layout %d,%d title ", rows, cols);
    gp_str(f, pl->title != NULL ? pl->title : pl->name);
    fputc('\n', f);
}

/* Run k's panel of the particles whose group columns hold key (ng of
   them): the rows of other groups are NaN to gnuplot, so not drawn. */
static void particles_panel(FILE *f, const rfd_scene_out *so,
                            const demo_plot *pl, int ng, const panel_key *key,
                            int k)
{
    static const char *const lc[RFD_SIDES] = {"#d62728", "#1f77b4"};
    const demo_series *s = &so->side[k].r.particles;
    char title[160];
    int len = snprintf(title, sizeof title, "%s", rfd_side_name(k));
    for (int g = 0; g < ng && len < (int)sizeof title; ++g) {
        len += snprintf(title + len, sizeof title - (size_t)len, "%s %s = %.4g",
                        g ? "," : ":", pl->group[g], key->g[g]);
    }
    fputs("set title ", f);
    gp_str(f, title);
    fprintf(f, "\nplot ");
    gp_str(f, so->side[k].pcsv);
    fputs(" using (", f);
    for (int g = 0; g < ng; ++g) {
        fprintf(f, "column(%d) == ", demo_series_column(s, pl->group[g]) + 1);
        gp_num(f, key->g[g]);
        fputs(" && ", f);
    }
    fprintf(f,
            "1 ? column(%d) : NaN):%d:%d with circles lc rgb '%s' "
            "notitle\n",
            demo_series_column(s, pl->x) + 1,
            demo_series_column(s, pl->y[0]) + 1,
            demo_series_column(s, pl->size) + 1, lc[k]);
}

/* DEMO_PLOT_PARTICLES: circles of the particles table, a panel per group
   value and solver (stock, then cone), one scale. */
static int write_particles(FILE *f, const rfd_scene_out *so,
                           const demo_plot *pl, const int data[RFD_SIDES],
                           const char *png, body_out *bo)
{
    if (pl->x == NULL || pl->y[0] == NULL || pl->size == NULL) {
        return body_none(bo, 1,
                         rfd_strf("not drawn: particles plot %s of scene %s "
                                  "needs x, y[0] and size",
                                  pl->name, so->scene->name));
    }
    particle_scan ps;
    ps.ng = pl->group[0] == NULL ? 0 : pl->group[1] == NULL ? 1 : 2;
    const int rc = particle_panels(so, pl, data, &ps, bo);
    if (rc != 0) {
        return rc;
    }
    particles_header(f, pl, &ps, png);
    for (int p = 0; p < ps.npanel; ++p) {
        for (int k = 0; k < RFD_SIDES; ++k) {
            if (data[k]) {
                particles_panel(f, so, pl, ps.ng, &ps.keys[p], k);
            }
        }
    }
    fputs("unset multiplot\n", f);
    return 0;
}

/* ---- one plot: its script, gnuplot, the PNG ---- */

/* The file names of a plot's script and picture and their paths in the
   output folder (malloc'ed). */
typedef struct plot_files {
    char *gp_name, *png_name, *gp_path, *png_path;
} plot_files;

static void free_files(plot_files *pf)
{
    free(pf->gp_name);
    free(pf->png_name);
    free(pf->gp_path);
    free(pf->png_path);
}

/* data[k]: whether run k has rows for the plot (in the table of its
   kind, written to a CSV).  The number of such runs; *nempty: the runs
   that finished with an empty table. */
static int runs_with_data(const rfd_scene_out *so, const demo_plot *pl,
                          int data[RFD_SIDES], int *nempty)
{
    int ndata = 0;
    *nempty = 0;
    for (int k = 0; k < RFD_SIDES; ++k) {
        const rfd_side *sd = &so->side[k];
        const char *csv;
        const demo_series *t = plot_table(pl, sd, &csv);
        data[k] = sd->ok && csv != NULL && t->nrows > 0;
        ndata += data[k];
        *nempty += sd->ok && t->nrows == 0;
    }
    return ndata;
}

/* Writes the plot's script (pf->gp_path): a header, then the body of the
   plot's kind.  0 written; 1 not (nothing to draw, or it cannot be
   written: po says why); -1 out of memory. */
static int write_script(const rfd_scene_out *so, const demo_plot *pl,
                        const int data[RFD_SIDES], const plot_files *pf,
                        rfd_plot_out *po)
{
    FILE *f = fopen(pf->gp_path, "w");
    if (f == NULL) {
        plot_note(po, 1,
                  rfd_strf("not drawn: cannot write %s: %s", pf->gp_path,
                           strerror(errno)));
        return 1;
    }
    fprintf(f,
            "# rfdemo ab: scene %s, plot %s (run in this folder: gnuplot "
            "%s)\n",
            so->scene->name, pl->name, pf->gp_name);
    fputs("set datafile separator comma\n", f);
    body_out bo = {NULL, 0};
    const char *png = pf->png_name;
    const int body = pl->kind == DEMO_PLOT_MAP
                         ? write_map(f, so, pl, data, png, &bo)
                     : pl->kind == DEMO_PLOT_PARTICLES
                         ? write_particles(f, so, pl, data, png, &bo)
                         : write_lines(f, so, pl, data, png, &bo);
    const int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        free(bo.note);
        plot_note(po, 1,
                  rfd_strf("not drawn: cannot write %s: %s", pf->gp_path,
                           strerror(errno)));
        return 1;
    }
    if (body != 0) { /* nothing to draw, or out of memory */
        unlink(pf->gp_path);
        if (body < 0) {
            return -1;
        }
        plot_note(po, bo.failed, bo.note);
        return 1;
    }
    return 0;
}

/* The note of a gnuplot that ended badly (wait status st), with what it
   printed (output, NULL: nothing); returns 1. */
static int gnuplot_failed(const rfd_report *rep, const plot_files *pf, int st,
                          const char *output, rfd_plot_out *po)
{
    char how[64];
    if (WIFEXITED(st)) {
        snprintf(how, sizeof how, "exit status %d", WEXITSTATUS(st));
    } else if (WIFSIGNALED(st)) {
        snprintf(how, sizeof how, "killed by signal %d", WTERMSIG(st));
    } else {
        snprintf(how, sizeof how, "wait status %d", st);
    }
    return plot_note(po, 1,
                     rfd_strf("not drawn: %s %s failed (%s)%s%s", rep->gnuplot,
                              pf->gp_path, how, output ? ":\n" : "",
                              output ? output : ""));
}

/* 1 when the file starts as a PNG does; *missing: it cannot be opened. */
static int is_png(const char *path, int *missing)
{
    FILE *png = fopen(path, "rb");
    unsigned char magic[4] = {0, 0, 0, 0};
    const size_t nmagic = png != NULL ? fread(magic, 1, 4, png) : 0;
    *missing = png == NULL;
    if (png != NULL) {
        fclose(png);
    }
    return nmagic == 4 && magic[0] == 0x89 && magic[1] == 'P' &&
           magic[2] == 'N' && magic[3] == 'G';
}

/* Runs gnuplot on the script: 0 when it drew the PNG (gnuplot's warnings,
   if any, in po->note); 1 when not (po says why). */
static int run_script(rfd_report *rep, const plot_files *pf, rfd_plot_out *po)
{
    /* a PNG left from an earlier run must not pass for this one */
    if (unlink(pf->png_path) != 0 && errno != ENOENT) {
        plot_note(po, 1,
                  rfd_strf("not drawn: cannot replace %s: %s", pf->png_path,
                           strerror(errno)));
        return 1;
    }
    char *output = NULL, *why = NULL;
    const int st =
        run_program(rep->gnuplot, pf->gp_name, rep->dir, &output, &why);
    int missing = 0, rc = 1;
    if (st < 0) {
        /* gnuplot cannot be started: do not try the later plots */
        rep->gnuplot_error =
            why != NULL ? why : rfd_strf("cannot run %s", rep->gnuplot);
        plot_note(po, 1, rfd_strf("not drawn: %s", nz(rep->gnuplot_error)));
    } else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        gnuplot_failed(rep, pf, st, output, po);
    } else if (!is_png(pf->png_path, &missing)) {
        plot_note(po, 1,
                  rfd_strf("not drawn: %s %s exited 0 but %s is %s%s%s",
                           rep->gnuplot, pf->gp_path, pf->png_path,
                           missing ? "missing" : "not a PNG",
                           output ? ":\n" : "", output ? output : ""));
    } else {
        if (output != NULL) { /* warnings */
            po->note = rfd_strf("gnuplot: %s", output);
        }
        rc = 0;
    }
    free(output);
    return rc;
}

/* Draws one plot; returns 1 when it failed, 0 otherwise (drawn or
 * nothing to draw), -1 out of memory. */
static int plot_one(rfd_report *rep, rfd_scene_out *so, const demo_plot *pl,
                    rfd_plot_out *po)
{
    const demo_scene *sc = so->scene;
    int data[RFD_SIDES], nempty;
    if (pl->name == NULL || !rfd_safe_name(pl->name) ||
        !rfd_safe_name(sc->name)) {
        return plot_note(po, 1,
                         rfd_strf("not drawn: plot name \"%s\" of scene %s is "
                                  "not usable in a file name",
                                  pl->name ? pl->name : "(null)", sc->name));
    }
    if (runs_with_data(so, pl, data, &nempty) == 0) {
        return plot_note(
            po, 0,
            rfd_strf("not drawn: %s",
                     nempty ? (pl->kind == DEMO_PLOT_PARTICLES
                                   ? "the scene recorded no particles"
                                   : "the scene recorded no data (empty "
                                     "series)")
                            : "no run of the scene gave data (see above)"));
    }
    if (rep->gnuplot_error != NULL) {
        return plot_note(po, 1, rfd_strf("not drawn: %s", rep->gnuplot_error));
    }
    /* the script, next to the data */
    plot_files pf = {rfd_strf("%s-%s.gp", sc->name, pl->name),
                     rfd_strf("%s-%s.png", sc->name, pl->name), NULL, NULL};
    pf.gp_path = pf.gp_name ? rfd_path(rep->dir, pf.gp_name) : NULL;
    pf.png_path = pf.png_name ? rfd_path(rep->dir, pf.png_name) : NULL;
    int rc = -1;
    if (pf.gp_path != NULL && pf.png_path != NULL) {
        rc = write_script(so, pl, data, &pf, po);
        if (rc == 0) {
            rc = run_script(rep, &pf, po);
        }
        if (rc == 0) {
            po->png = pf.png_name;
            pf.png_name = NULL;
        } else if (rc > 0) {
            rc = po->failed;
        }
    }
    free_files(&pf);
    return rc;
}

int rfd_plot_scene(rfd_report *rep, rfd_scene_out *s)
{
    const demo_scene *sc = s->scene;
    if (sc->nplots <= 0 || sc->plots == NULL) {
        return 0;
    }
    s->plots = calloc((size_t)sc->nplots, sizeof *s->plots);
    if (s->plots == NULL) {
        return -1;
    }
    s->nplots = sc->nplots;
    int failed = 0;
    for (int p = 0; p < sc->nplots; ++p) {
        const int rc = plot_one(rep, s, &sc->plots[p], &s->plots[p]);
        if (rc < 0) {
            return -1;
        }
        failed += rc;
    }
    return failed;
}
