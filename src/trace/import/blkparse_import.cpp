// blkparse text: the default output, and output printed with a -f format.
//
// Default (blkparse_fmt.c, process_default):
//   MAJ,MIN CPU SEQ SECONDS.NANOSECONDS PID ACTION RWBS <tail>
// with the tail shapes of blk_text.h. After the events blkparse prints
// per-CPU and total statistics ("CPU0 (8,0):", "Total (8,0):", " Reads
// Queued: ...", "Throughput ...", "Events ..."): from the first line that
// starts such a block on, lines that are not events are counted as summary
// lines, never parsed as requests.
#include <fmt/format.h>

#include <optional>
#include <vector>

#include "core/io_units.h"
#include "trace/import/blk_text.h"
#include "trace/import/import_driver.h"

namespace ftlsim::trace::detail {
namespace {

using scan::is_blank;
using scan::is_digit;
using scan::parse_uint;
using scan::quote;

// "CPU<n> (" or "Total (" at the start of a line opens blkparse's statistics.
[[nodiscard]] bool is_summary_start(std::string_view line) {
  if (line.substr(0, 7) == "Total (") return true;
  if (line.substr(0, 3) != "CPU") return false;
  size_t i = 3;
  while (i < line.size() && is_digit(line[i])) ++i;
  return i > 3 && line.substr(i, 2) == " (";
}

// A blkparse -f format compiled into steps. Accepted: %D %M %m %c %s %T %t
// %p %a %d %S %n %N %C %e %u %U %g %z with optional '-' and width (ignored:
// padding is blanks), %% and any other character as itself, \n (end), \t
// \r \b (blanks), blanks matching any run of blanks. Required: %T, %a, %d,
// %S and %n or %N. %t is nanoseconds (blkparse prints %9t zero-padded).
class BlkFormat {
 public:
  enum class Step : uint8_t {
    kBlanks,
    kLiteral,
    kDev,
    kMajor,
    kMinor,
    kCpu,
    kSeq,
    kSec,
    kNsec,
    kPid,
    kAction,
    kRwbs,
    kSector,
    kSectors,
    kBytes,
    kComm,
    kError,
    kSkipNumber,
    kSkipToken,
  };
  struct Op {
    Step step;
    char literal;
  };
  struct Fields {
    uint32_t dev = 0;
    uint32_t major = 0;
    uint32_t minor = 0;
    uint64_t sec = 0;
    uint64_t nsec = 0;
    uint32_t pid = 0;
    std::string_view action;
    std::string_view rwbs;
    uint64_t sector = 0;
    uint64_t sectors = 0;
    uint64_t bytes = 0;
    std::string_view comm;
  };

  static BlkFormat compile(std::string_view f) {
    BlkFormat out;
    const auto push = [&out](Step s, char lit = 0) {
      if (s == Step::kBlanks && !out.ops_.empty() && out.ops_.back().step == Step::kBlanks) return;
      out.ops_.push_back(Op{s, lit});
    };
    bool seen[128] = {};
    for (size_t i = 0; i < f.size(); ++i) {
      const char c = f[i];
      if (c == '%') {
        if (++i >= f.size()) {
          push(Step::kLiteral, '%');
          break;
        }
        if (f[i] == '%') {
          push(Step::kLiteral, '%');
          continue;
        }
        if (f[i] == '-') ++i;
        while (i < f.size() && is_digit(f[i])) ++i;
        if (i >= f.size()) throw InputError(say("`blk-format`: the format ends inside a % field"));
        const char spec = f[i];
        if (static_cast<unsigned char>(spec) < 128) seen[static_cast<unsigned char>(spec)] = true;
        switch (spec) {
          case 'D': push(Step::kDev); break;
          case 'M': push(Step::kMajor); break;
          case 'm': push(Step::kMinor); break;
          case 'c': push(Step::kCpu); break;
          case 's': push(Step::kSeq); break;
          case 'T': push(Step::kSec); break;
          case 't': push(Step::kNsec); break;
          case 'p': push(Step::kPid); break;
          case 'a': push(Step::kAction); break;
          case 'd': push(Step::kRwbs); break;
          case 'S': push(Step::kSector); break;
          case 'n': push(Step::kSectors); break;
          case 'N': push(Step::kBytes); break;
          case 'C': push(Step::kComm); break;
          case 'e': push(Step::kError); break;
          case 'u':
          case 'U': push(Step::kSkipNumber); break;
          case 'g':
          case 'z': push(Step::kSkipToken); break;
          case 'P': throw InputError(say("`blk-format`: %P (the raw payload dump) is not supported"));
          default: push(Step::kLiteral, spec); break;  // blkparse prints unknown fields as the letter
        }
      } else if (c == '\\') {
        if (++i >= f.size()) throw InputError(say("`blk-format`: the format ends in a lone backslash"));
        if (f[i] == 'n') break;  // end of the line
        if (f[i] != 't' && f[i] != 'r' && f[i] != 'b') {
          throw InputError(
              say("`blk-format`: invalid escape {} (blkparse knows \\n \\t \\r \\b)", quote(f.substr(i - 1, 2))));
        }
        push(Step::kBlanks);
      } else if (c == '\n') {
        break;
      } else if (is_blank(c)) {
        push(Step::kBlanks);
      } else {
        push(Step::kLiteral, c);
      }
    }
    const auto has = [&seen](char spec) { return seen[static_cast<unsigned char>(spec)]; };
    std::string missing;
    for (const char* need : {"T", "a", "d", "S"}) {
      if (!has(need[0])) missing += fmt::format(" %{}", need);
    }
    if (!has('n') && !has('N')) missing += " %n-or-%N";
    if (!missing.empty()) {
      throw InputError(
          say("`blk-format`: the format lacks{} (needed: time %T[.%t], action %a, "
              "RWBS %d, sector %S, length %n or %N)",
              missing));
    }
    out.has_device_ = has('D') || (has('M') && has('m'));
    out.has_process_ = has('p') || has('C');
    out.dev_step_ = has('D');
    return out;
  }

  [[nodiscard]] bool has_device() const { return has_device_; }
  [[nodiscard]] bool has_process() const { return has_process_; }

  // Matches `line` against the format; false with `why` when it does not.
  [[nodiscard]] bool match(std::string_view line, Fields& out, std::string& why) const {
    size_t pos = 0;
    const auto skip_blanks = [&] {
      while (pos < line.size() && is_blank(line[pos])) ++pos;
    };
    const auto take = [&](bool is_number, char stop) {
      skip_blanks();
      const size_t start = pos;
      if (is_number) {
        if (pos < line.size() && line[pos] == '-') ++pos;
        while (pos < line.size() && is_digit(line[pos])) ++pos;
      } else {
        while (pos < line.size() && !is_blank(line[pos]) && line[pos] != stop) ++pos;
      }
      return line.substr(start, pos - start);
    };
    for (size_t k = 0; k < ops_.size(); ++k) {
      const Op& op = ops_[k];
      const char next_literal = k + 1 < ops_.size() && ops_[k + 1].step == Step::kLiteral ? ops_[k + 1].literal : '\0';
      switch (op.step) {
        case Step::kBlanks: skip_blanks(); break;
        case Step::kLiteral:
          skip_blanks();
          if (pos >= line.size() || line[pos] != op.literal) {
            why = fmt::format("does not match --blk-format: expected {} at column {}",
                              quote(std::string_view(&op.literal, 1)), pos + 1);
            return false;
          }
          ++pos;
          break;
        case Step::kDev: {
          const std::string_view tok = take(false, next_literal);
          if (!parse_blk_device(tok, out.dev, why)) return false;
          break;
        }
        case Step::kMajor:
          if (!parse_uint(take(true, 0), "major", out.major, why)) return false;
          break;
        case Step::kMinor:
          if (!parse_uint(take(true, 0), "minor", out.minor, why)) return false;
          break;
        case Step::kCpu: {
          uint32_t cpu = 0;
          if (!parse_uint(take(true, 0), "cpu", cpu, why)) return false;
          break;
        }
        case Step::kSeq: {
          uint64_t seq = 0;
          if (!parse_uint(take(true, 0), "sequence", seq, why)) return false;
          break;
        }
        case Step::kSec:
          if (!parse_uint(take(true, 0), "seconds", out.sec, why)) return false;
          break;
        case Step::kNsec:
          if (!parse_uint(take(true, 0), "nanoseconds", out.nsec, why)) return false;
          if (out.nsec >= kNsPerSecond) {
            why = fmt::format("nanoseconds {} are not below 10^9", out.nsec);
            return false;
          }
          break;
        case Step::kPid:
          if (!parse_uint(take(true, 0), "pid", out.pid, why)) return false;
          break;
        case Step::kAction:
          out.action = take(false, next_literal);
          if (out.action.empty()) {
            why = "the action is missing";
            return false;
          }
          break;
        case Step::kRwbs:
          out.rwbs = take(false, next_literal);
          if (out.rwbs.empty()) {
            why = "RWBS is missing";
            return false;
          }
          break;
        case Step::kSector:
          if (!parse_uint(take(true, 0), "sector", out.sector, why)) return false;
          break;
        case Step::kSectors:
          if (!parse_uint(take(true, 0), "length", out.sectors, why)) return false;
          break;
        case Step::kBytes:
          if (!parse_uint(take(true, 0), "bytes", out.bytes, why)) return false;
          break;
        case Step::kError: {
          const std::string_view tok = take(true, 0);
          if (tok.empty() || tok == "-") {
            why = "the error number is missing";
            return false;
          }
          break;
        }
        case Step::kSkipNumber:
          if (take(true, 0).empty()) {
            why = fmt::format("does not match --blk-format: expected a number at column {}", pos + 1);
            return false;
          }
          break;
        case Step::kSkipToken: (void)take(false, next_literal); break;
        case Step::kComm: {
          skip_blanks();
          const bool last = k + 1 == ops_.size() || (k + 2 == ops_.size() && ops_[k + 1].step == Step::kBlanks);
          size_t end = line.size();
          if (next_literal != '\0') {
            end = line.rfind(next_literal);
            if (end == std::string_view::npos || end < pos) {
              why = fmt::format("does not match --blk-format: no {} after the process name",
                                quote(std::string_view(&next_literal, 1)));
              return false;
            }
          } else if (!last) {
            end = pos;
            while (end < line.size() && !is_blank(line[end])) ++end;
          }
          out.comm = scan::trim(line.substr(pos, end - pos));
          pos = end;
          break;
        }
      }
    }
    skip_blanks();
    if (pos != line.size()) {
      why = fmt::format("does not match --blk-format: unexpected {} at column {}", quote(line.substr(pos)), pos + 1);
      return false;
    }
    if (!has_device_) {
      out.dev = 0;
    } else if (!dev_step_) {
      if (out.major > kMaxMajor || out.minor > kMaxMinor) {
        why = fmt::format("device {},{} is out of range", out.major, out.minor);
        return false;
      }
      out.dev = make_dev(out.major, out.minor);
    }
    return true;
  }

 private:
  std::vector<Op> ops_;
  bool has_device_ = false;
  bool has_process_ = false;
  bool dev_step_ = false;  // the device comes from %D, not %M and %m
};

class BlkparseParser {
 public:
  static constexpr bool kRebaseTime = false;  // blkparse times already start at the trace's start

  explicit BlkparseParser(const ImportOptions& o) : action_(static_cast<char>(o.action)) {
    if (!o.blk_format.empty()) format_ = BlkFormat::compile(o.blk_format);
    if (format_ && !format_->has_device() && !o.device.empty()) {
      throw InputError(say("`device` needs %D, or %M and %m, in `blk-format`"));
    }
  }
  [[nodiscard]] bool has_device() const { return !format_ || format_->has_device(); }
  [[nodiscard]] bool has_process() const { return !format_ || format_->has_process(); }

  LineKind parse(std::string_view line, Event& ev, std::string& why, ImportSummary& s) {
    return format_ ? parse_formatted(line, ev, why, s) : parse_default(line, ev, why, s);
  }

 private:
  // Whether a line that is not an event belongs to the statistics block
  // (counted) rather than being malformed.
  bool summary_line(std::string_view line, ImportSummary& s) {
    if (!in_summary_ && !is_summary_start(line)) return false;
    in_summary_ = true;
    ++s.summary_lines;
    return true;
  }

  LineKind parse_default(std::string_view line, Event& ev, std::string& why, ImportSummary& s) {
    scan::Tokens tok(line);
    const std::string_view dev = tok.next();
    if (dev.empty()) return LineKind::kSkip;  // blank
    if (dev.find(',') == std::string_view::npos || !parse_maj_min(dev, ev.dev)) {
      if (summary_line(line, s)) return LineKind::kSkip;
      why = fmt::format(
          "device {} is not MAJ,MIN: not a blkparse event line "
          "(MAJ,MIN CPU SEQ SECONDS PID ACTION RWBS SECTOR + N [COMM])",
          quote(dev));
      return LineKind::kBad;
    }
    uint32_t cpu = 0;
    uint64_t seq = 0;
    const std::string_view cpu_tok = tok.next();
    const std::string_view seq_tok = tok.next();
    const std::string_view time_tok = tok.next();
    const std::string_view pid_tok = tok.next();
    if (!parse_uint(cpu_tok, "cpu", cpu, why) || !parse_uint(seq_tok, "sequence", seq, why) ||
        !parse_time(time_tok, ev.time_ns, why) || !parse_uint(pid_tok, "pid", ev.proc, why)) {
      return LineKind::kBad;
    }
    const std::string_view action = tok.next();
    if (action.empty()) {
      why = "the action is missing";
      return LineKind::kBad;
    }
    if (action.size() != 1 || action[0] != action_) {
      ++s.other_actions;
      return LineKind::kSkip;
    }
    const std::string_view rwbs = tok.next();
    if (rwbs.empty()) {
      why = "RWBS is missing";
      return LineKind::kBad;
    }
    BlkTail tail;
    BlkKind kind{};
    if (!parse_blk_tail(tok.rest(), tail, why) || !decode_rwbs(rwbs, tail.sectors, kind, why)) {
      return LineKind::kBad;
    }
    if (!blk_event(kind, tail, ev, s)) return LineKind::kSkip;
    if (action_ != 'C') ev.comm = tail.bracket;
    return LineKind::kEvent;
  }

  LineKind parse_formatted(std::string_view line, Event& ev, std::string& why, ImportSummary& s) {
    if (scan::is_blank_line(line)) return LineKind::kSkip;
    BlkFormat::Fields f;
    if (!format_->match(line, f, why)) {
      return summary_line(line, s) ? LineKind::kSkip : LineKind::kBad;
    }
    if (f.action.size() != 1 || f.action[0] != action_) {
      ++s.other_actions;
      return LineKind::kSkip;
    }
    if (f.sec > (UINT64_MAX - f.nsec) / kNsPerSecond) {
      why = fmt::format("time {}.{:09} s overflows 64-bit nanoseconds", f.sec, f.nsec);
      return LineKind::kBad;
    }
    ev.time_ns = f.sec * kNsPerSecond + f.nsec;
    BlkTail tail;
    tail.sector = f.sector;
    uint64_t sectors = f.sectors;
    if (f.bytes > 0) {
      sectors = (f.bytes + kSectorBytes - 1) / kSectorBytes;
      if (f.bytes % kSectorBytes != 0) ++s.unaligned;
    }
    if (sectors > UINT32_MAX) {
      why = fmt::format("length {} sectors does not fit in 32 bits", sectors);
      return LineKind::kBad;
    }
    tail.sectors = static_cast<uint32_t>(sectors);
    if (tail.sector > UINT64_MAX - tail.sectors) {
      why = fmt::format("sector {} + {} overflows 64 bits", tail.sector, tail.sectors);
      return LineKind::kBad;
    }
    BlkKind kind{};
    if (!decode_rwbs(f.rwbs, tail.sectors, kind, why)) return LineKind::kBad;
    if (!blk_event(kind, tail, ev, s)) return LineKind::kSkip;
    ev.dev = f.dev;
    ev.proc = f.pid;
    if (action_ != 'C') ev.comm = f.comm;
    return LineKind::kEvent;
  }

  // SECONDS.NANOSECONDS as blkparse prints it ("%5d.%09lu").
  static bool parse_time(std::string_view tok, uint64_t& ns, std::string& why) {
    return scan::parse_scaled(tok, "time", kNsPerSecond, ns, why);
  }

  char action_;
  std::optional<BlkFormat> format_;
  bool in_summary_ = false;
};

}  // namespace

void run_blkparse(const DriveContext& ctx) {
  BlkparseParser parser(*ctx.options);
  drive(parser, ctx);
}

}  // namespace ftlsim::trace::detail
