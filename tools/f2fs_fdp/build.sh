#!/usr/bin/env bash
# build.sh: the FDP-aware F2FS (f2fs-fdp.patch, mount option fdp_log_n=N) as
# an out-of-tree f2fs.ko for the test VM's kernel. Takes fs/f2fs from the
# pinned linux-source-6.12 tarball, applies the patch and builds against the
# same version's headers; nothing is downloaded: tools/install_deps.sh vm
# unpacks (does not install) the source into build/vm/ksource and the
# headers and kbuild into build/vm/kheaders, and installs gcc-12 and pahole.
#
#   tools/f2fs_fdp/build.sh [--out DIR]
#
# Output: DIR/f2fs.ko (default build/vm/f2fs_fdp/f2fs.ko), debug info stripped,
# rebuilt only when the patch or this script changed (DIR/f2fs.ko.stamp holds
# their checksum). Prints the module's path. Exit 0 built or up to date,
# 1 the build failed (log in DIR/build.log), 2 a prerequisite is missing.
set -euo pipefail
prog=f2fs_fdp/build
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
die() { echo "$prog: $*" >&2; exit 2; }

# The guest kernel (tools/install_deps.sh: vm_kernel_abi, vm_kernel_version).
kabi=6.12.95+deb12
kversion=6.12.95-1~bpo12+1
# Unpacked by tools/install_deps.sh vm (fetch_debs; .ftlsim-debs lists the
# packages each folder holds).
ksource="$repo/build/vm/ksource"
kheaders="$repo/build/vm/kheaders"
src_tar="$ksource/usr/src/linux-source-6.12.tar.xz"
headers="$kheaders/usr/src/linux-headers-$kabi-amd64"
kbuild="$kheaders/usr/lib/linux-kbuild-$kabi"

out="$repo/build/vm/f2fs_fdp"
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="${2:?}"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
# unpacked DIR PACKAGE: DIR holds PACKAGE at $kversion, or die.
unpacked() {
  local have
  have="$(awk -F= -v p="$2" '$1 == p { print $2 }' "$1/.ftlsim-debs" 2>/dev/null || true)"
  [ "$have" = "$kversion" ] ||
    die "$2 $kversion is not unpacked in $1 (there: ${have:-none}); run tools/install_deps.sh vm"
}
unpacked "$ksource" linux-source-6.12
for p in "linux-headers-$kabi-amd64" "linux-headers-$kabi-common" "linux-kbuild-$kabi"; do
  unpacked "$kheaders" "$p"
done
[ -r "$src_tar" ] || die "$src_tar missing; run tools/install_deps.sh vm"
if [ ! -r "$headers/Makefile" ] || [ ! -r "$kheaders/usr/src/linux-headers-$kabi-common/Makefile" ]; then
  die "$headers or its -common tree is incomplete; run tools/install_deps.sh vm"
fi
! grep -q '^include /' "$headers/Makefile" ||
  die "$headers/Makefile includes an absolute path ($(cat "$headers/Makefile")); run tools/install_deps.sh vm"
# kbuild's own programs (run from the unpacked tree; exit 126/127: not
# executable, or a library is missing)
for b in scripts/basic/fixdep scripts/mod/modpost.real-lsb-64 scripts/genksyms/genksyms \
         tools/objtool/objtool.real-x86 tools/bpf/resolve_btfids/resolve_btfids; do
  rc=0; "$kbuild/$b" --version >/dev/null 2>&1 </dev/null || rc=$?
  case "$rc" in
    126|127) die "$kbuild/$b does not run (exit $rc; it needs libc6, libelf1, libssl3, zlib1g); run tools/install_deps.sh vm" ;;
  esac
done
# the compiler the kernel was built with (.kernelvariables: CC = x86_64-linux-gnu-gcc-12)
command -v x86_64-linux-gnu-gcc-12 >/dev/null 2>&1 || die "x86_64-linux-gnu-gcc-12 not found; run tools/install_deps.sh vm"
command -v pahole >/dev/null 2>&1 || die "pahole not found; run tools/install_deps.sh vm"

mkdir -p "$out"
out="$(cd "$out" && pwd)"
stamp="$( (cat "$here/f2fs-fdp.patch" "$0"; echo "$kversion") | sha256sum | cut -d' ' -f1)"
if [ -s "$out/f2fs.ko" ] && [ "$(cat "$out/f2fs.ko.stamp" 2>/dev/null)" = "$stamp" ]; then
  echo "$out/f2fs.ko"
  exit 0
fi
work="$(mktemp -d "$out/.build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
log="$out/build.log"
{
  tar -xf "$src_tar" -C "$work" linux-source-6.12/fs/f2fs &&
  patch -d "$work/linux-source-6.12" -p1 --forward --batch <"$here/f2fs-fdp.patch" &&
  make -C "$headers" M="$work/linux-source-6.12/fs/f2fs" CONFIG_F2FS_FS=m -j"$(nproc)" modules
} >"$log" 2>&1 || { echo "$prog: the build failed; see $log" >&2; tail -n 20 "$log" >&2; exit 1; }
strip --strip-debug -o "$out/f2fs.ko.tmp" "$work/linux-source-6.12/fs/f2fs/f2fs.ko"
mv -f "$out/f2fs.ko.tmp" "$out/f2fs.ko"
echo "$stamp" >"$out/f2fs.ko.stamp"
echo "$prog: built $out/f2fs.ko ($(modinfo -F vermagic "$out/f2fs.ko" 2>/dev/null | cut -d' ' -f1))" >&2
echo "$out/f2fs.ko"
