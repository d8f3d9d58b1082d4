/* The three sorts, counted exactly where docs/design.md says. The Python and
 * Node.js workers port these functions line for line; keep them in step. */
#include <stddef.h>

#include "greenbench/workload.h"

/* A deliberately broken build (GB_BROKEN_SORT) lets the parity tests prove
 * that the worker's result check catches a wrong sort: it leaves the first
 * two elements swapped after sorting. Never defined for a real worker. */
#ifdef GB_BROKEN_SORT
static void break_result(int *a, size_t n) {
  if (n >= 2) {
    int t = a[0];
    a[0] = a[1];
    a[1] = t;
  }
}
#else
static void break_result(int *a, size_t n) {
  (void)a;
  (void)n;
}
#endif

void gb_bubble_sort(int *a, size_t n, gb_counts *c) {
  /* No early exit: every pass runs, whatever the input. */
  for (size_t i = 0; i + 1 < n; i++) {
    for (size_t j = 0; j + 1 < n - i; j++) {
      c->comparisons++;
      if (a[j] > a[j + 1]) {
        int t = a[j];
        a[j] = a[j + 1];
        a[j + 1] = t;
        c->writes += 2;
      }
    }
  }
}

void gb_insertion_sort(int *a, size_t n, gb_counts *c) {
  for (size_t i = 1; i < n; i++) {
    int key = a[i];
    ptrdiff_t j = (ptrdiff_t)i - 1;
    while (j >= 0) {
      c->comparisons++;
      if (a[j] > key) {
        a[j + 1] = a[j];
        c->writes++;
        j--;
      } else {
        break;
      }
    }
    if ((size_t)(j + 1) != i) {
      a[j + 1] = key;
      c->writes++;
    }
  }
}

static void swap_counted(int *a, ptrdiff_t i, ptrdiff_t j, gb_counts *c) {
  if (i == j)
    return; /* a self-swap is skipped and costs nothing */
  int t = a[i];
  a[i] = a[j];
  a[j] = t;
  c->writes += 2;
}

/* Lomuto partition of a[lo..hi] around the last element. */
static ptrdiff_t partition(int *a, ptrdiff_t lo, ptrdiff_t hi, gb_counts *c) {
  int pivot = a[hi];
  ptrdiff_t i = lo;
  for (ptrdiff_t j = lo; j < hi; j++) {
    c->comparisons++;
    if (a[j] <= pivot) {
      swap_counted(a, i, j, c);
      i++;
    }
  }
  swap_counted(a, i, hi, c);
  return i;
}

/* Recurses into the smaller side and loops on the larger, so the stack stays
 * O(log n) even on sorted input, where Lomuto degrades to n^2/2 comparisons. */
static void quick_range(int *a, ptrdiff_t lo, ptrdiff_t hi, gb_counts *c) {
  while (lo < hi) {
    ptrdiff_t p = partition(a, lo, hi, c);
    if (p - lo < hi - p) {
      quick_range(a, lo, p - 1, c);
      lo = p + 1;
    } else {
      quick_range(a, p + 1, hi, c);
      hi = p - 1;
    }
  }
}

void gb_quick_sort(int *a, size_t n, gb_counts *c) {
  if (n >= 2)
    quick_range(a, 0, (ptrdiff_t)n - 1, c);
}

void gb_sort(gb_algorithm alg, int *a, size_t n, gb_counts *c) {
  switch (alg) {
  case GB_BUBBLE:
    gb_bubble_sort(a, n, c);
    break;
  case GB_INSERTION:
    gb_insertion_sort(a, n, c);
    break;
  case GB_QUICK:
  default:
    gb_quick_sort(a, n, c);
    break;
  }
  break_result(a, n);
}

bool gb_is_identity(const int *a, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (a[i] != (int)i)
      return false;
  return true;
}
