#include "engine/suite.hpp"

#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include <toml++/toml.h>

#include "support/input_file.hpp"
#include "engine/registry.hpp"
#include "engine/runner.hpp"
#include "numerics/quote.hpp"

namespace softcert::engine {
namespace {

// A TOML integer, or nothing: toml++'s value<int64_t>() also converts a float (3.4e27 → long is
// undefined behaviour, found by fuzz_suite), so only integer nodes count.
std::optional<std::int64_t> integer_of(const toml::node* n) {
  if (n == nullptr || !n->is_integer()) return std::nullopt;
  return n->as_integer()->get();
}

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw std::invalid_argument(where + ": " + what);
}

void reject_unknown_keys(const toml::table& t, const std::set<std::string>& known, const std::string& where) {
  for (const auto& [k, v] : t)
    if (!known.count(std::string(k.str()))) fail(where, "unknown key " + num::quoted(std::string(k.str())));
}

// TOML value → JSON value (for check-specific params).
nlohmann::json to_json(const toml::node& n, const std::string& where) {
  if (auto v = n.as_integer()) return v->get();
  if (auto v = n.as_floating_point()) return v->get();
  if (auto v = n.as_string()) return v->get();
  if (auto v = n.as_boolean()) return v->get();
  if (auto a = n.as_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& e : *a) out.push_back(to_json(e, where));
    return out;
  }
  if (auto t = n.as_table()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [k, v] : *t) out[std::string(k.str())] = to_json(v, where);
    return out;
  }
  fail(where, "unsupported TOML value type in params");
}

Tier tier_from(const std::string& s, const std::string& where) {
  if (s == "fast") return Tier::fast;
  if (s == "rigorous") return Tier::rigorous;
  fail(where, "tier must be \"fast\" or \"rigorous\", not " + num::quoted(s));
}

double fraction(const toml::node& n, const std::string& where) {
  double v;
  if (auto f = n.as_floating_point()) v = f->get();
  else if (auto i = n.as_integer()) v = static_cast<double>(i->get());
  else fail(where, "must be a number in [0, 1]");
  if (!(v >= 0 && v <= 1)) fail(where, "must be a number in [0, 1]");
  return v;
}

// "" for a usable name or label, else why not: reports (report.md, CSVs, JUnit) quote it, so no
// control character (a raw NUL, a newline, an escape) and at most 200 characters.
std::string label_problem(const std::string& text) {
  for (const char c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F)
      return "contains a control character (" + num::quoted(text) + "): not allowed in names that reports show";
  if (text.size() > 200) return "longer than 200 bytes (" + num::quoted(text) + ")";
  if (!num::is_utf8(text)) return "is not valid UTF-8 (" + num::quoted(text) + "): reports and records are UTF-8";
  return "";
}

// "" when the last entry's instances have result keys (check and instance id) of their own, else
// why not. Labels may hold '/' and '#', so "a/b" + "/x.json" and "a" + "/b/x.json", or a file
// named like a generated instance ("L#0"), would share a key with another slot.
std::string shared_key_problem(const Suite& s) {
  const SuiteEntry& last = s.entries.back();
  std::set<std::string> generated_labels;  // of the same check
  for (const SuiteEntry& e : s.entries)
    if (e.check == last.check) generated_labels.insert(e.label);
  const auto generated = [&s, &last](const std::string& id) {
    const auto hash = id.rfind('#');
    if (hash == std::string::npos || hash + 1 == id.size()) return false;
    const std::string label = id.substr(0, hash), index = id.substr(hash + 1);
    if (index.find_first_not_of("0123456789") != std::string::npos || index.size() > 7) return false;
    for (const SuiteEntry& e : s.entries)
      if (e.check == last.check && e.label == label && std::stoul(index) < e.instances) return true;
    return false;
  };
  std::set<std::string> ids;
  for (const SuiteEntry& e : s.entries) {
    if (e.check != last.check) continue;
    for (const auto& f : e.instance_files) {
      const std::string name = instance_file_name(s, f);
      const std::string id = e.label == e.check ? name : e.label + "/" + name;
      if (!ids.insert(id).second || generated(id))
        return "instance file " + num::excerpt(f.string(), 200) + " would be the instance " + num::quoted(id) +
               " of " + num::quoted(last.check) + " a second time (the id another entry's instance has): give the "
               "entry another label or the file another name";
    }
  }
  return "";
}

}  // namespace

Suite load_suite(const std::filesystem::path& file) {
  const std::string f = file.string();
  toml::table root;
  // A regular file only, size-capped, stopped at a NUL (support/input_file.hpp): toml++'s own
  // parse_file read /dev/zero without end.
  const std::string text = support::read_input_file(file);
  try {
    root = toml::parse(text, f);
  } catch (const toml::parse_error& e) {
    std::ostringstream msg;
    msg << e.description() << " (line " << e.source().begin.line << ")";
    fail(f, msg.str());
  }
  reject_unknown_keys(root, {"name", "seed", "description", "defaults", "check"}, f);
  Suite s;
  s.source = std::filesystem::absolute(file);
  // The manifest names the suite file by this path (a file name given in UTF-8 can still sit in a
  // directory whose name is not)
  if (!num::is_utf8(s.source.string()))
    fail(num::excerpt(f, 200), "its path " + num::quoted(s.source.string()) + " is not valid UTF-8: the run's manifest "
         "and reports are UTF-8 (rename the directory)");
  s.name = file.stem().string();
  if (const toml::node* name = root.get("name")) {  // (`name = 5` is refused, not taken as the file's stem)
    if (!name->is_string()) fail(f, "name must be a string");
    s.name = name->as_string()->get();
    if (const std::string p = label_problem(s.name); !p.empty()) fail(f, "name: " + p);
  }
  if (auto seed = root["seed"]) {
    auto v = integer_of(seed.node());
    if (!v || *v < 0) fail(f, "seed must be a nonnegative integer");
    s.seed = static_cast<std::uint64_t>(*v);
  }
  const toml::table* defaults = root["defaults"].as_table();
  if (root["defaults"] && !defaults) fail(f, "defaults must be a table");
  const auto* checks = root["check"].as_array();
  if (!checks || checks->empty()) fail(f, "needs at least one [[check]]");

  const std::set<std::string> keys = {"name", "label", "instances", "instance_files", "expect", "max_inconclusive",
                                      "tier", "precision", "horizon", "params", "drop", "python"};
  if (defaults) reject_unknown_keys(*defaults, keys, f + ": [defaults]");
  std::size_t i = 0, planned = 0;
  for (const auto& node : *checks) {
    const std::string where = f + ": check #" + std::to_string(++i);
    const auto* t = node.as_table();
    if (!t) fail(where, "must be a table");
    reject_unknown_keys(*t, keys, where);
    // A key from the entry, else from [defaults].
    auto get = [&](const char* key) -> const toml::node* {
      if (auto* n = t->get(key)) return n;
      return defaults ? defaults->get(key) : nullptr;
    };
    SuiteEntry e;
    const auto* name = t->get("name");
    if (!name || !name->is_string()) fail(where, "name (a string) is required");
    e.check = name->as_string()->get();
    // A claim stated in Python (softcert.Check): python = "module:attribute" names where it is
    // defined; softcert.suite() imports it before this file is read, the CLI cannot.
    if (const auto* py = t->get("python")) {
      if (!py->is_string() || py->as_string()->get().find(':') == std::string::npos)
        fail(where, "python must be a string \"module:attribute\"");
      if (!CheckRegistry::global().find(e.check))
        fail(where, "check " + num::quoted(e.check) + " is a claim stated in Python (python = " +
                        num::quoted(py->as_string()->get()) + "): run this suite from Python, softcert.suite(FILE)");
    }
    if (!CheckRegistry::global().find(e.check)) fail(where, CheckRegistry::global().unknown(e.check) + " (see softcert list)");
    e.label = e.check;
    if (const auto* label = t->get("label")) {
      if (!label->is_string() || label->as_string()->get().empty()) fail(where, "label must be a nonempty string");
      e.label = label->as_string()->get();
      if (const std::string p = label_problem(e.label); !p.empty()) fail(where, "label: " + p);
    }
    for (const auto& other : s.entries)
      if (other.label == e.label)
        fail(where, "two entries are both called " + num::quoted(e.label) + ": give one a distinct label = \"...\"");
    const std::string w = where + " (" + num::excerpt(e.label) + ")";
    if (auto* n = get("instances")) {
      auto v = integer_of(n);
      if (!v || *v < 0 || static_cast<std::uint64_t>(*v) > kMaxInstances)
        fail(w, "instances must be an integer in [0, " + std::to_string(kMaxInstances) + "]");
      e.instances = static_cast<std::size_t>(*v);
    }
    if (auto* n = get("instance_files")) {
      const auto* a = n->as_array();
      if (!a) fail(w, "instance_files must be an array of paths");
      for (const auto& p : *a) {
        if (!p.is_string()) fail(w, "instance_files must be an array of paths");
        std::filesystem::path path = p.as_string()->get();
        if (path.is_relative()) path = s.source.parent_path() / path;
        // (error_code: a symlink loop made the throwing form an "internal error")
        std::error_code ec;
        const bool present = std::filesystem::exists(path, ec);
        if (ec) fail(w, "instance file " + num::excerpt(path.string(), 200) + ": " + ec.message());
        if (!present) fail(w, "instance file not found: " + num::excerpt(path.string(), 200));
        // The file's name (its path from the suite's directory) becomes the instance id that
        // reports and CSVs show.
        if (const std::string p = label_problem(instance_file_name(s, path)); !p.empty())
          fail(w, "instance file name: " + p);
        e.instance_files.push_back(path.lexically_normal());
      }
      if (const std::string p = duplicate_instance_file(e); !p.empty()) fail(w, p);
    }
    if (e.instances == 0 && e.instance_files.empty()) fail(w, "needs instances > 0 or instance_files");
    if (auto* n = get("expect")) {
      if (!n->is_string()) fail(w, "expect must be \"holds\" or \"refuted\"");
      try {
        e.expect = expectation_from_string(n->as_string()->get());
      } catch (const std::invalid_argument& x) {
        fail(w, x.what());
      }
    }
    if (auto* n = get("max_inconclusive")) e.max_inconclusive = fraction(*n, w + ": max_inconclusive");
    if (auto* n = get("tier")) {
      if (!n->is_string()) fail(w, "tier must be a string");
      e.options.tier = tier_from(n->as_string()->get(), w);
    }
    if (auto* n = get("precision")) {
      auto v = integer_of(n);
      if (!v || *v < 53 || *v > 65536) fail(w, "precision must be an integer number of bits in [53, 65536]");
      e.options.precision_bits = static_cast<unsigned>(*v);
    }
    if (const std::string p = precision_problem(e.options.tier, e.options.precision_bits); !p.empty())
      fail(w, "precision: " + p);
    if (auto* n = get("horizon")) {
      auto v = n->value<double>();
      if (!v || !(*v > 0) || !std::isfinite(*v)) fail(w, "horizon must be a positive number");
      e.options.horizon = *v;
    }
    if (auto* n = get("params")) {
      if (!n->is_table()) fail(w, "params must be a table");
      e.options.params = to_json(*n, w);
      if (const std::string p = unknown_param_problem(*CheckRegistry::global().find(e.check), e.options.params);
          !p.empty())
        fail(w, "params: " + p);
      e.generate.params = e.options.params;
    }
    if (auto* n = get("drop")) {
      const auto* a = n->as_array();
      if (!a) fail(w, "drop must be an array of hypothesis names");
      const Check& check = *CheckRegistry::global().find(e.check);
      for (const auto& h : *a) {
        if (!h.is_string()) fail(w, "drop must be an array of hypothesis names");
        const std::string name_h = h.as_string()->get();
        if (const std::string p = unknown_hypothesis_problem(check, name_h); !p.empty()) fail(w, "drop: " + p);
        e.generate.dropped.insert(name_h);
      }
    }
    // The cap on a whole run's plan, checked before plan() allocates anything (100 entries of
    // 10⁶ instances each would take > 2 GB while planning).
    planned += e.instances + e.instance_files.size();
    if (planned > kMaxPlannedInstances)
      fail(w, "instances: the suite plans " + std::to_string(planned) + " instances up to this entry, more than the " +
                  std::to_string(kMaxPlannedInstances) + " a run may hold (docs/cli.md, \"Limits\"): split the suite");
    s.entries.push_back(std::move(e));
    if (const std::string p = shared_key_problem(s); !p.empty()) fail(w, p);
    // The entry's params must suit its generator (else `T = -3` would give one error record per
    // instance), checked as `check` and `search` check --param.
    if (const std::string p = generator_settings_problem(s, s.entries.size() - 1); !p.empty())
      fail(w, "params: " + num::excerpt(p, 300));
  }
  return s;
}

std::string instance_file_name(const Suite& suite, const std::filesystem::path& file) {
  const std::filesystem::path f = file.lexically_normal();
  if (!f.is_absolute()) return f.generic_string();
  std::error_code ec;
  const std::filesystem::path base =
      (suite.source.empty() ? std::filesystem::current_path(ec) : suite.source.parent_path()).lexically_normal();
  if (ec) return f.generic_string();
  const std::filesystem::path rel = f.lexically_relative(base);
  if (rel.empty()) return f.generic_string();
  // A suite names its files from its own directory (the same names on every machine); without a
  // suite file, a file outside the working directory keeps its absolute path.
  if (suite.source.empty() && *rel.begin() == "..") return f.generic_string();
  return rel.generic_string();
}

std::string duplicate_instance_file(const SuiteEntry& entry) {
  std::map<std::string, std::filesystem::path> seen;  // resolved path → as listed
  for (const auto& f : entry.instance_files) {
    std::error_code ec;
    std::filesystem::path resolved = std::filesystem::weakly_canonical(f, ec);
    if (ec) resolved = f.lexically_normal();
    const auto [it, fresh] = seen.emplace(resolved.string(), f);
    if (!fresh)
      return "instance file " + num::excerpt(f.string(), 200) + " is listed twice" +
             (it->second == f ? std::string() : " (also as " + num::excerpt(it->second.string(), 200) + ")") +
             ": each file is one instance, and its result has one slot";
  }
  return "";
}

Suite single_check_suite(SuiteEntry entry, std::uint64_t seed) {
  if (entry.label.empty()) entry.label = entry.check;
  Suite s;
  s.name = entry.check;
  s.seed = seed;
  s.entries.push_back(std::move(entry));
  return s;
}

}  // namespace softcert::engine
