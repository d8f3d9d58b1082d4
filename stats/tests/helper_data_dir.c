/* The stats test binaries are not installed and sit beside no build-tree
 * marker (greenbench/paths.h), so they read the shipped data (the carbon
 * table) from the source tree, unless GREENBENCH_DATA_DIR already names a
 * folder. Runs before main, hence in every test process Criterion forks. */
#include <stdlib.h>

#include "greenbench/paths.h"

__attribute__((constructor)) static void use_the_source_trees_data(void) {
  setenv(GB_DATA_ENV, GB_TEST_SHARE_DIR, 0);
}
