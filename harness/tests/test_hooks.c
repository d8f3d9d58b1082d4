/* The harness's test hooks (gb_test_hooks, greenbench/energy_ways.h): the
 * one list the greenbench command refuses under sudo. Every GB_*_ENV that a
 * harness header defines is a hook and must be listed, so that a new one
 * cannot be forgotten. */
#include <criterion/criterion.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>

#include "greenbench/energy_ways.h"

static bool listed(const char *name) {
  for (const char *const *h = gb_test_hooks; *h; h++)
    if (!strcmp(*h, name))
      return true;
  return false;
}

Test(harness_hooks, the_two_hooks_are_listed) {
  cr_assert(listed(GB_RAPL_ROOT_ENV));
  cr_assert(listed(GB_PERF_POWER_DIR_ENV));
  cr_assert_not(listed("GREENBENCH_LIBEXEC_DIR"), "not a test hook: run under sudo uses it");
}

Test(harness_hooks, every_env_define_is_a_listed_hook) {
  glob_t g;
  cr_assert_eq(glob(GB_SOURCE_DIR "/harness/include/greenbench/*.h", 0, NULL, &g), 0);
  size_t found = 0;
  for (size_t i = 0; i < g.gl_pathc; i++) {
    FILE *f = fopen(g.gl_pathv[i], "r");
    cr_assert_not_null(f, "%s", g.gl_pathv[i]);
    char line[512], macro[128], name[128];
    while (fgets(line, sizeof line, f)) {
      if (sscanf(line, "#define %127s \"%127[^\"]\"", macro, name) != 2)
        continue;
      size_t n = strlen(macro);
      if (strncmp(macro, "GB_", 3) || n < 4 || strcmp(macro + n - 4, "_ENV"))
        continue;
      cr_assert(listed(name), "%s (%s, in %s) is not in gb_test_hooks", macro, name,
                g.gl_pathv[i]);
      found++;
    }
    fclose(f);
  }
  globfree(&g);
  cr_assert_geq(found, 2, "the scan found %zu hook defines", found);
}
