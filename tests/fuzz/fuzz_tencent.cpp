// libFuzzer target: the Tencent CBS traces importer (--from tencent).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.h"

using namespace ftlsim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  trace::ImportOptions o;
  o.format = trace::TextFormat::kTencent;
  fuzz::check_import(text, o, /*rebased=*/true);
  return 0;
}
