/* Private to files.c and its tests: a one-call whole-file replace, which
 * no other library uses (they write sets of files with gb_replace_*). */
#ifndef GREENBENCH_FILES_INTERNAL_H
#define GREENBENCH_FILES_INTERNAL_H

#include <stddef.h>
#include <sys/types.h>

#include "greenbench/error.h"
#include "greenbench/files.h"

/* Replaces name (relative to dirfd, or a path with AT_FDCWD) with
 * data[0..len): gb_replace_begin without flags, gb_write_all,
 * gb_replace_commit. Errors as those; messages name the file as name. */
GB_MUST_USE int gb_write_file_atomic(int dirfd, const char *name, const void *data, size_t len,
                                     mode_t mode, gb_err *err);

#endif
