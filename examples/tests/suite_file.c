#include "suite_file.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

cJSON *ex_suite_load(void) {
  const char *path = EXAMPLES_SOURCE_DIR "/nbody.json";
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "cannot open %s", path);
  static char text[1 << 16];
  size_t len = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  cr_assert_lt(len, sizeof text - 1, "%s is larger than the test reads", path);
  text[len] = '\0';
  cJSON *suite = cJSON_Parse(text);
  cr_assert_not_null(suite, "%s is not JSON", path);
  return suite;
}

static const cJSON *named(const cJSON *list, const char *name) {
  const cJSON *item;
  cJSON_ArrayForEach(item, list) {
    const char *n = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "name"));
    if (n && strcmp(n, name) == 0)
      return item;
  }
  return NULL;
}

const cJSON *ex_suite_workload(const cJSON *suite, const char *name) {
  return named(cJSON_GetObjectItemCaseSensitive(suite, "workloads"), name);
}

const cJSON *ex_suite_language(const cJSON *suite, const char *name) {
  return named(cJSON_GetObjectItemCaseSensitive(suite, "languages"), name);
}

/* s with each placeholder filled in, into out. */
static void fill(const char *s, char *out, size_t len, const char *builddir,
                 const char *workload, long n, long reps) {
  char num[32];
  size_t used = 0;
  out[0] = '\0';
  while (*s) {
    const char *close = *s == '{' ? strchr(s, '}') : NULL;
    const char *value = NULL;
    if (!close) {
      cr_assert(*s != '{' && *s != '}', "template text %s: a lone brace", s);
      used += (size_t)snprintf(out + used, len - used, "%c", *s++);
      continue;
    }
    size_t name_len = (size_t)(close - s) + 1;
    if (strncmp(s, "{suitedir}", name_len) == 0)
      value = EXAMPLES_SOURCE_DIR;
    else if (strncmp(s, "{builddir}", name_len) == 0)
      value = builddir;
    else if (strncmp(s, "{workload}", name_len) == 0)
      value = workload;
    else if (strncmp(s, "{n}", name_len) == 0)
      value = num, snprintf(num, sizeof num, "%ld", n);
    else if (strncmp(s, "{reps}", name_len) == 0 && reps >= 0)
      value = num, snprintf(num, sizeof num, "%ld", reps);
    cr_assert_not_null(value, "template text %s: a placeholder the example suite must not use",
                       s);
    used += (size_t)snprintf(out + used, len - used, "%s", value);
    s = close + 1;
  }
  cr_assert_lt(used, len, "a filled-in template is too long");
}

/* The first word of a command, looked up on PATH when it has no slash. */
static void program(parity_run *r, const char *word) {
  if (strchr(word, '/')) {
    parity_arg(r, word);
    return;
  }
  const char *path = getenv("PATH");
  char dir[4096], full[4096 + 256];
  for (const char *p = path ? path : ""; *p;) {
    size_t len = strcspn(p, ":");
    snprintf(dir, sizeof dir, "%.*s", (int)len, p);
    snprintf(full, sizeof full, "%s/%s", len ? dir : ".", word);
    if (access(full, X_OK) == 0) {
      parity_arg(r, full);
      return;
    }
    p += len + (p[len] == ':');
  }
  cr_assert_fail("%s is not on PATH", word);
}

void ex_suite_argv(parity_run *r, const cJSON *tmpl, const char *builddir, const char *workload,
                   long n, long reps) {
  cr_assert(cJSON_IsArray(tmpl) && cJSON_GetArraySize(tmpl) > 0, "a template is not an array");
  const cJSON *word;
  char out[4096];
  cJSON_ArrayForEach(word, tmpl) {
    cr_assert(cJSON_IsString(word), "a template word is not a string");
    fill(word->valuestring, out, sizeof out, builddir, workload, n, reps);
    if (word == tmpl->child)
      program(r, out);
    else
      parity_arg(r, out);
  }
}
