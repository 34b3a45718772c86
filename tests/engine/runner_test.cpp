// The runner: same seed → same instances and verdicts for any thread count and shard split;
// resume recomputes nothing and ends with the same report; corrupt journals are refused;
// expectations judged as documented.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>

#include "engine/journal.hpp"
#include "engine/record_validation.hpp"
#include "engine/registry.hpp"
#include "engine/runner.hpp"
#include "engine/seeds.hpp"
#include "support/scratch_files.hpp"

namespace softcert::engine {
namespace {

using testing::scratch_path;

std::atomic<int> g_runs{0};

// A toy check whose verdict is a pure function of the instance: "x" odd → violated.
class ParityCheck : public Check {
 public:
  std::string name() const override { return "test.parity"; }
  std::string paper() const override { return "test"; }
  std::string statement() const override { return "x is even"; }
  std::vector<std::string> hypotheses() const override { return {"even"}; }
  nlohmann::json generate(std::uint64_t seed, const GenerateOptions& o) const override {
    std::uint64_t x = support::splitmix64(seed) % 1000;
    if (!o.dropped.count("even")) x &= ~std::uint64_t{1};
    return {{"x", std::to_string(x)}};
  }
  CheckResult run(const nlohmann::json& inst, const CheckOptions&) const override {
    ++g_runs;
    const long x = std::stol(inst.at("x").get<std::string>());
    CheckResult r;
    r.verdict = x % 2 ? Verdict::violated : (x % 3 == 0 ? Verdict::inconclusive : Verdict::proved);
    r.margin = Margin::of_exact(x % 2 ? -1 : 1);
    return r;
  }
};
SOFTCERT_REGISTER_CHECK(ParityCheck);

// A toy check with a bug on request: {"x": "bad"} gives a violated whose margin is positive (no
// counterexample could back it). Any other instance is proved.
class UnbackedViolationCheck : public Check {
 public:
  std::string name() const override { return "test.unbacked_violation"; }
  std::string paper() const override { return "test"; }
  std::string statement() const override { return "nothing"; }
  nlohmann::json generate(std::uint64_t, const GenerateOptions&) const override { return {{"x", "1"}}; }
  CheckResult run(const nlohmann::json& inst, const CheckOptions&) const override {
    CheckResult r;
    const bool bad = inst.at("x") == "bad";
    r.verdict = bad ? Verdict::violated : Verdict::proved;
    r.margin = Margin::of_rationals(Rational(1), Rational(2));
    r.reason = bad ? "a buggy violation" : "fine";
    return r;
  }
};
SOFTCERT_REGISTER_CHECK(UnbackedViolationCheck);

Suite toy_suite(std::size_t n, bool drop) {
  SuiteEntry e;
  e.check = "test.parity";
  e.instances = n;
  e.max_inconclusive = 1.0;
  if (drop) {
    e.generate.dropped.insert("even");
    e.expect = Expectation::refuted;
  }
  return single_check_suite(e, 42);
}

// Records without "seconds", and without "run": a shard's records carry the run identity of
// its split (engine/run_identity.hpp), which is all that differs from an unsharded run's.
std::vector<std::string> without_timing(const SuiteReport& rep) {
  std::vector<std::string> out;
  for (auto r : rep.records) {
    r.erase("seconds");
    r.erase("run");
    out.push_back(r.dump());
  }
  return out;
}

TEST(Runner, ResultsIdenticalForAnyJobsAndShardSplit) {
  const Suite s = toy_suite(40, true);
  RunSettings one;
  const auto base = without_timing(run_suite(s, one));
  RunSettings four;
  four.jobs = 4;
  EXPECT_EQ(without_timing(run_suite(s, four)), base);
  // three shards, merged, equal the whole
  std::vector<nlohmann::json> merged;
  for (unsigned k = 1; k <= 3; ++k) {
    RunSettings sh;
    sh.shard = {k, 3};
    sh.jobs = 2;
    for (auto& r : run_suite(s, sh).records) merged.push_back(r);
  }
  std::sort(merged.begin(), merged.end(), [](auto& a, auto& b) {
    return std::stoi(a["instance"].template get<std::string>().substr(12)) <
           std::stoi(b["instance"].template get<std::string>().substr(12));
  });
  EXPECT_EQ(without_timing(judge_records(s, merged)), base);
}

TEST(Runner, ExpectationsAreJudged) {
  const SuiteReport holds = run_suite(toy_suite(30, false), {});
  EXPECT_EQ(holds.exit_status, 0);
  EXPECT_EQ(holds.entries[0].outcome, Outcome::as_expected);
  // dropping the hypothesis yields violations; expecting "holds" is then a regression
  Suite s = toy_suite(30, true);
  EXPECT_EQ(run_suite(s, {}).exit_status, 0);  // expected refuted
  s.entries[0].expect = Expectation::holds;
  EXPECT_EQ(run_suite(s, {}).exit_status, 1);
  // too many inconclusive → 3
  Suite t = toy_suite(30, false);
  t.entries[0].max_inconclusive = 0.0;
  EXPECT_EQ(run_suite(t, {}).exit_status, 3);
}

// A shard judges only what it holds: an entry-level expectation (refuted = at least one
// violation, the max_inconclusive fraction) is judged where all of the entry's instances are
// present; a shard exits 0 unless something it holds is itself unexpected.
TEST(Runner, ShardsJudgeOnlyWhatTheyHold) {
  // entry 0: refuted, 40 instances (violations in some shards only, maybe); entry 1: refuted,
  // one instance (absent from two of three shards); entry 2: holds, inconclusive allowed up to
  // the whole run's fraction exactly (a shard may hold a larger fraction)
  Suite s = toy_suite(40, true);
  SuiteEntry one = s.entries[0];
  one.instances = 1;
  one.label.clear();
  // a label whose one instance is violated (odd x: ParityCheck with "even" dropped)
  for (int i = 0; one.label.empty() || support::splitmix64(instance_seed(s.seed, one.label, 0)) % 1000 % 2 == 0; ++i)
    one.label = "one" + std::to_string(i);
  SuiteEntry frac = toy_suite(40, false).entries[0];
  frac.label = "fraction";
  s.entries.push_back(one);
  s.entries.push_back(frac);
  const SuiteReport whole = run_suite(s, {});
  ASSERT_EQ(whole.entries.size(), 3u);
  // the fraction entry: allowed exactly the whole run's share of inconclusive
  const auto inconclusive = [](const EntryReport& e) {
    auto it = e.counts.find(Verdict::inconclusive);
    return it == e.counts.end() ? std::size_t{0} : it->second;
  };
  const std::size_t whole_inconclusive = inconclusive(whole.entries[2]);
  ASSERT_GT(whole_inconclusive, 0u);
  s.entries[2].max_inconclusive = static_cast<double>(whole_inconclusive) / 40.0;
  // the single instance of "one" is violated (else the unsharded run fails, and so must merge)
  const SuiteReport base = run_suite(s, {});
  ASSERT_EQ(base.exit_status, 0) << "the unsharded run must meet every expectation";
  bool some_shard_over_the_fraction = false;
  std::vector<nlohmann::json> merged;
  for (unsigned k = 1; k <= 3; ++k) {
    RunSettings sh;
    sh.shard = {k, 3};
    const SuiteReport part = run_suite(s, sh);
    EXPECT_EQ(part.exit_status, 0) << "shard " << k;
    for (const auto& e : part.entries) EXPECT_NE(e.outcome, Outcome::unexpected) << "shard " << k << " " << e.label;
    // "one" is whole where it is held, and judged there; elsewhere merge judges it
    const bool holds_one = part.entries[1].counts.size() > 0;
    EXPECT_EQ(part.entries[1].outcome, holds_one ? Outcome::as_expected : Outcome::judged_at_merge) << "shard " << k;
    EXPECT_EQ(part.entries[0].outcome, Outcome::judged_at_merge) << "shard " << k;
    EXPECT_EQ(part.entries[2].outcome, Outcome::judged_at_merge) << "shard " << k;
    std::size_t held = 0;
    for (const auto& [v, n] : part.entries[2].counts) held += n;
    some_shard_over_the_fraction |=
        static_cast<double>(inconclusive(part.entries[2])) > s.entries[2].max_inconclusive * static_cast<double>(held);
    for (auto& r : part.records) merged.push_back(r);
  }
  EXPECT_TRUE(some_shard_over_the_fraction) << "the test needs a shard above the whole run's fraction";
  // merged (in plan order), the records are judged as the whole run's
  std::vector<nlohmann::json> ordered;
  for (const auto& item : plan(s))
    for (const auto& r : merged)
      if (r["entry"] == s.entries[item.entry].label && r["instance"] == item.instance_id) ordered.push_back(r);
  const SuiteReport joined = judge_records(s, ordered);
  EXPECT_EQ(joined.exit_status, base.exit_status);
  for (std::size_t e = 0; e < base.entries.size(); ++e) {
    EXPECT_EQ(joined.entries[e].outcome, base.entries[e].outcome) << e;
    EXPECT_EQ(joined.entries[e].counts, base.entries[e].counts) << e;
  }
}

// What a shard holds is still judged per instance: an error, or a violation under "holds", is
// unexpected in the shard that holds it, whether or not the shard holds the whole entry.
TEST(Runner, AShardStillFailsOnWhatItHolds) {
  Suite s = toy_suite(40, true);
  s.entries[0].expect = Expectation::holds;  // violations are now regressions
  for (unsigned k = 1; k <= 3; ++k) {
    RunSettings sh;
    sh.shard = {k, 3};
    const SuiteReport part = run_suite(s, sh);
    bool holds_violation = false;
    for (const auto& r : part.records) holds_violation |= r["verdict"] == "violated";
    ASSERT_TRUE(holds_violation) << "shard " << k;
    EXPECT_EQ(part.exit_status, 1) << "shard " << k;
    EXPECT_EQ(part.entries[0].outcome, Outcome::unexpected) << "shard " << k;
  }
}

TEST(Runner, ViolatedRecordsCarryTheirCounterexample) {
  for (const auto& r : run_suite(toy_suite(20, true), {}).records) {
    if (r["verdict"] == "violated") {
      ASSERT_TRUE(r.contains("counterexample"));
      EXPECT_EQ(std::stol(r["counterexample"]["x"].get<std::string>()) % 2, 1);
    }
  }
}

// The runner writes no record its own reader would refuse (engine::record_problem, the one
// validation of both): a check's result that breaks the rules is an internal error, without the
// verdict it could not back.
TEST(Runner, ARecordTheReaderWouldRefuseIsNeverWritten) {
  SuiteEntry e;
  e.check = "test.unbacked_violation";
  e.instances = 1;
  const Suite s = single_check_suite(e, 1);
  WorkItem item = plan(s).at(0);
  item.instance = nlohmann::json{{"x", "bad"}};
  const nlohmann::json r = run_item(s, item);
  EXPECT_EQ(r["verdict"], "error") << r.dump();
  EXPECT_NE(r["reason"].get<std::string>().find("internal error: the check's result breaks the record rules"),
            std::string::npos)
      << r.dump();
  EXPECT_NE(r["reason"].get<std::string>().find("a buggy violation"), std::string::npos) << r.dump();
  EXPECT_FALSE(r.contains("counterexample")) << r.dump();
  EXPECT_EQ(record_problem(r), "");
  // and the well-behaved instance is written as it came
  item.instance = nlohmann::json{{"x", "1"}};
  EXPECT_EQ(run_item(s, item)["verdict"], "proved");
}

TEST(Runner, ResumeRecomputesNothingFinished) {
  const Suite s = toy_suite(25, true);
  const auto dir = scratch_path("runner", "resume");
  RunSettings full;
  full.out_dir = dir;
  const auto base = without_timing(run_suite(s, full));
  // Simulate a run killed after 10 results: keep the first 10 lines of the journal.
  std::ifstream in(dir / "results.jsonl");
  std::string line, kept;
  for (int i = 0; i < 10 && std::getline(in, line); ++i) kept += line + "\n";
  in.close();
  write_file_atomically(dir / "results.jsonl", kept);
  RunSettings resume = full;
  resume.resume = true;
  g_runs = 0;
  const SuiteReport rep = run_suite(s, resume);
  EXPECT_EQ(g_runs.load(), 15);
  EXPECT_EQ(rep.resumed, 10u);
  EXPECT_EQ(without_timing(rep), base);
}

TEST(Runner, CorruptOrForeignJournalIsRefused) {
  const Suite s = toy_suite(5, false);
  const auto dir = scratch_path("runner", "corrupt");
  RunSettings st;
  st.out_dir = dir;
  run_suite(s, st);
  std::string text;
  {
    std::ifstream in(dir / "results.jsonl");
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  st.resume = true;
  // a line cut short and then terminated: not what a killed append leaves (that is only ever
  // the unterminated last line, see CutLastLineIsDroppedAndRecomputed)
  write_file_atomically(dir / "results.jsonl", text.substr(0, text.size() / 2) + "\n");
  EXPECT_THROW(run_suite(s, st), std::invalid_argument);
  write_file_atomically(dir / "results.jsonl", "{\"garbage\": 1}\n");
  EXPECT_THROW(run_suite(s, st), std::invalid_argument);
  write_file_atomically(dir / "results.jsonl", text + text);  // duplicates
  EXPECT_THROW(run_suite(s, st), std::invalid_argument);
  // a journal from another suite (different instance count → unknown keys)
  write_file_atomically(dir / "results.jsonl", text);
  EXPECT_THROW(run_suite(toy_suite(3, false), st), std::invalid_argument);
}

TEST(Runner, CutLastLineIsDroppedAndRecomputed) {
  const Suite s = toy_suite(5, false);
  const auto dir = scratch_path("runner", "cut_last");
  RunSettings st;
  st.out_dir = dir;
  const SuiteReport full = run_suite(s, st);
  std::string text;
  {
    std::ifstream in(dir / "results.jsonl");
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::size_t two_lines = text.find('\n', text.find('\n') + 1) + 1;
  write_file_atomically(dir / "results.jsonl", text.substr(0, two_lines + 7));  // 2 lines + 7 bytes of the third
  st.resume = true;
  // While the run appends, the journal must stay whole lines: the cut bytes are gone before
  // the first append (else the new line would be glued to them — corrupt for the next resume).
  int whole_after_append = 0;
  st.on_result = [&](const nlohmann::json&, std::size_t, std::size_t) {
    try {
      read_journal(dir / "results.jsonl");
      ++whole_after_append;
    } catch (const std::invalid_argument&) {
    }
  };
  const SuiteReport resumed = run_suite(s, st);
  EXPECT_EQ(whole_after_append, 3);
  EXPECT_EQ(resumed.resumed, 2u);
  ASSERT_EQ(resumed.notes.size(), 1u);
  EXPECT_NE(resumed.notes[0].find("7 bytes"), std::string::npos) << resumed.notes[0];
  ASSERT_EQ(resumed.records.size(), full.records.size());
  for (std::size_t i = 0; i < full.records.size(); ++i) {
    auto a = full.records[i], b = resumed.records[i];
    a.erase("seconds");
    b.erase("seconds");
    EXPECT_EQ(a, b) << i;
  }
  EXPECT_EQ(read_journal(dir / "results.jsonl").size(), 5u) << "the rewritten journal is whole";
}

TEST(Runner, InstanceSeedsDependOnlyOnSuiteSeedCheckAndIndex) {
  EXPECT_EQ(instance_seed(1, "a", 5), instance_seed(1, "a", 5));
  EXPECT_NE(instance_seed(1, "a", 5), instance_seed(1, "b", 5));
  EXPECT_NE(instance_seed(1, "a", 5), instance_seed(2, "a", 5));
  // fixed values: a change here changes every published run's instances
  EXPECT_EQ(support::splitmix64(0), 0xe220a8397b1dcdafULL);
}

}  // namespace
}  // namespace softcert::engine
