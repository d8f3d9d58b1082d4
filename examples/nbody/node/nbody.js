'use strict';
// n-body: the Jovian planets around the sun, advanced n steps of 0.01
// days-years, in the style of the benchmarks game (written for greenbench). A
// line-for-line port of ../c/nbody.c; prints the generic worker contract line
// (docs/suites.md).
const {
  parseArgs, nowNs, printStartup, printMeasured, checkSame, fixed9,
} = require('./contract.js');

const PI = 3.141592653589793;
const SOLAR_MASS = 4 * PI * PI;
const DAYS_PER_YEAR = 365.24;
const NBODIES = 5;
const N_MAX = 1000000000;

// x, y, z, vx, vy, vz, mass
const START = [
  [0, 0, 0, 0, 0, 0, SOLAR_MASS],
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
];
const X = 0, Y = 1, Z = 2, VX = 3, VY = 4, VZ = 5, MASS = 6;

// The sun moves so that the system's total momentum is zero.
function offsetMomentum(b) {
  let px = 0, py = 0, pz = 0;
  for (let i = 0; i < NBODIES; i++) {
    px += b[i][VX] * b[i][MASS];
    py += b[i][VY] * b[i][MASS];
    pz += b[i][VZ] * b[i][MASS];
  }
  b[0][VX] = -px / SOLAR_MASS;
  b[0][VY] = -py / SOLAR_MASS;
  b[0][VZ] = -pz / SOLAR_MASS;
}

function energy(b) {
  let e = 0;
  for (let i = 0; i < NBODIES; i++) {
    const bi = b[i];
    e += 0.5 * bi[MASS] * (bi[VX] * bi[VX] + bi[VY] * bi[VY] + bi[VZ] * bi[VZ]);
    for (let j = i + 1; j < NBODIES; j++) {
      const bj = b[j];
      const dx = bi[X] - bj[X];
      const dy = bi[Y] - bj[Y];
      const dz = bi[Z] - bj[Z];
      e -= bi[MASS] * bj[MASS] / Math.sqrt(dx * dx + dy * dy + dz * dz);
    }
  }
  return e;
}

// One step of dt; returns the number of pair interactions computed.
function advance(b, dt) {
  let pairs = 0;
  for (let i = 0; i < NBODIES; i++) {
    const bi = b[i];
    for (let j = i + 1; j < NBODIES; j++) {
      const bj = b[j];
      const dx = bi[X] - bj[X];
      const dy = bi[Y] - bj[Y];
      const dz = bi[Z] - bj[Z];
      const d2 = dx * dx + dy * dy + dz * dz;
      const mag = dt / (d2 * Math.sqrt(d2));
      bi[VX] -= dx * bj[MASS] * mag;
      bi[VY] -= dy * bj[MASS] * mag;
      bi[VZ] -= dz * bj[MASS] * mag;
      bj[VX] += dx * bi[MASS] * mag;
      bj[VY] += dy * bi[MASS] * mag;
      bj[VZ] += dz * bi[MASS] * mag;
      pairs++;
    }
  }
  for (let i = 0; i < NBODIES; i++) {
    const bi = b[i];
    bi[X] += dt * bi[VX];
    bi[Y] += dt * bi[VY];
    bi[Z] += dt * bi[VZ];
  }
  return pairs;
}

// The input's text: each body's x y z vx vy vz mass, "%.9f", one line each.
function inputText(b) {
  return b.map((body) => `${Array.from(body, fixed9).join(' ')}\n`).join('');
}

function main() {
  const [n, reps] = parseArgs(process.argv.slice(2), 'nbody', N_MAX);
  const initial = START.map((body) => Float64Array.from(body));
  offsetMomentum(initial);
  const text = inputText(initial);
  if (reps === 0) {
    printStartup(text);
    return;
  }

  let before = 0, after = 0;
  let advances = 0, pairs = 0;
  const t0 = nowNs();
  for (let r = 0; r < reps; r++) {
    const b = initial.map((body) => Float64Array.from(body));
    const e0 = energy(b);
    let steps = 0, repPairs = 0;
    for (let i = 0; i < n; i++) {
      repPairs += advance(b, 0.01);
      steps++;
    }
    const e1 = energy(b);
    checkSame('nbody', r === 0 || (e0 === before && e1 === after && steps === advances &&
                                   repPairs === pairs));
    before = e0;
    after = e1;
    advances = steps;
    pairs = repPairs;
  }
  const loopNs = nowNs() - t0;

  const output = `${fixed9(before)}\n${fixed9(after)}\n`;
  const counters = `"advances":${advances},"pairs":${pairs}`;
  printMeasured(loopNs, counters, text, output);
}

main();
