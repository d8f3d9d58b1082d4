/* The files of one campaign folder (docs/records.md): runs.csv and
 * warmups.csv appended one whole row at a time and flushed to disk, meta.json
 * replaced atomically, environment.txt. A row is either on disk whole or not
 * at all: a failed write (a full disk, say) is cut back off the file. Files
 * are given to the sudo user (o->owner), by descriptor. */
#ifndef GREENBENCH_RECORDER_H
#define GREENBENCH_RECORDER_H

#include <stdbool.h>
#include <sys/types.h>

#include "greenbench/error.h"
#include "greenbench/files.h" /* gb_write_fn: tests inject short writes and ENOSPC */
#include "greenbench/privilege.h"
#include "greenbench/records_read.h"

typedef struct {
  const char *dir;           /* the campaign folder; created if missing */
  bool resume;               /* continue existing records instead of refusing them */
  const gb_privilege *owner; /* NULL or "keep": files stay the harness's */
  gb_write_fn write;         /* NULL: write(2) */
  void *write_ctx;
  /* The CSV files' header (as gb_records_header); NULL: the study's. A
   * suite campaign's (gb_srec_header) is new campaigns only. */
  int (*header)(char *buf, size_t len);
} gbi_recorder_opts;

typedef struct gbi_recorder gbi_recorder;

/* Opens the folder, never through a symbolic link (a --out that is one is
 * refused), and takes an advisory lock on it for the recorder's life, so a
 * second greenbench on the folder is refused at once (-EBUSY, naming its
 * pid). The folder must belong to the harness's user or to o->owner. A new
 * campaign needs a missing or empty folder (records are never overwritten)
 * and gets runs.csv and warmups.csv with their headers. A resumed one needs
 * runs.csv and meta.json, which are opened and checked (regular files with
 * one link, of the harness's user or o->owner) but not changed: read them
 * with gbi_recorder_read, then gbi_recorder_repair. Every file is opened
 * relative to the folder with O_NOFOLLOW. Returns 0, or -EEXIST, -ENOENT,
 * -ELOOP, -EPERM, -EBUSY, -EACCES, -ENOSPC, ... with a message naming the
 * path. */
GB_MUST_USE int gbi_recorder_open(const gbi_recorder_opts *o, gbi_recorder **out, gb_err *err);

/* What gbi_recorder_open refuses of a new campaign's folder, checked without
 * creating, locking or changing anything (run --dry-run): a folder that is
 * a symbolic link, not a folder, unreadable or not empty. A missing folder
 * is fine. Returns 0, or -errno with gbi_recorder_open's message. */
GB_MUST_USE int gbi_recorder_check_new(const char *dir, gb_err *err);
void gbi_recorder_close(gbi_recorder *r);
const char *gbi_recorder_dir(const gbi_recorder *r);

/* Resume only: reads the opened records (gb_records_read_files) with a
 * cut-short last line of runs.csv or warmups.csv left out, not refused.
 * Writes nothing. Returns as gb_records_read; -EBADF for a new campaign. */
GB_MUST_USE int gbi_recorder_read(gbi_recorder *r, gb_records **out, gb_err *err);

/* Resume only, after gbi_recorder_read and every check of the records: cuts
 * a cut-short last line off runs.csv and warmups.csv (*dropped: one was cut
 * off runs.csv; that run is measured again), and creates a missing
 * warmups.csv with its header. Returns 0, -EBADF before gbi_recorder_read,
 * or -errno naming the file. */
GB_MUST_USE int gbi_recorder_repair(gbi_recorder *r, bool *dropped, gb_err *err);

/* Appends one row to runs.csv or warmups.csv and fsyncs it. On failure the
 * file is cut back to its length before the call and the error (-ENOSPC,
 * -EIO, ...) names the file. */
GB_MUST_USE int gbi_recorder_append(gbi_recorder *r, gb_rec_file which, const gb_run_row *row,
                                    gb_err *err);

/* Appends one formatted line (len bytes, ending "\n") as gbi_recorder_append
 * does a row. */
GB_MUST_USE int gbi_recorder_append_line(gbi_recorder *r, gb_rec_file which, const char *line,
                                         size_t len, gb_err *err);

/* Replaces meta.json with m: checked with gb_meta_check, written to a fresh
 * meta.json.tmp (whatever had that name, a planted link say, is removed,
 * not followed), fsynced, renamed over the old one, the folder fsynced. */
GB_MUST_USE int gbi_recorder_write_meta(gbi_recorder *r, const gb_meta *m, gb_err *err);

/* Writes a text file in the folder (environment.txt), whole or not at all. */
GB_MUST_USE int gbi_recorder_write_text(gbi_recorder *r, const char *name, const char *text,
                                        gb_err *err);

#endif
