/*
 * rollfric — cone complementarity contact solver with sliding, rolling and
 * spinning friction (Tasora & Anitescu 2013; Acary et al. 2018).
 *
 * This is the solver core's public C API. It has no Bullet dependency.
 *
 * The model (see docs/model.md):
 *   each contact i carries six impulse multipliers over one time step
 *       gamma_i = (gn, gu, gw, tn, tu, tw)
 *   normal force impulse, two sliding (tangential) force impulses, the
 *   spinning torque impulse about n and two rolling torque impulses about
 *   u and w.  Units: N s for the first three, N m s for the last three.
 *   They must lie in
 *       Y_i = { mu gn >= |(gu,gw)|,  rho gn >= |(tu,tw)|,  sigma gn >= |tn| }
 *   with mu [-] the sliding friction coefficient, rho [m] the rolling and
 *   sigma [m] the spinning friction length.  A zero coefficient forces its
 *   components to zero.  The local velocity of the contact is
 *       u_i = (vn + bn, vu, vw, wn, wu, ww) + (bias_u ... bias_w)
 *   (relative linear and angular velocity of A with respect to B in the
 *   contact frame, m/s and rad/s) and the step solves the cone
 *   complementarity problem   gamma in Y,  u_hat in Y*,  <gamma, u_hat> = 0
 *   with u = N gamma + r.  u_hat = u for the associated (convex) model of
 *   Tasora (40), u_hat = u + (mu|u_t| + rho|w_r| + sigma|w_n|, 0, ...) for the
 *   De Saxce model (Acary Prop. 3.1, generalised with spin).
 *
 * Conventions:
 *   - Every fallible function returns an rf_status (RF_OK == 0) and, when
 *     given a non-NULL rf_error, fills it with a message naming the input
 *     that was wrong.  On error nothing is written to output arguments.
 *   - Handles are owned by the caller: create with *_create, free with
 *     *_destroy.  Arrays passed in are copied; nothing keeps a pointer to
 *     caller memory after a call returns.
 *   - All functions are reentrant: there is no global mutable state.
 */
#ifndef ROLLFRIC_ROLLFRIC_H
#define ROLLFRIC_ROLLFRIC_H

#include <stddef.h>
#include <string.h> /* memcpy in rf_contact_columns_put */

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define RF_API
#else
#define RF_API __attribute__((visibility("default")))
#endif

#define RF_VERSION_MAJOR 0
#define RF_VERSION_MINOR 1
#define RF_VERSION_PATCH 0

/* ------------------------------------------------------------------ */
/* Status and errors                                                   */
/* ------------------------------------------------------------------ */

typedef enum rf_status {
    RF_OK = 0,
    RF_ERR_NULL = 1,      /* a required pointer argument was NULL */
    RF_ERR_INVALID = 2,   /* an argument is out of its domain (negative
                             coefficient, non-orthonormal frame, ...) */
    RF_ERR_RANGE = 3,     /* an index is out of range */
    RF_ERR_NONFINITE = 4, /* a NaN or an infinity in the input */
    RF_ERR_NOMEM = 5,     /* an allocation failed */
    RF_ERR_IO = 6,        /* a file could not be opened, read or written */
    RF_ERR_FORMAT = 7,    /* a problem file is malformed */
    RF_ERR_STATE = 8,     /* the call does not fit the object's state (e.g.
                             a body-form call on a local-form problem) */
    RF_ERR_LCP = 9        /* Lemke's method found no LCP solution (ray
                             termination or its pivot cap) */
} rf_status;

/* A status and the message that explains it (NUL-terminated). */
typedef struct rf_error {
    rf_status status;
    char message[256];
} rf_error;

/* Short static English name of a status code ("ok", "null pointer", ...).
 * Never NULL. */
RF_API const char *rf_status_string(rf_status status);

/* Library version as "MAJOR.MINOR.PATCH" (static string). */
RF_API const char *rf_version(void);

/* ------------------------------------------------------------------ */
/* Cone projection                                                     */
/* ------------------------------------------------------------------ */

/* Components of one contact's 6-vectors, in this order everywhere. */
enum {
    RF_N = 0,      /* normal */
    RF_U = 1,      /* first sliding direction */
    RF_W = 2,      /* second sliding direction */
    RF_SPIN = 3,   /* spinning, about n */
    RF_ROLL_U = 4, /* rolling, about u */
    RF_ROLL_W = 5  /* rolling, about w */
};

/* Exact Euclidean projection of x onto Y(mu, rho, sigma), the intersection
 * of the sliding, rolling and spinning cones (Tasora App. C; DESIGN §3).
 * A zero coefficient forces its components to zero.  out may alias x.
 * The result satisfies Moreau's decomposition: out in Y, out - x in Y*,
 * <out, out - x> = 0, and projecting out again returns out.
 * Errors: RF_ERR_NULL (x or out), RF_ERR_NONFINITE (x or a coefficient),
 * RF_ERR_INVALID (a negative coefficient); out is then left untouched. */
RF_API rf_status rf_project_contact(const double x[6], double mu, double rho,
                                    double sigma, double out[6]);

/* Distance-like membership tests used by tests and tools.
 * rf_cone_violation: how far x is outside Y (max of the three cone
 * inequalities' violation and of -gn; 0 when x in Y).
 * rf_dual_cone_violation: the same for Y* = { un >= mu|u_t| + rho|w_r| +
 * sigma|w_n| } (components with a zero coefficient are free in Y*).
 * Both return NaN for NULL x or negative/non-finite coefficients. */
RF_API double rf_cone_violation(const double x[6], double mu, double rho,
                                double sigma);
RF_API double rf_dual_cone_violation(const double u[6], double mu, double rho,
                                     double sigma);

/* Build an orthonormal right-handed frame (n, t1, t2) from a normal n
 * (normalised on output).  Errors: RF_ERR_NULL, RF_ERR_NONFINITE,
 * RF_ERR_INVALID (|n| < 1e-12). */
RF_API rf_status rf_contact_frame(double n[3], double t1[3], double t2[3]);

/* ------------------------------------------------------------------ */
/* Problems                                                            */
/* ------------------------------------------------------------------ */

/* A problem is either in body form (bodies + contacts; N = D^T M^-1 D is
 * never formed) or in local form (u = W gamma + q with W given).  One
 * handle can be reused step after step: rf_problem_begin_bodies() keeps
 * the memory it already has and grows it only when counts grow, so a
 * simulation that rebuilds its problem every step allocates only while the
 * scene grows. */
typedef struct rf_problem rf_problem;

/* Bodies in body form.  Units: kg^-1, (kg m^2)^-1, m/s, rad/s, all in the
 * world frame.  A fixed body (RF_BODY_FIXED) receives no impulse; its
 * velocity is used as given (zero for static, the body velocity for
 * kinematic objects). */
enum {
    RF_BODY_DYNAMIC = 0,
    RF_BODY_FIXED = 1,
    /* Modifier for a dynamic body: its inverse mass is per world axis,
     * inv_mass_axis[3], instead of the scalar inv_mass (a body that may
     * not move along some axes, e.g. Bullet's linear factor (1, 1, 0)). */
    RF_BODY_AXIS_MASS = 2
};

typedef struct rf_body_desc {
    int flags;               /* RF_BODY_DYNAMIC (optionally | RF_BODY_AXIS_MASS)
                                or RF_BODY_FIXED */
    double inv_mass;         /* >= 0, 1/kg (ignored when fixed or with
                                RF_BODY_AXIS_MASS) */
    double inv_mass_axis[3]; /* >= 0, 1/kg along world x, y, z; read only
                                with RF_BODY_AXIS_MASS */
    double inv_inertia[9];   /* world inverse inertia, row-major, symmetric
                                positive semi-definite (ignored when fixed) */
    double v[3];             /* free linear velocity v* = v + h f/m, m/s */
    double w[3];             /* free angular velocity, rad/s */
} rf_body_desc;

/* Index used in rf_contact_desc for "the static world" (a fixed body with
 * zero velocity that need not be declared). */
#define RF_WORLD (-1)

/* Contact flags (rf_contact_desc.flags). */
enum {
    /* The rolling torque acts about t1 only (tw = 0, rolling about t2 is
     * free): the rolling cone { rho gn >= |(tu, tw)| } becomes the segment
     * { rho gn >= |tu|, tw = 0 }.  Anisotropic rolling friction, e.g. a
     * cylinder or capsule that resists rolling about its own axis (put t1
     * along the axis' projection on the contact plane) and nothing else
     * (Bullet's CF_ANISOTROPIC_ROLLING_FRICTION along the shape's axis).
     * The dual cone and the De Saxce shift use rho |wu|. */
    RF_CONTACT_ROLL_T1 = 1
};

/* One 6D contact in body form.  Frame (n, t1, t2) must be orthonormal
 * (within 1e-6); n points from B to A, so a positive normal impulse pushes
 * A along +n.  r_a = p - x_A and r_b = p - x_B are the lever arms (m) from
 * each body's centre of mass to the contact point, world frame. */
typedef struct rf_contact_desc {
    int body_a, body_b; /* body indices, or RF_WORLD; a != b */
    double n[3], t1[3], t2[3];
    double r_a[3], r_b[3];
    double mu;            /* sliding friction coefficient, >= 0 */
    double rho;           /* rolling friction length, m, >= 0 */
    double sigma;         /* spinning friction length, m, >= 0 */
    double bias[6];       /* added to the local velocity u (m/s, rad/s): bias[0]
                             is the normal stabilisation term Phi/h (negative
                             when penetrating); bias[1..5] are target relative
                             velocities (conveyors), normally 0 */
    int flags;            /* 0 or RF_CONTACT_ROLL_T1 */
    double cohesion;      /* N s, >= 0: the normal impulse may reach -cohesion
                             (pull); 0 = none.  See "Cohesion" below. */
    double compliance[6]; /* >= 0, per component (m/s per N s, rad/s per
                             N m s): see "Compliance" below; all 0 =
                             rigid */
    double normal_max;    /* N s, >= 0: the yield cap gamma_n <= normal_max
                             (slides section 3, "Modeling plasticity": no
                             infinite reaction, crushing); 0 = none.  The
                             set becomes Y cut by that plane: the friction,
                             rolling and spinning limits stop growing at
                             mu, rho, sigma times it.  With a compliance,
                             the velocity defect -u_n at the cap is the
                             plastic flow rate (see "Compliance"). */
} rf_contact_desc;

/* Compliance (Tasora-Anitescu section 6.2, Tikhonov regularisation;
 * slides section 3, "Damping and VI": N - E, E = -diag(1 / (h^2 K + h R))
 * per component): component k of contact i gets u_k += c_k gamma_k, so a
 * spring K with damper R over the step h is
 *     c = 1 / (h (h K + R)),   bias[0] = -(h K / (h K + R)) depth / h
 * for the normal (depth > 0 penetrating): at rest gamma_n = m g h gives
 * the static deflection depth = m g / K.  The same c on a tangential,
 * rolling or spinning component makes that friction soft (it then grows
 * with the relative motion until the cone's limit).  Body form only (in
 * local form put c on W's diagonal; rf_problem_to_local does).  Memory:
 * 48 bytes per contact once any contact has a compliance. */

/* Cohesion (Tasora-Anitescu slides, section 3, "cohesion"): a contact
 * with cohesion c h (the cohesion force c, N, times the step h, s) holds
 * its bodies together up to that impulse.  Its whole set Y_i is shifted
 * down the normal by s_i = c h:
 *     gamma_i + s_i e_n in Y_i,
 * so the normal impulse may reach -c h, and the friction limits grow with
 * it (|gamma_t| <= mu (gamma_n + c h), rolling and spinning alike): a
 * cohesive contact resists sliding even when it pulls.  rf_solve solves
 * the shifted problem in gamma~ = gamma + s, a standard one with the free
 * velocity of the impulses -s already applied, and returns gamma; the
 * residual, the energy check and rf_residual refer to that shifted
 * problem (the velocities u are the same in both).  Problem files (the
 * Siconos format) have no cohesion. */

/* Create an empty problem.  Errors: RF_ERR_NULL, RF_ERR_NOMEM. */
RF_API rf_status rf_problem_create(rf_problem **out, rf_error *err);

/* Free a problem and everything it owns.  NULL is accepted. */
RF_API void rf_problem_destroy(rf_problem *p);

/* Start (re)building a body-form problem with nbody bodies and ncon
 * contacts; every body and contact must then be set before solving
 * (unset bodies are fixed with zero velocity, unset contacts are
 * rejected by rf_solve).  Errors: RF_ERR_NULL, RF_ERR_INVALID (negative
 * count), RF_ERR_NOMEM. */
RF_API rf_status rf_problem_begin_bodies(rf_problem *p, int nbody, int ncon,
                                         rf_error *err);

/* Set body i.  Errors: RF_ERR_NULL, RF_ERR_RANGE, RF_ERR_NONFINITE,
 * RF_ERR_INVALID (negative inv_mass, inv_inertia not symmetric or with a
 * negative diagonal), RF_ERR_STATE (not a body-form problem). */
RF_API rf_status rf_problem_set_body(rf_problem *p, int i,
                                     const rf_body_desc *body, rf_error *err);

/* Set contact i.  Errors: RF_ERR_NULL, RF_ERR_RANGE (i or a body index),
 * RF_ERR_NONFINITE, RF_ERR_INVALID (negative coefficient, cohesion or
 * compliance, frame not
 * orthonormal, body_a == body_b, unknown flags), RF_ERR_STATE,
 * RF_ERR_NOMEM (the first compliant contact's compliance array).  A contact
 * between two fixed bodies is rejected by rf_solve (bodies may be set after
 * contacts). */
RF_API rf_status rf_problem_set_contact(rf_problem *p, int i,
                                        const rf_contact_desc *c,
                                        rf_error *err);

/* Set contacts first .. first + count - 1 from c[0 .. count - 1] (read,
 * not kept), each as rf_problem_set_contact would, in order; on an error
 * the contacts before the bad one are set and the message names the bad
 * one.  The checks and copies run in one loop; a caller that builds
 * contacts in batches may set each batch as it is built (or write them in
 * place: rf_problem_contact_columns below).  Several threads may set
 * disjoint ranges of one problem at the same time, between
 * rf_problem_begin_bodies and the solve, while no other call on the
 * problem runs, provided that no contact they set has a non-zero
 * compliance while the problem holds no compliance array yet (the first
 * call with a compliant contact allocates it: set compliance from one
 * thread, or afterwards with rf_problem_add_compliance; the array, once
 * there, stays through rf_problem_begin_bodies).  count 0 sets nothing
 * (first is not checked) but, like every set call, refused ones
 * included, makes rf_problem_solved_velocity refuse an earlier solve.
 * Errors: those of rf_problem_set_contact, RF_ERR_NULL (p or c, even for
 * count 0), RF_ERR_INVALID (negative count), RF_ERR_NOMEM (the
 * compliance array). */
RF_API rf_status rf_problem_set_contacts(rf_problem *p, int first, int count,
                                         const rf_contact_desc *c,
                                         rf_error *err);

/* Contacts written in place.  A caller that builds many contacts a step
 * (the Bullet shim builds one per manifold point) may write them straight
 * into the problem's arrays instead of filling rf_contact_desc structs
 * that rf_problem_set_contacts then reads back and copies: at about
 * 12,000 contacts a step those 272-byte descriptions are a 3 MB stream
 * written once and read once more.  Contact i's values, with the meaning
 * and units of the rf_contact_desc field of the same name, lie at: */
typedef struct rf_contact_columns {
    int *body;          /* [2 i], [2 i + 1]: body_a, body_b */
    double *frame;      /* [9 i .. 9 i + 8]: n, t1, t2 */
    double *arm;        /* [6 i .. 6 i + 5]: r_a, r_b (m) */
    double *bias;       /* [6 i .. 6 i + 5]: bias (m/s, rad/s) */
    double *mu;         /* [i] */
    double *rho;        /* [i] (m) */
    double *sigma;      /* [i] (m) */
    int *flags;         /* [i] */
    double *cohesion;   /* [i] (N s) */
    double *normal_max; /* [i] (N s) */
} rf_contact_columns;

/* The body-form problem's contact arrays, ncon entries each (after
 * rf_problem_begin_bodies): pointers into the problem, owned by it and
 * valid until the next rf_problem_begin_bodies, local-form setter
 * (rf_problem_set_local_csr, and rf_problem_read or rf_problem_to_local
 * into this problem) or rf_problem_destroy.  Writing there does not set
 * a contact: rf_problem_commit_contacts checks the values written and
 * sets them.  A contact already set stays set when its columns are
 * written again, unchecked: commit it again before the next solve (a
 * body index out of range is still caught, by rf_solve's RF_ERR_RANGE;
 * a non-finite or negative value is not).  Several threads may write
 * disjoint contacts.  Errors: RF_ERR_NULL (p or out), RF_ERR_STATE (not
 * a body-form problem). */
RF_API rf_status rf_problem_contact_columns(rf_problem *p,
                                            rf_contact_columns *out,
                                            rf_error *err);

/* Description c's values into contact i of the columns col, where
 * rf_problem_set_contact would store them (all but its compliance: the
 * columns hold none); nothing is checked (rf_problem_commit_contacts
 * does).  Inline, so that a caller writing thousands a step pays no call;
 * the library's own setters copy through it too. */
static inline void rf_contact_columns_put(const rf_contact_columns *col, int i,
                                          const rf_contact_desc *c)
{
    const size_t s = (size_t)i;
    col->body[2 * s] = c->body_a;
    col->body[2 * s + 1] = c->body_b;
    /* block copies, so that the compiler moves them by vectors */
    memcpy(col->frame + 9 * s, c->n, sizeof c->n);
    memcpy(col->frame + 9 * s + 3, c->t1, sizeof c->t1);
    memcpy(col->frame + 9 * s + 6, c->t2, sizeof c->t2);
    memcpy(col->arm + 6 * s, c->r_a, sizeof c->r_a);
    memcpy(col->arm + 6 * s + 3, c->r_b, sizeof c->r_b);
    memcpy(col->bias + 6 * s, c->bias, sizeof c->bias);
    col->mu[s] = c->mu;
    col->rho[s] = c->rho;
    col->sigma[s] = c->sigma;
    col->flags[s] = c->flags;
    col->cohesion[s] = c->cohesion;
    col->normal_max[s] = c->normal_max;
}

/* Set contacts first .. first + count - 1 from the values written in
 * their columns (rf_problem_contact_columns), each as
 * rf_problem_set_contact would set them with no compliance (a contact
 * written in place has none: where the problem holds a compliance array
 * their entries are zeroed; add compliance afterwards with
 * rf_problem_add_compliance).  On an error the contacts before the bad
 * one are set, the bad one and the rest of the range are not (whatever
 * they held before: their columns were overwritten), and the message
 * names the bad one.  Several threads may commit disjoint ranges at the
 * same time, as with rf_problem_set_contacts.  count 0 commits nothing.
 * Errors: those of rf_problem_set_contact but RF_ERR_NOMEM (RF_ERR_NULL
 * for p only: there is no description), RF_ERR_INVALID (negative
 * count). */
RF_API rf_status rf_problem_commit_contacts(rf_problem *p, int first, int count,
                                            rf_error *err);

/* Keep contacts 0 .. ncon - 1 of a body-form problem and drop the rest
 * (0 <= ncon <= the problem's count): for a caller that began the
 * problem with room for every candidate contact and wrote fewer in place.
 * The kept contacts keep their values and whether they are set.  Errors:
 * RF_ERR_NULL, RF_ERR_STATE (not body form), RF_ERR_RANGE. */
RF_API rf_status rf_problem_truncate_contacts(rf_problem *p, int ncon,
                                              rf_error *err);

/* One scalar row (a joint or motor equation, Bullet's btSolverConstraint,
 * ODE's "LCP row") in body form.  Its velocity is
 *     u = lin_a . v_a + ang_a . w_a + lin_b . v_b + ang_b . w_b
 *         + bias + cfm * lambda
 * (m/s or rad/s, whatever the row measures) and its impulse lambda
 * (N s or N m s) applies the force lambda lin_s and the torque
 * lambda ang_s to each side s: the Jacobian carries the signs, nothing is
 * negated for body B.  The row's set is the interval [lo, hi]
 * (mixed complementarity: lambda = clamp(lambda - u, lo, hi) in the
 * natural map), so
 *   - a bilateral (equality) row has lo = -INFINITY, hi = +INFINITY and
 *     ends with u = 0;
 *   - a limit has lo = 0, hi = +INFINITY (or the mirror image): lambda
 *     >= 0, u >= 0 and lambda u = 0;
 *   - a motor with a maximum impulse F has [-F, F] and bias = -target
 *     velocity.
 * A friction-bounded row (bound_row = k >= 0) ignores lo and hi and uses
 * [-bound_coef |lambda_k|, +bound_coef |lambda_k|], with lambda_k the
 * current impulse of row k (ODE's findex; solved as a fixed point, the
 * bound follows the iterate).  Row k must act on the same two bodies.
 * cfm >= 0 is a compliance (velocity per impulse) added to the diagonal
 * of N: the row becomes soft and N + C stays positive definite. */
typedef struct rf_row_desc {
    int body_a, body_b;        /* body indices, or RF_WORLD; a != b */
    double lin_a[3], ang_a[3]; /* Jacobian on body a (world frame) */
    double lin_b[3], ang_b[3]; /* Jacobian on body b (world frame) */
    double bias;       /* added to u: -(target velocity), m/s or rad/s */
    double lo, hi;     /* impulse bounds, lo <= hi, may be infinite */
    double cfm;        /* compliance >= 0, (m/s) / (N s) or alike */
    int bound_row;     /* -1, or the row whose impulse bounds this one */
    double bound_coef; /* >= 0, used when bound_row >= 0 */
} rf_row_desc;

/* Add compliance (see "Compliance") to every contact, either form: c is
 * (6 ncon), read, not kept, >= 0.  Body form: added to each contact's
 * compliance[]; local form: added to W's diagonal (each diagonal entry
 * must be stored in the CSR pattern, else RF_ERR_INVALID names the row).
 * Errors: RF_ERR_NULL, RF_ERR_STATE (empty problem), RF_ERR_NONFINITE,
 * RF_ERR_INVALID, RF_ERR_NOMEM. */
RF_API rf_status rf_problem_add_compliance(rf_problem *p, const double *c,
                                           rf_error *err);

/* Anisotropic sliding friction (Bullet's CF_ANISOTROPIC_FRICTION): every
 * contact's sliding rows act along s_u t1 and s_w t2 instead of t1 and
 * t2, so the force of its sliding impulses is gu s_u t1 + gw s_w t2 with
 * |(gu, gw)| <= mu gn: the friction limit is the ellipse with semi-axes
 * mu s_u gn along t1 and mu s_w gn along t2, and the projection stays the
 * exact one (Tasora App. C) in these variables.  gamma's sliding
 * components, their velocities u_u = s_u t1.v_rel + bias[1] (and u_w
 * likewise), their biases and compliances are in these variables.  scales
 * is (2 ncon) doubles, s_u then s_w per contact, > 0 (1, 1: isotropic),
 * read, not kept; NULL removes them.  Body form; rf_problem_begin_bodies
 * clears them (and the rolling ones); rf_problem_to_local carries them
 * into W.  RF_SOLVER_SI with RF_MODEL_ASSOCIATED refuses a problem with
 * them (RF_ERR_INVALID).
 * Errors: RF_ERR_NULL (p), RF_ERR_STATE (not a body-form problem),
 * RF_ERR_NONFINITE, RF_ERR_INVALID (a scale <= 0), RF_ERR_NOMEM. */
RF_API rf_status rf_problem_set_sliding_scales(rf_problem *p,
                                               const double *scales,
                                               rf_error *err);
/* Anisotropic rolling friction (Bullet's CF_ANISOTROPIC_ROLLING_FRICTION),
 * as rf_problem_set_sliding_scales for the rolling part: every contact's
 * rolling rows act about r_u t1 and r_w t2, so the rolling torque is
 * tu r_u t1 + tw r_w t2 with |(tu, tw)| <= rho gn, the ellipse of
 * semi-axes rho r_u gn and rho r_w gn.  scales: (2 ncon), r_u then r_w,
 * > 0; NULL removes them.  The two kinds are kept apart (each call sets
 * its own).  Same errors, same refusal by RF_SOLVER_SI with
 * RF_MODEL_ASSOCIATED. */
RF_API rf_status rf_problem_set_rolling_scales(rf_problem *p,
                                               const double *scales,
                                               rf_error *err);

/* Set every contact's yield cap (rf_contact_desc.normal_max, N s, >= 0,
 * 0 = none), either form: cap (ncon, read, not kept) or NULL for none.
 * The local setters reset all to 0.  Errors: RF_ERR_NULL (p),
 * RF_ERR_STATE (empty problem), RF_ERR_NONFINITE, RF_ERR_INVALID. */
RF_API rf_status rf_problem_set_normal_max(rf_problem *p, const double *cap,
                                           rf_error *err);

/* Set every contact's cohesion (N s, see "Cohesion"), either form:
 * cohesion (ncon, read, not kept) or NULL for none.  rf_problem_set_contact
 * sets one contact's; the local setters reset all to 0.  Errors:
 * RF_ERR_NULL (p), RF_ERR_STATE (empty problem), RF_ERR_NONFINITE,
 * RF_ERR_INVALID (negative). */
RF_API rf_status rf_problem_set_cohesion(rf_problem *p, const double *cohesion,
                                         rf_error *err);

/* Give a body-form problem nrow scalar rows beside its contacts (after
 * rf_problem_begin_bodies, which resets the count to 0).  Every row must
 * then be set.  The unknown vector of rf_solve and friends becomes
 * (6 ncon + nrow): the contacts' six components each, then one impulse
 * per row.  Errors: RF_ERR_NULL, RF_ERR_INVALID (negative or too large
 * count), RF_ERR_STATE (not in body form), RF_ERR_NOMEM. */
RF_API rf_status rf_problem_begin_rows(rf_problem *p, int nrow, rf_error *err);

/* Set row i.  Errors: RF_ERR_NULL, RF_ERR_RANGE (i, a body index or
 * bound_row), RF_ERR_NONFINITE (Jacobian, bias, cfm, bound_coef; lo and
 * hi may be infinite but not NaN), RF_ERR_INVALID (body_a == body_b,
 * lo > hi, lo == +INFINITY or hi == -INFINITY, negative cfm or
 * bound_coef, bound_row == i), RF_ERR_STATE.  A row between two fixed
 * bodies, or bounded by a row acting on other bodies, is rejected by
 * rf_solve (RF_ERR_INVALID). */
RF_API rf_status rf_problem_set_row(rf_problem *p, int i,
                                    const rf_row_desc *row, rf_error *err);

/* Number of rows (0 for NULL or local form). */
RF_API int rf_problem_num_rows(const rf_problem *p);

/* Largest asymmetry of a local-form W taken as round-off: max |W_rc -
 * W_cr| <= RF_W_ASYMMETRY_MAX max |W| (Siconos' own problem files carry
 * up to 1e-4). */
#define RF_W_ASYMMETRY_MAX 1e-3

/* Make p a local-form problem u = W gamma + q with ncon 6D contacts.  W is
 * (6 ncon x 6 ncon), row-major dense, symmetric positive semi-definite up
 * to round-off: a W with max |W_rc - W_cr| <= RF_W_ASYMMETRY_MAX max |W|
 * is accepted and its symmetric part (W + W^T) / 2 is what the problem
 * holds and the solvers solve (rf_problem_w_asymmetry gives the figure);
 * a larger asymmetry is refused with the figure and where it is
 * (RF_ERR_INVALID).  Definiteness is not checked.  q is (6 ncon); mu,
 * rho, sigma are (ncon).  Everything is copied.
 * Errors: RF_ERR_NULL, RF_ERR_INVALID, RF_ERR_NONFINITE, RF_ERR_NOMEM. */
RF_API rf_status rf_problem_set_local_dense(rf_problem *p, int ncon,
                                            const double *W, const double *q,
                                            const double *mu, const double *rho,
                                            const double *sigma, rf_error *err);

/* Same with W in compressed sparse rows: row_ptr (6 ncon + 1), col and
 * val (row_ptr[6 ncon]).  Column indices within a row need not be sorted
 * but must be distinct and in range; an entry whose mirror is absent
 * counts as asymmetry against a 0 (the symmetric part has both, halved). */
RF_API rf_status rf_problem_set_local_csr(rf_problem *p, int ncon,
                                          const int *row_ptr, const int *col,
                                          const double *val, const double *q,
                                          const double *mu, const double *rho,
                                          const double *sigma, rf_error *err);

/* Counts (0 for NULL). */
RF_API int rf_problem_num_contacts(const rf_problem *p);
RF_API int rf_problem_num_bodies(const rf_problem *p);
/* 1 when p is in local form, 0 in body form or empty. */
RF_API int rf_problem_is_local(const rf_problem *p);
/* max |W_rc - W_cr| / max |W| of the W a local-form problem was given
 * (rf_problem_set_local_*, rf_problem_read): 0 when it was symmetric, at
 * most RF_W_ASYMMETRY_MAX; the problem holds its symmetric part.  0 for
 * NULL, body form or empty. */
RF_API double rf_problem_w_asymmetry(const rf_problem *p);

/* Assemble the local form of a body-form problem: W = D^T M^-1 D (CSR,
 * only the blocks of contacts that share a dynamic body) and
 * q = D^T v* + bias.  dst becomes a local-form problem with the same
 * coefficients and contact flags.  Errors: RF_ERR_NULL, RF_ERR_STATE (src not
 * body form or incomplete), RF_ERR_INVALID (src has rows: the local form holds
 * 6D contacts only), RF_ERR_NOMEM. */
RF_API rf_status rf_problem_to_local(const rf_problem *src, rf_problem *dst,
                                     rf_error *err);

/* Local velocities u = N gamma + r of all contacts and rows
 * (6 ncon + nrow, out; a row's u includes its cfm term).  gamma is
 * (6 ncon + nrow).  This, rf_problem_body_velocity and rf_residual run
 * on as many OpenMP threads as the last rf_solve on p (OpenMP's default
 * before one), so that a caller solving on T threads keeps one team.  Errors:
 * RF_ERR_NULL, RF_ERR_NONFINITE, RF_ERR_STATE (empty or incomplete problem). */
RF_API rf_status rf_problem_local_velocity(rf_problem *p, const double *gamma,
                                           double *u, rf_error *err);

/* Body velocities after the impulses: v+ = v* + M^-1 D gamma, written to
 * v (3 nbody) and w (3 nbody); fixed bodies keep their velocity.
 * Errors: as rf_problem_local_velocity, and RF_ERR_STATE for a local-form
 * problem. */
RF_API rf_status rf_problem_body_velocity(rf_problem *p, const double *gamma,
                                          double *v, double *w, rf_error *err);

/* The body velocities after the last successful rf_solve on p, for the
 * gamma it returned: v+ = v* + M^-1 D gamma into v and w (3 nbody each),
 * as rf_problem_body_velocity gives them for that gamma, to rounding.  The
 * sequential impulse solver (cfg.residual = 0, the Bullet defaults) hands
 * over the velocities its sweeps accumulated, so this costs a copy, not a
 * pass over the contacts; after other solves it is computed once, here.
 * Errors: RF_ERR_NULL; RF_ERR_STATE for a problem not in body form, or
 * with no rf_solve since it last changed (any rf_problem_begin_*, _set_*
 * or _add_* call, failed ones included). */
RF_API rf_status rf_problem_solved_velocity(rf_problem *p, double *v, double *w,
                                            rf_error *err);

/* ------------------------------------------------------------------ */
/* Solving                                                             */
/* ------------------------------------------------------------------ */

typedef enum rf_model {
    RF_MODEL_ASSOCIATED = 0, /* convex CCP, Tasora (40) (with dilatancy) */
    RF_MODEL_DESAXCE = 1,    /* De Saxce modified velocity, Acary Prop. 3.1 */
    /* Pang-Trinkle's friction pyramid LCP (Theorem 1, eq. (30)), velocity
     * level: each friction component's cone becomes the box |c_k| <=
     * kappa_k c_n (sliding: the four-sided pyramid, which contains the
     * cone), solved by Lemke's method (rf_lcp_lemke) whatever cfg->solver
     * says.  A reference and A/B model for small problems: at most
     * RF_PYRAMID_MAX_CONTACTS contacts, no joint rows, no normal_max.
     * rf_stats.iterations counts pivots; residual is the LCP's
     * |min(z, M z + q)| / max(1, |q|) (when the energy check scales the
     * answer, energy_scale < 1, it stays the unscaled solution's and
     * converged is 0); rf_residual refuses this model.
     * Ray termination: rf_solve returns RF_ERR_LCP, gamma untouched. */
    RF_MODEL_PYRAMID = 2
} rf_model;

#define RF_PYRAMID_MAX_CONTACTS 128

/* The maximally dissipative single-contact impact (Preclik et al., seed
 * section 3.2 and Fig. 5): x = argmin 1/2 x^T A x - x^T b over the
 * friction cone |x_to| <= mu x_n and the plane of maximum compression
 * (A x - b)_n = 0 when b_n >= 0 (x = 0 when b_n < 0), solved
 * analytically: sticking when A^-1 b is in the cone, else on the conic
 * section's boundary at a root of the paper's quartic (eq. (8)).  A (3x3,
 * row-major, symmetric, A_nn > 0: the contact's Delassus block in the
 * frame (n, t, o)), b (3: minus the relative velocity before), mu >= 0;
 * x (3, out): the impulse (x_n, x_t, x_o); the velocity after is A x - b.
 * Errors: RF_ERR_NULL, RF_ERR_NONFINITE, RF_ERR_INVALID (negative mu, A
 * not symmetric or singular, no valid root). */
RF_API rf_status rf_mdp_contact(const double A[9], const double b[3], double mu,
                                double x[3], rf_error *err);

/* Lemke's complementary pivoting method (Cottle-Pang-Stone 4.4; covering
 * vector 1) for the LCP w = M z + q, w, z >= 0, w . z = 0.  M is n x n,
 * row-major (read), q (n, read), z (n, out: the solution).  At most
 * max_pivots pivots; *pivots (may be NULL) gets the count.  Errors:
 * RF_ERR_NULL, RF_ERR_INVALID (n outside 1 .. 20000, max_pivots < 1),
 * RF_ERR_NONFINITE, RF_ERR_NOMEM, RF_ERR_LCP (ray termination: the
 * method cannot continue, e.g. the LCP has no solution; or the pivot
 * cap), z then 0. */
RF_API rf_status rf_lcp_lemke(int n, const double *M, const double *q,
                              double *z, int max_pivots, int *pivots,
                              rf_error *err);

/* All solvers iterate in part-scaled variables (each contact's normal,
 * sliding, spin and rolling parts scaled by 1/sqrt of their mean W_ii
 * diagonal; the cones keep their form) and report residuals in the
 * original variables. */
typedef enum rf_solver_kind {
    RF_SOLVER_JACOBI = 0,     /* projected Jacobi, Tasora (46) with K = 0 */
    RF_SOLVER_GS = 1,         /* projected block Gauss-Seidel, sequential */
    RF_SOLVER_GS_COLORED = 2, /* block Gauss-Seidel over a contact-graph
                                 colouring, colour after colour, the items
                                 of a colour in parallel (from 513 items
                                 on: one parallel region per sweep) */
    RF_SOLVER_APGD = 3,       /* accelerated projected gradient descent */
    RF_SOLVER_SI = 4          /* sequential impulse: block Gauss-Seidel in
                                 velocity form shaped like Bullet's
                                 btSequentialImpulseConstraintSolver.
                                 Body form only (a local-form
                                 problem: RF_ERR_STATE).  De Saxce model:
                                 each sweep visits the rows, every contact's
                                 normal, then every contact's friction
                                 parts on their discs mu_k gn; associated
                                 model: one part-scaled block step per
                                 contact.  Islands (items joined through
                                 dynamic bodies) are solved apart: an
                                 island's impulses are the same bits
                                 whatever else the problem holds.  Per
                                 island, an energy guard shortens any
                                 step that would make the impulses add
                                 more kinetic energy than the biases'
                                 work; a warm start already adding more
                                 is kept whole but for the contacts whose
                                 free normal velocity separates and the
                                 rows (scaled by the factor that would
                                 bring the island's start to the bound),
                                 the sweeps then take only steps that add
                                 no energy, and an iterate still in
                                 excess after the last sweep is scaled
                                 back to the bound (rf_stats.energy_scale
                                 < 1: the smallest island's factor).
                                 Nothing is scaled in an island where a
                                 row's interval excludes 0.  With tol > 0
                                 an island is visited no more once a
                                 sweep changes its impulses by at most
                                 tol relative (W-weighted); the solve
                                 ends when every island has, or after
                                 max_iter sweeps (stats.iterations: the
                                 most any island took); stats.residual
                                 is still rf_residual's.  An island of
                                 513 items or more (De Saxce model: or
                                 129 contacts with rows, 21 with spin or
                                 rolling friction on at most 20, else 5)
                                 is swept by groups (consecutive items on
                                 the same two bodies) colour by colour,
                                 whatever the thread count: 1 and N
                                 threads give the same bits; a smaller
                                 one in order, rows then contacts.  omega scales
                                 the associated block step (0 = 1);
                                 local_iter caps a rolling contact's
                                 friction rounds (at most 2). */
} rf_solver_kind;

/* The most OpenMP threads a configuration may ask for (rf_config.threads):
 * a larger count is refused by rf_config_validate and every call that
 * validates a configuration. */
#define RF_MAX_THREADS 1024

/* An iteration budget above which rollfric's tools and the LD_PRELOAD
 * library warn when no tolerance can end the solve sooner (tol 0): every
 * solve then takes all of them (at about 1 us per contact and sweep, a
 * thousand contacts 100 ms a step at this count). */
#define RF_MANY_ITERATIONS 100000

/* A tolerance above which rollfric's tools and the LD_PRELOAD library
 * warn (rf_config.tol): rolling and spinning torques are a few percent
 * of the normal impulse (rho / R), so a relative residual this loose can
 * leave them out; a solve may also stop after its one sweep.  A ball
 * rolled with rolling friction stops within 9% of v0^2 / 2a at this tol
 * with every solver (tests/test_bullet_faults_api.cpp, loose tolerance);
 * at 0.1 APGD's and Jacobi's never stop. */
#define RF_LOOSE_TOL 1e-2

typedef struct rf_config {
    rf_solver_kind solver; /* default RF_SOLVER_APGD */
    rf_model model;        /* default RF_MODEL_ASSOCIATED */
    int max_iter;          /* iterations (sweeps), >= 1; default 1000 */
    double tol;            /* stop when the residual after a sweep <= tol
                              (at least one sweep, whatever tol); 0 runs
                              exactly max_iter iterations; in [0, 1)
                              (RF_ERR_INVALID from 1: the residual is
                              relative, so zero impulses meet it; see
                              RF_LOOSE_TOL); default 1e-8 */
    int warm_start;        /* 1: gamma passed to rf_solve is the start
                              (projected onto Y first); 0: start at 0.
                              default 1 */
    int threads;           /* OpenMP threads, 0 = OpenMP's default, at
                              most RF_MAX_THREADS (RF_ERR_INVALID above:
                              OpenMP ends the process when it cannot make
                              them); the
                              Bullet shim also fills and writes back its
                              contacts on them (from 512 points on).  In
                              the Bullet shim 0 means its adaptive count:
                              each step on OpenMP's count or on one,
                              whichever cost less lately, the first step
                              on one (docs/bullet.md, "Threads") */
    double omega;          /* Jacobi/GS step scale; 0 = automatic: 1/lambda
                              for Jacobi (lambda estimated by power
                              iteration on the scaled, B-preconditioned
                              N, or carried: see jacobi_lambda_max), 1
                              for GS.
                              default 0 */
    double lambda;         /* Tasora (46) relaxation in (0, 1]; default 1 */
    int local_iter;        /* GS: max inner iterations of the one-contact
                              solve; SI (De Saxce): rounds of a rolling or
                              spinning contact's friction parts per visit,
                              at most min(local_iter, 2), and of a
                              manifold's normal rows (until a round changes
                              them by at most 1%), at most
                              min(local_iter, 4); default 20 */
    int local_mdp;         /* GS: 1 = a contact without rolling and
                              spinning friction (rho = sigma = 0, no
                              normal_max) is solved by Preclik's maximally
                              dissipative impact (rf_mdp_contact) on its
                              Delassus block, not by the model's local
                              law; other contacts as usual.
                              default 0 */
    /* Starts of the solvers' step constants, >= 0; 0 = estimate (or,
       with rf_solve_carried, take the carried one).  The previous solve
       of a similar problem (the next time step) gives good ones
       (rf_stats' fields of the same names): rf_solve_carried passes
       them itself, and so does the Bullet shim.  default 0. */
    double apgd_lipschitz;    /* APGD's L (1 / step, in the part-scaled
                                 variables); the estimate costs one N
                                 product (Mazhar et al. 2015, Alg. 2), and
                                 backtracking raises a start that is too
                                 small. */
    double jacobi_lambda_max; /* Jacobi with omega = 0: lambda, omega =
                                 1 / lambda, in the scaled,
                                 B-preconditioned variables; the estimate
                                 (power iteration) costs 4-16 N products.
                                 A carried lambda is safeguarded: a step d
                                 whose d.N d / |d|^2 exceeds 1.5 lambda
                                 (proof that lambda_max does, so omega >
                                 1.5 / lambda_max) is rejected and lambda
                                 raised to at least twice and to that
                                 quotient / 1.5 (the rejected iterate
                                 counts against max_iter; no product
                                 more).  Ignored (estimated) for the De
                                 Saxce model and with friction-bounded
                                 rows (fixed points the bound does not
                                 settle).  Only raised, never lowered: a
                                 lambda far too high makes short steps,
                                 so estimate afresh from time to time
                                 (rf_carry: every 16th solve). */
    int residual;             /* 1: rf_stats.residual is the natural-map
                                 residual of the returned gamma; 0: a solver
                                 that would form it only to report it (SI,
                                 whose stopping test is the impulse change)
                                 skips that pass over the problem, reports
                                 residual = NAN, and its energy figures come
                                 from its energy guard's running sums
                                 instead of one more N product (the guard
                                 already holds the bound the check
                                 enforces; energy_scale is its own end
                                 scaling).  Solvers that stop on
                                 the residual compute it regardless.  The
                                 Bullet defaults (rf_bullet_config_default)
                                 use 0.  default 1 */
} rf_config;

/* Binary compatibility: rf_config and rf_stats may gain fields at their
 * end in later versions.  Every function that reads an rf_config or
 * writes an rf_stats is a static inline wrapper here around an exported
 * *_sized function that also takes sizeof(rf_config) and sizeof(rf_stats)
 * as the caller was compiled: the library reads only that many bytes of a
 * configuration (the fields the caller does not know keep their
 * defaults) and writes only that many of the statistics.  So a program
 * built against this header runs unchanged with a later library.  A size
 * larger than the library's own (a program built against a later header
 * than the library it runs with) or 0 is refused: RF_ERR_INVALID, with
 * both sizes in the message.  Call the wrappers; the *_sized functions
 * are what a binding that loads symbols by name calls. */

/* Fill the first size bytes of cfg with the defaults documented above.
 * Errors: RF_ERR_NULL, RF_ERR_INVALID (size). */
RF_API rf_status rf_config_default_sized(rf_config *cfg, size_t size);
/* Fill cfg with the defaults documented above.  NULL is ignored. */
static inline void rf_config_default(rf_config *cfg)
{
    (void)rf_config_default_sized(cfg, sizeof(rf_config));
}

/* Check a configuration.  Errors: RF_ERR_NULL, RF_ERR_INVALID (with the
 * field named, or the size), RF_ERR_NONFINITE. */
RF_API rf_status rf_config_validate_sized(const rf_config *cfg, size_t size,
                                          rf_error *err);
static inline rf_status rf_config_validate(const rf_config *cfg, rf_error *err)
{
    return rf_config_validate_sized(cfg, sizeof(rf_config), err);
}

typedef struct rf_stats {
    int contacts;    /* number of contacts */
    int rows;        /* scalar unknowns: 6 per contact + the rows */
    int iterations;  /* iterations (sweeps) done */
    double residual; /* natural-map residual of the returned gamma
                        (rf_residual's measure, for cfg->model) */
    int converged;   /* 1 when residual <= tol */
    double seconds;  /* wall time of the solve */
    int colors;      /* colours used (RF_SOLVER_GS_COLORED), else 0 */
    /* Energy check (body form; 0 and 1 in local form).  The impulses
       change the bodies' kinetic energy by energy_change (J):
       gamma . D^T v* + 1/2 gamma . N gamma.  An exact solution never
       adds more than the work its biases ask for (penetration recovery,
       restitution, conveyor and motor targets: max(0, -gamma . bias));
       an iterate that would is scaled by energy_scale in [0, 1) until it
       does not (so a solve stopped early never injects energy), and the
       residual is that of the scaled gamma (the pyramid model: see
       RF_MODEL_PYRAMID).  RF_SOLVER_SI scales its own last iterate the
       same way (its energy guard), and energy_scale is the product of
       the two.  energy_scale = 1: untouched. */
    double energy_change;
    double energy_scale;
    /* The step constants to start a next solve of a similar problem
       from (rf_config's fields of the same names); 0 for the solvers
       that did not run.  APGD: 0.9 times the largest L it accepted
       (after backtracking): high enough that the next solve seldom
       backtracks, 0.9 so that it can come down; after no iteration the
       start unchanged (rf_config.apgd_lipschitz, or the estimate when it
       was formed).  Jacobi with automatic omega: the lambda of its last
       iteration (omega = 1 / lambda): the estimate, or the carried
       rf_config.jacobi_lambda_max as raised by rejected steps (0 with an
       explicit omega). */
    double apgd_lipschitz;
    double jacobi_lambda_max;
    /* What the Bullet shim left out of its last step because the data
       were not finite or not valid (bodies with a non-finite state, a
       negative inverse mass or inertia; manifold points with a
       non-finite normal, position or distance; joint rows with a
       non-finite Jacobian or bound): their impulses are 0.  rf_solve
       sets them to 0. */
    int skipped_bodies;
    int skipped_contacts;
    int skipped_rows;
} rf_stats;

/* Solve the problem.  gamma (6 ncon + nrow) holds the warm start on entry
 * when cfg->warm_start, and on return: with cfg->tol > 0 the iterate of
 * least residual; with cfg->tol == 0 (a fixed iteration count, no
 * residual per iteration) the last iterate for Jacobi and Gauss-Seidel,
 * and for APGD the iterate of least gradient mapping.  Every solver
 * sweeps (iterates) at least once, and only iterates after a sweep are
 * returned: a start that already meets a loose tol is not returned as it
 * is (zero would apply no impulse).  In body form the result then
 * passes the energy check (rf_stats.energy_scale): it never adds more
 * kinetic energy than its biases ask for.  cfg NULL = defaults; stats may
 * be NULL.  Not converging is not an error: check stats->converged.
 * Errors: RF_ERR_NULL (p or gamma), RF_ERR_INVALID (cfg),
 * RF_ERR_NONFINITE (warm start or problem data), RF_ERR_STATE (empty or
 * incomplete problem), RF_ERR_NOMEM; gamma is left untouched on error. */
RF_API rf_status rf_solve_sized(rf_problem *p, const rf_config *cfg,
                                size_t cfg_size, double *gamma, rf_stats *stats,
                                size_t stats_size, rf_error *err);
static inline rf_status rf_solve(rf_problem *p, const rf_config *cfg,
                                 double *gamma, rf_stats *stats, rf_error *err)
{
    return rf_solve_sized(p, cfg, sizeof(rf_config), gamma, stats,
                          sizeof(rf_stats), err);
}

/* What a sequence of solves of one simulation carries from one solve to
 * the next, beyond the warm start (which the caller keeps in gamma): the
 * step constants the solvers learn.  APGD starts from the step constant L
 * its last solve accepted (rf_stats.apgd_lipschitz), instead of estimating it
 * (one N product) and backtracking up to it; Jacobi with automatic omega
 * (cfg->omega 0) uses its last lambda_max instead of a power iteration
 * (4-16 N products), estimating afresh on the first solve and every
 * RF_CARRY_JACOBI_ESTIMATE_EVERY-th after it (a solve only raises lambda,
 * so a scene that grew softer would keep a short step).  An explicit
 * cfg->apgd_lipschitz or cfg->jacobi_lambda_max wins over the carried one.  The
 * Bullet shim keeps one per plugin (so rf_bullet_attach, the preload library
 * and pl* worlds get it); rf_solve alone carries nothing.  One carry per
 * simulation; not thread-safe for one carry. */
typedef struct rf_carry rf_carry;
#define RF_CARRY_JACOBI_ESTIMATE_EVERY 16

/* A new carry (nothing carried yet: the first solves estimate).  Errors:
 * RF_ERR_NULL, RF_ERR_NOMEM.  Free it with rf_carry_destroy. */
RF_API rf_status rf_carry_create(rf_carry **out, rf_error *err);
RF_API void rf_carry_destroy(rf_carry *c); /* NULL: no-op */
/* Forget what was carried (a scene reset); NULL: no-op. */
RF_API void rf_carry_reset(rf_carry *c);

/* rf_solve with carry's step constants as the start (see rf_carry), the
 * constants the solve ends with kept in carry for the next one.  carry
 * NULL = rf_solve.  Errors and outputs: as rf_solve; carry is unchanged
 * on error. */
RF_API rf_status rf_solve_carried_sized(rf_problem *p, const rf_config *cfg,
                                        size_t cfg_size, rf_carry *carry,
                                        double *gamma, rf_stats *stats,
                                        size_t stats_size, rf_error *err);
static inline rf_status rf_solve_carried(rf_problem *p, const rf_config *cfg,
                                         rf_carry *carry, double *gamma,
                                         rf_stats *stats, rf_error *err)
{
    return rf_solve_carried_sized(p, cfg, sizeof(rf_config), carry, gamma,
                                  stats, sizeof(rf_stats), err);
}

/* The plastic flow of yielding contacts after a solve (elasto-plastic
 * contact, rf_contact_desc.normal_max; slides section 3): a contact whose
 * normal impulse gamma_n is at its cap (to 1e-6 relative, a tolerance-
 * driven solve's accuracy) and whose normal velocity after the solve,
 *     u_n = n . (v_A + w_A x r_A - v_B - w_B x r_B) + c_n gamma_n + b_n,
 * is negative flows: its permanent indentation grows by flow[i] = -h u_n
 * (m; h the step, s).  Every other contact gets 0.  The caller adds flow
 * to the indentation it carries and takes that off the contact's
 * penetration at the next step.  gamma (6 ncon + nrow) the solve's
 * impulses, flow (ncon) out.  Errors: as rf_problem_body_velocity, and
 * RF_ERR_INVALID / RF_ERR_NONFINITE (h not positive and finite). */
RF_API rf_status rf_problem_plastic_flow(rf_problem *p, const double *gamma,
                                         double h, double *flow, rf_error *err);

/* Split impulse: penetration recovery on pseudo-velocities (Bullet's
 * btContactSolverInfo::m_splitImpulse).  Body form only.  The contacts
 * with bias[i] < 0 (m/s: minus the separation speed that recovers the
 * penetration, e.g. -erp depth / h) take part in a frictionless normal
 * problem of their own at zero free velocity,
 *     lambda_i >= 0,  u_i = n . (pseudo-velocity of A's point - B's)
 *                         + c_i lambda_i + bias_i >= 0,  lambda_i u_i = 0
 * (c_i the contact's normal compliance), the others (bias[i] >= 0) take
 * no part.  Solved by projected Gauss-Seidel with cfg->max_iter sweeps,
 * stopping early when a sweep changes the impulses by at most cfg->tol
 * relative (cfg NULL = defaults; cfg->solver and cfg->model are not
 * read); no warm start.  The pseudo-velocities M^-1 D_n lambda go to v
 * and w (3 nbody each, m/s and rad/s; 0 for fixed bodies): the caller
 * moves positions with them over the step and then drops them, so the
 * recovery adds no kinetic energy.  gamma_n (ncon, may be NULL) gets the
 * normal impulses (N s; 0 for contacts not taking part).  stats (may be
 * NULL): contacts = rows = contacts taking part, iterations, converged,
 * residual = the normal rows' natural-map residual, Siconos-normalised.
 * The problem's free velocities, biases and friction are not read.
 * Errors: RF_ERR_NULL (p, bias, v, w), RF_ERR_INVALID (cfg),
 * RF_ERR_NONFINITE (bias), RF_ERR_STATE (empty, incomplete or local-form
 * problem), RF_ERR_NOMEM; outputs untouched on error. */
RF_API rf_status rf_solve_split_sized(rf_problem *p, const rf_config *cfg,
                                      size_t cfg_size, const double *bias,
                                      double *gamma_n, double *v, double *w,
                                      rf_stats *stats, size_t stats_size,
                                      rf_error *err);
static inline rf_status rf_solve_split(rf_problem *p, const rf_config *cfg,
                                       const double *bias, double *gamma_n,
                                       double *v, double *w, rf_stats *stats,
                                       rf_error *err)
{
    return rf_solve_split_sized(p, cfg, sizeof(rf_config), bias, gamma_n, v, w,
                                stats, sizeof(rf_stats), err);
}

/* Siconos' residual of gamma for the given model:
 *   sqrt(sum_i |gamma_i - Proj_Y(gamma_i - u_hat_i)|^2)
 *     / max(|r|, |gamma|, |u|)         (denominator 1 if all are 0)
 * with u = N gamma + r (r = q in local form); a row j adds
 * (lambda_j - clamp(lambda_j - u_j, lo_j, hi_j))^2 to the sum (the natural
 * map of its interval) and its entries to the three norms.  Errors: as
 * rf_problem_local_velocity. */
RF_API rf_status rf_residual(rf_problem *p, rf_model model, const double *gamma,
                             double *residual, rf_error *err);

/* Memory, in bytes, that p's arrays and the work memory of rf_solve with
 * cfg (NULL = defaults) take at p's current size: exactly what a freshly
 * created problem of this size holds after one such solve (arrays grow
 * and never shrink, so a reused problem may hold more).  Counted, with
 * int 4 and double 8 bytes:
 *   - the rf_problem struct itself;
 *   - per contact (at least 1), 221: bodies 2 ints, frame 9 doubles, the
 *     two lever arms 3 + 3, bias 6, mu, rho, sigma, cohesion,
 *     normal_max, flags 1 int, a set byte;
 *   - body form: per body (at least 1), 149: flags 1 int, inverse mass 3
 *     doubles, inverse inertia 9, free velocity 6, a set byte; per row,
 *     149: bodies 2 ints, Jacobian 12 doubles, bias, lo, hi, cfm, coef,
 *     bound 1 int, a set byte;
 *   - local form: W in CSR ((6 ncon + 1) ints, then max(nnz, 1) ints and
 *     doubles) and q (6 ncon doubles);
 *   - solver work: vectors of (6 ncon + nrow + 1) doubles, as many as
 *     the solver uses: APGD 11, RF_SOLVER_JACOBI 9, RF_SOLVER_GS and
 *     RF_SOLVER_GS_COLORED 6, one more for APGD and Jacobi in local form
 *     (the scaled copy of the N product's input); every solver, per
 *     item (contact or row, + 1) 72: part scaling 4 doubles, the scaled
 *     cone 4, step 1; per body (+ 1) 100: two velocity vectors
 *     of 6 doubles, the index pointer 1 int; the body -> items index
 *     (2 (ncon + nrow) + 1 ints); reduction partials (4 doubles per block
 *     of 256 items, + 4); body form: the contacts' world impulses (6 ncon
 *     + 1 doubles, the N product's gather source);
 *   - RF_SOLVER_GS and RF_SOLVER_GS_COLORED also, per contact (+ 1), 577:
 *     the scaled 6x6 diagonal block and its Cholesky factor (36 doubles
 *     each) and a flag byte; RF_SOLVER_GS_COLORED also, per item (+ 1),
 *     16: the colouring (4 ints);
 *   - RF_SOLVER_SI: per contact (+ 1) 2 ints, per body (+ 1) a 64-bit
 *     word (colour mask), per item (+ 1) 1 int
 *     and 4 doubles (sweep sums), per item (+ 2) 48 ints and 48 doubles
 *     (units and bundles), per row (+ 1) 288 (its record: J and M^-1
 *     J^T, 36 doubles); with
 *     RF_MODEL_DESAXCE per contact (+ 1) 976 (the row form's records,
 *     122 doubles), per slot of the wide form (min(ncon, ncon / L +
 *     504), + 1) L x 520 (65 fields of L doubles) and per angular slot
 *     (min(nang, nang / L + 252), + 1, nang the contacts with rho > 0 or
 *     sigma > 0) L x 304 (38 fields of L doubles), L the lanes of a
 *     bundle: 8 where the processor has AVX-512F and AVX-512VL (an x86-64
 *     build with GCC), else 4; with the other models
 *     per contact (+ 1) 1,268 (the block record, 156 doubles and 5
 *     ints);
 *   - body form, every solver: the last solve's copies for
 *     rf_problem_solved_velocity, (6 ncon + nrow + 1) + (6 nbody + 1)
 *     doubles;
 *   - with a compliant contact (body form): 48 per contact (+ 1);
 *   - with a cohesive contact (cohesion > 0), the shift: (6 ncon + nrow
 *     + 1) doubles for it, 2 (max(6 nbody, 6 ncon) + 1) for the free
 *     velocities it changes (body form: 6 nbody; local form: 6 ncon) and
 *     ncon + 1 for the normal biases it changes under compliance.
 * Not counted: allocator overhead, the OpenMP runtime, the caller's gamma.
 * Allocator overhead includes the arrays that share a capacity being one
 * allocation, each array starting on a 64-byte boundary (up to 63 bytes
 * of padding each), and, on Linux, the huge pages: an allocation of 1 MiB
 * or more is placed on 2 MiB pages marked for transparent huge pages
 * (madvise) and rounded up to whole such pages, up to 2 MiB more per
 * allocation (docs/performance.md, "Memory": the full falling boxes
 * scene, 3,008 boxes, about 14 MB more resident memory, and 2-7% less
 * time per step).
 * 0 for NULL p or a cfg size the library refuses; the struct's size for
 * an empty problem. */
RF_API size_t rf_problem_memory_sized(const rf_problem *p, const rf_config *cfg,
                                      size_t cfg_size);
static inline size_t rf_problem_memory(const rf_problem *p,
                                       const rf_config *cfg)
{
    return rf_problem_memory_sized(p, cfg, sizeof(rf_config));
}

/* ------------------------------------------------------------------ */
/* Problem files (Siconos rolling-friction format)                     */
/* ------------------------------------------------------------------ */

/* Read a local-form problem from a text file (format: docs/problem-files.md,
 * "Problem files").  Dimension 5 files (n, t1, t2, r1, r2; mu then mu_r per
 * contact) are embedded in 6D with the spin component forced to zero
 * (sigma = 0); dimension 6 files (n, t1, t2, spin, r1, r2; mu, rho, sigma)
 * are read as they are.  *dim receives the file's dimension (may be NULL).
 * Errors: RF_ERR_NULL, RF_ERR_IO, RF_ERR_FORMAT (with the line number and
 * what was expected), RF_ERR_NONFINITE, RF_ERR_INVALID, RF_ERR_NOMEM. */
RF_API rf_status rf_problem_read(rf_problem *p, const char *path, int *dim,
                                 rf_error *err);

/* Write a local-form problem to a file in the same format, with dimension
 * dim (5 is allowed only when every sigma is 0 and W, q have no spin
 * coupling).  The format has no contact flags: a problem with an
 * RF_CONTACT_ROLL_T1 contact (from rf_problem_to_local) is refused.
 * Errors: RF_ERR_NULL, RF_ERR_STATE, RF_ERR_INVALID, RF_ERR_IO. */
RF_API rf_status rf_problem_write(const rf_problem *p, const char *path,
                                  int dim, rf_error *err);

/* Convert between a file's component order and ours for one contact:
 * dimension 5 (n, t1, t2, r1, r2) <-> 6D with spin 0.  Dimension 6 files
 * use our order.  These are plain copies. */
RF_API void rf_contact_from_dim5(const double in5[5], double out6[6]);
RF_API void rf_contact_to_dim5(const double in6[6], double out5[5]);

#ifdef __cplusplus
}
#endif

#endif /* ROLLFRIC_ROLLFRIC_H */
