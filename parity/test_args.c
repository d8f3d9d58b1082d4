/* Bad arguments: exit 2, nothing on stdout, and one stderr line whose text is
 * the same in all three languages. The expected messages are args.c's. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "output.h"
#include "workers.h"

enum { MAX_ARGV = 16 };

/* Runs argv (NULL-terminated) in every language and checks each fails with
 * exactly "worker: error: <msg>". */
static void expect_refused(const char *const *argv, const char *msg) {
  char want[512];
  snprintf(want, sizeof want, "worker: error: %s", msg);
  parity_run runs[GB_LANGUAGE_COUNT] = {0};
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    parity_worker(&runs[l], l);
    for (const char *const *a = argv; *a; a++)
      parity_arg(&runs[l], *a);
  }
  parity_run_all(runs, GB_LANGUAGE_COUNT, PARITY_PARALLEL);
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    const char *line = parity_expect_failure(&runs[l], 2);
    cr_expect_str_eq(line, want, "%s:\n  says     %s\n  expected %s", parity_cmdline(&runs[l]),
                     line, want);
  }
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
    parity_run_free(&runs[l]);
}

#define REFUSED(name, msg, ...)                                                                \
  Test(arguments, name, .timeout = 30) {                                                       \
    static const char *const argv[MAX_ARGV] = {__VA_ARGS__, NULL};                             \
    expect_refused(argv, msg);                                                                 \
  }

#define SORT_ARGS(alg, order, size, sorts)                                                     \
  "--algorithm", alg, "--order", order, "--size", size, "--sorts", sorts

REFUSED(unknown_algorithm, "unknown algorithm 'heap' (expected bubble, insertion or quick)",
        SORT_ARGS("heap", "random", "10", "1"))
REFUSED(unknown_order, "unknown order 'shuffled' (expected random, sorted, reversed or nearly)",
        SORT_ARGS("quick", "shuffled", "10", "1"))
REFUSED(size_zero, "--size must be an integer from 1 to 10000000, got '0'",
        SORT_ARGS("quick", "random", "0", "1"))
REFUSED(negative_size, "--size must be an integer from 1 to 10000000, got '-5'",
        SORT_ARGS("quick", "random", "-5", "1"))
REFUSED(non_numeric_size, "--size must be an integer from 1 to 10000000, got 'ten'",
        SORT_ARGS("quick", "random", "ten", "1"))
REFUSED(size_with_trailing_junk, "--size must be an integer from 1 to 10000000, got '10x'",
        SORT_ARGS("quick", "random", "10x", "1"))
REFUSED(size_with_a_plus_sign, "--size must be an integer from 1 to 10000000, got '+10'",
        SORT_ARGS("quick", "random", "+10", "1"))
REFUSED(size_above_the_maximum, "--size must be an integer from 1 to 10000000, got '10000001'",
        SORT_ARGS("quick", "random", "10000001", "1"))
REFUSED(seed_zero, "--seed must be an integer from 1 to 4294967295, got '0'",
        SORT_ARGS("quick", "random", "10", "1"), "--seed", "0")
REFUSED(seed_above_uint32, "--seed must be an integer from 1 to 4294967295, got '4294967296'",
        SORT_ARGS("quick", "random", "10", "1"), "--seed", "4294967296")
REFUSED(sorts_zero, "--sorts must be an integer from 1 to 1000000000, got '0'",
        SORT_ARGS("quick", "random", "10", "0"))
REFUSED(negative_sorts, "--sorts must be an integer from 1 to 1000000000, got '-1'",
        SORT_ARGS("quick", "random", "10", "-1"))
REFUSED(missing_value_at_the_end, "option '--sorts' needs a value", "--algorithm", "quick",
        "--order", "random", "--size", "10", "--sorts")
REFUSED(repeated_option, "option '--size' given twice", SORT_ARGS("quick", "random", "10", "1"),
        "--size", "10")
REFUSED(unknown_option, "unknown option '--verbose'", SORT_ARGS("quick", "random", "10", "1"),
        "--verbose")
REFUSED(positional_argument, "unexpected argument 'extra'",
        SORT_ARGS("quick", "random", "10", "1"), "extra")
REFUSED(missing_sorts, "missing --sorts", "--algorithm", "quick", "--order", "random", "--size",
        "10")
REFUSED(missing_algorithm, "missing --algorithm", "--order", "random", "--size", "10",
        "--sorts", "1")
REFUSED(two_modes, "only one of --startup-only, --dump-input and --dump-xorshift may be given",
        SORT_ARGS("quick", "random", "10", "1"), "--startup-only", "--dump-input")
REFUSED(dump_xorshift_count_zero,
        "--dump-xorshift must be an integer from 1 to 10000000, got '0'", "--dump-xorshift",
        "0")

/* --contract (docs/design.md): study or generic, once; the checks of the
 * other options are the same with either. */
REFUSED(unknown_contract, "unknown contract 'suite' (expected study or generic)",
        SORT_ARGS("quick", "random", "10", "1"), "--contract", "suite")
REFUSED(empty_contract, "unknown contract '' (expected study or generic)",
        SORT_ARGS("quick", "random", "10", "1"), "--contract", "")
REFUSED(contract_in_capitals, "unknown contract 'Generic' (expected study or generic)",
        "--contract", "Generic", SORT_ARGS("quick", "random", "10", "1"))
REFUSED(repeated_contract, "option '--contract' given twice", "--contract", "generic",
        SORT_ARGS("quick", "random", "10", "1"), "--contract", "generic")
REFUSED(contract_given_twice_with_two_values, "option '--contract' given twice", "--contract",
        "study", SORT_ARGS("quick", "random", "10", "1"), "--contract", "generic")
REFUSED(contract_without_value, "option '--contract' needs a value",
        SORT_ARGS("quick", "random", "10", "1"), "--contract")
REFUSED(generic_size_zero, "--size must be an integer from 1 to 10000000, got '0'",
        "--contract", "generic", SORT_ARGS("quick", "random", "0", "1"))
REFUSED(generic_missing_sorts, "missing --sorts", "--contract", "generic", "--algorithm",
        "quick", "--order", "random", "--size", "10", "--startup-only")
