#pragma once
// `softcert diff OLD NEW`: what changed between two suite runs (their --out directories), for
// a person reading tonight's run against last night's and for CI (docs/cli.md, "diff").
//
// Read from each directory: results.jsonl (every record re-validated as merge and --resume
// validate them: engine::read_journal) and summary.json (the entries' expectations and
// outcomes); the commit from summary.json, else manifest.json. Compared:
//   - per entry (summary.json's "entry"): the outcome. A regression is an entry whose outcome
//     was `as expected` in OLD and is not in NEW (UNEXPECTED, too many inconclusive); fixed is
//     the reverse; an entry's expectation that changed is shown with it;
//   - per record (entry and instance): the verdict, and the margin — "moved" when the two
//     intervals, read exactly (engine::Margin::parse), no longer overlap; and, where both
//     records are certified (proved or violated in both), "width changed" when the interval's
//     width grew or shrank by more than a factor (a tighter or looser enclosure of the same
//     quantity, which overlap alone does not show);
//   - records and entries only in NEW (new) or only in OLD (lost);
//   - per entry, the seconds (summary.json, else the records' sum) when they moved by more than
//     a factor and one of the two runs took at least a second.
// Only a regression makes the exit status 1; everything else is information.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace softcert::report {

struct DiffSettings {
  double time_factor = 3;     // timings that moved by more than this factor are listed
  double time_floor = 1;      // ... when one of the two took at least this many seconds
  double margin_factor = 10;  // certified margins whose width changed by more than this factor
};

struct RunSide {
  std::string dir, suite, commit;  // commit: "unknown" when neither file says
  std::uint64_t seed = 0;
  std::size_t records = 0;
};

struct OutcomeChange {
  std::string entry, check;
  std::string old_outcome, new_outcome;
  std::string old_expect, new_expect;
  nlohmann::json new_counts;  // the NEW run's counts per verdict
};

struct VerdictChange {
  std::string entry, instance, old_verdict, new_verdict;
  std::string old_reason, new_reason;
};

struct MarginMove {
  std::string entry, instance, verdict;  // verdict: NEW's
  nlohmann::json old_margin, new_margin;   // [lower, upper] as written
  std::string direction;                   // "up" (NEW certainly above OLD) or "down"
};

// A certified margin whose width (upper − lower, exact) changed by more than the factor; a
// width 0 (an exact certificate) against a positive one always counts. Both ends finite in both.
struct MarginWidthChange {
  std::string entry, instance, verdict;    // verdict: NEW's
  nlohmann::json old_margin, new_margin;   // [lower, upper] as written
  double old_width = 0, new_width = 0;     // the exact widths, to the nearest double (for reading)
  std::string direction;                   // "wider" or "narrower"
};

struct TimingMove {
  std::string entry;
  double old_seconds = 0, new_seconds = 0;
};

struct RunDiff {
  RunSide old_run, new_run;
  std::vector<OutcomeChange> regressions, fixed, expectation_changes;
  std::vector<VerdictChange> verdict_changes;
  std::vector<MarginMove> margins_moved;
  std::vector<MarginWidthChange> widths_changed;
  std::vector<std::string> new_records, lost_records;  // "entry/instance"
  std::vector<std::string> new_entries, lost_entries;
  std::vector<TimingMove> timings_moved;
  int exit_status() const { return regressions.empty() ? 0 : 1; }
};

// One run directory as read for a comparison: its summary's entries and its records.
struct RunRead {
  struct Entry {
    std::string check, expect, outcome;
    nlohmann::json counts;
    std::optional<double> seconds;
  };
  RunSide side;
  std::vector<std::string> entry_order;  // as summary.json lists them
  std::map<std::string, Entry> entries;
  std::map<std::string, nlohmann::json> records;  // "entry\tinstance" → record
  std::map<std::string, double> record_seconds;   // entry → Σ seconds of its records
};

// Throws std::invalid_argument naming the directory and file for bad input (a missing
// directory or file, invalid JSON, a record refused by the journal's validation, a summary
// without its entries). `suite --previous DIR` reads DIR this way before its run starts.
RunRead read_run(const std::filesystem::path& dir);

RunDiff diff_runs(const RunRead& old_run, const RunRead& new_run, const DiffSettings& settings = {});
RunDiff diff_runs(const std::filesystem::path& old_dir, const std::filesystem::path& new_dir,
                  const DiffSettings& settings = {});

// The comparison as titled groups of lines, regressions first: what `softcert diff` prints and
// what report.md / report.html show under "Compared with the previous run". `always` groups are
// shown with a count of 0; the others only when they hold something.
struct DiffGroup {
  std::string title;
  std::vector<std::string> lines;
  bool alarm = false;   // regressions: what a reader must see first
  bool always = true;
};
std::vector<DiffGroup> diff_groups(const RunDiff& d, const DiffSettings& settings = {});

// The report for a person (what `softcert diff` prints), and the same as JSON
// ("schema": "softcert.diff/1").
std::string diff_text(const RunDiff& d, const DiffSettings& settings = {});
nlohmann::json diff_json(const RunDiff& d);

}  // namespace softcert::report
