#pragma once
// Strict JSON for files softcert reads (instances, journals, manifests, run headers): nlohmann's
// parser, bounded in nesting depth (kMaxJsonDepth), plus the two things it lets through — a NUL
// byte (nlohmann stops reading at one when reading a stream, so "{...}\0garbage" would be
// accepted) and a duplicate key in an object (nlohmann silently keeps the last). Numbers inside
// instances are decimal strings, checked by num::is_decimal_syntax against the grammar of
// docs/instances.md.
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "numerics/quote.hpp"

namespace softcert::num {

// The deepest nesting of arrays and objects softcert reads in any JSON text (its own files nest
// fewer than 10 levels). Deeper input is refused while it is parsed, before the value is built:
// copying, comparing and printing a JSON value recurse once per level, and ~100,000 levels (a
// 200 KB file) overflowed the stack.
inline constexpr int kMaxJsonDepth = 512;

// The refusal of a text nested deeper than kMaxJsonDepth, "WHERE: ...".
[[noreturn]] inline void refuse_json_depth(const std::string& where) {
  throw std::invalid_argument(where + ": arrays and objects nested more than " + std::to_string(kMaxJsonDepth) +
                              " deep (the most softcert reads): not a file softcert wrote or reads");
}

// nlohmann's parser with the nesting bound alone (for values given on the command line and
// texts softcert wrote itself); std::invalid_argument "WHERE: ..." when deeper, nlohmann's
// parse errors rethrown as they are.
inline nlohmann::json parse_json_bounded(const std::string& text, const std::string& where) {
  nlohmann::json::parser_callback_t cb = [&where](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
    // `depth` counts the containers around the one that starts
    using E = nlohmann::json::parse_event_t;
    if ((event == E::object_start || event == E::array_start) && depth >= kMaxJsonDepth) refuse_json_depth(where);
    return true;
  };
  return nlohmann::json::parse(text, cb);
}

// Throws std::invalid_argument "WHERE: ..." naming the field (the path of keys to it) and
// quoting at most 80 characters; nlohmann's own parse errors are rethrown as
// nlohmann::json::parse_error (callers word those themselves).
inline nlohmann::json parse_json_strict(const std::string& text, const std::string& where) {
  const std::size_t nul = text.find('\0');
  if (nul != std::string::npos)
    throw std::invalid_argument(where + ": contains a NUL byte (at byte " + std::to_string(nul) +
                                "): not a JSON text; near " + quoted(text.substr(nul > 20 ? nul - 20 : 0, 40)));
  std::vector<std::set<std::string>> keys;  // per open object
  std::vector<std::string> path;            // the keys leading to the current value
  std::vector<bool> in_object;              // per open container
  const auto field = [&path]() {
    std::string f;
    for (const auto& k : path) f += (f.empty() ? "" : ".") + k;
    return f;
  };
  nlohmann::json::parser_callback_t cb = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using E = nlohmann::json::parse_event_t;
    switch (event) {
      case E::object_start:
        if (depth >= kMaxJsonDepth) refuse_json_depth(where);  // `depth`: the containers around it
        keys.emplace_back();
        in_object.push_back(true);
        break;
      case E::array_start:
        if (depth >= kMaxJsonDepth) refuse_json_depth(where);
        in_object.push_back(false);
        break;
      case E::key: {
        const std::string k = parsed.get<std::string>();
        if (!keys.empty() && !keys.back().insert(k).second) {
          const std::string at = field();
          throw std::invalid_argument(where + ": duplicate key " + quoted(k) + (at.empty() ? "" : " in " + excerpt(at)) +
                                      " (JSON objects must not repeat a key; which value was meant is unknowable)");
        }
        path.push_back(excerpt(k, 40));
        return true;
      }
      case E::object_end:
        if (!keys.empty()) keys.pop_back();
        [[fallthrough]];
      case E::array_end:
        if (!in_object.empty()) in_object.pop_back();
        // the container was a value: its key (if it had one) is done
        if (!in_object.empty() && in_object.back() && !path.empty()) path.pop_back();
        break;
      case E::value:
        if (!in_object.empty() && in_object.back() && !path.empty()) path.pop_back();
        break;
    }
    return true;
  };
  return nlohmann::json::parse(text, cb);
}

}  // namespace softcert::num
