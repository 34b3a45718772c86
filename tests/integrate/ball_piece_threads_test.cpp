// The ball step's pieces on two threads (BallSettings::piece_threads; support/helper_thread.hpp):
// the same numbers bit for bit as on one thread, and the helper runs a job in its caller's
// rounding mode (a job's doubles would otherwise differ: the certificate's proposals are made
// outside any rounding scope).
#include <gtest/gtest.h>

#include <cfenv>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

#include "support/helper_thread.hpp"
#include "integrate/validated_taylor.hpp"
#include "support/ring_field.hpp"

namespace softcert {
namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(BallStepPieceThreads, HelperRunsTheJobInTheCallersRoundingMode) {
  support::HelperThread helper;
  for (int mode : {FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO, FE_TONEAREST}) {
    std::fesetround(mode);
    int seen = -1;
    volatile double third = 0;  // 1/3 rounds differently in every mode
    helper.start([&] {
      seen = std::fegetround();
      volatile double one = 1, three = 3;
      third = one / three;
    });
    helper.wait();
    volatile double one = 1, three = 3;
    const double here = one / three;
    std::fesetround(FE_TONEAREST);
    EXPECT_EQ(seen, mode);
    EXPECT_TRUE(same_bits(third, here)) << "mode " << mode;
  }
  // An exception escaping a job is rethrown by wait(), and the helper keeps working.
  helper.start([] { throw std::runtime_error("job"); });
  EXPECT_THROW(helper.wait(), std::runtime_error);
  bool ran = false;
  helper.start([&] { ran = true; });
  helper.wait();
  EXPECT_TRUE(ran);
}

// A coupled nonlinear gradient-like flow in 12 dimensions, from a box, in 4 pieces a step and
// with the pieces chosen per step: the final box, the ball and the last μ are the same doubles
// with the pieces on one thread and on two (a piece skipped or combined out of order, or a
// helper in another rounding mode, would change them).
TEST(BallStepPieceThreads, TwoThreadsGiveTheSameBitsAsOne) {
  constexpr std::size_t n = 12;
  const testing::RingField<n> f{};
  std::vector<IntervalD> box(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double c = 0.4 + 0.07 * static_cast<double>(i % 5);
    box[i] = IntervalD(c - 1e-6, c + 1e-6);
  }
  for (unsigned pieces : {4u, 3u, 0u}) {
    std::vector<IntervalD> end[2];
    double ball[2] = {0, 0}, mu[2] = {0, 0}, helper_cpu[2] = {0, 0};
    for (int threads = 0; threads < 2; ++threads) {
      integrate::BallOptions o;
      o.order = 16;
      o.ball_pieces = pieces;
      o.h_max = 0.25;
      o.piece_threads = threads == 1;
      integrate::BallStepper<IntervalD, decltype(f)> vt(f, n, o);
      integrate::BallSet<IntervalD> set = integrate::BallSet<IntervalD>::from_box(box);
      const auto tube = vt.integrate(set, IntervalD(0.0), IntervalD(3.0));
      end[threads] = tube.final_box();
      ball[threads] = set.ball;
      mu[threads] = vt.ball_rule().last_mu;
      helper_cpu[threads] = vt.helper_cpu_seconds();
    }
    ASSERT_EQ(end[0].size(), n);
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_TRUE(same_bits(end[0][i].lower(), end[1][i].lower())) << pieces << " pieces, component " << i;
      EXPECT_TRUE(same_bits(end[0][i].upper(), end[1][i].upper())) << pieces << " pieces, component " << i;
    }
    EXPECT_TRUE(same_bits(ball[0], ball[1])) << pieces << " pieces";
    EXPECT_TRUE(same_bits(mu[0], mu[1])) << pieces << " pieces";
    EXPECT_GT(ball[0], 0);
    EXPECT_EQ(helper_cpu[0], 0.0);  // one thread: the helper never ran
    if (pieces > 1 && std::thread::hardware_concurrency() > 1) { EXPECT_GT(helper_cpu[1], 0.0) << "the helper never ran"; }
  }
}

}  // namespace
}  // namespace softcert
