#pragma once
// Shared by the fuzz targets: the contract they enforce is "bad input throws
// std::invalid_argument (→ exit 2 with a message); anything else — a crash, a sanitizer
// report, another exception type, a hang — is a bug".
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace softcert::fuzz {

inline std::string as_text(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// A per-process scratch file holding the input, for readers that take a path.
inline std::filesystem::path scratch_file(const std::string& text, const char* suffix) {
  const std::filesystem::path p = std::filesystem::temp_directory_path() /
                                  ("softcert_fuzz_" + std::to_string(getpid()) + suffix);
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
  return p;
}

[[noreturn]] inline void contract_broken(const char* what) {
  std::fprintf(stderr, "fuzz: contract broken: %s\n", what);
  std::abort();
}

}  // namespace softcert::fuzz
