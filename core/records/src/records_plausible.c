/* See records_internal.h; docs/records.md justifies each bound. */
#include "records_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <time.h>

#include "greenbench/timefmt.h"

#define NS_PER_S INT64_C(1000000000)

int gbi_plausible_meta(const gb_meta *m, const char *path, gbi_plausible *p, gb_err *err) {
  int64_t started = 0, finished = INT64_MAX;
  *p = (gbi_plausible){.now_s = (int64_t)time(NULL)};
  int64_t latest = p->now_s + GB_PLAUSIBLE_AHEAD_S;
  if (gb_utc_parse(m->started_at, &started) < 0 || started < GB_PLAUSIBLE_EPOCH_S ||
      started > latest)
    return gb_err_set(err, EINVAL,
                      "%s: started_at: '%.31s' is not a time from 2020-01-01 to a day from "
                      "now",
                      path, m->started_at);
  if (m->has_finished_at &&
      (gb_utc_parse(m->finished_at, &finished) < 0 || finished > latest || finished < started))
    return gb_err_set(err, EINVAL,
                      "%s: finished_at: '%.31s' is not a time from started_at '%.31s' to a "
                      "day from now",
                      path, m->finished_at, m->started_at);
  p->started_s = started;
  p->finished_s = finished;
  return 0;
}

static int check_temp(const char *col, gb_rec_opt_i64 v, gb_err *err) {
  if (!v.present ||
      (v.value >= GB_PLAUSIBLE_TEMP_MIN_MC && v.value <= GB_PLAUSIBLE_TEMP_MAX_MC))
    return 0;
  return gb_err_set(err, EINVAL,
                    "%s: %" PRId64 " m°C, outside -50..150 °C, where no working processor "
                    "runs",
                    col, v.value);
}

static int check_freq(const char *col, gb_rec_opt_u64 v, gb_err *err) {
  if (!v.present || v.value <= GB_PLAUSIBLE_FREQ_MAX_KHZ)
    return 0;
  return gb_err_set(err, EINVAL,
                    "%s: %" PRIu64 " kHz, above 10 GHz, which no processor runs at", col,
                    v.value);
}

static int check_rss(const gb_run_row *row, gb_err *err) {
  gb_rec_opt_u64 v = row->max_rss_kib;
  uint64_t min = row->status == GB_REC_STATUS_OK ? GB_PLAUSIBLE_RSS_MIN_KIB : 0;
  if (!v.present || (v.value >= min && v.value <= GB_PLAUSIBLE_RSS_MAX_KIB))
    return 0;
  return gb_err_set(err, EINVAL,
                    "max_rss_kib: %" PRIu64 " KiB, outside %s..1 TiB (a process that ran a "
                    "runtime holds at least 1 MiB)",
                    v.value, min ? "1 MiB" : "0");
}

static int check_started(gbi_plausible *p, gb_rec_file which, const gb_run_row *row,
                         gb_err *err) {
  uint64_t ns = row->started_unix_ns;
  int64_t s = (int64_t)(ns / NS_PER_S);
  uint64_t *last = &p->last_ns[which == GB_REC_FILE_WARMUPS];
  if (ns / NS_PER_S > (uint64_t)INT64_MAX || s < p->started_s ||
      (p->finished_s != INT64_MAX && s > p->finished_s))
    return gb_err_set(err, EINVAL,
                      "started_unix_ns: %" PRIu64 ", outside the campaign (meta.json "
                      "started_at to finished_at, or to now while it runs)",
                      ns);
  if (s > p->now_s + GB_PLAUSIBLE_AHEAD_S)
    return gb_err_set(err, EINVAL, "started_unix_ns: %" PRIu64 ", more than a day from now",
                      ns);
  if (ns < *last)
    return gb_err_set(err, EINVAL,
                      "started_unix_ns: %" PRIu64 ", before the previous row's %" PRIu64
                      ": runs are written in the order they start",
                      ns, *last);
  *last = ns;
  return 0;
}

int gbi_plausible_row(gbi_plausible *p, gb_rec_file which, const gb_run_row *row, gb_err *err) {
  int rc;
  if ((rc = check_temp("temp_start_mc", row->temp_start_mc, err)) < 0 ||
      (rc = check_temp("temp_end_mc", row->temp_end_mc, err)) < 0 ||
      (rc = check_freq("freq_start_khz", row->freq_start_khz, err)) < 0 ||
      (rc = check_freq("freq_end_khz", row->freq_end_khz, err)) < 0 ||
      (rc = check_rss(row, err)) < 0)
    return rc;
  return check_started(p, which, row, err);
}
