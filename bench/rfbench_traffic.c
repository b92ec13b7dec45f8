/*
 * rfbench: the bytes-per-contact-iteration model of the roofline: a
 * count of the arrays each pass of a solver iteration reads and
 * writes (plugin/ inner loops), not a measurement.
 */
#include "rfbench.h"

/* ------------------------------------------------------------------ */
/* Bytes per contact-iteration, counted from the solvers' inner loops  */
/* ------------------------------------------------------------------ */

const char *PER_NAMES[] = {"contact", "body", "index entry"};

/* rf__apply_scaled in body form (rf__apply_scaled_body, jacobian.c): the
   part scaling S is applied inside the passes.  Impulse pass (per contact,
   in order: the frame, x and S give the world impulse, written to cimp);
   body pass (per body over its index entries: cimp and the lever arms;
   apply M^-1); contact pass (frame, lever arms, both bodies' velocities,
   no bias: out = S D^T bv + r'). */
#define N_PRODUCT(x, out, rr)                                                  \
    {"N: impulse pass", "con_frame", PER_CONTACT, 72, 0},                      \
        {"N: impulse pass", x, PER_CONTACT, 48, 0},                            \
        {"N: impulse pass", "wscale", PER_CONTACT, 32, 0},                     \
        {"N: impulse pass", "cimp", PER_CONTACT, 48, 1},                       \
        {"N: body pass", "bc_ptr", PER_BODY, 4, 0},                            \
        {"N: body pass", "bc_ent", PER_ENTRY, 4, 0},                           \
        {"N: body pass", "cimp", PER_CONTACT, 48, 0},                          \
        {"N: body pass", "con_arm", PER_CONTACT, 48, 0},                       \
        {"N: body pass", "body_inv_mass", PER_BODY, 24, 0},                    \
        {"N: body pass", "body_inv_inertia", PER_BODY, 72, 0},                 \
        {"N: body pass", "bv0", PER_BODY, 48, 1},                              \
        {"N: contact pass", "con_body", PER_CONTACT, 8, 0},                    \
        {"N: contact pass", "con_frame", PER_CONTACT, 72, 0},                  \
        {"N: contact pass", "con_arm", PER_CONTACT, 48, 0},                    \
        {"N: contact pass", "bv0", PER_BODY, 48, 0},                           \
        {"N: contact pass", "wscale", PER_CONTACT, 32, 0},                     \
        {"N: contact pass", rr, PER_CONTACT, 48, 0},                           \
    {                                                                          \
        "N: contact pass", out, PER_CONTACT, 48, 1                             \
    }

/* The cone of a contact in scaled variables (rf__scaled_cone): the scaled
   coefficients and cap rf__part_scaling left in wcone, and the flags. */
#define CONE(pass)                                                             \
    {pass, "wcone", PER_CONTACT, 32, 0},                                       \
    {                                                                          \
        pass, "con_flags", PER_CONTACT, 4, 0                                   \
    }

/* solver_jacobi.c, one pass of the while loop (body form, no rows,
   tol = 0 so no tracker residual). */
static const traffic JACOBI_TRAFFIC[] = {
    {"project", "g0 (gamma')", PER_CONTACT, 48, 0},
    {"project", "u0 (u')", PER_CONTACT, 48, 0},
    {"project", "step", PER_CONTACT, 8, 0},
    CONE("project"),
    {"project", "g1 (next gamma')", PER_CONTACT, 48, 1},
    N_PRODUCT("g1", "u0", "rs"),
};

/* solver_apgd.c, one outer iteration without backtracking, tol = 0 (no
   residual per iteration), body form: extrapolate_project (y, Uy and the
   first trial x+ in one sweep), then the N product of x+ with the trial
   sums in its contact pass (rf__apply_scaled_trial).  Names as at the
   start of an iteration: g0 = x, g1 = the previous x (overwritten by
   x+), u0, u1 their products, g2 = y, u2 = Uy. */
static const traffic APGD_TRAFFIC[] = {
    {"extrapolate_project", "g0, g1, u0, u1, rs", PER_CONTACT, 240, 0},
    CONE("extrapolate_project"),
    {"extrapolate_project", "g2 (y), u2 (Uy)", PER_CONTACT, 96, 1},
    {"extrapolate_project", "g1 (x+)", PER_CONTACT, 48, 1},
    N_PRODUCT("g1", "u1", "rs"),
    {"N: contact pass (trial sums)", "g1, g0, g2, u2", PER_CONTACT, 192, 0},
};

/* solver_gs.c, one sequential sweep, visit() on the stick-test path. */
#define GS_VISIT                                                               \
    {"visit: contact velocity", "con_body", PER_CONTACT, 8, 0},                \
        {"visit: contact velocity", "con_frame", PER_CONTACT, 72, 0},          \
        {"visit: contact velocity", "con_arm", PER_CONTACT, 48, 0},            \
        {"visit: contact velocity", "con_bias", PER_CONTACT, 48, 0},           \
        {"visit: contact velocity", "bv1 (vel)", PER_BODY, 48, 0},             \
        {"visit: local solve", "g0 (gamma)", PER_CONTACT, 48, 0},              \
        {"visit: local solve", "wscale", PER_CONTACT, 32, 0},                  \
        CONE("visit: local solve"),                                            \
        {"visit: local solve", "chol_ok", PER_CONTACT, 1, 0},                  \
        {"visit: local solve", "step", PER_CONTACT, 8, 0},                     \
        {"visit: local solve", "wchol", PER_CONTACT, 288, 0},                  \
        {"visit: update", "g0 (gamma)", PER_CONTACT, 48, 1},                   \
        {"visit: body update", "body_flags", PER_BODY, 4, 0},                  \
        {"visit: body update", "body_inv_mass", PER_BODY, 24, 0},              \
        {"visit: body update", "body_inv_inertia", PER_BODY, 72, 0},           \
    {                                                                          \
        "visit: body update", "bv1 (vel)", PER_BODY, 48, 1                     \
    }

static const traffic GS_TRAFFIC[] = {GS_VISIT};
static const traffic GSC_TRAFFIC[] = {
    {"colour loop", "color_con", PER_CONTACT, 4, 0},
    GS_VISIT,
};

const traffic_table TRAFFIC[NSOLVER] = {
    {JACOBI_TRAFFIC, (int)(sizeof JACOBI_TRAFFIC / sizeof JACOBI_TRAFFIC[0]),
     "reduction partials (under 1 byte per contact)"},
    {GS_TRAFFIC, (int)(sizeof GS_TRAFFIC / sizeof GS_TRAFFIC[0]),
     "the projected-step path of a contact that fails the stick test (wblk "
     "288 bytes per inner step); re-reads of a body's velocity "
     "by its other contacts"},
    {GSC_TRAFFIC, (int)(sizeof GSC_TRAFFIC / sizeof GSC_TRAFFIC[0]),
     "as gs; and a body's data is counted once per sweep though each "
     "colour is a pass of its own"},
    {APGD_TRAFFIC, (int)(sizeof APGD_TRAFFIC / sizeof APGD_TRAFFIC[0]),
     "backtracking steps (each a project_step - y, Uy read, x+ written - "
     "and another N product with the sums); the copy of the kept "
     "iterate after an iteration that does not improve the gradient "
     "mapping (96 bytes per contact); reduction partials"},
};

/* Bytes per contact-iteration of solver s on pack pk, and its parts. */
double traffic_bytes(int s, const pack_info *pk, double *per_contact,
                     double *per_body, double *per_entry)
{
    double sum[3] = {0.0, 0.0, 0.0};
    for (int k = 0; k < TRAFFIC[s].n; ++k) {
        sum[TRAFFIC[s].t[k].per] += TRAFFIC[s].t[k].bytes;
    }
    *per_contact = sum[PER_CONTACT];
    *per_body = sum[PER_BODY];
    *per_entry = sum[PER_ENTRY];
    return sum[PER_CONTACT] +
           sum[PER_BODY] * (double)pk->bodies / pk->contacts +
           sum[PER_ENTRY] * (double)pk->entries / pk->contacts;
}
