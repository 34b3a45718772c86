#include "cli/mpi_suite.hpp"

#include <algorithm>
#include <iostream>
#include <map>
#include <set>

#include "cli/commands.hpp"
#include "cli/mpi_session.hpp"
#include "cli/run_options.hpp"
#include "engine/journal.hpp"
#include "engine/run_identity.hpp"
#include "numerics/strict_json.hpp"
#include "report/progress.hpp"

namespace softcert::cli {
namespace {

namespace fs = std::filesystem;

std::string key_of(const engine::Suite& suite, const engine::WorkItem& item) {
  return suite.entries[item.entry].check + "\t" + item.instance_id;
}

std::string as_lines(const std::vector<nlohmann::json>& records) {
  std::string text;
  for (const auto& r : records) text += r.dump() + "\n";
  return text;
}

// If any rank failed, every rank throws (so none waits in a collective that never comes);
// the failing ranks name their problem, the others say why they stop.
void agree(const mpi::Session& mpi, const std::string& error) {
  if (!mpi.any(!error.empty())) return;
  throw UsageError(error.empty() ? "stopping: another MPI rank failed (see its message)" : error);
}

// Results of earlier runs in `out` (a single-process or merged results.jsonl, and the rank
// journals of an interrupted MPI run with any rank count) that belong to `mine`. A record
// the whole plan does not hold means another suite ran there: refuse, as run_suite does.
// An unterminated last line of any of these files (a write cut by SIGKILL) is dropped and
// described in *notes (engine::read_journal_for_resume); each rank's journal is rewritten
// from the kept records before it appends.
std::vector<nlohmann::json> earlier_results(const fs::path& out, const engine::Suite& suite,
                                            const std::vector<engine::WorkItem>& whole_plan,
                                            const engine::Shard& mine, const engine::RunIdentity& identity,
                                            std::vector<std::string>* notes) {
  // The earlier run must be this run (engine/run_identity.hpp): run.json beside each journal.
  if (!fs::exists(out / "results.jsonl")) engine::check_resumable(out, identity, {}, out / "results.jsonl");
  std::vector<fs::path> files;
  if (fs::exists(out / "results.jsonl")) files.push_back(out / "results.jsonl");
  if (fs::is_directory(out / ".mpi")) {
    std::vector<fs::path> ranks;
    for (const auto& d : fs::directory_iterator(out / ".mpi"))
      if (fs::exists(d.path() / "results.jsonl")) ranks.push_back(d.path() / "results.jsonl");
    std::sort(ranks.begin(), ranks.end());
    files.insert(files.end(), ranks.begin(), ranks.end());
  }
  std::map<std::string, std::size_t> ordinal_of;
  for (const auto& item : whole_plan) ordinal_of[key_of(suite, item)] = item.ordinal;
  std::map<std::size_t, nlohmann::json> kept;  // by ordinal: plan order
  for (const auto& f : files) {
    engine::ResumableJournal journal = engine::read_journal_for_resume(f);
    engine::check_resumable(f.parent_path(), identity, journal.records, f);
    if (!journal.dropped_tail.empty())
      notes->push_back(f.string() + ": dropped its unterminated last line (" + std::to_string(journal.dropped_tail.size()) +
                       " bytes: a result cut short when the run was killed); it is recomputed");
    for (auto& [key, record] : journal.records) {
      auto it = ordinal_of.find(key);
      if (it == ordinal_of.end())
        throw std::invalid_argument(f.string() + ": holds a result for " + key +
                                    " which this suite/shard does not plan: not resuming a different run");
      if (mine.contains(it->second)) kept.emplace(it->second, std::move(record));
    }
  }
  std::vector<nlohmann::json> out_records;
  for (auto& [ordinal, r] : kept) out_records.push_back(std::move(r));
  return out_records;
}

// Rank 0: every rank's JSON lines → records in plan order.
std::vector<nlohmann::json> in_plan_order(const std::vector<std::string>& texts, const engine::Suite& suite,
                                          const std::vector<engine::WorkItem>& whole_plan) {
  std::map<std::string, nlohmann::json> by_key;
  for (const auto& text : texts) {
    std::size_t pos = 0;
    while (pos < text.size()) {
      const std::size_t end = text.find('\n', pos);
      nlohmann::json r = num::parse_json_bounded(text.substr(pos, end - pos), "rank results");
      pos = end == std::string::npos ? text.size() : end + 1;
      by_key.emplace(engine::record_key(r), std::move(r));
    }
  }
  std::vector<nlohmann::json> ordered;
  for (const auto& item : whole_plan) {
    auto it = by_key.find(key_of(suite, item));
    if (it == by_key.end()) throw std::runtime_error("MPI: no rank returned the result for " + key_of(suite, item));
    ordered.push_back(std::move(it->second));
  }
  return ordered;
}

}  // namespace

int execute_mpi_run(const engine::Suite& suite, engine::RunSettings settings, const std::vector<std::string>& argv,
                    bool quiet) {
  if (!mpi::compiled_with_mpi()) {
    if (mpi::launcher_world_size() > 1)
      throw UsageError("started by an MPI launcher with " + std::to_string(mpi::launcher_world_size()) +
                       " ranks, but this softcert was built without MPI: every rank would run the whole suite "
                       "(install libopenmpi-dev and rebuild, or use --shard K/N and softcert merge)");
    return execute_run(suite, settings, argv, quiet);
  }
  mpi::Session mpi;
  if (mpi.size() == 1) return execute_run(suite, settings, argv, quiet);
  const unsigned rank = static_cast<unsigned>(mpi.rank()), ranks = static_cast<unsigned>(mpi.size());
  const engine::Shard whole = settings.shard;
  engine::RunSettings mine = settings;
  mine.shard = {whole.index + whole.count * rank, whole.count * ranks};
  mine.json_lines.reset();
  mine.identity_shards = whole.count;  // the run is the user's split, whatever the rank count
  const engine::RunIdentity identity = engine::run_identity(suite, whole.count);
  std::unique_ptr<engine::OutDirLock> lock;  // rank 0 holds it for the whole run
  std::vector<engine::WorkItem> whole_plan;
  for (const auto& item : engine::plan(suite))
    if (whole.contains(item.ordinal)) whole_plan.push_back(item);

  // Phase 1, reads only: what each rank can reuse. No rank writes until all have read.
  std::string error;
  std::vector<nlohmann::json> previous;
  std::vector<std::string> notes;
  try {
    if (settings.resume && !settings.out_dir) throw std::invalid_argument("--resume needs --out DIR");
    if (settings.out_dir) {
      if (rank == 0) lock = std::make_unique<engine::OutDirLock>(*settings.out_dir);
      mine.out_dir = *settings.out_dir / ".mpi" / ("rank-" + std::to_string(rank) + "-of-" + std::to_string(ranks));
      if (settings.resume)
        previous = earlier_results(*settings.out_dir, suite, whole_plan, mine.shard, identity, &notes);
    }
  } catch (const std::exception& e) {
    error = e.what();
  }
  agree(mpi, error);

  // Phase 2: a fresh run starts from a clean directory; a resumed one seeds each rank's
  // journal with what it may reuse. Then every rank runs its part.
  try {
    if (settings.out_dir && rank == 0) {
      if (!settings.resume) {
        const std::string moved = engine::move_earlier_run_aside(*settings.out_dir);
        if (!moved.empty()) notes.push_back(moved);
      }
      engine::write_run_file(*settings.out_dir, identity);
    }
  } catch (const std::exception& e) {
    error = e.what();
  }
  agree(mpi, error);
  engine::SuiteReport part;
  try {
    if (settings.resume) {
      fs::create_directories(*mine.out_dir);
      engine::write_run_file(*mine.out_dir, identity);
      engine::write_file_atomically(*mine.out_dir / "results.jsonl", as_lines(previous));
    }
    report::Progress progress(suite.name + " (rank 0 of " + std::to_string(ranks) + ")", !quiet && rank == 0);
    mine.on_result = [&progress](const nlohmann::json& r, std::size_t done, std::size_t total) {
      progress.update(r, done, total);
    };
    part = engine::run_suite(suite, mine);
    progress.finish();
  } catch (const std::exception& e) {
    error = e.what();
  }
  agree(mpi, error);

  // Phase 3: rank 0 gathers, orders by the plan, judges and reports; all return its status.
  const std::vector<std::string> texts = mpi.gather(as_lines(part.records));
  const std::vector<std::string> resumed = mpi.gather(std::to_string(part.resumed));
  int status = 0;
  if (rank == 0) {
    try {
      engine::SuiteReport rep = engine::judge_records(suite, in_plan_order(texts, suite, whole_plan), whole);
      for (const auto& n : resumed) rep.resumed += std::stoul(n);
      rep.notes = notes;  // every rank read the same files: rank 0 speaks for all
      rep.run_id = identity.id;
      rep.run_identity = identity.components;
      const std::string text = as_lines(rep.records);
      if (settings.out_dir) engine::write_file_atomically(*settings.out_dir / "results.jsonl", text);
      if (settings.json_lines) engine::write_file_atomically(*settings.json_lines, text);
      std::cout << "MPI: " << ranks << " ranks, " << rep.records.size() << " results gathered on rank 0\n";
      status = report_run(suite, rep, settings, argv);
      if (settings.out_dir) fs::remove_all(*settings.out_dir / ".mpi");
    } catch (const std::exception& e) {
      error = e.what();
      status = -1;
    }
  }
  status = mpi.broadcast(status);
  if (status < 0) throw UsageError(error.empty() ? "stopping: rank 0 could not write the report" : error);
  return status;
}

}  // namespace softcert::cli
