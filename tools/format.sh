#!/usr/bin/env bash
# format.sh [--check] [ROOT]: formats every C++ file (*.h, *.cpp) under
# ROOT's src/, tests/ and bench/ in place, with the style of ROOT/.clang-format
# (ROOT: this repository). With --check nothing is changed: it lists the
# files clang-format would change and exits 1 (0 when there are none).
#
# clang-format 14 only (Debian 12's clang-format-14, tools/install_deps.sh
# format; or $CLANG_FORMAT): another version formats some lines differently.
# Without it, --check exits 77, which ctest reports as skipped, and a
# reformat exits 2.
set -euo pipefail
check=0
if [ "${1:-}" = "--check" ]; then
  check=1
  shift
fi
root="$(cd "${1:-$(dirname "$0")/..}" && pwd)"

no_tool=2
[ "$check" = 1 ] && no_tool=77
cf="${CLANG_FORMAT:-}"
if [ -z "$cf" ]; then
  for c in clang-format-14 clang-format; do
    if command -v "$c" >/dev/null 2>&1 && grep -q "version 14\." <<<"$("$c" --version)"; then
      cf="$c"
      break
    fi
  done
fi
if [ -z "$cf" ]; then
  echo "format.sh: skipped: no clang-format 14 (install it with tools/install_deps.sh format)" >&2
  exit "$no_tool"
fi
if [ ! -f "$root/.clang-format" ]; then
  echo "format.sh: $root/.clang-format is missing" >&2
  exit 2
fi

files=()
while IFS= read -r -d '' f; do files+=("$f"); done < <(
  cd "$root" && find src tests bench -type f \( -name '*.h' -o -name '*.cpp' \) -print0 | sort -z)
if [ ${#files[@]} -eq 0 ]; then
  echo "format.sh: no C++ files under $root/src, tests or bench" >&2
  exit 2
fi
cd "$root"

if [ "$check" = 0 ]; then
  "$cf" -i --style=file "${files[@]}"
  echo "format.sh: formatted ${#files[@]} files with $("$cf" --version)"
  exit 0
fi

# --dry-run --Werror reports each place as "FILE:LINE:COL: error: code should
# be clang-formatted"; any other failure (a bad .clang-format) is an error.
set +e
out="$("$cf" --dry-run --Werror --style=file "${files[@]}" 2>&1)"
rc=$?
set -e
bad="$(printf '%s\n' "$out" | sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u)"
if [ -n "$bad" ]; then
  echo "format.sh: $(printf '%s\n' "$bad" | wc -l) of ${#files[@]} files are not formatted as .clang-format says (run tools/format.sh):"
  printf '%s\n' "$bad" | sed 's/^/  /'
  exit 1
fi
if [ "$rc" -ne 0 ]; then
  printf 'format.sh: %s failed:\n%s\n' "$cf" "$out" >&2
  exit 2
fi
echo "format.sh: ${#files[@]} files formatted as .clang-format says"
