/* Each later campaign against the first (compare.h, gb_cmp_change): per
 * configuration all campaigns hold, the ratios of time per sort, energy
 * per sort and net power with percentile intervals, read against the
 * margin, and whether the answer to question 1 changed. The analyses keep
 * too few replicates (gb_boot_trim) and draw every campaign's from the
 * same streams, so each side is bootstrapped again here as the report
 * bootstraps it (gbi_analysis_boot_opts, the startup resampled, the paired
 * power estimator), campaign m's streams offset by m x 2^56: the two
 * sides' resamples are independent, as the ratio's interval needs. */
#include "greenbench/compare.h"

#include "analysis_internal.h"
#include "compare_internal.h"
#include "stats_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One campaign's side of a configuration (compare_internal.h). */
typedef gbi_cmp_drawn side;

void gbi_cmp_drawn_free(gbi_cmp_drawn *s) {
  gb_boot_free(&s->boot);
  free(s->power);
  *s = (gbi_cmp_drawn){0};
}

/* Buffers of one worker, reused from configuration to configuration. */
typedef struct {
  gb_boot_work boot;
  double *scratch; /* 4 x resamples */
  gb_run *runs;    /* the most ok runs of any configuration */
} worker;

typedef struct {
  gb_comparison *c;
  worker *w;
} work;

static int side_error(const gb_cmp_machine *x, const gb_an_config *k, int rc,
                      const gb_err *inner, gb_err *err) {
  char label[96];
  gb_an_config_label(k, label, sizeof label);
  return gb_err_set(err, -rc, "compare: %s: %s: %s", x->path, label, inner->msg);
}

/* Campaign m's side of configuration k (measured). */
static int draw(const gb_comparison *c, size_t m, const gb_an_config *k, worker *w, side *s,
                gb_err *err) {
  const gb_cmp_machine *x = &c->machines[m];
  const gb_analysis *a = x->a;
  size_t n = gbi_analysis_ok_runs(a, k, w->runs);
  gb_boot_opts o = gbi_analysis_boot_opts(a, k);
  uint64_t offset = (uint64_t)m << GB_COMPARE_STREAM_SHIFT;
  o.stream ^= offset;
  o.startup_stream ^= o.startup_batches ? offset : 0;
  o.startup_replicates = NULL;
  gb_err inner;
  int rc = gb_boot_run_in(&w->boot, w->runs, n, &k->startup->cost, &o, &s->boot, &inner);
  if (rc == 0 && a->opts.power_estimator == GB_POWER_PAIRED && s->boot.has_energy) {
    gb_interval iv;
    s->power = malloc(o.replicates * sizeof *s->power);
    rc = s->power ? gbi_paired_power(w->runs, n, &k->startup->cost, &o, s->power, &iv, &inner)
                  : gb_err_set(&inner, ENOMEM, "out of memory");
  }
  return rc < 0 ? side_error(x, k, rc, &inner, err) : 0;
}

/* A ratio's interval read against the margin, undefined unless available
 * and not lost in the noise (as ratio.h reads the power ratio). */
static gb_reading read_interval(const gb_interval *iv, size_t replicates, double margin) {
  bool lost = iv->n_nonpositive * GB_RATIO_NOISE_SHARE_DEN > replicates;
  return gbi_ratio_read(iv->lo, iv->hi, margin, !iv->available || !(iv->point > 0.0) || lost);
}

int gbi_cmp_change_of(const gbi_cmp_side *a, const gbi_cmp_side *b, bool energy,
                      const gb_analysis_opts *o, double *scratch, gb_cmp_change *out,
                      gb_err *err) {
  gb_cmp_change ch = {.computed = true, .energy = energy};
  int rc = gb_ratio_of_in(b->boot, a->boot, o->margin, o->level, scratch, &ch.ratio, err);
  if (rc < 0) {
    return rc;
  }
  if (a->power && b->power) {
    gbi_paired_power_ratio(b->power_point, b->power, a->power_point, a->power, o->resamples,
                           o->level, o->margin, scratch, &ch.ratio);
  }
  ch.time_reading = read_interval(&ch.ratio.time, o->resamples, o->margin);
  bool undefined = !ch.energy || ch.ratio.reading == GB_READING_UNDEFINED;
  ch.energy_reading = undefined ? GB_READING_UNDEFINED
                                : read_interval(&ch.ratio.energy, o->resamples, o->margin);
  if (!ch.energy) {
    ch.ratio.reading = GB_READING_UNDEFINED;
  }
  *out = ch;
  return 0;
}

/* Campaign m (side b) against the first (side a) in configuration q. */
static int change_of(const gb_comparison *c, const gb_cmp_config *q, size_t m, const side *a,
                     const side *b, worker *w, gb_cmp_change *out, gb_err *err) {
  const gb_an_config *ka = q->config[0], *kb = q->config[m];
  gbi_cmp_side sa = {&a->boot, a->power, &ka->boot.est[GB_EST_NET_POWER]};
  gbi_cmp_side sb = {&b->boot, b->power, &kb->boot.est[GB_EST_NET_POWER]};
  return gbi_cmp_change_of(&sa, &sb, c->machines[0].a->energy && c->machines[m].a->energy,
                           &c->opts, w->scratch, out, err);
}

static int config_item(void *ctx, size_t i, size_t wi, gb_err *err) {
  work *x = ctx;
  gb_comparison *c = x->c;
  gb_cmp_config *q = &c->configs[i];
  worker *w = &x->w[wi];
  side a = {0}, b = {0};
  int rc = q->config[0]->measured ? draw(c, 0, q->config[0], w, &a, err) : 0;
  for (size_t m = 1; rc == 0 && m < c->n; m++) {
    q->change[m] = (gb_cmp_change){.computed = false};
    if (!q->config[0]->measured || !q->config[m]->measured) {
      continue;
    }
    rc = draw(c, m, q->config[m], w, &b, err);
    if (rc == 0) {
      rc = change_of(c, q, m, &a, &b, w, &q->change[m], err);
    }
    gbi_cmp_drawn_free(&b);
  }
  gbi_cmp_drawn_free(&a);
  return rc;
}

/* The most ok runs of any configuration compared. */
static size_t most_runs(const gb_comparison *c) {
  size_t most = 1;
  for (size_t i = 0; i < c->n_configs; i++) {
    for (size_t m = 0; m < c->n; m++) {
      size_t n = c->configs[i].config[m]->n_ok;
      most = n > most ? n : most;
    }
  }
  return most;
}

/* Whether a and b hold the same configurations. */
static bool same_configs(const gb_analysis *a, const gb_analysis *b) {
  bool same = a->n_configs == b->n_configs;
  for (size_t i = 0; same && i < a->n_configs; i++) {
    const gb_an_config *k = &a->configs[i];
    same = gb_analysis_find(b, k->language, k->algorithm, k->order, k->size) != NULL;
  }
  return same;
}

static void verdict_changes(gb_comparison *c) {
  const gb_cmp_machine *first = &c->machines[0];
  for (size_t m = 1; m < c->n; m++) {
    gb_cmp_machine *x = &c->machines[m];
    x->verdict_known = first->a->energy && x->a->energy;
    x->verdict_changed = x->verdict_known && strcmp(first->verdict, x->verdict) != 0;
    x->same_configs_as_first = same_configs(first->a, x->a);
  }
}

int gb_compare_changes(gb_comparison *c, gb_err *err) {
  verdict_changes(c);
  size_t workers = c->opts.threads > 0 ? c->opts.threads : 1, runs = most_runs(c);
  work x = {c, calloc(workers, sizeof *x.w)};
  int rc = x.w ? 0 : gb_err_set(err, ENOMEM, "compare: out of memory");
  for (size_t i = 0; rc == 0 && i < workers; i++) {
    x.w[i].scratch = malloc(4 * c->opts.resamples * sizeof *x.w[i].scratch);
    x.w[i].runs = malloc(runs * sizeof *x.w[i].runs);
    rc = x.w[i].scratch && x.w[i].runs ? 0 : gb_err_set(err, ENOMEM, "compare: out of memory");
  }
  if (rc == 0) {
    rc = gbi_parallel_for(c->n_configs, workers, config_item, &x, err);
  }
  for (size_t i = 0; x.w && i < workers; i++) {
    gb_boot_work_free(&x.w[i].boot);
    free(x.w[i].scratch);
    free(x.w[i].runs);
  }
  free(x.w);
  return rc;
}
