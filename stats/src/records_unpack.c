/* Reading a packed records folder (gb_records_read_path): every member is
 * checked by name, type and size as it is extracted into a private
 * temporary folder and hashed on the way; the manifest is checked against
 * the members once all are in; only then are the records read, with the
 * checks of gb_records_read. The temporary folder is always removed. */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "greenbench/files.h"
#include "greenbench/records_pack.h"
#include "greenbench/text.h"
#include "records_pack_internal.h"

#define SHOWN(s) gb_excerpt(&(gb_excerpt_buf){{0}}, (s))
#define CHUNK 65536

/* libarchive's message, never NULL. */
static const char *aerr(struct archive *a) {
  const char *s = archive_error_string(a);
  return s ? s : "unknown error";
}

typedef struct {
  char name[GB_PACK_NAME_MAX + 1];
  char hex[GB_PACK_HEX_LEN + 1];
  bool listed; /* found in the manifest */
} member;

typedef struct {
  const char *path; /* the archive, as messages name it */
  const gb_pack_limits *lim;
  char tmp[PATH_MAX];
  int tmp_fd, top_fd;
  char top[GB_PACK_TOP_MAX + 1];
  member *m;
  size_t n, entries;
  char *manifest;
  size_t manifest_len;
  bool has_manifest;
  uint64_t total;
} unpack;

/* ---- Names ----------------------------------------------------------------- */

/* The first component of path into u->top (creating that folder in the
 * temporary one), or a refusal when another top folder came first. */
static int set_top(unpack *u, const char *path, size_t len, gb_err *err) {
  if (u->top_fd >= 0) {
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
  if (mkdirat(u->tmp_fd, u->top, 0700) < 0 ||
      (u->top_fd = openat(u->tmp_fd, u->top, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)) < 0)
    return gb_err_set(err, errno, "%s: cannot extract %s: %s", u->path, SHOWN(path),
                      strerror(errno));
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
  la_int64_t size = archive_entry_size_is_set(e) ? archive_entry_size(e) : 0;
  if (size < 0 || (uint64_t)size > u->lim->max_total - u->total)
    return gb_err_set(err, EFBIG, "%s: %s: too large (more than %llu bytes in all)", u->path,
                      SHOWN(path), (unsigned long long)u->lim->max_total);
  return 0;
}

/* ---- Members ------------------------------------------------------------ */

static int add_member(unpack *u, const char *name, gb_err *err) {
  for (size_t i = 0; i < u->n; i++)
    if (!strcmp(u->m[i].name, name))
      return gb_err_set(err, EINVAL, "%s: %s/%s: a member that appears twice", u->path, u->top,
                        SHOWN(name));
  member *m = realloc(u->m, (u->n + 1) * sizeof *m);
  if (!m)
    return gb_err_set(err, ENOMEM, "%s: out of memory", u->path);
  u->m = m;
  memset(&m[u->n], 0, sizeof m[u->n]);
  snprintf(m[u->n].name, sizeof m[u->n].name, "%s", name);
  u->n++;
  return 0;
}

/* Appends data to the manifest's text, within its limit. */
static int keep_manifest(unpack *u, const char *data, size_t len, gb_err *err) {
  if (len > u->lim->max_manifest - u->manifest_len)
    return gb_err_set(err, EFBIG, "%s: %s/%s: larger than %zu bytes", u->path, u->top,
                      GB_PACK_MANIFEST, u->lim->max_manifest);
  char *m = realloc(u->manifest, u->manifest_len + len + 1);
  if (!m)
    return gb_err_set(err, ENOMEM, "%s: out of memory", u->path);
  memcpy(m + u->manifest_len, data, len);
  u->manifest = m;
  u->manifest_len += len;
  return 0;
}

/* The member's data into fd (or, fd < 0, the manifest's text), hashed. */
static int copy_data(unpack *u, struct archive *a, int fd, const char *name, XXH3_state_t *st,
                     char *buf, gb_err *err) {
  la_ssize_t n;
  int rc = 0;
  while (rc == 0 && (n = archive_read_data(a, buf, CHUNK)) != 0) {
    if (n < 0)
      return gb_err_set(err, EIO, "%s: %s/%s: %s", u->path, u->top, SHOWN(name), aerr(a));
    if ((uint64_t)n > u->lim->max_total - u->total)
      return gb_err_set(err, EFBIG, "%s: %s/%s: too large (more than %llu bytes in all)",
                        u->path, u->top, SHOWN(name), (unsigned long long)u->lim->max_total);
    u->total += (uint64_t)n;
    XXH3_128bits_update(st, buf, (size_t)n);
    if (fd < 0)
      rc = keep_manifest(u, buf, (size_t)n, err);
    else if ((rc = gb_write_all(fd, buf, (size_t)n)) < 0)
      rc = gb_err_set(err, -rc, "%s: cannot extract %s/%s: %s", u->path, u->top, SHOWN(name),
                      strerror(-rc));
  }
  return rc;
}

/* One file member into the temporary folder (the manifest into memory). */
static int extract_file(unpack *u, struct archive *a, const char *name, gb_err *err) {
  bool is_manifest = !strcmp(name, GB_PACK_MANIFEST);
  int fd = -1, rc = 0;
  if (is_manifest && u->has_manifest)
    return gb_err_set(err, EINVAL, "%s: %s/%s: a member that appears twice", u->path, u->top,
                      name);
  if (!is_manifest && (rc = add_member(u, name, err)) < 0)
    return rc;
  if (!is_manifest &&
      (fd = openat(u->top_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                   0600)) < 0)
    return gb_err_set(err, errno, "%s: cannot extract %s/%s: %s", u->path, u->top, SHOWN(name),
                      strerror(errno));
  u->has_manifest |= is_manifest;
  XXH3_state_t *st = XXH3_createState();
  char *buf = malloc(CHUNK);
  if (!st || !buf)
    rc = gb_err_set(err, ENOMEM, "%s: out of memory", u->path);
  if (rc == 0 && XXH3_128bits_reset(st) == XXH_OK &&
      (rc = copy_data(u, a, fd, name, st, buf, err)) == 0 && !is_manifest) {
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, XXH3_128bits_digest(st));
    gb_pack_hex(c.digest, u->m[u->n - 1].hex);
  }
  XXH3_freeState(st);
  free(buf);
  if (fd >= 0 && close(fd) < 0 && rc == 0)
    rc = gb_err_set(err, errno, "%s: cannot extract %s: %s", u->path, SHOWN(name),
                    strerror(errno));
  return rc;
}

static int extract_entry(unpack *u, struct archive *a, struct archive_entry *e, gb_err *err) {
  const char *path = archive_entry_pathname(e), *name = NULL;
  bool folder = archive_entry_filetype(e) == AE_IFDIR;
  int rc = check_entry(u, e, path ? path : "", err);
  if (rc == 0)
    rc = check_path(u, path, folder, &name, err);
  if (rc == 0 && !folder)
    rc = extract_file(u, a, name, err);
  return rc;
}

static int extract_all(unpack *u, struct archive *a, gb_err *err) {
  struct archive_entry *e;
  int r, rc = 0;
  while (rc == 0 && (r = archive_read_next_header(a, &e)) != ARCHIVE_EOF) {
    if (r < ARCHIVE_WARN)
      return gb_err_set(err, EINVAL, "%s: not a readable packed records folder: %s", u->path,
                        aerr(a));
    rc = extract_entry(u, a, e, err);
  }
  if (rc == 0 && u->top_fd < 0)
    return gb_err_set(err, EINVAL, "%s: an empty archive", u->path);
  return rc;
}

/* ---- The manifest ---------------------------------------------------------- */

static bool is_hex(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
      return false;
  return true;
}

/* One "<hash>  <name>" line against the members. */
static int check_line(unpack *u, const char *line, size_t len, size_t no, gb_err *err) {
  char name[GB_PACK_NAME_MAX + 1];
  size_t name_len = len > GB_PACK_HEX_LEN + 2 ? len - GB_PACK_HEX_LEN - 2 : 0;
  if (name_len == 0 || name_len > GB_PACK_NAME_MAX || !is_hex(line, GB_PACK_HEX_LEN) ||
      memcmp(line + GB_PACK_HEX_LEN, "  ", 2))
    return gb_err_set(err, EINVAL, "%s: %s/%s:%zu: not a '<XXH128>  <name>' line", u->path,
                      u->top, GB_PACK_MANIFEST, no);
  memcpy(name, line + GB_PACK_HEX_LEN + 2, name_len);
  name[name_len] = '\0';
  for (size_t i = 0; i < u->n; i++) {
    if (strcmp(u->m[i].name, name))
      continue;
    if (u->m[i].listed)
      return gb_err_set(err, EINVAL, "%s: %s/%s:%zu: %s is listed twice", u->path, u->top,
                        GB_PACK_MANIFEST, no, SHOWN(name));
    u->m[i].listed = true;
    if (memcmp(u->m[i].hex, line, GB_PACK_HEX_LEN))
      return gb_err_set(err, EINVAL,
                        "%s: %s/%s: its XXH128 is not the one in %s; the archive is corrupted",
                        u->path, u->top, SHOWN(name), GB_PACK_MANIFEST);
    return 0;
  }
  return gb_err_set(err, EINVAL, "%s: %s/%s lists %s, which the archive does not hold", u->path,
                    u->top, GB_PACK_MANIFEST, SHOWN(name));
}

static int check_manifest(unpack *u, gb_err *err) {
  if (!u->has_manifest)
    return gb_err_set(err, EINVAL, "%s: no %s/%s; not a packed records folder", u->path, u->top,
                      GB_PACK_MANIFEST);
  size_t no = 0;
  for (size_t at = 0; at < u->manifest_len;) {
    const char *line = u->manifest + at, *nl = memchr(line, '\n', u->manifest_len - at);
    size_t len = nl ? (size_t)(nl - line) : u->manifest_len - at;
    int rc = check_line(u, line, len, ++no, err);
    if (rc < 0)
      return rc;
    at += len + 1;
  }
  for (size_t i = 0; i < u->n; i++)
    if (!u->m[i].listed)
      return gb_err_set(err, EINVAL, "%s: %s/%s: a member %s does not list", u->path, u->top,
                        SHOWN(u->m[i].name), GB_PACK_MANIFEST);
  return 0;
}

/* ---- Reading and cleaning up ----------------------------------------------- */

static int open_record(unpack *u, const char *name, int *fd, bool optional, gb_err *err) {
  *fd = openat(u->top_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (*fd >= 0 || (optional && errno == ENOENT))
    return 0;
  return gb_err_set(err, errno == ENOENT ? ENOENT : errno, "%s: no %s/%s in the archive",
                    u->path, u->top, name);
}

static int read_records(unpack *u, gb_records **out, gb_err *err) {
  char shown[PATH_MAX + GB_PACK_TOP_MAX + 2];
  snprintf(shown, sizeof shown, "%s:%s", u->path, u->top);
  gb_records_files f = {.dir = shown, .meta_fd = -1, .runs_fd = -1, .warmups_fd = -1};
  int rc = open_record(u, "meta.json", &f.meta_fd, false, err);
  if (rc == 0)
    rc = open_record(u, "runs.csv", &f.runs_fd, false, err);
  if (rc == 0)
    rc = open_record(u, "warmups.csv", &f.warmups_fd, true, err);
  if (rc == 0)
    rc = gb_records_read_files(&f, out, NULL, err);
  gb_records_files_close(&f);
  return rc;
}

static void clean_up(unpack *u) {
  for (size_t i = 0; u->top_fd >= 0 && i < u->n; i++)
    unlinkat(u->top_fd, u->m[i].name, 0);
  if (u->top_fd >= 0) {
    close(u->top_fd);
    unlinkat(u->tmp_fd, u->top, AT_REMOVEDIR);
  }
  if (u->tmp_fd >= 0) {
    close(u->tmp_fd);
    rmdir(u->tmp);
  }
  free(u->m);
  free(u->manifest);
}

static int make_temp(unpack *u, gb_err *err) {
  const char *base = getenv("TMPDIR");
  if (!base || !*base)
    base = "/tmp";
  if (snprintf(u->tmp, sizeof u->tmp, "%s/greenbench-unpack-XXXXXX", base) >=
      (int)sizeof u->tmp)
    return gb_err_set(err, ENAMETOOLONG, "%s: TMPDIR too long", u->path);
  if (!mkdtemp(u->tmp) ||
      (u->tmp_fd = open(u->tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
    int e = errno;
    rmdir(u->tmp);
    return gb_err_set(err, e, "%s: cannot make a temporary folder in %s: %s", u->path,
                      SHOWN(base), strerror(e));
  }
  return 0;
}

static struct archive *open_archive(const char *path, gb_err *err) {
  struct archive *a = archive_read_new();
  if (a && archive_read_support_format_tar(a) == ARCHIVE_OK &&
      archive_read_support_filter_gzip(a) == ARCHIVE_OK &&
      archive_read_support_filter_zstd(a) >= ARCHIVE_WARN &&
      archive_read_open_filename(a, path, CHUNK) == ARCHIVE_OK)
    return a;
  gb_err_set(err, EINVAL, "%s: neither a records folder nor a packed one: %s", path,
             a ? aerr(a) : "out of memory");
  archive_read_free(a);
  return NULL;
}

int gb_records_read_archive(const char *path, const gb_pack_limits *lim, gb_records **out,
                            gb_err *err) {
  unpack u = {.path = path, .lim = lim, .tmp_fd = -1, .top_fd = -1};
  struct archive *a = open_archive(path, err);
  if (!a)
    return -EINVAL;
  int rc = make_temp(&u, err);
  if (rc == 0)
    rc = extract_all(&u, a, err);
  archive_read_free(a);
  if (rc == 0)
    rc = check_manifest(&u, err);
  if (rc == 0)
    rc = read_records(&u, out, err);
  clean_up(&u);
  return rc;
}

int gb_records_read_path(const char *path, gb_records **out, gb_err *err) {
  if (gb_records_is_packed(path))
    return gb_records_read_archive(path, &gb_pack_default_limits, out, err);
  return gb_records_read(path, out, err);
}
