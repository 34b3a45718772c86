#include "certify/cost_scaling.hpp"

#include <chrono>
#include <cmath>
#include <stdexcept>

#include "certify/closed_form_patterns.hpp"
#include "certify/csdp_solver.hpp"
#include "certify/exact_feasibility.hpp"
#include "numerics/quote.hpp"

namespace softcert::certify {

MarginProblem make_problem(const CostCase& c, Pattern p) {
  if (c.orthonormal) return orthonormal_problem(p, c.T);
  if (c.x.rows != c.T + 1 || c.x.cols != c.d) throw std::invalid_argument("cost case: embedding matrix must be (T+1) x d");
  MarginProblem m;
  m.keys = c.x;
  m.queries = IMatrix(c.T, c.d);
  for (std::size_t t = 1; t <= c.T; ++t)
    for (std::size_t j = 0; j < c.d; ++j) m.queries(t - 1, j) = c.x(t, j);
  m.constraints = pattern_constraints(p, c.T);
  return m;
}

PatternCost certify_pattern_cost(const CostCase& c, Pattern p, const std::string& proposal) {
  const auto start = std::chrono::steady_clock::now();
  PatternCost out;
  out.proposal = proposal;
  const MarginProblem prob = make_problem(c, p);
  Eigen::MatrixXd a, b;
  std::vector<double> y;
  if (proposal == "closed-form") {
    if (!c.orthonormal) throw std::invalid_argument("closed-form proposals exist only for orthonormal embeddings");
    const auto cf = closed_form_proposal(p, c.T);
    a = cf.a;
    b = cf.b;
    y = cf.y;
  } else if (proposal == "csdp") {
    try {
      const auto sp = solve_with_csdp(prob);
      a = sp.a;
      b = sp.b;
      y = sp.y;
      out.note = sp.log;
    } catch (const std::exception& e) {
      out.note = e.what();
    }
  } else {
    throw std::invalid_argument("unknown proposal source " + num::quoted(proposal) + " (closed-form, csdp)");
  }
  if (a.size() > 0) {
    if (const auto u = certified_upper(prob, a, b)) {
      out.bracket.upper = *u;
      out.bracket.upper_ok = true;
      out.a = a;
      out.b = b;
    }
  }
  if (!y.empty()) {
    if (const auto l = certified_lower(prob, y, &out.z_norm)) {
      out.bracket.lower = *l;
      out.bracket.lower_ok = true;
      for (double v : y) out.y.push_back(v > 0 && std::isfinite(v) ? v : 0.0);
    }
  }
  // The exact simplex is dense over Q: kept to small systems (constraints × (d²+1) ≤ 4000).
  if (!out.bracket.upper_ok && !c.orthonormal && !c.x_exact.empty() &&
      pattern_constraints(p, c.T).size() * (c.d * c.d + 1) <= 4000) {
    // Farkas system over exact data: for every (i, j), Σ_c y_c q_t,i (k_a − k_b)_j = 0; Σy = 1.
    const auto cons = pattern_constraints(p, c.T);
    RMat a(c.d * c.d + 1, RVec(cons.size(), Rational(0)));
    RVec rhs(c.d * c.d + 1, Rational(0));
    for (std::size_t k = 0; k < cons.size(); ++k) {
      const auto& q = c.x_exact[cons[k].t];
      for (std::size_t i = 0; i < c.d; ++i)
        for (std::size_t j = 0; j < c.d; ++j) a[i * c.d + j][k] = q[i] * (c.x_exact[cons[k].a][j] - c.x_exact[cons[k].b][j]);
      a[c.d * c.d][k] = 1;
    }
    rhs[c.d * c.d] = 1;
    const auto ans = find_nonnegative_solution(a, rhs);
    if (ans.feasible && verify_pattern_infeasible(c, p, ans.x)) {
      out.infeasible = true;
      out.farkas_y = ans.x;
    }
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

bool verify_pattern_infeasible(const CostCase& c, Pattern p, const RVec& y) {
  const auto cons = pattern_constraints(p, c.T);
  if (y.size() != cons.size() || c.x_exact.size() != c.T + 1) return false;
  Rational total = 0;
  RMat z(c.d, RVec(c.d, Rational(0)));
  for (std::size_t k = 0; k < cons.size(); ++k) {
    if (y[k] < 0) return false;
    total += y[k];
    if (y[k] == 0) continue;
    const auto& q = c.x_exact[cons[k].t];
    for (std::size_t i = 0; i < c.d; ++i)
      for (std::size_t j = 0; j < c.d; ++j) z[i][j] += y[k] * q[i] * (c.x_exact[cons[k].a][j] - c.x_exact[cons[k].b][j]);
  }
  if (total != 1) return false;
  for (const auto& row : z)
    for (const auto& v : row)
      if (v != 0) return false;
  return true;
}

std::optional<Rational> certified_frobenius_cost(std::size_t T, Pattern p) {
  // Row t's constraints involve only row t: min ‖m_t‖² s.t. m_t·(e_a − e_b) ≥ 1 for the t
  // constraints (a fixed: 0 for the sink, t for the diagonal; b over the other t keys).
  // Primal m_t = Σ_c y_c (e_a − e_b) with y_c = 1/(t+1): every constraint is tight.
  // Dual: for feasible m and any y ≥ 0, ‖m‖² ≥ 2⟨m, z⟩ − ‖z‖² ≥ 2Σy − ‖z‖², z = Σ y_c(e_a − e_b).
  Rational primal = 0, dual = 0;
  const auto cons = pattern_constraints(p, T);
  for (std::size_t t = 1; t <= T; ++t) {
    RVec z(T + 1, Rational(0));
    Rational sum_y = 0;
    const Rational y(1, static_cast<long>(t) + 1);
    for (const auto& c : cons) {
      if (c.t != t) continue;
      z[c.a] += y;
      z[c.b] -= y;
      sum_y += y;
    }
    // Primal m_t = z: verify feasibility exactly.
    for (const auto& c : cons)
      if (c.t == t && z[c.a] - z[c.b] < 1) return std::nullopt;
    const Rational zz = dot(z, z);
    primal += zz;
    dual += 2 * sum_y - zz;
  }
  if (primal != dual) return std::nullopt;
  return primal;
}

}  // namespace softcert::certify
