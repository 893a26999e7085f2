# Sourced by the tests/vm/test_*.sh scripts: what the VM tests need, and the
# initramfs they share (rebuilt when ftlsim, the scripts or the traces are
# newer than it). Each test exits 77 with "skipped: <reason>" when the host
# cannot run the VM.
vm_here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
vm_repo="$(cd "$vm_here/../.." && pwd)"

vm_skip() { echo "skipped: $*"; exit 77; }

# vm_prereqs FTLSIM: skip unless QEMU with FDP emulation, the backports
# kernel and the initramfs's tools are there.
vm_prereqs() {
  [ "$(uname -m)" = x86_64 ] || vm_skip "the test VM is x86_64 only (this is $(uname -m))"
  [ -x "$1" ] || vm_skip "ftlsim binary $1 missing"
  command -v qemu-system-x86_64 >/dev/null 2>&1 || vm_skip "qemu-system-x86_64 not installed (tools/install_deps.sh vm)"
  grep -q 'fdp=' <<<"$(qemu-system-x86_64 -device nvme-subsys,help 2>/dev/null)" ||
    vm_skip "this QEMU's nvme-subsys has no FDP emulation (QEMU 8.0 or later; tools/install_deps.sh vm installs 10.x)"
  ls "$vm_repo"/build/vm/kernel/boot/vmlinuz-* >/dev/null 2>&1 ||
    vm_skip "no VM kernel in build/vm/kernel (tools/install_deps.sh vm)"
  local t
  for t in busybox kmod cpio nvme mkfs.f2fs python3; do
    command -v "$t" >/dev/null 2>&1 || [ -x "/usr/sbin/$t" ] || vm_skip "$t not installed (tools/install_deps.sh vm)"
  done
}

# vm_initramfs FTLSIM WORKDIR: prints the initramfs path; builds the hint
# tracer for the guest (CO-RE, from this host's BTF) when it can.
vm_initramfs() {
  local ftlsim="$1" work img ht=()
  mkdir -p "$2"
  work="$(cd "$2" && pwd)"
  img="$work/initramfs.cpio.gz"
  if [ -r /sys/kernel/btf/vmlinux ] && command -v clang >/dev/null 2>&1 && command -v bpftool >/dev/null 2>&1 &&
     make -s -C "$vm_repo/tools/hinttrace" OUT="$work/hinttrace" >"$work/hinttrace-build.log" 2>&1; then
    ht=(--hinttrace "$work/hinttrace/hinttrace")
  fi
  local stale=0 f
  [ -e "$img" ] || stale=1
  for f in "$ftlsim" "$vm_repo"/tools/vm/*.sh "$vm_repo"/tools/vm/guest/* "$vm_repo/tools/capture_blktrace.sh" \
           "$vm_repo/traces/geth-ethstate.ftr" ${ht[1]:+"${ht[1]}"}; do
    [ "$stale" = 1 ] || [ "$f" -nt "$img" ] && stale=1
  done
  if [ "$stale" = 1 ]; then
    "$vm_repo/tools/vm/build_initramfs.sh" --ftlsim "$ftlsim" "${ht[@]}" \
      --trace "$vm_repo/traces/geth-ethstate.ftr" --out "$img" >&2 || return 1
  fi
  echo "$img"
}

# vm_static_program SRC OUT: OUT = SRC (tests/vm/*.c) linked statically for
# the guest, whose initramfs has no C library of its own; skip without cc.
vm_static_program() {
  command -v cc >/dev/null 2>&1 || vm_skip "no C compiler for tests/vm/$(basename "$1")"
  cc -O2 -static -Wall -o "$2" "$1" || vm_skip "cannot link tests/vm/$(basename "$1") statically (libc6-dev)"
}
