#!/bin/bash
# The security cases of docs/security.md, as root with a real unprivileged
# user standing in for the sudo user (SUDO_UID and SUDO_GID set as sudo sets
# them), on scratch device nodes, FIFOs, links and files under a temporary
# folder, never the machine's /dev or /etc:
#   security_check.sh CASE BUILD_DIR SOURCE_DIR
# Exits 0 when the case is refused or harmless, 1 when it is not, 77 (a
# skip, with the reason) when not root.
set -uo pipefail
case_name=$1 build=$2 src=$3
gb=$build/greenbench suite=$build/greenbench-suite
user=gbsecurity
fixture=$src/stats/tests/data/report-energy

if [ "$(id -u)" != 0 ]; then
  echo "[SKIP] security::$case_name: needs root (the cases run as root under a simulated sudo)"
  exit 77
fi
fail() { echo "security::$case_name: FAILED: $*" >&2; exit 1; }
if [ "$case_name" = user ]; then
  id "$user" >/dev/null 2>&1 ||
    useradd --system --no-create-home --shell /usr/sbin/nologin "$user" || fail "useradd"
  exit 0
fi
id "$user" >/dev/null 2>&1 || fail "no user $user (the security/user fixture makes it)"
uid=$(id -u "$user") gid=$(id -g "$user")
work=$(mktemp -d /tmp/gb-security-XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
cd "$work" || exit 1
# The build tree may sit where the user cannot reach it (a clone in a 0700
# folder, as mktemp -d makes): the cases run an installed copy in the scratch
# folder instead, so that every refusal below is the rule's, never a tree the
# user could not read.
cmake --install "$build" --prefix "$work/prefix" >/dev/null 2>&1 || fail "cmake --install $build"
gb=$work/prefix/bin/greenbench suite=$work/prefix/bin/greenbench-suite
runuser -u "$user" -- "$gb" --version >/dev/null 2>&1 || fail "$user cannot run $gb"
# A records folder of the user's, and a file only root may read.
mkdir A && cp "$fixture"/* A/ && chown -R "$user": A
echo "ROOT-ONLY-SECRET-$$" >rootfile && chmod 600 rootfile
mkdir d && chown "$user": d
as_sudo() { env SUDO_UID="$uid" SUDO_GID="$gid" SUDO_USER="$user" "$@"; }
# The exit status of a command, its output in out.txt.
status() { "$@" >out.txt 2>&1; echo $?; }
is_type() { [ "$(stat -c %F "$1")" = "$2" ] || fail "$1 is now $(stat -c %F "$1"), not $2"; }
one_line() { [ "$(wc -l <out.txt)" = 1 ] || fail "not one line: $(cat out.txt)"; }

case $case_name in
outputs)
  # 1. report, pack and compare replace only a regular file or nothing.
  mknod -m 666 d/null c 1 3 && mkfifo d/fifo && ln -s /proc/self/fd/1 d/stdout
  for opt in --out --junit --chart --summary; do
    for t in null fifo stdout; do
      s=$(status as_sudo "$gb" report A "$opt" "d/$t")
      [ "$s" = 2 ] || fail "report $opt d/$t exited $s: $(cat out.txt)"
      one_line
    done
  done
  s=$(status "$gb" report A --out d/null) # root itself, no sudo: the same rule
  [ "$s" = 2 ] || fail "root's report --out d/null exited $s"
  s=$(status as_sudo "$gb" pack A --out d/null)
  [ "$s" = 2 ] || fail "pack --out d/null exited $s: $(cat out.txt)"
  ln -s fifo d/compare.md
  s=$(status as_sudo "$gb" compare A A --out d)
  [ "$s" = 2 ] || fail "compare with d/compare.md a link exited $s: $(cat out.txt)"
  is_type d/null "character special file"
  is_type d/fifo "fifo"
  is_type d/stdout "symbolic link"
  ls A | grep -q results.md && fail "report wrote results.md"
  ;;
compare_input)
  # 5. compare refuses to overwrite one of its inputs.
  as_sudo "$gb" pack A --out d/A.tar.gz 2>/dev/null || fail "pack"
  mkdir o && cp d/A.tar.gz o/compare.json && chown -R "$user": o
  s=$(status as_sudo "$gb" compare A o/compare.json --out o)
  [ "$s" = 2 ] || fail "compare over its input exited $s: $(cat out.txt)"
  grep -q "refusing to overwrite an input" out.txt || fail "$(cat out.txt)"
  cmp -s d/A.tar.gz o/compare.json || fail "the input was changed"
  ;;
check_workers)
  # 2. sudo greenbench check runs no worker as root, with no user setting.
  mkdir w pp && printf '#!/bin/sh\n{ echo uid=$(id -u); env; } >%s/w/log\nexec /usr/bin/python3 "$@"\n' \
    "$work" >w/py && chmod 755 w/py && chown -R "$user": w
  echo "open('$work/sitecustomize-ran', 'w')" >pp/sitecustomize.py
  as_sudo env PYTHONPATH="$work/pp" "$gb" check --python "$work/w/py" >out.txt 2>&1
  [ -f w/log ] || fail "the wrapper did not run: $(cat out.txt)"
  head -1 w/log | grep -qx "uid=$uid" || fail "the worker ran as $(head -1 w/log)"
  grep -q PYTHONPATH w/log && fail "PYTHONPATH reached the worker"
  [ -e sitecustomize-ran ] && fail "the user's sitecustomize.py ran"
  ;;
suite_progress_log)
  # 3. The suite's campaign fixture never follows a planted link.
  mkdir su && chown "$user": su && ln -s "$work/rootfile" su/progress.log && chown -h "$user": su/progress.log
  before=$(cat rootfile)
  as_sudo env GREENBENCH_SELECT='language=c algorithm=quick order=random size=100' \
    timeout 300 "$suite" --profile smoke --campaign --out su --state su/state --junit su/j.xml \
    --progress-log su/progress.log >out.txt 2>&1
  [ "$(cat rootfile)" = "$before" ] || fail "the root-only file was written"
  [ "$(stat -c %U rootfile)" = root ] || fail "the root-only file changed hands"
  sel=$(ls su/*/ctest-selection.txt 2>/dev/null | head -1)
  [ -z "$sel" ] || [ "$(stat -c %U "$sel")" = "$user" ] || fail "$sel is not the user's"
  ;;
archive)
  # 4. A few KB of archive never writes gigabytes: one gzip layer, caps from
  # the headers, nothing written to TMPDIR; refused in under a second.
  mkdir big tmp && truncate -s 600M big/zeros && chown "$user": tmp
  tar -C big -cf - zeros | gzip -1 >one.tar.gz && gzip -c one.tar.gz >two.tar.gz
  chown "$user": one.tar.gz two.tar.gz
  echo "archives: $(stat -c %s one.tar.gz) and $(stat -c %s two.tar.gz) bytes"
  for a in two.tar.gz one.tar.gz; do
    t0=$(date +%s%N)
    s=$(status as_sudo env TMPDIR="$work/tmp" "$gb" report "$a")
    ms=$((($(date +%s%N) - t0) / 1000000))
    [ "$s" = 1 ] || fail "report $a exited $s: $(cat out.txt)"
    one_line
    [ "$ms" -lt 1000 ] || fail "report $a took $ms ms"
    [ -z "$(ls -A tmp)" ] || fail "report $a wrote into TMPDIR"
    echo "$a: refused in $ms ms: $(cat out.txt)"
  done
  # pack refuses a 100 GB sparse file from its size, at once.
  cp -r A P && truncate -s 100G P/huge && chown -R "$user": P
  t0=$(date +%s%N)
  s=$(status as_sudo "$gb" pack P --out P.tar.gz)
  ms=$((($(date +%s%N) - t0) / 1000000))
  [ "$s" = 1 ] && grep -q "larger than 256 MiB" out.txt || fail "pack of a sparse file: $s $(cat out.txt)"
  [ "$ms" -lt 2000 ] || fail "pack took $ms ms"
  ;;
planted_read)
  # 6. Root does not read, nor print, a root-only file through a planted link.
  mkdir S && cp A/meta.json S/ && ln -s "$work/rootfile" S/runs.csv && chown -R -h "$user": S
  s=$(status as_sudo "$gb" report S)
  [ "$s" != 0 ] || fail "report S succeeded"
  grep -q ROOT-ONLY-SECRET out.txt && fail "the root-only file was printed"
  ls S | grep -q results.md && fail "results.md written"
  # Nor through the powercap test hook, which is refused under sudo.
  s=$(status as_sudo env GREENBENCH_POWERCAP_ROOT="$work" "$gb" check)
  if [ "${GB_TEST_HOOKS_UNDER_SUDO:-OFF}" = ON ]; then exit 0; fi
  [ "$s" = 2 ] && one_line && grep -q "GREENBENCH_POWERCAP_ROOT is a test hook" out.txt ||
    fail "the hook under sudo: $s $(cat out.txt)"
  # The perf_event PMU's hook likewise.
  s=$(status as_sudo env GREENBENCH_PERF_POWER_DIR="$work" "$gb" check)
  [ "$s" = 2 ] && one_line && grep -q "GREENBENCH_PERF_POWER_DIR is a test hook" out.txt ||
    fail "the perf hook under sudo: $s $(cat out.txt)"
  ;;
suite_read)
  # 8. run --suite and run --resume read the suite and the folder as the user:
  # a root-only suite file, or a suite.json planted as a link to one, is
  # refused as the user's own read would be, and nothing of it is printed
  # (the reader would name an unknown placeholder, here the secret).
  python3 - "$src/cli/tests/data/suites/good.json" >rootsuite.json <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["languages"][0]["command"].append("{rootonlysecret}")
print(json.dumps(s))
PY
  chmod 600 rootsuite.json
  s=$(status "$gb" suite check rootsuite.json) # root itself reads it: the secret is named
  grep -q rootonlysecret out.txt || fail "the planted suite does not show its secret to root: $(cat out.txt)"
  s=$(status as_sudo timeout 120 "$gb" run --suite "$work/rootsuite.json" --energy off \
    --out "$work/d/r1")
  [ "$s" = 2 ] && one_line && grep -q "Permission denied" out.txt ||
    fail "run --suite of a root-only file: $s $(cat out.txt)"
  grep -q rootonlysecret out.txt && fail "run --suite printed the root-only suite"
  mkdir R && cp "$src/stats/tests/data/suite-synth"/* R/ && rm R/suite.json &&
    ln -s "$work/rootsuite.json" R/suite.json &&
    sed -i 's/"complete":[[:space:]]*true/"complete": false/' R/meta.json && chown -R -h "$user": R
  s=$(status as_sudo timeout 120 "$gb" run --resume "$work/R")
  [ "$s" != 0 ] && one_line && grep -q "Permission denied" out.txt ||
    fail "run --resume with a planted suite.json: $s $(cat out.txt)"
  grep -q rootonlysecret out.txt && fail "run --resume printed the root-only suite"
  [ -z "$(ls -A d)" ] || fail "something was made: $(ls d)"
  ;;
suite_pack)
  # 9. pack reads and writes a suite campaign's folder as the user, as it does
  # a study's: its build/ folder (here root's, 0700) is left out, never read;
  # a suite.json only root may read is refused as the user's own read would
  # be, nothing of it printed; a folder only root may write is refused; the
  # archive belongs to the user.
  mkdir U && cp "$src/stats/tests/data/suite-synth"/* U/ && mkdir U/build &&
    cp rootfile U/build/secret && chown -R "$user": U && chown -R root: U/build &&
    chmod 700 U/build
  s=$(status as_sudo "$gb" pack U --out d/U.tar.gz)
  [ "$s" = 0 ] || fail "pack of a suite folder: $s $(cat out.txt)"
  [ "$(stat -c %U d/U.tar.gz)" = "$user" ] || fail "the archive is $(stat -c %U d/U.tar.gz)'s"
  tar -tzf d/U.tar.gz | grep -q build && fail "build/ was packed"
  zcat d/U.tar.gz | grep -q ROOT-ONLY-SECRET && fail "the root-only file was packed"
  mkdir V && cp "$src/stats/tests/data/suite-synth"/* V/ && chown -R "$user": V &&
    chown root: V/suite.json && chmod 600 V/suite.json
  s=$(status as_sudo "$gb" pack V --out d/V.tar.gz)
  [ "$s" = 1 ] && one_line && grep -q "suite.json: Permission denied" out.txt ||
    fail "pack of a root-only suite.json: $s $(cat out.txt)"
  "$gb" pack V --out V.tar.gz >/dev/null 2>&1 || fail "root itself cannot pack V"
  mkdir rootdir && chmod 700 rootdir
  s=$(status as_sudo "$gb" pack U --out "$work/rootdir/U.tar.gz")
  [ "$s" = 2 ] && one_line && grep -q "Permission denied" out.txt ||
    fail "pack --out into root's folder: $s $(cat out.txt)"
  [ -z "$(ls -A rootdir)" ] || fail "something was made in root's folder"
  [ ! -e d/V.tar.gz ] || fail "an archive of V was written"
  ;;
run_out)
  # 4/issue item 2: run opens --out as the user: a folder only root may write is refused.
  mkdir rootdir && chmod 700 rootdir
  s=$(status as_sudo timeout 120 "$gb" run --profile smoke --languages c --algorithms quick \
    --orders random --sizes 100 --runs 1 --warmups 1 --target-ms 1 --energy off --quiet \
    --out "$work/rootdir/r")
  [ "$s" = 1 ] && grep -q "Permission denied" out.txt || fail "run --out: $s $(cat out.txt)"
  [ -z "$(ls -A rootdir)" ] || fail "something was made in root's folder"
  ;;
signals)
  # 7. The first SIGTERM/SIGINT stops report and pack: exit 130, no temporaries.
  cp -r A P && head -c 200M /dev/urandom >P/noise.bin && chown -R "$user": P
  # env execs greenbench: $! is its pid (a function would be a subshell).
  env SUDO_UID="$uid" SUDO_GID="$gid" "$gb" pack P --out "$work/d/P.tar.gz" 2>err.txt &
  pid=$!
  for _ in $(seq 200); do ls d | grep -q 'tmp-' && break; sleep 0.05; done
  ls d | grep -q 'tmp-' || fail "no temporary file seen (pack too fast?)"
  kill -INT "$pid"
  wait "$pid"
  s=$?
  [ "$s" = 130 ] || fail "pack exited $s after one SIGINT: $(cat err.txt)"
  [ -z "$(ls -A d)" ] || fail "left behind: $(ls d)"
  cp -r "$src/results/study-vm-2026-12-03" S2 && chown -R "$user": S2
  env SUDO_UID="$uid" SUDO_GID="$gid" "$gb" report S2 \
    --resamples 100000 --out d/r.md \
    --junit d/j.xml --chart d/c.svg --summary d/s.json --no-datapackage 2>err.txt &
  pid=$!
  sleep 0.5
  kill -TERM "$pid"
  wait "$pid"
  s=$?
  [ "$s" = 130 ] || fail "report exited $s after one SIGTERM: $(cat err.txt)"
  [ -z "$(ls -A d)" ] || fail "left behind: $(ls d)"
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "security::$case_name: refused or harmless"
