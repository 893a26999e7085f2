#!/usr/bin/env bash
# capture_blktrace.sh: run a command while tracing one block device, and turn
# what the device saw into a tagged .ftr trace.
#
#   tools/capture_blktrace.sh -d DEVICE -o OUT.ftr [--hints] [--pid-map FILE]
#                             [--route blktrace|ftrace|auto] [--action Q|D|C]
#                             [options] -- COMMAND [ARGS...]
#
# Two tracing routes, chosen automatically (or forced with --route):
#   blktrace  the blktrace/blkparse tools (needs debugfs; refused under
#             kernel lockdown);
#   ftrace    the kernel's own `blk` tracer through /sys/kernel/tracing and
#             /sys/block/DEV/trace/enable (works under lockdown).
# With --hints, tools/hinttrace (a libbpf program on tp_btf/block_bio_queue)
# also logs each write bio's bi_write_hint, so the converter can tag every
# write with the placement the application set through F_SET_RW_HINT.
#
# Every tracer setting the script changes is saved first and restored on
# exit, on failure, on Ctrl-C (INT) and on TERM (TERM while COMMAND runs is
# acted on when COMMAND returns: bash waits for a foreground child).
#
# Exit status: COMMAND's when it failed; otherwise 0, or 1 when tracing or
# conversion failed or more written bytes than --max-unmatched found no hint;
# 2 for usage errors and failed preconditions.
set -euo pipefail

prog=capture_blktrace
here="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd)"
repo="$(cd "$here/.." && pwd)"

usage() {
  cat <<EOF
usage: tools/capture_blktrace.sh -d DEVICE -o OUT.ftr [options] -- COMMAND [ARGS...]

Runs COMMAND while tracing the block device DEVICE, then converts the trace
to OUT.ftr with \`ftlsim convert\` and prints \`ftlsim info OUT.ftr\`.

  -d, --device DEV     block device to trace (e.g. /dev/loop0, /dev/nvme0n1)
  -o, --output FILE    the .ftr trace to write
      --hints          also log per-bio write hints with tools/hinttrace (BPF)
                       and tag each write with its hint as placement ID
      --pid-map FILE   placement IDs by process name/pid or LBA range, passed
                       to \`ftlsim convert --pid-map\`
      --pid-name ID=NAME  name a placement ID in OUT.ftr (repeatable; passed
                       to \`ftlsim convert --pid-name\`), e.g. 1=wal
      --hints-rewrite PROG  with --hints: run PROG OUT.hints.csv after tracing
                       and before conversion; PROG may rewrite the hint log in
                       place (e.g. tools/geth_patch/capture_post.py's, which
                       gives geth's freezer files their own ID by inode)
      --markers FILE   a marker sidecar COMMAND writes ("<t_ns> <value>" per
                       line, CLOCK_MONOTONIC; e.g. ethstate's
                       block_markers.txt), merged into OUT.ftr as markers
      --route R        blktrace, ftrace or auto (default: auto = blktrace
                       when it works, else ftrace)
      --action A       block-trace action to import: Q, D or C (default Q with
                       --hints, else D; see "Hints and the queue event" below)
      --hint-tolerance DUR  with --hints: farthest a hint row may be from its
                       write in time, passed to \`ftlsim convert\` (default 1s;
                       e.g. 5s, 500ms)
      --max-unmatched PCT  with --hints: fail (exit 1) when more than PCT
                       percent of the written bytes found no hint (default 0.1;
                       100 never fails); the count is printed either way
      --buffer-kb N    per-CPU block-trace buffer in KiB (default 16384)
      --hint-buffer-mib N  hinttrace's ring buffer, a power of two (default 16)
      --no-sync        do not run \`sync\` after COMMAND (by default dirty data
                       COMMAND left in the page cache is written and traced)
      --settle SEC     wait this long after COMMAND (and sync) before stopping
                       the tracers, for completions to arrive (default 1)
      --keep-raw       keep OUT.raw.txt (and OUT.hints.csv) after conversion
      --force          overwrite OUT.ftr and the raw files if they exist
      --dry-run        check everything (root, device, route, tools, build),
                       print the plan and exit without tracing
  -h, --help           this text

Hints and the queue event: hinttrace logs a write's hint when the bio is
queued (block_bio_queue), the same event as Q, so Q records meet their hint
rows at the same time and sectors however long the device queue is. D (issue)
and C (completion) come later, by seconds on a loaded machine (a split bio's
last piece too), past the join's tolerance. So --hints imports Q by default;
--action D with a larger --hint-tolerance imports what the device was sent.

Files next to OUT.ftr: OUT.raw.txt (block trace text), OUT.hints.csv (with
--hints; format in tools/hinttrace/README.md), OUT.capture.json (capture
metadata, with the file system on DEVICE and its mount options, which also
go into OUT.ftr's header as capture.filesystem and capture.mount_options).
The raw files are removed after a successful conversion unless
--keep-raw; they are always kept when conversion fails.
Environment: FTLSIM=path to the ftlsim binary; HINTTRACE_OUT=build dir for
hinttrace (default \${XDG_CACHE_HOME:-\$HOME/.cache}/ftlsim/hinttrace/\$(uname -r));
HINTTRACE=a hinttrace binary built before (then nothing is compiled).
EOF
}

die() { echo "$prog: $*" >&2; exit 2; }
fail() { echo "$prog: $*" >&2; exit 1; }
warn() { echo "$prog: warning: $*" >&2; }
say() { echo "$prog: $*" >&2; }

# ---------------------------------------------------------------- arguments
device="" out="" hints=0 pid_map="" markers="" route=auto action="" buffer_kb=16384 hint_buf_mib=16
hint_tolerance="" max_unmatched=0.1
do_sync=1 settle=1 keep_raw=0 force=0 dry_run=0
cmd=() pid_names=() hints_rewrite=""
while [ $# -gt 0 ]; do
  case "$1" in
    -d|--device) [ $# -ge 2 ] || die "$1 needs a value"; device="$2"; shift 2 ;;
    -o|--output) [ $# -ge 2 ] || die "$1 needs a value"; out="$2"; shift 2 ;;
    --hints) hints=1; shift ;;
    --pid-map) [ $# -ge 2 ] || die "$1 needs a value"; pid_map="$2"; shift 2 ;;
    --markers) [ $# -ge 2 ] || die "$1 needs a value"; markers="$2"; shift 2 ;;
    --hints-rewrite) [ $# -ge 2 ] || die "$1 needs a value"; hints_rewrite="$2"; shift 2 ;;
    --pid-name) [ $# -ge 2 ] || die "$1 needs a value"; [[ "$2" =~ ^[0-9]+=.+ ]] || die "--pid-name wants ID=NAME, not '$2'"
                pid_names+=(--pid-name "$2"); shift 2 ;;
    --route) [ $# -ge 2 ] || die "$1 needs a value"; route="$2"; shift 2 ;;
    --action) [ $# -ge 2 ] || die "$1 needs a value"; action="$2"; shift 2 ;;
    --hint-tolerance) [ $# -ge 2 ] || die "$1 needs a value"; hint_tolerance="$2"; shift 2 ;;
    --max-unmatched) [ $# -ge 2 ] || die "$1 needs a value"; max_unmatched="$2"; shift 2 ;;
    --buffer-kb) [ $# -ge 2 ] || die "$1 needs a value"; buffer_kb="$2"; shift 2 ;;
    --hint-buffer-mib) [ $# -ge 2 ] || die "$1 needs a value"; hint_buf_mib="$2"; shift 2 ;;
    --no-sync) do_sync=0; shift ;;
    --settle) [ $# -ge 2 ] || die "$1 needs a value"; settle="$2"; shift 2 ;;
    --keep-raw) keep_raw=1; shift ;;
    --force) force=1; shift ;;
    --dry-run) dry_run=1; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; cmd=("$@"); break ;;
    *) die "unknown argument '$1' (COMMAND goes after --; see --help)" ;;
  esac
done

[ -n "$device" ] || die "no device given (-d DEVICE); see --help"
[ -n "$out" ] || die "no output given (-o OUT.ftr); see --help"
[ ${#cmd[@]} -gt 0 ] || die "no COMMAND given (put it after --); see --help"
# COMMAND as a shell would need it typed again (for messages and metadata).
cmd_str="$(printf '%q ' "${cmd[@]}")"; cmd_str="${cmd_str% }"
case "$route" in blktrace|ftrace|auto) ;; *) die "--route must be blktrace, ftrace or auto, not '$route'" ;; esac
if [ -z "$action" ]; then if [ "$hints" -eq 1 ]; then action=Q; else action=D; fi; fi
case "$action" in Q|D|C) ;; *) die "--action must be Q, D or C, not '$action'" ;; esac
if [ -n "$hint_tolerance" ]; then
  [ "$hints" -eq 1 ] || die "--hint-tolerance needs --hints"
  [[ "$hint_tolerance" =~ ^[0-9]+(\.[0-9]+)?(ns|us|ms|s)?$ ]] || die "--hint-tolerance wants a duration such as 5s or 500ms, not '$hint_tolerance'"
fi
[[ "$max_unmatched" =~ ^[0-9]+(\.[0-9]+)?$ ]] && awk -v p="$max_unmatched" 'BEGIN {exit !(p <= 100)}' ||
  die "--max-unmatched wants a percentage from 0 to 100, not '$max_unmatched'"
[[ "$buffer_kb" =~ ^[1-9][0-9]*$ ]] || die "--buffer-kb wants a positive integer, not '$buffer_kb'"
[[ "$hint_buf_mib" =~ ^[0-9]+$ ]] && [ "$hint_buf_mib" -ge 1 ] && [ "$hint_buf_mib" -le 1024 ] &&
  [ $((hint_buf_mib & (hint_buf_mib - 1))) -eq 0 ] || die "--hint-buffer-mib wants a power of two from 1 to 1024, not '$hint_buf_mib'"
[[ "$settle" =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "--settle wants seconds, not '$settle'"
if [ -n "$pid_map" ] && [ ! -r "$pid_map" ]; then die "pid map '$pid_map' is not a readable file"; fi
if [ -n "$hints_rewrite" ]; then
  [ "$hints" -eq 1 ] || die "--hints-rewrite needs --hints"
  [ -x "$hints_rewrite" ] && [ ! -d "$hints_rewrite" ] || die "--hints-rewrite '$hints_rewrite' is not an executable file"
fi

# ------------------------------------------------------------ preconditions
[ "$(id -u)" -eq 0 ] || die "must run as root: block tracing and BPF need CAP_SYS_ADMIN (try: sudo $0 ...)"

[ -e "$device" ] || die "device '$device' does not exist"
[ -b "$device" ] || die "'$device' is not a block device"
dev_real="$(readlink -f "$device")"
devnum="$(( 0x$(stat -L -c %t "$dev_real") )):$(( 0x$(stat -L -c %T "$dev_real") ))"
sysdev="$(readlink -f "/sys/dev/block/$devnum" 2>/dev/null || true)"
[ -n "$sysdev" ] && [ -d "$sysdev" ] || die "no sysfs entry /sys/dev/block/$devnum for '$device'"
devname="$(basename "$sysdev")"
# An unattached loop device (or an empty one) exists with size 0: nothing
# can write to it, and a capture would trace nothing.
[ "$(cat "$sysdev/size" 2>/dev/null || echo 0)" != 0 ] ||
  die "'$device' has size 0 (an unattached loop device? attach a file first: losetup $device FILE)"

case "$out" in *.ftr) base="${out%.ftr}" ;; *) base="$out" ;; esac
out_dir="$(dirname "$out")"
[ -d "$out_dir" ] && [ -w "$out_dir" ] || die "output directory '$out_dir' does not exist or is not writable"
# Not among the device nodes (as ftlsim's outputs: docs/bad_input.md).
[ "$(findmnt -n -o FSTYPE --target "$out_dir" 2>/dev/null || true)" != devtmpfs ] ||
  die "output directory '$out_dir' is on devtmpfs, where the kernel makes device nodes; give a folder on a disk"
raw="$base.raw.txt" hints_csv="$base.hints.csv" meta_json="$base.capture.json"
# The capture's own files grow while tracing: on the traced device they would
# show up in the trace (and feed it). Allowed, for tracing a system disk.
for d in "$out_dir" "${TMPDIR:-/tmp}"; do
  if [ "$(stat -c '%Hd:%Ld' "$d" 2>/dev/null)" = "$devnum" ]; then
    warn "$d is on the traced device $device; the capture's own writes will be in the trace"
  fi
done
if [ "$force" -eq 0 ]; then
  for f in "$out" "$raw" "$hints_csv"; do
    [ -e "$f" ] && die "'$f' exists; remove it or pass --force"
  done
fi

find_ftlsim() {
  local c
  for c in "${FTLSIM:-}" "$repo/ftlsim" "$repo/build/release/src/cli/ftlsim" "$(command -v ftlsim 2>/dev/null || true)"; do
    if [ -n "$c" ] && [ -x "$c" ] && [ ! -d "$c" ]; then echo "$c"; return 0; fi
  done
  return 1
}
ftlsim="$(find_ftlsim)" || die "ftlsim binary not found (set FTLSIM=path, or build it with \`make release\`)"
[ -n "${FTLSIM:-}" ] && [ "$ftlsim" != "$FTLSIM" ] && die "FTLSIM='$FTLSIM' is not an executable file"

# ---------------------------------------------------------- save / restore
# set_saved FILE VALUE [CURRENT]: remember FILE's current value (or CURRENT,
# for files that do not read back as they are written) once, then write VALUE.
set_saved() {
  local f="$1" v="$2" cur
  if [ -z "${saved[$f]+x}" ]; then
    if [ $# -ge 3 ]; then cur="$3"; else cur="$(cat "$f")"; fi
    # "7 (expanded: 1408)": the size the buffer grows to on first use; writing
    # it back gives the kernel's rounding to whole sub-buffer pages (1410).
    if [[ "$f" == */buffer_size_kb && "$cur" =~ expanded:\ ([0-9]+) ]]; then cur="${BASH_REMATCH[1]}"; fi
    saved[$f]="$cur"
    saved_order=("$f" "${saved_order[@]}")
  fi
  local err
  err="$( { echo "$v" >"$f"; } 2>&1 )" || fail "cannot set $f to '$v': ${err##*: }"
}

# The current trace_clock is the bracketed one in "local [mono] ...".
current_clock() { sed -n 's/.*\[\([^]]*\)\].*/\1/p' "$tracefs/trace_clock"; }

json_str() {
  local s="$1"
  s="${s//\\/\\\\}"; s="${s//\"/\\\"}"; s="${s//$'\n'/\\n}"; s="${s//$'\t'/\\t}"; s="${s//$'\r'/\\r}"
  printf '"%s"' "$s"
}

# hint_join_counts OUT.ftr: "UNMATCHED_WRITES UNMATCHED_BYTES WRITTEN_BYTES"
# from the converted trace's header and statistics.
hint_join_counts() {
  "$ftlsim" info --json "$1" | awk '
    /"hint_unmatched": "/ { gsub(/[^0-9]/, "", $2); u = $2 }
    /"hint_unmatched_bytes": "/ { gsub(/[^0-9]/, "", $2); b = $2 }
    /"write": [{]/ && w == "" { in_write = 1 }
    in_write && /"bytes":/ { gsub(/[^0-9]/, "", $2); w = $2; in_write = 0 }
    END { if (u != "" && w != "") print u, (b == "" ? 0 : b), w }'
}

stop_hinttrace() {
  [ -n "$ht_pid" ] || return 0
  local pid="$ht_pid" i
  # The pid hinttrace wrote into its ready file is its own even if setsid
  # had to fork.
  [ -s "$work/hint.ready" ] && pid="$(cat "$work/hint.ready")"
  stop_pid "$pid" "$ht_pid"
  ht_pid=""
}

# stop_pid PID [CHILD]: SIGTERM, up to 10 s to finish (drain, tear down),
# then SIGKILL; reaps CHILD (the pid this shell started) when given.
stop_pid() {
  local pid="$1" child="${2:-$1}" i
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    warn "pid $pid did not stop on SIGTERM; killing it"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$child" 2>/dev/null || true
}

# Stop the ftrace reader without losing what is still in the ring buffer:
# with tracing_on=0, trace_pipe returns EOF once drained (if it has returned
# anything before); otherwise kill it when every per-CPU buffer is empty.
stop_ftrace_reader() {
  [ -n "$cat_pid" ] || return 0
  echo 0 >"$tracefs/tracing_on" 2>/dev/null || true
  local i entries
  for i in $(seq 1 100); do
    kill -0 "$cat_pid" 2>/dev/null || break
    entries="$(cat "$tracefs"/per_cpu/cpu*/stats 2>/dev/null | awk '/^entries:/ {s += $2} END {print s+0}')"
    if [ "$entries" -eq 0 ] && [ "$i" -ge 5 ]; then break; fi
    sleep 0.1
  done
  kill "$cat_pid" 2>/dev/null || true
  wait "$cat_pid" 2>/dev/null || true
  cat_pid=""
}

stop_blktrace() {
  [ -n "$bt_pid" ] || return 0
  # blktrace stops, tears down and prints its totals on INT, TERM or HUP.
  stop_pid "$bt_pid"
  bt_pid=""
}

restore() {
  [ "$cleaned" -eq 0 ] || return 0
  cleaned=1
  set +e
  stop_hinttrace
  stop_ftrace_reader
  stop_blktrace
  local f
  for f in "${saved_order[@]}"; do
    echo "${saved[$f]}" >"$f" 2>/dev/null || warn "could not restore $f to '${saved[$f]}'"
  done
  if [ "$mounted_tracefs" -eq 1 ]; then umount /sys/kernel/tracing 2>/dev/null; fi
  if [ "$mounted_debugfs" -eq 1 ]; then umount /sys/kernel/debug 2>/dev/null; fi
  [ -n "$work" ] && rm -rf "$work"
  set -e
}

on_exit() { local rc=$?; restore; exit "$rc"; }
# While COMMAND runs, a signal only ends COMMAND (Ctrl-C reaches both): what
# was captured so far is still stopped, converted and reported. In any other
# phase it restores the tracer settings and exits.
phase=setup
interrupted=""
on_signal() {
  if [ "$phase" = run ]; then
    interrupted="$1"
    say "SIG$1: stopping the capture and converting what was traced"
    return 0
  fi
  say "interrupted by SIG$1; restoring tracer settings"
  trap - INT TERM
  restore
  [ "$1" = INT ] && exit 130 || exit 143
}

# State that the EXIT trap restores; set before any of it changes.
tracefs="" mounted_tracefs=0 mounted_debugfs=0
declare -A saved=()      # tracefs/sysfs file -> value to write back
saved_order=()           # restore order (reverse of change order)
ht_pid="" cat_pid="" bt_pid="" work="" cleaned=0
trap on_exit EXIT
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM

mount_tracefs() {
  if [ -r /sys/kernel/tracing/trace_pipe ]; then tracefs=/sys/kernel/tracing; return 0; fi
  if [ -d /sys/kernel/tracing ] && mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; then
    mounted_tracefs=1
    tracefs=/sys/kernel/tracing
    return 0
  fi
  # Old kernels: tracefs only under debugfs (which this script does not unmount
  # while using it, as it mounted nothing there).
  if [ "$mounted_debugfs" -eq 0 ] && [ -r /sys/kernel/debug/tracing/trace_pipe ]; then
    tracefs=/sys/kernel/debug/tracing; return 0
  fi
  return 1
}

# probe_* return 0 when the route works, else set $why and return 1.
# blktrace works when it can trace DEV for a moment without an error; under
# lockdown it cannot open debugfs/block/DEV/trace* and says so at once.
why=""
probe_blktrace() {
  if ! command -v blktrace >/dev/null 2>&1 || ! command -v blkparse >/dev/null 2>&1; then
    why="blktrace/blkparse not installed"; return 1
  fi
  if ! grep -qs ' /sys/kernel/debug debugfs ' /proc/mounts; then
    mount -t debugfs none /sys/kernel/debug 2>/dev/null || { why="cannot mount debugfs"; return 1; }
    mounted_debugfs=1
  fi
  local err pid i rc=0 pat='fail|not permitted|denied|no such|invalid|cannot'
  err="$(mktemp)"
  blktrace -d "$dev_real" -w 1 -o - >/dev/null 2>"$err" &
  pid=$!
  for i in $(seq 1 30); do
    kill -0 "$pid" 2>/dev/null || break
    grep -qiE "$pat" "$err" && break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -INT "$pid" 2>/dev/null; sleep 0.3; kill -KILL "$pid" 2>/dev/null
  fi
  wait "$pid" 2>/dev/null || rc=$?
  if [ "$rc" -ne 0 ] || grep -qiE "$pat" "$err"; then
    why="blktrace refused: $(grep -m1 -iE "$pat" "$err" || echo "exit status $rc")"
    rm -f "$err"
    # Unmount a debugfs mounted only for this probe.
    if [ "$mounted_debugfs" -eq 1 ] && umount /sys/kernel/debug 2>/dev/null; then mounted_debugfs=0; fi
    return 1
  fi
  rm -f "$err"
}

probe_ftrace() {
  mount_tracefs || { why="tracefs not available at /sys/kernel/tracing"; return 1; }
  grep -qw blk "$tracefs/available_tracers" || { why="kernel has no 'blk' tracer (CONFIG_BLK_DEV_IO_TRACE)"; return 1; }
  [ -w "$sysdev/trace/enable" ] || { why="no writable $sysdev/trace/enable"; return 1; }
  grep -qw mono "$tracefs/trace_clock" || { why="trace_clock has no 'mono' clock"; return 1; }
}

# A block trace already set up on DEV (sysfs enable=1, or a blktrace session)
# would make the blktrace probe fail and tear it down: look before probing.
# A stale sysfs one (e.g. from a killed run) is taken over by the ftrace route
# and given back afterwards; a live blktrace process is left alone.
pre_enable="$(cat "$sysdev/trace/enable" 2>/dev/null || echo 0)"
if [ "$pre_enable" = 1 ]; then
  for p in $(pgrep -x blktrace 2>/dev/null || true); do
    if grep -qE "(^| )(-d *|--dev=)($device|$dev_real)( |$)" <<<"$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)"; then
      die "$device is being traced by blktrace (pid $p); stop it first"
    fi
  done
  pre_trace=()
  for f in act_mask start_lba end_lba pid; do pre_trace+=("$f=$(cat "$sysdev/trace/$f")"); done
fi

chosen="" why_bt=""
if [ "$pre_enable" = 1 ] && [ "$route" != ftrace ]; then
  why="block tracing is already enabled on $devname ($sysdev/trace/enable = 1)"
  [ "$route" = blktrace ] && die "blktrace route unavailable: $why"
  why_bt="$why"
  probe_ftrace && chosen=ftrace || die "no tracing route available: $why_bt; $why"
fi
[ -n "$chosen" ] || case "$route" in
  blktrace) probe_blktrace && chosen=blktrace || die "blktrace route unavailable: $why" ;;
  ftrace) probe_ftrace && chosen=ftrace || die "ftrace route unavailable: $why" ;;
  auto)
    if probe_blktrace; then chosen=blktrace
    else
      why_bt="$why"
      probe_ftrace && chosen=ftrace || die "no tracing route available: $why_bt; $why"
    fi ;;
esac

conv_format=ftrace-blk
[ "$chosen" = blktrace ] && conv_format=blkparse
conv_help="$("$ftlsim" convert --help 2>&1 || true)"
if ! grep -qw -- "$conv_format" <<<"$conv_help"; then
  warn "this ftlsim cannot convert '$conv_format' yet; the raw capture will be kept and conversion will fail"
fi
has_meta=0
grep -q -- '--meta' <<<"$conv_help" && has_meta=1

hinttrace=""
if [ "$hints" -eq 1 ]; then
  ht_out="${HINTTRACE_OUT:-${XDG_CACHE_HOME:-$HOME/.cache}/ftlsim/hinttrace/$(uname -r)}"
  [ -r /sys/kernel/btf/vmlinux ] || die "--hints needs kernel BTF (/sys/kernel/btf/vmlinux, CONFIG_DEBUG_INFO_BTF)"
fi
if [ "$hints" -eq 1 ] && [ -n "${HINTTRACE:-}" ]; then
  # A hinttrace built elsewhere (CO-RE: it runs on any kernel with BTF),
  # e.g. in the test VM, which has no compiler.
  [ -x "$HINTTRACE" ] || die "HINTTRACE=$HINTTRACE is not an executable"
  hinttrace="$HINTTRACE"
elif [ "$hints" -eq 1 ]; then
  missing=()
  command -v clang >/dev/null 2>&1 || missing+=(clang)
  command -v bpftool >/dev/null 2>&1 || [ -x /usr/sbin/bpftool ] || missing+=(bpftool)
  [ -r /usr/include/bpf/libbpf.h ] || missing+=(libbpf-dev)
  [ -r /usr/include/libelf.h ] || missing+=(libelf-dev)
  command -v make >/dev/null 2>&1 || missing+=(make)
  [ ${#missing[@]} -eq 0 ] || die "--hints needs ${missing[*]}; run tools/install_deps.sh capture"
  build_log="$(mktemp)"
  if ! make -s -C "$here/hinttrace" OUT="$ht_out" >"$build_log" 2>&1; then
    cat "$build_log" >&2; rm -f "$build_log"
    die "building tools/hinttrace failed (log above)"
  fi
  rm -f "$build_log"
  hinttrace="$ht_out/hinttrace"
fi

if [ "$dry_run" -eq 1 ]; then
  echo "device   $device ($devnum, $devname)"
  echo "route    $chosen${why_bt:+ (blktrace: $why_bt)}"
  echo "ftlsim   $ftlsim"
  echo "hints    $([ -n "$hinttrace" ] && echo "$hinttrace" || echo off)"
  echo "command  $cmd_str"
  echo "output   $out (raw $raw)"
  exit 0
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/capture_blktrace.XXXXXX")"
rm -f "$raw" "$hints_csv"
[ "$force" -eq 1 ] && rm -f "$out"

# ----------------------------------------------------------------- capture
lost_block=0 lost_hints=0
ftrace_lost_count() {
  cat "$tracefs"/per_cpu/cpu*/stats 2>/dev/null |
    awk '/^overrun:/ {s += $2} /^dropped events:/ {s += $3} END {print s+0}'
}

start_ftrace() {
  local t="$sysdev/trace"
  [ -n "$(grep -v '^#' "$tracefs/set_event" 2>/dev/null)" ] &&
    warn "other trace events are enabled in $tracefs/set_event; their lines will be mixed into the raw trace"
  # Remember the device's own settings; a stale enable=1 (an earlier run that
  # was killed, or another user) is taken over and given back afterwards.
  if [ "$pre_enable" = 1 ]; then
    warn "block tracing was already enabled on $devname; taking it over and restoring it afterwards"
    local kv
    for kv in "${pre_trace[@]}"; do set_saved "$t/${kv%%=*}" "${kv#*=}" "${kv#*=}"; done
    set_saved "$t/enable" 0 1
  fi
  set_saved "$tracefs/tracing_on" 0
  set_saved "$tracefs/current_tracer" nop
  # One clock with hinttrace: trace_clock=mono is CLOCK_MONOTONIC, the clock
  # of bpf_ktime_get_ns().
  set_saved "$tracefs/trace_clock" mono "$(current_clock)"
  set_saved "$tracefs/buffer_size_kb" "$buffer_kb"
  # Pin the text format the ftrace-blk importer reads:
  #   comm-pid [cpu] flags time: maj,min action RWBS sector + n [comm]
  local o v
  for o in context-info:1 irq-info:1 latency-format:0 record-tgid:0 raw:0 hex:0 bin:0 overwrite:1; do
    v="${o#*:}"; o="${o%%:*}"
    [ -w "$tracefs/options/$o" ] && set_saved "$tracefs/options/$o" "$v"
  done
  set_saved "$t/enable" 1
  set_saved "$tracefs/current_tracer" blk   # (saved above; this resets the ring buffer)
  for o in blk_classic:0 blk_cgroup:0 blk_cgname:0; do
    v="${o#*:}"; o="${o%%:*}"
    [ -w "$tracefs/options/$o" ] && set_saved "$tracefs/options/$o" "$v"
  done
  lost_base="$(ftrace_lost_count)"
  cat "$tracefs/trace_pipe" >"$raw" &
  cat_pid=$!
  set_saved "$tracefs/tracing_on" 1
}

stop_ftrace() {
  stop_ftrace_reader
  lost_block=$(( $(ftrace_lost_count) - lost_base ))
}

start_blktrace() {
  mkdir -p "$work/blk"
  # In a session of its own: Ctrl-C must end COMMAND, not the tracer, which
  # still has to see the writes that the final sync sends.
  # --buffer-kb per CPU, as 8 sub-buffers (blktrace's -b is in KiB).
  setsid blktrace -d "$dev_real" -D "$work/blk" -o trace -b $(( (buffer_kb + 7) / 8 )) -n 8 \
    >"$work/blktrace.log" 2>&1 &
  bt_pid=$!
  local i
  for i in $(seq 1 50); do
    compgen -G "$work/blk/trace.blktrace.*" >/dev/null && break
    kill -0 "$bt_pid" 2>/dev/null || { cat "$work/blktrace.log" >&2; bt_pid=""; fail "blktrace stopped at start"; }
    sleep 0.1
  done
}

stop_blktrace_and_parse() {
  stop_blktrace
  cat "$work/blktrace.log" >&2 || true
  # blktrace ends with "Total: N events (dropped D), ..." (per device).
  lost_block="$(sed -n 's/.*dropped \([0-9][0-9]*\).*/\1/p' "$work/blktrace.log" | awk '{s+=$1} END {print s+0}')"
  blkparse -i trace -D "$work/blk" -o "$raw" >/dev/null || fail "blkparse failed on $work/blk"
}

# blkparse prints times relative to the trace's first event; the hint log has
# CLOCK_MONOTONIC ns. Both see every bio's Q event, so the first queued write
# of the block trace and its hint row (same sector and length) give the
# offset to add to block-trace times. Prints nothing when there is no match.
blkparse_hint_offset() {
  awk 'NR == FNR {
         if (!found && $6 == "Q" && $7 ~ /W/ && $9 == "+" && $10 > 0) { s = $8; n = $10; t = $4; found = 1 }
         next
       }
       found && FNR > 1 {
         split($0, f, ",")
         if (f[3] == s && f[4] == n) { printf "%.0f\n", f[1] - t * 1e9; exit }
       }' "$raw" "$hints_csv"
}

start_hinttrace() {
  rm -f "$work/hint.ready"
  # Own session, as for blktrace: Ctrl-C must not stop it before the sync.
  setsid "$hinttrace" -d "$devnum" -b "$hint_buf_mib" -o "$hints_csv" -r "$work/hint.ready" 2>"$work/hinttrace.log" &
  ht_pid=$!
  local i
  for i in $(seq 1 100); do
    [ -s "$work/hint.ready" ] && return 0
    if ! kill -0 "$ht_pid" 2>/dev/null; then
      cat "$work/hinttrace.log" >&2; ht_pid=""; fail "hinttrace did not start (log above)"
    fi
    sleep 0.1
  done
  fail "hinttrace did not attach within 10 s"
}

stop_hinttrace_and_count() {
  stop_hinttrace
  lost_hints="$(sed -n 's/^hinttrace: [0-9]* records, \([0-9]*\) lost$/\1/p' "$work/hinttrace.log" | tail -1)"
  grep -v -e '^hinttrace: tracing' -e '^hinttrace: WARNING' "$work/hinttrace.log" >&2 || true
  [ -n "$lost_hints" ] || { warn "hinttrace did not report its totals (crashed?)"; lost_hints=unknown; }
}

start_wall="$(date -u +%Y-%m-%dT%H:%M:%S.%NZ)"
[ -n "$hinttrace" ] && start_hinttrace
if [ "$chosen" = ftrace ]; then start_ftrace; else start_blktrace; fi
say "tracing $device ($devnum) via $chosen$([ -n "$hinttrace" ] && echo " with write hints"); running: $cmd_str"

# The file system on DEVICE (type and mount options; discard decides whether
# its frees reach the device as trims), recorded in the metadata. Looked up
# before COMMAND runs, and again after it when COMMAND mounts DEVICE itself.
mounted_fs() { findmnt -n -S "$dev_real" -o FSTYPE,OPTIONS 2>/dev/null | head -1 | tr -s ' ' || true; }
fs_info="$(mounted_fs)"
phase=run
set +e
"${cmd[@]}"
cmd_rc=$?
set -e
phase=stop
[ -n "$fs_info" ] || fs_info="$(mounted_fs)"
fs_type="${fs_info%% *}" fs_opts=""
[[ "$fs_info" == *" "* ]] && fs_opts="${fs_info#* }"
[ -n "$fs_type" ] || fs_type="none"
if [ -n "$interrupted" ] && [ "$cmd_rc" -eq 0 ]; then
  # COMMAND caught the signal and exited 0; report the interruption anyway.
  [ "$interrupted" = INT ] && cmd_rc=130 || cmd_rc=143
fi
[ "$cmd_rc" -eq 0 ] || warn "command exited with status $cmd_rc; converting what was captured"

[ "$do_sync" -eq 1 ] && sync
sleep "$settle"
if [ "$chosen" = ftrace ]; then stop_ftrace; else stop_blktrace_and_parse; fi
[ -n "$hinttrace" ] && stop_hinttrace_and_count
hint_offset_ns=0
if [ "$chosen" = blktrace ] && [ -n "$hinttrace" ]; then
  hint_offset_ns="$(blkparse_hint_offset)"
  [ -n "$hint_offset_ns" ] || { warn "no queued write matches a hint row; hint join offset unknown (0)"; hint_offset_ns=0; }
fi
end_wall="$(date -u +%Y-%m-%dT%H:%M:%S.%NZ)"
restore
trap - INT TERM

[ "$lost_block" = 0 ] || warn "$lost_block block-trace events were lost (trace buffer overrun); rerun with a larger --buffer-kb"
[ "$lost_hints" = 0 ] || [ -z "$hinttrace" ] || warn "$lost_hints hint records were lost (their writes get placement ID 0); rerun with a larger --hint-buffer-mib"
[ -s "$raw" ] || warn "the block trace is empty: did COMMAND write to $device?"

if [ -n "$hints_rewrite" ] && [ -n "$hinttrace" ]; then
  say "rewriting the hint log: $hints_rewrite $hints_csv"
  "$hints_rewrite" "$hints_csv" || fail "--hints-rewrite '$hints_rewrite' failed; raw capture kept: $raw, $hints_csv"
fi

# ----------------------------------------------------------------- metadata
kernel="$(uname -r)"
{
  echo "{"
  echo "  \"tool\": \"tools/capture_blktrace.sh\","
  echo "  \"command\": $(json_str "$cmd_str"),"
  echo "  \"command_status\": $cmd_rc,"
  echo "  \"device\": $(json_str "$device"),"
  echo "  \"device_number\": \"$devnum\","
  echo "  \"filesystem\": $(json_str "$fs_type"),"
  echo "  \"mount_options\": $(json_str "$fs_opts"),"
  echo "  \"kernel\": $(json_str "$kernel"),"
  echo "  \"route\": \"$chosen\","
  echo "  \"action\": \"$action\","
  echo "  \"trace_clock\": \"$([ "$chosen" = ftrace ] && echo mono || echo blktrace-relative)\","
  echo "  \"hints\": $([ -n "$hinttrace" ] && echo true || echo false),"
  echo "  \"hint_offset_ns\": $hint_offset_ns,"
  echo "  \"start\": \"$start_wall\","
  echo "  \"end\": \"$end_wall\","
  echo "  \"lost_block_events\": $lost_block,"
  echo "  \"lost_hint_records\": $([ -z "$hinttrace" ] && echo null || { [[ "$lost_hints" =~ ^[0-9]+$ ]] && echo "$lost_hints" || echo null; })"
  echo "}"
} >"$meta_json"

# ----------------------------------------------------------------- convert
conv=("$ftlsim" convert --from "$conv_format" "$raw" -o "$out" --action "$action")
[ -n "$hinttrace" ] && conv+=(--hints "$hints_csv")
[ -n "$hinttrace" ] && [ -n "$hint_tolerance" ] && conv+=(--hint-tolerance "$hint_tolerance")
if [ "$hint_offset_ns" != 0 ]; then
  offset_opt="$(grep -o -- '--hint-offset[a-z-]*' <<<"$conv_help" | head -1 || true)"
  if [ -n "$offset_opt" ]; then conv+=("$offset_opt" "$hint_offset_ns")
  else warn "ftlsim convert has no --hint-offset option; blkparse times start at 0 while hint times are CLOCK_MONOTONIC ($hint_offset_ns ns apart)"
  fi
fi
[ -n "$pid_map" ] && conv+=(--pid-map "$pid_map")
[ ${#pid_names[@]} -eq 0 ] || conv+=("${pid_names[@]}")
if [ -n "$markers" ]; then
  if [ ! -s "$markers" ]; then
    warn "marker sidecar '$markers' is missing or empty; converting without markers"
  elif [ "$chosen" = blktrace ] && [ -z "$hinttrace" ]; then
    warn "blkparse times start at 0 and only --hints gives their CLOCK_MONOTONIC offset; converting without markers"
  else
    conv+=(--markers "$markers")  # on the hint log's clock: --hint-offset above applies to both
  fi
fi
[ "$force" -eq 1 ] && conv+=(--force)
if [ "$has_meta" -eq 1 ]; then
  conv+=(--meta "capture.tool=tools/capture_blktrace.sh" --meta "capture.command=$cmd_str"
         --meta "capture.device=$device" --meta "capture.device_number=$devnum"
         --meta "capture.filesystem=$fs_type" --meta "capture.mount_options=$fs_opts"
         --meta "capture.kernel=$kernel" --meta "capture.route=$chosen"
         --meta "capture.action=$action" --meta "capture.start=$start_wall"
         --meta "capture.end=$end_wall" --meta "capture.lost_block_events=$lost_block")
  [ -n "$hinttrace" ] && conv+=(--meta "capture.lost_hint_records=$lost_hints")
fi
say "converting: ${conv[*]}"
if ! "${conv[@]}"; then
  say "conversion failed; raw capture kept: $raw${hinttrace:+, $hints_csv}, metadata $meta_json"
  [ "$cmd_rc" -ne 0 ] && exit "$cmd_rc"
  exit 1
fi
"$ftlsim" info "$out"

# Writes whose hint was not found carry placement ID 0: said on a line of
# its own, and above --max-unmatched the capture fails.
if [ -n "$hinttrace" ]; then
  read -r unmatched unmatched_bytes written < <(hint_join_counts "$out") ||
    fail "cannot read the hint join counts from $out; raw capture kept: $raw, $hints_csv"
  share="$(awk -v u="$unmatched_bytes" -v w="$written" 'BEGIN {printf "%.3f", (w > 0 ? 100 * u / w : 0)}')"
  say "unmatched hints: $unmatched writes, $unmatched_bytes bytes ($share% of the $written bytes written; limit $max_unmatched%, --max-unmatched)"
  if awk -v s="$share" -v m="$max_unmatched" 'BEGIN {exit !(s > m)}'; then
    say "more written bytes than --max-unmatched $max_unmatched% found no hint; $out puts them under placement ID 0. Raw capture kept: $raw, $hints_csv; convert again with a larger --hint-tolerance (see the 'converting:' line), or capture with --max-unmatched 100 to accept"
    [ "$cmd_rc" -ne 0 ] && exit "$cmd_rc"
    exit 1
  fi
fi
if [ "$keep_raw" -eq 0 ]; then rm -f "$raw" "$hints_csv"; fi
exit "$cmd_rc"
