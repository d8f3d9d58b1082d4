/* How a worker is started and watched, and why so.
 *
 * Started by clone(CLONE_VM | CLONE_VFORK | CLONE_PIDFD), the way glibc's
 * posix_spawn starts one (the harness's page tables are not copied: fork
 * cost about 85 us more per process here, docs/performance.md), but with a
 * child function of our own, because the child must do two things
 * posix_spawn cannot (ADR 0007): drop from root to the sudo user before exec
 * (POSIX_SPAWN_RESETIDS only copies the real ids, which under sudo are
 * root's), and ask for SIGKILL when the harness dies (PR_SET_PDEATHSIG), so
 * that a harness killed with SIGKILL never leaves a worker running beside
 * the next campaign (issue 12). The child runs on its own small stack, makes
 * only system calls until execve (see child_main), and reports a failed step
 * by writing to the parent's memory before the parent resumes.
 *
 * What lies between the two clock readings is kept to the launch itself
 * (issue 19): everything the child needs (stdio files, the list of signals
 * to reset, its stack) and the timeout's timer are made before the first
 * reading; stdout and stderr go to sealed memory files that are read
 * after the reap, so nothing wakes the harness while the worker runs; and
 * the parent sleeps in one poll on the pidfd the clone returned, the abort
 * fd and a timerfd, which wakes it once, when the worker exits.
 *
 * Why memory files rather than pipes: a pipe wakes the reader on every
 * write, inside the measured interval, and must be drained while the worker
 * runs or a worker writing more than the pipe holds blocks. A memfd holds
 * everything; sealed at a fixed size (F_SEAL_GROW), it refuses writes past
 * that size with EPERM, so a runaway writer cannot fill the memory. */
#include "greenbench/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "greenbench/clock.h"
#include "harness_internal.h"

#ifndef MFD_NOEXEC_SEAL /* Linux 6.3; glibc 2.38 */
#define MFD_NOEXEC_SEAL 0x0008u
#endif

/* Longest stderr line quoted in a message. */
#define ERR_LINE_MAX 200
/* The child's stack until execve: a few system calls deep (more under
 * AddressSanitizer's interceptors). */
#define CHILD_STACK (64u * 1024u)
/* A capture's size is a multiple of this, the largest folio a memory file
 * is written in (the kernel copies a write in folio-aligned chunks), so a
 * write that crosses the end still fills the file up to it, and a launch
 * that hit the limit is told from one that stopped short. */
#define CAPTURE_ALIGN (2u * 1024u * 1024u)

/* What the child leaves in the launch when it cannot exec. */
enum { STEP_STDIO = 1, STEP_PRIVILEGE, STEP_PARENT, STEP_EXEC };
typedef struct {
  int step;
  int error;
} child_report;

/* What the launches of one gb_spawn_run share, all made before the clock. */
typedef struct {
  const gb_spawn_opts *o;
  char *const *envp;
  char *stack;          /* the child's stack, CHILD_STACK bytes */
  int devnull;          /* the worker's stdin */
  int timer;            /* timerfd for the timeout; -1: no timeout */
  pid_t parent;         /* the harness, which the child checks it still has */
  size_t out_limit;     /* bytes the stdout capture holds (>= stdout_max + 1) */
  int reset[NSIG];      /* signals the child sets back to SIG_DFL */
  int nreset;           /* how many of reset are used */
  struct sigaction dfl; /* SIG_DFL, no flags */
  sigset_t none;        /* the worker's signal mask */
} runner;

/* The output of the current launch, as read from its capture files. */
typedef struct {
  char *out;
  size_t out_len, out_max;
  bool out_truncated, out_full;
  char *err;
  size_t err_len;
  uint64_t err_seen;
  bool err_full;
} capture;

/* One launch. Descriptors are -1 once closed. */
typedef struct {
  int out, err, pidfd;
  pid_t pid;
  uint64_t deadline; /* CLOCK_MONOTONIC_RAW ns; 0: none */
  child_report report;
  bool killed_timeout, killed_abort, killed_stop;
  int wstatus;
  struct rusage ru;
} launch;

void gb_spawn_opts_init(gb_spawn_opts *o, char *const *argv) {
  *o = (gb_spawn_opts){.argv = argv, .abort_fd = -1, .launches = 1};
}

const char *gbi_spawn_status_name(gb_spawn_status s) {
  static const char *const names[] = {"ok",      "exit_nonzero", "crashed",    "timeout",
                                      "aborted", "spawn_failed", "bad_output", "interrupted"};
  return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "unknown";
}

static void close_fd(int *fd) {
  if (*fd >= 0)
    close(*fd);
  *fd = -1;
}

static void launch_close(launch *l) {
  close_fd(&l->out);
  close_fd(&l->err);
  close_fd(&l->pidfd);
}

/* Keeps fd out of 0..2, so that the child's dup2 onto its standard streams
 * cannot overwrite it when the harness itself runs with one of them closed. */
static int fd_high(int fd) {
  if (fd < 0 || fd > 2)
    return fd;
  int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  int e = errno;
  close(fd);
  errno = e;
  return moved;
}

/* A capture file of size bytes: a memfd (only what is written takes
 * memory), CLOEXEC so a worker started by another thread never inherits it,
 * sealed so that nobody can grow or shrink it: the worker's writes past size
 * fail with EPERM. Returns the descriptor (above 2) or -errno. */
static int capture_file(const char *name, size_t size) {
  int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_NOEXEC_SEAL);
  if (fd < 0 && errno == EINVAL) /* before Linux 6.3 */
    fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
  fd = fd_high(fd);
  if (fd < 0)
    return -errno;
  if (ftruncate(fd, (off_t)size) != 0 ||
      fcntl(fd, F_ADD_SEALS, F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL) != 0) {
    int e = errno;
    close(fd);
    return -e;
  }
  return fd;
}

static int launch_prepare(launch *l, const runner *run, gb_err *err) {
  *l = (launch){.out = -1, .err = -1, .pidfd = -1, .pid = -1};
  int rc = capture_file("greenbench-stdout", run->out_limit);
  if (rc >= 0) {
    l->out = rc;
    rc = capture_file("greenbench-stderr", GB_SPAWN_CAPTURE_LIMIT);
  }
  if (rc >= 0) {
    l->err = rc;
    return 0;
  }
  launch_close(l);
  return gb_err_set(err, -rc, "cannot create a memory file for the worker's output: %s",
                    strerror(-rc));
}

/* Arms the timer to fire ns from now (at least 1 ns: 0 would disarm it). */
static int timer_arm(int timer, uint64_t ns) {
  ns = ns ? ns : 1;
  struct itimerspec its = {.it_value = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)}};
  return timerfd_settime(timer, 0, &its, NULL) == 0 ? 0 : -errno;
}

/* start plus the timeout, saturating; 0 without a timeout. */
static uint64_t deadline_of(uint64_t start, uint64_t timeout_ns) {
  if (timeout_ns == 0)
    return 0;
  return timeout_ns > UINT64_MAX - start ? UINT64_MAX : start + timeout_ns;
}

/* What the child reads: all of it lives in the parent's memory, which the
 * child shares until execve. */
typedef struct {
  launch *l;
  const runner *run;
} child_args;

static _Noreturn void child_fail(launch *l, int step, int error) {
  l->report = (child_report){step, error};
  _exit(127);
}

/* The cloned child, on its own stack and the parent's memory: only system
 * calls until execve, no allocation, no locks, nothing sanitizers could
 * instrument on a stack they do not know. The signals whose handlers the
 * harness set would run those handlers on the shared memory if they reached
 * the child before execve: run->reset lists them (and SIGPIPE when ignored,
 * which exec would keep ignored), and they go back to the default before the
 * mask is emptied (the child has its own copy of the table). PR_SET_PDEATHSIG
 * comes after the privilege drop, which clears it, and is checked against
 * the parent having died just before it (getppid then names another
 * process). */
__attribute__((no_sanitize("address", "undefined"))) static int child_main(void *p) {
  const child_args *a = p;
  launch *l = a->l;
  const runner *run = a->run;
  setpgid(0, 0);
  for (int i = 0; i < run->nreset; i++)
    sigaction(run->reset[i], &run->dfl, NULL);
  sigprocmask(SIG_SETMASK, &run->none, NULL); /* the worker starts as from a shell */
  if (dup2(run->devnull, 0) < 0 || dup2(l->out, 1) < 0 || dup2(l->err, 2) < 0)
    child_fail(l, STEP_STDIO, errno);
  /* Nothing the harness has open (RAPL files, records) goes to the worker. */
  close_range(3, ~0u, 0);
  int rc = run->o->run_as ? gb_privilege_apply(run->o->run_as) : 0;
  if (rc < 0)
    child_fail(l, STEP_PRIVILEGE, -rc);
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
    child_fail(l, STEP_PARENT, errno);
  if (getppid() != run->parent)
    child_fail(l, STEP_PARENT, ESRCH);
  execve(run->o->argv[0], run->o->argv, run->envp);
  child_fail(l, STEP_EXEC, errno);
}

static void reap(launch *l) {
  while (wait4(l->pid, &l->wstatus, 0, &l->ru) < 0 && errno == EINTR)
    ;
}

/* pidfd_send_signal too, in case the worker left its own group. */
static void kill_group(launch *l) {
  kill(-l->pid, SIGKILL);
  syscall(SYS_pidfd_send_signal, l->pidfd, SIGKILL, NULL, 0);
}

/* Starts the child and returns once it has exec'd or failed (CLONE_VFORK).
 * Every signal is blocked around the clone, so no handler of the harness runs
 * in the child before it has reset them. */
static int launch_start(launch *l, const runner *run, gb_err *err) {
  child_args a = {l, run};
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  int pidfd = -1;
  pid_t pid = clone(child_main, run->stack + CHILD_STACK,
                    CLONE_VM | CLONE_VFORK | CLONE_PIDFD | SIGCHLD, &a, &pidfd);
  int e = errno;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (pid < 0) {
    launch_close(l);
    return gb_err_set(err, e, "cannot start the worker: %s", strerror(e));
  }
  l->pid = pid; /* the child made its group before the parent resumed */
  l->pidfd = pidfd;
  if (pidfd >= 0)
    return 0;
  /* Before Linux 5.2, clone ignored CLONE_PIDFD. */
  kill(-pid, SIGKILL);
  kill(pid, SIGKILL);
  reap(l);
  launch_close(l);
  return gb_err_set(err, ENOSYS, "clone returned no pidfd (Linux 5.3 or newer is needed)");
}

/* Nanoseconds left before the launch's deadline, or 0 when it has passed. */
static uint64_t time_left(uint64_t deadline) {
  uint64_t now = gb_monotonic_raw_ns();
  return now < deadline ? deadline - now : 0;
}

/* While a stop flag is watched, every signal but the synchronous ones is
 * blocked except inside ppoll, so a handler that sets the flag always wakes
 * the poll (EINTR) instead of landing between the check and the wait. */
static void block_async(sigset_t *old) {
  sigset_t set;
  sigfillset(&set);
  int sync[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS};
  for (size_t i = 0; i < sizeof sync / sizeof sync[0]; i++)
    sigdelset(&set, sync[i]);
  pthread_sigmask(SIG_BLOCK, &set, old);
}

/* Sleeps in one ppoll until the child exits, abort_fd fires, the stop flag
 * is set or the timer fires; then reaps the child at once. The timer is
 * CLOCK_MONOTONIC, the deadline CLOCK_MONOTONIC_RAW: a timer that fires
 * before the deadline by the raw clock (armed before the first clock
 * reading, or the clocks' rates differ) is armed again for what is left, so
 * a launch is never killed before timeout_ns. Returns 0 or -errno of ppoll
 * or timerfd_settime (the group is then killed). */
static int launch_wait(launch *l, const runner *run) {
  const gb_spawn_opts *o = run->o;
  sigset_t old;
  if (o->stop)
    block_async(&old);
  struct pollfd p[] = {
      {l->pidfd, POLLIN, 0}, {o->abort_fd, POLLIN, 0}, {run->timer, POLLIN, 0}};
  int rc = 0;
  for (;;) {
    if (o->stop && *o->stop) {
      l->killed_stop = true;
      kill_group(l);
      break;
    }
    if (ppoll(p, sizeof p / sizeof p[0], NULL, o->stop ? &old : NULL) < 0) {
      if (errno == EINTR)
        continue;
      rc = -errno;
      kill_group(l);
      break;
    }
    if (p[0].revents)
      break;
    if (p[1].revents) {
      l->killed_abort = true;
      kill_group(l);
      break;
    }
    if (p[2].revents) {
      uint64_t left = time_left(l->deadline);
      if (left == 0) {
        l->killed_timeout = true;
        kill_group(l);
        break;
      }
      if ((rc = timer_arm(run->timer, left)) < 0) {
        kill_group(l);
        break;
      }
    }
  }
  if (o->stop)
    pthread_sigmask(SIG_SETMASK, &old, NULL);
  reap(l);
  return rc;
}

static uint64_t tv_ns(struct timeval tv) {
  return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
}

static void account(gb_spawn_result *r, const launch *l) {
  r->user_ns += tv_ns(l->ru.ru_utime);
  r->sys_ns += tv_ns(l->ru.ru_stime);
  if ((uint64_t)l->ru.ru_maxrss > r->max_rss_kib)
    r->max_rss_kib = (uint64_t)l->ru.ru_maxrss; /* Linux reports KiB */
  r->pid = l->pid;
}

/* Bytes written to a capture: the offset of the open file description the
 * worker's stream shares with the harness. */
static uint64_t written(int fd) {
  off_t off = lseek(fd, 0, SEEK_CUR);
  return off > 0 ? (uint64_t)off : 0;
}

/* Reads up to len bytes at offset at; returns how many it got. */
static size_t read_at(int fd, char *dst, size_t len, uint64_t at) {
  size_t got = 0;
  while (got < len) {
    ssize_t n = pread(fd, dst + got, len - got, (off_t)(at + got));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    got += (size_t)n;
  }
  return got;
}

/* After the reap: the first out_max bytes of stdout and the last
 * GB_SPAWN_STDERR_TAIL of stderr, and whether either reached its limit. */
static void capture_read(capture *c, const launch *l, const runner *run) {
  uint64_t n = written(l->out);
  c->out_len = read_at(l->out, c->out, n < c->out_max ? (size_t)n : c->out_max, 0);
  c->out_truncated = n > c->out_max;
  c->out_full = n >= run->out_limit;
  n = written(l->err);
  size_t tail = n < GB_SPAWN_STDERR_TAIL ? (size_t)n : GB_SPAWN_STDERR_TAIL;
  c->err_len = read_at(l->err, c->err, tail, n - tail);
  c->err_seen = n;
  c->err_full = n >= GB_SPAWN_CAPTURE_LIMIT;
}

/* The last non-empty stderr line, with anything unprintable replaced. */
static void last_err_line(const capture *c, char *out, size_t len) {
  size_t end = c->err_len;
  while (end > 0 && (c->err[end - 1] == '\n' || c->err[end - 1] == '\r'))
    end--;
  size_t start = end;
  while (start > 0 && c->err[start - 1] != '\n')
    start--;
  size_t n = end - start < len - 1 ? end - start : len - 1;
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)c->err[start + i];
    out[i] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
  }
  out[n] = '\0';
}

static void describe_timeout(uint64_t ns, char *out, size_t len) {
  if (ns >= 100000000u)
    snprintf(out, len, "%.1f s", (double)ns / 1e9);
  else
    snprintf(out, len, "%llu ms", (unsigned long long)(ns / 1000000u));
}

static void describe_report(const launch *l, const gb_spawn_opts *o, char *msg, size_t len) {
  int e = l->report.error;
  const char *name = strerrorname_np(e);
  if (l->report.step == STEP_EXEC)
    snprintf(msg, len, "cannot execute %s: %s (%s)", o->argv[0], strerror(e),
             name ? name : "?");
  else if (l->report.step == STEP_PRIVILEGE)
    snprintf(msg, len, "cannot drop privileges to uid %u gid %u: %s (%s)",
             (unsigned)o->run_as->uid, (unsigned)o->run_as->gid, strerror(e),
             name ? name : "?");
  else if (l->report.step == STEP_PARENT)
    snprintf(msg, len, "cannot tie the worker to the harness's life: %s (%s)", strerror(e),
             name ? name : "?");
  else
    snprintf(msg, len, "cannot set up the worker's stdin, stdout and stderr: %s (%s)",
             strerror(e), name ? name : "?");
}

static void describe_abort(const launch *l, const gb_spawn_opts *o, char *msg, size_t len) {
  char why[256] = "stopped by the abort fd";
  if (o->abort_reason) {
    o->abort_reason(o->ctx, why, sizeof why);
    why[sizeof why - 1] = '\0';
  }
  snprintf(msg, len, "%s; killed process group %d", why, (int)l->pid);
}

/* How an exited or killed child ended, with the last stderr line. */
static void describe_end(int ws, const char *line, char *msg, size_t len) {
  const char *sep = line[0] ? ": " : "";
  if (WIFSIGNALED(ws)) {
    const char *abbrev = sigabbrev_np(WTERMSIG(ws));
    snprintf(msg, len, "crashed: killed by SIG%s (signal %d)%s%s%s", abbrev ? abbrev : "?",
             WTERMSIG(ws), WCOREDUMP(ws) ? ", core dumped" : "", sep, line);
  } else {
    snprintf(msg, len, "exited with code %d%s%s", WEXITSTATUS(ws), sep, line);
  }
}

/* Sets r's status and its fields, and words msg, from how l ended. A stream
 * that reached its capture's limit had writes refused, so its launch is
 * bad_output whatever its exit, named before the exit. */
static void classify(const launch *l, const runner *run, const capture *c, gb_spawn_result *r,
                     char *msg, size_t len) {
  const gb_spawn_opts *o = run->o;
  char line[ERR_LINE_MAX + 1], t[32], end[ERR_LINE_MAX + 64];
  last_err_line(c, line, sizeof line);
  int ws = l->wstatus;
  if (l->killed_stop) {
    r->status = GB_SPAWN_INTERRUPTED;
    snprintf(msg, len, "interrupted; killed process group %d", (int)l->pid);
  } else if (l->killed_abort) {
    r->status = GB_SPAWN_ABORTED;
    describe_abort(l, o, msg, len);
  } else if (l->killed_timeout) {
    r->status = GB_SPAWN_TIMEOUT;
    describe_timeout(o->timeout_ns, t, sizeof t);
    snprintf(msg, len, "timed out after %s; killed process group %d", t, (int)l->pid);
  } else if (l->report.step != 0) {
    r->status = GB_SPAWN_SPAWN_FAILED;
    r->error = l->report.error;
    describe_report(l, o, msg, len);
  } else if (c->out_full || c->err_full) {
    r->status = GB_SPAWN_BAD_OUTPUT;
    describe_end(ws, line, end, sizeof end);
    snprintf(msg, len, "wrote %zu MiB or more to %s, its limit (writes past it failed); %s",
             (c->out_full ? run->out_limit : (size_t)GB_SPAWN_CAPTURE_LIMIT) / (1024u * 1024u),
             c->out_full ? "stdout" : "stderr", end);
  } else if (WIFSIGNALED(ws)) {
    r->status = GB_SPAWN_CRASHED;
    r->signal = WTERMSIG(ws);
    describe_end(ws, line, msg, len);
  } else if (WEXITSTATUS(ws) != 0) {
    r->status = GB_SPAWN_EXIT_NONZERO;
    r->exit_code = WEXITSTATUS(ws);
    describe_end(ws, line, msg, len);
  } else {
    r->status = GB_SPAWN_OK;
    msg[0] = '\0';
  }
}

/* After the reap: kills anything the launch left in its group, reads its
 * captures, and judges it. */
static void launch_finish(launch *l, const runner *run, capture *c, gb_spawn_result *r,
                          unsigned i, unsigned n) {
  const gb_spawn_opts *o = run->o;
  if (!l->killed_timeout && !l->killed_abort && !l->killed_stop && kill(-l->pid, SIGKILL) == 0)
    r->strays_killed = true;
  capture_read(c, l, run);
  launch_close(l);
  c->out[c->out_len] = '\0';
  c->err[c->err_len] = '\0';
  char msg[sizeof r->message - 48]; /* room for "launch i of n: " */
  classify(l, run, c, r, msg, sizeof msg);
  if (r->status == GB_SPAWN_OK && o->check &&
      o->check(o->ctx, c->out, c->out_len, c->out_truncated, msg, sizeof msg) != 0) {
    r->status = GB_SPAWN_BAD_OUTPUT;
    msg[sizeof msg - 1] = '\0';
  }
  if (r->status == GB_SPAWN_OK)
    r->message[0] = '\0';
  else if (n > 1)
    snprintf(r->message, sizeof r->message, "launch %u of %u: %s", i + 1, n, msg);
  else
    snprintf(r->message, sizeof r->message, "%s", msg);
}

static void capture_free(capture *c) {
  free(c->out);
  free(c->err);
  c->out = c->err = NULL;
}

static int capture_init(capture *c, size_t out_max, gb_err *err) {
  *c = (capture){.out_max = out_max};
  c->out = malloc(out_max + 1);
  c->err = malloc(GB_SPAWN_STDERR_TAIL + 1);
  if (c->out && c->err)
    return 0;
  capture_free(c);
  return gb_err_set(err, ENOMEM, "cannot allocate %zu bytes for the worker's output", out_max);
}

/* Hands the buffers to r; a cut stderr tail starts at its first whole line. */
static void capture_give(capture *c, gb_spawn_result *r) {
  r->err_truncated = c->err_seen > c->err_len;
  char *nl = r->err_truncated ? memchr(c->err, '\n', c->err_len) : NULL;
  if (nl && nl + 1 < c->err + c->err_len) {
    size_t cut = (size_t)(nl + 1 - c->err);
    memmove(c->err, nl + 1, c->err_len - cut + 1);
    c->err_len -= cut;
  }
  r->out = c->out;
  r->out_len = c->out_len;
  r->out_truncated = c->out_truncated;
  r->err_tail = c->err;
  r->err_len = c->err_len;
}

static void runner_free(runner *run) {
  close_fd(&run->devnull);
  close_fd(&run->timer);
  free(run->stack);
  run->stack = NULL;
}

/* The signals whose handlers the child must reset: every one the harness
 * handles now, and SIGPIPE if it ignores it. Read once per run, before the
 * clock: a handler another thread installs while gb_spawn_run runs is not
 * seen (the harness installs its handlers at start-up, from the main
 * thread). */
static void runner_signals(runner *run) {
  run->nreset = 0;
  for (int sig = 1; sig < NSIG; sig++) {
    struct sigaction sa;
    if (sig == SIGKILL || sig == SIGSTOP || sigaction(sig, NULL, &sa) != 0)
      continue;
    if (sa.sa_handler != SIG_DFL && (sa.sa_handler != SIG_IGN || sig == SIGPIPE))
      run->reset[run->nreset++] = sig;
  }
  run->dfl = (struct sigaction){.sa_handler = SIG_DFL};
  sigemptyset(&run->dfl.sa_mask);
  sigemptyset(&run->none);
}

/* Everything the launches share; the timer is made only with a timeout. */
static int runner_init(runner *run, const gb_spawn_opts *o, size_t out_max, gb_err *err) {
  size_t limit = out_max + 1 > GB_SPAWN_CAPTURE_LIMIT ? out_max + 1 : GB_SPAWN_CAPTURE_LIMIT;
  *run = (runner){.o = o,
                  .envp = o->envp ? o->envp : environ,
                  .devnull = -1,
                  .timer = -1,
                  .parent = getpid(),
                  .out_limit = (limit + CAPTURE_ALIGN - 1) / CAPTURE_ALIGN * CAPTURE_ALIGN};
  runner_signals(run);
  if (!(run->stack = malloc(CHILD_STACK)))
    return gb_err_set(err, ENOMEM, "cannot allocate the worker's start-up stack");
  run->devnull = fd_high(open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (run->devnull < 0) {
    int e = errno;
    runner_free(run);
    return gb_err_set(err, e, "cannot open /dev/null: %s", strerror(e));
  }
  if (o->timeout_ns && (run->timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC)) < 0) {
    int e = errno;
    runner_free(run);
    return gb_err_set(err, e, "cannot create the timeout's timer: %s", strerror(e));
  }
  return 0;
}

/* The launches between the clock readings (t0 is the first). A launch is
 * finished (judged) at once, except the last, which is finished after the
 * clock and the after hook, so that nothing but the reap sits inside a
 * single run's measurement. The first launch's captures were made before
 * t0; the others' are made here, inside the batch's time. The timer, armed
 * once before t0, is never set later than the running launch's deadline
 * (deadlines only grow, and launch_wait re-arms it for the launch it
 * serves), so it is not armed again per launch. */
static int run_launches(const runner *run, unsigned n, uint64_t t0, launch *l, capture *c,
                        gb_spawn_result *r, bool *pending, gb_err *err) {
  uint64_t timeout = run->o->timeout_ns;
  for (unsigned i = 0; i < n; i++) {
    int rc = i > 0 ? launch_prepare(l, run, err) : 0;
    l->deadline = deadline_of(i > 0 && timeout ? gb_monotonic_raw_ns() : t0, timeout);
    if (rc == 0)
      rc = launch_start(l, run, err);
    if (rc < 0)
      return rc;
    r->launches = i + 1;
    rc = launch_wait(l, run);
    account(r, l);
    if (rc < 0)
      return gb_err_set(err, -rc, "cannot wait for the worker: %s", strerror(-rc));
    *pending = true;
    if (i + 1 == n)
      return 0;
    launch_finish(l, run, c, r, i, n);
    *pending = false;
    if (r->status != GB_SPAWN_OK)
      return 0;
  }
  return 0;
}

int gb_spawn_run(const gb_spawn_opts *o, gb_spawn_result *r, gb_err *err) {
  if (!o || !r || !o->argv || !o->argv[0] || !o->argv[0][0])
    return gb_err_set(err, EINVAL, "no program to run");
  unsigned n = o->launches ? o->launches : 1;
  size_t out_max = o->stdout_max ? o->stdout_max : GB_SPAWN_STDOUT_MAX;
  runner run;
  capture c;
  launch l;
  int rc = capture_init(&c, out_max, err);
  if (rc < 0)
    return rc;
  rc = runner_init(&run, o, out_max, err);
  if (rc == 0)
    rc = launch_prepare(&l, &run, err);
  /* The first launch's timer, armed before the clock: it fires early by the
   * time until t0, and launch_wait arms it again for the rest. */
  if (rc == 0 && o->timeout_ns && (rc = timer_arm(run.timer, o->timeout_ns)) < 0) {
    launch_close(&l);
    rc = gb_err_set(err, -rc, "cannot arm the worker's timeout: %s", strerror(-rc));
  }
  if (rc < 0) {
    runner_free(&run);
    capture_free(&c);
    return rc;
  }
  gb_spawn_result res = {.status = GB_SPAWN_OK};
  bool pending = false;
  if (o->before)
    o->before(o->ctx);
  uint64_t t0 = gb_monotonic_raw_ns();
  rc = run_launches(&run, n, t0, &l, &c, &res, &pending, err);
  res.wall_ns = gb_monotonic_raw_ns() - t0;
  if (o->after)
    o->after(o->ctx);
  if (pending)
    launch_finish(&l, &run, &c, &res, res.launches - 1, n);
  launch_close(&l);
  runner_free(&run);
  if (rc < 0) {
    capture_free(&c);
    return rc;
  }
  capture_give(&c, &res);
  *r = res;
  return 0;
}

void gb_spawn_result_free(gb_spawn_result *r) {
  free(r->out);
  free(r->err_tail);
  r->out = r->err_tail = NULL;
  r->out_len = r->err_len = 0;
}
