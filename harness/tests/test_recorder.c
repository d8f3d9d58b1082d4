#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recorder.h"

static char *read_file(const char *dir, const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "%s", path);
  static char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

static char *fresh_dir(void) {
  static char dir[64];
  snprintf(dir, sizeof dir, "/tmp/gb-recorder-XXXXXX");
  cr_assert_not_null(mkdtemp(dir));
  return dir;
}

static gb_run_row sort_row(uint64_t run) {
  gb_run_row r = {0};
  r.run = run;
  r.kind = GB_REC_KIND_SORT;
  r.language = GB_C;
  r.algorithm = GB_QUICK;
  r.order = GB_RANDOM;
  r.size = 4000;
  r.seed = 2463534242u;
  r.sorts = 10;
  r.launches = 1;
  r.status = GB_REC_STATUS_OK;
  r.wall_ns = (gb_rec_opt_u64){true, 5000000};
  r.user_ns = (gb_rec_opt_u64){true, 4000000};
  r.sys_ns = (gb_rec_opt_u64){true, 1000000};
  r.max_rss_kib = (gb_rec_opt_u64){true, 1500};
  r.loop_ns = (gb_rec_opt_u64){true, 3000000};
  r.comparisons = (gb_rec_opt_u64){true, 55119};
  r.writes = (gb_rec_opt_u64){true, 56984};
  memcpy(r.input_hash, "9f662f292f0c2286", 17);
  r.energy = GB_REC_ENERGY_OFF;
  r.idle_ns = (gb_rec_opt_u64){true, 5000000};
  r.started_unix_ns = 1;
  return r;
}

static gbi_recorder *open_new(const char *dir) {
  gbi_recorder_opts o = {.dir = dir};
  gbi_recorder *r;
  gb_err err;
  cr_assert_eq(gbi_recorder_open(&o, &r, &err), 0, "%s", err.msg);
  return r;
}

Test(recorder, new_folder_gets_headers_and_whole_rows) {
  char dir[128];
  snprintf(dir, sizeof dir, "%s/deeper/campaign", fresh_dir());
  gbi_recorder *r = open_new(dir);
  gb_err err;
  gb_run_row row = sort_row(0);
  cr_assert_eq(gbi_recorder_append(r, GB_REC_FILE_RUNS, &row, &err), 0, "%s", err.msg);
  gbi_recorder_close(r);
  char header[GB_REC_LINE_MAX], line[GB_REC_LINE_MAX], want[2 * GB_REC_LINE_MAX];
  cr_assert_gt(gb_records_header(header, sizeof header), 0);
  cr_assert_gt(gb_records_format_row(&row, line, sizeof line), 0);
  snprintf(want, sizeof want, "%s%s", header, line);
  cr_assert_str_eq(read_file(dir, "runs.csv"), want);
  cr_assert_str_eq(read_file(dir, "warmups.csv"), header);
}

Test(recorder, refuses_to_overwrite_records) {
  char *dir = fresh_dir();
  gbi_recorder_close(open_new(dir));
  gbi_recorder_opts o = {.dir = dir};
  gbi_recorder *r = NULL;
  gb_err err;
  cr_assert_eq(gbi_recorder_open(&o, &r, &err), -EEXIST);
  cr_assert(strstr(err.msg, "is not empty: records are never overwritten"), "%s", err.msg);
  cr_assert_null(r);
}

Test(recorder, unwritable_folder_is_a_clear_error) {
  gbi_recorder_opts o = {.dir = "/sys/greenbench-recorder-test"};
  gbi_recorder *r = NULL;
  gb_err err;
  cr_assert_lt(gbi_recorder_open(&o, &r, &err), 0);
  cr_assert(strstr(err.msg, "cannot create folder /sys/greenbench-recorder-test"), "%s",
            err.msg);
}

/* A disk that fills up in the middle of a row: the first write goes through
 * partly, the next fails with ENOSPC. */
static ssize_t full_disk(int fd, const void *buf, size_t len, void *ctx) {
  int *calls = ctx;
  if ((*calls)++ == 0)
    return write(fd, buf, len / 2);
  errno = ENOSPC;
  return -1;
}

Test(recorder, full_disk_leaves_no_half_row) {
  char *dir = fresh_dir();
  gbi_recorder *r = open_new(dir);
  gb_err err;
  gb_run_row row = sort_row(0);
  cr_assert_eq(gbi_recorder_append(r, GB_REC_FILE_RUNS, &row, &err), 0);
  gbi_recorder_close(r);
  char before[1 << 16], meta[256];
  snprintf(before, sizeof before, "%s", read_file(dir, "runs.csv"));
  snprintf(meta, sizeof meta, "%s/meta.json", dir);
  fclose(fopen(meta, "w"));

  int calls = 0;
  gbi_recorder_opts o = {.dir = dir, .resume = true, .write = full_disk, .write_ctx = &calls};
  cr_assert_eq(gbi_recorder_open(&o, &r, &err), 0, "%s", err.msg);
  row.run = 1;
  cr_assert_eq(gbi_recorder_append(r, GB_REC_FILE_RUNS, &row, &err), -ENOSPC);
  cr_assert(strstr(err.msg, "runs.csv: No space left on device (the row was not recorded)"),
            "%s", err.msg);
  gbi_recorder_close(r);
  cr_assert_str_eq(read_file(dir, "runs.csv"), before);
}

/* Opening a folder to resume changes nothing: a cut-short last line is cut
 * only by gbi_recorder_repair, after gbi_recorder_read and the campaign's
 * checks (test_records_safety.c resumes such a folder end to end). */
Test(recorder, resume_changes_nothing_before_the_records_are_read) {
  char *dir = fresh_dir();
  gbi_recorder *r = open_new(dir);
  gb_err err;
  gb_run_row row = sort_row(0);
  cr_assert_eq(gbi_recorder_append(r, GB_REC_FILE_RUNS, &row, &err), 0, "%s", err.msg);
  gbi_recorder_close(r);
  char path[256];
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  FILE *f = fopen(path, "a");
  fputs("1,sort,c,quick,random,4000,24635", f);
  fclose(f);
  char cut[1 << 16];
  snprintf(cut, sizeof cut, "%s", read_file(dir, "runs.csv"));
  snprintf(path, sizeof path, "%s/meta.json", dir);
  fclose(fopen(path, "w"));

  bool dropped = false;
  gbi_recorder_opts o = {.dir = dir, .resume = true};
  cr_assert_eq(gbi_recorder_open(&o, &r, &err), 0, "%s", err.msg);
  cr_assert_eq(gbi_recorder_repair(r, &dropped, &err), -EBADF);
  gb_records *rec = NULL;
  cr_assert_lt(gbi_recorder_read(r, &rec, &err), 0, "an empty meta.json is refused");
  cr_assert_eq(gbi_recorder_repair(r, &dropped, &err), -EBADF);
  gbi_recorder_close(r);
  cr_assert_not(dropped);
  cr_assert_str_eq(read_file(dir, "runs.csv"), cut);
}

Test(recorder, resume_needs_the_records) {
  char *dir = fresh_dir();
  gbi_recorder_opts o = {.dir = dir, .resume = true};
  gbi_recorder *r;
  gb_err err;
  cr_assert_eq(gbi_recorder_open(&o, &r, &err), -ENOENT);
  cr_assert(strstr(err.msg, "runs.csv is missing"), "%s", err.msg);
}

Test(recorder, text_files_are_replaced_whole) {
  char *dir = fresh_dir();
  gbi_recorder *r = open_new(dir);
  gb_err err;
  cr_assert_eq(gbi_recorder_write_text(r, "environment.txt", "one\n", &err), 0);
  cr_assert_eq(gbi_recorder_write_text(r, "environment.txt", "two\n", &err), 0);
  gbi_recorder_close(r);
  cr_assert_str_eq(read_file(dir, "environment.txt"), "two\n");
  char tmp[256];
  snprintf(tmp, sizeof tmp, "%s/environment.txt.tmp", dir);
  cr_assert_eq(access(tmp, F_OK), -1, "no temporary file is left behind");
}
