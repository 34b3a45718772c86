// softcert claims: README's findings section and docs/claims.md are what the ledger
// (proofs_checks/claims.toml) generates; an edited README is caught (exit 1) and rewritten;
// malformed ledgers are refused with exit 2 naming the field.
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <string>

#include "support/run_cli.hpp"
#include "support/scratch_files.hpp"

namespace {

namespace fs = std::filesystem;
using softcert::testing::run_softcert;

const fs::path kRepo = SOFTCERT_SOURCE_DIR;

std::string claims_args(const fs::path& ledger, const std::string& rest) {
  return "claims '" + ledger.string() + "' " + rest;
}

// List items are wrapped at 100 columns: the text with every run of whitespace made one space.
std::string flatten(const std::string& text) {
  std::string flat;
  for (char ch : text)
    if (!std::isspace(static_cast<unsigned char>(ch))) flat += ch;
    else if (flat.empty() || flat.back() != ' ') flat += ' ';
  return flat;
}

TEST(CliClaims, ReadmeAndDocsPageAreWhatTheLedgerGenerates) {
  const auto r = run_softcert(claims_args(kRepo / "proofs_checks/claims.toml",
                                          "--check --readme '" + (kRepo / "README.md").string() + "' --docs '" +
                                              (kRepo / "docs/claims.md").string() + "'"));
  EXPECT_EQ(r.status, 0) << r.out << r.err
                         << "\nregenerate: build/softcert claims proofs_checks/claims.toml --readme README.md --docs "
                            "docs/claims.md";
}

TEST(CliClaims, EveryCheckedClaimNamesItsSuiteEntries) {
  const auto r = run_softcert(claims_args(kRepo / "proofs_checks/claims.toml", ""));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("<!-- claims:begin", 0), 0u);
  EXPECT_NE(r.out.find("<!-- claims:end -->"), std::string::npos);
  const std::string flat = flatten(r.out);
  // the sink claim and where it is decided, with the entry's tier and horizon from the suite
  EXPECT_NE(flat.find("`nightly` › `varre2026.attention_sink` (rigorous, H = 10⁵"), std::string::npos) << r.out;
  EXPECT_NE(flat.find("(varre.sink)"), std::string::npos);
  // a fast-tier entry says so, a refuted one says what is expected
  EXPECT_NE(flat.find("`nightly` › `varre2026.repulsion.all_pairs` (rigorous, H = 1000, 1 file + 50 generated, expect refuted)"),
            std::string::npos);
  EXPECT_NE(flat.find("`nightly` › `varre2026.order_preservation.fast` (fast, H = 1000"), std::string::npos);
}

TEST(CliClaims, AnEditedReadmeIsCaughtAndRewritten) {
  const fs::path dir = softcert::testing::scratch_dir("cli_claims", "edited");
  const std::string original = softcert::testing::read_text(kRepo / "README.md");
  std::string edited = original;
  const auto at = edited.find("### The papers' claims");
  ASSERT_NE(at, std::string::npos);
  edited.insert(at + 4, "x");  // one character inside the generated section
  softcert::testing::write_text(dir / "README.md", edited);
  const std::string args = claims_args(kRepo / "proofs_checks/claims.toml", "--readme '" + (dir / "README.md").string() + "'");
  auto r = run_softcert(args + " --check");
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("differs"), std::string::npos) << r.err;
  r = run_softcert(args);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(softcert::testing::read_text(dir / "README.md"), original);
  // text outside the markers is kept as it is
  softcert::testing::write_text(dir / "README.md", "# top\n" + original + "tail\n");
  EXPECT_EQ(run_softcert(args).status, 0);
  EXPECT_EQ(softcert::testing::read_text(dir / "README.md"), "# top\n" + original + "tail\n");
  // a README without the markers is refused
  softcert::testing::write_text(dir / "README.md", "# no markers\n");
  r = run_softcert(args);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("claims:begin"), std::string::npos) << r.err;
  // a read-only README is the user's "do not touch": refused, not replaced (even as root)
  softcert::testing::write_text(dir / "README.md", edited);
  fs::permissions(dir / "README.md", fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  r = run_softcert(args);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("is read-only; not replaced"), std::string::npos) << r.err;
  EXPECT_EQ(softcert::testing::read_text(dir / "README.md"), edited);
  fs::permissions(dir / "README.md", fs::perms::owner_write, fs::perm_options::add);
}


// A scratch ledger beside a one-entry suite, with `claim` as its only claim.
fs::path scratch_ledger(const std::string& name, const std::string& claim) {
  const fs::path dir = softcert::testing::scratch_dir("cli_claims", name) / "proofs_checks";
  fs::create_directories(dir / "suites");
  softcert::testing::write_text(dir / "suites/mini.toml",
                                "[[check]]\nname = \"varre2026.attention_sink.agreeing\"\ninstances = 1\n");
  softcert::testing::write_text(dir / "claims.toml", "[[claim]]\n" + claim);
  return dir / "claims.toml";
}

const std::string kGood =
    "id = \"x.sink\"\npaper = \"P\"\nsource = \"ours\"\nwhere = \"w\"\nreading = \"r\"\nstatus = \"checked\"\n"
    "finding = \"f\"\nentries = [\"mini/varre2026.attention_sink.agreeing\"]\n";

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

TEST(CliClaims, ALedgerStringHoldingTheEndMarkerIsRefused) {
  // the README grew by a section on every run: the next splice ended at the claim's marker
  const fs::path ledger = scratch_ledger("marker", replace(kGood, "finding = \"f\"", "finding = \"f <!-- claims:end -->\""));
  const fs::path readme = ledger.parent_path() / "README.md";
  softcert::testing::write_text(readme, "<!-- claims:begin -->\n<!-- claims:end -->\n");
  const auto r = run_softcert(claims_args(ledger, "--readme '" + readme.string() + "'"));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("a claim may not contain it"), std::string::npos) << r.err;
  EXPECT_EQ(softcert::testing::read_text(readme), "<!-- claims:begin -->\n<!-- claims:end -->\n");
}

TEST(CliClaims, AWellFormedScratchLedgerIsAccepted) {
  const auto r = run_softcert(claims_args(scratch_ledger("good", kGood), ""));
  EXPECT_EQ(r.status, 0) << r.err;
  // a checked claim without a near miss says it cannot fail as checked
  EXPECT_NE(flatten(r.out).find("- f — `mini` › `varre2026.attention_sink.agreeing` (rigorous, 1 generated); "
                                "**cannot fail as checked** (no near miss). (x.sink)"),
            std::string::npos)
      << r.out;
}

TEST(CliClaims, NearMissesNameRefutedEntriesOfTheirSuites) {
  const fs::path ledger = scratch_ledger("near_miss", kGood + "near_miss = [\"mini/varre2026.attention_sink.argmax_u0\"]\n");
  softcert::testing::write_text(ledger.parent_path() / "suites/mini.toml",
                                "[[check]]\nname = \"varre2026.attention_sink.agreeing\"\ninstances = 1\n"
                                "[[check]]\nname = \"varre2026.attention_sink.argmax_u0\"\ninstances = 1\nexpect = \"refuted\"\n");
  auto r = run_softcert(claims_args(ledger, ""));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(flatten(r.out).find("; near miss: `mini` › `varre2026.attention_sink.argmax_u0` (rigorous, 1 generated, expect "
                                "refuted). (x.sink)"),
            std::string::npos)
      << r.out;
  r = run_softcert(claims_args(ledger, "--docs '" + (ledger.parent_path() / "claims.md").string() + "'"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(softcert::testing::read_text(ledger.parent_path() / "claims.md").find("- **Near misses**\n  - `mini` › `varre2026.attention_sink.argmax_u0`"),
            std::string::npos);
  // a near miss must be a false statement the suite expects refuted
  softcert::testing::write_text(ledger.parent_path() / "suites/mini.toml",
                                "[[check]]\nname = \"varre2026.attention_sink.agreeing\"\ninstances = 1\n"
                                "[[check]]\nname = \"varre2026.attention_sink.argmax_u0\"\ninstances = 1\n");
  r = run_softcert(claims_args(ledger, ""));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("near_miss: 'mini/varre2026.attention_sink.argmax_u0' does not expect \"refuted\""), std::string::npos)
      << r.err;
}

TEST(CliClaims, EveryCheckedClaimOfTheLedgerShowsItsTeethOrSaysItCannot) {
  const auto r = run_softcert(claims_args(kRepo / "proofs_checks/claims.toml", ""));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string flat = flatten(r.out);
  // the negative claims and Thm 3.3 name near misses; a claim without one says so
  for (const char* id : {"varre.norm.linear", "varre.norm.elementwise_sigmoid", "varre.thm3_3.one_hot", "varre.square_weaker",
                         "varre.conditioning", "sukenik.cost", "ours.thm3_3.loss_rate", "code.cell3.gd"}) {
    const auto at = flat.find(std::string("(") + id + ")");
    ASSERT_NE(at, std::string::npos) << id;
    const auto item = flat.rfind(" - ", at);  // the list item's start (items begin "- " on their own line)
    ASSERT_NE(item, std::string::npos) << id;
    EXPECT_NE(flat.substr(item, at - item).find("near miss: "), std::string::npos) << id;
  }
  // every checked claim of the ledger names a near miss (the mechanism that says otherwise is
  // tested on a scratch ledger above)
  EXPECT_EQ(flat.find("cannot fail as checked"), std::string::npos);
}

TEST(CliClaims, ResultsOfASuiteRunAreAddedToItsEntries) {
  const fs::path ledger = scratch_ledger("results", kGood);
  const fs::path out = ledger.parent_path() / "out";
  const auto run = run_softcert("suite '" + (ledger.parent_path() / "suites/mini.toml").string() + "' --out '" +
                                out.string() + "' --quiet");
  ASSERT_EQ(run.status, 0) << run.out << run.err;
  auto r = run_softcert(claims_args(ledger, "--results 'mini=" + out.string() + "'"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(flatten(r.out).find("[last run: 1 proved, 0 confirmed, 0 violated, 0 inconclusive, 0 error — as expected]"),
            std::string::npos)
      << r.out;
  // a run of another suite, a missing summary, a malformed option: exit 2 naming the problem
  r = run_softcert(claims_args(ledger, "--results 'quick=" + out.string() + "'"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("is the summary of suite 'mini', not of 'quick'"), std::string::npos) << r.err;
  r = run_softcert(claims_args(ledger, "--results 'mini=" + (out / "none").string() + "'"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("summary.json"), std::string::npos) << r.err;
  softcert::testing::write_text(out / "summary.json", "{\"suite\": \"mini\", \"checks\": [{\"entry\": \"x\"}]}");
  r = run_softcert(claims_args(ledger, "--results 'mini=" + out.string() + "'"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("checks[].counts"), std::string::npos) << r.err;
  EXPECT_EQ(run_softcert(claims_args(ledger, "--results mini")).status, 2);
}

TEST(CliClaims, MalformedLedgersAreRefusedNamingTheField) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {replace(kGood, "source = \"ours\"\n", ""), "source (a string) is required"},
      {replace(kGood, "source = \"ours\"", "source = \"press\""), "source: must be"},
      {replace(kGood, "source = \"ours\"", "source = \"paper\""), "quote (a string) is required"},
      {replace(kGood, "status = \"checked\"", "status = \"done\""), "status: must be"},
      {replace(kGood, "finding = \"f\"\n", ""), "finding (a string) is required"},
      {replace(kGood, "agreeing\"]", "nonexistent\"]"), "entries: suite 'mini' has no entry labelled"},
      {replace(kGood, "mini/", "maxi/"), "entries: no suite file"},
      {replace(kGood, "mini/", ""), "is not SUITE/LABEL"},
      {replace(kGood, "entries = [\"mini/varre2026.attention_sink.agreeing\"]", "entries = []"),
       "entries: a checked claim names at least one"},
      {kGood + "sauce = 1\n", "unknown key 'sauce'"},
      {kGood + "docs = [\"docs/none.md\"]\n", "docs: no file docs/none.md"},
      {kGood + "docs = [\"/etc/passwd\"]\n", "docs: no file /etc/passwd"},
      // a name the file system refuses (ENAMETOOLONG): refused by name, not an internal error
      {kGood + "docs = [\"docs/" + std::string(5000, 'z') + ".md\"]\n", "docs: no file docs/zzz"},
      {replace(kGood, "mini/", std::string(5000, 'm') + "/"), "entries: no suite file"},
      {replace(kGood, "status = \"checked\"", "status = \"unchecked\""), "reason (a string) is required"},
      {replace(kGood, "id = \"x.sink\"", "id = \"x sink\""), "id: letters"},
      {kGood + "[[claim]]\n" + kGood, "id: 'x.sink' is used twice"},
      {replace(kGood, "finding = \"f\"", "finding = 3"), "finding: must be a string"},
      {kGood + "near_miss = [\"mini/varre2026.attention_sink.agreeing\"]\n", "near_miss: 'mini/varre2026.attention_sink.agreeing' does not expect"},
      {kGood + "near_miss = [\"mini/none\"]\n", "suite 'mini' has no entry labelled 'none'"},
      {kGood + "paraphrase = true\n", "paraphrase: only a [code] quote"},
      {kGood + "paraphrase = 1\n", "paraphrase: must be true or false"},
  };
  int i = 0;
  for (const auto& [ledger, message] : cases) {
    SCOPED_TRACE(message);
    const auto r = run_softcert(claims_args(scratch_ledger("bad" + std::to_string(i++), ledger), ""));
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

TEST(CliClaims, ALedgerThatIsNotARegularFileIsRefused) {
  const fs::path dir = softcert::testing::scratch_dir("cli_claims", "fifo");
  const fs::path fifo = dir / "claims.toml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto r = run_softcert(claims_args(fifo, ""));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << r.err;
  const auto d = run_softcert(claims_args(dir, ""));  // a directory
  EXPECT_EQ(d.status, 2);
}

}  // namespace
