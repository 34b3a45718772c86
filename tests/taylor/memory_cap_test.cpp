// The tape refuses a variational pass whose x0-derivative storage exceeds the cap
// (taylor/memory_cap.hpp) before allocating it, with a message that names the sizes.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "numerics/kinds.hpp"
#include "taylor/memory_cap.hpp"
#include "taylor/tape.hpp"

namespace softcert {
namespace {

// x_i' = −x_i: one node per input and one per output, nothing shared.
struct Decay {
  template <class V>
  void operator()(const std::vector<V>& x, std::vector<V>& dx) const {
    dx.resize(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) dx[i] = -x[i];
  }
};

TEST(TapeMemoryCap, CapIsPositiveAndAtMostEightGiB) {
  const std::size_t cap = taylor::derivative_memory_cap();
  EXPECT_GT(cap, std::size_t{1} << 20);
  if (!std::getenv("SOFTCERT_TAPE_MEMORY_CAP")) {
    EXPECT_LE(cap, std::size_t{8} << 30);
  }
}

TEST(TapeMemoryCap, RequirementNamesTheSizesAboveTheCap) {
  EXPECT_NO_THROW(taylor::require_derivative_memory(1000, 21, 100, 16));
  try {
    taylor::require_derivative_memory(std::size_t{1} << 40, 21, std::size_t{1} << 30, 16);  // overflows size_t as a product
    FAIL() << "no refusal";
  } catch (const support::MemoryLimit& e) {  // typed: the engine reports it as inconclusive
    EXPECT_NE(std::string(e.what()).find("variational pass needs"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(" GiB"), std::string::npos) << e.what();
  }
}

// n = 30000 inputs at order 20: the derivative pass would need nodes·21·n·16 bytes ≈ 600 GB.
// The small value pass runs; the derivative pass is refused before it allocates anything.
TEST(TapeMemoryCap, TheDerivativePassIsRefusedBeforeItAllocates) {
  const std::size_t n = 30000;
  taylor::Tape<IntervalD> tape;
  tape.record(Decay{}, std::vector<IntervalD>(n, IntervalD(1)), 20);
  EXPECT_NO_THROW(tape.solve(false));
  EXPECT_THROW(tape.solve(true), std::domain_error);
}

}  // namespace
}  // namespace softcert
