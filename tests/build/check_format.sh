#!/usr/bin/env bash
# check_format.sh [ROOT]: every C++ file of ROOT's src/, tests/ and bench/
# (default: this repository) is formatted as ROOT/.clang-format says; fails
# listing those that are not (tools/format.sh formats them). Skipped (exit
# 77) without clang-format 14. Run by ctest (tests/CMakeLists.txt: format,
# label unit).
set -euo pipefail
root="${1:-$(dirname "$0")/../..}"
exec "$root/tools/format.sh" --check "$root"
