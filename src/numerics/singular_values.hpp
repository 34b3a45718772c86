#pragma once
// Singular values of a double matrix in floating point, largest first (Eigen's JacobiSVD).
//
// No guarantee: callers use them as a proposal that is then certified (certify/operator_norm.cpp)
// or as a label guard that is part of no proof (the regression check's condition numbers). One
// translation unit instantiates the SVD, so that its callers do not each compile it.
#include <cstddef>
#include <vector>

namespace softcert::num {

// `row_major` holds rows × cols entries, row by row. Empty when rows or cols is 0.
std::vector<double> singular_values(const std::vector<double>& row_major, std::size_t rows, std::size_t cols);

}  // namespace softcert::num
