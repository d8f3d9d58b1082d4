/* Scripted workers for the measurement and campaign tests: a stand-in for
 * gb_spawn_run (a gb_spawner) that starts no process. Each call reads back
 * from argv what the harness asked for (language, algorithm, order, size,
 * seed, sorts, --startup-only) and answers with the exact line the real
 * worker would print, its counts and input hash from gb_expected_compute, and
 * times from a model:
 *
 *   loop_ns = sorts x gbi_sort_work(counts, size) x op_ns
 *   wall_ns = startup_ns + loop_ns per launch (startup-only: startup_ns)
 *   sys_ns  = sys_ns per launch; user_ns = wall_ns - sys_ns; rss = rss_kib
 *
 * so that calibration converges by its own rule and every row is known in
 * advance. Events make a given call (or one launch of a batch) slow, lie,
 * print garbage, exit non-zero, crash, time out, fail to start, be
 * interrupted, or make the spawner itself fail. Every call is logged.
 *
 * The hooks keep gb_spawn_run's order (before, the launches, after), so the
 * energy sampler and the records stay real. By default no time passes (the
 * scripted times are only reported); script_sleep makes each launch last
 * its scripted wall time, watching the abort fd and the stop flag as the
 * real spawner does, for tests whose energy windows must see time pass.
 *
 * Calls are counted from 1, in the order the harness makes them. Setup
 * failures abort with a message: these are test fixtures. Nothing here
 * depends on Criterion. */
#ifndef GREENBENCH_TESTS_HELPER_SCRIPT_H
#define GREENBENCH_TESTS_HELPER_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "greenbench/measure.h"
#include "greenbench/spawn.h"

typedef struct worker_script worker_script;

/* One language's times. */
typedef struct {
  uint64_t startup_ns; /* a launch's time outside its loop */
  uint64_t op_ns;      /* per operation of a sort (gbi_sort_work) */
  uint64_t sys_ns;     /* per launch; at most startup_ns */
  uint64_t rss_kib;    /* peak RSS of every launch */
} script_model;

typedef enum {
  SCRIPT_SLOW = 1,  /* value: the loop (startup-only: the start-up) lasts value %
                       of the model's, as a runtime still warming up does */
  SCRIPT_LIE,       /* one comparison too many (startup-only: another input hash) */
  SCRIPT_GARBAGE,   /* exits 0 having printed a line that is not a worker's */
  SCRIPT_EXIT,      /* value: exits with that code, a line on stderr */
  SCRIPT_CRASH,     /* value: killed by that signal after its start-up */
  SCRIPT_TIMEOUT,   /* outlives the timeout and is killed */
  SCRIPT_NO_EXEC,   /* value: cannot be executed, with that errno */
  SCRIPT_INTERRUPT, /* a Ctrl-C during the launch: sets *stop (if watched) */
  SCRIPT_BROKEN,    /* value: the spawner itself fails with -value, nothing runs */
} script_event;

/* What one call was asked, and how it ended. */
typedef struct {
  char argv[512]; /* the words after the program (and script), space-separated */
  gb_language language;
  gb_algorithm algorithm;
  gb_order order;
  uint32_t size, seed;
  uint64_t sorts;
  bool startup;           /* --startup-only */
  unsigned launches;      /* asked for (gb_spawn_opts.launches, at least 1) */
  int rc;                 /* what the call returned */
  gb_spawn_status status; /* when rc is 0 */
  uint64_t loop_ns;       /* the last sorting launch's line, 0 for startup-only */
} script_call;

/* The campaign the campaign tests script: C quicksort on random and sorted
 * input of 50 elements (2 sorting configurations, 2 startup trials, so
 * 4 x runs measured rows), `runs` runs and `warmups` warm-ups each, loops
 * of target_ms, energy as given, order seed 42, a 20 s timeout; the rest
 * the smoke profile's. */
gb_settings script_settings(unsigned runs, unsigned warmups, unsigned target_ms,
                            gb_energy_mode energy);

/* Language names resolve from argv against w's paths (copied). The models
 * start at script_model_default. */
worker_script *script_create(const gb_workers *w);
void script_destroy(worker_script *s);
/* The spawner to put in gb_measure_env or gb_campaign_opts; lives as long as s. */
const gb_spawner *script_spawner(worker_script *s);

script_model script_model_default(gb_language l);
void script_set_model(worker_script *s, gb_language l, script_model m);
/* Each launch sleeps through its scripted wall time, a timed-out one
 * excepted (off: no time passes). */
void script_sleep(worker_script *s, bool on);
/* "c (scripted)", "python (scripted)", "node (scripted)". */
const char *script_runtime(gb_language l);

/* At call `call` (from 1), launch `launch` of its batch (from 1; 0: the
 * first), event e with its value. One event per call and launch. */
void script_at(worker_script *s, unsigned call, unsigned launch, script_event e, int value);
/* Called at the start of every call, before anything of it runs, with the
 * call's number and request (rc and status not yet set): a test acts there
 * at an exact point of a campaign (sets a stop flag, stalls a counter). */
void script_on_call(worker_script *s,
                    void (*fn)(void *ctx, unsigned call, const script_call *c), void *ctx);

/* Calls so far, and call n (from 1 to script_calls). */
unsigned script_calls(const worker_script *s);
const script_call *script_call_at(const worker_script *s, unsigned n);

/* The model's figures for one sorting launch of configuration k. */
uint64_t script_loop_ns(worker_script *s, const gb_config *k, uint32_t seed, uint64_t sorts);
uint64_t script_wall_ns(worker_script *s, const gb_config *k, uint32_t seed, uint64_t sorts);
script_model script_model_of(const worker_script *s, gb_language l);

#endif
