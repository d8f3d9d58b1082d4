/* The version every greenbench binary prints for --version: the project's
 * version (PROJECT_VERSION of the top CMakeLists.txt) and the git commit it
 * was built from, looked up on every build (version/git_commit.cmake). */
#ifndef GB_VERSION_H
#define GB_VERSION_H

#include <stdio.h>

/* A status the caller must handle, as greenbench/error.h defines it, for
 * gb_version (which links nothing of greenbench). */
#ifndef GB_MUST_USE
#define GB_MUST_USE __attribute__((warn_unused_result))
#endif

/* The project's version, e.g. "0.2.0". */
const char *gb_version(void);

/* The commit: at least 12 hex digits, then "-dirty" when a tracked file
 * differed from it at build time; "unknown" when not built from a git
 * checkout. */
const char *gb_git_commit(void);

/* Writes the line "greenbench 0.2.0 (commit 0123456789ab)\n" to out.
 * Returns 0, or -EIO when it could not be written. */
GB_MUST_USE int gb_version_print(FILE *out);

#endif
