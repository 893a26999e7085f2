#pragma once
// One CSV field as RFC 4180 writes it: quoted when it holds ',', '"' or a
// line break, with '"' doubled. Used by every CSV ftlsim writes (sweep.csv,
// compare.csv, qd_sweep.csv).
#include <string>
#include <string_view>

namespace ftlsim {

[[nodiscard]] std::string csv_field(std::string_view s);

}  // namespace ftlsim
