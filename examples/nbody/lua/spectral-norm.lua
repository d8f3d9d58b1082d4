-- spectral-norm: the largest singular value of the infinite matrix
-- A(i,j) = 1/((i+j)(i+j+1)/2+i+1), cut to n x n, by 10 steps of the power
-- method, in the style of the benchmarks game (written for greenbench). A
-- line-for-line port of ../c/spectral-norm.c (indices from 0, as there);
-- prints the generic worker contract line (docs/suites.md).
package.path = (arg[0]:match("^(.*/)") or "./") .. "?.lua;" .. package.path
local contract = require("contract")

-- (i+j)(i+j+1) stays below 2^31 in the C program
local N_MAX = 20000

-- Integer arithmetic (//), then one division to a float, as C.
local function a_ij(i, j)
  return 1.0 / ((i + j) * (i + j + 1) // 2 + i + 1)
end

-- v = A u; returns the number of A(i,j) evaluated.
local function mul_av(n, u, v)
  for i = 0, n - 1 do
    local sum = 0.0
    for j = 0, n - 1 do
      sum = sum + a_ij(i, j) * u[j]
    end
    v[i] = sum
  end
  return n * n
end

-- v = At u
local function mul_atv(n, u, v)
  for i = 0, n - 1 do
    local sum = 0.0
    for j = 0, n - 1 do
      sum = sum + a_ij(j, i) * u[j]
    end
    v[i] = sum
  end
  return n * n
end

-- v = At A u
local function mul_atav(n, u, v, tmp)
  return mul_av(n, u, tmp) + mul_atv(n, tmp, v)
end

-- One run of the power method: the norm, the number of A(i,j) used.
local function spectral_norm(n, u, v, tmp)
  local count = 0
  for i = 0, n - 1 do
    u[i] = 1.0
  end
  for _ = 1, 10 do
    count = count + mul_atav(n, u, v, tmp)
    count = count + mul_atav(n, v, u, tmp)
  end
  local vbv, vv = 0.0, 0.0
  for i = 0, n - 1 do
    vbv = vbv + u[i] * v[i]
    vv = vv + v[i] * v[i]
  end
  return math.sqrt(vbv / vv), count
end

local function main(...)
  local n, reps = contract.parse_args({...}, select("#", ...), "spectral-norm", N_MAX)
  local text = string.format("%d\n", n)
  if reps == 0 then
    contract.print_startup(text)
    return
  end

  local u, v, tmp = {}, {}, {}
  local result, products = 0.0, 0
  local t0 = contract.now_ns()
  for r = 0, reps - 1 do
    local norm, rep_products = spectral_norm(n, u, v, tmp)
    contract.check_same("spectral-norm", r == 0 or (norm == result and rep_products == products))
    result = norm
    products = rep_products
  end
  local loop_ns = contract.now_ns() - t0

  local output = string.format("%.9f\n", result)
  local counters = string.format('"products":%d', products)
  contract.print_measured(loop_ns, counters, text, output)
end

main(...)
