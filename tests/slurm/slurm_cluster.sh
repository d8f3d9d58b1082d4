#!/bin/bash
# slurm_cluster.sh start DIR | stop DIR: a Slurm cluster of this machine in
# DIR (Debian's slurmctld, slurmd and munged, on their own sockets, ports and
# spool folders), for the slurm test: one slurmctld and two slurmd, the nodes
# HOST and HOST-b (both this machine; Debian's slurmd runs several), so that
# the recipe's one-node and two-node submissions both run. start exits 77 with
# the reason when the daemons cannot start; SLURM_CONF=DIR/slurm.conf then
# points sbatch, squeue and scontrol at it.
set -uo pipefail
mode=$1 dir=$2
skip() {
  echo "SKIP: $*"
  for log in "$dir"/*.log; do [ -f "$log" ] && tail -3 "$log"; done
  exit 77
}
# Each daemon by the pid it wrote (the slurmds, then slurmctld, then munged).
stop() {
  local pids=("$dir"/*.pid)
  for f in "${pids[@]}"; do
    [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
  done
  sleep 1
  for f in "${pids[@]}"; do
    [ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null
    rm -f "$f"
  done
  return 0
}
if [ "$mode" = stop ]; then
  stop
  exit 0
fi

[ "$(id -u)" -eq 0 ] || skip "the Slurm daemons of this test run as root, and this is uid $(id -u)"
for p in slurmctld slurmd munged sbatch squeue scontrol; do
  command -v "$p" >/dev/null ||
    skip "$p is not installed (Debian: apt install slurm-wlm munge)"
done
host=$(hostname -s)
mkdir -p "$dir/state" "$dir/spool/$host" "$dir/spool/$host-b" || exit 1
cpus=$(nproc --all)
mem=$(awk '/^MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
# Ports of their own, so that a real Slurm on this machine is not disturbed.
base=$((20000 + $$ % 20000))

head -c 1024 /dev/urandom >"$dir/munge.key" && chmod 400 "$dir/munge.key"
munged --force --key-file="$dir/munge.key" --socket="$dir/munge.sock" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" \
  >"$dir/munged.out" 2>&1 || skip "munged does not start: $(tail -1 "$dir/munged.out")"

cat >"$dir/slurm.conf" <<CONF
ClusterName=greenbench-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
SlurmctldPort=$base
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/%n.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
ReturnToService=2
MpiDefault=none
SwitchType=switch/none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MinJobAge=600
NodeName=$host NodeHostname=$host Port=$((base + 1)) CPUs=$cpus RealMemory=$mem State=UNKNOWN
NodeName=$host-b NodeHostname=$host Port=$((base + 2)) CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$host,$host-b Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf
slurmctld -i -f "$SLURM_CONF" >"$dir/slurmctld.out" 2>&1 ||
  skip "slurmctld does not start: $(tail -1 "$dir/slurmctld.out")"
for node in "$host" "$host-b"; do
  slurmd -f "$SLURM_CONF" -N "$node" >"$dir/$node.out" 2>&1 ||
    skip "slurmd -N $node does not start: $(tail -1 "$dir/$node.out")"
done
for _ in $(seq 60); do
  state=$(sinfo -h -o %T 2>/dev/null | sort -u | tr '\n' ' ')
  [ "$state" = "idle " ] && { echo "slurm: $host and $host-b idle (slurmctld port $base)"; exit 0; }
  sleep 1
done
stop
skip "the nodes $host and $host-b did not become idle in 60 s (states: $state)"
