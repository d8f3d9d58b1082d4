/* results.md's data checks and the seven measurement traps
 * (docs/methods.md), from the analysis's checks and counts. */
#include "report_md_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Data checks ------------------------------------------------------------------ */

static void status_counts(gbi_textbuf *b, const size_t *by_status) {
  const char *sep = "";
  for (int s = GB_REC_STATUS_OK + 1; s < GB_REC_STATUS_COUNT; s++) {
    if (by_status[s] > 0) {
      gbi_tb_printf(b, "%s%zu %s", sep, by_status[s], gb_rec_status_name((gb_rec_status)s));
      sep = ", ";
    }
  }
  if (!*sep) {
    gbi_tb_puts(b, "none");
  }
}

static void check_loops(md *d) {
  const gb_an_checks *k = &d->a->checks;
  gbi_tb_printf(d->b,
                "- **Sort loops**: %zu of %zu measured loops fell short of the %" PRIu64
                " ms target",
                k->loops_short, k->loops, d->m->settings.target_ms);
  if (k->loops > 0) {
    gbi_tb_puts(d->b, "; the shortest lasted ");
    gbi_tb_sig(d->b, (double)k->shortest_loop_ns * 1e-6, SIG);
    gbi_tb_puts(d->b, " ms");
  }
  gbi_tb_printf(d->b,
                " (sorts per process were calibrated during warm-up to aim %.6g%% above the "
                "target).\n",
                100.0 * (GB_META_CALIBRATION_HEADROOM_NUM - GB_META_CALIBRATION_HEADROOM_DEN) /
                    GB_META_CALIBRATION_HEADROOM_DEN);
}

/* A list of n configurations after a check's sentence: ": " and the items,
 * folded away behind "the n" when long; list_close ends it. */
static const char *list_open(md *d, size_t n) {
  if (n > FOLD_ROWS) {
    gbi_tb_printf(d->b, ": <details><summary>the %zu</summary>", n);
    return "";
  }
  return ": ";
}

static void list_close(md *d, size_t n) {
  gbi_tb_puts(d->b, n > FOLD_ROWS ? ".</details>\n" : ".\n");
}

/* The configurations flagged() picks, n of them, listed after a check's
 * sentence (folded when long), each as its label and what print_one adds;
 * "." alone when there are none. */
static void list_flagged(md *d, size_t n, bool (*flagged)(const gb_an_config *),
                         void (*print_one)(md *, const gb_an_config *)) {
  if (n == 0) {
    gbi_tb_puts(d->b, ".\n");
    return;
  }
  const char *sep = list_open(d, n);
  for (size_t i = 0; i < d->a->n_configs; i++) {
    const gb_an_config *c = &d->a->configs[i];
    if (!flagged(c)) {
      continue;
    }
    char label[96];
    gb_an_config_label(c, label, sizeof label);
    gbi_tb_printf(d->b, "%s%s", sep, label);
    print_one(d, c);
    sep = ", ";
  }
  list_close(d, n);
}

static bool is_nonpositive(const gb_an_config *c) {
  return c->nonpositive_time || c->nonpositive_energy;
}

static void print_nonpositive(md *d, const gb_an_config *c) {
  gbi_tb_printf(d->b, " (%s)",
                c->nonpositive_time && c->nonpositive_energy ? "time and energy"
                : c->nonpositive_time                        ? "time"
                                                             : "energy");
}

/* Configurations whose time or energy per sort is not above 0, every one
 * listed (folded when long). */
static void check_nonpositive(md *d) {
  size_t n = d->a->checks.nonpositive;
  gbi_tb_printf(d->b,
                "- **Per-sort figures above 0**: %zu of %zu measured configurations have a "
                "median time or energy per sort of zero or below (the startup cost "
                "subtracted is as large as the sort)",
                n, d->a->checks.configs_measured);
  list_flagged(d, n, is_nonpositive, print_nonpositive);
}

static bool fails_loop_check(const gb_an_config *c) {
  return c->loop_disagrees || c->cpu_above_wall;
}

static void print_loop_check(md *d, const gb_an_config *c) {
  const gb_interval *t = &c->boot.est[GB_EST_TIME_PER_SORT];
  gbi_tb_puts(d->b, " (time per sort ");
  gbi_tb_interval(d->b, t->point * 1e-3, t->lo * 1e-3, t->hi * 1e-3, SIG);
  gbi_tb_puts(d->b, " µs, loop ");
  gbi_tb_sig(d->b, c->loop_per_sort_ns * 1e-3, SIG);
  gbi_tb_puts(d->b, " µs");
  if (c->cpu_above_wall) {
    gbi_tb_puts(d->b, ", CPU ");
    gbi_tb_sig(d->b, c->boot.est[GB_EST_CPU_PER_SORT].point * 1e-3, SIG);
    gbi_tb_puts(d->b, " µs: impossible");
  }
  gbi_tb_puts(d->b, ")");
}

/* The loop-time cross-check: every configuration that fails it listed
 * with both figures (folded when long). */
static void check_loop_time(md *d) {
  const gb_an_checks *k = &d->a->checks;
  gbi_tb_printf(d->b,
                "- **Loop time** (time per sort from process time minus the startup median, "
                "against the worker's own loop time per sort: outside the interval or more "
                "than %.6g%% away): %zu of %zu configurations with a loop time disagree",
                100.0 * GB_ANALYSIS_LOOP_TOLERANCE, k->loop_disagrees, k->loop_checked);
  gbi_tb_printf(d->b,
                "; CPU time per sort above time per sort times the %" PRIu64
                " CPU%s the workers could use, which is impossible: %zu",
                k->worker_cpus, k->worker_cpus == 1 ? "" : "s", k->cpu_above_wall);
  size_t n = 0;
  for (size_t i = 0; i < d->a->n_configs; i++) {
    n += fails_loop_check(&d->a->configs[i]);
  }
  list_flagged(d, n, fails_loop_check, print_loop_check);
}

static void check_plateau(md *d) {
  const gb_an_checks *k = &d->a->checks;
  gbi_tb_printf(d->b,
                "- **Warm-up plateau** (the last two warm-ups' loop times per sort within "
                "%.6g%% of each other): %zu configurations reached it, %zu did not, %zu could "
                "not be checked",
                100.0 * GB_ANALYSIS_PLATEAU_TOLERANCE, k->plateau[GB_AN_PLATEAU_YES],
                k->plateau[GB_AN_PLATEAU_NO], k->plateau[GB_AN_PLATEAU_UNCHECKED]);
  if (!d->a->records->has_warmups) {
    gbi_tb_puts(d->b, " (no warmups.csv in the records)");
  } else if (k->plateau[GB_AN_PLATEAU_UNCHECKED] > 0) {
    gbi_tb_puts(d->b, " (fewer than two ok warm-ups)");
  }
  /* Every one is listed, never cut; a long list folds away. */
  size_t missed = k->plateau[GB_AN_PLATEAU_NO];
  bool fold = missed > FOLD_ROWS;
  const char *sep = fold ? ": <details><summary>the " : ": ";
  if (fold) {
    gbi_tb_printf(d->b, "%s%zu that did not</summary>", sep, missed);
    sep = "";
  }
  for (size_t i = 0; i < d->a->n_configs && missed > 0; i++) {
    const gb_an_config *c = &d->a->configs[i];
    if (c->plateau != GB_AN_PLATEAU_NO) {
      continue;
    }
    char label[96];
    gb_an_config_label(c, label, sizeof label);
    gbi_tb_printf(d->b, "%s%s (", sep, label);
    gbi_tb_sig(d->b, c->warmup_prev_ns * 1e-3, SIG);
    gbi_tb_puts(d->b, " then ");
    gbi_tb_sig(d->b, c->warmup_last_ns * 1e-3, SIG);
    gbi_tb_puts(d->b, " µs)");
    sep = ", ";
  }
  gbi_tb_puts(d->b, fold ? ".</details>\n" : ".\n");
}

static void check_throttle(md *d) {
  const gb_an_checks *k = &d->a->checks;
  if (k->freq_runs == 0) {
    gbi_tb_puts(d->b, "- **Throttling**: not checked; no run recorded its CPU frequency");
  } else {
    gbi_tb_printf(d->b,
                  "- **Throttling**: %zu of the %zu ok sorting runs with a frequency at "
                  "both ends ended more than %.6g%% below their starting frequency",
                  k->throttled, k->freq_runs, 100.0 * GB_ANALYSIS_THROTTLE_DROP);
  }
  if (k->has_temp) {
    gbi_tb_puts(d->b, "; package temperature from ");
    gbi_tb_sig(d->b, (double)k->temp_min_mc / 1000.0, 3);
    gbi_tb_puts(d->b, " to ");
    gbi_tb_sig(d->b, (double)k->temp_max_mc / 1000.0, 3);
    gbi_tb_puts(d->b, " °C");
  } else {
    gbi_tb_puts(d->b, "; no temperature recorded");
  }
  gbi_tb_puts(d->b, ".\n");
}

/* Configurations whose records fail validation, listed folded. */
static void check_validity(md *d) {
  gbi_textbuf *b = d->b;
  size_t bad = d->a->checks.invalid;
  gbi_tb_printf(b,
                "- **Validity** (every planned run present and ok, parity held, startup "
                "complete%s): %zu of %zu configurations valid.\n",
                d->a->energy ? ", energy on every row" : "", d->a->n_configs - bad,
                d->a->n_configs);
  if (bad == 0) {
    return;
  }
  gbi_tb_puts(b, "\n");
  md_details_open(b);
  gbi_tb_printf(b, "Invalid configurations (%zu)", bad);
  md_details_body(b);
  for (size_t i = 0; i < d->a->n_configs; i++) {
    const gb_an_config *c = &d->a->configs[i];
    if (!c->valid) {
      gbi_tb_puts(b, "- ");
      md_text(b, c->invalid_reason);
      gbi_tb_puts(b, "\n");
    }
  }
  gbi_tb_puts(b, "\n</details>\n\n");
}

void md_section_checks(md *d) {
  gbi_textbuf *b = d->b;
  const gb_an_checks *k = &d->a->checks;
  gbi_tb_printf(b,
                "## Data checks\n\n- **Runs**: %zu rows in runs.csv, %zu ok; not ok: ", k->rows,
                k->by_status[GB_REC_STATUS_OK]);
  status_counts(b, k->by_status);
  gbi_tb_printf(b,
                ". Only ok runs enter the statistics. %zu of %zu configurations measured, "
                "%zu without any row.\n",
                k->configs_measured, k->configs, k->configs_without_rows);
  check_validity(d);
  check_loops(d);
  check_nonpositive(d);
  check_loop_time(d);
  check_plateau(d);
  check_throttle(d);
  gbi_tb_printf(b, "- **Pinning**: %s.\n",
                d->m->pinning.rule_held ? "the rule held (two CPUs on different physical cores "
                                          "of one package, not CPU 0 or its sibling)"
                                        : "relaxed: the rule did not hold on this machine (see "
                                          "What was measured)");
  if (d->a->n_warnings == 0) {
    gbi_tb_puts(b, "- **Warnings**: none.\n\n");
    return;
  }
  gbi_tb_printf(b, "- **Warnings** (%zu):\n", d->a->n_warnings);
  for (size_t i = 0; i < d->a->n_warnings; i++) {
    gbi_tb_puts(b, "  - ");
    md_text(b, d->a->warnings[i].text);
    gbi_tb_puts(b, "\n");
  }
  gbi_tb_puts(b, "\n");
}

/* ---- The seven measurement traps (docs/methods.md) ----------------------------------- */

/* Each trap's name and the anchor of its section in docs/methods.md, whose
 * headings are "N. Name": keep the two in step. */
static const struct {
  const char *name, *anchor;
} traps[] = {
    {"The first runs lie", "1-the-first-runs-lie"},
    {"Wall-clock is not CPU time", "2-wall-clock-is-not-cpu-time"},
    {"One run proves nothing", "3-one-run-proves-nothing"},
    {"The median hides the tail", "4-the-median-hides-the-tail"},
    {"System noise", "5-system-noise"},
    {"A number without its uncertainty", "6-a-number-without-its-uncertainty"},
    {"Dead-code elimination", "7-dead-code-elimination"},
};

/* The start of trap n's row (1-based). The section is named by its path in
 * the repository, not linked: the report is read both in docs/ and in a
 * records folder, where no one relative link would resolve. */
static void remedy(gbi_textbuf *b, int n, bool applied) {
  gbi_tb_printf(b, "| %d | %s (`docs/methods.md#%s`) | %s | ", n, traps[n - 1].name,
                traps[n - 1].anchor, applied ? "yes" : "partly");
}

void md_section_remedies(md *d) {
  gbi_textbuf *b = d->b;
  const gb_analysis *a = d->a;
  const gb_settings *s = &d->m->settings;
  const gb_an_remedies r = a->remedies;
  gbi_tb_puts(b,
              "## How the seven measurement traps were met\n\n"
              "Each trap, and what greenbench does about it, is explained in docs/methods.md "
              "of the greenbench repository; the path beside each trap's name points to its "
              "section.\n\n"
              "| # | Trap | Applied | How, from these records |\n|---|---|---|---|\n");
  remedy(b, 1, s->warmups > 0 && a->checks.plateau[GB_AN_PLATEAU_YES] == a->n_configs);
  gbi_tb_printf(b,
                "%" PRIu64 " warm-up runs per configuration, discarded; sorts per process "
                "calibrated from them (%zu calibrations in meta.json); plateau reached in %zu, "
                "missed in %zu, unchecked in %zu configurations |\n",
                s->warmups, d->m->n_calibration, a->checks.plateau[GB_AN_PLATEAU_YES],
                a->checks.plateau[GB_AN_PLATEAU_NO],
                a->checks.plateau[GB_AN_PLATEAU_UNCHECKED]);
  remedy(b, 2, r.with_cpu == r.sort_ok);
  gbi_tb_printf(b,
                "wall time (CLOCK_MONOTONIC_RAW) and user + system CPU time recorded on %zu of "
                "%zu ok sorting runs; CPU time per sort reported beside time per sort |\n",
                r.with_cpu, r.sort_ok);
  remedy(b, 3, s->runs >= GB_ANALYSIS_MIN_RUNS);
  gbi_tb_printf(b,
                "%" PRIu64 " measured runs per configuration, each its own process; the "
                "median is the central value, never the mean |\n",
                s->runs);
  remedy(b, 4, true);
  gbi_tb_printf(b,
                "p95, min and max of process time per configuration; %zu high and %zu low "
                "Tukey outliers counted, none dropped |\n",
                r.high_outliers, r.low_outliers);
  remedy(b, 5, d->m->pinning.rule_held && r.with_freq == r.sort_ok);
  gbi_tb_puts(b, "pinned to CPUs ");
  md_text(b, d->m->pinning.cpus[0] ? d->m->pinning.cpus : "(none)");
  gbi_tb_printf(b,
                " (rule %s); all measured runs in one shuffled order (seed %" PRIu64
                "); frequency recorded on %zu of %zu ok sorting runs, %zu throttled |\n",
                d->m->pinning.rule_held ? "held" : "relaxed", s->order_seed, r.with_freq,
                r.sort_ok, a->checks.throttled);
  remedy(b, 6, true);
  gbi_tb_printf(b,
                "%s percentile-bootstrap intervals from %zu resamples per configuration, "
                "seed %" PRIu64 "; ratios read against a ",
                d->level, a->opts.resamples, a->opts.seed);
  md_margin_text(d);
  gbi_tb_puts(b, " margin fixed in advance; an interval that includes 1 is never read as no "
                 "difference |\n");
  remedy(b, 7, r.with_counts == r.sort_ok);
  gbi_tb_printf(b,
                "every worker checks its sorted result and reports its comparisons, writes "
                "and input hash: recorded on %zu of %zu ok sorting runs and compared across "
                "runs and languages (Validity, above) |\n\n",
                r.with_counts, r.sort_ok);
}
