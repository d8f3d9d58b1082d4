#include "alloc_fail.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);

/* Allocations left before the one that fails; negative: none fails. */
static atomic_long countdown = -1;
static atomic_bool fired;

static bool fail_now(void) {
  long left = atomic_load(&countdown);
  while (left >= 0 && !atomic_compare_exchange_weak(&countdown, &left, left - 1)) {
  }
  if (left == 0) {
    atomic_store(&fired, true);
    return true;
  }
  return false;
}

void *__wrap_malloc(size_t n) {
  return fail_now() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size) {
  return fail_now() ? NULL : __real_calloc(n, size);
}

size_t gbt_each_allocation_fails(int (*call)(void *arg, gb_err *err), void *arg) {
  return gbt_each_allocation_fails_or_copes(call, arg, false);
}

size_t gbt_each_allocation_fails_or_copes(int (*call)(void *arg, gb_err *err), void *arg,
                                          bool may_cope) {
  for (long k = 0;; k++) {
    gb_err err = {0};
    atomic_store(&fired, false);
    atomic_store(&countdown, k);
    int rc = call(arg, &err);
    atomic_store(&countdown, -1);
    if (!atomic_load(&fired)) {
      cr_assert_eq(rc, 0, "a complete call (%ld allocations): %s", k, err.msg);
      return (size_t)k;
    }
    if (may_cope && rc == 0) {
      continue;
    }
    cr_assert_eq(rc, -ENOMEM, "allocation %ld failed, yet the call returned %d (%s)", k, rc,
                 err.msg);
    cr_assert_not_null(strstr(err.msg, "out of memory"), "allocation %ld: %s", k, err.msg);
  }
}
