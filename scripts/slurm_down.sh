#!/usr/bin/env bash
# Stop the single-node SLURM cluster started by scripts/slurm_up.sh: the daemons it started,
# by their pid files (slurmd, slurmctld, slurmdbd, MariaDB, and munged if it started it), then
# its configs in /etc/slurm (only files it wrote) and its state directory.
#   scripts/slurm_down.sh [--keep-state]     # or: make slurm-down
set -uo pipefail

STATE=${BENCH_SLURM_DIR:-/tmp/bench-slurm}
MARK="# written by bench scripts/slurm_up.sh"
say() { echo "slurm_down: $*"; }

# stop NAME PIDFILE: SIGTERM, up to 15 s to exit, then SIGKILL
stop() {
  local name=$1 pidfile=$2 pid
  [ -s "$pidfile" ] || return 0
  pid=$(cat "$pidfile")
  kill -0 "$pid" 2>/dev/null || return 0
  kill "$pid" 2>/dev/null
  for _ in $(seq 75); do kill -0 "$pid" 2>/dev/null || { say "stopped $name ($pid)"; return 0; }; sleep 0.2; done
  kill -9 "$pid" 2>/dev/null && say "killed $name ($pid) after 15 s"
}

[ -d "$STATE" ] || { say "nothing to stop ($STATE does not exist)"; exit 0; }
stop slurmd "$STATE/slurmd.pid"
stop slurmctld "$STATE/slurmctld.pid"
stop slurmdbd "$STATE/slurmdbd.pid"
stop mariadbd "$STATE/dbrun/mysqld.pid"
[ -s "$STATE/munged.pidfile" ] && stop munged "$(cat "$STATE/munged.pidfile")"

for f in /etc/slurm/slurm.conf /etc/slurm/slurmdbd.conf; do
  [ -f "$f" ] && grep -qxF "$MARK" "$f" && rm -f "$f"
done
if [ "${1:-}" != "--keep-state" ]; then
  rm -rf "$STATE"
fi
say "done"
