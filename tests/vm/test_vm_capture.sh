#!/usr/bin/env bash
# ctest vm_capture (label vm): tools/capture_blktrace.sh --hints inside the
# test VM on its NVMe namespace, on ext4 and on F2FS (which this host's
# kernel lacks), with the hint tracer built here (CO-RE) and run in the
# guest against the backports kernel's BTF; checked by check_vm_capture.py.
#   tests/vm/test_vm_capture.sh FTLSIM WORKDIR
# Exit 77 ("skipped: ...") without QEMU / the VM kernel (tools/install_deps.sh
# vm) or the hint tracer's build tools (tools/install_deps.sh capture).
set -euo pipefail
ftlsim="$1" work="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/vm_common.sh"
vm_prereqs "$ftlsim"
img="$(vm_initramfs "$ftlsim" "$work")"
[ -x "$work/hinttrace/hinttrace" ] ||
  vm_skip "the hint tracer did not build here (tools/install_deps.sh capture; log $work/hinttrace-build.log)"
vm_static_program "$here/hinted_write.c" "$work/hinted_write"

start=$(date +%s)
rc=0
"$vm_repo/tools/vm/run_vm.sh" --initramfs "$img" --script "$here/guest_capture.sh" --file "$work/hinted_write" \
  --timeout 240 --log "$work/capture.raw.log" >"$work/capture.console" || rc=$?
echo "VM run: $(( $(date +%s) - start )) s, exit $rc (console: $work/capture.console)"
[ "$rc" = 0 ] || { tail -n 40 "$work/capture.console"; exit 1; }
python3 "$here/check_vm_capture.py" "$work/capture.console"
