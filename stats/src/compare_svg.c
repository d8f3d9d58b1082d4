/* compare.svg: one row per ratio common to every machine, one mark per
 * machine (its colour) at the power ratio with its interval as a whisker,
 * on a logarithmic axis with the line of equal power and the margin shaded.
 * When no machine measured energy, the time ratio takes the power ratio's
 * place (the title says so). Pure and deterministic, numbers in "C". */
#include "greenbench/compare.h"

#include "stats_internal.h"
#include "textbuf.h"

#include <math.h>
#include <string.h>

#define FONT "font-family=\"sans-serif\""
#define WIDTH 900
#define LEFT 330
#define RIGHT 40
#define TOP 70
#define ROW 8.0 /* per machine in a ratio's row */
#define GAP 6.0 /* between ratios' rows */

/* Okabe-Ito, which colour-blind readers tell apart. */
static const char *const colours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                      "#E69F00", "#56B4E9", "#F0E442", "#000000"};

typedef struct {
  double lo, hi; /* log10 of the axis's ends */
} axis;

static double xpos(const axis *ax, double v) {
  return LEFT + (log10(v) - ax->lo) / (ax->hi - ax->lo) * (WIDTH - LEFT - RIGHT);
}

static const gb_interval *shown(const gb_an_ratio *r, bool power) {
  return power ? &r->ratio.power : &r->ratio.time;
}

static bool usable(double v) {
  return isfinite(v) && v > 0;
}

/* The axis spans every point and interval end, and the margin, in whole
 * powers of ten's tenths. */
static axis axis_of(const gb_comparison *c, bool power) {
  double lo = log10(1.0 / (1.0 + c->opts.margin)), hi = log10(1.0 + c->opts.margin);
  for (size_t i = 0; i < c->n_ratios; i++) {
    for (size_t m = 0; m < c->n; m++) {
      const gb_interval *iv = shown(c->ratios[i].ratio[m], power);
      double v[3] = {iv->point, iv->lo, iv->hi};
      for (int k = 0; k < 3 && c->ratios[i].ratio[m]->computed; k++) {
        lo = usable(v[k]) && log10(v[k]) < lo ? log10(v[k]) : lo;
        hi = usable(v[k]) && log10(v[k]) > hi ? log10(v[k]) : hi;
      }
    }
  }
  return (axis){floor(lo * 10.0 - 0.5) / 10.0, ceil(hi * 10.0 + 0.5) / 10.0};
}

static void ticks(gbi_textbuf *b, const axis *ax, double y0, double y1) {
  static const double marks[] = {0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 0.8, 0.9, 1,   1.1,
                                 1.25, 2,    5,    10,  20,  50,  100, 200, 500, 1000};
  for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++) {
    double l = log10(marks[i]);
    if (l < ax->lo || l > ax->hi) {
      continue;
    }
    double x = xpos(ax, marks[i]);
    gbi_tb_printf(b,
                  "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#ddd\"/>\n"
                  "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" font-size=\"11\" " FONT
                  ">%g</text>\n",
                  x, y0, x, y1, x, y1 + 14, marks[i]);
  }
}

static void frame(gbi_textbuf *b, const gb_comparison *c, const axis *ax, bool power, double h,
                  double y1) {
  gbi_tb_printf(b,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
                "viewBox=\"0 0 %d %.0f\">\n<rect width=\"100%%\" height=\"100%%\" "
                "fill=\"white\"/>\n<text x=\"%d\" y=\"26\" text-anchor=\"middle\" "
                "font-size=\"17\" font-weight=\"bold\" " FONT ">%s per configuration, %zu "
                "%s</text>\n",
                WIDTH, h, WIDTH, h, WIDTH / 2,
                power ? "Power ratio A / B" : "Time ratio A / B (energy not measured)", c->n,
                c->by_machine ? "machines" : "campaigns");
  double m0 = xpos(ax, 1.0 / (1.0 + c->opts.margin)), m1 = xpos(ax, 1.0 + c->opts.margin);
  if (power) {
    gbi_tb_printf(
        b, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%.2f\" fill=\"#eef5ee\"/>\n", m0,
        TOP, m1 - m0, y1 - TOP);
  }
  ticks(b, ax, TOP, y1);
  double one = xpos(ax, 1.0);
  gbi_tb_printf(b,
                "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#666\"/>\n"
                "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" font-size=\"12\" " FONT
                ">%s ratio A / B (log scale; %g%% intervals%s)</text>\n",
                one, TOP, one, y1, (LEFT + WIDTH - RIGHT) / 2.0, y1 + 32,
                power ? "power" : "time", c->opts.level * 100.0,
                power ? "; shaded: the equivalence margin" : "");
}

static void legend(gbi_textbuf *b, const gb_comparison *c) {
  double x = LEFT;
  for (size_t m = 0; m < c->n; m++) {
    const char *col = colours[m % (sizeof colours / sizeof colours[0])];
    gbi_tb_printf(
        b,
        "<circle cx=\"%.2f\" cy=\"48\" r=\"4\" fill=\"%s\"/>\n<text x=\"%.2f\" y=\"52\" "
        "font-size=\"12\" " FONT ">",
        x, col, x + 8);
    gbi_xml_put(b, c->machines[m].name, strlen(c->machines[m].name), false);
    gbi_tb_puts(b, "</text>\n");
    x += 24 + 7.5 * (double)strlen(c->machines[m].name);
  }
}

static void mark(gbi_textbuf *b, const axis *ax, const gb_interval *iv, double y,
                 const char *col) {
  if (!usable(iv->point)) {
    return;
  }
  double l = usable(iv->lo) ? xpos(ax, iv->lo) : LEFT,
         h = usable(iv->hi) ? xpos(ax, iv->hi) : LEFT;
  if (usable(iv->lo) && usable(iv->hi)) {
    gbi_tb_printf(b, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\"/>\n",
                  l, y, h, y, col);
  }
  gbi_tb_printf(b, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3\" fill=\"%s\"/>\n",
                xpos(ax, iv->point), y, col);
}

static void rows(gbi_textbuf *b, const gb_comparison *c, const axis *ax, bool power) {
  double y = TOP + GAP;
  for (size_t i = 0; i < c->n_ratios; i++) {
    const gb_cmp_ratio *x = &c->ratios[i];
    char la[96], lb[96];
    gb_an_config_label(x->a, la, sizeof la);
    gb_an_config_label(x->b, lb, sizeof lb);
    double mid = y + ROW * (double)(c->n - 1) / 2.0;
    gbi_tb_printf(b,
                  "<text x=\"%d\" y=\"%.2f\" text-anchor=\"end\" font-size=\"10\" " FONT
                  ">%s / %s</text>\n",
                  LEFT - 6, mid + 3.5, la, lb);
    for (size_t m = 0; m < c->n; m++) {
      if (x->ratio[m]->computed) {
        mark(b, ax, shown(x->ratio[m], power), y + ROW * (double)m,
             colours[m % (sizeof colours / sizeof colours[0])]);
      }
    }
    y += ROW * (double)c->n + GAP;
  }
}

int gb_compare_svg(const gb_comparison *c, char **out, size_t *len, gb_err *err) {
  bool power = false;
  for (size_t m = 0; m < c->n; m++) {
    power = power || c->machines[m].a->energy;
  }
  gbi_tb_numeric loc;
  gbi_tb_c_numeric(&loc);
  gbi_textbuf b;
  gbi_tb_init(&b);
  axis ax = axis_of(c, power);
  double y1 = TOP + GAP + (ROW * (double)c->n + GAP) * (double)c->n_ratios;
  y1 = y1 < TOP + 40 ? TOP + 40 : y1;
  frame(&b, c, &ax, power, y1 + 50, y1);
  legend(&b, c);
  rows(&b, c, &ax, power);
  if (c->n_ratios == 0) {
    gbi_tb_printf(&b,
                  "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\" " FONT
                  ">No ratio is common to every machine.</text>\n",
                  WIDTH / 2, TOP + 20);
  }
  gbi_tb_puts(&b, "</svg>\n");
  gbi_tb_restore_numeric(&loc);
  return gbi_tb_take(&b, out, len, "compare.svg", err);
}
