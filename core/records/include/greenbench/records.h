/* The rows of a campaign's records (docs/records.md): runs.csv and
 * warmups.csv, one row per process run. The harness writes rows with
 * gb_records_format_row; greenbench/records_read.h reads a folder back and
 * greenbench/meta.h is meta.json's model. Writer and reader share the schema
 * below, so they cannot drift apart.
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
GB_MUST_USE int gb_rec_kind_parse(const char *name, gb_rec_kind *out);
GB_MUST_USE int gb_rec_status_parse(const char *name, gb_rec_status *out);
GB_MUST_USE int gb_rec_energy_parse(const char *name, gb_rec_energy *out);

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
GB_MUST_USE int gb_records_column_bounds(gb_rec_col c, uint64_t *min, uint64_t *max);

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
GB_MUST_USE int gb_run_row_check(const gb_run_row *row, gb_err *err);

/* ---- Writer (pure: the harness owns the files) ------------------------- */

/* Write the header line of runs.csv and warmups.csv ("run,kind,...\n") or
 * one row, as one RFC 4180 line ending in "\n", followed by a NUL. The
 * message is quoted with quotes doubled and any CR or LF replaced by a
 * space, so a row is always one line; other fields never need quotes.
 * Return the line's length without the NUL; -ENOSPC when it does not fit in
 * len bytes (buf then holds ""); -EINVAL for a value the file cannot hold
 * (an enum out of range, an input_hash that is not "" or 16 lowercase hex
 * digits). The row's `line` is ignored. */
GB_MUST_USE int gb_records_header(char *buf, size_t len);
GB_MUST_USE int gb_records_format_row(const gb_run_row *row, char *buf, size_t len);

#endif
