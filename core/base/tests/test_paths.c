/* Finding greenbench's own files (greenbench/paths.h) in fake installed and
 * build trees under a temporary folder: the installed layout, the build
 * tree's marker, the overrides that win, and the one-line error. */
#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base_internal.h"
#include "greenbench/paths.h"

static char root[PATH_MAX];

/* snprintf into an array, which must hold the whole text. */
#define FMT(buf, ...) cr_assert_lt(snprintf(buf, sizeof buf, __VA_ARGS__), (int)sizeof buf)

/* Creates root/rel, and its folders, holding text. */
static void put(const char *rel, const char *text) {
  char path[PATH_MAX];
  FMT(path, "%s/%s", root, rel);
  for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
    *p = '\0';
    mkdir(path, 0755);
    *p = '/';
  }
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f, "%s", path);
  fputs(text, f);
  fclose(f);
}

static void under_root(const char *rel, char *buf, size_t len) {
  cr_assert_lt(snprintf(buf, len, "%s/%s", root, rel), (int)len);
}

static void make_root(void) {
  FMT(root, "%s/gb-paths-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  cr_assert_not_null(mkdtemp(root));
  unsetenv(GB_LIBEXEC_ENV);
  unsetenv(GB_DATA_ENV);
}

static void remove_root(void) {
  char cmd[PATH_MAX + 16];
  FMT(cmd, "rm -rf '%s'", root);
  cr_assert_eq(system(cmd), 0);
}

TestSuite(paths, .init = make_root, .fini = remove_root);

/* An installed tree: P/bin, P/libexec/greenbench, P/share/greenbench. */
static void installed_tree(gbi_layout *l) {
  put("prefix/bin/greenbench", "");
  put("prefix/libexec/greenbench/worker-c", "");
  put("prefix/libexec/greenbench/python/worker.py", "");
  put("prefix/libexec/greenbench/node/worker.js", "");
  put("prefix/share/greenbench/data/grid-carbon-intensity.csv", "");
  char bin[PATH_MAX];
  gb_err err;
  under_root("prefix/bin", bin, sizeof bin);
  cr_assert_eq(gbi_layout_read(bin, l, &err), 0, "%s", err.msg);
  cr_assert_str_eq(l->source_dir, "", "an installed tree has no source tree");
}

Test(paths, finds_the_installed_layout) {
  gbi_layout l;
  installed_tree(&l);
  char got[PATH_MAX], want[PATH_MAX];
  gb_err err;
  cr_assert_eq(
      gbi_layout_find(&l, GB_FILES_LIBEXEC, "worker-c", "the C worker", got, sizeof got, &err),
      0, "%s", err.msg);
  under_root("prefix/libexec/greenbench/worker-c", want, sizeof want);
  cr_assert_str_eq(got, want, "a plain path, without bin/..");
  cr_assert_eq(gbi_layout_find(&l, GB_FILES_LIBEXEC, "node/worker.js", "the Node.js worker",
                               got, sizeof got, &err),
               0, "%s", err.msg);
  under_root("prefix/libexec/greenbench/node/worker.js", want, sizeof want);
  cr_assert_str_eq(got, want);
  cr_assert_eq(gbi_layout_find(&l, GB_FILES_DATA, "data/grid-carbon-intensity.csv", "the table",
                               got, sizeof got, &err),
               0, "%s", err.msg);
  under_root("prefix/share/greenbench/data/grid-carbon-intensity.csv", want, sizeof want);
  cr_assert_str_eq(got, want);
}

Test(paths, finds_the_build_tree_through_its_marker) {
  char src[PATH_MAX], marker[PATH_MAX + 2], build[PATH_MAX], got[PATH_MAX], want[PATH_MAX];
  under_root("src", src, sizeof src);
  FMT(marker, "%s\n", src);
  put("src/build/" GB_SOURCE_MARKER, marker);
  put("src/build/workers/worker-c", "");
  put("src/workers/python/worker.py", "");
  put("src/stats/data/grid-carbon-intensity.csv", "");
  under_root("src/build", build, sizeof build);
  gbi_layout l;
  gb_err err;
  cr_assert_eq(gbi_layout_read(build, &l, &err), 0, "%s", err.msg);
  cr_assert_str_eq(l.source_dir, src);
  cr_assert_eq(
      gbi_layout_find(&l, GB_FILES_LIBEXEC, "worker-c", "the C worker", got, sizeof got, &err),
      0, "%s", err.msg);
  under_root("src/build/workers/worker-c", want, sizeof want);
  cr_assert_str_eq(got, want, "the C worker is built in the build tree");
  cr_assert_eq(gbi_layout_find(&l, GB_FILES_LIBEXEC, "python/worker.py", "the Python worker",
                               got, sizeof got, &err),
               0, "%s", err.msg);
  under_root("src/workers/python/worker.py", want, sizeof want);
  cr_assert_str_eq(got, want, "the scripts stay in the source tree");
  cr_assert_eq(gbi_layout_find(&l, GB_FILES_DATA, "data/grid-carbon-intensity.csv", "the table",
                               got, sizeof got, &err),
               0, "%s", err.msg);
  under_root("src/stats/data/grid-carbon-intensity.csv", want, sizeof want);
  cr_assert_str_eq(got, want);
}

Test(paths, the_override_wins) {
  gbi_layout l;
  installed_tree(&l);
  put("elsewhere/worker-c", "");
  put("share/data/grid-carbon-intensity.csv", "");
  char dir[PATH_MAX], got[PATH_MAX], want[PATH_MAX];
  gb_err err;
  under_root("elsewhere", dir, sizeof dir);
  setenv(GB_LIBEXEC_ENV, dir, 1);
  cr_assert_eq(
      gbi_layout_find(&l, GB_FILES_LIBEXEC, "worker-c", "the C worker", got, sizeof got, &err),
      0, "%s", err.msg);
  under_root("elsewhere/worker-c", want, sizeof want);
  cr_assert_str_eq(got, want);
  under_root("share", dir, sizeof dir);
  setenv(GB_DATA_ENV, dir, 1);
  cr_assert_eq(gbi_layout_find(&l, GB_FILES_DATA, "data/grid-carbon-intensity.csv", "the table",
                               got, sizeof got, &err),
               0, "%s", err.msg);
  under_root("share/data/grid-carbon-intensity.csv", want, sizeof want);
  cr_assert_str_eq(got, want);
}

Test(paths, an_empty_override_is_no_override) {
  gbi_layout l;
  installed_tree(&l);
  setenv(GB_LIBEXEC_ENV, "", 1);
  char got[PATH_MAX];
  gb_err err;
  cr_assert_eq(
      gbi_layout_find(&l, GB_FILES_LIBEXEC, "worker-c", "the C worker", got, sizeof got, &err),
      0, "%s", err.msg);
}

Test(paths, the_override_is_the_only_place_looked_in) {
  gbi_layout l;
  installed_tree(&l);
  char dir[PATH_MAX], got[PATH_MAX] = "untouched", want[sizeof(gb_err)];
  gb_err err;
  under_root("nowhere", dir, sizeof dir);
  setenv(GB_LIBEXEC_ENV, dir, 1);
  cr_assert_eq(
      gbi_layout_find(&l, GB_FILES_LIBEXEC, "worker-c", "the C worker", got, sizeof got, &err),
      -ENOENT);
  FMT(want, "cannot find the C worker (worker-c) in GREENBENCH_LIBEXEC_DIR=%s", dir);
  cr_assert_str_eq(err.msg, want);
  cr_assert_str_eq(got, "untouched", "out-params are set only on success");
}

Test(paths, a_missing_file_names_every_place_and_the_variable) {
  char src[PATH_MAX], marker[PATH_MAX + 2], build[PATH_MAX], got[PATH_MAX],
      want[sizeof(gb_err)];
  under_root("src", src, sizeof src);
  FMT(marker, "%s\n", src);
  put("src/build/" GB_SOURCE_MARKER, marker);
  under_root("src/build", build, sizeof build);
  gbi_layout l;
  gb_err err;
  cr_assert_eq(gbi_layout_read(build, &l, &err), 0, "%s", err.msg);
  cr_assert_eq(gbi_layout_find(&l, GB_FILES_LIBEXEC, "node/worker.js", "the Node.js worker",
                               got, sizeof got, &err),
               -ENOENT);
  FMT(want,
      "cannot find the Node.js worker (node/worker.js): looked in %s/libexec/greenbench, "
      "%s/build/workers and %s/workers; set GREENBENCH_LIBEXEC_DIR to its folder",
      src, src, src);
  cr_assert_str_eq(err.msg, want);
  cr_assert_null(strchr(err.msg, '\n'), "one line");
  cr_assert_eq(gbi_layout_find(&l, GB_FILES_DATA, "schema/greenbench-junit.xsd", "the schema",
                               got, sizeof got, &err),
               -ENOENT);
  FMT(want,
      "cannot find the schema (schema/greenbench-junit.xsd): looked in %s/share/greenbench "
      "and %s/stats; set GREENBENCH_DATA_DIR to its folder",
      src, src);
  cr_assert_str_eq(err.msg, want);
}

Test(paths, a_bad_marker_is_refused) {
  char build[PATH_MAX];
  put("build/" GB_SOURCE_MARKER, "relative/path\n");
  under_root("build", build, sizeof build);
  gbi_layout l;
  gb_err err;
  cr_assert_eq(gbi_layout_read(build, &l, &err), -EINVAL);
  cr_assert(strstr(err.msg, GB_SOURCE_MARKER ": not one absolute path"), "%s", err.msg);
  put("build/" GB_SOURCE_MARKER, "/one\n/two\n");
  cr_assert_eq(gbi_layout_read(build, &l, &err), -EINVAL);
  cr_assert_eq(gbi_layout_read("relative", &l, &err), -EINVAL);
}

Test(paths, the_running_executable_is_read_from_proc) {
  gbi_layout l;
  gb_err err;
  cr_assert_eq(gbi_layout_read(NULL, &l, &err), 0, "%s", err.msg);
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  cr_assert_gt(n, 0);
  exe[n] = '\0';
  *strrchr(exe, '/') = '\0';
  cr_assert_str_eq(l.exe_dir, exe);
  cr_assert_str_eq(l.source_dir, "", "the test binaries' folder has no marker");
}

Test(paths, the_data_override_finds_the_shipped_table) {
  gb_err err;
  char got[PATH_MAX];
  setenv(GB_DATA_ENV, GB_TEST_SHARE_DIR, 1);
  cr_assert_eq(
      gb_data_file_find("data/grid-carbon-intensity.csv", "the table", got, sizeof got, &err),
      0, "%s", err.msg);
  cr_assert_str_eq(got, GB_TEST_SHARE_DIR "/data/grid-carbon-intensity.csv");
}

Test(paths, the_workers_folder_is_libexec_installed) {
  gbi_layout l;
  installed_tree(&l);
  char got[PATH_MAX] = "", want[PATH_MAX];
  gb_err err;
  cr_assert_eq(gbi_layout_workers_dir(&l, got, sizeof got, &err), 0, "%s", err.msg);
  under_root("prefix/libexec/greenbench", want, sizeof want);
  cr_assert_str_eq(got, want);
}

/* A build tree whose build/workers holds worker-c and, when `whole`,
 * python/worker.py and node/worker.js (as the build's links make it). */
static void build_tree(gbi_layout *l, bool whole) {
  char src[PATH_MAX], marker[PATH_MAX + 2], build[PATH_MAX];
  under_root("src", src, sizeof src);
  FMT(marker, "%s\n", src);
  put("src/build/" GB_SOURCE_MARKER, marker);
  put("src/build/workers/worker-c", "");
  put("src/workers/python/worker.py", "");
  put("src/workers/node/worker.js", "");
  if (whole) {
    put("src/build/workers/python/worker.py", "");
    put("src/build/workers/node/worker.js", "");
  }
  under_root("src/build", build, sizeof build);
  gb_err err;
  cr_assert_eq(gbi_layout_read(build, l, &err), 0, "%s", err.msg);
}

Test(paths, the_workers_folder_is_the_build_trees_workers) {
  gbi_layout l;
  build_tree(&l, true);
  char got[PATH_MAX] = "", want[PATH_MAX];
  gb_err err;
  cr_assert_eq(gbi_layout_workers_dir(&l, got, sizeof got, &err), 0, "%s", err.msg);
  under_root("src/build/workers", want, sizeof want);
  cr_assert_str_eq(got, want);
}

Test(paths, a_workers_folder_without_the_scripts_is_refused) {
  gbi_layout l;
  build_tree(&l, false);
  char got[PATH_MAX] = "untouched", want[sizeof(gb_err)], dir[PATH_MAX];
  gb_err err;
  cr_assert_eq(gbi_layout_workers_dir(&l, got, sizeof got, &err), -ENOENT);
  under_root("src/build/workers", dir, sizeof dir);
  FMT(want,
      "the folder of greenbench's workers ({workers}) %s holds worker-c but not "
      "python/worker.py and node/worker.js",
      dir);
  cr_assert_str_eq(err.msg, want, "the scripts in src/workers do not count: one folder");
  cr_assert_str_eq(got, "untouched");
}

Test(paths, the_workers_folder_names_the_one_script_missing) {
  gbi_layout l;
  installed_tree(&l);
  put("elsewhere/worker-c", "");
  put("elsewhere/python/worker.py", "");
  char dir[PATH_MAX], got[PATH_MAX], want[sizeof(gb_err)];
  gb_err err;
  under_root("elsewhere", dir, sizeof dir);
  setenv(GB_LIBEXEC_ENV, dir, 1);
  cr_assert_eq(gbi_layout_workers_dir(&l, got, sizeof got, &err), -ENOENT);
  FMT(want,
      "the folder of greenbench's workers ({workers}) %s holds worker-c but not "
      "node/worker.js",
      dir);
  cr_assert_str_eq(err.msg, want);
  put("elsewhere/node/worker.js", "");
  cr_assert_eq(gbi_layout_workers_dir(&l, got, sizeof got, &err), 0, "%s", err.msg);
  cr_assert_str_eq(got, dir, "the override is the folder");
}

Test(paths, the_workers_folder_needs_the_c_worker) {
  gbi_layout l;
  installed_tree(&l);
  char dir[PATH_MAX], got[PATH_MAX];
  gb_err err;
  under_root("nowhere", dir, sizeof dir);
  setenv(GB_LIBEXEC_ENV, dir, 1);
  cr_assert_eq(gbi_layout_workers_dir(&l, got, sizeof got, &err), -ENOENT);
  cr_assert(strstr(err.msg, "cannot find the C worker (worker-c) in"), "%s", err.msg);
}

Test(paths, the_running_executables_workers_folder) {
  char got[PATH_MAX], c[PATH_MAX];
  gb_err err;
  put("w/worker-c", "");
  put("w/python/worker.py", "");
  put("w/node/worker.js", "");
  under_root("w", c, sizeof c);
  setenv(GB_LIBEXEC_ENV, c, 1);
  cr_assert_eq(gb_workers_dir_find(got, sizeof got, &err), 0, "%s", err.msg);
  cr_assert_str_eq(got, c);
}

Test(path, joins_with_one_slash) {
  char buf[32];
  gb_err err;
  cr_assert_eq(gb_path_join(buf, sizeof buf, "powercap", "intel-rapl:0", &err), 0);
  cr_assert_str_eq(buf, "powercap/intel-rapl:0");
  cr_assert_eq(gb_path_join(buf, sizeof buf, "out/", "meta.json", &err), 0);
  cr_assert_str_eq(buf, "out/meta.json", "no second slash after a folder that ends in one");
  cr_assert_eq(gb_path_join(buf, sizeof buf, "/", "x", &err), 0);
  cr_assert_str_eq(buf, "/x");
  cr_assert_eq(gb_path_join(buf, sizeof buf, "", "sys", &err), 0);
  cr_assert_str_eq(buf, "/sys", "an empty folder stands for the root");
  cr_assert_eq(gb_path_join(buf, sizeof buf, "a", "", &err), 0);
  cr_assert_str_eq(buf, "a/");
}

Test(path, refuses_a_path_that_does_not_fit) {
  char buf[8];
  gb_err err;
  cr_assert_eq(gb_path_join(buf, sizeof buf, "abc", "def", &err), 0, "7 bytes and the NUL fit");
  cr_assert_str_eq(buf, "abc/def");
  cr_assert_eq(gb_path_join(buf, sizeof buf, "abc", "defg", &err), -ENAMETOOLONG);
  cr_assert_str_eq(buf, "", "never a path cut short");
  cr_assert_str_eq(err.msg, "abc/defg: path too long");
  cr_assert_eq(gb_path_join(buf, sizeof buf, "abcd/", "efgh", NULL), -ENAMETOOLONG);
  cr_assert_eq(gb_path_join(buf, 0, "a", "b", NULL), -ENAMETOOLONG, "no room at all");
}

Test(path, the_folder_of_a_path) {
  char buf[8];
  cr_assert_eq(gb_path_dir(buf, sizeof buf, "out/results.md"), 0);
  cr_assert_str_eq(buf, "out");
  cr_assert_eq(gb_path_dir(buf, sizeof buf, "a/b/c"), 0);
  cr_assert_str_eq(buf, "a/b");
  cr_assert_eq(gb_path_dir(buf, sizeof buf, "/x"), 0);
  cr_assert_str_eq(buf, "/");
  cr_assert_eq(gb_path_dir(buf, sizeof buf, "results.md"), 0);
  cr_assert_str_eq(buf, ".");
  cr_assert_eq(gb_path_dir(buf, sizeof buf, "12345678/x"), -ENAMETOOLONG);
  cr_assert_str_eq(buf, "");
}
