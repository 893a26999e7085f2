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
set -euo pipefail

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
                 e2fsprogs util-linux python3)                       # tests/capture
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
    *)
      echo "install_deps: unknown group '$g' (known: build, capture, analysis, bench, fuzz)" >&2
      exit 2
      ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install_deps: installing ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo=(sudo)
else
  echo "install_deps: not root and no password-less sudo; ask an administrator to run:" >&2
  echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
