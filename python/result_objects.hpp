#pragma once
// The result objects: fast and rigorous states as numpy arrays, decimals and mpmath intervals (a
// part of python/softcert_module.cpp).
#include "interruptible.hpp"

namespace {

// ---------------------------------------------------------------------------------------------
// Results

struct FastResult {};
struct RigorousResult {};
struct Trajectory {};

// The CLI's ranges (src/cli/cmd_integrate.cpp): 53 to 65536 bits, at most 4096 when rigorous.
constexpr unsigned kMaxRigorousPrecision = 4096;
unsigned precision_arg(py::handle x, const std::string& tier) {
  const auto precision = static_cast<unsigned>(int_arg(x, "precision", 53, 65536, "53 to 65536 bits"));
  if (tier == "rigorous" && precision > kMaxRigorousPrecision)
    value_error("precision: the rigorous tier takes at most " + std::to_string(kMaxRigorousPrecision) + " bits, got " +
                std::to_string(precision) + " (its Taylor order and memory grow with the precision)");
  return precision;
}

std::string tier_arg(py::handle x) {
  const std::string tier = str_arg(x, "tier");
  if (tier != "fast" && tier != "rigorous") value_error("tier: expected \"fast\" or \"rigorous\", got \"" + tier + "\"");
  return tier;
}

py::object progress_arg(py::handle x) {
  if (!x.is_none() && !PyCallable_Check(x.ptr()))
    value_error("progress: expected a callable progress(steps, t) or None, got " + type_name(x));
  return py::reinterpret_borrow<py::object>(x);
}

// The CLI's checks on END (src/cli/cmd_integrate.cpp), field "t" or "times[k]".
void check_positive(const std::string& t, const std::string& field) {
  if (!(softcert::num::parse_decimal<softcert::Real>(t) > 0))
    value_error(field + ": the horizon must be positive, got " + t);
}

struct FastArgs {
  unsigned precision = 53;
  std::string stepper = "auto", form = "full";
  std::optional<integ::PlanTime> time;  // empty: the plan's ("auto")
  std::optional<double> tolerance;
  bool reference = true;

  integ::FastOptions options() const {  // as run_fast in src/cli/cmd_integrate.cpp
    integ::FastOptions o;
    o.form = softcert::models::parse_form(form);
    o.time = time;
    o.stepper = integ::parse_stepper(stepper);
    o.precision_bits = precision;
    if (tolerance) o.tolerance = *tolerance;  // 0 is refused like the CLI's, not read as the default
    o.escalate = reference;
    return o;
  }
};

py::array_t<double> ends(const std::vector<integ::EnclosedValue>& v, bool up);

// The derived quantities' keys (integrate/derived_enclosures.hpp) in state/lower/upper dicts.
constexpr const char* kDerivedKeys[] = {"entropy", "max_weight", "score_gap", "gaps_to_max", "argmax"};

double end_or_nan(const std::optional<integ::EnclosedValue>& e, bool up) {
  return e ? (up ? e->value.upper_up() : e->value.lower_down()) : std::numeric_limits<double>::quiet_NaN();
}

// lower (up = false) or upper ends of the derived enclosures, outward-rounded doubles; NaN where
// a quantity is not enclosed; argmax the certain token (0-based) or -1.
void put_derived(py::dict& s, const integ::DerivedEnclosures& d, bool up) {
  s["entropy"] = end_or_nan(d.entropy, up);
  s["max_weight"] = end_or_nan(d.max_weight, up);
  s["score_gap"] = end_or_nan(d.score_gap, up);
  s["gaps_to_max"] = ends(d.gaps_to_max, up);
  s["argmax"] = d.argmax ? static_cast<long long>(*d.argmax) : -1LL;
}

// The state as doubles: the run's own at 53 bits, the nearest to its MPFR numbers above.
py::dict fast_state(const integ::FastState& r) {
  const integ::FastValues<double>& v = r.values;
  py::dict s;
  s["a"] = vector_array(v.a);
  s["u"] = optional_vector(v.u);
  s["softmax"] = vector_array(v.alpha);
  s["loss"] = v.loss;
  s["V"] = optional_matrix(v.V);
  put_derived(s, integ::derive_points(v.a, v.alpha, v.loss), false);  // point values: lower == upper
  return s;
}

py::dict fast_decimals(const integ::FastDecimals& d) {
  py::dict s;
  s["a"] = py::cast(d.a);
  s["u"] = d.u.empty() ? py::object(py::none()) : py::cast(d.u);
  s["softmax"] = py::cast(d.alpha);
  s["loss"] = d.loss;
  s["V"] = d.V.empty() ? py::object(py::none()) : py::cast(d.V);
  return s;
}

py::object fast_result(const integ::FastReport& rep) {
  py::object o = py::cast(FastResult{});
  const auto& r = rep.run;
  const integ::FastDecimals d = integ::decimals(r);
  o.attr("tier") = "fast";
  o.attr("t") = r.t;
  o.attr("tau") = d.tau.empty() ? py::object(py::none()) : py::str(d.tau);
  o.attr("precision_bits") = r.precision_bits;
  o.attr("stepper") = r.stepper;
  o.attr("form") = r.form;
  o.attr("tolerance") = r.tolerance;
  o.attr("steps") = r.steps;
  o.attr("rejected_steps") = r.rejected_steps;
  o.attr("seconds") = r.seconds;
  o.attr("state") = fast_state(r);
  o.attr("argmax") = o.attr("state")["argmax"].cast<long long>() < 0 ? py::object(py::none()) : o.attr("state")["argmax"];
  o.attr("decimals") = fast_decimals(d);
  o.attr("digits") = rep.digits ? py::object(py::float_(*rep.digits)) : py::object(py::none());
  o.attr("digits_by_field") = to_python(rep.digits_by_field);
  json j = integ::to_json(rep);
  j["derived"] = integ::to_json(integ::derive_points(r.values.a, r.values.alpha, r.values.loss));  // as the CLI's --json
  o.attr("reference") = rep.reference ? to_python(j["reference"]) : py::object(py::none());
  o.attr("json") = to_python(j);
  return o;
}

// Lower or upper ends of enclosures as doubles rounded outward.
py::array_t<double> ends(const std::vector<integ::EnclosedValue>& v, bool up) {
  py::array_t<double> out(static_cast<py::ssize_t>(v.size()));
  auto m = out.mutable_unchecked<1>();
  for (std::size_t i = 0; i < v.size(); ++i) m(static_cast<py::ssize_t>(i)) = up ? v[i].value.upper_up() : v[i].value.lower_down();
  return out;
}

py::array_t<double> ends(const std::vector<std::vector<integ::EnclosedValue>>& rows, bool up) {
  const std::size_t r = rows.size(), c = rows.empty() ? 0 : rows[0].size();
  py::array_t<double> out({static_cast<py::ssize_t>(r), static_cast<py::ssize_t>(c)});
  auto m = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < r; ++i)
    for (std::size_t k = 0; k < c; ++k)
      m(static_cast<py::ssize_t>(i), static_cast<py::ssize_t>(k)) = up ? rows[i][k].value.upper_up() : rows[i][k].value.lower_down();
  return out;
}

py::dict rigorous_ends(const integ::RigorousIntegrateResult& r, const integ::DerivedEnclosures& d, bool up) {
  py::dict s;
  s["a"] = ends(r.a, up);
  s["u"] = r.u.empty() ? py::object(py::none()) : py::object(ends(r.u, up));  // no β*: no u
  s["softmax"] = ends(r.softmax, up);
  s["loss"] = up ? r.loss.value.upper_up() : r.loss.value.lower_down();
  s["V"] = ends(r.V, up);
  put_derived(s, d, up);
  return s;
}

py::object rigorous_result(const integ::RigorousIntegrateResult& r, std::optional<double> seconds) {
  py::object o = py::cast(RigorousResult{});
  json j = integ::to_json(r);
  if (seconds) j["seconds"] = *seconds;  // as the CLI's --json
  o.attr("tier") = "rigorous";
  o.attr("t") = r.t;
  o.attr("precision_bits") = r.precision_bits;
  o.attr("order") = r.order;
  o.attr("time_variable") = integ::to_string(r.time_variable);
  o.attr("steps") = r.steps;
  o.attr("max_width") = r.max_width;
  o.attr("tau") = r.tau.empty() ? py::object(py::none()) : py::object(py::make_tuple(r.tau.lower_text(), r.tau.upper_text()));
  o.attr("seconds") = seconds ? py::object(py::float_(*seconds)) : py::object(py::none());
  const integ::DerivedEnclosures d = integ::derive_enclosures(r);
  o.attr("lower") = rigorous_ends(r, d, false);
  o.attr("upper") = rigorous_ends(r, d, true);
  o.attr("argmax") = d.argmax ? py::object(py::int_(*d.argmax)) : py::object(py::none());
  o.attr("derived") = to_python(j["derived"]);
  py::dict dec;
  for (const char* k : {"a", "u", "softmax", "loss", "V"}) dec[k] = j.contains(k) ? to_python(j[k]) : py::object(py::none());
  for (const char* k : {"entropy", "max_weight", "score_gap", "gaps_to_max"}) dec[k] = to_python(j["derived"][k]);
  o.attr("decimals") = dec;
  o.attr("json") = to_python(j);
  return o;
}

// mpmath intervals (outward-rounded at the result's precision) of one field of a rigorous result.
py::object mpmath_intervals(py::object self, const std::string& name) {
  py::object mpmath;
  try {
    mpmath = py::module_::import("mpmath");
  } catch (py::error_already_set&) {
    throw py::import_error("intervals() needs mpmath (apt-get install python3-mpmath)");
  }
  const py::dict dec = self.attr("decimals");
  if (!dec.contains(name)) value_error("field: no field \"" + name + "\" (a, u, softmax, loss, V)");
  const unsigned prec = std::max(53u, self.attr("precision_bits").cast<unsigned>());
  py::object iv = mpmath.attr("iv");
  struct Precision {  // mpmath.iv.prec for the conversion only (outward rounding at `prec` bits)
    py::object iv, old;
    Precision(py::object ctx, unsigned prec) : iv(std::move(ctx)), old(iv.attr("prec")) { iv.attr("prec") = prec; }
    ~Precision() {
      try {
        iv.attr("prec") = old;
      } catch (py::error_already_set& e) {
        e.discard_as_unraisable("softcert: restoring mpmath.iv.prec");
      }
    }
  } precision(iv, prec);
  std::function<py::object(py::handle)> convert = [&](py::handle x) -> py::object {
    const py::list l = py::reinterpret_borrow<py::list>(x);
    if (l.size() == 2 && py::isinstance<py::str>(l[0])) return iv.attr("mpf")(py::make_tuple(l[0], l[1]));
    py::list out;
    for (py::handle e : l) out.append(convert(e));
    return out;
  };
  return convert(dec[py::str(name)]);
}

std::string short_repr(py::handle self, std::initializer_list<const char*> names) {
  std::string s = type_name(self) + std::string("(");
  bool first = true;
  for (const char* n : names) {
    if (!py::hasattr(self, n)) continue;
    s += (first ? "" : ", ") + std::string(n) + "=" + py::repr(self.attr(n)).cast<std::string>();
    first = false;
  }
  return s + ")";
}

}  // namespace
