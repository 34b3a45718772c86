// softcert diff OLD NEW on two real suite runs of a small quick-suite-like scratch suite: the
// second with one expectation edited (holds -> refuted) exits 1 and names that entry; the run
// against itself exits 0; summary.json carries the commit and per entry the seconds; bad input
// exits 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "support/run_cli.hpp"
#include "support/scratch_files.hpp"

namespace {

namespace fs = std::filesystem;
using softcert::testing::run_softcert;
using softcert::testing::scratch_dir;
using softcert::testing::scratch_path;

// Cheap entries of the quick suite's kinds: a tube check on generated instances, an exact
// certificate, and an expected refutation on the headline instance.
std::string scratch_suite(const std::string& one_hot_expect) {
  return "name = \"diff-scratch\"\nseed = 7\n[defaults]\ntier = \"rigorous\"\n"
         "[[check]]\nname = \"varre2026.one_hot.eventual\"\ninstances = 3\nhorizon = 1e5\nexpect = \"" +
         one_hot_expect +
         "\"\n"
         "[[check]]\nname = \"sukenik2026.hard_switch\"\ninstances = 3\nexpect = \"holds\"\n"
         "[[check]]\nname = \"varre2026.one_hot.finite\"\nlabel = \"varre2026.one_hot.finite.too_early\"\n"
         "instance_files = [\"" +
         softcert::testing::kHeadline + "\"]\nhorizon = 10.0\nexpect = \"refuted\"\n";
}

fs::path run_suite(const std::string& name, const std::string& toml) {
  const fs::path dir = scratch_dir("cli_diff", name + "_suite");
  const fs::path suite = dir / "suite.toml";
  softcert::testing::write_text(suite, toml);
  const fs::path out = scratch_path("cli_diff", name + "_out");
  const auto r = run_softcert("suite " + suite.string() + " --out " + out.string() + " -q");
  EXPECT_TRUE(r.status == 0 || r.status == 1) << r.out << r.err;
  return out;
}

TEST(CliDiff, AnEditedExpectationIsARegressionNamedWithExitOne) {
  const fs::path last_night = run_suite("last", scratch_suite("holds"));
  const fs::path tonight = run_suite("tonight", scratch_suite("refuted"));
  // summary.json: the commit, and seconds per entry
  const auto summary = nlohmann::json::parse(softcert::testing::read_text(tonight / "summary.json"));
  EXPECT_TRUE(summary["commit"].is_string());
  EXPECT_FALSE(summary["commit"].get<std::string>().empty());
  for (const auto& e : summary["checks"]) EXPECT_TRUE(e["seconds"].is_number()) << e.dump();

  const fs::path json = scratch_path("cli_diff", "diff.json");
  const auto d = run_softcert("diff " + last_night.string() + " " + tonight.string() + " --json " + json.string());
  EXPECT_EQ(d.status, 1) << d.out << d.err;
  EXPECT_NE(d.out.find("REGRESSIONS (as expected before, not now): 1\n"
                       "  varre2026.one_hot.eventual: as expected -> UNEXPECTED (expect holds -> refuted; now proved 3)"),
            std::string::npos)
      << d.out;
  EXPECT_NE(d.out.find("verdict changes: 0"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("margins moved (the certified intervals no longer overlap): 0"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("exit status 1 (a regression)"), std::string::npos) << d.out;
  const auto j = nlohmann::json::parse(softcert::testing::read_text(json));
  ASSERT_EQ(j["regressions"].size(), 1u);
  EXPECT_EQ(j["regressions"][0]["entry"], "varre2026.one_hot.eventual");
  EXPECT_EQ(j["old"]["records"], 7);

  // the other way round the entry is fixed, not a regression; a run against itself: nothing
  const auto back = run_softcert("diff " + tonight.string() + " " + last_night.string());
  EXPECT_EQ(back.status, 0) << back.out << back.err;
  EXPECT_NE(back.out.find("fixed (not as expected before, as expected now): 1"), std::string::npos) << back.out;
  const auto same = run_softcert("diff " + last_night.string() + " " + last_night.string());
  EXPECT_EQ(same.status, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("exit status 0 (no regression)"), std::string::npos) << same.out;

  // bad input: exit 2, the file named
  const auto missing = run_softcert("diff " + last_night.string() + " " + (last_night / "nothing").string());
  EXPECT_EQ(missing.status, 2) << missing.out << missing.err;
  const fs::path broken = scratch_dir("cli_diff", "broken");
  fs::copy_file(tonight / "summary.json", broken / "summary.json");
  softcert::testing::write_text(broken / "results.jsonl", "{\"check\": \"x\"\n");
  const auto corrupt = run_softcert("diff " + last_night.string() + " " + broken.string());
  EXPECT_EQ(corrupt.status, 2) << corrupt.out << corrupt.err;
  EXPECT_NE(corrupt.err.find("results.jsonl:1"), std::string::npos) << corrupt.err;
}

}  // namespace
