// sukenik2026.sink_alignment and sukenik2026.hard_switch.inputs through the registry: hand-made
// instances whose answers are known by hand, the near-miss statements refuted on them, generated
// instances that satisfy their hypotheses exactly, and a sampled re-check that can fail.
#include <gtest/gtest.h>

#include "certify/hard_switch.hpp"
#include "certify/rational_json.hpp"
#include "engine/registry.hpp"

namespace softcert::engine {
namespace {

const Check& registered_check(const std::string& name) {
  const Check* c = CheckRegistry::global().find(name);
  if (!c) throw std::runtime_error("not registered: " + name);
  return *c;
}

nlohmann::json embeddings(const char* check, const std::vector<std::string>& sink, const std::vector<std::vector<std::string>>& tokens) {
  nlohmann::json in;
  in["check"] = check;
  in["d"] = std::to_string(sink.size());
  in["T"] = std::to_string(tokens.size());
  in["sink"] = sink;
  in["tokens"] = tokens;
  return in;
}

CheckResult run_statement(const nlohmann::json& in, const std::string& statement) {
  CheckOptions o;
  o.params = {{"statement", statement}};
  return registered_check("sukenik2026.sink_alignment").run(in, o);
}

// x_0 = (1, 0), tokens (0, 1) and (−3/5, 4/5): all three have u·x > 0 for u = (1, 2), so a sink is
// representable; yet the second token's cosine with the sink is −3/5.
TEST(SinkAlignment, AlignedEmbeddingsAreRepresentableThoughOneTokenOpposesTheSink) {
  const auto in = embeddings("sukenik2026.sink_alignment", {"1", "0"}, {{"0", "1"}, {"-3/5", "4/5"}});
  const auto hyp = registered_check("sukenik2026.sink_alignment").hypotheses_on(in);
  EXPECT_TRUE(hyp.at("unit-norm"));
  EXPECT_TRUE(hyp.at("distinct"));
  const auto iff = run_statement(in, "iff");
  EXPECT_EQ(iff.verdict, Verdict::proved) << iff.reason;
  EXPECT_TRUE(iff.details.at("aligned").get<bool>());
  EXPECT_TRUE(iff.details.at("representable").get<bool>());
  const auto pairwise = run_statement(in, "pairwise-necessary");
  EXPECT_EQ(pairwise.verdict, Verdict::violated) << pairwise.reason;
  EXPECT_EQ(pairwise.margin.upper_text()[0], '-');
  EXPECT_NE(pairwise.reason.find("-0.6"), std::string::npos) << pairwise.reason;
}

// Tokens (0, 1), (0, −1), (3/5, 4/5) with sink (1, 0): 0 is the midpoint of the first two, so no
// half-space holds all embeddings and no W represents a sink — although x_0·mean = 1/5 > 0.
TEST(SinkAlignment, SinkAlignedWithTheMeanIsNotEnough) {
  const auto in = embeddings("sukenik2026.sink_alignment", {"1", "0"}, {{"0", "1"}, {"0", "-1"}, {"3/5", "4/5"}});
  const auto iff = run_statement(in, "iff");
  EXPECT_EQ(iff.verdict, Verdict::proved) << iff.reason;
  EXPECT_FALSE(iff.details.at("aligned").get<bool>());
  EXPECT_FALSE(iff.details.at("representable").get<bool>());
  const auto mean = run_statement(in, "mean-sufficient");
  EXPECT_EQ(mean.verdict, Verdict::violated) << mean.reason;
  EXPECT_EQ(mean.details.at("sink_mean_alignment"), "1/5");
}

// Without unit norms the reading fails: sink (1, 0) = ½(2, 1) + ½(0, −1) sits inside the keys'
// hull while u = (2, −1) has u·x > 0 for all three embeddings.
TEST(SinkAlignment, WithoutUnitNormsAlignedIsNotRepresentable) {
  const auto in = embeddings("sukenik2026.sink_alignment", {"1", "0"}, {{"2", "1"}, {"0", "-1"}});
  EXPECT_FALSE(registered_check("sukenik2026.sink_alignment").hypotheses_on(in).at("unit-norm"));
  const auto iff = run_statement(in, "iff");
  EXPECT_EQ(iff.verdict, Verdict::violated) << iff.reason;
  EXPECT_TRUE(iff.details.at("aligned").get<bool>());
  EXPECT_FALSE(iff.details.at("representable").get<bool>());
}

TEST(SinkAlignment, GeneratedEmbeddingsAreExactlyUnitAndBothOutcomesOccur) {
  const Check& c = registered_check("sukenik2026.sink_alignment");
  int aligned = 0, not_aligned = 0;
  for (std::uint64_t s = 0; s < 40; ++s) {
    const auto in = c.generate(s, {});
    const auto hyp = c.hypotheses_on(in);
    ASSERT_TRUE(hyp.at("unit-norm")) << s;
    ASSERT_TRUE(hyp.at("distinct")) << s;
    const auto r = c.run(in, {});
    EXPECT_EQ(r.verdict, Verdict::proved) << s << ": " << r.reason;
    (r.details.at("aligned").get<bool>() ? aligned : not_aligned) += 1;
  }
  EXPECT_GT(aligned, 0);
  EXPECT_GT(not_aligned, 0);
  EXPECT_THROW(run_statement(c.generate(1, {}), "both"), std::invalid_argument);
}

// Sink (1, 0, 0), tokens (1, 1, 0) and (1, −1, 0): every embedding has x_0·x > 0, but the parts
// orthogonal to the sink, (0, ±1, 0), cancel — uniform attention and W = P output exactly 0.
TEST(HardSwitchInputs, RawHalfSpaceIsNotEnoughOrthogonalPartsCancel) {
  const Check& c = registered_check("sukenik2026.hard_switch.inputs");
  const auto in = embeddings("sukenik2026.hard_switch.inputs", {"1", "0", "0"}, {{"1", "1", "0"}, {"1", "-1", "0"}});
  const auto hyp = c.hypotheses_on(in);
  EXPECT_FALSE(hyp.at("independent"));
  EXPECT_FALSE(hyp.at("orthogonal-half-space"));
  const auto r = c.run(in, {});
  EXPECT_EQ(r.verdict, Verdict::violated) << r.reason;
  EXPECT_TRUE(r.details.at("embeddings_in_one_half_space").get<bool>());
  EXPECT_TRUE(r.details.at("uniform_attention_output_zero").get<bool>());
  EXPECT_NE(r.reason.find("1/3"), std::string::npos) << r.reason;
}

// One coordinate changed: the orthogonal parts (0, 1, 0) and (0, −1, 1/2) are separated by
// u = (0, 1, 3), so κ > 0 is certified; the sampled re-check fails for a κ four times too large.
TEST(HardSwitchInputs, SeparatedOrthogonalPartsGiveCertifiedKappaAndTheReCheckHasTeeth) {
  const Check& c = registered_check("sukenik2026.hard_switch.inputs");
  const auto in = embeddings("sukenik2026.hard_switch.inputs", {"1", "0", "0"}, {{"1", "1", "0"}, {"1", "-1", "1/2"}});
  EXPECT_TRUE(c.hypotheses_on(in).at("independent"));
  const auto r = c.run(in, {});
  ASSERT_EQ(r.verdict, Verdict::proved) << r.reason;
  const certify::RMat parts = {{0, 1, 0}, {0, -1, Rational(1, 2)}};
  const Rational kappa_sq = certify::parse_rational(r.details.at("kappa_sq").get<std::string>(), "kappa_sq");
  EXPECT_EQ(certify::sampled_bound_holds(parts, kappa_sq, 64, 5), 64);
  EXPECT_LT(certify::sampled_bound_holds(parts, 16 * kappa_sq, 64, 5), 64);
}

TEST(HardSwitchInputs, GeneratedFamiliesKeptProvedDroppedRefutedOnAlignedEmbeddings) {
  const Check& c = registered_check("sukenik2026.hard_switch.inputs");
  GenerateOptions dropped;
  dropped.dropped = {"independent", "orthogonal-half-space"};
  for (std::uint64_t s = 0; s < 20; ++s) {
    const auto kept = c.run(c.generate(s, {}), {});
    EXPECT_EQ(kept.verdict, Verdict::proved) << s << ": " << kept.reason;
    const auto in = c.generate(s, dropped);
    const auto r = c.run(in, {});
    EXPECT_EQ(r.verdict, Verdict::violated) << s << ": " << r.reason;
    EXPECT_TRUE(r.details.at("embeddings_in_one_half_space").get<bool>()) << s;
  }
  auto zero_sink = c.generate(1, {});
  for (auto& x : zero_sink["sink"]) x = "0";
  EXPECT_THROW(c.run(zero_sink, {}), std::invalid_argument);
}

}  // namespace
}  // namespace softcert::engine
