/* The check's findings as data (greenbench/findings.h). */
#include "greenbench/findings.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/text.h"

void gb_findings_init(gb_findings *f, FILE *echo) {
  memset(f, 0, sizeof *f);
  f->echo = echo;
}

void gb_findings_free(gb_findings *f) {
  for (size_t i = 0; i < f->n; i++) {
    free(f->items[i].topic);
    free(f->items[i].text);
  }
  free(f->items);
  memset(f, 0, sizeof *f);
}

void gb_finding_print(const gb_finding *g, FILE *out) {
  char prefix[128];
  snprintf(prefix, sizeof prefix, "%s%s%s", g->detail ? "  " : "", g->topic,
           g->detail ? "" : ": ");
  gb_str_put_line(out, prefix, g->text);
}

static void add(gb_findings *f, gb_finding_status status, bool detail, const char *topic,
                const char *fmt, va_list ap) {
  gb_finding g = {.status = status, .detail = detail, .topic = strdup(topic)};
  if (vasprintf(&g.text, fmt, ap) < 0)
    g.text = NULL;
  if (f->echo && g.topic && g.text)
    gb_finding_print(&g, f->echo);
  if (f->n == f->cap) {
    size_t cap = f->cap ? 2 * f->cap : 32;
    gb_finding *items = realloc(f->items, cap * sizeof *items);
    if (items) {
      f->items = items;
      f->cap = cap;
    }
  }
  if (f->n == f->cap || !g.topic || !g.text) {
    f->failed = true;
    free(g.topic);
    free(g.text);
    return;
  }
  f->items[f->n++] = g;
}

void gb_findings_add(gb_findings *f, gb_finding_status status, const char *topic,
                     const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  add(f, status, false, topic, fmt, ap);
  va_end(ap);
}

void gb_findings_detail(gb_findings *f, gb_finding_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  add(f, status, true, "", fmt, ap);
  va_end(ap);
}

bool gb_findings_any_bad(const gb_findings *f, size_t from) {
  for (size_t i = from; i < f->n; i++)
    if (f->items[i].status == GB_FINDING_BAD)
      return true;
  return false;
}
