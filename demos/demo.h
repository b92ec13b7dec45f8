/*
 * Converted Bullet 3.24 example scenes, headless, over the pl* C API
 * (include/rollfric/bullet_c_api.h) only.
 *
 * A scene is a demo_scene descriptor (name, one-line description naming
 * the Bullet source it converts, default step count, its --set
 * parameters) whose run function builds the scene with the original
 * parameters, steps it with fixed steps, and fills a demo_result: the
 * final state of every dynamic body and named scalar metrics.  The same
 * function serves the executables (demo_main), the tests and an A/B
 * runner (run it once with PL_SOLVER_STOCK, once with PL_SOLVER_CONE).
 *
 *     demo_opts o;
 *     demo_opts_default(&o);              // cone solver, scene defaults
 *     o.solver = PL_SOLVER_STOCK;
 *     demo_opts_set(&o, "sphere_rolling", 0.1);
 *     demo_result r;
 *     if (demo_run(&demo_inclined_plane, &o, &r) != 0)
 *         fprintf(stderr, "%s\n", r.error);
 *     double v = demo_get_metric(&r, "sphere_speed");
 *     demo_result_free(&r);
 *
 * Nothing aborts: every pl* status is checked, a failure ends the run with
 * a message in demo_result.error (plGetLastError() included) and
 * everything created so far is released.
 */
#ifndef ROLLFRIC_DEMO_H
#define ROLLFRIC_DEMO_H

#include <rollfric/bullet_c_api.h>

#include <stdint.h>
#include <stdio.h>

#define DEMO_NAME_LEN 40
#define DEMO_MAX_SETS 8
#define DEMO_MAX_METRICS 32
#define DEMO_MAX_SHAPES 16
#define DEMO_ERROR_LEN 640
#define DEMO_MAX_COLUMNS 12
#define DEMO_PI 3.14159265358979323846

/* ---- options ---- */

typedef struct demo_world demo_world;
typedef struct demo_scene demo_scene;

/* Called after every step; step = steps done (1 .. steps).  Return 0 to go
 * on; anything else ends the run as a failure (demo_run returns -1 with
 * "stopped by the step callback" unless the callback wrote its own
 * message with demo_world_fail). */
typedef int (*demo_step_fn)(demo_world *w, int step, void *user);

typedef struct demo_set {
    char key[DEMO_NAME_LEN];
    double value;
} demo_set;

typedef struct demo_opts {
    plSolver solver;           /* default PL_SOLVER_CONE */
    const char *csv;           /* demo_main: write the series here (NULL: no) */
    const char *particles_csv; /* demo_main: the particles table (NULL: no) */
    const char *record;        /* a recording of the run (plStartRecording: 60
                                  frames per simulated second, contact points;
                                  docs/recording.md), NULL: none */
    /* the cone solver's settings (plSetSolverConfig); NULL = the world's
       defaults (plGetDefaultSolverConfig: SI, De Saxce, the world's
       iteration budget) */
    const rf_config *config;
    int steps;         /* steps to run, >= 1; 0 = the scene's default */
    double dt;         /* fixed step, s, > 0; 0 = 1/60 (every original) */
    int quick;         /* 1: the scene's quick_steps when steps is 0 */
    int quiet;         /* demo_main: no per-body lines, only the JSON line */
    int split_impulse; /* -1: the world's (Bullet's default, on); 0 or 1:
                          plSetSplitImpulse */
    int nset;          /* scene parameters (--set key=value), see params */
    demo_set set[DEMO_MAX_SETS];
    demo_step_fn on_step; /* NULL: none */
    void *user;           /* passed to on_step */
} demo_opts;

/* Cone solver, scene defaults, no parameters, no callback. */
void demo_opts_default(demo_opts *o);
/* Set (or replace) a scene parameter; -1 when DEMO_MAX_SETS are in use or
 * the key is too long. */
int demo_opts_set(demo_opts *o, const char *key, double value);

/* ---- results ---- */

typedef struct demo_body_state {
    char name[DEMO_NAME_LEN];
    double pos[3];   /* centre of mass, world, m */
    double orn[4];   /* quaternion x, y, z, w */
    double vel[3];   /* linear velocity, m/s */
    double omega[3]; /* angular velocity, rad/s */
    int active;      /* 1 awake, 0 asleep */
} demo_body_state;

typedef struct demo_metric {
    char name[DEMO_NAME_LEN];
    double value;
    double reference; /* the analytic / paper value, NaN when none */
} demo_metric;

/* A time series (or a sweep): named columns, one row per record, SI
 * units.  A column named "<y>_ref" holds the reference (analytic) value of
 * column "<y>".  A column named DEMO_TIME_COLUMN is the run's simulated
 * time, s, from its start (0: the state before the first step; row n
 * after n steps: n dt), the clock of the run's recording: the A/B viewer
 * draws the plots against it with a cursor at the time it shows. */
#define DEMO_TIME_COLUMN "t"

typedef struct demo_series {
    int ncols;
    char cols[DEMO_MAX_COLUMNS][DEMO_NAME_LEN];
    int nrows, cap;
    double *data; /* (nrows x ncols) row-major; malloc'ed, demo_result_free */
} demo_series;

typedef struct demo_result {
    char scene[DEMO_NAME_LEN];
    plSolver solver;
    rf_model model;          /* the cone solver's model (set for stock too) */
    int steps;               /* steps run */
    double dt;               /* step, s */
    int nbodies;             /* dynamic bodies, in creation order */
    demo_body_state *bodies; /* malloc'ed; demo_result_free */
    int nmetrics;
    demo_metric metrics[DEMO_MAX_METRICS];
    demo_series series; /* what the scene recorded (may be empty) */
    /* a second table for pictures (DEMO_PLOT_PARTICLES): one row per
       particle drawn, e.g. the spheres of a final heap; may be empty */
    demo_series particles;
    char error[DEMO_ERROR_LEN]; /* "" unless the run failed */
} demo_result;

/* Releases r->bodies (r itself is the caller's); safe on a zeroed or
 * failed result. */
void demo_result_free(demo_result *r);
/* The metric's value; NaN when the result has no such metric. */
double demo_get_metric(const demo_result *r, const char *name);
/* The metric's reference value; NaN when none (or no such metric). */
double demo_get_reference(const demo_result *r, const char *name);
/* Index of a series column, or -1. */
int demo_series_column(const demo_series *s, const char *name);
/* Value at (row, column index); NaN out of range. */
double demo_series_at(const demo_series *s, int row, int col);
/* Writes the series as CSV (a header line of column names, then one line
 * per row, %.9g, NaN as empty).  0, or -1 with errno set. */
int demo_series_write_csv(const demo_series *s, const char *path);
/* The body of that name, or NULL. */
const demo_body_state *demo_result_body(const demo_result *r, const char *name);
/* |v|, |omega| of a final state. */
double demo_speed(const demo_body_state *b);
double demo_spin(const demo_body_state *b);

/* ---- scenes ---- */

typedef struct demo_param {
    const char *key;
    double def;
    const char *help;
} demo_param;

/* A metric a scene reports (rfdemo list --verbose, reports). */
typedef struct demo_metric_info {
    const char *name;
    const char *help; /* what it is, unit, and the reference's source */
} demo_metric_info;

/* How a report draws a plot (demo_plot.kind). */
typedef enum demo_plot_kind {
    /* curves y[] against x, stock and cone in one frame; a "<y>_ref"
       column is drawn once, dashed, as the reference */
    DEMO_PLOT_LINES = 0,
    /* a heat map of y[0] over the grid of (x, y[1]) values of the series'
       rows, one panel per solver side by side, then one for "<y[0]>_ref"
       when the series has it; a cell spans half way to its neighbours */
    DEMO_PLOT_MAP,
    /* pictures of the result's particles table (demo_result.particles):
       circles of radius column size at (x, y[0]), one panel per distinct
       value of the group columns (one or two), a row of panels per
       solver, every panel at one scale */
    DEMO_PLOT_PARTICLES,
} demo_plot_kind;

/* A plot of the scene's series for reports (set with designated
 * initializers: the fields after y are optional).  LINES: columns y[] (up
 * to 4, NULL after the last) against column x.  MAP: value y[0] over x
 * and y[1].  PARTICLES: see demo_plot_kind. */
typedef struct demo_plot {
    const char *name; /* file stem: <scene>-<name>.png */
    const char *title;
    const char *x, *xlabel, *ylabel;
    const char *y[4];
    demo_plot_kind kind;  /* default LINES */
    int logx;             /* 1: logarithmic x axis (LINES, MAP) */
    const char *group[2]; /* PARTICLES: the panels' columns (NULL: none) */
    const char *size;     /* PARTICLES: the circles' radius column */
    /* PARTICLES: the x range shown, m (the title should say so); {0, 0}:
       every particle's extent */
    double xrange[2];
} demo_plot;

struct demo_scene {
    const char *name;        /* "hello_world": JSON "scene" */
    const char *description; /* one line, names the source (Bullet file or
                                seed section) */
    int default_steps;
    int quick_steps;
    const demo_param *params; /* --set keys with defaults; may be NULL */
    int nparams;
    /* Builds, runs and releases the scene.  opts is already checked by
     * demo_run (solver, steps, dt, parameter keys).  0 on success. */
    int (*run)(const demo_scene *scene, const demo_opts *opts,
               demo_result *out);
    /* for rfdemo and reports (all optional) */
    const char *explanation; /* a paragraph: what to look at */
    const demo_metric_info *metric_info;
    int nmetric_info;
    const demo_plot *plots;
    int nplots;
};

extern const demo_scene demo_hello_world;
extern const demo_scene demo_basic_demo;
extern const demo_scene demo_rolling_friction_demo;
extern const demo_scene demo_inclined_plane;
extern const demo_scene demo_rolling_disk;
extern const demo_scene demo_sphere_on_plane;
extern const demo_scene demo_roll_direction;
extern const demo_scene demo_roll_mass_dt;
extern const demo_scene demo_spin_down;
extern const demo_scene demo_incline_threshold;
extern const demo_scene demo_guideway;
extern const demo_scene demo_gravel_pile;
extern const demo_scene demo_sphere_pile;
extern const demo_scene demo_cohesion;
extern const demo_scene demo_soft_contact;
extern const demo_scene demo_impacts;

/* Every scene (scenes.c), in listing order, and lookup by name (NULL when
 * unknown). */
extern const demo_scene *const demo_scenes[];
/* "associated", "desaxce" or "pyramid" -> *model (0), or -1; and back. */
int demo_model_parse(const char *name, rf_model *model);
const char *demo_model_name(rf_model model);
extern const int demo_nscenes;
const demo_scene *demo_find_scene(const char *name);

/* Checks opts (NULL = defaults) against the scene, zeroes *out, runs the
 * scene.  0 on success; -1 with out->error set (out->bodies is then
 * NULL). */
int demo_run(const demo_scene *scene, const demo_opts *opts, demo_result *out);
/* The value of a scene parameter: from opts->set, else its default; NaN
 * for a key the scene does not declare. */
double demo_param_value(const demo_scene *scene, const demo_opts *opts,
                        const char *key);
/* 1 when opts sets that scene parameter (--set key=...), else 0. */
int demo_param_is_set(const demo_opts *opts, const char *key);
/* Writes the formatted message into out->error (a scene's parameter
 * check, before any world exists).  Returns -1. */
int demo_result_fail(demo_result *out, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Steps the run will take (opts->steps, else quick or default). */
int demo_steps(const demo_scene *scene, const demo_opts *opts);
const char *demo_solver_name(plSolver s);

/* demo_run, then to stdout two spaces and the JSON line, or the error to
 * stderr (for test programs).  0 on success, -1 on failure. */
int demo_run_logged(const demo_scene *scene, const demo_opts *opts,
                    demo_result *out);

/* Prints one line per body (unless quiet) and, last, a one-line JSON
 * object: scene, solver, model (cone only), steps, dt and every metric
 * (non-finite values as null). */
void demo_print(FILE *f, const demo_result *r, int quiet);

/* The executables' main: parses
 *   --solver stock|cone  --model associated|desaxce  --steps N
 *   --dt SECONDS  --quick  --quiet
 *   --set key=value (repeatable)  --csv FILE  --particles FILE  --help
 * runs the scene and prints its result.  Exit status: 0 success, 1 the
 * run failed (message on stderr), 2 a bad argument (message and usage on
 * stderr). */
int demo_main(int argc, char **argv, const demo_scene *scene);

/* ---- building blocks for scene files and step callbacks ---- */

/* The live scene.  Bodies are kept in creation order; the dynamic ones
 * are the result's bodies. */
struct demo_world {
    plPhysicsSdkHandle sdk;
    plDynamicsWorldHandle world;
    plSolver solver;
    rf_model model;
    double dt;
    int step;      /* steps done */
    int recording; /* 1: opts->record is being written (plStartRecording):
                      demo_world_body names each body in it */
    int nshapes;
    plCollisionShapeHandle shapes[DEMO_MAX_SHAPES];
    int nbodies, cap;
    plRigidBodyHandle *bodies;
    char (*names)[DEMO_NAME_LEN];
    int *dynamic;
    /* cone solver statistics over the run */
    long long solver_iterations;
    int max_contacts;
    double max_residual;
    int unconverged_steps;
    demo_result *result; /* where failures are written */
};

/* The cone solver statistics of several worlds of one scene run (a
 * sweep): demo_stats_add after each world, demo_stats_store into the last
 * world before demo_world_finish reports them. */
typedef struct demo_stats {
    long long iterations;
    int max_contacts;
    double max_residual;
    int unconverged_steps;
} demo_stats;
void demo_stats_add(demo_stats *acc, const demo_world *w);
void demo_stats_store(demo_world *w, const demo_stats *acc);

/* Creates the SDK and world, sets gravity and the solver.  On failure the
 * world is released and -1 returned with the error in out->error. */
int demo_world_init(demo_world *w, const demo_opts *opts, demo_result *out,
                    double gx, double gy, double gz);
/* Records a failure: out->error = the formatted message (only the first
 * failure is kept).  Returns -1. */
int demo_world_fail(demo_world *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Checks a pl* status: PL_OK -> 0, else a failure naming the call and
 * plGetLastError(). */
int demo_pl(demo_world *w, plStatus st, const char *call);
#define DEMO_PL(w, call) demo_pl((w), (call), #call)
/* Keeps a new shape (released with the world); a NULL shape is a failure
 * naming what and plGetLastError().  0 on success. */
int demo_world_shape(demo_world *w, plCollisionShapeHandle shape,
                     const char *what, plCollisionShapeHandle *out);
/* Creates a body of that mass (0 = static) and shape at pos with
 * orientation orn (x, y, z, w; NULL = identity), adds it to the world and
 * returns its index (>= 0) in *index (may be NULL) and handle in *out
 * (may be NULL).  name (shorter than DEMO_NAME_LEN) is the body's in the
 * result and, when the run is recorded, in the recording (plSetBodyName:
 * the A/B viewer shows it).  0 on success. */
int demo_world_body(demo_world *w, const char *name, double mass,
                    plCollisionShapeHandle shape, const double pos[3],
                    const double orn[4], plRigidBodyHandle *out, int *index);
/* One fixed step (plStepSimulationFixed(world, dt, 10, dt): exactly one
 * substep, as Bullet's stepSimulation(1/60, 10) at 60 Hz), then the
 * solver statistics and the step callback.  0 on success. */
int demo_world_step(demo_world *w, const demo_opts *opts);
/* Current state of body index i. */
int demo_world_state(demo_world *w, int i, demo_body_state *s);
/* Index of the body of that name, or -1. */
int demo_world_find(const demo_world *w, const char *name);
/* Fills out's scene fields, the dynamic bodies' states and the solver
 * metrics.  0 on success. */
int demo_world_finish(demo_world *w, const demo_scene *scene, demo_result *out);
/* Releases bodies, shapes, world and SDK; a failing delete is recorded
 * (as a failure) and the others are still released.  Returns 0 or -1. */
int demo_world_free(demo_world *w);
/* Adds a named metric to out; -1 (failure recorded) when full. */
int demo_world_metric(demo_world *w, const char *name, double value);
/* The same with its reference (analytic / paper) value. */
int demo_world_metric_ref(demo_world *w, const char *name, double value,
                          double reference);
/* Declares the series' columns (once, before the first row).  0, or -1
 * (failure recorded) for too many or too long names. */
int demo_world_series(demo_world *w, int ncols, const char *const names[]);
/* Appends one row of ncols values.  0, or -1 (failure recorded) when out
 * of memory or no columns were declared. */
int demo_world_row(demo_world *w, const double *values);
/* The same two for the particles table (demo_result.particles). */
int demo_world_particle_columns(demo_world *w, int ncols,
                                const char *const names[]);
int demo_world_particle_row(demo_world *w, const double *values);

/* A uniform number in [0, 1) from the generator state *s (splitmix64,
 * 53 bits): scenes seed it from --set seed and reproduce bit for bit. */
double demo_uniform(uint64_t *s);

/* Small vector helpers. */
double demo_dot3(const double a[3], const double b[3]);
double demo_norm3(const double a[3]);
/* v rotated by the unit quaternion q (x, y, z, w). */
void demo_rotate(const double q[4], const double v[3], double out[3]);
/* Quaternion of a rotation by angle (rad) about the unit axis. */
void demo_axis_angle(const double axis[3], double angle, double q[4]);

#endif /* ROLLFRIC_DEMO_H */
