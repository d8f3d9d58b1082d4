#!/bin/sh
# The example suite measured and reported end to end, as README and
# docs/suites.md show it: `greenbench run --suite examples/nbody.json
# --profile smoke --energy off`, then `greenbench report`; every
# configuration of every language must have all its runs ok, and the
# report's figures must agree with numpy's recomputation from the records
# (stats/tests/suite_numpy_check.py).
# usage: campaign_report_check.sh GREENBENCH SOURCE_DIR LUA_MISSING
set -eu
gb=$1
src=$2
if [ -n "$3" ]; then
  echo "skipped: the example suite's Lua programs cannot run: $3"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/nbody
"$gb" run --suite "$src/examples/nbody.json" --profile smoke --energy off --out "$out"
"$gb" report "$out"
/usr/bin/python3 - "$out/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
configs = s["configurations"]
langs = sorted({c["language"] for c in configs})
assert langs == ["c", "lua", "node", "python"], langs
assert len(configs) == 16, len(configs)
bad = [c for c in configs if not (c["measured"] and c["runs_ok"] == c["runs"] > 0)]
assert not bad, bad
assert s["campaign_completed"] is True
print("every configuration of the 4 languages measured, all runs ok")
PY
/usr/bin/python3 "$src/stats/tests/suite_numpy_check.py" "$out" --results "$out/results.md"
/usr/bin/python3 "$src/stats/tests/suite_numpy_check.py" "$out" --greenbench "$gb"
