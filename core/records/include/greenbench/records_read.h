/* Reading a campaign's records back: runs.csv and warmups.csv parsed
 * strictly against the schema of greenbench/records.h and checked against
 * meta.json (greenbench/meta.h), from a folder, open files or a packed
 * archive. The statistics read every campaign this way; the harness reads
 * its own to resume one. */
#ifndef GREENBENCH_RECORDS_READ_H
#define GREENBENCH_RECORDS_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "greenbench/error.h"
#include "greenbench/meta.h"
#include "greenbench/records.h"

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
GB_MUST_USE int gb_records_parse_csv(const char *buf, size_t len, const char *name,
                                     gb_rec_file which, const gb_meta *meta, gb_rec_table *t,
                                     gb_err *err);
void gb_rec_table_free(gb_rec_table *t);

/* Reads dir/meta.json, dir/runs.csv and, if present, dir/warmups.csv with
 * the checks above, computing the workload's counts once per algorithm,
 * order and size for both files. A study folder (~6,000 rows) takes a few
 * ms, plus about 10 to 25 ms for those counts (48 sorts of up to 2,000).
 * 0, -ENOENT (a missing meta.json or runs.csv), -EINVAL, -ENOMEM, or another
 * -errno from reading; *out (free with gb_records_free) only on success. */
GB_MUST_USE int gb_records_read(const char *dir, gb_records **out, gb_err *err);
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
GB_MUST_USE int gb_records_read_path(const char *path, gb_records **out, gb_err *err);

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
GB_MUST_USE int gb_records_read_files(const gb_records_files *f, gb_records **out,
                                      uint64_t keep[2], gb_err *err);
/* Closes f's descriptors that are open (>= 0) and marks them -1. */
void gb_records_files_close(gb_records_files *f);

/* The group with this key, or NULL when there are no such rows. */
const gb_rec_group *gb_rec_table_find_sort(const gb_rec_table *t, gb_language l, gb_algorithm a,
                                           gb_order o, uint64_t size);
const gb_rec_group *gb_rec_table_find_startup(const gb_rec_table *t, gb_language l, gb_order o,
                                              uint64_t size);

#endif
