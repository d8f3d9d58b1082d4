/* Measures worker processes: one process per measured run (study.md,
 * Measurement), or a batch of back-to-back launches of one command for the
 * startup trials. The order around each measurement is fixed and tight:
 *
 *   before hook (energy) -> clock -> clone/exec ... exit -> wait4 -> clock ->
 *   after hook (energy)
 *
 * The clock is CLOCK_MONOTONIC_RAW; CPU time and peak RSS come from wait4.
 * No shell is involved: argv[0] is executed as given. Each launch runs in its
 * own process group with stdin from /dev/null; its stdout and stderr go to
 * memory files (memfd) that are read after it has been reaped, so nothing
 * wakes the harness while it runs. It is killed (SIGKILL) by the kernel if
 * the thread that started it dies: call from the thread that lives as long
 * as the harness (the main one). Signal handlers are read once per call:
 * install them before, not from another thread meanwhile. Linux >= 5.3
 * (pidfd). The caller must not set SIGCHLD to SIG_IGN, or there is nothing
 * left to reap. */
#ifndef GREENBENCH_SPAWN_H
#define GREENBENCH_SPAWN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "greenbench/error.h"
#include "greenbench/privilege.h"

/* stdout kept per launch unless gb_spawn_opts.stdout_max says otherwise. */
#define GB_SPAWN_STDOUT_MAX (64u * 1024u)
/* Bytes of the end of stderr kept per launch. */
#define GB_SPAWN_STDERR_TAIL 4096u
/* Bytes a launch may write to stderr, and to stdout when stdout_max is below
 * it (else stdout_max + 1, rounded up to 2 MiB). The capture is a memory
 * file of that size: writes past it fail with EPERM, and the launch is
 * GB_SPAWN_BAD_OUTPUT whatever its exit, so a runaway writer cannot fill the
 * memory. */
#define GB_SPAWN_CAPTURE_LIMIT (16u * 1024u * 1024u)

typedef enum {
  GB_SPAWN_OK,           /* every launch exited 0 (and passed check) */
  GB_SPAWN_EXIT_NONZERO, /* exit_code holds the code */
  GB_SPAWN_CRASHED,      /* killed by a signal it did not get from us */
  GB_SPAWN_TIMEOUT,      /* ran past timeout_ns; its group was killed */
  GB_SPAWN_ABORTED,      /* abort_fd became readable; its group was killed */
  GB_SPAWN_SPAWN_FAILED, /* could not be started; error holds the errno */
  GB_SPAWN_BAD_OUTPUT,   /* exited 0 but the check hook refused its stdout, or
                            it reached a capture's limit (GB_SPAWN_CAPTURE_LIMIT) */
  GB_SPAWN_INTERRUPTED,  /* *stop became non-zero; its group was killed */
} gb_spawn_status;

/* Called exactly once per gb_spawn_run (once per batch), around the clock
 * readings; used to read the energy counters. */
typedef void (*gb_spawn_hook)(void *ctx);
/* Writes why abort_fd fired into buf (NUL-terminated, at most len bytes). */
typedef void (*gb_spawn_reason_fn)(void *ctx, char *buf, size_t len);
/* Judges the stdout of one launch that exited 0 (out is NUL-terminated,
 * truncated says it was cut at stdout_max). Returns 0 to accept, or non-zero
 * with a one-line reason in msg. Runs between launches, so it is inside a
 * batch's measured time: keep it cheap (parsing one JSON line is). */
typedef int (*gb_spawn_check_fn)(void *ctx, const char *out, size_t len, bool truncated,
                                 char *msg, size_t msglen);

typedef struct {
  char *const *argv;               /* argv[0] is the program's path; NULL-terminated */
  char *const *envp;               /* NULL: the harness's own environment */
  uint64_t timeout_ns;             /* per launch; 0: none */
  const gb_privilege *run_as;      /* NULL: keep the harness's identity */
  gb_spawn_hook before;            /* optional; called just before the first clock reading */
  gb_spawn_hook after;             /* optional; called just after the last clock reading */
  gb_spawn_reason_fn abort_reason; /* optional; words the "aborted" message */
  gb_spawn_check_fn check;         /* optional; called after each launch that exited 0 */
  void *ctx;                       /* passed to every callback */
  int abort_fd;                    /* -1: none; polled, never read (its owner resets it) */
  /* NULL: none. Set by a signal handler (SIGINT, SIGTERM, SIGHUP): the running
   * launch's group is killed at once, even when the signal arrives just
   * before the wait (signals are taken only inside it), and the batch stops. */
  volatile sig_atomic_t *stop;
  unsigned launches; /* back-to-back launches; 0 or 1: one */
  size_t stdout_max; /* bytes of stdout kept per launch (the rest is counted,
                        out_truncated); 0: GB_SPAWN_STDOUT_MAX */
} gb_spawn_opts;

typedef struct {
  gb_spawn_status status;
  int exit_code;        /* GB_SPAWN_EXIT_NONZERO: the code */
  int signal;           /* GB_SPAWN_CRASHED: the signal */
  int error;            /* GB_SPAWN_SPAWN_FAILED: the errno */
  unsigned launches;    /* launches started, the failing one included */
  pid_t pid;            /* the last launch's pid, which is also its group id */
  uint64_t wall_ns;     /* first clock reading to last, around the whole batch */
  uint64_t user_ns;     /* summed over the launches */
  uint64_t sys_ns;      /* summed over the launches */
  uint64_t max_rss_kib; /* largest peak RSS of any launch */
  char *out;            /* the last launch's stdout, NUL-terminated */
  size_t out_len;
  bool out_truncated; /* it wrote more than stdout_max; the rest was dropped */
  char *err_tail;     /* the end of the last launch's stderr, NUL-terminated */
  size_t err_len;
  bool err_truncated; /* the start of stderr was dropped */
  bool strays_killed; /* a launch left processes in its group; they were killed */
  char message[512];  /* why it failed, one line; empty for GB_SPAWN_OK */
} gb_spawn_result;

/* Sets *o to the defaults (one launch, no timeout, no hooks, no abort fd,
 * keep the identity) with the given argv. */
void gb_spawn_opts_init(gb_spawn_opts *o, char *const *argv);

/* Runs o->launches launches of o->argv back to back, stopping at the first
 * that does not end GB_SPAWN_OK (the message then starts "launch i of n: " for
 * a batch), and fills *r. Returns 0 whenever the command was measured, whatever
 * its status; free r with gb_spawn_result_free. Returns -EINVAL for bad options,
 * or -errno when the harness itself failed (memory files, timerfd, clone,
 * ppoll, memory); *r is then untouched. Once before has run, after runs too,
 * even on failure. timeout_ns is never cut short: a launch is killed only
 * once CLOCK_MONOTONIC_RAW has passed its start plus timeout_ns. */
GB_MUST_USE int gb_spawn_run(const gb_spawn_opts *o, gb_spawn_result *r, gb_err *err);

/* Frees r's captured output; r may be zeroed or already freed. */
void gb_spawn_result_free(gb_spawn_result *r);

#endif
