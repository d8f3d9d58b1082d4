/* A locale whose decimal point is a comma, for the tests that prove numbers
 * are written with a dot whatever the process locale (records, results.md,
 * JUnit). One helper for all of them, so they run or skip for one reason.
 *
 * Criterion-aware, like helper_report.h: when no such locale can be had the
 * calling test is skipped (cr_skip_test) with the reason, never passed. */
#ifndef GREENBENCH_TESTS_HELPER_LOCALE_H
#define GREENBENCH_TESTS_HELPER_LOCALE_H

/* Switches the whole process (setlocale LC_ALL) to a decimal-comma locale
 * and returns its name: an installed one (ci/setup generates de_DE.UTF-8),
 * else de_DE.UTF-8 compiled once with localedef into
 * $TMPDIR/greenbench-locale-<uid> and found through LOCPATH. Checks that
 * printf then writes 1.5 as "1,5". Skips the test when neither works. */
const char *gbt_use_comma_locale(void);

#endif
