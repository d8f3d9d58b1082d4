/* results.md. Sections follow study.md: what was measured, the answers to
 * the three questions as the data support them, the tables, the data
 * checks, the seven measurement traps (docs/methods.md), the chart and the
 * method notes. Every sentence that states a result is built from counts and
 * intervals of the analysis (which decides; the writer only words it). This
 * file holds the entry point, what was measured, the chart and the notes;
 * the other sections are in report_md_*.c. */
#include "report_md_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* A share as a percentage, "95%", "2.5%" (at most 6 significant digits). */
static void percent(char *buf, size_t len, double share) {
  snprintf(buf, len, "%.6g%%", share * 100.0);
}

/* ---- What was measured ------------------------------------------------------ */

/* The names of a list's values (a bitmask over all[]), in enum order. */
static void list_names(gbi_textbuf *b, unsigned mask, const char *const *all) {
  const char *sep = "";
  for (unsigned v = 0; gb_bits_next(mask, &v); v++) {
    gbi_tb_puts(b, sep);
    gbi_tb_puts(b, all[v]);
    sep = ", ";
  }
}

static void settings_line(md *d) {
  const gb_settings *s = &d->m->settings;
  list_names(d->b, s->languages, gb_language_names);
  gbi_tb_puts(d->b, " × ");
  list_names(d->b, s->algorithms, gb_algorithm_names);
  gbi_tb_puts(d->b, " × ");
  list_names(d->b, s->orders, gb_order_names);
  gbi_tb_puts(d->b, " × sizes ");
  for (size_t i = 0; i < s->nsizes; i++) {
    gbi_tb_printf(d->b, "%s%" PRIu64, i ? ", " : "", s->sizes[i]);
  }
  size_t product = gb_bits_count(s->languages) * gb_bits_count(s->algorithms) *
                   gb_bits_count(s->orders) * s->nsizes;
  if (product != d->a->n_configs) {
    gbi_tb_printf(d->b, ", less the %zu configurations not selected (meta.json, settings.omit)",
                  product - d->a->n_configs);
  }
  gbi_tb_printf(d->b,
                " (%zu configurations); %" PRIu64 " measured runs per configuration and per "
                "startup trial, %" PRIu64 " warm-ups per configuration",
                d->a->n_configs, s->runs, s->warmups);
  const gb_an_checks *k = &d->a->checks;
  if (k->warmups_extended > 0) {
    gbi_tb_printf(d->b,
                  " (%zu of them extended warm-up to reach a plateau, up to %zu warm-ups)",
                  k->warmups_extended, k->warmups_most);
  }
  gbi_tb_printf(d->b, "; sort loops aimed at %" PRIu64 " ms or more", s->target_ms);
}

static void row_begin(gbi_textbuf *b, const char *name) {
  gbi_tb_printf(b, "| %s | ", name);
}

static void energy_row(md *d) {
  const gb_meta *m = d->m;
  row_begin(d->b, "Energy");
  gbi_tb_puts(d->b, gb_rec_energy_name(m->energy.status));
  if (m->energy.status == GB_REC_ENERGY_OK) {
    gbi_tb_puts(d->b, ": RAPL zones ");
    for (size_t i = 0; i < m->energy.n_zones; i++) {
      gbi_tb_puts(d->b, i ? ", " : "");
      md_text(d->b, m->energy.zones[i].name);
      gbi_tb_printf(d->b, " (%s, socket %" PRIu64 ")",
                    gb_meta_zone_kind_name(m->energy.zones[i].kind), m->energy.zones[i].socket);
    }
  }
  if (m->energy.reason[0]) {
    gbi_tb_puts(d->b, m->energy.status == GB_REC_ENERGY_OK ? "; " : ": ");
    md_text(d->b, m->energy.reason);
  }
  gbi_tb_printf(d->b, " (mode %s) |\n", gb_energy_mode_name(m->settings.energy));
}

static void pinning_row(md *d) {
  const gb_meta *m = d->m;
  row_begin(d->b, "Pinning");
  if (m->pinning.cpus[0]) {
    gbi_tb_puts(d->b, "CPUs ");
    md_text(d->b, m->pinning.cpus);
  } else {
    gbi_tb_puts(d->b, "not pinned");
  }
  gbi_tb_puts(d->b, m->pinning.rule_held ? "; the pinning rule held"
                                         : "; the pinning rule was relaxed");
  if (m->pinning.reason[0]) {
    gbi_tb_puts(d->b, ": ");
    md_text(d->b, m->pinning.reason);
  }
  if (m->pinning.has_numa_node) {
    gbi_tb_printf(d->b, "; NUMA node %" PRIu64 ", memory %s", m->pinning.numa_node,
                  m->pinning.memory_bound ? "bound to it" : "not bound");
  }
  gbi_tb_puts(d->b, " |\n");
}

static void text_row(md *d, const char *name, bool has, const char *value) {
  row_begin(d->b, name);
  if (has && value[0]) {
    md_text(d->b, value);
  } else {
    gbi_tb_puts(d->b, "not recorded");
  }
  gbi_tb_puts(d->b, " |\n");
}

static void runtimes_row(md *d) {
  row_begin(d->b, "Runtimes");
  const char *sep = "";
  for (gb_language l = 0; gb_bits_next(d->m->settings.languages, &l); l++, sep = "; ") {
    gbi_tb_printf(d->b, "%s%s: ", sep, gb_language_title(l));
    md_text(d->b, d->m->runtimes[l][0] ? d->m->runtimes[l] : "not recorded");
  }
  gbi_tb_puts(d->b, " |\n");
}

static void campaign_row(md *d) {
  const gb_meta *m = d->m;
  row_begin(d->b, "Campaign");
  md_text(d->b, m->started_at);
  if (m->has_finished_at) {
    gbi_tb_puts(d->b, " to ");
    md_text(d->b, m->finished_at);
  }
  gbi_tb_printf(d->b, "; %s: %" PRIu64 " of %" PRIu64 " planned runs done |\n",
                m->completed ? "completed" : "NOT completed", m->runs_done,
                m->plan.measured_runs);
}

void md_section_measured(md *d) {
  const gb_meta *m = d->m;
  gbi_textbuf *b = d->b;
  gbi_tb_puts(b, "## What was measured\n\n| | |\n|---|---|\n");
  row_begin(b, "Machine");
  md_text(b, m->machine.cpu_model);
  gbi_tb_printf(b, ", %" PRIu64 " CPUs online |\n", m->machine.cpus_online);
  text_row(d, "Kernel", true, m->machine.kernel);
  row_begin(b, "Commit");
  md_code(b, m->git_commit);
  gbi_tb_puts(b, " (greenbench ");
  md_text(b, m->tool_version);
  gbi_tb_puts(b, ") |\n");
  row_begin(b, "Profile");
  gbi_tb_printf(b, "%s: ", gb_profile_name(m->settings.profile));
  settings_line(d);
  gbi_tb_puts(b, " |\n");
  campaign_row(d);
  energy_row(d);
  pinning_row(d);
  text_row(d, "Governor", m->machine.has_governor, m->machine.governor);
  text_row(d, "Turbo / boost", m->machine.has_turbo, m->machine.turbo);
  runtimes_row(d);
  row_begin(b, "Seeds");
  gbi_tb_printf(b, "input %" PRIu64 ", order of measured runs %" PRIu64 " |\n",
                m->settings.seed, m->settings.order_seed);
  row_begin(b, "Command");
  md_code(b, m->command_line);
  gbi_tb_puts(b, " |\n");
  row_begin(b, "This report");
  gbi_tb_printf(b,
                "`greenbench report --resamples %zu --seed %" PRIu64
                " --equivalence-margin %.6g --power-estimator %s%s`; %s percentile-bootstrap "
                "intervals |\n\n",
                d->a->opts.resamples, d->a->opts.seed, d->a->opts.margin,
                gb_power_estimator_name(d->a->opts.power_estimator),
                d->a->opts.startup_fixed ? " --startup-fixed" : "", d->level);
}

/* ---- Chart and method notes ------------------------------------------------------------ */

static void section_chart(md *d) {
  gbi_textbuf *b = d->b;
  if (!d->o->chart_href) {
    return;
  }
  gbi_tb_puts(b, "## Chart\n\n");
  if (d->a->energy) {
    gbi_tb_puts(b, "![Energy per sort against time per sort, log-log, one mark per "
                   "configuration; dashed lines of constant net power](");
  } else {
    gbi_tb_puts(b, "![Time per sort against input size, log-log, one line per language and "
                   "algorithm, one panel per input order](");
  }
  for (const char *p = d->o->chart_href; *p; p++) {
    if (*p == ' ' || *p == '(' || *p == ')') {
      gbi_tb_printf(b, "%%%02X", (unsigned char)*p);
    } else {
      gbi_tb_putn(b, p, 1);
    }
  }
  gbi_tb_puts(b, ")\n\n");
  gbi_tb_puts(b, d->a->energy
                     ? "With the same net power everywhere, every mark would lie on one "
                       "dashed line: time would be a perfect stand-in for energy.\n\n"
                     : "Energy is pending, so the chart shows time alone.\n\n");
}

static void section_notes(md *d) {
  gbi_textbuf *b = d->b;
  gbi_tb_printf(b,
                "## Method notes\n\n"
                "- Quantiles, medians and percentile intervals all use one rule: Hyndman & Fan "
                "(1996) type 7, numpy's default (linear interpolation between order "
                "statistics).\n"
                "- Each configuration's ok runs are resampled with replacement %zu times "
                "(percentile bootstrap, Efron & Tibshirani 1993), keeping each run's time and "
                "energy together; every estimate of a configuration comes from the same "
                "resamples. %s\n"
                "- Each configuration draws from its own random stream (xoshiro256**, seed "
                "%" PRIu64 "), numbered by its key, so its intervals do not depend on which "
                "other configurations were measured or in what order they are processed.\n"
                "- Halving an interval costs about four times the runs.\n",
                d->a->opts.resamples,
                d->a->opts.startup_fixed
                    ? "The median startup cost per process subtracted is held fixed "
                      "(--startup-fixed), so its noise is not in the intervals."
                    : "Each resample also resamples the startup trial's batches of the "
                      "configuration's language, order and size and subtracts that "
                      "resample's median startup cost per process, so the startup's noise "
                      "is in every per-sort interval and the ratios built from them "
                      "(configurations that share a trial share its resample).",
                d->a->opts.seed);
  gbi_tb_printf(b,
                "- Each figure with an interval is printed to what the interval supports: "
                "%d significant digits of its half-width, and never more than %d significant "
                "digits; a median over a group of ratios, by the same rule with its range in "
                "place of the interval. summary.json holds every figure unrounded.\n"
                "- Marks: %s after a time or energy per sort at zero or below (the startup "
                "subtracted is as large as the sort); %s N of R after a ratio whose point "
                "estimate lies outside its interval, which stands on the N of R resamples in "
                "which the ratio is defined; \"U of N defined\" after a group median that "
                "stands on fewer than all of its ratios.\n\n",
                GB_INTERVAL_HALF_WIDTH_DIGITS, SIG, FLAG_NONPOSITIVE, FLAG_OUTSIDE);
}

static void header(md *d) {
  gbi_tb_puts(d->b, "# greenbench results\n\nIs run time a good stand-in for processor energy? "
                    "Generated by `greenbench report` from a campaign's records (runs.csv, "
                    "warmups.csv, meta.json); the same records and options always give these "
                    "same bytes.\n\n");
  if (!d->m->completed) {
    gbi_tb_puts(d->b, "> **Partial campaign.** The campaign did not complete; this report "
                      "covers the runs it recorded (--allow-partial).\n\n");
  }
  if (!d->a->energy) {
    gbi_tb_puts(d->b, "> **Energy pending.** ");
    md_pending_note(d);
    gbi_tb_puts(d->b, "Time and the exact operation counts stand on their own.\n\n");
  }
}

int gbi_report_md(const gb_analysis *a, const gbi_report_md_opts *opts, char **out, size_t *len,
                  gb_err *err) {
  gbi_textbuf b;
  gbi_tb_init(&b);
  gbi_tb_numeric loc;
  gbi_tb_c_numeric(&loc);
  md d = {.b = &b, .a = a, .o = opts, .m = &a->records->meta};
  percent(d.level, sizeof d.level, a->opts.level);
  percent(d.chance, sizeof d.chance, 1.0 - a->opts.level);
  header(&d);
  md_section_measured(&d);
  md_section_answers(&d);
  md_section_configs(&d);
  md_section_ratios(&d);
  md_section_ranks(&d);
  md_section_carbon(&d);
  md_section_checks(&d);
  md_section_remedies(&d);
  section_chart(&d);
  section_notes(&d);
  gbi_tb_restore_numeric(&loc);
  return gbi_tb_take(&b, out, len, "results.md", err);
}
