#pragma once
// Certified operator-norm upper bounds and positive-definiteness by interval Cholesky.
#include <optional>
#include <vector>

#include "numerics/kinds.hpp"

namespace softcert::certify {

// A dense row-major matrix of intervals over double.
struct IMatrix {
  std::size_t rows = 0, cols = 0;
  std::vector<IntervalD> a;
  IMatrix() = default;
  IMatrix(std::size_t r, std::size_t c) : rows(r), cols(c), a(r * c, IntervalD(0.0)) {}
  IntervalD& operator()(std::size_t i, std::size_t j) { return a[i * cols + j]; }
  const IntervalD& operator()(std::size_t i, std::size_t j) const { return a[i * cols + j]; }
};

// Guarantee: returns true only if every symmetric matrix whose entries lie in the (symmetric)
// interval matrix S is positive definite. Interval Cholesky (Alefeld & Mayer 1993): the
// interval recurrence encloses every point recurrence, so when every pivot interval is
// certainly positive no point matrix meets a non-positive pivot.
bool certainly_positive_definite(const IMatrix& s);

// Guarantee: every matrix Z' with entries in Z has ‖Z'‖₂ ≤ the returned value. The bound is
// μ with μ² I − ZᵀZ certified positive definite (certainly_positive_definite), μ chosen just
// above the floating-point largest singular value of mid(Z) and raised geometrically until
// the certificate holds. nullopt if no attempt succeeds.
std::optional<double> certified_operator_norm_upper(const IMatrix& z, double relative_slack = 1e-9);

}  // namespace softcert::certify
