// The CPU cap (support/cpu_cap.hpp): without one every extra core is granted; under one, a
// core is granted only while fewer than the cap are out, and given back when its slot ends; the
// ball step's piece helper runs only on a granted core, and the bits do not depend on it.
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <thread>
#include <vector>

#include "support/cpu_cap.hpp"
#include "integrate/validated_taylor.hpp"
#include "reproduce/parallel.hpp"
#include "support/ring_field.hpp"

namespace softcert {
namespace {

using support::CpuCap;
using support::CpuSlot;

TEST(CpuCap, WithoutACapEveryExtraCoreIsGranted) {
  ASSERT_EQ(support::cpu_cap(), 0u);
  std::vector<CpuSlot> held;
  for (int k = 0; k < 64; ++k) {
    auto s = CpuSlot::try_extra();
    ASSERT_TRUE(s.has_value());
    held.push_back(std::move(*s));
  }
}

TEST(CpuCap, ACoreIsGrantedOnlyWhileOneIsFree) {
  const unsigned before = support::cpu_slots_in_use();
  {
    CpuCap cap(2);
    EXPECT_EQ(support::cpu_cap(), 2u);
    const CpuSlot worker = CpuSlot::worker();
    std::optional<CpuSlot> extra = CpuSlot::try_extra();
    ASSERT_TRUE(extra.has_value());
    EXPECT_FALSE(CpuSlot::try_extra().has_value());  // worker + extra = 2 = the cap
    EXPECT_EQ(support::cpu_slots_in_use(), 2u);
    extra.reset();
    EXPECT_TRUE(CpuSlot::try_extra().has_value());  // given back, granted again (and given back)
    {
      CpuCap inner(1);  // replaces the outer cap while it lives
      EXPECT_EQ(support::cpu_slots_in_use(), 0u);
      const CpuSlot w = CpuSlot::worker();
      EXPECT_FALSE(CpuSlot::try_extra().has_value());
    }
    EXPECT_EQ(support::cpu_cap(), 2u);  // the outer cap is back, with its worker's core out
    EXPECT_EQ(support::cpu_slots_in_use(), 1u);
  }
  EXPECT_EQ(support::cpu_cap(), 0u);
  EXPECT_EQ(support::cpu_slots_in_use(), before);
  EXPECT_THROW(CpuCap(0), std::invalid_argument);
}

bool same_double(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// run_both runs its second job on another thread only while a core is free; either way both run
// and it returns after both. The pool of `reproduce` (reproduce/parallel.hpp) holds a core per
// thread, so under a cap equal to its threads no run inside it gets an extra core.
TEST(CpuCap, RunBothAndTheReproducePoolKeepTheCap) {
  const auto main_id = std::this_thread::get_id();
  std::thread::id ran_b;
  bool ran_a = false;
  support::run_both([&] { ran_a = true; }, [&] { ran_b = std::this_thread::get_id(); });
  EXPECT_TRUE(ran_a);
  EXPECT_NE(ran_b, main_id);  // no cap: a thread of its own
  {
    const CpuCap cap(1);
    const CpuSlot mine = CpuSlot::worker();
    support::run_both([] {}, [&] { ran_b = std::this_thread::get_id(); });
    EXPECT_EQ(ran_b, main_id);  // the cap's one core is this thread's
  }
  {
    const CpuCap cap(1);  // nothing held here: the pool's thread must take the core itself
    std::vector<int> extra_granted(3, -1);
    reproduce::parallel_for(3, 1, [&](std::size_t i) { extra_granted[i] = CpuSlot::try_extra().has_value(); });
    EXPECT_EQ(extra_granted, std::vector<int>({0, 0, 0}));
    EXPECT_EQ(support::cpu_slots_in_use(), 0u);  // given back
  }
}

TEST(CpuCap, TheBallStepsHelperRunsOnlyOnAGrantedCore_WithTheSameBits) {
  constexpr std::size_t n = 10;
  const testing::RingField<n> f{};
  std::vector<IntervalD> box(n);
  for (std::size_t i = 0; i < n; ++i) box[i] = IntervalD(0.4 + 0.05 * double(i % 4) - 1e-6, 0.4 + 0.05 * double(i % 4) + 1e-6);
  auto run = [&](double& helper_cpu) {
    integrate::BallOptions o;
    o.order = 16;
    o.ball_pieces = 4;
    o.h_max = 0.25;
    o.piece_threads = true;
    integrate::BallStepper<IntervalD, decltype(f)> vt(f, n, o);
    integrate::BallSet<IntervalD> set = integrate::BallSet<IntervalD>::from_box(box);
    const auto end = vt.integrate(set, IntervalD(0.0), IntervalD(2.0)).final_box();
    helper_cpu = vt.helper_cpu_seconds();
    return end;
  };
  double free_cpu = 0, capped_cpu = 0;
  const auto free_end = run(free_cpu);
  std::vector<IntervalD> capped_end;
  {
    CpuCap cap(1);
    const CpuSlot worker = CpuSlot::worker();  // as the runner's one worker (--jobs 1)
    capped_end = run(capped_cpu);
  }
  EXPECT_EQ(capped_cpu, 0.0) << "the helper ran beyond the cap";
  if (std::thread::hardware_concurrency() > 1) { EXPECT_GT(free_cpu, 0.0) << "without a cap the helper never ran"; }
  ASSERT_EQ(free_end.size(), capped_end.size());
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_TRUE(same_double(free_end[i].lower(), capped_end[i].lower())) << i;
    EXPECT_TRUE(same_double(free_end[i].upper(), capped_end[i].upper())) << i;
  }
}

}  // namespace
}  // namespace softcert
