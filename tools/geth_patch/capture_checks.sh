# Sourced by run_import_capture.sh and tools/vm/run_import_capture_vm.sh: the
# checks of their arguments both make before anything is built, booted or
# written (the files a capture of OUT.ftr writes next to it, --out, --chain,
# --import-files). The sourcing script defines die().

# OUT.<suffix>: the trace, capture_blktrace.sh's metadata (and, with
# --keep-raw, its raw text and hint log), the wrapper's summed stats, the
# block markers, the run's settings and geth's log.
capture_output_suffixes=(ftr capture.json fdp_stats.json markers.txt run.json geth.log raw.txt hints.csv)

# check_capture_out OUT FORCE [EXTRA_SUFFIX...]: OUT ends in .ftr, its folder
# is writable, and none of OUT's files (with the extra suffixes) exists
# unless FORCE is 1 and it is a regular file (never a symlink or a device).
check_capture_out() {
  local out="$1" force="$2" x f
  shift 2
  case "$out" in *.ftr) ;; *) die "--out must end in .ftr" ;; esac
  local dir
  dir="$(dirname "$out")"
  [ -d "$dir" ] && [ -w "$dir" ] || die "output directory '$dir' does not exist or is not writable"
  for x in "${capture_output_suffixes[@]}" "$@"; do
    f="${out%.ftr}.$x"
    if [ -e "$f" ] || [ -L "$f" ]; then
      [ "$force" = 1 ] || die "'$f' exists; remove it or pass --force"
      [ -f "$f" ] && [ ! -L "$f" ] || die "'$f' is not a regular file; not overwriting it"
    fi
  done
}

# check_chain_dir DIR: a chaingen output directory.
check_chain_dir() {
  [ -f "$1/genesis.json" ] && [ -f "$1/chaingen.json" ] ||
    die "--chain $1 is not a chaingen output directory (genesis.json, chaingen.json)"
}

# chain_files DIR N: sets rlps to DIR's blocks-*.rlp files in order, the
# first N of them when N > 0 (--import-files).
chain_files() {
  [[ "$2" =~ ^[0-9]+$ ]] || die "--import-files must be a non-negative integer"
  rlps=("$1"/blocks-*.rlp)
  [ -e "${rlps[0]}" ] || die "no blocks-*.rlp in $1 (chaingen --file-blocks)"
  if [ "$2" -gt 0 ]; then
    [ "$2" -le "${#rlps[@]}" ] || die "--import-files $2: the chain has only ${#rlps[@]} files"
    rlps=("${rlps[@]:0:$2}")
  fi
}
