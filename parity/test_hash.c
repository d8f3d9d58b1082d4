/* The input hash against an independent XXH64: the xxhsum program run on the
 * same bytes, written out as little-endian int32. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "scratch.h"
#include "workers.h"

static int *input_of(const parity_config *c) {
  int *a = malloc(c->size * sizeof *a);
  cr_assert(a && gb_input_fill(a, c->size, c->order, c->seed) == 0);
  return a;
}

/* a[0..n-1] as little-endian int32 bytes, whatever the host's order. */
static unsigned char *le_bytes(const int *a, size_t n) {
  unsigned char *b = malloc(n * 4);
  cr_assert(b);
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < 4; k++)
      b[4 * i + k] = (unsigned char)((uint32_t)a[i] >> (8 * k));
  return b;
}

/* xxhsum 0.8 prints "<16 hex digits>  <file>" for XXH64 (-H64, or -H1). Any
 * other shape fails the test rather than being guessed at. */
static void parse_xxhsum(const parity_run *r, const char *path, char hex[17]) {
  char want_tail[PARITY_PATH_MAX + 8];
  char status[300];
  cr_assert(!r->spawn_errno && r->exited && r->exit_code == 0, "%s: %s\n%s", parity_cmdline(r),
            parity_run_status(r, status, sizeof status), r->err);
  snprintf(want_tail, sizeof want_tail, "  %s\n", path);
  bool ok = r->out_len == 16 + strlen(want_tail) && strcmp(r->out + 16, want_tail) == 0;
  for (int i = 0; ok && i < 16; i++)
    ok = isxdigit((unsigned char)r->out[i]) && !isupper((unsigned char)r->out[i]);
  cr_assert(ok, "%s: unexpected output \"%s\"", parity_cmdline(r), r->out);
  memcpy(hex, r->out, 16);
  hex[16] = '\0';
}

/* XXH64 of a[0..n-1] as xxhsum computes it. */
static void xxhsum_of(const int *a, size_t n, char hex[17]) {
  char dir[PARITY_PATH_MAX], path[PARITY_PATH_MAX];
  unsigned char *bytes = le_bytes(a, n);
  parity_scratch_dir(dir);
  parity_scratch_write(dir, "input.bin", bytes, n * 4, path);
  free(bytes);
  parity_run r = {0};
  parity_args(&r, PARITY_XXHSUM, "-H64", path, NULL);
  parity_run_all(&r, 1, 1);
  parity_scratch_remove(dir);
  parse_xxhsum(&r, path, hex);
  parity_run_free(&r);
}

Test(hash, the_design_example_matches_xxhsum, .timeout = 30) {
  parity_config c = {GB_QUICK, GB_RANDOM, 4000, GB_DEFAULT_SEED, 1};
  char hex[17];
  int *a = input_of(&c);
  xxhsum_of(a, c.size, hex);
  free(a);
  cr_assert_str_eq(hex, "9f662f292f0c2286", "xxhsum gives %s for quick/random/4000", hex);
}

Test(hash, every_worker_matches_xxhsum, .timeout = 60) {
  static const parity_config cfgs[] = {
      {GB_QUICK, GB_RANDOM, 4000, GB_DEFAULT_SEED, 1},
      {GB_INSERTION, GB_NEARLY, 1000, 1u, 1},
      {GB_BUBBLE, GB_REVERSED, 19, 0xFFFFFFFFu, 1},
      {GB_QUICK, GB_SORTED, 1, GB_DEFAULT_SEED, 1},
      {GB_BUBBLE, GB_RANDOM, 100000, 123456789u, 1}, /* startup line: far too slow to sort */
  };
  enum { N = sizeof cfgs / sizeof cfgs[0] };
  parity_run runs[N * GB_LANGUAGE_COUNT] = {0};
  for (size_t k = 0; k < N * GB_LANGUAGE_COUNT; k++) {
    parity_worker(&runs[k], (gb_language)(k % GB_LANGUAGE_COUNT));
    parity_config_args(&runs[k], &cfgs[k / GB_LANGUAGE_COUNT], k / GB_LANGUAGE_COUNT == N - 1);
  }
  parity_run_all(runs, N * GB_LANGUAGE_COUNT, PARITY_PARALLEL);
  for (size_t i = 0; i < N; i++) {
    char want[17], lib[17];
    int *a = input_of(&cfgs[i]);
    xxhsum_of(a, cfgs[i].size, want);
    gb_hash_hex(gb_input_hash(a, cfgs[i].size), lib);
    free(a);
    cr_assert_str_eq(lib, want, "the C library hashes input %zu as %s, xxhsum as %s", i, lib,
                     want);
    for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
      parity_run *r = &runs[i * GB_LANGUAGE_COUNT + (size_t)l];
      cJSON *j = parity_expect_line(r, i == N - 1);
      const char *got = cJSON_GetObjectItemCaseSensitive(j, "input_hash")->valuestring;
      cr_assert_str_eq(got, want, "%s: input_hash %s, xxhsum gives %s", parity_cmdline(r), got,
                       want);
      cJSON_Delete(j);
      parity_run_free(r);
    }
  }
}
