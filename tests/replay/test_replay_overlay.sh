#!/usr/bin/env bash
# An input read through overlayfs is also every layer file that holds it,
# and two replays onto one storage refuse each other whatever names they
# write through (needs root for overlay mounts and loop devices):
#   D1. replay --target the lower layer's copy of the trace (no --force
#       needed to get through before) is refused, the trace stays intact;
#       so is the upper layer's file, and a target named through the
#       overlay whose layer file is the trace;
#   D2. the same through a loop device over the lower layer's file;
#   D3. with --force: a trace read through an overlay whose layers are on a
#       file system mounted from the target is refused, the file system
#       stays clean;
#   D4. dump and convert -o the lower layer's file, --force or not, are
#       refused; an overlay whose layers cannot be found (relative layer
#       paths not leading here) refuses outputs;
#   L1. two replays onto one file through two loop devices (offsets 0 and
#       4096), a file and a loop device over it, and the other way round,
#       --force or not: the second is refused while the first runs.
#
# usage: test_replay_overlay.sh FTLSIM_BINARY [ITEM...]
# ITEM: D1 D2 D3 D4 L1 (default all), each a ctest test of its own.
# Exit 77 (ctest SKIP_RETURN_CODE) when it cannot run here: not root, no
# loop devices, no overlayfs, no mkfs.ext4.
set -euo pipefail

. "$(dirname "$0")/../common/scratch_loop.sh"

bin="$1"
shift
items="${*:-D1 D2 D3 D4 L1}"
want() { [[ " $items " == *" $1 "* ]]; }
scratch_need_loops "$bin" mkfs.ext4 e2fsck mount umount

scratch_setup replay-overlay
mounts=()
cleanup_all() {
  set +e
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount "${mounts[i]}" 2>/dev/null; done
  [ -n "${bg:-}" ] && kill "$bg" 2>/dev/null && wait "$bg" 2>/dev/null
  scratch_cleanup
}
trap cleanup_all EXIT

# overlay_mount DIR: an overlay of DIR/{lower,upper,work} at DIR/merged
# (absolute layer paths).
overlay_mount() {
  mkdir -p "$1"/{lower,upper,work,merged}
  mount -t overlay overlay -o "lowerdir=$1/lower,upperdir=$1/upper,workdir=$1/work" "$1/merged" ||
    skip "cannot mount overlayfs"
  mounts+=("$1/merged")
}

"$ftlsim" gen --pattern uniform --logical 8M --writes 2000 -o "$tmp/t.ftr" >/dev/null
ov="$tmp/ov"
overlay_mount "$ov"
cp "$tmp/t.ftr" "$ov/lower/t.ftr"
intact() { cmp -s "$tmp/t.ftr" "$ov/lower/t.ftr" || fail "$1: the trace in the lower layer changed"; }

# ------------------------------------------------------------ D1
if want D1; then
for force in "" --force; do
  expect_refusal "D1 target the lower layer's file $force" "stored as $ov/lower/t.ftr in its overlay" \
    "$ftlsim" replay --trace "$ov/merged/t.ftr" --target "$ov/lower/t.ftr" --wrap --no-progress $force
  intact D1
done
# A trace in the upper layer: that file is the one read.
ov2="$tmp/ov2"
mkdir -p "$ov2/upper"
cp "$tmp/t.ftr" "$ov2/upper/t.ftr"
overlay_mount "$ov2"
expect_refusal "D1 target the upper layer's file" "stored as $ov2/upper/t.ftr in its overlay" \
  "$ftlsim" replay --trace "$ov2/merged/t.ftr" --target "$ov2/upper/t.ftr" --wrap --no-progress --force
# The other way round: the trace by its layer file, the target through the overlay.
expect_refusal "D1 target the overlay's name of the upper file" "stored as $ov2/upper/t.ftr in its overlay\) is the input --trace" \
  "$ftlsim" replay --trace "$ov2/upper/t.ftr" --target "$ov2/merged/t.ftr" --wrap --no-progress --force
cmp -s "$tmp/t.ftr" "$ov2/upper/t.ftr" || fail "D1: the trace in the upper layer changed"
pass "D1"
fi

# ------------------------------------------------------------ D2
if want D2; then
attach l_lower "$ov/lower/t.ftr"
for force in "" --force; do
  expect_refusal "D2 loop over the lower layer's file $force" "stored in the input --trace $ov/merged/t.ftr" \
    "$ftlsim" replay --trace "$ov/merged/t.ftr" --target "$l_lower" --wrap --no-progress $force
  intact D2
done
losetup -d "$l_lower"
scratch_loops=()
fi

# ------------------------------------------------------------ D4
if want D4; then
"$ftlsim" dump "$tmp/t.ftr" -o "$tmp/t.csv"
cp "$tmp/t.csv" "$ov/lower/t.csv"
csv_columns=time=time,lba=lba,length=length,op=op
for force in "" --force; do
  expect_refusal "D4 dump -o the lower layer's file $force" "an output never replaces an input" \
    "$ftlsim" dump "$ov/merged/t.ftr" -o "$ov/lower/t.ftr" $force
  intact "D4 dump"
  expect_refusal "D4 convert -o the lower layer's file $force" "an output never replaces an input" \
    "$ftlsim" convert "$ov/merged/t.csv" --from csv --columns "$csv_columns" -o "$ov/lower/t.csv" $force
  cmp -s "$tmp/t.csv" "$ov/lower/t.csv" || fail "D4 convert: the input in the lower layer changed"
done
# Relative layer paths that do not lead to the layers from here: refused.
mkdir -p "$tmp/rel"
(cd "$tmp" && mkdir -p rel/{lower,upper,work,merged} && cp t.ftr rel/lower/ &&
  mount -t overlay overlay -o lowerdir=rel/lower,upperdir=rel/upper,workdir=rel/work rel/merged) ||
  skip "cannot mount overlayfs with relative layers"
mounts+=("$tmp/rel/merged")
expect_refusal "D4 relative layers, run elsewhere" "on an overlay whose layers cannot be found" \
  "$ftlsim" dump "$tmp/rel/merged/t.ftr" -o "$tmp/out.txt"
# ... and accepted when they lead there (the inode the overlay shows).
(cd "$tmp" && "$ftlsim" dump rel/merged/t.ftr -o out.txt) || fail "D4: dump from the mount's folder refused"
expect_refusal "D4 relative layers from the mount's folder" "stored as rel/lower/t.ftr in its overlay" \
  bash -c "cd '$tmp' && '$ftlsim' dump rel/merged/t.ftr -o rel/lower/t.ftr --force"
cmp -s "$tmp/t.ftr" "$tmp/rel/lower/t.ftr" || fail "D4: the relative lower layer's trace changed"
pass "D4"
fi

# ------------------------------------------------------------ D3
if want D3; then
truncate -s 64M "$tmp/fs.img"
attach l_fs "$tmp/fs.img"
mkfs.ext4 -q "$l_fs"
om="$tmp/om"
mkdir -p "$om"
mount "$l_fs" "$om" || skip "cannot mount ext4"
mounts+=("$om")
mkdir -p "$om"/{lower,upper,work}
cp "$tmp/t.ftr" "$om/lower/t.ftr"
ovm="$tmp/ovm"
mkdir -p "$ovm"
mount -t overlay overlay -o "lowerdir=$om/lower,upperdir=$om/upper,workdir=$om/work" "$ovm" ||
  skip "cannot mount overlayfs on ext4"
mounts+=("$ovm")
expect_refusal "D3 trace through an overlay on the target's file system" \
  "the input --trace $ovm/t.ftr \(stored as $om/lower/t.ftr in its overlay\) is on a file system of /dev/" \
  "$ftlsim" replay --trace "$ovm/t.ftr" --target "$l_fs" --wrap --no-progress --force
umount "$ovm" && unset 'mounts[-1]'
umount "$om" && unset 'mounts[-1]'
e2fsck -fn "$l_fs" >/dev/null 2>&1 || fail "D3: e2fsck found the file system damaged"
pass "D3 file system clean"
losetup -d "$l_fs"
scratch_loops=()
fi

# ------------------------------------------------------------ L1
if want L1; then
"$ftlsim" gen --pattern uniform --logical 64M --writes 400000 -o "$tmp/b.ftr" >/dev/null
truncate -s 512M "$tmp/tgt.img"
attach l0 "$tmp/tgt.img"
attach l4k "$tmp/tgt.img" --offset 4096
# first SECOND...: the first replay runs (timed, slow) onto FIRST, the
# second onto SECOND must be refused meanwhile.
two_writers() {
  local name="$1" first="$2" second="$3" force="$4"
  "$ftlsim" replay --trace "$tmp/b.ftr" --wrap --mode timed --speed 0.01 --target "$first" --no-progress $force \
    >/dev/null 2>&1 &
  bg=$!
  sleep 2  # past its checks, writing
  kill -0 "$bg" 2>/dev/null || fail "$name: the first replay onto $first did not keep running"
  expect_refusal "$name" "another program holds a lock on" \
    "$ftlsim" replay --trace "$tmp/t.ftr" --wrap --target "$second" --no-progress $force
  kill "$bg" 2>/dev/null
  wait "$bg" 2>/dev/null || true
  bg=""
}
two_writers "L1 loop then loop at 4096" "$l0" "$l4k" ""
two_writers "L1 loop then loop at 4096, --force" "$l0" "$l4k" --force
two_writers "L1 file then loop, --force" "$tmp/tgt.img" "$l0" --force
two_writers "L1 loop then file, --force" "$l4k" "$tmp/tgt.img" --force
fi

pass "all of: $items"
