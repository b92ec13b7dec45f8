/*
 * Shared pieces of the fuzz targets: a byte reader that turns the fuzzer's
 * bytes into numbers of useful shapes, and the oracle's trap.
 *
 * Raw IEEE doubles from random bytes are almost always NaN, huge or tiny,
 * so mutations would rarely reach the interesting arithmetic (a point just
 * outside a cone, a coefficient of 0.5).  Each number therefore starts
 * with a tag byte that picks its shape: a small integer, a scaled 16-bit
 * mantissa, a raw double, or a special value (0, -0, infinities, NaN,
 * extremes).  What the bytes cannot pay for reads as 0, so every input is
 * valid and short inputs mean small problems.
 */
#ifndef ROLLFRIC_FUZZ_UTIL_H
#define ROLLFRIC_FUZZ_UTIL_H

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An oracle violation: stop at once so that libFuzzer (or the replay
   driver under ctest) reports the input. */
#define FUZZ_CHECK(cond)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: oracle violation: %s\n", __FILE__,         \
                    __LINE__, #cond);                                          \
            __builtin_trap();                                                  \
        }                                                                      \
    } while (0)

#if defined(_POSIX_C_SOURCE) && _POSIX_C_SOURCE >= 200809L
#include <unistd.h>

/* One scratch file per process (the targets whose code under test reads
   a path), removed at exit; /dev/shm keeps it off the disk where it
   exists.  For the targets that define _POSIX_C_SOURCE 200809L (mkstemp)
   before their includes. */
static char fuzz_scratch[256];

static inline void fuzz_remove_scratch(void)
{
    if (fuzz_scratch[0] != '\0') {
        unlink(fuzz_scratch);
    }
}

static inline const char *fuzz_scratch_path(void)
{
    if (fuzz_scratch[0] == '\0') {
        const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : NULL;
        if (dir == NULL) {
            dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
        }
        snprintf(fuzz_scratch, sizeof fuzz_scratch, "%s/rf_fuzz_XXXXXX", dir);
        int fd = mkstemp(fuzz_scratch);
        FUZZ_CHECK(fd >= 0);
        close(fd);
        atexit(fuzz_remove_scratch);
    }
    return fuzz_scratch;
}
#endif

typedef struct fuzz_bytes {
    const uint8_t *p;
    size_t n;
} fuzz_bytes;

static inline uint8_t fuzz_u8(fuzz_bytes *b)
{
    if (b->n == 0) {
        return 0;
    }
    b->n--;
    return *b->p++;
}

static inline uint16_t fuzz_u16(fuzz_bytes *b)
{
    uint16_t lo = fuzz_u8(b);
    return (uint16_t)(lo | (uint16_t)(fuzz_u8(b) << 8));
}

/* A number of any shape (see the header comment):
 *   tag 0x00-0x3f: the integer tag - 32 over 8 ([-4, 3.875]);
 *   tag 0x40-0x7f: a signed 16-bit mantissa times 2^((tag & 63) - 40),
 *                  so magnitudes from 2^-40 to 2^38;
 *   tag 0x80-0xbf: a raw double from the next 8 bytes;
 *   tag 0xc0-0xff: a special value (signed zeros, infinities, NaN, the
 *                  largest and smallest doubles, 1e+-300, exact 1, 0.5). */
static inline double fuzz_any(fuzz_bytes *b)
{
    const uint8_t tag = fuzz_u8(b);
    switch (tag >> 6) {
    case 0: return ((double)tag - 32.0) / 8.0;
    case 1: return (double)(int16_t)fuzz_u16(b) * ldexp(1.0, (tag & 63) - 40);
    case 2: {
        uint8_t raw[8] = {0};
        for (int k = 0; k < 8; ++k) {
            raw[k] = fuzz_u8(b);
        }
        double v;
        memcpy(&v, raw, sizeof v);
        return v;
    }
    default: {
        static const double special[16] = {
            0.0,    -0.0,    1.0,      -1.0,    INFINITY, -INFINITY,
            NAN,    DBL_MAX, -DBL_MAX, DBL_MIN, -DBL_MIN, 4.9e-324,
            1e-300, 1e300,   0.5,      -0.5};
        return special[tag & 15];
    }
    }
}

/* A finite number of moderate size: the tag's low bits pick an integer
 * over 8 or a 16-bit mantissa times 2^e, e in [-24, 7] (at most about
 * 4e6 in magnitude); the top bit of the tag makes the value non-negative
 * (for masses, coefficients).  Problems built from these stay far from
 * overflow, so an infinity or NaN in a solver's output is a bug, not the
 * input's doing. */
static inline double fuzz_moderate(fuzz_bytes *b, int nonneg)
{
    const uint8_t tag = fuzz_u8(b);
    double v;
    if ((tag & 0x40) == 0) {
        v = ((double)(tag & 63) - 32.0) / 8.0;
    } else {
        v = (double)(int16_t)fuzz_u16(b) * ldexp(1.0, (tag & 31) - 24);
    }
    return nonneg ? fabs(v) : v;
}

/* Largest |x_k|, and the Euclidean norm without overflow. */
static inline double fuzz_maxabs(const double *x, size_t n)
{
    double m = 0.0;
    for (size_t k = 0; k < n; ++k) {
        m = fmax(m, fabs(x[k]));
    }
    return m;
}

static inline double fuzz_norm(const double *x, size_t n)
{
    const double m = fuzz_maxabs(x, n);
    if (!(m > 0.0) || !isfinite(m)) {
        return m;
    }
    double s = 0.0;
    for (size_t k = 0; k < n; ++k) {
        s += (x[k] / m) * (x[k] / m);
    }
    return m * sqrt(s);
}

static inline int fuzz_all_finite(const double *x, size_t n)
{
    for (size_t k = 0; k < n; ++k) {
        if (!isfinite(x[k])) {
            return 0;
        }
    }
    return 1;
}

#endif /* ROLLFRIC_FUZZ_UTIL_H */
