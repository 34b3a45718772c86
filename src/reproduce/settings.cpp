#include "reproduce/settings.hpp"

#include <algorithm>

#include "numerics/quote.hpp"
#include "numerics/strict_json.hpp"
#include "numerics/utf8.hpp"
#include "reproduce/experiment.hpp"

namespace softcert::reproduce {

nlohmann::json parse_settings(const Experiment& experiment, const std::vector<std::string>& assignments) {
  nlohmann::json settings = nlohmann::json::object();
  for (const auto& a : assignments) {
    const auto eq = a.find('=');
    if (eq == std::string::npos || eq == 0) throw std::invalid_argument("--set must be KEY=VALUE (got " + num::quoted(a) + ")");
    // numbers.json records the settings: text that is not UTF-8 could not be written after the run
    if (!num::is_utf8(a)) throw std::invalid_argument("--set " + num::quoted(a) + ": not valid UTF-8");
    const std::string key = a.substr(0, eq), value = a.substr(eq + 1);
    if (std::find(experiment.settings.begin(), experiment.settings.end(), key) == experiment.settings.end())
      throw std::invalid_argument("--set: " + experiment.name + " has no setting " + num::quoted(key));
    // given twice, the later value silently won: which one the user meant is not ours to guess
    if (settings.contains(key)) throw std::invalid_argument("--set: " + num::quoted(key) + " is given twice");
    try {
      settings[key] = num::parse_json_bounded(value, "--set " + num::excerpt(key, 40));
    } catch (const nlohmann::json::exception&) {  // not JSON (a word, or a number JSON cannot hold): the text
      settings[key] = value;
    }
  }
  return settings;
}

}  // namespace softcert::reproduce
