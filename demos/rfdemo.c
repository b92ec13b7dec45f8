/*
 * rfdemo: the demo scenes' A/B runner.
 *
 *   rfdemo list [--verbose]
 *   rfdemo run SCENE [the scene executables' options]
 *   rfdemo ab [SCENE...] --out DIR [--quick] [--model
 * associated|desaxce|pyramid]
 *             [--steps N] [--dt H] [--set KEY=VALUE]...
 *   rfdemo view A.rec B.rec --out DIR [--labels A,B] [--title TEXT]
 *   rfdemo report STOCK.rec CONE.rec --out DIR [--title TEXT]
 *
 * `run` is demo_main on the scene (the same options and output: the JSON
 * line last) with a progress bar; `ab` runs each scene with Bullet's
 * solver and with the cone solver and writes CSVs, gnuplot PNGs and
 * report.md / report.html (demos/report.c and report_*.c) and the 3D A/B
 * viewer view.html (demos/viewer.c) into DIR; `view` writes that viewer
 * for any two recordings.  A run longer than RFDEMO_PROGRESS_AFTER seconds
 * (default 2) shows a progress bar on stderr when stderr is a terminal,
 * else one line when it ends.  RFDEMO_GNUPLOT names the gnuplot program
 * (default gnuplot, searched in PATH), RFDEMO_THREE_DIR the folder of
 * three.js (viewer.c).
 *
 * Exit status: 0 success; 1 a run, a file or a plot failed (the others
 * still run; ab's report says what failed); 2 a bad argument.
 */
#define _POSIX_C_SOURCE 200809L

#include "demo.h"
#include "report.h"
#include "viewer.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- progress ---- */

typedef struct progress {
    const char *scene, *solver;
    int total, done;
    double after; /* seconds before anything is shown */
    double start, last_draw;
    int tty, drawn;
    demo_step_fn chain; /* the run's own callback, called on */
    void *chain_user;
} progress;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double progress_after(void)
{
    const char *s = getenv("RFDEMO_PROGRESS_AFTER");
    if (s != NULL && *s) {
        char *end;
        const double x = strtod(s, &end);
        if (*end == '\0' && x >= 0 && isfinite(x)) {
            return x;
        }
    }
    return 2.0;
}

static void progress_begin(progress *p, const char *scene, plSolver solver,
                           int total, demo_step_fn chain, void *chain_user)
{
    memset(p, 0, sizeof *p);
    p->scene = scene;
    p->solver = demo_solver_name(solver);
    p->total = total;
    p->after = progress_after();
    p->tty = isatty(fileno(stderr));
    p->chain = chain;
    p->chain_user = chain_user;
    p->start = p->last_draw = now_s();
}

static void progress_draw(progress *p, double t)
{
    enum { WIDTH = 24 };
    const double frac =
        p->total > 0 ? fmin(1.0, (double)p->done / p->total) : 0.0;
    char bar[WIDTH + 1];
    const int full = (int)(frac * WIDTH);
    for (int i = 0; i < WIDTH; ++i) {
        bar[i] = i < full ? '#' : '.';
    }
    bar[WIDTH] = '\0';
    const double el = t - p->start;
    fprintf(stderr, "\r%s %s [%s] %3d%% %d/%d steps, %.1f s", p->scene,
            p->solver, bar, (int)(100 * frac), p->done, p->total, el);
    if (frac > 0 && frac < 1) {
        fprintf(stderr, ", ~%.0f s left", el * (1 - frac) / frac);
    }
    fputs("\033[K", stderr);
    fflush(stderr);
    p->drawn = 1;
    p->last_draw = t;
}

static int progress_step(demo_world *w, int step, void *user)
{
    progress *p = user;
    p->done = step;
    if (p->tty) {
        const double t = now_s();
        if (t - p->start >= p->after && t - p->last_draw >= 0.1) {
            progress_draw(p, t);
        }
    }
    return p->chain != NULL ? p->chain(w, step, p->chain_user) : 0;
}

/* After the run: the bar becomes a one-line summary (a terminal), or one
 * line is printed (not a terminal), for runs longer than p->after. */
static void progress_end(progress *p, int ok)
{
    const double el = now_s() - p->start;
    if (!p->drawn && el < p->after) {
        return;
    }
    fprintf(stderr, "%s%s %s: %s%d steps, %.1f s%s\n", p->tty ? "\r" : "",
            p->scene, p->solver, ok ? "" : "failed after ", p->done, el,
            p->tty ? "\033[K" : "");
    fflush(stderr);
}

/* ---- arguments ---- */

static int bad(const char *fmt, const char *arg)
{
    fputs("rfdemo: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(rfdemo --help shows the usage)\n", stderr);
    return 2;
}

static void usage(FILE *f)
{
    fputs("usage: rfdemo list [--verbose]\n"
          "       rfdemo run SCENE [--solver stock|cone] [--model "
          "associated|desaxce|pyramid]\n"
          "                  [--steps N] [--dt H] [--set KEY=VALUE]... [--csv "
          "FILE]\n"
          "                  [--particles FILE] [--quick] [--quiet] [--help]\n"
          "       rfdemo ab [SCENE...] --out DIR [--quick] [--model "
          "associated|desaxce|pyramid]\n"
          "                 [--steps N] [--dt H] [--set KEY=VALUE]...\n"
          "       rfdemo view A.rec B.rec --out DIR [--labels A,B] [--title "
          "TEXT]\n"
          "       rfdemo report STOCK.rec CONE.rec --out DIR [--title TEXT]\n"
          "\n"
          "list   every scene with its description; --verbose: its --set "
          "parameters,\n"
          "       metrics and plots\n"
          "run    one scene, as its own executable does: the bodies' final "
          "states, then\n"
          "       (last line) a JSON object of the metrics\n"
          "ab     each scene (all when none is named) with Bullet's solver and "
          "with the\n"
          "       cone solver: DIR/<scene>-stock.csv, DIR/<scene>-cone.csv "
          "(and\n"
          "       DIR/<scene>-<solver>-particles.csv where a scene pictures "
          "particles), recordings\n"
          "       DIR/<scene>-<solver>.rec (docs/recording.md), gnuplot plots\n"
          "       DIR/<scene>-<plot>.png, DIR/report.md and DIR/report.html "
          "(its path is\n"
          "       the last line printed), and the 3D A/B viewer DIR/view.html "
          "(a browser,\n"
          "       three.js from Debian's libjs-three).  --set applies to the "
          "scenes that have\n"
          "       the key.\n"
          "view   DIR/view.html: two recordings side by side in 3D, labelled "
          "with --labels\n"
          "       (default: their file names)\n"
          "report DIR/report.html and DIR/view.html from two recordings of any "
          "application\n"
          "       in DIR (rollfric ab): its moving bodies' speed, height and "
          "energy per kg\n"
          "\n"
          "Environment: RFDEMO_GNUPLOT (default gnuplot), "
          "RFDEMO_PROGRESS_AFTER\n"
          "(seconds before a run shows progress on stderr, default 2),\n"
          "RFDEMO_THREE_DIR (where three.js is, default "
          "/usr/share/javascript/three).\n"
          "Exit status: 0 ok; 1 a run, file or plot failed; 2 bad argument.\n",
          f);
}

static int known_scenes(char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < demo_nscenes && len < n; ++i) {
        const int k = snprintf(buf + len, n - len, "%s%s", i ? ", " : "",
                               demo_scenes[i]->name);
        if (k < 0 || (size_t)k >= n - len) {
            return -1; /* truncated */
        }
        len += (size_t)k;
    }
    return 0;
}

static int unknown_scene(const char *cmd, const char *name)
{
    char known[2048];
    const int trunc = known_scenes(known, sizeof known);
    fprintf(stderr,
            "rfdemo %s: unknown scene \"%s\" (known: %s%s; rfdemo list "
            "describes them)\n",
            cmd, name, known, trunc ? "..." : "");
    return 2;
}

/* ---- list ---- */

/* s, or "?" for a missing name. */
static const char *nz(const char *s)
{
    return s != NULL ? s : "?";
}

/* Prints text wrapped at about 76 columns, each line indented. */
static void wrap(const char *text, int indent)
{
    const int width = 76;
    const char *p = text;
    while (*p) {
        while (*p == ' ') {
            ++p;
        }
        if (!*p) {
            break;
        }
        int room = width - indent, len = 0, last_space = -1;
        while (p[len] && p[len] != '\n' && len < room) {
            if (p[len] == ' ') {
                last_space = len;
            }
            ++len;
        }
        if (p[len] && p[len] != ' ' && p[len] != '\n' && last_space > 0) {
            len = last_space;
        }
        int shown = len;
        while (shown > 0 && p[shown - 1] == ' ') {
            --shown;
        }
        printf("%*s%.*s\n", indent, "", shown, p);
        p += len;
        if (*p == '\n') {
            ++p;
        }
    }
}

static int cmd_list(int argc, char **argv)
{
    int verbose = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--verbose") == 0 || strcmp(argv[i], "-v") == 0) {
            verbose = 1;
        } else if (strcmp(argv[i], "--help") == 0 ||
                   strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else {
            return bad("list: unknown argument \"%s\" (only --verbose)",
                       argv[i]);
        }
    }
    int width = 0;
    for (int i = 0; i < demo_nscenes; ++i) {
        const int n = (int)strlen(demo_scenes[i]->name);
        width = n > width ? n : width;
    }
    for (int i = 0; i < demo_nscenes; ++i) {
        const demo_scene *sc = demo_scenes[i];
        if (verbose && i > 0) {
            putchar('\n');
        }
        printf("%-*s  %s\n", width, sc->name,
               sc->description != NULL ? sc->description : "");
        if (!verbose) {
            continue;
        }
        printf("  steps %d, --quick %d\n", sc->default_steps, sc->quick_steps);
        if (sc->nparams == 0) {
            printf("  param (none)\n");
        }
        for (int j = 0; j < sc->nparams; ++j) {
            printf("  param %s = %g: %s\n", sc->params[j].key,
                   sc->params[j].def,
                   sc->params[j].help != NULL ? sc->params[j].help : "");
        }
        for (int j = 0; sc->metric_info != NULL && j < sc->nmetric_info; ++j) {
            printf(
                "  metric %s: %s\n",
                sc->metric_info[j].name != NULL ? sc->metric_info[j].name : "?",
                sc->metric_info[j].help != NULL ? sc->metric_info[j].help : "");
        }
        if (sc->nplots == 0) {
            printf("  plot (none)\n");
        }
        for (int j = 0; sc->plots != NULL && j < sc->nplots; ++j) {
            const demo_plot *pl = &sc->plots[j];
            const char *x = pl->x != NULL ? pl->x : "?";
            printf("  plot %s: %s (", pl->name != NULL ? pl->name : "?",
                   pl->title != NULL ? pl->title : "");
            if (pl->kind == DEMO_PLOT_MAP) {
                printf("heat map of %s over %s and %s)\n", nz(pl->y[0]), x,
                       nz(pl->y[1]));
                continue;
            }
            if (pl->kind == DEMO_PLOT_PARTICLES) {
                printf("particles: %s against %s, radius %s, a panel per "
                       "%s%s%s)\n",
                       nz(pl->y[0]), x, nz(pl->size), nz(pl->group[0]),
                       pl->group[1] != NULL ? " and " : "",
                       pl->group[1] != NULL ? pl->group[1] : "");
                continue;
            }
            for (int k = 0; k < 4 && pl->y[k] != NULL; ++k) {
                printf("%s%s", k ? ", " : "", pl->y[k]);
            }
            printf(" against %s%s)\n", x, pl->logx ? ", log scale" : "");
        }
        if (sc->explanation != NULL) {
            printf("  what to look at:\n");
            wrap(sc->explanation, 4);
        }
    }
    return 0;
}

/* ---- run ---- */

/* The scene as demo_main sees it: the original with a run function that
 * wraps the original's in the progress callback. */
typedef struct wrapped_scene {
    demo_scene s; /* first: a demo_scene * to it is a wrapped_scene * */
    const demo_scene *orig;
    progress *p;
} wrapped_scene;

static int wrapped_run(const demo_scene *scene, const demo_opts *opts,
                       demo_result *out)
{
    const wrapped_scene *ws = (const wrapped_scene *)(const void *)scene;
    demo_opts o = *opts;
    progress_begin(ws->p, ws->orig->name, o.solver, demo_steps(ws->orig, &o),
                   o.on_step, o.user);
    o.on_step = progress_step;
    o.user = ws->p;
    const int rc = ws->orig->run(ws->orig, &o, out);
    progress_end(ws->p, rc == 0);
    return rc;
}

static int cmd_run(int argc, char **argv)
{
    if (argc < 2) {
        return bad("run: name a scene (%s)", "rfdemo list shows them");
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return 0;
    }
    const demo_scene *sc = demo_find_scene(argv[1]);
    if (sc == NULL) {
        return unknown_scene("run", argv[1]);
    }
    progress p;
    wrapped_scene ws;
    ws.s = *sc;
    ws.s.run = wrapped_run;
    ws.orig = sc;
    ws.p = &p;
    /* demo_main's argv: the program name, then the options */
    char **av = malloc((size_t)argc * sizeof *av);
    char *prog = rfd_strf("rfdemo run %s", sc->name);
    if (av == NULL || prog == NULL) {
        free(av);
        free(prog);
        fputs("rfdemo: out of memory\n", stderr);
        return 1;
    }
    av[0] = prog;
    for (int i = 2; i < argc; ++i) {
        av[i - 1] = argv[i];
    }
    const int rc = demo_main(argc - 1, av, &ws.s);
    free(av);
    free(prog);
    return rc;
}

/* ---- ab ---- */

/* mkdir -p; 0, or -1 with *err malloc'ed. */
/* The command line, for the report (arguments with odd characters in
 * single quotes). */
static char *command_line(int argc, char **argv)
{
    char *s = rfd_strf("rfdemo");
    for (int i = 0; s != NULL && i < argc; ++i) {
        const char *a = argv[i];
        int plain = *a != '\0';
        for (const char *c = a; *c && plain; ++c) {
            plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX"
                           "YZ0123456789_-.,/=+:@%",
                           *c) != NULL;
        }
        char *t;
        if (plain) {
            t = rfd_strf("%s %s", s, a);
        } else {
            t = rfd_strf("%s '", s);
            for (const char *c = a; t != NULL && *c; ++c) {
                char *u = *c == '\'' ? rfd_strf("%s'\\''", t)
                                     : rfd_strf("%s%c", t, *c);
                free(t);
                t = u;
            }
            if (t != NULL) {
                char *u = rfd_strf("%s'", t);
                free(t);
                t = u;
            }
        }
        free(s);
        s = t;
    }
    return s;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    const double x = strtod(s, &end);
    if (end == s || *end != '\0' || errno != 0 || !isfinite(x)) {
        return -1;
    }
    *out = x;
    return 0;
}

typedef struct ab_args {
    const char *out;
    int quick, steps;
    double dt;
    int model_given;
    rf_config cfg;
    demo_opts sets; /* only nset / set[] used */
    int nscenes;
    const demo_scene **scenes; /* malloc'ed */
} ab_args;

/* 0 parsed, 2 bad argument (message printed), 1 out of memory, -1 help. */
static int ab_parse(int argc, char **argv, ab_args *a)
{
    memset(a, 0, sizeof *a);
    rf_config_default(&a->cfg);
    demo_opts_default(&a->sets);
    a->scenes = malloc((size_t)(argc > 0 ? argc : 1) * sizeof *a->scenes);
    if (a->scenes == NULL) {
        fputs("rfdemo: out of memory\n", stderr);
        return 1;
    }
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return -1;
        } else if (strcmp(arg, "--quick") == 0) {
            a->quick = 1;
        } else if (strcmp(arg, "--out") == 0) {
            if (val == NULL || *val == '\0') {
                return bad("ab: %s needs a folder name", arg);
            }
            a->out = val;
            ++i;
        } else if (strcmp(arg, "--model") == 0) {
            if (val == NULL) {
                return bad("ab: %s needs associated, desaxce or pyramid", arg);
            }
            if (demo_model_parse(val, &a->cfg.model) != 0) {
                return bad("ab: --model: \"%s\" is not associated, desaxce "
                           "or pyramid",
                           val);
            }
            a->model_given = 1;
            ++i;
        } else if (strcmp(arg, "--steps") == 0) {
            char *end;
            if (val == NULL) {
                return bad("ab: %s needs a number", arg);
            }
            errno = 0;
            const long n = strtol(val, &end, 10);
            if (end == val || *end != '\0' || errno != 0 || n < 1 ||
                n > 100000000L) {
                return bad("ab: --steps: \"%s\" is not a whole number in "
                           "[1, 1e8]",
                           val);
            }
            a->steps = (int)n;
            ++i;
        } else if (strcmp(arg, "--dt") == 0) {
            if (val == NULL) {
                return bad("ab: %s needs a number of seconds", arg);
            }
            if (parse_double(val, &a->dt) != 0 || !(a->dt > 0)) {
                return bad("ab: --dt: \"%s\" is not a number > 0", val);
            }
            ++i;
        } else if (strcmp(arg, "--set") == 0) {
            if (val == NULL) {
                return bad("ab: %s needs KEY=VALUE", arg);
            }
            const char *eq = strchr(val, '=');
            char key[DEMO_NAME_LEN];
            double x;
            if (eq == NULL || eq == val || (size_t)(eq - val) >= sizeof key) {
                return bad("ab: --set: \"%s\" is not KEY=VALUE (KEY at most "
                           "39 characters)",
                           val);
            }
            memcpy(key, val, (size_t)(eq - val));
            key[eq - val] = '\0';
            if (parse_double(eq + 1, &x) != 0) {
                return bad("ab: --set: the value in \"%s\" is not a number",
                           val);
            }
            if (demo_opts_set(&a->sets, key, x) != 0) {
                return bad("ab: --set: too many parameters (at \"%s\")", val);
            }
            ++i;
        } else if (arg[0] == '-') {
            return bad("ab: unknown option \"%s\"", arg);
        } else {
            const demo_scene *sc = demo_find_scene(arg);
            if (sc == NULL) {
                return unknown_scene("ab", arg);
            }
            for (int j = 0; j < a->nscenes; ++j) {
                if (a->scenes[j] == sc) {
                    return bad("ab: scene \"%s\" named twice", arg);
                }
            }
            a->scenes[a->nscenes++] = sc;
        }
    }
    if (a->out == NULL) {
        return bad("ab: --out DIR is required (%s)",
                   "the folder for the CSVs, plots and report");
    }
    if (a->nscenes == 0) {
        const demo_scene **all =
            realloc(a->scenes, (size_t)(demo_nscenes > 0 ? demo_nscenes : 1) *
                                   sizeof *all);
        if (all == NULL) {
            fputs("rfdemo: out of memory\n", stderr);
            return 1;
        }
        a->scenes = all;
        for (int i = 0; i < demo_nscenes; ++i) {
            a->scenes[a->nscenes++] = demo_scenes[i];
        }
    }
    for (int j = 0; j < a->sets.nset; ++j) {
        int used = 0;
        for (int i = 0; i < a->nscenes && !used; ++i) {
            used = !isnan(
                demo_param_value(a->scenes[i], NULL, a->sets.set[j].key));
        }
        if (!used) {
            return bad("ab: --set: none of the scenes has a parameter \"%s\" "
                       "(rfdemo list --verbose shows them)",
                       a->sets.set[j].key);
        }
    }
    return 0;
}

/* Runs one scene with one solver and writes its CSV; 0, or the number of
 * failures (1 or 2). */
/* Writes table t as dir/<scene>-<solver><suffix>.csv: *name = the file
   name, or *error = why not.  -1 only when out of memory. */
static int write_table(const char *dir, const demo_scene *sc, int k,
                       const char *suffix, const demo_series *t, char **name,
                       char **error)
{
    char *file = rfd_strf("%s-%s%s.csv", sc->name, rfd_side_name(k), suffix);
    char *path = file != NULL ? rfd_path(dir, file) : NULL;
    if (path == NULL) {
        free(file);
        return -1;
    }
    if (demo_series_write_csv(t, path) != 0) {
        *error = rfd_strf("cannot write %s: %s", path, strerror(errno));
        free(file);
    } else {
        *name = file;
    }
    free(path);
    return 0;
}

static int ab_side(const ab_args *a, rfd_report *rep, rfd_scene_out *so, int k)
{
    const demo_scene *sc = so->scene;
    rfd_side *sd = &so->side[k];
    demo_opts o;
    progress p;
    demo_opts_default(&o);
    o.solver = k == RFD_STOCK ? PL_SOLVER_STOCK : PL_SOLVER_CONE;
    o.quick = a->quick;
    o.steps = a->steps;
    o.dt = a->dt;
    o.config = a->model_given ? &a->cfg : NULL;
    for (int j = 0; j < a->sets.nset; ++j) {
        if (!isnan(demo_param_value(sc, NULL, a->sets.set[j].key))) {
            o.set[o.nset++] = a->sets.set[j];
        }
    }
    /* the run's recording, DIR/<scene>-<solver>.rec, for the viewer */
    char *rec_path = NULL;
    if (rfd_safe_name(sc->name)) {
        sd->rec = rfd_strf("%s-%s.rec", sc->name, rfd_side_name(k));
        rec_path = sd->rec != NULL ? rfd_path(rep->dir, sd->rec) : NULL;
        if (rec_path == NULL) {
            fputs("rfdemo: out of memory\n", stderr);
            return 1;
        }
        o.record = rec_path;
    }
    so->steps = demo_steps(sc, &o);
    progress_begin(&p, sc->name, o.solver, so->steps, NULL, NULL);
    o.on_step = progress_step;
    o.user = &p;
    const double t0 = now_s();
    sd->ok = demo_run(sc, &o, &sd->r) == 0;
    sd->seconds = now_s() - t0;
    free(rec_path);
    progress_end(&p, sd->ok);
    if (!sd->ok) {
        fprintf(stderr, "rfdemo: %s with the %s solver failed: %s\n", sc->name,
                rfd_side_name(k), sd->r.error);
        return 1;
    }
    if (!rfd_safe_name(sc->name)) {
        sd->csv_error = rfd_strf("the scene name \"%s\" is not usable in a "
                                 "file name",
                                 sc->name);
    } else if (write_table(rep->dir, sc, k, "", &sd->r.series, &sd->csv,
                           &sd->csv_error) != 0 ||
               (sd->r.particles.nrows > 0 &&
                write_table(rep->dir, sc, k, "-particles", &sd->r.particles,
                            &sd->pcsv, &sd->csv_error) != 0)) {
        fputs("rfdemo: out of memory\n", stderr);
        return 1;
    }
    if (sd->csv_error != NULL || sd->csv == NULL) {
        fprintf(stderr, "rfdemo: %s\n",
                sd->csv_error != NULL ? sd->csv_error : "out of memory");
        return 1;
    }
    return 0;
}

static int cmd_ab(int argc, char **argv)
{
    ab_args a;
    int rc = ab_parse(argc, argv, &a);
    if (rc != 0) {
        free(a.scenes);
        return rc < 0 ? 0 : rc;
    }
    char *err = NULL;
    if (rfd_make_dir(a.out, &err) != 0) {
        fprintf(stderr, "rfdemo ab: %s\n", err != NULL ? err : "out of memory");
        free(err);
        free(a.scenes);
        return 1;
    }
    rfd_report rep;
    memset(&rep, 0, sizeof rep);
    rep.dir = a.out;
    rep.when = time(NULL);
    rep.quick = a.quick;
    rep.steps = a.steps;
    rep.dt = a.dt;
    rep.config = a.model_given ? &a.cfg : NULL;
    rep.set = a.sets.set;
    rep.nset = a.sets.nset;
    rep.gnuplot = getenv("RFDEMO_GNUPLOT");
    if (rep.gnuplot == NULL || *rep.gnuplot == '\0') {
        rep.gnuplot = "gnuplot";
    }
    char *cmdline = command_line(argc, argv);
    rep.command = cmdline;
    rep.scenes = calloc((size_t)a.nscenes, sizeof *rep.scenes);
    if (rep.scenes == NULL) {
        fputs("rfdemo: out of memory\n", stderr);
        free(cmdline);
        free(a.scenes);
        return 1;
    }
    int failures = 0;
    for (int i = 0; i < a.nscenes; ++i) {
        rfd_scene_out *so = &rep.scenes[i];
        so->scene = a.scenes[i];
        rep.nscenes = i + 1;
        for (int k = 0; k < RFD_SIDES; ++k) {
            failures += ab_side(&a, &rep, so, k);
        }
        const int bad_plots = rfd_plot_scene(&rep, so);
        if (bad_plots < 0) {
            fprintf(stderr, "rfdemo: %s: out of memory for the plots\n",
                    so->scene->name);
            failures++;
        } else {
            failures += bad_plots;
            for (int p = 0; p < so->nplots; ++p) {
                if (so->plots[p].failed) {
                    fprintf(stderr, "rfdemo: %s plot %s: %s\n", so->scene->name,
                            so->scene->plots[p].name != NULL
                                ? so->scene->plots[p].name
                                : "?",
                            so->plots[p].note != NULL ? so->plots[p].note
                                                      : "out of memory");
                }
            }
        }
        int drawn = 0;
        for (int p = 0; p < so->nplots; ++p) {
            drawn += so->plots[p].png != NULL;
        }
        printf("%s: stock %s (%.2f s), cone %s (%.2f s), %d of %d plots\n",
               so->scene->name, so->side[0].ok ? "ok" : "FAILED",
               so->side[0].seconds, so->side[1].ok ? "ok" : "FAILED",
               so->side[1].seconds, drawn, so->scene->nplots);
        fflush(stdout);
    }
    /* the 3D viewer before the report, which links to it; its failure is
       one more failure, three.js missing only a warning */
    failures += rfv_write_report_for(&rep, "rfdemo ab");
    if (rep.view != NULL) {
        char *view = rfd_path(a.out, rep.view);
        if (view != NULL) {
            printf("viewer %s\n", view);
        }
        free(view);
    }
    rc = rfd_write_report(&rep, &err);
    if (rc != 0) {
        fprintf(stderr, "rfdemo ab: %s\n", err != NULL ? err : "out of memory");
        free(err);
        failures++;
    } else {
        char *md = rfd_path(a.out, "report.md");
        char *html = rfd_path(a.out, "report.html");
        if (md != NULL && html != NULL) {
            printf("wrote %s\n", md);
            if (failures > 0) {
                printf("%d failure%s: see the report\n", failures,
                       failures > 1 ? "s" : "");
            }
            printf("%s\n", html);
        } else {
            fputs("rfdemo: out of memory\n", stderr);
            failures++;
        }
        free(md);
        free(html);
    }
    for (int i = 0; i < rep.nscenes; ++i) {
        rfd_scene_out_free(&rep.scenes[i]);
    }
    free(rep.scenes);
    free(rep.gnuplot_error);
    free(cmdline);
    free(a.scenes);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "rfdemo: cannot write the output: %s\n",
                strerror(errno));
        return 1;
    }
    return failures > 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 ||
        strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "list") == 0) {
        return cmd_list(argc - 1, argv + 1);
    }
    if (strcmp(cmd, "run") == 0) {
        return cmd_run(argc - 1, argv + 1);
    }
    if (strcmp(cmd, "ab") == 0) {
        return cmd_ab(argc - 1, argv + 1);
    }
    if (strcmp(cmd, "view") == 0) {
        return rfv_main(argc - 1, argv + 1);
    }
    if (strcmp(cmd, "report") == 0) {
        return rfd_report_main(argc - 1, argv + 1);
    }
    return bad("unknown command \"%s\" (list, run, ab, view or report)", cmd);
}
