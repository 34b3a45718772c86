// softcert-verify DIR|FILE…: re-checks softcert certificates (docs/certificates.md) with Arb
// balls, independently of softcert's own code. Prints one verdict per file and
// "N verified, M rejected"; exit 0 iff every file verifies (and there is at least one), 1 when one
// is rejected, 2 for arguments that name no certificate.
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
  // Arguments that are not certificates are usage errors (exit 2, naming them): a missing path, a
  // symlink, a device or FIFO (reading one could block), a folder without *.jsonl files. Inside a
  // folder, an entry named *.jsonl that is not a regular file is rejected like a bad certificate.
  std::vector<std::string> files, not_regular;
  for (int a = 1; a < argc; ++a) {
    const std::filesystem::path p(argv[a]);
    std::error_code ec;
    const auto st = std::filesystem::symlink_status(p, ec);
    if (ec || !std::filesystem::exists(st)) {
      std::fprintf(stderr, "softcert-verify: %s: no such file or folder\n", argv[a]);
      return 2;
    }
    if (std::filesystem::is_directory(st)) {
      std::size_t found = 0;
      for (const auto& e : std::filesystem::directory_iterator(p, ec)) {
        if (e.path().extension() != ".jsonl") continue;
        ++found;
        (e.is_symlink() || !e.is_regular_file() ? not_regular : files).push_back(e.path().string());
      }
      if (ec || found == 0) {
        std::fprintf(stderr, "softcert-verify: %s: no certificate (*.jsonl) in this folder\n", argv[a]);
        return 2;
      }
    } else if (std::filesystem::is_regular_file(st)) {
      files.push_back(p.string());
    } else {
      std::fprintf(stderr, "softcert-verify: %s: not a regular file (a symlink, device or FIFO is not read)\n", argv[a]);
      return 2;
    }
  }
  std::sort(files.begin(), files.end());
  std::size_t ok = 0, bad = 0;
  std::sort(not_regular.begin(), not_regular.end());
  for (const auto& file : not_regular) {
    std::printf("%s: REJECTED (0.00 s): not a regular file (a symlink, device or FIFO is not read)\n", file.c_str());
    ++bad;
  }
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
