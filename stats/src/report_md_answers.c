/* results.md's answers to the study's three questions, each built from
 * the analysis's counts, groups and verdict; where energy is pending they
 * say so and answer only what time and the exact counts can. */
#include "report_md_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- The answers ------------------------------------------------------------- */

void md_pending_note(md *d) {
  gbi_tb_printf(d->b, "Energy was not measured in this campaign (energy %s",
                gb_rec_energy_name(d->m->energy.status));
  if (d->m->energy.reason[0]) {
    gbi_tb_puts(d->b, ": ");
    md_text(d->b, d->m->energy.reason);
  }
  gbi_tb_puts(d->b, "), so every energy, power and carbon figure below reads *pending*: energy "
                    "needs RAPL counters on Linux running directly on the hardware "
                    "(docs/bare-metal.md), and stays pending until the study runs there. ");
}

static void net_power_range(md *d) {
  const double *r = d->a->net_power;
  if (d->a->net_power_n == 0) {
    return;
  }
  gbi_tb_printf(d->b, "Net power above idle has a median of ");
  gbi_tb_sig(d->b, r[0], 3);
  gbi_tb_puts(d->b, " W across the ");
  gbi_tb_printf(d->b, "%zu configurations with energy (from ", d->a->net_power_n);
  gbi_tb_sig(d->b, r[1], 3);
  gbi_tb_puts(d->b, " W to ");
  gbi_tb_sig(d->b, r[2], 3);
  gbi_tb_puts(d->b, " W). ");
}

static void overall_rho(md *d) {
  const gb_an_rank *k = &d->a->ranks[0];
  if (!k->computed || !k->rho.point.defined) {
    return;
  }
  gbi_tb_printf(d->b,
                "Spearman's rho between median time and median energy per sort over all "
                "%zu configurations is ",
                k->k);
  gbi_tb_interval(d->b, k->rho.point.rho, k->rho.lo, k->rho.hi, 3);
  gbi_tb_puts(d->b, " (weaker evidence: it stays near 1 unless power differs enough to reorder "
                    "configurations). ");
}

/* The answer to question 1 as one bold sentence (the analysis's verdict). */
static void q1_verdict(md *d, const gb_an_tally *t) {
  gbi_textbuf *b = d->b;
  switch (d->a->verdict) {
  case GB_AN_VERDICT_CANNOT:
    gbi_tb_puts(b, "**Cannot be answered from these records: no power ratio is defined.**");
    break;
  case GB_AN_VERDICT_YES:
    gbi_tb_puts(b, "**Yes: most power ratios read the same power within the margin, and no "
                   "more power intervals exclude 1 than chance alone would produce.**");
    break;
  case GB_AN_VERDICT_YES_BUT_DIFFERS:
    gbi_tb_puts(b, "**Within the margin, yes; but power differs measurably: most power ratios "
                   "read the same power within ");
    md_margin_text(d);
    gbi_tb_puts(b, ", so time predicts energy to within ");
    md_margin_text(d);
    gbi_tb_puts(b, ", yet more power intervals exclude 1 than chance alone would produce.**");
    break;
  case GB_AN_VERDICT_TOO_NOISY:
    gbi_tb_puts(b, "**Too noisy to decide: most defined power ratios are inconclusive.**");
    break;
  case GB_AN_VERDICT_NO:
    gbi_tb_puts(b, "**No: too few power ratios read the same power within the margin; time is "
                   "not a reliable stand-in for energy here.**");
    break;
  }
  const gb_ratio_tally *y = &t->tally;
  if (d->a->noisy) {
    gbi_tb_printf(b,
                  " Many readings are inconclusive: %zu of the %zu defined (one in %d or more "
                  "counts as many), so the measurements were too noisy to decide those "
                  "comparisons.",
                  y->readings[GB_READING_INCONCLUSIVE], y->defined,
                  GB_ANALYSIS_NOISY_SHARE_DEN / GB_ANALYSIS_NOISY_SHARE_NUM);
  }
  gbi_tb_puts(b, "\n\n");
}

static void tally_sentence(md *d, const gb_an_tally *t) {
  const gb_ratio_tally *y = &t->tally;
  gbi_tb_printf(d->b, "%zu read *same power within ", y->readings[GB_READING_SAME]);
  md_margin_text(d);
  gbi_tb_printf(d->b,
                "*, %zu *differ*, %zu %s *inconclusive* and %zu *undefined*. %zu of the %zu "
                "defined power intervals %s 1; chance alone would give about ",
                y->readings[GB_READING_DIFFERS], y->readings[GB_READING_INCONCLUSIVE],
                y->readings[GB_READING_INCONCLUSIVE] == 1 ? "is" : "are",
                y->readings[GB_READING_UNDEFINED], y->excluding_one, y->defined,
                y->excluding_one == 1 ? "excludes" : "exclude");
  gbi_tb_sig(d->b, y->expected_by_chance, 3);
  gbi_tb_printf(d->b, " (%s), and more than %zu only one time in 20. ", d->chance,
                t->plain_bound);
  md_calibrated_sentence(d, t);
}

static void answer_q1(md *d) {
  gbi_textbuf *b = d->b;
  gbi_tb_puts(b, "### 1. Time as a proxy: does energy follow time?\n\n");
  if (!d->a->energy) {
    gbi_tb_puts(b, "**Pending.** ");
    md_pending_note(d);
    gbi_tb_puts(b,
                "This question is about the power drawn while sorting, which needs energy; "
                "time alone cannot answer it. The time results below stand on their own.\n\n");
    return;
  }
  q1_verdict(d, &d->a->tally_all);
  if (d->a->tally_all.tally.total == 0) {
    gbi_tb_puts(b, "The campaign measured no two configurations that a power ratio compares "
                   "(two languages, or random input and another order). ");
  } else {
    gbi_tb_printf(b,
                  "Of the %zu power ratios (%zu between languages, %zu between input orders), ",
                  d->a->tally_all.tally.total, d->a->tally_languages.tally.total,
                  d->a->tally_orders.tally.total);
    tally_sentence(d, &d->a->tally_all);
  }
  net_power_range(d);
  overall_rho(d);
  gbi_tb_puts(b, "\n\n");
}

/* A group's row from its time ratio on: time, energy and, with_power, power
 * ratio (each "pending" without energy), then the power readings. */
static void group_cells(md *d, const gb_an_group *g, bool with_power) {
  gbi_textbuf *b = d->b;
  md_summary_cell(b, g->time, g->used[0], g->n);
  gbi_tb_puts(b, " | ");
  if (d->a->energy) {
    md_summary_cell(b, g->energy, g->used[1], g->n);
    if (with_power) {
      gbi_tb_puts(b, " | ");
      md_summary_cell(b, g->power, g->used[2], g->n);
    }
  } else {
    gbi_tb_puts(b, with_power ? "pending | pending" : "pending");
  }
  gbi_tb_puts(b, " | ");
  md_readings_cell(b, g, d->a->energy);
  gbi_tb_puts(b, " |\n");
}

/* Q2's table: one row per language pair and algorithm. */
static void language_table(md *d) {
  gbi_textbuf *b = d->b;
  gbi_tb_puts(b, "| Pair | Algorithm | Ratios | Time ratio, median (range) | Energy ratio | "
                 "Power ratio | Power readings |\n|---|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < d->a->n_language_groups; i++) {
    const gb_an_group *g = &d->a->groups[i];
    gbi_tb_printf(b, "| %s / %s | %s | %zu | ", gb_language_title(g->la),
                  gb_language_title(g->lb), gb_algorithm_name(g->algorithm), g->n);
    group_cells(d, g, true);
  }
  gbi_tb_puts(b, "\n");
}

/* Per-sort figures on random input (or the first order) by language. */
static void per_language_table(md *d, gb_estimate e, const char *what, double scale) {
  gbi_textbuf *b = d->b;
  const gb_settings *s = &d->m->settings;
  gb_order order = GB_RANDOM;
  if (!gb_meta_has_order(d->m, GB_RANDOM)) {
    order = 0;
    (void)gb_bits_next(s->orders, &order); /* the first order: the list is not empty */
  }
  gbi_tb_printf(b, "%s on %s input, median [%s CI]:\n\n| Algorithm | Size |", what,
                gb_order_name(order), d->level);
  for (gb_language l = 0; gb_bits_next(s->languages, &l); l++) {
    gbi_tb_printf(b, " %s |", gb_language_title(l));
  }
  gbi_tb_puts(b, "\n|---|---|");
  for (size_t i = 0; i < gb_bits_count(s->languages); i++) {
    gbi_tb_puts(b, "---|");
  }
  gbi_tb_puts(b, "\n");
  for (gb_algorithm g = 0; g < GB_ALGORITHM_COUNT; g++) {
    for (size_t z = 0; z < s->nsizes; z++) {
      bool any = false;
      for (gb_language l = 0; gb_bits_next(s->languages, &l); l++) {
        any = any || gb_analysis_find(d->a, l, g, order, s->sizes[z]);
      }
      if (!any) {
        continue;
      }
      gbi_tb_printf(b, "| %s | %" PRIu64 " |", gb_algorithm_name(g), s->sizes[z]);
      for (gb_language l = 0; gb_bits_next(s->languages, &l); l++) {
        const gb_an_config *c = gb_analysis_find(d->a, l, g, order, s->sizes[z]);
        gbi_tb_puts(b, " ");
        if (c) {
          md_est(d, c, e, scale);
        } else {
          gbi_tb_puts(b, "not measured");
        }
        gbi_tb_puts(b, " |");
      }
      gbi_tb_puts(b, "\n");
    }
  }
  gbi_tb_puts(b, "\n");
}

static void answer_q2(md *d) {
  gbi_textbuf *b = d->b;
  gbi_tb_puts(b, "### 2. Languages: is the energy ratio the same as the time ratio?\n\n");
  if (d->a->tally_languages.tally.total == 0) {
    gbi_tb_puts(b, "Not asked: the campaign measured one language.\n\n");
    return;
  }
  if (d->a->energy) {
    gbi_tb_printf(b, "Of the %zu power ratios between languages, ",
                  d->a->tally_languages.tally.total);
    tally_sentence(d, &d->a->tally_languages);
    gbi_tb_puts(
        b, "A power ratio of 1 means the energy ratio equals the time ratio; the table "
           "gives the median and range of the point ratios over input orders and sizes.\n\n");
  } else {
    gbi_tb_puts(b, "**Energy pending.** Only time can be compared: the table gives the time "
                   "ratios between languages (median and range over input orders and sizes); "
                   "whether the energy ratios match them is not known yet.\n\n");
  }
  language_table(d);
  if (d->a->energy) {
    per_language_table(d, GB_EST_ENERGY_PER_SORT, "Energy per sort (µJ)", 1.0);
  }
  per_language_table(d, GB_EST_TIME_PER_SORT, "Time per sort (µs)", 1e-3);
}

static void order_row(md *d, const gb_an_group *g) {
  gbi_textbuf *b = d->b;
  gbi_tb_printf(b, "| %s | %s | %s / random | ", gb_language_title(g->la),
                gb_algorithm_name(g->algorithm), gb_order_name(g->order));
  md_range_cell(b, g->comparisons);
  gbi_tb_puts(b, " | ");
  group_cells(d, g, false);
}

static void answer_q3(md *d) {
  gbi_textbuf *b = d->b;
  gbi_tb_puts(b,
              "### 3. Input order: does energy follow the order differences as time does?\n\n");
  if (d->a->tally_orders.tally.total == 0) {
    gbi_tb_puts(b,
                "Not asked: the campaign did not measure random input and another order.\n\n");
    return;
  }
  if (d->a->energy) {
    gbi_tb_printf(b, "Of the %zu power ratios between an input order and random input, ",
                  d->a->tally_orders.tally.total);
    tally_sentence(d, &d->a->tally_orders);
    gbi_tb_puts(b, "\n\n");
  } else {
    gbi_tb_puts(b, "**Energy pending.** The exact operation counts and time can be compared: "
                   "the table sets the ratio of comparisons (exact, from the workers' counts) "
                   "beside the time ratio. Whether energy follows them is not known yet.\n\n");
  }
  size_t rows = d->a->n_groups - d->a->n_language_groups;
  md_fold_open(b, rows, "Order against random input, by language and algorithm");
  gbi_tb_puts(b,
              "| Language | Algorithm | Orders | Comparisons ratio, median (range) | "
              "Time ratio | Energy ratio | Power readings |\n|---|---|---|---|---|---|---|\n");
  for (size_t i = d->a->n_language_groups; i < d->a->n_groups; i++) {
    order_row(d, &d->a->groups[i]);
  }
  md_fold_close(b, rows);
}

void md_section_answers(md *d) {
  gbi_tb_puts(d->b, "## Answers\n\n");
  answer_q1(d);
  answer_q2(d);
  answer_q3(d);
}
