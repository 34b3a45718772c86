// softcert integrate INSTANCE.json --t END [--tier fast|rigorous] [--precision BITS]
//                   [--stepper dopri5|rkf78|bs|taylor] [--tail auto|off] [--tail-width W]
//                   [--set lohner|ball] [--ball-pieces K] [--json OUT]
// Integrates an instance's gradient flow to t = END and prints (and writes, docs/fast_tier.md format)
// a, u, σ(a), the loss (and V for the full model).
//   fast tier: Boost.Odeint at BITS (53: double), again at 2·BITS, digits of agreement reported.
//   rigorous tier: validated Taylor–Lohner, [lower, upper] pairs — the reduced logistic form
//   (integrate::rigorous_integrate) for logistic + softmax, else the full state of any model
//   (integrate::rigorous_integrate_model: every loss; softmax, x², sum, sigmoid; the tied model).
//   Square and regression loss: once the flow has settled the run ends with the PL tail (integrate/pl_tail.hpp),
//   which bounds x(t) for every later t at once; --tail off steps to END instead; --tail-width W
//   also ends it as soon as that enclosure is at most W wide. --set ball (t-time full-state runs)
//   carries a Euclidean ball by the logarithmic norm instead of the Lohner set (docs/method.md §2b).
// Exit: 0 done; 2 bad usage or input, or --json cannot be written (nothing written); 3 the
// rigorous tier could not validate, or the fast tier overflowed (nothing written) — except for
// an |x| or relu normalization stopped before its kink (integrate/kink_report.hpp): stderr says
// "kink possible at t ∈ [..]" and --json gets {"t", "tier", "reached": false, "kink": {...}}.
#include <chrono>
#include <cmath>
#include <iomanip>
#include <optional>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/run_options.hpp"
#include "engine/check.hpp"
#include "engine/journal.hpp"
#include "instances/formula.hpp"
#include "instances/instance.hpp"
#include "integrate/derived_enclosures.hpp"
#include "integrate/fast_integrate.hpp"
#include "integrate/kink_report.hpp"
#include "integrate/rigorous_integrate.hpp"
#include "integrate/rigorous_model.hpp"
#include "integrate/run_knobs.hpp"
#include "integrate/run_plan.hpp"
#include "numerics/decimal.hpp"
#include "numerics/quote.hpp"

namespace softcert::cli {
namespace {

using engine::kMaxRigorousPrecision;  // engine/check.hpp: the same cap for check and suites

struct IntegrateArgs {
  std::string instance, t, tier = "fast", stepper = "auto", json_out, form = "full", time = "auto", tail = "auto",
              set = "auto";
  unsigned precision = 53;
  unsigned ball_pieces = 0;  // 0: the plan's (integrate/run_plan.hpp)
  std::optional<double> tolerance;  // empty: the default
  double tail_width = 0;  // 0: not used
  bool no_check = false;
  // time, set and tail as the plan's values (integrate/run_knobs.hpp), read once by the callback
  std::optional<integrate::PlanTime> plan_time;
  std::optional<integrate::PlanStepper> plan_set;
  integrate::TailPolicy plan_tail = integrate::TailPolicy::automatic;
};

void print_list(const char* name, const std::vector<std::string>& v) {
  std::cout << "  " << std::left << std::setw(8) << name << "[";
  for (std::size_t i = 0; i < v.size(); ++i) std::cout << (i ? ", " : "") << v[i];
  std::cout << "]\n";
}

nlohmann::json run_fast(const IntegrateArgs& args, const instances::Instance& inst) {
  integrate::FastOptions o;
  o.form = models::parse_form(args.form);
  o.time = args.plan_time;
  o.stepper = integrate::parse_stepper(args.stepper);
  o.precision_bits = args.precision;
  o.tolerance = args.tolerance;
  o.escalate = !args.no_check;
  const integrate::FastReport rep = integrate::integrate_fast(inst, args.t, o);
  const auto& r = rep.run;
  const integrate::FastDecimals d = integrate::decimals(r);
  std::cout << "tier fast, form " << r.form << ", stepper " << r.stepper << ", precision " << r.precision_bits
            << " bits, tolerance " << r.tolerance << "\n";
  std::cout << "t = " << r.t;
  if (!d.tau.empty()) std::cout << " (τ = " << d.tau << ")";
  std::cout << ", " << r.steps << " steps (" << r.rejected_steps << " rejected), " << r.seconds << " s\n";
  if (rep.reference)
    std::cout << "digits of agreement with a " << rep.reference->precision_bits << "-bit " << rep.reference->stepper
              << " run: " << *rep.digits << " (reference: " << rep.reference->steps << " steps, "
              << rep.reference->seconds << " s)\n";
  print_list("a", d.a);
  if (!d.u.empty()) print_list("u", d.u);
  print_list("softmax", d.alpha);
  std::cout << "  loss    " << d.loss << "\n";
  for (std::size_t i = 0; i < d.V.size(); ++i) print_list(i == 0 ? "V" : "", d.V[i]);
  nlohmann::json j = integrate::to_json(rep);
  // Point values of the derived quantities (integrate/derived_enclosures.hpp; no guarantee).
  j["derived"] = integrate::to_json(integrate::derive_points(r.values.a, r.values.alpha, r.values.loss));
  return j;
}

nlohmann::json run_rigorous(const IntegrateArgs& args, const instances::Instance& inst) {
  integrate::RigorousIntegrateOptions o;
  o.precision_bits = args.precision;
  o.time_variable = args.plan_time;
  o.tail = args.plan_tail;
  o.tail_width = args.tail_width;
  o.set = args.plan_set;
  o.ball_pieces = args.ball_pieces;
  const auto start = std::chrono::steady_clock::now();
  // Progress on stderr for long runs (the authors' regression and tied instances take minutes):
  // a line after 10 s and then every 30 s; stdout and --json are unaffected.
  auto next_report = start + std::chrono::seconds(10);
  o.progress = [&start, &next_report, &args](std::size_t steps, double t) {
    const auto now = std::chrono::steady_clock::now();
    if (now < next_report) return;
    next_report = now + std::chrono::seconds(30);
    const double s = std::chrono::duration<double>(now - start).count();
    std::ostringstream line;
    line << "softcert integrate: rigorous tier, " << steps << " validated steps, t ≈ " << std::setprecision(6) << t
         << " of " << args.t << " (" << std::setprecision(3) << s << " s)\n";
    std::cerr << line.str() << std::flush;
  };
  // What the run does (form, time, stepper, tail) is integrate::plan_run's, asked once by the run;
  // what it refuses is said here as the option's name.
  const integrate::RigorousIntegrateResult r = [&] {
    try {
      return integrate::rigorous_integrate_planned(inst, args.t, o);
    } catch (const integrate::PlanRefusal& e) {
      using F = integrate::PlanRefusal::Field;
      const char* option = e.field() == F::set           ? "--set"
                           : e.field() == F::ball_pieces ? "--ball-pieces"
                           : e.field() == F::time        ? "--time"
                           : e.field() == F::tail_width  ? "--tail-width"
                                                         : nullptr;
      if (!option) throw;
      throw std::invalid_argument(std::string(option) + ": " + e.why());
    }
  }();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "tier rigorous, time variable " << integrate::to_string(r.time_variable) << ", order " << r.order << ", precision "
            << r.precision_bits << " bits";
  // MPFR precisions are set in whole decimal digits (numerics/precision.hpp): say when that
  // rounded the request up (256 → 257 bits) rather than print a precision that was not used.
  if (r.precision_bits != std::max(53u, args.precision))
    std::cout << " (" << args.precision << " requested; MPFR's precision is set in whole decimal digits)";
  std::cout << ", set " << integrate::to_string(r.set);
  if (r.set == integrate::PlanStepper::ball && r.ball_pieces == 0) std::cout << " (pieces chosen per step)";
  else if (r.set == integrate::PlanStepper::ball) std::cout << " (" << r.ball_pieces << (r.ball_pieces == 1 ? " piece" : " pieces") << " a step)";
  std::cout << "\n";
  std::cout << "t = " << r.t << ", " << r.steps << " validated steps, " << seconds << " s, largest width "
            << r.max_width << "\n";
  if (r.tail.used) {
    std::cout << "PL tail (integrate/pl_tail.hpp): validated steps to t = " << r.tail.from.upper_text() << " (" << r.tail.steps_to_from
              << " steps), then x(t) within R = " << r.tail.radius << " of that state for every t ≥ it (mu = " << r.tail.mu;
    if (r.tail.regression) std::cout << ", lambda = " << r.tail.lambda;
    std::cout << ")\n";
  } else if (r.tail.attempted) {
    std::cout << "PL tail: not used (END was reached by validated steps first)\n";
  }
  auto pairs = [](const std::vector<integrate::EnclosedValue>& v) {
    std::vector<std::string> out;
    for (const auto& e : v) out.push_back("[" + e.lower_text() + ", " + e.upper_text() + "]");
    return out;
  };
  print_list("a", pairs(r.a));
  if (!r.u.empty()) print_list("u", pairs(r.u));
  print_list("softmax", pairs(r.softmax));
  std::cout << "  loss    [" << r.loss.lower_text() << ", " << r.loss.upper_text() << "]\n";
  for (std::size_t i = 0; i < r.V.size(); ++i) print_list(i == 0 ? "V" : "", pairs(r.V[i]));
  // Derived quantities, enclosed from the state's enclosures (integrate/derived_enclosures.hpp).
  const integrate::DerivedEnclosures dq = integrate::derive_enclosures(r);
  auto bracket = [](const std::optional<integrate::EnclosedValue>& e) {
    return e ? "[" + e->lower_text() + ", " + e->upper_text() + "]" : std::string("-");
  };
  std::cout << "derived (tokens numbered from 0):\n  entropy of the weights " << bracket(dq.entropy)
            << (dq.entropy_note.empty() ? "" : " (" + dq.entropy_note + ")") << "\n  max weight " << bracket(dq.max_weight)
            << ", argmax " << (dq.argmax ? std::to_string(*dq.argmax) : std::string("not certain")) << "\n  score gap (largest − second) "
            << bracket(dq.score_gap) << "\n";
  nlohmann::json j = integrate::to_json(r);
  if (r.precision_bits != std::max(53u, args.precision)) j["precision_requested_bits"] = args.precision;
  j["seconds"] = seconds;
  return j;
}

}  // namespace

void add_integrate_command(CLI::App& app, int& exit_status) {
  auto args = std::make_shared<IntegrateArgs>();
  auto* cmd = app.add_subcommand("integrate", "integrate an instance's gradient flow to t = END (fast or rigorous tier)");
  cmd->add_option("instance", args->instance, "instance file (JSON, docs/instances.md format)")->required();
  cmd->add_option("--t", args->t, "the horizon END > 0 (decimal)")->required();
  cmd->add_option("--tier", args->tier, "fast (Boost.Odeint, two precisions) or rigorous (validated enclosures)")
      ->check(CLI::IsMember({"fast", "rigorous"}));
  cmd->add_option("--precision", args->precision,
                  "bits: 53 (double) to 65536 in the fast tier, 53 to " + std::to_string(kMaxRigorousPrecision) +
                      " in the rigorous tier")
      ->transform(integer_in(53, 65536));
  cmd->add_option("--stepper", args->stepper, "fast tier: dopri5, rkf78, bs, taylor or auto (dopri5 at ≤ 64 bits, else taylor)");
  cmd->add_option("--form", args->form, "fast tier: full (V, a) or reduced ((a, u); rank-one for square loss)");
  cmd->add_option("--time", args->time,
                  "t, tau (dτ = γ dt, t carried as a state; logistic) or auto (τ when END ≥ 100; the rigorous full state of "
                  "logistic loss: always τ; integrate/run_plan.hpp)");
  cmd->add_option("--tolerance", args->tolerance, "fast tier: absolute = relative tolerance (default 2^-(BITS - max(6, BITS/8)))");
  cmd->add_option("--tail", args->tail,
                  "rigorous tier, square and regression loss: auto (end with the PL tail once the flow has settled: far fewer steps at long "
                  "horizons) or off (validated steps to END)");
  cmd->add_option("--tail-width", args->tail_width,
                  "rigorous tier, square and regression loss, --tail auto: also end with the PL tail as soon as its enclosure is at "
                  "most W wide in every component (the width you need, e.g. 1e-7; default 0: only when the flow has settled)");
  cmd->add_option("--set", args->set,
                  "rigorous tier, full-state runs (not |x| or relu in tau-time): auto (default: ball from 200 states on, "
                  "else lohner), lohner (the Taylor-Lohner set) or ball (a ball carried by the logarithmic norm of the "
                  "field: no derivative pass, ~6x cheaper a step on the authors' regression instance; docs/method.md)");
  cmd->add_option("--ball-pieces", args->ball_pieces,
                  "with --set ball: cut each step into K pieces, each with its own bound of the field's logarithmic norm "
                  "(tighter where the flow expands, K times the cost of that bound; default: chosen per step)")
      ->transform(integer_in(1, 64))
      ->default_str("the plan's");
  cmd->add_flag("--no-check", args->no_check, "fast tier: skip the 2·BITS reference run");
  cmd->add_option("--json", args->json_out, "write the result as JSON to this file")->check(nonempty_path());
  cmd->callback([args, &exit_status]() {
    // Everything about the input is checked before anything is computed or written.
    try {
      args->plan_time = integrate::parse_plan_time(args->time, "--time");
      args->plan_set = integrate::parse_plan_set(args->set, "--set");
      args->plan_tail = integrate::parse_tail_policy(args->tail, "--tail");
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    if (args->precision < 53) throw UsageError("--precision: must be ≥ 53 bits, got " + std::to_string(args->precision));
    if (const std::string p = engine::precision_problem(args->tier == "rigorous" ? engine::Tier::rigorous : engine::Tier::fast,
                                                        args->precision);
        !p.empty())
      throw UsageError("--precision: " + p);
    if (!num::is_decimal_syntax(args->t)) throw UsageError("--t: not a decimal number: " + num::quoted(args->t));
    if (!(args->tail_width >= 0) || !std::isfinite(args->tail_width))
      throw UsageError("--tail-width: must be a finite number ≥ 0, got " + std::to_string(args->tail_width));
    if (args->tail_width != 0 && (args->tier != "rigorous" || args->plan_tail == integrate::TailPolicy::off))
      throw UsageError("--tail-width: only with --tier rigorous and --tail auto");
    if (args->plan_set && args->tier != "rigorous") throw UsageError("--set: only with --tier rigorous");
    if (args->ball_pieces != 0 && args->plan_set == integrate::PlanStepper::lohner) throw UsageError("--ball-pieces: only with --set ball");
    if (args->ball_pieces != 0 && args->tier != "rigorous") throw UsageError("--ball-pieces: only with --tier rigorous");
    bool positive = false;
    try {  // (1e400 is decimal syntax but no finite double: a usage error, not an "internal error")
      positive = num::parse_decimal<Real>(args->t) > 0;
    } catch (const std::invalid_argument& e) {
      throw UsageError("--t: must be a positive finite number: " + std::string(e.what()));
    }
    if (!positive) throw UsageError("--t: the horizon must be positive, got " + num::quoted(args->t));
    nlohmann::json result;
    try {
      const instances::Instance inst = instances::load_instance(args->instance);
      if (args->tier == "fast") {
        result = run_fast(*args, inst);
      } else {
        result = run_rigorous(*args, inst);
      }
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();  // (the file readers' messages name the file already)
      throw UsageError(what.find(args->instance) != std::string::npos ? what : args->instance + ": " + what);
    } catch (const integrate::KinkPossible& e) {
      // |x| / relu: no enclosure at END, but a certified kink-free time (integrate/kink_report.hpp),
      // written to --json too (exit 3 all the same: END was not reached).
      std::cerr << "softcert integrate: the rigorous tier stopped before t = " << args->t << ": " << e.what() << "\n";
      if (!args->json_out.empty()) {
        const nlohmann::json j = {{"t", args->t}, {"tier", "rigorous"}, {"reached", false}, {"kink", integrate::to_json(e.info())}};
        engine::write_file_atomically(args->json_out, j.dump(1) + "\n");
      }
      exit_status = 3;
      return;
    } catch (const support::RigorousFailure& e) {
      std::cerr << "softcert integrate: the rigorous tier could not validate: " << e.what() << "\n";
      exit_status = 3;
      return;
    } catch (const integrate::FastOverflow& e) {
      std::cerr << "softcert integrate: " << e.what() << "\n";
      exit_status = 3;
      return;
    } catch (const instances::FormulaDomainError& e) {  // the instance's formula, not a bug
      std::cerr << "softcert integrate: the flow left the domain of the instance's formula before t = " << args->t << ": "
                << e.what() << "\n";
      exit_status = 3;
      return;
    }
    // Atomic and checked: a full disk or a bad path is exit 2 naming the file, never a
    // half-written file (engine/journal.hpp).
    if (!args->json_out.empty()) engine::write_file_atomically(args->json_out, result.dump(1) + "\n");
    exit_status = 0;
  });
}

}  // namespace softcert::cli
