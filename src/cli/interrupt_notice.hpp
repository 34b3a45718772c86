#pragma once
// What Ctrl-C (SIGINT) says before the process ends: the finished results a run keeps and how to
// continue it. Records are journalled as they finish (engine/journal.hpp), so ending at once is
// safe: a line cut short is dropped by --resume. The handler only writes the prepared text and
// re-raises SIGINT with the default action (exit status 130 in a shell), async-signal-safe.
#include <string>

namespace softcert::cli {

// Installs the handler with `text` as what follows "softcert: interrupted; " on stderr.
void set_interrupt_notice(const std::string& text);

// The notice of a run with (out non-empty) or without an --out directory.
std::string run_interrupt_notice(const std::string& out);

}  // namespace softcert::cli
