/*
 * rfdemo's A/B report: plots with gnuplot (run as a child process on a
 * script written next to the data) and report.md / report.html.
 */
#define _POSIX_C_SOURCE 200809L

#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define DASH "\xe2\x80\x94" /* U+2014, for "no value" */
#define OOM "out of memory"

/* ---- strings and names ---- */

static char *vstrf(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    const int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        return NULL;
    }
    char *s = malloc((size_t)n + 1);
    if (s != NULL && vsnprintf(s, (size_t)n + 1, fmt, ap) != n) {
        free(s);
        s = NULL;
    }
    return s;
}

char *rfd_strf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = vstrf(fmt, ap);
    va_end(ap);
    return s;
}

char *rfd_path(const char *dir, const char *name)
{
    const size_t n = strlen(dir);
    return rfd_strf("%s%s%s", dir, n > 0 && dir[n - 1] == '/' ? "" : "/", name);
}

int rfd_safe_name(const char *name)
{
    if (name == NULL || name[0] == '\0' || name[0] == '.') {
        return 0;
    }
    for (const char *p = name; *p; ++p) {
        const char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.')) {
            return 0;
        }
    }
    return 1;
}

const char *rfd_side_name(int side)
{
    return side == RFD_STOCK ? "stock" : "cone";
}

static const char *nz(const char *s)
{
    return s != NULL ? s : OOM;
}

static const char *plot_name(const demo_plot *pl)
{
    return pl->name != NULL ? pl->name : "(unnamed)";
}

static int ends_with(const char *s, const char *tail)
{
    const size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

void rfd_scene_out_free(rfd_scene_out *s)
{
    if (s == NULL) {
        return;
    }
    for (int k = 0; k < RFD_SIDES; ++k) {
        demo_result_free(&s->side[k].r);
        free(s->side[k].csv);
        free(s->side[k].csv_error);
        free(s->side[k].pcsv);
        s->side[k].csv = s->side[k].csv_error = s->side[k].pcsv = NULL;
    }
    for (int p = 0; p < s->nplots; ++p) {
        free(s->plots[p].png);
        free(s->plots[p].note);
    }
    free(s->plots);
    s->plots = NULL;
    s->nplots = 0;
}

/* ---- running gnuplot ---- */

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
    /* the exec-failure pipe closes on a successful exec */
    if (fcntl(err[1], F_SETFD, FD_CLOEXEC) != 0 ||
        fcntl(err[0], F_SETFD, FD_CLOEXEC) != 0 ||
        fcntl(out[0], F_SETFD, FD_CLOEXEC) != 0) {
        *why = rfd_strf("cannot run %s: fcntl: %s", prog, strerror(errno));
        close(out[0]);
        close(out[1]);
        close(err[0]);
        close(err[1]);
        return -1;
    }
    const pid_t pid = fork();
    if (pid < 0) {
        *why = rfd_strf("cannot run %s: fork: %s", prog, strerror(errno));
        close(out[0]);
        close(out[1]);
        close(err[0]);
        close(err[1]);
        return -1;
    }
    if (pid == 0) {           /* child: only async-signal-safe calls */
        int fail[2] = {0, 0}; /* stage (1 chdir, 2 exec), errno */
        const int null = open("/dev/null", O_RDONLY);
        if (null >= 0) {
            dup2(null, 0);
            close(null);
        }
        dup2(out[1], 1);
        dup2(out[1], 2);
        close(out[1]);
        if (chdir(dir) != 0) {
            fail[0] = 1;
            fail[1] = errno;
        } else {
            execlp(prog, prog, arg, (char *)NULL);
            fail[0] = 2;
            fail[1] = errno;
        }
        ssize_t w = write(err[1], fail, sizeof fail);
        (void)w;
        _exit(127);
    }
    close(out[1]);
    close(err[1]);
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap + 1);
    for (;;) {
        char chunk[1024];
        const ssize_t n = read(out[0], chunk, sizeof chunk);
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

/* DEMO_PLOT_LINES: curves y[] against x, stock and cone in one frame. */
static int write_lines(FILE *f, const rfd_scene_out *so, const demo_plot *pl,
                       const int data[RFD_SIDES], const char *png, body_out *bo)
{
    static const char *const stock_lc[4] = {"#d62728", "#ff7f0e", "#8c564b",
                                            "#e377c2"};
    static const char *const cone_lc[4] = {"#1f77b4", "#2ca02c", "#17becf",
                                           "#9467bd"};
    static const char *const ref_lc[4] = {"#000000", "#555555", "#7f7f7f",
                                          "#333333"};
    /* the curves: each y for stock and cone, each "_ref" y once */
    curve cv[2 * 4];
    int ncv = 0, ny = 0, nref = 0;
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
    /* a y column a run did not record (one value of a sweep the
       parameters left out) is no curve */
    int iy = 0, iref = 0;
    for (int j = 0; j < 4 && pl->y[j] != NULL; ++j) {
        const char *y = pl->y[j];
        const int ref = ends_with(y, "_ref");
        for (int k = 0; k < RFD_SIDES; ++k) {
            /* the reference once: from the cone run, else stock's */
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
            if (ref && nref == 1) {
                snprintf(c->title, sizeof c->title, "reference");
            } else if (ref) {
                snprintf(c->title, sizeof c->title, "%.*s reference",
                         (int)(strlen(y) - 4), y);
            } else if (ny == 1) {
                snprintf(c->title, sizeof c->title, "%s", rfd_side_name(k));
            } else {
                snprintf(c->title, sizeof c->title, "%s (%s)", y,
                         rfd_side_name(k));
            }
        }
        if (ref) {
            ++iref;
        } else {
            ++iy;
        }
    }
    if (ncv == 0) {
        return body_none(bo, 0,
                         rfd_strf("not drawn: no finite values in the "
                                  "plotted columns (or none recorded: this "
                                  "plot needs other parameters?)"));
    }
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
        const curve *c = &cv[i];
        if (i) {
            fputs(", \\\n     ", f);
        }
        gp_str(f, so->side[c->side].csv);
        /* a sweep's few points marked, a time series' many not */
        fprintf(f, " using %d:%d with %s ", c->xcol, c->ycol,
                so->side[c->side].r.series.nrows <= 50
                    ? "linespoints pt 7 ps 0.8"
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
    fputc('\n', f);
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

/* DEMO_PLOT_MAP: a heat map of y[0] over (x, y[1]) per solver, and its
   reference. */
static int write_map(FILE *f, const rfd_scene_out *so, const demo_plot *pl,
                     const int data[RFD_SIDES], const char *png, body_out *bo)
{
    const char *vname = pl->y[0], *yname = pl->y[1];
    if (pl->x == NULL || vname == NULL || yname == NULL) {
        return body_none(bo, 1,
                         rfd_strf("not drawn: map %s of scene %s needs x, "
                                  "y[0] (the value) and y[1]",
                                  pl->name, so->scene->name));
    }
    char refname[DEMO_NAME_LEN + 8];
    snprintf(refname, sizeof refname, "%s_ref", vname);
    /* panels: (side, value column) */
    int pside[RFD_SIDES + 1], np = 0;
    const char *pcol[RFD_SIDES + 1];
    for (int k = 0; k < RFD_SIDES; ++k) {
        if (!data[k]) {
            continue;
        }
        const char *cols[3] = {pl->x, yname, vname};
        const char *miss = missing_column(&so->side[k].r.series, cols, 3);
        if (miss != NULL) {
            return body_none(
                bo, 0,
                rfd_strf("not drawn: the %s run recorded no column \"%s\" "
                         "(this plot needs other parameters?)",
                         rfd_side_name(k), miss));
        }
        pside[np] = k;
        pcol[np++] = vname;
    }
    const int kref = data[RFD_CONE] ? RFD_CONE : RFD_STOCK;
    if (demo_series_column(&so->side[kref].r.series, refname) >= 0) {
        pside[np] = kref;
        pcol[np++] = refname;
    }
    /* the common colour range */
    double vmin = INFINITY, vmax = -INFINITY;
    for (int p = 0; p < np; ++p) {
        const demo_series *s = &so->side[pside[p]].r.series;
        const int vc = demo_series_column(s, pcol[p]);
        for (int r = 0; r < s->nrows; ++r) {
            const double v = demo_series_at(s, r, vc);
            if (isfinite(v)) {
                vmin = fmin(vmin, v);
                vmax = fmax(vmax, v);
            }
        }
    }
    if (!(vmin <= vmax)) {
        return body_none(
            bo, 0, rfd_strf("not drawn: no finite values in \"%s\"", vname));
    }
    if (vmin == vmax) {
        vmax = vmin + (vmin != 0 ? 1e-6 * fabs(vmin) : 1);
    }
    gp_terminal(f, 440 * np + 40, 520, png);
    fputs("set style fill solid 1.0 noborder\n"
          "set style textbox opaque fc rgb '#ffffff' noborder\n"
          "set palette defined (0 '#440154', 0.25 '#3b528b', 0.5 '#21918c', "
          "0.75 '#5ec962', 1 '#fde725')\n",
          f);
    fprintf(f, "set cbrange [%.9g:%.9g]\nset xlabel ", vmin, vmax);
    gp_str(f, pl->xlabel != NULL ? pl->xlabel : pl->x);
    fputs("\nset ylabel ", f);
    gp_str(f, pl->ylabel != NULL ? pl->ylabel : yname);
    fputs(pl->logx ? "\nset logscale x\n" : "\n", f);
    fprintf(f, "set multiplot layout 1,%d title ", np);
    gp_str(f, pl->title != NULL ? pl->title : pl->name);
    fputc('\n', f);
    for (int p = 0; p < np; ++p) {
        const demo_series *s = &so->side[pside[p]].r.series;
        const int xc = demo_series_column(s, pl->x);
        const int yc = demo_series_column(s, yname);
        const int vc = demo_series_column(s, pcol[p]);
        double *gx = malloc((size_t)(s->nrows + 1) * sizeof *gx);
        double *gy = malloc((size_t)(s->nrows + 1) * sizeof *gy);
        if (gx == NULL || gy == NULL) {
            free(gx);
            free(gy);
            return body_none(bo, 0, NULL);
        }
        const int nx = distinct_values(s, xc, yc, vc, gx);
        const int ny = distinct_values(s, yc, xc, vc, gy);
        fprintf(f, "$cells%d << EOD\n", p);
        for (int r = 0; r < s->nrows; ++r) {
            const double x = demo_series_at(s, r, xc);
            const double y = demo_series_at(s, r, yc);
            const double v = demo_series_at(s, r, vc);
            if (!isfinite(x) || !isfinite(y) || !isfinite(v)) {
                continue;
            }
            const double *ix =
                bsearch(&x, gx, (size_t)nx, sizeof x, cmp_double);
            const double *iy =
                bsearch(&y, gy, (size_t)ny, sizeof y, cmp_double);
            double xlo, xhi, ylo, yhi;
            cell_bounds(gx, nx, (int)(ix - gx), pl->logx, &xlo, &xhi);
            cell_bounds(gy, ny, (int)(iy - gy), 0, &ylo, &yhi);
            fprintf(f, "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", x, y, xlo, xhi,
                    ylo, yhi, v);
        }
        fputs("EOD\n", f);
        if (nx > 0 && ny > 0) {
            double xlo, xhi, ylo, yhi, d;
            cell_bounds(gx, nx, 0, pl->logx, &xlo, &d);
            cell_bounds(gx, nx, nx - 1, pl->logx, &d, &xhi);
            cell_bounds(gy, ny, 0, 0, &ylo, &d);
            cell_bounds(gy, ny, ny - 1, 0, &d, &yhi);
            fprintf(f, "set xrange [%.9g:%.9g]\nset yrange [%.9g:%.9g]\n", xlo,
                    xhi, ylo, yhi);
        }
        fprintf(f, "set title '%s'\n",
                pcol[p] == vname ? rfd_side_name(pside[p]) : "reference");
        if (nx == 0) {
            fputs("set label 1 'no finite values' at graph 0.5, graph 0.5 "
                  "center\nplot NaN notitle\nunset label 1\n",
                  f);
        } else {
            fprintf(f,
                    "plot $cells%d using 1:2:3:4:5:6:7 with boxxyerror lc "
                    "palette notitle",
                    p);
            if (nx * ny <= 64) { /* the values, where they fit */
                fprintf(f,
                        ", \\\n     $cells%d using 1:2:(sprintf('%%.3g', "
                        "$7)) with labels boxed font ',8' notitle",
                        p);
            }
            fputc('\n', f);
        }
        free(gx);
        free(gy);
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

/* DEMO_PLOT_PARTICLES: circles of the particles table, a panel per group
   value, a row per solver, one scale. */
static int write_particles(FILE *f, const rfd_scene_out *so,
                           const demo_plot *pl, const int data[RFD_SIDES],
                           const char *png, body_out *bo)
{
    static const char *const lc[RFD_SIDES] = {"#d62728", "#1f77b4"};
    const char *yname = pl->y[0];
    const int ng = pl->group[0] == NULL ? 0 : pl->group[1] == NULL ? 1 : 2;
    if (pl->x == NULL || yname == NULL || pl->size == NULL) {
        return body_none(bo, 1,
                         rfd_strf("not drawn: particles plot %s of scene %s "
                                  "needs x, y[0] and size",
                                  pl->name, so->scene->name));
    }
    panel_key keys[RFD_MAX_PANELS];
    int npanel = 0, nside = 0;
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    for (int k = 0; k < RFD_SIDES; ++k) {
        if (!data[k]) {
            continue;
        }
        const demo_series *s = &so->side[k].r.particles;
        const char *cols[5] = {pl->x, yname, pl->size, pl->group[0],
                               pl->group[1]};
        const char *miss = missing_column(s, cols, 3 + ng);
        if (miss != NULL) {
            return body_none(
                bo, 0,
                rfd_strf("not drawn: the %s run's particles have no column "
                         "\"%s\" (this plot needs other parameters?)",
                         rfd_side_name(k), miss));
        }
        const int xc = demo_series_column(s, pl->x);
        const int yc = demo_series_column(s, yname);
        const int rc = demo_series_column(s, pl->size);
        nside++;
        for (int r = 0; r < s->nrows; ++r) {
            const double x = demo_series_at(s, r, xc);
            const double y = demo_series_at(s, r, yc);
            const double rad = demo_series_at(s, r, rc);
            if (!isfinite(x) || !isfinite(y) || !isfinite(rad)) {
                continue;
            }
            xlo = fmin(xlo, x - rad);
            xhi = fmax(xhi, x + rad);
            ylo = fmin(ylo, y - rad);
            yhi = fmax(yhi, y + rad);
            panel_key key = {{0, 0}};
            for (int g = 0; g < ng; ++g) {
                key.g[g] =
                    demo_series_at(s, r, demo_series_column(s, pl->group[g]));
            }
            int known = 0;
            for (int j = 0; j < npanel && !known; ++j) {
                known = cmp_panel(&keys[j], &key) == 0;
            }
            if (!known) {
                if (npanel == RFD_MAX_PANELS) {
                    return body_none(
                        bo, 1,
                        rfd_strf("not drawn: particles plot %s of scene %s "
                                 "has more than %d panels",
                                 pl->name, so->scene->name, RFD_MAX_PANELS));
                }
                keys[npanel++] = key;
            }
        }
    }
    if (npanel == 0) {
        return body_none(bo, 0,
                         rfd_strf("not drawn: no particle with finite "
                                  "values"));
    }
    qsort(keys, (size_t)npanel, sizeof *keys, cmp_panel);
    if (pl->xrange[0] < pl->xrange[1]) { /* the scene's window */
        xlo = pl->xrange[0];
        xhi = pl->xrange[1];
    }
    /* the same frame in every panel, a little room around the particles */
    const double padx = 0.02 * (xhi - xlo) + 1e-9;
    const double pady = 0.02 * (yhi - ylo) + 1e-9;
    xlo -= padx, xhi += padx, ylo -= pady, yhi += pady;
    /* a row per panel, stock and cone side by side: heaps are wide and
       low, so the rows keep them large */
    const int pw = nside == 1 ? 1200 : 780;
    int ph = (int)(pw * (yhi - ylo) / (xhi - xlo)) + 60;
    ph = ph < 120 ? 120 : ph > 500 ? 500 : ph;
    gp_terminal(f, pw * nside + 20, ph * npanel + 50, png);
    fprintf(f,
            "set size ratio -1\nset xrange [%.9g:%.9g]\nset yrange "
            "[%.9g:%.9g]\nset ytics %.9g\nset style fill solid 0.7 "
            "noborder\nset xlabel ",
            xlo, xhi, ylo, yhi, nice_step((yhi - ylo) / 3));
    gp_str(f, pl->xlabel != NULL ? pl->xlabel : pl->x);
    fputs("\nset ylabel ", f);
    gp_str(f, pl->ylabel != NULL ? pl->ylabel : yname);
    fprintf(f, "\nset multiplot layout %d,%d title ", npanel, nside);
    gp_str(f, pl->title != NULL ? pl->title : pl->name);
    fputc('\n', f);
    for (int p = 0; p < npanel; ++p) {
        for (int k = 0; k < RFD_SIDES; ++k) {
            if (!data[k]) {
                continue;
            }
            const demo_series *s = &so->side[k].r.particles;
            char title[160];
            int len = snprintf(title, sizeof title, "%s", rfd_side_name(k));
            for (int g = 0; g < ng && len < (int)sizeof title; ++g) {
                len += snprintf(title + len, sizeof title - (size_t)len,
                                "%s %s = %.4g", g ? "," : ":", pl->group[g],
                                keys[p].g[g]);
            }
            fputs("set title ", f);
            gp_str(f, title);
            fprintf(f, "\nplot ");
            gp_str(f, so->side[k].pcsv);
            fputs(" using (", f);
            for (int g = 0; g < ng; ++g) {
                fprintf(f, "column(%d) == ",
                        demo_series_column(s, pl->group[g]) + 1);
                gp_num(f, keys[p].g[g]);
                fputs(" && ", f);
            }
            fprintf(f,
                    "1 ? column(%d) : NaN):%d:%d with circles lc rgb '%s' "
                    "notitle\n",
                    demo_series_column(s, pl->x) + 1,
                    demo_series_column(s, yname) + 1,
                    demo_series_column(s, pl->size) + 1, lc[k]);
        }
    }
    fputs("unset multiplot\n", f);
    return 0;
}

/* Draws one plot; returns 1 when it failed, 0 otherwise (drawn or
 * nothing to draw), -1 out of memory. */
static int plot_one(rfd_report *rep, rfd_scene_out *so, const demo_plot *pl,
                    rfd_plot_out *po)
{
    const demo_scene *sc = so->scene;
    int data[RFD_SIDES], ndata = 0, nempty = 0;

    if (pl->name == NULL || !rfd_safe_name(pl->name) ||
        !rfd_safe_name(sc->name)) {
        return plot_note(po, 1,
                         rfd_strf("not drawn: plot name \"%s\" of scene %s is "
                                  "not usable in a file name",
                                  pl->name ? pl->name : "(null)", sc->name));
    }
    for (int k = 0; k < RFD_SIDES; ++k) {
        const rfd_side *sd = &so->side[k];
        const char *csv;
        const demo_series *t = plot_table(pl, sd, &csv);
        data[k] = sd->ok && csv != NULL && t->nrows > 0;
        ndata += data[k];
        nempty += sd->ok && t->nrows == 0;
    }
    if (ndata == 0) {
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
    char *gp_name = rfd_strf("%s-%s.gp", sc->name, pl->name);
    char *png_name = rfd_strf("%s-%s.png", sc->name, pl->name);
    char *gp_path = gp_name ? rfd_path(rep->dir, gp_name) : NULL;
    char *png_path = png_name ? rfd_path(rep->dir, png_name) : NULL;
    int rc = 0;
    if (gp_path == NULL || png_path == NULL) {
        rc = -1;
        goto done;
    }
    FILE *f = fopen(gp_path, "w");
    if (f == NULL) {
        rc = plot_note(po, 1,
                       rfd_strf("not drawn: cannot write %s: %s", gp_path,
                                strerror(errno)));
        goto done;
    }
    fprintf(f,
            "# rfdemo ab: scene %s, plot %s (run in this folder: gnuplot "
            "%s)\n",
            sc->name, pl->name, gp_name);
    fputs("set datafile separator comma\n", f);
    body_out bo = {NULL, 0};
    const int body = pl->kind == DEMO_PLOT_MAP
                         ? write_map(f, so, pl, data, png_name, &bo)
                     : pl->kind == DEMO_PLOT_PARTICLES
                         ? write_particles(f, so, pl, data, png_name, &bo)
                         : write_lines(f, so, pl, data, png_name, &bo);
    const int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        free(bo.note);
        rc = plot_note(po, 1,
                       rfd_strf("not drawn: cannot write %s: %s", gp_path,
                                strerror(errno)));
        goto done;
    }
    if (body != 0) { /* nothing to draw, or out of memory */
        unlink(gp_path);
        rc = body < 0 ? -1 : plot_note(po, bo.failed, bo.note);
        goto done;
    }

    /* run it; a PNG left from an earlier run must not pass for this one */
    if (unlink(png_path) != 0 && errno != ENOENT) {
        rc = plot_note(po, 1,
                       rfd_strf("not drawn: cannot replace %s: %s", png_path,
                                strerror(errno)));
        goto done;
    }
    char *output = NULL, *why = NULL;
    const int st = run_program(rep->gnuplot, gp_name, rep->dir, &output, &why);
    if (st < 0) {
        /* gnuplot cannot be started: do not try the later plots */
        rep->gnuplot_error =
            why != NULL ? why : rfd_strf("cannot run %s", rep->gnuplot);
        rc =
            plot_note(po, 1, rfd_strf("not drawn: %s", nz(rep->gnuplot_error)));
        free(output);
        goto done;
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        char how[64];
        if (WIFEXITED(st)) {
            snprintf(how, sizeof how, "exit status %d", WEXITSTATUS(st));
        } else if (WIFSIGNALED(st)) {
            snprintf(how, sizeof how, "killed by signal %d", WTERMSIG(st));
        } else {
            snprintf(how, sizeof how, "wait status %d", st);
        }
        rc = plot_note(po, 1,
                       rfd_strf("not drawn: %s %s failed (%s)%s%s",
                                rep->gnuplot, gp_path, how, output ? ":\n" : "",
                                output ? output : ""));
        free(output);
        goto done;
    }
    FILE *png = fopen(png_path, "rb");
    unsigned char magic[4] = {0, 0, 0, 0};
    const size_t nmagic = png != NULL ? fread(magic, 1, 4, png) : 0;
    if (png != NULL) {
        fclose(png);
    }
    if (nmagic != 4 || magic[0] != 0x89 || magic[1] != 'P' || magic[2] != 'N' ||
        magic[3] != 'G') {
        rc = plot_note(po, 1,
                       rfd_strf("not drawn: %s %s exited 0 but %s is %s%s%s",
                                rep->gnuplot, gp_path, png_path,
                                png == NULL ? "missing" : "not a PNG",
                                output ? ":\n" : "", output ? output : ""));
        free(output);
        goto done;
    }
    po->png = png_name;
    png_name = NULL;
    if (output != NULL) { /* warnings */
        po->note = rfd_strf("gnuplot: %s", output);
        free(output);
    }
done:
    free(gp_name);
    free(png_name);
    free(gp_path);
    free(png_path);
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

/* ---- the report ---- */

typedef struct metric_help {
    const char *name, *help;
} metric_help;

/* demo_world_finish's metrics of the cone solver */
static const metric_help solver_help[] = {
    {"solver_iterations", "cone solver iterations (sweeps), summed over the "
                          "run"},
    {"solver_max_contacts", "the most contacts in one step"},
    {"solver_max_residual",
     "the largest residual a step's solve returned (converged: <= tol)"},
    {"solver_unconverged_steps",
     "steps whose solve stopped at the iteration cap above tol"},
};

static const char *metric_help_text(const demo_scene *sc, const char *name)
{
    for (int i = 0; sc->metric_info != NULL && i < sc->nmetric_info; ++i) {
        if (sc->metric_info[i].name != NULL &&
            strcmp(sc->metric_info[i].name, name) == 0) {
            return sc->metric_info[i].help;
        }
    }
    for (size_t i = 0; i < sizeof solver_help / sizeof solver_help[0]; ++i) {
        if (strcmp(solver_help[i].name, name) == 0) {
            return solver_help[i].help;
        }
    }
    return NULL;
}

static const demo_metric *side_metric(const rfd_side *sd, const char *name)
{
    if (!sd->ok) {
        return NULL;
    }
    for (int i = 0; i < sd->r.nmetrics; ++i) {
        if (strcmp(sd->r.metrics[i].name, name) == 0) {
            return &sd->r.metrics[i];
        }
    }
    return NULL;
}

/* The metrics of both runs: stock's in order, then cone's others. */
static int metric_names(const rfd_scene_out *so,
                        const char *names[2 * DEMO_MAX_METRICS])
{
    int n = 0;
    for (int k = 0; k < RFD_SIDES; ++k) {
        const rfd_side *sd = &so->side[k];
        for (int i = 0; sd->ok && i < sd->r.nmetrics; ++i) {
            int seen = 0;
            for (int j = 0; j < n && !seen; ++j) {
                seen = strcmp(names[j], sd->r.metrics[i].name) == 0;
            }
            if (!seen && n < 2 * DEMO_MAX_METRICS) {
                names[n++] = sd->r.metrics[i].name;
            }
        }
    }
    return n;
}

/* The formatted cells of one metric row. */
typedef struct metric_row {
    char value[RFD_SIDES][32];
    char ref[80];
    char rel[RFD_SIDES][32];
} metric_row;

static void fmt_value(char *buf, size_t n, const demo_metric *m)
{
    if (m == NULL) {
        snprintf(buf, n, "%s", DASH);
    } else if (isfinite(m->value)) {
        snprintf(buf, n, "%.9g", m->value);
    } else {
        snprintf(buf, n, "n/a"); /* NaN: not measured in this run */
    }
}

static void fill_row(const rfd_scene_out *so, const char *name, metric_row *row)
{
    const demo_metric *m[RFD_SIDES];
    double ref[RFD_SIDES];
    for (int k = 0; k < RFD_SIDES; ++k) {
        m[k] = side_metric(&so->side[k], name);
        fmt_value(row->value[k], sizeof row->value[k], m[k]);
        ref[k] = m[k] != NULL ? m[k]->reference : NAN;
    }
    /* one side's reference stands for both when the other has none */
    for (int k = 0; k < RFD_SIDES; ++k) {
        if (isnan(ref[k])) {
            ref[k] = ref[1 - k];
        }
    }
    if (isnan(ref[0])) {
        snprintf(row->ref, sizeof row->ref, "%s", DASH);
    } else if (ref[0] == ref[1] || isnan(ref[1])) {
        snprintf(row->ref, sizeof row->ref, "%.9g", ref[0]);
    } else {
        snprintf(row->ref, sizeof row->ref, "%.9g (stock), %.9g (cone)", ref[0],
                 ref[1]);
    }
    for (int k = 0; k < RFD_SIDES; ++k) {
        if (m[k] != NULL && isfinite(m[k]->value) && isfinite(ref[k]) &&
            ref[k] != 0) {
            snprintf(row->rel[k], sizeof row->rel[k], "%+.3e",
                     (m[k]->value - ref[k]) / fabs(ref[k]));
        } else {
            snprintf(row->rel[k], sizeof row->rel[k], "%s", DASH);
        }
    }
}

/* Markdown text: the characters that would start markup escaped. */
static void md_text(FILE *f, const char *s)
{
    for (; s != NULL && *s; ++s) {
        if (strchr("\\`*[]<|", *s) != NULL) {
            fputc('\\', f);
        }
        fputc(*s == '\n' ? ' ' : *s, f);
    }
}

/* Text inside a Markdown code block fence: kept as is, indented. */
static void md_pre(FILE *f, const char *s)
{
    fputs("\n```\n", f);
    for (; s != NULL && *s; ++s) {
        fputc(*s == '`' ? '\'' : *s, f);
    }
    fputs("\n```\n\n", f);
}

static void html_text(FILE *f, const char *s)
{
    for (; s != NULL && *s; ++s) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

static const char *kind_name(rf_solver_kind k)
{
    switch (k) {
    case RF_SOLVER_JACOBI: return "projected Jacobi";
    case RF_SOLVER_GS: return "projected Gauss-Seidel";
    case RF_SOLVER_GS_COLORED: return "coloured Gauss-Seidel";
    case RF_SOLVER_APGD: return "APGD";
    case RF_SOLVER_SI: return "sequential impulse";
    }
    return "?";
}

/* The settings, as lines of plain text (the same in both formats). */
typedef struct settings {
    char date[64];
    char *cone;   /* cone solver */
    char *length; /* steps and dt */
    char *params; /* --set */
    char *plots;  /* gnuplot, or why the plots are missing */
} settings;

static int make_settings(const rfd_report *rep, settings *st)
{
    memset(st, 0, sizeof *st);
    struct tm tmv;
    if (localtime_r(&rep->when, &tmv) == NULL ||
        strftime(st->date, sizeof st->date, "%Y-%m-%d %H:%M:%S %z", &tmv) ==
            0) {
        snprintf(st->date, sizeof st->date, "(unknown date)");
    }
    rf_config cfg;
    plGetDefaultSolverConfig(&cfg);
    if (rep->config != NULL) {
        cfg = *rep->config;
    }
    const char *omp = getenv("OMP_NUM_THREADS");
    char iters[64];
    if (cfg.max_iter == PL_WORLD_ITERATIONS) {
        snprintf(iters, sizeof iters, "the world's iteration budget (10)");
    } else {
        snprintf(iters, sizeof iters, "%d", cfg.max_iter);
    }
    st->cone = rfd_strf(
        "rollfric %d.%d.%d cone solver: %s, %s model%s, at most %s "
        "iterations, tolerance %g, warm start %s, threads: %s%s%s",
        RF_VERSION_MAJOR, RF_VERSION_MINOR, RF_VERSION_PATCH,
        kind_name(cfg.solver),
        cfg.model == RF_MODEL_DESAXCE   ? "De Saxce"
        : cfg.model == RF_MODEL_PYRAMID ? "pyramid (Lemke LCP)"
                                        : "associated",
        rep->config != NULL ? " (--model)" : " (the world's default)", iters,
        cfg.tol, cfg.warm_start ? "on" : "off",
        cfg.threads > 0 ? "" : "OpenMP's default",
        omp != NULL ? " OMP_NUM_THREADS=" : "", omp != NULL ? omp : "");
    if (rep->steps > 0) {
        st->length = rfd_strf("%d steps (--steps) of %s", rep->steps,
                              rep->dt > 0 ? "" : "1/60 s");
    } else {
        st->length = rfd_strf("each scene's %s step count, steps of %s",
                              rep->quick ? "quick (--quick)" : "default",
                              rep->dt > 0 ? "" : "1/60 s");
    }
    if (st->length != NULL && rep->dt > 0) {
        char *s = rfd_strf("%s%g s (--dt)", st->length, rep->dt);
        free(st->length);
        st->length = s;
    }
    if (rep->nset == 0) {
        st->params = rfd_strf("the scenes' defaults");
    } else {
        st->params = rfd_strf("--set");
        for (int i = 0; st->params != NULL && i < rep->nset; ++i) {
            char *s = rfd_strf("%s%s %s=%g", st->params, i ? "," : "",
                               rep->set[i].key, rep->set[i].value);
            free(st->params);
            st->params = s;
        }
        if (st->params != NULL) {
            char *s = rfd_strf("%s (for the scenes that have the parameter)",
                               st->params);
            free(st->params);
            st->params = s;
        }
    }
    if (rep->gnuplot_error != NULL) {
        st->plots = rfd_strf("MISSING: %s (install gnuplot, or name it in "
                             "RFDEMO_GNUPLOT)",
                             rep->gnuplot_error);
    } else {
        st->plots = rfd_strf("gnuplot (%s), pngcairo terminal or else png; "
                             "each plot's script is <scene>-<plot>.gp",
                             rep->gnuplot);
    }
    return st->cone && st->length && st->params && st->plots ? 0 : -1;
}

static void free_settings(settings *st)
{
    free(st->cone);
    free(st->length);
    free(st->params);
    free(st->plots);
}

static const char *stock_text =
    "Bullet's own solver (btSequentialImpulseConstraintSolver, rolling "
    "friction as Bullet's box clamp)";

static void run_line(char *buf, size_t n, const rfd_scene_out *so, int k)
{
    const rfd_side *sd = &so->side[k];
    if (sd->ok) {
        snprintf(buf, n, "%d steps of %.6g s, %.3f s", sd->r.steps, sd->r.dt,
                 sd->seconds);
    } else {
        snprintf(buf, n, "failed after %.3f s", sd->seconds);
    }
}

static int scene_failed(const rfd_scene_out *so, int *nplots_ok)
{
    int failed = 0, ok = 0;
    for (int k = 0; k < RFD_SIDES; ++k) {
        failed += !so->side[k].ok || so->side[k].csv_error != NULL;
    }
    for (int p = 0; p < so->nplots; ++p) {
        failed += so->plots[p].failed;
        ok += so->plots[p].png != NULL;
    }
    *nplots_ok = ok;
    return failed;
}

static void write_md(FILE *f, const rfd_report *rep, const settings *st)
{
    fputs("# rfdemo A/B report: stock Bullet against the cone solver\n\n", f);
    fprintf(f, "Generated %s", st->date);
    if (rep->command != NULL) {
        fputs(" by `", f);
        for (const char *p = rep->command; *p; ++p) {
            fputc(*p == '`' ? '\'' : *p, f);
        }
        fputc('`', f);
    }
    fputs(".\n\n## Settings\n\n", f);
    fputs("* **stock**: ", f);
    md_text(f, stock_text);
    fputs("\n* **cone**: ", f);
    md_text(f, st->cone);
    fputs("\n* run length: ", f);
    md_text(f, st->length);
    fputs("\n* parameters: ", f);
    md_text(f, st->params);
    fputs("\n* plots: ", f);
    md_text(f, st->plots);
    fputs("\n\n## Summary\n\n| scene | stock | cone | plots |\n"
          "| --- | --- | --- | --- |\n",
          f);
    for (int i = 0; i < rep->nscenes; ++i) {
        const rfd_scene_out *so = &rep->scenes[i];
        int nok;
        scene_failed(so, &nok);
        fprintf(f, "| [%s](#%s) |", so->scene->name, so->scene->name);
        for (int k = 0; k < RFD_SIDES; ++k) {
            char line[128];
            run_line(line, sizeof line, so, k);
            fprintf(f, " %s%s%s |", so->side[k].ok ? "" : "**", line,
                    so->side[k].ok ? "" : "**");
        }
        fprintf(f, " %d of %d |\n", nok, so->scene->nplots);
    }
    for (int i = 0; i < rep->nscenes; ++i) {
        const rfd_scene_out *so = &rep->scenes[i];
        const demo_scene *sc = so->scene;
        fprintf(f, "\n<a id=\"%s\"></a>\n\n## %s\n\n", sc->name, sc->name);
        md_text(f, sc->description);
        fputs("\n\n", f);
        if (sc->explanation != NULL) {
            md_text(f, sc->explanation);
            fputs("\n\n", f);
        }
        for (int k = 0; k < RFD_SIDES; ++k) {
            const rfd_side *sd = &so->side[k];
            char line[128];
            run_line(line, sizeof line, so, k);
            fprintf(f, "* %s: %s", rfd_side_name(k), line);
            if (sd->csv != NULL) {
                fprintf(f, ", data [%s](%s)%s", sd->csv, sd->csv,
                        sd->r.series.nrows == 0 ? " (empty: no series "
                                                  "recorded)"
                                                : "");
            }
            if (sd->pcsv != NULL) {
                fprintf(f, ", particles [%s](%s)", sd->pcsv, sd->pcsv);
            }
            fputs("\n", f);
            if (!sd->ok) {
                fprintf(f, "\n  **The %s run failed:**\n", rfd_side_name(k));
                md_pre(f, sd->r.error);
            } else if (sd->csv_error != NULL) {
                fputs("\n  **CSV missing:** ", f);
                md_text(f, sd->csv_error);
                fputs("\n\n", f);
            }
        }
        fputc('\n', f);
        if (sc->nplots > 0) {
            fputs("### Plots\n\n", f);
            for (int p = 0; p < so->nplots; ++p) {
                const demo_plot *pl = &sc->plots[p];
                const rfd_plot_out *po = &so->plots[p];
                const char *title =
                    pl->title != NULL ? pl->title : plot_name(pl);
                if (po->png != NULL) {
                    fputs("![", f);
                    md_text(f, title);
                    fprintf(f, "](%s)\n\n", po->png);
                    if (po->note != NULL) {
                        md_pre(f, po->note);
                    }
                } else {
                    fprintf(f, "*Plot missing:* `%s` (", plot_name(pl));
                    md_text(f, title);
                    fputs(")", f);
                    md_pre(f, nz(po->note));
                }
            }
            for (int p = so->nplots; p < sc->nplots; ++p) {
                fprintf(f, "*Plot missing:* `%s` (not tried)\n\n",
                        plot_name(&sc->plots[p]));
            }
        } else {
            fputs("*This scene declares no plots.*\n\n", f);
        }
        fputs("### Metrics\n\n", f);
        const char *names[2 * DEMO_MAX_METRICS];
        const int n = metric_names(so, names);
        if (n == 0) {
            fputs("*No metrics: neither run finished.*\n", f);
            continue;
        }
        fputs("| metric | stock | cone | reference | stock rel. error | cone "
              "rel. error |\n| --- | ---: | ---: | ---: | ---: | ---: |\n",
              f);
        int nhelp = 0;
        for (int j = 0; j < n; ++j) {
            metric_row row;
            fill_row(so, names[j], &row);
            fprintf(f, "| `%s` | %s | %s | %s | %s | %s |\n", names[j],
                    row.value[0], row.value[1], row.ref, row.rel[0],
                    row.rel[1]);
            nhelp += metric_help_text(sc, names[j]) != NULL;
        }
        fputs("\n", f);
        if (nhelp > 0) {
            fputs("Metrics:\n\n", f);
            for (int j = 0; j < n; ++j) {
                const char *h = metric_help_text(sc, names[j]);
                if (h != NULL) {
                    fprintf(f, "* `%s`: ", names[j]);
                    md_text(f, h);
                    fputc('\n', f);
                }
            }
        }
        fprintf(f,
                "\n*rel. error* = (value %s reference) / |reference|; "
                "n/a: not measured (e.g. a run too short for the "
                "window); %s: none.\n",
                "\xe2\x88\x92", DASH);
    }
}

static void write_html(FILE *f, const rfd_report *rep, const settings *st)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
          "charset=\"utf-8\">\n<title>rfdemo A/B report</title>\n<style>\n"
          "body { font-family: sans-serif; max-width: 1000px; margin: 2em "
          "auto; padding: 0 1em; line-height: 1.4; }\n"
          "table { border-collapse: collapse; margin: 1em 0; }\n"
          "th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; }\n"
          "th { background: #f4f4f4; }\n"
          "td.num { text-align: right; font-family: monospace; }\n"
          "td[title] { text-decoration: underline dotted; cursor: help; }\n"
          "pre.error { color: #a00; background: #fff3f3; padding: 0.5em; "
          "white-space: pre-wrap; }\n"
          "pre.note { background: #f7f7f7; padding: 0.5em; white-space: "
          "pre-wrap; }\n"
          "img { max-width: 100%; border: 1px solid #ddd; }\n"
          "dt { font-family: monospace; }\n"
          "</style>\n</head>\n<body>\n"
          "<h1>rfdemo A/B report: stock Bullet against the cone "
          "solver</h1>\n<p>Generated ",
          f);
    html_text(f, st->date);
    if (rep->command != NULL) {
        fputs(" by <code>", f);
        html_text(f, rep->command);
        fputs("</code>", f);
    }
    fputs(".</p>\n<h2>Settings</h2>\n<ul>\n<li><b>stock</b>: ", f);
    html_text(f, stock_text);
    fputs("</li>\n<li><b>cone</b>: ", f);
    html_text(f, st->cone);
    fputs("</li>\n<li>run length: ", f);
    html_text(f, st->length);
    fputs("</li>\n<li>parameters: ", f);
    html_text(f, st->params);
    fputs("</li>\n<li>plots: ", f);
    html_text(f, st->plots);
    fputs("</li>\n</ul>\n<h2>Summary</h2>\n<table>\n<tr><th>scene</th>"
          "<th>stock</th><th>cone</th><th>plots</th></tr>\n",
          f);
    for (int i = 0; i < rep->nscenes; ++i) {
        const rfd_scene_out *so = &rep->scenes[i];
        int nok;
        scene_failed(so, &nok);
        fputs("<tr><td><a href=\"#", f);
        html_text(f, so->scene->name);
        fputs("\">", f);
        html_text(f, so->scene->name);
        fputs("</a></td>", f);
        for (int k = 0; k < RFD_SIDES; ++k) {
            char line[128];
            run_line(line, sizeof line, so, k);
            fprintf(f, "<td>%s%s%s</td>", so->side[k].ok ? "" : "<b>", line,
                    so->side[k].ok ? "" : "</b>");
        }
        fprintf(f, "<td>%d of %d</td></tr>\n", nok, so->scene->nplots);
    }
    fputs("</table>\n", f);
    for (int i = 0; i < rep->nscenes; ++i) {
        const rfd_scene_out *so = &rep->scenes[i];
        const demo_scene *sc = so->scene;
        fputs("<h2 id=\"", f);
        html_text(f, sc->name);
        fputs("\">", f);
        html_text(f, sc->name);
        fputs("</h2>\n<p>", f);
        html_text(f, sc->description);
        fputs("</p>\n", f);
        if (sc->explanation != NULL) {
            fputs("<p>", f);
            html_text(f, sc->explanation);
            fputs("</p>\n", f);
        }
        fputs("<ul>\n", f);
        for (int k = 0; k < RFD_SIDES; ++k) {
            const rfd_side *sd = &so->side[k];
            char line[128];
            run_line(line, sizeof line, so, k);
            fprintf(f, "<li>%s: %s", rfd_side_name(k), line);
            if (sd->csv != NULL) {
                fprintf(f, ", data <a href=\"%s\">%s</a>%s", sd->csv, sd->csv,
                        sd->r.series.nrows == 0 ? " (empty: no series "
                                                  "recorded)"
                                                : "");
            }
            if (sd->pcsv != NULL) {
                fprintf(f, ", particles <a href=\"%s\">%s</a>", sd->pcsv,
                        sd->pcsv);
            }
            if (!sd->ok) {
                fprintf(f,
                        "<br><b>The %s run failed:</b>\n<pre "
                        "class=\"error\">",
                        rfd_side_name(k));
                html_text(f, sd->r.error);
                fputs("</pre>", f);
            } else if (sd->csv_error != NULL) {
                fputs("<br><b>CSV missing:</b> ", f);
                html_text(f, sd->csv_error);
            }
            fputs("</li>\n", f);
        }
        fputs("</ul>\n", f);
        if (sc->nplots > 0) {
            fputs("<h3>Plots</h3>\n", f);
            for (int p = 0; p < so->nplots; ++p) {
                const demo_plot *pl = &sc->plots[p];
                const rfd_plot_out *po = &so->plots[p];
                const char *title =
                    pl->title != NULL ? pl->title : plot_name(pl);
                if (po->png != NULL) {
                    fprintf(f, "<p><img src=\"%s\" alt=\"", po->png);
                    html_text(f, title);
                    fputs("\"></p>\n", f);
                    if (po->note != NULL) {
                        fputs("<pre class=\"note\">", f);
                        html_text(f, po->note);
                        fputs("</pre>\n", f);
                    }
                } else {
                    fputs("<p><b>Plot missing:</b> <code>", f);
                    html_text(f, plot_name(pl));
                    fputs("</code> (", f);
                    html_text(f, title);
                    fputs(")</p>\n<pre class=\"error\">", f);
                    html_text(f, nz(po->note));
                    fputs("</pre>\n", f);
                }
            }
            for (int p = so->nplots; p < sc->nplots; ++p) {
                fputs("<p><b>Plot missing:</b> <code>", f);
                html_text(f, plot_name(&sc->plots[p]));
                fputs("</code> (not tried)</p>\n", f);
            }
        } else {
            fputs("<p><i>This scene declares no plots.</i></p>\n", f);
        }
        fputs("<h3>Metrics</h3>\n", f);
        const char *names[2 * DEMO_MAX_METRICS];
        const int n = metric_names(so, names);
        if (n == 0) {
            fputs("<p><i>No metrics: neither run finished.</i></p>\n", f);
            continue;
        }
        fputs("<table>\n<tr><th>metric</th><th>stock</th><th>cone</th>"
              "<th>reference</th><th>stock rel. error</th><th>cone rel. "
              "error</th></tr>\n",
              f);
        int nhelp = 0;
        for (int j = 0; j < n; ++j) {
            metric_row row;
            fill_row(so, names[j], &row);
            const char *h = metric_help_text(sc, names[j]);
            fputs("<tr><td", f);
            if (h != NULL) {
                fputs(" title=\"", f);
                html_text(f, h);
                fputc('"', f);
                ++nhelp;
            }
            fputs("><code>", f);
            html_text(f, names[j]);
            fprintf(f,
                    "</code></td><td class=\"num\">%s</td><td "
                    "class=\"num\">%s</td><td class=\"num\">%s</td><td "
                    "class=\"num\">%s</td><td class=\"num\">%s</td></tr>\n",
                    row.value[0], row.value[1], row.ref, row.rel[0],
                    row.rel[1]);
        }
        fputs("</table>\n", f);
        if (nhelp > 0) {
            fputs("<details><summary>Metrics</summary>\n<dl>\n", f);
            for (int j = 0; j < n; ++j) {
                const char *h = metric_help_text(sc, names[j]);
                if (h != NULL) {
                    fputs("<dt>", f);
                    html_text(f, names[j]);
                    fputs("</dt><dd>", f);
                    html_text(f, h);
                    fputs("</dd>\n", f);
                }
            }
            fputs("</dl>\n</details>\n", f);
        }
        fprintf(f,
                "<p><small><i>rel. error</i> = (value &minus; reference) "
                "/ |reference|; n/a: not measured (e.g. a run too short "
                "for the window); %s: none.</small></p>\n",
                DASH);
    }
    fputs("</body>\n</html>\n", f);
}

static int write_file(const rfd_report *rep, const settings *st,
                      const char *name, int html, char **err)
{
    char *path = rfd_path(rep->dir, name);
    if (path == NULL) {
        *err = NULL;
        return -1;
    }
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        *err = rfd_strf("cannot write %s: %s", path, strerror(errno));
        free(path);
        return -1;
    }
    if (html) {
        write_html(f, rep, st);
    } else {
        write_md(f, rep, st);
    }
    const int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        *err = rfd_strf("cannot write %s: %s", path,
                        errno ? strerror(errno) : "I/O error");
        free(path);
        return -1;
    }
    free(path);
    return 0;
}

int rfd_write_report(const rfd_report *rep, char **err)
{
    settings st;
    *err = NULL;
    if (make_settings(rep, &st) != 0) {
        free_settings(&st);
        return -1;
    }
    int rc = write_file(rep, &st, "report.md", 0, err);
    if (rc == 0) {
        rc = write_file(rep, &st, "report.html", 1, err);
    }
    free_settings(&st);
    return rc;
}
