#pragma once
// SplitMix64 (Steele, Lea, Flood 2014), softcert's one source of random words: instance seeds
// (engine/seeds.hpp), the generators (instances/generator.hpp, support/random_source.hpp)
// and the search's picks. Its words are fixed by the standard's integer arithmetic, so they
// are the same on every platform.
#include <cstdint>

namespace softcert::support {

inline constexpr std::uint64_t kSplitMix64Gamma = 0x9e3779b97f4a7c15ULL;

// The word SplitMix64 outputs from state x: x + γ through the xor-shift-multiply finaliser.
// Also a good 64-bit mixer of x.
constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += kSplitMix64Gamma;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The generator: each next() outputs splitmix64(state) and advances the state by γ.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    const std::uint64_t w = splitmix64(state_);
    state_ += kSplitMix64Gamma;
    return w;
  }

 private:
  std::uint64_t state_;
};

}  // namespace softcert::support
