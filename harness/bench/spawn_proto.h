/* A prototype of the spawner's quick path as docs/performance.md proposes
 * it, kept in the benchmarks to measure it beside the real one: the same
 * launch as gb_spawn_run when the worker keeps the harness's identity (its
 * own process group, stdin from /dev/null, stdout and stderr drained through
 * pipes while it runs, a pidfd polled for its exit, wait4 for its CPU time,
 * the clock read just around it), started with posix_spawn (glibc: clone
 * with CLONE_VM | CLONE_VFORK, so the harness's page tables are not copied),
 * and differing from spawn.c (since commit 0cd8e3f, which took the
 * posix_spawn part) in what the doc proposes next: the file actions and
 * attributes are built before the clock, and there is no exec-report pipe
 * (posix_spawn returns a failed exec's errno itself).
 *
 * No timeout, no abort fd, no stderr tail: what is left out costs nothing
 * while a launch runs but the timeout's timer (about 4 us here). */
#ifndef GREENBENCH_BENCH_SPAWN_PROTO_H
#define GREENBENCH_BENCH_SPAWN_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Which of spawn.c's habits to add back, to measure what each costs (both
 * false: the proposal). */
typedef struct {
  bool report_pipe;    /* an exec-report pipe, closed after the start and polled
                          until its hang-up, as spawn.c keeps for its fork path */
  bool setup_in_clock; /* the file actions and attributes built after the first
                          clock reading, as spawn.c's spawn_quick does */
} proto_opts;

/* Runs argv once (po may be NULL: the proposal). Stdout (at most cap - 1
 * bytes are kept, NUL-terminated) goes to out, its length to *out_len.
 * *wall_ns is the clock reading after wait4 minus the one before
 * posix_spawn. Returns 0 when it exited 0, -EIO when it did not, or -errno
 * when it could not be run. */
int proto_spawn_run(char *const *argv, int devnull, const proto_opts *po, char *out, size_t cap,
                    size_t *out_len, uint64_t *wall_ns);

#endif
