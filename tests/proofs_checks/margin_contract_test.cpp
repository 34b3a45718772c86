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

// check's result on the instance generated from `seed`, run as the quick suite runs it.
engine::CheckResult run_quick(const engine::Check& check, std::uint64_t seed) {
  engine::GenerateOptions g;
  engine::CheckOptions o;
  o.horizon = 10.0;
  // The regression checks' default is the authors' d = n = 20 (hours in the rigorous tier):
  // small sweeps, as the suites' rigorous entries use.
  if (check.name().rfind("varre2026.regression.", 0) == 0) g.params = {{"d", 3}, {"n", 3}};
  // square_weaker has two horizons of its own (and refuses a single one).
  if (check.name() == "varre2026.normalization.square_weaker") {
    o.horizon.reset();
    o.params = {{"square_horizon", 10}, {"logistic_horizon", 10}};
  }
  return check.run(check.generate(seed, g), o);
}

TEST(MarginContract, EveryCheckPrintsAnOrderedMarginThatAgreesWithItsVerdict) {
  std::size_t runs = 0;
  for (const engine::Check* check : engine::CheckRegistry::global().all()) {
    for (std::uint64_t seed : {1u, 2u}) {
      const auto r = run_quick(*check, seed);
      const std::string where = check->name() + " seed " + std::to_string(seed) + ": " + r.reason;
      ++runs;
      ASSERT_EQ(r.margin.empty(), r.margin.empty()) << where;
      if (r.margin.empty()) continue;
      ASSERT_NE(r.margin.lower_text(), "inf") << where;
      ASSERT_NE(r.margin.upper_text(), "-inf") << where;
      const auto lo = end_value(r.margin.lower_text()), hi = end_value(r.margin.upper_text());
      if (lo && hi) {
        EXPECT_LE(*lo, *hi) << where << " [" << r.margin.lower_text() << ", " << r.margin.upper_text() << "]";
      }
      // A strict claim is proved only with a positive lower end; a non-strict one (repulsion's
      // "nondecreasing") may touch 0.
      if (r.verdict == Verdict::proved && lo) {
        if (check->strict_margin()) EXPECT_GT(*lo, 0) << where << " lower " << r.margin.lower_text();
        else EXPECT_GE(*lo, 0) << where << " lower " << r.margin.lower_text();
      }
      // A violation's margin is certainly against the claim: < 0, or <= 0 for a strict claim
      // (margin > 0), whose exact counterexamples may have margin exactly 0.
      if (r.verdict == Verdict::violated && hi) {
        if (check->strict_margin()) EXPECT_LE(*hi, 0) << where << " upper " << r.margin.upper_text();
        else EXPECT_LT(*hi, 0) << where << " upper " << r.margin.upper_text();
      }
    }
  }
  EXPECT_GE(runs, 20u);
}

// Reproducibility (docs/reports.md: a record's only field that differs between equal runs is
// the runner's "seconds"): every check gives the same verdict, margin, reason and details
// when run twice on the same instance — no wall-clock time or other state leaks into them.
TEST(MarginContract, EveryCheckGivesTheSameResultTwice) {
  for (const engine::Check* check : engine::CheckRegistry::global().all()) {
    const auto a = run_quick(*check, 1), b = run_quick(*check, 1);
    EXPECT_EQ(a.verdict, b.verdict) << check->name();
    EXPECT_EQ(a.margin.lower_text(), b.margin.lower_text()) << check->name();
    EXPECT_EQ(a.margin.upper_text(), b.margin.upper_text()) << check->name();
    EXPECT_EQ(a.reason, b.reason) << check->name();
    EXPECT_EQ(a.details.dump(), b.details.dump()) << check->name();
  }
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
    if (r.margin.empty()) continue;
    const Rational one_minus_eps = Rational(1) - Rational(0.1);
    const Rational s_lo = num::parse_decimal<Rational>(r.details["max_softmax"][0].get<std::string>());
    EXPECT_LE(num::parse_decimal<Rational>(r.margin.lower_text()), s_lo - one_minus_eps) << r.margin.lower_text();
  }
}

// The runner's safety net: a proved result whose lower end does not back the claim becomes
// inconclusive (0 is refused for a strict claim, accepted for a non-strict one).
TEST(MarginContract, RunnerTurnsAnUnbackedProvedIntoInconclusive) {
  const engine::Check* strict = engine::CheckRegistry::global().find("varre2026.order_preservation");
  const engine::Check* loose = engine::CheckRegistry::global().find("varre2026.repulsion.leader");
  ASSERT_TRUE(strict && loose);
  ASSERT_TRUE(strict->strict_margin());
  ASSERT_FALSE(loose->strict_margin());
  for (const char* zero : {"0", "0.000", "-0", "0e5", "-1e-300"}) {
    engine::CheckResult r;
    r.verdict = Verdict::proved;
    r.margin = engine::Margin::parse(zero, "inf");
    engine::enforce_margin_contract(*strict, r);
    EXPECT_EQ(r.verdict, Verdict::inconclusive) << zero;
    EXPECT_NE(r.reason.find("not > 0"), std::string::npos) << r.reason;
  }
  engine::CheckResult ok;
  ok.verdict = Verdict::proved;
  ok.margin = engine::Margin::parse("1e-300", "inf");
  engine::enforce_margin_contract(*strict, ok);
  EXPECT_EQ(ok.verdict, Verdict::proved);
  engine::CheckResult zero_ok;
  zero_ok.verdict = Verdict::proved;
  zero_ok.margin = engine::Margin::parse("0", "inf");
  engine::enforce_margin_contract(*loose, zero_ok);
  EXPECT_EQ(zero_ok.verdict, Verdict::proved);
  zero_ok.margin = engine::Margin::parse("-1e-20", "inf");
  engine::enforce_margin_contract(*loose, zero_ok);
  EXPECT_EQ(zero_ok.verdict, Verdict::inconclusive);
}

}  // namespace
}  // namespace softcert
