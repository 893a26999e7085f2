#!/usr/bin/env bash
# `ftlsim replay` targets refused before anything is written, and targets
# busy for a moment (issue #22, the rerun's S2, S4 and S6; needs root for
# the mounts, the loop devices and chattr):
#   1. a target, or an output of any command, on a kernel file system mounted
#      here (tracefs, debugfs): refused, exit 2, one line;
#   2. a target file on an ext4 mounted read-only: refused, exit 2, one line
#      (it was exit 1, "cannot open for direct I/O: Read-only file system");
#   3. an immutable or append-only target file (chattr +i, +a): refused,
#      exit 2 (exit 1, "Operation not permitted");
#   4. a read-only loop device (losetup -r): refused, exit 2, nothing written
#      (every write failed: exit 1, a report marked PARTIAL);
#   5. a loop device another program holds open with O_EXCL for half a
#      second: the replay waits and runs; held for good: refused after the
#      bounded wait (2 s);
#   6. a replay killed (kill -9) while it writes to a loop device: a rerun at
#      once runs (it was refused for 0.2-0.4 s, "it is busy");
#   with 2 and 3, a replay whose writes reach more of the file's holes than
#   its file system has free: refused, nothing created (it ran to ENOSPC).
#
# usage: test_replay_refusals.sh FTLSIM_BINARY
# Exit 77 (ctest SKIP_RETURN_CODE) when it cannot run here: not root, no
# loop devices, no mkfs.ext4, chattr or python3, no O_DIRECT.
set -euo pipefail

. "$(dirname "$0")/../common/scratch_loop.sh"

scratch_need_loops "$@" mkfs.ext4 chattr python3 mountpoint

scratch_setup replay-refusals
# Kernel file systems mounted by this test, unmounted before the scratch
# folder is removed (lazily if busy, so that removing it never reaches them).
pseudo_mounts=()
refusals_cleanup() {
  set +e
  local m
  for m in "${pseudo_mounts[@]}"; do
    mountpoint -q "$m" && { umount "$m" || umount -l "$m"; }
  done
  [ -f "$mnt/fixed.img" ] && chattr -i -a "$mnt/fixed.img" 2>/dev/null
  scratch_cleanup
}
trap refusals_cleanup EXIT

"$ftlsim" gen --pattern uniform --logical 8M --writes 1000 -o "$tmp/t.ftr" >/dev/null
"$ftlsim" gen --pattern uniform --logical 32M --writes 100000 -o "$tmp/big.ftr" >/dev/null

# ------------------------------------------------------------ 1. kernel file systems
for kind in tracefs debugfs; do
  dir="$tmp/$kind"
  mkdir -p "$dir"
  mount -t "$kind" none "$dir" 2>/dev/null || { rmdir "$dir"; pass "$kind: cannot be mounted here, not tested"; continue; }
  pseudo_mounts+=("$dir")
  # A file not meant to be written (no w bit), so that a refusal that
  # failed would not hand the trace's bytes to a kernel setting.
  f="$(find "$dir" -maxdepth 1 -type f ! -perm /222 -print -quit)"
  [ -n "$f" ] || fail "$kind: no read-only file at its top"
  for force in "" --force; do
    expect_refusal "$kind target $force" "--target $f is a file of the kernel's $kind file system, not storage" \
      "$ftlsim" replay --no-progress --trace "$tmp/t.ftr" --target "$f" $force
  done
  expect_refusal "$kind --create" "its folder $dir is on a $kind file system" \
    "$ftlsim" replay --no-progress --trace "$tmp/t.ftr" --target "$dir/x.img" --create 8M
  expect_refusal "$kind gen -o" "is on a $kind file system" \
    "$ftlsim" gen --pattern uniform --logical 8M --writes 10 -o "$dir/x.ftr"
  expect_refusal "$kind --out" "is on a $kind file system" \
    "$ftlsim" --trace "$tmp/t.ftr" --logical 8M --no-progress --out "$dir/o"
  umount "$dir"
done

# ------------------------------------------------------------ 2, 3. read-only, immutable, append-only
truncate -s 64M "$tmp/fs.img"
mkfs.ext4 -q -F "$tmp/fs.img"
loop="$(losetup -f --show "$tmp/fs.img")" || skip "losetup failed"
mkdir -p "$mnt"
mount "$loop" "$mnt" || skip "cannot mount $loop"
truncate -s 8M "$mnt/t.img" "$mnt/fixed.img"
out="$("$ftlsim" replay --no-progress --trace "$tmp/t.ftr" --target "$mnt/t.img" 2>&1)" || {
  grep -q "O_DIRECT" <<<"$out" && skip "no O_DIRECT on ext4 here"
  fail "replay to a plain file on the scratch ext4 failed: $out"
}
for attr in +i +a; do
  chattr "$attr" "$mnt/fixed.img"
  expect_refusal "chattr $attr" "--target $mnt/fixed.img: cannot open it for writing \(Operation not permitted\); nothing was written" \
    "$ftlsim" replay --no-progress --trace "$tmp/t.ftr" --target "$mnt/fixed.img"
  chattr "${attr/+/-}" "$mnt/fixed.img"
done
cmp -s "$mnt/fixed.img" <(head -c $((8 << 20)) /dev/zero) || fail "the immutable file changed"
# A replay whose writes need more of a file's holes than the file system
# has free is refused before it writes (it ran until ENOSPC, filling the
# file system); one onto a file that holds most of what the writes reach runs.
"$ftlsim" gen --pattern uniform --logical 24M --fill --writes 10 -o "$tmp/fill24.ftr" >/dev/null
truncate -s 32M "$mnt/half.img"
dd if=/dev/urandom of="$mnt/half.img" bs=1M count=16 conv=notrunc status=none
sync
avail=$(df --output=avail -B1 "$mnt" | tail -n 1)
[ "$avail" -gt $((12 << 20)) ] || fail "the scratch ext4 has only $avail bytes free"
fallocate -l $((avail - (12 << 20))) "$mnt/filler"
sync
expect_refusal "not enough free space" \
  "--target $mnt/new.img: the replay's writes reach 24.00 MiB \(25165824 bytes\) of the file's holes, .* more than the 1[12]\.[0-9]+ MiB" \
  "$ftlsim" replay --no-progress --trace "$tmp/fill24.ftr" --target "$mnt/new.img" --create 32M
[ ! -e "$mnt/new.img" ] || fail "the refused replay left $mnt/new.img"
out="$("$ftlsim" replay --no-progress --trace "$tmp/fill24.ftr" --target "$mnt/half.img" 2>&1)" ||
  fail "a replay needing 8 MiB of holes with 12 MiB free: $out"
grep -q "status     complete" <<<"$out" || fail "a replay needing 8 MiB of holes with 12 MiB free: $out"
pass "a replay needing 8 MiB of a file's holes with 12 MiB free runs"
# The same through a loop device over a sparse file there: its writes
# allocate in the backing file, from the loop's offset on.
rm -f "$mnt/half.img" "$mnt/filler"
truncate -s 48M "$mnt/back.img"
dd if=/dev/urandom of="$mnt/back.img" bs=1M seek=16 count=24 conv=notrunc status=none
sync
avail=$(df --output=avail -B1 "$mnt" | tail -n 1)
[ "$avail" -gt $((4 << 20)) ] || fail "the scratch ext4 has only $avail bytes free"
fallocate -l $((avail - (4 << 20))) "$mnt/filler"
sync
attach back "$mnt/back.img" -o $((8 << 20))
expect_refusal "not enough free space under a loop device" \
  "--target $back: the replay's writes reach 8.00 MiB \(8388608 bytes\) of its backing file $mnt/back.img's holes" \
  "$ftlsim" replay --no-progress --trace "$tmp/fill24.ftr" --target "$back"
detach "$back"
attach back "$mnt/back.img" -o $((16 << 20))
out="$("$ftlsim" replay --no-progress --trace "$tmp/fill24.ftr" --target "$back" 2>&1)" ||
  fail "a loop device whose writes all land on its file's data: $out"
detach "$back"
grep -q "status     complete" <<<"$out" || fail "a loop device whose writes all land on its file's data: $out"
pass "a loop device whose writes all land on its backing file's data runs with 4 MiB free"
rm -f "$mnt/back.img" "$mnt/filler"
before="$(md5sum <"$mnt/t.img")"
mount -o remount,ro "$mnt"
for force in "" --force; do
  expect_refusal "read-only ext4 $force" "--target $mnt/t.img is on a read-only file system" \
    "$ftlsim" replay --no-progress --trace "$tmp/t.ftr" --target "$mnt/t.img" $force
done
[ "$(md5sum <"$mnt/t.img")" = "$before" ] || fail "the file on the read-only file system changed"
umount "$mnt"
losetup -d "$loop"
loop=""

# ------------------------------------------------------------ 4. read-only loop device
truncate -s 32M "$tmp/dev.img"
loop="$(losetup -f --show -r "$tmp/dev.img")" || skip "losetup -r failed"
expect_refusal "read-only loop device" "refusing to write to $loop: the device is read-only" \
  "$ftlsim" replay --no-progress --trace "$tmp/t.ftr" --target "$loop"
losetup -d "$loop"
loop=""
cmp -s "$tmp/dev.img" <(head -c $((32 << 20)) /dev/zero) || fail "the read-only loop device's file changed"

# ------------------------------------------------------------ 5. held with O_EXCL
loop="$(losetup -f --show "$tmp/dev.img")" || skip "losetup failed"
# hold_excl SECONDS: holds $loop with O_EXCL in the background, from when it
# returns (the holder says so through $tmp/held).
hold_excl() {
  rm -f "$tmp/held"
  python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
open(sys.argv[2], "w").write("held")
time.sleep(float(sys.argv[3]))' "$loop" "$tmp/held" "$1" &
  holder=$!
  local i
  for ((i = 0; i < 500; i++)); do [ -s "$tmp/held" ] && return 0; sleep 0.01; done
  fail "the O_EXCL holder did not start"
}
hold_excl 0.5
"$ftlsim" replay --no-progress --trace "$tmp/t.ftr" --target "$loop" >/dev/null 2>"$tmp/err" ||
  fail "a device held for 0.5 s: $(cat "$tmp/err")"
wait "$holder"
pass "a device held with O_EXCL for 0.5 s: waited for, replayed"
hold_excl 30
start=$(date +%s%N)
expect_refusal "held for good" "refusing to write to $loop: it is busy \(the exclusive open failed, still after 2 s" \
  "$ftlsim" replay --no-progress --trace "$tmp/t.ftr" --target "$loop"
elapsed=$((($(date +%s%N) - start) / 1000000))
kill "$holder"
wait "$holder" 2>/dev/null || true
[ "$elapsed" -ge 1900 ] && [ "$elapsed" -lt 30000 ] || fail "refused after $elapsed ms, want 2 s of waiting"
pass "held for good: refused after $elapsed ms"

# ------------------------------------------------------------ 6. kill -9, rerun at once
ino="$(stat -c %i "$tmp/dev.img")"
for round in 1 2 3; do
  "$ftlsim" replay --no-progress --qd 64 --trace "$tmp/big.ftr" --target "$loop" >/dev/null 2>&1 &
  victim=$!
  # Writing once it holds the backing file's flock (in /proc/locks).
  for ((i = 0; i < 500; i++)); do grep -q "FLOCK  ADVISORY  WRITE $victim .*:$ino " /proc/locks && break; sleep 0.01; done
  sleep 0.05
  kill -9 "$victim" 2>/dev/null || { wait "$victim" || true; pass "round $round: the replay ended before the kill"; continue; }
  wait "$victim" 2>/dev/null || true
  "$ftlsim" replay --no-progress --trace "$tmp/t.ftr" --target "$loop" >/dev/null 2>"$tmp/err" ||
    fail "round $round: the rerun after kill -9 was refused: $(cat "$tmp/err")"
  pass "round $round: rerun right after kill -9 replayed"
done
# ------------------------------------------------------------ 7. active swap
# Swap is never written, --force or not (hostile rerun 2, N11: with --force
# the replay ran into the kernel's ETXTBSY, exit 1).
if command -v mkswap >/dev/null && command -v swapon >/dev/null; then
  dd if=/dev/zero of="$tmp/swap.img" bs=1M count=16 status=none
  chmod 600 "$tmp/swap.img"
  mkswap "$tmp/swap.img" >/dev/null
  if swapon "$tmp/swap.img" 2>/dev/null; then
    for force in "" --force; do
      rc=0
      err="$("$ftlsim" replay --no-progress --trace "$tmp/t.ftr" --target "$tmp/swap.img" $force 2>&1 >/dev/null)" || rc=$?
      [ "$rc" -eq 2 ] && grep -q "is an active swap file .*swap is never written, --force or not" <<<"$err" ||
        { swapoff "$tmp/swap.img"; fail "active swap $force: exit $rc: $err"; }
      pass "active swap $force: $err"
    done
    swapoff "$tmp/swap.img"
  else
    echo "note: swapon refused here, the active-swap case is not run"
  fi
fi
pass "all replay refusals"
