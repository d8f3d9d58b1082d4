/* One entry into a campaign (greenbench/entry.h). */
#include "greenbench/entry.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "greenbench/files.h"

int gb_entry_find_workers(gb_entry_workers *e) {
  memset(e, 0, sizeof *e);
  int rc = gb_worker_files_find(&e->files, &e->why);
  e->workers = (gb_workers){.worker_c = e->files.worker_c,
                            .python = GB_PYTHON_PATH,
                            .python_worker = e->files.python_worker,
                            .node = GB_NODE_PATH,
                            .node_worker = e->files.node_worker};
  e->source_dir = e->files.source_dir[0] ? e->files.source_dir : NULL;
  e->missing = rc < 0 ? e->why.msg : NULL;
  return rc;
}

gb_campaign_opts gb_entry_campaign_opts(const gb_settings *s, const char *out_dir,
                                        const gb_workers *workers, const char *source_dir,
                                        size_t argc, const char *const *argv,
                                        volatile sig_atomic_t *stop) {
  return (gb_campaign_opts){.settings = *s,
                            .out_dir = out_dir,
                            .workers = *workers,
                            .source_dir = source_dir,
                            .argc = argc,
                            .argv = argv,
                            .stop = stop};
}

static volatile sig_atomic_t *stop_flag;
static char at_once[160];
static size_t at_once_len;

/* A second signal means "now": exit without finishing the records. */
static void on_signal(int sig) {
  (void)sig;
  if (*stop_flag) {
    ssize_t n = write(2, at_once, at_once_len);
    (void)n;
    _exit(130);
  }
  *stop_flag = 1;
}

/* The one installation of both policies: handler on SIGINT, SIGTERM and
 * SIGHUP with the given mask and flags, SIGPIPE ignored. */
static void install(void (*handler)(int), bool mask_all, int flags) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  if (mask_all)
    sigfillset(&sa.sa_mask);
  else
    sigemptyset(&sa.sa_mask);
  sa.sa_flags = flags;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
}

/* The line either policy writes before it exits at once. */
static void set_line(const char *prog, const char *what) {
  int n = snprintf(at_once, sizeof at_once, "%s: %s\n", prog, what);
  at_once_len = n > 0 && (size_t)n < sizeof at_once ? (size_t)n : 0;
}

void gb_entry_signals(volatile sig_atomic_t *stop, const char *prog) {
  stop_flag = stop;
  set_line(prog, "stopped at once; meta.json may not say how far the records go");
  install(on_signal, false, SA_RESTART);
}

/* Nothing to finish: the temporary files go, then the process. */
static void on_signal_now(int sig) {
  (void)sig;
  gb_replace_remove_pending();
  ssize_t n = write(2, at_once, at_once_len);
  (void)n;
  _exit(130);
}

void gb_entry_signals_now(const char *prog) {
  set_line(prog, "stopped by a signal; temporary files removed");
  install(on_signal_now, true, 0);
}
