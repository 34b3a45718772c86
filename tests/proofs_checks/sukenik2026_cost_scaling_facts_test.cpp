// sukenik2026.cost_scaling's typed facts (engine::RunFacts::cost_scaling, what `softcert reproduce
// sukenik2026-cost-scaling` reads) say what its record's details "rows" and "fits" say, number for
// number; on orthonormal embeddings with τ = √d, γ = 1 the certified sink bracket contains the
// closed form T, and the diagonal's contains its closed form; a Gaussian sample has no expected
// exponent (NaN, written null).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "certify/rational_linear.hpp"
#include "engine/registry.hpp"

namespace softcert::engine {
namespace {

// Every typed row and fit equals its record; returns the number of certified rows.
std::size_t cost_facts_equal_details(const CheckResult& r) {
  const CostScalingFacts& f = r.facts.cost_scaling;
  const nlohmann::json& rows = r.details["rows"];
  EXPECT_EQ(f.rows.size(), rows.size());
  std::size_t certified = 0;
  for (std::size_t i = 0; i < f.rows.size() && i < rows.size(); ++i) {
    const CostScalingRow& t = f.rows[i];
    const nlohmann::json& j = rows[i];
    EXPECT_EQ(t.T, j["T"].get<std::size_t>());
    EXPECT_EQ(t.d, j["d"].get<std::size_t>());
    EXPECT_EQ(t.sink.has_value(), j.contains("sink"));
    const std::pair<const std::optional<IntervalD>*, const char*> brackets[] = {
        {&t.sink, "sink"}, {&t.diagonal, "diagonal"}, {&t.ratio, "ratio"}};
    for (const auto& [b, key] : brackets) {
      EXPECT_EQ(b->has_value(), j.contains(key)) << key;
      if (!*b || !j.contains(key)) continue;
      EXPECT_EQ((*b)->lower(), j[key][0].get<double>()) << key;
      EXPECT_EQ((*b)->upper(), j[key][1].get<double>()) << key;
    }
    EXPECT_EQ(t.relative_gap, j.value("relative_gap", 0.0));
    EXPECT_EQ(t.sink_closed_form.has_value(), j.contains("sink_closed_form"));
    if (t.sink_closed_form && j.contains("sink_closed_form")) {
      EXPECT_EQ(*t.sink_closed_form, j["sink_closed_form"].get<double>());
    }
    EXPECT_EQ(t.diagonal_closed_form.has_value(), j.contains("diagonal_closed_form"));
    if (t.diagonal_closed_form && j.contains("diagonal_closed_form")) {
      EXPECT_EQ(*t.diagonal_closed_form, j["diagonal_closed_form"].get<double>());
    }
    EXPECT_EQ(t.frobenius_sink_gamma1_tau1.has_value(), j.contains("frobenius_sink_exact_gamma1_tau1"));
    if (t.frobenius_sink_gamma1_tau1 && j.contains("frobenius_sink_exact_gamma1_tau1")) {
      EXPECT_EQ(certify::rational_string(*t.frobenius_sink_gamma1_tau1), j["frobenius_sink_exact_gamma1_tau1"]);
    }
    EXPECT_EQ(t.frobenius_equal, j.value("frobenius_equal", false));
    certified += t.sink ? 1 : 0;
  }
  const nlohmann::json fits = r.details.value("fits", nlohmann::json::object());
  const std::pair<const std::optional<CostScalingFit>*, const char*> all[] = {
      {&f.sink, "sink"}, {&f.diagonal, "diagonal"}, {&f.ratio, "ratio"}};
  for (const auto& [fit, key] : all) {
    EXPECT_EQ(fit->has_value(), fits.contains(key)) << key;
    if (!*fit || !fits.contains(key)) continue;
    const nlohmann::json& j = fits[key];
    EXPECT_EQ((*fit)->fit.exponent, j["exponent"].get<double>());
    EXPECT_EQ((*fit)->fit.ci_low, j["ci95"][0].get<double>());
    EXPECT_EQ((*fit)->fit.ci_high, j["ci95"][1].get<double>());
    EXPECT_EQ(nlohmann::json((*fit)->expected_asymptotic).dump(), j["expected_asymptotic"].dump());  // NaN: null
  }
  return certified;
}

TEST(Sukenik2026CostScalingFacts, OrthonormalRowsEqualTheRecordAndBracketTheClosedForms) {
  const Check& c = *CheckRegistry::global().find("sukenik2026.cost_scaling");
  GenerateOptions o;
  o.params = {{"embedding", "orthonormal"}, {"tau", "sqrt-d"}, {"T_max", 16}};
  const CheckResult r = c.run(c.generate(0, o), {});
  ASSERT_EQ(r.verdict, Verdict::proved) << r.reason;
  EXPECT_EQ(cost_facts_equal_details(r), r.facts.cost_scaling.rows.size());
  for (const CostScalingRow& t : r.facts.cost_scaling.rows) {
    ASSERT_TRUE(t.sink && t.diagonal && t.sink_closed_form && t.diagonal_closed_form);
    const double T = static_cast<double>(t.T);
    EXPECT_EQ(t.d, t.T + 1);
    EXPECT_LE(t.sink->lower(), T);  // sink = γτ T/√(T+1) = T exactly
    EXPECT_GE(t.sink->upper(), T);
    EXPECT_LE(t.diagonal->lower(), *t.diagonal_closed_form * (1 + 1e-12));
    EXPECT_GE(t.diagonal->upper(), *t.diagonal_closed_form * (1 - 1e-12));
    EXPECT_TRUE(t.frobenius_equal);
  }
  ASSERT_TRUE(r.facts.cost_scaling.sink && r.facts.cost_scaling.ratio);
  EXPECT_NEAR(r.facts.cost_scaling.sink->fit.exponent, 1.0, 1e-9);  // exactly T
  EXPECT_EQ(r.facts.cost_scaling.sink->expected_asymptotic, 1.0);
}

TEST(Sukenik2026CostScalingFacts, GaussianSampleRowsEqualTheRecordWithNoExpectedExponent) {
  const Check& c = *CheckRegistry::global().find("sukenik2026.cost_scaling");
  std::ifstream in(std::string(SOFTCERT_SOURCE_DIR) +
                   "/proofs_checks/instances/sukenik2026-cost-scaling-gaussian-sink-costlier.json");
  ASSERT_TRUE(in) << "saved instance missing";
  const CheckResult r = c.run(nlohmann::json::parse(in), {});
  EXPECT_GT(cost_facts_equal_details(r), 0u);
  for (const CostScalingRow& t : r.facts.cost_scaling.rows) EXPECT_FALSE(t.sink_closed_form);
  ASSERT_TRUE(r.facts.cost_scaling.diagonal);
  EXPECT_TRUE(std::isnan(r.facts.cost_scaling.diagonal->expected_asymptotic));
}

}  // namespace
}  // namespace softcert::engine
