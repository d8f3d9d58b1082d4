/* Records stay safe (issue 12): a root harness under sudo never follows a
 * link its user planted in the records folder, one folder has one writer,
 * 64-bit seeds survive meta.json, a refused resume changes nothing, and a
 * kill -9 leaves records that resume (or a message saying what to do).
 * These run the built command as a child process; meta.json's checkpoints
 * are watched in process, on scripted workers. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "greenbench/campaign.h"
#include "greenbench/clock.h"
#include "greenbench/numparse.h"
#include "greenbench/records_read.h"
#include "helper_script.h"

#define TEST_USER "gb-test-user"
#define SECRET "root only: never to be read or written by greenbench\n"

typedef struct {
  char base[64];  /* the temporary folder */
  char out[128];  /* the records folder in it */
  char err[160];  /* the command's stderr */
  char root[128]; /* a root-only folder (0700) */
  char secret[160];
  uid_t uid; /* the sudo user, or (uid_t)-1 */
  gid_t gid;
} fixture;

/* Whether uid:gid may execute the C worker, asked by a child that becomes
 * that user: a sudo campaign's workers run with the user's identity. */
static bool user_can_run_worker(uid_t uid, gid_t gid) {
  pid_t pid = fork();
  cr_assert_geq(pid, 0);
  if (pid == 0) {
    if (setgroups(0, NULL) < 0 || setgid(gid) < 0 || setuid(uid) < 0)
      _exit(2);
    _exit(access(GB_WORKER_C_PATH, X_OK) == 0 ? 0 : 1);
  }
  int st;
  cr_assert_eq(waitpid(pid, &st, 0), pid);
  return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void setup(fixture *f, bool sudo) {
  snprintf(f->base, sizeof f->base, "/tmp/gb-safety-XXXXXX");
  cr_assert_not_null(mkdtemp(f->base));
  chmod(f->base, 0755);
  snprintf(f->out, sizeof f->out, "%s/records", f->base);
  snprintf(f->err, sizeof f->err, "%s/stderr", f->base);
  snprintf(f->root, sizeof f->root, "%s/root-only", f->base);
  snprintf(f->secret, sizeof f->secret, "%s/secret", f->root);
  cr_assert_eq(mkdir(f->root, 0700), 0);
  FILE *s = fopen(f->secret, "w");
  cr_assert_not_null(s);
  fputs(SECRET, s);
  fclose(s);
  chmod(f->secret, 0600);
  f->uid = (uid_t)-1;
  f->gid = (gid_t)-1;
  if (!sudo)
    return;
  if (geteuid() != 0)
    cr_skip_test("needs root: runs greenbench as sudo does, for the user " TEST_USER);
  struct passwd *pw = getpwnam(TEST_USER);
  if (!pw && system("useradd --system --no-create-home --shell /usr/sbin/nologin " TEST_USER
                    " >/dev/null 2>&1") == 0)
    pw = getpwnam(TEST_USER);
  if (!pw)
    cr_skip_test("cannot create the unprivileged user " TEST_USER " (useradd failed)");
  f->uid = pw->pw_uid;
  f->gid = pw->pw_gid;
  /* The records folder is the user's to make: under sudo the harness opens
   * it as the user (docs/security.md). root-only stays root's. */
  cr_assert_eq(chown(f->base, f->uid, f->gid), 0);
  if (!user_can_run_worker(f->uid, f->gid))
    cr_skip_test("the user " TEST_USER " cannot execute " GB_WORKER_C_PATH
                 " (a folder above it is closed to others), and a sudo campaign runs its "
                 "workers as that user: build in a folder others may enter to run this test");
}

/* Starts `greenbench run ARGS... --quiet`, stderr to f->err; as sudo would
 * (SUDO_UID, SUDO_GID) when the fixture has a user. */
static pid_t start(const fixture *f, const char *const *args) {
  char *argv[64], uid[32], gid[32];
  size_t n = 0;
  argv[n++] = GB_GREENBENCH_PATH;
  argv[n++] = "run";
  for (size_t i = 0; args[i]; i++)
    argv[n++] = (char *)args[i];
  argv[n++] = "--quiet";
  argv[n] = NULL;
  char *envp[512];
  size_t e = 0;
  extern char **environ;
  for (char **v = environ; *v && e < 500; v++)
    if (strncmp(*v, "SUDO_", 5))
      envp[e++] = *v;
  if (f->uid != (uid_t)-1) {
    snprintf(uid, sizeof uid, "SUDO_UID=%u", (unsigned)f->uid);
    snprintf(gid, sizeof gid, "SUDO_GID=%u", (unsigned)f->gid);
    envp[e++] = uid;
    envp[e++] = gid;
    envp[e++] = "SUDO_USER=" TEST_USER;
  }
  envp[e] = NULL;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, f->err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid;
  cr_assert_eq(posix_spawn(&pid, argv[0], &fa, NULL, argv, envp), 0);
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

/* The exit status of pid within ns, or -1 (it is then killed). */
static int finish(pid_t pid, uint64_t ns) {
  uint64_t end = gb_monotonic_raw_ns() + ns;
  int st;
  do {
    if (waitpid(pid, &st, WNOHANG) == pid)
      return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    usleep(5000);
  } while (gb_monotonic_raw_ns() < end);
  kill(pid, SIGKILL);
  waitpid(pid, &st, 0);
  return -1;
}

static size_t file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (size_t)st.st_size : 0;
}

static char *slurp(const char *path) {
  static char buf[4][1 << 17];
  static int next;
  char *b = buf[next++ % 4];
  b[0] = '\0';
  FILE *f = fopen(path, "r");
  if (f) {
    b[fread(b, 1, sizeof buf[0] - 1, f)] = '\0';
    fclose(f);
  }
  return b;
}

static long rows_of(const fixture *f) {
  char path[200];
  snprintf(path, sizeof path, "%s/runs.csv", f->out);
  long lines = 0;
  for (const char *p = slurp(path); *p; p++)
    lines += *p == '\n';
  return lines > 0 ? lines - 1 : 0;
}

/* Waits for runs.csv to hold `rows` rows while pid runs; false if it ended. */
static bool wait_rows(const fixture *f, pid_t pid, long rows) {
  uint64_t end = gb_monotonic_raw_ns() + 60000000000ull;
  while (gb_monotonic_raw_ns() < end) {
    if (rows_of(f) >= rows)
      return true;
    if (waitpid(pid, NULL, WNOHANG) == pid)
      return false;
    usleep(2000);
  }
  return false;
}

/* The command's stderr has exactly one error line, holding want. */
static void assert_error(const fixture *f, const char *want) {
  const char *text = slurp(f->err), *line = strstr(text, "greenbench: error: ");
  cr_assert_not_null(line, "no error line in: %s", text);
  cr_assert_null(strstr(line + 1, "greenbench: error: "), "two errors: %s", text);
  cr_assert_eq(strchr(line, '\n'), line + strlen(line) - 1, "one line: %s", text);
  cr_assert(strstr(line, want), "'%s' not in: %s", want, line);
  cr_assert_null(strstr(text, "root only"), "a root-only file was echoed: %s", text);
}

static void assert_secret_untouched(const fixture *f) {
  cr_assert_str_eq(slurp(f->secret), SECRET, "the root-only file was changed");
  struct stat st;
  cr_assert_eq(stat(f->secret, &st), 0);
  cr_assert_eq(st.st_uid, 0, "the root-only file was given away");
  cr_assert_eq(st.st_mode & 07777, 0600);
}

/* Runs what(path_a, path_b) as the fixture's user, as a planting user would. */
static void as_user(const fixture *f, int (*what)(const char *, const char *), const char *a,
                    const char *b) {
  pid_t pid = fork();
  cr_assert_neq(pid, -1);
  if (pid == 0) {
    if (setgroups(0, NULL) || setresgid(f->gid, f->gid, f->gid) ||
        setresuid(f->uid, f->uid, f->uid))
      _exit(3);
    _exit(what(a, b) == 0 ? 0 : 4);
  }
  int st;
  waitpid(pid, &st, 0);
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s -> %s failed as the user", a, b);
}

static int plant_link(const char *target, const char *link) {
  unlink(link);
  return symlink(target, link);
}

static const char *smoke[] = {"--languages", "c",       "--algorithms", "quick",     "--orders",
                              "random",      "--sizes", "50",           "--warmups", "1",
                              "--target-ms", "5",       "--energy",     "off",       NULL};

/* smoke, then --runs runs, then extra (NULL-terminated), then --out. */
static pid_t start_smoke(const fixture *f, const char *runs, const char *const *extra,
                         const char *mode) {
  const char *args[48];
  size_t n = 0;
  for (size_t i = 0; smoke[i]; i++)
    args[n++] = smoke[i];
  args[n++] = "--runs";
  args[n++] = runs;
  for (size_t i = 0; extra && extra[i]; i++)
    args[n++] = extra[i];
  args[n++] = mode;
  args[n++] = f->out;
  args[n] = NULL;
  return start(f, args);
}

static pid_t start_resume(const fixture *f) {
  const char *args[] = {"--resume", f->out, NULL};
  return start(f, args);
}

/* A campaign killed with SIGKILL after `rows` rows. */
static void killed_campaign(const fixture *f, long rows, const char *const *extra) {
  pid_t pid = start_smoke(f, "60", extra, "--out");
  cr_assert(wait_rows(f, pid, rows), "the campaign ended before %ld rows: %s", rows,
            slurp(f->err));
  kill(pid, SIGKILL);
  waitpid(pid, NULL, 0);
}

static char *path_in(const fixture *f, const char *name) {
  static char buf[4][256];
  static int next;
  char *b = buf[next++ % 4];
  snprintf(b, sizeof buf[0], "%s/%s", f->out, name);
  return b;
}

static void assert_complete(const fixture *f) {
  gb_records *r;
  gb_err err;
  cr_assert_eq(gb_records_read(f->out, &r, &err), 0, "%s", err.msg);
  cr_assert(r->meta.completed);
  cr_assert_eq(r->runs.n_rows, r->meta.plan.measured_runs);
  cr_assert_eq(r->meta.runs_done, r->runs.n_rows);
  for (size_t i = 0; i < r->runs.n_rows; i++)
    cr_assert_eq(r->runs.rows[i].run, i, "run ids are 0, 1, 2, ... with no repeat");
  gb_records_free(r);
}

/* ---- A root harness and its sudo user's links ----------------------------------- */

Test(records_safety, a_symlinked_out_folder_is_refused, .timeout = 120) {
  fixture f;
  setup(&f, true);
  char user_dir[96];
  snprintf(user_dir, sizeof user_dir, "%s/user", f.base);
  cr_assert_eq(mkdir(user_dir, 0755), 0);
  cr_assert_eq(chown(user_dir, f.uid, f.gid), 0);
  snprintf(f.out, sizeof f.out, "%s/out", user_dir);
  as_user(&f, plant_link, f.root, f.out);
  cr_assert_eq(finish(start_smoke(&f, "2", NULL, "--out"), 60000000000ull), 1, "%s",
               slurp(f.err));
  assert_error(&f, "/user/out is a symbolic link");
  cr_assert_eq(file_size(f.secret), strlen(SECRET));
  struct stat st;
  char inside[200];
  snprintf(inside, sizeof inside, "%s/runs.csv", f.root);
  cr_assert_neq(stat(inside, &st), 0, "records were written into the root-only folder");
  assert_secret_untouched(&f);
}

Test(records_safety, a_planted_meta_json_tmp_link_is_not_followed, .timeout = 120) {
  fixture f;
  setup(&f, true);
  pid_t pid = start_smoke(&f, "60", NULL, "--out");
  cr_assert(wait_rows(&f, pid, 2), "%s", slurp(f.err));
  as_user(&f, plant_link, f.secret, path_in(&f, "meta.json.tmp"));
  cr_assert_eq(finish(pid, 120000000000ull), 0, "%s", slurp(f.err));
  assert_secret_untouched(&f);
  struct stat st;
  cr_assert_eq(lstat(path_in(&f, "meta.json"), &st), 0);
  cr_assert(S_ISREG(st.st_mode), "meta.json is not a regular file");
  cr_assert_eq(st.st_uid, f.uid, "meta.json belongs to the sudo user");
  cr_assert_neq(lstat(path_in(&f, "meta.json.tmp"), &st), 0, "the planted link is gone");
  assert_complete(&f);
}

Test(records_safety, resume_refuses_a_runs_csv_link_and_changes_nothing, .timeout = 120) {
  fixture f;
  setup(&f, true);
  killed_campaign(&f, 2, NULL);
  char meta[1 << 17];
  snprintf(meta, sizeof meta, "%s", slurp(path_in(&f, "meta.json")));
  as_user(&f, plant_link, f.secret, path_in(&f, "runs.csv"));
  cr_assert_eq(finish(start_resume(&f), 60000000000ull), 1, "%s", slurp(f.err));
  assert_error(&f, "runs.csv is a symbolic link");
  assert_secret_untouched(&f);
  cr_assert_str_eq(slurp(path_in(&f, "meta.json")), meta, "the refused resume wrote meta.json");
}

Test(records_safety, resume_refuses_a_dangling_warmups_csv_link, .timeout = 120) {
  fixture f;
  setup(&f, true);
  killed_campaign(&f, 2, NULL);
  char meta[1 << 17], target[200];
  snprintf(meta, sizeof meta, "%s", slurp(path_in(&f, "meta.json")));
  snprintf(target, sizeof target, "%s/created-by-root", f.root);
  as_user(&f, plant_link, target, path_in(&f, "warmups.csv"));
  cr_assert_eq(finish(start_resume(&f), 60000000000ull), 1, "%s", slurp(f.err));
  assert_error(&f, "warmups.csv is a symbolic link");
  struct stat st;
  cr_assert_neq(lstat(target, &st), 0, "root created the link's target");
  cr_assert_str_eq(slurp(path_in(&f, "meta.json")), meta);
  assert_secret_untouched(&f);
}

/* ---- One writer per folder ------------------------------------------------------- */

Test(records_safety, a_second_writer_is_refused_at_once, .timeout = 180) {
  fixture f;
  setup(&f, false);
  killed_campaign(&f, 2, NULL);
  pid_t first = start_resume(&f);
  long before = rows_of(&f);
  cr_assert(wait_rows(&f, first, before + 2), "%s", slurp(f.err));
  fixture g = f;
  snprintf(g.err, sizeof g.err, "%s/stderr-second", f.base);
  uint64_t t0 = gb_monotonic_raw_ns();
  cr_assert_eq(finish(start_resume(&g), 20000000000ull), 1, "%s", slurp(g.err));
  cr_assert_lt(gb_monotonic_raw_ns() - t0, 10000000000ull, "refused at once");
  char want[64];
  snprintf(want, sizeof want, "is in use by another greenbench (pid %d)", (int)first);
  assert_error(&g, want);
  cr_assert_eq(finish(start_smoke(&g, "2", NULL, "--out"), 60000000000ull), 1);
  assert_error(&g, want);
  cr_assert_eq(finish(first, 120000000000ull), 0, "%s", slurp(f.err));
  assert_complete(&f); /* no run twice */
}

/* ---- 64-bit seeds, refused resumes --------------------------------------------- */

static void seed_survives(const char *seed) {
  fixture f;
  setup(&f, false);
  const char *extra[] = {"--order-seed", seed, NULL};
  killed_campaign(&f, 2, extra);
  char want[64];
  snprintf(want, sizeof want, "\"order_seed\":\t%s,", seed);
  cr_assert(strstr(slurp(path_in(&f, "meta.json")), want), "%s not in meta.json", want);
  cr_assert_eq(finish(start_resume(&f), 120000000000ull), 0, "%s", slurp(f.err));
  assert_complete(&f);
  gb_records *r;
  gb_err err;
  cr_assert_eq(gb_records_read(f.out, &r, &err), 0, "%s", err.msg);
  uint64_t want_seed;
  cr_assert_eq(gb_parse_u64(seed, 0, UINT64_MAX, &want_seed), 0, "%s", seed);
  cr_assert_eq(r->meta.settings.order_seed, want_seed);
  gb_records_free(r);
}

Test(records_safety, order_seed_0_survives_run_and_resume, .timeout = 180) {
  seed_survives("0");
}
Test(records_safety, order_seed_1_survives_run_and_resume, .timeout = 180) {
  seed_survives("1");
}
Test(records_safety, order_seed_2_53_plus_1_survives_run_and_resume, .timeout = 180) {
  seed_survives("9007199254740993");
}
Test(records_safety, order_seed_2_64_minus_1_survives_run_and_resume, .timeout = 180) {
  seed_survives("18446744073709551615");
}

Test(records_safety, a_refused_resume_changes_nothing, .timeout = 120) {
  fixture f;
  setup(&f, false);
  killed_campaign(&f, 2, NULL);
  char meta[1 << 17], runs[1 << 17];
  snprintf(meta, sizeof meta, "%s", slurp(path_in(&f, "meta.json")));
  FILE *cut = fopen(path_in(&f, "runs.csv"), "a");
  fputs("99,sort,c,qu", cut); /* a write cut short */
  fclose(cut);
  snprintf(runs, sizeof runs, "%s", slurp(path_in(&f, "runs.csv")));
  const char *args[] = {"--resume", f.out, "--runs", "7", NULL};
  cr_assert_eq(finish(start(&f, args), 60000000000ull), 1, "%s", slurp(f.err));
  assert_error(&f, "given on the command line differs from the records'");
  cr_assert_str_eq(slurp(path_in(&f, "meta.json")), meta, "meta.json was rewritten");
  cr_assert_str_eq(slurp(path_in(&f, "runs.csv")), runs, "runs.csv was cut");
}

/* ---- kill -9 ---------------------------------------------------------------------- */

Test(records_safety, a_kill_9_mid_run_resumes_to_whole_records, .timeout = 180) {
  fixture f;
  setup(&f, false);
  killed_campaign(&f, 3, NULL);
  gb_records *r;
  gb_err err;
  cr_assert_eq(gb_records_read(f.out, &r, &err), 0, "a killed campaign's records read: %s",
               err.msg);
  cr_assert_leq(r->meta.runs_done, r->runs.n_rows, "runs_done never claims more rows");
  cr_assert_not(r->meta.completed);
  gb_records_free(r);
  FILE *cut = fopen(path_in(&f, "runs.csv"), "a");
  fputs("41,sort,c,quick,rand", cut);
  fclose(cut);
  cr_assert_eq(finish(start_resume(&f), 120000000000ull), 0, "%s", slurp(f.err));
  cr_assert(strstr(slurp(f.err), "ended in a cut-short line; it was dropped"), "%s",
            slurp(f.err));
  assert_complete(&f);
}

/* A --python that runs the runtime probe and then sleeps in every warm-up. */
static void write_sleeping_python(const char *path) {
  FILE *w = fopen(path, "w");
  cr_assert_not_null(w);
  fprintf(w, "#!/bin/sh\n"
             "case \"$*\" in *--startup-only*) exec /usr/bin/python3 \"$@\" ;; esac\n"
             "exec sleep 20\n");
  cr_assert_eq(fclose(w), 0);
  cr_assert_eq(chmod(path, 0755), 0);
}

Test(records_safety, a_kill_9_during_calibration_says_what_to_do, .timeout = 120) {
  fixture f;
  setup(&f, false);
  char python[160];
  snprintf(python, sizeof python, "%s/python", f.base);
  write_sleeping_python(python);
  const char *args[] = {"--languages", "python",  "--algorithms", "quick",  "--orders",
                        "random",      "--sizes", "50",           "--runs", "2",
                        "--warmups",   "1",       "--energy",     "off",    "--python",
                        python,        "--out",   f.out,          NULL};
  pid_t pid = start(&f, args);
  uint64_t end = gb_monotonic_raw_ns() + 30000000000ull;
  while (file_size(path_in(&f, "environment.txt")) == 0 && gb_monotonic_raw_ns() < end)
    usleep(10000);
  usleep(300000); /* inside the sleeping warm-up */
  kill(pid, SIGKILL);
  waitpid(pid, NULL, 0);
  char meta[1 << 17];
  snprintf(meta, sizeof meta, "%s", slurp(path_in(&f, "meta.json")));
  cr_assert(meta[0], "meta.json was written before calibration");
  cr_assert_eq(finish(start_resume(&f), 60000000000ull), 1, "%s", slurp(f.err));
  char want[300];
  snprintf(want, sizeof want,
           "calibration did not finish, so no measured run was recorded: remove %s or run "
           "with a new --out",
           f.out);
  assert_error(&f, want);
  cr_assert_str_eq(slurp(path_in(&f, "meta.json")), meta);
  cr_assert_eq(finish(start(&f, args), 60000000000ull), 1);
  assert_error(&f, "is not empty");
}

/* ---- runs_done at checkpoints ------------------------------------------------------ */

/* At the start of call `call` (a measured run, the rows before it written),
 * reads meta.json's runs_done and stops the campaign. */
typedef struct {
  const fixture *f;
  unsigned call;
  volatile sig_atomic_t *stop;
  uint64_t seen;
} watcher;

static void watch(void *p, unsigned call, const script_call *c) {
  watcher *w = p;
  (void)c;
  if (call != w->call)
    return;
  gb_meta m;
  gb_err err;
  const char *text = slurp(path_in(w->f, "meta.json"));
  cr_assert_eq(gb_meta_parse(text, strlen(text), "meta.json", &m, &err), 0, "%s", err.msg);
  w->seen = m.runs_done;
  gb_meta_free(&m);
  *w->stop = 1;
}

/* C quicksort on random input, 40 runs, scripted: call 1 probes the
 * runtime, 2 and 3 are the warm-ups (1 and 2377 sorts), 4 the startup
 * warm-up; measured run i is call 5 + i. Measured run 4 starts with 4 rows
 * on disk: meta.json says 4 when it is rewritten after every row, and still
 * 0 (calibration's) when its checkpoint is 30 s away. */
static uint64_t runs_done_at_run_4(uint64_t checkpoint_ns) {
  fixture f;
  setup(&f, false);
  gb_settings s;
  gb_err err;
  cr_assert_eq(gb_settings_profile("smoke", &s, &err), 0);
  s.languages = 1u << GB_C;
  s.algorithms = 1u << GB_QUICK;
  s.orders = 1u << GB_RANDOM;
  s.sizes[0] = 50;
  s.nsizes = 1;
  s.runs = 40;
  s.warmups = 1;
  s.target_ms = 2;
  s.energy = GB_ENERGY_OFF;
  s.order_seed = 7;
  static const char *const command[] = {"greenbench", "run"};
  volatile sig_atomic_t stop = 0;
  const gb_workers workers = {GB_WORKER_C_PATH, GB_PYTHON_PATH, GB_PYTHON_WORKER_PATH,
                              GB_NODE_PATH, GB_NODE_WORKER_PATH};
  worker_script *script = script_create(&workers);
  watcher w = {&f, 5 + 4, &stop, UINT64_MAX};
  script_on_call(script, watch, &w);
  gb_campaign_opts o = {.settings = s,
                        .out_dir = f.out,
                        .workers = workers,
                        .spawner = script_spawner(script),
                        .topology_xml = GB_TEST_DATA_DIR "/topo-desktop-smt.xml",
                        .machine_root = GB_TEST_DATA_DIR "/sysfs-intel",
                        .argc = 2,
                        .argv = command,
                        .stop = &stop,
                        .progress = GB_PROGRESS_QUIET,
                        .checkpoint_ns = checkpoint_ns};
  gb_campaign_result res;
  cr_assert_eq(gb_campaign_run(&o, &res, &err), 0, "%s", err.msg);
  cr_assert(res.interrupted);
  cr_assert_eq(res.runs_done, 4u, "run 4 was cut short by the stop");
  cr_assert_eq(script_calls(script), 5u + 4u);
  cr_assert_eq(rows_of(&f), 4);
  script_destroy(script);
  return w.seen;
}

Test(records_safety, runs_done_is_kept_current_at_checkpoints) {
  cr_assert_eq(runs_done_at_run_4(1), 4u, "rewritten after every row");
  cr_assert_eq(runs_done_at_run_4(0), 0u, "the default checkpoint, 30 s, is not due yet");
}
