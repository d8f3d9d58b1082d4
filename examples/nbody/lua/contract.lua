-- What the two example programs share: their arguments, the monotonic clock,
-- FNV-1a 64 and the contract line (docs/suites.md). A line-for-line port of
-- ../c/contract.h, for Lua 5.3 (64-bit integers that wrap, as C's uint64_t)
-- with lua-posix for the monotonic clock.
local ptime = require("posix.time")

local M = {}
local REPS_MAX = 1000000

-- One stderr line and exit 2: every bad argument ends here.
local function usage_fail(prog, what)
  io.stderr:write(string.format("%s: error: %s (usage: %s N REPS | %s N --startup-only)\n",
    prog, what, prog, prog))
  os.exit(2)
end

-- A whole number of 1..15 ASCII digits within [1, max]; -1 otherwise.
local function parse_count(s, max)
  if #s < 1 or #s > 15 or not s:match("^[0-9]+$") then
    return -1
  end
  local v = math.tointeger(tonumber(s))
  if v >= 1 and v <= max then
    return v
  end
  return -1
end

-- n, reps; reps is 0 for the startup form. argv holds the arguments only.
function M.parse_args(argv, argc, prog, n_max)
  if argc ~= 2 then
    usage_fail(prog, "expected 2 arguments")
  end
  local n = parse_count(argv[1], n_max)
  if n < 0 then
    usage_fail(prog, string.format("N must be a whole number 1..%d", n_max))
  end
  if argv[2] == "--startup-only" then
    return n, 0
  end
  local reps = parse_count(argv[2], REPS_MAX)
  if reps < 0 then
    usage_fail(prog, string.format("REPS must be a whole number 1..%d or --startup-only",
      REPS_MAX))
  end
  return n, reps
end

function M.now_ns()
  local t = ptime.clock_gettime(ptime.CLOCK_MONOTONIC)
  return t.tv_sec * 1000000000 + t.tv_nsec
end

-- FNV-1a 64 over the text s (integer arithmetic wraps modulo 2^64).
local function fnv1a64(s)
  local h = -3750763034362895579 -- 0xcbf29ce484222325
  for i = 1, #s do
    h = h ~ s:byte(i)
    h = h * 0x100000001b3
  end
  return h
end

local function runtime_name()
  return _VERSION
end

function M.print_startup(text)
  io.write(string.format('{"startup_only":true,"input_hash":"%016x","runtime":"%s"}\n',
    fnv1a64(text), runtime_name()))
end

-- counters: "name":value pairs already joined, e.g. '"advances":1000'.
function M.print_measured(loop_ns, counters, text, output)
  io.write(string.format('{"loop_ns":%d,"counters":{%s},"input_hash":"%016x",' ..
    '"output_hash":"%016x","runtime":"%s"}\n',
    loop_ns, counters, fnv1a64(text), fnv1a64(output), runtime_name()))
end

-- A repetition that disagrees with the one before is a broken program, not a
-- result: exit 1 with one line. Comparing also uses every repetition's result.
function M.check_same(prog, same)
  if not same then
    io.stderr:write(string.format("%s: error: a repetition gave a different result\n", prog))
    os.exit(1)
  end
end

return M
