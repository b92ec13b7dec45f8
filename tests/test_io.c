/*
 * Problem-file tests: the Siconos examples read with the values the files
 * hold, write/read round trips are exact, a dimension-6 file is read in
 * our component order, and every kind of malformed file is rejected with
 * the line and what was expected, leaving the problem as it was.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "rollfric/rollfric.h"
#include "local_form.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[256];

static const char *tmp_path(const char *name)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "%s/%s", tmpdir, name);
    return buf;
}

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        return 1;
    }
    fputs(text, f);
    fclose(f);
    return 0;
}

static int data_path(char *buf, size_t n, const char *name)
{
    return snprintf(buf, n, "%s/%s", RF_TEST_DATA_DIR, name) < (int)n;
}

/* The sphere file (dimension 5): W[1][4] = -0.1 and W[2][3] =
   0.0774419... in the file's order land at our (t1, roll_w) = (1, 5) and
   (t2, roll_u) = (2, 4); q = (-8.92357, 0.19, 0, 0, -1) -> our (n, t1, t2,
   spin, r1, r2) = (-8.92357, 0.19, 0, 0, 0, -1); the spin row is the
   identity. */
static int test_read_sphere(void)
{
    char path[512];
    ENSURE(data_path(path, sizeof path, "RFC3D_sphere_1.dat"));
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    int dim = 0;
    rf_error err;
    ENSURE(rf_problem_read(p, path, &dim, &err) == RF_OK);
    ENSURE(dim == 5);
    ENSURE(rf_problem_num_contacts(p) == 1);
    ENSURE(rf_problem_is_local(p));
    double W[36], q[6];
    if (dense_of(p, W, q)) {
        return 1;
    }
    ENSURE(W[6 * 1 + 5] == -1.000000000000000055511151e-01);
    ENSURE(W[6 * 2 + 4] == 7.744192777558041307361947e-02);
    ENSURE(W[6 * 1 + 1] == 1.010000000000000008881784e+00);
    ENSURE(W[6 * 3 + 3] == 1.0);
    for (int k = 0; k < 6; ++k) {
        if (k != 3) {
            ENSURE(W[6 * 3 + k] == 0.0 && W[6 * k + 3] == 0.0);
        }
    }
    ENSURE(q[0] == -8.923570000000022872654881e+00);
    ENSURE(q[1] == 1.900000000000000022204460e-01);
    ENSURE(q[3] == 0.0 && q[4] == 0.0);
    ENSURE(q[5] == -1.0);
    /* mu = 0.6 and mu_r = 0.5 from the file: a problem built from the
       same W, q with those coefficients gives the same residual for any
       gamma (the residual depends on the coefficients through the
       projection); with mu = 0.59 it does not. */
    double mu = 0.6, rho = 0.5, sigma = 0.0, mu2 = 0.59;
    rf_problem *ref, *off;
    ENSURE(rf_problem_create(&ref, NULL) == RF_OK);
    ENSURE(rf_problem_create(&off, NULL) == RF_OK);
    ENSURE(rf_problem_set_local_dense(ref, 1, W, q, &mu, &rho, &sigma, NULL) ==
           RF_OK);
    ENSURE(rf_problem_set_local_dense(off, 1, W, q, &mu2, &rho, &sigma, NULL) ==
           RF_OK);
    const double g[6] = {9.0, 8.0, -1.0, 0.0, 6.0, 2.0};
    double r_file, r_ref, r_off;
    ENSURE(rf_residual(p, RF_MODEL_DESAXCE, g, &r_file, NULL) == RF_OK);
    ENSURE(rf_residual(ref, RF_MODEL_DESAXCE, g, &r_ref, NULL) == RF_OK);
    ENSURE(rf_residual(off, RF_MODEL_DESAXCE, g, &r_off, NULL) == RF_OK);
    ENSURE(r_file == r_ref);
    ENSURE(r_file != r_off);
    rf_problem_destroy(ref);
    rf_problem_destroy(off);
    rf_problem_destroy(p);
    return 0;
}

/* read(write(p)) reproduces W, q and the coefficients bitwise, in both
   dimensions. */
static int test_round_trip(void)
{
    const char *files[2] = {"RFC3D_sphere_1.dat", "RFC3D_cube_1.dat"};
    for (int f = 0; f < 2; ++f) {
        char path[512];
        ENSURE(data_path(path, sizeof path, files[f]));
        rf_problem *a, *b;
        ENSURE(rf_problem_create(&a, NULL) == RF_OK);
        ENSURE(rf_problem_create(&b, NULL) == RF_OK);
        ENSURE(rf_problem_read(a, path, NULL, NULL) == RF_OK);
        const int m = 6 * rf_problem_num_contacts(a);
        double *Wa = malloc(sizeof(double) * m * m),
               *Wb = malloc(sizeof(double) * m * m);
        double *qa = malloc(sizeof(double) * m),
               *qb = malloc(sizeof(double) * m);
        if (dense_of(a, Wa, qa)) {
            return 1;
        }
        for (int dim = 5; dim <= 6; ++dim) {
            rf_error err;
            ENSURE(rf_problem_write(a, tmp_path("rt.dat"), dim, &err) == RF_OK);
            int got = 0;
            ENSURE(rf_problem_read(b, tmp_path("rt.dat"), &got, &err) == RF_OK);
            ENSURE(got == dim);
            ENSURE(rf_problem_num_contacts(b) == m / 6);
            if (dense_of(b, Wb, qb)) {
                return 1;
            }
            ENSURE(memcmp(Wa, Wb, sizeof(double) * m * m) == 0);
            ENSURE(memcmp(qa, qb, sizeof(double) * m) == 0);
            /* same coefficients: the same solve gives the same bits */
            double *ga = calloc((size_t)m, sizeof(double));
            double *gb = calloc((size_t)m, sizeof(double));
            rf_config cfg;
            rf_config_default(&cfg);
            cfg.solver = RF_SOLVER_GS;
            ENSURE(rf_solve(a, &cfg, ga, NULL, NULL) == RF_OK);
            ENSURE(rf_solve(b, &cfg, gb, NULL, NULL) == RF_OK);
            ENSURE(memcmp(ga, gb, sizeof(double) * m) == 0);
            free(ga);
            free(gb);
        }
        free(Wa);
        free(Wb);
        free(qa);
        free(qb);
        rf_problem_destroy(a);
        rf_problem_destroy(b);
    }
    return 0;
}

/* A hand-written dimension-6 file: one contact, W = diag(1..6) with a
   spin-roll coupling, coefficients on one line each. */
static int test_read_dim6(void)
{
    const char *text = "6\n1\n0\n6\n6\n6 6\n"
                       "1 0 0 0 0 0\n0 2 0 0 0 0\n0 0 3 0 0 0\n"
                       "0 0 0 4 0.5 0\n0 0 0 0.5 5 0\n0 0 0 0 0 6\n"
                       "-1 0.1 0.2 0.3 0.4 0.5\n"
                       "0.7\n0.02\n0.03\n";
    ENSURE(write_text(tmp_path("d6.dat"), text) == 0);
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    int dim = 0;
    rf_error err;
    ENSURE(rf_problem_read(p, tmp_path("d6.dat"), &dim, &err) == RF_OK);
    ENSURE(dim == 6);
    double W[36], q[6];
    if (dense_of(p, W, q)) {
        return 1;
    }
    ENSURE(W[6 * 3 + 3] == 4.0 && W[6 * 3 + 4] == 0.5 && W[6 * 5 + 5] == 6.0);
    ENSURE(q[3] == 0.3 && q[5] == 0.5);
    /* dimension 5 would lose the spin data: refused */
    ENSURE(rf_problem_write(p, tmp_path("x.dat"), 5, &err) == RF_ERR_INVALID);
    ENSURE(strstr(err.message, "spin") != NULL);
    rf_problem_destroy(p);
    return 0;
}

typedef struct bad_case {
    const char *name;
    const char *text;
    rf_status status;
    const char *needle; /* must appear in the message */
} bad_case;

#define HDR5 "5\n1\n0\n5\n5\n5 5\n"
#define ROWS5 "1 0 0 0 0\n0 1 0 0 0\n0 0 1 0 0\n0 0 0 1 0\n0 0 0 0 1\n"

static const bad_case BAD[] = {
    {"truncated row", HDR5 "1 0 0 0 0\n0 1 0 0\n", RF_ERR_FORMAT, ":8:"},
    {"m is not d nc", "5\n1\n0\n6\n6\n6 6\n", RF_ERR_FORMAT, ":4:"},
    {"letter in a number", HDR5 "1 0 0 0 0\n0 1 x 0 0\n", RF_ERR_FORMAT, ":8:"},
    {"number with junk", HDR5 "1 0 0 0 0\n0 1 0.5q 0 0\n", RF_ERR_FORMAT,
     ":8:"},
    {"missing mu", HDR5 ROWS5 "1 0 0 0 0\n", RF_ERR_FORMAT, ":13:"},
    {"missing mu_r", HDR5 ROWS5 "1 0 0 0 0\n0.5\n", RF_ERR_FORMAT, "mu_r"},
    {"extra trailing data", HDR5 ROWS5 "1 0 0 0 0\n0.5\n0.1\n7\n",
     RF_ERR_FORMAT, ":15:"},
    {"storage flag 1", "5\n1\n1\n", RF_ERR_FORMAT, ":3:"},
    {"dimension 4", "4\n1\n", RF_ERR_FORMAT, ":1:"},
    {"fractional count", "5\n1.5\n", RF_ERR_FORMAT, ":2:"},
    {"empty file", "", RF_ERR_FORMAT, ":1:"},
    {"nan entry", HDR5 "1 0 0 0 0\n0 nan 0 0 0\n", RF_ERR_NONFINITE, ":8:"},
    {"inf in q", HDR5 ROWS5 "1 0 inf 0 0\n", RF_ERR_NONFINITE, ":12:"},
    {"negative mu", HDR5 ROWS5 "1 0 0 0 0\n-0.5\n0.1\n", RF_ERR_INVALID,
     "negative"},
    {"asymmetric W",
     HDR5 "1 0 0 0 0\n0 1 0 0 0.5\n0 0 1 0 0\n0 0 0 1 0\n"
          "0 0 0 0 1\n1 0 0 0 0\n0.5\n0.1\n",
     RF_ERR_INVALID, "symmetric"},
};

static int test_malformed(void)
{
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    char sphere[512];
    ENSURE(data_path(sphere, sizeof sphere, "RFC3D_sphere_1.dat"));
    ENSURE(rf_problem_read(p, sphere, NULL, NULL) == RF_OK);
    double W0[36], q0[6], W1[36], q1[6];
    if (dense_of(p, W0, q0)) {
        return 1;
    }
    for (size_t k = 0; k < sizeof BAD / sizeof BAD[0]; ++k) {
        ENSURE(write_text(tmp_path("bad.dat"), BAD[k].text) == 0);
        rf_error err = {RF_OK, ""};
        int dim = -7;
        rf_status st = rf_problem_read(p, tmp_path("bad.dat"), &dim, &err);
        printf("  %-20s -> %s: %s\n", BAD[k].name, rf_status_string(st),
               err.message);
        ENSURE(st == BAD[k].status);
        ENSURE(err.status == BAD[k].status);
        ENSURE(strstr(err.message, BAD[k].needle) != NULL);
        ENSURE(strstr(err.message, "bad.dat") != NULL);
        ENSURE(dim == -7); /* outputs untouched */
        /* the problem still holds the sphere */
        ENSURE(rf_problem_num_contacts(p) == 1);
        if (dense_of(p, W1, q1)) {
            return 1;
        }
        ENSURE(memcmp(W0, W1, sizeof W0) == 0 &&
               memcmp(q0, q1, sizeof q0) == 0);
    }
    rf_error err;
    ENSURE(rf_problem_read(p, tmp_path("does-not-exist.dat"), NULL, &err) ==
           RF_ERR_IO);
    ENSURE(strstr(err.message, "does-not-exist.dat") != NULL);
    ENSURE(rf_problem_read(NULL, sphere, NULL, &err) == RF_ERR_NULL);
    ENSURE(rf_problem_read(p, NULL, NULL, &err) == RF_ERR_NULL);
    ENSURE(rf_problem_write(p, NULL, 5, &err) == RF_ERR_NULL);
    ENSURE(rf_problem_write(p, tmp_path("w.dat"), 7, &err) == RF_ERR_INVALID);
    ENSURE(rf_problem_write(p, "/nonexistent-dir/x.dat", 5, &err) == RF_ERR_IO);
    rf_problem *body;
    ENSURE(rf_problem_create(&body, NULL) == RF_OK);
    ENSURE(rf_problem_write(body, tmp_path("w.dat"), 6, &err) == RF_ERR_STATE);
    rf_problem_destroy(body);
    rf_problem_destroy(p);
    return 0;
}

/* dimension-5 <-> 6D component maps */
/* A long path keeps the reason in the message (the path's tail is shown
   after "..."): 300 bytes of directories that do not exist. */
static int test_long_path(void)
{
    char path[400];
    memset(path, 'd', sizeof path);
    for (int k = 1; k < 300; k += 10) {
        path[k] = '/';
    }
    path[0] = '/';
    snprintf(path + 300, sizeof path - 300, "/problem.dat");
    rf_problem *p;
    ENSURE(rf_problem_create(&p, NULL) == RF_OK);
    rf_error err;
    int dim = 0;
    ENSURE(rf_problem_read(p, path, &dim, &err) == RF_ERR_IO);
    ENSURE(strstr(err.message, "cannot open") != NULL);
    ENSURE(strstr(err.message, "...") != NULL);
    ENSURE(strstr(err.message, "problem.dat") != NULL);
    ENSURE(strlen(err.message) < sizeof err.message - 1); /* not cut */
    rf_problem_destroy(p);
    return 0;
}

static int test_dim5_maps(void)
{
    const double in5[5] = {1, 2, 3, 4, 5};
    double out6[6], back[5];
    rf_contact_from_dim5(in5, out6);
    ENSURE(out6[RF_N] == 1 && out6[RF_U] == 2 && out6[RF_W] == 3);
    ENSURE(out6[RF_SPIN] == 0 && out6[RF_ROLL_U] == 4 && out6[RF_ROLL_W] == 5);
    rf_contact_to_dim5(out6, back);
    ENSURE(memcmp(in5, back, sizeof back) == 0);
    return 0;
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/rf_test_io_XXXXXX");
    if (mkdtemp(tmpdir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    RUN_TEST(test_read_sphere);
    RUN_TEST(test_round_trip);
    RUN_TEST(test_read_dim6);
    RUN_TEST(test_malformed);
    RUN_TEST(test_dim5_maps);
    RUN_TEST(test_long_path);
    const char *names[] = {"rt.dat", "d6.dat", "x.dat", "bad.dat", "w.dat"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; ++k) {
        unlink(tmp_path(names[k]));
    }
    rmdir(tmpdir);
    return TEST_SUMMARY();
}
