// libFuzzer target: the --pid-map reader (trace/import/placement_id_source.h). A map
// that parses is looked up with process names, ids and LBAs taken from the
// input's own bytes, and then used for a real import (a fixed blkparse text
// with processes, through --pid-map), so the whole placement path runs.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "memfd_file.h"
#include "trace/import/placement_id_source.h"

using namespace ftlsim;

namespace {

constexpr std::string_view kBlk =
    "8,16 0 1 0.000001000 4242 D WS 2048 + 8 [geth]\n"
    "8,16 0 2 0.000002000 17 D W 0 + 8 [kworker/0:1]\n"
    "8,16 0 3 0.000003000 1 D R 18446744073709551607 + 8 [a b]\n";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static fuzz::MemFile file("fuzz_pid_map");
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const trace::PidMap map = trace::PidMap::parse(text, "fuzz.map");
    // Lookups: every line's text as a comm, its length and offset as pid and LBA.
    size_t pos = 0;
    for (int k = 0; k < 32 && pos <= text.size(); ++k) {
      const size_t nl = std::min(text.find('\n', pos), text.size());
      const std::string_view line = text.substr(pos, nl - pos);
      bool matched = false;
      const trace::PlacementId a = map.lookup(static_cast<uint32_t>(line.size()), line, pos, matched);
      bool matched2 = false;
      const trace::PlacementId b = map.lookup(static_cast<uint32_t>(line.size()), line, pos, matched2);
      FUZZ_CHECK(a == b && matched == matched2, "lookup is not deterministic");
      if (!map.has_process_rules()) {
        bool m3 = false;
        (void)map.lookup(0, {}, pos, m3);
        FUZZ_CHECK(m3 == matched, "a map without process rules depends on the process");
      }
      pos = nl + 1;
    }
  } catch (const InputError& e) {
    fuzz::check_message(e.what());
    FUZZ_CHECK(std::string_view(e.what()).substr(0, 10) == "fuzz.map: ", "message does not name the file");
    return 0;
  }
  // The same map through an import.
  trace::ImportOptions o;
  o.format = trace::TextFormat::kBlkparse;
  o.placement.pid_map = file.set(text);
  try {
    const trace::ParsedTrace t = trace::parse_text_trace(kBlk, "fuzz.txt", o);
    fuzz::check_records(t, o, false);
    FUZZ_CHECK(t.records.size() == 3, "the fixed blkparse text has 3 records");
    FUZZ_CHECK(t.summary.map_matched + t.summary.map_unmatched == 3, "map counts do not cover the records");
  } catch (const InputError& e) {
    FUZZ_CHECK(false, std::string("a map that parses failed the import: ") + e.what());
  }
  return 0;
}
