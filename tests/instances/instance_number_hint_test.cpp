// A JSON number where an exact decimal string is required is refused with a hint that says how
// to write it: quoted, with the same digits, and where a template instance is.
#include <gtest/gtest.h>

#include "instances/instance.hpp"

namespace softcert {
namespace {

TEST(InstanceNumberHint, AJsonNumberIsRefusedWithTheQuotedSpellingAndATemplate) {
  auto j = nlohmann::json::parse(R"({"model":"value_softmax","loss":"logistic","normalization":"softmax",
    "T":2,"d":1,"V":[["0.1","-0.2"]],"a":["0","0"],"beta":["1"],"provenance":"test"})");
  j["a"][1] = 0.25;
  std::string message;
  try {
    (void)instances::parse_instance(j);
  } catch (const std::invalid_argument& e) {
    message = e.what();
  }
  EXPECT_EQ(message.rfind("a[1]: expected a decimal string, got number", 0), 0u) << message;
  EXPECT_NE(message.find("\"0.25\""), std::string::npos) << message;
  EXPECT_NE(message.find("proofs_checks/instances/authors/headline.json"), std::string::npos) << message;
  // not a number: no quoting hint
  j["a"][1] = true;
  try {
    (void)instances::parse_instance(j);
  } catch (const std::invalid_argument& e) {
    message = e.what();
  }
  EXPECT_EQ(message.find("write it in quotes"), std::string::npos) << message;
}

}  // namespace
}  // namespace softcert
