#!/usr/bin/env bash
# Tests of tools/geth_patch.
#
#   ./test.sh                     go vet + go test ./... (about a minute on a warm cache)
#   GETH_PATCH_FULL=1 ./test.sh   also, for each version in GETH_VERSIONS
#                                 (default "v1.14.8 v1.16.9"): copy go-ethereum from the
#                                 Go module proxy, apply.sh, go vet ./ethdb/pebble/...,
#                                 go build ./cmd/geth (minutes each; one at a time), and a
#                                 short `geth --dev` run with GETH_FDP=1 that must leave a
#                                 stats file with WAL bytes and hinted ancient files, and
#                                 `geth init` + `geth import` of a 20-block chaingen chain
#                                 with GETH_FDP_MARKERS and GETH_PEBBLE_* set: 20 markers,
#                                 1..20, and the Pebble settings logged.
#
# GETH_PATCH_WORK: where the patched trees and binaries go (default: a temp dir,
# removed at the end unless GETH_PATCH_KEEP=1).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

command -v go >/dev/null || { echo "test.sh: go is not on PATH" >&2; exit 1; }

echo "== go vet ./..."
go vet ./...
echo "== go test ./..."
go test -count=1 ./...

[[ "${GETH_PATCH_FULL:-0}" == 1 ]] || exit 0

work="${GETH_PATCH_WORK:-}"
if [[ -z "$work" ]]; then
  work="$(mktemp -d)"
  [[ "${GETH_PATCH_KEEP:-0}" == 1 ]] || trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
go build -o "$work/gethcheck" ./cmd/gethcheck
go build -o "$work/chaingen" ./cmd/chaingen
rm -rf "$work/chain"
"$work/chaingen" --out "$work/chain" --blocks 20 --quiet --genesis-accounts 300 --token-holders 100 --txs 30

for v in ${GETH_VERSIONS:-v1.14.8 v1.16.9}; do
  src="$work/go-ethereum-$v"
  rm -rf "$src"
  echo "== $v: apply"
  ./apply.sh --fetch "$v" "$src"
  echo "== $v: go vet ./ethdb/pebble/..."
  (cd "$src" && go vet ./ethdb/pebble/...)
  echo "== $v: go build ./cmd/geth"
  start=$SECONDS
  (cd "$src" && go build -o "$work/geth-$v" ./cmd/geth)
  echo "   built in $((SECONDS - start)) s"
  echo "== $v: geth --dev with GETH_FDP=1"
  data="$work/data-$v"
  rm -rf "$data"
  set +e
  GETH_FDP=1 GETH_FDP_MODE=hints,log timeout -s INT 20 "$work/geth-$v" --dev --dev.period 1 \
    --datadir "$data" --nodiscover --maxpeers 0 --ipcdisable >"$work/geth-$v.log" 2>&1
  rc=$?
  set -e
  # timeout's 124 means geth ran until interrupted, as intended.
  [[ $rc == 0 || $rc == 124 ]] || { tail -20 "$work/geth-$v.log"; echo "test.sh: geth $v exited $rc" >&2; exit 1; }
  grep -q "FDP placement wrapper installed" "$work/geth-$v.log" ||
    { tail -20 "$work/geth-$v.log"; echo "test.sh: geth $v did not install the wrapper" >&2; exit 1; }
  "$work/gethcheck" -stats "$data/geth/chaindata/fdp_stats.json" -ancient "$data/geth/chaindata/ancient"

  echo "== $v: geth init + import of 20 chaingen blocks with GETH_FDP_MARKERS"
  imp="$work/import-$v"
  rm -rf "$imp" && mkdir -p "$imp"
  for step in init import; do
    arg="$work/chain/genesis.json"
    [ "$step" = import ] && arg="$work/chain/blocks.rlp"
    GETH_FDP=1 GETH_FDP_MARKERS="$imp/markers.txt" GETH_FDP_STATS="$imp/stats-$step.json" \
      GETH_PEBBLE_NO_COMPRESSION=1 GETH_PEBBLE_MEMTABLE_MB=16 \
      "$work/geth-$v" --datadir "$imp/data" --state.scheme hash --snapshot=false "$step" "$arg" >>"$imp/geth.log" 2>&1 ||
      { tail -20 "$imp/geth.log"; echo "test.sh: geth $v $step failed" >&2; exit 1; }
  done
  grep -q 'Pebble settings from GETH_PEBBLE_\*.*compression=none memtable=16384KiB' "$imp/geth.log" ||
    { echo "test.sh: geth $v did not log the GETH_PEBBLE_* settings" >&2; exit 1; }
  got="$(grep -v '^#' "$imp/markers.txt" | awk '{print $2}' | tr '\n' ' ')"
  [ "$got" = "$(seq 1 20 | tr '\n' ' ')" ] ||
    { echo "test.sh: geth $v import markers '$got', want 1..20" >&2; exit 1; }
  echo "   20 markers, 1..20"
done
echo "test.sh: full geth patch checks passed for ${GETH_VERSIONS:-v1.14.8 v1.16.9}"
