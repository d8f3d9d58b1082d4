#include "helper_powercap.h"

#include "greenbench/numparse.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct {
  char id[32];
  char dir[1024];
  char link[1024]; /* the flat link of a subzone, or "" */
  int parent;      /* zone handle, or -1 */
  int fd;          /* energy_uj, read-write */
  dev_t dev;
  ino_t ino;
  uint64_t energy, max, power, injected;
  uint64_t stall_from, stall_ticks;
  uint64_t every, every_from, every_ticks; /* periodic stalls */
  uint64_t jump_at, jump_uj;
  uint64_t vanish_at, fail_at;
  bool jump_pending, vanish_pending, gone;
  int fail_errno;
} fake_zone;

struct powercap_fake {
  char root[512];
  pthread_mutex_t mu;
  pthread_cond_t ticked;
  pthread_t thread;
  bool running, quit, held, any_fail;
  uint64_t ticks, preads;
  uint64_t stop_at; /* powercap_fake_hold_at's target, or 0 */
  int n;
  fake_zone z[POWERCAP_FAKE_MAX_ZONES];
};

__attribute__((format(printf, 1, 2), noreturn)) static void fake_die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("helper_powercap: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  abort();
}

/* Through a local buffer: out may lie in the same struct as a or b, which
 * GCC 12's -Wrestrict cannot tell from an overlap. */
static void fake_path(char *out, size_t cap, const char *a, const char *b) {
  char tmp[1200];
  int len = snprintf(tmp, sizeof tmp, "%s/%s", a, b);
  if (len < 0 || (size_t)len >= cap || (size_t)len >= sizeof tmp)
    fake_die("path too long: %s/%s", a, b);
  memcpy(out, tmp, (size_t)len + 1);
}

static void fake_write_file(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  size_t len = strlen(text);
  if (fd < 0 || write(fd, text, len) != (ssize_t)len)
    fake_die("cannot write %s: %s", path, strerror(errno));
  close(fd);
}

static int fake_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

static void fake_rm_tree(const char *path) {
  if (nftw(path, fake_rm_one, 16, FTW_DEPTH | FTW_PHYS) != 0 && errno != ENOENT)
    fake_die("cannot remove %s: %s", path, strerror(errno));
}

powercap_fake *powercap_fake_create(void) {
  powercap_fake *f = calloc(1, sizeof *f);
  const char *tmp = getenv("TMPDIR");
  if (!f)
    fake_die("out of memory");
  snprintf(f->root, sizeof f->root, "%s/gb-powercap-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  if (!mkdtemp(f->root))
    fake_die("mkdtemp %s: %s", f->root, strerror(errno));
  /* Readable by anyone, so a test that drops privileges can still look in. */
  chmod(f->root, 0755);
  char path[1024];
  fake_path(path, sizeof path, f->root, "intel-rapl");
  if (mkdir(path, 0755) != 0)
    fake_die("mkdir %s: %s", path, strerror(errno));
  fake_path(path, sizeof path, f->root, "intel-rapl/enabled");
  fake_write_file(path, "1\n");
  pthread_mutex_init(&f->mu, NULL);
  pthread_cond_init(&f->ticked, NULL);
  return f;
}

void powercap_fake_destroy(powercap_fake *f) {
  if (!f)
    return;
  if (f->running) {
    pthread_mutex_lock(&f->mu);
    f->quit = true;
    pthread_mutex_unlock(&f->mu);
    pthread_join(f->thread, NULL);
  }
  for (int i = 0; i < f->n; i++)
    close(f->z[i].fd);
  fake_rm_tree(f->root);
  pthread_cond_destroy(&f->ticked);
  pthread_mutex_destroy(&f->mu);
  free(f);
}

const char *powercap_fake_root(const powercap_fake *f) {
  return f->root;
}

static int fake_find(const powercap_fake *f, const char *id) {
  for (int i = 0; i < f->n; i++)
    if (strcmp(f->z[i].id, id) == 0)
      return i;
  fake_die("no zone %s", id);
}

/* Places zone z: inside its package for "intel-rapl:N:M", else at the top. */
static void fake_place(powercap_fake *f, fake_zone *z) {
  static const char prefix[] = "intel-rapl:";
  const char *p = z->id + sizeof prefix - 1;
  uint64_t n = 0, m = 0;
  if (strncmp(z->id, prefix, sizeof prefix - 1) == 0 &&
      gb_scan_u64(&p, 10, UINT32_MAX, &n) == 0 && *p++ == ':' &&
      gb_scan_u64(&p, 10, UINT32_MAX, &m) == 0 && *p == '\0') {
    char parent[32];
    snprintf(parent, sizeof parent, "intel-rapl:%u", (unsigned)n);
    z->parent = fake_find(f, parent);
    fake_path(z->dir, sizeof z->dir, f->z[z->parent].dir, z->id);
    fake_path(z->link, sizeof z->link, f->root, z->id);
  } else {
    z->parent = -1;
    fake_path(z->dir, sizeof z->dir, f->root, z->id);
  }
  if (mkdir(z->dir, 0755) != 0)
    fake_die("mkdir %s: %s", z->dir, strerror(errno));
  if (z->link[0]) {
    char target[80];
    snprintf(target, sizeof target, "intel-rapl:%u/%s", (unsigned)n, z->id);
    if (symlink(target, z->link) != 0)
      fake_die("symlink %s: %s", z->link, strerror(errno));
  }
}

/* The counter as 20 digits, zero-padded, in one pwrite of a constant length:
 * a reader never sees the file between a write and a truncate (a shorter
 * value after a wrap once read back as "1173\n\n"). The strict parser takes
 * leading zeros, and sysfs's own file is never torn. */
static void fake_publish(fake_zone *z) {
  char text[32];
  int len = snprintf(text, sizeof text, "%020llu\n", (unsigned long long)z->energy);
  if (pwrite(z->fd, text, (size_t)len, 0) != len || ftruncate(z->fd, len) != 0)
    fake_die("cannot update %s/energy_uj: %s", z->dir, strerror(errno));
}

int powercap_fake_zone(powercap_fake *f, const char *id, const char *name, uint64_t energy_uj,
                       uint64_t max_uj) {
  if (f->n == POWERCAP_FAKE_MAX_ZONES)
    fake_die("too many zones");
  fake_zone *z = &f->z[f->n];
  memset(z, 0, sizeof *z);
  snprintf(z->id, sizeof z->id, "%s", id);
  fake_place(f, z);
  char path[1200], text[64];
  fake_path(path, sizeof path, z->dir, "name");
  snprintf(text, sizeof text, "%s\n", name);
  fake_write_file(path, text);
  fake_path(path, sizeof path, z->dir, "max_energy_range_uj");
  snprintf(text, sizeof text, "%llu\n", (unsigned long long)max_uj);
  fake_write_file(path, text);
  fake_path(path, sizeof path, z->dir, "energy_uj");
  z->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0444);
  struct stat st;
  if (z->fd < 0 || fstat(z->fd, &st) != 0)
    fake_die("cannot create %s: %s", path, strerror(errno));
  z->dev = st.st_dev;
  z->ino = st.st_ino;
  z->energy = energy_uj;
  z->max = max_uj;
  fake_publish(z);
  return f->n++;
}

int powercap_fake_package(powercap_fake *f, unsigned socket, uint64_t energy_uj,
                          uint64_t max_uj) {
  char id[32], name[32];
  snprintf(id, sizeof id, "intel-rapl:%u", socket);
  snprintf(name, sizeof name, "package-%u", socket);
  return powercap_fake_zone(f, id, name, energy_uj, max_uj);
}

int powercap_fake_dram(powercap_fake *f, unsigned socket, unsigned sub, uint64_t energy_uj,
                       uint64_t max_uj) {
  char id[32];
  snprintf(id, sizeof id, "intel-rapl:%u:%u", socket, sub);
  return powercap_fake_zone(f, id, "dram", energy_uj, max_uj);
}

void powercap_fake_write(powercap_fake *f, const char *relpath, const char *text) {
  char path[1024];
  fake_path(path, sizeof path, f->root, relpath);
  pthread_mutex_lock(&f->mu);
  fake_write_file(path, text);
  pthread_mutex_unlock(&f->mu);
}

void powercap_fake_make_dir(powercap_fake *f, const char *relpath) {
  char path[1024];
  fake_path(path, sizeof path, f->root, relpath);
  if (unlink(path) != 0 || mkdir(path, 0755) != 0)
    fake_die("cannot replace %s by a directory: %s", path, strerror(errno));
}

void powercap_fake_power(powercap_fake *f, int zone, uint64_t uj_per_tick) {
  pthread_mutex_lock(&f->mu);
  f->z[zone].power = uj_per_tick;
  pthread_mutex_unlock(&f->mu);
}

void powercap_fake_set(powercap_fake *f, int zone, uint64_t energy_uj) {
  pthread_mutex_lock(&f->mu);
  f->z[zone].energy = energy_uj;
  fake_publish(&f->z[zone]);
  pthread_mutex_unlock(&f->mu);
}

void powercap_fake_stall(powercap_fake *f, int zone, uint64_t from_tick, uint64_t ticks) {
  pthread_mutex_lock(&f->mu);
  f->z[zone].stall_from = from_tick;
  f->z[zone].stall_ticks = ticks;
  pthread_mutex_unlock(&f->mu);
}

void powercap_fake_stall_every(powercap_fake *f, int zone, uint64_t every, uint64_t from,
                               uint64_t ticks) {
  pthread_mutex_lock(&f->mu);
  f->z[zone].every = every;
  f->z[zone].every_from = from;
  f->z[zone].every_ticks = ticks;
  pthread_mutex_unlock(&f->mu);
}

bool powercap_fake_stalled_at(powercap_fake *f, int zone, uint64_t tick) {
  pthread_mutex_lock(&f->mu);
  const fake_zone *z = &f->z[zone];
  bool once = z->stall_ticks && tick >= z->stall_from && tick - z->stall_from < z->stall_ticks;
  bool every = z->every && tick % z->every >= z->every_from &&
               tick % z->every - z->every_from < z->every_ticks;
  pthread_mutex_unlock(&f->mu);
  return once || every;
}

void powercap_fake_jump(powercap_fake *f, int zone, uint64_t at_tick, uint64_t uj) {
  pthread_mutex_lock(&f->mu);
  f->z[zone].jump_at = at_tick;
  f->z[zone].jump_uj = uj;
  f->z[zone].jump_pending = true;
  pthread_mutex_unlock(&f->mu);
}

void powercap_fake_vanish(powercap_fake *f, int zone, uint64_t at_tick) {
  pthread_mutex_lock(&f->mu);
  f->z[zone].vanish_at = at_tick;
  f->z[zone].vanish_pending = true;
  pthread_mutex_unlock(&f->mu);
}

void powercap_fake_fail(powercap_fake *f, int zone, uint64_t at_tick, int errnum) {
  pthread_mutex_lock(&f->mu);
  f->z[zone].fail_at = at_tick;
  f->z[zone].fail_errno = errnum;
  f->any_fail = true;
  pthread_mutex_unlock(&f->mu);
}

static void fake_remove(powercap_fake *f, int zone) {
  fake_zone *z = &f->z[zone];
  if (z->link[0])
    unlink(z->link);
  fake_rm_tree(z->dir);
  z->gone = true;
  for (int i = 0; i < f->n; i++)
    if (f->z[i].parent == zone) {
      if (f->z[i].link[0])
        unlink(f->z[i].link);
      f->z[i].gone = true;
    }
}

static uint64_t fake_added(fake_zone *z, uint64_t tick) {
  if (z->stall_ticks && tick >= z->stall_from && tick - z->stall_from < z->stall_ticks)
    return 0;
  if (z->every && tick % z->every >= z->every_from &&
      tick % z->every - z->every_from < z->every_ticks)
    return 0;
  uint64_t add = z->power;
  if (z->jump_pending && tick >= z->jump_at) {
    add += z->jump_uj;
    z->jump_pending = false;
  }
  return add;
}

/* One firmware update; called with the mutex held. */
static void fake_tick_locked(powercap_fake *f) {
  f->ticks++;
  for (int i = 0; i < f->n; i++) {
    fake_zone *z = &f->z[i];
    if (z->vanish_pending && !z->gone && f->ticks >= z->vanish_at)
      fake_remove(f, i);
    if (z->gone)
      continue;
    uint64_t add = fake_added(z, f->ticks), m = z->max + 1;
    if (add == 0)
      continue;
    z->energy = (z->energy + add % m) % m;
    z->injected += add;
    fake_publish(z);
  }
}

void powercap_fake_tick(powercap_fake *f, uint64_t n) {
  pthread_mutex_lock(&f->mu);
  while (n--)
    fake_tick_locked(f);
  pthread_cond_broadcast(&f->ticked);
  pthread_mutex_unlock(&f->mu);
}

static void *fake_firmware(void *arg) {
  powercap_fake *f = arg;
  struct timespec ms = {.tv_sec = 0, .tv_nsec = POWERCAP_FAKE_TICK_NS};
  for (;;) {
    nanosleep(&ms, NULL);
    pthread_mutex_lock(&f->mu);
    bool quit = f->quit;
    if (!quit && !f->held && !(f->stop_at && f->ticks >= f->stop_at))
      fake_tick_locked(f);
    pthread_cond_broadcast(&f->ticked);
    pthread_mutex_unlock(&f->mu);
    if (quit)
      return NULL;
  }
}

void powercap_fake_start(powercap_fake *f) {
  if (f->running || pthread_create(&f->thread, NULL, fake_firmware, f) != 0)
    fake_die("cannot start the firmware thread");
  f->running = true;
}

void powercap_fake_hold(powercap_fake *f) {
  pthread_mutex_lock(&f->mu);
  f->held = true;
  pthread_mutex_unlock(&f->mu);
}

void powercap_fake_release(powercap_fake *f) {
  pthread_mutex_lock(&f->mu);
  f->held = false;
  pthread_mutex_unlock(&f->mu);
}

void powercap_fake_hold_at(powercap_fake *f, uint64_t tick) {
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += 10;
  pthread_mutex_lock(&f->mu);
  f->stop_at = tick;
  while (f->ticks < tick)
    if (pthread_cond_timedwait(&f->ticked, &f->mu, &deadline) == ETIMEDOUT)
      fake_die("tick %llu not reached in 10 s (at %llu; held or not started?)",
               (unsigned long long)tick, (unsigned long long)f->ticks);
  f->held = true;
  f->stop_at = 0;
  pthread_mutex_unlock(&f->mu);
}

uint64_t powercap_fake_ticks(powercap_fake *f) {
  pthread_mutex_lock(&f->mu);
  uint64_t t = f->ticks;
  pthread_mutex_unlock(&f->mu);
  return t;
}

void powercap_fake_wait(powercap_fake *f, uint64_t tick) {
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += 10;
  pthread_mutex_lock(&f->mu);
  while (f->ticks < tick)
    if (pthread_cond_timedwait(&f->ticked, &f->mu, &deadline) == ETIMEDOUT)
      fake_die("tick %llu not reached in 10 s (at %llu; held or not started?)",
               (unsigned long long)tick, (unsigned long long)f->ticks);
  pthread_mutex_unlock(&f->mu);
}

uint64_t powercap_fake_injected(powercap_fake *f, int zone) {
  pthread_mutex_lock(&f->mu);
  uint64_t v = f->z[zone].injected;
  pthread_mutex_unlock(&f->mu);
  return v;
}

uint64_t powercap_fake_preads(powercap_fake *f) {
  pthread_mutex_lock(&f->mu);
  uint64_t v = f->preads;
  pthread_mutex_unlock(&f->mu);
  return v;
}

static uint64_t fake_now(void *ctx) {
  powercap_fake *f = ctx;
  return powercap_fake_ticks(f) * POWERCAP_FAKE_TICK_NS;
}

gb_clock powercap_fake_clock(powercap_fake *f) {
  return (gb_clock){.now_ns = fake_now, .ctx = f};
}

/* The scripted read error for fd, or 0; called with the mutex held. */
static int fake_failure(const powercap_fake *f, int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0)
    return 0;
  for (int i = 0; i < f->n; i++) {
    const fake_zone *z = &f->z[i];
    if (z->fail_errno && z->dev == st.st_dev && z->ino == st.st_ino && f->ticks >= z->fail_at)
      return z->fail_errno;
  }
  return 0;
}

static ssize_t fake_pread(int fd, void *buf, size_t len, off_t off, void *ctx) {
  powercap_fake *f = ctx;
  pthread_mutex_lock(&f->mu);
  f->preads++;
  int e = f->any_fail ? fake_failure(f, fd) : 0;
  ssize_t got = -1;
  if (!e) {
    got = pread(fd, buf, len, off);
    e = errno;
  }
  pthread_mutex_unlock(&f->mu);
  errno = e;
  return got;
}

gb_rapl_opts powercap_fake_rapl_opts(powercap_fake *f) {
  return (gb_rapl_opts){.root = f->root, .pread = fake_pread, .pread_ctx = f};
}
