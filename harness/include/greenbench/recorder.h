/* The files of one campaign folder (docs/records.md): runs.csv and
 * warmups.csv appended one whole row at a time and flushed to disk, meta.json
 * replaced atomically, environment.txt. A row is either on disk whole or not
 * at all: a failed write (a full disk, say) is cut back off the file. */
#ifndef GREENBENCH_RECORDER_H
#define GREENBENCH_RECORDER_H

#include <stdbool.h>
#include <sys/types.h>

#include "greenbench/error.h"
#include "greenbench/privilege.h"
#include "greenbench/records.h"

/* write(2) as the recorder calls it; tests inject short writes and ENOSPC. */
typedef ssize_t (*gb_write_fn)(int fd, const void *buf, size_t len, void *ctx);

typedef struct {
  const char *dir;           /* the campaign folder; created if missing */
  bool resume;               /* continue existing records instead of refusing them */
  const gb_privilege *owner; /* NULL or "keep": files stay the harness's */
  gb_write_fn write;         /* NULL: write(2) */
  void *write_ctx;
} gb_recorder_opts;

typedef struct gb_recorder gb_recorder;

/* Opens the folder. A new campaign needs a missing or empty folder (records
 * are never overwritten); a resumed one needs runs.csv and meta.json, and a
 * runs.csv whose last line is cut short loses that line (it was never a
 * whole row) with *dropped_partial set. Writes the CSV headers of new files.
 * Returns 0, or -EEXIST, -ENOENT, -EACCES, -ENOSPC, ... with a message
 * naming the path. */
int gb_recorder_open(const gb_recorder_opts *o, gb_recorder **out, bool *dropped_partial,
                     gb_err *err);
void gb_recorder_close(gb_recorder *r);
const char *gb_recorder_dir(const gb_recorder *r);

/* Appends one row to runs.csv or warmups.csv and fsyncs it. On failure the
 * file is cut back to its length before the call and the error (-ENOSPC,
 * -EIO, ...) names the file. */
int gb_recorder_append(gb_recorder *r, gb_rec_file which, const gb_run_row *row, gb_err *err);

/* Replaces meta.json with m: checked with gb_meta_check, written to a
 * temporary file, fsynced, renamed over the old one. */
int gb_recorder_write_meta(gb_recorder *r, const gb_meta *m, gb_err *err);

/* Writes a text file in the folder (environment.txt), whole or not at all. */
int gb_recorder_write_text(gb_recorder *r, const char *name, const char *text, gb_err *err);

#endif
