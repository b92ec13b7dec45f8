/*
 * rfbench: the JSON writer (--out) and the two CSVs beside it.
 */
#include "rfbench.h"

#include <math.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

/* A JSON number, null when not finite. */
static void json_num(FILE *f, double x)
{
    if (isfinite(x)) {
        fprintf(f, "%.6e", x);
    } else {
        fprintf(f, "null");
    }
}

static void write_results(FILE *f, const report *rp)
{
    const options *o = rp->o;
    const result *res = rp->res;
    const int n = rp->nres;
    fprintf(f, " \"results\":[\n");
    for (int i = 0; i < n; ++i) {
        const result *x = &res[i];
        fprintf(f,
                "  {\"contacts\":%d,\"bodies\":%d,\"solver\":\"%s\","
                "\"threads\":%d,\"median_seconds\":%.6e,"
                "\"contact_iterations_per_second\":%.6e,\"residual\":%.6e}%s\n",
                x->contacts, x->bodies, SOLVER_NAMES[x->solver], x->threads,
                x->median, (double)x->contacts * o->iters / x->median,
                x->residual, i + 1 < n ? "," : "");
    }
    fprintf(f, " ],\n \"speedup_over_1_thread\":[\n");
    int first = 1;
    for (int i = 0; i < n; ++i) {
        if (res[i].threads == 1) {
            continue;
        }
        for (int j = 0; j < n; ++j) {
            if (res[j].threads == 1 && res[j].contacts == res[i].contacts &&
                res[j].solver == res[i].solver) {
                fprintf(f,
                        "%s  {\"contacts\":%d,\"solver\":\"%s\","
                        "\"threads\":%d,\"ratio\":%.4f}",
                        first ? "" : ",\n", res[i].contacts,
                        SOLVER_NAMES[res[i].solver], res[i].threads,
                        res[j].median / res[i].median);
                first = 0;
            }
        }
    }
    fprintf(f, "\n ],\n");
}

static void write_stream(FILE *f, const stream_out *so)
{
    fprintf(f, " \"stream\":{\"kernel\":\"triad a[i] = b[i] + s*c[i], doubles, "
               "OpenMP static schedule, arrays first touched in the same "
               "partition\",\n"
               "  \"note\":\"bytes counted per element: 3 x 8 = 24 (read b, "
               "read c, write a; STREAM's convention). Write-allocate is NOT "
               "counted in bytes_per_second; "
               "bytes_per_second_with_write_allocate counts 4 x 8 = 32 (the "
               "read of a's line before the write). The roofline fractions "
               "use the 24-byte count, like the solvers' byte counts, which do "
               "not count write-allocate either.\",\n");
    fprintf(f,
            "  \"array_bytes\":%zu,\"arrays\":3,\"elements\":%zu,"
            "\"bytes_per_element_counted\":%.0f,"
            "\"write_allocate_counted\":false,\"repeats\":%d,"
            "\"last_level_cache_bytes_reported\":%ld,"
            "\"total_over_reported_llc\":",
            so->n * sizeof(double), so->n, TRIAD_BYTES, so->repeats,
            so->llc_bytes);
    json_num(f, so->llc_bytes > 0
                    ? 3.0 * (double)(so->n * sizeof(double)) / so->llc_bytes
                    : NAN);
    fprintf(f,
            ",\"llc_note\":\"the C library's L3 size (sysconf); a virtual "
            "machine may report the host's total, and one core reaches only "
            "its own slice\",\"checksum\":%.6e,\n  \"results\":[\n",
            so->checksum);
    for (int k = 0; k < so->nres; ++k) {
        const double n = (double)so->n;
        fprintf(f,
                "   {\"threads\":%d,\"median_seconds\":%.6e,"
                "\"best_seconds\":%.6e,\"bytes_per_second\":%.6e,"
                "\"bytes_per_second_with_write_allocate\":%.6e}%s\n",
                so->threads[k], so->median[k], so->best[k],
                TRIAD_BYTES * n / so->median[k],
                TRIAD_BYTES_WA * n / so->median[k],
                k + 1 < so->nres ? "," : "");
    }
    fprintf(f, "  ]},\n");
}

static void write_periter(FILE *f, const report *rp)
{
    fprintf(f, " \"per_iteration\":{\"note\":\"seconds per iteration = "
               "(median time of k_hi iterations - median time of k_lo) / "
               "(k_hi - k_lo), tol = 0, from zero, associated or --model; "
               "the set-up of a solve cancels. fallback: the difference "
               "was not positive (noise) and t_hi/k_hi is reported\",\n"
               "  \"results\":[\n");
    int first = 1;
    for (int s = 0; s < rp->nps; ++s) {
        const periter_size *ps = &rp->ps[s];
        for (int k = 0; k < ps->nr; ++k) {
            const periter *x = &ps->r[k];
            fprintf(f,
                    "%s   {\"contacts\":%d,\"bodies\":%d,\"solver\":\"%s\","
                    "\"threads\":%d,\"k_lo\":%d,\"k_hi\":%d,"
                    "\"median_seconds_k_lo\":%.6e,"
                    "\"median_seconds_k_hi\":%.6e,"
                    "\"seconds_per_iteration\":%.6e,"
                    "\"contact_iterations_per_second\":%.6e,"
                    "\"fallback\":%s}",
                    first ? "" : ",\n", ps->pk.contacts, ps->pk.bodies,
                    SOLVER_NAMES[x->solver], x->threads, x->k_lo, x->k_hi,
                    x->t_lo, x->t_hi, x->per_iter,
                    ps->pk.contacts / x->per_iter,
                    x->fallback ? "true" : "false");
            first = 0;
        }
    }
    fprintf(f, "\n  ]},\n");
}

static void write_scaling(FILE *f, const report *rp)
{
    const options *o = rp->o;
    fprintf(f, " \"scaling\":{\"target_slope\":1.0,\"tolerance\":0.1,");
    fprintf(f, "\"contacts\":[");
    for (int s = 0; s < rp->nps; ++s) {
        fprintf(f, "%s%d", s ? "," : "", rp->ps[s].pk.contacts);
    }
    fprintf(f,
            "],\n  \"note\":\"least-squares slope of log(seconds per "
            "iteration) on log(contacts) over the per_iteration "
            "sizes%s\",\n  \"results\":[\n",
            o->quick ? "; --quick: 3e4 instead of 1e5 contacts" : "");
    for (int sv = 0; sv < NSOLVER; ++sv) {
        for (int t = 0; t < o->nthreads; ++t) {
            const double slope =
                scaling_slope(rp->ps, rp->nps, sv, o->threads[t]);
            fprintf(f,
                    "   {\"solver\":\"%s\",\"threads\":%d,"
                    "\"seconds_per_iteration\":[",
                    SOLVER_NAMES[sv], o->threads[t]);
            for (int s = 0; s < rp->nps; ++s) {
                fprintf(f, "%s", s ? "," : "");
                json_num(f,
                         find_periter(&rp->ps[s], sv, o->threads[t])->per_iter);
            }
            fprintf(f, "],\"slope\":");
            json_num(f, slope);
            fprintf(f, ",\"within_target\":%s}%s\n",
                    fabs(slope - 1.0) <= 0.1 ? "true" : "false",
                    sv + 1 < NSOLVER || t + 1 < o->nthreads ? "," : "");
        }
    }
    fprintf(f, "  ]},\n");
}

static void write_roofline(FILE *f, const report *rp)
{
    const options *o = rp->o;
    const periter_size *ps = &rp->ps[rp->nps - 1];
    const pack_info *pk = &ps->pk;
    fprintf(f,
            " \"roofline\":{\"contacts\":%d,\"bodies\":%d,"
            "\"bodies_per_contact\":%.6f,"
            "\"index_entries_per_contact\":%.6f,\"target_fraction\":0.5,\n"
            "  \"size_note\":\"%s\",\n"
            "  \"bytes_model\":\"bytes per contact-iteration: a model, "
            "counted from the arrays each pass reads and writes (the tables "
            "of bench/rfbench_traffic.c), not measured\",\n"
            "  \"note\":\"bytes_per_contact_iteration: the arrays one "
            "iteration of the solver reads and writes (plugin/ inner loops, "
            "body form, tol = 0), each element a pass touches counted once "
            "per pass, reads and writes alike, write-allocate not counted; "
            "per body bytes times bodies/contacts, per index entry bytes "
            "times entries/contacts. achieved = contact-iterations/s "
            "(per_iteration, largest size) x bytes_per_contact_iteration; "
            "fraction = achieved / stream bytes_per_second at the same "
            "thread count. fraction_paired: per repeat of the "
            "per_iteration solves, a triad at the same thread count runs "
            "just before them (warm: triads back to back for 0.1 s, then the "
            "median of 3); the repeat's achieved bytes/s over that "
            "triad's, median over the repeats (paired_repeats; a repeat "
            "whose k_hi - k_lo difference is not positive is left out): "
            "the machine's load moves both sides of the ratio. Items left "
            "out make the count, and so the fractions, a lower bound.\",\n"
            "  \"solvers\":[\n",
            pk->contacts, pk->bodies, (double)pk->bodies / pk->contacts,
            (double)pk->entries / pk->contacts,
            o->quick ? "--quick: the 3e4-contact pack, not the issue's 1e5"
                     : "the 1e5-contact pack (the issue's target size)");
    for (int s = 0; s < NSOLVER; ++s) {
        double pc, pb, pe;
        const double bytes = traffic_bytes(s, pk, &pc, &pb, &pe);
        fprintf(f,
                "   {\"solver\":\"%s\",\"bytes_per_contact_iteration\":%.3f,"
                "\"bytes_per_contact\":%.0f,\"bytes_per_body\":%.0f,"
                "\"bytes_per_index_entry\":%.0f,\n"
                "    \"not_counted\":\"%s\",\n    \"arrays\":[\n",
                SOLVER_NAMES[s], bytes, pc, pb, pe, TRAFFIC[s].not_counted);
        for (int k = 0; k < TRAFFIC[s].n; ++k) {
            const traffic *t = &TRAFFIC[s].t[k];
            fprintf(f,
                    "     {\"pass\":\"%s\",\"array\":\"%s\",\"per\":\"%s\","
                    "\"bytes\":%d,\"access\":\"%s\"}%s\n",
                    t->pass, t->array, PER_NAMES[t->per], t->bytes,
                    t->write ? "write" : "read",
                    k + 1 < TRAFFIC[s].n ? "," : "");
        }
        fprintf(f, "    ],\n    \"results\":[\n");
        for (int t = 0; t < o->nthreads; ++t) {
            const periter *x = find_periter(ps, s, o->threads[t]);
            const double cis = pk->contacts / x->per_iter;
            const double probe = stream_rate(rp->so, o->threads[t]);
            fprintf(f,
                    "     {\"threads\":%d,"
                    "\"contact_iterations_per_second\":%.6e,"
                    "\"achieved_bytes_per_second\":%.6e,"
                    "\"probe_bytes_per_second\":",
                    o->threads[t], cis, cis * bytes);
            json_num(f, probe);
            fprintf(f, ",\"fraction\":");
            json_num(f, cis * bytes / probe);
            fprintf(f,
                    ",\"paired_repeats\":%d,\"paired_probe_bytes_per_"
                    "second\":",
                    x->npaired);
            json_num(f, x->triad_bps);
            fprintf(f, ",\"fraction_paired\":");
            json_num(f, bytes * x->cit_per_triad_byte);
            fprintf(f, "}%s\n", t + 1 < o->nthreads ? "," : "");
        }
        fprintf(f, "    ]}%s\n", s + 1 < NSOLVER ? "," : "");
    }
    fprintf(f, "  ]},\n");
}

static void write_convergence(FILE *f, const report *rp)
{
    const options *o = rp->o;
    const conv_out *co = rp->co;
    fprintf(f,
            " \"convergence\":{\"pile\":{\"spheres\":%d,\"contacts\":%d,"
            "\"layers\":%d,\"side\":%d},\n"
            "  \"pile_note\":\"%s\",\n"
            "  \"note\":\"residual = what rf_solve reports (rf_residual's "
            "measure) after exactly k iterations (tol = 0, cold start, one "
            "solve per point: Jacobi and GS return the last iterate, APGD "
            "its best); seconds = that solve's wall time, set-up included. "
            "k on a Fibonacci grid up to cap; a solver's grid stops at the "
            "first residual <= %.0e. iterations_to_target: a solve with tol "
            "= %.0e (a residual every iteration), run when some grid point "
            "reached the target; null when none did within cap.\",\n"
            "  \"model\":\"%s\",\"threads\":%d,\"cap\":%d,\"target\":%.1e,"
            "\"csv\":\"%s\",\n  \"curves\":[\n",
            co->pk.bodies, co->pk.contacts, co->pk.layers, co->pk.side,
            o->quick ? "--quick: a smaller pack than the issue's 20k pile"
                     : "the 20k pile (nearest 4 x side^2 to 20000 spheres)",
            CONV_STOP, CONV_TARGET,
            o->model == RF_MODEL_DESAXCE ? "desaxce" : "associated",
            co->threads, co->cap, CONV_TARGET, rp->csv);
    for (int s = 0; s < NCONV; ++s) {
        fprintf(f,
                "   {\"solver\":\"%s\",\"columns\":[\"iterations\","
                "\"seconds\",\"residual\"],\"points\":[",
                SOLVER_NAMES[CONV_SOLVERS[s]]);
        for (int j = 0; j < co->npts[s]; ++j) {
            const conv_point *pt = &co->pts[s][j];
            fprintf(f, "%s[%d,%.6e,", j ? "," : "", pt->k, pt->seconds);
            json_num(f, pt->residual);
            fprintf(f, "]");
        }
        fprintf(f, "],\n    \"iterations_to_target\":");
        if (co->reach_iters[s] >= 0) {
            fprintf(f, "%d,\"seconds_to_target\":%.6e,\"reached\":true}",
                    co->reach_iters[s], co->reach_seconds[s]);
        } else {
            fprintf(f, "null,\"seconds_to_target\":null,\"reached\":false,"
                       "\"reason\":\"not reached within cap\"}");
        }
        fprintf(f, "%s\n", s + 1 < NCONV ? "," : "");
    }
    /* APGD over Jacobi (CONV_SOLVERS: 0 Jacobi, 2 APGD).  When Jacobi
       does not reach the target within its cap (the grid's, or the
       target-4 run's 5 x APGD's count), its count exceeds that cap and
       APGD / cap bounds the ratio from above. */
    int ja = co->reach_iters[0];
    const int ap = co->reach_iters[2];
    int jcap = co->cap;
    if (co->t4_cap > 0) {
        jcap = co->t4_cap;
        ja = co->t4_reached ? co->t4_iters : -1;
    }
    fprintf(f, "  ],\n  \"apgd_over_jacobi\":{\"target\":0.2,\"ratio\":");
    if (ja > 0 && ap >= 0) {
        fprintf(f, "%.6f,\"upper_bound\":null,\"target_met\":%s",
                (double)ap / ja, ap * 5 <= ja ? "true" : "false");
    } else if (ap >= 0) {
        fprintf(f,
                "null,\"upper_bound\":%.6f,\"target_met\":%s,\"note\":"
                "\"Jacobi did not reach the target within %d iterations\"",
                (double)ap / jcap, ap * 5 <= jcap ? "true" : "null", jcap);
    } else {
        fprintf(f, "null,\"upper_bound\":null,\"target_met\":null,"
                   "\"note\":\"APGD did not reach the target within cap\"");
    }
    if (co->t4_cap > 0) {
        fprintf(f,
                ",\n   \"jacobi_long_run\":{\"max_iter\":%d,\"tol\":%.0e,"
                "\"reached\":%s,\"iterations\":%d,\"best_residual\":",
                co->t4_cap, CONV_TARGET, co->t4_reached ? "true" : "false",
                co->t4_iters);
        json_num(f, co->t4_residual);
        fprintf(f, ",\"seconds\":%.3f}", co->t4_seconds);
    }
    fprintf(f, "}},\n");
}

static void write_memory(FILE *f, const report *rp)
{
    const mem_out *mo = rp->mo;
    const double nc = mo->pk.contacts;
    fprintf(f,
            " \"memory\":{\"function\":\"rf_problem_memory\","
            "\"contacts\":%d,\"bodies\":%d,\"target_bytes_per_contact\":512,"
            "\n  \"note\":\"bytes the problem's arrays and the work memory "
            "of rf_solve with that solver hold at this size (a fresh "
            "problem after one solve), over the contacts: bodies and "
            "constants amortised. heap_growth: glibc mallinfo2 (uordblks + "
            "hblkhd) before create and after build + solve, allocator "
            "headers and page rounding included; null when unavailable. "
            "Not counted: the caller's gamma (48 B per contact), the "
            "OpenMP runtime.\",\n  \"results\":[\n",
            mo->pk.contacts, mo->pk.bodies);
    for (int s = 0; s < NSOLVER; ++s) {
        mem_item it[16];
        const int n = memory_items(&mo->pk, s, it);
        double sum = 0.0;
        for (int k = 0; k < n; ++k) {
            sum += it[k].bytes;
        }
        fprintf(f,
                "   {\"solver\":\"%s\",\"bytes\":%zu,"
                "\"bytes_per_contact\":%.3f,\"within_target\":%s,"
                "\"heap_growth_bytes\":",
                SOLVER_NAMES[s], mo->reported[s], mo->reported[s] / nc,
                mo->reported[s] / nc <= 512.0 ? "true" : "false");
        if (mo->heap[s] >= 0) {
            fprintf(f, "%ld", mo->heap[s]);
        } else {
            fprintf(f, "null");
        }
        /* the itemised layout leaves out only the rf_problem struct */
        fprintf(f,
                ",\"itemised_bytes\":%.0f,\"struct_and_rest_bytes\":%.0f,"
                "\n    \"counted\":[\n",
                sum, (double)mo->reported[s] - sum);
        for (int k = 0; k < n; ++k) {
            fprintf(f,
                    "     {\"what\":\"%s\",\"bytes\":%.0f,"
                    "\"bytes_per_contact\":%.3f}%s\n",
                    it[k].what, it[k].bytes, it[k].bytes / nc,
                    k + 1 < n ? "," : "");
        }
        fprintf(f, "    ]}%s\n", s + 1 < NSOLVER ? "," : "");
    }
    fprintf(f, "  ]}\n");
}

void write_json(FILE *f, const report *rp)
{
    const options *o = rp->o;
    int omp_max = 1;
#ifdef _OPENMP
    omp_max = omp_get_max_threads();
#endif
    fprintf(f, "{\"benchmark\":\"rfbench\",\"version\":\"%s\",\n",
            rf_version());
    fprintf(f, " \"machine\":{\"omp_max_threads\":%d},\n", omp_max);
    fprintf(f,
            " \"model\":\"%s\",\"iterations\":%d,\"repeats\":%d,"
            "\"quick\":%s,\"wall_seconds\":%.3f,\n",
            o->model == RF_MODEL_DESAXCE ? "desaxce" : "associated", o->iters,
            o->repeats, o->quick ? "true" : "false", rp->wall_seconds);
    write_results(f, rp);
    write_stream(f, rp->so);
    write_periter(f, rp);
    write_scaling(f, rp);
    write_roofline(f, rp);
    write_convergence(f, rp);
    write_memory(f, rp);
    fprintf(f, "}\n");
}

int write_csv(const char *path, const conv_out *co)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "rfbench: cannot write %s\n", path);
        return 2;
    }
    fprintf(f, "solver,iterations,seconds,residual\n");
    for (int s = 0; s < NCONV; ++s) {
        for (int j = 0; j < co->npts[s]; ++j) {
            const conv_point *pt = &co->pts[s][j];
            fprintf(f, "%s,%d,%.6e,%.6e\n", SOLVER_NAMES[CONV_SOLVERS[s]],
                    pt->k, pt->seconds, pt->residual);
        }
    }
    fclose(f);
    return 0;
}

/* The per-iteration times as CSV (solver,threads,contacts,
   seconds_per_iteration): the scaling plot of scripts/bench.sh. */
int write_scaling_csv(const char *path, const report *rp)
{
    const options *o = rp->o;
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "rfbench: cannot write %s\n", path);
        return 2;
    }
    fprintf(f, "solver,threads,contacts,seconds_per_iteration\n");
    for (int sv = 0; sv < NSOLVER; ++sv) {
        for (int t = 0; t < o->nthreads; ++t) {
            for (int s = 0; s < rp->nps; ++s) {
                fprintf(f, "%s,%d,%d,%.6e\n", SOLVER_NAMES[sv], o->threads[t],
                        rp->ps[s].pk.contacts,
                        find_periter(&rp->ps[s], sv, o->threads[t])->per_iter);
            }
        }
    }
    fclose(f);
    return 0;
}

/* out's stem (without a trailing .json) + "-<what>.csv". */
void csv_path(const char *out, const char *what, char *buf, size_t size)
{
    size_t n = strlen(out);
    if (n >= 5 && strcmp(out + n - 5, ".json") == 0) {
        n -= 5;
    }
    snprintf(buf, size, "%.*s-%s.csv", (int)n, out, what);
}
