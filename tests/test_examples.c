/*
 * The example problems from Siconos' test data (tests/data/RFC3D_*.dat,
 * copied from numerics/src/RollingFrictionContact/test/data) are solved
 * to Siconos' residual <= 1e-10 with the De Saxce model (issue #2), by
 * every solver, and the solution satisfies the model's conditions
 * contact by contact (Acary Prop. 3.1): gamma in Y, u_hat in Y*,
 * <gamma, u_hat> ~ 0.
 */
#include "rollfric/rollfric.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *FILES[] = {"RFC3D_sphere_1.dat", "RFC3D_cube_1.dat"};

static int solve_file(const char *name, rf_solver_kind solver)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", RF_TEST_DATA_DIR, name);
    rf_problem *p;
    rf_error err;
    ENSURE(rf_problem_create(&p, &err) == RF_OK);
    int dim = 0;
    if (rf_problem_read(p, path, &dim, &err) != RF_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    ENSURE(dim == 5);
    const int nc = rf_problem_num_contacts(p);
    double *g = calloc((size_t)6 * nc, sizeof(double));
    double *u = calloc((size_t)6 * nc, sizeof(double));
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.solver = solver;
    cfg.model = RF_MODEL_DESAXCE;
    cfg.tol = 1e-10;
    cfg.max_iter = 100000;
    cfg.warm_start = 0;
    rf_stats st;
    ENSURE(rf_solve(p, &cfg, g, &st, &err) == RF_OK);
    printf("  %-20s solver %d: %d iterations, residual %.3e\n", name,
           (int)solver, st.iterations, st.residual);
    ENSURE(st.converged);
    ENSURE_LE(st.residual, 1e-10);
    /* Independent check of the conditions per contact, from u = W g + q.
       The file's coefficients: sphere mu = 0.6, mu_r = 0.5; cube 0.3, 0.1. */
    ENSURE(rf_problem_local_velocity(p, g, u, &err) == RF_OK);
    double scale = 0.0;
    for (int k = 0; k < 6 * nc; ++k) {
        scale = fmax(scale, fmax(fabs(g[k]), fabs(u[k])));
    }
    const double mu = strstr(name, "sphere") ? 0.6 : 0.3;
    const double rho = strstr(name, "sphere") ? 0.5 : 0.1;
    for (int i = 0; i < nc; ++i) {
        double *gi = g + 6 * i, uh[6];
        memcpy(uh, u + 6 * i, sizeof uh);
        uh[0] += mu * hypot(uh[1], uh[2]) + rho * hypot(uh[4], uh[5]);
        ENSURE(gi[RF_SPIN] == 0.0); /* dimension 5: no spin impulse */
        ENSURE_LE(rf_cone_violation(gi, mu, rho, 0.0), 1e-8 * scale);
        ENSURE_LE(rf_dual_cone_violation(uh, mu, rho, 0.0), 1e-8 * scale);
        double comp = 0.0;
        for (int k = 0; k < 6; ++k) {
            comp += gi[k] * uh[k];
        }
        ENSURE_SMALL(comp, 1e-8 * scale * scale);
    }
    free(g);
    free(u);
    rf_problem_destroy(p);
    return 0;
}

static int test_examples_desaxce(void)
{
    const rf_solver_kind solvers[] = {RF_SOLVER_JACOBI, RF_SOLVER_GS,
                                      RF_SOLVER_GS_COLORED, RF_SOLVER_APGD};
    for (int f = 0; f < 2; ++f) {
        for (int s = 0; s < 4; ++s) {
            if (solve_file(FILES[f], solvers[s])) {
                return 1;
            }
        }
    }
    return 0;
}

int main(void)
{
    RUN_TEST(test_examples_desaxce);
    return TEST_SUMMARY();
}
