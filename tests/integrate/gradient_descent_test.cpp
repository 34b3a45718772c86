// Gradient descent beside the flow (integrate/gradient_descent.hpp, fast_samples.hpp): GD is a
// first-order (explicit Euler) discretisation of the flow, so its distance to the flow at a
// fixed t shrinks in proportion to the learning rate; the flow sampled at many times in one
// run equals separate runs to each time.
#include <gtest/gtest.h>

#include <cmath>

#include "integrate/fast_run.hpp"
#include "integrate/fast_samples.hpp"
#include "integrate/gradient_descent.hpp"
#include "models/model_test_support.hpp"

namespace softcert {
namespace {

double max_distance(const std::vector<double>& p, const std::vector<double>& q) {
  double m = 0;
  for (std::size_t i = 0; i < p.size(); ++i) m = std::max(m, std::abs(p[i] - q[i]));
  return m;
}

TEST(GradientDescent, ApproachesTheFlowLinearlyInTheLearningRate) {
  const models::ValueSoftmax<double> m(testing::headline());
  const auto flow = integrate::flow_at_times(m, {2.0}, 1e-13);
  std::vector<double> err;
  for (double lr : {0.02, 0.002}) {
    const auto n = static_cast<std::uint64_t>(std::llround(2.0 / lr));
    std::vector<double> last;
    integrate::gradient_descent(m, lr, n, {n}, [&](std::uint64_t k, const std::vector<double>& x) {
      EXPECT_EQ(k, n);
      last = x;
    });
    err.push_back(max_distance(last, flow.states[0]));
  }
  ASSERT_GT(err[1], 0);
  const double ratio = err[0] / err[1];
  EXPECT_GT(ratio, 8.0) << err[0] << " " << err[1];
  EXPECT_LT(ratio, 12.5) << err[0] << " " << err[1];
}

TEST(GradientDescent, RecordsTheInitialStateAndRefusesUnsortedTimes) {
  const models::ValueSoftmax<double> m(testing::two_token_logistic());
  std::vector<std::uint64_t> seen;
  integrate::gradient_descent(m, 0.1, 3, {0, 1, 3}, [&](std::uint64_t k, const std::vector<double>& x) {
    seen.push_back(k);
    if (k == 0) { EXPECT_EQ(x, m.initial_state()); }
  });
  EXPECT_EQ(seen, (std::vector<std::uint64_t>{0, 1, 3}));
  EXPECT_THROW(integrate::gradient_descent(m, 0.1, 3, {2, 1}, [](std::uint64_t, const std::vector<double>&) {}),
               std::invalid_argument);
  EXPECT_THROW(integrate::gradient_descent(m, 0.1, 3, {4}, [](std::uint64_t, const std::vector<double>&) {}),
               std::invalid_argument);
}

TEST(FlowSamples, EqualSeparateRunsToEachTime) {
  const models::ValueSoftmax<double> m(testing::headline());
  const std::vector<double> times{0.0, 0.5, 3.0, 40.0};
  const auto s = integrate::flow_at_times(m, times, 1e-13);
  ASSERT_EQ(s.states.size(), times.size());
  EXPECT_EQ(s.states[0], m.initial_state());
  for (std::size_t i = 1; i < times.size(); ++i) {
    const auto run = integrate::run_to_time<double>(m, times[i], integrate::Stepper::rkf78, 1e-14);
    EXPECT_LT(max_distance(s.states[i], run.x), 1e-10) << times[i];
  }
}

}  // namespace
}  // namespace softcert
