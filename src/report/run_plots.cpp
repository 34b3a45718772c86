#include "report/run_plots.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

#include "report/plots.hpp"

namespace softcert::report {

namespace fs = std::filesystem;

namespace {

const engine::Verdict kVerdicts[] = {engine::Verdict::proved, engine::Verdict::confirmed, engine::Verdict::violated,
                                     engine::Verdict::inconclusive, engine::Verdict::error};

// A decimal string as a double for drawing only (never for a verdict): "" when it is not a
// finite number.
std::string for_drawing(const nlohmann::json& v) {
  if (!v.is_string() && !v.is_number()) return "";
  const std::string s = v.is_string() ? v.get<std::string>() : v.dump();
  char* end = nullptr;
  const double x = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || !std::isfinite(x)) return "";
  std::ostringstream o;
  o.precision(10);
  o << x;
  return o.str();
}

std::string midpoint(const std::string& lo, const std::string& hi) {
  if (lo.empty() || hi.empty()) return "";
  std::ostringstream o;
  o.precision(10);
  o << 0.5 * std::strtod(lo.c_str(), nullptr) + 0.5 * std::strtod(hi.c_str(), nullptr);
  return o.str();
}

}  // namespace

RunFigures write_run_figures(const fs::path& dir, const engine::SuiteReport& report) {
  const fs::path plot_dir = dir / "plots";
  fs::create_directories(plot_dir);

  plots::Csv verdicts({"check", "proved", "confirmed", "violated", "inconclusive", "error"});
  for (const auto& e : report.entries) {
    // A check expected to be refuted says so: its violated bar is the expected outcome.
    std::vector<std::string> row = {e.label + (e.expect == engine::Expectation::refuted ? "  (expected: refuted)" : "")};
    for (auto v : kVerdicts) {
      auto it = e.counts.find(v);
      row.push_back(std::to_string(it == e.counts.end() ? 0 : it->second));
    }
    verdicts.add_row(row);
  }
  plots::Csv instances({"index", "check", "instance", "verdict", "margin_lower", "margin_mid", "margin_upper",
                        "seconds", "paper"});
  std::vector<std::string> papers;  // a check's name prefix (varre2026, sukenik2026): one colour each
  std::set<std::string> verdicts_seen;
  for (std::size_t i = 0; i < report.records.size(); ++i) {
    const auto& r = report.records[i];
    const std::string check = r.value("check", ""), verdict = r.value("verdict", "");
    const std::string paper = check.substr(0, check.find('.'));
    if (std::find(papers.begin(), papers.end(), paper) == papers.end()) papers.push_back(paper);
    std::string lo, hi;
    if (r.contains("margin") && r["margin"].is_array() && r["margin"].size() == 2) {
      lo = for_drawing(r["margin"][0]);
      hi = for_drawing(r["margin"][1]);
    }
    if (!lo.empty() && !hi.empty()) verdicts_seen.insert(verdict);
    instances.add_row({std::to_string(i), check, r.value("instance", ""), verdict, lo, midpoint(lo, hi), hi,
                       for_drawing(r.value("seconds", nlohmann::json())), paper});
  }
  verdicts.write(plot_dir / "verdicts.csv");
  instances.write(plot_dir / "instances.csv");

  RunFigures out;
  out.figures.push_back({"Verdicts per check", "plots/verdicts.png", "plots/verdicts.csv",
                         "How many instances of each check ended in each verdict."});
  out.figures.push_back({"Margin per instance", "plots/margins.png", "plots/instances.csv",
                         "The margin interval [lower, upper] of each instance (positive: the property holds there): "
                         "certified for proved and violated results, an estimate of the fast tier's two runs for "
                         "confirmed and inconclusive ones; instances are numbered in plan order. Instances without a "
                         "margin are left out."});
  out.figures.push_back({"Run time per instance", "plots/seconds.png", "plots/instances.csv",
                         "Wall-clock seconds of each instance, in plan order (log scale), coloured by paper."});

  std::vector<plots::Plot> specs(3);
  // One horizontal bar per check, its verdicts stacked: the names stay readable for dozens of checks.
  specs[0].title = "";  // the report's heading names it; the key takes the top line
  specs[0].x.label = "instances";
  specs[0].y.label = "";
  specs[0].key = "outside top center horizontal";
  specs[0].width = 1300;
  specs[0].height = std::max(300, 110 + 22 * static_cast<int>(report.entries.size()));
  const char* const kVerdictColors[] = {"#2ca02c", "#98df8a", "#d62728", "#ff9896", "#7f7f7f"};
  const char* const kPointColors[] = {"#2ca02c", "#1f77b4", "#d62728", "#ff7f0e", "#7f7f7f"};
  for (std::size_t i = 0; i < std::size(kVerdicts); ++i) {
    specs[0].series.push_back(plots::Series::line("check", engine::to_string(kVerdicts[i])));
    specs[0].series.back().style = plots::Style::stacked_hbars;
    specs[0].series.back().color = kVerdictColors[i];
  }
  specs[1].title = "Margin per instance (positive = holds; certified unless confirmed)";
  specs[1].x.label = "instance (plan order)";
  specs[1].y.label = "margin";
  for (const auto& v : verdicts_seen) {
    specs[1].series.push_back(
        plots::Series::interval("index", "margin_mid", "margin_lower", "margin_upper", v).where("verdict", v));
    for (std::size_t k = 0; k < std::size(kVerdicts); ++k)  // the verdicts' colours of the bar chart, darker
      if (engine::to_string(kVerdicts[k]) == v) specs[1].series.back().color = kPointColors[k];
  }
  specs[1].key = "inside bottom right";
  specs[2].title = "Run time per instance";
  specs[2].x.label = "instance (plan order)";
  specs[2].y.label = "seconds";
  specs[2].y.log = true;
  for (const auto& p : papers) specs[2].series.push_back(plots::Series::points("index", "seconds", p).where("paper", p));
  specs[2].key = "inside top right";
  if (report.records.empty()) {
    out.note = "no results to plot";
    for (auto& f : out.figures) f.image.clear();
    return out;
  }
  const plots::Csv* data[] = {&verdicts, &instances, &instances};
  bool gnuplot_missing = false;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    Figure& f = out.figures[i];
    if (specs[i].series.empty() || gnuplot_missing) {  // e.g. no instance has a margin
      f.image.clear();
      continue;
    }
    const plots::Rendered r = plots::render(specs[i], *data[i], dir / f.csv, dir / f.image);
    if (r.ok) {
      out.plotted = true;
      continue;
    }
    f.image.clear();
    if (out.note.empty()) out.note = r.message;
    gnuplot_missing = !plots::find_gnuplot();  // absent: do not try the others
  }
  return out;
}

}  // namespace softcert::report
