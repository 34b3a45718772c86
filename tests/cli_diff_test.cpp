// softcert diff OLD NEW on two real suite runs of a small quick-suite-like scratch suite: the
// second with one expectation edited (holds -> refuted) exits 1 and names that entry; the run
// against itself exits 0; summary.json carries the commit and per entry the seconds; bad input
// exits 2. Certified margins whose width changed by more than --margin-factor are listed though
// they overlap. `suite --previous DIR` puts the comparison into report.md / report.html,
// regressions first, and refuses a previous run it cannot read before running anything.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

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

// Two exact-certificate entries: seconds to run.
std::string small_suite(const std::string& expect) {
  return "name = \"diff-small\"\nseed = 3\n[defaults]\ntier = \"rigorous\"\n"
         "[[check]]\nname = \"sukenik2026.hard_switch\"\ninstances = 2\nexpect = \"" +
         expect + "\"\n";
}

// results.jsonl with the first proved record's margin replaced by [lower, upper] (a proved margin
// with lower > 0 stays a valid record); returns that record's instance.
std::string set_first_proved_margin(const fs::path& dir, const std::string& lower, const std::string& upper) {
  std::istringstream in(softcert::testing::read_text(dir / "results.jsonl"));
  std::string line, out, instance;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto r = nlohmann::json::parse(line);
    if (instance.empty() && r["verdict"] == "proved") {
      r["margin"] = {lower, upper};
      instance = r["instance"].get<std::string>();
    }
    out += r.dump() + "\n";
  }
  softcert::testing::write_text(dir / "results.jsonl", out);
  return instance;
}

fs::path copy_run(const fs::path& from, const std::string& name) {
  const fs::path to = scratch_path("cli_diff", name);
  fs::remove_all(to);
  fs::copy(from, to, fs::copy_options::recursive);
  return to;
}

TEST(CliDiff, CertifiedMarginWidthsThatChangeByMoreThanTheFactorAreListedThoughTheyOverlap) {
  const fs::path run = run_suite("widths", small_suite("holds"));
  const fs::path wide = copy_run(run, "widths_wide"), narrow = copy_run(run, "widths_narrow");
  const std::string instance = set_first_proved_margin(wide, "1", "2");
  ASSERT_FALSE(instance.empty()) << "no proved record in " << run;
  ASSERT_EQ(set_first_proved_margin(narrow, "1.5", "1.55"), instance);  // width 1 -> 0.05: 20x, overlapping

  const fs::path json = scratch_path("cli_diff", "widths.json");
  const auto d = run_softcert("diff " + wide.string() + " " + narrow.string() + " --json " + json.string());
  EXPECT_EQ(d.status, 0) << d.out << d.err;  // information, not a regression
  EXPECT_NE(d.out.find("margins moved (the certified intervals no longer overlap): 0"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("certified margins whose width changed by more than 10x: 1\n"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("[1, 2] -> [1.5, 1.55] (narrower, width 1 -> 0.05)"), std::string::npos) << d.out;
  const auto j = nlohmann::json::parse(softcert::testing::read_text(json));
  ASSERT_EQ(j["margin_widths_changed"].size(), 1u) << j.dump();
  EXPECT_EQ(j["margin_widths_changed"][0]["direction"], "narrower");
  EXPECT_EQ(j["margin_widths_changed"][0]["instance"], instance);
  // the other way round: wider; a factor above 20: not listed; below 1: refused
  const auto back = run_softcert("diff " + narrow.string() + " " + wide.string());
  EXPECT_NE(back.out.find("(wider, width 0.05 -> 1)"), std::string::npos) << back.out;
  const auto loose = run_softcert("diff " + narrow.string() + " " + wide.string() + " --margin-factor 25");
  EXPECT_NE(loose.out.find("certified margins whose width changed by more than 25x: 0\n"), std::string::npos) << loose.out;
  EXPECT_EQ(run_softcert("diff " + narrow.string() + " " + wide.string() + " --margin-factor 0.5").status, 2);
  // a width just under the factor (1 -> 0.1 is exactly 10x, not more) is not listed
  ASSERT_EQ(set_first_proved_margin(narrow, "1.5", "1.6"), instance);
  const auto exact = run_softcert("diff " + wide.string() + " " + narrow.string());
  EXPECT_NE(exact.out.find("whose width changed by more than 10x: 0\n"), std::string::npos) << exact.out;
}

TEST(CliDiff, SuitePreviousPutsTheComparisonIntoTheReportsRegressionsFirst) {
  const fs::path dir = scratch_dir("cli_diff", "previous_suites");
  softcert::testing::write_text(dir / "holds.toml", small_suite("holds"));
  softcert::testing::write_text(dir / "refuted.toml", small_suite("refuted"));
  const fs::path out = scratch_path("cli_diff", "previous_out");
  fs::remove_all(out);
  ASSERT_EQ(run_softcert("suite " + (dir / "holds.toml").string() + " --out " + out.string() + " -q").status, 0);

  // bad input first: nothing runs, nothing is written
  const fs::path fresh = scratch_path("cli_diff", "previous_fresh");
  fs::remove_all(fresh);
  const auto missing = run_softcert("suite " + (dir / "holds.toml").string() + " --out " + fresh.string() +
                                    " --previous " + (out / "nothing").string() + " -q");
  EXPECT_EQ(missing.status, 2) << missing.out << missing.err;
  EXPECT_NE(missing.err.find("--previous: "), std::string::npos) << missing.err;
  EXPECT_FALSE(fs::exists(fresh));
  const auto no_out = run_softcert("suite " + (dir / "holds.toml").string() + " --previous " + out.string() + " -q");
  EXPECT_EQ(no_out.status, 2) << no_out.out << no_out.err;
  EXPECT_NE(no_out.err.find("--previous needs --out DIR"), std::string::npos) << no_out.err;
  // DIR/previous is where this run moves DIR's run: the message says to give DIR
  const auto moved = run_softcert("suite " + (dir / "holds.toml").string() + " --out " + out.string() +
                                  " --previous " + (out / "previous").string() + " -q");
  EXPECT_EQ(moved.status, 2) << moved.out << moved.err;
  EXPECT_NE(moved.err.find("give --previous " + out.string()), std::string::npos) << moved.err;
  EXPECT_TRUE(fs::exists(out / "report.md"));  // the run in DIR untouched

  // --previous DIR: the run this one moves aside; the edited expectation is the regression
  const auto r = run_softcert("suite " + (dir / "refuted.toml").string() + " --out " + out.string() + " --previous " +
                              out.string() + " -q");
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  const std::string md = softcert::testing::read_text(out / "report.md");
  const auto section = md.find("## Compared with the previous run");
  ASSERT_NE(section, std::string::npos) << md;
  EXPECT_LT(section, md.find("## Figures")) << md;
  // report.md keeps HTML's specials as entities (a name never becomes markup): "->" reads "-&gt;"
  const auto regressions = md.find("- **REGRESSIONS (as expected before, not now): 1**\n  - sukenik2026.hard\\_switch: "
                                   "as expected -&gt; UNEXPECTED (expect holds -&gt; refuted; now proved 2)",
                                   section);
  EXPECT_NE(regressions, std::string::npos) << md;
  EXPECT_LT(regressions, md.find("- fixed (not as expected before, as expected now): 0", section)) << md;
  // the previous run named where it now is, DIR/previous
  EXPECT_NE(md.find("softcert diff " + (out / "previous").string() + " " + out.string()), std::string::npos) << md;
  const std::string html = softcert::testing::read_text(out / "report.html");
  EXPECT_NE(html.find("<h2>Compared with the previous run</h2>"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"bad\">REGRESSIONS (as expected before, not now): 1</span>"), std::string::npos)
      << html;
  // without --previous: no such section
  ASSERT_EQ(run_softcert("suite " + (dir / "holds.toml").string() + " --out " + out.string() + " -q").status, 0);
  EXPECT_EQ(softcert::testing::read_text(out / "report.md").find("Compared with the previous run"), std::string::npos);
}

}  // namespace
