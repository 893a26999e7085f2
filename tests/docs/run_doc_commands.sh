#!/usr/bin/env bash
# run_doc_commands.sh FTLSIM_BINARY SCRATCH_PARENT: run every command block of
# README.md and docs/guide.md (tools/doc_commands.py --run) as written, from
# the root of a scratch copy of the repository's files with ./ftlsim linked
# to the built binary, so the docs keep working on a fresh clone. Root blocks
# (loop devices, mounts, the capture wrapper) run only as root; then the
# loop devices and mounts they use are released whatever happened. Exit 0
# when every block ran and passed, 1 when one failed, 77 (skipped) when all
# that ran passed but root blocks were left out.
set -euo pipefail
src="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:?usage: run_doc_commands.sh FTLSIM_BINARY SCRATCH_PARENT}"
parent="${2:?usage: run_doc_commands.sh FTLSIM_BINARY SCRATCH_PARENT}"
[ -x "$bin" ] || { echo "run_doc_commands: $bin is not an executable"; exit 2; }
mkdir -p "$parent"
scratch="$(mktemp -d "$parent/doc-commands.XXXXXX")"

# The mounts and loop files the guide's root blocks name.
release_root_resources() {
  [ "$(id -u)" -eq 0 ] || return 0
  local m f dev
  for m in /tmp/rpw/mnt /tmp/cap/mnt; do
    if findmnt -rn "$m" >/dev/null 2>&1; then umount "$m" || true; fi
  done
  for f in /tmp/cap/disk.img /var/tmp/loopdemo.img; do
    for dev in $(losetup -j "$f" -O NAME -n 2>/dev/null); do losetup -d "$dev" || true; done
  done
}
cleanup() { release_root_resources; rm -rf "$scratch"; }
trap cleanup EXIT

# The files of a fresh clone: tracked ones from git when this is a checkout
# (edits not yet committed included), else the tree without build outputs.
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$src" && git ls-files -z --cached | xargs -0 cp --parents -t "$scratch" 2>/dev/null) || true
  # A tracked file deleted in the working tree is not in the copy; that is the clone the edit makes.
else
  (cd "$src" && tar --exclude=./build --exclude=./out -cf - .) | (cd "$scratch" && tar -xf -)
fi
[ -f "$scratch/docs/guide.md" ] || { echo "run_doc_commands: copying $src to $scratch failed"; exit 2; }
ln -s "$bin" "$scratch/ftlsim"

cd "$scratch"
rc=0
for doc in README.md docs/guide.md; do
  tools/doc_commands.py --run "$doc" | tee -a "$scratch/.doc-commands.log" || rc=1
done
if [ "$rc" -eq 0 ] && grep -q '^SKIP .*: a root block' "$scratch/.doc-commands.log"; then
  echo "run_doc_commands: skipped: root blocks not run (not root)"
  exit 77
fi
exit "$rc"
