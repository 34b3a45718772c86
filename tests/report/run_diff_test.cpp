// report::diff_runs on hand-written run directories: a regression is an outcome that was as
// expected and is no longer; margins "move" only when the certified intervals stop
// overlapping (read exactly, infinite ends included); verdict changes, new and lost records and
// entries, timings that moved by more than the factor; bad input is std::invalid_argument.
#include <gtest/gtest.h>

#include "report/run_diff.hpp"
#include "support/scratch_files.hpp"

namespace softcert::report {
namespace {

using testing::scratch_dir;
using testing::write_text;

struct Rec {
  std::string entry, instance, verdict;
  nlohmann::json margin;  // null or [lower, upper]
  double seconds = 0.1;
};

struct Entry {
  std::string label, expect, outcome;
  double seconds = 0.1;
};

// A run directory with summary.json (schema softcert.summary/1) and results.jsonl.
std::filesystem::path run_dir(const std::string& name, const std::vector<Entry>& entries, const std::vector<Rec>& recs,
                              const std::string& commit = "abc123") {
  const auto d = scratch_dir("run_diff", name);
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& e : entries)
    checks.push_back({{"check", "test.parity"}, {"entry", e.label}, {"expect", e.expect}, {"max_inconclusive", 0.0},
                      {"instances", 1}, {"counts", {{"proved", 1}}}, {"outcome", e.outcome}, {"seconds", e.seconds}});
  nlohmann::json s = {{"schema", "softcert.summary/1"}, {"suite", "scratch"}, {"seed", 7}, {"checks", checks}};
  if (!commit.empty()) s["commit"] = commit;
  write_text(d / "summary.json", s.dump());
  std::string lines;
  for (const auto& r : recs) {
    nlohmann::json j = {{"check", "test.parity"}, {"entry", r.entry}, {"instance", r.instance}, {"verdict", r.verdict},
                        {"margin", r.margin}, {"reason", r.verdict + " here"}, {"seconds", r.seconds}};
    if (r.verdict == "violated") j["counterexample"] = {{"x", "1"}};
    lines += j.dump() + "\n";
  }
  write_text(d / "results.jsonl", lines);
  return d;
}

nlohmann::json m(const char* lo, const char* hi) { return nlohmann::json::array({lo, hi}); }

TEST(RunDiff, ARegressionIsAnOutcomeThatWasAsExpectedAndIsNoLonger) {
  const auto old_dir = run_dir("reg_old", {{"a", "holds", "as expected"}, {"b", "refuted", "UNEXPECTED"}, {"c", "holds", "as expected"}},
                               {{"a", "a#0", "proved", m("1", "2")}, {"b", "b#0", "proved", m("1", "2")}, {"c", "c#0", "proved", m("1", "2")}});
  const auto new_dir = run_dir("reg_new",
                               {{"a", "refuted", "UNEXPECTED"}, {"b", "refuted", "as expected"}, {"c", "holds", "too many inconclusive"}},
                               {{"a", "a#0", "proved", m("1", "2")}, {"b", "b#0", "violated", m("-2", "-1")},
                                {"c", "c#0", "inconclusive", nullptr}});
  const RunDiff d = diff_runs(old_dir, new_dir);
  ASSERT_EQ(d.regressions.size(), 2u);
  EXPECT_EQ(d.regressions[0].entry, "a");  // the edited expectation
  EXPECT_EQ(d.regressions[0].old_expect, "holds");
  EXPECT_EQ(d.regressions[0].new_expect, "refuted");
  EXPECT_EQ(d.regressions[1].entry, "c");
  EXPECT_EQ(d.regressions[1].new_outcome, "too many inconclusive");
  ASSERT_EQ(d.fixed.size(), 1u);
  EXPECT_EQ(d.fixed[0].entry, "b");
  ASSERT_EQ(d.expectation_changes.size(), 1u);
  EXPECT_EQ(d.exit_status(), 1);
  ASSERT_EQ(d.verdict_changes.size(), 2u);
  EXPECT_EQ(d.verdict_changes[0].old_verdict, "proved");
  EXPECT_EQ(d.verdict_changes[0].new_verdict, "violated");
  const std::string text = diff_text(d);
  EXPECT_NE(text.find("REGRESSIONS (as expected before, not now): 2\n  a: as expected -> UNEXPECTED (expect holds -> refuted"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("exit status 1 (a regression)"), std::string::npos) << text;
  const nlohmann::json j = diff_json(d);
  EXPECT_EQ(j["schema"], "softcert.diff/1");
  EXPECT_EQ(j["regressions"][0]["entry"], "a");
  EXPECT_EQ(j["exit_status"], 1);
  // the same run against itself: nothing changed
  const RunDiff same = diff_runs(new_dir, new_dir);
  EXPECT_EQ(same.exit_status(), 0);
  EXPECT_TRUE(same.verdict_changes.empty() && same.margins_moved.empty() && same.regressions.empty());
}

TEST(RunDiff, MarginsMoveOnlyWhenTheIntervalsNoLongerOverlap) {
  const std::vector<Entry> e = {{"a", "holds", "as expected"}};
  const auto old_dir = run_dir("m_old", e,
                               {{"a", "a#0", "proved", m("1", "2")}, {"a", "a#1", "proved", m("1", "2")},
                                {"a", "a#2", "proved", m("1", "inf")}, {"a", "a#3", "proved", m("0.1", "0.3")},
                                {"a", "a#4", "proved", m("1", "2")}});
  const auto new_dir = run_dir("m_new", e,
                               {{"a", "a#0", "proved", m("2", "3")},            // touches at 2: overlaps
                                {"a", "a#1", "proved", m("2.0000000000000001", "3")},  // just above: moved up
                                {"a", "a#2", "proved", m("1e300", "inf")},       // one-sided, overlaps
                                {"a", "a#3", "proved", m("0.01", "0.09999999999999999")},  // moved down
                                {"a", "a#4", "inconclusive", nullptr}});         // no margin: no move
  const RunDiff d = diff_runs(old_dir, new_dir);
  ASSERT_EQ(d.margins_moved.size(), 2u);
  EXPECT_EQ(d.margins_moved[0].instance, "a#1");
  EXPECT_EQ(d.margins_moved[0].direction, "up");
  EXPECT_EQ(d.margins_moved[1].instance, "a#3");
  EXPECT_EQ(d.margins_moved[1].direction, "down");
  EXPECT_EQ(d.exit_status(), 0);  // information, not a regression
  EXPECT_EQ(d.verdict_changes.size(), 1u);
}

TEST(RunDiff, NewAndLostRecordsEntriesAndTimings) {
  const auto old_dir = run_dir("n_old", {{"a", "holds", "as expected", 2.0}, {"gone", "holds", "as expected"}},
                               {{"a", "a#0", "proved", m("1", "2")}, {"a", "a#1", "proved", m("1", "2")},
                                {"gone", "gone#0", "proved", m("1", "2")}},
                               "");
  testing::write_text(old_dir / "manifest.json", R"({"softcert": {"git_commit": "0ld"}})");
  const auto new_dir = run_dir("n_new", {{"a", "holds", "as expected", 9.0}, {"added", "holds", "as expected"}},
                               {{"a", "a#0", "proved", m("1", "2")}, {"a", "a#2", "proved", m("1", "2")},
                                {"added", "added#0", "proved", m("1", "2")}});
  const RunDiff d = diff_runs(old_dir, new_dir);
  EXPECT_EQ(d.old_run.commit, "0ld");  // a summary without its commit: the manifest's
  EXPECT_EQ(d.new_run.commit, "abc123");
  EXPECT_EQ(d.new_entries, std::vector<std::string>{"added"});
  EXPECT_EQ(d.lost_entries, std::vector<std::string>{"gone"});
  EXPECT_EQ(d.new_records, (std::vector<std::string>{"a#2", "added#0"}));
  EXPECT_EQ(d.lost_records, (std::vector<std::string>{"a#1", "gone#0"}));
  ASSERT_EQ(d.timings_moved.size(), 1u);  // 2 s -> 9 s: more than 3x
  EXPECT_EQ(d.timings_moved[0].entry, "a");
  DiffSettings loose;
  loose.time_factor = 5;
  EXPECT_TRUE(diff_runs(old_dir, new_dir, loose).timings_moved.empty());
  EXPECT_EQ(d.exit_status(), 0);
}

TEST(RunDiff, BadInputNamesTheFile) {
  const auto good = run_dir("bad_good", {{"a", "holds", "as expected"}}, {{"a", "a#0", "proved", m("1", "2")}});
  auto message = [&](const std::filesystem::path& other) {
    try {
      (void)diff_runs(good, other);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(message(good / "missing").find("not a directory"), std::string::npos);
  const auto no_summary = scratch_dir("run_diff", "bad_nosummary");
  EXPECT_NE(message(no_summary).find("summary.json"), std::string::npos);
  const auto altered = run_dir("bad_altered", {{"a", "holds", "as expected"}}, {{"a", "a#0", "proved", m("-2", "-1")}});
  EXPECT_NE(message(altered).find("proved needs a lower end > 0"), std::string::npos) << message(altered);
  const auto not_summary = run_dir("bad_notsummary", {}, {});
  write_text(not_summary / "summary.json", "{\"suite\": \"x\"}");
  EXPECT_NE(message(not_summary).find("no \"checks\" array"), std::string::npos);
}

}  // namespace
}  // namespace softcert::report
