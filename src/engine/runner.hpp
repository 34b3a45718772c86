#pragma once
// Runs a suite: plans (check, instance) work items, runs them on a thread pool, journals
// each result durably as it finishes, and judges each entry against its expectation.
//
// Determinism: an item's instance and seed depend only on (suite seed, check, index); a result
// depends only on its item. The final results file and summary are written in plan order, so
// they are identical (apart from "seconds") for any --jobs, any order of completion, any shard
// split once merged.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/expectation.hpp"
#include "engine/suite.hpp"

namespace softcert::engine {

struct WorkItem {
  std::size_t entry = 0;    // index into Suite::entries
  std::size_t ordinal = 0;  // position in the whole plan (shards split on it)
  std::string instance_id;  // "<label>#<index>", or the instance file's name (engine::instance_file_name),
                            // prefixed "<label>/" when the entry has a label of its own
  std::uint64_t seed = 0;   // generator seed (0 for instance files)
  std::optional<std::filesystem::path> file;
  // An instance given in memory (the Python module's check()): used instead of the file or
  // the generator, the record otherwise built exactly as for them.
  std::optional<nlohmann::json> instance;
};

std::vector<WorkItem> plan(const Suite& suite);

// "" when the generator of `suite.entries[entry]` accepts the entry's params (it generates the
// entry's first instance, as `softcert search` does before anything else), else the generator's
// message. Entries without random instances: "". Used up front by load_suite and `check`.
std::string generator_settings_problem(const Suite& suite, std::size_t entry);

// Runs one item: generate or load the instance (or take item.instance), run the check, never throws; failures become
// verdict "error" with the reason. The record is one results.jsonl line (docs/reports.md).
// With `certificates`, a proved record whose check writes a certificate leaves it there as
// certificate_file_name(record) (docs/certificates.md).
// With `refused_input`, it is set to the check's message (the record's reason after "bad input: ")
// when the check refused its instance or params, and left empty otherwise.
nlohmann::json run_item(const Suite& suite, const WorkItem& item, const std::filesystem::path* certificates = nullptr,
                        std::optional<std::string>* refused_input = nullptr);
// "<entry>.<instance>.jsonl" with every character outside [A-Za-z0-9._-] replaced by '_'.
std::string certificate_file_name(const nlohmann::json& record);

// "" when `record` fits the plan slot `item` of `suite` it is read back into (--resume, merge):
// every field the plan determines — check, entry label, instance id, generator seed, tier,
// params, whether it names an instance file (and that file's name) — is the slot's. Else what
// differs, in words ("its \"entry\" is ..., but its slot's is ..."). With record_problem
// (engine/record_validation.hpp) this is what a record read back must pass: an edited label
// hid certified violations from their entry's judgment.
std::string slot_problem(const Suite& suite, const WorkItem& item, const nlohmann::json& record);

struct Shard {
  unsigned index = 1, count = 1;  // K/N, 1-based
  bool contains(std::size_t ordinal) const { return ordinal % count == index - 1; }
};

struct RunSettings {
  unsigned jobs = 1;
  // The cores the run may use at once, its workers and the threads its checks start inside an
  // instance together (support/cpu_cap.hpp; at least `jobs`); 0: no cap (the CLI's default
  // when --jobs is not given). No effect on any result.
  unsigned cpu_cap = 0;
  Shard shard;
  std::optional<std::filesystem::path> out_dir;  // results.jsonl, summary.json, ... written here
  std::optional<std::filesystem::path> json_lines;  // results also written here (check --json)
  std::optional<std::filesystem::path> certificates;  // certificates of proved records (check --certificate)
  bool resume = false;
  // The shard split N that the run identity records (engine/run_identity.hpp); unset: shard.count.
  // Under MPI the ranks split the user's shard further, but the run is still the user's.
  std::optional<unsigned> identity_shards;
  // Bad input in an instance file (unreadable, not JSON, or rejected by the check) stops the
  // run with std::invalid_argument naming the file, instead of becoming an error record:
  // `check --instance FILE` (the file was given directly: exit 2). Suites leave it false.
  bool bad_file_is_usage_error = false;
  // A generated instance that its own check refuses as bad input stops the run with
  // std::invalid_argument naming the settings, as `softcert search` does: the generator's
  // instances satisfy the check's hypotheses, so the refusal is about --param / --horizon
  // (`check --param T=-3`, `--horizon 1e308`: exit 2, not one error record per instance).
  bool generated_refusal_is_usage_error = false;
  // Called (under a lock, in completion order) after each result: record, done, total.
  std::function<void(const nlohmann::json&, std::size_t, std::size_t)> on_result;
};

struct EntryReport {
  std::string check;
  std::string label;  // the suite entry (== check unless the suite labels it)
  Expectation expect;
  double max_inconclusive;
  VerdictCounts counts;
  Outcome outcome;
  double seconds = 0;
};

struct SuiteReport {
  std::vector<nlohmann::json> records;  // in plan order
  std::vector<EntryReport> entries;
  int exit_status = 0;  // 0 as expected (or judged at merge), 1 unexpected, 3 too many inconclusive
  std::size_t resumed = 0;  // records taken from an earlier run
  std::vector<std::string> notes;  // what a person should know about the run (e.g. a dropped cut line)
  std::string run_id;              // engine/run_identity.hpp; "" for judged records (merge sets it)
  nlohmann::json run_identity;     // its components
};

// Throws std::invalid_argument for unusable settings or a corrupt results file met by resume.
SuiteReport run_suite(const Suite& suite, const RunSettings& settings);

// Judges records against the suite's expectations: `records` are those of the plan's items in
// `shard` (all of them for 1/1: an unsharded run, or shards merged). An entry all of whose
// instances are in the shard is judged as a whole (engine::judge); an entry only partly in it,
// or not at all, by what its records say one by one (engine::judge_part: judged_at_merge
// unless one of them is unexpected).
SuiteReport judge_records(const Suite& suite, std::vector<nlohmann::json> records, const Shard& shard = {});

}  // namespace softcert::engine
