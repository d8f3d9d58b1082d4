#include "greenbench/files.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base_internal.h"
#include "greenbench/paths.h"
#include "greenbench/rng.h"

/* Attempts at a free temporary name before giving up, as mkstemp does. */
#define TEMP_TRIES 100

int gb_write_all_with(gb_write_fn fn, void *ctx, int fd, const void *buf, size_t len) {
  const char *p = buf;
  while (len > 0) {
    ssize_t n = fn ? fn(fd, p, len, ctx) : write(fd, p, len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return n < 0 ? -errno : -EIO;
    p += n;
    len -= (size_t)n;
  }
  return 0;
}

int gb_write_all(int fd, const void *buf, size_t len) {
  return gb_write_all_with(NULL, NULL, fd, buf, len);
}

int gb_read_small_file(const char *path, char *buf, size_t cap, size_t *len, gb_err *err) {
  buf[0] = '\0';
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return gb_err_set(err, errno, "cannot open %s: %s", path, strerror(errno));
  size_t used = 0;
  int rc = 0;
  for (;;) {
    /* Once buf is full, one byte more tells a file that fits from one
     * that does not. */
    char extra;
    bool full = used == cap - 1;
    ssize_t n = read(fd, full ? &extra : buf + used, full ? 1 : cap - 1 - used);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 || (n > 0 && full)) {
      rc = n < 0 ? -errno : -EFBIG;
      break;
    }
    if (n == 0)
      break;
    used += (size_t)n;
  }
  close(fd);
  buf[rc < 0 ? 0 : used] = '\0';
  if (rc == -EFBIG)
    return gb_err_set(err, EFBIG, "%s: more than %zu bytes", path, cap - 1);
  if (rc < 0)
    return gb_err_set(err, -rc, "cannot read %s: %s", path, strerror(-rc));
  *len = used;
  return 0;
}

/* The replaces under way, for gb_replace_remove_pending: a slot holds its
 * gb_replace from the temporary file's creation to its rename or removal. */
static gb_replace *volatile pending_slots[GB_REPLACE_TRACKED];

static void track(gb_replace *r) {
  for (size_t i = 0; i < GB_REPLACE_TRACKED; i++)
    if (!pending_slots[i]) {
      pending_slots[i] = r;
      return;
    }
}

static void untrack(const gb_replace *r) {
  for (size_t i = 0; i < GB_REPLACE_TRACKED; i++)
    if (pending_slots[i] == r)
      pending_slots[i] = NULL;
}

void gb_replace_remove_pending(void) {
  for (size_t i = 0; i < GB_REPLACE_TRACKED; i++) {
    gb_replace *r = pending_slots[i];
    if (r && r->pending)
      unlinkat(r->dirfd, r->tmp, 0);
  }
}

/* Messages name a file of r as "<shown>/<file>", or "<file>". */
static int fail(const gb_replace *r, int code, const char *what, const char *file,
                gb_err *err) {
  return gb_err_set(err, code, "%s %s%s%s: %s", what, r->shown ? r->shown : "",
                    r->shown ? "/" : "", file, strerror(code));
}

/* Six letters or digits for a temporary name, different in every call. */
static void temp_suffix(char out[7]) {
  static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  static _Thread_local uint64_t state;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  state += (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30 ^ (uint64_t)getpid() << 40;
  uint64_t v = gb_splitmix64_next(&state);
  for (int i = 0; i < 6; i++, v /= sizeof digits - 1)
    out[i] = digits[v % (sizeof digits - 1)];
  out[6] = '\0';
}

/* r->tmp = r->name and suffix; gb_replace_begin made sure it fits. */
static void set_tmp(gb_replace *r, const char *suffix) {
  int n = snprintf(r->tmp, sizeof r->tmp, "%s%s", r->name, suffix);
  assert(n >= 0 && (size_t)n < sizeof r->tmp);
  (void)n;
}

/* The temporary file of r, created; its descriptor or -errno. */
static int create_temp(gb_replace *r, mode_t mode, unsigned flags, gb_err *err) {
  const int how = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
  if (flags & GB_REPLACE_OWN_FOLDER) {
    set_tmp(r, ".tmp");
    if (unlinkat(r->dirfd, r->tmp, 0) < 0 && errno != ENOENT)
      return fail(r, errno, "cannot remove", r->tmp, err);
    int fd = openat(r->dirfd, r->tmp, how, mode);
    return fd >= 0 ? fd : fail(r, errno, "cannot write", r->tmp, err);
  }
  int fd = -1;
  for (int i = 0; i < TEMP_TRIES && fd < 0; i++) {
    char suffix[] = ".tmp-XXXXXX";
    temp_suffix(suffix + 5);
    set_tmp(r, suffix);
    fd = openat(r->dirfd, r->tmp, how, mode);
    if (fd < 0 && errno != EEXIST)
      break;
  }
  if (fd < 0) {
    int e = errno;
    set_tmp(r, ".tmp-XXXXXX");
    return fail(r, e, "cannot write", r->tmp, err);
  }
  return fd;
}

bool gb_output_is_stdout(const char *name) {
  return name && strcmp(name, "-") == 0;
}

const char *gb_file_kind(mode_t m) {
  return S_ISCHR(m)    ? "a character device"
         : S_ISBLK(m)  ? "a block device"
         : S_ISFIFO(m) ? "a FIFO"
         : S_ISSOCK(m) ? "a socket"
         : S_ISLNK(m)  ? "a symbolic link"
         : S_ISDIR(m)  ? "a folder"
                       : "not a regular file";
}

static int check_output(int dirfd, const char *shown, const char *name, gb_err *err) {
  struct stat st;
  if (dirfd == AT_FDCWD && gb_output_is_stdout(name))
    return 0;
  if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
    return errno == ENOENT ? 0
                           : gb_err_set(err, errno, "%s%s%s: %s", shown ? shown : "",
                                        shown ? "/" : "", name, strerror(errno));
  if (S_ISREG(st.st_mode))
    return 0;
  return gb_err_set(err, EINVAL,
                    "%s%s%s: is %s; refusing to replace it (only a regular file is replaced)",
                    shown ? shown : "", shown ? "/" : "", name, gb_file_kind(st.st_mode));
}

int gb_output_check(int dirfd, const char *name, gb_err *err) {
  return check_output(dirfd, NULL, name, err);
}

int gb_output_open(const char *path, int *fd, gb_err *err) {
  struct stat st;
  int rc = check_output(AT_FDCWD, NULL, path, err);
  if (rc < 0)
    return rc;
  *fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
  if (*fd < 0)
    return gb_err_set(err, errno, "%s: cannot write: %s", path, strerror(errno));
  if (fstat(*fd, &st) < 0 || !S_ISREG(st.st_mode))
    rc = gb_err_set(err, EINVAL,
                    "%s: is %s; refusing to replace it (only a regular file is replaced)", path,
                    gb_file_kind(st.st_mode));
  else if (ftruncate(*fd, 0) < 0 || fcntl(*fd, F_SETFL, 0) < 0)
    rc = gb_err_set(err, errno, "%s: cannot write: %s", path, strerror(errno));
  if (rc < 0) {
    close(*fd);
    *fd = -1;
  }
  return rc;
}

int gb_replace_begin(gb_replace *r, int dirfd, const char *shown, const char *name, mode_t mode,
                     unsigned flags, gb_err *err) {
  *r = (gb_replace){.dirfd = dirfd, .fd = -1, .shown = shown};
  if (strlen(name) + sizeof ".tmp-XXXXXX" > sizeof r->name)
    return gb_err_set(err, ENAMETOOLONG, "%s%s%s: path too long", shown ? shown : "",
                      shown ? "/" : "", name);
  memcpy(r->name, name, strlen(name) + 1);
  int rc = check_output(dirfd, shown, name, err);
  if (rc < 0)
    return rc;
  if (dirfd == AT_FDCWD && gb_output_is_stdout(name)) {
    r->to_stdout = true;
    r->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    return r->fd >= 0 ? 0 : fail(r, errno, "cannot write", "standard output", err);
  }
  int fd = create_temp(r, mode, flags, err);
  if (fd < 0)
    return fd;
  r->fd = fd;
  r->pending = true;
  track(r);
  return 0;
}

int gb_replace_flush(gb_replace *r, gb_err *err) {
  if (r->fd < 0)
    return 0;
  /* Standard output may be a pipe or a terminal, which cannot be flushed. */
  int rc = fsync(r->fd) < 0 && !(r->to_stdout && errno == EINVAL) ? -errno : 0;
  if (close(r->fd) < 0 && rc == 0)
    rc = -errno;
  r->fd = -1;
  return rc < 0 ? fail(r, -rc, "cannot write", r->name, err) : 0;
}

/* Flushes the folder of r's file: dirfd, or the folder part of the path. */
static int flush_folder(const gb_replace *r) {
  int fd = r->dirfd;
  if (r->dirfd == AT_FDCWD) {
    char dir[PATH_MAX];
    if (gb_path_dir(dir, sizeof dir, r->name) < 0) /* never: shorter than the name */
      return -ENAMETOOLONG;
    fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
      return -errno;
  }
  int rc = fsync(fd) < 0 && errno != EINVAL ? -errno : 0;
  if (fd != r->dirfd)
    close(fd);
  return rc;
}

int gb_replace_commit(gb_replace *r, gb_err *err) {
  int rc = gb_replace_flush(r, err);
  if (r->to_stdout)
    return rc;
  if (rc == 0)
    rc = check_output(r->dirfd, r->shown, r->name, err);
  if (rc == 0 && renameat(r->dirfd, r->tmp, r->dirfd, r->name) < 0)
    rc = fail(r, errno, "cannot write", r->name, err);
  if (rc < 0) {
    gb_replace_abort(r);
    return rc;
  }
  r->pending = false;
  untrack(r);
  rc = flush_folder(r);
  return rc < 0 ? fail(r, -rc, "cannot write", r->name, err) : 0;
}

void gb_replace_abort(gb_replace *r) {
  if (r->fd >= 0)
    close(r->fd);
  r->fd = -1;
  if (r->pending)
    unlinkat(r->dirfd, r->tmp, 0);
  r->pending = false;
  untrack(r);
}

int gbi_write_file_atomic(int dirfd, const char *name, const void *data, size_t len,
                          mode_t mode, gb_err *err) {
  gb_replace r;
  int rc = gb_replace_begin(&r, dirfd, NULL, name, mode, 0, err);
  if (rc < 0)
    return rc;
  rc = gb_write_all(r.fd, data, len);
  if (rc < 0) {
    gb_replace_abort(&r);
    return fail(&r, -rc, "cannot write", name, err);
  }
  return gb_replace_commit(&r, err);
}
