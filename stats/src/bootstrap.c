#include "greenbench/bootstrap.h"

#include "greenbench/quantile.h"
#include "greenbench/rng.h"

#include "boot_internal.h"
#include "greenbench/quantile_rule.h"
#include "greenbench/rng_core.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Every estimate before GB_EST_NET_POWER is a median of one per-run value;
 * net power is derived from two of those medians. */
enum { N_MEDIANS = GB_EST_NET_POWER };

double gb_net_energy_uj(double energy_uj, double idle_energy_uj, double wall_ns,
                        double idle_ns) {
  return energy_uj - idle_energy_uj * (wall_ns / idle_ns);
}

static bool finite_at_least(double v, double min) {
  return isfinite(v) && v >= min;
}

static int check_run(const gb_run *run, gb_err *err) {
  if (!(isfinite(run->wall_ns) && run->wall_ns > 0.0)) {
    return gb_err_set(err, EINVAL, "wall_ns = %g is not a positive time", run->wall_ns);
  }
  if (!finite_at_least(run->cpu_ns, 0.0)) {
    return gb_err_set(err, EINVAL, "cpu_ns = %g is not a time >= 0", run->cpu_ns);
  }
  if (run->sorts == 0) {
    return gb_err_set(err, EINVAL, "sorts is 0");
  }
  if (!isnan(run->energy_uj) && !finite_at_least(run->energy_uj, 0.0)) {
    return gb_err_set(err, EINVAL, "energy_uj = %g is neither missing nor >= 0",
                      run->energy_uj);
  }
  if (!isnan(run->idle_energy_uj) && !finite_at_least(run->idle_energy_uj, 0.0)) {
    return gb_err_set(err, EINVAL, "idle_energy_uj = %g is neither missing nor >= 0",
                      run->idle_energy_uj);
  }
  bool energy = !isnan(run->energy_uj) && !isnan(run->idle_energy_uj);
  if (energy && !(isfinite(run->idle_ns) && run->idle_ns > 0.0)) {
    return gb_err_set(err, EINVAL, "idle_ns = %g is not a positive time", run->idle_ns);
  }
  return 0;
}

static int check_startup(const gb_startup *st, gb_err *err) {
  if (!finite_at_least(st->time_ns, 0.0) || !finite_at_least(st->cpu_ns, 0.0)) {
    return gb_err_set(err, EINVAL, "startup time %g ns or cpu %g ns is not a time >= 0",
                      st->time_ns, st->cpu_ns);
  }
  if (isinf(st->energy_uj)) {
    return gb_err_set(err, EINVAL, "startup energy_uj is infinite");
  }
  return 0;
}

int gbi_run_values_of(const gb_run *run, const gb_startup *startup, gb_run_values *out,
                      gb_err *err) {
  int rc = check_run(run, err);
  if (rc == 0) {
    rc = check_startup(startup, err);
  }
  if (rc < 0) {
    return rc;
  }
  double sorts = (double)run->sorts;
  gb_run_values v = {.process_ns = run->wall_ns};
  v.time_per_sort_ns = (run->wall_ns - startup->time_ns) / sorts;
  v.cpu_per_sort_ns = (run->cpu_ns - startup->cpu_ns) / sorts;
  /* NAN in any energy input propagates: missing stays missing. */
  double net =
      gb_net_energy_uj(run->energy_uj, run->idle_energy_uj, run->wall_ns, run->idle_ns);
  v.energy_per_sort_uj = (net - startup->energy_uj) / sorts;
  double idle_power = run->idle_energy_uj / run->idle_ns; /* uJ per ns */
  v.gross_energy_per_sort_uj = v.energy_per_sort_uj + idle_power * v.time_per_sort_ns;
  if (isnan(v.energy_per_sort_uj)) {
    v.gross_energy_per_sort_uj = NAN;
  }
  *out = v;
  return 0;
}

/* Each estimate's run values in ascending order with the run behind each,
 * so that a resample, held as a count per run, yields its median by one walk
 * up the sorted values instead of a gather and a select per estimate. The
 * order statistics are the same values a sort of the resample would give
 * (boot_internal.h). */
typedef struct {
  size_t n;
  bool active[N_MEDIANS];
  /* The estimate whose walk e reuses: e itself, or an earlier active
   * estimate with the very same order of runs (time per sort and process
   * time when every run made the same number of sorts), whose walk then
   * stops at the same positions. */
  int walk_of[N_MEDIANS];
  double *sorted;   /* N_MEDIANS x n */
  uint32_t *order;  /* N_MEDIANS x n */
  uint32_t *counts; /* n: copies of each run in the current resample */
  /* Per run, in a LANE_BITS-bit lane per walked estimate e: 1 when the run
   * sits at sorted position lo or below in e's order (lo of the median).
   * Summed over a resample's draws, lane e is the copies at positions
   * 0 .. lo, where e's walk starts (gbi_counted_positions_from). Used while
   * n < 2^LANE_BITS, so a lane never overflows into the next. */
  uint64_t *lanes;
  /* With the startup resampled (gb_boot_opts.startup_batches): the fixed
   * startup the sorted values subtract; the sorts per process when every run
   * made the same number (0 otherwise), whose values then shift in step;
   * and per run, for the estimates that cannot shift in step, its values
   * with the fixed startup (N_MEDIANS x n, estimate-major), 1 / sorts, idle
   * power, and n doubles to gather a resample in. */
  gb_startup fixed;
  double uniform_sorts;
  double *base, *inv_sorts, *idle_power, *gather;
  /* Gross energy with equal sorts: its order of runs depends only on the
   * startup time's move, which a startup resample takes from few values.
   * Per distinct move d (n_moves of them), the runs' values
   * base - idle power x d / sorts sorted with the run behind each
   * (n_moves x n), and per replicate the index of its move; NULL when not
   * used (then gathered, shifted_median). */
  size_t n_moves;
  double *gross_sorted;
  uint32_t *gross_order, *move_of;
} boot_work;

/* The most distinct startup-time moves held for gross energy; beyond, it
 * is gathered replicate by replicate. A trial of 30 batches has at most
 * 465 distinct medians. */
enum { MAX_MOVES = 512 };

enum { LANE_BITS = 12 };
_Static_assert(N_MEDIANS *LANE_BITS <= 64, "a lane per median in 64 bits");

typedef struct {
  double v;
  uint32_t run;
} keyed;

static int cmp_keyed(const void *a, const void *b) {
  const keyed *x = a, *y = b;
  if (x->v != y->v) {
    return x->v < y->v ? -1 : 1;
  }
  return (x->run > y->run) - (x->run < y->run);
}

static double value_of(const gb_run_values *v, int e) {
  switch (e) {
  case GB_EST_TIME_PER_SORT:
    return v->time_per_sort_ns;
  case GB_EST_ENERGY_PER_SORT:
    return v->energy_per_sort_uj;
  case GB_EST_PROCESS_TIME:
    return v->process_ns;
  case GB_EST_CPU_PER_SORT:
    return v->cpu_per_sort_ns;
  default:
    return v->gross_energy_per_sort_uj;
  }
}

static void work_free(boot_work *w) {
  free(w->sorted);
  free(w->order);
  free(w->counts);
  free(w->lanes);
  free(w->base);
  free(w->gross_sorted);
  free(w->gross_order);
  free(w->move_of);
}

static int work_alloc(boot_work *w, size_t n, gb_err *err) {
  *w = (boot_work){.n = n};
  w->sorted = malloc(N_MEDIANS * n * sizeof *w->sorted);
  w->order = malloc(N_MEDIANS * n * sizeof *w->order);
  w->counts = malloc(n * sizeof *w->counts);
  w->lanes = calloc(n, sizeof *w->lanes);
  if (!w->sorted || !w->order || !w->counts || !w->lanes) {
    work_free(w);
    return gb_err_set(err, ENOMEM, "bootstrap: out of memory for %zu runs", n);
  }
  return 0;
}

static bool needs_energy(int e) {
  return e == GB_EST_ENERGY_PER_SORT || e == GB_EST_GROSS_ENERGY_PER_SORT ||
         e == GB_EST_NET_POWER;
}

static void work_fill(boot_work *w, const gb_run_values *vals, bool has_energy, keyed *tmp) {
  size_t n = w->n;
  for (int e = 0; e < N_MEDIANS; e++) {
    w->active[e] = has_energy || !needs_energy(e);
    w->walk_of[e] = e;
    if (!w->active[e]) {
      continue;
    }
    for (size_t i = 0; i < n; i++) {
      tmp[i] = (keyed){value_of(&vals[i], e), (uint32_t)i};
    }
    qsort(tmp, n, sizeof *tmp, cmp_keyed);
    for (size_t i = 0; i < n; i++) {
      w->sorted[e * n + i] = tmp[i].v;
      w->order[e * n + i] = tmp[i].run;
    }
    for (int f = 0; f < e && w->walk_of[e] == e; f++) {
      if (w->active[f] && w->walk_of[f] == f &&
          memcmp(w->order + f * n, w->order + e * n, n * sizeof *w->order) == 0) {
        w->walk_of[e] = f;
      }
    }
  }
  size_t lo;
  double frac;
  q7_position(n, 0.5, &lo, &frac);
  for (int e = 0; e < N_MEDIANS; e++) {
    for (size_t p = 0; w->active[e] && w->walk_of[e] == e && p <= lo; p++) {
      w->lanes[w->order[e * n + p]] |= UINT64_C(1) << (LANE_BITS * e);
    }
  }
}

static double power_w(double energy_uj, double time_ns) {
  return time_ns > 0.0 ? energy_uj / time_ns * 1e3 : NAN;
}

/* Draws the replicates into rep (GB_EST_COUNT x replicates, estimate-major):
 * replicate r's n indices by gb_rng_below(rng, n) in order, then each
 * estimate's median of those runs. The generator's state is kept in a local
 * copy (rng_core.h) so that it stays in registers; the draws are
 * gb_rng_below's. */
/* The median of estimate e over the resample in counts, each run's value
 * moved from the fixed startup to st: (value - (st - fixed) / sorts), and
 * for gross energy also minus idle power x the time's move. A gather and a
 * selection, for the estimates whose order of runs the move can change. */
static double shifted_median(boot_work *w, int e, const gb_startup *st) {
  size_t n = w->n, m = 0;
  double dt = st->time_ns - w->fixed.time_ns, dc = st->cpu_ns - w->fixed.cpu_ns;
  double de = st->energy_uj - w->fixed.energy_uj;
  for (size_t i = 0; i < n; i++) {
    double v = w->base[e * n + i], k = w->inv_sorts[i];
    switch (e) {
    case GB_EST_TIME_PER_SORT:
      v -= dt * k;
      break;
    case GB_EST_CPU_PER_SORT:
      v -= dc * k;
      break;
    case GB_EST_ENERGY_PER_SORT:
      v -= de * k;
      break;
    case GB_EST_GROSS_ENERGY_PER_SORT:
      v -= (de + w->idle_power[i] * dt) * k;
      break;
    default:
      break;
    }
    for (uint32_t c = 0; c < w->counts[i]; c++) {
      w->gather[m++] = v;
    }
  }
  return gb_quantile_select(w->gather, m, 0.5);
}

/* Moves replicate r's medians (out[e * replicates], e < N_MEDIANS) from the
 * fixed startup to st: in step, (median - move / sorts), when every run made
 * the same sorts, for the estimates whose order of runs a common move keeps;
 * else by shifted_median. Process time does not move. */
/* The index of move x among moves[0..*d), added when new: an open
 * addressing table of 2 x MAX_MOVES slots keyed by x's bits (slot holds
 * index + 1, 0 when free). MAX_MOVES when the table is full. */
static size_t move_index(double x, double *moves, size_t *d, uint32_t *slots) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  size_t h = (size_t)((bits * UINT64_C(0x9e3779b97f4a7c15)) >> 54); /* 10 bits */
  for (;; h = (h + 1) % (2 * MAX_MOVES)) {
    uint32_t at = slots[h];
    if (at == 0) {
      if (*d == MAX_MOVES) {
        return MAX_MOVES;
      }
      moves[*d] = x;
      slots[h] = (uint32_t)++ * d;
      return *d - 1;
    }
    if (memcmp(&moves[at - 1], &x, sizeof x) == 0) {
      return at - 1;
    }
  }
}

/* Prepares gross energy's sorted values per distinct startup-time move
 * (boot_work.gross_sorted), when every run made the same sorts and gross
 * energy is active; leaves it NULL (gathered instead) when the moves are
 * too many or memory is short: the same values either way. */
static void prepare_gross(boot_work *w, const gb_startup *startups, size_t B, keyed *tmp) {
  _Static_assert(2 * MAX_MOVES == 1 << 10, "move_index hashes to 10 bits");
  size_t n = w->n, d = 0;
  if (!(w->uniform_sorts > 0.0) || !w->active[GB_EST_GROSS_ENERGY_PER_SORT]) {
    return;
  }
  double moves[MAX_MOVES];
  uint32_t slots[2 * MAX_MOVES] = {0};
  w->move_of = malloc(B * sizeof *w->move_of);
  for (size_t r = 0; w->move_of && r < B && d <= MAX_MOVES; r++) {
    size_t m = move_index(startups[r].time_ns - w->fixed.time_ns, moves, &d, slots);
    w->move_of[r] = (uint32_t)m;
    d = m == MAX_MOVES ? MAX_MOVES + 1 : d;
  }
  bool fits = w->move_of && d <= MAX_MOVES;
  w->gross_sorted = fits ? malloc(d * n * sizeof *w->gross_sorted) : NULL;
  w->gross_order = fits ? malloc(d * n * sizeof *w->gross_order) : NULL;
  if (!w->gross_sorted || !w->gross_order) {
    free(w->gross_sorted);
    free(w->gross_order);
    free(w->move_of);
    w->gross_sorted = NULL;
    w->gross_order = w->move_of = NULL;
    return;
  }
  const double *g = w->base + GB_EST_GROSS_ENERGY_PER_SORT * n;
  for (size_t m = 0; m < d; m++) {
    for (size_t i = 0; i < n; i++) {
      tmp[i] = (keyed){g[i] - w->idle_power[i] * moves[m] / w->uniform_sorts, (uint32_t)i};
    }
    qsort(tmp, n, sizeof *tmp, cmp_keyed);
    for (size_t i = 0; i < n; i++) {
      w->gross_sorted[m * n + i] = tmp[i].v;
      w->gross_order[m * n + i] = tmp[i].run;
    }
  }
  w->n_moves = d;
}

static void shift_replicate(boot_work *w, const gb_startup *st, size_t r, double *out,
                            size_t replicates) {
  const double moves[N_MEDIANS] = {[GB_EST_TIME_PER_SORT] = st->time_ns - w->fixed.time_ns,
                                   [GB_EST_ENERGY_PER_SORT] =
                                       st->energy_uj - w->fixed.energy_uj,
                                   [GB_EST_CPU_PER_SORT] = st->cpu_ns - w->fixed.cpu_ns};
  for (int e = 0; e < N_MEDIANS; e++) {
    double *v = out + (size_t)e * replicates;
    if (!w->active[e] || e == GB_EST_PROCESS_TIME) {
      continue;
    }
    if (w->uniform_sorts > 0.0 && e != GB_EST_GROSS_ENERGY_PER_SORT) {
      *v -= moves[e] / w->uniform_sorts;
    } else if (e == GB_EST_GROSS_ENERGY_PER_SORT && w->gross_sorted) {
      size_t n = w->n, m = w->move_of[r], lo;
      double frac;
      q7_position(n, 0.5, &lo, &frac);
      *v = gbi_counted_quantile(w->gross_sorted + m * n, w->gross_order + m * n, w->counts, lo,
                                frac) -
           moves[GB_EST_ENERGY_PER_SORT] / w->uniform_sorts;
    } else {
      *v = shifted_median(w, e, st);
    }
  }
}

static void resample_all(boot_work *w, gb_rng *rng, size_t replicates, double *rep,
                         const gb_startup *startups) {
  size_t n = w->n, lo;
  double frac;
  q7_position(n, 0.5, &lo, &frac);
  uint64_t s[4] = {rng->s[0], rng->s[1], rng->s[2], rng->s[3]};
  uint64_t threshold = rng_core_threshold(n);
  uint32_t *counts = w->counts;
  const uint64_t *lanes = w->lanes;
  const bool head_start = n < (UINT64_C(1) << LANE_BITS);
  const uint64_t lane_mask = (UINT64_C(1) << LANE_BITS) - 1;
  for (size_t r = 0; r < replicates; r++) {
    memset(counts, 0, n * sizeof *counts);
    uint64_t below = 0; /* lane e: copies at e's positions 0 .. lo */
    for (size_t i = 0; i < n; i++) {
      uint64_t d = rng_core_below(s, n, threshold);
      counts[d]++;
      below += lanes[d];
    }
    size_t at[N_MEDIANS][2];
    for (int e = 0; e < N_MEDIANS; e++) {
      double *out = rep + e * replicates + r;
      int k = w->walk_of[e];
      if (!w->active[e]) {
        *out = NAN;
        continue;
      }
      if (k == e && head_start) {
        size_t cum_lo = (size_t)((below >> (LANE_BITS * e)) & lane_mask);
        gbi_counted_positions_from(w->order + e * n, counts, lo, frac, cum_lo, &at[e][0],
                                   &at[e][1]);
      } else if (k == e) {
        gbi_counted_positions(w->order + e * n, counts, lo, frac, &at[e][0], &at[e][1]);
      }
      *out = gbi_counted_value(w->sorted + e * n, at[k][0], at[k][1], frac);
    }
    if (startups) {
      shift_replicate(w, &startups[r], r, rep + r, replicates);
    }
    rep[GB_EST_NET_POWER * replicates + r] =
        power_w(rep[GB_EST_ENERGY_PER_SORT * replicates + r],
                rep[GB_EST_TIME_PER_SORT * replicates + r]);
  }
  memcpy(rng->s, s, sizeof s);
}

/* ---- Percentile intervals ------------------------------------------------- */

/* A percentile interval's two tails are found among a few hundred values
 * instead of all m: the m values are sampled at even strides, the sample
 * places a threshold at each tail with a wide margin, one pass copies the
 * values beyond each threshold, and the order statistics needed are
 * selected among those copies. Whatever the sample says, the result is
 * exact: a tail whose copies turn out too few to hold its order statistics
 * falls back to a selection over all values. */
enum { TAIL_SAMPLE = 512 };

/* The order statistic of a sample of s that stands for the `need`-th value
 * from its end among m, pushed 4 standard deviations outwards so that
 * fewer than `need` values lie beyond it only rarely. */
static size_t sample_rank(size_t need, size_t m, size_t s) {
  double q = (double)need / (double)m * (double)s;
  double r = q + 4.0 * sqrt(q) + 2.0;
  return r >= (double)(s - 1) ? s - 1 : (size_t)r;
}

/* Fills sample[] with the values at TAIL_SAMPLE even strides over
 * values[0..n-1], NAN left out; returns how many. Any sample gives exact
 * tails; an even one gives thresholds close to them. */
static size_t take_sample(const double *values, size_t n, double *sample) {
  size_t stride = n / TAIL_SAMPLE, s = 0;
  for (size_t i = 0; i < TAIL_SAMPLE; i++) {
    double v = values[i * stride];
    if (!isnan(v)) {
      sample[s++] = v;
    }
  }
  return s;
}

/* The percentile interval at tail t of the non-NAN values among
 * values[0..n-1] through thresholds from a sample: their count m, or 0 when
 * the sample misled (then *lo and *hi are left alone). scratch holds n
 * doubles. Needs n >= TAIL_SAMPLE; meant for narrow tails, where the
 * thresholds leave a few hundred values beyond them. */
static size_t tails_by_sample(const double *values, size_t n, double t, double *scratch,
                              double *lo, double *hi) {
  size_t s = take_sample(values, n, scratch);
  if (s < TAIL_SAMPLE / 2) {
    return 0;
  }
  /* Thresholds for the order statistics a tail of n values would need;
   * the exact ones (of m) are checked below. */
  size_t pl, ph;
  double fl, fh;
  q7_position(n, t, &pl, &fl);
  q7_position(n, 1.0 - t, &ph, &fh);
  double t_lo = q7_select_at(scratch, s, sample_rank(pl + 2, n, s), 0.0);
  double t_hi = q7_select_at(scratch, s, s - 1 - sample_rank(n - ph, n, s), 0.0);
  if (!(t_lo < t_hi)) {
    return 0;
  }
  /* Values at or below t_lo from the front of scratch, at or above t_hi
   * from the back (NAN neither), and the count of non-NAN ones. Without
   * branches: each value is written to both free ends and kept where it
   * belongs by advancing that end. Before value i at most i are kept, so
   * both ends are free slots of scratch (the same slot when one is left,
   * where both writes agree). */
  size_t below = 0, above = 0, m = 0;
  for (size_t i = 0; i < n; i++) {
    double v = values[i];
    m += v == v;
    scratch[below] = v;
    below += v <= t_lo;
    scratch[n - 1 - above] = v;
    above += v >= t_hi;
  }
  q7_position(m, t, &pl, &fl);
  q7_position(m, 1.0 - t, &ph, &fh);
  if (below < pl + 2 || above < m - ph) {
    return 0;
  }
  /* Statistics 0 .. pl + 1 are at or below t_lo, so they have the same
   * ranks among the copies below; statistics ph .. m - 1 are the last
   * m - ph of the copies above. */
  *lo = q7_select_at(scratch, below, pl, fl);
  *hi = q7_select_at(scratch + n - above, above, ph - (m - above), fh);
  return m;
}

size_t gb_percentile_interval(const double *values, size_t n, double level, double *scratch,
                              double *lo, double *hi) {
  *lo = *hi = NAN;
  /* level is a decimal such as 0.95, and 1 - 0.95 is not 0.05 in binary:
   * rounding the tail to 12 places makes it the double nearest 0.025, so a
   * tail that falls on an order statistic picks exactly that value. */
  double tail = round((1.0 - level) / 2.0 * 1e12) / 1e12;
  /* Narrow tails of many values (the study's 2.5% of 10,000) by a sample;
   * otherwise, or when the sample misleads, a copy and two selections. */
  size_t m = n >= 4 * TAIL_SAMPLE && tail <= 0.05
                 ? tails_by_sample(values, n, tail, scratch, lo, hi)
                 : 0;
  if (m > 0) {
    return m;
  }
  for (size_t i = 0; i < n; i++) {
    if (!isnan(values[i])) {
      scratch[m++] = values[i];
    }
  }
  if (m > 0) {
    *lo = gb_quantile_select(scratch, m, tail);
    *hi = gb_quantile_select(scratch, m, 1.0 - tail);
  }
  return m;
}

static void summarise(gb_boot *b, const boot_work *w, const double *rep, double level,
                      double *scratch) {
  size_t n = w->n, B = b->n_replicates;
  for (int e = 0; e < GB_EST_COUNT; e++) {
    gb_interval *iv = &b->est[e];
    const double *v = rep + (size_t)e * B;
    iv->available = b->has_energy || !needs_energy(e);
    for (size_t r = 0; r < B; r++) {
      iv->n_nonpositive += !(v[r] > 0.0);
    }
    iv->n_used = gb_percentile_interval(v, B, level, scratch, &iv->lo, &iv->hi);
    iv->point =
        e < N_MEDIANS && iv->available ? gb_quantile_sorted(w->sorted + e * n, n, 0.5) : NAN;
  }
  /* Net power is undefined, with no point and no interval, where the
   * median time or energy per sort is not above 0: the sort is lost in the
   * startup's noise, and a power from it would be a number without
   * meaning. */
  double e = b->est[GB_EST_ENERGY_PER_SORT].point, t = b->est[GB_EST_TIME_PER_SORT].point;
  gb_interval *p = &b->est[GB_EST_NET_POWER];
  p->point = b->has_energy && e > 0.0 ? power_w(e, t) : NAN;
  if (isnan(p->point)) {
    p->lo = p->hi = NAN;
    p->n_used = 0;
  }
}

static int check_opts(const gb_boot_opts *o, size_t n, gb_err *err) {
  if (n == 0 || n > UINT32_MAX) {
    return gb_err_set(err, EINVAL, "bootstrap: %zu runs (need 1 to %u)", n, UINT32_MAX);
  }
  if (o->replicates == 0 || o->replicates > SIZE_MAX / (GB_EST_COUNT * sizeof(double))) {
    return gb_err_set(err, EINVAL, "bootstrap: %zu replicates", o->replicates);
  }
  if (!(o->level > 0.0 && o->level < 1.0)) {
    return gb_err_set(err, EINVAL, "bootstrap: level %g is not in (0, 1)", o->level);
  }
  return 0;
}

/* Derives every run's values; they are kept in the caller's vals. */
static int derive_all(const gb_run *runs, size_t n, const gb_startup *st, gb_run_values *vals,
                      bool *has_energy, gb_err *err) {
  *has_energy = true;
  for (size_t i = 0; i < n; i++) {
    gb_err inner;
    int rc = gbi_run_values_of(&runs[i], st, &vals[i], &inner);
    if (rc < 0) {
      return gb_err_set(err, -rc, "bootstrap: run %zu: %s", i, inner.msg);
    }
    *has_energy = *has_energy && !isnan(vals[i].energy_per_sort_uj);
  }
  return 0;
}

/* What a resampled startup needs of each run (boot_work.base and the rest). */
static int work_fill_shift(boot_work *w, const gb_run *runs, const gb_run_values *vals,
                           const gb_startup *st, gb_err *err) {
  size_t n = w->n;
  w->fixed = *st;
  w->base = malloc((N_MEDIANS + 3) * n * sizeof *w->base);
  if (!w->base) {
    return gb_err_set(err, ENOMEM, "bootstrap: out of memory for %zu runs", n);
  }
  w->inv_sorts = w->base + N_MEDIANS * n;
  w->idle_power = w->inv_sorts + n;
  w->gather = w->idle_power + n;
  w->uniform_sorts = (double)runs[0].sorts;
  for (size_t i = 0; i < n; i++) {
    for (int e = 0; e < N_MEDIANS; e++) {
      w->base[e * n + i] = value_of(&vals[i], e);
    }
    w->inv_sorts[i] = 1.0 / (double)runs[i].sorts;
    w->idle_power[i] = runs[i].idle_energy_uj / runs[i].idle_ns;
    w->uniform_sorts = runs[i].sorts == runs[0].sorts ? w->uniform_sorts : 0.0;
  }
  return 0;
}

static int boot_prepare(const gb_run *runs, size_t n, const gb_startup *st, bool shift,
                        boot_work *w, bool *has_energy, gb_err *err) {
  gb_run_values *vals = malloc(n * sizeof *vals);
  keyed *tmp = malloc(n * sizeof *tmp);
  int rc =
      vals && tmp ? 0 : gb_err_set(err, ENOMEM, "bootstrap: out of memory for %zu runs", n);
  if (rc == 0) {
    rc = derive_all(runs, n, st, vals, has_energy, err);
  }
  if (rc == 0) {
    rc = work_alloc(w, n, err);
  }
  if (rc == 0) {
    work_fill(w, vals, *has_energy, tmp);
  }
  if (rc == 0 && shift) {
    rc = work_fill_shift(w, runs, vals, st, err);
    if (rc < 0) {
      work_free(w);
    }
  }
  free(vals);
  free(tmp);
  return rc;
}

int gb_boot_check(const gb_run *runs, size_t n, const gb_startup *startup,
                  const gb_boot_opts *opts, gb_err *err) {
  int rc = check_opts(opts, n, err);
  for (size_t i = 0; rc == 0 && i < n; i++) {
    gb_run_values v;
    gb_err inner;
    if ((rc = gbi_run_values_of(&runs[i], startup, &v, &inner)) < 0) {
      gb_err_set(err, -rc, "bootstrap: run %zu: %s", i, inner.msg);
    }
  }
  return rc;
}

void gb_boot_work_free(gb_boot_work *w) {
  if (w) {
    free(w->buf);
    free(w->startups);
    *w = (gb_boot_work){0};
  }
}

/* Grows w to hold B replicates of every estimate, B of scratch and B
 * startups. */
static int work_reserve(gb_boot_work *w, size_t B, gb_err *err) {
  if (w->replicates >= B) {
    return 0;
  }
  double *buf = malloc((GB_EST_COUNT + 1) * B * sizeof *buf);
  gb_startup *st = malloc(B * sizeof *st);
  if (!buf || !st) {
    free(buf);
    free(st);
    return gb_err_set(err, ENOMEM, "bootstrap: out of memory for %zu replicates", B);
  }
  gb_boot_work_free(w);
  *w = (gb_boot_work){.replicates = B, .buf = buf, .startups = st};
  return 0;
}

/* One column of the startup batches (time, CPU or energy) sorted with the
 * batch behind each value (keyed, as the runs' values are). */
static double startup_field(const gb_startup *s, int f) {
  return f == 0 ? s->time_ns : f == 1 ? s->cpu_ns : s->energy_uj;
}

int gb_boot_startup_replicates(const gb_startup *batches, size_t n, uint64_t seed,
                               uint64_t stream, size_t replicates, gb_startup *out,
                               gb_err *err) {
  if (n == 0 || n > UINT32_MAX) {
    return gb_err_set(err, EINVAL, "bootstrap: %zu startup batches (need 1 to %u)", n,
                      UINT32_MAX);
  }
  /* Sorted once per field; each resample, held as counts, walks to its
   * median (gbi_counted_quantile): the value a sort of the resample gives. */
  enum { FIELDS = 3 };
  keyed *tmp = malloc(n * sizeof *tmp);
  double *sorted = malloc(FIELDS * n * sizeof *sorted);
  uint32_t *order = malloc(FIELDS * n * sizeof *order), *counts = malloc(n * sizeof *counts);
  bool energy = true;
  for (size_t i = 0; i < n; i++) {
    energy = energy && !isnan(batches[i].energy_uj);
  }
  gb_rng rng;
  gb_rng_seed_stream(&rng, seed, stream);
  size_t lo;
  double frac;
  q7_position(n, 0.5, &lo, &frac);
  int rc = tmp && sorted && order && counts
               ? 0
               : gb_err_set(err, ENOMEM, "bootstrap: out of memory for %zu startup batches", n);
  if (rc == 0) {
    for (int f = 0; f < FIELDS; f++) {
      for (size_t i = 0; i < n; i++) {
        double v = startup_field(&batches[i], f);
        tmp[i] = (keyed){isnan(v) ? 0.0 : v, (uint32_t)i};
      }
      qsort(tmp, n, sizeof *tmp, cmp_keyed);
      for (size_t i = 0; i < n; i++) {
        sorted[f * n + i] = tmp[i].v;
        order[f * n + i] = tmp[i].run;
      }
    }
    /* The generator's state in a local copy, as resample_all keeps it: the
     * draws are gb_rng_below's. */
    uint64_t st[4] = {rng.s[0], rng.s[1], rng.s[2], rng.s[3]};
    uint64_t threshold = rng_core_threshold(n);
    for (size_t r = 0; r < replicates; r++) {
      memset(counts, 0, n * sizeof *counts);
      for (size_t i = 0; i < n; i++) {
        counts[rng_core_below(st, n, threshold)]++;
      }
      double m[FIELDS];
      for (int f = 0; f < FIELDS; f++) {
        m[f] = gbi_counted_quantile(sorted + f * n, order + f * n, counts, lo, frac);
      }
      out[r] = (gb_startup){.time_ns = m[0], .cpu_ns = m[1], .energy_uj = energy ? m[2] : NAN};
    }
  }
  free(tmp);
  free(sorted);
  free(order);
  free(counts);
  return rc;
}

int gb_boot_run_in(gb_boot_work *work, const gb_run *runs, size_t n, const gb_startup *startup,
                   const gb_boot_opts *opts, gb_boot *out, gb_err *err) {
  int rc = check_opts(opts, n, err);
  if (rc < 0) {
    return rc;
  }
  size_t B = opts->replicates;
  size_t held = opts->paired_only ? GB_BOOT_TRIM_ESTIMATES : GB_EST_COUNT;
  boot_work w = {0};
  gb_boot b = {.n_runs = n, .n_replicates = B, .n_held = B, .n_held_estimates = held};
  bool given = opts->startup_replicates != NULL;
  bool shift = given || (opts->startup_batches && opts->n_startup_batches > 0);
  if ((rc = work_reserve(work, B, err)) < 0 ||
      (rc = boot_prepare(runs, n, startup, shift, &w, &b.has_energy, err)) < 0) {
    return rc;
  }
  b.replicates = malloc(held * B * sizeof *b.replicates);
  if (!b.replicates) {
    work_free(&w);
    return gb_err_set(err, ENOMEM, "bootstrap: out of memory for %zu replicates", B);
  }
  double *rep = work->buf, *scratch = work->buf + GB_EST_COUNT * B;
  gb_rng rng;
  gb_rng_seed_stream(&rng, opts->seed, opts->stream);
  if (shift && !given &&
      (rc = gb_boot_startup_replicates(opts->startup_batches, opts->n_startup_batches,
                                       opts->seed, opts->startup_stream, B, work->startups,
                                       err)) < 0) {
    work_free(&w);
    free(b.replicates);
    return rc;
  }
  const gb_startup *startups = given ? opts->startup_replicates : work->startups;
  if (shift) {
    keyed *tmp = malloc(n * sizeof *tmp);
    if (tmp) {
      prepare_gross(&w, startups, B, tmp);
    }
    free(tmp);
  }
  resample_all(&w, &rng, B, rep, shift ? startups : NULL);
  summarise(&b, &w, rep, opts->level, scratch);
  memcpy(b.replicates, rep, held * B * sizeof *rep); /* estimate-major: a prefix */
  work_free(&w);
  *out = b;
  return 0;
}

int gbi_boot_run(const gb_run *runs, size_t n, const gb_startup *startup,
                 const gb_boot_opts *opts, gb_boot *out, gb_err *err) {
  gb_boot_work work = {0};
  int rc = gb_boot_run_in(&work, runs, n, startup, opts, out, err);
  gb_boot_work_free(&work);
  return rc;
}

const double *gb_boot_replicates(const gb_boot *b, gb_estimate e) {
  return (size_t)e < b->n_held_estimates ? b->replicates + (size_t)e * b->n_held : NULL;
}

_Static_assert(GB_EST_TIME_PER_SORT == 0 && GB_EST_ENERGY_PER_SORT == 1,
               "gb_boot_trim keeps a prefix of the estimates");

void gb_boot_trim(gb_boot *b, size_t n) {
  size_t keep = n < b->n_held ? n : b->n_held;
  size_t est = b->n_held_estimates < GB_BOOT_TRIM_ESTIMATES ? b->n_held_estimates
                                                            : GB_BOOT_TRIM_ESTIMATES;
  if (!b->replicates || (keep == b->n_held && est == b->n_held_estimates)) {
    return;
  }
  /* A fresh block rather than a shrinking realloc: shrunk in place, a
   * report's small blocks would each pin the start of a freed large one,
   * and the heap would grow by the large ones all the same. */
  size_t cells = est * keep;
  double *kept = malloc((cells > 0 ? cells : 1) * sizeof *kept);
  for (size_t e = 0; e < est; e++) {
    double *to = kept ? kept : b->replicates;
    memmove(to + e * keep, b->replicates + e * b->n_held, keep * sizeof *to);
  }
  if (kept) {
    free(b->replicates);
    b->replicates = kept;
  }
  b->n_held = keep;
  b->n_held_estimates = est;
}

void gb_boot_free(gb_boot *b) {
  if (b) {
    free(b->replicates);
    *b = (gb_boot){0};
  }
}
