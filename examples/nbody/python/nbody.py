"""n-body: the Jovian planets around the sun, advanced n steps of 0.01
days-years, in the style of the benchmarks game (written for greenbench). A
line-for-line port of ../c/nbody.c; prints the generic worker contract line
(docs/suites.md)."""
import math
import sys

from contract import check_same, now_ns, parse_args, print_measured, print_startup

PI = 3.141592653589793
SOLAR_MASS = 4 * PI * PI
DAYS_PER_YEAR = 365.24
NBODIES = 5
N_MAX = 1000000000

# x, y, z, vx, vy, vz, mass
START = [
    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, SOLAR_MASS],
    [4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
     1.66007664274403694e-03 * DAYS_PER_YEAR, 7.69901118419740425e-03 * DAYS_PER_YEAR,
     -6.90460016972063023e-05 * DAYS_PER_YEAR, 9.54791938424326609e-04 * SOLAR_MASS],
    [8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
     -2.76742510726862411e-03 * DAYS_PER_YEAR, 4.99852801234917238e-03 * DAYS_PER_YEAR,
     2.30417297573763929e-05 * DAYS_PER_YEAR, 2.85885980666130812e-04 * SOLAR_MASS],
    [1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
     2.96460137564761618e-03 * DAYS_PER_YEAR, 2.37847173959480950e-03 * DAYS_PER_YEAR,
     -2.96589568540237556e-05 * DAYS_PER_YEAR, 4.36624404335156298e-05 * SOLAR_MASS],
    [1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
     2.68067772490389322e-03 * DAYS_PER_YEAR, 1.62824170038242295e-03 * DAYS_PER_YEAR,
     -9.51592254519715870e-05 * DAYS_PER_YEAR, 5.15138902046611451e-05 * SOLAR_MASS],
]
X, Y, Z, VX, VY, VZ, MASS = range(7)


def offset_momentum(b):
    """The sun moves so that the system's total momentum is zero."""
    px = py = pz = 0.0
    for i in range(NBODIES):
        px += b[i][VX] * b[i][MASS]
        py += b[i][VY] * b[i][MASS]
        pz += b[i][VZ] * b[i][MASS]
    b[0][VX] = -px / SOLAR_MASS
    b[0][VY] = -py / SOLAR_MASS
    b[0][VZ] = -pz / SOLAR_MASS


def energy(b):
    e = 0.0
    for i in range(NBODIES):
        bi = b[i]
        e += 0.5 * bi[MASS] * (bi[VX] * bi[VX] + bi[VY] * bi[VY] + bi[VZ] * bi[VZ])
        for j in range(i + 1, NBODIES):
            bj = b[j]
            dx = bi[X] - bj[X]
            dy = bi[Y] - bj[Y]
            dz = bi[Z] - bj[Z]
            e -= bi[MASS] * bj[MASS] / math.sqrt(dx * dx + dy * dy + dz * dz)
    return e


def advance(b, dt):
    """One step of dt; returns the number of pair interactions computed."""
    pairs = 0
    for i in range(NBODIES):
        bi = b[i]
        for j in range(i + 1, NBODIES):
            bj = b[j]
            dx = bi[X] - bj[X]
            dy = bi[Y] - bj[Y]
            dz = bi[Z] - bj[Z]
            d2 = dx * dx + dy * dy + dz * dz
            mag = dt / (d2 * math.sqrt(d2))
            bi[VX] -= dx * bj[MASS] * mag
            bi[VY] -= dy * bj[MASS] * mag
            bi[VZ] -= dz * bj[MASS] * mag
            bj[VX] += dx * bi[MASS] * mag
            bj[VY] += dy * bi[MASS] * mag
            bj[VZ] += dz * bi[MASS] * mag
            pairs += 1
    for i in range(NBODIES):
        bi = b[i]
        bi[X] += dt * bi[VX]
        bi[Y] += dt * bi[VY]
        bi[Z] += dt * bi[VZ]
    return pairs


def input_text(b):
    """The input's text: each body's x y z vx vy vz mass, "%.9f", one line each."""
    return "".join(" ".join("%.9f" % v for v in b[i]) + "\n" for i in range(NBODIES))


def main():
    n, reps = parse_args(sys.argv, "nbody", N_MAX)
    initial = [list(body) for body in START]
    offset_momentum(initial)
    text = input_text(initial)
    if reps == 0:
        print_startup(text)
        return 0

    before = after = 0.0
    advances = pairs = 0
    t0 = now_ns()
    for r in range(reps):
        b = [list(body) for body in initial]
        e0 = energy(b)
        steps = rep_pairs = 0
        for _ in range(n):
            rep_pairs += advance(b, 0.01)
            steps += 1
        e1 = energy(b)
        check_same("nbody", r == 0 or (e0 == before and e1 == after and steps == advances
                                       and rep_pairs == pairs))
        before = e0
        after = e1
        advances = steps
        pairs = rep_pairs
    loop_ns = now_ns() - t0

    output = "%.9f\n%.9f\n" % (before, after)
    counters = '"advances":%d,"pairs":%d' % (advances, pairs)
    print_measured(loop_ns, counters, text, output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
