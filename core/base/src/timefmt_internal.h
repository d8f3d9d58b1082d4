/* Private to timefmt.c and its tests: the compact stamp with its errors,
 * which gb_utc_stamp_or_empty (greenbench/timefmt.h) gives a folder's name
 * without them. */
#ifndef GREENBENCH_TIMEFMT_INTERNAL_H
#define GREENBENCH_TIMEFMT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "greenbench/error.h"
#include "greenbench/timefmt.h"

/* The instant as "20240501T120000Z"; errors as gb_utc_iso8601, with
 * GB_UTC_STAMP_SIZE. */
GB_MUST_USE int gb_utc_stamp(int64_t seconds, char *buf, size_t len);

#endif
