#include "core/error.h"

#include <cerrno>
#include <cstring>

namespace ftlsim {

SystemError system_error_from_errno(const std::string& what) {
  return SystemError(what + ": " + std::strerror(errno));
}

}  // namespace ftlsim
