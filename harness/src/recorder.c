#include "greenbench/recorder.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct gb_recorder {
  char dir[PATH_MAX];
  int fd[2]; /* runs.csv, warmups.csv */
  const gb_privilege *owner;
  gb_write_fn write;
  void *write_ctx;
};

static const char *const file_names[2] = {"runs.csv", "warmups.csv"};

static ssize_t plain_write(int fd, const void *buf, size_t len, void *ctx) {
  (void)ctx;
  return write(fd, buf, len);
}

static int path_in(const gb_recorder *r, const char *name, char *buf, size_t len, gb_err *err) {
  if (snprintf(buf, len, "%s/%s", r->dir, name) >= (int)len)
    return gb_err_set(err, ENAMETOOLONG, "path too long: %s/%s", r->dir, name);
  return 0;
}

static int write_all(gb_recorder *r, int fd, const char *buf, size_t len) {
  while (len > 0) {
    ssize_t n = r->write(fd, buf, len, r->write_ctx);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return n < 0 ? -errno : -EIO;
    buf += n;
    len -= (size_t)n;
  }
  return 0;
}

static int folder_is_empty(const char *dir, bool *empty) {
  DIR *d = opendir(dir);
  if (!d)
    return -errno;
  struct dirent *e;
  *empty = true;
  while ((e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
      *empty = false;
  closedir(d);
  return 0;
}

/* mkdir -p, giving each created folder to the owner. */
static int make_folder(const char *dir, const gb_privilege *owner, gb_err *err) {
  char buf[PATH_MAX];
  if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf)
    return gb_err_set(err, ENAMETOOLONG, "path too long: %s", dir);
  for (char *p = buf + 1;; p++) {
    bool last = *p == '\0';
    if (*p == '/' || last) {
      *p = '\0';
      if (mkdir(buf, 0755) == 0) {
        if (owner && gb_privilege_chown_path(owner, buf, err) < 0)
          return -EPERM;
      } else if (errno != EEXIST) {
        return gb_err_set(err, errno, "cannot create folder %s: %s", buf, strerror(errno));
      }
      if (last)
        return 0;
      *p = '/';
    }
  }
}

/* Drops a cut-short last line (no final newline) from a resumed file. */
static int drop_partial_line(int fd, const char *path, bool *dropped, gb_err *err) {
  off_t size = lseek(fd, 0, SEEK_END), keep = size;
  char c;
  while (keep > 0 && pread(fd, &c, 1, keep - 1) == 1 && c != '\n')
    keep--;
  if (keep != size) {
    if (ftruncate(fd, keep) < 0 || fsync(fd) < 0)
      return gb_err_set(err, errno, "cannot cut the partial last line of %s: %s", path,
                        strerror(errno));
    *dropped = true;
  }
  return 0;
}

static int open_csv(gb_recorder *r, int which, bool resume, bool *dropped, gb_err *err) {
  char path[PATH_MAX];
  int rc = path_in(r, file_names[which], path, sizeof path, err);
  if (rc < 0)
    return rc;
  int fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return gb_err_set(err, errno, "cannot open %s: %s", path, strerror(errno));
  r->fd[which] = fd;
  if (r->owner && gb_privilege_chown_path(r->owner, path, err) < 0)
    return -EPERM;
  if (lseek(fd, 0, SEEK_END) > 0)
    return resume ? drop_partial_line(fd, path, dropped, err) : 0;
  char header[GB_REC_LINE_MAX];
  int len = gb_records_header(header, sizeof header);
  if (len < 0 || (rc = write_all(r, fd, header, (size_t)len)) < 0 || fsync(fd) < 0) {
    rc = rc < 0 ? rc : -errno;
    return gb_err_set(err, -rc, "cannot write the header of %s: %s", path, strerror(-rc));
  }
  return 0;
}

static int check_folder(const gb_recorder_opts *o, gb_err *err) {
  bool empty = false;
  int rc = folder_is_empty(o->dir, &empty);
  if (rc < 0)
    return gb_err_set(err, -rc, "cannot read folder %s: %s", o->dir, strerror(-rc));
  if (!o->resume && !empty)
    return gb_err_set(err, EEXIST,
                      "%s is not empty: records are never overwritten (choose a new --out, "
                      "or --resume it)",
                      o->dir);
  if (o->resume) {
    char path[PATH_MAX];
    for (int i = 0; i < 2; i++) {
      const char *need = i ? "meta.json" : "runs.csv";
      if (snprintf(path, sizeof path, "%s/%s", o->dir, need) >= (int)sizeof path ||
          access(path, F_OK) < 0)
        return gb_err_set(err, ENOENT, "cannot resume %s: %s is missing", o->dir, need);
    }
  }
  return 0;
}

int gb_recorder_open(const gb_recorder_opts *o, gb_recorder **out, bool *dropped_partial,
                     gb_err *err) {
  int rc = o->resume ? 0 : make_folder(o->dir, o->owner, err);
  if (rc < 0 || (rc = check_folder(o, err)) < 0)
    return rc;
  gb_recorder *r = calloc(1, sizeof *r);
  if (!r)
    return gb_err_set(err, ENOMEM, "out of memory");
  snprintf(r->dir, sizeof r->dir, "%s", o->dir);
  r->fd[0] = r->fd[1] = -1;
  r->owner = o->owner && gb_privilege_drops(o->owner) ? o->owner : NULL;
  r->write = o->write ? o->write : plain_write;
  r->write_ctx = o->write_ctx;
  bool dropped = false, ignored = false;
  if ((rc = open_csv(r, 0, o->resume, &dropped, err)) < 0 ||
      (rc = open_csv(r, 1, o->resume, &ignored, err)) < 0) {
    gb_recorder_close(r);
    return rc;
  }
  if (dropped_partial)
    *dropped_partial = dropped;
  *out = r;
  return 0;
}

void gb_recorder_close(gb_recorder *r) {
  if (!r)
    return;
  for (int i = 0; i < 2; i++)
    if (r->fd[i] >= 0)
      close(r->fd[i]);
  free(r);
}

const char *gb_recorder_dir(const gb_recorder *r) {
  return r->dir;
}

int gb_recorder_append(gb_recorder *r, gb_rec_file which, const gb_run_row *row, gb_err *err) {
  char line[GB_REC_LINE_MAX];
  int fd = r->fd[which == GB_REC_FILE_WARMUPS];
  const char *name = file_names[which == GB_REC_FILE_WARMUPS];
  int len = gb_records_format_row(row, line, sizeof line);
  if (len < 0)
    return gb_err_set(err, -len, "cannot format row %llu for %s/%s",
                      (unsigned long long)row->run, r->dir, name);
  off_t before = lseek(fd, 0, SEEK_END);
  int rc = write_all(r, fd, line, (size_t)len);
  if (rc == 0 && fsync(fd) < 0)
    rc = -errno;
  if (rc < 0) {
    /* Never leave half a row: cut the file back to where it was. */
    if (before >= 0 && ftruncate(fd, before) == 0)
      fsync(fd);
    return gb_err_set(err, -rc, "cannot append to %s/%s: %s (the row was not recorded)", r->dir,
                      name, strerror(-rc));
  }
  return 0;
}

/* Writes name whole or not at all: a temporary file, fsync, rename. */
static int replace_file(gb_recorder *r, const char *name, const char *text, gb_err *err) {
  char path[PATH_MAX], tmp[PATH_MAX];
  int rc = path_in(r, name, path, sizeof path, err);
  if (rc < 0)
    return rc;
  if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
    return gb_err_set(err, ENAMETOOLONG, "path too long: %s.tmp", path);
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return gb_err_set(err, errno, "cannot write %s: %s", tmp, strerror(errno));
  rc = write_all(r, fd, text, strlen(text));
  if (rc == 0 && fsync(fd) < 0)
    rc = -errno;
  close(fd);
  if (rc == 0 && rename(tmp, path) < 0)
    rc = -errno;
  if (rc < 0) {
    unlink(tmp);
    return gb_err_set(err, -rc, "cannot write %s: %s", path, strerror(-rc));
  }
  if (r->owner && gb_privilege_chown_path(r->owner, path, err) < 0)
    return -EPERM;
  return 0;
}

int gb_recorder_write_meta(gb_recorder *r, const gb_meta *m, gb_err *err) {
  char path[PATH_MAX];
  int rc = path_in(r, "meta.json", path, sizeof path, err);
  if (rc < 0 || (rc = gb_meta_check(m, path, err)) < 0)
    return rc;
  cJSON *json = gb_meta_to_json(m);
  char *text = json ? cJSON_Print(json) : NULL;
  cJSON_Delete(json);
  if (!text)
    return gb_err_set(err, ENOMEM, "out of memory writing %s", path);
  size_t n = strlen(text);
  char *with_newline = realloc(text, n + 2);
  if (!with_newline) {
    free(text);
    return gb_err_set(err, ENOMEM, "out of memory writing %s", path);
  }
  memcpy(with_newline + n, "\n", 2);
  rc = replace_file(r, "meta.json", with_newline, err);
  free(with_newline);
  return rc;
}

int gb_recorder_write_text(gb_recorder *r, const char *name, const char *text, gb_err *err) {
  return replace_file(r, name, text, err);
}
