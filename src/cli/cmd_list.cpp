// softcert list [NAME…] [--verbose]: the registered checks. Without --verbose, one aligned line
// per check grouped by paper (name, first clause of the statement); with --verbose or names, each
// check's paper, full statement, hypotheses, parameters and docs page.
#include <algorithm>
#include <iostream>
#include <map>
#include <memory>

#include "cli/commands.hpp"
#include "engine/registry.hpp"

namespace softcert::cli {

namespace {

struct ListArgs {
  std::vector<std::string> names;
  bool verbose = false;
};

void print_verbose(const engine::Check& c) {
  std::cout << c.name() << "\n  paper:     " << c.paper() << "\n  statement: " << c.statement() << "\n";
  if (!c.doc().empty()) std::cout << "  doc:       " << c.doc() << "\n";
  if (!c.hypotheses().empty()) {
    std::cout << "  hypotheses:";
    for (const auto& h : c.hypotheses()) std::cout << " " << h;
    std::cout << "\n";
  }
  if (!c.params().empty()) {
    std::cout << "  params:    ";
    for (const auto& k : c.params()) std::cout << " " << k;
    std::cout << "\n";
  }
  // proved needs a margin lower end > 0, except for non-strict claims (docs/verdicts.md)
  if (!c.strict_margin()) std::cout << "  margin:    >= 0 (non-strict claim)\n";
}

// The statement without its leading [source: …] note, cut to `width` characters (UTF-8 safe).
std::string short_statement(const std::string& statement, std::size_t width) {
  std::string s = statement;
  if (!s.empty() && s[0] == '[') {
    int depth = 0;
    std::size_t i = 0;
    for (; i < s.size(); ++i) {
      depth += s[i] == '[' ? 1 : s[i] == ']' ? -1 : 0;
      if (depth == 0) break;
    }
    s = i + 1 < s.size() ? s.substr(i + 1) : s;
  }
  while (!s.empty() && s.front() == ' ') s.erase(s.begin());
  std::size_t chars = 0, i = 0;
  for (; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && ++chars > width) break;
  }
  return i < s.size() ? s.substr(0, i) + "…" : s;
}

}  // namespace

void add_list_command(CLI::App& app, int& exit_status) {
  auto args = std::make_shared<ListArgs>();
  auto* cmd = app.add_subcommand("list", "list the theorem checks, grouped by paper (--verbose or NAME: statement, "
                                         "hypotheses, params, docs page)");
  cmd->add_option("names", args->names, "show these checks in full");
  cmd->add_flag("--verbose,-v", args->verbose, "every check in full");
  cmd->callback([args, &exit_status]() {
    const auto checks = engine::CheckRegistry::global().all();
    if (checks.empty()) std::cout << "(no checks registered)\n";
    if (!args->names.empty()) {
      for (const auto& n : args->names) {
        const engine::Check* c = engine::CheckRegistry::global().find(n);
        if (!c) throw UsageError(engine::CheckRegistry::global().unknown(n) + " (softcert list shows them)");
        print_verbose(*c);
      }
      exit_status = 0;
      return;
    }
    if (args->verbose) {
      for (const auto* c : checks) print_verbose(*c);
      exit_status = 0;
      return;
    }
    // Grouped by paper (the name's prefix), in registry order within a group.
    std::map<std::string, std::vector<const engine::Check*>> groups;
    std::size_t width = 0;
    for (const auto* c : checks) {
      groups[c->name().substr(0, c->name().find('.'))].push_back(c);
      width = std::max(width, c->name().size());
    }
    for (const auto& [prefix, members] : groups) {
      const std::string paper = members.front()->paper();
      std::cout << paper.substr(0, paper.find(", arXiv") == std::string::npos ? paper.size() : paper.find(", arXiv"))
                << " — " << members.size() << " checks\n";
      for (const auto* c : members)
        std::cout << "  " << c->name() << std::string(width - c->name().size() + 2, ' ')
                  << short_statement(c->statement(), 70) << (c->strict_margin() ? "" : " (margin ≥ 0)") << "\n";
      std::cout << "\n";
    }
    std::cout << "softcert list NAME (or --verbose): paper, full statement, hypotheses, params, docs page.\n";
    exit_status = 0;
  });
}

}  // namespace softcert::cli
