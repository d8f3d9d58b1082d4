/* How a worker is started: clone(CLONE_VM | CLONE_VFORK), the way glibc's
 * posix_spawn starts one, but with a child function of our own, because the
 * child must do two things posix_spawn cannot: drop from root to the sudo
 * user before exec (POSIX_SPAWN_RESETIDS only copies the real ids, which under
 * sudo are root's), and ask for SIGKILL when the harness dies
 * (PR_SET_PDEATHSIG), so that a harness killed with SIGKILL, or dying any other
 * way, never leaves a worker running beside the next campaign (issue 12). The
 * shared address space means nothing is copied inside the measured interval
 * (fork cost about 120 us more per process here, docs/performance.md), and a
 * failed exec reports itself by writing to the parent's memory before the
 * parent resumes, with no report pipe. The child runs on its own small stack
 * and makes only system calls until execve (see child_main).
 *
 * Why a pidfd: poll() then wakes the moment the child exits, on the same call
 * that drains its pipes and watches the abort fd and the timeout, with no
 * SIGCHLD handler and no sleep-and-retry loop adding latency to the reading. */
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
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "greenbench/clock.h"

/* Reads after the child has exited: enough for a full pipe (at most 1 MiB)
 * in 16 KiB reads, and a bound if something in the group is still writing. */
#define FINAL_READS 128
#define SCRATCH 16384
/* Longest stderr line quoted in a message. */
#define ERR_LINE_MAX 200
/* The child's stack until execve: a few system calls deep (more under
 * AddressSanitizer's interceptors). */
#define CHILD_STACK (64u * 1024u)

/* What the child leaves in the launch when it cannot exec. */
enum { STEP_STDIO = 1, STEP_PRIVILEGE, STEP_PARENT, STEP_EXEC };
typedef struct {
  int step;
  int error;
} child_report;

/* The output of the current launch, and the stack its child starts on. */
typedef struct {
  char *stack;
  char *out;
  size_t out_len, out_max;
  bool out_truncated;
  char *err;
  size_t err_len, err_seen;
} capture;

/* One launch. Pipe ends and the pidfd are -1 once closed. */
typedef struct {
  int out_r, out_w, err_r, err_w, pidfd;
  pid_t pid;
  child_report report;
  bool killed_timeout, killed_abort, killed_stop;
  int wstatus;
  struct rusage ru;
} launch;

void gb_spawn_opts_init(gb_spawn_opts *o, char *const *argv) {
  *o = (gb_spawn_opts){.argv = argv, .abort_fd = -1, .launches = 1};
}

const char *gb_spawn_status_name(gb_spawn_status s) {
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
  int *fds[] = {&l->out_r, &l->out_w, &l->err_r, &l->err_w, &l->pidfd};
  for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
    close_fd(fds[i]);
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

/* CLOEXEC on both ends, so a worker started by another thread never inherits
 * them; only the read end is non-blocking (the worker's writes must block). */
static int pipe_high(int *r, int *w) {
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0)
    return -errno;
  p[0] = fd_high(p[0]);
  p[1] = fd_high(p[1]);
  if (p[0] < 0 || p[1] < 0 || fcntl(p[0], F_SETFL, O_NONBLOCK) != 0) {
    int e = errno;
    close_fd(&p[0]);
    close_fd(&p[1]);
    return -e;
  }
  *r = p[0];
  *w = p[1];
  return 0;
}

static int launch_prepare(launch *l, gb_err *err) {
  *l = (launch){.out_r = -1, .out_w = -1, .err_r = -1, .err_w = -1, .pidfd = -1, .pid = -1};
  int rc = pipe_high(&l->out_r, &l->out_w);
  if (rc == 0)
    rc = pipe_high(&l->err_r, &l->err_w);
  if (rc == 0)
    return 0;
  launch_close(l);
  return gb_err_set(err, -rc, "cannot create a pipe for the worker: %s", strerror(-rc));
}

/* What the child reads: all of it lives in the parent's memory, which the
 * child shares until execve. */
typedef struct {
  launch *l;
  const gb_spawn_opts *o;
  int devnull;
  char *const *envp;
  pid_t parent;
} child_args;

static _Noreturn void child_fail(launch *l, int step, int error) {
  l->report = (child_report){step, error};
  _exit(127);
}

/* Signals the harness handles would run its handlers on the shared memory if
 * they reached the child before execve: they are set back to the default
 * (the child has its own copy of the table), and SIGPIPE, which the harness
 * ignores and exec would keep ignored, too. */
static void child_signals(void) {
  for (int sig = 1; sig < NSIG; sig++) {
    struct sigaction sa;
    if (sig == SIGKILL || sig == SIGSTOP || sigaction(sig, NULL, &sa) != 0)
      continue;
    if (sa.sa_handler != SIG_DFL && (sa.sa_handler != SIG_IGN || sig == SIGPIPE)) {
      sa.sa_handler = SIG_DFL;
      sa.sa_flags = 0;
      sigaction(sig, &sa, NULL);
    }
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL); /* the worker starts as from a shell */
}

/* The cloned child, on its own stack and the parent's memory: only system
 * calls until execve, no allocation, no locks, nothing sanitizers could
 * instrument on a stack they do not know. PR_SET_PDEATHSIG comes after the
 * privilege drop, which clears it, and is checked against the parent having
 * died just before it (getppid then names another process). */
__attribute__((no_sanitize("address", "undefined"))) static int child_main(void *p) {
  const child_args *a = p;
  launch *l = a->l;
  setpgid(0, 0);
  child_signals();
  if (dup2(a->devnull, 0) < 0 || dup2(l->out_w, 1) < 0 || dup2(l->err_w, 2) < 0)
    child_fail(l, STEP_STDIO, errno);
  /* Nothing the harness has open (RAPL files, records) goes to the worker. */
  close_range(3, ~0u, 0);
  int rc = a->o->run_as ? gb_privilege_apply(a->o->run_as) : 0;
  if (rc < 0)
    child_fail(l, STEP_PRIVILEGE, -rc);
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
    child_fail(l, STEP_PARENT, errno);
  if (getppid() != a->parent)
    child_fail(l, STEP_PARENT, ESRCH);
  execve(a->o->argv[0], a->o->argv, a->envp);
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
 * in the child before child_signals has reset it. */
static int launch_start(launch *l, const gb_spawn_opts *o, int devnull, char *stack,
                        gb_err *err) {
  child_args a = {l, o, devnull, o->envp ? o->envp : environ, getpid()};
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pid_t pid = clone(child_main, stack + CHILD_STACK, CLONE_VM | CLONE_VFORK | SIGCHLD, &a);
  int e = errno;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (pid < 0) {
    launch_close(l);
    return gb_err_set(err, e, "cannot start the worker: %s", strerror(e));
  }
  l->pid = pid; /* the child made its group before the parent resumed */
  close_fd(&l->out_w);
  close_fd(&l->err_w);
  l->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
  if (l->pidfd >= 0)
    return 0;
  e = errno;
  kill(-pid, SIGKILL);
  kill(pid, SIGKILL);
  reap(l);
  launch_close(l);
  return gb_err_set(err, e, "pidfd_open failed (Linux 5.3 or newer is needed): %s",
                    strerror(e));
}

static void tail_append(capture *c, const char *s, size_t n) {
  c->err_seen += n;
  if (n >= GB_SPAWN_STDERR_TAIL) {
    memcpy(c->err, s + (n - GB_SPAWN_STDERR_TAIL), GB_SPAWN_STDERR_TAIL);
    c->err_len = GB_SPAWN_STDERR_TAIL;
    return;
  }
  size_t keep = c->err_len + n > GB_SPAWN_STDERR_TAIL ? GB_SPAWN_STDERR_TAIL - n : c->err_len;
  memmove(c->err, c->err + (c->err_len - keep), keep);
  memcpy(c->err + keep, s, n);
  c->err_len = keep + n;
}

/* One read from *fd into the capture; closes *fd at end of file or on error.
 * Returns true when more may be waiting. */
static bool read_once(int *fd, capture *c, bool is_out) {
  char scratch[SCRATCH];
  size_t room = is_out ? c->out_max - c->out_len : 0;
  char *dst = room ? c->out + c->out_len : scratch;
  ssize_t n = read(*fd, dst, room ? room : sizeof scratch);
  if (n > 0) {
    if (room)
      c->out_len += (size_t)n;
    else if (is_out)
      c->out_truncated = true;
    else
      tail_append(c, scratch, (size_t)n);
    return true;
  }
  if (n < 0 && errno == EINTR)
    return true;
  if (n < 0 && errno == EAGAIN)
    return false;
  close_fd(fd);
  return false;
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

/* Polls until the child exits, its deadline passes, abort_fd fires or the
 * stop flag is set, draining its pipes meanwhile (one read per wake-up, so an
 * endless writer cannot keep the deadline from being checked); then reaps it
 * at once. */
static int launch_wait(launch *l, const gb_spawn_opts *o, capture *c) {
  uint64_t now = gb_monotonic_raw_ns(), t = o->timeout_ns;
  uint64_t deadline = t == 0 ? 0 : t > UINT64_MAX - now ? UINT64_MAX : now + t;
  sigset_t old;
  if (o->stop)
    block_async(&old);
  int rc = 0;
  for (;;) {
    struct pollfd p[] = {{l->pidfd, POLLIN, 0},
                         {o->abort_fd, POLLIN, 0},
                         {l->out_r, POLLIN, 0},
                         {l->err_r, POLLIN, 0}};
    uint64_t left = deadline ? time_left(deadline) : 1;
    if (o->stop && *o->stop) {
      l->killed_stop = true;
      kill_group(l);
      break;
    }
    if (left == 0) {
      l->killed_timeout = true;
      kill_group(l);
      break;
    }
    struct timespec ts = {(time_t)(left / 1000000000u), (long)(left % 1000000000u)};
    if (ppoll(p, sizeof p / sizeof p[0], deadline ? &ts : NULL, o->stop ? &old : NULL) < 0) {
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
    if (p[2].revents)
      read_once(&l->out_r, c, true);
    if (p[3].revents)
      read_once(&l->err_r, c, false);
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

/* Sets r's status and its fields, and words msg, from how l ended. */
static void classify(const launch *l, const gb_spawn_opts *o, const capture *c,
                     gb_spawn_result *r, char *msg, size_t len) {
  char line[ERR_LINE_MAX + 1], t[32];
  last_err_line(c, line, sizeof line);
  const char *sep = line[0] ? ": " : "";
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
  } else if (WIFSIGNALED(ws)) {
    r->status = GB_SPAWN_CRASHED;
    r->signal = WTERMSIG(ws);
    const char *abbrev = sigabbrev_np(r->signal);
    snprintf(msg, len, "crashed: killed by SIG%s (signal %d)%s%s%s", abbrev ? abbrev : "?",
             r->signal, WCOREDUMP(ws) ? ", core dumped" : "", sep, line);
  } else if (WEXITSTATUS(ws) != 0) {
    r->status = GB_SPAWN_EXIT_NONZERO;
    r->exit_code = WEXITSTATUS(ws);
    snprintf(msg, len, "exited with code %d%s%s", r->exit_code, sep, line);
  } else {
    r->status = GB_SPAWN_OK;
    msg[0] = '\0';
  }
}

/* After the reap: reads what is left in the pipes, kills anything the launch
 * left in its group, and judges it. */
static void launch_finish(launch *l, const gb_spawn_opts *o, capture *c, gb_spawn_result *r,
                          unsigned i, unsigned n) {
  if (!l->killed_timeout && !l->killed_abort && !l->killed_stop && kill(-l->pid, SIGKILL) == 0)
    r->strays_killed = true;
  for (int k = 0; k < FINAL_READS && l->out_r >= 0 && read_once(&l->out_r, c, true); k++)
    ;
  for (int k = 0; k < FINAL_READS && l->err_r >= 0 && read_once(&l->err_r, c, false); k++)
    ;
  launch_close(l);
  c->out[c->out_len] = '\0';
  c->err[c->err_len] = '\0';
  char msg[sizeof r->message - 48]; /* room for "launch i of n: " */
  classify(l, o, c, r, msg, sizeof msg);
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

static void capture_reset(capture *c) {
  c->out_len = c->err_len = c->err_seen = 0;
  c->out_truncated = false;
}

static void capture_free(capture *c) {
  free(c->stack);
  free(c->out);
  free(c->err);
  c->stack = c->out = c->err = NULL;
}

static int capture_init(capture *c, size_t out_max, gb_err *err) {
  *c = (capture){.out_max = out_max};
  c->out = malloc(out_max + 1);
  c->err = malloc(GB_SPAWN_STDERR_TAIL + 1);
  c->stack = malloc(CHILD_STACK);
  if (c->out && c->err && c->stack)
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

/* The launches between the clock readings. A launch is finished (judged) at
 * once, except the last, which is finished after the clock and the after
 * hook, so that nothing but the reap sits inside a single run's measurement. */
static int run_launches(const gb_spawn_opts *o, unsigned n, int devnull, launch *l, capture *c,
                        gb_spawn_result *r, bool *pending, gb_err *err) {
  for (unsigned i = 0; i < n; i++) {
    int rc = i > 0 ? launch_prepare(l, err) : 0;
    capture_reset(c);
    if (rc == 0)
      rc = launch_start(l, o, devnull, c->stack, err);
    if (rc < 0)
      return rc;
    r->launches = i + 1;
    rc = launch_wait(l, o, c);
    account(r, l);
    if (rc < 0)
      return gb_err_set(err, -rc, "cannot poll the worker: %s", strerror(-rc));
    *pending = true;
    if (i + 1 == n)
      return 0;
    launch_finish(l, o, c, r, i, n);
    *pending = false;
    if (r->status != GB_SPAWN_OK)
      return 0;
  }
  return 0;
}

static int open_devnull(gb_err *err) {
  int fd = fd_high(open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (fd < 0) {
    int e = errno;
    return gb_err_set(err, e, "cannot open /dev/null: %s", strerror(e));
  }
  return fd;
}

int gb_spawn_run(const gb_spawn_opts *o, gb_spawn_result *r, gb_err *err) {
  if (!o || !r || !o->argv || !o->argv[0] || !o->argv[0][0])
    return gb_err_set(err, EINVAL, "no program to run");
  unsigned n = o->launches ? o->launches : 1;
  capture c;
  launch l;
  int rc = capture_init(&c, o->stdout_max ? o->stdout_max : GB_SPAWN_STDOUT_MAX, err);
  if (rc < 0)
    return rc;
  int devnull = open_devnull(err);
  rc = devnull < 0 ? devnull : launch_prepare(&l, err);
  if (rc < 0) {
    close_fd(&devnull);
    capture_free(&c);
    return rc;
  }
  gb_spawn_result res = {.status = GB_SPAWN_OK};
  bool pending = false;
  if (o->before)
    o->before(o->ctx);
  uint64_t t0 = gb_monotonic_raw_ns();
  rc = run_launches(o, n, devnull, &l, &c, &res, &pending, err);
  res.wall_ns = gb_monotonic_raw_ns() - t0;
  if (o->after)
    o->after(o->ctx);
  if (pending)
    launch_finish(&l, o, &c, &res, res.launches - 1, n);
  launch_close(&l);
  close_fd(&devnull);
  if (rc < 0) {
    capture_free(&c);
    return rc;
  }
  capture_give(&c, &res);
  free(c.stack);
  *r = res;
  return 0;
}

void gb_spawn_result_free(gb_spawn_result *r) {
  free(r->out);
  free(r->err_tail);
  r->out = r->err_tail = NULL;
  r->out_len = r->err_len = 0;
}
