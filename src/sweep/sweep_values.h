#pragma once
// The values of a sweep's options: lists and ranges, as given on the command
// line, expanded into items (one item per configuration along that option).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/setting.h"

namespace ftlsim::sim {

// How an option's text splits into items (declared with the settings, core/setting.h).
using ValueKind = ::ftlsim::ValueKind;

// At most this many items per option.
inline constexpr size_t kMaxItems = 10000;

// Splits the text of option `option` (e.g. "--gc-thres") into its items.
//  - Items are separated by ','; surrounding blanks are dropped.
//  - For numbers and sizes an item may be an inclusive range
//    START:STOP:STEP (STEP > 0, START <= STOP): 50:90:10 is 50,60,70,80,90;
//    16M:64M:16M is 16M,32M,48M,64M. Generated reals are printed with 12
//    significant digits, sizes with the largest exact binary suffix.
//  - For placements, a `map:` item runs to the next ';' (its own pairs are
//    comma-separated), and ';' also separates items:
//    "single,fdp;map:0=0,1=0;oracle" is single, fdp, map:0=0,1=0, oracle.
// Numbers and sizes are checked here; words and placements are returned as
// given for the caller to check. Throws InputError naming the option and the
// bad item for an empty item, a malformed number/size/range, a repeated
// item, or more than kMaxItems items.
// `check`, when given, is the setting's own parser of one value (it throws
// naming the setting's real range: "`blocks`: ... give a whole number from 4
// to 4294967295"): a number, size, or range START or STOP that is not one
// (malformed, past 64 bits) is refused with its message rather than the
// generic one of any 64-bit number.
//
// Repeated means the same value, not the same text: numbers are compared by
// value (60, 60.0 and 6e1 are one; 060 and 60 too), sizes in bytes (256M and
// 268435456), `fit:` shares by their fraction, and words and placements by
// `canonical` (the setting's own reading, e.g. map:1=2,0=1 and map:0=1,1=2;
// none given: by their text). Each configuration of a sweep runs once.
using ItemCheck = std::function<void(std::string_view)>;
using CanonicalFn = std::function<std::string(std::string_view)>;
[[nodiscard]] std::vector<std::string> expand_values(std::string_view option, ValueKind kind, std::string_view text,
                                                     const ItemCheck& check = {}, const CanonicalFn& canonical = {});

}  // namespace ftlsim::sim
