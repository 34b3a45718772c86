#include "engine/replay.hpp"

#include <cmath>
#include <stdexcept>

#include "engine/registry.hpp"
#include "numerics/quote.hpp"
#include "numerics/strict_json.hpp"

namespace softcert::engine {

ReplayRequest read_replay_record(const std::string& text, const std::string& where) {
  auto fail = [&where](const std::string& what) { throw std::invalid_argument(where + ": " + what); };
  if (text.empty()) fail("empty file (expected one JSON record with a \"counterexample\")");
  nlohmann::json rec;
  try {
    rec = num::parse_json_strict(text, where);  // no NUL, no duplicate key (std::invalid_argument)
  } catch (const nlohmann::json::exception&) {
    fail("not valid JSON (give one record, not a whole .jsonl file)");
  }
  if (!rec.is_object()) fail("not a JSON object (give one record, not a whole .jsonl file)");
  if (!rec.contains("check") || !rec["check"].is_string()) fail("no \"check\" field");
  if (!rec.contains("counterexample") || !rec["counterexample"].is_object())
    fail("no \"counterexample\" instance to replay");
  ReplayRequest req;
  const std::string name = rec["check"].get<std::string>();
  req.check = CheckRegistry::global().find(name);
  if (!req.check) fail(CheckRegistry::global().unknown(name));
  req.instance = rec["counterexample"];
  req.options.tier = Tier::rigorous;  // a replay is always rigorous, whatever found it
  if (rec.contains("precision_bits") && !rec["precision_bits"].is_null()) {
    const auto& p = rec["precision_bits"];
    if (!p.is_number_unsigned() || p.get<std::uint64_t>() > 65536) fail("precision_bits must be an integer in [0, 65536]");
    req.options.precision_bits = p.get<unsigned>();
    if (req.options.precision_bits != 0 && req.options.precision_bits < 53)
      fail("precision_bits must be 0 (the check's default) or at least 53, got " + std::to_string(req.options.precision_bits));
    if (const std::string problem = precision_problem(Tier::rigorous, req.options.precision_bits); !problem.empty())
      fail("precision_bits: " + problem);
  }
  if (rec.contains("horizon") && !rec["horizon"].is_null()) {
    const auto& h = rec["horizon"];
    if (!h.is_number() || !std::isfinite(h.get<double>()) || !(h.get<double>() > 0))
      fail("horizon must be a positive number");
    req.options.horizon = h.get<double>();
  }
  if (rec.contains("params") && !rec["params"].is_null()) {
    if (!rec["params"].is_object()) fail("params must be an object");
    req.options.params = rec["params"];
    if (const std::string problem = unknown_param_problem(*req.check, req.options.params); !problem.empty())
      fail("params: " + problem);
  }
  // The hypotheses the violation was found without (a suite entry's `drop`, `search --drop`):
  // the replay assumes only the others, as the run that found it did.
  if (rec.contains("dropped") && !rec["dropped"].is_null()) {
    const auto& d = rec["dropped"];
    if (!d.is_array()) fail("dropped must be an array of hypothesis names");
    for (const auto& h : d) {
      if (!h.is_string()) fail("dropped must be an array of hypothesis names");
      const std::string name_h = h.get<std::string>();
      if (const std::string problem = unknown_hypothesis_problem(*req.check, name_h); !problem.empty())
        fail("dropped: " + problem);
      req.options.dropped.insert(name_h);
    }
  }
  return req;
}

}  // namespace softcert::engine
