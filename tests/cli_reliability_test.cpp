// Reliability round 4, end to end through the binary: shards exit 0 unless something they hold
// is unexpected, and merge gives the unsharded summary; outputs aimed at a stream or device
// (/dev/stdout, /dev/null, a FIFO) are written through and the symlink to them stays; JSON
// nested 100,000 deep is refused (exit 2, or an error record inside a suite) instead of
// overflowing the stack; instance files are keyed by their path, and one listed twice is refused;
// a record read back must fit its plan slot and keep the evidence of its verdict.
//
// The output tests never aim softcert at the machine's own /dev/stdout: they use a symlink in a
// scratch directory that leads there (or to /dev/null, or to a FIFO), so that a regression
// replaces only that scratch symlink.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>
#include <fstream>
#include <string>
#include <thread>
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

// softcert ARGS under /bin/sh with stdout redirected to `out_file`; returns status and stderr.
CliRun run_to_file(const std::string& args, const fs::path& out_file) {
  const fs::path err_file = out_file.string() + ".stderr";
  const std::string cmd = std::string(SOFTCERT_BINARY) + " " + args + " >'" + out_file.string() + "' 2>'" +
                          err_file.string() + "'";
  const int st = std::system(cmd.c_str());
  CliRun r;
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = read_text(out_file);
  r.err = read_text(err_file);
  return r;
}

std::string sh_path(const fs::path& p) { return "'" + p.string() + "'"; }

// --- 1. shards judge only what they hold ------------------------------------------------------

// Counts and outcomes of a summary.json, without the run's timing.
nlohmann::json summary_counts(const fs::path& dir) {
  const auto s = nlohmann::json::parse(read_text(dir / "summary.json"));
  nlohmann::json out = {{"totals", s["totals"]}, {"exit_status", s["exit_status"]}, {"checks", nlohmann::json::array()}};
  for (const auto& c : s["checks"])
    out["checks"].push_back({{"entry", c["entry"]}, {"counts", c["counts"]}, {"outcome", c["outcome"]}});
  return out;
}

std::vector<std::string> records_without_time(const fs::path& dir) {
  std::vector<std::string> out;
  for (auto r : read_lines(dir / "results.jsonl")) {
    r.erase("seconds");
    out.push_back(r.dump());
  }
  return out;
}

TEST(CliReliability, ShardsExitZeroAndMergeGivesTheUnshardedSummary) {
  const fs::path dir = scratch_dir("reliability", "shards");
  // A refuted entry with a single instance (two of three shards hold none of it), a refuted
  // entry over several, and a holds entry: every expectation is met by the whole run.
  write_text(dir / "s.toml",
             "name = \"shards\"\nseed = 2026\n"
             "[[check]]\nname = \"sukenik2026.sink_representability\"\ninstances = 12\ndrop = [\"sink-exposed\"]\n"
             "expect = \"refuted\"\n"
             "[[check]]\nname = \"varre2026.elementwise_relu.no_polarization\"\nlabel = \"one_survivor\"\n"
             "instance_files = [\"" + std::string(SOFTCERT_SOURCE_DIR) +
             "/proofs_checks/instances/varre2026-elementwise-relu-one-survivor.json\"]\nexpect = \"refuted\"\n"
             "[[check]]\nname = \"sukenik2026.hard_switch\"\ninstances = 5\n");
  const fs::path whole = dir / "whole";
  const CliRun w = run_softcert("suite " + sh_path(dir / "s.toml") + " -q --out " + sh_path(whole));
  ASSERT_EQ(w.status, 0) << w.out << w.err;
  std::vector<std::string> shard_dirs;
  for (int k = 1; k <= 3; ++k) {
    const fs::path out = dir / ("shard" + std::to_string(k));
    const CliRun r = run_softcert("suite " + sh_path(dir / "s.toml") + " -q --shard " + std::to_string(k) + "/3 --out " +
                                  sh_path(out));
    EXPECT_EQ(r.status, 0) << "shard " << k << ":\n" << r.out << r.err;  // was 1: UNEXPECTED for what it did not hold
    EXPECT_EQ(r.out.find("UNEXPECTED"), std::string::npos) << r.out;
    const auto summary = nlohmann::json::parse(read_text(out / "summary.json"));
    EXPECT_EQ(summary["exit_status"], 0);
    shard_dirs.push_back(sh_path(out));
  }
  const fs::path merged = dir / "merged";
  std::string args = "merge --out " + sh_path(merged);
  for (const auto& d : shard_dirs) args += " " + d;
  const CliRun m = run_softcert(args);
  ASSERT_EQ(m.status, 0) << m.out << m.err;  // was 2: the engine's own one-hot record refused
  EXPECT_EQ(summary_counts(merged), summary_counts(whole));
  EXPECT_EQ(records_without_time(merged), records_without_time(whole));
}

TEST(CliReliability, AShardExitsOneOnlyForWhatItHolds) {
  const fs::path dir = scratch_dir("reliability", "shard_unexpected");
  // "holds" with the hypothesis dropped: every shard that holds a violation is a regression
  write_text(dir / "s.toml", "name = \"u\"\nseed = 2026\n[[check]]\nname = \"sukenik2026.sink_representability\"\n"
                             "instances = 12\ndrop = [\"sink-exposed\"]\n");
  for (int k = 1; k <= 2; ++k) {
    const fs::path out = dir / ("shard" + std::to_string(k));
    const CliRun r = run_softcert("suite " + sh_path(dir / "s.toml") + " -q --shard " + std::to_string(k) + "/2 --out " +
                                  sh_path(out));
    bool violated = false;
    for (const auto& rec : read_lines(out / "results.jsonl")) violated |= rec["verdict"] == "violated";
    EXPECT_EQ(r.status, violated ? 1 : 0) << r.out << r.err;
  }
}

// --- 3. outputs aimed at a stream or a device -------------------------------------------------

struct OutputCommand {
  std::string name, args_before_path;  // the command line up to the output path
  int status = 0;                      // its exit status when the output is written
};

std::vector<OutputCommand> output_commands() {
  return {
      {"check --json", "check sukenik2026.hard_switch --instances 2 -q --json"},
      {"integrate --json", "integrate " + kHeadline + " --t 1 --json"},
      {"search --out", "search sukenik2026.hard_switch --max-samples 4 --seed 3 -q --out", 1},  // 1: none found
      {"claims --docs", "claims " + std::string(SOFTCERT_SOURCE_DIR) + "/proofs_checks/claims.toml --docs"},
  };
}

// What each command writes at its output path, as a check that `text` holds it.
bool holds_the_output(const std::string& name, const std::string& text) {
  if (name == "claims --docs") return text.find("# ") != std::string::npos && text.find("claim") != std::string::npos;
  if (name == "check --json") return text.find("{\"check\":\"sukenik2026.hard_switch\"") != std::string::npos;
  return text.find('{') != std::string::npos && text.find('}') != std::string::npos;
}

TEST(CliReliability, AnOutputThroughASymlinkToStdoutGoesToStdoutAndTheSymlinkStays) {
  const fs::path dir = scratch_dir("reliability", "stdout");
  // stands in for /dev/stdout (itself a symlink to /proc/self/fd/1): leads to the process's stdout
  const fs::path link = dir / "stdout";
  fs::create_symlink("/dev/stdout", link);
  for (const auto& c : output_commands()) {
    const fs::path out = dir / "captured.txt";
    const CliRun r = run_to_file(c.args_before_path + " " + sh_path(link), out);
    EXPECT_EQ(r.status, c.status) << c.name << ": " << r.err;
    EXPECT_TRUE(fs::is_symlink(link)) << c.name << ": the symlink was replaced by a file";
    EXPECT_EQ(fs::read_symlink(link), "/dev/stdout") << c.name;
    EXPECT_TRUE(holds_the_output(c.name, r.out)) << c.name << ": stdout holds\n" << r.out.substr(0, 2000);
  }
  // check --json's JSON lines arrive whole, after what the command printed before them
  const fs::path out = dir / "check.txt";
  const CliRun r = run_to_file("check sukenik2026.hard_switch --instances 2 -q --json " + sh_path(link), out);
  ASSERT_EQ(r.status, 0) << r.err;
  std::size_t json_lines = 0;
  std::ifstream in(out);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] == '{') {
      EXPECT_NO_THROW([[maybe_unused]] const auto parsed = nlohmann::json::parse(line)) << line;
      ++json_lines;
    }
  EXPECT_EQ(json_lines, 2u) << r.out;
}

TEST(CliReliability, AnOutputThroughASymlinkToADeviceOrFifoIsWrittenThroughAndTheSymlinkStays) {
  const fs::path dir = scratch_dir("reliability", "devices");
  const fs::path null_link = dir / "null";
  fs::create_symlink("/dev/null", null_link);
  const fs::path fifo = dir / "fifo", fifo_link = dir / "fifo_link";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  fs::create_symlink(fifo, fifo_link);
  for (const auto& c : output_commands()) {
    const CliRun r = run_softcert(c.args_before_path + " " + sh_path(null_link));
    EXPECT_EQ(r.status, c.status) << c.name << ": " << r.err;
    EXPECT_TRUE(fs::is_symlink(null_link)) << c.name;
    // a reader on the FIFO: what the command writes arrives there
    std::string got;
    std::thread reader([&] {
      std::ifstream in(fifo);
      got.assign(std::istreambuf_iterator<char>(in), {});
    });
    const CliRun f = run_softcert(c.args_before_path + " " + sh_path(fifo_link));
    if (f.status != c.status) {
      // unblock the reader if the command never opened the FIFO
      const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
      if (fd >= 0) ::close(fd);
    }
    reader.join();
    EXPECT_EQ(f.status, c.status) << c.name << ": " << f.err;
    EXPECT_TRUE(fs::is_symlink(fifo_link)) << c.name;
    EXPECT_TRUE(fs::is_fifo(fifo)) << c.name;
    EXPECT_TRUE(holds_the_output(c.name, got)) << c.name << ": the FIFO got\n" << got.substr(0, 2000);
  }
  struct stat st {};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(CliReliability, AnOutputThroughASymlinkToAFileOrNowhereIsRefused) {
  const fs::path dir = scratch_dir("reliability", "file_links");
  write_text(dir / "target", "precious\n");
  fs::create_symlink(dir / "target", dir / "to_file");
  fs::create_symlink(dir / "missing", dir / "dangling");
  for (const auto& c : output_commands())
    for (const char* link : {"to_file", "dangling"}) {
      const CliRun r = run_softcert(c.args_before_path + " " + sh_path(dir / link));
      EXPECT_EQ(r.status, 2) << c.name << " " << link << ": " << r.err;
      EXPECT_NE(r.err.find((dir / link).string()), std::string::npos) << c.name << ": " << r.err;
      EXPECT_TRUE(fs::is_symlink(dir / link)) << c.name;
      EXPECT_EQ(read_text(dir / "target"), "precious\n") << c.name;
      EXPECT_FALSE(fs::exists(dir / "missing")) << c.name;
    }
}

// --- 4. JSON nested 100,000 deep --------------------------------------------------------------

const std::string kDeepArray = std::string(100000, '[') + std::string(100000, ']');

std::string deep_object() {
  std::string s;
  for (int i = 0; i < 100000; ++i) s += "{\"a\":";
  s += "1";
  s += std::string(100000, '}');
  return s;
}

void expect_depth_refusal(const CliRun& r, const std::string& file, const std::string& what) {
  EXPECT_EQ(r.status, 2) << what << ": " << r.err.substr(0, 2000);
  EXPECT_NE(r.err.find(file), std::string::npos) << what << ": " << r.err.substr(0, 2000);
  EXPECT_NE(r.err.find("nested more than 512 deep"), std::string::npos) << what << ": " << r.err.substr(0, 2000);
}

// `json` (an object's text) with one more member: "deep": 100,000 nested arrays. Inside an
// otherwise valid input is where the deep value got copied and printed (recursively, once per
// level) and overflowed the stack: a violated instance's counterexample, a record's details, a
// manifest's identity.
std::string with_deep_member(const std::string& json) {
  const std::size_t close = json.rfind('}');
  return json.substr(0, close) + ", \"deep\": " + kDeepArray + json.substr(close);
}

TEST(CliReliability, DeepJsonIsRefusedByEveryCommandThatReadsJson) {
  const fs::path dir = scratch_dir("reliability", "deep");
  const fs::path arr = dir / "deep_array.json", obj = dir / "deep_object.json", inst = dir / "deep_member.json";
  write_text(arr, kDeepArray);
  write_text(obj, deep_object());
  write_text(inst, with_deep_member(read_text(kHeadline)));  // the headline instance, one member more
  const std::string all_pairs = "check varre2026.repulsion.all_pairs --horizon 1000 -q --instance ";
  for (const fs::path& f : {arr, obj, inst}) {
    expect_depth_refusal(run_softcert("integrate " + sh_path(f) + " --t 1"), f.string(), "integrate");
    // the headline instance violates all_pairs: its counterexample was the deep copy (SIGSEGV)
    expect_depth_refusal(run_softcert(all_pairs + sh_path(f)), f.string(), "check");
  }
  write_text(dir / "replay.json", with_deep_member("{\"check\": \"varre2026.repulsion.all_pairs\", \"horizon\": 1000, "
                                                   "\"counterexample\": " + read_text(kHeadline) + "}"));
  for (const fs::path& f : {arr, obj, dir / "replay.json"})
    expect_depth_refusal(run_softcert("replay " + sh_path(f)), f.string(), "replay");
  // (an argument is at most 128 KiB on Linux: 50,000 levels)
  const std::string deep_param = std::string(50000, '[') + std::string(50000, ']');
  expect_depth_refusal(run_softcert("check sukenik2026.hard_switch --instances 1 -q --param 'T=" + deep_param + "'"),
                       "--param T", "check --param");

  // suite: a deep instance file is bad input of one (check, instance) pair: an error record
  // naming it (docs/verdicts.md, "Bad input: one rule"), the run goes on
  write_text(dir / "s.toml", "name = \"deep\"\nseed = 1\n[[check]]\nname = \"varre2026.repulsion.all_pairs\"\n"
                             "horizon = 1000.0\nexpect = \"refuted\"\ninstance_files = [\"deep_member.json\"]\n"
                             "[[check]]\nname = \"sukenik2026.hard_switch\"\ninstances = 2\n");
  const fs::path out = dir / "out";
  const CliRun s = run_softcert("suite " + sh_path(dir / "s.toml") + " -q --out " + sh_path(out));
  EXPECT_EQ(s.status, 1) << s.err;  // was: SIGSEGV
  const auto records = read_lines(out / "results.jsonl");
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0]["verdict"], "error");
  EXPECT_NE(records[0]["reason"].get<std::string>().find("nested more than 512 deep"), std::string::npos)
      << records[0].dump();

  // suite --resume and merge: a journal line, a manifest and a run.json with a deep member
  write_text(dir / "h.toml", "name = \"h\"\nseed = 1\n[[check]]\nname = \"sukenik2026.hard_switch\"\ninstances = 4\n");
  const fs::path s1 = dir / "s1", s2 = dir / "s2";
  ASSERT_EQ(run_softcert("suite " + sh_path(dir / "h.toml") + " -q --shard 1/2 --out " + sh_path(s1)).status, 0);
  ASSERT_EQ(run_softcert("suite " + sh_path(dir / "h.toml") + " -q --shard 2/2 --out " + sh_path(s2)).status, 0);
  const std::string journal = read_text(s1 / "results.jsonl");
  const std::size_t first_end = journal.find('\n');
  const std::string merge = "merge --out " + sh_path(dir / "m") + " " + sh_path(s1) + " " + sh_path(s2);
  for (const std::string& bad : {with_deep_member(journal.substr(0, first_end)) + journal.substr(first_end),
                                 journal + kDeepArray + "\n"}) {
    write_text(s1 / "results.jsonl", bad);
    expect_depth_refusal(run_softcert("suite " + sh_path(dir / "h.toml") + " -q --shard 1/2 --resume --out " + sh_path(s1)),
                         (s1 / "results.jsonl").string(), "suite --resume");  // was: SIGSEGV
    expect_depth_refusal(run_softcert(merge), (s1 / "results.jsonl").string(), "merge (journal)");  // was: SIGSEGV
  }
  write_text(s1 / "results.jsonl", journal);
  for (const char* name : {"manifest.json", "run.json"}) {
    const std::string kept = read_text(s2 / name);
    for (const std::string& bad : {with_deep_member(kept), kDeepArray}) {
      write_text(s2 / name, bad);
      expect_depth_refusal(run_softcert(merge), (s2 / name).string(), std::string("merge (") + name + ")");
    }
    write_text(s2 / name, kept);
  }
  EXPECT_EQ(run_softcert(merge).status, 0);
}

// --- 5. instance files keyed by their path ------------------------------------------------------

TEST(CliReliability, InstanceFilesWithOneNameAreTwoInstancesAndResumeKeepsThemApart) {
  const fs::path dir = scratch_dir("reliability", "same_name");
  fs::create_directories(dir / "a");
  fs::create_directories(dir / "b");
  fs::copy_file(kHeadline, dir / "a" / "x.json");
  write_text(dir / "b" / "x.json", "{");  // bad input: an error record
  write_text(dir / "s.toml", "name = \"same\"\nseed = 1\n[[check]]\nname = \"varre2026.order_preservation.all_time\"\n"
                             "instance_files = [\"a/x.json\", \"b/x.json\"]\n");
  const fs::path out = dir / "out";
  const CliRun full = run_softcert("suite " + sh_path(dir / "s.toml") + " -q --out " + sh_path(out));
  EXPECT_EQ(full.status, 1) << full.out << full.err;  // b/x.json is an error
  auto records = read_lines(out / "results.jsonl");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0]["instance"], "a/x.json");
  EXPECT_EQ(records[1]["instance"], "b/x.json");
  EXPECT_EQ(records[0]["verdict"], "proved") << records[0].dump();
  EXPECT_EQ(records[1]["verdict"], "error") << records[1].dump();
  // killed after the first result: --resume recomputes the second, never copies the first onto it
  write_text(out / "results.jsonl", read_text(out / "results.jsonl").substr(0, read_text(out / "results.jsonl").find('\n') + 1));
  const CliRun resumed = run_softcert("suite " + sh_path(dir / "s.toml") + " -q --resume --out " + sh_path(out));
  EXPECT_EQ(resumed.status, 1) << resumed.out << resumed.err;  // was 0: the error had become proved
  EXPECT_NE(resumed.out.find("resumed: 1 results"), std::string::npos) << resumed.out;
  records = read_lines(out / "results.jsonl");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[1]["instance"], "b/x.json");
  EXPECT_EQ(records[1]["verdict"], "error") << records[1].dump();
}

TEST(CliReliability, AnInstanceFileListedTwiceIsRefused) {
  const fs::path dir = scratch_dir("reliability", "twice");
  fs::create_directories(dir / "a");
  fs::copy_file(kHeadline, dir / "a" / "x.json");
  fs::create_symlink(dir / "a", dir / "alias");
  for (const std::string second : {"a/x.json", "a/../a/x.json", "alias/x.json"}) {
    write_text(dir / "s.toml", "name = \"twice\"\n[[check]]\nname = \"varre2026.order_preservation.all_time\"\n"
                               "instance_files = [\"a/x.json\", \"" + second + "\"]\n");
    const CliRun r = run_softcert("suite " + sh_path(dir / "s.toml") + " -q");
    EXPECT_EQ(r.status, 2) << second << ": " << r.err;
    EXPECT_NE(r.err.find("is listed twice"), std::string::npos) << second << ": " << r.err;
    EXPECT_NE(r.err.find("x.json"), std::string::npos) << r.err;
  }
  const CliRun c = run_softcert("check varre2026.order_preservation.all_time -q --instance " + sh_path(dir / "a/x.json") +
                                " --instance " + sh_path(dir / "alias/x.json"));
  EXPECT_EQ(c.status, 2) << c.err;
  EXPECT_NE(c.err.find("is listed twice"), std::string::npos) << c.err;
}

// --- 6. records bound to their plan slot ------------------------------------------------------

// Rewrites line `line` (0-based) of DIR/results.jsonl with `edit`.
void edit_record(const fs::path& dir, std::size_t line, const std::function<void(nlohmann::json&)>& edit) {
  auto lines = read_lines(dir / "results.jsonl");
  ASSERT_LT(line, lines.size());
  edit(lines[line]);
  std::string text;
  for (const auto& l : lines) text += l.dump() + "\n";
  write_text(dir / "results.jsonl", text);
}

TEST(CliReliability, ARecordThatDoesNotFitItsSlotIsRefusedByMergeAndResume) {
  const fs::path dir = scratch_dir("reliability", "slots");
  write_text(dir / "s.toml",
             "name = \"slots\"\nseed = 2026\n"
             "[[check]]\nname = \"sukenik2026.sink_representability\"\ninstances = 8\ndrop = [\"sink-exposed\"]\n"
             "expect = \"refuted\"\n"
             "[[check]]\nname = \"varre2026.order_preservation\"\nlabel = \"fast\"\ninstances = 2\nhorizon = 10.0\n"
             "tier = \"fast\"\n[check.params]\nT = [2, 3]\n");
  const fs::path s1 = dir / "s1", s2 = dir / "s2";
  const auto shards = [&] {
    for (const auto& [k, out] : {std::pair{"1/2", s1}, std::pair{"2/2", s2}}) {
      const CliRun r = run_softcert("suite " + sh_path(dir / "s.toml") + " -q --shard " + k + " --out " + sh_path(out));
      ASSERT_EQ(r.status, 0) << r.out << r.err;
    }
  };
  const std::string merge = "merge --out " + sh_path(dir / "m") + " " + sh_path(s1) + " " + sh_path(s2);
  const std::string resume = "suite " + sh_path(dir / "s.toml") + " -q --shard 1/2 --resume --out " + sh_path(s1);
  shards();
  ASSERT_EQ(run_softcert(merge).status, 0);
  // the line of shard 1 holding a violation, one holding a proved, one holding a confirmed
  const auto lines = read_lines(s1 / "results.jsonl");
  std::optional<std::size_t> violated, proved, confirmed;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i]["verdict"] == "violated" && !violated) violated = i;
    if (lines[i]["verdict"] == "proved" && !proved) proved = i;
    if (lines[i]["verdict"] == "confirmed" && !confirmed) confirmed = i;
  }
  ASSERT_TRUE(violated && proved && confirmed) << "shard 1 needs a violated, a proved and a confirmed record";
  struct Edit {
    std::string what;
    std::size_t line;
    std::function<void(nlohmann::json&)> edit;
    std::string message;
  };
  const std::vector<Edit> edits = {
      // a certified violation moved to an entry that does not exist: it would be judged nowhere
      {"entry renamed", *violated, [](nlohmann::json& r) { r["entry"] = "no.such.entry"; },
       "has \"entry\" \"no.such.entry\", but its slot's is \"sukenik2026.sink_representability\""},
      {"seed edited", *proved, [](nlohmann::json& r) { r["seed"] = 12345; }, "has \"seed\" 12345"},
      {"tier edited", *proved, [](nlohmann::json& r) { r["tier"] = "fast"; }, "has \"tier\" \"fast\""},
      {"proved stripped of its margin", *proved,
       [](nlohmann::json& r) {
         r.erase("margin");
         r.erase("counterexample");
       },
       "proved without its \"margin\""},
      {"confirmed edited to proved", *confirmed, [](nlohmann::json& r) { r["verdict"] = "proved"; },
       "verdict proved on a margin that is a fast-tier estimate"},
  };
  for (const auto& e : edits) {
    shards();
    edit_record(s1, e.line, e.edit);
    const std::string where = (s1 / "results.jsonl").string();
    const CliRun m = run_softcert(merge);
    EXPECT_EQ(m.status, 2) << e.what << ": " << m.out << m.err;  // was 0 (the entry, the margin, the estimate)
    EXPECT_NE(m.err.find(where), std::string::npos) << e.what << ": " << m.err;
    EXPECT_NE(m.err.find(e.message), std::string::npos) << e.what << ": " << m.err;
    const CliRun r = run_softcert(resume);
    EXPECT_EQ(r.status, 2) << e.what << ": " << r.out << r.err;
    EXPECT_NE(r.err.find(where), std::string::npos) << e.what << ": " << r.err;
    EXPECT_NE(r.err.find(e.message), std::string::npos) << e.what << ": " << r.err;
  }
}

}  // namespace
}  // namespace softcert
