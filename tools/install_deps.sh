#!/usr/bin/env bash
# Installs the Debian 12 packages a part of ftlsim needs, and nothing that is
# already there. Run as root (or through password-less sudo); when neither is
# possible it prints the one command an administrator has to run.
#
#   tools/install_deps.sh [build] [capture] ...
#     build    compiler, CMake, fmt, CLI11, Catch2, liburing, libnvme, libblkid, and
#              the mkfs tools of the replay safety tests (default)
#     capture  tools/capture_blktrace.sh: the hint tracer's build (clang,
#              bpftool, libbpf, libelf, zlib), the blktrace route, and the
#              capture test's file-system tools
#     analysis analysis/ (plots, report, Dask sweep) and its pytest suite,
#              for Debian's /usr/bin/python3
#     bench    bench/: fio, the reference for the live-replay benchmark
#     fuzz     tests/fuzz: clang and libFuzzer's runtime (the `fuzz` preset)
#     format   tools/format.sh and its ctest: clang-format 14
#     vm       tools/vm and tests/vm: QEMU 10 (FDP-capable NVMe emulation)
#              from bookworm-backports; nvme-cli, busybox, kmod, cpio, python3,
#              f2fs-tools; and the backports kernel, fetched with
#              `apt-get download` and unpacked under build/vm/kernel; for
#              tools/f2fs_fdp (the FDP-aware F2FS module for that kernel),
#              gcc-12, pahole and kbuild's libraries, and the same kernel's
#              headers, kbuild and linux-source, pinned to the image's
#              version and fetched the same way (build/vm/kheaders,
#              build/vm/ksource): no kernel package is installed, so
#              nothing is put into the host's /boot or /usr/src
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"

groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(build)

packages=()
for g in "${groups[@]}"; do
  case "$g" in
    build)
      packages+=(build-essential cmake ninja-build pkg-config git
                 libfmt-dev libcli11-dev catch2   # core build and tests
                 liburing-dev libnvme-dev         # src/replay (live replay)
                 libblkid-dev                     # src/replay: file-system signatures of a target
                 e2fsprogs xfsprogs util-linux)   # tests/replay: mkfs.ext4/xfs/minix/bfs/cramfs, mkswap, losetup
      ;;
    capture)
      packages+=(clang make bpftool libbpf-dev libelf-dev zlib1g-dev  # tools/hinttrace
                 blktrace                                            # blktrace route
                 e2fsprogs util-linux python3                        # tests/capture
                 fuse2fs bindfs)                                     # tests/replay stacks
      ;;
    analysis)
      packages+=(python3 python3-matplotlib python3-numpy python3-pytest
                 python3-dask python3-distributed)
      ;;
    bench)
      packages+=(fio python3)
      ;;
    fuzz)
      packages+=(clang libclang-rt-14-dev)  # -fsanitize=fuzzer needs clang 14's runtime archives
      ;;
    format)
      packages+=(clang-format-14)  # the version .clang-format's output is checked with
      ;;
    vm)
      want_vm=1
      packages+=(busybox-static kmod cpio nvme-cli f2fs-tools e2fsprogs python3
                 pahole make gcc gcc-12 binutils xz-utils patch  # tools/f2fs_fdp's module build
                 libc6 libelf1 libssl3 zlib1g)  # what linux-kbuild's fixdep, modpost, objtool link
      ;;
    *)
      echo "install_deps: unknown group '$g' (known: build, capture, analysis, bench, fuzz, format, vm)" >&2
      exit 2
      ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  if ! grep -q "install ok installed" <<<"$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)"; then
    missing+=("$p")
  fi
done

# The vm group's packages from bookworm-backports, each installed as
# NAME/bookworm-backports (apt then takes from backports only what that
# package's dependencies need; `-t bookworm-backports` would upgrade
# unrelated host packages such as systemd), and the kernel it boots.
vm_backports=(qemu-system-x86 qemu-system-common qemu-system-data seabios)
# The guest kernel and what tools/f2fs_fdp/build.sh builds its f2fs.ko
# against: one version, pinned (apt would take a newer linux-source from
# bookworm-security, whose F2FS no longer matches the image). None of them
# is installed: each set is fetched with `apt-get download` and unpacked
# with dpkg-deb -x into its own folder (fetch_debs below). Installing the
# headers would pull in the image package (linux-headers-*-amd64 depends on
# linux-image-*-amd64), which apt puts into the host's /boot with an
# initramfs and a boot entry; an installed linux-source-6.12 would be
# replaced by bookworm-security's at the host's next `apt upgrade`.
vm_kernel_abi=6.12.95+deb12
vm_kernel_version=6.12.95-1~bpo12+1
vm_image_debs=("linux-image-$vm_kernel_abi-amd64=$vm_kernel_version")
vm_kheaders_debs=("linux-headers-$vm_kernel_abi-amd64=$vm_kernel_version"
                  "linux-headers-$vm_kernel_abi-common=$vm_kernel_version"
                  "linux-kbuild-$vm_kernel_abi=$vm_kernel_version")
vm_ksource_debs=("linux-source-6.12=$vm_kernel_version")
vm_source=/etc/apt/sources.list.d/ftlsim-bookworm-backports.sources
vm_pin=/etc/apt/preferences.d/ftlsim-bookworm-backports
vm_source_text="# written by ftlsim tools/install_deps.sh vm
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
# Priority 100: nothing is installed or upgraded from backports unless named.
vm_pin_text="# written by ftlsim tools/install_deps.sh vm
Package: *
Pin: release n=bookworm-backports
Pin-Priority: 100"
vm_kernel_dir="$repo/build/vm/kernel"      # boot/vmlinuz-*, lib/modules/*
vm_kheaders_dir="$repo/build/vm/kheaders"  # usr/src/linux-headers-*-{amd64,common}, usr/lib/linux-kbuild-*
vm_ksource_dir="$repo/build/vm/ksource"    # usr/src/linux-source-6.12.tar.xz

# debs_ok DIR NAME=VERSION...: DIR was unpacked by fetch_debs from exactly
# these packages (DIR/.ftlsim-debs lists them, written last).
debs_ok() {
  local dir=$1; shift
  [ "$(cat "$dir/.ftlsim-debs" 2>/dev/null)" = "$(printf '%s\n' "$@")" ]
}
# fetch_debs DIR FIX NAME=VERSION...: downloads each package at VERSION with
# `apt-get download` (nothing is installed), checks that the .debs are
# exactly those packages and versions, unpacks them with dpkg-deb -x into
# DIR.partial, runs FIX on it (a function taking the folder, or :), lists
# the packages in .ftlsim-debs and puts the folder in DIR's place. Exit 2
# when a package cannot be downloaded or is not the one asked for.
fetch_debs() {
  local dir=$1 fix=$2 deb got=()
  shift 2
  local dl="$dir.debs"
  rm -rf "$dl" "$dir.partial"
  mkdir -p "$dl" "$dir.partial"
  # apt downloads as its _apt user where that user can write the folder
  if id _apt >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then chown _apt "$dl"; fi
  (cd "$dl" && apt-get download -qq "$@") ||
    { echo "install_deps: apt-get download $* failed (is bookworm-backports reachable?)" >&2; exit 2; }
  for deb in "$dl"/*.deb; do
    [ -e "$deb" ] || continue
    got+=("$(dpkg-deb -f "$deb" Package)=$(dpkg-deb -f "$deb" Version)")
  done
  if [ "$(printf '%s\n' "${got[@]}" | sort)" != "$(printf '%s\n' "$@" | sort)" ]; then
    echo "install_deps: apt-get download gave '${got[*]}', not '$*'" >&2
    exit 2
  fi
  for deb in "$dl"/*.deb; do dpkg-deb -x "$deb" "$dir.partial"; done
  "$fix" "$dir.partial"
  printf '%s\n' "$@" >"$dir.partial/.ftlsim-debs"
  rm -rf "$dir" && mv "$dir.partial" "$dir"
  rm -rf "$dl"
}
# The headers as unpacked are meant for /: the amd64 tree's Makefile is the
# single line `include /usr/src/linux-headers-ABI-common/Makefile`, made
# relative here (kbuild finds the source tree from the included Makefile's
# path); lib/modules/ABI/{build,source} are absolute links into the host's
# /usr/src, removed. Every other link in the packages is relative (scripts
# and tools -> ../../lib/linux-kbuild-ABI/...), and the common tree and
# kbuild name no absolute path that a module build uses.
kheaders_fix() {
  local root=$1 common="linux-headers-$vm_kernel_abi-common"
  local mk="$1/usr/src/linux-headers-$vm_kernel_abi-amd64/Makefile" abs
  if [ "$(cat "$mk" 2>/dev/null)" != "include /usr/src/$common/Makefile" ]; then
    echo "install_deps: $mk is not the one-line include of /usr/src/$common/Makefile it was in $vm_kernel_version" >&2
    exit 2
  fi
  # shellcheck disable=SC2016  # make's $(...), written as is
  printf 'include $(dir $(lastword $(MAKEFILE_LIST)))../%s/Makefile\n' "$common" >"$mk"
  rm -rf "$root/lib/modules" && rmdir "$root/lib"
  abs="$(find "$root" -type l -lname '/*' -printf '%p -> %l\n')"
  if [ -n "$abs" ]; then
    printf 'install_deps: absolute links in the unpacked headers:\n%s\n' "$abs" >&2
    exit 2
  fi
}

vm_missing=()
vm_sources_ok=1
if [ "${want_vm:-0}" = 1 ]; then
  if [ "$(cat "$vm_source" 2>/dev/null)" != "$vm_source_text" ] ||
     [ "$(cat "$vm_pin" 2>/dev/null)" != "$vm_pin_text" ]; then
    vm_sources_ok=0
  fi
  for p in "${vm_backports[@]}"; do
    if ! grep -q "install ok installed .*bpo" <<<"$(dpkg-query -W -f='${Status} ${Version}' "$p" 2>/dev/null)"; then
      vm_missing+=("$p/bookworm-backports")
    fi
  done
  [ -e "$vm_kernel_dir/boot/vmlinuz-$vm_kernel_abi-amd64" ] || vm_missing+=("(kernel)")
  debs_ok "$vm_kheaders_dir" "${vm_kheaders_debs[@]}" || vm_missing+=("(kernel headers)")
  debs_ok "$vm_ksource_dir" "${vm_ksource_debs[@]}" || vm_missing+=("(kernel source)")
fi

if [ ${#missing[@]} -eq 0 ] && [ ${#vm_missing[@]} -eq 0 ] && [ "$vm_sources_ok" = 1 ]; then
  exit 0
fi

echo "install_deps: installing ${missing[*]} ${vm_missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo=(sudo)
else
  echo "install_deps: not root and no password-less sudo; ask an administrator to run:" >&2
  echo "  tools/install_deps.sh ${groups[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if [ "$vm_sources_ok" = 0 ]; then
  printf '%s\n' "$vm_source_text" | "${sudo[@]}" tee "$vm_source" >/dev/null
  printf '%s\n' "$vm_pin_text" | "${sudo[@]}" tee "$vm_pin" >/dev/null
fi
"${sudo[@]}" apt-get update -qq
apt_missing=("${missing[@]}")
for p in "${vm_missing[@]}"; do
  case "$p" in "("*) ;; *) apt_missing+=("$p") ;; esac  # (kernel ...): fetched below
done
if [ ${#apt_missing[@]} -gt 0 ]; then
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${apt_missing[@]}" >&2
fi

# The backports kernel (the pinned image, the one tools/f2fs_fdp builds for),
# downloaded (not installed) and unpacked into build/vm/kernel: boot/vmlinuz-*
# and lib/modules/*. Then what tools/f2fs_fdp/build.sh builds against, the
# same way: the headers and kbuild into build/vm/kheaders, linux-source's
# tarball into build/vm/ksource.
if [ "${want_vm:-0}" = 1 ]; then
  if [ ! -e "$vm_kernel_dir/boot/vmlinuz-$vm_kernel_abi-amd64" ]; then
    fetch_debs "$vm_kernel_dir" : "${vm_image_debs[@]}"
    echo "install_deps: kernel ${vm_image_debs[*]} unpacked into $vm_kernel_dir" >&2
  fi
  if ! debs_ok "$vm_kheaders_dir" "${vm_kheaders_debs[@]}"; then
    fetch_debs "$vm_kheaders_dir" kheaders_fix "${vm_kheaders_debs[@]}"
    echo "install_deps: ${vm_kheaders_debs[*]} unpacked into $vm_kheaders_dir" >&2
  fi
  if ! debs_ok "$vm_ksource_dir" "${vm_ksource_debs[@]}"; then
    fetch_debs "$vm_ksource_dir" : "${vm_ksource_debs[@]}"
    echo "install_deps: ${vm_ksource_debs[*]} unpacked into $vm_ksource_dir" >&2
  fi
fi
