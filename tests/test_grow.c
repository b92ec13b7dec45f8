/*
 * Growable arrays (plugin/work.c: rf__grow, rf__grow_all), through which
 * every problem and work array of the library is allocated.  Blocks of
 * 1 MiB or more are 2 MiB-aligned and marked for huge pages (Linux);
 * smaller single arrays stay with realloc.  A group's arrays (one
 * capacity) are carved out of one block, each on a 64-byte boundary.
 * Growth across the threshold and within the large blocks must keep the
 * contents, for a single array and for a group, whatever each array's
 * element size:
 *   - every element written before a growth reads back the same after it
 *     (a copy of the wrong length, from the new capacity instead of the
 *     old, or from another array of the group, fails this);
 *   - the capacity covers the request and at least doubles (amortised);
 *   - a group's arrays do not overlap (every array is filled in full
 *     before any is checked) and each starts on a cache line;
 *   - on Linux a block of 1 MiB or more starts on a 2 MiB boundary (the
 *     huge page's): a single array, and a group's first array once the
 *     group's total reaches 1 MiB.
 */
#include "internal.h"
#include "test_util.h"

#include <stdint.h>
#include <stdlib.h>

#define HUGE_PAGE ((uintptr_t)2 << 20)

/* element k of an array of elem-byte items, byte j: a pattern that tells
   arrays, items and bytes apart */
static unsigned char pattern(int array, int k, size_t j)
{
    return (unsigned char)(31 * array + 7 * k + 3 * (int)j + 1);
}

static void fill(unsigned char *a, int array, int from, int to, size_t elem)
{
    for (int k = from; k < to; ++k) {
        for (size_t j = 0; j < elem; ++j) {
            a[(size_t)k * elem + j] = pattern(array, k, j);
        }
    }
}

/* 1 when items [0, n) of a hold their pattern */
static int holds(const unsigned char *a, int array, int n, size_t elem)
{
    for (int k = 0; k < n; ++k) {
        for (size_t j = 0; j < elem; ++j) {
            if (a[(size_t)k * elem + j] != pattern(array, k, j)) {
                return 0;
            }
        }
    }
    return 1;
}

static int huge_aligned(const void *a, size_t bytes)
{
#if defined(__linux__)
    if (bytes >= ((size_t)1 << 20)) {
        return ((uintptr_t)a & (HUGE_PAGE - 1)) == 0;
    }
#else
    (void)a;
    (void)bytes;
#endif
    return 1;
}

/* One array grown from 100 items through 1 MiB to 5 MiB. */
static int test_grow_one(void)
{
    const size_t elem = 40; /* 5 doubles, not a power of two */
    void *a = NULL;
    int cap = 0, n = 100;
    ENSURE(rf__grow(&a, &cap, n, elem) == 1);
    ENSURE(a != NULL && cap >= n);
    fill(a, 0, 0, n, elem);
    const int sizes[] = {1000, 20000, 30000, 131072};
    for (int s = 0; s < 4; ++s) {
        const int old = cap;
        ENSURE(rf__grow(&a, &cap, sizes[s], elem) == 1);
        ENSURE(cap >= sizes[s] && cap >= 2 * old);
        ENSURE(holds(a, 0, n, elem));
        ENSURE(huge_aligned(a, (size_t)cap * elem));
        fill(a, 0, n, sizes[s], elem); /* the new items too */
        n = sizes[s];
    }
    /* a request within the capacity keeps the block */
    void *before = a;
    ENSURE(rf__grow(&a, &cap, n / 2, elem) == 1);
    ENSURE(a == before && holds(a, 0, n, elem));
    free(a);
    return 0;
}

/* Three arrays of 4, 72 and 256 bytes per item sharing one capacity, as
   the problem's contact columns: 3,000 items are just under 1 MiB
   together, 6,000 over it (a huge-page block from then on). */
static int test_grow_group(void)
{
    void *a[3] = {NULL, NULL, NULL}, *block = NULL;
    const size_t elem[3] = {4, 72, 256};
    const rf_grow_item items[3] = {
        {&a[0], elem[0]}, {&a[1], elem[1]}, {&a[2], elem[2]}};
    int cap = 0, n = 50;
    ENSURE(rf__grow_all(&block, items, 3, &cap, n) == 1);
    ENSURE(block != NULL && cap >= n);
    for (int i = 0; i < 3; ++i) {
        fill(a[i], i, 0, n, elem[i]);
    }
    const int sizes[] = {1000, 3000, 5000, 40000};
    for (int s = 0; s < 4; ++s) {
        const int old = cap;
        ENSURE(rf__grow_all(&block, items, 3, &cap, sizes[s]) == 1);
        ENSURE(cap >= sizes[s] && cap >= 2 * old);
        ENSURE(a[0] == block);
        const size_t total = (size_t)cap * (elem[0] + elem[1] + elem[2]);
        ENSURE(huge_aligned(block, total));
        for (int i = 0; i < 3; ++i) {
            ENSURE(((uintptr_t)a[i] & 63) == 0);
            ENSURE(holds(a[i], i, n, elem[i]));
        }
        for (int i = 0; i < 3; ++i) {
            fill(a[i], i, n, cap, elem[i]); /* the whole capacity */
        }
        for (int i = 0; i < 3; ++i) {
            ENSURE(holds(a[i], i, cap, elem[i]));
        }
        n = cap;
    }
    /* within the capacity: nothing moves */
    void *before = block;
    ENSURE(rf__grow_all(&block, items, 3, &cap, n) == 1);
    ENSURE(block == before && holds(a[2], 2, n, elem[2]));
    free(block); /* the group's arrays with it */
    return 0;
}

int main(void)
{
    RUN_TEST(test_grow_one);
    RUN_TEST(test_grow_group);
    return TEST_SUMMARY();
}
