/* The chart, as SVG written by hand. A log-log scatter plot with a legend
 * is a few hundred lines of coordinates and text; a plotting library would
 * add a dependency (and its version's rendering) to a report that must be
 * byte-identical for the same records, and none of the C ones fits better.
 * Coordinates are printed with two decimals in the "C" locale. */
#include "greenbench/report_svg.h"

#include "textbuf.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define WIDTH 960
#define FONT "font-family=\"sans-serif\""

static const char *const language_colour[GB_REC_LANG_COUNT] = {"#1f5fa8", "#d95f02", "#1b9e77"};
static const char *const language_title[GB_REC_LANG_COUNT] = {"C", "Python", "Node.js"};
static const char *const algorithm_dash[GB_REC_ALG_COUNT] = {"", "7,4", "2,3"};

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

static void text(gb_textbuf *b, double x, double y, const char *anchor, int size,
                 const char *extra, const char *s) {
  gb_tb_printf(b, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\" font-size=\"%d\" %s%s>", x, y,
               anchor, size, FONT, extra);
  for (; *s; s++) {
    const char *e = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : NULL;
    if (e) {
      gb_tb_puts(b, e);
    } else {
      gb_tb_putn(b, s, 1);
    }
  }
  gb_tb_puts(b, "</text>\n");
}

static void line(gb_textbuf *b, double x1, double y1, double x2, double y2, const char *style) {
  gb_tb_printf(b, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" %s/>\n", x1, y1, x2,
               y2, style);
}

/* Decade ticks, grid lines and labels of a log axis. */
static void x_ticks(gb_textbuf *b, const axis *x, const axis *y, const char *unit) {
  char label[32];
  for (int e = (int)x->lo; e <= (int)x->hi; e++) {
    double px = ax(x, pow(10.0, e));
    line(b, px, y->p0, px, y->p1, "stroke=\"#e4e4e4\"");
    line(b, px, y->p0, px, y->p0 + 5, "stroke=\"#333\"");
    si_label(label, sizeof label, e, unit);
    text(b, px, y->p0 + 19, "middle", 12, "", label);
  }
}

static void y_ticks(gb_textbuf *b, const axis *x, const axis *y, const char *unit) {
  char label[32];
  for (int e = (int)y->lo; e <= (int)y->hi; e++) {
    double py = ax(y, pow(10.0, e));
    line(b, x->p0, py, x->p1, py, "stroke=\"#e4e4e4\"");
    line(b, x->p0 - 5, py, x->p0, py, "stroke=\"#333\"");
    si_label(label, sizeof label, e, unit);
    text(b, x->p0 - 8, py + 4, "end", 12, "", label);
  }
}

static void frame(gb_textbuf *b, const axis *x, const axis *y) {
  gb_tb_printf(b,
               "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"none\" "
               "stroke=\"#333\"/>\n",
               x->p0, y->p1, x->p1 - x->p0, y->p0 - y->p1);
}

/* A mark: circle (bubble), square (insertion) or triangle (quick). */
static void mark(gb_textbuf *b, gb_rec_algorithm g, double px, double py, const char *colour) {
  if (g == GB_REC_ALG_BUBBLE) {
    gb_tb_printf(b, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4.5\" fill=\"%s\"/>\n", px, py,
                 colour);
  } else if (g == GB_REC_ALG_INSERTION) {
    gb_tb_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"8\" height=\"8\" fill=\"%s\"/>\n",
                 px - 4, py - 4, colour);
  } else {
    gb_tb_printf(b, "<polygon points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f\" fill=\"%s\"/>\n", px,
                 py - 5.5, px - 5, py + 4, px + 5, py + 4, colour);
  }
}

static void header(gb_textbuf *b, int height, const char *title, const char *subtitle) {
  gb_tb_printf(b,
               "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
               WIDTH, height, WIDTH, height);
  text(b, WIDTH / 2.0, 28, "middle", 18, " font-weight=\"bold\"", title);
  text(b, WIDTH / 2.0, 48, "middle", 13, " fill=\"#444\"", subtitle);
}

/* Legend: the languages (colours) and algorithms (marks or dashes). */
static void legend(gb_textbuf *b, const gb_meta *m, double x, double y, bool lines) {
  text(b, x, y, "start", 13, " font-weight=\"bold\"", "Language");
  for (size_t i = 0; i < m->settings.n_languages; i++) {
    gb_rec_language l = m->settings.languages[i];
    y += 20;
    gb_tb_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"14\" height=\"10\" fill=\"%s\"/>\n", x,
                 y - 9, language_colour[l]);
    text(b, x + 20, y, "start", 12, "", language_title[l]);
  }
  y += 30;
  text(b, x, y, "start", 13, " font-weight=\"bold\"", "Algorithm");
  for (int g = 0; g < GB_REC_ALG_COUNT; g++) {
    if (!gb_meta_has_algorithm(m, (gb_rec_algorithm)g)) {
      continue;
    }
    y += 20;
    if (lines) {
      char style[64];
      snprintf(style, sizeof style,
               "stroke=\"#333\" stroke-width=\"2\" stroke-dasharray=\"%s\"", algorithm_dash[g]);
      line(b, x, y - 4, x + 24, y - 4, style);
    }
    mark(b, (gb_rec_algorithm)g, x + 12, y - 4, "#333");
    text(b, x + 30, y, "start", 12, "", gb_rec_algorithm_name((gb_rec_algorithm)g));
  }
}

static void empty_chart(gb_textbuf *b) {
  header(b, 200, "greenbench", "No configuration was measured: nothing to plot");
  gb_tb_puts(b, "</svg>\n");
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
static void power_label(gb_textbuf *b, const axis *x, const axis *y, double w, double lt) {
  char label[32];
  double t = pow(10.0, lt), px = ax(x, t), py = ax(y, w * t);
  double dx = ax(x, t * 10.0) - px, dy = ax(y, w * t * 10.0) - py;
  double deg = atan2(dy, dx) * 180.0 / 3.14159265358979323846;
  si_value(label, sizeof label, w, "W");
  gb_tb_printf(b,
               "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\" font-size=\"11\" " FONT
               " fill=\"#555\" stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\" "
               "transform=\"rotate(%.2f %.2f %.2f)\">%s</text>\n",
               px, py - 4, deg, px, py, label);
}

/* Dashed lines E = w t at 1-2-5 steps of w from a third of the lowest net
 * power to three times the highest: near the marks, where a reader
 * compares them. */
static void power_lines(gb_textbuf *b, const gb_analysis *a, const axis *x, const axis *y) {
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

static void whiskers(gb_textbuf *b, const axis *x, const axis *y, const gb_an_config *c) {
  const gb_interval *t = &c->boot.est[GB_EST_TIME_PER_SORT];
  const gb_interval *e = &c->boot.est[GB_EST_ENERGY_PER_SORT];
  double px = ax(x, secs(t->point)), py = ax(y, joules(e->point));
  char style[96];
  snprintf(style, sizeof style, "stroke=\"%s\" stroke-opacity=\"0.6\"",
           language_colour[c->language]);
  double tlo = t->lo > 0 ? ax(x, secs(t->lo)) : x->p0,
         elo = e->lo > 0 ? ax(y, joules(e->lo)) : y->p0;
  line(b, tlo, py, ax(x, secs(t->hi)), py, style);
  line(b, px, elo, px, ax(y, joules(e->hi)), style);
}

static void scatter(gb_textbuf *b, const gb_analysis *a) {
  double r[4];
  size_t n = scatter_range(a, r);
  if (n == 0) {
    empty_chart(b);
    return;
  }
  axis x = {.p0 = 100, .p1 = 760}, y = {.p0 = 600, .p1 = 80};
  decades(r[0] / 1.3, r[1] * 1.3, &x.lo, &x.hi); /* no mark on the frame */
  decades(r[2] / 1.3, r[3] * 1.3, &y.lo, &y.hi);
  header(b, 680, "Energy per sort against time per sort",
         "Medians with 95% intervals, one mark per configuration; dashed lines: constant net "
         "power above idle (E = P t)");
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
  gb_tb_printf(b,
               "<text x=\"24\" y=\"%.2f\" text-anchor=\"middle\" font-size=\"14\" " FONT
               " transform=\"rotate(-90 24 %.2f)\">Energy per sort, net of idle (log "
               "scale)</text>\n",
               (y.p0 + y.p1) / 2, (y.p0 + y.p1) / 2);
  legend(b, &a->records->meta, 790, 100, false);
  if (n < a->checks.configs_measured) {
    char note[96];
    snprintf(note, sizeof note, "%zu configurations at or below zero not shown",
             a->checks.configs_measured - n);
    text(b, 790, 600, "start", 11, " fill=\"#777\"", note);
  }
  gb_tb_puts(b, "</svg>\n");
}

/* ---- Time against size (energy pending) ------------------------------------------ */

static bool time_plottable(const gb_an_config *c) {
  return c->measured && c->boot.est[GB_EST_TIME_PER_SORT].point > 0.0;
}

static size_t time_range(const gb_analysis *a, double r[4]) {
  size_t n = 0;
  r[0] = r[2] = INFINITY;
  r[1] = r[3] = 0.0;
  for (size_t i = 0; i < a->n_configs; i++) {
    const gb_an_config *c = &a->configs[i];
    if (!time_plottable(c)) {
      continue;
    }
    r[0] = fmin(r[0], (double)c->size);
    r[1] = fmax(r[1], (double)c->size);
    r[2] = fmin(r[2], secs(c->boot.est[GB_EST_TIME_PER_SORT].point));
    r[3] = fmax(r[3], secs(c->boot.est[GB_EST_TIME_PER_SORT].point));
    n++;
  }
  return n;
}

/* Ticks at the sizes themselves: the study's sizes span less than a decade. */
static void size_ticks(gb_textbuf *b, const gb_meta *m, const axis *x, const axis *y) {
  char label[32];
  for (size_t z = 0; z < m->settings.n_sizes; z++) {
    double px = ax(x, (double)m->settings.sizes[z]);
    line(b, px, y->p0, px, y->p1, "stroke=\"#e4e4e4\"");
    line(b, px, y->p0, px, y->p0 + 5, "stroke=\"#333\"");
    snprintf(label, sizeof label, "%" PRIu64, m->settings.sizes[z]);
    text(b, px, y->p0 + 18, "middle", 11, "", label);
  }
}

static void series(gb_textbuf *b, const gb_analysis *a, const axis *x, const axis *y,
                   gb_rec_language l, gb_rec_algorithm g, gb_rec_order o) {
  const gb_meta_settings *s = &a->records->meta.settings;
  bool open = false;
  for (size_t z = 0; z < s->n_sizes; z++) {
    const gb_an_config *c = gb_analysis_find(a, l, g, o, s->sizes[z]);
    if (!c || !time_plottable(c)) {
      continue;
    }
    gb_tb_printf(b, "%s%.2f,%.2f", open ? " " : "<polyline fill=\"none\" points=\"",
                 ax(x, (double)c->size), ax(y, secs(c->boot.est[GB_EST_TIME_PER_SORT].point)));
    open = true;
  }
  if (open) {
    gb_tb_printf(b, "\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"%s\"/>\n",
                 language_colour[l], algorithm_dash[g]);
  }
  for (size_t z = 0; z < s->n_sizes; z++) {
    const gb_an_config *c = gb_analysis_find(a, l, g, o, s->sizes[z]);
    if (c && time_plottable(c)) {
      mark(b, g, ax(x, (double)c->size), ax(y, secs(c->boot.est[GB_EST_TIME_PER_SORT].point)),
           language_colour[l]);
    }
  }
}

static void panel(gb_textbuf *b, const gb_analysis *a, const axis *x, const axis *y,
                  gb_rec_order o) {
  const gb_meta *m = &a->records->meta;
  size_ticks(b, m, x, y);
  y_ticks(b, x, y, "s");
  for (int l = 0; l < GB_REC_LANG_COUNT; l++) {
    for (int g = 0; g < GB_REC_ALG_COUNT; g++) {
      series(b, a, x, y, (gb_rec_language)l, (gb_rec_algorithm)g, o);
    }
  }
  frame(b, x, y);
  char title[64];
  snprintf(title, sizeof title, "%s input",
           o == GB_REC_ORDER_NEARLY ? "nearly sorted" : gb_rec_order_name(o));
  text(b, (x->p0 + x->p1) / 2, y->p1 - 8, "middle", 13, " font-weight=\"bold\"", title);
  text(b, (x->p0 + x->p1) / 2, y->p0 + 36, "middle", 12, "",
       "Input size (elements, log scale)");
}

static void time_chart(gb_textbuf *b, const gb_analysis *a) {
  double r[4];
  if (time_range(a, r) == 0) {
    empty_chart(b);
    return;
  }
  const gb_meta_settings *s = &a->records->meta.settings;
  size_t rows = (s->n_orders + 1) / 2;
  int height = 90 + (int)rows * 300;
  header(b, height, "Time per sort against input size (energy pending)",
         "Medians of the ok runs, log-log; one line per language and algorithm");
  double xlo = log10(r[0]) - 0.1, xhi = log10(r[1]) + 0.1, ylo, yhi;
  decades(r[2] / 1.3, r[3] * 1.3, &ylo, &yhi);
  for (size_t i = 0; i < s->n_orders; i++) {
    double left = 90 + (double)(i % 2) * 345, top = 90 + (double)(i / 2) * 300;
    axis x = {.lo = xlo, .hi = xhi, .p0 = left, .p1 = left + 270};
    axis y = {.lo = ylo, .hi = yhi, .p0 = top + 220, .p1 = top};
    panel(b, a, &x, &y, s->orders[i]);
  }
  gb_tb_printf(b,
               "<text x=\"20\" y=\"%.2f\" text-anchor=\"middle\" font-size=\"14\" " FONT
               " transform=\"rotate(-90 20 %.2f)\">Time per sort (log scale)</text>\n",
               90 + rows * 150.0, 90 + rows * 150.0);
  legend(b, &a->records->meta, 790, 100, true);
  gb_tb_puts(b, "</svg>\n");
}

int gb_report_svg(const gb_analysis *a, char **out, size_t *len, gb_err *err) {
  gb_textbuf b;
  gb_tb_init(&b);
  gb_tb_numeric loc;
  gb_tb_c_numeric(&loc);
  if (a->energy) {
    scatter(&b, a);
  } else {
    time_chart(&b, a);
  }
  gb_tb_restore_numeric(&loc);
  return gb_tb_take(&b, out, len, "chart.svg", err);
}
