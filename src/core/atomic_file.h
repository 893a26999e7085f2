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
// The target's folder is resolved once, when the AtomicFile is made: every
// later check, creation, link, rename and removal is relative to that open
// folder (openat, linkat, renameat2, unlinkat), never the path re-read.
#include <cstdio>
#include <string>
#include <string_view>

namespace ftlsim {

enum class Existing : bool {
  kRefuse,   // commit() fails (InputError "already exists") when the name exists
  kReplace,  // commit() replaces an existing regular file
};

class AtomicFile {
 public:
  // Creates the temporary in path's folder. Throws InputError when `path`
  // exists and is not a regular file (or exists at all, with kRefuse), and
  // SystemError when the temporary cannot be created.
  explicit AtomicFile(std::string path, Existing existing = Existing::kRefuse);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  // Removes the temporary file unless commit() succeeded.
  ~AtomicFile();

  void write(std::string_view bytes);
  [[nodiscard]] std::FILE* stream() { return file_; }
  // Flushes, syncs and publishes under path(). Throws SystemError (write or
  // sync failed: disk full, I/O error) or InputError (the name exists, or
  // has become something other than a regular file).
  void commit();
  [[nodiscard]] const std::string& path() const { return path_; }
  // For messages: the temporary's name, or "PATH (temporary)" when unnamed.
  [[nodiscard]] const std::string& temp_path() const { return temp_path_; }

 private:
  void open_named_temp(const std::string& folder);
  void link_unnamed();

  std::string path_;
  std::string name_;       // the target's name in its folder
  int dir_ = -1;           // the target's folder, opened once
  std::string temp_name_;  // the named temporary's name in dir_ ("" when unnamed)
  std::string temp_path_;
  Existing existing_;
  std::FILE* file_ = nullptr;
  bool unnamed_ = false;  // O_TMPFILE: nothing to remove on failure
  bool committed_ = false;
};

// Writes `contents` to `path` atomically (see AtomicFile).
void write_file_atomically(const std::string& path, std::string_view contents,
                           Existing existing = Existing::kRefuse);

}  // namespace ftlsim
