#!/usr/bin/env bash
# bench_build.sh [REV]: CPU time of what `make demo` compiles (the ftlsim
# target) against everything else the release preset builds (tests, test
# tools), from a fresh checkout of REV (default HEAD) in a temporary
# worktree, one after the other in the same run. CPU seconds (user + sys of
# the compiler processes) rather than wall time, since the machine is shared.
set -euo pipefail
rev="${1:-HEAD}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d /tmp/ftlsim-bench-build.XXXXXX)"
trap 'git -C "$repo" worktree remove --force "$work/src" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git -C "$repo" worktree add --detach -q "$work/src" "$rev"
cd "$work/src"
cmake --preset release >/dev/null
cpu() { /usr/bin/time -f "%U %S %e" -o "$work/t" "$@" >/dev/null; awk '{printf "%.1f %.1f\n", $1 + $2, $3}' "$work/t"; }
read -r demo_cpu demo_wall < <(cpu cmake --build --preset release -j "$(nproc)" --target ftlsim)
read -r rest_cpu rest_wall < <(cpu cmake --build --preset release -j "$(nproc)")
echo "| build | CPU s | wall s |"
echo "|---|---|---|"
echo "| ftlsim target (make demo) | $demo_cpu | $demo_wall |"
echo "| everything else (tests) | $rest_cpu | $rest_wall |"
awk -v d="$demo_cpu" -v r="$rest_cpu" 'BEGIN {printf "| make demo / all targets | %.0f%% | |\n", 100 * d / (d + r)}'
