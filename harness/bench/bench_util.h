/* What the harness benchmarks share: pinning, medians, per-thread CPU time
 * and strict option values. Benchmarks only; nothing in the harness uses it.
 *
 * Every figure the benchmarks print is a ratio of things measured side by
 * side in the same process and the same rounds, never an absolute number
 * compared across runs: the machine they run on may be shared. */
#ifndef GREENBENCH_BENCH_UTIL_H
#define GREENBENCH_BENCH_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Pins the calling thread (and the threads and processes it starts later)
 * to cpu. Returns 0 or -errno. */
int bench_pin(int cpu);

/* Medians, the middle two averaged for an even count; v is sorted in
 * place. n must be at least 1. */
double bench_median_u64(uint64_t *v, size_t n);
double bench_median_f(double *v, size_t n);

/* The median of x[0..n-1] (n >= 1; x is left unchanged) and its 95%
 * percentile-bootstrap interval (Efron & Tibshirani 1993, ch. 13): 10,000
 * resamples with replacement from a fixed seed, quantiles by the project's
 * rule (Hyndman & Fan type 7, core/base/include/greenbench/quantile.h). Returns
 * 0 or -ENOMEM. */
int bench_median_ci(const double *x, size_t n, double *median, double *lo, double *hi);

/* The thread ids of this process, at most cap of them; returns the count. */
size_t bench_threads(pid_t *tids, size_t cap);
/* CPU time of thread tid of this process in ns, from the scheduler's own
 * accounting (/proc/self/task/TID/schedstat, first field), which is exact,
 * not tick-sampled. Returns 0 or -errno. */
int bench_thread_cpu_ns(pid_t tid, uint64_t *ns);

/* Parses argv[*i + 1] as a decimal in [min, max] for option argv[*i] and
 * advances *i. Prints why and returns -EINVAL when it is missing or bad. */
int bench_opt_u64(int argc, char **argv, int *i, uint64_t min, uint64_t max, uint64_t *out);

#endif
