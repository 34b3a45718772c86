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

  // The chart colours OUTCOMES, not verdicts: an entry whose outcome fails the run (unexpected,
  // too many inconclusive) is drawn in red whole — a regressed entry never shows green — and its
  // label says so with its verdict counts; in the other entries the instances with the verdict
  // their expectation asks for (holds: proved, confirmed; refuted: violated) are green.
  plots::Csv verdicts({"check", "as expected", "decided otherwise", "inconclusive", "in a FAILED entry"});
  for (const auto& e : report.entries) {
    auto count = [&e](engine::Verdict v) {
      const auto it = e.counts.find(v);
      return it == e.counts.end() ? std::size_t{0} : it->second;
    };
    const bool refuted = e.expect == engine::Expectation::refuted;
    const std::size_t proved = count(engine::Verdict::proved), confirmed = count(engine::Verdict::confirmed),
                      violated = count(engine::Verdict::violated), inconclusive = count(engine::Verdict::inconclusive),
                      errors = count(engine::Verdict::error);
    const std::size_t total = proved + confirmed + violated + inconclusive + errors;
    std::string label = e.label + (refuted ? "  (expected: refuted)" : "");
    std::vector<std::string> row;
    if (engine::failed(e.outcome)) {
      label += std::string("  — ") + (e.outcome == engine::Outcome::unexpected ? "UNEXPECTED" : "TOO MANY INCONCLUSIVE") +
               ": " + std::to_string(proved) + " proved, " + std::to_string(confirmed) + " confirmed, " +
               std::to_string(violated) + " violated, " + std::to_string(inconclusive) + " inconclusive, " +
               std::to_string(errors) + " error";
      row = {label, "0", "0", "0", std::to_string(total)};
    } else {
      const std::size_t expected = refuted ? violated : proved + confirmed;
      const std::size_t other = refuted ? proved + confirmed : violated + errors;  // failed(outcome) covers these
      row = {label, std::to_string(expected), std::to_string(other), std::to_string(inconclusive), std::to_string(errors)};
    }
    verdicts.add_row(row);
  }
  plots::Csv instances({"index", "check", "instance", "verdict", "margin_lower", "margin_mid", "margin_upper",
                        "margin_at_least", "seconds", "paper"});
  std::vector<std::string> papers;  // a check's name prefix (varre2026, sukenik2026): one colour each
  std::set<std::string> verdicts_seen, one_sided_seen;
  for (std::size_t i = 0; i < report.records.size(); ++i) {
    const auto& r = report.records[i];
    const std::string check = r.value("check", ""), verdict = r.value("verdict", "");
    const std::string paper = check.substr(0, check.find('.'));
    if (std::find(papers.begin(), papers.end(), paper) == papers.end()) papers.push_back(paper);
    std::string lo, hi, at_least;
    if (r.contains("margin") && r["margin"].is_array() && r["margin"].size() == 2) {
      lo = for_drawing(r["margin"][0]);
      hi = for_drawing(r["margin"][1]);
      // A one-sided margin [x, ∞] (known only from below): its lower end, drawn as an up-arrow marker.
      const auto& up = r["margin"][1];
      if (!lo.empty() && up.is_string() && (up == "inf" || up == "+inf")) at_least = lo;
    }
    if (!lo.empty() && !hi.empty()) verdicts_seen.insert(verdict);
    if (!at_least.empty()) one_sided_seen.insert(verdict);
    instances.add_row({std::to_string(i), check, r.value("instance", ""), verdict, lo, midpoint(lo, hi), hi, at_least,
                       for_drawing(r.value("seconds", nlohmann::json())), paper});
  }
  verdicts.write(plot_dir / "verdicts.csv");
  instances.write(plot_dir / "instances.csv");

  RunFigures out;
  out.figures.push_back({"Outcomes per check", "plots/verdicts.png", "plots/verdicts.csv",
                         "Instances of each suite entry by OUTCOME: green, the verdict the entry expects (holds: proved "
                         "or confirmed; refuted: violated); blue, another decided verdict that does not fail the entry; "
                         "grey, inconclusive; red, every instance of an entry whose outcome fails the run (its label "
                         "names the outcome and the verdict counts)."});
  out.figures.push_back({"Margin per instance", "plots/margins.png", "plots/instances.csv",
                         "The margin interval [lower, upper] of each instance (positive: the property holds there): "
                         "certified for proved and violated results, an estimate of the fast tier's two runs for "
                         "confirmed and inconclusive ones; a margin known only from below, [x, ∞], is drawn as an "
                         "up-pointing triangle at x; instances are numbered in plan order. Instances without a margin "
                         "are left out."});
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
  const char* const kOutcomeColumns[] = {"as expected", "decided otherwise", "inconclusive", "in a FAILED entry"};
  const char* const kOutcomeColors[] = {"#2ca02c", "#9ecae1", "#bdbdbd", "#d62728"};
  for (std::size_t i = 0; i < std::size(kOutcomeColumns); ++i) {
    specs[0].series.push_back(plots::Series::line("check", kOutcomeColumns[i]));
    specs[0].series.back().style = plots::Style::stacked_hbars;
    specs[0].series.back().color = kOutcomeColors[i];
  }
  const char* const kPointColors[] = {"#2ca02c", "#1f77b4", "#d62728", "#ff7f0e", "#7f7f7f"};
  specs[1].title = "Margin per instance (positive = holds; certified unless confirmed)";
  specs[1].x.label = "instance (plan order)";
  specs[1].y.label = "margin";
  for (const auto& v : verdicts_seen) {
    specs[1].series.push_back(
        plots::Series::interval("index", "margin_mid", "margin_lower", "margin_upper", v).where("verdict", v));
    for (std::size_t k = 0; k < std::size(kVerdicts); ++k)  // the verdicts' colours of the bar chart, darker
      if (engine::to_string(kVerdicts[k]) == v) specs[1].series.back().color = kPointColors[k];
  }
  for (const auto& v : one_sided_seen) {
    specs[1].series.push_back(plots::Series::points("index", "margin_at_least", v + ": [x, ∞], x drawn").where("verdict", v));
    specs[1].series.back().point_type = 9;  // a filled triangle pointing up: the margin is at least here
    specs[1].series.back().point_size = 1.2;
    for (std::size_t k = 0; k < std::size(kVerdicts); ++k)
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
