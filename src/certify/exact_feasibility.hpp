#pragma once
// Exact linear feasibility by Farkas' lemma: for A ∈ Q^{m×n}, b ∈ Q^m exactly one of
//   (primal)  x ≥ 0 with A x = b
//   (Farkas)  y with Aᵀ y ≥ 0 and bᵀ y < 0
// holds. find_nonnegative_solution returns one of the two, found by a dense phase-1 simplex
// over the rationals with Bland's rule (terminates; exact pivots). The answer is a
// certificate: callers re-verify it with verify_nonnegative_solution / verify_farkas, which
// do not trust the simplex.
#include <optional>

#include "certify/rational_linear.hpp"

namespace softcert::certify {

struct FeasibilityAnswer {
  bool feasible = false;
  RVec x;  // feasible: x ≥ 0, A x = b
  RVec y;  // infeasible: Aᵀ y ≥ 0, bᵀ y < 0
  std::size_t pivots = 0;
};

// Throws std::invalid_argument on inconsistent sizes; std::runtime_error if the pivot budget
// (max_pivots) is exhausted (never expected with Bland's rule for the sizes used here).
FeasibilityAnswer find_nonnegative_solution(const RMat& a, const RVec& b, std::size_t max_pivots = 200000);

// Guarantee: true iff x ≥ 0 and A x = b exactly.
bool verify_nonnegative_solution(const RMat& a, const RVec& b, const RVec& x);
// Guarantee: true iff Aᵀ y ≥ 0 and bᵀ y < 0 exactly (then no x ≥ 0 solves A x = b:
// 0 ≤ (Aᵀy)ᵀx = yᵀb < 0 would be a contradiction).
bool verify_farkas(const RMat& a, const RVec& b, const RVec& y);

}  // namespace softcert::certify
