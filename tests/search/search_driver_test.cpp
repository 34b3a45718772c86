// The search driver on a toy check with a closed form: samples never violate the property, so
// only the local optimisation can find a counterexample — when the hypothesis that keeps the
// numbers small is dropped. With it kept, nothing is found and the smallest margin is the
// closed-form bound.
#include <gtest/gtest.h>

#include <cmath>

#include "search/decimal_shortening.hpp"
#include "engine/registry.hpp"
#include "instances/generator.hpp"
#include "numerics/decimal.hpp"
#include "search/search.hpp"
#include "search/search_record.hpp"

namespace softcert::search {
namespace {

// Claim: x_0 + x_1 <= 12. Hypothesis "small": every x_k in [0, 5] (then the sum is <= 10, so
// the margin 12 - sum is >= 2). The generator always draws x_k in [0, 5], whatever is dropped.
class SumAtMostTwelve final : public engine::Check {
 public:
  std::string name() const override { return "test.search.sum_at_most_twelve"; }
  std::string paper() const override { return "test"; }
  std::string statement() const override { return "x_0 + x_1 <= 12 when every x_k is in [0, 5]"; }
  std::vector<std::string> hypotheses() const override { return {"small"}; }
  nlohmann::json generate(std::uint64_t seed, const engine::GenerateOptions&) const override {
    instances::SplitMix64 rng(seed);
    auto unit = [&rng] { return static_cast<double>(rng.next() >> 11) * 0x1.0p-53; };
    nlohmann::json in;
    in["x"] = nlohmann::json::array({num::decimal_nearest(5 * unit(), 6), num::decimal_nearest(5 * unit(), 6)});
    return in;
  }
  std::map<std::string, bool> hypotheses_on(const nlohmann::json& in) const override {
    bool small = true;
    for (const auto& v : values(in)) small = small && v >= 0 && v <= 5;
    return {{"small", small}};
  }
  engine::CheckResult run(const nlohmann::json& in, const engine::CheckOptions&) const override {
    const auto x = values(in);
    const double m = 12 - (x[0] + x[1]);  // exact enough for the test: decimals of 6-10 digits
    engine::CheckResult r;
    r.verdict = m < 0 ? engine::Verdict::violated : engine::Verdict::proved;
    r.margin = engine::Margin::of_doubles(m, m);
    r.reason = "sum " + num::decimal_nearest(x[0] + x[1], 17);
    return r;
  }

 private:
  static std::vector<double> values(const nlohmann::json& in) {
    if (!in.contains("x") || !in["x"].is_array() || in["x"].size() != 2) throw std::invalid_argument("x: two numbers");
    return {num::parse_decimal<Real>(in["x"][0].get<std::string>()), num::parse_decimal<Real>(in["x"][1].get<std::string>())};
  }
};

const engine::Check& toy() {
  // Registered in this test binary only: the search certifies through the replay reader,
  // which looks checks up by name.
  static const engine::Check* check = [] {
    engine::CheckRegistry::global().add(std::make_unique<SumAtMostTwelve>());
    return engine::CheckRegistry::global().find("test.search.sum_at_most_twelve");
  }();
  return *check;
}

search::SearchSettings settings(bool drop_small) {
  search::SearchSettings s;
  s.seed = 7;
  s.budget_seconds = 30;  // never reached: the sample cap ends the run
  s.max_samples = 32;
  if (drop_small) s.evaluator.dropped = {"small"};
  return s;
}

TEST(SearchDriver, LocalOptimisationFindsWhatSamplingCannot) {
  const auto o = search::run_search(toy(), settings(true), {});
  ASSERT_TRUE(o.found);
  EXPECT_EQ(o.found_where.rfind("local optimisation", 0), 0u) << o.found_where;
  const auto& cx = o.counterexample.instance;
  const double sum = num::parse_decimal<Real>(cx["x"][0].get<std::string>()) + num::parse_decimal<Real>(cx["x"][1].get<std::string>());
  EXPECT_GT(sum, 12);
  EXPECT_EQ(o.counterexample.result.verdict, engine::Verdict::violated);
  EXPECT_LE(o.size_shrunk["significant_digits"].get<long>(), 4) << cx.dump();
  EXPECT_LT(o.size_shrunk["significant_digits"].get<long>(), o.size_found["significant_digits"].get<long>());
  // Every sample was drawn in [0, 5]^2: none of them was the counterexample.
  EXPECT_GT(o.local_evaluations, 0u);
}

TEST(SearchDriver, KeptHypothesisBoundsTheSearch) {
  const auto o = search::run_search(toy(), settings(false), {});
  EXPECT_FALSE(o.found);
  EXPECT_TRUE(o.sample_cap_reached);
  EXPECT_EQ(o.samples, 32u);
  ASSERT_TRUE(o.closest.has_value());
  // Within [0, 5]^2 the margin is at least 2; the optimisation pushes towards that bound and
  // is refused when it tries to leave the square.
  EXPECT_GE(o.closest->margin, 2);
  EXPECT_LT(o.closest->margin, 2.5);
  EXPECT_GT(o.outside_hypotheses, 0u);
  const auto record = search::search_record(toy(), settings(false), o);
  EXPECT_FALSE(record.contains("counterexample"));  // nothing for replay to reproduce
  EXPECT_EQ(record["search"]["tried"], o.samples + o.local_evaluations);
  EXPECT_EQ(record["closest"]["instance"], o.closest->instance);
}

TEST(SearchDriver, SameSeedSameOutcome) {
  const auto a = search::run_search(toy(), settings(true), {}), b = search::run_search(toy(), settings(true), {});
  EXPECT_EQ(a.counterexample.instance, b.counterexample.instance);
  EXPECT_EQ(a.samples, b.samples);
  EXPECT_EQ(a.local_evaluations, b.local_evaluations);
  auto c = settings(true);
  c.seed = 8;
  const auto other = search::run_search(toy(), c, {});
  EXPECT_TRUE(other.found);
}

}  // namespace
}  // namespace softcert::search
