// reproduce::parse_settings: `--set KEY=VALUE` read into the settings an experiment checks.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "reproduce/registry.hpp"
#include "reproduce/settings.hpp"

namespace softcert {
namespace {

const reproduce::Experiment& settings_test_experiment() {
  const reproduce::Experiment* e = reproduce::find_experiment("sukenik2026-cost-scaling");
  if (!e) throw std::logic_error("no sukenik2026-cost-scaling experiment");
  return *e;
}

std::string settings_refusal(const std::vector<std::string>& assignments) {
  try {
    (void)reproduce::parse_settings(settings_test_experiment(), assignments);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(ReproduceSettings, ValuesAreJsonOrTextAndKeysTheExperiments) {
  const nlohmann::json s = reproduce::parse_settings(settings_test_experiment(), {"T_max=4"});
  EXPECT_EQ(s, nlohmann::json({{"T_max", 4}}));
  EXPECT_EQ(reproduce::parse_settings(settings_test_experiment(), {"T_max=four"})["T_max"], "four");
  EXPECT_NE(settings_refusal({"colour=red"}).find("has no setting \"colour\""), std::string::npos);
  EXPECT_NE(settings_refusal({"T_max"}).find("--set must be KEY=VALUE"), std::string::npos);
  EXPECT_NE(settings_refusal({"T_max=4", "T_max=8"}).find("is given twice"), std::string::npos);
}

TEST(ReproduceSettings, TextThatIsNotUtf8IsRefusedNotWrittenAfterTheRun) {
  // fuzz_reproduce_settings: a value with byte 0xFF was kept as text, and numbers.json's dump()
  // threw type_error 316 (an internal error once the experiment had run)
  const std::string why = settings_refusal({"T_max=4\xff"});
  EXPECT_NE(why.find("not valid UTF-8"), std::string::npos) << why;
  EXPECT_NE(why.find("\\xFF"), std::string::npos) << why;
}

}  // namespace
}  // namespace softcert
