// libFuzzer target: blkparse text (--from blkparse). An input whose first
// line starts with "-f " is printed with that -f format (the rest of the
// line, as --blk-format) and the text starts on line 2; otherwise it is
// blkparse's default output. The imported action (Q, D or C) follows the
// input's length.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"

using namespace ftlsim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  constexpr trace::BlkAction kActions[] = {trace::BlkAction::kIssue, trace::BlkAction::kQueue,
                                           trace::BlkAction::kComplete};
  trace::ImportOptions o;
  o.format = trace::TextFormat::kBlkparse;
  o.action = kActions[size % 3];
  if (text.substr(0, 3) == "-f ") {
    const size_t nl = text.find('\n');
    o.blk_format = std::string(text.substr(3, nl == std::string_view::npos ? std::string_view::npos : nl - 3));
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  }
  fuzz::check_import(text, o, /*rebased=*/false);
  return 0;
}
