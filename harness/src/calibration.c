#include "calibration.h"

#include <errno.h>
#include <stdlib.h>

#include "greenbench/meta.h"
#include "greenbench/quantile.h"

typedef unsigned __int128 u128;
#define U128_MAX (~(u128)0)

uint64_t gbi_sort_work(gb_counts counts, uint32_t size) {
  return counts.comparisons + counts.writes + 2 * (uint64_t)size;
}

bool gbi_calibration_on_target(uint64_t loop_ns, uint64_t sorts, uint64_t target_ns) {
  /* 4 x DEN x loop against 4 x DEN x aim in 128 bits: exact, no overflow. */
  u128 loop = (u128)loop_ns * 4 * GB_META_CALIBRATION_HEADROOM_DEN;
  u128 aim = (u128)target_ns * GB_META_CALIBRATION_HEADROOM_NUM;
  if (loop < aim * 3)
    return false;
  return loop <= aim * 5 || sorts == 1;
}

/* a x b, or U128_MAX where it would not fit. */
static u128 mul_sat(u128 a, u128 b) {
  return b != 0 && a > U128_MAX / b ? U128_MAX : a * b;
}

uint64_t gbi_predict_sorts(uint64_t ref_sorts, uint64_t ref_loop_ns, uint64_t ref_work,
                           uint64_t work, uint64_t target_ns) {
  if (!ref_sorts || !ref_loop_ns || !ref_work || !work || !target_ns)
    return 0;
  /* Exact in 128 bits for every input a worker can report; beyond, the
   * products saturate (a huge numerator gives GB_MAX_SORTS, a huge
   * denominator one sort). */
  u128 num =
      mul_sat(mul_sat((u128)ref_sorts * ref_work, target_ns), GB_META_CALIBRATION_HEADROOM_NUM);
  u128 den = mul_sat((u128)ref_loop_ns * work, GB_META_CALIBRATION_HEADROOM_DEN);
  u128 want = num / den + (num % den != 0);
  if (want < 1)
    return 1;
  return want > GB_MAX_SORTS ? GB_MAX_SORTS : (uint64_t)want;
}

/* How far size b is from size a, as the ratio of the larger to the smaller:
 * whether (a, b) is closer than (a, c). */
static bool closer_size(uint32_t a, uint32_t b, uint32_t c) {
  uint64_t bhi = a > b ? a : b, blo = a > b ? b : a;
  uint64_t chi = a > c ? a : c, clo = a > c ? c : a;
  return bhi * clo < chi * blo;
}

/* Whether j is a closer reference for k than the best so far. */
static bool better(const gb_config *k, const gb_config *j, const gb_config *best) {
  bool ja = j->algorithm == k->algorithm, ba = best->algorithm == k->algorithm;
  if (ja != ba)
    return ja;
  bool jo = j->order == k->order, bo = best->order == k->order;
  if (jo != bo)
    return jo;
  if (closer_size(k->size, j->size, best->size))
    return true;
  /* Equally close: the later one in the plan (j comes after best). */
  return !closer_size(k->size, best->size, j->size);
}

size_t gbi_calibration_reference(const gb_plan *p, size_t i, const bool *usable) {
  size_t best = p->nconfigs;
  const gb_config *k = &p->configs[i];
  for (size_t j = 0; j < p->nconfigs; j++) {
    const gb_config *c = &p->configs[j];
    if (j == i || !usable[j] || c->language != k->language)
      continue;
    if (best == p->nconfigs || better(k, c, &p->configs[best]))
      best = j;
  }
  return best;
}

void gbi_calibration_start(gbi_calibration *k, unsigned warmups, uint64_t target_ns,
                           uint64_t predicted) {
  *k = (gbi_calibration){
      .warmups = warmups, .target_ns = target_ns, .next = predicted ? predicted : 1};
}

uint64_t gbi_calibration_next(const gbi_calibration *k) {
  if (k->done < k->warmups)
    return k->next;
  if (k->done >= k->warmups + GB_CALIBRATION_EXTRA_WARMUPS ||
      gbi_calibration_on_target(k->last_loop_ns, k->last_sorts, k->target_ns))
    return 0;
  return k->next;
}

void gbi_calibration_record(gbi_calibration *k, uint64_t sorts, uint64_t loop_ns) {
  k->recent_sorts[k->done % GB_CALIBRATION_RATE_WINDOW] = sorts;
  k->recent_loop_ns[k->done % GB_CALIBRATION_RATE_WINDOW] = loop_ns;
  k->done++;
  k->last_sorts = sorts;
  k->last_loop_ns = loop_ns;
  /* The fastest time per sort, loop / sorts, compared exactly across:
   * a / b < c / d as a x d < c x b in 128 bits. */
  size_t best = (k->done - 1) % GB_CALIBRATION_RATE_WINDOW;
  unsigned n = k->done < GB_CALIBRATION_RATE_WINDOW ? k->done : GB_CALIBRATION_RATE_WINDOW;
  for (unsigned i = 0; i < n; i++) {
    if ((u128)k->recent_loop_ns[i] * k->recent_sorts[best] <
        (u128)k->recent_loop_ns[best] * k->recent_sorts[i])
      best = i;
  }
  k->next = gbi_calibrate_sorts(k->recent_sorts[best], k->recent_loop_ns[best], k->target_ns);
}

uint64_t gbi_calibration_sorts(const gbi_calibration *k) {
  return k->done ? k->next : 1;
}

bool gbi_calibration_usable(const gbi_calibration *k) {
  return k->done > 0 && gbi_calibration_on_target(k->last_loop_ns, k->last_sorts, k->target_ns);
}

uint64_t gbi_calibrate_sorts(uint64_t sorts, uint64_t loop_ns, uint64_t target_ns) {
  /* One formula (gbi_predict_sorts): a configuration predicts itself, with
   * the same work per sort. A zero target predicts nothing: one sort. */
  uint64_t n = gbi_predict_sorts(sorts ? sorts : 1, loop_ns ? loop_ns : 1, 1, 1, target_ns);
  return n ? n : 1;
}

uint64_t gbi_startup_launches(uint64_t single_ns, uint64_t batch_ns) {
  if (single_ns == 0)
    single_ns = 1;
  uint64_t n = (batch_ns + single_ns / 2) / single_ns;
  return n ? n : 1;
}

uint64_t gbi_expected_wall(gbi_warmup_time last, uint64_t last_count, uint64_t count) {
  /* The last warm-up's start-up part, plus its loop scaled to the new count. */
  uint64_t startup = last.wall_ns > last.loop_ns ? last.wall_ns - last.loop_ns : 0;
  return startup + (uint64_t)((double)last.loop_ns * (double)count / (double)last_count);
}

int gbi_startup_batch(const double *single, size_t n, const double *runs, size_t nruns,
                      uint64_t *launches) {
  double one = 0, batch = 0;
  gb_err ignored;
  if (gb_median(single, n, &one, &ignored) < 0 || gb_median(runs, nruns, &batch, &ignored) < 0)
    return -EINVAL;
  *launches = gbi_startup_launches((uint64_t)one, (uint64_t)batch);
  return 0;
}

/* The walk's state: every configuration's rule, and what a measured run of
 * each is expected to take. */
typedef struct {
  const gb_plan *p;
  const gb_counts *counts;
  unsigned warmups;
  uint64_t target_ns;
  const gbi_calibration_io *io;
  gbi_calibration *done;
  bool *usable;
  uint64_t *expected_wall;
} walk;

/* Configuration i: its first warm-up predicted from the closest one
 * calibrated, the later ones by the rule; its sorts into *sorts. */
static int calibrate_config(walk *k, size_t i, uint64_t *sorts, gb_err *err) {
  const gb_plan *p = k->p;
  for (size_t j = 0; j < p->nconfigs; j++)
    k->usable[j] = gbi_calibration_usable(&k->done[j]);
  size_t ref = gbi_calibration_reference(p, i, k->usable);
  uint64_t predicted = 0;
  if (ref < p->nconfigs)
    predicted =
        gbi_predict_sorts(k->done[ref].last_sorts, k->done[ref].last_loop_ns,
                          gbi_sort_work(k->counts[ref], p->configs[ref].size),
                          gbi_sort_work(k->counts[i], p->configs[i].size), k->target_ns);
  gbi_calibration *cb = &k->done[i];
  gbi_calibration_start(cb, k->warmups, k->target_ns, predicted);
  uint64_t loops[GB_META_MAX_WARMUPS];
  size_t n = 0;
  gbi_warmup_time t = {0, 0};
  for (uint64_t count; (count = gbi_calibration_next(cb)) != 0;) {
    int rc = k->io->measure(k->io->ctx, i, cb->done, count, &t, err);
    if (rc < 0)
      return rc;
    gbi_calibration_record(cb, count, t.loop_ns);
    if (n < GB_META_MAX_WARMUPS)
      loops[n++] = t.loop_ns;
  }
  *sorts = gbi_calibration_sorts(cb);
  k->expected_wall[i] = gbi_expected_wall(t, cb->last_sorts, *sorts);
  return k->io->end(k->io->ctx, i, *sorts, loops, n, err);
}

/* Startup group g: `warmups` single launches, then the batch size that
 * lasts about as long as the group's sorting runs (the median of their
 * expected walls). */
static int calibrate_startup(walk *k, size_t g, uint64_t *launches, gb_err *err) {
  const gb_plan *p = k->p;
  size_t item = p->nconfigs + g;
  double walls[64], runs[GB_ALGORITHM_COUNT * GB_MAX_SIZES];
  size_t n = 0, nruns = 0;
  for (unsigned w = 0; w < k->warmups && w < 64; w++) {
    gbi_warmup_time t;
    int rc = k->io->measure(k->io->ctx, item, w, 1, &t, err);
    if (rc < 0)
      return rc;
    walls[n++] = (double)t.wall_ns;
  }
  for (size_t i = 0; i < p->nconfigs; i++)
    if (gb_plan_startup_of(p, &p->configs[i]) == g)
      runs[nruns++] = (double)k->expected_wall[i];
  if (gbi_startup_batch(walls, n, runs, nruns, launches) < 0) {
    char label[64];
    gb_startup_label(&p->startups[g], label, sizeof label);
    return gb_err_set(err, EINVAL, "no warm-up to size the startup batches of %s", label);
  }
  return k->io->end(k->io->ctx, item, *launches, NULL, 0, err);
}

int gbi_calibrate_plan(const gb_plan *p, const gb_counts *counts, unsigned warmups,
                       uint64_t target_ns, const gbi_calibration_io *io, uint64_t *sorts,
                       uint64_t *launches, gb_err *err) {
  walk k = {.p = p,
            .counts = counts,
            .warmups = warmups,
            .target_ns = target_ns,
            .io = io,
            .done = calloc(p->nconfigs, sizeof *k.done),
            .usable = calloc(p->nconfigs, sizeof *k.usable),
            .expected_wall = calloc(p->nconfigs, sizeof *k.expected_wall)};
  int rc = k.done && k.usable && k.expected_wall ? 0 : gb_err_set(err, ENOMEM, "out of memory");
  for (size_t i = 0; i < p->nconfigs && rc == 0; i++)
    if ((rc = io->begin(io->ctx, i, err)) == 0)
      rc = calibrate_config(&k, i, &sorts[i], err);
  for (size_t g = 0; g < p->nstartups && rc == 0; g++)
    if ((rc = io->begin(io->ctx, p->nconfigs + g, err)) == 0)
      rc = calibrate_startup(&k, g, &launches[g], err);
  free(k.done);
  free(k.usable);
  free(k.expected_wall);
  return rc;
}
