// softcert merge OUT SHARD_DIR...: results of `suite --shard K/N` runs → one report.
#include <iostream>
#include <memory>
#include <fstream>
#include <map>
#include <set>

#include "cli/commands.hpp"
#include "cli/run_options.hpp"
#include "support/input_file.hpp"
#include "engine/journal.hpp"
#include "engine/run_identity.hpp"
#include "engine/runner.hpp"
#include "numerics/quote.hpp"
#include "numerics/strict_json.hpp"
#include "report/summary.hpp"

namespace softcert::cli {

namespace {
struct MergeArgs {
  std::string out;
  std::vector<std::string> dirs;
};

nlohmann::json read_json_file(const std::filesystem::path& f) {
  try {
    // A regular file only, size-capped, stopped at a NUL (support/input_file.hpp).
    return num::parse_json_strict(support::read_input_file(f), f.string());
  } catch (const nlohmann::json::exception& e) {
    throw UsageError(f.string() + ": not valid JSON: " + num::json_error_excerpt(e.what()));
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}
}  // namespace

void add_merge_command(CLI::App& app, int& exit_status) {
  auto args = std::make_shared<MergeArgs>();
  auto* cmd = app.add_subcommand("merge", "merge the --out directories of sharded suite runs into one report");
  cmd->add_option("--out", args->out, "directory for the merged report")->required()->check(nonempty_path());
  cmd->add_option("dirs", args->dirs, "the shard runs' --out directories")->required()->check(CLI::ExistingDirectory);
  cmd->callback([args, &exit_status]() {
    // Every shard must be a shard of the same run: the same run identity in its manifest
    // (suite content, seed, split N, version, settings) and in every record.
    nlohmann::json identity;
    std::string run_id, first_dir;
    std::vector<std::string> suite_files;
    std::set<std::string> shards_seen;
    unsigned shard_count = 0;
    std::map<std::string, nlohmann::json> records;
    std::map<std::string, std::string> journal_of;  // record key → the shard journal it came from
    for (const auto& d : args->dirs) {
      const nlohmann::json m = read_json_file(std::filesystem::path(d) / "manifest.json");
      if (!m.is_object() || !m.contains("run") || !m["run"].is_object() || !m["run"].contains("id") ||
          !m["run"]["id"].is_string() || !m["run"].contains("identity"))
        throw UsageError(d + "/manifest.json: no run identity (\"run\"): not a shard of this softcert's suite runs");
      // The shard's run.json (the journal's header) must be there and name the manifest's run,
      // with an id that is the hash of its identity: a shard without it, or with an edited one,
      // is not a run this softcert wrote.
      const std::filesystem::path rf = engine::run_file(d);
      nlohmann::json header;
      try {
        header = num::parse_json_strict(support::read_input_file(rf, support::kMaxInputFileBytes, /*no_symlink=*/true),
                                        rf.string());
      } catch (const nlohmann::json::exception& e) {
        throw UsageError(rf.string() + ": not valid JSON: " + num::json_error_excerpt(e.what()));
      } catch (const std::invalid_argument& e) {
        throw UsageError(std::string(e.what()) + " (every shard's run.json is needed: rerun that shard)");
      }
      if (const std::string problem = engine::run_header_problem(header, m["run"]["id"].get<std::string>(),
                                                                 m["run"]["identity"]);
          !problem.empty())
        throw UsageError(rf.string() + ": " + problem);
      // "shard" is K/N as `suite --shard` takes it (an edited manifest's "1/x" was an internal error)
      if (m.contains("shard") && !m["shard"].is_string())
        throw UsageError(d + "/manifest.json: \"shard\" must be a string K/N");
      const std::string shard = m.value("shard", "1/1");
      engine::Shard parsed;
      try {
        parsed = parse_shard(shard);
      } catch (const UsageError&) {
        throw UsageError(d + "/manifest.json: \"shard\" must be K/N with 1 <= K <= N, got " + num::quoted(shard));
      }
      if (run_id.empty()) {
        identity = m["run"]["identity"];
        run_id = m["run"]["id"].get<std::string>();
        first_dir = d;
      } else if (m["run"]["id"].get<std::string>() != run_id) {
        const std::string diff = engine::identity_difference(identity, first_dir, m["run"]["identity"], d);
        throw UsageError(d + ": a shard of another run than " + first_dir + ": " +
                         (diff.empty() ? "its run id differs" : diff));
      }
      if (m.contains("suite_file") && m["suite_file"].is_string()) suite_files.push_back(m["suite_file"]);
      if (!shards_seen.insert(shard).second) throw UsageError(d + ": shard " + shard + " given twice");
      const unsigned n = parsed.count;
      if (shard_count && n != shard_count) throw UsageError(d + ": shard " + shard + " is from a different split");
      shard_count = n;
      std::map<std::string, nlohmann::json> part;
      const std::filesystem::path journal = std::filesystem::path(d) / "results.jsonl";
      try {
        part = engine::read_journal(journal);
      } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
      }
      for (auto& [k, r] : part) {
        const std::string run = r.contains("run") && r["run"].is_string() ? r["run"].get<std::string>() : "(none)";
        if (run != run_id)
          throw UsageError(journal.string() + ": the result for " + k + " belongs to run " + num::excerpt(run, 40) +
                           ", not to the shards' run " + run_id);
        if (!records.emplace(k, r).second) throw UsageError(d + ": result " + k + " appears in two shards");
        journal_of[k] = journal.string();
      }
    }
    if (shards_seen.size() != shard_count)
      throw UsageError("got " + std::to_string(shards_seen.size()) + " of " + std::to_string(shard_count) + " shards");
    // The suite, from any shard's suite file whose content still matches (an identical copy at
    // another path is the same suite).
    engine::Suite suite;
    std::string refused;
    bool found = false;
    for (const auto& f : suite_files) {
      try {
        engine::Suite s = engine::load_suite(f);
        const engine::RunIdentity id = engine::run_identity(s, shard_count);
        if (id.id == run_id) {
          suite = std::move(s);
          found = true;
          break;
        }
        if (refused.empty())
          refused = f + " changed since the shards ran: " +
                    engine::identity_difference(identity, "the shards", id.components, "the file now");
      } catch (const std::invalid_argument& e) {
        if (refused.empty()) refused = e.what();
      }
    }
    if (!found) throw UsageError(refused.empty() ? "no suite file named by the shards' manifests" : refused);
    std::vector<nlohmann::json> ordered;
    for (const auto& item : engine::plan(suite)) {
      const std::string key = suite.entries[item.entry].check + "\t" + item.instance_id;
      auto it = records.find(key);
      if (it == records.end()) throw UsageError("no shard holds the result for " + key + ": incomplete run?");
      // Each record must be the one its plan slot's run writes (engine::slot_problem): an edited
      // entry label, seed or tier would be judged under another slot's expectation.
      if (const std::string p = engine::slot_problem(suite, item, it->second); !p.empty())
        throw UsageError(journal_of[key] + ": the result for " + key + " " + p + ": the record was altered or is corrupt");
      ordered.push_back(it->second);
      records.erase(it);
    }
    if (!records.empty()) throw UsageError("shards hold results the suite does not plan: " + records.begin()->first);
    // The merged report is the whole run's: its records and run.json carry the unsharded run's
    // identity (N = 1), so it equals an unsharded run's report and --resume treats it as one.
    const engine::RunIdentity whole = engine::run_identity(suite, 1);
    for (auto& r : ordered) r["run"] = whole.id;
    engine::SuiteReport rep = engine::judge_records(suite, std::move(ordered));
    rep.run_id = whole.id;
    rep.run_identity = whole.components;
    std::unique_ptr<engine::OutDirLock> lock;  // as for suite --out: one writer at a time
    try {
      lock = std::make_unique<engine::OutDirLock>(args->out);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    const std::string moved = engine::move_earlier_run_aside(args->out);  // never mix with old reports
    if (!moved.empty()) std::cerr << "note: " << moved << "\n";
    engine::write_run_file(args->out, whole);
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
