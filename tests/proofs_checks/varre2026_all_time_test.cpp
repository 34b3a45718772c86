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

engine::CheckResult run_all_time(const std::string& check, const nlohmann::json& inst, double horizon = 5,
                                 std::set<std::string> dropped = {}) {
  const engine::Check* c = engine::CheckRegistry::global().find(check);
  EXPECT_NE(c, nullptr) << check;
  engine::CheckOptions o;
  o.horizon = horizon;
  o.dropped = std::move(dropped);
  return engine::run_check(*c, inst, o);
}

// The tube checks assume a(0) uniform; the co-ordered starts here are not, so they drop it.
const std::set<std::string> kNonUniform = {"uniform-a0"};

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
    EXPECT_EQ(run_all_time("varre2026.order_preservation", inst, 5, kNonUniform).verdict, Verdict::proved) << a[0] << a[1] << a[2];
    EXPECT_EQ(run_all_time("varre2026.repulsion.leader.all_time", inst).verdict, Verdict::proved);
  }
}

TEST(Varre2026AllTime, AStartOrderedAgainstTheValuesIsOutsideTheLemma) {
  // u_0 > u_1 with a_1(0) − a_0(0) = 2: the tube check certifies a violation at t = 0; the lemma
  // says nothing, so the all-time checks stay inconclusive (never proved)
  const auto inst = all_time_instance({"0.01", "0"}, {"0", "2"});
  EXPECT_EQ(run_all_time("varre2026.order_preservation", inst, 5, kNonUniform).verdict, Verdict::violated);
  const auto r = run_all_time("varre2026.order_preservation.all_time", inst);
  EXPECT_EQ(r.verdict, Verdict::inconclusive) << r.reason;
  EXPECT_EQ(r.reason, "hypothesis co-ordered-start fails on this instance: u_0(0) > u_1(0) but a_0(0) < a_1(0)");
  // with the hypothesis dropped the check itself says the lemma does not apply
  const auto dropped = run_all_time("varre2026.order_preservation.all_time", inst, 5, {"co-ordered-start"});
  EXPECT_EQ(dropped.verdict, Verdict::inconclusive) << dropped.reason;
  EXPECT_EQ(dropped.details["pair"], nlohmann::json::array({0, 1}));
  const auto leader = run_all_time("varre2026.repulsion.leader.all_time", inst);
  EXPECT_EQ(leader.verdict, Verdict::inconclusive);
  EXPECT_EQ(leader.details["failed_hypothesis"], "leader-first");
  // the leader has the largest a(0), another pair is against: leader repulsion still proved (its
  // hypothesis is leader-first, not the co-ordered start)
  const auto mixed = all_time_instance({"0.5", "0.3", "-0.2"}, {"1", "-1", "0"});
  EXPECT_EQ(run_all_time("varre2026.order_preservation.all_time", mixed).verdict, Verdict::inconclusive);
  EXPECT_EQ(run_all_time("varre2026.repulsion.leader.all_time", mixed).verdict, Verdict::proved);
  EXPECT_EQ(run_all_time("varre2026.repulsion.leader", mixed, 5, kNonUniform).verdict, Verdict::proved);
}

TEST(Varre2026AllTime, GeneratedStartsAreCoOrdered) {
  for (const char* name : {"varre2026.order_preservation.all_time", "varre2026.repulsion.leader.all_time"}) {
    const engine::Check* c = engine::CheckRegistry::global().find(name);
    ASSERT_NE(c, nullptr);
    const std::string start = c->hypotheses().front();  // co-ordered-start, or leader-first
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      const auto inst = c->generate(seed, {});
      EXPECT_TRUE(c->hypotheses_on(inst).at("co-ordered-start")) << name << " " << seed;
      EXPECT_TRUE(c->hypotheses_on(inst).at("leader-first")) << name << " " << seed;
      EXPECT_EQ(run_all_time(name, inst).verdict, Verdict::proved) << name << " " << seed;
    }
    // dropping the start hypothesis leaves a(0) as drawn: some seed then breaks it
    engine::GenerateOptions dropped;
    dropped.dropped.insert(start);
    bool some_against = false;
    for (std::uint64_t seed = 1; seed <= 10; ++seed)
      some_against |= !c->hypotheses_on(c->generate(seed, dropped)).at(start);
    EXPECT_TRUE(some_against) << name;
  }
}

}  // namespace
}  // namespace softcert
