#!/usr/bin/env bash
# study_decomposition.sh: the Ethereum FDP study's comparison split into what
# the host and the device each contribute (docs/geth_study.md, "The study's
# table"), from the two host-mode captures of one workload:
#
#   tools/study_decomposition.sh --nonfdp A.ftr --fdp B.ftr --out DIR
#       [--ftlsim BIN] [-- common ftlsim options...]
#
# Four runs, all with the common options (the device, its rules, --reset-at):
#   baseline  A (non-FDP host mode) with --placement single: the study's non-FDP run
#   device    A with --placement fdp: each write's tier as its placement ID,
#             the host unchanged (the device effect alone)
#   host      B (FDP host mode) with --placement single: the host's separation
#             alone, one placement on the device (the host effect alone)
#   both      B with --placement fdp: the study's FDP run
# as three `ftlsim compare --trace A --trace-b ...` runs whose side a is the
# baseline (DIR/device/, DIR/host/, DIR/both/, each with its compare.csv),
# and prints one row per run: WAF, GC copies, NAND writes (host writes + GC
# copies: the two host modes write different amounts) and GC onset with the change
# from the baseline. Every number is read from those compare.csv files.
#
# Exit: 0 done; 2 usage or an ftlsim refusal (its message is printed).
set -euo pipefail
prog=study_decomposition
die() { echo "$prog: error: $*" >&2; exit 2; }

ftlsim=./ftlsim nonfdp="" fdp="" out="" common=()
while [ $# -gt 0 ]; do
  case "$1" in
    --ftlsim) ftlsim="${2:?}"; shift 2 ;;
    --nonfdp) nonfdp="${2:?}"; shift 2 ;;
    --fdp) fdp="${2:?}"; shift 2 ;;
    --out) out="${2:?}"; shift 2 ;;
    --) shift; common=("$@"); break ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[ -n "$nonfdp" ] || die "--nonfdp A.ftr (the non-FDP host mode's capture) is required"
[ -n "$fdp" ] || die "--fdp B.ftr (the FDP host mode's capture) is required"
[ -n "$out" ] || die "--out DIR is required"
[ -x "$ftlsim" ] || die "$ftlsim is not an executable (--ftlsim BIN)"

# One compare: its name, side b's trace and side b's placement (paths may hold spaces).
compare_run() {
  "$ftlsim" compare --trace "$nonfdp" --trace-b "$2" "${common[@]}" --no-progress \
    --a "--placement single" --b "--placement $3" --out "$out/$1" >/dev/null
}
compare_run device "$nonfdp" fdp
compare_run host "$fdp" single
compare_run both "$fdp" fdp

# One row of compare.csv: the a, b and change_pct cells of `metric`.
cell() {  # cell FILE METRIC COLUMN(2=a, 3=b, 4=change)
  awk -F, -v m="$2" -v c="$3" '$1 == m { print $c; found = 1 } END { if (!found) exit 1 }' "$1" ||
    die "$1: no row '$2'"
}
bytes() {  # human-readable, as ftlsim prints sizes
  awk -v b="$1" 'BEGIN { if (b >= 2^30) printf "%.2f GiB", b / 2^30; else printf "%.2f MiB", b / 2^20 }'
}
ratio() { awk -v x="$1" 'BEGIN { printf "%.4f", x }'; }  # as ftlsim prints a WAF
change() { [ -z "$1" ] && echo "" || awk -v p="$1" 'BEGIN { printf "%+.1f%%", p }'; }
onset() {  # host bytes and marker of the GC onset, or "none"
  [ -z "$1" ] && { echo "none"; return; }
  echo "$(bytes "$1"), block ${2:--}"
}

# NAND writes = host writes + GC copies: with two host modes the host writes
# differ, so WAF alone does not compare the flash each run wears.
nand() { awk -v h="$(cell "$1" host_bytes "$2")" -v g="$(cell "$1" gc_bytes "$2")" 'BEGIN { printf "%.0f", h + g }'; }
pct() { awk -v x="$1" -v b="$2" 'BEGIN { printf "%+.1f%%", 100 * (x - b) / b }'; }

fmt='%-32s %-7s %-9s %7s %7s %11s %7s %11s %7s  %s\n'
# shellcheck disable=SC2059
printf "$fmt" run trace placement WAF change "GC copies" change "NAND writes" change "GC onset (host writes, marker)"
base="$out/device/compare.csv"
base_nand="$(nand "$base" 2)"
# shellcheck disable=SC2059
printf "$fmt" "non-FDP (the study's baseline)" nonfdp single "$(ratio "$(cell "$base" waf 2)")" "" \
  "$(bytes "$(cell "$base" gc_bytes 2)")" "" "$(bytes "$base_nand")" "" \
  "$(onset "$(cell "$base" gc_onset_host_bytes 2)" "$(cell "$base" gc_onset_marker 2)")"
names=(device host both)
labels=("device effect alone" "host effect alone" "both (the study's FDP)")
traces=(nonfdp fdp fdp)
placements=(fdp single fdp)
for i in 0 1 2; do
  f="$out/${names[$i]}/compare.csv"
  # The same baseline in every comparison (one trace, one configuration).
  [ "$(cell "$f" waf 2)" = "$(cell "$base" waf 2)" ] || die "$f: side a differs from $base"
  # shellcheck disable=SC2059
  printf "$fmt" "${labels[$i]}" "${traces[$i]}" "${placements[$i]}" "$(ratio "$(cell "$f" waf 3)")" \
    "$(change "$(cell "$f" waf 4)")" "$(bytes "$(cell "$f" gc_bytes 3)")" "$(change "$(cell "$f" gc_bytes 4)")" \
    "$(bytes "$(nand "$f" 3)")" "$(pct "$(nand "$f" 3)" "$base_nand")" \
    "$(onset "$(cell "$f" gc_onset_host_bytes 3)" "$(cell "$f" gc_onset_marker 3)")"
done
echo "wrote      $out/device/, $out/host/, $out/both/"
