#include "greenbench/privilege.h"

#include "greenbench/numparse.h"
#include "harness_internal.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The largest id that is not (uid_t)-1, the "no change" value of the id calls. */
#define MAX_ID 4294967294u
/* Longest part of an environment value quoted back in a message. */
#define QUOTE_MAX 40

void gbi_privilege_keep(gb_privilege *p) {
  p->uid = (uid_t)-1;
  p->gid = (gid_t)-1;
  p->ngroups = 0;
}

bool gb_privilege_drops(const gb_privilege *p) {
  return p->uid != (uid_t)-1;
}

/* getgrouplist needs a buffer as large as the list; a user in more than
 * GB_PRIVILEGE_MAX_GROUPS groups keeps the first ones. */
static size_t user_groups(const char *name, gid_t gid, gid_t *out) {
  int n = GB_PRIVILEGE_MAX_GROUPS;
  if (getgrouplist(name, gid, out, &n) >= 0)
    return (size_t)n;
  gid_t *all = n > 0 ? malloc((size_t)n * sizeof *all) : NULL;
  size_t kept = 0;
  if (all && getgrouplist(name, gid, all, &n) >= 0) {
    kept = (size_t)n < GB_PRIVILEGE_MAX_GROUPS ? (size_t)n : GB_PRIVILEGE_MAX_GROUPS;
    memcpy(out, all, kept * sizeof *out);
  }
  free(all);
  if (kept > 0)
    return kept;
  out[0] = gid;
  return 1;
}

int gbi_privilege_for_user(uid_t uid, gid_t gid, gb_privilege *out, gb_err *err) {
  if (uid == (uid_t)-1 || gid == (gid_t)-1 || uid == 0)
    return gb_err_set(err, EINVAL, "cannot run workers as uid %ld gid %ld", (long)(int)uid,
                      (long)(int)gid);
  gb_privilege p = {.uid = uid, .gid = gid};
  struct passwd pw, *found = NULL;
  char buf[4096];
  if (getpwuid_r(uid, &pw, buf, sizeof buf, &found) == 0 && found) {
    p.ngroups = user_groups(found->pw_name, gid, p.groups);
  } else {
    p.groups[0] = gid;
    p.ngroups = 1;
  }
  *out = p;
  return 0;
}

/* Digits only, within [0, MAX_ID]: sudo writes plain decimal ids, so anything
 * else means the environment was tampered with or mangled. */
static bool parse_id(const char *s, unsigned long *out) {
  uint64_t v;
  if (gb_parse_u64(s, 0, MAX_ID, &v) < 0)
    return false;
  *out = (unsigned long)v;
  return true;
}

static int bad_id(gb_err *err, const char *name, const char *value) {
  return gb_err_set(err, EINVAL, "%s must be a decimal id from 0 to %u, got '%.*s'%s", name,
                    MAX_ID, QUOTE_MAX, value, strlen(value) > QUOTE_MAX ? "..." : "");
}

int gbi_privilege_from_sudo(const char *sudo_uid, const char *sudo_gid, uid_t euid,
                            gb_privilege *out, gb_err *err) {
  gb_privilege p;
  gbi_privilege_keep(&p);
  if (euid != 0 || (!sudo_uid && !sudo_gid)) {
    *out = p;
    return 0;
  }
  if (!sudo_uid || !sudo_gid)
    return gb_err_set(err, EINVAL, "%s is set but %s is not",
                      sudo_uid ? "SUDO_UID" : "SUDO_GID", sudo_uid ? "SUDO_GID" : "SUDO_UID");
  unsigned long uid, gid;
  if (!parse_id(sudo_uid, &uid))
    return bad_id(err, "SUDO_UID", sudo_uid);
  if (!parse_id(sudo_gid, &gid))
    return bad_id(err, "SUDO_GID", sudo_gid);
  if (uid != 0) {
    int rc = gbi_privilege_for_user((uid_t)uid, (gid_t)gid, &p, err);
    if (rc < 0)
      return rc;
  }
  *out = p;
  return 0;
}

int gb_privilege_detect(gb_privilege *out, gb_err *err) {
  return gbi_privilege_from_sudo(getenv("SUDO_UID"), getenv("SUDO_GID"), geteuid(), out, err);
}

/* Raw system calls: they change only the calling thread, which in a forked
 * child is the whole process, and they never take glibc's locks (its wrappers
 * broadcast to all threads, which is not async-signal-safe after fork). */
static int id_call(long nr, long a, long b, long c) {
  return syscall(nr, a, b, c) == 0 ? 0 : -errno;
}

int gb_privilege_apply(const gb_privilege *p) {
  if (!gb_privilege_drops(p))
    return 0;
  int rc = id_call(SYS_setgroups, (long)p->ngroups, (long)p->groups, 0);
  if (rc == 0)
    rc = id_call(SYS_setresgid, p->gid, p->gid, p->gid);
  if (rc == 0)
    rc = id_call(SYS_setresuid, p->uid, p->uid, p->uid);
  /* With real, effective and saved ids all changed, this must fail. */
  if (rc == 0 && id_call(SYS_setresuid, 0, 0, 0) == 0)
    rc = -EPERM;
  return rc;
}

int gb_privilege_chown_path(const gb_privilege *p, const char *path, gb_err *err) {
  if (!gb_privilege_drops(p))
    return 0;
  /* lchown: a root harness must not follow a link someone planted in the
   * records folder and give away the file it points to. */
  if (lchown(path, p->uid, p->gid) == 0)
    return 0;
  int e = errno;
  return gb_err_set(err, e, "cannot give %s to uid %u gid %u: %s", path, (unsigned)p->uid,
                    (unsigned)p->gid, strerror(e));
}

int gb_privilege_fs_enter(const gb_privilege *p, gb_privilege_fs *saved) {
  *saved = (gb_privilege_fs){.changed = false};
  if (!gb_privilege_drops(p) || geteuid() != 0)
    return 0;
  int n = getgroups(GB_PRIVILEGE_MAX_GROUPS, saved->groups);
  if (n < 0)
    return -errno;
  saved->ngroups = (size_t)n;
  /* setfsuid and setfsgid return the old id and cannot report a failure:
   * each is read back with a second call that changes nothing. */
  saved->fsgid = (gid_t)setfsgid((gid_t)-1);
  saved->fsuid = (uid_t)setfsuid((uid_t)-1);
  saved->changed = true;
  int rc = id_call(SYS_setgroups, (long)p->ngroups, (long)p->groups, 0);
  if (rc == 0) {
    setfsgid(p->gid);
    setfsuid(p->uid);
    if ((uid_t)setfsuid((uid_t)-1) != p->uid || (gid_t)setfsgid((gid_t)-1) != p->gid)
      rc = -EPERM;
  }
  if (rc < 0)
    gb_privilege_fs_leave(saved);
  return rc;
}

void gb_privilege_fs_leave(gb_privilege_fs *saved) {
  if (!saved->changed)
    return;
  setfsuid(saved->fsuid);
  setfsgid(saved->fsgid);
  (void)id_call(SYS_setgroups, (long)saved->ngroups, (long)saved->groups, 0);
  saved->changed = false;
}
