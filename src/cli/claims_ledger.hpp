#pragma once
// The claims ledger (proofs_checks/claims.toml): every claim of the papers' sources — the seed
// summaries, the abstracts, the authors' notebook — with its source label, its quote, the reading
// softcert checks and the suite entries that decide it, or why it is not checked. README's
// findings section and docs/claims.md are generated from it (`softcert claims`, docs/cli.md).
#include <filesystem>
#include <string>
#include <vector>

namespace softcert::cli {

// One suite entry a claim cites, resolved against its suite file: what a reader needs to find
// the run that produced a sentence.
struct LedgerEntry {
  std::string suite;  // file stem under <ledger dir>/suites/, e.g. "nightly"
  std::string label;  // the entry's label in that suite (unique there)
  std::string check, tier, expect, horizon, instances;
  std::string observed;  // from a suite run's summary.json (attach_results), else empty
};

struct Claim {
  std::string id, paper, source, where, quote, reading, status, finding, reason;
  bool paraphrase = false;  // a [code] quote in our words, not the notebook's text
  std::vector<LedgerEntry> entries;
  // Near misses: entries with expect = "refuted" whose statement is a nearby false one (a
  // hypothesis dropped, a constant strengthened, the winner swapped), showing what the checks of
  // a checked claim could catch. A checked claim without any "cannot fail as checked".
  std::vector<LedgerEntry> near_misses;
  std::vector<std::string> docs;
};

struct Ledger {
  std::filesystem::path file;
  std::vector<Claim> claims;
};

// Parses and validates a ledger: unknown keys, missing or malformed fields, a source other than
// paper/code/ours, a status other than checked/unchecked/out_of_scope, duplicate ids, suite
// entries absent from their suite, a near miss whose entry does not expect "refuted", a
// paraphrase flag on a non-code quote, docs pages that do not exist (paths relative to the
// repository root, the ledger directory's parent) → std::invalid_argument naming the file, the
// claim and the field. The file must be a regular file of at most 1 MiB.
Ledger load_ledger(const std::filesystem::path& file);

// Adds to every entry of suite `suite` what the run in `dir` observed (dir/summary.json, written
// by `softcert suite --out dir`): its verdict counts and outcome. std::invalid_argument naming
// the file and field when the summary is malformed or names a different suite's entries only.
void attach_results(Ledger& ledger, const std::string& suite, const std::filesystem::path& dir);

// README's section, from its heading to the end marker line (inclusive), and the docs page.
std::string render_readme_section(const Ledger& ledger);
std::string render_docs_page(const Ledger& ledger);

inline constexpr const char* kReadmeBegin = "<!-- claims:begin (generated from proofs_checks/claims.toml by `softcert claims`; edit the ledger, not this section) -->";
inline constexpr const char* kReadmeEnd = "<!-- claims:end -->";

// `text` with the lines from kReadmeBegin to kReadmeEnd (inclusive) replaced by `section`
// (which carries both markers). Throws std::invalid_argument when a marker is missing or out of
// order.
std::string splice_readme(const std::string& text, const std::string& section, const std::string& what);

// The whole of a regular file of at most `max_bytes`; std::invalid_argument naming it otherwise.
std::string read_regular_file(const std::filesystem::path& file, std::size_t max_bytes);

}  // namespace softcert::cli
