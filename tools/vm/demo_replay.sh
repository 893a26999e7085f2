#!/usr/bin/env bash
# A guest script for tools/vm/run_vm.sh (docs/replay.md, "Replaying against
# an FDP SSD"): shows the emulated FDP SSD as nvme-cli sees it, then replays
# the shipped geth trace onto it through NVMe passthrough with placement,
# the model's prediction beside the device's counters. FDP_NG / FDP_CTRL are
# set by the guest's /init (on real hardware: /dev/ng0n1, /dev/nvme0).
set -eu
echo "# nvme fdp configs $FDP_CTRL -e 1"
nvme fdp configs "$FDP_CTRL" -e 1 | sed -n 1,7p
echo "# ftlsim replay --trace traces/geth-ethstate.ftr --target $FDP_NG --placement nvme --predict ..."
ftlsim replay --trace traces/geth-ethstate.ftr --target "$FDP_NG" --placement nvme --no-progress \
  --predict "--preset femu-eth-512m --gc-thres 60 --placement fdp"
