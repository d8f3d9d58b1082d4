#include "spawn_proto.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "greenbench/clock.h"

typedef struct {
  int out[2], err[2], rep[2], pidfd;
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  bool has_attrs;
} proto_launch;

static void close_if(int *fd) {
  if (*fd >= 0)
    close(*fd);
  *fd = -1;
}

/* As spawn.c: CLOEXEC pipes, the read end non-blocking. */
static int pipe_nb(int p[2]) {
  if (pipe2(p, O_CLOEXEC) != 0)
    return -errno;
  fcntl(p[0], F_SETFL, O_NONBLOCK);
  return 0;
}

/* The child's set-up, as spawn.c gives it: stdin from /dev/null, stdout and
 * stderr to the pipes, nothing else open, its own group, an empty signal
 * mask and SIGPIPE at its default. */
static void build_attrs(proto_launch *l, int devnull) {
  posix_spawn_file_actions_init(&l->fa);
  posix_spawn_file_actions_adddup2(&l->fa, devnull, 0);
  posix_spawn_file_actions_adddup2(&l->fa, l->out[1], 1);
  posix_spawn_file_actions_adddup2(&l->fa, l->err[1], 2);
  posix_spawn_file_actions_addclosefrom_np(&l->fa, 3);
  sigset_t none, pipe;
  sigemptyset(&none);
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  posix_spawnattr_init(&l->attr);
  posix_spawnattr_setflags(&l->attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                         POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&l->attr, 0);
  posix_spawnattr_setsigmask(&l->attr, &none);
  posix_spawnattr_setsigdefault(&l->attr, &pipe);
  l->has_attrs = true;
}

static void release(proto_launch *l) {
  if (l->has_attrs) {
    posix_spawn_file_actions_destroy(&l->fa);
    posix_spawnattr_destroy(&l->attr);
  }
  int *fds[] = {&l->out[0], &l->out[1], &l->err[0], &l->err[1],
                &l->rep[0], &l->rep[1], &l->pidfd};
  for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
    close_if(fds[i]);
}

/* One read from *fd into out (or a scratch buffer once out is full, or when
 * out is NULL). */
static void drain(int *fd, char *out, size_t cap, size_t *len) {
  char scratch[4096];
  bool room = out && *len + 1 < cap;
  ssize_t n = read(*fd, room ? out + *len : scratch, room ? cap - 1 - *len : sizeof scratch);
  if (n > 0 && room)
    *len += (size_t)n;
  else if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
    close_if(fd);
}

/* As spawn.c's launch_wait: poll the pidfd and the pipes until it exits. */
static void wait_exit(proto_launch *l, char *out, size_t cap, size_t *len) {
  size_t ignored = 0;
  for (;;) {
    struct pollfd p[] = {{l->pidfd, POLLIN, 0},
                         {l->out[0], POLLIN, 0},
                         {l->err[0], POLLIN, 0},
                         {l->rep[0], POLLIN, 0}};
    if (ppoll(p, 4, NULL, NULL) < 0 && errno != EINTR)
      return;
    if (p[0].revents)
      return;
    if (p[1].revents)
      drain(&l->out[0], out, cap, len);
    if (p[2].revents)
      drain(&l->err[0], NULL, 0, &ignored);
    if (p[3].revents)
      drain(&l->rep[0], NULL, 0, &ignored);
  }
}

static void finish(proto_launch *l, pid_t pid, uint64_t t0, char *out, size_t cap,
                   size_t *out_len, uint64_t *wall_ns, int *rc) {
  close_if(&l->out[1]);
  close_if(&l->err[1]);
  close_if(&l->rep[1]);
  l->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
  if (l->pidfd >= 0) /* else wait4 alone waits */
    wait_exit(l, out, cap, out_len);
  int st = 0;
  struct rusage ru;
  while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR)
    ;
  *wall_ns = gb_monotonic_raw_ns() - t0;
  *rc = WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -EIO;
  /* What is still in the pipe, after the clock as in spawn.c. */
  while (l->out[0] >= 0 && *out_len + 1 < cap) {
    size_t before = *out_len;
    drain(&l->out[0], out, cap, out_len);
    if (*out_len == before)
      break;
  }
}

int proto_spawn_run(char *const *argv, int devnull, const proto_opts *po, char *out, size_t cap,
                    size_t *out_len, uint64_t *wall_ns) {
  proto_opts o = po ? *po : (proto_opts){0};
  proto_launch l = {.out = {-1, -1}, .err = {-1, -1}, .rep = {-1, -1}, .pidfd = -1};
  int rc = pipe_nb(l.out);
  if (rc == 0)
    rc = pipe_nb(l.err);
  if (rc == 0 && o.report_pipe)
    rc = pipe_nb(l.rep);
  if (rc < 0) {
    release(&l);
    return rc;
  }
  *out_len = 0;
  uint64_t t0 = o.setup_in_clock ? gb_monotonic_raw_ns() : 0;
  build_attrs(&l, devnull);
  if (!o.setup_in_clock)
    t0 = gb_monotonic_raw_ns();
  pid_t pid;
  rc = -posix_spawn(&pid, argv[0], &l.fa, &l.attr, argv, environ);
  if (rc == 0)
    finish(&l, pid, t0, out, cap, out_len, wall_ns, &rc);
  if (out && cap)
    out[*out_len] = '\0';
  release(&l);
  return rc;
}
