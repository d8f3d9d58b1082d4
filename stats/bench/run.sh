#!/bin/sh
# The report benchmark (docs/performance.md, figures 5 and 6): a synthetic
# study-sized records folder (144 configurations x 30 runs, 48 startup
# trials x 30 batches, energy ok), `greenbench report` on it with the
# default 10,000 resamples, and the same per-configuration bootstrap in
# vectorised numpy (bootstrap_numpy.py), side by side and interleaved:
# each of ROUNDS rounds runs numpy once and the report five times, and the
# figure is the median of the rounds' ratios (numpy's bootstrap time / the
# report's median wall time). The numpy side does the bootstrap only, not
# the ratios, ranks or writers. Goals, one PASS or FAIL line each:
#   report >= 20 x numpy bootstrap
#   peak RSS of report <= 32 MiB   (wait4's ru_maxrss, largest of the runs)
# Also prints the in-process breakdown of bench_report (records read,
# analysis, whole report) and checks that numpy's point estimates are C's.
#
# usage: stats/bench/run.sh [BUILD_DIR] [WORK_DIR]
#   BUILD_DIR  a configured and built tree (default build-report) with
#              greenbench and its static libraries
#   WORK_DIR   where the records and outputs go (default a fresh mktemp -d)
# Environment: GB_REPORT_ROUNDS (default 3).
# Exit status: 0 both goals met, 1 a goal missed, other: error.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build-report}" && pwd)
work=${2:-$(mktemp -d)}
rounds=${GB_REPORT_ROUNDS:-3}
mkdir -p "$work"
lib() { find "$build" -name "$1" | head -n 1; }
stats_lib=$(lib libgb_stats.a)
records_lib=$(lib libgb_records.a)
base_lib=$(lib libgb_base.a)
workload_lib=$(lib libgb_workload.a)
version_lib=$(lib libgb_version.a)
greenbench=$build/greenbench
if [ -z "$stats_lib" ] || [ -z "$records_lib" ] || [ -z "$base_lib" ] || [ -z "$workload_lib" ] ||
  [ -z "$version_lib" ] || [ ! -x "$greenbench" ]; then
  echo "run.sh: build $build first (greenbench and libgb_{stats,records,base,workload,version}.a)" >&2
  exit 2
fi
# The benchmark programs live outside the build tree: the data folder
# (the carbon table) is named for them.
GREENBENCH_DATA_DIR=${GREENBENCH_DATA_DIR:-$root/stats}
export GREENBENCH_DATA_DIR

cflags="-std=c11 -O2 -D_GNU_SOURCE -Wall -Wextra -Werror -I$root/stats/include -I$root/core/records/include -I$root/core/base/include -I$root/workers/include"
libs="$stats_lib $records_lib $base_lib $workload_lib $version_lib $(pkg-config --libs libcjson libxxhash libarchive) -pthread -lm"
# shellcheck disable=SC2086 # flags are words
cc $cflags -o "$work/gen_records" "$here/gen_records.c" $libs
# shellcheck disable=SC2086
cc $cflags -o "$work/bench_report" "$here/bench_report.c" $libs

mkdir -p "$work/out" "$work/report"
"$work/gen_records" "$work/records"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
c_out=$("$work/bench_report" "$work/records" "$work/out" "$work/points.csv" 5)
echo "$c_out" | grep -v '^C_'

report() {
  /usr/bin/python3 "$here/proc_stats.py" "$1" "$greenbench" report "$work/records" \
    --out "$work/report/results.md" --junit "$work/report/junit.xml" \
    --chart "$work/report/chart.svg" --summary "$work/report/summary.json"
}
ratios=""
rss=0
r=1
while [ "$r" -le "$rounds" ]; do
  # Which goes first alternates from round to round.
  if [ $((r % 2)) -eq 1 ]; then
    py_out=$(/usr/bin/python3 "$here/bootstrap_numpy.py" "$work/records" "$work/points.csv")
    c_run=$(report 5)
  else
    c_run=$(report 5)
    py_out=$(/usr/bin/python3 "$here/bootstrap_numpy.py" "$work/records" "$work/points.csv")
  fi
  [ "$r" -eq 1 ] && echo "$py_out" | grep -v '^PY_'
  py=$(echo "$py_out" | sed -n 's/^PY_BOOTSTRAP_S=//p')
  c=$(echo "$c_run" | sed -n 's/^WALL_S=//p')
  kib=$(echo "$c_run" | sed -n 's/^MAXRSS_KIB=//p')
  [ "$kib" -gt "$rss" ] && rss=$kib
  ratio=$(awk -v p="$py" -v c="$c" 'BEGIN { printf "%.2f", p / c }')
  echo "round $r: numpy bootstrap $py s, greenbench report $c s (median of 5), ratio $ratio x, peak RSS $kib KiB"
  ratios="$ratios $ratio"
  r=$((r + 1))
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

c_an=$(echo "$c_out" | sed -n 's/^C_ANALYSIS_S=//p')
echo "$ratios" | tr ' ' '\n' | sed '/^$/d' | sort -n | awk -v rss="$rss" -v an="$c_an" '
  { v[NR] = $1 }
  END {
    med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    mib = rss / 1024
    printf "%s: report >= 20 x numpy bootstrap (median of %d rounds %.1f x, range %.1f to %.1f)\n",
      (med >= 20 ? "PASS" : "FAIL"), NR, med, v[1], v[NR]
    printf "%s: peak RSS of report <= 32 MiB (%.1f MiB, largest of %d runs, 10,000 resamples)\n",
      (mib <= 32 ? "PASS" : "FAIL"), mib, NR * 5
  }' | tee "$work/goals.txt"
echo "records and outputs in $work"
! grep -q '^FAIL' "$work/goals.txt"
