/* The records module: the writer against golden bytes, the strict reader
 * against every kind of bad file, meta.json both ways, a study-sized file
 * and a comma locale. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "greenbench/records_read.h"
#include "greenbench/workload.h"
#include "helper_locale.h"
#include "records_internal.h"

#define DATA GB_TEST_DATA_DIR

/* ---- Helpers ------------------------------------------------------------ */

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  cr_assert(f, "cannot open %s", path);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  cr_assert(buf);
  cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
  buf[n] = '\0';
  fclose(f);
  if (len)
    *len = (size_t)n;
  return buf;
}

static void spit(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  cr_assert(f, "cannot write %s", path);
  fputs(text, f);
  fclose(f);
}

static gb_meta good_meta(void) {
  size_t len;
  char *json = slurp(DATA "/records-good/meta.json", &len);
  gb_meta m;
  gb_err err = {""};
  int rc = gb_meta_parse(json, len, "meta.json", &m, &err);
  cr_assert_eq(rc, 0, "good meta.json refused: %s", err.msg);
  free(json);
  return m;
}

static char *good_runs(void) {
  return slurp(DATA "/records-good/runs.csv", NULL);
}

/* Start of line `line` (1-based) in text, and its length without "\n". */
static const char *line_span(const char *text, size_t line, size_t *len) {
  const char *p = text;
  for (size_t i = 1; i < line; i++) {
    p = strchr(p, '\n');
    cr_assert(p, "no line %zu", line);
    p++;
  }
  const char *nl = strchr(p, '\n');
  *len = nl ? (size_t)(nl - p) : strlen(p);
  return p;
}

/* text with line `line` replaced by repl (no newline), or removed when repl
 * is NULL. */
static char *edit_line(const char *text, size_t line, const char *repl) {
  size_t len;
  const char *p = line_span(text, line, &len);
  const char *rest = p[len] == '\n' ? p + len + 1 : p + len;
  size_t head = (size_t)(p - text);
  char *out = malloc(strlen(text) + (repl ? strlen(repl) : 0) + 2);
  memcpy(out, text, head);
  out[head] = '\0';
  if (repl) {
    strcat(out, repl);
    strcat(out, "\n");
  }
  strcat(out, rest);
  return out;
}

/* text with field col of line `line` replaced by value. The fields before
 * `message` hold no commas, so counting commas finds the field. */
static char *edit_field(const char *text, size_t line, gb_rec_col col, const char *value) {
  size_t len;
  const char *p = line_span(text, line, &len);
  const char *start = p;
  for (int c = 0; c < (int)col; c++) {
    start = memchr(start, ',', len - (size_t)(start - p));
    cr_assert(start);
    start++;
  }
  const char *stop = memchr(start, ',', len - (size_t)(start - p));
  if (!stop || col == GB_REC_COL_MESSAGE)
    stop = p + len;
  char repl[4096];
  snprintf(repl, sizeof repl, "%.*s%s%.*s", (int)(start - p), p, value, (int)(p + len - stop),
           stop);
  return edit_line(text, line, repl);
}

static void expect_error(const char *csv, gb_rec_file which, const gb_meta *meta,
                         const char *message) {
  gb_rec_table t = {0};
  gb_err err = {""};
  const char *name = which == GB_REC_FILE_RUNS ? "runs.csv" : "warmups.csv";
  int rc = gb_records_parse_csv(csv, strlen(csv), name, which, meta, &t, &err);
  cr_assert_eq(rc, -EINVAL, "expected an error, got %d (%s)", rc, err.msg);
  cr_assert_str_eq(err.msg, message);
  cr_assert_null(t.rows, "the table was set on failure");
}

/* Parses csv as runs.csv against the good meta and expects message. */
static void expect_runs_error(const char *csv, const char *message) {
  gb_meta m = good_meta();
  expect_error(csv, GB_REC_FILE_RUNS, &m, message);
  gb_meta_free(&m);
}

static void expect_field_error(size_t line, gb_rec_col col, const char *value,
                               const char *message) {
  char *good = good_runs();
  char *bad = edit_field(good, line, col, value);
  expect_runs_error(bad, message);
  free(bad);
  free(good);
}

/* ---- The writer ----------------------------------------------------------- */

#define U(v) ((gb_rec_opt_u64){true, (v)})
#define I(v) ((gb_rec_opt_i64){true, (v)})

/* The three rows of records-golden/runs.csv. */
static gb_run_row golden_row(int i) {
  gb_run_row r = {.seed = 2463534242u, .launches = 1};
  if (i == 0) {
    r.kind = GB_REC_KIND_SORT, r.language = GB_C, r.algorithm = GB_QUICK;
    r.order = GB_RANDOM, r.size = 4000, r.sorts = 1200, r.status = GB_REC_STATUS_OK;
    r.wall_ns = U(250123456), r.user_ns = U(249000000), r.sys_ns = U(1000000);
    r.max_rss_kib = U(1800), r.loop_ns = U(240000000), r.comparisons = U(55119);
    r.writes = U(56984);
    strcpy(r.input_hash, "9f662f292f0c2286");
    r.energy = GB_REC_ENERGY_OK, r.pkg_uj = U(4100000), r.dram_uj = U(330000);
    r.idle_ns = U(250200000), r.idle_pkg_uj = U(1300000), r.idle_dram_uj = U(160000);
    r.freq_start_khz = U(4300000), r.freq_end_khz = U(4250000);
    r.temp_start_mc = I(45000), r.temp_end_mc = I(47000);
    r.started_unix_ns = 1796281200000000000u;
  } else if (i == 1) {
    r.run = 1, r.kind = GB_REC_KIND_STARTUP, r.language = GB_PYTHON;
    r.algorithm = GB_QUICK, r.order = GB_SORTED, r.size = 250, r.sorts = 0;
    r.launches = 12, r.status = GB_REC_STATUS_OK, r.wall_ns = U(263000000);
    r.user_ns = U(250000000), r.sys_ns = U(12000000), r.max_rss_kib = U(9800);
    strcpy(r.input_hash, "4ad7c2d1e1c0b4f3");
    r.energy = GB_REC_ENERGY_OFF, r.idle_ns = U(263001000);
    r.temp_start_mc = I(-2500), r.temp_end_mc = I(-2000);
    r.started_unix_ns = 1796281200500000000u;
  } else {
    r.run = 2, r.kind = GB_REC_KIND_SORT, r.language = GB_NODE;
    r.algorithm = GB_BUBBLE, r.order = GB_REVERSED, r.size = 500, r.seed = 7;
    r.sorts = 40, r.status = GB_REC_STATUS_EXIT_NONZERO, r.wall_ns = U(51000000);
    r.user_ns = U(40000000), r.sys_ns = U(9000000), r.max_rss_kib = U(45000);
    r.energy = GB_REC_ENERGY_UNAVAILABLE, r.freq_start_khz = U(4300000);
    r.freq_end_khz = U(4300000), r.started_unix_ns = 1796281201000000000u;
    strcpy(r.message, "worker said \"bad, very bad\"\nsee stderr\r");
  }
  return r;
}

/* Header and golden rows, formatted, into out (at least 8 KiB). */
static void format_golden(char *out, size_t cap) {
  int n = gb_records_header(out, cap);
  cr_assert_gt(n, 0);
  size_t used = (size_t)n;
  for (int i = 0; i < 3; i++) {
    gb_run_row r = golden_row(i);
    n = gb_records_format_row(&r, out + used, cap - used);
    cr_assert_gt(n, 0, "row %d: %d", i, n);
    used += (size_t)n;
  }
}

Test(records_writer, golden_bytes) {
  char out[8192];
  format_golden(out, sizeof out);
  char *want = slurp(DATA "/records-golden/runs.csv", NULL);
  cr_assert_str_eq(out, want);
  free(want);
}

Test(records_writer, row_is_one_line_and_checks_itself) {
  for (int i = 0; i < 3; i++) {
    gb_run_row r = golden_row(i);
    char line[GB_REC_LINE_MAX];
    int n = gb_records_format_row(&r, line, sizeof line);
    cr_assert_gt(n, 0);
    cr_assert_eq(strchr(line, '\n'), line + n - 1, "row %d is not one line", i);
    gb_err err = {""};
    cr_assert_eq(gb_run_row_check(&r, &err), 0, "row %d: %s", i, err.msg);
  }
}

Test(records_writer, no_space) {
  gb_run_row r = golden_row(2);
  char line[GB_REC_LINE_MAX];
  int n = gb_records_format_row(&r, line, sizeof line);
  cr_assert_gt(n, 0);
  cr_assert_eq(gb_records_format_row(&r, line, (size_t)n), -ENOSPC);
  cr_assert_str_eq(line, "");
  cr_assert_eq(gb_records_format_row(&r, line, (size_t)n + 1), n);
  cr_assert_eq(gb_records_header(line, 10), -ENOSPC);
}

Test(records_writer, longest_row_fits_line_max) {
  gb_run_row r = golden_row(0);
  memset(r.message, '"', sizeof r.message - 1);
  r.message[sizeof r.message - 1] = '\0';
  gb_rec_opt_u64 *u[] = {&r.wall_ns,        &r.user_ns,     &r.sys_ns,      &r.max_rss_kib,
                         &r.loop_ns,        &r.comparisons, &r.writes,      &r.pkg_uj,
                         &r.dram_uj,        &r.idle_ns,     &r.idle_pkg_uj, &r.idle_dram_uj,
                         &r.freq_start_khz, &r.freq_end_khz};
  for (size_t i = 0; i < sizeof u / sizeof *u; i++)
    *u[i] = U(UINT64_MAX);
  r.run = r.size = r.sorts = r.started_unix_ns = UINT64_MAX;
  r.temp_start_mc = r.temp_end_mc = I(INT64_MIN);
  char line[GB_REC_LINE_MAX];
  cr_assert_gt(gb_records_format_row(&r, line, sizeof line), 0);
}

Test(records_writer, refuses_unwritable_values) {
  char line[GB_REC_LINE_MAX];
  gb_run_row r = golden_row(0);
  r.status = GB_REC_STATUS_COUNT;
  cr_assert_eq(gb_records_format_row(&r, line, sizeof line), -EINVAL);
  r = golden_row(0);
  strcpy(r.input_hash, "9F662F292F0C2286");
  cr_assert_eq(gb_records_format_row(&r, line, sizeof line), -EINVAL);
}

Test(records_writer, schema_table) {
  cr_assert_str_eq(gb_records_column(GB_REC_COL_RUN)->name, "run");
  cr_assert_str_eq(gb_records_column(GB_REC_COL_MESSAGE)->name, "message");
  cr_assert_eq(gb_records_column(GB_REC_COL_TEMP_END_MC)->type, GB_REC_TYPE_INT);
  cr_assert_eq(gb_records_column(GB_REC_COL_WALL_NS)->type, GB_REC_TYPE_NS);
  cr_assert(gb_records_column(GB_REC_COL_PKG_UJ)->optional);
  cr_assert(!gb_records_column(GB_REC_COL_STATUS)->optional);
  cr_assert_null(gb_records_column(GB_REC_COL_COUNT));
}

Test(records_writer, row_check_rules) {
  gb_err err = {""};
  gb_run_row r = golden_row(0);
  r.wall_ns.present = false;
  cr_assert_eq(gb_run_row_check(&r, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "wall_ns: empty, but an ok run must have it");
  r = golden_row(1);
  r.sorts = 3;
  cr_assert_eq(gb_run_row_check(&r, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "sorts: 3, but a startup row has 0");
  r = golden_row(0);
  r.launches = 2;
  cr_assert_eq(gb_run_row_check(&r, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "launches: 2, but a sort row has 1");
  r = golden_row(0);
  r.seed = 0;
  cr_assert_eq(gb_run_row_check(&r, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "seed: 0 is out of range 1..4294967295");
}

/* ---- Round trips ------------------------------------------------------------ */

static void assert_rows_eq(const gb_run_row *a, const gb_run_row *b) {
  char la[GB_REC_LINE_MAX], lb[GB_REC_LINE_MAX];
  cr_assert_gt(gb_records_format_row(a, la, sizeof la), 0);
  cr_assert_gt(gb_records_format_row(b, lb, sizeof lb), 0);
  cr_assert_str_eq(la, lb);
}

Test(records_reader, golden_round_trip) {
  size_t len;
  char *text = slurp(DATA "/records-golden/runs.csv", &len);
  gb_rec_table t;
  gb_err err = {""};
  cr_assert_eq(gb_records_parse_csv(text, len, "runs.csv", GB_REC_FILE_RUNS, NULL, &t, &err), 0,
               "%s", err.msg);
  cr_assert_eq(t.n_rows, 3);
  for (int i = 0; i < 3; i++) {
    gb_run_row want = golden_row(i);
    assert_rows_eq(&t.rows[i], &want);
    cr_assert_eq(t.rows[i].line, (size_t)i + 2);
  }
  cr_assert_str_eq(t.rows[2].message, "worker said \"bad, very bad\" see stderr ");
  cr_assert(!t.rows[1].pkg_uj.present);
  cr_assert(!t.rows[1].freq_start_khz.present);
  cr_assert_eq(t.rows[1].temp_start_mc.value, -2500);
  cr_assert_str_eq(t.rows[2].input_hash, "");
  gb_rec_table_free(&t);
  free(text);
}

Test(records_reader, good_folder) {
  gb_records *r;
  gb_err err = {""};
  cr_assert_eq(gb_records_read(DATA "/records-good", &r, &err), 0, "%s", err.msg);
  cr_assert_eq(r->runs.n_rows, 12);
  cr_assert(r->has_warmups);
  cr_assert_eq(r->warmups.n_rows, 3);
  cr_assert_eq(r->runs.n_groups, 4);

  const gb_rec_group *g = gb_rec_table_find_sort(&r->runs, GB_C, GB_QUICK, GB_RANDOM, 250);
  cr_assert_not_null(g);
  cr_assert_eq(g->n_rows, 3);
  cr_assert_eq(g->rows[0]->run, 0);
  cr_assert_eq(g->rows[1]->run, 4);
  cr_assert_eq(g->rows[2]->run, 9);
  g = gb_rec_table_find_startup(&r->runs, GB_PYTHON, GB_RANDOM, 250);
  cr_assert_not_null(g);
  cr_assert_eq(g->kind, GB_REC_KIND_STARTUP);
  cr_assert_eq(g->n_rows, 3);
  cr_assert_eq(g->rows[0]->run, 1);
  cr_assert_eq(g->rows[1]->run, 7);
  cr_assert_eq(g->rows[2]->run, 10);
  cr_assert_eq(g->rows[0]->launches, 12);
  cr_assert_null(gb_rec_table_find_sort(&r->runs, GB_NODE, GB_QUICK, GB_RANDOM, 250));
  cr_assert_null(gb_rec_table_find_startup(&r->runs, GB_C, GB_SORTED, 250));

  const gb_run_row *timeout = &r->runs.rows[8];
  cr_assert_eq(timeout->status, GB_REC_STATUS_TIMEOUT);
  cr_assert_str_eq(timeout->message, "worker ran past timeout_s 60, killed (SIGKILL)");
  cr_assert(!timeout->user_ns.present);
  cr_assert_eq(r->runs.rows[3].temp_start_mc.value, -1500);
  cr_assert(!r->runs.rows[3].temp_end_mc.present);

  g = gb_rec_table_find_sort(&r->warmups, GB_C, GB_QUICK, GB_RANDOM, 250);
  cr_assert_not_null(g);
  cr_assert_eq(g->n_rows, 2);
  cr_assert_eq(g->rows[1]->sorts, 9000);
  gb_records_free(r);
}

Test(records_reader, good_folder_rows_format_back_to_the_same_bytes) {
  gb_records *r;
  gb_err err = {""};
  cr_assert_eq(gb_records_read(DATA "/records-good", &r, &err), 0, "%s", err.msg);
  char *text = good_runs();
  char out[64 * 1024];
  int used = gb_records_header(out, sizeof out);
  for (size_t i = 0; i < r->runs.n_rows; i++)
    used += gb_records_format_row(&r->runs.rows[i], out + used, sizeof out - (size_t)used);
  cr_assert_str_eq(out, text);
  free(text);
  gb_records_free(r);
}

Test(records_reader, crlf_line_endings) {
  char *text = good_runs();
  char *crlf = malloc(2 * strlen(text) + 1), *q = crlf;
  for (const char *p = text; *p; p++) {
    if (*p == '\n')
      *q++ = '\r';
    *q++ = *p;
  }
  *q = '\0';
  gb_meta m = good_meta();
  gb_rec_table t;
  gb_err err = {""};
  cr_assert_eq(
      gb_records_parse_csv(crlf, strlen(crlf), "runs.csv", GB_REC_FILE_RUNS, &m, &t, &err), 0,
      "%s", err.msg);
  cr_assert_eq(t.n_rows, 12);
  gb_rec_table_free(&t);
  gb_meta_free(&m);
  free(crlf);
  free(text);
}

Test(records_reader, quoted_fields) {
  char *text = good_runs();
  char *bad = edit_field(text, 2, GB_REC_COL_LANGUAGE, "\"c\"");
  gb_rec_table t;
  gb_err err = {""};
  cr_assert_eq(
      gb_records_parse_csv(bad, strlen(bad), "runs.csv", GB_REC_FILE_RUNS, NULL, &t, &err), 0,
      "%s", err.msg);
  cr_assert_eq(t.rows[0].language, GB_C);
  gb_rec_table_free(&t);
  free(bad);
  bad = edit_field(text, 2, GB_REC_COL_MESSAGE, "\"a \"\"quoted\"\", word\"");
  cr_assert_eq(
      gb_records_parse_csv(bad, strlen(bad), "runs.csv", GB_REC_FILE_RUNS, NULL, &t, &err), 0,
      "%s", err.msg);
  cr_assert_str_eq(t.rows[0].message, "a \"quoted\", word");
  gb_rec_table_free(&t);
  free(bad);
  free(text);
}

/* ---- Bad runs.csv ----------------------------------------------------------- */

Test(records_reader, header_missing_column) {
  char *text = good_runs();
  char *bad = edit_line(
      text, 1,
      "run,kind,language,algorithm,order,size,seed,sorts,launches,status,user_ns,sys_ns,"
      "max_rss_kib,loop_ns,comparisons,writes,input_hash,energy,pkg_uj,dram_uj,idle_ns,"
      "idle_pkg_uj,idle_dram_uj,freq_start_khz,freq_end_khz,temp_start_mc,temp_end_mc,"
      "started_unix_ns,message");
  expect_runs_error(bad, "runs.csv:1: missing column 'wall_ns' in the header");
  free(bad);
  free(text);
}

Test(records_reader, header_unknown_column) {
  char *text = good_runs();
  char *bad = edit_field(text, 1, GB_REC_COL_WALL_NS, "wall_ms");
  expect_runs_error(bad, "runs.csv:1: unknown column 'wall_ms' in the header");
  free(bad);
  bad = edit_field(text, 1, GB_REC_COL_MESSAGE, "message,note");
  expect_runs_error(bad, "runs.csv:1: unknown column 'note' in the header");
  free(bad);
  free(text);
}

Test(records_reader, header_repeated_or_reordered_column) {
  char *text = good_runs();
  char *bad = edit_field(text, 1, GB_REC_COL_MESSAGE, "message,run");
  expect_runs_error(bad, "runs.csv:1: column 'run' appears twice in the header");
  free(bad);
  char *a = edit_field(text, 1, GB_REC_COL_USER_NS, "sys_ns");
  bad = edit_field(a, 1, GB_REC_COL_SYS_NS, "user_ns");
  expect_runs_error(bad, "runs.csv:1: column 12 is 'sys_ns', expected 'user_ns'");
  free(bad);
  free(a);
  free(text);
}

Test(records_reader, truncated_last_line_without_newline) {
  char *text = good_runs();
  text[strlen(text) - 1] = '\0';
  expect_runs_error(text, "runs.csv:13: truncated last line (no newline at the end)");
  free(text);
}

Test(records_reader, truncated_last_line_with_fewer_fields) {
  char *text = good_runs();
  char *bad =
      edit_line(text, 13, "11,startup,c,quick,random,250,2463534242,0,400,ok,274222221,27");
  expect_runs_error(bad, "runs.csv:13: truncated line: 12 of 30 fields");
  free(bad);
  free(text);
}

Test(records_reader, too_many_fields) {
  expect_field_error(5, GB_REC_COL_MESSAGE, ",extra", "runs.csv:5: 31 fields, expected 30");
}

Test(records_reader, text_in_a_number) {
  expect_field_error(5, GB_REC_COL_WALL_NS, "12a",
                     "runs.csv:5: wall_ns: '12a' is not an integer");
  expect_field_error(5, GB_REC_COL_PKG_UJ, " 12",
                     "runs.csv:5: pkg_uj: ' 12' is not an integer");
  expect_field_error(5, GB_REC_COL_SIZE, "2.5e2",
                     "runs.csv:5: size: '2.5e2' is not an integer");
  expect_field_error(5, GB_REC_COL_LOOP_NS, "+5",
                     "runs.csv:5: loop_ns: '+5' is not an integer");
}

Test(records_reader, negative_duration) {
  expect_field_error(5, GB_REC_COL_WALL_NS, "-5",
                     "runs.csv:5: wall_ns: negative duration '-5'");
  expect_field_error(6, GB_REC_COL_IDLE_NS, "-1",
                     "runs.csv:6: idle_ns: negative duration '-1'");
  expect_field_error(6, GB_REC_COL_PKG_UJ, "-1", "runs.csv:6: pkg_uj: negative value '-1'");
}

Test(records_reader, number_out_of_range) {
  expect_field_error(5, GB_REC_COL_WRITES, "18446744073709551616",
                     "runs.csv:5: writes: '18446744073709551616' is too large");
  expect_field_error(5, GB_REC_COL_TEMP_END_MC, "-9223372036854775809",
                     "runs.csv:5: temp_end_mc: '-9223372036854775809' is too large");
  expect_field_error(5, GB_REC_COL_SEED, "4294967296",
                     "runs.csv:5: seed: 4294967296 is out of range 1..4294967295");
}

Test(records_reader, empty_required_field) {
  expect_field_error(5, GB_REC_COL_SIZE, "", "runs.csv:5: size: empty, but required");
  expect_field_error(5, GB_REC_COL_STARTED_UNIX_NS, "",
                     "runs.csv:5: started_unix_ns: empty, but required");
}

Test(records_reader, ok_run_missing_a_measurement) {
  expect_field_error(5, GB_REC_COL_WALL_NS, "",
                     "runs.csv:5: wall_ns: empty, but an ok run must have it");
  expect_field_error(6, GB_REC_COL_COMPARISONS, "",
                     "runs.csv:6: comparisons: empty, but an ok sort run must have it");
  expect_field_error(
      6, GB_REC_COL_IDLE_PKG_UJ, "",
      "runs.csv:6: idle_pkg_uj: empty, but an ok run with energy ok must have it");
}

Test(records_reader, unknown_names) {
  expect_field_error(5, GB_REC_COL_LANGUAGE, "java",
                     "runs.csv:5: language: unknown value 'java' (expected c, python, node)");
  expect_field_error(
      5, GB_REC_COL_ALGORITHM, "merge",
      "runs.csv:5: algorithm: unknown value 'merge' (expected bubble, insertion, "
      "quick)");
  expect_field_error(5, GB_REC_COL_ORDER, "Random",
                     "runs.csv:5: order: unknown value 'Random' (expected random, sorted, "
                     "reversed, nearly)");
  expect_field_error(5, GB_REC_COL_KIND, "warmup",
                     "runs.csv:5: kind: unknown value 'warmup' (expected sort, startup)");
  expect_field_error(
      5, GB_REC_COL_STATUS, "killed",
      "runs.csv:5: status: unknown value 'killed' (expected ok, timeout, crashed, "
      "exit_nonzero, bad_output, parity_mismatch, energy_stalled, energy_jump, "
      "energy_vanished, spawn_failed)");
  expect_field_error(
      5, GB_REC_COL_ENERGY, "zero",
      "runs.csv:5: energy: unknown value 'zero' (expected ok, off, unavailable)");
  expect_field_error(
      5, GB_REC_COL_INPUT_HASH, "4AD7C2D1E1C0B4F3",
      "runs.csv:5: input_hash: '4AD7C2D1E1C0B4F3' is not 16 lowercase hex digits");
}

Test(records_reader, configuration_not_in_settings) {
  expect_field_error(7, GB_REC_COL_ALGORITHM, "bubble",
                     "unknown configuration python/bubble/random/250 at runs.csv:7: not in "
                     "meta.json settings");
  expect_field_error(5, GB_REC_COL_LANGUAGE, "node",
                     "unknown startup trial node/random/250 at runs.csv:5: not in meta.json "
                     "settings");
  expect_field_error(2, GB_REC_COL_SIZE, "500",
                     "unknown configuration c/quick/random/500 at runs.csv:2: not in meta.json "
                     "settings");
}

Test(records_reader, configuration_unchecked_without_meta) {
  char *text = good_runs();
  char *bad = edit_field(text, 6, GB_REC_COL_ALGORITHM, "bubble");
  gb_rec_table t;
  gb_err err = {""};
  cr_assert_eq(
      gb_records_parse_csv(bad, strlen(bad), "runs.csv", GB_REC_FILE_RUNS, NULL, &t, &err), 0,
      "%s", err.msg);
  cr_assert_eq(t.n_groups, 5);
  gb_rec_table_free(&t);
  free(bad);
  free(text);
}

Test(records_reader, seed_differs_from_settings) {
  expect_field_error(3, GB_REC_COL_SEED, "42",
                     "runs.csv:3: seed: 42, but meta.json settings.seed is 2463534242");
}

Test(records_reader, run_out_of_sequence) {
  expect_field_error(6, GB_REC_COL_RUN, "7", "runs.csv:6: run 7 out of sequence, expected 4");
}

Test(records_reader, more_rows_than_planned) {
  char *text = good_runs();
  size_t len;
  const char *last = line_span(text, 13, &len);
  char extra[1024];
  snprintf(extra, sizeof extra, "%.*s\n12%.*s", (int)len, last, (int)(len - 2), last + 2);
  char *bad = edit_line(text, 13, extra);
  expect_runs_error(bad, "runs.csv:14: row 13 is beyond meta.json plan.measured_runs 12");
  free(bad);
  free(text);
}

Test(records_reader, fewer_rows_than_a_completed_campaign) {
  char *text = good_runs();
  char *bad = edit_line(text, 13, NULL);
  expect_runs_error(
      bad, "runs.csv:12: ends after 11 rows, but meta.json is completed with 12 measured "
           "runs");
  gb_meta m = good_meta();
  m.completed = false;
  m.runs_done = 11;
  gb_rec_table t;
  gb_err err = {""};
  cr_assert_eq(
      gb_records_parse_csv(bad, strlen(bad), "runs.csv", GB_REC_FILE_RUNS, &m, &t, &err), 0,
      "%s", err.msg);
  gb_rec_table_free(&t);
  gb_meta_free(&m);
  free(bad);
  free(text);
}

Test(records_reader, energy_columns_when_energy_is_off) {
  char *text = good_runs();
  char *bad = edit_field(text, 2, GB_REC_COL_ENERGY, "off");
  expect_runs_error(bad, "runs.csv:2: pkg_uj: holds a value, but energy is off");
  free(bad);
  free(text);
}

Test(records_reader, energy_ok_when_meta_has_none) {
  char *text = good_runs();
  gb_meta m = good_meta();
  m.energy.status = GB_REC_ENERGY_UNAVAILABLE;
  expect_error(text, GB_REC_FILE_RUNS, &m,
               "runs.csv:2: energy: ok, but meta.json energy.status is unavailable");
  gb_meta_free(&m);
  free(text);
}

Test(records_reader, dram_against_meta_zones) {
  expect_field_error(4, GB_REC_COL_DRAM_UJ, "",
                     "runs.csv:4: dram_uj: empty, but idle_dram_uj is not");
  char *text = good_runs();
  char *a = edit_field(text, 4, GB_REC_COL_DRAM_UJ, "");
  char *bad = edit_field(a, 4, GB_REC_COL_IDLE_DRAM_UJ, "");
  expect_runs_error(bad, "runs.csv:4: dram_uj: empty, but meta.json lists a dram zone");
  gb_meta m = good_meta();
  m.energy.n_zones = 1; /* the package zone only */
  expect_error(text, GB_REC_FILE_RUNS, &m,
               "runs.csv:2: dram_uj: holds a value, but meta.json lists no dram zone");
  gb_meta_free(&m);
  free(bad);
  free(a);
  free(text);
}

Test(records_reader, malformed_quotes) {
  expect_field_error(5, GB_REC_COL_MESSAGE, "\"abc\"x",
                     "runs.csv:5: malformed CSV: text after a closing quote");
  expect_field_error(5, GB_REC_COL_MESSAGE, "\"abc",
                     "runs.csv:5: malformed CSV: an unterminated quoted field");
  expect_field_error(5, GB_REC_COL_MESSAGE, "say \"hi\"",
                     "runs.csv:5: malformed CSV: a quote inside an unquoted field");
}

Test(records_reader, message_too_long) {
  char value[400];
  memset(value, 'x', 300);
  value[300] = '\0';
  expect_field_error(5, GB_REC_COL_MESSAGE, value,
                     "runs.csv:5: message: longer than 255 bytes");
}

Test(records_reader, empty_line_and_empty_file) {
  char *text = good_runs();
  char *bad = edit_line(text, 4, "");
  expect_runs_error(bad, "runs.csv:4: empty line");
  free(bad);
  free(text);
  expect_runs_error("", "runs.csv:1: empty file, expected a header");
}

Test(records_reader, warmups_out_of_sequence) {
  char *text = slurp(DATA "/records-good/warmups.csv", NULL);
  char *bad = edit_field(text, 4, GB_REC_COL_RUN, "2");
  gb_meta m = good_meta();
  expect_error(bad, GB_REC_FILE_WARMUPS, &m,
               "warmups.csv:4: run 2 out of sequence, expected 1 (warm-ups count from 0 per "
               "configuration)");
  free(bad);
  bad = edit_field(text, 3, GB_REC_COL_RUN, "1");
  expect_error(bad, GB_REC_FILE_WARMUPS, &m,
               "warmups.csv:3: run 1 out of sequence, expected 0 (warm-ups count from 0 per "
               "configuration)");
  gb_meta_free(&m);
  free(bad);
  free(text);
}

/* ---- Bad folders ------------------------------------------------------------ */

static void expect_read_error(const char *dir, int code, const char *message) {
  gb_records *r = NULL;
  gb_err err = {""};
  cr_assert_eq(gb_records_read(dir, &r, &err), -code, "%s", err.msg);
  cr_assert_null(r);
  cr_assert_str_eq(err.msg, message);
}

Test(records_reader, missing_runs_csv) {
  expect_read_error(DATA "/records-no-runs", ENOENT,
                    DATA "/records-no-runs/runs.csv: cannot open: No such file or directory");
}

Test(records_reader, missing_meta_json) {
  expect_read_error(DATA "/records-no-meta", ENOENT,
                    DATA "/records-no-meta/meta.json: cannot open: No such file or directory");
}

Test(records_reader, malformed_meta_json) {
  expect_read_error(DATA "/records-bad-json", EINVAL,
                    DATA "/records-bad-json/meta.json:6: malformed JSON");
}

Test(records_reader, meta_field_of_the_wrong_type) {
  expect_read_error(DATA "/records-bad-type", EINVAL,
                    DATA
                    "/records-bad-type/meta.json: settings.runs: expected an integer, got a "
                    "string");
}

/* ---- meta.json ----------------------------------------------------------------- */

static char *print_meta(const gb_meta *m) {
  cJSON *j = gb_meta_to_json(m);
  cr_assert_not_null(j);
  char *s = cJSON_Print(j);
  cJSON_Delete(j);
  return s;
}

Test(records_meta, good_fields) {
  gb_meta m = good_meta();
  cr_assert_eq(m.settings.profile, GB_PROFILE_CUSTOM);
  cr_assert_eq(gb_bits_count(m.settings.languages), 2);
  cr_assert_eq(m.settings.languages, 1u << GB_C | 1u << GB_PYTHON);
  cr_assert_eq(m.settings.sizes[0], 250);
  cr_assert_eq(m.settings.seed, 2463534242u);
  cr_assert_eq(m.settings.energy, GB_ENERGY_AUTO);
  cr_assert_eq(m.plan.measured_runs, 12);
  cr_assert_eq(m.n_calibration, 2);
  cr_assert_eq(m.calibration[1].sorts, 90);
  cr_assert_eq(m.calibration[1].warmup_loop_ns[0], 214000000);
  cr_assert_eq(m.n_startup, 2);
  cr_assert_eq(m.startup[0].launches, 400);
  cr_assert_eq(m.energy.status, GB_REC_ENERGY_OK);
  cr_assert_eq(m.energy.n_zones, 2);
  cr_assert_eq(m.energy.zones[0].max_energy_range_uj, 262143328850u);
  cr_assert_eq(m.energy.zones[1].kind, GB_META_ZONE_DRAM);
  cr_assert(m.machine.has_governor);
  cr_assert_str_eq(m.machine.governor, "performance");
  cr_assert(!m.machine.has_turbo);
  cr_assert_str_eq(m.pinning.cpus, "2,4");
  cr_assert(m.pinning.has_numa_node);
  cr_assert_str_eq(m.runtimes[GB_PYTHON], "CPython 3.11.2");
  cr_assert_str_eq(m.runtimes[GB_NODE], "");
  cr_assert(m.completed);
  cr_assert_eq(m.n_command, 18);
  cr_assert_str_eq(m.command[17], "results/it's here");
  cr_assert_str_eq(m.command_line, "greenbench run --profile custom --languages c,python "
                                   "--algorithms quick --orders random --sizes 250 --runs 3 "
                                   "--warmups 1 --out 'results/it'\\''s here'");
  gb_meta_free(&m);
}

Test(records_meta, json_round_trip) {
  gb_meta m = good_meta();
  char *first = print_meta(&m);
  gb_meta back;
  gb_err err = {""};
  cr_assert_eq(gb_meta_parse(first, strlen(first), "printed", &back, &err), 0, "%s", err.msg);
  char *second = print_meta(&back);
  cr_assert_str_eq(first, second);
  cr_assert_eq(back.energy.zones[0].max_energy_range_uj, 262143328850u);
  cr_assert_str_eq(back.command_line, m.command_line);
  free(first);
  free(second);
  gb_meta_free(&back);
  gb_meta_free(&m);
}

/* Issue 12: cJSON printed 5512337735304031 as 5.51233773530403e+15, so a
 * resume rebuilt another shuffle. Every integer is written as its digits
 * and read from them, up to 2^64-1. */
Test(records_meta, sixty_four_bit_integers_round_trip_exactly) {
  static const uint64_t seeds[] = {0, 1, 5512337735304031ull,
                                   9007199254740993ull, /* 2^53 + 1 */
                                   18446744073709551615ull};
  for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
    gb_meta m = good_meta();
    m.settings.order_seed = seeds[i];
    m.energy.zones[0].max_energy_range_uj = seeds[i] | 1;
    char *text = print_meta(&m), digits[32];
    snprintf(digits, sizeof digits, "\"order_seed\":\t%" PRIu64 ",", seeds[i]);
    cr_assert(strstr(text, digits), "%s not in %s", digits, text);
    gb_meta back;
    gb_err err = {""};
    cr_assert_eq(gb_meta_parse(text, strlen(text), "printed", &back, &err), 0, "%s", err.msg);
    cr_assert_eq(back.settings.order_seed, seeds[i], "%" PRIu64, back.settings.order_seed);
    cr_assert_eq(back.energy.zones[0].max_energy_range_uj, seeds[i] | 1);
    free(text);
    gb_meta_free(&back);
    gb_meta_free(&m);
  }
}

/* The good fixture with settings.order_seed spelled `spelled`. */
static int parse_order_seed(const char *spelled, gb_meta *m, gb_err *err) {
  char *text = slurp(DATA "/records-good/meta.json", NULL);
  const char *at = strstr(text, "\"order_seed\": 123");
  cr_assert_not_null(at);
  size_t head = (size_t)(at - text) + strlen("\"order_seed\": ");
  char *json = malloc(strlen(text) + strlen(spelled) + 1);
  snprintf(json, strlen(text) + strlen(spelled) + 1, "%.*s%s%s", (int)head, text, spelled,
           text + head + 3);
  int rc = gb_meta_parse(json, strlen(json), "meta.json", m, err);
  free(json);
  free(text);
  return rc;
}

Test(records_meta, integers_are_plain_digits_in_range) {
  gb_meta m;
  gb_err err = {""};
  cr_assert_eq(parse_order_seed("18446744073709551615", &m, &err), 0, "%s", err.msg);
  cr_assert_eq(m.settings.order_seed, UINT64_MAX);
  gb_meta_free(&m);
  static const char *const refused[] = {
      "18446744073709551616", "5.51233773530403e+15", "1e3", "12.0", "-1", "0123"};
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    cr_assert_eq(parse_order_seed(refused[i], &m, &err), -EINVAL, "%s accepted", refused[i]);
    cr_assert_str_eq(err.msg, "meta.json: settings.order_seed: not an integer in 0..2^64-1",
                     "%s: %s", refused[i], err.msg);
  }
}

/* meta.json text of the good fixture after edit(root). */
static char *meta_variant(void (*edit)(cJSON *root)) {
  char *text = slurp(DATA "/records-good/meta.json", NULL);
  cJSON *root = cJSON_Parse(text);
  cr_assert_not_null(root);
  edit(root);
  char *out = cJSON_PrintUnformatted(root);
  cJSON_Delete(root);
  free(text);
  return out;
}

static void expect_meta_error(void (*edit)(cJSON *root), const char *message) {
  char *json = meta_variant(edit);
  gb_meta m;
  gb_err err = {""};
  cr_assert_eq(gb_meta_parse(json, strlen(json), "meta.json", &m, &err), -EINVAL,
               "accepted: %s", json);
  cr_assert_str_eq(err.msg, message);
  free(json);
}

static cJSON *obj(cJSON *root, const char *key) {
  return cJSON_GetObjectItemCaseSensitive(root, key);
}

static void drop_machine(cJSON *r) {
  cJSON_DeleteItemFromObject(r, "machine");
}
static void drop_zone_kind(cJSON *r) {
  cJSON_DeleteItemFromObject(cJSON_GetArrayItem(obj(obj(r, "energy"), "zones"), 1), "kind");
}
static void languages_string(cJSON *r) {
  cJSON_ReplaceItemInObject(obj(r, "settings"), "languages", cJSON_CreateString("c"));
}
static void completed_string(cJSON *r) {
  cJSON_ReplaceItemInObject(r, "completed", cJSON_CreateString("yes"));
}
static void numa_string(cJSON *r) {
  cJSON_ReplaceItemInObject(obj(r, "pinning"), "numa_node", cJSON_CreateString("0"));
}
static void runs_fraction(cJSON *r) {
  cJSON_ReplaceItemInObject(obj(r, "settings"), "runs", cJSON_CreateNumber(2.5));
}
static void sizes_negative(cJSON *r) {
  cJSON_ReplaceItemInArray(obj(obj(r, "settings"), "sizes"), 0, cJSON_CreateNumber(-250));
}
static void unknown_language(cJSON *r) {
  cJSON_ReplaceItemInArray(obj(obj(r, "settings"), "languages"), 0, cJSON_CreateString("rust"));
}
static void wrong_format(cJSON *r) {
  cJSON_ReplaceItemInObject(r, "format", cJSON_CreateString("greenbench-records-2"));
}
/* The format is read as text before it is compared (GB_MF_TEXT). */
static void format_number(cJSON *r) {
  cJSON_ReplaceItemInObject(r, "format", cJSON_CreateNumber(1));
}
static void format_too_long(cJSON *r) {
  cJSON_ReplaceItemInObject(r, "format",
                            cJSON_CreateString("greenbench-records-1-and-then-"
                                               "much-more-text-than-a-name-has-room"));
}
static void seed_zero(cJSON *r) {
  cJSON_ReplaceItemInObject(obj(r, "settings"), "seed", cJSON_CreateNumber(0));
}
static void plan_off_by_one(cJSON *r) {
  cJSON_ReplaceItemInObject(obj(r, "plan"), "measured_runs", cJSON_CreateNumber(13));
}
static void language_twice(cJSON *r) {
  cJSON_ReplaceItemInArray(obj(obj(r, "settings"), "languages"), 1, cJSON_CreateString("c"));
}
static void unfinished_but_completed(cJSON *r) {
  cJSON_ReplaceItemInObject(r, "finished_at", cJSON_CreateNull());
}
static void off_without_reason(cJSON *r) {
  cJSON_ReplaceItemInObject(obj(r, "energy"), "status", cJSON_CreateString("unavailable"));
}
static void calibration_outside(cJSON *r) {
  cJSON_ReplaceItemInObject(cJSON_GetArrayItem(obj(r, "calibration"), 1), "order",
                            cJSON_CreateString("sorted"));
}
static void no_python_runtime(cJSON *r) {
  cJSON_DeleteItemFromObject(obj(r, "runtimes"), "python");
}
static void bad_time(cJSON *r) {
  cJSON_ReplaceItemInObject(r, "started_at", cJSON_CreateString("2026-12-03 07:00:00"));
}

Test(records_meta, missing_fields) {
  expect_meta_error(drop_machine, "meta.json: machine: missing");
  expect_meta_error(drop_zone_kind, "meta.json: energy.zones[1].kind: missing");
  expect_meta_error(no_python_runtime,
                    "meta.json: runtimes.python: missing for a language in settings");
}

Test(records_meta, wrong_types) {
  expect_meta_error(languages_string,
                    "meta.json: settings.languages: expected an array, got a string");
  expect_meta_error(completed_string,
                    "meta.json: completed: expected true or false, got a string");
  expect_meta_error(numa_string,
                    "meta.json: pinning.numa_node: expected an integer or null, got a string");
  expect_meta_error(runs_fraction, "meta.json: settings.runs: not an integer in 0..2^64-1");
  expect_meta_error(sizes_negative, "meta.json: settings.sizes: not an integer in 0..2^64-1");
}

Test(records_meta, wrong_values) {
  expect_meta_error(unknown_language, "meta.json: settings.languages: unknown value 'rust'");
  expect_meta_error(wrong_format, "meta.json: format: not greenbench-records-1");
  expect_meta_error(format_number, "meta.json: format: expected a string, got a number");
  expect_meta_error(format_too_long, "meta.json: format: longer than 63 bytes");
  expect_meta_error(seed_zero, "meta.json: settings.seed: 0 is outside 1..4294967295");
  expect_meta_error(plan_off_by_one,
                    "meta.json: plan: sort_runs 6 + startup_runs 6 is not measured_runs 13");
  expect_meta_error(language_twice, "meta.json: settings.languages: lists c twice");
  expect_meta_error(unfinished_but_completed,
                    "meta.json: finished_at: null, but completed is true");
  expect_meta_error(off_without_reason,
                    "meta.json: energy.reason: empty, but energy is unavailable");
  expect_meta_error(calibration_outside,
                    "meta.json: calibration[1]: configuration not in settings");
  expect_meta_error(bad_time,
                    "meta.json: started_at: '2026-12-03 07:00:00' is not YYYY-MM-DDTHH:MM:SSZ");
}

/* Issue 35: meta.json's settings are held to the bounds a new campaign's
 * are (gb_settings_check), in its words after the file's name. */
static void settings_set(cJSON *r, const char *key, cJSON *v) {
  cJSON_ReplaceItemInObject(obj(r, "settings"), key, v);
}
static void runs_above(cJSON *r) {
  settings_set(r, "runs", cJSON_CreateNumber(GB_MAX_RUNS + 1));
}
static void warmups_zero(cJSON *r) {
  settings_set(r, "warmups", cJSON_CreateNumber(0));
}
static void target_above(cJSON *r) {
  settings_set(r, "target_ms", cJSON_CreateNumber(GB_MAX_TARGET_MS + 1));
}
static void timeout_above(cJSON *r) {
  settings_set(r, "timeout_s", cJSON_CreateNumber(GB_MAX_TIMEOUT_S + 1));
}
static void no_languages(cJSON *r) {
  settings_set(r, "languages", cJSON_CreateArray());
}
static void size_zero(cJSON *r) {
  const double sizes[] = {250, 0};
  settings_set(r, "sizes", cJSON_CreateDoubleArray(sizes, 2));
}
static void size_twice(cJSON *r) {
  const double sizes[] = {250, 250};
  settings_set(r, "sizes", cJSON_CreateDoubleArray(sizes, 2));
}

Test(records_meta, settings_outside_a_campaigns_bounds) {
  expect_meta_error(runs_above, "meta.json: settings.runs: 10001 is outside 1..10000");
  expect_meta_error(warmups_zero, "meta.json: settings.warmups: 0 is outside 1..64");
  expect_meta_error(target_above, "meta.json: settings.target_ms: 60001 is outside 1..60000");
  expect_meta_error(timeout_above, "meta.json: settings.timeout_s: 86401 is outside 1..86400");
  expect_meta_error(no_languages, "meta.json: settings.languages: empty");
  expect_meta_error(size_zero, "meta.json: settings.sizes: 0 is outside 1..10000000");
  expect_meta_error(size_twice, "meta.json: settings.sizes: lists 250 twice");
}

Test(records_meta, malformed_text) {
  gb_meta m;
  gb_err err = {""};
  const char *cases[][2] = {
      {"", "meta.json:1: malformed JSON"},
      {"{\"format\":\n\"greenbench-records-1\",\n}", "meta.json:3: malformed JSON"},
      {"{} trailing", "meta.json:1: malformed JSON"},
      {"[1, 2]", "meta.json: expected a JSON object, got an array"},
      {"{}", "meta.json: format: missing"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    cr_assert_eq(gb_meta_parse(cases[i][0], strlen(cases[i][0]), "meta.json", &m, &err),
                 -EINVAL);
    cr_assert_str_eq(err.msg, cases[i][1]);
  }
}

/* A study-profile meta.json, built the way the harness builds it. */
static void study_meta(gb_meta *m) {
  gb_meta_init(m);
  const char *argv[] = {"greenbench", "run", "--profile", "study", "--out", "results/study"};
  gb_err err = {""};
  cr_assert_eq(gb_meta_set_command(m, 6, argv, &err), 0);
  strcpy(m->tool_version, "0.1.0");
  m->settings.profile = GB_PROFILE_STUDY;
  gb_settings *s = &m->settings;
  s->languages = (1u << GB_LANGUAGE_COUNT) - 1;
  s->algorithms = (1u << GB_ALGORITHM_COUNT) - 1;
  s->orders = (1u << GB_ORDER_COUNT) - 1;
  const uint64_t sizes[] = {250, 500, 1000, 2000};
  for (int i = 0; i < 4; i++)
    s->sizes[s->nsizes++] = sizes[i];
  s->runs = 30, s->warmups = 3, s->target_ms = 200, s->energy = GB_ENERGY_OFF;
  s->seed = 2463534242u, s->order_seed = 123, s->timeout_s = 60;
  strcpy(m->python, "/usr/bin/python3");
  strcpy(m->node, "/usr/bin/node");
  m->plan = (gb_meta_plan){144, 144 * 30, 48 * 30, 192 * 30};
  for (size_t l = 0; l < 3; l++)
    for (size_t a = 0; a < 3; a++)
      for (size_t o = 0; o < 4; o++)
        for (size_t z = 0; z < 4; z++) {
          gb_meta_calibration c = {(gb_language)l,
                                   (gb_algorithm)a,
                                   (gb_order)o,
                                   sizes[z],
                                   10 + z,
                                   {1000, 2000, 3000},
                                   3};
          cr_assert_eq(gb_meta_add_calibration(m, &c, &err), 0);
        }
  for (size_t l = 0; l < 3; l++)
    for (size_t o = 0; o < 4; o++)
      for (size_t z = 0; z < 4; z++) {
        gb_meta_startup st = {(gb_language)l, (gb_order)o, sizes[z], 50};
        cr_assert_eq(gb_meta_add_startup(m, &st, &err), 0);
      }
  m->energy.status = GB_REC_ENERGY_OFF;
  strcpy(m->energy.reason, "disabled by --energy off");
  strcpy(m->machine.cpu_model, "test CPU");
  strcpy(m->machine.kernel, "6.1.0");
  m->machine.cpus_online = 2;
  strcpy(m->pinning.cpus, "1");
  strcpy(m->pinning.reason, "only two CPUs online");
  strcpy(m->runtimes[GB_C], "gcc 12.2.0");
  strcpy(m->runtimes[GB_PYTHON], "CPython 3.11.2");
  strcpy(m->runtimes[GB_NODE], "Node.js 20.20.2");
  strcpy(m->git_commit, "unknown");
  strcpy(m->started_at, "2026-12-03T07:00:00Z");
  strcpy(m->finished_at, "2026-12-03T09:00:00Z");
  m->has_finished_at = true;
  m->completed = true;
  m->runs_done = m->plan.measured_runs;
  cr_assert_eq(gb_meta_check(m, "built", &err), 0, "%s", err.msg);
}

Test(records_meta, built_by_the_harness_reads_back) {
  gb_meta m;
  study_meta(&m);
  cr_assert_eq(m.n_calibration, 144);
  char *text = print_meta(&m);
  gb_meta back;
  gb_err err = {""};
  cr_assert_eq(gb_meta_parse(text, strlen(text), "built", &back, &err), 0, "%s", err.msg);
  cr_assert_eq(back.n_calibration, 144);
  cr_assert_eq(back.calibration[143].sorts, 13);
  cr_assert_eq(back.calibration[143].n_warmup_loop_ns, 3);
  cr_assert_eq(back.n_startup, 48);
  cr_assert_str_eq(back.command_line, "greenbench run --profile study --out results/study");
  cr_assert(!back.pinning.has_numa_node);
  cr_assert(!back.machine.has_governor);
  char *again = print_meta(&back);
  cr_assert_str_eq(text, again);
  free(again);
  free(text);
  gb_meta_free(&back);
  gb_meta_free(&m);
}

Test(records_meta, to_json_refuses_out_of_range_enums) {
  gb_meta m;
  study_meta(&m);
  m.settings.profile = GB_PROFILE_COUNT;
  cr_assert_null(gb_meta_to_json(&m));
  gb_meta_free(&m);
}

/* The checks of single fields are a write with the table (issue 35): a
 * struct built wrongly is refused by gb_meta_check with the field's name,
 * and gb_meta_to_json does not write it. */
static void expect_built_error(void (*spoil)(gb_meta *m), const char *message) {
  gb_meta m;
  study_meta(&m);
  spoil(&m);
  gb_err err = {""};
  cr_assert_eq(gb_meta_check(&m, "built", &err), -EINVAL, "accepted: %s", message);
  cr_assert_str_eq(err.msg, message);
  cr_assert_null(gb_meta_to_json(&m), "written: %s", message);
  gb_meta_free(&m);
}

static void seed_0(gb_meta *m) {
  m->settings.seed = 0;
}
static void language_7(gb_meta *m) {
  m->settings.languages |= 1u << 7;
}
static void built_size_twice(gb_meta *m) {
  m->settings.sizes[3] = m->settings.sizes[1];
}
static void sizes_past_room(gb_meta *m) {
  m->settings.nsizes = GB_MAX_SIZES + 1;
}
static void no_orders(gb_meta *m) {
  m->settings.orders = 0;
}
static void no_git_commit(gb_meta *m) {
  m->git_commit[0] = '\0';
}
static void zero_sorts(gb_meta *m) {
  m->calibration[5].sorts = 0;
}

Test(records_meta, a_struct_built_wrongly_is_refused_by_field) {
  expect_built_error(no_git_commit, "built: git_commit: empty");
  expect_built_error(zero_sorts, "built: calibration[5].sorts: 0");
}

/* The settings are held to gb_settings_check's bounds (ADR 0021), in its
 * words after the path, whoever built the struct. */
Test(records_meta, settings_built_wrongly_are_refused_in_the_settings_words) {
  const struct {
    void (*spoil)(gb_meta *m);
    const char *message;
  } cases[] = {
      {seed_0, "built: settings.seed: 0 is outside 1..4294967295"},
      {language_7, "built: settings.languages: 135 is outside 1..7"},
      {built_size_twice, "built: settings.sizes: lists 500 twice"},
      {sizes_past_room, "built: settings.sizes: too many entries"},
      {no_orders, "built: settings.orders: empty"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    gb_meta m;
    study_meta(&m);
    cases[i].spoil(&m);
    gb_err err = {""};
    cr_assert_eq(gb_meta_check(&m, "built", &err), -EINVAL, "accepted: %s", cases[i].message);
    cr_assert_str_eq(err.msg, cases[i].message, "%s", err.msg);
    gb_meta_free(&m);
  }
}

/* No command is no command line: refused by the check across fields. */
Test(records_meta, a_struct_without_command_is_refused) {
  gb_meta m;
  study_meta(&m);
  gb_err err = {""};
  size_t n = m.n_command;
  m.n_command = 0;
  cr_assert_eq(gb_meta_check(&m, "built", &err), -EINVAL);
  cr_assert_str_eq(err.msg, "built: command: empty");
  m.n_command = n;
  gb_meta_free(&m);
}

/* cJSON's allocations fail after allocs_left more (cJSON_InitHooks). */
static size_t allocs_left;
static void *failing_malloc(size_t n) {
  if (allocs_left == 0)
    return NULL;
  allocs_left--;
  return malloc(n);
}

/* The checks of single fields write the struct: when that write runs out of
 * memory, at any of its allocations, gb_meta_check says so (and leaks
 * nothing, under ASan) instead of refusing a good struct. */
Test(records_meta, a_check_out_of_memory_says_so) {
  gb_meta m = good_meta();
  int rc = -ENOMEM;
  for (size_t k = 0; rc == -ENOMEM; k++) {
    gb_err err = {""};
    allocs_left = k;
    cJSON_InitHooks(&(cJSON_Hooks){failing_malloc, free});
    rc = gb_meta_check(&m, "built", &err);
    cJSON_InitHooks(NULL);
    cr_assert(rc == 0 || (rc == -ENOMEM && strcmp(err.msg, "built: out of memory") == 0),
              "allocation %zu: %d %s", k, rc, err.msg);
    cr_assert(k < 100000);
  }
  gb_meta_free(&m);
}

/* ---- A study-sized folder ------------------------------------------------------- */

/* The workload's counts and input hash, as every ok row must report them. */
static void real_counts(gb_run_row *r) {
  gb_expected e;
  cr_assert_eq(
      gb_expected_compute(r->algorithm, r->order, (size_t)r->size, (uint32_t)r->seed, &e), 0);
  if (r->kind == GB_REC_KIND_SORT)
    r->comparisons = U(e.counts.comparisons), r->writes = U(e.counts.writes);
  gb_hash_hex(e.input_hash, r->input_hash);
}

/* All 5,760 measured runs of the study profile, shuffled, as runs.csv, with
 * the sorts and launches of study_meta's calibration. */
static char *study_runs(const gb_meta *m, size_t *len) {
  size_t n = m->plan.measured_runs, k = 0;
  gb_run_row *rows = calloc(n, sizeof *rows);
  const gb_settings *s = &m->settings;
  for (size_t l = 0; l < 3; l++)
    for (size_t o = 0; o < 4; o++)
      for (size_t z = 0; z < 4; z++)
        for (size_t a = 0; a < 4; a++) /* a == 3: the startup trial */
          for (size_t i = 0; i < s->runs; i++) {
            gb_run_row *r = &rows[k++];
            r->kind = a < 3 ? GB_REC_KIND_SORT : GB_REC_KIND_STARTUP;
            r->language = (gb_language)l, r->order = (gb_order)o;
            r->algorithm = a < 3 ? (gb_algorithm)a : GB_QUICK;
            r->size = s->sizes[z], r->seed = s->seed;
            r->sorts = a < 3 ? 10 + z : 0, r->launches = a < 3 ? 1 : 50;
            r->wall_ns = U(250000000 + i), r->user_ns = U(240000000), r->sys_ns = U(1000000);
            r->max_rss_kib = U(2000);
            if (a < 3)
              r->loop_ns = U(241000000);
            if (i == 0)
              real_counts(r);
            else
              r->comparisons = r[-1].comparisons, r->writes = r[-1].writes,
              memcpy(r->input_hash, r[-1].input_hash, sizeof r->input_hash);
            r->energy = GB_REC_ENERGY_OFF, r->idle_ns = U(250000000);
            r->started_unix_ns = 1796281200000000000u + k;
          }
  cr_assert_eq(k, n);
  uint64_t x = 88172645463325252u; /* a fixed shuffle: xorshift64 */
  for (size_t i = n - 1; i > 0; i--) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    size_t j = (size_t)(x % (i + 1));
    gb_run_row t = rows[i];
    rows[i] = rows[j];
    rows[j] = t;
  }
  char *text = malloc(n * GB_REC_LINE_MAX);
  size_t used = (size_t)gb_records_header(text, GB_REC_LINE_MAX);
  for (size_t i = 0; i < n; i++) {
    rows[i].run = i;
    rows[i].started_unix_ns = 1796281200000000000u + i; /* in run order, as written */
    int w = gb_records_format_row(&rows[i], text + used, GB_REC_LINE_MAX);
    cr_assert_gt(w, 0);
    used += (size_t)w;
  }
  free(rows);
  *len = used;
  return text;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

Test(records_reader, study_sized_folder) {
  gb_meta m;
  study_meta(&m);
  size_t len;
  char *csv = study_runs(&m, &len);
  char *json = print_meta(&m);
  char dir[] = "/tmp/gb-records-XXXXXX", path[64];
  cr_assert_not_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  spit(path, csv);
  snprintf(path, sizeof path, "%s/meta.json", dir);
  spit(path, json);

  gb_records *r;
  gb_err err = {""};
  double t0 = now_ms();
  int rc = gb_records_read(dir, &r, &err);
  double t1 = now_ms();
  cr_assert_eq(rc, 0, "%s", err.msg);
  cr_log_info("read %zu rows in %.1f ms", r->runs.n_rows, t1 - t0);
  cr_assert_eq(r->runs.n_rows, 5760);
  cr_assert(!r->has_warmups);
  cr_assert_eq(r->runs.n_groups, 144 + 48);
  for (size_t g = 0; g < r->runs.n_groups; g++) {
    const gb_rec_group *grp = &r->runs.groups[g];
    cr_assert_eq(grp->n_rows, 30);
    for (size_t i = 1; i < grp->n_rows; i++)
      cr_assert_lt(grp->rows[i - 1]->run, grp->rows[i]->run);
  }
  const gb_rec_group *g =
      gb_rec_table_find_sort(&r->runs, GB_NODE, GB_INSERTION, GB_NEARLY, 2000);
  cr_assert_not_null(g);
  cr_assert_eq(g->rows[0]->sorts, 13);
  gb_expected e;
  cr_assert_eq(gb_expected_compute(GB_INSERTION, GB_NEARLY, 2000, 2463534242u, &e), 0);
  cr_assert_eq(g->rows[0]->comparisons.value, e.counts.comparisons);
  cr_assert_not_null(gb_rec_table_find_startup(&r->runs, GB_PYTHON, GB_SORTED, 500));

  gb_records_free(r);
  unlink(path);
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  unlink(path);
  rmdir(dir);
  free(json);
  free(csv);
  gb_meta_free(&m);
}

/* ---- A comma locale ---------------------------------------------------------------- */

Test(records_locale, comma_locale_changes_nothing) {
  gbt_use_comma_locale();

  char out[8192];
  format_golden(out, sizeof out);
  char *want = slurp(DATA "/records-golden/runs.csv", NULL);
  cr_assert_str_eq(out, want);
  free(want);

  gb_records *r;
  gb_err err = {""};
  cr_assert_eq(gb_records_read(DATA "/records-good", &r, &err), 0, "%s", err.msg);
  cr_assert_eq(r->runs.rows[3].temp_start_mc.value, -1500);
  char *json = print_meta(&r->meta);
  cr_assert_not_null(strstr(json, "262143328850"));
  cr_assert_not_null(strstr(json, "2463534242"));
  gb_meta back;
  cr_assert_eq(gb_meta_parse(json, strlen(json), "printed", &back, &err), 0, "%s", err.msg);
  cr_assert_eq(back.energy.zones[0].max_energy_range_uj, 262143328850u);
  gb_meta_free(&back);
  free(json);
  gb_records_free(r);
}

/* ---- meta.json: harness_env (optional; issue 12) ----------------------------- */

static void env_added(cJSON *r) {
  cJSON *e = cJSON_AddObjectToObject(r, "harness_env");
  cJSON_AddStringToObject(e, "PYTHONMALLOC", "debug");
  cJSON_AddStringToObject(e, "NODE_OPTIONS", "--jitless");
}
static void env_string(cJSON *r) {
  cJSON_AddStringToObject(r, "harness_env", "PYTHONMALLOC=debug");
}
static void env_number(cJSON *r) {
  cJSON_AddNumberToObject(cJSON_AddObjectToObject(r, "harness_env"), "PYTHONMALLOC", 1);
}

Test(records_meta, harness_env_is_optional_and_round_trips) {
  gb_meta m = good_meta();
  cr_assert_not(m.has_harness_env, "records from before the field have none");
  char *first = print_meta(&m);
  cr_assert_null(strstr(first, "harness_env"), "and it is not invented on writing");
  free(first);
  gb_meta_free(&m);
  char *json = meta_variant(env_added);
  gb_err err = {""};
  cr_assert_eq(gb_meta_parse(json, strlen(json), "meta.json", &m, &err), 0, "%s", err.msg);
  free(json);
  cr_assert(m.has_harness_env);
  cr_assert_eq(m.n_harness_env, 2);
  cr_assert_str_eq(m.harness_env[0].name, "PYTHONMALLOC");
  cr_assert_str_eq(m.harness_env[0].value, "debug");
  cr_assert_str_eq(m.harness_env[1].name, "NODE_OPTIONS");
  char *printed = print_meta(&m);
  gb_meta back;
  cr_assert_eq(gb_meta_parse(printed, strlen(printed), "meta.json", &back, &err), 0, "%s",
               err.msg);
  cr_assert_eq(back.n_harness_env, 2);
  cr_assert_str_eq(back.harness_env[1].value, "--jitless");
  free(printed);
  gb_meta_free(&back);
  gb_meta_free(&m);
}

Test(records_meta, harness_env_wrong_types) {
  expect_meta_error(env_string, "meta.json: harness_env: expected an object, got a string");
  expect_meta_error(env_number,
                    "meta.json: harness_env.PYTHONMALLOC: expected a string, got a number");
}

/* ---- meta.json: machine.label (optional; issue 14) ---------------------------- */

static void label_added(cJSON *r) {
  cJSON_AddStringToObject(obj(r, "machine"), "label", "bench-01");
}
static void label_dotted(cJSON *r) {
  cJSON_AddStringToObject(obj(r, "machine"), "label", "bench.example.org");
}
static void label_empty(cJSON *r) {
  cJSON_AddStringToObject(obj(r, "machine"), "label", "");
}
static void label_number(cJSON *r) {
  cJSON_AddNumberToObject(obj(r, "machine"), "label", 1);
}

Test(records_meta, machine_label_is_optional_and_round_trips) {
  gb_meta m = good_meta();
  cr_assert_not(m.machine.has_label, "records from before the field have none");
  char *first = print_meta(&m);
  cr_assert_null(strstr(first, "\"label\""), "and it is not invented on writing");
  free(first);
  gb_meta_free(&m);
  char *json = meta_variant(label_added);
  gb_err err = {""};
  cr_assert_eq(gb_meta_parse(json, strlen(json), "meta.json", &m, &err), 0, "%s", err.msg);
  free(json);
  cr_assert(m.machine.has_label);
  cr_assert_str_eq(m.machine.label, "bench-01");
  char *printed = print_meta(&m);
  cr_assert(strstr(printed, "\"label\":\t\"bench-01\""), "%s", printed);
  gb_meta back;
  cr_assert_eq(gb_meta_parse(printed, strlen(printed), "meta.json", &back, &err), 0, "%s",
               err.msg);
  cr_assert(back.machine.has_label);
  cr_assert_str_eq(back.machine.label, "bench-01");
  free(printed);
  gb_meta_free(&back);
  gb_meta_free(&m);
}

Test(records_meta, machine_label_must_be_a_label) {
  const char *why = "is not a label (1 to 63 letters, digits, '_' or '-')";
  char msg[160];
  snprintf(msg, sizeof msg, "meta.json: machine.label: 'bench.example.org' %s", why);
  expect_meta_error(label_dotted, msg);
  snprintf(msg, sizeof msg, "meta.json: machine.label: '' %s", why);
  expect_meta_error(label_empty, msg);
  expect_meta_error(label_number, "meta.json: machine.label: expected a string, got a number");
}

Test(records_meta, labels) {
  cr_assert(gb_meta_label_valid("bench-01"));
  cr_assert(gb_meta_label_valid("A_z-9"));
  cr_assert_not(gb_meta_label_valid(""));
  cr_assert_not(gb_meta_label_valid("bench.example.org"), "dots split classnames");
  cr_assert_not(gb_meta_label_valid("a b"));
  char long_label[65];
  memset(long_label, 'x', 64);
  long_label[64] = '\0';
  cr_assert_not(gb_meta_label_valid(long_label), "64 characters");
  long_label[63] = '\0';
  cr_assert(gb_meta_label_valid(long_label), "63 characters");
}

Test(records_meta, a_host_name_and_cpu_model_are_made_a_label) {
  char buf[GB_META_NAME_MAX];
  gb_meta_label_from_machine("node07", "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz", buf,
                             sizeof buf);
  cr_assert_str_eq(buf, "node07-intel-xeon-gold-6248");
  gb_meta_label_from_machine("vm.example.org", "AMD EPYC 7B13 64-Core Processor", buf,
                             sizeof buf);
  cr_assert_str_eq(buf, "vm-example-org-amd-epyc-7b13-64-core");
  gb_meta_label_from_machine("bench-01", "", buf, sizeof buf);
  cr_assert_str_eq(buf, "bench-01", "no model: the host alone");
  gb_meta_label_from_machine("", NULL, buf, sizeof buf);
  cr_assert_str_eq(buf, "unknown-host");
  char host[61];
  memset(host, 'h', 60);
  host[60] = '\0';
  gb_meta_label_from_machine(host, "Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz", buf, sizeof buf);
  cr_assert_str_eq(buf + 60, "", "a word that does not fit whole is left out");
  memset(host, 'h', 55);
  host[55] = '\0';
  gb_meta_label_from_machine(host, "Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz", buf, sizeof buf);
  cr_assert_str_eq(buf + 55, "-intel", "cut at a whole word, no trailing '-'");
  cr_assert(gb_meta_label_valid(buf));
}

Test(records_meta, a_host_name_is_made_a_label) {
  char buf[GB_META_NAME_MAX];
  gb_meta_label_from_host("build.example.org", buf, sizeof buf);
  cr_assert_str_eq(buf, "build-example-org");
  gb_meta_label_from_host("bench-01", buf, sizeof buf);
  cr_assert_str_eq(buf, "bench-01");
  gb_meta_label_from_host("", buf, sizeof buf);
  cr_assert_str_eq(buf, "unknown-host");
  char host[101];
  memset(host, 'h', 100);
  host[100] = '\0';
  gb_meta_label_from_host(host, buf, sizeof buf);
  cr_assert_eq(strlen(buf), 63u);
  cr_assert(gb_meta_label_valid(buf));
  gb_meta_label_from_host("a\xc3\xa9.b", buf, sizeof buf);
  cr_assert_str_eq(buf, "a---b", "each byte that a label cannot hold");
}

/* ---- meta.json: energy.source and energy.cross_check (optional; issue 37) ----- */

static void source_added(cJSON *r) {
  cJSON_AddStringToObject(obj(r, "energy"), "source", "powercap");
  cJSON_AddStringToObject(obj(r, "energy"), "cross_check", "perf_event");
}
static void source_unknown(cJSON *r) {
  cJSON_AddStringToObject(obj(r, "energy"), "source", "msr");
  cJSON_AddNullToObject(obj(r, "energy"), "cross_check");
}
static void cross_unknown(cJSON *r) {
  cJSON_AddStringToObject(obj(r, "energy"), "source", "perf_event");
  cJSON_AddStringToObject(obj(r, "energy"), "cross_check", "powercap");
}

Test(records_meta, energy_source_is_optional_and_round_trips) {
  gb_meta m = good_meta();
  cr_assert_not(m.energy.has_source, "records from before the field have none");
  char *first = print_meta(&m);
  cr_assert_null(strstr(first, "\"source\""), "and it is not invented on writing");
  free(first);
  gb_meta_free(&m);
  char *json = meta_variant(source_added);
  gb_err err = {""};
  cr_assert_eq(gb_meta_parse(json, strlen(json), "meta.json", &m, &err), 0, "%s", err.msg);
  free(json);
  cr_assert(m.energy.has_source && m.energy.has_cross);
  cr_assert_str_eq(m.energy.source, "powercap");
  cr_assert_str_eq(m.energy.cross_check, "perf_event");
  char *printed = print_meta(&m);
  cr_assert(strstr(printed, "\"source\":\t\"powercap\""), "%s", printed);
  cr_assert(strstr(printed, "\"cross_check\":\t\"perf_event\""), "%s", printed);
  free(printed);
  gb_meta_free(&m);
}

Test(records_meta, energy_source_must_be_a_way) {
  expect_meta_error(source_unknown,
                    "meta.json: energy.source: 'msr' is neither powercap nor perf_event");
  expect_meta_error(cross_unknown,
                    "meta.json: energy.cross_check: 'powercap' is not perf_event");
}

/* ---- meta.json: a file's text in a message is escaped ----------------------- */

/* The shape of the input that stopped fuzz_suiterecords, on the study's
 * meta.json: control bytes in a value that is refused. Each message shows
 * them escaped (gb_excerpt), so it stays one line. */
static void energy_mode_controls(cJSON *r) {
  settings_set(r, "energy", cJSON_CreateString("of\tf\n"));
}
static void language_controls(cJSON *r) {
  cJSON_ReplaceItemInArray(obj(obj(r, "settings"), "languages"), 1,
                           cJSON_CreateString("py\nthon"));
}
static void source_controls(cJSON *r) {
  cJSON_AddStringToObject(obj(r, "energy"), "source", "power\ncap");
  cJSON_AddNullToObject(obj(r, "energy"), "cross_check");
}
static void cross_controls(cJSON *r) {
  cJSON_AddStringToObject(obj(r, "energy"), "source", "powercap");
  cJSON_AddStringToObject(obj(r, "energy"), "cross_check", "perf\nevent");
}
static void started_controls(cJSON *r) {
  cJSON_ReplaceItemInObject(r, "started_at", cJSON_CreateString("2026-12-03\nT07:00:00Z"));
}
static void finished_controls(cJSON *r) {
  cJSON_ReplaceItemInObject(r, "finished_at", cJSON_CreateString("2026-12-03T07:05:00Z\n"));
}
static void label_controls(cJSON *r) {
  cJSON_AddStringToObject(obj(r, "machine"), "label", "bench\n01");
}
static void env_name_controls(cJSON *r) {
  cJSON_AddNumberToObject(cJSON_AddObjectToObject(r, "harness_env"), "PYTHON\nMALLOC", 1);
}

Test(records_meta, a_refused_value_is_shown_on_one_line) {
  expect_meta_error(energy_mode_controls,
                    "meta.json: settings.energy: unknown value 'of\\x09f\\n'");
  expect_meta_error(language_controls,
                    "meta.json: settings.languages: unknown value 'py\\nthon'");
  expect_meta_error(
      source_controls,
      "meta.json: energy.source: 'power\\ncap' is neither powercap nor perf_event");
  expect_meta_error(cross_controls,
                    "meta.json: energy.cross_check: 'perf\\nevent' is not perf_event");
  expect_meta_error(started_controls, "meta.json: started_at: '2026-12-03\\nT07:00:00Z' is not "
                                      "YYYY-MM-DDTHH:MM:SSZ");
  expect_meta_error(finished_controls, "meta.json: finished_at: '2026-12-03T07:05:00Z\\n' is "
                                       "not YYYY-MM-DDTHH:MM:SSZ");
  expect_meta_error(label_controls, "meta.json: machine.label: 'bench\\n01' is not a label (1 "
                                    "to 63 letters, digits, '_' or '-')");
  expect_meta_error(env_name_controls,
                    "meta.json: harness_env.PYTHON\\nMALLOC: expected a string, got a number");
}

/* ---- meta.json: one table of fields (issue 35) ----------------------------- */

/* The good fixture with every optional and nullable field of meta.json
 * present, not null, and a value of its own. */
static void add_every_optional_field(cJSON *r) {
  cJSON *s = obj(r, "settings"), *e = obj(r, "energy"), *m = obj(r, "machine"), *o;
  cJSON_AddItemToArray(cJSON_GetObjectItem(s, "languages"), cJSON_CreateString("node"));
  cJSON_AddItemToArray(cJSON_GetObjectItem(s, "sizes"), cJSON_CreateNumber(500));
  cJSON_AddItemToObject(s, "omit", o = cJSON_CreateArray());
  cJSON_AddItemToArray(o, cJSON_Parse("{\"language\": \"c\", \"algorithm\": \"quick\", "
                                      "\"order\": \"random\", \"size\": 500}"));
  cJSON_ReplaceItemInObject(s, "energy", cJSON_CreateString("on"));
  cJSON_ReplaceItemInObject(r, "profile", cJSON_CreateString("study"));
  cJSON_AddStringToObject(e, "source", "powercap");
  cJSON_AddStringToObject(e, "cross_check", "perf_event");
  cJSON_AddStringToObject(m, "label", "node07");
  cJSON_ReplaceItemInObject(m, "turbo", cJSON_CreateString("on"));
  cJSON_ReplaceItemInObject(obj(r, "pinning"), "numa_node", cJSON_CreateNumber(3));
  cJSON_AddStringToObject(obj(r, "runtimes"), "node", "v18.19.0");
  cJSON_AddItemToObject(r, "harness_env", o = cJSON_CreateObject());
  cJSON_AddStringToObject(o, "PYTHONMALLOC", "malloc");
  cJSON_AddStringToObject(o, "NODE_OPTIONS", "--max-old-space-size=64");
  cJSON_AddStringToObject(r, "access", "sudo");
  cJSON_AddStringToObject(r, "spawner", "posix_spawn after dropping to uid 1000");
  cJSON_DeleteItemFromObject(r, "host_note"); /* unknown: read past, not written */
}

/* One table drives the writer and the reader, so every field of a file that
 * has them all is written back with its value (the trees are equal), and the
 * struct read from what was written is the struct written, byte for byte
 * (both start zeroed, padding included), with its owned arrays. */
Test(records_meta, every_field_of_the_table_round_trips) {
  char *json = meta_variant(add_every_optional_field);
  gb_meta m, back;
  gb_err err = {""};
  cr_assert_eq(gb_meta_parse(json, strlen(json), "meta.json", &m, &err), 0, "%s", err.msg);
  char *text = print_meta(&m);
  cJSON *want = cJSON_Parse(json), *got = cJSON_Parse(text);
  cr_assert(cJSON_Compare(want, got, true), "read\n%s\nwritten\n%s", json, text);
  cr_assert_eq(gb_meta_parse(text, strlen(text), "printed", &back, &err), 0, "%s", err.msg);
  cr_assert_eq(back.n_command, m.n_command);
  for (size_t i = 0; i < m.n_command; i++)
    cr_assert_str_eq(back.command[i], m.command[i]);
  cr_assert_str_eq(back.command_line, m.command_line);
  cr_assert_eq(back.n_calibration, m.n_calibration);
  cr_assert_eq(back.n_startup, m.n_startup);
  cr_assert_eq(memcmp(back.calibration, m.calibration, m.n_calibration * sizeof *m.calibration),
               0);
  cr_assert_eq(memcmp(back.startup, m.startup, m.n_startup * sizeof *m.startup), 0);
  gb_meta a, b;
  memcpy(&a, &m, sizeof a);
  memcpy(&b, &back, sizeof b);
  a.command = b.command = NULL;
  a.command_line = b.command_line = NULL;
  a.calibration = b.calibration = NULL;
  a.startup = b.startup = NULL;
  cr_assert_eq(memcmp(&a, &b, sizeof a), 0);
  cJSON_Delete(want);
  cJSON_Delete(got);
  free(text);
  free(json);
  gb_meta_free(&back);
  gb_meta_free(&m);
}

/* The table reads and writes enums as unsigned: each enum member, and each
 * entry of a list of enums, must have that size. */
static void assert_enums_are_unsigned(const gbi_meta_field *f) {
  if (f->type == GB_MT_ENUM)
    cr_assert_eq(f->size, sizeof(unsigned), "enum '%s' is not the size of unsigned", f->key);
  if (f->type == GB_MT_ARRAY && f->sub->type == GB_MT_ENUM)
    cr_assert_eq(f->size, f->max * sizeof(unsigned), "the entries of '%s' are not unsigned",
                 f->key);
}

/* Marks in covered[] the bytes of a struct that the fields fs hold; the
 * entry of an array of objects is a struct checked on its own. */
static void assert_covers(const gbi_meta_field *entry);

static void mark(const gbi_meta_field *fs, size_t n, bool *covered) {
  for (const gbi_meta_field *f = fs; f < fs + n; f++) {
    assert_enums_are_unsigned(f);
    memset(covered + f->off, 1, f->size);
    if (f->flags & GB_MF_HAS)
      covered[f->has_off] = true;
    if (f->flags & GB_MF_NULL)
      covered[f->null_off] = true;
    if (f->type == GB_MT_ARRAY || (f->type == GB_MT_HOOK && f->n_off))
      memset(covered + f->n_off, 1, sizeof(size_t));
    if (f->type == GB_MT_OBJECT)
      mark(f->sub, f->n_sub, covered);
    if (f->type == GB_MT_ARRAY && f->sub->type == GB_MT_OBJECT)
      assert_covers(f->sub);
  }
}

/* Every aligned 8-byte word of the entry's struct holds a byte of some
 * field (padding never fills one). */
static void assert_covers(const gbi_meta_field *entry) {
  bool *covered = calloc(entry->size, 1);
  cr_assert_not_null(covered);
  mark(entry->sub, entry->n_sub, covered);
  for (size_t w = 0; w < entry->size; w += 8) {
    bool any = false;
    for (size_t b = w; b < w + 8 && b < entry->size; b++)
      any |= covered[b];
    cr_assert(any,
              "the struct whose first field is '%s' holds bytes %zu..%zu that no field of the "
              "meta.json table reads or writes",
              entry->sub[0].key, w, w + 7);
  }
  free(covered);
}

/* A member added to gb_meta (or to the structs of its lists) but not to the
 * table would be neither written nor read: the table must cover them. And
 * every enum it holds must be the size of unsigned, through which it is read
 * and written (was a static assertion over seven enum types). */
Test(records_meta, the_table_covers_every_member) {
  assert_covers(gbi_meta_root);
}

/* The settings' lists are bitmasks (settings.h), walked in enum order. */
Test(records_settings, bits_walk_a_list_in_enum_order) {
  unsigned seen[32], n = 0;
  for (unsigned v = 0; gb_bits_next(0x29u, &v); v++)
    seen[n++] = v;
  cr_assert_eq(n, 3u);
  cr_assert(seen[0] == 0 && seen[1] == 3 && seen[2] == 5);
  cr_assert_eq(gb_bits_count(0x29u), 3u);
  unsigned v = 0;
  cr_assert_not(gb_bits_next(0, &v), "an empty list has no value");
  v = 0;
  cr_assert(gb_bits_next(1u << 31, &v) && v == 31, "the last bit");
}
