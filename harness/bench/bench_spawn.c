/* What the harness's spawner adds to a process's measured wall time
 * (docs/performance.md, figure 1). One command is launched, run after run,
 * in four ways interleaved in the same process:
 *
 *   harness    gb_spawn_run, one launch, a 60 s timeout, with a stdout check
 *              as measure.c has (the worker's line parsed and checked
 *              against its arguments; nothing at all from any other
 *              command); the figure is the wall_ns the harness records;
 *   call       the same call timed from outside, set-up and check included:
 *              what one measured run costs the campaign, not the record;
 *   fork       a floor: fork, execve, wait4 and nothing else, stdin, stdout
 *              and stderr on /dev/null, timed with CLOCK_MONOTONIC_RAW;
 *   spawn      the floor the goal is set against: the same with posix_spawn
 *              (vfork-style clone), which is how hyperfine's runtime starts
 *              a command;
 *   proto      the spawner's launch rebuilt on posix_spawn (spawn_proto.h):
 *              output to memory files read after the reap, a pidfd polled;
 *              what spawn.c's own child function adds is left out;
 *
 * and after every ten runs a startup batch (gb_spawn_run with ten launches
 * back to back, per launch), as the startup trials measure. Every sample
 * goes to --raw as "ROUND METHOD NS" lines; ci/bench runs hyperfine on the
 * same command between rounds and compares medians.
 *
 * With --parts it measures instead what each part of the harness's launch
 * adds to the posix_spawn floor, one at a time, and prints the medians.
 *
 *   bench_spawn [--runs N] [--warmup N] [--round R] [--raw FILE] [--parts] -- CMD [ARG...] */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"
#include "greenbench/clock.h"
#include "greenbench/numparse.h"
#include "greenbench/spawn.h"
#include "greenbench/workerline.h"
#include "greenbench/workload.h"
#include "spawn_proto.h"

#define MAX_RUNS 100000u
#define BATCH 10u

typedef struct {
  uint64_t runs, warmup, round;
  const char *raw;
  bool parts;
  char **argv;
} bench_opts;

/* What the check hook compares the command's stdout with. */
typedef struct {
  bool is_worker;
  gb_worker_request req;
  uint64_t checked;
} check_ctx;

/* --------------------------------------------------------------- checks */

/* The request the C worker's command line makes, as measure.c builds it
 * from a job (a --startup-only line still echoes --sorts). */
static int worker_request(char **argv, gb_worker_request *req) {
  *req = (gb_worker_request){
      .kind = GB_WORKERLINE_SORT, .language = "c", .seed = GB_DEFAULT_SEED, .sorts = 1};
  for (int i = 1; argv[i]; i++) {
    const char *a = argv[i], *v = argv[i + 1];
    uint64_t n;
    if (!strcmp(a, "--startup-only"))
      req->kind = GB_WORKERLINE_STARTUP;
    else if (!v)
      continue;
    else if (!strcmp(a, "--algorithm") && gb_algorithm_parse(v, &req->algorithm) < 0)
      return -EINVAL;
    else if (!strcmp(a, "--order") && gb_order_parse(v, &req->order) < 0)
      return -EINVAL;
    else if (!strcmp(a, "--size") && gb_parse_u64(v, 1, GB_MAX_SIZE, &req->size) < 0)
      return -EINVAL;
    else if (!strcmp(a, "--sorts") && gb_parse_u64(v, 1, GB_MAX_SORTS, &req->sorts) < 0)
      return -EINVAL;
    else if (!strcmp(a, "--seed") && gb_parse_u64(v, 1, UINT32_MAX, &n) == 0)
      req->seed = (uint32_t)n;
  }
  return 0;
}

static int check_out(void *p, const char *out, size_t len, bool truncated, char *msg,
                     size_t msglen) {
  check_ctx *c = p;
  gb_worker_line line;
  gb_err err;
  c->checked++;
  if (!c->is_worker) {
    if (len == 0)
      return 0;
    snprintf(msg, msglen, "expected no output, got %zu bytes", len);
    return -1;
  }
  if (truncated || gb_workerline_read(out, len, &c->req, &line, &err) < 0) {
    snprintf(msg, msglen, "%s", truncated ? "output truncated" : err.msg);
    return -1;
  }
  return 0;
}

/* -------------------------------------------------------------- methods */

/* One launch through the harness's spawner: its recorded wall_ns, and the
 * whole call timed from outside in *call_ns. */
static int via_harness(char **argv, check_ctx *cc, unsigned launches, uint64_t *wall_ns,
                       uint64_t *call_ns) {
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  o.check = check_out;
  o.ctx = cc;
  o.launches = launches;
  o.timeout_ns = 60000000000u;
  gb_spawn_result r;
  gb_err err;
  uint64_t t0 = gb_monotonic_raw_ns();
  int rc = gb_spawn_run(&o, &r, &err);
  if (rc == 0)
    gb_spawn_result_free(&r);
  uint64_t t1 = gb_monotonic_raw_ns();
  if (rc < 0 || r.status != GB_SPAWN_OK) {
    fprintf(stderr, "bench_spawn: %s: %s\n", argv[0], rc < 0 ? err.msg : r.message);
    return -EIO;
  }
  *wall_ns = r.wall_ns;
  *call_ns = t1 - t0;
  return 0;
}

static int reaped_ok(pid_t pid, const char *what) {
  int st = 0;
  struct rusage ru;
  while (wait4(pid, &st, 0, &ru) < 0)
    if (errno != EINTR)
      return -errno;
  if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
    return 0;
  fprintf(stderr, "bench_spawn: %s: the command failed (status 0x%x)\n", what, st);
  return -EIO;
}

/* The floor: fork, exec, wait4, with the standard streams on /dev/null. */
static int via_fork(char **argv, int devnull, uint64_t *ns) {
  uint64_t t0 = gb_monotonic_raw_ns();
  pid_t pid = fork();
  if (pid == 0) {
    dup2(devnull, 0);
    dup2(devnull, 1);
    dup2(devnull, 2);
    execve(argv[0], argv, environ);
    _exit(127);
  }
  if (pid < 0)
    return -errno;
  int rc = reaped_ok(pid, "fork");
  *ns = gb_monotonic_raw_ns() - t0;
  return rc;
}

static int via_posix_spawn(char **argv, const posix_spawn_file_actions_t *fa, uint64_t *ns) {
  uint64_t t0 = gb_monotonic_raw_ns();
  pid_t pid;
  int e = posix_spawn(&pid, argv[0], fa, NULL, argv, environ);
  if (e != 0)
    return -e;
  int rc = reaped_ok(pid, "posix_spawn");
  *ns = gb_monotonic_raw_ns() - t0;
  return rc;
}

static int via_proto(char **argv, check_ctx *cc, int devnull, uint64_t *ns) {
  static char out[GB_SPAWN_STDOUT_MAX + 1];
  size_t len = 0;
  int rc = proto_spawn_run(argv, devnull, NULL, out, sizeof out, &len, ns);
  char msg[sizeof(gb_err)];
  if (rc == 0 && check_out(cc, out, len, len + 1 >= sizeof out, msg, sizeof msg) != 0) {
    fprintf(stderr, "bench_spawn: proto: %s\n", msg);
    rc = -EIO;
  }
  return rc;
}

/* ---------------------------------------------------------------- parts */

/* --parts: what each part of the harness's launch adds to the posix_spawn
 * floor, in-process and interleaved (a Williams design for seven: the
 * cyclic square of the sequence 0 1 6 2 5 3 4 and of its mirror, so over
 * every 14 runs each part comes first twice and directly follows each other
 * part twice). */
enum {
  PART_SPAWN,
  PART_MEMFD,
  PART_PROTO,
  PART_PIPES,
  PART_NO_TIMEOUT,
  PART_HARNESS,
  PART_STOP,
  PARTS
};
static const char *const part_names[PARTS] = {
    "posix_spawn floor (stdio on /dev/null)",
    "posix_spawn, output to memory files",
    "  the same, a pidfd polled (prototype)",
    "posix_spawn, output through pipes, polled",
    "harness without a timeout",
    "harness, 60 s timeout (the rounds' arm)",
    "harness, 60 s timeout and a stop flag (campaign)"};

static volatile sig_atomic_t never_stop;

static int one_part(char **argv, check_ctx *cc, int devnull,
                    const posix_spawn_file_actions_t *fa, int part, uint64_t *ns) {
  static char out[GB_SPAWN_STDOUT_MAX + 1];
  size_t len = 0;
  if (part == PART_SPAWN)
    return via_posix_spawn(argv, fa, ns);
  if (part < PART_NO_TIMEOUT) {
    proto_opts po = {.capture = part == PART_PIPES ? PROTO_PIPES : PROTO_MEMFD,
                     .poll_pidfd = part != PART_MEMFD};
    return proto_spawn_run(argv, devnull, &po, out, sizeof out, &len, ns);
  }
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  o.check = check_out;
  o.ctx = cc;
  o.timeout_ns = part == PART_NO_TIMEOUT ? 0 : 60000000000u;
  o.stop = part == PART_STOP ? &never_stop : NULL;
  gb_spawn_result r;
  gb_err err;
  int rc = gb_spawn_run(&o, &r, &err);
  if (rc < 0)
    return rc;
  *ns = r.wall_ns;
  rc = r.status == GB_SPAWN_OK ? 0 : -EIO;
  gb_spawn_result_free(&r);
  return rc;
}

static int run_parts(char **argv, check_ctx *cc, int devnull,
                     const posix_spawn_file_actions_t *fa, const bench_opts *o) {
  static const unsigned base[PARTS] = {0, 1, 6, 2, 5, 3, 4};
  double *v[PARTS] = {0};
  int rc = 0;
  for (int p = 0; p < PARTS; p++)
    if (!(v[p] = malloc(o->runs * sizeof *v[p])))
      rc = -ENOMEM;
  for (uint64_t i = 0; i < o->warmup + o->runs && rc == 0; i++)
    for (unsigned k = 0; k < PARTS && rc == 0; k++) {
      bool mirror = i / PARTS % 2 == 1;
      int p = (int)((base[mirror ? PARTS - 1 - k : k] + i) % PARTS);
      uint64_t ns = 0;
      rc = one_part(argv, cc, devnull, fa, p, &ns);
      if (i >= o->warmup)
        v[p][i - o->warmup] = (double)ns;
    }
  double med[PARTS], lo[PARTS], hi[PARTS];
  for (int p = 0; p < PARTS && rc == 0; p++)
    bench_median_ci(v[p], o->runs, &med[p], &lo[p], &hi[p]);
  for (int p = 0; p < PARTS && rc == 0; p++)
    printf("  %-50s %8.1f us  (95%% CI %.1f .. %.1f)  %+6.1f us over the floor\n",
           part_names[p], med[p] / 1e3, lo[p] / 1e3, hi[p] / 1e3,
           (med[p] - med[PART_SPAWN]) / 1e3);
  for (int p = 0; p < PARTS; p++)
    free(v[p]);
  return rc;
}

/* ---------------------------------------------------------------- round */

typedef struct {
  char **argv;
  check_ctx cc;
  int devnull;
  posix_spawn_file_actions_t fa;
  FILE *raw;
  uint64_t round;
} bench_state;

static void emit(bench_state *s, const char *method, uint64_t ns) {
  fprintf(s->raw, "%" PRIu64 " %s %" PRIu64 "\n", s->round, method, ns);
}

/* The single-launch methods once each, in the orders of a Williams design:
 * over every four runs each method comes first once and directly follows
 * each other method once, so no method always inherits the same state. */
static int one_of_each(bench_state *s, uint64_t i, bool keep) {
  static const unsigned order[4][4] = {{0, 1, 3, 2}, {1, 2, 0, 3}, {2, 3, 1, 0}, {3, 0, 2, 1}};
  uint64_t wall = 0, call = 0, fk = 0, sp = 0, pr = 0;
  int rc = 0;
  for (unsigned k = 0; k < 4 && rc == 0; k++) {
    unsigned m = order[i % 4][k];
    rc = m == 0   ? via_harness(s->argv, &s->cc, 1, &wall, &call)
         : m == 1 ? via_fork(s->argv, s->devnull, &fk)
         : m == 2 ? via_posix_spawn(s->argv, &s->fa, &sp)
                  : via_proto(s->argv, &s->cc, s->devnull, &pr);
  }
  if (rc == 0 && keep) {
    emit(s, "harness", wall);
    emit(s, "call", call);
    emit(s, "fork", fk);
    emit(s, "spawn", sp);
    emit(s, "proto", pr);
  }
  return rc;
}

/* A startup batch of BATCH launches after every BATCH runs of the others:
 * many short batches rather than one long one, whose single sample a
 * shared CPU's time slices would inflate. */
static int run_round(bench_state *s, const bench_opts *o) {
  int rc = 0;
  for (uint64_t i = 0; i < o->warmup && rc == 0; i++)
    rc = one_of_each(s, i, false);
  for (uint64_t i = 0; i < o->runs && rc == 0; i++) {
    rc = one_of_each(s, i, true);
    uint64_t wall, call;
    if (rc == 0 && i % BATCH == BATCH - 1 &&
        (rc = via_harness(s->argv, &s->cc, BATCH, &wall, &call)) == 0)
      emit(s, "batch", wall / BATCH);
  }
  return rc;
}

static int parse_args(int argc, char **argv, bench_opts *o) {
  *o = (bench_opts){.runs = 300, .warmup = 20};
  int i = 1;
  for (; i < argc && strcmp(argv[i], "--"); i++) {
    int rc =
        !strcmp(argv[i], "--runs")     ? bench_opt_u64(argc, argv, &i, 1, MAX_RUNS, &o->runs)
        : !strcmp(argv[i], "--warmup") ? bench_opt_u64(argc, argv, &i, 0, MAX_RUNS, &o->warmup)
        : !strcmp(argv[i], "--round")  ? bench_opt_u64(argc, argv, &i, 0, 1000000, &o->round)
        : !strcmp(argv[i], "--parts")  ? (o->parts = true, 0)
        : !strcmp(argv[i], "--raw") && i + 1 < argc ? (o->raw = argv[++i], 0)
                                                    : -EINVAL;
    if (rc < 0)
      return rc;
  }
  if (i + 1 >= argc || argv[i + 1][0] != '/')
    return -EINVAL; /* the command, by absolute path: no PATH lookup */
  o->argv = argv + i + 1;
  return 0;
}

int main(int argc, char **argv) {
  bench_opts o;
  if (parse_args(argc, argv, &o) < 0) {
    fprintf(stderr, "usage: bench_spawn [--runs N] [--warmup N] [--round R] [--raw FILE] "
                    "[--parts] -- /ABS/PATH [ARG...]\n");
    return 2;
  }
  bench_state s = {.argv = o.argv, .round = o.round, .raw = stdout};
  const char *base = strrchr(o.argv[0], '/') + 1;
  s.cc.is_worker = !strncmp(base, "worker-", 7);
  if (s.cc.is_worker && worker_request(o.argv, &s.cc.req) < 0) {
    fprintf(stderr, "bench_spawn: cannot read the worker's arguments\n");
    return 2;
  }
  if (o.raw && !(s.raw = fopen(o.raw, "a"))) {
    fprintf(stderr, "bench_spawn: cannot open %s: %s\n", o.raw, strerror(errno));
    return 1;
  }
  s.devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
  posix_spawn_file_actions_init(&s.fa);
  for (int fd = 0; fd < 3; fd++)
    posix_spawn_file_actions_adddup2(&s.fa, s.devnull, fd);
  int rc = s.devnull < 0 ? -errno
           : o.parts     ? run_parts(s.argv, &s.cc, s.devnull, &s.fa, &o)
                         : run_round(&s, &o);
  posix_spawn_file_actions_destroy(&s.fa);
  if (s.raw != stdout)
    fclose(s.raw);
  if (rc < 0)
    return 1;
  fprintf(stderr,
          "bench_spawn: round %" PRIu64 ": %" PRIu64 " runs of each method, %" PRIu64
          " outputs checked\n",
          o.round, o.runs, s.cc.checked);
  return 0;
}
