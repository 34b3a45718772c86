// The engine owns the verdict policy and sits below search, report, reproduce and the CLI
// (docs/verdicts.md "One policy, in the engine"): no check decides failure handling or
// `confirmed` itself, and src/engine includes none of the layers above it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace softcert::engine {
namespace {

namespace fs = std::filesystem;

std::string read_source(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(Layering, NoCheckDecidesFailureOrConfirmedItself) {
  // ... nor assigns a verdict: proved / violated / inconclusive / error come from the policy's
  // decide_* / undecided / check_error functions.
  const std::regex policy(R"(RigorousFailure|ValidationFailure|Verdict::confirmed|verdict\s*=\s*engine::Verdict::)");
  int files = 0;
  for (const auto& e : fs::directory_iterator(fs::path(SOFTCERT_SOURCE_DIR) / "proofs_checks")) {
    if (!e.is_regular_file()) continue;
    const std::string ext = e.path().extension().string();
    if (ext != ".cpp" && ext != ".hpp") continue;
    ++files;
    EXPECT_FALSE(std::regex_search(read_source(e.path()), policy)) << e.path() << " decides what engine/verdict_policy.hpp owns";
  }
  EXPECT_GT(files, 10);
}

TEST(Layering, TheEngineIncludesNoHigherLayer) {
  const std::regex higher(R"(#include\s+"(search|report|reproduce|cli)/)");
  int files = 0;
  for (const auto& e : fs::directory_iterator(fs::path(SOFTCERT_SOURCE_DIR) / "src" / "engine")) {
    if (!e.is_regular_file()) continue;
    ++files;
    EXPECT_FALSE(std::regex_search(read_source(e.path()), higher)) << e.path();
  }
  EXPECT_GT(files, 10);
}

}  // namespace
}  // namespace softcert::engine
