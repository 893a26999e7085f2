// Safety probes of block devices (src/replay/device_safety.h): signature
// detection on crafted first bytes, /proc parsing, and the sysfs walk on a
// fixture tree.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "cli/cli_run.h"
#include "replay/data_pattern.h"
#include "replay/device_safety.h"

namespace fs = std::filesystem;
using ftlsim::replay::find_signatures;
using ftlsim::replay::kSignatureProbeBytes;
using Catch::Contains;

namespace {

std::vector<uint8_t> blank() { return std::vector<uint8_t>(kSignatureProbeBytes, 0); }

void put(std::vector<uint8_t>& b, size_t off, const std::string& bytes) { std::memcpy(b.data() + off, bytes.data(), bytes.size()); }

std::string one(const std::vector<uint8_t>& head) {
  const auto s = find_signatures(head);
  REQUIRE(s.size() == 1);
  return s[0];
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

}  // namespace

TEST_CASE("file-system and partition-table signatures at their on-disk offsets", "[replay][unit]") {
  CHECK(find_signatures(blank()).empty());
  {
    auto b = blank();
    put(b, 1024 + 0x38, std::string("\x53\xEF", 2));  // ext4 s_magic in the superblock at 1024
    CHECK_THAT(one(b), Contains("ext2/3/4 file system") && Contains("byte 1080"));
  }
  {
    auto b = blank();
    put(b, 0, "XFSB");
    CHECK_THAT(one(b), Contains("XFS"));
  }
  {
    auto b = blank();
    put(b, 65536 + 0x40, "_BHRfS_M");
    CHECK_THAT(one(b), Contains("btrfs"));
  }
  {
    auto b = blank();
    put(b, 4096 - 10, "SWAPSPACE2");
    CHECK_THAT(one(b), Contains("swap"));
  }
  {
    auto b = blank();
    put(b, 0, "LUKS\xBA\xBE");
    CHECK_THAT(one(b), Contains("LUKS"));
  }
  {
    auto b = blank();
    put(b, 512, "LABELONE");
    CHECK_THAT(one(b), Contains("LVM2"));
  }
  {
    auto b = blank();
    put(b, 4096, std::string("\xFC\x4E\x2B\xA9", 4));
    CHECK_THAT(one(b), Contains("md RAID"));
  }
  {
    auto b = blank();
    put(b, 32769, "CD001");
    CHECK_THAT(one(b), Contains("ISO 9660"));
  }
  {
    // A GPT disk: protective MBR (55 AA at 510) and "EFI PART" in LBA 1.
    auto b = blank();
    put(b, 510, std::string("\x55\xAA", 2));
    put(b, 512, "EFI PART");
    const auto s = find_signatures(b);
    REQUIRE(s.size() == 2);
    CHECK_THAT(s[0], Contains("GPT"));
    CHECK_THAT(s[1], Contains("DOS/MBR"));
  }
  {
    // A FAT32 boot sector is also an MBR-style boot sector.
    auto b = blank();
    put(b, 82, "FAT32   ");
    put(b, 510, std::string("\x55\xAA", 2));
    CHECK(find_signatures(b).size() == 2);
  }
  // A head shorter than a signature's offset is not searched there.
  auto b = blank();
  put(b, 65536 + 0x40, "_BHRfS_M");
  b.resize(4096);
  CHECK(find_signatures(b).empty());
}

TEST_CASE("data written by a replay carries no signature", "[replay][unit]") {
  // So a device that only ever held replay data can be replayed to again.
  std::vector<uint8_t> b(kSignatureProbeBytes);
  ftlsim::replay::fill_pattern(b);
  ftlsim::replay::stamp_pattern(b, 0, 0, 0);
  CHECK(find_signatures(b).empty());
}

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
  write(paths.swaps, "Filename Type Size Used Priority\n");
  write(paths.mountinfo, "22 1 254:0 / / rw - ext4 /dev/vda rw\n");
  fs::create_directories(dev / "holders");
  const std::vector<uint8_t> head(4096, 0);

  // A bare device: no findings.
  CHECK(ftlsim::replay::inspect_block_device(7, 3, "/dev/loop3", head, paths).empty());

  // Two partitions, one mounted; a device-mapper holder on the other.
  write(dev / "loop3p1" / "partition", "1\n");
  write(dev / "loop3p1" / "dev", "259:0\n");
  write(dev / "loop3p2" / "partition", "2\n");
  write(dev / "loop3p2" / "dev", "259:1\n");
  fs::create_directories(dev / "loop3p2" / "holders" / "dm-0");
  fs::create_directories(dev / "queue");  // not a partition: ignored
  write(paths.mountinfo, "22 1 254:0 / / rw - ext4 /dev/vda rw\n50 22 259:0 / /mnt/data rw - ext4 /dev/loop3p1 rw\n");
  const auto f = ftlsim::replay::inspect_block_device(7, 3, "/dev/loop3", head, paths);
  REQUIRE(f.size() == 3);
  CHECK_THAT(f[0], Contains("has 2 partition(s): loop3p1, loop3p2"));
  CHECK_THAT(f[1], Contains("partition loop3p1 is mounted at /mnt/data"));
  CHECK_THAT(f[2], Contains("partition loop3p2 is held by dm-0"));

  // The device itself mounted and held, plus a signature.
  fs::remove_all(dev / "loop3p1");
  fs::remove_all(dev / "loop3p2");
  fs::create_directories(dev / "holders" / "md127");
  write(paths.mountinfo, "60 22 7:3 / /mnt/whole rw - xfs /dev/loop3 rw\n");
  std::vector<uint8_t> xfs(4096, 0);
  std::memcpy(xfs.data(), "XFSB", 4);
  const auto g = ftlsim::replay::inspect_block_device(7, 3, "/dev/loop3", xfs, paths);
  REQUIRE(g.size() == 3);
  CHECK_THAT(g[0], Contains("/dev/loop3 is mounted at /mnt/whole"));
  CHECK_THAT(g[1], Contains("/dev/loop3 is held by md127"));
  CHECK_THAT(g[2], Contains("XFS"));
}
