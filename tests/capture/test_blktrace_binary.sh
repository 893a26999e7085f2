#!/usr/bin/env bash
# `ftlsim convert --from blktrace` on records the kernel wrote, against
# blkparse's text of the same records through `--from blkparse`:
#   1. the kernel's blk tracer, switched to binary output (trace_options bin,
#      nocontext-info: trace_pipe then carries bare struct blk_io_trace
#      records, as blktrace's per-CPU files do), records a loop device while
#      mkfs.ext4, direct and synchronous writes, reads and a discard run on
#      both CPUs;
#   2. the records are split by CPU into DEV.blktrace.N files, as blktrace
#      writes them; blkparse (blktrace 1.2, an independent reader) prints the
#      whole stream as text;
#   3. for each of --action Q, D and C, both imports give the same requests
#      (operation, sector, length) at the same times: the binary import with
#      --keep-time is on the kernel's clock, blkparse counts from the first
#      event, so the two differ by one constant.
#
# usage: test_blktrace_binary.sh FTLSIM_BINARY
# Exit 77 (ctest SKIP_RETURN_CODE) when it cannot run here: not root, no loop
# devices, no blkparse, no tracefs or no blk tracer.
set -euo pipefail

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
[ $# -eq 1 ] && [ -x "$1" ] || fail "usage: $0 FTLSIM_BINARY (built)"
ftlsim="$1"

[ "$(id -u)" -eq 0 ] || skip "needs root (loop devices, block tracing)"
command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null || skip "needs losetup and mkfs.ext4"
command -v blkparse >/dev/null || skip "needs blkparse (tools/install_deps.sh capture)"
command -v python3 >/dev/null || skip "needs python3"
[ -e /dev/loop-control ] || modprobe loop 2>/dev/null || true
[ -e /dev/loop-control ] || skip "no loop device support (/dev/loop-control)"

tracefs=/sys/kernel/tracing mounted_tracefs=0
if [ ! -r "$tracefs/trace_pipe" ]; then
  mount -t tracefs nodev "$tracefs" 2>/dev/null && mounted_tracefs=1 || skip "tracefs not available"
fi
grep -qw blk "$tracefs/available_tracers" || skip "kernel has no blk tracer"
[ "$(cat "$tracefs/current_tracer")" = nop ] || skip "another tracer is active: $(cat "$tracefs/current_tracer")"

orig_on="$(cat "$tracefs/tracing_on")"
# The two options this test sets, as they were ("bin" or "nobin", ...).
orig_bin="$(grep -xE '(no)?bin' "$tracefs/trace_options" || echo nobin)"
orig_context="$(grep -xE '(no)?context-info' "$tracefs/trace_options" || echo context-info)"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/ftlsim-blktrace-test.XXXXXX")"
loop="" reader=""
cleanup() {
  set +e
  echo 0 >"$tracefs/tracing_on"
  [ -n "$reader" ] && kill "$reader" 2>/dev/null && wait "$reader" 2>/dev/null
  [ -n "$loop" ] && echo 0 >"/sys/block/${loop#/dev/}/trace/enable"
  echo "$orig_context" >"$tracefs/trace_options"
  echo "$orig_bin" >"$tracefs/trace_options"
  echo nop >"$tracefs/current_tracer"
  echo "$orig_on" >"$tracefs/tracing_on"
  [ -n "$loop" ] && losetup -d "$loop"
  [ "$mounted_tracefs" -eq 1 ] && umount "$tracefs"
  rm -rf "$tmp"
}
trap cleanup EXIT

truncate -s 128M "$tmp/disk.img"
loop="$(losetup -f --show "$tmp/disk.img")"
dev="${loop#/dev/}"

# ------------------------------------------------------------- 1. record
echo 0 >"$tracefs/tracing_on"
echo >"$tracefs/trace"
echo blk >"$tracefs/current_tracer"
echo bin >"$tracefs/trace_options"
echo nocontext-info >"$tracefs/trace_options"
echo 1 >"/sys/block/$dev/trace/enable"
echo 1 >"$tracefs/tracing_on"
cat "$tracefs/trace_pipe" >"$tmp/stream.bin" &
reader=$!

taskset -c 0 mkfs.ext4 -q -F "$loop"
for i in 1 2 3 4 5 6; do
  taskset -c $((i % 2)) dd if=/dev/urandom of="$loop" bs=4k count="$i" seek=$((2000 + i * 40)) oflag=direct,sync \
    status=none
done
taskset -c 1 dd if="$loop" of=/dev/null bs=64k count=8 skip=7 iflag=direct status=none
taskset -c 0 dd if=/dev/zero of="$loop" bs=1M count=2 seek=40 oflag=direct status=none
blkdiscard -f -o $((64 << 20)) -l $((1 << 20)) "$loop"
sync
sleep 1
echo 0 >"$tracefs/tracing_on"
sleep 1
kill "$reader" 2>/dev/null || true
wait "$reader" 2>/dev/null || true
reader=""
echo 0 >"/sys/block/$dev/trace/enable"
[ -s "$tmp/stream.bin" ] || fail "the blk tracer recorded nothing"

# ---------------------------------------------- 2. per-CPU files, blkparse
python3 - "$tmp/stream.bin" "$tmp/$dev.blktrace" <<'EOF'
import struct, sys
data, out = open(sys.argv[1], "rb").read(), sys.argv[2]
files, pos = {}, 0
while pos < len(data):
    magic, = struct.unpack_from("<I", data, pos)
    if magic & 0xFFFFFF00 != 0x65617400:
        sys.exit(f"stream.bin: byte {pos}: magic {magic:#x} is not blktrace's")
    cpu, pdu_len = struct.unpack_from("<I2xH", data, pos + 40)
    files.setdefault(cpu, bytearray()).extend(data[pos:pos + 48 + pdu_len])
    pos += 48 + pdu_len
for cpu, b in files.items():
    open(f"{out}.{cpu}", "wb").write(b)
print(f"{pos} bytes of records on CPUs {sorted(files)}")
EOF
blkparse -i - <"$tmp/stream.bin" >"$tmp/stream.txt" 2>"$tmp/blkparse.err" || fail "blkparse: $(cat "$tmp/blkparse.err")"

# ------------------------------------------------------------- 3. compare
for action in Q D C; do
  "$ftlsim" convert --from blkparse "$tmp/stream.txt" --action "$action" -o "$tmp/text-$action.ftr" --no-progress \
    2>"$tmp/text.log" || fail "convert --from blkparse: $(cat "$tmp/text.log")"
  "$ftlsim" convert --from blktrace "$tmp/$dev".blktrace.* --action "$action" --keep-time \
    -o "$tmp/bin-$action.ftr" --no-progress 2>"$tmp/bin.log" || fail "convert --from blktrace: $(cat "$tmp/bin.log")"
  "$ftlsim" dump "$tmp/text-$action.ftr" >"$tmp/text-$action.csv"
  "$ftlsim" dump "$tmp/bin-$action.ftr" >"$tmp/bin-$action.csv"
  python3 - "$tmp/text-$action.csv" "$tmp/bin-$action.csv" "$action" <<'EOF' || fail "--action $action: the imports differ"
import csv, sys
text = list(csv.DictReader(open(sys.argv[1])))
binary = list(csv.DictReader(open(sys.argv[2])))
action = sys.argv[3]
ops = {}
for r in binary:
    ops[r["op"]] = ops.get(r["op"], 0) + 1
print(f"--action {action}: {len(text)} records from the text, {len(binary)} from the binary files, by op {ops}")
assert len(text) == len(binary), "record counts differ"
# Every kind of request the workload makes, and enough of them to matter.
assert ops.get("write", 0) >= 20 and ops.get("read", 0) >= 1 and ops.get("trim", 0) >= 1, ops
if action != "C":
    assert ops.get("flush", 0) >= 1, ops
offset = int(binary[0]["time"]) - int(text[0]["time"])
assert offset > 0, "the binary import's times are not on the kernel's clock"
key = lambda r, shift: (int(r["time"]) - shift, r["op"], int(r["lba"]), int(r["length"]), r["pid"])
want = sorted(key(r, 0) for r in text)
got = sorted(key(r, offset) for r in binary)
for w, g in zip(want, got):
    assert w == g, f"text {w} vs binary {g}"
EOF
done
echo "ok: the kernel's binary records import as blkparse's text of them, for Q, D and C"
