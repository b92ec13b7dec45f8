/*
 * rfdemo's A/B report: report.md and report.html from the results of
 * the runs.  This file builds the report once as a document
 * (report_doc.h) from the results and hands it to the two renderers
 * (report_md.c, report_html.c); the plots it shows are drawn before, by
 * report_plot.c.  Also the small string and name helpers of report.h.
 */
#define _POSIX_C_SOURCE 200809L

#include "report.h"
#include "report_doc.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DASH "\xe2\x80\x94"  /* U+2014, for "no value" */
#define MINUS "\xe2\x88\x92" /* U+2212 */
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

FILE *rfd_open_out(const char *dir, const char *name, char **path, char **err)
{
    *path = rfd_path(dir, name);
    if (*path == NULL) {
        *err = NULL;
        return NULL;
    }
    FILE *f = fopen(*path, "wb");
    if (f == NULL) {
        *err = rfd_strf("cannot write %s: %s", *path, strerror(errno));
        free(*path);
        *path = NULL;
    }
    return f;
}

int rfd_close_out(FILE *f, char *path, int bad, char **err)
{
    bad |= ferror(f);
    if (fclose(f) != 0 || bad) {
        *err = rfd_strf("cannot write %s: %s", path,
                        errno ? strerror(errno) : "I/O error");
        free(path);
        return -1;
    }
    free(path);
    return 0;
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

int rfd_make_dir(const char *dir, char **err)
{
    char *p = rfd_strf("%s", dir);
    if (p == NULL) {
        *err = NULL;
        return -1;
    }
    for (char *q = p + 1; *q; ++q) {
        if (*q != '/') {
            continue;
        }
        *q = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
            *err = rfd_strf("cannot create folder %s: %s", p, strerror(errno));
            free(p);
            return -1;
        }
        *q = '/';
    }
    free(p);
    struct stat st;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        *err = rfd_strf("cannot create folder %s: %s", dir, strerror(errno));
        return -1;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        *err = rfd_strf("%s is not a folder", dir);
        return -1;
    }
    return 0;
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
        free(s->side[k].rec);
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

/* The settings, as lines of plain text. */
typedef struct settings {
    char date[64];
    char *cone;   /* cone solver */
    char *length; /* steps and dt */
    char *params; /* --set */
    char *plots;  /* gnuplot, or why the plots are missing */
} settings;

/* The cone solver's settings: the configuration --model gave, else the
   world's default one. */
static char *settings_cone(const rfd_report *rep)
{
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
    return rfd_strf(
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
}

/* The run length: --steps or each scene's, steps of --dt or 1/60 s. */
static char *settings_length(const rfd_report *rep)
{
    char *s;
    if (rep->steps > 0) {
        s = rfd_strf("%d steps (--steps) of %s", rep->steps,
                     rep->dt > 0 ? "" : "1/60 s");
    } else {
        s = rfd_strf("each scene's %s step count, steps of %s",
                     rep->quick ? "quick (--quick)" : "default",
                     rep->dt > 0 ? "" : "1/60 s");
    }
    if (s != NULL && rep->dt > 0) {
        char *t = rfd_strf("%s%g s (--dt)", s, rep->dt);
        free(s);
        s = t;
    }
    return s;
}

/* The --set parameters, or the scenes' defaults. */
static char *settings_params(const rfd_report *rep)
{
    if (rep->nset == 0) {
        return rfd_strf("the scenes' defaults");
    }
    char *s = rfd_strf("--set");
    for (int i = 0; s != NULL && i < rep->nset; ++i) {
        char *t = rfd_strf("%s%s %s=%g", s, i ? "," : "", rep->set[i].key,
                           rep->set[i].value);
        free(s);
        s = t;
    }
    if (s != NULL) {
        char *t = rfd_strf("%s (for the scenes that have the parameter)", s);
        free(s);
        s = t;
    }
    return s;
}

static int make_settings(const rfd_report *rep, settings *st)
{
    memset(st, 0, sizeof *st);
    struct tm tmv;
    if (localtime_r(&rep->when, &tmv) == NULL ||
        strftime(st->date, sizeof st->date, "%Y-%m-%d %H:%M:%S %z", &tmv) ==
            0) {
        snprintf(st->date, sizeof st->date, "(unknown date)");
    }
    st->cone = settings_cone(rep);
    st->length = settings_length(rep);
    st->params = settings_params(rep);
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
    if (sd->ok && !(sd->seconds > 0.0)) { /* recorded elsewhere: no time */
        snprintf(buf, n, "%d steps of %.6g s", sd->r.steps, sd->r.dt);
    } else if (sd->ok) {
        snprintf(buf, n, "%d steps of %.6g s, %.3f s", sd->r.steps, sd->r.dt,
                 sd->seconds);
    } else {
        snprintf(buf, n, "failed after %.3f s", sd->seconds);
    }
}

/* The number of the scene's plots that were drawn. */
static int plots_drawn(const rfd_scene_out *so)
{
    int n = 0;
    for (int p = 0; p < so->nplots; ++p) {
        n += so->plots[p].png != NULL;
    }
    return n;
}

/* ---- the report as a document ---- */

/* Every builder below returns the document's status (0, or -1 once a
   call failed: the document remembers the first failure, so these check
   once at their end). */

/* The title, the date and command line, the settings. */
static int build_head(rfd_doc *d, const rfd_report *rep, const settings *st)
{
    rfd_doc_heading(d, 1, NULL,
                    "rfdemo A/B report: stock Bullet against the cone solver");
    rfd_text *p = rfd_doc_para(d, RFD_PARA_PLAIN);
    rfd_text_add(d, p, RFD_SPAN_TEXT, "Generated ");
    rfd_text_add(d, p, RFD_SPAN_TEXT, st->date);
    if (rep->command != NULL) {
        rfd_text_add(d, p, RFD_SPAN_TEXT, " by ");
        rfd_text_add(d, p, RFD_SPAN_CODE, rep->command);
    }
    rfd_text_add(d, p, RFD_SPAN_TEXT, ".");
    rfd_doc_heading(d, 2, NULL, "Settings");
    /* the two solvers named in bold: what the report compares */
    const struct {
        rfd_span_kind kind;
        const char *name, *value;
    } line[] = {{RFD_SPAN_STRONG, "stock", stock_text},
                {RFD_SPAN_STRONG, "cone", st->cone},
                {RFD_SPAN_TEXT, "run length", st->length},
                {RFD_SPAN_TEXT, "parameters", st->params},
                {RFD_SPAN_TEXT, "plots", st->plots}};
    rfd_block *l = rfd_doc_list(d);
    for (size_t i = 0; i < sizeof line / sizeof line[0]; ++i) {
        rfd_text *t = rfd_list_item(d, l);
        rfd_text_add(d, t, line[i].kind, line[i].name);
        rfd_text_add(d, t, RFD_SPAN_TEXT, ": ");
        rfd_text_add(d, t, RFD_SPAN_TEXT, line[i].value);
    }
    return rfd_doc_status(d);
}

/* A row per scene: its runs (a failed one in bold) and plots drawn. */
static int build_summary(rfd_doc *d, const rfd_report *rep)
{
    static const char *const head[4] = {"scene", "stock", "cone", "plots"};
    static const rfd_align align[4] = {RFD_ALIGN_LEFT, RFD_ALIGN_LEFT,
                                       RFD_ALIGN_LEFT, RFD_ALIGN_LEFT};
    rfd_doc_heading(d, 2, NULL, "Summary");
    rfd_block *tb = rfd_doc_table(d, 4, head, align);
    for (int i = 0; i < rep->nscenes; ++i) {
        const rfd_scene_out *so = &rep->scenes[i];
        char *anchor = rfd_strf("#%s", so->scene->name);
        if (anchor == NULL) {
            return -1;
        }
        rfd_table_row(d, tb);
        rfd_text_link(d, rfd_table_cell(d, tb, 0, NULL), so->scene->name,
                      anchor);
        free(anchor);
        for (int k = 0; k < RFD_SIDES; ++k) {
            char line[128];
            run_line(line, sizeof line, so, k);
            rfd_text_add(d, rfd_table_cell(d, tb, 1 + k, NULL),
                         so->side[k].ok ? RFD_SPAN_TEXT : RFD_SPAN_STRONG,
                         line);
        }
        rfd_text_addf(d, rfd_table_cell(d, tb, 3, NULL), RFD_SPAN_TEXT,
                      "%d of %d", plots_drawn(so), so->scene->nplots);
    }
    return rfd_doc_status(d);
}

/* An item per run: its length and time, its CSV files, or what failed. */
static int build_runs(rfd_doc *d, const rfd_scene_out *so)
{
    rfd_block *l = rfd_doc_list(d);
    for (int k = 0; k < RFD_SIDES; ++k) {
        const rfd_side *sd = &so->side[k];
        char line[128];
        run_line(line, sizeof line, so, k);
        rfd_text *t = rfd_list_item(d, l);
        rfd_text_addf(d, t, RFD_SPAN_TEXT, "%s: %s", rfd_side_name(k), line);
        if (sd->csv != NULL) {
            rfd_text_add(d, t, RFD_SPAN_TEXT, ", data ");
            rfd_text_link(d, t, sd->csv, sd->csv);
            if (sd->r.series.nrows == 0) {
                rfd_text_add(d, t, RFD_SPAN_TEXT,
                             " (empty: no series recorded)");
            }
        }
        if (sd->pcsv != NULL) {
            rfd_text_add(d, t, RFD_SPAN_TEXT, ", particles ");
            rfd_text_link(d, t, sd->pcsv, sd->pcsv);
        }
        if (sd->rec != NULL && sd->ok) {
            rfd_text_add(d, t, RFD_SPAN_TEXT, ", recording ");
            rfd_text_link(d, t, sd->rec, sd->rec);
        }
        if (!sd->ok) {
            char label[64];
            snprintf(label, sizeof label,
                     "The %s run failed:", rfd_side_name(k));
            rfd_list_notice(d, l, label, sd->r.error);
        } else if (sd->csv_error != NULL) {
            rfd_text_add(d, rfd_list_notice(d, l, "CSV missing:", NULL),
                         RFD_SPAN_TEXT, sd->csv_error);
        }
    }
    return rfd_doc_status(d);
}

/* Each declared plot: its picture (and gnuplot's warnings), or why it is
   missing. */
static int build_plots(rfd_doc *d, const rfd_scene_out *so)
{
    const demo_scene *sc = so->scene;
    if (sc->nplots <= 0) {
        rfd_text_add(d, rfd_doc_para(d, RFD_PARA_PLAIN), RFD_SPAN_EM,
                     "This scene declares no plots.");
        return rfd_doc_status(d);
    }
    rfd_doc_heading(d, 3, NULL, "Plots");
    for (int p = 0; p < sc->nplots; ++p) {
        const demo_plot *pl = &sc->plots[p];
        const rfd_plot_out *po = p < so->nplots ? &so->plots[p] : NULL;
        const char *title = pl->title != NULL ? pl->title : plot_name(pl);
        if (po != NULL && po->png != NULL) {
            rfd_doc_figure(d, po->png, title);
            if (po->note != NULL) {
                rfd_doc_pre(d, RFD_TONE_NOTE, po->note);
            }
            continue;
        }
        /* past so->nplots: out of memory before the plot was tried */
        rfd_text *t = rfd_doc_notice(
            d, "Plot missing:", po != NULL ? nz(po->note) : NULL);
        rfd_text_add(d, t, RFD_SPAN_CODE, plot_name(pl));
        rfd_text_add(d, t, RFD_SPAN_TEXT, " (");
        rfd_text_add(d, t, RFD_SPAN_TEXT, po != NULL ? title : "not tried");
        rfd_text_add(d, t, RFD_SPAN_TEXT, ")");
    }
    return rfd_doc_status(d);
}

/* The metric table: both runs' values, the reference, the relative
   errors; then the metrics' descriptions and how to read the table. */
static int build_metric_table(rfd_doc *d, const rfd_scene_out *so,
                              const char *const *names, int n)
{
    static const char *const head[6] = {
        "metric",           "stock",          "cone", "reference",
        "stock rel. error", "cone rel. error"};
    static const rfd_align align[6] = {RFD_ALIGN_LEFT,  RFD_ALIGN_RIGHT,
                                       RFD_ALIGN_RIGHT, RFD_ALIGN_RIGHT,
                                       RFD_ALIGN_RIGHT, RFD_ALIGN_RIGHT};
    rfd_block *tb = rfd_doc_table(d, 6, head, align);
    for (int j = 0; j < n; ++j) {
        metric_row row;
        fill_row(so, names[j], &row);
        const char *cell[5] = {row.value[0], row.value[1], row.ref, row.rel[0],
                               row.rel[1]};
        rfd_table_row(d, tb);
        rfd_text_add(
            d, rfd_table_cell(d, tb, 0, metric_help_text(so->scene, names[j])),
            RFD_SPAN_CODE, names[j]);
        for (int c = 0; c < 5; ++c) {
            rfd_text_add(d, rfd_table_cell(d, tb, 1 + c, NULL), RFD_SPAN_TEXT,
                         cell[c]);
        }
    }
    return rfd_doc_status(d);
}

static int build_metrics(rfd_doc *d, const rfd_scene_out *so)
{
    rfd_doc_heading(d, 3, NULL, "Metrics");
    const char *names[2 * DEMO_MAX_METRICS];
    const int n = metric_names(so, names);
    if (n == 0) {
        rfd_text_add(d, rfd_doc_para(d, RFD_PARA_PLAIN), RFD_SPAN_EM,
                     "No metrics: neither run finished.");
        return rfd_doc_status(d);
    }
    build_metric_table(d, so, names, n);
    /* always there, empty when no metric has a description: an empty
       glossary renders as nothing (Markdown keeps its blank line) */
    rfd_block *g = rfd_doc_glossary(d, "Metrics");
    for (int j = 0; j < n; ++j) {
        const char *h = metric_help_text(so->scene, names[j]);
        if (h != NULL) {
            rfd_glossary_entry(d, g, names[j], h);
        }
    }
    /* raw: '|' needs no escaping outside a table */
    rfd_text *t = rfd_doc_para(d, RFD_PARA_SMALL);
    rfd_text_add(d, t, RFD_SPAN_EM, "rel. error");
    rfd_text_add(d, t, RFD_SPAN_RAW, " = (value ");
    rfd_text_symbol(d, t, MINUS, "minus");
    rfd_text_add(d, t, RFD_SPAN_RAW,
                 " reference) / |reference|; n/a: not measured (e.g. a run "
                 "too short for the window); " DASH ": none.");
    return rfd_doc_status(d);
}

/* The link to the scene in the 3D viewer (view.html#<scene>), when the
   viewer was written and a run left a recording. */
static int build_view_link(rfd_doc *d, const rfd_report *rep,
                           const rfd_scene_out *so)
{
    int recorded = 0;
    for (int k = 0; k < RFD_SIDES; ++k) {
        recorded |= so->side[k].rec != NULL;
    }
    if (rep->view == NULL || !recorded) {
        return rfd_doc_status(d);
    }
    char *target = rfd_strf("%s#%s", rep->view, so->scene->name);
    if (target == NULL) {
        return -1;
    }
    rfd_text *t = rfd_doc_para(d, RFD_PARA_PLAIN);
    rfd_text_add(d, t, RFD_SPAN_TEXT, "3D: ");
    rfd_text_link(d, t, "both runs side by side in the A/B viewer", target);
    free(target);
    return rfd_doc_status(d);
}

/* A scene's section: its description, runs, viewer link, plots and
   metrics. */
static int build_scene(rfd_doc *d, const rfd_report *rep,
                       const rfd_scene_out *so)
{
    const demo_scene *sc = so->scene;
    rfd_doc_heading(d, 2, sc->name, sc->name);
    rfd_text_add(d, rfd_doc_para(d, RFD_PARA_PLAIN), RFD_SPAN_TEXT,
                 sc->description);
    if (sc->explanation != NULL) {
        rfd_text_add(d, rfd_doc_para(d, RFD_PARA_PLAIN), RFD_SPAN_TEXT,
                     sc->explanation);
    }
    build_runs(d, so);
    build_view_link(d, rep, so);
    build_plots(d, so);
    return build_metrics(d, so);
}

/* The whole report as one document; NULL with *err set (a malloc'ed
   message, NULL when out of memory) when it cannot be built. */
static rfd_doc *build_report(const rfd_report *rep, char **err)
{
    settings st;
    if (make_settings(rep, &st) != 0) {
        free_settings(&st);
        return NULL;
    }
    rfd_doc *d = rfd_doc_new("rfdemo A/B report");
    int rc = d != NULL ? build_head(d, rep, &st) : -1;
    if (rc == 0) {
        rc = build_summary(d, rep);
    }
    for (int i = 0; rc == 0 && i < rep->nscenes; ++i) {
        rc = build_scene(d, rep, &rep->scenes[i]);
    }
    free_settings(&st); /* the document holds copies */
    if (d != NULL && rc != 0) {
        const char *why = rfd_doc_error(d);
        *err = why != NULL && strcmp(why, OOM) != 0
                   ? rfd_strf("cannot build the report: %s", why)
                   : NULL;
        rfd_doc_free(d);
        d = NULL;
    }
    return d;
}

/* Renders the document into dir/name; 0, or -1 with *err as for
   rfd_write_report. */
static int write_file(const rfd_report *rep, const rfd_doc *d, const char *name,
                      int (*render)(const rfd_doc *, FILE *), char **err)
{
    char *path;
    FILE *f = rfd_open_out(rep->dir, name, &path, err);
    if (f == NULL) {
        return -1;
    }
    return rfd_close_out(f, path, render(d, f), err);
}

int rfd_write_report(const rfd_report *rep, char **err)
{
    *err = NULL;
    rfd_doc *d = build_report(rep, err);
    if (d == NULL) {
        return -1;
    }
    int rc = write_file(rep, d, "report.md", rfd_doc_write_md, err);
    if (rc == 0) {
        rc = write_file(rep, d, "report.html", rfd_doc_write_html, err);
    }
    rfd_doc_free(d);
    return rc;
}
