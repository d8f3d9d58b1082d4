#include "output.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { KEY_STRING, KEY_UINT, KEY_TRUE } key_type;
typedef struct {
  const char *name;
  key_type type;
} key_spec;

/* docs/design.md, "The worker contract": the two line shapes, nothing more. */
static const key_spec sort_keys[] = {
    {"language", KEY_STRING},  {"algorithm", KEY_STRING}, {"order", KEY_STRING},
    {"size", KEY_UINT},        {"seed", KEY_UINT},        {"sorts", KEY_UINT},
    {"comparisons", KEY_UINT}, {"writes", KEY_UINT},      {"input_hash", KEY_STRING},
    {"loop_ns", KEY_UINT},     {"sorted", KEY_TRUE},      {"runtime", KEY_STRING},
};
static const key_spec startup_keys[] = {
    {"language", KEY_STRING},   {"algorithm", KEY_STRING},  {"order", KEY_STRING},
    {"size", KEY_UINT},         {"seed", KEY_UINT},         {"sorts", KEY_UINT},
    {"startup_only", KEY_TRUE}, {"input_hash", KEY_STRING}, {"runtime", KEY_STRING},
};
enum { MAX_KEYS = sizeof sort_keys / sizeof sort_keys[0] };

const char *parity_cmdline(const parity_run *r) {
  static char buf[1024];
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < r->argc && used < sizeof buf; i++)
    used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", i ? " " : "", r->argv[i]);
  return buf;
}

void parity_expect_success(const parity_run *r) {
  char status[300];
  cr_assert(!r->spawn_errno && !r->timed_out && r->exited && r->exit_code == 0,
            "%s: %s\nstderr: %s", parity_cmdline(r),
            parity_run_status(r, status, sizeof status), r->err ? r->err : "");
  cr_assert_eq(r->err_len, 0, "%s: wrote on stderr on success: %s", parity_cmdline(r), r->err);
  cr_assert_eq(strlen(r->out), r->out_len, "%s: stdout holds a NUL byte", parity_cmdline(r));
}

static bool has_type(const cJSON *v, key_type t) {
  switch (t) {
  case KEY_STRING:
    return cJSON_IsString(v);
  case KEY_TRUE:
    return cJSON_IsTrue(v);
  default:
    /* cJSON holds numbers as doubles: exact for integers below 2^53. */
    return cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble <= 9007199254740992.0 &&
           floor(v->valuedouble) == v->valuedouble;
  }
}

static void expect_keys(const parity_run *r, const cJSON *j, const key_spec *keys, size_t n) {
  bool seen[MAX_KEYS] = {false};
  const char *types[] = {"a string", "an integer >= 0", "true"};
  for (const cJSON *v = j->child; v; v = v->next) {
    size_t k = 0;
    while (k < n && strcmp(keys[k].name, v->string) != 0)
      k++;
    cr_assert_lt(k, n, "%s: unexpected key \"%s\" in %s", parity_cmdline(r), v->string, r->out);
    cr_assert(!seen[k], "%s: key \"%s\" given twice", parity_cmdline(r), v->string);
    seen[k] = true;
    cr_assert(has_type(v, keys[k].type), "%s: \"%s\" must be %s in %s", parity_cmdline(r),
              v->string, types[keys[k].type], r->out);
  }
  for (size_t k = 0; k < n; k++)
    cr_assert(seen[k], "%s: key \"%s\" missing from %s", parity_cmdline(r), keys[k].name,
              r->out);
}

cJSON *parity_expect_line(const parity_run *r, bool startup) {
  parity_expect_success(r);
  const char *nl = memchr(r->out, '\n', r->out_len);
  cr_assert(nl && nl == r->out + r->out_len - 1, "%s: stdout must be exactly one line, got: %s",
            parity_cmdline(r), r->out);
  cr_assert(r->out_len >= 3 && r->out[0] == '{' && r->out[r->out_len - 2] == '}',
            "%s: the line must be one JSON object and nothing else: %s", parity_cmdline(r),
            r->out);
  const char *end = NULL;
  cJSON *j = cJSON_ParseWithOpts(r->out, &end, 1);
  cr_assert(cJSON_IsObject(j), "%s: not valid JSON (near \"%.20s\"): %s", parity_cmdline(r),
            end ? end : "", r->out);
  if (startup)
    expect_keys(r, j, startup_keys, sizeof startup_keys / sizeof startup_keys[0]);
  else
    expect_keys(r, j, sort_keys, sizeof sort_keys / sizeof sort_keys[0]);
  return j;
}

uint64_t parity_json_u64(const cJSON *j, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
  cr_assert(has_type(v, KEY_UINT), "\"%s\" is not an integer", key);
  return (uint64_t)v->valuedouble;
}

static void expect_str(const parity_run *r, const cJSON *j, const char *key, const char *want) {
  const char *got = cJSON_GetObjectItemCaseSensitive(j, key)->valuestring;
  cr_assert_str_eq(got, want, "%s: \"%s\" is \"%s\", expected \"%s\"", parity_cmdline(r), key,
                   got, want);
}

static void expect_u64(const parity_run *r, const cJSON *j, const char *key, uint64_t want) {
  uint64_t got = parity_json_u64(j, key);
  cr_assert_eq(got, want, "%s: \"%s\" is %" PRIu64 ", expected %" PRIu64, parity_cmdline(r),
               key, got, want);
}

void parity_expect_result(const parity_run *r, const cJSON *j, gb_language l,
                          const parity_config *c, const gb_expected *e) {
  char hex[17];
  gb_hash_hex(e->input_hash, hex);
  expect_str(r, j, "language", gb_language_names[l]);
  expect_str(r, j, "algorithm", gb_algorithm_name(c->alg));
  expect_str(r, j, "order", gb_order_name(c->order));
  expect_u64(r, j, "size", c->size);
  expect_u64(r, j, "seed", c->seed);
  expect_u64(r, j, "sorts", c->sorts);
  expect_str(r, j, "input_hash", hex);
  cr_assert_neq(*cJSON_GetObjectItemCaseSensitive(j, "runtime")->valuestring, '\0',
                "%s: empty runtime", parity_cmdline(r));
  if (cJSON_GetObjectItemCaseSensitive(j, "startup_only"))
    return;
  expect_u64(r, j, "comparisons", e->counts.comparisons);
  expect_u64(r, j, "writes", e->counts.writes);
}

static cJSON *without_own_keys(const cJSON *j) {
  cJSON *d = cJSON_Duplicate(j, 1);
  cr_assert(d, "out of memory");
  cJSON_DeleteItemFromObjectCaseSensitive(d, "language");
  cJSON_DeleteItemFromObjectCaseSensitive(d, "loop_ns");
  cJSON_DeleteItemFromObjectCaseSensitive(d, "runtime");
  return d;
}

void parity_expect_same(const parity_run *ra, const cJSON *a, const parity_run *rb,
                        const cJSON *b) {
  cJSON *da = without_own_keys(a), *db = without_own_keys(b);
  bool same = cJSON_Compare(da, db, 1);
  cJSON_Delete(da);
  cJSON_Delete(db);
  cr_assert(same, "the workers disagree:\n%s\n%s\nand\n%s\n%s", parity_cmdline(ra), ra->out,
            parity_cmdline(rb), rb->out);
}

/* One line of parity_expect_numbers; returns the start of the next. */
static const char *parse_number(const parity_run *r, const char *s, size_t i, uint32_t *out) {
  uint64_t v = 0;
  const char *p = s;
  for (; *p >= '0' && *p <= '9' && p - s < 11; p++)
    v = v * 10 + (uint64_t)(*p - '0');
  cr_assert(p > s && *p == '\n' && (p - s == 1 || *s != '0') && v <= UINT32_MAX,
            "%s: line %zu is not a decimal uint32: \"%.20s\"", parity_cmdline(r), i + 1, s);
  *out = (uint32_t)v;
  return p + 1;
}

uint32_t *parity_expect_numbers(const parity_run *r, size_t count) {
  parity_expect_success(r);
  uint32_t *v = malloc((count ? count : 1) * sizeof *v);
  cr_assert(v, "out of memory");
  const char *s = r->out, *end = r->out + r->out_len;
  for (size_t i = 0; i < count; i++) {
    cr_assert_lt(s, end, "%s: %zu lines, expected %zu", parity_cmdline(r), i, count);
    s = parse_number(r, s, i, &v[i]);
  }
  cr_assert_eq(s, end, "%s: more than %zu lines", parity_cmdline(r), count);
  return v;
}

const char *parity_expect_failure(const parity_run *r, int code) {
  static char line[1024];
  char status[300];
  cr_assert(!r->spawn_errno && !r->timed_out && r->exited && r->exit_code == code,
            "%s: %s, expected exit %d\nstderr: %s", parity_cmdline(r),
            parity_run_status(r, status, sizeof status), code, r->err ? r->err : "");
  cr_assert_eq(r->out_len, 0, "%s: printed on stdout when failing: %s", parity_cmdline(r),
               r->out);
  const char *nl = memchr(r->err, '\n', r->err_len);
  cr_assert(nl && nl == r->err + r->err_len - 1 && r->err_len < sizeof line,
            "%s: stderr must be exactly one line, got: %s", parity_cmdline(r), r->err);
  memcpy(line, r->err, r->err_len - 1);
  line[r->err_len - 1] = '\0';
  return line;
}
