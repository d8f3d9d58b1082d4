#include "greenbench/clock.h"

#include <errno.h>
#include <time.h>

static uint64_t read_clock(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t gb_monotonic_raw_ns(void) {
  return read_clock(CLOCK_MONOTONIC_RAW);
}

static uint64_t raw_now(void *ctx) {
  (void)ctx;
  return gb_monotonic_raw_ns();
}

gb_clock gb_clock_raw(void) {
  return (gb_clock){.now_ns = raw_now, .ctx = NULL};
}

uint64_t gb_realtime_ns(void) {
  return read_clock(CLOCK_REALTIME);
}

int gb_sleep_ns(uint64_t ns) {
  struct timespec req = {.tv_sec = (time_t)(ns / 1000000000u),
                         .tv_nsec = (long)(ns % 1000000000u)};
  while (nanosleep(&req, &req) != 0)
    if (errno != EINTR)
      return -errno;
  return 0;
}
