#include "stats_internal.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

size_t gbi_parallel_threads(void) {
  /* The CPUs this process may run on (taskset, a container's cpuset), not
   * every online one: more threads than those only take turns. */
  cpu_set_t set;
  long n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set)
                                                       : sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > GB_PARALLEL_MAX ? GB_PARALLEL_MAX : (size_t)n;
}

typedef struct {
  gbi_parallel_fn fn;
  atomic_size_t workers; /* the next worker index to hand out */
  void *ctx;
  size_t n;
  atomic_size_t next; /* the next item to take */
  int *rc;            /* n: each item's return */
  gb_err *errs;       /* n: each item's message */
} job;

static void *work(void *arg) {
  job *j = arg;
  size_t worker = atomic_fetch_add(&j->workers, 1);
  for (size_t i; (i = atomic_fetch_add(&j->next, 1)) < j->n;) {
    j->rc[i] = j->fn(j->ctx, i, worker, &j->errs[i]);
  }
  return NULL;
}

static int serially(size_t n, gbi_parallel_fn fn, void *ctx, gb_err *err) {
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < n; i++) {
    rc = fn(ctx, i, 0, err);
  }
  return rc;
}

int gbi_parallel_for(size_t n, size_t threads, gbi_parallel_fn fn, void *ctx, gb_err *err) {
  threads = threads < n ? threads : n;
  if (threads <= 1) {
    return serially(n, fn, ctx, err);
  }
  job j = {.fn = fn, .ctx = ctx, .n = n};
  atomic_init(&j.next, 0);
  atomic_init(&j.workers, 0);
  j.rc = calloc(n, sizeof *j.rc);
  j.errs = malloc(n * sizeof *j.errs);
  pthread_t *tid = malloc((threads - 1) * sizeof *tid);
  if (!j.rc || !j.errs || !tid) {
    free(j.rc);
    free(j.errs);
    free(tid);
    return serially(n, fn, ctx, err);
  }
  size_t started = 0;
  while (started < threads - 1 && pthread_create(&tid[started], NULL, work, &j) == 0) {
    started++;
  }
  work(&j); /* the caller's share, or every item if no thread started */
  for (size_t t = 0; t < started; t++) {
    pthread_join(tid[t], NULL);
  }
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < n; i++) {
    if ((rc = j.rc[i]) < 0 && err) {
      *err = j.errs[i];
    }
  }
  free(j.rc);
  free(j.errs);
  free(tid);
  return rc;
}
