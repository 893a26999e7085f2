#!/usr/bin/env bash
# Runs every libFuzzer target of a `fuzz` build on its committed seed corpus,
# one after the other on one core (-jobs is never used).
#
#   tests/fuzz/smoke.sh BUILD_DIR [SECONDS_PER_TARGET [LIBFUZZER_FLAG...]]
#
# `make fuzz-smoke` runs it with 6 s per target (about a minute in all);
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

failed=()
for t in "${targets[@]}"; do
  exe="$build/tests/fuzz/fuzz_$t"
  if [ ! -x "$exe" ]; then
    echo "fuzz-smoke: $exe is missing (cmake --build --preset fuzz)" >&2
    exit 2
  fi
  mkdir -p "$work/$t"
  log="$work/$t.log"
  if "$exe" "${flags[@]}" "$@" "$work/$t" "$here/corpus/$t" >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    echo "fuzz-smoke: $t: ${runs:-?} executions, no finding"
  else
    echo "fuzz-smoke: $t: FINDING (log: $log)" >&2
    grep -E "FUZZ_CHECK|ERROR:|SUMMARY:|Test unit written" "$log" | head -5 >&2
    failed+=("$t")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz-smoke: findings in: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz-smoke: ${#targets[@]} targets ran without a finding"
