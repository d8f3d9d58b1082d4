/* The comparison of suite campaigns (suite_compare.h): refusals, the
 * columns' names and the changes per configuration, with the study's
 * compare's generic pieces (compare_internal.h). */
#include "greenbench/suite_compare.h"

#include "compare_internal.h"
#include "suite_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gb_scmp_config_label(const gb_suite_analysis *a, const gb_sa_config *c, char *buf,
                          size_t len) {
  const gb_suite *s = &a->records->suite;
  snprintf(buf, len, "%s/%s/%s", s->languages[c->language].name, s->workloads[c->workload].name,
           c->params);
}

/* b's configuration with c's key (language, workload, parameters), or NULL. */
static const gb_sa_config *find(const gb_suite_analysis *b, const gb_suite_analysis *a,
                                const gb_sa_config *c) {
  const gb_suite *sa = &a->records->suite, *sb = &b->records->suite;
  for (size_t i = 0; i < b->n_configs; i++) {
    const gb_sa_config *d = &b->configs[i];
    if (strcmp(sb->languages[d->language].name, sa->languages[c->language].name) == 0 &&
        strcmp(sb->workloads[d->workload].name, sa->workloads[c->workload].name) == 0 &&
        strcmp(d->params, c->params) == 0) {
      return d;
    }
  }
  return NULL;
}

/* ---- Refusals ---------------------------------------------------------------- */

/* The first workload of x that y lacks or declares otherwise, or NULL. */
static const char *other_workload(const gb_suite *x, const gb_suite *y) {
  for (size_t w = 0; w < x->n_workloads; w++) {
    const gb_suite_workload *a = &x->workloads[w], *b = NULL;
    for (size_t v = 0; v < y->n_workloads && !b; v++) {
      b = strcmp(y->workloads[v].name, a->name) == 0 ? &y->workloads[v] : NULL;
    }
    bool same = b && b->n_parameters == a->n_parameters;
    for (size_t p = 0; same && p < a->n_parameters; p++) {
      const gb_suite_parameter *pa = &a->parameters[p], *pb = &b->parameters[p];
      same = strcmp(pa->name, pb->name) == 0 && pa->named == pb->named &&
             pa->n_values == pb->n_values &&
             memcmp(pa->values, pb->values, pa->n_values * sizeof *pa->values) == 0;
      for (size_t v = 0; same && pa->named && v < pa->n_values; v++) {
        same = strcmp(pa->names[v], pb->names[v]) == 0;
      }
    }
    if (!same) {
      return a->name;
    }
  }
  return NULL;
}

/* The first ok work row of case (workload, params) in r, or NULL. */
static const gb_srec_row *first_ok(const gb_srec_records *r, const char *workload,
                                   const char *params) {
  for (size_t i = 0; i < r->n_runs; i++) {
    const gb_srec_row *row = &r->runs[i];
    if (row->kind == GB_SREC_KIND_WORK && row->status == GB_REC_STATUS_OK &&
        strcmp(row->workload, workload) == 0 && strcmp(row->params, params) == 0) {
      return row;
    }
  }
  return NULL;
}

/* The parity facts of every case both campaigns ran. */
static int check_parity(const gb_scmp_input *x, const gb_scmp_input *y, gb_err *err) {
  const gb_suite_analysis *a = x->analysis;
  for (size_t k = 0; k < a->n_cases; k++) {
    const gb_sa_config *c = &a->configs[a->cases[k].first_config];
    const char *w = a->records->suite.workloads[c->workload].name;
    const gb_srec_row *p = first_ok(a->records, w, c->params);
    const gb_srec_row *q = first_ok(y->analysis->records, w, c->params);
    if (!p || !q) {
      continue;
    }
    const char *field = strcmp(p->input_hash, q->input_hash) != 0     ? "input_hash"
                        : strcmp(p->output_hash, q->output_hash) != 0 ? "output_hash"
                        : strcmp(p->counters, q->counters) != 0       ? "counters"
                                                                      : NULL;
    if (field) {
      const char *vp = field[0] == 'i'   ? p->input_hash
                       : field[0] == 'o' ? p->output_hash
                                         : p->counters;
      const char *vq = field[0] == 'i'   ? q->input_hash
                       : field[0] == 'o' ? q->output_hash
                                         : q->counters;
      return gb_err_set(err, EINVAL,
                        "compare: %s/%s: %s '%s' in %s but '%s' in %s: not the same workload",
                        w, c->params, field, vp, x->path, vq, y->path);
    }
  }
  return 0;
}

int gb_suite_compare_check_pair(const gb_scmp_input *x, const gb_scmp_input *y, gb_err *err) {
  const gb_srec_meta *mx = &x->analysis->records->meta, *my = &y->analysis->records->meta;
  const gb_suite *sx = &x->analysis->records->suite, *sy = &y->analysis->records->suite;
  if (strcmp(mx->suite_name, my->suite_name) != 0) {
    return gb_err_set(err, EINVAL,
                      "compare: %s is a campaign of suite '%s' but %s of suite '%s': "
                      "different suites cannot be compared",
                      x->path, mx->suite_name, y->path, my->suite_name);
  }
  const char *w = other_workload(sx, sy);
  w = w ? w : other_workload(sy, sx);
  if (strcmp(mx->suite_hash, my->suite_hash) != 0 && w) {
    return gb_err_set(err, EINVAL,
                      "compare: %s has suite hash %s but %s has %s, and their workload '%s' "
                      "differs: not the same workloads",
                      x->path, mx->suite_hash, y->path, my->suite_hash, w);
  }
  int rc = gbi_cmp_check_seed(x->path, mx->settings.seed, y->path, my->settings.seed, err);
  return rc < 0 ? rc : check_parity(x, y, err);
}

/* ---- The comparison ---------------------------------------------------------- */

static int check_inputs(const gb_scmp_input *in, size_t n, gb_err *err) {
  if (gbi_cmp_check_count(n, err) < 0) {
    return -EINVAL;
  }
  const gb_analysis_opts *o = &in[0].analysis->opts;
  for (size_t m = 1; m < n; m++) {
    const gb_analysis_opts *p = &in[m].analysis->opts;
    if (p->seed != o->seed || p->resamples != o->resamples || p->level != o->level ||
        p->margin != o->margin || p->power_estimator != o->power_estimator) {
      return gb_err_set(err, EINVAL, "compare: %s and %s were analysed with different options",
                        in[0].path, in[m].path);
    }
  }
  for (size_t i = 0; i < n; i++) {
    for (size_t j = i + 1; j < n; j++) {
      int rc = gb_suite_compare_check_pair(&in[i], &in[j], err);
      if (rc < 0) {
        return rc;
      }
    }
  }
  return 0;
}

static int name_campaigns(const gb_scmp_input *in, size_t n, gb_suite_comparison *c,
                          gb_err *err) {
  gbi_cmp_who who[GB_COMPARE_MAX] = {{0}};
  char names[GB_COMPARE_MAX][GB_COMPARE_NAME_MAX],
      campaigns[GB_COMPARE_MAX][GB_COMPARE_NAME_MAX];
  for (size_t m = 0; m < n; m++) {
    const gb_srec_meta *meta = &in[m].analysis->records->meta;
    who[m] = (gbi_cmp_who){.path = in[m].path,
                           .same_as = in[m].same_as,
                           .campaign_label = in[m].campaign_label,
                           .machine_label = meta->has_label ? meta->machine_label : NULL};
  }
  int rc = gbi_cmp_name(who, n, names, campaigns, &c->by_machine, err);
  for (size_t m = 0; rc == 0 && m < n; m++) {
    gb_scmp_campaign *x = &c->campaigns[m];
    memcpy(x->name, names[m], sizeof x->name);
    memcpy(x->campaign, campaigns[m], sizeof x->campaign);
    x->path = in[m].path;
    x->a = in[m].analysis;
  }
  return rc;
}

/* The configurations all hold, and each campaign's that another lacks. */
static int common(gb_suite_comparison *c, gb_err *err) {
  const gb_suite_analysis *a0 = c->campaigns[0].a;
  c->configs = calloc(a0->n_configs + 1, sizeof *c->configs);
  if (!c->configs) {
    return gb_err_set(err, ENOMEM, "compare: out of memory");
  }
  for (size_t i = 0; i < a0->n_configs; i++) {
    gb_scmp_config *out = &c->configs[c->n_configs];
    bool all = true;
    for (size_t m = 0; m < c->n && all; m++) {
      out->config[m] = find(c->campaigns[m].a, a0, &a0->configs[i]);
      all = out->config[m] != NULL;
    }
    c->n_configs += all;
  }
  for (size_t m = 0; m < c->n; m++) {
    gb_scmp_campaign *x = &c->campaigns[m];
    x->left_out = calloc(x->a->n_configs + 1, sizeof *x->left_out);
    if (!x->left_out) {
      return gb_err_set(err, ENOMEM, "compare: out of memory");
    }
    for (size_t i = 0; i < x->a->n_configs; i++) {
      bool all = true;
      for (size_t j = 0; j < c->n && all; j++) {
        all = find(c->campaigns[j].a, x->a, &x->a->configs[i]) != NULL;
      }
      if (!all) {
        x->left_out[x->n_left_out++] = &x->a->configs[i];
      }
    }
  }
  if (c->n_configs == 0) {
    return gb_err_set(err, EINVAL,
                      "compare: the %zu campaigns have no configuration (language, workload, "
                      "parameters) in common; nothing to compare",
                      c->n);
  }
  return 0;
}

typedef gbi_cmp_drawn side;

static int draw(const gb_suite_comparison *c, size_t m, const gb_sa_config *k, side *s,
                gb_err *err) {
  gb_err inner;
  int rc = gbi_sa_draw(c->campaigns[m].a, k, (uint64_t)m << GB_COMPARE_STREAM_SHIFT, &s->boot,
                       &s->power, &inner);
  return rc < 0 ? gb_err_set(err, -rc, "compare: %s: %s", c->campaigns[m].path, inner.msg) : 0;
}

static int changes(gb_suite_comparison *c, gb_err *err) {
  double *scratch = malloc(4 * c->opts.resamples * sizeof *scratch);
  int rc = scratch ? 0 : gb_err_set(err, ENOMEM, "compare: out of memory");
  for (size_t i = 0; rc == 0 && i < c->n_configs; i++) {
    gb_scmp_config *q = &c->configs[i];
    side a = {0}, b = {0};
    rc = q->config[0]->measured ? draw(c, 0, q->config[0], &a, err) : 0;
    for (size_t m = 1; rc == 0 && m < c->n; m++) {
      if (!q->config[0]->measured || !q->config[m]->measured) {
        continue;
      }
      rc = draw(c, m, q->config[m], &b, err);
      gbi_cmp_side sa = {&a.boot, a.power, &q->config[0]->boot.est[GB_EST_NET_POWER]};
      gbi_cmp_side sb = {&b.boot, b.power, &q->config[m]->boot.est[GB_EST_NET_POWER]};
      bool energy = c->campaigns[0].a->energy && c->campaigns[m].a->energy;
      if (rc == 0) {
        rc = gbi_cmp_change_of(&sa, &sb, energy, &c->opts, scratch, &q->change[m], err);
      }
      gbi_cmp_drawn_free(&b);
    }
    gbi_cmp_drawn_free(&a);
  }
  free(scratch);
  return rc;
}

int gb_suite_compare_build(const gb_scmp_input *in, size_t n, gb_suite_comparison **out,
                           gb_err *err) {
  int rc = check_inputs(in, n, err);
  if (rc < 0) {
    return rc;
  }
  gb_suite_comparison *c = calloc(1, sizeof *c);
  if (!c) {
    return gb_err_set(err, ENOMEM, "compare: out of memory");
  }
  c->n = n;
  c->opts = in[0].analysis->opts;
  if ((rc = name_campaigns(in, n, c, err)) == 0 && (rc = common(c, err)) == 0) {
    rc = changes(c, err);
  }
  if (rc < 0) {
    gb_suite_compare_free(c);
    return rc;
  }
  *out = c;
  return 0;
}

void gb_suite_compare_free(gb_suite_comparison *c) {
  if (!c) {
    return;
  }
  for (size_t m = 0; m < c->n; m++) {
    free(c->campaigns[m].left_out);
  }
  free(c->configs);
  free(c);
}
