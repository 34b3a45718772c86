// libFuzzer target: the claims ledger reader (cli::load_ledger, what `softcert claims` reads from
// proofs_checks/claims.toml) on arbitrary text, in a scratch repository whose suites/ holds one
// small suite (entries "holds" and "refuted", so that entries and near misses resolve) and whose
// docs/ holds one page. A ledger it accepts is rendered: the README section spliced into a README
// twice gives the README of one splice (a ledger string holding a marker made README grow on
// every run), and a summary of the suite is attached.
#include <filesystem>
#include <stdexcept>

#include "cli/claims_ledger.hpp"
#include "fuzz_support.hpp"

namespace {

namespace fs = std::filesystem;

void write(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

// <tmp>/softcert_fuzz_claims_PID/{proofs_checks/{claims.toml, suites/mini.toml}, docs/page.md}
fs::path scratch_repository() {
  static const fs::path root = [] {
    const fs::path r = fs::temp_directory_path() / ("softcert_fuzz_claims_" + std::to_string(getpid()));
    fs::create_directories(r / "proofs_checks" / "suites");
    fs::create_directories(r / "docs");
    write(r / "proofs_checks" / "suites" / "mini.toml",
          "name = \"mini\"\n[[check]]\nname = \"sukenik2026.sink_representability\"\nlabel = \"holds\"\ninstances = 1\n"
          "tier = \"fast\"\n[[check]]\nname = \"sukenik2026.sink_representability\"\nlabel = \"refuted\"\ninstances = 1\n"
          "tier = \"fast\"\nexpect = \"refuted\"\n");
    write(r / "docs" / "page.md", "# page\n");
    return r;
  }();
  return root;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace softcert;
  const fs::path root = scratch_repository();
  const fs::path ledger_file = root / "proofs_checks" / "claims.toml";
  write(ledger_file, fuzz::as_text(data, size));
  cli::Ledger ledger;
  try {
    ledger = cli::load_ledger(ledger_file);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  const std::string section = cli::render_readme_section(ledger);
  (void)cli::render_docs_page(ledger);
  const std::string readme = std::string("# README\n\n") + cli::kReadmeBegin + "\nold\n" + cli::kReadmeEnd + "\n\ntail\n";
  std::string once;
  try {  // a ledger string holding a README marker is refused here (std::invalid_argument)
    once = cli::splice_readme(readme, section, "README");
  } catch (const std::invalid_argument&) {
    return 0;
  }
  if (cli::splice_readme(once, section, "README") != once) fuzz::contract_broken("README changes on a second splice");
  // A summary of the suite naming both entries: attached, or refused with std::invalid_argument
  // (a ledger citing no entry of it).
  fs::create_directories(root / "run");
  write(root / "run" / "summary.json",
        "{\"suite\":\"mini\",\"checks\":[{\"entry\":\"holds\",\"counts\":{\"proved\":1,\"confirmed\":0,\"violated\":0,"
        "\"inconclusive\":0,\"error\":0},\"outcome\":\"as expected\"},{\"entry\":\"refuted\",\"counts\":{\"proved\":0,"
        "\"confirmed\":0,\"violated\":1,\"inconclusive\":0,\"error\":0},\"outcome\":\"as expected\"}]}");
  try {
    cli::attach_results(ledger, "mini", root / "run");
    (void)cli::render_readme_section(ledger);
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
