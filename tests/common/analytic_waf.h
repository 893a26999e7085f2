#pragma once
// Analytic write amplification of FIFO (least recently written) cleaning
// under uniform random single-page overwrites (Xiang & Kurkoski, arXiv 1110.4245;
// Desnoyers, SYSTOR 2012):
//   WA = alpha / (alpha + W0(-alpha * exp(-alpha)))
// with alpha = physical / logical capacity of the space that holds data.
#include <cmath>

namespace ftlsim::test {

// Principal branch of Lambert W on [-1/e, 0) by bisection: w e^w is
// increasing on [-1, 0].
inline double lambert_w0(double x) {
  double lo = -1.0, hi = 0.0;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid * std::exp(mid) < x) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return 0.5 * (lo + hi);
}

inline double fifo_wa(double alpha) { return alpha / (alpha + lambert_w0(-alpha * std::exp(-alpha))); }

}  // namespace ftlsim::test
