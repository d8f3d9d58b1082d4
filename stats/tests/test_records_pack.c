/* Packing a records folder (greenbench pack) and reading it back
 * (gb_records_read_path): a round trip byte for byte, the same bytes twice,
 * and every refusal, on archives built here with libarchive. */
#include <archive.h>
#include <archive_entry.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "greenbench/records_pack.h"
#include "helper_report.h"
#include "records_internal.h"

static char work[64];

static void setup(void) {
  snprintf(work, sizeof work, "/tmp/gb-test-pack-XXXXXX");
  cr_assert(mkdtemp(work));
}

static void teardown(void) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", work);
  cr_assert_eq(system(cmd), 0);
}

TestSuite(records_pack, .init = setup, .fini = teardown);

/* work/camp: a copy of the report-energy fixture. */
static void copy_fixture(void) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "mkdir '%s/camp' && cp '%s/report-energy/'* '%s/camp/'", work,
           GB_TEST_DATA_DIR, work);
  cr_assert_eq(system(cmd), 0);
}

static int sh(const char *fmt, const char *a) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, fmt, a, a, a, a);
  return system(cmd);
}

static void path_in(char *buf, size_t len, const char *name) {
  snprintf(buf, len, "%s/%s", work, name);
}

Test(records_pack, round_trips_byte_for_byte_and_xxhsum_checks_it) {
  char dir[128], out[128];
  gb_err err;
  copy_fixture();
  path_in(dir, sizeof dir, "camp");
  path_in(out, sizeof out, "camp.tar.gz");
  cr_assert_eq(gb_records_pack(dir, out, &err), 0, "%s", err.msg);
  /* The folder, then the manifest first, for the reader to check as it reads. */
  cr_assert_eq(
      sh("test \"$(tar -tzf %s/camp.tar.gz | sed -n 2p)\" = camp/MANIFEST.xxh128", work), 0);
  cr_assert_eq(sh("mkdir %s/x && tar -xzf %s/camp.tar.gz -C %s/x && cd %s/x/camp && "
                  "for f in meta.json runs.csv warmups.csv; do cmp ../../camp/$f $f || exit 1; "
                  "done",
                  work),
               0);
  cr_assert_eq(sh("cd %s/x/camp && xxhsum -c MANIFEST.xxh128 >/dev/null && "
                  "test \"$(ls | wc -l)\" = 4",
                  work),
               0);
}

Test(records_pack, packs_the_same_bytes_twice) {
  char dir[128], a[128], b[128];
  gb_err err;
  copy_fixture();
  path_in(dir, sizeof dir, "camp/");
  path_in(a, sizeof a, "a.tar.gz");
  path_in(b, sizeof b, "b.tar.gz");
  cr_assert_eq(gb_records_pack(dir, a, &err), 0, "%s", err.msg);
  sleep(1); /* a clock in the archive would show */
  cr_assert_eq(gb_records_pack(dir, b, &err), 0, "%s", err.msg);
  cr_assert_eq(sh("cmp %s/a.tar.gz %s/b.tar.gz", work), 0);
}

Test(records_pack, reads_the_packed_records_as_the_folder) {
  char dir[128], out[128];
  gb_records *f = NULL, *p = NULL;
  gb_err err;
  copy_fixture();
  path_in(dir, sizeof dir, "camp");
  path_in(out, sizeof out, "camp.tar.gz");
  cr_assert_eq(gb_records_pack(dir, out, &err), 0, "%s", err.msg);
  cr_assert_eq(gb_records_read_path(dir, &f, &err), 0, "%s", err.msg);
  cr_assert_eq(gb_records_read_path(out, &p, &err), 0, "%s", err.msg);
  cr_assert_eq(p->runs.n_rows, f->runs.n_rows);
  cr_assert_eq(p->warmups.n_rows, f->warmups.n_rows);
  cr_assert_eq(memcmp(p->runs.rows, f->runs.rows, f->runs.n_rows * sizeof *f->runs.rows), 0);
  cr_assert_str_eq(p->meta.finished_at, f->meta.finished_at);
  gb_records_free(f);
  gb_records_free(p);
  cr_assert_eq(sh("test -z \"$(ls %s | grep -v -e camp)\"", work), 0);
}

/* ---- Refusals of pack ------------------------------------------------------- */

static void refuse_pack(const char *setup_cmd, const char *want) {
  char dir[128], out[128];
  gb_err err;
  copy_fixture();
  cr_assert_eq(sh(setup_cmd, work), 0);
  path_in(dir, sizeof dir, "camp");
  path_in(out, sizeof out, "camp.tar.gz");
  cr_assert_lt(gb_records_pack(dir, out, &err), 0);
  cr_assert(strstr(err.msg, want), "message: %s", err.msg);
  cr_assert_neq(access(out, F_OK), 0, "an archive was written");
  cr_assert_eq(sh("test -z \"$(ls %s | grep -v -x camp)\"", work), 0, "a temporary file left");
}

Test(records_pack, refuses_a_folder_without_meta_json) {
  refuse_pack("rm %s/camp/meta.json", "camp is not a records folder (no meta.json)");
}

Test(records_pack, refuses_a_subfolder) {
  refuse_pack("mkdir %s/camp/more", "camp/more is a folder");
}

Test(records_pack, refuses_a_symbolic_link) {
  refuse_pack("ln -s /etc/passwd %s/camp/notes.txt", "camp/notes.txt is a symbolic link");
}

Test(records_pack, refuses_a_fifo) {
  refuse_pack("mkfifo %s/camp/pipe", "camp/pipe is a FIFO");
}

Test(records_pack, refuses_records_the_reader_refuses) {
  refuse_pack("echo 'garbage' >> %s/camp/runs.csv", "runs.csv");
}

Test(records_pack, refuses_an_out_inside_the_folder) {
  char dir[128], out[128];
  gb_err err;
  copy_fixture();
  path_in(dir, sizeof dir, "camp");
  path_in(out, sizeof out, "camp/camp.tar.gz");
  cr_assert_eq(gb_records_pack_check_out(dir, out, &err), -EINVAL);
  cr_assert(strstr(err.msg, "is inside"), "%s", err.msg);
}

/* A 100 GB sparse file is refused from its size (fstat) before a byte of
 * it is read, at once. */
Test(records_pack, refuses_a_huge_sparse_file_from_its_size) {
  char dir[128], out[128], big[160];
  gb_err err;
  copy_fixture();
  path_in(dir, sizeof dir, "camp");
  path_in(out, sizeof out, "camp.tar.gz");
  snprintf(big, sizeof big, "%s/huge.bin", dir);
  if (truncate(big, 0) < 0) {
    FILE *f = fopen(big, "w");
    cr_assert(f);
    fclose(f);
  }
  cr_assert_eq(truncate(big, 100000000000LL), 0);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  cr_assert_eq(gb_records_pack(dir, out, &err), -EFBIG);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  cr_assert_lt(t1.tv_sec - t0.tv_sec, 2, "refused at once");
  cr_assert(strstr(err.msg, "huge.bin: larger than 256 MiB"), "%s", err.msg);
  cr_assert_neq(access(out, F_OK), 0, "no archive written");
}

/* ---- Refusals of the reader ---------------------------------------------- */

typedef struct {
  const char *path;
  const char *data; /* NULL: a folder */
  int type;         /* 0: AE_IFREG or AE_IFDIR by data */
} member_spec;

/* work/bad.tar.gz with these members. */
static void build(const member_spec *m, size_t n, char *out, size_t len) {
  path_in(out, len, "bad.tar.gz");
  struct archive *a = archive_write_new();
  cr_assert_eq(archive_write_set_format_pax_restricted(a), ARCHIVE_OK);
  cr_assert_eq(archive_write_add_filter_gzip(a), ARCHIVE_OK);
  cr_assert_eq(archive_write_open_filename(a, out), ARCHIVE_OK);
  for (size_t i = 0; i < n; i++) {
    struct archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, m[i].path);
    archive_entry_set_filetype(e, m[i].type   ? (unsigned)m[i].type
                                  : m[i].data ? AE_IFREG
                                              : AE_IFDIR);
    if (m[i].type == AE_IFLNK)
      archive_entry_set_symlink(e, "/etc/passwd");
    archive_entry_set_perm(e, 0644);
    archive_entry_set_size(e, m[i].data && !m[i].type ? (la_int64_t)strlen(m[i].data) : 0);
    cr_assert_eq(archive_write_header(a, e), ARCHIVE_OK, "%s", archive_error_string(a));
    if (m[i].data && !m[i].type)
      archive_write_data(a, m[i].data, strlen(m[i].data));
    archive_entry_free(e);
  }
  cr_assert_eq(archive_write_close(a), ARCHIVE_OK);
  archive_write_free(a);
}

/* "<XXH128 of s>  name\n". */
static void line_for(const char *name, const char *s, char *out, size_t len) {
  XXH128_canonical_t c;
  char hex[GB_PACK_HEX_LEN + 1];
  XXH128_canonicalFromHash(&c, XXH3_128bits(s, strlen(s)));
  gbi_pack_hex(c.digest, hex);
  snprintf(out, len, "%s  %s\n", hex, name);
}

static void refuse_read(const member_spec *m, size_t n, const gbi_pack_limits *lim,
                        const char *want) {
  char path[128];
  gb_records *r = NULL;
  gb_err err;
  build(m, n, path, sizeof path);
  int rc = lim ? gbi_records_read_archive(path, lim, &r, &err)
               : gb_records_read_path(path, &r, &err);
  cr_assert_lt(rc, 0);
  cr_assert_null(r);
  cr_assert(strstr(err.msg, want), "message: %s", err.msg);
  cr_assert_eq(strchr(err.msg, '\n'), NULL);
}

Test(records_pack, refuses_a_member_whose_checksum_differs) {
  char manifest[256];
  line_for("notes.txt", "what was packed", manifest, sizeof manifest);
  member_spec m[] = {
      {"c/", NULL, 0}, {"c/MANIFEST.xxh128", manifest, 0}, {"c/notes.txt", "what is read", 0}};
  refuse_read(m, 3, NULL, "c/notes.txt: its XXH128 is not the one in MANIFEST.xxh128");
}

Test(records_pack, refuses_a_member_the_manifest_does_not_list) {
  char manifest[256];
  line_for("a.txt", "a", manifest, sizeof manifest);
  member_spec m[] = {
      {"c/MANIFEST.xxh128", manifest, 0}, {"c/a.txt", "a", 0}, {"c/b.txt", "b", 0}};
  refuse_read(m, 3, NULL, "c/b.txt: a member MANIFEST.xxh128 does not list");
}

Test(records_pack, refuses_a_manifest_entry_without_member) {
  char manifest[256], more[128];
  line_for("a.txt", "a", manifest, sizeof manifest);
  line_for("gone.txt", "b", more, sizeof more);
  strcat(manifest, more);
  member_spec m[] = {{"c/MANIFEST.xxh128", manifest, 0}, {"c/a.txt", "a", 0}};
  refuse_read(m, 2, NULL, "c/MANIFEST.xxh128 lists gone.txt, which the archive does not hold");
}

Test(records_pack, refuses_an_archive_without_manifest) {
  member_spec m[] = {{"c/a.txt", "a", 0}};
  refuse_read(m, 1, NULL, "no c/MANIFEST.xxh128");
}

Test(records_pack, refuses_a_path_with_dot_dot) {
  member_spec m[] = {{"c/", NULL, 0}, {"../x", "evil", 0}};
  refuse_read(m, 2, NULL, "../x: a path with '..'");
  member_spec n[] = {{"c/../../x", "evil", 0}};
  refuse_read(n, 1, NULL, "c/../../x: a path with '..'");
}

Test(records_pack, refuses_an_absolute_path) {
  member_spec m[] = {{"/tmp/x", "evil", 0}};
  refuse_read(m, 1, NULL, "/tmp/x: an absolute path");
}

Test(records_pack, refuses_two_top_folders) {
  char manifest[256];
  line_for("b.txt", "b", manifest, sizeof manifest);
  member_spec m[] = {{"c/MANIFEST.xxh128", manifest, 0}, {"d/b.txt", "b", 0}};
  refuse_read(m, 2, NULL, "d/b.txt: more than one top folder (c and another)");
}

Test(records_pack, refuses_a_manifest_that_is_not_the_first_file) {
  char manifest[256];
  line_for("a.txt", "a", manifest, sizeof manifest);
  member_spec m[] = {{"c/", NULL, 0}, {"c/a.txt", "a", 0}, {"c/MANIFEST.xxh128", manifest, 0}};
  refuse_read(m, 3, NULL, "no c/MANIFEST.xxh128 before c/a.txt");
}

Test(records_pack, refuses_a_nul_byte_inside_a_manifest_name) {
  char manifest[256], path[128];
  line_for("a.txt", "a", manifest, sizeof manifest);
  /* "<hash>  a.txt\0x\n": strcmp would stop at the NUL and match a.txt. */
  size_t len = strlen(manifest);
  memcpy(manifest + len - 1, "\0x\n", 4);
  len += 2;
  path_in(path, sizeof path, "bad.tar.gz");
  struct archive *a = archive_write_new();
  cr_assert_eq(archive_write_set_format_pax_restricted(a), ARCHIVE_OK);
  cr_assert_eq(archive_write_add_filter_gzip(a), ARCHIVE_OK);
  cr_assert_eq(archive_write_open_filename(a, path), ARCHIVE_OK);
  const char *names[] = {"c/MANIFEST.xxh128", "c/a.txt"}, *data[] = {manifest, "a"};
  size_t sizes[] = {len, 1};
  for (int i = 0; i < 2; i++) {
    struct archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, names[i]);
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_size(e, (la_int64_t)sizes[i]);
    cr_assert_eq(archive_write_header(a, e), ARCHIVE_OK);
    cr_assert_eq(archive_write_data(a, data[i], sizes[i]), (la_ssize_t)sizes[i]);
    archive_entry_free(e);
  }
  cr_assert_eq(archive_write_close(a), ARCHIVE_OK);
  archive_write_free(a);
  gb_records *r = NULL;
  gb_err err;
  cr_assert_lt(gb_records_read_path(path, &r, &err), 0);
  cr_assert(strstr(err.msg, "c/MANIFEST.xxh128:1: not a '<XXH128>  <name>' line"), "%s",
            err.msg);
}

Test(records_pack, refuses_a_subfolder_and_a_link) {
  member_spec m[] = {{"c/sub/a.txt", "a", 0}};
  refuse_read(m, 1, NULL, "c/sub/a.txt: not a file in the top folder");
  member_spec n[] = {{"c/l", "", AE_IFLNK}};
  refuse_read(n, 1, NULL, "c/l: not a file or the folder");
}

Test(records_pack, refuses_a_member_too_large) {
  char manifest[256], more[128];
  line_for("a.txt", "ab", manifest, sizeof manifest);
  line_for("b.txt", "cd", more, sizeof more);
  strcat(manifest, more);
  gbi_pack_limits lim = gbi_pack_default_limits;
  lim.max_total = strlen(manifest) + 3;
  member_spec m[] = {
      {"c/MANIFEST.xxh128", manifest, 0}, {"c/a.txt", "ab", 0}, {"c/b.txt", "cd", 0}};
  char want[128];
  snprintf(want, sizeof want, "c/b.txt: too large (more than %zu bytes in all)",
           (size_t)lim.max_total);
  refuse_read(m, 3, &lim, want);
  /* One member larger than the cap of one, though all fit the total. */
  static char big[200];
  memset(big, 'x', sizeof big - 1);
  line_for("a.txt", "ab", manifest, sizeof manifest);
  line_for("b.txt", big, more, sizeof more);
  strcat(manifest, more);
  lim = gbi_pack_default_limits;
  lim.max_member = strlen(manifest);
  member_spec n[] = {
      {"c/MANIFEST.xxh128", manifest, 0}, {"c/a.txt", "ab", 0}, {"c/b.txt", big, 0}};
  snprintf(want, sizeof want, "c/b.txt: too large (more than %zu bytes in one member)",
           strlen(manifest));
  refuse_read(n, 3, &lim, want);
}

/* work/bomb.tar.gz: a tar whose one member's header says `size` bytes,
 * followed by 64 KiB of its zeros and cut short there (the reader must
 * refuse from the header alone), with a manifest first when asked, gzipped
 * `layers` times. Built with Python's tarfile and gzip. */
static void build_bomb(const char *size, bool manifest, int layers, char *out, size_t len) {
  path_in(out, len, "bomb.tar.gz");
  char cmd[2048];
  snprintf(cmd, sizeof cmd,
           "python3 -c 'import gzip,io,sys,tarfile\n"
           "b=io.BytesIO()\n"
           "def add(n,s):\n"
           " t=tarfile.TarInfo(n);t.size=s;b.write(t.tobuf(format=tarfile.GNU_FORMAT))\n"
           "if %d:\n"
           " m=b\"0\"*32+b\"  big.bin\\n\";add(\"c/MANIFEST.xxh128\",len(m));"
           "b.write(m+bytes(512-len(m)))\n"
           "add(\"c/big.bin\",%s);b.write(bytes(65536))\n"
           "d=b.getvalue()\n"
           "for i in range(%d): d=gzip.compress(d)\n"
           "open(sys.argv[1],\"wb\").write(d)' '%s'",
           manifest ? 1 : 0, size, layers, out);
  cr_assert_eq(system(cmd), 0, "%s", cmd);
}

/* A bomb is refused at once, with nothing written anywhere: the caps come
 * from the header, and a second gzip layer is refused before any member. */
static void refuse_bomb(const char *size, bool manifest, int layers, const char *want) {
  char path[128], tmp[128], cmd[512];
  build_bomb(size, manifest, layers, path, sizeof path);
  path_in(tmp, sizeof tmp, "tmp");
  cr_assert_eq(mkdir(tmp, 0700), 0);
  setenv("TMPDIR", tmp, 1);
  gb_records *r = NULL;
  gb_err err;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  cr_assert_lt(gb_records_read_path(path, &r, &err), 0);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  unsetenv("TMPDIR");
  double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
  cr_assert_lt(s, 1.0, "refused after %.2f s", s);
  cr_assert(strstr(err.msg, want), "%s", err.msg);
  snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s')\" && rmdir '%s'", tmp, tmp);
  cr_assert_eq(system(cmd), 0, "nothing written to TMPDIR");
}

Test(records_pack, refuses_a_4_gib_member_from_its_header) {
  refuse_bomb("4<<30", true, 1,
              "c/big.bin: too large (more than 268435456 bytes in one member)");
  refuse_bomb("4<<30", false, 1,
              "c/big.bin: too large (more than 268435456 bytes in one member)");
}

Test(records_pack, refuses_two_gzip_layers_before_any_member) {
  refuse_bomb("4<<30", false, 2, "a .tar.gz has exactly one gzip layer, this has 2 filter(s)");
  refuse_bomb("1", true, 2, "exactly one gzip layer");
}

Test(records_pack, refuses_a_tar_without_gzip) {
  refuse_bomb("1", true, 0, "exactly one gzip layer, this has 0 filter(s)");
}

Test(records_pack, refuses_a_flipped_byte_in_the_archive) {
  char dir[128], out[128];
  gb_records *r = NULL;
  gb_err err;
  copy_fixture();
  path_in(dir, sizeof dir, "camp");
  path_in(out, sizeof out, "camp.tar.gz");
  cr_assert_eq(gb_records_pack(dir, out, &err), 0, "%s", err.msg);
  struct stat st;
  cr_assert_eq(stat(out, &st), 0);
  /* Bytes across the compressed stream: each is caught by inflate, a tar
   * header's checksum or the manifest. */
  for (int k = 1; k < 8; k++) {
    size_t len;
    char *buf = gbt_slurp(out, &len);
    cr_assert(buf);
    buf[(size_t)st.st_size * (size_t)k / 8] ^= 0x01;
    char bad[128];
    path_in(bad, sizeof bad, "bad.tar.gz");
    FILE *f = fopen(bad, "wb");
    cr_assert(f);
    cr_assert_eq(fwrite(buf, 1, len, f), len);
    fclose(f);
    free(buf);
    cr_assert_lt(gb_records_read_path(bad, &r, &err), 0, "byte %d/8 not caught", k);
    cr_assert(strstr(err.msg, "bad.tar.gz"), "%s", err.msg);
  }
}
