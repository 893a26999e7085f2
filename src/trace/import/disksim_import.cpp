#include "trace/import/disksim_import.h"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <limits>

#include "core/error.h"
#include "core/io_units.h"
#include "trace/ftr_writer.h"
#include "trace/import/mapped_text.h"
#include "trace/import/text_scan.h"

namespace ftlsim::trace {
namespace {

constexpr size_t kColumns = 5;
constexpr std::array<std::string_view, kColumns> kColumnNames = {"arrival time", "device", "lba", "size", "type"};

}  // namespace

DiskSimParser::DiskSimParser(std::string_view text, std::string source_name, const DiskSimOptions& options)
    : cursor_(text), source_(std::move(source_name)), options_(options) {}

DiskSimLine parse_disksim_line(std::string_view line, Record& out, uint32_t& device, std::string& why) {
  using scan::is_blank;
  using scan::parse_uint;
  using scan::quote;
  static_assert(kDiskSimMaxLineBytes == scan::kMaxLineBytes);
  if (line.size() > kDiskSimMaxLineBytes) {
    why = scan::overlong_line_message();
    return DiskSimLine::kBad;
  }
  std::array<std::string_view, kColumns> tok;
  size_t n = 0;
  size_t i = 0;
  while (true) {
    while (i < line.size() && is_blank(line[i])) ++i;
    if (i == line.size()) break;
    if (n == 0 && line[i] == '#') return DiskSimLine::kSkip;
    const size_t start = i;
    while (i < line.size() && !is_blank(line[i])) ++i;
    if (n < kColumns) tok[n] = line.substr(start, i - start);
    ++n;
  }
  if (n == 0) return DiskSimLine::kSkip;
  if (n != kColumns) {
    why = fmt::format("expected 5 columns (arrival_ns device lba size type), found {}", n);
    return DiskSimLine::kBad;
  }
  uint64_t time = 0;
  uint64_t lba = 0;
  uint32_t size = 0;
  uint64_t type = 0;
  if (!parse_uint(tok[0], kColumnNames[0], time, why)) {
    // DiskSim's own traces have decimal milliseconds where MQSim has whole ns.
    if (tok[0].find('.') != std::string_view::npos) {
      why +=
          " (MQSim's times are whole nanoseconds; DiskSim's own traces, in decimal milliseconds, convert with "
          "--from csv: docs/trace_format.md, disksim)";
    }
    return DiskSimLine::kBad;
  }
  if (!parse_uint(tok[1], kColumnNames[1], device, why) || !parse_uint(tok[2], kColumnNames[2], lba, why) ||
      !parse_uint(tok[3], kColumnNames[3], size, why) || !parse_uint(tok[4], kColumnNames[4], type, why)) {
    return DiskSimLine::kBad;
  }
  if (size == 0) {
    why = "size is 0 sectors (zero-length request)";
    return DiskSimLine::kBad;
  }
  if (type > 1) {
    why = fmt::format("type {} is neither 0 (write) nor 1 (read)", quote(tok[4]));
    return DiskSimLine::kBad;
  }
  if (lba > std::numeric_limits<uint64_t>::max() - size) {
    why = fmt::format("lba {} + size {} overflows 64 bits", lba, size);
    return DiskSimLine::kBad;
  }
  out.time_ns = time;
  out.lba = lba;
  out.sectors = size;
  out.pid = 0;
  out.op = static_cast<uint8_t>(type == 0 ? Op::kWrite : Op::kRead);
  out.flags = 0;
  return DiskSimLine::kRequest;
}

bool DiskSimParser::next(Record& out) {
  std::string why;
  uint32_t device = 0;
  std::string_view line;
  while (cursor_.next(line)) {
    ++summary_.lines;
    // An overlong line comes cut at the limit, nothing past it read: the
    // line parse refuses it by its length.
    switch (parse_disksim_line(line, out, device, why)) {
      case DiskSimLine::kSkip: continue;
      case DiskSimLine::kBad:
        if (summary_.bad_lines < options_.skip_bad) {
          if (summary_.bad_lines == 0) {
            summary_.first_bad_line = summary_.lines;
            summary_.first_bad_reason = why;
          }
          ++summary_.bad_lines;
          cursor_.skip_overlong();  // skipped: on to its end
          continue;
        }
        if (options_.skip_bad > 0) {
          throw InputError(fmt::format("{}: line {}: {} (the limit of {} malformed lines is reached)", source_,
                                       summary_.lines, why, options_.skip_bad));
        }
        throw InputError(fmt::format("{}: line {}: {}", source_, summary_.lines, why));
      case DiskSimLine::kRequest: out.pid = options_.pid; break;
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

DiskSimParsed parse_disksim(std::string_view text, const std::string& source_name, const DiskSimOptions& options) {
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
  meta.sector_bytes = kSectorBytes;
  meta.kv = {{"source", "disksim"},
             {"source_file", std::filesystem::path(in).filename().string()},
             {"converted_by", "ftlsim convert"}};
  if (options.device) meta.kv.emplace_back("device", std::to_string(*options.device));

  DiskSimParser parser(input.text(), in, options);
  FtrWriter writer(out, std::move(meta));
  Record r{};
  while (parser.next(r)) writer.append(r);
  input.check_intact();  // before the output appears
  writer.finish();
  return ImportResult{parser.summary(), writer.count()};
}

}  // namespace ftlsim::trace
