#!/usr/bin/env bash
# greenbench on a Slurm cluster: compares the packed records of every node
# once the whole study array has succeeded. slurm-submit.sh submits it with
# --dependency=afterok:ARRAYJOBID. Comparing measures nothing, so it needs no
# whole node.
#SBATCH --job-name=greenbench-compare
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --time=00:30:00
#SBATCH --output=greenbench-compare-%j.out
#
# Environment: GREENBENCH_SHARED, GREENBENCH_STUDY and GREENBENCH_BIN_DIR as
# for slurm-study.sh.
set -euo pipefail

shared=${GREENBENCH_SHARED:-$HOME/greenbench}
study=${GREENBENCH_STUDY:?set GREENBENCH_STUDY to the study folder (slurm-submit.sh does)}
dir="$shared/$study"

if [ -n "${GREENBENCH_BIN_DIR:-}" ]; then
  PATH="$GREENBENCH_BIN_DIR:$PATH"
fi

shopt -s nullglob
packs=("$dir"/*.tar.gz)
if [ "${#packs[@]}" -eq 0 ]; then
  echo "slurm-compare: error: no packed records (*.tar.gz) in $dir" >&2
  exit 1
fi

if [ "${#packs[@]}" -eq 1 ]; then
  echo "slurm-compare: one packed campaign in $dir: nothing to compare; its report is" \
       "$(basename "${packs[0]}" .tar.gz)/results.md there"
  exit 0
fi

# compare refuses, with the reason, campaigns of different workload versions,
# disagreeing parity hashes and archives whose checksums do not match.
greenbench compare --out "$dir/compare" "${packs[@]}"
echo "slurm-compare: compared ${#packs[@]} packed campaigns into $dir/compare (compare.md, compare.svg, compare.json)"
