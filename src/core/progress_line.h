#pragma once
// The progress line long commands draw on stderr (simulate, sweeps,
// compare, qd-sweep, convert, gen, replay and its verify phase): how far,
// how fast, how long so far and how long still, redrawn in place and
// cleared at the end.
//
//   simulate  42.0%  12.3M of 29.3M records  4.10M records/s  elapsed 3s  left 4s
//
// Cost: a caller on a hot path calls add()/set() once every
// kProgressBatch records (a mask test per record, nothing else); each call
// is an atomic add and a clock read, and the line is redrawn at most every
// kProgressRedrawNs. Nothing is allocated per call except when redrawing.
// A disabled line (stderr not a terminal, or --no-progress) does nothing.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

namespace ftlsim {

// Records between two progress calls on a hot path (a power of two).
inline constexpr uint64_t kProgressBatch = uint64_t{1} << 16;
// Shortest time between two redraws: 4 per second at most.
inline constexpr uint64_t kProgressRedrawNs = 250'000'000;

// What is counted: records (shown as 12.3M records, rate in records/s) or
// bytes (1.20 GiB, rate in MiB/s). Whole items (configurations) go in the
// note.
enum class ProgressUnit : uint8_t { kRecords, kBytes };

struct ProgressSnapshot {
  std::string_view what;  // "simulate", "convert", ...
  uint64_t done = 0;
  uint64_t total = 0;  // 0: unknown (no percent, no time left)
  ProgressUnit unit = ProgressUnit::kRecords;
  double elapsed_s = 0;
  std::string_view note;  // appended after two blanks when not empty
};

// The text of one progress line (no '\r', no newline).
[[nodiscard]] std::string format_progress(const ProgressSnapshot& s);
// "4.10M records/s", "950 records/s", "350.2 MiB/s".
[[nodiscard]] std::string format_rate(double per_second, ProgressUnit unit);
// "12.3M", "950", "1.23G": 3 significant digits, decimal suffixes.
[[nodiscard]] std::string format_count(uint64_t n);
// "0s", "42s", "3m07s", "2h05m": whole seconds, rounded.
[[nodiscard]] std::string format_elapsed(double seconds);

// Monotonic nanoseconds; tests pass a fake clock.
using ProgressClock = std::function<uint64_t()>;
[[nodiscard]] uint64_t steady_now_ns();

// Whether a command draws progress: stderr is a terminal and the user did
// not give --no-progress.
[[nodiscard]] bool progress_wanted(bool no_progress);

class ProgressLine {
 public:
  // `enabled` false makes every call return at once. `out` is stderr in
  // the commands, a memory stream in tests.
  ProgressLine(std::string what, uint64_t total, ProgressUnit unit, bool enabled, std::FILE* out = stderr,
               ProgressClock clock = steady_now_ns);
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  ~ProgressLine();  // finish()

  // Thread-safe: `n` more done / `done` in all (never goes back).
  void add(uint64_t n);
  // Thread-safe: the total once it is known better (0: unknown).
  void set_total(uint64_t total) { total_.store(total, std::memory_order_relaxed); }
  void set(uint64_t done);
  // Thread-safe: text shown after the numbers ("3/12 configurations done");
  // redraws when due.
  void set_note(std::string note);
  // set_note("3/12 configurations done"): the sweeps' and compare's note.
  void set_configurations_done(size_t done, size_t total);
  // Clears the line (idempotent); later calls draw nothing.
  void finish();

  [[nodiscard]] bool enabled() const { return enabled_; }
  [[nodiscard]] uint64_t done() const { return done_.load(std::memory_order_relaxed); }
  // Seconds since construction.
  [[nodiscard]] double elapsed_s() const;

 private:
  void maybe_draw(uint64_t done);

  std::string what_;
  std::atomic<uint64_t> total_;
  ProgressUnit unit_;
  bool enabled_;
  std::FILE* out_;
  ProgressClock clock_;
  uint64_t start_ns_;
  std::atomic<uint64_t> done_{0};
  std::atomic<uint64_t> next_draw_ns_;
  std::mutex mutex_;  // guards note_, drawn_ and the stream
  std::string note_;
  bool drawn_ = false;
  bool finished_ = false;
};

// A hot loop's side of a ProgressLine (or of none: then it does nothing):
// tick(done) after each item with the count done so far, a mask test that
// reports every kProgressBatch items; finish(done) reports the rest.
class ProgressCounter {
 public:
  explicit ProgressCounter(ProgressLine* line) : line_(line) {}
  // Always inlined: the simulation's loops call it per record.
  [[gnu::always_inline]] void tick(uint64_t done) {
    if (line_ != nullptr && (done & (kProgressBatch - 1)) == 0) [[unlikely]]
      report(done);
  }
  // tick() for a batch: from `before` done to `done`.
  [[gnu::always_inline]] void advance(uint64_t before, uint64_t done) {
    if (line_ != nullptr && (before / kProgressBatch != done / kProgressBatch)) [[unlikely]]
      report(done);
  }
  void finish(uint64_t done) {
    if (line_ != nullptr) report(done);
  }

 private:
  void report(uint64_t done) {
    line_->add(done - reported_);
    reported_ = done;
  }
  ProgressLine* line_;
  uint64_t reported_ = 0;
};

}  // namespace ftlsim
