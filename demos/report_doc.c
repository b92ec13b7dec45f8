/*
 * The report's document model (report_doc.h): an arena that owns every
 * block, span and string of a document, and the builder calls that
 * append to it.  One arena rather than a malloc per node: the document
 * is built once, read twice and dropped whole, so freeing is one walk
 * over a few chunks and no builder path can leak.
 */
#include "report_doc.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define OOM "out of memory"
#define NO_HANDLE "no block or text to add to (an earlier call failed)"

/* One piece of the arena; data is aligned for any object. */
typedef struct chunk {
    struct chunk *next;
    size_t used, cap;
    max_align_t data[];
} chunk;

struct rfd_doc {
    chunk *chunks; /* newest first */
    const char *title;
    rfd_block *first, *last;
    const char *error; /* the first failure (a literal); NULL: none */
};

enum { CHUNK_BYTES = 16384 };

/* Records why a call failed (the first reason only: later failures are
   often its consequences) and returns -1. */
static int fail(rfd_doc *d, const char *why)
{
    if (d->error == NULL) {
        d->error = why;
    }
    return -1;
}

/* n zeroed bytes from the arena, or NULL (failure recorded). */
static void *arena_alloc(rfd_doc *d, size_t n)
{
    const size_t a = _Alignof(max_align_t);
    if (n > SIZE_MAX / 2) {
        fail(d, OOM);
        return NULL;
    }
    n = (n + a - 1) / a * a;
    chunk *c = d->chunks;
    if (c == NULL || c->cap - c->used < n) {
        /* a large request gets a chunk of its own; what is left of the
           current one is not worth tracking */
        const size_t cap = n > CHUNK_BYTES ? n : CHUNK_BYTES;
        c = malloc(sizeof *c + cap);
        if (c == NULL) {
            fail(d, OOM);
            return NULL;
        }
        c->next = d->chunks;
        c->used = 0;
        c->cap = cap;
        d->chunks = c;
    }
    void *p = (char *)c->data + c->used;
    c->used += n;
    memset(p, 0, n);
    return p;
}

/* A copy of s in the arena (NULL copies as ""); NULL when out of
   memory. */
static const char *arena_str(rfd_doc *d, const char *s)
{
    if (s == NULL) {
        s = "";
    }
    const size_t n = strlen(s) + 1;
    char *c = arena_alloc(d, n);
    if (c != NULL) {
        memcpy(c, s, n);
    }
    return c;
}

/* *out = a copy of s, or NULL where s is NULL ("none"); -1 when out of
   memory. */
static int arena_opt(rfd_doc *d, const char *s, const char **out)
{
    *out = s != NULL ? arena_str(d, s) : NULL;
    return s != NULL && *out == NULL ? -1 : 0;
}

rfd_doc *rfd_doc_new(const char *title)
{
    rfd_doc *d = calloc(1, sizeof *d);
    if (d == NULL) {
        return NULL;
    }
    d->title = arena_str(d, title);
    if (d->title == NULL) {
        rfd_doc_free(d);
        return NULL;
    }
    return d;
}

void rfd_doc_free(rfd_doc *d)
{
    if (d == NULL) {
        return;
    }
    for (chunk *c = d->chunks; c != NULL;) {
        chunk *next = c->next;
        free(c);
        c = next;
    }
    free(d);
}

int rfd_doc_status(const rfd_doc *d)
{
    return d == NULL || d->error != NULL ? -1 : 0;
}

const char *rfd_doc_error(const rfd_doc *d)
{
    return d == NULL ? OOM : d->error;
}

const char *rfd_doc_title(const rfd_doc *d)
{
    return d->title;
}

const rfd_block *rfd_doc_first(const rfd_doc *d)
{
    return d->first;
}

/* ---- blocks ---- */

/* A new block at the end, zeroed but for its kind; NULL when out of
   memory.  Callers copy their strings first, so that a block in the
   list is always complete. */
static rfd_block *add_block(rfd_doc *d, rfd_block_kind kind)
{
    rfd_block *b = arena_alloc(d, sizeof *b);
    if (b == NULL) {
        return NULL;
    }
    b->kind = kind;
    if (d->last != NULL) {
        d->last->next = b;
    } else {
        d->first = b;
    }
    d->last = b;
    return b;
}

int rfd_doc_heading(rfd_doc *d, int level, const char *id, const char *text)
{
    if (d == NULL) {
        return -1;
    }
    if (level < 1 || level > 6) {
        return fail(d, "a heading's level is not 1 to 6");
    }
    const char *cid, *ctext = arena_str(d, text);
    if (ctext == NULL || arena_opt(d, id, &cid) != 0) {
        return -1;
    }
    rfd_block *b = add_block(d, RFD_BLOCK_HEADING);
    if (b == NULL) {
        return -1;
    }
    b->u.heading.level = level;
    b->u.heading.id = cid;
    b->u.heading.text = ctext;
    return 0;
}

rfd_text *rfd_doc_para(rfd_doc *d, rfd_para_style style)
{
    rfd_block *b = d != NULL ? add_block(d, RFD_BLOCK_PARA) : NULL;
    if (b == NULL) {
        return NULL;
    }
    b->u.para.style = style;
    return &b->u.para.text;
}

int rfd_doc_figure(rfd_doc *d, const char *src, const char *alt)
{
    if (d == NULL) {
        return -1;
    }
    const char *csrc = arena_str(d, src);
    const char *calt = arena_str(d, alt);
    rfd_block *b = csrc && calt ? add_block(d, RFD_BLOCK_FIGURE) : NULL;
    if (b == NULL) {
        return -1;
    }
    b->u.figure.src = csrc;
    b->u.figure.alt = calt;
    return 0;
}

int rfd_doc_pre(rfd_doc *d, rfd_tone tone, const char *text)
{
    if (d == NULL) {
        return -1;
    }
    const char *ctext = arena_str(d, text);
    rfd_block *b = ctext != NULL ? add_block(d, RFD_BLOCK_PRE) : NULL;
    if (b == NULL) {
        return -1;
    }
    b->u.pre.tone = tone;
    b->u.pre.text = ctext;
    return 0;
}

/* Copies a notice's label and body into n (caption left empty). */
static int fill_notice(rfd_doc *d, rfd_notice *n, const char *label,
                       const char *body)
{
    n->label = arena_str(d, label);
    return n->label == NULL || arena_opt(d, body, &n->body) != 0 ? -1 : 0;
}

rfd_text *rfd_doc_notice(rfd_doc *d, const char *label, const char *body)
{
    if (d == NULL) {
        return NULL;
    }
    rfd_notice n = {NULL, {NULL, NULL}, NULL};
    rfd_block *b = fill_notice(d, &n, label, body) == 0
                       ? add_block(d, RFD_BLOCK_NOTICE)
                       : NULL;
    if (b == NULL) {
        return NULL;
    }
    b->u.notice = n;
    return &b->u.notice.caption;
}

rfd_block *rfd_doc_list(rfd_doc *d)
{
    return d != NULL ? add_block(d, RFD_BLOCK_LIST) : NULL;
}

rfd_block *rfd_doc_table(rfd_doc *d, int ncols, const char *const *head,
                         const rfd_align *align)
{
    if (d == NULL) {
        return NULL;
    }
    if (ncols < 1) {
        fail(d, "a table without columns");
        return NULL;
    }
    const char **h = arena_alloc(d, (size_t)ncols * sizeof *h);
    rfd_align *a = arena_alloc(d, (size_t)ncols * sizeof *a);
    for (int j = 0; h != NULL && a != NULL && j < ncols; ++j) {
        h[j] = arena_str(d, head[j]);
        a[j] = align[j];
        if (h[j] == NULL) {
            return NULL;
        }
    }
    rfd_block *b = h && a ? add_block(d, RFD_BLOCK_TABLE) : NULL;
    if (b == NULL) {
        return NULL;
    }
    b->u.table.ncols = ncols;
    b->u.table.head = h;
    b->u.table.align = a;
    return b;
}

rfd_block *rfd_doc_glossary(rfd_doc *d, const char *title)
{
    if (d == NULL) {
        return NULL;
    }
    const char *ctitle = arena_str(d, title);
    rfd_block *b = ctitle != NULL ? add_block(d, RFD_BLOCK_GLOSSARY) : NULL;
    if (b != NULL) {
        b->u.glossary.title = ctitle;
    }
    return b;
}

/* ---- the parts of lists, tables and glossaries ---- */

/* 0 when b is a block of that kind, else -1 (recorded). */
static int check_block(rfd_doc *d, const rfd_block *b, rfd_block_kind kind,
                       const char *what)
{
    if (b == NULL) {
        return fail(d, NO_HANDLE);
    }
    return b->kind == kind ? 0 : fail(d, what);
}

rfd_text *rfd_list_item(rfd_doc *d, rfd_block *list)
{
    if (d == NULL || check_block(d, list, RFD_BLOCK_LIST,
                                 "an item added to a non-list") != 0) {
        return NULL;
    }
    rfd_item *it = arena_alloc(d, sizeof *it);
    if (it == NULL) {
        return NULL;
    }
    if (list->u.list.last != NULL) {
        list->u.list.last->next = it;
    } else {
        list->u.list.first = it;
    }
    list->u.list.last = it;
    return &it->text;
}

rfd_text *rfd_list_notice(rfd_doc *d, rfd_block *list, const char *label,
                          const char *body)
{
    if (d == NULL || check_block(d, list, RFD_BLOCK_LIST,
                                 "a notice added to a non-list") != 0) {
        return NULL;
    }
    rfd_item *it = list->u.list.last;
    if (it == NULL || it->notice != NULL) {
        fail(d, it == NULL ? "a notice on a list without items"
                           : "a second notice on one list item");
        return NULL;
    }
    rfd_notice *n = arena_alloc(d, sizeof *n);
    if (n == NULL || fill_notice(d, n, label, body) != 0) {
        return NULL;
    }
    it->notice = n;
    return &n->caption;
}

int rfd_table_row(rfd_doc *d, rfd_block *table)
{
    if (d == NULL || check_block(d, table, RFD_BLOCK_TABLE,
                                 "a row added to a non-table") != 0) {
        return -1;
    }
    rfd_row *r = arena_alloc(d, sizeof *r);
    rfd_cell *c = arena_alloc(d, (size_t)table->u.table.ncols * sizeof *c);
    if (r == NULL || c == NULL) {
        return -1;
    }
    r->cells = c;
    if (table->u.table.last != NULL) {
        table->u.table.last->next = r;
    } else {
        table->u.table.first = r;
    }
    table->u.table.last = r;
    return 0;
}

rfd_text *rfd_table_cell(rfd_doc *d, rfd_block *table, int col, const char *tip)
{
    if (d == NULL ||
        check_block(d, table, RFD_BLOCK_TABLE, "a cell of a non-table") != 0) {
        return NULL;
    }
    if (table->u.table.last == NULL || col < 0 || col >= table->u.table.ncols) {
        fail(d, table->u.table.last == NULL ? "a cell before the first row"
                                            : "a cell past the table's "
                                              "columns");
        return NULL;
    }
    rfd_cell *c = &table->u.table.last->cells[col];
    if (arena_opt(d, tip, &c->tip) != 0) {
        return NULL;
    }
    return &c->text;
}

int rfd_glossary_entry(rfd_doc *d, rfd_block *glossary, const char *term,
                       const char *text)
{
    if (d == NULL || check_block(d, glossary, RFD_BLOCK_GLOSSARY,
                                 "an entry added to a non-glossary") != 0) {
        return -1;
    }
    rfd_entry *e = arena_alloc(d, sizeof *e);
    if (e == NULL || (e->term = arena_str(d, term)) == NULL ||
        (e->text = arena_str(d, text)) == NULL) {
        return -1;
    }
    if (glossary->u.glossary.last != NULL) {
        glossary->u.glossary.last->next = e;
    } else {
        glossary->u.glossary.first = e;
    }
    glossary->u.glossary.last = e;
    return 0;
}

/* ---- spans ---- */

/* Appends a span of already copied strings to t. */
static int add_span(rfd_doc *d, rfd_text *t, rfd_span_kind kind,
                    const char *text, const char *target)
{
    rfd_span *s = text != NULL ? arena_alloc(d, sizeof *s) : NULL;
    if (s == NULL) {
        return -1;
    }
    s->kind = kind;
    s->text = text;
    s->target = target;
    if (t->last != NULL) {
        t->last->next = s;
    } else {
        t->first = s;
    }
    t->last = s;
    return 0;
}

/* 0 when a span of that kind can go into t, else -1 (recorded). */
static int check_text(rfd_doc *d, const rfd_text *t, rfd_span_kind kind,
                      int with_target)
{
    if (t == NULL) {
        return fail(d, NO_HANDLE);
    }
    const int needs = kind == RFD_SPAN_LINK || kind == RFD_SPAN_SYMBOL;
    return needs == with_target ? 0
                                : fail(d, "a link or symbol span without "
                                          "its target, or a target on "
                                          "another span");
}

int rfd_text_add(rfd_doc *d, rfd_text *t, rfd_span_kind kind, const char *s)
{
    if (d == NULL || check_text(d, t, kind, 0) != 0) {
        return -1;
    }
    return add_span(d, t, kind, arena_str(d, s), NULL);
}

int rfd_text_addf(rfd_doc *d, rfd_text *t, rfd_span_kind kind, const char *fmt,
                  ...)
{
    if (d == NULL || check_text(d, t, kind, 0) != 0) {
        return -1;
    }
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    const int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    char *s = n >= 0 ? arena_alloc(d, (size_t)n + 1) : NULL;
    if (s != NULL) {
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    }
    va_end(ap);
    if (n < 0) {
        return fail(d, "a span's text could not be formatted");
    }
    return add_span(d, t, kind, s, NULL);
}

int rfd_text_link(rfd_doc *d, rfd_text *t, const char *text, const char *target)
{
    if (d == NULL || check_text(d, t, RFD_SPAN_LINK, 1) != 0) {
        return -1;
    }
    const char *ctarget = arena_str(d, target);
    return ctarget != NULL
               ? add_span(d, t, RFD_SPAN_LINK, arena_str(d, text), ctarget)
               : -1;
}

int rfd_text_symbol(rfd_doc *d, rfd_text *t, const char *utf8,
                    const char *entity)
{
    if (d == NULL || check_text(d, t, RFD_SPAN_SYMBOL, 1) != 0) {
        return -1;
    }
    const char *centity = arena_str(d, entity);
    return centity != NULL
               ? add_span(d, t, RFD_SPAN_SYMBOL, arena_str(d, utf8), centity)
               : -1;
}
