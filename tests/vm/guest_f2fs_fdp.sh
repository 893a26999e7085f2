#!/usr/bin/env bash
# Runs inside the test VM as /run/test.sh (ctest vm_f2fs_fdp): the FDP-aware
# F2FS (tools/f2fs_fdp) on the FDP namespace, once per sub-log count
# (fdp_log_n=8 and 1). Under the hint tracer (every write bio's
# bi_write_hint): /run/fdp_files writes 8 files into each of p3/ and p5/,
# deletes half, runs F2FS's foreground cleaning, then 40 checkpoints that
# change only ID 0's logs; then prints the files'
# block addresses (FIEMAP before and after cleaning, each inode's node block
# from dump.f2fs), the open logs (/sys/fs/f2fs/DEV/fdp_logs) and the trace
# into /tmp/out/n<N>/, written as a tar archive onto the conventional
# namespace ($CONV_BLK) for tests/vm/check_vm_f2fs_fdp.py (the serial console
# is too slow for the trace).
set -u
modprobe f2fs || exit 1
echo "module: taint $(cat /sys/module/f2fs/taint 2>/dev/null), $(modinfo -F filename f2fs)"
dev="${FDP_BLK##*/}"
for n in 8 1; do
  out="/tmp/out/n$n"
  echo "fdp_log_n=$n"
  mkdir -p "$out"
  # -o 20: the 42 extra open logs of N=8 need reserved segments within the
  # over-provisioned space (the module refuses the mount otherwise)
  mkfs.f2fs -q -f -o 20 "$FDP_BLK" || exit 1
  mount -t f2fs -o "fdp_log_n=$n" "$FDP_BLK" /mnt || { dmesg | tail -5; exit 1; }
  findmnt -no OPTIONS /mnt >"$out/options"
  hinttrace -d "$FDP_BLK" -o "$out/hints.csv" -r "$out/ready" 2>"$out/hinttrace.err" &
  ht=$!
  for _ in $(seq 100); do [ -e "$out/ready" ] && break; sleep 0.1; done
  {
    /run/fdp_files write /mnt 3 5
    files=$(ls /mnt/p3/f* /mnt/p5/f*)
    # shellcheck disable=SC2086
    /run/fdp_files extents $files | sed 's/^ext /before /'
    /run/fdp_files delete-odd /mnt 3 5
    /run/fdp_files gc /mnt 64
    files=$(ls /mnt/p3/f* /mnt/p5/f*)
    # shellcheck disable=SC2086
    /run/fdp_files extents $files | sed 's/^ext /after /'
    /run/fdp_files checkpoints /mnt 40
  } >"$out/files" 2>&1
  cp "/sys/fs/f2fs/$dev/fdp_logs" "$out/fdp_logs"
  sync
  umount /mnt
  sleep 0.5
  kill -INT "$ht"; wait "$ht"
  /run/fdp_files sb "$FDP_BLK" >>"$out/files"
  # each surviving file's inode block: dump.f2fs prints its NAT entry
  for ino in $(awk '$1 == "file" {print $4}' "$out/files"); do
    # (it asks whether to copy the file out: answer no)
    blk=$(printf 'n\n' | timeout 60 dump.f2fs -d 1 -i "$ino" "$FDP_BLK" 2>/dev/null | sed -n 's/.*nat_entry.block_addr *\[\(0x[0-9a-f]*\)\].*/\1/p')
    blk="${blk%%$'\n'*}"
    echo "inode_blk $ino ${blk:-none}" >>"$out/files"
  done
  echo "fdp_log_n=$n: $(grep -c . "$out/hints.csv") write bios traced"
done
(cd /tmp/out && tar -cf "$CONV_BLK" .) || { echo "writing the outputs to $CONV_BLK failed"; exit 1; }
exit 0
