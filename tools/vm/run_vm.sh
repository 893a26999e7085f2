#!/usr/bin/env bash
# run_vm.sh: boot the test VM once under QEMU, run a test script in it and
# power it off. The VM has two NVMe controllers, each with one namespace on
# a sparse raw file:
#   serial FDP0001   in an NVMe subsystem with Flexible Data Placement on
#                    (--ru-size, --rgs, --handles; the namespace gets
#                    handles 0..handles-1, or --ns-ruhs)
#   serial CONV0001  a conventional controller, for comparison
# Software emulation (TCG, -cpu max) by default: KVM only with --kvm (this
# project's machines have a /dev/kvm that cannot boot the backports kernel).
# No network; the serial console is the only output; everything runs under
# `timeout`.
#
#   tools/vm/run_vm.sh --script FILE [--file PATH]... [--initramfs FILE]
#       [--ru-size 16M] [--rgs 1] [--handles 8] [--ns-ruhs '0;1;...']
#       [--ns-size 1G] [--mem 1G] [--smp 1] [--conv-disk FILE]
#       [--timeout SEC] [--log FILE] [--kvm]
#
# FILE is run with bash as /run/test.sh in the guest (cwd /ftlsim, where
# the initramfs keeps traces/ and tools/); each --file is copied to /run/.
# --smp N gives the guest N CPUs (multi-threaded TCG). --conv-disk FILE
# backs the conventional namespace with FILE (a new path; made --ns-size long, kept
# after the run) instead of a scratch file: the way to take files out of
# the guest (it writes, say, a tar archive to $CONV_BLK).
# The guest's lines are printed; the exit status is the script's (0-125),
# 124 when the VM timed out, 125 when it ended without reporting one.
set -euo pipefail

prog=run_vm
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
die() { echo "$prog: $*" >&2; exit 2; }

script="" files=() initramfs="$repo/build/vm/initramfs.cpio.gz"
ru_size=16M rgs=1 handles=8 ns_ruhs="" ns_size=1G mem=1G smp=1 conv_disk="" timeout_s=240 log="" kvm=0
kroot="${FTLSIM_VM_KERNEL_DIR:-$repo/build/vm/kernel}"
while [ $# -gt 0 ]; do
  case "$1" in
    --script) script="$2"; shift 2 ;;
    --file) files+=("$2"); shift 2 ;;
    --initramfs) initramfs="$2"; shift 2 ;;
    --ru-size) ru_size="$2"; shift 2 ;;
    --rgs) rgs="$2"; shift 2 ;;
    --handles) handles="$2"; shift 2 ;;
    --ns-ruhs) ns_ruhs="$2"; shift 2 ;;
    --ns-size) ns_size="$2"; shift 2 ;;
    --mem) mem="$2"; shift 2 ;;
    --smp) smp="$2"; shift 2 ;;
    --conv-disk) conv_disk="$2"; shift 2 ;;
    --timeout) timeout_s="$2"; shift 2 ;;
    --log) log="$2"; shift 2 ;;
    --kvm) kvm=1; shift ;;
    -h|--help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[ -n "$script" ] || die "--script FILE is required"
[ -r "$script" ] || die "$script: cannot read"
command -v qemu-system-x86_64 >/dev/null 2>&1 || die "qemu-system-x86_64 not found; run tools/install_deps.sh vm"
kernel=""  # the first in the glob's order; none: the message below, not a silent exit
for k in "$kroot"/boot/vmlinuz-*; do [ -e "$k" ] && { kernel="$k"; break; }; done
[ -n "$kernel" ] || die "no kernel in $kroot/boot; run tools/install_deps.sh vm"
[ -r "$initramfs" ] || die "$initramfs: missing; build it with tools/vm/build_initramfs.sh"
[[ "$handles" =~ ^[0-9]+$ ]] && [ "$handles" -ge 1 ] || die "--handles: '$handles' is not a positive count"
[ -n "$ns_ruhs" ] || ns_ruhs="$(seq -s ';' 0 $((handles - 1)))"
[[ "$smp" =~ ^[1-9][0-9]?$ ]] || die "--smp: '$smp' is not a CPU count (1-99)"
if [ -n "$conv_disk" ]; then
  # The guest writes raw data over it: only a new file, never an existing one or a symlink.
  [ ! -e "$conv_disk" ] && [ ! -L "$conv_disk" ] || die "--conv-disk $conv_disk exists (give a new path)"
  [ -d "$(dirname "$conv_disk")" ] || die "--conv-disk: no directory $(dirname "$conv_disk")"
fi

mkdir -p "$repo/build/vm"
work="$(mktemp -d "$repo/build/vm/run.XXXXXX")"
trap 'rm -rf "$work"' EXIT
conv="$work/conv.raw"
[ -z "$conv_disk" ] || conv="$conv_disk"
truncate -s "$ns_size" "$work/fdp.raw" "$conv"

# The test script (and files) as a second cpio archive after the base one:
# the kernel unpacks both into the same root.
mkdir -p "$work/extra/run"
install -m 0755 "$script" "$work/extra/run/test.sh"
for f in "${files[@]}"; do cp -L "$f" "$work/extra/run/"; done
(cd "$work/extra" && find . -mindepth 1 | cpio -o -H newc --quiet | gzip -1) >"$work/extra.cpio.gz"
cat "$initramfs" "$work/extra.cpio.gz" >"$work/initrd"

accel=(-accel tcg,thread=multi -cpu max)
[ "$smp" = 1 ] && accel=(-accel tcg -cpu max)
[ "$kvm" = 1 ] && accel=(-accel kvm -cpu host)
[ -n "$log" ] || log="$work/console.log"
qemu=(qemu-system-x86_64 "${accel[@]}" -m "$mem" -smp "$smp" -nographic -no-reboot -nodefaults
  -serial stdio -monitor none -net none
  -kernel "$kernel" -initrd "$work/initrd"
  -append "console=ttyS0 panic=-1 quiet loglevel=3 ftlsim.ns=2"
  -device "nvme-subsys,id=subsys0,fdp=on,fdp.runs=$ru_size,fdp.nrg=$rgs,fdp.nruh=$handles"
  -device nvme,id=nvme-fdp,serial=FDP0001,subsys=subsys0
  -drive "file=$work/fdp.raw,if=none,id=fdpdrive,format=raw,cache=unsafe"
  -device "nvme-ns,drive=fdpdrive,bus=nvme-fdp,nsid=1,fdp.ruhs=$ns_ruhs"
  -device nvme,id=nvme-conv,serial=CONV0001
  -drive "file=$conv,if=none,id=convdrive,format=raw,cache=unsafe"
  -device nvme-ns,drive=convdrive,bus=nvme-conv,nsid=1)

# the console without carriage returns and terminal escapes
clean() { tr -d '\r' <"$log" | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1bc//g'; }
rc=0
timeout --kill-after=10 "$timeout_s" "${qemu[@]}" </dev/null >"$log" 2>&1 || rc=$?
# The guest's lines between the markers (carriage returns of the console dropped).
clean | sed -n '/FTLSIM-VM-BEGIN/,/FTLSIM-VM-EXIT/p'
status="$(clean | sed -n 's/.*FTLSIM-VM-EXIT \([0-9]*\)$/\1/p' | tail -n1)"
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
  echo "$prog: the VM did not finish within $timeout_s s; console:" >&2
  clean | tail -n 30 >&2
  exit 124
fi
if [ -z "$status" ]; then
  echo "$prog: the VM ended (qemu status $rc) without a test result; console:" >&2
  clean | tail -n 40 >&2
  exit 125
fi
exit "$status"
