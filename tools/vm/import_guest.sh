#!/usr/bin/env bash
# Runs inside the test VM as /run/test.sh (tools/vm/run_import_capture_vm.sh
# passes it to run_vm.sh): tools/geth_patch/run_import_capture.sh on a loop
# device in the guest, with the geth binary, the chain files and
# /run/import.conf the host put in /run. The outputs (OUT.ftr and its side
# files) go as a tar archive onto the conventional namespace ($CONV_BLK),
# which the host reads back; the capture's messages go to the console.
set -u
. /run/import.conf # GETH=, FS=, IMPORT_FILES=, NAME=, ARGS=( )
modprobe loop 2>/dev/null
modprobe "$FS" 2>/dev/null
export HOME=/root HINTTRACE=/usr/local/bin/hinttrace FTLSIM=/usr/local/bin/ftlsim
mkdir -p /run/chain /tmp/out /tmp/work
mv /run/genesis.json /run/chaingen.json /run/blocks-*.rlp /run/chain/
echo "guest: $(nproc) CPUs, $(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo) MiB, kernel $(uname -r)"
t0=$(date +%s)
# progress on the console (which the host can follow in run_vm.sh's --log):
# the last block marker geth wrote and the file system's fill, every minute
# (df's "avail" is what is left for files: on F2FS, "used" also counts the
# over-provisioned segments)
(while sleep 60; do
   fill=$(df -Pk /tmp/work/run.*/mnt 2>/dev/null | awk 'NR == 2 {printf "fs used %d MiB, avail %d MiB", $3 / 1024, $4 / 1024}')
   echo "guest: $(( $(date +%s) - t0 )) s, last block $(tail -qn1 /tmp/work/run.*/side/markers.txt 2>/dev/null | awk '{print $2}'), $fill"
 done) &
progress=$!
tools/geth_patch/run_import_capture.sh --out "/tmp/out/$NAME.ftr" --chain /run/chain \
  --import-files "$IMPORT_FILES" --geth-bin "/run/$GETH" --fs "$FS" --work /tmp/work "${ARGS[@]}" 2>&1
rc=$?
kill "$progress" 2>/dev/null
echo "guest: run_import_capture.sh exit $rc after $(( $(date +%s) - t0 )) s"
[ -e "/tmp/out/$NAME.ftr" ] && ftlsim info "/tmp/out/$NAME.ftr"
(cd /tmp/out && tar -cf "$CONV_BLK" .) || { echo "guest: writing the outputs to $CONV_BLK failed"; exit 1; }
exit "$rc"
