/* Who the workers run as. The harness needs root for the RAPL counters, and
 * people start it with sudo; the workers it measures must still run as the
 * person who typed the command, never as root, and the records it writes must
 * belong to that person. Outside sudo nothing changes. */
#ifndef GREENBENCH_PRIVILEGE_H
#define GREENBENCH_PRIVILEGE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "greenbench/error.h"

/* Supplementary groups kept for a worker; a user in more keeps the first
 * ones only, which can only take rights away from the worker. */
#define GB_PRIVILEGE_MAX_GROUPS 256

typedef struct {
  uid_t uid; /* (uid_t)-1: keep the harness's identity */
  gid_t gid; /* (gid_t)-1 exactly when uid is */
  size_t ngroups;
  gid_t groups[GB_PRIVILEGE_MAX_GROUPS];
} gb_privilege;

/* True when *p changes the identity (it is not "keep"). */
bool gb_privilege_drops(const gb_privilege *p);

/* Decides from this process's SUDO_UID and SUDO_GID and its effective uid:
 * - euid != 0: keep (an ordinary user runs the workers as itself);
 * - euid 0 and neither variable set: keep (root logged in as root; there is no
 *   other user to run as);
 * - euid 0, both set: drop to SUDO_UID/SUDO_GID, with that user's
 *   supplementary groups, unless SUDO_UID is 0.
 * Each variable must be a plain decimal id (digits only, no sign or space)
 * from 0 to 4294967294. Returns 0, or -EINVAL with a message naming the
 * variable when one is malformed or only one of the two is set. */
GB_MUST_USE int gb_privilege_detect(gb_privilege *out, gb_err *err);

/* Switches the calling process to *p: supplementary groups, then gid, then
 * uid (real, effective and saved), and checks that root cannot be regained.
 * Meant for a forked child before execve: async-signal-safe, touches nothing
 * but the identity. Returns 0 (also for "keep"), or -errno of the first step
 * that failed. */
GB_MUST_USE int gb_privilege_apply(const gb_privilege *p);

/* A thread's file-system identity, saved by gb_privilege_fs_enter. */
typedef struct {
  bool changed;
  uid_t fsuid;
  gid_t fsgid;
  size_t ngroups;
  gid_t groups[GB_PRIVILEGE_MAX_GROUPS];
} gb_privilege_fs;

/* Makes the calling thread open, create, read and write files as p's user
 * would: its supplementary groups, then setfsgid and setfsuid (root's other
 * rights, such as reading the energy counters opened before, stay). Saves
 * the identity before into *saved for gb_privilege_fs_leave. Does nothing
 * for "keep" or when this process is not root. Returns 0, or -errno of the
 * step that failed, with the identity restored. */
GB_MUST_USE int gb_privilege_fs_enter(const gb_privilege *p, gb_privilege_fs *saved);

/* Restores the identity gb_privilege_fs_enter saved (nothing when it
 * changed nothing); safe to call twice. */
void gb_privilege_fs_leave(gb_privilege_fs *saved);

/* Gives path (not a symlink's target) to p's user and group, so the records a
 * root harness writes belong to the person who ran it. Does nothing and
 * returns 0 for "keep". Returns -errno from lchown with a message naming the
 * path. */
GB_MUST_USE int gb_privilege_chown_path(const gb_privilege *p, const char *path, gb_err *err);

#endif
