#include "spawn_proto.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "greenbench/clock.h"

/* The size of a memory file, as spawn.c's (sparse: only what is written
 * takes memory). */
#define MEMFD_SIZE (16u * 1024u * 1024u)

typedef struct {
  int out[2], err[2], pidfd; /* [0] read, [1] the worker's end; one memfd in both */
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  bool has_attrs;
} proto_launch;

static void close_if(int *fd) {
  if (*fd >= 0)
    close(*fd);
  *fd = -1;
}

/* As spawn.c before issue 19: CLOEXEC pipes, the read end non-blocking. */
static int pipe_nb(int p[2]) {
  if (pipe2(p, O_CLOEXEC) != 0)
    return -errno;
  fcntl(p[0], F_SETFL, O_NONBLOCK);
  return 0;
}

/* As spawn.c: a sealed memfd; the harness reads the same descriptor the
 * worker writes (one open file description, so its offset is the length). */
static int memfd_nb(int p[2]) {
  int fd = memfd_create("proto", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0)
    return -errno;
  if (ftruncate(fd, MEMFD_SIZE) != 0 ||
      fcntl(fd, F_ADD_SEALS, F_SEAL_GROW | F_SEAL_SHRINK) != 0) {
    int e = errno;
    close(fd);
    return -e;
  }
  p[0] = fd;
  p[1] = -1;
  return 0;
}

static int worker_end(const int p[2]) {
  return p[1] >= 0 ? p[1] : p[0];
}

static void build_attrs(proto_launch *l, int devnull) {
  posix_spawn_file_actions_init(&l->fa);
  posix_spawn_file_actions_adddup2(&l->fa, devnull, 0);
  posix_spawn_file_actions_adddup2(&l->fa, worker_end(l->out), 1);
  posix_spawn_file_actions_adddup2(&l->fa, worker_end(l->err), 2);
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
  int *fds[] = {&l->out[0], &l->out[1], &l->err[0], &l->err[1], &l->pidfd};
  for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
    close_if(fds[i]);
}

/* One read from the pipe *fd into out (or a scratch buffer once out is
 * full, or when out is NULL). */
static void drain(int *fd, char *out, size_t cap, size_t *len) {
  char scratch[4096];
  bool room = out && *len + 1 < cap;
  ssize_t n = read(*fd, room ? out + *len : scratch, room ? cap - 1 - *len : sizeof scratch);
  if (n > 0 && room)
    *len += (size_t)n;
  else if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
    close_if(fd);
}

/* Polls the pidfd, and with pipes drains them, until the worker exits. */
static void wait_exit(proto_launch *l, bool pipes, char *out, size_t cap, size_t *len) {
  size_t ignored = 0;
  for (;;) {
    struct pollfd p[] = {{l->pidfd, POLLIN, 0},
                         {pipes ? l->out[0] : -1, POLLIN, 0},
                         {pipes ? l->err[0] : -1, POLLIN, 0}};
    if (ppoll(p, 3, NULL, NULL) < 0 && errno != EINTR)
      return;
    if (p[0].revents)
      return;
    if (p[1].revents)
      drain(&l->out[0], out, cap, len);
    if (p[2].revents)
      drain(&l->err[0], NULL, 0, &ignored);
  }
}

/* Stdout after the clock: what is left in the pipe, or the memory file. */
static void read_out(proto_launch *l, bool pipes, char *out, size_t cap, size_t *out_len) {
  if (pipes) {
    while (l->out[0] >= 0 && *out_len + 1 < cap) {
      size_t before = *out_len;
      drain(&l->out[0], out, cap, out_len);
      if (*out_len == before)
        break;
    }
    return;
  }
  off_t n = lseek(l->out[0], 0, SEEK_CUR);
  size_t want = n > 0 ? (size_t)n : 0;
  want = want < cap - 1 ? want : cap - 1;
  ssize_t got = pread(l->out[0], out, want, 0);
  *out_len = got > 0 ? (size_t)got : 0;
}

int proto_spawn_run(char *const *argv, int devnull, const proto_opts *po, char *out, size_t cap,
                    size_t *out_len, uint64_t *wall_ns) {
  proto_opts o = po ? *po : (proto_opts){.capture = PROTO_MEMFD, .poll_pidfd = true};
  bool pipes = o.capture == PROTO_PIPES;
  proto_launch l = {.out = {-1, -1}, .err = {-1, -1}, .pidfd = -1};
  int rc = pipes ? pipe_nb(l.out) : memfd_nb(l.out);
  if (rc == 0)
    rc = pipes ? pipe_nb(l.err) : memfd_nb(l.err);
  if (rc < 0) {
    release(&l);
    return rc;
  }
  *out_len = 0;
  build_attrs(&l, devnull);
  uint64_t t0 = gb_monotonic_raw_ns();
  pid_t pid;
  rc = -posix_spawn(&pid, argv[0], &l.fa, &l.attr, argv, environ);
  if (rc == 0) {
    close_if(&l.out[1]);
    close_if(&l.err[1]);
    if (pipes || o.poll_pidfd) {
      l.pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
      if (l.pidfd >= 0) /* else wait4 alone waits */
        wait_exit(&l, pipes, out, cap, out_len);
    }
    int st = 0;
    struct rusage ru;
    while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR)
      ;
    *wall_ns = gb_monotonic_raw_ns() - t0;
    rc = WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -EIO;
    read_out(&l, pipes, out, cap, out_len);
  }
  if (out && cap)
    out[*out_len] = '\0';
  release(&l);
  return rc;
}
