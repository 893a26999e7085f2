#include "core/progress_line.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>

#include "core/units.h"

namespace ftlsim {

std::string format_count(uint64_t n) {
  if (n < 1000) return fmt::format("{}", n);
  static constexpr const char* kSuffix[] = {"k", "M", "G", "T", "P", "E"};
  double v = static_cast<double>(n);
  size_t s = 0;
  v /= 1000.0;
  while (v >= 999.95 && s + 1 < std::size(kSuffix)) {
    v /= 1000.0;
    ++s;
  }
  const int decimals = v < 9.995 ? 2 : v < 99.95 ? 1 : 0;
  return fmt::format("{:.{}f}{}", v, decimals, kSuffix[s]);
}

std::string format_rate(double per_second, ProgressUnit unit) {
  if (!(per_second >= 0) || !std::isfinite(per_second)) per_second = 0;
  if (unit == ProgressUnit::kBytes) return fmt::format("{:.1f} MiB/s", per_second / (1024.0 * 1024.0));
  return fmt::format("{} records/s", format_count(static_cast<uint64_t>(std::llround(per_second))));
}

std::string format_elapsed(double seconds) {
  if (!(seconds >= 0) || !std::isfinite(seconds)) seconds = 0;
  const auto s = static_cast<uint64_t>(std::llround(seconds));
  if (s < 60) return fmt::format("{}s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}h{:02}m", s / 3600, s % 3600 / 60);
}

std::string format_progress(const ProgressSnapshot& p) {
  const bool bytes = p.unit == ProgressUnit::kBytes;
  const auto amount = [bytes](uint64_t v) { return bytes ? format_bytes(v) : format_count(v); };
  std::string out(p.what);
  if (p.total != 0) {
    const double pct = std::min(100.0, 100.0 * static_cast<double>(p.done) / static_cast<double>(p.total));
    out += fmt::format("  {:5.1f}%  {} of {}", pct, amount(p.done), amount(p.total));
  } else {
    out += fmt::format("  {}", amount(p.done));
  }
  if (!bytes) out += " records";
  const double rate = p.elapsed_s > 0 ? static_cast<double>(p.done) / p.elapsed_s : 0.0;
  if (p.elapsed_s > 0) out += "  " + format_rate(rate, p.unit);
  out += "  elapsed " + format_elapsed(p.elapsed_s);
  // Time left once 1% is done: before that the rate is mostly the command's
  // set-up (mapping the trace, building the FTL) and the estimate is noise.
  if (p.total != 0 && p.done < p.total && rate > 0 && p.done * 100 >= p.total) {
    out += "  left " + format_elapsed(static_cast<double>(p.total - p.done) / rate);
  }
  if (!p.note.empty()) {
    out += "  ";
    out += p.note;
  }
  return out;
}

uint64_t steady_now_ns() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

bool progress_wanted(bool no_progress) { return !no_progress && ::isatty(STDERR_FILENO) == 1; }

ProgressLine::ProgressLine(std::string what, uint64_t total, ProgressUnit unit, bool enabled, std::FILE* out,
                           ProgressClock clock)
    : what_(std::move(what)),
      total_(total),
      unit_(unit),
      enabled_(enabled && out != nullptr),
      out_(out),
      clock_(std::move(clock)),
      start_ns_(enabled_ ? clock_() : 0),
      next_draw_ns_(start_ns_ + kProgressRedrawNs) {}

ProgressLine::~ProgressLine() { finish(); }

double ProgressLine::elapsed_s() const {
  if (!enabled_) return 0;
  return static_cast<double>(clock_() - start_ns_) * 1e-9;
}

void ProgressLine::add(uint64_t n) {
  if (!enabled_) return;
  maybe_draw(done_.fetch_add(n, std::memory_order_relaxed) + n);
}

void ProgressLine::set(uint64_t done) {
  if (!enabled_) return;
  uint64_t cur = done_.load(std::memory_order_relaxed);
  while (cur < done && !done_.compare_exchange_weak(cur, done, std::memory_order_relaxed)) {
  }
  maybe_draw(std::max(cur, done));
}

void ProgressLine::set_configurations_done(size_t done, size_t total) {
  if (enabled_) set_note(fmt::format("{}/{} configurations done", done, total));
}

void ProgressLine::set_note(std::string note) {
  if (!enabled_) return;
  {
    const std::lock_guard lock(mutex_);
    note_ = std::move(note);
  }
  maybe_draw(done_.load(std::memory_order_relaxed));
}

void ProgressLine::maybe_draw(uint64_t done) {
  const uint64_t now = clock_();
  uint64_t due = next_draw_ns_.load(std::memory_order_relaxed);
  if (now < due) return;
  // One thread draws; the others go on.
  if (!next_draw_ns_.compare_exchange_strong(due, now + kProgressRedrawNs, std::memory_order_relaxed)) return;
  const std::unique_lock lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock() || finished_) return;
  const ProgressSnapshot s{
      what_, done, total_.load(std::memory_order_relaxed), unit_, static_cast<double>(now - start_ns_) * 1e-9, note_};
  const std::string text = format_progress(s);
  std::fprintf(out_, "\r%s\033[K", text.c_str());
  std::fflush(out_);
  drawn_ = true;
}

void ProgressLine::finish() {
  if (!enabled_) return;
  const std::lock_guard lock(mutex_);
  if (finished_) return;
  finished_ = true;
  if (drawn_) {
    std::fputs("\r\033[K", out_);
    std::fflush(out_);
  }
}

}  // namespace ftlsim
