#include "report/run_diff.hpp"

#include <cmath>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "engine/check.hpp"
#include "engine/expectation.hpp"
#include "support/input_file.hpp"
#include "engine/journal.hpp"
#include "numerics/quote.hpp"
#include "numerics/strict_json.hpp"

namespace softcert::report {
namespace {

namespace fs = std::filesystem;

nlohmann::json read_json(const fs::path& f) {
  try {
    return num::parse_json_strict(support::read_input_file(f), f.string());
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(f.string() + ": not valid JSON: " + num::json_error_excerpt(e.what()));
  }
}

using EntrySummary = RunRead::Entry;
using Run = RunRead;

std::string string_field(const nlohmann::json& j, const char* key, const std::string& where) {
  if (!j.contains(key) || !j[key].is_string()) throw std::invalid_argument(where + ": no string \"" + key + "\"");
  return j[key].get<std::string>();
}

}  // namespace

RunRead read_run(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw std::invalid_argument(dir.string() + ": not a directory (give a suite --out DIR)");
  Run run;
  run.side.dir = dir.string();
  const fs::path summary_file = dir / "summary.json";
  const nlohmann::json s = read_json(summary_file);
  const std::string where = summary_file.string();
  if (!s.is_object() || !s.contains("checks") || !s["checks"].is_array())
    throw std::invalid_argument(where + ": not a suite summary (no \"checks\" array)");
  run.side.suite = s.value("suite", "");
  if (s.contains("seed") && s["seed"].is_number_unsigned()) run.side.seed = s["seed"].get<std::uint64_t>();
  if (s.contains("commit") && s["commit"].is_string()) run.side.commit = s["commit"].get<std::string>();
  for (const auto& e : s["checks"]) {
    if (!e.is_object()) throw std::invalid_argument(where + ": an entry of \"checks\" is not an object");
    EntrySummary es;
    const std::string label = string_field(e, "entry", where);
    es.check = string_field(e, "check", where);
    es.expect = string_field(e, "expect", where);
    es.outcome = string_field(e, "outcome", where);
    es.counts = e.value("counts", nlohmann::json::object());
    if (e.contains("seconds") && e["seconds"].is_number()) es.seconds = e["seconds"].get<double>();
    if (run.entries.count(label)) throw std::invalid_argument(where + ": entry " + num::quoted(label) + " appears twice");
    run.entry_order.push_back(label);
    run.entries[label] = es;
  }
  if (run.side.commit.empty()) {  // a summary without its commit: the manifest's
    std::error_code ec2;
    if (fs::exists(dir / "manifest.json", ec2)) {
      const nlohmann::json m = read_json(dir / "manifest.json");
      if (m.is_object() && m.contains("softcert") && m["softcert"].is_object() && m["softcert"].contains("git_commit") &&
          m["softcert"]["git_commit"].is_string())
        run.side.commit = m["softcert"]["git_commit"].get<std::string>();
    }
  }
  if (run.side.commit.empty()) run.side.commit = "unknown";
  // Every record re-validated (a verdict its margin contradicts, a lost counterexample: refused)
  for (const auto& [key, r] : engine::read_journal(dir / "results.jsonl")) {
    const std::string entry = r.value("entry", r.at("check").get<std::string>());
    run.records[entry + "\t" + r.at("instance").get<std::string>()] = r;
    run.record_seconds[entry] += r.value("seconds", 0.0);
  }
  run.side.records = run.records.size();
  return run;
}

namespace {

std::string shown_key(const std::string& key) {
  const auto tab = key.find('\t');
  const std::string entry = key.substr(0, tab), instance = key.substr(tab + 1);
  return instance.rfind(entry, 0) == 0 ? instance : entry + ": " + instance;
}

// One end of an enclosure, exactly: ±inf, or a rational.
struct End {
  int inf = 0;  // −1, +1 for an infinite end, 0 for a finite one
  Rational q;
};

End end_of(const engine::Margin& m, bool upper) {
  try {
    return End{0, upper ? m.upper_rational() : m.lower_rational()};
  } catch (const std::domain_error&) {  // an end written "inf" / "-inf"
    const double d = upper ? m.upper_up() : m.lower_down();
    return End{d > 0 ? 1 : -1, Rational(0)};
  }
}

bool above(const End& a, const End& b) {  // a > b
  if (a.inf != 0 || b.inf != 0) return a.inf > b.inf;
  return a.q > b.q;
}

std::optional<engine::Margin> margin_of(const nlohmann::json& r) {
  if (!r.contains("margin") || !r["margin"].is_array() || r["margin"].size() != 2) return std::nullopt;
  return engine::Margin::parse(r["margin"][0].get<std::string>(), r["margin"][1].get<std::string>());
}

// The exact width of a margin with both ends finite; nullopt for a one-sided [x, inf] margin.
std::optional<Rational> width_of(const engine::Margin& m) {
  const End lo = end_of(m, false), hi = end_of(m, true);
  if (lo.inf != 0 || hi.inf != 0) return std::nullopt;
  return hi.q - lo.q;
}

bool certified(const std::string& verdict) { return verdict == "proved" || verdict == "violated"; }

OutcomeChange change_of(const std::string& label, const EntrySummary& o, const EntrySummary& n) {
  return OutcomeChange{label, n.check, o.outcome, n.outcome, o.expect, n.expect, n.counts};
}

std::string counts_text(const nlohmann::json& counts) {
  std::string s;
  for (const char* v : {"proved", "confirmed", "violated", "inconclusive", "error"})
    if (counts.contains(v) && counts[v].is_number() && counts[v].get<long>() > 0)
      s += (s.empty() ? "" : ", ") + std::string(v) + " " + std::to_string(counts[v].get<long>());
  return s.empty() ? "no records" : s;
}

std::string seconds_text(double s) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(s < 10 ? 2 : 1) << s << " s";
  return o.str();
}

nlohmann::json side_json(const RunSide& s) {
  return {{"dir", s.dir}, {"suite", s.suite}, {"seed", s.seed}, {"commit", s.commit}, {"records", s.records}};
}

nlohmann::json change_json(const OutcomeChange& c) {
  return {{"entry", c.entry}, {"check", c.check}, {"old_outcome", c.old_outcome}, {"new_outcome", c.new_outcome},
          {"old_expect", c.old_expect}, {"new_expect", c.new_expect}, {"new_counts", c.new_counts}};
}

}  // namespace

RunDiff diff_runs(const fs::path& old_dir, const fs::path& new_dir, const DiffSettings& settings) {
  return diff_runs(read_run(old_dir), read_run(new_dir), settings);
}

RunDiff diff_runs(const RunRead& o, const RunRead& n, const DiffSettings& settings) {
  RunDiff d;
  d.old_run = o.side;
  d.new_run = n.side;
  for (const auto& label : n.entry_order) {
    const EntrySummary& ne = n.entries.at(label);
    const auto it = o.entries.find(label);
    if (it == o.entries.end()) {
      d.new_entries.push_back(label);
      continue;
    }
    const EntrySummary& oe = it->second;
    const bool was = oe.outcome == engine::to_string(engine::Outcome::as_expected);
    const bool is = ne.outcome == engine::to_string(engine::Outcome::as_expected);
    if (was && !is) d.regressions.push_back(change_of(label, oe, ne));
    if (!was && is) d.fixed.push_back(change_of(label, oe, ne));
    if (oe.expect != ne.expect) d.expectation_changes.push_back(change_of(label, oe, ne));
    const double os = oe.seconds.value_or(o.record_seconds.count(label) ? o.record_seconds.at(label) : 0.0);
    const double ns = ne.seconds.value_or(n.record_seconds.count(label) ? n.record_seconds.at(label) : 0.0);
    if (std::max(os, ns) >= settings.time_floor &&
        (ns > settings.time_factor * os || os > settings.time_factor * ns))
      d.timings_moved.push_back({label, os, ns});
  }
  for (const auto& label : o.entry_order)
    if (!n.entries.count(label)) d.lost_entries.push_back(label);
  for (const auto& [key, nr] : n.records) {
    const auto it = o.records.find(key);
    if (it == o.records.end()) {
      d.new_records.push_back(shown_key(key));
      continue;
    }
    const nlohmann::json& orr = it->second;
    const std::string entry = key.substr(0, key.find('\t')), instance = key.substr(key.find('\t') + 1);
    const std::string ov = orr.at("verdict").get<std::string>(), nv = nr.at("verdict").get<std::string>();
    if (ov != nv) d.verdict_changes.push_back({entry, instance, ov, nv, orr.value("reason", ""), nr.value("reason", "")});
    const auto om = margin_of(orr), nm = margin_of(nr);
    if (om && nm) {
      const bool up = above(end_of(*nm, false), end_of(*om, true));     // NEW.lower > OLD.upper
      const bool down = above(end_of(*om, false), end_of(*nm, true));   // OLD.lower > NEW.upper
      if (up || down) d.margins_moved.push_back({entry, instance, nv, orr["margin"], nr["margin"], up ? "up" : "down"});
      const auto ow = width_of(*om), nw = width_of(*nm);
      if (certified(ov) && certified(nv) && ow && nw) {
        const Rational f(settings.margin_factor);  // exact: the double's own value
        const bool wider = *nw > f * *ow, narrower = *ow > f * *nw;
        if (wider || narrower)
          d.widths_changed.push_back({entry, instance, nv, orr["margin"], nr["margin"], ow->convert_to<double>(),
                                      nw->convert_to<double>(), wider ? "wider" : "narrower"});
      }
    }
  }
  for (const auto& [key, r] : o.records)
    if (!n.records.count(key)) d.lost_records.push_back(shown_key(key));
  return d;
}

std::vector<DiffGroup> diff_groups(const RunDiff& d, const DiffSettings& settings) {
  std::vector<DiffGroup> g;
  auto outcomes = [&g](const char* title, const std::vector<OutcomeChange>& v, bool alarm, bool always) {
    DiffGroup x{title, {}, alarm, always};
    for (const auto& c : v)
      x.lines.push_back(c.entry + ": " + c.old_outcome + " -> " + c.new_outcome + " (expect " +
                        (c.old_expect == c.new_expect ? c.new_expect : c.old_expect + " -> " + c.new_expect) +
                        "; now " + counts_text(c.new_counts) + ")");
    g.push_back(std::move(x));
  };
  outcomes("REGRESSIONS (as expected before, not now)", d.regressions, true, true);
  outcomes("fixed (not as expected before, as expected now)", d.fixed, false, true);
  outcomes("expectations changed", d.expectation_changes, false, false);
  DiffGroup verdicts{"verdict changes", {}};
  for (const auto& c : d.verdict_changes)
    verdicts.lines.push_back(shown_key(c.entry + "\t" + c.instance) + ": " + c.old_verdict + " -> " + c.new_verdict +
                             (c.new_reason.empty() ? "" : " (" + num::excerpt(c.new_reason, 160) + ")"));
  g.push_back(std::move(verdicts));
  auto interval = [](const nlohmann::json& m) {
    return "[" + m[0].get<std::string>() + ", " + m[1].get<std::string>() + "]";
  };
  DiffGroup moved{"margins moved (the certified intervals no longer overlap)", {}};
  for (const auto& m : d.margins_moved)
    moved.lines.push_back(shown_key(m.entry + "\t" + m.instance) + ": " + interval(m.old_margin) + " -> " +
                          interval(m.new_margin) + " (" + m.direction + ")");
  g.push_back(std::move(moved));
  std::ostringstream mf, tf;
  mf << settings.margin_factor;
  tf << settings.time_factor;
  DiffGroup widths{"certified margins whose width changed by more than " + mf.str() + "x", {}};
  for (const auto& m : d.widths_changed) {
    std::ostringstream w;
    w << std::setprecision(3) << m.old_width << " -> " << m.new_width;
    widths.lines.push_back(shown_key(m.entry + "\t" + m.instance) + ": " + interval(m.old_margin) + " -> " +
                           interval(m.new_margin) + " (" + m.direction + ", width " + w.str() + ")");
  }
  g.push_back(std::move(widths));
  for (const auto& [title, v] : {std::pair{"new entries", &d.new_entries}, std::pair{"lost entries", &d.lost_entries},
                                 std::pair{"new records", &d.new_records}, std::pair{"lost records", &d.lost_records}})
    g.push_back(DiffGroup{title, *v});
  DiffGroup timings{"timings moved (more than " + tf.str() + "x, entries of at least " +
                    seconds_text(settings.time_floor) + ")", {}};
  for (const auto& t : d.timings_moved)
    timings.lines.push_back(t.entry + ": " + seconds_text(t.old_seconds) + " -> " + seconds_text(t.new_seconds));
  g.push_back(std::move(timings));
  return g;
}

std::string diff_text(const RunDiff& d, const DiffSettings& settings) {
  std::ostringstream o;
  auto side = [&o](const char* name, const RunSide& s) {
    o << "  " << name << ": " << s.dir << " (suite " << (s.suite.empty() ? "?" : s.suite) << ", seed " << s.seed
      << ", commit " << s.commit << ", " << s.records << " records)\n";
  };
  o << "softcert diff\n";
  side("old", d.old_run);
  side("new", d.new_run);
  for (const auto& group : diff_groups(d, settings)) {
    if (!group.always && group.lines.empty()) continue;
    o << group.title << ": " << group.lines.size() << "\n";
    for (const auto& line : group.lines) o << "  " << line << "\n";
  }
  o << "exit status " << d.exit_status() << (d.exit_status() ? " (a regression)" : " (no regression)") << "\n";
  return o.str();
}

nlohmann::json diff_json(const RunDiff& d) {
  nlohmann::json j;
  j["schema"] = "softcert.diff/1";
  j["old"] = side_json(d.old_run);
  j["new"] = side_json(d.new_run);
  for (const auto& [key, v] : {std::pair{"regressions", &d.regressions}, std::pair{"fixed", &d.fixed},
                               std::pair{"expectation_changes", &d.expectation_changes}}) {
    j[key] = nlohmann::json::array();
    for (const auto& c : *v) j[key].push_back(change_json(c));
  }
  j["verdict_changes"] = nlohmann::json::array();
  for (const auto& c : d.verdict_changes)
    j["verdict_changes"].push_back({{"entry", c.entry}, {"instance", c.instance}, {"old", c.old_verdict}, {"new", c.new_verdict},
                                    {"old_reason", c.old_reason}, {"new_reason", c.new_reason}});
  j["margins_moved"] = nlohmann::json::array();
  for (const auto& m : d.margins_moved)
    j["margins_moved"].push_back({{"entry", m.entry}, {"instance", m.instance}, {"verdict", m.verdict}, {"old", m.old_margin},
                                  {"new", m.new_margin}, {"direction", m.direction}});
  j["margin_widths_changed"] = nlohmann::json::array();
  for (const auto& m : d.widths_changed)
    j["margin_widths_changed"].push_back({{"entry", m.entry}, {"instance", m.instance}, {"verdict", m.verdict},
                                          {"old", m.old_margin}, {"new", m.new_margin}, {"old_width", m.old_width},
                                          {"new_width", m.new_width}, {"direction", m.direction}});
  j["new_entries"] = d.new_entries;
  j["lost_entries"] = d.lost_entries;
  j["new_records"] = d.new_records;
  j["lost_records"] = d.lost_records;
  j["timings_moved"] = nlohmann::json::array();
  for (const auto& t : d.timings_moved)
    j["timings_moved"].push_back({{"entry", t.entry}, {"old_seconds", t.old_seconds}, {"new_seconds", t.new_seconds}});
  j["exit_status"] = d.exit_status();
  return j;
}

}  // namespace softcert::report
