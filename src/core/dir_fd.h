#pragma once
// A file descriptor owned by one object (closed on destruction), and the
// few directory operations output folders need, all relative to an open
// folder so that a path is resolved once and never re-read as text.
#include <sys/types.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/message.h"

namespace ftlsim {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&& o) noexcept {
    if (this != &o) reset(std::exchange(o.fd_, -1));
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }

  void reset(int fd = -1);
  [[nodiscard]] int get() const { return fd_; }
  [[nodiscard]] bool valid() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// "/proc/self/fd/N": a path that the kernel resolves to the open file `fd`
// itself (a magic link), for code that takes path text (AtomicFile, the
// report writers) but must land in the folder that was checked.
[[nodiscard]] std::string fd_path(int fd);

// `name` as it goes into a hidden temporary name beside it
// (".NAME.ftlsim-XXXXXX", and "-old" after it): shortened so the whole
// fits NAME_MAX (255 bytes).
[[nodiscard]] std::string staging_stem(const std::string& name);

// openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC): a
// folder entry that is a real folder, never a symbolic link to one.
// Invalid (errno set) when it is not.
[[nodiscard]] UniqueFd open_subfolder(int dir, const std::string& name);

// The entry `name` of the open folder `dir`, opened for reading only when it
// is a regular file: opened O_PATH without following a symbolic link (no
// driver's open runs, nothing blocks), checked with fstat, then opened for
// reading through that node (/proc/self/fd/N) with O_NONBLOCK and checked
// again, so the file read is the file checked and a FIFO swapped in never
// blocks the run. For the files a run reads back from an output folder (its
// manifest, sweep.csv, a result file's key). `fd` is invalid when the entry
// is absent (`mode` 0, `error` ENOENT), not a regular file (`mode` its type)
// or cannot be opened (`error` the errno).
struct RegularFileAt {
  UniqueFd fd;
  mode_t mode = 0;
  int error = 0;
};
[[nodiscard]] RegularFileAt open_regular_at(int dir, const std::string& name);

// The folder an output path's last name lives in, resolved once by the
// kernel: `base` is that folder when it exists, else its nearest existing
// ancestor, with `missing` the names below it still to create.
struct ParentFolder {
  UniqueFd base;
  std::vector<std::string> missing;
};
// `parent_text` is the folder part of `path` as given ("" for a bare name).
// Throws InputError naming `option` and `path` when it cannot be opened, a
// part is not a folder, or a missing part is "." or "..".
[[nodiscard]] ParentFolder open_parent_folder(const Message& option, const std::string& path,
                                              const std::string& parent_text);
// Creates `parent.missing` below `parent.base` (mkdirat), moving `base` down
// to the last one. Throws SystemError.
void make_missing_folders(ParentFolder& parent, const std::string& path);

}  // namespace ftlsim
