// softcert claims LEDGER: README's findings section and docs/claims.md, generated from the claims
// ledger (proofs_checks/claims.toml; cli/claims_ledger.hpp). Without --readme/--docs it prints the
// README section. --readme FILE / --docs FILE write them (atomically); with --check they are
// compared instead, and exit 1 names the first file that differs. --results SUITE=DIR adds what a
// run of that suite observed to each of its entries (for a reviewer's page; the committed README
// and docs/claims.md are generated without it, so they do not change with every run). Exit 2: a malformed ledger
// (the message names the claim and field), an unreadable file, a README without the markers.
#include <iostream>
#include <memory>

#include "cli/claims_ledger.hpp"
#include "cli/commands.hpp"
#include "engine/journal.hpp"

namespace softcert::cli {

namespace {

struct ClaimsArgs {
  std::string ledger, readme, docs;
  std::vector<std::string> results;  // SUITE=DIR
  bool check = false;
};

// True when `file` already holds `wanted`; otherwise writes it (or, with check, reports it).
bool settle(const std::string& file, const std::string& wanted, bool check) {
  // A stream or device at the path (/dev/stdout, a pipe, or a symlink: written through or refused
  // by engine::write_file_atomically) holds nothing to compare with: it is written.
  std::error_code ec;
  const auto st = std::filesystem::symlink_status(file, ec);
  if (!check && !ec && std::filesystem::exists(st) && !std::filesystem::is_regular_file(st)) {
    engine::write_file_atomically(file, wanted);
    std::cout << "claims: wrote " << file << "\n";
    return true;
  }
  const std::string now = read_regular_file(file, 16 << 20);
  if (now == wanted) return true;
  // A file without any write permission is the user's "do not touch": the atomic rename would
  // replace it regardless (and root passes every access test), so the mode bits decide.
  if (!check && (st.permissions() & (std::filesystem::perms::owner_write | std::filesystem::perms::group_write |
                                      std::filesystem::perms::others_write)) == std::filesystem::perms::none)
    throw UsageError(file + ": is read-only; not replaced (make it writable to regenerate it)");
  if (check) {
    std::cerr << "claims: " << file << " differs from what the ledger generates (run `softcert claims LEDGER "
              << "--readme README.md --docs docs/claims.md` and commit)\n";
    return false;
  }
  engine::write_file_atomically(file, wanted);
  std::cout << "claims: wrote " << file << "\n";
  return true;
}

}  // namespace

void add_claims_command(CLI::App& app, int& exit_status) {
  auto a = std::make_shared<ClaimsArgs>();
  auto* cmd = app.add_subcommand("claims", "generate README's findings and docs/claims.md from the claims ledger");
  cmd->add_option("ledger", a->ledger, "the ledger (proofs_checks/claims.toml)")->required();
  cmd->add_option("--readme", a->readme, "replace the section between the claims markers of this file");
  cmd->add_option("--docs", a->docs, "write the ledger's docs page (docs/claims.md) here");
  cmd->add_option("--results", a->results,
                  "SUITE=DIR: add what the run of suite SUITE in DIR (its summary.json) observed to each of "
                  "its entries (repeatable)");
  cmd->add_flag("--check", a->check, "compare instead of writing: exit 1 when a file differs");
  cmd->callback([a, &exit_status]() {
    Ledger ledger;
    std::string section, page, readme_text;
    try {
      ledger = load_ledger(a->ledger);
      for (const auto& r : a->results) {
        const auto eq = r.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == r.size())
          throw std::invalid_argument("--results: '" + r + "' is not SUITE=DIR");
        attach_results(ledger, r.substr(0, eq), r.substr(eq + 1));
      }
      section = render_readme_section(ledger);
      if (!a->readme.empty()) readme_text = splice_readme(read_regular_file(a->readme, 16 << 20), section, a->readme);
      if (!a->docs.empty()) page = render_docs_page(ledger);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    if (a->readme.empty() && a->docs.empty()) {
      std::cout << section;
      exit_status = 0;
      return;
    }
    bool same = true;
    try {
      if (!a->readme.empty()) same = settle(a->readme, readme_text, a->check) && same;
      if (!a->docs.empty()) {
        if (a->check || std::filesystem::exists(a->docs)) same = settle(a->docs, page, a->check) && same;
        else {
          engine::write_file_atomically(a->docs, page);
          std::cout << "claims: wrote " << a->docs << "\n";
        }
      }
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    exit_status = same ? 0 : 1;
  });
}

}  // namespace softcert::cli
