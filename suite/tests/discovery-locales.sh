#!/usr/bin/env bash
# discovery-locales.sh BUILD SOURCE: the tests found in every Criterion
# binary of the build tree BUILD do not depend on the locale (ADR 0016).
# Criterion draws its --list tree with ├── and └── under UTF-8 and with |--
# and `-- otherwise; cmake/GreenbenchDiscover.cmake must read both. For each
# binary's generated test file, the discovery script is run again under
# LC_ALL=C, LC_ALL=POSIX, LC_ALL=C.UTF-8 and a decimal-comma locale (when
# installed), and each must find as many tests as the build did; then
# `ctest -N` must count as many tests under LC_ALL=C as under C.UTF-8.
set -u
build=$1 source=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "discovery-locales.sh: $*" >&2; exit 1; }
locales=(C POSIX C.UTF-8)
comma=$(locale -a 2>/dev/null | grep -m1 -Ei '^(de_DE|fr_FR|nl_NL|es_ES)\.utf-?8$')
[ -n "$comma" ] && locales+=("$comma")
files=$(find "$build" -name '*_tests.cmake' -not -path '*/CMakeFiles/*')
[ -n "$files" ] || fail "no generated test files in $build"
binaries=0
for f in $files; do
  exe=$(sed -n 's/^add_test(\[=\[[^]]*\]=\] \[=\[\([^]]*\)\]=\].*/\1/p' "$f" | head -1)
  [ -x "$exe" ] || continue
  want=$(grep -c '^add_test(' "$f")
  grep -q '/no_tests\]=\]' "$f" && fail "$f holds no test: $(head -1 "$f")"
  for loc in "${locales[@]}"; do
    LC_ALL=$loc LANG=$loc cmake -D "TEST_EXECUTABLE=$exe" -D TEST_TARGET=t -D "CTEST_FILE=$tmp/t.cmake" \
      -D TEST_LABELS=unit -D TEST_ENVIRONMENT= -D TEST_TIMEOUT=60 \
      -P "$source/cmake/GreenbenchDiscover.cmake" || fail "discovery failed for $exe under $loc"
    got=$(grep -c '^add_test(' "$tmp/t.cmake")
    grep -q '/no_tests\]=\]' "$tmp/t.cmake" && got=0
    [ "$got" -eq "$want" ] || fail "$exe: $got tests under LC_ALL=$loc, $want in the build"
  done
  binaries=$((binaries + 1))
done
[ "$binaries" -ge 10 ] || fail "only $binaries test binaries found"
count() { LC_ALL=$1 ctest --test-dir "$build" -N | sed -n 's/^Total Tests: //p'; }
c=$(count C) u=$(count C.UTF-8)
[ -n "$c" ] && [ "$c" = "$u" ] || fail "ctest -N lists $c tests under LC_ALL=C and $u under C.UTF-8"
echo "discovery-locales.sh: $binaries binaries list the same tests under ${locales[*]}; ctest -N: $c tests"
