/* The records of one campaign (docs/records.md): runs.csv and warmups.csv,
 * one row per process run, and meta.json, the campaign's settings and
 * machine. The harness writes rows with gb_records_format_row and builds
 * meta.json with gb_meta_to_json; the stats stage reads a folder back with
 * gb_records_read. Writer and reader share the schema below, so they cannot
 * drift apart.
 *
 * Every number is an integer, written and read as plain decimal, which no
 * locale changes. A missing value is an empty field, never 0. */
#ifndef GREENBENCH_RECORDS_H
#define GREENBENCH_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "greenbench/error.h"
#include "greenbench/workload.h"

/* cJSON is only needed by callers of gb_meta_to_json. */
struct cJSON;

/* ---- Value sets ------------------------------------------------------- */

/* The language, algorithm and order of a row are workload.h's gb_language,
 * gb_algorithm and gb_order, with their one name table; the sets below are
 * the records' own. */

typedef enum { GB_REC_KIND_SORT, GB_REC_KIND_STARTUP, GB_REC_KIND_COUNT } gb_rec_kind;
typedef enum {
  GB_REC_STATUS_OK,
  GB_REC_STATUS_TIMEOUT,
  GB_REC_STATUS_CRASHED,
  GB_REC_STATUS_EXIT_NONZERO,
  GB_REC_STATUS_BAD_OUTPUT,
  GB_REC_STATUS_PARITY_MISMATCH,
  GB_REC_STATUS_ENERGY_STALLED,
  GB_REC_STATUS_ENERGY_JUMP,
  GB_REC_STATUS_ENERGY_VANISHED,
  GB_REC_STATUS_SPAWN_FAILED,
  GB_REC_STATUS_COUNT
} gb_rec_status;
/* The `energy` column of a row, and meta.json's energy.status. */
typedef enum {
  GB_REC_ENERGY_OK,
  GB_REC_ENERGY_OFF,
  GB_REC_ENERGY_UNAVAILABLE,
  GB_REC_ENERGY_COUNT
} gb_rec_energy;

/* Names as the records spell them ("sort", "exit_nonzero", "unavailable", ...);
 * NULL for an out-of-range value. */
const char *gb_rec_kind_name(gb_rec_kind v);
const char *gb_rec_status_name(gb_rec_status v);
const char *gb_rec_energy_name(gb_rec_energy v);
/* Return 0 and set *out, or -EINVAL for a name not in the set. */
int gb_rec_kind_parse(const char *name, gb_rec_kind *out);
int gb_rec_status_parse(const char *name, gb_rec_status *out);
int gb_rec_energy_parse(const char *name, gb_rec_energy *out);

/* ---- The runs.csv schema ---------------------------------------------- */

/* The columns, in file order. docs/records.md describes each one. */
typedef enum {
  GB_REC_COL_RUN,
  GB_REC_COL_KIND,
  GB_REC_COL_LANGUAGE,
  GB_REC_COL_ALGORITHM,
  GB_REC_COL_ORDER,
  GB_REC_COL_SIZE,
  GB_REC_COL_SEED,
  GB_REC_COL_SORTS,
  GB_REC_COL_LAUNCHES,
  GB_REC_COL_STATUS,
  GB_REC_COL_WALL_NS,
  GB_REC_COL_USER_NS,
  GB_REC_COL_SYS_NS,
  GB_REC_COL_MAX_RSS_KIB,
  GB_REC_COL_LOOP_NS,
  GB_REC_COL_COMPARISONS,
  GB_REC_COL_WRITES,
  GB_REC_COL_INPUT_HASH,
  GB_REC_COL_ENERGY,
  GB_REC_COL_PKG_UJ,
  GB_REC_COL_DRAM_UJ,
  GB_REC_COL_IDLE_NS,
  GB_REC_COL_IDLE_PKG_UJ,
  GB_REC_COL_IDLE_DRAM_UJ,
  GB_REC_COL_FREQ_START_KHZ,
  GB_REC_COL_FREQ_END_KHZ,
  GB_REC_COL_TEMP_START_MC,
  GB_REC_COL_TEMP_END_MC,
  GB_REC_COL_STARTED_UNIX_NS,
  GB_REC_COL_MESSAGE,
  GB_REC_COL_COUNT
} gb_rec_col;

typedef enum {
  GB_REC_TYPE_UINT, /* non-negative decimal integer */
  GB_REC_TYPE_NS,   /* a duration or a time in ns: non-negative decimal integer */
  GB_REC_TYPE_INT,  /* decimal integer, may be negative (temperatures) */
  GB_REC_TYPE_ENUM, /* one name of a value set above */
  GB_REC_TYPE_HASH, /* 16 lowercase hex digits */
  GB_REC_TYPE_TEXT, /* free text; written quoted, on one line */
} gb_rec_type;

typedef struct {
  const char *name;
  gb_rec_type type;
  bool optional; /* may be empty (missing); the rest are required in every row */
} gb_rec_column;

/* The schema row of column c; NULL when c is out of range. */
const gb_rec_column *gb_records_column(gb_rec_col c);

/* The bounds every value of column c must keep, as the reader enforces them
 * (min <= value <= max): for an integer column of type UINT or NS. Returns 0
 * and sets both, or -EINVAL (out-params untouched) for another column. */
int gb_records_column_bounds(gb_rec_col c, uint64_t *min, uint64_t *max);

/* ---- A row of runs.csv or warmups.csv ---------------------------------- */

#define GB_REC_HASH_LEN 16
#define GB_REC_MESSAGE_MAX 256 /* bytes, with the NUL */
/* Enough for any row gb_records_format_row writes, and for the header. */
#define GB_REC_LINE_MAX 2048

typedef struct {
  bool present; /* false: the field is empty (missing, never 0) */
  uint64_t value;
} gb_rec_opt_u64;

typedef struct {
  bool present;
  int64_t value;
} gb_rec_opt_i64;

typedef struct {
  uint64_t run; /* runs.csv: position from 0; warmups.csv: per configuration from 0 */
  gb_rec_kind kind;
  gb_language language;
  gb_algorithm algorithm; /* startup rows: the argument passed */
  gb_order order;
  uint64_t size;     /* elements, >= 1 */
  uint64_t seed;     /* xorshift32 seed, 1 .. 2^32-1 */
  uint64_t sorts;    /* sort rows >= 1; startup rows 0 */
  uint64_t launches; /* sort rows 1; startup rows the batch size, >= 1 */
  gb_rec_status status;
  gb_rec_opt_u64 wall_ns, user_ns, sys_ns, max_rss_kib;
  gb_rec_opt_u64 loop_ns, comparisons, writes; /* per sort, from the worker */
  char input_hash[GB_REC_HASH_LEN + 1];        /* "" when missing */
  gb_rec_energy energy;
  gb_rec_opt_u64 pkg_uj, dram_uj; /* wrap-corrected sums over sockets */
  gb_rec_opt_u64 idle_ns, idle_pkg_uj, idle_dram_uj;
  gb_rec_opt_u64 freq_start_khz, freq_end_khz;
  gb_rec_opt_i64 temp_start_mc, temp_end_mc; /* m°C, may be negative */
  uint64_t started_unix_ns;                  /* CLOCK_REALTIME */
  char message[GB_REC_MESSAGE_MAX];          /* "" when none; never a newline */
  size_t line; /* set by the reader: the row's 1-based line in its file */
} gb_run_row;

/* Checks what one row must satisfy on its own (docs/records.md, under the
 * column table): kind against sorts and launches, the measurements an ok
 * run must have, and energy columns empty unless energy is ok. Returns 0, or
 * -EINVAL with a message naming the column (no file or line: callers add
 * them). */
int gb_run_row_check(const gb_run_row *row, gb_err *err);

/* ---- Writer (pure: the harness owns the files) ------------------------- */

/* Write the header line of runs.csv and warmups.csv ("run,kind,...\n") or
 * one row, as one RFC 4180 line ending in "\n", followed by a NUL. The
 * message is quoted with quotes doubled and any CR or LF replaced by a
 * space, so a row is always one line; other fields never need quotes.
 * Return the line's length without the NUL; -ENOSPC when it does not fit in
 * len bytes (buf then holds ""); -EINVAL for a value the file cannot hold
 * (an enum out of range, an input_hash that is not "" or 16 lowercase hex
 * digits). The row's `line` is ignored. */
int gb_records_header(char *buf, size_t len);
int gb_records_format_row(const gb_run_row *row, char *buf, size_t len);

/* ---- meta.json --------------------------------------------------------- */

#define GB_META_FORMAT "greenbench-records-1"
/* Sorts per process are calibrated to this multiple of settings.target_ms
 * (240 ms for 200 ms), so ordinary run-to-run variation stays above the
 * target: the harness aims there and the report says so. */
#define GB_META_CALIBRATION_HEADROOM_NUM 6
#define GB_META_CALIBRATION_HEADROOM_DEN 5
#define GB_META_MAX_SIZES 32
#define GB_META_MAX_ZONES 16
#define GB_META_MAX_WARMUPS 64 /* warm-up loop times kept per configuration */
#define GB_META_NAME_MAX 64
#define GB_META_TEXT_MAX 512
/* Variables listed in meta.json's harness_env. */
#define GB_META_MAX_ENV 32

typedef enum {
  GB_META_PROFILE_SMOKE,
  GB_META_PROFILE_STUDY,
  GB_META_PROFILE_CUSTOM,
  GB_META_PROFILE_COUNT
} gb_meta_profile;
typedef enum {
  GB_META_ENERGY_AUTO,
  GB_META_ENERGY_ON,
  GB_META_ENERGY_OFF,
  GB_META_ENERGY_MODE_COUNT
} gb_meta_energy_mode;
typedef enum {
  GB_META_ZONE_PACKAGE,
  GB_META_ZONE_DRAM,
  GB_META_ZONE_KIND_COUNT
} gb_meta_zone_kind;

/* "smoke", "auto", "package", ...; NULL out of range. Parse: 0 or -EINVAL. */
const char *gb_meta_profile_name(gb_meta_profile v);
const char *gb_meta_energy_mode_name(gb_meta_energy_mode v);
const char *gb_meta_zone_kind_name(gb_meta_zone_kind v);
int gb_meta_profile_parse(const char *name, gb_meta_profile *out);
int gb_meta_energy_mode_parse(const char *name, gb_meta_energy_mode *out);
int gb_meta_zone_kind_parse(const char *name, gb_meta_zone_kind *out);

typedef struct {
  gb_language languages[GB_LANGUAGE_COUNT];
  size_t n_languages;
  gb_algorithm algorithms[GB_ALGORITHM_COUNT];
  size_t n_algorithms;
  gb_order orders[GB_ORDER_COUNT];
  size_t n_orders;
  uint64_t sizes[GB_META_MAX_SIZES];
  size_t n_sizes;
  uint64_t runs;      /* measured runs per configuration, >= 1 */
  uint64_t warmups;   /* warm-up runs per configuration */
  uint64_t target_ms; /* shortest sort loop aimed for, >= 1 */
  gb_meta_energy_mode energy;
  uint64_t seed;       /* input seed, 1 .. 2^32-1 */
  uint64_t order_seed; /* seed of the shuffle of measured runs */
  char python[GB_META_TEXT_MAX];
  char node[GB_META_TEXT_MAX];
  uint64_t timeout_s; /* per worker process, >= 1 */
  /* Configurations of the product of the lists above that were not
   * measured: bit i of omit[l][a][o] leaves out sizes[i]. meta.json lists
   * them as settings.omit, an optional array (absent: none omitted). */
  uint32_t omit[GB_LANGUAGE_COUNT][GB_ALGORITHM_COUNT][GB_ORDER_COUNT];
} gb_meta_settings;

_Static_assert(GB_META_MAX_SIZES <= 32, "a size index is a bit of gb_meta_settings.omit");

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

/* Integers in meta.json are limited to 0 .. 2^53, which a JSON number holds
 * exactly (RFC 8259, section 6). Text fields are NUL-terminated; one that
 * does not fit is an error, never cut. */
typedef struct {
  char tool_version[GB_META_NAME_MAX];
  char **command; /* argv as run, n_command >= 1 strings; owned */
  size_t n_command;
  char *command_line; /* the command as one string, shell-quoted; owned */
  gb_meta_profile profile;
  gb_meta_settings settings;
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
int gb_meta_set_command(gb_meta *m, size_t argc, const char *const *argv, gb_err *err);
/* Appends a copy of one calibration or startup entry: 0 or -ENOMEM. The
 * arrays grow only through these (their capacity follows from the count). */
int gb_meta_add_calibration(gb_meta *m, const gb_meta_calibration *c, gb_err *err);
int gb_meta_add_startup(gb_meta *m, const gb_meta_startup *s, gb_err *err);

/* Whether the settings list this language, algorithm, order or size. */
bool gb_meta_has_language(const gb_meta *m, gb_language l);
bool gb_meta_has_algorithm(const gb_meta *m, gb_algorithm a);
bool gb_meta_has_order(const gb_meta *m, gb_order o);
bool gb_meta_has_size(const gb_meta *m, uint64_t size);
/* Whether the campaign measured this configuration: every part is in its
 * list and it is not omitted. */
bool gb_meta_plans(const gb_meta *m, gb_language l, gb_algorithm a, gb_order o, uint64_t size);
/* Whether it measured this startup group: some planned configuration
 * subtracts it. */
bool gb_meta_plans_startup(const gb_meta *m, gb_language l, gb_order o, uint64_t size);
/* How many configurations and startup groups were measured. */
size_t gb_meta_planned_configs(const gb_meta *m);
size_t gb_meta_planned_startups(const gb_meta *m);

/* Checks the values of m that parsing alone cannot: no list empty or with a
 * duplicate, bounds, plan.sort_runs + plan.startup_runs ==
 * plan.measured_runs, calibration and startup entries inside the settings,
 * omitted configurations inside the lists (and no language, algorithm, order
 * or size whose every configuration is omitted), energy off when the mode is off, a package
 * zone when energy is ok, a reason when it is not, a runtime for each language, UTC timestamps,
 * and completed only with finished_at and runs_done == plan.measured_runs. path names the file
 * in the message. 0 or -EINVAL. */
int gb_meta_check(const gb_meta *m, const char *path, gb_err *err);

/* Parses meta.json text (len bytes, no NUL needed) into *out, which the
 * caller frees with gb_meta_free. Every field above is required, with its
 * type, except that unknown extra fields are ignored (forward
 * compatibility); then gb_meta_check runs. Messages name path and, for
 * malformed JSON, the line; for a bad field, its key ("settings.runs").
 * 0, -EINVAL, -ENOMEM; *out is untouched on failure. */
int gb_meta_parse(const char *json, size_t len, const char *path, gb_meta *out, gb_err *err);

/* meta.json for m as a cJSON tree the caller prints and deletes; NULL when
 * out of memory or for an enum out of range. It does not check m: call
 * gb_meta_check first, so that what the harness writes the reader accepts. */
struct cJSON *gb_meta_to_json(const gb_meta *m);

/* ---- Reader ------------------------------------------------------------ */

/* The rows of one configuration (kind sort: language, algorithm, order,
 * size) or of one startup trial (kind startup: language, order, size; the
 * algorithm is not part of the key and is left at 0), every status, in
 * execution order. */
typedef struct {
  gb_rec_kind kind;
  gb_language language;
  gb_algorithm algorithm;
  gb_order order;
  uint64_t size;
  const gb_run_row **rows;
  size_t n_rows;
} gb_rec_group;

typedef struct {
  gb_run_row *rows; /* in file order, which is execution order */
  size_t n_rows;
  gb_rec_group *groups; /* sort groups, then startup groups, each by key */
  size_t n_groups;
  const gb_run_row **group_rows; /* storage behind the groups' rows */
} gb_rec_table;

typedef enum { GB_REC_FILE_RUNS, GB_REC_FILE_WARMUPS } gb_rec_file;

typedef struct {
  gb_meta meta;
  gb_rec_table runs;
  bool has_warmups; /* warmups.csv was present */
  gb_rec_table warmups;
} gb_records;

/* Parses the text of runs.csv or warmups.csv (len bytes; name is used in
 * messages) into t, which the caller frees with gb_rec_table_free. Strict:
 * the header must be exactly the schema's columns in order; every line ends
 * in "\n" (or "\r\n") and has every field; numbers are plain decimal
 * integers in bounds; names belong to their value sets; each row passes
 * gb_run_row_check; runs.csv numbers its rows 0, 1, 2, ... and warmups.csv
 * each group's rows 0, 1, 2, .... With meta (may be NULL), also: each row's
 * configuration and seed are in meta's settings, energy is ok only if
 * meta's is, DRAM columns are filled exactly when meta has a DRAM zone, and
 * runs.csv has no more rows than planned (exactly as many when completed),
 * and every row within the bounds of docs/records.md ("What the reader
 * refuses": times, CPU, power, calibration, the workload's counts).
 * Every message is one line naming name and the line number.
 * 0, -EINVAL, -ENOMEM; t is untouched on failure. */
int gb_records_parse_csv(const char *buf, size_t len, const char *name, gb_rec_file which,
                         const gb_meta *meta, gb_rec_table *t, gb_err *err);
void gb_rec_table_free(gb_rec_table *t);

/* Reads dir/meta.json, dir/runs.csv and, if present, dir/warmups.csv with
 * the checks above, computing the workload's counts once per algorithm,
 * order and size for both files. A study folder (~6,000 rows) takes a few
 * ms, plus about 10 to 25 ms for those counts (48 sorts of up to 2,000).
 * 0, -ENOENT (a missing meta.json or runs.csv), -EINVAL, -ENOMEM, or another
 * -errno from reading; *out (free with gb_records_free) only on success. */
int gb_records_read(const char *dir, gb_records **out, gb_err *err);
void gb_records_free(gb_records *r);

/* Reads a records folder, or a packed one (`greenbench pack`, a .tar.gz or
 * .tar.zst; greenbench/records_pack.h): a path that is a regular file is read
 * as an archive, anything else as a folder with gb_records_read. An archive
 * is checked whole before its records are read: every member must be a file
 * in its one top folder (no "..", no absolute path, no link, no subfolder),
 * listed in its MANIFEST.xxh128 with the same XXH128, every entry of the
 * manifest a member, at most 4 GiB in all; it is extracted into a private
 * temporary folder (mkdtemp), read with the checks of gb_records_read and
 * removed. Messages name the member ("x.tar.gz: x/runs.csv: ..."), and the
 * records' own messages "x.tar.gz:x/runs.csv:17: ...". Same returns as
 * gb_records_read; a refused archive is -EINVAL; *out only on success. */
int gb_records_read_path(const char *path, gb_records **out, gb_err *err);

/* A records folder whose files the caller opened (the harness opens them
 * relative to the folder and never through a symbolic link). */
typedef struct {
  const char *dir; /* the folder as messages name it: "<dir>/runs.csv:17: ..." */
  int meta_fd, runs_fd;
  int warmups_fd;     /* -1: there is no warmups.csv */
  bool cut_last_line; /* leave out a CSV's last line that has no newline (a write cut
                         short), instead of refusing it */
} gb_records_files;

/* gb_records_read on open files, each read whole from offset 0 with pread
 * (the descriptors' offsets do not move). When keep is not NULL, keep[0]
 * and keep[1] get the bytes of the whole lines of runs.csv and warmups.csv
 * (their sizes, less a cut-short line left out). Same returns as
 * gb_records_read; nothing is written. */
int gb_records_read_files(const gb_records_files *f, gb_records **out, uint64_t keep[2],
                          gb_err *err);
/* Closes f's descriptors that are open (>= 0) and marks them -1. */
void gb_records_files_close(gb_records_files *f);

/* The group with this key, or NULL when there are no such rows. */
const gb_rec_group *gb_rec_table_find_sort(const gb_rec_table *t, gb_language l, gb_algorithm a,
                                           gb_order o, uint64_t size);
const gb_rec_group *gb_rec_table_find_startup(const gb_rec_table *t, gb_language l, gb_order o,
                                              uint64_t size);

#endif
