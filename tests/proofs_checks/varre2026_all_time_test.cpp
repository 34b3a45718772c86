// The all-time forms of Thm 3.2 (proofs_checks/varre2026_all_time.cpp): exact margins on uniform
// and co-ordered starts, inconclusive outside the lemma, and agreement with the tube checks.
#include <gtest/gtest.h>

#include "engine/verdict_policy.hpp"
#include "engine/registry.hpp"
#include "numerics/decimal.hpp"
#include "numerics/kinds.hpp"

namespace softcert {
namespace {

using engine::Verdict;

nlohmann::json all_time_instance(const std::vector<std::string>& u_row, const std::vector<std::string>& a) {
  return {{"model", "value_softmax"}, {"loss", "logistic"}, {"normalization", "softmax"},
          {"T", u_row.size()},        {"d", 1},             {"V", nlohmann::json::array({nlohmann::json(u_row)})},
          {"a", a},                   {"beta", {"1"}},      {"provenance", "hand-made for tests"}};
}

engine::CheckResult run_all_time(const std::string& check, const nlohmann::json& inst, double horizon = 5) {
  const engine::Check* c = engine::CheckRegistry::global().find(check);
  EXPECT_NE(c, nullptr) << check;
  engine::CheckOptions o;
  o.horizon = horizon;
  return engine::run_check(*c, inst, o);
}

TEST(Varre2026AllTime, OrderPreservedForAllTimeFromUniformAndCoOrderedStarts) {
  for (const auto& a : {std::vector<std::string>{"0", "0", "0"}, std::vector<std::string>{"1", "0", "-1"},
                        std::vector<std::string>{"1", "1", "-3"}}) {
    const auto inst = all_time_instance({"0.5", "0.3", "-0.2"}, a);
    const auto r = run_all_time("varre2026.order_preservation.all_time", inst);
    ASSERT_EQ(r.verdict, Verdict::proved) << r.reason;
    // the smallest u-gap, 0.2, exactly (printed outward)
    EXPECT_LE(num::parse_decimal<Rational>(r.margin.lower_text()), Rational(1, 5));
    EXPECT_GE(num::parse_decimal<Rational>(r.margin.upper_text()), Rational(1, 5));
    EXPECT_GT(num::parse_decimal<Rational>(r.margin.lower_text()), Rational(0));
    // the tube check agrees on [0, 5]
    EXPECT_EQ(run_all_time("varre2026.order_preservation", inst).verdict, Verdict::proved) << a[0] << a[1] << a[2];
    EXPECT_EQ(run_all_time("varre2026.repulsion.leader.all_time", inst).verdict, Verdict::proved);
  }
}

TEST(Varre2026AllTime, AStartOrderedAgainstTheValuesIsOutsideTheLemma) {
  // u_0 > u_1 with a_1(0) − a_0(0) = 2: the tube check certifies a violation at t = 0; the lemma
  // says nothing, so the all-time checks stay inconclusive (never proved)
  const auto inst = all_time_instance({"0.01", "0"}, {"0", "2"});
  EXPECT_EQ(run_all_time("varre2026.order_preservation", inst).verdict, Verdict::violated);
  const auto r = run_all_time("varre2026.order_preservation.all_time", inst);
  EXPECT_EQ(r.verdict, Verdict::inconclusive) << r.reason;
  EXPECT_EQ(r.details["pair"], nlohmann::json::array({0, 1}));
  EXPECT_EQ(run_all_time("varre2026.repulsion.leader.all_time", inst).verdict, Verdict::inconclusive);
  // the leader has the largest a(0), another pair is against: leader repulsion still proved
  const auto mixed = all_time_instance({"0.5", "0.3", "-0.2"}, {"1", "-1", "0"});
  EXPECT_EQ(run_all_time("varre2026.order_preservation.all_time", mixed).verdict, Verdict::inconclusive);
  EXPECT_EQ(run_all_time("varre2026.repulsion.leader.all_time", mixed).verdict, Verdict::proved);
  EXPECT_EQ(run_all_time("varre2026.repulsion.leader", mixed).verdict, Verdict::proved);
}

TEST(Varre2026AllTime, GeneratedStartsAreCoOrdered) {
  for (const char* name : {"varre2026.order_preservation.all_time", "varre2026.repulsion.leader.all_time"}) {
    const engine::Check* c = engine::CheckRegistry::global().find(name);
    ASSERT_NE(c, nullptr);
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      const auto inst = c->generate(seed, {});
      EXPECT_TRUE(c->hypotheses_on(inst).at("co-ordered-start")) << name << " " << seed;
      EXPECT_EQ(run_all_time(name, inst).verdict, Verdict::proved) << name << " " << seed;
    }
    // dropping the hypothesis leaves a(0) as drawn: some seed is then ordered against u(0)
    engine::GenerateOptions dropped;
    dropped.dropped.insert("co-ordered-start");
    bool some_against = false;
    for (std::uint64_t seed = 1; seed <= 10; ++seed)
      some_against |= !c->hypotheses_on(c->generate(seed, dropped)).at("co-ordered-start");
    EXPECT_TRUE(some_against) << name;
  }
}

}  // namespace
}  // namespace softcert
