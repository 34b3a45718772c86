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
