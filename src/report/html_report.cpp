#include <fstream>
#include <iomanip>
#include <sstream>

#include "engine/build_info.hpp"
#include "report/documents.hpp"

namespace softcert::report {

namespace {

const engine::Verdict kVerdicts[] = {engine::Verdict::proved, engine::Verdict::confirmed, engine::Verdict::violated,
                                     engine::Verdict::inconclusive, engine::Verdict::error};

std::string esc(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string base64(const std::string& bytes) {
  static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    out += {t[v >> 18], t[(v >> 12) & 63], t[(v >> 6) & 63], t[v & 63]};
  }
  if (i + 1 == bytes.size()) {
    const unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    out += {t[v >> 18], t[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == bytes.size()) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8);
    out += {t[v >> 18], t[(v >> 12) & 63], t[(v >> 6) & 63], '='};
  }
  return out;
}

// The image as a data: URI so that report.html works when copied alone (CI artefacts, mail);
// a link when it is too large to inline or unreadable.
std::string image_src(const std::filesystem::path& dir, const std::filesystem::path& image) {
  std::ifstream in(dir / image, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) return esc(image.string());
  if (bytes.empty() || bytes.size() > (4u << 20)) return esc(image.string());
  const std::string mime = image.extension() == ".svg" ? "image/svg+xml" : "image/png";
  return "data:" + mime + ";base64," + base64(bytes);
}

// "Compared with the previous run": the groups of report/run_diff.hpp, regressions first.
void previous_section(std::ostringstream& o, const RunDiff& d) {
  o << "<h2>Compared with the previous run</h2>\n<p>previous: <code>" << esc(d.old_run.dir) << "</code> (suite "
    << esc(d.old_run.suite) << ", commit <code>" << esc(d.old_run.commit) << "</code>, " << d.old_run.records
    << " records); this run: commit <code>" << esc(d.new_run.commit) << "</code>, " << d.new_run.records
    << " records</p>\n<ul>\n";
  for (const auto& g : diff_groups(d)) {
    if (!g.always && g.lines.empty()) continue;
    o << "<li><span class=\"" << (g.alarm && !g.lines.empty() ? "bad" : "") << "\">" << esc(g.title) << ": "
      << g.lines.size() << "</span>";
    if (!g.lines.empty()) {
      o << "\n<ul>\n";
      for (std::size_t i = 0; i < g.lines.size() && i < kDiffLinesShown; ++i) o << "<li>" << esc(g.lines[i]) << "</li>\n";
      if (g.lines.size() > kDiffLinesShown) o << "<li>... and " << g.lines.size() - kDiffLinesShown << " more</li>\n";
      o << "</ul>";
    }
    o << "</li>\n";
  }
  o << "</ul>\n<p>The whole comparison: <code>softcert diff " << esc(d.old_run.dir) << " " << esc(d.new_run.dir)
    << "</code> (docs/cli.md, \"diff\").</p>\n";
}

}  // namespace

std::string html_report(const engine::Suite& suite, const engine::SuiteReport& report, const RunFigures& figures,
                        const std::filesystem::path& dir, const RunDiff* previous) {
  const BuildInfo b = build_info();
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>softcert report: "
    << esc(suite.name) << "</title>\n<style>\n"
    << "body{font-family:sans-serif;max-width:1000px;margin:2em auto;padding:0 1em;color:#222}\n"
    << "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em}td.n{text-align:right}\n"
    << ".bad{color:#b00;font-weight:bold}.ok{color:#070}figure{margin:1.5em 0}img{max-width:100%}\n"
    << "code{background:#f4f4f4;padding:0 .2em}\n</style>\n</head>\n<body>\n";
  o << "<h1>softcert report: " << esc(suite.name) << "</h1>\n<ul>\n";
  o << "<li>suite file <code>" << esc(suite.source.string()) << "</code>, seed " << suite.seed << "</li>\n";
  o << "<li>results: " << report.records.size() << " (check, instance) pairs</li>\n";
  o << "<li>exit status: <span class=\"" << (report.exit_status == 0 ? "ok" : "bad") << "\">"
    << esc(exit_status_text(report.exit_status)) << "</span></li>\n";
  o << "<li>softcert " << esc(b.version) << ", commit " << esc(b.git_commit) << "</li>\n</ul>\n";
  o << "<h2>Verdicts</h2>\n<table>\n<tr><th>check</th><th>expect</th>";
  for (auto v : kVerdicts) o << "<th>" << engine::to_string(v) << "</th>";
  o << "<th>outcome</th><th>seconds</th></tr>\n";
  for (const auto& e : report.entries) {
    o << "<tr><td><code>" << esc(e.label) << "</code></td><td>" << engine::to_string(e.expect) << "</td>";
    for (auto v : kVerdicts) {
      auto it = e.counts.find(v);
      o << "<td class=\"n\">" << (it == e.counts.end() ? 0 : it->second) << "</td>";
    }
    o << "<td class=\"" << (engine::failed(e.outcome) ? "bad" : "ok") << "\">"
      << esc(engine::to_string(e.outcome)) << "</td><td class=\"n\">" << std::fixed << std::setprecision(2)
      << e.seconds << "</td></tr>\n";
  }
  o << "</table>\n";
  if (previous) previous_section(o, *previous);
  o << "<h2>Figures</h2>\n";
  if (!figures.note.empty())
    o << "<p>Plots skipped: " << esc(figures.note) << ". The data are in <code>plots/*.csv</code>.</p>\n";
  for (const auto& f : figures.figures) {
    if (f.image.empty()) continue;
    o << "<figure>\n<img src=\"" << image_src(dir, f.image) << "\" alt=\"" << esc(f.title) << "\">\n<figcaption><b>"
      << esc(f.title) << ".</b> " << esc(f.caption) << " Data: <a href=\"" << esc(f.csv.string()) << "\">"
      << esc(f.csv.string()) << "</a>.</figcaption>\n</figure>\n";
  }
  o << "<h2>Not proved or confirmed</h2>\n";
  const auto notable = notable_records(report, 200);
  if (notable.empty()) o << "<p>Every instance was proved or confirmed.</p>\n";
  else o << "<table>\n<tr><th>instance</th><th>verdict</th><th>reason</th></tr>\n";
  for (const auto* r : notable) {
    o << "<tr><td><code>" << esc(r->value("instance", "")) << "</code></td><td>" << esc(r->value("verdict", ""))
      << "</td><td>" << esc(r->contains("reason") && (*r)["reason"].is_string() ? (*r)["reason"].get<std::string>() : "")
      << "</td></tr>\n";
  }
  if (!notable.empty()) o << "</table>\n";
  o << "<p>Every result is in <a href=\"results.jsonl\">results.jsonl</a>; summary in "
       "<a href=\"summary.json\">summary.json</a>, CI view in <a href=\"junit.xml\">junit.xml</a>, provenance in "
       "<a href=\"manifest.json\">manifest.json</a>.</p>\n</body>\n</html>\n";
  return o.str();
}

}  // namespace softcert::report
