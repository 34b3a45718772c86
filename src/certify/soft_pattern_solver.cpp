#include "certify/soft_pattern_solver.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Eigenvalues>

namespace softcert::certify {

const char* to_string(CostNorm n) { return n == CostNorm::nuclear ? "nuclear" : "frobenius"; }

std::size_t soft_target(Pattern p, std::size_t t, std::size_t trigger_period) {
  if (trigger_period > 0 && t >= 2 && t % trigger_period == 0) return t - 1;
  return p == Pattern::sink ? 0 : t;
}

std::vector<std::size_t> soft_others(Pattern p, std::size_t t, std::size_t trigger_period) {
  std::vector<std::size_t> s;
  const std::size_t a = soft_target(p, t, trigger_period);
  for (std::size_t k = 0; k <= t; ++k)
    if (k != a) s.push_back(k);
  return s;
}

namespace {

// Per query t: x_t and the rows Δ_ts = x_a − x_s (s over soft_others).
struct Rows {
  std::size_t d = 0;
  std::vector<Eigen::VectorXd> q;
  std::vector<Eigen::MatrixXd> D;
};

Rows make_rows(const Eigen::MatrixXd& x, std::size_t T, Pattern p, std::size_t trigger_period) {
  Rows r;
  r.d = static_cast<std::size_t>(x.cols());
  for (std::size_t t = 1; t <= T; ++t) {
    const auto others = soft_others(p, t, trigger_period);
    const std::size_t a = soft_target(p, t, trigger_period);
    Eigen::MatrixXd D(static_cast<long>(others.size()), x.cols());
    for (std::size_t k = 0; k < others.size(); ++k) D.row(static_cast<long>(k)) = x.row(static_cast<long>(a)) - x.row(static_cast<long>(others[k]));
    r.q.push_back(x.row(static_cast<long>(t)).transpose());
    r.D.push_back(D);
  }
  return r;
}

// g_t(W) and the softmax weights p over the others (log-sum-exp, shifted for stability).
double constraint(const Rows& r, std::size_t i, const Eigen::MatrixXd& w, Eigen::VectorXd* p) {
  const Eigen::VectorXd z = -(r.D[i] * (w.transpose() * r.q[i]));
  const double zmax = z.maxCoeff();
  const Eigen::VectorXd e = (z.array() - zmax).exp().matrix();
  const double sum = e.sum();
  if (p) *p = e / sum;
  return zmax + std::log(sum);
}

// The barrier's slacks r_t = −θ − g_t, or nothing when one is ≤ 0.
bool slacks(const Rows& r, const Eigen::MatrixXd& w, double theta, std::vector<double>& out) {
  out.resize(r.q.size());
  for (std::size_t i = 0; i < r.q.size(); ++i) {
    out[i] = -theta - constraint(r, i, w, nullptr);
    if (!(out[i] > 0)) return false;
  }
  return true;
}

// ∇g_t (column-major vec of d × d) and ∇²g_t = Cov ⊗ q qᵀ at W, with g_t itself.
double constraint_derivatives(const Rows& r, std::size_t i, const Eigen::MatrixXd& w, Eigen::VectorXd& grad,
                              Eigen::MatrixXd& hess) {
  const long d = static_cast<long>(r.d), n = d * d;
  Eigen::VectorXd p;
  const double g = constraint(r, i, w, &p);
  const Eigen::VectorXd mu = r.D[i].transpose() * p;
  const Eigen::MatrixXd cov = r.D[i].transpose() * p.asDiagonal() * r.D[i] - mu * mu.transpose();
  const Eigen::VectorXd& q = r.q[i];
  grad.resize(n);
  for (long j = 0; j < d; ++j) grad.segment(j * d, d) = -mu(j) * q;
  hess.resize(n, n);
  const Eigen::MatrixXd qq = q * q.transpose();
  for (long j = 0; j < d; ++j)
    for (long l = 0; l < d; ++l) hess.block(j * d, l * d, d, d) = cov(j, l) * qq;
  return g;
}

// φ(W) = log Σ_t exp(g_t(W) + θ), the smooth maximum of the constraints (≥ max_t g_t + θ).
double smooth_max(const Rows& r, const Eigen::MatrixXd& w, double theta) {
  std::vector<double> g(r.q.size());
  double top = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < r.q.size(); ++i) top = std::max(top, g[i] = constraint(r, i, w, nullptr) + theta);
  double sum = 0;
  for (double v : g) sum += std::exp(v - top);
  return top + std::log(sum);
}

// Phase one: damped Newton on φ from w until every constraint holds strictly (then true), for at
// most 100 steps. φ is convex (a log-sum-exp of convex functions) and unbounded below exactly
// when some W satisfies every constraint, so its descent finds one when there is one with room.
bool phase_one(const Rows& r, double theta, Eigen::MatrixXd& w) {
  const long d = static_cast<long>(r.d), n = d * d;
  std::vector<double> s;
  for (int it = 0; it < 100; ++it) {
    if (slacks(r, w, theta, s)) return true;
    // The weights π_t = softmax(g + θ) first, then one query's derivatives at a time (a d² × d²
    // matrix each: held all at once they took T·d⁴ doubles).
    const std::size_t m = r.q.size();
    std::vector<double> g(m);
    double top = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < m; ++i) top = std::max(top, g[i] = constraint(r, i, w, nullptr) + theta);
    double sum = 0;
    for (double v : g) sum += std::exp(v - top);
    Eigen::VectorXd grad = Eigen::VectorXd::Zero(n), gg;
    Eigen::MatrixXd hess = 1e-9 * Eigen::MatrixXd::Identity(n, n), hh;
    for (std::size_t i = 0; i < m; ++i) {
      const double pi = std::exp(g[i] - top) / sum;
      constraint_derivatives(r, i, w, gg, hh);
      grad += pi * gg;
      hess += pi * (hh + gg * gg.transpose());
    }
    hess -= grad * grad.transpose();
    Eigen::LDLT<Eigen::MatrixXd> ldlt(hess);
    Eigen::VectorXd step = -ldlt.solve(grad);
    if (!step.allFinite() || !(grad.dot(step) < 0)) step = -grad;
    const double f0 = smooth_max(r, w, theta), slope = grad.dot(step);
    const Eigen::Map<const Eigen::MatrixXd> dw(step.data(), d, d);
    bool moved = false;
    for (double a = 1.0; a > 1e-12 && !moved; a *= 0.5) {
      const Eigen::MatrixXd trial = w + a * dw;
      if (smooth_max(r, trial, theta) <= f0 + 0.25 * a * slope) {
        w = trial;
        moved = true;
      }
    }
    if (!moved) return false;
  }
  return slacks(r, w, theta, s);
}

// F(W) = tb·½ tr(Wᵀ S⁻¹ W) − Σ log r_t.
double barrier_value(const Rows& r, const Eigen::MatrixXd& sinv, const Eigen::MatrixXd& w, double theta, double tb, bool& inside) {
  std::vector<double> s;
  inside = slacks(r, w, theta, s);
  if (!inside) return std::numeric_limits<double>::infinity();
  double f = tb * 0.5 * (w.transpose() * sinv * w).trace();
  for (double v : s) f -= std::log(v);
  return f;
}

// Newton's method on F from a strictly feasible W (kept strictly feasible). false on failure.
bool centre(const Rows& r, const Eigen::MatrixXd& sinv, double theta, double tb, Eigen::MatrixXd& w) {
  const long d = static_cast<long>(r.d), n = d * d;
  for (int it = 0; it < 200; ++it) {
    Eigen::VectorXd grad = Eigen::Map<const Eigen::VectorXd>(Eigen::MatrixXd(tb * sinv * w).data(), n);
    Eigen::MatrixXd hess = Eigen::MatrixXd::Zero(n, n);
    for (long j = 0; j < d; ++j) hess.block(j * d, j * d, d, d) = tb * sinv;  // column-major vec: I ⊗ S⁻¹
    for (std::size_t i = 0; i < r.q.size(); ++i) {
      Eigen::VectorXd p;
      const double g = constraint(r, i, w, &p);
      const double s = -theta - g;
      const Eigen::VectorXd mu = r.D[i].transpose() * p;
      const Eigen::MatrixXd cov = r.D[i].transpose() * p.asDiagonal() * r.D[i] - mu * mu.transpose();
      const Eigen::VectorXd& q = r.q[i];
      // ∇g_t = −vec(q μᵀ) = −(μ ⊗ q); ∇²g_t = Cov ⊗ q qᵀ.
      Eigen::VectorXd gg(n);
      for (long j = 0; j < d; ++j) gg.segment(j * d, d) = -mu(j) * q;
      grad += gg / s;
      const Eigen::MatrixXd qq = q * q.transpose();
      for (long j = 0; j < d; ++j)
        for (long l = 0; l < d; ++l) hess.block(j * d, l * d, d, d) += (cov(j, l) / s) * qq;
      hess.noalias() += (gg / (s * s)) * gg.transpose();
    }
    Eigen::LDLT<Eigen::MatrixXd> ldlt(hess);
    Eigen::VectorXd step = -ldlt.solve(grad);
    if (!step.allFinite()) return false;
    const double decrement = -grad.dot(step);
    if (decrement < 2e-12) return true;
    bool inside = false;
    const double f0 = barrier_value(r, sinv, w, theta, tb, inside);
    double a = 1.0;
    const Eigen::Map<const Eigen::MatrixXd> dw(step.data(), d, d);
    for (int k = 0; k < 60; ++k, a *= 0.5) {
      const Eigen::MatrixXd trial = w + a * dw;
      const double f = barrier_value(r, sinv, trial, theta, tb, inside);
      if (inside && f <= f0 - 0.25 * a * decrement) {
        w = trial;
        break;
      }
      if (k == 59) return decrement < 1e-8;  // no descent left at double precision
    }
  }
  return true;
}

// Dual proposal at the centre: u_ts = p_ts / (tb r_t).
std::vector<std::vector<double>> duals_at(const Rows& r, const Eigen::MatrixXd& w, double theta, double tb) {
  std::vector<std::vector<double>> u(r.q.size());
  for (std::size_t i = 0; i < r.q.size(); ++i) {
    Eigen::VectorXd p;
    const double s = -theta - constraint(r, i, w, &p);
    const double lambda = 1.0 / (tb * s);
    u[i].resize(static_cast<std::size_t>(p.size()));
    for (long k = 0; k < p.size(); ++k) u[i][static_cast<std::size_t>(k)] = lambda * p(k);
  }
  return u;
}

// The barrier path for one weight S⁻¹ from a strictly feasible W: tb grows until the duality
// gap T/tb is below 1e-11 of the objective.
// A warm start (tb > 0 on entry: the previous weight's final tb) begins 1e3 times lower.
bool follow_path(const Rows& r, const Eigen::MatrixXd& sinv, double theta, Eigen::MatrixXd& w, double& tb) {
  const double m = static_cast<double>(r.q.size());
  const double obj0 = std::max(1e-12, 0.5 * (w.transpose() * sinv * w).trace());
  tb = tb > 0 ? std::max(m / obj0, tb * 1e-3) : m / obj0;
  for (int k = 0; k < 60; ++k) {
    if (!centre(r, sinv, theta, tb, w)) return false;
    const double obj = 0.5 * (w.transpose() * sinv * w).trace();
    if (m / tb < 1e-11 * obj) return true;
    tb *= 8.0;
  }
  return true;
}

}  // namespace

SoftProposal propose_soft_pattern(const Eigen::MatrixXd& x, std::size_t T, Pattern p, double theta, CostNorm norm,
                                  std::size_t trigger_period) {
  SoftProposal out;
  const Rows r = make_rows(x, T, p, trigger_period);
  const long d = x.cols();
  Eigen::MatrixXd w;
  if (trigger_period > 0) {
    w = Eigen::MatrixXd::Zero(d, d);
    out.ok = phase_one(r, theta, w);
  }
  // Starting directions, each scaled up until strictly feasible.
  std::vector<Eigen::MatrixXd> starts;
  if (p == Pattern::diagonal) {
    starts.push_back(Eigen::MatrixXd::Identity(d, d));
  } else {
    const Eigen::VectorXd x0 = x.row(0).transpose();
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(d);
    for (std::size_t t = 1; t <= T; ++t) sum += x.row(static_cast<long>(t)).transpose();
    starts.push_back(x0 * x0.transpose());
    starts.push_back(sum * x0.transpose());
  }
  std::vector<double> s;
  for (const auto& dir : starts) {
    if (out.ok) break;
    for (double c = 1.0; c < 1e12 && !out.ok; c *= 2.0)
      if (slacks(r, c * dir, theta, s)) {
        w = c * dir;
        out.ok = true;
      }
    if (out.ok) break;
  }
  if (!out.ok) {
    out.note = std::string("no strictly feasible start (") + (trigger_period > 0 ? "Newton on the smooth maximum, " : "") +
               "c*I, c*x0 x0^T, c*(sum x_t) x0^T)";
    return out;
  }
  const Eigen::MatrixXd id = Eigen::MatrixXd::Identity(d, d);
  double tb = 0;
  if (!follow_path(r, id, theta, w, tb)) out.note = "barrier Newton stalled (frobenius stage)";
  out.iterates.push_back(w);
  out.duals.push_back(duals_at(r, w, theta, tb));
  if (norm == CostNorm::frobenius) return out;
  // Reweighting towards the nuclear norm, δ shrinking geometrically.
  Eigen::JacobiSVD<Eigen::MatrixXd> svd0(w);
  double delta = 0.3 * svd0.singularValues()(0);
  for (int k = 0; k < 40; ++k) {
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(w * w.transpose() + delta * delta * id);
    const Eigen::VectorXd ev = es.eigenvalues().cwiseMax(0.0).cwiseSqrt();
    const Eigen::MatrixXd sinv = es.eigenvectors() * ev.cwiseInverse().asDiagonal() * es.eigenvectors().transpose();
    // A stalled centring leaves W strictly feasible: it is still a candidate (certified or not
    // by soft_pattern_cost), and its multipliers are still a dual proposal.
    if (!follow_path(r, sinv, theta, w, tb)) out.note = "barrier Newton stalled at delta/sigma_max = " + std::to_string(delta / svd0.singularValues()(0));
    out.iterates.push_back(w);
    out.duals.push_back(duals_at(r, w, theta, tb));
    delta *= 0.25;
    if (delta < 1e-7 * svd0.singularValues()(0)) break;
  }
  return out;
}

}  // namespace softcert::certify
