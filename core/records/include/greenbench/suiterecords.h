/* The records of a suite campaign (`greenbench run --suite FILE`, issue 38):
 * a folder holding
 *   suite.json  the suite file, byte for byte (its XXH128 is meta's hash)
 *   meta.json   "format": "greenbench-suite-records-1": the suite's name and
 *               hash, the settings' numbers, energy status, machine facts
 *   runs.csv    one row per measured process, in execution order
 *   warmups.csv one row per warm-up process
 * docs/records.md ("Suite records") describes every column. The rows are the
 * study's runs.csv with its names generalised: a language and a workload are
 * the suite's names, the parameters one text "n=1000;m=4" (the workload's
 * parameter order), the counters one text "advances=1000;pairs=10000" (per
 * repetition, names in byte order), and `reps` replaces `sorts`. Status,
 * energy and the measurement columns keep the study's value sets and rules
 * (records.h). Every number is plain decimal; a missing value is empty. */
#ifndef GREENBENCH_SUITERECORDS_H
#define GREENBENCH_SUITERECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "greenbench/error.h"
#include "greenbench/meta.h"      /* GB_META_NAME_MAX, machine labels */
#include "greenbench/records.h"   /* gb_rec_status, gb_rec_energy, gb_rec_opt_* */
#include "greenbench/settings.h"  /* gb_settings (only its numbers and energy mode) */
#include "greenbench/suitefile.h" /* GB_SUITE_* limits */

#define GB_SUITE_RECORDS_FORMAT "greenbench-suite-records-1"
/* Room for the longest text, with its NUL: 4 parameters of 32-byte names
 * and values up to 32-byte names (4 x 65 bytes, 3 ';'; 200 before named
 * values, for 16-digit numbers), 8 counters of 32-byte names and 20-digit
 * values (8 x 53 bytes, 7 ';'). (Changed from 192 and 384 in implementing
 * it, which were too small for the longest.) */
#define GB_SREC_PARAMS_MAX 264
#define GB_SREC_COUNTERS_MAX 432

typedef enum { GB_SREC_KIND_WORK, GB_SREC_KIND_STARTUP, GB_SREC_KIND_COUNT } gb_srec_kind;
const char *gb_srec_kind_name(gb_srec_kind k); /* "work", "startup"; NULL out of range */
GB_MUST_USE int gb_srec_kind_parse(const char *name, gb_srec_kind *out);

/* Columns, in file order:
 * run,kind,language,workload,params,seed,reps,launches,status,wall_ns,user_ns,
 * sys_ns,max_rss_kib,loop_ns,counters,input_hash,output_hash,energy,pkg_uj,
 * dram_uj,idle_ns,idle_pkg_uj,idle_dram_uj,freq_start_khz,freq_end_khz,
 * temp_start_mc,temp_end_mc,started_unix_ns,message */
typedef struct {
  uint64_t run; /* runs.csv: position from 0; warmups.csv: per configuration from 0 */
  gb_srec_kind kind;
  char language[GB_SUITE_NAME_MAX + 1];
  char workload[GB_SUITE_NAME_MAX + 1];
  char params[GB_SREC_PARAMS_MAX]; /* "n=1000" or "n=1000;m=4", never empty */
  uint64_t seed;                   /* the campaign's input seed */
  uint64_t reps;                   /* work rows >= 1; startup rows 0 */
  uint64_t launches;               /* work rows 1; startup rows the batch size >= 1 */
  gb_rec_status status;            /* records.h's set */
  gb_rec_opt_u64 wall_ns, user_ns, sys_ns, max_rss_kib;
  gb_rec_opt_u64 loop_ns;                /* work rows: the program's own loop time (all reps) */
  char counters[GB_SREC_COUNTERS_MAX];   /* "" when none or missing */
  char input_hash[GB_REC_HASH_LEN + 1];  /* "" when missing */
  char output_hash[GB_REC_HASH_LEN + 1]; /* "" when missing (always for startup rows) */
  gb_rec_energy energy;
  gb_rec_opt_u64 pkg_uj, dram_uj;
  gb_rec_opt_u64 idle_ns, idle_pkg_uj, idle_dram_uj;
  gb_rec_opt_u64 freq_start_khz, freq_end_khz;
  gb_rec_opt_i64 temp_start_mc, temp_end_mc;
  uint64_t started_unix_ns;
  char message[GB_REC_MESSAGE_MAX];
  size_t line; /* set by the reader */
} gb_srec_row;

/* One language's facts, as meta.json records them. */
typedef struct {
  char name[GB_SUITE_NAME_MAX + 1];
  char title[GB_SUITE_TITLE_MAX + 1];
  char version[128]; /* first line of its version command's stdout; "" if none */
} gb_srec_language;

typedef struct {
  char suite_name[GB_SUITE_NAME_MAX + 1];
  char suite_hash[GB_SUITE_HASH_LEN + 1];
  char greenbench_version[32];
  gb_settings settings;        /* profile, runs, warmups, target_ms, seed, order_seed,
                                  timeout_s, energy; the study's lists stay empty */
  gb_rec_energy energy_status; /* ok / off / unavailable */
  char energy_reason[256];     /* why not ok; "" when ok */
  uint64_t cpus_online;
  char pinning[256]; /* what the harness did about CPUs, one line */
  /* The machine's label (gb_meta_label_valid) as the study's meta.json
   * machine.label: JUnit names carry it. has_label is false for records
   * written before the field (their JUnit names say "unlabelled"). */
  bool has_label;
  char machine_label[GB_META_NAME_MAX];
  uint64_t started_unix_ns, finished_unix_ns; /* finished 0 while running */
  bool complete;                              /* every planned run recorded */
  size_t n_languages;
  gb_srec_language languages[GB_SUITE_LANGUAGES_MAX];
} gb_srec_meta;

/* Row codec: as gb_records_header / gb_records_format_row (same return
 * rules: length, -ENOSPC, -EINVAL for a value the file cannot hold). */
#define GB_SREC_LINE_MAX 4096
GB_MUST_USE int gb_srec_header(char *buf, size_t len);
GB_MUST_USE int gb_srec_format_row(const gb_srec_row *row, char *buf, size_t len);
/* What one row must satisfy alone (kind vs reps/launches, an ok work row has
 * wall/user/sys/rss/loop_ns/counters/hashes, energy columns empty unless
 * energy ok). 0 or -EINVAL naming the column.
 * As implemented (docs/records.md, "Suite records"): enums in range, seed
 * 1..2^32-1, launches >= 1, names that are suite names, params not empty,
 * params and counters texts that read back, hashes "" or 16 lowercase hex
 * digits, text fields terminated; a work row has launches 1 and reps >= 1,
 * a startup row reps 0 and no loop_ns, counters or output_hash; an ok row
 * has wall_ns, user_ns, sys_ns, max_rss_kib and input_hash, an ok work row
 * also loop_ns and output_hash (counters may be "": a program may report
 * none); the energy rule of the study's rows. The message may hold CR or
 * LF: the writer puts each as a space. */
GB_MUST_USE int gb_srec_row_check(const gb_srec_row *row, gb_err *err);

/* meta.json: write to text (malloc'd, ends "\n"), read back (strict: unknown
 * or repeated keys refused). 0, -EINVAL "meta.json: <path>: <what>", -ENOMEM. */
GB_MUST_USE int gb_srec_meta_write(const gb_srec_meta *m, char **text, gb_err *err);
GB_MUST_USE int gb_srec_meta_parse(const char *text, size_t len, gb_srec_meta *out,
                                   gb_err *err);

/* A suite records folder read whole: meta, the suite (parsed from suite.json,
 * whose hash must equal meta's), and both row files (header checked, every row
 * checked alone and against the suite: language, workload and parameter set
 * exist). Errors name the file and line: "runs.csv:12: params: ...".
 * As implemented: also meta's suite name and languages are suite.json's;
 * a line is at most GB_SREC_LINE_MAX - 1 bytes; a row's language is in
 * meta's languages, its params exactly one parameter set in canonical form,
 * its seed settings.seed, energy ok only when meta's is; runs.csv numbers
 * its rows 0, 1, ...; warmups.csv holds what calibration ran (work rows,
 * settings.warmups or more while a loop misses its aim, and startup rows),
 * numbered from 0 per configuration and kind; runs.csv per configuration at
 * most settings.runs work and as many startup rows, exactly that many, work
 * and startup, once meta says complete. A file that cannot be read is -errno
 * naming its path ("<dir>/warmups.csv: cannot open: ..."). *out only on
 * success; 0, -EINVAL, -ENOMEM, -errno. */
typedef struct {
  gb_srec_meta meta;
  gb_suite suite;
  gb_srec_row *runs;
  size_t n_runs;
  gb_srec_row *warmups;
  size_t n_warmups;
} gb_srec_records;
GB_MUST_USE int gb_srec_read(const char *dir, gb_srec_records **out, gb_err *err);
void gb_srec_free(gb_srec_records *r);
/* True when dir's meta.json says GB_SUITE_RECORDS_FORMAT (so `report`,
 * `compare`, `pack` know which reader to use); false for a study folder or
 * none. */
bool gb_srec_is_suite_folder(const char *dir);
/* gb_srec_read and gb_srec_is_suite_folder on path, a folder or a packed
 * one (gb_records_is_packed, greenbench/records_pack.h): the archive is
 * read and checked whole against its manifest, as gb_records_read_path does
 * (docs/records.md, "Packing a records folder"); it must hold meta.json,
 * suite.json, runs.csv and warmups.csv ("<path>: no TOP/suite.json in the
 * archive"), read by the suite reader with messages naming
 * "<path>:<top>/<file>". gb_srec_is_suite_path is false for an archive the
 * reader refuses (gb_records_read_path then names why). */
GB_MUST_USE int gb_srec_read_path(const char *path, gb_srec_records **out, gb_err *err);
bool gb_srec_is_suite_path(const char *path);

/* "n=1000;m=4" for workload w and values (one per parameter, each as
 * gb_suite_value_text writes it: "order=random;size=1000" for a named
 * parameter); "advances=1000;pairs=10000" from names/values sorted by
 * name. Return length or -ENOSPC (params: also -EINVAL for a named value
 * out of range).
 * (counters: also -EINVAL for more than GB_SUITE_COUNTERS_MAX, a name that
 * is not a suite name, or one name twice.) */
GB_MUST_USE int gb_srec_params_text(const gb_suite_workload *w, const uint64_t *values,
                                    char *buf, size_t len);
GB_MUST_USE int gb_srec_counters_text(const gb_suite_counter *c, size_t n, char *buf,
                                      size_t len);

#endif
