/* The C worker: generates the input, hashes it, sorts a fresh copy --sorts
 * times, checks every result and prints one JSON line (docs/design.md, "The
 * worker contract"): the study's, or with --contract generic a suite's
 * contract line (docs/suites.md). Exit 2 on bad arguments, 3 on a failed
 * check. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "args.h"
#include "greenbench/version.h"
#include "greenbench/workload.h"

#ifdef __clang__
#define RUNTIME "clang " __clang_version__
#else
#define RUNTIME "gcc " __VERSION__
#endif

enum { EXIT_BAD_ARGS = 2, EXIT_CHECK_FAILED = 3 };

static const char usage[] =
    "usage: worker-c --algorithm bubble|insertion|quick --order random|sorted|reversed|nearly\n"
    "                --size N --sorts K [--seed S] [--startup-only]\n"
    "                [--contract study|generic]\n"
    "       worker-c --dump-input --order O --size N [--seed S]\n"
    "       worker-c --dump-xorshift COUNT [--seed S]\n"
    "       worker-c --version | --help\n";

static int die(int code, const char *msg) {
  fprintf(stderr, "worker: error: %s\n", msg);
  return code;
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void print_head(const gb_worker_args *a) {
  printf("{\"language\":\"c\",\"algorithm\":\"%s\",\"order\":\"%s\",\"size\":%zu,"
         "\"seed\":%" PRIu32 ",\"sorts\":%" PRIu64 ",",
         gb_algorithm_name(a->algorithm), gb_order_name(a->order), a->size, a->seed, a->sorts);
}

/* The startup line: the study's head, or none for the generic contract,
 * before the same three keys. */
static void print_startup(const gb_worker_args *a, const char *hash) {
  if (a->contract == GB_WORKER_CONTRACT_GENERIC)
    putchar('{');
  else
    print_head(a);
  printf("\"startup_only\":true,\"input_hash\":\"%s\",\"runtime\":\"%s\"}\n", hash, RUNTIME);
}

/* The line of a sorting run; sorted holds the last sort's result, whose
 * hash is the generic line's output_hash (computed after the timed loop). */
static void print_sorted(const gb_worker_args *a, const gb_counts *c, const char *hash,
                         uint64_t loop_ns, const int *sorted) {
  if (a->contract == GB_WORKER_CONTRACT_GENERIC) {
    char out[17];
    gb_hash_hex(gb_input_hash(sorted, a->size), out);
    printf("{\"loop_ns\":%" PRIu64 ",\"counters\":{\"comparisons\":%" PRIu64
           ",\"writes\":%" PRIu64 "},\"input_hash\":\"%s\",\"output_hash\":\"%s\","
           "\"runtime\":\"%s\"}\n",
           loop_ns, c->comparisons, c->writes, hash, out, RUNTIME);
    return;
  }
  print_head(a);
  printf("\"comparisons\":%" PRIu64 ",\"writes\":%" PRIu64 ",\"input_hash\":\"%s\","
         "\"loop_ns\":%" PRIu64 ",\"sorted\":true,\"runtime\":\"%s\"}\n",
         c->comparisons, c->writes, hash, loop_ns, RUNTIME);
}

/* Sorts a fresh copy of input a->sorts times, checking each result; the
 * check inside the loop keeps every sort's work observable (docs/methods.md #7). */
static int sort_loop(const gb_worker_args *a, const int *input, int *work, gb_counts *first,
                     uint64_t *loop_ns) {
  uint64_t t0 = now_ns();
  for (uint64_t k = 0; k < a->sorts; k++) {
    gb_counts c = {0, 0};
    memcpy(work, input, a->size * sizeof *work);
    gb_sort(a->algorithm, work, a->size, &c);
    if (!gb_is_identity(work, a->size)) {
      fprintf(stderr,
              "worker: error: check failed: sort %" PRIu64 " of %" PRIu64
              " did not give 0..%zu (%s, %s, size %zu)\n",
              k + 1, a->sorts, a->size - 1, gb_algorithm_name(a->algorithm),
              gb_order_name(a->order), a->size);
      return -1;
    }
    if (k == 0)
      *first = c;
    else if (c.comparisons != first->comparisons || c.writes != first->writes) {
      fprintf(stderr, "worker: error: check failed: sort %" PRIu64 " counted differently\n",
              k + 1);
      return -1;
    }
  }
  *loop_ns = now_ns() - t0;
  return 0;
}

static int run_dump_xorshift(const gb_worker_args *a) {
  gb_xorshift32 g;
  if (gb_xorshift32_init(&g, a->seed) < 0)
    return die(EXIT_BAD_ARGS, "--seed must not be 0");
  for (uint64_t i = 0; i < a->dump_count; i++)
    printf("%" PRIu32 "\n", gb_xorshift32_next(&g));
  return 0;
}

static int run(const gb_worker_args *a) {
  int *input = malloc(a->size * sizeof *input);
  int *work = malloc(a->size * sizeof *work);
  int code = 0;
  if (!input || !work || gb_input_fill(input, a->size, a->order, a->seed) < 0) {
    code = die(1, "cannot allocate the input");
  } else if (a->mode == GB_MODE_DUMP_INPUT) {
    for (size_t i = 0; i < a->size; i++)
      printf("%d\n", input[i]);
  } else {
    char hash[17];
    gb_hash_hex(gb_input_hash(input, a->size), hash);
    gb_counts c = {0, 0};
    uint64_t loop_ns = 0;
    if (a->mode == GB_MODE_STARTUP)
      print_startup(a, hash);
    else if (sort_loop(a, input, work, &c, &loop_ns) < 0)
      code = EXIT_CHECK_FAILED;
    else
      print_sorted(a, &c, hash, loop_ns, work);
  }
  free(input);
  free(work);
  return code;
}

int main(int argc, char **argv) {
  gb_worker_args a;
  char msg[256];
  int rc = gb_worker_args_parse(argc, argv, &a, msg, sizeof msg);
  if (rc == 1) {
    fputs(usage, stdout);
    return 0;
  }
  if (rc == 2)
    return gb_version_print(stdout) < 0 || fflush(stdout) != 0
               ? die(1, "cannot write to stdout")
               : 0;
  if (rc < 0)
    return die(EXIT_BAD_ARGS, msg);
  rc = a.mode == GB_MODE_DUMP_XORSHIFT ? run_dump_xorshift(&a) : run(&a);
  if (fflush(stdout) != 0 || ferror(stdout))
    return die(1, "cannot write to stdout");
  return rc;
}
