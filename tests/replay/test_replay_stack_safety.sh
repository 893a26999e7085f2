#!/usr/bin/env bash
# `ftlsim replay` onto a block device checks the target's whole stack
# (needs root for loop devices and mounts):
#   1. a loop device backed by the trace (at offset 0 or any other, through
#      a hard link, a loop device on that loop device; --wrap, so that the
#      whole trace fits) is refused, --force
#      or not, and the trace stays intact;
#   2. a loop device over disk.img is refused while another loop device
#      over the same file (another offset) holds a mounted ext4, or only
#      its signature, or a loop device on it is mounted; the file system
#      stays clean (e2fsck -fn);
#   3. a trace on a file system mounted from the same storage is refused
#      even with --force;
#   4. with nothing else on the file, the loop device is accepted.
#
# usage: test_replay_stack_safety.sh FTLSIM_BINARY
# Exit 77 (ctest SKIP_RETURN_CODE) when it cannot run here: not root, no
# loop devices, no mkfs.ext4.
set -euo pipefail

. "$(dirname "$0")/../common/scratch_loop.sh"

scratch_need_loops "$@" mkfs.ext4 e2fsck

scratch_setup replay-stack-safety

# ------------------------------------------------------------ 1. the trace backs the target
"$ftlsim" gen --pattern uniform --logical 8M --writes 1000 -o "$tmp/t.ftr" >/dev/null
cp "$tmp/t.ftr" "$tmp/t.copy"
ln "$tmp/t.ftr" "$tmp/hard.ftr"
attach l_trace "$tmp/t.ftr"
attach l_off "$tmp/t.ftr" --offset 4096
attach l_on_loop "$l_trace"
for target in "$l_trace" "$l_off" "$l_on_loop"; do
  for trace in "$tmp/t.ftr" "$tmp/hard.ftr"; do
    for force in "" --force; do
      expect_refusal "trace behind $target ($trace $force)" "stored in the input --trace" \
        "$ftlsim" replay --trace "$trace" --target "$target" --no-progress --wrap $force
    done
  done
done
cmp -s "$tmp/t.ftr" "$tmp/t.copy" || fail "the trace changed"
"$ftlsim" info "$tmp/t.ftr" >/dev/null || fail "ftlsim info: the trace is damaged"
pass "trace intact"

# ------------------------------------------------------------ 2. the same file under another loop device
truncate -s 64M "$tmp/disk.img"
attach l1 "$tmp/disk.img"
attach l2 "$tmp/disk.img" --offset $((1 << 20))
mkfs.ext4 -q "$l2"
mkdir -p "$mnt"
mount "$l2" "$mnt" || skip "cannot mount $l2"
echo data >"$mnt/file.txt"
sync
expect_refusal "mounted beside" "$l2 \(a loop device over $tmp/disk.img\) is mounted at $mnt" \
  "$ftlsim" replay --trace "$tmp/t.copy" --target "$l1" --no-progress
# A loop device on the target: its stack goes down to disk.img as well.
attach l_up "$l1"
expect_refusal "mounted beside, target on a loop device" "is mounted at $mnt" \
  "$ftlsim" replay --trace "$tmp/t.copy" --target "$l_up" --no-progress
# 3. The trace on that file system: refused even with --force.
cp "$tmp/t.copy" "$mnt/t.ftr"
expect_refusal "trace on the file system beside" "the input --trace $mnt/t.ftr is on a file system of" \
  "$ftlsim" replay --trace "$mnt/t.ftr" --target "$l1" --no-progress --force
rm "$mnt/t.ftr"
umount "$mnt"
e2fsck -fn "$l2" >/dev/null 2>&1 || fail "e2fsck found the file system beside damaged"
pass "file system beside clean"
# Unmounted: its signature is still found, through the other loop device.
expect_refusal "signature beside" "$l2 \(a loop device over $tmp/disk.img\): ext4 file system signature" \
  "$ftlsim" replay --trace "$tmp/t.copy" --target "$l1" --no-progress
# Mounted through a loop device on the other loop device.
attach l2_up "$l2"
mount "$l2_up" "$mnt" || skip "cannot mount $l2_up"
expect_refusal "mounted on a loop device beside" "is mounted at $mnt" \
  "$ftlsim" replay --trace "$tmp/t.copy" --target "$l1" --no-progress
umount "$mnt"
e2fsck -fn "$l2" >/dev/null 2>&1 || fail "e2fsck found the file system beside damaged"

# The report folder on that file system (hostile rerun 2, N2): refused even
# with --force, through the target itself or a loop device beside, before
# anything is written (the replay used to overwrite the file system and then
# write its report into it, or fail for want of space after the replay).
mount "$l2" "$mnt" || skip "cannot mount $l2"
mkdir "$mnt/res"
for t in "$l1" "$tmp/disk.img"; do
  expect_refusal "--out on the file system beside ($t)" "--out $mnt/res is on a file system of $l2 .*--force or not" \
    "$ftlsim" replay --trace "$tmp/t.copy" --target "$t" --no-progress --force --out "$mnt/res"
  expect_refusal "--out below a folder of the file system beside ($t)" "--out $mnt/res/new/deeper is on a file system" \
    "$ftlsim" replay --trace "$tmp/t.copy" --target "$t" --no-progress --force --out "$mnt/res/new/deeper"
done
[ -z "$(ls -A "$mnt/res")" ] || fail "--out on the file system beside: $mnt/res is not empty"
umount "$mnt"
e2fsck -fn "$l2" >/dev/null 2>&1 || fail "e2fsck found the file system beside damaged after the --out refusals"

# ------------------------------------------------------------ 4. nothing beside
losetup -d "$l2_up" "$l2" "$l_up"
scratch_loops=("$l_trace" "$l_off" "$l_on_loop" "$l1")
out="$("$ftlsim" replay --trace "$tmp/t.copy" --target "$l1" --no-progress 2>&1)" ||
  fail "replay to $l1 with nothing else on disk.img failed: $out"
pass "nothing beside: accepted"
pass "all stack checks"
