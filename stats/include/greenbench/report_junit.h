/* JUnit XML for CI dashboards, valid against the Jenkins xUnit plugin's
 * junit-10.xsd (ADR 0006). One testsuite per language and algorithm, named
 * study.<language>.<algorithm>, with the campaign's settings as its
 * properties; one testcase per configuration of the settings, classname
 * study.<language>.<algorithm>, name <order>.<size>, time its median process
 * time in seconds, its figures in system-out. A configuration whose records
 * are invalid (gb_validate_case) carries a failure with the reason; one
 * without any row in runs.csv (it never ran) is skipped. Pure and
 * deterministic; numbers in the "C" locale. */
#ifndef GREENBENCH_REPORT_JUNIT_H
#define GREENBENCH_REPORT_JUNIT_H

#include "greenbench/analysis.h"
#include "greenbench/error.h"

#include <stdbool.h>
#include <stddef.h>

/* Writes the XML for a into *out (malloc'd, NUL-terminated, *len without
 * the NUL). Errors: -ENOMEM. */
int gb_report_junit(const gb_analysis *a, char **out, size_t *len, gb_err *err);

/* s[0..n-1] escaped for XML 1.0 into *out (malloc'd, NUL-terminated):
 * & < > " ' as entities; in an attribute (attribute true) also TAB, LF and
 * CR as character references, so a multi-line message survives attribute
 * normalisation; other control characters, which XML 1.0 cannot hold even
 * as references, and bytes that are not valid UTF-8, as U+FFFD.
 * Errors: -ENOMEM. */
int gb_xml_escape(const char *s, size_t n, bool attribute, char **out, size_t *len,
                  gb_err *err);

#endif
