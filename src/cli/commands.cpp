#include "cli/commands.hpp"

namespace softcert::cli {

void add_list_command(CLI::App& app, int& exit_status);
void add_check_command(CLI::App& app, int& exit_status);
void add_suite_command(CLI::App& app, int& exit_status);
void add_merge_command(CLI::App& app, int& exit_status);
void add_replay_command(CLI::App& app, int& exit_status);
void add_integrate_command(CLI::App& app, int& exit_status);
void add_search_command(CLI::App& app, int& exit_status);
void add_reproduce_command(CLI::App& app, int& exit_status);
void add_claims_command(CLI::App& app, int& exit_status);
void add_diff_command(CLI::App& app, int& exit_status);

void add_commands(CLI::App& app, int& exit_status) {
  add_list_command(app, exit_status);
  add_check_command(app, exit_status);
  add_suite_command(app, exit_status);
  add_merge_command(app, exit_status);
  add_replay_command(app, exit_status);
  add_integrate_command(app, exit_status);
  add_search_command(app, exit_status);
  add_reproduce_command(app, exit_status);
  add_claims_command(app, exit_status);
  add_diff_command(app, exit_status);
}

}  // namespace softcert::cli
