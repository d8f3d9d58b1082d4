#include "scratch.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void parity_scratch_dir(char dir[PARITY_PATH_MAX]) {
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, PARITY_PATH_MAX, "%s/greenbench-parity-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  cr_assert(mkdtemp(dir), "cannot create a scratch folder %s: %s", dir, strerror(errno));
}

void parity_scratch_write(const char *dir, const char *name, const void *data, size_t len,
                          char path[PARITY_PATH_MAX]) {
  snprintf(path, PARITY_PATH_MAX, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  cr_assert(f, "cannot create %s: %s", path, strerror(errno));
  size_t put = fwrite(data, 1, len, f);
  cr_assert(fclose(f) == 0 && put == len, "cannot write %s", path);
}

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  cr_assert(f, "cannot open %s: %s", path, strerror(errno));
  size_t len = 0, cap = 1 << 16;
  char *s = malloc(cap);
  size_t got;
  while (s && (got = fread(s + len, 1, cap - len - 1, f)) > 0) {
    len += got;
    if (cap - len - 1 == 0)
      s = realloc(s, cap *= 2);
  }
  cr_assert(s && !ferror(f), "cannot read %s", path);
  fclose(f);
  s[len] = '\0';
  cr_assert_eq(strlen(s), len, "%s holds a NUL byte", path);
  return s;
}

char *parity_patched_text(const char *src, const char *from, const char *to) {
  char *text = read_text(src);
  char *at = strstr(text, from);
  cr_assert(at, "the patch text \"%s\" is not in %s any more: update the test", from, src);
  cr_assert(!strstr(at + 1, from), "the patch text \"%s\" is in %s more than once", from, src);
  size_t head = (size_t)(at - text), tail = strlen(at + strlen(from));
  char *out = malloc(head + strlen(to) + tail + 1);
  cr_assert(out);
  memcpy(out, text, head);
  memcpy(out + head, to, strlen(to));
  memcpy(out + head + strlen(to), at + strlen(from), tail + 1);
  free(text);
  return out;
}

void parity_scratch_remove(const char *dir) {
  DIR *d = opendir(dir);
  if (!d)
    return;
  char path[PARITY_PATH_MAX];
  for (struct dirent *e = readdir(d); e; e = readdir(d))
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      unlink(path);
    }
  closedir(d);
  rmdir(dir);
}
