// A new claim written against the executor alone (integrate/flow.hpp) and the engine: the whole
// check is the class below, under 40 lines, and the engine's one verdict policy gives it each of
// the four verdicts — proved, violated and inconclusive in the rigorous tier, confirmed in the fast
// tier — on the paper's headline instance. The full-state verb honours the plan's time variable.
#include <algorithm>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "engine/check.hpp"
#include "engine/verdict_policy.hpp"
#include "integrate/flow.hpp"

namespace softcert {
namespace {

// Claim: max_k σ_k(a(H)) ≥ θ (params.theta), at the horizon H (default 10).
class MaxWeightAtLeast : public engine::Check {
 public:
  std::string name() const override { return "toy.max_weight_at_least"; }
  std::string paper() const override { return "a test of the executor"; }
  std::string statement() const override { return "max_k sigma_k(a(H)) >= theta"; }
  nlohmann::json generate(std::uint64_t, const engine::GenerateOptions&) const override { return {}; }
  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& o) const override {
    const instances::Instance inst = instances::parse_instance(instance);
    const double H = o.horizon.value_or(10), theta = o.params.value("theta", 0.5);
    if (o.tier == engine::Tier::fast) {
      const auto estimate = [&](unsigned bits) {
        const auto& alpha = flow::estimate_at(inst, H, bits).values.alpha;
        return engine::FastRun{*std::max_element(alpha.begin(), alpha.end()) - theta, bits, ""};
      };
      return engine::decide_fast(estimate(53), estimate(106), "max weight >= theta", "max weight - theta",
                                 [] { return engine::CheckResult{}; });
    }
    engine::CheckResult r;
    r.horizon = H;
    return engine::rigorous_run(r, [&](engine::CheckResult& r) {
      IntervalD best(-1);
      for (const auto& s : flow::state_at(inst, H).softmax)
        best = IntervalD(std::max(best.lower(), s.value.lower_down()), std::max(best.upper(), s.value.upper_up()));
      engine::decide_by_margin(r, best - IntervalD(theta), {"max weight >= theta", "max weight < theta", "undecided"});
    });
  }
};

nlohmann::json executor_test_headline() {
  std::ifstream f(SOFTCERT_SOURCE_DIR "/proofs_checks/instances/authors/headline.json");
  std::stringstream text;
  text << f.rdbuf();
  return nlohmann::json::parse(text.str());
}

engine::CheckResult judge_max_weight(double theta, engine::Tier tier) {
  engine::CheckOptions o;
  o.tier = tier;
  o.params = {{"theta", theta}};
  return engine::run_check(MaxWeightAtLeast(), executor_test_headline(), o);
}

TEST(FlowExecutor, AToyClaimGetsEveryVerdict) {
  // At t = 10 the headline's largest weight is about 0.26 (the rigorous tier encloses it to ~1e-12).
  const engine::CheckResult low = judge_max_weight(0.1, engine::Tier::rigorous);
  EXPECT_EQ(low.verdict, engine::Verdict::proved) << low.reason;
  const engine::CheckResult high = judge_max_weight(0.9, engine::Tier::rigorous);
  EXPECT_EQ(high.verdict, engine::Verdict::violated) << high.reason;
  const engine::CheckResult fast = judge_max_weight(0.1, engine::Tier::fast);
  EXPECT_EQ(fast.verdict, engine::Verdict::confirmed) << fast.reason;

  // θ at the enclosure's own lower end: the margin's enclosure contains 0.
  flow::StateEnclosure state = flow::state_at(instances::parse_instance(executor_test_headline()), 10);
  double top = 0;
  for (const auto& s : state.softmax) top = std::max(top, s.value.lower_down());
  const engine::CheckResult edge = judge_max_weight(top, engine::Tier::rigorous);
  EXPECT_EQ(edge.verdict, engine::Verdict::inconclusive) << edge.reason;
}

// The full-state verb runs what the plan says: τ-time by default for logistic loss, t-time when
// the request asks for it (a check's `time` parameter), and both runs enclose the same exact α(H).
TEST(FlowExecutor, TheFullStateRunIsThePlansTimeVariable) {
  const instances::Instance inst = instances::parse_instance(executor_test_headline());
  const auto tau = flow::full_state_at<IntervalD>(inst, 2, flow::Request{});
  flow::Request in_t;
  in_t.time = integrate::PlanTime::t;
  const auto t = flow::full_state_at<IntervalD>(inst, 2, in_t);
  EXPECT_TRUE(tau.tau_time);
  EXPECT_FALSE(t.tau_time);
  ASSERT_EQ(tau.alpha.size(), t.alpha.size());
  for (std::size_t k = 0; k < t.alpha.size(); ++k)
    EXPECT_TRUE(num::lower(tau.alpha[k]) <= num::upper(t.alpha[k]) && num::lower(t.alpha[k]) <= num::upper(tau.alpha[k]))
        << "the two enclosures of alpha_" << k << "(2) are disjoint";
}

}  // namespace
}  // namespace softcert
