/* The comparison of several campaigns (compare.h): refusals, the columns'
 * names, the configurations and ratios common to every machine (and those
 * left out), verdict agreement and the rank agreement of time per sort;
 * the changes against the first campaign are compare_change.c's. Pure: analyses in,
 * comparison out; every decision is taken here, the writers only word it. */
#include "greenbench/compare.h"

#include "compare_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Refusals ---------------------------------------------------------------- */

/* The input hash of the configuration's first ok run, or NULL. */
static const char *first_hash(const gb_analysis *a, const gb_an_config *c) {
  const gb_rec_group *g =
      gb_rec_table_find_sort(&a->records->runs, c->language, c->algorithm, c->order, c->size);
  for (size_t i = 0; g && i < g->n_rows; i++) {
    if (g->rows[i]->status == GB_REC_STATUS_OK && g->rows[i]->input_hash[0]) {
      return g->rows[i]->input_hash;
    }
  }
  return NULL;
}

static int check_config(const gb_cmp_input *x, const gb_cmp_input *y, const gb_an_config *c,
                        const gb_an_config *d, gb_err *err) {
  char key[96];
  gb_an_config_label(c, key, sizeof key);
  const char *hc = first_hash(x->analysis, c), *hd = first_hash(y->analysis, d);
  if (hc && hd && strcmp(hc, hd) != 0) {
    return gb_err_set(err, EINVAL,
                      "compare: %s: input hash %s in %s but %s in %s: not the same workload",
                      key, hc, x->path, hd, y->path);
  }
  if (c->has_counts && d->has_counts &&
      (c->comparisons != d->comparisons || c->writes != d->writes)) {
    return gb_err_set(
        err, EINVAL,
        "compare: %s: %" PRIu64 " comparisons and %" PRIu64 " writes in %s but %" PRIu64
        " and %" PRIu64 " in %s: not the same workload",
        key, c->comparisons, c->writes, x->path, d->comparisons, d->writes, y->path);
  }
  return 0;
}

int gbi_cmp_check_count(size_t n, gb_err *err) {
  if (n < 2 || n > GB_COMPARE_MAX) {
    return gb_err_set(err, EINVAL, "compare: %zu campaigns given; expected 2 to %d", n,
                      GB_COMPARE_MAX);
  }
  return 0;
}

int gbi_cmp_check_seed(const char *xpath, uint64_t xseed, const char *ypath, uint64_t yseed,
                       gb_err *err) {
  if (xseed != yseed) {
    return gb_err_set(err, EINVAL,
                      "compare: %s has input seed %" PRIu64 " but %s has %" PRIu64
                      ": different workloads cannot be compared",
                      xpath, xseed, ypath, yseed);
  }
  return 0;
}

int gb_compare_check_pair(const gb_cmp_input *x, const gb_cmp_input *y, gb_err *err) {
  const gb_meta *mx = &x->analysis->records->meta, *my = &y->analysis->records->meta;
  int rc = gbi_cmp_check_seed(x->path, mx->settings.seed, y->path, my->settings.seed, err);
  if (rc < 0) {
    return rc;
  }
  const gb_analysis *a = x->analysis, *b = y->analysis;
  for (size_t i = 0; i < a->n_configs; i++) {
    const gb_an_config *c = &a->configs[i];
    const gb_an_config *d = gb_analysis_find(b, c->language, c->algorithm, c->order, c->size);
    rc = d ? check_config(x, y, c, d, err) : 0;
    if (rc < 0) {
      return rc;
    }
  }
  return 0;
}

/* ---- Names ------------------------------------------------------------------- */

static const char *base_name(const char *path) {
  size_t n = strlen(path);
  while (n > 1 && path[n - 1] == '/') {
    n--;
  }
  size_t s = n;
  while (s > 0 && path[s - 1] != '/') {
    s--;
  }
  static _Thread_local char buf[GB_META_NAME_MAX];
  snprintf(buf, sizeof buf, "%.*s", (int)(n - s), path + s);
  return buf;
}

/* The first campaign given with the same records as campaign m. */
static size_t root_of(const gbi_cmp_who *in, size_t m) {
  return in[m].same_as >= 0 ? (size_t)in[m].same_as : m;
}

/* Campaign m's label: as given, else its folder's name (an archive's
 * name less ".tar.gz", the folder it holds). */
static void campaign_of(const gbi_cmp_who *in, size_t m, char *buf, size_t len) {
  if (in[m].campaign_label) {
    snprintf(buf, len, "%s", in[m].campaign_label);
    return;
  }
  const char *b = base_name(in[m].path);
  size_t n = strlen(b), s = strlen(".tar.gz");
  if (n > s && strcmp(b + n - s, ".tar.gz") == 0) {
    n -= s;
  }
  snprintf(buf, len, "%.*s", (int)n, b);
}

/* Whether the columns are named by machine label: no campaign label was
 * given, every campaign has a machine label, and no two campaigns of other
 * records share one. */
static bool by_machine(const gbi_cmp_who *in, size_t n) {
  for (size_t m = 0; m < n; m++) {
    if (in[m].campaign_label || !in[m].machine_label) {
      return false;
    }
    for (size_t k = 0; k < m; k++) {
      if (root_of(in, k) != root_of(in, m) &&
          strcmp(in[k].machine_label, in[m].machine_label) == 0) {
        return false;
      }
    }
  }
  return true;
}

static void label_of(const gbi_cmp_who *in, size_t m, bool machine, char *buf, size_t len) {
  if (machine) {
    snprintf(buf, len, "%s", in[m].machine_label);
  } else {
    campaign_of(in, m, buf, len);
  }
}

int gbi_cmp_name(const gbi_cmp_who *in, size_t n, char (*names)[GB_COMPARE_NAME_MAX],
                 char (*campaigns)[GB_COMPARE_NAME_MAX], bool *machine, gb_err *err) {
  *machine = by_machine(in, n);
  for (size_t m = 0; m < n; m++) {
    char label[GB_META_NAME_MAX];
    label_of(in, m, *machine, label, sizeof label);
    size_t copies = 1;
    for (size_t k = 0; k < m; k++) {
      char other[GB_META_NAME_MAX];
      label_of(in, k, *machine, other, sizeof other);
      if (strcmp(label, other) != 0) {
        continue;
      }
      if (root_of(in, k) != root_of(in, m) || in[m].campaign_label) {
        return gb_err_set(err, EINVAL,
                          "compare: %s and %s are both named '%s': give each campaign its "
                          "own name with --campaign-label NAME (once per path, in order)",
                          in[k].path, in[m].path, label);
      }
      copies++;
    }
    snprintf(names[m], GB_COMPARE_NAME_MAX, copies > 1 ? "%s#%zu" : "%s", label, copies);
    campaign_of(in, m, campaigns[m], GB_COMPARE_NAME_MAX);
  }
  return 0;
}

static int name_machines(const gb_cmp_input *in, size_t n, gb_comparison *c, gb_err *err) {
  gbi_cmp_who who[GB_COMPARE_MAX] = {{0}};
  char names[GB_COMPARE_MAX][GB_COMPARE_NAME_MAX],
      campaigns[GB_COMPARE_MAX][GB_COMPARE_NAME_MAX];
  for (size_t m = 0; m < n; m++) {
    const gb_meta *meta = &in[m].analysis->records->meta;
    who[m] =
        (gbi_cmp_who){.path = in[m].path,
                      .same_as = in[m].same_as,
                      .campaign_label = in[m].campaign_label,
                      .machine_label = meta->machine.has_label ? meta->machine.label : NULL};
  }
  int rc = gbi_cmp_name(who, n, names, campaigns, &c->by_machine, err);
  for (size_t m = 0; rc == 0 && m < n; m++) {
    gb_cmp_machine *mc = &c->machines[m];
    memcpy(mc->name, names[m], sizeof mc->name);
    memcpy(mc->campaign, campaigns[m], sizeof mc->campaign);
    mc->path = in[m].path;
    mc->a = in[m].analysis;
    mc->verdict = gb_analysis_verdict_name(mc->a);
  }
  return rc;
}

/* Each machine's first machine with the same verdict, and whether all agree. */
static void group_verdicts(gb_comparison *c) {
  c->verdicts_agree = true;
  for (size_t m = 0; m < c->n; m++) {
    size_t k = 0;
    while (strcmp(c->machines[k].verdict, c->machines[m].verdict) != 0) {
      k++;
    }
    c->machines[m].same_verdict_as = k;
    c->verdicts_agree = c->verdicts_agree && k == 0;
  }
}

/* ---- Common configurations and ratios ---------------------------------------- */

/* Room for the lists: the common configurations and ratios (machine 0's at
 * most, one more so that none is empty) and every pair of machines. */
static int alloc_lists(gb_comparison *c, gb_err *err) {
  const gb_analysis *a0 = c->machines[0].a;
  c->configs = calloc(a0->n_configs + 1, sizeof *c->configs);
  c->ratios = calloc(a0->n_ratios + 1, sizeof *c->ratios);
  c->pairs = calloc(c->n * (c->n - 1) / 2, sizeof *c->pairs);
  return c->configs && c->ratios && c->pairs
             ? 0
             : gb_err_set(err, ENOMEM, "compare: out of memory");
}

static void common_configs(gb_comparison *c) {
  const gb_analysis *a0 = c->machines[0].a;
  for (size_t i = 0; i < a0->n_configs; i++) {
    const gb_an_config *k = &a0->configs[i];
    gb_cmp_config *out = &c->configs[c->n_configs];
    bool all = true;
    for (size_t m = 0; m < c->n && all; m++) {
      out->config[m] =
          gb_analysis_find(c->machines[m].a, k->language, k->algorithm, k->order, k->size);
      all = out->config[m] != NULL;
    }
    c->n_configs += all;
  }
}

static bool same_key(const gb_an_config *x, const gb_an_config *y) {
  return x->language == y->language && x->algorithm == y->algorithm && x->order == y->order &&
         x->size == y->size;
}

static const gb_an_ratio *find_ratio(const gb_analysis *a, const gb_an_ratio *r,
                                     const gb_analysis *a0) {
  for (size_t i = 0; i < a->n_ratios; i++) {
    const gb_an_ratio *q = &a->ratios[i];
    if (q->family == r->family && same_key(&a->configs[q->a], &a0->configs[r->a]) &&
        same_key(&a->configs[q->b], &a0->configs[r->b])) {
      return q;
    }
  }
  return NULL;
}

static void common_ratios(gb_comparison *c) {
  const gb_analysis *a0 = c->machines[0].a;
  for (size_t i = 0; i < a0->n_ratios; i++) {
    gb_cmp_ratio *out = &c->ratios[c->n_ratios];
    bool all = true;
    out->readings_agree = true;
    for (size_t m = 0; m < c->n && all; m++) {
      out->ratio[m] = find_ratio(c->machines[m].a, &a0->ratios[i], a0);
      all = out->ratio[m] != NULL;
      out->readings_agree = all && out->readings_agree &&
                            out->ratio[m]->ratio.reading == out->ratio[0]->ratio.reading;
    }
    if (all) {
      out->family = a0->ratios[i].family;
      out->a = &a0->configs[a0->ratios[i].a];
      out->b = &a0->configs[a0->ratios[i].b];
      c->n_ratios++;
    }
  }
}

/* Each campaign's configurations that another campaign lacks. */
static int left_out(gb_comparison *c, gb_err *err) {
  for (size_t m = 0; m < c->n; m++) {
    gb_cmp_machine *x = &c->machines[m];
    x->left_out = calloc(x->a->n_configs + 1, sizeof *x->left_out);
    if (!x->left_out) {
      return gb_err_set(err, ENOMEM, "compare: out of memory");
    }
    for (size_t i = 0; i < x->a->n_configs; i++) {
      const gb_an_config *k = &x->a->configs[i];
      bool all = true;
      for (size_t j = 0; j < c->n && all; j++) {
        all = gb_analysis_find(c->machines[j].a, k->language, k->algorithm, k->order,
                               k->size) != NULL;
      }
      if (!all) {
        x->left_out[x->n_left_out++] = k;
      }
    }
  }
  return 0;
}

/* ---- Rank agreement ------------------------------------------------------------ */

typedef struct {
  const gb_boot **bi, **bj; /* [k] */
  double *x, *y, *reps;     /* [k], [k], [R] */
} rank_work;

static int pair_replicates(const gb_comparison *c, const rank_work *w, size_t k, size_t r_n,
                           gb_rho_interval *out, gb_err *err) {
  size_t used = 0;
  for (size_t r = 0; r < r_n; r++) {
    for (size_t q = 0; q < k; q++) {
      w->x[q] = gb_boot_replicates(w->bi[q], GB_EST_TIME_PER_SORT)[r];
      w->y[q] = gb_boot_replicates(w->bj[q], GB_EST_TIME_PER_SORT)[r];
    }
    gb_rho rho;
    int rc = gb_spearman_nan(w->x, w->y, k, &rho, err); /* a NAN: the replicate is undefined */
    if (rc < 0) {
      return rc;
    }
    if (rho.defined) {
      w->reps[used++] = rho.rho;
    }
  }
  out->n_used = used;
  out->lo = out->hi = NAN;
  if (used > 0) {
    double *scratch = malloc(used * sizeof *scratch);
    if (!scratch) {
      return gb_err_set(err, ENOMEM, "compare: out of memory");
    }
    gb_percentile_interval(w->reps, used, c->opts.level, scratch, &out->lo, &out->hi);
    free(scratch);
  }
  return 0;
}

static int pair_rank(const gb_comparison *c, gb_cmp_pair *p, rank_work *w, gb_err *err) {
  size_t k = 0;
  for (size_t q = 0; q < c->n_configs; q++) {
    const gb_an_config *ci = c->configs[q].config[p->i], *cj = c->configs[q].config[p->j];
    if (ci->measured && cj->measured) {
      w->bi[k] = &ci->boot;
      w->bj[k] = &cj->boot;
      w->x[k] = ci->boot.est[GB_EST_TIME_PER_SORT].point;
      w->y[k] = cj->boot.est[GB_EST_TIME_PER_SORT].point;
      k++;
    }
  }
  p->k = k;
  int rc = gb_spearman_nan(w->x, w->y, k, &p->time_rank.point, err);
  if (rc == 0 && p->time_rank.point.defined) {
    rc = pair_replicates(c, w, k, c->opts.rank_resamples, &p->time_rank, err);
  } else if (rc == 0) {
    p->time_rank.lo = p->time_rank.hi = NAN;
    p->time_rank.n_used = 0;
  }
  return rc;
}

static int rank_pairs(gb_comparison *c, gb_err *err) {
  size_t n = c->n, r_n = c->opts.resamples;
  rank_work w = {.bi = calloc(c->n_configs + 1, sizeof *w.bi),
                 .bj = calloc(c->n_configs + 1, sizeof *w.bj),
                 .x = calloc(c->n_configs + 1, sizeof *w.x),
                 .y = calloc(c->n_configs + 1, sizeof *w.y),
                 .reps = calloc(r_n + 1, sizeof *w.reps)};
  int rc = w.bi && w.bj && w.x && w.y && w.reps
               ? 0
               : gb_err_set(err, ENOMEM, "compare: out of memory");
  for (size_t i = 0; rc == 0 && i < n; i++) {
    for (size_t j = i + 1; rc == 0 && j < n; j++) {
      gb_cmp_pair *p = &c->pairs[c->n_pairs++];
      p->i = i;
      p->j = j;
      p->verdicts_agree = c->machines[i].same_verdict_as == c->machines[j].same_verdict_as;
      rc = pair_rank(c, p, &w, err);
    }
  }
  free(w.bi);
  free(w.bj);
  free(w.x);
  free(w.y);
  free(w.reps);
  return rc;
}

/* ---- The comparison --------------------------------------------------------------- */

static int check_inputs(const gb_cmp_input *in, size_t n, gb_err *err) {
  if (gbi_cmp_check_count(n, err) < 0) {
    return -EINVAL;
  }
  const gb_analysis_opts *o = &in[0].analysis->opts;
  for (size_t m = 1; m < n; m++) {
    const gb_analysis_opts *p = &in[m].analysis->opts;
    if (p->seed != o->seed || p->resamples != o->resamples || p->level != o->level ||
        p->margin != o->margin || p->rank_resamples != o->rank_resamples) {
      return gb_err_set(err, EINVAL, "compare: %s and %s were analysed with different options",
                        in[0].path, in[m].path);
    }
  }
  for (size_t i = 0; i < n; i++) {
    for (size_t j = i + 1; j < n; j++) {
      int rc = gb_compare_check_pair(&in[i], &in[j], err);
      if (rc < 0) {
        return rc;
      }
    }
  }
  return 0;
}

int gb_compare_build(const gb_cmp_input *in, size_t n, gb_comparison **out, gb_err *err) {
  int rc = check_inputs(in, n, err);
  if (rc < 0) {
    return rc;
  }
  gb_comparison *c = calloc(1, sizeof *c);
  if (!c) {
    return gb_err_set(err, ENOMEM, "compare: out of memory");
  }
  c->n = n;
  c->opts = in[0].analysis->opts;
  if ((rc = name_machines(in, n, c, err)) == 0 && (rc = alloc_lists(c, err)) == 0) {
    group_verdicts(c);
    common_configs(c);
    common_ratios(c);
    rc = c->n_configs > 0 ? left_out(c, err)
                          : gb_err_set(err, EINVAL,
                                       "compare: the %zu campaigns have no configuration "
                                       "(language, algorithm, order, size) in common; nothing "
                                       "to compare",
                                       n);
  }
  if (rc == 0) {
    rc = rank_pairs(c, err);
  }
  if (rc == 0) {
    rc = gb_compare_changes(c, err);
  }
  if (rc < 0) {
    gb_compare_free(c);
    return rc;
  }
  *out = c;
  return 0;
}

void gb_compare_free(gb_comparison *c) {
  if (!c) {
    return;
  }
  for (size_t m = 0; m < c->n; m++) {
    free(c->machines[m].left_out);
  }
  free(c->configs);
  free(c->ratios);
  free(c->pairs);
  free(c);
}
