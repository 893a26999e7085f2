// Safety probes of block devices (src/replay/device_safety.h): /proc
// parsing and the sysfs walk on a fixture tree. Signatures (libblkid) and
// regular-file targets: test_target_safety.cpp.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "cli/cli_run.h"
#include "replay/device_safety.h"

namespace fs = std::filesystem;
using Catch::Contains;
using ftlsim::test::put;

namespace {}  // namespace

TEST_CASE("mountinfo and swaps parsing", "[replay][unit]") {
  const std::string mountinfo =
      "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
      "40 22 7:0 / /mnt/a rw,relatime shared:2 - ext4 /dev/loop0 rw\n"
      "41 22 7:0 /sub /mnt/b rw shared:3 - ext4 /dev/loop0 rw\n"
      "42 22 7:1 / /mnt/c rw shared:4 - xfs /dev/loop1 rw\n";
  CHECK(ftlsim::replay::mounts_of(mountinfo, 7, 0) == std::vector<std::string>{"/mnt/a", "/mnt/b"});
  CHECK(ftlsim::replay::mounts_of(mountinfo, 7, 2).empty());
  CHECK(ftlsim::replay::mounts_of(mountinfo, 254, 0) == std::vector<std::string>{"/"});
  const std::string swaps =
      "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
      "/dev/zram0                              partition\t8388604\t\t0\t\t100\n"
      "/swapfile file 1024 0 -2\n";
  CHECK(ftlsim::replay::swap_paths(swaps) == std::vector<std::string>{"/dev/zram0", "/swapfile"});
  CHECK(ftlsim::replay::swap_paths("Filename Type Size Used Priority\n").empty());
}

TEST_CASE("sysfs walk: partitions, their mounts, and holders", "[replay][unit]") {
  const ftlsim::test::TempDir tmp("replay-sysfs");
  const fs::path root = tmp.file("sys");
  const fs::path dev = fs::path(root) / "dev" / "block" / "7:3";
  ftlsim::replay::SafetyPaths paths;
  paths.sysfs = root.string();
  paths.mountinfo = tmp.file("mountinfo");
  paths.swaps = tmp.file("swaps");
  put(paths.swaps, "Filename Type Size Used Priority\n");
  put(paths.mountinfo, "22 1 254:0 / / rw - ext4 /dev/vda rw\n");
  fs::create_directories(dev / "holders");
  const std::vector<std::string> none;

  // A bare device: no findings.
  CHECK(ftlsim::replay::inspect_block_device(7, 3, "/dev/loop3", none, paths).empty());

  // Two partitions, one mounted; a device-mapper holder on the other.
  put(dev / "loop3p1" / "partition", "1\n");
  put(dev / "loop3p1" / "dev", "259:0\n");
  put(dev / "loop3p2" / "partition", "2\n");
  put(dev / "loop3p2" / "dev", "259:1\n");
  fs::create_directories(dev / "loop3p2" / "holders" / "dm-0");
  fs::create_directories(dev / "queue");  // not a partition: ignored
  put(paths.mountinfo, "22 1 254:0 / / rw - ext4 /dev/vda rw\n50 22 259:0 / /mnt/data rw - ext4 /dev/loop3p1 rw\n");
  const auto f = ftlsim::replay::inspect_block_device(7, 3, "/dev/loop3", none, paths);
  REQUIRE(f.size() == 3);
  CHECK_THAT(f[0], Contains("has 2 partition(s): loop3p1, loop3p2"));
  CHECK_THAT(f[1], Contains("partition loop3p1 is mounted at /mnt/data"));
  CHECK_THAT(f[2], Contains("partition loop3p2 is held by dm-0"));

  // The device itself mounted and held, plus a signature.
  fs::remove_all(dev / "loop3p1");
  fs::remove_all(dev / "loop3p2");
  fs::create_directories(dev / "holders" / "md127");
  put(paths.mountinfo, "60 22 7:3 / /mnt/whole rw - xfs /dev/loop3 rw\n");
  const std::vector<std::string> xfs = {"xfs file system signature (at byte 0)"};
  const auto g = ftlsim::replay::inspect_block_device(7, 3, "/dev/loop3", xfs, paths);
  REQUIRE(g.size() == 3);
  CHECK_THAT(g[0], Contains("/dev/loop3 is mounted at /mnt/whole"));
  CHECK_THAT(g[1], Contains("/dev/loop3 is held by md127"));
  CHECK_THAT(g[2], Contains("xfs file system signature"));
}
