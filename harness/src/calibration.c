#include "calibration.h"
#include "greenbench/meta.h"

typedef unsigned __int128 u128;
#define U128_MAX (~(u128)0)

uint64_t gb_sort_work(gb_counts counts, uint32_t size) {
  return counts.comparisons + counts.writes + 2 * (uint64_t)size;
}

bool gb_calibration_on_target(uint64_t loop_ns, uint64_t sorts, uint64_t target_ns) {
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

uint64_t gb_predict_sorts(uint64_t ref_sorts, uint64_t ref_loop_ns, uint64_t ref_work,
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

size_t gb_calibration_reference(const gb_plan *p, size_t i, const bool *usable) {
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

void gb_calibration_start(gb_calibration *k, unsigned warmups, uint64_t target_ns,
                          uint64_t predicted) {
  *k = (gb_calibration){
      .warmups = warmups, .target_ns = target_ns, .next = predicted ? predicted : 1};
}

uint64_t gb_calibration_next(const gb_calibration *k) {
  if (k->done < k->warmups)
    return k->next;
  if (k->done >= k->warmups + GB_CALIBRATION_EXTRA_WARMUPS ||
      gb_calibration_on_target(k->last_loop_ns, k->last_sorts, k->target_ns))
    return 0;
  return k->next;
}

void gb_calibration_record(gb_calibration *k, uint64_t sorts, uint64_t loop_ns) {
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
  k->next = gb_calibrate_sorts(k->recent_sorts[best], k->recent_loop_ns[best], k->target_ns);
}

uint64_t gb_calibration_sorts(const gb_calibration *k) {
  return k->done ? k->next : 1;
}

bool gb_calibration_usable(const gb_calibration *k) {
  return k->done > 0 && gb_calibration_on_target(k->last_loop_ns, k->last_sorts, k->target_ns);
}
