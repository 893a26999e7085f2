#include "replay/nvme_device.h"

#include <fmt/format.h>
#include <libnvme.h>
#include <linux/nvme_ioctl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "replay/nvme_cmd.h"

namespace ftlsim::replay {
namespace {

// libnvme returns -1 with errno, or the NVMe status (> 0) of a command that
// completed with an error.
std::string nvme_failure(int rc, const char* what) {
  if (rc < 0) return fmt::format("{}: {}", what, std::strerror(errno));
  return fmt::format("{}: NVMe status {:#x}", what, rc);
}

// The kernel caps one passthrough command at the block queue's
// max_hw_sectors_kb; /dev/ngXnY shares the queue limits of /dev/nvmeXnY.
uint32_t max_transfer_bytes(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  uint32_t kib = 128;
  if (name.rfind("ng", 0) == 0) {
    std::ifstream in("/sys/block/nvme" + name.substr(2) + "/queue/max_hw_sectors_kb");
    uint32_t v = 0;
    if (in >> v && v >= 4) kib = v;
  }
  return kib * 1024;
}

}  // namespace

void check_nvme_char_path(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    throw InputError(
        say("`placement` nvme: {}: {} (NVMe generic character devices are /dev/ngXnY; "
            "this machine has {})",
            path, std::strerror(errno), std::filesystem::exists("/dev/ng0n1") ? "/dev/ng0n1" : "none"));
  }
  check_nvme_char_node(path, st);
}

void check_nvme_char_node(const std::string& path, const struct stat& st) {
  if (S_ISBLK(st.st_mode)) {
    const std::string name = std::filesystem::path(path).filename().string();
    throw InputError(
        say("`placement` nvme: {} is a block device; passthrough needs the namespace's generic "
            "character device{}",
            path, name.rfind("nvme", 0) == 0 ? fmt::format(" /dev/ng{}", name.substr(4)) : std::string(" /dev/ngXnY")));
  }
  if (!S_ISCHR(st.st_mode)) {
    throw InputError(
        say("`placement` nvme: {} is not a character device; give the namespace's generic "
            "character device /dev/ngXnY",
            path));
  }
}

NvmeNamespace probe_nvme_namespace(int fd, const std::string& path) {
  NvmeNamespace ns;
  const int id = ::ioctl(fd, NVME_IOCTL_ID);
  if (id <= 0) {
    throw InputError(say("`placement` nvme: {} is not an NVMe namespace (NVME_IOCTL_ID: {})", path,
                         id < 0 ? std::strerror(errno) : "no namespace ID"));
  }
  ns.nsid = static_cast<uint32_t>(id);
  nvme_id_ns idns;
  std::memset(&idns, 0, sizeof idns);
  if (const int rc = nvme_identify_ns(fd, ns.nsid, &idns); rc != 0) {
    throw SystemError(fmt::format("{}: {}", path, nvme_failure(rc, "Identify Namespace")));
  }
  unsigned format = idns.flbas & NVME_NS_FLBAS_LOWER_MASK;
  if (idns.nlbaf > 16) format |= static_cast<unsigned>((idns.flbas & NVME_NS_FLBAS_HIGHER_MASK) >> 5) << 4;
  const unsigned ds = idns.lbaf[format].ds;
  if (ds < 9 || ds > 16) {
    throw InputError(
        fmt::format("{}: LBA format {} has a data size of 2^{} bytes; only 512 B to 64 KiB are "
                    "supported",
                    path, format, ds));
  }
  ns.lba_bytes = 1u << ds;
  ns.lbas = idns.nsze;
  ns.endurance_group = idns.endgid;
  nvme_id_ctrl ctrl;
  std::memset(&ctrl, 0, sizeof ctrl);
  if (const int rc = nvme_identify_ctrl(fd, &ctrl); rc != 0) {
    throw SystemError(fmt::format("{}: {}", path, nvme_failure(rc, "Identify Controller")));
  }
  ns.ctratt = ctrl.ctratt;
  ns.dsm_supported = (ctrl.oncs & NVME_CTRL_ONCS_DSM) != 0;
  ns.max_transfer_bytes = max_transfer_bytes(path);
  return ns;
}

NvmeFdp probe_nvme_fdp(int fd, const std::string& path, const NvmeNamespace& ns) {
  NvmeFdp out;
  if ((ns.ctratt & nvme_fdp::kCtrattFdpSupported) != 0) {
    uint32_t dw0 = 0;
    nvme_get_features_args args;
    std::memset(&args, 0, sizeof args);
    args.result = &dw0;
    args.args_size = sizeof args;
    args.fd = fd;
    args.timeout = NVME_DEFAULT_IOCTL_TIMEOUT;
    args.nsid = 0;
    args.sel = NVME_GET_FEATURES_SEL_CURRENT;
    args.cdw11 = ns.endurance_group;
    args.fid = NVME_FEAT_FID_FDP;
    if (const int rc = nvme_get_features(&args); rc != 0) {
      throw SystemError(fmt::format("{}: {}", path, nvme_failure(rc, "Get Features FDP (0x1D)")));
    }
    out.feature = nvme_fdp::parse_fdp_feature(dw0);
  }
  std::vector<nvme_fdp::Configuration> configs;
  if (out.feature.enabled) {
    std::vector<uint8_t> header(sizeof(nvme_fdp_config_log));
    if (const int rc = nvme_get_log_fdp_configurations(fd, ns.endurance_group, 0, static_cast<uint32_t>(header.size()),
                                                       header.data());
        rc != 0) {
      throw SystemError(fmt::format("{}: {}", path, nvme_failure(rc, "FDP configurations log (0x20)")));
    }
    uint32_t size = 0;
    std::memcpy(&size, header.data() + offsetof(nvme_fdp_config_log, size), 4);
    if (size < header.size() || size > (1u << 20)) {
      throw InputError(fmt::format("{}: FDP configurations log reports {} bytes", path, size));
    }
    std::vector<uint8_t> page(size);
    if (const int rc = nvme_get_log_fdp_configurations(fd, ns.endurance_group, 0, size, page.data()); rc != 0) {
      throw SystemError(fmt::format("{}: {}", path, nvme_failure(rc, "FDP configurations log (0x20)")));
    }
    configs = nvme_fdp::parse_configurations(page, path);
  }
  if (const Message why = nvme_fdp::fdp_refusal(ns.ctratt, out.feature, configs); !why.empty()) {
    throw InputError(say("`placement` nvme: {}: ", path) + why);
  }
  out.config = configs[out.feature.config_index];

  out.ruh_status = read_ruh_status(fd, path, ns.nsid);
  if (out.ruh_status.empty()) {
    throw InputError(
        say("`placement` nvme: {}: the namespace reports no reclaim unit handles (RUH status "
            "is empty)",
            path));
  }
  return out;
}

nvme_fdp::Statistics read_fdp_statistics(int fd, const std::string& path, uint16_t endurance_group) {
  std::vector<uint8_t> page(sizeof(nvme_fdp_stats_log));
  if (const int rc = nvme_get_log_fdp_stats(fd, endurance_group, 0, static_cast<uint32_t>(page.size()), page.data());
      rc != 0) {
    throw SystemError(fmt::format("{}: {}", path, nvme_failure(rc, "FDP statistics log (0x22)")));
  }
  return nvme_fdp::parse_statistics(page, path);
}

std::vector<nvme_fdp::RuhStatus> read_ruh_status(int fd, const std::string& path, uint32_t nsid) {
  // The header first, then exactly the descriptors it announces: the kernel
  // sends passthrough commands with SGLs where the controller has them, and
  // a controller without "SGL longer than the data" support (SGLS bit 16;
  // QEMU's) fails a buffer larger than the data with Data SGL Length
  // Invalid (status 0x400f).
  const auto read = [&](std::vector<uint8_t>& data) {
    if (const int rc = nvme_fdp_reclaim_unit_handle_status(fd, nsid, static_cast<uint32_t>(data.size()), data.data());
        rc != 0) {
      throw SystemError(fmt::format("{}: {}", path, nvme_failure(rc, "I/O Management Receive: RUH status (0x12)")));
    }
  };
  std::vector<uint8_t> data(sizeof(nvme_fdp_ruh_status));
  read(data);
  uint16_t n = 0;
  std::memcpy(&n, data.data() + offsetof(nvme_fdp_ruh_status, nruhsd), 2);
  if (n == 0) return {};
  data.assign(sizeof(nvme_fdp_ruh_status) + size_t{n} * sizeof(nvme_fdp_ruh_status_desc), 0);
  read(data);
  return nvme_fdp::parse_ruh_status(data, path);
}

std::vector<nvme_fdp::Event> read_fdp_events(int fd, const std::string& path, uint16_t endurance_group,
                                             bool host_events) {
  std::vector<uint8_t> page(sizeof(nvme_fdp_events_log));
  if (const int rc =
          nvme_get_log_fdp_events(fd, endurance_group, host_events, 0, static_cast<uint32_t>(page.size()), page.data());
      rc != 0) {
    throw SystemError(fmt::format("{}: {}", path, nvme_failure(rc, "FDP events log (0x23)")));
  }
  return nvme_fdp::parse_events(page, path);
}

void update_ruhs(int fd, const std::string& path, uint32_t nsid, const std::vector<uint16_t>& pids) {
  if (pids.empty()) return;
  const nvme_uring_cmd u = nvme::ruh_update_cmd(nsid, pids.data(), static_cast<uint32_t>(pids.size()));
  nvme_passthru_cmd c;
  std::memset(&c, 0, sizeof c);
  c.opcode = u.opcode;
  c.nsid = u.nsid;
  c.addr = u.addr;
  c.data_len = u.data_len;
  c.cdw10 = u.cdw10;
  c.cdw11 = u.cdw11;
  c.cdw12 = u.cdw12;
  c.cdw13 = u.cdw13;
  const int rc = ::ioctl(fd, NVME_IOCTL_IO_CMD, &c);
  if (rc != 0) {
    throw SystemError(fmt::format("{}: {}", path, nvme_failure(rc, "I/O Management Send: RUH Update (0x1D)")));
  }
}

}  // namespace ftlsim::replay
