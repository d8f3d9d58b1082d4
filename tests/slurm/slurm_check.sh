#!/bin/bash
# slurm_check.sh SOURCE_DIR BUILD_DIR: the Slurm recipe (docs/recipes) on a
# real Slurm cluster of this machine (slurm_cluster.sh: two nodes, HOST and
# HOST-b), label slurm:
#   1. one node, a short campaign with energy off: the task ends with its
#      report, and no comparison is queued;
#   2. two nodes, the same campaign: both tasks succeed and the comparison
#      runs after them;
#   3. two nodes, the study's own options (--energy on) on a machine whose
#      check fails: each task's output keeps the check's reason, the
#      comparison is removed (not left pending), and no study folder is left;
# and in every case nothing is left in the node-local scratch folder.
# Skips (77) with the reason where the daemons cannot start.
set -uo pipefail
source=$1 build=$2
recipes=$source/docs/recipes
work=$(mktemp -d "${TMPDIR:-/tmp}/greenbench-slurm.XXXXXX") || exit 1
cluster=$work/cluster
cleanup() {
  bash "$source/tests/slurm/slurm_cluster.sh" stop "$cluster"
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}
mkdir -p "$cluster" "$work/jobs" "$work/scratch" "$work/shared"
bash "$source/tests/slurm/slurm_cluster.sh" start "$cluster"
rc=$?
[ $rc -eq 0 ] || exit $rc
export SLURM_CONF=$cluster/slurm.conf
host=$(hostname -s)
export GREENBENCH_BIN_DIR=$build GREENBENCH_SHARED=$work/shared GREENBENCH_SCRATCH=$work/scratch
short="--profile smoke --energy off --languages c --algorithms quick --orders random --sizes 100 --runs 3 --warmups 1"

# Waits until the queue is empty (at most 300 s).
drain() {
  for _ in $(seq 300); do
    [ -z "$(squeue -h -o %i)" ] && return 0
    sleep 1
  done
  squeue
  fail "jobs still queued after 300 s"
}
# The state of job $1 (COMPLETED, FAILED, CANCELLED, ...).
state() { scontrol show job "$1" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1; }
submit() { (cd "$work/jobs" && bash "$recipes/slurm-submit.sh") >"$work/submit.out" 2>&1; }
nothing_left() {
  [ -z "$(ls -A "$work/scratch")" ] || fail "$1: the scratch folder holds $(ls "$work/scratch")"
}

# 1. One node: a report, no comparison.
GREENBENCH_NODES=$host GREENBENCH_STUDY=one GREENBENCH_RUN_OPTIONS=$short submit ||
  { cat "$work/submit.out"; fail "slurm-submit.sh (one node)"; }
cat "$work/submit.out"
grep -q "no comparison" "$work/submit.out" || fail "one node: a comparison was queued"
drain
reports=("$work/shared/one"/*/results.md)
[ -f "${reports[0]}" ] || { cat "$work"/jobs/*.out; fail "one node: no report in $work/shared/one"; }
ls "$work/shared/one"/*.tar.gz >/dev/null || fail "one node: no packed records"
echo "one node: report ${reports[0]#"$work/"}, no comparison"
nothing_left "one node"

# 2. Two nodes: the comparison runs after both tasks.
GREENBENCH_NODES="$host $host-b" GREENBENCH_STUDY=two GREENBENCH_RUN_OPTIONS=$short submit ||
  { cat "$work/submit.out"; fail "slurm-submit.sh (two nodes)"; }
cat "$work/submit.out"
compare=$(sed -n 's/.*compare job \([0-9]*\) after it.*/\1/p' "$work/submit.out")
[ -n "$compare" ] || fail "two nodes: no compare job"
drain
[ "$(state "$compare")" = COMPLETED ] || { cat "$work"/jobs/*.out; fail "two nodes: compare job $compare is $(state "$compare")"; }
[ -s "$work/shared/two/compare/compare.md" ] || fail "two nodes: no compare.md"
echo "two nodes: both tasks and the comparison (job $compare) completed"
nothing_left "two nodes"

# 3. Two nodes that cannot measure energy: reasons kept, comparison removed.
GREENBENCH_NODES="$host $host-b" GREENBENCH_STUDY=fails submit ||
  { cat "$work/submit.out"; fail "slurm-submit.sh (failing)"; }
cat "$work/submit.out"
array=$(sed -n 's/.*array job \([0-9]*\) on.*/\1/p' "$work/submit.out")
compare=$(sed -n 's/.*compare job \([0-9]*\) after it.*/\1/p' "$work/submit.out")
drain
[ "$(state "$compare")" = CANCELLED ] || fail "failing: compare job $compare is $(state "$compare"), not removed"
for i in 0 1; do
  out=$work/jobs/greenbench-study-${array}_$i.out
  [ "$(state "${array}_$i")" = FAILED ] || fail "failing: task $i is $(state "${array}_$i")"
  grep -q "^verdict: " "$out" || { cat "$out"; fail "failing: task $i's output lost the check's verdict"; }
  grep -q "cannot measure energy: .*(greenbench check above; sudo -n greenbench check: " "$out" ||
    { cat "$out"; fail "failing: task $i does not say why"; }
done
sed -n '/cannot measure energy/p' "$work/jobs/greenbench-study-${array}_0.out"
[ ! -e "$work/shared/fails" ] || fail "failing: the study folder was left behind: $(ls -A "$work/shared/fails")"
echo "failing: the check's reason kept, comparison $compare removed, no study folder left"
nothing_left "failing"
echo "PASS"
