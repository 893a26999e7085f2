#!/usr/bin/env bash
# `ftlsim replay` to a regular file that is in use (needs
# root for the loop device and the mount):
#   1. disk.img backs a loop device holding a mounted ext4: replay to it,
#      by its name, a hard link, a symlink or a relative path, is refused
#      naming the loop device and the mount, and the file system stays
#      clean (e2fsck -n) with its file intact;
#   2. the same after umount, while the loop device is still attached (a
#      zeroed image, so no signature helps: the loop check alone refuses);
#   3. detached, the zeroed file is accepted again.
#
# usage: test_replay_target_safety.sh FTLSIM_BINARY
# Exit 77 (ctest SKIP_RETURN_CODE) when it cannot run here: not root, no
# loop devices, no mkfs.ext4, no O_DIRECT in the temp dir.
set -euo pipefail

. "$(dirname "$0")/../common/scratch_loop.sh"

scratch_need_loops "$@" mkfs.ext4 e2fsck debugfs

scratch_setup replay-target-safety

"$ftlsim" gen --pattern uniform --logical 16M --writes 2000 -o "$tmp/t.ftr" >/dev/null
truncate -s 32M "$tmp/disk.img"
mkfs.ext4 -q -F "$tmp/disk.img"
loop="$(losetup -f --show "$tmp/disk.img")" || skip "losetup failed"
mkdir -p "$mnt"
mount "$loop" "$mnt" || skip "cannot mount $loop"
echo "data" >"$mnt/file.txt"
sync
ln "$tmp/disk.img" "$tmp/hard.img"
ln -s "$tmp/disk.img" "$tmp/soft.img"


# ------------------------------------------------------------ 1. mounted
for target in "$tmp/disk.img" "$tmp/hard.img" "$tmp/soft.img"; do
  expect_refusal "mounted, as $(basename "$target")" \
    "refusing to write to $target: .*backs loop device $loop.*$loop is mounted at $mnt" \
    "$ftlsim" replay --trace "$tmp/t.ftr" --target "$target" --no-progress
done
(cd "$tmp" && expect_refusal "mounted, relative path" "backs loop device $loop" \
  "$ftlsim" replay --trace t.ftr --target ./disk.img --no-progress)
umount "$mnt"
e2fsck -n -f "$tmp/disk.img" >/dev/null 2>&1 || fail "e2fsck found the file system damaged"
[ "$(debugfs -R "cat /file.txt" "$tmp/disk.img" 2>/dev/null)" = "data" ] || fail "file.txt lost"
pass "file system clean, its file intact"

# ------------------------------------------------------------ 2. attached, no signature
# Zero the file while the loop device stays attached (detaching and
# attaching again could hand the number to a test running in parallel).
dd if=/dev/zero of="$tmp/disk.img" bs=1M count=32 conv=notrunc,fsync status=none
expect_refusal "attached, zeroed" "refusing to write to $tmp/hard.img: $tmp/hard.img backs loop device $loop" \
  "$ftlsim" replay --trace "$tmp/t.ftr" --target "$tmp/hard.img" --no-progress
cmp -s "$tmp/disk.img" <(head -c $((32 << 20)) /dev/zero) || fail "disk.img changed while attached"

# ------------------------------------------------------------ 3. detached
losetup -d "$loop"
loop=""
out="$("$ftlsim" replay --trace "$tmp/t.ftr" --target "$tmp/disk.img" --no-progress 2>&1)" || {
  grep -q "O_DIRECT" <<<"$out" && skip "no O_DIRECT in $tmp"
  fail "replay to the detached, zeroed file failed: $out"
}
pass "detached and zeroed: accepted"
pass "all target-safety checks"
