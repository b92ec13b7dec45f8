/*
 * Case selection for the scene test programs (tests/demos/test_*.c) whose
 * cases are registered as several ctest entries (demos/CMakeLists.txt):
 * ctest runs the program once per group of cases, in parallel under
 * ctest -j, so that no entry runs long (the ASan pass keeps every test
 * under 60 s).
 *
 *     int main(int argc, char **argv)
 *     {
 *         rf_cases cases = rf_cases_init(argc, argv);
 *         RUN_CASE(&cases, test_a);
 *         RUN_CASE(&cases, test_b);
 *         return rf_cases_summary(&cases);
 *     }
 *
 * With no argument every case runs, as before; with arguments only the
 * cases named (the function names, e.g. "test_a test_b").  A name that
 * matches no case fails the run (exit 1), so a typo in CMake cannot make
 * an entry pass without running anything.
 */
#ifndef ROLLFRIC_TEST_CASES_H
#define ROLLFRIC_TEST_CASES_H

#include "../test_util.h"

#include <stdio.h>
#include <string.h>

#define RF_CASES_MAX 32

typedef struct rf_cases {
    int argc;
    char **argv;
    int matched[RF_CASES_MAX]; /* per argument: some case had its name */
} rf_cases;

static inline rf_cases rf_cases_init(int argc, char **argv)
{
    rf_cases c;
    memset(&c, 0, sizeof c);
    c.argc = argc;
    c.argv = argv;
    return c;
}

/* 1 when the case runs: no argument given, or one argument names it. */
static inline int rf_case_selected(rf_cases *c, const char *name)
{
    if (c->argc <= 1) {
        return 1;
    }
    int hit = 0;
    for (int a = 1; a < c->argc && a <= RF_CASES_MAX; ++a) {
        if (strcmp(c->argv[a], name) == 0) {
            c->matched[a - 1] = 1;
            hit = 1;
        }
    }
    return hit;
}

#define RUN_CASE(cases, fn)                                                    \
    do {                                                                       \
        if (rf_case_selected((cases), #fn)) {                                  \
            RUN_TEST(fn);                                                      \
        }                                                                      \
    } while (0)

/* TEST_SUMMARY(), failing also on an argument that named no case. */
static inline int rf_cases_summary(const rf_cases *c)
{
    int bad = 0;
    for (int a = 1; a < c->argc; ++a) {
        if (a > RF_CASES_MAX || !c->matched[a - 1]) {
            fprintf(stderr, "%s: no case named \"%s\"\n", c->argv[0],
                    c->argv[a]);
            bad = 1;
        }
    }
    const int rc = TEST_SUMMARY();
    return rc != 0 || bad ? 1 : 0;
}

#endif /* ROLLFRIC_TEST_CASES_H */
