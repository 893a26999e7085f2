#!/usr/bin/env bash
# End to end from the geth side: ethstate (tools/geth_patch: go-ethereum's
# StateDB over Pebble through the tier wrapper, write hints on) runs on ext4
# on a loop device under tools/capture_blktrace.sh --hints --markers. Checks:
#   1. bytes per placement ID in the .ftr equal the wrapper's own per-ID byte
#      counts (fdp_stats.json "ids") within 1%, for every ID 1..5 the wrapper
#      wrote (ID 0 also carries the file system's own metadata and journal);
#   2. one marker per block, 0..BLOCKS, merged from ethstate's sidecar, in
#      time order among the requests;
#   3. the trace replays through ftlsim with single and fdp placement.
# Runs without --history: geth's freezer files are written by geth itself and
# counted by size growth, and their fsyncs rewrite partial pages, so their
# device bytes exceed any per-write count (the shipped trace has them).
#
# usage: test_geth_capture.sh FTLSIM_BINARY
# Exit 77 (ctest SKIP_RETURN_CODE) without root, loop devices, Go or the BPF
# build tools.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
ftlsim="${1:?usage: test_geth_capture.sh FTLSIM_BINARY}"
blocks=150

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }

[ "$(id -u)" -eq 0 ] || skip "needs root (loop devices, block tracing, BPF)"
command -v go >/dev/null || skip "needs go (tools/geth_patch)"
command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null || skip "needs losetup and mkfs.ext4"
[ -e /dev/loop-control ] || skip "no loop device support"
for t in clang bpftool; do
  command -v "$t" >/dev/null 2>&1 || [ -x "/usr/sbin/$t" ] || skip "needs $t (tools/install_deps.sh capture)"
done
[ -r /sys/kernel/btf/vmlinux ] || skip "kernel has no BTF"

. "$(dirname "$0")/../common/scratch_loop.sh"
scratch_setup geth-capture

(cd "$repo/tools/geth_patch" && go build -o "$tmp/ethstate" ./cmd/ethstate) || fail "go build ./cmd/ethstate"
truncate -s 512M "$tmp/disk.img"
loop="$(losetup --find --show "$tmp/disk.img")" || skip "losetup failed (no free loop device?)"
mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "$loop"
mkdir -p "$mnt" && mount "$loop" "$mnt"

# Stats and sidecar go outside the traced device.
FTLSIM="$ftlsim" "$repo/tools/capture_blktrace.sh" -d "$loop" -o "$tmp/geth.ftr" --hints \
  --markers "$tmp/markers.txt" -- \
  "$tmp/ethstate" -datadir "$mnt/es" -accounts 20000 -blocks "$blocks" -progress 0 \
  -stats "$tmp/stats.json" -markers "$tmp/markers.txt" >"$tmp/capture.out" 2>"$tmp/capture.err" ||
  { cat "$tmp/capture.err"; fail "capture exited non-zero"; }
grep -q 'hinttrace: [0-9]* records, 0 lost' "$tmp/capture.err" || { cat "$tmp/capture.err"; fail "hint records lost"; }
pass "captured $(grep -c . "$tmp/markers.txt") sidecar lines"

"$ftlsim" info --json "$tmp/geth.ftr" >"$tmp/info.json"
checks="$here/geth_trace_checks.py"
python3 "$checks" ids "$tmp/stats.json" "$tmp/info.json" --min-ids 3 || fail "trace does not match the wrapper's counts"
python3 "$checks" markers "$tmp/geth.ftr" "$tmp/info.json" 0 "$blocks" || fail "markers"
pass "bytes per placement ID within 1% of the wrapper's counts; one marker per block, in time order among the requests"

# The trace replays.
for placement in single fdp; do
  "$ftlsim" --trace "$tmp/geth.ftr" --preset femu-eth-512m --placement "$placement" \
    --no-progress --out "$tmp/out-$placement" >"$tmp/sim-$placement.txt" || fail "simulate --placement $placement"
done
python3 - "$tmp/out-fdp/summary.json" <<'PY' || fail "simulated trace"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["requests"]["markers"] > 0 and s["host_pages"] > 0, s["requests"]
PY
pass "replayed with single and fdp placement"
echo "geth capture test: all checks passed"
