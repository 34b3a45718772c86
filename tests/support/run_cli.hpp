#pragma once
// Runs the built softcert binary with arguments and captures exit status, stdout and stderr.
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

namespace softcert::testing {

struct CliRun {
  int status = -1;
  std::string out, err;
};

// `args` is passed through the shell: quote what needs quoting. `shell_prefix` runs before the
// binary in the same shell (e.g. "trap '' XFSZ; ulimit -f 8; exec").
inline CliRun run_softcert_after(const std::string& shell_prefix, const std::string& args) {
  static int counter = 0;
  const std::string err_file = ::testing::TempDir() + "softcert_stderr_" + std::to_string(getpid()) + "_" + std::to_string(counter++) + ".txt";
  const std::string cmd = shell_prefix + " " + std::string(SOFTCERT_BINARY) + " " + args + " 2>" + err_file;
  CliRun r;
  FILE* p = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), p)) r.out += buf.data();
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  if (FILE* e = std::fopen(err_file.c_str(), "r")) {
    while (std::fgets(buf.data(), buf.size(), e)) r.err += buf.data();
    std::fclose(e);
  }
  std::remove(err_file.c_str());
  return r;
}

inline CliRun run_softcert(const std::string& args) { return run_softcert_after("", args); }

}  // namespace softcert::testing
