/* A records folder on disk: read each file whole, then parse it in memory
 * with the same functions the fuzz target drives. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "greenbench/records.h"

/* Far beyond a study folder (~1 MB), small enough to refuse a wrong file. */
#define MAX_FILE_BYTES (256u << 20)

static int read_all(int fd, const char *path, char **out, size_t *out_len, gb_err *err) {
  struct stat st;
  if (fstat(fd, &st) < 0)
    return gb_err_set(err, errno, "%s: cannot stat: %s", path, strerror(errno));
  if (!S_ISREG(st.st_mode))
    return gb_err_set(err, EINVAL, "%s: not a regular file", path);
  if (st.st_size > MAX_FILE_BYTES)
    return gb_err_set(err, EFBIG, "%s: larger than %u MiB", path, MAX_FILE_BYTES >> 20);
  size_t cap = (size_t)st.st_size + 1, len = 0;
  char *buf = malloc(cap);
  if (!buf)
    return gb_err_set(err, ENOMEM, "%s: out of memory", path);
  /* Read to the end, not to st_size: the harness may still be appending. */
  for (;;) {
    if (len == cap) {
      char *p = cap < MAX_FILE_BYTES ? realloc(buf, 2 * cap) : NULL;
      if (!p) {
        free(buf);
        return gb_err_set(err, cap < MAX_FILE_BYTES ? ENOMEM : EFBIG, "%s: too large", path);
      }
      buf = p;
      cap *= 2;
    }
    ssize_t n = read(fd, buf + len, cap - len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      int e = errno;
      free(buf);
      return gb_err_set(err, e, "%s: cannot read: %s", path, strerror(e));
    }
    if (n == 0)
      break;
    len += (size_t)n;
  }
  *out = buf;
  *out_len = len;
  return 0;
}

/* The file's bytes, or -ENOENT (message set) when it does not exist. */
static int read_file(const char *path, char **out, size_t *len, gb_err *err) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return gb_err_set(err, errno, "%s: cannot open: %s", path, strerror(errno));
  int rc = read_all(fd, path, out, len, err);
  close(fd);
  return rc;
}

static int join(char *buf, size_t len, const char *dir, const char *file, gb_err *err) {
  int n = snprintf(buf, len, "%s/%s", dir, file);
  if (n < 0 || (size_t)n >= len)
    return gb_err_set(err, ENAMETOOLONG, "%s/%s: path too long", dir, file);
  return 0;
}

static int read_meta(const char *dir, gb_meta *meta, gb_err *err) {
  char path[4096], *buf;
  size_t len;
  int rc;
  if ((rc = join(path, sizeof path, dir, "meta.json", err)) < 0 ||
      (rc = read_file(path, &buf, &len, err)) < 0)
    return rc;
  rc = gb_meta_parse(buf, len, path, meta, err);
  free(buf);
  return rc;
}

/* Reads one CSV file; with optional set, a missing file leaves *present
 * false and is no error. */
static int read_csv(const char *dir, const char *file, gb_rec_file which, const gb_meta *meta,
                    bool optional, bool *present, gb_rec_table *t, gb_err *err) {
  char path[4096], *buf;
  size_t len;
  int rc;
  *present = false;
  if ((rc = join(path, sizeof path, dir, file, err)) < 0)
    return rc;
  gb_err e;
  if ((rc = read_file(path, &buf, &len, &e)) < 0) {
    if (optional && rc == -ENOENT)
      return 0;
    return gb_err_set(err, -rc, "%s", e.msg);
  }
  rc = gb_records_parse_csv(buf, len, path, which, meta, t, err);
  free(buf);
  *present = rc == 0;
  return rc;
}

int gb_records_read(const char *dir, gb_records **out, gb_err *err) {
  gb_records *r = calloc(1, sizeof *r);
  bool present;
  int rc;
  if (!r)
    return gb_err_set(err, ENOMEM, "%s: out of memory", dir);
  if ((rc = read_meta(dir, &r->meta, err)) < 0 ||
      (rc = read_csv(dir, "runs.csv", GB_REC_FILE_RUNS, &r->meta, false, &present, &r->runs,
                     err)) < 0 ||
      (rc = read_csv(dir, "warmups.csv", GB_REC_FILE_WARMUPS, &r->meta, true, &r->has_warmups,
                     &r->warmups, err)) < 0) {
    gb_records_free(r);
    return rc;
  }
  *out = r;
  return 0;
}

void gb_records_free(gb_records *r) {
  if (!r)
    return;
  gb_meta_free(&r->meta);
  gb_rec_table_free(&r->runs);
  gb_rec_table_free(&r->warmups);
  free(r);
}
