/* JUnit XML for CI dashboards, in the dialect of the project's schema
 * stats/schema/greenbench-junit.xsd (ADR 0006), which Jenkins, GitLab and
 * junitparser read.
 *
 * One testsuite per language and algorithm, named
 * <machine>.<profile>.<language>.<algorithm> (machine: meta.json's
 * machine.label, or "unlabelled" for records without one; profile:
 * gb_profile_name), so two profiles or two machines never collide when
 * a dashboard merges their files; its properties are the campaign's settings
 * and machine_label. One testcase per configuration of the settings,
 * classname its suite's name, name <order>.<size>, time the measuring time
 * spent on it in seconds: the wall_ns of its rows in runs.csv (kind sort)
 * and in warmups.csv (its warm-ups and calibration trials); the testsuite
 * and testsuites times are the sums. A configuration whose records are
 * invalid (gb_validate_case) carries a failure of type "invalid-records"
 * with the reason; one without any row in runs.csv (it never ran) is
 * skipped.
 *
 * A testcase's system-out holds its figures, one "key: value" line each,
 * every key on every testcase, in this order:
 *   verdict: passed | failed | skipped
 *   runs: <ok> ok of <rows> in runs.csv, <planned> planned
 *   sorts per process: <n> | <min> to <max>
 *   comparisons per sort: <n>
 *   writes per sort: <n>
 *   time per sort: <median> [<low>, <high>] us (median [95% CI])
 *   cpu time per sort: <median> [<low>, <high>] us (median [95% CI])
 *   energy per sort: <median> [<low>, <high>] uJ (median [95% CI])
 *   net power: <median> [<low>, <high>] W (median [95% CI])
 *   process time: median <t> ms, p95 <t> ms, min <t> ms, max <t> ms
 *   outliers: <n> low, <n> high
 * A value that is not available is the words "not measured" (nothing of it
 * was measured: no ok run, no estimate, or energy off or unavailable for the
 * energy lines) or "unavailable" (measured, but the records do not give the
 * figure). Figures have 4 significant digits; process time is the process's
 * wall time over the ok runs, outliers by Tukey's fences over it.
 * Pure and deterministic; numbers in the "C" locale. */
#ifndef GREENBENCH_REPORT_JUNIT_H
#define GREENBENCH_REPORT_JUNIT_H

#include "greenbench/analysis.h"
#include "greenbench/error.h"
#include "greenbench/meta.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The machine in classnames when the records carry no machine.label. */
#define GB_JUNIT_UNLABELLED "unlabelled"

/* Writes the XML for a into *out (malloc'd, NUL-terminated, *len without
 * the NUL). Errors: -ENOMEM. */
GB_MUST_USE int gb_report_junit(const gb_analysis *a, char **out, size_t *len, gb_err *err);

/* One case of the profile's selection, for a document written without records. */
typedef struct {
  gb_language language;
  gb_algorithm algorithm;
  gb_order order;
  uint64_t size; /* elements, >= 1 */
} gb_junit_case;

/* The JUnit document of a campaign that has no records to read: every case
 * of cases[0..n-1] failed with `reason` (type "campaign-not-run"), classnames as
 * gb_report_junit's with machine_label (NULL: "unlabelled") and profile
 * ("smoke", "study" or "custom"), time 0, every figure "not measured"; the
 * properties are language, algorithm, profile, machine_label and
 * campaign_completed (false). Suites in gb_report_junit's order, cases in the
 * order given. Used when the campaign cannot start and, written at its
 * start, for a campaign that is interrupted before its report replaces it.
 * Into *out (malloc'd, NUL-terminated, *len without the NUL). Errors:
 * -ENOMEM, -EINVAL for n == 0, a label that is not one (gb_meta_label_valid),
 * another profile, an empty reason, a case out of range or given twice. */
GB_MUST_USE int gb_report_junit_unrun(const char *machine_label, const char *profile,
                                      const gb_junit_case *cases, size_t n, const char *reason,
                                      char **out, size_t *len, gb_err *err);

#endif
