#include "certify/soft_pattern_cost.hpp"

#include <cmath>
#include <stdexcept>

#include "numerics/elementary.hpp"
#include "numerics/traits.hpp"

namespace softcert::certify {

namespace {

std::size_t dim(const SoftProblem& p) {
  if (p.x.rows < p.T + 1) throw std::invalid_argument("soft pattern: fewer than T+1 embeddings");
  return p.x.cols;
}

std::size_t preferred(const SoftProblem& p, std::size_t t) { return soft_target(p.pattern, t, p.trigger_period); }

// W = A Bᵀ as an interval matrix (every entry encloses the exact product).
IMatrix product(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  const std::size_t d = static_cast<std::size_t>(a.rows());
  IMatrix w(d, static_cast<std::size_t>(b.rows()));
  for (std::size_t i = 0; i < w.rows; ++i)
    for (std::size_t j = 0; j < w.cols; ++j) {
      IntervalD s(0.0);
      for (long k = 0; k < a.cols(); ++k) s += IntervalD(a(static_cast<long>(i), k)) * IntervalD(b(static_cast<long>(j), k));
      w(i, j) = s;
    }
  return w;
}

// odds = ε / (1 − ε), enclosed.
IntervalD odds(const SoftProblem& p) { return p.epsilon / (IntervalD(1.0) - p.epsilon); }

}  // namespace

bool soft_feasible(const SoftProblem& p, const IMatrix& w) {
  const std::size_t d = dim(p);
  if (w.rows != d || w.cols != d) throw std::invalid_argument("soft_feasible: W must be d x d");
  const double bound = num::lower(odds(p));
  std::vector<IntervalD> k(d);
  for (std::size_t t = 1; t <= p.T; ++t) {
    for (std::size_t j = 0; j < d; ++j) {  // k = Wᵀ x_t
      IntervalD s(0.0);
      for (std::size_t i = 0; i < d; ++i) s += p.x(t, i) * w(i, j);
      k[j] = s;
    }
    const std::size_t a = preferred(p, t);
    IntervalD total(0.0);
    for (std::size_t s = 0; s <= t; ++s) {
      if (s == a) continue;
      IntervalD m(0.0);
      for (std::size_t j = 0; j < d; ++j) m += k[j] * (p.x(a, j) - p.x(s, j));
      total += num::exp(-m);
    }
    if (!(num::upper(total) <= bound)) return false;
  }
  return true;
}

std::optional<double> soft_upper_frobenius(const SoftProblem& p, const Eigen::MatrixXd& w) {
  const std::size_t d = dim(p);
  IMatrix iw(d, d);
  IntervalD sq(0.0);
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < d; ++j) {
      iw(i, j) = IntervalD(w(static_cast<long>(i), static_cast<long>(j)));
      sq += num::sqr(iw(i, j));
    }
  if (!soft_feasible(p, iw)) return std::nullopt;
  return num::upper(num::sqrt(sq));
}

std::optional<double> soft_upper_nuclear(const SoftProblem& p, const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  const std::size_t d = dim(p);
  if (static_cast<std::size_t>(a.rows()) != d || static_cast<std::size_t>(b.rows()) != d || a.cols() != b.cols())
    throw std::invalid_argument("soft_upper_nuclear: factor shapes do not match");
  if (!soft_feasible(p, product(a, b))) return std::nullopt;
  IntervalD sq(0.0);
  for (long i = 0; i < a.size(); ++i) sq += num::sqr(IntervalD(a.data()[i]));
  for (long i = 0; i < b.size(); ++i) sq += num::sqr(IntervalD(b.data()[i]));
  return num::upper(sq / IntervalD(2.0));
}

std::optional<double> soft_lower(const SoftProblem& p, const std::vector<std::vector<double>>& u, CostNorm norm) {
  const std::size_t d = dim(p);
  if (u.size() != p.T) throw std::invalid_argument("soft_lower: one multiplier row per query");
  const IntervalD theta = -num::log(odds(p));
  IMatrix z(d, d);
  IntervalD n(0.0);
  for (std::size_t t = 1; t <= p.T; ++t) {
    const auto others = soft_others(p.pattern, t, p.trigger_period);
    if (u[t - 1].size() != others.size()) throw std::invalid_argument("soft_lower: multiplier row of the wrong length");
    const std::size_t a = preferred(p, t);
    IntervalD y(0.0);
    for (double v : u[t - 1]) y += IntervalD(v > 0 && std::isfinite(v) ? v : 0.0);
    if (!num::certainly_positive(y)) continue;
    n += y * theta;
    std::vector<IntervalD> mu(d, IntervalD(0.0));  // Σ_s u_ts (x_a − x_s)
    for (std::size_t k = 0; k < others.size(); ++k) {
      const double v = u[t - 1][k];
      if (!(v > 0) || !std::isfinite(v)) continue;
      const IntervalD iv(v);
      n -= iv * num::log(iv / y);
      for (std::size_t j = 0; j < d; ++j) mu[j] += iv * (p.x(a, j) - p.x(others[k], j));
    }
    for (std::size_t i = 0; i < d; ++i)
      for (std::size_t j = 0; j < d; ++j) z(i, j) += p.x(t, i) * mu[j];
  }
  if (!num::certainly_positive(n)) return 0.0;
  double dual = 0;
  if (norm == CostNorm::nuclear) {
    const auto op = certified_operator_norm_upper(z);
    if (!op) return std::nullopt;
    dual = *op;
  } else {
    IntervalD sq(0.0);
    for (const auto& e : z.a) sq += num::sqr(e);
    dual = num::upper(num::sqrt(sq));
  }
  if (!(dual > 0)) return std::nullopt;
  return std::max(0.0, num::lower(n / IntervalD(dual)));
}

SoftBracket certify_soft_cost(const SoftProblem& p, CostNorm norm) {
  const std::size_t d = dim(p);
  Eigen::MatrixXd mid(static_cast<long>(p.T + 1), static_cast<long>(d));
  for (std::size_t i = 0; i <= p.T; ++i)
    for (std::size_t j = 0; j < d; ++j) mid(static_cast<long>(i), static_cast<long>(j)) = num::mid(p.x(i, j));
  const double eps = num::mid(p.epsilon);
  SoftBracket out;
  const SoftProposal prop = propose_soft_pattern(mid, p.T, p.pattern, std::log((1 - eps) / eps), norm, p.trigger_period);
  out.note = prop.note;
  for (std::size_t i = 0; i < prop.iterates.size(); ++i) {
    if (const auto lo = soft_lower(p, prop.duals[i], norm)) out.lower = std::max(out.lower, *lo);
    const Eigen::MatrixXd& w = prop.iterates[i];
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(w, Eigen::ComputeFullU | Eigen::ComputeFullV);
    const Eigen::VectorXd root = svd.singularValues().cwiseSqrt();
    for (double kappa : {0.0, 1e-12, 1e-10, 1e-8, 1e-6}) {
      std::optional<double> up;
      if (norm == CostNorm::frobenius) {
        up = soft_upper_frobenius(p, (1.0 + kappa) * w);
      } else {
        const Eigen::MatrixXd a = std::sqrt(1.0 + kappa) * svd.matrixU() * root.asDiagonal();
        const Eigen::MatrixXd b = std::sqrt(1.0 + kappa) * svd.matrixV() * root.asDiagonal();
        up = soft_upper_nuclear(p, a, b);
      }
      if (up) {
        out.upper = std::min(out.upper, *up);
        out.upper_ok = true;
        break;
      }
    }
  }
  if (!out.upper_ok && out.note.empty()) out.note = "no candidate certified feasible";
  return out;
}

}  // namespace softcert::certify
