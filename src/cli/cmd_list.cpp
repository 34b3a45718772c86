// softcert list: the registered checks, with their paper, the statement checked and its docs page.
#include <iostream>

#include "cli/commands.hpp"
#include "engine/registry.hpp"

namespace softcert::cli {

void add_list_command(CLI::App& app, int& exit_status) {
  auto* cmd = app.add_subcommand("list", "list the theorem checks: name, paper, statement, docs page");
  cmd->callback([&exit_status]() {
    const auto checks = engine::CheckRegistry::global().all();
    if (checks.empty()) std::cout << "(no checks registered)\n";
    for (const auto* c : checks) {
      std::cout << c->name() << "\n  paper:     " << c->paper() << "\n  statement: " << c->statement() << "\n";
      if (!c->doc().empty()) std::cout << "  doc:       " << c->doc() << "\n";
      if (!c->hypotheses().empty()) {
        std::cout << "  hypotheses:";
        for (const auto& h : c->hypotheses()) std::cout << " " << h;
        std::cout << "\n";
      }
      if (!c->params().empty()) {
        std::cout << "  params:    ";
        for (const auto& k : c->params()) std::cout << " " << k;
        std::cout << "\n";
      }
      // proved needs a margin lower end > 0, except for non-strict claims (docs/verdicts.md)
      if (!c->strict_margin()) std::cout << "  margin:    >= 0 (non-strict claim)\n";
    }
    exit_status = 0;
  });
}

}  // namespace softcert::cli
