// softcert replay FILE.json: re-verify a counterexample from scratch, in the rigorous tier.
// FILE is a results.jsonl record with a "counterexample" (one line), or a counterexample file
// written by `softcert search` (same fields). Exit 0 only if the violation is reproduced
// rigorously; 1 if it is not (the file was edited, or the claim holds there); 2 bad input.
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "support/input_file.hpp"
#include "engine/registry.hpp"
#include "engine/replay.hpp"
#include "engine/verdict_policy.hpp"

namespace softcert::cli {

void add_replay_command(CLI::App& app, int& exit_status) {
  auto file = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("replay", "re-verify a saved counterexample rigorously (exit 0 iff reproduced)");
  cmd->add_option("file", *file, "a result record or counterexample file (JSON)")->required()->check(CLI::ExistingFile);
  cmd->callback([file, &exit_status]() {
    engine::ReplayRequest req;
    try {
      // A regular file only, size-capped, stopped at a NUL (support/input_file.hpp).
      req = engine::read_replay_record(support::read_input_file(*file), *file);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    const std::string name = req.check->name();
    engine::CheckResult r;
    try {
      r = engine::run_check(*req.check, req.instance, req.options);
    } catch (const std::invalid_argument& e) {
      throw UsageError(*file + ": counterexample: " + e.what());
    }
    std::cout << name << ": " << engine::to_string(r.verdict);
    if (!r.margin.empty()) std::cout << ", margin [" << r.margin.lower_text() << ", " << r.margin.upper_text() << "]";
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
