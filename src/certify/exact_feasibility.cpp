#include "certify/exact_feasibility.hpp"

#include <stdexcept>

namespace softcert::certify {

FeasibilityAnswer find_nonnegative_solution(const RMat& a, const RVec& b, std::size_t max_pivots) {
  const std::size_t m = a.size();
  if (b.size() != m) throw std::invalid_argument("find_nonnegative_solution: b has the wrong size");
  const std::size_t n = m ? a[0].size() : 0;
  for (const auto& row : a)
    if (row.size() != n) throw std::invalid_argument("find_nonnegative_solution: ragged A");

  // Tableau with artificial columns n..n+m−1 and the right-hand side in column n+m. Rows with
  // b_i < 0 are negated so that the artificial basis is feasible.
  const std::size_t cols = n + m + 1, rhs = n + m;
  std::vector<RVec> t(m, RVec(cols, Rational(0)));
  std::vector<int> sign(m, 1);
  for (std::size_t i = 0; i < m; ++i) {
    sign[i] = b[i] < 0 ? -1 : 1;
    for (std::size_t j = 0; j < n; ++j) t[i][j] = sign[i] > 0 ? a[i][j] : Rational(-a[i][j]);
    t[i][n + i] = 1;
    t[i][rhs] = sign[i] > 0 ? b[i] : Rational(-b[i]);
  }
  std::vector<std::size_t> basis(m);
  for (std::size_t i = 0; i < m; ++i) basis[i] = n + i;
  // Reduced costs of the phase-1 objective Σ artificials: d_j = c_j − Σ_i c_B(i) t_ij.
  RVec d(cols, Rational(0));
  for (std::size_t j = 0; j < cols; ++j) {
    Rational s = 0;
    for (std::size_t i = 0; i < m; ++i) s += t[i][j];
    d[j] = (j >= n && j < rhs ? Rational(1) : Rational(0)) - s;
  }
  d[rhs] = 0;
  for (std::size_t i = 0; i < m; ++i) d[rhs] -= t[i][rhs];  // −(objective value)

  FeasibilityAnswer ans;
  while (true) {
    std::size_t enter = cols;
    for (std::size_t j = 0; j < rhs; ++j)
      if (d[j] < 0) { enter = j; break; }  // Bland: smallest index with negative reduced cost
    if (enter == cols) break;
    std::size_t leave = m;
    Rational best;
    for (std::size_t i = 0; i < m; ++i) {
      if (t[i][enter] <= 0) continue;
      const Rational r = t[i][rhs] / t[i][enter];
      if (leave == m || r < best || (r == best && basis[i] < basis[leave])) { leave = i; best = r; }
    }
    if (leave == m) throw std::runtime_error("find_nonnegative_solution: unbounded phase 1 (impossible)");
    if (++ans.pivots > max_pivots) throw std::runtime_error("find_nonnegative_solution: pivot budget exhausted");
    const Rational piv = t[leave][enter];
    for (auto& v : t[leave]) v /= piv;
    for (std::size_t i = 0; i < m; ++i) {
      if (i == leave || t[i][enter] == 0) continue;
      const Rational f = t[i][enter];
      for (std::size_t j = 0; j < cols; ++j) t[i][j] -= f * t[leave][j];
    }
    if (d[enter] != 0) {
      const Rational f = d[enter];
      for (std::size_t j = 0; j < cols; ++j) d[j] -= f * t[leave][j];
    }
    basis[leave] = enter;
  }
  // Phase-1 optimum Σ artificials = −d[rhs].
  if (d[rhs] == 0) {
    ans.feasible = true;
    ans.x.assign(n, Rational(0));
    for (std::size_t i = 0; i < m; ++i)
      if (basis[i] < n) ans.x[basis[i]] = t[i][rhs];
    return ans;
  }
  // Simplex multipliers π_i = c_{a_i} − d_{a_i} = 1 − d_{a_i} satisfy (sign-flipped A)ᵀπ ≤ 0 and
  // π·(flipped b) = optimum > 0; y = −π (undoing the flips) is a Farkas certificate.
  ans.feasible = false;
  ans.y.resize(m);
  for (std::size_t i = 0; i < m; ++i) {
    const Rational pi = Rational(1) - d[n + i];
    ans.y[i] = sign[i] > 0 ? Rational(-pi) : pi;
  }
  return ans;
}

bool verify_nonnegative_solution(const RMat& a, const RVec& b, const RVec& x) {
  if (a.size() != b.size()) return false;
  for (const auto& v : x)
    if (v < 0) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].size() != x.size()) return false;
    if (dot(a[i], x) != b[i]) return false;
  }
  return true;
}

bool verify_farkas(const RMat& a, const RVec& b, const RVec& y) {
  if (a.size() != b.size() || y.size() != a.size()) return false;
  if (!(dot(b, y) < 0)) return false;
  const std::size_t n = a.empty() ? 0 : a[0].size();
  for (std::size_t j = 0; j < n; ++j) {
    Rational s = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a[i].size() != n) return false;
      s += a[i][j] * y[i];
    }
    if (s < 0) return false;
  }
  return true;
}

}  // namespace softcert::certify
