// softcert diff OLD NEW [--json FILE] [--time-factor F] [--margin-factor F]: tonight's suite run
// against last night's (two --out directories): outcome regressions, verdict changes, margins that
// moved or whose width changed, new and lost records, timings (report/run_diff.hpp). Exit 1 on a
// regression, 0 otherwise, 2 for bad input.
#include <cmath>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/run_options.hpp"
#include "engine/journal.hpp"
#include "report/run_diff.hpp"

namespace softcert::cli {

namespace {
struct DiffArgs {
  std::string old_dir, new_dir, json_out;
  report::DiffSettings settings;
};
}  // namespace

void add_diff_command(CLI::App& app, int& exit_status) {
  auto args = std::make_shared<DiffArgs>();
  auto* cmd = app.add_subcommand("diff", "compare two suite runs (--out directories): regressions, verdict changes, "
                                         "margins that moved, new and lost records (exit 1 on a regression)");
  cmd->add_option("old", args->old_dir, "the earlier run's --out directory (last night)")->required();
  cmd->add_option("new", args->new_dir, "the later run's --out directory (tonight)")->required();
  cmd->add_option("--json", args->json_out, "also write the comparison here, as JSON (softcert.diff/1)")->check(nonempty_path());
  cmd->add_option("--time-factor", args->settings.time_factor,
                  "list entries whose seconds moved by more than this factor (default 3; entries under 1 s in both runs "
                  "are not listed)");
  cmd->add_option("--margin-factor", args->settings.margin_factor,
                  "list certified margins (proved or violated in both runs) whose interval width grew or shrank by "
                  "more than this factor");
  cmd->callback([args, &exit_status]() {
    if (!(args->settings.time_factor >= 1) || !std::isfinite(args->settings.time_factor))
      throw UsageError("--time-factor must be a number >= 1");
    if (!(args->settings.margin_factor >= 1) || !std::isfinite(args->settings.margin_factor))
      throw UsageError("--margin-factor must be a number >= 1");
    report::RunDiff d;
    try {
      d = report::diff_runs(args->old_dir, args->new_dir, args->settings);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    std::cout << report::diff_text(d, args->settings);
    if (!args->json_out.empty()) engine::write_file_atomically(args->json_out, report::diff_json(d).dump(2) + "\n");
    exit_status = d.exit_status();
  });
}

}  // namespace softcert::cli
