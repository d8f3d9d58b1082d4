/* The plausibility rules of the records (docs/records.md, "Plausibility"):
 * bounds no real machine or campaign goes past, kept generous, so that an
 * impossible record is refused rather than published: temperatures from
 * -50 to 150 C, frequencies up to 10 GHz, an ok run's max RSS from 1 MiB to
 * 1 TiB, start times from 2020 to a day from now, never decreasing in a
 * file's order and inside the campaign's start and finish, finished_at not
 * before started_at, and settings.timeout_s from 1 to 86400. Internal to
 * the records reader (records_rules.c). */
#ifndef GREENBENCH_RECORDS_PLAUSIBLE_H
#define GREENBENCH_RECORDS_PLAUSIBLE_H

#include <stdint.h>

#include "greenbench/error.h"
#include "greenbench/meta.h"
#include "greenbench/records.h"
#include "greenbench/records_read.h"

/* The bounds, shared with the tests. */
#define GB_PLAUSIBLE_TEMP_MIN_MC (-50000)
#define GB_PLAUSIBLE_TEMP_MAX_MC 150000
#define GB_PLAUSIBLE_FREQ_MAX_KHZ UINT64_C(10000000)
#define GB_PLAUSIBLE_RSS_MIN_KIB UINT64_C(1024)
#define GB_PLAUSIBLE_RSS_MAX_KIB (UINT64_C(1) << 30)
#define GB_PLAUSIBLE_EPOCH_S INT64_C(1577836800) /* 2020-01-01T00:00:00Z */
#define GB_PLAUSIBLE_AHEAD_S INT64_C(86400)
#define GB_PLAUSIBLE_TIMEOUT_MAX_S ((uint64_t)GB_MAX_TIMEOUT_S)

/* The campaign's times, from meta.json, for the rows' checks. */
typedef struct {
  int64_t started_s, finished_s; /* finished_s: INT64_MAX while it runs */
  int64_t now_s;
  uint64_t last_ns[2]; /* by gb_rec_file: the latest start seen in each file */
} gb_plausible;

/* meta.json's own rules into *p: started_at and finished_at within the
 * years and in order, timeout_s within its bounds. Messages name path and
 * the key. 0 or -EINVAL. */
GB_MUST_USE int gb_plausible_meta(const gb_meta *m, const char *path, gb_plausible *p,
                                  gb_err *err);

/* One row's rules (every row, ok or not): its temperatures, frequencies,
 * max RSS (the lower bound for ok rows) and start time. Messages name the
 * column and the rule; the reader adds file and line. 0 or -EINVAL. */
GB_MUST_USE int gb_plausible_row(gb_plausible *p, gb_rec_file which, const gb_run_row *row,
                                 gb_err *err);

#endif
