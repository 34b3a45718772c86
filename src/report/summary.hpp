#pragma once
// What a run tells people and machines: the terminal table, summary.json, junit.xml,
// manifest.json (schemas in docs/reports.md).
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/runner.hpp"
#include "report/run_diff.hpp"

namespace softcert::report {

// checks × verdict counts, with the expectation and the outcome.
std::string verdict_table(const engine::SuiteReport& report);

// One line per result (up to `max_lines`): the instance, its verdict, the margin interval with
// what it means, and the reason — what a run decided, not only how often.
std::string instance_lines(const engine::SuiteReport& report, std::size_t max_lines = 50);

nlohmann::json summary_json(const engine::Suite& suite, const engine::SuiteReport& report);

// One <testcase> per check; <failure> for an unexpected outcome, also for too many
// inconclusive (so CI readers flag it); per-instance verdicts in <system-out>.
std::string junit_xml(const engine::Suite& suite, const engine::SuiteReport& report);

// version, commit, compiler, library versions, seeds, precision, command line, host.
nlohmann::json manifest_json(const engine::Suite& suite, const std::vector<std::string>& command_line,
                             const engine::Shard& shard = {});
// The same with "run": {"id", "identity"} (the report's, or computed for `shard`).
nlohmann::json manifest_json(const engine::Suite& suite, const engine::SuiteReport& report,
                             const std::vector<std::string>& command_line, const engine::Shard& shard);

// Writes summary.json, junit.xml, manifest.json, and report.md, report.html with plots/
// (report/documents.hpp); results.jsonl is the runner's. With `previous` (an earlier run, read
// before this one started: `suite --previous DIR`), the reports compare this run, read back
// from `dir`, with it.
void write_reports(const std::filesystem::path& dir, const engine::Suite& suite, const engine::SuiteReport& report,
                   const std::vector<std::string>& command_line, const engine::Shard& shard = {},
                   const RunRead* previous = nullptr);

}  // namespace softcert::report
