#include "synth.h"

#include "greenbench/bootstrap.h"
#include "greenbench/quantile.h"
#include "greenbench/records.h"
#include "greenbench/rng.h"
#include "stats_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Startup cost per process and launches per batch, per language (C,
 * Python, Node.js): close to the committed study's. */
static const double startup_ns[GB_LANGUAGE_COUNT] = {1.0e6, 20.0e6, 95.0e6};
static const double lang_factor[GB_LANGUAGE_COUNT] = {1.0, 60.0, 5.0};
static const double time_sigmas[4] = {0.10, 0.20, 0.30, 0.40};
#define IDLE_W 5.0
#define IDLE_SIGMA 0.01
#define BATCH_NS 240e6
#define SORT_CPU 0.99
#define STARTUP_CPU 0.98

static uint64_t launches_of(gb_language l) {
  double x = round(BATCH_NS / startup_ns[l]);
  return x < 1.0 ? 1 : (uint64_t)x;
}

/* As stats/bench/gen_records.c: quadratic sorts grow with n^2 (sorted
 * input is cheap for insertion), quick with n log n (quadratic on sorted
 * input). */
static double per_sort_ns(gb_language l, gb_algorithm a, gb_order o, uint64_t n) {
  double x = (double)n;
  double cost = a == GB_QUICK ? 8.0 * x * log2(x) : 1.2 * x * x;
  if (a == GB_INSERTION && o == GB_SORTED) {
    cost = 4.0 * x;
  }
  if (a == GB_QUICK && o == GB_SORTED) {
    cost = 1.0 * x * x;
  }
  return cost * lang_factor[l] * 0.5;
}

static double lognormal(gb_rng *r, double sigma) {
  return exp(sigma * gbi_normal(r));
}

/* One process or batch as the records hold it (ns and uJ). */
typedef struct {
  double wall, loop, cpu, energy, idle_ns, idle_energy;
} draw;

/* Energy above idle `net` over `wall`, then the idle window after it. */
static void add_idle(draw *d, gb_rng *r, double net_uj) {
  d->idle_ns = d->wall;
  d->energy = net_uj + IDLE_W * d->wall * 1e-3;
  d->idle_energy = IDLE_W * d->idle_ns * 1e-3 * lognormal(r, IDLE_SIGMA);
}

static draw draw_run(const gbi_synth_design *d, const gbi_synth_config *c, gb_rng *r) {
  double a = startup_ns[c->language] * lognormal(r, d->startup_sigma);
  double b = c->sorts * c->per_sort_ns * lognormal(r, c->time_sigma);
  draw x = {.wall = a + b, .loop = b, .cpu = SORT_CPU * (a + b)};
  add_idle(&x, r,
           (d->startup_power_w * a + c->power_w * b) * 1e-3 * lognormal(r, d->power_sigma));
  return x;
}

static draw draw_batch(const gbi_synth_design *d, gb_language l, gb_rng *r) {
  double wall = 0.0;
  for (uint64_t i = 0; i < launches_of(l); i++) {
    wall += startup_ns[l] * lognormal(r, d->startup_sigma);
  }
  draw x = {.wall = wall, .cpu = STARTUP_CPU * wall};
  add_idle(&x, r, d->startup_power_w * wall * 1e-3 * lognormal(r, d->power_sigma));
  return x;
}

static gb_run run_of(const draw *x, uint64_t sorts) {
  return (gb_run){.wall_ns = x->wall,
                  .cpu_ns = x->cpu,
                  .energy_uj = x->energy,
                  .idle_ns = x->idle_ns,
                  .idle_energy_uj = x->idle_energy,
                  .sorts = sorts};
}

/* The population medians of batch / L (time, CPU, net energy) of language
 * l, from n batches of its own stream. */
static gb_startup startup_truth(const gbi_synth_design *d, gb_language l, double *v, size_t n) {
  gb_rng r;
  gb_rng_seed_stream(&r, 0x5eed, 100 + (uint64_t)l);
  double L = (double)launches_of(l);
  for (size_t i = 0; i < n; i++) {
    draw x = draw_batch(d, l, &r);
    v[i] = x.wall / L;
    v[n + i] = x.cpu / L;
    v[2 * n + i] = gb_net_energy_uj(x.energy, x.idle_energy, x.wall, x.idle_ns) / L;
  }
  return (gb_startup){.time_ns = gb_quantile_select(v, n, 0.5),
                      .cpu_ns = gb_quantile_select(v + n, n, 0.5),
                      .energy_uj = gb_quantile_select(v + 2 * n, n, 0.5)};
}

static void config_truth(const gbi_synth_design *d, gbi_synth_config *c, const gb_startup *st,
                         uint64_t stream, double *v, size_t n) {
  gb_rng r;
  gb_rng_seed_stream(&r, 0x7e57, stream);
  uint64_t sorts = (uint64_t)c->sorts;
  for (size_t i = 0; i < n; i++) {
    draw x = draw_run(d, c, &r);
    gb_run run = run_of(&x, sorts);
    gb_run_values rv;
    double t = (x.wall - st->time_ns) / c->sorts;
    double net = gb_net_energy_uj(x.energy, x.idle_energy, x.wall, x.idle_ns);
    rv.energy_per_sort_uj = (net - st->energy_uj) / c->sorts;
    rv.gross_energy_per_sort_uj = rv.energy_per_sort_uj + run.idle_energy_uj / run.idle_ns * t;
    v[i] = x.wall;
    v[n + i] = t;
    v[2 * n + i] = (x.cpu - st->cpu_ns) / c->sorts;
    v[3 * n + i] = rv.energy_per_sort_uj;
    v[4 * n + i] = rv.gross_energy_per_sort_uj;
  }
  c->process_ns = gb_quantile_select(v, n, 0.5);
  c->time_per_sort_ns = gb_quantile_select(v + n, n, 0.5);
  c->cpu_per_sort_ns = gb_quantile_select(v + 2 * n, n, 0.5);
  c->energy_per_sort_uj = gb_quantile_select(v + 3 * n, n, 0.5);
  c->gross_energy_per_sort_uj = gb_quantile_select(v + 4 * n, n, 0.5);
}

static bool in_settings(const gb_settings *s, gb_language l, gb_algorithm a, gb_order o) {
  return (s->languages >> l & 1u) && (s->algorithms >> a & 1u) && (s->orders >> o & 1u);
}

/* The scatter of configuration i: mixed so that it goes with no one key
 * (i runs over sizes fastest, then orders, algorithms, languages). */
static size_t sigma_index(size_t i) {
  return (i + i / 4 + i / 16) % 4;
}

static int check_design(const gbi_synth_design *d, gb_err *err) {
  const gb_settings *s = &d->settings;
  if (gb_bits_count(s->languages) == 0 || gb_bits_count(s->algorithms) == 0 ||
      gb_bits_count(s->orders) == 0 || s->nsizes == 0 || s->runs < 2 || d->truth_draws < 100 ||
      !(d->loop_ms > 0.0)) {
    return gb_err_set(err, EINVAL, "synth: a design needs every list, 2 runs, 100 draws");
  }
  if (s->languages >> GB_LANGUAGE_COUNT) {
    return gb_err_set(err, EINVAL, "synth: a language out of range");
  }
  for (gb_language l = 0; gb_bits_next(s->languages, &l); l++) {
    if (!(d->power_w[l] > 0.0)) {
      return gb_err_set(err, EINVAL, "synth: the power of %s is not > 0", gb_language_name(l));
    }
  }
  return 0;
}

int gbi_synth_truth_of(const gbi_synth_design *d, gbi_synth_truth *out, gb_err *err) {
  int rc = check_design(d, err);
  if (rc < 0) {
    return rc;
  }
  const gb_settings *s = &d->settings;
  size_t n = gb_bits_count(s->languages) * gb_bits_count(s->algorithms) *
             gb_bits_count(s->orders) * s->nsizes;
  size_t draws = d->truth_draws;
  gbi_synth_truth t = {.design = *d, .configs = calloc(n, sizeof *t.configs)};
  double *v = malloc(5 * draws * sizeof *v);
  if (!t.configs || !v) {
    free(t.configs);
    free(v);
    return gb_err_set(err, ENOMEM, "synth: out of memory");
  }
  gb_startup st[GB_LANGUAGE_COUNT];
  for (gb_language l = 0; gb_bits_next(s->languages, &l); l++) {
    st[l] = startup_truth(d, l, v, draws / 10 + 1);
  }
  /* The analysis's canonical order: enums, then sizes as listed. */
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    for (gb_algorithm a = 0; a < GB_ALGORITHM_COUNT; a++) {
      for (gb_order o = 0; o < GB_ORDER_COUNT; o++) {
        for (size_t z = 0; z < s->nsizes; z++) {
          if (!in_settings(s, l, a, o)) {
            continue;
          }
          gbi_synth_config *c = &t.configs[t.n_configs];
          double ps = per_sort_ns(l, a, o, s->sizes[z]);
          double sorts = floor(d->loop_ms * 1e6 / ps);
          *c = (gbi_synth_config){.language = l,
                                  .algorithm = a,
                                  .order = o,
                                  .size = s->sizes[z],
                                  .per_sort_ns = ps,
                                  .sorts = sorts < 1.0 ? 1.0 : sorts,
                                  .time_sigma = time_sigmas[sigma_index(t.n_configs)],
                                  .power_w = d->power_w[l]};
          config_truth(d, c, &st[l], t.n_configs, v, draws);
          t.n_configs++;
        }
      }
    }
  }
  free(v);
  *out = t;
  return 0;
}

void gbi_synth_truth_free(gbi_synth_truth *t) {
  if (t) {
    free(t->configs);
    *t = (gbi_synth_truth){0};
  }
}

const gbi_synth_config *gbi_synth_find(const gbi_synth_truth *t, gb_language l, gb_algorithm a,
                                       gb_order o, uint64_t size) {
  for (size_t i = 0; i < t->n_configs; i++) {
    const gbi_synth_config *c = &t->configs[i];
    if (c->language == l && c->algorithm == a && c->order == o && c->size == size) {
      return c;
    }
  }
  return NULL;
}

/* ---- Records ----------------------------------------------------------- */

static gb_rec_opt_u64 u64(double v) {
  return (gb_rec_opt_u64){true, (uint64_t)llround(v)};
}

static void fill_row(gb_run_row *row, const draw *x, uint64_t seed) {
  row->seed = seed;
  row->status = GB_REC_STATUS_OK;
  row->wall_ns = u64(x->wall);
  row->user_ns = u64(x->cpu);
  row->sys_ns = u64(0.0);
  row->max_rss_kib = u64(2000.0);
  row->energy = GB_REC_ENERGY_OK;
  row->pkg_uj = u64(x->energy);
  row->idle_ns = u64(x->idle_ns);
  row->idle_pkg_uj = u64(x->idle_energy);
  memcpy(row->input_hash, "0123456789abcdef", GB_REC_HASH_LEN + 1);
}

typedef struct {
  char *buf;
  size_t len, cap;
  uint64_t run;
} csv_text;

static int append_row_text(csv_text *t, const char *line, gb_err *err) {
  size_t n = strlen(line);
  if (t->len + n + 1 > t->cap) {
    size_t cap = 2 * (t->cap + n + 1);
    char *b = realloc(t->buf, cap);
    if (!b) {
      return gb_err_set(err, ENOMEM, "synth: out of memory");
    }
    t->buf = b;
    t->cap = cap;
  }
  memcpy(t->buf + t->len, line, n + 1);
  t->len += n;
  return 0;
}

static int append_row(csv_text *t, gb_run_row *row, gb_err *err) {
  char line[GB_REC_LINE_MAX];
  row->run = t->run++;
  row->started_unix_ns = 1796281200000000000u + row->run * 500000000u;
  if (gb_records_format_row(row, line, sizeof line) < 0) {
    return gb_err_set(err, EINVAL, "synth: row %llu does not format",
                      (unsigned long long)row->run);
  }
  return append_row_text(t, line, err);
}

static int sort_rows(const gbi_synth_truth *t, const gbi_synth_config *c, gb_rng *r,
                     csv_text *csv, gb_err *err) {
  int rc = 0;
  for (uint64_t k = 0; rc == 0 && k < t->design.settings.runs; k++) {
    draw x = draw_run(&t->design, c, r);
    gb_run_row row = {.kind = GB_REC_KIND_SORT,
                      .language = c->language,
                      .algorithm = c->algorithm,
                      .order = c->order,
                      .size = c->size,
                      .sorts = (uint64_t)c->sorts,
                      .launches = 1};
    fill_row(&row, &x, t->design.settings.seed);
    row.loop_ns = u64(x.loop);
    row.comparisons = row.writes = u64(1000.0);
    rc = append_row(csv, &row, err);
  }
  return rc;
}

static int startup_rows(const gbi_synth_truth *t, gb_language l, gb_order o, uint64_t size,
                        gb_rng *r, csv_text *csv, gb_err *err) {
  int rc = 0;
  for (uint64_t k = 0; rc == 0 && k < t->design.settings.runs; k++) {
    draw x = draw_batch(&t->design, l, r);
    gb_run_row row = {.kind = GB_REC_KIND_STARTUP,
                      .language = l,
                      .algorithm = GB_QUICK,
                      .order = o,
                      .size = size,
                      .launches = launches_of(l)};
    fill_row(&row, &x, t->design.settings.seed);
    rc = append_row(csv, &row, err);
  }
  return rc;
}

static int write_rows(const gbi_synth_truth *t, uint64_t seed, csv_text *csv, gb_err *err) {
  const gb_settings *s = &t->design.settings;
  gb_rng r;
  gb_rng_seed_stream(&r, seed, 0);
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < t->n_configs; i++) {
    rc = sort_rows(t, &t->configs[i], &r, csv, err);
  }
  for (gb_language l = 0; rc == 0 && gb_bits_next(s->languages, &l); l++) {
    for (gb_order o = 0; rc == 0 && gb_bits_next(s->orders, &o); o++) {
      for (size_t z = 0; rc == 0 && z < s->nsizes; z++) {
        rc = startup_rows(t, l, o, s->sizes[z], &r, csv, err);
      }
    }
  }
  return rc;
}

static void meta_of(const gbi_synth_truth *t, gb_meta *m) {
  gb_meta_init(m);
  m->settings = t->design.settings;
  m->settings.energy = GB_ENERGY_ON;
  m->settings.target_ms = (uint64_t)t->design.loop_ms;
  m->settings.seed = m->settings.seed ? m->settings.seed : 2463534242u;
  m->energy.status = GB_REC_ENERGY_OK;
  m->completed = true;
}

int gbi_synth_records(const gbi_synth_truth *t, uint64_t seed, gb_records **out, gb_err *err) {
  csv_text csv = {0};
  char header[GB_REC_LINE_MAX];
  gb_records *rec = calloc(1, sizeof *rec);
  int rc = rec ? 0 : gb_err_set(err, ENOMEM, "synth: out of memory");
  if (rc == 0) {
    meta_of(t, &rec->meta);
    rc = gb_records_header(header, sizeof header) < 0
             ? gb_err_set(err, EINVAL, "synth: no header")
             : 0;
  }
  if (rc == 0) {
    csv.run = 0;
    rc = append_row_text(&csv, header, err);
  }
  if (rc == 0) {
    rc = write_rows(t, seed, &csv, err);
  }
  if (rc == 0) {
    rc = gb_records_parse_csv(csv.buf, csv.len, "runs.csv", GB_REC_FILE_RUNS, NULL, &rec->runs,
                              err);
  }
  free(csv.buf);
  if (rc < 0) {
    gb_records_free(rec);
    return rc;
  }
  *out = rec;
  return 0;
}

static gbi_synth_design design_common(void) {
  gbi_synth_design d = {.loop_ms = 240.0,
                        .power_w = {15.0, 18.0, 15.0},
                        .startup_power_w = 10.0,
                        .startup_sigma = 0.20,
                        .power_sigma = 0.02,
                        .truth_draws = 200000};
  gb_settings *s = &d.settings;
  s->runs = 30;
  s->seed = 2463534242u;
  s->languages = (1u << GB_LANGUAGE_COUNT) - 1;
  return d;
}

gbi_synth_design gbi_synth_design_small(void) {
  gbi_synth_design d = design_common();
  gb_settings *s = &d.settings;
  s->algorithms = 1u << GB_QUICK;
  s->orders = 1u << GB_RANDOM | 1u << GB_SORTED;
  s->sizes[0] = 1000;
  s->nsizes = 1;
  return d;
}

gbi_synth_design gbi_synth_design_study(void) {
  gbi_synth_design d = design_common();
  gb_settings *s = &d.settings;
  static const uint64_t sizes[4] = {250, 500, 1000, 2000};
  s->algorithms = (1u << GB_ALGORITHM_COUNT) - 1;
  s->orders = (1u << GB_ORDER_COUNT) - 1;
  memcpy(s->sizes, sizes, sizeof sizes);
  s->nsizes = 4;
  return d;
}
