#!/bin/sh
# greenbench pack and report on a suite campaign's records, end to end:
#   pack_suite_check.sh GREENBENCH SUITE_FIXTURE_DIR STUDY_FIXTURE_DIR
# Packs a copy of the suite fixture holding a build/ folder, which is left
# out; extracts the archive (the same bytes, xxhsum -c passes); report on
# the extracted folder, on the folder and on the archive write the same
# results.md, junit.xml and summary.json; compare reads the archive as the
# folder. A broken suite folder and a study folder holding a suite.json are
# refused, exit 1, one line each.
set -eu
gb=$1
fixture=$2
study=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir camp && cp "$fixture"/* camp/ && mkdir camp/build && echo binary >camp/build/nbody
"$gb" pack camp/
test "$(tar -tzf camp.tar.gz | tr '\n' ' ')" = "camp/ camp/MANIFEST.xxh128 camp/meta.json camp/runs.csv camp/suite.json camp/warmups.csv "
mkdir x && tar -xzf camp.tar.gz -C x
for f in meta.json runs.csv suite.json warmups.csv; do cmp "camp/$f" "x/camp/$f"; done
(cd x/camp && xxhsum -c MANIFEST.xxh128 >/dev/null)
"$gb" pack camp --out again.tar.gz && cmp camp.tar.gz again.tar.gz
"$gb" report camp >/dev/null
"$gb" report x/camp >/dev/null
mkdir packed && (cd packed && "$gb" report ../camp.tar.gz >/dev/null)
for f in results.md summary.json junit.xml; do cmp "camp/$f" "x/camp/$f"; cmp "camp/$f" "packed/$f"; done
test ! -e packed/chart.svg && test ! -e packed/datapackage.json
# The report files are packed as the study's are.
"$gb" pack camp --out with-report.tar.gz
tar -tzf with-report.tar.gz | grep -qx camp/results.md
"$gb" compare --out cmp camp camp.tar.gz --campaign-label a --campaign-label b >/dev/null
test -s cmp/compare.md
status() { set +e; "$@" 2>err; s=$?; set -e; echo "$s"; }
test "$(status "$gb" report camp.tar.gz --out camp.tar.gz)" = 2 && grep -q 'refusing to overwrite an input' err
# Refusals: exit 1, one line.
cp -r camp broken && echo garbage >>broken/runs.csv
test "$(status "$gb" pack broken)" = 1 && test "$(wc -l <err)" = 1 &&
  grep -q '^greenbench: error: pack: runs.csv:[0-9]*: ' err
mkdir mixed && cp "$study"/* mixed/ && cp camp/suite.json mixed/
test "$(status "$gb" pack mixed)" = 1 && test "$(wc -l <err)" = 1 &&
  grep -qx "greenbench: error: pack: mixed holds suite.json, but its meta.json is a study campaign's (not format greenbench-suite-records-1); a records folder holds one campaign's records" err
test ! -e broken.tar.gz && test ! -e mixed.tar.gz
echo "pack_suite_check: round trip without build/, report on the packed form and refusals ok"
