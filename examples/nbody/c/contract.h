/* What the two example programs share: their arguments, the monotonic clock,
 * FNV-1a 64 and the contract line (docs/suites.md). The Python, Node.js and
 * Lua versions have the same helpers in contract.py, contract.js and
 * contract.lua, line for line. Header-only so that each program is still one
 * `cc` command (the suite file's build step). */
#ifndef EXAMPLES_CONTRACT_H
#define EXAMPLES_CONTRACT_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REPS_MAX 1000000L

typedef struct {
  const char *prog;
  long n;
  long reps; /* 0 for the startup form */
} args;

/* One stderr line and exit 2: every bad argument ends here. */
static void usage_fail(const char *prog, const char *what) {
  fprintf(stderr, "%s: error: %s (usage: %s N REPS | %s N --startup-only)\n", prog, what, prog,
          prog);
  exit(2);
}

/* A whole number of 1..15 ASCII digits within [1, max]; -1 otherwise. */
static long parse_count(const char *s, long max) {
  size_t len = strlen(s);
  if (len < 1 || len > 15 || strspn(s, "0123456789") != len)
    return -1;
  long v = strtol(s, NULL, 10);
  return v >= 1 && v <= max ? v : -1;
}

static args parse_args(int argc, char **argv, const char *prog, long n_max) {
  char what[160];
  args a = {prog, 0, 0};
  if (argc != 3)
    usage_fail(prog, "expected 2 arguments");
  a.n = parse_count(argv[1], n_max);
  if (a.n < 0) {
    snprintf(what, sizeof what, "N must be a whole number 1..%ld", n_max);
    usage_fail(prog, what);
  }
  if (strcmp(argv[2], "--startup-only") == 0)
    return a;
  a.reps = parse_count(argv[2], REPS_MAX);
  if (a.reps < 0) {
    snprintf(what, sizeof what, "REPS must be a whole number 1..%ld or --startup-only",
             REPS_MAX);
    usage_fail(prog, what);
  }
  return a;
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* FNV-1a 64 over the text s. */
static uint64_t fnv1a64(const char *s) {
  uint64_t h = 0xcbf29ce484222325u;
  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 0x100000001b3u;
  }
  return h;
}

static const char *runtime_name(void) {
  static char buf[32];
#if defined(__clang__)
  snprintf(buf, sizeof buf, "clang %d.%d.%d", __clang_major__, __clang_minor__,
           __clang_patchlevel__);
#elif defined(__GNUC__)
  snprintf(buf, sizeof buf, "gcc %d.%d.%d", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
  snprintf(buf, sizeof buf, "C");
#endif
  return buf;
}

static void print_startup(const char *input) {
  printf("{\"startup_only\":true,\"input_hash\":\"%016" PRIx64 "\",\"runtime\":\"%s\"}\n",
         fnv1a64(input), runtime_name());
}

/* counters: "name":value pairs already joined, e.g. "\"advances\":1000". */
static void print_measured(uint64_t loop_ns, const char *counters, const char *input,
                           const char *output) {
  printf("{\"loop_ns\":%" PRIu64 ",\"counters\":{%s},\"input_hash\":\"%016" PRIx64
         "\",\"output_hash\":\"%016" PRIx64 "\",\"runtime\":\"%s\"}\n",
         loop_ns, counters, fnv1a64(input), fnv1a64(output), runtime_name());
}

/* A repetition that disagrees with the one before is a broken program, not a
 * result: exit 1 with one line. Comparing also uses every repetition's result. */
static void check_same(const char *prog, int same) {
  if (!same) {
    fprintf(stderr, "%s: error: a repetition gave a different result\n", prog);
    exit(1);
  }
}

#endif
