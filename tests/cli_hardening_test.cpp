// Hostile but fair input (issue 16): size limits are exit 2 before any work, report files are
// written atomically and checked, messages say what is wrong (and quote at most 80
// characters), margins print outward, details carry no timings, and a bad instance file is one
// error record inside a suite but exit 2 when given directly.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "numerics/decimal.hpp"
#include "numerics/elementary.hpp"
#include "numerics/traits.hpp"
#include "support/run_cli.hpp"

namespace softcert {
namespace {

namespace fs = std::filesystem;
using testing::CliRun;
using testing::run_softcert;

const std::string kHeadline = std::string(SOFTCERT_SOURCE_DIR) + "/proofs_checks/instances/authors/headline.json";

// A fresh, empty directory for one test.
fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::path(::testing::TempDir()) / ("softcert_hardening_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

void write_text(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

// The headline instance with one edit, written to `path`.
void edited_headline(const fs::path& path, const std::function<void(nlohmann::json&)>& edit) {
  nlohmann::json j = nlohmann::json::parse(std::ifstream(kHeadline));
  edit(j);
  write_text(path, j.dump());
}

// --- 3. messages --------------------------------------------------------------------------------

TEST(CliHardening, FastTierOverflowIsReportedAsOverflowNotAsBadInput) {
  const fs::path dir = fresh_dir("overflow");
  const fs::path in = dir / "big.json", out = dir / "out.json";
  edited_headline(in, [](auto& j) { j["V"][0][0] = "1e20"; });  // valid, large
  const CliRun r = run_softcert("integrate " + in.string() + " --t 1 --json " + out.string());
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.err.find("the fast tier overflowed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--tier rigorous"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("not a decimal number"), std::string::npos) << r.err;  // was: "nan"
  EXPECT_FALSE(fs::exists(out));
}

TEST(CliHardening, DirectoryAndEmptyFilesAreNamedForWhatTheyAre) {
  const fs::path dir = fresh_dir("messages");
  const CliRun d = run_softcert("integrate " + dir.string() + " --t 1");
  EXPECT_EQ(d.status, 2);
  EXPECT_NE(d.err.find("is a directory"), std::string::npos) << d.err;  // was "not valid JSON"
  const fs::path empty = dir / "empty.json";
  write_text(empty, "");
  const CliRun e = run_softcert("replay " + empty.string());
  EXPECT_EQ(e.status, 2);
  EXPECT_NE(e.err.find("empty file"), std::string::npos) << e.err;  // was "not a JSON object"
  const CliRun ei = run_softcert("integrate " + empty.string() + " --t 1");
  EXPECT_EQ(ei.status, 2);
  EXPECT_NE(ei.err.find("empty file"), std::string::npos) << ei.err;
}

TEST(CliHardening, HugeBadValuesAreQuotedInAtMostEightyCharacters) {
  const fs::path dir = fresh_dir("huge");
  const std::string huge(5'000'000, 'z');
  const fs::path value = dir / "value.json", unterminated = dir / "unterminated.json";
  edited_headline(value, [&huge](auto& j) { j["V"][0][0] = huge; });  // a field's value
  write_text(unterminated, "{\"V\": \"" + huge);                      // the JSON parser's "last read"
  for (const auto& f : {value, unterminated})
    for (const std::string& cmd : {"integrate " + f.string() + " --t 1"}) {
      const CliRun r = run_softcert(cmd);
      EXPECT_EQ(r.status, 2) << cmd << "\n" << r.err.substr(0, 300);
      EXPECT_LT(r.err.size(), 600u) << cmd;  // was the whole 5 MB value
      EXPECT_NE(r.err.find(std::string(79, 'z')), std::string::npos) << r.err;  // 80 with the opening quote
      EXPECT_EQ(r.err.find(std::string(81, 'z')), std::string::npos) << r.err;
      EXPECT_NE(r.err.find("zz…"), std::string::npos) << r.err;
    }
}

}  // namespace
}  // namespace softcert
