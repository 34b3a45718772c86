// The engine's verdict policy (engine/verdict_policy.hpp) decides every verdict of a check that
// only states its margin. The toy check below is the whole of such a check: the closed-form
// flow x' = −x, x(0) = 1, and the claim x(H) > θ, margin x(H) − θ = e^{−H} − θ.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/verdict_policy.hpp"
#include "support/failures.hpp"
#include "numerics/elementary.hpp"

namespace softcert::engine {
namespace {

// --- the toy check: 27 lines ---
class DecayStaysAbove : public Check {
 public:
  std::string name() const override { return "toy.decay_stays_above"; }
  std::string paper() const override { return "none (a test)"; }
  std::string statement() const override { return "x' = -x, x(0) = 1: x(H) > theta"; }
  nlohmann::json generate(std::uint64_t, const GenerateOptions&) const override { return {{"theta", 0.3}}; }
  CheckResult run(const nlohmann::json& in, const CheckOptions& o) const override {
    const double H = o.horizon.value_or(1), theta = in.at("theta").get<double>(), blur = in.value("blur", 0.0);
    if (H > 50) throw support::RigorousFailure("the toy integrator stops at t = 50");
    auto rigorous = [&] {
      CheckResult r;
      with_interval_kind(o.precision_bits ? o.precision_bits : 53, [&](auto kind, unsigned used) {
        using S = decltype(kind);
        r.precision_bits = used;
        const S margin = num::exp(S(-H)) - S(theta) + num::hull_of_bounds<S>(-blur, blur);
        decide_by_margin(r, margin, {"x(H) > theta", "x(H) < theta", "x(H) - theta straddles 0"});
        return 0;
      });
      return r;
    };
    if (o.tier == Tier::rigorous) return rigorous();
    const double jitter = in.value("fast_jitter", 0.0);  // how far the 2p run strays (a model of an unsettled run)
    return decide_fast({std::exp(-H) - theta, 53, ""}, {std::exp(-H) - theta + jitter, 106, ""}, "x(H) > theta",
                       "x(H) - theta", rigorous);
  }
};
// --- end of the toy check ---

CheckResult run_toy(nlohmann::json instance, Tier tier, double H = 1) {
  CheckOptions o;
  o.tier = tier;
  o.horizon = H;
  return run_check(DecayStaysAbove{}, instance, o);
}

TEST(VerdictPolicy, ToyCheckGetsEveryVerdictFromTheMarginAlone) {
  // e^{-1} = 0.36787…
  const CheckResult proved = run_toy({{"theta", 0.3}}, Tier::rigorous);
  EXPECT_EQ(proved.verdict, Verdict::proved);
  {  // outward: the printed pair contains e^{-1} − 0.3 (0.3 as the double the instance holds)
    num::PrecisionGuard guard(300);
    const MpReal exact = MpReal(exp(MpReal(-1))) - MpReal(0.3);
    EXPECT_LE(num::parse_decimal<MpReal>(proved.margin.lower_text()), exact);
    EXPECT_GE(num::parse_decimal<MpReal>(proved.margin.upper_text()), exact);
  }
  EXPECT_EQ(run_toy({{"theta", 0.4}}, Tier::rigorous).verdict, Verdict::violated);
  EXPECT_EQ(run_toy({{"theta", 0.3}, {"blur", 0.1}}, Tier::rigorous).verdict, Verdict::inconclusive);

  EXPECT_EQ(run_toy({{"theta", 0.3}}, Tier::fast).verdict, Verdict::confirmed);
  // the fast tier's violation is the rigorous tier's certificate, never its own
  const CheckResult recertified = run_toy({{"theta", 0.4}}, Tier::fast);
  EXPECT_EQ(recertified.verdict, Verdict::violated);
  EXPECT_FALSE(recertified.details.contains("margin_is_estimate"));
  const CheckResult not_recertified = run_toy({{"theta", 0.4}, {"blur", 0.1}}, Tier::fast);
  EXPECT_EQ(not_recertified.verdict, Verdict::inconclusive);
  EXPECT_NE(not_recertified.reason.find("did not certify"), std::string::npos) << not_recertified.reason;
}

TEST(VerdictPolicy, DecidesOnTheTypedMarginsEndsAndWritesThemUnchanged) {
  const MarginReasons why{"holds", "fails", "undecided"};
  num::PrecisionGuard guard(4000);
  // ends 2^-3500 from 0: not a double, and far below what 17 digits of a double show
  const MpReal tiny = boost::multiprecision::ldexp(MpReal(1), -3500);
  const IntervalMp above = num::hull_of_bounds<IntervalMp>(tiny, MpReal(1));
  CheckResult r;
  decide_by_margin(r, above, why);
  EXPECT_EQ(r.verdict, Verdict::proved);
  EXPECT_EQ(r.margin.lower_text(), num::lower_decimal(above));  // the record's text is as before
  decide_by_margin(r, IntervalMp(-above), why);
  EXPECT_EQ(r.verdict, Verdict::violated);
  EXPECT_EQ(r.margin.upper_text(), num::upper_decimal(IntervalMp(-above)));
  decide_by_margin(r, num::hull_of_bounds<IntervalMp>(MpReal(-tiny), tiny), why);
  EXPECT_EQ(r.verdict, Verdict::inconclusive);
  EXPECT_EQ(r.reason, "undecided");
  // a margin set directly (an exact one, a lower bound only) is decided the same way
  r.margin = Margin::of_exact(0);
  decide_by_margin(r, why);
  EXPECT_EQ(r.verdict, Verdict::inconclusive);
  r.margin = Margin::at_least(IntervalD(1e-300, 1));
  decide_by_margin(r, why);
  EXPECT_EQ(r.verdict, Verdict::proved);
  EXPECT_EQ(r.margin.upper_text(), "inf");
  r.margin = Margin();
  decide_by_margin(r, why);
  EXPECT_EQ(r.verdict, Verdict::inconclusive);  // no margin: nothing to decide on
}

TEST(VerdictPolicy, TheContractReadsTheTypedLowerEnd) {
  const DecayStaysAbove toy;  // strict
  CheckResult r;
  r.verdict = Verdict::proved;
  r.margin = Margin::of_exact(0);
  enforce_margin_contract(toy, r);
  EXPECT_EQ(r.verdict, Verdict::inconclusive);
  EXPECT_NE(r.reason.find("lower end 0 is not > 0"), std::string::npos) << r.reason;
  r.verdict = Verdict::proved;
  r.margin = Margin(IntervalD(std::nextafter(0.0, 1.0), 1.0));
  enforce_margin_contract(toy, r);
  EXPECT_EQ(r.verdict, Verdict::proved);
}

TEST(VerdictPolicy, FastRunsMustAgreeToTheDigitsTheSignNeeds) {
  // margin 0.0679: a 2p run 0.03 away agrees (≤ half of the smaller), one 0.05 away does not
  EXPECT_EQ(run_toy({{"theta", 0.3}, {"fast_jitter", 0.03}}, Tier::fast).verdict, Verdict::confirmed);
  const CheckResult apart = run_toy({{"theta", 0.3}, {"fast_jitter", 0.05}}, Tier::fast);
  EXPECT_EQ(apart.verdict, Verdict::inconclusive);
  EXPECT_NE(apart.reason.find("do not agree"), std::string::npos) << apart.reason;
  // opposite signs: inconclusive, and the rigorous tier is not asked
  EXPECT_EQ(run_toy({{"theta", 0.3}, {"fast_jitter", -0.1}}, Tier::fast).verdict, Verdict::inconclusive);
  EXPECT_TRUE(fast_runs_agree(INFINITY, INFINITY));
  EXPECT_FALSE(fast_runs_agree(0.0, 0.0));
  EXPECT_TRUE(fast_runs_agree(0.0, 0.0, /*strict=*/false));
  EXPECT_FALSE(fast_runs_agree(0.0, 1e-3, /*strict=*/false));
  EXPECT_FALSE(fast_runs_agree(NAN, 1.0));
  EXPECT_FALSE(fast_runs_agree(1.0, -1.0));
}

TEST(VerdictPolicy, FastMarginIsPrintedOutwardAroundBothRuns) {
  const CheckResult r = run_toy({{"theta", 0.3}, {"fast_jitter", 0.01}}, Tier::fast);
  ASSERT_EQ(r.verdict, Verdict::confirmed);
  EXPECT_LE(std::stod(r.margin.lower_text()), std::exp(-1.0) - 0.3);
  EXPECT_GE(std::stod(r.margin.upper_text()), std::exp(-1.0) - 0.3 + 0.01);
  EXPECT_TRUE(r.details.value("margin_is_estimate", false));
}

TEST(VerdictPolicy, ARigorousRunThatStopsIsInconclusiveWithItsReason) {
  const CheckResult r = run_toy({{"theta", 0.3}}, Tier::rigorous, 60);
  EXPECT_EQ(r.verdict, Verdict::inconclusive);
  EXPECT_NE(r.reason.find("stops at t = 50"), std::string::npos) << r.reason;
  EXPECT_TRUE(r.margin.empty());
  ASSERT_TRUE(r.horizon.has_value());
  EXPECT_EQ(*r.horizon, 60);
}

TEST(VerdictPolicy, RigorousRunKeepsWhatTheBodyRecordedBeforeItStopped) {
  CheckResult start;
  start.details["kept"] = 1;
  const CheckResult r = rigorous_run(start, [](CheckResult& r) {
    r.reason = "the second member's run";
    r.margin = Margin::of_exact(1);
    throw support::ValidationFailure("step refused");
  });
  EXPECT_EQ(r.verdict, Verdict::inconclusive);
  EXPECT_EQ(r.reason, "the second member's run: the rigorous tier stopped: step refused");
  EXPECT_EQ(r.details.value("kept", 0), 1);
  EXPECT_TRUE(r.margin.empty());
}

TEST(VerdictPolicy, IntervalKindFollowsThePrecision) {
  EXPECT_EQ(with_interval_kind(53, [](auto kind, unsigned used) {
              return std::is_same_v<decltype(kind), IntervalD> && used == 53;
            }),
            true);
  EXPECT_EQ(with_interval_kind(200, [](auto kind, unsigned used) {
              return std::is_same_v<decltype(kind), IntervalMp> && used >= 200;
            }),
            true);
}

// An exact margin prints as a decimal pair around the rational (1/3 and −1/3 have no finite
// binary expansion: a round-to-nearest print would fall on one side of them).
TEST(VerdictPolicy, ExactMarginIsPrintedOutwardAndDecidesByItsSign) {
  const MarginReasons why{"holds", "fails", "zero"};
  for (const Rational& m : {Rational(1, 3), Rational(-1, 3), Rational(2, 3) * Rational(1, 1000000007)}) {
    CheckResult r;
    decide_by_exact_margin(r, m, why);
    EXPECT_LE(num::parse_decimal<Rational>(r.margin.lower_text()), m);
    EXPECT_GE(num::parse_decimal<Rational>(r.margin.upper_text()), m);
    EXPECT_LT(num::parse_decimal<Rational>(r.margin.lower_text()), num::parse_decimal<Rational>(r.margin.upper_text()));
    EXPECT_EQ(r.verdict, m > 0 ? Verdict::proved : Verdict::violated);
    EXPECT_EQ(r.reason, m > 0 ? "holds" : "fails");
  }
  CheckResult zero;
  decide_by_exact_margin(zero, Rational(0), why);
  EXPECT_EQ(zero.verdict, Verdict::inconclusive);
  EXPECT_EQ(zero.reason, "zero");
  EXPECT_EQ(num::parse_decimal<Rational>(zero.margin.lower_text()), Rational(0));
  EXPECT_EQ(num::parse_decimal<Rational>(zero.margin.upper_text()), Rational(0));
}

TEST(VerdictPolicy, CertificatesDecideAndContradictionsAreErrors) {
  const MarginReasons why{"holds", "fails", "neither"};
  const std::pair<Certified, Verdict> cases[] = {{Certified::claim, Verdict::proved},
                                                 {Certified::counterexample, Verdict::violated},
                                                 {Certified::nothing, Verdict::inconclusive}};
  for (const auto& [what, verdict] : cases) {
    CheckResult r;
    decide_by_certificate(r, what, why);
    EXPECT_EQ(r.verdict, verdict);
  }
  CheckResult r;
  set_exact_margin(r, Rational(1, 7));
  undecided(r, "too wide");
  EXPECT_EQ(r.verdict, Verdict::inconclusive);
  EXPECT_EQ(r.reason, "too wide");
  EXPECT_FALSE(r.margin.empty());  // the straddling enclosure stays for the reader
  internal_contradiction(r, "a certificate failed its own re-check");
  EXPECT_EQ(r.verdict, Verdict::error);
  EXPECT_EQ(r.reason, "internal contradiction: a certificate failed its own re-check");
  check_error(r, "degenerate");
  EXPECT_EQ(r.verdict, Verdict::error);
}

}  // namespace
}  // namespace softcert::engine
