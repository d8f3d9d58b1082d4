/* Packing a suite campaign's records folder (greenbench pack) and reading
 * it back (gb_srec_read_path): checked with the suite reader, its build/
 * folder left out, a round trip byte for byte, the same bytes twice, and
 * the refusals of a broken suite folder, of a folder that mixes a study's
 * records with a suite's, and of an archive without suite.json. On a copy
 * of the synthetic suite campaign (data/suite-synth). */
#include <archive.h>
#include <archive_entry.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "greenbench/records_pack.h"
#include "greenbench/suiterecords.h"
#include "records_internal.h"

static char work[64];

static void setup(void) {
  snprintf(work, sizeof work, "/tmp/gb-test-pack-suite-XXXXXX");
  cr_assert(mkdtemp(work));
}

static void teardown(void) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", work);
  cr_assert_eq(system(cmd), 0);
}

TestSuite(records_pack_suite, .init = setup, .fini = teardown);

/* A shell command with every %s the work folder. */
static int sh(const char *fmt) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, fmt, work, work, work, work, work, work);
  return system(cmd);
}

/* work/camp: the synthetic suite campaign, with build outputs in build/. */
static void copy_fixture(void) {
  char cmd[512];
  snprintf(cmd, sizeof cmd,
           "mkdir '%s/camp' && cp '%s/suite-synth/'* '%s/camp/' && mkdir '%s/camp/build' && "
           "echo binary >'%s/camp/build/nbody'",
           work, GB_TEST_DATA_DIR, work, work, work);
  cr_assert_eq(system(cmd), 0);
}

static void path_in(char *buf, size_t len, const char *name) {
  snprintf(buf, len, "%s/%s", work, name);
}

static void pack_camp(void) {
  char dir[128], out[128];
  gb_err err;
  path_in(dir, sizeof dir, "camp");
  path_in(out, sizeof out, "camp.tar.gz");
  cr_assert_eq(gb_records_pack(dir, out, &err), 0, "%s", err.msg);
}

Test(records_pack_suite, round_trips_byte_for_byte_without_the_build_folder) {
  copy_fixture();
  pack_camp();
  /* The folder, the manifest first, the four records files; no build/. */
  cr_assert_eq(sh("test \"$(tar -tzf %s/camp.tar.gz | tr '\\n' ' ')\" = 'camp/ "
                  "camp/MANIFEST.xxh128 camp/meta.json camp/runs.csv camp/suite.json "
                  "camp/warmups.csv '"),
               0);
  cr_assert_eq(
      sh("mkdir %s/x && tar -xzf %s/camp.tar.gz -C %s/x && cd %s/x/camp && "
         "for f in meta.json runs.csv suite.json warmups.csv; do "
         "cmp ../../camp/$f $f || exit 1; done && xxhsum -c MANIFEST.xxh128 >/dev/null"),
      0);
}

Test(records_pack_suite, packs_the_report_files_as_the_study_pack_does) {
  copy_fixture();
  cr_assert_eq(sh("cd %s/camp && echo '# results' >results.md && echo '<x/>' >junit.xml && "
                  "echo '{}' >summary.json"),
               0);
  pack_camp();
  cr_assert_eq(sh("mkdir %s/x && tar -xzf %s/camp.tar.gz -C %s/x && cd %s/x/camp && "
                  "for f in results.md junit.xml summary.json; do "
                  "cmp ../../camp/$f $f || exit 1; done && test ! -e build"),
               0);
}

Test(records_pack_suite, packs_the_same_bytes_twice_dated_by_the_campaign) {
  char dir[128], a[128], b[128];
  gb_err err;
  copy_fixture();
  path_in(dir, sizeof dir, "camp/");
  path_in(a, sizeof a, "a.tar.gz");
  path_in(b, sizeof b, "b.tar.gz");
  cr_assert_eq(gb_records_pack(dir, a, &err), 0, "%s", err.msg);
  sleep(1); /* a clock in the archive would show */
  cr_assert_eq(sh("echo more >%s/camp/build/more"), 0);
  cr_assert_eq(gb_records_pack(dir, b, &err), 0, "%s", err.msg);
  cr_assert_eq(sh("cmp %s/a.tar.gz %s/b.tar.gz"), 0);
  /* Every member's time is the campaign's finished_unix_ns, in seconds. */
  gb_srec_records *r = NULL;
  cr_assert_eq(gb_srec_read(dir, &r, &err), 0, "%s", err.msg);
  time_t want = (time_t)(r->meta.finished_unix_ns / 1000000000u);
  gb_srec_free(r);
  struct archive *ar = archive_read_new();
  struct archive_entry *e;
  archive_read_support_format_tar(ar);
  archive_read_support_filter_gzip(ar);
  cr_assert_eq(archive_read_open_filename(ar, a, 65536), ARCHIVE_OK);
  int n = 0;
  while (archive_read_next_header(ar, &e) == ARCHIVE_OK) {
    cr_assert_eq(archive_entry_mtime(e), want, "%s", archive_entry_pathname(e));
    n++;
  }
  archive_read_free(ar);
  cr_assert_eq(n, 6);
}

Test(records_pack_suite, reads_the_packed_records_as_the_folder) {
  char dir[128], out[128];
  gb_srec_records *f = NULL, *p = NULL;
  gb_err err;
  copy_fixture();
  pack_camp();
  path_in(dir, sizeof dir, "camp");
  path_in(out, sizeof out, "camp.tar.gz");
  cr_assert(gb_srec_is_suite_path(dir));
  cr_assert(gb_srec_is_suite_path(out));
  cr_assert_eq(gb_srec_read_path(dir, &f, &err), 0, "%s", err.msg);
  cr_assert_eq(gb_srec_read_path(out, &p, &err), 0, "%s", err.msg);
  cr_assert_eq(p->n_runs, f->n_runs);
  cr_assert_eq(p->n_warmups, f->n_warmups);
  cr_assert_eq(memcmp(p->runs, f->runs, f->n_runs * sizeof *f->runs), 0);
  if (f->n_warmups) /* the fixture's warmups.csv holds the header alone */
    cr_assert_eq(memcmp(p->warmups, f->warmups, f->n_warmups * sizeof *f->warmups), 0);
  cr_assert_eq(memcmp(&p->meta, &f->meta, sizeof f->meta), 0);
  cr_assert_str_eq(p->suite.hash, f->suite.hash);
  cr_assert_eq(p->suite.n_languages, f->suite.n_languages);
  gb_srec_free(f);
  gb_srec_free(p);
}

Test(records_pack_suite, a_study_archive_is_not_a_suite_one) {
  char dir[128], out[128];
  gb_err err;
  cr_assert_eq(sh("mkdir %s/study && cp " GB_TEST_DATA_DIR "/report-energy/* %s/study/"), 0);
  path_in(dir, sizeof dir, "study");
  path_in(out, sizeof out, "study.tar.gz");
  cr_assert_eq(gb_records_pack(dir, out, &err), 0, "%s", err.msg);
  cr_assert_not(gb_srec_is_suite_path(out));
  cr_assert_not(gb_srec_is_suite_path(dir));
  path_in(out, sizeof out, "nowhere.tar.gz");
  cr_assert_not(gb_srec_is_suite_path(out));
}

/* ---- Refusals of pack ------------------------------------------------------ */

static void refuse_pack(const char *setup_cmd, const char *want) {
  char dir[128], out[128];
  gb_err err;
  copy_fixture();
  cr_assert_eq(sh(setup_cmd), 0);
  path_in(dir, sizeof dir, "camp");
  path_in(out, sizeof out, "camp.tar.gz");
  cr_assert_lt(gb_records_pack(dir, out, &err), 0);
  cr_assert(strstr(err.msg, want), "message: %s", err.msg);
  cr_assert_eq(strchr(err.msg, '\n'), NULL);
  cr_assert_neq(access(out, F_OK), 0, "an archive was written");
  cr_assert_eq(sh("test -z \"$(ls %s | grep -v -x camp)\""), 0, "a temporary file left");
}

Test(records_pack_suite, refuses_rows_the_suite_reader_refuses) {
  refuse_pack("echo 'garbage' >> %s/camp/runs.csv", "runs.csv:");
}

Test(records_pack_suite, refuses_a_suite_json_changed_after_the_campaign) {
  refuse_pack("sed -i 's/\"synth\"/\"synth\" /' %s/camp/suite.json",
              "but suite.json's XXH128 is");
}

Test(records_pack_suite, refuses_a_suite_folder_without_suite_json) {
  refuse_pack("rm %s/camp/suite.json", "camp/suite.json: No such file or directory");
}

Test(records_pack_suite, refuses_a_study_folder_holding_a_suite_json) {
  char dir[128], out[128];
  gb_err err;
  cr_assert_eq(sh("mkdir %s/camp && cp " GB_TEST_DATA_DIR "/report-energy/* %s/camp/ && "
                  "cp " GB_TEST_DATA_DIR "/suite-synth/suite.json %s/camp/"),
               0);
  path_in(dir, sizeof dir, "camp");
  path_in(out, sizeof out, "camp.tar.gz");
  cr_assert_eq(gb_records_pack(dir, out, &err), -EINVAL);
  cr_assert(strstr(err.msg, "/camp holds suite.json, but its meta.json is a study campaign's "
                            "(not format greenbench-suite-records-1); a records folder holds "
                            "one campaign's records"),
            "%s", err.msg);
  cr_assert_neq(access(out, F_OK), 0, "an archive was written");
}

Test(records_pack_suite, refuses_another_subfolder) {
  refuse_pack("mkdir %s/camp/more", "camp/more is a folder");
}

Test(records_pack_suite, refuses_a_build_that_is_a_link) {
  refuse_pack("rm -r %s/camp/build && ln -s /tmp %s/camp/build",
              "camp/build is a symbolic link");
}

Test(records_pack_suite, refuses_a_study_folder_with_a_build_folder) {
  char dir[128], out[128];
  gb_err err;
  cr_assert_eq(sh("mkdir %s/camp && cp " GB_TEST_DATA_DIR "/report-energy/* %s/camp/ && "
                  "mkdir %s/camp/build"),
               0);
  path_in(dir, sizeof dir, "camp");
  path_in(out, sizeof out, "camp.tar.gz");
  cr_assert_eq(gb_records_pack(dir, out, &err), -EINVAL);
  cr_assert(strstr(err.msg, "camp/build is a folder"), "%s", err.msg);
}

/* ---- Refusals of the reader ------------------------------------------------ */

/* work/bad.tar.gz: camp packed, then repacked by tar with the files named
 * (after the manifest, made anew by xxhsum), less those the setup removed. */
static void repack(const char *setup_cmd, const char *want) {
  char path[128];
  gb_srec_records *r = NULL;
  gb_err err;
  copy_fixture();
  pack_camp();
  cr_assert_eq(sh("mkdir %s/x && tar -xzf %s/camp.tar.gz -C %s/x"), 0);
  cr_assert_eq(sh(setup_cmd), 0);
  cr_assert_eq(sh("cd %s/x/camp && rm MANIFEST.xxh128 && xxhsum -H2 $(ls) >../m && "
                  "mv ../m MANIFEST.xxh128 && cd .. && "
                  "tar --no-recursion -czf %s/bad.tar.gz camp/ camp/MANIFEST.xxh128 $(ls "
                  "camp/* | grep -v MANIFEST)"),
               0);
  path_in(path, sizeof path, "bad.tar.gz");
  cr_assert_lt(gb_srec_read_path(path, &r, &err), 0);
  cr_assert_null(r);
  cr_assert(strstr(err.msg, want), "message: %s", err.msg);
  cr_assert_eq(strchr(err.msg, '\n'), NULL);
}

Test(records_pack_suite, the_reader_refuses_an_archive_without_suite_json) {
  repack("rm %s/x/camp/suite.json", "bad.tar.gz: no camp/suite.json in the archive");
}

Test(records_pack_suite, the_reader_refuses_an_archive_without_warmups_csv) {
  repack("rm %s/x/camp/warmups.csv", "bad.tar.gz: no camp/warmups.csv in the archive");
}

Test(records_pack_suite, the_reader_refuses_rows_the_suite_reader_refuses) {
  repack("echo garbage >>%s/x/camp/runs.csv", "runs.csv:");
}

Test(records_pack_suite, the_reader_refuses_a_changed_suite_json) {
  repack("sed -i 's/\"synth\"/\"synth\" /' %s/x/camp/suite.json", "but suite.json's XXH128 is");
}

Test(records_pack_suite, the_reader_refuses_a_member_whose_checksum_differs) {
  char path[128];
  gb_srec_records *r = NULL;
  gb_err err;
  copy_fixture();
  pack_camp();
  /* suite.json changed after the manifest was made: the manifest catches it. */
  cr_assert_eq(
      sh("mkdir %s/x && tar -xzf %s/camp.tar.gz -C %s/x && cd %s/x && "
         "sed -i 's/\"synth\"/\"synth\" /' camp/suite.json && "
         "tar --no-recursion -czf %s/bad.tar.gz camp/ camp/MANIFEST.xxh128 camp/meta.json "
         "camp/runs.csv camp/suite.json camp/warmups.csv"),
      0);
  path_in(path, sizeof path, "bad.tar.gz");
  cr_assert_lt(gb_srec_read_path(path, &r, &err), 0);
  cr_assert(strstr(err.msg, "camp/suite.json: its XXH128 is not the one in MANIFEST.xxh128"),
            "%s", err.msg);
  cr_assert_not(gb_srec_is_suite_path(path));
}
