#include "replay/verify.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <vector>

#include "core/error.h"
#include "core/units.h"
#include "replay/data_pattern.h"

namespace ftlsim::replay {
namespace {

constexpr uint32_t kUntouched = 0;
constexpr uint32_t kTrimmed = 0xffffffffu;
constexpr size_t kChunk = size_t{1} << 20;

struct FreeDeleter {
  void operator()(uint8_t* p) const { std::free(p); }
};

}  // namespace

void check_verify_size(const TargetInfo& info) {
  if (info.bytes > kMaxVerifyBytes) {
    throw InputError(say("`verify` supports targets up to {}; {} has {}", format_bytes(kMaxVerifyBytes), info.path,
                         format_bytes(info.bytes)));
  }
}

VerifyResult verify_target(const Target& target, std::span<const trace::Record> records, const StreamGeometry& geo,
                           ProgressLine* progress, const std::atomic<bool>* stop) {
  const auto start = std::chrono::steady_clock::now();
  const TargetInfo& info = target.info();
  check_verify_size(info);
  // Last op per unit: record + 1 for a write, kTrimmed, or kUntouched.
  std::vector<uint32_t> last(info.bytes / kPatternUnit, kUntouched);
  RequestStream stream(records, geo);
  IoRequest io;
  while (stream.next(io)) {
    if (io.op != trace::Op::kWrite && io.op != trace::Op::kTrim) continue;
    const uint32_t mark = io.op == trace::Op::kWrite ? io.record + 1 : kTrimmed;
    std::fill_n(last.begin() + static_cast<ptrdiff_t>(io.offset / kPatternUnit), io.bytes / kPatternUnit, mark);
  }

  void* mem = nullptr;
  if (::posix_memalign(&mem, std::max<size_t>(info.mem_align, 4096), kChunk) != 0) {
    throw SystemError("cannot allocate the verification buffer");
  }
  const std::unique_ptr<uint8_t, FreeDeleter> buf(static_cast<uint8_t*>(mem));
  const bool zeros_expected = info.kind == TargetKind::kFile;
  VerifyResult v;
  for (uint64_t at = 0; at < info.bytes; at += kChunk) {
    if (progress != nullptr) progress->set(at);
    if (stop != nullptr && stop->load(std::memory_order_relaxed)) {
      v.interrupted = true;
      v.checked_bytes = at;
      break;
    }
    const size_t n = static_cast<size_t>(std::min<uint64_t>(kChunk, info.bytes - at));
    const size_t first = static_cast<size_t>(at / kPatternUnit);
    const size_t units = n / kPatternUnit;
    if (std::all_of(last.begin() + static_cast<ptrdiff_t>(first), last.begin() + static_cast<ptrdiff_t>(first + units),
                    [](uint32_t m) { return m == kUntouched; })) {
      continue;
    }
    size_t got = 0;
    while (got < n) {
      const ssize_t r = ::pread(target.fd(), buf.get() + got, n - got, static_cast<off_t>(at + got));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) throw system_error_from_errno(say("{}: `verify`: read at offset {}", info.path, at + got));
      got += static_cast<size_t>(r);
    }
    v.read_bytes += n;
    for (size_t u = 0; u < units; ++u) {
      const uint32_t mark = last[first + u];
      if (mark == kUntouched) continue;
      const uint64_t offset = at + u * kPatternUnit;
      const std::span<const uint8_t> unit(buf.get() + u * kPatternUnit, kPatternUnit);
      std::string problem;
      if (mark == kTrimmed) {
        if (!zeros_expected) {
          ++v.unchecked_units;
          continue;
        }
        ++v.trimmed_units;
        if (!std::all_of(unit.begin(), unit.end(), [](uint8_t b) { return b == 0; })) {
          problem = "trimmed last, but does not read as zeros";
        }
      } else {
        ++v.written_units;
        problem = check_unit(unit, offset, mark - 1, records[mark - 1].pid);
      }
      if (!problem.empty()) {
        if (v.mismatches == 0) v.first_mismatch = fmt::format("offset {}: {}", offset, problem);
        ++v.mismatches;
      }
    }
  }
  if (!v.interrupted) v.checked_bytes = info.bytes;
  if (progress != nullptr) progress->set(v.checked_bytes);
  v.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return v;
}

}  // namespace ftlsim::replay
