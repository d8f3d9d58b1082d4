#include "greenbench/version.h"

#include <errno.h>

#include "gb_git_commit.h"

#ifndef GB_PROJECT_VERSION
#error "GB_PROJECT_VERSION is set by version/CMakeLists.txt"
#endif

const char *gb_version(void) {
  return GB_PROJECT_VERSION;
}

const char *gb_git_commit(void) {
  return GB_GIT_COMMIT;
}

int gb_version_print(FILE *out) {
  if (fprintf(out, "greenbench %s (commit %s)\n", gb_version(), gb_git_commit()) < 0)
    return -EIO;
  return 0;
}
