// The stack of a replay target (src/replay/device_stack.h, on
// core/storage_stack.h) and of an output file (core/output_storage.h) on a fixture
// sysfs tree laid out as the kernel lays it out (devices/virtual/block/X,
// with block/X, class/block/X and dev/block/M:m linking to it): down
// through slaves, partitions and loop backing files, up to every device
// built on any of them. The same on real loop
// devices, as root: test_replay_stack_safety.sh.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli/cli_run.h"
#include "core/dir_fd.h"
#include "core/error.h"
#include "core/io_identity.h"
#include "core/mount_table.h"
#include "core/output_storage.h"
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
    const fs::path dir =
        parent.empty() ? root_ / "devices/virtual/block" / name : root_ / "devices/virtual/block" / parent / name;
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

namespace {

// A fixture device numbered as the real file system `path` is on, so that
// files there lie "on" it.
std::pair<unsigned, unsigned> device_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return {::major(st.st_dev), ::minor(st.st_dev)};
}

}  // namespace

TEST_CASE("stack: an image in a file system of the stack is built on it, at any depth", "[replay][unit]") {
  const ftlsim::test::TempDir tmp("stack-nested");
  FakeSysfs sys(tmp);
  // "outer": the device the temporary folder's file system is on; inner.img
  // lies there, loop4 reads it, and the trace's file system is loop4's.
  const auto [maj, min] = device_of(tmp.file(""));
  sys.add("outer", maj, min);
  const std::string inner = tmp.file("inner.img");
  put(inner, "image");
  sys.add("loop4", 7, 4);
  sys.back("loop4", inner);
  const auto stack = ftlsim::replay::stack_of_device(maj, min, sys.paths);
  bool found = false;
  for (const auto& d : stack.above) found = found || (d.name == "loop4" && d.base == "outer");
  CHECK(found);
  // One more level: loop5 over a file "on" loop4 cannot be made here, but a
  // file system mounted from loop4 is found as mounted.
  sys.mount(7, 4, "/mnt/inner");
  CHECK_THAT(joined(ftlsim::replay::stack_findings(ftlsim::replay::stack_of_device(maj, min, sys.paths), sys.paths)),
             Contains("/dev/loop4 (a loop device over " + inner +
                      ", a file on a file system of /dev/outer) is mounted "
                      "at /mnt/inner"));
}

TEST_CASE("stack: file systems built on a file or device of the stack", "[replay][unit]") {
  const ftlsim::test::TempDir tmp("stack-mounts");
  FakeSysfs sys(tmp);
  // An image a FUSE driver mounts (fuse2fs): no loop device, its source names it.
  const std::string img = tmp.file("f.img");
  put(img, "image");
  std::ofstream(sys.paths.mountinfo, std::ios::app) << "60 22 0:900077 / /mnt/f rw - fuse.ext4 " << img << " rw\n";
  auto stack = ftlsim::stack_of_file(img, sys.paths);
  REQUIRE(stack.above.size() == 1);
  CHECK(stack.above[0].name == "0:900077");
  CHECK(ftlsim::device_shown(stack.above[0]) == "0:900077");
  CHECK_THAT(stack.above[0].how, Contains("the fuse.ext4 file system mounted at /mnt/f, built on its source " + img));
  CHECK_THAT(joined(ftlsim::replay::stack_findings(stack, sys.paths)), Contains("0:900077 (the fuse.ext4 file system"));
  CHECK_THAT(joined(ftlsim::replay::stack_findings(stack, sys.paths)), Contains("is mounted at /mnt/f"));
  // A FUSE mirror of a folder on the target's file system.
  put(sys.paths.mountinfo, "");
  const auto [maj, min] = device_of(tmp.file(""));
  sys.add("disk", maj, min);
  std::ofstream(sys.paths.mountinfo, std::ios::app) << "61 22 0:900078 / /mnt/m rw - fuse " << tmp.file("") << " rw\n";
  stack = ftlsim::replay::stack_of_device(maj, min, sys.paths);
  REQUIRE(stack.above.size() == 1);
  CHECK(stack.above[0].base == "disk");
  CHECK_THAT(stack.above[0].how, Contains("the fuse file system mounted at /mnt/m, built on its source"));
  // btrfs over two devices: the other device (/sys/fs/btrfs/FSID/devices).
  put(sys.paths.mountinfo, "");
  sys.add("fakebtr0", 250, 0);
  sys.add("fakebtr1", 250, 1);
  const fs::path devices = fs::path(sys.paths.sysfs) / "fs/btrfs/0123-abcd/devices";
  fs::create_directories(devices);
  fs::create_directory_symlink(fs::path(sys.paths.sysfs) / "class/block/fakebtr0", devices / "fakebtr0");
  fs::create_directory_symlink(fs::path(sys.paths.sysfs) / "class/block/fakebtr1", devices / "fakebtr1");
  std::ofstream(sys.paths.mountinfo, std::ios::app) << "62 22 0:900079 / /srv rw - btrfs /dev/fakebtr0 rw\n";
  stack = ftlsim::replay::stack_of_device(250, 1, sys.paths);
  REQUIRE(stack.above.size() == 1);
  CHECK(stack.above[0].name == "0:900079");
  CHECK_THAT(stack.above[0].how, Contains("the btrfs file system mounted at /srv, built on its device /dev/fakebtr1"));
  CHECK_THAT(joined(ftlsim::replay::stack_findings(stack, sys.paths)), Contains("is mounted at /srv"));
}

TEST_CASE("stack: an output file in use as storage is never replaced", "[core][unit]") {
  const ftlsim::test::TempDir tmp("stack-output");
  FakeSysfs sys(tmp);
  const std::string img = tmp.file("disk.img");
  put(img, "image");
  const ftlsim::UniqueFd dir(::open(tmp.file("").c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  const auto id = *ftlsim::identity_of(img);
  CHECK_NOTHROW(ftlsim::check_output_storage("-o", img, dir.get(), "disk.img", id, {}, sys.paths));
  sys.add("loop6", 7, 6);
  sys.back("loop6", img);
  sys.mount(7, 6, "/mnt/img");
  CHECK_THROWS_WITH(ftlsim::check_output_storage("-o", img, dir.get(), "disk.img", id, {}, sys.paths),
                    Contains("-o " + img + " is in use as storage: /dev/loop6 (a loop device over " + img + ")"));
  // A swap file.
  put(sys.paths.mountinfo, "");
  put(tmp.file("sys/devices/virtual/block/loop6/loop/backing_file"), "/nowhere\n");
  put(sys.paths.swaps, "Filename Type Size Used Priority\n" + img + " file 100 0 -2\n");
  CHECK_THROWS_WITH(ftlsim::check_output_storage("-o", img, dir.get(), "disk.img", id, {}, sys.paths),
                    Contains("is an active swap file"));
}

TEST_CASE("stack: a copy of an input on a local file system is not the input", "[core][unit]") {
  const ftlsim::test::TempDir tmp("stack-copy");
  const std::string trace = tmp.file("t.ftr");
  put(trace, std::string(10000, 'x'));
  fs::copy_file(trace, tmp.file("copy.ftr"));
  fs::last_write_time(tmp.file("copy.ftr"), fs::last_write_time(trace));
  ftlsim::RunInputs inputs;
  inputs.add("--trace", trace);
  REQUIRE(inputs.inputs().size() == 1);
  CHECK(inputs.inputs()[0].aliased.empty());
  CHECK_FALSE(inputs.inputs()[0].mark);  // read only when an output on FUSE or NFS is compared
  const ftlsim::UniqueFd copy(::open(tmp.file("copy.ftr").c_str(), O_RDONLY | O_CLOEXEC));
  const ftlsim::UniqueFd original(::open(trace.c_str(), O_RDONLY | O_CLOEXEC));
  const auto mark = ftlsim::content_mark(copy.get());
  REQUIRE(mark);
  CHECK(mark->size == 10000);
  CHECK(mark->head == std::string(4096, 'x'));
  CHECK(*mark == *ftlsim::content_mark(original.get()));  // the same mark ...
  CHECK(inputs.seen_as(copy.get()) == nullptr);           // ... but neither is on a FUSE or network file system
}

TEST_CASE("mount table: entries, escapes and aliasing file systems", "[core][unit]") {
  const auto mounts = ftlsim::parse_mounts(
      "36 35 98:0 /mnt1 /mnt/a\\040b rw,noatime master:1 - ext3 /dev/root rw,errors=continue\n"
      "37 35 0:41 / /x rw - fuse.sshfs me@host:/d rw,user_id=0\n"
      "garbage\n");
  REQUIRE(mounts.size() == 2);
  CHECK(mounts[0].major == 98);
  CHECK(mounts[0].mount_point == "/mnt/a b");
  CHECK(mounts[0].fstype == "ext3");
  CHECK(mounts[0].source == "/dev/root");
  CHECK(mounts[1].fstype == "fuse.sshfs");
  CHECK(ftlsim::aliasing_fs_of(::makedev(0, 41), mounts) == "fuse.sshfs");
  CHECK(ftlsim::aliasing_fs_of(::makedev(98, 0), mounts).empty());
  for (const char* t : {"fuse", "fuse.bindfs", "nfs", "nfs4", "cifs", "smb3", "9p", "virtiofs", "ceph"}) {
    CHECK(ftlsim::aliasing_fs_type(t));
  }
  for (const char* t : {"fuseblk", "ext4", "xfs", "btrfs", "tmpfs", "overlay", "fusectl"})
    CHECK_FALSE(ftlsim::aliasing_fs_type(t));
}
