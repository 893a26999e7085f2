#include "core/output_storage.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <vector>

#include "core/dir_fd.h"
#include "core/error.h"
#include "core/storage_stack.h"

namespace ftlsim {

void check_output_storage(const std::string& option, const std::string& path, int dir, const std::string& name,
                          FileIdentity id, const RunInputs& inputs, const SafetyPaths& paths) {
  const std::string shown = option.empty() ? path : option + " " + path;
  const DeviceStack stack = stack_of_file(path, id, paths);
  if (!stack.hidden.empty()) {
    throw InputError(say("{} is in use as storage: {}; an output never replaces a file in use, `force` or not", shown,
                         fmt::join(stack.hidden, "; ")));
  }
  if (!stack.above.empty()) {
    std::vector<std::string> uses;
    for (const StackDevice& d : stack.above) uses.push_back(fmt::format("{} ({})", device_shown(d), d.how));
    throw InputError(
        say("{} is in use as storage: {}; an output never replaces a file in use (it would live "
            "on unnamed until that is detached, and then be gone), `force` or not",
            shown, fmt::join(uses, "; ")));
  }
  for (const std::string& s : swap_paths(slurp(paths.swaps))) {
    struct stat st {};
    if (::stat(s.c_str(), &st) == 0 && FileIdentity{st.st_dev, st.st_ino} == id) {
      throw InputError(say("{} is an active swap file; an output never replaces a file in use, `force` or not", shown));
    }
  }
  const UniqueFd fd(::openat(dir, name.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC));
  struct stat st {};
  if (!fd.valid() || ::fstat(fd.get(), &st) != 0 || FileIdentity{st.st_dev, st.st_ino} != id) return;
  if (const RunInputs::Input* in = inputs.seen_as(fd.get())) {
    throw InputError(
        say("{} looks the same as {}{} (the same size, modification time and first and last "
            "4 KiB), so it is taken to be that file under another name; an output never replaces "
            "an input, `force` or not",
            shown, RunInputs::describe(*in),
            in->aliased.empty() ? std::string() : " on a " + in->aliased + " file system"));
  }
}

}  // namespace ftlsim
