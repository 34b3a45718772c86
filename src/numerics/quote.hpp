#pragma once
// Values echoed in messages: at most 80 characters (then "…"), always valid UTF-8 (a byte that
// is not part of valid UTF-8, and a control character, is written \xNN), so that a 50 MB
// garbage value neither floods stderr nor makes a results record unwritable as JSON.
#include <cstddef>
#include <string>

namespace softcert::num {

// `text` cut to at most `max_chars` characters (code points), with "…" when cut.
inline std::string excerpt(const std::string& text, std::size_t max_chars = 80) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  std::size_t chars = 0, i = 0;
  const std::size_t n = text.size();
  for (; i < n && chars < max_chars; ++chars) {
    const auto c = static_cast<unsigned char>(text[i]);
    // Length of a well-formed UTF-8 sequence starting here (0: not one).
    std::size_t len = 0;
    if (c >= 0x20 && c < 0x7F) len = 1;
    else if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c >= 0xE0 && c <= 0xEF) len = 3;
    else if (c >= 0xF0 && c <= 0xF4) len = 4;
    if (len > 1) {
      if (i + len > n) len = 0;
      for (std::size_t k = 1; len && k < len; ++k)
        if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) len = 0;
      if (len) {  // overlong, surrogate and out-of-range forms
        const auto c1 = static_cast<unsigned char>(text[i + 1]);
        if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0) || (c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 >= 0x90))
          len = 0;
      }
    }
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
