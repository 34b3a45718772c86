#include "numerics/singular_values.hpp"

#include <stdexcept>

#include <Eigen/Dense>

namespace softcert::num {

std::vector<double> singular_values(const std::vector<double>& row_major, std::size_t rows, std::size_t cols) {
  if (row_major.size() != rows * cols) throw std::invalid_argument("singular_values: size is not rows × cols");
  if (rows == 0 || cols == 0) return {};
  Eigen::MatrixXd m(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j)
      m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = row_major[i * cols + j];
  // JacobiSVD rather than BDCSVD: as accurate, fast enough at the sizes softcert uses (tens of
  // rows), and a third of the compile time (CMakeLists.txt).
  const Eigen::VectorXd s = Eigen::JacobiSVD<Eigen::MatrixXd>(m).singularValues();
  return std::vector<double>(s.data(), s.data() + s.size());
}

}  // namespace softcert::num
