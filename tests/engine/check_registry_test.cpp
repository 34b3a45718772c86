// Every theorem check in proofs_checks/ comes with what makes it usable and trusted: a page
// under docs/theorems/ (its doc()), at least one test under tests/ that names it, and an
// entry in proofs_checks/suites/quick.toml, so that `make run` exercises it. A check that
// cannot meet the last one is listed in kNotInQuick with the reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "engine/registry.hpp"
#include "numerics/nearest_word.hpp"

namespace softcert::engine {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = SOFTCERT_SOURCE_DIR;

// Checks exempt from quick.toml, each with its reason (none today).
const std::map<std::string, std::string> kNotInQuick = {};

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Checks defined in proofs_checks/ (the tests register toy checks named test.*).
std::vector<const Check*> theorem_checks() {
  std::vector<const Check*> out;
  for (const Check* c : CheckRegistry::global().all())
    if (c->name().rfind("test.", 0) != 0) out.push_back(c);
  return out;
}

TEST(CheckRegistry, AnUnknownNameSuggestsTheNearestCheck) {
  const auto& reg = engine::CheckRegistry::global();
  EXPECT_EQ(reg.unknown("varre2026.order_prservation"),
            "no check named \"varre2026.order_prservation\" (did you mean \"varre2026.order_preservation\"?)");
  EXPECT_EQ(reg.unknown("nothing.like.it"), "no check named \"nothing.like.it\"");
  EXPECT_EQ(num::edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(num::nearest_word("ab", {"xy", "ac"}), std::optional<std::string>("ac"));
  EXPECT_EQ(num::nearest_word("abcdef", {"uvwxyz"}), std::nullopt);  // 6 edits: not a typo
}

TEST(CheckRegistry, EveryCheckHasADocsPage) {
  for (const Check* c : theorem_checks()) {
    SCOPED_TRACE(c->name());
    ASSERT_FALSE(c->doc().empty()) << "doc() names no page";
    EXPECT_EQ(fs::path(c->doc()).parent_path(), fs::path("docs/theorems"));
    EXPECT_TRUE(fs::is_regular_file(kSource / c->doc())) << c->doc() << " is missing";
  }
}

TEST(CheckRegistry, EveryCheckIsNamedByATest) {
  // The test sources, this file excepted (it names no check).
  std::string tests;
  for (const auto& e : fs::recursive_directory_iterator(kSource / "tests")) {
    const auto ext = e.path().extension();
    if (e.is_regular_file() && (ext == ".cpp" || ext == ".py") && e.path().filename() != "check_registry_test.cpp")
      tests += read(e.path());
  }
  for (const Check* c : theorem_checks())
    EXPECT_NE(tests.find("\"" + c->name() + "\""), std::string::npos) << c->name() << ": no test names it";
}

TEST(CheckRegistry, EveryCheckIsInTheQuickSuite) {
  const std::string quick = read(kSource / "proofs_checks/suites/quick.toml");
  ASSERT_FALSE(quick.empty());
  for (const Check* c : theorem_checks()) {
    const bool listed = quick.find("name = \"" + c->name() + "\"") != std::string::npos;
    if (kNotInQuick.count(c->name())) {
      EXPECT_FALSE(listed) << c->name() << " is in quick.toml: drop its exemption";
      continue;
    }
    EXPECT_TRUE(listed) << c->name() << ": no entry in proofs_checks/suites/quick.toml";
  }
}

TEST(CheckRegistry, ExemptionsNameRegisteredChecks) {
  for (const auto& [name, reason] : kNotInQuick) {
    EXPECT_NE(CheckRegistry::global().find(name), nullptr) << name;
    EXPECT_FALSE(reason.empty()) << name;
  }
}

}  // namespace
}  // namespace softcert::engine
