#include "core/error.h"

#include <cerrno>
#include <cstring>

namespace ftlsim {

SystemError system_error_from_errno(const Message& what) {
  const int err = errno;
  return SystemError(what + Message(std::string(": ") + std::strerror(err)));
}

}  // namespace ftlsim
