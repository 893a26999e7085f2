# Sourced by the root-only shell tests that use a loop device, first thing.
# skip WHY (exit 77, ctest's SKIP_RETURN_CODE), fail WHY, pass WHAT;
# expect_refusal NAME REGEX CMD...: CMD exits 2 with one line matching REGEX.
# scratch_setup NAME: a scratch folder $tmp (mktemp, named after NAME), $mnt
# inside it for a mount point, $loop (empty until the test attaches a
# device) and the array scratch_loops (more loop devices a test attaches);
# on exit everything is unmounted, detached (the array's last first) and
# removed, whether the test passed, failed or was interrupted.
# attach VAR FILE [losetup options]: a loop device over FILE into $VAR,
# detached on exit (scratch_loops).
# detach DEV: losetup -d DEV (no longer detached on exit: its number may be
# another test's by then), then wait (at most 10 s) until the kernel has
# released it: while another program has DEV open (udev's probe, another
# test's ftlsim reading every loop device's status) the detach is only
# deferred, the backing file stays open, and unmounting its file system
# fails as busy.
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }

expect_refusal() {
  local name="$1" pat="$2"; shift 2
  local rc=0 err
  err="$("$@" 2>&1 >/dev/null)" || rc=$?
  [ "$rc" -eq 2 ] || fail "$name: exit $rc, want 2 ($err)"
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "$name: want one line, got: $err"
  grep -qE -- "$pat" <<<"$err" || fail "$name: '$err' does not match '$pat'"
  pass "$name: $err"
}

# scratch_need_loops BINARY TOOL...: the argument is an executable (sets
# $ftlsim to its full path), the run is root, losetup, loop devices and each
# TOOL exist (/usr/sbin and /sbin searched too); else fail or skip.
scratch_need_loops() {
  [ $# -ge 1 ] && [ -x "$1" ] || fail "usage: $0 FTLSIM_BINARY"
  ftlsim="$(realpath "$1")"
  shift
  [ "$(id -u)" -eq 0 ] || skip "needs root (loop devices, mount)"
  PATH="$PATH:/usr/sbin:/sbin"
  local tool
  for tool in losetup "$@"; do command -v "$tool" >/dev/null || skip "needs $tool"; done
  [ -e /dev/loop-control ] || modprobe loop 2>/dev/null || true
  [ -e /dev/loop-control ] || skip "no loop device support (/dev/loop-control)"
}

scratch_setup() {
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/ftlsim-$1.XXXXXX")"
  loop="" mnt="$tmp/mnt"
  scratch_loops=()
  trap scratch_cleanup EXIT
}

scratch_cleanup() {
  set +e
  mountpoint -q "$mnt" && umount "$mnt"
  [ -n "$loop" ] && losetup -d "$loop"
  local i
  for ((i = ${#scratch_loops[@]} - 1; i >= 0; i--)); do losetup -d "${scratch_loops[i]}" 2>/dev/null; done
  rm -rf "$tmp"
}

attach() {
  local var="$1" file="$2" dev; shift 2
  dev="$(losetup -f --show "$@" "$file")" || skip "losetup failed"
  scratch_loops+=("$dev")
  printf -v "$var" '%s' "$dev"
}

detach() {
  losetup -d "$1" || fail "cannot detach $1"
  local i
  for i in "${!scratch_loops[@]}"; do [ "${scratch_loops[i]}" = "$1" ] && unset 'scratch_loops[i]'; done
  scratch_loops=("${scratch_loops[@]}")
  for ((i = 0; i < 1000; i++)); do
    [ -e "/sys/block/${1##*/}/loop/backing_file" ] || return 0
    sleep 0.01
  done
  fail "$1: still attached 10 s after losetup -d (held open by another program?)"
}
