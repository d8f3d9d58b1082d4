/* Narrowing a profile to a subset of its cases, for `greenbench run
 * --languages ...` and for the suite's label selection (GREENBENCH_SELECT or
 * the suite binary's --select). */
#ifndef GREENBENCH_SELECT_H
#define GREENBENCH_SELECT_H

#include "greenbench/error.h"
#include "greenbench/plan.h"

typedef enum { GB_KEY_LANGUAGE, GB_KEY_ALGORITHM, GB_KEY_ORDER, GB_KEY_SIZE } gb_select_key;

/* Parses a comma-separated list for one key ("python,node", "250,2000") into
 * a bitmask (languages, algorithms, orders) or a size list. Every item must be
 * valid and appear once. Returns 0 or -EINVAL naming the bad item. */
GB_MUST_USE int gb_select_parse_mask(gb_select_key key, const char *list, unsigned *mask,
                                     gb_err *err);
GB_MUST_USE int gb_select_parse_sizes(const char *list, uint64_t sizes[GB_MAX_SIZES], size_t *n,
                                      gb_err *err);

/* Applies a selection expression to s. A product is terms separated by
 * spaces or ';', each KEY=LIST with KEY one of language, algorithm, order,
 * size; within a term the items are alternatives, across terms all must
 * hold, e.g. "language=python" or "algorithm=quick size=2000". A key may
 * appear in one term of a product only (two, AND-ed, could only select less
 * than the first says). An expression is one product or several separated
 * by '|', and selects the cases any of them selects:
 * "language=c algorithm=quick | language=python size=2000". s becomes the
 * smallest product of lists that holds the selected cases, with the others
 * in s->omit. Sizes must be sizes of the profile. An empty or NULL
 * expression selects everything. Returns 0, or -EINVAL (unknown key, a key
 * in two terms of a product, bad item, a size the profile lacks, an empty
 * alternative, or a product that selects nothing) with s unchanged. */
GB_MUST_USE int gb_settings_select(gb_settings *s, const char *expr, gb_err *err);

#endif
