/* What the analysis concludes from its own figures, computed once so that
 * every writer (results.md, JUnit, summary.json) says the same: the ratio
 * groups of questions 2 and 3, the net-power range, the verdict of
 * question 1, the counts of the measurement traps and each configuration's
 * validity. */
#include "analysis_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "greenbench/quantile.h"
#include "greenbench/validate.h"

/* Median, min and max of v[0..n) into out (NAN each when n is 0). */
static void median_range(double *v, size_t n, double out[3]) {
  out[0] = out[1] = out[2] = NAN;
  if (n > 0) {
    out[0] = gb_quantile_select(v, n, 0.5);
    out[1] = gb_quantile_select(v, n, 0.0);
    out[2] = gb_quantile_select(v, n, 1.0);
  }
}

static bool in_group(const gb_analysis *a, const gb_an_group *g, const gb_an_ratio *r) {
  const gb_an_config *x = &a->configs[r->a], *y = &a->configs[r->b];
  if (r->family != g->family || x->algorithm != g->algorithm) {
    return false;
  }
  if (g->family == GB_AN_LANGUAGES) {
    return x->language == g->la && y->language == g->lb;
  }
  return x->language == g->la && x->order == g->order;
}

/* The point ratios of one kind (time, energy, power) of the group's
 * ratios, summarised; tmp holds a->n_ratios values. */
static void summarise_points(const gb_analysis *a, gb_an_group *g, double *tmp) {
  double *outs[3] = {g->time, g->energy, g->power};
  for (int k = 0; k < 3; k++) {
    size_t m = 0;
    for (size_t i = 0; i < a->n_ratios; i++) {
      const gb_an_ratio *r = &a->ratios[i];
      const gb_interval *iv = k == 0   ? &r->ratio.time
                              : k == 1 ? &r->ratio.energy
                                       : &r->ratio.power;
      if (in_group(a, g, r) && r->computed && !isnan(iv->point) && (k == 0 || a->energy)) {
        tmp[m++] = iv->point;
      }
    }
    median_range(tmp, m, outs[k]);
    g->used[k] = m;
  }
}

static void count_group(const gb_analysis *a, gb_an_group *g) {
  for (size_t i = 0; i < a->n_ratios; i++) {
    const gb_an_ratio *r = &a->ratios[i];
    if (!in_group(a, g, r)) {
      continue;
    }
    g->n++;
    g->computed += r->computed;
    g->readings[r->ratio.reading]++;
    bool differs = r->ratio.reading == GB_READING_DIFFERS;
    g->above += differs && r->ratio.power.lo > 1.0;
    g->below += differs && r->ratio.power.hi < 1.0;
    g->time_excluding += r->computed && (r->ratio.time.lo > 1.0 || r->ratio.time.hi < 1.0);
  }
}

/* Exact comparison ratios of the group's order against random input over
 * the sizes, from its language's counts (parity makes them every
 * language's). */
static void comparisons_ratio(const gb_analysis *a, gb_an_group *g) {
  const gb_settings *s = &a->records->meta.settings;
  double v[GB_MAX_SIZES];
  size_t n = 0;
  for (size_t z = 0; z < s->nsizes; z++) {
    const gb_an_config *x = gb_analysis_find(a, g->la, g->algorithm, g->order, s->sizes[z]);
    const gb_an_config *y = gb_analysis_find(a, g->la, g->algorithm, GB_RANDOM, s->sizes[z]);
    if (x && y && x->has_counts && y->has_counts && y->comparisons > 0) {
      v[n++] = (double)x->comparisons / (double)y->comparisons;
    }
  }
  median_range(v, n, g->comparisons);
  g->comparisons_used = n;
}

/* Appends the group if it holds any ratio. */
static void add_group(gb_analysis *a, gb_an_group g, double *tmp) {
  count_group(a, &g);
  if (g.n == 0) {
    return;
  }
  summarise_points(a, &g, tmp);
  g.comparisons[0] = g.comparisons[1] = g.comparisons[2] = NAN;
  if (g.family == GB_AN_ORDERS) {
    comparisons_ratio(a, &g);
  }
  a->groups[a->n_groups++] = g;
}

/* Language pairs in the order the report lists them: A / B. */
static const gb_language pairs[3][2] = {
    {GB_PYTHON, GB_C}, {GB_NODE, GB_C}, {GB_PYTHON, GB_NODE}};

static int build_groups(gb_analysis *a) {
  size_t cap = 3 * GB_ALGORITHM_COUNT + GB_LANGUAGE_COUNT * GB_ALGORITHM_COUNT * GB_ORDER_COUNT;
  a->groups = calloc(cap, sizeof *a->groups);
  double *tmp = malloc((a->n_ratios + 1) * sizeof *tmp);
  if (!a->groups || !tmp) {
    free(tmp);
    return -ENOMEM;
  }
  for (int p = 0; p < 3; p++) {
    for (gb_algorithm g = 0; g < GB_ALGORITHM_COUNT; g++) {
      add_group(
          a,
          (gb_an_group){
              .family = GB_AN_LANGUAGES, .la = pairs[p][0], .lb = pairs[p][1], .algorithm = g},
          tmp);
    }
  }
  a->n_language_groups = a->n_groups;
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    for (gb_algorithm g = 0; g < GB_ALGORITHM_COUNT; g++) {
      for (int o = GB_RANDOM + 1; o < GB_ORDER_COUNT; o++) {
        add_group(a,
                  (gb_an_group){
                      .family = GB_AN_ORDERS, .la = l, .algorithm = g, .order = (gb_order)o},
                  tmp);
      }
    }
  }
  free(tmp);
  return 0;
}

static int net_power(gb_analysis *a) {
  double *v = malloc((a->n_configs + 1) * sizeof *v);
  if (!v) {
    return -ENOMEM;
  }
  size_t n = 0;
  for (size_t i = 0; i < a->n_configs; i++) {
    const gb_interval *p = &a->configs[i].boot.est[GB_EST_NET_POWER];
    if (a->configs[i].measured && p->available && !isnan(p->point)) {
      v[n++] = p->point;
    }
  }
  median_range(v, n, a->net_power);
  a->net_power_n = n;
  free(v);
  return 0;
}

static void count_remedies(gb_analysis *a) {
  gb_an_remedies *r = &a->remedies;
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

/* The CPUs in a list as sched_setaffinity was given it ("2,4", "0-3"), or
 * 0 when the list is empty or not one. */
static uint64_t cpus_in(const char *list) {
  uint64_t n = 0;
  const char *p = list;
  while (*p) {
    char *end;
    unsigned long lo = strtoul(p, &end, 10), hi = lo;
    if (end == p) {
      return 0;
    }
    p = end;
    if (*p == '-') {
      hi = strtoul(++p, &end, 10);
      if (end == p || hi < lo) {
        return 0;
      }
      p = end;
    }
    n += hi - lo + 1;
    if (*p == ',') {
      p++;
    } else if (*p) {
      return 0;
    }
  }
  return n;
}

bool gbi_an_cpu_above_wall(double cpu_per_sort, double time_per_sort, uint64_t cpus) {
  return cpus > 0 && !isnan(cpu_per_sort) && !isnan(time_per_sort) &&
         cpu_per_sort > time_per_sort * (double)cpus;
}

/* The loop-time cross-check (analysis.h, GB_ANALYSIS_LOOP_TOLERANCE): time
 * per sort from process time minus the startup median against the worker's
 * own loop time per sort, and CPU per sort against what the CPUs the
 * workers could use allow. */
static void check_loop_times(gb_analysis *a) {
  gb_an_checks *k = &a->checks;
  k->worker_cpus = cpus_in(a->records->meta.pinning.cpus);
  if (k->worker_cpus == 0) {
    k->worker_cpus = a->records->meta.machine.cpus_online;
  }
  for (size_t i = 0; i < a->n_configs; i++) {
    gb_an_config *c = &a->configs[i];
    if (!c->measured) {
      continue;
    }
    const gb_interval *t = &c->boot.est[GB_EST_TIME_PER_SORT];
    const gb_interval *cpu = &c->boot.est[GB_EST_CPU_PER_SORT];
    double loop = c->loop_per_sort_ns;
    if (!isnan(loop) && !isnan(t->point)) {
      k->loop_checked++;
      c->loop_disagrees = loop < t->lo || loop > t->hi ||
                          fabs(t->point - loop) > GB_ANALYSIS_LOOP_TOLERANCE * loop;
      k->loop_disagrees += c->loop_disagrees;
    }
    c->cpu_above_wall = gbi_an_cpu_above_wall(cpu->point, t->point, k->worker_cpus);
    k->cpu_above_wall += c->cpu_above_wall;
  }
}

static void validate_configs(gb_analysis *a) {
  for (size_t i = 0; i < a->n_configs; i++) {
    gb_an_config *c = &a->configs[i];
    c->valid = gb_validate_case(a->records, c->language, c->algorithm, c->order, c->size,
                                a->energy, c->invalid_reason, sizeof c->invalid_reason) == 0;
    a->checks.invalid += !c->valid;
  }
}

int gbi_analysis_conclude(gb_analysis *a, gb_err *err) {
  if (build_groups(a) < 0 || net_power(a) < 0) {
    return gb_err_set(err, ENOMEM, "analysis: out of memory");
  }
  count_remedies(a);
  check_loop_times(a);
  validate_configs(a);
  a->verdict = gb_analysis_verdict(&a->tally_all);
  a->noisy = gb_analysis_noisy(&a->tally_all);
  return 0;
}

const char *gb_analysis_verdict_name(const gb_analysis *a) {
  if (!a->energy) {
    return "pending";
  }
  switch (a->verdict) {
  case GB_AN_VERDICT_CANNOT:
    return "cannot_answer";
  case GB_AN_VERDICT_YES:
    return "yes";
  case GB_AN_VERDICT_YES_BUT_DIFFERS:
    return "yes_within_margin_but_power_differs";
  case GB_AN_VERDICT_TOO_NOISY:
    return "too_noisy";
  case GB_AN_VERDICT_NO:
    return "no";
  }
  return "unknown";
}
