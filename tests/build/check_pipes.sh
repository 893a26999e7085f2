#!/usr/bin/env bash
# check_pipes.sh [ROOT]: no bash script of ROOT (default: this repository)
# pipes a command into a reader that may leave before the input ends:
# `grep -q`, `grep -m`, `grep -l` or `head`. The writer then gets SIGPIPE
# if it writes after the reader left, and under `set -o pipefail` the
# pipeline fails, or not, with the machine's timing: `ldd BIN | grep -q X`
# failed 247 of 2,000 times on this 2-core machine with both cores busy,
# and once in CI (tests/build/check_sim_only.sh, stop 41). Read the output
# whole first (`grep -q X <<<"$(cmd)"`, `find ... -print -quit`). A line
# that ignores the pipeline's status (`|| true`) is allowed. Checks its own
# detector on known lines first, so that it cannot pass vacuously. Run by
# ctest (tests/CMakeLists.txt: pipes, label unit).
set -euo pipefail
root="${1:-$(dirname "$0")/../..}"
cd "$root"

# offends LINE: LINE pipes into an early-leaving reader and does not
# ignore the pipeline's status.
offends() {
  local l="${1//||/OR}"  # `||` is not a pipe
  [[ "$l" == *"OR true"* ]] && return 1
  [[ "$l" =~ \|[[:space:]]*(grep[[:space:]]([^|]*[[:space:]])?(-[a-zA-Z]*[qml][a-zA-Z0-9]*|--quiet|--silent|--max-count|--files-with-matches)([[:space:]=]|$)|head([[:space:]]|$|\))) ]]
}

for bad in 'ldd "$f" | grep -q liburing || fail x' 'x=$(find . | head -1)' 'cmd | grep -E -m1 "a"' \
  'if ! a 2>&1 | grep -qw -- "$f"; then' 'a | grep --quiet b' 'for p in $q; do grep -l c "$p"; done | head)'; do
  offends "$bad" || { echo "check_pipes: the detector misses: $bad" >&2; exit 1; }
done
for good in 'grep -q liburing <<<"$(ldd "$f")" || fail x' 'head -1 "$f" | grep -c x' 'a || grep -q b f' \
  'findmnt -n | head -1 | tr -s " " || true' 'a | grep -v b | sort' 'a | grep -E "head -1"'; do
  if offends "$good"; then echo "check_pipes: the detector flags: $good" >&2; exit 1; fi
done

bad=0 checked=0
while IFS= read -r -d '' f; do
  [ "$f" = ./tests/build/check_pipes.sh ] && continue  # its own detector's test lines
  if [[ "$f" != *.sh ]]; then
    first=""
    LC_ALL=C IFS= read -r -n 64 first <"$f" 2>/dev/null || true
    [[ "$first" == '#!'*bash* ]] || continue
  fi
  checked=$((checked + 1))
  n=0
  while IFS= read -r line; do
    n=$((n + 1))
    [[ "$line" =~ ^[[:space:]]*# ]] && continue
    if offends "$line"; then
      echo "check_pipes: $f:$n pipes into a reader that may leave early (read the output whole first): $line" >&2
      bad=1
    fi
  done <"$f"
done < <(find . \( -path ./build -o -path ./.git \) -prune -o -type f -size -256k -print0)
[ "$checked" -gt 10 ] || { echo "check_pipes: only $checked scripts found under $root" >&2; exit 1; }
[ "$bad" -eq 0 ] || exit 1
echo "check_pipes: ok ($checked bash scripts)"
