// softcert reproduce NAME [--out DIR] [--format png|svg] [--jobs J] [--quiet]
// softcert reproduce --list
// Runs one paper experiment (src/reproduce/) and writes its CSV, figures, numbers.json and
// summary.md into DIR (default out/reproduce/NAME), then prints the summary and the files.
// Exit: 0 written; 2 bad usage (unknown NAME, unwritable --out, a bad --set) or a failed write
// (a full disk: nothing of the set is left in DIR);
// 3 a rigorous computation the experiment needs could not be validated (nothing written).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>

#include "cli/commands.hpp"
#include "cli/run_options.hpp"
#include "engine/journal.hpp"
#include "support/cpu_cap.hpp"
#include "support/step_progress.hpp"
#include "report/step_progress_lines.hpp"
#include "reproduce/output.hpp"
#include "reproduce/registry.hpp"
#include "reproduce/settings.hpp"
#include "numerics/quote.hpp"

namespace softcert::cli {

namespace {

namespace fs = std::filesystem;

struct ReproduceArgs {
  std::string name, out, format = "png";
  std::vector<std::string> settings;
  unsigned jobs = 2;
  bool jobs_given = false;  // --jobs J given: also the most cores the run uses (support/cpu_cap.hpp)
  bool list = false, quiet = false;
};

void print_list() {
  for (const auto& e : reproduce::experiments()) {
    std::cout << e.name << "\n  paper:  " << e.paper << "\n  source: " << e.source << "\n  writes: " << e.summary << "\n";
    if (!e.settings.empty()) {
      std::cout << "  --set:  ";
      for (std::size_t i = 0; i < e.settings.size(); ++i) std::cout << (i ? ", " : "") << e.settings[i];
      std::cout << "\n";
    }
  }
}

std::string known_names() {
  std::string s;
  for (const auto& e : reproduce::experiments()) s += (s.empty() ? "" : ", ") + e.name;
  return s;
}

// --out can be made: it is a directory already, or its nearest existing ancestor is a directory
// this process may write into. Creates nothing; throws UsageError naming --out.
void check_output_dir_possible(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec)) throw UsageError("--out: " + dir.string() + " exists and is not a directory");
    if (::access(dir.c_str(), W_OK | X_OK) != 0) throw UsageError("--out: cannot write into " + dir.string());
    return;
  }
  fs::path ancestor = fs::absolute(dir, ec).parent_path();
  while (!ancestor.empty() && !fs::exists(ancestor, ec) && ancestor != ancestor.parent_path()) ancestor = ancestor.parent_path();
  if (!fs::is_directory(ancestor, ec))
    throw UsageError("--out: cannot create " + dir.string() + ": " + ancestor.string() + " is not a directory");
  if (::access(ancestor.c_str(), W_OK | X_OK) != 0)
    throw UsageError("--out: cannot create " + dir.string() + ": " + ancestor.string() + " is not writable");
}

int run(const ReproduceArgs& args) {
  if (args.list) {
    if (!args.name.empty()) throw UsageError("reproduce: give an experiment NAME or --list, not both");
    print_list();
    return 0;
  }
  if (args.name.empty()) throw UsageError("reproduce: give an experiment NAME (known: " + known_names() + ") or --list");
  const reproduce::Experiment* e = reproduce::find_experiment(args.name);
  if (!e) throw UsageError("reproduce: unknown experiment " + num::quoted(args.name) + " (known: " + known_names() + ")");
  if (args.jobs == 0) throw UsageError("--jobs: must be at least 1");
  nlohmann::json settings;
  try {
    settings = reproduce::parse_settings(*e, args.settings);
  } catch (const std::invalid_argument& err) {
    throw UsageError(err.what());
  }
  const fs::path out = args.out.empty() ? fs::path("out") / "reproduce" / e->name : fs::path(args.out);
  // Nothing is created before every option is known good (`--out a/b/c --set points=0` must not
  // leave a/b behind): the experiment checks its --set values when it starts, so --out is only
  // checked here and created once the run has succeeded.
  check_output_dir_possible(out);
  // One run at a time per directory (engine::OutDirLock, as for suites): two runs into one --out
  // mixed their files. An existing directory is locked now, so a second run is refused before it
  // computes; a new one once it is created, after the run.
  std::optional<engine::OutDirLock> lock;
  {
    std::error_code ec;
    try {
      if (fs::is_directory(fs::symlink_status(out, ec))) lock.emplace(out);
    } catch (const std::invalid_argument& err) {
      throw UsageError(err.what());
    }
  }

  reproduce::RunContext ctx;
  ctx.settings = settings;
  ctx.jobs = args.jobs;
  const bool quiet = args.quiet;
  ctx.progress = [quiet](const std::string& line) {
    static std::mutex m;  // experiments report from their worker threads
    const std::lock_guard<std::mutex> lock(m);
    if (!quiet) std::cerr << "reproduce: " << line << "\n";
  };
  // The experiments' validated runs say how far they are (as in `softcert check`): the rigorous
  // regression figure runs for minutes.
  std::optional<support::StepProgressScope> steps;
  if (!quiet) steps.emplace(report::StepProgressLines("reproduce: " + e->name, std::chrono::seconds(10), std::chrono::seconds(30)));
  // Given --jobs J, at most J cores: this thread holds one while the experiment runs, and so does
  // each thread of its pools (reproduce/parallel.hpp); the runs' own threads take what is left.
  std::optional<support::CpuCap> cap;
  std::optional<support::CpuSlot> this_core;
  if (args.jobs_given) {
    cap.emplace(args.jobs);
    this_core.emplace(support::CpuSlot::worker());
  }
  const auto start = std::chrono::steady_clock::now();
  reproduce::ExperimentResult result;
  try {
    result = e->run(ctx);
  } catch (const std::invalid_argument& err) {
    throw UsageError(e->name + ": " + err.what());
  } catch (const reproduce::ExperimentFailure& err) {
    std::cerr << "softcert reproduce: " << e->name << ": " << err.what() << " (nothing written)\n";
    return 3;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // The outermost directory this run creates (--out a/b/c may create a/b too): removed if the
  // write fails.
  fs::path created_top;
  {
    std::error_code ec;
    for (fs::path p = fs::absolute(out, ec); !p.empty() && !fs::exists(fs::symlink_status(p, ec)) && p != p.parent_path();
         p = p.parent_path())
      created_top = p;
  }
  bool created = false;
  try {
    created = reproduce::prepare_output_dir(out);
    if (!lock) lock.emplace(out);
  } catch (const std::invalid_argument& err) {
    throw UsageError(err.what());
  }
  const auto format = args.format == "svg" ? report::plots::Format::svg : report::plots::Format::png;
  reproduce::Written w;
  try {  // the whole set or nothing (a full disk truncated a PNG, or left part of the set)
    w = reproduce::write_result_staged(*e, result, out, format, settings, seconds);
  } catch (const engine::WriteError&) {
    if (created && !created_top.empty()) {  // directories this run made hold nothing of use
      std::error_code ec;
      lock.reset();
      fs::remove_all(created_top, ec);
    }
    throw;
  }
  std::cout << result.summary << "\n";
  for (const auto& note : w.notes) std::cout << note << "\n";
  std::cout << e->name << ": " << std::fixed << std::setprecision(1) << seconds << " s; wrote " << w.files.size()
            << " files into " << out.string() << ":\n";
  for (const auto& f : w.files) std::cout << "  " << f.string() << "\n";
  return 0;
}

}  // namespace

void add_reproduce_command(CLI::App& app, int& exit_status) {
  auto args = std::make_shared<ReproduceArgs>();
  auto* cmd = app.add_subcommand("reproduce", "run a paper experiment: figures, CSV and the numbers (--list names them)");
  cmd->add_option("name", args->name, "the experiment (softcert reproduce --list)");
  cmd->add_flag("--list", args->list, "name every experiment with its paper source");
  cmd->add_option("--out", args->out, "output directory (default out/reproduce/NAME)")->check(nonempty_path());
  cmd->add_option("--format", args->format, "figure format: png or svg")->check(CLI::IsMember({"png", "svg"}));
  auto* jobs = cmd->add_option("--jobs", args->jobs, "threads for experiments made of independent runs (default 2); given, also the most cores the run uses");
  cmd->add_flag("--quiet", args->quiet, "no progress lines on stderr");
  // Settings per experiment: `reproduce --list` names each experiment's keys (docs/cli.md).
  cmd->add_option("--set", args->settings,
                  "KEY=VALUE experiment setting, repeatable (e.g. --set rigorous=1, --set points=400); "
                  "reproduce --list names each experiment's keys");
  cmd->callback([args, jobs, &exit_status]() {
    args->jobs_given = jobs->count() > 0;
    exit_status = run(*args);
  });
}

}  // namespace softcert::cli
