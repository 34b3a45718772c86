#include "numerics/strict_json.hpp"
#include "instances/instance.hpp"
#include "instances/formula.hpp"

#include "support/input_file.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "numerics/decimal.hpp"
#include "numerics/kinds.hpp"
#include "numerics/nearest_word.hpp"
#include "numerics/quote.hpp"
#include "numerics/traits.hpp"

namespace softcert::instances {
namespace {

[[noreturn]] void fail(const std::string& field, const std::string& what) {
  throw std::invalid_argument(field + ": " + what);
}

const nlohmann::json& require(const nlohmann::json& j, const std::string& field) {
  const auto it = j.find(field);
  if (it == j.end()) fail(field, "missing field");
  return *it;
}

// A decimal string that is a finite double (so that every kind, including Real, can use it).
std::string decimal_at(const nlohmann::json& v, const std::string& field) {
  if (!v.is_string()) {
    // The usual slip: a JSON number where the exact decimal string is required.
    const std::string hint = v.is_number() ? " " + v.dump() + " (write it in quotes, \"" + v.dump() +
                                                 "\": a JSON number is rounded before softcert reads it; "
                                                 "proofs_checks/instances/authors/headline.json is a template)"
                                           : "";
    fail(field, "expected a decimal string, got " + std::string(v.type_name()) + hint);
  }
  const std::string text = v.get<std::string>();
  if (!num::is_decimal_syntax(text)) fail(field, "not a decimal number: " + num::quoted(text));
  try {
    (void)num::parse_decimal<Real>(text);
  } catch (const std::invalid_argument&) {
    fail(field, "not a finite number: " + num::quoted(text));
  }
  return text;
}

DecimalVector vector_at(const nlohmann::json& v, const std::string& field, std::size_t expected) {
  if (!v.is_array()) fail(field, "expected an array of decimal strings");
  if (v.size() != expected)
    fail(field, "expected " + std::to_string(expected) + " entries, got " + std::to_string(v.size()));
  DecimalVector out;
  out.reserve(expected);
  for (std::size_t i = 0; i < v.size(); ++i) out.push_back(decimal_at(v[i], field + "[" + std::to_string(i) + "]"));
  return out;
}

// rows == 0 means "any number ≥ 1 of rows".
DecimalMatrix matrix_at(const nlohmann::json& v, const std::string& field, std::size_t rows, std::size_t cols) {
  if (!v.is_array()) fail(field, "expected an array of rows");
  if (rows != 0 && v.size() != rows)
    fail(field, "expected " + std::to_string(rows) + " rows, got " + std::to_string(v.size()));
  if (v.empty()) fail(field, "expected at least one row");
  DecimalMatrix out;
  for (std::size_t i = 0; i < v.size(); ++i) out.push_back(vector_at(v[i], field + "[" + std::to_string(i) + "]", cols));
  return out;
}

std::size_t positive_size(const nlohmann::json& v, const std::string& field) {
  long long n = 0;
  if (v.is_number_integer()) {
    n = v.get<long long>();
  } else if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
      fail(field, "expected a positive integer, got " + num::quoted(s));
    n = std::stoll(s);
  } else {
    fail(field, "expected a positive integer");
  }
  if (n <= 0) fail(field, "must be a positive integer, got " + std::to_string(n));
  if (n > 100000) fail(field, "too large: " + std::to_string(n));
  return static_cast<std::size_t>(n);
}

std::string string_at(const nlohmann::json& j, const std::string& field) {
  const auto& v = require(j, field);
  if (!v.is_string()) fail(field, "expected a string");
  return v.get<std::string>();
}

// Exact sign tests on validated decimal text (no parsing into a number needed): a decimal is
// zero iff every mantissa digit is 0.
bool is_zero_decimal(const std::string& s) {
  for (char ch : s) {
    if (ch == 'e' || ch == 'E') break;
    if (ch >= '1' && ch <= '9') return false;
  }
  return true;
}
bool is_negative_decimal(const std::string& s) { return !s.empty() && s[0] == '-' && !is_zero_decimal(s); }

bool all_zero(const DecimalVector& v) {
  for (const auto& s : v)
    if (!is_zero_decimal(s)) return false;
  return true;
}

// The weights α = f(a)/Σ_j f(a_j) of a normalization with a denominator need Σ_j f(a_j(0)) ≠ 0:
// otherwise α(0) is 0/0 and no tier can start. "" when the start is regular (softmax and
// elementwise sigmoid always are), else why not, for the field "a". Decided exactly: square and
// abs vanish only at a = 0, relu when every a_j ≤ 0, sum on the rational Σ a_j.
std::string singular_start(Normalization n, const DecimalVector& a) {
  const auto zero_sum = [&] {
    Rational s = 0;
    for (const auto& x : a) s += num::parse_decimal<Rational>(x);
    return s == 0;
  };
  const auto none_positive = [&] {
    for (const auto& x : a)
      if (!is_zero_decimal(x) && !is_negative_decimal(x)) return false;
    return true;
  };
  const char* f = nullptr;
  switch (n) {
    case Normalization::softmax:
    case Normalization::sigmoid:
    case Normalization::formula: return "";  // decided by formula_singular_start
    case Normalization::square: f = all_zero(a) ? "sum_j a_j(0)^2 = 0 (every a_j(0) is 0)" : nullptr; break;
    case Normalization::abs: f = all_zero(a) ? "sum_j |a_j(0)| = 0 (every a_j(0) is 0)" : nullptr; break;
    case Normalization::relu: f = none_positive() ? "sum_j max(a_j(0), 0) = 0 (no a_j(0) is positive)" : nullptr; break;
    case Normalization::sum: f = zero_sum() ? "sum_j a_j(0) = 0" : nullptr; break;
  }
  if (!f) return "";
  return std::string("normalization \"") + to_string(n) + "\" divides by " + f +
         ": the weights alpha(0) = f(a)/sum_j f(a_j) are 0/0 at the start (give a(0) with a nonzero denominator)";
}

// The "loss_formula" / "normalization_formula" fields: present exactly when the loss /
// normalization is "formula", a string, and a formula of the grammar over its variables; a loss
// formula uses z (a margin loss) or beta and target (a coordinate-wise loss), never both.
void read_formulas(const nlohmann::json& j, Instance& inst) {
  const auto text = [&](const char* field, bool wanted, const char* key, const char* name) {
    if (!j.contains(field)) {
      if (wanted) fail(field, std::string("required when ") + key + " is \"formula\"");
      return std::string();
    }
    if (!wanted) fail(field, std::string("only for ") + key + " \"formula\" (" + key + " is " + num::quoted(name) + ")");
    if (!j[field].is_string()) fail(field, "expected a string");
    return j[field].get<std::string>();
  };
  inst.loss_formula = text("loss_formula", inst.loss == Loss::formula, "loss", to_string(inst.loss));
  inst.normalization_formula =
      text("normalization_formula", inst.normalization == Normalization::formula, "normalization", to_string(inst.normalization));
  if (inst.loss == Loss::formula) {
    const Formula f = Formula::parse(inst.loss_formula, loss_formula_variables(), "loss_formula");
    const bool margin = f.uses(kMargin), coordinate = f.uses(kBeta) || f.uses(kTarget);
    if (margin && coordinate)
      fail("loss_formula", "uses z together with beta or target: write a margin loss of z = <beta*, beta> or a "
                           "coordinate-wise loss of beta and target, not both");
    if (!margin && !f.uses(kBeta)) fail("loss_formula", "uses neither z nor beta: the loss would not depend on the state");
  }
  if (inst.normalization == Normalization::formula) {
    const Formula f = Formula::parse(inst.normalization_formula, normalization_formula_variables(), "normalization_formula");
    if (!f.uses(0)) fail("normalization_formula", "does not use x: every weight would be 1/T whatever the scores");
  }
}

// A normalization formula f needs Σ_j f(a_j(0)) certainly nonzero and every f(a_j(0)) defined,
// decided in interval arithmetic (enclosures of the exact values); "" when so, else why not.
std::string formula_singular_start(const std::string& text, const DecimalVector& a) {
  const CompiledFormula<IntervalD> f(Formula::parse(text, normalization_formula_variables(), "normalization_formula"));
  IntervalD F(0);
  for (std::size_t j = 0; j < a.size(); ++j) {
    try {
      F = F + f(num::parse_decimal<IntervalD>(a[j]));
    } catch (const std::exception& e) {
      return "normalization_formula is not defined at a[" + std::to_string(j) + "](0) = " + a[j] + ": " + e.what();
    }
  }
  // An end may be infinite (a formula that overflows double): written as such, never converted.
  const auto end = [](double x, bool up) {
    if (!std::isfinite(x)) return std::string(x < 0 ? "-inf" : "inf");
    return up ? num::decimal_up(x, 6) : num::decimal_down(x, 6);
  };
  if (!num::certainly_positive(F) && !num::certainly_negative(F))
    return "normalization_formula: sum_j f(a_j(0)) is not certainly nonzero (it lies in [" + end(F.lower(), false) + ", " +
           end(F.upper(), true) + "]): the weights alpha(0) = f(a)/sum_j f(a_j) are not defined";
  return "";
}

}  // namespace

const char* to_string(Loss l) {
  switch (l) {
    case Loss::logistic: return "logistic";
    case Loss::logistic_dataset: return "logistic_dataset";
    case Loss::square: return "square";
    case Loss::regression: return "regression";
    case Loss::cross_entropy: return "cross_entropy";
    case Loss::formula: return "formula";
  }
  return "?";
}

const char* to_string(Normalization n) {
  switch (n) {
    case Normalization::softmax: return "softmax";
    case Normalization::square: return "square";
    case Normalization::abs: return "abs";
    case Normalization::relu: return "relu";
    case Normalization::sum: return "sum";
    case Normalization::sigmoid: return "sigmoid";
    case Normalization::formula: return "formula";
  }
  return "?";
}

Loss parse_loss(const std::string& name) {
  for (Loss l : {Loss::logistic, Loss::logistic_dataset, Loss::square, Loss::regression, Loss::cross_entropy, Loss::formula})
    if (name == to_string(l)) return l;
  fail("loss", "unknown loss " + num::quoted(name) + " (logistic, logistic_dataset, square, regression, cross_entropy, formula)");
}

Normalization parse_normalization(const std::string& name) {
  for (Normalization n : {Normalization::softmax, Normalization::square, Normalization::abs, Normalization::relu,
                          Normalization::sum, Normalization::sigmoid, Normalization::formula})
    if (name == to_string(n)) return n;
  fail("normalization", "unknown normalization " + num::quoted(name) + " (softmax, square, abs, relu, sum, sigmoid, formula)");
}

const std::vector<std::string>& loss_formula_variables() {
  static const std::vector<std::string> v = {"z", "beta", "target"};
  return v;
}
const std::vector<std::string>& normalization_formula_variables() {
  static const std::vector<std::string> v = {"x"};
  return v;
}

bool loss_uses_beta(Loss l) { return l == Loss::logistic || l == Loss::square || l == Loss::formula; }
bool loss_uses_dataset(Loss l) { return l == Loss::logistic_dataset || l == Loss::regression; }
bool loss_uses_p(Loss l) { return l == Loss::cross_entropy; }

Instance parse_instance(const nlohmann::json& j) {
  if (!j.is_object()) fail("instance", "expected a JSON object");
  // A key the reader does not know is refused, not ignored: a mistyped "beta" or "normalisation"
  // would otherwise be a different instance than the one the user wrote. Notes of a user's own
  // go under "extra", which is accepted and never read.
  static const std::vector<std::string> known = {"model", "loss", "normalization", "T", "d", "V", "U", "a", "beta", "X",
                                                 "y", "p", "p_logits", "loss_formula", "normalization_formula",
                                                 "authors_run", "provenance", "id", "seed", "extra"};
  for (const auto& [key, value] : j.items())
    if (std::find(known.begin(), known.end(), key) == known.end())
      fail(key, "unknown key" + num::did_you_mean(key, known) + "; a note of your own goes under \"extra\"");
  Instance inst;
  inst.model = string_at(j, "model");
  if (inst.model != "value_softmax" && inst.model != "tied_value_softmax")
    fail("model", "unknown model " + num::quoted(inst.model) + " (value_softmax, tied_value_softmax)");
  inst.loss = parse_loss(string_at(j, "loss"));
  inst.normalization = parse_normalization(string_at(j, "normalization"));
  read_formulas(j, inst);
  inst.T = positive_size(require(j, "T"), "T");
  inst.d = positive_size(require(j, "d"), "d");
  if (inst.tied()) {
    if (inst.loss != Loss::logistic) fail("loss", "the tied model supports \"logistic\" only");
    if (inst.normalization != Normalization::softmax) fail("normalization", "the tied model supports \"softmax\" only");
    if (inst.T != inst.d) fail("T", "the tied model needs T = d (U is square), got T = " + std::to_string(inst.T) +
                                        ", d = " + std::to_string(inst.d));
    if (j.contains("V")) fail("V", "the tied model takes \"U\", not \"V\"");
    inst.V = matrix_at(require(j, "U"), "U", inst.d, inst.T);
  } else {
    inst.V = matrix_at(require(j, "V"), "V", inst.d, inst.T);
  }
  inst.a = vector_at(require(j, "a"), "a", inst.T);
  if (const std::string why = singular_start(inst.normalization, inst.a); !why.empty()) fail("a", why);
  if (inst.normalization == Normalization::formula)
    if (const std::string why = formula_singular_start(inst.normalization_formula, inst.a); !why.empty()) fail("a", why);
  if (loss_uses_beta(inst.loss)) {
    inst.beta = vector_at(require(j, "beta"), "beta", inst.d);
    if (all_zero(inst.beta)) fail("beta", "must not be the zero vector");
  } else if (j.contains("beta")) {
    inst.beta = vector_at(j["beta"], "beta", inst.d);  // allowed (u = Vᵀβ is reported), not used by the loss
  }
  if (loss_uses_dataset(inst.loss)) {
    inst.X = matrix_at(require(j, "X"), "X", 0, inst.d);
    inst.y = vector_at(require(j, "y"), "y", inst.X.size());
  }
  if (loss_uses_p(inst.loss)) {
    inst.p = vector_at(require(j, "p"), "p", inst.d);
    for (std::size_t k = 0; k < inst.p.size(); ++k)
      if (is_negative_decimal(inst.p[k])) fail("p[" + std::to_string(k) + "]", "must be ≥ 0");
    // the target distribution is p/Σp: a zero p has none (0/0)
    if (all_zero(inst.p)) fail("p", "must not be the zero vector (the target distribution p/sum p is 0/0)");
  }
  if (j.contains("p_logits")) {
    if (!loss_uses_p(inst.loss)) fail("p_logits", "only for loss \"cross_entropy\"");
    inst.p_logits = vector_at(j["p_logits"], "p_logits", inst.d);
  }
  if (j.contains("authors_run")) {
    if (!j["authors_run"].is_object()) fail("authors_run", "expected an object");
    inst.authors_run = j["authors_run"];
  }
  inst.provenance = string_at(j, "provenance");
  if (j.contains("id")) {
    if (!j["id"].is_string()) fail("id", "expected a string");
    inst.id = j["id"].get<std::string>();
  }
  if (j.contains("seed")) {
    const auto& s = j["seed"];
    if (s.is_number_unsigned()) inst.seed = s.get<std::uint64_t>();
    else if (s.is_string() && !s.get<std::string>().empty() &&
             s.get<std::string>().find_first_not_of("0123456789") == std::string::npos && s.get<std::string>().size() <= 19)
      inst.seed = std::stoull(s.get<std::string>());
    else fail("seed", "expected an unsigned integer");
  }
  return inst;
}

Instance load_instance(const std::string& path) {
  std::string text;
  try {
    text = support::read_input_file(path);  // a regular file only, size-capped, stopped at a NUL
  } catch (const std::invalid_argument& e) {
    fail("instance", e.what());
  }
  if (text.empty()) fail("instance", num::quoted(path) + " is an empty file");
  nlohmann::json j;
  try {
    j = num::parse_json_strict(text, num::quoted(path));  // no NUL, no duplicate key
  } catch (const nlohmann::json::exception& e) {
    fail("instance", num::quoted(path) + " is not valid JSON: " + num::json_error_excerpt(e.what()));
  } catch (const std::invalid_argument& e) {  // a NUL byte or a duplicate key
    fail("instance", e.what());
  }
  return parse_instance(j);
}

nlohmann::json to_json(const Instance& inst) {
  nlohmann::json j;
  j["model"] = inst.model;
  j["loss"] = to_string(inst.loss);
  j["normalization"] = to_string(inst.normalization);
  j["T"] = inst.T;
  j["d"] = inst.d;
  j[inst.tied() ? "U" : "V"] = inst.V;
  j["a"] = inst.a;
  if (!inst.beta.empty()) j["beta"] = inst.beta;
  if (!inst.X.empty()) {
    j["X"] = inst.X;
    j["y"] = inst.y;
  }
  if (!inst.p.empty()) j["p"] = inst.p;
  if (!inst.p_logits.empty()) j["p_logits"] = inst.p_logits;
  if (inst.loss == Loss::formula) j["loss_formula"] = inst.loss_formula;
  if (inst.normalization == Normalization::formula) j["normalization_formula"] = inst.normalization_formula;
  if (!inst.authors_run.is_null()) j["authors_run"] = inst.authors_run;
  j["provenance"] = inst.provenance;
  if (!inst.id.empty()) j["id"] = inst.id;
  if (inst.seed) j["seed"] = *inst.seed;
  return j;
}

}  // namespace softcert::instances
