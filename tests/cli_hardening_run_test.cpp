// Hostile but fair input, part 2: the rigorous precision cap in suites, the margin
// contract of strict and non-strict claims, run identity for --resume and merge, the lock on
// --out, strict JSON and unknown params.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/suite.hpp"
#include "engine/run_identity.hpp"
#include "support/run_cli.hpp"
#include "support/scratch_files.hpp"

namespace softcert {
namespace {

namespace fs = std::filesystem;
using testing::scratch_dir;
using testing::write_text;
using testing::read_text;
using testing::read_lines;
using testing::kHeadline;
using testing::CliRun;
using testing::run_softcert;

// --- rigorous precision cap -----------------------------------------------------------------

TEST(CliHardeningRun, SuiteRigorousPrecisionAboveTheCapIsExitTwo) {
  const fs::path dir = scratch_dir("hardening_run", "precision");
  write_text(dir / "s.toml",
             "seed = 1\n[[check]]\nname = \"varre2026.order_preservation\"\ninstances = 1\nprecision = 8192\n");
  const CliRun r = run_softcert("suite " + (dir / "s.toml").string() + " -q --out " + (dir / "out").string());
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("precision: the rigorous tier takes at most 4096 bits, got 8192"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "out" / "results.jsonl"));
  // The fast tier keeps its larger range.
  write_text(dir / "f.toml", "seed = 1\n[[check]]\nname = \"sukenik2026.hard_switch\"\ninstances = 1\n"
                             "tier = \"fast\"\nprecision = 8192\n");
  EXPECT_NE(run_softcert("suite " + (dir / "f.toml").string() + " -q").status, 2);
}

// --- integers in a suite are TOML integers --------------------------------------------------

// fuzz_suite found `instances = 34e26`: toml++ converted the float to long (undefined behaviour).
// A float where an integer belongs is refused like any other bad value.
TEST(CliHardeningRun, SuiteIntegerFieldsRefuseFloats) {
  const fs::path dir = scratch_dir("hardening_run", "float_int");
  for (const std::string& line : {std::string("instances = 34e26"), std::string("instances = 2.0"),
                                   std::string("instances = 1\nprecision = 1e300")}) {
    write_text(dir / "s.toml", "seed = 1\n[[check]]\nname = \"sukenik2026.hard_switch\"\n" + line + "\n");
    EXPECT_THROW((void)engine::load_suite(dir / "s.toml"), std::invalid_argument) << line;
    const CliRun r = run_softcert("suite " + (dir / "s.toml").string() + " -q --out " + (dir / "out").string());
    EXPECT_EQ(r.status, 2) << line << ": " << r.err;
    EXPECT_NE(r.err.find("must be an integer"), std::string::npos) << r.err;
  }
  write_text(dir / "seed.toml", "seed = 1e30\n[[check]]\nname = \"sukenik2026.hard_switch\"\ninstances = 1\n");
  EXPECT_THROW((void)engine::load_suite(dir / "seed.toml"), std::invalid_argument);
}

// --- margins: strict claims need lower > 0; repulsion's "nondecreasing" is non-strict ---------

TEST(CliHardeningRun, ProvedMarginsBackTheirClaim) {
  const fs::path dir = scratch_dir("hardening_run", "margins");
  for (const std::string& check : std::vector<std::string>{"varre2026.repulsion.leader", "varre2026.order_preservation"}) {
    const fs::path out = dir / (check + ".jsonl");
    const CliRun r = run_softcert("check " + check + " --instances 2 --horizon 10 -q --json " + out.string());
    ASSERT_EQ(r.status, 0) << r.err;
    for (const auto& rec : read_lines(out)) {
      ASSERT_EQ(rec["verdict"], "proved") << rec.dump();
      const std::string lo = rec["margin"][0];
      if (check == "varre2026.order_preservation") {
        EXPECT_GT(std::stod(lo), 0) << rec.dump();
      } else {
        // Δ' = c(s_i − s_j) is exactly 0 at t = 0 (a(0) uniform): the non-strict claim's margin is 0.
        EXPECT_GE(std::stod(lo), 0) << rec.dump();
      }
    }
  }
  // `softcert list` says which claims are non-strict.
  const CliRun list = run_softcert("list --verbose");
  EXPECT_NE(list.out.find("margin:    >= 0 (non-strict claim)"), std::string::npos) << list.out;
}

// --- run identity: --resume and merge take only records of the same run ----------------------

const std::string kSuiteText =
    "name = \"identity\"\nseed = 1\n[[check]]\nname = \"sukenik2026.hard_switch\"\ninstances = 6\n";

// results.jsonl without "seconds" (the one field that differs between equal runs)
std::string without_seconds(const fs::path& journal) {
  std::string out;
  for (auto r : read_lines(journal)) {
    r.erase("seconds");
    out += r.dump() + "\n";
  }
  return out;
}

// A finished run of `suite` in `out`, then its journal cut to the first `keep` lines.
void partial_run(const fs::path& suite, const fs::path& out, int keep) {
  ASSERT_EQ(run_softcert("suite " + suite.string() + " -q --out " + out.string()).status, 0);
  std::ifstream in(out / "results.jsonl");
  std::string line, kept;
  for (int i = 0; i < keep && std::getline(in, line); ++i) kept += line + "\n";
  in.close();
  write_text(out / "results.jsonl", kept);
  for (const char* f : {"summary.json", "junit.xml", "manifest.json"}) fs::remove(out / f);
}

TEST(CliHardeningRun, ResumeRefusesAnotherRunAndSaysWhatDiffers) {
  const fs::path dir = scratch_dir("hardening_run", "identity_resume");
  write_text(dir / "s.toml", kSuiteText);
  const fs::path full = dir / "full";
  ASSERT_EQ(run_softcert("suite " + (dir / "s.toml").string() + " -q --out " + full.string()).status, 0);
  EXPECT_TRUE(fs::exists(full / "run.json"));
  const std::string id = nlohmann::json::parse(read_text(full / "run.json"))["id"];
  for (const auto& r : read_lines(full / "results.jsonl")) EXPECT_EQ(r["run"], id) << "every record carries the run id";

  struct Case {
    std::string suite_text, message;
  };
  std::string other_params = kSuiteText + "params = { samples = 32 }\n";
  std::string other_seed = kSuiteText;
  other_seed.replace(other_seed.find("seed = 1"), 8, "seed = 2");
  std::string other_tier = kSuiteText + "tier = \"fast\"\n";
  for (const Case& c : {Case{other_seed, "seed: 1 (the earlier run) vs 2 (this run)"},
                        Case{other_params, "entry 'sukenik2026.hard_switch': params"},
                        Case{other_tier, "entry 'sukenik2026.hard_switch': tier: \"rigorous\" (the earlier run) vs \"fast\""}}) {
    const fs::path out = dir / "partial";
    fs::remove_all(out);
    partial_run(dir / "s.toml", out, 3);
    const std::string journal = read_text(out / "results.jsonl");
    write_text(dir / "edited.toml", c.suite_text);
    const CliRun r = run_softcert("suite " + (dir / "edited.toml").string() + " -q --resume --out " + out.string());
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("holds another run"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(read_text(out / "results.jsonl"), journal) << "a refused journal is left alone";
    EXPECT_FALSE(fs::exists(out / "summary.json"));
  }

  // Another build of the same version is another run: its records may differ.
  {
    const fs::path out = dir / "other_build";
    partial_run(dir / "s.toml", out, 3);
    nlohmann::json header = nlohmann::json::parse(read_text(out / "run.json"));
    ASSERT_TRUE(header["identity"].contains("build_commit"));
    header["identity"]["build_commit"] = "0000000";
    header["id"] = engine::sha256_hex(header["identity"].dump()).substr(0, 32);
    write_text(out / "run.json", header.dump());
    const CliRun r = run_softcert("suite " + (dir / "s.toml").string() + " -q --resume --out " + out.string());
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("build_commit: \"0000000\" (the earlier run)"), std::string::npos) << r.err;
  }

  // An identical copy of the suite at another path is the same run.
  fs::create_directories(dir / "elsewhere");
  write_text(dir / "elsewhere" / "copy.toml", kSuiteText);
  const fs::path out = dir / "copy_resume";
  partial_run(dir / "s.toml", out, 3);
  const CliRun r = run_softcert("suite " + (dir / "elsewhere" / "copy.toml").string() + " -q --resume --out " + out.string());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("resumed: 3 results"), std::string::npos) << r.out;
  EXPECT_EQ(without_seconds(out / "results.jsonl"), without_seconds(full / "results.jsonl"));
}

TEST(CliHardeningRun, ResumeRefusesForeignRecordsAndUnknownVerdicts) {
  const fs::path dir = scratch_dir("hardening_run", "identity_records");
  write_text(dir / "s.toml", kSuiteText);
  const fs::path out = dir / "out";
  partial_run(dir / "s.toml", out, 3);
  const std::vector<nlohmann::json> lines = read_lines(out / "results.jsonl");
  auto journal_with = [&](const std::function<void(nlohmann::json&)>& edit) {
    std::string text;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      nlohmann::json r = lines[i];
      if (i == 1) edit(r);
      text += r.dump() + "\n";
    }
    return text;
  };
  struct Case {
    std::string journal, message;
  };
  const std::vector<Case> cases = {
      {journal_with([](nlohmann::json& r) { r["run"] = "0123456789abcdef0123456789abcdef"; }), "belongs to run 0123456789abcdef"},
      {journal_with([](nlohmann::json& r) { r.erase("run"); }), "belongs to run (none)"},
      {journal_with([](nlohmann::json& r) { r["verdict"] = "great"; }),
       "verdict \"great\" is not one of proved, confirmed, violated, inconclusive, error"},
  };
  for (const auto& c : cases) {
    write_text(out / "results.jsonl", c.journal);
    const CliRun r = run_softcert("suite " + (dir / "s.toml").string() + " -q --resume --out " + out.string());
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(read_text(out / "results.jsonl"), c.journal);
  }
  // A journal without its header (run.json) cannot be vouched for.
  write_text(out / "results.jsonl", journal_with([](nlohmann::json&) {}));
  fs::remove(out / "run.json");
  const CliRun r = run_softcert("suite " + (dir / "s.toml").string() + " -q --resume --out " + out.string());
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("run.json is missing"), std::string::npos) << r.err;
}

TEST(CliHardeningRun, MergeTakesShardsOfOneRunOnly) {
  const fs::path dir = scratch_dir("hardening_run", "identity_merge");
  write_text(dir / "s.toml", kSuiteText);
  fs::create_directories(dir / "elsewhere");
  write_text(dir / "elsewhere" / "copy.toml", kSuiteText);
  write_text(dir / "h.toml", kSuiteText + "params = { samples = 32 }\n");
  auto shard = [&](const std::string& suite, const std::string& k, const std::string& name) {
    const fs::path out = dir / name;
    const CliRun r = run_softcert("suite " + (dir / suite).string() + " -q --shard " + k + " --out " + out.string());
    EXPECT_TRUE(r.status == 0 || r.status == 1) << r.err;
    return out.string();
  };
  const std::string a = shard("s.toml", "1/2", "a"), b = shard("elsewhere/copy.toml", "2/2", "b"),
                    c = shard("h.toml", "2/2", "c");
  // the same content at another path: accepted, and equal to the unsharded run (run id included:
  // the merged report is the whole run's)
  const CliRun ok = run_softcert("merge --out " + (dir / "m1").string() + " " + a + " " + b);
  EXPECT_EQ(ok.status, 0) << ok.err;
  ASSERT_EQ(run_softcert("suite " + (dir / "s.toml").string() + " -q --out " + (dir / "whole").string()).status, 0);
  EXPECT_EQ(without_seconds(dir / "m1" / "results.jsonl"), without_seconds(dir / "whole" / "results.jsonl"));
  EXPECT_EQ(read_text(dir / "m1" / "run.json"), read_text(dir / "whole" / "run.json"));
  // ... so --resume there recomputes nothing
  const CliRun again = run_softcert("suite " + (dir / "s.toml").string() + " -q --resume --out " + (dir / "m1").string());
  EXPECT_EQ(again.status, 0) << again.err;
  EXPECT_NE(again.out.find("resumed: 6 results"), std::string::npos) << again.out;
  // params edited between the shards: refused, saying what differs
  const CliRun bad = run_softcert("merge --out " + (dir / "m2").string() + " " + a + " " + c);
  EXPECT_EQ(bad.status, 2) << bad.err;
  EXPECT_NE(bad.err.find("a shard of another run"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("params"), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists(dir / "m2" / "results.jsonl"));
  // the suite file edited after the shards ran: refused
  write_text(dir / "s.toml", kSuiteText + "params = { samples = 16 }\n");
  write_text(dir / "elsewhere" / "copy.toml", kSuiteText + "params = { samples = 16 }\n");
  const CliRun changed = run_softcert("merge --out " + (dir / "m3").string() + " " + a + " " + b);
  EXPECT_EQ(changed.status, 2) << changed.err;
  EXPECT_NE(changed.err.find("changed since the shards ran"), std::string::npos) << changed.err;
  // a record whose verdict is not a verdict: refused
  const std::string journal = read_text(fs::path(b) / "results.jsonl");
  std::string great = journal;
  great.replace(great.find("\"verdict\":\""), std::string("\"verdict\":\"").size(), "\"verdict\":\"great\",\"x\":\"");
  write_text(fs::path(b) / "results.jsonl", great);
  write_text(dir / "s.toml", kSuiteText);
  const CliRun g = run_softcert("merge --out " + (dir / "m4").string() + " " + a + " " + b);
  EXPECT_EQ(g.status, 2) << g.err;
  EXPECT_NE(g.err.find("verdict \"great\""), std::string::npos) << g.err;
}

// --- one run per --out at a time; a fresh run moves an earlier run aside ---------------------

TEST(CliHardeningRun, OutDirectoryIsLockedAndOldReportsAreMovedAside) {
  const fs::path dir = scratch_dir("hardening_run", "lock");
  write_text(dir / "s.toml", kSuiteText);
  const fs::path out = dir / "out";
  fs::create_directories(out);
  // Another run holds the lock.
  const int fd = ::open((out / ".softcert.lock").c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  ASSERT_EQ(::pwrite(fd, "4242\n", 5, 0), 5);
  for (const std::string& args : std::vector<std::string>{"suite " + (dir / "s.toml").string() + " -q --out " + out.string(),
                                 "suite " + (dir / "s.toml").string() + " -q --resume --out " + out.string()}) {
    const CliRun r = run_softcert(args);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("another softcert run is using this directory (pid 4242 holds"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out / "results.jsonl")) << args;
    EXPECT_FALSE(fs::exists(out / "run.json")) << args;
  }
  const CliRun m = run_softcert("merge --out " + out.string() + " " + out.string());
  EXPECT_EQ(m.status, 2) << m.err;
  ::close(fd);  // released

  // A finished run, then a fresh run of another suite into the same directory.
  ASSERT_EQ(run_softcert("suite " + (dir / "s.toml").string() + " -q --out " + out.string()).status, 0);
  const std::string old_summary = read_text(out / "summary.json"), old_journal = read_text(out / "results.jsonl");
  write_text(dir / "t.toml", "name = \"other\"\nseed = 5\n[[check]]\nname = \"sukenik2026.oversmoothing\"\ninstances = 2\n");
  const CliRun r = run_softcert("suite " + (dir / "t.toml").string() + " -q --out " + out.string());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("moved the earlier run's files"), std::string::npos) << r.err;
  EXPECT_EQ(read_text(out / "previous" / "summary.json"), old_summary);
  EXPECT_EQ(read_text(out / "previous" / "results.jsonl"), old_journal);
  EXPECT_NE(read_text(out / "summary.json"), old_summary);
  for (const auto& rec : read_lines(out / "results.jsonl")) EXPECT_EQ(rec["check"], "sukenik2026.oversmoothing");
  // a third run replaces softcert's own previous/ ...
  ASSERT_EQ(run_softcert("suite " + (dir / "s.toml").string() + " -q --out " + out.string()).status, 0);
  for (const auto& rec : read_lines(out / "previous" / "results.jsonl")) EXPECT_EQ(rec["check"], "sukenik2026.oversmoothing");
  // ... but never a directory of the user's that happens to be called previous/ (it was deleted)
  fs::remove_all(out / "previous");
  fs::create_directories(out / "previous");
  write_text(out / "previous" / "mine.txt", "precious\n");
  const std::string journal = read_text(out / "results.jsonl");
  const CliRun u = run_softcert("suite " + (dir / "s.toml").string() + " -q --out " + out.string());
  EXPECT_EQ(u.status, 2) << u.err;
  EXPECT_NE(u.err.find("exists and softcert did not make it"), std::string::npos) << u.err;
  EXPECT_EQ(read_text(out / "previous" / "mine.txt"), "precious\n");
  EXPECT_EQ(read_text(out / "results.jsonl"), journal) << "nothing moved";
}

// A full disk in the middle of a journal append: exit 2, and the journal is cut back to whole
// lines (no partial line stays behind), so --resume continues it cleanly.
TEST(CliHardeningRun, FullDiskDuringAJournalAppendLeavesWholeLines) {
  const fs::path dir = scratch_dir("hardening_run", "journal_full");
  write_text(dir / "s.toml", kSuiteText);
  const fs::path out = dir / "out";
  const std::string err_file = (dir / "err.txt").string();
  // ulimit -f 6: writes past 6 KB fail with EFBIG, as on a full file system (SIGXFSZ ignored).
  const std::string cmd = "trap '' XFSZ; ulimit -f 6; exec " + std::string(SOFTCERT_BINARY) + " suite " +
                          (dir / "s.toml").string() + " -q --out " + out.string() + " >/dev/null 2>" + err_file;
  const int st = std::system(("/bin/sh -c \"" + cmd + "\"").c_str());
  ASSERT_TRUE(WIFEXITED(st));
  EXPECT_EQ(WEXITSTATUS(st), 2) << read_text(err_file);
  EXPECT_NE(read_text(err_file).find("cannot write " + (out / "results.jsonl").string() + ": File too large"),
            std::string::npos)
      << read_text(err_file);
  const std::string journal = read_text(out / "results.jsonl");
  ASSERT_FALSE(journal.empty());
  EXPECT_EQ(journal.back(), '\n') << "the journal ends with a whole line";
  EXPECT_NO_THROW(read_lines(out / "results.jsonl"));
  EXPECT_FALSE(fs::exists(out / "summary.json"));
  const CliRun r = run_softcert("suite " + (dir / "s.toml").string() + " -q --resume --out " + out.string());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("dropped"), std::string::npos) << "nothing to drop: " << r.err;
  ASSERT_EQ(run_softcert("suite " + (dir / "s.toml").string() + " -q --out " + (dir / "full").string()).status, 0);
  EXPECT_EQ(without_seconds(out / "results.jsonl"), without_seconds(dir / "full" / "results.jsonl"));
}

// --- strict JSON ----------------------------------------------------------------------------

TEST(CliHardeningRun, InstanceJsonIsParsedStrictly) {
  const fs::path dir = scratch_dir("hardening_run", "strict_json");
  const std::string good = read_text(kHeadline);
  nlohmann::json j = nlohmann::json::parse(good);
  struct Case {
    std::string name, text, message;
  };
  auto with_v00 = [&j](const std::string& v) {
    nlohmann::json k = j;
    k["V"][0][0] = v;
    return k.dump();
  };
  const std::vector<Case> cases = {
      {"dup", "{\"T\": 99, " + good.substr(good.find('{') + 1), "duplicate key \"T\""},
      {"dup_nested", std::string("{\"authors_run\": {\"a\": 1, \"a\": 2}, ") + good.substr(good.find('{') + 1),
       "duplicate key \"a\" in authors_run"},
      {"nul", good + std::string(1, '\0') + "garbage", "contains a NUL byte"},
      {"five_dot", with_v00("5."), "V[0][0]: not a decimal number: \"5.\""},
      {"plus_dot_five", with_v00("+.5"), "V[0][0]: not a decimal number: \"+.5\""},
  };
  for (const auto& c : cases) {
    const fs::path f = dir / (c.name + ".json");
    write_text(f, c.text);
    // given directly: exit 2, the message names the file (or the field) and the problem
    const CliRun r = run_softcert("integrate " + f.string() + " --t 1");
    EXPECT_EQ(r.status, 2) << c.name << ": " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.name << ": " << r.err;
    if (c.name != "five_dot" && c.name != "plus_dot_five") {
      EXPECT_NE(r.err.find(f.string()), std::string::npos) << r.err;
    }
    EXPECT_LE(r.err.size(), 600u) << "messages quote excerpts only";
    const CliRun k = run_softcert("check varre2026.order_preservation -q --horizon 1 --instance " + f.string());
    EXPECT_EQ(k.status, 2) << c.name << ": " << k.err;
    EXPECT_NE(k.err.find(c.message), std::string::npos) << c.name << ": " << k.err;
  }
  // In a suite the bad file is one error record, with the reason.
  write_text(dir / "s.toml", "seed = 1\n[[check]]\nname = \"varre2026.order_preservation\"\nhorizon = 1.0\n"
                             "instance_files = [\"dup.json\"]\n");
  const CliRun s = run_softcert("suite " + (dir / "s.toml").string() + " -q --out " + (dir / "out").string());
  EXPECT_EQ(s.status, 1) << s.err;
  const auto recs = read_lines(dir / "out" / "results.jsonl");
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0]["verdict"], "error");
  EXPECT_NE(recs[0]["reason"].get<std::string>().find("duplicate key \"T\""), std::string::npos) << recs[0].dump();
  // A journal line with a duplicate key is corrupt for --resume.
  std::string journal = read_text(dir / "out" / "results.jsonl");
  journal.insert(1, "\"verdict\":\"proved\",");
  write_text(dir / "out" / "results.jsonl", journal);
  const CliRun res = run_softcert("suite " + (dir / "s.toml").string() + " -q --resume --out " + (dir / "out").string());
  EXPECT_EQ(res.status, 2) << res.err;
  EXPECT_NE(res.err.find("duplicate key \"verdict\""), std::string::npos) << res.err;
}

// --- unknown params -------------------------------------------------------------------------

TEST(CliHardeningRun, UnknownParamsAreExitTwoNamingTheKnownOnes) {
  const fs::path dir = scratch_dir("hardening_run", "params");
  const CliRun r = run_softcert("check sukenik2026.hard_switch --instances 1 -q --param sampels=3 --json " +
                                (dir / "r.jsonl").string());
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--param: unknown param \"sampels\" for sukenik2026.hard_switch (known: d, T, samples)"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir / "r.jsonl"));
  EXPECT_EQ(run_softcert("check sukenik2026.hard_switch --instances 1 -q --param samples=3").status, 0);
  const CliRun none = run_softcert("check sukenik2026.sink_representability --instances 1 -q --param eps=0.1");
  EXPECT_EQ(none.status, 2);
  EXPECT_NE(none.err.find("known: d, T"), std::string::npos) << none.err;
  write_text(dir / "s.toml", "seed = 1\n[[check]]\nname = \"varre2026.one_hot.finite\"\ninstances = 1\n"
                             "[check.params]\neps = 0.1\nepsilon = 0.2\n");
  const CliRun s = run_softcert("suite " + (dir / "s.toml").string() + " -q --out " + (dir / "out").string());
  EXPECT_EQ(s.status, 2) << s.err;
  EXPECT_NE(s.err.find("params: unknown param \"epsilon\" for varre2026.one_hot.finite (known: T, d, a_scale, eps)"),
            std::string::npos)
      << s.err;
  EXPECT_FALSE(fs::exists(dir / "out" / "results.jsonl"));
}

// Every suite shipped in the repository uses only known params (and loads).
TEST(CliHardeningRun, ShippedSuitesUseOnlyKnownParams) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(std::string(SOFTCERT_SOURCE_DIR) + "/proofs_checks/suites")) {
    if (e.path().extension() != ".toml") continue;
    EXPECT_NO_THROW(engine::load_suite(e.path())) << e.path();
    ++n;
  }
  for (const auto& e : fs::recursive_directory_iterator(std::string(SOFTCERT_SOURCE_DIR) + "/tests/data")) {
    if (e.path().extension() != ".toml") continue;
    EXPECT_NO_THROW(engine::load_suite(e.path())) << e.path();
    ++n;
  }
  EXPECT_GE(n, 2u);
}

}  // namespace
}  // namespace softcert
