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
    support::SplitMix64 rng(seed);
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

// Claim at a horizon H (default 7): x_0 <= 1, whatever H is. Hypothesis "x1-zero": x_1 = 0
// (like a(0) = 0); dropped, the generator draws x_1 in [1, 5]. Every sample with x_0 > 1 is a
// counterexample, and the shrinker would like to set x_1 to 0 (a shorter number), which makes
// the dropped hypothesis hold again. `over_interval`: whether a shorter horizon keeps the claim.
class FirstAtMostOne final : public engine::Check {
 public:
  explicit FirstAtMostOne(bool over_interval) : over_interval_(over_interval) {}
  std::string name() const override {
    return over_interval_ ? "test.search.first_at_most_one.up_to_h" : "test.search.first_at_most_one.at_h";
  }
  std::string paper() const override { return "test"; }
  std::string statement() const override { return "x_0 <= 1 at t = H when x_1 = 0"; }
  std::vector<std::string> hypotheses() const override { return {"x1-zero"}; }
  bool shorter_horizon_keeps_claim() const override { return over_interval_; }
  nlohmann::json generate(std::uint64_t seed, const engine::GenerateOptions& o) const override {
    support::SplitMix64 rng(seed);
    auto unit = [&rng] { return static_cast<double>(rng.next() >> 11) * 0x1.0p-53; };
    const double x0 = 5 * unit(), x1 = 1 + 4 * unit();
    nlohmann::json in;
    in["x"] = nlohmann::json::array({num::decimal_nearest(x0, 6), o.dropped.count("x1-zero") ? num::decimal_nearest(x1, 6) : "0"});
    return in;
  }
  std::map<std::string, bool> hypotheses_on(const nlohmann::json& in) const override {
    return {{"x1-zero", num::parse_decimal<Real>(in.at("x").at(1).get<std::string>()) == 0}};
  }
  engine::CheckResult run(const nlohmann::json& in, const engine::CheckOptions& o) const override {
    const double m = 1 - num::parse_decimal<Real>(in.at("x").at(0).get<std::string>());
    engine::CheckResult r;
    r.horizon = o.horizon.value_or(7);
    r.verdict = m < 0 ? engine::Verdict::violated : engine::Verdict::proved;
    r.margin = engine::Margin::of_doubles(m, m);
    return r;
  }

 private:
  bool over_interval_;
};

const engine::Check& first_at_most_one(bool over_interval) {
  static const bool registered = [] {
    engine::CheckRegistry::global().add(std::make_unique<FirstAtMostOne>(false));
    engine::CheckRegistry::global().add(std::make_unique<FirstAtMostOne>(true));
    return true;
  }();
  (void)registered;
  return *engine::CheckRegistry::global().find(over_interval ? "test.search.first_at_most_one.up_to_h"
                                                             : "test.search.first_at_most_one.at_h");
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

TEST(SearchDriver, AClaimAtOneTimeKeepsItsHorizonAndAClaimOnAnIntervalMayShortenIt) {
  for (const bool over_interval : {false, true}) {
    search::SearchSettings s;
    s.seed = 3;
    s.max_samples = 16;
    s.evaluator.dropped = {"x1-zero"};
    const auto o = search::run_search(first_at_most_one(over_interval), s, {});
    ASSERT_TRUE(o.found) << over_interval;
    ASSERT_TRUE(o.counterexample.horizon.has_value());
    if (over_interval) {
      EXPECT_EQ(*o.counterexample.horizon, 0.01);  // the violation does not depend on H
    } else {
      EXPECT_EQ(*o.counterexample.horizon, 7.0);  // the check's own horizon, the claim's
      EXPECT_EQ(o.size_shrunk["horizon"], o.size_found["horizon"]);
    }
    EXPECT_EQ(o.counterexample.result.horizon, o.counterexample.horizon);
  }
}

TEST(SearchDriver, ADroppedHypothesisTheCounterexampleBreaksStaysBrokenWhileShrinking) {
  search::SearchSettings s;
  s.seed = 3;
  s.max_samples = 16;
  s.evaluator.dropped = {"x1-zero"};
  const engine::Check& c = first_at_most_one(false);
  const auto o = search::run_search(c, s, {});
  ASSERT_TRUE(o.found);
  const auto& x = o.counterexample.instance["x"];
  EXPECT_GT(num::parse_decimal<Real>(x[0].get<std::string>()), 1);        // still violated
  EXPECT_FALSE(c.hypotheses_on(o.counterexample.instance).at("x1-zero"));  // still outside x1-zero
  EXPECT_EQ(o.broken_hypotheses, std::vector<std::string>{"x1-zero"});
  EXPECT_GT(o.shrink_refused_restores, 0u);  // x_1 -> "0" was tried and refused
  EXPECT_LE(o.size_shrunk["significant_digits"].get<long>(), 3) << o.counterexample.instance.dump();
  const auto record = search::search_record(c, s, o);
  EXPECT_EQ(record["dropped"], nlohmann::json::array({"x1-zero"}));
  EXPECT_EQ(record["search"]["breaks"], nlohmann::json::array({"x1-zero"}));
}

}  // namespace
}  // namespace softcert::search
