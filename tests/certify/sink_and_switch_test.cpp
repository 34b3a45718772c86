// Sink representability and hard-switch certificates on hand-made instances, both directions.
#include <gtest/gtest.h>

#include "certify/hard_switch.hpp"
#include "certify/rational_json.hpp"
#include "support/json_fields.hpp"
#include "certify/sink_representability.hpp"
#include "numerics/precision.hpp"
#include "numerics/traits.hpp"
#include "support/rational_literals.hpp"

namespace softcert::certify {
namespace {

using testing::q;

TEST(SinkRepresentability, AlignedTokensAreRepresentableWithExactGaps) {
  // Tokens in the right half-plane, sink far along e1: W = u vᵀ exists.
  SinkProblem p{{q(3), q(0)}, {{q(1), q(0)}, {q(1), q(1)}, {q(1, 2), q(-1)}}, {}};
  const auto d = decide_sink_representability(p);
  ASSERT_TRUE(d.representable);
  Rational gap;
  ASSERT_EQ(verify_sink_certificate(p, d.certificate, &gap), +1);
  EXPECT_GT(gap, 0);
  EXPECT_TRUE(num::certainly_positive(d.margin));
  // Tampered: one coordinate of u changed so that some query scores negative.
  nlohmann::json bad = d.certificate;
  bad["W"]["u"][0] = "-1000";
  EXPECT_EQ(verify_sink_certificate(p, bad), 0);
}

TEST(SinkRepresentability, ZeroInHullOfQueriesIsCertified) {
  // 0 = ½(1,0) + ½(−1,0): no W works whatever the sink.
  SinkProblem p{{q(0), q(5)}, {{q(1), q(0)}, {q(-1), q(0)}, {q(0), q(1)}}, {}};
  const auto d = decide_sink_representability(p);
  ASSERT_FALSE(d.representable);
  EXPECT_EQ(verify_sink_certificate(p, d.certificate), -1);
  // ρ(queries) = 0 exactly (0 lies on the edge from (1,0) to (−1,0); u = (0, 1) attains 0) and
  // ρ(x_0 − keys) ≥ 4, so the margin min(…) is exactly 0: its enclosure must contain 0, and the
  // zero combination certifies the upper end 0 exactly.
  EXPECT_LE(num::lower(d.margin), 0);
  EXPECT_EQ(num::upper(d.margin), 0);
  nlohmann::json bad = d.certificate;
  auto& lam = bad["queries"]["zero_combination"];
  lam[0] = rational_string(parse_rational(lam[0].get<std::string>(), "l") + q(1, 100));
  EXPECT_EQ(verify_sink_certificate(p, bad), 0);
}

TEST(SinkRepresentability, SinkInsideHullOfKeysIsCertified) {
  // Tokens in a half-space but the sink is their midpoint.
  SinkProblem p{{q(1), q(0)}, {{q(1), q(1)}, {q(1), q(-1)}}, {}};
  const auto d = decide_sink_representability(p);
  ASSERT_FALSE(d.representable);
  EXPECT_TRUE(d.queries.separated);
  EXPECT_FALSE(d.keys.separated);
  EXPECT_EQ(verify_sink_certificate(p, d.certificate), -1);
}

TEST(HardSwitch, IndependentValuesGiveCertifiedKappa) {
  // v1 = e1, v2 = e2: σ_min = 1 so κ ≥ 1/√2, and the sharp κ = dist(0, conv) = 1/√2.
  const RMat v{{q(1), q(0), q(0)}, {q(0), q(1), q(0)}};
  const auto d = decide_hard_switch(v);
  ASSERT_TRUE(d.kappa_sq_full_rank.has_value());
  EXPECT_LE(*d.kappa_sq_full_rank, q(1, 2));
  EXPECT_GT(*d.kappa_sq_full_rank, q(49, 100));
  bool cx = false;
  const auto k2 = verify_hard_switch_certificate(v, d.certificate, &cx);
  ASSERT_TRUE(k2.has_value());
  EXPECT_FALSE(cx);
  // Bound holds on an explicit attention vector, exactly; with a κ² too large it fails.
  const RVec p{q(1, 4), q(3, 8), q(3, 8)};
  EXPECT_TRUE(bound_holds_exactly(v, *k2, p));
  EXPECT_FALSE(bound_holds_exactly(v, q(3, 4), p));
  // Tampered σ_min² bound (raised above λ_min = 1) is rejected.
  nlohmann::json bad = d.certificate;
  bad.erase("half_space");
  bad["full_rank"]["sigma_min_sq_lower"] = "11/10";
  EXPECT_FALSE(verify_hard_switch_certificate(v, bad, &cx).has_value());
}

TEST(HardSwitch, DependentValuesGiveZeroOutputCounterexample) {
  // v1 + v2 + v3 = 0 (a triangle around 0): p = (1/2, 1/6, 1/6, 1/6) outputs exactly 0.
  const RMat v{{q(1), q(0)}, {q(-1, 2), q(1)}, {q(-1, 2), q(-1)}};
  const auto d = decide_hard_switch(v);
  EXPECT_FALSE(d.kappa_sq_full_rank.has_value());
  EXPECT_FALSE(d.kappa_sq_half_space.has_value());
  bool cx = false;
  EXPECT_FALSE(verify_hard_switch_certificate(v, d.certificate, &cx).has_value());
  EXPECT_TRUE(cx);
  const RVec p = rvec_from_json(d.certificate["counterexample"]["p"], "p");
  EXPECT_EQ(p[0], q(1, 2));
  // One coordinate changed: the output is no longer 0 (and the weights no longer sum to 1).
  nlohmann::json bad = d.certificate;
  bad["counterexample"]["p"][1] = rational_string(p[1] + q(1, 1000));
  verify_hard_switch_certificate(v, bad, &cx);
  EXPECT_FALSE(cx);
  EXPECT_TRUE(num::certainly_negative(d.margin));
}

}  // namespace
}  // namespace softcert::certify
