#pragma once
// An NVMe namespace opened through its generic character device /dev/ngXnY,
// queried with libnvme: namespace ID, LBA size and count, endurance group,
// and, for FDP placement, the FDP configuration in use, the reclaim unit
// handle status and the FDP statistics. Needs root (admin passthrough).
//
// Refusals (InputError, one line): the path is missing, is not a character
// device, is not an NVMe namespace, the controller lacks FDP or FDP is not
// enabled (fdp_log.h: fdp_refusal).
#include <sys/stat.h>

#include <cstdint>
#include <string>
#include <vector>

#include "replay/fdp_log.h"

namespace ftlsim::replay {

struct NvmeNamespace {
  uint32_t nsid = 0;
  uint32_t lba_bytes = 0;           // data size of the LBA format in use
  uint64_t lbas = 0;                // NSZE
  uint16_t endurance_group = 0;     // ENDGID (Identify Namespace)
  uint32_t ctratt = 0;              // Identify Controller CTRATT
  bool dsm_supported = false;       // Identify Controller ONCS bit 2: Dataset Management
  uint32_t max_transfer_bytes = 0;  // largest single command the kernel passes
};

struct NvmeFdp {
  nvme_fdp::FdpFeature feature;
  nvme_fdp::Configuration config;  // the configuration in use
  std::vector<nvme_fdp::RuhStatus> ruh_status;
};

// Checks that `path` can be an NVMe generic character device before it is
// opened: exists and is a character device. Throws InputError naming what
// it is instead ("/dev/nvme0n1 is a block device; use /dev/ng0n1").
void check_nvme_char_path(const std::string& path);
// The same for the node `path` names, already opened (O_PATH) and fstat'ed
// as `st`: the checks look at the node that is then opened through it.
void check_nvme_char_node(const std::string& path, const struct stat& st);

// Namespace facts of an open /dev/ngXnY. Throws InputError when `fd` is not
// an NVMe namespace, SystemError when an admin command fails.
[[nodiscard]] NvmeNamespace probe_nvme_namespace(int fd, const std::string& path);

// The FDP setup of the namespace's endurance group; throws InputError with
// fdp_refusal()'s reason when FDP placement is impossible.
[[nodiscard]] NvmeFdp probe_nvme_fdp(int fd, const std::string& path, const NvmeNamespace& ns);

// The FDP statistics log (0x22) of the endurance group.
[[nodiscard]] nvme_fdp::Statistics read_fdp_statistics(int fd, const std::string& path, uint16_t endurance_group);

// The namespace's reclaim unit handle status (I/O Management Receive 0x12).
[[nodiscard]] std::vector<nvme_fdp::RuhStatus> read_ruh_status(int fd, const std::string& path, uint32_t nsid);

// The host (or controller) events of the FDP events log (0x23).
[[nodiscard]] std::vector<nvme_fdp::Event> read_fdp_events(int fd, const std::string& path, uint16_t endurance_group,
                                                           bool host_events);

// Reclaim Unit Handle Update (I/O Management Send 0x1D) of `pids`, encoded
// by nvme::ruh_update_cmd and sent with NVME_IOCTL_IO_CMD. Throws
// SystemError with the NVMe status when the device refuses it.
void update_ruhs(int fd, const std::string& path, uint32_t nsid, const std::vector<uint16_t>& pids);

}  // namespace ftlsim::replay
