/* One entry into a campaign, shared by `greenbench run` (cli/src/main.c,
 * cli_run.c) and the suite (greenbench-suite, its Criterion hook and its
 * CTest fixture): where the workers are, the campaign options every entry
 * sets the same way, and the signal policies (ADR 0016), both of them here:
 * gb_entry_signals for a command that measures, gb_entry_signals_now for one
 * that only reads and writes files. In the commands
 * layer (ADR 0013): the suite is an executable over gb_cli, and nothing
 * beneath links this. */
#ifndef GREENBENCH_ENTRY_H
#define GREENBENCH_ENTRY_H

#include <signal.h>
#include <stddef.h>

#include "greenbench/campaign.h"
#include "greenbench/error.h"
#include "greenbench/measure.h"
#include "greenbench/paths.h"

typedef struct {
  gb_worker_files files;  /* found relative to the running executable */
  gb_workers workers;     /* those files, with the compiled-in interpreters */
  const char *source_dir; /* for the git commit in the records; NULL: none */
  const char *missing;    /* why a worker was not found; NULL: all were */
  gb_err why;
} gb_entry_workers;

/* Finds the workers of the running executable (greenbench/paths.h) into
 * e, with Debian's python3 and node as compiled in. Returns 0, or the
 * -errno of gb_worker_files_find with e->missing its one-line message. */
GB_MUST_USE int gb_entry_find_workers(gb_entry_workers *e);

/* The campaign options every entry sets alike: the settings, the records
 * folder, the workers and source folder, the command recorded in
 * meta.json, and the stop flag that gb_entry_signals sets. The rest
 * (resume, --cpus, progress, log, machine label) is the caller's. */
gb_campaign_opts gb_entry_campaign_opts(const gb_settings *s, const char *out_dir,
                                        const gb_workers *workers, const char *source_dir,
                                        size_t argc, const char *const *argv,
                                        volatile sig_atomic_t *stop);

/* The signal policy of every command that measures: SIGINT, SIGTERM and
 * SIGHUP (a closed terminal or a dropped SSH session) set *stop, on which
 * the campaign kills the running worker at once, keeps every finished row
 * and says in meta.json how far the records go; a second one exits at once
 * with status 130 and the line "<prog>: stopped at once; ..." (the workers
 * die with the process, ADR 0007). SIGPIPE is ignored, so that a reader of
 * the output that went away (a ctest killed by the same hang-up) cannot
 * kill the campaign before it has written its records. */
void gb_entry_signals(volatile sig_atomic_t *stop, const char *prog);

/* The signal policy of every command that only reads and writes files
 * (report, pack, compare): it has nothing to finish, so the first SIGINT,
 * SIGTERM or SIGHUP removes its temporary files (gb_replace_remove_pending;
 * a packed records folder is read into memory files, which vanish with the
 * process) and exits 130 at once with the line "<prog>: stopped by a
 * signal; temporary files removed". SIGPIPE is ignored, as above: a write
 * to a reader that went away fails with EPIPE and is reported. */
void gb_entry_signals_now(const char *prog);

#endif
