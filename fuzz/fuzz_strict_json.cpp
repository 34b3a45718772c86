// libFuzzer target: the strict JSON reader every file softcert reads goes through
// (num::parse_json_strict: instances, journals, manifests, run.json, replay records).
// Contract: it throws std::invalid_argument (a NUL byte, a duplicate key, nesting deeper than
// num::kMaxJsonDepth) or nlohmann's own exceptions (malformed JSON), or returns a value that
// nlohmann's lenient parser agrees with; what it accepts it accepts again after a dump (no key
// it let through repeats).
#include <cstdint>

#include "fuzz_support.hpp"
#include "numerics/strict_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace softcert;
  const std::string text = fuzz::as_text(data, size);
  nlohmann::json strict;
  try {
    strict = num::parse_json_strict(text, "fuzz");
  } catch (const std::invalid_argument&) {
    return 0;
  } catch (const nlohmann::json::exception&) {
    return 0;
  }
  if (text.find('\0') != std::string::npos) fuzz::contract_broken("a text with a NUL byte was accepted");
  const nlohmann::json lenient = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (lenient.is_discarded()) fuzz::contract_broken("accepted a text nlohmann's parser refuses");
  if (lenient != strict) fuzz::contract_broken("the strict and lenient readings differ");
  try {
    if (num::parse_json_strict(strict.dump(), "fuzz") != strict) fuzz::contract_broken("dump/parse round trip differs");
  } catch (const std::exception&) {
    fuzz::contract_broken("the dump of an accepted value is refused");
  }
  return 0;
}
