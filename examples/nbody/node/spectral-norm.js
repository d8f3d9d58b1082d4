'use strict';
// spectral-norm: the largest singular value of the infinite matrix
// A(i,j) = 1/((i+j)(i+j+1)/2+i+1), cut to n x n, by 10 steps of the power
// method, in the style of the benchmarks game (written for greenbench). A
// line-for-line port of ../c/spectral-norm.c; prints the generic worker
// contract line (docs/suites.md).
const {
  parseArgs, nowNs, printStartup, printMeasured, checkSame, fixed9,
} = require('./contract.js');

// (i+j)(i+j+1) stays below 2^31 in the C program
const N_MAX = 20000;

// (i+j)(i+j+1) is even, so the division is exact, as C's integer one.
function aij(i, j) {
  return 1.0 / ((i + j) * (i + j + 1) / 2 + i + 1);
}

// v = A u; returns the number of A(i,j) evaluated.
function mulAv(n, u, v) {
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let j = 0; j < n; j++) sum += aij(i, j) * u[j];
    v[i] = sum;
  }
  return n * n;
}

// v = At u
function mulAtv(n, u, v) {
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let j = 0; j < n; j++) sum += aij(j, i) * u[j];
    v[i] = sum;
  }
  return n * n;
}

// v = At A u
function mulAtAv(n, u, v, tmp) {
  return mulAv(n, u, tmp) + mulAtv(n, tmp, v);
}

// One run of the power method: [the norm, the number of A(i,j) used].
function spectralNorm(n, u, v, tmp) {
  let count = 0;
  for (let i = 0; i < n; i++) u[i] = 1;
  for (let k = 0; k < 10; k++) {
    count += mulAtAv(n, u, v, tmp);
    count += mulAtAv(n, v, u, tmp);
  }
  let vBv = 0, vv = 0;
  for (let i = 0; i < n; i++) {
    vBv += u[i] * v[i];
    vv += v[i] * v[i];
  }
  return [Math.sqrt(vBv / vv), count];
}

function main() {
  const [n, reps] = parseArgs(process.argv.slice(2), 'spectral-norm', N_MAX);
  const text = `${n}\n`;
  if (reps === 0) {
    printStartup(text);
    return;
  }

  const u = new Float64Array(n), v = new Float64Array(n), tmp = new Float64Array(n);
  let result = 0, products = 0;
  const t0 = nowNs();
  for (let r = 0; r < reps; r++) {
    const [norm, repProducts] = spectralNorm(n, u, v, tmp);
    checkSame('spectral-norm', r === 0 || (norm === result && repProducts === products));
    result = norm;
    products = repProducts;
  }
  const loopNs = nowNs() - t0;

  const output = `${fixed9(result)}\n`;
  const counters = `"products":${products}`;
  printMeasured(loopNs, counters, text, output);
}

main();
