#!/usr/bin/env bash
# check_sim_only.sh SIM_ONLY_BINARY FULL_BINARY: the simulator built without
# live replay (FTLSIM_REPLAY=OFF, as the CMake preset sim-only builds it; the
# release tree's src/cli/sim-only/ftlsim links the same objects that way)
# links none of liburing, libnvme and libblkid, simulates exactly as the
# full build does, and refuses `replay` with one line before creating its
# target. Run by `make test` (Makefile target sim-only-check).
set -euo pipefail
cd "$(dirname "$0")/../.."
sim="${1:?usage: check_sim_only.sh SIM_ONLY_BINARY FULL_BINARY}" full="${2:?usage: check_sim_only.sh SIM_ONLY_BINARY FULL_BINARY}"
fail() { echo "check_sim_only: FAIL: $*" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# 1. No replay library among the binary's dynamic dependencies (the full
#    build must show them, or the check would pass vacuously). ldd's output
#    is read whole first: piped into `grep -q`, which leaves at the first
#    match, ldd (one write per line) could get SIGPIPE, and pipefail would
#    fail the check on a busy machine (it did, in CI).
full_libs="$(ldd "$full")" || fail "ldd $full failed"
sim_libs="$(ldd "$sim")" || fail "ldd $sim failed"
grep -q 'liburing' <<<"$full_libs" || fail "$full does not link liburing: the comparison below means nothing"
if grep -E 'liburing|libnvme|libblkid' <<<"$sim_libs"; then fail "$sim links a replay library"; fi

# 2. The same numbers as the full build: a comparison of single and FDP and
#    a timed run, every line but the run-time ones equal.
strip_times() { grep -v -E '^simulated +in |^wrote ' "$1"; }
same_output() {
  "$sim" "$@" >"$tmp/sim.txt" 2>&1 || fail "sim-only: ftlsim $* failed: $(tail -1 "$tmp/sim.txt")"
  "$full" "$@" >"$tmp/full.txt" 2>&1 || fail "full: ftlsim $* failed: $(tail -1 "$tmp/full.txt")"
  [ "$(strip_times "$tmp/sim.txt" | wc -l)" -gt 3 ] || fail "ftlsim $* printed almost nothing"
  diff <(strip_times "$tmp/sim.txt") <(strip_times "$tmp/full.txt") >&2 || fail "sim-only and full builds differ on: ftlsim $*"
}
same_output compare --trace traces/geth-ethstate.ftr --preset femu-eth-512m --gc-thres 60 \
  --a "--placement single" --b "--placement fdp"
same_output --trace traces/demo.ftr --logical 12G --timing --qd 8

# 3. `replay` refuses in one line, exit 1, and creates nothing.
rc=0
"$sim" replay --trace traces/demo.ftr --target "$tmp/target.img" --create 64M >"$tmp/out.txt" 2>"$tmp/err.txt" || rc=$?
[ "$rc" -eq 1 ] || fail "replay exited $rc, not 1"
[ "$(wc -l <"$tmp/err.txt")" -eq 1 ] || fail "replay's error is not one line: $(cat "$tmp/err.txt")"
grep -q 'built without live replay' "$tmp/err.txt" || fail "replay's error does not say why: $(cat "$tmp/err.txt")"
[ ! -e "$tmp/target.img" ] || fail "replay created its target"
[ ! -s "$tmp/out.txt" ] || fail "replay wrote to stdout"
echo "check_sim_only: ok (no replay libraries linked, same results as the full build, replay refused)"
