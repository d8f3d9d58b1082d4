#include "helper_slurp.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *gbt_slurp(const char *dir, const char *name, size_t *len) {
  char path[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *fp = fopen(path, "rb");
  cr_assert_not_null(fp, "%s", path);
  char *buf = malloc(1 << 20);
  cr_assert_not_null(buf);
  *len = fread(buf, 1, (1 << 20) - 1, fp);
  buf[*len] = '\0';
  fclose(fp);
  return buf;
}

void gbt_spit(const char *dir, const char *name, const char *text, size_t len) {
  char path[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *fp = fopen(path, "wb");
  cr_assert_not_null(fp, "%s", path);
  cr_assert_eq(fwrite(text, 1, len, fp), len);
  fclose(fp);
}

static const char *const files[3] = {"meta.json", "runs.csv", "warmups.csv"};

gbt_snapshot gbt_snapshot_take(const char *dir) {
  gbt_snapshot s;
  for (int i = 0; i < 3; i++)
    s.text[i] = gbt_slurp(dir, files[i], &s.len[i]);
  return s;
}

void gbt_snapshot_same(const char *dir, gbt_snapshot *before) {
  gbt_snapshot after = gbt_snapshot_take(dir);
  for (int i = 0; i < 3; i++) {
    cr_assert_eq(after.len[i], before->len[i], "%s changed", files[i]);
    cr_assert_eq(memcmp(after.text[i], before->text[i], after.len[i]), 0, "%s changed",
                 files[i]);
  }
  gbt_snapshot_free(&after);
  gbt_snapshot_free(before);
}

void gbt_snapshot_free(gbt_snapshot *s) {
  for (int i = 0; i < 3; i++) {
    free(s->text[i]);
    s->text[i] = NULL;
  }
}
