#!/usr/bin/env bash
# Start a single-node SLURM cluster on this machine (Debian's slurm-wlm), for bench's SLURM
# integration test (tests/test_slurm.py) and for trying `hydra/launcher=cluster_slurm` locally.
#
#   scripts/slurm_up.sh      # or: make slurm-up      (as root)
#   scripts/slurm_down.sh    # or: make slurm-down
#
# What it does, and why (each point was a failure mode without it):
#   * installs slurm-wlm, munge, slurmdbd and mariadb-server with apt when a daemon is missing
#     (running `apt-get update` once if the first attempt fails);
#   * starts munge (authentication), a private MariaDB on 127.0.0.1:$BENCH_SLURM_DB_PORT with its
#     data under $BENCH_SLURM_DIR, slurmdbd, slurmctld and slurmd, each with a pid file under
#     $BENCH_SLURM_DIR, so slurm_down.sh stops exactly these processes;
#   * accounting goes through slurmdbd, because submitit learns that a job was cancelled or
#     killed only from `sacct`: without it a cancelled job is never seen to end and a sweep hangs;
#   * KillWait=2: submitit's job ignores SIGTERM, so with SLURM's default 30 s a cancelled job
#     keeps its CPU for half a minute;
#   * SelectTypeParameters=CR_Core (cores are the consumable, not memory): with CR_Core_Memory a
#     job without --mem is given the whole node's memory and jobs run one at a time.
#
# Exit status: 0 the cluster is up (or already was); 3 SLURM cannot be started here (not root,
# no apt, install failed): callers such as .ci/run treat 3 as "skip"; 1 a daemon failed to start
# (its log is printed).
set -euo pipefail

STATE=${BENCH_SLURM_DIR:-/tmp/bench-slurm}
PARTITION=${BENCH_SLURM_PARTITION:-debug}
DB_PORT=${BENCH_SLURM_DB_PORT:-13306}
CONF_DIR=/etc/slurm
MARK="# written by bench scripts/slurm_up.sh"
NODE=$(hostname -s)

say() { echo "slurm_up: $*"; }
cannot() { say "cannot start SLURM here: $*"; exit 3; }

# wait_for SECONDS DESCRIPTION LOGFILE COMMAND... : poll COMMAND every 0.2 s
wait_for() {
  local secs=$1 what=$2 log=$3; shift 3
  local end=$((SECONDS + secs))
  until "$@" >/dev/null 2>&1; do
    if ((SECONDS >= end)); then
      say "timed out after ${secs}s waiting for $what"
      [ -f "$log" ] && { say "last lines of $log:"; tail -n 20 "$log"; }
      exit 1
    fi
    sleep 0.2
  done
}

node_ready() { sinfo -h -o %t 2>/dev/null | grep -Eq '^(idle|mix|alloc)'; }

if command -v sinfo >/dev/null 2>&1 && node_ready && sacct -n -X >/dev/null 2>&1; then
  say "SLURM is already up: $(sinfo -h -o '%P %D %t %c' | head -n 1)"
  exit 0
fi

[ "$(id -u)" = 0 ] || cannot "run as root (the daemons and /etc/slurm need it)"

# ---------------------------------------------------------------- packages
need_cmds="slurmctld slurmd slurmdbd sinfo sacct munged mungekey mariadbd mariadb-install-db mariadb"
missing() { for c in $need_cmds; do command -v "$c" >/dev/null 2>&1 || { echo "$c"; return 0; }; done; return 1; }
if missing >/dev/null; then
  command -v apt-get >/dev/null 2>&1 || cannot "$(missing) is not installed and there is no apt-get"
  pkgs="slurm-wlm munge slurmdbd mariadb-server"
  say "installing $pkgs (missing: $(missing))"
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y -q $pkgs >"${TMPDIR:-/tmp}/bench-slurm-apt.log" 2>&1; then
    say "apt-get install failed; running apt-get update once and retrying"
    apt-get update -q >>"${TMPDIR:-/tmp}/bench-slurm-apt.log" 2>&1 || true
    apt-get install -y -q $pkgs >>"${TMPDIR:-/tmp}/bench-slurm-apt.log" 2>&1 \
      || cannot "apt-get install $pkgs failed (log: ${TMPDIR:-/tmp}/bench-slurm-apt.log)"
  fi
  ! missing >/dev/null || cannot "$(missing) still missing after installing $pkgs"
fi

for f in "$CONF_DIR/slurm.conf" "$CONF_DIR/slurmdbd.conf"; do
  if [ -e "$f" ] && ! grep -qxF "$MARK" "$f"; then
    cannot "$f exists and was not written by this script; refusing to overwrite a real cluster's config"
  fi
done

mkdir -p "$STATE" "$STATE/spool" "$STATE/ctld" "$STATE/db" "$STATE/dbrun" "$CONF_DIR"
alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# ---------------------------------------------------------------- munge
mkdir -p /run/munge && chown munge:munge /run/munge
if [ ! -s /etc/munge/munge.key ]; then
  runuser -u munge -- mungekey --create
fi
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  runuser -u munge -- munged --pid-file=/run/munge/munged.pid
  echo /run/munge/munged.pid >"$STATE/munged.pidfile"   # we started it, so slurm_down stops it
  wait_for 20 munged /var/log/munge/munged.log sh -c 'munge -n | unmunge'
fi

# ---------------------------------------------------------------- MariaDB for slurmdbd
chown -R mysql:mysql "$STATE/db" "$STATE/dbrun"
SOCK=$STATE/dbrun/mysqld.sock
if ! alive "$STATE/dbrun/mysqld.pid"; then
  if [ ! -d "$STATE/db/mysql" ]; then
    mariadb-install-db --user=mysql --datadir="$STATE/db" --skip-test-db >"$STATE/db-install.log" 2>&1 \
      || { tail -n 20 "$STATE/db-install.log"; exit 1; }
  fi
  runuser -u mysql -- mariadbd --no-defaults --datadir="$STATE/db" --socket="$SOCK" \
    --pid-file="$STATE/dbrun/mysqld.pid" --bind-address=127.0.0.1 --port="$DB_PORT" \
    --innodb-buffer-pool-size=64M --log-error="$STATE/mysqld.err" >/dev/null 2>&1 &
  wait_for 60 MariaDB "$STATE/mysqld.err" mariadb --socket="$SOCK" -e 'select 1'
fi
[ -s "$STATE/dbpass" ] || { head -c 18 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' >"$STATE/dbpass"; chmod 600 "$STATE/dbpass"; }
DBPASS=$(cat "$STATE/dbpass")
mariadb --socket="$SOCK" -e "CREATE USER IF NOT EXISTS 'slurm'@'localhost' IDENTIFIED BY '$DBPASS';
  ALTER USER 'slurm'@'localhost' IDENTIFIED BY '$DBPASS';
  GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost';"

# ---------------------------------------------------------------- configs
CPUS=$(nproc)
MEM_MB=$(awk '/^MemTotal:/{print int($2 / 1024 * 0.9)}' /proc/meminfo)
umask 077
cat >"$CONF_DIR/slurmdbd.conf" <<CONF
$MARK
AuthType=auth/munge
DbdHost=localhost
SlurmUser=root
PidFile=$STATE/slurmdbd.pid
LogFile=$STATE/slurmdbd.log
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$DB_PORT
StorageUser=slurm
StoragePass=$DBPASS
StorageLoc=slurm_acct_db
CONF
umask 022
cat >"$CONF_DIR/slurm.conf" <<CONF
$MARK
ClusterName=bench
SlurmctldHost=$NODE
SlurmUser=root
AuthType=auth/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
KillWait=2
MailProg=/bin/true
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/spool
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd.pid
SlurmctldLogFile=$STATE/slurmctld.log
SlurmdLogFile=$STATE/slurmd.log
NodeName=$NODE CPUs=$CPUS RealMemory=$MEM_MB State=UNKNOWN
PartitionName=$PARTITION Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF

# ---------------------------------------------------------------- SLURM daemons
dbd_listening() { alive "$STATE/slurmdbd.pid" && grep -q 'started' "$STATE/slurmdbd.log"; }
alive "$STATE/slurmdbd.pid" || slurmdbd
wait_for 60 slurmdbd "$STATE/slurmdbd.log" dbd_listening
alive "$STATE/slurmctld.pid" || slurmctld
alive "$STATE/slurmd.pid" || slurmd
wait_for 60 "node $NODE to be idle" "$STATE/slurmctld.log" node_ready
wait_for 60 "sacct (accounting)" "$STATE/slurmdbd.log" sacct -n -X
say "SLURM up: partition $PARTITION, node $NODE with $CPUS CPUs and ${MEM_MB} MB; state and logs in $STATE"
