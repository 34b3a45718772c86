// Hostile but fair input: size limits are exit 2 before any work, report files are
// written atomically and checked, messages say what is wrong (and quote at most 80
// characters), margins print outward, details carry no timings, and a bad instance file is one
// error record inside a suite but exit 2 when given directly.
#include <gtest/gtest.h>
#include <unistd.h>
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
#include "support/scratch_files.hpp"

namespace softcert {
namespace {

namespace fs = std::filesystem;
using testing::scratch_dir;
using testing::write_text;
using testing::read_lines;
using testing::kHeadline;
using testing::CliRun;
using testing::run_softcert;

// A fresh, empty directory for one test.
std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  return out;
}

// Runs softcert under /bin/sh with `prefix` first (ulimit, umask, trap), capturing as run_softcert.
CliRun run_with_prefix(const std::string& prefix, const std::string& args) {
  // One file per process and call: CTest runs the tests of this file in parallel processes, and
  // a shared name let one test read (or delete) another's stderr.
  static int counter = 0;
  const std::string err_file = ::testing::TempDir() + "softcert_hardening_stderr_" + std::to_string(getpid()) + "_" +
                               std::to_string(counter++) + ".txt";
  const std::string cmd = prefix + "; exec " + std::string(SOFTCERT_BINARY) + " " + args + " 2>" + err_file;
  CliRun r;
  FILE* p = popen(cmd.c_str(), "r");
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) r.out += buf;
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  std::ifstream e(err_file);
  r.err.assign(std::istreambuf_iterator<char>(e), {});
  std::remove(err_file.c_str());
  return r;
}

// The headline instance with one edit, written to `path`.
void edited_headline(const fs::path& path, const std::function<void(nlohmann::json&)>& edit) {
  nlohmann::json j = nlohmann::json::parse(std::ifstream(kHeadline));
  edit(j);
  write_text(path, j.dump());
}

// --- 1. size limits ------------------------------------------------------------------------

TEST(CliHardening, SizeLikeInputsOutOfRangeAreExitTwoBeforeAnyWork) {
  const fs::path dir = scratch_dir("hardening", "limits");
  const std::string out = (dir / "out.json").string();
  struct Case {
    std::string args, message;
  };
  const std::vector<Case> cases = {
      // aborted inside GMP (SIGABRT) after minutes
      {"integrate " + kHeadline + " --t 1 --tier rigorous --precision 65536", "--precision: the rigorous tier takes at most 4096 bits"},
      {"integrate " + kHeadline + " --t 1 --tier rigorous --precision 4097", "at most 4096 bits"},
      {"integrate " + kHeadline + " --t 1 --precision 70000", "--precision: must be an integer in [53, 65536]"},
      // wrapped to 2^64 - 5 instances, then allocated until bad_alloc
      {"check sukenik2026.hard_switch --instances -5", "--instances: must be an integer in [0, 1000000]"},
      {"check sukenik2026.hard_switch --instances 100000000", "--instances: must be an integer in [0, 1000000]"},
      {"check sukenik2026.hard_switch --instances 1 --precision 0", "--precision: must be an integer in [53, 65536]"},
      // aborted inside GMP: check took the rigorous tier to 65536 bits (integrate's cap, reused)
      {"check varre2026.order_preservation --instances 1 --tier rigorous --precision 65536",
       "--precision: the rigorous tier takes at most 4096 bits, got 65536"},
      {"check varre2026.order_preservation --instances 1 --precision 4097", "at most 4096 bits"},
      // neither may become 2^64 - 1
      {"check sukenik2026.hard_switch --instances 1 --seed -1", "--seed: must be an integer in [0, 18446744073709551615]"},
      {"check sukenik2026.hard_switch --instances 1 --seed 18446744073709551616", "--seed: must be an integer"},
      {"search sukenik2026.hard_switch --seed -1", "--seed: must be an integer"},
      {"search sukenik2026.hard_switch --max-samples -1", "--max-samples: must be an integer"},
      // must not run silently at the check's horizon 100 and say proved
      {"check varre2026.order_preservation --instances 1 --horizon 0", "--horizon: must be a positive finite number"},
      {"check varre2026.order_preservation --instances 1 --horizon nan", "--horizon: must be a positive finite number"},
      {"search varre2026.order_preservation --horizon 0", "--horizon: must be a positive finite number"},
  };
  for (const auto& c : cases) {
    fs::remove(out);
    const bool is_search = c.args.rfind("search", 0) == 0, is_integrate = c.args.rfind("integrate", 0) == 0;
    const std::string args = c.args + (is_search ? " --budget 1 --out " : is_integrate ? " --json " : " -q --json ") + out;
    const CliRun r = run_softcert(args);
    EXPECT_EQ(r.status, 2) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << args << "\n" << r.err;
    EXPECT_FALSE(fs::exists(out)) << args;
  }
  // The edges of the ranges are accepted; leading zeros are decimal, not octal.
  EXPECT_EQ(run_softcert("check sukenik2026.hard_switch --instances 1 -q --seed 18446744073709551615").status, 0);
  const std::string a = (dir / "a.jsonl").string(), b = (dir / "b.jsonl").string();
  ASSERT_EQ(run_softcert("check sukenik2026.hard_switch --instances 1 -q --seed 010 --json " + a).status, 0);
  ASSERT_EQ(run_softcert("check sukenik2026.hard_switch --instances 1 -q --seed 10 --json " + b).status, 0);
  EXPECT_EQ(read_lines(a)[0]["seed"], read_lines(b)[0]["seed"]);
}

// --- 2. atomic, checked writes ----------------------------------------------------------------

TEST(CliHardening, IntegrateJsonOnAFullDiskIsExitTwoAndLeavesNothing) {
  const fs::path dir = scratch_dir("hardening", "full_disk");
  const fs::path out = dir / "out.json";
  // ulimit -f 1: writes past 1 KB fail with EFBIG, as on a full file system (SIGXFSZ ignored).
  const CliRun r = run_with_prefix("trap '' XFSZ; ulimit -f 1", "integrate " + kHeadline + " --t 1 --json " + out.string());
  EXPECT_EQ(r.status, 2) << r.err;  // was 0, with a 1024-byte invalid JSON file
  EXPECT_NE(r.err.find("cannot write " + out.string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err;  // strerror
  EXPECT_TRUE(names_in(dir).empty()) << "left behind: " << (names_in(dir).empty() ? "" : names_in(dir)[0]);

  // /dev/full: ENOSPC on the first write (a device is written straight to, still checked).
  const CliRun full = run_softcert("integrate " + kHeadline + " --t 1 --json /dev/full");
  EXPECT_EQ(full.status, 2) << full.err;
  EXPECT_NE(full.err.find("No space left on device"), std::string::npos) << full.err;

  // A missing directory names the path and the reason.
  const CliRun missing = run_softcert("integrate " + kHeadline + " --t 1 --json " + (dir / "no" / "x.json").string());
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("No such file or directory"), std::string::npos) << missing.err;

  // Success: the file is complete JSON with the mode the user's umask gives, and nothing else.
  const CliRun ok = run_with_prefix("umask 022", "integrate " + kHeadline + " --t 1 --json " + out.string());
  ASSERT_EQ(ok.status, 0) << ok.err;
  EXPECT_EQ(nlohmann::json::parse(std::ifstream(out))["tier"], "fast");
  struct stat st {};
  ASSERT_EQ(::stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
  EXPECT_EQ(names_in(dir).size(), 1u);
}

TEST(CliHardening, ReportWriteFailureIsAnErrorNotAnInternalErrorAndLeavesNoTemp) {
  const fs::path dir = scratch_dir("hardening", "check_json_full");
  const fs::path out = dir / "results.jsonl";
  const CliRun r = run_with_prefix("trap '' XFSZ; ulimit -f 1",
                                   "check sukenik2026.hard_switch --instances 8 -q --json " + out.string());
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cannot write " + out.string() + ": File too large"), std::string::npos) << r.err;
  EXPECT_TRUE(names_in(dir).empty()) << "left behind: " << (names_in(dir).empty() ? "" : names_in(dir)[0]);
}

// --- 3. messages --------------------------------------------------------------------------------

TEST(CliHardening, FastTierOverflowIsReportedAsOverflowNotAsBadInput) {
  const fs::path dir = scratch_dir("hardening", "overflow");
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
  const fs::path dir = scratch_dir("hardening", "messages");
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
  const fs::path dir = scratch_dir("hardening", "huge");
  const std::string huge(5'000'000, 'z');
  const fs::path value = dir / "value.json", unterminated = dir / "unterminated.json";
  edited_headline(value, [&huge](auto& j) { j["V"][0][0] = huge; });  // a field's value
  write_text(unterminated, "{\"V\": \"" + huge);                      // the JSON parser's "last read"
  for (const auto& f : {value, unterminated})
    for (const std::string& cmd : {"integrate " + f.string() + " --t 1",
                                  "check varre2026.order_preservation -q --instance " + f.string()}) {
      const CliRun r = run_softcert(cmd);
      EXPECT_EQ(r.status, 2) << cmd << "\n" << r.err.substr(0, 300);
      EXPECT_LT(r.err.size(), 600u) << cmd;  // was the whole 5 MB value
      EXPECT_NE(r.err.find(std::string(79, 'z')), std::string::npos) << r.err;  // 80 with the opening quote
      EXPECT_EQ(r.err.find(std::string(81, 'z')), std::string::npos) << r.err;
      EXPECT_NE(r.err.find("zz…"), std::string::npos) << r.err;
    }
}

// --- 4. outward margins -------------------------------------------------------------------------

// The cost-scaling margin, recomputed from the certified ratio brackets in details.rows[].ratio
// (doubles, exact in JSON) exactly as the check computes it:
//  - orthonormal: min over T of cost_diag / cost_sink − 1: [min lower ends − 1, min upper
//    ends − 1] (each − 1 is exact in double, Sterbenz);
//  - gaussian: the mean over T of log(cost_diag / cost_sink), in IntervalD.
// The printed decimals must contain that interval exactly; they were rounded to nearest.
TEST(CliHardening, CostScalingMarginPrintedOutwardContainsItsInterval) {
  const fs::path dir = scratch_dir("hardening", "margin");
  const fs::path out = dir / "r.jsonl";
  const CliRun r = run_softcert("check sukenik2026.cost_scaling --instances 8 -q --json " + out.string());
  ASSERT_EQ(r.status, 0) << r.err;
  std::size_t orthonormal = 0, gaussian = 0;
  for (const auto& rec : read_lines(out)) {
    ASSERT_EQ(rec["verdict"], "proved") << rec.dump().substr(0, 400);
    Rational lo, hi;
    if (rec["details"]["embedding"] == "orthonormal") {
      double l = INFINITY, h = INFINITY;
      for (const auto& row : rec["details"]["rows"]) {
        l = std::min(l, row["ratio"][0].get<double>());
        h = std::min(h, row["ratio"][1].get<double>());
      }
      lo = Rational(l) - 1;
      hi = Rational(h) - 1;
      ++orthonormal;
    } else {
      IntervalD sum(0.0);
      double n = 0;
      for (const auto& row : rec["details"]["rows"]) {
        if (!row.contains("ratio")) continue;
        sum += num::log(num::hull_of_bounds<IntervalD>(row["ratio"][0].get<double>(), row["ratio"][1].get<double>()));
        n += 1;
      }
      const IntervalD mean = sum / IntervalD(n);
      lo = Rational(num::lower(mean));
      hi = Rational(num::upper(mean));
      ++gaussian;
    }
    const std::string margin = rec["margin"].dump();
    EXPECT_TRUE(num::parse_decimal<Rational>(rec["margin"][0].get<std::string>()) <= lo) << margin << " lower end above the interval's";
    EXPECT_TRUE(num::parse_decimal<Rational>(rec["margin"][1].get<std::string>()) >= hi) << margin << " upper end below the interval's";
  }
  EXPECT_GT(orthonormal, 0u);
  EXPECT_GT(gaussian, 0u);
}

// --- 5. details carry no timings ----------------------------------------------------------------

bool has_key_anywhere(const nlohmann::json& j, const std::string& key) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      if (it.key() == key || has_key_anywhere(it.value(), key)) return true;
  } else if (j.is_array()) {
    for (const auto& v : j)
      if (has_key_anywhere(v, key)) return true;
  }
  return false;
}

TEST(CliHardening, TwoEqualRunsGiveIdenticalRecordsApartFromTopLevelSeconds) {
  const fs::path dir = scratch_dir("hardening", "timings");
  const fs::path a = dir / "a.jsonl", b = dir / "b.jsonl";
  const std::string args = "check sukenik2026.cost_scaling --instances 2 -q --json ";
  ASSERT_EQ(run_softcert(args + a.string()).status, 0);
  ASSERT_EQ(run_softcert(args + b.string()).status, 0);
  auto ra = read_lines(a), rb = read_lines(b);
  ASSERT_EQ(ra.size(), 2u);
  ASSERT_EQ(ra.size(), rb.size());
  for (std::size_t i = 0; i < ra.size(); ++i) {
    EXPECT_FALSE(has_key_anywhere(ra[i]["details"], "seconds")) << ra[i]["details"].dump().substr(0, 400);
    ra[i].erase("seconds");  // the documented timing field (docs/reports.md)
    rb[i].erase("seconds");
    EXPECT_EQ(ra[i], rb[i]) << ra[i].dump().substr(0, 300);
  }
}

// --- 6. one rule for bad input -----------------------------------------------------------------

TEST(CliHardening, BadInstanceFileIsAnErrorRecordInASuiteAndExitTwoWhenGivenDirectly) {
  const fs::path dir = scratch_dir("hardening", "bad_in_suite");
  const fs::path bad = dir / "not_utf8.json";
  write_text(bad, "{\"model\": \"value_softmax\", \"loss\": \"\xff\xfe\"}");
  write_text(dir / "s.toml", "name = \"bad\"\nseed = 1\n[[check]]\nname = \"varre2026.order_preservation\"\n"
                             "instance_files = [\"not_utf8.json\", \"" + kHeadline + "\"]\nhorizon = 1.0\n");
  const fs::path out = dir / "run";
  const CliRun r = run_softcert("suite " + (dir / "s.toml").string() + " -q --out " + out.string());
  EXPECT_EQ(r.status, 1) << r.err;  // was 2, "internal error: ... invalid UTF-8 byte", no summary
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  const auto records = read_lines(out / "results.jsonl");
  ASSERT_EQ(records.size(), 2u);  // the suite went on
  EXPECT_EQ(records[0]["verdict"], "error");
  EXPECT_NE(records[0]["reason"].get<std::string>().find("bad input: " + bad.string()), std::string::npos)
      << records[0]["reason"];
  EXPECT_NE(records[0]["reason"].get<std::string>().find("\\xFF"), std::string::npos) << records[0]["reason"];
  EXPECT_EQ(records[1]["verdict"], "proved");
  EXPECT_TRUE(fs::exists(out / "summary.json"));

  // Given directly: exit 2, nothing run, nothing written.
  const fs::path json = dir / "direct.jsonl";
  for (const std::string& cmd : {"check varre2026.order_preservation -q --instance " + bad.string() + " --json " + json.string(),
                                "integrate " + bad.string() + " --t 1 --json " + json.string(),
                                "replay " + bad.string()}) {
    const CliRun d = run_softcert(cmd);
    EXPECT_EQ(d.status, 2) << cmd << "\n" << d.err;  // check: was 1 with an error record
    EXPECT_NE(d.err.find("not valid JSON"), std::string::npos) << cmd << "\n" << d.err;
    EXPECT_FALSE(fs::exists(json)) << cmd;
  }
}

}  // namespace
}  // namespace softcert
