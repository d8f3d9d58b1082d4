/* Private to the stats library: a standard normal draw (Box-Muller, one of
 * the pair) from the project's generator, for the simulations of synth.c
 * and chance.c. */
#ifndef GREENBENCH_NORMAL_H
#define GREENBENCH_NORMAL_H

#include "greenbench/rng.h"

#include <math.h>

static inline double gb_normal(gb_rng *r) {
  double u1 = ((double)(gb_rng_next(r) >> 11) + 0.5) * 0x1p-53;
  double u2 = (double)(gb_rng_next(r) >> 11) * 0x1p-53;
  return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

#endif
