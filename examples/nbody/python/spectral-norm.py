"""spectral-norm: the largest singular value of the infinite matrix
A(i,j) = 1/((i+j)(i+j+1)/2+i+1), cut to n x n, by 10 steps of the power
method, in the style of the benchmarks game (written for greenbench). A
line-for-line port of ../c/spectral-norm.c; prints the generic worker contract
line (docs/suites.md)."""
import math
import sys

from contract import check_same, now_ns, parse_args, print_measured, print_startup

# (i+j)(i+j+1) stays below 2^31 in the C program
N_MAX = 20000


def a_ij(i, j):
    return 1.0 / ((i + j) * (i + j + 1) // 2 + i + 1)


def mul_av(n, u, v):
    """v = A u; returns the number of A(i,j) evaluated."""
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += a_ij(i, j) * u[j]
        v[i] = s
    return n * n


def mul_atv(n, u, v):
    """v = At u"""
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += a_ij(j, i) * u[j]
        v[i] = s
    return n * n


def mul_atav(n, u, v, tmp):
    """v = At A u"""
    return mul_av(n, u, tmp) + mul_atv(n, tmp, v)


def spectral_norm(n, u, v, tmp):
    """One run of the power method: (the norm, the number of A(i,j) used)."""
    count = 0
    for i in range(n):
        u[i] = 1.0
    for _ in range(10):
        count += mul_atav(n, u, v, tmp)
        count += mul_atav(n, v, u, tmp)
    vbv = vv = 0.0
    for i in range(n):
        vbv += u[i] * v[i]
        vv += v[i] * v[i]
    return math.sqrt(vbv / vv), count


def main():
    n, reps = parse_args(sys.argv, "spectral-norm", N_MAX)
    text = "%d\n" % n
    if reps == 0:
        print_startup(text)
        return 0

    u = [0.0] * n
    v = [0.0] * n
    tmp = [0.0] * n
    result = 0.0
    products = 0
    t0 = now_ns()
    for r in range(reps):
        norm, rep_products = spectral_norm(n, u, v, tmp)
        check_same("spectral-norm", r == 0 or (norm == result and rep_products == products))
        result = norm
        products = rep_products
    loop_ns = now_ns() - t0

    output = "%.9f\n" % result
    counters = '"products":%d' % products
    print_measured(loop_ns, counters, text, output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
