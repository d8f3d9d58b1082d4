/* Private to the stats writers: the XML escaping the JUnit writer does by
 * hand (ADR 0006), held to every character class by its tests, and shared
 * with compare.svg for the names it prints. */
#ifndef GREENBENCH_REPORT_JUNIT_INTERNAL_H
#define GREENBENCH_REPORT_JUNIT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "greenbench/error.h"
#include "textbuf.h"

/* s[0..n-1] escaped for XML 1.0 into *out (malloc'd, NUL-terminated):
 * & < > " ' as entities; in an attribute (attribute true) also TAB, LF and
 * CR as character references, so a multi-line message survives attribute
 * normalisation; other control characters, which XML 1.0 cannot hold even
 * as references, and bytes that are not valid UTF-8, as U+FFFD.
 * Errors: -ENOMEM. */
/* The same escaping appended to b. */
void gb_xml_put(gb_textbuf *b, const char *s, size_t n, bool attribute);

GB_MUST_USE int gb_xml_escape(const char *s, size_t n, bool attribute, char **out, size_t *len,
                              gb_err *err);

#endif
