#include <iomanip>
#include <sstream>
#include <string_view>

#include "engine/build_info.hpp"
#include "engine/journal.hpp"
#include "report/documents.hpp"

namespace softcert::report {

namespace {

const engine::Verdict kVerdicts[] = {engine::Verdict::proved, engine::Verdict::confirmed, engine::Verdict::violated,
                                     engine::Verdict::inconclusive, engine::Verdict::error};

// Text from the user (suite name, labels, file names, instance ids, reasons) never reaches
// report.md as markup, as report.html and junit.xml escape it (raw HTML in a suite or file name
// would otherwise reach the page). HTML's three specials become entities, a control character
// becomes \xNN, and a line break a space.
std::string html_chars(const std::string& s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '|') out += "&#124;";  // would split a table cell
    else if (c == '\n' || c == '\r' || c == '\t') out += ' ';
    else if (u < 0x20 || u == 0x7F) {
      out += "\\x";
      out += hex[u >> 4];
      out += hex[u & 0xF];
    } else out += c;
  }
  return out;
}

// Running text: html_chars, and Markdown's punctuation backslash-escaped (no emphasis, link,
// heading or code span can be opened by a name).
std::string text(const std::string& s) {
  std::string out;
  for (char c : html_chars(s)) {
    if (std::string_view("\\`*_[]~").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

// A name shown as code: <code> with html_chars inside (a backtick cannot end it early).
std::string code(const std::string& s) { return "<code>" + html_chars(s) + "</code>"; }

}  // namespace

std::string exit_status_text(int status) {
  switch (status) {
    case 0: return "0 (every outcome as expected)";
    case 1: return "1 (an unexpected outcome: a regression)";
    case 3: return "3 (too many inconclusive results)";
    default: return std::to_string(status);
  }
}

std::vector<const nlohmann::json*> notable_records(const engine::SuiteReport& report, std::size_t limit) {
  std::vector<const nlohmann::json*> out;
  for (const auto& r : report.records) {
    const std::string v = r.value("verdict", "");
    if (v == "violated" || v == "inconclusive" || v == "error") out.push_back(&r);
    if (out.size() >= limit) break;
  }
  return out;
}

namespace {

// "Compared with the previous run": the groups of report/run_diff.hpp, regressions first.
void previous_section(std::ostringstream& o, const RunDiff& d) {
  o << "## Compared with the previous run\n\n";
  o << "- previous: " << code(d.old_run.dir) << " (suite " << text(d.old_run.suite) << ", commit "
    << code(d.old_run.commit) << ", " << d.old_run.records << " records); this run: commit " << code(d.new_run.commit)
    << ", " << d.new_run.records << " records\n";
  for (const auto& g : diff_groups(d)) {
    if (!g.always && g.lines.empty()) continue;
    const bool bold = g.alarm && !g.lines.empty();
    o << "- " << (bold ? "**" : "") << text(g.title) << ": " << g.lines.size() << (bold ? "**" : "") << "\n";
    for (std::size_t i = 0; i < g.lines.size() && i < kDiffLinesShown; ++i) o << "  - " << text(g.lines[i]) << "\n";
    if (g.lines.size() > kDiffLinesShown) o << "  - ... and " << g.lines.size() - kDiffLinesShown << " more\n";
  }
  o << "\nThe whole comparison: " << code("softcert diff " + d.old_run.dir + " " + d.new_run.dir)
    << " (docs/cli.md, \"diff\").\n\n";
}

}  // namespace

std::string markdown_report(const engine::Suite& suite, const engine::SuiteReport& report, const RunFigures& figures,
                            const RunDiff* previous) {
  const BuildInfo b = build_info();
  std::ostringstream o;
  o << "# softcert report: " << text(suite.name) << "\n\n";
  o << "- suite file: " << code(suite.source.string()) << ", seed " << suite.seed << "\n";
  o << "- results: " << report.records.size() << " (check, instance) pairs\n";
  o << "- exit status: " << exit_status_text(report.exit_status) << "\n";
  o << "- softcert " << b.version << ", commit " << b.git_commit << "\n\n";
  o << "## Verdicts\n\n| check | expect |";
  for (auto v : kVerdicts) o << " " << engine::to_string(v) << " |";
  o << " outcome | seconds |\n|---|---|";
  for (std::size_t i = 0; i < std::size(kVerdicts); ++i) o << "---:|";
  o << "---|---:|\n";
  for (const auto& e : report.entries) {
    o << "| " << code(e.label) << " | " << engine::to_string(e.expect) << " |";
    for (auto v : kVerdicts) {
      auto it = e.counts.find(v);
      o << " " << (it == e.counts.end() ? 0 : it->second) << " |";
    }
    o << " " << (engine::failed(e.outcome) ? "**" : "") << engine::to_string(e.outcome)
      << (engine::failed(e.outcome) ? "**" : "") << " | " << std::fixed << std::setprecision(2)
      << e.seconds << " |\n";
  }
  o << "\n";
  if (previous) previous_section(o, *previous);
  o << "## Figures\n\n";
  if (!figures.note.empty()) o << "Plots skipped: " << figures.note << ". The data are in `plots/*.csv`.\n\n";
  for (const auto& f : figures.figures) {
    if (f.image.empty()) continue;
    o << "### " << f.title << "\n\n![" << f.title << "](" << f.image.string() << ")\n\n" << f.caption
      << " Data: `" << f.csv.string() << "`.\n\n";
  }
  const auto notable = notable_records(report, 50);
  o << "## Not proved or confirmed\n\n";
  if (notable.empty()) o << "Every instance was proved or confirmed.\n";
  for (const auto* r : notable) {
    o << "- " << code(r->value("instance", "")) << ": **" << r->value("verdict", "") << "**";
    if (r->contains("reason") && (*r)["reason"].is_string() && !(*r)["reason"].get<std::string>().empty())
      o << " — " << text((*r)["reason"].get<std::string>());
    o << "\n";
  }
  o << "\nEvery result is in `results.jsonl`; machine-readable summary in `summary.json`, CI view in "
       "`junit.xml`, provenance in `manifest.json` (docs/reports.md).\n";
  return o.str();
}

void write_documents(const std::filesystem::path& dir, const engine::Suite& suite, const engine::SuiteReport& report,
                     const RunDiff* previous) {
  const RunFigures figures = write_run_figures(dir, report);
  engine::write_file_atomically(dir / "report.md", markdown_report(suite, report, figures, previous));
  engine::write_file_atomically(dir / "report.html", html_report(suite, report, figures, dir, previous));
}

}  // namespace softcert::report
