#!/usr/bin/env bash
# Runs inside the test VM as /run/test.sh: tools/capture_blktrace.sh --hints
# (the prebuilt hint tracer, HINTTRACE) on the FDP namespace, once on ext4
# and once on F2FS, around /run/hinted_write; prints the capture's output
# and `ftlsim info --json` of each trace for tests/vm/check_vm_capture.py.
# --action Q: the guest's blk tracer shows the NVMe requests as queued (Q),
# split (X) and completed (C) but logs no dispatch (D) for them, so the
# default action would import nothing; Q is also where the hint tracer
# sees each bio (block_bio_queue).
set -u
emit() { echo "@@FILE $1"; cat "$2"; echo "@@END"; }
export HINTTRACE=/usr/local/bin/hinttrace FTLSIM=/usr/local/bin/ftlsim
modprobe ext4; modprobe f2fs
for fs in ext4 f2fs; do
  case "$fs" in
    ext4) mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$FDP_BLK" ;;
    f2fs) mkfs.f2fs -q -f "$FDP_BLK" ;;
  esac
  mount -t "$fs" "$FDP_BLK" /mnt
  t0=$(date +%s.%N)
  tools/capture_blktrace.sh -d "$FDP_BLK" -o "/tmp/$fs.ftr" --hints --action Q -- \
    sh -c "/run/hinted_write /mnt > /tmp/$fs.expected" >"/tmp/$fs.capture" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  umount /mnt
  echo "@@RC capture_$fs $rc $(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}')"
  emit "capture_$fs.out" "/tmp/$fs.capture"
  emit "$fs.expected" "/tmp/$fs.expected"
  ftlsim info --json "/tmp/$fs.ftr" >"/tmp/$fs.info" 2>&1
  emit "$fs.info.json" "/tmp/$fs.info"
done
exit 0
