#pragma once
// Exact rational vectors and matrices (row-major std::vector), and the few exact operations the
// certificates need. Everything here is exact: no rounding anywhere.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "numerics/kinds.hpp"

namespace softcert::certify {

using RVec = std::vector<Rational>;
using RMat = std::vector<RVec>;  // rows

// The exact value of a finite double (every double is a dyadic rational).
// Throws std::invalid_argument for NaN / infinity.
Rational rational_from_double(double x);

// The rational with denominator 2^bits nearest below / above x (exact dyadic rounding of x).
// Guarantee: dyadic_floor(x, b) ≤ x ≤ dyadic_ceil(x, b).
Rational dyadic_floor(const Rational& x, unsigned bits);
Rational dyadic_ceil(const Rational& x, unsigned bits);

Rational dot(const RVec& a, const RVec& b);  // exact; sizes must agree
RVec matvec(const RMat& a, const RVec& x);   // exact
RMat transpose(const RMat& a);
RMat gram(const RMat& columns_as_rows);  // G_ij = <r_i, r_j> for the rows r_i, exact

// Guarantee: returns true only if the symmetric matrix S is positive semidefinite — decided
// exactly by a symmetric LDLᵀ (Gaussian elimination with diagonal pivots over Q): S ⪰ 0 iff
// the elimination never meets a negative pivot and a zero pivot only with a zero remaining
// row. Exact, so it never errs; cost O(n³) rational operations.
bool is_psd_exact(RMat s);

// The rank of a (possibly non-square) rational matrix, exactly: Gaussian elimination over Q.
// Rows of different lengths throw std::invalid_argument.
std::size_t rank_exact(RMat m);

// Rational / double helpers for certificates in JSON: exact "p/q" strings.
std::string rational_string(const Rational& x);
// Parses "p/q", "p", or a decimal string exactly. Throws std::invalid_argument naming `field`.
Rational parse_rational(const std::string& text, const std::string& field);

}  // namespace softcert::certify
