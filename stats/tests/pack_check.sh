#!/bin/sh
# greenbench pack and report on the packed form, end to end:
#   pack_check.sh GREENBENCH FIXTURE_DIR
# Packs a copy of the fixture (default name and --out), checks the archive
# with tar and xxhsum, reports on the archive and on the folder (the same
# results.md, summary.json and junit.xml), and the exit statuses of refusals.
set -eu
gb=$1
fixture=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir camp && cp "$fixture"/* camp/
"$gb" pack camp/
test -f camp.tar.gz
mkdir x && tar -xzf camp.tar.gz -C x
for f in camp/*; do cmp "$f" "x/$f"; done
(cd x/camp && xxhsum -c MANIFEST.xxh128 >/dev/null)
"$gb" pack camp --out again.tar.gz && cmp camp.tar.gz again.tar.gz
mkdir packed && (cd packed && "$gb" report ../camp.tar.gz 2>/dev/null)
test ! -e packed/datapackage.json
"$gb" report camp 2>/dev/null
for f in results.md summary.json junit.xml chart.svg; do cmp "camp/$f" "packed/$f"; done
# A refusal: exit 1 and one line; a bad argument: exit 2.
status() { set +e; "$@" 2>err; s=$?; set -e; echo "$s"; }
test "$(status "$gb" pack nowhere)" = 1
test "$(status "$gb" pack camp --out camp/in.tar.gz)" = 2 && grep -q 'inside camp' err
test "$(status "$gb" pack camp --bogus)" = 2
test "$(status "$gb" report camp.tar.gz --out camp.tar.gz)" = 2 && grep -q 'refusing to overwrite' err
# Outputs replace only nothing or a regular file: a FIFO or a link is refused
# before any work (exit 2) and stays what it was; - is standard output.
mkfifo fifo && ln -s camp.tar.gz link
test "$(status "$gb" pack camp --out fifo)" = 2 && grep -q 'fifo: is a FIFO; refusing' err && test -p fifo
test "$(status "$gb" pack camp --out link)" = 2 && grep -q 'link: is a symbolic link' err && test -L link
"$gb" pack camp --out now.tar.gz && "$gb" pack camp --out - >stdout.tar.gz && cmp now.tar.gz stdout.tar.gz
mkdir o && mkfifo o/compare.svg
test "$(status "$gb" compare camp camp.tar.gz --out o)" = 2 && grep -q 'compare.svg: is a FIFO' err && test -p o/compare.svg
cp camp.tar.gz o2.json && mkdir o2 && mv o2.json o2/compare.json
test "$(status "$gb" compare camp o2/compare.json --out o2)" = 2 && grep -q 'refusing to overwrite an input' err
cmp camp.tar.gz o2/compare.json
rm camp/meta.json
test "$(status "$gb" pack camp)" = 1 && grep -qx 'greenbench: error: pack: camp is not a records folder (no meta.json)' err
echo "pack_check: round trip, report on the packed form and refusals ok"
