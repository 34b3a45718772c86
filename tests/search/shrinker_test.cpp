// Shrinking keeps the violation: every accepted step is certified by the predicate, and on a
// property with a known smallest counterexample the shrinker reaches it.
#include <gtest/gtest.h>

#include "engine/registry.hpp"
#include "search/shrink_candidates.hpp"
#include "numerics/decimal.hpp"
#include "search/shrinker.hpp"

namespace softcert::search {
namespace {

// A toy property with a known smallest counterexample: "every entry of x is at most 10".
// Violated iff some entry exceeds 10; the margin is 10 − max x.
class AtMostTen final : public engine::Check {
 public:
  std::string name() const override { return "test.at_most_ten"; }
  std::string paper() const override { return "test"; }
  std::string statement() const override { return "every x_k <= 10"; }
  nlohmann::json generate(std::uint64_t, const engine::GenerateOptions&) const override { return {}; }
  engine::CheckResult run(const nlohmann::json& in, const engine::CheckOptions& o) const override {
    double top = -1e300;
    for (const auto& x : in.at("x")) top = std::max(top, num::parse_decimal<Real>(x.get<std::string>()));
    engine::CheckResult r;
    r.verdict = top > 10 ? engine::Verdict::violated : engine::Verdict::proved;
    r.margin = engine::Margin::of_doubles(10 - top, 10 - top);
    r.horizon = o.horizon;
    return r;
  }
  std::vector<nlohmann::json> shrink_candidates(const nlohmann::json& in) const override {
    auto out = search::remove_index_candidates(in, {"n", {{"x", 0}}});
    for (auto& c : search::shorten_decimal_candidates(in)) out.push_back(std::move(c));
    return out;
  }
};

search::StillViolated certifying(const engine::Check& check, std::size_t* accepted_checked) {
  return [&check, accepted_checked](const nlohmann::json& in, std::optional<double> h) -> std::optional<engine::CheckResult> {
    engine::CheckOptions o;
    o.horizon = h;
    try {
      auto r = check.run(in, o);
      if (r.verdict != engine::Verdict::violated) return std::nullopt;
      ++*accepted_checked;
      return r;
    } catch (const std::invalid_argument&) {
      return std::nullopt;
    }
  };
}

TEST(Shrinker, ReachesTheKnownSmallestCounterexample) {
  const AtMostTen check;
  const auto start = nlohmann::json::parse(R"({"n": 4, "x": ["3.14159", "12.3456", "-7.25", "10.0001"]})");
  std::size_t certified = 0;
  search::Counterexample cx{start, 100.0, check.run(start, {})};
  const auto out = search::shrink(check, cx, certifying(check, &certified), {});
  // One entry, the shortest decimal above 10 reachable by rounding 12.3456: "12".
  EXPECT_EQ(out.smallest.instance, nlohmann::json::parse(R"({"n": 1, "x": ["12"]})")) << out.smallest.instance.dump();
  EXPECT_EQ(out.smallest.horizon, 1e-2);  // the horizon does not matter here: the shortest allowed
  EXPECT_EQ(out.smallest.result.verdict, engine::Verdict::violated);
  EXPECT_EQ(check.run(out.smallest.instance, {}).verdict, engine::Verdict::violated);
  EXPECT_GT(out.steps, 3u);
  EXPECT_FALSE(out.cut_short);
}

TEST(Shrinker, KeepsTheHorizonWhenTheClaimIsAtThatTime) {
  const AtMostTen check;
  const auto start = nlohmann::json::parse(R"({"n": 2, "x": ["3.14159", "12.3456"]})");
  std::size_t certified = 0;
  search::Counterexample cx{start, 100.0, check.run(start, {})};
  search::ShrinkLimits limits;
  limits.shorten_horizon = false;
  const auto out = search::shrink(check, cx, certifying(check, &certified), limits);
  EXPECT_EQ(out.smallest.horizon, 100.0);
  EXPECT_EQ(out.smallest.instance, nlohmann::json::parse(R"({"n": 1, "x": ["12"]})")) << out.smallest.instance.dump();
}

TEST(Shrinker, NeverAcceptsACandidateThatHolds) {
  // A predicate that refuses everything leaves the counterexample as it was.
  const AtMostTen check;
  const auto start = nlohmann::json::parse(R"({"n": 2, "x": ["11.5", "3"]})");
  search::Counterexample cx{start, std::nullopt, check.run(start, {})};
  const auto out = search::shrink(check, cx, [](const nlohmann::json&, std::optional<double>) {
    return std::optional<engine::CheckResult>();
  }, {});
  EXPECT_EQ(out.smallest.instance, start);
  EXPECT_EQ(out.steps, 0u);
  EXPECT_GT(out.evaluations, 0u);
}

TEST(Shrinker, SinkRepresentabilityCounterexampleStaysCertified) {
  // 0 is a convex combination of the tokens (half-space fails): not representable.
  const engine::Check* check = engine::CheckRegistry::global().find("sukenik2026.sink_representability");
  ASSERT_NE(check, nullptr);
  const auto start = nlohmann::json::parse(R"({"check": "sukenik2026.sink_representability", "d": "2", "T": "4",
      "sink": ["3.1415", "2.7182"],
      "tokens": [["1.2345", "0.5432"], ["-1.1111", "0.6789"], ["0.0123", "-1.3579"], ["0.4", "0.4"]]})");
  ASSERT_EQ(check->run(start, {}).verdict, engine::Verdict::violated);
  std::size_t certified = 0;
  search::Counterexample cx{start, std::nullopt, check->run(start, {})};
  const auto out = search::shrink(*check, cx, certifying(*check, &certified), {});
  EXPECT_EQ(certified, out.steps);  // every accepted step was certified violated
  const auto final_result = check->run(out.smallest.instance, {});
  EXPECT_EQ(final_result.verdict, engine::Verdict::violated) << out.smallest.instance.dump();
  EXPECT_LT(std::stol(out.smallest.instance["T"].get<std::string>()), 4);
  const auto size = search::size_summary(out.smallest);
  const auto size0 = search::size_summary(cx);
  EXPECT_LT(size["significant_digits"].get<long>(), size0["significant_digits"].get<long>());
}

}  // namespace
}  // namespace softcert::search
