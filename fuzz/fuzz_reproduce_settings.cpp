// libFuzzer target: `softcert reproduce --set KEY=VALUE` settings (reproduce::parse_settings) on
// arbitrary text, one assignment a line, for every experiment; the settings it accepts are read
// by both of the experiments' readers (number_setting, integer_setting) as an experiment reads
// them when it starts. Contract: only std::invalid_argument; an accepted setting names a key of
// the experiment, once, and a value the readers either take in range or refuse.
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>

#include "fuzz_support.hpp"
#include "reproduce/registry.hpp"
#include "reproduce/settings.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace softcert;
  std::vector<std::string> assignments;
  {
    std::istringstream in(fuzz::as_text(data, size));
    std::string line;
    while (std::getline(in, line)) assignments.push_back(line);
  }
  for (const reproduce::Experiment& e : reproduce::experiments()) {
    nlohmann::json settings;
    try {
      settings = reproduce::parse_settings(e, assignments);
    } catch (const std::invalid_argument&) {
      continue;
    }
    if (!settings.is_object() || settings.size() > assignments.size()) fuzz::contract_broken("settings not one per assignment");
    for (const auto& [key, value] : settings.items()) {
      if (std::find(e.settings.begin(), e.settings.end(), key) == e.settings.end()) fuzz::contract_broken("a key the experiment does not list");
      (void)value.dump();  // every accepted value can be written into numbers.json
      try {
        const double x = reproduce::number_setting(settings, key.c_str(), 0, -1e300, 1e300);
        if (!(x >= -1e300 && x <= 1e300)) fuzz::contract_broken("number_setting out of its range");
      } catch (const std::invalid_argument&) {
      }
      try {
        const std::uint64_t k = reproduce::integer_setting(settings, key.c_str(), 0, 2, 1000);
        if (k < 2 || k > 1000) fuzz::contract_broken("integer_setting out of its range");
      } catch (const std::invalid_argument&) {
      }
    }
  }
  return 0;
}
