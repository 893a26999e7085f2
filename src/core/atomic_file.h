#pragma once
// Output files are written into a temporary file beside the target and
// published under their name only when complete, so an interrupted run
// never leaves a file that looks finished.
//
// The temporary is an unnamed O_TMPFILE in the target's folder, linked into
// place by commit() (linkat: fails when the name exists, so two runs racing
// for one name cannot both win); where the file system has no O_TMPFILE it
// is a randomly named ".NAME.ftlsim-XXXXXX" created O_CREAT|O_EXCL (which
// never follows a symbolic link planted at that name) and renamed with
// RENAME_NOREPLACE. With Existing::kReplace, commit() renames over an
// existing regular file; it never replaces anything else (device node, FIFO,
// socket, folder, symbolic link).
//
// The target's folder is resolved once, when the OutputFile is made: its
// check() (an output the user named: a regular file or absent, --force to
// replace, not an input, not on /proc or /sys, a writable folder) and
// free_bytes() look at that open folder and the name in it, and AtomicFile
// then creates, links, renames and removes relative to the same folder
// (openat, linkat, renameat2, unlinkat), never the path re-read. commit()
// checks the name again, in that folder, before it replaces anything.
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "core/dir_fd.h"
#include "core/io_identity.h"

namespace ftlsim {

enum class Existing : bool {
  kRefuse,   // commit() fails (InputError "already exists") when the name exists
  kReplace,  // commit() replaces an existing regular file
};

// Where an output file goes: its folder, opened once (O_PATH), and its name
// there. What check() and free_bytes() examine is what an AtomicFile made
// from it writes into.
class OutputFile {
 public:
  // Opens `path`'s folder. Never throws: a folder that cannot be opened (or
  // a path that names a folder) is refused by check() or AtomicFile.
  explicit OutputFile(std::string path);

  // The checks on an output file the user named with `option` ("-o"),
  // before any work, on the open folder and the name in it: the name is
  // absent or a regular file (never replaced when it is anything else,
  // `force` or not); an existing file only with `force`; not one of
  // `inputs` (device and inode); the folder is writable and not on a kernel
  // pseudo file system (proc, sysfs, ...). Throws InputError naming `option`
  // and the path. Keeps all three for the AtomicFile, whose commit()
  // checks the name again.
  void check(std::string_view option, bool force, const RunInputs& inputs);

  // Bytes free to an unprivileged writer on the folder's file system;
  // nullopt when that cannot be found out.
  [[nodiscard]] std::optional<uint64_t> free_bytes() const;
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] bool checked() const { return checked_; }

 private:
  friend class AtomicFile;
  // Throws when `name` in `dir` exists and is not a regular file, is an
  // input, or exists at all with kRefuse; the refusals of check() when it
  // was called, else AtomicFile's (naming the path alone).
  void check_name(int dir, const std::string& name, Existing existing) const;
  // The refusal of a path whose last name is "", "." or ".." (a folder).
  [[noreturn]] void refuse_folder_name() const;

  std::string path_;
  std::string folder_;  // path_'s folder as given ("." for a bare name), for messages
  std::string name_;    // the file's name in it
  UniqueFd dir_;        // the folder, opened once
  int open_errno_ = 0;  // why dir_ is not open
  std::string option_;  // check()'s option; "" for files ftlsim names itself
  RunInputs inputs_;
  Existing existing_ = Existing::kRefuse;
  bool checked_ = false;
};

// OutputFile(path) and check(option, force, inputs): what a command calls
// for an output file the user named, before its work.
[[nodiscard]] OutputFile open_output_file(std::string_view option, std::string path, bool force,
                                          const RunInputs& inputs);

class AtomicFile {
 public:
  // Creates the temporary in path's folder. Throws InputError when `path`
  // exists and is not a regular file (or exists at all, with kRefuse), and
  // SystemError when the temporary cannot be created.
  explicit AtomicFile(std::string path, Existing existing = Existing::kRefuse);
  // The same in the folder `out` opened and checked (REQUIRES:
  // out.checked()): an existing regular file is replaced when check() was
  // given force. Refusals (here and in commit()) are check()'s.
  explicit AtomicFile(OutputFile out);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  // Removes the temporary file unless commit() succeeded.
  ~AtomicFile();

  void write(std::string_view bytes);
  [[nodiscard]] std::FILE* stream() { return file_; }
  // Flushes, syncs and publishes under path(). Throws SystemError (write or
  // sync failed: disk full, I/O error) or InputError (the name exists, or
  // has become something other than a regular file, or an input).
  void commit();
  [[nodiscard]] const std::string& path() const { return out_.path_; }
  // For messages: the temporary's name, or "PATH (temporary)" when unnamed.
  [[nodiscard]] const std::string& temp_path() const { return temp_path_; }

 private:
  void open_temp();
  void open_named_temp();
  void link_unnamed();

  OutputFile out_;         // the target's folder (opened once) and name
  std::string temp_name_;  // the named temporary's name in the folder ("" when unnamed)
  std::string temp_path_;
  std::FILE* file_ = nullptr;
  bool unnamed_ = false;  // O_TMPFILE: nothing to remove on failure
  bool committed_ = false;
};

// Writes `contents` to `path` atomically (see AtomicFile).
void write_file_atomically(const std::string& path, std::string_view contents, Existing existing = Existing::kRefuse);

}  // namespace ftlsim
