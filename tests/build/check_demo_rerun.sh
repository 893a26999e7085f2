#!/usr/bin/env bash
# check_demo_rerun.sh SOURCE_DIR FTLSIM_BINARY SCRATCH_PARENT: the ftlsim
# commands of `make demo` (as `make -n demo` prints them) run in a scratch
# folder over results of another configuration, written there first by the
# same commands with another --gc-thres-high: they must succeed and replace
# them. Results are keyed by the configuration and the build's sources, so a
# `make demo` after any source change (a `git pull`) was refused: "holds
# results written by ftlsim ... whose numbers may differ from this build's".
# (The results cannot be made another build's by editing them: a run
# replaces only files its folder's manifest proves unchanged.)
set -euo pipefail
src="$(cd "${1:?usage: check_demo_rerun.sh SOURCE_DIR FTLSIM_BINARY SCRATCH_PARENT}" && pwd)"
bin="$(realpath "${2:?usage: check_demo_rerun.sh SOURCE_DIR FTLSIM_BINARY SCRATCH_PARENT}")"
parent="${3:?usage: check_demo_rerun.sh SOURCE_DIR FTLSIM_BINARY SCRATCH_PARENT}"
fail() { echo "check_demo_rerun: FAIL: $*"; exit 1; }
mkdir -p "$parent"
scratch="$(mktemp -d "$parent/demo-rerun.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT

# The recipe's lines that run ftlsim (continuation lines joined), not the
# install and build steps before them.
recipe="$(make -s -n -C "$src" --no-print-directory demo)"
commands="$(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' <<<"$recipe" |
  awk '/^\.\/ftlsim |^tools\/study_decomposition\.sh /')"
[ "$(wc -l <<<"$commands")" -ge 2 ] || fail "make -n demo shows no ftlsim commands: $recipe"

ln -s "$src/traces" "$src/tools" "$scratch/"
ln -s "$bin" "$scratch/ftlsim"
cd "$scratch"
run_demo() {  # run_demo WHAT COMMANDS
  local out
  out="$(bash -euo pipefail -c "$2" 2>&1)" || fail "$1: $out"
}
[[ "$commands" == *"--gc-thres-high 80 "* ]] || fail "the demo's commands no longer give --gc-thres-high 80: $commands"
other="${commands//--gc-thres-high 80 /--gc-thres-high 85 }"
run_demo "another configuration first" "$other"
key_before="$(grep -o '"config_key": "[0-9a-f]*"' build/demo-out/study/a/summary.json)"
run_demo "make demo over it" "$commands"
key_after="$(grep -o '"config_key": "[0-9a-f]*"' build/demo-out/study/a/summary.json)"
[ "$key_before" != "$key_after" ] || fail "the demo's results were not replaced ($key_after)"
echo "check_demo_rerun: ok (make demo's commands replaced another configuration's results)"
