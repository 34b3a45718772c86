// libFuzzer target: the results journal readers (engine::read_journal, what merge trusts, and
// engine::read_journal_for_resume, what --resume trusts) on arbitrary bytes; they must agree
// except on an unterminated last line, which only the resume reader drops. Records it accepts are then judged and reported exactly as a
// resumed run would (summary.json, junit.xml, report.md), so every field the reports read
// must have been validated by the reader.
#include <optional>
#include <set>
#include <stdexcept>

#include "engine/journal.hpp"
#include "engine/runner.hpp"
#include "fuzz_support.hpp"
#include "report/documents.hpp"
#include "report/summary.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace softcert;
  const auto file = fuzz::scratch_file(fuzz::as_text(data, size), ".jsonl");
  std::optional<std::map<std::string, nlohmann::json>> strict;
  std::optional<engine::ResumableJournal> resumable;
  try {
    strict = engine::read_journal(file);
  } catch (const std::invalid_argument&) {
  }
  try {
    resumable = engine::read_journal_for_resume(file);
  } catch (const std::invalid_argument&) {
  }
  // The --resume reader differs from the strict one only by dropping an unterminated last line.
  if (strict && (!resumable || !resumable->dropped_tail.empty() || resumable->records != *strict)) __builtin_trap();
  if (resumable && resumable->dropped_tail.empty() && !strict) __builtin_trap();
  if (!resumable) return 0;
  std::map<std::string, nlohmann::json> records = std::move(resumable->records);
  // A suite with one entry per check named in the records (no registry lookup needed).
  engine::Suite suite;
  suite.name = "fuzz";
  std::set<std::string> checks;
  std::vector<nlohmann::json> in_order;
  for (auto& [key, r] : records) {
    if (checks.insert(r["check"].get<std::string>()).second) {
      engine::SuiteEntry e;
      e.check = r["check"].get<std::string>();
      e.instances = 1;
      suite.entries.push_back(e);
    }
    in_order.push_back(r);
  }
  const engine::SuiteReport rep = engine::judge_records(suite, std::move(in_order));
  (void)report::verdict_table(rep);
  (void)report::summary_json(suite, rep).dump();
  (void)report::junit_xml(suite, rep);
  (void)report::markdown_report(suite, rep, report::RunFigures{});
  return 0;
}
