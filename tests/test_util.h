/*
 * Tiny test harness (in the spirit of Box2D's ENSURE).
 *
 * A test program defines functions `static int test_xxx(void)` that return
 * 0 on success and uses ENSURE / ENSURE_SMALL / ENSURE_LE inside them; main
 * runs them with RUN_TEST and ends with TEST_SUMMARY(), which prints
 * "N passed, N failed" and returns the exit status.
 */
#ifndef ROLLFRIC_TEST_UTIL_H
#define ROLLFRIC_TEST_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static int rf_test_passed_ = 0;
static int rf_test_failed_ = 0;

#define ENSURE(cond)                                                           \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: ENSURE(%s) failed\n", __FILE__, __LINE__,  \
                    #cond);                                                    \
            return 1;                                                          \
        }                                                                      \
    } while (0)

/* |x| <= tol (NaN fails). */
#define ENSURE_SMALL(x, tol)                                                   \
    do {                                                                       \
        double ensure_x_ = (double)(x), ensure_t_ = (double)(tol);             \
        if (!(fabs(ensure_x_) <= ensure_t_)) {                                 \
            fprintf(stderr, "%s:%d: |%s| = %.17g > %.3g\n", __FILE__,          \
                    __LINE__, #x, ensure_x_, ensure_t_);                       \
            return 1;                                                          \
        }                                                                      \
    } while (0)

/* a <= b (NaN fails). */
#define ENSURE_LE(a, b)                                                        \
    do {                                                                       \
        double ensure_a_ = (double)(a), ensure_b_ = (double)(b);               \
        if (!(ensure_a_ <= ensure_b_)) {                                       \
            fprintf(stderr, "%s:%d: %s = %.17g > %s = %.17g\n", __FILE__,      \
                    __LINE__, #a, ensure_a_, #b, ensure_b_);                   \
            return 1;                                                          \
        }                                                                      \
    } while (0)

/* Wall-clock seconds (C11 timespec_get), for RUN_TEST's report: the
   ASan pass keeps every test program under 60 s. */
static inline double rf_test_now_(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define RUN_TEST(fn)                                                           \
    do {                                                                       \
        const double run_t0_ = rf_test_now_();                                 \
        int run_rc_ = fn();                                                    \
        const double run_s_ = rf_test_now_() - run_t0_;                        \
        if (run_rc_ == 0) {                                                    \
            rf_test_passed_++;                                                 \
            printf("[ OK ] %s (%.1f s)\n", #fn, run_s_);                       \
        } else {                                                               \
            rf_test_failed_++;                                                 \
            printf("[FAIL] %s (%.1f s)\n", #fn, run_s_);                       \
        }                                                                      \
        fflush(stdout);                                                        \
    } while (0)

#define TEST_SUMMARY()                                                         \
    (printf("%d passed, %d failed\n", rf_test_passed_, rf_test_failed_),       \
     rf_test_failed_ == 0 ? 0 : 1)

/* Deterministic generator (splitmix64), so failures reproduce. */
typedef struct rf_rng {
    uint64_t s;
} rf_rng;

static inline uint64_t rf_rng_next(rf_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static inline double rf_rng_uniform(rf_rng *r)
{
    return (double)(rf_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform in [lo, hi). */
static inline double rf_rng_range(rf_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * rf_rng_uniform(r);
}

#endif /* ROLLFRIC_TEST_UTIL_H */
