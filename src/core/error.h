#pragma once
// Error types thrown at the edges (files, headers, options). `main` turns
// each into one line on stderr and an exit code; library code never exits.
// Each carries its Message (core/message.h): the settings it names are held
// apart, for cli/ to show as flags; what() writes them as `name`.
#include <memory>
#include <stdexcept>
#include <string>

#include "core/message.h"

namespace ftlsim {

// An exception whose text is a Message.
class MessageError : public std::runtime_error {
 public:
  explicit MessageError(const Message& m) : std::runtime_error(m.str()), message_(std::make_shared<const Message>(m)) {}
  explicit MessageError(const std::string& text) : MessageError(Message(text)) {}
  explicit MessageError(const char* text) : MessageError(Message(text)) {}
  [[nodiscard]] const Message& message() const { return *message_; }

 private:
  std::shared_ptr<const Message> message_;  // shared: copying an exception must not throw
};

// Bad input the user can fix: malformed trace, impossible configuration,
// out-of-range LBA. The message names the file and record/line or setting.
// Exit code 2.
class InputError : public MessageError {
 public:
  using MessageError::MessageError;
};

// The environment failed us: an I/O error, a syscall that refused. Exit code 1.
class SystemError : public MessageError {
 public:
  using MessageError::MessageError;
};

// Builds "what: strerror(errno)" for a failed syscall.
[[nodiscard]] SystemError system_error_from_errno(const Message& what);

}  // namespace ftlsim
