// A singular model is refused at validation: a normalization whose denominator
// Σ_j f(a_j(0)) is 0 (a(0) = 0 under x², |x|; no positive a_j(0) under relu; Σ a_j(0) = 0 under
// sum) makes the weights 0/0 at the start. `check --instance` and `integrate` exit 2 naming the
// field and the sum, write nothing, and no tier is started (no "internal error" record); inside
// a suite the file is one `bad input` error record, like every other malformed file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "support/run_cli.hpp"

namespace {

using softcert::testing::run_softcert;

std::string singular(const std::string& normalization, const std::vector<std::string>& a) {
  const nlohmann::json inst = {{"model", "value_softmax"}, {"loss", "logistic"}, {"normalization", normalization},
                               {"T", a.size()}, {"d", 1}, {"V", nlohmann::json::array({nlohmann::json::array({"0.1", "-0.2"})})},
                               {"a", a}, {"beta", {"1"}}, {"provenance", "cli_singular_start_test"}};
  const std::string path = ::testing::TempDir() + "singular_" + normalization + ".json";
  std::ofstream(path) << inst.dump();
  return path;
}

TEST(CliSingularStart, CheckAndIntegrateExitTwoNamingTheCause) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> starts = {
      {"square", {"0", "0"}}, {"abs", {"0", "0"}}, {"relu", {"-1", "0"}}, {"sum", {"0.5", "-0.5"}}};
  for (const auto& [norm, a] : starts) {
    const std::string f = singular(norm, a);
    const std::string json = ::testing::TempDir() + "singular_" + norm + ".jsonl";
    std::filesystem::remove(json);
    const auto c = run_softcert("check varre2026.normalization.polarizes --instance " + f + " -q --json " + json);
    EXPECT_EQ(c.status, 2) << norm << c.out << c.err;
    EXPECT_NE(c.err.find(f + ": a: normalization \"" + norm + "\" divides by "), std::string::npos) << c.err;
    EXPECT_NE(c.err.find("0/0 at the start"), std::string::npos) << c.err;
    EXPECT_EQ(c.err.find("internal error"), std::string::npos) << c.err;
    EXPECT_FALSE(std::filesystem::exists(json)) << norm;
    const auto i = run_softcert("integrate " + f + " --t 1");
    EXPECT_EQ(i.status, 2) << norm << i.out << i.err;
    EXPECT_NE(i.err.find("a: normalization \"" + norm + "\" divides by "), std::string::npos) << i.err;
  }
}

}  // namespace
