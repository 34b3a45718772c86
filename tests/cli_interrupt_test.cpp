// Ctrl-C in a long `check` or `suite` run: the results that finished stay in --out's journal, the
// process says how to continue, and --resume finishes the run with the records one uninterrupted
// run writes.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/run_cli.hpp"
#include "support/scratch_files.hpp"

namespace softcert {
namespace {

namespace fs = std::filesystem;
using testing::read_lines;
using testing::run_softcert;
using testing::run_softcert_after;
using testing::scratch_dir;

// The records without what differs between two runs of the same plan.
std::vector<nlohmann::json> comparable(std::vector<nlohmann::json> records) {
  for (auto& r : records)
    for (const char* k : {"seconds", "run"}) r.erase(k);
  std::sort(records.begin(), records.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
    return a.value("instance", "") < b.value("instance", "");
  });
  return records;
}

TEST(CliInterrupt, CheckKeepsFinishedResultsSaysHowToResumeAndResumesToTheSameRecords) {
  const fs::path dir = scratch_dir("interrupt", "check");
  // T = 20 to t = 20: about 1.4 s an instance on one core, so SIGINT at 6 s leaves some finished,
  // some not
  const std::string work = "check varre2026.order_preservation --instances 8 -j 1 -q --param 'T=[20,20]' --horizon 20";
  const std::string args = work + " --out '" + (dir / "cut").string() + "'";
  const auto cut = run_softcert_after("timeout -s INT 6", args);
  EXPECT_NE(cut.err.find("softcert: interrupted; the finished results are kept in"), std::string::npos) << cut.err;
  EXPECT_NE(cut.err.find("rerun the same command with --resume"), std::string::npos) << cut.err;
  const auto kept = read_lines(dir / "cut" / "results.jsonl");
  EXPECT_GE(kept.size(), 1u);
  EXPECT_LT(kept.size(), 8u) << "the run was not interrupted";
  const auto resumed = run_softcert(args + " --resume");
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  const auto whole = run_softcert(work + " --out '" + (dir / "whole").string() + "'");
  ASSERT_EQ(whole.status, 0) << whole.err;
  EXPECT_EQ(comparable(read_lines(dir / "cut" / "results.jsonl")), comparable(read_lines(dir / "whole" / "results.jsonl")));
}

TEST(CliInterrupt, WithoutOutTheNoticeSaysNothingWasKept) {
  const auto cut = run_softcert_after("timeout -s INT 2",
                                      "check varre2026.order_preservation --instances 5 -j 1 -q --param 'T=[20,20]' --horizon 20");
  EXPECT_NE(cut.err.find("softcert: interrupted; nothing was kept (with --out DIR"), std::string::npos) << cut.err;
  EXPECT_EQ(run_softcert("check varre2026.order_preservation --instances 1 --resume").status, 2);
}

}  // namespace
}  // namespace softcert
