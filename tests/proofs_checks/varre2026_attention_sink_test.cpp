// The attention-sink readings (proofs_checks/varre2026_attention_sink.cpp) on hand-made
// instances whose winner is known in advance: each reading proved where its index wins and
// violated, with a certified winner, where another index does.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/verdict_policy.hpp"
#include "engine/registry.hpp"
#include "numerics/decimal.hpp"
#include "numerics/kinds.hpp"

namespace softcert {
namespace {

using engine::Verdict;

// d = 1, β* = (1): u(0) = the row exactly, c = 1.
nlohmann::json sink_instance(const std::vector<std::string>& u_row, const std::vector<std::string>& a) {
  return {{"model", "value_softmax"}, {"loss", "logistic"}, {"normalization", "softmax"},
          {"T", u_row.size()},        {"d", 1},             {"V", nlohmann::json::array({nlohmann::json(u_row)})},
          {"a", a},                   {"beta", {"1"}},      {"provenance", "hand-made for tests"}};
}

engine::CheckResult run_sink(const std::string& check, const nlohmann::json& inst, double horizon = 100,
                             std::set<std::string> dropped = {}) {
  const engine::Check* c = engine::CheckRegistry::global().find(check);
  EXPECT_NE(c, nullptr) << check;
  engine::CheckOptions o;
  o.horizon = horizon;
  o.dropped = std::move(dropped);
  return engine::run_check(*c, inst, o);
}

// An instance outside a hypothesis of the reading: inconclusive, the hypothesis named.
void expect_outside(const std::string& check, const nlohmann::json& inst, const std::string& reason) {
  const auto r = run_sink(check, inst);
  EXPECT_EQ(r.verdict, Verdict::inconclusive) << check;
  EXPECT_EQ(r.reason, reason) << check;
  EXPECT_TRUE(r.margin.empty()) << check;
}

TEST(Varre2026AttentionSink, PaperInitialisationTheLargestValueWins) {
  const auto r = run_sink("varre2026.attention_sink", sink_instance({"0.1", "0.4", "-0.3"}, {"0", "0", "0"}));
  ASSERT_EQ(r.verdict, Verdict::proved) << r.reason;
  EXPECT_EQ(r.details["winner"], 1);
  EXPECT_GT(std::stod(r.margin.lower_text()), 0.0);
  // the paper's reading is stated for a uniform a(0) only; dropped, it claims argmax u(0) wins
  // from any start (here a head start of 1 against a value lead of 0.3: token 0 wins)
  const auto head_start = sink_instance({"0.1", "0.4"}, {"1", "0"});
  expect_outside("varre2026.attention_sink", head_start,
                 "hypothesis uniform-a0 fails on this instance: a_0(0) = 1 but a_1(0) = 0");
  const auto dropped = run_sink("varre2026.attention_sink", head_start, 1e4, {"uniform-a0"});
  EXPECT_NE(dropped.verdict, Verdict::inconclusive) << dropped.reason;
  EXPECT_EQ(dropped.details["claimed_winner"], 1);
}

TEST(Varre2026AttentionSink, AHeadStartInAttentionBeatsASmallValueLead) {
  // a_0 − a_1 = 5 against u_1 − u_0 = 0.01: index 0 wins (the one-hot test's competition).
  const auto inst = sink_instance({"0", "0.01"}, {"5", "0"});
  const auto by_u = run_sink("varre2026.attention_sink.argmax_u0", inst);
  ASSERT_EQ(by_u.verdict, Verdict::violated) << by_u.reason;
  EXPECT_EQ(by_u.details["winner"], 0);
  EXPECT_EQ(by_u.details["claimed_winner"], 1);
  EXPECT_LT(std::stod(by_u.margin.upper_text()), 0.0);
  const auto by_a = run_sink("varre2026.attention_sink.argmax_a0", inst);
  EXPECT_EQ(by_a.verdict, Verdict::proved) << by_a.reason;
}

TEST(Varre2026AttentionSink, ALargeValueLeadBeatsASmallAttentionHeadStart) {
  // a_0 − a_1 = 0.01 against u_1 − u_0 = 2: index 1 wins, so "argmax a(0)" fails here.
  const auto inst = sink_instance({"0", "2"}, {"0.01", "0"});
  const auto by_a = run_sink("varre2026.attention_sink.argmax_a0", inst);
  ASSERT_EQ(by_a.verdict, Verdict::violated) << by_a.reason;
  EXPECT_EQ(by_a.details["winner"], 1);
  EXPECT_LT(std::stod(by_a.margin.upper_text()), 0.0);
  EXPECT_EQ(run_sink("varre2026.attention_sink.argmax_u0", inst).verdict, Verdict::proved);
}

TEST(Varre2026AttentionSink, AgreeingStartIsInsideTheRegionExactly) {
  // argmax a(0) = argmax u(0) = 0; gaps to 0: a 1 and 0.5, u 0.4 and 0.3: margin exactly 0.3
  const auto r = run_sink("varre2026.attention_sink.agreeing", sink_instance({"0.5", "0.1", "0.2"}, {"1", "0", "0.5"}));
  ASSERT_EQ(r.verdict, Verdict::proved) << r.reason;
  EXPECT_EQ(r.details["winner"], 0);
  const Rational lo = num::parse_decimal<Rational>(r.margin.lower_text()), hi = num::parse_decimal<Rational>(r.margin.upper_text());
  EXPECT_LE(lo, Rational(3, 10));
  EXPECT_GE(hi, Rational(3, 10));
  EXPECT_GT(lo, Rational(0));
  // disagreeing orderings are not this reading's instances; with agreeing-argmax dropped the
  // reading names no token: undecided, never a verdict
  const auto disagreeing = sink_instance({"0", "0.01"}, {"5", "0"});
  expect_outside("varre2026.attention_sink.agreeing", disagreeing,
                 "hypothesis agreeing-argmax fails on this instance: argmax a(0) = 0 but argmax u(0) = 1");
  EXPECT_EQ(run_sink("varre2026.attention_sink.agreeing", disagreeing, 100, {"agreeing-argmax"}).verdict,
            Verdict::inconclusive);
}

TEST(Varre2026AttentionSink, WithValuesAtZeroTheHighestInitialScoreWins) {
  // u(0) = 0: only a(0) tells the tokens apart; the entry into R_1 is certified by integration
  const auto r = run_sink("varre2026.attention_sink.values_at_zero", sink_instance({"0", "0", "0"}, {"0.3", "0.5", "-0.2"}), 1e4);
  ASSERT_EQ(r.verdict, Verdict::proved) << r.reason;
  EXPECT_EQ(r.details["winner"], 1);
  EXPECT_GT(std::stod(r.margin.lower_text()), 0.0);
  // a value lead is outside this reading, and so is a tie at the top of a(0)
  expect_outside("varre2026.attention_sink.values_at_zero", sink_instance({"0", "2"}, {"0.01", "0"}),
                 "hypothesis zero-V0 fails on this instance: V[0][1] = 2");
  expect_outside("varre2026.attention_sink.values_at_zero", sink_instance({"0", "0"}, {"1", "1"}),
                 "hypothesis unique-argmax-a0 fails on this instance: the largest entry of a(0) is tied: a_0(0) = a_1(0)");
  // zero-V0 dropped: the value lead of 2 beats the head start of 0.01, a certified violation of
  // "argmax a(0) wins" (the argmax_a0 reading's, below)
  const auto lead = run_sink("varre2026.attention_sink.values_at_zero", sink_instance({"0", "2"}, {"0.01", "0"}), 100, {"zero-V0"});
  EXPECT_EQ(lead.verdict, Verdict::violated) << lead.reason;
}

TEST(Varre2026AttentionSink, GeneratedInstancesSatisfyEachReadingsHypotheses) {
  for (const char* name : {"varre2026.attention_sink", "varre2026.attention_sink.argmax_a0",
                           "varre2026.attention_sink.argmax_u0", "varre2026.attention_sink.agreeing",
                           "varre2026.attention_sink.values_at_zero"}) {
    const engine::Check* c = engine::CheckRegistry::global().find(name);
    ASSERT_NE(c, nullptr) << name;
    const std::vector<std::string> kept = c->hypotheses();
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      const auto inst = c->generate(seed, {});
      EXPECT_EQ(inst, c->generate(seed, {})) << name;
      for (const auto& [h, holds] : c->hypotheses_on(inst))
        if (std::find(kept.begin(), kept.end(), h) != kept.end()) {
          EXPECT_TRUE(holds) << name << " seed " << seed << ": " << h;
        }
    }
  }
  // agreeing: the generator makes argmax a(0) = argmax u(0); the exact start decides it
  const engine::Check* agreeing = engine::CheckRegistry::global().find("varre2026.attention_sink.agreeing");
  for (std::uint64_t seed = 1; seed <= 4; ++seed)
    EXPECT_EQ(run_sink("varre2026.attention_sink.agreeing", agreeing->generate(seed, {})).verdict, Verdict::proved);
}

}  // namespace
}  // namespace softcert
