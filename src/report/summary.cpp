#include "report/summary.hpp"

#include <unistd.h>

#include <iomanip>
#include <optional>
#include <set>
#include <sstream>

#include "engine/build_info.hpp"
#include "engine/journal.hpp"
#include "engine/registry.hpp"
#include "engine/run_identity.hpp"
#include "report/documents.hpp"

namespace softcert::report {
namespace {

const engine::Verdict kVerdicts[] = {engine::Verdict::proved, engine::Verdict::confirmed, engine::Verdict::violated,
                                     engine::Verdict::inconclusive, engine::Verdict::error};

std::size_t count(const engine::VerdictCounts& c, engine::Verdict v) {
  auto it = c.find(v);
  return it == c.end() ? 0 : it->second;
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default:
        // XML 1.0 forbids most control characters
        if (static_cast<unsigned char>(ch) < 0x20 && ch != '\n' && ch != '\t') out += ' ';
        else out += ch;
    }
  }
  return out;
}

}  // namespace

std::string verdict_table(const engine::SuiteReport& report) {
  std::size_t w = 5;
  for (const auto& e : report.entries) w = std::max(w, e.label.size());
  std::ostringstream o;
  o << std::left << std::setw(static_cast<int>(w)) << "check" << "  " << std::setw(8) << "expect";
  for (auto v : kVerdicts) o << std::right << std::setw(13) << engine::to_string(v);
  o << "  " << std::left << "outcome\n";
  o << std::string(w + 2 + 8 + 13 * 5 + 2 + 22, '-') << "\n";
  for (const auto& e : report.entries) {
    o << std::left << std::setw(static_cast<int>(w)) << e.label << "  " << std::setw(8) << engine::to_string(e.expect);
    for (auto v : kVerdicts) o << std::right << std::setw(13) << count(e.counts, v);
    o << "  " << std::left << engine::to_string(e.outcome) << "\n";
  }
  return o.str();
}

std::string instance_lines(const engine::SuiteReport& report, std::size_t max_lines) {
  std::ostringstream o;
  std::set<std::string> docs;
  std::size_t shown = 0;
  for (const auto& r : report.records) {
    if (shown++ == max_lines) {
      o << "  ... and " << report.records.size() - max_lines << " more (see the results file or --json)\n";
      break;
    }
    o << "  " << r.value("instance", "?") << ": " << r.value("verdict", "?");
    if (r.contains("margin") && r["margin"].is_array() && r["margin"].size() == 2 && r["margin"][0].is_string())
      o << ", margin [" << r["margin"][0].get<std::string>() << ", " << r["margin"][1].get<std::string>() << "]";
    if (r.contains("details") && r["details"].is_object() && r["details"].contains("margin_meaning") &&
        r["details"]["margin_meaning"].is_string())
      o << " (" << r["details"]["margin_meaning"].get<std::string>() << ")";
    const std::string reason = r.value("reason", "");
    if (!reason.empty()) o << ": " << reason;
    o << "\n";
    if (const engine::Check* c = engine::CheckRegistry::global().find(r.value("check", ""))) {
      if (!c->doc().empty()) docs.insert(c->doc());
    }
  }
  if (shown > 0) {
    o << "  (margin: the certified interval of the quantity whose sign decides the claim, > 0 = holds on that "
         "instance; an estimate, not a bound, for confirmed/inconclusive; what it measures:";
    for (const auto& d : docs) o << " " << d;
    o << ")\n";
  }
  return o.str();
}

nlohmann::json summary_json(const engine::Suite& suite, const engine::SuiteReport& report) {
  nlohmann::json entries = nlohmann::json::array();
  nlohmann::json totals = nlohmann::json::object();
  for (auto v : kVerdicts) totals[engine::to_string(v)] = 0;
  for (const auto& e : report.entries) {
    nlohmann::json counts = nlohmann::json::object();
    std::size_t n = 0;
    for (auto v : kVerdicts) {
      counts[engine::to_string(v)] = count(e.counts, v);
      totals[engine::to_string(v)] = totals[engine::to_string(v)].get<std::size_t>() + count(e.counts, v);
      n += count(e.counts, v);
    }
    entries.push_back({{"check", e.check},
                       {"entry", e.label},
                       {"expect", engine::to_string(e.expect)},
                       {"max_inconclusive", e.max_inconclusive},
                       {"instances", n},
                       {"counts", counts},
                       {"outcome", engine::to_string(e.outcome)},
                       {"seconds", e.seconds}});
  }
  return {{"schema", "softcert.summary/1"},
          {"suite", suite.name},
          {"seed", suite.seed},
          {"commit", build_info().git_commit},
          {"checks", entries},
          {"totals", totals},
          {"exit_status", report.exit_status}};
}

std::string junit_xml(const engine::Suite& suite, const engine::SuiteReport& report) {
  std::size_t failures = 0;
  for (const auto& e : report.entries) failures += engine::failed(e.outcome);
  std::ostringstream o;
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o << "<testsuites name=\"softcert\" tests=\"" << report.entries.size() << "\" failures=\"" << failures << "\">\n";
  o << "  <testsuite name=\"" << xml_escape(suite.name) << "\" tests=\"" << report.entries.size() << "\" failures=\""
    << failures << "\" errors=\"0\" skipped=\"0\">\n";
  for (const auto& e : report.entries) {
    double seconds = 0;
    std::ostringstream out;
    for (const auto& r : report.records) {
      if (r.value("entry", r.at("check").get<std::string>()) != e.label) continue;
      seconds += r.value("seconds", 0.0);
      out << r.at("instance").get<std::string>() << ": " << r.at("verdict").get<std::string>();
      if (r.contains("reason") && r["reason"].is_string() && !r["reason"].get<std::string>().empty())
        out << " (" << r["reason"].get<std::string>() << ")";
      out << "\n";
    }
    o << "    <testcase classname=\"" << xml_escape(suite.name) << "\" name=\"" << xml_escape(e.label) << "\" time=\""
      << std::fixed << std::setprecision(3) << seconds << "\">\n";
    if (engine::failed(e.outcome)) {
      std::ostringstream msg;
      msg << "expected " << engine::to_string(e.expect) << "; got";
      for (auto v : kVerdicts) msg << " " << engine::to_string(v) << "=" << count(e.counts, v);
      o << "      <failure type=\"" << xml_escape(engine::to_string(e.outcome)) << "\" message=\""
        << xml_escape(msg.str()) << "\">" << xml_escape(msg.str()) << "</failure>\n";
    }
    o << "      <system-out>" << xml_escape(out.str()) << "</system-out>\n";
    o << "    </testcase>\n";
  }
  o << "  </testsuite>\n</testsuites>\n";
  return o.str();
}

nlohmann::json manifest_json(const engine::Suite& suite, const std::vector<std::string>& command_line,
                             const engine::Shard& shard) {
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  nlohmann::json entries = nlohmann::json::array();
  for (const auto& e : suite.entries)
    entries.push_back({{"check", e.check},
                       {"entry", e.label},
                       {"instances", e.instances},
                       {"tier", engine::to_string(e.options.tier)},
                       {"precision_bits", e.options.precision_bits},
                       {"horizon", e.options.horizon ? nlohmann::json(*e.options.horizon) : nlohmann::json()},
                       {"params", e.options.params}});
  return {{"schema", "softcert.manifest/1"}, {"softcert", build_info_json()}, {"suite", suite.name},
          {"suite_file", suite.source.string()}, {"seed", suite.seed}, {"entries", entries},
          {"shard", std::to_string(shard.index) + "/" + std::to_string(shard.count)},
          {"command_line", command_line}, {"host", host}};
}

nlohmann::json manifest_json(const engine::Suite& suite, const engine::SuiteReport& report,
                             const std::vector<std::string>& command_line, const engine::Shard& shard) {
  nlohmann::json m = manifest_json(suite, command_line, shard);
  // The run identity (engine/run_identity.hpp): what merge compares between shards.
  const engine::RunIdentity id = report.run_id.empty() ? engine::run_identity(suite, shard.count)
                                                       : engine::RunIdentity{report.run_identity, report.run_id};
  m["run"] = {{"id", id.id}, {"identity", id.components}};
  return m;
}

void write_reports(const std::filesystem::path& dir, const engine::Suite& suite, const engine::SuiteReport& report,
                   const std::vector<std::string>& command_line, const engine::Shard& shard, const RunRead* previous) {
  std::filesystem::create_directories(dir);
  engine::write_file_atomically(dir / "summary.json", summary_json(suite, report).dump(2) + "\n");
  engine::write_file_atomically(dir / "junit.xml", junit_xml(suite, report));
  engine::write_file_atomically(dir / "manifest.json", manifest_json(suite, report, command_line, shard).dump(2) + "\n");
  // This run as `softcert diff` reads it (results.jsonl and the summary just written)
  std::optional<RunDiff> compared;
  if (previous) compared = diff_runs(*previous, read_run(dir));
  write_documents(dir, suite, report, compared ? &*compared : nullptr);  // report.md, report.html, plots/
}

}  // namespace softcert::report
