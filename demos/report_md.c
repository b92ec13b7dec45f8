/*
 * The report document (report_doc.h) as Markdown (GitHub's dialect:
 * tables, fenced code).  Blocks are separated by one blank line; a fenced
 * block opens with a line break of its own, which ends a notice's line
 * or, after another block, leaves a second blank line (the report's look
 * since its first version, kept so that reports compare byte for byte).
 */
#include "report_doc.h"

#include <string.h>

/* Text: the characters that would start markup escaped, line breaks as
   spaces (a paragraph or a table cell is one line). */
static void md_text(FILE *f, const char *s)
{
    for (; *s; ++s) {
        if (strchr("\\`*[]<|", *s) != NULL) {
            fputc('\\', f);
        }
        fputc(*s == '\n' ? ' ' : *s, f);
    }
}

/* Inside backquotes: a backquote would end the span, so it becomes a
   quote. */
static void md_quoted(FILE *f, const char *s)
{
    for (; *s; ++s) {
        fputc(*s == '`' ? '\'' : *s, f);
    }
}

/* A fenced block, kept as is but for backquotes (which could close the
   fence). */
static void md_fence(FILE *f, const char *s)
{
    fputs("\n```\n", f);
    md_quoted(f, s);
    fputs("\n```\n", f);
}

static void md_span(FILE *f, const rfd_span *s)
{
    switch (s->kind) {
    case RFD_SPAN_TEXT: md_text(f, s->text); break;
    case RFD_SPAN_RAW:
    case RFD_SPAN_SYMBOL: fputs(s->text, f); break;
    case RFD_SPAN_CODE:
        fputc('`', f);
        md_quoted(f, s->text);
        fputc('`', f);
        break;
    case RFD_SPAN_STRONG:
    case RFD_SPAN_EM:
        fputs(s->kind == RFD_SPAN_STRONG ? "**" : "*", f);
        md_text(f, s->text);
        fputs(s->kind == RFD_SPAN_STRONG ? "**" : "*", f);
        break;
    case RFD_SPAN_LINK:
        fputc('[', f);
        md_text(f, s->text);
        fprintf(f, "](%s)", s->target);
        break;
    }
}

static void md_spans(FILE *f, const rfd_text *t)
{
    for (const rfd_span *s = t->first; s != NULL; s = s->next) {
        md_span(f, s);
    }
}

/* The label and caption of a notice ("label caption"). */
static void md_notice_line(FILE *f, const rfd_notice *n, const char *mark)
{
    fputs(mark, f);
    md_text(f, n->label);
    fputs(mark, f);
    if (n->caption.first != NULL) {
        fputc(' ', f);
        md_spans(f, &n->caption);
    }
}

/* A notice of its own: the label in italics, the error text fenced right
   under its line. */
static void md_notice(FILE *f, const rfd_notice *n)
{
    md_notice_line(f, n, "*");
    if (n->body != NULL) {
        md_fence(f, n->body);
    } else {
        fputc('\n', f);
    }
}

/* A notice under a list item: a paragraph of the item (indented), its
   label in bold; a blank line closes the item's blocks. */
static void md_item_notice(FILE *f, const rfd_notice *n)
{
    fputs("\n  ", f);
    md_notice_line(f, n, "**");
    fputc('\n', f);
    if (n->body != NULL) {
        md_fence(f, n->body);
    }
    fputc('\n', f);
}

static void md_list(FILE *f, const rfd_item *it)
{
    for (; it != NULL; it = it->next) {
        fputs("* ", f);
        md_spans(f, &it->text);
        fputc('\n', f);
        if (it->notice != NULL) {
            md_item_notice(f, it->notice);
        }
    }
}

static void md_table(FILE *f, const rfd_block *b)
{
    const int nc = b->u.table.ncols;
    fputc('|', f);
    for (int j = 0; j < nc; ++j) {
        fputc(' ', f);
        md_text(f, b->u.table.head[j]);
        fputs(" |", f);
    }
    fputs("\n|", f);
    for (int j = 0; j < nc; ++j) {
        fputs(b->u.table.align[j] == RFD_ALIGN_RIGHT ? " ---: |" : " --- |", f);
    }
    fputc('\n', f);
    for (const rfd_row *r = b->u.table.first; r != NULL; r = r->next) {
        fputc('|', f);
        for (int j = 0; j < nc; ++j) {
            fputc(' ', f); /* tips are for the HTML's tooltips only */
            md_spans(f, &r->cells[j].text);
            fputs(" |", f);
        }
        fputc('\n', f);
    }
}

/* "Title:" and a bulleted list of `term`: text; nothing when empty. */
static void md_glossary(FILE *f, const rfd_block *b)
{
    if (b->u.glossary.first == NULL) {
        return;
    }
    md_text(f, b->u.glossary.title);
    fputs(":\n\n", f);
    for (const rfd_entry *e = b->u.glossary.first; e != NULL; e = e->next) {
        fputs("* `", f);
        md_quoted(f, e->term);
        fputs("`: ", f);
        md_text(f, e->text);
        fputc('\n', f);
    }
}

/* A heading; one with an id gets an HTML anchor of its own (Markdown
   headings have no ids). */
static void md_heading(FILE *f, const rfd_block *b)
{
    if (b->u.heading.id != NULL) {
        fprintf(f, "<a id=\"%s\"></a>\n\n", b->u.heading.id);
    }
    for (int i = 0; i < b->u.heading.level; ++i) {
        fputc('#', f);
    }
    fputc(' ', f);
    md_text(f, b->u.heading.text);
    fputc('\n', f);
}

static void md_block(FILE *f, const rfd_block *b)
{
    switch (b->kind) {
    case RFD_BLOCK_HEADING: md_heading(f, b); break;
    case RFD_BLOCK_PARA: /* fine print has no Markdown of its own */
        md_spans(f, &b->u.para.text);
        fputc('\n', f);
        break;
    case RFD_BLOCK_LIST: md_list(f, b->u.list.first); break;
    case RFD_BLOCK_TABLE: md_table(f, b); break;
    case RFD_BLOCK_FIGURE:
        fputs("![", f);
        md_text(f, b->u.figure.alt);
        fprintf(f, "](%s)\n", b->u.figure.src);
        break;
    case RFD_BLOCK_PRE: md_fence(f, b->u.pre.text); break;
    case RFD_BLOCK_NOTICE: md_notice(f, &b->u.notice); break;
    case RFD_BLOCK_GLOSSARY: md_glossary(f, b); break;
    }
}

int rfd_doc_write_md(const rfd_doc *d, FILE *f)
{
    for (const rfd_block *b = rfd_doc_first(d); b != NULL; b = b->next) {
        if (b != rfd_doc_first(d)) {
            fputc('\n', f);
        }
        md_block(f, b);
    }
    return ferror(f) ? -1 : 0;
}
