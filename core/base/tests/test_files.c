/* Whole-file reading and writing (greenbench/files.h): every byte written
 * through short writes, EINTR and injected failures, a full device and a
 * closed descriptor; small files read whole or refused; files replaced
 * whole or not at all, with no temporary file left behind. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base_internal.h"
#include "greenbench/files.h"

static char root[PATH_MAX];

/* snprintf into an array, which must hold the whole text. */
#define FMT(buf, ...) cr_assert_lt(snprintf(buf, sizeof buf, __VA_ARGS__), (int)sizeof buf)

static void make_root(void) {
  FMT(root, "%s/gb-files-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  cr_assert_not_null(mkdtemp(root));
}

static void remove_root(void) {
  char cmd[PATH_MAX + 16];
  FMT(cmd, "rm -rf '%s'", root);
  cr_assert_eq(system(cmd), 0);
}

TestSuite(files, .init = make_root, .fini = remove_root);

static void under_root(const char *rel, char *buf, size_t len) {
  cr_assert_lt(snprintf(buf, len, "%s/%s", root, rel), (int)len);
}

/* Creates root/rel holding len bytes of text. */
static void put(const char *rel, const char *text, size_t len) {
  char path[PATH_MAX];
  under_root(rel, path, sizeof path);
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f, "%s", path);
  cr_assert_eq(fwrite(text, 1, len, f), len);
  cr_assert_eq(fclose(f), 0);
}

/* The whole of root/rel, NUL-terminated (static storage). */
static const char *slurp(const char *rel) {
  static char text[4096];
  char path[PATH_MAX];
  under_root(rel, path, sizeof path);
  FILE *f = fopen(path, "r");
  cr_assert_not_null(f, "%s", path);
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  return text;
}

/* The names in root/rel other than . and .., sorted, space-separated. */
static const char *listing(const char *rel) {
  static char out[1024];
  char path[PATH_MAX];
  under_root(rel, path, sizeof path);
  struct dirent **ents;
  int n = scandir(path, &ents, NULL, alphasort);
  cr_assert_geq(n, 0, "%s", path);
  out[0] = '\0';
  for (int i = 0; i < n; i++) {
    if (strcmp(ents[i]->d_name, ".") && strcmp(ents[i]->d_name, ".."))
      snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s", out[0] ? " " : "",
               ents[i]->d_name);
    free(ents[i]);
  }
  free(ents);
  return out;
}

static int open_root(void) {
  int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  cr_assert_geq(fd, 0, "%s", root);
  return fd;
}

/* ---- gb_write_all ---------------------------------------------------------- */

/* A scripted write(2): at most `most` bytes per call, after `fail_after`
 * calls the error `fail_errno` (0: none), one EINTR before every other
 * call when `interrupt`, and 0 for "wrote nothing" when `zero`. */
typedef struct {
  char got[256];
  size_t len, most;
  int calls, fail_after, fail_errno;
  bool interrupt, zero, interrupted;
} script;

static ssize_t scripted(int fd, const void *buf, size_t len, void *ctx) {
  (void)fd;
  script *s = ctx;
  s->calls++;
  if (s->interrupt && !s->interrupted) {
    s->interrupted = true;
    errno = EINTR;
    return -1;
  }
  s->interrupted = false;
  if (s->fail_errno && s->calls > s->fail_after) {
    errno = s->fail_errno;
    return -1;
  }
  if (s->zero)
    return 0;
  size_t n = len < s->most ? len : s->most;
  memcpy(s->got + s->len, buf, n);
  s->len += n;
  return (ssize_t)n;
}

Test(write_all, goes_on_after_short_writes_and_eintr) {
  static const char text[] = "one row of a records file\n";
  script s = {.most = 3, .interrupt = true};
  cr_assert_eq(gb_write_all_with(scripted, &s, 7, text, sizeof text - 1), 0);
  cr_assert_eq(s.len, sizeof text - 1);
  cr_assert_eq(memcmp(s.got, text, s.len), 0);
  cr_assert_eq(s.calls, 2 * 9, "nine writes of at most 3 bytes, each after one EINTR");
  cr_assert_eq(gb_write_all_with(scripted, &s, 7, text, 0), 0, "nothing to write");
}

Test(write_all, returns_the_error_of_the_write_that_failed) {
  script s = {.most = 4, .fail_after = 2, .fail_errno = ENOSPC};
  cr_assert_eq(gb_write_all_with(scripted, &s, 7, "0123456789", 10), -ENOSPC);
  cr_assert_eq(s.len, 8, "the first two writes went through");
  script z = {.zero = true};
  cr_assert_eq(gb_write_all_with(scripted, &z, 7, "x", 1), -EIO, "a write of nothing");
  cr_assert_eq(z.calls, 1, "and no endless loop");
}

Test(write_all, a_full_device_and_a_closed_descriptor) {
  int fd = open("/dev/full", O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    cr_skip_test("no /dev/full: %s", strerror(errno));
  cr_assert_eq(gb_write_all(fd, "x", 1), -ENOSPC);
  close(fd);
  cr_assert_eq(gb_write_all(fd, "x", 1), -EBADF);
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig) {
  (void)sig;
  alarms++;
}

/* A real pipe drained slowly by a child while a timer interrupts the
 * writer, without SA_RESTART: write returns short counts or EINTR, and
 * every byte still arrives, in order. */
Test(write_all, a_pipe_interrupted_by_signals_gets_every_byte) {
  enum { TOTAL = 4 << 20 };
  int p[2];
  cr_assert_eq(pipe(p), 0);
  pid_t child = fork();
  cr_assert_geq(child, 0);
  if (child == 0) {
    close(p[1]);
    static unsigned char buf[65536];
    size_t got = 0;
    ssize_t n;
    bool in_order = true;
    while ((n = read(p[0], buf, sizeof buf)) != 0) {
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        _exit(2);
      for (ssize_t i = 0; i < n; i++)
        in_order &= buf[i] == (unsigned char)((got + (size_t)i) % 251);
      got += (size_t)n;
      usleep(200);
    }
    _exit(got == TOTAL && in_order ? 0 : 1);
  }
  close(p[0]);
  unsigned char *data = malloc(TOTAL);
  cr_assert_not_null(data);
  for (size_t i = 0; i < TOTAL; i++)
    data[i] = (unsigned char)(i % 251);
  struct sigaction sa = {.sa_handler = on_alarm}; /* no SA_RESTART */
  sigemptyset(&sa.sa_mask);
  cr_assert_eq(sigaction(SIGALRM, &sa, NULL), 0);
  struct itimerval every = {.it_interval = {0, 500}, .it_value = {0, 500}}, off = {0};
  cr_assert_eq(setitimer(ITIMER_REAL, &every, NULL), 0);
  int rc = gb_write_all(p[1], data, TOTAL);
  setitimer(ITIMER_REAL, &off, NULL);
  close(p[1]);
  free(data);
  int status;
  cr_assert_eq(waitpid(child, &status, 0), child);
  cr_assert_eq(rc, 0, "%s", strerror(-rc));
  cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
            "the reader got every byte in order");
  cr_assert_gt(alarms, 0, "the writer was interrupted");
}

/* ---- gb_read_small_file ---------------------------------------------------- */

Test(files, reads_a_small_file_whole_and_untrimmed) {
  char path[PATH_MAX], buf[16];
  size_t len = 99;
  gb_err err;
  put("energy_uj", "123456\n", 7);
  under_root("energy_uj", path, sizeof path);
  cr_assert_eq(gb_read_small_file(path, buf, sizeof buf, &len, &err), 0, "%s", err.msg);
  cr_assert_str_eq(buf, "123456\n");
  cr_assert_eq(len, 7);
  put("empty", "", 0);
  under_root("empty", path, sizeof path);
  cr_assert_eq(gb_read_small_file(path, buf, sizeof buf, &len, &err), 0, "%s", err.msg);
  cr_assert_str_eq(buf, "");
  cr_assert_eq(len, 0);
}

Test(files, junk_comes_back_as_it_is_for_the_caller_to_refuse) {
  char path[PATH_MAX], buf[16];
  size_t len;
  gb_err err;
  put("junk", "12\0x \xff\n", 7);
  under_root("junk", path, sizeof path);
  cr_assert_eq(gb_read_small_file(path, buf, sizeof buf, &len, &err), 0, "%s", err.msg);
  cr_assert_eq(len, 7, "a NUL inside counts");
  cr_assert_eq(memcmp(buf, "12\0x \xff\n", 8), 0, "and the NUL added after");
}

Test(files, a_file_that_fills_the_buffer_fits_and_one_byte_more_does_not) {
  char path[PATH_MAX], buf[8], want[sizeof(gb_err)];
  size_t len = 99;
  gb_err err;
  put("seven", "1234567", 7);
  under_root("seven", path, sizeof path);
  cr_assert_eq(gb_read_small_file(path, buf, sizeof buf, &len, &err), 0, "%s", err.msg);
  cr_assert_str_eq(buf, "1234567");
  put("eight", "12345678", 8);
  under_root("eight", path, sizeof path);
  len = 99;
  cr_assert_eq(gb_read_small_file(path, buf, sizeof buf, &len, &err), -EFBIG);
  FMT(want, "%s: more than 7 bytes", path);
  cr_assert_str_eq(err.msg, want);
  cr_assert_str_eq(buf, "", "never a file cut short");
  cr_assert_eq(len, 99, "*len is set only on success");
}

Test(files, a_missing_file_and_a_folder_are_refused_with_their_path) {
  char path[PATH_MAX], buf[16], want[sizeof(gb_err)];
  size_t len;
  gb_err err;
  under_root("missing", path, sizeof path);
  cr_assert_eq(gb_read_small_file(path, buf, sizeof buf, &len, &err), -ENOENT);
  FMT(want, "cannot open %s: %s", path, strerror(ENOENT));
  cr_assert_str_eq(err.msg, want);
  cr_assert_eq(gb_read_small_file(root, buf, sizeof buf, &len, &err), -EISDIR);
  FMT(want, "cannot read %s: %s", root, strerror(EISDIR));
  cr_assert_str_eq(err.msg, want);
  cr_assert_str_eq(buf, "");
  cr_assert_eq(gb_read_small_file(path, buf, sizeof buf, &len, NULL), -ENOENT,
               "err may be NULL");
}

Test(files, reads_a_real_procfs_file) {
  char buf[64];
  size_t len;
  gb_err err;
  if (access("/proc/sys/kernel/ostype", R_OK) != 0)
    cr_skip_test("no /proc/sys/kernel/ostype");
  cr_assert_eq(gb_read_small_file("/proc/sys/kernel/ostype", buf, sizeof buf, &len, &err), 0,
               "%s", err.msg);
  cr_assert_str_eq(buf, "Linux\n");
  cr_assert_eq(gb_read_small_file("/proc/sys/kernel/ostype", buf, 4, &len, &err), -EFBIG);
}

/* ---- Replacing a file -------------------------------------------------------- */

Test(files, a_file_is_written_then_replaced_with_no_temporary_file_left) {
  char path[PATH_MAX];
  gb_err err;
  under_root("results.md", path, sizeof path);
  cr_assert_eq(gbi_write_file_atomic(AT_FDCWD, path, "old\n", 4, 0644, &err), 0, "%s", err.msg);
  cr_assert_str_eq(slurp("results.md"), "old\n");
  cr_assert_eq(gbi_write_file_atomic(AT_FDCWD, path, "new\n", 4, 0644, &err), 0, "%s", err.msg);
  cr_assert_str_eq(slurp("results.md"), "new\n");
  cr_assert_str_eq(listing(""), "results.md");
  struct stat st;
  mode_t mask = umask(022);
  umask(mask);
  cr_assert_eq(stat(path, &st), 0);
  cr_assert_eq(st.st_mode & 0777, 0644 & ~mask, "the mode less the umask, as open(2) gives");
}

Test(files, relative_to_a_folder_descriptor) {
  int dirfd = open_root();
  gb_err err;
  cr_assert_eq(gbi_write_file_atomic(dirfd, "meta.json", "{}\n", 3, 0600, &err), 0, "%s",
               err.msg);
  cr_assert_str_eq(slurp("meta.json"), "{}\n");
  cr_assert_str_eq(listing(""), "meta.json");
  close(dirfd);
}

/* Writing root/rel fails with -code, the message names root/shown, and
 * root holds `left` after it. */
static void write_refused(const char *rel, int code, const char *shown, const char *left) {
  char path[PATH_MAX], want[sizeof(gb_err)];
  gb_err err;
  under_root(rel, path, sizeof path);
  cr_assert_eq(gbi_write_file_atomic(AT_FDCWD, path, "x", 1, 0644, &err), -code, "%s", rel);
  FMT(want, "cannot write %s/%s: %s", root, shown, strerror(code));
  cr_assert_str_eq(err.msg, want);
  cr_assert_str_eq(listing(""), left);
}

Test(files, a_missing_folder_is_refused_and_nothing_is_written) {
  write_refused("missing/results.md", ENOENT, "missing/results.md.tmp-XXXXXX", "");
}

/* Anything but a regular file at the target is refused before a temporary
 * file is made, and is still there, unchanged, afterwards. */
static void refused_target(const char *rel, const char *kind, mode_t type) {
  char path[PATH_MAX], want[sizeof(gb_err)];
  gb_replace r;
  gb_err err;
  under_root(rel, path, sizeof path);
  cr_assert_eq(gb_output_check(AT_FDCWD, path, &err), -EINVAL, "%s", rel);
  FMT(want, "%s: is %s; refusing to replace it (only a regular file is replaced)", path, kind);
  cr_assert_str_eq(err.msg, want);
  cr_assert_eq(gb_replace_begin(&r, AT_FDCWD, NULL, path, 0644, 0, &err), -EINVAL);
  cr_assert_str_eq(err.msg, want);
  gb_replace_abort(&r);
  cr_assert_eq(gbi_write_file_atomic(AT_FDCWD, path, "x", 1, 0644, &err), -EINVAL);
  struct stat st;
  cr_assert_eq(lstat(path, &st), 0);
  cr_assert_eq(st.st_mode & S_IFMT, type, "%s is what it was", rel);
  cr_assert_str_eq(listing(""), rel, "no temporary file beside it");
}

Test(files, a_folder_in_the_way_is_refused_and_nothing_is_made) {
  char path[PATH_MAX];
  under_root("junit.xml", path, sizeof path);
  cr_assert_eq(mkdir(path, 0755), 0);
  refused_target("junit.xml", "a folder", S_IFDIR);
}

Test(files, a_fifo_is_refused_not_replaced) {
  char path[PATH_MAX];
  under_root("fifo", path, sizeof path);
  cr_assert_eq(mkfifo(path, 0600), 0);
  refused_target("fifo", "a FIFO", S_IFIFO);
}

Test(files, a_symbolic_link_is_refused_not_replaced_nor_followed) {
  char path[PATH_MAX];
  under_root("stdout", path, sizeof path);
  cr_assert_eq(symlink("/proc/self/fd/1", path), 0);
  refused_target("stdout", "a symbolic link", S_IFLNK);
}

/* A character device needs root to make (mknod); the security label runs
 * this as root. A scratch node of /dev/null's numbers, never /dev itself. */
Test(files, a_character_device_is_refused_not_replaced) {
  char path[PATH_MAX];
  under_root("null", path, sizeof path);
  if (mknod(path, S_IFCHR | 0666, makedev(1, 3)) < 0)
    cr_skip_test("mknod needs root: %s", strerror(errno));
  refused_target("null", "a character device", S_IFCHR);
}

Test(files, a_target_that_appears_before_the_commit_is_refused) {
  char path[PATH_MAX];
  gb_replace r;
  gb_err err;
  under_root("out", path, sizeof path);
  cr_assert_eq(gb_replace_begin(&r, AT_FDCWD, NULL, path, 0644, 0, &err), 0, "%s", err.msg);
  cr_assert_eq(mkfifo(path, 0600), 0);
  cr_assert_eq(gb_replace_commit(&r, &err), -EINVAL);
  cr_assert(strstr(err.msg, "is a FIFO; refusing"), "%s", err.msg);
  cr_assert_str_eq(listing(""), "out", "the temporary file removed, the FIFO kept");
}

Test(files, a_dash_writes_to_standard_output_in_place) {
  char path[PATH_MAX];
  under_root("captured", path, sizeof path);
  fflush(stdout);
  int saved = dup(1), fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  cr_assert_geq(fd, 0);
  cr_assert_eq(dup2(fd, 1), 1);
  close(fd);
  gb_replace r;
  gb_err err;
  cr_assert(gb_output_is_stdout("-"));
  cr_assert_eq(gb_output_check(AT_FDCWD, "-", &err), 0);
  int rc = gb_replace_begin(&r, AT_FDCWD, NULL, "-", 0644, 0, &err);
  if (rc == 0)
    rc = gb_write_all(r.fd, "to stdout\n", 10);
  if (rc == 0)
    rc = gb_replace_commit(&r, &err);
  gb_replace_abort(&r);
  dup2(saved, 1);
  close(saved);
  cr_assert_eq(rc, 0, "%s", err.msg);
  cr_assert_str_eq(slurp("captured"), "to stdout\n");
  cr_assert_str_eq(listing(""), "captured", "no file named '-' and no temporary file");
}

/* A write that fails half-way (here the file size limit, EFBIG, standing in
 * for a full disk) leaves the old file as it was. */
Test(files, a_failed_write_leaves_the_old_file) {
  char path[PATH_MAX], want[sizeof(gb_err)];
  gb_err err;
  under_root("meta.json", path, sizeof path);
  cr_assert_eq(gbi_write_file_atomic(AT_FDCWD, path, "old\n", 4, 0644, &err), 0, "%s", err.msg);
  signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = {.rlim_cur = 16, .rlim_max = RLIM_INFINITY};
  cr_assert_eq(setrlimit(RLIMIT_FSIZE, &small), 0);
  static const char big[64] = "a new meta.json that is longer than sixteen bytes";
  int rc = gbi_write_file_atomic(AT_FDCWD, path, big, sizeof big, 0644, &err);
  struct rlimit none = {.rlim_cur = RLIM_INFINITY, .rlim_max = RLIM_INFINITY};
  setrlimit(RLIMIT_FSIZE, &none);
  cr_assert_eq(rc, -EFBIG);
  FMT(want, "cannot write %s: %s", path, strerror(EFBIG));
  cr_assert_str_eq(err.msg, want);
  cr_assert_str_eq(slurp("meta.json"), "old\n");
  cr_assert_str_eq(listing(""), "meta.json");
}

Test(files, a_set_is_flushed_first_and_committed_after) {
  int dirfd = open_root();
  gb_replace r[2];
  const char *names[2] = {"a.md", "b.svg"};
  gb_err err;
  for (int i = 0; i < 2; i++) {
    cr_assert_eq(gb_replace_begin(&r[i], dirfd, root, names[i], 0644, 0, &err), 0, "%s",
                 err.msg);
    cr_assert_eq(strncmp(r[i].tmp, names[i], strlen(names[i])), 0);
    cr_assert_eq(strlen(r[i].tmp), strlen(names[i]) + strlen(".tmp-XXXXXX"), "%s", r[i].tmp);
    cr_assert_eq(gb_write_all(r[i].fd, names[i], strlen(names[i])), 0);
  }
  for (int i = 0; i < 2; i++)
    cr_assert_eq(gb_replace_flush(&r[i], &err), 0, "%s", err.msg);
  cr_assert_eq(gb_replace_flush(&r[0], &err), 0, "a second flush does nothing");
  char placed[PATH_MAX];
  under_root("a.md", placed, sizeof placed);
  cr_assert_neq(access(placed, F_OK), 0, "nothing is in place before the commits");
  for (int i = 0; i < 2; i++)
    cr_assert_eq(gb_replace_commit(&r[i], &err), 0, "%s", err.msg);
  cr_assert_str_eq(listing(""), "a.md b.svg");
  cr_assert_str_eq(slurp("b.svg"), "b.svg");
  gb_replace_abort(&r[0]);
  cr_assert_str_eq(listing(""), "a.md b.svg", "an abort after the commit changes nothing");
  close(dirfd);
}

Test(files, an_abort_removes_the_temporary_file_and_keeps_the_old_one) {
  int dirfd = open_root();
  put("meta.json", "old\n", 4);
  gb_replace r;
  gb_err err;
  cr_assert_eq(gb_replace_begin(&r, dirfd, root, "meta.json", 0644, 0, &err), 0, "%s", err.msg);
  cr_assert_eq(gb_write_all(r.fd, "new\n", 4), 0);
  gb_replace_abort(&r);
  gb_replace_abort(&r);
  cr_assert_str_eq(listing(""), "meta.json");
  cr_assert_str_eq(slurp("meta.json"), "old\n");
  close(dirfd);
}

Test(files, messages_name_the_folder_as_shown) {
  int dirfd = open_root();
  gb_replace r;
  gb_err err;
  cr_assert_eq(gb_replace_begin(&r, dirfd, "out", "missing/meta.json", 0644, 0, &err), -ENOENT);
  char want[sizeof(gb_err)];
  FMT(want, "cannot write out/missing/meta.json.tmp-XXXXXX: %s", strerror(ENOENT));
  cr_assert_str_eq(err.msg, want);
  cr_assert_str_eq(r.tmp, "missing/meta.json.tmp-XXXXXX", "the temporary file is named");
  gb_replace_abort(&r);
  cr_assert_eq(gb_replace_begin(&r, dirfd, "out", "missing/meta.json", 0644,
                                GB_REPLACE_OWN_FOLDER, &err),
               -ENOENT);
  FMT(want, "cannot write out/missing/meta.json.tmp: %s", strerror(ENOENT));
  cr_assert_str_eq(err.msg, want);
  close(dirfd);
}

/* In a folder of its own the temporary name is fixed, and whatever has it
 * (a crash's leftover, a planted link) is removed, never followed. */
Test(files, an_own_folder_removes_a_planted_link_and_never_follows_it) {
  char secret[PATH_MAX], link_path[PATH_MAX], out[PATH_MAX];
  put("secret", "secret\n", 7);
  under_root("out", out, sizeof out);
  cr_assert_eq(mkdir(out, 0755), 0);
  under_root("secret", secret, sizeof secret);
  under_root("out/meta.json.tmp", link_path, sizeof link_path);
  cr_assert_eq(symlink(secret, link_path), 0);
  int dirfd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  cr_assert_geq(dirfd, 0);
  gb_replace r;
  gb_err err;
  cr_assert_eq(gb_replace_begin(&r, dirfd, out, "meta.json", 0644, GB_REPLACE_OWN_FOLDER, &err),
               0, "%s", err.msg);
  cr_assert_str_eq(r.tmp, "meta.json.tmp");
  cr_assert_eq(gb_write_all(r.fd, "{}\n", 3), 0);
  cr_assert_eq(gb_replace_commit(&r, &err), 0, "%s", err.msg);
  cr_assert_str_eq(slurp("secret"), "secret\n", "the link was not followed");
  cr_assert_str_eq(listing("out"), "meta.json");
  cr_assert_str_eq(slurp("out/meta.json"), "{}\n");
  close(dirfd);
}

Test(files, a_name_too_long_is_refused) {
  static char name[PATH_MAX];
  memset(name, 'n', sizeof name - 8);
  gb_replace r;
  gb_err err;
  cr_assert_eq(gb_replace_begin(&r, AT_FDCWD, NULL, name, 0644, 0, &err), -ENAMETOOLONG);
  cr_assert_eq(strspn(err.msg, "n"), sizeof err.msg - 1, "the name, cut to the message's room");
  gb_replace_abort(&r);
}
