// softcert suite FILE.toml [--out DIR] [--jobs J] [--shard K/N] [--resume] [--previous DIR]: a
// whole suite (also under mpirun -n N: see cli/mpi_suite.hpp).
#include <filesystem>
#include <memory>
#include <optional>

#include "cli/commands.hpp"
#include "cli/interrupt_notice.hpp"
#include "cli/mpi_session.hpp"
#include "cli/mpi_suite.hpp"
#include "cli/run_options.hpp"
#include "report/run_diff.hpp"

namespace softcert::cli {

namespace {
struct SuiteArgs {
  std::string file, out, shard = "1/1", previous;
  unsigned jobs = 1;
  bool resume = false, quiet = false, certificates = false;
};
namespace fs = std::filesystem;

bool same_place(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec);
}

// --previous PREV, read before the run starts, so that bad input stops it with exit 2 before
// anything is written, and so that PREV = --out DIR means the run this one moves aside.
report::RunRead read_previous(const SuiteArgs& args, const engine::Shard& shard) {
  if (args.out.empty()) throw UsageError("--previous needs --out DIR (the comparison is a section of DIR/report.md)");
  if (shard.count != 1)
    throw UsageError("--previous: not with --shard (a shard holds part of the run; compare the merged run with "
                     "softcert diff PREVIOUS MERGED)");
  if (mpi::launched_by_mpi()) throw UsageError("--previous: not under mpirun (compare the runs with softcert diff)");
  const fs::path out(args.out), prev(args.previous);
  if (args.resume && same_place(prev, out))
    throw UsageError("--previous: the same directory as --out with --resume (it holds this run, not an earlier one)");
  std::error_code ec;
  const bool out_holds_a_run = fs::exists(out / "results.jsonl", ec) || fs::exists(out / "summary.json", ec);
  if (!args.resume && out_holds_a_run && same_place(prev, out / "previous"))
    throw UsageError("--previous " + args.previous + ": this run first moves the run in " + args.out +
                     " there, replacing it; give --previous " + args.out + " to compare with that run");
  report::RunRead run;
  try {
    run = report::read_run(prev);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--previous: ") + e.what());
  }
  // The run in DIR is about to move to DIR/previous/: the reports name it where it will be.
  if (same_place(prev, out)) run.side.dir = (out / "previous").string();
  return run;
}

}  // namespace

void add_suite_command(CLI::App& app, int& exit_status) {
  auto args = std::make_shared<SuiteArgs>();
  auto* cmd = app.add_subcommand("suite", "run a suite of checks (TOML) against expected outcomes");
  cmd->add_option("file", args->file, "suite file (TOML)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--out", args->out, "write results.jsonl, summary.json, junit.xml, manifest.json here")->check(nonempty_path());
  auto* jobs = cmd->add_option("--jobs,-j", args->jobs,
                               "worker threads; given, also the cores the run uses at most (a check's own threads included)")
                   ->check(CLI::Range(1u, 1024u));
  cmd->add_option("--shard", args->shard, "run only shard K of N (merge with softcert merge)");
  cmd->add_flag("--resume", args->resume, "continue an interrupted run in --out, recomputing nothing finished");
  cmd->add_flag("--certificates", args->certificates,
                "with --out DIR: write a certificate of each proved record that has one into DIR/certificates "
                "(docs/certificates.md)");
  cmd->add_option("--previous", args->previous,
                  "with --out DIR: compare this run with an earlier run's --out directory (DIR itself: the run this "
                  "one moves aside) in report.md and report.html, regressions first (softcert diff's comparison)")
      ->check(nonempty_path());
  cmd->add_flag("--quiet,-q", args->quiet, "no progress output");
  cmd->callback([args, jobs, &exit_status]() {
    engine::Suite suite;
    try {
      suite = engine::load_suite(args->file);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    engine::RunSettings settings;
    settings.jobs = args->jobs;
    if (jobs->count() > 0) settings.cpu_cap = args->jobs;  // support/cpu_cap.hpp
    settings.shard = parse_shard(args->shard);
    settings.resume = args->resume;
    if (!args->out.empty()) settings.out_dir = args->out;
    if (args->certificates) {
      if (args->out.empty()) throw UsageError("--certificates needs --out DIR");
      if (mpi::launched_by_mpi()) throw UsageError("--certificates: not under mpirun (run the suite without it)");
      settings.certificates = std::filesystem::path(args->out) / "certificates";
    }
    std::optional<report::RunRead> previous;
    if (!args->previous.empty()) previous = read_previous(*args, settings.shard);
    if (!mpi::launched_by_mpi()) set_interrupt_notice(run_interrupt_notice(args->out));
    // Under mpirun the ranks share the plan and rank 0 writes the one report (cli/mpi_suite.hpp).
    exit_status = mpi::launched_by_mpi()
                      ? execute_mpi_run(suite, settings, command_line(), args->quiet)
                      : execute_run(suite, settings, command_line(), args->quiet, previous ? &*previous : nullptr);
  });
}

}  // namespace softcert::cli
