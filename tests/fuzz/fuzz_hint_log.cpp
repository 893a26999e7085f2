// libFuzzer target: the write-hint log reader and its index
// (trace/import/placement_id_source.h, HintIndex), and --hint-map. An input whose
// first line starts with "map:" has that line's rest parsed as --hint-map.
// A log that parses is looked up with devices, sectors and times taken from
// the numbers in the input, with the device match on and off; widening the
// tolerance must never lose a match.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.h"
#include "trace/import/placement_id_source.h"

using namespace ftlsim;

namespace {

// Up to `max` decimal numbers found in `text` (saturating), then 0s.
std::vector<uint64_t> numbers(std::string_view text, size_t max) {
  std::vector<uint64_t> out;
  for (size_t i = 0; i < text.size() && out.size() < max;) {
    if (text[i] < '0' || text[i] > '9') {
      ++i;
      continue;
    }
    uint64_t v = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      const auto d = static_cast<uint64_t>(text[i] - '0');
      v = v > (std::numeric_limits<uint64_t>::max() - d) / 10 ? std::numeric_limits<uint64_t>::max() : v * 10 + d;
    }
    out.push_back(v);
  }
  while (out.size() < max) out.push_back(0);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  if (text.substr(0, 4) == "map:") {
    const size_t nl = text.find('\n');
    const std::string_view spec = text.substr(4, nl == std::string_view::npos ? std::string_view::npos : nl - 4);
    try {
      const std::vector<trace::PlacementId> table = trace::parse_hint_map(spec);
      FUZZ_CHECK(table.size() == 65536, "the hint map covers every 16-bit value");
    } catch (const InputError& e) {
      fuzz::check_message(e.what());
    }
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  }
  trace::HintIndex::LoadOptions lo;
  lo.field = size % 2 == 0 ? trace::HintField::kHint : trace::HintField::kStream;
  lo.skip_bad = size % 3 == 0 ? 0 : uint64_t{1} << 40;
  try {
    trace::HintIndex index = trace::HintIndex::parse(text, "fuzz.hints", lo);
    FUZZ_CHECK(index.bad_lines() <= lo.skip_bad, "more bad lines than --skip-bad allows");
    const std::vector<uint64_t> n = numbers(text, 24);
    for (const bool match_device : {true, false}) {
      index.set_match_device(match_device);
      for (size_t q = 0; q + 3 < n.size(); q += 4) {
        // dev, sector, sectors, time as the log spells them (MAJ:MIN is two numbers).
        const auto dev = trace::make_dev(static_cast<uint32_t>(n[q] & trace::kMaxMajor),
                                         static_cast<uint32_t>(n[q + 1] & trace::kMaxMinor));
        const uint64_t lba = n[q + 2];
        const auto sectors = static_cast<uint32_t>(std::min<uint64_t>(n[q + 3], 4096));
        if (lba > std::numeric_limits<uint64_t>::max() - std::max<uint32_t>(sectors, 1)) continue;
        const uint64_t t = n[(q + 4) % n.size()];
        const auto near = index.lookup(dev, lba, sectors, t, 1000);
        const auto far = index.lookup(dev, lba, sectors, t, std::numeric_limits<uint64_t>::max());
        FUZZ_CHECK(!near || far, "a wider tolerance lost a match");
      }
    }
  } catch (const InputError& e) {
    fuzz::check_message(e.what());
    FUZZ_CHECK(std::string_view(e.what()).substr(0, 12) == "fuzz.hints: " ||
                   std::string_view(e.what()).substr(0, 15) == "write-hint log:",
               std::string("message does not name the file: ") + e.what());
  }
  return 0;
}
