#pragma once
// Seeds that do not depend on platform, thread count or shard split: an instance's seed is a
// pure function of (suite seed, check name, instance index).
#include <cstdint>
#include <string>

#include "support/splitmix64.hpp"

namespace softcert::engine {

// FNV-1a of the name: stable across platforms (std::hash is not).
constexpr std::uint64_t name_hash(const char* s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (; *s; ++s) h = (h ^ static_cast<unsigned char>(*s)) * 0x100000001b3ULL;
  return h;
}

inline std::uint64_t instance_seed(std::uint64_t base_seed, const std::string& check, std::uint64_t index) {
  return support::splitmix64(support::splitmix64(base_seed ^ name_hash(check.c_str())) + index);
}

}  // namespace softcert::engine
