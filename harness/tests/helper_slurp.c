#include "helper_slurp.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

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
