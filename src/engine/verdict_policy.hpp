#pragma once
// The verdict policy of docs/verdicts.md, in one place. A check states its instance, its
// hypotheses and its margin (the quantity whose sign decides the claim, positive = holds); what
// an enclosure of that margin means, what a rigorous run that could not finish means, and when
// two fast runs count as `confirmed` is decided here and nowhere else:
//   - the hypothesis rule: an instance that fails a hypothesis the run assumes is `inconclusive`,
//     the failed hypothesis named, and the check does not run (run_check);
//   - the interval kind a precision runs at (with_interval_kind);
//   - the rigorous rule: proved / violated only by the certain sign of an enclosure
//     (decide_by_margin), the margin kept as an enclosure with binary ends (engine::Margin,
//     set_margin) and printed outward only where it is written;
//   - the fast tier's one rule for `confirmed` (decide_fast), and its re-certification of a
//     violation by the rigorous tier;
//   - a rigorous run that stops (support::RigorousFailure, support::ValidationFailure)
//     becomes `inconclusive` with its message as the reason, and a `proved` whose margin does not
//     back the claim becomes `inconclusive` (run_check).
#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/check.hpp"
#include "support/failures.hpp"
#include "numerics/decimal.hpp"
#include "numerics/kinds.hpp"
#include "numerics/precision.hpp"
#include "numerics/traits.hpp"

namespace softcert::engine {

// Calls use(S{}, bits) with S = IntervalD when bits ≤ 53 and S = IntervalMp at `bits` otherwise
// (the MPFR precision is set for the duration of the call), passing the precision in use.
template <class Use>
auto with_interval_kind(unsigned bits, Use&& use) {
  if (bits <= 53) return use(IntervalD(0), 53u);
  num::PrecisionGuard guard(bits);
  return use(IntervalMp(0), num::precision_bits());
}

// The result's margin from an enclosure of it: its ends as computed (double or MPFR at the
// working precision), written outward only in the records and the CLI (engine::Margin). `digits`:
// significant digits of the written ends (17 for IntervalD; for IntervalMp 0 = enough for the
// precision).
inline void set_margin(CheckResult& r, const IntervalD& margin, int digits = 17) { r.margin = Margin(margin, digits); }
inline void set_margin(CheckResult& r, const IntervalMp& margin, int digits = 0) { r.margin = Margin(margin, digits); }

// A margin known only from below (a minimum over a tube whose upper end is not tracked): the
// upper end is +inf (written "inf").
template <class S>
void set_margin_lower_bound(CheckResult& r, const S& lower_bound) {
  r.margin = Margin::at_least(lower_bound);
}

// What the margin's sign means, in words a person reads.
struct MarginReasons {
  std::string holds;      // the enclosure is certainly > 0
  std::string fails;      // certainly < 0
  std::string undecided;  // it contains 0
};

// The rigorous rule on a margin already in r: proved when it is certainly positive, violated
// when certainly negative (a certified counterexample: the instance and this margin replay it),
// inconclusive otherwise (it contains 0, or there is none). Decided on the margin's binary ends
// (Margin::certain_sign), never on its text.
void decide_by_margin(CheckResult& r, const MarginReasons& why);

// The rigorous rule from an enclosure of the margin: sets it (set_margin) and decides as above.
template <class S>
void decide_by_margin(CheckResult& r, const S& margin, const MarginReasons& why) {
  set_margin(r, margin);
  decide_by_margin(r, why);
}

// The margin of a claim known exactly (a rational), printed as the outward decimal pair around
// it (17 significant digits: lower ≤ m ≤ upper; exactly "0" for 0).
void set_exact_margin(CheckResult& r, const Rational& m);

// The exact rule: a margin known exactly (a rational). The margin is printed as the outward
// decimal pair around it (17 significant digits: lower ≤ m ≤ upper); proved when m > 0,
// violated when m < 0 (the instance is the certified counterexample), inconclusive when m = 0.
void decide_by_exact_margin(CheckResult& r, const Rational& m, const MarginReasons& why);

// The exact rule for a sign decided exactly without a printed margin (or with one the caller
// set): proved when sign > 0, violated when sign < 0, inconclusive when 0.
void decide_by_exact_sign(CheckResult& r, int sign, const MarginReasons& why);

// What a check's certificates established, for a claim decided by certificates rather than by
// the sign of one margin (an exact witness, a re-verified dual certificate, a certified region).
enum class Certified {
  nothing,         // neither the claim nor a counterexample was certified
  claim,           // a certificate of the claim verified
  counterexample,  // a certificate of a counterexample verified
};
// proved / violated / inconclusive from what was certified, with the matching reason. The
// caller sets the margin, if the claim has one; run_check enforces that a proved margin backs it.
void decide_by_certificate(CheckResult& r, Certified what, const MarginReasons& why);

// Not decided, and why (the verdict `inconclusive`; a margin set so far stays: an enclosure
// that straddles 0 is what a reader wants to see).
void undecided(CheckResult& r, const std::string& why);

// The check could not run on this instance (a degenerate case it does not cover): `error`.
void check_error(CheckResult& r, const std::string& why);

// Two certified facts of one run contradict each other (a certificate the check re-verified
// fails on a sample): `error`, an internal failure of the check, never a verdict on the claim.
void internal_contradiction(CheckResult& r, const std::string& what);

// Runs body(r), a rigorous decision that fills r, and turns a rigorous run that stops
// (RigorousFailure, ValidationFailure) into `inconclusive`: the margin is dropped, what r holds
// (details, precision) is kept, and the reason is "<stage>: the rigorous tier stopped: <why>",
// where <stage> is what body last put in r.reason to say what it was running (may be empty).
template <class Body>
CheckResult rigorous_run(CheckResult r, Body&& body) {
  auto stopped = [&r](const char* why) {
    r.verdict = Verdict::inconclusive;
    r.margin = Margin();
    r.reason = (r.reason.empty() ? std::string() : r.reason + ": ") + "the rigorous tier stopped: " + why;
  };
  try {
    body(r);
  } catch (const support::RigorousFailure& e) {
    stopped(e.what());
  } catch (const support::ValidationFailure& e) {
    stopped(e.what());
  }
  return r;
}

// One fast-tier run's estimate of the margin (no guarantee).
struct FastRun {
  double margin = NAN;
  unsigned bits = 53;    // the working precision of the run
  std::string failure;   // non-empty: the run did not produce the margin (budget, stiffness, ...)
};

// The fast tier's one rule. Two runs, at p and at (at least) 2p bits:
//   - confirmed when both margins are > 0 (≥ 0 for a non-strict claim, Check::strict_margin) and
//     they agree to the digits the sign needs: |m_p − m_2p| ≤ ½·min(|m_p|, |m_2p|), or equal;
//   - when both are < 0, `recertify` (the rigorous tier) is asked; only its `violated` is
//     returned (a fast-tier violation is never reported without a certificate);
//   - inconclusive otherwise (a run failed, the runs disagree, or the rigorous tier did not
//     certify the violation), with the reason.
// The margin printed is the hull of both estimates, rounded outward, and details say it is an
// estimate. `holds` is the reason for confirmed; `what` names the margin in the other reasons.
CheckResult decide_fast(const FastRun& p, const FastRun& p2, const std::string& holds, const std::string& what,
                        const std::function<CheckResult()>& recertify, bool strict = true);

// The agreement test of decide_fast: both of the same strict sign and within half the smaller
// magnitude of each other, or equal (both +inf for a vacuous claim; both exactly 0 only for a
// non-strict claim).
bool fast_runs_agree(double m_p, double m_2p, bool strict = true);

// The hypothesis rule, for every check alike: the first hypothesis the check assumes (declared,
// not in `dropped`) that fails on `instance` (Check::failed_hypothesis); nullopt when none
// fails, none is decided, or the instance is too malformed to decide them (the check's run then
// refuses it, naming the field).
std::optional<HypothesisFailure> failed_hypothesis(const Check& check, const nlohmann::json& instance,
                                                   const std::set<std::string>& dropped);
// "hypothesis NAME fails on this instance: DETAIL" (without ": DETAIL" when there is none).
std::string hypothesis_failure_reason(const HypothesisFailure& failure);

// Runs check.run(instance, options) under the policy. First the hypothesis rule: when a
// hypothesis the run assumes (declared, not in options.dropped) fails on the instance, the
// result is `inconclusive` with reason hypothesis_failure_reason, details.failed_hypothesis,
// and the check is not run (an instance outside the claim is neither a counterexample nor a
// vacuous proof). Then: a rigorous run that stops
// (RigorousFailure, ValidationFailure) gives `inconclusive` with its message; a `proved` whose
// margin does not back the claim is turned into `inconclusive` (enforce_margin_contract).
// std::invalid_argument (bad input) and other exceptions propagate to the caller.
CheckResult run_check(const Check& check, const nlohmann::json& instance, const CheckOptions& options);

}  // namespace softcert::engine
