// Check::hypotheses_on, which keeps a search inside the kept hypotheses: decided exactly, both
// ways, on instances whose answers are known by hand.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "certify/rational_linear.hpp"
#include "engine/registry.hpp"

namespace {

using softcert::engine::CheckRegistry;

std::map<std::string, bool> on(const std::string& check, const std::string& instance) {
  const auto* c = CheckRegistry::global().find(check);
  EXPECT_NE(c, nullptr) << check;
  return c->hypotheses_on(nlohmann::json::parse(instance));
}

TEST(HypothesisHooks, RankIsExact) {
  using softcert::certify::RMat;
  using softcert::Rational;
  EXPECT_EQ(softcert::certify::rank_exact(RMat{{1, 2}, {2, 4}}), 1u);
  EXPECT_EQ(softcert::certify::rank_exact(RMat{{1, 2}, {2, 5}}), 2u);
  // 1/3 is not a double: a floating-point elimination would see a tiny nonzero pivot.
  EXPECT_EQ(softcert::certify::rank_exact(RMat{{Rational(1, 3), 1}, {1, 3}}), 1u);
  EXPECT_EQ(softcert::certify::rank_exact(RMat{{0, 0, 0}}), 0u);
  EXPECT_EQ(softcert::certify::rank_exact(RMat{{1, 0}, {0, 1}, {1, 1}}), 2u);
}

TEST(HypothesisHooks, SinkRepresentability) {
  const std::string name = "sukenik2026.sink_representability";
  auto both = on(name, R"({"d": "1", "T": "2", "sink": ["3"], "tokens": [["1"], ["2"]]})");
  EXPECT_TRUE(both.at("half-space"));
  EXPECT_TRUE(both.at("sink-exposed"));
  auto no_half = on(name, R"({"d": "1", "T": "2", "sink": ["3"], "tokens": [["1"], ["-1"]]})");
  EXPECT_FALSE(no_half.at("half-space"));
  EXPECT_TRUE(no_half.at("sink-exposed"));
  auto hidden = on(name, R"({"d": "1", "T": "2", "sink": ["1.5"], "tokens": [["1"], ["2"]]})");
  EXPECT_TRUE(hidden.at("half-space"));
  EXPECT_FALSE(hidden.at("sink-exposed"));
}

TEST(HypothesisHooks, HardSwitch) {
  const std::string name = "sukenik2026.hard_switch";
  auto both = on(name, R"({"d": "2", "T": "2", "values": [["1", "0"], ["0", "1"]]})");
  EXPECT_TRUE(both.at("full-rank"));
  EXPECT_TRUE(both.at("half-space"));
  auto parallel = on(name, R"({"d": "2", "T": "2", "values": [["1", "0"], ["2", "0"]]})");
  EXPECT_FALSE(parallel.at("full-rank"));
  EXPECT_TRUE(parallel.at("half-space"));
  auto opposite = on(name, R"({"d": "1", "T": "2", "values": [["1"], ["-0.5"]]})");
  EXPECT_FALSE(opposite.at("full-rank"));
  EXPECT_FALSE(opposite.at("half-space"));
}

TEST(HypothesisHooks, OrderPreservation) {
  const std::string name = "varre2026.order_preservation";
  const std::string head = R"({"model": "value_softmax", "loss": "logistic", "normalization": "softmax", "T": 2, "d": 1, "beta": ["1"], "provenance": "test", )";
  auto uniform = on(name, head + R"("V": [["0.1", "0.2"]], "a": ["0.5", "0.5"]})");
  EXPECT_TRUE(uniform.at("uniform-a0"));
  EXPECT_TRUE(uniform.at("distinct-u0"));
  auto tilted = on(name, head + R"("V": [["0.1", "0.1"]], "a": ["0", "1"]})");
  EXPECT_FALSE(tilted.at("uniform-a0"));
  EXPECT_FALSE(tilted.at("distinct-u0"));  // u_0 = u_1 exactly
}

TEST(HypothesisHooks, EveryLogisticCheckDecidesBoth) {
  // The hook lives in the family base (proofs_checks/varre2026_check.hpp), so every check of
  // Thms 3.2 and 3.3 decides both hypotheses as order preservation does.
  const std::string inst = R"({"model": "value_softmax", "loss": "logistic", "normalization": "softmax", "T": 2, "d": 1, )"
                           R"("beta": ["1"], "provenance": "test", "V": [["0.1", "0.1"]], "a": ["0", "1"]})";
  for (const char* name : {"varre2026.repulsion.leader", "varre2026.repulsion.all_pairs", "varre2026.one_hot.eventual",
                           "varre2026.one_hot.finite", "varre2026.massive_values"}) {
    SCOPED_TRACE(name);
    auto h = on(name, inst);
    EXPECT_FALSE(h.at("uniform-a0"));
    EXPECT_FALSE(h.at("distinct-u0"));
  }
}

TEST(HypothesisHooks, DefaultDecidesNothing) {
  // A check without the hook: a search then moves instances only with every hypothesis dropped.
  const auto* polarizes = CheckRegistry::global().find("varre2026.normalization.polarizes");
  ASSERT_NE(polarizes, nullptr);
  ASSERT_FALSE(polarizes->hypotheses().empty());
  EXPECT_TRUE(polarizes->hypotheses_on(nlohmann::json::object()).empty());
}

}  // namespace
