#!/usr/bin/env bash
# Runs inside the test VM (tools/vm/run_vm.sh) as /run/test.sh: replays the
# shipped geth trace onto QEMU's FDP namespace through the block device and
# through NVMe passthrough, a small trace with an unlisted placement ID and
# a Reclaim Unit Handle Update, and the safety refusals; prints every
# command's output and status and nvme-cli's view of the device between
# markers for the host's checker (tests/vm/check_vm_replay.py). Decides
# nothing itself. FDP_CTRL, FDP_BLK, FDP_NG, CONV_NG come from the guest's
# /init (by controller serial).
set -u
T=traces/geth-ethstate.ftr
PREDICT="--preset femu-eth-512m --gc-thres 60 --placement fdp"

emit() { echo "@@FILE $1"; cat "$2"; echo "@@END"; }
run() {  # NAME COMMAND...: output and exit status
  local name="$1"; shift
  local t0 t1 rc
  t0=$(date +%s.%N)
  "$@" >"/tmp/$name.out" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  echo "@@RC $name $rc $(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}')"
  emit "$name.out" "/tmp/$name.out"
}
snap() {  # NAME: nvme-cli's reading of RUH status, statistics and host events
  nvme fdp status "$FDP_BLK" >"/tmp/$1.status" 2>&1; emit "$1.status" "/tmp/$1.status"
  nvme fdp stats "$FDP_CTRL" -e 1 >"/tmp/$1.stats" 2>&1; emit "$1.stats" "/tmp/$1.stats"
  nvme fdp events "$FDP_CTRL" -e 1 -E >"/tmp/$1.events" 2>&1; emit "$1.events" "/tmp/$1.events"
}

echo "@@ENV FDP_BLK=$FDP_BLK FDP_NG=$FDP_NG CONV_NG=$CONV_NG"
nvme fdp configs "$FDP_CTRL" -e 1 >/tmp/configs 2>&1; emit configs /tmp/configs
run conv_refused ftlsim replay --trace "$T" --target "$CONV_NG" --placement nvme --ops write --no-progress
snap s0
# the block device: no placement (Linux 6.12 sends none), read back
run blk ftlsim replay --trace "$T" --target "$FDP_BLK" --verify --out /tmp/blk --no-progress
emit blk.json /tmp/blk/summary.json
snap s1
# passthrough with placement, the model beside the device
run ng ftlsim replay --trace "$T" --target "$FDP_NG" --placement nvme --out /tmp/ng --no-progress \
  --predict "$PREDICT"
emit ng.json /tmp/ng/summary.json
snap s2
# events on for every handle, then a trace with placement ID 9 (no handle),
# in reclaim group 1 (the geth replay used group 0)
for h in 0 1 2 3 4 5 6 7; do
  nvme fdp set-events "$FDP_BLK" --placement-handle=$h --event-types=0,3 --enable >/dev/null 2>&1
done
run small_refused ftlsim replay --trace /run/small.ftr --target "$FDP_NG" --placement nvme --rg 1 --no-progress
snap s3
run small ftlsim replay --trace /run/small.ftr --target "$FDP_NG" --placement nvme --rg 1 --allow-unlisted-pids \
  --ruh-update-at-end --out /tmp/small --no-progress
emit small.json /tmp/small/summary.json
snap s4
# in use: while a replay holds the block device (exclusive open), the
# passthrough path to the same namespace must be refused too. The holder
# replays at the trace's own pace (minutes), so it still holds the device
# after replay's busy wait (kBusyWait, 2 s), and is stopped with SIGINT
# (exit 1, a partial report) once the refusal has been seen.
ftlsim replay --trace "$T" --target "$FDP_BLK" --ops write --mode timed --no-progress >/tmp/holder.out 2>&1 &
holder=$!
for i in $(seq 50); do
  grep -q "$FDP_BLK" <<<"$(ls -l /proc/$holder/fd 2>/dev/null)" && break
  sleep 0.1
done
run busy_ng ftlsim replay --trace /run/small.ftr --target "$FDP_NG" --placement nvme --allow-unlisted-pids \
  --no-progress
kill -INT $holder
wait $holder
echo "@@RC holder $? 0"
# safety: a file system on the namespace, then mounted, then a partition table
mkfs.ext4 -q -F "$FDP_BLK" >/dev/null 2>&1
snap s5
run sig_blk ftlsim replay --trace "$T" --target "$FDP_BLK" --ops write --no-progress
run sig_ng ftlsim replay --trace "$T" --target "$FDP_NG" --placement nvme --ops write --no-progress
snap s6
modprobe ext4 2>/dev/null
mount -t ext4 "$FDP_BLK" /mnt
run mounted_blk ftlsim replay --trace "$T" --target "$FDP_BLK" --ops write --no-progress
run mounted_ng ftlsim replay --trace "$T" --target "$FDP_NG" --placement nvme --ops write --no-progress
umount /mnt
# a partition table (DOS, one partition) instead of the file system
dd if=/dev/zero of="$FDP_BLK" bs=1M count=1 2>/dev/null
printf 'o\nn\np\n1\n\n\nw\n' | fdisk "$FDP_BLK" >/dev/null 2>&1
blockdev --rereadpt "$FDP_BLK" 2>/dev/null; sleep 0.5
run part_blk ftlsim replay --trace "$T" --target "$FDP_BLK" --ops write --no-progress
run part_ng ftlsim replay --trace "$T" --target "$FDP_NG" --placement nvme --ops write --no-progress
exit 0
