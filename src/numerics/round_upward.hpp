#pragma once
// Rounding upward for the lifetime of a scope (restoring the previous mode after), for plain
// double arithmetic whose results must be upper bounds. Sound only in code compiled with
// -frounding-math (CMakeLists.txt), which keeps the compiler from folding or reordering
// floating-point operations across the mode change.
#include <cfenv>

namespace softcert::num {

struct RoundUpward {
  int saved;
  RoundUpward() : saved(std::fegetround()) { std::fesetround(FE_UPWARD); }
  ~RoundUpward() { std::fesetround(saved); }
  RoundUpward(const RoundUpward&) = delete;
  RoundUpward& operator=(const RoundUpward&) = delete;
};

}  // namespace softcert::num
