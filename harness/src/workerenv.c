#include "greenbench/workerenv.h"

#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The home directory of uid into buf, or "/". */
static void home_of(uid_t uid, char *buf, size_t len) {
  struct passwd pw, *found = NULL;
  char db[4096];
  if (getpwuid_r(uid, &pw, db, sizeof db, &found) == 0 && found && found->pw_dir[0] == '/' &&
      strlen(found->pw_dir) < len) {
    snprintf(buf, len, "%s", found->pw_dir);
    return;
  }
  snprintf(buf, len, "/");
}

int gb_workerenv_build(const gb_privilege *as, gb_workerenv *out, gb_err *err) {
  (void)err;
  char home[1024];
  home_of(as && gb_privilege_drops(as) ? as->uid : geteuid(), home, sizeof home);
  const char *vars[GB_WORKERENV_VARS] = {"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C",
                                         "LC_ALL=C", "HOME="};
  size_t used = 0;
  for (size_t i = 0; i < GB_WORKERENV_VARS; i++) {
    out->envp[i] = out->text + used;
    int n = snprintf(out->envp[i], sizeof out->text - used, "%s%s", vars[i],
                     i + 1 == GB_WORKERENV_VARS ? home : "");
    used += (size_t)n + 1;
  }
  out->envp[GB_WORKERENV_VARS] = NULL;
  return 0;
}

int gb_workerenv_for_caller(gb_privilege *owner, gb_workerenv *we, gb_err *err) {
  int rc = gb_privilege_detect(owner, err);
  return rc < 0 ? rc : gb_workerenv_build(owner, we, err);
}

void gb_workerenv_apply(const gb_privilege *owner, const gb_workerenv *we,
                        gb_measure_env *env) {
  env->run_as = gb_privilege_drops(owner) ? owner : NULL;
  env->envp = (char *const *)we->envp;
}

bool gb_workerenv_affects_speed(const char *entry) {
  static const char *const prefixes[] = {"PYTHON", "NODE_", "V8_",   "UV_",  "LD_",
                                         "MALLOC", "OMP_",  "GOMP_", "LIBC_"};
  size_t name_len = strcspn(entry, "=");
  if (name_len == strlen("GLIBC_TUNABLES") && strncmp(entry, "GLIBC_TUNABLES", name_len) == 0)
    return true;
  for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
    size_t n = strlen(prefixes[i]);
    if (name_len >= n && strncmp(entry, prefixes[i], n) == 0)
      return true;
  }
  return false;
}
