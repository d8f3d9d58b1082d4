/* What the study's and a suite file's CTest fixtures share
 * (fixture_common.h): moved here from fixture.c unchanged, messages and
 * all, so that both fixtures read ctest's selection, write their state and
 * log their progress alike. */
#include "fixture_common.h"
#include "ctest_select.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "greenbench/files.h"
#include "greenbench/numparse.h"
#include "greenbench/paths.h"
#include "greenbench/privilege.h"
#include "greenbench/report.h"
#include "greenbench/text.h"

#define STATE_HEADER "greenbench-suite campaign state 1"

int gbi_fstate_write(const char *path, const gbi_fstate *st, gb_err *err) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f)
    return gb_err_set(err, ENOMEM, "out of memory for the campaign state");
  fprintf(f,
          "%s\nprofile: %s\nctest_pid: %ld\nstatus: %s\nrecords: %s\nselection: %s\n"
          "reason: %s\n",
          STATE_HEADER, st->profile, st->ctest_pid, st->status, st->records, st->selection,
          st->reason);
  fclose(f);
  int rc = gb_report_write_file(path, text, len, err);
  free(text);
  return rc;
}

static bool take_field(const char *line, const char *key, char *dst, size_t len) {
  size_t n = strlen(key);
  if (strncmp(line, key, n) != 0 || line[n] != ':' || line[n + 1] != ' ')
    return false;
  gb_str_copy(dst, len, line + n + 2);
  dst[strcspn(dst, "\n")] = '\0';
  return true;
}

int gbi_fstate_read(const char *path, gbi_fstate *st, char *why, size_t len) {
  FILE *f = fopen(path, "re");
  if (!f) {
    snprintf(why, len, "no campaign state %s (%s): its fixture did not run", path,
             strerror(errno));
    return -1;
  }
  char line[8192], pid[32] = "";
  *st = (gbi_fstate){0};
  bool header =
      fgets(line, sizeof line, f) && !strncmp(line, STATE_HEADER, strlen(STATE_HEADER));
  while (header && fgets(line, sizeof line, f)) {
    (void)(take_field(line, "profile", st->profile, sizeof st->profile) ||
           take_field(line, "ctest_pid", pid, sizeof pid) ||
           take_field(line, "status", st->status, sizeof st->status) ||
           take_field(line, "records", st->records, sizeof st->records) ||
           take_field(line, "selection", st->selection, sizeof st->selection) ||
           take_field(line, "reason", st->reason, sizeof st->reason));
  }
  fclose(f);
  uint64_t ctest_pid = 0;
  if (!header || !st->status[0] || gb_parse_u64(pid, 0, INT32_MAX, &ctest_pid) < 0) {
    snprintf(why, len, "%s is not a campaign state file", path);
    return -1;
  }
  st->ctest_pid = (long)ctest_pid;
  return 0;
}

int gbi_fstate_for_case(const char *name, const char *state_path, const char *profile,
                        const char *fixture, gbi_fstate *st) {
  char why[1200];
  if (gbi_fstate_read(state_path, st, why, sizeof why) < 0) {
    fprintf(stderr, "%s: %s\n", name, why);
    return 1;
  }
  char exe[PATH_MAX];
  long ours = gbi_ctest_find(exe, sizeof exe);
  if (ours != 0 && st->ctest_pid != ours) {
    fprintf(stderr,
            "%s: the campaign state %s is of another run (ctest pid %ld, this one %ld): "
            "its fixture %s did not run in this one\n",
            name, state_path, st->ctest_pid, ours, fixture);
    return 1;
  }
  if (strcmp(st->profile, profile) != 0) {
    fprintf(stderr, "%s: the campaign state %s is of the %s profile\n", name, state_path,
            st->profile);
    return 1;
  }
  if (!strcmp(st->status, "failed") || !strcmp(st->status, "running") ||
      !strcmp(st->status, "empty")) {
    fprintf(stderr, "%s: %s\n", name, st->reason);
    return 1;
  }
  return 0;
}

/* ---- Progress: to the log and to standard output ------------------------------ */

static ssize_t tee_write(void *cookie, const char *buf, size_t len) {
  FILE *log = cookie;
  fwrite(buf, 1, len, log);
  fflush(log);
  fwrite(buf, 1, len, stdout);
  fflush(stdout);
  return (ssize_t)len;
}

static int tee_close(void *cookie) {
  return fclose((FILE *)cookie);
}

FILE *gbi_fixture_open_user_file(const char *path) {
  gb_privilege p;
  gb_privilege_fs saved;
  gb_err err;
  int fd = -1, rc = gb_privilege_detect(&p, &err);
  if (rc == 0 && (rc = gb_privilege_fs_enter(&p, &saved)) == 0) {
    rc = gb_output_open(path, &fd, &err);
    gb_privilege_fs_leave(&saved);
  }
  FILE *f = rc == 0 ? fdopen(fd, "we") : NULL;
  if (!f && fd >= 0)
    close(fd);
  errno = rc < 0 ? -rc : errno;
  return f;
}

void gbi_fixture_note_selection(const char *records, const char *how, const char *expr) {
  char path[PATH_MAX + 32];
  if (gb_path_join(path, sizeof path, records, "ctest-selection.txt", NULL) < 0)
    return;
  FILE *f = gbi_fixture_open_user_file(path);
  if (!f)
    return;
  fprintf(f, "%s\nmeasured: %s\n", how, expr);
  fclose(f);
}

FILE *gbi_fixture_open_tee(const char *path) {
  FILE *log = gbi_fixture_open_user_file(path);
  if (!log)
    return NULL;
  FILE *f =
      fopencookie(log, "w", (cookie_io_functions_t){.write = tee_write, .close = tee_close});
  if (!f) {
    fclose(log);
    return NULL;
  }
  setvbuf(f, NULL, _IOLBF, 0);
  return f;
}

/* ---- The selection of the ctest run ------------------------------------------ */

int gbi_fixture_ctest_listing(const char *fixture, pid_t *pid, char **json, char *how,
                              size_t hlen, char *why, size_t wlen) {
  gbi_ctest_run c = {0};
  *json = NULL;
  c.pid = gbi_ctest_find(c.exe, sizeof c.exe);
  *pid = c.pid;
  int rc = -1;
  if (c.pid == 0)
    snprintf(why, wlen, "it was not started by ctest");
  else if (gbi_ctest_read(&c, why, wlen) == 0 &&
           gbi_ctest_list(&c, fixture, json, why, wlen) == 0)
    rc = 0;
  if (rc == 0) {
    size_t at = (size_t)snprintf(how, hlen, "selected by ctest (pid %d):", (int)c.pid);
    for (size_t i = 2; i < c.argc && at < hlen; i++)
      at += (size_t)snprintf(how + at, hlen - at, " %s", c.argv[i]);
    if (c.argc <= 2 && at < hlen)
      snprintf(how + at, hlen - at, " (no selection: every test)");
  }
  gbi_ctest_run_free(&c);
  return rc;
}

long gbi_fixture_listed(const char *json, void (*f)(const char *name, void *arg), void *arg) {
  cJSON *root = cJSON_Parse(json);
  cJSON *tests = root ? cJSON_GetObjectItemCaseSensitive(root, "tests") : NULL;
  if (!cJSON_IsArray(tests)) {
    cJSON_Delete(root);
    return -1;
  }
  long listed = 0;
  const cJSON *t;
  cJSON_ArrayForEach(t, tests) {
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(t, "name");
    if (!cJSON_IsString(name))
      continue;
    listed++;
    f(name->valuestring, arg);
  }
  cJSON_Delete(root);
  return listed;
}
