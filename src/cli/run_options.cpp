#include "cli/run_options.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "cli/commands.hpp"
#include "numerics/quote.hpp"
#include "numerics/strict_json.hpp"
#include "engine/journal.hpp"
#include "report/progress.hpp"
#include "report/summary.hpp"

namespace softcert::cli {

std::vector<std::string>& command_line() {
  static std::vector<std::string> argv;
  return argv;
}

CLI::Validator integer_in(std::uint64_t min, std::uint64_t max) {
  const std::string range = "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
  return CLI::Validator(
      [min, max, range](std::string& text) -> std::string {
        const std::string bad = "must be an integer in " + range + ", got " + num::quoted(text);
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return bad;
        const std::size_t nonzero = text.find_first_not_of('0');
        const std::string digits = nonzero == std::string::npos ? "0" : text.substr(nonzero);
        if (digits.size() > 20) return bad;
        errno = 0;
        const unsigned long long v = std::strtoull(digits.c_str(), nullptr, 10);
        if (errno == ERANGE || v < min || v > max) return bad;
        text = digits;  // no leading zeros left for CLI11 to read as octal
        return "";
      },
      "INT in " + range);
}

CLI::Validator nonempty_path() {
  return CLI::Validator([](std::string& text) -> std::string { return text.empty() ? "must not be empty (a path)" : ""; },
                        "PATH");
}

void check_horizon(double horizon) {
  if (!(horizon > 0) || !std::isfinite(horizon)) {
    char got[32];
    std::snprintf(got, sizeof got, "%g", horizon);
    throw UsageError(std::string("--horizon: must be a positive finite number, got ") + got);
  }
}

engine::Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  try {
    if (slash == std::string::npos) throw std::invalid_argument("");
    std::size_t a = 0, b = 0;
    const unsigned long k = std::stoul(text.substr(0, slash), &a);
    const unsigned long n = std::stoul(text.substr(slash + 1), &b);
    if (a != slash || b != text.size() - slash - 1 || k < 1 || k > n || n > 100000) throw std::invalid_argument("");
    return engine::Shard{static_cast<unsigned>(k), static_cast<unsigned>(n)};
  } catch (const std::exception&) {
    throw UsageError("--shard must be K/N with 1 <= K <= N (got " + num::quoted(text) + ")");
  }
}

void add_param(nlohmann::json& params, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) throw UsageError("--param must be key=value (got " + num::quoted(assignment) + ")");
  const std::string key = assignment.substr(0, eq), value = assignment.substr(eq + 1);
  try {
    params[key] = num::parse_json_bounded(value, "--param " + num::excerpt(key, 40));
  } catch (const nlohmann::json::exception&) {
    params[key] = value;
  } catch (const std::invalid_argument& e) {  // nested too deep
    throw UsageError(e.what());
  }
}

int execute_run(const engine::Suite& suite, engine::RunSettings settings, const std::vector<std::string>& argv,
                bool quiet, const report::RunRead* previous) {
  report::Progress progress(suite.name, !quiet);
  progress.expect_from(suite);
  settings.on_result = [&progress](const nlohmann::json& r, std::size_t done, std::size_t total) {
    progress.update(r, done, total);
  };
  engine::SuiteReport rep;
  // One run per --out directory at a time, held until the reports are written; a fresh run
  // first moves an earlier run's files aside (engine/journal.hpp).
  std::unique_ptr<engine::OutDirLock> lock;
  std::string moved;
  try {
    if (settings.out_dir) {
      lock = std::make_unique<engine::OutDirLock>(*settings.out_dir);
      if (!settings.resume) moved = engine::move_earlier_run_aside(*settings.out_dir);
    }
    rep = engine::run_suite(suite, settings);
  } catch (const std::invalid_argument& e) {
    progress.finish();
    throw UsageError(e.what());
  }
  progress.finish();
  if (!moved.empty()) rep.notes.insert(rep.notes.begin(), moved);
  return report_run(suite, rep, settings, argv, previous);
}

int report_run(const engine::Suite& suite, const engine::SuiteReport& rep, const engine::RunSettings& settings,
               const std::vector<std::string>& argv, const report::RunRead* previous) {
  for (const auto& note : rep.notes) std::cerr << (settings.resume ? "resume: " : "note: ") << note << "\n";
  if (rep.resumed > 0) std::cout << "resumed: " << rep.resumed << " results taken from the earlier run\n";
  std::cout << report::verdict_table(rep);
  // A single check (softcert check): what was decided on each instance.
  if (suite.entries.size() == 1) std::cout << "per instance:\n" << report::instance_lines(rep);
  // The first few violations and errors, with their reasons: what a person looks at first.
  std::size_t shown = 0, notable = 0;
  for (const auto& r : rep.records) {
    if (suite.entries.size() == 1) break;  // listed per instance above
    const std::string v = r.value("verdict", "");
    if (v != "violated" && v != "error") continue;
    if (++notable > 10) continue;
    ++shown;
    std::cout << "  " << v << ": " << r.value("instance", "") << ": " << r.value("reason", "") << "\n";
  }
  if (notable > shown) std::cout << "  ... and " << notable - shown << " more (see the results file)\n";
  if (settings.out_dir) {
    report::write_reports(*settings.out_dir, suite, rep, argv, settings.shard, previous);
    std::cout << "reports: " << settings.out_dir->string() << "/{results.jsonl,summary.json,junit.xml,manifest.json,report.md,report.html}\n";
  }
  std::size_t at_merge = 0;
  for (const auto& e : rep.entries) at_merge += e.outcome == engine::Outcome::judged_at_merge;
  const std::string ok = at_merge == 0 ? " (every outcome as expected)"
                                       : " (nothing unexpected in this shard; " + std::to_string(at_merge) +
                                             (at_merge == 1 ? " entry" : " entries") +
                                             " not whole here, judged when the shards are merged)";
  std::cout << "exit status " << rep.exit_status
            << (rep.exit_status == 0   ? ok
                : rep.exit_status == 1 ? std::string(" (an unexpected outcome)")
                                       : std::string(" (too many inconclusive)"))
            << "\n";
  return rep.exit_status;
}

}  // namespace softcert::cli
