#include "cli/claims_ledger.hpp"


#include <cerrno>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include "support/input_file.hpp"
#include "engine/suite.hpp"
#include "numerics/quote.hpp"
#include "numerics/strict_json.hpp"

namespace softcert::cli {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw std::invalid_argument(where + ": " + what);
}

const std::set<std::string> kSources = {"paper", "code", "ours"};
const std::set<std::string> kStatuses = {"checked", "unchecked", "out_of_scope"};
const std::set<std::string> kClaimKeys = {"id",      "paper",   "source",  "where", "quote", "reading",
                                          "status",  "finding", "entries", "docs",  "reason",
                                          "near_miss", "paraphrase"};

std::string string_field(const toml::table& t, const char* key, const std::string& where, bool required) {
  const toml::node* n = t.get(key);
  if (!n) {
    if (required) fail(where, std::string(key) + " (a string) is required");
    return "";
  }
  if (!n->is_string()) fail(where, std::string(key) + ": must be a string");
  const std::string v = n->as_string()->get();
  if (required && v.empty()) fail(where, std::string(key) + ": must not be empty");
  return v;
}

std::vector<std::string> string_list(const toml::table& t, const char* key, const std::string& where) {
  std::vector<std::string> out;
  const toml::node* n = t.get(key);
  if (!n) return out;
  const auto* a = n->as_array();
  if (!a) fail(where, std::string(key) + ": must be an array of strings");
  for (const auto& e : *a) {
    if (!e.is_string() || e.as_string()->get().empty()) fail(where, std::string(key) + ": must be an array of nonempty strings");
    out.push_back(e.as_string()->get());
  }
  return out;
}

// A horizon as README writes it: 100, 1000, 5·10⁴, 10⁵ (powers of ten from 10⁴ on), else as
// the shortest round-trip decimal would start (%g).
std::string number_text(double x) {
  static const char* const kSup[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  if (x >= 1e4 && x < 1e10) {
    int e = 0;
    double m = x;
    while (m >= 10) m /= 10, ++e;
    const double r = std::round(m);
    if (r == m && r * std::pow(10.0, e) == x)
      return (r == 1 ? std::string() : std::to_string(static_cast<int>(r)) + "·") + "10" + kSup[e];
  }
  std::ostringstream s;
  s << x;
  return s.str();
}

// Whether p names a regular file itself (not through a symlink). A name the file system refuses
// (too long, not a directory on the way) is no such file: the ledger is refused by name, never
// with a filesystem_error.
bool regular_file_itself(const fs::path& p) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(p, ec);
  return !ec && fs::is_regular_file(st);
}

// The suites a ledger cites, loaded once each.
class SuiteCache {
 public:
  explicit SuiteCache(fs::path dir) : dir_(std::move(dir)) {}
  const engine::Suite& get(const std::string& stem, const std::string& where) {
    auto it = suites_.find(stem);
    if (it != suites_.end()) return it->second;
    const fs::path f = dir_ / (stem + ".toml");
    if (!regular_file_itself(f)) fail(where, "entries: no suite file " + f.string());
    try {
      return suites_.emplace(stem, engine::load_suite(f)).first->second;
    } catch (const std::invalid_argument& e) {
      fail(where, std::string("entries: ") + e.what());
    }
  }

 private:
  fs::path dir_;
  std::map<std::string, engine::Suite> suites_;
};

LedgerEntry resolve(const std::string& ref, SuiteCache& suites, const std::string& where) {
  const auto slash = ref.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == ref.size())
    fail(where, "entries: '" + ref + "' is not SUITE/LABEL (e.g. nightly/varre2026.one_hot.eventual)");
  LedgerEntry e;
  e.suite = ref.substr(0, slash);
  e.label = ref.substr(slash + 1);
  const engine::Suite& s = suites.get(e.suite, where);
  for (const auto& se : s.entries) {
    if (se.label != e.label) continue;
    e.check = se.check;
    e.tier = engine::to_string(se.options.tier);
    e.expect = engine::to_string(se.expect);
    e.horizon = se.options.horizon ? number_text(*se.options.horizon) : "";
    std::string n;
    if (!se.instance_files.empty())
      n = std::to_string(se.instance_files.size()) + (se.instance_files.size() == 1 ? " file" : " files");
    if (se.instances > 0) n += (n.empty() ? "" : " + ") + std::to_string(se.instances) + " generated";
    e.instances = n;
    return e;
  }
  fail(where, "entries: suite '" + e.suite + "' has no entry labelled '" + e.label + "'");
}

Claim parse_claim(const toml::table& t, const std::string& where0, SuiteCache& suites, const fs::path& root) {
  for (const auto& [k, v] : t)
    if (!kClaimKeys.count(std::string(k.str()))) fail(where0, "unknown key '" + std::string(k.str()) + "'");
  Claim c;
  c.id = string_field(t, "id", where0, true);
  for (char ch : c.id)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '-' || ch == '_'))
      fail(where0, "id: letters, digits, '.', '-', '_' only, got '" + c.id + "'");
  const std::string where = where0 + " (" + c.id + ")";
  c.paper = string_field(t, "paper", where, true);
  c.source = string_field(t, "source", where, true);
  if (!kSources.count(c.source)) fail(where, "source: must be \"paper\", \"code\" or \"ours\", not '" + c.source + "'");
  c.where = string_field(t, "where", where, true);
  c.quote = string_field(t, "quote", where, c.source != "ours");
  c.reading = string_field(t, "reading", where, false);
  c.status = string_field(t, "status", where, true);
  if (!kStatuses.count(c.status))
    fail(where, "status: must be \"checked\", \"unchecked\" or \"out_of_scope\", not '" + c.status + "'");
  c.finding = string_field(t, "finding", where, c.status == "checked");
  c.reason = string_field(t, "reason", where, c.status != "checked");
  const auto refs = string_list(t, "entries", where);
  if (c.status == "checked") {
    if (refs.empty()) fail(where, "entries: a checked claim names at least one suite entry");
    if (c.reading.empty()) fail(where, "reading (a string) is required for a checked claim");
  }
  for (const auto& r : refs) c.entries.push_back(resolve(r, suites, where));
  for (const auto& r : string_list(t, "near_miss", where)) {
    LedgerEntry e = resolve(r, suites, where);
    if (e.expect != "refuted") fail(where, "near_miss: '" + r + "' does not expect \"refuted\" (a near miss is a false statement)");
    c.near_misses.push_back(std::move(e));
  }
  if (!c.near_misses.empty() && c.status != "checked") fail(where, "near_miss: only a checked claim has near misses");
  if (const toml::node* n = t.get("paraphrase")) {
    if (!n->is_boolean()) fail(where, "paraphrase: must be true or false");
    c.paraphrase = n->as_boolean()->get();
    if (c.paraphrase && c.source != "code") fail(where, "paraphrase: only a [code] quote is marked as a paraphrase");
  }
  c.docs = string_list(t, "docs", where);
  for (const auto& d : c.docs)
    if (d.find("..") != std::string::npos || fs::path(d).is_absolute() || !regular_file_itself(root / d))
      fail(where, "docs: no file " + d + " in the repository");
  return c;
}

// `text` as a markdown list item wrapped at 100 columns ("- " first, "  " after), breaking at
// spaces only, so that README's lines stay readable in a diff.
std::string list_item(const std::string& text) {
  std::string out, line = "-";
  std::istringstream words(text);
  std::string w;
  while (words >> w) {
    if (line.size() + 1 + w.size() > 100 && line.size() > 2) {
      out += line + "\n";
      line = " ";
    }
    line += " " + w;
  }
  return out + line + "\n";
}

std::string source_tag(const Claim& c) { return "[" + c.source + "]"; }

std::string entry_text(const LedgerEntry& e) {
  std::string s = "`" + e.suite + "` › `" + e.label + "` (" + e.tier;
  if (!e.horizon.empty()) s += ", H = " + e.horizon;
  if (!e.instances.empty()) s += ", " + e.instances;
  if (e.expect != "holds") s += ", expect " + e.expect;  // holds is the default
  s += ")";
  if (!e.observed.empty()) s += " [" + e.observed + "]";
  return s;
}

std::string entries_text(const Claim& c) {
  std::string s;
  for (std::size_t i = 0; i < c.entries.size(); ++i) s += (i ? "; " : "") + entry_text(c.entries[i]);
  return s;
}

// What a checked claim's near misses are, or that it has none: the README names the first.
std::string near_miss_text(const Claim& c) {
  if (c.near_misses.empty()) return "**cannot fail as checked** (no near miss)";
  return "near miss: " + entry_text(c.near_misses.front());
}

std::string quote_text(const Claim& c) { return "\"" + c.quote + "\"" + (c.paraphrase ? " (paraphrase)" : ""); }

std::string docs_text(const Claim& c) {
  std::string s;
  for (std::size_t i = 0; i < c.docs.size(); ++i) s += (i ? ", " : "") + c.docs[i];
  return s;
}

}  // namespace

// The engine's one reader for input files (regular files only, size-capped, stopped at a NUL:
// support/input_file.hpp), with this file's caps.
std::string read_regular_file(const fs::path& file, std::size_t max_bytes) {
  return support::read_input_file(file, max_bytes);
}

Ledger load_ledger(const fs::path& file) {
  const std::string f = file.string();
  const std::string text = read_regular_file(file, 1 << 20);
  toml::table root;
  try {
    root = toml::parse(text, f);
  } catch (const toml::parse_error& e) {
    std::ostringstream msg;
    msg << e.description() << " (line " << e.source().begin.line << ")";
    fail(f, msg.str());
  }
  for (const auto& [k, v] : root)
    if (std::string(k.str()) != "claim") fail(f, "unknown key '" + std::string(k.str()) + "'");
  const auto* claims = root["claim"].as_array();
  if (!claims || claims->empty()) fail(f, "needs at least one [[claim]]");
  const fs::path dir = fs::absolute(file).parent_path();
  SuiteCache suites(dir / "suites");
  Ledger l;
  l.file = file;
  std::set<std::string> ids;
  std::size_t i = 0;
  for (const auto& node : *claims) {
    const std::string where = f + ": claim #" + std::to_string(++i);
    const auto* t = node.as_table();
    if (!t) fail(where, "must be a table");
    Claim c = parse_claim(*t, where, suites, dir.parent_path());
    if (!ids.insert(c.id).second) fail(where, "id: '" + c.id + "' is used twice");
    l.claims.push_back(std::move(c));
  }
  return l;
}

void attach_results(Ledger& l, const std::string& suite, const fs::path& dir) {
  const fs::path file = dir / "summary.json";
  const std::string f = file.string();
  nlohmann::json j;
  try {
    j = num::parse_json_bounded(read_regular_file(file, 16 << 20), f);
  } catch (const nlohmann::json::exception& e) {
    fail(f, std::string("not JSON: ") + e.what());
  }
  if (!j.is_object() || !j.contains("checks") || !j["checks"].is_array()) fail(f, "checks: an array is required");
  // The summary names the suite it is of: another suite's results would land on this one's entries.
  if (!j.contains("suite") || !j["suite"].is_string()) fail(f, "suite: a string is required");
  if (j["suite"].get<std::string>() != suite)
    fail(f, "is the summary of suite '" + num::excerpt(j["suite"].get<std::string>(), 100) + "', not of '" + suite + "'");
  std::map<std::string, std::string> seen;
  for (const auto& c : j["checks"]) {
    if (!c.is_object() || !c.contains("entry") || !c["entry"].is_string()) fail(f, "checks[].entry: a string is required");
    if (!c.contains("counts") || !c["counts"].is_object()) fail(f, "checks[].counts: an object is required");
    if (!c.contains("outcome") || !c["outcome"].is_string()) fail(f, "checks[].outcome: a string is required");
    std::string text = "last run:";
    bool first = true;
    for (const char* v : {"proved", "confirmed", "violated", "inconclusive", "error"}) {
      const auto& n = c["counts"].contains(v) ? c["counts"][v] : nlohmann::json();
      if (!n.is_number_unsigned()) fail(f, std::string("checks[].counts.") + v + ": a nonnegative integer is required");
      text += std::string(first ? " " : ", ") + std::to_string(n.get<std::uint64_t>()) + " " + v;
      first = false;
    }
    seen[c["entry"].get<std::string>()] = text + " — " + c["outcome"].get<std::string>();
  }
  std::size_t matched = 0;
  for (Claim& claim : l.claims)
    for (LedgerEntry& e : claim.entries) {
      if (e.suite != suite) continue;
      const auto it = seen.find(e.label);
      if (it != seen.end()) e.observed = it->second, ++matched;
    }
  if (matched == 0) fail(f, "checks: no entry of suite '" + suite + "' that the ledger cites");
}

std::string render_readme_section(const Ledger& l) {
  std::ostringstream o;
  o << kReadmeBegin << "\n## What softcert has established so far\n\n"
    << "Every statement carries its source: **[paper]** the paper as given by its abstract or its\n"
       "(Korean) seed summary, quoted in translation; **[code]** the authors' public notebook (github\n"
       "tml-epfl/softmax, `visualizations/toy_experiments.ipynb`, cells counted from 0; it stores no\n"
       "outputs, so what its figures show is our re-run); **[ours]** our reading, reconstruction or\n"
       "conjecture. A violation of an [ours] statement refutes our reading, never the paper. After each\n"
       "finding, the suite entries that decide it: `suite` › `label` (tier, horizon H, instances;\n"
       "\"expect refuted\" where a violation is expected) in `proofs_checks/suites/`; the ledger\n"
       "`proofs_checks/claims.toml` holds every claim with its quote and reading, `docs/claims.md`\n"
       "shows it, and each check's page in `docs/theorems/` quotes its sources. `proved` comes from the\n"
       "rigorous tier only, at the horizon its entry gives (or for all t where a lemma says so); a\n"
       "`fast` entry can only confirm.\n";
  auto group = [&](const char* title, auto pick) {
    bool any = false;
    for (const Claim& c : l.claims) {
      if (!pick(c)) continue;
      if (!any) o << "\n### " << title << "\n\n";
      any = true;
      std::string item;
      if (c.status == "checked") {
        item = c.finding + " — " + entries_text(c) + "; " + near_miss_text(c);
        if (!c.docs.empty()) item += "; " + docs_text(c);
        item += ". (" + c.id + ")";
      } else {
        item = source_tag(c) + " " + c.paper + ", " + c.where;
        if (!c.quote.empty()) item += ": " + quote_text(c);
        item += std::string(" — ") + (c.status == "unchecked" ? "not checked yet: " : "out of scope: ") + c.reason +
                " (" + c.id + ")";
      }
      o << list_item(item);
    }
  };
  group("The papers' claims", [](const Claim& c) { return c.status == "checked" && c.source != "ours"; });
  group("Our readings and conjectures", [](const Claim& c) { return c.status == "checked" && c.source == "ours"; });
  group("Not checked", [](const Claim& c) { return c.status != "checked"; });
  o << "\n" << kReadmeEnd << "\n";
  return o.str();
}

std::string render_docs_page(const Ledger& l) {
  std::ostringstream o;
  o << "# The claims ledger\n\n"
    << "Generated by `softcert claims proofs_checks/claims.toml --docs docs/claims.md` from\n"
       "`proofs_checks/claims.toml`; edit the ledger, not this page. Every claim of the sources —\n"
       "the seed summaries (Korean, quoted in translation) and abstracts **[paper]**, the authors'\n"
       "notebook **[code]** — and every reading of ours **[ours]**, with the suite entries that decide\n"
       "it or why it is not checked. A suite entry is `suite` › `label` in `proofs_checks/suites/`.\n";
  std::size_t checked = 0, unchecked = 0, out = 0;
  for (const Claim& c : l.claims) (c.status == "checked" ? checked : c.status == "unchecked" ? unchecked : out)++;
  o << "\n" << l.claims.size() << " claims: " << checked << " checked, " << unchecked << " not checked yet, " << out
    << " out of scope.\n";
  for (const Claim& c : l.claims) {
    o << "\n## " << c.id << "\n\n";
    o << "- **Source** " << source_tag(c) << " " << c.paper << ", " << c.where << "\n";
    if (!c.quote.empty()) o << "- **Quote** " << quote_text(c) << "\n";
    if (!c.reading.empty()) o << "- **Reading checked** " << c.reading << "\n";
    o << "- **Status** " << c.status << "\n";
    if (c.status == "checked") {
      o << "- **Finding** " << c.finding << "\n";
      o << "- **Suite entries**\n";
      for (const auto& e : c.entries) o << "  - " << entry_text(e) << ", check `" << e.check << "`\n";
      if (c.near_misses.empty()) o << "- **Near misses** none: cannot fail as checked\n";
      else o << "- **Near misses**\n";
      for (const auto& e : c.near_misses) o << "  - " << entry_text(e) << ", check `" << e.check << "`\n";
    } else {
      o << "- **Why** " << c.reason << "\n";
    }
    if (!c.docs.empty()) o << "- **Docs** " << docs_text(c) << "\n";
  }
  return o.str();
}

std::string splice_readme(const std::string& text, const std::string& section, const std::string& what) {
  // The generated section holds each marker once, at its ends: a ledger string holding a marker
  // would make the next run splice at the wrong place, and the README would grow every run.
  if (section.find(kReadmeBegin, 1) != std::string::npos || section.find(kReadmeEnd) != section.rfind(kReadmeEnd))
    fail(what, std::string("the ledger's text holds the marker '") + kReadmeBegin + "' or '" + kReadmeEnd +
                   "'; a claim may not contain it");
  const auto b = text.find(kReadmeBegin);
  if (b == std::string::npos || (b != 0 && text[b - 1] != '\n'))
    fail(what, std::string("no line '") + kReadmeBegin + "'");
  const auto e = text.find(kReadmeEnd, b);
  if (e == std::string::npos) fail(what, std::string("no line '") + kReadmeEnd + "' after the begin marker");
  auto end = text.find('\n', e);
  end = end == std::string::npos ? text.size() : end + 1;
  return text.substr(0, b) + section + text.substr(end);
}

}  // namespace softcert::cli
