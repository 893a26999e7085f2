#!/usr/bin/env bash
# The long fuzzing campaign behind the executions reported in
# docs/bad_input.md: every target of a `fuzz` build, one at a time (-jobs is
# never used), in rounds of SLICE seconds, until each has run RUNS
# executions in total. Each target keeps its corpus between rounds in
# BUILD_DIR/fuzz-campaign/<target>/ and its total in <target>.total (summed
# from libFuzzer's stat::number_of_executed_units), so the campaign can be
# stopped and started again. A finding stops that target (its artifact is
# left in BUILD_DIR/fuzz-campaign/); the others go on.
#
#   tests/fuzz/campaign.sh BUILD_DIR [RUNS [SLICE]]     defaults: 10000000, 600
set -uo pipefail

build=${1:?usage: campaign.sh BUILD_DIR [RUNS [SLICE]]}
runs=${2:-10000000}
slice=${3:-600}
here=$(cd "$(dirname "$0")" && pwd)
# One target per seed-corpus folder (as tests/fuzz/CMakeLists.txt builds them).
mapfile -t targets < <(cd "$here/corpus" && ls -d -- */ | tr -d /)
work="$build/fuzz-campaign"
mkdir -p "$work"

while true; do
  pending=0
  for t in "${targets[@]}"; do
    total=$(cat "$work/$t.total" 2>/dev/null || echo 0)
    [ -e "$work/$t.finding" ] && continue
    [ "$total" -ge "$runs" ] && continue
    pending=1
    mkdir -p "$work/$t"
    log="$work/$t.$(date +%s).log"
    "$build/tests/fuzz/fuzz_$t" -max_len=512 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      "-artifact_prefix=$work/$t-" "-max_total_time=$slice" "-runs=$((runs - total))" \
      "$work/$t" "$here/corpus/$t" >"$log" 2>&1
    rc=$?
    done_now=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    echo "$((total + ${done_now:-0}))" >"$work/$t.total"
    echo "campaign: $t: +${done_now:-0} -> $((total + ${done_now:-0})) executions (rc $rc)"
    if [ $rc -ne 0 ]; then
      echo "$log" >"$work/$t.finding"
      echo "campaign: $t: FINDING, see $log" >&2
    fi
  done
  [ $pending -eq 0 ] && break
done
echo "campaign: done"
for t in "${targets[@]}"; do
  echo "$t $(cat "$work/$t.total" 2>/dev/null || echo 0)$([ -e "$work/$t.finding" ] && echo ' FINDING')"
done
