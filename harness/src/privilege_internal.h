/* Private to privilege.c and its tests: the steps of gb_privilege_detect
 * (greenbench/privilege.h), with the identity and sudo's variables given
 * rather than read, so that the tests need neither root nor sudo. */
#ifndef GREENBENCH_PRIVILEGE_INTERNAL_H
#define GREENBENCH_PRIVILEGE_INTERNAL_H

#include <sys/types.h>

#include "greenbench/error.h"
#include "greenbench/privilege.h"

/* Sets *p to "keep the harness's identity". */
void gb_privilege_keep(gb_privilege *p);

/* Sets *out to run as uid/gid with that user's supplementary groups (from the
 * user database; just gid when the uid has no entry). Returns 0, or -EINVAL
 * for uid or gid (uid_t)-1 or uid 0 (that is no drop; use gb_privilege_keep). */
GB_MUST_USE int gb_privilege_for_user(uid_t uid, gid_t gid, gb_privilege *out, gb_err *err);

/* gb_privilege_detect from sudo's variables as given (NULL when unset) and
 * euid as the effective uid: the same decisions, errors and messages. */
GB_MUST_USE int gb_privilege_from_sudo(const char *sudo_uid, const char *sudo_gid, uid_t euid,
                                       gb_privilege *out, gb_err *err);

#endif
