/* Shared by the local-form tests (test_io, test_examples): a local
 * problem's W and q read back through the public API. */
#ifndef ROLLFRIC_TESTS_LOCAL_FORM_H
#define ROLLFRIC_TESTS_LOCAL_FORM_H

#include "rollfric/rollfric.h"
#include "test_util.h"

#include <stdlib.h>

/* W (6 ncon square, row-major) and q of local problem p: u(0) = q, and
   u(e_j) - q = column j (so each entry to q's rounding).  0 on success. */
static inline int dense_of(rf_problem *p, double *W, double *q)
{
    const int m = 6 * rf_problem_num_contacts(p);
    double *g = calloc((size_t)m + 1, sizeof(double));
    double *u = calloc((size_t)m + 1, sizeof(double));
    ENSURE(g != NULL && u != NULL);
    ENSURE(rf_problem_local_velocity(p, g, q, NULL) == RF_OK);
    for (int j = 0; j < m; ++j) {
        g[j] = 1.0;
        ENSURE(rf_problem_local_velocity(p, g, u, NULL) == RF_OK);
        for (int i = 0; i < m; ++i) {
            W[(size_t)i * m + j] = u[i] - q[i];
        }
        g[j] = 0.0;
    }
    free(g);
    free(u);
    return 0;
}

#endif /* ROLLFRIC_TESTS_LOCAL_FORM_H */
