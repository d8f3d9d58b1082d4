#!/bin/bash
# package_check.sh CPACK BUILD_DIR SOURCE_DIR: builds the Debian package of
# BUILD_DIR with CPack into a temporary folder and checks it with dpkg-deb:
# Depends (computed by dpkg-shlibdeps), Suggests and no Recommends, the
# fields Debian needs, the files it installs (compressed man pages and
# changelog, executable recipes), a machine-readable copyright file, stripped
# binaries, and no path of the source or build tree; then with
# `lintian --pedantic --display-info`: no error or warning, and every note
# that stays named in SOURCE_DIR/docs/packaging.md.
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
depends=$(names Depends) suggests=$(names Suggests)
for d in libc6 libcriterion3 libcjson1 libxxhash0 libhwloc15 libarchive13 python3 python3-xxhash nodejs; do
  grep -qxF "$d" <<<"$depends" || fail "Depends lacks $d: $(field Depends)"
done
# dpkg-shlibdeps wrote the libraries' versions (from their symbols files).
grep -qE 'libcjson1 \(>= [0-9]' <<<"$(field Depends)" || fail "Depends has no computed floors: $(field Depends)"
for s in bash-completion linux-cpupower; do
  grep -qxF "$s" <<<"$suggests" || fail "Suggests lacks $s: $(field Suggests)"
done
[ -z "$(field Recommends)" ] || fail "Recommends what the package does not use: $(field Recommends)"
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
  usr/share/greenbench/suites/sorting.json \
  usr/share/greenbench/schema/greenbench-junit.xsd usr/share/greenbench/schema/greenbench-suite-junit.xsd \
  usr/share/greenbench/schema/summary.schema.json \
  usr/share/greenbench/schema/check.schema.json \
  usr/share/greenbench/schema/suite.schema.json usr/share/greenbench/schema/suite-meta.schema.json \
  usr/share/greenbench/schema/suite-summary.schema.json usr/share/greenbench/schema/suite-compare.schema.json \
  usr/share/doc/greenbench/copyright \
  usr/share/doc/greenbench/README.md usr/share/doc/greenbench/changelog.gz \
  usr/share/man/man1/greenbench.1.gz usr/share/man/man1/greenbench-suite.1.gz \
  usr/share/bash-completion/completions/greenbench; do
  grep -qE " \./$f\$" "$work/contents" || fail "the package lacks /$f"
done
grep -qE '^-rwxr-xr-x .* \./usr/libexec/greenbench/worker-c$' "$work/contents" ||
  fail "worker-c is not executable in the package"
for r in slurm-submit.sh slurm-study.sh slurm-compare.sh; do
  grep -qE "^-rwxr-xr-x .* \./usr/share/doc/greenbench/examples/$r\$" "$work/contents" ||
    fail "the recipe $r is not executable in the package"
done
echo "contents: $(wc -l <"$work/contents") entries, every expected file present"

dpkg-deb -x "$deb" "$work/root" || fail "dpkg-deb -x"
head -1 "$work/root/usr/share/doc/greenbench/copyright" |
  grep -xF "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" ||
  fail "the copyright file is not in the machine-readable format"
grep -q "^License: Expat$" "$work/root/usr/share/doc/greenbench/copyright" ||
  fail "the copyright file does not state the licence"
zcat "$work/root/usr/share/doc/greenbench/changelog.gz" >"$work/changelog" || fail "changelog.gz"
dpkg-parsechangelog -l "$work/changelog" -S Version | grep -qxF "$(field Version)" ||
  fail "the changelog's version is not the package's: $(head -1 "$work/changelog")"
for b in usr/bin/greenbench usr/bin/greenbench-suite usr/libexec/greenbench/worker-c; do
  sections=$(readelf -S -W "$work/root/$b") || fail "readelf $b"
  ! grep -qE ' \.(symtab|debug_[a-z]+|comment) ' <<<"$sections" || fail "$b is not stripped"
  readelf -d "$work/root/$b" | grep -q 'BIND_NOW' || fail "$b is not linked with -z now"
done
for tree in "$source" "$build"; do
  if hits=$(grep -rlF -- "$tree" "$work/root"); then
    fail "the package's files hold the path $tree:"$'\n'"$hits"
  fi
done

# lintian: no error or warning; each note (information or pedantic) and each
# override is named in docs/packaging.md, which says why it stays.
command -v lintian >/dev/null || fail "lintian is not installed (ci/setup installs it)"
lintian --pedantic --display-info --show-overrides "$deb" >"$work/lintian" 2>"$work/lintian.err"
rc=$?
cat "$work/lintian"
# lintian exits 1 when it finds an error, above that when it could not check.
[ $rc -le 1 ] || { cat "$work/lintian.err"; fail "lintian could not check the package (exit $rc)"; }
if grep -E '^[EW]: ' "$work/lintian"; then
  fail "lintian found errors or warnings"
fi
sed -nE 's/^[IPO]: greenbench[^:]*: ([a-z0-9-]+).*/\1/p' "$work/lintian" | sort -u >"$work/tags"
while read -r tag; do
  grep -qF "\`$tag\`" "$source/docs/packaging.md" ||
    fail "lintian's note $tag is not explained in docs/packaging.md"
done <"$work/tags"
echo "lintian --pedantic: no error, no warning; every note explained in docs/packaging.md"
echo "PASS"
