/* What the workers and the helper commands run with (issue 12): a fixed,
 * minimal environment whatever the harness's, the speed-changing variables
 * of the harness's environment recorded in meta.json, and git never running
 * the checkout's config programs as root. */
#include <criterion/criterion.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign_internal.h"
#include "greenbench/campaign.h"
#include "greenbench/records_read.h"
#include "greenbench/workerenv.h"
#include "harness_internal.h"

#define TEST_USER "gbtestuser"

Test(workerenv, names_the_variables_that_change_speed) {
  const char *yes[] = {"PYTHONMALLOC=debug",   "NODE_OPTIONS=--jitless", "LD_PRELOAD=x.so",
                       "MALLOC_ARENA_MAX=1",   "GLIBC_TUNABLES=a",       "V8_FLAGS",
                       "UV_THREADPOOL_SIZE=1", "OMP_NUM_THREADS=1",      "PYTHONPATH=/x"};
  const char *no[] = {"HOME=/root", "PATH=/bin", "GLIBC_TUNABLESX=1", "NODE=1", "LANG=C"};
  for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
    cr_assert(gb_workerenv_affects_speed(yes[i]), "%s", yes[i]);
  for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
    cr_assert_not(gb_workerenv_affects_speed(no[i]), "%s", no[i]);
}

Test(workerenv, is_the_documented_minimal_set) {
  gb_workerenv e;
  gb_privilege keep;
  gbi_privilege_keep(&keep);
  cr_assert_eq(gb_workerenv_build(&keep, &e, NULL), 0);
  struct passwd *pw = getpwuid(geteuid());
  char home[1100];
  snprintf(home, sizeof home, "HOME=%s", pw ? pw->pw_dir : "/");
  const char *want[] = {"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C", "LC_ALL=C", home};
  for (size_t i = 0; i < 4; i++)
    cr_assert_str_eq(e.envp[i], want[i]);
  cr_assert_null(e.envp[4]);
}

/* A campaign whose C worker is a wrapper that saves its environment, with
 * PYTHONMALLOC and NODE_OPTIONS set in the harness's. */
Test(workerenv, workers_get_only_it_and_meta_records_the_rest) {
  char base[] = "/tmp/gb-workerenv-XXXXXX";
  cr_assert_not_null(mkdtemp(base));
  char out[128], wrapper[128], dump[128];
  snprintf(out, sizeof out, "%s/records", base);
  snprintf(wrapper, sizeof wrapper, "%s/worker.sh", base);
  snprintf(dump, sizeof dump, "%s/env.txt", base);
  FILE *f = fopen(wrapper, "w");
  cr_assert_not_null(f);
  fprintf(f, "#!/bin/sh\n/usr/bin/env > '%s'\nexec '%s' \"$@\"\n", dump, GB_WORKER_C_PATH);
  cr_assert_eq(fclose(f), 0);
  cr_assert_eq(chmod(wrapper, 0755), 0);
  setenv("PYTHONMALLOC", "debug", 1);
  setenv("NODE_OPTIONS", "--max-old-space-size=100", 1);
  setenv("GB_SECRET_OF_THE_HARNESS", "1", 1);
  gb_settings s;
  gb_err err;
  cr_assert_eq(gb_settings_profile("smoke", &s, &err), 0);
  s.languages = 1u << GB_C;
  s.algorithms = 1u << GB_QUICK;
  s.orders = 1u << GB_RANDOM;
  s.sizes[0] = 50;
  s.nsizes = 1;
  s.runs = 1;
  s.warmups = 1;
  s.target_ms = 1;
  s.energy = GB_ENERGY_OFF;
  s.order_seed = 1;
  const char *const command[] = {"greenbench", "run"};
  gb_campaign_opts o = {.settings = s,
                        .out_dir = out,
                        .workers = {wrapper, GB_PYTHON_PATH, GB_PYTHON_WORKER_PATH,
                                    GB_NODE_PATH, GB_NODE_WORKER_PATH},
                        .topology_xml = GB_TEST_DATA_DIR "/topo-desktop-smt.xml",
                        .machine_root = GB_TEST_DATA_DIR "/sysfs-intel",
                        .argc = 2,
                        .argv = command,
                        .progress = GB_PROGRESS_QUIET};
  int rc = gb_campaign_run(&o, NULL, &err);
  unsetenv("PYTHONMALLOC");
  unsetenv("NODE_OPTIONS");
  unsetenv("GB_SECRET_OF_THE_HARNESS");
  cr_assert_eq(rc, 0, "%s", err.msg);

  char text[4096];
  f = fopen(dump, "r");
  cr_assert_not_null(f);
  text[fread(text, 1, sizeof text - 1, f)] = '\0';
  fclose(f);
  /* env prints what it got; sh may add PWD (it always knows it). */
  size_t names = 0;
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    bool known = !strncmp(line, "PATH=/usr/local/bin:/usr/bin:/bin", 40) ||
                 !strcmp(line, "LANG=C") || !strcmp(line, "LC_ALL=C") ||
                 !strncmp(line, "HOME=", 5) || !strncmp(line, "PWD=", 4);
    cr_assert(known, "the worker got %s", line);
    names += strncmp(line, "PWD=", 4) != 0;
  }
  cr_assert_eq(names, 4);

  gb_records *r;
  cr_assert_eq(gb_records_read(out, &r, &err), 0, "%s", err.msg);
  cr_assert(r->meta.has_harness_env);
  bool py = false, node = false;
  for (size_t i = 0; i < r->meta.n_harness_env; i++) {
    py |= !strcmp(r->meta.harness_env[i].name, "PYTHONMALLOC") &&
          !strcmp(r->meta.harness_env[i].value, "debug");
    node |= !strcmp(r->meta.harness_env[i].name, "NODE_OPTIONS") &&
            !strcmp(r->meta.harness_env[i].value, "--max-old-space-size=100");
    cr_assert_str_neq(r->meta.harness_env[i].name, "GB_SECRET_OF_THE_HARNESS");
  }
  cr_assert(py && node, "meta.json lists PYTHONMALLOC and NODE_OPTIONS");
  gb_records_free(r);
}

static int sh(const char *fmt, const char *a, const char *b) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, fmt, a, b);
  return system(cmd);
}

/* A checkout owned by an unprivileged user whose config runs a program on
 * `git status` (core.fsmonitor); the harness runs as root under sudo. */
Test(workerenv, git_never_runs_the_checkouts_programs_as_root) {
  if (geteuid() != 0)
    cr_skip_test("needs root: it runs git as root under a sudo user, as a sudo campaign does");
  if (!getpwnam(TEST_USER) && system("useradd --system --no-create-home " TEST_USER) != 0)
    cr_skip_test("cannot create the user " TEST_USER " (useradd)");
  if (access("/usr/bin/git", X_OK) != 0)
    cr_skip_test("no /usr/bin/git");
  struct passwd *pw = getpwnam(TEST_USER);
  cr_assert_not_null(pw);
  char base[] = "/tmp/gb-git-XXXXXX";
  cr_assert_not_null(mkdtemp(base));
  char marker[128];
  snprintf(marker, sizeof marker, "%s/pwned.txt", base);
  cr_assert_eq(sh("cd '%s' && git init -q repo && cd repo && echo a > f && git add f && "
                  "git -c user.name=t -c user.email=t@t commit -qm init && "
                  "git config core.fsmonitor 'id > %s'",
                  base, marker),
               0);
  cr_assert_eq(sh("chown -R " TEST_USER ": '%s'%s", base, ""), 0);
  char uid[16], gid[16], repo[128];
  snprintf(uid, sizeof uid, "%u", (unsigned)pw->pw_uid);
  snprintf(gid, sizeof gid, "%u", (unsigned)pw->pw_gid);
  snprintf(repo, sizeof repo, "%s/repo", base);
  setenv("SUDO_UID", uid, 1);
  setenv("SUDO_GID", gid, 1);
  /* What the harness used to run: git as root trusts the sudo user's
   * checkout and runs its fsmonitor as root. */
  if (sh("/usr/bin/git -C '%s' status --porcelain >/dev/null 2>&1%s", repo, "") == 0 &&
      access(marker, F_OK) == 0)
    cr_log_info("plain `git status` as root ran the checkout's fsmonitor (the bug)");
  unlink(marker);
  gb_privilege owner;
  gb_err err;
  cr_assert_eq(gb_privilege_detect(&owner, &err), 0, "%s", err.msg);
  char commit[64];
  gbi_campaign_git_commit(repo, &owner, commit, sizeof commit);
  unsetenv("SUDO_UID");
  unsetenv("SUDO_GID");
  cr_assert_neq(access(marker, F_OK), 0, "git ran core.fsmonitor");
  cr_assert_eq(strspn(commit, "0123456789abcdef"), 40, "the commit is recorded: '%s'", commit);
  cr_assert_eq(strlen(commit), 40, "a clean checkout: '%s'", commit);
}
