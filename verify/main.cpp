// softcert-verify DIR|FILE…: re-checks softcert certificates (docs/certificates.md) with Arb
// balls, independently of softcert's own code. Prints one verdict per file and
// "N verified, M rejected"; exit 0 iff every file verifies (and there is at least one).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "certificate.hpp"

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help") {
    std::puts("usage: softcert-verify DIR|FILE...   (every *.jsonl file of a DIR is a certificate)");
    return argc < 2 ? 2 : 0;
  }
  std::vector<std::string> files;
  for (int a = 1; a < argc; ++a) {
    const std::filesystem::path p(argv[a]);
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
      for (const auto& e : std::filesystem::directory_iterator(p, ec))
        if (e.path().extension() == ".jsonl") files.push_back(e.path().string());
    } else {
      files.push_back(p.string());
    }
  }
  std::sort(files.begin(), files.end());
  std::size_t ok = 0, bad = 0;
  for (const auto& file : files) {
    const auto t0 = std::chrono::steady_clock::now();
    const verify::FileVerdict v = verify::verify_file(file);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%s: %s (%.2f s): %s\n", file.c_str(), v.verified ? "verified" : "REJECTED", s, v.message.c_str());
    ++(v.verified ? ok : bad);
  }
  std::printf("%zu verified, %zu rejected\n", ok, bad);
  return ok > 0 && bad == 0 ? 0 : 1;
}
