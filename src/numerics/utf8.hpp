#pragma once
// Well-formed UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF. Every
// string softcert writes into JSON (records, manifests, summaries) must be UTF-8; file names and
// arguments are bytes on Linux, so they are checked where they come in.
#include <cstddef>
#include <string>

namespace softcert::num {

// The length of the well-formed UTF-8 sequence starting at text[i] (1 to 4), or 0 when none
// starts there. `control_is_invalid`: a C0 control character or DEL also counts as none (how
// messages escape them, quote.hpp).
inline std::size_t utf8_sequence_length(const std::string& text, std::size_t i, bool control_is_invalid = false) {
  const std::size_t n = text.size();
  const auto c = static_cast<unsigned char>(text[i]);
  std::size_t len = 0;
  if (c < 0x80) return control_is_invalid && (c < 0x20 || c == 0x7F) ? 0 : 1;
  if (c >= 0xC2 && c <= 0xDF) len = 2;
  else if (c >= 0xE0 && c <= 0xEF) len = 3;
  else if (c >= 0xF0 && c <= 0xF4) len = 4;
  if (len == 0 || i + len > n) return 0;
  for (std::size_t k = 1; k < len; ++k)
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 0;
  const auto c1 = static_cast<unsigned char>(text[i + 1]);  // overlong, surrogate and out-of-range forms
  if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0) || (c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 >= 0x90))
    return 0;
  return len;
}

// Whether all of `text` is well-formed UTF-8 (control characters allowed).
inline bool is_utf8(const std::string& text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t len = utf8_sequence_length(text, i);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

}  // namespace softcert::num
