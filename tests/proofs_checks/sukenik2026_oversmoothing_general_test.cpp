// sukenik2026.oversmoothing.general through the registry: on equal-cosine tokens it agrees with
// the closed form of sukenik2026.oversmoothing; its hypotheses are decided exactly; kept
// hypotheses give proved, each dropped one gives certified counterexamples; a counterexample
// replays from its instance file; malformed instances and params are refused.
#include <gtest/gtest.h>

#include <string>

#include "certify/oversmoothing.hpp"
#include "certify/rational_json.hpp"
#include "engine/registry.hpp"

namespace softcert::engine {
namespace {

const Check& general() {
  const Check* c = CheckRegistry::global().find("sukenik2026.oversmoothing.general");
  if (!c) throw std::runtime_error("not registered");
  return *c;
}

// T orthonormal tokens (pairwise cosine 0), W = λI.
nlohmann::json orthonormal_step(long T, const std::string& lambda, const std::string& alpha) {
  nlohmann::json X = nlohmann::json::array(), W = nlohmann::json::array();
  for (long i = 0; i < T; ++i) {
    X.push_back(nlohmann::json::array());
    W.push_back(nlohmann::json::array());
    for (long j = 0; j < T; ++j) {
      X.back().push_back(i == j ? "1" : "0");
      W.back().push_back(i == j ? lambda : "0");
    }
  }
  return {{"check", "sukenik2026.oversmoothing.general"}, {"T", std::to_string(T)}, {"d", std::to_string(T)},
          {"alpha", alpha}, {"X", X}, {"W", W}};
}

TEST(OversmoothingGeneral, EqualCosinesAgreeWithTheClosedForm) {
  for (const auto& [lambda, alpha] : {std::pair{"1/2", "1/2"}, {"3", "1"}, {"-3", "1/4"}}) {
    const auto in = orthonormal_step(5, lambda, alpha);
    const auto r = general().run(in, {});
    ASSERT_NE(r.verdict, Verdict::error) << r.reason;
    certify::OversmoothingParams p;
    p.T = 5;
    p.rho = 0;
    p.lambda = certify::require_rational(nlohmann::json{{"lambda", lambda}}, "lambda");
    p.alpha = certify::require_rational(in, "alpha");
    const auto dense = certify::cosine_formula(p, p.alpha);
    ASSERT_TRUE(dense.has_value());
    // the mean of equal cosines is that cosine; the sparse step leaves them at ρ = 0
    const double lo = std::stod(r.details["mean_cosine_dense"][0].get<std::string>());
    const double hi = std::stod(r.details["mean_cosine_dense"][1].get<std::string>());
    EXPECT_LE(lo, dense->convert_to<double>() + 1e-15) << lambda << " " << alpha;
    EXPECT_GE(hi, dense->convert_to<double>() - 1e-15) << lambda << " " << alpha;
    EXPECT_LT(hi - lo, 1e-10);
    EXPECT_EQ(r.details["mean_cosine_sparse"][0], "0") << r.details.dump();
    // the sign agrees with the closed form's (ρ'(α) − ρ'(0) = ρ'(α) here)
    EXPECT_EQ(r.verdict, *dense > 0 ? Verdict::proved : Verdict::violated) << lambda << " " << alpha;
  }
}

TEST(OversmoothingGeneral, HypothesesAreDecidedExactly) {
  auto in = orthonormal_step(3, "2", "1/2");
  auto h = general().hypotheses_on(in);
  EXPECT_TRUE(h["unit-norm"]);
  EXPECT_TRUE(h["positive-scalar-map"]);
  in["X"][0][1] = "0.000001";  // squared norm 1 + 1e-12
  in["W"][2][2] = "2.000001";
  h = general().hypotheses_on(in);
  EXPECT_FALSE(h["unit-norm"]);
  EXPECT_FALSE(h["positive-scalar-map"]);
  EXPECT_NE(general().why_hypothesis_fails("unit-norm", in).find("token 1"), std::string::npos);
  auto neg = orthonormal_step(3, "-1", "1/2");
  EXPECT_FALSE(general().hypotheses_on(neg)["positive-scalar-map"]);
}

TEST(OversmoothingGeneral, KeptProvedDroppedRefutedAndReplayed) {
  const Check& c = general();
  for (std::uint64_t s = 0; s < 8; ++s) {
    const auto in = c.generate(s, {});
    EXPECT_EQ(in, c.generate(s, {}));
    const auto r = c.run(in, {});
    EXPECT_EQ(r.verdict, Verdict::proved) << "seed " << s << ": " << r.reason;
  }
  for (const std::string dropped : {"unit-norm", "positive-scalar-map"}) {
    GenerateOptions g;
    g.dropped = {dropped};
    int violated = 0;
    nlohmann::json example;
    for (std::uint64_t s = 0; s < 12; ++s) {
      const auto in = c.generate(s, g);
      if (c.run(in, {}).verdict == Verdict::violated) ++violated, example = in;
    }
    EXPECT_GE(violated, 3) << dropped;
    ASSERT_FALSE(example.is_null()) << dropped;
    // the counterexample is its instance: a fresh run of the same JSON, round-tripped, gives it again
    const auto again = c.run(nlohmann::json::parse(example.dump()), {});
    EXPECT_EQ(again.verdict, Verdict::violated);
    // and the opposite statement is proved on it
    CheckOptions o;
    o.params = {{"statement", "counteracts"}};
    EXPECT_EQ(c.run(example, o).verdict, Verdict::proved) << dropped;
  }
}

TEST(OversmoothingGeneral, MalformedInputIsRefused) {
  const Check& c = general();
  auto in = orthonormal_step(3, "1", "1/2");
  auto bad = in;
  bad["alpha"] = "0";
  EXPECT_THROW(c.run(bad, {}), std::invalid_argument);
  bad = in;
  bad["X"].erase(0);
  EXPECT_THROW(c.run(bad, {}), std::invalid_argument);
  bad = in;
  bad["W"][0][0] = "one";
  EXPECT_THROW(c.run(bad, {}), std::invalid_argument);
  CheckOptions o;
  o.params = {{"statement", "smooths"}};
  EXPECT_THROW(c.run(in, o), std::invalid_argument);
  // W = −I with α = 1 sends a token to x_i − x̄: T = 2 tokens e_1, e_2 give outputs (e_1 − e_2)/2
  // and its negation, fine; the skip cancelled exactly (W = −I, α = 0 in the sparse step) is not
  // a valid cosine: an error, not a verdict
  const auto zero = c.run(orthonormal_step(2, "-1", "1"), {});
  EXPECT_EQ(zero.verdict, Verdict::error) << zero.reason;
}

}  // namespace
}  // namespace softcert::engine
