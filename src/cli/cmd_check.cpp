// softcert check NAME [--instance FILE | --instances N --seed S] ...: one check, one report.
#include <chrono>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>

#include "cli/commands.hpp"
#include "cli/interrupt_notice.hpp"
#include "cli/run_options.hpp"
#include "engine/registry.hpp"
#include "support/step_progress.hpp"
#include "numerics/quote.hpp"
#include "report/step_progress_lines.hpp"

namespace softcert::cli {

namespace {
struct CheckArgs {
  std::string name;
  std::vector<std::string> instance_files;
  std::size_t instances = 0;
  std::uint64_t seed = 1;
  std::string tier = "rigorous", expect = "holds", json_out, shard = "1/1", certificate_dir, out;
  unsigned precision = 0, jobs = 1;
  double horizon = 0;
  std::vector<std::string> params, drops;
  bool quiet = false, resume = false;
};
}  // namespace

void add_check_command(CLI::App& app, int& exit_status) {
  auto args = std::make_shared<CheckArgs>();
  auto* cmd = app.add_subcommand("check", "run one theorem check on instances");
  cmd->add_option("name", args->name, "check name (softcert list)")->required();
  cmd->add_option("--instance", args->instance_files, "instance file (JSON); repeatable")->check(CLI::ExistingFile);
  cmd->add_option("--instances", args->instances, "number of random instances from the check's generator")
      ->transform(integer_in(0, engine::kMaxInstances));
  cmd->add_option("--seed", args->seed, "seed of the random instances")
      ->transform(integer_in(0, std::numeric_limits<std::uint64_t>::max()));
  cmd->add_option("--tier", args->tier, "fast or rigorous")->check(CLI::IsMember({"fast", "rigorous"}));
  cmd->add_option("--precision", args->precision, "working precision in bits (53 to 65536; at most 4096 in the rigorous tier)")
      ->transform(integer_in(53, 65536))
      ->default_str("the check's");
  auto* horizon = cmd->add_option("--horizon", args->horizon, "time horizon of the claim (a positive number)")
                      ->default_str("the check's");
  auto* jobs = cmd->add_option("--jobs,-j", args->jobs,
                               "worker threads; given, also the cores the run uses at most (a check's own threads included)")
                   ->check(CLI::Range(1u, 1024u));
  cmd->add_option("--json", args->json_out, "write one JSON line per result here")->check(nonempty_path());
  cmd->add_option("--out", args->out,
                  "write results.jsonl (as each result finishes), summary.json, junit.xml, manifest.json and the "
                  "reports here, as suite --out does")
      ->check(nonempty_path());
  cmd->add_flag("--resume", args->resume, "with --out DIR: continue an interrupted run, recomputing nothing finished");
  cmd->add_option("--certificate", args->certificate_dir,
                  "write a certificate of each proved result into this folder, where the check writes one "
                  "(docs/certificates.md; softcert-verify DIR re-checks them)")
      ->check(nonempty_path());
  cmd->add_option("--param", args->params, "check parameter key=value (JSON value); repeatable");
  cmd->add_option("--drop", args->drops,
                  "drop a hypothesis (softcert list NAME names them): the generator need not satisfy it and it is not "
                  "tested on the instances; repeatable");
  cmd->add_option("--expect", args->expect, "holds or refuted")->check(CLI::IsMember({"holds", "refuted"}));
  cmd->add_option("--shard", args->shard, "run only shard K of N");
  cmd->add_flag("--quiet,-q", args->quiet, "no progress output");
  cmd->callback([args, horizon, jobs, &exit_status]() {
    const engine::Check* check = engine::CheckRegistry::global().find(args->name);
    if (!check) throw UsageError(engine::CheckRegistry::global().unknown(args->name) + " (softcert list shows them)");
    if (args->instance_files.empty() && args->instances == 0)
      throw UsageError("give --instance FILE or --instances N");
    if (horizon->count() > 0) check_horizon(args->horizon);
    engine::SuiteEntry e;
    e.check = args->name;
    e.instances = args->instances;
    for (const auto& f : args->instance_files) e.instance_files.push_back(std::filesystem::absolute(f));
    if (const std::string p = engine::duplicate_instance_file(e); !p.empty()) throw UsageError("--instance: " + p);
    e.expect = engine::expectation_from_string(args->expect);
    e.options.tier = args->tier == "fast" ? engine::Tier::fast : engine::Tier::rigorous;
    e.options.precision_bits = args->precision;
    if (const std::string p = engine::precision_problem(e.options.tier, args->precision); !p.empty())
      throw UsageError("--precision: " + p);
    if (horizon->count() > 0) e.options.horizon = args->horizon;
    for (const auto& p : args->params) add_param(e.options.params, p);
    if (const std::string p = engine::unknown_param_problem(*check, e.options.params); !p.empty())
      throw UsageError("--param: " + p);
    e.generate.params = e.options.params;
    for (const auto& d : args->drops) {
      if (const std::string p = engine::unknown_hypothesis_problem(*check, d); !p.empty()) throw UsageError("--drop: " + p);
      e.generate.dropped.insert(d);  // neither generated nor tested on the instances (docs/verdicts.md)
    }
    engine::RunSettings settings;
    settings.jobs = args->jobs;
    if (jobs->count() > 0) settings.cpu_cap = args->jobs;  // support/cpu_cap.hpp
    settings.shard = parse_shard(args->shard);
    settings.bad_file_is_usage_error = true;  // an --instance file given here: exit 2 (docs/verdicts.md)
    settings.generated_refusal_is_usage_error = true;  // bad --param / --horizon values: exit 2, as in search
    if (!args->json_out.empty()) settings.json_lines = args->json_out;
    if (!args->out.empty()) settings.out_dir = args->out;
    if (args->resume && args->out.empty()) throw UsageError("--resume needs --out DIR");
    settings.resume = args->resume;
    if (!args->certificate_dir.empty()) settings.certificates = args->certificate_dir;
    const engine::Suite suite = engine::single_check_suite(std::move(e), args->seed);
    if (const std::string p = engine::generator_settings_problem(suite, 0); !p.empty())
      throw UsageError("--param: " + num::excerpt(p, 300));
    // A check runs one instance for minutes or hours (the authors' regression claim, the tied
    // model at D = 50): its validated runs say how far they are, after 10 s and every 30 s.
    std::optional<support::StepProgressScope> steps;
    if (!args->quiet)
      steps.emplace(report::StepProgressLines("softcert check " + args->name, std::chrono::seconds(10), std::chrono::seconds(30)));
    set_interrupt_notice(run_interrupt_notice(args->out));
    exit_status = execute_run(suite, settings, command_line(), args->quiet);
  });
}

}  // namespace softcert::cli
