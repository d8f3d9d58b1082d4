/* Clocks the harness reads. Every reported time is CLOCK_MONOTONIC_RAW, which
 * NTP never slews; the clock is injectable so tests can script time. */
#ifndef GREENBENCH_CLOCK_H
#define GREENBENCH_CLOCK_H

#include <stdint.h>

#include "greenbench/error.h"

typedef uint64_t (*gb_clock_fn)(void *ctx);

typedef struct {
  gb_clock_fn now_ns; /* nanoseconds from an arbitrary origin */
  void *ctx;
} gb_clock;

/* CLOCK_MONOTONIC_RAW in nanoseconds. */
uint64_t gb_monotonic_raw_ns(void);
/* The production clock: gb_monotonic_raw_ns. */
gb_clock gb_clock_raw(void);
static inline uint64_t gb_clock_now(const gb_clock *c) {
  return c->now_ns(c->ctx);
}
/* Wall-clock time for records (CLOCK_REALTIME), nanoseconds since the epoch. */
uint64_t gb_realtime_ns(void);
/* Sleeps for ns nanoseconds, resuming after signals; 0 or -errno. */
GB_MUST_USE int gb_sleep_ns(uint64_t ns);

#endif
