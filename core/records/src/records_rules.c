/* See records_internal.h. The rules are the physical and logical bounds of a
 * record the harness writes; docs/records.md lists them. */
#include "records_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/workload.h"

#define NS_PER_S UINT64_C(1000000000)
/* The CPU bound's allowance for the kernel's CPU clock running a little
 * faster than CLOCK_MONOTONIC_RAW (NTP slew is at most 500 ppm): 1%. */
#define CPU_SLACK_DIV 100

typedef struct {
  bool done;
  uint64_t comparisons, writes;
} counts_entry;

typedef struct {
  bool done;
  char hex[GB_REC_HASH_LEN + 1];
} hash_entry;

struct gbi_rec_rules {
  const gb_meta *m;
  uint64_t cpus;     /* CPUs the workers were pinned to */
  uint64_t packages; /* sockets with a package zone, at least 1 */
  uint64_t drams;    /* DRAM zones */
  /* meta.json's calibrated sorts and startup launches, 0 where none. */
  uint64_t sorts[GB_LANGUAGE_COUNT][GB_ALGORITHM_COUNT][GB_ORDER_COUNT][GB_MAX_SIZES];
  uint64_t launches[GB_LANGUAGE_COUNT][GB_ORDER_COUNT][GB_MAX_SIZES];
  /* The workload's values for settings.seed, computed on first use. */
  counts_entry counts[GB_ALGORITHM_COUNT][GB_ORDER_COUNT][GB_MAX_SIZES];
  hash_entry hashes[GB_ORDER_COUNT][GB_MAX_SIZES];
  gbi_plausible plausible; /* the campaign's times, and each file's last start */
};

/* ---- Arithmetic that saturates instead of wrapping ----------------------- */

static uint64_t mul_sat(uint64_t a, uint64_t b) {
  uint64_t p;
  return __builtin_mul_overflow(a, b, &p) ? UINT64_MAX : p;
}

static uint64_t add_sat(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* ---- meta.json against its own settings ----------------------------------- */

/* The index of size in settings.sizes, or -1. */
static int size_index(const gb_meta *m, uint64_t size) {
  size_t z = gb_settings_size_index(&m->settings, size);
  return z < m->settings.nsizes ? (int)z : -1;
}

/* The plan the settings imply (the harness plans every language x
 * algorithm x order x size less the omitted configurations, and the
 * language x order x size startup trials they subtract, settings.runs
 * times each). */
static int check_plan(const gb_meta *m, const char *path, gb_err *err) {
  const gb_settings *s = &m->settings;
  uint64_t trials = gb_meta_planned_startups(m), configs = gb_meta_planned_configs(m);
  size_t n_lang = gb_bits_count(s->languages), n_alg = gb_bits_count(s->algorithms),
         n_order = gb_bits_count(s->orders);
  uint64_t product = (uint64_t)(n_lang * n_alg * n_order * s->nsizes);
  if (m->plan.configurations != configs) {
    char less[64] = "";
    if (product != configs)
      snprintf(less, sizeof less, ", less %" PRIu64 " omitted", product - configs);
    return gb_err_set(err, EINVAL,
                      "%s: plan.configurations: %" PRIu64 ", but the settings select %" PRIu64
                      " (%zu languages x %zu algorithms x %zu orders x %zu sizes%s)",
                      path, m->plan.configurations, configs, n_lang, n_alg, n_order, s->nsizes,
                      less);
  }
  if (m->plan.sort_runs != mul_sat(configs, s->runs))
    return gb_err_set(err, EINVAL,
                      "%s: plan.sort_runs: %" PRIu64 ", but %" PRIu64
                      " configurations x settings.runs %" PRIu64 " is %" PRIu64,
                      path, m->plan.sort_runs, configs, s->runs, mul_sat(configs, s->runs));
  if (m->plan.startup_runs != mul_sat(trials, s->runs))
    return gb_err_set(err, EINVAL,
                      "%s: plan.startup_runs: %" PRIu64 ", but %" PRIu64
                      " startup trials x settings.runs %" PRIu64 " is %" PRIu64,
                      path, m->plan.startup_runs, trials, s->runs, mul_sat(trials, s->runs));
  return 0;
}

/* CPUs in a list such as "2,4" or "0-3,8" (the harness writes the first
 * form); 0 for text that is not such a list. */
static uint64_t count_cpus(const char *s) {
  uint64_t n = 0;
  while (*s) {
    uint64_t lo = 0, hi;
    const char *p = s;
    while (*p >= '0' && *p <= '9' && lo < 100000)
      lo = lo * 10 + (uint64_t)(*p++ - '0');
    if (p == s || lo >= 100000)
      return 0;
    hi = lo;
    if (*p == '-') {
      const char *q = ++p;
      hi = 0;
      while (*p >= '0' && *p <= '9' && hi < 100000)
        hi = hi * 10 + (uint64_t)(*p++ - '0');
      if (p == q || hi < lo || hi >= 100000)
        return 0;
    }
    n += hi - lo + 1;
    if (*p == ',' && p[1])
      p++;
    else if (*p)
      return 0;
    s = p;
  }
  return n;
}

/* An empty list means the harness could not pin: every online CPU. */
static int set_cpus(gbi_rec_rules *r, const char *path, gb_err *err) {
  const char *list = r->m->pinning.cpus;
  r->cpus = list[0] ? count_cpus(list) : r->m->machine.cpus_online;
  if (r->cpus == 0)
    return gb_err_set(err, EINVAL, "%s: pinning.cpus: '%.40s' is not a CPU list such as 2,4",
                      path, list);
  return 0;
}

static void set_zones(gbi_rec_rules *r) {
  const gb_meta *m = r->m;
  uint64_t seen = 0; /* sockets 0..63 with a package zone */
  r->packages = 0;
  for (size_t i = 0; i < m->energy.n_zones; i++) {
    const gb_meta_zone *z = &m->energy.zones[i];
    if (z->kind == GB_META_ZONE_DRAM) {
      r->drams++;
    } else if (z->socket >= 64 || !(seen >> z->socket & 1)) {
      seen |= z->socket < 64 ? UINT64_C(1) << z->socket : 0;
      r->packages++;
    }
  }
  r->packages = r->packages ? r->packages : 1;
}

static int index_calibration(gbi_rec_rules *r, const char *path, gb_err *err) {
  const gb_meta *m = r->m;
  for (size_t i = 0; i < m->n_calibration; i++) {
    const gb_meta_calibration *c = &m->calibration[i];
    int z = size_index(m, c->size);
    if (z < 0)
      return gb_err_set(err, EINVAL, "%s: calibration[%zu]: configuration not in settings",
                        path, i);
    uint64_t *slot = &r->sorts[c->language][c->algorithm][c->order][z];
    if (*slot)
      return gb_err_set(err, EINVAL,
                        "%s: calibration[%zu]: a second entry for %s/%s/%s/%" PRIu64, path, i,
                        gb_language_name(c->language), gb_algorithm_name(c->algorithm),
                        gb_order_name(c->order), c->size);
    *slot = c->sorts;
  }
  for (size_t i = 0; i < m->n_startup; i++) {
    const gb_meta_startup *s = &m->startup[i];
    int z = size_index(m, s->size);
    if (z < 0)
      return gb_err_set(err, EINVAL, "%s: startup[%zu]: trial not in settings", path, i);
    uint64_t *slot = &r->launches[s->language][s->order][z];
    if (*slot)
      return gb_err_set(err, EINVAL, "%s: startup[%zu]: a second entry for %s/%s/%" PRIu64,
                        path, i, gb_language_name(s->language), gb_order_name(s->order),
                        s->size);
    *slot = s->launches;
  }
  return 0;
}

int gbi_rec_rules_new(const gb_meta *m, const char *meta_path, gbi_rec_rules **out,
                      gb_err *err) {
  gbi_rec_rules *r = calloc(1, sizeof *r);
  if (!r)
    return gb_err_set(err, ENOMEM, "%s: out of memory", meta_path);
  r->m = m;
  set_zones(r);
  /* gb_meta_check has put every calibration and startup entry inside the
   * settings, so their indexes are in range. */
  int rc;
  if ((rc = check_plan(m, meta_path, err)) < 0 || (rc = set_cpus(r, meta_path, err)) < 0 ||
      (rc = index_calibration(r, meta_path, err)) < 0 ||
      (rc = gbi_plausible_meta(m, meta_path, &r->plausible, err)) < 0) {
    free(r);
    return rc;
  }
  *out = r;
  return 0;
}

void gbi_rec_rules_free(gbi_rec_rules *r) {
  free(r);
}

/* ---- Rows: physical bounds ------------------------------------------------ */

static int check_wall(const gbi_rec_rules *r, const gb_run_row *row, gb_err *err) {
  uint64_t timeout_s = r->m->settings.timeout_s;
  uint64_t max = mul_sat(row->launches, mul_sat(add_sat(timeout_s, 1), NS_PER_S));
  if (row->wall_ns.value == 0)
    return gb_err_set(err, EINVAL, "wall_ns: 0, but starting and reaping a process takes time");
  if (row->wall_ns.value > max)
    return gb_err_set(err, EINVAL,
                      "wall_ns: %" PRIu64 " ns, longer than %" PRIu64
                      " launch(es) x (settings.timeout_s %" PRIu64
                      " s + 1 s): a worker past its timeout is killed, never ok",
                      row->wall_ns.value, row->launches, timeout_s);
  return 0;
}

static int check_loop(const gb_run_row *row, gb_err *err) {
  if (row->kind != GB_REC_KIND_SORT)
    return 0;
  if (row->loop_ns.value == 0)
    return gb_err_set(err, EINVAL, "loop_ns: 0, but a loop of at least one sort takes time");
  if (row->loop_ns.value > row->wall_ns.value)
    return gb_err_set(err, EINVAL,
                      "loop_ns: %" PRIu64 " ns, longer than wall_ns %" PRIu64
                      " ns: the sort loop runs inside the process the wall time encloses",
                      row->loop_ns.value, row->wall_ns.value);
  return 0;
}

/* Every thread of the worker runs on the pinned CPUs (Node.js's helper
 * threads too), so its CPU time is at most wall x CPUs. */
static int check_cpu(const gbi_rec_rules *r, const gb_run_row *row, gb_err *err) {
  uint64_t wall = row->wall_ns.value, cpu = add_sat(row->user_ns.value, row->sys_ns.value);
  uint64_t max = add_sat(mul_sat(wall, r->cpus), wall / CPU_SLACK_DIV);
  if (cpu > max)
    return gb_err_set(err, EINVAL,
                      "user_ns + sys_ns: %" PRIu64 " ns, more than wall_ns %" PRIu64
                      " ns x %" PRIu64 " pinned CPU(s) (meta.json pinning.cpus '%.40s') + 1%%",
                      cpu, wall, r->cpus, r->m->pinning.cpus);
  return 0;
}

/* 1 kW is 1 uJ per ns: energy over a window of ns is at most ns x zones. */
static int check_power(const char *col, uint64_t uj, const char *window, uint64_t ns,
                       uint64_t zones, const char *what, gb_err *err) {
  if (uj <= mul_sat(ns, zones))
    return 0;
  return gb_err_set(err, EINVAL,
                    "%s: %" PRIu64 " uJ in %s %" PRIu64 " ns is %.0f W, more than 1 kW per %s "
                    "(%" PRIu64 " in meta.json), the rate at which the harness stops a run",
                    col, uj, window, ns, ns ? (double)uj * 1e3 / (double)ns : INFINITY, what,
                    zones);
}

static uint64_t opt(gb_rec_opt_u64 v) {
  return v.present ? v.value : 0;
}

static int check_energy(const gbi_rec_rules *r, const gb_run_row *row, gb_err *err) {
  uint64_t wall = row->wall_ns.value, idle_ns = row->idle_ns.value;
  int rc;
  if (row->energy != GB_REC_ENERGY_OK || !row->pkg_uj.present)
    return 0;
  /* Energy not read is never zero: a package counter that did not move in a
   * window makes the harness record energy_stalled with empty columns
   * (ADR 0008), so an ok reading of 0 uJ is one it could not have written. */
  if (row->pkg_uj.value == 0 || (row->idle_pkg_uj.present && row->idle_pkg_uj.value == 0))
    return gb_err_set(err, EINVAL,
                      "%s: 0 uJ with energy ok, but a package counter that did not move is "
                      "energy_stalled with no reading, never 0",
                      row->pkg_uj.value == 0 ? "pkg_uj" : "idle_pkg_uj");
  if (idle_ns == 0)
    return gb_err_set(err, EINVAL,
                      "idle_ns: 0, but the idle window lasts as long as its run and scales "
                      "its energy");
  /* The idle bound also bounds net power from below: never under -1 kW per
   * package. A bound relative to the run's own power would refuse what the
   * harness writes: on a short run the counters' update steps, or a burst
   * in the idle window, can make the idle window draw more than the run. */
  if ((rc = check_power("pkg_uj", row->pkg_uj.value, "wall_ns", wall, r->packages, "package",
                        err)) < 0 ||
      (rc = check_power("dram_uj", opt(row->dram_uj), "wall_ns", wall, r->drams, "dram zone",
                        err)) < 0 ||
      (rc = check_power("idle_pkg_uj", row->idle_pkg_uj.value, "idle_ns", idle_ns, r->packages,
                        "package", err)) < 0 ||
      (rc = check_power("idle_dram_uj", opt(row->idle_dram_uj), "idle_ns", idle_ns, r->drams,
                        "dram zone", err)) < 0)
    return rc;
  return 0;
}

/* ---- Rows: the calibration ------------------------------------------------ */

static int check_calibrated(const gbi_rec_rules *r, const gb_run_row *row, int z, gb_err *err) {
  bool sort = row->kind == GB_REC_KIND_SORT;
  uint64_t want = sort ? r->sorts[row->language][row->algorithm][row->order][z]
                       : r->launches[row->language][row->order][z];
  uint64_t got = sort ? row->sorts : row->launches;
  char key[96];
  if (sort)
    snprintf(key, sizeof key, "%s/%s/%s/%" PRIu64, gb_language_name(row->language),
             gb_algorithm_name(row->algorithm), gb_order_name(row->order), row->size);
  else
    snprintf(key, sizeof key, "%s/%s/%" PRIu64, gb_language_name(row->language),
             gb_order_name(row->order), row->size);
  if (want == 0)
    return gb_err_set(err, EINVAL,
                      "%s: %" PRIu64 ", but meta.json has no %s entry for %s, and measured "
                      "runs start only after calibration",
                      sort ? "sorts" : "launches", got, sort ? "calibration" : "startup", key);
  if (got != want)
    return gb_err_set(
        err, EINVAL, "%s: %" PRIu64 ", but meta.json %s gives %s %" PRIu64 " per process",
        sort ? "sorts" : "launches", got, sort ? "calibration" : "startup", key, want);
  return 0;
}

/* ---- Rows: the workload ---------------------------------------------------- */

static int compute_counts(gbi_rec_rules *r, const gb_run_row *row, int z, counts_entry **out,
                          gb_err *err) {
  counts_entry *c = &r->counts[row->algorithm][row->order][z];
  if (!c->done) {
    gb_expected e;
    int rc = gb_expected_compute(row->algorithm, row->order, (size_t)row->size,
                                 (uint32_t)row->seed, &e);
    if (rc < 0)
      return gb_err_set(err, -rc, "comparisons: the workload cannot compute them (%s)",
                        strerror(-rc));
    *c = (counts_entry){true, e.counts.comparisons, e.counts.writes};
    hash_entry *h = &r->hashes[row->order][z];
    gb_hash_hex(e.input_hash, h->hex);
    h->done = true;
  }
  *out = c;
  return 0;
}

static int compute_hash(gbi_rec_rules *r, const gb_run_row *row, int z, const char **out,
                        gb_err *err) {
  hash_entry *h = &r->hashes[row->order][z];
  if (!h->done) {
    int *a = malloc((size_t)row->size * sizeof *a);
    if (!a)
      return gb_err_set(err, ENOMEM, "out of memory computing the workload's input");
    if (gb_input_fill(a, (size_t)row->size, row->order, (uint32_t)row->seed) < 0) {
      free(a);
      return gb_err_set(err, EINVAL, "input_hash: the workload cannot build this input");
    }
    gb_hash_hex(gb_input_hash(a, (size_t)row->size), h->hex);
    h->done = true;
    free(a);
  }
  *out = h->hex;
  return 0;
}

static int count_mismatch(const char *col, uint64_t got, uint64_t want, const gb_run_row *row,
                          gb_err *err) {
  return gb_err_set(err, EINVAL,
                    "%s: %" PRIu64 ", but the workload makes %" PRIu64
                    " per sort of %s/%s/%" PRIu64 " with seed %" PRIu64,
                    col, got, want, gb_algorithm_name(row->algorithm),
                    gb_order_name(row->order), row->size, row->seed);
}

static int check_workload(gbi_rec_rules *r, const gb_run_row *row, int z, gb_err *err) {
  int rc;
  const char *hash = NULL;
  if (row->kind == GB_REC_KIND_SORT) {
    counts_entry *c = NULL;
    if ((rc = compute_counts(r, row, z, &c, err)) < 0)
      return rc;
    if (row->comparisons.value != c->comparisons)
      return count_mismatch("comparisons", row->comparisons.value, c->comparisons, row, err);
    if (row->writes.value != c->writes)
      return count_mismatch("writes", row->writes.value, c->writes, row, err);
  }
  if ((rc = compute_hash(r, row, z, &hash, err)) < 0)
    return rc;
  if (strcmp(row->input_hash, hash) != 0)
    return gb_err_set(err, EINVAL,
                      "input_hash: %s, but the workload's %s input of %" PRIu64
                      " with seed %" PRIu64 " hashes to %s",
                      row->input_hash, gb_order_name(row->order), row->size, row->seed, hash);
  return 0;
}

int gbi_rec_rules_check_row(gbi_rec_rules *r, gb_rec_file which, const gb_run_row *row,
                            gb_err *err) {
  int z = size_index(r->m, row->size), rc;
  if (z < 0) /* the reader checks the configuration first */
    return gb_err_set(err, EINVAL, "size: %" PRIu64 " is not in meta.json settings.sizes",
                      row->size);
  if ((which == GB_REC_FILE_RUNS && (rc = check_calibrated(r, row, z, err)) < 0) ||
      (rc = gbi_plausible_row(&r->plausible, which, row, err)) < 0)
    return rc;
  if (row->status != GB_REC_STATUS_OK)
    return 0;
  if ((rc = check_wall(r, row, err)) < 0 || (rc = check_loop(row, err)) < 0 ||
      (rc = check_cpu(r, row, err)) < 0 || (rc = check_energy(r, row, err)) < 0)
    return rc;
  return check_workload(r, row, z, err);
}
