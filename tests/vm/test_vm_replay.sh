#!/usr/bin/env bash
# ctest vm_replay (label vm): boots the test VM (tools/vm/run_vm.sh: QEMU TCG,
# the backports kernel, an FDP SSD of 2 reclaim groups, 8 handles and
# 16 MiB RUs, plus a conventional NVMe SSD) once, runs tests/vm/guest_replay.sh in
# it and checks the console with tests/vm/check_vm_replay.py.
#   tests/vm/test_vm_replay.sh FTLSIM WORKDIR
# Exit 77 ("skipped: ...") without QEMU / the VM kernel (tools/install_deps.sh vm).
set -euo pipefail
ftlsim="$1" work="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/vm_common.sh"
vm_prereqs "$ftlsim"
img="$(vm_initramfs "$ftlsim" "$work")"
ru=16M ru_bytes=16777216 rgs=2 handles=8

# a small trace: IDs 0, 1, 2 and 9 (the device has handles 0..7)
printf 'time,lba,len,op,pid\n0,0,65536,W,0\n1000,65536,131072,W,1\n2000,262144,4096,W,9\n3000,524288,8192,W,2\n' \
  >"$work/small.csv"
"$ftlsim" convert --from csv --columns time=time:ns,lba=lba:bytes,length=len:bytes,op=op,pid=pid \
  --op-map W=write --force -o "$work/small.ftr" "$work/small.csv" >/dev/null
"$ftlsim" info --json "$vm_repo/traces/geth-ethstate.ftr" >"$work/geth-info.json"
"$ftlsim" info --json "$work/small.ftr" >"$work/small-info.json"

start=$(date +%s)
rc=0
"$vm_repo/tools/vm/run_vm.sh" --initramfs "$img" --script "$here/guest_replay.sh" --file "$work/small.ftr" \
  --ru-size "$ru" --handles "$handles" --rgs "$rgs" --timeout 240 --log "$work/replay.raw.log" >"$work/replay.console" || rc=$?
echo "VM run: $(( $(date +%s) - start )) s, exit $rc (console: $work/replay.console)"
[ "$rc" = 0 ] || { tail -n 40 "$work/replay.console"; exit 1; }
python3 "$here/check_vm_replay.py" "$work/replay.console" "$work/geth-info.json" "$work/small-info.json" "$ru_bytes" \
  "$rgs" "$handles"
