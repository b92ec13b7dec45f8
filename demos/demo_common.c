/*
 * The scene interface of demo.h: options, results, the live world over
 * pl* calls, printing and the executables' main.
 */
#include "demo.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- options ---- */

void demo_opts_default(demo_opts *o)
{
    memset(o, 0, sizeof *o);
    o->solver = PL_SOLVER_CONE;
    o->split_impulse = -1;
}

int demo_opts_set(demo_opts *o, const char *key, double value)
{
    if (strlen(key) >= DEMO_NAME_LEN) {
        return -1;
    }
    for (int i = 0; i < o->nset; ++i) {
        if (strcmp(o->set[i].key, key) == 0) {
            o->set[i].value = value;
            return 0;
        }
    }
    if (o->nset >= DEMO_MAX_SETS) {
        return -1;
    }
    strcpy(o->set[o->nset].key, key);
    o->set[o->nset].value = value;
    o->nset++;
    return 0;
}

double demo_param_value(const demo_scene *scene, const demo_opts *opts,
                        const char *key)
{
    for (int i = 0; i < scene->nparams; ++i) {
        if (strcmp(scene->params[i].key, key) != 0) {
            continue;
        }
        if (opts != NULL) {
            for (int j = 0; j < opts->nset; ++j) {
                if (strcmp(opts->set[j].key, key) == 0) {
                    return opts->set[j].value;
                }
            }
        }
        return scene->params[i].def;
    }
    return NAN;
}

int demo_param_is_set(const demo_opts *opts, const char *key)
{
    for (int j = 0; opts != NULL && j < opts->nset; ++j) {
        if (strcmp(opts->set[j].key, key) == 0) {
            return 1;
        }
    }
    return 0;
}

int demo_steps(const demo_scene *scene, const demo_opts *opts)
{
    if (opts != NULL && opts->steps > 0) {
        return opts->steps;
    }
    return opts != NULL && opts->quick ? scene->quick_steps
                                       : scene->default_steps;
}

const char *demo_solver_name(plSolver s)
{
    return s == PL_SOLVER_STOCK ? "stock" : s == PL_SOLVER_CONE ? "cone" : "?";
}

/* ---- results ---- */

void demo_result_free(demo_result *r)
{
    if (r != NULL) {
        free(r->bodies);
        r->bodies = NULL;
        r->nbodies = 0;
        free(r->series.data);
        memset(&r->series, 0, sizeof r->series);
        free(r->particles.data);
        memset(&r->particles, 0, sizeof r->particles);
    }
}

static const demo_metric *find_metric(const demo_result *r, const char *name)
{
    for (int i = 0; i < r->nmetrics; ++i) {
        if (strcmp(r->metrics[i].name, name) == 0) {
            return &r->metrics[i];
        }
    }
    return NULL;
}

double demo_get_metric(const demo_result *r, const char *name)
{
    const demo_metric *m = find_metric(r, name);
    return m != NULL ? m->value : NAN;
}

double demo_get_reference(const demo_result *r, const char *name)
{
    const demo_metric *m = find_metric(r, name);
    return m != NULL ? m->reference : NAN;
}

int demo_series_column(const demo_series *s, const char *name)
{
    for (int c = 0; c < s->ncols; ++c) {
        if (strcmp(s->cols[c], name) == 0) {
            return c;
        }
    }
    return -1;
}

double demo_series_at(const demo_series *s, int row, int col)
{
    if (row < 0 || row >= s->nrows || col < 0 || col >= s->ncols) {
        return NAN;
    }
    return s->data[(size_t)row * (size_t)s->ncols + (size_t)col];
}

int demo_series_write_csv(const demo_series *s, const char *path)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        return -1;
    }
    for (int c = 0; c < s->ncols; ++c) {
        fprintf(f, "%s%s", c ? "," : "", s->cols[c]);
    }
    fputc('\n', f);
    for (int r = 0; r < s->nrows; ++r) {
        for (int c = 0; c < s->ncols; ++c) {
            const double x = demo_series_at(s, r, c);
            if (c) {
                fputc(',', f);
            }
            if (isfinite(x)) {
                fprintf(f, "%.9g", x);
            }
        }
        fputc('\n', f);
    }
    const int bad = ferror(f);
    return (fclose(f) != 0 || bad) ? -1 : 0;
}

const demo_body_state *demo_result_body(const demo_result *r, const char *name)
{
    for (int i = 0; i < r->nbodies; ++i) {
        if (strcmp(r->bodies[i].name, name) == 0) {
            return &r->bodies[i];
        }
    }
    return NULL;
}

double demo_speed(const demo_body_state *b)
{
    return demo_norm3(b->vel);
}

double demo_spin(const demo_body_state *b)
{
    return demo_norm3(b->omega);
}

/* ---- running ---- */

int demo_result_fail(demo_result *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->error, sizeof out->error, fmt, ap);
    va_end(ap);
    return -1;
}

int demo_run(const demo_scene *scene, const demo_opts *opts, demo_result *out)
{
    demo_opts defaults;
    if (out == NULL) {
        return -1;
    }
    memset(out, 0, sizeof *out);
    if (scene == NULL) {
        return demo_result_fail(out, "demo_run: scene is NULL");
    }
    snprintf(out->scene, sizeof out->scene, "%s", scene->name);
    if (opts == NULL) {
        demo_opts_default(&defaults);
        opts = &defaults;
    }
    if (opts->solver != PL_SOLVER_STOCK && opts->solver != PL_SOLVER_CONE) {
        return demo_result_fail(out, "%s: solver %d is neither stock nor cone",
                                scene->name, (int)opts->solver);
    }
    if (opts->steps < 0) {
        return demo_result_fail(out, "%s: steps = %d must be >= 1 (0: default)",
                                scene->name, opts->steps);
    }
    if (!(opts->dt >= 0) || !isfinite(opts->dt)) {
        return demo_result_fail(out, "%s: dt = %g must be > 0 (0: 1/60)",
                                scene->name, opts->dt);
    }
    if (opts->nset < 0 || opts->nset > DEMO_MAX_SETS) {
        return demo_result_fail(out, "%s: nset = %d out of range", scene->name,
                                opts->nset);
    }
    for (int j = 0; j < opts->nset; ++j) {
        if (isnan(demo_param_value(scene, NULL, opts->set[j].key))) {
            char known[256] = "";
            size_t len = 0;
            for (int i = 0; i < scene->nparams && len < sizeof known; ++i) {
                int n = snprintf(known + len, sizeof known - len, "%s%s",
                                 i ? ", " : "", scene->params[i].key);
                len += n > 0 ? (size_t)n : 0;
            }
            return demo_result_fail(
                out, "%s: unknown parameter \"%s\" (known: %s)", scene->name,
                opts->set[j].key, scene->nparams ? known : "none");
        }
        if (!isfinite(opts->set[j].value)) {
            return demo_result_fail(out, "%s: parameter %s is not finite",
                                    scene->name, opts->set[j].key);
        }
    }
    if (scene->run(scene, opts, out) != 0) {
        demo_result_free(out);
        if (out->error[0] == '\0') {
            demo_result_fail(out, "%s: failed", scene->name);
        }
        return -1;
    }
    return 0;
}

/* ---- the live world ---- */

int demo_world_fail(demo_world *w, const char *fmt, ...)
{
    if (w->result != NULL && w->result->error[0] == '\0') {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->result->error, sizeof w->result->error, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int demo_pl(demo_world *w, plStatus st, const char *call)
{
    if (st == PL_OK) {
        return 0;
    }
    return demo_world_fail(w, "%s failed (status %d): %s", call, (int)st,
                           plGetLastError());
}

int demo_world_init(demo_world *w, const demo_opts *opts, demo_result *out,
                    double gx, double gy, double gz)
{
    memset(w, 0, sizeof *w);
    w->result = out;
    w->solver = opts->solver;
    rf_config world_default;
    plGetDefaultSolverConfig(&world_default);
    w->model = opts->config != NULL ? opts->config->model : world_default.model;
    w->dt = opts->dt > 0 ? opts->dt : 1.0 / 60;
    w->sdk = plNewBulletSdk();
    if (w->sdk == NULL) {
        return demo_world_fail(w, "plNewBulletSdk failed: %s",
                               plGetLastError());
    }
    w->world = plCreateDynamicsWorld(w->sdk);
    if (w->world == NULL) {
        demo_world_fail(w, "plCreateDynamicsWorld failed: %s",
                        plGetLastError());
        demo_world_free(w);
        return -1;
    }
    const plVector3 g = {(plReal)gx, (plReal)gy, (plReal)gz};
    if (DEMO_PL(w, plSetGravity(w->world, g)) != 0 ||
        DEMO_PL(w, plSetContactSolver(w->world, opts->solver)) != 0 ||
        (opts->split_impulse >= 0 &&
         DEMO_PL(w, plSetSplitImpulse(w->world, opts->split_impulse)) != 0) ||
        (opts->config != NULL &&
         DEMO_PL(w, plSetSolverConfig(w->world, opts->config)) != 0)) {
        demo_world_free(w);
        return -1;
    }
    /* The defaults skip the residual pass (rf_config.residual = 0); the
       demos report every step's residual (solver_max_residual), so they
       ask for it: the impulses are the same bit for bit. */
    world_default.residual = 1;
    if ((opts->config == NULL &&
         DEMO_PL(w, plSetSolverConfig(w->world, &world_default)) != 0) ||
        (opts->record != NULL &&
         DEMO_PL(w, plStartRecording(w->world, opts->record, (plReal)(1.0 / 60),
                                     1)) != 0)) {
        demo_world_free(w);
        return -1;
    }
    w->recording = opts->record != NULL;
    return 0;
}

int demo_world_shape(demo_world *w, plCollisionShapeHandle shape,
                     const char *what, plCollisionShapeHandle *out)
{
    if (shape == NULL) {
        return demo_world_fail(w, "%s failed: %s", what, plGetLastError());
    }
    if (w->nshapes >= DEMO_MAX_SHAPES) {
        plDeleteShape(shape); /* fresh and unused: cannot fail */
        return demo_world_fail(w, "%s: more than %d shapes", what,
                               DEMO_MAX_SHAPES);
    }
    w->shapes[w->nshapes++] = shape;
    if (out != NULL) {
        *out = shape;
    }
    return 0;
}

static int grow_bodies(demo_world *w)
{
    if (w->nbodies < w->cap) {
        return 0;
    }
    int cap = w->cap ? 2 * w->cap : 16;
    plRigidBodyHandle *b = realloc(w->bodies, (size_t)cap * sizeof *b);
    if (b == NULL) {
        return demo_world_fail(w, "out of memory");
    }
    w->bodies = b;
    char(*n)[DEMO_NAME_LEN] = realloc(w->names, (size_t)cap * sizeof *n);
    if (n == NULL) {
        return demo_world_fail(w, "out of memory");
    }
    w->names = n;
    int *d = realloc(w->dynamic, (size_t)cap * sizeof *d);
    if (d == NULL) {
        return demo_world_fail(w, "out of memory");
    }
    w->dynamic = d;
    w->cap = cap;
    return 0;
}

int demo_world_body(demo_world *w, const char *name, double mass,
                    plCollisionShapeHandle shape, const double pos[3],
                    const double orn[4], plRigidBodyHandle *out, int *index)
{
    if (strlen(name) >= DEMO_NAME_LEN) {
        return demo_world_fail(w, "body name \"%s\" too long", name);
    }
    if (grow_bodies(w) != 0) {
        return -1;
    }
    plRigidBodyHandle b = plCreateRigidBody(NULL, (plReal)mass, shape);
    if (b == NULL) {
        return demo_world_fail(w, "plCreateRigidBody(%s) failed: %s", name,
                               plGetLastError());
    }
    const int i = w->nbodies++;
    w->bodies[i] = b;
    w->dynamic[i] = mass > 0;
    strcpy(w->names[i], name);
    const plVector3 p = {(plReal)pos[0], (plReal)pos[1], (plReal)pos[2]};
    if (DEMO_PL(w, plSetPosition(b, p)) != 0) {
        return -1;
    }
    if (orn != NULL) {
        const plQuaternion q = {(plReal)orn[0], (plReal)orn[1], (plReal)orn[2],
                                (plReal)orn[3]};
        if (DEMO_PL(w, plSetOrientation(b, q)) != 0) {
            return -1;
        }
    }
    if (DEMO_PL(w, plAddRigidBody(w->world, b)) != 0 ||
        (w->recording && DEMO_PL(w, plSetBodyName(b, name)) != 0)) {
        return -1;
    }
    if (out != NULL) {
        *out = b;
    }
    if (index != NULL) {
        *index = i;
    }
    return 0;
}

int demo_world_step(demo_world *w, const demo_opts *opts)
{
    const plReal h = (plReal)w->dt;
    if (DEMO_PL(w, plStepSimulationFixed(w->world, h, 10, h)) != 0) {
        return -1;
    }
    w->step++;
    if (w->solver == PL_SOLVER_CONE) {
        rf_stats st;
        if (DEMO_PL(w, plGetSolverStats(w->world, &st)) != 0) {
            return -1;
        }
        if (st.contacts > 0 || st.rows > 0) {
            w->solver_iterations += st.iterations;
            if (st.contacts > w->max_contacts) {
                w->max_contacts = st.contacts;
            }
            if (st.residual > w->max_residual) {
                w->max_residual = st.residual;
            }
            w->unconverged_steps += !st.converged;
        }
    }
    if (opts != NULL && opts->on_step != NULL &&
        opts->on_step(w, w->step, opts->user) != 0) {
        return demo_world_fail(w, "stopped by the step callback at step %d",
                               w->step);
    }
    return 0;
}

int demo_world_state(demo_world *w, int i, demo_body_state *s)
{
    if (i < 0 || i >= w->nbodies) {
        return demo_world_fail(w, "demo_world_state: no body %d", i);
    }
    plRigidBodyHandle b = w->bodies[i];
    plVector3 p, v, om;
    plQuaternion q;
    if (DEMO_PL(w, plGetPosition(b, p)) != 0 ||
        DEMO_PL(w, plGetOrientation(b, q)) != 0 ||
        DEMO_PL(w, plGetLinearVelocity(b, v)) != 0 ||
        DEMO_PL(w, plGetAngularVelocity(b, om)) != 0) {
        return -1;
    }
    memset(s, 0, sizeof *s);
    strcpy(s->name, w->names[i]);
    for (int k = 0; k < 3; ++k) {
        s->pos[k] = p[k];
        s->vel[k] = v[k];
        s->omega[k] = om[k];
    }
    for (int k = 0; k < 4; ++k) {
        s->orn[k] = q[k];
    }
    s->active = plIsActive(b) == 1;
    return 0;
}

int demo_world_find(const demo_world *w, const char *name)
{
    for (int i = 0; i < w->nbodies; ++i) {
        if (strcmp(w->names[i], name) == 0) {
            return i;
        }
    }
    return -1;
}

int demo_world_metric_ref(demo_world *w, const char *name, double value,
                          double reference)
{
    demo_result *r = w->result;
    if (r->nmetrics >= DEMO_MAX_METRICS || strlen(name) >= DEMO_NAME_LEN) {
        return demo_world_fail(w, "metric %s: no room (at most %d)", name,
                               DEMO_MAX_METRICS);
    }
    strcpy(r->metrics[r->nmetrics].name, name);
    r->metrics[r->nmetrics].value = value;
    r->metrics[r->nmetrics].reference = reference;
    r->nmetrics++;
    return 0;
}

void demo_stats_add(demo_stats *acc, const demo_world *w)
{
    acc->iterations += w->solver_iterations;
    if (w->max_contacts > acc->max_contacts) {
        acc->max_contacts = w->max_contacts;
    }
    acc->max_residual = fmax(acc->max_residual, w->max_residual);
    acc->unconverged_steps += w->unconverged_steps;
}

void demo_stats_store(demo_world *w, const demo_stats *acc)
{
    w->solver_iterations = acc->iterations;
    w->max_contacts = acc->max_contacts;
    w->max_residual = acc->max_residual;
    w->unconverged_steps = acc->unconverged_steps;
}

int demo_world_metric(demo_world *w, const char *name, double value)
{
    return demo_world_metric_ref(w, name, value, NAN);
}

/* Declares the columns of table s (what names it in messages). */
static int table_columns(demo_world *w, demo_series *s, const char *what,
                         int ncols, const char *const names[])
{
    if (ncols < 1 || ncols > DEMO_MAX_COLUMNS || s->ncols != 0) {
        return demo_world_fail(w, "%s: %d columns (1..%d, declared once)", what,
                               ncols, DEMO_MAX_COLUMNS);
    }
    for (int c = 0; c < ncols; ++c) {
        if (strlen(names[c]) >= DEMO_NAME_LEN) {
            return demo_world_fail(w, "%s: column name %s too long", what,
                                   names[c]);
        }
        strcpy(s->cols[c], names[c]);
    }
    s->ncols = ncols;
    return 0;
}

/* Appends one row to table s. */
static int table_row(demo_world *w, demo_series *s, const char *what,
                     const double *values)
{
    if (s->ncols == 0) {
        return demo_world_fail(w, "%s: a row before the columns", what);
    }
    if (s->nrows == s->cap) {
        const int cap = s->cap ? 2 * s->cap : 256;
        double *d =
            realloc(s->data, (size_t)cap * (size_t)s->ncols * sizeof(double));
        if (d == NULL) {
            return demo_world_fail(w, "%s: out of memory at %d rows", what,
                                   s->nrows);
        }
        s->data = d;
        s->cap = cap;
    }
    memcpy(s->data + (size_t)s->nrows * (size_t)s->ncols, values,
           (size_t)s->ncols * sizeof(double));
    s->nrows++;
    return 0;
}

int demo_world_series(demo_world *w, int ncols, const char *const names[])
{
    return table_columns(w, &w->result->series, "series", ncols, names);
}

int demo_world_row(demo_world *w, const double *values)
{
    return table_row(w, &w->result->series, "series", values);
}

int demo_world_particle_columns(demo_world *w, int ncols,
                                const char *const names[])
{
    return table_columns(w, &w->result->particles, "particles", ncols, names);
}

int demo_world_particle_row(demo_world *w, const double *values)
{
    return table_row(w, &w->result->particles, "particles", values);
}

int demo_world_finish(demo_world *w, const demo_scene *scene, demo_result *out)
{
    snprintf(out->scene, sizeof out->scene, "%s", scene->name);
    out->solver = w->solver;
    out->model = w->model;
    out->steps = w->step;
    out->dt = w->dt;
    int n = 0;
    for (int i = 0; i < w->nbodies; ++i) {
        n += w->dynamic[i];
    }
    free(out->bodies);
    out->bodies = n ? calloc((size_t)n, sizeof *out->bodies) : NULL;
    out->nbodies = 0;
    if (n && out->bodies == NULL) {
        return demo_world_fail(w, "out of memory");
    }
    for (int i = 0; i < w->nbodies; ++i) {
        if (w->dynamic[i] &&
            demo_world_state(w, i, &out->bodies[out->nbodies++]) != 0) {
            return -1;
        }
    }
    if (w->solver == PL_SOLVER_CONE) {
        if (demo_world_metric(w, "solver_iterations",
                              (double)w->solver_iterations) != 0 ||
            demo_world_metric(w, "solver_max_contacts", w->max_contacts) != 0 ||
            demo_world_metric(w, "solver_max_residual", w->max_residual) != 0 ||
            demo_world_metric(w, "solver_unconverged_steps",
                              w->unconverged_steps) != 0) {
            return -1;
        }
    }
    return 0;
}

int demo_world_free(demo_world *w)
{
    int rc = 0;
    /* the recording's last frame while every body is still in the world */
    if (w->world != NULL) {
        rc |= DEMO_PL(w, plStopRecording(w->world));
    }
    /* bodies first (each leaves its world), then the shapes they used,
       then the world and the SDK */
    for (int i = w->nbodies - 1; i >= 0; --i) {
        rc |= DEMO_PL(w, plDeleteRigidBody(w->bodies[i]));
    }
    for (int i = w->nshapes - 1; i >= 0; --i) {
        rc |= DEMO_PL(w, plDeleteShape(w->shapes[i]));
    }
    if (w->world != NULL) {
        rc |= DEMO_PL(w, plDeleteDynamicsWorld(w->world));
    }
    if (w->sdk != NULL) {
        rc |= DEMO_PL(w, plDeletePhysicsSdk(w->sdk));
    }
    free(w->bodies);
    free(w->names);
    free(w->dynamic);
    w->bodies = NULL;
    w->names = NULL;
    w->dynamic = NULL;
    w->nbodies = w->cap = w->nshapes = 0;
    w->world = NULL;
    w->sdk = NULL;
    return rc ? -1 : 0;
}

/* ---- vectors ---- */

double demo_uniform(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

double demo_dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

double demo_norm3(const double a[3])
{
    return sqrt(demo_dot3(a, a));
}

void demo_rotate(const double q[4], const double v[3], double out[3])
{
    /* v + 2 w (u x v) + 2 u x (u x v), u = q.xyz, w = q.w */
    const double u[3] = {q[0], q[1], q[2]}, s = q[3];
    const double t[3] = {2 * (u[1] * v[2] - u[2] * v[1]),
                         2 * (u[2] * v[0] - u[0] * v[2]),
                         2 * (u[0] * v[1] - u[1] * v[0])};
    out[0] = v[0] + s * t[0] + (u[1] * t[2] - u[2] * t[1]);
    out[1] = v[1] + s * t[1] + (u[2] * t[0] - u[0] * t[2]);
    out[2] = v[2] + s * t[2] + (u[0] * t[1] - u[1] * t[0]);
}

void demo_axis_angle(const double axis[3], double angle, double q[4])
{
    const double s = sin(0.5 * angle);
    q[0] = axis[0] * s;
    q[1] = axis[1] * s;
    q[2] = axis[2] * s;
    q[3] = cos(0.5 * angle);
}

/* ---- printing and main ---- */

int demo_run_logged(const demo_scene *scene, const demo_opts *opts,
                    demo_result *out)
{
    if (demo_run(scene, opts, out) != 0) {
        fprintf(stderr, "%s failed: %s\n", scene != NULL ? scene->name : "?",
                out->error);
        return -1;
    }
    printf("  ");
    demo_print(stdout, out, 1);
    return 0;
}

static void print_number(FILE *f, double x)
{
    if (isfinite(x)) {
        fprintf(f, "%.9g", x);
    } else {
        fputs("null", f);
    }
}

void demo_print(FILE *f, const demo_result *r, int quiet)
{
    if (!quiet) {
        for (int i = 0; i < r->nbodies; ++i) {
            const demo_body_state *b = &r->bodies[i];
            fprintf(f,
                    "%-20s pos %10.6f %10.6f %10.6f  orn %9.6f %9.6f %9.6f "
                    "%9.6f  vel %10.3e %10.3e %10.3e  omega %10.3e %10.3e "
                    "%10.3e  %s\n",
                    b->name, b->pos[0], b->pos[1], b->pos[2], b->orn[0],
                    b->orn[1], b->orn[2], b->orn[3], b->vel[0], b->vel[1],
                    b->vel[2], b->omega[0], b->omega[1], b->omega[2],
                    b->active ? "active" : "asleep");
        }
    }
    fprintf(f, "{\"scene\":\"%s\",\"solver\":\"%s\",", r->scene,
            demo_solver_name(r->solver));
    if (r->solver == PL_SOLVER_CONE) {
        fprintf(f, "\"model\":\"%s\",", demo_model_name(r->model));
    }
    fprintf(f, "\"steps\":%d,\"dt\":", r->steps);
    print_number(f, r->dt);
    for (int i = 0; i < r->nmetrics; ++i) {
        fprintf(f, ",\"%s\":", r->metrics[i].name);
        print_number(f, r->metrics[i].value);
        if (!isnan(r->metrics[i].reference)) {
            fprintf(f, ",\"%s_ref\":", r->metrics[i].name);
            print_number(f, r->metrics[i].reference);
        }
    }
    fputs("}\n", f);
}

int demo_model_parse(const char *name, rf_model *model)
{
    static const char *const names[3] = {"associated", "desaxce", "pyramid"};
    for (int k = 0; k < 3; ++k) {
        if (strcmp(name, names[k]) == 0) {
            *model = (rf_model)k;
            return 0;
        }
    }
    return -1;
}

const char *demo_model_name(rf_model model)
{
    return model == RF_MODEL_DESAXCE   ? "desaxce"
           : model == RF_MODEL_PYRAMID ? "pyramid"
                                       : "associated";
}

static void usage(FILE *f, const char *prog, const demo_scene *scene)
{
    fprintf(f,
            "usage: %s [--solver stock|cone] "
            "[--model associated|desaxce|pyramid] "
            "[--steps N] [--dt SECONDS] [--quick] [--quiet] "
            "[--set KEY=VALUE]... [--csv FILE] [--particles FILE] "
            "[--record FILE] [--help]\n"
            "%s\n"
            "  --solver stock|cone  contact solver (default cone)\n"
            "  --model M            the cone solver's model: associated "
            "(default), desaxce or pyramid (small scenes: Lemke's LCP)\n"
            "  --steps N            steps to run (default %d, --quick %d)\n"
            "  --dt SECONDS         fixed step (default 1/60)\n"
            "  --quick              the short run\n"
            "  --quiet              only the JSON line\n"
            "  --local-mdp          the cone solver as Gauss-Seidel with "
            "Preclik's maximally dissipative local step\n"
            "  --csv FILE           write the recorded series (CSV)\n"
            "  --particles FILE     write the particles table (CSV; the "
            "scenes that picture particles)\n"
            "  --record FILE        write a recording of the run (bodies, "
            "transforms, contacts; docs/recording.md)\n"
            "  --set KEY=VALUE      scene parameter:%s\n",
            prog, scene->description, scene->default_steps, scene->quick_steps,
            scene->nparams ? "" : " none");
    for (int i = 0; i < scene->nparams; ++i) {
        fprintf(f, "      %-18s %s (default %g)\n", scene->params[i].key,
                scene->params[i].help, scene->params[i].def);
    }
    fputs("Prints one line per body, then a one-line JSON object of the "
          "metrics.\nExit status: 0 ok, 1 the run failed, 2 bad argument.\n",
          f);
}

static int bad_arg(const char *prog, const demo_scene *scene, const char *fmt,
                   const char *arg)
{
    fprintf(stderr, "%s: ", prog);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    usage(stderr, prog, scene);
    return 2;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || *end != '\0' || errno != 0 || !isfinite(x)) {
        return -1;
    }
    *out = x;
    return 0;
}

int demo_main(int argc, char **argv, const demo_scene *scene)
{
    const char *prog = argc > 0 && argv[0] != NULL ? argv[0] : scene->name;
    demo_opts o;
    rf_config cfg;
    demo_opts_default(&o);
    rf_config_default(&cfg);
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout, prog, scene);
            return 0;
        } else if (strcmp(a, "--quiet") == 0) {
            o.quiet = 1;
        } else if (strcmp(a, "--local-mdp") == 0) {
            /* Gauss-Seidel with Preclik's MDP local step */
            cfg.solver = RF_SOLVER_GS;
            cfg.local_mdp = 1;
            o.config = &cfg;
        } else if (strcmp(a, "--quick") == 0) {
            o.quick = 1;
        } else if (strcmp(a, "--csv") == 0 || strcmp(a, "--particles") == 0 ||
                   strcmp(a, "--record") == 0) {
            if (val == NULL) {
                return bad_arg(prog, scene, "%s needs a file name", a);
            }
            if (a[2] == 'c') {
                o.csv = val;
            } else if (a[2] == 'p') {
                o.particles_csv = val;
            } else {
                o.record = val;
            }
            ++i;
        } else if (strcmp(a, "--solver") == 0) {
            if (val == NULL) {
                return bad_arg(prog, scene, "%s needs stock or cone", a);
            }
            if (strcmp(val, "stock") == 0) {
                o.solver = PL_SOLVER_STOCK;
            } else if (strcmp(val, "cone") == 0) {
                o.solver = PL_SOLVER_CONE;
            } else {
                return bad_arg(prog, scene,
                               "--solver: \"%s\" is neither stock nor cone",
                               val);
            }
            ++i;
        } else if (strcmp(a, "--model") == 0) {
            if (val == NULL) {
                return bad_arg(prog, scene,
                               "%s needs associated, desaxce or pyramid", a);
            }
            if (demo_model_parse(val, &cfg.model) != 0) {
                return bad_arg(prog, scene,
                               "--model: \"%s\" is not associated, desaxce "
                               "or pyramid",
                               val);
            }
            o.config = &cfg;
            ++i;
        } else if (strcmp(a, "--steps") == 0) {
            char *end;
            long n;
            if (val == NULL) {
                return bad_arg(prog, scene, "%s needs a number", a);
            }
            errno = 0;
            n = strtol(val, &end, 10);
            if (end == val || *end != '\0' || errno != 0 || n < 1 ||
                n > 100000000L) {
                return bad_arg(prog, scene,
                               "--steps: \"%s\" is not a whole number in "
                               "[1, 1e8]",
                               val);
            }
            o.steps = (int)n;
            ++i;
        } else if (strcmp(a, "--dt") == 0) {
            if (val == NULL) {
                return bad_arg(prog, scene, "%s needs a number of seconds", a);
            }
            if (parse_double(val, &o.dt) != 0 || !(o.dt > 0)) {
                return bad_arg(prog, scene, "--dt: \"%s\" is not a number > 0",
                               val);
            }
            ++i;
        } else if (strcmp(a, "--set") == 0) {
            if (val == NULL) {
                return bad_arg(prog, scene, "%s needs KEY=VALUE", a);
            }
            const char *eq = strchr(val, '=');
            char key[DEMO_NAME_LEN];
            double x;
            if (eq == NULL || eq == val || (size_t)(eq - val) >= sizeof key) {
                return bad_arg(prog, scene, "--set: \"%s\" is not KEY=VALUE",
                               val);
            }
            memcpy(key, val, (size_t)(eq - val));
            key[eq - val] = '\0';
            if (isnan(demo_param_value(scene, NULL, key))) {
                return bad_arg(prog, scene,
                               "--set: unknown parameter in \"%s\"", val);
            }
            if (parse_double(eq + 1, &x) != 0) {
                return bad_arg(prog, scene,
                               "--set: the value in \"%s\" is not a number",
                               val);
            }
            if (demo_opts_set(&o, key, x) != 0) {
                return bad_arg(prog, scene, "--set: too many (at %s)", val);
            }
            ++i;
        } else {
            return bad_arg(prog, scene, "unknown argument \"%s\"", a);
        }
    }
    demo_result r;
    if (demo_run(scene, &o, &r) != 0) {
        fprintf(stderr, "%s: %s\n", prog, r.error);
        return 1;
    }
    int status = 0;
    const char *file[2] = {o.csv, o.particles_csv};
    const demo_series *table[2] = {&r.series, &r.particles};
    for (int t = 0; t < 2; ++t) {
        if (file[t] != NULL && demo_series_write_csv(table[t], file[t]) != 0) {
            fprintf(stderr, "%s: cannot write %s: %s\n", prog, file[t],
                    strerror(errno));
            status = 1;
        }
    }
    demo_print(stdout, &r, o.quiet);
    demo_result_free(&r);
    return status;
}
