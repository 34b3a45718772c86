// libFuzzer target: a record of a small suite edited, then read back as --resume and merge read
// it — the journal reader (engine::read_journal: shape and engine::record_problem) and the plan
// slot it fills (engine::slot_problem). The input's first byte picks one of the suite's true
// records (computed once by engine::run_item); the rest is a JSON merge patch applied to it.
// Contract: only std::invalid_argument from the reader; a record accepted into its slot keeps
// every plan-determined field of that slot's true record, a verdict of proved / violated /
// confirmed other than the true one is accepted only when the patch also edits the evidence
// (margin, counterexample, details, tier: engine/record_validation.hpp catches an edit that makes
// a record contradict itself, not one that rewrites it consistently), and the accepted records
// are judged and reported as a resumed run would.
#include <filesystem>
#include <stdexcept>

#include "engine/journal.hpp"
#include "engine/runner.hpp"
#include "fuzz_support.hpp"
#include "report/documents.hpp"
#include "report/summary.hpp"

namespace {

namespace fs = std::filesystem;
using softcert::engine::Suite;
using softcert::engine::WorkItem;

struct Fixture {
  Suite suite;
  std::vector<WorkItem> items;
  std::vector<nlohmann::json> records;  // the true record of each item
};

// The exact check, both tiers, and a dropped hypothesis so that some records are violated.
const Fixture& fixture() {
  static const Fixture f = [] {
    Fixture x;
    const fs::path suite_file = softcert::fuzz::scratch_file(
        "name = \"resume\"\nseed = 11\n"
        "[[check]]\nname = \"sukenik2026.sink_representability\"\ninstances = 2\n"
        "[[check]]\nname = \"sukenik2026.sink_representability\"\nlabel = \"fast\"\ninstances = 1\ntier = \"fast\"\n"
        "[[check]]\nname = \"sukenik2026.sink_representability\"\nlabel = \"dropped\"\ninstances = 3\n"
        "drop = [\"sink-exposed\"]\nexpect = \"refuted\"\n",
        ".toml");
    x.suite = softcert::engine::load_suite(suite_file);
    x.items = softcert::engine::plan(x.suite);
    for (const WorkItem& w : x.items) x.records.push_back(softcert::engine::run_item(x.suite, w));
    return x;
  }();
  return f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace softcert;
  const Fixture& f = fixture();
  if (size == 0) return 0;
  const std::size_t slot = data[0] % f.items.size();
  nlohmann::json patch;
  try {
    patch = nlohmann::json::parse(fuzz::as_text(data + 1, size - 1));
  } catch (const nlohmann::json::exception&) {
    return 0;
  }
  if (!patch.is_object()) return 0;
  nlohmann::json record = f.records[slot];
  record.merge_patch(patch);
  std::map<std::string, nlohmann::json> read;
  try {
    read = engine::read_journal(fuzz::scratch_file(record.dump() + "\n", ".jsonl"));
  } catch (const std::invalid_argument&) {
    return 0;
  } catch (const nlohmann::json::exception&) {  // dump() of a patch holding invalid UTF-8: not a record anyone wrote
    return 0;
  }
  if (read.size() != 1) fuzz::contract_broken("one line read as other than one record");
  const nlohmann::json& r = read.begin()->second;
  if (!engine::slot_problem(f.suite, f.items[slot], r).empty()) return 0;
  const nlohmann::json& truth = f.records[slot];
  for (const char* k : {"check", "entry", "instance", "seed", "tier", "params"})
    if (truth.contains(k) && (!r.contains(k) || r[k] != truth[k])) fuzz::contract_broken("a plan-determined field edited and accepted");
  const std::string v = r["verdict"].get<std::string>(), tv = truth["verdict"].get<std::string>();
  const bool decided = tv == "proved" || tv == "violated" || tv == "confirmed";
  if (decided && v != tv && (v == "proved" || v == "violated" || v == "confirmed") && !patch.contains("margin") &&
      !patch.contains("counterexample") && !patch.contains("details") && !patch.contains("tier"))
    fuzz::contract_broken("a verdict changed without its evidence and accepted");
  std::vector<nlohmann::json> records = f.records;
  records[slot] = r;
  const engine::SuiteReport rep = engine::judge_records(f.suite, std::move(records));
  (void)report::summary_json(f.suite, rep).dump();
  (void)report::junit_xml(f.suite, rep);
  (void)report::markdown_report(f.suite, rep, report::RunFigures{});
  return 0;
}
