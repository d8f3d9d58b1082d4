/* Independent items of the analysis on a few threads (the bootstraps of a
 * group of configurations, their ratios, the rank intervals). Each item
 * writes only its own results, so the results are the same, bit for bit,
 * on any number of threads and in any interleaving; a failure is reported
 * as the lowest-numbered failing item's, as a serial loop would report it.
 * Internal to the stats stage. */
#ifndef GREENBENCH_PARALLEL_H
#define GREENBENCH_PARALLEL_H

#include "greenbench/error.h"

#include <stddef.h>

/* One item, run by worker `worker` (0 .. threads - 1, one item at a time
 * per worker, so per-worker buffers need no lock): 0, or a negative errno
 * with a message in *err. */
typedef int (*gb_parallel_fn)(void *ctx, size_t item, size_t worker, gb_err *err);

/* The threads worth starting here: the CPUs this process may run on, 1 to
 * GB_PARALLEL_MAX. */
#define GB_PARALLEL_MAX 8
size_t gb_parallel_threads(void);

/* Runs fn(ctx, i, ...) once for every i in [0, n), on up to `threads`
 * threads counting the caller's, items taken in increasing order as
 * threads come free. Returns 0 when every item returned 0; otherwise the
 * return of the lowest-numbered failing item, with its message in *err
 * (every item still runs). With threads <= 1, when threads cannot be
 * started, or without memory for the bookkeeping, the items run here, in
 * order, stopping at the first failure: the same result. */
GB_MUST_USE int gb_parallel_for(size_t n, size_t threads, gb_parallel_fn fn, void *ctx,
                                gb_err *err);

#endif
