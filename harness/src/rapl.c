#include "greenbench/rapl.h"
#include "harness_internal.h"

#include "greenbench/files.h"
#include "greenbench/numparse.h"
#include "greenbench/paths.h"
#include "greenbench/text.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "greenbench/clock.h"

#define ZONE_PREFIX "intel-rapl:"
/* Intel Xeon 6 registers its packages through TPMI as well: not read. */
#define TPMI_PREFIX "intel-rapl-tpmi:"
#define EXCERPT_MAX 40 /* bytes of a sysfs file quoted in a message */

static ssize_t plain_pread(int fd, void *buf, size_t len, off_t off, void *ctx) {
  (void)ctx;
  return pread(fd, buf, len, off);
}

/* What sysfs prints with "%llu\n": decimal digits and at most one trailing
 * newline. Signs, spaces and empty text are refused. */
static int parse_u64(const char *s, size_t len, uint64_t *out) {
  if (len > 0 && s[len - 1] == '\n')
    len--;
  return gb_parse_u64_n(s, len, 0, UINT64_MAX, out);
}

/* Digits at s as an index below one million; returns the end, or NULL. */
static const char *parse_index(const char *s, unsigned *out) {
  uint64_t v;
  if (gb_scan_u64(&s, 10, 999999, &v) < 0)
    return NULL;
  *out = (unsigned)v;
  return s;
}

/* "package-N" or, on multi-die processors, "package-N-die-D". */
static bool parse_package_name(const char *name, unsigned *socket) {
  static const char pre[] = "package-";
  unsigned die;
  if (strncmp(name, pre, sizeof pre - 1) != 0)
    return false;
  const char *p = parse_index(name + sizeof pre - 1, socket);
  if (p && *p == '\0')
    return true;
  if (!p || strncmp(p, "-die-", 5) != 0)
    return false;
  p = parse_index(p + 5, &die);
  return p && *p == '\0';
}

/* "intel-rapl:N" (sub == NULL) or "intel-rapl:N:M" with N == *parent. */
static bool is_zone_id(const char *id, const unsigned *parent) {
  unsigned n, m;
  if (strncmp(id, ZONE_PREFIX, sizeof ZONE_PREFIX - 1) != 0)
    return false;
  const char *p = parse_index(id + sizeof ZONE_PREFIX - 1, &n);
  if (!p)
    return false;
  if (!parent)
    return *p == '\0';
  if (n != *parent || *p != ':')
    return false;
  p = parse_index(p + 1, &m);
  return p && *p == '\0';
}

/* Reads the small sysfs file dir/leaf whole; *len excludes the NUL added at
 * the end. */
static int read_text(const char *dir, const char *leaf, char *buf, size_t cap, size_t *len,
                     gb_err *err) {
  char path[GB_RAPL_PATH_MAX + 32];
  int rc = gb_path_join(path, sizeof path, dir, leaf, err);
  return rc < 0 ? rc : gb_read_small_file(path, buf, cap, len, err);
}

static int read_name(const char *zone_dir, char *name, size_t cap, gb_err *err) {
  size_t len;
  int rc = read_text(zone_dir, "name", name, cap, &len, err);
  if (rc < 0)
    return rc;
  if (len > 0 && name[len - 1] == '\n')
    name[--len] = '\0';
  return 0;
}

static int add_zone(gb_rapl *r, const char *id, const char *name, const char *path,
                    gb_rapl_kind kind, unsigned socket, gb_err *err) {
  for (size_t i = 0; i < r->n; i++)
    if (kind == GB_RAPL_PACKAGE && strcmp(r->zone[i].name, name) == 0)
      return gb_err_set(err, EINVAL, "%s and %s/%s are both named %s", r->zone[i].path, r->root,
                        id, name);
  if (r->n == GB_RAPL_MAX_ZONES)
    return gb_err_set(err, E2BIG, "more than %d RAPL zones under %s", GB_RAPL_MAX_ZONES,
                      r->root);
  gb_rapl_zone *z = &r->zone[r->n++];
  snprintf(z->id, sizeof z->id, "%s", id);
  snprintf(z->name, sizeof z->name, "%s", name);
  snprintf(z->path, sizeof z->path, "%s", path);
  z->kind = kind;
  z->socket = socket;
  return 0;
}

/* Considers directory dir/id as a zone; parent is NULL for a top-level one
 * (counted when named package-N) or the package zone a subzone belongs to
 * (counted when named dram). */
static int consider(gb_rapl *r, const char *dir, const char *id, const gb_rapl_zone *parent,
                    gb_err *err) {
  char path[GB_RAPL_PATH_MAX], name[sizeof r->zone[0].name];
  unsigned socket;
  int rc = gb_path_join(path, sizeof path, dir, id, err);
  if (rc == 0)
    rc = read_name(path, name, sizeof name, err);
  if (rc == -EFBIG)
    return 0; /* longer than any name counted below */
  if (rc < 0)
    return rc;
  if (!parent && parse_package_name(name, &socket))
    return add_zone(r, id, name, path, GB_RAPL_PACKAGE, socket, err);
  if (parent && strcmp(name, "dram") == 0)
    return add_zone(r, id, name, path, GB_RAPL_DRAM, parent->socket, err);
  return 0; /* psys, core, uncore, ...: they overlap the package */
}

/* Looks at every entry of dir that is a zone id: top-level ones when parent
 * is NULL, else the subzones of that package. */
static int scan(gb_rapl *r, const char *dir, const gb_rapl_zone *parent, gb_err *err) {
  unsigned index;
  if (parent)
    parse_index(parent->id + sizeof ZONE_PREFIX - 1, &index);
  DIR *d = opendir(dir);
  if (!d)
    return gb_err_set(err, errno == ENOENT ? ENOENT : errno, "cannot open %s: %s", dir,
                      strerror(errno));
  int rc = 0;
  for (;;) {
    errno = 0;
    struct dirent *e = readdir(d);
    if (!e) {
      if (errno != 0)
        rc = gb_err_set(err, errno, "cannot list %s: %s", dir, strerror(errno));
      break;
    }
    if (is_zone_id(e->d_name, parent ? &index : NULL))
      rc = consider(r, dir, e->d_name, parent, err);
    if (rc < 0)
      break;
  }
  closedir(d);
  return rc;
}

static int zone_order(const void *a, const void *b) {
  const gb_rapl_zone *x = a, *y = b;
  if (x->socket != y->socket)
    return x->socket < y->socket ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind == GB_RAPL_PACKAGE ? -1 : 1;
  int c = strcmp(x->name, y->name);
  return c ? c : strcmp(x->id, y->id);
}

static int no_zone(const gb_rapl *r, const char *why, gb_err *err) {
  return gb_err_set(err, ENOENT,
                    "no RAPL package zone under %s (%s): load the intel_rapl_msr module, "
                    "point %s at a powercap tree, or run with --energy off (virtual "
                    "machines usually have no RAPL)",
                    r->root, why, GB_RAPL_ROOT_ENV);
}

static int discover(gb_rapl *r, gb_err *err) {
  gb_err inner;
  int rc = scan(r, r->root, NULL, &inner);
  if (rc == -ENOENT || rc == -ENOTDIR)
    return no_zone(r, inner.msg, err);
  if (rc < 0) {
    if (err)
      *err = inner;
    return rc;
  }
  size_t packages = r->n;
  if (packages == 0)
    return no_zone(r, "no intel-rapl:N directory is named package-N", err);
  for (size_t i = 0; i < packages && rc == 0; i++)
    rc = scan(r, r->zone[i].path, &r->zone[i], err);
  if (rc == 0)
    qsort(r->zone, r->n, sizeof r->zone[0], zone_order);
  return rc;
}

static int bad_number(const char *dir, const char *leaf, const char *text, size_t len,
                      const char *want, int rc, gb_err *err) {
  char shown[EXCERPT_MAX * 4 + 8];
  gb_str_excerpt(text, len, EXCERPT_MAX, shown, sizeof shown);
  return gb_err_set(err, -rc, "%s/%s: expected %s, got \"%s\"", dir, leaf, want, shown);
}

static int load_range(gb_rapl_zone *z, gb_err *err) {
  char text[64];
  size_t len;
  uint64_t v;
  int rc = read_text(z->path, "max_energy_range_uj", text, sizeof text, &len, err);
  if (rc < 0)
    return rc;
  rc = parse_u64(text, len, &v);
  if (rc == 0 && v == 0)
    rc = -EINVAL;
  if (rc < 0)
    return bad_number(z->path, "max_energy_range_uj", text, len,
                      "a positive whole number of microjoules", rc, err);
  z->max_energy_range_uj = v;
  return 0;
}

static int no_access(const gb_rapl_zone *z, gb_err *err) {
  return gb_err_set(
      err, EACCES,
      "cannot read %s/energy_uj: permission denied; energy_uj is root-only "
      "since Linux 5.10 (and 4.4.243, 4.9.243, 4.14.206, 4.19.157, the 5.4 "
      "and 5.9 stable series): run greenbench as root (sudo), or grant read access "
      "to the file (chmod a+r, or a udev rule on SUBSYSTEM==\"powercap\")",
      z->path);
}

static int open_energy(gb_rapl *r, size_t i, gb_err *err) {
  char path[GB_RAPL_PATH_MAX + 32];
  const gb_rapl_zone *z = &r->zone[i];
  int rc = gb_path_join(path, sizeof path, z->path, "energy_uj", err);
  if (rc < 0)
    return rc;
  r->fd[i] = open(path, O_RDONLY | O_CLOEXEC);
  if (r->fd[i] < 0 && errno == EACCES)
    return no_access(z, err);
  if (r->fd[i] < 0)
    return gb_err_set(err, errno, "cannot open %s: %s", path, strerror(errno));
  uint64_t uj;
  return gb_rapl_read(r, i, &uj, err);
}

static const char *resolve_root(const gb_rapl_opts *opts) {
  if (opts && opts->root && opts->root[0])
    return opts->root;
  const char *env = getenv(GB_RAPL_ROOT_ENV);
  return env && env[0] ? env : GB_RAPL_DEFAULT_ROOT;
}

static int setup(gb_rapl *r, const gb_rapl_opts *opts, gb_err *err) {
  const char *root = resolve_root(opts);
  if (strlen(root) >= sizeof r->root - 64)
    return gb_err_set(err, ENAMETOOLONG, "powercap root too long: %s", root);
  snprintf(r->root, sizeof r->root, "%s", root);
  r->pread = opts && opts->pread ? opts->pread : plain_pread;
  r->pread_ctx = opts ? opts->pread_ctx : NULL;
  int rc = discover(r, err);
  for (size_t i = 0; i < r->n && rc == 0; i++) {
    rc = load_range(&r->zone[i], err);
    if (rc == 0)
      rc = open_energy(r, i, err);
  }
  return rc;
}

int gb_rapl_open(const gb_rapl_opts *opts, gb_rapl **out, gb_err *err) {
  gb_rapl *r = gbi_rapl_alloc();
  if (!r)
    return gb_err_set(err, ENOMEM, "out of memory for the RAPL zones");
  int rc = setup(r, opts, err);
  if (rc < 0) {
    gb_rapl_close(r);
    return rc;
  }
  *out = r;
  return 0;
}

void gb_rapl_close(gb_rapl *r) {
  if (!r)
    return;
  for (size_t i = 0; i < GB_RAPL_MAX_ZONES; i++)
    if (r->fd[i] >= 0 && r->perf)
      r->perf_reader.close(r->perf_reader.ctx, r->fd[i]);
    else if (r->fd[i] >= 0)
      close(r->fd[i]);
  free(r);
}

const char *gb_rapl_source(const gb_rapl *r) {
  return r->perf ? "perf_event" : "powercap";
}

gb_rapl *gbi_rapl_alloc(void) {
  gb_rapl *r = calloc(1, sizeof *r);
  for (size_t i = 0; r && i < GB_RAPL_MAX_ZONES; i++)
    r->fd[i] = -1;
  return r;
}

const char *gb_rapl_root(const gb_rapl *r) {
  return r->root;
}

size_t gb_rapl_count(const gb_rapl *r) {
  return r->n;
}

const gb_rapl_zone *gb_rapl_zone_at(const gb_rapl *r, size_t i) {
  return &r->zone[i];
}

bool gb_rapl_has_dram(const gb_rapl *r) {
  for (size_t i = 0; i < r->n; i++)
    if (r->zone[i].kind == GB_RAPL_DRAM)
      return true;
  return false;
}

int gb_rapl_read(gb_rapl *r, size_t i, uint64_t *uj, gb_err *err) {
  const gb_rapl_zone *z = &r->zone[i];
  if (r->perf)
    return gbi_perf_read(r, i, uj, err);
  char buf[32];
  ssize_t got = r->pread(r->fd[i], buf, sizeof buf - 1, 0, r->pread_ctx);
  if (got < 0 && errno == EACCES)
    return no_access(z, err);
  if (got < 0)
    return gb_err_set(err, errno, "cannot read %s/energy_uj: %s", z->path, strerror(errno));
  if (got == 0)
    return gb_err_set(err, ENODATA, "%s/energy_uj: the read returned nothing (zone removed?)",
                      z->path);
  uint64_t v;
  int rc = parse_u64(buf, (size_t)got, &v);
  if (rc < 0)
    return bad_number(z->path, "energy_uj", buf, (size_t)got, "a whole number of microjoules",
                      rc, err);
  if (v > z->max_energy_range_uj)
    return gb_err_set(err, ERANGE, "%s/energy_uj: %llu uJ is above max_energy_range_uj %llu",
                      z->path, (unsigned long long)v,
                      (unsigned long long)z->max_energy_range_uj);
  *uj = v;
  return 0;
}

int gb_rapl_read_all(gb_rapl *r, uint64_t *uj, gb_err *err) {
  for (size_t i = 0; i < r->n; i++) {
    int rc = gb_rapl_read(r, i, &uj[i], err);
    if (rc < 0)
      return rc;
  }
  return 0;
}

int gb_rapl_check(gb_rapl *r, size_t i, gb_err *err) {
  struct stat st;
  if (r->perf)
    return 0; /* an event that fails is seen by its read */
  if (fstat(r->fd[i], &st) != 0)
    return gb_err_set(err, errno, "cannot stat %s/energy_uj: %s", r->zone[i].path,
                      strerror(errno));
  if (st.st_nlink == 0)
    return gb_err_set(err, ENODEV, "%s/energy_uj was removed: the zone has disappeared",
                      r->zone[i].path);
  return 0;
}

uint64_t gb_rapl_delta_uj(uint64_t before, uint64_t after, uint64_t max_range_uj) {
  if (after >= before)
    return after - before;
  /* One wrap. The kernel reports max_energy_range_uj as the value of an
   * all-ones raw counter, i.e. the largest value energy_uj can show, so the
   * counter runs 0..max inclusive and the step from max back to 0 is one
   * more increment: max - before to reach the top, +1 to wrap, + after.
   * Strictly, that last increment is one hardware energy unit (about 15 or
   * 61 uJ), which powercap does not expose; the +1 undercounts each wrap by
   * less than that unit, i.e. by less than 1e-4 of one 200 ms run. */
  return (max_range_uj - before) + after + 1;
}

int gb_rapl_watch(gb_rapl *r, uint64_t window_ns, uint64_t step_ns, const gb_clock *clock,
                  gb_rapl_watched *out, gb_err *err) {
  uint64_t last[GB_RAPL_MAX_ZONES], now[GB_RAPL_MAX_ZONES], changed[GB_RAPL_MAX_ZONES];
  gb_rapl_watched w[GB_RAPL_MAX_ZONES] = {0};
  gb_clock c = clock && clock->now_ns ? *clock : gb_clock_raw();
  if (window_ns == 0 || step_ns == 0)
    return gb_err_set(err, EINVAL, "RAPL watch: the window and the step must be longer than 0");
  int rc = gb_rapl_read_all(r, last, err);
  uint64_t start = gb_monotonic_raw_ns(), first = gb_clock_now(&c);
  for (size_t i = 0; i < r->n; i++)
    changed[i] = first;
  while (rc == 0 && gb_monotonic_raw_ns() - start < window_ns) {
    rc = gb_sleep_ns(step_ns);
    if (rc < 0)
      return gb_err_set(err, -rc, "RAPL watch: cannot sleep: %s", strerror(-rc));
    uint64_t lo = gb_clock_now(&c);
    rc = gb_rapl_read_all(r, now, err);
    uint64_t hi = gb_clock_now(&c);
    for (size_t i = 0; i < r->n && rc == 0; i++) {
      /* Unchanged from the first reading that showed the value (its clock
       * after) to this one (its clock before): a standstill at least this long. */
      uint64_t still = lo > changed[i] ? lo - changed[i] : 0;
      if (now[i] != last[i]) {
        w[i].moved = true;
        changed[i] = hi;
      } else if (still > w[i].longest_still_ns) {
        w[i].longest_still_ns = still;
      }
      last[i] = now[i];
    }
  }
  if (rc < 0)
    return rc;
  memcpy(out, w, r->n * sizeof w[0]);
  return 0;
}

static int tpmi_filter(const struct dirent *e) {
  unsigned index;
  const char *p = strncmp(e->d_name, TPMI_PREFIX, sizeof TPMI_PREFIX - 1) == 0
                      ? parse_index(e->d_name + sizeof TPMI_PREFIX - 1, &index)
                      : NULL;
  return p && *p == '\0';
}

int gb_rapl_tpmi_zones(const char *root, char *buf, size_t len) {
  gb_rapl_opts opts = {.root = root};
  const char *dir = resolve_root(&opts);
  if (buf && len)
    buf[0] = '\0';
  struct dirent **ents;
  int n = scandir(dir, &ents, tpmi_filter, versionsort);
  if (n < 0)
    return 0;
  for (int i = 0; i < n; i++) {
    char path[GB_RAPL_PATH_MAX], name[64];
    gb_err ignored;
    if (gb_path_join(path, sizeof path, dir, ents[i]->d_name, &ignored) < 0 ||
        read_name(path, name, sizeof name, &ignored) < 0)
      gb_str_copy(name, sizeof name, "?");
    if (buf && len)
      gb_str_append(buf, len, "%s%s (%s)", i ? ", " : "", ents[i]->d_name, name);
    free(ents[i]);
  }
  free(ents);
  return n;
}
