// The progress of validated runs (support/step_progress.hpp) and the lines `softcert check`
// prints from it (report/step_progress_lines.hpp): without a sink nothing is wired; with one,
// a full-state run in τ-time reports every validated step, in order, with t read from the
// state (not τ, which stays far below t at a long horizon); a reduced-form run in τ-time says
// τ; the lines are rate-limited and name the run, its steps and how far it is.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "instances/instance.hpp"
#include "integrate/rigorous_full.hpp"
#include "integrate/run_plan.hpp"
#include "support/step_progress.hpp"
#include "models/tied_value_softmax.hpp"
#include "report/step_progress_lines.hpp"

namespace softcert {
namespace {

instances::Instance tied_d3() {
  return instances::parse_instance(nlohmann::json::parse(R"({"model":"tied_value_softmax","loss":"logistic",
    "normalization":"softmax","T":3,"d":3,"U":[["1","0","0"],["0","1","0"],["0","0","1"]],
    "a":["1.05","0.92","1.13"],"beta":["0.6","-0.48","0.64"],"provenance":"test"})"));
}

integrate::RunRequest rigorous_tau(double horizon) {
  integrate::RunRequest q;
  q.tier = integrate::PlanTier::rigorous;
  q.horizon = horizon;
  q.time = integrate::PlanTime::tau;
  q.form = integrate::PlanForm::full_state;
  return q;
}

TEST(StepProgress, NothingIsWiredWithoutASink) {
  const auto vo = integrate::validated_options(integrate::plan_run(tied_d3(), rigorous_tau(50)));
  EXPECT_FALSE(vo.on_step);
}

TEST(StepProgress, AFullStateRunInTauTimeReportsEveryStepWithTReadFromTheState) {
  const auto inst = tied_d3();
  std::vector<support::StepProgress> seen;
  integrate::FullStateEnclosure<IntervalD> enc;
  {
    support::StepProgressScope scope([&seen](const support::StepProgress& p) { seen.push_back(p); });
    const double H = 50;
    const auto vo = integrate::validated_options(integrate::plan_run(inst, rigorous_tau(H)));
    ASSERT_TRUE(vo.on_step);
    const models::TiedValueSoftmax<IntervalD> model(inst, true);
    enc = integrate::enclose_model_state<IntervalD>(model, IntervalD(H), vo);
  }
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.size(), enc.steps);
  for (std::size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i].run, 1u);
    EXPECT_EQ(seen[i].steps, i + 1);
    EXPECT_EQ(seen[i].variable, "t");
    EXPECT_EQ(seen[i].horizon, 50.0);
    if (i > 0) {
      EXPECT_GT(seen[i].at, seen[i - 1].at);  // dt/dτ ≥ 1: t increases with every step
    }
  }
  // The run stops at the first step whose end passes t = 50 (τ there is a few units: dt/dτ =
  // 1 + e^m grows with t, so a τ reported as t would stay far below 50).
  EXPECT_GE(seen.back().at, 50.0);
  ASSERT_GE(seen.size(), 2u);
  EXPECT_LT(seen[seen.size() - 2].at, 50.0);
}

TEST(StepProgress, AReducedRunInTauTimeSaysTau_AndRunsAreNumberedInTheOrderPlanned) {
  instances::Instance inst = instances::parse_instance(nlohmann::json::parse(R"({"model":"value_softmax",
    "loss":"logistic","normalization":"softmax","T":3,"d":2,"V":[["0.1","-0.05","0.2"],["-0.15","0.3","0.05"]],
    "a":["1.1","0.9","1.0"],"beta":["0.6","0.8"],"provenance":"test"})"));
  std::vector<support::StepProgress> seen;
  support::StepProgressScope scope([&seen](const support::StepProgress& p) { seen.push_back(p); });
  integrate::RunRequest q = rigorous_tau(1000);
  q.form = integrate::PlanForm::reduced_logistic;
  const auto plan = integrate::plan_run(inst, q);
  ASSERT_EQ(plan.form, integrate::PlanForm::reduced_logistic);
  const auto first = integrate::validated_options(plan);
  const auto second = integrate::validated_options(integrate::plan_run(inst, rigorous_tau(1000)));
  first.on_step(3, 0.25, {});
  second.on_step(7, 12.5, {});
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].run, 1u);
  EXPECT_EQ(seen[0].variable, "τ");
  EXPECT_EQ(seen[0].steps, 3u);
  EXPECT_EQ(seen[1].run, 2u);
  EXPECT_EQ(seen[1].variable, "t");
  EXPECT_EQ(seen[1].at, 12.5);
}

TEST(StepProgress, TheScopeEndsTheReports) {
  std::size_t calls = 0;
  integrate::RunRequest q = rigorous_tau(50);
  std::function<void(std::size_t, double, const std::vector<double>&)> on_step;
  {
    support::StepProgressScope scope([&calls](const support::StepProgress&) { ++calls; });
    on_step = integrate::validated_options(integrate::plan_run(tied_d3(), q)).on_step;
    ASSERT_TRUE(on_step);
    on_step(1, 0.5, {});
  }
  on_step(2, 1.0, {});  // after the scope: reported nowhere
  EXPECT_EQ(calls, 1u);
  EXPECT_FALSE(integrate::validated_options(integrate::plan_run(tied_d3(), q)).on_step);
}

std::string read_all(std::FILE* f) {
  std::rewind(f);
  std::string s;
  char buf[512];
  while (std::fgets(buf, sizeof buf, f)) s += buf;
  return s;
}

TEST(StepProgressLines, OneLineThenNothingUntilTheIntervalHasPassed) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  report::StepProgressLines lines("softcert check x", std::chrono::seconds(0), std::chrono::hours(1), f);
  lines(support::StepProgress{1, 57, 12.3125, "t", 500});
  lines(support::StepProgress{1, 58, 12.5, "t", 500});
  EXPECT_EQ(read_all(f), "softcert check x: run 1, 57 validated steps, t ≈ 12.3125 of 500 (0 s)\n");
  std::fclose(f);
}

TEST(StepProgressLines, TauRunsNameTheirEndInT) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  report::StepProgressLines lines("c", std::chrono::seconds(0), std::chrono::seconds(0), f);
  lines(support::StepProgress{2, 1, 0.75, "τ", 1e6});
  EXPECT_EQ(read_all(f), "c: run 2, 1 validated step, τ ≈ 0.75 (END: t = 1e+06) (0 s)\n");
  std::fclose(f);
}

TEST(StepProgressLines, ElapsedText) {
  EXPECT_EQ(report::elapsed_text(0.4), "0 s");
  EXPECT_EQ(report::elapsed_text(59.4), "59 s");
  EXPECT_EQ(report::elapsed_text(123), "2 min 3 s");
  EXPECT_EQ(report::elapsed_text(3720), "1 h 02 min");
}

}  // namespace
}  // namespace softcert
