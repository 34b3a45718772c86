// Reliability round 4, end to end through the binary: shards exit 0 unless something they hold
// is unexpected, and merge gives the unsharded summary.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
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

}  // namespace
}  // namespace softcert
