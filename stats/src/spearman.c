#include "greenbench/spearman.h"

#include "stats_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

typedef struct {
  double v;
  size_t i;
} keyed;

static bool keyed_less(const keyed *x, const keyed *y) {
  return x->v < y->v || (x->v == y->v && x->i < y->i);
}

static void swap_keyed(keyed *a, keyed *b) {
  keyed t = *a;
  *a = *b;
  *b = t;
}

/* Sorts t[0..n-1] by (value, index), a total order on distinct indices, so
 * the result is the one qsort with cmp_keyed gives. The bootstrap of rank
 * agreement sorts thousands of short vectors, where a comparison inlined
 * here is several times faster than qsort's callback. Quicksort with a
 * median-of-three pivot, recursing on the smaller side (depth <= log2 n),
 * insertion sort below 16. No NAN (callers check). */
static void sort_keyed(keyed *t, size_t n) {
  while (n > 16) {
    size_t mid = n / 2;
    if (keyed_less(&t[mid], &t[0])) {
      swap_keyed(&t[mid], &t[0]);
    }
    if (keyed_less(&t[n - 1], &t[mid])) {
      swap_keyed(&t[n - 1], &t[mid]);
      if (keyed_less(&t[mid], &t[0])) {
        swap_keyed(&t[mid], &t[0]);
      }
    }
    keyed pivot = t[mid];
    size_t i = 0, j = n - 1;
    for (;;) { /* Hoare: t[0] <= pivot <= t[n - 1] stop both scans */
      while (keyed_less(&t[i], &pivot)) {
        i++;
      }
      while (keyed_less(&pivot, &t[j])) {
        j--;
      }
      if (i >= j) {
        break;
      }
      swap_keyed(&t[i++], &t[j--]);
    }
    /* t[0..j] <= pivot <= t[j+1..n-1], both parts non-empty. */
    size_t left = j + 1;
    if (left < n - left) {
      sort_keyed(t, left);
      t += left;
      n -= left;
    } else {
      sort_keyed(t + left, n - left);
      n = left;
    }
  }
  for (size_t a = 1; a < n; a++) {
    keyed v = t[a];
    size_t b = a;
    for (; b > 0 && keyed_less(&v, &t[b - 1]); b--) {
      t[b] = t[b - 1];
    }
    t[b] = v;
  }
}

/* Ranks with a caller's buffer of n keyed, for the bootstrap's loop. */
static void rank_into(const double *x, size_t n, double *ranks, keyed *tmp) {
  for (size_t i = 0; i < n; i++) {
    tmp[i] = (keyed){x[i], i};
  }
  sort_keyed(tmp, n);
  for (size_t j = 0; j < n;) {
    size_t end = j;
    while (end + 1 < n && tmp[end + 1].v == tmp[j].v) {
      end++;
    }
    /* Positions j..end (0-based) share the mean of ranks j+1..end+1. */
    double rank = (double)(j + end) / 2.0 + 1.0;
    for (size_t t = j; t <= end; t++) {
      ranks[tmp[t].i] = rank;
    }
    j = end + 1;
  }
}

/* The index of x's first NAN, or n. */
static size_t first_nan(const double *x, size_t n) {
  size_t i = 0;
  while (i < n && !isnan(x[i])) {
    i++;
  }
  return i;
}

static bool any_nan(const double *x, const double *y, size_t n) {
  return first_nan(x, n) < n || first_nan(y, n) < n;
}

static int check_no_nan(const double *x, size_t n, gb_err *err) {
  size_t i = first_nan(x, n);
  return i < n ? gb_err_set(err, EINVAL, "rank: value %zu is NaN", i) : 0;
}

int gbi_rank_average(const double *x, size_t n, double *ranks, gb_err *err) {
  int rc = check_no_nan(x, n, err);
  if (rc < 0) {
    return rc;
  }
  keyed *tmp = malloc((n ? n : 1) * sizeof *tmp);
  if (!tmp) {
    return gb_err_set(err, ENOMEM, "rank: out of memory for %zu values", n);
  }
  rank_into(x, n, ranks, tmp);
  free(tmp);
  return 0;
}

/* Pearson correlation of two rank vectors. Their mean is (n + 1) / 2
 * exactly, and all-tied ranks all equal it, so "no spread" is an exact
 * zero sum rather than a tolerance. */
static gb_rho pearson_of_ranks(const double *rx, const double *ry, size_t n) {
  double mean = ((double)n + 1.0) / 2.0, sxy = 0.0, sxx = 0.0, syy = 0.0;
  for (size_t i = 0; i < n; i++) {
    double dx = rx[i] - mean, dy = ry[i] - mean;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (n < 2 || sxx == 0.0 || syy == 0.0) {
    return (gb_rho){.defined = false, .rho = NAN};
  }
  double rho = sxy / sqrt(sxx * syy);
  return (gb_rho){.defined = true, .rho = fmax(-1.0, fmin(1.0, rho))};
}

/* Work space for k pairs: two value vectors, two rank vectors, keys. */
typedef struct {
  double *x, *y, *rx, *ry;
  keyed *tmp;
} rank_work;

static int work_alloc(rank_work *w, size_t k, gb_err *err) {
  size_t m = k ? k : 1;
  double *d = malloc(4 * m * sizeof *d);
  keyed *tmp = malloc(m * sizeof *tmp);
  if (!d || !tmp) {
    free(d);
    free(tmp);
    return gb_err_set(err, ENOMEM, "spearman: out of memory for %zu values", k);
  }
  *w = (rank_work){.x = d, .y = d + m, .rx = d + 2 * m, .ry = d + 3 * m, .tmp = tmp};
  return 0;
}

static void work_free(rank_work *w) {
  free(w->x);
  free(w->tmp);
}

static gb_rho rho_of(rank_work *w, size_t n) {
  rank_into(w->x, n, w->rx, w->tmp);
  rank_into(w->y, n, w->ry, w->tmp);
  return pearson_of_ranks(w->rx, w->ry, n);
}

/* A NAN has no rank: no rho. */
static gb_rho rho_or_undefined(rank_work *w, size_t n) {
  return any_nan(w->x, w->y, n) ? (gb_rho){.defined = false, .rho = NAN} : rho_of(w, n);
}

int gbi_spearman(const double *x, const double *y, size_t n, gb_rho *out, gb_err *err) {
  int rc = check_no_nan(x, n, err);
  if (rc == 0) {
    rc = check_no_nan(y, n, err);
  }
  rank_work w = {0};
  if (rc < 0 || (rc = work_alloc(&w, n, err)) < 0) {
    return rc;
  }
  for (size_t i = 0; i < n; i++) {
    w.x[i] = x[i];
    w.y[i] = y[i];
  }
  *out = rho_of(&w, n);
  work_free(&w);
  return 0;
}

int gb_spearman_nan(const double *x, const double *y, size_t n, gb_rho *out, gb_err *err) {
  if (any_nan(x, y, n)) {
    *out = (gb_rho){.defined = false, .rho = NAN};
    return 0;
  }
  return gbi_spearman(x, y, n, out, err);
}

static int check_boot_args(const gb_boot *const *configs, size_t k, gb_estimate x,
                           gb_estimate y, size_t replicates, double level, gb_err *err) {
  if (!(level > 0.0 && level < 1.0)) {
    return gb_err_set(err, EINVAL, "spearman: level %g is not in (0, 1)", level);
  }
  if (replicates == 0) {
    return gb_err_set(err, EINVAL, "spearman: 0 replicates");
  }
  for (size_t c = 0; c < k; c++) {
    if (configs[c]->n_held < replicates) {
      return gb_err_set(err, EINVAL, "spearman: configuration %zu has %zu replicates, not %zu",
                        c, configs[c]->n_held, replicates);
    }
    if (!gb_boot_replicates(configs[c], x) || !gb_boot_replicates(configs[c], y)) {
      return gb_err_set(err, EINVAL,
                        "spearman: configuration %zu no longer holds the replicates", c);
    }
  }
  return 0;
}

static bool all_available(const gb_boot *const *configs, size_t k, gb_estimate x,
                          gb_estimate y) {
  for (size_t c = 0; c < k; c++) {
    if (!configs[c]->est[x].available || !configs[c]->est[y].available) {
      return false;
    }
  }
  return true;
}

/* Replicate rhos into rhos[0..replicates-1], NAN where undefined. */
static void replicate_rhos(rank_work *w, const gb_boot *const *configs, size_t k, gb_estimate x,
                           gb_estimate y, size_t replicates, double *rhos) {
  for (size_t r = 0; r < replicates; r++) {
    for (size_t c = 0; c < k; c++) {
      w->x[c] = gb_boot_replicates(configs[c], x)[r];
      w->y[c] = gb_boot_replicates(configs[c], y)[r];
    }
    rhos[r] = rho_or_undefined(w, k).rho;
  }
}

static int boot_with(rank_work *w, const gb_boot *const *configs, size_t k, gb_estimate x,
                     gb_estimate y, size_t replicates, double level, gb_rho_interval *res,
                     gb_err *err) {
  for (size_t c = 0; c < k; c++) {
    w->x[c] = configs[c]->est[x].point;
    w->y[c] = configs[c]->est[y].point;
  }
  /* A point can be NAN (net power with time <= 0). */
  res->point = rho_or_undefined(w, k);
  double *rhos = malloc(2 * replicates * sizeof *rhos);
  if (!rhos) {
    return gb_err_set(err, ENOMEM, "spearman: out of memory for %zu replicates", replicates);
  }
  replicate_rhos(w, configs, k, x, y, replicates, rhos);
  res->n_used =
      gb_percentile_interval(rhos, replicates, level, rhos + replicates, &res->lo, &res->hi);
  free(rhos);
  return 0;
}

int gb_spearman_boot(const gb_boot *const *configs, size_t k, gb_estimate x, gb_estimate y,
                     size_t replicates, double level, gb_rho_interval *out, gb_err *err) {
  int rc = check_boot_args(configs, k, x, y, replicates, level, err);
  if (rc < 0) {
    return rc;
  }
  gb_rho_interval res = {.point = {.defined = false, .rho = NAN}, .lo = NAN, .hi = NAN};
  if (!all_available(configs, k, x, y)) {
    *out = res;
    return 0;
  }
  rank_work w = {0};
  if ((rc = work_alloc(&w, k, err)) < 0) {
    return rc;
  }
  rc = boot_with(&w, configs, k, x, y, replicates, level, &res, err);
  work_free(&w);
  if (rc == 0) {
    *out = res;
  }
  return rc;
}
