#!/bin/sh
# tests/test-slurm.sh SOURCE_DIR BUILD_DIR — a series as 4 shards on a real
# single-node Slurm: munged, slurmctld and slurmd started on this machine
# with a generated configuration, everything in a temporary folder (stopped
# and removed at the end); data/examples/slurm/komi-submit.sh submits the
# job array and the dependent merge with sbatch; the merged library must
# equal a one-process run of the same series game by game and move by
# move (test-shards compares the ratings too). Skipped (77, counted by meson) where Slurm or
# munge is not installed (Debian: slurmd slurmctld slurm-client munge) or
# the cluster does not come up here; .ci/run installs them.
set -eu

src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
cli="$build/src/cli/komi-cli"

skip() { echo "SKIP: $*"; exit 77; }

for tool in munged slurmctld slurmd sbatch squeue scontrol sinfo python3; do
  command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] \
    || skip "$tool is not installed (Debian packages: slurmd slurmctld slurm-client munge)"
done
PATH="$PATH:/usr/sbin"
[ -x /usr/games/gnugo ] || [ -n "${KOMI_GNUGO:-}" ] || skip "GNU Go is not installed"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/komi-slurm-XXXXXX")
chmod 755 "$tmp"
pids=""
cleanup() {
  status=$?
  # The one-process run, if the test ends before it does.
  if [ -n "${whole_pid:-}" ] && kill "$whole_pid" 2>/dev/null; then
    wait "$whole_pid" 2>/dev/null || true
  fi
  # Each pid file read once: a daemon told to leave removes its own,
  # and reading it again could fail (set -e) after the test passed.
  daemons=""
  for f in slurmd slurmctld munged; do
    pid=$(cat "$tmp/$f.pid" 2>/dev/null) || continue
    kill "$pid" 2>/dev/null || true
    daemons="$daemons $pid"
  done
  # The daemons leave once told; give them a moment, then make sure.
  for pid in $daemons; do
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    kill -9 "$pid" 2>/dev/null || true
  done
  if [ $status -ne 0 ] && [ $status -ne 77 ]; then
    for log in "$tmp"/*.log "$tmp"/out/*.out; do
      [ -f "$log" ] && { echo "--- $log"; tail -20 "$log"; }
    done
  fi
  rm -rf "$tmp"
  exit $status
}
trap cleanup EXIT INT TERM

ports=$(python3 -c 'import socket
socks = [socket.socket() for _ in range(2)]
for s in socks: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))')
ctld_port=${ports% *}
slurmd_port=${ports#* }
host=$(hostname -s)
cpus=$(nproc)

# 4 pairs: one pair (2 games) for each array task. The seeded random
# player and GNU Go (level 0, half its moves random) keep the games cheap;
# what is checked is that shards run as array tasks play the very games
# of one process, seeds, engine and referee included.
cat >"$tmp/series.json" <<'EOF'
{"name": "slurm test", "protocol": 1, "subject": "random",
 "opponents": [{"player": "random", "pairs": 2}, {"player": "mix:0.5:gnugo:0", "pairs": 2}],
 "seed": 23, "referee": "gnugo", "jobs": 1}
EOF

# The one-process run plays while the daemons start; it is waited for
# before the comparison.
"$cli" run "$tmp/series.json" --db "$tmp/whole.db" >"$tmp/whole.log" 2>&1 &
whole_pid=$!

# munge: a fresh key and a socket of our own.
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$tmp/munge.key"
munged --force --key-file="$tmp/munge.key" --socket="$tmp/munge.sock" \
  --pid-file="$tmp/munged.pid" --log-file="$tmp/munged.log" --seed-file="$tmp/munge.seed" \
  >"$tmp/munged.out" 2>&1 || skip "munged does not start here: $(cat "$tmp/munged.out")"

mkdir -p "$tmp/state" "$tmp/spool" "$tmp/out"
cat >"$tmp/slurm.conf" <<EOF
ClusterName=komitest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.sock
CredType=cred/munge
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=komi Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$tmp/slurm.conf"

slurmctld -i >"$tmp/slurmctld.out" 2>&1 \
  || skip "slurmctld does not start here: $(cat "$tmp/slurmctld.out")"
slurmd >"$tmp/slurmd.out" 2>&1 || skip "slurmd does not start here: $(cat "$tmp/slurmd.out")"

# Up when the node is idle (a wait for the daemons, not a timed assertion).
i=0
until sinfo -h -N -o '%T' 2>/dev/null | grep -q '^idle'; do
  i=$((i + 1))
  [ $i -lt 300 ] || skip "the Slurm node did not become idle: $(sinfo -N 2>&1 | tail -2)"
  sleep 0.2
done

start=$(date +%s.%N)
KOMI_CLI="$cli" "$src/data/examples/slurm/komi-submit.sh" "$tmp/series.json" "$tmp/out" 4 \
  >"$tmp/submit.out"
read -r array merge <"$tmp/submit.out"
echo "submitted array $array and merge $merge"
state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1; }
while :; do
  s=$(state "$merge")
  case $s in
    COMPLETED) break ;;
    FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE)
      echo "the merge job ended $s"; cat "$tmp"/out/*.out; exit 1 ;;
    "") echo "the merge job $merge is gone"; exit 1 ;;
  esac
  sleep 0.5
done
slurm=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
echo "4 array tasks on $cpus cores under Slurm, merge included: $slurm s"
wait "$whole_pid" || { echo "the one-process run failed:"; cat "$tmp/whole.log"; exit 1; }
whole_pid=""
cat "$tmp"/out/komi-merge-*.out

# Every shard ran as its own array task, and the merge saw them all.
for k in 1 2 3 4; do
  grep -q "Shard $k/4: 2 games of the plan" "$tmp"/out/komi-shard-*_$((k - 1)).out
done
grep -q "8 of the 8 games of its plan ended" "$tmp"/out/komi-merge-*.out

python3 - "$tmp/whole.db" "$tmp/out/library.db" <<'EOF'
import sqlite3, sys

def games(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows = db.execute(
        "SELECT plan_index, opponent, pair, game_in_pair, black_spec, white_spec, black_name,"
        " white_name, black_settings, white_settings, seed, black_seed, white_seed,"
        " orientation, status, end_reason, result, winner, margin, dead, referee,"
        " (SELECT group_concat(color || point, ' ') FROM"
        "   (SELECT color, point FROM moves m WHERE m.game_id = g.id ORDER BY turn))"
        " FROM games g ORDER BY plan_index").fetchall()
    db.close()
    return rows

want, got = games(sys.argv[1]), games(sys.argv[2])
assert len(want) == 8, len(want)
for w, g in zip(want, got):
    assert w == g, f"game {w[0]} differs:\n  one process: {w}\n  merged:      {g}"
assert len(got) == len(want), (len(got), len(want))
print(f"{len(want)} games equal, move by move")
EOF

"$cli" series --db "$tmp/out/library.db" | grep -q "slurm test"
echo "merged library equals the one-process run"
