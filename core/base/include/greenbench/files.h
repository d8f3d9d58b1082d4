/* Reading and writing whole files: every byte written or an error, a small
 * kernel file (sysfs, procfs) read whole and bounded, and a file replaced
 * whole or not at all, so a crash or a full disk never leaves half of one.
 * Part of gb_base. */
#ifndef GREENBENCH_FILES_H
#define GREENBENCH_FILES_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "greenbench/error.h"

/* write(2) as a writer calls it, so tests can inject short writes, EINTR
 * and ENOSPC: returns what write returns, with errno set on failure. */
typedef ssize_t (*gb_write_fn)(int fd, const void *buf, size_t len, void *ctx);

/* Writes all len bytes of buf to fd, going on after a short write and
 * retrying a write interrupted by a signal (EINTR). Returns 0, or -errno of
 * the write that failed (-EIO for one that wrote nothing); an unknown
 * number of bytes may have been written then. */
GB_MUST_USE int gb_write_all(int fd, const void *buf, size_t len);

/* gb_write_all through fn(fd, ..., ctx) in place of write(2); fn NULL is
 * write(2). */
GB_MUST_USE int gb_write_all_with(gb_write_fn fn, void *ctx, int fd, const void *buf,
                                  size_t len);

/* Reads the small file at path whole (a sysfs or procfs attribute, a marker
 * file) into buf[cap], cap >= 2, NUL-terminated, its length without the NUL
 * into *len; the text is not trimmed. Reads to the end of the file,
 * retrying after EINTR. Errors, with a message naming path: -errno "cannot
 * open <path>: ..." or "cannot read <path>: ..."; -EFBIG "<path>: more
 * than <cap - 1> bytes" when the file does not fit, so a long file is never
 * taken cut short. buf holds "" after a failure. */
GB_MUST_USE int gb_read_small_file(const char *path, char *buf, size_t cap, size_t *len,
                                   gb_err *err);

/* The one rule of every writer (report, pack, compare, the harness, the
 * suite): a file is replaced only where there is nothing or a regular file.
 * Returns 0 when name (relative to dirfd, AT_FDCWD for a path) is absent
 * or a regular file, or name is "-" with dirfd AT_FDCWD (standard output,
 * written through in place). Anything else, not followed: -EINVAL "<shown
 * or name>: is a character device (a block device, a FIFO, a socket, a
 * symbolic link, a folder); refusing to replace it, only a regular file is
 * replaced"; -errno "<name>: ..." when it cannot be looked at. */
GB_MUST_USE int gb_output_check(int dirfd, const char *name, gb_err *err);

/* What a file of mode m that is not a regular file is, for a refusal: "a
 * character device", "a block device", "a FIFO", "a socket", "a symbolic
 * link", "a folder", or "not a regular file". */
const char *gb_file_kind(mode_t m);

/* Opens path for writing from its start, for a file written as it goes (a
 * log): what gb_output_check refuses is refused, the last component is
 * never followed (O_NOFOLLOW), and what was opened must be a regular file
 * (a FIFO or device put there meanwhile is refused, never truncated,
 * never blocked on); then it is truncated. Mode 0644 less the umask for a
 * new file. Returns 0 with *fd, or -errno with the message. */
GB_MUST_USE int gb_output_open(const char *path, int *fd, gb_err *err);

/* True for "-", standard output, where an output path may be one. */
bool gb_output_is_stdout(const char *name);

/* gb_replace_begin's flags. */
enum {
  /* The caller is the folder's only writer (it holds a lock on it): the
   * temporary file is always <name>.tmp, and whatever has that name (a
   * crash's leftover, a link someone planted) is removed first, never
   * followed. Without the flag the temporary file has a new name,
   * <name>.tmp-XXXXXX, so that two writers of one file never share one. */
  GB_REPLACE_OWN_FOLDER = 1,
};

/* A file being replaced whole: written to a temporary file beside it,
 * flushed to disk, then renamed over it and the folder flushed, so that
 * after a crash the file is the old one or the new one, never a mix. */
typedef struct {
  int dirfd;           /* the folder, or AT_FDCWD for a path */
  int fd;              /* the temporary file, to write to; -1 once flushed */
  const char *shown;   /* the folder as messages name it, or NULL */
  char name[PATH_MAX]; /* the file, relative to dirfd */
  char tmp[PATH_MAX];  /* the temporary file, relative to dirfd */
  bool pending;        /* the temporary file exists */
  bool to_stdout;      /* name is "-": fd is a copy of standard output */
} gb_replace;

/* Starts replacing name, relative to the folder dirfd (AT_FDCWD: name is a
 * path, relative or absolute, and its folder is flushed through that
 * path): refuses what gb_output_check refuses (before anything is made;
 * "-" with AT_FDCWD writes to standard output, no temporary file), creates
 * the temporary file with O_EXCL and O_NOFOLLOW, so never
 * through a link, with mode less the umask, as open(2) gives it. Write to
 * r->fd, then gb_replace_commit, or gb_replace_abort. shown, when not NULL,
 * is the folder as messages name it ("<shown>/<name>"; it must outlive r).
 * Errors: -ENAMETOOLONG "<name>: path too long" (no room for the temporary
 * name); -errno "cannot remove <tmp>: ..." (the old temporary file,
 * GB_REPLACE_OWN_FOLDER) or "cannot write <tmp>: ...", with r->tmp naming
 * the temporary file for the caller's own message. gb_replace_abort is
 * safe after any failure. */
GB_MUST_USE int gb_replace_begin(gb_replace *r, int dirfd, const char *shown, const char *name,
                                 mode_t mode, unsigned flags, gb_err *err);

/* Flushes the temporary file to disk (fsync) and closes it; a set of files
 * is flushed first and committed after, so that a full disk stops it
 * before any file is replaced. Errors: -errno "cannot write <name>: ...";
 * the temporary file is kept for gb_replace_abort. Does nothing the second
 * time. */
GB_MUST_USE int gb_replace_flush(gb_replace *r, gb_err *err);

/* Flushes (gb_replace_flush) when not done yet, checks name again with
 * gb_output_check (what appeared there meanwhile is refused, not
 * replaced), renames the temporary file over name and flushes the folder, so the rename
 * survives a crash (a folder that cannot be flushed, EINVAL, is left as it is). Errors: -errno
 * "cannot write <name>: ..."; before the rename, the temporary file is
 * removed and name is untouched; after it (the folder's flush failed), name
 * is the new file. */
GB_MUST_USE int gb_replace_commit(gb_replace *r, gb_err *err);

/* Gives up: closes and removes the temporary file; name is untouched. Safe
 * after a failed begin or a commit. */
void gb_replace_abort(gb_replace *r);

/* Removes every temporary file of a gb_replace begun and not yet committed
 * or aborted (up to GB_REPLACE_TRACKED at once), for a signal handler that
 * is about to exit: async-signal-safe (unlinkat only). */
#define GB_REPLACE_TRACKED 16
void gb_replace_remove_pending(void);

#endif
