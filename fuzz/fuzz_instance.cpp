// libFuzzer target: the instance reader (instances::parse_instance) on arbitrary JSON text.
// Contract: invalid input throws std::invalid_argument; a parsed instance survives the round
// trip to_json → parse_instance unchanged.
#include <stdexcept>

#include "fuzz_support.hpp"
#include "instances/instance.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace softcert;
  const nlohmann::json j = nlohmann::json::parse(fuzz::as_text(data, size), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return 0;
  instances::Instance inst;
  try {
    inst = instances::parse_instance(j);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  const nlohmann::json once = instances::to_json(inst);
  nlohmann::json twice;
  try {
    twice = instances::to_json(instances::parse_instance(once));
  } catch (const std::invalid_argument&) {
    fuzz::contract_broken("to_json of a parsed instance does not parse");
  }
  if (once != twice) fuzz::contract_broken("parse_instance(to_json(x)) differs from x");
  return 0;
}
