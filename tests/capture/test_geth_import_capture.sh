#!/usr/bin/env bash
# End to end through a real `geth import`: tools/geth_patch/run_import_capture.sh
# (chaingen chain -> patched geth v1.14.8 init + import in 3 processes, the
# study's Pebble settings at 1/128 scale, ext4 with discard on a loop device,
# capture_blktrace.sh --hints --markers). Checks:
#   1. every tier carries bytes: WAL 1, flush 2, L0 compaction 3, mid-level
#      compaction 4, deep 5, freezer 6; for 1-5 the bytes per placement ID
#      in the .ftr equal the wrapper's own count of the 4 KiB pages written
#      (page_bytes) within 1%; the freezer (written and synced by geth
#      itself, each sync rewriting a partial page) carries at least its
#      growth;
#   2. one marker per imported block, 1..BLOCKS, in order and in time order
#      among the requests;
#   3. the capture metadata names the file system (ext4, discard).
# The first run builds patched geth (minutes; cached in
# ~/.cache/ftlsim/geth_import, or GETH_IMPORT_WORK). GETH_IMPORT_VERSION picks
# the geth version (default v1.14.8, the study's; v1.16.9 passes too).
#
# usage: test_geth_import_capture.sh FTLSIM_BINARY
# Exit 77 (ctest SKIP_RETURN_CODE) without root, loop devices, Go or the BPF
# build tools (run_import_capture.sh --skip-missing says which).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
ftlsim="${1:?usage: test_geth_import_capture.sh FTLSIM_BINARY}"
# 1200 light blocks in 3 imports: the freezer (threshold 90000/128 = 703
# blocks) moves blocks to ancient files when the third geth process starts.
blocks=1200

fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }

. "$here/../common/scratch_loop.sh"
scratch_setup geth-import
work_opt=()
[ -n "${GETH_IMPORT_WORK:-}" ] && work_opt=(--work "$GETH_IMPORT_WORK")
set +e
FTLSIM="$ftlsim" "$repo/tools/geth_patch/run_import_capture.sh" --skip-missing "${work_opt[@]}" \
  --geth "${GETH_IMPORT_VERSION:-v1.14.8}" --out "$tmp/import.ftr" --blocks "$blocks" --chunks 3 --seed 1 \
  --chaingen "--txs 10 --genesis-accounts 2000" >"$tmp/run.out" 2>"$tmp/run.err"
rc=$?
set -e
if [ "$rc" = 77 ]; then cat "$tmp/run.out"; exit 77; fi
[ "$rc" = 0 ] || { tail -30 "$tmp/run.err"; fail "run_import_capture.sh exited $rc"; }
# On failure, keep the run's files for a look (FTLSIM_KEEP_FAILED=DIR).
passed=0
keep_failed() {
  if [ "$passed" = 0 ] && [ -n "${FTLSIM_KEEP_FAILED:-}" ] && mkdir -p "$FTLSIM_KEEP_FAILED"; then
    cp "$tmp"/import.* "$tmp"/run.* "$FTLSIM_KEEP_FAILED"/ 2>/dev/null
    echo "kept the failed run's files in $FTLSIM_KEEP_FAILED" >&2
  fi
  return 0
}
trap 'keep_failed; scratch_cleanup' EXIT
grep -q 'hinttrace: [0-9]* records, 0 lost' "$tmp/run.err" || { tail -30 "$tmp/run.err"; fail "hint records lost"; }
python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); sys.exit(m["lost_block_events"] != 0)' "$tmp/import.capture.json" ||
  fail "block-trace events were lost (trace buffer overrun; $(grep -o '"lost_block_events": [0-9]*' "$tmp/import.capture.json"))"
pass "captured geth import of $blocks blocks"

"$ftlsim" info --json "$tmp/import.ftr" >"$tmp/info.json"
checks="$here/geth_trace_checks.py"
python3 "$checks" ids "$tmp/import.fdp_stats.json" "$tmp/info.json" --pages --at-least 6 --require 1,2,3,4,5,6 ||
  fail "trace does not match the wrapper's counts, or a tier is missing"
pass "every tier present; bytes per placement ID within 1% of the wrapper's counts"
python3 "$checks" markers "$tmp/import.ftr" "$tmp/info.json" 1 "$blocks" || fail "markers"
pass "one marker per imported block, in order"

python3 - "$tmp/import.capture.json" "$tmp/import.run.json" "$blocks" <<'PY' || fail "capture metadata"
import json, sys
m = json.load(open(sys.argv[1]))
assert m["filesystem"] == "ext4" and "discard" in m["mount_options"].split(","), m
r = json.load(open(sys.argv[2]))
assert r["filesystem"] == "ext4" and r["mount_options"] == m["mount_options"], r
assert (r["first_block"], r["last_block"], r["chunks"]) == (1, int(sys.argv[3]), 3), r
assert r["f2fs_discard_idle_interval_s"] is None and r["compact_after_import"] is False, r
assert r["fs_used_kib_at_end"] + r["fs_avail_kib_at_end"] <= r["fs_size_kib"], r
PY
pass "metadata names the file system; run.json records the run"
passed=1
echo "geth import capture test: all checks passed"
