// Hypotheses on a user's own instances, end to end (docs/verdicts.md, "Hypotheses"): `check`
// names the hypothesis an instance fails and says inconclusive (exit 3), never violated (exit
// 1) or a vacuous proved; `--drop` takes it back and lists the known names when given another;
// `search` drops every hypothesis `list` advertises, and keeps the claim: the horizon of a
// claim at one time H, and the dropped hypothesis broken on the counterexample it reports.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "engine/registry.hpp"
#include "support/run_cli.hpp"

namespace {

using softcert::testing::run_softcert;

std::string write_instance(const std::string& name, const std::vector<std::string>& v_row, const std::vector<std::string>& a) {
  const nlohmann::json inst = {{"model", "value_softmax"}, {"loss", "logistic"}, {"normalization", "softmax"},
                               {"T", v_row.size()}, {"d", 1}, {"V", nlohmann::json::array({nlohmann::json(v_row)})},
                               {"a", a}, {"beta", {"1"}}, {"provenance", "cli_hypotheses_test"}};
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << inst.dump();
  return path;
}

nlohmann::json only_record(const std::string& jsonl) {
  std::ifstream in(jsonl);
  std::string line;
  std::getline(in, line);
  return nlohmann::json::parse(line);
}

TEST(CliHypotheses, CheckNamesTheFailedHypothesisInsteadOfViolated) {
  // a(0) = (0, 2) against u(0) = (0.01, 0): outside uniform-a0
  const std::string f = write_instance("hyp_nonuniform.json", {"0.01", "0"}, {"0", "2"});
  const std::string json = ::testing::TempDir() + "hyp_nonuniform.jsonl";
  const auto r = run_softcert("check varre2026.order_preservation --instance " + f + " --horizon 5 -q --json " + json);
  EXPECT_EQ(r.status, 3) << r.out << r.err;  // too many inconclusive, not 1 (unexpected)
  EXPECT_NE(r.out.find("hyp_nonuniform.json: inconclusive: hypothesis uniform-a0 fails on this instance: a_0(0) = 0 but a_1(0) = 2"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("UNEXPECTED"), std::string::npos) << r.out;
  const auto rec = only_record(json);
  EXPECT_EQ(rec["verdict"], "inconclusive");
  EXPECT_EQ(rec["details"]["failed_hypothesis"], "uniform-a0");
  EXPECT_FALSE(rec.contains("counterexample"));
  // dropped, the same file is a certified violation of the claim without uniform-a0
  const auto d = run_softcert("check varre2026.order_preservation --instance " + f + " --horizon 5 -q --drop uniform-a0 --json " + json);
  EXPECT_EQ(d.status, 1) << d.out << d.err;
  EXPECT_EQ(only_record(json)["verdict"], "violated");
  EXPECT_EQ(only_record(json)["dropped"], nlohmann::json::array({"uniform-a0"}));
  // the attention sink's paper reading applies the same rule: inconclusive, not a refused file (exit 2)
  const auto sink = run_softcert("check varre2026.attention_sink --instance " + f + " --horizon 5 -q");
  EXPECT_EQ(sink.status, 3) << sink.out << sink.err;
  EXPECT_NE(sink.out.find("hypothesis uniform-a0 fails on this instance"), std::string::npos) << sink.out;
}

TEST(CliHypotheses, ATiedStartIsNotAVacuousProof) {
  // u(0) = (0.5, 0.5, 0.5): no pair with u_i(0) > u_j(0), so order preservation has nothing to prove
  const std::string f = write_instance("hyp_tied.json", {"0.5", "0.5", "0.5"}, {"0", "0", "0"});
  const auto r = run_softcert("check varre2026.order_preservation --instance " + f + " --horizon 5 -q");
  EXPECT_EQ(r.status, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("inconclusive: hypothesis distinct-u0 fails on this instance: u_0(0) = u_1(0)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("proved:"), std::string::npos) << r.out;
}

TEST(CliHypotheses, AnUnknownDropListsTheKnownHypotheses) {
  for (const char* cmd : {"check varre2026.order_preservation --instances 1 --drop uniform", "search varre2026.order_preservation --drop uniform"}) {
    const auto r = run_softcert(std::string(cmd) + " -q");
    EXPECT_EQ(r.status, 2) << cmd << r.out << r.err;
    EXPECT_NE(r.err.find("--drop: varre2026.order_preservation has no hypothesis \"uniform\" (its hypotheses: uniform-a0, distinct-u0)"),
              std::string::npos)
        << cmd << ": " << r.err;
  }
}

TEST(CliHypotheses, SearchDropsWhatListAdvertises) {
  // every reading of the sink: each of its hypotheses dropped, a few samples (exit 0 or 1,
  // never 2 for a hypothesis `list` names)
  for (const char* name : {"varre2026.attention_sink", "varre2026.attention_sink.values_at_zero", "varre2026.attention_sink.agreeing"}) {
    const softcert::engine::Check* c = softcert::engine::CheckRegistry::global().find(name);
    ASSERT_NE(c, nullptr) << name;
    for (const auto& h : c->hypotheses()) {
      const auto r = run_softcert(std::string("search ") + name + " --drop " + h + " --max-samples 2 --budget 60 -q");
      EXPECT_TRUE(r.status == 0 || r.status == 1) << name << " --drop " << h << ": exit " << r.status << "\n" << r.out << r.err;
    }
  }
}

// A counterexample to the finite-horizon one-hot reading found with
// uniform-a0 dropped is at the claim's horizon (the check's 1e5, or --horizon) and keeps a(0)
// non-uniform; `softcert replay` reproduces it from the file.
TEST(CliHypotheses, SearchOfAClaimAtOneTimeKeepsTheHorizonAndTheBrokenHypothesis) {
  const softcert::engine::Check* c = softcert::engine::CheckRegistry::global().find("varre2026.one_hot.finite");
  ASSERT_NE(c, nullptr);
  for (const auto& [horizon_arg, horizon] : std::vector<std::pair<std::string, double>>{{"", 1e5}, {" --horizon 10", 10.0}}) {
    const std::string out = ::testing::TempDir() + "hyp_one_hot_finite.json";
    std::filesystem::remove(out);
    const auto s = run_softcert("search varre2026.one_hot.finite --drop uniform-a0 --budget 60 --seed 1 -q --out " + out + horizon_arg);
    ASSERT_EQ(s.status, 0) << horizon_arg << s.out << s.err;
    std::ifstream in(out);
    const nlohmann::json rec = nlohmann::json::parse(in);
    EXPECT_EQ(rec["horizon"].get<double>(), horizon) << horizon_arg;
    EXPECT_EQ(rec["search"]["size_shrunk"]["horizon"].get<double>(), horizon);
    EXPECT_FALSE(c->hypotheses_on(rec["counterexample"]).at("uniform-a0")) << rec["counterexample"].dump();
    EXPECT_EQ(rec["search"]["breaks"], nlohmann::json::array({"uniform-a0"}));
    EXPECT_EQ(rec["dropped"], nlohmann::json::array({"uniform-a0"}));
    EXPECT_NE(s.out.find("breaks: uniform-a0"), std::string::npos) << s.out;
    const auto r = run_softcert("replay " + out);
    EXPECT_EQ(r.status, 0) << r.out << r.err;
  }
}

}  // namespace
