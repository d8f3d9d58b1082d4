/* The chart, as SVG written by hand. A log-log scatter plot with a legend
 * is a few hundred lines of coordinates and text; a plotting library would
 * add a dependency (and its version's rendering) to a report that must be
 * byte-identical for the same records, and none of the C ones fits better.
 * Coordinates are printed with two decimals in the "C" locale. */
#include "stats_internal.h"

#include "textbuf.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define WIDTH 960
#define FONT "font-family=\"sans-serif\""

static const char *const language_colour[GB_LANGUAGE_COUNT] = {"#1f5fa8", "#d95f02", "#1b9e77"};
static const char *const algorithm_dash[GB_ALGORITHM_COUNT] = {"", "7,4", "2,3"};

/* A log10 axis from 10^lo to 10^hi onto pixels p0 to p1. */
typedef struct {
  double lo, hi, p0, p1;
} axis;

static double ax(const axis *a, double v) {
  return a->p0 + (log10(v) - a->lo) / (a->hi - a->lo) * (a->p1 - a->p0);
}

/* Whole decades around [min, max] (both > 0). */
static void decades(double min, double max, double *lo, double *hi) {
  *lo = floor(log10(min));
  *hi = ceil(log10(max));
  if (*hi <= *lo) {
    *hi = *lo + 1.0;
  }
}

/* "100 µs", "1 mJ": 10^e of the base unit with an SI prefix. */
static void si_label(char *buf, size_t len, int e, const char *unit) {
  static const char *const prefix[] = {"p", "n", "µ", "m", "", "k", "M"};
  int p = (int)floor(e / 3.0);
  p = p < -4 ? -4 : p > 2 ? 2 : p;
  double mant = pow(10.0, e - 3 * p);
  snprintf(buf, len, "%.0f %s%s", mant, prefix[p + 4], unit);
}

static void text(gbi_textbuf *b, double x, double y, const char *anchor, int size,
                 const char *extra, const char *s) {
  gbi_tb_printf(b, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\" font-size=\"%d\" %s%s>", x,
                y, anchor, size, FONT, extra);
  for (; *s; s++) {
    const char *e = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : NULL;
    if (e) {
      gbi_tb_puts(b, e);
    } else {
      gbi_tb_putn(b, s, 1);
    }
  }
  gbi_tb_puts(b, "</text>\n");
}

static void line(gbi_textbuf *b, double x1, double y1, double x2, double y2,
                 const char *style) {
  gbi_tb_printf(b, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" %s/>\n", x1, y1, x2,
                y2, style);
}

/* Decade ticks, grid lines and labels of a log axis. */
static void x_ticks(gbi_textbuf *b, const axis *x, const axis *y, const char *unit) {
  char label[32];
  for (int e = (int)x->lo; e <= (int)x->hi; e++) {
    double px = ax(x, pow(10.0, e));
    line(b, px, y->p0, px, y->p1, "stroke=\"#e4e4e4\"");
    line(b, px, y->p0, px, y->p0 + 5, "stroke=\"#333\"");
    si_label(label, sizeof label, e, unit);
    text(b, px, y->p0 + 19, "middle", 12, "", label);
  }
}

static void y_ticks(gbi_textbuf *b, const axis *x, const axis *y, const char *unit) {
  char label[32];
  for (int e = (int)y->lo; e <= (int)y->hi; e++) {
    double py = ax(y, pow(10.0, e));
    line(b, x->p0, py, x->p1, py, "stroke=\"#e4e4e4\"");
    line(b, x->p0 - 5, py, x->p0, py, "stroke=\"#333\"");
    si_label(label, sizeof label, e, unit);
    text(b, x->p0 - 8, py + 4, "end", 12, "", label);
  }
}

static void frame(gbi_textbuf *b, const axis *x, const axis *y) {
  gbi_tb_printf(b,
                "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"none\" "
                "stroke=\"#333\"/>\n",
                x->p0, y->p1, x->p1 - x->p0, y->p0 - y->p1);
}

/* A mark: circle (bubble), square (insertion) or triangle (quick). */
static void mark(gbi_textbuf *b, gb_algorithm g, double px, double py, const char *colour) {
  if (g == GB_BUBBLE) {
    gbi_tb_printf(b, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4.5\" fill=\"%s\"/>\n", px, py,
                  colour);
  } else if (g == GB_INSERTION) {
    gbi_tb_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"8\" height=\"8\" fill=\"%s\"/>\n",
                  px - 4, py - 4, colour);
  } else {
    gbi_tb_printf(b, "<polygon points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f\" fill=\"%s\"/>\n", px,
                  py - 5.5, px - 5, py + 4, px + 5, py + 4, colour);
  }
}

static void header(gbi_textbuf *b, int height, const char *title, const char *subtitle) {
  gbi_tb_printf(b,
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                "viewBox=\"0 0 %d %d\">\n"
                "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
                WIDTH, height, WIDTH, height);
  text(b, WIDTH / 2.0, 28, "middle", 18, " font-weight=\"bold\"", title);
  text(b, WIDTH / 2.0, 48, "middle", 13, " fill=\"#444\"", subtitle);
}

/* Legend at the scatter's right: the languages (colours) and algorithms
 * (marks). */
static void legend(gbi_textbuf *b, const gb_meta *m, double x, double y) {
  text(b, x, y, "start", 13, " font-weight=\"bold\"", "Language");
  for (gb_language l = 0; gb_bits_next(m->settings.languages, &l); l++) {
    y += 20;
    gbi_tb_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"14\" height=\"10\" fill=\"%s\"/>\n",
                  x, y - 9, language_colour[l]);
    text(b, x + 20, y, "start", 12, "", gb_language_title(l));
  }
  y += 30;
  text(b, x, y, "start", 13, " font-weight=\"bold\"", "Algorithm");
  for (gb_algorithm g = 0; g < GB_ALGORITHM_COUNT; g++) {
    if (!gb_meta_has_algorithm(m, g)) {
      continue;
    }
    y += 20;
    mark(b, g, x + 12, y - 4, "#333");
    text(b, x + 30, y, "start", 12, "", gb_algorithm_name(g));
  }
}

/* ---- What could not be drawn -------------------------------------------------- */

/* Why a configuration, or part of it, is missing from the chart. A log axis
 * has no place for zero or below: a per-sort figure is there when the
 * startup cost subtracted is as large as the sort itself. */
typedef enum {
  UNDRAWN_UNMEASURED,
  UNDRAWN_NO_ENERGY,
  UNDRAWN_TIME,
  UNDRAWN_ENERGY,
  UNDRAWN_INTERVAL,
  UNDRAWN_COUNT
} undrawn_why;

/* The configurations of each reason, as a comma-separated list. */
typedef struct {
  gbi_textbuf list[UNDRAWN_COUNT];
  size_t n[UNDRAWN_COUNT];
  const char *interval_drawn; /* how the chart draws an interval reaching 0 */
} undrawn;

static const char *const undrawn_text[UNDRAWN_COUNT] = {
    "not measured (no ok run, or no startup cost to subtract)",
    "no energy reading",
    "median time per sort at or below 0 (the startup subtracted is as large as the sort), no "
    "mark",
    "median energy per sort at or below 0 (the startup subtracted is as large as the sort), no "
    "mark",
    "95% interval reaching 0 or below",
};

static void undrawn_init(undrawn *u, const char *interval_drawn) {
  *u = (undrawn){.interval_drawn = interval_drawn};
  for (int w = 0; w < UNDRAWN_COUNT; w++) {
    gbi_tb_init(&u->list[w]);
  }
}

static void undrawn_add(undrawn *u, undrawn_why w, const gb_an_config *c) {
  char label[96];
  gb_an_config_label(c, label, sizeof label);
  gbi_tb_printf(&u->list[w], "%s%s", u->n[w] ? ", " : "", label);
  u->n[w]++;
}

/* The note: a heading, then one line per reason, "- <why> (n): a, b.",
 * into out; nothing when every point is drawn. Frees u's lists. A failed
 * list makes out fail too, so the chart reports -ENOMEM. */
static void undrawn_note(undrawn *u, gbi_textbuf *out) {
  for (int w = 0; w < UNDRAWN_COUNT; w++) {
    if (u->list[w].failed) {
      out->failed = true;
    }
    if (u->n[w] > 0 && !out->failed) {
      if (out->len == 0) {
        gbi_tb_puts(out, "Not on the chart, or not whole (a log axis has no place for 0 or "
                         "below):");
      }
      gbi_tb_printf(out, "\n- %s", undrawn_text[w]);
      if (w == UNDRAWN_INTERVAL) {
        gbi_tb_printf(out, ", %s", u->interval_drawn);
      }
      gbi_tb_printf(out, " (%zu): %s.", u->n[w], u->list[w].data);
    }
    gbi_tb_free(&u->list[w]);
  }
}

#define NOTE_COLS 140 /* characters of a note line at 11 px within the width */
#define NOTE_LINE 15  /* pixels from one note line to the next */

/* Length of the next line of s: up to its newline or NOTE_COLS bytes,
 * broken after the last space that fits (the labels and reasons are ASCII). */
static size_t wrap_next(const char *s) {
  size_t n = strcspn(s, "\n");
  if (n <= NOTE_COLS) {
    return n;
  }
  size_t cut = NOTE_COLS;
  while (cut > 0 && s[cut] != ' ') {
    cut--;
  }
  return cut > 0 ? cut : NOTE_COLS;
}

static size_t note_lines(const char *s) {
  size_t lines = 0;
  while (s && *s) {
    s += wrap_next(s);
    s += *s == ' ' || *s == '\n';
    lines++;
  }
  return lines;
}

/* The note, wrapped, its first baseline at y; a continued line is
 * indented under its reason. */
static void note(gbi_textbuf *b, double x, double y, const char *s) {
  char line[NOTE_COLS + 1];
  bool continued = false;
  while (s && *s) {
    size_t n = wrap_next(s);
    memcpy(line, s, n);
    line[n] = '\0';
    text(b, continued ? x + 10 : x, y, "start", 11, " fill=\"#555\"", line);
    s += n;
    continued = *s == ' ';
    s += *s == ' ' || *s == '\n';
    y += NOTE_LINE;
  }
}

/* A chart with nothing to plot, saying why, with the note below. */
static void empty_chart(gbi_textbuf *b, const char *subtitle, const char *why) {
  header(b, 110 + (int)note_lines(why) * NOTE_LINE, "greenbench", subtitle);
  note(b, 40, 90, why);
  gbi_tb_puts(b, "</svg>\n");
}

/* A chart's start: the note on what it cannot show whole (collect sorts the
 * configurations) into why, a failed note failing b, and whether there is
 * anything to plot (plotted > 0). When there is not, the chart is the empty
 * one saying `nothing`, and why is freed. */
static bool chart_start(gbi_textbuf *b, gbi_textbuf *why, const gb_analysis *a,
                        void (*collect)(const gb_analysis *, undrawn *), size_t plotted,
                        const char *nothing) {
  undrawn u;
  collect(a, &u);
  gbi_tb_init(why);
  undrawn_note(&u, why);
  b->failed |= why->failed;
  if (plotted > 0) {
    return true;
  }
  empty_chart(b, nothing, why->data);
  gbi_tb_free(why);
  return false;
}

/* A chart's end: the note, its first baseline at y, and the closing tag. */
static void chart_end(gbi_textbuf *b, gbi_textbuf *why, double y) {
  note(b, 40, y, why->data);
  gbi_tb_free(why);
  gbi_tb_puts(b, "</svg>\n");
}

/* ---- Energy against time ---------------------------------------------------- */

static bool plottable(const gb_an_config *c) {
  return c->measured && c->boot.est[GB_EST_ENERGY_PER_SORT].available &&
         c->boot.est[GB_EST_TIME_PER_SORT].point > 0.0 &&
         c->boot.est[GB_EST_ENERGY_PER_SORT].point > 0.0;
}

/* Seconds and joules of a configuration's medians (or interval ends). */
static double secs(double ns) {
  return ns * 1e-9;
}

static double joules(double uj) {
  return uj * 1e-6;
}

static size_t scatter_range(const gb_analysis *a, double r[4]) {
  size_t n = 0;
  r[0] = r[2] = INFINITY;
  r[1] = r[3] = 0.0;
  for (size_t i = 0; i < a->n_configs; i++) {
    const gb_an_config *c = &a->configs[i];
    if (!plottable(c)) {
      continue;
    }
    const gb_interval *t = &c->boot.est[GB_EST_TIME_PER_SORT];
    const gb_interval *e = &c->boot.est[GB_EST_ENERGY_PER_SORT];
    double tv[2] = {t->lo > 0 ? t->lo : t->point, t->hi};
    double ev[2] = {e->lo > 0 ? e->lo : e->point, e->hi};
    r[0] = fmin(r[0], secs(tv[0]));
    r[1] = fmax(r[1], secs(tv[1]));
    r[2] = fmin(r[2], joules(ev[0]));
    r[3] = fmax(r[3], joules(ev[1]));
    n++;
  }
  return n;
}

/* "20 W", "500 mW": a value with an SI prefix (1-2-5 steps need no more
 * than one significant digit). */
static void si_value(char *buf, size_t len, double v, const char *unit) {
  static const char *const prefix[] = {"p", "n", "µ", "m", "", "k", "M"};
  int p = (int)floor(log10(v) / 3.0 + 1e-9);
  p = p < -4 ? -4 : p > 2 ? 2 : p;
  snprintf(buf, len, "%.3g %s%s", v / pow(10.0, 3 * p), prefix[p + 4], unit);
}

/* Net powers of the plotted marks, lowest and highest. */
static void power_range(const gb_analysis *a, double *lo, double *hi) {
  *lo = INFINITY;
  *hi = 0.0;
  for (size_t i = 0; i < a->n_configs; i++) {
    const gb_an_config *c = &a->configs[i];
    double w = c->boot.est[GB_EST_NET_POWER].point;
    if (plottable(c) && w > 0.0) {
      *lo = fmin(*lo, w);
      *hi = fmax(*hi, w);
    }
  }
}

/* The part of E = w t inside the plot, as log10 t from *a to *b; false
 * when the line misses the plot. */
static bool visible(const axis *x, const axis *y, double w, double *a, double *b) {
  double lw = log10(w);
  *a = fmax(x->lo, y->lo - lw);
  *b = fmin(x->hi, y->hi - lw);
  return *b - *a > 0.05 * (x->hi - x->lo);
}

/* The label runs along its line near the line's upper end, so the labels
 * of close lines (10 W and 20 W) sit side by side instead of on top of
 * each other. */
static void power_label(gbi_textbuf *b, const axis *x, const axis *y, double w, double lt) {
  char label[32];
  double t = pow(10.0, lt), px = ax(x, t), py = ax(y, w * t);
  double dx = ax(x, t * 10.0) - px, dy = ax(y, w * t * 10.0) - py;
  double deg = atan2(dy, dx) * 180.0 / 3.14159265358979323846;
  si_value(label, sizeof label, w, "W");
  gbi_tb_printf(b,
                "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\" font-size=\"11\" " FONT
                " fill=\"#555\" stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\" "
                "transform=\"rotate(%.2f %.2f %.2f)\">%s</text>\n",
                px, py - 4, deg, px, py, label);
}

/* Dashed lines E = w t at 1-2-5 steps of w from a third of the lowest net
 * power to three times the highest: near the marks, where a reader
 * compares them. */
static void power_lines(gbi_textbuf *b, const gb_analysis *a, const axis *x, const axis *y) {
  double lo, hi;
  power_range(a, &lo, &hi);
  if (!(hi > 0.0)) {
    return;
  }
  static const double steps[3] = {1.0, 2.0, 5.0};
  for (int k = (int)floor(log10(lo / 3.0)); k <= (int)ceil(log10(hi * 3.0)); k++) {
    for (int m = 0; m < 3; m++) {
      double w = steps[m] * pow(10.0, k), t0, t1;
      if (w < lo / 3.0 || w > hi * 3.0 || !visible(x, y, w, &t0, &t1)) {
        continue;
      }
      line(b, ax(x, pow(10.0, t0)), ax(y, w * pow(10.0, t0)), ax(x, pow(10.0, t1)),
           ax(y, w * pow(10.0, t1)), "stroke=\"#888\" stroke-dasharray=\"6,4\"");
      power_label(b, x, y, w, t1 - 0.03 * (t1 - t0));
    }
  }
}

static void whiskers(gbi_textbuf *b, const axis *x, const axis *y, const gb_an_config *c) {
  const gb_interval *t = &c->boot.est[GB_EST_TIME_PER_SORT];
  const gb_interval *e = &c->boot.est[GB_EST_ENERGY_PER_SORT];
  double px = ax(x, secs(t->point)), py = ax(y, joules(e->point));
  char style[96];
  snprintf(style, sizeof style, "stroke=\"%s\" stroke-opacity=\"0.6\"",
           language_colour[c->language]);
  double tlo = t->lo > 0 ? ax(x, secs(t->lo)) : x->p0,
         elo = e->lo > 0 ? ax(y, joules(e->lo)) : y->p0;
  if (t->hi > 0) {
    line(b, tlo, py, ax(x, secs(t->hi)), py, style);
  }
  if (e->hi > 0) {
    line(b, px, elo, px, ax(y, joules(e->hi)), style);
  }
}

/* Starts u and sorts into it each configuration the scatter cannot show
 * whole. */
static void scatter_undrawn(const gb_analysis *a, undrawn *u) {
  undrawn_init(u, "its whisker drawn to the plot's edge");
  for (size_t i = 0; i < a->n_configs; i++) {
    const gb_an_config *c = &a->configs[i];
    const gb_interval *t = &c->boot.est[GB_EST_TIME_PER_SORT];
    const gb_interval *e = &c->boot.est[GB_EST_ENERGY_PER_SORT];
    if (!c->measured) {
      undrawn_add(u, UNDRAWN_UNMEASURED, c);
    } else if (!e->available) {
      undrawn_add(u, UNDRAWN_NO_ENERGY, c);
    } else if (plottable(c)) {
      if (!(t->lo > 0) || !(e->lo > 0)) {
        undrawn_add(u, UNDRAWN_INTERVAL, c);
      }
    } else {
      if (!(t->point > 0)) {
        undrawn_add(u, UNDRAWN_TIME, c);
      }
      if (!(e->point > 0)) {
        undrawn_add(u, UNDRAWN_ENERGY, c);
      }
    }
  }
}

static void scatter_body(gbi_textbuf *b, const gb_analysis *a, const double r[4]) {
  axis x = {.p0 = 100, .p1 = 760}, y = {.p0 = 600, .p1 = 80};
  decades(r[0] / 1.3, r[1] * 1.3, &x.lo, &x.hi); /* no mark on the frame */
  decades(r[2] / 1.3, r[3] * 1.3, &y.lo, &y.hi);
  x_ticks(b, &x, &y, "s");
  y_ticks(b, &x, &y, "J");
  power_lines(b, a, &x, &y);
  for (size_t i = 0; i < a->n_configs; i++) {
    const gb_an_config *c = &a->configs[i];
    if (plottable(c)) {
      whiskers(b, &x, &y, c);
      mark(b, c->algorithm, ax(&x, secs(c->boot.est[GB_EST_TIME_PER_SORT].point)),
           ax(&y, joules(c->boot.est[GB_EST_ENERGY_PER_SORT].point)),
           language_colour[c->language]);
    }
  }
  frame(b, &x, &y);
  text(b, (x.p0 + x.p1) / 2, 652, "middle", 14, "", "Time per sort (log scale)");
  gbi_tb_printf(b,
                "<text x=\"24\" y=\"%.2f\" text-anchor=\"middle\" font-size=\"14\" " FONT
                " transform=\"rotate(-90 24 %.2f)\">Energy per sort, net of idle (log "
                "scale)</text>\n",
                (y.p0 + y.p1) / 2, (y.p0 + y.p1) / 2);
  legend(b, &a->records->meta, 790, 100);
}

static void scatter(gbi_textbuf *b, const gb_analysis *a) {
  gbi_textbuf why;
  double r[4];
  if (!chart_start(b, &why, a, scatter_undrawn, scatter_range(a, r),
                   "No configuration has a median time and energy per sort above 0: nothing "
                   "to plot")) {
    return;
  }
  header(b, 680 + (int)note_lines(why.data) * NOTE_LINE,
         "Energy per sort against time per sort",
         "Medians with 95% intervals, one mark per configuration; dashed lines: constant net "
         "power above idle (E = P t)");
  scatter_body(b, a, r);
  chart_end(b, &why, 690);
}

/* ---- Time against size (energy pending) ------------------------------------------ */

/* The time chart's layout: a legend row under the title, then two columns
 * of panels across the whole width. */
#define T_LEGEND_Y 76
#define T_TOP 116
#define T_LEFT 90
#define T_PANEL_W 370
#define T_COLUMN 470 /* from one column's left edge to the next's */
#define T_PANEL_H 250
#define T_ROW 330   /* from one row's top to the next's */
#define T_DODGE 3.5 /* pixels between the series at one size, so bars stay apart */

static bool time_plottable(const gb_an_config *c) {
  return c->measured && c->boot.est[GB_EST_TIME_PER_SORT].point > 0.0;
}

/* Sizes and the times to show: medians above 0 and the interval ends above
 * 0, but no lower than a decade under the lowest median (a longer bar is
 * cut at the edge, with an arrow). */
static size_t time_range(const gb_analysis *a, double r[4]) {
  size_t n = 0;
  double low_end = INFINITY;
  r[0] = r[2] = INFINITY;
  r[1] = r[3] = 0.0;
  for (size_t i = 0; i < a->n_configs; i++) {
    const gb_an_config *c = &a->configs[i];
    if (!time_plottable(c)) {
      continue;
    }
    const gb_interval *t = &c->boot.est[GB_EST_TIME_PER_SORT];
    r[0] = fmin(r[0], (double)c->size);
    r[1] = fmax(r[1], (double)c->size);
    r[2] = fmin(r[2], secs(t->point));
    r[3] = fmax(r[3], secs(t->point));
    if (t->lo > 0) {
      low_end = fmin(low_end, secs(t->lo));
    }
    if (t->hi > 0 && isfinite(t->hi)) {
      r[3] = fmax(r[3], secs(t->hi));
    }
    n++;
  }
  r[2] = fmax(fmin(r[2], low_end), r[2] / 10.0);
  return n;
}

/* Starts u and sorts into it each configuration the time chart cannot show
 * whole. */
static void time_undrawn(const gb_analysis *a, undrawn *u) {
  undrawn_init(u, "its bar drawn to the panel's lower edge with an arrow");
  for (size_t i = 0; i < a->n_configs; i++) {
    const gb_an_config *c = &a->configs[i];
    if (!c->measured) {
      undrawn_add(u, UNDRAWN_UNMEASURED, c);
    } else if (!time_plottable(c)) {
      undrawn_add(u, UNDRAWN_TIME, c);
    } else if (!(c->boot.est[GB_EST_TIME_PER_SORT].lo > 0)) {
      undrawn_add(u, UNDRAWN_INTERVAL, c);
    }
  }
}

/* Ticks at the sizes themselves: the study's sizes span less than a decade. */
static void size_ticks(gbi_textbuf *b, const gb_meta *m, const axis *x, const axis *y) {
  char label[32];
  for (size_t z = 0; z < m->settings.nsizes; z++) {
    double px = ax(x, (double)m->settings.sizes[z]);
    line(b, px, y->p0, px, y->p1, "stroke=\"#e4e4e4\"");
    line(b, px, y->p0, px, y->p0 + 5, "stroke=\"#333\"");
    snprintf(label, sizeof label, "%" PRIu64, m->settings.sizes[z]);
    text(b, px, y->p0 + 18, "middle", 11, "", label);
  }
}

/* One series of a panel: its language, algorithm and order, and how far
 * its marks sit beside the size (T_DODGE steps, centred). */
typedef struct {
  const gb_analysis *a;
  const axis *x, *y;
  gb_language l;
  gb_algorithm g;
  gb_order o;
  double dx;
} series_at;

static double series_x(const series_at *s, const gb_an_config *c) {
  return ax(s->x, (double)c->size) + s->dx;
}

/* A 95% interval as a bar with caps. An end below the axis (0 or less, or
 * under the lowest decade) is drawn to the panel's edge with an arrow. */
static void time_bar(gbi_textbuf *b, const series_at *s, const gb_an_config *c) {
  const gb_interval *t = &c->boot.est[GB_EST_TIME_PER_SORT];
  if (!(t->hi > 0) || !isfinite(t->hi)) {
    return;
  }
  double px = series_x(s, c), top = fmax(ax(s->y, secs(t->hi)), s->y->p1);
  bool cut = !(t->lo > 0) || ax(s->y, secs(t->lo)) > s->y->p0;
  double bottom = cut ? s->y->p0 : ax(s->y, secs(t->lo));
  if (top >= s->y->p0) {
    return;
  }
  char style[96];
  snprintf(style, sizeof style, "stroke=\"%s\" stroke-width=\"1.2\" stroke-opacity=\"0.7\"",
           language_colour[s->l]);
  line(b, px, top, px, bottom, style);
  line(b, px - 3, top, px + 3, top, style);
  if (cut) {
    gbi_tb_printf(b, "<path fill=\"none\" d=\"M%.2f,%.2f L%.2f,%.2f L%.2f,%.2f\" %s/>\n",
                  px - 3, bottom - 5, px, bottom, px + 3, bottom - 5, style);
  } else {
    line(b, px - 3, bottom, px + 3, bottom, style);
  }
}

/* The points of one unbroken run of the line: two or more make a line. */
typedef struct {
  double px[GB_MAX_SIZES], py[GB_MAX_SIZES];
  size_t n;
} run_points;

static void flush_run(gbi_textbuf *b, const series_at *s, run_points *p) {
  if (p->n >= 2) {
    gbi_tb_puts(b, "<polyline fill=\"none\" points=\"");
    for (size_t i = 0; i < p->n; i++) {
      gbi_tb_printf(b, "%s%.2f,%.2f", i ? " " : "", p->px[i], p->py[i]);
    }
    gbi_tb_printf(b, "\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"%s\"/>\n",
                  language_colour[s->l], algorithm_dash[s->g]);
  }
  p->n = 0;
}

/* The line breaks at a measured configuration without a median above 0,
 * never joining its neighbours across it; an omitted size is no point. */
static void series_line(gbi_textbuf *b, const series_at *s) {
  const gb_settings *m = &s->a->records->meta.settings;
  run_points p = {.n = 0};
  for (size_t z = 0; z < m->nsizes; z++) {
    const gb_an_config *c = gb_analysis_find(s->a, s->l, s->g, s->o, m->sizes[z]);
    if (!c) {
      continue;
    }
    if (!time_plottable(c)) {
      flush_run(b, s, &p);
      continue;
    }
    p.px[p.n] = series_x(s, c);
    p.py[p.n] = ax(s->y, secs(c->boot.est[GB_EST_TIME_PER_SORT].point));
    p.n++;
  }
  flush_run(b, s, &p);
}

static void series(gbi_textbuf *b, const series_at *s) {
  const gb_settings *m = &s->a->records->meta.settings;
  for (size_t z = 0; z < m->nsizes; z++) {
    const gb_an_config *c = gb_analysis_find(s->a, s->l, s->g, s->o, m->sizes[z]);
    if (c && c->measured) {
      time_bar(b, s, c);
    }
  }
  series_line(b, s);
  for (size_t z = 0; z < m->nsizes; z++) {
    const gb_an_config *c = gb_analysis_find(s->a, s->l, s->g, s->o, m->sizes[z]);
    if (c && time_plottable(c)) {
      mark(b, s->g, series_x(s, c), ax(s->y, secs(c->boot.est[GB_EST_TIME_PER_SORT].point)),
           language_colour[s->l]);
    }
  }
}

static void panel(gbi_textbuf *b, const gb_analysis *a, const axis *x, const axis *y,
                  gb_order o) {
  const gb_meta *m = &a->records->meta;
  size_ticks(b, m, x, y);
  y_ticks(b, x, y, "s");
  size_t n = 0, k = 0;
  for (gb_algorithm g = 0; g < GB_ALGORITHM_COUNT; g++) {
    n += gb_meta_has_algorithm(m, g) ? gb_bits_count(m->settings.languages) : 0;
  }
  for (gb_language l = 0; gb_bits_next(m->settings.languages, &l); l++) {
    for (gb_algorithm g = 0; g < GB_ALGORITHM_COUNT; g++) {
      if (!gb_meta_has_algorithm(m, g)) {
        continue;
      }
      series_at s = {.a = a,
                     .x = x,
                     .y = y,
                     .l = l,
                     .g = g,
                     .o = o,
                     .dx = ((double)k++ - (double)(n - 1) / 2.0) * T_DODGE};
      series(b, &s);
    }
  }
  frame(b, x, y);
  char title[64];
  snprintf(title, sizeof title, "%s input",
           o == GB_NEARLY ? "nearly sorted" : gb_order_name(o));
  text(b, (x->p0 + x->p1) / 2, y->p1 - 8, "middle", 13, " font-weight=\"bold\"", title);
  text(b, (x->p0 + x->p1) / 2, y->p0 + 36, "middle", 12, "",
       "Input size (elements, log scale)");
}

/* Rough width of s at font size px (sans-serif averages 0.6 em per
 * character), for laying out a row of legend entries. */
static double text_width(const char *s, int px) {
  return 0.6 * px * (double)strlen(s);
}

/* The legend in one row under the title, so the panels take the width:
 * languages (colours), algorithms (line and mark), the interval bar. */
static void legend_row(gbi_textbuf *b, const gb_meta *m, double x, double y) {
  text(b, x, y, "start", 13, " font-weight=\"bold\"", "Language");
  x += text_width("Language", 13) + 14;
  for (gb_language l = 0; gb_bits_next(m->settings.languages, &l); l++) {
    gbi_tb_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"14\" height=\"10\" fill=\"%s\"/>\n",
                  x, y - 9, language_colour[l]);
    text(b, x + 20, y, "start", 12, "", gb_language_title(l));
    x += 20 + text_width(gb_language_title(l), 12) + 16;
  }
  x += 20;
  text(b, x, y, "start", 13, " font-weight=\"bold\"", "Algorithm");
  x += text_width("Algorithm", 13) + 14;
  for (gb_algorithm g = 0; g < GB_ALGORITHM_COUNT; g++) {
    if (!gb_meta_has_algorithm(m, g)) {
      continue;
    }
    char style[64];
    snprintf(style, sizeof style, "stroke=\"#333\" stroke-width=\"2\" stroke-dasharray=\"%s\"",
             algorithm_dash[g]);
    line(b, x, y - 4, x + 24, y - 4, style);
    mark(b, g, x + 12, y - 4, "#333");
    const char *name = gb_algorithm_name(g);
    text(b, x + 30, y, "start", 12, "", name);
    x += 30 + text_width(name, 12) + 16;
  }
  x += 20;
  const char *bar = "stroke=\"#333\" stroke-width=\"1.2\"";
  line(b, x + 4, y - 12, x + 4, y + 3, bar);
  line(b, x + 1, y - 12, x + 7, y - 12, bar);
  line(b, x + 1, y + 3, x + 7, y + 3, bar);
  text(b, x + 14, y, "start", 12, "", "95% interval");
}

static void time_panels(gbi_textbuf *b, const gb_analysis *a, const double r[4]) {
  const gb_settings *s = &a->records->meta.settings;
  double xlo = log10(r[0]) - 0.1, xhi = log10(r[1]) + 0.1, ylo, yhi;
  decades(r[2] / 1.3, r[3] * 1.3, &ylo, &yhi);
  size_t i = 0;
  for (gb_order o = 0; gb_bits_next(s->orders, &o); o++, i++) {
    double left = T_LEFT + (double)(i % 2) * T_COLUMN, top = T_TOP + (double)(i / 2) * T_ROW;
    axis x = {.lo = xlo, .hi = xhi, .p0 = left, .p1 = left + T_PANEL_W};
    axis y = {.lo = ylo, .hi = yhi, .p0 = top + T_PANEL_H, .p1 = top};
    panel(b, a, &x, &y, o);
  }
}

static void time_chart(gbi_textbuf *b, const gb_analysis *a) {
  gbi_textbuf why;
  double r[4];
  if (!chart_start(b, &why, a, time_undrawn, time_range(a, r),
                   "No configuration has a median time per sort above 0: nothing to plot")) {
    return;
  }
  size_t rows = (gb_bits_count(a->records->meta.settings.orders) + 1) / 2;
  double bottom = T_TOP + (double)(rows - 1) * T_ROW + T_PANEL_H + 60;
  header(b, (int)bottom + (int)note_lines(why.data) * NOTE_LINE + 10,
         "Time per sort against input size (energy pending)",
         "Medians of the ok runs with 95% intervals, log-log; one line per language and "
         "algorithm, set slightly apart at each size");
  legend_row(b, &a->records->meta, T_LEFT, T_LEGEND_Y);
  time_panels(b, a, r);
  double mid = T_TOP + ((double)(rows - 1) * T_ROW + T_PANEL_H) / 2;
  gbi_tb_printf(b,
                "<text x=\"20\" y=\"%.2f\" text-anchor=\"middle\" font-size=\"14\" " FONT
                " transform=\"rotate(-90 20 %.2f)\">Time per sort (log scale)</text>\n",
                mid, mid);
  chart_end(b, &why, bottom);
}

int gbi_report_svg(const gb_analysis *a, char **out, size_t *len, gb_err *err) {
  gbi_textbuf b;
  gbi_tb_init(&b);
  gbi_tb_numeric loc;
  gbi_tb_c_numeric(&loc);
  if (a->n_configs == 0 || a->checks.configs_measured == 0) {
    empty_chart(&b, "No configuration was measured: nothing to plot", NULL);
  } else if (a->energy) {
    scatter(&b, a);
  } else {
    time_chart(&b, a);
  }
  gbi_tb_restore_numeric(&loc);
  return gbi_tb_take(&b, out, len, "chart.svg", err);
}
