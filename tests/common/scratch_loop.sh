# Sourced by the root-only shell tests that use a loop device.
# scratch_setup NAME: a scratch folder $tmp (mktemp, named after NAME), $mnt
# inside it for a mount point, $loop (empty until the test attaches a
# device) and the array scratch_loops (more loop devices a test attaches);
# on exit everything is unmounted, detached (the array's last first) and
# removed, whether the test passed, failed or was interrupted.
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
