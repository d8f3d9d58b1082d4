#include <errno.h>

#include "greenbench/workload.h"

int gb_xorshift32_init(gb_xorshift32 *g, uint32_t seed) {
  if (seed == 0)
    return -EINVAL;
  g->x = seed;
  return 0;
}

/* Marsaglia (2003), shifts 13, 17, 5. */
uint32_t gb_xorshift32_next(gb_xorshift32 *g) {
  uint32_t x = g->x;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  g->x = x;
  return x;
}
