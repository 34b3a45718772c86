// softcert: the command-line front end. Exit status (docs/cli.md): 0 all outcomes as expected,
// 1 an unexpected outcome, 2 bad usage or input, 3 too many inconclusive results.
#include <csignal>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/run_options.hpp"
#include "engine/build_info.hpp"
#include "engine/journal.hpp"
#include "numerics/quote.hpp"
#include "numerics/utf8.hpp"
#include "taylor/memory_cap.hpp"

int main(int argc, char** argv) {
  // Past `ulimit -f`, write() fails with EFBIG instead of the process dying by SIGXFSZ (exit 153,
  // a temporary file left behind): every write is checked and EFBIG is reported like a full disk.
  std::signal(SIGXFSZ, SIG_IGN);
  CLI::App app{"softcert: checks theorems about softmax attention with certified numerics"};
  app.name("softcert");
  // Every option's default in --help (subcommands inherit this when they are created below).
  app.option_defaults()->always_capture_default();
  bool version = false;
  app.add_flag("--version", version, "print version, commit, compiler and library versions");
  softcert::cli::command_line().assign(argv, argv + argc);
  // The environment is input too: a malformed SOFTCERT_TAPE_MEMORY_CAP is refused before any run.
  try {
    softcert::taylor::derivative_memory_cap();
  } catch (const std::invalid_argument& e) {
    std::cerr << "softcert: error: " << e.what() << "\n";
    return 2;
  }
  // Arguments are bytes on Linux, but softcert writes them (file names, labels, --param values)
  // into JSON records and reports, which are UTF-8: a file name in another encoding is refused
  // here, naming it, instead of failing when the first record is written after the whole run.
  for (int i = 1; i < argc; ++i)
    if (!softcert::num::is_utf8(argv[i])) {
      std::cerr << "softcert: error: argument " << i << " " << softcert::num::quoted(argv[i])
                << " is not valid UTF-8: softcert writes file names and arguments into UTF-8 JSON and reports "
                   "(rename the file or directory)\n";
      return 2;
    }
  int exit_status = 0;
  softcert::cli::add_commands(app, exit_status);
  // An empty list's captured default ("[]") says nothing: shown as none. (A sentinel default says
  // what it means where its option is defined.)
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    for (CLI::Option* o : sub->get_options([](CLI::Option*) { return true; }))
      if (o->get_default_str() == "[]") o->default_str("");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::ParseError& e) {
    std::cerr << "softcert: error: " << e.what() << "\n\n" << app.help();
    return 2;
  } catch (const softcert::cli::UsageError& e) {
    std::cerr << "softcert: error: " << e.what() << "\n";
    return 2;
  } catch (const softcert::engine::WriteError& e) {  // a full disk, no permission: not a bug
    std::cerr << "softcert: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "softcert: internal error: " << e.what() << "\n";
    return 2;
  }
  if (version) {
    std::cout << softcert::build_info_text();
    return 0;
  }
  if (app.get_subcommands().empty()) {
    std::cerr << "softcert: error: no command given\n\n" << app.help();
    return 2;
  }
  return exit_status;
}
