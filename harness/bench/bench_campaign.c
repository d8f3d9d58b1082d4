/* Campaign efficiency and memory (docs/performance.md, figures 3 and 5).
 * Runs one command (a `greenbench run` or `greenbench report`), timed with
 * CLOCK_MONOTONIC_RAW from fork to reap, while watching its VmHWM and VmRSS
 * in /proc every --poll-ms. With --records DIR, it then reads the records
 * the campaign wrote (with the stats stage's own strict reader) and splits
 * the total wall time into what the records account for:
 *
 *   measured    wall_ns of every row of runs.csv (sorting runs and startup
 *               batches) and of warmups.csv (sorting and startup warm-ups);
 *   idle        idle_ns of every row (the idle window after each run);
 *   harness     the rest: set-up before the first warm-up (pinning, the
 *               runtime probes, meta.json, environment.txt), the gaps
 *               between rows (a launch's set-up and check outside its clock,
 *               frequency readings, the row's write and fsync, progress) and
 *               the tear-down after the last row.
 *
 * Set-up, gaps and tear-down come from each row's started_unix_ns
 * (CLOCK_REALTIME, taken just before its launch) against this process's own
 * CLOCK_REALTIME at the start and the end.
 *
 * Calibration's share (figure 8, issue 19): calibration is the span from the
 * first warm-up's start to the first measured run's start (started_unix_ns
 * of the first rows of warmups.csv and runs.csv): every warm-up, the gaps
 * between them and meta.json's rewrite after them, not the set-up before
 * (pinning, runtime probes). Its share is that span over the total wall time
 * (the command's; for --records without a command, meta.json's started_at to
 * finished_at, to the second), printed as CALIBRATION_SHARE=.
 *
 *   bench_campaign [--records DIR] [--poll-ms N] [--label TEXT] [--quiet] -- /ABS/CMD [ARG...]
 *   bench_campaign --records DIR [--label TEXT]     (records already written)
 *
 * --quiet sends the command's stdout to /dev/null. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "greenbench/clock.h"
#include "greenbench/numparse.h"
#include "greenbench/quantile.h"
#include "greenbench/records_read.h"
#include "greenbench/timefmt.h"

typedef struct {
  const char *records, *label;
  uint64_t poll_ms;
  bool quiet; /* the command's stdout to /dev/null */
  char **argv;
} bench_opts;

typedef struct {
  uint64_t wall_ns, real_start, real_end;
  uint64_t hwm_kib, rss_max_kib, maxrss_kib; /* polled VmHWM, polled VmRSS, wait4 */
  unsigned polls;
  int status;
} run_result;

/* ---------------------------------------------------------- the command */

/* The kB value of a /proc/PID/status line that starts with name ("VmHWM:"). */
static bool kib_field(const char *line, const char *name, uint64_t *out) {
  size_t n = strlen(name);
  if (strncmp(line, name, n) != 0)
    return false;
  const char *p = line + n + strspn(line + n, " \t");
  return gb_scan_u64(&p, 10, UINT64_MAX, out) == 0;
}

static void poll_status(pid_t pid, run_result *r) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
  FILE *f = fopen(path, "r");
  if (!f)
    return;
  while (fgets(line, sizeof line, f)) {
    uint64_t kib;
    if (kib_field(line, "VmHWM:", &kib) && kib > r->hwm_kib)
      r->hwm_kib = kib;
    else if (kib_field(line, "VmRSS:", &kib) && kib > r->rss_max_kib)
      r->rss_max_kib = kib;
  }
  fclose(f);
  r->polls++;
}

static int run_command(const bench_opts *o, run_result *r) {
  r->real_start = gb_realtime_ns();
  uint64_t t0 = gb_monotonic_raw_ns();
  pid_t pid = fork();
  if (pid == 0) {
    int null = o->quiet ? open("/dev/null", O_WRONLY) : -1;
    if (null >= 0)
      dup2(null, 1);
    execv(o->argv[0], o->argv);
    _exit(127);
  }
  if (pid < 0)
    return -errno;
  int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
  for (;;) {
    poll_status(pid, r);
    struct pollfd p = {pidfd, POLLIN, 0};
    if (pidfd < 0 || poll(&p, 1, (int)o->poll_ms) != 0)
      break;
  }
  struct rusage ru;
  while (wait4(pid, &r->status, 0, &ru) < 0 && errno == EINTR)
    ;
  r->wall_ns = gb_monotonic_raw_ns() - t0;
  r->real_end = gb_realtime_ns();
  r->maxrss_kib = (uint64_t)ru.ru_maxrss;
  if (pidfd >= 0)
    close(pidfd);
  return 0;
}

/* ---------------------------------------------------------- the records */

typedef struct {
  uint64_t sort_wall, startup_wall, idle, warm_sort_wall, warm_startup_wall;
  size_t sort_rows, startup_rows, launches, warm_sort_rows, warm_startup_rows;
  uint64_t setup, teardown, gaps;
  double gap_median, gap_p95;
  uint64_t calibration; /* first warm-up's start to first run's start, ns */
  size_t configs, extended,
      extra;           /* sorting configurations; beyond --warmups: how many, rows */
  uint64_t extra_wall; /* wall_ns of the warm-ups beyond --warmups */
} accounting;

static uint64_t opt(gb_rec_opt_u64 v) {
  return v.present ? v.value : 0;
}

static void add_rows(const gb_rec_table *t, bool warmups, accounting *a) {
  for (size_t i = 0; i < t->n_rows; i++) {
    const gb_run_row *row = &t->rows[i];
    bool sort = row->kind == GB_REC_KIND_SORT;
    uint64_t w = opt(row->wall_ns);
    if (warmups && sort)
      a->warm_sort_wall += w, a->warm_sort_rows++;
    else if (warmups)
      a->warm_startup_wall += w, a->warm_startup_rows++;
    else if (sort)
      a->sort_wall += w, a->sort_rows++;
    else
      a->startup_wall += w, a->startup_rows++, a->launches += row->launches;
    a->idle += opt(row->idle_ns);
  }
}

/* Gaps between consecutive rows in execution order (warm-ups ran first):
 * from one row's end (start + wall + idle) to the next one's start. */
static int add_gaps(const gb_records *rec, const run_result *r, accounting *a) {
  size_t nw = rec->has_warmups ? rec->warmups.n_rows : 0, n = nw + rec->runs.n_rows;
  if (n == 0)
    return -ENODATA;
  double *gaps = calloc(n, sizeof *gaps);
  if (!gaps)
    return -ENOMEM;
  uint64_t prev_end = 0;
  for (size_t i = 0; i < n; i++) {
    const gb_run_row *row = i < nw ? &rec->warmups.rows[i] : &rec->runs.rows[i - nw];
    uint64_t start = row->started_unix_ns;
    if (i == 0)
      a->setup = start > r->real_start ? start - r->real_start : 0;
    else
      gaps[i - 1] = start > prev_end ? (double)(start - prev_end) : 0;
    if (i > 0)
      a->gaps += (uint64_t)gaps[i - 1];
    prev_end = start + opt(row->wall_ns) + opt(row->idle_ns);
  }
  a->teardown = r->real_end > prev_end ? r->real_end - prev_end : 0;
  if (n > 1) {
    a->gap_median = bench_median_f(gaps, n - 1);
    a->gap_p95 = gb_quantile_sorted(gaps, n - 1, 0.95); /* sorted by the median */
  }
  free(gaps);
  return 0;
}

/* Calibration's span and the warm-ups beyond settings.warmups. */
static void add_calibration(const gb_records *rec, accounting *a) {
  if (!rec->has_warmups || rec->warmups.n_rows == 0 || rec->runs.n_rows == 0)
    return;
  uint64_t first = rec->warmups.rows[0].started_unix_ns,
           end = rec->runs.rows[0].started_unix_ns;
  a->calibration = end > first ? end - first : 0;
  for (size_t g = 0; g < rec->warmups.n_groups; g++) {
    const gb_rec_group *grp = &rec->warmups.groups[g];
    if (grp->kind != GB_REC_KIND_SORT)
      continue;
    a->configs++;
    if (grp->n_rows > rec->meta.settings.warmups) {
      a->extended++;
      a->extra += grp->n_rows - (size_t)rec->meta.settings.warmups;
    }
    for (size_t i = (size_t)rec->meta.settings.warmups; i < grp->n_rows; i++)
      a->extra_wall += opt(grp->rows[i]->wall_ns);
  }
}

static void print_calibration(const bench_opts *o, double total, const accounting *a) {
  printf("calibration %s: %.3f s of %.3f s, %.2f%% (first warm-up to first measured run: %zu "
         "sorting warm-ups, %zu beyond --warmups in %zu of %zu configurations; %zu startup "
         "warm-ups)\n",
         o->label, (double)a->calibration / 1e9, total / 1e9,
         100.0 * (double)a->calibration / total, a->warm_sort_rows, a->extra, a->extended,
         a->configs, a->warm_startup_rows);
  printf("calibration %s: sorting warm-ups %.3f s, of which beyond --warmups %.3f s (%.2f%% of "
         "the total); startup warm-ups %.3f s\n",
         o->label, (double)a->warm_sort_wall / 1e9, (double)a->extra_wall / 1e9,
         100.0 * (double)a->extra_wall / total, (double)a->warm_startup_wall / 1e9);
  printf("CALIBRATION_SHARE=%.5f\n", (double)a->calibration / total);
}

static void part(const char *name, double ns, double total, const char *note) {
  printf("  %-34s %9.3f s  %6.2f%%  %s\n", name, ns / 1e9, 100.0 * ns / total, note);
}

static void print_accounting(const bench_opts *o, const run_result *r, const accounting *a) {
  double total = (double)r->wall_ns;
  uint64_t measured = a->sort_wall + a->startup_wall + a->warm_sort_wall + a->warm_startup_wall;
  uint64_t accounted = measured + a->idle;
  double rest = total - (double)accounted;
  size_t rows = a->sort_rows + a->startup_rows + a->warm_sort_rows + a->warm_startup_rows;
  printf("campaign %s: total %.3f s (CLOCK_MONOTONIC_RAW around the command)\n", o->label,
         total / 1e9);
  char n[7][48];
  snprintf(n[0], sizeof n[0], "%zu rows", a->sort_rows);
  snprintf(n[1], sizeof n[1], "%zu rows, %zu launches", a->startup_rows, a->launches);
  snprintf(n[2], sizeof n[2], "%zu windows", a->sort_rows + a->startup_rows);
  snprintf(n[3], sizeof n[3], "%zu rows", a->warm_sort_rows);
  snprintf(n[4], sizeof n[4], "%zu rows", a->warm_startup_rows);
  snprintf(n[5], sizeof n[5], "%zu gaps", rows - 1);
  part("sorting runs, wall_ns", (double)a->sort_wall, total, n[0]);
  part("startup batches, wall_ns", (double)a->startup_wall, total, n[1]);
  part("idle windows, idle_ns", (double)a->idle, total, n[2]);
  part("sorting warm-ups, wall_ns", (double)a->warm_sort_wall, total, n[3]);
  part("startup warm-ups, wall_ns", (double)a->warm_startup_wall, total, n[4]);
  part("harness (the rest)", rest, total, "");
  part("  set-up before the first row", (double)a->setup, total, "");
  part("  gaps between rows", (double)a->gaps, total, n[5]);
  part("  tear-down after the last row", (double)a->teardown, total, "");
  printf("  gap between rows: median %.3f ms, p95 %.3f ms\n", a->gap_median / 1e6,
         a->gap_p95 / 1e6);
  printf("CAMPAIGN_OVERHEAD=%.5f\n", rest / total);
  printf("%s: the harness's own share of the campaign is %.2f%% (goal: under 5%%)\n",
         rest / total < 0.05 ? "PASS" : "FAIL", 100.0 * rest / total);
  print_calibration(o, total, a);
}

/* Records without a command: the total is meta.json's started_at to
 * finished_at, in ns. */
static int written_total(const bench_opts *o, const gb_records *rec, double *total) {
  int64_t start = 0, end = 0;
  if (!rec->meta.has_finished_at || gb_utc_parse(rec->meta.started_at, &start) < 0 ||
      gb_utc_parse(rec->meta.finished_at, &end) < 0 || end <= start) {
    fprintf(stderr, "bench_campaign: %s: meta.json has no usable started_at and finished_at\n",
            o->records);
    return -EINVAL;
  }
  *total = (double)(end - start) * 1e9;
  return 0;
}

/* Reads the records and accounts for them: against the command's run r, or,
 * with no command (r NULL), calibration's share of meta.json's span. */
static int account_records(const bench_opts *o, const run_result *r) {
  gb_records *rec = NULL;
  gb_err err;
  int rc = gb_records_read(o->records, &rec, &err);
  if (rc < 0) {
    fprintf(stderr, "bench_campaign: %s\n", err.msg);
    return rc;
  }
  accounting a = {0};
  add_rows(&rec->runs, false, &a);
  if (rec->has_warmups)
    add_rows(&rec->warmups, true, &a);
  add_calibration(rec, &a);
  double total = 0;
  if (!r && (rc = written_total(o, rec, &total)) == 0)
    print_calibration(o, total, &a);
  else if (r && (rc = add_gaps(rec, r, &a)) == 0)
    print_accounting(o, r, &a);
  gb_records_free(rec);
  return rc;
}

static int parse_args(int argc, char **argv, bench_opts *o) {
  *o = (bench_opts){.poll_ms = 10, .label = ""};
  int i = 1;
  for (; i < argc && strcmp(argv[i], "--"); i++) {
    int rc = -EINVAL;
    if (!strcmp(argv[i], "--records") && i + 1 < argc)
      o->records = argv[++i], rc = 0;
    else if (!strcmp(argv[i], "--quiet"))
      o->quiet = true, rc = 0;
    else if (!strcmp(argv[i], "--label") && i + 1 < argc)
      o->label = argv[++i], rc = 0;
    else if (!strcmp(argv[i], "--poll-ms"))
      rc = bench_opt_u64(argc, argv, &i, 1, 10000, &o->poll_ms);
    if (rc < 0)
      return rc;
  }
  if (i >= argc && o->records)
    return 0; /* records already written: no command */
  if (i + 1 >= argc || argv[i + 1][0] != '/')
    return -EINVAL;
  o->argv = argv + i + 1;
  return 0;
}

int main(int argc, char **argv) {
  bench_opts o;
  if (parse_args(argc, argv, &o) < 0) {
    fprintf(stderr,
            "usage: bench_campaign [--records DIR] [--poll-ms N] [--label TEXT] [--quiet] -- "
            "/ABS/CMD [ARG...]\n       bench_campaign --records DIR [--label TEXT]\n");
    return 2;
  }
  if (!o.argv)
    return account_records(&o, NULL) < 0 ? 1 : 0;
  run_result r = {0};
  int rc = run_command(&o, &r);
  if (rc < 0) {
    fprintf(stderr, "bench_campaign: cannot start %s: %s\n", o.argv[0], strerror(-rc));
    return 1;
  }
  printf("memory %s: peak RSS %" PRIu64 " KiB (wait4 ru_maxrss: its own, or its largest "
         "child's if larger); VmHWM %" PRIu64 " KiB polled (%u polls in %.3f s)\n",
         o.label, r.maxrss_kib, r.hwm_kib, r.polls, (double)r.wall_ns / 1e9);
  printf("MEMORY_HWM_KIB=%" PRIu64 "\nMEMORY_MAXRSS_KIB=%" PRIu64 "\n", r.hwm_kib,
         r.maxrss_kib);
  if (!WIFEXITED(r.status) || WEXITSTATUS(r.status) != 0) {
    fprintf(stderr, "bench_campaign: %s failed (status 0x%x)\n", o.argv[0], r.status);
    return 1;
  }
  return o.records ? (account_records(&o, &r) < 0 ? 1 : 0) : 0;
}
