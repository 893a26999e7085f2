// libFuzzer target: DiskSim/MQSim ASCII traces, through the shared importer
// driver and through the stand-alone DiskSimParser, which must agree.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "fuzz_check.h"
#include "trace/import/disksim_import.h"

using namespace ftlsim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  trace::ImportOptions o;
  o.format = trace::TextFormat::kDiskSim;
  o.merge_devices = true;  // every line, whatever its device, as the stand-alone parser reads them
  const std::optional<trace::ParsedTrace> b = fuzz::check_import(text, o, /*rebased=*/false);
  FUZZ_CHECK(b.has_value(), "DiskSim has no option or header that refuses a whole text");

  // The stand-alone parser (import_disksim) against the driver, both skipping.
  trace::DiskSimOptions d;
  d.skip_bad = uint64_t{1} << 40;
  try {
    const trace::DiskSimParsed a = trace::parse_disksim(text, "fuzz.txt", d);
    FUZZ_CHECK(a.records.size() == b->records.size(), "DiskSimParser and the driver disagree on the count");
    FUZZ_CHECK(a.summary.bad_lines == b->summary.bad_lines, "DiskSimParser and the driver disagree on bad lines");
    FUZZ_CHECK(a.summary.first_bad_line == b->summary.first_bad_line, "first bad line differs");
    FUZZ_CHECK(a.summary.lines == b->summary.lines, "line counts differ");
    for (size_t i = 0; i < a.records.size(); ++i) {
      const trace::Record& x = a.records[i];
      const trace::Record& y = b->records[i];
      FUZZ_CHECK(x.time_ns == y.time_ns && x.lba == y.lba && x.sectors == y.sectors && x.op == y.op,
                 "record " + std::to_string(i) + " differs between DiskSimParser and the driver");
    }
  } catch (const InputError& e) {
    FUZZ_CHECK(false, std::string("lenient DiskSim parse threw: ") + e.what());
  }
  return 0;
}
