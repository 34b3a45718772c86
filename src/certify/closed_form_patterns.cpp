#include "certify/closed_form_patterns.hpp"

#include <cmath>

#include "numerics/elementary.hpp"

namespace softcert::certify {

ClosedFormProposal closed_form_proposal(Pattern p, std::size_t T) {
  ClosedFormProposal c;
  const long n = static_cast<long>(T) + 1;
  const auto cons = pattern_constraints(p, T);
  c.y.assign(cons.size(), 0.0);
  if (p == Pattern::sink) {
    // M = 𝟙 bᵀ balanced: A = 𝟙 √(‖b‖/√T), B = b √(√T/‖b‖); M's row index is the query t.
    const double Td = static_cast<double>(T);
    Eigen::VectorXd b = Eigen::VectorXd::Constant(n, -1.0 / (Td + 1));
    b(0) = Td / (Td + 1);
    const double s = std::sqrt(b.norm() / std::sqrt(Td));
    c.a = Eigen::MatrixXd::Zero(n, 1);
    for (long t = 1; t < n; ++t) c.a(t, 0) = s;
    c.b = b / s;
    for (std::size_t k = 0; k < cons.size(); ++k)
      if (cons[k].b == cons[k].t) c.y[k] = 1.0 / std::sqrt(Td + 1);
  } else {
    // M = P Z with Z's rows orthonormal and P = diag(√(t/(t+1))): A = P^{1/2}, B = Zᵀ P^{1/2}.
    c.a = Eigen::MatrixXd::Zero(n, static_cast<long>(T));
    c.b = Eigen::MatrixXd::Zero(n, static_cast<long>(T));
    for (std::size_t t = 1; t <= T; ++t) {
      const double td = static_cast<double>(t);
      const double p_t = std::sqrt(td / (td + 1)), root = std::sqrt(p_t);
      const double znorm = 1.0 / std::sqrt(td * (td + 1));  // |Z_ts| for s < t
      c.a(static_cast<long>(t), static_cast<long>(t) - 1) = root;
      for (std::size_t s = 0; s < t; ++s) c.b(static_cast<long>(s), static_cast<long>(t) - 1) = -znorm * root;
      c.b(static_cast<long>(t), static_cast<long>(t) - 1) = td * znorm * root;
    }
    for (std::size_t k = 0; k < cons.size(); ++k) {
      const double td = static_cast<double>(cons[k].t);
      c.y[k] = 1.0 / std::sqrt(td * (td + 1));
    }
  }
  return c;
}

IntervalD sink_cost_closed_form(std::size_t T) {
  const IntervalD t(static_cast<double>(T));
  return t / num::sqrt(t + IntervalD(1.0));
}

IntervalD diagonal_cost_closed_form(std::size_t T) {
  IntervalD s(0.0);
  for (std::size_t t = 1; t <= T; ++t) {
    const IntervalD td(static_cast<double>(t));
    s += num::sqrt(td / (td + IntervalD(1.0)));
  }
  return s;
}

Rational frobenius_cost_closed_form(std::size_t T) {
  Rational s = 0;
  for (std::size_t t = 1; t <= T; ++t) s += Rational(static_cast<long>(t), static_cast<long>(t) + 1);
  return s;
}

}  // namespace softcert::certify
