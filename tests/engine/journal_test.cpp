// The journal reader for --resume: an unterminated last line (a write() cut by SIGKILL) is
// dropped and reported; any other damage is refused exactly as by read_journal.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "engine/journal.hpp"

namespace softcert::engine {
namespace {

namespace fs = std::filesystem;

fs::path write_journal(const std::string& name, const std::string& text) {
  const fs::path f = fs::path(::testing::TempDir()) / ("softcert_journal_" + std::to_string(getpid()) + "_" + name);
  std::ofstream(f, std::ios::binary) << text;
  return f;
}

std::string record(int i) {
  return "{\"check\":\"c\",\"instance\":\"c#" + std::to_string(i) + "\",\"verdict\":\"proved\",\"margin\":[\"1\",\"2\"],\"seconds\":0.5}\n";
}

TEST(JournalResume, CompleteFileDropsNothing) {
  const std::string text = record(0) + record(1);
  const auto j = read_journal_for_resume(write_journal("complete", text));
  EXPECT_EQ(j.records.size(), 2u);
  EXPECT_EQ(j.complete_bytes, text.size());
  EXPECT_TRUE(j.dropped_tail.empty());
}

TEST(JournalResume, UnterminatedLastLineIsDroppedAndStrictReaderStillRefusesIt) {
  const std::string head = record(0) + record(1);
  for (const std::string& tail : {std::string("{\"che"), record(2).substr(0, record(2).size() - 1)}) {
    const fs::path f = write_journal("cut", head + tail);
    const auto j = read_journal_for_resume(f);
    EXPECT_EQ(j.records.size(), 2u);
    EXPECT_EQ(j.complete_bytes, head.size());
    EXPECT_EQ(j.dropped_tail, tail);
    EXPECT_THROW(read_journal(f), std::invalid_argument);  // merge reads finished files: no excuse there
  }
  const auto only = read_journal_for_resume(write_journal("only_cut", "{\"check\":\"c\""));
  EXPECT_TRUE(only.records.empty());
  EXPECT_EQ(only.complete_bytes, 0u);
}

TEST(JournalResume, DamageBeforeTheLastLineIsRefused) {
  const std::string r0 = record(0), r1 = record(1);
  const std::string cut_inside = r0.substr(0, r0.size() - 10) + "\n" + r1;   // a cut line that is not last
  const std::string garbled_then_cut = "#garbage\n" + r1.substr(0, 12);       // corruption, then a cut line
  const std::string duplicate_then_cut = r0 + r0 + r1.substr(0, 12);
  for (const std::string& bad : {cut_inside, garbled_then_cut, duplicate_then_cut})
    EXPECT_THROW(read_journal_for_resume(write_journal("bad", bad)), std::invalid_argument) << bad;
}

}  // namespace
}  // namespace softcert::engine
