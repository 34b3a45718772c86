#pragma once
// Each subcommand lives in its own cmd_*.cpp and adds itself to the application here.
// A subcommand's callback stores its exit status in `exit_status`.
#include <CLI/CLI.hpp>

namespace softcert::cli {

// Thrown by a subcommand for bad input that is not a parse error (unreadable file, bad
// instance field): main prints the message and exits 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void add_commands(CLI::App& app, int& exit_status);

}  // namespace softcert::cli
