/* A records folder on disk: read each file whole, then parse it in memory
 * with the same functions the fuzz target drives. O_NONBLOCK: a FIFO put in
 * place of a file is refused (not a regular file) instead of blocking. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "greenbench/files.h"
#include "greenbench/paths.h"
#include "greenbench/records_read.h"
#include "records_internal.h"

/* Far beyond a study folder (~1 MB), small enough to refuse a wrong file. */
#define MAX_FILE_BYTES (256u << 20)

/* The whole file from offset 0 (pread: the caller's offset stays), to its
 * end rather than to st_size, as the harness may still be appending. */
int gbi_file_read_all(int fd, const char *path, char **out, size_t *out_len, gb_err *err) {
  struct stat st;
  if (fstat(fd, &st) < 0)
    return gb_err_set(err, errno, "%s: cannot stat: %s", path, strerror(errno));
  if (!S_ISREG(st.st_mode))
    return gb_err_set(err, EINVAL, "%s: not a regular file (%s)", path,
                      gb_file_kind(st.st_mode));
  if (st.st_size > MAX_FILE_BYTES)
    return gb_err_set(err, EFBIG, "%s: larger than %u MiB", path, MAX_FILE_BYTES >> 20);
  size_t cap = (size_t)st.st_size + 1, len = 0;
  char *buf = malloc(cap);
  if (!buf)
    return gb_err_set(err, ENOMEM, "%s: out of memory", path);
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
    ssize_t n = pread(fd, buf + len, cap - len, (off_t)len);
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

static int read_meta(const gb_records_files *f, gb_meta *meta, gb_err *err) {
  char path[4096], *buf;
  size_t len;
  int rc;
  if ((rc = gb_path_join(path, sizeof path, f->dir, "meta.json", err)) < 0 ||
      (rc = gbi_file_read_all(f->meta_fd, path, &buf, &len, err)) < 0)
    return rc;
  rc = gb_meta_parse(buf, len, path, meta, err);
  free(buf);
  return rc;
}

/* Reads one CSV file from fd (-1: absent, leaving *present false); *keep
 * gets the bytes of its whole lines. */
static int read_csv(const gb_records_files *f, int fd, const char *file, gb_rec_file which,
                    const gb_meta *meta, gbi_rec_rules *rules, bool *present, gb_rec_table *t,
                    uint64_t *keep, gb_err *err) {
  char path[4096], *buf;
  size_t len;
  int rc;
  *present = false;
  *keep = 0;
  if (fd < 0)
    return 0;
  if ((rc = gb_path_join(path, sizeof path, f->dir, file, err)) < 0 ||
      (rc = gbi_file_read_all(fd, path, &buf, &len, err)) < 0)
    return rc;
  if (f->cut_last_line)
    while (len > 0 && buf[len - 1] != '\n')
      len--;
  rc = gbi_records_parse_csv_rules(buf, len, path, which, meta, rules, t, err);
  free(buf);
  *present = rc == 0;
  *keep = len;
  return rc;
}

/* The rules both CSV files are read with, so the workload's counts are
 * computed once per configuration for the folder. */
static int new_rules(const char *dir, const gb_meta *meta, gbi_rec_rules **out, gb_err *err) {
  char path[4096];
  int rc = gb_path_join(path, sizeof path, dir, "meta.json", err);
  return rc < 0 ? rc : gbi_rec_rules_new(meta, path, out, err);
}

int gb_records_read_files(const gb_records_files *f, gb_records **out, uint64_t keep[2],
                          gb_err *err) {
  gb_records *r = calloc(1, sizeof *r);
  gbi_rec_rules *rules = NULL;
  uint64_t kept[2] = {0, 0};
  bool present;
  int rc;
  if (!r)
    return gb_err_set(err, ENOMEM, "%s: out of memory", f->dir);
  if ((rc = read_meta(f, &r->meta, err)) < 0 ||
      (rc = new_rules(f->dir, &r->meta, &rules, err)) < 0 ||
      (rc = read_csv(f, f->runs_fd, "runs.csv", GB_REC_FILE_RUNS, &r->meta, rules, &present,
                     &r->runs, &kept[0], err)) < 0 ||
      (rc = read_csv(f, f->warmups_fd, "warmups.csv", GB_REC_FILE_WARMUPS, &r->meta, rules,
                     &r->has_warmups, &r->warmups, &kept[1], err)) < 0) {
    gbi_rec_rules_free(rules);
    gb_records_free(r);
    return rc;
  }
  gbi_rec_rules_free(rules);
  if (keep)
    memcpy(keep, kept, sizeof kept);
  *out = r;
  return 0;
}

/* Opens dir/file for reading; -ENOENT (message set) when it does not exist. */
int gbi_file_open_in(const char *dir, const char *file, int *fd, gb_err *err) {
  char path[4096];
  int rc = gb_path_join(path, sizeof path, dir, file, err);
  if (rc < 0)
    return rc;
  if ((*fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
    return gb_err_set(err, errno, "%s: cannot open: %s", path, strerror(errno));
  return 0;
}

int gb_records_read(const char *dir, gb_records **out, gb_err *err) {
  gb_records_files f = {.dir = dir, .meta_fd = -1, .runs_fd = -1, .warmups_fd = -1};
  gb_err e;
  int rc = gbi_file_open_in(dir, "meta.json", &f.meta_fd, err);
  if (rc == 0)
    rc = gbi_file_open_in(dir, "runs.csv", &f.runs_fd, err);
  if (rc == 0 && (rc = gbi_file_open_in(dir, "warmups.csv", &f.warmups_fd, &e)) < 0) {
    if (rc == -ENOENT)
      rc = 0; /* warmups.csv is optional */
    else
      *err = e;
  }
  if (rc == 0)
    rc = gb_records_read_files(&f, out, NULL, err);
  gb_records_files_close(&f);
  return rc;
}

void gb_records_files_close(gb_records_files *f) {
  int *fds[] = {&f->meta_fd, &f->runs_fd, &f->warmups_fd};
  for (size_t i = 0; i < 3; i++) {
    if (*fds[i] >= 0)
      close(*fds[i]);
    *fds[i] = -1;
  }
}

void gb_records_free(gb_records *r) {
  if (!r)
    return;
  gb_meta_free(&r->meta);
  gb_rec_table_free(&r->runs);
  gb_rec_table_free(&r->warmups);
  free(r);
}
