#pragma once
// The CSV `ftlsim dump` writes, as `convert --from csv` reads it back: a
// CSV whose first line is this header needs no --columns (import.cpp).
#include <string_view>

namespace ftlsim::trace {

// The header line (without its line end), and the columns that map it.
inline constexpr std::string_view kDumpCsvHeader = "time,op,lba,length,pid";
inline constexpr std::string_view kDumpCsvColumns = "time=time,lba=lba,length=length,op=op,pid=pid";

}  // namespace ftlsim::trace
