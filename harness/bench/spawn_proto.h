/* The spawner's launch rebuilt on posix_spawn, kept in the benchmarks to
 * measure its parts beside the real one (docs/performance.md, figure 1): the
 * worker in its own process group, stdin from /dev/null, an empty signal
 * mask and SIGPIPE at its default, nothing else open, started with
 * posix_spawn (glibc: clone with CLONE_VM | CLONE_VFORK), its file actions
 * and attributes built before the clock, wait4 for its CPU time, the clock
 * read just around it. What it leaves out is what spawn.c's own child
 * function adds (the privilege drop, PR_SET_PDEATHSIG and its getppid
 * check), and the timeout, the abort fd and the stop flag.
 *
 * Its stdout and stderr are captured one of two ways: in memory files read
 * after the reap, as spawn.c does since issue 19, or through pipes drained
 * while it runs (each write wakes the harness), as spawn.c did before. */
#ifndef GREENBENCH_BENCH_SPAWN_PROTO_H
#define GREENBENCH_BENCH_SPAWN_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
  PROTO_MEMFD, /* memory files made before the clock, read after it */
  PROTO_PIPES, /* pipes made before the clock, drained while it runs */
} proto_capture;

typedef struct {
  proto_capture capture;
  bool poll_pidfd; /* sleep in ppoll on a pidfd (from pidfd_open, inside the
                      clock) before wait4, as spawn.c does; with PROTO_PIPES
                      always */
} proto_opts;

/* Runs argv once (po NULL: memory files and a pidfd, spawn.c's way).
 * Stdout (at most cap - 1 bytes are kept, NUL-terminated) goes to out, its
 * length to *out_len. *wall_ns is the clock reading after wait4 minus the
 * one before posix_spawn. Returns 0 when it exited 0, -EIO when it did not,
 * or -errno when it could not be run. */
int proto_spawn_run(char *const *argv, int devnull, const proto_opts *po, char *out, size_t cap,
                    size_t *out_len, uint64_t *wall_ns);

#endif
