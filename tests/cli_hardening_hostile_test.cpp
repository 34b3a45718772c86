// Hostile input: no symlink followed when writing, no unbounded read, no tampered record
// trusted, no option accepted that fails later. Each case fails without the guard it tests.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/run_cli.hpp"
#include "support/scratch_files.hpp"

namespace softcert {
namespace {

namespace fs = std::filesystem;
using testing::CliRun;
using testing::kHeadline;
using testing::read_lines;
using testing::read_text;
using testing::run_softcert;
using testing::scratch_dir;
using testing::write_text;

// softcert under /bin/sh with `prefix` first (ulimit, timeout), capturing as run_softcert.
CliRun hostile_run_with(const std::string& prefix, const std::string& args) { return testing::run_softcert_after(prefix, args); }

const std::string kHostileSuite =
    "name = \"hostile\"\nseed = 3\n[[check]]\nname = \"sukenik2026.hard_switch\"\ninstances = 4\n";

// --- 1. no symlink followed when writing --------------------------------------------------

TEST(CliHostile, SymlinkedLockIsRefusedAndItsTargetUntouched) {
  const fs::path dir = scratch_dir("hostile", "lock");
  write_text(dir / "s.toml", kHostileSuite);
  write_text(dir / "target", "precious\n");
  for (const char* out : {"suite_out", "merge_out"}) {
    fs::create_directories(dir / out);
    fs::create_symlink(dir / "target", dir / out / ".softcert.lock");
  }
  const CliRun s = run_softcert("suite " + (dir / "s.toml").string() + " -q --out " + (dir / "suite_out").string());
  EXPECT_EQ(s.status, 2) << s.err;
  EXPECT_NE(s.err.find(".softcert.lock is a symbolic link"), std::string::npos) << s.err;
  // merge takes the same lock (given two real shards)
  const fs::path s1 = dir / "s1", s2 = dir / "s2";
  ASSERT_EQ(run_softcert("suite " + (dir / "s.toml").string() + " -q --shard 1/2 --out " + s1.string()).status, 0);
  ASSERT_EQ(run_softcert("suite " + (dir / "s.toml").string() + " -q --shard 2/2 --out " + s2.string()).status, 0);
  const CliRun m = run_softcert("merge --out " + (dir / "merge_out").string() + " " + s1.string() + " " + s2.string());
  EXPECT_EQ(m.status, 2) << m.err;
  EXPECT_NE(m.err.find(".softcert.lock is a symbolic link"), std::string::npos) << m.err;
  EXPECT_EQ(read_text(dir / "target"), "precious\n");  // was: truncated, a pid written into it
}

TEST(CliHostile, ResumeRefusesASymlinkedJournalAndOutputsRefuseSymlinksToFiles) {
  const fs::path dir = scratch_dir("hostile", "journal_link");
  write_text(dir / "s.toml", kHostileSuite);
  const fs::path out = dir / "out";
  ASSERT_EQ(run_softcert("suite " + (dir / "s.toml").string() + " -q --out " + out.string()).status, 0);
  const std::string journal = read_text(out / "results.jsonl");
  write_text(dir / "target", journal);
  fs::remove(out / "results.jsonl");
  fs::create_symlink(dir / "target", out / "results.jsonl");
  const CliRun r = run_softcert("suite " + (dir / "s.toml").string() + " -q --resume --out " + out.string());
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("results.jsonl: is a symbolic link: not followed"), std::string::npos) << r.err;
  EXPECT_EQ(read_text(dir / "target"), journal);
  // the run's other files inside --out: a symlinked DIR/plots (its 8 plots went elsewhere) and
  // DIR/summary.json linked to a FIFO (the write blocked) are refused before anything is written
  fs::remove(out / "results.jsonl");
  write_text(out / "results.jsonl", journal);
  fs::create_directories(dir / "elsewhere");
  fs::remove_all(out / "plots");
  fs::create_symlink(dir / "elsewhere", out / "plots");
  const CliRun plots = run_softcert("suite " + (dir / "s.toml").string() + " -q --resume --out " + out.string());
  EXPECT_EQ(plots.status, 2) << plots.err;
  EXPECT_NE(plots.err.find((out / "plots").string() + " is a symlink"), std::string::npos) << plots.err;
  EXPECT_TRUE(fs::is_empty(dir / "elsewhere"));
  fs::remove(out / "plots");
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  fs::remove(out / "summary.json");
  fs::create_symlink(dir / "fifo", out / "summary.json");
  const CliRun fifo = hostile_run_with("timeout 60", "suite " + (dir / "s.toml").string() + " -q --resume --out " + out.string());
  EXPECT_EQ(fifo.status, 2) << fifo.err;
  EXPECT_NE(fifo.err.find((out / "summary.json").string() + " is a symlink"), std::string::npos) << fifo.err;
  // an output file given on the command line that is a symlink to a regular file: refused (exit
  // 2, naming it), neither written through nor replaced (docs/cli.md, "Output files")
  write_text(dir / "json_target", "precious\n");
  fs::create_symlink(dir / "json_target", dir / "link.json");
  const CliRun link = run_softcert("integrate " + kHeadline + " --t 1 --json " + (dir / "link.json").string());
  EXPECT_EQ(link.status, 2) << link.err;
  EXPECT_NE(link.err.find((dir / "link.json").string() + ": a symbolic link to a regular file"), std::string::npos)
      << link.err;
  EXPECT_EQ(read_text(dir / "json_target"), "precious\n");
  EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
}

// --- 2. inputs: regular files only, size-capped, stopped at a NUL --------------------------

TEST(CliHostile, DevicesFifosHugeFilesAndLoopsAreRefusedAtOnce) {
  const fs::path dir = scratch_dir("hostile", "inputs");
  ASSERT_EQ(::mkfifo((dir / "fifo.json").c_str(), 0600), 0);
  {
    std::ofstream(dir / "sparse.json") << "";
  }
  fs::resize_file(dir / "sparse.json", std::uintmax_t{3} << 30);  // 3 GB, sparse: no disk used
  fs::create_symlink(dir / "loop.json", dir / "loop.json");
  write_text(dir / "nul.json", std::string("{\"T\": 1,", 8) + std::string(1, '\0') + "}");
  struct Case {
    std::string file, message;
  };
  for (const Case& c : {Case{"/dev/zero", "is a character device, not a regular file"},
                        Case{(dir / "fifo.json").string(), "is a FIFO (named pipe)"},
                        Case{(dir / "sparse.json").string(), "is 3221225472 bytes, more than the 67108864-byte limit"},
                        Case{(dir / "loop.json").string(), "symbolic links"},
                        Case{(dir / "nul.json").string(), "contains a NUL byte at offset 8"}}) {
    const auto start = std::chrono::steady_clock::now();
    // `timeout 20`: a reader without these guards reads /dev/zero and the sparse file without end and hangs on the FIFO
    const CliRun r = hostile_run_with("timeout 20", "integrate " + c.file + " --t 1");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.status, 2) << c.file << ": " << r.err;
    EXPECT_LT(seconds, 1.0) << c.file;
    EXPECT_NE(r.err.find(c.file), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.file << ": " << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  }
  // the same readers behind replay, a suite file and a suite's instance_files
  const CliRun replay = hostile_run_with("timeout 20", "replay " + (dir / "fifo.json").string());
  EXPECT_EQ(replay.status, 2) << replay.err;
  EXPECT_NE(replay.err.find("is a FIFO"), std::string::npos) << replay.err;
  const CliRun suite = hostile_run_with("timeout 20", "suite " + (dir / "sparse.json").string() + " -q");
  EXPECT_EQ(suite.status, 2) << suite.err;
  EXPECT_NE(suite.err.find("-byte limit"), std::string::npos) << suite.err;
  write_text(dir / "zero.toml", "name = \"z\"\n[[check]]\nname = \"sukenik2026.hard_switch\"\ninstance_files = [\"/dev/zero\"]\n");
  const CliRun zero = hostile_run_with("timeout 20", "suite " + (dir / "zero.toml").string() + " -q --out " + (dir / "zout").string());
  EXPECT_EQ(zero.status, 1) << zero.err;  // one error record (docs/verdicts.md, "Bad input: one rule"), no hang
  const auto records = read_lines(dir / "zout" / "results.jsonl");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_NE(records[0]["reason"].get<std::string>().find("/dev/zero: is a character device"), std::string::npos)
      << records[0].dump();
  write_text(dir / "loop.toml", "name = \"l\"\n[[check]]\nname = \"sukenik2026.hard_switch\"\ninstance_files = [\"" +
                                    (dir / "loop.json").string() + "\"]\n");
  const CliRun loop = run_softcert("suite " + (dir / "loop.toml").string() + " -q");
  EXPECT_EQ(loop.status, 2) << loop.err;
  EXPECT_NE(loop.err.find("loop.json"), std::string::npos) << loop.err;
  EXPECT_EQ(loop.err.find("internal error"), std::string::npos) << loop.err;
}

// --- 3. the cap on planned instances --------------------------------------------------------

TEST(CliHostile, PlannedInstancesAreCappedBeforeAllocation) {
  const fs::path dir = scratch_dir("hostile", "plan_cap");
  std::string text = "name = \"huge\"\n";
  for (int i = 0; i < 100; ++i)
    text += "[[check]]\nname = \"sukenik2026.hard_switch\"\nlabel = \"e" + std::to_string(i) + "\"\ninstances = 1000000\n";
  write_text(dir / "huge.toml", text);
  // 256 MB of address space: planning 10^8 items (> 2 GB) would die of bad_alloc first
  const CliRun r = hostile_run_with("ulimit -v 262144;", "suite " + (dir / "huge.toml").string() + " -q");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("check #2 (e1): instances: the suite plans 2000000 instances"), std::string::npos) << r.err;
}

// --- 4. merge and --resume re-validate every record ----------------------------------------

TEST(CliHostile, TamperedShardsAreRefusedNamingTheRecord) {
  const fs::path dir = scratch_dir("hostile", "tamper");
  write_text(dir / "s.toml", kHostileSuite);
  const fs::path s1 = dir / "s1", s2 = dir / "s2";
  auto shards = [&] {
    ASSERT_EQ(run_softcert("suite " + (dir / "s.toml").string() + " -q --shard 1/2 --out " + s1.string()).status, 0);
    ASSERT_EQ(run_softcert("suite " + (dir / "s.toml").string() + " -q --shard 2/2 --out " + s2.string()).status, 0);
  };
  const std::string merge = "merge --out " + (dir / "m").string() + " " + s1.string() + " " + s2.string();
  shards();
  ASSERT_EQ(run_softcert(merge).status, 0);
  // edit the second record of shard 1
  auto tamper = [&](const std::function<void(nlohmann::json&)>& edit) {
    auto lines = read_lines(s1 / "results.jsonl");
    ASSERT_GE(lines.size(), 2u);
    edit(lines[1]);
    std::string text;
    for (const auto& l : lines) text += l.dump() + "\n";
    write_text(s1 / "results.jsonl", text);
  };
  tamper([](nlohmann::json& r) {
    r["verdict"] = "proved";
    r["margin"] = {"-5", "-4"};
  });
  CliRun r = run_softcert(merge);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find((s1 / "results.jsonl").string() + ":2: verdict proved with margin [-5, -4]"), std::string::npos) << r.err;
  shards();
  tamper([](nlohmann::json& r) { r["verdict"] = "violated"; });  // a violation without its counterexample
  r = run_softcert(merge);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("results.jsonl:2: "), std::string::npos) << r.err;
  // the same record edit is refused by --resume too
  r = run_softcert("suite " + (dir / "s.toml").string() + " -q --shard 1/2 --resume --out " + s1.string());
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("results.jsonl:2: "), std::string::npos) << r.err;
  // a shard without its run.json, or with an edited one
  shards();
  fs::remove(s2 / "run.json");
  r = run_softcert(merge);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find((s2 / "run.json").string()), std::string::npos) << r.err;
  shards();
  auto header = nlohmann::json::parse(read_text(s2 / "run.json"));
  header["identity"]["seed"] = 4;
  write_text(s2 / "run.json", header.dump(2));
  r = run_softcert(merge);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("not the hash of its identity"), std::string::npos) << r.err;
}

// --- 5. ulimit -f ------------------------------------------------------------------------------

TEST(CliHostile, FileSizeLimitIsAWriteErrorNotSigxfsz) {
  const fs::path dir = scratch_dir("hostile", "ulimit");
  const fs::path out = dir / "out.json";
  const CliRun r = hostile_run_with("ulimit -f 1;", "integrate " + kHeadline + " --t 1 --json " + out.string());
  EXPECT_EQ(r.status, 2) << r.err;  // was: killed by SIGXFSZ (exit 153)
  EXPECT_NE(r.err.find("cannot write " + out.string() + ": File too large"), std::string::npos) << r.err;
  for (const auto& e : fs::directory_iterator(dir)) ADD_FAILURE() << "left behind: " << e.path();
}

// --- 6-9. options refused before anything is done -------------------------------------------

TEST(CliHostile, BadOptionValuesAreExitTwoNamingTheOption) {
  const fs::path dir = scratch_dir("hostile", "options");
  write_text(dir / "s.toml", kHostileSuite);
  struct Case {
    std::string args, message;
  };
  const std::vector<Case> cases = {
      {"integrate " + kHeadline + " --t 1 --json ''", "--json: must not be empty"},
      {"check sukenik2026.hard_switch --instances 1 -q --json ''", "--json: must not be empty"},
      {"suite " + (dir / "s.toml").string() + " -q --out ''", "--out: must not be empty"},
      {"search sukenik2026.hard_switch --max-samples 1 -q --out ''", "--out: must not be empty"},
      {"merge --out '' " + dir.string(), "--out: must not be empty"},
      {"integrate " + kHeadline + " --t 1e400", "--t: must be a positive finite number"},
      {"check sukenik2026.hard_switch --instances 2 -q --param T=-3", "--param: "},
      {"check sukenik2026.hard_switch --instances 2 -q --param 'T=\"abc\"'", "--param: "},
      {"check varre2026.one_hot.finite --instances 2 -q --horizon 1e308", "--param/--horizon: "},
      // budgets and tolerances that would never end (-1 was read as "unlimited", 0 as the default)
      {"check varre2026.order_preservation --instances 1 -q --param max_steps=-1", "params.max_steps: must be an integer in [1, 1e7]"},
      {"check varre2026.order_preservation --instances 1 -q --param h_max=-1", "params.h_max: must be a finite number >= 0"},
      {"integrate " + kHeadline + " --t 1 --tolerance 0", "tolerance: must be in (0, 1)"},
      {"integrate " + kHeadline + " --t 1 --tolerance 1e-300", "tolerance: below 2^-(BITS - 4)"},
      // refused before anything is drawn (T = d = 4096 grew the generator's memory with no output)
      {"check varre2026.order_preservation --instances 1 -q --param T=4096", "at most 10^6"},
  };
  for (const auto& c : cases) {
    const CliRun r = run_softcert(c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;  // empty paths exited 0; params 1; 1e400 "internal error"
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  }
  // results.jsonl a directory under --resume: named, not an internal error
  fs::create_directories(dir / "out" / "results.jsonl");
  const CliRun d = run_softcert("suite " + (dir / "s.toml").string() + " -q --resume --out " + (dir / "out").string());
  EXPECT_EQ(d.status, 2) << d.err;
  EXPECT_NE(d.err.find("results.jsonl: is a directory"), std::string::npos) << d.err;
}

TEST(CliHostile, ReproduceCreatesNothingBeforeItsSettingsAreChecked) {
  const fs::path dir = scratch_dir("hostile", "reproduce");
  const CliRun r = run_softcert("reproduce varre2026-headline --quiet --out " + (dir / "a/b/c").string() + " --set points=0");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("points"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "a")) << "was: a/b left behind";
}

// --- 10-11. names: typed, no control characters, quoted short, escaped in report.md -------------

TEST(CliHostile, SuiteNamesAreStringsWithoutControlCharactersAndQuotedShort) {
  const fs::path dir = scratch_dir("hostile", "names");
  const std::string entry = "[[check]]\nname = \"sukenik2026.hard_switch\"\ninstances = 1\n";
  write_text(dir / "n.toml", "name = 5\n" + entry);
  CliRun r = run_softcert("suite " + (dir / "n.toml").string() + " -q");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("name must be a string"), std::string::npos) << r.err;
  write_text(dir / "l.toml", "name = \"x\"\n" + entry + "label = \"a\\u0000b\"\n");
  r = run_softcert("suite " + (dir / "l.toml").string() + " -q");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("label: contains a control character"), std::string::npos) << r.err;
  const std::string long_name(5000, 'x');
  r = run_softcert("check " + long_name + " --instances 1");
  EXPECT_EQ(r.status, 2);
  EXPECT_LT(r.err.size(), 400u) << "the 5000-character name was quoted whole";
  write_text(dir / "c.toml", "name = \"x\"\n[[check]]\nname = \"" + long_name + "\"\ninstances = 1\n");
  r = run_softcert("suite " + (dir / "c.toml").string() + " -q");
  EXPECT_EQ(r.status, 2);
  EXPECT_LT(r.err.size(), 400u + (dir / "c.toml").string().size());
}

TEST(CliHostile, ReportMarkdownEscapesHtmlFromNames) {
  const fs::path dir = scratch_dir("hostile", "markdown");
  write_text(dir / "s.toml", "name = \"<script>alert(1)</script>\"\n[[check]]\nname = \"sukenik2026.hard_switch\"\n"
                             "label = \"<img src=x onerror=y>\"\ninstances = 1\n");
  const fs::path out = dir / "out";
  const CliRun r = run_softcert("suite " + (dir / "s.toml").string() + " -q --out " + out.string());
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string md = read_text(out / "report.md");
  EXPECT_EQ(md.find("<script>"), std::string::npos) << md;
  EXPECT_EQ(md.find("<img"), std::string::npos) << md;
  EXPECT_NE(md.find("&lt;script&gt;"), std::string::npos) << md;
  EXPECT_NE(md.find("<code>&lt;img src=x onerror=y&gt;</code>"), std::string::npos) << md;
}

TEST(CliHostile, AMalformedMemoryCapVariableIsRefusedAtStartUp) {
  // "-1" was read by strtoull as 2^64 - 1, switching the cap off; "12x" was ignored
  for (const char* value : {"-1", "12x", "0", "99999999999999999999", ""}) {
    const CliRun r = hostile_run_with(std::string("SOFTCERT_TAPE_MEMORY_CAP='") + value + "'", "list");
    EXPECT_EQ(r.status, 2) << value << "\n" << r.err;
    EXPECT_NE(r.err.find("SOFTCERT_TAPE_MEMORY_CAP: must be a number of bytes"), std::string::npos) << r.err;
  }
  EXPECT_EQ(hostile_run_with("SOFTCERT_TAPE_MEMORY_CAP=1000000000", "list").status, 0);
  // a cap too small for the run: inconclusive with the bytes it needed, never an internal error
  const fs::path out = scratch_dir("hostile", "memory_cap") / "r.json";
  const CliRun r = hostile_run_with("SOFTCERT_TAPE_MEMORY_CAP=1000",
                                    "check varre2026.loss.rate --instances 1 --horizon 10 -q --json " + out.string());
  EXPECT_EQ(r.status, 3) << r.err;  // too many inconclusive
  const auto records = read_lines(out);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0]["verdict"], "inconclusive");
  const std::string reason = records[0]["reason"];
  EXPECT_NE(reason.find("the run does not fit the memory cap"), std::string::npos) << reason;
  EXPECT_NE(reason.find("bytes"), std::string::npos) << reason;
}

TEST(CliHostile, AHugeReducedInstanceIsRefusedForMemoryBeforeTheLohnerSetExists) {
  // T = 5000 in the reduced logistic form: n = 10,001 state components, 1.6 GB a matrix of double
  // intervals. The run allocated > 9 GB before bad_alloc; under a 4 GB address-space limit that
  // was an internal error. Now the Lohner stepper refuses when it is built: inconclusive, with
  // the bytes needed, before its first n × n set is allocated.
  const fs::path dir = scratch_dir("hostile", "huge_reduced");
  nlohmann::json inst = {{"model", "value_softmax"}, {"loss", "logistic"}, {"normalization", "softmax"},
                         {"T", 5000}, {"d", 1}, {"beta", {"1"}}, {"provenance", "a test of the memory cap"}};
  nlohmann::json row = nlohmann::json::array(), a = nlohmann::json::array();
  for (int j = 0; j < 5000; ++j) {
    row.push_back(std::to_string(j + 1) + "e-4");
    a.push_back("0");
  }
  inst["V"] = {row};
  inst["a"] = a;
  write_text(dir / "huge.json", inst.dump());
  const fs::path out = dir / "r.json";
  const auto start = std::chrono::steady_clock::now();
  const CliRun r = hostile_run_with("ulimit -v 4000000;", "check varre2026.order_preservation --instance " +
                                                              (dir / "huge.json").string() + " -q --json " + out.string());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.status, 3) << r.err;  // too many inconclusive
  const auto records = read_lines(out);
  ASSERT_EQ(records.size(), 1u) << r.err;
  EXPECT_EQ(records[0]["verdict"], "inconclusive");
  const std::string reason = records[0]["reason"];
  EXPECT_NE(reason.find("the Lohner step needs"), std::string::npos) << reason;
  EXPECT_NE(reason.find("n = 10001"), std::string::npos) << reason;
  EXPECT_NE(reason.find("GiB"), std::string::npos) << reason;
  EXPECT_LT(seconds, 300) << "refused only after computing";
}

TEST(CliHostile, ANonUtf8FileNameIsRefusedUpFrontNamingIt) {
  // The record names the instance file: a name that is not UTF-8 made the record unwritable as
  // JSON, an internal error after the whole run. Refused before anything runs (exit 2), escaped.
  const fs::path dir = scratch_dir("hostile", "non_utf8");
  const fs::path bad = dir / "inst\xff.json";
  fs::copy_file(kHeadline, bad, fs::copy_options::overwrite_existing);
  CliRun r = run_softcert("check varre2026.order_preservation -q --instance '" + bad.string() + "' --json " +
                          (dir / "r.json").string());
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("inst\\xFF.json"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("is not valid UTF-8"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "r.json"));
  write_text(dir / "s.toml", kHostileSuite);
  r = run_softcert("suite " + (dir / "s.toml").string() + " -q --out '" + (dir / "out\xfe").string() + "'");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("out\\xFE"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "out\xfe"));
  // a suite file whose directory's name is not UTF-8, given relative to it: the manifest names
  // its absolute path
  const fs::path bad_dir = dir / "suites\xfd";
  fs::create_directories(bad_dir);
  write_text(bad_dir / "s.toml", kHostileSuite);
  r = hostile_run_with("cd '" + bad_dir.string() + "' &&", "suite s.toml -q --out " + (dir / "out2").string());
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("is not valid UTF-8"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "out2" / "results.jsonl"));
}

TEST(CliHostile, AManifestShardThatIsNotKOverNIsRefusedNotAnInternalError) {
  // merge read the manifest's "shard" with std::stoul: "1/x" was "internal error: stoul"
  const fs::path dir = scratch_dir("hostile", "merge_shard");
  write_text(dir / "s.toml", kHostileSuite);
  for (const char* k : {"1", "2"})
    ASSERT_EQ(run_softcert("suite " + (dir / "s.toml").string() + " -q --shard " + k + "/2 --out " +
                           (dir / (std::string("d") + k)).string()).status, 0);
  const fs::path manifest = dir / "d1" / "manifest.json";
  nlohmann::json m = nlohmann::json::parse(read_text(manifest));
  for (const nlohmann::json& shard : {nlohmann::json("1/x"), nlohmann::json("0/2"), nlohmann::json("1/"), nlohmann::json(12)}) {
    m["shard"] = shard;
    write_text(manifest, m.dump());
    const CliRun r = run_softcert("merge --out " + (dir / "merged").string() + " " + (dir / "d1").string() + " " +
                                  (dir / "d2").string());
    EXPECT_EQ(r.status, 2) << shard << "\n" << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("manifest.json: \"shard\" must be"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace softcert
