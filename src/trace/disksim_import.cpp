#include "trace/disksim_import.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <limits>

#include "core/error.h"
#include "trace/ftr_writer.h"

namespace ftlsim::trace {
namespace {

constexpr size_t kColumns = 5;
constexpr std::array<std::string_view, kColumns> kColumnNames = {"arrival time", "device", "lba",
                                                                 "size", "type"};

constexpr bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// A token as it may appear in a message: at most 32 bytes, control and
// non-ASCII bytes shown as '?'.
std::string quote(std::string_view tok) {
  constexpr size_t kMax = 32;
  std::string out;
  for (size_t i = 0; i < tok.size() && i < kMax; ++i) {
    const auto c = static_cast<unsigned char>(tok[i]);
    out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  }
  if (tok.size() > kMax) out += "...";
  return "'" + out + "'";
}

// Parses the whole of `tok` as a decimal unsigned integer into `value`, or
// returns false with the reason, naming `column`, in `why`.
template <typename T>
[[nodiscard]] bool parse_uint(std::string_view tok, std::string_view column, T& value, std::string& why) {
  const char* first = tok.data();
  const char* last = tok.data() + tok.size();
  const auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec == std::errc() && ptr == last) return true;
  if (ec == std::errc::result_out_of_range) {
    why = fmt::format("{} {} does not fit in {} bits", column, quote(tok), 8 * sizeof(T));
  } else if (tok[0] == '-' && tok.size() > 1 &&
             tok.find_first_not_of("0123456789", 1) == std::string_view::npos) {
    why = fmt::format("{} {} is negative", column, quote(tok));
  } else {
    why = fmt::format("{} {} is not a decimal integer", column, quote(tok));
  }
  return false;
}

// Read-only mapping of a whole input file; an empty file maps nothing.
class MappedText {
 public:
  explicit MappedText(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      if (errno == ENOENT || errno == ENOTDIR) throw InputError(fmt::format("{}: no such file", path));
      throw system_error_from_errno(path + ": cannot open");
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
      const SystemError e = system_error_from_errno(path + ": cannot stat");
      ::close(fd);
      throw e;
    }
    if (!S_ISREG(st.st_mode)) {
      ::close(fd);
      throw InputError(fmt::format("{}: not a regular file", path));
    }
    size_ = static_cast<size_t>(st.st_size);
    if (size_ > 0) {
      map_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (map_ == MAP_FAILED) {
        map_ = nullptr;
        const SystemError e = system_error_from_errno(path + ": cannot mmap");
        ::close(fd);
        throw e;
      }
      (void)::madvise(map_, size_, MADV_SEQUENTIAL);
    }
    ::close(fd);
  }
  MappedText(const MappedText&) = delete;
  MappedText& operator=(const MappedText&) = delete;
  ~MappedText() {
    if (map_ != nullptr) ::munmap(map_, size_);
  }
  [[nodiscard]] std::string_view text() const {
    return map_ == nullptr ? std::string_view() : std::string_view(static_cast<const char*>(map_), size_);
  }

 private:
  void* map_ = nullptr;
  size_t size_ = 0;
};

}  // namespace

DiskSimParser::DiskSimParser(std::string_view text, std::string source_name, const DiskSimOptions& options)
    : text_(text), source_(std::move(source_name)), options_(options) {}

DiskSimParser::LineKind DiskSimParser::parse_line(std::string_view line, Record& out, uint32_t& device,
                                                  std::string& why) const {
  if (line.size() > kDiskSimMaxLineBytes) {
    why = fmt::format("line is {} bytes long (limit {}); is this a text trace?", line.size(),
                      kDiskSimMaxLineBytes);
    return LineKind::kBad;
  }
  std::array<std::string_view, kColumns> tok;
  size_t n = 0;
  size_t i = 0;
  while (true) {
    while (i < line.size() && is_blank(line[i])) ++i;
    if (i == line.size()) break;
    if (n == 0 && line[i] == '#') return LineKind::kSkip;
    const size_t start = i;
    while (i < line.size() && !is_blank(line[i])) ++i;
    if (n < kColumns) tok[n] = line.substr(start, i - start);
    ++n;
  }
  if (n == 0) return LineKind::kSkip;
  if (n != kColumns) {
    why = fmt::format("expected 5 columns (arrival_ns device lba size type), found {}", n);
    return LineKind::kBad;
  }
  uint64_t time = 0;
  uint64_t lba = 0;
  uint32_t size = 0;
  uint64_t type = 0;
  if (!parse_uint(tok[0], kColumnNames[0], time, why) || !parse_uint(tok[1], kColumnNames[1], device, why) ||
      !parse_uint(tok[2], kColumnNames[2], lba, why) || !parse_uint(tok[3], kColumnNames[3], size, why) ||
      !parse_uint(tok[4], kColumnNames[4], type, why)) {
    return LineKind::kBad;
  }
  if (size == 0) {
    why = "size is 0 sectors (zero-length request)";
    return LineKind::kBad;
  }
  if (type > 1) {
    why = fmt::format("type {} is neither 0 (write) nor 1 (read)", quote(tok[4]));
    return LineKind::kBad;
  }
  if (lba > std::numeric_limits<uint64_t>::max() - size) {
    why = fmt::format("lba {} + size {} overflows 64 bits", lba, size);
    return LineKind::kBad;
  }
  out.time_ns = time;
  out.lba = lba;
  out.sectors = size;
  out.pid = options_.pid;
  out.op = static_cast<uint8_t>(type == 0 ? Op::kWrite : Op::kRead);
  out.flags = 0;
  return LineKind::kRequest;
}

bool DiskSimParser::next(Record& out) {
  std::string why;
  uint32_t device = 0;
  while (pos_ < text_.size()) {
    const char* start = text_.data() + pos_;
    const size_t remaining = text_.size() - pos_;
    const auto* nl = static_cast<const char*>(std::memchr(start, '\n', remaining));
    const size_t len = nl != nullptr ? static_cast<size_t>(nl - start) : remaining;
    pos_ += nl != nullptr ? len + 1 : len;
    ++summary_.lines;

    switch (parse_line(std::string_view(start, len), out, device, why)) {
      case LineKind::kSkip:
        continue;
      case LineKind::kBad:
        if (summary_.bad_lines < options_.skip_bad) {
          if (summary_.bad_lines == 0) {
            summary_.first_bad_line = summary_.lines;
            summary_.first_bad_reason = why;
          }
          ++summary_.bad_lines;
          continue;
        }
        if (options_.skip_bad > 0) {
          throw InputError(fmt::format("{}: line {}: {} (the limit of {} malformed lines is reached)",
                                       source_, summary_.lines, why, options_.skip_bad));
        }
        throw InputError(fmt::format("{}: line {}: {}", source_, summary_.lines, why));
      case LineKind::kRequest:
        break;
    }
    if (options_.device && device != *options_.device) {
      ++summary_.filtered;
      continue;
    }
    if (summary_.records > 0 && out.time_ns < last_time_) ++summary_.backwards_timestamps;
    last_time_ = out.time_ns;
    ++summary_.records;
    return true;
  }
  return false;
}

DiskSimParsed parse_disksim(std::string_view text, const std::string& source_name,
                            const DiskSimOptions& options) {
  DiskSimParsed parsed;
  DiskSimParser parser(text, source_name, options);
  Record r{};
  while (parser.next(r)) parsed.records.push_back(r);
  parsed.summary = parser.summary();
  return parsed;
}

ImportResult import_disksim(const std::string& in, const std::string& out, const DiskSimOptions& options) {
  const MappedText input(in);
  TraceMeta meta;
  meta.sector_bytes = 512;
  meta.kv = {{"source", "disksim"},
             {"source_file", std::filesystem::path(in).filename().string()},
             {"converted_by", "ftlsim convert"}};
  if (options.device) meta.kv.emplace_back("device", std::to_string(*options.device));

  DiskSimParser parser(input.text(), in, options);
  FtrWriter writer(out, std::move(meta));
  Record r{};
  while (parser.next(r)) writer.append(r);
  writer.finish();
  return ImportResult{parser.summary(), writer.count()};
}

}  // namespace ftlsim::trace
