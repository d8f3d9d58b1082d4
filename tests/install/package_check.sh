#!/bin/bash
# package_check.sh CPACK BUILD_DIR SOURCE_DIR: builds the Debian package of
# BUILD_DIR with CPack into a temporary folder and checks it with dpkg-deb:
# Depends and Recommends, the fields Debian needs, the files it installs, a
# machine-readable copyright file, and no path of the source or build tree.
set -uo pipefail
cpack=$1 build=$2 source=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/greenbench-deb.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}

(cd "$work" && "$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$work/out") \
  >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; fail "cpack -G DEB"; }
debs=("$work"/out/greenbench_*.deb)
if [ ${#debs[@]} -ne 1 ] || [ ! -f "${debs[0]}" ]; then
  fail "cpack wrote no single greenbench_*.deb"
fi
deb=${debs[0]}
echo "built $(basename "$deb")"
dpkg-deb -I "$deb" >"$work/info" || fail "dpkg-deb -I"
cat "$work/info"

# (Text is captured before grep -q reads it: with pipefail, a writer cut off
# by grep's early exit would fail the pipeline.)
field() { dpkg-deb -f "$deb" "$1"; }
# The names in a relation field, one a line, without versions.
names() { field "$1" | tr ',' '\n' | sed -E 's/\(.*\)//; s/^ +//; s/ +$//'; }
depends=$(names Depends) recommends=$(names Recommends)
for d in libc6 libcriterion3 libcjson1 libxxhash0 libhwloc15 libarchive13 python3 python3-xxhash nodejs; do
  grep -qxF "$d" <<<"$depends" || fail "Depends lacks $d: $(field Depends)"
done
for r in linux-cpupower hyperfine; do
  grep -qxF "$r" <<<"$recommends" || fail "Recommends lacks $r: $(field Recommends)"
done
[ "$(field Package)" = greenbench ] || fail "Package: $(field Package)"
for f in Version Architecture Maintainer Section Description; do
  [ -n "$(field $f)" ] || fail "no $f field"
done
grep -qE '^[^<]+ <[^>]+@[^>]+>$' <<<"$(field Maintainer)" || fail "Maintainer is not 'name <address>'"
grep -q "Node.js 20" <<<"$(field Description)" || fail "the description does not say which Node.js"

dpkg-deb -c "$deb" >"$work/contents" || fail "dpkg-deb -c"
for f in usr/bin/greenbench usr/bin/greenbench-suite usr/libexec/greenbench/worker-c \
  usr/libexec/greenbench/python/worker.py usr/libexec/greenbench/node/worker.js \
  usr/libexec/greenbench/node/node_modules/xxhash-wasm/package.json \
  usr/share/greenbench/data/grid-carbon-intensity.csv usr/share/greenbench/data/README.md \
  usr/share/greenbench/schema/greenbench-junit.xsd usr/share/doc/greenbench/copyright \
  usr/share/doc/greenbench/README.md usr/share/man/man1/greenbench.1 \
  usr/share/bash-completion/completions/greenbench; do
  grep -qE " \./$f\$" "$work/contents" || fail "the package lacks /$f"
done
grep -qE '^-rwxr-xr-x .* \./usr/libexec/greenbench/worker-c$' "$work/contents" ||
  fail "worker-c is not executable in the package"
echo "contents: $(wc -l <"$work/contents") entries, every expected file present"

dpkg-deb -x "$deb" "$work/root" || fail "dpkg-deb -x"
head -1 "$work/root/usr/share/doc/greenbench/copyright" |
  grep -xF "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" ||
  fail "the copyright file is not in the machine-readable format"
grep -q "^License: Expat$" "$work/root/usr/share/doc/greenbench/copyright" ||
  fail "the copyright file does not state the licence"
for tree in "$source" "$build"; do
  if hits=$(grep -rlF -- "$tree" "$work/root"); then
    fail "the package's files hold the path $tree:"$'\n'"$hits"
  fi
done
echo "PASS"
