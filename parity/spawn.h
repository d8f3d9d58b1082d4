/* Test-only: runs programs without a shell and captures their output. The
 * parity tests start many short workers, so several can run at once. */
#ifndef PARITY_SPAWN_H
#define PARITY_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct {
  /* Set up by the caller (with parity_arg and friends). */
  char **argv; /* argv[0] is the program's absolute path; NULL-terminated */
  size_t argc;
  const char *env_add; /* "NAME=value" added to (or replacing in) the environment, or NULL */
  double timeout_s;    /* 0: 60 s; the child is killed with SIGKILL past it */

  /* Filled in by parity_run_all. out and err are NUL-terminated. */
  char *out, *err;
  size_t out_len, err_len;
  int spawn_errno; /* non-zero when the program could not be started */
  bool timed_out;
  bool exited;   /* false when killed by a signal */
  int exit_code; /* WEXITSTATUS, or the signal number when !exited */

  /* Private to spawn.c. */
  pid_t pid;
  int fd_out, fd_err;
  double deadline;
} parity_run;

/* Appends one argument (copied). */
void parity_arg(parity_run *r, const char *arg);
/* Appends the NULL-terminated list of arguments. */
void parity_args(parity_run *r, ...) __attribute__((sentinel));
/* Appends one printf-formatted argument. */
void parity_argf(parity_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Runs runs[0..n-1], at most `parallel` at a time, until every one has
 * finished. Output is captured whole, stdin is /dev/null. Never fails: a
 * program that cannot start has spawn_errno set. */
void parity_run_all(parity_run *runs, size_t n, size_t parallel);

/* Frees what parity_arg and parity_run_all allocated; *r can be reused after
 * memset. */
void parity_run_free(parity_run *r);

/* A description of how the run ended ("exit 2", "signal 9", "timed out after
 * 60 s", "cannot start: ..."), for assertion messages. */
const char *parity_run_status(const parity_run *r, char *buf, size_t len);

#endif
