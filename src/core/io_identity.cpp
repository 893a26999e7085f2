#include "core/io_identity.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/dir_fd.h"
#include "core/error.h"
#include "core/mount_table.h"
#include "core/sysfs_text.h"

namespace ftlsim {
namespace {

namespace fs = std::filesystem;

// The folder a file `path` lives in ("." for a bare name).
std::string folder_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

}  // namespace

std::optional<ContentMark> content_mark(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  constexpr size_t kEdge = 4096;
  ContentMark m;
  m.size = static_cast<uint64_t>(st.st_size);
  m.mtime_sec = static_cast<int64_t>(st.st_mtim.tv_sec);
  const auto read_at = [fd](uint64_t offset, size_t bytes, std::string& out) {
    out.resize(bytes);
    size_t done = 0;
    while (done < bytes) {
      const ssize_t n = ::pread(fd, out.data() + done, bytes - done, static_cast<off_t>(offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    out.resize(done);
    return done == bytes;
  };
  const size_t edge = static_cast<size_t>(std::min<uint64_t>(m.size, kEdge));
  if (!read_at(0, edge, m.head) || !read_at(m.size - edge, edge, m.tail)) return std::nullopt;
  return m;
}

std::optional<FileIdentity> identity_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileIdentity{st.st_dev, st.st_ino};
}

std::optional<std::string_view> pseudo_fs_name(long f_type) {
  // <linux/magic.h>, except configfs's, which is not in the header
  // (fs/configfs/mount.c).
  constexpr long kConfigfsMagic = 0x62656570;
  switch (f_type) {
    case PROC_SUPER_MAGIC: return "proc";
    case SYSFS_MAGIC: return "sysfs";
    case CGROUP_SUPER_MAGIC:
    case CGROUP2_SUPER_MAGIC: return "cgroup";
    case DEBUGFS_MAGIC: return "debugfs";
    case TRACEFS_MAGIC: return "tracefs";
    case SECURITYFS_MAGIC: return "securityfs";
    case DEVPTS_SUPER_MAGIC: return "devpts";
    case BPF_FS_MAGIC: return "bpf";
    case PSTOREFS_MAGIC: return "pstore";
    case EFIVARFS_MAGIC: return "efivarfs";
    case kConfigfsMagic: return "configfs";
    default: return std::nullopt;
  }
}

std::optional<std::string_view> pseudo_fs_of(int fd) {
  struct statfs fs {};
  if (::fstatfs(fd, &fs) != 0) return std::nullopt;
  return pseudo_fs_name(fs.f_type);
}

std::optional<FsSpace> fs_space_of(int fd) {
  struct statvfs v {};
  if (::fstatvfs(fd, &v) != 0) return std::nullopt;
  FsSpace s;
  s.unit = v.f_frsize != 0 ? v.f_frsize : v.f_bsize != 0 ? v.f_bsize : 4096;
  const long double bytes = static_cast<long double>(v.f_bavail) * static_cast<long double>(s.unit);
  s.free_bytes = bytes >= 0x1p64L ? UINT64_MAX : static_cast<uint64_t>(bytes);
  return s;
}

bool on_devtmpfs(int fd, const std::string& mountinfo_path) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return false;
  for (const MountEntry& m : parse_mounts(slurp(mountinfo_path))) {
    if (m.fstype == "devtmpfs" && makedev(m.major, m.minor) == st.st_dev) return true;
  }
  return false;
}

std::optional<std::string> no_outputs_in(int dir, const std::string& mountinfo_path) {
  if (const auto kind = pseudo_fs_of(dir)) {
    return fmt::format("on a {} file system, which holds no files ftlsim could write", *kind);
  }
  if (on_devtmpfs(dir, mountinfo_path)) {
    return std::string(
        "on devtmpfs, where the kernel makes device nodes: what is made there lives in memory and takes the "
        "name of a device that is not there (a mistyped or absent disk)");
  }
  return std::nullopt;
}

std::string_view file_type_name(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

mode_t process_umask() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8) & 0777);
  }
  return 022;
}

namespace {

// overlayfs's statfs f_type (<linux/magic.h> OVERLAYFS_SUPER_MAGIC).
constexpr unsigned long kOverlayMagic = 0x794c7630;
constexpr int kMaxOverlayDepth = 8;

// The layers of a lowerdir= value: separated by ':' (data-only layers by
// "::"); a colon inside a path is "\\072" (Linux 6.5+) or, as given at mount
// time, "\\:" (shown as "\\134:").
std::vector<std::string> lower_layers(std::string_view value) {
  std::vector<std::string> layers;
  std::string pending;
  bool joining = false;
  for (const std::string_view raw : split(value, ':')) {
    std::string piece = unescape_octal(raw);
    if (joining) {
      pending += ':' + piece;
    } else {
      pending = piece;
    }
    if (!pending.empty() && pending.back() == '\\') {  // "\\:": a colon in the path
      pending.pop_back();
      joining = true;
      continue;
    }
    joining = false;
    if (!pending.empty()) layers.push_back(pending);
  }
  if (joining && !pending.empty()) layers.push_back(pending);
  return layers;
}

struct OverlayMount {
  std::string root;                  // field 4: the folder of the overlay mounted here
  std::string mount_point;           // field 5
  std::vector<std::string> layers;   // upper first, then the lower layers in order
  std::vector<std::string> folders;  // every layer folder and the work folder
};

// The overlay mount with mount id `mnt_id` (0: unknown) or device `dev`.
std::optional<OverlayMount> find_overlay_mount(const std::string& mountinfo, uint64_t mnt_id, dev_t dev,
                                               std::string& why) {
  std::ifstream in(mountinfo);
  if (!in) {
    why = fmt::format("{} cannot be read", mountinfo);
    return std::nullopt;
  }
  const std::string want_dev = fmt::format("{}:{}", ::major(dev), ::minor(dev));
  std::string line;
  while (std::getline(in, line)) {
    const std::vector<std::string_view> f = split(line, ' ');
    if (f.size() < 10) continue;
    uint64_t id = 0;
    try {
      id = std::stoull(std::string(f[0]));
    } catch (...) {
      continue;
    }
    if (mnt_id != 0 ? id != mnt_id : f[2] != want_dev) continue;
    size_t dash = 6;
    while (dash < f.size() && f[dash] != "-") ++dash;
    if (dash + 3 >= f.size()) {
      why = "its mountinfo line cannot be parsed";
      return std::nullopt;
    }
    if (f[dash + 1] != "overlay") {
      why = fmt::format("its mount is of type {}, not overlay", f[dash + 1]);
      return std::nullopt;
    }
    OverlayMount m;
    m.root = unescape_octal(f[3]);
    m.mount_point = unescape_octal(f[4]);
    std::string upper;
    std::vector<std::string> lowers;
    for (const std::string_view opt : split(f[dash + 3], ',')) {
      const size_t eq = opt.find('=');
      if (eq == std::string_view::npos) continue;
      const std::string_view key = opt.substr(0, eq), value = opt.substr(eq + 1);
      if (key == "lowerdir") {
        for (std::string& l : lower_layers(value)) lowers.push_back(std::move(l));
      } else if (key == "lowerdir+" || key == "datadir+") {
        lowers.push_back(unescape_octal(value));
      } else if (key == "upperdir") {
        upper = unescape_octal(value);
      } else if (key == "workdir") {
        m.folders.push_back(unescape_octal(value));
      }
    }
    if (lowers.empty()) {
      why = "no lowerdir in its mount options";
      return std::nullopt;
    }
    if (!upper.empty()) m.layers.push_back(upper);
    for (std::string& l : lowers) m.layers.push_back(std::move(l));
    for (const std::string& l : m.layers) m.folders.push_back(l);
    return m;
  }
  why = fmt::format("no mount of it in {}", mountinfo);
  return std::nullopt;
}

std::optional<FileIdentity> identity_of_open(int fd, struct stat* out = nullptr) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return std::nullopt;
  if (out != nullptr) *out = st;
  return FileIdentity{st.st_dev, st.st_ino};
}

void collect_layers(int fd, const std::string& shown, const std::string& mountinfo, int depth, OverlayLayers& out) {
  struct statfs sfs {};
  if (::fstatfs(fd, &sfs) != 0 || static_cast<unsigned long>(sfs.f_type) != kOverlayMagic) return;
  const auto fail = [&](const std::string& why) {
    if (out.unresolved.empty())
      out.unresolved = fmt::format("{} is on an overlay whose layers cannot be found ({})", shown, why);
  };
  if (depth >= kMaxOverlayDepth) return fail("overlays nested too deep");
  struct stat st {};
  if (!identity_of_open(fd, &st)) return fail("cannot stat it");
  uint64_t mnt_id = 0;
  struct statx sx {};
  if (::statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &sx) == 0 && (sx.stx_mask & STATX_MNT_ID)) mnt_id = sx.stx_mnt_id;
  std::string why;
  const std::optional<OverlayMount> mount = find_overlay_mount(mountinfo, mnt_id, st.st_dev, why);
  if (!mount) return fail(why);
  // Its path inside the overlay, from the open file (the kernel's name of
  // it), minus the mount point, plus the folder of the overlay mounted there.
  std::string at(4096, '\0');
  const ssize_t n = ::readlink(fd_path(fd).c_str(), at.data(), at.size());
  if (n <= 0 || static_cast<size_t>(n) >= at.size()) return fail("its path cannot be read");
  at.resize(static_cast<size_t>(n));
  if (at.ends_with(" (deleted)")) return fail("it was removed");
  std::string rel;
  if (mount->mount_point == "/") {
    rel = at;
  } else if (at == mount->mount_point) {
    rel.clear();
  } else if (at.rfind(mount->mount_point + "/", 0) == 0) {
    rel = at.substr(mount->mount_point.size());
  } else {
    return fail(fmt::format("its path {} is not under the mount point {}", at, mount->mount_point));
  }
  if (mount->root != "/") rel = mount->root + rel;
  while (!rel.empty() && rel.front() == '/') rel.erase(rel.begin());
  // Layer paths are as given to mount(8): a relative one was relative to the
  // folder mount ran in, which is unknown; it is tried from the current
  // folder and accepted only when the layer file found there is the one the
  // overlay shows (the same inode number).
  bool relative = false;
  for (const std::string& l : mount->layers) relative = relative || l.empty() || l.front() != '/';
  for (const std::string& l : mount->folders) relative = relative || l.empty() || l.front() != '/';
  // The root of a container (an overlay mounted at "/", its layers on the
  // host, outside this mount namespace): no path here leads to a layer, so
  // nothing this run can name is one; not a reason to refuse.
  if (mount->mount_point == "/") {
    bool reachable = false;
    for (const std::string& folder : mount->folders) {
      struct stat dst {};
      reachable = reachable || ::stat(folder.c_str(), &dst) == 0;
    }
    if (!reachable) return;
  }
  bool confirmed = false;
  for (const std::string& folder : mount->folders) {
    const UniqueFd dir(::open(folder.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    struct stat dst {};
    if (!dir.valid() || ::fstat(dir.get(), &dst) != 0) {
      if (relative) return fail(fmt::format("its layer {} is relative to the folder it was mounted from", folder));
      continue;  // a layer gone: it holds nothing
    }
    out.folders.push_back({folder, FileIdentity{dst.st_dev, dst.st_ino}});
    collect_layers(dir.get(), folder, mountinfo, depth + 1, out);  // a layer folder on an overlay: its file systems
  }
  bool topmost = true;
  for (const std::string& layer : mount->layers) {
    const UniqueFd dir(::open(layer.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!dir.valid()) continue;
    const std::string path = rel.empty() ? layer : layer + "/" + rel;
    const UniqueFd file(rel.empty() ? ::openat(dir.get(), ".", O_PATH | O_CLOEXEC)
                                    : ::openat(dir.get(), rel.c_str(), O_PATH | O_CLOEXEC));
    struct stat fst {};
    if (!file.valid() || ::fstat(file.get(), &fst) != 0) continue;
    if ((st.st_mode & S_IFMT) != (fst.st_mode & S_IFMT)) continue;  // a whiteout, or another kind of entry
    if (topmost && fst.st_ino == st.st_ino) confirmed = true;
    topmost = false;
    out.files.push_back({path, FileIdentity{fst.st_dev, fst.st_ino}});
    collect_layers(file.get(), path, mountinfo, depth + 1, out);
  }
  if (relative && !confirmed) {
    fail(fmt::format("its layers ({}) are relative to the folder it was mounted from", fmt::join(mount->layers, ":")));
  }
}

}  // namespace

OverlayLayers overlay_layers(int fd, const std::string& mountinfo_path) {
  OverlayLayers out;
  collect_layers(fd, fd_path(fd), mountinfo_path, 0, out);
  return out;
}

namespace {

// Records the overlay layers of the open input `fd` as inputs too. Adding
// identities only makes the refusals stricter, so the layer paths, which
// are text from the mount options, cannot let a write through that the
// checks would refuse otherwise; an overlay that cannot be resolved refuses
// every output.
void add_layers(std::vector<RunInputs::Input>& inputs, const std::string& option, const std::string& path, int fd) {
  OverlayLayers layers = overlay_layers(fd);
  if (!layers.unresolved.empty()) {
    // The message names the file by `path`, not by /proc/self/fd/N.
    const std::string fdname = fd_path(fd);
    std::string why = layers.unresolved;
    if (why.rfind(fdname + " ", 0) == 0) why = path + why.substr(fdname.size());
    RunInputs::Input in{option, path, {}, false};
    in.unresolved = std::move(why);
    inputs.push_back(std::move(in));
  }
  for (OverlayLayers::File& f : layers.files) {
    RunInputs::Input in{option, path, f.id, false};
    // A layer on FUSE or NFS: its own mark.
    const UniqueFd layer(::open(f.path.c_str(), O_PATH | O_CLOEXEC));
    if (layer.valid() && identity_of_open(layer.get()) == f.id) {
      in.aliased = aliasing_fs_of_open(layer.get());
      const UniqueFd data(::open(fd_path(layer.get()).c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
      if (!in.aliased.empty() && data.valid()) in.mark = content_mark(data.get());
    }
    in.stored = std::move(f.path);
    inputs.push_back(std::move(in));
  }
  for (OverlayLayers::File& f : layers.folders) {
    RunInputs::Input in{option, path, f.id, false};
    in.stored = std::move(f.path);
    in.device_only = true;
    inputs.push_back(std::move(in));
  }
}

}  // namespace

namespace {

// The input open as `node` (O_PATH): the type of the FUSE or network file
// system it is on, and then its ContentMark (read through the open node).
// The mark of an input elsewhere is read only when an output on such a file
// system is compared with it (RunInputs::seen_as).
void mark_input(RunInputs::Input& in, int node) {
  struct stat st {};
  if (::fstat(node, &st) != 0) return;
  in.aliased = aliasing_fs_of_open(node);
  if (in.aliased.empty() || !S_ISREG(st.st_mode)) return;  // never read a FIFO or device here
  const UniqueFd fd(::open(fd_path(node).c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (fd.valid()) in.mark = content_mark(fd.get());
}

// The ContentMark of the input `in`, read again from its path (its layer
// file for an overlay layer) when that still leads to it.
std::optional<ContentMark> mark_of_input(const RunInputs::Input& in) {
  const std::string& at = in.stored.empty() ? in.path : in.stored;
  const UniqueFd fd(::open(at.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (!fd.valid() || identity_of_open(fd.get()) != in.id) return std::nullopt;
  return content_mark(fd.get());
}

}  // namespace

void RunInputs::add(std::string option, const std::string& path) {
  if (path.empty()) return;
  const UniqueFd node(::open(path.c_str(), O_PATH | O_CLOEXEC));
  struct stat st {};
  if (!node.valid() || ::fstat(node.get(), &st) != 0) return;
  inputs_.push_back({option, path, FileIdentity{st.st_dev, st.st_ino}});
  mark_input(inputs_.back(), node.get());
  add_layers(inputs_, option, path, node.get());
}

void RunInputs::add(std::string option, const std::string& path, FileIdentity id) {
  inputs_.push_back({option, path, id});
  const UniqueFd node(::open(path.c_str(), O_PATH | O_CLOEXEC));
  struct stat st {};
  if (node.valid() && ::fstat(node.get(), &st) == 0 && FileIdentity{st.st_dev, st.st_ino} == id) {
    mark_input(inputs_.back(), node.get());
    add_layers(inputs_, option, path, node.get());
  } else if (const std::string fs = aliasing_fs_of(id.dev, parse_mounts(slurp("/proc/self/mountinfo"))); !fs.empty()) {
    // On a FUSE or network file system and no longer at its path: its mark
    // cannot be read, so nothing could be told apart from it.
    Input in{option, path, {}, false};
    in.unresolved = fmt::format("{} is on a {} file system and no longer at its path", path, fs);
    inputs_.push_back(std::move(in));
  } else if (::major(id.dev) == 0) {
    // An anonymous device (overlayfs among them) no longer at its path: its
    // layers cannot be found.
    Input in{option, path, {}, false};
    in.unresolved =
        fmt::format("{} is on a file system without a device (an overlay?) and no longer at its path", path);
    inputs_.push_back(std::move(in));
  }
}

void RunInputs::add_planned(std::string option, const std::string& path) {
  if (path.empty()) return;
  if (const auto id = identity_of(folder_of(path))) inputs_.push_back({std::move(option), path, *id, true});
}

void RunInputs::add_planned(std::string option, const std::string& path, FileIdentity folder) {
  inputs_.push_back({std::move(option), path, folder, true});
}

static std::optional<FileIdentity> identity_of_fd(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return std::nullopt;
  return FileIdentity{st.st_dev, st.st_ino};
}

static std::string input_name(const RunInputs::Input& in) {
  // convert's positional input has no option: "the input in.txt".
  std::string name =
      in.option == "input" ? fmt::format("the input {}", in.path) : fmt::format("the input {} {}", in.option, in.path);
  if (!in.stored.empty()) name += fmt::format(" (stored as {} in its overlay)", in.stored);
  return name;
}

std::string RunInputs::describe(const Input& in) { return input_name(in); }

void RunInputs::check_resolved(const Message& option, const std::string& path) const {
  for (const Input& in : inputs_) {
    if (!in.unresolved.empty()) {
      throw InputError(Message("refusing to write ") + option +
                       Message(fmt::format(" {}: {}, so it cannot be told apart from what is written "
                                           "(copy the input out of the overlay)",
                                           path, in.unresolved)));
    }
  }
}

const RunInputs::Input* RunInputs::seen_as(int fd) const {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return nullptr;
  const bool aliasing = !aliasing_fs_of_open(fd).empty();
  std::optional<ContentMark> mark;  // read once, when an input could match it
  for (const Input& in : inputs_) {
    if (in.planned || in.device_only || !in.unresolved.empty() || (!aliasing && in.aliased.empty())) continue;
    const std::optional<ContentMark> theirs = in.mark ? in.mark : mark_of_input(in);
    if (!theirs || theirs->size != static_cast<uint64_t>(st.st_size)) continue;
    if (!mark) mark = content_mark(fd);
    if (mark && *mark == *theirs) return &in;
  }
  return nullptr;
}

void RunInputs::check_not_input(const Message& option, const std::string& path) const {
  if (const auto id = identity_of(path)) check_not_input(option, path, *id);
}

void RunInputs::check_not_input(const Message& option, const std::string& path, FileIdentity id) const {
  check_resolved(option, path);
  // An output on an overlay is also every layer file that holds it (by its
  // path, checked to lead to `id`: more identities only refuse more).
  std::vector<FileIdentity> ids{id};
  std::vector<std::string> stored{""};
  if (::major(id.dev) == 0) {
    const UniqueFd node(::open(path.c_str(), O_PATH | O_CLOEXEC));
    if (node.valid() && identity_of_fd(node.get()) == id) {
      for (const OverlayLayers::File& f : overlay_layers(node.get()).files) {
        ids.push_back(f.id);
        stored.push_back(f.path);
      }
    }
  }
  for (const Input& in : inputs_) {
    if (in.planned || in.device_only || !in.unresolved.empty()) continue;
    for (size_t i = 0; i < ids.size(); ++i) {
      if (in.id != ids[i]) continue;
      throw InputError(option + Message(fmt::format(
                                    " {}{} is {} (the same file); an output never replaces an input", path,
                                    stored[i].empty() ? "" : fmt::format(" (stored as {} in its overlay)", stored[i]),
                                    input_name(in))));
    }
  }
}

void RunInputs::check_not_inside(const Message& option, const std::string& dir) const {
  if (const auto folder = identity_of(dir)) check_not_inside(option, dir, *folder);
}

namespace {

// The folder the input `in` lies in (for a planned file, the folder it is
// made in), open. The path the kernel resolves for it (canonical) is text,
// so the folder is checked to hold that very input: the same device and
// inode under the last name (or, planned, to be that folder). Invalid when
// the input is no longer where its path leads.
UniqueFd open_folder_of_input(const RunInputs::Input& in) {
  std::error_code ec;
  const std::string& at = in.stored.empty() ? in.path : in.stored;  // an overlay layer: the layer file
  const fs::path p = fs::canonical(in.planned ? folder_of(at) : at, ec);
  if (ec) return {};
  UniqueFd dir(::open((in.planned ? p : p.parent_path()).c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!dir.valid()) return {};
  if (in.planned) return identity_of_fd(dir.get()) == in.id ? std::move(dir) : UniqueFd();
  struct stat st {};
  if (::fstatat(dir.get(), p.filename().c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 ||
      FileIdentity{st.st_dev, st.st_ino} != in.id) {
    return {};
  }
  return dir;
}

}  // namespace

void RunInputs::check_not_inside(const Message& option, const std::string& dir, FileIdentity folder) const {
  check_resolved(option, dir);
  for (const Input& in : inputs_) {
    if (in.device_only || !in.unresolved.empty()) continue;
    // Walk up from the input's folder (or the folder a planned file goes
    // into) to the root through "..", comparing every folder on the way:
    // the folders the input is in, as the kernel links them, not as a path
    // text names them.
    UniqueFd at = open_folder_of_input(in);
    if (!at.valid()) {
      throw InputError(option +
                       Message(fmt::format(
                           " {}: {} is no longer where its path leads (moved or removed while the run "
                           "started); run again",
                           dir, in.planned ? fmt::format("the folder of {} {}", in.option, in.path) : input_name(in))));
    }
    for (;;) {
      const std::optional<FileIdentity> id = identity_of_fd(at.get());
      if (id && *id == folder) {
        if (in.planned) {
          throw InputError(option +
                           Message(fmt::format(" {} would hold {} {}, which this run creates; write the results into "
                                               "another folder",
                                               dir, in.option, in.path)));
        }
        throw InputError(
            option + Message(fmt::format(" {} holds {}; write the results into another folder", dir, input_name(in))));
      }
      UniqueFd up(::openat(at.get(), "..", O_PATH | O_DIRECTORY | O_CLOEXEC));
      if (!up.valid() || !id || identity_of_fd(up.get()) == id) break;  // the root (its ".." is itself)
      at = std::move(up);
    }
  }
}

std::string folder_name_of(const std::string& path) {
  std::string t;
  for (const char c : path) {
    if (c != '/' || t.empty() || t.back() != '/') t += c;
  }
  for (;;) {
    if (t.size() > 1 && t.back() == '/') {
      t.pop_back();
    } else if (t.size() > 2 && t.compare(t.size() - 2, 2, "/.") == 0) {
      t.resize(t.size() - 2);
    } else {
      return t;
    }
  }
}

}  // namespace ftlsim
