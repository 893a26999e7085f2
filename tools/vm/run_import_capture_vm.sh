#!/usr/bin/env bash
# run_import_capture_vm.sh: tools/geth_patch/run_import_capture.sh inside the
# project's VM (tools/vm: the backports kernel, which has F2FS), for a file
# system this machine's kernel lacks. On the host: builds the patched geth
# statically, the hint tracer (CO-RE) and an initramfs with python3; boots the
# VM with the geth binary and the chain files; the guest
# (tools/vm/import_guest.sh) runs the capture on a loop device of its own and
# hands OUT.ftr and its side files back through the conventional namespace.
#
#   tools/vm/run_import_capture_vm.sh --out OUT.ftr --chain DIR [options]
#       [-- run_import_capture.sh options...]
#
#   --chain DIR          a chaingen output (genesis.json, chaingen.json,
#                        blocks-NNNN.rlp), as run_import_capture.sh --chain
#   --import-files N     import the first N blocks-*.rlp files (default all)
#   --fs f2fs|ext4       file system in the guest (default f2fs)
#   --f2fs-fdp N         the FDP-aware F2FS (tools/f2fs_fdp, built here and
#                        loaded in the guest) in the study's non-FDP (N=1) or
#                        FDP (N=8) host mode: run_import_capture.sh --f2fs-fdp
#   --geth VERSION       go-ethereum version (default v1.14.8)
#   --scale D            run_import_capture.sh --scale (default 128; it also
#                        sets the freezer threshold built into geth)
#   --smp N              guest CPUs (default 2; multi-threaded TCG)
#   --mem SIZE           guest memory (default 4G: geth, the 512 MiB loop
#                        device's file in the guest's RAM, trace buffers)
#   --timeout SEC        give up after SEC seconds (default 7200)
#   --ftlsim PATH        ftlsim for the guest (default build/release/src/cli/ftlsim)
#   --force              overwrite OUT.ftr and its side files
#
# Options after -- go to run_import_capture.sh in the guest (e.g.
# --keep-raw, --ids-from bio). Work files: build/vm/import/. The console is
# printed; OUT.console.log keeps it. Needs root (the capture scripts check),
# go, clang and bpftool (tools/install_deps.sh go capture vm).
# Exit: 0 done; 1 the capture failed or the VM timed out; 2 usage.
set -euo pipefail
prog=run_import_capture_vm
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
die() { echo "$prog: error: $*" >&2; exit 2; }
# shellcheck source=../geth_patch/capture_checks.sh
. "$repo/tools/geth_patch/capture_checks.sh"
say() { echo "$prog: $*" >&2; }

out="" chain="" import_files=0 fs=f2fs f2fs_fdp=""  version=v1.14.8 scale=128 smp=2 mem=4G timeout_s=7200
ftlsim="$repo/build/release/src/cli/ftlsim" force=0 args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="${2:?}"; shift 2 ;;
    --chain) chain="${2:?}"; shift 2 ;;
    --import-files) import_files="${2:?}"; shift 2 ;;
    --fs) fs="${2:?}"; shift 2 ;;
    --f2fs-fdp) f2fs_fdp="${2:?}"; shift 2 ;;
    --geth) version="${2:?}"; shift 2 ;;
    --scale) scale="${2:?}"; shift 2 ;;
    --smp) smp="${2:?}"; shift 2 ;;
    --mem) mem="${2:?}"; shift 2 ;;
    --timeout) timeout_s="${2:?}"; shift 2 ;;
    --ftlsim) ftlsim="${2:?}"; shift 2 ;;
    --force) force=1; shift ;;
    --) shift; args=("$@")
        # The settings this wrapper fixes (and records) cannot be overridden after --.
        for a in "${args[@]}"; do
          case "$a" in
            --out|--chain|--import-files|--fs|--f2fs-fdp|--geth|--geth-bin|--scale|--work|--build-only|--static)
              die "'$a' after -- would override this wrapper's own setting; give it before --" ;;
          esac
        done
        break ;;
    -h|--help) sed -n '2,34p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[ -n "$out" ] || die "--out OUT.ftr is required"
[ -n "$chain" ] || die "--chain DIR (a chaingen output directory) is required"
check_chain_dir "$chain"
case "$fs" in ext4|f2fs) ;; *) die "--fs must be ext4 or f2fs" ;; esac
[ -z "$f2fs_fdp" ] || [ "$fs" = f2fs ] || die "--f2fs-fdp needs --fs f2fs"
[ -z "$f2fs_fdp" ] || [[ "$f2fs_fdp" =~ ^[1-8]$ ]] || die "--f2fs-fdp must be 1..8"
[[ "$scale" =~ ^[1-9][0-9]*$ ]] || die "--scale must be a positive integer"
[[ "$timeout_s" =~ ^[1-9][0-9]*$ ]] || die "--timeout must be a positive number of seconds"
[ -x "$ftlsim" ] || die "ftlsim binary $ftlsim missing (cmake --build --preset release --target ftlsim)"
chain_files "$chain" "$import_files"
check_capture_out "$out" "$force" console.log
base="${out%.ftr}" name="$(basename "$base")"
outputs=("${capture_output_suffixes[@]}" console.log)

work="$repo/build/vm/import"
mkdir -p "$work"
say "building the patched geth $version (static)"
geth="$("$repo/tools/geth_patch/run_import_capture.sh" --build-only --static --geth "$version" --scale "$scale")" ||
  die "building geth failed"
say "building the hint tracer"
make -s -C "$repo/tools/hinttrace" OUT="$work/hinttrace" >"$work/hinttrace-build.log" 2>&1 ||
  die "the hint tracer did not build (tools/install_deps.sh capture; log $work/hinttrace-build.log)"
ko=()
if [ -n "$f2fs_fdp" ]; then
  say "building the FDP-aware F2FS module"
  ko=(--f2fs-ko "$("$repo/tools/f2fs_fdp/build.sh")") || die "tools/f2fs_fdp/build.sh failed"
  args=(--f2fs-fdp "$f2fs_fdp" "${args[@]}")
fi
say "building the initramfs"
"$here/build_initramfs.sh" --ftlsim "$ftlsim" --hinttrace "$work/hinttrace/hinttrace" --python "${ko[@]}" \
  --out "$work/initramfs.cpio.gz"

run="$(mktemp -d "$work/run.XXXXXX")"
trap 'rm -rf "$run"' EXIT
{
  echo "GETH=$(basename "$geth")"
  echo "FS=$fs"
  echo "IMPORT_FILES=${#rlps[@]}"
  printf 'NAME=%q\n' "$name"
  printf 'ARGS=(--scale %q' "$scale"; [ ${#args[@]} -eq 0 ] || printf ' %q' "${args[@]}"; echo ')'
} >"$run/import.conf"
files=(--file "$run/import.conf" --file "$geth" --file "$chain/genesis.json" --file "$chain/chaingen.json")
[ -e "$geth.stamp" ] && files+=(--file "$geth.stamp")
for f in "${rlps[@]}"; do files+=(--file "$f"); done
say "booting the VM ($smp CPUs, $mem): ${#rlps[@]} chain files on $fs"
start=$(date +%s)
rc=0
"$here/run_vm.sh" --initramfs "$work/initramfs.cpio.gz" --script "$here/import_guest.sh" "${files[@]}" --smp "$smp" --mem "$mem" \
  --ns-size 2G --conv-disk "$run/outputs.tar" --timeout "$timeout_s" --log "$run/console.raw" \
  | tee "$run/console.log" || rc=$?
say "VM run: $(( $(date +%s) - start )) s, exit $rc"
# the outputs, whatever the exit status (the geth log of a failed run)
mkdir -p "$run/out"
tar -xf "$run/outputs.tar" -C "$run/out" 2>/dev/null || say "no output archive from the guest"
# One run's set: earlier outputs of this name (replaced with --force) go first,
# so a failed run never leaves the previous run's trace looking like its own.
for x in "${outputs[@]}"; do rm -f -- "$base.$x"; done
# run.json names the chain as the guest saw it (/run/chain): add the host's.
if [ -f "$run/out/$name.run.json" ]; then
  python3 - "$run/out/$name.run.json" "$(cd "$chain" && pwd)" <<'PY' || say "could not add the host's chain folder to run.json"
import json, sys
path, host = sys.argv[1], sys.argv[2]
run = json.load(open(path))
run["chain_dir_in_guest"], run["chain_dir"] = run.get("chain_dir"), host
with open(path, "w") as f:
    json.dump(run, f, indent=2)
    f.write("\n")
PY
fi
for x in "${outputs[@]}"; do
  [ ! -e "$run/out/$name.$x" ] || mv -f "$run/out/$name.$x" "$base.$x"
done
cp "$run/console.log" "$base.console.log"
[ "$rc" = 0 ] || { echo "$prog: the capture in the VM failed (exit $rc; console: $base.console.log)" >&2; exit 1; }
[ -s "$out" ] || { echo "$prog: the guest wrote no $name.ftr" >&2; exit 1; }
say "done: $out"
