# Sourced by the root-only shell tests that use a loop device.
# scratch_setup NAME: a scratch folder $tmp (mktemp, named after NAME), $mnt
# inside it for a mount point, and $loop (empty until the test attaches a
# device); on exit everything is unmounted, detached and removed, whether
# the test passed, failed or was interrupted.
scratch_setup() {
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/ftlsim-$1.XXXXXX")"
  loop="" mnt="$tmp/mnt"
  trap scratch_cleanup EXIT
}

scratch_cleanup() {
  set +e
  mountpoint -q "$mnt" && umount "$mnt"
  [ -n "$loop" ] && losetup -d "$loop"
  rm -rf "$tmp"
}
