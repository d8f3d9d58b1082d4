/* results.md's cells: Markdown text, folds, figures with their intervals
 * and marks, and the summaries of ratio groups. */
#include "report_md_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Markdown text -------------------------------------------------------- */

/* Text safe inside a paragraph or a table cell: Markdown punctuation
 * backslash-escaped, line breaks and control characters as spaces. */
void md_text(gbi_textbuf *b, const char *s) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c < 0x20 || c == 0x7f) {
      gbi_tb_putn(b, " ", 1);
    } else if (strchr("\\`*_[]<>|&~", c)) {
      char esc[2] = {'\\', (char)c};
      gbi_tb_putn(b, esc, 2);
    } else {
      gbi_tb_putn(b, s, 1);
    }
  }
}

/* A code span whose fence is longer than any run of backticks inside. */
void md_code(gbi_textbuf *b, const char *s) {
  size_t run = 0, longest = 0;
  for (const char *p = s; *p; p++) {
    run = *p == '`' ? run + 1 : 0;
    longest = run > longest ? run : longest;
  }
  for (size_t i = 0; i <= longest; i++) {
    gbi_tb_puts(b, "`");
  }
  gbi_tb_puts(b, longest ? " " : "");
  for (const char *p = s; *p; p++) {
    gbi_tb_putn(b, (unsigned char)*p < 0x20 ? " " : p, 1);
  }
  gbi_tb_puts(b, longest ? " " : "");
  for (size_t i = 0; i <= longest; i++) {
    gbi_tb_puts(b, "`");
  }
}

/* A folded block that renders as Markdown everywhere: the <details> line
 * alone, so CommonMark (GitHub, GitLab) ends its HTML block at the blank
 * line and parses what follows, and markdown="1" for python-markdown's
 * md_in_html, which otherwise keeps the whole block as raw HTML. It starts
 * at the left margin, never inside a list item: python-markdown would not
 * see it there. details_open, the summary's text, details_body, the
 * body, then "\n</details>\n\n". */
void md_details_open(gbi_textbuf *b) {
  gbi_tb_puts(b, "<details markdown=\"1\">\n<summary>");
}

/* Ends the summary that details_open began; the Markdown body follows. */
void md_details_body(gbi_textbuf *b) {
  gbi_tb_puts(b, "</summary>\n\n");
}

void md_fold_open(gbi_textbuf *b, size_t rows, const char *what) {
  if (rows > FOLD_ROWS) {
    md_details_open(b);
    gbi_tb_printf(b, "%s (%zu rows)", what, rows);
    md_details_body(b);
  }
}

void md_fold_close(gbi_textbuf *b, size_t rows) {
  gbi_tb_puts(b, rows > FOLD_ROWS ? "\n</details>\n\n" : "\n");
}

/* ---- Numbers ---------------------------------------------------------------- */

const char *md_missing_word(const gb_analysis *a) {
  return a->energy ? "missing" : "pending";
}

/* An estimate of c scaled to the table's unit, with its interval. */
void md_est(md *d, const gb_an_config *c, gb_estimate e, double scale) {
  if (!c->measured) {
    gbi_tb_puts(d->b, "not measured");
    return;
  }
  const gb_interval *iv = &c->boot.est[e];
  if (!iv->available) {
    gbi_tb_puts(d->b, md_missing_word(d->a));
    return;
  }
  if (isnan(iv->point)) {
    gbi_tb_puts(d->b, "undefined");
    return;
  }
  gbi_tb_interval(d->b, iv->point * scale, iv->lo * scale, iv->hi * scale, SIG);
  if ((e == GB_EST_TIME_PER_SORT && c->nonpositive_time) ||
      (e == GB_EST_ENERGY_PER_SORT && c->nonpositive_energy)) {
    gbi_tb_puts(d->b, " " FLAG_NONPOSITIVE);
  }
  if (e == GB_EST_TIME_PER_SORT && c->loop_disagrees) {
    gbi_tb_puts(d->b, " " FLAG_LOOP " ");
    gbi_tb_sig(d->b, c->loop_per_sort_ns * scale, SIG);
  }
  if (e == GB_EST_CPU_PER_SORT && c->cpu_above_wall) {
    gbi_tb_puts(d->b, " " FLAG_CPU);
  }
}

/* After a ratio: the point outside its own interval, and how many
 * resamples the interval stands on. */
static void outside_mark(md *d, const gb_interval *iv) {
  if (gb_an_point_outside(iv)) {
    gbi_tb_printf(d->b, " " FLAG_OUTSIDE " %zu of %zu", iv->n_used, d->a->opts.resamples);
  }
}

void md_ratio_cell(md *d, const gb_an_ratio *r, const gb_interval *iv, bool energy) {
  if (!r->computed) {
    gbi_tb_puts(d->b, "not measured");
  } else if (energy && !d->a->energy) {
    gbi_tb_puts(d->b, "pending");
  } else if (isnan(iv->point)) {
    gbi_tb_puts(d->b, energy ? "undefined" : "n/a");
  } else {
    gbi_tb_interval(d->b, iv->point, iv->lo, iv->hi, SIG);
    outside_mark(d, iv);
  }
  if (r->computed && md_ratio_loop_flagged(d->a, r) && iv == &r->ratio.time) {
    gbi_tb_puts(d->b, " ‡");
  }
}

bool md_ratio_loop_flagged(const gb_analysis *a, const gb_an_ratio *r) {
  return a->configs[r->a].loop_disagrees || a->configs[r->b].loop_disagrees;
}

const char *md_reading_text(const gb_analysis *a, const gb_an_ratio *r) {
  if (!r->computed) {
    return "undefined (not measured)";
  }
  if (!a->energy) {
    return "pending";
  }
  return r->ratio.reading == GB_READING_SAME ? "same power" : gb_reading_name(r->ratio.reading);
}

/* ---- Summaries of groups of ratios (gb_an_group) ----------------------------- */

void md_range_cell(gbi_textbuf *b, const double v[3]) {
  if (isnan(v[0])) {
    gbi_tb_puts(b, "n/a");
    return;
  }
  gbi_tb_range(b, v[0], v[1], v[2], SIG);
}

/* A summary of ratios, saying how many of the group's n it stands on when
 * some are undefined. */
void md_summary_cell(gbi_textbuf *b, const double v[3], size_t used, size_t n) {
  md_range_cell(b, v);
  if (!isnan(v[0]) && used < n) {
    gbi_tb_printf(b, ", %zu of %zu defined", used, n);
  }
}

void md_readings_cell(gbi_textbuf *b, const gb_an_group *g, bool energy) {
  if (!energy) {
    gbi_tb_puts(b, "pending");
    return;
  }
  gbi_tb_printf(b, "%zu same, %zu differ, %zu inconclusive, %zu undefined",
                g->readings[GB_READING_SAME], g->readings[GB_READING_DIFFERS],
                g->readings[GB_READING_INCONCLUSIVE], g->readings[GB_READING_UNDEFINED]);
}

/* The margin as given, "10%" for 0.10 (at most 6 significant digits). */
void md_margin_text(md *d) {
  gbi_tb_printf(d->b, "%.6g%%", d->a->opts.margin * 100.0);
}

void md_calibrated_sentence(md *d, const gb_an_tally *t) {
  if (!t->calibrated) {
    return;
  }
  gbi_tb_printf(d->b,
                "Under equal power, the %zu campaigns simulated for this design gave about ",
                t->null_campaigns);
  gbi_tb_sig(d->b, t->null_mean, 3);
  gbi_tb_puts(d->b, " (");
  gbi_tb_sig(d->b, 100.0 * t->null_rate, 3);
  gbi_tb_printf(d->b,
                "%% of the defined intervals), and more than %zu only one time in 20: the "
                "verdict counts against %zu. ",
                t->chance_bound, t->chance_bound);
}
