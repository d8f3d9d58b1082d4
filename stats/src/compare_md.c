/* compare.md: the comparison in words and tables. Pure; numbers rounded as
 * results.md rounds them (textbuf.h), in the "C" locale; every name, path
 * and CPU model from the records or the command line goes through md_text
 * or md_code (report_md_cells.c). */
#include "greenbench/compare.h"

#include "compare_internal.h"
#include "report_md_internal.h"
#include "textbuf.h"

#include <math.h>
#include <string.h>

static const char *verdict_words(const char *v) {
  static const char *const names[][2] = {
      {"yes", "yes"},
      {"yes_within_margin_but_power_differs", "within the margin, yes, but power differs"},
      {"no", "no"},
      {"too_noisy", "too noisy to decide"},
      {"cannot_answer", "cannot be answered"},
      {"pending", "pending (energy not measured)"}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (strcmp(v, names[i][0]) == 0) {
      return names[i][1];
    }
  }
  return v;
}

/* Column m's name as a cell's text, after a space. */
static void name(gbi_textbuf *b, const gb_comparison *c, size_t m) {
  gbi_tb_puts(b, " ");
  md_text(b, c->machines[m].name);
}

/* "machines" when the columns are machines, else "campaigns". */
static const char *noun(const gb_comparison *c) {
  return c->by_machine ? "machines" : "campaigns";
}

static void header_row(gbi_textbuf *b, const gb_comparison *c, const char *first,
                       const char *last) {
  gbi_tb_printf(b, "| %s |", first);
  for (size_t m = 0; m < c->n; m++) {
    name(b, c, m);
    gbi_tb_puts(b, " |");
  }
  gbi_tb_printf(b, "%s%s%s\n|---|", last ? " " : "", last ? last : "", last ? " |" : "");
  for (size_t m = 0; m < c->n; m++) {
    gbi_tb_puts(b, "---|");
  }
  gbi_tb_puts(b, last ? "---|\n" : "\n");
}

static void machines(gbi_textbuf *b, const gb_comparison *c) {
  gbi_tb_puts(b,
              "| column | machine label | campaign label | records | CPU | question 1 | same / "
              "differs / inconclusive / undefined | intervals excluding 1 (chance bound) "
              "|\n|---|---|---|---|---|---|---|---|\n");
  for (size_t m = 0; m < c->n; m++) {
    const gb_cmp_machine *x = &c->machines[m];
    const gb_meta *meta = &x->a->records->meta;
    const gb_ratio_tally *t = &x->a->tally_all.tally;
    gbi_tb_puts(b, "|");
    name(b, c, m);
    gbi_tb_puts(b, " | ");
    md_text(b, meta->machine.has_label ? meta->machine.label : "(none)");
    gbi_tb_puts(b, " | ");
    md_text(b, x->campaign);
    gbi_tb_puts(b, " | ");
    md_code(b, x->path);
    gbi_tb_puts(b, " | ");
    md_text(b, meta->machine.cpu_model);
    gbi_tb_printf(b, " | %s%s | ", verdict_words(x->verdict),
                  x->a->energy && x->a->noisy ? "; many inconclusive" : "");
    if (!x->a->energy) {
      /* As results.md says it: without energy the readings are pending. */
      gbi_tb_puts(b, "pending | pending |\n");
      continue;
    }
    gbi_tb_printf(b, "%zu / %zu / %zu / %zu | %zu (%zu) |\n", t->readings[GB_READING_SAME],
                  t->readings[GB_READING_DIFFERS], t->readings[GB_READING_INCONCLUSIVE],
                  t->readings[GB_READING_UNDEFINED], t->excluding_one,
                  x->a->tally_all.chance_bound);
  }
}

/* The configurations some campaign lacks, compared nowhere. */
static void left_out(gbi_textbuf *b, const gb_comparison *c) {
  bool any = false;
  for (size_t m = 0; m < c->n; m++) {
    const gb_cmp_machine *x = &c->machines[m];
    if (x->n_left_out == 0) {
      continue;
    }
    if (!any) {
      gbi_tb_printf(b, "\nLeft out, as not every one of the %s holds them:\n\n", noun(c));
      any = true;
    }
    gbi_tb_puts(b, "-");
    name(b, c, m);
    gbi_tb_puts(b, ":");
    for (size_t i = 0; i < x->n_left_out; i++) {
      char key[96];
      gb_an_config_label(x->left_out[i], key, sizeof key);
      gbi_tb_printf(b, "%s %s", i ? "," : "", key);
    }
    gbi_tb_puts(b, "\n");
  }
}

/* Against the first campaign: whether the answer to question 1 changed. */
static void verdict_changes(gbi_textbuf *b, const gb_comparison *c) {
  gbi_tb_puts(b, "\nAgainst");
  name(b, c, 0);
  gbi_tb_printf(b,
                " (the first of the %s), the answer to question 1 (is time a good "
                "stand-in for energy?):\n\n",
                noun(c));
  const gb_cmp_machine *first = &c->machines[0];
  for (size_t m = 1; m < c->n; m++) {
    const gb_cmp_machine *x = &c->machines[m];
    gbi_tb_puts(b, "-");
    name(b, c, m);
    if (!x->verdict_known) {
      gbi_tb_puts(b, ": not known, as energy was not measured in");
      name(b, c, first->a->energy ? m : 0);
      gbi_tb_puts(b, "\n");
    } else if (x->verdict_changed) {
      gbi_tb_printf(b, ": **changed**, from %s to %s", verdict_words(first->verdict),
                    verdict_words(x->verdict));
    } else {
      gbi_tb_printf(b, ": unchanged (%s)", verdict_words(x->verdict));
    }
    if (x->verdict_known) {
      gbi_tb_puts(b, x->same_configs_as_first ? "\n"
                                              : "; the two answers come from different sets "
                                                "of configurations\n");
    }
  }
}

static void verdicts(gbi_textbuf *b, const gb_comparison *c) {
  gbi_tb_printf(b, "\n## Does energy follow time in every one of the %s?\n\n", noun(c));
  if (c->verdicts_agree) {
    gbi_tb_printf(b, "The verdicts of question 1 agree: **%s** in all %zu %s.\n",
                  verdict_words(c->machines[0].verdict), c->n, noun(c));
  } else {
    gbi_tb_puts(b, "The verdicts of question 1 **disagree**:\n\n");
    for (size_t m = 0; m < c->n; m++) {
      if (c->machines[m].same_verdict_as != m) {
        continue;
      }
      gbi_tb_printf(b, "- %s:", verdict_words(c->machines[m].verdict));
      for (size_t k = m; k < c->n; k++) {
        if (c->machines[k].same_verdict_as == m) {
          name(b, c, k);
        }
      }
      gbi_tb_puts(b, "\n");
    }
  }
  verdict_changes(b, c);
}

void gbi_cmp_md_change_cell(gbi_textbuf *b, const gb_interval *iv, gb_reading r, bool exists) {
  if (!exists) {
    gbi_tb_puts(b, " not measured |");
  } else if (r == GB_READING_UNDEFINED) {
    gbi_tb_puts(b, " undefined |");
  } else {
    gbi_tb_puts(b, " ");
    gbi_tb_interval(b, iv->point, iv->lo, iv->hi, 3);
    gbi_tb_printf(b, " %s |", gb_reading_name(r));
  }
}

/* Campaign m against the first, configuration by configuration. */
static void change_table(gbi_textbuf *b, const gb_comparison *c, size_t m) {
  const gb_cmp_machine *first = &c->machines[0], *x = &c->machines[m];
  gbi_tb_puts(b, "\n###");
  name(b, c, m);
  gbi_tb_puts(b, " /");
  name(b, c, 0);
  gbi_tb_puts(b, "\n\n");
  if (!first->a->energy || !x->a->energy) {
    gbi_tb_puts(b, "Energy was not measured in");
    name(b, c, first->a->energy ? m : 0);
    gbi_tb_puts(b, ": time ratios only.\n\n");
  }
  gbi_tb_puts(b, "| configuration | time per sort | energy per sort | net power |\n"
                 "|---|---|---|---|\n");
  for (size_t i = 0; i < c->n_configs; i++) {
    const gb_cmp_change *ch = &c->configs[i].change[m];
    char key[96];
    gb_an_config_label(c->configs[i].config[0], key, sizeof key);
    gbi_tb_printf(b, "| %s |", key);
    gbi_cmp_md_change_cell(b, &ch->ratio.time, ch->time_reading, ch->computed);
    gbi_cmp_md_change_cell(b, &ch->ratio.energy, ch->energy_reading,
                           ch->computed && ch->energy);
    gbi_cmp_md_change_cell(b, &ch->ratio.power, ch->ratio.reading, ch->computed && ch->energy);
    gbi_tb_puts(b, "\n");
  }
}

void gbi_cmp_md_change_intro(gbi_textbuf *b, const gb_analysis_opts *o) {
  gbi_tb_printf(b,
                "Each cell: the ratio of a campaign's median to the first one's (net power "
                "by the %s estimator) with its %g%% interval from two independent bootstraps, "
                "and its reading against the margin %g (same: inside it; differs: the "
                "interval excludes 1; inconclusive: neither).\n",
                gb_power_estimator_name(o->power_estimator), o->level * 100.0, o->margin);
}

static void changes(gbi_textbuf *b, const gb_comparison *c) {
  gbi_tb_puts(b, "\n## Against");
  name(b, c, 0);
  gbi_tb_puts(b, ": ratios per configuration\n\n");
  gbi_cmp_md_change_intro(b, &c->opts);
  for (size_t m = 1; m < c->n; m++) {
    change_table(b, c, m);
  }
}

static void group_cell(gbi_textbuf *b, const gb_an_group *g) {
  gbi_tb_puts(b, " ");
  gbi_tb_sig(b, g->power[0], 3);
  gbi_tb_puts(b, " (time ");
  gbi_tb_sig(b, g->time[0], 3);
  gbi_tb_puts(b, ") |");
}

static void groups(gbi_textbuf *b, const gb_comparison *c) {
  gbi_tb_puts(b, "\n## Questions 2 and 3: median power ratio (time ratio) per group\n\n");
  const gb_analysis *a0 = c->machines[0].a;
  header_row(b, c, "group", NULL);
  for (size_t i = 0; i < a0->n_groups; i++) {
    const gb_an_group *g = &a0->groups[i];
    if (g->family == GB_AN_LANGUAGES) {
      gbi_tb_printf(b, "| %s / %s, %s |", gb_language_name(g->la), gb_language_name(g->lb),
                    gb_algorithm_name(g->algorithm));
    } else {
      gbi_tb_printf(b, "| %s, %s, %s / random |", gb_language_name(g->la),
                    gb_algorithm_name(g->algorithm), gb_order_name(g->order));
    }
    for (size_t m = 0; m < c->n; m++) {
      const gb_analysis *a = c->machines[m].a;
      const gb_an_group *h = NULL;
      for (size_t k = 0; k < a->n_groups && !h; k++) {
        const gb_an_group *q = &a->groups[k];
        h = q->family == g->family && q->la == g->la && q->lb == g->lb &&
                    q->algorithm == g->algorithm && q->order == g->order
                ? q
                : NULL;
      }
      if (h) {
        group_cell(b, h);
      } else {
        gbi_tb_puts(b, " n/a |");
      }
    }
    gbi_tb_puts(b, "\n");
  }
}

static void ratio_cell(gbi_textbuf *b, const gb_an_ratio *r, bool energy) {
  gbi_tb_puts(b, " ");
  if (!r->computed) {
    gbi_tb_puts(b, "not measured |");
  } else if (!energy) {
    gbi_tb_puts(b, "pending (time ");
    gbi_tb_interval(b, r->ratio.time.point, r->ratio.time.lo, r->ratio.time.hi, 3);
    gbi_tb_puts(b, ") |");
  } else {
    gbi_tb_interval(b, r->ratio.power.point, r->ratio.power.lo, r->ratio.power.hi, 3);
    gbi_tb_printf(b, " %s |", gb_reading_name(r->ratio.reading));
  }
}

static void ratios(gbi_textbuf *b, const gb_comparison *c) {
  gbi_tb_printf(b,
                "\n## Power ratios per configuration (%zu common to all the %s)\n\n"
                "Each cell: the power ratio A / B with its %g%% interval and its reading.\n\n",
                c->n_ratios, noun(c), c->opts.level * 100.0);
  header_row(b, c, "A / B", "readings agree");
  for (size_t i = 0; i < c->n_ratios; i++) {
    const gb_cmp_ratio *x = &c->ratios[i];
    char la[96], lb[96];
    gb_an_config_label(x->a, la, sizeof la);
    gb_an_config_label(x->b, lb, sizeof lb);
    gbi_tb_printf(b, "| %s / %s |", la, lb);
    for (size_t m = 0; m < c->n; m++) {
      ratio_cell(b, x->ratio[m], c->machines[m].a->energy);
    }
    gbi_tb_printf(b, " %s |\n", x->readings_agree ? "yes" : "no");
  }
}

static void ranks(gbi_textbuf *b, const gb_comparison *c) {
  gbi_tb_printf(b,
                "\n## Rank agreement of time per sort\n\n"
                "Spearman's rho between two columns' median times per sort over the "
                "configurations both measured, with its %g%% bootstrap interval.\n\n"
                "| %s | configurations | rho | verdicts agree |\n|---|---|---|---|\n",
                c->opts.level * 100.0, noun(c));
  for (size_t i = 0; i < c->n_pairs; i++) {
    const gb_cmp_pair *p = &c->pairs[i];
    gbi_tb_puts(b, "|");
    name(b, c, p->i);
    gbi_tb_puts(b, ",");
    name(b, c, p->j);
    gbi_tb_printf(b, " | %zu | ", p->k);
    if (p->time_rank.point.defined) {
      gbi_tb_interval(b, p->time_rank.point.rho, p->time_rank.lo, p->time_rank.hi, 3);
    } else {
      gbi_tb_puts(b, "n/a");
    }
    gbi_tb_printf(b, " | %s |\n", p->verdicts_agree ? "yes" : "no");
  }
}

int gb_compare_md(const gb_comparison *c, char **out, size_t *len, gb_err *err) {
  gbi_tb_numeric loc;
  gbi_tb_c_numeric(&loc);
  gbi_textbuf b;
  gbi_tb_init(&b);
  gbi_tb_printf(&b, "# greenbench: %zu %s compared\n\n", c->n, noun(c));
  gbi_tb_printf(&b,
                "Bootstrap: %zu resamples per configuration, seed %llu; margin of the "
                "power-ratio readings %g; net power by the %s estimator (ADR 0015). Chart: "
                "[compare.svg](compare.svg).\n\n",
                c->opts.resamples, (unsigned long long)c->opts.seed, c->opts.margin,
                gb_power_estimator_name(c->opts.power_estimator));
  machines(&b, c);
  left_out(&b, c);
  verdicts(&b, c);
  changes(&b, c);
  groups(&b, c);
  ranks(&b, c);
  ratios(&b, c);
  gbi_tb_restore_numeric(&loc);
  return gbi_tb_take(&b, out, len, "compare.md", err);
}
