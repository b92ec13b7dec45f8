/*
 * The report document (report_doc.h) as one HTML page with its own style
 * sheet (no files beside it but the images).  Each block ends its last
 * line; numbers right-aligned in a monospace font (td.num), a cell's tip
 * as its tooltip, a glossary folded under <details>.
 */
#include "report_doc.h"

static const char style_sheet[] =
    "body { font-family: sans-serif; max-width: 1000px; margin: 2em "
    "auto; padding: 0 1em; line-height: 1.4; }\n"
    "table { border-collapse: collapse; margin: 1em 0; }\n"
    "th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; }\n"
    "th { background: #f4f4f4; }\n"
    "td.num { text-align: right; font-family: monospace; }\n"
    "td[title] { text-decoration: underline dotted; cursor: help; }\n"
    "pre.error { color: #a00; background: #fff3f3; padding: 0.5em; "
    "white-space: pre-wrap; }\n"
    "pre.note { background: #f7f7f7; padding: 0.5em; white-space: "
    "pre-wrap; }\n"
    "img { max-width: 100%; border: 1px solid #ddd; }\n"
    "dt { font-family: monospace; }\n";

/* Text or an attribute's value: the markup characters as entities. */
static void html_text(FILE *f, const char *s)
{
    for (; *s; ++s) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* s between an opening and a closing tag. */
static void html_tagged(FILE *f, const char *tag, const char *s)
{
    fprintf(f, "<%s>", tag);
    html_text(f, s);
    fprintf(f, "</%s>", tag);
}

static void html_span(FILE *f, const rfd_span *s)
{
    switch (s->kind) {
    case RFD_SPAN_TEXT: html_text(f, s->text); break;
    case RFD_SPAN_RAW: fputs(s->text, f); break;
    case RFD_SPAN_SYMBOL: fprintf(f, "&%s;", s->target); break;
    case RFD_SPAN_CODE: html_tagged(f, "code", s->text); break;
    case RFD_SPAN_STRONG: html_tagged(f, "b", s->text); break;
    case RFD_SPAN_EM: html_tagged(f, "i", s->text); break;
    case RFD_SPAN_LINK:
        fputs("<a href=\"", f);
        html_text(f, s->target);
        fputs("\">", f);
        html_text(f, s->text);
        fputs("</a>", f);
        break;
    }
}

static void html_spans(FILE *f, const rfd_text *t)
{
    for (const rfd_span *s = t->first; s != NULL; s = s->next) {
        html_span(f, s);
    }
}

/* The label in bold and the caption after it. */
static void html_notice_line(FILE *f, const rfd_notice *n)
{
    html_tagged(f, "b", n->label);
    if (n->caption.first != NULL) {
        fputc(' ', f);
        html_spans(f, &n->caption);
    }
}

static void html_pre(FILE *f, const char *cls, const char *s)
{
    fprintf(f, "<pre class=\"%s\">", cls);
    html_text(f, s);
    fputs("</pre>", f);
}

static void html_notice(FILE *f, const rfd_notice *n)
{
    fputs("<p>", f);
    html_notice_line(f, n);
    fputs("</p>\n", f);
    if (n->body != NULL) {
        html_pre(f, "error", n->body);
        fputc('\n', f);
    }
}

static void html_list(FILE *f, const rfd_item *it)
{
    fputs("<ul>\n", f);
    for (; it != NULL; it = it->next) {
        fputs("<li>", f);
        html_spans(f, &it->text);
        if (it->notice != NULL) { /* a line of the item's own */
            fputs("<br>", f);
            html_notice_line(f, it->notice);
            if (it->notice->body != NULL) {
                fputc('\n', f);
                html_pre(f, "error", it->notice->body);
            }
        }
        fputs("</li>\n", f);
    }
    fputs("</ul>\n", f);
}

static void html_table(FILE *f, const rfd_block *b)
{
    const int nc = b->u.table.ncols;
    fputs("<table>\n<tr>", f);
    for (int j = 0; j < nc; ++j) {
        html_tagged(f, "th", b->u.table.head[j]);
    }
    fputs("</tr>\n", f);
    for (const rfd_row *r = b->u.table.first; r != NULL; r = r->next) {
        fputs("<tr>", f);
        for (int j = 0; j < nc; ++j) {
            fputs("<td", f);
            if (b->u.table.align[j] == RFD_ALIGN_RIGHT) {
                fputs(" class=\"num\"", f);
            }
            if (r->cells[j].tip != NULL) {
                fputs(" title=\"", f);
                html_text(f, r->cells[j].tip);
                fputc('"', f);
            }
            fputc('>', f);
            html_spans(f, &r->cells[j].text);
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

/* Folded: the title shows, the terms open on a click; nothing when
   empty. */
static void html_glossary(FILE *f, const rfd_block *b)
{
    if (b->u.glossary.first == NULL) {
        return;
    }
    fputs("<details>", f);
    html_tagged(f, "summary", b->u.glossary.title);
    fputs("\n<dl>\n", f);
    for (const rfd_entry *e = b->u.glossary.first; e != NULL; e = e->next) {
        html_tagged(f, "dt", e->term);
        html_tagged(f, "dd", e->text);
        fputc('\n', f);
    }
    fputs("</dl>\n</details>\n", f);
}

static void html_heading(FILE *f, const rfd_block *b)
{
    fprintf(f, "<h%d", b->u.heading.level);
    if (b->u.heading.id != NULL) {
        fputs(" id=\"", f);
        html_text(f, b->u.heading.id);
        fputc('"', f);
    }
    fputc('>', f);
    html_text(f, b->u.heading.text);
    fprintf(f, "</h%d>\n", b->u.heading.level);
}

static void html_para(FILE *f, const rfd_block *b)
{
    const int small = b->u.para.style == RFD_PARA_SMALL;
    fputs(small ? "<p><small>" : "<p>", f);
    html_spans(f, &b->u.para.text);
    fputs(small ? "</small></p>\n" : "</p>\n", f);
}

static void html_block(FILE *f, const rfd_block *b)
{
    switch (b->kind) {
    case RFD_BLOCK_HEADING: html_heading(f, b); break;
    case RFD_BLOCK_PARA: html_para(f, b); break;
    case RFD_BLOCK_LIST: html_list(f, b->u.list.first); break;
    case RFD_BLOCK_TABLE: html_table(f, b); break;
    case RFD_BLOCK_FIGURE:
        fputs("<p><img src=\"", f);
        html_text(f, b->u.figure.src);
        fputs("\" alt=\"", f);
        html_text(f, b->u.figure.alt);
        fputs("\"></p>\n", f);
        break;
    case RFD_BLOCK_PRE:
        html_pre(f, b->u.pre.tone == RFD_TONE_ERROR ? "error" : "note",
                 b->u.pre.text);
        fputc('\n', f);
        break;
    case RFD_BLOCK_NOTICE: html_notice(f, &b->u.notice); break;
    case RFD_BLOCK_GLOSSARY: html_glossary(f, b); break;
    }
}

int rfd_doc_write_html(const rfd_doc *d, FILE *f)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
          "charset=\"utf-8\">\n",
          f);
    html_tagged(f, "title", rfd_doc_title(d));
    fprintf(f, "\n<style>\n%s</style>\n</head>\n<body>\n", style_sheet);
    for (const rfd_block *b = rfd_doc_first(d); b != NULL; b = b->next) {
        html_block(f, b);
    }
    fputs("</body>\n</html>\n", f);
    return ferror(f) ? -1 : 0;
}
