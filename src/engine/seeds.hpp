#pragma once
// Seeds that do not depend on platform, thread count or shard split: an instance's seed is a
// pure function of (suite seed, check name, instance index).
#include <cstdint>
#include <string>

namespace softcert::engine {

// SplitMix64 (Steele, Lea, Flood 2014): one step of the generator, a good 64-bit mixer.
constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// FNV-1a of the name: stable across platforms (std::hash is not).
constexpr std::uint64_t name_hash(const char* s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (; *s; ++s) h = (h ^ static_cast<unsigned char>(*s)) * 0x100000001b3ULL;
  return h;
}

inline std::uint64_t instance_seed(std::uint64_t base_seed, const std::string& check, std::uint64_t index) {
  return splitmix64(splitmix64(base_seed ^ name_hash(check.c_str())) + index);
}

}  // namespace softcert::engine
