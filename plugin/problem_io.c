/*
 * Problem files: the Siconos rolling-friction text format (dimension 5)
 * and our dimension-6 variant (docs/problem-files.md).
 *
 *   d            5 = (n, t1, t2, r1, r2) or 6 = (n, t1, t2, spin, r1, r2)
 *   nc           number of contacts
 *   0            storage: 0 = dense
 *   m            rows (m = d nc)
 *   m            columns
 *   m m          rows, columns again
 *   m lines of m numbers: W, row by row
 *   1 line of m numbers: q
 *   nc lines: mu;  nc lines: mu_r (d = 5) or rho, then nc lines sigma (d = 6)
 *
 * The reader is strict about the line structure so that a malformed file
 * is rejected with the line and what was expected.  A dimension-5 problem
 * is embedded in 6D with a spin row/column that has W = 1 on the diagonal,
 * no coupling, q = 0 and sigma = 0: the zero coefficient forces the spin
 * impulse to 0, so the embedding is exact.
 */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* dimension-5 component k -> our 6D index */
static const int DIM5_TO_6[5] = {RF_N, RF_U, RF_W, RF_ROLL_U, RF_ROLL_W};

void rf_contact_from_dim5(const double in5[5], double out6[6])
{
    double t[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    for (int k = 0; k < 5; ++k) {
        t[DIM5_TO_6[k]] = in5[k];
    }
    memcpy(out6, t, sizeof t);
}

void rf_contact_to_dim5(const double in6[6], double out5[5])
{
    double t[5];
    for (int k = 0; k < 5; ++k) {
        t[k] = in6[DIM5_TO_6[k]];
    }
    memcpy(out5, t, sizeof t);
}

/* ------------------------------------------------------------------ */
/* Reading                                                             */
/* ------------------------------------------------------------------ */

typedef struct reader {
    FILE *f;         /* the file, or NULL when reading from memory */
    const char *mem; /* the bytes, when f is NULL (rf__problem_read_mem) */
    size_t mem_size;
    size_t mem_pos;
    const char *path; /* the name used in messages */
    int line;         /* number of the line in buf */
    char *buf;        /* current line */
    size_t cap;
    char *pos; /* parse position in buf */
    rf_error *err;
} reader;

/* The next byte of the input, or EOF. */
static int next_char(reader *r)
{
    if (r->f != NULL) {
        return fgetc(r->f);
    }
    if (r->mem_pos >= r->mem_size) {
        return EOF;
    }
    return (unsigned char)r->mem[r->mem_pos++];
}

/* Read the next line into r->buf (any length).  Returns 1 for a line, 0
   at EOF, -1 when out of memory, -2 for a NUL byte: the line would end
   at it as a C string and silently drop what follows, so a file with one
   is not text and is refused. */
static int next_line(reader *r)
{
    size_t len = 0;
    int c;
    if (r->cap == 0) {
        r->buf = malloc(256);
        if (r->buf == NULL) {
            return -1;
        }
        r->cap = 256;
    }
    while ((c = next_char(r)) != EOF && c != '\n') {
        if (c == '\0') {
            return -2;
        }
        if (len + 1 >= r->cap) {
            char *nb = realloc(r->buf, 2 * r->cap);
            if (nb == NULL) {
                return -1;
            }
            r->buf = nb;
            r->cap *= 2;
        }
        r->buf[len++] = (char)c;
    }
    if (c == EOF && len == 0) {
        return 0;
    }
    r->buf[len] = '\0';
    r->line++;
    r->pos = r->buf;
    return 1;
}

/* The error of a failed next_line (got < 0). */
static rf_status line_error(reader *r, int got)
{
    if (got == -2) {
        return rf__fail(r->err, RF_ERR_FORMAT,
                        "%s:%d: a NUL byte (not a text file)", r->path,
                        r->line + 1);
    }
    return rf__fail(r->err, RF_ERR_NOMEM, "%s: out of memory", r->path);
}

static int is_blank(const char *s)
{
    for (; *s; ++s) {
        if (*s != ' ' && *s != '\t' && *s != '\r') {
            return 0;
        }
    }
    return 1;
}

static rf_status fail_at(reader *r, rf_status st, const char *what)
{
    char found[40];
    const char *s = r->pos ? r->pos : "";
    while (*s == ' ' || *s == '\t') {
        ++s;
    }
    snprintf(found, sizeof found, "%s", *s ? s : "end of line");
    return rf__fail(r->err, st, "%s:%d: expected %s, found \"%s\"", r->path,
                    r->line, what, found);
}

/* Start a line that must hold data (a missing line is an error). */
static rf_status expect_line(reader *r, const char *what)
{
    int got = next_line(r);
    if (got < 0) {
        return line_error(r, got);
    }
    if (got == 0) {
        return rf__fail(r->err, RF_ERR_FORMAT,
                        "%s:%d: expected %s, found end of file", r->path,
                        r->line + 1, what);
    }
    return RF_OK;
}

/* Parse one finite double from the current line. */
static rf_status read_number(reader *r, const char *what, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(r->pos, &end);
    if (end == r->pos ||
        (*end && *end != ' ' && *end != '\t' && *end != '\r')) {
        return fail_at(r, RF_ERR_FORMAT, what);
    }
    if (!isfinite(v)) {
        return rf__fail(r->err, RF_ERR_NONFINITE, "%s:%d: %s is not finite",
                        r->path, r->line, what);
    }
    r->pos = end;
    *out = v;
    return RF_OK;
}

/* The current line must have nothing left. */
static rf_status end_of_line(reader *r, const char *what)
{
    if (!is_blank(r->pos)) {
        return fail_at(r, RF_ERR_FORMAT, what);
    }
    return RF_OK;
}

/* A line holding exactly n integers (header lines). */
static rf_status read_int_line(reader *r, int n, int *out, const char *what)
{
    rf_status st = expect_line(r, what);
    for (int k = 0; st == RF_OK && k < n; ++k) {
        double v = 0.0;
        st = read_number(r, what, &v);
        /* range first: converting an out-of-range double to int is UB */
        if (st == RF_OK && (v < 0.0 || v > 1e8 || v != (double)(int)v)) {
            st = rf__fail(r->err, RF_ERR_FORMAT,
                          "%s:%d: expected %s (a non-negative integer), "
                          "found %g",
                          r->path, r->line, what, v);
        }
        if (st == RF_OK) {
            out[k] = (int)v;
        }
    }
    return st == RF_OK ? end_of_line(r, what) : st;
}

/* The next number of a stream that may span lines (the coefficient
   lists: Siconos writes them one per line or all on one line). */
static rf_status read_streamed(reader *r, const char *what, double *out)
{
    while (is_blank(r->pos)) {
        rf_status st = expect_line(r, what);
        if (st != RF_OK) {
            return st;
        }
    }
    while (*r->pos == ' ' || *r->pos == '\t') {
        ++r->pos;
    }
    return read_number(r, what, out);
}

/* A line of exactly n numbers. */
static rf_status read_row(reader *r, int n, double *out, const char *what)
{
    rf_status st = expect_line(r, what);
    for (int k = 0; st == RF_OK && k < n; ++k) {
        st = read_number(r, what, &out[k]);
    }
    return st == RF_OK ? end_of_line(r, what) : st;
}

typedef struct file_data {
    int dim, nc, m;
    double *W;       /* (m x m) as in the file */
    double *q;       /* (m) */
    double *coef[3]; /* mu, rho, sigma (nc each) */
} file_data;

static void free_data(file_data *d)
{
    free(d->W);
    free(d->q);
    for (int k = 0; k < 3; ++k) {
        free(d->coef[k]);
    }
}

static rf_status read_header(reader *r, file_data *d)
{
    int v[2];
    rf_status st = read_int_line(r, 1, &d->dim, "the dimension (5 or 6)");
    if (st == RF_OK && d->dim != 5 && d->dim != 6) {
        return rf__fail(r->err, RF_ERR_FORMAT,
                        "%s:%d: expected the dimension 5 or 6, found %d",
                        r->path, r->line, d->dim);
    }
    if (st == RF_OK) {
        st = read_int_line(r, 1, &d->nc, "the number of contacts");
    }
    if (st == RF_OK) {
        st = read_int_line(r, 1, v, "the storage flag 0 (dense)");
    }
    if (st == RF_OK && v[0] != 0) {
        return rf__fail(r->err, RF_ERR_FORMAT,
                        "%s:%d: expected the storage flag 0 (dense), found "
                        "%d (sparse storage is not supported)",
                        r->path, r->line, v[0]);
    }
    d->m = d->dim * d->nc;
    static const char *what[3] = {"the number of rows", "the number of columns",
                                  "rows and columns"};
    for (int k = 0; st == RF_OK && k < 3; ++k) {
        st = read_int_line(r, k == 2 ? 2 : 1, v, what[k]);
        for (int j = 0; st == RF_OK && j < (k == 2 ? 2 : 1); ++j) {
            if (v[j] != d->m) {
                st = rf__fail(r->err, RF_ERR_FORMAT,
                              "%s:%d: expected %s = dimension x contacts = "
                              "%d, found %d",
                              r->path, r->line, what[k], d->m, v[j]);
            }
        }
    }
    if (st == RF_OK && d->nc > 100000) {
        st = rf__fail(r->err, RF_ERR_FORMAT,
                      "%s: %d contacts is more than a dense file may hold "
                      "(100000)",
                      r->path, d->nc);
    }
    return st;
}

static rf_status read_body(reader *r, file_data *d)
{
    const int m = d->m, nc = d->nc;
    d->q = malloc((size_t)m * sizeof(double) + 1);
    for (int k = 0; k < 3; ++k) {
        d->coef[k] = calloc((size_t)nc + 1, sizeof(double));
    }
    if (!d->q || !d->coef[0] || !d->coef[1] || !d->coef[2]) {
        return rf__fail(r->err, RF_ERR_NOMEM, "%s: out of memory", r->path);
    }
    char what[64];
    rf_status st = RF_OK;
    /* W grows with the rows actually read (doubling), never to the m x m
       the header announces: a header of a few bytes must not make the
       reader ask for gigabytes before the data shows up (or not). */
    size_t cap_rows = 0;
    for (int i = 0; st == RF_OK && i < m; ++i) {
        if ((size_t)i == cap_rows) {
            size_t want = cap_rows > 0 ? 2 * cap_rows : 1;
            want = want < (size_t)m ? want : (size_t)m;
            double *nw = realloc(d->W, want * (size_t)m * sizeof(double));
            if (nw == NULL) {
                return rf__fail(r->err, RF_ERR_NOMEM, "%s: out of memory",
                                r->path);
            }
            d->W = nw;
            cap_rows = want;
        }
        snprintf(what, sizeof what, "row %d of W (%d numbers)", i + 1, m);
        st = read_row(r, m, d->W + (size_t)i * m, what);
    }
    if (st == RF_OK) {
        snprintf(what, sizeof what, "q (%d numbers)", m);
        st = read_row(r, m, d->q, what);
    }
    static const char *names5[2] = {"mu", "mu_r"};
    static const char *names6[3] = {"mu", "rho", "sigma"};
    const int ncoef = d->dim == 5 ? 2 : 3;
    for (int k = 0; st == RF_OK && k < ncoef; ++k) {
        const char *name = d->dim == 5 ? names5[k] : names6[k];
        for (int i = 0; st == RF_OK && i < nc; ++i) {
            snprintf(what, sizeof what, "%s of contact %d", name, i + 1);
            st = read_streamed(r, what, d->coef[k] + i);
            if (st == RF_OK && d->coef[k][i] < 0.0) {
                st = rf__fail(r->err, RF_ERR_INVALID,
                              "%s:%d: %s of contact %d is negative (%g)",
                              r->path, r->line, name, i + 1, d->coef[k][i]);
            }
        }
    }
    /* Only blank space may follow, on this line and after it. */
    if (st == RF_OK) {
        st = end_of_line(r, "the end of the file");
    }
    while (st == RF_OK) {
        int got = next_line(r);
        if (got <= 0) {
            st = got < 0 ? line_error(r, got) : RF_OK;
            break;
        }
        if (!is_blank(r->buf)) {
            st = fail_at(r, RF_ERR_FORMAT, "the end of the file");
        }
    }
    return st;
}

/* Install the file's data as a 6D local problem in p (CSR, zeros skipped). */
static rf_status install(const file_data *d, rf_problem *p, rf_error *err)
{
    const int nc = d->nc, m = d->m, M = 6 * nc, dim = d->dim;
    int *row_ptr = malloc((size_t)(M + 1) * sizeof(int));
    int *map = malloc((size_t)(m + 1) * sizeof(int));
    double *q = calloc((size_t)M + 1, sizeof(double));
    size_t nnz = (size_t)(dim == 5 ? nc : 0);
    for (size_t k = 0; k < (size_t)m * m; ++k) {
        nnz += d->W[k] != 0.0;
    }
    int *col = malloc((nnz + 1) * sizeof(int));
    double *val = malloc((nnz + 1) * sizeof(double));
    rf_status st = RF_ERR_NOMEM;
    if (!row_ptr || !map || !q || !col || !val || nnz > ((size_t)1 << 30)) {
        rf__fail(err, st, "out of memory for %d contacts", nc);
        goto done;
    }
    for (int i = 0; i < m; ++i) {
        map[i] = dim == 5 ? 6 * (i / 5) + DIM5_TO_6[i % 5] : i;
        q[map[i]] = d->q[i];
    }
    /* Rows in our order: our row R comes from file row i with map[i] = R,
       or is an inserted spin row (dimension 5). */
    int k = 0;
    for (int R = 0; R < M; ++R) {
        row_ptr[R] = k;
        int i = -1;
        if (dim == 6) {
            i = R;
        } else if (R % 6 != RF_SPIN) {
            int c = R % 6;
            i = 5 * (R / 6) + (c < RF_SPIN ? c : c - 1);
        }
        if (i < 0) {
            col[k] = R;
            val[k++] = 1.0;
            continue;
        }
        for (int j = 0; j < m; ++j) {
            double v = d->W[(size_t)i * m + j];
            if (v != 0.0) {
                col[k] = map[j];
                val[k++] = v;
            }
        }
    }
    row_ptr[M] = k;
    st = rf_problem_set_local_csr(p, nc, row_ptr, col, val, q, d->coef[0],
                                  d->coef[1], d->coef[2], err);
done:
    free(row_ptr);
    free(map);
    free(q);
    free(col);
    free(val);
    return st;
}

/* Read from r (a file or memory, already set up) into p: p changes only
   when the whole input is good. */
static rf_status read_problem(reader *r, rf_problem *p, int *dim, rf_error *err)
{
    file_data d = {0};
    rf_status st = read_header(r, &d);
    if (st == RF_OK) {
        st = read_body(r, &d);
    }
    if (st == RF_OK && r->f != NULL && ferror(r->f)) {
        st = rf__fail(err, RF_ERR_IO, "%s: read error", r->path);
    }
    free(r->buf);
    r->buf = NULL;
    if (st == RF_OK) {
        st = install(&d, p, err);
        if (st != RF_OK && err != NULL) { /* name the file in the message */
            char msg[sizeof err->message];
            snprintf(msg, sizeof msg, "%s", err->message);
            rf__fail(err, st, "%s: %s", r->path, msg);
        }
    }
    if (st == RF_OK) {
        if (dim != NULL) {
            *dim = d.dim;
        }
        rf__ok(err);
    }
    free_data(&d);
    return st;
}

rf_status rf_problem_read(rf_problem *p, const char *path, int *dim,
                          rf_error *err)
{
    if (p == NULL || path == NULL) {
        return rf__fail(err, RF_ERR_NULL, "rf_problem_read: %s is NULL",
                        p == NULL ? "p" : "path");
    }
    reader r = {0};
    char shown[RF__SHOWN_PATH];
    rf__shown_path(path, shown);
    r.path = shown;
    r.err = err;
    r.f = fopen(path, "r");
    if (r.f == NULL) {
        return rf__fail(err, RF_ERR_IO, "%s: cannot open: %s", shown,
                        strerror(errno));
    }
    rf_status st = read_problem(&r, p, dim, err);
    fclose(r.f);
    return st;
}

rf_status rf__problem_read_mem(rf_problem *p, const char *data, size_t size,
                               const char *name, int *dim, rf_error *err)
{
    if (p == NULL || (data == NULL && size > 0) || name == NULL) {
        return rf__fail(err, RF_ERR_NULL, "rf__problem_read_mem: %s is NULL",
                        p == NULL      ? "p"
                        : name == NULL ? "name"
                                       : "data");
    }
    reader r = {0};
    r.mem = data;
    r.mem_size = size;
    r.path = name;
    r.err = err;
    return read_problem(&r, p, dim, err);
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */
/* ------------------------------------------------------------------ */

/* Dense W (M x M, our order) from the CSR. */
static double *dense_W(const rf_problem *p)
{
    const int M = 6 * p->ncon;
    double *W = calloc((size_t)M * M + 1, sizeof(double));
    if (W == NULL) {
        return NULL;
    }
    for (int r = 0; r < M; ++r) {
        for (int e = p->W.row_ptr[r]; e < p->W.row_ptr[r + 1]; ++e) {
            W[(size_t)r * M + p->W.col[e]] = p->W.val[e];
        }
    }
    return W;
}

/* Dimension 5 drops the spin rows: allowed only when nothing is lost. */
static int spin_free(const rf_problem *p, const double *W)
{
    const int M = 6 * p->ncon;
    for (int i = 0; i < p->ncon; ++i) {
        int s = 6 * i + RF_SPIN;
        if (p->con_sigma[i] != 0.0 || p->q[s] != 0.0) {
            return 0;
        }
        for (int j = 0; j < M; ++j) {
            if (j != s &&
                (W[(size_t)s * M + j] != 0.0 || W[(size_t)j * M + s] != 0.0)) {
                return 0;
            }
        }
    }
    return 1;
}

rf_status rf_problem_write(const rf_problem *p, const char *path, int dim,
                           rf_error *err)
{
    static const char fn[] = "rf_problem_write";
    if (p == NULL || path == NULL) {
        return rf__fail(err, RF_ERR_NULL, "%s: %s is NULL", fn,
                        p == NULL ? "p" : "path");
    }
    if (p->kind != RF_KIND_LOCAL) {
        return rf__fail(err, RF_ERR_STATE,
                        "%s: only local-form problems can be written (use "
                        "rf_problem_to_local)",
                        fn);
    }
    if (dim != 5 && dim != 6) {
        return rf__fail(err, RF_ERR_INVALID, "%s: dim = %d, not 5 or 6", fn,
                        dim);
    }
    for (int i = 0; i < p->ncon; ++i) {
        if (p->con_flags[i] != 0) { /* the format has no cone shapes */
            return rf__fail(err, RF_ERR_INVALID,
                            "%s: contact %d has flags 0x%x (e.g. "
                            "RF_CONTACT_ROLL_T1), which the file format "
                            "cannot hold",
                            fn, i, (unsigned)p->con_flags[i]);
        }
        if (p->con_nmax[i] != 0.0) { /* nor a yield cap */
            return rf__fail(err, RF_ERR_INVALID,
                            "%s: contact %d has normal_max %g, which the "
                            "file format cannot hold",
                            fn, i, p->con_nmax[i]);
        }
        if (p->con_cohesion[i] != 0.0) { /* nor cohesion */
            return rf__fail(err, RF_ERR_INVALID,
                            "%s: contact %d has cohesion %g, which the file "
                            "format cannot hold",
                            fn, i, p->con_cohesion[i]);
        }
    }
    double *W = dense_W(p);
    if (W == NULL) {
        return rf__fail(err, RF_ERR_NOMEM, "%s: out of memory", fn);
    }
    if (dim == 5 && !spin_free(p, W)) {
        free(W);
        return rf__fail(err, RF_ERR_INVALID,
                        "%s: dimension 5 would drop spin data (sigma, q or "
                        "W coupling of a spin row is non-zero)",
                        fn);
    }
    char shown[RF__SHOWN_PATH];
    rf__shown_path(path, shown);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        free(W);
        return rf__fail(err, RF_ERR_IO, "%s: cannot open %s: %s", fn, shown,
                        strerror(errno));
    }
    const int nc = p->ncon, M = 6 * nc, m = dim * nc;
    int *rows = malloc((size_t)(m + 1) * sizeof(int));
    for (int i = 0; rows && i < m; ++i) {
        rows[i] = dim == 5 ? 6 * (i / 5) + DIM5_TO_6[i % 5] : i;
    }
    fprintf(f, "%d\n%d\n0\n%d\n%d\n%d\t%d\n", dim, nc, m, m, m, m);
    for (int i = 0; rows && i < m; ++i) {
        for (int j = 0; j < m; ++j) {
            fprintf(f, " %.17g", W[(size_t)rows[i] * M + rows[j]]);
        }
        fputc('\n', f);
    }
    for (int i = 0; rows && i < m; ++i) {
        fprintf(f, " %.17g", p->q[rows[i]]);
    }
    fputc('\n', f);
    const double *coef[3] = {p->con_mu, p->con_rho, p->con_sigma};
    for (int k = 0; k < (dim == 5 ? 2 : 3); ++k) {
        for (int i = 0; i < nc; ++i) {
            fprintf(f, "%.17g\n", coef[k][i]);
        }
    }
    int bad = rows == NULL || ferror(f);
    bad |= fclose(f) != 0;
    free(rows);
    free(W);
    if (bad) {
        return rf__fail(err, RF_ERR_IO, "%s: error writing %s", fn, shown);
    }
    rf__ok(err);
    return RF_OK;
}
