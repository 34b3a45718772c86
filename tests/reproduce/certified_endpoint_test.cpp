// reproduce/certified_endpoint.hpp: the rigorous endpoint of an authors' run encloses what the
// fast tier computes there (to the fast tier's accuracy), and every run it cannot reach says so
// with no number.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "reproduce/certified_endpoint.hpp"
#include "reproduce/notebook_run.hpp"

namespace softcert {
namespace {

double number(const std::string& s) { return std::stod(s); }

// The authors' logistic-loss sigmoid row reaches t = 5·10⁴ in a few τ-time steps. The 1e-13
// flow of run_notebook agrees with its own reference to ≥ 8 digits there, so the enclosure must
// hold its entropy and max weight to within 1e-8 — a dropped remainder or an inward rounding
// of the interval ends would not be caught by that slack, but a wrong model or time would.
TEST(CertifiedEndpoint, SigmoidLogisticRowAtTheAuthorsHorizonHoldsTheFastFlow) {
  const auto authors = reproduce::authors_instance("normalization-logistic-sigmoid");
  const auto c = reproduce::certify_endpoint(authors.instance, "50000", reproduce::EndpointBudget{});
  ASSERT_TRUE(c.proved) << c.note;
  EXPECT_GT(c.steps, 0u);
  const auto run = reproduce::run_notebook(authors, 2);
  ASSERT_TRUE(run.flow_ok);
  const auto& end = run.samples.back().flow;
  ASSERT_NEAR(run.samples.back().t, 50000.0, 1e-9);
  EXPECT_LE(number(c.entropy_lower), end.entropy + 1e-8);
  EXPECT_GE(number(c.entropy_upper), end.entropy - 1e-8);
  EXPECT_LE(number(c.max_weight_lower), end.max_weight + 1e-8);
  EXPECT_GE(number(c.max_weight_upper), end.max_weight - 1e-8);
  EXPECT_LE(number(c.loss_lower), end.loss + 1e-8);
  EXPECT_GE(number(c.loss_upper), end.loss - 1e-8);
  EXPECT_LT(number(c.entropy_upper) - number(c.entropy_lower), 1e-6);
}

TEST(CertifiedEndpoint, RunsOutOfReachSayWhyAndGiveNoNumber) {
  const auto authors = reproduce::authors_instance("normalization-logistic-sigmoid");
  reproduce::EndpointBudget small;
  small.max_states = 100;  // the instance has 110
  auto c = reproduce::certify_endpoint(authors.instance, "50000", small);
  EXPECT_FALSE(c.proved);
  EXPECT_NE(c.note.find("110 state components"), std::string::npos) << c.note;
  EXPECT_TRUE(c.entropy_lower.empty() && c.max_weight_lower.empty() && c.loss_lower.empty());
  reproduce::EndpointBudget one_step;
  one_step.max_steps = 1;
  c = reproduce::certify_endpoint(authors.instance, "50000", one_step);
  EXPECT_FALSE(c.proved);
  EXPECT_NE(c.note.find("did not reach t = 50000"), std::string::npos) << c.note;
  EXPECT_TRUE(c.entropy_lower.empty());
}

}  // namespace
}  // namespace softcert
