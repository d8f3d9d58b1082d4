/* The process measurement, against scripted workers in data/workers/ (each
 * exec'd directly, no shell in between) and once against the real C worker;
 * and who the workers run as. Hung workers get timeouts of a few hundred
 * milliseconds, so the whole file runs in a few seconds. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "greenbench/clock.h"
#include "greenbench/numparse.h"
#include "greenbench/privilege.h"
#include "greenbench/spawn.h"
#include "greenbench/workerline.h"
#include "harness_internal.h"

#define WORKER(name) GB_TEST_DATA_DIR "/workers/" name
#define MS 1000000u

typedef struct {
  int before, after;
  uint64_t before_ns, after_ns;
  bool before_came_first;
} hook_log;

/* The one ctx every callback of a run gets. */
typedef struct {
  hook_log hooks;
  int checks;
  int refuse_at; /* the check refuses this call; 0: never */
  int first_pid; /* the first line of the first launch's stdout */
} test_ctx;

static void on_before(void *ctx) {
  hook_log *h = &((test_ctx *)ctx)->hooks;
  h->before++;
  h->before_ns = gb_monotonic_raw_ns();
}

static void on_after(void *ctx) {
  hook_log *h = &((test_ctx *)ctx)->hooks;
  h->after++;
  h->after_ns = gb_monotonic_raw_ns();
  h->before_came_first = h->before == 1;
}

/* Runs o with the logging hooks (into *t, or a local log when t is NULL);
 * asserts the harness itself did not fail and each hook ran exactly once. */
static gb_spawn_result run_ctx(gb_spawn_opts *o, test_ctx *t) {
  test_ctx local = {0};
  if (!t)
    t = &local;
  t->hooks = (hook_log){0};
  o->before = on_before;
  o->after = on_after;
  o->ctx = t;
  gb_spawn_result r;
  gb_err err = {{0}};
  int rc = gb_spawn_run(o, &r, &err);
  cr_assert_eq(rc, 0, "gb_spawn_run failed: %s", err.msg);
  cr_assert_eq(t->hooks.before, 1, "before ran %d times", t->hooks.before);
  cr_assert_eq(t->hooks.after, 1, "after ran %d times", t->hooks.after);
  cr_assert(t->hooks.before_came_first);
  return r;
}

static gb_spawn_result run_opts(gb_spawn_opts *o) {
  return run_ctx(o, NULL);
}

static gb_spawn_result run_worker(char *const *argv, uint64_t timeout_ns) {
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  o.timeout_ns = timeout_ns;
  return run_opts(&o);
}

static gb_spawn_result run_script(const char *path, uint64_t timeout_ns) {
  char *argv[] = {(char *)path, NULL};
  return run_worker(argv, timeout_ns);
}

/* True once pid has exited (gone, or a zombie waiting for its new parent). */
static bool process_gone(pid_t pid) {
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  for (int i = 0; i < 200; i++) {
    FILE *f = fopen(path, "r");
    if (!f)
      return true;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    if (p && (p[2] == 'Z' || p[2] == 'X'))
      return true;
    usleep(10000);
  }
  return false;
}

static const gb_worker_request quick_random = {.kind = GB_WORKERLINE_SORT,
                                               .language = "c",
                                               .algorithm = GB_QUICK,
                                               .order = GB_RANDOM,
                                               .size = 4000,
                                               .seed = GB_DEFAULT_SEED,
                                               .sorts = 1};

/* The pid a script printed first ("4242\n"), or -1. */
static int leading_pid(const char *out) {
  uint64_t v;
  return gb_scan_u64(&out, 10, INT32_MAX, &v) == 0 ? (int)v : -1;
}

/* The hexadecimal value after name in /proc/PID/status text ("SigBlk:\t00..."). */
static bool hex_field(const char *status, const char *name, uint64_t *out) {
  const char *p = strstr(status, name);
  if (!p)
    return false;
  p += strlen(name) + strspn(p + strlen(name), " \t");
  return gb_scan_u64(&p, 16, UINT64_MAX, out) == 0;
}

Test(spawn, good_worker_line_is_captured_and_parses) {
  gb_spawn_result r = run_script(WORKER("good_sort.sh"), 5000 * MS);
  cr_assert_eq(r.status, GB_SPAWN_OK, "%s", r.message);
  cr_assert_str_empty(r.message);
  cr_assert_eq(r.launches, 1);
  cr_assert_not(r.out_truncated);
  cr_assert_gt(r.wall_ns, 0);
  cr_assert_eq(r.out[r.out_len], '\0');
  gb_worker_line line;
  gb_err err;
  cr_assert_eq(gb_workerline_read(r.out, r.out_len, &quick_random, &line, &err), 0, "%s",
               err.msg);
  cr_assert_eq(line.comparisons, 55119u);
  cr_assert_str_eq(gbi_spawn_status_name(r.status), "ok");
  gb_spawn_result_free(&r);
  cr_assert_null(r.out);
}

Test(spawn, crash_is_named_with_its_signal) {
  gb_spawn_result r = run_script(WORKER("crash.sh"), 5000 * MS);
  cr_assert_eq(r.status, GB_SPAWN_CRASHED, "%s", r.message);
  cr_assert_eq(r.signal, SIGSEGV);
  cr_assert(strstr(r.message, "SIGSEGV (signal 11)"), "%s", r.message);
  cr_assert(strstr(r.message, "about to crash"), "the last stderr line is quoted: %s",
            r.message);
  cr_assert_str_eq(gbi_spawn_status_name(r.status), "crashed");
  gb_spawn_result_free(&r);
}

Test(spawn, hung_worker_times_out_and_its_group_is_killed) {
  gb_spawn_result r = run_script(WORKER("hang.sh"), 300 * MS);
  cr_assert_eq(r.status, GB_SPAWN_TIMEOUT, "%s", r.message);
  char want[128];
  snprintf(want, sizeof want, "timed out after 0.3 s; killed process group %d", (int)r.pid);
  cr_assert_str_eq(r.message, want);
  cr_assert_geq(r.wall_ns, 300 * MS);
  cr_assert_lt(r.wall_ns, 2000 * MS, "the kill took %llu ns", (unsigned long long)r.wall_ns);
  cr_assert(process_gone(r.pid));
  gb_spawn_result_free(&r);
}

Test(spawn, timeout_kills_the_grandchild_too) {
  gb_spawn_result r = run_script(WORKER("hang_grandchild.sh"), 300 * MS);
  cr_assert_eq(r.status, GB_SPAWN_TIMEOUT, "%s", r.message);
  int grandchild = leading_pid(r.out);
  cr_assert_gt(grandchild, 1, "the script printed its grandchild's pid: '%s'", r.out);
  cr_assert_neq(grandchild, r.pid);
  cr_assert(process_gone(grandchild), "grandchild %d was left running", grandchild);
  gb_spawn_result_free(&r);
}

Test(spawn, silent_worker_exits_ok_but_its_output_is_refused) {
  gb_spawn_result r = run_script(WORKER("silent.sh"), 5000 * MS);
  cr_assert_eq(r.status, GB_SPAWN_OK, "%s", r.message);
  cr_assert_eq(r.out_len, 0);
  gb_worker_line line;
  gb_err err;
  cr_assert_eq(gb_workerline_read(r.out, r.out_len, &quick_random, &line, &err), -EPROTO);
  cr_assert(strstr(err.msg, "nothing on stdout"), "%s", err.msg);
  gb_spawn_result_free(&r);
}

Test(spawn, malformed_and_two_line_output_are_refused) {
  static const struct {
    const char *script, *why;
  } cases[] = {{WORKER("malformed.sh"), "not valid JSON"},
               {WORKER("two_lines.sh"), "more than one line"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    gb_spawn_result r = run_script(cases[i].script, 5000 * MS);
    cr_assert_eq(r.status, GB_SPAWN_OK, "%s", r.message);
    gb_worker_line line;
    gb_err err;
    cr_assert_eq(gb_workerline_parse(r.out, r.out_len, GB_WORKERLINE_STARTUP, &line, &err),
                 -EPROTO);
    cr_assert(strstr(err.msg, cases[i].why), "%s: %s", cases[i].script, err.msg);
    gb_spawn_result_free(&r);
  }
}

Test(spawn, huge_output_is_drained_and_truncation_flagged) {
  gb_spawn_result r = run_script(WORKER("huge.sh"), 10000 * MS);
  cr_assert_eq(r.status, GB_SPAWN_OK, "%s", r.message);
  cr_assert(r.out_truncated);
  cr_assert_eq(r.out_len, GB_SPAWN_STDOUT_MAX);
  cr_assert_eq(r.out[0], 'x');
  cr_assert_eq(r.out[r.out_len - 1], 'x');
  cr_assert(r.err_truncated);
  cr_assert_leq(r.err_len, GB_SPAWN_STDERR_TAIL);
  cr_assert_str_eq(r.err_tail, "last stderr line\n", "a cut tail starts at a whole line");
  gb_spawn_result_free(&r);
}

Test(spawn, stdout_past_the_capture_limit_is_bad_output_named_so) {
  char *argv[] = {WORKER("flood.sh"), "out", NULL};
  gb_spawn_result r = run_worker(argv, 20000 * MS);
  /* The worker exited 0, but its writes past 16 MiB failed. */
  cr_assert_eq(r.status, GB_SPAWN_BAD_OUTPUT, "%s", r.message);
  cr_assert_str_eq(r.message, "wrote 16 MiB or more to stdout, its limit (writes past it "
                              "failed); exited with code 0: still here");
  cr_assert(strstr(r.err_tail, "Operation not permitted"), "tr's own error: %s", r.err_tail);
  cr_assert(r.out_truncated);
  cr_assert_eq(r.out_len, GB_SPAWN_STDOUT_MAX);
  cr_assert_eq(r.out[0], 'x');
  cr_assert_eq(r.out[r.out_len - 1], 'x');
  gb_spawn_result_free(&r);
}

Test(spawn, stderr_past_the_capture_limit_is_bad_output_named_so) {
  char *argv[] = {WORKER("flood.sh"), "err", NULL};
  gb_spawn_result r = run_worker(argv, 20000 * MS);
  cr_assert_eq(r.status, GB_SPAWN_BAD_OUTPUT, "%s", r.message);
  cr_assert(strstr(r.message, "wrote 16 MiB or more to stderr, its limit (writes past it "
                              "failed); exited with code 0: xxx"),
            "%s", r.message);
  cr_assert_str_eq(r.out, "still here\n");
  cr_assert(r.err_truncated);
  cr_assert_eq(r.err_len, GB_SPAWN_STDERR_TAIL, "the tail is the last 4 KiB written");
  cr_assert_eq(r.err_tail[0], 'x');
  gb_spawn_result_free(&r);
}

Test(spawn, capture_limit_grows_with_a_larger_stdout_max) {
  char *argv[] = {WORKER("flood.sh"), "out", NULL};
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  o.timeout_ns = 20000 * MS;
  o.stdout_max = GB_SPAWN_CAPTURE_LIMIT + 1; /* the capture: 18 MiB, 2 MiB rounded */
  gb_spawn_result r = run_opts(&o);
  cr_assert_eq(r.status, GB_SPAWN_BAD_OUTPUT, "%s", r.message);
  cr_assert(strstr(r.message, "wrote 18 MiB or more to stdout, its limit"), "%s", r.message);
  cr_assert(r.out_truncated);
  cr_assert_eq(r.out_len, GB_SPAWN_CAPTURE_LIMIT + 1, "stdout_max bytes are kept");
  cr_assert_eq(r.out[r.out_len - 1], 'x');
  gb_spawn_result_free(&r);
}

Test(spawn, small_stdout_limit_is_honoured) {
  char *argv[] = {WORKER("good_sort.sh"), NULL};
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  o.stdout_max = 10;
  gb_spawn_result r = run_opts(&o);
  cr_assert_eq(r.status, GB_SPAWN_OK, "%s", r.message);
  cr_assert(r.out_truncated);
  cr_assert_str_eq(r.out, "{\"language");
  gb_spawn_result_free(&r);
}

Test(spawn, nonzero_exit_gives_code_and_last_stderr_line) {
  gb_spawn_result r = run_script(WORKER("fail.sh"), 5000 * MS);
  cr_assert_eq(r.status, GB_SPAWN_EXIT_NONZERO, "%s", r.message);
  cr_assert_eq(r.exit_code, 2);
  cr_assert_str_eq(r.message, "exited with code 2: worker: error: --size must be an integer "
                              "from 1 to 10000000, got 'x'");
  cr_assert(strstr(r.err_tail, "worker: debug noise\n"), "the whole tail is kept");
  cr_assert_not(r.err_truncated);
  cr_assert_str_eq(gbi_spawn_status_name(r.status), "exit_nonzero");
  gb_spawn_result_free(&r);
}

Test(spawn, missing_program_is_spawn_failed_naming_it) {
  gb_spawn_result r = run_script(WORKER("no_such_worker"), 5000 * MS);
  cr_assert_eq(r.status, GB_SPAWN_SPAWN_FAILED, "%s", r.message);
  cr_assert_eq(r.error, ENOENT);
  cr_assert_str_eq(r.message, "cannot execute " WORKER(
                                  "no_such_worker") ": No such file or directory (ENOENT)");
  cr_assert_str_eq(gbi_spawn_status_name(r.status), "spawn_failed");
  gb_spawn_result_free(&r);
}

Test(spawn, directory_is_not_executable) {
  gb_spawn_result r = run_script(GB_TEST_DATA_DIR "/workers", 5000 * MS);
  cr_assert_eq(r.status, GB_SPAWN_SPAWN_FAILED, "%s", r.message);
  cr_assert_eq(r.error, EACCES);
  cr_assert(strstr(r.message, "(EACCES)"), "%s", r.message);
  gb_spawn_result_free(&r);
}

Test(spawn, environment_stdin_and_process_group) {
  char *argv[] = {WORKER("probe.sh"), NULL};
  char *envp[] = {"GB_PROBE=hello", "PATH=/usr/bin:/bin", NULL};
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  o.envp = envp;
  o.timeout_ns = 5000 * MS;
  gb_spawn_result r = run_opts(&o);
  cr_assert_eq(r.status, GB_SPAWN_OK, "%s", r.message);
  char want[128];
  /* cat printed nothing: stdin is /dev/null. The worker leads its own group. */
  snprintf(want, sizeof want, "probe=hello\npid=%d\npgid=%d\n", (int)r.pid, (int)r.pid);
  cr_assert_str_eq(r.out, want);
  gb_spawn_result_free(&r);
}

Test(spawn, processes_left_behind_are_killed_and_reported) {
  gb_spawn_result r = run_script(WORKER("stray.sh"), 5000 * MS);
  cr_assert_eq(r.status, GB_SPAWN_OK, "%s", r.message);
  cr_assert(r.strays_killed);
  int stray = leading_pid(r.out);
  cr_assert_gt(stray, 1, "'%s'", r.out);
  cr_assert(process_gone(stray), "stray %d still runs", stray);
  cr_assert_lt(r.wall_ns, 2000 * MS, "the harness did not wait for the stray");
  gb_spawn_result_free(&r);
}

/* A counter file for the scripts that count their launches, and the
 * GB_COUNTER=path variable naming it. */
static void counter_file(char *path, size_t len, char *env, size_t envlen) {
  snprintf(path, len, "/tmp/gb_spawn_counter_XXXXXX");
  int fd = mkstemp(path);
  cr_assert_geq(fd, 0);
  close(fd);
  snprintf(env, envlen, "GB_COUNTER=%s", path);
}

static void counter_remove(const char *path) {
  char escaped[128];
  snprintf(escaped, sizeof escaped, "%s.escaped", path);
  unlink(escaped);
  unlink(path);
}

/* escapee.sh's process left the worker's group and session, so the kill
 * of the group misses it; it keeps stdout open and writes for seconds. */
Test(spawn, a_process_that_left_the_group_does_not_hold_up_the_harness) {
  char counter[64], env[96];
  counter_file(counter, sizeof counter, env, sizeof env);
  char *argv[] = {WORKER("escapee.sh"), NULL};
  char *envp[] = {env, "PATH=/usr/bin:/bin", NULL};
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  o.envp = envp;
  o.timeout_ns = 10000 * MS;
  uint64_t t0 = gb_monotonic_raw_ns();
  gb_spawn_result r = run_opts(&o);
  uint64_t call_ns = gb_monotonic_raw_ns() - t0;
  int escapee = leading_pid(r.out);
  cr_assert_gt(escapee, 1, "'%s'", r.out);
  cr_assert_eq(kill(-escapee, SIGKILL), 0, "the escapee leads its own group");
  counter_remove(counter);
  cr_assert_eq(r.status, GB_SPAWN_OK, "%s", r.message);
  cr_assert_not(r.strays_killed, "nothing was left in the worker's group");
  cr_assert_lt(call_ns, 2000 * MS, "the harness waited %llu ns for a writer outside the group",
               (unsigned long long)call_ns);
  gb_spawn_result_free(&r);
}

static int remember_first_pid(void *ctx, const char *out, size_t len, bool truncated, char *msg,
                              size_t msglen) {
  (void)len, (void)truncated, (void)msg, (void)msglen;
  test_ctx *t = ctx;
  if (t->checks++ == 0)
    t->first_pid = leading_pid(out);
  return 0;
}

Test(spawn_batch, a_launch_gets_nothing_an_earlier_launch_left_writing) {
  char counter[64], env[96];
  counter_file(counter, sizeof counter, env, sizeof env);
  char *argv[] = {WORKER("escapee.sh"), NULL};
  char *envp[] = {env, "PATH=/usr/bin:/bin", NULL};
  test_ctx t = {0};
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  o.envp = envp;
  o.launches = 2;
  o.timeout_ns = 10000 * MS;
  o.check = remember_first_pid;
  gb_spawn_result r = run_ctx(&o, &t);
  cr_assert_gt(t.first_pid, 1, "the first launch printed its escapee's pid");
  cr_assert_eq(kill(-t.first_pid, SIGKILL), 0);
  counter_remove(counter);
  cr_assert_eq(r.status, GB_SPAWN_OK, "%s", r.message);
  cr_assert_eq(r.launches, 2);
  /* The first launch's escapee wrote "late" all through the second. */
  cr_assert_str_eq(r.out, "second\n");
  gb_spawn_result_free(&r);
}

Test(spawn, well_behaved_worker_leaves_no_strays) {
  gb_spawn_result r = run_script(WORKER("good_startup.sh"), 5000 * MS);
  cr_assert_eq(r.status, GB_SPAWN_OK, "%s", r.message);
  cr_assert_not(r.strays_killed);
  gb_spawn_result_free(&r);
}

Test(spawn, hooks_bracket_the_clock_readings) {
  char *argv[] = {WORKER("sleep_short.sh"), NULL};
  test_ctx t = {0};
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  gb_spawn_result r = run_ctx(&o, &t);
  cr_assert_eq(r.status, GB_SPAWN_OK, "%s", r.message);
  cr_assert_geq(r.wall_ns, 50 * MS, "the worker slept 50 ms");
  cr_assert_geq(t.hooks.after_ns - t.hooks.before_ns, r.wall_ns,
                "the clock readings lie between the hooks");
  gb_spawn_result_free(&r);
}

Test(spawn, hooks_run_once_even_when_the_spawn_fails) {
  char *argv[] = {WORKER("no_such_worker"), NULL};
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  gb_spawn_result r = run_opts(&o); /* asserts one before and one after */
  cr_assert_eq(r.status, GB_SPAWN_SPAWN_FAILED);
  gb_spawn_result_free(&r);
}

static void slow_before(void *ctx) {
  on_before(ctx);
  usleep(200000);
}

/* The first launch's timer is armed before the before hook: the 200 ms the
 * hook takes must not come off the worker's 300 ms. */
Test(spawn, a_slow_before_hook_does_not_shorten_the_timeout) {
  char *argv[] = {WORKER("hang.sh"), NULL};
  test_ctx t = {0};
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  o.timeout_ns = 300 * MS;
  o.before = slow_before;
  o.after = on_after;
  o.ctx = &t;
  gb_spawn_result r;
  gb_err err;
  cr_assert_eq(gb_spawn_run(&o, &r, &err), 0, "%s", err.msg);
  cr_assert_eq(r.status, GB_SPAWN_TIMEOUT, "%s", r.message);
  cr_assert_geq(r.wall_ns, 300 * MS, "killed after %llu ns", (unsigned long long)r.wall_ns);
  cr_assert_lt(r.wall_ns, 2000 * MS);
  cr_assert(process_gone(r.pid));
  gb_spawn_result_free(&r);
}

static void no_op(int sig) {
  (void)sig;
}

/* The worker's signals start as from a shell: nothing blocked, SIGPIPE at
 * its default though the harness ignores it, what else the harness ignores
 * still ignored (as a shell leaves it). */
Test(spawn, worker_signals_start_from_the_defaults) {
  signal(SIGPIPE, SIG_IGN);
  signal(SIGUSR2, SIG_IGN);
  signal(SIGUSR1, no_op); /* a handler of the harness's */
  sigset_t usr1, old;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &usr1, &old);
  char *argv[] = {"/bin/grep", "-E", "^Sig(Blk|Ign)", "/proc/self/status", NULL};
  gb_spawn_result r = run_worker(argv, 5000 * MS);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  signal(SIGUSR1, SIG_DFL);
  signal(SIGUSR2, SIG_DFL);
  cr_assert_eq(r.status, GB_SPAWN_OK, "%s", r.message);
  uint64_t blk = 1, ign = 0;
  cr_assert(hex_field(r.out, "SigBlk:", &blk) && hex_field(r.out, "SigIgn:", &ign), "%s",
            r.out);
  cr_assert_eq(blk, 0, "%s", r.out);
  cr_assert_eq(ign & (1ull << (SIGPIPE - 1)), 0, "SIGPIPE still ignored: %s", r.out);
  cr_assert_neq(ign & (1ull << (SIGUSR2 - 1)), 0, "SIGUSR2 no longer ignored: %s", r.out);
  gb_spawn_result_free(&r);
}

Test(spawn_batch, every_launch_gets_the_whole_timeout) {
  char *argv[] = {WORKER("sleep_short.sh"), NULL};
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  o.launches = 6;
  o.timeout_ns = 250 * MS;
  gb_spawn_result r = run_opts(&o);
  cr_assert_eq(r.status, GB_SPAWN_OK, "%s", r.message);
  cr_assert_eq(r.launches, 6);
  cr_assert_geq(r.wall_ns, 300 * MS, "six launches of 50 ms, more than one timeout");
  gb_spawn_result_free(&r);
}

static void stalled(void *ctx, char *buf, size_t len) {
  (void)ctx;
  snprintf(buf, len, "package counter stood still for 100 ms");
}

static int armed_timer(uint64_t ns) {
  int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
  cr_assert_geq(fd, 0);
  struct itimerspec its = {.it_value = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)}};
  cr_assert_eq(timerfd_settime(fd, 0, &its, NULL), 0);
  return fd;
}

Test(spawn, abort_fd_kills_the_group_with_the_callers_reason) {
  char *argv[] = {WORKER("hang_grandchild.sh"), NULL};
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  o.timeout_ns = 10000 * MS;
  o.abort_fd = armed_timer(100 * MS);
  o.abort_reason = stalled;
  gb_spawn_result r = run_opts(&o);
  cr_assert_eq(r.status, GB_SPAWN_ABORTED, "%s", r.message);
  char want[128];
  snprintf(want, sizeof want, "package counter stood still for 100 ms; killed process group %d",
           (int)r.pid);
  cr_assert_str_eq(r.message, want);
  cr_assert_lt(r.wall_ns, 2000 * MS);
  cr_assert(process_gone(leading_pid(r.out)), "the grandchild was killed too");
  cr_assert_str_eq(gbi_spawn_status_name(r.status), "aborted");
  close(o.abort_fd);
  gb_spawn_result_free(&r);
}

Test(spawn, abort_fd_without_a_reason) {
  char *argv[] = {WORKER("hang.sh"), NULL};
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  o.timeout_ns = 10000 * MS;
  o.abort_fd = armed_timer(1 * MS);
  gb_spawn_result r = run_opts(&o);
  cr_assert_eq(r.status, GB_SPAWN_ABORTED, "%s", r.message);
  cr_assert(strstr(r.message, "stopped by the abort fd; killed process group"), "%s",
            r.message);
  close(o.abort_fd);
  gb_spawn_result_free(&r);
}

Test(spawn, real_c_worker_is_measured) {
  char *argv[] = {GB_WORKER_C_PATH, "--algorithm", "quick",   "--order", "random",
                  "--size",         "4000",        "--sorts", "200",     NULL};
  gb_spawn_result r = run_worker(argv, 20000 * MS);
  cr_assert_eq(r.status, GB_SPAWN_OK, "%s", r.message);
  gb_worker_request req = quick_random;
  req.sorts = 200;
  gb_worker_line line;
  gb_err err;
  cr_assert_eq(gb_workerline_read(r.out, r.out_len, &req, &line, &err), 0, "%s", err.msg);
  cr_assert_eq(line.comparisons, 55119u);
  cr_assert_eq(line.writes, 56984u);
  cr_assert_geq(r.wall_ns, line.loop_ns, "wall %llu ns < loop %llu ns",
                (unsigned long long)r.wall_ns, (unsigned long long)line.loop_ns);
  cr_assert_gt(r.user_ns + r.sys_ns, 0);
  cr_assert_gt(r.max_rss_kib, 0);
  gb_spawn_result_free(&r);
}

Test(spawn, bad_options_are_refused) {
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, NULL);
  gb_spawn_result r = {.status = GB_SPAWN_TIMEOUT};
  gb_err err;
  cr_assert_eq(gb_spawn_run(&o, &r, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "no program to run");
  cr_assert_eq(r.status, GB_SPAWN_TIMEOUT, "the result is untouched");
}

Test(spawn_batch, five_launches_of_true) {
  char *argv[] = {"/bin/true", NULL};
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  o.launches = 5;
  o.timeout_ns = 5000 * MS;
  gb_spawn_result r = run_opts(&o); /* asserts one before and one after */
  cr_assert_eq(r.status, GB_SPAWN_OK, "%s", r.message);
  cr_assert_eq(r.launches, 5);
  cr_assert_gt(r.wall_ns, 0);
  cr_assert_gt(r.max_rss_kib, 0);
  cr_assert_eq(r.out_len, 0);
  gb_spawn_result_free(&r);
}

Test(spawn_batch, cpu_time_is_summed_over_launches) {
  char *one[] = {GB_WORKER_C_PATH, "--algorithm", "insertion", "--order", "reversed",
                 "--size",         "3000",        "--sorts",   "3",       NULL};
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, one);
  o.timeout_ns = 20000 * MS;
  gb_spawn_result single = run_opts(&o);
  o.launches = 4;
  gb_spawn_result batch = run_opts(&o);
  cr_assert_eq(single.status, GB_SPAWN_OK, "%s", single.message);
  cr_assert_eq(batch.status, GB_SPAWN_OK, "%s", batch.message);
  uint64_t cpu1 = single.user_ns + single.sys_ns, cpu4 = batch.user_ns + batch.sys_ns;
  /* Four runs of the same work: well over twice one run's CPU time. */
  cr_assert_gt(cpu4, 2 * cpu1, "one %llu ns, four %llu ns", (unsigned long long)cpu1,
               (unsigned long long)cpu4);
  gb_spawn_result_free(&single);
  gb_spawn_result_free(&batch);
}

Test(spawn_batch, stops_at_the_first_failing_launch) {
  char counter[] = "/tmp/gb_spawn_counter_XXXXXX";
  int fd = mkstemp(counter);
  cr_assert_geq(fd, 0);
  close(fd);
  char env[64 + sizeof counter];
  snprintf(env, sizeof env, "GB_COUNTER=%s", counter);
  char *argv[] = {WORKER("fail_third.sh"), NULL};
  char *envp[] = {env, "PATH=/usr/bin:/bin", NULL};
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  o.envp = envp;
  o.launches = 5;
  o.timeout_ns = 5000 * MS;
  gb_spawn_result r = run_opts(&o);
  cr_assert_eq(r.status, GB_SPAWN_EXIT_NONZERO, "%s", r.message);
  cr_assert_eq(r.launches, 3);
  cr_assert_str_eq(r.message, "launch 3 of 5: exited with code 1: launch 3 failed");
  FILE *f = fopen(counter, "r");
  int n = 0;
  cr_assert(f && fscanf(f, "%d", &n) == 1);
  fclose(f);
  unlink(counter);
  cr_assert_eq(n, 3, "no launch ran after the failing one");
  gb_spawn_result_free(&r);
}

Test(spawn_batch, timeout_names_the_launch) {
  char *argv[] = {WORKER("hang.sh"), NULL};
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  o.launches = 3;
  o.timeout_ns = 200 * MS;
  gb_spawn_result r = run_opts(&o);
  cr_assert_eq(r.status, GB_SPAWN_TIMEOUT, "%s", r.message);
  cr_assert_eq(r.launches, 1);
  char want[128];
  snprintf(want, sizeof want, "launch 1 of 3: timed out after 0.2 s; killed process group %d",
           (int)r.pid);
  cr_assert_str_eq(r.message, want);
  gb_spawn_result_free(&r);
}

static int check_startup_line(void *ctx, const char *out, size_t len, bool truncated, char *msg,
                              size_t msglen) {
  test_ctx *t = ctx;
  t->checks++;
  gb_worker_request req = quick_random;
  req.kind = GB_WORKERLINE_STARTUP;
  gb_worker_line line;
  gb_err err;
  if (truncated || gb_workerline_read(out, len, &req, &line, &err) < 0) {
    snprintf(msg, msglen, "bad output: %s", truncated ? "truncated" : err.msg);
    return -1;
  }
  if (t->checks == t->refuse_at) {
    snprintf(msg, msglen, "bad output: refused by the test");
    return -1;
  }
  return 0;
}

Test(spawn_batch, each_launch_output_is_checked) {
  char *argv[] = {WORKER("good_startup.sh"), NULL};
  test_ctx t = {0};
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  o.launches = 3;
  o.timeout_ns = 5000 * MS;
  o.check = check_startup_line;
  gb_spawn_result r = run_ctx(&o, &t);
  cr_assert_eq(r.status, GB_SPAWN_OK, "%s", r.message);
  cr_assert_eq(t.checks, 3);
  gb_spawn_result_free(&r);

  t = (test_ctx){.refuse_at = 2};
  r = run_ctx(&o, &t);
  cr_assert_eq(r.status, GB_SPAWN_BAD_OUTPUT);
  cr_assert_eq(r.launches, 2);
  cr_assert_eq(t.checks, 2);
  cr_assert_str_eq(r.message, "launch 2 of 3: bad output: refused by the test");
  cr_assert_str_eq(gbi_spawn_status_name(r.status), "bad_output");
  gb_spawn_result_free(&r);
}

Test(spawn_batch, wrong_startup_output_is_bad_output) {
  char *argv[] = {WORKER("two_lines.sh"), NULL};
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  o.launches = 2;
  o.check = check_startup_line;
  gb_spawn_result r = run_opts(&o);
  cr_assert_eq(r.status, GB_SPAWN_BAD_OUTPUT);
  cr_assert_eq(r.launches, 1);
  cr_assert(strstr(r.message, "launch 1 of 2: bad output: worker output: more than one line"),
            "%s", r.message);
  gb_spawn_result_free(&r);
}

/* Privilege: sudo's variables. */

Test(spawn_privilege, ordinary_user_keeps_its_identity) {
  gb_privilege p;
  gb_err err;
  cr_assert_eq(gbi_privilege_from_sudo("1000", "1000", 1000, &p, &err), 0);
  cr_assert_not(gb_privilege_drops(&p));
  cr_assert_eq(gbi_privilege_from_sudo("garbage", NULL, 1000, &p, &err), 0,
               "not root: the variables do not matter");
  cr_assert_not(gb_privilege_drops(&p));
}

Test(spawn_privilege, root_without_sudo_keeps_root) {
  gb_privilege p;
  gb_err err;
  cr_assert_eq(gbi_privilege_from_sudo(NULL, NULL, 0, &p, &err), 0);
  cr_assert_not(gb_privilege_drops(&p));
  cr_assert_eq(gbi_privilege_from_sudo("0", "0", 0, &p, &err), 0, "root ran sudo");
  cr_assert_not(gb_privilege_drops(&p));
}

Test(spawn_privilege, root_through_sudo_drops_to_the_user) {
  gb_privilege p;
  gb_err err;
  cr_assert_eq(gbi_privilege_from_sudo("65534", "1234", 0, &p, &err), 0, "%s", err.msg);
  cr_assert(gb_privilege_drops(&p));
  cr_assert_eq(p.uid, 65534);
  cr_assert_eq(p.gid, 1234);
  bool has_gid = false;
  for (size_t i = 0; i < p.ngroups; i++)
    has_gid |= p.groups[i] == 1234;
  cr_assert(has_gid, "the primary group is among the groups");
  /* A uid without a user database entry keeps just its gid. */
  cr_assert_eq(gbi_privilege_from_sudo("3999999", "3999998", 0, &p, &err), 0, "%s", err.msg);
  cr_assert_eq(p.ngroups, 1);
  cr_assert_eq(p.groups[0], 3999998);
}

Test(spawn_privilege, malformed_variables_are_named) {
  static const char *const bad[] = {"",   "abc", "-1",   " 1000",      "1000 ",
                                    "+5", "1e3", "0x10", "4294967295", "99999999999999999999"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    gb_privilege p = {.uid = 42};
    gb_err err;
    cr_assert_eq(gbi_privilege_from_sudo(bad[i], "1000", 0, &p, &err), -EINVAL, "'%s'", bad[i]);
    cr_assert(strstr(err.msg, "SUDO_UID must be a decimal id"), "%s", err.msg);
    cr_assert_eq(p.uid, 42, "out-param untouched on error");
    cr_assert_eq(gbi_privilege_from_sudo("1000", bad[i], 0, &p, &err), -EINVAL, "'%s'", bad[i]);
    cr_assert(strstr(err.msg, "SUDO_GID must be a decimal id"), "%s", err.msg);
  }
}

Test(spawn_privilege, long_malformed_value_is_cut_in_the_message) {
  char big[300];
  memset(big, 'z', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  gb_privilege p;
  gb_err err;
  cr_assert_eq(gbi_privilege_from_sudo("1000", big, 0, &p, &err), -EINVAL);
  cr_assert(strstr(err.msg, "...'") || strstr(err.msg, "'..."), "%s", err.msg);
  cr_assert_lt(strlen(err.msg), 120);
}

Test(spawn_privilege, one_variable_without_the_other) {
  gb_privilege p;
  gb_err err;
  cr_assert_eq(gbi_privilege_from_sudo("1000", NULL, 0, &p, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "SUDO_UID is set but SUDO_GID is not");
  cr_assert_eq(gbi_privilege_from_sudo(NULL, "1000", 0, &p, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "SUDO_GID is set but SUDO_UID is not");
}

Test(spawn_privilege, for_user_refuses_root_and_minus_one) {
  gb_privilege p;
  gb_err err;
  cr_assert_eq(gbi_privilege_for_user(0, 0, &p, &err), -EINVAL);
  cr_assert_eq(gbi_privilege_for_user((uid_t)-1, 5, &p, &err), -EINVAL);
  cr_assert_eq(gbi_privilege_for_user(5, (gid_t)-1, &p, &err), -EINVAL);
}

/* Privilege: really dropping, which needs root. */

static gb_privilege nobody(void) {
  gb_privilege p;
  gb_err err;
  cr_assert_eq(gbi_privilege_for_user(65534, 65534, &p, &err), 0, "%s", err.msg);
  return p;
}

static void skip_unless_root(void) {
  if (geteuid() != 0)
    cr_skip_test("needs root to change identities");
}

static gb_spawn_result run_as(const gb_privilege *p, char *const *argv) {
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  o.run_as = p;
  o.timeout_ns = 5000 * MS;
  return run_opts(&o);
}

Test(spawn_privilege, worker_runs_as_the_dropped_user) {
  skip_unless_root();
  gb_privilege p = nobody();
  static const struct {
    const char *flag, *want;
  } cases[] = {{"-u", "65534\n"}, {"-g", "65534\n"}, {"-G", "65534\n"}, {"-ru", "65534\n"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *argv[] = {"/usr/bin/id", (char *)cases[i].flag, NULL};
    gb_spawn_result r = run_as(&p, argv);
    cr_assert_eq(r.status, GB_SPAWN_OK, "%s", r.message);
    cr_assert_str_eq(r.out, cases[i].want, "id %s", cases[i].flag);
    gb_spawn_result_free(&r);
  }
  char *argv[] = {"/usr/bin/id", "-u", NULL};
  gb_spawn_result r = run_as(NULL, argv);
  cr_assert_str_eq(r.out, "0\n", "without a drop the worker keeps root");
  gb_spawn_result_free(&r);
}

Test(spawn_privilege, dropped_worker_cannot_run_what_only_root_can_read) {
  skip_unless_root();
  char dir[] = "/tmp/gb_spawn_priv_XXXXXX";
  cr_assert_not_null(mkdtemp(dir)); /* mode 0700, owned by root */
  char path[sizeof dir + 16];
  snprintf(path, sizeof path, "%s/true", dir);
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f);
  fputs("#!/bin/sh\nexit 0\n", f);
  fclose(f);
  chmod(path, 0755);
  gb_privilege p = nobody();
  char *argv[] = {path, NULL};
  gb_spawn_result r = run_as(&p, argv);
  unlink(path);
  rmdir(dir);
  cr_assert_eq(r.status, GB_SPAWN_SPAWN_FAILED, "%s", r.message);
  cr_assert_eq(r.error, EACCES);
  cr_assert(strstr(r.message, "Permission denied (EACCES)"), "%s", r.message);
  gb_spawn_result_free(&r);
}

Test(spawn_privilege, failed_drop_is_spawn_failed) {
  skip_unless_root();
  gb_privilege other;
  gb_err err;
  cr_assert_eq(gbi_privilege_for_user(65533, 65533, &other, &err), 0, "%s", err.msg);
  /* This test's own process gives up root, so the child cannot switch. */
  cr_assert_eq(setresgid(65534, 65534, 65534), 0);
  cr_assert_eq(setresuid(65534, 65534, 65534), 0);
  char *argv[] = {"/bin/true", NULL};
  gb_spawn_result r = run_as(&other, argv);
  cr_assert_eq(r.status, GB_SPAWN_SPAWN_FAILED, "%s", r.message);
  cr_assert_eq(r.error, EPERM);
  cr_assert_str_eq(r.message, "cannot drop privileges to uid 65533 gid 65533: Operation not "
                              "permitted (EPERM)");
  gb_spawn_result_free(&r);
}

Test(spawn_privilege, chown_gives_files_to_the_user) {
  skip_unless_root();
  char path[] = "/tmp/gb_spawn_chown_XXXXXX";
  int fd = mkstemp(path);
  cr_assert_geq(fd, 0);
  close(fd);
  gb_privilege keep, p = nobody();
  gbi_privilege_keep(&keep);
  gb_err err;
  struct stat st;
  cr_assert_eq(gb_privilege_chown_path(&keep, path, &err), 0);
  cr_assert_eq(stat(path, &st), 0);
  cr_assert_eq(st.st_uid, 0, "keep changes nothing");
  cr_assert_eq(gb_privilege_chown_path(&p, path, &err), 0, "%s", err.msg);
  cr_assert_eq(stat(path, &st), 0);
  cr_assert_eq(st.st_uid, 65534);
  cr_assert_eq(st.st_gid, 65534);
  unlink(path);
  cr_assert_eq(gb_privilege_chown_path(&p, path, &err), -ENOENT);
  cr_assert(strstr(err.msg, path), "%s", err.msg);
}

Test(spawn_privilege, chown_does_not_follow_symlinks) {
  skip_unless_root();
  char target[] = "/tmp/gb_spawn_target_XXXXXX";
  int fd = mkstemp(target);
  cr_assert_geq(fd, 0);
  close(fd);
  char link[sizeof target + 8];
  snprintf(link, sizeof link, "%s.link", target);
  cr_assert_eq(symlink(target, link), 0);
  gb_privilege p = nobody();
  gb_err err;
  cr_assert_eq(gb_privilege_chown_path(&p, link, &err), 0, "%s", err.msg);
  struct stat st, lst;
  cr_assert_eq(stat(target, &st), 0);
  cr_assert_eq(lstat(link, &lst), 0);
  unlink(link);
  unlink(target);
  cr_assert_eq(st.st_uid, 0, "the link's target keeps its owner");
  cr_assert_eq(lst.st_uid, 65534);
}

/* Under sudo files are opened as the user (gb_privilege_fs_enter): a
 * root-only file cannot be read, one root's group may read neither (the
 * supplementary groups are the user's), and root's identity comes back. */
Test(spawn_privilege, files_are_opened_as_the_user_between_enter_and_leave) {
  skip_unless_root();
  char dir[] = "/tmp/gb_fs_priv_XXXXXX", own[64], group[64];
  cr_assert_not_null(mkdtemp(dir));
  cr_assert_eq(chmod(dir, 0755), 0);
  snprintf(own, sizeof own, "%s/root-only", dir);
  snprintf(group, sizeof group, "%s/root-group", dir);
  FILE *f = fopen(own, "w");
  cr_assert_not_null(f);
  fclose(f);
  cr_assert_eq(chmod(own, 0600), 0);
  f = fopen(group, "w");
  cr_assert_not_null(f);
  fclose(f);
  cr_assert_eq(chmod(group, 0640), 0);
  gb_privilege p = nobody();
  gb_privilege_fs saved;
  cr_assert_eq(gb_privilege_fs_enter(&p, &saved), 0);
  int a = open(own, O_RDONLY), ea = errno;
  int b = open(group, O_RDONLY), eb = errno;
  int c = open(dir, O_RDONLY | O_DIRECTORY);
  gb_privilege_fs_leave(&saved);
  gb_privilege_fs_leave(&saved); /* a second leave changes nothing */
  int d = open(own, O_RDONLY);
  cr_assert_eq(a, -1);
  cr_assert_eq(ea, EACCES);
  cr_assert_eq(b, -1, "root's group is not the user's");
  cr_assert_eq(eb, EACCES);
  cr_assert_geq(c, 0, "what the user may open opens");
  cr_assert_geq(d, 0, "root's identity is back");
  close(c);
  close(d);
  cr_assert_eq(geteuid(), 0);
  unlink(own);
  unlink(group);
  rmdir(dir);
}
