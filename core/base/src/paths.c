#include "greenbench/paths.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base_internal.h"
#include "greenbench/text.h"

/* The installed folders relative to the folder of the executables, as
 * GNUInstallDirs placed them (relative paths only: the prefix is wherever
 * the tree was put). */
#ifndef GB_INSTALL_LIBEXEC_REL
#define GB_INSTALL_LIBEXEC_REL "../libexec/greenbench"
#endif
#ifndef GB_INSTALL_DATA_REL
#define GB_INSTALL_DATA_REL "../share/greenbench"
#endif

/* At most: the override, or the installed folder and two of the build tree. */
#define MAX_PLACES 3

int gb_path_join(char *buf, size_t len, const char *dir, const char *name, gb_err *err) {
  size_t n = strlen(dir);
  const char *sep = n > 0 && dir[n - 1] == '/' ? "" : "/";
  int w = snprintf(buf, len, "%s%s%s", dir, sep, name);
  if (w >= 0 && (size_t)w < len)
    return 0;
  if (len > 0)
    buf[0] = '\0';
  return gb_err_set(err, ENAMETOOLONG, "%s%s%s: path too long", dir, sep, name);
}

int gb_path_dir(char *buf, size_t len, const char *path) {
  const char *slash = strrchr(path, '/');
  int n = !slash ? snprintf(buf, len, ".")
                 : snprintf(buf, len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
  if (n >= 0 && (size_t)n < len)
    return 0;
  if (len > 0)
    buf[0] = '\0';
  return -ENAMETOOLONG;
}

/* dir + "/" + rel into buf, each leading "../" of rel taking one component
 * off dir, so messages and records name plain paths. */
static int join(const char *dir, const char *rel, char *buf, size_t len) {
  char tmp[PATH_MAX];
  if (!gb_str_copy(tmp, sizeof tmp, dir))
    return -ENAMETOOLONG;
  while (!strncmp(rel, "../", 3)) {
    char *slash = strrchr(tmp, '/');
    if (slash)
      *(slash == tmp ? slash + 1 : slash) = '\0';
    rel += 3;
  }
  return gb_path_join(buf, len, tmp, rel, NULL);
}

/* The running executable's folder, from /proc/self/exe. */
static int running_exe_dir(char *buf, size_t len, gb_err *err) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n < 0)
    return gb_err_set(err, errno, "cannot read /proc/self/exe to find greenbench's files: %s",
                      strerror(errno));
  exe[n] = '\0';
  char *slash = strrchr(exe, '/');
  if (!slash)
    return gb_err_set(err, EINVAL, "/proc/self/exe is not an absolute path: %s", exe);
  *(slash == exe ? slash + 1 : slash) = '\0';
  if (!gb_str_copy(buf, len, exe))
    return gb_err_set(err, ENAMETOOLONG, "the executable's folder is too long: %s", exe);
  return 0;
}

/* The marker's one line (an absolute path) into buf; "" without a marker. */
static int read_marker(const char *exe_dir, char *buf, size_t len, gb_err *err) {
  char path[PATH_MAX], text[PATH_MAX + 2];
  if (join(exe_dir, GB_SOURCE_MARKER, path, sizeof path) < 0)
    return gb_err_set(err, ENAMETOOLONG, "the executable's folder is too long: %s", exe_dir);
  FILE *f = fopen(path, "r");
  if (!f && errno == ENOENT) {
    buf[0] = '\0';
    return 0;
  }
  if (!f)
    return gb_err_set(err, errno, "cannot read %s: %s", path, strerror(errno));
  size_t n = fread(text, 1, sizeof text - 1, f);
  bool failed = ferror(f);
  fclose(f);
  text[n] = '\0';
  if (n > 0 && text[n - 1] == '\n')
    text[--n] = '\0';
  if (failed || text[0] != '/' || strlen(text) != n || strchr(text, '\n') ||
      !gb_str_copy(buf, len, text))
    return gb_err_set(err, EINVAL, "%s: not one absolute path (the build tree's source tree)",
                      path);
  return 0;
}

int gbi_layout_read(const char *exe_dir, gbi_layout *out, gb_err *err) {
  gbi_layout l;
  int rc = 0;
  if (!exe_dir)
    rc = running_exe_dir(l.exe_dir, sizeof l.exe_dir, err);
  else if (exe_dir[0] != '/' || !gb_str_copy(l.exe_dir, sizeof l.exe_dir, exe_dir))
    rc = gb_err_set(err, EINVAL, "not an absolute folder of an executable: %s", exe_dir);
  if (rc == 0)
    rc = read_marker(l.exe_dir, l.source_dir, sizeof l.source_dir, err);
  if (rc == 0)
    *out = l;
  return rc;
}

/* The folders to look in for a file of the kind, in order. */
static int places(const gbi_layout *l, gbi_files kind, char dirs[MAX_PLACES][PATH_MAX],
                  size_t *n) {
  const char *env = getenv(kind == GB_FILES_LIBEXEC ? GB_LIBEXEC_ENV : GB_DATA_ENV);
  *n = 0;
  if (env && env[0]) {
    *n = 1;
    return gb_str_copy(dirs[0], PATH_MAX, env) ? 0 : -ENAMETOOLONG;
  }
  int rc =
      join(l->exe_dir, kind == GB_FILES_LIBEXEC ? GB_INSTALL_LIBEXEC_REL : GB_INSTALL_DATA_REL,
           dirs[(*n)++], PATH_MAX);
  if (rc == 0 && l->source_dir[0] && kind == GB_FILES_LIBEXEC)
    rc = join(l->exe_dir, "workers", dirs[(*n)++], PATH_MAX);
  if (rc == 0 && l->source_dir[0])
    rc = join(l->source_dir, kind == GB_FILES_LIBEXEC ? "workers" : "stats", dirs[(*n)++],
              PATH_MAX);
  return rc;
}

int gbi_layout_find(const gbi_layout *l, gbi_files kind, const char *name, const char *what,
                    char *buf, size_t len, gb_err *err) {
  char dirs[MAX_PLACES][PATH_MAX], path[PATH_MAX];
  size_t n;
  const char *var = kind == GB_FILES_LIBEXEC ? GB_LIBEXEC_ENV : GB_DATA_ENV;
  if (places(l, kind, dirs, &n) < 0)
    return gb_err_set(err, ENAMETOOLONG, "cannot look for %s (%s): a folder is too long", what,
                      name);
  for (size_t i = 0; i < n; i++) {
    if (join(dirs[i], name, path, sizeof path) == 0 && access(path, F_OK) == 0)
      return gb_str_copy(buf, len, path)
                 ? 0
                 : gb_err_set(err, ENAMETOOLONG, "%s: path too long: %s", what, path);
  }
  char where[sizeof(gb_err)] = "";
  for (size_t i = 0; i < n; i++)
    gb_str_append(where, sizeof where, "%s%s",
                  i == 0      ? ""
                  : i + 1 < n ? ", "
                              : " and ",
                  dirs[i]);
  if (n == 1 && getenv(var) && getenv(var)[0])
    return gb_err_set(err, ENOENT, "cannot find %s (%s) in %s=%s", what, name, var, where);
  return gb_err_set(err, ENOENT, "cannot find %s (%s): looked in %s; set %s to its folder",
                    what, name, where, var);
}

int gb_worker_files_find(gb_worker_files *out, gb_err *err) {
  gb_worker_files f;
  gbi_layout l;
  int rc = gbi_layout_read(NULL, &l, err);
  if (rc == 0)
    rc = gbi_layout_find(&l, GB_FILES_LIBEXEC, "worker-c", "the C worker", f.worker_c,
                         sizeof f.worker_c, err);
  if (rc == 0)
    rc = gbi_layout_find(&l, GB_FILES_LIBEXEC, "python/worker.py", "the Python worker",
                         f.python_worker, sizeof f.python_worker, err);
  if (rc == 0)
    rc = gbi_layout_find(&l, GB_FILES_LIBEXEC, "node/worker.js", "the Node.js worker",
                         f.node_worker, sizeof f.node_worker, err);
  if (rc < 0)
    return rc;
  memcpy(f.source_dir, l.source_dir, sizeof f.source_dir);
  *out = f;
  return 0;
}

int gbi_layout_workers_dir(const gbi_layout *l, char *buf, size_t len, gb_err *err) {
  static const char *const others[] = {"python/worker.py", "node/worker.js"};
  char c[PATH_MAX], dir[PATH_MAX], path[PATH_MAX], missing[2 * PATH_MAX] = "";
  int rc = gbi_layout_find(l, GB_FILES_LIBEXEC, "worker-c", "the C worker", c, sizeof c, err);
  if (rc < 0)
    return rc;
  if (gb_path_dir(dir, sizeof dir, c) < 0)
    return gb_err_set(err, ENAMETOOLONG, "the workers' folder is too long: %s", c);
  for (size_t i = 0; i < sizeof others / sizeof *others; i++)
    if (join(dir, others[i], path, sizeof path) < 0 || access(path, F_OK) != 0)
      gb_str_append(missing, sizeof missing, "%s%s", missing[0] ? " and " : "", others[i]);
  if (missing[0])
    return gb_err_set(err, ENOENT,
                      "the folder of greenbench's workers ({workers}) %s holds worker-c "
                      "but not %s",
                      dir, missing);
  return gb_str_copy(buf, len, dir)
             ? 0
             : gb_err_set(err, ENAMETOOLONG, "the workers' folder is too long: %s", dir);
}

int gb_workers_dir_find(char *buf, size_t len, gb_err *err) {
  gbi_layout l;
  int rc = gbi_layout_read(NULL, &l, err);
  return rc < 0 ? rc : gbi_layout_workers_dir(&l, buf, len, err);
}

int gb_data_file_find(const char *name, const char *what, char *buf, size_t len, gb_err *err) {
  gbi_layout l;
  int rc = gbi_layout_read(NULL, &l, err);
  return rc < 0 ? rc : gbi_layout_find(&l, GB_FILES_DATA, name, what, buf, len, err);
}
