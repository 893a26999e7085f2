#!/usr/bin/env bash
# Runs every libFuzzer target of a `fuzz` build on its committed seed corpus,
# FUZZ_JOBS targets at a time (default: the number of cores), each one
# process on one core (libFuzzer's -jobs is never used), and reports them in
# target order.
#
#   tests/fuzz/smoke.sh BUILD_DIR [SECONDS_PER_TARGET [LIBFUZZER_FLAG...]]
#
# `make fuzz-smoke` runs it with 6 s per target (about 40 s in all on 2 cores);
# SECONDS_PER_TARGET 0 means no time limit (give -runs=N then). The long
# campaign of docs/bad_input.md is tests/fuzz/campaign.sh. New inputs go to a scratch corpus
# under BUILD_DIR/fuzz-work/<target> (the committed corpus is only read);
# a finding stops that target, leaves crash-*/oom-*/timeout-* in
# BUILD_DIR/fuzz-work/, and makes the script exit 1 after the other targets
# ran. Add the input to tests/fuzz/regressions/<target>/ once fixed.
set -uo pipefail

build=${1:?usage: smoke.sh BUILD_DIR [SECONDS_PER_TARGET [LIBFUZZER_FLAG...]]}
seconds=${2:-6}
shift $(( $# >= 2 ? 2 : 1 ))
here=$(cd "$(dirname "$0")" && pwd)
# One target per seed-corpus folder (as tests/fuzz/CMakeLists.txt builds them).
mapfile -t targets < <(cd "$here/corpus" && ls -d -- */ | tr -d /)
work="$build/fuzz-work"
mkdir -p "$work"

flags=(-max_len=6000 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "-artifact_prefix=$work/")
[ "$seconds" -gt 0 ] && flags+=("-max_total_time=$seconds")

jobs=${FUZZ_JOBS:-$(nproc)}
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz-smoke: FUZZ_JOBS must be a positive number, not '$jobs'" >&2; exit 2; }
for t in "${targets[@]}"; do
  exe="$build/tests/fuzz/fuzz_$t"
  if [ ! -x "$exe" ]; then
    echo "fuzz-smoke: $exe is missing (cmake --build --preset fuzz)" >&2
    exit 2
  fi
done

# One target: its log in $work/<t>.log, its exit status in $work/<t>.status.
run_target() {
  local t=$1
  mkdir -p "$work/$t"
  rm -f "$work/$t.status"
  "$build/tests/fuzz/fuzz_$t" "${flags[@]}" "${extra[@]}" "$work/$t" "$here/corpus/$t" >"$work/$t.log" 2>&1
  echo $? >"$work/$t.status"
}
extra=("$@")
running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
  run_target "$t" &
  running=$((running + 1))
done
wait

failed=()
for t in "${targets[@]}"; do
  log="$work/$t.log"
  if [ "$(cat "$work/$t.status" 2>/dev/null)" = 0 ]; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    echo "fuzz-smoke: $t: ${runs:-?} executions, no finding"
  else
    echo "fuzz-smoke: $t: FINDING (log: $log)" >&2
    grep -m 5 -E "FUZZ_CHECK|ERROR:|SUMMARY:|Test unit written" "$log" >&2 || true
    failed+=("$t")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz-smoke: findings in: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz-smoke: ${#targets[@]} targets ran without a finding"
