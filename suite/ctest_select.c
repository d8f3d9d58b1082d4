/* The selection of the ctest run that started this process (ctest_select.h;
 * ADR 0016). What CTest guarantees and what it does not, and so why each
 * step is here:
 * - ctest runs its tests from a folder of its own choosing: with
 *   --test-dir or a preset it changes into the build folder first. So the
 *   listing runs in ctest's *current* folder (/proc/<pid>/cwd, the build
 *   folder) with --test-dir left out, except with --preset, which ctest
 *   reads from the folder it was started in: the PWD it inherited, its
 *   folder, or the source folder of the build's CMakeCache.txt, the first
 *   whose listing names this very executable as the fixture.
 * - CTest 3.25 reads `--label-regex REGEX` but silently ignores
 *   `--label-regex=REGEX`, `-LREGEX` and any argument it does not know,
 *   and then runs every test. So each argument must be one of the table
 *   below; a joined form of a selecting option is kept only when this
 *   ctest lists the same tests with it as with the option and its value
 *   apart. Anything else is refused, never guessed. */
#include "ctest_select.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "greenbench/files.h"
#include "greenbench/numparse.h"
#include "greenbench/text.h"

/* The most bytes read of ctest's command line or of its listing (a study
 * lists some 150 tests in about 150 kB). */
#define READ_MAX (64u << 20)

/* ---- The ctest process ------------------------------------------------------ */

/* The parent of pid from /proc/<pid>/stat, or 0. The command name in that
 * line is in parentheses and may hold anything, so the fields are read
 * after its last ')'. */
static pid_t parent_of(pid_t pid) {
  char path[64], line[4096];
  size_t n;
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  if (gb_read_small_file(path, line, sizeof line, &n, NULL) < 0)
    return 0;
  /* "pid (comm) S ppid ...": the state, then the parent's pid. */
  const char *end = strrchr(line, ')');
  uint64_t ppid;
  if (!end || end[1] != ' ' || !end[2] || end[3] != ' ')
    return 0;
  end += 4;
  if (gb_scan_u64(&end, 10, INT32_MAX, &ppid) < 0)
    return 0;
  return (pid_t)ppid;
}

pid_t gbi_ctest_find(char *exe, size_t len) {
  pid_t pid = getppid();
  for (int depth = 0; depth < 8 && pid > 1; depth++) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/exe", (int)pid);
    ssize_t n = readlink(path, exe, len - 1);
    if (n > 0) {
      exe[n] = '\0';
      const char *base = strrchr(exe, '/');
      if (!strcmp(base ? base + 1 : exe, "ctest"))
        return pid;
    }
    pid = parent_of(pid);
  }
  return 0;
}

/* ---- CTest 3.25's options ------------------------------------------------------- */

typedef enum {
  KEEP,   /* selects tests: given to the listing */
  DROP,   /* changes how tests run, not which: left out */
  DIR,    /* --test-dir: the listing runs in the folder ctest changed into */
  PRESET, /* --preset: kept, and the listing runs where the presets are */
  MODE,   /* a dashboard, script or build-and-test mode: refused */
} arg_kind;

/* Every option of `ctest --help` (3.25), with whether it takes the next
 * argument as its value (ctest 3.25 takes it whatever it is). */
static const struct {
  const char *name;
  bool value;
  arg_kind kind;
} options[] = {
    {"-L", true, KEEP},
    {"--label-regex", true, KEEP},
    {"-LE", true, KEEP},
    {"--label-exclude", true, KEEP},
    {"-R", true, KEEP},
    {"--tests-regex", true, KEEP},
    {"-E", true, KEEP},
    {"--exclude-regex", true, KEEP},
    {"-I", true, KEEP},
    {"--tests-information", true, KEEP},
    {"-U", false, KEEP},
    {"--union", false, KEEP},
    {"--rerun-failed", false, KEEP},
    {"-FA", true, KEEP},
    {"--fixture-exclude-any", true, KEEP},
    {"-FS", true, KEEP},
    {"--fixture-exclude-setup", true, KEEP},
    {"-FC", true, KEEP},
    {"--fixture-exclude-cleanup", true, KEEP},
    {"-C", true, KEEP},
    {"--build-config", true, KEEP},
    {"--preset", true, PRESET},
    {"--test-dir", true, DIR},
    {"--progress", false, DROP},
    {"-V", false, DROP},
    {"--verbose", false, DROP},
    {"-VV", false, DROP},
    {"--extra-verbose", false, DROP},
    {"--debug", false, DROP},
    {"--output-on-failure", false, DROP},
    {"--stop-on-failure", false, DROP},
    {"-F", false, DROP},
    {"-Q", false, DROP},
    {"--quiet", false, DROP},
    {"-N", false, DROP},
    {"--show-only", false, DROP},
    {"--schedule-random", false, DROP},
    {"--no-label-summary", false, DROP},
    {"--no-subproject-summary", false, DROP},
    {"--force-new-ctest-process", false, DROP},
    {"--print-labels", false, DROP},
    {"--list-presets", false, DROP},
    {"-j", true, DROP},
    {"--parallel", true, DROP},
    {"-O", true, DROP},
    {"--output-log", true, DROP},
    {"--output-junit", true, DROP},
    {"--test-output-size-passed", true, DROP},
    {"--test-output-size-failed", true, DROP},
    {"--test-output-truncation", true, DROP},
    {"--repeat", true, DROP},
    {"--repeat-until-fail", true, DROP},
    {"--max-width", true, DROP},
    {"--interactive-debug-mode", true, DROP},
    {"--resource-spec-file", true, DROP},
    {"--timeout", true, DROP},
    {"--stop-time", true, DROP},
    {"--test-load", true, DROP},
    {"-D", true, MODE},
    {"--dashboard", true, MODE},
    {"-M", true, MODE},
    {"--test-model", true, MODE},
    {"-T", true, MODE},
    {"--test-action", true, MODE},
    {"-S", true, MODE},
    {"--script", true, MODE},
    {"-SP", true, MODE},
    {"--script-new-process", true, MODE},
    {"-A", true, MODE},
    {"--add-notes", true, MODE},
    {"--group", true, MODE},
    {"--extra-submit", true, MODE},
    {"--submit-index", false, MODE},
    {"--tomorrow-tag", false, MODE},
    {"--overwrite", true, MODE},
    {"--http1.0", false, MODE},
    {"--no-compress-output", false, MODE},
    {"--build-and-test", true, MODE},
};

/* The forms 3.25 documents with the value joined: --preset=P,
 * --show-only=FORMAT, --no-tests=ACTION, and -jN. */
static int joined_documented(const char *a, arg_kind *kind) {
  if (!strncmp(a, "--preset=", 9)) {
    *kind = PRESET;
    return 1;
  }
  if (!strncmp(a, "--show-only=", 12) || !strncmp(a, "--no-tests=", 11) ||
      (!strncmp(a, "-j", 2) && a[2] && strspn(a + 2, "0123456789") == strlen(a + 2))) {
    *kind = DROP;
    return 1;
  }
  return 0;
}

/* The selecting option that a starts with, its value joined to it
 * (`--label-regex=x`, `-Lx`, `-L=x`): its index, the longest name that
 * fits, and where the value starts; -1 when a is not such a form. */
static int joined_selecting(const char *a, const char **value) {
  int best = -1;
  size_t best_len = 0;
  for (size_t k = 0; k < sizeof options / sizeof options[0]; k++) {
    size_t n = strlen(options[k].name);
    if (options[k].kind != KEEP || !options[k].value || n <= best_len ||
        strncmp(a, options[k].name, n) != 0 || !a[n])
      continue;
    if (a[1] == '-' && a[n] != '=')
      continue; /* --label-regexp is another word, not a joined value */
    best = (int)k;
    best_len = n;
  }
  if (best >= 0)
    *value = a + best_len + (a[best_len] == '=');
  return best;
}

/* ---- Reading ctest's command line ----------------------------------------------- */

/* Everything fd holds up to EOF, at most max bytes, into *out (malloc'd,
 * one byte more for a terminating NUL) and *len. -1 on a read error, no
 * memory, or more than max bytes. */
static int read_all(int fd, size_t max, char **out, size_t *len) {
  size_t cap = 1 << 16, used = 0;
  char *buf = malloc(cap + 1);
  while (buf) {
    if (used == cap) {
      char *p = cap < max ? realloc(buf, 2 * cap + 1) : NULL;
      if (!p)
        break;
      buf = p;
      cap *= 2;
    }
    ssize_t n = read(fd, buf + used, cap - used);
    if (n < 0 && errno == EINTR)
      continue;
    if (n == 0) {
      buf[used] = '\0';
      *out = buf;
      *len = used;
      return 0;
    }
    if (n < 0)
      break;
    used += (size_t)n;
  }
  free(buf);
  return -1;
}

void gbi_ctest_run_free(gbi_ctest_run *c) {
  free(c->bytes);
  free(c->argv);
  free(c->probe);
  c->bytes = NULL;
  c->argv = c->probe = NULL;
  c->argc = c->nprobe = 0;
}

/* Sorts ctest's arguments all[1..n) into c->argv (the listing's) and
 * c->probe (the same, joined forms split). -1 with why. */
static int sort_args(gbi_ctest_run *c, char *const *all, size_t n, bool *joined, char *why,
                     size_t len) {
  c->argv[c->argc++] = c->exe;
  c->argv[c->argc++] = "--show-only=json-v1";
  c->probe[c->nprobe++] = c->exe;
  c->probe[c->nprobe++] = "--show-only=json-v1";
  for (size_t i = 1; i < n; i++) {
    const char *a = all[i], *value = NULL;
    arg_kind kind = DROP;
    size_t span = 0;
    for (size_t k = 0; k < sizeof options / sizeof options[0] && !span; k++)
      if (!strcmp(a, options[k].name)) {
        kind = options[k].kind;
        span = options[k].value && i + 1 < n ? 2 : 1;
      }
    int sel = span ? -1 : joined_selecting(a, &value);
    if (!span && sel < 0 && !joined_documented(a, &kind)) {
      gb_excerpt_buf shown = {{0}};
      snprintf(why, len,
               "ctest's argument '%s' is not an option of CTest 3.25 that the fixture knows, "
               "so it cannot tell which tests it selects",
               gb_excerpt(&shown, a));
      return -1;
    }
    if (kind == MODE) {
      snprintf(why, len,
               "ctest runs in a dashboard, script or build-and-test mode (%s), whose "
               "selection is not on its command line",
               a);
      return -1;
    }
    if (sel >= 0) {
      /* Kept as written, and checked against the option and its value apart. */
      c->argv[c->argc++] = all[i];
      c->probe[c->nprobe++] = (char *)options[sel].name;
      c->probe[c->nprobe++] = (char *)value;
      *joined = true;
      size_t at = strlen(c->joined);
      snprintf(c->joined + at, sizeof c->joined - at, "%s'%s'", at ? ", " : "", a);
      continue;
    }
    span = span ? span : 1;
    c->preset |= kind == PRESET;
    /* --test-dir goes to the listing only beside --preset (which it runs
     * where the presets are, as ctest did); otherwise the listing runs in
     * the folder ctest changed into. */
    bool keep = kind == KEEP || kind == PRESET;
    for (size_t k = 0; k < span && keep; k++) {
      c->argv[c->argc++] = all[i + k];
      c->probe[c->nprobe++] = all[i + k];
    }
    i += span - 1;
  }
  return 0;
}

/* The --test-dir arguments of ctest's command line, appended to the
 * listing's when it runs where the presets are. */
static void keep_test_dir(gbi_ctest_run *c, char *const *all, size_t n) {
  for (size_t i = 1; i + 1 < n; i++)
    if (!strcmp(all[i], "--test-dir")) {
      c->argv[c->argc++] = c->probe[c->nprobe++] = all[i];
      c->argv[c->argc++] = c->probe[c->nprobe++] = all[i + 1];
      i++;
    }
}

int gbi_ctest_read(gbi_ctest_run *c, char *why, size_t len) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/cwd", (int)c->pid);
  ssize_t got = readlink(path, c->cwd, sizeof c->cwd - 1);
  if (got <= 0) {
    snprintf(why, len, "cannot read the folder of ctest (pid %d): %s", (int)c->pid,
             strerror(errno));
    return -1;
  }
  c->cwd[got] = '\0';
  snprintf(path, sizeof path, "/proc/%d/cmdline", (int)c->pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  size_t used = 0;
  int rc = fd < 0 ? -1 : read_all(fd, READ_MAX, &c->bytes, &used);
  if (fd >= 0)
    close(fd);
  if (rc < 0) {
    snprintf(why, len, "cannot read the command line of ctest (pid %d)", (int)c->pid);
    return -1;
  }
  size_t n = 0;
  for (size_t i = 0; i < used; i++)
    n += c->bytes[i] == '\0';
  char **all = calloc(n + 1, sizeof *all);
  if (!all) {
    snprintf(why, len, "out of memory reading the command line of ctest");
    return -1;
  }
  for (size_t i = 0, at = 0; i < n; i++, at += strlen(c->bytes + at) + 1)
    all[i] = c->bytes + at;
  rc = gbi_ctest_args(c, all, n, why, len);
  free(all);
  return rc;
}

int gbi_ctest_args(gbi_ctest_run *c, char *const *all, size_t n, char *why, size_t len) {
  c->argv = calloc(2 * n + 4, sizeof *c->argv);
  c->probe = calloc(2 * n + 4, sizeof *c->probe);
  if (!c->argv || !c->probe) {
    snprintf(why, len, "out of memory reading the command line of ctest");
    return -1;
  }
  bool joined = false;
  int rc = sort_args(c, all, n, &joined, why, len);
  if (rc == 0 && c->preset)
    keep_test_dir(c, all, n);
  if (!joined)
    c->nprobe = 0;
  return rc;
}

/* ---- Listing --------------------------------------------------------------------- */

/* The standard output of argv run in dir into *out. -1 with why. */
static int run_listing(const char *exe, char *const *argv, const char *dir, char **out,
                       char *why, size_t len) {
  int fd[2];
  if (pipe2(fd, O_CLOEXEC) < 0) {
    snprintf(why, len, "cannot run ctest --show-only: %s", strerror(errno));
    return -1;
  }
  pid_t child = fork();
  if (child == 0) {
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (chdir(dir) < 0 || dup2(fd[1], STDOUT_FILENO) < 0 ||
        (null >= 0 && dup2(null, STDERR_FILENO) < 0))
      _exit(126);
    execv(exe, argv);
    _exit(127);
  }
  close(fd[1]);
  if (child < 0) {
    close(fd[0]);
    snprintf(why, len, "cannot run ctest --show-only: %s", strerror(errno));
    return -1;
  }
  char *buf = NULL;
  size_t used = 0;
  int rc = read_all(fd[0], READ_MAX, &buf, &used);
  close(fd[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (rc < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    free(buf);
    snprintf(why, len, "ctest --show-only=json-v1 (in %.256s) failed with status %d", dir,
             WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    return -1;
  }
  *out = buf;
  return 0;
}

/* Whether the listing json names this executable as the test fixture:
 * the listing is of this build tree. */
static bool lists_us(const char *json, const char *fixture) {
  char self[PATH_MAX], theirs[PATH_MAX];
  if (!realpath("/proc/self/exe", self))
    return false;
  cJSON *root = cJSON_Parse(json);
  const cJSON *tests = root ? cJSON_GetObjectItemCaseSensitive(root, "tests") : NULL, *t;
  bool found = false;
  cJSON_ArrayForEach(t, tests) {
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(t, "name");
    const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(t, "command");
    const cJSON *first = cJSON_IsArray(cmd) ? cJSON_GetArrayItem(cmd, 0) : NULL;
    if (cJSON_IsString(name) && !strcmp(name->valuestring, fixture) && cJSON_IsString(first) &&
        realpath(first->valuestring, theirs) && !strcmp(self, theirs))
      found = true;
  }
  cJSON_Delete(root);
  return found;
}

/* The names of the tests a listing holds, '\n'-joined, into *out. */
static int names_of(const char *json, char **out) {
  cJSON *root = cJSON_Parse(json);
  const cJSON *tests = root ? cJSON_GetObjectItemCaseSensitive(root, "tests") : NULL, *t;
  size_t len = 0;
  FILE *f = open_memstream(out, &len);
  if (!f) {
    cJSON_Delete(root);
    return -1;
  }
  cJSON_ArrayForEach(t, tests) {
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(t, "name");
    if (cJSON_IsString(name))
      fprintf(f, "%s\n", name->valuestring);
  }
  cJSON_Delete(root);
  return fclose(f) == 0 ? 0 : -1;
}

/* Whether the probe (the joined forms split) lists the same tests. */
static int same_with_split(const gbi_ctest_run *c, const char *dir, const char *json, char *why,
                           size_t len) {
  char *probe_json = NULL, *a = NULL, *b = NULL;
  c->probe[c->nprobe] = NULL;
  int rc = run_listing(c->exe, c->probe, dir, &probe_json, why, len);
  if (rc == 0 && (names_of(json, &a) < 0 || names_of(probe_json, &b) < 0))
    rc = -1, snprintf(why, len, "out of memory comparing ctest's listings");
  if (rc == 0 && strcmp(a, b) != 0) {
    snprintf(why, len,
             "this ctest lists other tests for %s than for the option and its value apart "
             "(CTest 3.25 ignores such a form and runs every test): write the value after a "
             "space",
             c->joined);
    rc = -1;
  }
  free(probe_json);
  free(a);
  free(b);
  return rc;
}

/* The source folder of the build tree dir, from its CMakeCache.txt. */
static bool cache_home(const char *dir, char *out, size_t len) {
  char path[PATH_MAX + 32], line[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/CMakeCache.txt", dir);
  FILE *f = fopen(path, "re");
  bool found = false;
  while (f && !found && fgets(line, sizeof line, f)) {
    static const char key[] = "CMAKE_HOME_DIRECTORY:INTERNAL=";
    if (!strncmp(line, key, sizeof key - 1)) {
      line[strcspn(line, "\n")] = '\0';
      found = gb_str_copy(out, len, line + sizeof key - 1);
    }
  }
  if (f)
    fclose(f);
  return found;
}

static bool has_presets(const char *dir) {
  char path[PATH_MAX + 32];
  snprintf(path, sizeof path, "%s/CMakePresets.json", dir);
  if (access(path, R_OK) == 0)
    return true;
  snprintf(path, sizeof path, "%s/CMakeUserPresets.json", dir);
  return access(path, R_OK) == 0;
}

/* The listing of c in dir, checked. 1 when it is not of this build tree. */
static int list_in(const gbi_ctest_run *c, const char *dir, const char *fixture, char **json,
                   char *why, size_t len) {
  c->argv[c->argc] = NULL;
  if (run_listing(c->exe, c->argv, dir, json, why, len) < 0)
    return -1;
  if (!lists_us(*json, fixture)) {
    free(*json);
    *json = NULL;
    return 1;
  }
  if (c->nprobe && same_with_split(c, dir, *json, why, len) < 0) {
    free(*json);
    *json = NULL;
    return -1;
  }
  return 0;
}

int gbi_ctest_list(const gbi_ctest_run *c, const char *fixture, char **json, char *why,
                   size_t len) {
  if (!c->preset) {
    int rc = list_in(c, c->cwd, fixture, json, why, len);
    if (rc > 0)
      snprintf(why, len,
               "ctest --show-only=json-v1 in %.256s does not list this executable as %s",
               c->cwd, fixture);
    return rc == 0 ? 0 : -1;
  }
  /* --preset: read where ctest was started, which holds the presets. */
  char home[PATH_MAX];
  const char *pwd = getenv("PWD");
  const char *dirs[] = {pwd && *pwd == '/' ? pwd : NULL, c->cwd,
                        cache_home(c->cwd, home, sizeof home) ? home : NULL};
  for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
    if (!dirs[i] || !has_presets(dirs[i]))
      continue;
    int rc = list_in(c, dirs[i], fixture, json, why, len);
    if (rc <= 0)
      return rc;
  }
  snprintf(why, len,
           "no folder with CMake presets (PWD %.200s, %.200s, the source folder) lists this "
           "executable as %s under ctest's --preset",
           pwd ? pwd : "unset", c->cwd, fixture);
  return -1;
}

void gbi_ctest_tell(pid_t pid, const char *line) {
  char path[64], info[512];
  size_t n = 0;
  snprintf(path, sizeof path, "/proc/%d/fdinfo/1", (int)pid);
  if (gb_read_small_file(path, info, sizeof info, &n, NULL) < 0)
    return;
  const char *flags = strstr(info, "flags:");
  unsigned long f = flags ? strtoul(flags + 6, NULL, 8) : 0;
  snprintf(path, sizeof path, "/proc/%d/fd/1", (int)pid);
  int fd = open(path, O_WRONLY | O_APPEND | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return;
  struct stat st;
  if (fstat(fd, &st) == 0 && (!S_ISREG(st.st_mode) || (f & O_APPEND))) {
    char *text = NULL;
    if (asprintf(&text, "%s\n", line) >= 0) {
      ssize_t w = write(fd, text, strlen(text));
      (void)w;
    }
    free(text);
  }
  close(fd);
}
