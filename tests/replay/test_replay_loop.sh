#!/usr/bin/env bash
# `ftlsim replay` onto a loop device (needs root):
#   1. a mixed trace (fill, writes, reads, trims) replayed with --verify: op
#      and byte counts equal the trace's (`ftlsim info --json`), every unit
#      verified, and the backing file outside the loop device's window
#      (--offset/--sizelimit) left byte for byte as it was;
#   2. replaying again over replay data is allowed (it carries no signature);
#   3. refusals with every finding printed: an ext4 signature, a partition
#      table, a mounted file system; --force overrides a signature;
#   4. --placement stream refused where the device has no write streams.
#
# usage: test_replay_loop.sh FTLSIM_BINARY
# Exit 77 (ctest SKIP_RETURN_CODE) when it cannot run here: not root, no
# loop devices, no O_DIRECT in the temp dir.
set -euo pipefail

. "$(dirname "$0")/../common/scratch_loop.sh"

[ $# -ge 1 ] && [ -x "$1" ] || fail "usage: $0 FTLSIM_BINARY"
ftlsim="$1"
[ "$(id -u)" -eq 0 ] || skip "needs root (loop devices)"
command -v losetup >/dev/null && command -v python3 >/dev/null || skip "needs losetup and python3"
[ -e /dev/loop-control ] || modprobe loop 2>/dev/null || true
[ -e /dev/loop-control ] || skip "no loop device support (/dev/loop-control)"

scratch_setup replay-loop

# An 80 MiB backing file; the loop device sees [8 MiB, 72 MiB) of it. The
# guard bytes around that window must survive every replay.
python3 - "$tmp/backing.img" <<'EOF'
import sys
with open(sys.argv[1], "wb") as f:
    f.write(bytes([0xCD]) * (80 << 20))
EOF
loop="$(losetup -f --show --offset $((8 << 20)) --sizelimit $((64 << 20)) "$tmp/backing.img")" ||
  skip "losetup failed"
# Zero the window so the device starts without any signature.
dd if=/dev/zero of="$loop" bs=1M count=64 oflag=direct status=none
echo "loop device $loop (window [8 MiB, 72 MiB) of $tmp/backing.img)"

guards_intact() {
  python3 - "$tmp/backing.img" <<'EOF'
import sys
with open(sys.argv[1], "rb") as f:
    data = f.read()
lo, hi = 8 << 20, 72 << 20
bad = [i for i in (0, lo - 1, hi, len(data) - 1) if data[i] != 0xCD]
if len(data) != 80 << 20 or data[:lo].count(0xCD) != lo or data[hi:].count(0xCD) != len(data) - hi:
    sys.exit("guard bytes outside the loop window changed")
EOF
}

"$ftlsim" gen --pattern uniform --logical 64M --fill --writes 6000 --read-ratio 0.2 --trim-ratio 0.05 \
  --markers 1000 -o "$tmp/mixed.ftr" >/dev/null
"$ftlsim" info "$tmp/mixed.ftr" --json >"$tmp/info.json"
ops="write,read,trim"
discard_max="$(cat "/sys/block/$(basename "$loop")/queue/discard_max_bytes" 2>/dev/null || echo 0)"
if [ "$discard_max" = 0 ]; then
  ops="write,read"
  echo "note: $loop does not support discard; trims not replayed"
fi

# ------------------------------------------------------------ 1. replay + verify
out="$tmp/out1"
if ! "$ftlsim" replay --trace "$tmp/mixed.ftr" --target "$loop" --ops "$ops" --verify --no-progress \
    --out "$out" >"$tmp/replay1.txt" 2>&1; then
  cat "$tmp/replay1.txt"
  grep -q "O_DIRECT" "$tmp/replay1.txt" && skip "no O_DIRECT"
  fail "replay onto $loop failed"
fi
cat "$tmp/replay1.txt"
python3 - "$tmp/info.json" "$out/summary.json" "$ops" <<'EOF'
import json, sys
info = json.load(open(sys.argv[1]))
s = json.load(open(sys.argv[2]))
ops = sys.argv[3].split(",")
assert s["partial"] is False, s["stop_reason"]
assert s["target"]["kind"] == "block device" and s["target"]["bytes"] == 64 << 20, s["target"]
for op in ops:
    want_records = info["ops"][op]["records"]
    want_bytes = info["ops"][op]["bytes"]
    got = s["ops"][op]
    # Every request is 4 KiB-aligned and at most 1 MiB: one I/O per record.
    assert got["ios"] == want_records, (op, got["ios"], want_records)
    assert got["bytes"] == want_bytes, (op, got["bytes"], want_bytes)
    assert got["errors"] == 0
v = s["verify"]
assert v["mismatches"] == 0 and v["written_units"] > 0, v
assert s["records"]["replayed"] == info["records"]
print("counts and verify ok:", {op: s["ops"][op]["ios"] for op in ops}, "units", v["written_units"])
EOF
guards_intact || fail "bytes outside the loop device changed"
pass "replay + verify on $loop; guard bytes intact"

# ------------------------------------------------------------ 2. again
"$ftlsim" replay --trace "$tmp/mixed.ftr" --target "$loop" --ops write --no-progress >/dev/null ||
  fail "a second replay over replay data was refused"
pass "replaying over replay data needs no --force"

# ------------------------------------------------------------ 3. refusals
# udev may still be probing the device after a replay closed it; wait for it.
settle() { command -v udevadm >/dev/null && udevadm settle 2>/dev/null; sleep 0.2; }
if command -v mkfs.ext4 >/dev/null; then
  settle
  for _ in 1 2 3 4 5; do mkfs.ext4 -q -F "$loop" 2>/dev/null && break; sleep 1; done
  grep -q ext4 <<<"$(blkid -p "$loop" 2>/dev/null)" || fail "mkfs.ext4 $loop failed"
  expect_refusal "ext4 signature" "refusing to write to $loop: .*ext4 file system signature" \
    "$ftlsim" replay --trace "$tmp/mixed.ftr" --target "$loop" --no-progress
  mkdir -p "$mnt"
  mount "$loop" "$mnt"
  expect_refusal "mounted" "$loop is mounted at $mnt" \
    "$ftlsim" replay --trace "$tmp/mixed.ftr" --target "$loop" --no-progress
  umount "$mnt"
  settle
  "$ftlsim" replay --trace "$tmp/mixed.ftr" --target "$loop" --ops write --force --no-progress >"$tmp/forced.txt" ||
    fail "--force did not override the signature"
  grep -q "^warning    --force: ext4 file system signature" "$tmp/forced.txt" || fail "--force did not print the finding"
  pass "--force overrides a signature and prints it"
else
  echo "note: mkfs.ext4 missing; signature and mount refusals untested"
fi
# A DOS partition table: one Linux partition (type 0x83) from sector 2048,
# 32 MiB long, in the first entry at byte 446; boot signature 55 AA at 510.
settle
dd if=/dev/zero of="$loop" bs=1M count=1 oflag=direct status=none
python3 - "$loop" <<'EOF2'
import struct, sys
mbr = bytearray(512)
mbr[446:462] = struct.pack("<B3sB3sII", 0, b"\0\0\0", 0x83, b"\0\0\0", 2048, 65536)
mbr[510:512] = b"\x55\xaa"
with open(sys.argv[1], "r+b", buffering=0) as f:
    f.write(mbr)
EOF2
expect_refusal "partition table" "dos partition table signature" \
  "$ftlsim" replay --trace "$tmp/mixed.ftr" --target "$loop" --no-progress
# With the partition known to the kernel (partx adds it via BLKPG), sysfs
# lists it too.
if command -v partx >/dev/null && partx -a "$loop" 2>/dev/null; then
  settle
  expect_refusal "partitions" "has 1 partition\\(s\\): $(basename "$loop")p1;.*dos partition table" \
    "$ftlsim" replay --trace "$tmp/mixed.ftr" --target "$loop" --no-progress
  partx -d "$loop" 2>/dev/null || true
  settle
else
  echo "note: partx could not add the partition; sysfs partition refusal untested"
fi
dd if=/dev/zero of="$loop" bs=1M count=1 oflag=direct status=none

# ------------------------------------------------------------ 4. write streams
expect_refusal "stream placement" "no queue/max_write_streams|advertises no write streams" \
  "$ftlsim" replay --trace "$tmp/mixed.ftr" --target "$loop" --placement stream --no-progress
guards_intact || fail "bytes outside the loop device changed"
pass "all loop-device checks"
