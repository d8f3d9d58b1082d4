/* The study's workload, exactly as docs/design.md fixes it: the xorshift32
 * generator, the four input orders, the three counted sorts and the XXH64
 * input hash. The C worker runs it; the harness uses it to compute what every
 * worker, in any language, must report for a given input. */
#ifndef GREENBENCH_WORKLOAD_H
#define GREENBENCH_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A status the caller must handle, as greenbench/error.h defines it, for
 * gb_workload (the workers do not link gb_base). */
#ifndef GB_MUST_USE
#define GB_MUST_USE __attribute__((warn_unused_result))
#endif

#define GB_DEFAULT_SEED 2463534242u
/* Bounds shared by the three workers' argument parsers. */
#define GB_MAX_SIZE 10000000u
#define GB_MAX_SORTS 1000000000u

/* The study's value sets, one enum each, used by the workers, the harness,
 * the records and the report alike. Their names (gb_*_name) are the ones the
 * worker contract, the records and the report print. */
typedef enum { GB_C, GB_PYTHON, GB_NODE, GB_LANGUAGE_COUNT } gb_language;
typedef enum { GB_BUBBLE, GB_INSERTION, GB_QUICK, GB_ALGORITHM_COUNT } gb_algorithm;
typedef enum { GB_RANDOM, GB_SORTED, GB_REVERSED, GB_NEARLY, GB_ORDER_COUNT } gb_order;

typedef struct {
  uint32_t x; /* never 0 */
} gb_xorshift32;

/* Comparisons and array writes of one sort, counted where docs/design.md says. */
typedef struct {
  uint64_t comparisons;
  uint64_t writes;
} gb_counts;

/* Seeds the generator. Returns 0, or -EINVAL for seed 0 (a zero state would
 * only ever produce zeros; it is refused, never replaced). */
GB_MUST_USE int gb_xorshift32_init(gb_xorshift32 *g, uint32_t seed);
uint32_t gb_xorshift32_next(gb_xorshift32 *g);

/* The one name table of each set, as the worker contract, the records and
 * the report spell them, in enum order. */
extern const char *const gb_language_names[GB_LANGUAGE_COUNT];
extern const char *const gb_algorithm_names[GB_ALGORITHM_COUNT];
extern const char *const gb_order_names[GB_ORDER_COUNT];
/* Each language's title, as the report and the chart write it: "C",
 * "Python", "Node.js". */
extern const char *const gb_language_titles[GB_LANGUAGE_COUNT];
/* A value's name; NULL for an out-of-range value. */
const char *gb_language_name(gb_language l);
/* A language's title (gb_language_titles); "?" for an out-of-range value. */
const char *gb_language_title(gb_language l);
const char *gb_algorithm_name(gb_algorithm a);
const char *gb_order_name(gb_order o);
/* Return 0 and set *out, or -EINVAL for an unknown name. */
GB_MUST_USE int gb_language_parse(const char *name, gb_language *out);
GB_MUST_USE int gb_algorithm_parse(const char *name, gb_algorithm *out);
GB_MUST_USE int gb_order_parse(const char *name, gb_order *out);

/* Fills a[0..n-1] with the input of order o, a permutation of 0..n-1, from a
 * fresh generator seeded with seed. Returns 0, or -EINVAL for n == 0, a zero
 * seed or an unknown order. */
GB_MUST_USE int gb_input_fill(int *a, size_t n, gb_order o, uint32_t seed);

/* Sorts a[0..n-1] ascending and adds its counts to *c. */
void gb_sort(gb_algorithm alg, int *a, size_t n, gb_counts *c);
void gb_bubble_sort(int *a, size_t n, gb_counts *c);
void gb_insertion_sort(int *a, size_t n, gb_counts *c);
void gb_quick_sort(int *a, size_t n, gb_counts *c);

/* True when a[0..n-1] is exactly 0, 1, ..., n-1. */
bool gb_is_identity(const int *a, size_t n);

/* XXH64, seed 0, of a[0..n-1] as little-endian int32 bytes. */
uint64_t gb_input_hash(const int *a, size_t n);
/* Writes the hash as 16 lowercase hex digits and a NUL into out[17]. */
void gb_hash_hex(uint64_t h, char out[17]);

/* What every worker must print for one configuration: the input hash and the
 * counts of one sort. Returns 0, -EINVAL for bad arguments, -ENOMEM. */
typedef struct {
  uint64_t input_hash;
  gb_counts counts;
} gb_expected;
GB_MUST_USE int gb_expected_compute(gb_algorithm alg, gb_order o, size_t n, uint32_t seed,
                                    gb_expected *out);

#endif
