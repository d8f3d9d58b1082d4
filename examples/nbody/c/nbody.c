/* n-body: the Jovian planets around the sun, advanced n steps of 0.01 days-
 * years, in the style of the benchmarks game (written for greenbench). Prints
 * the generic worker contract line (docs/suites.md): `nbody N REPS` runs the
 * simulation REPS times from the same start; `nbody N --startup-only` only
 * builds the start. nbody.py, nbody.js and nbody.lua are line-for-line ports. */
/* clock_gettime under -std=c11 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>

#include "contract.h"

#define PI 3.141592653589793
#define SOLAR_MASS (4 * PI * PI)
#define DAYS_PER_YEAR 365.24
#define NBODIES 5
#define N_MAX 1000000000L

typedef struct {
  double x, y, z, vx, vy, vz, mass;
} body;

static const body start[NBODIES] = {
    {0, 0, 0, 0, 0, 0, SOLAR_MASS},
    {4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
     1.66007664274403694e-03 * DAYS_PER_YEAR, 7.69901118419740425e-03 * DAYS_PER_YEAR,
     -6.90460016972063023e-05 * DAYS_PER_YEAR, 9.54791938424326609e-04 * SOLAR_MASS},
    {8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
     -2.76742510726862411e-03 * DAYS_PER_YEAR, 4.99852801234917238e-03 * DAYS_PER_YEAR,
     2.30417297573763929e-05 * DAYS_PER_YEAR, 2.85885980666130812e-04 * SOLAR_MASS},
    {1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
     2.96460137564761618e-03 * DAYS_PER_YEAR, 2.37847173959480950e-03 * DAYS_PER_YEAR,
     -2.96589568540237556e-05 * DAYS_PER_YEAR, 4.36624404335156298e-05 * SOLAR_MASS},
    {1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
     2.68067772490389322e-03 * DAYS_PER_YEAR, 1.62824170038242295e-03 * DAYS_PER_YEAR,
     -9.51592254519715870e-05 * DAYS_PER_YEAR, 5.15138902046611451e-05 * SOLAR_MASS},
};

/* The sun moves so that the system's total momentum is zero. */
static void offset_momentum(body *b) {
  double px = 0, py = 0, pz = 0;
  for (int i = 0; i < NBODIES; i++) {
    px += b[i].vx * b[i].mass;
    py += b[i].vy * b[i].mass;
    pz += b[i].vz * b[i].mass;
  }
  b[0].vx = -px / SOLAR_MASS;
  b[0].vy = -py / SOLAR_MASS;
  b[0].vz = -pz / SOLAR_MASS;
}

static double energy(const body *b) {
  double e = 0;
  for (int i = 0; i < NBODIES; i++) {
    e += 0.5 * b[i].mass * (b[i].vx * b[i].vx + b[i].vy * b[i].vy + b[i].vz * b[i].vz);
    for (int j = i + 1; j < NBODIES; j++) {
      double dx = b[i].x - b[j].x;
      double dy = b[i].y - b[j].y;
      double dz = b[i].z - b[j].z;
      e -= b[i].mass * b[j].mass / sqrt(dx * dx + dy * dy + dz * dz);
    }
  }
  return e;
}

/* One step of dt; returns the number of pair interactions computed. */
static long advance(body *b, double dt) {
  long pairs = 0;
  for (int i = 0; i < NBODIES; i++) {
    for (int j = i + 1; j < NBODIES; j++) {
      double dx = b[i].x - b[j].x;
      double dy = b[i].y - b[j].y;
      double dz = b[i].z - b[j].z;
      double d2 = dx * dx + dy * dy + dz * dz;
      double mag = dt / (d2 * sqrt(d2));
      b[i].vx -= dx * b[j].mass * mag;
      b[i].vy -= dy * b[j].mass * mag;
      b[i].vz -= dz * b[j].mass * mag;
      b[j].vx += dx * b[i].mass * mag;
      b[j].vy += dy * b[i].mass * mag;
      b[j].vz += dz * b[i].mass * mag;
      pairs++;
    }
  }
  for (int i = 0; i < NBODIES; i++) {
    b[i].x += dt * b[i].vx;
    b[i].y += dt * b[i].vy;
    b[i].z += dt * b[i].vz;
  }
  return pairs;
}

/* The input's text: each body's x y z vx vy vz mass, "%.9f", one line each. */
static void input_text(const body *b, char *buf, size_t len) {
  size_t used = 0;
  for (int i = 0; i < NBODIES; i++) {
    const double v[7] = {b[i].x, b[i].y, b[i].z, b[i].vx, b[i].vy, b[i].vz, b[i].mass};
    for (int k = 0; k < 7; k++)
      used += (size_t)snprintf(buf + used, len - used, k < 6 ? "%.9f " : "%.9f\n", v[k]);
  }
}

int main(int argc, char **argv) {
  args a = parse_args(argc, argv, "nbody", N_MAX);
  body initial[NBODIES];
  memcpy(initial, start, sizeof initial);
  offset_momentum(initial);
  char input[1024];
  input_text(initial, input, sizeof input);
  if (a.reps == 0) {
    print_startup(input);
    return 0;
  }

  double before = 0, after = 0;
  long advances = 0, pairs = 0;
  uint64_t t0 = now_ns();
  for (long r = 0; r < a.reps; r++) {
    body b[NBODIES];
    memcpy(b, initial, sizeof b);
    double e0 = energy(b);
    long steps = 0, rep_pairs = 0;
    for (long i = 0; i < a.n; i++) {
      rep_pairs += advance(b, 0.01);
      steps++;
    }
    double e1 = energy(b);
    check_same(a.prog, r == 0 || (e0 == before && e1 == after && steps == advances &&
                                  rep_pairs == pairs));
    before = e0;
    after = e1;
    advances = steps;
    pairs = rep_pairs;
  }
  uint64_t loop_ns = now_ns() - t0;

  char output[64], counters[96];
  snprintf(output, sizeof output, "%.9f\n%.9f\n", before, after);
  snprintf(counters, sizeof counters, "\"advances\":%ld,\"pairs\":%ld", advances, pairs);
  print_measured(loop_ns, counters, input, output);
  return 0;
}
