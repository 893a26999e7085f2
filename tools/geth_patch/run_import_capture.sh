#!/usr/bin/env bash
# run_import_capture.sh: the Ethereum FDP study's pipeline, end to end and at
# scale (docs/geth_study.md): build patched geth and chaingen, generate a
# mainnet-like chain, then `geth init` + `geth import` (in chunks, one geth
# process per chunk, as the study did) on a fresh file system on a loop
# device, under tools/capture_blktrace.sh --hints --markers. Output: a .ftr
# with one placement ID per Pebble tier and one for geth's freezer, a marker
# per imported block, and the wrapper's own per-tier byte counts.
#
#   sudo tools/geth_patch/run_import_capture.sh --out OUT.ftr [options]
#
#   --geth VERSION       go-ethereum version to patch and build (default v1.14.8,
#                        the study's; v1.16.9 works too)
#   --blocks N           blocks to generate and import (default 300)
#   --chunks K           import in K geth processes of N/K blocks (default 2)
#   --seed S             chaingen seed (default 1)
#   --chaingen "ARGS"    extra chaingen flags (e.g. "--txs 300 --new-slot-rate 0.5")
#   --scale D            scale divisor of the study's sizes (default 128: the
#                        femu-eth-512m device; Pebble file and level sizes /D,
#                        geth --cache 2048/D, freezer threshold 90000/D blocks)
#   --memtable-kb K      Pebble memtable (default max(16 MB/D, 512 KiB): geth's
#                        write batches do not scale, see docs/geth_study.md)
#   --min-file-kb K      no Pebble target file size below K (default 64: the
#                        4 KiB page does not scale)
#   --device-size SIZE   loop device size (default 512M = 64 GiB/128)
#   --fs ext4|f2fs       file system (f2fs needs a kernel with F2FS: run it in
#                        the project's VM, tools/vm/run_import_capture_vm.sh)
#   --ids-from bio|inode where a write's placement ID comes from: bio = the
#                        write hint the kernel put in the bio (default on ext4),
#                        inode = the tier the wrapper's event log gives the
#                        bio's file (default on f2fs, which puts its own
#                        temperature hints in its bios); writes of other
#                        inodes get ID 0 (see docs/geth_study.md)
#   --f2fs-discard-idle S  F2FS only: set the file system's discard_idle_interval
#                        (sysfs, seconds; kernel default 5) after mounting. F2FS
#                        queues its discards and sends them only after S
#                        seconds without I/O (or when over 80% full); an import
#                        never idles, so by default the trace has no trims.
#                        0 sends them as the discard thread runs (every 50 ms
#                        to 60 s, a few requests each time)
#   --f2fs-fdp N         F2FS with the FDP-aware module (tools/f2fs_fdp; in the
#                        VM: run_import_capture_vm.sh --f2fs-fdp N), the study's
#                        host modes (docs/geth_study.md): N=1 non-FDP (one
#                        sub-log per log type, everything under p0/, Pebble's
#                        VFS placing nothing, IDs from inodes as on stock
#                        F2FS), N>1 FDP (N sub-logs, Pebble's tiers in
#                        p0..p3/, the rest of chaindata in p4/, the freezer in
#                        p5/, IDs = F2FS's directory IDs from the bios). Both:
#                        mkfs.f2fs -o --f2fs-ovp, mounted
#                        discard,nobarrier,discard_unit=segment,alloc_mode=default,
#                        in-place updates only for fsync (the 64 GiB defaults),
#                        the study's discard policy, a reset marker (value 0)
#                        after mkfs+mount
#   --f2fs-ovp PCT       mkfs.f2fs -o PCT with --f2fs-fdp (default 20)
#   --geth-bin PATH      use this patched geth binary instead of building one
#                        (with --chain, go is then not needed)
#   --build-only         build chaingen and geth, print geth's path and exit
#   --static             link geth statically (for the VM, with --build-only)
#   --compact            let each `geth import` compact the whole database at its
#                        end (geth's default; off by default here, see docs)
#   --chain DIR          import this chaingen output (blocks-NNNN.rlp files)
#                        instead of generating one; --blocks/--chunks/--seed/
#                        --chaingen are then ignored
#   --import-files N     import only the first N blocks-*.rlp files of the chain
#   --keep-raw           keep OUT.raw.txt and OUT.hints.csv
#   --work DIR           cache of binaries and chains (default
#                        ${XDG_CACHE_HOME:-$HOME/.cache}/ftlsim/geth_import)
#   --force              overwrite OUT.ftr and its side files
#
# Files next to OUT.ftr: OUT.capture.json (capture metadata, file system
# included), OUT.fdp_stats.json (the wrapper's bytes per tier and per ID,
# summed over the geth processes), OUT.markers.txt (the block marker
# sidecar), OUT.run.json (the settings of this run), OUT.geth.log.
# Exit: 0 done; 1 a step failed; 2 usage or preconditions; 77 (with
# --skip-missing) a needed tool is missing.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
prog=run_import_capture

# Placement IDs: hints 1..5 for Pebble's tiers; the freezer gets 6 from its
# inodes (capture_post.py ancient-hints); 0 is untagged (file-system
# metadata and journal, Pebble's MANIFEST/OPTIONS).
TIER_MAP="wal=1,flush=2,l0cmp=3,midcmp=4,deep=5,meta=0,ancient=5,marker=0"
ANCIENT_ID=6
PID_NAMES=(0=fs_meta 1=wal 2=flush 3=l0_compaction 4=mid_compaction 5=deep 6=ancient)
# --f2fs-fdp N>1: the study's directories p0..p5 (its PIDs), F2FS's IDs
FDP_DIR_MAP="wal=0,flush=1,l0cmp=2,midcmp=3,deep=4,meta=4,ancient=5,marker=4"
FDP_PID_NAMES=(0=wal+fs_meta 1=flush 2=l0_compaction 3=mid_compaction 4=chaindata 5=ancient)

# ------------------------------------------------------------- inner mode
# The command the capture wraps: geth init, then one geth import per chunk.
if [ "${1:-}" = --inner ]; then
  shift
  geth="$1" datadir="$2" genesis="$3" side="$4" cache="$5" compact="$6"; shift 6
  common=(--datadir "$datadir" --state.scheme hash --cache "$cache" --snapshot=false)
  ancient=()  # --datadir.ancient for the imports (see --f2fs-fdp below)
  [ -z "${IMPORT_ANCIENT_DIR:-}" ] || ancient=(--datadir.ancient "$IMPORT_ANCIENT_DIR")
  if [ "${IMPORT_RESET_MARKER:-0}" = 1 ]; then
    # the reset point (after mkfs+mount, before geth): marker value 0
    { echo "# markers v1: <t_ns CLOCK_MONOTONIC> <value>; writer=run_import_capture (0: reset point after mkfs+mount), geth import (blocks)"
      python3 -c 'import time; print(time.monotonic_ns(), 0)'; } >>"$side/markers.txt"
  fi
  GETH_FDP_STATS="$side/fdp_stats.init.json" GETH_FDP_LOG="$side/fdp_events.init.jsonl" \
    "$geth" "${common[@]}" init "$genesis" >>"$side/geth.log" 2>&1 ||
    { echo "$prog: geth init failed (see $side/geth.log)" >&2; exit 1; }
  # --nocompaction is a global flag in v1.14 and an import flag in v1.16.
  before=() after=()
  if [ "$compact" != 1 ]; then
    # (help text first: grep -q would close the pipe early, and pipefail
    # would then count geth's SIGPIPE as a failure)
    import_help="$("$geth" import --help 2>&1 || true)"
    if grep -q -- --nocompaction <<<"$import_help"; then after=(--nocompaction); else before=(--nocompaction); fi
  fi
  i=0
  for f in "$@"; do
    i=$((i + 1))
    echo "$prog: geth import $(basename "$f") ($i/$#)" >&2
    GETH_FDP_STATS="$side/fdp_stats.import$i.json" GETH_FDP_LOG="$side/fdp_events.import$i.jsonl" \
      "$geth" "${common[@]}" "${ancient[@]}" "${before[@]}" import "${after[@]}" "$f" >>"$side/geth.log" 2>&1 ||
      { echo "$prog: geth import $f failed (see $side/geth.log)" >&2; tail -5 "$side/geth.log" >&2; exit 1; }
  done
  exit 0
fi

die() { echo "$prog: error: $*" >&2; exit 2; }
# shellcheck source=capture_checks.sh
. "$here/capture_checks.sh"
fail() { echo "$prog: error: $*" >&2; exit 1; }
say() { echo "$prog: $*" >&2; }

out="" version=v1.14.8 blocks=300 chunks=2 seed=1 cg_args="" scale=128 devsize=512M fs=ext4 compact=0
memtable_kb="" discard_idle="" f2fs_fdp="" f2fs_ovp=20 min_file_kb=64 chain_dir="" import_files=0 keep_raw=() ids_from="" geth_bin="" build_only=0 static=0
work="${XDG_CACHE_HOME:-$HOME/.cache}/ftlsim/geth_import" force=0 skip_missing=0
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="${2:?}"; shift 2 ;;
    --geth) version="${2:?}"; shift 2 ;;
    --blocks) blocks="${2:?}"; shift 2 ;;
    --chunks) chunks="${2:?}"; shift 2 ;;
    --seed) seed="${2:?}"; shift 2 ;;
    --chaingen) cg_args="${2?}"; shift 2 ;;
    --scale) scale="${2:?}"; shift 2 ;;
    --memtable-kb) memtable_kb="${2:?}"; shift 2 ;;
    --min-file-kb) min_file_kb="${2:?}"; shift 2 ;;
    --device-size) devsize="${2:?}"; shift 2 ;;
    --fs) fs="${2:?}"; shift 2 ;;
    --ids-from) ids_from="${2:?}"; shift 2 ;;
    --f2fs-discard-idle) discard_idle="${2:?}"; shift 2 ;;
    --f2fs-fdp) f2fs_fdp="${2:?}"; shift 2 ;;
    --f2fs-ovp) f2fs_ovp="${2:?}"; shift 2 ;;
    --geth-bin) geth_bin="${2:?}"; shift 2 ;;
    --build-only) build_only=1; shift ;;
    --static) static=1; shift ;;
    --compact) compact=1; shift ;;
    --work) work="${2:?}"; shift 2 ;;
    --chain) chain_dir="${2:?}"; shift 2 ;;
    --import-files) import_files="${2:?}"; shift 2 ;;
    --keep-raw) keep_raw=(--keep-raw); shift ;;
    --force) force=1; shift ;;
    --skip-missing) skip_missing=1; shift ;;
    -h|--help) awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "$0"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[ -n "$out" ] || [ "$build_only" = 1 ] || die "--out OUT.ftr is required"
[[ "$blocks" =~ ^[1-9][0-9]*$ && "$chunks" =~ ^[1-9][0-9]*$ && "$chunks" -le "$blocks" ]] ||
  die "--blocks and --chunks must be positive integers, chunks <= blocks"
[[ "$seed" =~ ^[0-9]+$ ]] || die "--seed must be a non-negative integer"
[[ "$import_files" =~ ^[0-9]+$ ]] || die "--import-files must be a non-negative integer"
if [ -n "$chain_dir" ]; then
  check_chain_dir "$chain_dir"
  chain_dir="$(cd "$chain_dir" && pwd)"
fi
[[ "$scale" =~ ^[1-9][0-9]*$ && "$scale" -le 2048 ]] || die "--scale must be 1..2048"
[[ -z "$memtable_kb" || "$memtable_kb" =~ ^[1-9][0-9]*$ && "$memtable_kb" -ge 64 ]] || die "--memtable-kb must be an integer >= 64"
[[ "$min_file_kb" =~ ^[1-9][0-9]*$ && "$min_file_kb" -ge 4 ]] || die "--min-file-kb must be an integer >= 4"
[[ "$version" =~ ^v1\.[0-9]+\.[0-9]+$ ]] || die "--geth wants a version like v1.14.8"
case "$fs" in
  ext4) mkfs=(mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0) ;;
  f2fs) mkfs=(mkfs.f2fs -q) ;;
  *) die "--fs must be ext4 or f2fs" ;;
esac
if [ -n "$f2fs_fdp" ]; then
  [ "$fs" = f2fs ] || die "--f2fs-fdp applies to --fs f2fs only"
  [[ "$f2fs_fdp" =~ ^[1-8]$ ]] || die "--f2fs-fdp must be 1..8 (sub-logs per log type)"
  [[ "$f2fs_ovp" =~ ^[1-9][0-9]?$ ]] || die "--f2fs-ovp must be a percentage 1..99"
  [ -z "$ids_from" ] || die "--f2fs-fdp sets the IDs' source itself (no --ids-from)"
  # FDP: F2FS's own IDs (directories), as the device saw them; non-FDP: all
  # bios are ID 0, so the tiers come from inodes as on stock F2FS.
  [ "$f2fs_fdp" -gt 1 ] && ids_from=bio || ids_from=inode
  mkfs=(mkfs.f2fs -q -o "$f2fs_ovp")
fi
# F2FS (Linux 6.12) puts its own temperature hints in its bios: the file's
# hint does not reach them, so the tier comes from the bio's inode.
[ -n "$ids_from" ] || { [ "$fs" = f2fs ] && ids_from=inode || ids_from=bio; }
case "$ids_from" in bio|inode) ;; *) die "--ids-from must be bio or inode" ;; esac
if [ -n "$discard_idle" ]; then
  [ "$fs" = f2fs ] || die "--f2fs-discard-idle applies to --fs f2fs only"
  [[ "$discard_idle" =~ ^[0-9]+$ ]] || die "--f2fs-discard-idle must be a whole number of seconds"
fi
if [ -n "$geth_bin" ]; then
  [ -x "$geth_bin" ] && [ -f "$geth_bin" ] || die "--geth-bin $geth_bin is not an executable file"
  geth_bin="$(cd "$(dirname "$geth_bin")" && pwd)/$(basename "$geth_bin")"
fi

missing() { if [ "$skip_missing" = 1 ]; then echo "SKIP: $*"; exit 77; fi; die "$*"; }
if [ -z "$geth_bin" ] || [ -z "$chain_dir" ]; then
  command -v go >/dev/null || missing "needs go (tools/install_deps.sh go)"
fi
if [ "$build_only" = 0 ]; then
[ "$(id -u)" -eq 0 ] || missing "needs root (loop devices, block tracing, BPF)"
for t in losetup findmnt python3 "${mkfs[0]}"; do command -v "$t" >/dev/null || missing "needs $t"; done
[ -e /dev/loop-control ] || missing "no loop device support"
grep -qw "$fs" /proc/filesystems || modprobe "$fs" 2>/dev/null || grep -qw "$fs" /proc/filesystems ||
  missing "this kernel has no $fs (run it in the project's VM)"
if [ -z "${HINTTRACE:-}" ]; then # (a prebuilt hint tracer needs no compiler)
  for t in clang bpftool; do
    command -v "$t" >/dev/null 2>&1 || [ -x "/usr/sbin/$t" ] || missing "needs $t (tools/install_deps.sh capture)"
  done
fi
[ -r /sys/kernel/btf/vmlinux ] || missing "kernel has no BTF (needed by --hints)"

check_capture_out "$out" "$force"
base="${out%.ftr}"
fi

# The study's settings, divided by the scale (docs/geth_study.md).
if [ -z "$memtable_kb" ]; then memtable_kb=$((16 * 1024 / scale)); [ "$memtable_kb" -ge 512 ] || memtable_kb=512; fi
cache_mb=$((2048 / scale)); [ "$cache_mb" -ge 1 ] || cache_mb=1
immutability=$((90000 / scale)); [ "$immutability" -ge 1 ] || immutability=1

# ------------------------------------------------------------------ build
mkdir -p "$work/bin" "$work/src" "$work/chains"
if [ -z "$chain_dir" ] || [ "$build_only" = 1 ]; then
  say "building chaingen"
  (cd "$here" && go build -o "$work/bin/chaingen" ./cmd/chaingen) || fail "go build ./cmd/chaingen failed"
fi
if [ -n "$geth_bin" ]; then
  geth="$geth_bin"
  stamp="$(cat "$geth_bin.stamp" 2>/dev/null || echo unknown)"
else
# The stamp of a geth binary: the hash of the patch's sources it was built from.
stamp="$(for f in "$here/apply.sh" "$here"/geth/*.go.in "$here"/fdpvfs/*.go; do
  case "$f" in *_test.go) ;; *) cat "$f" ;; esac; done | sha256sum | cut -c1-16)"
geth="$work/bin/geth-$version-imm$immutability"
# static: for the VM, whose initramfs has only the libraries its own tools need
ldflags=()
if [ "$static" = 1 ]; then geth="$geth-static"; ldflags=(-ldflags '-linkmode external -extldflags -static'); fi
# A binary is reused only when it was built from this patch (its stamp).
if [ ! -x "$geth" ] || [ "$(cat "$geth.stamp" 2>/dev/null)" != "$stamp" ]; then
  src="$work/src/go-ethereum-$version-imm$immutability"
  if [ "$(cat "$src/.ftlsim-stamp" 2>/dev/null)" != "$stamp" ]; then
    rm -rf "$src"
    say "patching geth $version"
    "$here/apply.sh" --immutability "$immutability" --fetch "$version" "$src" >"$work/apply-$version.log" 2>&1 ||
      { tail -5 "$work/apply-$version.log" >&2; fail "apply.sh failed (log: $work/apply-$version.log)"; }
    echo "$stamp" >"$src/.ftlsim-stamp"
  fi
  say "building geth $version (a few minutes)"
  (cd "$src" && go build -o "$geth.new" "${ldflags[@]}" ./cmd/geth) || fail "go build ./cmd/geth ($version) failed"
  mv "$geth.new" "$geth"
  echo "$stamp" >"$geth.stamp"
fi
fi
if [ "$build_only" = 1 ]; then echo "$geth"; exit 0; fi

# ------------------------------------------------------------------ chain
if [ -n "$chain_dir" ]; then
  chain="$chain_dir"
else
file_blocks=$(((blocks + chunks - 1) / chunks))
chain_key="$(echo "$seed $blocks $file_blocks $cg_args $(sha256sum "$work/bin/chaingen" | cut -c1-16)" | sha256sum | cut -c1-16)"
chain="$work/chains/$chain_key"
if [ ! -d "$chain" ]; then
  say "generating $blocks blocks (seed $seed) into $chain"
  rm -rf "$chain.partial" "$work/gendb-$$"
  # shellcheck disable=SC2086 # --chaingen is a list of flags
  "$work/bin/chaingen" --out "$chain" --blocks "$blocks" --seed "$seed" --file-blocks "$file_blocks" \
    --gen-db "$work/gendb-$$" $cg_args || fail "chaingen failed"
fi
fi
chain_files "$chain" "$import_files"
seed="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["config"]["Seed"])' "$chain/chaingen.json")"

# --------------------------------------------------------------- scratch
tmp="$(mktemp -d "$work/run.XXXXXX")"
loop="" mnt="$tmp/mnt" side="$tmp/side"
cleanup() {
  set +e
  mountpoint -q "$mnt" && umount "$mnt"
  [ -n "$loop" ] && losetup -d "$loop"
  rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$mnt" "$side"
truncate -s "$devsize" "$tmp/disk.img"
loop="$(losetup --find --show "$tmp/disk.img")" || fail "losetup failed (no free loop device?)"
"${mkfs[@]}" "$loop" >/dev/null
# discard: the file system's frees reach the device as trims (the study's
# F2FS discards too), so the trace carries them.
datadir="$mnt/geth" ancient_real=""
if [ -n "$f2fs_fdp" ]; then
  # The study's mount options; alloc_mode=default: F2FS's choice above 16 GiB
  # (at or below it picks reuse; docs/geth_study.md)
  mount -t f2fs -o "discard,nobarrier,discard_unit=segment,alloc_mode=default,fdp_log_n=$f2fs_fdp" "$loop" "$mnt" ||
    fail "mounting with fdp_log_n=$f2fs_fdp failed (is the FDP-aware F2FS loaded? dmesg: $(dmesg | tail -n 2 | tr '\n' ' '))"
  knobs="/sys/fs/f2fs/$(basename "$loop")"
  [ -e "$knobs/fdp_logs" ] || fail "$knobs/fdp_logs missing: this F2FS is not tools/f2fs_fdp's"
  # In-place updates only for fsync (F2FS's policy above 16 GiB; below it
  # forces them) and the study's discard policy: up to 10240 discards a round,
  # 1 ms apart, issued while other I/O runs.
  for kv in ipu_policy=16 max_discard_request=10240 min_discard_issue_time=1 mid_discard_issue_time=1 \
            max_discard_issue_time=1 discard_io_aware=0; do
    echo "${kv#*=}" >"$knobs/${kv%%=*}" || fail "cannot set $knobs/${kv%%=*}"
  done
  f2fs_knobs="$(for k in ipu_policy max_discard_request min_discard_issue_time mid_discard_issue_time \
                  max_discard_issue_time discard_io_aware reserved_segments ovp_segments; do
                  printf '%s=%s ' "$k" "$(cat "$knobs/$k")"; done)"
  mkdir "$mnt"/p{0,1,2,3,4,5}
  if [ "$f2fs_fdp" -gt 1 ]; then
    # the freezer in p5/: --datadir.ancient for the imports only (geth
    # v1.14.8's `init` opens chaindata and lightchaindata with one
    # --datadir.ancient and the second fails to lock it; geth refuses a
    # symlinked one); init leaves an empty freezer in chaindata
    datadir="$mnt/p4/geth" ancient_real="$mnt/p5/ancient"
    export IMPORT_ANCIENT_DIR="$ancient_real" GETH_FDP_ANCIENT_DIR="$ancient_real"
  else
    datadir="$mnt/p0/geth"
  fi
  export IMPORT_RESET_MARKER=1
else
  mount -t "$fs" -o discard "$loop" "$mnt"
fi
mount_opts="$(findmnt -n -o OPTIONS "$mnt" 2>/dev/null || echo discard)"
discard_idle_set=""  # what the kernel reports after setting it (run.json; empty: not set)
if [ -n "$discard_idle" ]; then
  knob="/sys/fs/f2fs/$(basename "$loop")/discard_idle_interval"
  [ -w "$knob" ] || fail "$knob missing: this kernel's F2FS has no discard_idle_interval"
  echo "$discard_idle" >"$knob" || fail "cannot set $knob"
  discard_idle_set="$(cat "$knob")"
  say "F2FS discard_idle_interval set to $discard_idle_set s"
fi

# The rewrite hook the capture runs on the hint log: the freezer's own ID
# (IDs from bios), or every write's ID from its inode (IDs from inodes).
post="ancient-hints --id $ANCIENT_ID"
[ "$ids_from" = inode ] && post="inode-hints --ancient-id $ANCIENT_ID"
rewrite=(--hints-rewrite "$tmp/ancient_hints.sh")
# FDP-aware F2FS in FDP mode: the bios carry the IDs the device saw
if [ -n "$f2fs_fdp" ] && [ "$f2fs_fdp" -gt 1 ]; then rewrite=(); fi
cat >"$tmp/ancient_hints.sh" <<EOF
#!/bin/sh
exec python3 "$here/capture_post.py" $post \
  \$(for f in "$side"/fdp_events.*.jsonl; do printf -- '--events %s ' "\$f"; done) "\$1"
EOF
chmod +x "$tmp/ancient_hints.sh"

export GETH_FDP=1 GETH_FDP_MODE=hints,log GETH_FDP_MAP="$TIER_MAP" GETH_FDP_MARKERS="$side/markers.txt"
if [ -n "$f2fs_fdp" ]; then
  # hints would set F2FS's temperatures (i_write_hint), which the study's
  # geth did not: non-FDP only logs the tiers; FDP moves them into p<ID>/
  if [ "$f2fs_fdp" -gt 1 ]; then
    # one folder per database under each p<ID> (geth init opens two)
    export GETH_FDP_MODE=dirs,log GETH_FDP_MAP="$FDP_DIR_MAP" \
      GETH_FDP_DIRS="0=$mnt/p0/%s,1=$mnt/p1/%s,2=$mnt/p2/%s,3=$mnt/p3/%s,4=$mnt/p4/%s"
  else
    export GETH_FDP_MODE=log
  fi
fi
export GETH_PEBBLE_NO_COMPRESSION=1 GETH_PEBBLE_MEMTABLE_KB="$memtable_kb" GETH_PEBBLE_SCALE="$scale" GETH_PEBBLE_MIN_FILE_KB="$min_file_kb"
pid_names=()
names=("${PID_NAMES[@]}")
if [ -n "$f2fs_fdp" ] && [ "$f2fs_fdp" -gt 1 ]; then names=("${FDP_PID_NAMES[@]}"); fi
for p in "${names[@]}"; do pid_names+=(--pid-name "$p"); done
force_opt=()
[ "$force" = 1 ] && force_opt=(--force)
say "capturing: geth $version init + import of ${#rlps[@]} chain files (one geth process each) on $fs ($devsize, $loop)"
start=$SECONDS
# Action Q (bios as queued, before the block layer merges them): with files
# of a few pages, ext4 places different tiers' files next to each other and a
# dispatched request (D) can merge the bios of two files, which then get one
# placement ID between them (about 1% of a tier's bytes at 64 KiB files).
FTLSIM="${FTLSIM:-}" # Q sees every bio: a larger per-CPU trace buffer than the default 16 MiB.
"$repo/tools/capture_blktrace.sh" -d "$loop" -o "$out" --hints --action Q --buffer-kb 65536 "${force_opt[@]}" "${keep_raw[@]}" \
  "${rewrite[@]}" --markers "$side/markers.txt" "${pid_names[@]}" -- \
  "$here/run_import_capture.sh" --inner "$geth" "$datadir" "$chain/genesis.json" "$side" "$cache_mb" "$compact" "${rlps[@]}" ||
  { cp "$side/geth.log" "$base.geth.log" 2>/dev/null; fail "capture failed (geth log: $base.geth.log)"; }
elapsed=$((SECONDS - start))

# ------------------------------------------------------------ side files
# (the trace and capture.json are capture_blktrace.sh's; raw.txt and
# hints.csv it keeps only with --keep-raw)
for x in fdp_stats.json markers.txt run.json geth.log; do rm -f "$base.$x"; done
python3 "$here/capture_post.py" sum-stats --ancient-id "$ANCIENT_ID" "$base.fdp_stats.json" \
  "$side/fdp_stats.init.json" "$side"/fdp_stats.import*.json || fail "summing the wrapper's stats failed"
cp "$side/markers.txt" "$base.markers.txt"
# The block range: the first and last block markers geth wrote.
read -r first_block last_block < <(awk '!/^#/ && $2 > 0 {if (!n++) f = $2; l = $2} END {print f + 0, l + 0}' "$side/markers.txt")
cp "$side/geth.log" "$base.geth.log"
read -r size_kb used_kb avail_kb < <(df -Pk "$mnt" | awk 'NR == 2 {print $2, $3, $4}')
ancient_dir="${ancient_real:-$datadir/geth/chaindata/ancient}"
ancient_kb="$(du -sk "$ancient_dir" | cut -f1)"
# (FDP mode: Pebble's tables live in p0..p4/, chaindata holds symlinks)
chaindata_kb="$(( $(du -sk "$mnt" | cut -f1) - ancient_kb ))"
[ -n "$f2fs_fdp" ] || chaindata_kb="$(du -sk "$datadir/geth/chaindata" | cut -f1)"
mode=""
[ -z "$f2fs_fdp" ] || { [ "$f2fs_fdp" -gt 1 ] && mode=fdp || mode=nonfdp; }
# F2FS's own counters since mount (checkpoints, its cleaning, blocks written):
# what explains the host bytes a mode sends (docs/geth_study.md)
f2fs_counters=""
if [ "$fs" = f2fs ]; then
  for k in cp_foreground_calls cp_background_calls gc_foreground_calls gc_background_calls \
           moved_blocks_foreground moved_blocks_background lifetime_write_kbytes; do
    v="$(cat "/sys/fs/f2fs/$(basename "$loop")/$k" 2>/dev/null || true)"
    [ -z "$v" ] || f2fs_counters+="$k=$v "
  done
fi
# run.json: every setting of the run, as key=value arguments (values stay
# data: a quote in a path or a mount option cannot break the file).
python3 - "$base.run.json" "$chain/chaingen.json" version=1 geth="$version" geth_binary_stamp="$stamp" \
  first_block="$first_block" last_block="$last_block" chain_dir="$chain" chunks="${#rlps[@]}" seed="$seed" \
  chaingen_args="$cg_args" scale="$scale" device_size="$devsize" filesystem="$fs" mount_options="$mount_opts" \
  f2fs_discard_idle_interval_s="$discard_idle_set" ids_from="$ids_from" block_trace_action=Q \
  compact_after_import="$compact" geth_flags="--state.scheme hash --cache $cache_mb --snapshot=false" \
  pebble_env.GETH_PEBBLE_NO_COMPRESSION=1 pebble_env.GETH_PEBBLE_MEMTABLE_KB="$memtable_kb" \
  pebble_env.GETH_PEBBLE_SCALE="$scale" pebble_env.GETH_PEBBLE_MIN_FILE_KB="$min_file_kb" \
  freezer_threshold_blocks="$immutability" tier_map="$TIER_MAP" ancient_id="$ANCIENT_ID" elapsed_s="$elapsed" \
  mode="$mode" f2fs_fdp_log_n="$f2fs_fdp" f2fs_mkfs_ovp_pct="${f2fs_fdp:+$f2fs_ovp}" \
  f2fs_sysfs="${f2fs_knobs:-}" f2fs_counters_at_end="$f2fs_counters" geth_fdp_mode="$GETH_FDP_MODE" reset_marker="${IMPORT_RESET_MARKER:-0}" \
  kernel="$(uname -r)" fs_size_kib="$size_kb" fs_used_kib_at_end="$used_kb" fs_avail_kib_at_end="$avail_kb" \
  chaindata_kib_at_end="$chaindata_kb" ancient_kib_at_end="$ancient_kb" <<'EOF'
import json, sys
# Whole numbers (an empty one is null: a setting not made); the rest are text.
INTS = {"version", "first_block", "last_block", "chunks", "seed", "scale", "f2fs_discard_idle_interval_s",
        "freezer_threshold_blocks", "ancient_id", "elapsed_s", "fs_size_kib", "fs_used_kib_at_end",
        "fs_avail_kib_at_end", "chaindata_kib_at_end", "ancient_kib_at_end", "f2fs_fdp_log_n",
        "f2fs_mkfs_ovp_pct", "reset_marker"}
run = {}
for arg in sys.argv[3:]:
    key, _, value = arg.partition("=")
    if key.startswith("pebble_env."):
        run.setdefault("pebble_env", {})[key[len("pebble_env."):]] = value
    elif key == "compact_after_import":
        run[key] = value == "1"
    elif key == "f2fs_counters_at_end":
        run[key] = {k: int(v) for k, _, v in (kv.partition("=") for kv in value.split())} or None
    elif key in ("mode", "f2fs_sysfs") and not value:
        run[key] = None  # not an FDP-aware F2FS run
    else:
        run[key] = (int(value) if value else None) if key in INTS else value
run["chaingen"] = json.load(open(sys.argv[2]))
with open(sys.argv[1], "x") as f:
    json.dump(run, f, indent=2); f.write("\n")
EOF
say "done in $elapsed s: $out (blocks $first_block..$last_block); chaindata ${chaindata_kb} KiB (ancient ${ancient_kb} KiB), file system ${used_kb} KiB used"
