#include "core/build_identity.h"

#include <fmt/format.h>

#include "core/version.h"

namespace ftlsim {

std::string this_build() { return fmt::format("ftlsim {} (sources {})", kVersion, source_digest()); }

}  // namespace ftlsim
