#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Test code: running out of memory is not a case worth handling gracefully. */
static void *xrealloc(void *p, size_t n) {
  p = realloc(p, n);
  if (!p) {
    fputs("parity: out of memory\n", stderr);
    abort();
  }
  return p;
}

void parity_arg(parity_run *r, const char *arg) {
  r->argv = xrealloc(r->argv, (r->argc + 2) * sizeof *r->argv);
  r->argv[r->argc] = strdup(arg);
  if (!r->argv[r->argc])
    abort();
  r->argv[++r->argc] = NULL;
}

void parity_args(parity_run *r, ...) {
  va_list ap;
  va_start(ap, r);
  for (const char *a = va_arg(ap, const char *); a; a = va_arg(ap, const char *))
    parity_arg(r, a);
  va_end(ap);
}

void parity_argf(parity_run *r, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  parity_arg(r, buf);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* environ with r->env_add put in place of any variable of the same name. */
static char **make_env(const char *add) {
  size_t n = 0, k = 0, name_len = strcspn(add, "=") + 1;
  while (environ[n])
    n++;
  char **env = xrealloc(NULL, (n + 2) * sizeof *env);
  for (size_t i = 0; i < n; i++)
    if (strncmp(environ[i], add, name_len) != 0)
      env[k++] = environ[i];
  env[k++] = (char *)add;
  env[k] = NULL;
  return env;
}

static int spawn_one(parity_run *r) {
  int po[2], pe[2];
  if (pipe2(po, O_CLOEXEC) < 0)
    return errno;
  if (pipe2(pe, O_CLOEXEC) < 0) {
    int e = errno;
    close(po[0]);
    close(po[1]);
    return e;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, po[1], 1);
  posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
  char **env = r->env_add ? make_env(r->env_add) : environ;
  int rc = posix_spawn(&r->pid, r->argv[0], &fa, NULL, r->argv, env);
  posix_spawn_file_actions_destroy(&fa);
  if (env != environ)
    free(env);
  close(po[1]);
  close(pe[1]);
  if (rc != 0) {
    close(po[0]);
    close(pe[0]);
    return rc;
  }
  r->fd_out = po[0];
  r->fd_err = pe[0];
  r->deadline = now_s() + (r->timeout_s > 0 ? r->timeout_s : 60.0);
  return 0;
}

static void start(parity_run *r) {
  r->out = xrealloc(NULL, 1);
  r->err = xrealloc(NULL, 1);
  r->out[0] = r->err[0] = '\0';
  r->out_len = r->err_len = 0;
  r->fd_out = r->fd_err = -1;
  r->pid = 0;
  r->spawn_errno = r->argv ? spawn_one(r) : EINVAL;
}

/* Reads what is there into *buf; closes *fd at end of file. */
static void drain(int *fd, char **buf, size_t *len) {
  char chunk[65536];
  ssize_t got = read(*fd, chunk, sizeof chunk);
  if (got < 0 && (errno == EINTR || errno == EAGAIN))
    return;
  if (got <= 0) {
    close(*fd);
    *fd = -1;
    return;
  }
  *buf = xrealloc(*buf, *len + (size_t)got + 1);
  memcpy(*buf + *len, chunk, (size_t)got);
  *len += (size_t)got;
  (*buf)[*len] = '\0';
}

static void reap(parity_run *r) {
  int st;
  while (waitpid(r->pid, &st, 0) < 0 && errno == EINTR)
    ;
  r->exited = WIFEXITED(st);
  r->exit_code = r->exited ? WEXITSTATUS(st) : WTERMSIG(st);
  r->pid = 0;
}

static bool running(const parity_run *r) {
  return r->pid > 0;
}

/* One poll over every running child's pipes; kills the overdue ones. */
static void step(parity_run *runs, size_t n) {
  struct pollfd fds[64];
  parity_run *owner[64];
  char **bufs[64];
  size_t *lens[64];
  int *fdp[64];
  nfds_t k = 0;
  double next = now_s() + 1.0;
  for (size_t i = 0; i < n && k + 2 <= 64; i++) {
    parity_run *r = &runs[i];
    if (!running(r))
      continue;
    if (r->deadline < next)
      next = r->deadline;
    int *pair[2] = {&r->fd_out, &r->fd_err};
    for (int j = 0; j < 2; j++)
      if (*pair[j] >= 0) {
        fds[k] = (struct pollfd){.fd = *pair[j], .events = POLLIN};
        owner[k] = r;
        fdp[k] = pair[j];
        bufs[k] = j == 0 ? &r->out : &r->err;
        lens[k++] = j == 0 ? &r->out_len : &r->err_len;
      }
  }
  double wait_s = next - now_s();
  int ready = poll(fds, k, wait_s > 0 ? (int)(wait_s * 1000) + 1 : 0);
  for (nfds_t i = 0; ready > 0 && i < k; i++)
    if (fds[i].revents)
      drain(fdp[i], bufs[i], lens[i]);
  double t = now_s();
  for (nfds_t i = 0; i < k; i++)
    if (!owner[i]->timed_out && t > owner[i]->deadline) {
      owner[i]->timed_out = true;
      kill(owner[i]->pid, SIGKILL);
    }
}

void parity_run_all(parity_run *runs, size_t n, size_t parallel) {
  size_t next = 0, active = 0;
  if (parallel < 1)
    parallel = 1;
  if (parallel > 32)
    parallel = 32;
  while (next < n || active > 0) {
    while (next < n && active < parallel) {
      start(&runs[next]);
      active += running(&runs[next++]);
    }
    step(runs, next);
    for (size_t i = 0; i < next; i++)
      if (running(&runs[i]) && runs[i].fd_out < 0 && runs[i].fd_err < 0) {
        reap(&runs[i]);
        active--;
      }
  }
}

void parity_run_free(parity_run *r) {
  for (size_t i = 0; i < r->argc; i++)
    free(r->argv[i]);
  free(r->argv);
  free(r->out);
  free(r->err);
  r->argv = NULL;
  r->out = r->err = NULL;
  r->argc = 0;
}

const char *parity_run_status(const parity_run *r, char *buf, size_t len) {
  if (r->spawn_errno)
    snprintf(buf, len, "cannot start %s: %s", r->argv ? r->argv[0] : "(nothing)",
             strerror(r->spawn_errno));
  else if (r->timed_out)
    snprintf(buf, len, "timed out after %g s", r->timeout_s > 0 ? r->timeout_s : 60.0);
  else if (!r->exited)
    snprintf(buf, len, "killed by signal %d", r->exit_code);
  else
    snprintf(buf, len, "exit %d", r->exit_code);
  return buf;
}
