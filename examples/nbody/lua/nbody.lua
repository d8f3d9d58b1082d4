-- n-body: the Jovian planets around the sun, advanced n steps of 0.01
-- days-years, in the style of the benchmarks game (written for greenbench). A
-- line-for-line port of ../c/nbody.c; prints the generic worker contract line
-- (docs/suites.md).
package.path = (arg[0]:match("^(.*/)") or "./") .. "?.lua;" .. package.path
local contract = require("contract")
local sqrt = math.sqrt

local PI = 3.141592653589793
local SOLAR_MASS = 4 * PI * PI
local DAYS_PER_YEAR = 365.24
local NBODIES = 5
local N_MAX = 1000000000

-- x, y, z, vx, vy, vz, mass
local START = {
  {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, SOLAR_MASS},
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
}
local X, Y, Z, VX, VY, VZ, MASS = 1, 2, 3, 4, 5, 6, 7

local function copy(bodies)
  local b = {}
  for i = 1, NBODIES do
    b[i] = table.move(bodies[i], 1, 7, 1, {})
  end
  return b
end

-- The sun moves so that the system's total momentum is zero.
local function offset_momentum(b)
  local px, py, pz = 0.0, 0.0, 0.0
  for i = 1, NBODIES do
    px = px + b[i][VX] * b[i][MASS]
    py = py + b[i][VY] * b[i][MASS]
    pz = pz + b[i][VZ] * b[i][MASS]
  end
  b[1][VX] = -px / SOLAR_MASS
  b[1][VY] = -py / SOLAR_MASS
  b[1][VZ] = -pz / SOLAR_MASS
end

local function energy(b)
  local e = 0.0
  for i = 1, NBODIES do
    local bi = b[i]
    e = e + 0.5 * bi[MASS] * (bi[VX] * bi[VX] + bi[VY] * bi[VY] + bi[VZ] * bi[VZ])
    for j = i + 1, NBODIES do
      local bj = b[j]
      local dx = bi[X] - bj[X]
      local dy = bi[Y] - bj[Y]
      local dz = bi[Z] - bj[Z]
      e = e - bi[MASS] * bj[MASS] / sqrt(dx * dx + dy * dy + dz * dz)
    end
  end
  return e
end

-- One step of dt; returns the number of pair interactions computed.
local function advance(b, dt)
  local pairs = 0
  for i = 1, NBODIES do
    local bi = b[i]
    for j = i + 1, NBODIES do
      local bj = b[j]
      local dx = bi[X] - bj[X]
      local dy = bi[Y] - bj[Y]
      local dz = bi[Z] - bj[Z]
      local d2 = dx * dx + dy * dy + dz * dz
      local mag = dt / (d2 * sqrt(d2))
      bi[VX] = bi[VX] - dx * bj[MASS] * mag
      bi[VY] = bi[VY] - dy * bj[MASS] * mag
      bi[VZ] = bi[VZ] - dz * bj[MASS] * mag
      bj[VX] = bj[VX] + dx * bi[MASS] * mag
      bj[VY] = bj[VY] + dy * bi[MASS] * mag
      bj[VZ] = bj[VZ] + dz * bi[MASS] * mag
      pairs = pairs + 1
    end
  end
  for i = 1, NBODIES do
    local bi = b[i]
    bi[X] = bi[X] + dt * bi[VX]
    bi[Y] = bi[Y] + dt * bi[VY]
    bi[Z] = bi[Z] + dt * bi[VZ]
  end
  return pairs
end

-- The input's text: each body's x y z vx vy vz mass, "%.9f", one line each.
local function input_text(b)
  local lines = {}
  for i = 1, NBODIES do
    local values = {}
    for k = 1, 7 do
      values[k] = string.format("%.9f", b[i][k])
    end
    lines[i] = table.concat(values, " ") .. "\n"
  end
  return table.concat(lines)
end

local function main(...)
  local n, reps = contract.parse_args({...}, select("#", ...), "nbody", N_MAX)
  local initial = copy(START)
  offset_momentum(initial)
  local text = input_text(initial)
  if reps == 0 then
    contract.print_startup(text)
    return
  end

  local before, after = 0.0, 0.0
  local advances, pairs = 0, 0
  local t0 = contract.now_ns()
  for r = 0, reps - 1 do
    local b = copy(initial)
    local e0 = energy(b)
    local steps, rep_pairs = 0, 0
    for _ = 1, n do
      rep_pairs = rep_pairs + advance(b, 0.01)
      steps = steps + 1
    end
    local e1 = energy(b)
    contract.check_same("nbody", r == 0 or (e0 == before and e1 == after and
                                            steps == advances and rep_pairs == pairs))
    before = e0
    after = e1
    advances = steps
    pairs = rep_pairs
  end
  local loop_ns = contract.now_ns() - t0

  local output = string.format("%.9f\n%.9f\n", before, after)
  local counters = string.format('"advances":%d,"pairs":%d', advances, pairs)
  contract.print_measured(loop_ns, counters, text, output)
end

main(...)
