#!/bin/bash
# container_check.sh SOURCE_DIR: the container route (docs/container.md) end
# to end: ci/container-run builds the image and runs a one-configuration
# time-only campaign into a temporary folder, and the records and report
# must be there, energy off, pinned to the CPU given, owned by the caller.
# Skips (exit 77, CTest's SKIP_RETURN_CODE) with the reason where no engine
# can start a container or no Debian 12 base image can be had.
#
# The engine: GB_CONTAINER_ENGINE, else podman, else docker. The base image:
# GB_CONTAINER_BASE, else docker.io/library/debian:bookworm when the engine
# has it, else the local one ci/container-base makes (debootstrap, as root).
set -uo pipefail
source=$1
skip() {
  echo "SKIP: $*"
  exit 77
}
fail() {
  echo "FAIL: $*"
  exit 1
}
engine=${GB_CONTAINER_ENGINE:-$(command -v podman || command -v docker || true)}
[ -n "$engine" ] || skip "no container engine: neither podman nor docker is on PATH"
engine=$(basename "$engine")

base=${GB_CONTAINER_BASE:-}
if [ -z "$base" ]; then
  if "$engine" image inspect docker.io/library/debian:bookworm >/dev/null 2>&1; then
    base=docker.io/library/debian:bookworm
  else
    base=localhost/greenbench-debian:12
    start=$(date +%s)
    "$source/ci/container-base" --engine "$engine" --image "$base" >base.log 2>&1 ||
      skip "no Debian 12 base image: ci/container-base failed: $(tail -1 base.log)"
    echo "base image $base ready in $(($(date +%s) - start)) s: $(tail -1 base.log)"
  fi
fi
# Can this engine start a container here at all (crun on hybrid cgroups,
# a rootless engine without subuids, no permission on the socket...)?
if ! out=$("$engine" run --rm --network none --ulimit nofile=4096:4096 --ulimit nproc=4096:4096 \
  "$base" true 2>&1); then
  skip "$engine cannot start a container here: $(tail -1 <<<"$out")"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/greenbench-container.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cpu=$(($(nproc --all) - 1))
start=$(date +%s)
"$source/ci/container-run" --engine "$engine" --base "$base" --cpus "$cpu" --memory 1g \
  --out "$work/records" -- --languages c,python --algorithms quick --orders random \
  --sizes 100 --runs 3 --warmups 1 --quiet >"$work/run.log" 2>&1 ||
  { cat "$work/run.log"; fail "ci/container-run failed"; }
echo "ci/container-run: image built and campaign run in $(($(date +%s) - start)) s"
tail -12 "$work/run.log"

r=$work/records
for f in meta.json runs.csv results.md summary.json junit.xml chart.svg datapackage.json; do
  [ -s "$r/$f" ] || fail "the container route did not write $f"
done
/usr/bin/python3 - "$r" "$cpu" "$(id -u)" <<'PY' || fail "the records are not those of a time-only pinned campaign"
import json, os, sys
r, cpu, uid = sys.argv[1], sys.argv[2], int(sys.argv[3])
m = json.load(open(os.path.join(r, "meta.json")))
rows = sum(1 for _ in open(os.path.join(r, "runs.csv"))) - 1
checks = {
    "settings.energy is off": m["settings"]["energy"] == "off",
    "energy.status is off": m["energy"]["status"] == "off",
    "the campaign completed": m["completed"] is True,
    "every planned run has a row": rows == m["plan"]["measured_runs"],
    f"pinned to CPU {cpu}": m["pinning"]["cpus"] == cpu,
    "the records belong to the caller": all(
        os.stat(os.path.join(r, f)).st_uid == uid for f in os.listdir(r)),
}
for what, ok in checks.items():
    print(("ok   " if ok else "FAIL ") + what)
sys.exit(0 if all(checks.values()) else 1)
PY
grep -q "^wrote:" "$work/run.log" || fail "the report did not say what it wrote"
echo "PASS"
