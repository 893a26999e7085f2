#!/usr/bin/env bash
# check_layering.sh [ROOT]: every `#include "dir/file.h"` under ROOT/src
# (default: this repository) names a folder its own folder may use, as
# docs/architecture.md's dependency graph draws it: dependencies point down,
# never back up (sim never includes sweep/, src/trace never includes
# trace/import/, the engine never includes fdp/ or trace/). A folder missing
# from the table below fails the check: add it where the docs put it.
# Run by ctest (tests/CMakeLists.txt, label unit).
set -euo pipefail
root="${1:-$(dirname "$0")/../..}"
cd "$root/src"

# folder: the folders it may include besides itself ("*": any).
declare -A allowed=(
  [core]=""
  [trace]="core"
  [trace/import]="trace core"
  [workload]="trace core"
  [ftl]="core"
  [fdp]="ftl trace core"
  [timing]="ftl trace core"
  [sim]="timing fdp ftl trace core"
  [sweep]="sim timing fdp ftl trace core"
  [replay]="trace core"
  [cli]="*"
)
# Single headers allowed across the table: replay reads the trace's time
# stamps with timing's header-only time_scale.h, and links no model library.
declare -A allowed_file=(
  [replay]="timing/time_scale.h"
)

bad=0 checked=0
while IFS= read -r -d '' f; do
  dir="$(dirname "$f")"
  dir="${dir#./}"
  if [ -z "${allowed[$dir]+set}" ]; then
    echo "check_layering: src/$dir is not in the table of tests/build/check_layering.sh" >&2
    bad=1
    continue
  fi
  [ "${allowed[$dir]}" = "*" ] && continue
  while IFS= read -r inc; do
    checked=$((checked + 1))
    to="$(dirname "$inc")"
    [ "$to" = "$dir" ] && continue
    [ "$to" = "." ] && continue  # a header of the same folder, by its bare name
    ok=0
    for a in ${allowed[$dir]}; do [ "$to" = "$a" ] && ok=1; done
    for a in ${allowed_file[$dir]:-}; do [ "$inc" = "$a" ] && ok=1; done
    if [ "$ok" = 0 ]; then
      echo "check_layering: src/${f#./} includes \"$inc\": src/$dir may include only ${allowed[$dir]:-nothing} (docs/architecture.md)" >&2
      bad=1
    fi
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done < <(find . \( -name '*.h' -o -name '*.cpp' -o -name '*.h.in' \) -print0)

[ "$checked" -gt 100 ] || { echo "check_layering: only $checked includes found under $root/src" >&2; exit 1; }
[ "$bad" = 0 ] || exit 1
echo "check_layering: ok ($checked includes, ${#allowed[@]} folders, none upward)"
