/* results.md. Sections follow study.md: what was measured, the answers to
 * the three questions as the data support them, the tables, the data
 * checks, the seven measurement traps (docs/methods.md), the chart and the
 * method notes. Every sentence that states a result is built from counts and
 * intervals of the analysis; where energy is pending it says so and answers
 * only what time and the exact operation counts can. */
#include "greenbench/report_md.h"

#include "textbuf.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/validate.h"

/* Tables longer than this are folded into <details>. */
#define FOLD_ROWS 10
#define SIG 4

typedef struct {
  gb_textbuf *b;
  const gb_analysis *a;
  const gb_report_md_opts *o;
  const gb_meta *m;
} md;

static const char *language_title(gb_rec_language l) {
  static const char *const names[] = {"C", "Python", "Node.js"};
  return (unsigned)l < GB_REC_LANG_COUNT ? names[l] : "?";
}

/* ---- Markdown text -------------------------------------------------------- */

/* Text safe inside a paragraph or a table cell: Markdown punctuation
 * backslash-escaped, line breaks and control characters as spaces. */
static void md_text(gb_textbuf *b, const char *s) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c < 0x20 || c == 0x7f) {
      gb_tb_putn(b, " ", 1);
    } else if (strchr("\\`*_[]<>|&~", c)) {
      char esc[2] = {'\\', (char)c};
      gb_tb_putn(b, esc, 2);
    } else {
      gb_tb_putn(b, s, 1);
    }
  }
}

/* A code span whose fence is longer than any run of backticks inside. */
static void md_code(gb_textbuf *b, const char *s) {
  size_t run = 0, longest = 0;
  for (const char *p = s; *p; p++) {
    run = *p == '`' ? run + 1 : 0;
    longest = run > longest ? run : longest;
  }
  for (size_t i = 0; i <= longest; i++) {
    gb_tb_puts(b, "`");
  }
  gb_tb_puts(b, longest ? " " : "");
  for (const char *p = s; *p; p++) {
    gb_tb_putn(b, (unsigned char)*p < 0x20 ? " " : p, 1);
  }
  gb_tb_puts(b, longest ? " " : "");
  for (size_t i = 0; i <= longest; i++) {
    gb_tb_puts(b, "`");
  }
}

static void fold_open(gb_textbuf *b, size_t rows, const char *what) {
  if (rows > FOLD_ROWS) {
    gb_tb_printf(b, "<details><summary>%s (%zu rows)</summary>\n\n", what, rows);
  }
}

static void fold_close(gb_textbuf *b, size_t rows) {
  gb_tb_puts(b, rows > FOLD_ROWS ? "\n</details>\n\n" : "\n");
}

/* ---- Numbers ---------------------------------------------------------------- */

static const char *missing_word(const gb_analysis *a) {
  return a->energy ? "missing" : "pending";
}

/* An estimate of c scaled to the table's unit, with its interval. */
static void est(md *d, const gb_an_config *c, gb_estimate e, double scale) {
  if (!c->measured) {
    gb_tb_puts(d->b, "not measured");
    return;
  }
  const gb_interval *iv = &c->boot.est[e];
  if (!iv->available) {
    gb_tb_puts(d->b, missing_word(d->a));
    return;
  }
  gb_tb_interval(d->b, iv->point * scale, iv->lo * scale, iv->hi * scale, SIG);
}

static void ratio_cell(md *d, const gb_an_ratio *r, const gb_interval *iv, bool energy) {
  if (!r->computed) {
    gb_tb_puts(d->b, "not measured");
  } else if (energy && !d->a->energy) {
    gb_tb_puts(d->b, "pending");
  } else if (isnan(iv->point)) {
    gb_tb_puts(d->b, energy ? "undefined" : "n/a");
  } else {
    gb_tb_interval(d->b, iv->point, iv->lo, iv->hi, SIG);
  }
}

static const char *reading_text(const gb_analysis *a, const gb_an_ratio *r) {
  if (!r->computed) {
    return "undefined (not measured)";
  }
  if (!a->energy) {
    return "pending";
  }
  switch (r->ratio.reading) {
  case GB_READING_SAME:
    return "same power";
  case GB_READING_DIFFERS:
    return "differs";
  case GB_READING_INCONCLUSIVE:
    return "inconclusive";
  default:
    return "undefined";
  }
}

/* ---- Summaries of groups of ratios --------------------------------------------- */

typedef struct {
  size_t n, computed;
  double time[3], energy[3], power[3]; /* median, min, max of the point ratios */
  size_t readings[4], above, below;    /* differs with power ratio > 1 / < 1 */
  size_t time_excluding;               /* time intervals excluding 1 */
} ratio_summary;

typedef bool (*ratio_filter)(const gb_analysis *a, const gb_an_ratio *r, const void *key);

static void median_range(double *v, size_t n, double out[3]) {
  out[0] = out[1] = out[2] = NAN;
  if (n > 0) {
    out[0] = gb_quantile_select(v, n, 0.5);
    out[1] = gb_quantile_select(v, n, 0.0);
    out[2] = gb_quantile_select(v, n, 1.0);
  }
}

static void summarise_points(const gb_analysis *a, const gb_an_ratio **sel, size_t n,
                             ratio_summary *s, double *tmp) {
  const size_t offs[3] = {offsetof(gb_ratio, time), offsetof(gb_ratio, energy),
                          offsetof(gb_ratio, power)};
  double *outs[3] = {s->time, s->energy, s->power};
  for (int k = 0; k < 3; k++) {
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
      const gb_interval *iv = (const gb_interval *)((const char *)&sel[i]->ratio + offs[k]);
      if (sel[i]->computed && !isnan(iv->point) && (k == 0 || a->energy)) {
        tmp[m++] = iv->point;
      }
    }
    median_range(tmp, m, outs[k]);
  }
}

static int summarise(const gb_analysis *a, ratio_filter f, const void *key, ratio_summary *s) {
  *s = (ratio_summary){0};
  const gb_an_ratio **sel = malloc((a->n_ratios + 1) * sizeof *sel);
  double *tmp = malloc((a->n_ratios + 1) * sizeof *tmp);
  if (!sel || !tmp) {
    free(sel);
    free(tmp);
    return -1;
  }
  for (size_t i = 0; i < a->n_ratios; i++) {
    const gb_an_ratio *r = &a->ratios[i];
    if (!f(a, r, key)) {
      continue;
    }
    sel[s->n++] = r;
    s->computed += r->computed;
    s->readings[r->ratio.reading]++;
    bool differs = r->ratio.reading == GB_READING_DIFFERS;
    s->above += differs && r->ratio.power.lo > 1.0;
    s->below += differs && r->ratio.power.hi < 1.0;
    s->time_excluding += r->computed && (r->ratio.time.lo > 1.0 || r->ratio.time.hi < 1.0);
  }
  summarise_points(a, sel, s->n, s, tmp);
  free(sel);
  free(tmp);
  return 0;
}

typedef struct {
  gb_an_family family;
  gb_rec_language la, lb; /* LANGUAGES: the pair; ORDERS: la is the language */
  gb_rec_algorithm algorithm;
  gb_rec_order order; /* ORDERS */
  bool any_algorithm, any_order, any_language;
} ratio_key;

static bool key_match(const gb_analysis *a, const gb_an_ratio *r, const void *vk) {
  const ratio_key *k = vk;
  const gb_an_config *x = &a->configs[r->a], *y = &a->configs[r->b];
  if (r->family != k->family || (!k->any_algorithm && x->algorithm != k->algorithm)) {
    return false;
  }
  if (k->family == GB_AN_LANGUAGES) {
    return k->any_language || (x->language == k->la && y->language == k->lb);
  }
  return (k->any_language || x->language == k->la) && (k->any_order || x->order == k->order);
}

static void range_cell(gb_textbuf *b, const double v[3]) {
  if (isnan(v[0])) {
    gb_tb_puts(b, "n/a");
    return;
  }
  gb_tb_sig(b, v[0], SIG);
  gb_tb_puts(b, " (");
  gb_tb_sig(b, v[1], SIG);
  gb_tb_puts(b, " to ");
  gb_tb_sig(b, v[2], SIG);
  gb_tb_puts(b, ")");
}

static void readings_cell(gb_textbuf *b, const ratio_summary *s, bool energy) {
  if (!energy) {
    gb_tb_puts(b, "pending");
    return;
  }
  gb_tb_printf(b, "%zu same, %zu differ, %zu inconclusive, %zu undefined",
               s->readings[GB_READING_SAME], s->readings[GB_READING_DIFFERS],
               s->readings[GB_READING_INCONCLUSIVE], s->readings[GB_READING_UNDEFINED]);
}

/* ---- What was measured ------------------------------------------------------ */

static void list_names(gb_textbuf *b, const char *const *names, size_t n) {
  for (size_t i = 0; i < n; i++) {
    gb_tb_puts(b, i ? ", " : "");
    gb_tb_puts(b, names[i]);
  }
}

static void settings_line(md *d) {
  const gb_meta_settings *s = &d->m->settings;
  const char *names[GB_META_MAX_SIZES];
  for (size_t i = 0; i < s->n_languages; i++) {
    names[i] = gb_rec_language_name(s->languages[i]);
  }
  list_names(d->b, names, s->n_languages);
  gb_tb_puts(d->b, " × ");
  for (size_t i = 0; i < s->n_algorithms; i++) {
    names[i] = gb_rec_algorithm_name(s->algorithms[i]);
  }
  list_names(d->b, names, s->n_algorithms);
  gb_tb_puts(d->b, " × ");
  for (size_t i = 0; i < s->n_orders; i++) {
    names[i] = gb_rec_order_name(s->orders[i]);
  }
  list_names(d->b, names, s->n_orders);
  gb_tb_puts(d->b, " × sizes ");
  for (size_t i = 0; i < s->n_sizes; i++) {
    gb_tb_printf(d->b, "%s%" PRIu64, i ? ", " : "", s->sizes[i]);
  }
  size_t product = s->n_languages * s->n_algorithms * s->n_orders * s->n_sizes;
  if (product != d->a->n_configs) {
    gb_tb_printf(d->b, ", less the %zu configurations not selected (meta.json, settings.omit)",
                 product - d->a->n_configs);
  }
  gb_tb_printf(d->b,
               " (%zu configurations); %" PRIu64 " measured runs per configuration and per "
               "startup trial, %" PRIu64 " warm-ups per configuration; sort loops aimed at "
               "%" PRIu64 " ms or more",
               d->a->n_configs, s->runs, s->warmups, s->target_ms);
}

static void row_begin(gb_textbuf *b, const char *name) {
  gb_tb_printf(b, "| %s | ", name);
}

static void energy_row(md *d) {
  const gb_meta *m = d->m;
  row_begin(d->b, "Energy");
  gb_tb_puts(d->b, gb_rec_energy_name(m->energy.status));
  if (m->energy.status == GB_REC_ENERGY_OK) {
    gb_tb_puts(d->b, ": RAPL zones ");
    for (size_t i = 0; i < m->energy.n_zones; i++) {
      gb_tb_puts(d->b, i ? ", " : "");
      md_text(d->b, m->energy.zones[i].name);
      gb_tb_printf(d->b, " (%s, socket %" PRIu64 ")",
                   gb_meta_zone_kind_name(m->energy.zones[i].kind), m->energy.zones[i].socket);
    }
  }
  if (m->energy.reason[0]) {
    gb_tb_puts(d->b, m->energy.status == GB_REC_ENERGY_OK ? "; " : ": ");
    md_text(d->b, m->energy.reason);
  }
  gb_tb_printf(d->b, " (mode %s) |\n", gb_meta_energy_mode_name(m->settings.energy));
}

static void pinning_row(md *d) {
  const gb_meta *m = d->m;
  row_begin(d->b, "Pinning");
  if (m->pinning.cpus[0]) {
    gb_tb_puts(d->b, "CPUs ");
    md_text(d->b, m->pinning.cpus);
  } else {
    gb_tb_puts(d->b, "not pinned");
  }
  gb_tb_puts(d->b, m->pinning.rule_held ? "; the pinning rule held"
                                        : "; the pinning rule was relaxed");
  if (m->pinning.reason[0]) {
    gb_tb_puts(d->b, ": ");
    md_text(d->b, m->pinning.reason);
  }
  if (m->pinning.has_numa_node) {
    gb_tb_printf(d->b, "; NUMA node %" PRIu64 ", memory %s", m->pinning.numa_node,
                 m->pinning.memory_bound ? "bound to it" : "not bound");
  }
  gb_tb_puts(d->b, " |\n");
}

static void text_row(md *d, const char *name, bool has, const char *value) {
  row_begin(d->b, name);
  if (has && value[0]) {
    md_text(d->b, value);
  } else {
    gb_tb_puts(d->b, "not recorded");
  }
  gb_tb_puts(d->b, " |\n");
}

static void runtimes_row(md *d) {
  row_begin(d->b, "Runtimes");
  for (size_t i = 0; i < d->m->settings.n_languages; i++) {
    gb_rec_language l = d->m->settings.languages[i];
    gb_tb_printf(d->b, "%s%s: ", i ? "; " : "", language_title(l));
    md_text(d->b, d->m->runtimes[l][0] ? d->m->runtimes[l] : "not recorded");
  }
  gb_tb_puts(d->b, " |\n");
}

static void campaign_row(md *d) {
  const gb_meta *m = d->m;
  row_begin(d->b, "Campaign");
  md_text(d->b, m->started_at);
  if (m->has_finished_at) {
    gb_tb_puts(d->b, " to ");
    md_text(d->b, m->finished_at);
  }
  gb_tb_printf(d->b, "; %s: %" PRIu64 " of %" PRIu64 " planned runs done |\n",
               m->completed ? "completed" : "NOT completed", m->runs_done,
               m->plan.measured_runs);
}

static void section_measured(md *d) {
  const gb_meta *m = d->m;
  gb_textbuf *b = d->b;
  gb_tb_puts(b, "## What was measured\n\n| | |\n|---|---|\n");
  row_begin(b, "Machine");
  md_text(b, m->machine.cpu_model);
  gb_tb_printf(b, ", %" PRIu64 " CPUs online |\n", m->machine.cpus_online);
  text_row(d, "Kernel", true, m->machine.kernel);
  row_begin(b, "Commit");
  md_code(b, m->git_commit);
  gb_tb_puts(b, " (greenbench ");
  md_text(b, m->tool_version);
  gb_tb_puts(b, ") |\n");
  row_begin(b, "Profile");
  gb_tb_printf(b, "%s: ", gb_meta_profile_name(m->profile));
  settings_line(d);
  gb_tb_puts(b, " |\n");
  campaign_row(d);
  energy_row(d);
  pinning_row(d);
  text_row(d, "Governor", m->machine.has_governor, m->machine.governor);
  text_row(d, "Turbo / boost", m->machine.has_turbo, m->machine.turbo);
  runtimes_row(d);
  row_begin(b, "Seeds");
  gb_tb_printf(b, "input %" PRIu64 ", order of measured runs %" PRIu64 " |\n", m->settings.seed,
               m->settings.order_seed);
  row_begin(b, "Command");
  md_code(b, m->command_line);
  gb_tb_puts(b, " |\n");
  row_begin(b, "This report");
  gb_tb_printf(b,
               "`greenbench report --resamples %zu --seed %" PRIu64
               " --equivalence-margin %.6g`; 95%% percentile-bootstrap intervals |\n\n",
               d->a->opts.resamples, d->a->opts.seed, d->a->opts.margin);
}

/* ---- The answers ------------------------------------------------------------- */

static void pending_note(md *d) {
  gb_tb_printf(d->b, "Energy was not measured in this campaign (energy %s",
               gb_rec_energy_name(d->m->energy.status));
  if (d->m->energy.reason[0]) {
    gb_tb_puts(d->b, ": ");
    md_text(d->b, d->m->energy.reason);
  }
  gb_tb_puts(d->b, "), so every energy, power and carbon figure below reads *pending*: energy "
                   "needs RAPL counters on Linux running directly on the hardware "
                   "(docs/bare-metal.md), and stays pending until the study runs there. ");
}

static void net_power_range(md *d) {
  double *v = malloc((d->a->n_configs + 1) * sizeof *v), r[3];
  size_t n = 0;
  for (size_t i = 0; v && i < d->a->n_configs; i++) {
    const gb_an_config *c = &d->a->configs[i];
    if (c->measured && c->boot.est[GB_EST_NET_POWER].available &&
        !isnan(c->boot.est[GB_EST_NET_POWER].point)) {
      v[n++] = c->boot.est[GB_EST_NET_POWER].point;
    }
  }
  median_range(v, n, r);
  free(v);
  if (n == 0) {
    return;
  }
  gb_tb_printf(d->b, "Net power above idle has a median of ");
  gb_tb_sig(d->b, r[0], 3);
  gb_tb_puts(d->b, " W across the ");
  gb_tb_printf(d->b, "%zu configurations with energy (from ", n);
  gb_tb_sig(d->b, r[1], 3);
  gb_tb_puts(d->b, " W to ");
  gb_tb_sig(d->b, r[2], 3);
  gb_tb_puts(d->b, " W). ");
}

static void overall_rho(md *d) {
  const gb_an_rank *k = &d->a->ranks[0];
  if (!k->computed || !k->rho.point.defined) {
    return;
  }
  gb_tb_printf(d->b,
               "Spearman's rho between median time and median energy per sort over all "
               "%zu configurations is ",
               k->k);
  gb_tb_interval(d->b, k->rho.point.rho, k->rho.lo, k->rho.hi, 3);
  gb_tb_puts(d->b, " (weaker evidence: it stays near 1 unless power differs enough to reorder "
                   "configurations). ");
}

/* The margin as given, "10%" for 0.10 (at most 6 significant digits). */
static void margin_text(md *d) {
  gb_tb_printf(d->b, "%.6g%%", d->a->opts.margin * 100.0);
}

/* The answer to question 1 as one bold sentence (gb_analysis_verdict). */
static void q1_verdict(md *d, const gb_an_tally *t) {
  gb_textbuf *b = d->b;
  switch (gb_analysis_verdict(t)) {
  case GB_AN_VERDICT_CANNOT:
    gb_tb_puts(b, "**Cannot be answered from these records: no power ratio is defined.**");
    break;
  case GB_AN_VERDICT_YES:
    gb_tb_puts(b, "**Yes: most power ratios read the same power within the margin, and no "
                  "more power intervals exclude 1 than chance alone would produce.**");
    break;
  case GB_AN_VERDICT_YES_BUT_DIFFERS:
    gb_tb_puts(b, "**Within the margin, yes; but power differs measurably: most power ratios "
                  "read the same power within ");
    margin_text(d);
    gb_tb_puts(b, ", so time predicts energy to within ");
    margin_text(d);
    gb_tb_puts(b, ", yet more power intervals exclude 1 than chance alone would produce.**");
    break;
  case GB_AN_VERDICT_TOO_NOISY:
    gb_tb_puts(b, "**Too noisy to decide: most defined power ratios are inconclusive.**");
    break;
  case GB_AN_VERDICT_NO:
    gb_tb_puts(b, "**No: too few power ratios read the same power within the margin; time is "
                  "not a reliable stand-in for energy here.**");
    break;
  }
  const gb_ratio_tally *y = &t->tally;
  if (gb_analysis_noisy(t)) {
    gb_tb_printf(b,
                 " Many readings are inconclusive: %zu of the %zu defined (one in %d or more "
                 "counts as many), so the measurements were too noisy to decide those "
                 "comparisons.",
                 y->readings[GB_READING_INCONCLUSIVE], y->defined,
                 GB_ANALYSIS_NOISY_SHARE_DEN / GB_ANALYSIS_NOISY_SHARE_NUM);
  }
  gb_tb_puts(b, "\n\n");
}

static void tally_sentence(md *d, const gb_an_tally *t) {
  const gb_ratio_tally *y = &t->tally;
  gb_tb_printf(d->b, "%zu read *same power within ", y->readings[GB_READING_SAME]);
  margin_text(d);
  gb_tb_printf(d->b,
               "*, %zu *differ*, %zu are *inconclusive* and %zu *undefined*. %zu of the %zu "
               "defined power intervals %s 1; chance alone would give about ",
               y->readings[GB_READING_DIFFERS], y->readings[GB_READING_INCONCLUSIVE],
               y->readings[GB_READING_UNDEFINED], y->excluding_one, y->defined,
               y->excluding_one == 1 ? "excludes" : "exclude");
  gb_tb_sig(d->b, y->expected_by_chance, 3);
  gb_tb_printf(d->b, " (5%%), and more than %zu only one time in 20. ", t->chance_bound);
}

static void answer_q1(md *d) {
  gb_textbuf *b = d->b;
  gb_tb_puts(b, "### 1. Time as a proxy: does energy follow time?\n\n");
  if (!d->a->energy) {
    gb_tb_puts(b, "**Pending.** ");
    pending_note(d);
    gb_tb_puts(b,
               "This question is about the power drawn while sorting, which needs energy; "
               "time alone cannot answer it. The time results below stand on their own.\n\n");
    return;
  }
  q1_verdict(d, &d->a->tally_all);
  gb_tb_printf(b, "Of the %zu power ratios (%zu between languages, %zu between input orders), ",
               d->a->tally_all.tally.total, d->a->tally_languages.tally.total,
               d->a->tally_orders.tally.total);
  tally_sentence(d, &d->a->tally_all);
  net_power_range(d);
  overall_rho(d);
  gb_tb_puts(b, "\n\n");
}

/* Q2's table: one row per language pair and algorithm. */
static int language_table(md *d) {
  gb_textbuf *b = d->b;
  static const gb_rec_language pairs[3][2] = {{GB_REC_LANG_PYTHON, GB_REC_LANG_C},
                                              {GB_REC_LANG_NODE, GB_REC_LANG_C},
                                              {GB_REC_LANG_PYTHON, GB_REC_LANG_NODE}};
  gb_tb_puts(b, "| Pair | Algorithm | Ratios | Time ratio, median (range) | Energy ratio | "
                "Power ratio | Power readings |\n|---|---|---|---|---|---|---|\n");
  for (int p = 0; p < 3; p++) {
    for (int g = 0; g < GB_REC_ALG_COUNT; g++) {
      ratio_key k = {.family = GB_AN_LANGUAGES,
                     .la = pairs[p][0],
                     .lb = pairs[p][1],
                     .algorithm = (gb_rec_algorithm)g};
      ratio_summary s;
      if (summarise(d->a, key_match, &k, &s) < 0) {
        return -1;
      }
      if (s.n == 0) {
        continue;
      }
      gb_tb_printf(b, "| %s / %s | %s | %zu | ", language_title(pairs[p][0]),
                   language_title(pairs[p][1]), gb_rec_algorithm_name(g), s.n);
      range_cell(b, s.time);
      gb_tb_puts(b, " | ");
      if (d->a->energy) {
        range_cell(b, s.energy);
        gb_tb_puts(b, " | ");
        range_cell(b, s.power);
      } else {
        gb_tb_puts(b, "pending | pending");
      }
      gb_tb_puts(b, " | ");
      readings_cell(b, &s, d->a->energy);
      gb_tb_puts(b, " |\n");
    }
  }
  gb_tb_puts(b, "\n");
  return 0;
}

/* Per-sort figures on random input (or the first order) by language. */
static void per_language_table(md *d, gb_estimate e, const char *what, double scale) {
  gb_textbuf *b = d->b;
  const gb_meta_settings *s = &d->m->settings;
  gb_rec_order order =
      gb_meta_has_order(d->m, GB_REC_ORDER_RANDOM) ? GB_REC_ORDER_RANDOM : s->orders[0];
  gb_tb_printf(b, "%s on %s input, median [95%% CI]:\n\n| Algorithm | Size |", what,
               gb_rec_order_name(order));
  for (size_t i = 0; i < s->n_languages; i++) {
    gb_tb_printf(b, " %s |", language_title(s->languages[i]));
  }
  gb_tb_puts(b, "\n|---|---|");
  for (size_t i = 0; i < s->n_languages; i++) {
    gb_tb_puts(b, "---|");
  }
  gb_tb_puts(b, "\n");
  for (int g = 0; g < GB_REC_ALG_COUNT; g++) {
    for (size_t z = 0; z < s->n_sizes; z++) {
      bool any = false;
      for (size_t i = 0; i < s->n_languages; i++) {
        any = any || gb_analysis_find(d->a, s->languages[i], g, order, s->sizes[z]);
      }
      if (!any) {
        continue;
      }
      gb_tb_printf(b, "| %s | %" PRIu64 " |", gb_rec_algorithm_name(g), s->sizes[z]);
      for (size_t i = 0; i < s->n_languages; i++) {
        const gb_an_config *c = gb_analysis_find(d->a, s->languages[i], g, order, s->sizes[z]);
        gb_tb_puts(b, " ");
        if (c) {
          est(d, c, e, scale);
        } else {
          gb_tb_puts(b, "not measured");
        }
        gb_tb_puts(b, " |");
      }
      gb_tb_puts(b, "\n");
    }
  }
  gb_tb_puts(b, "\n");
}

static int answer_q2(md *d) {
  gb_textbuf *b = d->b;
  gb_tb_puts(b, "### 2. Languages: is the energy ratio the same as the time ratio?\n\n");
  if (d->a->tally_languages.tally.total == 0) {
    gb_tb_puts(b, "Not asked: the campaign measured one language.\n\n");
    return 0;
  }
  if (d->a->energy) {
    gb_tb_printf(b, "Of the %zu power ratios between languages, ",
                 d->a->tally_languages.tally.total);
    tally_sentence(d, &d->a->tally_languages);
    gb_tb_puts(
        b, "A power ratio of 1 means the energy ratio equals the time ratio; the table "
           "gives the median and range of the point ratios over input orders and sizes.\n\n");
  } else {
    gb_tb_puts(b, "**Energy pending.** Only time can be compared: the table gives the time "
                  "ratios between languages (median and range over input orders and sizes); "
                  "whether the energy ratios match them is not known yet.\n\n");
  }
  if (language_table(d) < 0) {
    return -1;
  }
  if (d->a->energy) {
    per_language_table(d, GB_EST_ENERGY_PER_SORT, "Energy per sort (µJ)", 1.0);
  }
  per_language_table(d, GB_EST_TIME_PER_SORT, "Time per sort (µs)", 1e-3);
  return 0;
}

/* Exact comparison and write ratios of an order against random input, over
 * the sizes, from one language's counts (parity makes them the same in all). */
static void counts_ratio(md *d, gb_rec_language l, gb_rec_algorithm g, gb_rec_order o) {
  const gb_meta_settings *s = &d->m->settings;
  double v[GB_META_MAX_SIZES], r[3];
  size_t n = 0;
  for (size_t z = 0; z < s->n_sizes; z++) {
    const gb_an_config *x = gb_analysis_find(d->a, l, g, o, s->sizes[z]);
    const gb_an_config *y = gb_analysis_find(d->a, l, g, GB_REC_ORDER_RANDOM, s->sizes[z]);
    if (x && y && x->has_counts && y->has_counts && y->comparisons > 0) {
      v[n++] = (double)x->comparisons / (double)y->comparisons;
    }
  }
  median_range(v, n, r);
  range_cell(d->b, r);
}

static int order_row(md *d, gb_rec_language l, gb_rec_algorithm g, gb_rec_order o) {
  ratio_key k = {.family = GB_AN_ORDERS, .la = l, .algorithm = g, .order = o};
  ratio_summary s;
  if (summarise(d->a, key_match, &k, &s) < 0) {
    return -1;
  }
  if (s.n == 0) {
    return 0;
  }
  gb_textbuf *b = d->b;
  gb_tb_printf(b, "| %s | %s | %s / random | ", language_title(l), gb_rec_algorithm_name(g),
               gb_rec_order_name(o));
  counts_ratio(d, l, g, o);
  gb_tb_puts(b, " | ");
  range_cell(b, s.time);
  gb_tb_puts(b, " | ");
  if (d->a->energy) {
    range_cell(b, s.energy);
  } else {
    gb_tb_puts(b, "pending");
  }
  gb_tb_puts(b, " | ");
  readings_cell(b, &s, d->a->energy);
  gb_tb_puts(b, " |\n");
  return 1;
}

static size_t count_order_rows(md *d) {
  size_t n = 0;
  for (int l = 0; l < GB_REC_LANG_COUNT; l++) {
    for (int g = 0; g < GB_REC_ALG_COUNT; g++) {
      for (int o = GB_REC_ORDER_RANDOM + 1; o < GB_REC_ORDER_COUNT; o++) {
        bool row = false;
        for (size_t z = 0; z < d->m->settings.n_sizes && !row; z++) {
          uint64_t size = d->m->settings.sizes[z];
          row = gb_meta_plans(d->m, l, g, o, size) &&
                gb_meta_plans(d->m, l, g, GB_REC_ORDER_RANDOM, size);
        }
        n += row;
      }
    }
  }
  return n;
}

static int answer_q3(md *d) {
  gb_textbuf *b = d->b;
  gb_tb_puts(b,
             "### 3. Input order: does energy follow the order differences as time does?\n\n");
  if (d->a->tally_orders.tally.total == 0) {
    gb_tb_puts(b,
               "Not asked: the campaign did not measure random input and another order.\n\n");
    return 0;
  }
  if (d->a->energy) {
    gb_tb_printf(b, "Of the %zu power ratios between an input order and random input, ",
                 d->a->tally_orders.tally.total);
    tally_sentence(d, &d->a->tally_orders);
    gb_tb_puts(b, "\n\n");
  } else {
    gb_tb_puts(b, "**Energy pending.** The exact operation counts and time can be compared: "
                  "the table sets the ratio of comparisons (exact, from the workers' counts) "
                  "beside the time ratio. Whether energy follows them is not known yet.\n\n");
  }
  size_t rows = count_order_rows(d);
  fold_open(b, rows, "Order against random input, by language and algorithm");
  gb_tb_puts(b,
             "| Language | Algorithm | Orders | Comparisons ratio, median (range) | "
             "Time ratio | Energy ratio | Power readings |\n|---|---|---|---|---|---|---|\n");
  for (int l = 0; l < GB_REC_LANG_COUNT; l++) {
    for (int g = 0; g < GB_REC_ALG_COUNT; g++) {
      for (int o = GB_REC_ORDER_RANDOM + 1; o < GB_REC_ORDER_COUNT; o++) {
        if (order_row(d, l, g, o) < 0) {
          return -1;
        }
      }
    }
  }
  fold_close(b, rows);
  return 0;
}

static int section_answers(md *d) {
  gb_tb_puts(d->b, "## Answers\n\n");
  answer_q1(d);
  if (answer_q2(d) < 0 || answer_q3(d) < 0) {
    return -1;
  }
  return 0;
}

/* ---- Tables -------------------------------------------------------------------- */

static void config_keys(gb_textbuf *b, const gb_an_config *c) {
  gb_tb_printf(b, "| %s | %s | %s | %" PRIu64 " |", gb_rec_language_name(c->language),
               gb_rec_algorithm_name(c->algorithm), gb_rec_order_name(c->order), c->size);
}

static void sorts_cell(gb_textbuf *b, const gb_an_config *c) {
  if (c->n_ok == 0) {
    gb_tb_puts(b, " n/a |");
  } else if (c->sorts_min == c->sorts_max) {
    gb_tb_printf(b, " %" PRIu64 " |", c->sorts_min);
  } else {
    gb_tb_printf(b, " %" PRIu64 " to %" PRIu64 " |", c->sorts_min, c->sorts_max);
  }
}

static void process_cells(gb_textbuf *b, const gb_an_config *c) {
  const gb_summary *p = &c->process;
  if (!c->measured) {
    gb_tb_puts(b, " n/a | n/a | n/a | n/a |");
    return;
  }
  const double v[3] = {p->median, p->p95, p->min};
  for (int i = 0; i < 3; i++) {
    gb_tb_puts(b, " ");
    gb_tb_sig(b, v[i] * 1e-6, SIG);
    gb_tb_puts(b, i == 2 ? " to " : " |");
  }
  gb_tb_sig(b, p->max * 1e-6, SIG);
  gb_tb_printf(b, " | %zu low, %zu high |", p->low_outliers, p->high_outliers);
}

static void config_row(md *d, const gb_an_config *c) {
  gb_textbuf *b = d->b;
  config_keys(b, c);
  gb_tb_printf(b, " %zu of %zu |", c->n_ok, c->n_rows);
  sorts_cell(b, c);
  const gb_estimate es[4] = {GB_EST_TIME_PER_SORT, GB_EST_CPU_PER_SORT, GB_EST_ENERGY_PER_SORT,
                             GB_EST_NET_POWER};
  const double scale[4] = {1e-3, 1e-3, 1.0, 1.0};
  for (int i = 0; i < 4; i++) {
    gb_tb_puts(b, " ");
    est(d, c, es[i], scale[i]);
    gb_tb_puts(b, " |");
  }
  if (d->a->energy) {
    gb_tb_puts(b, " ");
    if (c->coupling.defined) {
      gb_tb_sig(b, c->coupling.rho, 3);
    } else {
      gb_tb_puts(b, "n/a");
    }
    gb_tb_puts(b, " |");
  }
  process_cells(b, c);
  gb_tb_puts(b, "\n");
}

static void startup_row(md *d, const gb_an_startup *s) {
  gb_textbuf *b = d->b;
  gb_tb_printf(b, "| %s | %s | %" PRIu64 " | %zu of %zu | ", gb_rec_language_name(s->language),
               gb_rec_order_name(s->order), s->size, s->n_ok, s->n_rows);
  if (!s->measured) {
    gb_tb_puts(b, "n/a | not measured | not measured | not measured |\n");
    return;
  }
  gb_tb_printf(b, "%" PRIu64 " | ", s->launches);
  gb_tb_sig(b, s->cost.time_ns * 1e-6, SIG);
  gb_tb_puts(b, " | ");
  gb_tb_sig(b, s->cost.cpu_ns * 1e-6, SIG);
  gb_tb_puts(b, " | ");
  if (isnan(s->cost.energy_uj)) {
    gb_tb_puts(b, missing_word(d->a));
  } else {
    gb_tb_sig(b, s->cost.energy_uj * 1e-3, SIG);
  }
  gb_tb_puts(b, " |\n");
}

/* The startup costs subtracted, so a reader can see how much of a process
 * they are. */
static void section_startups(md *d) {
  gb_textbuf *b = d->b;
  gb_tb_puts(b, "### Startup cost per process\n\nMedian over each trial's ok batches of the "
                "batch's cost divided by its launches (energy net of idle), subtracted from "
                "every run of the trial's language, order and size and held fixed.\n\n");
  fold_open(b, d->a->n_startups, "Startup cost per process");
  gb_tb_puts(b, "| Language | Order | Size | Ok batches | Launches per batch | Wall (ms) | CPU "
                "(ms) | Energy (mJ) |\n|---|---|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < d->a->n_startups; i++) {
    startup_row(d, &d->a->startups[i]);
  }
  fold_close(b, d->a->n_startups);
}

static void section_configs(md *d) {
  gb_textbuf *b = d->b;
  gb_tb_puts(b,
             "## Per-configuration results\n\n"
             "Medians of the ok runs with 95% percentile-bootstrap intervals. Time and CPU "
             "time per sort are the process's wall and user + system CPU time minus the "
             "median startup cost per process, divided by the sorts per process; energy per "
             "sort is also net of the idle baseline scaled to the run's length; net power is "
             "median energy per sort over median time per sort, the power drawn above idle. "
             "Process time is the whole process, startup included; outliers are counted by "
             "Tukey's rule (beyond 1.5 IQR from the quartiles), never dropped.\n\n");
  fold_open(b, d->a->n_configs, "Per-configuration results");
  gb_tb_puts(b,
             "| Language | Algorithm | Order | Size | Ok runs | Sorts per process | Time per "
             "sort (µs) | CPU per sort (µs) | Energy per sort (µJ) | Net power (W) |");
  gb_tb_puts(b, d->a->energy ? " Run-to-run rho |" : "");
  gb_tb_puts(b, " Process time, median (ms) | p95 (ms) | Min to max (ms) | Outliers |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  gb_tb_puts(b, d->a->energy ? "---|\n" : "\n");
  for (size_t i = 0; i < d->a->n_configs; i++) {
    config_row(d, &d->a->configs[i]);
  }
  fold_close(b, d->a->n_configs);
  section_startups(d);
}

static void ratio_row(md *d, const gb_an_ratio *r) {
  gb_textbuf *b = d->b;
  const gb_an_config *x = &d->a->configs[r->a], *y = &d->a->configs[r->b];
  if (r->family == GB_AN_LANGUAGES) {
    gb_tb_printf(b, "| %s / %s | %s | %s | %" PRIu64 " | ", language_title(x->language),
                 language_title(y->language), gb_rec_algorithm_name(x->algorithm),
                 gb_rec_order_name(x->order), x->size);
  } else {
    gb_tb_printf(b, "| %s | %s | %s / random | %" PRIu64 " | ", language_title(x->language),
                 gb_rec_algorithm_name(x->algorithm), gb_rec_order_name(x->order), x->size);
  }
  ratio_cell(d, r, &r->ratio.time, false);
  gb_tb_puts(b, " | ");
  ratio_cell(d, r, &r->ratio.energy, true);
  gb_tb_puts(b, " | ");
  ratio_cell(d, r, &r->ratio.power, true);
  gb_tb_printf(b, " | %s |\n", reading_text(d->a, r));
}

static void ratio_table(md *d, gb_an_family f, size_t from, size_t to) {
  gb_textbuf *b = d->b;
  bool lang = f == GB_AN_LANGUAGES;
  fold_open(b, to - from, lang ? "Ratios between languages" : "Ratios between input orders");
  gb_tb_printf(b,
               "| %s | %s | %s | Size | Time ratio | Energy ratio | Power ratio | Reading |\n"
               "|---|---|---|---|---|---|---|---|\n",
               lang ? "Languages" : "Language", "Algorithm", lang ? "Order" : "Orders");
  for (size_t i = from; i < to; i++) {
    ratio_row(d, &d->a->ratios[i]);
  }
  fold_close(b, to - from);
}

static void section_ratios(md *d) {
  gb_textbuf *b = d->b;
  const gb_analysis *a = d->a;
  gb_tb_puts(b, "## Ratios\n\nEach ratio is A / B of the medians, with a 95% interval from "
                "resampling both configurations independently (replicate r of A against "
                "replicate r of B). The power ratio is the energy ratio over the time ratio. "
                "Its reading, against a margin of ");
  margin_text(d);
  gb_tb_puts(b,
             " fixed before measuring (from 1/(1 + m) to 1 + m): *same power* when the whole "
             "interval lies inside the margin; *differs* when it excludes 1 (and reaches "
             "beyond the margin); *inconclusive* when it includes 1 but reaches beyond the "
             "margin, which is never read as the same power; *undefined* when energy or time "
             "per sort is lost in the noise (a median, or more than 2.5% of the replicates, "
             "at zero or below) or missing. The intervals are separate 95% intervals, not "
             "adjusted for being many.\n\n");
  if (a->energy) {
    gb_tb_printf(b, "In all, %zu of the %zu defined power intervals exclude 1, against about ",
                 a->tally_all.tally.excluding_one, a->tally_all.tally.defined);
    gb_tb_sig(b, a->tally_all.tally.expected_by_chance, 3);
    gb_tb_printf(b,
                 " that chance alone would give (5%%; more than %zu would happen by chance "
                 "only one time in 20, by the binomial distribution).\n\n",
                 a->tally_all.chance_bound);
    gb_tb_puts(b, "The answer to question 1 follows from these counts by a rule fixed before "
                  "measuring. An interval that excludes 1 counts as differing, whatever its "
                  "position against the margin. *Yes* when more than half of all power ratios "
                  "read same power and no more intervals exclude 1 than the bound above; "
                  "*within the margin, yes, but power differs measurably* when more than half "
                  "read same power but more exclude 1 than the bound; *too noisy to decide* "
                  "when more than half of the defined readings are inconclusive; *no* "
                  "otherwise. Whenever ");
    gb_tb_printf(b,
                 "one in %d or more of the defined readings is inconclusive, the answer also "
                 "says that the measurements were too noisy to decide those "
                 "comparisons.\n\n",
                 GB_ANALYSIS_NOISY_SHARE_DEN / GB_ANALYSIS_NOISY_SHARE_NUM);
  } else {
    gb_tb_puts(b, "Energy is pending, so the energy and power ratios and their readings are "
                  "too; the time ratios stand on their own.\n\n");
  }
  gb_tb_printf(b, "### Between languages (%zu)\n\n", a->n_language_ratios);
  ratio_table(d, GB_AN_LANGUAGES, 0, a->n_language_ratios);
  gb_tb_printf(b, "### Between input orders (%zu)\n\n", a->n_ratios - a->n_language_ratios);
  ratio_table(d, GB_AN_ORDERS, a->n_language_ratios, a->n_ratios);
}

static void rank_scope(gb_textbuf *b, const gb_an_rank *k) {
  switch (k->scope) {
  case GB_AN_RANK_OVERALL:
    gb_tb_puts(b, "all configurations");
    break;
  case GB_AN_RANK_SIZE:
    gb_tb_printf(b, "size %" PRIu64, k->size);
    break;
  case GB_AN_RANK_LANGUAGE:
    gb_tb_puts(b, language_title(k->language));
    break;
  default:
    gb_tb_printf(b, "%s, %s", language_title(k->language), gb_rec_algorithm_name(k->algorithm));
  }
}

static void rank_row(md *d, const gb_an_rank *k) {
  gb_textbuf *b = d->b;
  gb_tb_puts(b, "| ");
  rank_scope(b, k);
  gb_tb_printf(b, " | %zu | ", k->k);
  if (!d->a->energy) {
    gb_tb_puts(b, "pending");
  } else if (!k->computed || !k->rho.point.defined) {
    gb_tb_puts(b, "undefined");
  } else {
    gb_tb_interval(b, k->rho.point.rho, k->rho.lo, k->rho.hi, 3);
  }
  gb_tb_puts(b, " |\n");
}

static void coupling_row(md *d, const gb_an_coupling *c) {
  gb_textbuf *b = d->b;
  gb_tb_printf(b, "| %s | %s | ", language_title(c->language),
               gb_rec_algorithm_name(c->algorithm));
  if (!d->a->energy) {
    gb_tb_puts(b, "pending | pending |\n");
    return;
  }
  gb_tb_printf(b, "%zu | ", c->n_defined);
  double r[3] = {c->median, c->min, c->max};
  range_cell(b, r);
  gb_tb_puts(b, " |\n");
}

static void section_ranks(md *d) {
  gb_textbuf *b = d->b;
  const gb_analysis *a = d->a;
  gb_tb_printf(b,
               "## Rank agreement\n\nSpearman's rho (ties averaged) between median time per "
               "sort and median energy per sort across the measured configurations of each "
               "scope, with a 95%% interval from the first %zu bootstrap replicates of every "
               "configuration.\n\n",
               a->opts.rank_resamples);
  fold_open(b, a->n_ranks, "Rank agreement by scope");
  gb_tb_puts(b, "| Scope | Configurations | rho [95% CI] |\n|---|---|---|\n");
  for (size_t i = 0; i < a->n_ranks; i++) {
    rank_row(d, &a->ranks[i]);
  }
  fold_close(b, a->n_ranks);
  gb_tb_puts(b,
             "Run-to-run coupling: within each configuration, Spearman's rho between the "
             "process time and the process energy of its runs; the median (and range) over "
             "the configurations of each language and algorithm. With steady power it is "
             "positive almost by construction: a check on measurement noise, not an answer.\n\n"
             "| Language | Algorithm | Configurations | rho, median (range) |\n"
             "|---|---|---|---|\n");
  for (size_t i = 0; i < a->n_couplings; i++) {
    coupling_row(d, &a->couplings[i]);
  }
  gb_tb_puts(b, "\n");
}

/* ---- Carbon ---------------------------------------------------------------------- */

/* Micrograms CO2e of an energy estimate, with its interval. */
static void carbon_cell(md *d, const gb_an_config *c, gb_estimate e, double g_per_kwh) {
  gb_textbuf *b = d->b;
  const gb_interval *iv = &c->boot.est[e];
  if (!c->measured || !iv->available) {
    gb_tb_puts(b, c->measured ? missing_word(d->a) : "not measured");
    return;
  }
  gb_tb_interval(b, gb_carbon_grams(iv->point, g_per_kwh) * 1e6,
                 gb_carbon_grams(iv->lo, g_per_kwh) * 1e6,
                 gb_carbon_grams(iv->hi, g_per_kwh) * 1e6, SIG);
}

static void carbon_intensities(md *d) {
  gb_textbuf *b = d->b;
  gb_tb_puts(b, "| Region | Code | Year | g CO2e per kWh |\n|---|---|---|---|\n");
  for (size_t i = 0; i < d->o->n_intensities; i++) {
    const gb_intensity *x = &d->o->intensities[i];
    gb_tb_puts(b, "| ");
    md_text(b, x->region);
    gb_tb_puts(b, " | ");
    md_text(b, x->code[0] ? x->code : "custom");
    gb_tb_puts(b, " | ");
    if (x->year) {
      gb_tb_printf(b, "%d", x->year);
    } else {
      gb_tb_puts(b, "given");
    }
    gb_tb_printf(b, " | %.6g |\n", x->g_per_kwh);
  }
  gb_tb_puts(b, "\n");
}

static void carbon_table(md *d) {
  gb_textbuf *b = d->b;
  fold_open(b, d->a->n_configs, "Carbon per sort");
  gb_tb_puts(b, "| Language | Algorithm | Order | Size |");
  for (size_t i = 0; i < d->o->n_intensities; i++) {
    gb_tb_puts(b, " ");
    md_text(b, d->o->intensities[i].region);
    gb_tb_puts(b, ", net (µg) | ");
    md_text(b, d->o->intensities[i].region);
    gb_tb_puts(b, ", with idle (µg) |");
  }
  gb_tb_puts(b, "\n|---|---|---|---|");
  for (size_t i = 0; i < d->o->n_intensities; i++) {
    gb_tb_puts(b, "---|---|");
  }
  gb_tb_puts(b, "\n");
  for (size_t i = 0; i < d->a->n_configs; i++) {
    const gb_an_config *c = &d->a->configs[i];
    config_keys(b, c);
    for (size_t j = 0; j < d->o->n_intensities; j++) {
      double g = d->o->intensities[j].g_per_kwh;
      gb_tb_puts(b, " ");
      carbon_cell(d, c, GB_EST_ENERGY_PER_SORT, g);
      gb_tb_puts(b, " | ");
      carbon_cell(d, c, GB_EST_GROSS_ENERGY_PER_SORT, g);
      gb_tb_puts(b, " |");
    }
    gb_tb_puts(b, "\n");
  }
  fold_close(b, d->a->n_configs);
}

static void section_carbon(md *d) {
  gb_textbuf *b = d->b;
  gb_tb_puts(b, "## Carbon\n\nMicrograms of CO2-equivalent per sort, from annual, "
                "location-based, lifecycle grid intensities: *net* counts only the energy the "
                "sort adds above idle; *with idle* also counts the idle power drawn while it "
                "runs. Neither includes the rest of the machine, so both understate the "
                "electricity used. Intensities: Ember - Yearly Electricity Data (2026) and "
                "Ember - Yearly Electricity Data Europe (2026), with major processing by Our "
                "World in Data (CC BY 4.0); see stats/data/README.md.\n\n");
  if (d->o->n_intensities == 0) {
    gb_tb_puts(b, "No region was asked for.\n\n");
    return;
  }
  carbon_intensities(d);
  if (!d->a->energy) {
    gb_tb_puts(b, "Every carbon figure is *pending*: energy was not measured.\n\n");
    return;
  }
  carbon_table(d);
}

/* ---- Data checks ------------------------------------------------------------------ */

static void status_counts(gb_textbuf *b, const size_t *by_status) {
  const char *sep = "";
  for (int s = GB_REC_STATUS_OK + 1; s < GB_REC_STATUS_COUNT; s++) {
    if (by_status[s] > 0) {
      gb_tb_printf(b, "%s%zu %s", sep, by_status[s], gb_rec_status_name((gb_rec_status)s));
      sep = ", ";
    }
  }
  if (!*sep) {
    gb_tb_puts(b, "none");
  }
}

static void check_loops(md *d) {
  const gb_an_checks *k = &d->a->checks;
  gb_tb_printf(d->b,
               "- **Sort loops**: %zu of %zu measured loops fell short of the %" PRIu64
               " ms target",
               k->loops_short, k->loops, d->m->settings.target_ms);
  if (k->loops > 0) {
    gb_tb_puts(d->b, "; the shortest lasted ");
    gb_tb_sig(d->b, (double)k->shortest_loop_ns * 1e-6, SIG);
    gb_tb_puts(d->b, " ms");
  }
  gb_tb_puts(d->b, " (sorts per process were calibrated during warm-up to aim 20% above the "
                   "target).\n");
}

static void check_plateau(md *d) {
  const gb_an_checks *k = &d->a->checks;
  gb_tb_printf(d->b,
               "- **Warm-up plateau** (the last two warm-ups' loop times per sort within "
               "10%% of each other): %zu configurations reached it, %zu did not, %zu could "
               "not be checked",
               k->plateau[GB_AN_PLATEAU_YES], k->plateau[GB_AN_PLATEAU_NO],
               k->plateau[GB_AN_PLATEAU_UNCHECKED]);
  if (!d->a->records->has_warmups) {
    gb_tb_puts(d->b, " (no warmups.csv in the records)");
  } else if (k->plateau[GB_AN_PLATEAU_UNCHECKED] > 0) {
    gb_tb_puts(d->b, " (fewer than two ok warm-ups)");
  }
  /* Every one is listed, never cut; a long list folds away. */
  size_t missed = k->plateau[GB_AN_PLATEAU_NO];
  bool fold = missed > FOLD_ROWS;
  const char *sep = fold ? ": <details><summary>the " : ": ";
  if (fold) {
    gb_tb_printf(d->b, "%s%zu that did not</summary>", sep, missed);
    sep = "";
  }
  for (size_t i = 0; i < d->a->n_configs && missed > 0; i++) {
    const gb_an_config *c = &d->a->configs[i];
    if (c->plateau != GB_AN_PLATEAU_NO) {
      continue;
    }
    char label[96];
    gb_an_config_label(c, label, sizeof label);
    gb_tb_printf(d->b, "%s%s (", sep, label);
    gb_tb_sig(d->b, c->warmup_prev_ns * 1e-3, SIG);
    gb_tb_puts(d->b, " then ");
    gb_tb_sig(d->b, c->warmup_last_ns * 1e-3, SIG);
    gb_tb_puts(d->b, " µs)");
    sep = ", ";
  }
  gb_tb_puts(d->b, fold ? ".</details>\n" : ".\n");
}

static void check_throttle(md *d) {
  const gb_an_checks *k = &d->a->checks;
  if (k->freq_runs == 0) {
    gb_tb_puts(d->b, "- **Throttling**: not checked; no run recorded its CPU frequency");
  } else {
    gb_tb_printf(d->b,
                 "- **Throttling**: %zu of the %zu ok sorting runs with a frequency at "
                 "both ends ended more than 10%% below their starting frequency",
                 k->throttled, k->freq_runs);
  }
  if (k->has_temp) {
    gb_tb_puts(d->b, "; package temperature from ");
    gb_tb_sig(d->b, (double)k->temp_min_mc / 1000.0, 3);
    gb_tb_puts(d->b, " to ");
    gb_tb_sig(d->b, (double)k->temp_max_mc / 1000.0, 3);
    gb_tb_puts(d->b, " °C");
  } else {
    gb_tb_puts(d->b, "; no temperature recorded");
  }
  gb_tb_puts(d->b, ".\n");
}

/* Configurations whose records fail validation, listed folded. */
static void check_validity(md *d) {
  gb_textbuf *b = d->b;
  size_t bad = 0;
  char msg[512];
  for (size_t i = 0; i < d->a->n_configs; i++) {
    const gb_an_config *c = &d->a->configs[i];
    bad += gb_validate_case(d->a->records, c->language, c->algorithm, c->order, c->size,
                            d->a->energy, msg, sizeof msg) != 0;
  }
  gb_tb_printf(b,
               "- **Validity** (every planned run present and ok, parity held, startup "
               "complete%s): %zu of %zu configurations valid.\n",
               d->a->energy ? ", energy on every row" : "", d->a->n_configs - bad,
               d->a->n_configs);
  if (bad == 0) {
    return;
  }
  gb_tb_printf(b, "\n  <details><summary>Invalid configurations (%zu)</summary>\n\n", bad);
  for (size_t i = 0; i < d->a->n_configs; i++) {
    const gb_an_config *c = &d->a->configs[i];
    if (gb_validate_case(d->a->records, c->language, c->algorithm, c->order, c->size,
                         d->a->energy, msg, sizeof msg) != 0) {
      gb_tb_puts(b, "  - ");
      md_text(b, msg);
      gb_tb_puts(b, "\n");
    }
  }
  gb_tb_puts(b, "\n  </details>\n\n");
}

static void section_checks(md *d) {
  gb_textbuf *b = d->b;
  const gb_an_checks *k = &d->a->checks;
  gb_tb_printf(b,
               "## Data checks\n\n- **Runs**: %zu rows in runs.csv, %zu ok; not ok: ", k->rows,
               k->by_status[GB_REC_STATUS_OK]);
  status_counts(b, k->by_status);
  gb_tb_printf(b,
               ". Only ok runs enter the statistics. %zu of %zu configurations measured, "
               "%zu without any row.\n",
               k->configs_measured, k->configs, k->configs_without_rows);
  check_validity(d);
  check_loops(d);
  check_plateau(d);
  check_throttle(d);
  gb_tb_printf(b, "- **Pinning**: %s.\n",
               d->m->pinning.rule_held ? "the rule held (two CPUs on different physical cores "
                                         "of one package, not CPU 0 or its sibling)"
                                       : "relaxed: the rule did not hold on this machine (see "
                                         "What was measured)");
  if (d->a->n_warnings == 0) {
    gb_tb_puts(b, "- **Warnings**: none.\n\n");
    return;
  }
  gb_tb_printf(b, "- **Warnings** (%zu):\n", d->a->n_warnings);
  for (size_t i = 0; i < d->a->n_warnings; i++) {
    gb_tb_puts(b, "  - ");
    md_text(b, d->a->warnings[i].text);
    gb_tb_puts(b, "\n");
  }
  gb_tb_puts(b, "\n");
}

/* ---- The seven measurement traps (docs/methods.md) ----------------------------------- */

typedef struct {
  size_t sort_ok, with_cpu, with_counts, with_freq, high_outliers, low_outliers;
} remedy_counts;

static void count_remedies(const gb_analysis *a, remedy_counts *r) {
  *r = (remedy_counts){0};
  const gb_rec_table *t = &a->records->runs;
  for (size_t i = 0; i < t->n_rows; i++) {
    const gb_run_row *x = &t->rows[i];
    if (x->kind != GB_REC_KIND_SORT || x->status != GB_REC_STATUS_OK) {
      continue;
    }
    r->sort_ok++;
    r->with_cpu += x->user_ns.present && x->sys_ns.present;
    r->with_counts += x->comparisons.present && x->writes.present && x->input_hash[0];
    r->with_freq += x->freq_start_khz.present && x->freq_end_khz.present;
  }
  for (size_t i = 0; i < a->n_configs; i++) {
    r->high_outliers += a->configs[i].process.high_outliers;
    r->low_outliers += a->configs[i].process.low_outliers;
  }
}

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
static void remedy(gb_textbuf *b, int n, bool applied) {
  gb_tb_printf(b, "| %d | %s (`docs/methods.md#%s`) | %s | ", n, traps[n - 1].name,
               traps[n - 1].anchor, applied ? "yes" : "partly");
}

static void section_remedies(md *d) {
  gb_textbuf *b = d->b;
  const gb_analysis *a = d->a;
  const gb_meta_settings *s = &d->m->settings;
  remedy_counts r;
  count_remedies(a, &r);
  gb_tb_puts(b, "## How the seven measurement traps were met\n\n"
                "Each trap, and what greenbench does about it, is explained in docs/methods.md "
                "of the greenbench repository; the path beside each trap's name points to its "
                "section.\n\n"
                "| # | Trap | Applied | How, from these records |\n|---|---|---|---|\n");
  remedy(b, 1, s->warmups > 0 && a->checks.plateau[GB_AN_PLATEAU_YES] == a->n_configs);
  gb_tb_printf(b,
               "%" PRIu64 " warm-up runs per configuration, discarded; sorts per process "
               "calibrated from them (%zu calibrations in meta.json); plateau reached in %zu, "
               "missed in %zu, unchecked in %zu configurations |\n",
               s->warmups, d->m->n_calibration, a->checks.plateau[GB_AN_PLATEAU_YES],
               a->checks.plateau[GB_AN_PLATEAU_NO], a->checks.plateau[GB_AN_PLATEAU_UNCHECKED]);
  remedy(b, 2, r.with_cpu == r.sort_ok);
  gb_tb_printf(b,
               "wall time (CLOCK_MONOTONIC_RAW) and user + system CPU time recorded on %zu of "
               "%zu ok sorting runs; CPU time per sort reported beside time per sort |\n",
               r.with_cpu, r.sort_ok);
  remedy(b, 3, s->runs >= GB_ANALYSIS_MIN_RUNS);
  gb_tb_printf(b,
               "%" PRIu64 " measured runs per configuration, each its own process; the "
               "median is the central value, never the mean |\n",
               s->runs);
  remedy(b, 4, true);
  gb_tb_printf(b,
               "p95, min and max of process time per configuration; %zu high and %zu low "
               "Tukey outliers counted, none dropped |\n",
               r.high_outliers, r.low_outliers);
  remedy(b, 5, d->m->pinning.rule_held && r.with_freq == r.sort_ok);
  gb_tb_puts(b, "pinned to CPUs ");
  md_text(b, d->m->pinning.cpus[0] ? d->m->pinning.cpus : "(none)");
  gb_tb_printf(b,
               " (rule %s); all measured runs in one shuffled order (seed %" PRIu64
               "); frequency recorded on %zu of %zu ok sorting runs, %zu throttled |\n",
               d->m->pinning.rule_held ? "held" : "relaxed", s->order_seed, r.with_freq,
               r.sort_ok, a->checks.throttled);
  remedy(b, 6, true);
  gb_tb_printf(b,
               "95%% percentile-bootstrap intervals from %zu resamples per configuration, "
               "seed %" PRIu64 "; ratios read against a ",
               a->opts.resamples, a->opts.seed);
  margin_text(d);
  gb_tb_puts(b, " margin fixed in advance; an interval that includes 1 is never read as no "
                "difference |\n");
  remedy(b, 7, r.with_counts == r.sort_ok);
  gb_tb_printf(b,
               "every worker checks its sorted result and reports its comparisons, writes "
               "and input hash: recorded on %zu of %zu ok sorting runs and compared across "
               "runs and languages (Validity, above) |\n\n",
               r.with_counts, r.sort_ok);
}

/* ---- Chart and method notes ------------------------------------------------------------ */

static void section_chart(md *d) {
  gb_textbuf *b = d->b;
  if (!d->o->chart_href) {
    return;
  }
  gb_tb_puts(b, "## Chart\n\n");
  if (d->a->energy) {
    gb_tb_puts(b, "![Energy per sort against time per sort, log-log, one mark per "
                  "configuration; dashed lines of constant net power](");
  } else {
    gb_tb_puts(b, "![Time per sort against input size, log-log, one line per language and "
                  "algorithm, one panel per input order](");
  }
  for (const char *p = d->o->chart_href; *p; p++) {
    if (*p == ' ' || *p == '(' || *p == ')') {
      gb_tb_printf(b, "%%%02X", (unsigned char)*p);
    } else {
      gb_tb_putn(b, p, 1);
    }
  }
  gb_tb_puts(b, ")\n\n");
  gb_tb_puts(b, d->a->energy
                    ? "With the same net power everywhere, every mark would lie on one "
                      "dashed line: time would be a perfect stand-in for energy.\n\n"
                    : "Energy is pending, so the chart shows time alone.\n\n");
}

static void section_notes(md *d) {
  gb_textbuf *b = d->b;
  gb_tb_printf(b,
               "## Method notes\n\n"
               "- Quantiles, medians and percentile intervals all use one rule: Hyndman & Fan "
               "(1996) type 7, numpy's default (linear interpolation between order "
               "statistics).\n"
               "- Each configuration's ok runs are resampled with replacement %zu times "
               "(percentile bootstrap, Efron & Tibshirani 1993), keeping each run's time and "
               "energy together; every estimate of a configuration comes from the same "
               "resamples. The median startup cost per process subtracted is held fixed, so "
               "its noise is not in the intervals.\n"
               "- Each configuration draws from its own random stream (xoshiro256**, seed "
               "%" PRIu64 "), numbered by its key, so its intervals do not depend on which "
               "other configurations were measured or in what order they are processed.\n"
               "- Halving an interval costs about four times the runs.\n\n",
               d->a->opts.resamples, d->a->opts.seed);
}

static void header(md *d) {
  gb_tb_puts(d->b, "# greenbench results\n\nIs run time a good stand-in for processor energy? "
                   "Generated by `greenbench report` from a campaign's records (runs.csv, "
                   "warmups.csv, meta.json); the same records and options always give these "
                   "same bytes.\n\n");
  if (!d->m->completed) {
    gb_tb_puts(d->b, "> **Partial campaign.** The campaign did not complete; this report "
                     "covers the runs it recorded (--allow-partial).\n\n");
  }
  if (!d->a->energy) {
    gb_tb_puts(d->b, "> **Energy pending.** ");
    pending_note(d);
    gb_tb_puts(d->b, "Time and the exact operation counts stand on their own.\n\n");
  }
}

int gb_report_md(const gb_analysis *a, const gb_report_md_opts *opts, char **out, size_t *len,
                 gb_err *err) {
  gb_textbuf b;
  gb_tb_init(&b);
  gb_tb_numeric loc;
  gb_tb_c_numeric(&loc);
  md d = {.b = &b, .a = a, .o = opts, .m = &a->records->meta};
  header(&d);
  section_measured(&d);
  int rc = section_answers(&d);
  if (rc == 0) {
    section_configs(&d);
    section_ratios(&d);
    section_ranks(&d);
    section_carbon(&d);
    section_checks(&d);
    section_remedies(&d);
    section_chart(&d);
    section_notes(&d);
  }
  gb_tb_restore_numeric(&loc);
  if (rc < 0) {
    gb_tb_free(&b);
    return gb_err_set(err, ENOMEM, "results.md: out of memory");
  }
  return gb_tb_take(&b, out, len, "results.md", err);
}
