// Every record the engine writes passes the engine's own validation (engine::record_problem, the
// one function the runner and the readers — merge, --resume — apply): the records of every
// registered check, as the quick suite runs it, are written to a journal and read back by the
// reader merge and --resume use. The quick suite's sharded run once stopped at merge on a record
// the engine had written itself (a violated with the exact margin [0, 0]).
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

#include "engine/journal.hpp"
#include "engine/record_validation.hpp"
#include "engine/registry.hpp"
#include "engine/runner.hpp"
#include "engine/suite.hpp"
#include "support/scratch_files.hpp"

namespace softcert {
namespace {

// An entry running `check` on two generated instances, as tests/proofs_checks/margin_contract_test.cpp
// runs every check (rigorous tier, a short horizon, small regression sweeps).
engine::SuiteEntry roundtrip_entry(const engine::Check& check) {
  engine::SuiteEntry e;
  e.check = check.name();
  e.label = check.name() + ".roundtrip";  // apart from the quick suite's keys in one journal
  e.instances = 2;
  e.options.horizon = 10.0;
  if (check.name().rfind("varre2026.regression.", 0) == 0) e.generate.params = {{"d", 3}, {"n", 3}};
  if (check.name() == "varre2026.normalization.square_weaker") {
    e.options.horizon.reset();
    e.options.params = {{"square_horizon", 10}, {"logistic_horizon", 10}};
  }
  return e;
}

TEST(RecordRoundTrip, EveryChecksRecordsPassTheReadersValidation) {
  // (suite, item) pairs: every registered check on generated instances, and every instance of
  // the quick suite's entries expected refuted (the violations, with their counterexamples and
  // margins: the one-hot limit's exact [0, 0] among them).
  std::vector<engine::Suite> suites;
  for (const engine::Check* c : engine::CheckRegistry::global().all())
    if (c->name().rfind("test.", 0) != 0) suites.push_back(engine::single_check_suite(roundtrip_entry(*c), 7));
  suites.push_back(engine::load_suite(std::filesystem::path(SOFTCERT_SOURCE_DIR) / "proofs_checks/suites/quick.toml"));
  const engine::Suite& quick = suites.back();
  std::vector<std::pair<const engine::Suite*, engine::WorkItem>> items;
  std::size_t refuted_entries = 0;
  for (const engine::Suite& s : suites)
    for (const auto& w : engine::plan(s)) {
      const bool refuted = s.entries[w.entry].expect == engine::Expectation::refuted;
      if (&s == &quick && !refuted) continue;
      refuted_entries += &s == &quick && refuted && (items.empty() || items.back().second.entry != w.entry ||
                                                     items.back().first != &quick);
      items.emplace_back(&s, w);
    }
  std::vector<nlohmann::json> records(items.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t k; (k = next.fetch_add(1)) < items.size();)
      records[k] = engine::run_item(*items[k].first, items[k].second);
  };
  std::thread other(worker);
  worker();
  other.join();

  const auto dir = testing::scratch_dir("record_roundtrip", "records");
  {
    engine::Journal journal(dir / "results.jsonl");
    for (const auto& r : records) {
      EXPECT_EQ(engine::record_problem(r), "") << r.dump().substr(0, 2000);
      journal.append(r);
    }
  }
  std::map<std::string, nlohmann::json> read;
  ASSERT_NO_THROW(read = engine::read_journal(dir / "results.jsonl"));
  EXPECT_EQ(read.size(), records.size());

  std::set<std::string> checks;
  std::size_t violated = 0;
  for (const auto& r : records) {
    checks.insert(r["check"].get<std::string>());
    violated += r["verdict"] == "violated";
    EXPECT_NE(r["verdict"], "error") << r.dump().substr(0, 2000);
  }
  for (const engine::Check* c : engine::CheckRegistry::global().all())
    if (c->name().rfind("test.", 0) != 0) {
      EXPECT_TRUE(checks.count(c->name())) << c->name() << ": no record written";
    }
  EXPECT_GE(refuted_entries, 10u);
  EXPECT_GE(violated, refuted_entries);
}

}  // namespace
}  // namespace softcert
