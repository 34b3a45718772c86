#pragma once
// Values echoed in messages: at most 80 characters (then "…"), always valid UTF-8 (a byte that
// is not part of valid UTF-8, and a control character, is written \xNN), so that a 50 MB
// garbage value neither floods stderr nor makes a results record unwritable as JSON.
#include <cstddef>
#include <string>

#include "numerics/utf8.hpp"

namespace softcert::num {

// `text` cut to at most `max_chars` characters (code points), with "…" when cut.
inline std::string excerpt(const std::string& text, std::size_t max_chars = 80) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  std::size_t chars = 0, i = 0;
  const std::size_t n = text.size();
  for (; i < n && chars < max_chars; ++chars) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t len = utf8_sequence_length(text, i, /*control_is_invalid=*/true);
    if (len == 0) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 0xF];
      i += 1;
    } else {
      out.append(text, i, len);
      i += len;
    }
  }
  if (i < n) out += "…";
  return out;
}

// "\"" + excerpt(text) + "\"": how messages quote a value they were given.
inline std::string quoted(const std::string& text) {
  std::string out(1, '"');  // (not "\"" + excerpt(...): GCC 12 warns falsely, -Wrestrict)
  out += excerpt(text);
  out += '"';
  return out;
}

// A JSON parser's message (nlohmann::json::exception::what()) with the text it quotes
// ("last read: '…'") cut to an excerpt.
inline std::string json_error_excerpt(const std::string& what) {
  const std::string key = "last read: '";
  const std::size_t p = what.find(key);
  if (p == std::string::npos) return excerpt(what, 400);
  std::string tail = what.substr(p + key.size());
  if (!tail.empty() && tail.back() == '\'') tail.pop_back();
  return excerpt(what.substr(0, p), 400) + key + excerpt(tail) + "'";
}

}  // namespace softcert::num
