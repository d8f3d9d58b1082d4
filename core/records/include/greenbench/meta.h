/* meta.json, a campaign's settings, plan, calibration, machine and energy
 * (docs/records.md): the model the harness fills and writes with
 * gb_meta_to_json, and the parser and checks the reader applies. */
#ifndef GREENBENCH_META_H
#define GREENBENCH_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "greenbench/error.h"
#include "greenbench/records.h"
#include "greenbench/settings.h"
#include "greenbench/workload.h"

/* cJSON is only needed by callers of gb_meta_to_json. */
struct cJSON;

#define GB_META_FORMAT "greenbench-records-1"
/* Sorts per process are calibrated to this multiple of settings.target_ms
 * (240 ms for 200 ms), so ordinary run-to-run variation stays above the
 * target: the harness aims there and the report says so. */
#define GB_META_CALIBRATION_HEADROOM_NUM 6
#define GB_META_CALIBRATION_HEADROOM_DEN 5
#define GB_META_MAX_ZONES 16
#define GB_META_MAX_WARMUPS GB_MAX_WARMUPS /* warm-up loop times kept per configuration */
#define GB_META_NAME_MAX 64
#define GB_META_TEXT_MAX 512
/* Variables listed in meta.json's harness_env. */
#define GB_META_MAX_ENV 32

typedef enum {
  GB_META_ZONE_PACKAGE,
  GB_META_ZONE_DRAM,
  GB_META_ZONE_KIND_COUNT
} gb_meta_zone_kind;

/* "package", "dram"; NULL out of range. Parse: 0 or -EINVAL. */
const char *gb_meta_zone_kind_name(gb_meta_zone_kind v);
GB_MUST_USE int gb_meta_zone_kind_parse(const char *name, gb_meta_zone_kind *out);

typedef struct {
  uint64_t configurations, sort_runs, startup_runs, measured_runs;
} gb_meta_plan;

typedef struct {
  gb_language language;
  gb_algorithm algorithm;
  gb_order order;
  uint64_t size;
  uint64_t sorts; /* sorts per process chosen from the warm-ups, >= 1 */
  uint64_t warmup_loop_ns[GB_META_MAX_WARMUPS];
  size_t n_warmup_loop_ns;
} gb_meta_calibration;

typedef struct {
  gb_language language;
  gb_order order;
  uint64_t size;
  uint64_t launches; /* per startup batch, >= 1 */
} gb_meta_startup;

typedef struct {
  char name[GB_META_NAME_MAX]; /* "package-0", "dram" */
  char path[GB_META_TEXT_MAX]; /* "intel-rapl:0", relative to the powercap root */
  gb_meta_zone_kind kind;
  uint64_t socket;
  uint64_t max_energy_range_uj; /* >= 1 */
} gb_meta_zone;

/* Integers in meta.json are 0 .. 2^64-1, written and read as their exact
 * decimal digits (never through a double, which holds only 2^53 exactly).
 * Text fields are NUL-terminated; one that does not fit is an error, never
 * cut. */
typedef struct {
  char tool_version[GB_META_NAME_MAX];
  char **command; /* argv as run, n_command >= 1 strings; owned */
  size_t n_command;
  char *command_line; /* the command as one string, shell-quoted; owned */
  /* "profile" and "settings" in meta.json (settings.h); the settings are
   * checked by gb_settings_check when meta is checked. */
  gb_settings settings;
  /* settings.python and settings.node in meta.json: the runtimes' paths as
   * given to the harness, which --resume must be given again. */
  char python[GB_META_TEXT_MAX];
  char node[GB_META_TEXT_MAX];
  gb_meta_plan plan;
  gb_meta_calibration *calibration; /* owned; one per calibrated configuration */
  size_t n_calibration;
  gb_meta_startup *startup; /* owned */
  size_t n_startup;
  struct {
    gb_rec_energy status;
    char reason[GB_META_TEXT_MAX]; /* why energy is off or unavailable; may be "" when ok */
    gb_meta_zone zones[GB_META_MAX_ZONES];
    size_t n_zones;
    /* How the counters were read, "powercap" or "perf_event", and what every
     * window was cross-checked against ("perf_event"; has_cross false when
     * nothing). Optional: has_source is false in records written before
     * they existed, and when energy was not read. */
    bool has_source, has_cross;
    char source[GB_META_NAME_MAX];
    char cross_check[GB_META_NAME_MAX];
  } energy;
  struct {
    /* The machine's label (gb_meta_label_valid), which JUnit classnames carry
     * so that two machines' results never collide. has_label is false for
     * records written before the field existed (it is optional). */
    bool has_label;
    char label[GB_META_NAME_MAX];
    char cpu_model[GB_META_TEXT_MAX];
    char kernel[GB_META_TEXT_MAX];
    bool has_governor; /* JSON null when false */
    char governor[GB_META_NAME_MAX];
    bool has_turbo;
    char turbo[GB_META_NAME_MAX];
    uint64_t cpus_online;
  } machine;
  struct {
    char cpus[GB_META_TEXT_MAX]; /* CPU list as given to sched_setaffinity, "2,4" */
    bool rule_held;              /* the pinning rule (docs/methods.md #5) held here */
    char reason[GB_META_TEXT_MAX];
    bool has_numa_node;
    uint64_t numa_node;
    bool memory_bound;
  } pinning;
  char runtimes[GB_LANGUAGE_COUNT][GB_META_TEXT_MAX]; /* "" when not recorded */
  /* The variables of the harness's environment that can change a runtime's
   * speed and were set (PYTHONMALLOC, NODE_OPTIONS, LD_PRELOAD, ...), in the
   * order of the environment; the workers never get them. has_harness_env is
   * false for records written before the field existed (it is optional). */
  bool has_harness_env;
  struct {
    char name[GB_META_NAME_MAX];
    char value[GB_META_TEXT_MAX];
  } harness_env[GB_META_MAX_ENV];
  size_t n_harness_env;
  /* How the harness read energy_uj and started the workers: access is
   * "sudo", "root" or "unprivileged", spawner says how a worker is started
   * (and whether it drops to the sudo user first). has_access is false for
   * records written before the fields existed (optional, both or neither). */
  bool has_access;
  char access[GB_META_NAME_MAX];
  char spawner[GB_META_TEXT_MAX];
  char git_commit[GB_META_NAME_MAX];
  char started_at[32]; /* UTC, "YYYY-MM-DDTHH:MM:SSZ" */
  bool has_finished_at;
  char finished_at[32];
  bool completed; /* every planned run has a row */
  uint64_t runs_done;
} gb_meta;

/* The longest machine label, in characters. */
#define GB_META_LABEL_MAX 63

/* Whether s is a machine label: 1 to GB_META_LABEL_MAX characters, each a
 * letter, a digit, '_' or '-'. Dots are refused: dashboards split JUnit
 * classnames at dots. */
bool gb_meta_label_valid(const char *s);

/* A host name made a machine label in buf[0..len) (len >= 2): every
 * character that a label cannot hold becomes '-', and the result is cut to
 * GB_META_LABEL_MAX characters (or len - 1); an empty host name gives
 * "unknown-host". "build.example.org" gives "build-example-org". */
void gb_meta_label_from_host(const char *host, char *buf, size_t len);
/* A machine label from the host name and the CPU model, so that campaigns
 * of different machines are told apart by default: the host's label
 * (gb_meta_label_from_host), '-', then the model lowercased with the
 * trademarks, "CPU", "Processor" and the clock ("@ 2.50GHz") left out and
 * every run of other characters made one '-', cut to GB_META_LABEL_MAX
 * (or len - 1) without a trailing '-'. An empty model gives the host's
 * label alone. "node07" and "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz"
 * give "node07-intel-xeon-gold-6248". */
void gb_meta_label_from_machine(const char *host, const char *cpu_model, char *buf, size_t len);

/* Zeroes m for the harness to fill (no owned memory yet). */
void gb_meta_init(gb_meta *m);
/* Frees what m owns and zeroes it; m may come from gb_meta_init or parse. */
void gb_meta_free(gb_meta *m);
/* Copies argv[0..argc-1] into m->command and sets m->command_line.
 * 0, -EINVAL for argc < 1, -ENOMEM. */
GB_MUST_USE int gb_meta_set_command(gb_meta *m, size_t argc, const char *const *argv,
                                    gb_err *err);
/* Appends a copy of one calibration or startup entry: 0 or -ENOMEM. The
 * arrays grow only through these (their capacity follows from the count). */
GB_MUST_USE int gb_meta_add_calibration(gb_meta *m, const gb_meta_calibration *c, gb_err *err);
GB_MUST_USE int gb_meta_add_startup(gb_meta *m, const gb_meta_startup *s, gb_err *err);

/* Whether the settings list this language, algorithm or order. */
bool gb_meta_has_language(const gb_meta *m, gb_language l);
bool gb_meta_has_algorithm(const gb_meta *m, gb_algorithm a);
bool gb_meta_has_order(const gb_meta *m, gb_order o);
/* Whether the campaign measured this configuration: every part is in its
 * list and it is not omitted. */
bool gb_meta_plans(const gb_meta *m, gb_language l, gb_algorithm a, gb_order o, uint64_t size);
/* Whether it measured this startup group: some planned configuration
 * subtracts it. */
bool gb_meta_plans_startup(const gb_meta *m, gb_language l, gb_order o, uint64_t size);
/* How many configurations and startup groups were measured. */
size_t gb_meta_planned_configs(const gb_meta *m);
size_t gb_meta_planned_startups(const gb_meta *m);

/* Checks the values of m that parsing alone cannot: each field's bounds, the
 * settings by gb_settings_check (its messages, after path), plan.sort_runs + plan.startup_runs
 * == plan.measured_runs, calibration and startup entries inside the settings, omitted
 * configurations inside the lists (and no language, algorithm, order or size whose every
 * configuration is omitted), energy off when the mode is off, a package zone when energy is ok,
 * a reason when it is not, a runtime for each language, UTC timestamps, and completed only with
 * finished_at and runs_done == plan.measured_runs. path names the file in the message. 0 or
 * -EINVAL. */
GB_MUST_USE int gb_meta_check(const gb_meta *m, const char *path, gb_err *err);

/* Parses meta.json text (len bytes, no NUL needed) into *out, which the
 * caller frees with gb_meta_free. Every field above is required, with its
 * type, except that unknown extra fields are ignored (forward
 * compatibility); then gb_meta_check runs. Messages name path and, for
 * malformed JSON, the line; for a bad field, its key ("settings.runs").
 * 0, -EINVAL, -ENOMEM; *out is untouched on failure. */
GB_MUST_USE int gb_meta_parse(const char *json, size_t len, const char *path, gb_meta *out,
                              gb_err *err);

/* meta.json for m as a cJSON tree the caller prints and deletes; NULL when
 * out of memory or for a field that gb_meta_check refuses on its own (a
 * value out of bounds, an enum out of range). It does not check the rules
 * across fields: call gb_meta_check first, so that what the harness writes
 * the reader accepts. */
struct cJSON *gb_meta_to_json(const gb_meta *m);

#endif
