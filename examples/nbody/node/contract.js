'use strict';
// What the two example programs share: their arguments, the monotonic clock,
// FNV-1a 64 and the contract line (docs/suites.md). A line-for-line port of
// ../c/contract.h. No npm packages.

const REPS_MAX = 1000000;

// One stderr line and exit 2: every bad argument ends here.
function usageFail(prog, what) {
  process.stderr.write(`${prog}: error: ${what} (usage: ${prog} N REPS | ${prog} N --startup-only)\n`);
  process.exit(2);
}

// A whole number of 1..15 ASCII digits within [1, max]; -1 otherwise.
function parseCount(s, max) {
  if (!/^[0-9]{1,15}$/.test(s)) return -1;
  const v = Number(s);
  return v >= 1 && v <= max ? v : -1;
}

// [n, reps]; reps is 0 for the startup form.
function parseArgs(argv, prog, nMax) {
  if (argv.length !== 2) usageFail(prog, 'expected 2 arguments');
  const n = parseCount(argv[0], nMax);
  if (n < 0) usageFail(prog, `N must be a whole number 1..${nMax}`);
  if (argv[1] === '--startup-only') return [n, 0];
  const reps = parseCount(argv[1], REPS_MAX);
  if (reps < 0) usageFail(prog, `REPS must be a whole number 1..${REPS_MAX} or --startup-only`);
  return [n, reps];
}

function nowNs() {
  return process.hrtime.bigint();
}

// FNV-1a 64 over the text s, as 16 lowercase hex digits.
function fnv1a64(s) {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(s, 'ascii')) {
    h ^= BigInt(b);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, '0');
}

function runtimeName() {
  return `Node.js ${process.version}`;
}

function printStartup(text) {
  process.stdout.write(
    `{"startup_only":true,"input_hash":"${fnv1a64(text)}","runtime":"${runtimeName()}"}\n`);
}

// counters: "name":value pairs already joined, e.g. '"advances":1000'.
function printMeasured(loopNs, counters, text, output) {
  process.stdout.write(
    `{"loop_ns":${loopNs},"counters":{${counters}},"input_hash":"${fnv1a64(text)}",` +
    `"output_hash":"${fnv1a64(output)}","runtime":"${runtimeName()}"}\n`);
}

// A repetition that disagrees with the one before is a broken program, not a
// result: exit 1 with one line. Comparing also uses every repetition's result.
function checkSame(prog, same) {
  if (!same) {
    process.stderr.write(`${prog}: error: a repetition gave a different result\n`);
    process.exit(1);
  }
}

// "%.9f" as C prints it. toFixed rounds the exact binary value as printf
// does (ties, which need a value exact at the 10th decimal, do not occur
// here); only -0 differs, and C's "-0.000000000" is kept.
function fixed9(x) {
  const s = x.toFixed(9);
  return Object.is(x, -0) ? `-${s}` : s;
}

module.exports = {
  parseArgs, nowNs, printStartup, printMeasured, checkSame, fixed9,
};
