/* spectral-norm: the largest singular value of the infinite matrix
 * A(i,j) = 1/((i+j)(i+j+1)/2+i+1), cut to n x n, by 10 steps of the power
 * method, in the style of the benchmarks game (written for greenbench). Prints
 * the generic worker contract line (docs/suites.md): `spectral-norm N REPS`,
 * or `spectral-norm N --startup-only`. spectral-norm.py, .js and .lua are
 * line-for-line ports. */
/* clock_gettime under -std=c11 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>

#include "contract.h"

/* (i+j)(i+j+1) stays below 2^31 */
#define N_MAX 20000L

static double a_ij(int i, int j) {
  return 1.0 / ((i + j) * (i + j + 1) / 2 + i + 1);
}

/* v = A u; returns the number of A(i,j) evaluated. */
static long mul_av(int n, const double *u, double *v) {
  for (int i = 0; i < n; i++) {
    double sum = 0;
    for (int j = 0; j < n; j++)
      sum += a_ij(i, j) * u[j];
    v[i] = sum;
  }
  return (long)n * n;
}

/* v = At u */
static long mul_atv(int n, const double *u, double *v) {
  for (int i = 0; i < n; i++) {
    double sum = 0;
    for (int j = 0; j < n; j++)
      sum += a_ij(j, i) * u[j];
    v[i] = sum;
  }
  return (long)n * n;
}

/* v = At A u */
static long mul_atav(int n, const double *u, double *v, double *tmp) {
  return mul_av(n, u, tmp) + mul_atv(n, tmp, v);
}

/* One run of the power method; *products gets the number of A(i,j) used. */
static double spectral_norm(int n, double *u, double *v, double *tmp, long *products) {
  long count = 0;
  for (int i = 0; i < n; i++)
    u[i] = 1;
  for (int k = 0; k < 10; k++) {
    count += mul_atav(n, u, v, tmp);
    count += mul_atav(n, v, u, tmp);
  }
  double vbv = 0, vv = 0;
  for (int i = 0; i < n; i++) {
    vbv += u[i] * v[i];
    vv += v[i] * v[i];
  }
  *products = count;
  return sqrt(vbv / vv);
}

int main(int argc, char **argv) {
  args a = parse_args(argc, argv, "spectral-norm", N_MAX);
  char input[32];
  snprintf(input, sizeof input, "%ld\n", a.n);
  if (a.reps == 0) {
    print_startup(input);
    return 0;
  }

  int n = (int)a.n;
  double *u = malloc(3 * sizeof(double) * (size_t)n);
  if (!u) {
    fprintf(stderr, "%s: error: out of memory for n = %d\n", a.prog, n);
    return 1;
  }
  double result = 0;
  long products = 0;
  uint64_t t0 = now_ns();
  for (long r = 0; r < a.reps; r++) {
    long rep_products;
    double norm = spectral_norm(n, u, u + n, u + 2 * n, &rep_products);
    check_same(a.prog, r == 0 || (norm == result && rep_products == products));
    result = norm;
    products = rep_products;
  }
  uint64_t loop_ns = now_ns() - t0;
  free(u);

  char output[64], counters[64];
  snprintf(output, sizeof output, "%.9f\n", result);
  snprintf(counters, sizeof counters, "\"products\":%ld", products);
  print_measured(loop_ns, counters, input, output);
  return 0;
}
