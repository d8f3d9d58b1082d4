#include "greenbench/machine.h"
#include "greenbench/files.h"
#include "greenbench/meta.h"
#include "greenbench/numparse.h"
#include "greenbench/paths.h"
#include "greenbench/text.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#define CPU_DIR "sys/devices/system/cpu"
/* Plausible bounds; anything outside (including 0, which broken and virtual
 * sensors report) is a missing reading, not a measurement. */
#define FREQ_MAX_KHZ 100000000
#define TEMP_MAX_MC 150000
/* hwmon channels are numbered from 1 and can be sparse (k10temp: 1, 3, 4...). */
#define HWMON_MAX_CHANNEL 64

struct gb_machine_sampler {
  size_t ncpus;
  unsigned cpus[GB_MACHINE_MAX_CPUS];
  int freq_fd[GB_MACHINE_MAX_CPUS]; /* -1: no scaling_cur_freq */
  int temp_fd;                      /* -1: no temperature */
  char temp_desc[160];
};

static const char *const temp_hwmons[] = {"coretemp", "k10temp", "zenpower"};
static const char *const temp_zones[] = {"x86_pkg_temp", "cpu-thermal", "cpu_thermal",
                                         "soc_thermal"};

static void chomp(char *s) {
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
    s[--n] = '\0';
}

/* Reads a small text file whole, without its trailing newline. 0 or -errno
 * (-EFBIG when it does not fit). */
static int read_text(const char *path, char *buf, size_t len) {
  size_t n;
  int rc = gb_read_small_file(path, buf, len, &n, NULL);
  if (rc == 0)
    chomp(buf);
  return rc;
}

/* root joined with a printf-formatted relative path; -ENAMETOOLONG if long. */
static int vpath_at(char path[PATH_MAX], const char *root, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
static int vpath_at(char path[PATH_MAX], const char *root, const char *fmt, va_list ap) {
  char rel[PATH_MAX];
  int n = vsnprintf(rel, sizeof rel, fmt, ap);
  if (n < 0 || (size_t)n >= sizeof rel)
    return -ENAMETOOLONG;
  return gb_path_join(path, PATH_MAX, root, rel, NULL);
}

/* The value of the next /proc/cpuinfo line of f that starts with key
 * ("model name\t: Intel(R) ..."), without its spaces; NULL at the end. The
 * value lives in *line (getline's buffer). */
static char *cpuinfo_value(FILE *f, const char *key, char **line, size_t *cap) {
  while (getline(line, cap, f) > 0) {
    char *colon = strchr(*line, ':');
    if (strncmp(*line, key, strlen(key)) != 0 || !colon)
      continue;
    char *v = colon + 1 + strspn(colon + 1, " \t");
    chomp(v);
    return v;
  }
  return NULL;
}

static int read_at(char *buf, size_t len, const char *root, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int read_at(char *buf, size_t len, const char *root, const char *fmt, ...) {
  char path[PATH_MAX];
  va_list ap;
  va_start(ap, fmt);
  int rc = vpath_at(path, root, fmt, ap);
  va_end(ap);
  return rc < 0 ? rc : read_text(path, buf, len);
}

/* Re-reads an open sysfs attribute from offset 0, which regenerates it. */
static int pread_i64(int fd, int64_t lo, int64_t hi, int64_t *out) {
  char buf[32];
  ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  if (n <= 0)
    return -EIO;
  buf[n] = '\0';
  chomp(buf);
  return gb_parse_i64(buf, lo, hi, out);
}

static int check_args(const char *root, const unsigned *cpus, size_t ncpus, gb_err *err) {
  if (!cpus || ncpus == 0 || ncpus > GB_MACHINE_MAX_CPUS)
    return gb_err_set(err, EINVAL, "machine state needs 1 to %d CPUs, got %zu",
                      GB_MACHINE_MAX_CPUS, cpus ? ncpus : 0);
  if (root && strlen(root) > PATH_MAX / 2)
    return gb_err_set(err, EINVAL, "machine root path is too long");
  return 0;
}

/* "" stands for "/", so paths come out as "/sys/..." rather than "//sys". */
static const char *root_or_default(const char *root) {
  return root && strcmp(root, "/") != 0 ? root : "";
}

static void read_cpu_model(const char *root, gb_machine_info *info) {
  char path[PATH_MAX];
  if (gb_path_join(path, sizeof path, root, "proc/cpuinfo", NULL) < 0)
    return;
  FILE *f = fopen(path, "re");
  if (!f)
    return;
  char *line = NULL;
  size_t cap = 0;
  const char *v = cpuinfo_value(f, "model name", &line, &cap);
  if (v) {
    gb_str_append(info->cpu_model, sizeof info->cpu_model, "%s", v);
    info->has_cpu_model = v[0] != '\0';
  }
  free(line);
  fclose(f);
}

static void read_kernel(const char *root, gb_machine_info *info) {
  char type[64], release[128], version[192];
  if (read_at(type, sizeof type, root, "proc/sys/kernel/ostype") < 0 ||
      read_at(release, sizeof release, root, "proc/sys/kernel/osrelease") < 0)
    return;
  if (read_at(version, sizeof version, root, "proc/sys/kernel/version") < 0)
    version[0] = '\0';
  gb_str_append(info->kernel, sizeof info->kernel, "%s %s%s%s", type, release,
                version[0] ? " " : "", version);
  info->has_kernel = true;
}

static void read_governor(const char *root, const unsigned *cpus, size_t ncpus,
                          gb_machine_info *info) {
  char first[32] = "", g[32], list[160] = "";
  bool mixed = false;
  for (size_t i = 0; i < ncpus; i++) {
    if (read_at(g, sizeof g, root, CPU_DIR "/cpu%u/cpufreq/scaling_governor", cpus[i]) < 0 ||
        !g[0])
      continue;
    if (!first[0])
      snprintf(first, sizeof first, "%s", g);
    mixed |= strcmp(first, g) != 0;
    gb_str_append(list, sizeof list, "%s%u=%s", list[0] ? " " : "", cpus[i], g);
  }
  if (!first[0])
    return;
  info->has_governor = true;
  if (mixed)
    gb_str_append(info->governor, sizeof info->governor, "mixed: %s", list);
  else
    gb_str_append(info->governor, sizeof info->governor, "%s", first);
}

/* A 0/1 switch file; inverted for intel_pstate's no_turbo. */
static bool read_switch(const char *root, const char *rel, bool inverted,
                        gb_machine_info *info) {
  char buf[16];
  int64_t v;
  if (read_at(buf, sizeof buf, root, "%s", rel) < 0 || gb_parse_i64(buf, 0, 1, &v) < 0)
    return false;
  info->turbo = (v == 1) != inverted ? GB_TURBO_ON : GB_TURBO_OFF;
  gb_str_append(info->turbo_source, sizeof info->turbo_source, "%s", rel + sizeof CPU_DIR);
  return true;
}

/* intel_pstate first (it ignores cpufreq/boost), then the global cpufreq
 * switch (acpi-cpufreq), then the per-policy one (amd-pstate since 6.11). */
static void read_turbo(const char *root, unsigned cpu, gb_machine_info *info) {
  char rel[96];
  info->turbo = GB_TURBO_UNKNOWN;
  if (read_switch(root, CPU_DIR "/intel_pstate/no_turbo", true, info) ||
      read_switch(root, CPU_DIR "/cpufreq/boost", false, info))
    return;
  snprintf(rel, sizeof rel, CPU_DIR "/cpu%u/cpufreq/boost", cpu);
  read_switch(root, rel, false, info);
}

int gb_machine_info_read(const char *root, const unsigned *cpus, size_t ncpus,
                         gb_machine_info *out, gb_err *err) {
  int rc = check_args(root, cpus, ncpus, err);
  if (rc < 0)
    return rc;
  root = root_or_default(root);
  gb_machine_info info = {.turbo = GB_TURBO_UNKNOWN};
  read_cpu_model(root, &info);
  read_kernel(root, &info);
  read_governor(root, cpus, ncpus, &info);
  read_turbo(root, cpus[0], &info);
  *out = info;
  return 0;
}

static int open_at(const char *root, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int open_at(const char *root, const char *fmt, ...) {
  char path[PATH_MAX];
  va_list ap;
  va_start(ap, fmt);
  int rc = vpath_at(path, root, fmt, ap);
  va_end(ap);
  return rc < 0 ? -1 : open(path, O_RDONLY | O_CLOEXEC);
}

static bool name_in(const char *name, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(name, list[i]) == 0)
      return true;
  return false;
}

static int hwmon_filter(const struct dirent *d) {
  return strncmp(d->d_name, "hwmon", 5) == 0;
}

static int zone_filter(const struct dirent *d) {
  return strncmp(d->d_name, "thermal_zone", 12) == 0;
}

/* The channel of hwmon dir labelled wanted or "Tctl", its label in label;
 * 0 if none. */
static int labelled_channel(const char *root, const char *dir, const char *wanted,
                            char label[64]) {
  for (int ch = 1; ch <= HWMON_MAX_CHANNEL; ch++) {
    if (read_at(label, 64, root, "sys/class/hwmon/%s/temp%d_label", dir, ch) < 0)
      continue;
    if (strcmp(label, wanted) == 0 || strcmp(label, "Tctl") == 0)
      return ch;
  }
  return 0;
}

/* Opens hwmon dir's channel ch as the temperature source, noting it in s. */
static bool use_hwmon(gb_machine_sampler *s, const char *root, const char *dir,
                      const char *name, int ch, const char *label) {
  int fd = open_at(root, "sys/class/hwmon/%s/temp%d_input", dir, ch);
  if (fd < 0)
    return false;
  s->temp_fd = fd;
  gb_str_append(s->temp_desc, sizeof s->temp_desc, "%s %s temp%d%s%s%s", dir, name, ch,
                label ? " \"" : "", label ? label : "", label ? "\"" : "");
  return true;
}

/* A labelled package sensor in any matching hwmon beats temp1 of the first. */
static bool resolve_hwmon(gb_machine_sampler *s, const char *root, struct dirent **ents, int n,
                          const char *wanted) {
  int fallback = -1;
  char name[32], label[64];
  for (int i = 0; i < n; i++) {
    const char *dir = ents[i]->d_name;
    if (read_at(name, sizeof name, root, "sys/class/hwmon/%s/name", dir) < 0 ||
        !name_in(name, temp_hwmons, sizeof temp_hwmons / sizeof temp_hwmons[0]))
      continue;
    int ch = labelled_channel(root, dir, wanted, label);
    if (ch > 0 && use_hwmon(s, root, dir, name, ch, label))
      return true;
    if (fallback < 0)
      fallback = i;
  }
  if (fallback < 0 ||
      read_at(name, sizeof name, root, "sys/class/hwmon/%s/name", ents[fallback]->d_name) < 0)
    return false;
  return use_hwmon(s, root, ents[fallback]->d_name, name, 1, NULL);
}

static bool resolve_zone(gb_machine_sampler *s, const char *root, struct dirent **ents, int n) {
  size_t nkinds = sizeof temp_zones / sizeof temp_zones[0];
  char type[64];
  for (size_t k = 0; k < nkinds; k++) {
    for (int i = 0; i < n; i++) {
      const char *dir = ents[i]->d_name;
      if (read_at(type, sizeof type, root, "sys/class/thermal/%s/type", dir) < 0 ||
          strcmp(type, temp_zones[k]) != 0)
        continue;
      int fd = open_at(root, "sys/class/thermal/%s/temp", dir);
      if (fd < 0)
        continue;
      s->temp_fd = fd;
      gb_str_append(s->temp_desc, sizeof s->temp_desc, "%s %s", dir, type);
      return true;
    }
  }
  return false;
}

typedef bool (*resolve_fn)(gb_machine_sampler *, const char *, struct dirent **, int,
                           const char *);

static bool scan(gb_machine_sampler *s, const char *root, const char *rel,
                 int (*filter)(const struct dirent *), resolve_fn fn, const char *wanted) {
  char path[PATH_MAX];
  struct dirent **ents;
  if (gb_path_join(path, sizeof path, root, rel, NULL) < 0)
    return false;
  /* versionsort: hwmon2 before hwmon10, so "first" means lowest number. */
  int n = scandir(path, &ents, filter, versionsort);
  if (n < 0)
    return false;
  bool found = fn(s, root, ents, n, wanted);
  for (int i = 0; i < n; i++)
    free(ents[i]);
  free(ents);
  return found;
}

static bool resolve_zone_fn(gb_machine_sampler *s, const char *root, struct dirent **ents,
                            int n, const char *unused) {
  (void)unused;
  return resolve_zone(s, root, ents, n);
}

static void resolve_temp(gb_machine_sampler *s, const char *root) {
  char buf[16], wanted[32];
  int64_t pkg = 0;
  if (read_at(buf, sizeof buf, root, CPU_DIR "/cpu%u/topology/physical_package_id",
              s->cpus[0]) < 0 ||
      gb_parse_i64(buf, 0, 65535, &pkg) < 0)
    pkg = 0;
  snprintf(wanted, sizeof wanted, "Package id %d", (int)pkg);
  if (!scan(s, root, "sys/class/hwmon", hwmon_filter, resolve_hwmon, wanted))
    scan(s, root, "sys/class/thermal", zone_filter, resolve_zone_fn, NULL);
}

int gb_machine_sampler_open(const char *root, const unsigned *cpus, size_t ncpus,
                            gb_machine_sampler **out, gb_err *err) {
  int rc = check_args(root, cpus, ncpus, err);
  if (rc < 0)
    return rc;
  root = root_or_default(root);
  gb_machine_sampler *s = calloc(1, sizeof *s);
  if (!s)
    return gb_err_set(err, ENOMEM, "out of memory opening the machine sampler");
  s->ncpus = ncpus;
  s->temp_fd = -1;
  for (size_t i = 0; i < ncpus; i++) {
    s->cpus[i] = cpus[i];
    s->freq_fd[i] = open_at(root, CPU_DIR "/cpu%u/cpufreq/scaling_cur_freq", cpus[i]);
  }
  resolve_temp(s, root);
  *out = s;
  return 0;
}

void gb_machine_sampler_close(gb_machine_sampler *s) {
  if (!s)
    return;
  for (size_t i = 0; i < s->ncpus; i++)
    if (s->freq_fd[i] >= 0)
      close(s->freq_fd[i]);
  if (s->temp_fd >= 0)
    close(s->temp_fd);
  free(s);
}

void gb_machine_sample_read(gb_machine_sampler *s, gb_machine_sample *out) {
  gb_machine_sample r = {0};
  uint64_t sum = 0, n = 0;
  int64_t v;
  for (size_t i = 0; i < s->ncpus; i++) {
    if (s->freq_fd[i] < 0 || pread_i64(s->freq_fd[i], 1, FREQ_MAX_KHZ, &v) < 0)
      continue;
    sum += (uint64_t)v;
    n++;
    r.freq_cpu_mask |= UINT64_C(1) << i;
  }
  if (n > 0) {
    r.has_freq = true;
    r.freq_khz = (sum + n / 2) / n;
  }
  if (s->temp_fd >= 0 && pread_i64(s->temp_fd, 1, TEMP_MAX_MC, &v) == 0) {
    r.has_temp = true;
    r.temp_mc = v;
  }
  *out = r;
}

static void list_cpus(const gb_machine_sampler *s, bool with_file, char *buf, size_t len) {
  buf[0] = '\0';
  for (size_t i = 0; i < s->ncpus; i++)
    if ((s->freq_fd[i] >= 0) == with_file)
      gb_str_append(buf, len, "%s%u", buf[0] ? "," : "", s->cpus[i]);
}

int gb_machine_sampler_describe(const gb_machine_sampler *s, char *buf, size_t len) {
  char have[256], lack[256];
  list_cpus(s, true, have, sizeof have);
  list_cpus(s, false, lack, sizeof lack);
  int n;
  if (!have[0])
    n = snprintf(buf, len, "freq: none; temp: %s", s->temp_fd >= 0 ? s->temp_desc : "none");
  else
    n = snprintf(buf, len, "freq: scaling_cur_freq of CPUs %s%s%s%s; temp: %s", have,
                 lack[0] ? " (none for " : "", lack, lack[0] ? ")" : "",
                 s->temp_fd >= 0 ? s->temp_desc : "none");
  return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}

/* "name: value\n" from a file below root, or "name: unavailable: why (path)". */
static void fact_file(char *buf, size_t len, const char *name, const char *root,
                      const char *rel) {
  char v[4096 + 2], path[PATH_MAX]; /* a kernel command line (4 kB at most), "\n", NUL */
  if (gb_path_join(path, sizeof path, root, rel, NULL) < 0) {
    gb_str_append(buf, len, "%s: unavailable: path too long\n", name);
    return;
  }
  int rc = read_text(path, v, sizeof v);
  if (rc == 0 && !v[0])
    gb_str_append(buf, len, "%s: unavailable: %s is empty\n", name, path);
  else if (rc < 0)
    gb_str_append(buf, len, "%s: unavailable: cannot read %s: %s\n", name, path, strerror(-rc));
  else
    gb_str_append(buf, len, "%s: %s\n", name, v);
}

/* The distinct "microcode" values of /proc/cpuinfo, in order of appearance. */
static void fact_microcode(char *buf, size_t len, const char *root) {
  char path[PATH_MAX], seen[256] = "";
  FILE *f = gb_path_join(path, sizeof path, root, "proc/cpuinfo", NULL) < 0 ? NULL
                                                                            : fopen(path, "re");
  if (!f) {
    gb_str_append(buf, len, "microcode: unavailable: cannot read %s: %s\n", path,
                  strerror(errno));
    return;
  }
  char *line = NULL, *v;
  size_t cap = 0;
  while ((v = cpuinfo_value(f, "microcode", &line, &cap))) {
    char quoted[80];
    snprintf(quoted, sizeof quoted, " %s ", v);
    char padded[sizeof seen + 2];
    snprintf(padded, sizeof padded, " %s ", seen);
    if (v[0] && !strstr(padded, quoted))
      gb_str_append(seen, sizeof seen, "%s%s", seen[0] ? " " : "", v);
  }
  free(line);
  fclose(f);
  if (seen[0])
    gb_str_append(buf, len, "microcode: %s\n", seen);
  else
    gb_str_append(buf, len, "microcode: unavailable: no microcode line in %s\n", path);
}

static int powercap_filter(const struct dirent *d) {
  /* top-level zones only: "intel-rapl:0", "intel-rapl-tpmi:0", not "intel-rapl:0:1" */
  const char *colon = strchr(d->d_name, ':');
  return colon && !strchr(colon + 1, ':');
}

/* Every constraint_K_power_limit_uw of the top-level powercap zones. */
static void fact_power_limits(char *buf, size_t len, const char *powercap) {
  struct dirent **ents = NULL;
  int n = scandir(powercap, &ents, powercap_filter, alphasort);
  if (n < 0) {
    gb_str_append(buf, len, "rapl power limits: unavailable: cannot list %s: %s\n", powercap,
                  strerror(errno));
    return;
  }
  size_t before = strlen(buf);
  for (int i = 0; i < n; i++) {
    const char *z = ents[i]->d_name;
    char zname[64] = "?";
    read_at(zname, sizeof zname, powercap, "%s/name", z);
    for (int k = 0; k < 8; k++) {
      char limit[64], cname[64] = "?";
      if (read_at(limit, sizeof limit, powercap, "%s/constraint_%d_power_limit_uw", z, k) < 0)
        continue;
      read_at(cname, sizeof cname, powercap, "%s/constraint_%d_name", z, k);
      gb_str_append(buf, len, "rapl power limit: %s (%s) constraint_%d %s: %s uW\n", z, zname,
                    k, cname, limit);
    }
  }
  for (int i = 0; i < n; i++)
    free(ents[i]);
  free(ents);
  if (strlen(buf) == before)
    gb_str_append(buf, len,
                  "rapl power limits: unavailable: no constraint_*_power_limit_uw "
                  "readable under %s\n",
                  powercap);
}

int gb_machine_facts_describe(const char *root, const char *powercap, unsigned cpu, char *buf,
                              size_t len) {
  if (!buf || len == 0)
    return -EINVAL;
  buf[0] = '\0';
  root = root_or_default(root);
  char rel[128], name[128];
  fact_file(buf, len, "kernel command line", root, "proc/cmdline");
  snprintf(rel, sizeof rel, CPU_DIR "/cpu%u/cpufreq/scaling_driver", cpu);
  snprintf(name, sizeof name, "scaling driver (cpu%u)", cpu);
  fact_file(buf, len, name, root, rel);
  fact_file(buf, len, "intel_pstate status", root, CPU_DIR "/intel_pstate/status");
  fact_file(buf, len, "amd_pstate status", root, CPU_DIR "/amd_pstate/status");
  snprintf(rel, sizeof rel, CPU_DIR "/cpu%u/cpufreq/energy_performance_preference", cpu);
  snprintf(name, sizeof name, "energy performance preference (cpu%u)", cpu);
  fact_file(buf, len, name, root, rel);
  fact_file(buf, len, "smt active", root, CPU_DIR "/smt/active");
  fact_microcode(buf, len, root);
  fact_file(buf, len, "bios vendor", root, "sys/devices/virtual/dmi/id/bios_vendor");
  fact_file(buf, len, "bios version", root, "sys/devices/virtual/dmi/id/bios_version");
  fact_file(buf, len, "bios date", root, "sys/devices/virtual/dmi/id/bios_date");
  char pc[PATH_MAX];
  if (powercap)
    gb_str_copy(pc, sizeof pc, powercap);
  else if (gb_path_join(pc, sizeof pc, root, "sys/class/powercap", NULL) < 0)
    pc[0] = '\0';
  fact_power_limits(buf, len, pc);
  return strlen(buf) + 1 >= len ? -ENOSPC : 0;
}

int gb_machine_label(const char *given, char *buf, size_t len, gb_err *err) {
  if (len < GB_META_NAME_MAX)
    return gb_err_set(err, ENOSPC, "no room for a machine label");
  if (given) {
    if (!gb_meta_label_valid(given)) {
      gb_excerpt_buf shown;
      return gb_err_set(err, EINVAL,
                        "machine label '%s' is not a label: 1 to 63 letters, digits, '_' or "
                        "'-' (no dots)",
                        gb_excerpt(&shown, given));
    }
    gb_str_copy(buf, len, given);
    return 0;
  }
  struct utsname u;
  gb_machine_info info = {.turbo = GB_TURBO_UNKNOWN};
  read_cpu_model("", &info);
  gb_meta_label_from_machine(uname(&u) == 0 ? u.nodename : "", info.cpu_model, buf, len);
  return 0;
}
