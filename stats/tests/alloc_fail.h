/* Allocation failure on demand, for the test binaries that stats/CMakeLists.txt
 * links with --wrap=malloc,--wrap=calloc (and this file): every malloc and
 * calloc of the code under test (the static libraries and the test itself,
 * not Criterion's) goes through a counter, so that a test can make the k-th
 * allocation of a call fail and check the call's error path. */
#ifndef GREENBENCH_TESTS_ALLOC_FAIL_H
#define GREENBENCH_TESTS_ALLOC_FAIL_H

#include "greenbench/error.h"

#include <stdbool.h>
#include <stddef.h>

/* Calls call(arg, err) with its k-th allocation (k = 0, 1, ...) returning
 * NULL, one k per call, until a call completes without reaching its k-th
 * allocation. Every call whose allocation failed must return -ENOMEM with
 * a message that contains "out of memory"; the last must return 0. Fails
 * the test otherwise, and returns how many allocations a complete call
 * makes. */
size_t gbt_each_allocation_fails(int (*call)(void *arg, gb_err *err), void *arg);

/* The same, for code with documented fallbacks when memory is short (the
 * bootstrap's buffers, bootstrap.c): with may_cope, a call whose allocation
 * failed may also return 0, and then call itself must have checked that its
 * results are those of a complete call (returning another error if not). */
size_t gbt_each_allocation_fails_or_copes(int (*call)(void *arg, gb_err *err), void *arg,
                                          bool may_cope);

#endif
