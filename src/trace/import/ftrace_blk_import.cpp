// The kernel's blk tracer as read from /sys/kernel/tracing/trace_pipe (or
// `trace`): ftrace's prefix, then blktrace's event text.
//
//   TASK-PID [CPU] FLAGS SECONDS.MICROS: MAJ,MIN ACTION RWBS <tail>
//
// TASK may hold blanks and dashes (split at the last '-' before the pid);
// "(TGID)" after the pid (record-tgid) and the FLAGS column (irq-info) are
// optional; a blk_cgroup column between device and action is skipped. The
// block trace events (block_bio_queue, block_rq_issue, block_rq_complete:
// "SECONDS: block_rq_issue: MAJ,MIN RWBS ... SECTOR + N ... [COMM]") are
// accepted too, as Q, D and C. Lines starting with '#' are headers;
// "CPU:N [LOST M EVENTS]" adds M to the lost-event count.
#include <fmt/format.h>

#include "core/io_units.h"
#include "trace/import/blk_text.h"
#include "trace/import/import_driver.h"

namespace ftlsim::trace::detail {
namespace {

using scan::is_blank;
using scan::is_digit;
using scan::parse_uint;
using scan::quote;
using scan::trim;

// Position of the '[' of the "[CPU]" column, or npos.
[[nodiscard]] size_t find_cpu_column(std::string_view line, size_t& close) {
  size_t pos = 0;
  while ((pos = line.find('[', pos)) != std::string_view::npos) {
    size_t i = pos + 1;
    while (i < line.size() && is_digit(line[i])) ++i;
    if (i > pos + 1 && i < line.size() && line[i] == ']' && pos > 0 && is_blank(line[pos - 1])) {
      close = i;
      return pos;
    }
    ++pos;
  }
  return std::string_view::npos;
}

// blktrace actions are one letter, or "UT" (unplug by timer).
[[nodiscard]] bool is_action(std::string_view a) {
  const auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); };
  return (a.size() == 1 && letter(a[0])) || a == "UT";
}

// The tail of a block trace event: "... SECTOR + N ... [COMM]" with any
// fields around the range (bytes, "(cmd)", ioprio).
[[nodiscard]] bool parse_event_tail(std::string_view rest, BlkTail& t, std::string& why) {
  rest = trim(rest);
  t = BlkTail{};
  if (rest.empty() || rest.back() != ']') {
    why = "the line does not end in ']' (truncated?)";
    return false;
  }
  const size_t open = rest.rfind('[');
  if (open == std::string_view::npos) {
    why = "no '[' before the closing ']'";
    return false;
  }
  t.bracket = rest.substr(open + 1, rest.size() - open - 2);
  const std::string_view head = rest.substr(0, open);
  const size_t plus = head.find(" + ");
  if (plus == std::string_view::npos) return true;  // zero length
  size_t b = plus;
  while (b > 0 && !is_blank(head[b - 1])) --b;
  scan::Tokens after(head.substr(plus + 3));
  if (!parse_uint(head.substr(b, plus - b), "sector", t.sector, why) ||
      !parse_uint(after.next(), "length", t.sectors, why)) {
    return false;
  }
  if (t.sector > UINT64_MAX - t.sectors) {
    why = fmt::format("sector {} + {} overflows 64 bits", t.sector, t.sectors);
    return false;
  }
  return true;
}

class FtraceBlkParser {
 public:
  static constexpr bool kRebaseTime = true;  // the trace clock counts from boot

  explicit FtraceBlkParser(const ImportOptions& o) : action_(static_cast<char>(o.action)) {}
  [[nodiscard]] bool has_device() const { return true; }
  [[nodiscard]] bool has_process() const { return true; }

  LineKind parse(std::string_view line, Event& ev, std::string& why, ImportSummary& s) {
    const std::string_view t = trim(line);
    if (t.empty()) return LineKind::kSkip;
    if (t[0] == '#') {
      ++s.header_lines;
      return LineKind::kSkip;
    }
    if (t.substr(0, 4) == "CPU:" && t.find("[LOST ") != std::string_view::npos) return lost_events(t, why, s);

    size_t close = 0;
    const size_t open = find_cpu_column(line, close);
    if (open == std::string_view::npos) {
      why = "no [CPU] column: not a trace_pipe line (TASK-PID [CPU] FLAGS TIME: MAJ,MIN ACTION RWBS ...)";
      return LineKind::kBad;
    }
    std::string_view task = trim(line.substr(0, open));
    if (!task.empty() && task.back() == ')') {  // "(TGID)" from record-tgid
      const size_t paren = task.rfind('(');
      if (paren != std::string_view::npos) task = trim(task.substr(0, paren));
    }
    const size_t dash = task.rfind('-');
    if (dash == std::string_view::npos) {
      why = fmt::format("expected TASK-PID before [CPU], found {}", quote(task));
      return LineKind::kBad;
    }
    if (!parse_uint(task.substr(dash + 1), "pid", ev.proc, why)) return LineKind::kBad;
    const std::string_view task_comm = trim(task.substr(0, dash));

    scan::Tokens tok(line.substr(close + 1));
    std::string_view time = tok.next();
    if (!time.empty() && time.back() != ':') time = tok.next();  // that was FLAGS
    if (time.empty() || time.back() != ':') {
      why = "expected the timestamp followed by ':' after [CPU] (and the flags)";
      return LineKind::kBad;
    }
    if (!scan::parse_scaled(time.substr(0, time.size() - 1), "time", kNsPerSecond, ev.time_ns, why)) {
      return LineKind::kBad;
    }

    std::string_view dev = tok.next();
    char action = 0;
    bool event_form = false;
    if (!dev.empty() && dev.back() == ':') {  // a block trace event
      const std::string_view name = dev.substr(0, dev.size() - 1);
      if (name == "block_bio_queue") {
        action = 'Q';
      } else if (name == "block_rq_issue") {
        action = 'D';
      } else if (name == "block_rq_complete") {
        action = 'C';
      } else if (name.substr(0, 6) == "block_") {
        ++s.other_actions;
        return LineKind::kSkip;
      } else {
        why = fmt::format("event {} is neither blk tracer output nor a block_ event", quote(name));
        return LineKind::kBad;
      }
      event_form = true;
      dev = tok.next();
    }
    if (!parse_blk_device(dev, ev.dev, why)) return LineKind::kBad;
    if (!event_form) {
      std::string_view act = tok.next();
      if (!is_action(act)) act = tok.next();  // that was the blk_cgroup column
      if (act.empty()) {
        why = "the action is missing";
        return LineKind::kBad;
      }
      action = act.size() == 1 ? act[0] : '\0';
    }
    if (action != action_) {
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
    const bool tail_ok = event_form ? parse_event_tail(tok.rest(), tail, why) : parse_blk_tail(tok.rest(), tail, why);
    if (!tail_ok || !decode_rwbs(rwbs, tail.sectors, kind, why)) return LineKind::kBad;
    if (!blk_event(kind, tail, ev, s)) return LineKind::kSkip;
    ev.comm = action_ == 'C' ? std::string_view() : (tail.bracket.empty() ? task_comm : tail.bracket);
    return LineKind::kEvent;
  }

 private:
  // "CPU:N [LOST M EVENTS]", as trace_pipe reports a ring-buffer overrun.
  static LineKind lost_events(std::string_view t, std::string& why, ImportSummary& s) {
    const size_t at = t.find("[LOST ");
    scan::Tokens tok(t.substr(at + 6));
    uint64_t n = 0;
    if (!parse_uint(tok.next(), "lost event count", n, why)) return LineKind::kBad;
    // Saturates: a wrapped sum could reach 0 and hide the warning.
    s.lost_events = n > UINT64_MAX - s.lost_events ? UINT64_MAX : s.lost_events + n;
    return LineKind::kSkip;
  }

  char action_;
};

}  // namespace

void run_ftrace_blk(const DriveContext& ctx) {
  FtraceBlkParser parser(*ctx.options);
  drive(parser, ctx);
}

}  // namespace ftlsim::trace::detail
