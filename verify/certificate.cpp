#include "certificate.hpp"

#include <fstream>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "claim.hpp"
#include "exact_certificate.hpp"
#include "decimal.hpp"
#include "field.hpp"
#include "step.hpp"

namespace verify {

namespace {

std::vector<nlohmann::json> read_lines(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Rejection("cannot read the file");
  std::vector<nlohmann::json> lines;
  std::string text;
  for (std::size_t k = 1; std::getline(in, text); ++k) {
    if (text.empty()) continue;
    try {
      lines.push_back(nlohmann::json::parse(text));
    } catch (const nlohmann::json::exception&) {
      throw Rejection("line " + std::to_string(k) + " is not JSON");
    }
  }
  return lines;
}

FileVerdict check(const std::vector<nlohmann::json>& lines) {
  if (!lines.empty() && lines[0].value("certificate", "") == "softcert.exact.v1") return check_exact(lines);
  if (lines.size() < 3) throw Rejection("a certificate needs a header, a start set and at least one step");
  const nlohmann::json& head = lines[0];
  if (head.value("certificate", "") != "softcert.flow.v1" || head.value("model", "") != "logistic_reduced_tau" ||
      head.value("set", "") != "lohner")
    throw Rejection("header: not a softcert.flow.v1 certificate of the reduced logistic τ-time model with Lohner sets");
  if (head.value("check", "") != "varre2026.order_preservation")
    throw Rejection("header: the check " + head.value("check", std::string("?")) + " has no claim this verifier knows");
  const Field f = field_from_instance(head.at("instance"));
  const slong n = f.n(), ti = 2 * f.T;
  const Ball horizon = parse_number(head.at("horizon"));
  OrderPreservation claim(f, head.at("claim"));
  // The margin must be a positive lower bound: it is what the record calls proved.
  const nlohmann::json& m = head.at("margin");
  if (!m.is_array() || m.size() != 2 || !parse_number(m[0]).positive())
    throw Rejection("header: the margin " + m.dump() + " is not positive, so it does not back proved");
  const Ball margin = parse_number(m[0]);
  // (d) the start set holds the instance's initial state (a(0), Vᵀβ*, t = 0)
  if (!lines[1].contains("start")) throw Rejection("line 2: no start set");
  LohnerSet set = parse_set(lines[1].at("start"), n);
  std::string why;
  if (!set.contains(f.x0, why)) throw Rejection("(d) the start set does not contain the instance's initial state: " + why);
  std::optional<Ball> t_prev;
  std::optional<Step> last;
  for (std::size_t k = 2; k < lines.size(); ++k) {
    Step st = parse_step(lines[k], n);
    const std::string name = "step " + std::to_string(st.index);
    if (st.index != static_cast<slong>(k - 2)) throw Rejection(name + ": out of sequence (expected step " + std::to_string(k - 2) + ")");
    if (t_prev ? !arb_equal(t_prev->get(), st.t0.get()) : !arb_is_zero(st.t0.get()))
      throw Rejection(name + ": (d) t0 is not where the previous step ended");
    if (!st.end && k + 1 < lines.size()) throw Rejection(name + ": (c) only the last step may omit its end set");
    const StepFacts facts = check_step(f, set, st);
    claim.visit(st, facts);
    if (st.end) set = *st.end;
    t_prev = st.t1;
    last = std::move(st);
  }
  // (d) the last step ends past the horizon: t ≥ H on its end box
  if (!(last->box[ti].lo - horizon).nonnegative())
    throw Rejection("step " + std::to_string(last->index) + ": (d) the last box has t ≥ " + last->box[ti].lo.text() +
                    ", not past the horizon " + horizon.text());
  // (e) the margin's sign: every pair's gap u_i − u_j is positive on the last box too
  for (slong i = 0; i < f.T; ++i)
    for (slong j = 0; j < f.T; ++j)
      if (i != j && (f.x0[f.T + i] - f.x0[f.T + j]).positive() &&
          !(last->box[f.T + i].lo - last->box[f.T + j].hi).positive())
        throw Rejection("step " + std::to_string(last->index) + ": (e) the last box does not show u_" + std::to_string(i) +
                        " > u_" + std::to_string(j));
  FileVerdict v;
  v.verified = true;
  v.message = std::to_string(lines.size() - 2) + " steps, " + std::to_string(claim.pairs()) +
              " pairs ordered on [0, H = " + horizon.text(6) + "]; min u_i − u_j ≥ " + claim.margin_lower().text(17) +
              " (certificate's margin ≥ " + margin.text(17) + ")";
  return v;
}

}  // namespace

FileVerdict verify_file(const std::string& path) {
  try {
    return check(read_lines(path));
  } catch (const Rejection& e) {
    return {false, e.what()};
  } catch (const std::exception& e) {  // a malformed certificate is rejected, never verified
    return {false, std::string("malformed: ") + e.what()};
  }
}

}  // namespace verify
