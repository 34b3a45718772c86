// report/plots layouts and colours: a multi-panel figure is one gnuplot multiplot
// whose panels do not inherit each other's axes; files are named relative to the image's
// folder (the script redraws wherever the folder is moved); token colours are distinguishable
// for 20 tokens; a power fit's line has its points' colour; stacked horizontal bars stack.
#include <gtest/gtest.h>

#include <fstream>

#include <cmath>
#include <filesystem>
#include <set>
#include <string>

#include "report/plots.hpp"
#include "support/scratch_files.hpp"

namespace softcert::report::plots {
namespace {

namespace fs = std::filesystem;

int channel(const std::string& c, int i) { return std::stoi(c.substr(1 + 2 * i, 2), nullptr, 16); }

TEST(PlotsLayout, TwentyTokenColoursAreDistinct) {
  std::set<std::string> seen;
  double closest = 1e9;
  for (std::size_t i = 0; i < 20; ++i) {
    const std::string a = token_color(i, 20);
    ASSERT_EQ(a.size(), 7u) << a;
    seen.insert(a);
    for (std::size_t j = 0; j < i; ++j) {
      const std::string b = token_color(j, 20);
      double d2 = 0;
      for (int k = 0; k < 3; ++k) d2 += std::pow(channel(a, k) - channel(b, k), 2);
      closest = std::min(closest, std::sqrt(d2));
    }
  }
  EXPECT_EQ(seen.size(), 20u);
  EXPECT_GT(closest, 25.0) << "two of 20 token colours are nearly the same";
  EXPECT_EQ(token_color(3, 8), token_color(3, 8)) << "the same token, the same colour in every panel";
}

TEST(PlotsLayout, PanelsResetTheirAxesAndFilesAreRelativeToTheImage) {
  Csv a({"t", "y"}), b({"t", "z"});
  const fs::path dir = fs::path("/some/where/run");
  Plot p1, p2;
  p1.x.log = p1.y.log = true;
  p1.series = {Series::line("t", "y", "y")};
  p2.series = {Series::line("t", "z", "z")};
  Layout l;
  l.title = "two";
  l.rows = 1, l.cols = 2;
  l.panels = {p1, p2};
  l.panel_data = {{&a, dir / "a.csv"}, {&b, dir / "b.csv"}};
  const std::string s = gnuplot_script(l, a, dir / "a.csv", dir / "fig.png");
  EXPECT_NE(s.find("set multiplot layout 1,2 title 'two'"), std::string::npos) << s;
  EXPECT_NE(s.find("unset multiplot"), std::string::npos);
  // the second panel is linear although the first is log-log
  const auto second = s.find("set title", s.find("set title") + 1);
  ASSERT_NE(second, std::string::npos);
  EXPECT_LT(s.rfind("unset logscale", second), second) << s;
  EXPECT_EQ(s.find("set logscale", second), std::string::npos) << s;
  // each panel reads its own file, named relative to the image's folder
  EXPECT_NE(s.find("plot 'a.csv'"), std::string::npos) << s;
  EXPECT_NE(s.find("plot 'b.csv'"), std::string::npos) << s;
  EXPECT_EQ(s.find("/some/where"), std::string::npos) << "no absolute path in the script: " << s;
  EXPECT_NE(s.find("softcert_output = 'fig.png'"), std::string::npos) << s;
  // too many panels for the grid
  l.cols = 1;
  EXPECT_THROW(render(l, a, dir / "a.csv", dir / "fig.png"), std::invalid_argument);
}

// A title of several lines is one gnuplot string with its newlines (not one line run off the
// image), and a fixed-margin layout leaves each extra line its room at the top.
TEST(PlotsLayout, TitlesOfSeveralLinesKeepTheirLinesAndTheirRoom) {
  Csv a({"t", "y"});
  Plot p;
  p.title = "panel\nsecond";
  p.series = {Series::line("t", "y", "y")};
  Layout l;
  l.rows = 1, l.cols = 1, l.height = 1000, l.key_space = 0.1;
  l.panels = {p};
  l.title = "one";
  const std::string one = gnuplot_script(l, a, "a.csv", "fig.png");
  l.title = "one\nit's two";
  const std::string two = gnuplot_script(l, a, "a.csv", "fig.png");
  EXPECT_NE(two.find("title 'one'.\"\\n\".'it''s two'"), std::string::npos) << two;
  EXPECT_NE(two.find("set title 'panel'.\"\\n\".'second'"), std::string::npos) << two;
  // the panels' top edge: 1 − (62 + 14) px / 1000 with one title line, 18 px lower with two
  EXPECT_NE(one.find(", 0.924 spacing"), std::string::npos) << one;
  EXPECT_NE(two.find(", 0.906 spacing"), std::string::npos) << two;
}

TEST(PlotsLayout, FitLineTakesItsPointsColourAndBarsStack) {
  Csv c({"label", "x", "p", "q"});
  Plot fit;
  fit.x.log = fit.y.log = true;
  fit.series = {Series::power_fit("x", "p", "p"), Series::power_fit("x", "q", "q")};
  const std::string s = gnuplot_script(fit, c, "c.csv", "c.png");
  // the points and the line of series 1 share one colour, which differs from series 0's
  const auto q_points = s.find("title 'q'");
  ASSERT_NE(q_points, std::string::npos) << s;
  const auto colour_at = [&s](std::size_t from) {
    const auto k = s.rfind("lc rgb '", from);
    return s.substr(k + 8, 7);
  };
  const std::string q_colour = colour_at(q_points);
  const auto q_line = s.find("F1_slope with lines");
  ASSERT_NE(q_line, std::string::npos) << s;
  EXPECT_EQ(s.substr(s.find("lc rgb '", q_line) + 8, 7), q_colour) << s;
  EXPECT_NE(colour_at(s.find("title 'p'")), q_colour) << s;

  Plot bars;
  auto b0 = Series::line("label", "p", "p"), b1 = Series::line("label", "q", "q");
  b0.style = b1.style = Style::stacked_hbars;
  bars.series = {b0, b1};
  const std::string h = gnuplot_script(bars, c, "c.csv", "c.png");
  // the second bar starts where the first ends: its left end is column p, its right end p + q
  EXPECT_NE(h.find(":((0 + (column(3)))):((0 + (column(3))) + (column(4))):"), std::string::npos) << h;
  EXPECT_NE(h.find("ytic(1)"), std::string::npos) << h;
}

TEST(PlotsLayout, RenderLeavesNoTemporaryImage) {
  if (!find_gnuplot()) GTEST_SKIP() << "gnuplot not installed";
  const fs::path d = testing::scratch_dir("plots_layout", "no_temp");
  Csv c({"t", "y"});
  for (int i = 1; i <= 5; ++i) c.add_row({std::to_string(i), std::to_string(i * i)});
  c.write(d / "c.csv");
  Plot p;
  p.series = {Series::line("t", "y")};
  Layout l;
  l.rows = 1, l.cols = 2;
  l.panels = {p, p};
  const Rendered r = render(l, c, d / "c.csv", d / "two.png");
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_GT(fs::file_size(d / "two.png"), 1000u);
  for (const auto& f : fs::directory_iterator(d))
    EXPECT_EQ(f.path().filename().string().find(".tmp-"), std::string::npos) << f.path();
}

TEST(PlotsLayout, ASymlinkAtTheLogsNameLeavesItsTargetUntouched) {
  if (!find_gnuplot()) GTEST_SKIP() << "gnuplot not installed";
  const fs::path d = testing::scratch_dir("plots_layout", "log_symlink");
  const fs::path victim = d / "victim.txt";
  {
    std::ofstream(victim) << "keep me";
  }
  fs::create_symlink(victim, d / "one.png.log");
  Csv c({"t", "y"});
  for (int i = 1; i <= 5; ++i) c.add_row({std::to_string(i), std::to_string(i * i)});
  c.write(d / "c.csv");
  Plot p;
  p.series = {Series::line("t", "y")};
  render(p, c, d / "c.csv", d / "one.png");
  std::ifstream in(victim);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "keep me");
}

}  // namespace
}  // namespace softcert::report::plots
