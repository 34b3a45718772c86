// softcert search NAME [--drop HYPOTHESIS]... [--budget SECONDS] [--seed S] [--out FILE] ...:
// hunt for a counterexample with hypotheses dropped, shrink it, certify it (docs/search.md).
// Exit 0: a counterexample found and certified; 1: none found (the report says how many
// instances were tried and the smallest margin seen); 2: bad usage.
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <limits>
#include <memory>
#include <set>
#include <sstream>

#include "cli/commands.hpp"
#include "numerics/quote.hpp"
#include "cli/run_options.hpp"
#include "engine/journal.hpp"
#include "engine/registry.hpp"
#include "search/search.hpp"
#include "search/search_record.hpp"

namespace softcert::cli {

namespace {

struct SearchArgs {
  std::string name, out;
  std::vector<std::string> drops, params;
  double budget = 60, horizon = 0;
  std::uint64_t seed = 1;
  std::size_t max_samples = 0;
  unsigned precision = 0;
  bool quiet = false;
};

std::string fixed(double x, int decimals) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(decimals) << x;
  return s.str();
}

std::string margin_text(double m) { return std::isfinite(m) ? nlohmann::json(m).dump() : (m > 0 ? "+inf" : "-inf"); }

// "T 5 -> 2, d 4 -> 1, 25 -> 6 significant digits, horizon 10 -> 0.01"
std::string shrink_text(const nlohmann::json& a, const nlohmann::json& b) {
  std::string s;
  auto add = [&s](const std::string& part) { s += (s.empty() ? "" : ", ") + part; };
  auto str = [](const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); };
  for (const char* k : {"T", "d"})
    if (a.contains(k) && b.contains(k)) add(std::string(k) + " " + str(a[k]) + " -> " + str(b[k]));
  add(str(a["significant_digits"]) + " -> " + str(b["significant_digits"]) + " significant digits");
  if (!a["horizon"].is_null()) add("horizon " + str(a["horizon"]) + " -> " + str(b["horizon"]));
  return s;
}

// Progress on stderr: events at once, otherwise one line per 2 s.
class ProgressLines {
 public:
  explicit ProgressLines(bool enabled) : enabled_(enabled), last_(std::chrono::steady_clock::now()) {}
  void operator()(const search::SearchProgress& p) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (p.event.empty() && now - last_ < std::chrono::seconds(2)) return;
    last_ = now;
    if (!p.event.empty()) {
      std::cerr << "search: " << fixed(p.seconds, 1) << " s: " << p.event << "\n";
      return;
    }
    std::cerr << "search: " << fixed(p.seconds, 1) << " s, " << p.samples << " samples + " << p.local_evaluations
              << " by local optimisation, smallest margin " << margin_text(p.min_margin) << "\n";
  }

 private:
  bool enabled_;
  std::chrono::steady_clock::time_point last_;
};

void print_outcome(const std::string& name, const std::set<std::string>& dropped, const search::SearchOutcome& o) {
  const std::size_t tried = o.samples + o.local_evaluations;
  const std::string counts = std::to_string(tried) + " instances (" + std::to_string(o.samples) + " samples, " +
                             std::to_string(o.local_evaluations) + " by local optimisation) in " + fixed(o.seconds, 1) + " s";
  if (o.found) {
    const auto& r = o.counterexample.result;
    std::cout << name << ": counterexample found at " << o.found_where << " after " << counts << "\n"
              << "  shrunk in " << o.shrink_steps << " steps (" << o.shrink_evaluations << " candidates tried"
              << (o.shrink_cut_short ? ", cut short by the budget" : "") << "): " << shrink_text(o.size_found, o.size_shrunk)
              << "\n  certified (rigorous, as replay runs it): " << engine::to_string(r.verdict) << ", margin ["
              << r.margin.lower_text() << ", " << r.margin.upper_text() << "]\n  " << r.reason << "\n  counterexample: "
              << o.counterexample.instance.dump() << "\n";
    if (o.counterexample.horizon) std::cout << "  horizon: " << nlohmann::json(*o.counterexample.horizon).dump() << "\n";
    if (!dropped.empty()) {
      std::string broken;
      for (const auto& h : o.broken_hypotheses) broken += (broken.empty() ? "" : ", ") + h;
      std::cout << "  breaks: " << (broken.empty() ? "none of the dropped hypotheses (as decided on the instance)" : broken) << "\n";
    }
    return;
  }
  std::cout << name << ": no counterexample found in " << counts << " ("
            << (o.budget_exhausted ? "budget exhausted" : o.sample_cap_reached ? "--max-samples reached" : "stopped") << ")\n";
  if (o.closest)
    std::cout << "  smallest margin " << margin_text(o.closest->margin) << " at " << o.closest->where << ": "
              << engine::to_string(o.closest->result.verdict) << " in the " << engine::to_string(o.closest->tier)
              << " tier, margin [" << o.closest->result.margin.lower_text() << ", " << o.closest->result.margin.upper_text() << "]\n";
  else
    std::cout << "  no instance was decided, so there is no smallest margin\n";
  if (o.candidates_not_certified)
    std::cout << "  " << o.candidates_not_certified << " search-tier candidates were not confirmed by the rigorous tier\n";
}

}  // namespace

void add_search_command(CLI::App& app, int& exit_status) {
  auto args = std::make_shared<SearchArgs>();
  auto* cmd = app.add_subcommand("search", "search for a certified counterexample with hypotheses dropped (exit 0 iff found)");
  cmd->add_option("name", args->name, "check name (softcert list)")->required();
  cmd->add_option("--drop", args->drops, "drop a hypothesis (softcert list names them); repeatable");
  cmd->add_option("--budget", args->budget, "seconds for sampling, optimisation and shrinking (default 60)");
  cmd->add_option("--seed", args->seed, "seed of the search (default 1)")
      ->transform(integer_in(0, std::numeric_limits<std::uint64_t>::max()));
  cmd->add_option("--out", args->out, "write the counterexample (or the negative report) here, as JSON")->check(nonempty_path());
  cmd->add_option("--max-samples", args->max_samples, "stop after this many generator samples (default: no cap)")
      ->transform(integer_in(1, std::numeric_limits<std::uint64_t>::max()))
      ->default_str("no cap");
  auto* horizon = cmd->add_option("--horizon", args->horizon,
                                  "time horizon of the claim (default: the check's; 10 in a rigorous search tier)")
                      ->default_str("the check's");
  cmd->add_option("--precision", args->precision, "working precision in bits (53 to 65536)")
      ->transform(integer_in(53, 65536))
      ->default_str("the check's");
  cmd->add_option("--param", args->params, "check parameter key=value (JSON value); repeatable");
  cmd->add_flag("--quiet,-q", args->quiet, "no progress lines on stderr");
  cmd->callback([args, horizon, &exit_status]() {
    const engine::Check* check = engine::CheckRegistry::global().find(args->name);
    if (!check) throw UsageError(engine::CheckRegistry::global().unknown(args->name) + " (softcert list shows them)");
    search::SearchSettings s;
    for (const auto& d : args->drops) {
      if (const std::string p = engine::unknown_hypothesis_problem(*check, d); !p.empty()) throw UsageError("--drop: " + p);
      s.evaluator.dropped.insert(d);
    }
    if (!(args->budget > 0) || !std::isfinite(args->budget)) throw UsageError("--budget must be a positive number of seconds");
    if (horizon->count() > 0) check_horizon(args->horizon);
    if (!args->out.empty()) {
      const std::filesystem::path out(args->out);
      const auto dir = out.has_parent_path() ? out.parent_path() : std::filesystem::path(".");
      if (!std::filesystem::is_directory(dir)) throw UsageError("--out: no directory " + dir.string());
      if (std::filesystem::is_directory(out)) throw UsageError("--out: " + args->out + " is a directory");
    }
    s.seed = args->seed;
    s.budget_seconds = args->budget;
    s.max_samples = args->max_samples;
    if (horizon->count() > 0) s.evaluator.horizon = args->horizon;
    s.evaluator.precision_bits = args->precision;
    for (const auto& p : args->params) add_param(s.evaluator.params, p);
    if (const std::string p = engine::unknown_param_problem(*check, s.evaluator.params); !p.empty())
      throw UsageError("--param: " + p);

    if (!args->quiet) {
      std::string dropped;
      for (const auto& d : s.evaluator.dropped) dropped += (dropped.empty() ? "" : ", ") + d;
      std::cerr << "search: " << args->name << ", dropped: " << (dropped.empty() ? "none" : dropped) << ", seed "
                << s.seed << ", budget " << s.budget_seconds << " s\n";
    }
    ProgressLines lines(!args->quiet);
    search::SearchOutcome o;
    try {
      o = search::run_search(*check, s, [&lines](const search::SearchProgress& p) { lines(p); });
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    print_outcome(args->name, s.evaluator.dropped, o);
    if (!args->out.empty()) {
      engine::write_file_atomically(args->out, search::search_record(*check, s, o).dump(2) + "\n");
      std::cout << "  saved to " << args->out << (o.found ? " (softcert replay " + args->out + " re-verifies it)" : "") << "\n";
    }
    exit_status = o.found ? 0 : 1;
  });
}

}  // namespace softcert::cli
