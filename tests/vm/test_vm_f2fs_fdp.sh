#!/usr/bin/env bash
# ctest vm_f2fs_fdp (label vm): the FDP-aware F2FS of tools/f2fs_fdp, built
# here for the VM kernel and loaded in the guest in place of the stock
# module; tests/vm/guest_f2fs_fdp.sh runs it with fdp_log_n=8 and 1 under the
# hint tracer, tests/vm/check_vm_f2fs_fdp.py checks the IDs of data, node,
# cleaning and metadata writes and the open sub-logs.
#   tests/vm/test_vm_f2fs_fdp.sh FTLSIM WORKDIR
# Exit 77 ("skipped: ...") without QEMU / the VM kernel / the kernel sources
# (tools/install_deps.sh vm) or the hint tracer's build tools
# (tools/install_deps.sh capture).
set -euo pipefail
ftlsim="$1" work="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/vm_common.sh"
vm_prereqs "$ftlsim"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
vm_static_program "$here/fdp_files.c" "$work/fdp_files"
rc=0
ko="$("$vm_repo/tools/f2fs_fdp/build.sh" --out "$work/f2fs_fdp")" || rc=$?
[ "$rc" != 2 ] || vm_skip "tools/f2fs_fdp/build.sh lacks a prerequisite (tools/install_deps.sh vm)"
[ "$rc" = 0 ] || { echo "tools/f2fs_fdp/build.sh failed"; exit 1; }
make -s -C "$vm_repo/tools/hinttrace" OUT="$work/hinttrace" >"$work/hinttrace-build.log" 2>&1 ||
  vm_skip "the hint tracer did not build here (tools/install_deps.sh capture; log $work/hinttrace-build.log)"
"$vm_repo/tools/vm/build_initramfs.sh" --ftlsim "$ftlsim" --hinttrace "$work/hinttrace/hinttrace" \
  --f2fs-ko "$ko" --out "$work/initramfs-f2fs-fdp.cpio.gz"

start=$(date +%s)
rc=0
rm -rf "$work/f2fs_fdp.tar" "$work/f2fs_fdp.out"
"$vm_repo/tools/vm/run_vm.sh" --initramfs "$work/initramfs-f2fs-fdp.cpio.gz" --script "$here/guest_f2fs_fdp.sh" \
  --file "$work/fdp_files" --mem 1G --conv-disk "$work/f2fs_fdp.tar" --timeout 600 --log "$work/f2fs_fdp.raw.log" \
  >"$work/f2fs_fdp.console" || rc=$?
echo "VM run: $(( $(date +%s) - start )) s, exit $rc (console: $work/f2fs_fdp.console)"
cat "$work/f2fs_fdp.console"
[ "$rc" = 0 ] || exit 1
mkdir -p "$work/f2fs_fdp.out"
tar -xf "$work/f2fs_fdp.tar" -C "$work/f2fs_fdp.out" || { echo "no output archive from the guest"; exit 1; }
python3 "$here/check_vm_f2fs_fdp.py" "$work/f2fs_fdp.out"
