#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# slurm-local.sh - a private single-node Slurm (Debian 12's slurm-wlm 22.05 + munge) in one
# directory, for tests and for trying `campaign.py --slurm` on one machine:
#
#   sim/campaign/slurm-local.sh start DIR [CPUS]   # generate a munge key, slurm.conf; start
#                                                  # munged, slurmctld, slurmd; wait until the
#                                                  # node is idle; print `export SLURM_CONF=...`
#   sim/campaign/slurm-local.sh stop DIR           # stop the three daemons (by their pid files)
#
# Everything (key, sockets, configuration, state, spool, logs, pid files) lives under DIR;
# nothing under /etc, /run or /var is read or written, no systemd. Loopback only: the
# controller and the node are 127.0.0.1, on two free TCP ports picked at start. The daemons
# run as the calling user (SlurmUser/SlurmdUser = that user; slurmd needs root to run jobs as
# other users, here every job is the caller's). Process tracking by /proc (proctrack/
# linuxproc, no cgroups: works in containers). Commands find the cluster through SLURM_CONF.
set -euo pipefail

die() { echo "slurm-local.sh: $*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: slurm-local.sh start DIR [CPUS] | stop DIR"
cmd=$1
dir=$2

# Stop a daemon by its pid file: TERM, wait up to 10 s, then KILL.
stop_pid() {
	local f=$1 pid _
	[ -s "$f" ] || return 0
	pid=$(cat "$f")
	if kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null || true
		for _ in $(seq 100); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
	fi
	rm -f "$f"
}

# The pids of this cluster's job steps: slurmstepd processes started by its slurmd, which
# hand down SLURM_CONF=DIR/etc/slurm.conf (they outlive slurmd by design).
our_stepds() {
	local p
	for p in /proc/[0-9]*; do
		[ "$(cat "$p/comm" 2>/dev/null)" = slurmstepd ] || continue
		tr '\0' '\n' < "$p/environ" 2>/dev/null | grep -qxF "SLURM_CONF=$dir/etc/slurm.conf" &&
			echo "${p#/proc/}"
	done
	return 0
}

if [ "$cmd" = stop ]; then
	[ -d "$dir" ] || exit 0
	dir=$(cd "$dir" && pwd)
	export PATH="$PATH:/usr/sbin"
	# jobs still running are cancelled first (up to 15 s), so that no job step outlives the
	# cluster; then what is left of them is killed by pid
	if [ -s "$dir/run/slurmctld.pid" ] && kill -0 "$(cat "$dir/run/slurmctld.pid")" 2>/dev/null; then
		export SLURM_CONF="$dir/etc/slurm.conf"
		jobs=$(squeue -h -o %A 2>/dev/null || true)
		if [ -n "$jobs" ]; then
			# shellcheck disable=SC2086  # one job id per word
			scancel $jobs 2>/dev/null || true
			for _ in $(seq 150); do
				[ -z "$(squeue -h -o %A 2>/dev/null)" ] && break
				sleep 0.1
			done
		fi
	fi
	stop_pid "$dir/run/slurmd.pid"
	for p in $(our_stepds); do
		kill -KILL "$p" 2>/dev/null || true
	done
	stop_pid "$dir/run/slurmctld.pid"
	stop_pid "$dir/run/munged.pid"
	# a socket folder outside DIR (DIR's path was too long for a socket): remove it
	if [ -s "$dir/etc/sockdir" ]; then
		rm -rf "$(cat "$dir/etc/sockdir")"
		rm -f "$dir/etc/sockdir"
	fi
	exit 0
fi
[ "$cmd" = start ] || die "unknown command '$cmd' (start or stop)"
cpus=${3:-$(nproc)}
[[ $cpus =~ ^[1-9][0-9]*$ ]] || die "CPUS '$cpus': a positive integer expected"
for t in munged mungekey slurmctld slurmd sinfo scontrol; do
	command -v "$t" >/dev/null || [ -x "/usr/sbin/$t" ] ||
		die "$t not found: install slurm-wlm and munge (scripts/deps.sh)"
done
export PATH="$PATH:/usr/sbin"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
mkdir -p "$dir"/{etc,run,log,state,spool}
chmod 700 "$dir/etc" "$dir/run"
# a start that does not complete stops whatever it started
started=0
trap '[ $started = 1 ] || "$0" stop "$dir"' EXIT

# A free TCP port on 127.0.0.1 (bound and released; a race with another process is possible
# but harmless: the daemon then fails to start and says so in its log).
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# munge: a fresh key, a private socket. A Unix socket's path has at most 107 bytes: when DIR's
# is too long, the socket goes to a private folder under /tmp (removed by stop).
sock="$dir/run/munge.socket"
if [ ${#sock} -gt 100 ]; then
	sockdir=$(mktemp -d /tmp/slurm-local.XXXXXX)
	echo "$sockdir" > "$dir/etc/sockdir"
	sock="$sockdir/munge.socket"
fi
mungekey --create --keyfile="$dir/etc/munge.key" --force
chmod 600 "$dir/etc/munge.key"
munged --force --key-file="$dir/etc/munge.key" --socket="$sock" \
	--pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" \
	--seed-file="$dir/state/munged.seed" --origin=127.0.0.1 ||
	die "munged did not start ($dir/log/munged.log)"
munge --socket="$sock" -n </dev/null | unmunge --socket="$sock" >/dev/null ||
	die "munge credential round trip failed ($dir/log/munged.log)"

user=$(id -un)
ctld_port=$(free_port)
slurmd_port=$(free_port)
while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done
cluster="tiprof$$"
cat > "$dir/etc/slurm.conf" <<EOF
# generated by sim/campaign/slurm-local.sh: single node, loopback only, state under $dir
ClusterName=$cluster
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/slurmd-%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
MailProg=/bin/true
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
# schedule on every submission and completion (default: at most every 2 s): a test cluster
SchedulerParameters=batch_sched_delay=0,sched_min_interval=100000
SlurmdParameters=config_overrides
ReturnToService=2
MaxArraySize=100001
MinJobAge=300
KillWait=5
PlugStackConfig=$dir/etc/plugstack.conf
NodeName=node0 NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=node0 Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
: > "$dir/etc/plugstack.conf"
export SLURM_CONF="$dir/etc/slurm.conf"

# -i: ignore saved state (a fresh cluster every start)
slurmctld -i -f "$SLURM_CONF" || die "slurmctld did not start ($dir/log/slurmctld.log)"
slurmd -N node0 -f "$SLURM_CONF" || die "slurmd did not start ($dir/log/slurmd.log)"

# ready when the node is idle (up to 30 s)
for _ in $(seq 300); do
	state=$(sinfo -h -N -n node0 -o %T 2>/dev/null || true)
	[ "$state" = idle ] && break
	sleep 0.1
done
[ "$state" = idle ] || die "node0 not idle after 30 s (state '${state:-none}'; logs in $dir/log)"
started=1
echo "export SLURM_CONF=$SLURM_CONF"
