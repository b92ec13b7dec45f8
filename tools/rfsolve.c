/*
 * rfsolve: solve a rolling-friction problem file and report.
 *
 *   rfsolve FILE [--model associated|desaxce] [--solver
 * jacobi|gs|gs-colored|apgd]
 *                [--tol T] [--max-iter N] [--threads N]
 *                [--write-solution OUT] [--quiet]
 *
 * The last line printed is a one-line JSON summary.  Exit status: 0
 * converged, 1 not converged, 2 bad input.
 */
#include "rollfric/rollfric.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *USAGE =
    "usage: rfsolve FILE [--model associated|desaxce|pyramid]\n"
    "               [--solver jacobi|gs|gs-colored|apgd] [--tol T]\n"
    "               [--max-iter N] [--threads N] [--write-solution OUT]\n"
    "               [--cohesion C] [--compliance C] [--normal-max C]\n"
    "               [--local-mdp] [--quiet]\n"
    "Solves the rolling-friction problem in FILE (Siconos format, dimension\n"
    "5 or 6) and prints a JSON summary as the last line.\n"
    "--cohesion C gives every contact the cohesion C (N s, >= 0: its normal\n"
    "impulse may reach -C; the file format has none).  --compliance C adds\n"
    "C (m/s per N s) to every contact's normal diagonal entry of W (a soft\n"
    "contact: Tikhonov regularisation, Tasora-Anitescu 6.2).  --normal-max\n"
    "C caps every normal impulse at C (N s: a yield, crushing).  --local-mdp:\n"
    "Gauss-Seidel's local step is Preclik's maximally dissipative impact\n"
    "for contacts without rolling and spinning friction (implies --solver\n"
    "gs unless gs-colored is given).\n"
    "Defaults: --model desaxce --solver apgd --tol 1e-10 --max-iter 100000\n"
    "--cohesion 0 --compliance 0 --normal-max 0 (none).\n"
    "Exit status: 0 converged, 1 not converged, 2 bad input.\n";

static const char *SOLVERS[] = {"jacobi", "gs", "gs-colored", "apgd"};
static const char *MODELS[] = {"associated", "desaxce", "pyramid"};

typedef struct options {
    const char *file;
    const char *solution;
    rf_config cfg;
    double cohesion;
    double compliance;
    double normal_max;
    int quiet;
} options;

static int lookup(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; ++i) {
        if (strcmp(s, names[i]) == 0) {
            return i;
        }
    }
    return -1;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || errno != 0) {
        return 0;
    }
    *out = v;
    return 1;
}

static int parse_int(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno != 0 || v < -2147483647L ||
        v > 2147483647L) {
        return 0;
    }
    *out = (int)v;
    return 1;
}

/* Returns 0 ok, 1 --help, 2 error (message printed). */
/* a, one of the options that take a value */
static int is_option(const char *a)
{
    static const char *const with_value[] = {
        "--model",      "--solver",     "--tol",
        "--max-iter",   "--threads",    "--cohesion",
        "--normal-max", "--compliance", "--write-solution"};
    for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; ++k) {
        if (strcmp(a, with_value[k]) == 0) {
            return 1;
        }
    }
    return 0;
}

static int parse_args(int argc, char **argv, options *o)
{
    rf_config_default(&o->cfg);
    o->cfg.model = RF_MODEL_DESAXCE;
    o->cfg.tol = 1e-10;
    o->cfg.max_iter = 100000;
    o->cfg.warm_start = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        int ok = 1, takes = 1;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            return 1;
        } else if (strcmp(a, "--quiet") == 0) {
            o->quiet = 1;
            takes = 0;
        } else if (strcmp(a, "--local-mdp") == 0) {
            o->cfg.local_mdp = 1;
            takes = 0;
        } else if (val == NULL && is_option(a)) {
            fprintf(stderr, "rfsolve: %s needs a value\n", a);
            return 2;
        } else if (strcmp(a, "--model") == 0) {
            int k = lookup(val, MODELS, 3);
            ok = k >= 0;
            o->cfg.model = (rf_model)(ok ? k : 0);
        } else if (strcmp(a, "--solver") == 0) {
            int k = lookup(val, SOLVERS, 4);
            ok = k >= 0;
            o->cfg.solver = (rf_solver_kind)(ok ? k : 0);
        } else if (strcmp(a, "--tol") == 0) {
            ok = parse_double(val, &o->cfg.tol);
        } else if (strcmp(a, "--max-iter") == 0) {
            ok = parse_int(val, &o->cfg.max_iter);
        } else if (strcmp(a, "--threads") == 0) {
            ok = parse_int(val, &o->cfg.threads);
        } else if (strcmp(a, "--cohesion") == 0) {
            ok = parse_double(val, &o->cohesion) && isfinite(o->cohesion) &&
                 o->cohesion >= 0.0;
        } else if (strcmp(a, "--normal-max") == 0) {
            ok = parse_double(val, &o->normal_max) && isfinite(o->normal_max) &&
                 o->normal_max >= 0.0;
        } else if (strcmp(a, "--compliance") == 0) {
            ok = parse_double(val, &o->compliance) && isfinite(o->compliance) &&
                 o->compliance >= 0.0;
        } else if (strcmp(a, "--write-solution") == 0) {
            o->solution = val;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "rfsolve: unknown option %s\n%s", a, USAGE);
            return 2;
        } else if (o->file == NULL) {
            o->file = a;
            takes = 0;
        } else {
            fprintf(stderr, "rfsolve: more than one FILE (%s)\n", a);
            return 2;
        }
        if (!ok) {
            fprintf(stderr, "rfsolve: bad value for %s: %s\n", a, val);
            return 2;
        }
        i += takes;
    }
    if (o->file == NULL) {
        fprintf(stderr, "rfsolve: no FILE given\n%s", USAGE);
        return 2;
    }
    if (o->cfg.local_mdp && o->cfg.solver != RF_SOLVER_GS_COLORED) {
        o->cfg.solver = RF_SOLVER_GS;
    }
    if (o->cfg.max_iter > RF_MANY_ITERATIONS && o->cfg.tol == 0.0) {
        fprintf(stderr,
                "rfsolve: warning: --max-iter %d with --tol 0 runs all of "
                "them (more than %d)\n",
                o->cfg.max_iter, RF_MANY_ITERATIONS);
    }
    rf_error err;
    if (rf_config_validate(&o->cfg, &err) != RF_OK) {
        fprintf(stderr, "rfsolve: %s\n", err.message);
        return 2;
    }
    if (o->cfg.tol > RF_LOOSE_TOL) {
        fprintf(stderr,
                "rfsolve: warning: --tol %g is loose (above %g): rolling and "
                "spinning torques, a few percent of the normal impulse, may "
                "be left out\n",
                o->cfg.tol, RF_LOOSE_TOL);
    }
    return 0;
}

static int write_solution(const char *path, const double *g, int nc, int dim)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "rfsolve: cannot write %s: %s\n", path,
                strerror(errno));
        return 0;
    }
    for (int i = 0; i < nc; ++i) {
        double c[6];
        memcpy(c, g + 6 * i, sizeof c);
        if (dim == 5) {
            rf_contact_to_dim5(g + 6 * i, c);
        }
        for (int k = 0; k < dim; ++k) {
            fprintf(f, "%s%.17g", k ? " " : "", c[k]);
        }
        fputc('\n', f);
    }
    int ok = !ferror(f);
    ok &= fclose(f) == 0;
    if (!ok) {
        fprintf(stderr, "rfsolve: error writing %s\n", path);
    }
    return ok;
}

/* Every contact's cohesion (stride 1: rf_problem_set_cohesion), normal
   compliance (stride 6: rf_problem_add_compliance) or yield cap (stride
   0, stored as 1: rf_problem_set_normal_max) set to value. */
static rf_status set_uniform(rf_problem *p, int nc, int stride, double value,
                             rf_error *err)
{
    const int step = stride > 0 ? stride : 1;
    double *c = calloc((size_t)step * nc + 1, sizeof(double));
    if (c == NULL) {
        snprintf(err->message, sizeof err->message, "out of memory");
        return RF_ERR_NOMEM;
    }
    for (int i = 0; i < nc; ++i) {
        c[step * i] = value;
    }
    rf_status st = stride == 1   ? rf_problem_set_cohesion(p, c, err)
                   : stride == 6 ? rf_problem_add_compliance(p, c, err)
                                 : rf_problem_set_normal_max(p, c, err);
    free(c);
    return st;
}

int main(int argc, char **argv)
{
    options o = {0};
    int rc = parse_args(argc, argv, &o);
    if (rc == 1) {
        fputs(USAGE, stdout);
        return 0;
    }
    if (rc != 0) {
        return 2;
    }
    rf_problem *p = NULL;
    rf_error err;
    int dim = 0;
    if (rf_problem_create(&p, &err) != RF_OK ||
        rf_problem_read(p, o.file, &dim, &err) != RF_OK) {
        fprintf(stderr, "rfsolve: %s\n", err.message);
        rf_problem_destroy(p);
        return 2;
    }
    const int nc = rf_problem_num_contacts(p);
    rf_status cs = RF_OK;
    if (o.cohesion > 0.0) {
        cs = set_uniform(p, nc, 1, o.cohesion, &err);
    }
    if (cs == RF_OK && o.compliance > 0.0) {
        cs = set_uniform(p, nc, 6, o.compliance, &err);
    }
    if (cs == RF_OK && o.normal_max > 0.0) {
        cs = set_uniform(p, nc, 0, o.normal_max, &err);
    }
    if (cs != RF_OK) {
        fprintf(stderr, "rfsolve: %s\n", err.message);
        rf_problem_destroy(p);
        return 2;
    }
    double *g = calloc((size_t)6 * nc + 1, sizeof(double));
    rf_stats st = {0};
    if (g == NULL || rf_solve(p, &o.cfg, g, &st, &err) != RF_OK) {
        fprintf(stderr, "rfsolve: %s\n", g ? err.message : "out of memory");
        free(g);
        rf_problem_destroy(p);
        return 2;
    }
    if (!o.quiet) {
        printf("%s: %d contacts (dimension %d), %s model, %s solver\n", o.file,
               nc, dim, MODELS[o.cfg.model], SOLVERS[o.cfg.solver]);
        if (rf_problem_w_asymmetry(p) > 0.0) {
            printf("W is symmetric to %.2e of its largest entry: its "
                   "symmetric part is solved\n",
                   rf_problem_w_asymmetry(p));
        }
        printf("%s after %d iterations: residual %.3e (tol %.1e) in %.3f ms\n",
               st.converged ? "converged" : "NOT converged", st.iterations,
               st.residual, o.cfg.tol, 1e3 * st.seconds);
    }
    int ok = 1;
    if (o.solution != NULL) {
        ok = write_solution(o.solution, g, nc, dim);
    }
    /* JSON has no NaN: a residual that could not be computed (a value so
       large it overflows) is null, with the reason */
    char residual[96];
    if (isfinite(st.residual)) {
        snprintf(residual, sizeof residual, "%.6e", st.residual);
    } else {
        snprintf(residual, sizeof residual,
                 "null, \"residual_note\":\"not finite: a value of the "
                 "problem overflows\"");
    }
    printf("{\"contacts\":%d, \"dimension\":%d, \"solver\":\"%s\", "
           "\"model\":\"%s\", \"iterations\":%d, \"residual\":%s, "
           "\"converged\":%s, \"seconds\":%.6e, \"cohesion\":%.6e, "
           "\"compliance\":%.6e, \"normal_max\":%.6e, "
           "\"w_asymmetry\":%.6e}\n",
           nc, dim, SOLVERS[o.cfg.solver], MODELS[o.cfg.model], st.iterations,
           residual, st.converged ? "true" : "false", st.seconds, o.cohesion,
           o.compliance, o.normal_max, rf_problem_w_asymmetry(p));
    free(g);
    rf_problem_destroy(p);
    if (!ok) {
        return 2;
    }
    return st.converged ? 0 : 1;
}
