/* Machine state for records (meta.json, runs.csv): what the processor is and
 * how it is set up, read once per campaign, and a cheap per-run sample of the
 * pinned CPUs' frequency and the package temperature (docs/methods.md #5).
 *
 * Everything is read below an injectable root: NULL means the real machine
 * ("/sys/...", "/proc/..."); tests pass a fake tree holding sys/ and proc/.
 * A reading that is absent, unreadable or out of range is recorded as missing
 * (a has_ flag false, or GB_TURBO_UNKNOWN), never as 0. */
#ifndef GREENBENCH_MACHINE_H
#define GREENBENCH_MACHINE_H

#include "greenbench/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most CPUs a sampler follows (matches GB_PIN_MAX). */
#define GB_MACHINE_MAX_CPUS 64

typedef enum {
  GB_TURBO_UNKNOWN = -1, /* no turbo/boost switch found */
  GB_TURBO_OFF = 0,
  GB_TURBO_ON = 1,
} gb_turbo;

typedef struct {
  bool has_cpu_model;
  char cpu_model[128]; /* /proc/cpuinfo "model name" of the first processor */
  bool has_kernel;
  char kernel[256]; /* "ostype osrelease version" from /proc/sys/kernel, as uname -srv */
  bool has_governor;
  /* cpufreq scaling_governor of the given CPUs: one name when they agree
   * ("performance"), else "mixed: 1=performance 2=powersave"; CPUs without a
   * governor file are left out of the list. */
  char governor[160];
  gb_turbo turbo;
  /* Where turbo came from: "intel_pstate/no_turbo" (1 means off),
   * "cpufreq/boost" or "cpuN/cpufreq/boost" (1 means on); "" when unknown. */
  char turbo_source[48];
} gb_machine_info;

/* Reads the machine description below root (NULL: "/") for the pinned CPUs
 * cpus[0..ncpus). Missing pieces are flagged, not errors. Errors: -EINVAL for
 * ncpus 0 or above GB_MACHINE_MAX_CPUS, or a root too long for a path. */
GB_MUST_USE int gb_machine_info_read(const char *root, const unsigned *cpus, size_t ncpus,
                                     gb_machine_info *out, gb_err *err);

/* Per-run readings. Frequencies are kHz, temperature is m°C. */
typedef struct {
  bool has_freq;
  uint64_t freq_khz;      /* mean scaling_cur_freq over the CPUs read, rounded */
  uint64_t freq_cpu_mask; /* bit i set: cpus[i] of the sampler was read this time */
  bool has_temp;
  int64_t temp_mc;
} gb_machine_sample;

/* An open sampler: paths resolved and files opened once (O_CLOEXEC, so the
 * workers never inherit them), then re-read with pread on every sample. */
typedef struct gb_machine_sampler gb_machine_sampler;

/* Resolves, below root (NULL: "/"), each pinned CPU's
 * cpuN/cpufreq/scaling_cur_freq, and one package temperature: the hwmon
 * named coretemp, k10temp or zenpower (lowest hwmon number first) whose label
 * is "Package id P" (P the first CPU's physical package) or "Tctl", else that
 * hwmon's temp1_input; failing that a thermal_zone of type x86_pkg_temp (then
 * cpu-thermal, cpu_thermal, soc_thermal). Finding nothing is not an error:
 * samples then report missing. Errors: -EINVAL for bad arguments, -ENOMEM. */
GB_MUST_USE int gb_machine_sampler_open(const char *root, const unsigned *cpus, size_t ncpus,
                                        gb_machine_sampler **out, gb_err *err);

/* Closes the files and frees s; NULL is allowed. */
void gb_machine_sampler_close(gb_machine_sampler *s);

/* Reads every resolved file once with pread: no allocation, no path lookup,
 * no directory scan. Cannot fail; what could not be read is marked missing
 * (a value of 0 kHz counts as missing). */
void gb_machine_sample_read(gb_machine_sampler *s, gb_machine_sample *out);

/* One line for meta.json saying what the sampler reads, e.g.
 * "freq: scaling_cur_freq of CPUs 1,2 (none for 3); temp: hwmon1 coretemp
 * temp1 \"Package id 0\"". Returns 0, or -ENOSPC (truncated, terminated). */
GB_MUST_USE int gb_machine_sampler_describe(const gb_machine_sampler *s, char *buf, size_t len);

/* The machine facts a reader needs to reproduce a campaign, one "name: value"
 * line each, for environment.txt: the kernel command line, cpu's scaling
 * driver and energy performance preference, the intel_pstate and amd_pstate
 * modes, smt/active, the microcode revisions, the BIOS vendor, version and
 * date, and every constraint_K_power_limit_uw of the top-level zones under
 * powercap (NULL: root's sys/class/powercap). Everything is read below root
 * (NULL: "/"); what cannot be read says "unavailable: " and why. Returns 0,
 * -EINVAL for no buffer, or -ENOSPC (truncated, terminated). */
GB_MUST_USE int gb_machine_facts_describe(const char *root, const char *powercap, unsigned cpu,
                                          char *buf, size_t len);

/* The machine label a campaign records (meta.json machine.label) into
 * buf[0..len), len >= GB_META_NAME_MAX: `given` when not NULL, which must
 * be a label (gb_meta_label_valid: 1 to 63 of A-Z a-z 0-9 _ -), else this
 * host's name (uname's nodename) and CPU model (/proc/cpuinfo) made one by
 * gb_meta_label_from_machine.
 * Errors: -EINVAL with a one-line message naming the value, -ENOSPC for a
 * short buf. */
GB_MUST_USE int gb_machine_label(const char *given, char *buf, size_t len, gb_err *err);

#endif
