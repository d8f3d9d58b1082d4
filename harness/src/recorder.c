#include "recorder.h"

#include "greenbench/files.h"
#include "greenbench/numparse.h"
#include "greenbench/paths.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Every file of the folder is opened relative to the folder's descriptor,
 * never through a symbolic link, and not inherited by the workers. A root
 * harness writes into a folder its sudo user owns, and that user can plant
 * links in it. A new file is also O_EXCL (create_csv), so nothing planted
 * is opened; an existing one (open_existing) adds O_NONBLOCK, so that a FIFO
 * put in a file's place is opened without blocking and then refused as not
 * a regular file (check_file). */
#define IN_FOLDER (O_NOFOLLOW | O_CLOEXEC)

struct gbi_recorder {
  char dir[PATH_MAX];
  int dirfd;        /* the folder, locked (flock) for the recorder's life */
  int fd[2];        /* runs.csv, warmups.csv; -1 while absent */
  int meta_fd;      /* resume: meta.json as found, until gbi_recorder_read */
  uint64_t keep[2]; /* resume: bytes of whole lines, from gbi_recorder_read */
  bool was_read;
  bool give; /* files go to uid/gid (a root harness under sudo) */
  uid_t uid;
  gid_t gid;
  gb_write_fn write;
  void *write_ctx;
  int (*header)(char *buf, size_t len);
};

static const char *const file_names[2] = {"runs.csv", "warmups.csv"};

static int write_all(gbi_recorder *r, int fd, const char *buf, size_t len) {
  return gb_write_all_with(r->write, r->write_ctx, fd, buf, len);
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

/* The harness's own files, or its sudo user's. */
static bool owned(const gbi_recorder *r, uid_t uid) {
  return uid == geteuid() || (r->give && uid == r->uid);
}

/* A file the recorder may read and write: a regular file with no other
 * name (a hard link could point out of the folder), of the right owner. */
static int check_file(const gbi_recorder *r, int fd, const char *name, gb_err *err) {
  struct stat st;
  const char *why = NULL;
  if (fstat(fd, &st) < 0)
    return gb_err_set(err, errno, "cannot stat %s/%s: %s", r->dir, name, strerror(errno));
  if (!S_ISREG(st.st_mode))
    why = "is not a regular file";
  else if (st.st_nlink != 1)
    why = "has other hard links";
  else if (!owned(r, st.st_uid))
    why = "belongs to another user";
  if (!why)
    return 0;
  return gb_err_set(err, EPERM,
                    "%s/%s %s: greenbench writes only its own files in a records folder",
                    r->dir, name, why);
}

static int give(const gbi_recorder *r, int fd, const char *name, gb_err *err) {
  if (!r->give || fchown(fd, r->uid, r->gid) == 0)
    return 0;
  return gb_err_set(err, errno, "cannot give %s/%s to uid %u gid %u: %s", r->dir, name,
                    (unsigned)r->uid, (unsigned)r->gid, strerror(errno));
}

/* The pid of a /proc/locks line ("1: FLOCK  ADVISORY  WRITE 4242 08:01:1234
 * 0 EOF") that holds a flock on the file st describes; 0 for any other line
 * (another lock, a waiter's "->" line, text that does not parse). */
static long flock_holder_of(char *line, const struct stat *st) {
  char *field[6], *save = NULL;
  size_t n = 0;
  for (char *f = strtok_r(line, " \t\n", &save); f && n < 6; f = strtok_r(NULL, " \t\n", &save))
    field[n++] = f;
  if (n < 6 || strcmp(field[1], "FLOCK") != 0)
    return 0;
  uint64_t pid, maj, min, ino;
  const char *p = field[5];
  if (gb_parse_u64(field[4], 1, INT32_MAX, &pid) < 0 ||
      gb_scan_u64(&p, 16, UINT32_MAX, &maj) < 0 || *p++ != ':' ||
      gb_scan_u64(&p, 16, UINT32_MAX, &min) < 0 || *p++ != ':' ||
      gb_parse_u64(p, 0, UINT64_MAX, &ino) < 0)
    return 0;
  if (maj != major(st->st_dev) || min != minor(st->st_dev) || ino != st->st_ino)
    return 0;
  return (long)pid;
}

/* The pid holding a flock on the file st describes, from /proc/locks; 0 when
 * not found. */
static long lock_holder(const struct stat *st) {
  FILE *f = fopen("/proc/locks", "re");
  char line[256];
  long found = 0;
  while (f && !found && fgets(line, sizeof line, f)) {
    long pid = flock_holder_of(line, st);
    if (pid != 0 && pid != (long)getpid())
      found = pid;
  }
  if (f)
    fclose(f);
  return found;
}

/* One writer per folder: an advisory lock on the folder itself, held until
 * gbi_recorder_close (or the process's death). */
static int lock_folder(gbi_recorder *r, const struct stat *st, gb_err *err) {
  if (flock(r->dirfd, LOCK_EX | LOCK_NB) == 0)
    return 0;
  if (errno != EWOULDBLOCK)
    return gb_err_set(err, errno, "cannot lock %s: %s", r->dir, strerror(errno));
  long pid = lock_holder(st);
  char who[32] = "";
  if (pid > 0)
    snprintf(who, sizeof who, " (pid %ld)", pid);
  return gb_err_set(err, EBUSY,
                    "%s is in use by another greenbench%s: one campaign writes a records "
                    "folder at a time",
                    r->dir, who);
}

/* The folder r->dir opened into r->dirfd, never through a symbolic link. */
static int open_real_folder(gbi_recorder *r, gb_err *err) {
  r->dirfd = open(r->dir, O_RDONLY | O_DIRECTORY | IN_FOLDER);
  struct stat link;
  if (r->dirfd < 0 && (errno == ELOOP || errno == ENOTDIR) && lstat(r->dir, &link) == 0 &&
      S_ISLNK(link.st_mode))
    return gb_err_set(err, ELOOP,
                      "%s is a symbolic link: records are written only into a real folder "
                      "(give its own path)",
                      r->dir);
  if (r->dirfd < 0)
    return gb_err_set(err, errno, "cannot open folder %s: %s", r->dir, strerror(errno));
  return 0;
}

/* The folder itself, never through a symbolic link, of the right owner. */
static int open_folder(gbi_recorder *r, gb_err *err) {
  int rc = open_real_folder(r, err);
  if (rc < 0)
    return rc;
  struct stat st;
  if (fstat(r->dirfd, &st) < 0)
    return gb_err_set(err, errno, "cannot stat %s: %s", r->dir, strerror(errno));
  if (!owned(r, st.st_uid))
    return gb_err_set(err, EPERM,
                      "%s belongs to uid %u: greenbench writes records only into a folder of "
                      "its own user",
                      r->dir, (unsigned)st.st_uid);
  return lock_folder(r, &st, err);
}

static int check_empty(gbi_recorder *r, gb_err *err) {
  int fd = dup(r->dirfd);
  DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
  if (!d) {
    if (fd >= 0)
      close(fd);
    return gb_err_set(err, errno, "cannot read folder %s: %s", r->dir, strerror(errno));
  }
  bool empty = true;
  for (struct dirent *e; empty && (e = readdir(d));)
    empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
  closedir(d);
  if (empty)
    return 0;
  return gb_err_set(err, EEXIST,
                    "%s is not empty: records are never overwritten (choose a new --out, "
                    "or --resume it)",
                    r->dir);
}

/* A new CSV file (O_EXCL: never one that exists, nor a planted link) with
 * its header, flushed. */
static int create_csv(gbi_recorder *r, int which, gb_err *err) {
  const char *name = file_names[which];
  int fd = openat(r->dirfd, name, O_RDWR | O_APPEND | O_CREAT | O_EXCL | IN_FOLDER, 0644);
  if (fd < 0)
    return gb_err_set(err, errno, "cannot create %s/%s: %s", r->dir, name, strerror(errno));
  r->fd[which] = fd;
  int rc = give(r, fd, name, err);
  if (rc < 0)
    return rc;
  char header[GB_REC_LINE_MAX];
  int len = r->header(header, sizeof header);
  if (len < 0 || (rc = write_all(r, fd, header, (size_t)len)) < 0 || fsync(fd) < 0) {
    rc = rc < 0 ? rc : -errno;
    return gb_err_set(err, -rc, "cannot write the header of %s/%s: %s", r->dir, name,
                      strerror(-rc));
  }
  return 0;
}

/* An existing file of a resumed folder, checked, into *fd; -ENOENT with no
 * message when it is missing. */
static int open_existing(gbi_recorder *r, const char *name, int flags, int *fd, gb_err *err) {
  int f = openat(r->dirfd, name, flags | IN_FOLDER | O_NONBLOCK);
  if (f < 0 && errno == ENOENT)
    return -ENOENT;
  if (f < 0 && errno == ELOOP)
    return gb_err_set(err, ELOOP,
                      "cannot resume %s: %s/%s is a symbolic link (greenbench never follows a "
                      "link out of a records folder)",
                      r->dir, r->dir, name);
  if (f < 0)
    return gb_err_set(err, errno, "cannot resume %s: cannot open %s: %s", r->dir, name,
                      strerror(errno));
  int rc = check_file(r, f, name, err);
  if (rc == 0 && fcntl(f, F_SETFL, flags & O_APPEND) < 0)
    rc = gb_err_set(err, errno, "cannot use %s/%s: %s", r->dir, name, strerror(errno));
  if (rc < 0) {
    close(f);
    return rc;
  }
  *fd = f;
  return 0;
}

/* The files of a resumed folder, opened and checked but not changed. */
static int open_resumed(gbi_recorder *r, gb_err *err) {
  int rc = open_existing(r, "runs.csv", O_RDWR | O_APPEND, &r->fd[0], err);
  if (rc == -ENOENT)
    return gb_err_set(err, ENOENT, "cannot resume %s: runs.csv is missing", r->dir);
  if (rc == 0 && (rc = open_existing(r, "meta.json", O_RDONLY, &r->meta_fd, err)) == -ENOENT)
    return gb_err_set(err, ENOENT,
                      "cannot resume %s: meta.json is missing, so the campaign stopped before "
                      "it recorded anything: remove %s or run with a new --out",
                      r->dir, r->dir);
  if (rc == 0 &&
      (rc = open_existing(r, "warmups.csv", O_RDWR | O_APPEND, &r->fd[1], err)) == -ENOENT)
    rc = 0; /* created by gbi_recorder_repair */
  return rc;
}

/* dir without trailing slashes: "out/" would follow a link named out. */
static int set_dir(gbi_recorder *r, const char *dir, gb_err *err) {
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/')
    n--;
  if (n >= sizeof r->dir)
    return gb_err_set(err, ENAMETOOLONG, "path too long: %s", dir);
  memcpy(r->dir, dir, n);
  r->dir[n] = '\0';
  return 0;
}

static int open_in(gbi_recorder *r, const gbi_recorder_opts *o, gb_err *err) {
  int rc = set_dir(r, o->dir, err);
  if (rc == 0 && !o->resume)
    rc = make_folder(r->dir, r->give ? o->owner : NULL, err);
  if (rc == 0)
    rc = open_folder(r, err);
  if (rc < 0)
    return rc;
  if (o->resume)
    return open_resumed(r, err);
  if ((rc = check_empty(r, err)) < 0 || (rc = create_csv(r, 0, err)) < 0 ||
      (rc = create_csv(r, 1, err)) < 0)
    return rc;
  if (fsync(r->dirfd) < 0)
    return gb_err_set(err, errno, "cannot flush folder %s: %s", r->dir, strerror(errno));
  return 0;
}

int gbi_recorder_check_new(const char *dir, gb_err *err) {
  gbi_recorder r = {.dirfd = -1};
  struct stat st;
  int rc = set_dir(&r, dir, err);
  if (rc < 0 || (lstat(r.dir, &st) < 0 && errno == ENOENT))
    return rc; /* a missing folder is made by the campaign */
  if ((rc = open_real_folder(&r, err)) == 0)
    rc = check_empty(&r, err);
  if (r.dirfd >= 0)
    close(r.dirfd);
  return rc;
}

int gbi_recorder_open(const gbi_recorder_opts *o, gbi_recorder **out, gb_err *err) {
  gbi_recorder *r = calloc(1, sizeof *r);
  if (!r)
    return gb_err_set(err, ENOMEM, "out of memory");
  r->dirfd = r->fd[0] = r->fd[1] = r->meta_fd = -1;
  r->give = o->owner && gb_privilege_drops(o->owner);
  r->uid = r->give ? o->owner->uid : (uid_t)-1;
  r->gid = r->give ? o->owner->gid : (gid_t)-1;
  r->write = o->write;
  r->write_ctx = o->write_ctx;
  r->header = o->header ? o->header : gb_records_header;
  int rc = open_in(r, o, err);
  if (rc < 0) {
    gbi_recorder_close(r);
    return rc;
  }
  *out = r;
  return 0;
}

void gbi_recorder_close(gbi_recorder *r) {
  if (!r)
    return;
  int fds[] = {r->fd[0], r->fd[1], r->meta_fd, r->dirfd}; /* the lock goes last */
  for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
    if (fds[i] >= 0)
      close(fds[i]);
  free(r);
}

const char *gbi_recorder_dir(const gbi_recorder *r) {
  return r->dir;
}

int gbi_recorder_read(gbi_recorder *r, gb_records **out, gb_err *err) {
  if (r->meta_fd < 0)
    return gb_err_set(err, EBADF, "%s: the records were not opened to resume", r->dir);
  gb_records_files f = {.dir = r->dir,
                        .meta_fd = r->meta_fd,
                        .runs_fd = r->fd[0],
                        .warmups_fd = r->fd[1],
                        .cut_last_line = true};
  int rc = gb_records_read_files(&f, out, r->keep, err);
  r->was_read = rc == 0;
  return rc;
}

/* Cuts a file back to the whole lines gbi_recorder_read found. */
static int cut_back(gbi_recorder *r, int which, bool *cut, gb_err *err) {
  struct stat st;
  int fd = r->fd[which];
  if (fstat(fd, &st) < 0)
    return gb_err_set(err, errno, "cannot stat %s/%s: %s", r->dir, file_names[which],
                      strerror(errno));
  *cut = (uint64_t)st.st_size > r->keep[which];
  if (*cut && (ftruncate(fd, (off_t)r->keep[which]) < 0 || fsync(fd) < 0))
    return gb_err_set(err, errno, "cannot cut the partial last line of %s/%s: %s", r->dir,
                      file_names[which], strerror(errno));
  return 0;
}

int gbi_recorder_repair(gbi_recorder *r, bool *dropped, gb_err *err) {
  if (!r->was_read)
    return gb_err_set(err, EBADF, "%s: the records must be read before they are repaired",
                      r->dir);
  bool cut_runs = false, cut_warmups = false;
  int rc = cut_back(r, 0, &cut_runs, err);
  if (rc == 0)
    rc = r->fd[1] >= 0 ? cut_back(r, 1, &cut_warmups, err) : create_csv(r, 1, err);
  if (rc == 0 && fsync(r->dirfd) < 0)
    rc = gb_err_set(err, errno, "cannot flush folder %s: %s", r->dir, strerror(errno));
  if (rc == 0 && dropped)
    *dropped = cut_runs;
  return rc;
}

int gbi_recorder_append(gbi_recorder *r, gb_rec_file which, const gb_run_row *row,
                        gb_err *err) {
  char line[GB_REC_LINE_MAX];
  int len = gb_records_format_row(row, line, sizeof line);
  if (len < 0)
    return gb_err_set(err, -len, "cannot format row %llu for %s/%s",
                      (unsigned long long)row->run, r->dir,
                      file_names[which == GB_REC_FILE_WARMUPS]);
  return gbi_recorder_append_line(r, which, line, (size_t)len, err);
}

int gbi_recorder_append_line(gbi_recorder *r, gb_rec_file which, const char *line, size_t len,
                             gb_err *err) {
  int fd = r->fd[which == GB_REC_FILE_WARMUPS];
  const char *name = file_names[which == GB_REC_FILE_WARMUPS];
  if (fd < 0)
    return gb_err_set(err, EBADF, "%s/%s is not open", r->dir, name);
  off_t before = lseek(fd, 0, SEEK_END);
  int rc = write_all(r, fd, line, len);
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

/* Writes name whole or not at all (gb_replace): a fresh name.tmp, whatever
 * had that name (a leftover of a crash, or a link someone planted) removed,
 * never followed; given to the owner; fsync, rename, and the folder flushed
 * so the rename survives a crash. The folder is locked: no other writer. */
static int replace_file(gbi_recorder *r, const char *name, const char *text, gb_err *err) {
  gb_replace w;
  int rc = gb_replace_begin(&w, r->dirfd, r->dir, name, 0644, GB_REPLACE_OWN_FOLDER, err);
  if (rc == 0)
    rc = give(r, w.fd, w.tmp, err);
  if (rc == 0 && (rc = write_all(r, w.fd, text, strlen(text))) < 0)
    rc = gb_err_set(err, -rc, "cannot write %s/%s: %s", r->dir, name, strerror(-rc));
  if (rc == 0)
    return gb_replace_commit(&w, err);
  gb_replace_abort(&w);
  return rc;
}

int gbi_recorder_write_meta(gbi_recorder *r, const gb_meta *m, gb_err *err) {
  char path[PATH_MAX + 16];
  int rc = gb_path_join(path, sizeof path, r->dir, "meta.json", err);
  if (rc == 0)
    rc = gb_meta_check(m, path, err);
  if (rc < 0)
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

int gbi_recorder_write_text(gbi_recorder *r, const char *name, const char *text, gb_err *err) {
  return replace_file(r, name, text, err);
}
