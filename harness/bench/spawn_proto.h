/* A prototype of the spawner change docs/performance.md proposes, kept in
 * the benchmarks to measure it beside the real one: the same launch as
 * gb_spawn_run (own process group, stdin from /dev/null, stdout and stderr
 * drained through pipes while it runs, a pidfd polled for its exit, wait4
 * for its CPU time, the clock read just around it) but started with
 * posix_spawn, which glibc implements with clone(CLONE_VM | CLONE_VFORK):
 * the harness's page tables are not copied and no copy-on-write fault
 * follows. posix_spawn reports a failed exec itself, so no report pipe is
 * needed. It cannot drop privileges in the child (hence the fork in
 * spawn.c), so the proposal keeps fork for the run_as case.
 *
 * No timeout, no abort fd, no stderr tail: what is left out costs nothing
 * while a launch runs (one more fd in ppoll at most). */
#ifndef GREENBENCH_BENCH_SPAWN_PROTO_H
#define GREENBENCH_BENCH_SPAWN_PROTO_H

#include <stddef.h>
#include <stdint.h>

/* Runs argv once. Stdout (at most cap - 1 bytes are kept, NUL-terminated)
 * goes to out, its length to *out_len. *wall_ns is the clock reading after
 * wait4 minus the one before posix_spawn. Returns 0 when it exited 0,
 * -EIO when it did not, or -errno when it could not be run. */
int proto_spawn_run(char *const *argv, int devnull, char *out, size_t cap, size_t *out_len,
                    uint64_t *wall_ns);

#endif
