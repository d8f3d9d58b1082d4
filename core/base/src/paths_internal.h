/* Private to paths.c and its tests: the layout of an executable and the
 * lookup of one file in it, which gb_worker_files_find and
 * gb_data_file_find (greenbench/paths.h) do for the running one. The tests
 * give them fake installed and build trees. */
#ifndef GREENBENCH_PATHS_INTERNAL_H
#define GREENBENCH_PATHS_INTERNAL_H

#include <limits.h>
#include <stddef.h>

#include "greenbench/error.h"
#include "greenbench/paths.h"

typedef enum { GB_FILES_LIBEXEC, GB_FILES_DATA } gb_files;

/* Where an executable sits. */
typedef struct {
  char exe_dir[PATH_MAX];    /* absolute, no trailing '/' (but "/" itself) */
  char source_dir[PATH_MAX]; /* the build tree's source tree; "" outside a build tree */
} gb_layout;

/* Reads the layout of the executable in exe_dir, or of the running one
 * (the folder of /proc/self/exe) when exe_dir is NULL: its marker, if any,
 * gives source_dir. Errors: -errno when /proc/self/exe cannot be read, or
 * the marker exists but cannot be read; -EINVAL for a marker that is not one
 * absolute path; -ENAMETOOLONG. */
GB_MUST_USE int gb_layout_read(const char *exe_dir, gb_layout *out, gb_err *err);

/* Finds the file `name` (relative, as in paths.h) of the given kind; `what`
 * describes it for the message ("the C worker"). Writes its absolute path
 * into buf[len] on success. Errors: -ENOENT with one line naming what was
 * looked for, every place looked in and the variable that overrides them;
 * -ENAMETOOLONG. */
GB_MUST_USE int gb_layout_find(const gb_layout *l, gb_files kind, const char *name,
                               const char *what, char *buf, size_t len, gb_err *err);

#endif
