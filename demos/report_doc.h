/*
 * rfdemo's report as a document model (demos/report_doc.c): a list of
 * blocks (headings, paragraphs, lists, tables, figures, preformatted
 * text, notices, glossaries) of inline spans, built once per report
 * (demos/report.c) and written by two renderers, Markdown
 * (demos/report_md.c) and HTML (demos/report_html.c).  The model says
 * what the report holds; how each format shows it is the renderer's.
 *
 * The document owns its memory (one arena: every block, span and string
 * copied into it) and rfd_doc_free releases all of it.  Building never
 * aborts: a builder call that fails (out of memory, or a misuse such as a
 * cell past the table's columns) returns -1 or NULL and the document
 * keeps the first failure (rfd_doc_status, rfd_doc_error), so that a
 * builder may check once at the end; every call takes the NULL an
 * earlier failed call returned (and fails), and the document stays
 * consistent, only incomplete.
 */
#ifndef RFDEMO_REPORT_DOC_H
#define RFDEMO_REPORT_DOC_H

#include <stdio.h>

/* ---- the model (read by the renderers) ---- */

typedef enum rfd_span_kind {
    RFD_SPAN_TEXT,   /* plain text: each renderer escapes its markup */
    RFD_SPAN_RAW,    /* text with nothing to escape in either format
                        (written as is: '|' stays '|' in Markdown) */
    RFD_SPAN_CODE,   /* a name or command in a fixed-width font */
    RFD_SPAN_STRONG, /* bold */
    RFD_SPAN_EM,     /* italic */
    RFD_SPAN_LINK,   /* text linking to target */
    RFD_SPAN_SYMBOL  /* text: one UTF-8 character; target: its HTML
                        entity's name (HTML writes &target;) */
} rfd_span_kind;

typedef struct rfd_span {
    rfd_span_kind kind;
    const char *text;   /* never NULL */
    const char *target; /* LINK: the address; SYMBOL: the entity; NULL */
    struct rfd_span *next;
} rfd_span;

/* A run of inline spans (a paragraph's, a cell's, an item's). */
typedef struct rfd_text {
    rfd_span *first, *last; /* first NULL: empty */
} rfd_text;

typedef enum rfd_tone {
    RFD_TONE_NOTE, /* a remark (gnuplot's warnings on a drawn plot) */
    RFD_TONE_ERROR /* what went wrong */
} rfd_tone;

/* Something missing or failed: a label ("Plot missing:"), optional
   details after it, and optional error text shown as is. */
typedef struct rfd_notice {
    const char *label;
    rfd_text caption;
    const char *body; /* preformatted, tone error; NULL: none */
} rfd_notice;

typedef struct rfd_item {
    rfd_text text;
    const rfd_notice *notice; /* under the item's text; NULL: none */
    struct rfd_item *next;
} rfd_item;

typedef enum rfd_align { RFD_ALIGN_LEFT, RFD_ALIGN_RIGHT } rfd_align;

typedef struct rfd_cell {
    rfd_text text;
    const char *tip; /* a description the HTML shows on hover; NULL */
} rfd_cell;

typedef struct rfd_row {
    rfd_cell *cells; /* the table's ncols */
    struct rfd_row *next;
} rfd_row;

typedef struct rfd_entry {
    const char *term, *text;
    struct rfd_entry *next;
} rfd_entry;

typedef enum rfd_block_kind {
    RFD_BLOCK_HEADING,
    RFD_BLOCK_PARA,
    RFD_BLOCK_LIST,
    RFD_BLOCK_TABLE,
    RFD_BLOCK_FIGURE,
    RFD_BLOCK_PRE,
    RFD_BLOCK_NOTICE,
    RFD_BLOCK_GLOSSARY
} rfd_block_kind;

typedef enum rfd_para_style {
    RFD_PARA_PLAIN,
    RFD_PARA_SMALL /* fine print (a table's footnote) */
} rfd_para_style;

typedef struct rfd_block {
    rfd_block_kind kind;
    struct rfd_block *next;
    union {
        struct {
            int level;      /* 1 the title, 2 a section, 3 a subsection */
            const char *id; /* the anchor links point at; NULL: none */
            const char *text;
        } heading;
        struct {
            rfd_para_style style;
            rfd_text text;
        } para;
        struct {
            rfd_item *first, *last;
        } list;
        struct {
            int ncols;
            const char **head;      /* ncols column titles */
            const rfd_align *align; /* ncols */
            rfd_row *first, *last;
        } table;
        struct {
            const char *src, *alt; /* an image file, its description */
        } figure;
        struct {
            rfd_tone tone;
            const char *text;
        } pre;
        rfd_notice notice;
        struct { /* terms and their descriptions; may be empty */
            const char *title;
            rfd_entry *first, *last;
        } glossary;
    } u;
} rfd_block;

typedef struct rfd_doc rfd_doc;

const char *rfd_doc_title(const rfd_doc *d); /* the window's title */
const rfd_block *rfd_doc_first(const rfd_doc *d);

/* ---- building ---- */

/* An empty document titled title; NULL when out of memory. */
rfd_doc *rfd_doc_new(const char *title);
/* Releases the document and everything built into it (NULL: nothing). */
void rfd_doc_free(rfd_doc *d);
/* 0 while every builder call succeeded, else -1. */
int rfd_doc_status(const rfd_doc *d);
/* The first failure ("out of memory", or the misuse), NULL: none. */
const char *rfd_doc_error(const rfd_doc *d);

/* Blocks, appended in order.  A NULL string stands for "" except where
   NULL means "none" (id, body, tip). */
int rfd_doc_heading(rfd_doc *d, int level, const char *id, const char *text);
rfd_text *rfd_doc_para(rfd_doc *d, rfd_para_style style);
int rfd_doc_figure(rfd_doc *d, const char *src, const char *alt);
int rfd_doc_pre(rfd_doc *d, rfd_tone tone, const char *text);
/* A notice of its own; returns its caption to fill. */
rfd_text *rfd_doc_notice(rfd_doc *d, const char *label, const char *body);
rfd_block *rfd_doc_list(rfd_doc *d);
/* head and align: ncols entries each (copied). */
rfd_block *rfd_doc_table(rfd_doc *d, int ncols, const char *const *head,
                         const rfd_align *align);
rfd_block *rfd_doc_glossary(rfd_doc *d, const char *title);

/* A new item at the end of list; returns its text to fill. */
rfd_text *rfd_list_item(rfd_doc *d, rfd_block *list);
/* A notice under the list's last item; returns its caption. */
rfd_text *rfd_list_notice(rfd_doc *d, rfd_block *list, const char *label,
                          const char *body);
/* A new row of empty cells at the end of table. */
int rfd_table_row(rfd_doc *d, rfd_block *table);
/* Cell col of the table's last row (tip: its description, or NULL);
   returns its text to fill. */
rfd_text *rfd_table_cell(rfd_doc *d, rfd_block *table, int col,
                         const char *tip);
int rfd_glossary_entry(rfd_doc *d, rfd_block *glossary, const char *term,
                       const char *text);

/* Spans, appended to t.  LINK and SYMBOL need rfd_text_link and
   rfd_text_symbol (they carry a target). */
int rfd_text_add(rfd_doc *d, rfd_text *t, rfd_span_kind kind, const char *s);
int rfd_text_addf(rfd_doc *d, rfd_text *t, rfd_span_kind kind, const char *fmt,
                  ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
int rfd_text_link(rfd_doc *d, rfd_text *t, const char *text,
                  const char *target);
int rfd_text_symbol(rfd_doc *d, rfd_text *t, const char *utf8,
                    const char *entity);

/* ---- the renderers ---- */

/* Write the document to f as Markdown (demos/report_md.c) or as one HTML
   page with its style sheet (demos/report_html.c).  0, or -1 when f
   reports a write error (ferror). */
int rfd_doc_write_md(const rfd_doc *d, FILE *f);
int rfd_doc_write_html(const rfd_doc *d, FILE *f);

#endif /* RFDEMO_REPORT_DOC_H */
