// The instance generator is fixed by its seed: SplitMix64's published first word, golden
// normals and a golden instance (computed once; any platform must reproduce them bit for bit),
// and Box–Muller's moments.
#include <gtest/gtest.h>

#include <cmath>

#include "instances/generator.hpp"
#include "numerics/decimal.hpp"

namespace softcert {
namespace {

TEST(Generator, SplitMix64MatchesTheReferenceSequence) {
  support::SplitMix64 s(0);
  EXPECT_EQ(s.next(), 0xe220a8397b1dcdafULL);  // SplitMix64(0)'s first output (Vigna's splitmix64.c)
  EXPECT_EQ(s.next(), 7960286522194355700ULL);
}

TEST(Generator, NormalsAreGolden) {
  instances::NormalSource n(7);
  const char* golden[] = {"1.3649922974572282", "1.4452122126941494e-1", "-3.9652397525381783e-1",
                          "-2.2759631143286652e-1"};
  for (const char* g : golden) EXPECT_EQ(num::to_decimal(n.normal()), g);
}

TEST(Generator, InstanceIsGoldenAndValid) {
  instances::GeneratorOptions o;
  o.T = 3;
  o.d = 2;
  const auto inst = instances::generate_instance(42, o);
  EXPECT_EQ(inst.V[0][0], "4.1471975043153052e-2");
  EXPECT_EQ(inst.V[1][2], "-1.8834167889028161e-1");
  EXPECT_EQ(inst.beta[0], "-4.8830483595261076e-1");
  EXPECT_EQ(inst.beta[1], "-8.72673127342245e-1");
  EXPECT_EQ(inst.a, (instances::DecimalVector{"0", "0", "0"}));
  // It passes strict parsing and round-trips.
  const auto again = instances::parse_instance(instances::to_json(inst));
  EXPECT_EQ(again.V, inst.V);
  EXPECT_EQ(*again.seed, 42u);
  // Same seed, same instance; another seed, another instance.
  EXPECT_EQ(instances::to_json(instances::generate_instance(42, o)), instances::to_json(inst));
  EXPECT_NE(instances::generate_instance(43, o).V, inst.V);
}

TEST(Generator, EveryLossGetsItsFields) {
  for (auto loss : {instances::Loss::logistic_dataset, instances::Loss::regression, instances::Loss::cross_entropy}) {
    instances::GeneratorOptions o;
    o.loss = loss;
    o.n = 5;
    const auto inst = instances::generate_instance(1, o);
    EXPECT_NO_THROW((void)instances::parse_instance(instances::to_json(inst))) << instances::to_string(loss);
  }
}

TEST(Generator, BoxMullerHasStandardMoments) {
  instances::NormalSource n(2026);
  const int N = 40000;
  double s1 = 0, s2 = 0, s4 = 0;
  for (int k = 0; k < N; ++k) {
    const double z = n.normal();
    s1 += z;
    s2 += z * z;
    s4 += z * z * z * z;
  }
  EXPECT_NEAR(s1 / N, 0.0, 0.025);  // 5 standard errors
  EXPECT_NEAR(s2 / N, 1.0, 0.035);
  EXPECT_NEAR(s4 / N, 3.0, 0.25);
}

}  // namespace
}  // namespace softcert
