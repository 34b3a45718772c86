// softcert merge OUT SHARD_DIR...: results of `suite --shard K/N` runs → one report.
#include <iostream>
#include <memory>
#include <fstream>
#include <map>
#include <set>

#include "cli/commands.hpp"
#include "cli/run_options.hpp"
#include "engine/journal.hpp"
#include "report/summary.hpp"

namespace softcert::cli {

namespace {
struct MergeArgs {
  std::string out;
  std::vector<std::string> dirs;
};

nlohmann::json read_json_file(const std::filesystem::path& f) {
  std::ifstream in(f);
  if (!in) throw UsageError("cannot read " + f.string());
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception&) {
    throw UsageError(f.string() + ": not valid JSON");
  }
}
}  // namespace

void add_merge_command(CLI::App& app, int& exit_status) {
  auto args = std::make_shared<MergeArgs>();
  auto* cmd = app.add_subcommand("merge", "merge the --out directories of sharded suite runs into one report");
  cmd->add_option("--out", args->out, "directory for the merged report")->required();
  cmd->add_option("dirs", args->dirs, "the shard runs' --out directories")->required()->check(CLI::ExistingDirectory);
  cmd->callback([args, &exit_status]() {
    std::string suite_file;
    std::uint64_t seed = 0;
    std::set<std::string> shards_seen;
    unsigned shard_count = 0;
    std::map<std::string, nlohmann::json> records;
    for (const auto& d : args->dirs) {
      const nlohmann::json m = read_json_file(std::filesystem::path(d) / "manifest.json");
      const std::string f = m.value("suite_file", ""), shard = m.value("shard", "1/1");
      const std::uint64_t s = m.value("seed", std::uint64_t{0});
      if (suite_file.empty()) {
        suite_file = f;
        seed = s;
      } else if (f != suite_file || s != seed) {
        throw UsageError(d + ": a run of another suite or seed (" + f + ") than " + suite_file);
      }
      if (!shards_seen.insert(shard).second) throw UsageError(d + ": shard " + shard + " given twice");
      const unsigned n = static_cast<unsigned>(std::stoul(shard.substr(shard.find('/') + 1)));
      if (shard_count && n != shard_count) throw UsageError(d + ": shard " + shard + " is from a different split");
      shard_count = n;
      std::map<std::string, nlohmann::json> part;
      try {
        part = engine::read_journal(std::filesystem::path(d) / "results.jsonl");
      } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
      }
      for (auto& [k, r] : part)
        if (!records.emplace(k, r).second) throw UsageError(d + ": result " + k + " appears in two shards");
    }
    if (shards_seen.size() != shard_count)
      throw UsageError("got " + std::to_string(shards_seen.size()) + " of " + std::to_string(shard_count) + " shards");
    engine::Suite suite;
    try {
      suite = engine::load_suite(suite_file);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    if (suite.seed != seed) throw UsageError(suite_file + " changed since the shards ran (seed differs)");
    std::vector<nlohmann::json> ordered;
    for (const auto& item : engine::plan(suite)) {
      const std::string key = suite.entries[item.entry].check + "\t" + item.instance_id;
      auto it = records.find(key);
      if (it == records.end()) throw UsageError("no shard holds the result for " + key + ": incomplete run?");
      ordered.push_back(it->second);
      records.erase(it);
    }
    if (!records.empty()) throw UsageError("shards hold results the suite does not plan: " + records.begin()->first);
    const engine::SuiteReport rep = engine::judge_records(suite, std::move(ordered));
    std::filesystem::create_directories(args->out);
    std::string text;
    for (const auto& r : rep.records) text += r.dump() + "\n";
    engine::write_file_atomically(std::filesystem::path(args->out) / "results.jsonl", text);
    report::write_reports(args->out, suite, rep, command_line());
    std::cout << report::verdict_table(rep) << "merged " << rep.records.size() << " results from " << shard_count
              << " shards into " << args->out << "\n";
    exit_status = rep.exit_status;
  });
}

}  // namespace softcert::cli
