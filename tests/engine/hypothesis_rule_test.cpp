// The hypothesis rule of run_check (docs/verdicts.md, "Hypotheses"): an instance that fails a
// hypothesis the run assumes is inconclusive with the hypothesis named, and the check does not
// run; dropped and undecided hypotheses are not held against it; suites, `check --drop` and
// replayed records drop through CheckOptions::dropped.
#include <gtest/gtest.h>

#include <atomic>

#include "engine/registry.hpp"
#include "engine/runner.hpp"
#include "engine/verdict_policy.hpp"

namespace softcert::engine {
namespace {

std::atomic<int> g_rule_runs{0};

// Claim: x >= 0, assuming "integer" (x has no fractional part) and "small" (|x| < 100). Both
// decided on the instance unless it says "undecided"; the claim is violated for every x < 0.
class Assumes final : public Check {
 public:
  std::string name() const override { return "test.hypothesis_rule"; }
  std::string paper() const override { return "test"; }
  std::string statement() const override { return "x >= 0 for integer x with |x| < 100"; }
  std::vector<std::string> hypotheses() const override { return {"integer", "small"}; }
  nlohmann::json generate(std::uint64_t, const GenerateOptions&) const override { return {{"x", "1"}}; }
  std::map<std::string, bool> hypotheses_on(const nlohmann::json& in) const override {
    if (!in.contains("x")) throw std::invalid_argument("x: missing field");
    if (in.value("undecided", false)) return {};
    const double x = std::stod(in["x"].get<std::string>());
    return {{"integer", x == static_cast<double>(static_cast<long>(x))}, {"small", x > -100 && x < 100}};
  }
  std::string why_hypothesis_fails(const std::string& h, const nlohmann::json& in) const override {
    return h == "integer" ? "x = " + in["x"].get<std::string>() : "";
  }
  CheckResult run(const nlohmann::json& in, const CheckOptions&) const override {
    ++g_rule_runs;
    if (!in.contains("x")) throw std::invalid_argument("x: missing field");
    const double x = std::stod(in["x"].get<std::string>());
    CheckResult r;
    decide_by_exact_sign(r, x > 0 ? 1 : x < 0 ? -1 : 0, {"x > 0", "x < 0", "x = 0"});
    return r;
  }
};

CheckResult decide(const nlohmann::json& in, std::set<std::string> dropped = {}) {
  CheckOptions o;
  o.dropped = std::move(dropped);
  o.horizon = 3;
  return run_check(Assumes{}, in, o);
}

TEST(HypothesisRule, AFailedHypothesisIsInconclusiveNamedAndTheCheckDoesNotRun) {
  g_rule_runs = 0;
  const CheckResult r = decide({{"x", "-0.5"}});
  EXPECT_EQ(r.verdict, Verdict::inconclusive);
  EXPECT_EQ(r.reason, "hypothesis integer fails on this instance: x = -0.5");
  EXPECT_EQ(r.details["failed_hypothesis"], "integer");
  EXPECT_EQ(r.details["failed_hypothesis_detail"], "x = -0.5");
  EXPECT_TRUE(r.margin.empty());
  EXPECT_EQ(r.horizon, 3.0);
  EXPECT_EQ(g_rule_runs, 0);
  // without a detail the reason ends at the name; the first failing one in declared order
  const CheckResult both = decide({{"x", "-1000.5"}});
  EXPECT_EQ(both.details["failed_hypothesis"], "integer");
  const CheckResult big = decide({{"x", "-1000"}});
  EXPECT_EQ(big.reason, "hypothesis small fails on this instance");
}

TEST(HypothesisRule, DroppedOrUndecidedHypothesesLetTheCheckDecide) {
  g_rule_runs = 0;
  EXPECT_EQ(decide({{"x", "-0.5"}}, {"integer"}).verdict, Verdict::violated);
  EXPECT_EQ(decide({{"x", "-1000.5"}}, {"integer", "small"}).verdict, Verdict::violated);
  EXPECT_EQ(decide({{"x", "-1000.5"}}, {"small"}).details["failed_hypothesis"], "integer");
  EXPECT_EQ(decide({{"x", "-0.5"}, {"undecided", true}}).verdict, Verdict::violated);
  EXPECT_EQ(decide({{"x", "2"}}).verdict, Verdict::proved);
  EXPECT_EQ(g_rule_runs, 4);
  // an instance too malformed to decide them: the check's own run refuses it
  EXPECT_THROW(decide({{"y", "1"}}), std::invalid_argument);
}

TEST(HypothesisRule, UnknownHypothesisNamesAreRefusedListingTheKnownOnes) {
  const Assumes c;
  EXPECT_EQ(unknown_hypothesis_problem(c, "small"), "");
  EXPECT_EQ(unknown_hypothesis_problem(c, "smal"),
            "test.hypothesis_rule has no hypothesis \"smal\" (its hypotheses: integer, small)");
  const Check* none = CheckRegistry::global().find("varre2026.kl.loss_reaches_infimum");
  ASSERT_NE(none, nullptr);
  EXPECT_EQ(unknown_hypothesis_problem(*none, "x"),
            "varre2026.kl.loss_reaches_infimum has no hypothesis \"x\" (it has no hypotheses)");
}

// The same rule inside a suite run: an entry's dropped hypotheses are dropped for its instance
// files (and in-memory instances) too, and the record says which were.
TEST(HypothesisRule, ASuiteEntryDropsForEveryInstanceAndTheRecordSaysSo) {
  const nlohmann::json against = {{"model", "value_softmax"}, {"loss", "logistic"}, {"normalization", "softmax"},
                                  {"T", 2}, {"d", 1}, {"V", nlohmann::json::array({nlohmann::json::array({"0.01", "0"})})},
                                  {"a", {"0", "2"}}, {"beta", {"1"}},
                                  {"provenance", "a(0) ordered against u(0)"}};
  for (const bool drop : {false, true}) {
    SuiteEntry e;
    e.check = "varre2026.order_preservation";
    e.options.horizon = 5;
    if (drop) e.generate.dropped.insert("uniform-a0");
    const Suite s = single_check_suite(e, 1);
    WorkItem item;
    item.instance_id = "against";
    item.instance = against;
    const nlohmann::json r = run_item(s, item);
    if (drop) {
      EXPECT_EQ(r["verdict"], "violated") << r["reason"];
      EXPECT_EQ(r["dropped"], nlohmann::json::array({"uniform-a0"}));
      EXPECT_EQ(r["counterexample"], against);
    } else {
      EXPECT_EQ(r["verdict"], "inconclusive");
      EXPECT_EQ(r["reason"], "hypothesis uniform-a0 fails on this instance: a_0(0) = 0 but a_1(0) = 2");
      EXPECT_FALSE(r.contains("dropped"));
    }
  }
}

// Every hypothesis a check advertises can be dropped: its generator then draws instances the
// check runs on (it refuses none of them as bad input), which `softcert search --drop H` needs
// before anything else. Short horizons and few iterations keep the runs cheap.
TEST(HypothesisRule, EveryAdvertisedHypothesisCanBeDropped) {
  std::size_t tried = 0;
  for (const Check* c : CheckRegistry::global().all()) {
    if (c->name().rfind("test.", 0) == 0) continue;
    for (const std::string& h : c->hypotheses()) {
      GenerateOptions g;
      g.dropped = {h};
      CheckOptions o;
      o.horizon = 1;
      o.dropped = {h};
      if (c->name() == "varre2026.gd.order_preservation") o.params = {{"iterations", 5}};
      for (std::uint64_t seed : {1, 2}) {
        nlohmann::json in;
        ASSERT_NO_THROW(in = c->generate(seed, g)) << c->name() << " --drop " << h;
        try {
          const CheckResult r = run_check(*c, in, o);
          EXPECT_NE(r.verdict, Verdict::error) << c->name() << " --drop " << h << ": " << r.reason;
          EXPECT_FALSE(r.details.contains("failed_hypothesis") && r.details["failed_hypothesis"] == h)
              << c->name() << ": the dropped hypothesis " << h << " was held against the instance";
        } catch (const std::invalid_argument& e) {
          ADD_FAILURE() << c->name() << " --drop " << h << ", seed " << seed << ": refused its generator's instance: " << e.what();
        }
        ++tried;
      }
    }
  }
  EXPECT_GT(tried, 40u);
}

}  // namespace
}  // namespace softcert::engine
