// Decimal shortening and shrink candidates: digit counts, rounding, and that every candidate is
// strictly smaller than its instance (so shrinking ends).
#include <gtest/gtest.h>

#include "search/decimal_shortening.hpp"
#include "search/instance_leaves.hpp"
#include "search/shrink_candidates.hpp"

namespace softcert::search {
namespace {

using softcert::instances::value_softmax_axes;

TEST(DecimalShortening, CountsSignificantDigits) {
  EXPECT_EQ(significant_digits("0"), 0);
  EXPECT_EQ(significant_digits("-0.000"), 0);
  EXPECT_EQ(significant_digits("0.0250"), 2);
  EXPECT_EQ(significant_digits("100"), 1);
  EXPECT_EQ(significant_digits("1.5e-3"), 2);
  EXPECT_EQ(significant_digits("-123.456"), 6);
  EXPECT_FALSE(significant_digits("abc").has_value());
  EXPECT_FALSE(significant_digits("").has_value());
}

TEST(DecimalShortening, RoundsToFewerDigitsOnly) {
  EXPECT_EQ(round_significant("0.123456", 1), "0.1");
  EXPECT_EQ(round_significant("0.156", 2), "0.16");
  EXPECT_EQ(round_significant("-2.71828", 3), "-2.72");
  EXPECT_EQ(round_significant("1.23e-7", 1), "1e-07");
  EXPECT_FALSE(round_significant("0.12", 2).has_value());  // not shorter
  EXPECT_FALSE(round_significant("0.1", 3).has_value());
  EXPECT_EQ(round_significant("0.96", 1), "1");  // rounding may carry into a new digit
}

TEST(ShrinkCandidates, RemoveIndicesKeepShapeConsistent) {
  const auto inst = nlohmann::json::parse(R"({"model": "value_softmax", "T": 3, "d": 2,
      "V": [["1", "2", "3"], ["4", "5", "6"]], "a": ["7", "8", "9"], "beta": ["1", "2"]})");
  const auto by_t = remove_index_candidates(inst, value_softmax_axes()[0]);
  ASSERT_EQ(by_t.size(), 3u);
  // last index first
  EXPECT_EQ(by_t[0]["T"], 2);
  EXPECT_EQ(by_t[0]["V"], nlohmann::json::parse(R"([["1", "2"], ["4", "5"]])"));
  EXPECT_EQ(by_t[0]["a"], nlohmann::json::parse(R"(["7", "8"])"));
  EXPECT_EQ(by_t[2]["V"], nlohmann::json::parse(R"([["2", "3"], ["5", "6"]])"));
  const auto by_d = remove_index_candidates(inst, value_softmax_axes()[1]);
  ASSERT_EQ(by_d.size(), 2u);
  EXPECT_EQ(by_d[1]["d"], 1);
  EXPECT_EQ(by_d[1]["V"], nlohmann::json::parse(R"([["4", "5", "6"]])"));
  EXPECT_EQ(by_d[1]["beta"], nlohmann::json::parse(R"(["2"])"));
  // a digit-string size keeps its type; size 1 has nothing to remove
  const auto s = nlohmann::json::parse(R"({"T": "2", "values": [["1"], ["2"]]})");
  const auto c = remove_index_candidates(s, {"T", {{"values", 0}}});
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0]["T"], "1");
  EXPECT_TRUE(remove_index_candidates(c[0], {"T", {{"values", 0}}}).empty());
}

TEST(ShrinkCandidates, EveryShorteningHasStrictlyFewerDigits) {
  const auto inst = nlohmann::json::parse(R"({"T": "2", "x": ["0.123456", "-7.5", "0"], "name": "12345"})");
  auto digits = [](const nlohmann::json& j) {
    int n = 0;
    for (const auto& at : decimal_leaves(j)) n += *significant_digits(j.at(at).get<std::string>());
    return n;
  };
  const auto leaves = decimal_leaves(inst);
  EXPECT_EQ(leaves.size(), 3u);  // "T" and "name" are top-level scalars, not leaves
  const auto cands = shorten_decimal_candidates(inst);
  ASSERT_FALSE(cands.empty());
  for (const auto& c : cands) {
    EXPECT_LT(digits(c), digits(inst)) << c.dump();
    EXPECT_EQ(c["T"], "2");
    EXPECT_EQ(c["name"], "12345");
  }
  EXPECT_EQ(cands[0]["x"], nlohmann::json::parse(R"(["0", "0", "0"])"));  // the most aggressive first
}

}  // namespace
}  // namespace softcert::search
