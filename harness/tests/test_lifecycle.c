/* The greenbench command's life against its workers' (issue 12): a harness
 * killed with SIGKILL leaves no worker behind, SIGHUP stops a campaign like
 * SIGTERM, a Ctrl-C stops a hanging worker at once, and a second one exits
 * at once. These run the built command as a child process. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "greenbench/clock.h"
#include "greenbench/numparse.h"
#include "greenbench/records_read.h"

/* From a signal to the command's exit. The kill of the worker is immediate;
 * the rest is writing meta.json (fsync) and tearing down, which a loaded
 * 2-CPU machine or a sanitizer build can stretch well past the 100 ms it
 * takes here, so the bound is generous and still far below the 39.5 s (the
 * worker's timeout plus an idle window) this used to take. */
#define EXIT_BOUND_NS 2000000000ull

typedef struct {
  char dir[96];  /* the temporary folder */
  char out[128]; /* the records folder in it */
  char stderr_path[128];
  pid_t pid;
} command;

/* Picks the command's folders, before it starts. */
static void prepare(command *c) {
  char base[] = "/tmp/gb-lifecycle-XXXXXX";
  cr_assert_not_null(mkdtemp(base));
  snprintf(c->dir, sizeof c->dir, "%s", base);
  snprintf(c->out, sizeof c->out, "%s/records", base);
  snprintf(c->stderr_path, sizeof c->stderr_path, "%s/stderr", base);
}

static void start(command *c, const char *const *args) {
  char *argv[48];
  size_t n = 0;
  argv[n++] = GB_GREENBENCH_PATH;
  argv[n++] = "run";
  for (size_t i = 0; args[i]; i++)
    argv[n++] = (char *)args[i];
  argv[n++] = "--out";
  argv[n++] = c->out;
  argv[n++] = "--quiet";
  argv[n] = NULL;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, c->stderr_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  extern char **environ;
  cr_assert_eq(posix_spawn(&c->pid, argv[0], &fa, NULL, argv, environ), 0);
  posix_spawn_file_actions_destroy(&fa);
}

/* Waits up to ns for the command to exit; its wait status, or -1. */
static int wait_exit(const command *c, uint64_t ns) {
  uint64_t end = gb_monotonic_raw_ns() + ns;
  int st;
  do {
    if (waitpid(c->pid, &st, WNOHANG) == c->pid)
      return st;
    usleep(5000);
  } while (gb_monotonic_raw_ns() < end);
  return -1;
}

static long lines_in(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f)
    return -1;
  long n = 0;
  for (int ch; (ch = fgetc(f)) != EOF;)
    n += ch == '\n';
  fclose(f);
  return n;
}

/* Waits up to ns for runs.csv to hold at least want lines (the header
 * included). */
static bool wait_lines(const command *c, long want, uint64_t ns) {
  char path[160];
  snprintf(path, sizeof path, "%s/runs.csv", c->out);
  uint64_t end = gb_monotonic_raw_ns() + ns;
  while (gb_monotonic_raw_ns() < end) {
    if (lines_in(path) >= want)
      return true;
    usleep(10000);
  }
  return false;
}

static void read_file(const char *path, char *buf, size_t len) {
  FILE *f = fopen(path, "r");
  cr_assert_not_null(f, "%s", path);
  size_t n = fread(buf, 1, len - 1, f);
  buf[n] = '\0';
  fclose(f);
}

/* A live (not zombie) sorting worker (not a --startup-only probe) whose
 * command line holds "--seed\0SEED\0". */
static pid_t find_worker(const char *seed, pid_t harness) {
  DIR *d = opendir("/proc");
  cr_assert_not_null(d);
  pid_t found = 0;
  char want[64];
  int want_len = snprintf(want, sizeof want, "--seed%c%s", '\0', seed) + 1;
  for (struct dirent *e; !found && (e = readdir(d));) {
    char path[300], buf[4096], stat[512];
    uint64_t pid;
    if (gb_parse_u64(e->d_name, 1, INT32_MAX, &pid) < 0 || pid == (uint64_t)harness)
      continue;
    snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
    FILE *f = fopen(path, "r");
    if (!f)
      continue;
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    bool match = false;
    for (size_t i = 0; !match && i + (size_t)want_len <= n; i++)
      match = memcmp(buf + i, want, (size_t)want_len) == 0;
    for (size_t i = 0; match && i + sizeof "--startup-only" <= n; i++)
      match = memcmp(buf + i, "--startup-only", sizeof "--startup-only") != 0;
    snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
    if (!match || !(f = fopen(path, "r")))
      continue;
    n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = '\0';
    const char *paren = strrchr(stat, ')');
    if (paren && paren[1] == ' ' && paren[2] != 'Z')
      found = (pid_t)pid;
  }
  closedir(d);
  return found;
}

/* A wrapper used as --python: the real interpreter until runs.csv holds
 * `rows` rows, then a command that never ends (rows -1: from the start),
 * which first creates DIR/hanging (wait_hanging). Workers get a fixed
 * environment, so the folders are written into it. */
static void write_hanging_python(const command *c, const char *path, int rows) {
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f);
  fprintf(f, "#!/bin/sh\n");
  if (rows >= 0)
    fprintf(f,
            "if ! [ -f '%s/runs.csv' ] || [ \"$(wc -l < '%s/runs.csv')\" -le %d ]; then\n"
            "  exec /usr/bin/python3 \"$@\"\nfi\n",
            c->out, c->out, rows);
  fprintf(f, ": > '%s/hanging'\nexec sleep 60\n", c->dir);
  cr_assert_eq(fclose(f), 0);
  cr_assert_eq(chmod(path, 0755), 0);
}

/* Waits up to ns for write_hanging_python's wrapper to hang: a signal sent
 * after a fixed sleep instead could reach a harness still starting up (a
 * sanitizer build on a loaded machine) and test something else. */
static bool wait_hanging(const command *c, uint64_t ns) {
  char path[160];
  snprintf(path, sizeof path, "%s/hanging", c->dir);
  uint64_t end = gb_monotonic_raw_ns() + ns;
  while (gb_monotonic_raw_ns() < end) {
    if (access(path, F_OK) == 0)
      return true;
    usleep(10000);
  }
  return false;
}

/* A wrapper used as --python: the real interpreter for the runtime probe
 * (--startup-only), and for the warm-up a shell that spins for ever with the
 * worker's arguments (so its command line names the campaign's seed). */
static void write_spinning_python(const char *path) {
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f);
  fprintf(f, "#!/bin/sh\n"
             "case \"$*\" in *--startup-only*) exec /usr/bin/python3 \"$@\" ;; esac\n"
             "exec /bin/sh -c 'while :; do :; done' gb-spin \"$@\"\n");
  cr_assert_eq(fclose(f), 0);
  cr_assert_eq(chmod(path, 0755), 0);
}

Test(lifecycle, a_killed_harness_leaves_no_worker) {
  char seed[32], python[160];
  snprintf(seed, sizeof seed, "%u", 100000u + (unsigned)getpid());
  snprintf(python, sizeof python, "/tmp/gb-lifecycle-spin-%d.sh", (int)getpid());
  write_spinning_python(python);
  const char *args[] = {"--languages", "python", "--algorithms", "quick", "--orders",  "random",
                        "--sizes",     "50",     "--runs",       "1",     "--warmups", "1",
                        "--target-ms", "1",      "--energy",     "off",   "--seed",    seed,
                        "--python",    python,   "--timeout-s",  "600",   NULL};
  command c;
  prepare(&c);
  start(&c, args);
  pid_t worker = 0;
  uint64_t end = gb_monotonic_raw_ns() + 20000000000ull;
  while (!(worker = find_worker(seed, c.pid)) && gb_monotonic_raw_ns() < end)
    usleep(20000);
  cr_assert_gt(worker, 0, "no worker with --seed %s appeared", seed);
  kill(c.pid, SIGKILL);
  cr_assert_neq(wait_exit(&c, 5000000000ull), -1);
  sleep(1);
  pid_t left = find_worker(seed, 0);
  if (left)
    kill(left, SIGKILL); /* do not leave it spinning beside the other tests */
  unlink(python);
  cr_assert_eq(left, 0, "worker %d outlived the killed harness", (int)left);
}

Test(lifecycle, sighup_stops_like_sigterm) {
  const char *args[] = {"--languages", "c",  "--algorithms", "quick", "--orders",  "random",
                        "--sizes",     "50", "--runs",       "400",   "--warmups", "1",
                        "--target-ms", "1",  "--energy",     "off",   NULL};
  command c;
  prepare(&c);
  start(&c, args);
  cr_assert(wait_lines(&c, 4, 30000000000ull), "no measured run was recorded");
  kill(c.pid, SIGHUP);
  int st = wait_exit(&c, 10000000000ull);
  cr_assert_neq(st, -1, "SIGHUP did not stop the harness");
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 130, "wait status 0x%x", st);
  char err[4096];
  read_file(c.stderr_path, err, sizeof err);
  cr_assert(strstr(err, "greenbench: interrupted after "), "%s", err);
  cr_assert(strstr(err, "continue with greenbench run --resume"), "%s", err);
  gb_records *r;
  gb_err e;
  cr_assert_eq(gb_records_read(c.out, &r, &e), 0, "%s", e.msg);
  cr_assert_not(r->meta.completed);
  cr_assert_geq(r->runs.n_rows, 3);
  cr_assert_eq(r->meta.runs_done, r->runs.n_rows, "meta.json says how far runs.csv goes");
  gb_records_free(r);
}

Test(lifecycle, a_ctrl_c_stops_a_hanging_worker_at_once) {
  char python[160];
  snprintf(python, sizeof python, "/tmp/gb-lifecycle-python-%d.sh", (int)getpid());
  const char *args[] = {"--languages", "python",      "--algorithms", "quick",    "--orders",
                        "random",      "--sizes",     "50",           "--runs",   "3",
                        "--warmups",   "1",           "--target-ms",  "1",        "--energy",
                        "off",         "--timeout-s", "60",           "--python", python,
                        NULL};
  command c;
  prepare(&c);
  write_hanging_python(&c, python, 1); /* measured run 1 hangs */
  start(&c, args);
  cr_assert(wait_hanging(&c, 60000000000ull), "the second measured run did not start");
  uint64_t t0 = gb_monotonic_raw_ns();
  kill(c.pid, SIGINT);
  int st = wait_exit(&c, 10000000000ull);
  uint64_t took = gb_monotonic_raw_ns() - t0;
  unlink(python);
  cr_assert_neq(st, -1, "SIGINT did not stop the harness");
  cr_assert_lt(took, EXIT_BOUND_NS, "it took %.2f s", (double)took / 1e9);
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 130, "wait status 0x%x", st);
  gb_records *r;
  gb_err e;
  cr_assert_eq(gb_records_read(c.out, &r, &e), 0, "%s", e.msg);
  cr_assert_eq(r->runs.n_rows, 1, "the finished run is kept, the cut one is not");
  cr_assert_eq(r->runs.rows[0].status, GB_REC_STATUS_OK);
  cr_assert_eq(r->meta.runs_done, 1);
  cr_assert_not(r->meta.completed);
  gb_records_free(r);
}

Test(lifecycle, a_second_ctrl_c_exits_at_once) {
  /* The runtimes' probe does not watch the stop flag (one short launch per
   * language), so a probe that hangs keeps the first Ctrl-C waiting. */
  char python[160];
  snprintf(python, sizeof python, "/tmp/gb-lifecycle-hang-%d.sh", (int)getpid());
  const char *args[] = {"--languages", "python",   "--energy", "off", "--timeout-s",
                        "60",          "--python", python,     NULL};
  command c;
  prepare(&c);
  write_hanging_python(&c, python, -1);
  start(&c, args);
  cr_assert(wait_hanging(&c, 60000000000ull), "the runtime probe did not start");
  kill(c.pid, SIGINT);
  cr_assert_eq(wait_exit(&c, 300000000ull), -1, "the first Ctrl-C is a request to stop");
  uint64_t t0 = gb_monotonic_raw_ns();
  kill(c.pid, SIGINT);
  int st = wait_exit(&c, 10000000000ull);
  uint64_t took = gb_monotonic_raw_ns() - t0;
  unlink(python);
  cr_assert_neq(st, -1, "a second SIGINT did not stop the harness");
  cr_assert_lt(took, EXIT_BOUND_NS, "it took %.2f s", (double)took / 1e9);
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 130, "wait status 0x%x", st);
  char err[4096];
  read_file(c.stderr_path, err, sizeof err);
  cr_assert(strstr(err, "stopped at once"), "%s", err);
}
