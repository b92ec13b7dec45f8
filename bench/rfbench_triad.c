/*
 * rfbench: the STREAM-like triad probe (section "stream") and the
 * paired triads of the roofline.
 */
#include "rfbench.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Memory bandwidth: STREAM triad                                      */
/* ------------------------------------------------------------------ */

static void triad(double *a, const double *b, const double *c, size_t n,
                  double s, int threads)
{
    const long nn = (long)n;
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long i = 0; i < nn; ++i) {
        a[i] = b[i] + s * c[i];
    }
}

void triad_free(triad_arrays *t)
{
    free(t->a);
    free(t->b);
    free(t->c);
    t->a = t->b = t->c = NULL;
}

int triad_alloc(const options *o, triad_arrays *t)
{
    const size_t n = (size_t)o->stream_mib * 1024 * 1024 / sizeof(double);
    t->n = n;
    t->a = malloc(n * sizeof(double));
    t->b = malloc(n * sizeof(double));
    t->c = malloc(n * sizeof(double));
    if (t->a == NULL || t->b == NULL || t->c == NULL) {
        fprintf(stderr, "rfbench: out of memory for the triad arrays\n");
        triad_free(t);
        return 2;
    }
    double *a = t->a, *b = t->b, *c = t->c;
    const long nn = (long)n;
    /* first touch with all the threads the probe uses, in the same static
       partition as the triad */
#pragma omp parallel for schedule(static) num_threads(max_threads(o))
    for (long i = 0; i < nn; ++i) {
        a[i] = 0.0;
        b[i] = 1.0 + 1e-9 * (double)(i % 1000);
        c[i] = 2.0;
    }
    return 0;
}

int run_stream(const options *o, stream_out *so)
{
    triad_arrays ta;
    if (triad_alloc(o, &ta)) {
        return 2;
    }
    double *a = ta.a, *b = ta.b, *c = ta.c;
    const size_t n = ta.n;
    so->n = n;
    so->repeats = o->repeats * 2 > 5 ? o->repeats * 2 : 5;
    so->nres = o->nthreads;
    double *t = malloc(sizeof(double) * o->nthreads * so->repeats);
    for (int k = 0; k < o->nthreads; ++k) { /* warm-up */
        triad(a, b, c, n, 3.0, o->threads[k]);
    }
    for (int r = 0; r < so->repeats; ++r) {
        for (int k = 0; k < o->nthreads; ++k) {
            const double t0 = now_seconds();
            triad(a, b, c, n, 3.0, o->threads[k]);
            t[k * so->repeats + r] = now_seconds() - t0;
        }
    }
    for (int k = 0; k < o->nthreads; ++k) {
        double *tk = t + k * so->repeats;
        so->threads[k] = o->threads[k];
        so->median[k] = median(tk, so->repeats);
        so->best[k] = tk[0];
    }
    /* a = b + 3 c: a checksum the compiler cannot drop */
    so->checksum = a[0] + a[n / 2] + a[n - 1];
    so->llc_bytes = 0;
#ifdef _SC_LEVEL3_CACHE_SIZE
    so->llc_bytes = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
    free(t);
    triad_free(&ta);
    return 0;
}

double stream_rate(const stream_out *so, int threads)
{
    for (int k = 0; k < so->nres; ++k) {
        if (so->threads[k] == threads) {
            return TRIAD_BYTES * (double)so->n / so->median[k];
        }
    }
    return NAN;
}

/* Seconds of one triad at `threads`, taken as the stream section takes
   them: warm (triads back to back for 0.1 s first: after a one-thread
   solve an idle core needs that long to come up to speed; a 2-thread
   triad right after one ran at a third of its rate), the median of 3. */
double paired_triad(const triad_arrays *tri, int threads)
{
    const double t_warm = now_seconds();
    do {
        triad(tri->a, tri->b, tri->c, tri->n, 3.0, threads);
    } while (now_seconds() - t_warm < 0.1);
    double t[3];
    for (int k = 0; k < 3; ++k) {
        const double t0 = now_seconds();
        triad(tri->a, tri->b, tri->c, tri->n, 3.0, threads);
        t[k] = now_seconds() - t0;
    }
    return median(t, 3);
}
