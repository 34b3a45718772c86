// report/plots: CSV cells that would break gnuplot's reader are neutralised; a bad column is
// refused up front; with gnuplot present, every series style renders a PNG; without it (or
// disabled) render() says why and does not fail.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "report/plots.hpp"
#include "support/scratch_files.hpp"

namespace softcert::report::plots {
namespace {

namespace fs = std::filesystem;
using testing::scratch_dir;

TEST(Plots, CsvCellsCannotSplitColumnsOrRows) {
  Csv csv({"name", "x"});
  csv.add_row({"a,b \"c\"\nd", "1"});
  EXPECT_EQ(csv.text(), "name,x\na;b 'c' d,1\n");
  EXPECT_THROW(csv.add_row({"only one"}), std::invalid_argument);
}

TEST(Plots, UnknownColumnIsRefused) {
  Csv csv({"t", "y"});
  Plot p;
  p.series = {Series::line("t", "nope")};
  EXPECT_THROW(gnuplot_script(p, csv, "d.csv", "d.png"), std::invalid_argument);
}

TEST(Plots, ScriptHasAxesFitAndFilter) {
  Csv csv({"n", "cost", "check"});
  Plot p;
  p.title = "cost 'scaling'";
  p.x = {"n", true, 1.0, std::nullopt};
  p.y = {"seconds", true, std::nullopt, std::nullopt};
  p.series = {Series::power_fit("n", "cost").where("check", "a\"b")};
  const std::string s = gnuplot_script(p, csv, "c.csv", "c.png");
  EXPECT_NE(s.find("set logscale x"), std::string::npos);
  EXPECT_NE(s.find("set xrange [1.000000:*]"), std::string::npos);
  EXPECT_NE(s.find("set title 'cost ''scaling'''"), std::string::npos) << s;
  EXPECT_NE(s.find("stats 'c.csv'"), std::string::npos) << s;
  EXPECT_NE(s.find("F0_slope"), std::string::npos);
  EXPECT_NE(s.find("strcol(3) eq \"a\\\"b\""), std::string::npos) << s;
}

TEST(Plots, SeriesOutOfTheLegendGetAnEmptyTitle) {
  Csv csv({"t", "a1", "a2"});
  Plot p;
  p.series = {Series::line("t", "a1", "a_i"), Series::line("t", "a2", "a_i")};
  p.series[1].in_legend = false;
  const std::string s = gnuplot_script(p, csv, "c.csv", "c.png");
  EXPECT_NE(s.find("title 'a_i'"), std::string::npos) << s;
  EXPECT_NE(s.find("title \"\""), std::string::npos) << s;
  EXPECT_EQ(s.find("title 'a_i'"), s.rfind("title 'a_i'")) << "the hidden series must not repeat the key entry: " << s;
}

TEST(Plots, EveryStyleRendersWhenGnuplotIsPresent) {
  if (!find_gnuplot()) GTEST_SKIP() << "gnuplot not installed";
  const fs::path d = scratch_dir("plots", "styles");
  Csv csv({"t", "lo", "mid", "hi", "label"});
  for (int i = 1; i <= 20; ++i) {
    const double t = i, y = 3 * t * t;
    csv.add_row({std::to_string(t), std::to_string(0.9 * y), std::to_string(y), std::to_string(1.1 * y),
                 i % 2 ? "odd" : "even"});
  }
  csv.write(d / "data.csv");
  Plot p;
  p.title = "σ(a)(t) with an enclosure";
  p.x = {"t", true, std::nullopt, std::nullopt};
  p.y = {"y", true, std::nullopt, std::nullopt};
  p.series = {Series::band("t", "lo", "hi", "enclosure"), Series::line("t", "mid"),
              Series::interval("t", "mid", "lo", "hi").where("label", "odd"), Series::power_fit("t", "mid")};
  const Rendered r = render(p, csv, d / "data.csv", d / "all.png");
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_GT(fs::file_size(d / "all.png"), 1000u);
  Plot bars;
  bars.series = {Series::bars("label", "mid")};
  bars.format = Format::svg;
  ASSERT_TRUE(render(bars, csv, d / "data.csv", d / "bars.svg").ok);
}

TEST(Plots, MissingOrDisabledGnuplotIsReportedNotFatal) {
  const fs::path d = scratch_dir("plots", "none");
  Csv csv({"t", "y"});
  csv.add_row({"1", "2"});
  csv.write(d / "data.csv");
  Plot p;
  p.series = {Series::line("t", "y")};
  setenv("SOFTCERT_GNUPLOT", "none", 1);
  const Rendered off = render(p, csv, d / "data.csv", d / "x.png");
  setenv("SOFTCERT_GNUPLOT", "/nonexistent/gnuplot", 1);
  const Rendered missing = render(p, csv, d / "data.csv", d / "x.png");
  unsetenv("SOFTCERT_GNUPLOT");
  EXPECT_FALSE(off.ok);
  EXPECT_NE(off.message.find("disabled"), std::string::npos) << off.message;
  EXPECT_FALSE(missing.ok);
  EXPECT_NE(missing.message.find("not an executable"), std::string::npos) << missing.message;
  EXPECT_FALSE(fs::exists(d / "x.png"));
}

}  // namespace
}  // namespace softcert::report::plots
