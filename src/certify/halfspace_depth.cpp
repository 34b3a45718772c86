#include "certify/halfspace_depth.hpp"

#include <stdexcept>

#include "certify/exact_feasibility.hpp"
#include "certify/interval_bridge.hpp"
#include "numerics/elementary.hpp"

namespace softcert::certify {
namespace {

std::size_t dimension_of(const RMat& points) {
  if (points.empty()) throw std::invalid_argument("half-space depth: empty point set");
  const std::size_t d = points[0].size();
  if (d == 0) throw std::invalid_argument("half-space depth: points of dimension 0");
  for (const auto& p : points)
    if (p.size() != d) throw std::invalid_argument("half-space depth: points of different dimensions");
  return d;
}

// The system [Pᵀ; 1ᵀ] λ = [target; 1], λ ≥ 0 (λ: convex weights reproducing `target`).
void hull_system(const RMat& points, const RVec& target, RMat& a, RVec& b) {
  const std::size_t d = dimension_of(points), n = points.size();
  a.assign(d + 1, RVec(n));
  for (std::size_t k = 0; k < d; ++k)
    for (std::size_t i = 0; i < n; ++i) a[k][i] = points[i][k];
  for (std::size_t i = 0; i < n; ++i) a[d][i] = 1;
  b = target;
  b.push_back(Rational(1));
}

bool is_convex_combination_of(const RMat& points, const RVec& lambda, const RVec& target) {
  if (lambda.size() != points.size()) return false;
  Rational s = 0;
  RVec acc(target.size(), Rational(0));
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (lambda[i] < 0) return false;
    s += lambda[i];
    for (std::size_t k = 0; k < target.size(); ++k) acc[k] += lambda[i] * points[i][k];
  }
  return s == 1 && acc == target;
}

}  // namespace

DepthCertificate find_depth_certificate(const RMat& points, bool want_interior, int max_halvings) {
  const std::size_t d = dimension_of(points);
  DepthCertificate c;
  RMat a;
  RVec b;
  hull_system(points, RVec(d, Rational(0)), a, b);
  const auto ans = find_nonnegative_solution(a, b);
  if (!ans.feasible) {
    // Farkas y = (u, w): u·p_i + w ≥ 0 and w < 0, so u·p_i ≥ −w > 0.
    c.separated = true;
    c.separator.assign(ans.y.begin(), ans.y.begin() + static_cast<long>(d));
    return c;
  }
  c.zero_combination = ans.x;
  if (!want_interior) return c;
  Rational big = 0;
  for (const auto& p : points)
    for (const auto& v : p) big = std::max(big, Rational(boost::multiprecision::abs(v)));
  Rational r = big;
  for (int h = 0; h < max_halvings; ++h) {
    r /= 2;
    RMat combos;
    bool ok = true;
    for (std::size_t k = 0; k < d && ok; ++k)
      for (int s : {1, -1}) {
        RVec target(d, Rational(0));
        target[k] = s > 0 ? r : Rational(-r);
        hull_system(points, target, a, b);
        const auto t = find_nonnegative_solution(a, b);
        if (!t.feasible) { ok = false; break; }
        combos.push_back(t.x);
      }
    if (ok) {
      c.inner_r = r;
      c.interior_combinations = std::move(combos);
      return c;
    }
  }
  return c;
}

std::optional<bool> in_open_halfspace(const RMat& points) {
  const DepthCertificate c = find_depth_certificate(points, /*want_interior=*/false);
  if (c.separated) {
    if (verify_separator(points, c.separator)) return true;
  } else if (verify_zero_combination(points, c.zero_combination)) {
    return false;
  }
  return std::nullopt;
}

std::optional<Rational> verify_separator(const RMat& points, const RVec& u) {
  const std::size_t d = dimension_of(points);
  if (u.size() != d) return std::nullopt;
  std::optional<Rational> best;
  for (const auto& p : points) {
    const Rational v = dot(u, p);
    if (!(v > 0)) return std::nullopt;
    if (!best || v < *best) best = v;
  }
  return best;
}

bool verify_zero_combination(const RMat& points, const RVec& lambda) {
  const std::size_t d = dimension_of(points);
  return is_convex_combination_of(points, lambda, RVec(d, Rational(0)));
}

bool verify_interior(const RMat& points, const Rational& r, const RMat& combos) {
  const std::size_t d = dimension_of(points);
  if (!(r > 0) || combos.size() != 2 * d) return false;
  for (std::size_t k = 0; k < d; ++k)
    for (int s = 0; s < 2; ++s) {
      RVec target(d, Rational(0));
      target[k] = s == 0 ? r : Rational(-r);
      if (!is_convex_combination_of(points, combos[2 * k + s], target)) return false;
    }
  return true;
}

IntervalMp depth_enclosure(const RMat& points, const DepthCertificate& cert) {
  const std::size_t d = dimension_of(points);
  // Trivial bounds: |ρ| ≤ max_i ‖p_i‖ (each u·p_i ≥ −‖p_i‖ and the min is ≤ ‖p_1‖).
  // and ρ ≤ min_i ‖p_i‖ (take i = argmin in min_i u·p_i ≤ u·p_i ≤ ‖p_i‖).
  Rational max_sq = 0, min_sq = dot(points[0], points[0]);
  for (const auto& p : points) {
    max_sq = std::max(max_sq, dot(p, p));
    min_sq = std::min(min_sq, dot(p, p));
  }
  const IntervalMp big = num::sqrt(enclose(max_sq)), small = num::sqrt(enclose(min_sq));
  auto lo = num::lower(-big), hi = num::upper(small);
  if (cert.separated) {
    if (const auto m = verify_separator(points, cert.separator)) {
      const IntervalMp l = enclose(*m) / num::sqrt(enclose(dot(cert.separator, cert.separator)));
      lo = num::lower(l);
    }
  } else if (verify_zero_combination(points, cert.zero_combination)) {
    hi = 0;
    if (cert.inner_r && verify_interior(points, *cert.inner_r, cert.interior_combinations)) {
      const IntervalMp u = -enclose(*cert.inner_r) / num::sqrt(enclose(Rational(d)));
      hi = num::upper(u);
    }
  }
  return num::hull_of_bounds<IntervalMp>(lo, hi);
}

}  // namespace softcert::certify
