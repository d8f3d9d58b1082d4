'use strict';
// The Node.js worker: a line-for-line port of the C worker (workers/c/worker.c,
// workers/c/args.c, workers/src/*.c). It generates the input, hashes it, sorts
// a fresh copy --sorts times, checks every result and prints one JSON line
// (docs/design.md, "The worker contract"): the study's, or with --contract
// generic a suite's contract line (docs/suites.md). Exit 2 on bad arguments, 3 on a failed
// check. Keep it in step with the C files; the parity tests compare them.
//
// It is one CommonJS file on purpose: the parity tests run patched copies of
// it from a scratch folder, with NODE_PATH pointing at this folder's
// node_modules. Numbers are plain doubles: every count stays below 2^53.

let xxhashFactory;
try {
  xxhashFactory = require('xxhash-wasm');
} catch (e) {
  process.stderr.write(
    'worker: error: the npm package xxhash-wasm is missing (run npm ci in workers/node)\n');
  process.exit(1);
}

const EXIT_BAD_ARGS = 2;
const EXIT_CHECK_FAILED = 3;

const DEFAULT_SEED = 2463534242;
const MAX_SIZE = 10000000;
const MAX_SORTS = 1000000000;
const UINT32_MAX = 4294967295;
// args.c formats its messages into a 256-byte buffer, so a message longer than
// 255 bytes (a very long bad argument) is cut there; cut it at the same byte.
const MSG_MAX_BYTES = 255;

const ALGORITHMS = ['bubble', 'insertion', 'quick'];
const ORDERS = ['random', 'sorted', 'reversed', 'nearly'];

const MODE_SORT = 0;
const MODE_STARTUP = 1;
const MODE_DUMP_INPUT = 2;
const MODE_DUMP_XORSHIFT = 3;

const CONTRACTS = ['study', 'generic'];

const RUNTIME = 'Node.js ' + process.versions.node;

// PROJECT_VERSION of the top CMakeLists.txt; the test version/worker.js
// fails when they differ.
const VERSION = '0.2.0';
const ASKED_VERSION = '--version';

const USAGE =
  'usage: node worker.js --algorithm bubble|insertion|quick --order random|sorted|reversed|nearly\n' +
  '                      --size N --sorts K [--seed S] [--startup-only]\n' +
  '                      [--contract study|generic]\n' +
  '       node worker.js --dump-input --order O --size N [--seed S]\n' +
  '       node worker.js --dump-xorshift COUNT [--seed S]\n' +
  '       node worker.js --version | --help\n';

// ---- xorshift.c -------------------------------------------------------------

// Marsaglia (2003), shifts 13, 17, 5, on a uint32 state that is never 0. JS
// shifts work on 32-bit integers; >>> 0 brings each result back to uint32, and
// the right shift must be the unsigned >>>.
class Xorshift32 {
  constructor(seed) {
    // A zero state would only ever produce zeros: refused, never replaced.
    if (seed === 0) throw new RangeError('zero seed');
    this.x = seed;
  }

  next() {
    let x = this.x;
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    this.x = x;
    return x;
  }
}

// ---- input.c ----------------------------------------------------------------

function swap(a, i, j) {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

// The input of the given order, a permutation of 0..n-1, from a fresh
// generator seeded with seed. Throws RangeError as gb_input_fill returns
// -EINVAL. The array is built with push so that V8 keeps it packed.
function inputFill(n, order, seed) {
  if (n === 0 || n > MAX_SIZE || !ORDERS.includes(order)) throw new RangeError('bad input');
  const g = new Xorshift32(seed);
  const a = [];
  for (let i = 0; i < n; i++) a.push(order === 'reversed' ? n - 1 - i : i);
  if (order === 'random') {
    // Fisher-Yates from the top.
    for (let i = n - 1; i >= 1; i--) swap(a, i, g.next() % (i + 1));
  } else if (order === 'nearly') {
    // n/20 swaps of random pairs: about 5% of positions.
    const swaps = Math.floor(n / 20);
    for (let k = 0; k < swaps; k++) {
      const i = g.next() % n;
      const j = g.next() % n;
      swap(a, i, j);
    }
  }
  return a;
}

// ---- sorts.c ----------------------------------------------------------------

// Comparisons and array writes of one sort, counted where docs/design.md says.
class Counts {
  constructor() {
    this.comparisons = 0;
    this.writes = 0;
  }
}

function bubbleSort(a, n, c) {
  // No early exit: every pass runs, whatever the input.
  for (let i = 0; i + 1 < n; i++) {
    for (let j = 0; j + 1 < n - i; j++) {
      c.comparisons++;
      if (a[j] > a[j + 1]) {
        const t = a[j];
        a[j] = a[j + 1];
        a[j + 1] = t;
        c.writes += 2;
      }
    }
  }
}

function insertionSort(a, n, c) {
  for (let i = 1; i < n; i++) {
    const key = a[i];
    let j = i - 1;
    while (j >= 0) {
      c.comparisons++;
      if (a[j] > key) {
        a[j + 1] = a[j];
        c.writes++;
        j--;
      } else {
        break;
      }
    }
    if (j + 1 !== i) {
      a[j + 1] = key;
      c.writes++;
    }
  }
}

function swapCounted(a, i, j, c) {
  if (i === j) return; // a self-swap is skipped and costs nothing
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
  c.writes += 2;
}

// Lomuto partition of a[lo..hi] around the last element.
function partition(a, lo, hi, c) {
  const pivot = a[hi];
  let i = lo;
  for (let j = lo; j < hi; j++) {
    c.comparisons++;
    if (a[j] <= pivot) {
      swapCounted(a, i, j, c);
      i++;
    }
  }
  swapCounted(a, i, hi, c);
  return i;
}

// Recurses into the smaller side and loops on the larger, so the stack stays
// O(log n) even on sorted input, where Lomuto degrades to n^2/2 comparisons.
function quickRange(a, lo, hi, c) {
  while (lo < hi) {
    const p = partition(a, lo, hi, c);
    if (p - lo < hi - p) {
      quickRange(a, lo, p - 1, c);
      lo = p + 1;
    } else {
      quickRange(a, p + 1, hi, c);
      hi = p - 1;
    }
  }
}

function quickSort(a, n, c) {
  if (n >= 2) quickRange(a, 0, n - 1, c);
}

function sort(algorithm, a, n, c) {
  switch (algorithm) {
    case 'bubble':
      bubbleSort(a, n, c);
      break;
    case 'insertion':
      insertionSort(a, n, c);
      break;
    case 'quick':
    default:
      quickSort(a, n, c);
      break;
  }
}

function isIdentity(a, n) {
  for (let i = 0; i < n; i++) {
    if (a[i] !== i) return false;
  }
  return true;
}

// ---- hash.c -----------------------------------------------------------------

// XXH64, seed 0, of a as little-endian int32 bytes, as 16 lowercase hex digits.
function inputHashHex(hasher, a) {
  const image = Buffer.alloc(a.length * 4);
  for (let i = 0; i < a.length; i++) image.writeInt32LE(a[i], i * 4);
  return hasher.h64Raw(image, 0n).toString(16).padStart(16, '0');
}

// ---- args.c -----------------------------------------------------------------

class ArgsError extends Error {}

// Option names and whether each takes a value, in args.c's order.
const OPTIONS = new Map([
  ['--algorithm', true],
  ['--order', true],
  ['--size', true],
  ['--sorts', true],
  ['--seed', true],
  ['--startup-only', false],
  ['--dump-input', false],
  ['--dump-xorshift', true],
  ['--contract', true],
]);

// The value of option name: decimal ASCII digits only (no sign, space or
// exponent), within [1, max]; ArgsError otherwise.
function parseCount(name, s, max) {
  let v = 0;
  let ok = s !== '';
  for (let k = 0; ok && k < s.length; k++) {
    const d = s.charCodeAt(k) - 48;
    ok = d >= 0 && d <= 9;
    v = v * 10 + d;
    ok = ok && v <= max;
  }
  if (!ok || v === 0) throw new ArgsError(`${name} must be an integer from 1 to ${max}, got '${s}'`);
  return v;
}

function setValue(o, name, v) {
  switch (name) {
    case '--algorithm':
      if (!ALGORITHMS.includes(v))
        throw new ArgsError(`unknown algorithm '${v}' (expected bubble, insertion or quick)`);
      o.algorithm = v;
      return;
    case '--order':
      if (!ORDERS.includes(v))
        throw new ArgsError(`unknown order '${v}' (expected random, sorted, reversed or nearly)`);
      o.order = v;
      return;
    case '--contract':
      if (!CONTRACTS.includes(v))
        throw new ArgsError(`unknown contract '${v}' (expected study or generic)`);
      o.contract = v;
      return;
    case '--size':
      o.size = parseCount(name, v, MAX_SIZE);
      return;
    case '--sorts':
      o.sorts = parseCount(name, v, MAX_SORTS);
      return;
    case '--seed':
      o.seed = parseCount(name, v, UINT32_MAX);
      return;
    default: // --dump-xorshift
      o.dumpCount = parseCount(name, v, MAX_SIZE);
      return;
  }
}

// The options each mode requires, in the order their absence is reported.
function checkRequired(o, seen) {
  const modes = ['--startup-only', '--dump-input', '--dump-xorshift'].filter((m) => seen.has(m));
  if (modes.length > 1)
    throw new ArgsError('only one of --startup-only, --dump-input and --dump-xorshift may be given');
  o.mode = seen.has('--startup-only') ? MODE_STARTUP
    : seen.has('--dump-input') ? MODE_DUMP_INPUT
      : seen.has('--dump-xorshift') ? MODE_DUMP_XORSHIFT
        : MODE_SORT;
  const needs = o.mode === MODE_DUMP_XORSHIFT ? []
    : o.mode === MODE_DUMP_INPUT ? ['--order', '--size']
      : ['--algorithm', '--order', '--size', '--sorts'];
  for (const name of needs) {
    if (!seen.has(name)) throw new ArgsError(`missing ${name}`);
  }
}

// Parses the arguments after the script's name. Returns the options, null
// when --help was asked for or ASKED_VERSION when --version was; throws
// ArgsError with a one-line message.
function argsParse(argv) {
  const o = {
    mode: MODE_SORT, contract: 'study', algorithm: null, order: null, size: 0, sorts: 0,
    seed: DEFAULT_SEED, dumpCount: 0,
  };
  const seen = new Set();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') return null;
    if (arg === '--version') return ASKED_VERSION;
    if (!OPTIONS.has(arg)) {
      throw new ArgsError(arg[0] === '-' ? `unknown option '${arg}'` : `unexpected argument '${arg}'`);
    }
    if (seen.has(arg)) throw new ArgsError(`option '${arg}' given twice`);
    seen.add(arg);
    if (!OPTIONS.get(arg)) continue;
    if (i + 1 >= argv.length) throw new ArgsError(`option '${arg}' needs a value`);
    setValue(o, arg, argv[++i]);
  }
  checkRequired(o, seen);
  return o;
}

// ---- worker.c ---------------------------------------------------------------

function die(code, msg) {
  const text = Buffer.from(msg, 'utf8').subarray(0, MSG_MAX_BYTES);
  process.stderr.write(Buffer.concat([Buffer.from('worker: error: '), text, Buffer.from('\n')]));
  return code;
}

function nowNs() {
  return process.hrtime.bigint();
}

function printHead(a) {
  return `{"language":"node","algorithm":"${a.algorithm}","order":"${a.order}",` +
    `"size":${a.size},"seed":${a.seed},"sorts":${a.sorts},`;
}

// Sorts a fresh copy of input a.sorts times, checking each result; the check
// inside the loop keeps every sort's work observable (docs/methods.md #7). Returns
// { first, loopNs, work } (work: the last sort's result), or null after a
// failed check.
function sortLoop(a, input) {
  let first = null;
  let work = null;
  const t0 = nowNs();
  for (let k = 0; k < a.sorts; k++) {
    const c = new Counts();
    work = input.slice();
    sort(a.algorithm, work, a.size, c);
    if (!isIdentity(work, a.size)) {
      die(EXIT_CHECK_FAILED, `check failed: sort ${k + 1} of ${a.sorts} did not give ` +
        `0..${a.size - 1} (${a.algorithm}, ${a.order}, size ${a.size})`);
      return null;
    }
    if (k === 0) {
      first = c;
    } else if (c.comparisons !== first.comparisons || c.writes !== first.writes) {
      die(EXIT_CHECK_FAILED, `check failed: sort ${k + 1} counted differently`);
      return null;
    }
  }
  const loopNs = nowNs() - t0;
  return { first, loopNs, work };
}

// Writes one decimal value per line, in chunks to bound memory.
function writeLines(values) {
  const chunk = 65536;
  for (let start = 0; start < values.length; start += chunk) {
    process.stdout.write(values.slice(start, start + chunk).join('\n') + '\n');
  }
}

function runDumpXorshift(a) {
  let g;
  try {
    g = new Xorshift32(a.seed);
  } catch (e) {
    return die(EXIT_BAD_ARGS, '--seed must not be 0');
  }
  const values = [];
  for (let i = 0; i < a.dumpCount; i++) values.push(g.next());
  writeLines(values);
  return 0;
}

async function run(a) {
  let input;
  try {
    input = inputFill(a.size, a.order, a.seed);
  } catch (e) {
    return die(1, 'cannot allocate the input');
  }
  if (a.mode === MODE_DUMP_INPUT) {
    writeLines(input);
    return 0;
  }
  const hasher = await xxhashFactory();
  const hash = inputHashHex(hasher, input);
  if (a.mode === MODE_STARTUP) {
    // The generic line is the study's without its head.
    process.stdout.write((a.contract === 'study' ? printHead(a) : '{') +
      `"startup_only":true,"input_hash":"${hash}","runtime":"${RUNTIME}"}\n`);
    return 0;
  }
  const result = sortLoop(a, input);
  if (result === null) return EXIT_CHECK_FAILED;
  const c = result.first;
  if (a.contract === 'generic') {
    process.stdout.write(`{"loop_ns":${result.loopNs},"counters":{"comparisons":` +
      `${c.comparisons},"writes":${c.writes}},"input_hash":"${hash}",` +
      `"output_hash":"${inputHashHex(hasher, result.work)}","runtime":"${RUNTIME}"}\n`);
    return 0;
  }
  process.stdout.write(printHead(a) +
    `"comparisons":${c.comparisons},"writes":${c.writes},"input_hash":"${hash}",` +
    `"loop_ns":${result.loopNs},"sorted":true,"runtime":"${RUNTIME}"}\n`);
  return 0;
}

// The commit of the greenbench checkout this file is in, as the build finds
// it (version/git_commit.cmake): 12 hex digits, "-dirty" when a tracked file
// differs, "unknown" outside a checkout (installed, or a scratch copy) or
// without git.
function gitCommit() {
  // Only here: the measured runs never load them.
  const { execFileSync } = require('child_process');
  const fs = require('fs');
  const path = require('path');
  const here = path.dirname(fs.realpathSync(__filename));
  const git = (...args) => execFileSync('git', ['-C', here, ...args],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const top = git('rev-parse', '--show-toplevel').trim();
    const mine = path.join(top, 'workers', 'node', 'worker.js');
    if (!fs.existsSync(mine) || fs.realpathSync(mine) !== fs.realpathSync(__filename)) {
      return 'unknown';
    }
    const head = git('rev-parse', '--short=12', 'HEAD').trim();
    const dirty = git('--no-optional-locks', 'status', '--porcelain', '--untracked-files=no');
    return head + (dirty ? '-dirty' : '');
  } catch (e) {
    return 'unknown';
  }
}

async function main(argv) {
  let a;
  try {
    a = argsParse(argv);
  } catch (e) {
    if (e instanceof ArgsError) return die(EXIT_BAD_ARGS, e.message);
    throw e;
  }
  if (a === null) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (a === ASKED_VERSION) {
    process.stdout.write(`greenbench ${VERSION} (commit ${gitCommit()})\n`);
    return 0;
  }
  return a.mode === MODE_DUMP_XORSHIFT ? runDumpXorshift(a) : run(a);
}

// A failed write to stdout (a closed pipe) arrives as an error event; report
// it once, as the C worker does, instead of a stack trace.
process.stdout.on('error', () => {
  process.stdout.removeAllListeners('error');
  process.stdout.on('error', () => {});
  process.exitCode = die(1, 'cannot write to stdout');
  process.stdout.destroy();
});

// Set the exit code and let Node.js end on its own, so that everything
// written to stdout is flushed first.
main(process.argv.slice(2)).then(
  (code) => {
    if (process.exitCode === undefined) process.exitCode = code;
  },
  (e) => {
    die(1, `unexpected failure: ${e && e.stack ? e.stack.split('\n')[0] : e}`);
    process.exitCode = 1;
  });
