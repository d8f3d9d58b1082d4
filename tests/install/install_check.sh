#!/bin/bash
# install_check.sh CMAKE BUILD_DIR SOURCE_DIR: installs BUILD_DIR into a
# temporary prefix, moves the prefix to another path, and runs the moved
# greenbench: `check` finds every worker under the prefix, a one-configuration
# smoke campaign and its report succeed, a worker or data override that points
# nowhere fails with one line naming what was looked for, and no installed file
# holds the path of the source or build tree (`grep -r`).
set -uo pipefail
cmake=$1 build=$2 source=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/greenbench-install.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}
unset GREENBENCH_LIBEXEC_DIR GREENBENCH_DATA_DIR

"$cmake" --install "$build" --prefix "$work/staged" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; fail "cmake --install $build --prefix $work/staged"; }
# Moved: the binaries must find their files relative to themselves.
mv "$work/staged" "$work/prefix" || fail "cannot move the prefix"
p=$work/prefix
echo "installed into $work/staged, moved to $p"

for f in bin/greenbench bin/greenbench-suite libexec/greenbench/worker-c \
  libexec/greenbench/python/worker.py libexec/greenbench/node/worker.js \
  libexec/greenbench/node/node_modules/xxhash-wasm/package.json \
  share/greenbench/data/grid-carbon-intensity.csv share/greenbench/data/README.md \
  share/greenbench/suites/sorting.json \
  share/greenbench/schema/greenbench-junit.xsd share/greenbench/schema/greenbench-suite-junit.xsd \
  share/greenbench/schema/summary.schema.json \
  share/greenbench/schema/check.schema.json \
  share/greenbench/schema/suite.schema.json share/greenbench/schema/suite-meta.schema.json \
  share/greenbench/schema/suite-summary.schema.json share/greenbench/schema/suite-compare.schema.json \
  share/doc/greenbench/README.md \
  share/doc/greenbench/copyright share/doc/greenbench/docs/design.md \
  share/doc/greenbench/docs/recipes/slurm-submit.sh \
  share/man/man1/greenbench.1.gz share/man/man1/greenbench-suite.1.gz \
  share/bash-completion/completions/greenbench share/bash-completion/completions/greenbench-suite; do
  [ -e "$p/$f" ] || fail "not installed: $f"
done

for tree in "$source" "$build"; do
  if hits=$(grep -rlF -- "$tree" "$p"); then
    fail "installed files hold the path $tree:"$'\n'"$hits"
  fi
  echo "grep -r $tree $p: nothing"
done

# check: each worker starts from the prefix (the C worker's path is printed).
"$p/bin/greenbench" check >"$work/check.out" 2>&1
grep "^c: " "$work/check.out" | grep -v "does not run" | grep -F "($p/libexec/greenbench/worker-c)" ||
  { cat "$work/check.out"; fail "check: the C worker is not the prefix's"; }
for l in python node; do
  if ! grep -q "^$l: " "$work/check.out" || grep -q "^$l: .*does not run" "$work/check.out"; then
    cat "$work/check.out"
    fail "check: the $l worker does not run from the prefix"
  fi
done
echo "check: every worker runs from $p/libexec/greenbench"

# One configuration of the smoke profile, and its report.
records=$work/records
"$p/bin/greenbench" run --profile smoke --languages c --algorithms quick --orders random \
  --sizes 100 --energy off --quiet --out "$records" >"$work/run.out" 2>&1 ||
  { cat "$work/run.out"; fail "greenbench run from the prefix"; }
"$p/bin/greenbench" report "$records" >"$work/report.out" 2>&1 ||
  { cat "$work/report.out"; fail "greenbench report from the prefix"; }
for f in runs.csv meta.json results.md junit.xml chart.svg summary.json; do
  [ -s "$records/$f" ] || fail "the campaign or report did not write $f"
done
echo "run and report from the prefix: $(($(wc -l <"$records/runs.csv") - 1)) runs, results.md written"

# The installed sorting suite finds the installed workers ({workers} is
# libexec/greenbench): its C quick sorts at size 250 (the file cut to them)
# run and agree with its expect entries.
/usr/bin/python3 - "$p/share/greenbench/suites/sorting.json" "$work/sorting-cut.json" <<'PY' ||
import json, sys
s = json.load(open(sys.argv[1]))
s["languages"] = [l for l in s["languages"] if l["name"] == "c"]
s["workloads"] = [w for w in s["workloads"] if w["name"] == "quick"]
for p in s["workloads"][0]["parameters"]:
    p["values"] = [250] if p["name"] == "size" else p["values"]
s["workloads"][0]["expect"] = [e for e in s["workloads"][0]["expect"] if e["size"] == 250]
json.dump(s, open(sys.argv[2], "w"))
PY
  fail "cannot cut the installed sorting suite"
"$p/bin/greenbench" suite check "$work/sorting-cut.json" >"$work/suite.out" 2>&1 ||
  { cat "$work/suite.out"; fail "suite check of the installed sorting suite"; }
grep -qE "^c +quick +order=random,size=250 +run +ok" "$work/suite.out" ||
  { cat "$work/suite.out"; fail "suite check did not run C quick random 250"; }
echo "the installed sorting suite runs the installed workers"

# Overrides that point nowhere: one line naming the file and the place.
nowhere=$work/nowhere
GREENBENCH_LIBEXEC_DIR=$nowhere "$p/bin/greenbench" run --profile smoke --languages c \
  --algorithms quick --orders random --sizes 100 --energy off --out "$work/r2" \
  >"$work/o2" 2>"$work/e2"
rc=$?
if [ $rc -ne 1 ] || [ "$(wc -l <"$work/e2")" -ne 1 ] ||
  ! grep -qxF "greenbench: error: run: cannot find the C worker (worker-c) in GREENBENCH_LIBEXEC_DIR=$nowhere" \
    "$work/e2"; then
  cat "$work/e2"
  fail "a worker override pointing nowhere: exit $rc"
fi
GREENBENCH_DATA_DIR=$nowhere "$p/bin/greenbench" report "$records" --out "$work/r.md" \
  >"$work/o3" 2>"$work/e3"
rc=$?
if [ $rc -eq 0 ] ||
  ! grep -qF "cannot find the carbon intensity table (data/grid-carbon-intensity.csv) in GREENBENCH_DATA_DIR=$nowhere" \
    "$work/e3"; then
  cat "$work/e3"
  fail "a data override pointing nowhere: exit $rc"
fi
echo "overrides pointing nowhere: one line each, naming the file and $nowhere"
echo "PASS"
