// report::write_run_figures: the verdict chart counts OUTCOMES — every instance of an entry whose
// outcome fails the run lands in the red "in a FAILED entry" column (a regressed entry never shows
// green), and a refuted entry's violations are its green "as expected"; a one-sided margin
// [x, ∞] is kept (margin_at_least = x) instead of being dropped. The CSVs are written whether or
// not gnuplot is present.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "support/csv_rows.hpp"
#include "report/run_plots.hpp"
#include "support/scratch_files.hpp"

namespace softcert::report {
namespace {

namespace fs = std::filesystem;


TEST(RunPlots, VerdictChartColoursOutcomesAndMarginsKeepOneSidedOnes) {
  engine::SuiteReport report;
  engine::EntryReport regressed{"t.a", "t.a", engine::Expectation::holds, 0.0,
                                {{engine::Verdict::proved, 5}, {engine::Verdict::violated, 1}}, engine::Outcome::unexpected, 1.0};
  engine::EntryReport refuted{"t.b", "t.b", engine::Expectation::refuted, 0.2,
                              {{engine::Verdict::violated, 2}, {engine::Verdict::proved, 1}}, engine::Outcome::as_expected, 1.0};
  report.entries = {regressed, refuted};
  report.records = {
      {{"check", "t.a"}, {"instance", "i0"}, {"verdict", "proved"}, {"margin", {"0.5", "inf"}}, {"seconds", 0.1}},
      {{"check", "t.a"}, {"instance", "i1"}, {"verdict", "violated"}, {"margin", {"-2", "-1"}}, {"seconds", 0.1}},
  };
  const fs::path dir = testing::scratch_dir("run_plots", "outcomes");
  write_run_figures(dir, report);

  const auto bars = testing::csv_rows(dir / "plots/verdicts.csv");
  ASSERT_EQ(bars.size(), 2u);
  EXPECT_EQ(bars[0].at("as expected"), "0") << "a regressed entry shows no green";
  EXPECT_EQ(bars[0].at("in a FAILED entry"), "6");
  EXPECT_NE(bars[0].at("check").find("UNEXPECTED"), std::string::npos) << bars[0].at("check");
  EXPECT_EQ(bars[1].at("as expected"), "2") << "a refuted entry's violations are what it expects";
  EXPECT_EQ(bars[1].at("decided otherwise"), "1");
  EXPECT_EQ(bars[1].at("in a FAILED entry"), "0");

  const auto margins = testing::csv_rows(dir / "plots/instances.csv");
  ASSERT_EQ(margins.size(), 2u);
  EXPECT_EQ(margins[0].at("margin_at_least"), "0.5") << "the one-sided margin [0.5, inf] is kept";
  EXPECT_EQ(margins[1].at("margin_at_least"), "");
  EXPECT_EQ(margins[1].at("margin_lower"), "-2");
}

}  // namespace
}  // namespace softcert::report
