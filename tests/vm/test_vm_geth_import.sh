#!/usr/bin/env bash
# ctest vm_geth_import (labels vm, capture, go): a real `geth import` on F2FS
# in the test VM (tools/vm/run_import_capture_vm.sh: patched geth v1.14.8
# built statically here, tools/geth_patch/run_import_capture.sh --fs f2fs in
# the guest on a loop device, placement IDs from the bios' inodes). A small
# chain: 300 blocks of 10 transactions in 3 imports, at --scale 1024 so that
# the freezer (threshold 90000/1024 = 87 blocks) takes blocks too. Checks:
#   1. the capture lost no block-trace event and no hint record;
#   2. every tier carries bytes (WAL 1, flush 2, L0 compaction 3, mid-level
#      compaction 4, deep 5, freezer 6) and for 1-5 the bytes per placement
#      ID lie between the wrapper's own byte and page counts, each widened
#      by 1% (geth_trace_checks.py --range: partial pages two writes share
#      reach the device once or twice, as writeback timing falls); the freezer is only
#      required to be there: F2FS keeps a small file's data inline in its
#      inode block (ID 0), so its small index files do not reach ID 6;
#   3. one marker per imported block, 1..300, in order;
#   4. the metadata names the file system (f2fs, mounted with discard) and
#      the run says the IDs came from inodes;
#   5. F2FS's discards reach the trace as trims: the run sets F2FS's
#      discard_idle_interval to 0 (--f2fs-discard-idle 0; by default F2FS
#      holds its discards while the import keeps it busy), and the trace
#      has trims, of ID 0 (a discard belongs to no file).
#   tests/vm/test_vm_geth_import.sh FTLSIM WORKDIR
# Exit 77 ("skipped: ...") without root, QEMU / the VM kernel
# (tools/install_deps.sh vm), Go, or the hint tracer's build tools
# (tools/install_deps.sh capture).
set -euo pipefail
ftlsim="$1" work="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/vm_common.sh"
vm_prereqs "$ftlsim"
[ "$(id -u)" -eq 0 ] || vm_skip "needs root (the capture scripts)"
command -v go >/dev/null 2>&1 || vm_skip "no go (tools/install_deps.sh go)"
for t in clang bpftool; do
  command -v "$t" >/dev/null 2>&1 || [ -x "/usr/sbin/$t" ] || vm_skip "no $t (tools/install_deps.sh capture)"
done
[ -r /sys/kernel/btf/vmlinux ] || vm_skip "this kernel has no BTF to build the hint tracer from"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
blocks=300

fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }

# the chain, made once per work folder (chaingen is deterministic)
chain="$work/geth-chain-s1-$blocks"
if [ ! -f "$chain/chaingen.json" ]; then
  rm -rf "$chain" "$chain.db"
  (cd "$vm_repo/tools/geth_patch" && go run ./cmd/chaingen --out "$chain" --blocks "$blocks" --seed 1 \
     --file-blocks 100 --txs 10 --genesis-accounts 2000 --gen-db "$chain.db") >"$work/chaingen.log" 2>&1 ||
    { tail -5 "$work/chaingen.log"; fail "chaingen failed (log $work/chaingen.log)"; }
  rm -rf "$chain.db"
fi

out="$work/geth-import-vm/import.ftr"
mkdir -p "$(dirname "$out")"
start=$(date +%s)
rc=0
"$vm_repo/tools/vm/run_import_capture_vm.sh" --out "$out" --chain "$chain" --scale 1024 --timeout 600 \
  --ftlsim "$ftlsim" --force -- --f2fs-discard-idle 0 >"$work/geth-import-vm/run.log" 2>&1 || rc=$?
echo "VM run: $(( $(date +%s) - start )) s, exit $rc (log: $work/geth-import-vm/run.log)"
[ "$rc" = 0 ] || { tail -n 40 "$work/geth-import-vm/run.log"; fail "run_import_capture_vm.sh exited $rc"; }
base="${out%.ftr}"

grep -q 'hinttrace: [0-9]* records, 0 lost' "$work/geth-import-vm/run.log" || fail "hint records lost"
python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); sys.exit(m["lost_block_events"] != 0)' "$base.capture.json" ||
  fail "block-trace events were lost"
pass "captured geth import of $blocks blocks on F2FS in the VM"

"$ftlsim" info --json "$out" >"$base.info.json"
checks="$vm_repo/tests/capture/geth_trace_checks.py"
# IDs 1-5 against the wrapper (the freezer's ID 6 left out of the comparison)
python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); s["ids"]=[e for e in s["ids"] if e["id"] != 6]
json.dump(s, open(sys.argv[2], "w"))' "$base.fdp_stats.json" "$base.stats-1-5.json"
python3 "$checks" ids "$base.stats-1-5.json" "$base.info.json" --range --require 1,2,3,4,5 ||
  fail "trace does not match the wrapper's counts"
python3 - "$base.info.json" <<'PY' || fail "a tier carries no bytes"
import json, sys
by = {p["pid"]: p["write_bytes"] for p in json.load(open(sys.argv[1]))["pids"]}
missing = [i for i in range(1, 7) if not by.get(i)]
assert not missing, f"no bytes in placement IDs {missing}: {by}"
PY
pass "every tier present; bytes per placement ID 1-5 within the wrapper's bytes .. pages (1% either side)"
python3 "$checks" markers "$out" "$base.info.json" 1 "$blocks" || fail "markers"
pass "one marker per imported block, in order"

python3 - "$base.capture.json" "$base.run.json" "$(cd "$chain" && pwd)" <<'PY' || fail "capture metadata"
import json, sys
m = json.load(open(sys.argv[1]))
assert m["filesystem"] == "f2fs" and "discard" in m["mount_options"].split(","), m
r = json.load(open(sys.argv[2]))
assert r["filesystem"] == "f2fs" and r["ids_from"] == "inode" and r["last_block"] == 300, r
assert r["f2fs_discard_idle_interval_s"] == 0, r
assert r["chain_dir"] == sys.argv[3] and r["chain_dir_in_guest"] == "/run/chain", r
PY
pass "metadata names the file system"
python3 - "$base.info.json" <<'PY' || fail "F2FS's discards are not in the trace"
import json, sys
info = json.load(open(sys.argv[1]))
trims = {p["pid"]: p["trim_bytes"] for p in info["pids"] if p.get("trim_bytes")}
assert trims and set(trims) == {0}, f"trim bytes per placement ID: {trims}"
print(f"  {trims[0]} bytes trimmed")
PY
pass "F2FS's discards are trims in the trace"
echo "vm geth import test: all checks passed"
