#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY /* XXH64_state_t on the stack */
#include <xxhash.h>

#include "greenbench/workload.h"

uint64_t gb_input_hash(const int *a, size_t n) {
  /* Hash a little-endian int32 image, so the value does not depend on the
   * host's byte order and matches what Python and Node.js hash. */
  XXH64_state_t st;
  unsigned char buf[4096];
  size_t used = 0;
  XXH64_reset(&st, 0);
  for (size_t i = 0; i < n; i++) {
    uint32_t v = (uint32_t)a[i];
    buf[used++] = (unsigned char)(v & 0xff);
    buf[used++] = (unsigned char)((v >> 8) & 0xff);
    buf[used++] = (unsigned char)((v >> 16) & 0xff);
    buf[used++] = (unsigned char)(v >> 24);
    if (used == sizeof buf) {
      XXH64_update(&st, buf, used);
      used = 0;
    }
  }
  XXH64_update(&st, buf, used);
  return XXH64_digest(&st);
}

void gb_hash_hex(uint64_t h, char out[17]) {
  snprintf(out, 17, "%016llx", (unsigned long long)h);
}

int gb_expected_compute(gb_algorithm alg, gb_order o, size_t n, uint32_t seed,
                        gb_expected *out) {
  if ((unsigned)alg >= GB_ALGORITHM_COUNT || n == 0 || n > GB_MAX_SIZE)
    return -EINVAL;
  int *a = malloc(n * sizeof *a);
  if (!a)
    return -ENOMEM;
  int rc = gb_input_fill(a, n, o, seed);
  if (rc == 0) {
    gb_counts c = {0, 0};
    out->input_hash = gb_input_hash(a, n);
    gb_sort(alg, a, n, &c);
    out->counts = c;
  }
  free(a);
  return rc;
}
