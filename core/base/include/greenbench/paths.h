/* Paths: joining a folder and a name, and where greenbench finds its own
 * files at run time (ADR 0010): relative to the running executable, or
 * where an environment variable says; never a path of the source or build
 * tree compiled in, so that an installed or copied tree works wherever it
 * is. Part of gb_base, which every other library links.
 *
 * A file is named by its path under its folder in the installed layout:
 * programs under libexec/greenbench ("worker-c", "python/worker.py",
 * "node/worker.js"), data under share/greenbench
 * ("data/grid-carbon-intensity.csv", "schema/greenbench-junit.xsd"). It is
 * looked for, in order:
 *
 *   1. when GREENBENCH_LIBEXEC_DIR (programs) or GREENBENCH_DATA_DIR (data)
 *      is set and not empty, in that folder only: the override wins;
 *   2. the installed layout: <exe dir>/../libexec/greenbench/<name> or
 *      <exe dir>/../share/greenbench/<name>;
 *   3. the build tree, where <exe dir> holds the file greenbench-source-dir
 *      (written by CMake, never installed) naming the source tree S: programs
 *      in <exe dir>/workers/<name>, then S/workers/<name>; data in
 *      S/stats/<name>. */
#ifndef GREENBENCH_PATHS_H
#define GREENBENCH_PATHS_H

#include <limits.h>
#include <stddef.h>

#include "greenbench/error.h"

/* dir, '/' and name into buf[len]: "powercap/intel-rapl:0". No second '/'
 * when dir ends in one, so "/" and "x" give "/x"; an empty dir stands for
 * "/" ("" and "sys" give "/sys"). Returns 0, or -ENAMETOOLONG with
 * "<dir>/<name>: path too long" in err when the path and its NUL do not fit
 * (buf then holds "" when len >= 1). */
GB_MUST_USE int gb_path_join(char *buf, size_t len, const char *dir, const char *name,
                             gb_err *err);

/* The folder part of path into buf[len]: "out" for "out/results.md", "/"
 * for "/x", "." for "results.md" (no '/'). Returns 0, or -ENAMETOOLONG
 * (buf then holds "" when len >= 1). */
GB_MUST_USE int gb_path_dir(char *buf, size_t len, const char *path);

#define GB_LIBEXEC_ENV "GREENBENCH_LIBEXEC_DIR"
#define GB_DATA_ENV "GREENBENCH_DATA_DIR"
/* The build tree's marker beside its executables: one line, the source
 * tree's absolute path. */
#define GB_SOURCE_MARKER "greenbench-source-dir"

/* The workers' files of the running executable, found as above, and its
 * source tree for the git commit of the records. */
typedef struct {
  char worker_c[PATH_MAX];
  char python_worker[PATH_MAX];
  char node_worker[PATH_MAX];
  char source_dir[PATH_MAX]; /* "" outside a build tree */
} gb_worker_files;

/* Fills out from the running executable's layout (the folder of
 * /proc/self/exe and its marker, if any). Errors: -ENOENT for the first
 * file missing, with one line naming what was looked for, every place
 * looked in and the variable that overrides them; -errno when
 * /proc/self/exe cannot be read, or the marker exists but cannot be read;
 * -EINVAL for a marker that is not one absolute path; -ENAMETOOLONG. */
GB_MUST_USE int gb_worker_files_find(gb_worker_files *out, gb_err *err);

/* The folder of the running executable's own workers, which a suite's
 * templates name {workers}: the folder where gb_worker_files_find finds
 * worker-c (libexec/greenbench installed, <build>/workers in the build tree,
 * or GREENBENCH_LIBEXEC_DIR), which must also hold python/worker.py and
 * node/worker.js. Writes it into buf[len]. Errors as gb_worker_files_find;
 * -ENOENT for a folder that lacks one of them, with one line naming the
 * folder and what is missing. */
GB_MUST_USE int gb_workers_dir_find(char *buf, size_t len, gb_err *err);

/* The data file `name` of the running executable (e.g.
 * "data/grid-carbon-intensity.csv") into buf[len]; `what` describes it for
 * the message. Errors as gb_worker_files_find, -ENOENT naming this file. */
GB_MUST_USE int gb_data_file_find(const char *name, const char *what, char *buf, size_t len,
                                  gb_err *err);

#endif
