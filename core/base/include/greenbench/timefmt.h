/* Time as text: UTC instants as ISO 8601 and as compact stamps for folder
 * names, the one parser of the records' times, and durations for a person.
 * The C library's UTC calendar (gmtime_r, timegm), printed digit by digit,
 * so the text is the same in every locale and time zone. Part of gb_base. */
#ifndef GREENBENCH_TIMEFMT_H
#define GREENBENCH_TIMEFMT_H

#include <stddef.h>
#include <stdint.h>

#include "greenbench/error.h"

/* "YYYY-MM-DDTHH:MM:SSZ" and its NUL. */
#define GB_UTC_ISO8601_SIZE 21
/* "YYYYMMDDTHHMMSSZ" and its NUL. */
#define GB_UTC_STAMP_SIZE 17
/* Room for any gb_duration_text, its NUL included. */
#define GB_DURATION_TEXT_SIZE 24

/* The instant `seconds` after 1970-01-01T00:00:00Z (negative before it) as
 * "2024-05-01T12:00:00Z", UTC, into buf[len]. Returns 0; -ERANGE for an
 * instant outside the years 0000 to 9999; -ENOSPC when len is below
 * GB_UTC_ISO8601_SIZE. buf holds "" after a failure (len >= 1). */
GB_MUST_USE int gb_utc_iso8601(int64_t seconds, char *buf, size_t len);

/* The same instant as "20240501T120000Z", for a new folder's name, which
 * can do without it: buf holds "" for an instant outside the years 0000 to
 * 9999. */
void gb_utc_stamp_or_empty(int64_t seconds, char buf[GB_UTC_STAMP_SIZE]);

/* Reads exactly "YYYY-MM-DDTHH:MM:SSZ" (what gb_utc_iso8601 writes: UTC,
 * four-digit year, a day the month has) into *seconds after the epoch,
 * negative before 1970. A second of 60 (a leap second) reads as the first
 * of the next minute. Returns 0, or -EINVAL for any other text (NULL
 * included); *seconds is untouched then. */
GB_MUST_USE int gb_utc_parse(const char *s, int64_t *seconds);

/* A duration for a person, in one whole unit, rounded down: "262 s" from
 * 10 s on, "25 ms" from 10 ms on, "100 us" below; UINT64_MAX (no bound) is
 * "never". Into buf[len], cut short when len is below
 * GB_DURATION_TEXT_SIZE. */
void gb_duration_text(uint64_t ns, char *buf, size_t len);

#endif
