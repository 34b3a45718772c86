// enclose_full_state (integrate/rigorous_full.hpp) on random instances: for every loss × smooth
// normalization, on its own random instance, the enclosure of the full state (V, a) at t = 1 —
// in IntervalD, and at 128 bits in MPFI for one normalization per loss — contains a 300-bit fast-tier reference
// (taylor stepper, tolerance 1e-60, an independent integrator). The data are random decimals
// with three digits (exact in the instance, enclosed by the rigorous tier); a(0) > 0 keeps the
// sum normalization away from its singularity Σ a_j = 0.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>

#include "instances/instance.hpp"
#include "integrate/fast_run.hpp"
#include "integrate/rigorous_full.hpp"
#include "models/value_softmax.hpp"
#include "numerics/decimal.hpp"
#include "numerics/precision.hpp"
#include "support/mp_containment.hpp"
#include "support/random_inputs.hpp"

namespace softcert {
namespace {

using testing::contains;
using testing::milli;

using instances::Loss;
using instances::Normalization;

// A random instance with T = 3, d = 2, n = 3 data points: entries k/1000 in the given ranges.
nlohmann::json random_json(unsigned seed, Loss loss, Normalization norm) {
  std::mt19937 gen(seed);
  auto dec = [&gen](int lo, int hi) {  // a decimal k/1000, k uniform in [lo, hi]
    return milli(std::uniform_int_distribution<int>(lo, hi)(gen));
  };
  const std::size_t T = 3, d = 2, n = 3;
  nlohmann::json j = {{"model", "value_softmax"}, {"T", T}, {"d", d}, {"provenance", "test: random"}};
  j["loss"] = instances::to_string(loss);
  j["normalization"] = instances::to_string(norm);
  j["V"] = nlohmann::json::array();
  for (std::size_t r = 0; r < d; ++r) {
    nlohmann::json row = nlohmann::json::array();
    for (std::size_t i = 0; i < T; ++i) row.push_back(dec(-500, 500));
    j["V"].push_back(row);
  }
  j["a"] = nlohmann::json::array();
  for (std::size_t i = 0; i < T; ++i) j["a"].push_back(dec(200, 1500));
  j["beta"] = nlohmann::json::array({dec(300, 900), dec(-900, -300)});
  j["X"] = nlohmann::json::array();
  j["y"] = nlohmann::json::array();
  for (std::size_t k = 0; k < n; ++k) {
    j["X"].push_back(nlohmann::json::array({dec(-1000, 1000), dec(-1000, 1000)}));
    j["y"].push_back(loss == Loss::logistic_dataset ? (k % 2 ? "-1" : "1") : dec(-1000, 1000));
  }
  const int p0 = std::uniform_int_distribution<int>(100, 900)(gen);
  j["p"] = nlohmann::json::array({milli(p0), milli(1000 - p0)});
  return j;
}

// The state at t = 1 by the fast tier at 300 bits (taylor stepper, tolerance 1e-60).
std::vector<MpReal> reference_at_1(const instances::Instance& inst) {
  num::PrecisionGuard g(300);
  return integrate::run_to_time<MpReal>(models::ValueSoftmax<MpReal>(inst), MpReal(1), integrate::Stepper::taylor,
                                        MpReal("1e-60"))
      .x;
}

// The enclosure of (V, a) at t = 1 against the 300-bit reference; the number of misses.
template <class S>
std::size_t misses(const instances::Instance& inst, const std::vector<MpReal>& ref, const std::string& what,
                   bool ball = false) {
  integrate::ValidatedOptions vo;
  vo.log_norm_ball = ball;  // the ball step (validated_taylor.hpp) instead of the Lohner step
  const integrate::FullStateEnclosure<S> enc = integrate::enclose_full_state<S>(inst, S(1), vo);
  EXPECT_GE(enc.x.size(), ref.size()) << what;
  std::size_t miss = 0;
  for (std::size_t i = 0; i < ref.size() && i < enc.x.size(); ++i)
    if (!contains(enc.x[i], ref[i])) {
      ++miss;
      ADD_FAILURE() << what << ": component " << i << " [" << num::lower_decimal(enc.x[i]) << ", "
                    << num::upper_decimal(enc.x[i]) << "] misses " << num::to_decimal(ref[i]);
    }
  if (ball) {  // not vacuous: from a point, at t = 1, the ball is narrow
    double w = 0;
    for (const auto& x : enc.x) w = std::max(w, num::to_double(num::hull_of_bounds<S>(num::width(x), num::width(x))));
    EXPECT_LT(w, 1e-9) << what;
  }
  if (enc.tau_time) {
    EXPECT_TRUE(contains(enc.x.back(), MpReal(1))) << what << ": the t component at the crossing";
  }
  return miss;
}

TEST(RigorousFullRandom, EnclosureContainsA300BitReferenceForEveryLossAndSmoothNormalization) {
  std::size_t checked = 0;
  unsigned seed = 10;
  for (Loss loss : {Loss::logistic, Loss::logistic_dataset, Loss::square, Loss::regression, Loss::cross_entropy})
    for (Normalization norm : {Normalization::softmax, Normalization::square, Normalization::sum, Normalization::sigmoid}) {
      ++seed;  // a different random instance for every pair
      const auto inst = instances::parse_instance(random_json(seed, loss, norm));
      const std::string what = "seed " + std::to_string(seed) + " " + instances::to_string(loss) + "/" +
                               instances::to_string(norm);
      const std::vector<MpReal> ref = reference_at_1(inst);
      EXPECT_EQ(misses<IntervalD>(inst, ref, what + " (53 bits)"), 0u);
      if (seed % 4 == 3) {  // MPFI on every fourth (one per loss)
        num::PrecisionGuard g(128);
        EXPECT_EQ(misses<IntervalMp>(inst, ref, what + " (128 bits)"), 0u);
      }
      ++checked;
    }
  EXPECT_EQ(checked, 20u);
}

// The ball step (ValidatedOptions::log_norm_ball) on every loss × smooth normalization, on new
// random instances; MPFI at 128 bits on one per loss. Logistic loss runs in τ-time: t weighted in
// the ball's norm and the crossing t = 1 read from the ball step's box series (docs/method.md
// §2b), against the t-time reference.
TEST(RigorousFullRandom, BallStepEnclosureContainsA300BitReference) {
  std::size_t checked = 0;
  unsigned seed = 40;
  for (Loss loss : {Loss::logistic_dataset, Loss::square, Loss::regression, Loss::cross_entropy, Loss::logistic})
    for (Normalization norm : {Normalization::softmax, Normalization::square, Normalization::sum, Normalization::sigmoid}) {
      ++seed;
      const auto inst = instances::parse_instance(random_json(seed, loss, norm));
      const std::string what = "ball, seed " + std::to_string(seed) + " " + instances::to_string(loss) + "/" +
                               instances::to_string(norm);
      const std::vector<MpReal> ref = reference_at_1(inst);
      EXPECT_EQ(misses<IntervalD>(inst, ref, what + " (53 bits)", true), 0u);
      if (seed % 4 == 1) {
        num::PrecisionGuard g(128);
        EXPECT_EQ(misses<IntervalMp>(inst, ref, what + " (128 bits)", true), 0u);
      }
      ++checked;
    }
  EXPECT_EQ(checked, 20u);
}

}  // namespace
}  // namespace softcert
