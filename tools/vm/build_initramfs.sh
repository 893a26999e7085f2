#!/usr/bin/env bash
# build_initramfs.sh: the root file system of the test VM, as one initramfs
# built from this machine's Debian packages (nothing is downloaded):
# busybox-static, bash, kmod, nvme-cli, mkfs.ext4, mkfs.f2fs, losetup and
# findmnt, the backports kernel's NVMe / ext4 / F2FS / loop modules
# (tools/install_deps.sh vm unpacks the kernel into build/vm/kernel), this
# build's ftlsim, the hint tracer when given, tools/capture_blktrace.sh,
# tools/geth_patch's capture scripts, tools/vm/guest/*, and the traces named;
# with --python also python3 and its standard library (what
# tools/geth_patch/run_import_capture.sh needs in the guest); with --f2fs-ko
# the FDP-aware F2FS module (tools/f2fs_fdp/build.sh) in place of the
# kernel's own f2fs.ko. Every program's shared libraries are found with ldd
# and copied with it.
#
#   tools/vm/build_initramfs.sh --ftlsim PATH [--hinttrace PATH] [--python]
#                               [--f2fs-ko FILE] [--trace FILE]... [--out FILE]
#
# Output: FILE (default build/vm/initramfs.cpio.gz), replaced atomically.
# The guest's /init (tools/vm/guest/init) runs /run/test.sh, which
# tools/vm/run_vm.sh appends as a second cpio archive at boot.
set -euo pipefail

prog=build_initramfs
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
die() { echo "$prog: $*" >&2; exit 2; }

ftlsim="" hinttrace="" f2fs_ko="" traces=() python=0 out="$repo/build/vm/initramfs.cpio.gz"
kroot="${FTLSIM_VM_KERNEL_DIR:-$repo/build/vm/kernel}"
while [ $# -gt 0 ]; do
  case "$1" in
    --ftlsim) ftlsim="$2"; shift 2 ;;
    --hinttrace) hinttrace="$2"; shift 2 ;;
    --trace) traces+=("$2"); shift 2 ;;
    --python) python=1; shift ;;
    --f2fs-ko) f2fs_ko="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[ -n "$ftlsim" ] || die "--ftlsim PATH is required"
mkdir -p "$(dirname "$out")"
out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
[ -x "$ftlsim" ] || die "$ftlsim: not an executable"
[ -z "$f2fs_ko" ] || [ -r "$f2fs_ko" ] || die "--f2fs-ko $f2fs_ko: cannot read"
kver="$(ls "$kroot/lib/modules" 2>/dev/null | head -n1 || true)"  # none: the message below, not a silent exit
[ -n "$kver" ] || die "no kernel modules under $kroot/lib/modules; run tools/install_deps.sh vm"
for t in busybox bash kmod nvme mke2fs mkfs.f2fs losetup findmnt cpio gzip depmod; do
  command -v "$t" >/dev/null 2>&1 || [ -x "/usr/sbin/$t" ] || [ -x "/sbin/$t" ] ||
    die "$t not found; run tools/install_deps.sh vm"
done
busybox --list-full >/dev/null 2>&1 || die "busybox has no --list-full; install busybox-static (tools/install_deps.sh vm)"

# depmod and modprobe live in /usr/sbin, which a user's PATH may lack
depmod="$(command -v depmod || echo /usr/sbin/depmod)"
modprobe="$(command -v modprobe || echo /usr/sbin/modprobe)"

stage="$(mktemp -d "$(dirname "$out")/.initramfs.XXXXXX")"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{usr/bin,usr/sbin,usr/lib,usr/lib64,dev,proc,sys,tmp,run,mnt,etc,root}
ln -s usr/bin "$stage/bin"; ln -s usr/sbin "$stage/sbin"
ln -s usr/lib "$stage/lib"; ln -s usr/lib64 "$stage/lib64"

# copy FILE to DEST (a path in the guest) with the shared libraries ldd names
add_program() {
  local src="$1" dest="$2" lib
  install -D -m 0755 "$(readlink -f "$src")" "$stage$dest"
  while read -r lib; do
    if [ -n "$lib" ] && [ ! -e "$stage$lib" ]; then install -D -m 0755 "$(readlink -f "$lib")" "$stage$lib"; fi
  done < <(ldd "$src" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\).*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p')
}

# busybox applets as links, then real programs where busybox falls short
install -m 0755 "$(command -v busybox)" "$stage/usr/bin/busybox"
while read -r applet; do
  applet="${applet#/}"
  case "$applet" in bin/*|sbin/*) applet="usr/$applet" ;; esac
  [ -e "$stage/$applet" ] || ln -s /usr/bin/busybox "$stage/$applet"
done < <(busybox --list-full)
replace() { rm -f "$stage$2"; add_program "$1" "$2"; }
replace "$(command -v bash)" /usr/bin/bash
replace "$(command -v kmod)" /usr/bin/kmod
for l in modprobe insmod rmmod lsmod depmod modinfo; do rm -f "$stage/usr/sbin/$l" "$stage/usr/bin/$l"; ln -s /usr/bin/kmod "$stage/usr/sbin/$l"; done
replace "$(command -v nvme || echo /usr/sbin/nvme)" /usr/sbin/nvme
replace /usr/sbin/mke2fs /usr/sbin/mke2fs
for l in mkfs.ext4 mkfs.ext2; do rm -f "$stage/usr/sbin/$l"; ln -s mke2fs "$stage/usr/sbin/$l"; done
replace /usr/sbin/mkfs.f2fs /usr/sbin/mkfs.f2fs
replace /usr/sbin/dump.f2fs /usr/sbin/dump.f2fs
# util-linux's: --find --show, and the mount options capture metadata records
replace "$(command -v losetup || echo /usr/sbin/losetup)" /usr/sbin/losetup
replace "$(command -v findmnt || echo /usr/bin/findmnt)" /usr/bin/findmnt
# coreutils' date and stat: the capture script uses options busybox lacks
replace /usr/bin/date /usr/bin/date
replace /usr/bin/stat /usr/bin/stat
add_program "$ftlsim" /usr/local/bin/ftlsim
[ -z "$hinttrace" ] || add_program "$hinttrace" /usr/local/bin/hinttrace
if [ "$python" = 1 ]; then
  # Debian's interpreter (not a pyenv shim) and its standard library, without
  # the parts no script here imports; lib-dynload's modules with their libraries
  py=/usr/bin/python3
  [ -x "$py" ] || die "$py not found; run tools/install_deps.sh vm"
  pyver="$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  add_program "$(readlink -f "$py")" "/usr/bin/python$pyver"
  ln -sf "python$pyver" "$stage/usr/bin/python3"
  (cd "/usr/lib/python$pyver" && find . -path ./test -prune -o -path ./idlelib -prune -o -path ./tkinter -prune \
     -o -path ./lib2to3 -prune -o -path ./ensurepip -prune -o -path ./turtledemo -prune -o -path ./pydoc_data -prune \
     -o -path ./dist-packages -prune -o -path ./site-packages -prune -o -path './config-*' -prune \
     -o -type f -print | cpio -pdm --quiet "$stage/usr/lib/python$pyver")
  for so in "/usr/lib/python$pyver"/lib-dynload/*.so; do add_program "$so" "$so"; done
fi

# kernel modules: the ones named and what they depend on, with a depmod index
mods=(nvme ext4 f2fs loop)
"$depmod" -b "$kroot" "$kver" 2>/dev/null || die "depmod failed on $kroot"
while read -r kind path _; do
  [ "$kind" = insmod ] || continue
  rel="${path#"$kroot"}"
  install -D -m 0644 "$path" "$stage/usr$rel"
done < <("$modprobe" -a -d "$kroot" -S "$kver" --show-depends "${mods[@]}")
if [ -n "$f2fs_ko" ]; then
  # the patched module where modprobe looks for f2fs (its dependencies are the stock one's)
  rm -f "$stage/usr/lib/modules/$kver/kernel/fs/f2fs/"f2fs.ko*
  install -D -m 0644 "$f2fs_ko" "$stage/usr/lib/modules/$kver/kernel/fs/f2fs/f2fs.ko"
fi
for f in modules.order modules.builtin modules.builtin.modinfo; do
  [ -e "$kroot/lib/modules/$kver/$f" ] && cp "$kroot/lib/modules/$kver/$f" "$stage/usr/lib/modules/$kver/"
done
"$depmod" -b "$stage" "$kver" || die "depmod failed on the initramfs modules"

# the project's files
install -D -m 0755 "$repo/tools/capture_blktrace.sh" "$stage/ftlsim/tools/capture_blktrace.sh"
for f in run_import_capture.sh capture_checks.sh capture_post.py; do
  install -D -m 0755 "$repo/tools/geth_patch/$f" "$stage/ftlsim/tools/geth_patch/$f"
done
for f in "$here"/guest/*; do install -D -m 0755 "$f" "$stage/ftlsim/tools/vm/guest/$(basename "$f")"; done
install -m 0755 "$here/guest/init" "$stage/init"
for t in "${traces[@]}"; do
  [ -r "$t" ] || die "$t: cannot read"
  install -D -m 0644 "$t" "$stage/ftlsim/traces/$(basename "$t")"
done
echo "root:x:0:0:root:/root:/bin/sh" >"$stage/etc/passwd"
echo "root:x:0:" >"$stage/etc/group"
echo "$kver" >"$stage/etc/ftlsim-vm-kernel"

tmp="$(mktemp "$out.XXXXXX")"
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) >"$tmp"
mv -f "$tmp" "$out"
echo "$prog: $out ($(du -h "$out" | cut -f1), kernel $kver)" >&2
