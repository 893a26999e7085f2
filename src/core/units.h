#pragma once
// Parsing and printing of sizes with binary unit suffixes ("4K", "16M",
// "64G", "1T", also "16MiB", "16MB"; all powers of 1024) and of lists and
// ranges used by option values.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/message.h"

namespace ftlsim {

// Parses a non-negative size. Returns nullopt on anything malformed or on
// overflow of 64 bits. A bare number is bytes.
[[nodiscard]] std::optional<uint64_t> parse_size(std::string_view text);

// Like parse_size, but throws InputError naming `what` (an option name).
[[nodiscard]] uint64_t parse_size_or_throw(std::string_view text, const Message& what);

// A duration in nanoseconds: a non-negative number with a unit ns, us, ms or
// s ("10us", "2.5us", "1ms"); a bare number is nanoseconds. Rounded to 1 ns.
// nullopt on anything malformed or beyond 64 bits.
[[nodiscard]] std::optional<uint64_t> parse_duration_ns(std::string_view text);

// A whole number: decimal digits, optionally with a whole decimal exponent
// ("250000", "1e6", "2E9" = 2 * 10^9). nullopt on anything else (a sign, a
// fraction, a suffix, spaces) or beyond 64 bits. Letter suffixes are not
// counts: every size option reads 2G as 2 GiB.
[[nodiscard]] std::optional<uint64_t> parse_count(std::string_view text);

// The one parser of integer option values (--seed, --skip-bad, -j, --qd,
// --writes, ...): a parse_count number from `min` to `max`. A sign, a
// fraction, a suffix, spaces or a value beyond 64 bits are refused with an
// InputError naming `what` (the option) and the valid range, rather than
// wrapped or saturated.
[[nodiscard]] uint64_t parse_uint_option(std::string_view text, const Message& what, uint64_t min = 0,
                                         uint64_t max = UINT64_MAX);

// "16 MiB", "1.50 GiB", "512 B": a short human form, 2 decimals at most.
[[nodiscard]] std::string format_bytes(uint64_t bytes);

// "1G", "96K", "1536K", or plain bytes: the largest binary unit (up to P)
// dividing exactly, a form parse_size reads back to the same value.
[[nodiscard]] std::string format_size_exact(uint64_t bytes);

}  // namespace ftlsim
