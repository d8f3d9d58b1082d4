/* See helper_locale.h. */
#include "helper_locale.h"

#include <criterion/criterion.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool prints_a_comma(void) {
  char probe[16];
  snprintf(probe, sizeof probe, "%.1f", 1.5);
  return strcmp(localeconv()->decimal_point, ",") == 0 && strcmp(probe, "1,5") == 0;
}

/* Compiles de_DE.UTF-8 into <dir>/de_DE.UTF-8 unless it is there already.
 * Built beside the target and renamed into place, so two tests that build
 * at once never see half a locale. 0 or -1. */
static int build_locale(const char *dir) {
  char target[512], part[600], cmd[1400];
  snprintf(target, sizeof target, "%s/de_DE.UTF-8", dir);
  struct stat st;
  if (stat(target, &st) == 0) {
    return 0;
  }
  if (mkdir(dir, 0700) < 0 && stat(dir, &st) < 0) {
    return -1;
  }
  snprintf(part, sizeof part, "%s.%ld", target, (long)getpid());
  snprintf(cmd, sizeof cmd, "localedef -i de_DE -f UTF-8 '%s' >/dev/null 2>&1", part);
  int rc = system(cmd);
  /* localedef exits 1 for warnings (it still writes the locale). */
  if (rc == -1 || stat(part, &st) < 0) {
    return -1;
  }
  if (rename(part, target) < 0) {
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", part);
    (void)!system(cmd);
    return stat(target, &st) == 0 ? 0 : -1;
  }
  return 0;
}

const char *gbt_use_comma_locale(void) {
  static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8",  "fr_FR.UTF-8",
                                      "fr_FR.utf8",  "nl_NL.UTF-8", "ru_RU.UTF-8"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (setlocale(LC_ALL, names[i]) && prints_a_comma()) {
      return names[i];
    }
  }
  const char *tmp = getenv("TMPDIR");
  static char dir[256];
  snprintf(dir, sizeof dir, "%s/greenbench-locale-%ld", tmp && tmp[0] ? tmp : "/tmp",
           (long)getuid());
  if (build_locale(dir) < 0) {
    setlocale(LC_ALL, "C");
    cr_skip_test("no decimal-comma locale is installed and localedef could not build "
                 "de_DE.UTF-8 (Debian package locales; bash ci/setup generates it)");
  }
  setenv("LOCPATH", dir, 1);
  if (!setlocale(LC_ALL, "de_DE.UTF-8") || !prints_a_comma()) {
    setlocale(LC_ALL, "C");
    cr_skip_test("de_DE.UTF-8 built with localedef in %s does not print a decimal comma", dir);
  }
  return "de_DE.UTF-8";
}
