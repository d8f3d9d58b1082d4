/* Private to ratio.c and its tests: the reading rule on its own, held to
 * every boundary, and a ratio with a scratch of its own. */
#ifndef GREENBENCH_RATIO_INTERNAL_H
#define GREENBENCH_RATIO_INTERNAL_H

#include <stdbool.h>

#include "greenbench/bootstrap.h"
#include "greenbench/error.h"
#include "greenbench/ratio.h"

/* Reads a power-ratio interval [lo, hi] against margin m by the rule above
 * gb_reading (ratio.h), undefined also when `undefined` is true. m must be
 * positive and finite (not checked here; gb_ratio_of_in checks). */
gb_reading gb_ratio_read(double lo, double hi, double m, bool undefined);

/* gb_ratio_of_in with a scratch of its own: the same results and errors,
 * and -ENOMEM. */
GB_MUST_USE int gb_ratio_of(const gb_boot *a, const gb_boot *b, double m, double level,
                            gb_ratio *out, gb_err *err);

#endif
