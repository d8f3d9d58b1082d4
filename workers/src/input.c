#include <errno.h>
#include <string.h>

#include "greenbench/workload.h"

static void swap(int *a, size_t i, size_t j) {
  int t = a[i];
  a[i] = a[j];
  a[j] = t;
}

int gb_input_fill(int *a, size_t n, gb_order o, uint32_t seed) {
  gb_xorshift32 g;
  if (n == 0 || n > GB_MAX_SIZE || (unsigned)o >= GB_ORDER_COUNT ||
      gb_xorshift32_init(&g, seed) < 0)
    return -EINVAL;
  for (size_t i = 0; i < n; i++)
    a[i] = (int)(o == GB_REVERSED ? n - 1 - i : i);
  if (o == GB_RANDOM) {
    /* Fisher-Yates from the top. */
    for (size_t i = n - 1; i >= 1; i--)
      swap(a, i, gb_xorshift32_next(&g) % (uint32_t)(i + 1));
  } else if (o == GB_NEARLY) {
    /* n/20 swaps of random pairs: about 5% of positions. */
    for (size_t k = 0; k < n / 20; k++) {
      uint32_t i = gb_xorshift32_next(&g) % (uint32_t)n;
      uint32_t j = gb_xorshift32_next(&g) % (uint32_t)n;
      swap(a, i, j);
    }
  }
  return 0;
}
