#!/usr/bin/env bash
# Submits the greenbench study on several nodes of a Slurm cluster and the
# comparison after it:
#
#     GREENBENCH_NODES="node01 node07 node12" docs/recipes/slurm-submit.sh
#
# A job array gives all its tasks the same options, so --nodelist cannot name
# a different node per task at submission. This script submits the array held
# (--hold), gives task i the i-th node with `scontrol update` (ReqNodeList),
# and releases it; each task checks that it runs on its node. Then, for two
# nodes or more, it submits slurm-compare.sh with --dependency=afterok on the
# array, which waits for every task to succeed (and is removed when one
# fails); a single node's task ends with its own report. sbatch's own variables (SBATCH_PARTITION,
# SBATCH_ACCOUNT, ...) choose the partition and account; GREENBENCH_SHARED,
# GREENBENCH_BIN_DIR and the others reach the jobs through the environment.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
read -r -a nodes <<<"${GREENBENCH_NODES:?set GREENBENCH_NODES to the nodes, space-separated}"
if [ "${#nodes[@]}" -eq 0 ]; then
  echo "slurm-submit: error: GREENBENCH_NODES names no node" >&2
  exit 2
fi
if [ "$(printf '%s\n' "${nodes[@]}" | sort | uniq -d)" != "" ]; then
  echo "slurm-submit: error: GREENBENCH_NODES names a node twice" >&2
  exit 2
fi

# One folder per study on the shared storage; both jobs read it.
GREENBENCH_STUDY=${GREENBENCH_STUDY:-study-$(date -u +%Y%m%dT%H%M%SZ)}
export GREENBENCH_STUDY GREENBENCH_NODES

last=$((${#nodes[@]} - 1))
array=$(sbatch --parsable --hold --array="0-$last" "$here/slurm-study.sh")
array=${array%%;*}
for i in "${!nodes[@]}"; do
  if ! scontrol update JobId="${array}_${i}" ReqNodeList="${nodes[$i]}"; then
    echo "slurm-submit: error: cannot place task $i on ${nodes[$i]}; cancelling job $array" >&2
    scancel "$array"
    exit 1
  fi
done
scontrol release "$array"

shared=${GREENBENCH_SHARED:-$HOME/greenbench}
if [ "${#nodes[@]}" -eq 1 ]; then
  # One campaign: nothing to compare; the task writes its own report.
  echo "slurm-submit: study $GREENBENCH_STUDY: job $array on ${nodes[0]}; one node, so no" \
       "comparison: the report will be $shared/$GREENBENCH_STUDY/LABEL/results.md"
  exit 0
fi
# --kill-on-invalid-dep=yes: when a study task fails, afterok can never be
# met, and Slurm removes the comparison instead of leaving it pending.
compare=$(sbatch --parsable --kill-on-invalid-dep=yes --dependency="afterok:$array" \
  "$here/slurm-compare.sh")
compare=${compare%%;*}
echo "slurm-submit: study $GREENBENCH_STUDY: array job $array on ${nodes[*]}," \
     "compare job $compare after it"
echo "slurm-submit: results in $shared/$GREENBENCH_STUDY"
