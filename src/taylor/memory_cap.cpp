#include "taylor/memory_cap.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

namespace softcert::taylor {

namespace {
// The largest override accepted: 2^50 bytes (1 PiB), far above any machine, so a value past it is
// a typo or an attempt to switch the cap off, not a setting.
constexpr unsigned long long kLargestCap = 1ULL << 50;

std::size_t compute_cap() {
  if (const char* env = std::getenv("SOFTCERT_TAPE_MEMORY_CAP")) {
    const std::string text = env;
    // decimal digits only: strtoull alone would read "-1" as 2^64 − 1 (no cap) and " 5x" as 5
    const bool digits = !text.empty() && text.size() <= 16 && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    const unsigned long long v = digits ? std::strtoull(text.c_str(), nullptr, 10) : 0;
    if (!digits || v == 0 || v > kLargestCap)
      throw std::invalid_argument("SOFTCERT_TAPE_MEMORY_CAP: must be a number of bytes in [1, 2^50] written in decimal digits, got '" +
                                  text.substr(0, 40) + "'");
    return static_cast<std::size_t>(v);
  }
  const std::size_t eight_gib = std::size_t{8} << 30;
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return eight_gib;
  const std::size_t half = static_cast<std::size_t>(pages) / 2 * static_cast<std::size_t>(page);
  return std::min(eight_gib, half);
}

// Rounded up, in the unit that shows it (a small cap set for a test printed as "0.0000 GiB").
std::string gib(double bytes) {
  char buf[64];
  if (bytes >= double(std::size_t{1} << 30)) std::snprintf(buf, sizeof buf, "%.4g GiB", std::ceil(bytes / double(std::size_t{1} << 30) * 1e3) / 1e3);
  else if (bytes >= double(std::size_t{1} << 20)) std::snprintf(buf, sizeof buf, "%.4g MiB", std::ceil(bytes / double(std::size_t{1} << 20) * 1e3) / 1e3);
  else std::snprintf(buf, sizeof buf, "%.0f bytes", std::ceil(bytes));
  return buf;
}
}  // namespace

std::size_t derivative_memory_cap() {
  static const std::size_t cap = compute_cap();
  return cap;
}

void require_derivative_memory(std::size_t nodes, std::size_t orders, std::size_t n, std::size_t bytes_each) {
  const double bytes = double(nodes) * double(orders) * double(n) * double(bytes_each);  // no overflow
  const std::size_t cap = derivative_memory_cap();
  if (bytes > double(cap))
    throw support::MemoryLimit("memory: the variational pass needs " + gib(bytes) + " (" + std::to_string(nodes) +
                            " tape nodes x " + std::to_string(orders) + " orders x n = " + std::to_string(n) +
                            "), above the cap of " + gib(double(cap)) +
                            " (SOFTCERT_TAPE_MEMORY_CAP; taylor/memory_cap.hpp); the ball step needs no x0-derivatives "
                            "where the run allows it (t-time: --set ball; docs/method.md §2b)");
}

void require_lohner_memory(std::size_t n, std::size_t matrices, std::size_t bytes_each) {
  const double bytes = double(matrices) * double(n) * double(n) * double(bytes_each);  // no overflow
  const std::size_t cap = derivative_memory_cap();
  if (bytes > double(cap))
    throw support::MemoryLimit("memory: the Lohner step needs at least " + gib(bytes) + " (" + std::to_string(matrices) +
                      " interval matrices of n x n, n = " + std::to_string(n) + ", " + std::to_string(bytes_each) +
                      " bytes an entry), above the cap of " + gib(double(cap)) +
                      " (SOFTCERT_TAPE_MEMORY_CAP; taylor/memory_cap.hpp)");
}

std::size_t derivative_block_width(std::size_t nodes, std::size_t orders, std::size_t n, std::size_t bytes_each) {
  const double cap = double(derivative_memory_cap());
  const double per_direction = double(nodes) * double(orders) * double(bytes_each);  // one direction's block column
  if (per_direction * double(n) <= cap / 8) return n;
  const double result = double(n) * double(orders) * double(n) * double(bytes_each);
  const double room = std::min(cap / 8, cap - result);
  const double fit = room > 0 ? std::floor(room / per_direction) : 0;
  const std::size_t least = std::min<std::size_t>(n, 8);
  if (fit < double(least))
    throw support::MemoryLimit("memory: the variational pass needs " + gib(result + per_direction * double(least)) +
                            " in blocks of " + std::to_string(least) + " directions (its result n x " +
                            std::to_string(orders) + " orders x n = " + std::to_string(n) + ", plus " +
                            std::to_string(nodes) + " tape nodes x " + std::to_string(orders) +
                            " orders per direction), above the cap of " + gib(cap) +
                            " (SOFTCERT_TAPE_MEMORY_CAP; taylor/memory_cap.hpp)");
  return std::min(n, static_cast<std::size_t>(fit));
}

}  // namespace softcert::taylor
