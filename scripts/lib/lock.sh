# SPDX-License-Identifier: GPL-2.0
#
# scripts/lib/lock.sh: named locks, for scripts that share something with
# other commands (sourced by bash: scripts/kernel for its cache's entries;
# scripts/check, scripts/lab, scripts/vm and the Makefile for a checkout's
# build/).  The caller sets lockdir, the directory of the lock files.  A
# lock is a flock(1) on LOCKDIR/NAME.lock, held until unlock NAME or until
# the holder and the children it started (which inherit it) have ended,
# however they end; LOCKDIR/NAME.who says who holds it.  A command that
# waits says so once, then waits:
#
#   TAG: waiting for WHAT: pid N (COMMAND) has been DOING since TIME
#
# where TAG is $lock_tag (default: the script's name), N and COMMAND the
# holder's process group leader (what was typed: make check ..., or a job
# of a script's), and DOING what the holder said it does.

declare -A lock_fds

# Who holds a lock, for those who wait: "PID SINCE DOING" and the command
# line of our process group's leader, else of this process.
lock_holder() {	# lock_holder DOING
	local me=$BASHPID stat pgid cmd
	read -r stat < "/proc/$me/stat"
	stat=${stat##*) }		# after "PID (COMM) ": STATE PPID PGRP ...
	read -r _ _ pgid _ <<< "$stat"
	cmd=$(tr '\0' ' ' 2>/dev/null < "/proc/$pgid/cmdline") || cmd=
	if [ -z "$cmd" ]; then	# the leader has ended
		pgid=$me
		cmd=$(tr '\0' ' ' < "/proc/$me/cmdline")
	fi
	echo "$pgid $(date +%s) $1"
	echo "${cmd% }" | cut -c1-100
}

# lock [-s] NAME WHAT DOING: take NAME's lock (until unlock NAME, or
# exit), saying that we hold it for DOING.  -s: a shared lock, which others
# may hold at once (readers of what the exclusive holder writes).  If
# another process holds it, say once what we wait for and who holds it.
# A holder may add a line that says where to look (lock_note NAME TEXT).
lock() {
	local mode=-x
	if [ "$1" = -s ]; then
		mode=-s
		shift
	fi
	local name=$1 what=$2 doing=$3 f=$lockdir/$1 fd pid since held cmd more
	mkdir -p "$lockdir"
	exec {fd}>>"$f.lock"
	if ! flock "$mode" -w 2 "$fd"; then
		{ read -r pid since held; read -r cmd; read -r more; } \
			< "$f.who" 2>/dev/null || true
		if [ -n "${since:-}" ]; then
			echo "${lock_tag:-${0##*/}}: waiting for $what: pid $pid" \
				"($cmd) has been ${held:-$doing} since" \
				"$(date -d "@$since" +%T)${more:+; $more}" >&2
		else
			echo "${lock_tag:-${0##*/}}: waiting for $what" \
				"($f.lock)" >&2
		fi
		flock "$mode" "$fd"
	fi
	lock_holder "$doing" > "$f.who.$BASHPID" && mv "$f.who.$BASHPID" "$f.who"
	lock_fds[$name]=$fd
}

lock_note() {	# lock_note NAME TEXT: what a waiter for NAME is told to look at
	echo "$2" >> "$lockdir/$1.who"
}

unlock() {
	local fd=${lock_fds[$1]}
	exec {fd}>&-
	unset "lock_fds[$1]"
}
