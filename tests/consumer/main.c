/* The first-problem example of docs/model.md: one sphere resting on the ground
 * (RF_WORLD) under gravity for one step.  The normal impulse must be m g h (the
 * impulse that cancels the step's gravity), and the sphere must stop falling.
 */
#include <rollfric/rollfric.h>

#include <math.h>
#include <stdio.h>

int main(void)
{
    const double m = 2.0, R = 0.1, h = 0.01, g = 9.81;
    rf_problem *p;
    rf_error err;
    if (rf_problem_create(&p, &err) != RF_OK ||
        rf_problem_begin_bodies(p, 1, 1, &err) != RF_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    rf_body_desc ball = {.flags = RF_BODY_DYNAMIC, .inv_mass = 1.0 / m};
    const double inv_I = 1.0 / (0.4 * m * R * R);
    ball.inv_inertia[0] = ball.inv_inertia[4] = ball.inv_inertia[8] = inv_I;
    ball.v[1] = -g * h; /* free velocity after the gravity impulse */
    rf_contact_desc c = {.body_a = 0,
                         .body_b = RF_WORLD,
                         .n = {0, 1, 0},
                         .r_a = {0, -R, 0},
                         .mu = 0.5,
                         .rho = 0.01,
                         .sigma = 0.005};
    rf_contact_frame(c.n, c.t1, c.t2);
    if (rf_problem_set_body(p, 0, &ball, &err) != RF_OK ||
        rf_problem_set_contact(p, 0, &c, &err) != RF_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    double gamma[6] = {0}, v[3], w[3];
    rf_stats st;
    if (rf_solve(p, NULL, gamma, &st, &err) != RF_OK ||
        rf_problem_body_velocity(p, gamma, v, w, &err) != RF_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    printf("rollfric %s: normal impulse %.6f N s (expected %.6f), "
           "v_y = %.2e m/s, %d iterations, residual %.1e\n",
           rf_version(), gamma[RF_N], m * g * h, v[1], st.iterations,
           st.residual);
    /* default tolerance 1e-8 on the relative residual: 1e-6 is ample */
    int ok = st.converged && fabs(gamma[RF_N] - m * g * h) < 1e-6 * m * g * h &&
             fabs(v[1]) < 1e-6;
    rf_problem_destroy(p);
    return ok ? 0 : 1;
}
