// libFuzzer target: the kernel blk tracer's trace_pipe text (--from
// ftrace-blk). The imported action (Q, D or C) follows the input's length,
// so every action is reached without a prefix in the corpus files.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.h"

using namespace ftlsim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  constexpr trace::BlkAction kActions[] = {trace::BlkAction::kIssue, trace::BlkAction::kQueue,
                                           trace::BlkAction::kComplete};
  trace::ImportOptions o;
  o.format = trace::TextFormat::kFtraceBlk;
  o.action = kActions[size % 3];
  fuzz::check_import(text, o, /*rebased=*/true);
  return 0;
}
