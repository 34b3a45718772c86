// Every registered check, run as the quick suite runs it (rigorous tier, generated instances,
// a short horizon): the printed margin is a pair of decimals [lower, upper] with lower ≤ upper
// whose signs agree with the verdict; where the record exposes the interval the margin came
// from, the printed decimals contain it exactly (rationals).
#include <gtest/gtest.h>

#include <cmath>
#include <optional>

#include "engine/registry.hpp"
#include "numerics/decimal.hpp"

namespace softcert {
namespace {

using engine::Verdict;

// A margin end as an exact rational; nullopt for ±inf.
std::optional<Rational> end_value(const std::string& s) {
  if (s == "inf" || s == "-inf") return std::nullopt;
  return num::parse_decimal<Rational>(s);
}

TEST(MarginContract, EveryCheckPrintsAnOrderedMarginThatAgreesWithItsVerdict) {
  std::size_t runs = 0;
  for (const engine::Check* check : engine::CheckRegistry::global().all()) {
    for (std::uint64_t seed : {1u, 2u}) {
      engine::GenerateOptions g;
      engine::CheckOptions o;
      o.horizon = 10.0;
      // The regression checks' default is the authors' d = n = 20 (hours in the rigorous tier):
      // small sweeps, as the suites' rigorous entries use.
      if (check->name().rfind("varre2026.regression.", 0) == 0) g.params = {{"d", 3}, {"n", 3}};
      // square_weaker has two horizons of its own (and refuses a single one).
      if (check->name() == "varre2026.normalization.square_weaker") {
        o.horizon.reset();
        o.params = {{"square_horizon", 10}, {"logistic_horizon", 10}};
      }
      const auto r = check->run(check->generate(seed, g), o);
      const std::string where = check->name() + " seed " + std::to_string(seed) + ": " + r.reason;
      ++runs;
      ASSERT_EQ(r.margin_lower.empty(), r.margin_upper.empty()) << where;
      if (r.margin_lower.empty()) continue;
      ASSERT_NE(r.margin_lower, "inf") << where;
      ASSERT_NE(r.margin_upper, "-inf") << where;
      const auto lo = end_value(r.margin_lower), hi = end_value(r.margin_upper);
      if (lo && hi) {
        EXPECT_LE(*lo, *hi) << where << " [" << r.margin_lower << ", " << r.margin_upper << "]";
      }
      if (r.verdict == Verdict::proved && lo) {
        EXPECT_GE(*lo, 0) << where << " lower " << r.margin_lower;
      }
      if (r.verdict == Verdict::violated && hi) {
        EXPECT_LT(*hi, 0) << where << " upper " << r.margin_upper;
      }
    }
  }
  EXPECT_GE(runs, 20u);
}

// one_hot.finite: margin = max_k σ_k(H) − (1 − ε); details.max_softmax is the certified
// enclosure [lower, upper] of σ_k at the k with the largest lower bound, so the printed lower
// end is at most its lower end − (1 − ε), exactly.
TEST(MarginContract, OneHotFiniteLowerEndBelowItsSoftmaxEnclosure) {
  const engine::Check* c = engine::CheckRegistry::global().find("varre2026.one_hot.finite");
  ASSERT_NE(c, nullptr);
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    engine::CheckOptions o;
    o.horizon = 10.0;
    const auto r = c->run(c->generate(seed, {}), o);
    if (r.margin_lower.empty()) continue;
    const Rational one_minus_eps = Rational(1) - Rational(0.1);
    const Rational s_lo = num::parse_decimal<Rational>(r.details["max_softmax"][0].get<std::string>());
    EXPECT_LE(num::parse_decimal<Rational>(r.margin_lower), s_lo - one_minus_eps) << r.margin_lower;
  }
}

}  // namespace
}  // namespace softcert
