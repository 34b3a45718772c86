#include "certify/margin_nuclear.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "numerics/elementary.hpp"
#include "numerics/traits.hpp"

namespace softcert::certify {

const char* to_string(Pattern p) { return p == Pattern::sink ? "sink" : "diagonal"; }

std::vector<PatternConstraint> pattern_constraints(Pattern p, std::size_t T) {
  std::vector<PatternConstraint> c;
  for (std::size_t t = 1; t <= T; ++t) {
    if (p == Pattern::sink)
      for (std::size_t s = 1; s <= t; ++s) c.push_back({t, 0, s});
    else
      for (std::size_t s = 0; s < t; ++s) c.push_back({t, t, s});
  }
  return c;
}

MarginProblem orthonormal_problem(Pattern p, std::size_t T) {
  MarginProblem m;
  m.queries = IMatrix(T, T + 1);
  m.keys = IMatrix(T + 1, T + 1);
  for (std::size_t t = 1; t <= T; ++t) m.queries(t - 1, t) = IntervalD(1.0);
  for (std::size_t s = 0; s <= T; ++s) m.keys(s, s) = IntervalD(1.0);
  m.constraints = pattern_constraints(p, T);
  m.orthonormal = true;
  return m;
}

namespace {
// rows × r product X·F with X an interval matrix and F a double matrix (exact entries).
IMatrix times(const IMatrix& x, const Eigen::MatrixXd& f, bool orthonormal_rows) {
  IMatrix out(x.rows, static_cast<std::size_t>(f.cols()));
  for (std::size_t i = 0; i < x.rows; ++i)
    for (std::size_t j = 0; j < out.cols; ++j) {
      if (orthonormal_rows) continue;
      IntervalD s(0.0);
      for (std::size_t k = 0; k < x.cols; ++k) s += x(i, k) * IntervalD(f(static_cast<long>(k), static_cast<long>(j)));
      out(i, j) = s;
    }
  if (orthonormal_rows)  // row i of x is e_{c(i)} exactly: the product is a row of f
    for (std::size_t i = 0; i < x.rows; ++i)
      for (std::size_t k = 0; k < x.cols; ++k)
        if (num::lower(x(i, k)) == 1.0 && num::upper(x(i, k)) == 1.0)
          for (std::size_t j = 0; j < out.cols; ++j) out(i, j) = IntervalD(f(static_cast<long>(k), static_cast<long>(j)));
  return out;
}
}  // namespace

std::optional<double> certified_upper(const MarginProblem& p, const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  const std::size_t d = p.queries.cols;
  if (static_cast<std::size_t>(a.rows()) != d || static_cast<std::size_t>(b.rows()) != d || a.cols() != b.cols())
    throw std::invalid_argument("certified_upper: factor shapes do not match the problem");
  const IMatrix qa = times(p.queries, a, p.orthonormal);  // rows q_tᵀ A
  const IMatrix kb = times(p.keys, b, p.orthonormal);     // rows k_sᵀ B
  const std::size_t r = static_cast<std::size_t>(a.cols());
  IntervalD m(std::numeric_limits<double>::infinity());
  bool first = true;
  for (const auto& c : p.constraints) {
    IntervalD s(0.0);
    for (std::size_t j = 0; j < r; ++j) s += qa(c.t - 1, j) * (kb(c.a, j) - kb(c.b, j));
    if (first || num::lower(s) < num::lower(m)) m = s;
    first = false;
  }
  if (!num::certainly_positive(m)) return std::nullopt;
  IntervalD sq(0.0);
  for (long i = 0; i < a.size(); ++i) sq += num::sqr(IntervalD(a.data()[i]));
  for (long i = 0; i < b.size(); ++i) sq += num::sqr(IntervalD(b.data()[i]));
  // Worst case over the interval m: divide by its lower end.
  const IntervalD ub = sq / (IntervalD(2.0) * IntervalD(num::lower(m)));
  return num::upper(ub);
}

std::optional<double> certified_lower(const MarginProblem& p, const std::vector<double>& y, double* z_norm) {
  if (y.size() != p.constraints.size()) throw std::invalid_argument("certified_lower: one multiplier per constraint");
  const std::size_t d = p.queries.cols;
  IMatrix z(d, d);
  IntervalD total(0.0);
  for (std::size_t c = 0; c < y.size(); ++c) {
    const double yc = y[c] > 0 && std::isfinite(y[c]) ? y[c] : 0.0;
    if (yc == 0.0) continue;
    const IntervalD w(yc);
    total += w;
    const auto& k = p.constraints[c];
    if (p.orthonormal) {
      z(k.t, k.a) += w;
      z(k.t, k.b) -= w;
      continue;
    }
    for (std::size_t i = 0; i < d; ++i) {
      const IntervalD qi = w * p.queries(k.t - 1, i);
      for (std::size_t j = 0; j < d; ++j) z(i, j) += qi * (p.keys(k.a, j) - p.keys(k.b, j));
    }
  }
  if (!num::certainly_positive(total)) return std::nullopt;
  const auto norm = certified_operator_norm_upper(z);
  if (!norm) return std::nullopt;
  if (z_norm) *z_norm = *norm;
  return num::lower(total / IntervalD(*norm));
}

}  // namespace softcert::certify
