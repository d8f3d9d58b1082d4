#include "greenbench/ratio.h"

#include "stats_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

const char *gb_reading_name(gb_reading r) {
  switch (r) {
  case GB_READING_SAME:
    return "same";
  case GB_READING_DIFFERS:
    return "differs";
  case GB_READING_INCONCLUSIVE:
    return "inconclusive";
  default:
    return "undefined";
  }
}

gb_reading gbi_ratio_read(double lo, double hi, double m, bool undefined) {
  if (undefined || isnan(lo) || isnan(hi)) {
    return GB_READING_UNDEFINED;
  }
  if (lo >= 1.0 / (1.0 + m) && hi <= 1.0 + m) {
    return GB_READING_SAME;
  }
  if (lo > 1.0 || hi < 1.0) {
    return GB_READING_DIFFERS;
  }
  return GB_READING_INCONCLUSIVE;
}

/* More than 2.5% of replicates not > 0, compared in integers (count / B >
 * 1 / 40) so that exactly 2.5% is never misread by rounding. No overflow:
 * B is bounded by the memory its replicates fill. */
static bool lost_in_noise(const gb_interval *iv, size_t replicates) {
  return iv->n_nonpositive * GB_RATIO_NOISE_SHARE_DEN > replicates;
}

static bool is_undefined(const gb_boot *a, const gb_boot *b) {
  if (!a->has_energy || !b->has_energy) {
    return true;
  }
  const gb_boot *side[2] = {a, b};
  for (int s = 0; s < 2; s++) {
    const gb_interval *t = &side[s]->est[GB_EST_TIME_PER_SORT];
    const gb_interval *e = &side[s]->est[GB_EST_ENERGY_PER_SORT];
    if (!(t->point > 0.0) || !(e->point > 0.0) || lost_in_noise(t, side[s]->n_replicates) ||
        lost_in_noise(e, side[s]->n_replicates)) {
      return true;
    }
  }
  return false;
}

static double positive_ratio(double x, double y) {
  return x > 0.0 && y > 0.0 ? x / y : NAN;
}

/* Replicate ratios into tr, er, pr (NAN where a value is not > 0): time,
 * energy, and power = energy ratio / time ratio; energy and power are NAN
 * together, where any of the four values is not > 0. */
static void replicate_ratios(const gb_boot *a, const gb_boot *b, double *tr, double *er,
                             double *pr) {
  const double *ta = gb_boot_replicates(a, GB_EST_TIME_PER_SORT);
  const double *tb = gb_boot_replicates(b, GB_EST_TIME_PER_SORT);
  const double *ea = gb_boot_replicates(a, GB_EST_ENERGY_PER_SORT);
  const double *eb = gb_boot_replicates(b, GB_EST_ENERGY_PER_SORT);
  for (size_t r = 0; r < a->n_replicates; r++) {
    tr[r] = positive_ratio(ta[r], tb[r]);
    er[r] = positive_ratio(ea[r], eb[r]);
    pr[r] = isnan(tr[r]) ? NAN : er[r] / tr[r];
    er[r] = isnan(pr[r]) ? NAN : er[r];
  }
}

static gb_interval interval_of(const double *v, size_t n, double point, double level,
                               double *scratch) {
  gb_interval iv = {.point = point};
  for (size_t r = 0; r < n; r++) {
    iv.n_nonpositive += !(v[r] > 0.0);
  }
  iv.n_used = gb_percentile_interval(v, n, level, scratch, &iv.lo, &iv.hi);
  iv.available = iv.n_used > 0;
  return iv;
}

static void points(const gb_boot *a, const gb_boot *b, double *t, double *e, double *p) {
  *t = positive_ratio(a->est[GB_EST_TIME_PER_SORT].point, b->est[GB_EST_TIME_PER_SORT].point);
  *e = positive_ratio(a->est[GB_EST_ENERGY_PER_SORT].point,
                      b->est[GB_EST_ENERGY_PER_SORT].point);
  *p = isnan(*t) || isnan(*e) ? NAN : *e / *t;
}

/* Whether b holds every replicate of time and energy per sort. */
static bool holds_all(const gb_boot *b) {
  return b->n_held == b->n_replicates && gb_boot_replicates(b, GB_EST_TIME_PER_SORT) &&
         gb_boot_replicates(b, GB_EST_ENERGY_PER_SORT);
}

static int check_args(const gb_boot *a, const gb_boot *b, double m, double level, gb_err *err) {
  if (a->n_replicates == 0 || a->n_replicates != b->n_replicates) {
    return gb_err_set(err, EINVAL, "ratio: %zu replicates against %zu", a->n_replicates,
                      b->n_replicates);
  }
  if (!holds_all(a) || !holds_all(b)) {
    return gb_err_set(err, EINVAL, "ratio: replicates of time or energy per sort released");
  }
  if (!(isfinite(m) && m > 0.0)) {
    return gb_err_set(err, EINVAL, "ratio: margin %g is not a positive number", m);
  }
  if (!(level > 0.0 && level < 1.0)) {
    return gb_err_set(err, EINVAL, "ratio: level %g is not in (0, 1)", level);
  }
  return 0;
}

int gb_ratio_of_in(const gb_boot *a, const gb_boot *b, double m, double level, double *scratch,
                   gb_ratio *out, gb_err *err) {
  int rc = check_args(a, b, m, level, err);
  if (rc < 0) {
    return rc;
  }
  size_t n = a->n_replicates;
  double *tr = scratch, *er = scratch + n, *pr = scratch + 2 * n, *sel = scratch + 3 * n;
  replicate_ratios(a, b, tr, er, pr);
  double pt, pe, pp;
  points(a, b, &pt, &pe, &pp);
  gb_ratio r = {.time = interval_of(tr, n, pt, level, sel),
                .energy = interval_of(er, n, pe, level, sel),
                .power = interval_of(pr, n, pp, level, sel)};
  r.reading = gbi_ratio_read(r.power.lo, r.power.hi, m, is_undefined(a, b));
  r.excludes_one = r.reading != GB_READING_UNDEFINED && (r.power.lo > 1.0 || r.power.hi < 1.0);
  if (r.reading == GB_READING_UNDEFINED) {
    /* An undefined reading carries no power ratio: a point and an interval
     * from the replicates left would look like a measurement. */
    r.power = (gb_interval){
        .point = NAN, .lo = NAN, .hi = NAN, .n_nonpositive = r.power.n_nonpositive};
  }
  *out = r;
  return 0;
}

int gbi_ratio_of(const gb_boot *a, const gb_boot *b, double m, double level, gb_ratio *out,
                 gb_err *err) {
  int rc = check_args(a, b, m, level, err);
  if (rc < 0) {
    return rc;
  }
  double *scratch = malloc(4 * a->n_replicates * sizeof *scratch);
  if (!scratch) {
    return gb_err_set(err, ENOMEM, "ratio: out of memory for %zu replicates", a->n_replicates);
  }
  rc = gb_ratio_of_in(a, b, m, level, scratch, out, err);
  free(scratch);
  return rc;
}

void gb_ratio_tally_of(const gb_ratio *ratios, size_t n, double level, gb_ratio_tally *out) {
  gb_ratio_tally t = {.total = n};
  for (size_t i = 0; i < n; i++) {
    t.readings[ratios[i].reading]++;
    t.defined += ratios[i].reading != GB_READING_UNDEFINED;
    t.excluding_one += ratios[i].excludes_one;
  }
  t.expected_by_chance = (1.0 - level) * (double)t.defined;
  *out = t;
}
