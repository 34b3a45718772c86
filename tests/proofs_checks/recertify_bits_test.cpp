// A fast-tier check that re-certifies a violation rigorously must not take the rigorous tier
// beyond its cap (65536 bits aborted inside GMP): proofs_checks/varre2026_common.hpp.
#include <gtest/gtest.h>

#include "varre2026_common.hpp"

namespace softcert {
namespace {

TEST(RecertifyBits, CappedAtTheRigorousTiersLimitAndUnchangedBelowIt) {
  EXPECT_EQ(varre2026::recertify_bits(65536), engine::kMaxRigorousPrecision);
  EXPECT_EQ(varre2026::recertify_bits(engine::kMaxRigorousPrecision + 1), engine::kMaxRigorousPrecision);
  EXPECT_EQ(varre2026::recertify_bits(53), 53u);
  EXPECT_EQ(varre2026::recertify_bits(256), 256u);
}

}  // namespace
}  // namespace softcert
