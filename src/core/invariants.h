#pragma once
// Whether the expensive invariant checks run: on in the debug and ASan
// builds (CMake defines FTLSIM_INVARIANTS there), off in release, where the
// checks compile away.

namespace ftlsim {

#ifdef FTLSIM_INVARIANTS
inline constexpr bool kCheckInvariants = true;
#else
inline constexpr bool kCheckInvariants = false;
#endif

}  // namespace ftlsim
