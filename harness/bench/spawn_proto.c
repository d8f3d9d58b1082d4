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
  int out[2], err[2], pidfd;
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
} proto_launch;

static void close_if(int *fd) {
  if (*fd >= 0)
    close(*fd);
  *fd = -1;
}

/* As spawn.c: CLOEXEC pipes, the read ends non-blocking. */
static int prepare(proto_launch *l, int devnull) {
  if (pipe2(l->out, O_CLOEXEC) != 0)
    return -errno;
  if (pipe2(l->err, O_CLOEXEC) != 0) {
    close_if(&l->out[0]);
    close_if(&l->out[1]);
    return -errno;
  }
  fcntl(l->out[0], F_SETFL, O_NONBLOCK);
  fcntl(l->err[0], F_SETFL, O_NONBLOCK);
  posix_spawn_file_actions_init(&l->fa);
  posix_spawn_file_actions_adddup2(&l->fa, devnull, 0);
  posix_spawn_file_actions_adddup2(&l->fa, l->out[1], 1);
  posix_spawn_file_actions_adddup2(&l->fa, l->err[1], 2);
  posix_spawn_file_actions_addclosefrom_np(&l->fa, 3);
  /* Its own group, an empty signal mask and SIGPIPE at its default, as the
   * forked child of spawn.c sets them. */
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
  return 0;
}

static void release(proto_launch *l) {
  posix_spawn_file_actions_destroy(&l->fa);
  posix_spawnattr_destroy(&l->attr);
  int *fds[] = {&l->out[0], &l->out[1], &l->err[0], &l->err[1], &l->pidfd};
  for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
    close_if(fds[i]);
}

/* One read from *fd into out (or a scratch buffer once out is full). */
static void drain(int *fd, char *out, size_t cap, size_t *len) {
  char scratch[4096];
  bool room = out && *len + 1 < cap;
  ssize_t n = read(*fd, room ? out + *len : scratch, room ? cap - 1 - *len : sizeof scratch);
  if (n > 0 && room)
    *len += (size_t)n;
  else if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
    close_if(fd);
}

/* As spawn.c's launch_wait: poll the pidfd and both pipes until it exits. */
static void wait_exit(proto_launch *l, char *out, size_t cap, size_t *len) {
  for (;;) {
    struct pollfd p[] = {{l->pidfd, POLLIN, 0}, {l->out[0], POLLIN, 0}, {l->err[0], POLLIN, 0}};
    if (ppoll(p, 3, NULL, NULL) < 0 && errno != EINTR)
      return;
    if (p[0].revents)
      return;
    if (p[1].revents)
      drain(&l->out[0], out, cap, len);
    if (p[2].revents)
      drain(&l->err[0], NULL, 0, len);
  }
}

int proto_spawn_run(char *const *argv, int devnull, char *out, size_t cap, size_t *out_len,
                    uint64_t *wall_ns) {
  proto_launch l = {.out = {-1, -1}, .err = {-1, -1}, .pidfd = -1};
  int rc = prepare(&l, devnull);
  if (rc < 0)
    return rc;
  *out_len = 0;
  pid_t pid;
  uint64_t t0 = gb_monotonic_raw_ns();
  rc = -posix_spawn(&pid, argv[0], &l.fa, &l.attr, argv, environ);
  if (rc == 0) {
    close_if(&l.out[1]);
    close_if(&l.err[1]);
    l.pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (l.pidfd >= 0) /* else wait4 alone waits */
      wait_exit(&l, out, cap, out_len);
    int st = 0;
    struct rusage ru;
    while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR)
      ;
    *wall_ns = gb_monotonic_raw_ns() - t0;
    rc = WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -EIO;
    /* What is still in the pipes, after the clock as in spawn.c. */
    while (l.out[0] >= 0 && *out_len + 1 < cap) {
      size_t before = *out_len;
      drain(&l.out[0], out, cap, out_len);
      if (*out_len == before)
        break;
    }
  }
  if (out && cap)
    out[*out_len] = '\0';
  release(&l);
  return rc;
}
