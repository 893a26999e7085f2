// Folders no output may go in (core/io_identity.h: no_outputs_in): the
// kernel's pseudo file systems and devtmpfs. devtmpfs is found by the
// folder's device number among the mounts of a mountinfo text, so a
// fixture naming the test folder's own file system devtmpfs stands in for
// /dev (statfs cannot tell devtmpfs from tmpfs).
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli/cli_run.h"
#include "core/dir_fd.h"
#include "core/io_identity.h"

namespace fs = std::filesystem;
using Catch::Contains;

namespace {

// A mountinfo text with the file system of `dev` mounted as `fstype`
// beside an unrelated devtmpfs and tmpfs.
std::string mountinfo_with(dev_t dev, const std::string& fstype) {
  return fmt::format(
      "22 1 0:5 / /dev rw,nosuid - devtmpfs udev rw,size=4096k\n"
      "23 22 0:6 / /dev/shm rw - tmpfs tmpfs rw\n"
      "40 1 {}:{} / /mnt/x rw,relatime - {} src rw\n",
      major(dev), minor(dev), fstype);
}

}  // namespace

TEST_CASE("no output goes into devtmpfs, found by the folder's device number, while tmpfs and disks take outputs",
          "[core][unit]") {
  const ftlsim::test::TempDir tmp("no-outputs-in");
  const ftlsim::UniqueFd dir(::open(tmp.file("").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  REQUIRE(dir.valid());
  struct stat st {};
  REQUIRE(::fstat(dir.get(), &st) == 0);
  const std::string info = tmp.file("mountinfo");
  for (const std::string fstype : {"devtmpfs", "tmpfs", "ext4"}) {
    INFO(fstype);
    std::ofstream(info) << mountinfo_with(st.st_dev, fstype);
    const bool dev = fstype == "devtmpfs";
    CHECK(ftlsim::on_devtmpfs(dir.get(), info) == dev);
    const auto why = ftlsim::no_outputs_in(dir.get(), info);
    REQUIRE(why.has_value() == dev);
    if (dev) CHECK_THAT(*why, Contains("on devtmpfs, where the kernel makes device nodes"));
  }
  // Another device number mounted as devtmpfs says nothing of this folder;
  // nor does a mountinfo that cannot be read.
  std::ofstream(info) << mountinfo_with(makedev(major(st.st_dev) + 1, minor(st.st_dev)), "devtmpfs");
  CHECK_FALSE(ftlsim::on_devtmpfs(dir.get(), info));
  CHECK_FALSE(ftlsim::on_devtmpfs(dir.get(), tmp.file("missing")));
  // The kernel's pseudo file systems come first, whatever mountinfo says.
  const ftlsim::UniqueFd proc(::open("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  REQUIRE(proc.valid());
  const auto why = ftlsim::no_outputs_in(proc.get(), tmp.file("missing"));
  REQUIRE(why.has_value());
  CHECK_THAT(*why, Contains("on a proc file system"));
}
