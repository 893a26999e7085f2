// The stack of a replay target (src/replay/device_stack.h) on a fixture
// sysfs tree laid out as the kernel lays it out (devices/virtual/block/X,
// with block/X, class/block/X and dev/block/M:m linking to it): down
// through slaves, partitions and loop backing files, up to every device
// built on any of them. The same on real loop
// devices, as root: test_replay_stack_safety.sh.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli/cli_run.h"
#include "core/error.h"
#include "core/io_identity.h"
#include "replay/device_stack.h"

namespace fs = std::filesystem;
using Catch::Contains;
using ftlsim::replay::SafetyPaths;
using ftlsim::test::put;

namespace {

// A fake sysfs: devices under devices/virtual/block, linked from block/,
// class/block/ and dev/block/ as in /sys.
class FakeSysfs {
 public:
  explicit FakeSysfs(const ftlsim::test::TempDir& tmp) : root_(tmp.file("sys")) {
    paths.sysfs = root_.string();
    paths.mountinfo = tmp.file("mountinfo");
    paths.swaps = tmp.file("swaps");
    put(paths.swaps, "Filename Type Size Used Priority\n");
    put(paths.mountinfo, "");
  }
  // A whole disk (`parent` empty) or a partition of `parent`.
  void add(const std::string& name, unsigned major, unsigned minor, const std::string& parent = "") {
    const fs::path dir = parent.empty() ? root_ / "devices/virtual/block" / name
                                        : root_ / "devices/virtual/block" / parent / name;
    put(dir / "dev", std::to_string(major) + ":" + std::to_string(minor) + "\n");
    fs::create_directories(dir / "holders");
    fs::create_directories(dir / "slaves");
    if (!parent.empty()) put(dir / "partition", "1\n");
    link(dir, root_ / "class/block" / name);
    link(dir, root_ / "dev/block" / (std::to_string(major) + ":" + std::to_string(minor)));
    if (parent.empty()) link(dir, root_ / "block" / name);
  }
  void back(const std::string& loop, const std::string& file) {
    put(root_ / "devices/virtual/block" / loop / "loop/backing_file", file + "\n");
  }
  // `upper` is built on `lower` (device-mapper, md): holders/ and slaves/.
  void stack(const std::string& upper, const std::string& lower) {
    fs::create_directories(root_ / "class/block" / lower / "holders" / upper);
    fs::create_directories(root_ / "class/block" / upper / "slaves" / lower);
  }
  void mount(unsigned major, unsigned minor, const std::string& where) {
    std::ofstream(paths.mountinfo, std::ios::app)
        << "50 22 " << major << ":" << minor << " / " << where << " rw - ext4 /dev/x rw\n";
  }
  SafetyPaths paths;

 private:
  static void link(const fs::path& target, const fs::path& at) {
    fs::create_directories(at.parent_path());
    fs::create_directory_symlink(target, at);
  }
  fs::path root_;
};

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += x + "\n";
  return s;
}

}  // namespace

TEST_CASE("stack: a loop device over an input is refused, --force or not", "[replay][unit]") {
  const ftlsim::test::TempDir tmp("stack-input");
  FakeSysfs sys(tmp);
  const std::string trace = tmp.file("t.ftr");
  put(trace, "trace");
  ftlsim::RunInputs inputs;
  inputs.add("--trace", trace);
  sys.add("loop3", 7, 3);
  sys.back("loop3", trace);
  CHECK_THROWS_WITH(ftlsim::replay::check_stack_inputs(ftlsim::replay::stack_of_device(7, 3, sys.paths), inputs,
                                                       "--target /dev/loop3"),
                    Contains("stored in the input --trace " + trace));
  // Through a hard link and a renamed name: compared by inode.
  fs::create_hard_link(trace, tmp.file("hard.img"));
  sys.back("loop3", tmp.file("hard.img"));
  CHECK_THROWS_WITH(ftlsim::replay::check_stack_inputs(ftlsim::replay::stack_of_device(7, 3, sys.paths), inputs,
                                                       "--target /dev/loop3"),
                    Contains("stored in the input --trace"));
  // A partition of that loop device, and a device-mapper device on the partition.
  sys.add("loop3p1", 259, 0, "loop3");
  sys.add("dm-0", 253, 0);
  sys.stack("dm-0", "loop3p1");
  for (const auto& [maj, min] : {std::pair{259u, 0u}, std::pair{253u, 0u}}) {
    INFO(maj << ":" << min);
    const auto stack = ftlsim::replay::stack_of_device(maj, min, sys.paths);
    CHECK_THROWS_WITH(ftlsim::replay::check_stack_inputs(stack, inputs, "--target x"),
                      Contains("stored in the input --trace"));
  }
  // Another file behind it: accepted.
  put(tmp.file("other.img"), "o");
  sys.back("loop3", tmp.file("other.img"));
  CHECK_NOTHROW(ftlsim::replay::check_stack_inputs(ftlsim::replay::stack_of_device(253, 0, sys.paths), inputs, "x"));
}

TEST_CASE("stack: devices built on the same storage are checked", "[replay][unit]") {
  const ftlsim::test::TempDir tmp("stack-up");
  FakeSysfs sys(tmp);
  const std::string disk = tmp.file("disk.img");
  put(disk, "disk");
  sys.add("loop1", 7, 1);
  sys.back("loop1", disk);
  sys.add("loop2", 7, 2);  // the same file at another offset
  sys.back("loop2", disk);
  // Nothing mounted: the other loop device alone is no finding.
  CHECK(ftlsim::replay::stack_findings(ftlsim::replay::stack_of_device(7, 1, sys.paths), sys.paths).empty());

  // A file system mounted from the other loop device over the same file.
  sys.mount(7, 2, "/mnt/data");
  auto f = joined(ftlsim::replay::stack_findings(ftlsim::replay::stack_of_device(7, 1, sys.paths), sys.paths));
  CHECK_THAT(f, Contains("/dev/loop2 (a loop device over " + disk + ") is mounted at /mnt/data"));

  // Mounted through a partition of the other loop device, or through md on it.
  put(tmp.file("mountinfo"), "");
  sys.add("loop2p1", 259, 4, "loop2");
  sys.add("md0", 9, 0);
  sys.stack("md0", "loop2p1");
  sys.mount(9, 0, "/srv");
  f = joined(ftlsim::replay::stack_findings(ftlsim::replay::stack_of_device(7, 1, sys.paths), sys.paths));
  CHECK_THAT(f, Contains("/dev/md0 (built on /dev/loop2p1) is mounted at /srv"));

  // Down as well: the target is dm-1 on loop1; loop2 (same file) is in use.
  sys.add("dm-1", 253, 1);
  sys.stack("dm-1", "loop1");
  f = joined(ftlsim::replay::stack_findings(ftlsim::replay::stack_of_device(253, 1, sys.paths), sys.paths));
  CHECK_THAT(f, Contains("/dev/md0 (built on /dev/loop2p1) is mounted at /srv"));
  // ... and a sibling device-mapper device on loop1 that is mounted.
  put(tmp.file("mountinfo"), "");
  sys.add("dm-2", 253, 2);
  sys.stack("dm-2", "loop1");
  sys.mount(253, 2, "/home");
  f = joined(ftlsim::replay::stack_findings(ftlsim::replay::stack_of_device(253, 1, sys.paths), sys.paths));
  CHECK_THAT(f, Contains("/dev/dm-2 (built on /dev/loop1) is mounted at /home"));
}

TEST_CASE("stack: a partition's siblings are not in its stack", "[replay][unit]") {
  const ftlsim::test::TempDir tmp("stack-partition");
  FakeSysfs sys(tmp);
  const std::string disk = tmp.file("disk.img");
  put(disk, "disk");
  sys.add("loop0", 7, 0);
  sys.back("loop0", disk);
  sys.add("loop0p1", 259, 0, "loop0");
  sys.add("loop0p2", 259, 1, "loop0");
  sys.mount(259, 1, "/mnt/p2");  // the other partition: another range of the disk
  const auto stack = ftlsim::replay::stack_of_device(259, 0, sys.paths);
  CHECK(ftlsim::replay::stack_findings(stack, sys.paths).empty());
  REQUIRE(stack.files.size() == 1);
  CHECK(stack.files[0].path == disk);
  // A second loop device over disk.img, mounted: found.
  sys.add("loop5", 7, 5);
  sys.back("loop5", disk);
  sys.mount(7, 5, "/mnt/whole");
  CHECK_THAT(joined(ftlsim::replay::stack_findings(ftlsim::replay::stack_of_device(259, 0, sys.paths), sys.paths)),
             Contains("/dev/loop5 (a loop device over " + disk + ") is mounted at /mnt/whole"));
}
