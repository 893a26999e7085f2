#!/usr/bin/env bash
# Apply the ftlsim FDP placement patch to a go-ethereum source tree.
#
#   apply.sh GETH_SRC_DIR            patch a writable go-ethereum tree in place
#   apply.sh --fetch VERSION DEST    copy go-ethereum@VERSION from the Go module
#                                    cache (go mod download) to DEST, then patch it
#   --build                          (either form) then run go build ./ethdb/pebble/...
#   --immutability N                 also set params.FullImmutabilityThreshold
#                                    (blocks kept in Pebble before the freezer
#                                    moves them to ancient files; upstream 90000)
#                                    to N, for scale models (docs/geth_study.md)
#
# The patch:
#   * inserts a call to OptionsHook just before pebble.Open in ethdb/pebble/pebble.go
#     (an edit to an upstream file),
#   * adds ethdb/pebble/ftlsim_fdp.go (OptionsHook + GETH_FDP* wiring),
#   * copies this module's fdpvfs package to ethdb/pebble/fdpvfs/,
#   * inserts one deferred call at the top of ImportChain in cmd/utils/cmd.go
#     and adds cmd/utils/ftlsim_markers.go (a marker per imported block with
#     GETH_FDP_MARKERS).
# It adds only this project's lines and needs no new module dependency
# (fdpvfs uses Pebble v1.1.x, golang.org/x/sys and the standard library,
# which go-ethereum already requires).
#
# Exit status: 0 patched; 2 usage; 3 the tree is not what the patch expects
# (moved code, other Pebble major version, already patched); 4 build failed.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
die() { local code=$1; shift; echo "apply.sh: error: $*" >&2; exit "$code"; }
usage() { sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }

build=0
fetch=""
immutability=""
args=()
while (($#)); do
  case "$1" in
    --build) build=1; shift ;;
    --immutability) [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]{0,8}$ ]] || { echo "apply.sh: --immutability wants a positive block count" >&2; usage; }
      immutability="$2"; shift 2 ;;
    --fetch) [[ $# -ge 3 ]] || usage; fetch="$2"; args+=("$3"); shift 3 ;;
    -h|--help) usage ;;
    -*) echo "apply.sh: unknown option $1" >&2; usage ;;
    *) args+=("$1"); shift ;;
  esac
done
[[ ${#args[@]} -eq 1 ]] || usage
src="${args[0]}"

if [[ -n "$fetch" ]]; then
  command -v go >/dev/null || die 2 "go is not on PATH (needed for --fetch)"
  [[ -e "$src" ]] && die 2 "--fetch destination $src already exists"
  echo "apply.sh: go mod download github.com/ethereum/go-ethereum@$fetch"
  dir="$(cd "$here" && go mod download -json "github.com/ethereum/go-ethereum@$fetch" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [[ -n "$dir" && -d "$dir" ]] || die 2 "go mod download did not give a source directory for $fetch"
  mkdir -p "$(dirname "$src")"
  cp -r "$dir" "$src"
  chmod -R u+w "$src"
fi

[[ -d "$src" ]] || die 2 "$src is not a directory"
src="$(cd "$src" && pwd)"
pebble_go="$src/ethdb/pebble/pebble.go"
marker="ftlsim-geth-patch"
anchor='	innerDB, err := pebble.Open(file, opt)'

# --- check that the tree is what the patch expects --------------------------
grep -qx 'module github.com/ethereum/go-ethereum' "$src/go.mod" 2>/dev/null ||
  die 3 "$src/go.mod is not go-ethereum's module"
[[ -f "$pebble_go" ]] || die 3 "ethdb/pebble/pebble.go is missing: the Pebble backend has moved"
[[ -w "$pebble_go" ]] || die 3 "$pebble_go is not writable (copy the module cache tree first, or use --fetch)"
if grep -q "$marker" "$pebble_go" || [[ -e "$src/ethdb/pebble/fdpvfs" || -e "$src/ethdb/pebble/ftlsim_fdp.go" ]]; then
  die 3 "$src is already patched"
fi
grep -Eq '^[[:space:]]github\.com/cockroachdb/pebble v1\.1\.[0-9]+' "$src/go.mod" ||
  die 3 "go.mod does not require github.com/cockroachdb/pebble v1.1.x (found: $(grep -m 1 -o 'cockroachdb/pebble[^ ]* v[^ ]*' "$src/go.mod")); fdpvfs is written for Pebble v1.1"
grep -Eq '^[[:space:]]golang\.org/x/sys v' "$src/go.mod" ||
  die 3 "go.mod does not require golang.org/x/sys"
grep -Eq '^func New\(file string, ' "$pebble_go" ||
  die 3 "func New(file string, ...) not found in ethdb/pebble/pebble.go: the constructor has changed"
grep -q '	opt := &pebble.Options{' "$pebble_go" ||
  die 3 "'opt := &pebble.Options{' not found in New: the options construction has changed"
n="$(grep -cxF "$anchor" "$pebble_go" || true)"
[[ "$n" == 1 ]] ||
  die 3 "expected exactly one line '${anchor#	}' in ethdb/pebble/pebble.go, found $n: the open call has moved"
cmd_go="$src/cmd/utils/cmd.go"
import_anchor='func ImportChain(chain *core.BlockChain, fn string) error {'
[[ -f "$cmd_go" && -w "$cmd_go" ]] || die 3 "cmd/utils/cmd.go is missing or not writable"
[[ -e "$src/cmd/utils/ftlsim_markers.go" ]] && die 3 "$src is already patched (cmd/utils/ftlsim_markers.go exists)"
n="$(grep -cxF "$import_anchor" "$cmd_go" || true)"
[[ "$n" == 1 ]] || die 3 "expected exactly one line '$import_anchor' in cmd/utils/cmd.go, found $n: ImportChain has changed"
# The chain event carries the block (v1.14) or its header (v1.15+).
events_go="$src/core/events.go"
if grep -Eq '^[[:space:]]+Header[[:space:]]+\*types\.Header' <(sed -n '/^type ChainEvent struct/,/^}/p' "$events_go" 2>/dev/null); then
  block_number='ev.Header.Number.Uint64()'
elif grep -Eq '^[[:space:]]+Block[[:space:]]+\*types\.Block' <(sed -n '/^type ChainEvent struct/,/^}/p' "$events_go" 2>/dev/null); then
  block_number='ev.Block.NumberU64()'
else
  die 3 "core/events.go: ChainEvent has neither a Header nor a Block field: the chain event has changed"
fi
netparams="$src/params/network_params.go"
if [[ -n "$immutability" ]]; then
  n="$(grep -cE '^[[:space:]]FullImmutabilityThreshold = [0-9]+$' "$netparams" 2>/dev/null || true)"
  [[ "$n" == 1 ]] || die 3 "params/network_params.go: no single 'FullImmutabilityThreshold = N' line to change"
fi

# --- edit --------------------------------------------------------------------
tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT
awk -v anchor="$anchor" '
  # Hold one line back so that the hook goes above the comment that
  # introduces the open call, if there is one.
  function hook() {
    print "\t// ftlsim-geth-patch: let OptionsHook (ftlsim_fdp.go) install the FDP"
    print "\t// placement wrapper (vfs.FS and event listener) before the open."
    print "\tif OptionsHook != nil {"
    print "\t\tif err := OptionsHook(file, opt); err != nil {"
    print "\t\t\treturn nil, err"
    print "\t\t}"
    print "\t}"
    print ""
  }
  NR > 1 && $0 == anchor {
    if (held ~ /^\t\/\//) { hook(); print held } else { print held; hook() }
    held = $0; next
  }
  NR > 1 { print held }
  { held = $0 }
  END { if (NR > 0) print held }
' "$pebble_go" >"$tmp"
[[ "$(grep -c "$marker" "$tmp")" == 1 ]] || die 3 "internal error: hook not inserted"
diff -u "$pebble_go" "$tmp" --label a/ethdb/pebble/pebble.go --label b/ethdb/pebble/pebble.go || true
cat "$tmp" >"$pebble_go"

mkdir -p "$src/ethdb/pebble/fdpvfs"
for f in "$here"/fdpvfs/*.go; do
  case "$f" in *_test.go) continue ;; esac
  cp "$f" "$src/ethdb/pebble/fdpvfs/"
done
cp "$here/geth/ftlsim_fdp.go.in" "$src/ethdb/pebble/ftlsim_fdp.go"
echo "apply.sh: added ethdb/pebble/ftlsim_fdp.go and ethdb/pebble/fdpvfs/ ($(ls "$src/ethdb/pebble/fdpvfs" | wc -l) files)"

awk -v anchor="$import_anchor" '
  { print }
  $0 == anchor {
    print "\t// ftlsim-geth-patch: a marker per imported block (ftlsim_markers.go)."
    print "\tdefer ftlsimImportMarkers(chain)()"
  }
' "$cmd_go" >"$tmp"
diff -u "$cmd_go" "$tmp" --label a/cmd/utils/cmd.go --label b/cmd/utils/cmd.go || true
cat "$tmp" >"$cmd_go"
sed "s/@BLOCK_NUMBER@/$block_number/" "$here/geth/ftlsim_markers.go.in" >"$src/cmd/utils/ftlsim_markers.go"
echo "apply.sh: added cmd/utils/ftlsim_markers.go (block number: $block_number)"

if [[ -n "$immutability" ]]; then
  sed -E "s/^([[:space:]]FullImmutabilityThreshold = )[0-9]+$/\1$immutability \/\/ ftlsim-geth-patch: scale model (upstream 90000)/" "$netparams" >"$tmp"
  diff -u "$netparams" "$tmp" --label a/params/network_params.go --label b/params/network_params.go || true
  cat "$tmp" >"$netparams"
  command -v gofmt >/dev/null && gofmt -w "$netparams"
fi

if command -v gofmt >/dev/null; then
  bad="$(gofmt -l "$src/ethdb/pebble" "$src/cmd/utils" || true)"
  [[ -z "$bad" ]] || die 3 "patched files are not gofmt-clean: $bad"
fi

if ((build)); then
  echo "apply.sh: go build ./ethdb/pebble/..."
  (cd "$src" && go build ./ethdb/pebble/... ./cmd/utils/ && go vet ./ethdb/pebble/...) || die 4 "build of the patched ethdb/pebble failed"
fi
echo "apply.sh: patched $src"
