// softcert replay: exit 0 only when the saved violation is reproduced rigorously; a tampered
// counterexample (one value changed so the violation disappears) is rejected with exit 1;
// malformed files exit 2.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "support/run_cli.hpp"

namespace {

using softcert::testing::run_softcert;

std::string write(const std::string& name, const nlohmann::json& j) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << j.dump();
  return path;
}

nlohmann::json record(const std::string& a1) {
  // u = (0.01, 0) with a = (0, a1): for a1 = 2 the attention starts against the values and
  // "a follows the order of u" fails at t = 0 (docs/theorems/varre2026_order_preservation.md)
  // — a start outside uniform-a0, so the record says the hypothesis was dropped.
  const nlohmann::json inst = {{"model", "value_softmax"}, {"loss", "logistic"}, {"normalization", "softmax"},
                               {"T", 2}, {"d", 1}, {"V", nlohmann::json::array({{"0.01", "0"}})},
                               {"a", {"0", a1}}, {"beta", {"1"}}, {"provenance", "cli_replay_test"}};
  return {{"check", "varre2026.order_preservation"}, {"horizon", 5.0}, {"precision_bits", 53},
          {"params", nlohmann::json::object()}, {"dropped", {"uniform-a0"}}, {"counterexample", inst}};
}

TEST(CliReplay, ReproducesACertifiedViolation) {
  const auto r = run_softcert("replay " + write("replay_ok.json", record("2")));
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("reproduced rigorously"), std::string::npos);
}

TEST(CliReplay, AViolationOutsideAHypothesisReplaysOnlyWithTheHypothesisDropped) {
  nlohmann::json kept = record("2");
  kept.erase("dropped");  // the replay assumes uniform-a0, which fails on the instance
  const auto r = run_softcert("replay " + write("replay_kept.json", kept));
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("inconclusive"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("hypothesis uniform-a0 fails on this instance: a_0(0) = 0 but a_1(0) = 2"), std::string::npos) << r.out;
  nlohmann::json unknown = record("2");
  unknown["dropped"] = {"uniform-a1"};
  const auto u = run_softcert("replay " + write("replay_unknown_hypothesis.json", unknown));
  EXPECT_EQ(u.status, 2) << u.out << u.err;
  EXPECT_NE(u.err.find("has no hypothesis \"uniform-a1\" (its hypotheses: uniform-a0, distinct-u0)"), std::string::npos) << u.err;
}

TEST(CliReplay, RejectsATamperedCounterexample) {
  const auto r = run_softcert("replay " + write("replay_tampered.json", record("0")));  // one digit changed
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("NOT reproduced"), std::string::npos) << r.err;
}

TEST(CliReplay, MalformedFilesAreUsageErrors) {
  const std::string garbage = ::testing::TempDir() + "replay_garbage.json";
  std::ofstream(garbage) << "{not json";
  EXPECT_EQ(run_softcert("replay " + garbage).status, 2);
  nlohmann::json no_cx = record("2");
  no_cx.erase("counterexample");
  EXPECT_EQ(run_softcert("replay " + write("replay_nocx.json", no_cx)).status, 2);
  nlohmann::json unknown = record("2");
  unknown["check"] = "no.such.check";
  EXPECT_EQ(run_softcert("replay " + write("replay_unknown.json", unknown)).status, 2);
}

}  // namespace
