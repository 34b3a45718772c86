// The command-line contract: --version content, usage errors exit 2 with usage on stderr.
#include <gtest/gtest.h>

#include "support/run_cli.hpp"

namespace {

using softcert::testing::CliRun;
using softcert::testing::run_softcert;

TEST(Cli, VersionNamesCommitCompilerAndLibraries) {
  const CliRun r = run_softcert("--version");
  EXPECT_EQ(r.status, 0);
  for (const char* key : {"softcert ", "commit", "compiler", "boost    1.", "mpfr     4.", "mpfi     1.", "gmp"})
    EXPECT_NE(r.out.find(key), std::string::npos) << key << " missing in\n" << r.out;
}

TEST(Cli, HelpShowsEachOptionsDefaultAndWhatASentinelMeans) {
  const CliRun r = run_softcert("check --help");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("=rigorous"), std::string::npos) << r.out;      // --tier
  EXPECT_NE(r.out.find("--shard TEXT=1/1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--horizon FLOAT=the check's"), std::string::npos) << r.out;  // 0 means "the check's"
  EXPECT_EQ(r.out.find("=[]"), std::string::npos) << r.out;            // empty lists print nothing
  const CliRun s = run_softcert("search --help");
  EXPECT_NE(s.out.find("=no cap"), std::string::npos) << s.out;        // --max-samples
}

TEST(Cli, UnknownSubcommandOrFlagIsAUsageError) {
  for (const char* args : {"frobnicate", "--no-such-flag", "list --no-such-flag", ""}) {
    const CliRun r = run_softcert(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_NE(r.err.find("error"), std::string::npos) << args;
    EXPECT_NE(r.err.find("Usage"), std::string::npos) << args << ": usage on stderr";
    EXPECT_TRUE(r.out.empty()) << args;
  }
}

}  // namespace
