#!/usr/bin/env bash
# greenbench on a Slurm cluster: one array task measures the study on one
# whole node. Submit it with slurm-submit.sh, which gives task i the i-th node
# of GREENBENCH_NODES and queues slurm-compare.sh after the whole array
# (docs/many-machines.md explains the recipe).
#
# --exclusive: no other job shares the node while it measures; another job's
# work would be measured as the study's energy. --nodes=1 --ntasks=1: one
# study per node, run once. --array: one task per node; slurm-submit.sh
# replaces 0-2 by 0-(number of nodes - 1).
#SBATCH --job-name=greenbench-study
#SBATCH --array=0-2
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --exclusive
#SBATCH --time=04:00:00
#SBATCH --output=greenbench-study-%A_%a.out
#
# Environment (sbatch passes the submitting shell's environment on):
#   GREENBENCH_SHARED   shared storage for the records (default $HOME/greenbench)
#   GREENBENCH_STUDY    this study's folder in it (slurm-submit.sh sets it;
#                       default study-ARRAYJOBID)
#   GREENBENCH_NODES    the nodes, space-separated; task i checks that it runs
#                       on node i (slurm-submit.sh sets it)
#   GREENBENCH_BIN_DIR  the folder holding greenbench when it is not on PATH
#                       (a build on shared storage, say: .../build)
#   GREENBENCH_LABEL    the machine label (default: host name and CPU model)
#   GREENBENCH_SCRATCH  node-local folder to measure into (default TMPDIR or /tmp)
#   GREENBENCH_RUN_OPTIONS  greenbench run's options instead of the study's
#                       ("--profile study --energy on"), e.g. "--profile smoke
#                       --energy off" to try the recipe on machines without
#                       RAPL; without --energy on, a failed check is reported
#                       but does not stop the task
set -euo pipefail

task=${SLURM_ARRAY_TASK_ID:?run this as a Slurm array task (see slurm-submit.sh)}
shared=${GREENBENCH_SHARED:-$HOME/greenbench}
study=${GREENBENCH_STUDY:-study-${SLURM_ARRAY_JOB_ID}}
dir="$shared/$study"

if [ -n "${GREENBENCH_BIN_DIR:-}" ]; then
  PATH="$GREENBENCH_BIN_DIR:$PATH"
fi
if ! command -v greenbench >/dev/null; then
  echo "slurm-study: error: no greenbench on PATH; install the Debian package" \
       "on every node or set GREENBENCH_BIN_DIR" >&2
  exit 1
fi

# The Slurm node's name (SLURMD_NODENAME), which need not be the host name.
host=${SLURMD_NODENAME:-$(hostname -s)}
read -r -a nodes <<<"${GREENBENCH_NODES:-}"
if [ "${#nodes[@]}" -gt 0 ]; then
  want=${nodes[$task]:-}
  if [ "$host" != "$want" ]; then
    echo "slurm-study: error: task $task runs on $host, but was meant for '$want'" >&2
    exit 1
  fi
fi

# The machine label: the host name and the CPU model, in the characters
# greenbench accepts (1 to 63 of A-Z a-z 0-9 _ -), e.g.
# node07-intel-xeon-gold-6248 or node12-amd-epyc-7763-64-core.
model=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
cpu=$(printf '%s' "${model:-unknown-cpu}" |
  sed -e 's/([RrTtMm]*)//g' -e 's/ CPU//g' -e 's/ Processor//g' -e 's/ @.*//' |
  tr -cs 'A-Za-z0-9' '-' | tr '[:upper:]' '[:lower:]')
label=${GREENBENCH_LABEL:-$(printf '%s-%s' "$host" "$cpu" | tr -cs 'A-Za-z0-9_-' '-')}
label=${label:0:63}
label=${label%-}

if [ -e "$dir/$label" ] || [ -e "$dir/$label.tar.gz" ]; then
  echo "slurm-study: error: $dir/$label is there already; choose another GREENBENCH_STUDY" >&2
  exit 1
fi
read -r -a run_options <<<"${GREENBENCH_RUN_OPTIONS:---profile study --energy on}"
needs_energy=false
if [[ " ${run_options[*]} " == *" --energy on "* ]]; then
  needs_energy=true
fi

# energy_uj is readable by root only since Linux 5.10: run greenbench as the
# user where read access was granted (docs/bare-metal.md, section 3), else
# with sudo, which must not ask for a password in a batch job. Under sudo
# greenbench runs the workers as the user and gives the user the records.
# The check comes first, so that a node that cannot measure leaves nothing
# behind; its own reason is kept whatever sudo says.
gb=$(command -v greenbench)
as_root=()
if ! found=$(greenbench check 2>&1); then
  if ! command -v sudo >/dev/null; then
    sudo_said="sudo is not installed"
  elif root_found=$(sudo -n "$gb" check 2>&1); then
    found=$root_found
    as_root=(sudo -n)
    sudo_said=""
  else
    sudo_said=$(printf '%s\n' "$root_found" | tail -n 1)
  fi
  if [ ${#as_root[@]} -eq 0 ]; then
    printf '%s\n' "$found" >&2
    if $needs_energy; then
      echo "slurm-study: error: $host cannot measure energy: $(printf '%s\n' "$found" |
        sed -n 's/^verdict: //p') (greenbench check above; sudo -n greenbench check: $sudo_said)" >&2
      exit 1
    fi
    echo "slurm-study: warning: greenbench check failed on $host (above); measuring anyway," \
         "as GREENBENCH_RUN_OPTIONS does not ask for --energy on" >&2
  fi
fi

# Measure into node-local storage: writing each row over the network would
# add its own work to the energy measured, and root (under sudo) often may
# not write to shared storage (root_squash). The finished records go to the
# shared folder afterwards. Whatever happens, the scratch folder goes, and
# so does the study folder if this task leaves it empty.
scratch=$(mktemp -d "${GREENBENCH_SCRATCH:-${TMPDIR:-/tmp}}/greenbench.XXXXXX")
trap 'rm -rf "$scratch"; rmdir "$dir" 2>/dev/null || true' EXIT
records="$scratch/$label"
mkdir -p "$dir"
printf '%s\n' "$found" | tee "$dir/check-$label.txt"

echo "slurm-study: task $task on $host, label $label, records $records"
${as_root[@]+"${as_root[@]}"} "$gb" run "${run_options[@]}" \
  --machine-label "$label" --quiet --out "$records"
greenbench report --quiet "$records"
greenbench pack "$records" --out "$dir/$label.tar.gz"
cp -R "$records" "$dir/$label"
echo "slurm-study: wrote $dir/$label.tar.gz and $dir/$label (report: $dir/$label/results.md)"
