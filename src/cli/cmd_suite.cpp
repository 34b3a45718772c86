// softcert suite FILE.toml [--out DIR] [--jobs J] [--shard K/N] [--resume]: a whole suite
// (also under mpirun -n N: see cli/mpi_suite.hpp).
#include <filesystem>
#include <memory>

#include "cli/commands.hpp"
#include "cli/mpi_session.hpp"
#include "cli/mpi_suite.hpp"
#include "cli/run_options.hpp"

namespace softcert::cli {

namespace {
struct SuiteArgs {
  std::string file, out, shard = "1/1";
  unsigned jobs = 1;
  bool resume = false, quiet = false, certificates = false;
};
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
    if (jobs->count() > 0) settings.cpu_cap = args->jobs;  // integrate/cpu_cap.hpp
    settings.shard = parse_shard(args->shard);
    settings.resume = args->resume;
    if (!args->out.empty()) settings.out_dir = args->out;
    if (args->certificates) {
      if (args->out.empty()) throw UsageError("--certificates needs --out DIR");
      if (mpi::launched_by_mpi()) throw UsageError("--certificates: not under mpirun (run the suite without it)");
      settings.certificates = std::filesystem::path(args->out) / "certificates";
    }
    // Under mpirun the ranks share the plan and rank 0 writes the one report (cli/mpi_suite.hpp).
    exit_status = mpi::launched_by_mpi() ? execute_mpi_run(suite, settings, command_line(), args->quiet)
                                         : execute_run(suite, settings, command_line(), args->quiet);
  });
}

}  // namespace softcert::cli
