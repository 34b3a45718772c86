#include "cli/interrupt_notice.hpp"

#include <unistd.h>

#include <csignal>
#include <algorithm>
#include <cstring>

namespace softcert::cli {

namespace {
char g_notice[4096];
std::size_t g_length = 0;

extern "C" void on_interrupt(int) {
  if (g_length > 0) {
    const ssize_t ignored = ::write(STDERR_FILENO, g_notice, g_length);
    (void)ignored;
  }
  std::signal(SIGINT, SIG_DFL);
  std::raise(SIGINT);
}
}  // namespace

void set_interrupt_notice(const std::string& text) {
  const std::string line = "\nsoftcert: interrupted; " + text + "\n";
  g_length = std::min(line.size(), sizeof g_notice);
  std::memcpy(g_notice, line.data(), g_length);
  std::signal(SIGINT, on_interrupt);
}

std::string run_interrupt_notice(const std::string& out) {
  if (out.empty()) return "nothing was kept (with --out DIR the finished results are kept and --resume continues the run)";
  return "the finished results are kept in " + out + "/results.jsonl; rerun the same command with --resume to continue";
}

}  // namespace softcert::cli
