// softcert replay FILE.json: re-verify a counterexample from scratch, in the rigorous tier.
// FILE is a results.jsonl record with a "counterexample" (one line), or a counterexample file
// written by `softcert search` (same fields). Exit 0 only if the violation is reproduced
// rigorously; 1 if it is not (the file was edited, or the claim holds there); 2 bad input.
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "engine/registry.hpp"

namespace softcert::cli {

void add_replay_command(CLI::App& app, int& exit_status) {
  auto file = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("replay", "re-verify a saved counterexample rigorously (exit 0 iff reproduced)");
  cmd->add_option("file", *file, "a result record or counterexample file (JSON)")->required()->check(CLI::ExistingFile);
  cmd->callback([file, &exit_status]() {
    std::ifstream in(*file);
    nlohmann::json rec;
    try {
      rec = nlohmann::json::parse(in);
    } catch (const nlohmann::json::parse_error&) {
      throw UsageError(*file + ": not a JSON object (give one record, not a whole .jsonl file)");
    }
    if (!rec.is_object() || !rec.contains("check") || !rec["check"].is_string())
      throw UsageError(*file + ": no \"check\" field");
    if (!rec.contains("counterexample") || !rec["counterexample"].is_object())
      throw UsageError(*file + ": no \"counterexample\" instance to replay");
    const std::string name = rec["check"].get<std::string>();
    const engine::Check* check = engine::CheckRegistry::global().find(name);
    if (!check) throw UsageError(*file + ": no check named '" + name + "'");
    engine::CheckOptions opt;
    opt.tier = engine::Tier::rigorous;  // a replay is always rigorous, whatever found it
    if (rec.contains("precision_bits") && rec["precision_bits"].is_number_unsigned())
      opt.precision_bits = rec["precision_bits"].get<unsigned>();
    if (rec.contains("horizon") && rec["horizon"].is_number()) opt.horizon = rec["horizon"].get<double>();
    if (rec.contains("params") && rec["params"].is_object()) opt.params = rec["params"];
    engine::CheckResult r;
    try {
      r = check->run(rec["counterexample"], opt);
    } catch (const std::invalid_argument& e) {
      throw UsageError(*file + ": counterexample: " + e.what());
    }
    std::cout << name << ": " << engine::to_string(r.verdict);
    if (!r.margin_lower.empty()) std::cout << ", margin [" << r.margin_lower << ", " << r.margin_upper << "]";
    std::cout << "\n  " << r.reason << "\n";
    if (r.verdict == engine::Verdict::violated) {
      std::cout << "replay: the violation is reproduced rigorously\n";
      exit_status = 0;
    } else {
      std::cerr << "replay: NOT reproduced: the rigorous re-run says " << engine::to_string(r.verdict)
                << " — the file may have been altered, or the claim holds on this instance\n";
      exit_status = 1;
    }
  });
}

}  // namespace softcert::cli
