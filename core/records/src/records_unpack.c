/* Reading a packed records folder (gb_records_read_path), streamed: the
 * archive must be one gzip layer over a tar whose first file is the
 * manifest; every later member is checked by name, type and size from its
 * header before a byte of it is read (it must be listed, within the caps),
 * then hashed as it is read and compared with the manifest at its end, so
 * reading stops at the first member that is not the one packed. Only the
 * three records files are kept, in anonymous memory files (memfd), which
 * vanish with the process however it ends: nothing is written to disk and
 * nothing is left behind. Then the records are read, with the checks of
 * gb_records_read. */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "greenbench/files.h"
#include "greenbench/records_pack.h"
#include "greenbench/text.h"
#include "records_internal.h"

#define SHOWN(s) gb_excerpt(&(gb_excerpt_buf){{0}}, (s))
#define CHUNK 65536

/* libarchive's message, never NULL. */
static const char *aerr(struct archive *a) {
  const char *s = archive_error_string(a);
  return s ? s : "unknown error";
}

/* The records files kept for the readers, by index in unpack.fd: the
 * study's three, and a suite campaign's suite.json (GBI_KEPT_*). */
static const char *const kept_files[GBI_KEPT_N] = {"meta.json", "runs.csv", "warmups.csv",
                                                   "suite.json"};

/* A file the manifest lists. */
typedef struct {
  char name[GB_PACK_NAME_MAX + 1];
  char hex[GB_PACK_HEX_LEN + 1];
  bool seen; /* its member was read and matched */
} member;

typedef struct {
  const char *path; /* the archive, as messages name it */
  const gbi_pack_limits *lim;
  char top[GB_PACK_TOP_MAX + 1];
  bool has_top;
  member *m; /* the manifest's list */
  size_t n, entries, files;
  bool has_manifest;
  uint64_t total;
  int fd[GBI_KEPT_N]; /* by kept_files, -1 until read */
} unpack;

/* ---- Names ----------------------------------------------------------------- */

/* The first component of path into u->top, or a refusal when another top
 * folder came first. */
static int set_top(unpack *u, const char *path, size_t len, gb_err *err) {
  if (u->has_top) {
    if (strlen(u->top) == len && !memcmp(u->top, path, len))
      return 0;
    return gb_err_set(err, EINVAL,
                      "%s: %s: more than one top folder (%s and another); a packed records "
                      "folder has one",
                      u->path, SHOWN(path), SHOWN(u->top));
  }
  if (len > GB_PACK_TOP_MAX)
    return gb_err_set(err, EINVAL, "%s: %s: top folder name too long", u->path, SHOWN(path));
  memcpy(u->top, path, len);
  u->top[len] = '\0';
  u->has_top = true;
  return 0;
}

/* A member's path: "TOP/" or "TOP" for the folder, "TOP/NAME" for a file;
 * no absolute path, "..", "." or empty component, no deeper file. Sets
 * *name to NAME (NULL for the folder). */
static int check_path(unpack *u, const char *path, bool folder, const char **name,
                      gb_err *err) {
  if (!path || !*path)
    return gb_err_set(err, EINVAL, "%s: a member without a name", u->path);
  if (path[0] == '/')
    return gb_err_set(err, EINVAL, "%s: %s: an absolute path; refusing the archive", u->path,
                      SHOWN(path));
  for (const char *c = path; *c;) {
    size_t len = strcspn(c, "/");
    if ((len == 2 && !memcmp(c, "..", 2)) || (len == 1 && c[0] == '.') || (len == 0 && c[1]))
      return gb_err_set(err, EINVAL,
                        "%s: %s: a path with '..', '.' or '//'; refusing the archive", u->path,
                        SHOWN(path));
    c += len + (c[len] == '/');
  }
  size_t top_len = strcspn(path, "/");
  const char *rest = path[top_len] ? path + top_len + 1 : path + top_len;
  if ((folder && *rest) || (!folder && (!*rest || strchr(rest, '/'))))
    return gb_err_set(err, EINVAL,
                      "%s: %s: %s; a packed records folder holds files in one folder", u->path,
                      SHOWN(path), folder ? "a subfolder" : "not a file in the top folder");
  if (strlen(rest) > GB_PACK_NAME_MAX)
    return gb_err_set(err, EINVAL, "%s: %s: name too long", u->path, SHOWN(path));
  *name = folder ? NULL : rest;
  return set_top(u, path, top_len, err);
}

/* The member's type and size, within the limits. */
static int check_entry(unpack *u, struct archive_entry *e, const char *path, gb_err *err) {
  mode_t type = archive_entry_filetype(e);
  if (archive_entry_hardlink(e) || archive_entry_symlink(e) ||
      (type != AE_IFREG && type != AE_IFDIR))
    return gb_err_set(err, EINVAL, "%s: %s: not a file or the folder (a link or special file)",
                      u->path, SHOWN(path));
  if (++u->entries > u->lim->max_members)
    return gb_err_set(err, EINVAL, "%s: more than %zu members", u->path, u->lim->max_members);
  /* The caps, from the header, before a byte of the member is read. */
  la_int64_t size = archive_entry_size_is_set(e) ? archive_entry_size(e) : 0;
  if (size < 0 || (uint64_t)size > u->lim->max_member)
    return gb_err_set(err, EFBIG, "%s: %s: too large (more than %llu bytes in one member)",
                      u->path, SHOWN(path), (unsigned long long)u->lim->max_member);
  if ((uint64_t)size > u->lim->max_total - u->total)
    return gb_err_set(err, EFBIG, "%s: %s: too large (more than %llu bytes in all)", u->path,
                      SHOWN(path), (unsigned long long)u->lim->max_total);
  return 0;
}

/* ---- The manifest, first ------------------------------------------------- */

static bool is_hex(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
      return false;
  return true;
}

/* One "<hash>  <name>" line into the list: a name with a NUL, a slash or
 * listed twice is refused (a NUL would end the name early). */
static int add_line(unpack *u, const char *line, size_t len, size_t no, gb_err *err) {
  size_t name_len = len > GB_PACK_HEX_LEN + 2 ? len - GB_PACK_HEX_LEN - 2 : 0;
  const char *name = line + GB_PACK_HEX_LEN + 2;
  if (name_len == 0 || name_len > GB_PACK_NAME_MAX || !is_hex(line, GB_PACK_HEX_LEN) ||
      memcmp(line + GB_PACK_HEX_LEN, "  ", 2) || memchr(name, '\0', name_len) ||
      memchr(name, '/', name_len) ||
      (name_len == sizeof GB_PACK_MANIFEST - 1 && !memcmp(name, GB_PACK_MANIFEST, name_len)))
    return gb_err_set(err, EINVAL,
                      "%s: %s/%s:%zu: not a '<XXH128>  <name>' line (a name without NUL bytes "
                      "or slashes)",
                      u->path, u->top, GB_PACK_MANIFEST, no);
  for (size_t i = 0; i < u->n; i++)
    if (strlen(u->m[i].name) == name_len && !memcmp(u->m[i].name, name, name_len))
      return gb_err_set(err, EINVAL, "%s: %s/%s:%zu: %s is listed twice", u->path, u->top,
                        GB_PACK_MANIFEST, no, SHOWN(u->m[i].name));
  member *m = realloc(u->m, (u->n + 1) * sizeof *m);
  if (!m)
    return gb_err_set(err, ENOMEM, "%s: out of memory", u->path);
  u->m = m;
  memset(&m[u->n], 0, sizeof m[u->n]);
  memcpy(m[u->n].name, name, name_len);
  memcpy(m[u->n].hex, line, GB_PACK_HEX_LEN);
  u->n++;
  return 0;
}

/* The manifest's text, read whole (within its limit), into the list. */
static int read_manifest(unpack *u, struct archive *a, la_int64_t size, gb_err *err) {
  if ((uint64_t)size > u->lim->max_manifest)
    return gb_err_set(err, EFBIG, "%s: %s/%s: larger than %zu bytes", u->path, u->top,
                      GB_PACK_MANIFEST, u->lim->max_manifest);
  char *text = malloc((size_t)size + 1);
  if (!text)
    return gb_err_set(err, ENOMEM, "%s: out of memory", u->path);
  la_ssize_t got = 1;
  size_t have = 0;
  while (have < (size_t)size && got > 0)
    if ((got = archive_read_data(a, text + have, (size_t)size - have)) > 0)
      have += (size_t)got;
  int rc = 0;
  if (have != (size_t)size)
    rc = gb_err_set(err, EIO, "%s: %s/%s: %s", u->path, u->top, GB_PACK_MANIFEST,
                    got < 0 ? aerr(a) : "cut short");
  u->total += (uint64_t)size;
  size_t no = 0, len = (size_t)size;
  for (size_t at = 0; rc == 0 && at < len;) {
    const char *line = text + at, *nl = memchr(line, '\n', len - at);
    size_t n = nl ? (size_t)(nl - line) : len - at;
    rc = add_line(u, line, n, ++no, err);
    at += n + 1;
  }
  free(text);
  u->has_manifest = rc == 0;
  return rc;
}

/* ---- Members, each checked as it is read ---------------------------------- */

/* The index in kept_files of a records file the reader needs, or -1. */
static int kept_index(const char *name) {
  for (int i = 0; i < GBI_KEPT_N; i++)
    if (!strcmp(name, kept_files[i]))
      return i;
  return -1;
}

/* The member's data, hashed, into fd (or nowhere, fd < 0). */
static int copy_data(unpack *u, struct archive *a, int fd, const char *name, XXH3_state_t *st,
                     char *buf, gb_err *err) {
  la_ssize_t n;
  while ((n = archive_read_data(a, buf, CHUNK)) != 0) {
    if (n < 0)
      return gb_err_set(err, EIO, "%s: %s/%s: %s", u->path, u->top, SHOWN(name), aerr(a));
    if ((uint64_t)n > u->lim->max_total - u->total)
      return gb_err_set(err, EFBIG, "%s: %s/%s: too large (more than %llu bytes in all)",
                        u->path, u->top, SHOWN(name), (unsigned long long)u->lim->max_total);
    u->total += (uint64_t)n;
    XXH3_128bits_update(st, buf, (size_t)n);
    int rc = fd >= 0 ? gb_write_all(fd, buf, (size_t)n) : 0;
    if (rc < 0)
      return gb_err_set(err, -rc, "%s: cannot keep %s/%s: %s", u->path, u->top, SHOWN(name),
                        strerror(-rc));
  }
  return 0;
}

/* The member m's data, hashed and compared with the manifest; a records
 * file is kept in a memory file for the reader. */
static int read_member(unpack *u, struct archive *a, member *m, gb_err *err) {
  int k = kept_index(m->name), fd = -1, rc = 0;
  if (k >= 0 && (fd = memfd_create(m->name, MFD_CLOEXEC)) < 0)
    return gb_err_set(err, errno, "%s: cannot keep %s/%s: %s", u->path, u->top, m->name,
                      strerror(errno));
  XXH3_state_t *st = XXH3_createState();
  char *buf = malloc(CHUNK);
  if (!st || !buf || XXH3_128bits_reset(st) != XXH_OK)
    rc = gb_err_set(err, ENOMEM, "%s: out of memory", u->path);
  if (rc == 0)
    rc = copy_data(u, a, fd, m->name, st, buf, err);
  if (rc == 0) {
    char hex[GB_PACK_HEX_LEN + 1];
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, XXH3_128bits_digest(st));
    gbi_pack_hex(c.digest, hex);
    if (memcmp(hex, m->hex, GB_PACK_HEX_LEN))
      rc = gb_err_set(err, EINVAL,
                      "%s: %s/%s: its XXH128 is not the one in %s; the archive is corrupted",
                      u->path, u->top, SHOWN(m->name), GB_PACK_MANIFEST);
  }
  XXH3_freeState(st);
  free(buf);
  if (rc == 0 && fd >= 0 && lseek(fd, 0, SEEK_SET) < 0)
    rc = gb_err_set(err, errno, "%s: %s: %s", u->path, m->name, strerror(errno));
  if (rc < 0 && fd >= 0)
    close(fd);
  if (rc == 0 && fd >= 0)
    u->fd[k] = fd;
  m->seen = rc == 0;
  return rc;
}

/* A file member: the manifest when it is the first, else one it lists and
 * that was not seen yet; refused from its header otherwise. */
static int read_file(unpack *u, struct archive *a, struct archive_entry *e, const char *name,
                     gb_err *err) {
  bool is_manifest = !strcmp(name, GB_PACK_MANIFEST);
  if (u->files++ == 0 && is_manifest)
    return read_manifest(u, a, archive_entry_size(e), err);
  if (!u->has_manifest)
    return gb_err_set(err, EINVAL,
                      "%s: no %s/%s before %s/%s; not a packed records folder (greenbench pack "
                      "writes the manifest first)",
                      u->path, u->top, GB_PACK_MANIFEST, u->top, SHOWN(name));
  if (is_manifest)
    return gb_err_set(err, EINVAL, "%s: %s/%s: a member that appears twice", u->path, u->top,
                      GB_PACK_MANIFEST);
  for (size_t i = 0; i < u->n; i++) {
    if (strcmp(u->m[i].name, name))
      continue;
    if (u->m[i].seen)
      return gb_err_set(err, EINVAL, "%s: %s/%s: a member that appears twice", u->path, u->top,
                        SHOWN(name));
    return read_member(u, a, &u->m[i], err);
  }
  return gb_err_set(err, EINVAL, "%s: %s/%s: a member %s does not list", u->path, u->top,
                    SHOWN(name), GB_PACK_MANIFEST);
}

static int read_entry(unpack *u, struct archive *a, struct archive_entry *e, gb_err *err) {
  const char *path = archive_entry_pathname(e), *name = NULL;
  bool folder = archive_entry_filetype(e) == AE_IFDIR;
  int rc = check_entry(u, e, path ? path : "", err);
  if (rc == 0)
    rc = check_path(u, path, folder, &name, err);
  if (rc == 0 && !folder)
    rc = read_file(u, a, e, name, err);
  return rc;
}

static int read_all(unpack *u, struct archive *a, gb_err *err) {
  struct archive_entry *e;
  int r, rc = 0;
  while (rc == 0 && (r = archive_read_next_header(a, &e)) != ARCHIVE_EOF) {
    if (r < ARCHIVE_WARN)
      return gb_err_set(err, EINVAL, "%s: not a readable packed records folder: %s", u->path,
                        aerr(a));
    rc = read_entry(u, a, e, err);
  }
  if (rc == 0 && !u->has_top)
    return gb_err_set(err, EINVAL, "%s: an empty archive", u->path);
  if (rc == 0 && !u->has_manifest)
    return gb_err_set(err, EINVAL, "%s: no %s/%s; not a packed records folder", u->path, u->top,
                      GB_PACK_MANIFEST);
  for (size_t i = 0; rc == 0 && i < u->n; i++)
    if (!u->m[i].seen)
      return gb_err_set(err, EINVAL, "%s: %s/%s lists %s, which the archive does not hold",
                        u->path, u->top, GB_PACK_MANIFEST, SHOWN(u->m[i].name));
  return rc;
}

/* ---- Reading and cleaning up ----------------------------------------------- */

static void clean_up(unpack *u) {
  free(u->m);
}

/* One gzip layer over a tar, nothing else: a second gzip (or any other
 * filter) is refused before a member is read, so that a few kilobytes
 * cannot stand for gigabytes twice over. */
static int one_gzip_layer(const char *path, struct archive *a, gb_err *err) {
  int n = archive_filter_count(a);
  if (n == 2 && archive_filter_code(a, 0) == ARCHIVE_FILTER_GZIP)
    return 0;
  return gb_err_set(err, EINVAL,
                    "%s: not a packed records folder: a .tar.gz has exactly one gzip layer, "
                    "this has %d filter(s)%s%s",
                    path, n - 1, n > 1 ? ", the outer one " : "",
                    n > 1 ? archive_filter_name(a, n - 2) : "");
}

static struct archive *open_archive(const char *path, gb_err *err) {
  struct archive *a = archive_read_new();
  if (a && archive_read_support_format_tar(a) == ARCHIVE_OK &&
      archive_read_support_filter_gzip(a) == ARCHIVE_OK &&
      archive_read_open_filename(a, path, CHUNK) == ARCHIVE_OK)
    return one_gzip_layer(path, a, err) == 0 ? a : (archive_read_free(a), NULL);
  gb_err_set(err, EINVAL, "%s: neither a records folder nor a packed one: %s", path,
             a ? aerr(a) : "out of memory");
  archive_read_free(a);
  return NULL;
}

int gbi_pack_unpack(const char *path, const gbi_pack_limits *lim, gbi_unpacked *out,
                    gb_err *err) {
  unpack u = {.path = path, .lim = lim};
  for (int k = 0; k < GBI_KEPT_N; k++)
    u.fd[k] = out->fd[k] = -1;
  struct archive *a = open_archive(path, err);
  if (!a)
    return -EINVAL;
  int rc = read_all(&u, a, err);
  archive_read_free(a);
  for (int k = 0; k < GBI_KEPT_N; k++)
    if (rc == 0)
      out->fd[k] = u.fd[k];
    else if (u.fd[k] >= 0)
      close(u.fd[k]);
  if (rc == 0) {
    snprintf(out->top, sizeof out->top, "%s", u.top);
    snprintf(out->shown, sizeof out->shown, "%s:%s", path, u.top);
  }
  clean_up(&u);
  return rc;
}

void gbi_unpacked_close(gbi_unpacked *u) {
  for (int k = 0; k < GBI_KEPT_N; k++)
    if (u->fd[k] >= 0) {
      close(u->fd[k]);
      u->fd[k] = -1;
    }
}

int gbi_unpacked_need(const gbi_unpacked *u, const char *path, int k, gb_err *err) {
  if (u->fd[k] >= 0)
    return 0;
  return gb_err_set(err, ENOENT, "%s: no %s/%s in the archive", path, u->top, kept_files[k]);
}

/* The study's reader on the kept files. */
int gbi_records_read_archive(const char *path, const gbi_pack_limits *lim, gb_records **out,
                             gb_err *err) {
  gbi_unpacked u;
  int rc = gbi_pack_unpack(path, lim, &u, err);
  for (int k = GBI_KEPT_META; rc == 0 && k <= GBI_KEPT_RUNS; k++)
    rc = gbi_unpacked_need(&u, path, k, err);
  if (rc == 0) {
    gb_records_files f = {.dir = u.shown,
                          .meta_fd = u.fd[GBI_KEPT_META],
                          .runs_fd = u.fd[GBI_KEPT_RUNS],
                          .warmups_fd = u.fd[GBI_KEPT_WARMUPS]};
    rc = gb_records_read_files(&f, out, NULL, err);
  }
  gbi_unpacked_close(&u);
  return rc;
}

int gb_records_read_path(const char *path, gb_records **out, gb_err *err) {
  if (gb_records_is_packed(path))
    return gbi_records_read_archive(path, &gbi_pack_default_limits, out, err);
  return gb_records_read(path, out, err);
}
