// libFuzzer target: blktrace's binary records (--from blktrace). The input is
// one file; it is also read as two per-CPU files, split at a record boundary
// chosen by its length, whose merge must give the same records in the same
// multiset (the merge orders them by time either way). The imported action
// (Q, D or C) follows the input's length.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "fuzz_check.h"

using namespace ftlsim;

namespace {

bool same_records(std::vector<trace::Record> a, std::vector<trace::Record> b) {
  const auto key = [](const trace::Record& r) { return std::tie(r.time_ns, r.lba, r.sectors, r.op, r.pid); };
  const auto less = [&key](const trace::Record& x, const trace::Record& y) { return key(x) < key(y); };
  std::sort(a.begin(), a.end(), less);
  std::sort(b.begin(), b.end(), less);
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [&key](const auto& x, const auto& y) { return key(x) == key(y); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  constexpr trace::BlkAction kActions[] = {trace::BlkAction::kIssue, trace::BlkAction::kQueue,
                                           trace::BlkAction::kComplete};
  trace::ImportOptions o;
  o.format = trace::TextFormat::kBlktrace;
  o.action = kActions[size % 3];
  const std::optional<trace::ParsedTrace> whole = fuzz::check_import(text, o, /*rebased=*/true);
  if (!whole || whole->summary.bad_lines > 0 || size < 96 || size % 48 != 0) return 0;
  // Only inputs of header-only records (pdu_len, the last two bytes of each
  // 48, zero in either byte order): any cut at a multiple of 48 is a record
  // boundary.
  for (size_t pos = 46; pos < size; pos += 48) {
    if (data[pos] != 0 || data[pos + 1] != 0) return 0;
  }
  const size_t cut = (size / 48 / 2) * 48;
  const std::string_view parts[] = {text.substr(0, cut), text.substr(cut)};
  const std::string names[] = {"fuzz.blktrace.0", "fuzz.blktrace.1"};
  o.keep_time = true;
  o.skip_bad = 0;
  try {
    const trace::ParsedTrace one = trace::parse_text_trace(text, "fuzz.txt", o);
    const trace::ParsedTrace two = trace::parse_trace_files(parts, names, o);
    FUZZ_CHECK(same_records(one.records, two.records), "one file and its two halves import different records");
  } catch (const InputError& e) {
    FUZZ_CHECK(false, std::string("the whole input imported, its two halves did not: ") + e.what());
  }
  return 0;
}
