// Certified cost brackets: closed forms and the SDP reference values inside, soundness under
// tampering, operator-norm bounds, the exact unfactorised cost.
#include <gtest/gtest.h>

#include <cmath>

#include "certify/closed_form_patterns.hpp"
#include "certify/cost_scaling.hpp"
#include "certify/csdp_solver.hpp"
#include "statistics/loglog_fit.hpp"
#include "certify/margin_nuclear.hpp"
#include "numerics/traits.hpp"

namespace softcert::certify {
namespace {

using softcert::statistics::fit_exponent;

Bracket closed_form_bracket(Pattern p, std::size_t T) {
  const auto prob = orthonormal_problem(p, T);
  const auto cf = closed_form_proposal(p, T);
  Bracket b;
  const auto u = certified_upper(prob, cf.a, cf.b);
  const auto l = certified_lower(prob, cf.y);
  if (u) { b.upper = *u; b.upper_ok = true; }
  if (l) { b.lower = *l; b.lower_ok = true; }
  return b;
}

TEST(CostBracket, OperatorNormBoundIsTightAndSound) {
  IMatrix z(2, 2);
  z(0, 0) = IntervalD(3.0);
  z(1, 1) = IntervalD(4.0);
  const auto n = certified_operator_norm_upper(z);
  ASSERT_TRUE(n.has_value());
  EXPECT_GE(*n, 4.0);
  EXPECT_LE(*n, 4.0 * (1 + 1e-6));
}

TEST(CostBracket, ContainsClosedFormsAndTheorySdpValues) {
  struct Ref { std::size_t T; double sink, diag, tol_sink, tol_diag; };
  // SDP reference values of docs/theorems/sukenik2026_cost_scaling.md (γ = 1): T = 8: sink 2.66667,
  // diag 7.0010; T = 32: sink 5.57048, diag 30.361
  // (tolerances: half a unit in the last printed digit).
  for (const Ref r : {Ref{8, 2.66667, 7.0010, 5e-6, 5e-5}, Ref{32, 5.57048, 30.361, 5e-6, 5e-4}}) {
    const Bracket s = closed_form_bracket(Pattern::sink, r.T), d = closed_form_bracket(Pattern::diagonal, r.T);
    ASSERT_TRUE(s.lower_ok && s.upper_ok && d.lower_ok && d.upper_ok);
    EXPECT_LE(s.relative_gap(), 1e-6);
    EXPECT_LE(d.relative_gap(), 1e-6);
    const double sink_exact = static_cast<double>(r.T) / std::sqrt(static_cast<double>(r.T) + 1);
    EXPECT_LE(s.lower, sink_exact);
    EXPECT_GE(s.upper, sink_exact * (1 - 1e-15));
    EXPECT_TRUE(num::possibly_ge(IntervalD(s.lower, s.upper), sink_cost_closed_form(r.T)));
    EXPECT_TRUE(num::possibly_le(IntervalD(s.lower, s.upper), sink_cost_closed_form(r.T)));
    EXPECT_TRUE(num::possibly_ge(IntervalD(d.lower, d.upper), diagonal_cost_closed_form(r.T)));
    EXPECT_TRUE(num::possibly_le(IntervalD(d.lower, d.upper), diagonal_cost_closed_form(r.T)));
    EXPECT_NEAR(s.lower, r.sink, r.tol_sink);
    EXPECT_NEAR(d.lower, r.diag, r.tol_diag);
    EXPECT_GT(d.lower, s.upper);  // the sink is cheaper
  }
}

TEST(CostBracket, TamperedCertificatesStaySoundOrAreRejected) {
  const std::size_t T = 8;
  const double exact = diagonal_cost_closed_form(T).lower();
  const auto prob = orthonormal_problem(Pattern::diagonal, T);
  auto cf = closed_form_proposal(Pattern::diagonal, T);
  // Any y ≥ 0 is a dual certificate: a changed multiplier weakens the bound but never breaks it.
  cf.y[3] *= 1.5;
  const auto l = certified_lower(prob, cf.y);
  ASSERT_TRUE(l.has_value());
  EXPECT_LE(*l, exact);
  EXPECT_LT(*l, exact * (1 - 1e-6));
  // Factors that violate a margin (one coordinate set to make M_tt − M_ts negative) are rejected.
  auto bad = closed_form_proposal(Pattern::diagonal, T);
  bad.a(1, 0) = -bad.a(1, 0);
  EXPECT_FALSE(certified_upper(prob, bad.a, bad.b).has_value());
  // A changed factor coordinate that keeps the margins gives a larger, still valid, upper bound.
  auto up = closed_form_proposal(Pattern::diagonal, T);
  up.a(8, 7) *= 1.01;
  const auto u = certified_upper(prob, up.a, up.b);
  ASSERT_TRUE(u.has_value());
  EXPECT_GE(*u, exact);
}

TEST(CostBracket, CsdpProposalsCertifyTheSameValues) {
  if (!csdp_available()) GTEST_SKIP() << "csdp not installed";
  CostCase c;
  c.T = 6;
  c.d = 7;
  for (Pattern p : {Pattern::sink, Pattern::diagonal}) {
    const auto pc = certify_pattern_cost(c, p, "csdp");
    ASSERT_TRUE(pc.bracket.lower_ok && pc.bracket.upper_ok) << pc.note;
    const IntervalD exact = p == Pattern::sink ? sink_cost_closed_form(6) : diagonal_cost_closed_form(6);
    EXPECT_LE(pc.bracket.lower, exact.upper());
    EXPECT_GE(pc.bracket.upper, exact.lower());
    EXPECT_LE(pc.bracket.relative_gap(), 1e-6);
  }
}

TEST(CostBracket, UnfactorisedCostIsExactAndEqualForBothPatterns) {
  for (std::size_t T : {1u, 2u, 8u, 33u}) {
    const auto s = certified_frobenius_cost(T, Pattern::sink);
    const auto d = certified_frobenius_cost(T, Pattern::diagonal);
    ASSERT_TRUE(s && d);
    EXPECT_EQ(*s, *d);
    EXPECT_EQ(*s, frobenius_cost_closed_form(T));
  }
}

TEST(CostBracket, ExponentFitRecoversPowerLaw) {
  std::vector<double> x{2, 4, 8, 16, 32}, y;
  for (double v : x) y.push_back(3 * std::pow(v, 1.5));
  const auto f = fit_exponent(x, y, 1);
  EXPECT_NEAR(f.exponent, 1.5, 1e-12);
  EXPECT_LE(f.ci_low, 1.5 + 1e-9);
  EXPECT_GE(f.ci_high, 1.5 - 1e-9);
}

}  // namespace
}  // namespace softcert::certify
