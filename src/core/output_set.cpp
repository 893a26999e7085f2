#include "core/output_set.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <map>
#include <string_view>

#include "core/dir_fd.h"
#include "core/error.h"
#include "core/io_identity.h"
#include "core/io_units.h"

namespace ftlsim {
namespace {

constexpr std::string_view kManifestHeader = "ftlsim output set 1\n";

// One manifest line: a file with its inode, size and change time (so that
// a file made later under a reused inode number is not taken for it), or a
// folder.
struct Written {
  bool folder = false;
  uint64_t ino = 0;
  uint64_t size = 0;
  uint64_t ctime_ns = 0;
};

uint64_t ctime_ns(const struct statx& sx) {
  return static_cast<uint64_t>(sx.stx_ctime.tv_sec) * kNsPerSecond + sx.stx_ctime.tv_nsec;
}
using Manifest = std::map<std::string, Written>;  // by path relative to the set's folder

// Whether `sx` (statx with type, inode, size and change time) is the file
// the manifest line `w` wrote.
bool is_written_file(const struct statx& sx, const Written& w) {
  return S_ISREG(sx.stx_mode) && sx.stx_ino == w.ino && sx.stx_size == w.size && ctime_ns(sx) == w.ctime_ns;
}

struct Entry {
  std::string name;
  struct statx sx {};
};

// The entries of the open folder `dir` ("." and ".." left out), sorted;
// `ok` false when it cannot be read.
std::vector<Entry> list(int dir, bool* ok = nullptr) {
  std::vector<Entry> out;
  if (ok != nullptr) *ok = false;
  const int fd = ::dup(dir);
  if (fd < 0) return out;
  DIR* d = ::fdopendir(fd);
  if (d == nullptr) {
    ::close(fd);
    return out;
  }
  if (ok != nullptr) *ok = true;
  ::rewinddir(d);
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    Entry en{name, {}};
    if (::statx(dir, name.c_str(), AT_SYMLINK_NOFOLLOW, STATX_TYPE | STATX_INO | STATX_SIZE | STATX_CTIME, &en.sx) ==
        0) {
      out.push_back(std::move(en));
    }
  }
  ::closedir(d);
  std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
  return out;
}

// True when the entry is a mount point, or on another file system than
// the folder `dir_sx` it is listed in.
bool crosses_mount(const struct statx& sx, const struct statx& dir_sx) {
  if ((sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) != 0 && (sx.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0) {
    return true;
  }
  return sx.stx_dev_major != dir_sx.stx_dev_major || sx.stx_dev_minor != dir_sx.stx_dev_minor;
}

bool stat_self(int dir, struct statx& sx) { return ::statx(dir, "", AT_EMPTY_PATH, STATX_TYPE | STATX_INO, &sx) == 0; }

// Everything in the open folder `dir` at any depth, as a manifest.
void collect(int dir, const std::string& prefix, Manifest& m) {
  for (const Entry& e : list(dir)) {
    const std::string rel = prefix + e.name;
    if (rel == kManifestName) continue;
    if (S_ISREG(e.sx.stx_mode)) {
      m[rel] = Written{false, e.sx.stx_ino, e.sx.stx_size, ctime_ns(e.sx)};
    } else if (S_ISDIR(e.sx.stx_mode)) {
      m[rel] = Written{true, 0, 0, 0};
      const UniqueFd sub = open_subfolder(dir, e.name);
      if (sub.valid()) collect(sub.get(), rel + "/", m);
    }
  }
}

// The manifest of an open folder as read: absent, proven (its lines in
// `files`), or an entry of that name that proves nothing (`why`).
struct ManifestRead {
  enum class State { kAbsent, kRead, kUnproven } state = State::kAbsent;
  Manifest files;
  std::string why;
};

// Reads the manifest of the open folder `dir` through open_regular_at
// (core/dir_fd.h): never through a symbolic link, never waiting on a FIFO,
// never opening a device. An entry of that name that is not a regular file
// ftlsim could have written, or does not parse as a whole, is kUnproven.
ManifestRead read_manifest(int dir) {
  ManifestRead r;
  const auto unproven = [&r](std::string why) {
    r.state = ManifestRead::State::kUnproven;
    r.files.clear();
    r.why = std::move(why);
    return r;
  };
  const RegularFileAt file = open_regular_at(dir, kManifestName);
  if (!file.fd.valid()) {
    if (file.mode == 0 && file.error == ENOENT) return r;  // absent
    if (file.mode != 0 && !S_ISREG(file.mode)) {
      return unproven(fmt::format("{}, not a manifest ftlsim wrote", file_type_name(file.mode)));
    }
    return unproven(fmt::format("cannot be read: {}", std::strerror(file.error)));
  }
  struct stat st {};
  if (::fstat(file.fd.get(), &st) != 0) return unproven(fmt::format("cannot be read: {}", std::strerror(errno)));
  if (st.st_size > (1 << 20)) return unproven("not a manifest ftlsim wrote: larger than 1 MiB");
  std::string text(static_cast<size_t>(st.st_size), '\0');
  if (::pread(file.fd.get(), text.data(), text.size(), 0) != static_cast<ssize_t>(text.size())) {
    return unproven("cannot be read whole");
  }
  const std::string_view kNot = "not a manifest ftlsim wrote";
  if (text.rfind(kManifestHeader, 0) != 0) return unproven(std::string(kNot));
  size_t pos = kManifestHeader.size();
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) return unproven(std::string(kNot));
    const std::string_view line(text.data() + pos, eol - pos);
    pos = eol + 1;
    // "f INO SIZE CTIME_NS PATH" or "d 0 0 0 PATH"
    if (line.size() < 9 || (line[0] != 'f' && line[0] != 'd') || line[1] != ' ') return unproven(std::string(kNot));
    Written w{line[0] == 'd', 0, 0, 0};
    const char* p = line.data() + 1;
    const char* end = line.data() + line.size();
    for (uint64_t* field : {&w.ino, &w.size, &w.ctime_ns}) {
      const auto res = std::from_chars(p + 1, end, *field);
      if (res.ec != std::errc() || res.ptr == end || *res.ptr != ' ') return unproven(std::string(kNot));
      p = res.ptr;
    }
    r.files[std::string(p + 1, end)] = w;
  }
  r.state = ManifestRead::State::kRead;
  return r;
}

// Why the entry `rel` is not one the manifest proves; empty when it is.
std::string why_unproven(const Entry& e, const std::string& rel, const Manifest& m, const struct statx& dir_sx) {
  if (crosses_mount(e.sx, dir_sx)) return "a mount point";
  const auto it = m.find(rel);
  if (it == m.end()) return "not written by ftlsim";
  if (it->second.folder) return S_ISDIR(e.sx.stx_mode) ? std::string() : "was a folder";
  if (!S_ISREG(e.sx.stx_mode)) return "not the file ftlsim wrote";
  if (!is_written_file(e.sx, it->second)) return "changed since ftlsim wrote it";
  return {};
}

void collect_unproven(int dir, const std::string& prefix, const Manifest& m, std::vector<std::string>& out) {
  struct statx dir_sx {};
  bool listed = false;
  const std::vector<Entry> entries = list(dir, &listed);
  if (!stat_self(dir, dir_sx) || !listed) {
    out.push_back((prefix.empty() ? std::string(".") : prefix) + " (cannot be listed)");
    return;
  }
  for (const Entry& e : entries) {
    const std::string rel = prefix + e.name;
    if (rel == kManifestName) {
      // Read as the proof (read_manifest); a bind mount of a file there proves nothing.
      if (crosses_mount(e.sx, dir_sx)) out.push_back(fmt::format("{} (a mount point)", rel));
      continue;
    }
    if (const std::string why = why_unproven(e, rel, m, dir_sx); !why.empty()) {
      out.push_back(fmt::format("{} ({})", rel, why));
      continue;
    }
    if (S_ISDIR(e.sx.stx_mode)) {
      const UniqueFd sub = open_subfolder(dir, e.name);
      if (!sub.valid()) {
        out.push_back(fmt::format("{} (cannot be opened)", rel));
        continue;
      }
      collect_unproven(sub.get(), rel + "/", m, out);
    }
  }
}

// Removes the proven entries below the open folder `dir`; true when it is
// left empty (its manifest aside).
bool remove_proven(int dir, const std::string& prefix, const Manifest& m) {
  struct statx dir_sx {};
  if (!stat_self(dir, dir_sx)) return false;
  bool empty = true;
  for (const Entry& e : list(dir)) {
    const std::string rel = prefix + e.name;
    if (rel == kManifestName) continue;
    if (!why_unproven(e, rel, m, dir_sx).empty()) {
      empty = false;
      continue;
    }
    if (S_ISDIR(e.sx.stx_mode)) {
      const UniqueFd sub = open_subfolder(dir, e.name);
      if (!sub.valid() || !remove_proven(sub.get(), rel + "/", m) ||
          ::unlinkat(dir, e.name.c_str(), AT_REMOVEDIR) != 0) {
        empty = false;
      }
    } else if (::unlinkat(dir, e.name.c_str(), 0) != 0) {
      empty = false;
    }
  }
  return empty;
}

}  // namespace

void write_manifest(int dir, const std::string& shown) {
  Manifest m;
  collect(dir, "", m);
  std::string text(kManifestHeader);
  for (const auto& [rel, w] : m) {
    text +=
        w.folder ? fmt::format("d 0 0 0 {}\n", rel) : fmt::format("f {} {} {} {}\n", w.ino, w.size, w.ctime_ns, rel);
  }
  const UniqueFd fd(::openat(dir, kManifestName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (!fd.valid()) throw system_error_from_errno(fmt::format("cannot create {}/{}", shown, kManifestName));
  if (::write(fd.get(), text.data(), text.size()) != static_cast<ssize_t>(text.size()) || ::fsync(fd.get()) != 0) {
    throw system_error_from_errno(fmt::format("cannot write {}/{}", shown, kManifestName));
  }
}

std::vector<std::string> unproven_entries(int dir) {
  // No manifest, or one that proves nothing: every entry is unproven, and
  // an entry named like the manifest is named first.
  const ManifestRead m = read_manifest(dir);
  std::vector<std::string> out;
  if (m.state == ManifestRead::State::kUnproven) out.push_back(fmt::format("{} ({})", kManifestName, m.why));
  collect_unproven(dir, "", m.files, out);
  return out;
}

std::vector<std::string> unproven_folder(int parent, const std::string& name) {
  struct statx sx {
  }, parent_sx{};
  if (!stat_self(parent, parent_sx) ||
      ::statx(parent, name.c_str(), AT_SYMLINK_NOFOLLOW, STATX_TYPE | STATX_INO, &sx) != 0) {
    return {name + " (cannot be inspected)"};
  }
  if (!S_ISDIR(sx.stx_mode)) return {name + " (not a folder)"};
  if (crosses_mount(sx, parent_sx)) return {name + " (a mount point)"};
  const UniqueFd dir = open_subfolder(parent, name);
  if (!dir.valid()) return {name + " (cannot be opened)"};
  std::vector<std::string> out = unproven_entries(dir.get());
  for (std::string& e : out) e = name + "/" + e;
  return out;
}

bool written_set_intact(int parent, const std::string& name) {
  const UniqueFd dir = open_subfolder(parent, name);
  if (!dir.valid()) return false;
  const ManifestRead m = read_manifest(dir.get());
  if (m.state != ManifestRead::State::kRead) return false;
  for (const auto& [rel, w] : m.files) {
    struct statx sx {};
    if (::statx(dir.get(), rel.c_str(), AT_SYMLINK_NOFOLLOW, STATX_TYPE | STATX_INO | STATX_SIZE | STATX_CTIME, &sx) !=
        0) {
      return false;
    }
    if (w.folder ? !S_ISDIR(sx.stx_mode) : !is_written_file(sx, w)) return false;
  }
  return true;
}

bool remove_staging_folder(int parent, const std::string& name) {
  const UniqueFd dir = open_subfolder(parent, name);
  if (!dir.valid()) return false;
  Manifest m;
  collect(dir.get(), "", m);  // a fresh mkdtemp folder: what is in it, this run wrote
  if (!remove_proven(dir.get(), "", m)) return false;
  ::unlinkat(dir.get(), kManifestName, 0);
  return ::unlinkat(parent, name.c_str(), AT_REMOVEDIR) == 0;
}

bool remove_written_set(int parent, const std::string& name) {
  struct statx sx {
  }, parent_sx{};
  if (!stat_self(parent, parent_sx) || ::statx(parent, name.c_str(), AT_SYMLINK_NOFOLLOW, STATX_TYPE, &sx) != 0 ||
      crosses_mount(sx, parent_sx)) {
    return false;
  }
  const UniqueFd dir = open_subfolder(parent, name);
  if (!dir.valid()) return false;
  const ManifestRead m = read_manifest(dir.get());
  if (m.state == ManifestRead::State::kUnproven) return false;  // someone else's: it and the folder stay
  if (!remove_proven(dir.get(), "", m.files)) return false;
  if (m.state == ManifestRead::State::kRead) ::unlinkat(dir.get(), kManifestName, 0);
  return ::unlinkat(parent, name.c_str(), AT_REMOVEDIR) == 0;
}

}  // namespace ftlsim
