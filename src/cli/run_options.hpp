#pragma once
// Options shared by `check` and `suite`, and the code that turns them into a run.
#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "engine/runner.hpp"
#include "report/run_diff.hpp"

namespace softcert::cli {

// For integer options (CLI::Option::transform): accepts only decimal digits with a value in
// [min, max] and rejects anything else with a message that says the range. (CLI11 alone reads
// an unsigned option with strtoull: "-1" and every value ≥ 2⁶⁴ become 2⁶⁴ − 1, "010" is octal.)
CLI::Validator integer_in(std::uint64_t min, std::uint64_t max);

// For output paths (--json, --out): an empty value is refused (else "--json \"\"" would exit 0
// having written nothing).
CLI::Validator nonempty_path();

// For --horizon: a positive finite number, checked when the option is given (0 or nan must not
// fall back silently to the check's default).
void check_horizon(double horizon);

// --shard K/N → Shard; throws UsageError.
engine::Shard parse_shard(const std::string& text);

// key=value → params[key] = value (JSON if it parses as JSON, else the string).
void add_param(nlohmann::json& params, const std::string& assignment);

// Runs, shows progress and the table, writes reports into settings.out_dir, and returns the
// exit status of docs/cli.md.
// `previous`: an earlier run to compare with in report.md / report.html (suite --previous).
int execute_run(const engine::Suite& suite, engine::RunSettings settings, const std::vector<std::string>& argv,
                bool quiet, const report::RunRead* previous = nullptr);

// The second half of execute_run: prints the table, writes the reports into
// settings.out_dir (results.jsonl is the runner's), returns the exit status. Also used by the
// MPI run (cli/mpi_suite.hpp) once rank 0 holds every record.
int report_run(const engine::Suite& suite, const engine::SuiteReport& report, const engine::RunSettings& settings,
               const std::vector<std::string>& argv, const report::RunRead* previous = nullptr);

// The process's command line, for manifests.
std::vector<std::string>& command_line();

}  // namespace softcert::cli
