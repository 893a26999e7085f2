#!/usr/bin/env bash
# A write reaches every file system built on what it writes, at any depth,
# and FUSE mirrors of a file are that file (needs root for loop devices,
# mounts, FUSE):
#   D1. a trace on XFS with an external log device, or on ext4 with an
#       external journal: replay onto the log or journal device, or onto
#       its backing file, is refused --force or not; a loop device mounted
#       in another mount namespace (only the kernel's busy exclusive open
#       tells) is refused --force or not; the file systems stay clean;
#   D2. nested images (a trace on a file system whose image lies on a file
#       system whose image lies on the target's): refused --force or not,
#       onto the outer image and onto its loop device;
#   D3. a trace in an image fuse2fs mounts (no loop device): replay onto
#       the image and dump -o the image are refused --force or not, also
#       from another folder (the relative source does not lead there), and
#       with the image on a file system mounted from the target; an image
#       fuse2fs mounts in another mount namespace is refused --force or
#       not (its daemon holds it open);
#   D4. a trace read through a bindfs mirror: replay onto its underlying
#       file (no --force needed before), dump/convert -o the underlying
#       file, a loop device over the mirror's name, the device of a file
#       system a mirror shows: all refused, the trace intact;
#   D5. dump, convert and gen -o the image of a mounted file system (held
#       by a loop device) that holds their input: refused --force or not;
#   L2. a replay onto a file through a bindfs name (or --create there),
#       while another replay writes the file by its own name: refused.
#
# usage: test_replay_fs_stack.sh FTLSIM_BINARY [ITEM...]
# ITEM: D1 D2 D3 D4 D5 L2 (default all), each a ctest test of its own.
# Exit 77 (ctest SKIP_RETURN_CODE) when it cannot run here: not root, no
# loop devices, no mkfs.ext4, or the item's tool (mkfs.xfs, unshare,
# fuse2fs, bindfs) missing.
set -euo pipefail

. "$(dirname "$0")/../common/scratch_loop.sh"

bin="$1"
shift
items="${*:-D1 D2 D3 D4 D5 L2 H4}"
want() { [[ " $items " == *" $1 "* ]]; }
scratch_need_loops "$bin" mkfs.ext4 e2fsck mount umount

scratch_setup replay-fs-stack
mounts=()
bg=""
hidden_daemon=""
stopped=""
cleanup_all() {
  set +e
  [ -n "$bg" ] && kill "$bg" 2>/dev/null && wait "$bg" 2>/dev/null
  [ -n "$hidden_daemon" ] && kill "$hidden_daemon" 2>/dev/null
  [ -n "$stopped" ] && kill -CONT "$stopped" 2>/dev/null
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    mountpoint -q "${mounts[i]}" && { umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}"; }
  done
  scratch_cleanup
}
trap cleanup_all EXIT

# mount_at DIR ARGS...: mount ARGS on DIR (made), unmounted on exit.
mount_at() {
  local dir="$1"; shift
  mkdir -p "$dir"
  mount "$@" "$dir" || skip "cannot mount $* on $dir"
  mounts+=("$dir")
}
unmount() {
  umount "$1" || fail "cannot unmount $1"
  local i
  for i in "${!mounts[@]}"; do [ "${mounts[i]}" = "$1" ] && unset 'mounts[i]'; done
  mounts=("${mounts[@]}")
}
need() { command -v "$1" >/dev/null || skip "needs $1"; }
# wait_closed FILE: until no process holds FILE open (a FUSE daemon exits
# a moment after its file system is unmounted), at most 10 s.
held_open() {
  local fd
  for fd in /proc/[0-9]*/fd/*; do [ "$(readlink "$fd" 2>/dev/null)" = "$1" ] && return 0; done
  return 1
}
wait_closed() {
  local _
  for _ in $(seq 200); do held_open "$1" || return 0; sleep 0.05; done
  fail "$1 is still open after 10 s"
}
F() { "$ftlsim" "$@"; }
replay() { "$ftlsim" replay --no-progress --wrap "$@"; }

F gen --pattern uniform --logical 8M --writes 2000 -o "$tmp/t.ftr" >/dev/null
intact() { cmp -s "$tmp/t.ftr" "$1" || fail "$2: the trace $1 changed"; }
clean_ext4() { e2fsck -fn "$1" >/dev/null 2>&1 || fail "$2: e2fsck -fn $1 finds the file system damaged"; }

# ------------------------------------------------------------ D1
if want D1; then
# XFS with its log on another device.
if command -v mkfs.xfs >/dev/null; then
  truncate -s 320M "$tmp/data.img"
  truncate -s 64M "$tmp/log.img"
  attach l_data "$tmp/data.img"
  attach l_log "$tmp/log.img"
  mkfs.xfs -q -f -l "logdev=$l_log,size=64m" "$l_data" || skip "mkfs.xfs with an external log failed"
  mount_at "$tmp/xm" -o "logdev=$l_log" "$l_data"
  cp "$tmp/t.ftr" "$tmp/xm/t.ftr"
  sync
  for force in "" --force; do
    expect_refusal "D1 xfs log device $force" \
      "the input --trace $tmp/xm/t.ftr is on a file system of $l_data \(the xfs file system mounted at $tmp/xm, built on its log device $l_log" \
      replay --trace "$tmp/xm/t.ftr" --target "$l_log" $force
    expect_refusal "D1 xfs log device's file $force" "the input --trace $tmp/xm/t.ftr is on a file system of $l_data" \
      replay --trace "$tmp/xm/t.ftr" --target "$tmp/log.img" $force
  done
  # No input on it: the file system using it counts as mounted.
  expect_refusal "D1 xfs log device, trace elsewhere" "$l_data \(the xfs file system mounted at $tmp/xm.*\) is mounted at $tmp/xm" \
    replay --trace "$tmp/t.ftr" --target "$l_log"
  intact "$tmp/xm/t.ftr" "D1 xfs"
  unmount "$tmp/xm"
  mount_at "$tmp/xm" -o "logdev=$l_log" "$l_data"  # fails when the log was written
  intact "$tmp/xm/t.ftr" "D1 xfs remounted"
  unmount "$tmp/xm"
  pass "D1 xfs log intact"
else
  echo "note: no mkfs.xfs, the XFS log case is not run"
fi
# ext4 with an external journal.
truncate -s 64M "$tmp/e4.img"
truncate -s 16M "$tmp/jnl.img"
attach l_e4 "$tmp/e4.img"
attach l_jnl "$tmp/jnl.img"
mkfs.ext4 -q -b 4096 -O journal_dev "$l_jnl" || skip "mkfs.ext4 -O journal_dev failed"
mkfs.ext4 -q -b 4096 -J "device=$l_jnl" "$l_e4" || skip "mkfs.ext4 -J device= failed"
mount_at "$tmp/em" "$l_e4"
cp "$tmp/t.ftr" "$tmp/em/t.ftr"
sync
for force in "" --force; do
  expect_refusal "D1 ext4 journal device $force" \
    "the input --trace $tmp/em/t.ftr is on a file system of $l_e4 \(the ext4 file system mounted at $tmp/em, built on its external journal $l_jnl" \
    replay --trace "$tmp/em/t.ftr" --target "$l_jnl" $force
  expect_refusal "D1 ext4 journal's file $force" "the input --trace $tmp/em/t.ftr is on a file system of $l_e4" \
    replay --trace "$tmp/em/t.ftr" --target "$tmp/jnl.img" $force
done
intact "$tmp/em/t.ftr" "D1 ext4"
unmount "$tmp/em"
clean_ext4 "$l_e4" "D1 ext4 with external journal"
pass "D1 ext4 journal intact"
# A loop device mounted in another mount namespace: only the kernel knows.
if command -v unshare >/dev/null; then
  truncate -s 64M "$tmp/ns.img"
  attach l_ns "$tmp/ns.img"
  mkfs.ext4 -q "$l_ns"
  mkdir -p "$tmp/nsm"
  unshare -m --propagation private sh -c "mount '$l_ns' '$tmp/nsm' && echo >'$tmp/ns.up' && exec sleep 120" &
  bg=$!
  for _ in $(seq 100); do [ -e "$tmp/ns.up" ] && break; sleep 0.05; done
  [ -e "$tmp/ns.up" ] || skip "cannot mount in another mount namespace"
  mountpoint -q "$tmp/nsm" && fail "D1: the other namespace's mount shows here"
  for target in "$l_ns" "$tmp/ns.img"; do
    expect_refusal "D1 mounted in another namespace, $target --force" "$l_ns .*is busy: the kernel refuses an exclusive open" \
      replay --trace "$tmp/t.ftr" --target "$target" --force
  done
  kill "$bg"
  wait "$bg" 2>/dev/null || true
  bg=""
  for _ in $(seq 100); do python3 -c "import os,sys; os.close(os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL))" "$l_ns" \
    2>/dev/null && break; sleep 0.05; done
  clean_ext4 "$l_ns" "D1 another namespace"
  pass "D1 another namespace's file system clean"
else
  echo "note: no unshare, the mount-namespace case is not run"
fi
pass "D1"
fi

# ------------------------------------------------------------ D2
if want D2; then
truncate -s 96M "$tmp/outer.img"
attach l_outer "$tmp/outer.img"
mkfs.ext4 -q "$l_outer"
mount_at "$tmp/m1" "$l_outer"
truncate -s 40M "$tmp/m1/middle.img"
attach l_middle "$tmp/m1/middle.img"
mkfs.ext4 -q "$l_middle"
mount_at "$tmp/m2" "$l_middle"
truncate -s 16M "$tmp/m2/inner.img"
attach l_inner "$tmp/m2/inner.img"
mkfs.ext4 -q "$l_inner"
mount_at "$tmp/m3" "$l_inner"
cp "$tmp/t.ftr" "$tmp/m3/t.ftr"
sync
for target in "$tmp/outer.img" "$l_outer" "$tmp/m1/middle.img" "$l_middle"; do
  for force in "" --force; do
    expect_refusal "D2 nested, $target $force" \
      "the input --trace $tmp/m3/t.ftr is on a file system of $l_inner \(a loop device over $tmp/m2/inner.img, a file on a file system of" \
      replay --trace "$tmp/m3/t.ftr" --target "$target" $force
  done
done
intact "$tmp/m3/t.ftr" "D2"
unmount "$tmp/m3"
clean_ext4 "$l_inner" "D2 inner"
detach "$l_inner"
unmount "$tmp/m2"
clean_ext4 "$l_middle" "D2 middle"
detach "$l_middle"
unmount "$tmp/m1"
clean_ext4 "$l_outer" "D2 outer"
pass "D2"
fi

# ------------------------------------------------------------ D3
if want D3; then
need fuse2fs
truncate -s 64M "$tmp/f.img"
mkfs.ext4 -q -F "$tmp/f.img"
mkdir -p "$tmp/fm"
# As a user would: from the image's folder, by a relative name.
(cd "$tmp" && fuse2fs f.img fm -o rw >/dev/null 2>&1) || skip "fuse2fs cannot mount"
mounts+=("$tmp/fm")
cp "$tmp/t.ftr" "$tmp/fm/t.ftr"
sync
for force in "" --force; do
  expect_refusal "D3 fuse2fs image $force" \
    "the input --trace fm/t.ftr is on a file system of 0:[0-9]+ \(the fuse[.a-z0-9]* file system mounted at $tmp/fm, built on" \
    bash -c "cd '$tmp' && '$ftlsim' replay --no-progress --wrap --trace fm/t.ftr --target f.img $force"
  expect_refusal "D3 dump -o the fuse2fs image $force" "f.img is in use as storage: 0:[0-9]+ \(the fuse[.a-z0-9]* file system mounted at" \
    bash -c "cd '$tmp' && '$ftlsim' dump fm/t.ftr -o f.img $force"
done
# From another folder the relative source leads nowhere; the FUSE daemon,
# which holds the image open, tells (fdinfo of /dev/fuse, Linux 6.x).
daemon_fds=$(for p in $(pgrep -x fuse2fs); do grep -l fuse_connection /proc/"$p"/fdinfo/* 2>/dev/null || true; done)
daemon_fds="${daemon_fds%%$'\n'*}"
if [ -n "$daemon_fds" ]; then
  expect_refusal "D3 fuse2fs image from another folder" "is on a file system of 0:[0-9]+ \(the fuse[.a-z0-9]* file system mounted at $tmp/fm, built on $tmp/f.img, which its FUSE daemon" \
    bash -c "cd / && '$ftlsim' replay --no-progress --wrap --trace '$tmp/fm/t.ftr' --target '$tmp/f.img' --force"
else
  echo "note: no fuse_connection in fdinfo here, the other-folder and other-namespace cases are not run"
fi
intact "$tmp/fm/t.ftr" "D3"
unmount "$tmp/fm"
wait_closed "$tmp/f.img"
e2fsck -fn "$tmp/f.img" >/dev/null 2>&1 || fail "D3: e2fsck -fn finds the image damaged"
# The image stored on a file system mounted from the target.
truncate -s 96M "$tmp/fo.img"
attach l_fo "$tmp/fo.img"
mkfs.ext4 -q "$l_fo"
mount_at "$tmp/fom" "$l_fo"
mv "$tmp/f.img" "$tmp/fom/f.img"
(cd "$tmp" && fuse2fs fom/f.img fm -o rw >/dev/null 2>&1) || skip "fuse2fs cannot mount"
mounts+=("$tmp/fm")
for target in "$l_fo" "$tmp/fo.img"; do
  expect_refusal "D3 fuse2fs image on the target's file system, $target --force" \
    "is on a file system of 0:[0-9]+ \(the fuse[.a-z0-9]* file system mounted at $tmp/fm, built on" \
    bash -c "cd '$tmp' && '$ftlsim' replay --no-progress --wrap --trace fm/t.ftr --target '$target' --force"
done
intact "$tmp/fm/t.ftr" "D3 nested"
unmount "$tmp/fm"
wait_closed "$tmp/fom/f.img"
unmount "$tmp/fom"
clean_ext4 "$l_fo" "D3 the image's file system"
# An image fuse2fs mounts in another mount namespace: only its daemon, which
# holds it open, tells.
if [ -n "$daemon_fds" ] && command -v unshare >/dev/null; then
  truncate -s 64M "$tmp/h.img"
  mkfs.ext4 -q -F "$tmp/h.img"
  mkdir -p "$tmp/hm"
  unshare -m --propagation private sh -c "fuse2fs '$tmp/h.img' '$tmp/hm' -o rw >/dev/null 2>&1" ||
    skip "fuse2fs cannot mount in another mount namespace"
  hidden_daemon="$(pgrep -f -x "fuse2fs $tmp/h.img $tmp/hm -o rw")" || skip "cannot find the fuse2fs daemon"
  mountpoint -q "$tmp/hm" && fail "D3: the other namespace's mount shows here"
  expect_refusal "D3 fuse2fs image mounted in another namespace --force" \
    "$tmp/h.img is held open by the FUSE daemon pid $hidden_daemon \(fuse2fs\), whose file system is not mounted here" \
    replay --trace "$tmp/t.ftr" --target "$tmp/h.img" --force
  expect_refusal "D3 dump -o the image mounted in another namespace --force" "-o $tmp/h.img is in use as storage" \
    F dump "$tmp/t.ftr" -o "$tmp/h.img" --force
  kill "$hidden_daemon"
  hidden_daemon=""
  wait_closed "$tmp/h.img"
  e2fsck -fn "$tmp/h.img" >/dev/null 2>&1 || fail "D3: e2fsck -fn finds the other namespace's image damaged"
fi
pass "D3"
fi

# ------------------------------------------------------------ D4
if want D4; then
need bindfs
mkdir -p "$tmp/src"
cp "$tmp/t.ftr" "$tmp/src/t.ftr"
F dump "$tmp/t.ftr" -o "$tmp/src/t.csv"
cp "$tmp/src/t.csv" "$tmp/t.csv"
mkdir -p "$tmp/bm"
bindfs "$tmp/src" "$tmp/bm" || skip "bindfs cannot mount"
mounts+=("$tmp/bm")
for force in "" --force; do
  # bindfs holds the file it shows open while the replay reads it there.
  expect_refusal "D4 replay onto the mirrored file $force" \
    "the input --trace $tmp/bm/t.ftr is on a file system of 0:[0-9]+ \(the fuse file system mounted at $tmp/bm, built on $tmp/src/t.ftr, which its FUSE daemon" \
    replay --trace "$tmp/bm/t.ftr" --target "$tmp/src/t.ftr" $force
  intact "$tmp/src/t.ftr" "D4 replay $force"
  # Where the daemon cannot be seen (another PID namespace: sshfs or NFS
  # show no such file at all), the file looks the same as the input.
  if command -v unshare >/dev/null; then
    expect_refusal "D4 replay onto the mirrored file, daemon not seen $force" \
      "$tmp/src/t.ftr looks the same as the input --trace $tmp/bm/t.ftr on a fuse file system" \
      unshare --pid --fork --mount-proc "$ftlsim" replay --no-progress --wrap --trace "$tmp/bm/t.ftr" \
      --target "$tmp/src/t.ftr" $force
    intact "$tmp/src/t.ftr" "D4 replay, daemon not seen $force"
  fi
  expect_refusal "D4 replay onto the mirror's name $force" "$tmp/bm/t.ftr is on a fuse file system, whose storage ftlsim can neither see nor lock" \
    replay --trace "$tmp/src/t.ftr" --target "$tmp/bm/t.ftr" $force
done
expect_refusal "D4 dump -o the mirrored file" "-o $tmp/src/t.ftr is in use as storage: 0:[0-9]+ \(the fuse file system mounted at $tmp/bm" \
  F dump "$tmp/bm/t.ftr" -o "$tmp/src/t.ftr" --force
if command -v unshare >/dev/null; then
  expect_refusal "D4 dump -o the mirrored file, daemon not seen" "-o $tmp/src/t.ftr looks the same as the input (--)?trace $tmp/bm/t.ftr" \
    unshare --pid --fork --mount-proc "$ftlsim" dump "$tmp/bm/t.ftr" -o "$tmp/src/t.ftr" --force
fi
expect_refusal "D4 dump -o the mirror's name" "-o $tmp/bm/t.ftr looks the same as the input (--)?trace $tmp/src/t.ftr" \
  F dump "$tmp/src/t.ftr" -o "$tmp/bm/t.ftr" --force
expect_refusal "D4 convert -o the mirrored file" "-o $tmp/src/t.csv (looks the same as the input $tmp/bm/t.csv|is in use as storage)" \
  F convert "$tmp/bm/t.csv" --from csv --columns time=time,lba=lba,length=length,op=op -o "$tmp/src/t.csv" --force
intact "$tmp/src/t.ftr" "D4 dump"
cmp -s "$tmp/t.csv" "$tmp/src/t.csv" || fail "D4 convert: the input changed"
# A loop device over the mirror's name of the trace.
attach l_fuse "$tmp/bm/t.ftr"
for force in "" --force; do
  expect_refusal "D4 loop device over the mirror $force" "its data is stored in $tmp/bm/t.ftr, which is on a fuse file system" \
    replay --trace "$tmp/src/t.ftr" --target "$l_fuse" $force
done
detach "$l_fuse"
intact "$tmp/src/t.ftr" "D4 loop"
# A mirror of a mounted file system: writing that file system's device.
truncate -s 64M "$tmp/b.img"
attach l_b "$tmp/b.img"
mkfs.ext4 -q "$l_b"
mount_at "$tmp/bmnt" "$l_b"
cp "$tmp/t.ftr" "$tmp/bmnt/t.ftr"
mkdir -p "$tmp/bm2"
bindfs "$tmp/bmnt" "$tmp/bm2" || skip "bindfs cannot mount"
mounts+=("$tmp/bm2")
expect_refusal "D4 mirror of the target's file system --force" "the input --trace $tmp/bm2/t.ftr is on a file system of 0:[0-9]+ \(the fuse file system mounted at $tmp/bm2, built on its source $tmp/bmnt" \
  replay --trace "$tmp/bm2/t.ftr" --target "$l_b" --force
unmount "$tmp/bm2"
unmount "$tmp/bmnt"
clean_ext4 "$l_b" "D4 mirrored file system"
pass "D4"
fi

# ------------------------------------------------------------ D5
if want D5; then
truncate -s 64M "$tmp/d5.img"
attach l_d5 "$tmp/d5.img"
mkfs.ext4 -q "$l_d5"
mount_at "$tmp/m5" "$l_d5"
F gen --pattern seq --logical 1M --writes 10 -o "$tmp/m5/t2.ftr" >/dev/null
F dump "$tmp/m5/t2.ftr" -o "$tmp/m5/in.csv"
cp "$tmp/m5/t2.ftr" "$tmp/t2.copy"
for force in "" --force; do
  expect_refusal "D5 dump -o the image $force" "-o $tmp/d5.img is in use as storage: $l_d5 \(a loop device over $tmp/d5.img\)" \
    F dump "$tmp/m5/t2.ftr" -o "$tmp/d5.img" $force
  expect_refusal "D5 convert -o the image $force" "-o $tmp/d5.img is in use as storage" \
    F convert "$tmp/m5/in.csv" --from csv --columns time=time,lba=lba,length=length,op=op -o "$tmp/d5.img" $force
  expect_refusal "D5 gen -o the image $force" "-o $tmp/d5.img is in use as storage" \
    F gen --pattern seq --logical 1M --writes 10 -o "$tmp/d5.img" $force
done
back="$(losetup -nO BACK-FILE "$l_d5")"
[[ "$back" == *"(deleted)"* ]] && fail "D5: the image was replaced ($back)"
cmp -s "$tmp/t2.copy" "$tmp/m5/t2.ftr" || fail "D5: the input changed"
unmount "$tmp/m5"
clean_ext4 "$l_d5" "D5"
pass "D5"
fi

# ------------------------------------------------------------ L2
if want L2; then
need bindfs
F gen --pattern uniform --logical 64M --writes 400000 -o "$tmp/b.ftr" >/dev/null
mkdir -p "$tmp/lsrc" "$tmp/lm"
truncate -s 128M "$tmp/lsrc/x.img"
bindfs "$tmp/lsrc" "$tmp/lm" || skip "bindfs cannot mount"
mounts+=("$tmp/lm")
"$ftlsim" replay --trace "$tmp/b.ftr" --wrap --mode timed --speed 0.01 --target "$tmp/lsrc/x.img" --no-progress \
  >/dev/null 2>&1 &
bg=$!
sleep 2  # past its checks, writing
kill -0 "$bg" 2>/dev/null || fail "L2: the first replay onto $tmp/lsrc/x.img did not keep running"
for force in "" --force; do
  expect_refusal "L2 the same file through bindfs $force" "$tmp/lm/x.img is on a fuse file system, whose storage ftlsim can neither see nor lock" \
    replay --trace "$tmp/t.ftr" --target "$tmp/lm/x.img" $force
done
expect_refusal "L2 --create through bindfs" "its folder $tmp/lm is on a fuse file system" \
  replay --trace "$tmp/t.ftr" --target "$tmp/lm/new.img" --create 8M
[ -e "$tmp/lsrc/new.img" ] && fail "L2: --create made $tmp/lsrc/new.img"
kill "$bg" 2>/dev/null
wait "$bg" 2>/dev/null || true
bg=""
pass "L2"
fi

# ------------------------------------------------------------ H4
# A FUSE mirror whose source is a stopped FUSE mount, nothing to do with the
# run (hostile rerun 2, N6): the checks used to wait on it for ever; now a
# refusal naming it, exit 2, within the stat bound (core/bounded_stat.h).
if want H4; then
need bindfs
mkdir -p "$tmp/hsrc" "$tmp/hm" "$tmp/hm2"
bindfs "$tmp/hsrc" "$tmp/hm" || skip "bindfs cannot mount"
mounts+=("$tmp/hm")
bindfs "$tmp/hm" "$tmp/hm2" || skip "bindfs cannot mount"
mounts+=("$tmp/hm2")
stopped="$(pgrep -f -x "bindfs $tmp/hsrc $tmp/hm")" || skip "cannot find the bindfs daemon"
kill -STOP "$stopped"
sleep 2  # past the attribute cache (1 s) of what the mirror above looked up
truncate -s 8M "$tmp/ex.img"
for cmd in "replay --trace $tmp/t.ftr --target $tmp/ex.img" "F gen --pattern uniform --logical 8M --writes 10 -o $tmp/ex.img --force"; do
  rc=0
  err="$(timeout 30 bash -c "$(declare -f F replay); ftlsim=$ftlsim; $cmd" 2>&1 >/dev/null)" || rc=$?
  [ "$rc" -eq 2 ] || { kill -CONT "$stopped"; fail "H4 $cmd: exit $rc (124: hung), want 2: $err"; }
  grep -q "does not answer" <<<"$err" || { kill -CONT "$stopped"; fail "H4 $cmd: $err"; }
  pass "H4 $cmd: $err"
done
kill -CONT "$stopped"
pass "H4"
fi

pass "all of: $items"
