/* The private functions of gb_base, shared by one source file and its tests
 * (not by other libraries, which see include/greenbench only). Private
 * names carry the gbi_ prefix; the public API keeps gb_. */
#ifndef GREENBENCH_BASE_INTERNAL_H
#define GREENBENCH_BASE_INTERNAL_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "greenbench/error.h"
#include "greenbench/files.h"
#include "greenbench/paths.h"
#include "greenbench/quantile.h"
#include "greenbench/timefmt.h"

/* --- Private to files.c and its tests: a one-call whole-file replace, which
 * no other library uses (they write sets of files with gb_replace_*). */

/* Replaces name (relative to dirfd, or a path with AT_FDCWD) with
 * data[0..len): gb_replace_begin without flags, gb_write_all,
 * gb_replace_commit. Errors as those; messages name the file as name. */
GB_MUST_USE int gbi_write_file_atomic(int dirfd, const char *name, const void *data, size_t len,
                                      mode_t mode, gb_err *err);

/* --- Private to paths.c and its tests: the layout of an executable and the
 * lookup of one file in it, which gb_worker_files_find and
 * gb_data_file_find (greenbench/paths.h) do for the running one. The tests
 * give them fake installed and build trees. */

typedef enum { GB_FILES_LIBEXEC, GB_FILES_DATA } gbi_files;

/* Where an executable sits. */
typedef struct {
  char exe_dir[PATH_MAX];    /* absolute, no trailing '/' (but "/" itself) */
  char source_dir[PATH_MAX]; /* the build tree's source tree; "" outside a build tree */
} gbi_layout;

/* Reads the layout of the executable in exe_dir, or of the running one
 * (the folder of /proc/self/exe) when exe_dir is NULL: its marker, if any,
 * gives source_dir. Errors: -errno when /proc/self/exe cannot be read, or
 * the marker exists but cannot be read; -EINVAL for a marker that is not one
 * absolute path; -ENAMETOOLONG. */
GB_MUST_USE int gbi_layout_read(const char *exe_dir, gbi_layout *out, gb_err *err);

/* Finds the file `name` (relative, as in paths.h) of the given kind; `what`
 * describes it for the message ("the C worker"). Writes its absolute path
 * into buf[len] on success. Errors: -ENOENT with one line naming what was
 * looked for, every place looked in and the variable that overrides them;
 * -ENAMETOOLONG. */
GB_MUST_USE int gbi_layout_find(const gbi_layout *l, gbi_files kind, const char *name,
                                const char *what, char *buf, size_t len, gb_err *err);

/* The folder of greenbench's own workers in l (the suites' {workers}): the
 * folder where gbi_layout_find finds worker-c, which must hold
 * python/worker.py and node/worker.js as well. Writes it into buf[len].
 * Errors: those of gbi_layout_find for worker-c; -ENOENT with one line
 * naming the folder and what it lacks; -ENAMETOOLONG. */
GB_MUST_USE int gbi_layout_workers_dir(const gbi_layout *l, char *buf, size_t len, gb_err *err);

/* --- Private to quantile.c and its tests: the checked p-quantile of an
 * unsorted sample, which gb_median is with p = 0.5. */

/* Type 7 p-quantile of x, which is left unchanged (a copy is selected on).
 * Errors: -EINVAL when n == 0, p is outside [0, 1] or NaN, or x holds a NaN;
 * -ENOMEM. *out is set only on success. */
GB_MUST_USE int gbi_quantile(const double *x, size_t n, double p, double *out, gb_err *err);

/* --- Private to timefmt.c and its tests: the compact stamp with its errors,
 * which gb_utc_stamp_or_empty (greenbench/timefmt.h) gives a folder's name
 * without them. */

/* The instant as "20240501T120000Z"; errors as gb_utc_iso8601, with
 * GB_UTC_STAMP_SIZE. */
GB_MUST_USE int gbi_utc_stamp(int64_t seconds, char *buf, size_t len);

#endif
