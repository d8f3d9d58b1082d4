/* `greenbench pack`: a records folder into one deterministic .tar.gz with a
 * manifest of XXH128 checksums (greenbench/records_pack.h). Each file is
 * hashed once to build the manifest, and again while it is copied into the
 * archive: a file that changed in between is refused, so the manifest always
 * describes the bytes packed. */
#include "greenbench/records_pack.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "greenbench/files.h"
#include "greenbench/paths.h"
#include "greenbench/suiterecords.h"
#include "greenbench/text.h"
#include "greenbench/timefmt.h"
#include "records_internal.h"

const gbi_pack_limits gbi_pack_default_limits = {.max_member = 256ull << 20,
                                                 .max_total = 512ull << 20,
                                                 .max_members = 1024,
                                                 .max_manifest = 1u << 20};

#define SHOWN(s) gb_excerpt(&(gb_excerpt_buf){{0}}, (s))
#define CHUNK 65536

/* libarchive's message, never NULL. */
static const char *aerr(struct archive *a) {
  const char *s = archive_error_string(a);
  return s ? s : "unknown error";
}

void gbi_pack_hex(const void *digest16, char out[GB_PACK_HEX_LEN + 1]) {
  const unsigned char *d = digest16;
  for (int i = 0; i < 16; i++)
    snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void hex_of(XXH3_state_t *st, char out[GB_PACK_HEX_LEN + 1]) {
  XXH128_canonical_t c;
  XXH128_canonicalFromHash(&c, XXH3_128bits_digest(st));
  gbi_pack_hex(c.digest, out);
}

bool gb_records_is_packed(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* ---- The plan: the folder's files, sorted, with their hashes ---------------- */

typedef struct {
  char name[GB_PACK_NAME_MAX + 1];
  uint64_t size;
  char hex[GB_PACK_HEX_LEN + 1];
} pack_file;

typedef struct {
  const char *dir;
  int dir_fd;
  char top[GB_PACK_TOP_MAX + 1];
  pack_file *files; /* by name; the manifest among them */
  size_t n;
  char *manifest; /* its text */
  size_t manifest_len;
  time_t mtime;
  bool suite; /* a suite campaign's folder (meta.json's format) */
} pack_plan;

static const char *kind_of(mode_t m) {
  return S_ISDIR(m)    ? "a folder (a records folder holds only files)"
         : S_ISLNK(m)  ? "a symbolic link"
         : S_ISFIFO(m) ? "a FIFO"
         : S_ISSOCK(m) ? "a socket"
                       : "a device";
}

/* A name of dir that can be packed and listed in the manifest. */
static int check_entry(const pack_plan *p, const char *name, mode_t mode, gb_err *err) {
  if (!S_ISREG(mode))
    return gb_err_set(err, EINVAL, "pack: %s/%s is %s; refusing to pack it", p->dir,
                      SHOWN(name), kind_of(mode));
  if (strlen(name) > GB_PACK_NAME_MAX || strpbrk(name, "\\\n\r"))
    return gb_err_set(err, EINVAL,
                      "pack: %s/%s: a name longer than %d bytes or with a backslash or line "
                      "break cannot be packed",
                      p->dir, SHOWN(name), GB_PACK_NAME_MAX);
  if (p->n == gbi_pack_default_limits.max_members - 2)
    return gb_err_set(err, EINVAL, "pack: %s holds more than %zu files", p->dir,
                      gbi_pack_default_limits.max_members - 2);
  return 0;
}

/* The caps of the reader (a member, all together), from the file's size
 * as fstat gives it, before a byte is read: a huge or sparse file is
 * refused at once. */
static int check_size(const pack_plan *p, const char *name, uint64_t size, uint64_t *total,
                      gb_err *err) {
  const gbi_pack_limits *lim = &gbi_pack_default_limits;
  if (size > lim->max_member)
    return gb_err_set(err, EFBIG,
                      "pack: %s/%s: larger than %llu MiB; a packed file is read "
                      "back only up to that",
                      p->dir, SHOWN(name), (unsigned long long)(lim->max_member >> 20));
  *total += size;
  if (*total > lim->max_total - lim->max_manifest)
    return gb_err_set(err, EFBIG, "pack: %s holds more than %llu MiB", p->dir,
                      (unsigned long long)((lim->max_total - lim->max_manifest) >> 20));
  return 0;
}

static int add_entry(pack_plan *p, const char *name, gb_err *err) {
  pack_file *f = realloc(p->files, (p->n + 1) * sizeof *f);
  if (!f)
    return gb_err_set(err, ENOMEM, "pack: out of memory");
  p->files = f;
  memset(&f[p->n], 0, sizeof f[p->n]);
  snprintf(f[p->n].name, sizeof f[p->n].name, "%s", name);
  p->n++;
  return 0;
}

/* Every regular file of dir but an old manifest, or a refusal naming the
 * first entry that is not one. */
static int list_folder(pack_plan *p, gb_err *err) {
  uint64_t total = 0;
  DIR *d = fdopendir(dup(p->dir_fd));
  if (!d)
    return gb_err_set(err, errno, "pack: %s: %s", p->dir, strerror(errno));
  int rc = 0;
  struct dirent *e;
  while (rc == 0 && (errno = 0, e = readdir(d)) != NULL) {
    struct stat st;
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
        !strcmp(e->d_name, GB_PACK_MANIFEST))
      continue;
    if (fstatat(p->dir_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
      rc = gb_err_set(err, errno, "pack: %s/%s: %s", p->dir, SHOWN(e->d_name), strerror(errno));
    else if (p->suite && S_ISDIR(st.st_mode) && !strcmp(e->d_name, GB_PACK_SUITE_BUILD))
      continue; /* build outputs, not records */
    else if ((rc = check_entry(p, e->d_name, st.st_mode, err)) == 0 &&
             (rc = check_size(p, e->d_name, (uint64_t)st.st_size, &total, err)) == 0)
      rc = add_entry(p, e->d_name, err);
  }
  if (rc == 0 && errno)
    rc = gb_err_set(err, errno, "pack: %s: %s", p->dir, strerror(errno));
  closedir(d);
  return rc;
}

static int by_name(const void *a, const void *b) {
  return strcmp(((const pack_file *)a)->name, ((const pack_file *)b)->name);
}

/* Opens dir/name for reading, a regular file only, never through a link. */
static int open_member(const pack_plan *p, const char *name, int *fd, uint64_t *size,
                       gb_err *err) {
  struct stat st;
  *fd = openat(p->dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (*fd < 0)
    return gb_err_set(err, errno, "pack: %s/%s: %s", p->dir, SHOWN(name), strerror(errno));
  if (fstat(*fd, &st) < 0 || !S_ISREG(st.st_mode)) {
    close(*fd);
    return gb_err_set(err, EINVAL, "pack: %s/%s: not a regular file", p->dir, SHOWN(name));
  }
  *size = (uint64_t)st.st_size;
  return 0;
}

/* Reads dir/name whole through the hash; with a (not NULL), also writes
 * it into the archive. Sets f's size and hash. */
static int copy_file(const pack_plan *p, pack_file *f, struct archive *a, gb_err *err) {
  uint64_t want, total = 0;
  int fd, rc = open_member(p, f->name, &fd, &want, err);
  if (rc == 0 && (rc = check_size(p, f->name, want, &total, err)) < 0)
    close(fd);
  if (rc < 0)
    return rc;
  XXH3_state_t *st = XXH3_createState();
  char *buf = malloc(CHUNK);
  uint64_t size = 0;
  ssize_t n = 0;
  if (!st || !buf)
    rc = gb_err_set(err, ENOMEM, "pack: out of memory");
  XXH3_128bits_reset(st);
  /* At most the size fstat gave, and one byte more to see a file that grew. */
  while (rc == 0 && size <= want && (n = read(fd, buf, CHUNK)) > 0) {
    XXH3_128bits_update(st, buf, (size_t)n);
    size += (uint64_t)n;
    if (a && archive_write_data(a, buf, (size_t)n) != n)
      rc = gb_err_set(err, EIO, "pack: %s/%s: %s", p->dir, f->name, aerr(a));
  }
  if (rc == 0 && n < 0)
    rc = gb_err_set(err, errno, "pack: %s/%s: %s", p->dir, f->name, strerror(errno));
  if (rc == 0 && size != want)
    rc = gb_err_set(err, EAGAIN, "pack: %s/%s changed while it was packed; pack it again",
                    p->dir, f->name);
  if (rc == 0)
    hex_of(st, f->hex);
  f->size = size;
  XXH3_freeState(st);
  free(buf);
  close(fd);
  return rc;
}

static int hash_files(pack_plan *p, gb_err *err) {
  uint64_t total = 0;
  for (size_t i = 0; i < p->n; i++) {
    int rc = copy_file(p, &p->files[i], NULL, err);
    if (rc == 0)
      rc = check_size(p, p->files[i].name, p->files[i].size, &total, err);
    if (rc < 0)
      return rc;
  }
  return 0;
}

/* The manifest's text, "<hash>  <name>\n" per file in name order (as
 * `xxhsum -H2` writes it), then the manifest itself among the files. */
static int make_manifest(pack_plan *p, gb_err *err) {
  size_t line = GB_PACK_HEX_LEN + 2 + GB_PACK_NAME_MAX + 1;
  p->manifest = malloc(p->n * line + 1);
  if (!p->manifest)
    return gb_err_set(err, ENOMEM, "pack: out of memory");
  for (size_t i = 0; i < p->n; i++)
    p->manifest_len += (size_t)sprintf(p->manifest + p->manifest_len, "%s  %s\n",
                                       p->files[i].hex, p->files[i].name);
  /* The manifest is the archive's first file, so that the reader checks
   * every later member against it as it reads. */
  int rc = add_entry(p, GB_PACK_MANIFEST, err);
  if (rc == 0) {
    pack_file manifest = p->files[p->n - 1];
    memmove(p->files + 1, p->files, (p->n - 1) * sizeof *p->files);
    p->files[0] = manifest;
    p->files[0].size = p->manifest_len;
  }
  return rc;
}

/* "YYYY-MM-DDTHH:MM:SSZ" as seconds since the epoch; 0 when it is not one,
 * or is before 1970. */
static time_t parse_utc(const char *s) {
  int64_t t;
  return gb_utc_parse(s, &t) == 0 && t >= 0 ? (time_t)t : 0;
}

static bool holds(const pack_plan *p, const char *name) {
  pack_file key = {0};
  snprintf(key.name, sizeof key.name, "%s", name);
  return p->n > 0 && bsearch(&key, p->files, p->n, sizeof *p->files, by_name);
}

/* A suite campaign's folder must be records the suite reader accepts; its
 * end (or start) dates every member. */
static int read_suite_records(pack_plan *p, gb_err *err) {
  gb_srec_records *r = NULL;
  int rc = gb_srec_read(p->dir, &r, err);
  if (rc < 0)
    return rc;
  uint64_t ns = r->meta.finished_unix_ns ? r->meta.finished_unix_ns : r->meta.started_unix_ns;
  p->mtime = (time_t)(ns / 1000000000u);
  gb_srec_free(r);
  return 0;
}

/* The folder must be records the reader of its kind accepts (the study's,
 * or a suite campaign's by meta.json's format), one campaign's only; the
 * campaign's end (or start) dates every member. */
static int read_records(pack_plan *p, gb_err *err) {
  if (!holds(p, "meta.json"))
    return gb_err_set(err, EINVAL, "pack: %s is not a records folder (no meta.json)", p->dir);
  if (p->suite)
    return read_suite_records(p, err);
  if (holds(p, "suite.json"))
    return gb_err_set(err, EINVAL,
                      "pack: %s holds suite.json, but its meta.json is a study campaign's (not "
                      "format %s); a records folder holds one campaign's records",
                      p->dir, GB_SUITE_RECORDS_FORMAT);
  gb_records *r = NULL;
  int rc = gb_records_read(p->dir, &r, err);
  if (rc < 0)
    return rc;
  const gb_meta *m = &r->meta;
  p->mtime = parse_utc(m->has_finished_at ? m->finished_at : m->started_at);
  gb_records_free(r);
  return 0;
}

/* ---- The archive ------------------------------------------------------------- */

static struct archive_entry *new_entry(const pack_plan *p, const char *name, bool folder,
                                       uint64_t size) {
  char path[GB_PACK_TOP_MAX + GB_PACK_NAME_MAX + 3];
  struct archive_entry *e = archive_entry_new();
  if (!e)
    return NULL;
  snprintf(path, sizeof path, "%s%s%s", p->top, folder ? "/" : "/", folder ? "" : name);
  archive_entry_set_pathname(e, path);
  archive_entry_set_filetype(e, folder ? AE_IFDIR : AE_IFREG);
  archive_entry_set_perm(e, folder ? 0755 : 0644);
  archive_entry_set_size(e, folder ? 0 : (la_int64_t)size);
  archive_entry_set_uid(e, 0);
  archive_entry_set_gid(e, 0);
  archive_entry_set_mtime(e, p->mtime, 0);
  return e;
}

static int write_header(const pack_plan *p, struct archive *a, const char *name, bool folder,
                        uint64_t size, gb_err *err) {
  struct archive_entry *e = new_entry(p, name, folder, size);
  if (!e)
    return gb_err_set(err, ENOMEM, "pack: out of memory");
  int rc = archive_write_header(a, e) == ARCHIVE_OK
               ? 0
               : gb_err_set(err, EIO, "pack: %s: %s", name, aerr(a));
  archive_entry_free(e);
  return rc;
}

/* One file into the archive, refused when its bytes are not those hashed. */
static int write_file(const pack_plan *p, struct archive *a, const pack_file *f, gb_err *err) {
  int rc = write_header(p, a, f->name, false, f->size, err);
  if (rc == 0 && !strcmp(f->name, GB_PACK_MANIFEST)) {
    if (archive_write_data(a, p->manifest, p->manifest_len) != (la_ssize_t)p->manifest_len)
      rc = gb_err_set(err, EIO, "pack: %s: %s", f->name, aerr(a));
    return rc;
  }
  pack_file again = *f;
  if (rc == 0 && (rc = copy_file(p, &again, a, err)) == 0 &&
      (again.size != f->size || strcmp(again.hex, f->hex)))
    rc = gb_err_set(err, EAGAIN, "pack: %s/%s changed while it was packed; pack it again",
                    p->dir, f->name);
  return rc;
}

static struct archive *open_archive(int fd, gb_err *err) {
  struct archive *a = archive_write_new();
  if (a && archive_write_set_format_ustar(a) == ARCHIVE_OK &&
      archive_write_add_filter_gzip(a) == ARCHIVE_OK &&
      archive_write_set_options(a, "gzip:!timestamp") == ARCHIVE_OK &&
      archive_write_open_fd(a, fd) == ARCHIVE_OK)
    return a;
  gb_err_set(err, EIO, "pack: cannot start the archive: %s", a ? aerr(a) : "out of memory");
  archive_write_free(a);
  return NULL;
}

static int write_archive(const pack_plan *p, int fd, gb_err *err) {
  struct archive *a = open_archive(fd, err);
  if (!a)
    return -EIO;
  int rc = write_header(p, a, p->top, true, 0, err);
  for (size_t i = 0; rc == 0 && i < p->n; i++)
    rc = write_file(p, a, &p->files[i], err);
  if (archive_write_close(a) != ARCHIVE_OK && rc == 0)
    rc = gb_err_set(err, EIO, "pack: cannot finish the archive: %s", aerr(a));
  archive_write_free(a);
  return rc;
}

/* ---- The output file ---------------------------------------------------------- */

/* out is not a folder and not in dir (where it would be written over the
 * records or packed with them next time). */
static int check_out(const char *dir, int dir_fd, const char *out, gb_err *err) {
  char folder[PATH_MAX];
  struct stat st, in;
  gb_err inner;
  if (strnlen(out, PATH_MAX) >= PATH_MAX - 16)
    return gb_err_set(err, ENAMETOOLONG, "pack: --out: path too long");
  if (gb_output_check(AT_FDCWD, out, &inner) < 0)
    return gb_err_set(err, EINVAL, "pack: --out %s", inner.msg);
  if (gb_output_is_stdout(out))
    return 0;
  if (gb_path_dir(folder, sizeof folder, out) < 0) /* never: out is bounded above */
    return gb_err_set(err, ENAMETOOLONG, "pack: --out: path too long");
  if (stat(folder, &st) < 0)
    return gb_err_set(err, EINVAL, "pack: --out %s: %s: %s", SHOWN(out), SHOWN(folder),
                      strerror(errno));
  if (fstat(dir_fd, &in) == 0 && in.st_dev == st.st_dev && in.st_ino == st.st_ino)
    return gb_err_set(err, EINVAL,
                      "pack: --out %s is inside %s; refusing to write into the records folder",
                      SHOWN(out), SHOWN(dir));
  return 0;
}

/* The archive into a temporary file beside out (gb_replace), fsynced, then
 * renamed over out and the folder flushed. */
static int write_out(const pack_plan *p, const char *out, gb_err *err) {
  gb_replace w;
  int rc = gb_replace_begin(&w, AT_FDCWD, NULL, out, 0644, 0, NULL);
  if (rc == -ENAMETOOLONG)
    return gb_err_set(err, ENAMETOOLONG, "pack: %s: path too long", SHOWN(out));
  if (rc < 0)
    return gb_err_set(err, -rc, "pack: cannot create %s: %s", SHOWN(w.tmp), strerror(-rc));
  rc = write_archive(p, w.fd, err);
  if (rc == 0 && (rc = gb_replace_flush(&w, NULL)) < 0)
    rc = gb_err_set(err, -rc, "pack: %s: %s", SHOWN(w.tmp), strerror(-rc));
  if (rc == 0 && (rc = gb_replace_commit(&w, NULL)) < 0)
    rc = gb_err_set(err, -rc, "pack: cannot write %s: %s", SHOWN(out), strerror(-rc));
  gb_replace_abort(&w); /* nothing left to remove after the commit */
  return rc;
}

/* dir without trailing slashes, and its base name. */
static int name_folder(pack_plan *p, const char *dir, char *buf, size_t len, gb_err *err) {
  size_t n = strnlen(dir, len);
  while (n > 1 && dir[n - 1] == '/')
    n--;
  if (n >= len)
    return gb_err_set(err, ENAMETOOLONG, "pack: %s: path too long", SHOWN(dir));
  memcpy(buf, dir, n);
  buf[n] = '\0';
  const char *slash = strrchr(buf, '/'), *base = slash ? slash + 1 : buf;
  if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
    base = "records";
  if (strlen(base) > GB_PACK_TOP_MAX)
    return gb_err_set(err, EINVAL, "pack: %s: a folder name longer than %d bytes", SHOWN(dir),
                      GB_PACK_TOP_MAX);
  snprintf(p->top, sizeof p->top, "%s", base);
  p->dir = buf;
  return 0;
}

static int open_folder(const char *dir, int *fd, gb_err *err) {
  if ((*fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0)
    return 0;
  int e = errno;
  return gb_err_set(err, e, "pack: %s: %s", SHOWN(dir),
                    e == ENOTDIR ? "not a folder" : strerror(e));
}

int gb_records_pack_check_out(const char *dir, const char *out, gb_err *err) {
  int fd = -1, rc = open_folder(dir, &fd, err);
  if (rc == 0) {
    rc = check_out(dir, fd, out, err);
    close(fd);
  }
  return rc;
}

int gb_records_pack(const char *dir, const char *out, gb_err *err) {
  char folder[PATH_MAX];
  pack_plan p = {.dir_fd = -1};
  int rc = name_folder(&p, dir, folder, sizeof folder, err);
  if (rc == 0)
    rc = open_folder(folder, &p.dir_fd, err);
  if (rc == 0)
    rc = check_out(folder, p.dir_fd, out, err);
  if (rc == 0) {
    p.suite = gb_srec_is_suite_folder(folder);
    rc = list_folder(&p, err);
  }
  if (rc == 0) {
    if (p.n > 1)
      qsort(p.files, p.n, sizeof *p.files, by_name);
    rc = read_records(&p, err);
  }
  if (rc == 0)
    rc = hash_files(&p, err);
  if (rc == 0)
    rc = make_manifest(&p, err);
  if (rc == 0)
    rc = write_out(&p, out, err);
  if (p.dir_fd >= 0)
    close(p.dir_fd);
  free(p.files);
  free(p.manifest);
  return rc;
}
