#!/bin/sh
# The report benchmark: a synthetic study-sized records folder (144
# configurations x 30 runs, 48 startup trials x 30 batches, energy ok), the
# C report stage timed on it, the same per-configuration bootstrap in numpy,
# and the ratio of the two.
#
# usage: stats/bench/run.sh [BUILD_DIR] [WORK_DIR]
#   BUILD_DIR  a configured and built tree (default build-report), for
#              libgb_stats.a and libgb_error.a
#   WORK_DIR   where the records and outputs go (default a fresh mktemp -d)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build-report}
work=${2:-$(mktemp -d)}
mkdir -p "$work"
stats_lib=$(find "$build" -name libgb_stats.a | head -n 1)
error_lib=$(find "$build" -name libgb_error.a | head -n 1)
workload_lib=$(find "$build" -name libgb_workload.a | head -n 1)
if [ -z "$stats_lib" ] || [ -z "$error_lib" ] || [ -z "$workload_lib" ]; then
  echo "run.sh: build $build first (libgb_stats.a, libgb_error.a, libgb_workload.a not found)" >&2
  exit 1
fi

cflags="-std=c11 -O2 -D_GNU_SOURCE -Wall -Wextra -Werror -I$root/stats/include -I$root/harness/include -I$root/workers/include"
libs="$stats_lib $error_lib $workload_lib $(pkg-config --libs libcjson libxxhash) -lm"
cc $cflags -o "$work/gen_records" "$here/gen_records.c" $libs
cc $cflags -o "$work/bench_report" "$here/bench_report.c" $libs

mkdir -p "$work/out"
"$work/gen_records" "$work/records"
c_out=$("$work/bench_report" "$work/records" "$work/out" "$work/points.csv" 5)
py_out=$(/usr/bin/python3 "$here/bootstrap_numpy.py" "$work/records" "$work/points.csv")
echo "$c_out" | grep -v '^C_'
echo "$py_out" | grep -v '^PY_'

c_an=$(echo "$c_out" | sed -n 's/^C_ANALYSIS_S=//p')
c_rep=$(echo "$c_out" | sed -n 's/^C_REPORT_S=//p')
py_boot=$(echo "$py_out" | sed -n 's/^PY_BOOTSTRAP_S=//p')
awk -v a="$c_an" -v r="$c_rep" -v p="$py_boot" 'BEGIN {
  printf "numpy bootstrap / C analysis (bootstraps, ratios, ranks): %.1fx\n", p / a
  printf "numpy bootstrap / C whole report: %.1fx\n", p / r
  if (r >= 2.0) { print "FAIL: the report took 2 s or more"; exit 1 }
}'
echo "records and outputs in $work"
